/* test_galerkin.c: the constrained Galerkin family (wenger2017) against what
 * the paper says it is, and its failure behaviour:
 *
 * - §2.2/§3.5: s = w = 1 with Lobatto r = 2 is SHAKE: same positions as a
 *   direct SHAKE recursion, and after projection (4) the RATTLE momenta;
 * - §3.5: w = s - 1 with Lobatto r = s is the constrained s-stage Lobatto
 *   IIIA-IIIB method: same q, and P p equals its momentum (s = 2, 3, 4);
 * - convergence: s = w = 2, Gauss r = 2 on the planar pendulum against its
 *   exact solution: the q error falls by about 16x when h halves;
 * - quad precision: the constraint residual stays at quad round-off;
 * - KINSOL and the built-in Newton give the same trajectory;
 * - Theorem 1 and the r >= s rule are refused with the reason;
 * - a deliberately broken system is reported, not crashed on.
 * Runs in the "e2e" suite. */
#include "check.h"
#include "vistudy.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NMAX 6
#define MMAX 2

typedef struct traj {
  int n, m, K;
  double *q, *p, *lam; /* (K+1) x n, (K+1) x n, (K+1) x m */
} traj;

static void traj_alloc(traj *t, int n, int m, int K) {
  t->n = n;
  t->m = m;
  t->K = K;
  t->q = calloc((size_t)(K + 1) * n, sizeof *t->q);
  t->p = calloc((size_t)(K + 1) * n, sizeof *t->p);
  t->lam = calloc((size_t)(K + 1) * m, sizeof *t->lam);
}

static void traj_free(traj *t) {
  free(t->q);
  free(t->p);
  free(t->lam);
}

static vi_system_d *make_system(const char *name, int nset, const char *const *set) {
  char err[512];
  const vi_system_type_d *ty = vi_system_find_d(name, err, sizeof err);
  vi_system_d *sys = NULL;
  if (!ty || vi_system_alloc_d(ty, nset, set, &sys, err, sizeof err) != VI_OK) {
    fprintf(stderr, "cannot build %s: %s\n", name, err);
    exit(2);
  }
  return sys;
}

/* Run a galerkin spec for K steps; returns the status of the first failure. */
static int run_spec(const vi_system_d *sys, const char *spec, double h, int K,
                    int solver, traj *out) {
  char err[512];
  vi_stepper_d *st = NULL;
  int rc = vi_stepper_alloc_d(spec, sys, &st, err, sizeof err);
  if (rc != VI_OK) {
    fprintf(stderr, "%s: %s\n", spec, err);
    return rc;
  }
  vi_solver_opts_d so;
  vi_solver_opts_default_d(&so);
  so.kind = solver;
  traj_alloc(out, sys->n, sys->m, K);
  /* Nodes stored in place along the trajectory (galerkin has no extra
   * block). */
  vi_node_d nd = {0, out->q, out->p, out->lam, NULL, NULL};
  rc = vi_stepper_init_d(st, &so, h, 0, sys->q0, sys->p0, &nd);
  for (int k = 1; rc == VI_OK && k <= K; k++) {
    nd.q = out->q + (size_t)k * sys->n;
    nd.p = out->p + (size_t)k * sys->n;
    nd.lambda = out->lam + (size_t)k * sys->m;
    rc = vi_stepper_step_d(st, &nd);
  }
  vi_stepper_free_d(st);
  return rc;
}

static double maxdiff(const double *a, const double *b, size_t len) {
  double r = 0;
  for (size_t i = 0; i < len; i++) {
    double d = fabs(a[i] - b[i]);
    r = d > r ? d : r;
  }
  return r;
}

/* Small dense Newton with a central-difference Jacobian, for the direct
 * reference schemes below (independent of the library's solver). */
typedef void (*resid_fn)(void *ctx, const double *x, double *F);

