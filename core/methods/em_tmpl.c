/* em_tmpl.c: the energy-momentum schemes of betsch-ggl §5, method family
 * "em": the GGL energy-momentum scheme EM (84)-(86), which enforces the
 * constraints on both levels with the second multiplier gamma, and
 * Gonzalez's index-3 scheme EM-G (the paper's "original scheme by
 * Gonzalez [14]", primary constraints only; notes §1.5). With a constant
 * mass matrix, p^0 = M v^0 and D^G_v L = M v^{n+1/2} (84c) give M v^n = p^n
 * at every node, so v is eliminated (notes §1.4). With q_m = (q^n +
 * q^{n+1})/2, p_m = (p^n + p^{n+1})/2, w = M^-1 p_m and the unknowns
 * (q^{n+1}, p^{n+1}, lambda^{n+1}, gamma^{n+1}):
 *
 *   q^{n+1} - q^n - h w - h M^-1 G(q_m)' gamma = 0                    (84a)
 *   p^{n+1} - p^n + h D^G V + h D^G g' lambda + h H_gamma(q_m) w = 0  (84b)
 *   g(q^{n+1}) = 0,  G(q^{n+1}) M^-1 p^{n+1} = 0                     (84d,e)
 *
 * where H_gamma = sum_k gamma_k Hess g_k: for constraints of degree <= 2
 * (VI_QUADRATIC_G) the discrete derivatives of g and g^v = G(q) M^-1 p are
 * the midpoint ones ((99): D^G g = G(q_m), (D^G_q g^v)' gamma = H_gamma(q_m)
 * w, D^G_p g^v = G(q_m) M^-1), so variant=ggl requires them. EM-G drops
 * gamma and (84e); its D^G g is G(q_m) for quadratic constraints, else
 * Gonzalez's midpoint formula per constraint.
 *
 * D^G V, the discrete gradient of the potential (directionality (86):
 * D^G V . (q^{n+1} - q^n) = V(q^{n+1}) - V(q^n), which makes the energy
 * exact (89)): the system's own (vi_mech_ops.dgrad_potential, e.g. the
 * closed form (126) of four-particle), else grad V(q_m) for a potential of
 * degree <= 2 (VI_QUADRATIC_V), else Gonzalez's midpoint formula
 *   grad V(q_m) + (V(q1) - V(q0) - grad V(q_m).dq) dq / |dq|^2,
 * whose correction is O(|dq|^2) and is left out, for this step and this
 * potential only, when |dq| is below eps^(1/3) of the configuration's
 * scale, where it is below round-off in the energy (notes item 11: never
 * a global switch that jumps the energy). Gonzalez's formula conserves the
 * energy but not, in general, the momentum maps (it is not the invariants'
 * form (126)): the family declares exact momenta only where the discrete
 * gradient keeps the symmetry.
 *
 * Bookkeeping (notes item 12): node n+1 holds lambda^{n+1} and gamma^{n+1}
 * (metis's step end); lambda^{n+1} approximates lambda(t^{n+1/2}) to second
 * order and lambda(t^{n+1}) to first, which is the paper's Fig. 30 order.
 * Node 0: lambda(0) of the index-1 equations and gamma = 0.
 *
 * The Jacobians are exact, Gonzalez's correction of V included, except
 * for Gonzalez's formula on constraints of degree > 2 (EM-G only; no
 * system of the papers has them), whose correction's derivative is left
 * out: Newton then converges linearly, fast (it is O(h) of the iteration
 * matrix).
 *
 * Compiled once per precision (prec.h). */
#include "methods/kit_tmpl.h"
#include "methods/em.h"
#include "methods/ggl.h"

typedef vi_em_opts em_opts;

static const char *const em_variant_names[] = {"ggl", "gonzalez", NULL};
static const int em_variant_values[] = {VI_EM_GGL, VI_EM_GONZALEZ};
static const char *const em_guess_names[] = {"simple", "advanced", NULL};
static const int em_guess_values[] = {VI_GUESS_SIMPLE, VI_GUESS_ADVANCED};

