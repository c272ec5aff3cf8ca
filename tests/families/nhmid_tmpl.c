/* nhmid_tmpl.c: a test family, "nhmid": the midpoint rule for mechanical
 * systems with nonholonomic constraints (required) and holonomic ones
 * (optional), with the velocity-constraint residual at the nodes as the
 * method's extra block. It is no paper's method: it exists to prove the
 * method-system contract (issue 21) on what the coming families need and
 * no registered family uses yet: a constraint kind required and another
 * optional, a refusal that depends on the system (a constant mass matrix,
 * the derivative D_q(A'mu)), an extra block with declared names and a
 * declared order, an error text from init, and a declared exact energy
 * conservation. Built into the test configuration only (meson option
 * test_families, set by tools/test), it runs through the same registry,
 * drivers, conformance suite and order validation as every family.
 *
 * One step from (q0, p0 = M v0) with step h solves for the midpoint
 * velocity u (q1 = q0 + h u, Delta = h u, qm = (q0 + q1) / 2, v1 = 2 u -
 * v0) and the midpoint multipliers mu (nonholonomic) and lambda
 * (holonomic):
 *   M (v1 - v0) / h + dV(q0, q1) + A(qm)' mu + dg(q0, q1)' lambda = 0,
 *   A(qm) Delta / h + a(qm) = 0,   g(q1) = 0,
 * the Lagrange-d'Alembert principle discretised by the midpoint rule (cf.
 * demartin2018 §3 for the continuous principle; the constraint at the
 * midpoint as in McLachlan-Perlmutter's nonholonomic integrators). dV and
 * dg_k are the gradients at qm (gradient=midpoint) or Gonzalez's discrete
 * gradients (gradient=gonzalez; Gonzalez 1996, used by betsch-ggl's EM
 * schemes)
 *   dF(q0, q1) = grad F(qm) + (F(q1) - F(q0) - grad F(qm).Delta) / |Delta|^2 Delta,
 * for which dF . Delta = F(q1) - F(q0) exactly. Then the energy change of a
 * step is E1 - E0 = (v1 - v0)'M Delta / h + V(q1) - V(q0) = -mu.A(qm)Delta
 * - lambda.(g(q1) - g(q0)) = h mu.a(qm): zero to round-off when a = 0 (the
 * energy is then a first integral), which the family declares
 * (VI_ORDER_EXACT). The scheme is symmetric, so of order 2 in q and p.
 * The unknown is u rather than q1: Newton's stopping test |du| <= rtol
 * (|u| + 1) then bounds the velocity's rounding, where one on q1 would
 * leave an error rtol |q| / h in v1 and an energy drift growing like 1/h.
 *
 * Node k reports q_k, p_k = M v_k, the multipliers of the index-1 form at
 * (q_k, p_k) (vi_system_lambda; order 2 with the state) and the extra
 * block phi_end = A(q_k) v_k + a(q_k), the nonholonomic constraint at the
 * node, which the midpoint enforcement leaves at O(h^2) (the exact flow
 * has it zero), or with extra=g the holonomic residual g_end = g(q_k),
 * which the node equation g(q1) = 0 keeps at round-off (declared exact:
 * the contract's exact extra block). Compiled once per precision
 * (prec.h). */
#include "methods/kit_tmpl.h"
#include "tests/families/nhmid.h"

#include <stdlib.h>

typedef vi_nhmid_opts nhmid_opts;

static const char *const nhmid_grad_names[] = {"midpoint", "gonzalez", NULL};
static const int nhmid_grad_values[] = {VI_NHMID_MIDPOINT, VI_NHMID_GONZALEZ};
static const char *const nhmid_extra_names[] = {"phi", "g", NULL};
static const int nhmid_extra_values[] = {VI_NHMID_EXTRA_PHI, VI_NHMID_EXTRA_G};