static int fd_newton(resid_fn f, void *ctx, int N, double *x) {
  double F[64], Fp[64], Fm[64], J[64 * 64], dx[64];
  int piv[64];
  for (int it = 0; it < 60; it++) {
    f(ctx, x, F);
    for (int j = 0; j < N; j++) {
      double xj = x[j], e = 1e-6 * (1 + fabs(xj));
      x[j] = xj + e;
      f(ctx, x, Fp);
      x[j] = xj - e;
      f(ctx, x, Fm);
      x[j] = xj;
      for (int i = 0; i < N; i++) {
        J[i * N + j] = (Fp[i] - Fm[i]) / (2 * e);
      }
    }
    if (vi_lu_factor_d(N, J, piv) != VI_OK) {
      return -1;
    }
    for (int i = 0; i < N; i++) {
      dx[i] = -F[i];
    }
    vi_lu_solve_d(N, J, piv, dx);
    double nrm = 0;
    for (int i = 0; i < N; i++) {
      x[i] += dx[i];
      nrm = fmax(nrm, fabs(dx[i]) / (1 + fabs(x[i])));
    }
    if (nrm < 1e-15) {
      return 0;
    }
  }
  return 0; /* FD Jacobian: accept the last iterate, the checks judge it */
}

/* ---- direct SHAKE (wenger2017 §2.2, (10)) ------------------------------ */

typedef struct shake_ctx {
  const vi_system_d *sys;
  double base[NMAX], Gt[NMAX * MMAX], h2;
  double q1[NMAX];
  double Minv[NMAX * NMAX]; /* the constant M^-1 */
} shake_ctx;

/* q1 = base - h2 M^-1 G(q_k)' lambda; residual g(q1). */
static void shake_res(void *c_, const double *lam, double *F) {
  shake_ctx *c = c_;
  const vi_system_d *sys = c->sys;
  int n = sys->n, m = sys->m;
  for (int i = 0; i < n; i++) {
    c->q1[i] = c->base[i];
    for (int j = 0; j < n; j++) {
      double fj = 0;
      for (int k = 0; k < m; k++) {
        fj += c->Gt[k * n + j] * lam[k];
      }
      c->q1[i] -= c->h2 * c->Minv[i * n + j] * fj;
    }
  }
  sys->type->holo->constraint(sys->state, c->q1, F);
}

static void direct_shake(const vi_system_d *sys, double h, int K, double *q) {
  int n = sys->n, m = sys->m;
  shake_ctx c = {.sys = sys};
  double dV[NMAX], lam[MMAX] = {0};
  vi_system_mass_inv_d(sys, sys->q0, c.Minv);
  memcpy(q, sys->q0, (size_t)n * sizeof *q);
  for (int k = 0; k < K; k++) {
    const double *qk = q + (size_t)k * n;
    sys->type->mech->grad_potential(sys->state, qk, dV);
    sys->type->holo->constraint_jac(sys->state, qk, c.Gt);
    for (int i = 0; i < n; i++) {
      double a = 0, v = 0;
      for (int j = 0; j < n; j++) {
        a += c.Minv[i * n + j] * dV[j];
        v += c.Minv[i * n + j] * sys->p0[j];
      }
      /* First step from (q0, p0); then the two-step recursion (10). */
      c.base[i] = k == 0 ? qk[i] + h * v - h * h / 2 * a
                         : 2 * qk[i] - q[(size_t)(k - 1) * n + i] - h * h * a;
    }
    c.h2 = k == 0 ? h * h / 2 : h * h;
    fd_newton(shake_res, &c, m, lam);
    shake_res(&c, lam, (double[MMAX]){0});
    memcpy(q + (size_t)(k + 1) * n, c.q1, (size_t)n * sizeof *q);
  }
}

/* ---- direct constrained Lobatto IIIA-IIIB (Jay 1996) ------------------- */

typedef struct lob_ctx {
  const vi_system_d *sys;
  int s;
  double A[16], Ah[16], b[4], h;
  double q0[NMAX], p0[NMAX];
  double q1[NMAX], p1[NMAX];
  double M[NMAX * NMAX], Minv[NMAX * NMAX]; /* constant */
} lob_ctx;

