/* ggl_tmpl.c: the GGL variational integrators of betsch-ggl §4 (Kinon,
 * Betsch, Schneider), method family "ggl": the discrete Euler-Lagrange
 * equations of the GGL principle with position and velocity constraints,
 * the second multiplier gamma of the velocity constraint, and the
 * gamma-Hessian terms that make them symplectic and momentum-conserving
 * (without them they degenerate to the classical GGL (30), which is
 * neither: (32)). Three discrete constraints, named schemes as in the
 * paper's lost Table 1 (reconstructed in ../shared/papers/notes/betsch-ggl.md
 * §1.0):
 *
 *   VI-S (52)-(55), "generalised symplectic Euler", with qb = q^n + h v^n
 *   and H = sum_k gamma_k Hess g_k(qb), w = M^-1 p^{n+1}, unknowns
 *   (q^{n+1}, p^{n+1}, v^n, lambda^n, gamma^{n+1}):
 *     q^{n+1} - q^n - h v^n - h M^-1 G(qb)' gamma = 0               (55a)
 *     p^{n+1} - p^n + h grad V(q^n) + h G(q^n)' lambda + h H w = 0   (55b)
 *     M v^n - p^{n+1} - h H w = 0                                  (55c)
 *     g(q^{n+1}) = 0,  G(qb) w = 0                                 (55d,e)
 *
 *   the theta-family (76) with q^{n+theta} = (1-theta) q^n + theta q^{n+1},
 *   p^{n+1-theta} = theta p^n + (1-theta) p^{n+1} (75), unknowns
 *   (q^{n+1}, p^{n+1}, v^{n+1}, lambda^n, gamma^n), H_g = sum gamma_k Hess
 *   g_k(q^{n+theta}):
 *     option A (77) -> (79):  g_d = h g(q^{n+theta})
 *       q^{n+1} - q^n - h v - h M^-1 G(q^{n+theta})' gamma = 0          (79a)
 *       p^{n+1} - p^n + h grad V(q^{n+theta}) + h G(q^{n+theta})' lambda
 *         + h H_g v = 0                                  (79b, corrected)
 *       M v - p^{n+1-theta} = 0,  g(q^{n+theta}) = 0,  G(q^{n+theta}) v = 0
 *     option B (80) -> (82):  g_d = h ((1-vt) g(q^n) + vt g(q^{n+1}))
 *       (82a) = (79a); (82b) with G(q^{n+theta})' lambda replaced by
 *       ((1-vt) G(q^n) + vt G(q^{n+1}))' lambda;
 *       M v - p^{n+1-theta} + h (theta (1-vt) G(q^n) - (1-theta) vt
 *         G(q^{n+1}))' lambda = 0                                     (82c)
 *       g(q^{n+1}) = 0 (enforced directly, notes §5.14),  G(q^{n+theta}) v = 0
 *   VI-A = option A with theta = 1/2 (second order), VI-B = option B with
 *   theta = 1, vartheta = 1/2 = (83) (first order). The paper's
 *   "D1 L_d(q^{n+theta}, v^{n+1})" in (79b)/(82b)/(83b) is h D1 L = -h grad
 *   V(q^{n+theta}) (from (76b); notes item 2).
 *
 * Bookkeeping (notes item 12, metis's): node k holds q^k, p^k and the
 * scheme's own velocity v^k (vi_node.v); VI-S solves for v^n in the step
 * n -> n+1, so it solves one step ahead (look-ahead 1). The multipliers
 * are stored at the step end: node n+1 holds lambda^n and gamma^{n+1}
 * (VI-S) or gamma^n (theta-family); node 0 holds lambda(0) of the index-1
 * equations (wenger2017 (70)) and gamma = 0 (the exact flow's).
 *
 * A constant mass matrix is required (the paper's schemes assume it). The
 * Jacobians are exact when every g_k is at most quadratic
 * (VI_QUADRATIC_G, every system of the paper); otherwise they lack the
 * third derivatives of g and Newton converges linearly.
 *
 * Compiled once per precision (prec.h). */
#include "methods/kit_tmpl.h"
#include "methods/ggl.h"

#include <math.h>

typedef vi_ggl_opts ggl_opts;

static const char *const ggl_option_names[] = {"S", "A", "B", NULL};
static const int ggl_option_values[] = {VI_GGL_S, VI_GGL_A, VI_GGL_B};
static const char *const ggl_theta_names[] = {"0", "0.25", "0.5", "0.75", "1", NULL};
static const int ggl_theta_values[] = {0, 1, 2, 3, 4};
static const char *const ggl_vartheta_names[] = {"0.25", "0.5", "0.75", "1", NULL};
static const int ggl_vartheta_values[] = {1, 2, 3, 4};
static const char *const ggl_guess_names[] = {"simple", "advanced", NULL};
static const int ggl_guess_values[] = {VI_GUESS_SIMPLE, VI_GUESS_ADVANCED};

/* The paper's named schemes (notes §1.0; metis GGL_VI_mod, GGL_VI_theta_A
 * [0.5], GGL_VI_theta_B [1, 0.5]); the keys a scheme does not use stay at
 * their defaults. */
