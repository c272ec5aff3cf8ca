/* reference_tmpl.c: reference solutions at the nodes t_k = k h of an order study,
 * in the working precision (prec.h), never from a method under test
 * (design.md, "Studies and results"). Where the system type has an exact
 * solution in this precision (obs->exact) it is evaluated at the nodes.
 * Otherwise the equations of the system's form, here (for the mechanical
 * form the index-1 form of wenger2017 (1)-(3) with the multiplier (70)),
 *   qdot = M^-1 p,  pdot = -grad V(q) - G(q)' lambda(q, p),
 * are integrated independently of the methods under test by the
 * integrator of the precision (reference_impl_tmpl.h): in double GSL's
 * rk8pd at a tight tolerance (reference_rk8pd.c), in quad the s = 8
 * Gauss-Legendre Runge-Kutta method with a constant substep
 * (reference_irk.c). The multipliers at the nodes are (70) at the reference
 * (q, p); no node is projected onto the manifold, so the constraint
 * residuals of a reference show its true error. Each integration is
 * checked by a second, coarser one and the difference is the stated
 * accuracy. Results can be cached on disk (refcache.c, compiled once for
 * both precisions). Compiled once per precision. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference_impl_tmpl.h"
#include "refcache.h"

/* ---- the right-hand side of each form ----------------------------------- */

void VI_X(vi_ref_fail)(vi_ref_rhs *c, int status, const char *fmt, ...) {
  if (c->status != VI_OK) {
    return;
  }
  c->status = status;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(c->msg, sizeof c->msg, fmt, ap);
  va_end(ap);
}

/* The degenerate form L = alpha(q) . v - H(q) (tyranowski2014 (2.5)):
 * (Dalpha' - Dalpha) qdot = grad H, and p = alpha(q) carried along as
 * pdot = Dalpha qdot, so that the stated accuracy covers p too. */
static int rhs_degen(vi_ref_rhs *c, const VI_REAL *y, VI_REAL *dy) {
  const VI_X(vi_system) *sys = c->sys;
  const VI_X(vi_degen_ops) *dg = sys->type->degen;
  const int n = sys->n;
  const char *name = sys->type->info->name;
  int rc = dg->dalpha(sys->state, y, c->Da);
  if (rc == 0) {
    rc = dg->grad_hamiltonian(sys->state, y, c->v);
  }
  if (rc != 0) {
    VI_X(vi_ref_fail)(c, vi_callback_status(rc),
                      "callback dalpha or grad_hamiltonian of system %s failed with "
                      "status %d",
                      name, rc);
    return c->status;
  }
  VI_REAL *A = c->Minv;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) {
      A[i * n + j] = c->Da[j * n + i] - c->Da[i * n + j];
    }
  }
  if (VI_X(vi_lu_factor)(n, A, c->piv) != VI_OK) {
    VI_X(vi_ref_fail)(c, VI_SINGULAR,
                      "Dalpha' - Dalpha of system %s is singular along the reference "
                      "trajectory (the Lagrangian is not regular there)",
                      name);
    return VI_SINGULAR;
  }
  VI_X(vi_lu_solve)(n, A, c->piv, c->v);
  for (int i = 0; i < n; i++) {
    dy[i] = c->v[i];
    VI_REAL s = 0;
    for (int j = 0; j < n; j++) {
      s += c->Da[i * n + j] * c->v[j];
    }
    dy[n + i] = s;
  }
  return VI_OK;
}

/* The Lie-group form integrates y = (g, xi) (demartin2018 §5-6):
 * gdot from the group's tangent map, xidot from the Euler-Poincare(-d'Alembert)
 * equations; its nodes' xi are turned into mu = D2 l(g, xi) by lie_to_mu. */
static int rhs_lie(vi_ref_rhs *c, const VI_REAL *y, VI_REAL *dy) {
  const VI_X(vi_system) *sys = c->sys;
  const int nq = sys->nq;
  int rc = VI_X(vi_system_lie_rhs)(sys, y, y + nq, dy, dy + nq, c->lam);
  if (rc != VI_OK) {
    VI_X(vi_ref_fail)(c, rc, "the Lie-group equations of system %s failed (%s)",
                      sys->type->info->name, vi_strerror(rc));
  }
  return rc;
}

