/* dla_tmpl.c: the second-order discrete Lagrange-d'Alembert (DLA)
 * integrator of McLachlan & Perlmutter, "Integrators for nonholonomic
 * mechanical systems", J. Nonlinear Sci. 16 (2006) 283-328, eq. (4.18),
 * method family "dla": the comparator "DLA" of demartin2018 §7.3 (reading
 * notes ../shared/papers/notes/demartin2018.md §7.2, C13), for mechanical
 * systems L = 1/2 v'Mv - V(q) (constant M) on R^n with nonholonomic
 * constraints Phi(q, v) = A(q) v + a(q) = 0.
 *
 * Sign: the harness's (vi_nh_ops), constraint force -A(q)' mu; odelab's
 * McLachlan scheme and demartin2018 (2) write +A' lambda.
 *
 * One step (q_k, p_k) -> (q_{k+1}, p_{k+1}) with step h solves for p_{k+1}
 * and the multipliers mu (n + m_nh unknowns):
 *   q_{k+1} = q_k + h/2 M^-1 (p_k + p_{k+1}),
 *   p_{k+1} = p_k - h grad V(qbar) - h A(qbar)' mu,
 *   A(q_{k+1}) M^-1 p_{k+1} + a(q_{k+1}) = 0,
 * where the forces act at qbar:
 *   point=leapfrog (default): qbar = q_k + h/2 M^-1 p_k, McLachlan-
 *     Perlmutter (4.18) as odelab (olivierverdier/odelab,
 *     scheme/constrained.py, class McLachlan) implements it: a half drift,
 *     a kick with the potential and the constraint force at qbar, a half
 *     drift, the constraint imposed on the end point (q_{k+1}, v_{k+1});
 *   point=midpoint: qbar = (q_k + q_{k+1})/2, the midpoint discrete
 *     Lagrangian.
 * As a discrete Lagrange-d'Alembert principle in position-momentum form
 * (derived here; the paper was not accessible):
 *   midpoint: L_d(q0, q1) = h L((q0 + q1)/2, (q1 - q0)/h), the constraint
 *     impulse -h A(qbar)' mu split evenly between the ends,
 *       p_k = -D1 L_d(q_k, q_{k+1}) + h/2 A(qbar)' mu,
 *       p_{k+1} = D2 L_d(q_k, q_{k+1}) - h/2 A(qbar)' mu;
 *   leapfrog: L_d(q0, q1) = ext_qbar [|qbar - q0|_M^2 / h + |q1 - qbar|_M^2
 *     / h - h V(qbar)], the impulse at the inner point qbar, p_k = -D1 L_d
 *     = 2 M (qbar - q_k)/h, p_{k+1} = D2 L_d = 2 M (q_{k+1} - qbar)/h;
 *     equivalently, on the staggered points Q_k = q_k + h/2 M^-1 p_k, the
 *     DLA equations D2 L_d(Q_{k-1}, Q_k) + D1 L_d(Q_k, Q_{k+1}) = h A(Q_k)'
 *     mu_k of the trapezoidal L_d with the force at the node Q_k and the
 *     discrete constraint at the midpoint, Phi((Q_k + Q_{k+1})/2, (Q_{k+1}
 *     - Q_k)/h) = 0, whose midpoints are the nodes q_{k+1}.
 * In both the discrete constraint is the continuous one at the new node on
 * the discrete Legendre transform p_{k+1}, so every node lies on A v + a =
 * 0 to the solver's tolerance (VI_KEEPS_NH); this is the choice that makes
 * the one-step map symmetric: the equations are invariant under (q_k, p_k,
 * h) <-> (q_{k+1}, p_{k+1}, -h) when both ends lie on the constraint, so
 * the method is of even order, 2. With the force at q_k only and the
 * constraint at the midpoint (the DLA of Cortes & Martinez) the one-step
 * map is not symmetric and its p_k is of order 1; that variant is not
 * offered.
 *
 * Energy: E_{k+1} - E_k = [V(q_{k+1}) - V(q_k) - grad V(qbar).Delta] -
 * mu.A(qbar) Delta, Delta = q_{k+1} - q_k. Neither term vanishes in
 * general (the constraint holds at the nodes, not at qbar along Delta), so
 * the energy is not conserved exactly even for linear constraints (a = 0);
 * it is a smooth function of the node, of order 2 where it is a first
 * integral. (Only the midpoint with a constant A and a quadratic V keeps
 * it exactly; no system here has a constant A.)
 *
 * Node k reports q_k, p_k and the multipliers of the index-1 form at (q_k,
 * p_k) (vi_system_lambda, demartin2018 (4)): the scheme's mu belongs to
 * qbar, half a step away from the node, and would be of order 1 there.
 * Start: p_0 is projected M-orthogonally onto A v + a = 0
 * (vi_system_project_nh; the system's data are already, so by round-off).
 *
 * Newton on x = (p_{k+1}, mu), residuals R1 = p_{k+1} - p_k + h grad
 * V(qbar) + h A(qbar)' mu (n) and R2 = A(q_{k+1}) v_{k+1} + a(q_{k+1}),
 * v_{k+1} = M^-1 p_{k+1} (m_nh). Jacobian (dq_{k+1}/dp_{k+1} = h/2 M^-1):
 *   dR1/dp = I [+ h^2/4 (Hess V(qbar) + D_q(A'mu)(qbar)) M^-1, midpoint],
 *   dR1/dmu = h A(qbar)',  dR2/dp = (A(q_{k+1}) + h/2 D_q Phi(q_{k+1},
 *   v_{k+1})) M^-1,  dR2/dmu = 0.
 * Units: p 1 + |p_0|; mu acts on p through h, (1 + |p_0|)/h (as nhprk).
 * Guess: p_{k+1} = 2 p_k - p_{k-1}, the previous mu; the first step and a
 * retry from p_k and the node's multipliers. A mass matrix M(q),
 * holonomic constraints and Lie groups are refused (accepts, needs).
 * Compiled once per precision (prec.h). */
