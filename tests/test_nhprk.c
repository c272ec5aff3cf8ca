/* test_nhprk.c: the special cases of the family nhprk (demartin2018 (14),
 * App. D; reading notes §1.3) that pin it to the paper's method (e2e
 * suite):
 *   - s = 2 is Stormer-Verlet with the previous step's multiplier in the
 *     first half-kick and a RATTLE-like end projection (the closed form of
 *     notes §1.3, written here in the harness's sign, mu = -lambda):
 *       p_h  = p_k + h/2 (-grad V(q_k) - A(q_k)' mu_k)
 *       q_1  = q_k + h M^-1 p_h
 *       mu_1 = (2/h) (A_1 M^-1 A_1')^-1 [A_1 M^-1 (p_h - h/2 grad V(q_1)) + a(q_1)]
 *       p_1  = p_h + h/2 (-grad V(q_1) - A_1' mu_1);
 *     the family's Newton solve must give the same nodes to round-off, with
 *     both solver backends, on the defaults and on held-out parameters and
 *     initial data;
 *   - the choice of the IIIA stage momenta p^i in the constraint (notes
 *     P1): on the family's Newton matrix the columns of Lambda^s are zero
 *     in the momentum rows (ahat_is = 0) and nonzero in the end-stage
 *     constraint rows, and the matrix is regular; the constraint on the
 *     IIIB stage momenta P^i = M V^i instead (rows d/dx Phi(Q^i, V^i),
 *     built here from the system's A and D_q Phi) leaves those columns
 *     zero: singular;
 *   - node 0: the projected p_0 and the exact multiplier (lambda0=exact),
 *     zero (lambda0=zero); the constraint at every node to round-off.
 * The orders (Cor. 5.2.1) and the loss with lambda_0 = 0 are measured by
 * tests/test_nhprk_orders.sh through `vistudy order`. */
#include "check.h"
#include "vistudy.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(...) VI_CHECK(T, __VA_ARGS__)
enum { NMAX = 4, KMAX = 64, NNMAX = 64 };

typedef struct traj {
  int n, ml;
  long K;
  double q[(KMAX + 1) * NMAX], p[(KMAX + 1) * NMAX], l[(KMAX + 1) * NMAX];
} traj;

static int keep(void *ctx, long k, const vi_node_d *nd) {
  traj *t = ctx;
  if (k > KMAX) {
    return VI_EINVAL;
  }
  memcpy(t->q + k * t->n, nd->q, (size_t)t->n * sizeof(double));
  memcpy(t->p + k * t->n, nd->p, (size_t)t->n * sizeof(double));
  memcpy(t->l + k * t->ml, nd->lambda, (size_t)t->ml * sizeof(double));
  t->K = k;
  return VI_OK;
}

static vi_system_d *sys_make(vi_check_ctx *T, const char *name, int nset,
                             const char *const *set) {
  char err[512] = "";
  const vi_system_type_d *ty = vi_system_find_d(name, err, sizeof err);
  vi_system_d *s = NULL;
  int rc = ty ? vi_system_alloc_d(ty, nset, set, &s, err, sizeof err) : VI_EINVAL;
  CHECK(rc == VI_OK, "%s: %s", name, err);
  return s;
}

static int run(vi_check_ctx *T, vi_system_d *sys, const char *spec, int kind, double h,
               long N, traj *t) {
  char err[512] = "";
  vi_stepper_d *st = NULL;
  int rc = vi_stepper_alloc_d(spec, sys, &st, err, sizeof err);
  CHECK(rc == VI_OK, "%s: %s", spec, err);
  if (rc != VI_OK) {
    return rc;
  }
  vi_solver_opts_d so;
  vi_solver_opts_default_d(&so);
  so.kind = kind;
  vi_node_d *nd = vi_node_alloc_d(vi_stepper_dims_d(st));
  t->n = sys->n;
  t->ml = sys->ml;
  rc = vi_integrate_d(st, &so, h, N, sys->q0, sys->p0, nd, keep, t, NULL);
  CHECK(rc == VI_OK, "%s: integrate failed (%s)", spec, vi_strerror(rc));
  free(nd);
  vi_stepper_free_d(st);
  return rc;
}