/* Unknowns: V_1..V_s (n each), Lambda_1..Lambda_s (m each). Equations:
 * M V_i = P_i, g(Q_i) = 0 (i >= 2), G(q1) M^-1 p1 = 0. */
static void lob_res(void *c_, const double *x, double *F) {
  lob_ctx *c = c_;
  const vi_system_d *sys = c->sys;
  int n = sys->n, m = sys->m, s = c->s;
  const double *V = x, *L = x + s * n;
  double Q[4][NMAX], Fo[4][NMAX], G[NMAX * MMAX], g[MMAX];
  for (int i = 0; i < s; i++) {
    for (int a = 0; a < n; a++) {
      Q[i][a] = c->q0[a];
      for (int j = 0; j < s; j++) {
        Q[i][a] += c->h * c->A[i * s + j] * V[j * n + a];
      }
    }
  }
  for (int j = 0; j < s; j++) {
    sys->type->mech->grad_potential(sys->state, Q[j], Fo[j]);
    sys->type->holo->constraint_jac(sys->state, Q[j], G);
    for (int a = 0; a < n; a++) {
      for (int k = 0; k < m; k++) {
        Fo[j][a] += G[k * n + a] * L[j * m + k];
      }
    }
  }
  int row = 0;
  for (int i = 0; i < s; i++) {
    for (int a = 0; a < n; a++) {
      double P = c->p0[a], MV = 0;
      for (int j = 0; j < s; j++) {
        P -= c->h * c->Ah[i * s + j] * Fo[j][a];
      }
      for (int b2 = 0; b2 < n; b2++) {
        MV += c->M[a * n + b2] * V[i * n + b2];
      }
      F[row++] = MV - P;
    }
  }
  for (int i = 1; i < s; i++) {
    sys->type->holo->constraint(sys->state, Q[i], g);
    for (int k = 0; k < m; k++) {
      F[row++] = g[k];
    }
  }
  for (int a = 0; a < n; a++) {
    c->q1[a] = c->q0[a];
    c->p1[a] = c->p0[a];
    for (int j = 0; j < s; j++) {
      c->q1[a] += c->h * c->b[j] * V[j * n + a];
      c->p1[a] -= c->h * c->b[j] * Fo[j][a];
    }
  }
  double gv[MMAX];
  vi_system_hidden_d(sys, c->q1, c->p1, gv);
  for (int k = 0; k < m; k++) {
    F[row++] = gv[k];
  }
}

static void direct_lobatto(const vi_system_d *sys, int s, double h, int K,
                           double *q, double *p) {
  int n = sys->n, m = sys->m;
  lob_ctx c = {.sys = sys, .s = s, .h = h};
  vi_system_mass_d(sys, sys->q0, c.M);
  vi_system_mass_inv_d(sys, sys->q0, c.Minv);
  double cc[4], bb[4];
  vi_tableau_d(VI_TAB_LOBATTO_IIIA, s, c.A, c.b, cc);
  vi_tableau_d(VI_TAB_LOBATTO_IIIB, s, c.Ah, bb, cc);
  double x[64] = {0};
  memcpy(q, sys->q0, (size_t)n * sizeof *q);
  memcpy(p, sys->p0, (size_t)n * sizeof *p);
  for (int k = 0; k < K; k++) {
    memcpy(c.q0, q + (size_t)k * n, (size_t)n * sizeof *q);
    memcpy(c.p0, p + (size_t)k * n, (size_t)n * sizeof *p);
    for (int j = 0; j < s; j++) {
      for (int a = 0; a < n; a++) {
        double v = 0;
        for (int b2 = 0; b2 < n; b2++) {
          v += c.Minv[a * n + b2] * c.p0[b2];
        }
        x[j * n + a] = v;
      }
    }
    fd_newton(lob_res, &c, s * (n + m), x);
    double F[64];
    lob_res(&c, x, F);
    memcpy(q + (size_t)(k + 1) * n, c.q1, (size_t)n * sizeof *q);
    memcpy(p + (size_t)(k + 1) * n, c.p1, (size_t)n * sizeof *p);
  }
}