#include "methods/kit_tmpl.h"
#include "methods/dla.h"

typedef vi_dla_opts dla_opts;

static const char *const dla_point_names[] = {"leapfrog", "midpoint", NULL};
static const int dla_point_values[] = {VI_DLA_LEAPFROG, VI_DLA_MIDPOINT};

static const vi_opt dla_options[] = {
    {"point", VI_OPT_CHOICE, offsetof(dla_opts, point), 0, 0, dla_point_names,
     dla_point_values, NULL, VI_DLA_LEAPFROG, 0, NULL, NULL,
     "where the forces act: the leapfrog point q_k + h/2 M^-1 p_k (McLachlan-Perlmutter "
     "(4.18)) or the midpoint (q_k + q_{k+1})/2 (the midpoint discrete Lagrangian)"},
    {NULL, 0, 0, 0, 0, NULL, NULL, NULL, 0, 0, NULL, NULL, NULL}};

typedef struct dla_state {
  dla_opts o;
  const VI_X(vi_system) *sys;
  VI_X(vi_solver) *solver;
  int n, k, N; /* k = m_nh, N = n + k */
  VI_REAL h, t0;
  long step;
  const VI_REAL *M, *Minv; /* the system's cached constant matrices */
  /* The node (q_k, p_k), the previous p, the unknowns x = (p_{k+1}, mu)
   * and a saved copy, qbar, q_{k+1}, v_{k+1}, grad V, A(qbar), A(q_{k+1}),
   * D_q Phi, two n x n blocks, the node's multipliers. */
  VI_REAL *q, *p, *pp, *x, *xs, *qb, *q1, *v1, *g, *Ab, *A1, *Dp, *H, *S, *lam;
} dla_state;