/* Rows 0..K of P hold xi (Lie form): replace each by mu = D2 l(g, xi). */
int VI_X(vi_ref_lie_to_mu)(vi_ref_rhs *c, long K, const VI_REAL *Q, VI_REAL *P) {
  const VI_X(vi_system) *sys = c->sys;
  const int n = sys->n;
  if (sys->type->lie == NULL) {
    return VI_OK;
  }
  for (long k = 0; k <= K; k++) {
    memcpy(c->v, P + k * n, (size_t)n * sizeof *c->v);
    int rc = vi_callback_status(
        sys->type->lie->dxi(sys->state, Q + k * sys->nq, c->v, P + k * n));
    if (rc != VI_OK) {
      VI_X(vi_ref_fail)(c, rc, "callback dxi of system %s failed at node %ld",
                        sys->type->info->name, k);
      return rc;
    }
  }
  return VI_OK;
}

/* The scratch of the right-hand side carved from W (dV n, G m x n, lam m,
 * Minv n x n, v n, dT n, Da n x n: rhs_work_size reals) and the initial
 * state's second half. */
static size_t rhs_work_size(int n, int m) {
  return (size_t)n * (size_t)(m + 1) + (size_t)m + (size_t)n * (size_t)(n + 2) +
         (size_t)n * (size_t)n;
}

static void rhs_init(vi_ref_rhs *c, const VI_X(vi_system) *sys, VI_REAL *W, int *piv) {
  const int n = sys->n, m = sys->ml;
  memset(c, 0, sizeof *c);
  c->sys = sys;
  c->dV = W;
  c->G = c->dV + n;
  c->lam = c->G + (size_t)m * (size_t)n;
  c->Minv = c->lam + m;
  c->v = c->Minv + (size_t)n * (size_t)n;
  c->dT = c->v + n;
  c->Da = c->dT + n;
  c->piv = piv;
  c->y0p = sys->type->lie != NULL ? sys->v0 : sys->p0;
  c->status = VI_OK;
}

/* dy = f(y), the equations of the system's form: the degenerate and Lie
 * forms above; the mechanical form here, dy = (M^-1 p, -grad V(q) -
 * G(q)' lambda(q, p)) at y = (q, p) with lambda by wenger2017 (70)
 * (vi_system_lambda). With a configuration-dependent mass M = M(q),
 * pdot = -dH/dq - G' lambda gains dT/dq at v = M(q)^-1 p (H = 1/2
 * p'M(q)^-1 p + V; systems/NOTES-triple-pendulum.md). */
int VI_X(vi_ref_rhs_eval)(vi_ref_rhs *c, const VI_REAL *y, VI_REAL *dy) {
  const VI_X(vi_system) *sys = c->sys;
  if (sys->type->degen != NULL) {
    return rhs_degen(c, y, dy);
  }
  if (sys->type->lie != NULL) {
    return rhs_lie(c, y, dy);
  }
  const int n = sys->n, m = sys->m, k = sys->m_nh;
  const VI_REAL *q = y, *p = y + n;
  const char *name = sys->type->info->name;
  int rc = sys->type->mech->grad_potential(sys->state, q, c->dV);
  if (rc != 0) {
    VI_X(vi_ref_fail)(c, vi_callback_status(rc),
                      "callback grad_potential of system %s failed with status %d",
                      name, rc);
    return c->status;
  }
  if (m > 0) {
    rc = sys->type->holo->constraint_jac(sys->state, q, c->G);
    if (rc != 0) {
      VI_X(vi_ref_fail)(c, vi_callback_status(rc),
                        "callback constraint_jac of system %s failed with status %d",
                        name, rc);
      return c->status;
    }
    /* grad_potential and constraint_jac have just succeeded at q, so a
     * failure here is constraint_hess or a singular G M^-1 G'. */
    rc = VI_X(vi_system_lambda)(sys, q, p, c->lam);
    if (rc == VI_SINGULAR) {
      VI_X(vi_ref_fail)(c, rc,
                        "C M^-1 C' of system %s is singular along the reference "
                        "trajectory (dependent constraints, C = %s)",
                        name, k > 0 ? "[G; A]" : "G");
      return rc;
    }
    if (rc != VI_OK) {
      VI_X(vi_ref_fail)(c, rc,
                        "callback %s of system %s failed (%s) in the multipliers (70)%s",
                        k > 0 ? "constraint_hess, matrix, affine, dphi_dq or datmu"
                              : "constraint_hess",
                        name, vi_strerror(rc),
                        k > 0 ? " and demartin2018 (4), solved jointly" : "");
      return rc;
    }
  }
  if (k > 0) {
    /* Nonholonomic: mu of demartin2018 (4) in lam[m..] (with holonomic
     * constraints too, computed jointly with lambda above), and A(q) after
     * G's rows for the force -A' mu. */
    rc = m > 0 ? VI_OK : VI_X(vi_system_lambda)(sys, q, p, c->lam);
    if (rc == VI_OK) {
      rc = vi_callback_status(sys->type->nh->matrix(sys->state, q, c->G + (size_t)m * n));
    }
    if (rc != VI_OK) {
      VI_X(vi_ref_fail)(c, rc,
                        "the nonholonomic multiplier of system %s failed (%s): a "
                        "callback, or A M^-1 A' singular along the reference",
                        name, vi_strerror(rc));
      return rc;
    }
  }
  /* v = M^-1 p, once: it is qdot and, with M(q), the argument of dT/dq. */
  const int cm = !VI_X(vi_system_mass_constant)(sys);
  if (rc == VI_OK) {
    rc = VI_X(vi_system_minv_apply)(sys, q, p, c->v);
  }
  if (rc == VI_OK && cm) {
    rc = VI_X(vi_system_kinetic)(sys, q, c->v, c->dT, NULL, NULL);
  }
  if (rc != VI_OK) {
    VI_X(vi_ref_fail)(c, rc, "callback mass_q or kinetic of system %s failed (%s)",
                      name, vi_strerror(rc));
    return rc;
  }
  for (int i = 0; i < n; i++) {
    dy[i] = c->v[i];
    VI_REAL f = -c->dV[i];
    if (cm) {
      f += c->dT[i];
    }
    for (int r = 0; r < m; r++) {
      f -= c->G[r * n + i] * c->lam[r];
    }
    for (int r = 0; r < k; r++) {
      f -= c->G[(m + r) * n + i] * c->lam[m + r];
    }
    dy[n + i] = f;
  }
  return VI_OK;
}