#define EOPT(f) offsetof(em_opts, f)
static const vi_opt em_options[] = {
    {"variant", VI_OPT_CHOICE, EOPT(variant), 0, 0, em_variant_names, em_variant_values, NULL,
     VI_EM_GGL, 0, NULL, NULL,
     "ggl: EM (84), both constraint levels and gamma; gonzalez: EM-G, Gonzalez's index-3 "
     "scheme (primary constraints only)"},
    {"guess", VI_OPT_CHOICE, EOPT(guess), 0, 0, em_guess_names, em_guess_values, NULL,
     VI_GUESS_SIMPLE, 0, NULL, NULL,
     "Newton guess (betsch-ggl Table 2): the previous step's unknowns, or those with "
     "q^{n+1} = q^n + h M^-1 p^n"},
    {NULL, 0, 0, 0, 0, NULL, NULL, NULL, 0, 0, NULL, NULL, NULL}};
#undef EOPT

/* ---- state -------------------------------------------------------------- */

typedef struct em_state {
  em_opts o;
  const VI_X(vi_system) *sys;
  VI_X(vi_solver) *solver;
  int n, m, N, ggl;
  VI_REAL h, t0, dq_small;
  long k;
  const VI_REAL *M, *Mi;
  VI_REAL *q0, *p0, *x, *xs;
  VI_REAL *qm, *pm, *w, *dq, *dV, *r, *Gm, *DG, *G1, *Tm, *T1, *Hg, *Hl, *J1, *MH;
} em_state;

static size_t em_layout(em_state *st, char *base, int n, int m, int N) {
  em_state dummy;
  em_state *t = st ? st : &dummy;
  size_t off = 0;
  const size_t nn = (size_t)n * (size_t)n, mn = (size_t)m * (size_t)n;
  t->q0 = vi_carve(base, &off, (size_t)n);
  t->p0 = vi_carve(base, &off, (size_t)n);
  t->x = vi_carve(base, &off, (size_t)N);
  t->xs = vi_carve(base, &off, (size_t)N);
  t->qm = vi_carve(base, &off, (size_t)n);
  t->pm = vi_carve(base, &off, (size_t)n);
  t->w = vi_carve(base, &off, (size_t)n);
  t->dq = vi_carve(base, &off, (size_t)n);
  t->dV = vi_carve(base, &off, (size_t)n);
  t->r = vi_carve(base, &off, (size_t)(n > m ? n : m) + 1);
  t->Gm = vi_carve(base, &off, mn);
  t->DG = vi_carve(base, &off, mn);
  t->G1 = vi_carve(base, &off, mn);
  t->Tm = vi_carve(base, &off, mn);
  t->T1 = vi_carve(base, &off, mn);
  t->Hg = vi_carve(base, &off, nn);
  t->Hl = vi_carve(base, &off, nn);
  t->J1 = vi_carve(base, &off, nn);
  t->MH = vi_carve(base, &off, nn);
  return off;
}

static int em_unknowns_of(const em_opts *o, int n, int m) {
  return 2 * n + (o->variant == VI_EM_GGL ? 2 * m : m);
}

static size_t em_state_size(const void *opts_, const vi_dims *d) {
  return (sizeof(em_state) + 15) / 16 * 16 +
         em_layout(NULL, NULL, d->n, d->m, em_unknowns_of(opts_, d->n, d->m));
}

static int em_extra(const void *opts_, const vi_dims *d, const char **name, int *ref) {
  const em_opts *o = opts_;
  *name = "gamma";
  *ref = VI_EXTRA_ZERO;
  return o->variant == VI_EM_GGL ? d->m : 0;
}

/* EM keeps both levels at t^{n+1} (84d,e); EM-G only g (F1). */
static unsigned em_keeps(const void *opts_) {
  const em_opts *o = opts_;
  return o->variant == VI_EM_GGL ? VI_KEEPS_G | VI_KEEPS_GV | VI_KEEPS_GVV : VI_KEEPS_G;
}

/* A constant mass matrix (the paper's EM eliminates v through M v^n = p^n
 * and differs from Gonzalez's for M(q), betsch-ggl §7); variant=ggl needs
 * the midpoint discrete derivatives of g and g^v, exact for constraints
 * of degree <= 2 only. */