static const vi_opt_preset ggl_schemes[] = {
    {"VI-S", "option=S,theta=0.5,vartheta=0.5", NULL},
    {"VI-A", "option=A,theta=0.5,vartheta=0.5", NULL},
    {"VI-B", "option=B,theta=1,vartheta=0.5", NULL},
    {NULL, NULL, NULL}};

#define GOPT(f) offsetof(ggl_opts, f)
static const vi_opt ggl_options[] = {
    {"scheme", VI_OPT_PRESET, VI_OPT_NOFIELD, 0, 0, NULL, NULL, ggl_schemes, 0,
     VI_PRESET_IN_SPEC, NULL, "VI-A",
     "a scheme of betsch-ggl: VI-S (55), VI-A = option A with theta = 0.5 (79), VI-B = "
     "option B with theta = 1, vartheta = 0.5 (83); later keys override it"},
    {"option", VI_OPT_CHOICE, GOPT(option), 0, 0, ggl_option_names, ggl_option_values, NULL,
     VI_GGL_A, 0, NULL, "from scheme",
     "discrete constraint: S the symplectic-Euler-like (52)-(55), A intermediate g(q^{n+theta}) "
     "(77), B trapezoidal (80)"},
    {"theta", VI_OPT_CHOICE, GOPT(theta4), 0, 0, ggl_theta_names, ggl_theta_values, NULL, 2,
     0, NULL, "from scheme",
     "q^{n+theta} of the theta-family (65); option A: 0.5 only, option B: any"},
    {"vartheta", VI_OPT_CHOICE, GOPT(vartheta4), 0, 0, ggl_vartheta_names,
     ggl_vartheta_values, NULL, 2, 0, NULL, "from scheme",
     "weight of g(q^{n+1}) in option B's discrete constraint (80); 0.25 or 0.5 (larger "
     "values are unstable)"},
    {"guess", VI_OPT_CHOICE, GOPT(guess), 0, 0, ggl_guess_names, ggl_guess_values, NULL,
     VI_GUESS_SIMPLE, 0, NULL, NULL,
     "Newton guess (betsch-ggl Table 2): the previous step's unknowns, or those with "
     "q^{n+1} = q^n + h v"},
    {NULL, 0, 0, 0, 0, NULL, NULL, NULL, 0, 0, NULL, NULL, NULL}};
#undef GOPT

/* The combinations the paper's DEL or their stability rule out, with the
 * reason (notes §1.3, §5.13). */
static int ggl_check(void *opts_, char *err, size_t errlen) {
  const ggl_opts *o = opts_;
  const double th = o->theta4 / 4.0;
  if (o->option == VI_GGL_S && (o->theta4 != 2 || o->vartheta4 != 2)) {
    snprintf(err, errlen, "ggl option S (VI-S, (55)) has no theta or vartheta: leave them out (only their "
             "defaults, 0.5, pass)");
    return VI_EINVAL;
  }
  if (o->option == VI_GGL_A && o->vartheta4 != 2) {
    snprintf(err, errlen, "ggl option A (77) has no vartheta (option B's (80)): leave it out (only its "
             "default, 0.5, passes)");
    return VI_EINVAL;
  }
  if (o->option == VI_GGL_A && o->theta4 != 2) {
    snprintf(err, errlen,
             "ggl option A with theta = %g is unstable: its nodes carry parasitic modes that "
             "grow by -(1-theta)/theta (constraints) and -theta/(1-theta) (momenta) per step, "
             "%g and %g here (betsch-ggl (79); notes §5.13); theta = 0.5 only (VI-A)",
             th, th > 0 ? -(1 - th) / th : -INFINITY, th < 1 ? -th / (1 - th) : -INFINITY);
    return VI_EINVAL;
  }
  if (o->option == VI_GGL_B && o->vartheta4 > 2) {
    snprintf(err, errlen,
             "ggl option B with vartheta = %g is %s: the constraint force at t^{n+1} is h "
             "G(q^{n+1})'(vartheta lambda^n + (1 - vartheta) lambda^{n+1}) ((82b) of two "
             "steps), so lambda carries a parasitic mode multiplied by -vartheta/(1-vartheta) "
             "per step%s; vartheta <= 0.5 (at 0.5 the mode is marginal: VI-B's period-2 "
             "lambda)",
             o->vartheta4 / 4.0, o->vartheta4 == 4 ? "singular" : "unstable",
             o->vartheta4 == 4 ? " (1 - vartheta = 0: lambda^{n+1} is not determined)"
                               : ", -3 here");
    return VI_EINVAL;
  }
  return VI_OK;
}

/* ---- state -------------------------------------------------------------- */

typedef struct ggl_state {
  ggl_opts o;
  const VI_X(vi_system) *sys;
  VI_X(vi_solver) *solver;
  int n, m, N;
  VI_REAL h, t0, th, vt;
  long k;
  const VI_REAL *M, *Mi; /* the cached constant mass matrix and its inverse */
  /* The step's data: q^n, p^n; the velocity of the last node (the advanced
   * guess); x the unknowns, xa VI-S's look-ahead solution. */
  VI_REAL *q0, *p0, *vlast, *x, *xa;
  /* The state between steps saved while a step or a benchmark hook works
   * (ggl_save): restored after a failed solve and after every hook. */
  VI_REAL *sq0, *sp0, *svl, *xs;
  /* Work: points, vectors, m x n rows, n x n blocks. */
  VI_REAL *qa, *qb, *w, *dV, *g, *Gt0, *Ga, *Gb, *Ta, *Tb, *Hg, *Hl, *HV, *Hm;
} ggl_state;