/* ---- a deliberately broken system --------------------------------------- */

/* The planar pendulum with a grad V that fails once the bob crosses to
 * x < 0: the step that needs it must return the callback's status, fatal
 * (< 0) or recoverable (> 0), instead of crashing or going on. */
static int broken_grad_fatal(const void *state, const double *q, double *dV) {
  if (q[0] < 0) {
    return -3;
  }
  char err[64];
  return vi_system_find_d("planar-pendulum", err, sizeof err)->mech->grad_potential(state, q, dV);
}

static int broken_grad_recoverable(const void *state, const double *q, double *dV) {
  int rc = broken_grad_fatal(state, q, dV);
  return rc < 0 ? 1 : rc;
}

/* The typed constructor: the options struct gives the stepper (canonical
 * spec, then the same trajectory) the spec string gives, and options out
 * of range or ruled out by the paper are refused with the reason. */
static void test_typed(vi_check_ctx *c, const vi_system_d *sys) {
  char err[512] = "", a[256] = "", b[256] = "";
  vi_stepper_d *st = NULL, *su = NULL;
  const vi_method_type_d *gal = NULL, *man = NULL;
  for (int i = 0; vi_method_types_d[i]; i++) {
    gal = strcmp(vi_method_types_d[i]->name, "galerkin") == 0 ? vi_method_types_d[i] : gal;
    man = strcmp(vi_method_types_d[i]->name, "man2020") == 0 ? vi_method_types_d[i] : man;
  }
  if (!gal || !man) {
    VI_CHECK(c, 0, "galerkin or man2020 not registered");
    return;
  }
  vi_galerkin_opts go = {.s = 3, .w = 2, .quadL = VI_RULE_LOBATTO, .quadZ = VI_RULE_LOBATTO,
                         .ctrl = VI_CTRL_LOBATTO};
  int rc = vi_stepper_alloc_opts_d(gal, &go, sys, &st, err, sizeof err);
  int ru = vi_stepper_alloc_d("galerkin:s=3,w=2,quadL=lobatto", sys, &su, err, sizeof err);
  if (rc == VI_OK && ru == VI_OK) {
    vi_stepper_spec_d(st, a, sizeof a);
    vi_stepper_spec_d(su, b, sizeof b);
  }
  VI_CHECK(c, rc == VI_OK && ru == VI_OK && strcmp(a, b) == 0, "typed galerkin: %d %d '%s' '%s'",
           rc, ru, a, b);
  double n1[16], n2[16];
  vi_node_d x, y;
  const vi_dims dd = vi_system_dims_d(sys);
  vi_node_bind_d(&x, n1, &dd);
  vi_node_bind_d(&y, n2, &dd);
  if (rc == VI_OK && ru == VI_OK) {
    int r1 = vi_integrate_d(st, NULL, 0.02, 25, sys->q0, sys->p0, &x, NULL, NULL, NULL);
    int r2 = vi_integrate_d(su, NULL, 0.02, 25, sys->q0, sys->p0, &y, NULL, NULL, NULL);
    VI_CHECK(c, r1 == VI_OK && r2 == VI_OK &&
                    memcmp(n1, n2, (size_t)(2 * sys->n + sys->m) * sizeof *n1) == 0,
             "typed galerkin: a different trajectory");
  }
  vi_stepper_free_d(st);
  vi_stepper_free_d(su);
  st = NULL;
  go.w = 4; /* w > s with Lobatto: Theorem 1 */
  rc = vi_stepper_alloc_opts_d(gal, &go, sys, &st, err, sizeof err);
  VI_CHECK(c, rc == VI_EINVAL && st == NULL && strstr(err, "Theorem 1"),
           "typed galerkin w > s: %d '%s'", rc, err);
  go.w = 0;
  go.s = 40;
  rc = vi_stepper_alloc_opts_d(gal, &go, sys, &st, err, sizeof err);
  VI_CHECK(c, rc == VI_EINVAL && st == NULL && strstr(err, "out of range"),
           "typed galerkin s = 40: %d '%s'", rc, err);
  vi_man2020_opts mo = {.m = 4, .ctrl = VI_CTRL_LOBATTO, .quadU = VI_RULE_GAUSS,
                        .quadC = VI_RULE_GAUSS};
  rc = vi_stepper_alloc_opts_d(man, &mo, sys, &st, err, sizeof err);
  if (rc == VI_OK) {
    vi_stepper_spec_d(st, a, sizeof a);
  }
  VI_CHECK(c, rc == VI_OK && strcmp(a, "man2020:alg=LGG,m=4") == 0, "typed man2020: %d '%s' %s",
           rc, a, err);
  vi_stepper_free_d(st);
  st = NULL;
  mo.m = 1;
  rc = vi_stepper_alloc_opts_d(man, &mo, sys, &st, err, sizeof err);
  VI_CHECK(c, rc == VI_EINVAL && st == NULL && strstr(err, "m = 1 out of range; valid: 2..16"),
           "typed man2020 m = 1: %d '%s'", rc, err);
  /* A named scheme in the typed options sets its keys where they hold 0,
   * giving the stepper of the spec string, and refuses a key that differs. */
  static const struct {
    vi_galerkin_opts o;
    const char *spec; /* NULL: refused */
  } sch[] = {
      {{.scheme = VI_GALERKIN_SHAKE, .quadZ = VI_RULE_LOBATTO, .ctrl = VI_CTRL_LOBATTO},
       "galerkin:scheme=shake"},
      {{.scheme = VI_GALERKIN_RATTLE, .quadZ = VI_RULE_LOBATTO, .ctrl = VI_CTRL_LOBATTO},
       "galerkin:scheme=rattle"},
      {{.s = 4, .scheme = VI_GALERKIN_LOBATTO3AB, .quadZ = VI_RULE_LOBATTO,
        .ctrl = VI_CTRL_LOBATTO},
       "galerkin:scheme=lobatto3ab,s=4"},
      {{.s = 3, .scheme = VI_GALERKIN_SHAKE}, NULL},
      {{.s = 4, .w = 2, .scheme = VI_GALERKIN_LOBATTO3AB}, NULL},
      {{.s = 2, .scheme = 7}, NULL},
  };
  for (size_t i = 0; i < sizeof sch / sizeof sch[0]; i++) {
    vi_galerkin_opts o = sch[i].o;
    if (o.s == 0 && o.scheme != VI_GALERKIN_SHAKE && o.scheme != VI_GALERKIN_RATTLE) {
      o.s = 2;
    }
    st = su = NULL;
    rc = vi_stepper_alloc_opts_d(gal, &o, sys, &st, err, sizeof err);
    if (!sch[i].spec) {
      VI_CHECK(c, rc == VI_EINVAL && st == NULL, "typed scheme case %zu accepted", i);
      vi_stepper_free_d(st);
      continue;
    }
    ru = vi_stepper_alloc_d(sch[i].spec, sys, &su, err, sizeof err);
    a[0] = b[0] = '\0';
    if (rc == VI_OK && ru == VI_OK) {
      vi_stepper_spec_d(st, a, sizeof a);
      vi_stepper_spec_d(su, b, sizeof b);
    }
    VI_CHECK(c, rc == VI_OK && ru == VI_OK && strcmp(a, b) == 0,
             "typed scheme %s: %d %d '%s' '%s' %s", sch[i].spec, rc, ru, a, b, err);
    vi_stepper_free_d(st);
    vi_stepper_free_d(su);
  }
}