static int em_accepts(const void *opts_, const VI_X(vi_system_type) *sty, char *why,
                      size_t len) {
  const em_opts *o = opts_;
  if (VI_X(vi_type_config_mass)(sty)) {
    snprintf(why, len,
             "em needs a constant mass matrix: with M(q) the scheme (84) no longer reduces to "
             "M v^n = p^n and differs from Gonzalez's (betsch-ggl §7); %s has M(q)",
             sty->info->name);
    return VI_EUNSUPPORTED;
  }
  if (o->variant == VI_EM_GGL && !(sty->info->quadratic & VI_QUADRATIC_G)) {
    snprintf(why, len,
             "em:variant=ggl needs constraints of degree at most 2, whose midpoint derivatives "
             "are the discrete derivatives of g and G(q) M^-1 p ((99), notes §1.4); %s does not "
             "declare them so (em:variant=gonzalez takes any g)",
             sty->info->name);
    return VI_EUNSUPPORTED;
  }
  return VI_OK;
}

static int cb(int rc) {
  return vi_callback_status(rc);
}

/* |dq|^2 and whether Gonzalez's correction is kept (notes item 11). */
static int em_gonzalez_on(const em_state *st, VI_REAL *dd) {
  VI_REAL s = 0, sc = 1;
  for (int i = 0; i < st->n; i++) {
    s += st->dq[i] * st->dq[i];
    VI_REAL a = vi_fabs(st->qm[i]);
    sc = a > sc ? a : sc;
  }
  *dd = s;
  return vi_sqrt(s) > st->dq_small * sc;
}

/* D^G V(q0, q1) into st->dV and, with jac, its q1-Jacobian into st->J1. */
static int em_dgrad_V(em_state *st, const VI_REAL *q1, int jac) {
  const VI_X(vi_system) *sys = st->sys;
  const VI_X(vi_mech_ops) *mo = sys->type->mech;
  const int n = st->n;
  int rc;
  if (mo->dgrad_potential) {
    return cb(mo->dgrad_potential(sys->state, st->q0, q1, st->dV, jac ? st->J1 : NULL));
  }
  if ((rc = cb(mo->grad_potential(sys->state, st->qm, st->dV))) != VI_OK) {
    return rc;
  }
  if (jac) {
    if ((rc = cb(mo->hess_potential(sys->state, st->qm, st->J1))) != VI_OK) {
      return rc;
    }
    for (int i = 0; i < n * n; i++) {
      st->J1[i] /= 2;
    }
  }
  VI_REAL dd;
  if ((sys->type->info->quadratic & VI_QUADRATIC_V) || !em_gonzalez_on(st, &dd)) {
    return VI_OK;
  }
  VI_REAL V0, V1, c = 0;
  if ((rc = cb(mo->potential(sys->state, st->q0, &V0))) != VI_OK ||
      (rc = cb(mo->potential(sys->state, q1, &V1))) != VI_OK) {
    return rc;
  }
  for (int i = 0; i < n; i++) {
    c += st->dV[i] * st->dq[i];
  }
  c = (V1 - V0 - c) / dd;
  if (jac) {
    /* d(c dq)/dq1 = c I + dq dc', dc = (grad V(q1) - grad V(q_m) - 1/2
     * Hess V(q_m) dq - 2 c dq) / |dq|^2: Newton stays quadratic. */
    VI_REAL *g1 = st->w, *dc = st->r; /* free until the residual uses them */
    if ((rc = cb(mo->grad_potential(sys->state, q1, g1))) != VI_OK) {
      return rc;
    }
    for (int i = 0; i < n; i++) {
      VI_REAL hd = 0;
      for (int j = 0; j < n; j++) {
        hd += st->J1[i * n + j] * st->dq[j]; /* J1 = Hess V(q_m) / 2 here */
      }
      dc[i] = (g1[i] - st->dV[i] - hd - 2 * c * st->dq[i]) / dd;
    }
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        st->J1[i * n + j] += st->dq[i] * dc[j] + (i == j ? c : 0);
      }
    }
  }
  for (int i = 0; i < n; i++) {
    st->dV[i] += c * st->dq[i];
  }
  return VI_OK;
}