static size_t ggl_layout(ggl_state *st, char *base, int n, int m, int N) {
  ggl_state dummy;
  ggl_state *t = st ? st : &dummy;
  size_t off = 0;
  const size_t nn = (size_t)n * (size_t)n, mn = (size_t)m * (size_t)n;
  t->q0 = vi_carve(base, &off, (size_t)n);
  t->p0 = vi_carve(base, &off, (size_t)n);
  t->vlast = vi_carve(base, &off, (size_t)n);
  t->x = vi_carve(base, &off, (size_t)N);
  t->xa = vi_carve(base, &off, (size_t)N);
  t->xs = vi_carve(base, &off, (size_t)N);
  t->sq0 = vi_carve(base, &off, (size_t)n);
  t->sp0 = vi_carve(base, &off, (size_t)n);
  t->svl = vi_carve(base, &off, (size_t)n);
  t->qa = vi_carve(base, &off, (size_t)n);
  t->qb = vi_carve(base, &off, (size_t)n);
  t->w = vi_carve(base, &off, (size_t)n);
  t->dV = vi_carve(base, &off, (size_t)n);
  t->g = vi_carve(base, &off, (size_t)m);
  t->Gt0 = vi_carve(base, &off, mn);
  t->Ga = vi_carve(base, &off, mn);
  t->Gb = vi_carve(base, &off, mn);
  t->Ta = vi_carve(base, &off, mn);
  t->Tb = vi_carve(base, &off, mn);
  t->Hg = vi_carve(base, &off, nn);
  t->Hl = vi_carve(base, &off, nn);
  t->HV = vi_carve(base, &off, nn);
  t->Hm = vi_carve(base, &off, nn);
  return off;
}

static size_t ggl_state_size(const void *opts_, const vi_dims *d) {
  (void)opts_;
  const int N = 3 * d->n + 2 * d->m;
  return (sizeof(ggl_state) + 15) / 16 * 16 + ggl_layout(NULL, NULL, d->n, d->m, N);
}

static int ggl_extra(const void *opts_, const vi_dims *d, const char **name, int *ref) {
  (void)opts_;
  *name = "gamma";
  *ref = VI_EXTRA_ZERO; /* gamma = 0 along the exact flow of (37) (App. A.4) */
  return d->m;
}

/* Where the constraints hold (notes item 4): VI-S g(q^{n+1}) (its G M^-1 p
 * holds at qb only), option A at q^{n+theta} only (the nodes are off by
 * O(h^2) for nonlinear g), option B g(q^{n+1}) and, for theta = 1, G(q^{n+1})
 * v^{n+1} (not G M^-1 p: O(h), notes §5.11). */
static unsigned ggl_keeps(const void *opts_) {
  const ggl_opts *o = opts_;
  return o->option == VI_GGL_S   ? VI_KEEPS_G
         : o->option == VI_GGL_A ? 0u
         : o->theta4 == 4        ? VI_KEEPS_G | VI_KEEPS_GVV
                                 : VI_KEEPS_G;
}

static int ggl_lookahead(const void *opts_) {
  return ((const ggl_opts *)opts_)->option == VI_GGL_S ? 1 : 0;
}

/* The family needs a constant mass matrix: the schemes of betsch-ggl §4
 * are written with constant M (notes §1.1). */
static int ggl_accepts(const void *opts_, const VI_X(vi_system_type) *sty, char *why,
                       size_t len) {
  (void)opts_;
  if (VI_X(vi_type_config_mass)(sty)) {
    snprintf(why, len,
             "ggl needs a constant mass matrix (betsch-ggl §4 writes its schemes with constant "
             "M); %s has M(q)",
             sty->info->name);
    return VI_EUNSUPPORTED;
  }
  return VI_OK;
}

/* ---- the system's pieces ------------------------------------------------ */

static int cb(int rc) {
  return vi_callback_status(rc);
}

/* ---- residual and Jacobian ---------------------------------------------- */