/* ---- services on the nodes of a reference --------------------------------- */

/* The multipliers (70) at the nodes 0..K of a reference (Q, P). */
int VI_X(vi_ref_node_lambdas)(vi_ref_rhs *c, long K, const VI_REAL *Q, const VI_REAL *P,
                              VI_REAL *L) {
  const int n = c->sys->n, nq = c->sys->nq, m = c->sys->ml;
  if (m == 0) {
    return VI_OK;
  }
  for (long k = 0; k <= K; k++) {
    int rc = VI_X(vi_system_lambda)(c->sys, Q + k * nq, P + k * n, L + k * m);
    if (rc != VI_OK) {
      VI_X(vi_ref_fail)(c, rc,
                        "multiplier (70) of system %s failed at node %ld (%s)",
                        c->sys->type->info->name, k, vi_strerror(rc));
      return rc;
    }
  }
  return VI_OK;
}

/* Max abs differences per block (q, p, lambda) of two references over the
 * nodes k = 0, stride, 2 stride, ... of (Q, P, L) against the consecutive
 * nodes 0, 1, 2, ... of (Q2, P2, L2), nk of them. */
void VI_X(vi_ref_diff)(int nq, int n, int m, long nk, long stride, const VI_REAL *Q,
                       const VI_REAL *P, const VI_REAL *L, const VI_REAL *Q2,
                       const VI_REAL *P2, const VI_REAL *L2, VI_REAL d[3]) {
  d[0] = d[1] = d[2] = 0;
  for (long j = 0; j < nk; j++) {
    long k = j * stride;
    for (int i = 0; i < nq; i++) {
      VI_REAL e = vi_fabs(Q[k * nq + i] - Q2[j * nq + i]);
      d[0] = e > d[0] || e != e ? e : d[0];
    }
    for (int i = 0; i < n; i++) {
      VI_REAL e = vi_fabs(P[k * n + i] - P2[j * n + i]);
      d[1] = e > d[1] || e != e ? e : d[1];
    }
    for (int i = 0; i < m; i++) {
      VI_REAL e = vi_fabs(L[k * m + i] - L2[j * m + i]);
      d[2] = e > d[2] || e != e ? e : d[2];
    }
  }
}

/* Largest magnitudes of q, p and lambda over the nodes 0..K. */
void VI_X(vi_ref_scale)(int nq, int n, int m, long K, const VI_REAL *Q, const VI_REAL *P,
                        const VI_REAL *L, VI_REAL s[3]) {
  s[0] = s[1] = s[2] = 0;
  for (long k = 0; k <= K; k++) {
    s[0] = rmax(s[0], VI_X(vi_norm_inf)(nq, Q + k * nq));
    s[1] = rmax(s[1], VI_X(vi_norm_inf)(n, P + k * n));
    if (m > 0) {
      s[2] = rmax(s[2], VI_X(vi_norm_inf)(m, L + k * m));
    }
  }
}