/* D^G g(q0, q1) (m x n) into st->DG: G(q_m) (in st->Gm) for quadratic
 * constraints, else Gonzalez's formula row by row. */
static int em_dgrad_g(em_state *st, const VI_REAL *q1) {
  const VI_X(vi_system) *sys = st->sys;
  const int n = st->n, m = st->m;
  memcpy(st->DG, st->Gm, (size_t)m * n * sizeof *st->DG);
  VI_REAL dd;
  if ((sys->type->info->quadratic & VI_QUADRATIC_G) || !em_gonzalez_on(st, &dd)) {
    return VI_OK;
  }
  VI_REAL *g0 = st->T1, *g1 = st->T1 + m; /* T1 (m n >= 2m) is free until the Jacobian */
  int rc;
  if ((rc = cb(sys->type->holo->constraint(sys->state, st->q0, g0))) != VI_OK ||
      (rc = cb(sys->type->holo->constraint(sys->state, q1, g1))) != VI_OK) {
    return rc;
  }
  for (int k = 0; k < m; k++) {
    VI_REAL c = 0;
    for (int i = 0; i < n; i++) {
      c += st->Gm[k * n + i] * st->dq[i];
    }
    c = (g1[k] - g0[k] - c) / dd;
    for (int i = 0; i < n; i++) {
      st->DG[k * n + i] += c * st->dq[i];
    }
  }
  return VI_OK;
}