static size_t dla_layout(dla_state *st, char *base, int n, int k) {
  dla_state dummy;
  dla_state *t = st ? st : &dummy;
  size_t off = 0;
  const size_t nn = (size_t)n * (size_t)n, kn = (size_t)k * (size_t)n;
  const size_t N = (size_t)n + (size_t)k;
  t->q = vi_carve(base, &off, (size_t)n);
  t->p = vi_carve(base, &off, (size_t)n);
  t->pp = vi_carve(base, &off, (size_t)n);
  t->x = vi_carve(base, &off, N);
  t->xs = vi_carve(base, &off, N);
  t->qb = vi_carve(base, &off, (size_t)n);
  t->q1 = vi_carve(base, &off, (size_t)n);
  t->v1 = vi_carve(base, &off, (size_t)n);
  t->g = vi_carve(base, &off, (size_t)n + (size_t)k);
  t->Ab = vi_carve(base, &off, kn);
  t->A1 = vi_carve(base, &off, kn);
  t->Dp = vi_carve(base, &off, kn);
  t->H = vi_carve(base, &off, nn);
  t->S = vi_carve(base, &off, nn);
  t->lam = vi_carve(base, &off, (size_t)k);
  return off;
}

static size_t dla_state_size(const void *opts, const vi_dims *d) {
  (void)opts;
  return (sizeof(dla_state) + 15) / 16 * 16 + dla_layout(NULL, NULL, d->n, d->m_nh);
}

/* The tables admit the mechanical form with nonholonomic constraints
 * (needs; a Lie-group system such as vertical-disc is refused there);
 * here: holonomic constraints (knife-edge-incline), a mass matrix M(q)
 * and missing derivatives. */
static int dla_accepts(const void *opts, const VI_X(vi_system_type) *sys, char *why,
                       size_t len) {
  const dla_opts *o = opts;
  const char *name = sys->info->name;
  if (sys->holo != NULL && sys->info->m > 0) {
    snprintf(why, len,
             "dla does not take holonomic constraints: McLachlan-Perlmutter (4.18) is the "
             "nonholonomic scheme alone, and stacking a holonomic projection onto it would be "
             "our own method without a source (docs/family-notes.md, dla); %s has %d",
             name, sys->info->m);
    return VI_EUNSUPPORTED;
  }
  if (VI_X(vi_type_config_mass)(sys)) {
    snprintf(why, len,
             "dla needs a constant mass matrix (the drifts q + h/2 M^-1 p of (4.18)); %s has "
             "M(q)",
             name);
    return VI_EUNSUPPORTED;
  }
  if (sys->nh->dphi_dq == NULL) {
    snprintf(why, len, "dla's Newton Jacobian needs D_q Phi (vi_nh_ops.dphi_dq), which %s "
             "does not supply", name);
    return VI_EUNSUPPORTED;
  }
  if (o->point == VI_DLA_MIDPOINT &&
      (sys->mech->hess_potential == NULL || sys->nh->datmu == NULL)) {
    snprintf(why, len,
             "dla:point=midpoint's Newton Jacobian needs Hess V and D_q(A'mu), which %s does "
             "not both supply",
             name);
    return VI_EUNSUPPORTED;
  }
  return VI_OK;
}

/* Every node satisfies A(q) M^-1 p + a(q) = 0 (the constraint of each
 * step is imposed at its end point). */
static unsigned dla_keeps(const void *opts) {
  (void)opts;
  return VI_KEEPS_NH;
}

static int cb(int rc) {
  return vi_callback_status(rc);
}

/* A(q) into Aq and, when r is not NULL, r = A(q) w + a(q). */
static int dla_phi(const dla_state *st, const VI_REAL *q, const VI_REAL *w, VI_REAL *Aq,
                   VI_REAL *r) {
  const VI_X(vi_system) *sys = st->sys;
  const VI_X(vi_nh_ops) *nh = sys->type->nh;
  int rc = cb(nh->matrix(sys->state, q, Aq));
  if (rc != VI_OK || r == NULL) {
    return rc;
  }
  vi_kit_mv(st->k, st->n, Aq, w, r);
  if (nh->affine != NULL) {
    VI_REAL *a = st->g + st->n;
    if ((rc = cb(nh->affine(sys->state, q, a))) != VI_OK) {
      return rc;
    }
    for (int i = 0; i < st->k; i++) {
      r[i] += a[i];
    }
  }
  return VI_OK;
}