/* ---- exact solution ------------------------------------------------------ */

/* The exact solution at t_k = k h (t computed as (VI_REAL)k h, so that
 * node k of a method and of the reference are the same number). Returns
 * VI_EUNSUPPORTED without a message when the exact callback declines the
 * parameters at t = 0 (e.g. a rotating pendulum): the caller integrates
 * instead. The accuracy is an estimate, not a measurement: 10 eps of the
 * largest value for the evaluation itself, growing linearly in time with
 * the rounding of the phase (the argument w t of an elliptic function
 * carries a relative error eps, i.e. eps w t absolute), where the rate w is
 * taken as max |M^-1 p| / max |q| over the nodes. */
static int exact_nodes(const VI_X(vi_system) *sys, VI_REAL h, long K,
                       VI_REAL *Q, VI_REAL *P, VI_REAL *L,
                       VI_X(vi_reference_info) *info, char *err,
                       size_t errlen) {
  const int n = sys->n, nq = sys->nq, m = sys->ml;
  VI_REAL dummy[1];
  for (long k = 0; k <= K; k++) {
    VI_REAL t = (VI_REAL)k * h;
    int rc = sys->type->obs->exact(sys->state, t, Q + k * nq, P + k * n,
                              m > 0 ? L + k * m : dummy);
    if (rc != 0) {
      if (k == 0 && rc == VI_EUNSUPPORTED) {
        return VI_EUNSUPPORTED;
      }
      vi_set_err(err, errlen,
              "callback exact of system %s failed with status %d at "
              "t = %.17g",
              sys->type->info->name, rc, (double)t);
      return vi_callback_status(rc);
    }
  }
  VI_REAL s[3], vmax = 0;
  VI_X(vi_ref_scale)(nq, n, m, K, Q, P, L, s);
  /* The speed of the motion, for the round-off growth: M^-1 p, or the
   * Lie form's xi. */
  for (long k = 0; k <= K && sys->type->mech != NULL && n <= 64; k++) {
    VI_REAL v[64];
    if (VI_X(vi_system_minv_apply)(sys, sys->q0, P + k * n, v) == VI_OK) {
      for (int i = 0; i < n; i++) {
        vmax = rmax(vmax, vi_fabs(v[i]));
      }
    }
  }
  for (long k = 0; k <= K && sys->type->lie != NULL; k++) {
    VI_REAL xi[64];
    if (n <= 64 && VI_X(vi_system_lie_xi)(sys, Q + k * nq, P + k * n, xi) == VI_OK) {
      vmax = rmax(vmax, VI_X(vi_norm_inf)(n, xi));
    }
  }
  VI_REAL rate = s[0] > 0 ? vmax / s[0] : 0;
  VI_REAL smax = rmax(s[0], rmax(s[1], s[2]));
  info->accuracy =
      (double)(10 * VI_EPS * smax * (1 + rate * (VI_REAL)K * h));
  snprintf(info->method, sizeof info->method,
           "exact (the exact solution of %s, %s)", sys->type->info->name,
           VI_PREC_NAME);
  return VI_OK;
}

/* ---- the integration ---------------------------------------------------- */

/* The nodes from this precision's integrator (vi_ref_integrator) on the
 * equations of the system's form. */