/* x = (q1, p1, lambda[, gamma]). */
static int em_resjac(void *ctx, const VI_REAL *x, VI_REAL *F, VI_REAL *J) {
  em_state *st = ctx;
  const VI_X(vi_system) *sys = st->sys;
  const void *S = sys->state;
  const VI_X(vi_holo_ops) *ho = sys->type->holo;
  const int n = st->n, m = st->m, N = st->N, ggl = st->ggl;
  const VI_REAL h = st->h;
  const VI_REAL *q1 = x, *p1 = x + n, *lam = x + 2 * n, *gam = ggl ? x + 2 * n + m : NULL;
  for (int i = 0; i < n; i++) {
    st->qm[i] = (st->q0[i] + q1[i]) / 2;
    st->pm[i] = (st->p0[i] + p1[i]) / 2;
    st->dq[i] = q1[i] - st->q0[i];
  }
  int rc;
  if ((rc = cb(ho->constraint_jac(S, st->qm, st->Gm))) != VI_OK ||
      (rc = em_dgrad_g(st, q1)) != VI_OK || (rc = em_dgrad_V(st, q1, J != NULL)) != VI_OK) {
    return rc;
  }
  if (ggl && (rc = cb(ho->constraint_hess(S, st->qm, gam, st->Hg))) != VI_OK) {
    return rc;
  }
  vi_kit_mv(n, n, st->Mi, st->pm, st->w); /* w = M^-1 p_m */
  if (F) {
    /* (84a): q1 - q0 - h w - h M^-1 G(q_m)' gamma */
    if (ggl) {
      vi_kit_mtv(m, n, st->Gm, gam, st->r, 0);
      vi_kit_mv(n, n, st->Mi, st->r, F); /* F[0..n) as scratch, overwritten below */
    }
    for (int i = 0; i < n; i++) {
      F[i] = st->dq[i] - h * st->w[i] - (ggl ? h * F[i] : 0);
    }
    /* (84b): p1 - p0 + h D^G V + h D^G g' lambda + h H_gamma(q_m) w */
    vi_kit_mtv(m, n, st->DG, lam, st->dV, 1);
    if (ggl) {
      vi_kit_mv(n, n, st->Hg, st->w, st->r);
    }
    for (int i = 0; i < n; i++) {
      F[n + i] = p1[i] - st->p0[i] + h * st->dV[i] + (ggl ? h * st->r[i] : 0);
    }
    /* (84d), (84e) */
    if ((rc = cb(ho->constraint(S, q1, F + 2 * n))) != VI_OK) {
      return rc;
    }
    if (ggl && (rc = VI_X(vi_system_hidden)(sys, q1, p1, F + 2 * n + m)) != VI_OK) {
      return rc;
    }
  }
  if (J) {
    for (size_t i = 0; i < (size_t)N * N; i++) {
      J[i] = 0;
    }
    if ((rc = cb(ho->constraint_hess(S, st->qm, lam, st->Hl))) != VI_OK ||
        (rc = cb(ho->constraint_jac(S, q1, st->G1))) != VI_OK) {
      return rc;
    }
    const int iq = 0, ip = n, il = 2 * n, ig = 2 * n + m;
    /* R1: q: I - h/2 M^-1 H_gamma; p: -h/2 M^-1; gamma: -h M^-1 G(q_m)' */
    vi_kit_jeye(J, N, 0, iq, n, 1);
    vi_kit_jadd(J, N, 0, ip, n, n, -h / 2, st->Mi, 0);
    if (ggl) {
      for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
          VI_REAL a = 0, b = 0;
          for (int k = 0; k < n; k++) {
            a += st->Mi[i * n + k] * st->Hg[k * n + j];
            b += st->Hg[i * n + k] * st->Mi[k * n + j];
          }
          J[(size_t)i * N + iq + j] += -h / 2 * a;
          st->MH[i * n + j] = b; /* H_gamma M^-1 */
        }
        for (int j = 0; j < m; j++) {
          VI_REAL a = 0;
          for (int k = 0; k < n; k++) {
            a += st->Mi[i * n + k] * st->Gm[j * n + k];
          }
          J[(size_t)i * N + ig + j] += -h * a;
        }
      }
    }
    /* R2: q: h dD^G V/dq1 + h/2 H_lambda(q_m); p: I + h/2 H_gamma M^-1;
     * lambda: h D^G g'; gamma: h T(q_m, w)' */
    vi_kit_jadd(J, N, n, iq, n, n, h, st->J1, 0);
    vi_kit_jadd(J, N, n, iq, n, n, h / 2, st->Hl, 0);
    vi_kit_jeye(J, N, n, ip, n, 1);
    vi_kit_jadd(J, N, n, il, n, m, h, st->DG, 1);
    if (ggl) {
      if ((rc = VI_X(vi_system_dGv)(sys, st->qm, st->w, st->Tm)) != VI_OK) {
        return rc;
      }
      vi_kit_jadd(J, N, n, ip, n, n, h / 2, st->MH, 0);
      vi_kit_jadd(J, N, n, ig, n, m, h, st->Tm, 1);
    }
    /* R3: G(q1).  R4: q: T(q1, M^-1 p1); p: G(q1) M^-1 */
    vi_kit_jadd(J, N, 2 * n, iq, m, n, 1, st->G1, 0);
    if (ggl) {
      vi_kit_mv(n, n, st->Mi, p1, st->r);
      if ((rc = VI_X(vi_system_dGv)(sys, q1, st->r, st->T1)) != VI_OK) {
        return rc;
      }
      vi_kit_jadd(J, N, 2 * n + m, iq, m, n, 1, st->T1, 0);
      for (int i = 0; i < m; i++) {
        for (int j = 0; j < n; j++) {
          VI_REAL a = 0;
          for (int k = 0; k < n; k++) {
            a += st->G1[i * n + k] * st->Mi[k * n + j];
          }
          J[(size_t)(2 * n + m + i) * N + ip + j] += a;
        }
      }
    }
  }
  return VI_OK;
}

/* ---- steps -------------------------------------------------------------- */

static void em_begin(em_state *st) {
  if (st->o.guess == VI_GUESS_ADVANCED) {
    /* q^{n+1} = q^n + h M^-1 p^n (notes §1.7: the stored velocity) */
    vi_kit_mv(st->n, st->n, st->Mi, st->p0, st->x);
    for (int i = 0; i < st->n; i++) {
      st->x[i] = st->q0[i] + st->h * st->x[i];
    }
  }
}

static int em_solve(em_state *st, VI_X(vi_stats) *stats) {
  em_begin(st);
  return vi_kit_solve(st->solver, st->x, 0, NULL, NULL, stats);
}