/* VI-S (55): x = (q1, p1, v, lambda, gamma). */
static int ggl_resjac_s(ggl_state *st, const VI_REAL *x, VI_REAL *F, VI_REAL *J) {
  const VI_X(vi_system) *sys = st->sys;
  const void *S = sys->state;
  const VI_X(vi_holo_ops) *ho = sys->type->holo;
  const int n = st->n, m = st->m, N = st->N;
  const VI_REAL h = st->h;
  const VI_REAL *q1 = x, *p1 = x + n, *v = x + 2 * n, *lam = x + 3 * n, *gam = x + 3 * n + m;
  VI_REAL *qb = st->qb, *w = st->w;
  for (int i = 0; i < n; i++) {
    qb[i] = st->q0[i] + h * v[i];
  }
  vi_kit_mv(n, n, st->Mi, p1, w); /* w = M^-1 p^{n+1} */
  int rc;
  if ((rc = cb(ho->constraint_jac(S, qb, st->Gb))) != VI_OK ||
      (rc = cb(ho->constraint_hess(S, qb, gam, st->Hg))) != VI_OK) {
    return rc;
  }
  if (F) {
    /* (55a): q1 - q0 - h v - h M^-1 G(qb)' gamma */
    vi_kit_mtv(m, n, st->Gb, gam, st->qa, 0);
    vi_kit_mv(n, n, st->Mi, st->qa, st->dV);
    for (int i = 0; i < n; i++) {
      F[i] = q1[i] - st->q0[i] - h * v[i] - h * st->dV[i];
    }
    /* (55b), (55c), with Hw = H(qb) w. */
    vi_kit_mv(n, n, st->Hg, w, st->qa);
    if ((rc = cb(sys->type->mech->grad_potential(S, st->q0, st->dV))) != VI_OK) {
      return rc;
    }
    vi_kit_mtv(m, n, st->Gt0, lam, st->dV, 1); /* grad V(q0) + G(q0)' lambda */
    VI_REAL *Mv = F + 2 * n;
    vi_kit_mv(n, n, st->M, v, Mv);
    for (int i = 0; i < n; i++) {
      F[n + i] = p1[i] - st->p0[i] + h * st->dV[i] + h * st->qa[i];
      F[2 * n + i] = Mv[i] - p1[i] - h * st->qa[i];
    }
    /* (55d), (55e) */
    if ((rc = cb(ho->constraint(S, q1, F + 3 * n))) != VI_OK) {
      return rc;
    }
    vi_kit_mv(m, n, st->Gb, w, F + 3 * n + m);
  }
  if (J) {
    for (size_t i = 0; i < (size_t)N * N; i++) {
      J[i] = 0;
    }
    if ((rc = VI_X(vi_system_dGv)(sys, qb, w, st->Tb)) != VI_OK ||
        (rc = cb(ho->constraint_jac(S, q1, st->Ga))) != VI_OK) {
      return rc;
    }
    const int iq = 0, ip = n, iv = 2 * n, il = 3 * n, ig = 3 * n + m;
    /* HMi = H(qb) M^-1 into Hm; Mi H into Hl. */
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        VI_REAL a = 0, b = 0;
        for (int k = 0; k < n; k++) {
          a += st->Hg[i * n + k] * st->Mi[k * n + j];
          b += st->Mi[i * n + k] * st->Hg[k * n + j];
        }
        st->Hm[i * n + j] = a;
        st->Hl[i * n + j] = b;
      }
    }
    /* R1 */
    vi_kit_jeye(J, N, 0, iq, n, 1);
    vi_kit_jeye(J, N, 0, iv, n, -h);
    vi_kit_jadd(J, N, 0, iv, n, n, -h * h, st->Hl, 0);
    /* -h M^-1 G(qb)' : (M^-1 G')_{ij} = sum_k Mi_ik G_jk */
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < m; j++) {
        VI_REAL a = 0;
        for (int k = 0; k < n; k++) {
          a += st->Mi[i * n + k] * st->Gb[j * n + k];
        }
        J[(size_t)i * N + ig + j] += -h * a;
      }
    }
    /* R2 */
    vi_kit_jeye(J, N, n, ip, n, 1);
    vi_kit_jadd(J, N, n, ip, n, n, h, st->Hm, 0);
    vi_kit_jadd(J, N, n, il, n, m, h, st->Gt0, 1);
    vi_kit_jadd(J, N, n, ig, n, m, h, st->Tb, 1);
    /* R3 */
    vi_kit_jeye(J, N, 2 * n, ip, n, -1);
    vi_kit_jadd(J, N, 2 * n, ip, n, n, -h, st->Hm, 0);
    vi_kit_jadd(J, N, 2 * n, iv, n, n, 1, st->M, 0);
    vi_kit_jadd(J, N, 2 * n, ig, n, m, -h, st->Tb, 1);
    /* R4, R5 */
    vi_kit_jadd(J, N, 3 * n, iq, m, n, 1, st->Ga, 0);
    /* G(qb) M^-1 */
    for (int i = 0; i < m; i++) {
      for (int j = 0; j < n; j++) {
        VI_REAL a = 0;
        for (int k = 0; k < n; k++) {
          a += st->Gb[i * n + k] * st->Mi[k * n + j];
        }
        J[(size_t)(3 * n + m + i) * N + ip + j] += a;
      }
    }
    vi_kit_jadd(J, N, 3 * n + m, iv, m, n, h, st->Tb, 0);
  }
  return VI_OK;
}