static int integrated_nodes(const VI_X(vi_system) *sys, VI_REAL h, long K, VI_REAL *Q,
                            VI_REAL *P, VI_REAL *L, VI_X(vi_reference_info) *info,
                            char *err, size_t errlen) {
  const int n = sys->n, nq = sys->nq, m = sys->ml;
  const char *name = sys->type->info->name;
  const vi_ref_ops *integrator = &VI_X(vi_ref_integrator);
  /* The index-1 form needs grad V, G and the contracted Hessian of g;
   * the degenerate form Dalpha and grad H (vi_system_alloc checked). */
  const VI_X(vi_system_type) *t = sys->type;
  if (t->mech != NULL && sys->m > 0 && t->holo->constraint_hess == NULL) {
    vi_set_err(err, errlen,
               "no reference for system %s: it has no exact solution here "
               "and lacks constraint_hess for the index-1 form (70)",
               name);
    return VI_EUNSUPPORTED;
  }
  const size_t nwork = integrator->work(nq, n, m, K);
  VI_REAL *W = malloc((nwork + rhs_work_size(n, m)) * sizeof *W);
  int *piv = malloc((size_t)n * sizeof *piv);
  if (W == NULL || piv == NULL) {
    free(W);
    free(piv);
    vi_set_err(err, errlen, "out of memory for the reference of %s (%ld "
               "nodes)", name, K);
    return VI_ENOMEM;
  }
  vi_ref_rhs c;
  rhs_init(&c, sys, W + nwork, piv);
  c.form = t->degen != NULL
               ? "degenerate form (Dalpha' - Dalpha) qdot = grad H, pdot = Dalpha qdot"
           : t->lie != NULL
               ? "Lie-group form, gdot = g xi and the Euler-Poincare equations for xi"
           : sys->m_nh > 0 && sys->m > 0
               ? "index-1 form (70) with the nonholonomic multiplier of demartin2018 (4), "
                 "lambda and mu from one stacked system"
           : sys->m_nh > 0 ? "index-1 form with the nonholonomic multiplier, demartin2018 (4)"
                           : "index-1 form (70)";
  c.status = VI_OK;
  c.msg[0] = '\0';
  VI_REAL dummy[1];
  int rc = integrator->integrate(&c, h, K, Q, P, m > 0 ? L : dummy, W, info, err, errlen);
  free(W);
  free(piv);
  return rc;
}

/* ---- the entry point --------------------------------------------------- */

int VI_X(vi_reference)(const VI_X(vi_system) *sys, VI_REAL h, long K,
                       VI_REAL *Q, VI_REAL *P, VI_REAL *L,
                       const char *cache_dir, VI_X(vi_reference_info) *info,
                       char *err, size_t errlen) {
  VI_X(vi_reference_info) local;
  if (info == NULL) {
    info = &local;
  }
  memset(info, 0, sizeof *info);
  if (sys == NULL || sys->type == NULL) {
    vi_set_err(err, errlen, "vi_reference: no system");
    return VI_EINVAL;
  }
  const int n = sys->n, nq = sys->nq, m = sys->ml;
  const char *name = sys->type->info->name;
  if (Q == NULL || P == NULL || (m > 0 && L == NULL)) {
    vi_set_err(err, errlen, "vi_reference: output array %s is NULL",
            Q == NULL ? "Q" : P == NULL ? "P" : "L");
    return VI_EINVAL;
  }
  if (!(h > 0) || !vi_isfinite(h)) {
    vi_set_err(err, errlen, "vi_reference: step h = %g must be positive and "
            "finite", (double)h);
    return VI_EINVAL;
  }
  /* (K + 1)(nq + n + m) reals twice (result and check) must be addressable. */
  size_t row = (size_t)(nq + n + m) + 1;
  if (K < 0 || (unsigned long)K >= SIZE_MAX / 4 / row / sizeof(VI_REAL)) {
    vi_set_err(err, errlen, "vi_reference: node count K = %ld out of range",
            K);
    return VI_EINVAL;
  }
  int exact = VI_X(vi_type_has_exact)(sys->type);
  const size_t nQ = (size_t)(K + 1) * (size_t)nq, nP = (size_t)(K + 1) * (size_t)n,
               nl = (size_t)(K + 1) * (size_t)m;

  /* The cache sees the reals as bytes (refcache.h). */
  vi_refcache *cache = NULL;
  const vi_refcache_body body = {
      info->method, sizeof info->method, &info->accuracy,
      {Q, P, L}, {nQ * sizeof *Q, nP * sizeof *P, nl * sizeof *L}};
  if (cache_dir != NULL) {
    const vi_refcache_key key = {
        .prec = VI_PREC_NAME, .real_size = sizeof(VI_REAL), .exact = exact,
        .system = name, .n = n, .nq = nq, .ml = m,
        .nvalues = vi_system_info_nvalues(sys->type->info), .K = K,
        .par = sys->par, .q0 = sys->q0, .p0 = sys->p0, .h = &h};
    int rc = vi_refcache_open(cache_dir, &key, &cache, err, errlen);
    if (rc != VI_OK) {
      return rc;
    }
    if (vi_refcache_read(cache, &body)) {
      info->cached = 1;
      vi_refcache_free(cache);
      return VI_OK;
    }
    /* A miss: compute under the entry's lock, so that threads or runs
     * asking for the same reference at once compute it once (the others
     * find it written when they get the lock). */
    if (vi_refcache_lock(cache) && vi_refcache_read(cache, &body)) {
      info->cached = 1;
      vi_refcache_free(cache);
      return VI_OK;
    }
  }

  int rc = VI_EUNSUPPORTED;
  if (exact) {
    rc = exact_nodes(sys, h, K, Q, P, L, info, err, errlen);
  }
  if (rc == VI_EUNSUPPORTED) {
    rc = integrated_nodes(sys, h, K, Q, P, L, info, err, errlen);
  }
  if (rc == VI_OK) {
    /* A reference that overflowed or lost itself in NaN is no reference:
     * an error, never a result (nor a cache file). */
    int finite = vi_isfinite((VI_REAL)info->accuracy);
    for (size_t i = 0; finite && i < nQ; i++) {
      finite = vi_isfinite(Q[i]);
    }
    for (size_t i = 0; finite && i < nP; i++) {
      finite = vi_isfinite(P[i]);
    }
    for (size_t i = 0; finite && i < nl; i++) {
      finite = vi_isfinite(L[i]);
    }
    if (!finite) {
      vi_set_err(err, errlen,
                 "the reference of %s is not finite (%s): the motion overflows, or leaves "
                 "the domain of the system's callbacks, before t = %.6g",
                 name, info->method, (double)((VI_REAL)K * h));
      rc = VI_ESOLVER;
    }
  }
  if (rc == VI_OK && cache != NULL) {
    /* The reference itself is fine and stays in Q, P, L: a cache that
     * cannot be written costs a recomputation next time, nothing more. */
    char msg[256];
    if (vi_refcache_write(cache, &body, msg, sizeof msg) != VI_OK) {
      snprintf(info->note, sizeof info->note, "reference not cached: %s", msg);
    }
  }
  vi_refcache_free(cache);
  return rc;
}