static int em_init(void *state, const void *opts_, const VI_X(vi_system) *sys,
                   const vi_dims *d, const VI_X(vi_solver_opts) *solver, VI_REAL h,
                   VI_REAL t0, const VI_REAL *q0, const VI_REAL *p0, VI_X(vi_node) *node0,
                   VI_X(vi_stats) *stats, char *err, size_t errlen) {
  em_state *st = state;
  const em_opts *o = opts_;
  const int n = sys->n, m = sys->m;
  int rc;
  (void)d;
  (void)stats;
  memset(st, 0, sizeof *st);
  st->o = *o;
  st->sys = sys;
  st->n = n;
  st->m = m;
  st->ggl = o->variant == VI_EM_GGL;
  st->N = em_unknowns_of(o, n, m);
  st->h = h;
  st->t0 = t0;
  st->dq_small = vi_cbrt(VI_EPS);
  size_t head = (sizeof *st + 15) / 16 * 16;
  em_layout(st, (char *)state + head, n, m, st->N);
  if ((rc = VI_X(vi_system_mass_at)(sys, q0, NULL, &st->M)) != VI_OK ||
      (rc = VI_X(vi_system_minv_at)(sys, q0, NULL, &st->Mi)) != VI_OK) {
    vi_set_err(err, errlen, "em: the constant mass matrix is not available");
    return rc;
  }
  if ((rc = VI_X(vi_solver_alloc)(solver, st->N, em_resjac, st, &st->solver)) != VI_OK) {
    return rc;
  }
  for (int i = 2 * n; i < st->N; i++) {
    VI_X(vi_solver_set_unit)(st->solver, i, 1 / h);
  }
  memcpy(st->q0, q0, (size_t)n * sizeof *q0);
  memcpy(st->p0, p0, (size_t)n * sizeof *p0);
  node0->t = t0;
  memcpy(node0->q, q0, (size_t)n * sizeof *q0);
  memcpy(node0->p, p0, (size_t)n * sizeof *p0);
  for (int i = 0; st->ggl && i < m; i++) {
    node0->extra[i] = 0;
  }
  if ((rc = VI_X(vi_system_lambda)(sys, q0, p0, node0->lambda)) != VI_OK) {
    return rc;
  }
  memcpy(st->x, q0, (size_t)n * sizeof *q0);
  memcpy(st->x + n, p0, (size_t)n * sizeof *p0);
  memcpy(st->x + 2 * n, node0->lambda, (size_t)m * sizeof *p0);
  for (int i = 2 * n + m; i < st->N; i++) {
    st->x[i] = 0;
  }
  return VI_OK;
}

static int em_step(void *state, VI_X(vi_node) *next, VI_X(vi_stats) *stats) {
  em_state *st = state;
  const int n = st->n, m = st->m;
  memcpy(st->xs, st->x, (size_t)st->N * sizeof *st->xs);
  int rc = em_solve(st, stats);
  if (rc != VI_OK) {
    memcpy(st->x, st->xs, (size_t)st->N * sizeof *st->xs); /* the guess of a retry */
    return rc;
  }
  st->k++;
  next->t = st->t0 + (VI_REAL)st->k * st->h;
  memcpy(next->q, st->x, (size_t)n * sizeof *next->q);
  memcpy(next->p, st->x + n, (size_t)n * sizeof *next->p);
  memcpy(next->lambda, st->x + 2 * n, (size_t)m * sizeof *next->lambda);
  if (st->ggl) {
    memcpy(next->extra, st->x + 2 * n + m, (size_t)m * sizeof *next->extra);
  }
  memcpy(st->q0, next->q, (size_t)n * sizeof *st->q0);
  memcpy(st->p0, next->p, (size_t)n * sizeof *st->p0);
  stats->steps++;
  stats->unknowns = st->N;
  return VI_OK;
}

static int em_assemble(void *state, VI_REAL *F, VI_REAL *J) {
  em_state *st = state;
  memcpy(st->xs, st->x, (size_t)st->N * sizeof *st->xs);
  em_begin(st);
  int rc = em_resjac(st, st->x, F, J);
  memcpy(st->x, st->xs, (size_t)st->N * sizeof *st->xs);
  return rc;
}