/* The theta-family (79) / (82): x = (q1, p1, v, lambda, gamma). */
static int ggl_resjac_t(ggl_state *st, const VI_REAL *x, VI_REAL *F, VI_REAL *J) {
  const VI_X(vi_system) *sys = st->sys;
  const void *S = sys->state;
  const VI_X(vi_holo_ops) *ho = sys->type->holo;
  const int n = st->n, m = st->m, N = st->N;
  const int B = st->o.option == VI_GGL_B;
  const VI_REAL h = st->h, th = st->th, vt = st->vt;
  const VI_REAL *q1 = x, *p1 = x + n, *v = x + 2 * n, *lam = x + 3 * n, *gam = x + 3 * n + m;
  VI_REAL *qa = st->qa; /* q^{n+theta} */
  for (int i = 0; i < n; i++) {
    qa[i] = (1 - th) * st->q0[i] + th * q1[i];
  }
  int rc;
  if ((rc = cb(ho->constraint_jac(S, qa, st->Ga))) != VI_OK ||
      (rc = cb(ho->constraint_hess(S, qa, gam, st->Hg))) != VI_OK) {
    return rc;
  }
  if (B && (rc = cb(ho->constraint_jac(S, q1, st->Gb))) != VI_OK) {
    return rc;
  }
  if (F) {
    /* (79a)/(82a) */
    vi_kit_mtv(m, n, st->Ga, gam, st->w, 0);
    vi_kit_mv(n, n, st->Mi, st->w, st->dV);
    for (int i = 0; i < n; i++) {
      F[i] = q1[i] - st->q0[i] - h * v[i] - h * st->dV[i];
    }
    /* (79b)/(82b): grad V(q^{n+theta}) + Gl' lambda + H_gamma v */
    if ((rc = cb(sys->type->mech->grad_potential(S, qa, st->dV))) != VI_OK) {
      return rc;
    }
    if (B) {
      for (int k = 0; k < m; k++) {
        for (int j = 0; j < n; j++) {
          st->Ta[k * n + j] = (1 - vt) * st->Gt0[k * n + j] + vt * st->Gb[k * n + j];
        }
      }
      vi_kit_mtv(m, n, st->Ta, lam, st->dV, 1);
    } else {
      vi_kit_mtv(m, n, st->Ga, lam, st->dV, 1);
    }
    vi_kit_mv(n, n, st->Hg, v, st->w);
    VI_REAL *Mv = F + 2 * n;
    vi_kit_mv(n, n, st->M, v, Mv);
    for (int i = 0; i < n; i++) {
      F[n + i] = p1[i] - st->p0[i] + h * st->dV[i] + h * st->w[i];
      F[2 * n + i] = Mv[i] - (th * st->p0[i] + (1 - th) * p1[i]);
    }
    if (B) {
      /* (82c): + h (theta (1-vt) G(q^n) - (1-theta) vt G(q^{n+1}))' lambda */
      for (int k = 0; k < m; k++) {
        for (int j = 0; j < n; j++) {
          st->Ta[k * n + j] = th * (1 - vt) * st->Gt0[k * n + j] - (1 - th) * vt * st->Gb[k * n + j];
        }
      }
      vi_kit_mtv(m, n, st->Ta, lam, st->w, 0);
      for (int i = 0; i < n; i++) {
        F[2 * n + i] += h * st->w[i];
      }
    }
    /* (79d) g(q^{n+theta}) / (82d) g(q^{n+1}); (79e) G(q^{n+theta}) v */
    if ((rc = cb(ho->constraint(S, B ? q1 : qa, F + 3 * n))) != VI_OK) {
      return rc;
    }
    vi_kit_mv(m, n, st->Ga, v, F + 3 * n + m);
  }
  if (J) {
    for (size_t i = 0; i < (size_t)N * N; i++) {
      J[i] = 0;
    }
    if ((rc = VI_X(vi_system_dGv)(sys, qa, v, st->Ta)) != VI_OK ||
        (rc = cb(sys->type->mech->hess_potential(S, qa, st->HV))) != VI_OK ||
        (rc = cb(ho->constraint_hess(S, B ? q1 : qa, lam, st->Hl))) != VI_OK) {
      return rc;
    }
    const int iq = 0, ip = n, iv = 2 * n, il = 3 * n, ig = 3 * n + m;
    /* R1: I - h theta M^-1 H_gamma; -h I; -h M^-1 G(qa)' */
    vi_kit_jeye(J, N, 0, iq, n, 1);
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        VI_REAL a = 0;
        for (int k = 0; k < n; k++) {
          a += st->Mi[i * n + k] * st->Hg[k * n + j];
        }
        J[(size_t)i * N + iq + j] += -h * th * a;
      }
      for (int j = 0; j < m; j++) {
        VI_REAL a = 0;
        for (int k = 0; k < n; k++) {
          a += st->Mi[i * n + k] * st->Ga[j * n + k];
        }
        J[(size_t)i * N + ig + j] += -h * a;
      }
    }
    vi_kit_jeye(J, N, 0, iv, n, -h);
    /* R2: q: h theta Hess V(qa) + (A) h theta H_lambda(qa) / (B) h vt
     * H_lambda(q1); p: I; v: h H_gamma; lambda: h Gl'; gamma: h T(qa, v)' */
    vi_kit_jadd(J, N, n, iq, n, n, h * th, st->HV, 0);
    vi_kit_jadd(J, N, n, iq, n, n, B ? h * vt : h * th, st->Hl, 0);
    vi_kit_jeye(J, N, n, ip, n, 1);
    vi_kit_jadd(J, N, n, iv, n, n, h, st->Hg, 0);
    if (B) {
      vi_kit_jadd(J, N, n, il, n, m, h * (1 - vt), st->Gt0, 1);
      vi_kit_jadd(J, N, n, il, n, m, h * vt, st->Gb, 1);
    } else {
      vi_kit_jadd(J, N, n, il, n, m, h, st->Ga, 1);
    }
    vi_kit_jadd(J, N, n, ig, n, m, h, st->Ta, 1);
    /* R3: p: -(1-theta) I; v: M; (B) q: -h (1-theta) vt H_lambda(q1), lambda:
     * h (theta (1-vt) G(q^n) - (1-theta) vt G(q1))' (the sign metis has wrong,
     * notes §5.17) */
    vi_kit_jeye(J, N, 2 * n, ip, n, -(1 - th));
    vi_kit_jadd(J, N, 2 * n, iv, n, n, 1, st->M, 0);
    if (B) {
      vi_kit_jadd(J, N, 2 * n, iq, n, n, -h * (1 - th) * vt, st->Hl, 0);
      vi_kit_jadd(J, N, 2 * n, il, n, m, h * th * (1 - vt), st->Gt0, 1);
      vi_kit_jadd(J, N, 2 * n, il, n, m, -h * (1 - th) * vt, st->Gb, 1);
    }
    /* R4: (A) theta G(qa); (B) G(q1).  R5: q: theta T(qa, v); v: G(qa) */
    vi_kit_jadd(J, N, 3 * n, iq, m, n, B ? 1 : th, B ? st->Gb : st->Ga, 0);
    vi_kit_jadd(J, N, 3 * n + m, iq, m, n, th, st->Ta, 0);
    vi_kit_jadd(J, N, 3 * n + m, iv, m, n, 1, st->Ga, 0);
  }
  return VI_OK;
}