static const vi_opt nhmid_options[] = {
    {"gradient", VI_OPT_CHOICE, offsetof(nhmid_opts, gradient), 0, 0, nhmid_grad_names,
     nhmid_grad_values, NULL, VI_NHMID_GONZALEZ, 0, NULL, NULL,
     "the gradient of V and g in the momentum update: at the midpoint, or Gonzalez's "
     "discrete gradient (exact energy)"},
    {"extra", VI_OPT_CHOICE, offsetof(nhmid_opts, extra), 0, 0, nhmid_extra_names,
     nhmid_extra_values, NULL, VI_NHMID_EXTRA_PHI, 0, NULL, NULL,
     "the extra block: the nonholonomic residual at the nodes (phi_end, order 2) or the "
     "holonomic one (g_end, at round-off)"},
    {NULL, 0, 0, 0, 0, NULL, NULL, NULL, 0, 0, NULL, NULL, NULL}};

/* Below this |Delta|^2 relative to |q|^2 the midpoint gradient is used:
 * the two differ by O(|Delta|^2 |Hess V|), below round-off there, while
 * the quotient's rounding error eps |V| / |Delta| would grow. */
#define NHMID_TINY VI_EPS

typedef struct nhmid_state {
  nhmid_opts o;
  const VI_X(vi_system) *sys;
  VI_X(vi_solver) *solver;
  int n, m, k, N; /* k = m_nh */
  VI_REAL h, t0;
  long step;
  /* M and M^-1 (constant), the node (q0, v0), the unknowns x = (u, mu,
   * lambda), and work: q1, qm, Delta, v1, gradients, the n x n and k x n
   * blocks. */
  VI_REAL *M, *Minv, *q0, *v0, *x, *q1, *qm, *dq, *v1, *g0, *g1, *gm, *c, *w, *H, *D, *A, *Ph;
  VI_REAL *gq0, *gq1, *G1; /* g(q0), g(q1) (m) and G(q1) (m x n) */
} nhmid_state;

static size_t nhmid_layout(nhmid_state *st, char *base, const vi_dims *d) {
  nhmid_state dummy;
  nhmid_state *t = st ? st : &dummy;
  size_t off = 0;
  const size_t n = (size_t)d->n, nn = n * n, k = (size_t)d->m_nh, m = (size_t)d->m;
  const size_t mx = m > 1 ? m : 1;
  t->M = vi_carve(base, &off, nn);
  t->Minv = vi_carve(base, &off, nn);
  t->q0 = vi_carve(base, &off, n);
  t->v0 = vi_carve(base, &off, n);
  t->x = vi_carve(base, &off, n + k + m);
  t->q1 = vi_carve(base, &off, n);
  t->qm = vi_carve(base, &off, n);
  t->dq = vi_carve(base, &off, n);
  t->v1 = vi_carve(base, &off, n);
  t->g0 = vi_carve(base, &off, mx * n); /* G(q1)' lambda etc. (n each) */
  t->g1 = vi_carve(base, &off, mx);     /* g(q0), g(q1) or V values */
  t->gm = vi_carve(base, &off, mx * n); /* G(qm) (m x n) */
  t->c = vi_carve(base, &off, mx);      /* the discrete-gradient quotients c_k */
  t->w = vi_carve(base, &off, 3 * n + k);
  t->H = vi_carve(base, &off, nn);
  t->D = vi_carve(base, &off, nn);
  t->A = vi_carve(base, &off, k * n);
  t->Ph = vi_carve(base, &off, k * n);
  t->gq0 = vi_carve(base, &off, mx);
  t->gq1 = vi_carve(base, &off, mx);
  t->G1 = vi_carve(base, &off, mx * n);
  return off;
}

static size_t nhmid_state_size(const void *opts, const vi_dims *d) {
  (void)opts;
  return (sizeof(nhmid_state) + 15) / 16 * 16 + nhmid_layout(NULL, NULL, d);
}

/* A constant mass matrix (the energy identity of the file comment and the
 * solve need one), D_q(A'mu) and, with holonomic constraints, their
 * contracted Hessian (the Newton Jacobian). */