static int em_solve_only(void *state, VI_X(vi_stats) *stats) {
  em_state *st = state;
  memcpy(st->xs, st->x, (size_t)st->N * sizeof *st->xs);
  int rc = em_solve(st, stats);
  memcpy(st->x, st->xs, (size_t)st->N * sizeof *st->xs);
  return rc;
}

static int em_unknowns(const void *state) {
  return ((const em_state *)state)->N;
}

static void em_fini(void *state) {
  vi_kit_fini(&((em_state *)state)->solver);
}

/* betsch-ggl §5-6: second order in q and p (Figs 18-19, 28-29), lambda
 * first order at the step end (Fig. 30; notes item 12): lambda^{n+1} is
 * lambda(t^{n+1/2}) + O(h^2) (notes §1.4), so its error against
 * lambda(t^{n+1}) is h/2 lambda' + C h^2, first order only below h* ~
 * |lambda'| / (2 C), which stiff data push far down: on random
 * four-particle draws (k24 ~ 500) h* ~ 7e-3 (the validation's case 29,
 * seed 20261123: local slopes 1.31, 1.39, 1.26 from h = 1/68, then 1.15,
 * 1.08, 1.04, 1.02, 1.00) and h* ~ 6e-5 (case 152, T = 0.7: slopes 1.78,
 * 2.14, 1.89 from h = 8.75e-4, then 1.72, 1.32, 1.09, 1.04, 1.01; against
 * lambda(t^{n+1/2}), `--lambda-at mid`, 2.00 throughout), gamma O(h^2)
 * (notes §1.4), the energy exact (89) with a discrete gradient (every
 * potential here has one: the system's, the midpoint one of a quadratic
 * V, or Gonzalez's), the momentum maps exact (91) when the discrete
 * gradients keep the symmetries: the system's own (in invariants, (126))
 * or the midpoint ones of quadratic V and g; not Gonzalez's formula. */
static int em_expected_order(const void *opts_, const VI_X(vi_system_type) *sys,
                             int quantity) {
  const em_opts *o = opts_;
  const unsigned qd = sys->info->quadratic;
  switch (quantity) {
  case VI_Q:
  case VI_P:
    return 2;
  case VI_LAMBDA:
    return 1;
  case VI_ENERGY:
    return VI_X(vi_type_energy_conserved)(sys) ? VI_ORDER_EXACT : -1;
  case VI_EXTRA:
    return o->variant == VI_EM_GGL ? 2 : -1;
  case VI_MOMENTA:
    return (sys->mech && (sys->mech->dgrad_potential || (qd & VI_QUADRATIC_V))) &&
                   (qd & VI_QUADRATIC_G)
               ? VI_ORDER_EXACT
               : -1;
  default:
    return -1;
  }
}

static const char *const em_examples[] = {"em:variant=ggl", "em:variant=gonzalez",
                                          "em:variant=ggl,guess=advanced", NULL};

const VI_X(vi_method_type) VI_X(vi_method_em) = {
    .name = "em",
    .quad_solver = VI_SOLVER_NEWTON, /* docs/benchmarks.md: the fastest quad step */
    .summary = "energy-momentum schemes of betsch-ggl: EM (84) with both constraint levels "
               "and gamma, and Gonzalez's index-3 EM-G; discrete gradients",
    .cite = "betsch-ggl (84)-(91), (99), (126); Gonzalez 1999",
    .options = em_options,
    .needs = VI_NEED_MECH | VI_NEED_HOLO,
    .accepts = em_accepts,
    .extra = em_extra,
    .keeps = em_keeps,
    .lookahead = 0,
    .expected_order = em_expected_order,
    .examples = em_examples,
    .opts_size = sizeof(em_opts),
    .state_size = em_state_size,
    .init = em_init,
    .step = em_step,
    .fini = em_fini,
    .assemble = em_assemble,
    .solve = em_solve_only,
    .unknowns = em_unknowns,
};