static int ggl_resjac(void *ctx, const VI_REAL *x, VI_REAL *F, VI_REAL *J) {
  ggl_state *st = ctx;
  return st->o.option == VI_GGL_S ? ggl_resjac_s(st, x, F, J) : ggl_resjac_t(st, x, F, J);
}

/* ---- steps -------------------------------------------------------------- */

/* The step data from (q^n, p^n): G(q^n), and the guess in x from the
 * previous unknowns (already in x), with q^{n+1} = q^n + h v for the
 * advanced guess (v the last node's velocity; notes §1.7). */
static int ggl_begin(ggl_state *st) {
  const int n = st->n;
  int rc = cb(st->sys->type->holo->constraint_jac(st->sys->state, st->q0, st->Gt0));
  if (rc != VI_OK) {
    return rc;
  }
  if (st->o.guess == VI_GUESS_ADVANCED) {
    for (int i = 0; i < n; i++) {
      st->x[i] = st->q0[i] + st->h * st->vlast[i];
    }
  }
  return VI_OK;
}

static int ggl_solve(ggl_state *st, VI_X(vi_stats) *stats) {
  int rc = ggl_begin(st);
  return rc != VI_OK ? rc : vi_kit_solve(st->solver, st->x, 0, NULL, NULL, stats);
}

/* The state between steps (q^n, p^n, the last velocity, the unknowns),
 * saved and restored around a solve that may fail or a benchmark hook. */
static void ggl_save(ggl_state *st, int restore) {
  const size_t n = (size_t)st->n * sizeof *st->q0, N = (size_t)st->N * sizeof *st->x;
  VI_REAL *a[4] = {st->q0, st->p0, st->vlast, st->x}, *b[4] = {st->sq0, st->sp0, st->svl, st->xs};
  for (int i = 0; i < 4; i++) {
    memcpy(restore ? a[i] : b[i], restore ? b[i] : a[i], i == 3 ? N : n);
  }
}

/* VI-S: the step k+1 -> k+2 starts from the solution xa of k -> k+1
 * (q^{k+1}, p^{k+1}, and v^k for the advanced guess); x holds xa as its
 * guess already. The theta-family advances after its solve instead. */
static void ggl_prepare(ggl_state *st) {
  if (st->o.option == VI_GGL_S) {
    const int n = st->n;
    memcpy(st->q0, st->xa, (size_t)n * sizeof *st->q0);
    memcpy(st->p0, st->xa + n, (size_t)n * sizeof *st->p0);
    memcpy(st->vlast, st->xa + 2 * n, (size_t)n * sizeof *st->vlast);
  }
}