static int nhmid_accepts(const void *opts, const VI_X(vi_system_type) *sys, char *why,
                         size_t len) {
  (void)opts;
  const char *name = sys->info->name;
  if (VI_X(vi_type_config_mass)(sys)) {
    snprintf(why, len, "nhmid needs a constant mass matrix; %s has M(q)", name);
    return VI_EUNSUPPORTED;
  }
  if (sys->nh->datmu == NULL) {
    snprintf(why, len, "nhmid needs D_q(A(q)'mu) (vi_nh_ops.datmu), which %s does not supply",
             name);
    return VI_EUNSUPPORTED;
  }
  if (sys->holo != NULL && sys->holo->constraint_hess == NULL) {
    snprintf(why, len, "nhmid needs the contracted Hessian of g (constraint_hess), which %s "
             "does not supply", name);
    return VI_EUNSUPPORTED;
  }
  if (sys->mech->hess_potential == NULL) {
    snprintf(why, len, "nhmid needs Hess V (hess_potential), which %s does not supply", name);
    return VI_EUNSUPPORTED;
  }
  return VI_OK;
}

/* The extra block: the node residual of the nonholonomic constraints or
 * of the holonomic ones (nhmid.h), zero along the exact flow. */
static int nhmid_extra(const void *opts, const vi_dims *d, const char **name, int *ref) {
  const nhmid_opts *o = opts;
  *ref = VI_EXTRA_ZERO;
  if (o->extra == VI_NHMID_EXTRA_G) {
    *name = "g_end";
    return d->m;
  }
  *name = "phi_end";
  return d->m_nh;
}

/* A(q) (k x n) and the residual A(q) w + a(q) (k) at q. */
static int nh_rows(const nhmid_state *st, const VI_REAL *q, const VI_REAL *w, VI_REAL *A,
                   VI_REAL *r) {
  const VI_X(vi_system) *sys = st->sys;
  const VI_X(vi_nh_ops) *nh = sys->type->nh;
  int rc = vi_callback_status(nh->matrix(sys->state, q, A));
  for (int i = 0; rc == VI_OK && i < st->k; i++) {
    r[i] = 0;
  }
  if (rc == VI_OK && nh->affine != NULL) {
    rc = vi_callback_status(nh->affine(sys->state, q, r));
  }
  for (int i = 0; rc == VI_OK && i < st->k; i++) {
    for (int j = 0; j < st->n; j++) {
      r[i] += A[i * st->n + j] * w[j];
    }
  }
  return rc;
}

/* The discrete-gradient quotient of F from its values f0, f1 and the
 * gradient gm at qm: c = (f1 - f0 - gm.Delta) / |Delta|^2 (0 for the
 * midpoint gradient, or when |Delta| is at round-off). */
static VI_REAL dg_quotient(const nhmid_state *st, VI_REAL f0, VI_REAL f1, const VI_REAL *gm,
                           VI_REAL dd) {
  if (st->o.gradient != VI_NHMID_GONZALEZ || dd == 0) {
    return 0;
  }
  VI_REAL t = f1 - f0;
  for (int j = 0; j < st->n; j++) {
    t -= gm[j] * st->dq[j];
  }
  return t / dd;
}

/* |Delta|^2, or 0 where it is at round-off relative to |q|^2. */
static VI_REAL delta_sq(const nhmid_state *st) {
  VI_REAL dd = 0, qq = 0;
  for (int j = 0; j < st->n; j++) {
    dd += st->dq[j] * st->dq[j];
    qq += st->qm[j] * st->qm[j];
  }
  return dd > NHMID_TINY * (qq > 1 ? qq : 1) ? dd : 0;
}

/* Residual and Jacobian of one step (the file comment), unknowns x = (u,
 * mu, lambda), rows (momentum n, nonholonomic k, holonomic m). The
 * derivatives are taken in q1 and the columns of u scaled by dq1/du = h. */