/* One step of the s = 2 closed form (file comment) from (q, p, mu). */
static void closed_form_step(const vi_system_d *sys, double h, double *q, double *p,
                             double *mu) {
  const int n = sys->n, k = sys->m_nh;
  const vi_system_type_d *ty = sys->type;
  double Mi[NNMAX], g[NMAX], A[NMAX * NMAX], ph[NMAX], w[NMAX], a[NMAX] = {0};
  vi_system_mass_inv_d(sys, q, Mi);
  ty->mech->grad_potential(sys->state, q, g);
  ty->nh->matrix(sys->state, q, A);
  for (int i = 0; i < n; i++) {
    double f = -g[i];
    for (int r = 0; r < k; r++) {
      f -= A[r * n + i] * mu[r];
    }
    ph[i] = p[i] + h / 2 * f;
  }
  for (int i = 0; i < n; i++) {
    double v = 0;
    for (int j = 0; j < n; j++) {
      v += Mi[i * n + j] * ph[j];
    }
    q[i] += h * v;
  }
  ty->mech->grad_potential(sys->state, q, g);
  ty->nh->matrix(sys->state, q, A);
  if (ty->nh->affine) {
    ty->nh->affine(sys->state, q, a);
  }
  /* C = A M^-1 A' (k x k), rhs = A M^-1 (p_h - h/2 grad V) + a. */
  double AMi[NMAX * NMAX], C[NMAX * NMAX], rhs[NMAX];
  int piv[NMAX];
  for (int i = 0; i < n; i++) {
    w[i] = ph[i] - h / 2 * g[i];
  }
  for (int r = 0; r < k; r++) {
    for (int j = 0; j < n; j++) {
      double s = 0;
      for (int l = 0; l < n; l++) {
        s += A[r * n + l] * Mi[l * n + j];
      }
      AMi[r * n + j] = s;
    }
  }
  for (int r = 0; r < k; r++) {
    double s = a[r];
    for (int j = 0; j < n; j++) {
      s += AMi[r * n + j] * w[j];
    }
    rhs[r] = 2 / h * s;
    for (int c = 0; c < k; c++) {
      double t = 0;
      for (int j = 0; j < n; j++) {
        t += AMi[r * n + j] * A[c * n + j];
      }
      C[r * k + c] = t;
    }
  }
  vi_lu_factor_d(k, C, piv);
  vi_lu_solve_d(k, C, piv, rhs);
  for (int r = 0; r < k; r++) {
    mu[r] = rhs[r];
  }
  for (int i = 0; i < n; i++) {
    double f = -g[i];
    for (int r = 0; r < k; r++) {
      f -= A[r * n + i] * mu[r];
    }
    p[i] = ph[i] + h / 2 * f;
  }
}