static int ggl_init(void *state, const void *opts_, const VI_X(vi_system) *sys,
                    const vi_dims *d, const VI_X(vi_solver_opts) *solver, VI_REAL h,
                    VI_REAL t0, const VI_REAL *q0, const VI_REAL *p0, VI_X(vi_node) *node0,
                    VI_X(vi_stats) *stats, char *err, size_t errlen) {
  ggl_state *st = state;
  const ggl_opts *o = opts_;
  const int n = sys->n, m = sys->m;
  int rc;
  (void)d;
  memset(st, 0, sizeof *st);
  st->o = *o;
  st->sys = sys;
  st->n = n;
  st->m = m;
  st->N = 3 * n + 2 * m;
  st->h = h;
  st->t0 = t0;
  st->th = (VI_REAL)o->theta4 / 4;
  st->vt = (VI_REAL)o->vartheta4 / 4;
  size_t head = (sizeof *st + 15) / 16 * 16;
  ggl_layout(st, (char *)state + head, n, m, st->N);
  if ((rc = VI_X(vi_system_mass_at)(sys, q0, NULL, &st->M)) != VI_OK ||
      (rc = VI_X(vi_system_minv_at)(sys, q0, NULL, &st->Mi)) != VI_OK) {
    vi_set_err(err, errlen, "ggl: the constant mass matrix is not available");
    return rc;
  }
  if ((rc = VI_X(vi_solver_alloc)(solver, st->N, ggl_resjac, st, &st->solver)) != VI_OK) {
    return rc;
  }
  /* Multipliers act on p (lambda) and q (gamma) through h G': their
   * round-off floor is that of p and q divided by h. */
  for (int i = 3 * n; i < st->N; i++) {
    VI_X(vi_solver_set_unit)(st->solver, i, 1 / h);
  }
  memcpy(st->q0, q0, (size_t)n * sizeof *q0);
  memcpy(st->p0, p0, (size_t)n * sizeof *p0);
  node0->t = t0;
  memcpy(node0->q, q0, (size_t)n * sizeof *q0);
  memcpy(node0->p, p0, (size_t)n * sizeof *p0);
  for (int i = 0; i < m; i++) {
    node0->extra[i] = 0;
  }
  if ((rc = VI_X(vi_system_lambda)(sys, q0, p0, node0->lambda)) != VI_OK) {
    return rc;
  }
  /* The first guess: z^0 = (q0, p0, v0, lambda(0), 0) (metis: lambda = 0;
   * notes §5.18). */
  VI_REAL *x = st->x;
  memcpy(x, q0, (size_t)n * sizeof *x);
  memcpy(x + n, p0, (size_t)n * sizeof *x);
  vi_kit_mv(n, n, st->Mi, p0, x + 2 * n);
  memcpy(st->vlast, x + 2 * n, (size_t)n * sizeof *x);
  memcpy(x + 3 * n, node0->lambda, (size_t)m * sizeof *x);
  for (int i = 0; i < m; i++) {
    x[3 * n + m + i] = 0;
  }
  if (o->option == VI_GGL_S) {
    /* Look-ahead: v^0 is an unknown of the step 0 -> 1. */
    if ((rc = ggl_solve(st, stats)) != VI_OK) {
      vi_set_err(err, errlen, "ggl: the first step (solved ahead for v^0) failed");
      return rc;
    }
    memcpy(node0->v, x + 2 * n, (size_t)n * sizeof *x);
    memcpy(st->xa, x, (size_t)st->N * sizeof *x);
  } else {
    memcpy(node0->v, x + 2 * n, (size_t)n * sizeof *x);
  }
  return VI_OK;
}

static int ggl_step(void *state, VI_X(vi_node) *next, VI_X(vi_stats) *stats) {
  ggl_state *st = state;
  const int n = st->n, m = st->m;
  ggl_save(st, 0);
  ggl_prepare(st);
  int rc = ggl_solve(st, stats);
  if (rc != VI_OK) {
    ggl_save(st, 1); /* node k's state: a retry starts from it */
    return rc;
  }
  st->k++;
  next->t = st->t0 + (VI_REAL)st->k * st->h;
  /* VI-S: node k+1 from xa (q^{k+1}, p^{k+1}, lambda^k, gamma^{k+1}) and
   * v^{k+1} from the step just solved ahead; the theta-family: all from x. */
  const VI_REAL *src = st->o.option == VI_GGL_S ? st->xa : st->x;
  memcpy(next->q, src, (size_t)n * sizeof *next->q);
  memcpy(next->p, src + n, (size_t)n * sizeof *next->p);
  memcpy(next->v, st->x + 2 * n, (size_t)n * sizeof *next->v);
  memcpy(next->lambda, src + 3 * n, (size_t)m * sizeof *next->lambda);
  memcpy(next->extra, src + 3 * n + m, (size_t)m * sizeof *next->extra);
  if (st->o.option == VI_GGL_S) {
    memcpy(st->xa, st->x, (size_t)st->N * sizeof *st->x);
  } else {
    memcpy(st->vlast, st->x + 2 * n, (size_t)n * sizeof *st->vlast);
    memcpy(st->q0, st->x, (size_t)n * sizeof *st->q0);
    memcpy(st->p0, st->x + n, (size_t)n * sizeof *st->p0);
  }
  stats->steps++;
  stats->unknowns = st->N;
  return VI_OK;
}

/* Benchmark hooks: the next step's system at its guess, and one solve of
 * it; the state is restored, so the trajectory is unchanged. */
static int ggl_assemble(void *state, VI_REAL *F, VI_REAL *J) {
  ggl_state *st = state;
  ggl_save(st, 0);
  ggl_prepare(st);
  int rc = ggl_begin(st);
  rc = rc != VI_OK ? rc : ggl_resjac(st, st->x, F, J);
  ggl_save(st, 1);
  return rc;
}

static int ggl_solve_only(void *state, VI_X(vi_stats) *stats) {
  ggl_state *st = state;
  ggl_save(st, 0);
  ggl_prepare(st);
  int rc = ggl_solve(st, stats);
  ggl_save(st, 1);
  return rc;
}

static int ggl_unknowns(const void *state) {
  return ((const ggl_state *)state)->N;
}

static void ggl_fini(void *state) {
  vi_kit_fini(&((ggl_state *)state)->solver);
}