int VI_X(vi_system_time_scale)(const VI_X(vi_system) *sys, double *tau) {
  const int n = sys->n, nq = sys->nq, m = sys->ml, d = nq + n;
  *tau = INFINITY;
  /* The work of the right-hand side (as vi_reference lays it out), the
   * state y0 = (q0, p0 or xi0), f(y0) and f(y0 + eps f(y0)). */
  size_t nw = rhs_work_size(n, m) + 4 * (size_t)d;
  VI_REAL *W = calloc(nw, sizeof *W);
  int *piv = malloc((size_t)n * sizeof *piv);
  if (W == NULL || piv == NULL) {
    free(W);
    free(piv);
    return VI_ENOMEM;
  }
  vi_ref_rhs c;
  rhs_init(&c, sys, W, piv);
  VI_REAL *y = c.Da + (size_t)n * (size_t)n, *f0 = y + d, *f1 = f0 + d, *y1 = f1 + d;
  memcpy(y, sys->q0, (size_t)nq * sizeof *y);
  memcpy(y + nq, c.y0p, (size_t)n * sizeof *y);
  int rc = VI_X(vi_ref_rhs_eval)(&c, y, f0);
  VI_REAL vq = 0, aq = 0, s = VI_X(vi_norm_inf)(nq, sys->q0);
  if (rc == VI_OK) {
    VI_REAL fy = VI_X(vi_norm_inf)(d, f0), ys = VI_X(vi_norm_inf)(d, y);
    VI_REAL eps = vi_sqrt(VI_EPS) * (1 + ys) / (fy > 0 ? fy : 1);
    for (int i = 0; i < d; i++) {
      y1[i] = y[i] + eps * f0[i];
    }
    rc = VI_X(vi_ref_rhs_eval)(&c, y1, f1);
    /* qdot and qddot ~ (f(y + eps f) - f(y)) / eps along the flow. */
    for (int i = 0; rc == VI_OK && i < nq; i++) {
      VI_REAL a = vi_fabs((f1[i] - f0[i]) / eps);
      vq = vi_fabs(f0[i]) > vq ? vi_fabs(f0[i]) : vq;
      aq = a > aq ? a : aq;
    }
  }
  free(W);
  free(piv);
  if (rc != VI_OK) {
    return rc;
  }
  /* The time in which q moves by its own size: by velocity, s / |qdot|, or
   * by acceleration from rest, sqrt(s / |qddot|); the shorter one. */
  if (!(s > 0)) {
    s = 1;
  }
  double t1 = vq > 0 ? (double)(s / vq) : INFINITY;
  double t2 = aq > 0 ? (double)vi_sqrt(s / aq) : INFINITY;
  *tau = t1 < t2 ? t1 : t2;
  return VI_OK;
}