/* q_{k+1}, v_{k+1} and qbar of x (file comment). */
static void dla_points(dla_state *st, const VI_REAL *x) {
  const int n = st->n;
  const VI_REAL h = st->h;
  for (int a = 0; a < n; a++) {
    VI_REAL m0 = 0, m1 = 0;
    for (int c = 0; c < n; c++) {
      m0 += st->Minv[a * n + c] * st->p[c];
      m1 += st->Minv[a * n + c] * x[c];
    }
    st->v1[a] = m1;
    st->q1[a] = st->q[a] + h / 2 * (m0 + m1);
    st->qb[a] = st->o.point == VI_DLA_LEAPFROG ? st->q[a] + h / 2 * m0
                                                : (st->q[a] + st->q1[a]) / 2;
  }
}

/* Residual and Jacobian of one step, rows (R1, R2), columns (p_{k+1}, mu). */
static int dla_resjac(void *ctx, const VI_REAL *x, VI_REAL *F, VI_REAL *J) {
  dla_state *st = ctx;
  const VI_X(vi_system) *sys = st->sys;
  const int n = st->n, k = st->k, N = st->N;
  const size_t nn = (size_t)n * (size_t)n;
  const VI_REAL h = st->h;
  const VI_REAL *mu = x + n;
  int rc;
  dla_points(st, x);
  if ((rc = cb(sys->type->mech->grad_potential(sys->state, st->qb, st->g))) != VI_OK ||
      (rc = dla_phi(st, st->qb, NULL, st->Ab, NULL)) != VI_OK ||
      (rc = dla_phi(st, st->q1, st->v1, st->A1, F ? F + n : NULL)) != VI_OK) {
    return rc;
  }
  if (F) {
    /* R1 = p_{k+1} - p_k + h (grad V(qbar) + A(qbar)' mu). */
    vi_kit_mtv(k, n, st->Ab, mu, st->g, 1);
    for (int a = 0; a < n; a++) {
      F[a] = x[a] - st->p[a] + h * st->g[a];
    }
  }
  if (J == NULL) {
    return VI_OK;
  }
  memset(J, 0, (size_t)N * (size_t)N * sizeof *J);
  vi_kit_jeye(J, N, 0, 0, n, 1);
  if (st->o.point == VI_DLA_MIDPOINT) {
    /* dqbar/dp_{k+1} = h/4 M^-1: + h^2/4 (Hess V + D_q(A'mu))(qbar) M^-1. */
    if ((rc = cb(sys->type->mech->hess_potential(sys->state, st->qb, st->H))) != VI_OK ||
        (rc = cb(sys->type->nh->datmu(sys->state, st->qb, mu, st->S))) != VI_OK) {
      return rc;
    }
    for (size_t e = 0; e < nn; e++) {
      st->H[e] += st->S[e];
    }
    for (int a = 0; a < n; a++) {
      for (int c = 0; c < n; c++) {
        VI_REAL acc = 0;
        for (int b = 0; b < n; b++) {
          acc += st->H[a * n + b] * st->Minv[b * n + c];
        }
        J[(size_t)a * N + c] += h * h / 4 * acc;
      }
    }
  }
  vi_kit_jadd(J, N, 0, n, n, k, h, st->Ab, 1);
  /* dR2/dp_{k+1} = (A(q_{k+1}) + h/2 D_q Phi(q_{k+1}, v_{k+1})) M^-1. */
  if ((rc = cb(sys->type->nh->dphi_dq(sys->state, st->q1, st->v1, st->Dp))) != VI_OK) {
    return rc;
  }
  for (int r = 0; r < k; r++) {
    for (int c = 0; c < n; c++) {
      VI_REAL acc = 0;
      for (int b = 0; b < n; b++) {
        acc += (st->A1[r * n + b] + h / 2 * st->Dp[r * n + b]) * st->Minv[b * n + c];
      }
      J[(size_t)(n + r) * N + c] = acc;
    }
  }
  return VI_OK;
}