static void test_closed_form(vi_check_ctx *T, const char *label, int nset,
                             const char *const *set, double h, long N) {
  vi_system_d *sys = sys_make(T, "nonholonomic-particle", nset, set);
  if (!sys) {
    return;
  }
  static traj t;
  for (int kind = VI_SOLVER_NEWTON; kind <= VI_SOLVER_KINSOL; kind++) {
    if (run(T, sys, "nhprk:s=2", kind, h, N, &t) != VI_OK) {
      continue;
    }
    const int n = sys->n, k = sys->m_nh;
    double q[NMAX], p[NMAX], mu[NMAX];
    memcpy(q, t.q, (size_t)n * sizeof *q);
    memcpy(p, t.p, (size_t)n * sizeof *p);
    memcpy(mu, t.l, (size_t)k * sizeof *mu);
    double dqp = 0, dmu = 0, pmax = 0;
    for (long s = 1; s <= N; s++) {
      closed_form_step(sys, h, q, p, mu);
      for (int i = 0; i < n; i++) {
        double d = fabs(q[i] - t.q[s * n + i]) / (1 + fabs(q[i]));
        double e = fabs(p[i] - t.p[s * n + i]) / (1 + fabs(p[i]));
        dqp = fmax(dqp, fmax(d, e) / sqrt((double)s + 1));
        pmax = fmax(pmax, fabs(p[i]));
      }
      for (int r = 0; r < k; r++) {
        dmu = fmax(dmu, fabs(mu[r] - t.l[s * k + r]) / sqrt((double)s + 1));
      }
    }
    /* Round-off: the solver stops at rtol = 100 eps; mu acts through h. */
    const double eps = 2.220446049250313e-16;
    dmu /= (1 + pmax) / h;
    printf("s = 2 closed form, %s, %s: q, p within %.2f eps, mu within %.2f eps (1+|p|)/h\n",
           label, kind ? "kinsol" : "newton", dqp / eps, dmu / eps);
    CHECK(dqp <= 100 * eps && dmu <= 100 * eps,
          "s = 2 against the closed form (%s, %s): q, p %.3g, mu %.3g (relative, per sqrt(k))",
          label, kind ? "kinsol" : "newton", dqp, dmu);
  }
  vi_system_free_d(sys);
}

/* The Newton matrix with the constraint on p^i (the family's) and on P^i
 * (the rejected choice), s = 3, at the first step's guess. */
static void test_singular(vi_check_ctx *T, int nset, const char *const *set) {
  vi_system_d *sys = sys_make(T, "nonholonomic-particle", nset, set);
  if (!sys) {
    return;
  }
  enum { S = 3 };
  const double h = 0.1;
  char err[512] = "";
  vi_stepper_d *st = NULL;
  int rc = vi_stepper_alloc_d("nhprk:s=3", sys, &st, err, sizeof err);
  CHECK(rc == VI_OK, "nhprk:s=3: %s", err);
  const int n = sys->n, k = sys->m_nh, N = S * n + (S - 1) * k;
  vi_node_d *nd = vi_node_alloc_d(vi_stepper_dims_d(st));
  double *J = calloc((size_t)N * N, sizeof *J), *J2 = calloc((size_t)N * N, sizeof *J2);
  int *piv = calloc((size_t)N, sizeof *piv);
  rc = vi_stepper_init_d(st, NULL, h, 0, sys->q0, sys->p0, nd);
  if (rc == VI_OK) {
    rc = vi_stepper_assemble_d(st, NULL, J);
  }
  CHECK(rc == VI_OK && vi_stepper_unknowns_d(st) == N, "assemble: %s, %d unknowns (want %d)",
        vi_strerror(rc), vi_stepper_unknowns_d(st), N);
  if (rc == VI_OK) {
    /* The columns of Lambda^s (the last k): zero in the momentum rows,
     * nonzero in the end-stage constraint rows. */
    const int cs = S * n + (S - 2) * k;
    double zP = 0, nzPhi = 0;
    for (int c = cs; c < N; c++) {
      for (int r = 0; r < S * n; r++) {
        zP = fmax(zP, fabs(J[(size_t)r * N + c]));
      }
      for (int r = cs; r < N; r++) {
        nzPhi = fmax(nzPhi, fabs(J[(size_t)r * N + c]));
      }
    }
    CHECK(zP == 0 && nzPhi > 0,
          "Lambda^s columns: %.3g in the momentum rows (want 0), %.3g in the end constraint "
          "(want > 0)", zP, nzPhi);
    memcpy(J2, J, (size_t)N * N * sizeof *J);
    CHECK(vi_lu_factor_d(N, J2, piv) == VI_OK, "the family's Newton matrix is singular");
    /* The rejected rows: d/dx Phi(Q^i, V^i), i = 2..s, at the guess V^i =
     * M^-1 p_0 (Q^i = q_0 + h c_i v_0): h a_il D_q Phi(Q^i, V^i) + A(Q^i)
     * delta_il in the V^l columns, nothing in the Lambda columns. */
    double Aq[S * S], b[S], c[S], v[NMAX], Q[NMAX], Am[NMAX * NMAX], D[NMAX * NMAX];
    vi_tableau_d(VI_TAB_LOBATTO_IIIA, S, Aq, b, c);
    vi_system_minv_apply_d(sys, sys->q0, nd->p, v);
    memcpy(J2, J, (size_t)N * N * sizeof *J);
    for (int i = 1; i < S; i++) {
      for (int a = 0; a < n; a++) {
        Q[a] = nd->q[a] + h * c[i] * v[a];
      }
      sys->type->nh->matrix(sys->state, Q, Am);
      sys->type->nh->dphi_dq(sys->state, Q, v, D);
      for (int r = 0; r < k; r++) {
        double *row = J2 + (size_t)(S * n + (i - 1) * k + r) * N;
        memset(row, 0, (size_t)N * sizeof *row);
        for (int l = 0; l < S; l++) {
          for (int a = 0; a < n; a++) {
            row[l * n + a] = h * Aq[i * S + l] * D[r * n + a] + (l == i ? Am[r * n + a] : 0);
          }
        }
      }
    }
    CHECK(vi_lu_factor_d(N, J2, piv) == VI_SINGULAR,
          "the constraint on the IIIB stage momenta should leave the Newton matrix singular");
  }
  free(J);
  free(J2);
  free(piv);
  free(nd);
  vi_stepper_free_d(st);
  vi_system_free_d(sys);
}