/* The option tables (core/options.c) over the registry: every example
 * spec's canonical form parses to itself, and a bad key or value is
 * refused with the valid choices the table lists; each family on the
 * first system of the registry it can integrate. */
static void test_option_tables(vi_check_ctx *c) {
  char err[512], a[256], b[256], bad[300];
  for (int i = 0; vi_method_types_d[i]; i++) {
    const vi_method_type_d *mt = vi_method_types_d[i];
    vi_system_d *sys = NULL;
    /* The first system the family accepts with its first example (its
     * tables, and its own refusals: bs99 takes only a Lagrange top). */
    for (int k = 0; !sys && vi_system_types_d[k]; k++) {
      if (vi_method_compatible_d(mt, vi_system_types_d[k], NULL, 0)) {
        sys = make_system(vi_system_types_d[k]->info->name, 0, NULL);
        vi_stepper_d *probe = NULL;
        if (mt->examples && mt->examples[0] &&
            vi_stepper_alloc_d(mt->examples[0], sys, &probe, err, sizeof err) != VI_OK) {
          vi_system_free_d(sys);
          sys = NULL;
        }
        vi_stepper_free_d(probe);
      }
    }
    VI_CHECK(c, sys != NULL, "family %s: no system in the registry it accepts", mt->name);
    if (!sys) {
      continue;
    }
    for (int e = 0; mt->examples && mt->examples[e]; e++) {
      vi_stepper_d *st = NULL, *su = NULL;
      a[0] = b[0] = '\0';
      int rc = vi_stepper_alloc_d(mt->examples[e], sys, &st, err, sizeof err);
      if (rc == VI_OK) {
        vi_stepper_spec_d(st, a, sizeof a);
        rc = vi_stepper_alloc_d(a, sys, &su, err, sizeof err);
      }
      if (rc == VI_OK) {
        vi_stepper_spec_d(su, b, sizeof b);
      }
      VI_CHECK(c, rc == VI_OK && strcmp(a, b) == 0, "%s: canonical '%s' reparsed as '%s' %s",
               mt->examples[e], a, b, rc ? err : "");
      vi_stepper_free_d(st);
      vi_stepper_free_d(su);
    }
    snprintf(bad, sizeof bad, "%s:nosuchkey=1", mt->name);
    vi_stepper_d *st = NULL;
    int rc = vi_stepper_alloc_d(bad, sys, &st, err, sizeof err);
    /* The valid keys are named, or that there are none. */
    VI_CHECK(c, rc == VI_EINVAL && strstr(err, "unknown key 'nosuchkey'") &&
                    strstr(err, mt->options[0].key ? mt->options[0].key : "takes no options"),
             "%s: '%s'", bad, err);
    for (const vi_opt *o = mt->options; o->key; o++) {
      snprintf(bad, sizeof bad, "%s:%s=bogus", mt->name, o->key);
      rc = vi_stepper_alloc_d(bad, sys, &st, err, sizeof err);
      char range[256], def[64];
      vi_opt_describe(o, range, sizeof range, def, sizeof def);
      VI_CHECK(c, rc == VI_EINVAL && strstr(err, "bogus") && strstr(err, o->key),
               "%s: '%s'", bad, err);
      vi_stepper_free_d(st);
      st = NULL;
    }
    vi_system_free_d(sys);
  }
}