/* The start guess from the node: p_{k+1} = p_k, mu = the node's
 * multipliers. */
static int dla_guess_start(void *ctx) {
  dla_state *st = ctx;
  memcpy(st->x, st->p, (size_t)st->n * sizeof *st->x);
  memcpy(st->x + st->n, st->lam, (size_t)st->k * sizeof *st->x);
  return VI_OK;
}

static int dla_init(void *state, const void *opts_, const VI_X(vi_system) *sys,
                    const vi_dims *d, const VI_X(vi_solver_opts) *solver, VI_REAL h, VI_REAL t0,
                    const VI_REAL *q0, const VI_REAL *p0, VI_X(vi_node) *node0,
                    VI_X(vi_stats) *stats, char *err, size_t errlen) {
  dla_state *st = state;
  const int n = sys->n, k = sys->m_nh;
  int rc;
  (void)d;
  (void)stats; /* init solves nothing */
  memset(st, 0, sizeof *st);
  st->o = *(const dla_opts *)opts_;
  st->sys = sys;
  st->n = n;
  st->k = k;
  st->N = n + k;
  st->h = h;
  st->t0 = t0;
  dla_layout(st, (char *)state + (sizeof *st + 15) / 16 * 16, n, k);
  if ((rc = VI_X(vi_system_mass_at)(sys, q0, NULL, &st->M)) != VI_OK ||
      (rc = VI_X(vi_system_minv_at)(sys, q0, NULL, &st->Minv)) != VI_OK) {
    vi_set_err(err, errlen, "dla: the constant mass matrix is not available");
    return rc;
  }
  memcpy(st->q, q0, (size_t)n * sizeof *q0);
  memcpy(st->p, p0, (size_t)n * sizeof *p0);
  if ((rc = VI_X(vi_system_project_nh)(sys, st->q, st->p)) != VI_OK) {
    vi_set_err(err, errlen, "dla: projecting p0 onto the nonholonomic constraint failed (%s)",
               vi_strerror(rc));
    return rc;
  }
  if ((rc = VI_X(vi_system_lambda)(sys, st->q, st->p, st->lam)) != VI_OK) {
    vi_set_err(err, errlen, "dla: the multipliers of the initial data failed (%s)",
               vi_strerror(rc));
    return rc;
  }
  node0->t = t0;
  memcpy(node0->q, st->q, (size_t)n * sizeof *q0);
  memcpy(node0->p, st->p, (size_t)n * sizeof *p0);
  memcpy(node0->lambda, st->lam, (size_t)k * sizeof *st->lam);
  if ((rc = VI_X(vi_solver_alloc)(solver, st->N, dla_resjac, st, &st->solver)) != VI_OK) {
    return rc;
  }
  const VI_REAL pu = 1 + VI_X(vi_norm_inf)(n, st->p);
  for (int i = 0; i < st->N; i++) {
    VI_X(vi_solver_set_unit)(st->solver, i, i < n ? pu : pu / h);
  }
  return dla_guess_start(st);
}