static int nhmid_resjac(void *ctx, const VI_REAL *x, VI_REAL *F, VI_REAL *J) {
  nhmid_state *st = ctx;
  const VI_X(vi_system) *sys = st->sys;
  const VI_X(vi_mech_ops) *mech = sys->type->mech;
  const VI_X(vi_holo_ops) *holo = sys->type->holo;
  const int n = st->n, k = st->k, m = st->m, N = st->N;
  const VI_REAL h = st->h;
  const VI_REAL *u = x, *mu = x + n, *lam = x + n + k;
  VI_REAL *gradm = st->w, *grad1 = st->w + n, *r = st->w + 3 * n;
  VI_REAL *q1 = st->q1;
  for (int j = 0; j < n; j++) {
    st->dq[j] = h * u[j];
    q1[j] = st->q0[j] + st->dq[j];
    st->qm[j] = st->q0[j] + st->dq[j] / 2;
    st->v1[j] = 2 * u[j] - st->v0[j];
  }
  const VI_REAL dd = delta_sq(st);
  VI_REAL V0 = 0, V1 = 0;
  int rc = vi_callback_status(mech->grad_potential(sys->state, st->qm, gradm));
  if (rc == VI_OK && dd > 0 && st->o.gradient == VI_NHMID_GONZALEZ) {
    if ((rc = vi_callback_status(mech->potential(sys->state, st->q0, &V0))) == VI_OK &&
        (rc = vi_callback_status(mech->potential(sys->state, q1, &V1))) == VI_OK) {
      rc = vi_callback_status(mech->grad_potential(sys->state, q1, grad1));
    }
  }
  if (rc == VI_OK) {
    rc = nh_rows(st, st->qm, u, st->A, r);
  }
  if (rc != VI_OK) {
    return rc;
  }
  const VI_REAL cV = dg_quotient(st, V0, V1, gradm, dd);
  /* Holonomic rows: g(q1), G(qm) and the discrete-gradient quotients c_j
   * (g(q0) is recomputed: the start is on g = 0 only to round-off). */
  VI_REAL *G1 = st->g0; /* G(q1)' lambda (n) */
  VI_REAL cl = 0;       /* sum_j lambda_j c_j */
  if (m > 0) {
    VI_REAL *gq0 = st->gq0, *gq1 = st->gq1;
    if ((rc = vi_callback_status(holo->constraint(sys->state, q1, gq1))) != VI_OK ||
        (rc = vi_callback_status(holo->constraint(sys->state, st->q0, gq0))) != VI_OK ||
        (rc = vi_callback_status(holo->constraint_jac(sys->state, st->qm, st->gm))) != VI_OK) {
      return rc;
    }
    for (int j = 0; j < m; j++) {
      st->g1[j] = gq1[j];
      st->c[j] = dg_quotient(st, gq0[j], gq1[j], st->gm + j * n, dd);
      cl += lam[j] * st->c[j];
    }
  }
  if (F) {
    for (int a = 0; a < n; a++) {
      VI_REAL t = 0;
      for (int b = 0; b < n; b++) {
        t += st->M[a * n + b] * (st->v1[b] - st->v0[b]);
      }
      t = t / h + gradm[a] + cV * st->dq[a];
      for (int i = 0; i < k; i++) {
        t += st->A[i * n + a] * mu[i];
      }
      for (int j = 0; j < m; j++) {
        t += (st->gm[j * n + a] + st->c[j] * st->dq[a]) * lam[j];
      }
      F[a] = t;
    }
    for (int i = 0; i < k; i++) {
      F[n + i] = r[i];
    }
    for (int j = 0; j < m; j++) {
      F[n + k + j] = st->g1[j];
    }
  }
  if (!J) {
    return VI_OK;
  }
  memset(J, 0, (size_t)N * (size_t)N * sizeof *J);
  /* d/dq1 of the momentum rows: 2 M / h^2 + d(dV)/dq1 + 1/2 D_q(A'mu)(qm)
   * + d(dg' lambda)/dq1. */
  if ((rc = vi_callback_status(mech->hess_potential(sys->state, st->qm, st->H))) != VI_OK ||
      (rc = vi_callback_status(sys->type->nh->datmu(sys->state, st->qm, mu, st->D))) != VI_OK) {
    return rc;
  }
  for (int a = 0; a < n; a++) {
    for (int b = 0; b < n; b++) {
      J[a * N + b] = 2 * st->M[a * n + b] / (h * h) + st->H[a * n + b] / 2 + st->D[a * n + b] / 2;
    }
  }
  if (dd > 0 && st->o.gradient == VI_NHMID_GONZALEZ) {
    /* d(c Delta)/dq1 = c I + Delta (grad c)', grad c = (grad F(q1) - H(qm)
     * Delta / 2 - grad F(qm) - 2 c Delta) / |Delta|^2, for V. */
    VI_REAL *gc = st->D; /* D_q(A'mu) is in J already: its storage is free */
    for (int a = 0; a < n; a++) {
      VI_REAL hd = 0;
      for (int b = 0; b < n; b++) {
        hd += st->H[a * n + b] * st->dq[b];
      }
      gc[a] = (grad1[a] - hd / 2 - gradm[a] - 2 * cV * st->dq[a]) / dd;
    }
    for (int a = 0; a < n; a++) {
      J[a * N + a] += cV;
      for (int b = 0; b < n; b++) {
        J[a * N + b] += st->dq[a] * gc[b];
      }
    }
  }
  if (m > 0) {
    /* sum_j lambda_j (Hess g_j(qm) / 2 + c_j I + Delta (grad c_j)'), with
     * sum_j lambda_j grad c_j = (G(q1)'lambda - H_lambda(qm) Delta / 2 -
     * G(qm)'lambda - 2 cl Delta) / |Delta|^2. */
    VI_REAL *G1full = st->G1;
    if ((rc = vi_callback_status(holo->constraint_hess(sys->state, st->qm, lam, st->H))) !=
            VI_OK ||
        (rc = vi_callback_status(holo->constraint_jac(sys->state, q1, G1full))) != VI_OK) {
      return rc;
    }
    for (int a = 0; a < n; a++) {
      for (int b = 0; b < n; b++) {
        J[a * N + b] += st->H[a * n + b] / 2;
      }
    }
    if (dd > 0 && st->o.gradient == VI_NHMID_GONZALEZ) {
      for (int a = 0; a < n; a++) {
        VI_REAL t1 = 0, tm = 0, hd = 0;
        for (int j = 0; j < m; j++) {
          t1 += G1full[j * n + a] * lam[j];
          tm += st->gm[j * n + a] * lam[j];
        }
        for (int b = 0; b < n; b++) {
          hd += st->H[a * n + b] * st->dq[b];
        }
        G1[a] = (t1 - hd / 2 - tm - 2 * cl * st->dq[a]) / dd;
      }
      for (int a = 0; a < n; a++) {
        J[a * N + a] += cl;
        for (int b = 0; b < n; b++) {
          J[a * N + b] += st->dq[a] * G1[b];
        }
      }
    }
    /* d/dlambda_j: dg_j = G_j(qm) + c_j Delta; the holonomic rows: G(q1). */
    for (int a = 0; a < n; a++) {
      for (int j = 0; j < m; j++) {
        J[a * N + n + k + j] = st->gm[j * n + a] + st->c[j] * st->dq[a];
      }
    }
    for (int j = 0; j < m; j++) {
      for (int b = 0; b < n; b++) {
        J[(n + k + j) * N + b] = G1full[j * n + b];
      }
    }
  }
  /* d/dmu: A(qm)'; the nonholonomic rows: A(qm) / h + D_q Phi(qm, u) / 2. */
  if ((rc = vi_callback_status(sys->type->nh->dphi_dq(sys->state, st->qm, u, st->Ph))) !=
      VI_OK) {
    return rc;
  }
  for (int a = 0; a < n; a++) {
    for (int i = 0; i < k; i++) {
      J[a * N + n + i] = st->A[i * n + a];
    }
  }
  for (int i = 0; i < k; i++) {
    for (int b = 0; b < n; b++) {
      J[(n + i) * N + b] = st->A[i * n + b] / h + st->Ph[i * n + b] / 2;
    }
  }
  /* d/du = h d/dq1. */
  for (int a = 0; a < N; a++) {
    for (int b = 0; b < n; b++) {
      J[a * N + b] *= h;
    }
  }
  return VI_OK;
}