int main(void) {
  vi_check_ctx ctx = {0, 0};
  const char *const dp_set[] = {"m1=1.3"};
  vi_system_d *pend = make_system("planar-pendulum", 0, NULL);
  vi_system_d *dpend = make_system("double-pendulum-3d", 1, dp_set);
  vi_system_d *systems[2] = {pend, dpend};
  test_typed(&ctx, dpend);
  test_option_tables(&ctx);

  /* SHAKE (s = w = 1, Lobatto r = 2): identical positions. */
  for (int si = 0; si < 2; si++) {
    vi_system_d *sys = systems[si];
    const int K = 40;
    const double h = 0.02;
    traj g;
    int rc = run_spec(sys, "galerkin:s=1,w=1,quadL=lobatto,r=2", h, K, VI_SOLVER_NEWTON, &g);
    VI_CHECK(&ctx, rc == VI_OK, "SHAKE galerkin run failed: %s", vi_strerror(rc));
    double *qs = calloc((size_t)(K + 1) * sys->n, sizeof *qs);
    direct_shake(sys, h, K, qs);
    double d = maxdiff(g.q, qs, (size_t)(K + 1) * sys->n);
    VI_CHECK(&ctx, d < 1e-12, "%s: galerkin s=w=1 Lobatto r=2 differs from SHAKE by %.3e",
             sys->type->info->name, d);
    printf("SHAKE vs galerkin s=w=1 lobatto r=2 on %s: max |dq| = %.2e\n",
           sys->type->info->name, d);
    free(qs);
    traj_free(&g);
  }

  /* Constrained Lobatto IIIA-IIIB: w = s - 1, Lobatto r = s. */
  for (int si = 0; si < 2; si++) {
    vi_system_d *sys = systems[si];
    for (int s = 2; s <= 4; s++) {
      const int K = 25;
      const double h = 0.05;
      char spec[128];
      snprintf(spec, sizeof spec, "galerkin:s=%d,w=%d,quadL=lobatto,r=%d,project=p", s,
               s - 1, s);
      traj g;
      int rc = run_spec(sys, spec, h, K, VI_SOLVER_NEWTON, &g);
      VI_CHECK(&ctx, rc == VI_OK, "%s failed: %s", spec, vi_strerror(rc));
      double *qd = calloc((size_t)(K + 1) * sys->n, sizeof *qd);
      double *pd = calloc((size_t)(K + 1) * sys->n, sizeof *pd);
      direct_lobatto(sys, s, h, K, qd, pd);
      double dq = maxdiff(g.q, qd, (size_t)(K + 1) * sys->n);
      double dp = maxdiff(g.p, pd, (size_t)(K + 1) * sys->n);
      VI_CHECK(&ctx, dq < 1e-10 && dp < 1e-9,
               "%s on %s vs constrained %d-stage Lobatto IIIA-IIIB: |dq| %.3e |dp| %.3e",
               spec, sys->type->info->name, s, dq, dp);
      printf("constrained %d-stage Lobatto IIIA-IIIB vs %s on %s: max |dq| = %.2e, "
             "max |dP p| = %.2e\n",
             s, spec, sys->type->info->name, dq, dp);
      free(qd);
      free(pd);
      traj_free(&g);
    }
  }

  /* Convergence against the exact solution: order 4 in q for s = w = 2,
   * Gauss r = 2 (Table 1): the error falls by about 16x per halving. */
  {
    const double T = 2.0;
    double err[2];
    for (int i = 0; i < 2; i++) {
      double h = i == 0 ? 0.02 : 0.01;
      int K = (int)lround(T / h);
      traj g;
      int rc = run_spec(pend, "galerkin:s=2,w=2,quadL=gauss,r=2", h, K, VI_SOLVER_NEWTON, &g);
      VI_CHECK(&ctx, rc == VI_OK, "convergence run failed");
      double e = 0, qe[2], pe[2], le[1];
      for (int k = 0; k <= K; k++) {
        pend->type->obs->exact(pend->state, k * h, qe, pe, le);
        e = fmax(e, maxdiff(g.q + 2 * k, qe, 2));
      }
      err[i] = e;
      traj_free(&g);
    }
    double ratio = err[0] / err[1];
    printf("planar pendulum s=w=2 Gauss r=2: e_q(h=0.02) = %.3e, e_q(h=0.01) = %.3e, "
           "ratio %.2f (order %.2f)\n",
           err[0], err[1], ratio, log2(ratio));
    VI_CHECK(&ctx, ratio > 12 && ratio < 21, "q error ratio %.2f, expected about 16", ratio);
  }

  /* KINSOL backend: the same trajectory as the built-in Newton. */
  {
    traj a, b;
    const char *spec = "galerkin:s=3,w=3,quadL=gauss,r=3";
    int ra = run_spec(dpend, spec, 0.01, 50, VI_SOLVER_NEWTON, &a);
    int rb = run_spec(dpend, spec, 0.01, 50, VI_SOLVER_KINSOL, &b);
    VI_CHECK(&ctx, ra == VI_OK && rb == VI_OK, "newton %d kinsol %d", ra, rb);
    double d = maxdiff(a.q, b.q, 51 * 6);
    VI_CHECK(&ctx, d < 1e-12, "KINSOL and Newton differ by %.3e", d);
    printf("KINSOL vs built-in Newton, %s, 50 steps: max |dq| = %.2e\n", spec, d);
    traj_free(&a);
    traj_free(&b);
  }

  /* Small steps with the default tolerance (100 eps): the multipliers'
   * round-off floor grows like 1/h^2, which the solver's units absorb
   * (regression: these failed at node 0 with a (|x| + 1) scaling). */
  {
    const char *specs[] = {"galerkin:s=4,w=4,r=4", "galerkin:s=2,w=2",
                           "galerkin:s=12,w=12,ctrl=equidistant"};
    const double hs[] = {0.001, 0.00125, 0.1};
    for (int i = 0; i < 3; i++) {
      for (int sv = 0; sv < 2; sv++) {
        traj g;
        int rc = run_spec(i == 2 ? pend : dpend, specs[i], hs[i], i == 2 ? 10 : 300,
                          sv ? VI_SOLVER_KINSOL : VI_SOLVER_NEWTON, &g);
        VI_CHECK(&ctx, rc == VI_OK, "%s h=%g (%s): %s", specs[i], hs[i],
                 sv ? "kinsol" : "newton", vi_strerror(rc));
        traj_free(&g);
      }
    }
  }

  /* Refusals with the reason. */
  {
    char err[512] = "";
    vi_stepper_d *st = NULL;
    int rc = vi_stepper_alloc_d("galerkin:s=2,w=3", pend, &st, err, sizeof err);
    VI_CHECK(&ctx, rc == VI_EINVAL && strstr(err, "Theorem 1"), "w > s accepted: %s", err);
    rc = vi_stepper_alloc_d("galerkin:s=3,w=3,r=2", pend, &st, err, sizeof err);
    VI_CHECK(&ctx, rc == VI_EINVAL && strstr(err, "r >= s"), "r < s accepted: %s", err);
    rc = vi_stepper_alloc_d("galerkin:s=2,quadL=simpson", pend, &st, err, sizeof err);
    VI_CHECK(&ctx, rc == VI_EINVAL && strstr(err, "gauss|lobatto"), "bad rule: %s", err);
    rc = vi_stepper_alloc_d("galerkin:s=2,bogus=1", pend, &st, err, sizeof err);
    VI_CHECK(&ctx, rc == VI_EINVAL && strstr(err, "bogus"), "bad key: %s", err);
    rc = vi_stepper_alloc_d("leapfrog", pend, &st, err, sizeof err);
    VI_CHECK(&ctx, rc == VI_EINVAL && strstr(err, "galerkin"), "bad method: %s", err);
    VI_CHECK(&ctx, st == NULL, "stepper returned on error");
  }

  /* A broken system is reported, not crashed on. */
  for (int variant = 0; variant < 2; variant++) {
    vi_system_type_d broken = *pend->type;
    vi_mech_ops_d bmech = *pend->type->mech;
    bmech.grad_potential = variant ? broken_grad_recoverable : broken_grad_fatal;
    broken.mech = &bmech;
    vi_system_d *bs = NULL;
    char err[512];
    int rc = vi_system_alloc_d(&broken, 0, NULL, &bs, err, sizeof err);
    VI_CHECK(&ctx, rc == VI_OK, "broken system alloc: %s", err);
    if (rc == VI_OK && bs->q0[0] > 0) {
      traj g;
      rc = run_spec(bs, "galerkin:s=2,w=2", 0.01, 400, VI_SOLVER_NEWTON, &g);
      VI_CHECK(&ctx, rc == (variant ? VI_CALLBACK_RECOVERABLE : VI_ECALLBACK),
               "broken grad V (%s) gave status %d (%s)", variant ? "recoverable" : "fatal",
               rc, vi_strerror(rc));
      traj_free(&g);
    }
    vi_system_free_d(bs);
  }

  vi_system_free_d(pend);
  vi_system_free_d(dpend);
  return vi_check_done(&ctx, "galerkin");
}