static int dla_step(void *state, VI_X(vi_node) *next, VI_X(vi_stats) *stats) {
  dla_state *st = state;
  const int n = st->n, k = st->k;
  memcpy(st->xs, st->x, (size_t)st->N * sizeof *st->xs);
  int rc = vi_kit_solve(st->solver, st->x, 1, dla_guess_start, st, stats);
  if (rc == VI_OK) {
    /* q_{k+1} of the converged x (the solver's last evaluation may have
     * been at the previous iterate). */
    dla_points(st, st->x);
    rc = VI_X(vi_system_lambda)(st->sys, st->q1, st->x, st->g);
  }
  if (rc != VI_OK) {
    memcpy(st->x, st->xs, (size_t)st->N * sizeof *st->x); /* the node is unchanged */
    return rc;
  }
  memcpy(st->lam, st->g, (size_t)k * sizeof *st->lam);
  memcpy(st->pp, st->p, (size_t)n * sizeof *st->p);
  memcpy(st->q, st->q1, (size_t)n * sizeof *st->q);
  memcpy(st->p, st->x, (size_t)n * sizeof *st->p);
  st->step++;
  next->t = st->t0 + (VI_REAL)st->step * st->h;
  memcpy(next->q, st->q, (size_t)n * sizeof *next->q);
  memcpy(next->p, st->p, (size_t)n * sizeof *next->p);
  memcpy(next->lambda, st->lam, (size_t)k * sizeof *next->lambda);
  /* The next guess: p extrapolated linearly, mu kept. */
  for (int a = 0; a < n; a++) {
    st->x[a] = 2 * st->p[a] - st->pp[a];
  }
  stats->steps++;
  stats->unknowns = st->N;
  return VI_OK;
}

/* Benchmark hooks: the next step's system at its guess, and one solve of
 * it; both leave the state as they found it. */
static int dla_assemble(void *state, VI_REAL *F, VI_REAL *J) {
  dla_state *st = state;
  return dla_resjac(st, st->x, F, J);
}

static int dla_solve_only(void *state, VI_X(vi_stats) *stats) {
  dla_state *st = state;
  memcpy(st->xs, st->x, (size_t)st->N * sizeof *st->xs);
  int rc = vi_kit_solve(st->solver, st->x, 1, dla_guess_start, st, stats);
  memcpy(st->x, st->xs, (size_t)st->N * sizeof *st->x);
  return rc;
}

static int dla_unknowns(const void *state) {
  return ((const dla_state *)state)->N;
}

static void dla_fini(void *state) {
  vi_kit_fini(&((dla_state *)state)->solver);
}

/* A symmetric one-step map (file comment) of order 1 at least is of order
 * 2: q and p; the node's multipliers are the index-1 form's at (q_k, p_k),
 * a smooth function of the node, so of order 2 too; the energy likewise
 * where it is a first integral (not exact: file comment). */
static int dla_expected_order(const void *opts, const VI_X(vi_system_type) *sys,
                              int quantity) {
  (void)opts;
  switch (quantity) {
  case VI_Q:
  case VI_P:
  case VI_LAMBDA:
    return 2;
  case VI_ENERGY:
    return sys != NULL && VI_X(vi_type_energy_conserved)(sys) ? 2 : -1;
  default:
    return -1;
  }
}

static const char *const dla_examples[] = {"dla", "dla:point=midpoint", NULL};

const VI_X(vi_method_type) VI_X(vi_method_dla) = {
    .name = "dla",
    .quad_solver = VI_SOLVER_NEWTON, /* docs/benchmarks.md: the fastest quad step */
    .summary = "McLachlan-Perlmutter's second-order discrete Lagrange-d'Alembert integrator: "
               "forces at the leapfrog point (or the midpoint), the constraint at the new node",
    .cite = "McLachlan & Perlmutter, J. Nonlinear Sci. 16 (2006) (4.18); demartin2018 §7.3 "
            "(the DLA comparator)",
    .options = dla_options,
    .needs = VI_NEED_MECH | VI_NEED_NH,
    .optional = VI_NEED_HOLO,
    .accepts = dla_accepts,
    .keeps = dla_keeps,
    .lookahead = 0,
    .expected_order = dla_expected_order,
    .examples = dla_examples,
    .opts_size = sizeof(dla_opts),
    .state_size = dla_state_size,
    .init = dla_init,
    .step = dla_step,
    .fini = dla_fini,
    .assemble = dla_assemble,
    .solve = dla_solve_only,
    .unknowns = dla_unknowns,
};