/* betsch-ggl §4 and what we measured where it is silent. q, p and the
 * energy: second order for theta = 1/2 (VI-A; option B (1/2, 1/2), notes
 * G5). VI-S and option B otherwise: p and the energy first order (the
 * paper's "first order", its Figs 18-19 on the top); q first order on the
 * top (notes T2), the pendulums, six-balls and spring-pendulum, but second
 * order on four-particle (measured: the positions superconverge there, as
 * symplectic Euler's do without constraints), so no one order of q is
 * declared for them. gamma -> 0 as O(h) for VI-S and VI-B (notes G4).
 * lambda: the paper states no order; with theta = 1 (VI-B) lambda^n does
 * not converge (its period-2 modulation, notes P2, keeps an O(1) error:
 * measured 6.3 on planar-pendulum at h = 1/128, flat in h, and 'd' on the
 * four other pendulum-type systems; also with vartheta = 0.25). Where the
 * O(1) comes from (83): for n >= 1 the velocity update sees only
 * (lambda^{n-1} + lambda^n) / 2, so a mode (-1)^n a is free, and its
 * amplitude is set by the first step, whose M v^1 = p^0 - (h/2) G(q^0)'
 * lambda^0 with p^0 = M v^0 (notes §1.3 initial data) has neither the
 * half force of a previous step nor grad V: G(q^1) v^1 = 0 gives lambda^0
 * = 2 lambda_c(0) + O(h), lambda_c = (G M^-1 G')^-1 v'(Hess g)v the
 * velocity part of the index-1 multiplier, so a = 2 lambda_c(0) -
 * lambda(0). Measured as the plateau of e_lambda at h -> 0: 6.098 on
 * planar-pendulum's defaults (at rest: a = -lambda(0) = -g cos phi0),
 * 0.808 with omega0 = 2.3 (|omega0^2 - g cos phi0| = 0.808), and order
 * 1.02 with omega0 = (g cos phi0)^(1/2) = 2.4694, where a = 0. So
 * VI_ORDER_NONE holds for all data off that hypersurface, but near it the
 * O(h) part hides the plateau down to h ~ |a| / C: the validation's case
 * 115 (seed 20261123, random pendulum-3d, a = -0.021 against lambda(0) =
 * 3.30 beside an O(h) part C h, C ~ 120) looks first order (0.94) down
 * to h = 1/512 and flattens below h ~ 1e-4 (errors 0.050, 0.036, 0.029,
 * 0.025, 0.023, 0.022 halving h from 2^-12; 'd' over h = 2^-4 .. 2^-18).
 * Symplectic and
 * momentum-conserving (App. A.6, A.7): the momentum maps of symmetries
 * exactly. */
static int ggl_expected_order(const void *opts_, const VI_X(vi_system_type) *sys,
                              int quantity) {
  (void)sys;
  const ggl_opts *o = opts_;
  const int second = o->option != VI_GGL_S && o->theta4 == 2 &&
                     (o->option == VI_GGL_A || o->vartheta4 == 2);
  const int vib = o->option == VI_GGL_B && o->theta4 == 4; /* VI-B and its vartheta */
  switch (quantity) {
  case VI_Q:
    return second ? 2 : -1;
  case VI_P:
  case VI_ENERGY:
    return second ? 2 : 1;
  case VI_LAMBDA:
    return vib ? VI_ORDER_NONE : -1;
  case VI_EXTRA:
    return o->option == VI_GGL_S || vib ? 1 : -1;
  case VI_MOMENTA:
    return VI_ORDER_EXACT;
  default:
    return -1;
  }
}

static const char *const ggl_examples[] = {"ggl:scheme=VI-S", "ggl:scheme=VI-A",
                                           "ggl:scheme=VI-B,guess=advanced", NULL};
static const char *const ggl_validation[] = {"ggl:scheme=VI-S", "ggl:scheme=VI-A",
                                             "ggl:scheme=VI-B",
                                             "ggl:option=B,theta=0.5,vartheta=0.5", NULL};

const VI_X(vi_method_type) VI_X(vi_method_ggl) = {
    .name = "ggl",
    .quad_solver = VI_SOLVER_NEWTON, /* docs/benchmarks.md: the fastest quad step */
    .summary = "GGL variational integrators of betsch-ggl: position and velocity constraints "
               "with the second multiplier gamma and its Hessian terms; schemes VI-S, VI-A, "
               "VI-B",
    .cite = "betsch-ggl (52)-(55), (76)-(83)",
    .options = ggl_options,
    .needs = VI_NEED_MECH | VI_NEED_HOLO,
    .accepts = ggl_accepts,
    .check = ggl_check,
    .extra = ggl_extra,
    .velocity = 1,
    .keeps = ggl_keeps,
    .lookahead = 0,
    .lookahead_of = ggl_lookahead,
    .expected_order = ggl_expected_order,
    .examples = ggl_examples,
    .validation = ggl_validation,
    .opts_size = sizeof(ggl_opts),
    .state_size = ggl_state_size,
    .init = ggl_init,
    .step = ggl_step,
    .fini = ggl_fini,
    .assemble = ggl_assemble,
    .solve = ggl_solve_only,
    .unknowns = ggl_unknowns,
};