/* Node output: q, p = M v, the index-1 multipliers at (q, p) and the
 * extra block A(q) v + a(q). */
static int nhmid_emit(nhmid_state *st, VI_X(vi_node) *nd, const VI_REAL *q, const VI_REAL *v) {
  const int n = st->n;
  memcpy(nd->q, q, (size_t)n * sizeof *q);
  for (int a = 0; a < n; a++) {
    VI_REAL t = 0;
    for (int b = 0; b < n; b++) {
      t += st->M[a * n + b] * v[b];
    }
    nd->p[a] = t;
  }
  int rc = VI_X(vi_system_lambda)(st->sys, nd->q, nd->p, nd->lambda);
  if (rc == VI_OK && st->o.extra == VI_NHMID_EXTRA_G) {
    if (st->m > 0) {
      rc = vi_callback_status(st->sys->type->holo->constraint(st->sys->state, q, nd->extra));
    }
  } else if (rc == VI_OK) {
    rc = nh_rows(st, q, v, st->A, nd->extra);
  }
  return rc;
}

static int nhmid_init(void *state, const void *opts, const VI_X(vi_system) *sys,
                      const vi_dims *d, const VI_X(vi_solver_opts) *solver, VI_REAL h,
                      VI_REAL t0, const VI_REAL *q0, const VI_REAL *p0,
                      VI_X(vi_node) *node0, VI_X(vi_stats) *stats, char *err,
                      size_t errlen) {
  nhmid_state *st = state;
  (void)stats;
  memset(st, 0, sizeof *st);
  st->o = *(const nhmid_opts *)opts;
  st->sys = sys;
  st->n = sys->n;
  st->m = sys->m;
  st->k = sys->m_nh;
  st->N = st->n + st->k + st->m;
  st->h = h;
  st->t0 = t0;
  nhmid_layout(st, (char *)state + (sizeof *st + 15) / 16 * 16, d);
  int rc = VI_X(vi_system_mass)(sys, q0, st->M);
  if (rc == VI_OK) {
    rc = VI_X(vi_system_mass_inv)(sys, q0, st->Minv);
  }
  if (rc == VI_OK) {
    rc = VI_X(vi_solver_alloc)(solver, st->N, nhmid_resjac, st, &st->solver);
  }
  if (rc != VI_OK) {
    snprintf(err, errlen, "nhmid could not set up its mass matrix or solver");
    return rc;
  }
  /* The multipliers act on u through h M^-1 (A' mu + G' lambda) / 2: their
   * round-off floor is that of u over h. */
  for (int i = st->n; i < st->N; i++) {
    VI_X(vi_solver_set_unit)(st->solver, i, 1 / h);
  }
  memcpy(st->q0, q0, (size_t)st->n * sizeof *q0);
  for (int a = 0; a < st->n; a++) {
    VI_REAL t = 0;
    for (int b = 0; b < st->n; b++) {
      t += st->Minv[a * st->n + b] * p0[b];
    }
    st->v0[a] = t;
  }
  node0->t = t0;
  rc = nhmid_emit(st, node0, st->q0, st->v0);
  if (rc != VI_OK) {
    snprintf(err, errlen, "the multipliers of the initial data (vi_system_lambda) failed: %s",
             vi_strerror(rc));
    return rc;
  }
  /* The first guess: u = v0, the multipliers of node 0 (holonomic first in
   * the node, nonholonomic first in x). */
  memcpy(st->x, st->v0, (size_t)st->n * sizeof *st->x);
  memcpy(st->x + st->n, node0->lambda + st->m, (size_t)st->k * sizeof *st->x);
  memcpy(st->x + st->n + st->k, node0->lambda, (size_t)st->m * sizeof *st->x);
  return VI_OK;
}