/* Node 0 and the constraint at the nodes, both starts. */
static void test_start(vi_check_ctx *T, int nset, const char *const *set) {
  vi_system_d *sys = sys_make(T, "nonholonomic-particle", nset, set);
  if (!sys) {
    return;
  }
  static traj t;
  double lam[NMAX], r[NMAX];
  vi_system_lambda_d(sys, sys->q0, sys->p0, lam);
  for (int z = 0; z < 2; z++) {
    if (run(T, sys, z ? "nhprk:s=3,lambda0=zero" : "nhprk:s=4", VI_SOLVER_NEWTON, 0.1, 20,
            &t) != VI_OK) {
      continue;
    }
    CHECK(z ? t.l[0] == 0 : fabs(t.l[0] - lam[0]) <= 1e-15 * (1 + fabs(lam[0])),
          "node 0 multiplier %.17g (want %.17g)", t.l[0], z ? 0.0 : lam[0]);
    double rmax = 0;
    for (long s = 0; s <= t.K; s++) {
      vi_system_nh_residual_d(sys, t.q + s * t.n, t.p + s * t.n, r);
      rmax = fmax(rmax, fabs(r[0]));
    }
    CHECK(rmax <= 1e-14, "|A v + a| at the nodes %.3g: the end stage keeps it", rmax);
  }
  vi_system_free_d(sys);
}

int main(void) {
  vi_check_ctx ctx = {0, 0}, *T = &ctx;
  static const char *const h1[] = {"k=1.7", "m=0.8", "q0=0.6,-0.9,0.3", "v0=0.5,0.4,-0.45"};
  static const char *const h2[] = {"k=-0.35", "m=2.3", "q0=-1.2,0.25,0.7",
                                   "v0=-0.8,1.1,-0.2"};
  test_closed_form(T, "defaults", 0, NULL, 0.1, 50);
  test_closed_form(T, "held-out 1", 4, h1, 0.05, 60);
  test_closed_form(T, "held-out 2 (k < 0)", 4, h2, 0.2, 40);
  test_singular(T, 0, NULL);
  test_singular(T, 4, h1);
  test_start(T, 4, h2);
  return vi_check_done(&ctx, "nhprk");
}