static int nhmid_step(void *state, VI_X(vi_node) *next, VI_X(vi_stats) *stats) {
  nhmid_state *st = state;
  const int n = st->n;
  vi_solve_counts cnt = {0, 0, 0, 0};
  int rc = VI_X(vi_solve)(st->solver, st->x, &cnt);
  vi_stats_add_solve(stats, &cnt);
  if (rc != VI_OK) {
    return rc;
  }
  /* q1 and v1 = 2 u - v0 from the converged u, then the next guess: the
   * midpoint velocity extrapolated, u' = v1 + (v1 - u) = 3 u - 2 v0, the
   * multipliers kept. */
  for (int a = 0; a < n; a++) {
    const VI_REAL u = st->x[a];
    st->q0[a] += st->h * u;
    st->x[a] = 3 * u - 2 * st->v0[a];
    st->v0[a] = 2 * u - st->v0[a];
  }
  st->step++;
  next->t = st->t0 + (VI_REAL)st->step * st->h;
  if ((rc = nhmid_emit(st, next, st->q0, st->v0)) != VI_OK) {
    return rc;
  }
  stats->steps++;
  stats->unknowns = st->N;
  return VI_OK;
}

static void nhmid_fini(void *state) {
  vi_kit_fini(&((nhmid_state *)state)->solver);
}

static int nhmid_unknowns(const void *state) {
  return ((const nhmid_state *)state)->N;
}

/* The symmetric midpoint rule: order 2 in q, p, the multipliers (of the
 * index-1 form at the nodes) and the node constraint residual; the energy
 * exact with the discrete gradient (where it is a first integral). With
 * the midpoint gradient the energy error is of order 2 in general but
 * exact for a quadratic or linear V (nonholonomic-particle,
 * knife-edge-incline; not test-nh-curved): nothing is declared. */
static int nhmid_expected_order(const void *opts, const VI_X(vi_system_type) *sys,
                                int quantity) {
  const nhmid_opts *o = opts;
  switch (quantity) {
  case VI_Q:
  case VI_P:
  case VI_LAMBDA:
    return 2;
  case VI_EXTRA:
    /* g(q_k) = 0 is an equation of every step: its residual is Newton's. */
    return o->extra == VI_NHMID_EXTRA_G ? VI_ORDER_EXACT : 2;
  case VI_ENERGY:
    /* Exact where the energy is a first integral (a = 0: the file
     * comment's identity). */
    return o->gradient == VI_NHMID_GONZALEZ && VI_X(vi_type_energy_conserved)(sys)
               ? VI_ORDER_EXACT
               : -1;
  default:
    return -1;
  }
}

static const char *const nhmid_examples[] = {"nhmid", "nhmid:gradient=midpoint",
                                             "nhmid:extra=g", NULL};

const VI_X(vi_method_type) VI_X(vi_method_nhmid) = {
    .name = "nhmid",
    .summary = "test family: the nonholonomic midpoint rule with an optional discrete "
               "gradient (holonomic constraints optional, the node constraint residual as "
               "its extra block)",
    .cite = "tests/families/nhmid_tmpl.c (the contract of issue 21)",
    .test_only = 1,
    .options = nhmid_options,
    .needs = VI_NEED_MECH | VI_NEED_NH,
    .optional = VI_NEED_HOLO,
    .accepts = nhmid_accepts,
    .opts_size = sizeof(nhmid_opts),
    .extra = nhmid_extra,
    .state_size = nhmid_state_size,
    .lookahead = 0,
    .init = nhmid_init,
    .step = nhmid_step,
    .fini = nhmid_fini,
    .expected_order = nhmid_expected_order,
    .examples = nhmid_examples,
    .unknowns = nhmid_unknowns,
};
