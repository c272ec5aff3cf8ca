/* reference_tmpl.c: reference solutions at the nodes t_k = k h of an order study,
 * in the working precision (prec.h), never from a method under test
 * (design.md, "Studies and results"). Where the system type has an exact
 * solution in this precision (obs->exact) it is evaluated at the nodes.
 * Otherwise the index-1 form of the equations of motion (wenger2017 (1)-(3)
 * with the multiplier (70)),
 *   qdot = M^-1 p,  pdot = -grad V(q) - G(q)' lambda(q, p),
 * is integrated independently of the Galerkin code: in double by GSL's
 * rk8pd (the explicit Prince-Dormand (8, 9) pair, Prince & Dormand 1981;
 * gsl_odeiv2 driver with the y_new control) at a tight tolerance, in quad
 * by the s = 8 Gauss-Legendre Runge-Kutta method (order 2s = 16; Hairer,
 * Norsett & Wanner I §II.7, Hairer & Wanner II §IV.5) with a constant
 * substep and fixed-point iteration on the stages. The multipliers at the
 * nodes are (70) at the reference (q, p); no node is projected onto the
 * manifold, so the constraint residuals of a reference show its true
 * error. Each integration is checked by a second, coarser one and the
 * difference is the stated accuracy. Results can be cached on disk in a
 * binary file keyed by an FNV-1a 64 hash (Fowler, Noll & Vo) of everything
 * they depend on, written atomically (temporary file + rename). Compiled
 * once per precision. */
#include <errno.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "prec.h"
#include "numerics_tmpl.h"
#include "api_tmpl.h"

#ifndef VI_PREC_Q
#include <gsl/gsl_errno.h>
#include <gsl/gsl_odeiv2.h>
#endif

static VI_REAL rmax(VI_REAL a, VI_REAL b) {
  return a > b ? a : b;
}

/* ---- the index-1 right-hand side --------------------------------------- */

/* Scratch and failure record of the right-hand side. The first failure is
 * kept (status and a message naming the callback) so that the driver can
 * report it after the integrator gives up. */
typedef struct rhs_ctx {
  const VI_X(vi_system) *sys;
  VI_REAL *dV;  /* n */
  VI_REAL *G;   /* m x n */
  VI_REAL *lam; /* m */
  VI_REAL *Minv, *v, *dT; /* n x n, n, n: M(q)^-1, M^-1 p, dT/dq (M(q)) */
  VI_REAL *Da;  /* degenerate form: Dalpha (n x n); Minv holds Dalpha' - Dalpha */
  int *piv;     /* n pivots (degenerate form) */
  const char *form; /* the equations integrated, for the method text */
  const VI_REAL *y0p; /* second half of the initial state: p0, or xi0 (Lie form) */
  int status;
  char msg[200];
} rhs_ctx;

static void rhs_fail(rhs_ctx *c, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void rhs_fail(rhs_ctx *c, int status, const char *fmt, ...) {
  if (c->status != VI_OK) {
    return;
  }
  c->status = status;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(c->msg, sizeof c->msg, fmt, ap);
  va_end(ap);
}

/* dy = (M^-1 p, -grad V(q) - G(q)' lambda(q, p)) at y = (q, p), lambda by
 * wenger2017 (70) (vi_system_lambda). With a configuration-dependent mass
 * M = M(q) and pdot = -dH/dq - G' lambda gains dT/dq at v = M(q)^-1 p
 * (H = 1/2 p'M(q)^-1 p + V; systems/NOTES-triple-pendulum.md). */
/* The degenerate form L = alpha(q) . v - H(q) (tyranowski2014 (2.5)):
 * (Dalpha' - Dalpha) qdot = grad H, and p = alpha(q) carried along as
 * pdot = Dalpha qdot, so that the stated accuracy covers p too. */
static int rhs_degen(rhs_ctx *c, const VI_REAL *y, VI_REAL *dy) {
  const VI_X(vi_system) *sys = c->sys;
  const VI_X(vi_degen_ops) *dg = sys->type->degen;
  const int n = sys->n;
  const char *name = sys->type->info->name;
  int rc = dg->dalpha(sys->state, y, c->Da);
  if (rc == 0) {
    rc = dg->grad_hamiltonian(sys->state, y, c->v);
  }
  if (rc != 0) {
    rhs_fail(c, vi_callback_status(rc),
             "callback dalpha or grad_hamiltonian of system %s failed with status %d", name, rc);
    return c->status;
  }
  VI_REAL *A = c->Minv;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) {
      A[i * n + j] = c->Da[j * n + i] - c->Da[i * n + j];
    }
  }
  if (VI_X(vi_lu_factor)(n, A, c->piv) != VI_OK) {
    rhs_fail(c, VI_SINGULAR,
             "Dalpha' - Dalpha of system %s is singular along the reference trajectory "
             "(the Lagrangian is not regular there)",
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
static int rhs_lie(rhs_ctx *c, const VI_REAL *y, VI_REAL *dy) {
  const VI_X(vi_system) *sys = c->sys;
  const int nq = sys->nq;
  int rc = VI_X(vi_system_lie_rhs)(sys, y, y + nq, dy, dy + nq, c->lam);
  if (rc != VI_OK) {
    rhs_fail(c, rc, "the Lie-group equations of system %s failed (%s)",
             sys->type->info->name, vi_strerror(rc));
  }
  return rc;
}

/* Rows 0..K of P hold xi (Lie form): replace each by mu = D2 l(g, xi). */
static int lie_to_mu(rhs_ctx *c, long K, const VI_REAL *Q, VI_REAL *P) {
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
      rhs_fail(c, rc, "callback dxi of system %s failed at node %ld", sys->type->info->name,
               k);
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

static void rhs_ctx_init(rhs_ctx *c, const VI_X(vi_system) *sys, VI_REAL *W, int *piv) {
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

static int rhs_eval(rhs_ctx *c, const VI_REAL *y, VI_REAL *dy) {
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
    rhs_fail(c, vi_callback_status(rc),
             "callback grad_potential of system %s failed with status %d",
             name, rc);
    return c->status;
  }
  if (m > 0) {
    rc = sys->type->holo->constraint_jac(sys->state, q, c->G);
    if (rc != 0) {
      rhs_fail(c, vi_callback_status(rc),
               "callback constraint_jac of system %s failed with status %d",
               name, rc);
      return c->status;
    }
    /* grad_potential and constraint_jac have just succeeded at q, so a
     * failure here is constraint_hess or a singular G M^-1 G'. */
    rc = VI_X(vi_system_lambda)(sys, q, p, c->lam);
    if (rc == VI_SINGULAR) {
      rhs_fail(c, rc,
               "C M^-1 C' of system %s is singular along the reference trajectory "
               "(dependent constraints, C = %s)",
               name, k > 0 ? "[G; A]" : "G");
      return rc;
    }
    if (rc != VI_OK) {
      rhs_fail(c, rc,
               "callback %s of system %s failed (%s) in the multipliers (70)%s", 
               k > 0 ? "constraint_hess, matrix, affine, dphi_dq or datmu" : "constraint_hess",
               name, vi_strerror(rc), k > 0 ? " and demartin2018 (4), solved jointly" : "");
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
      rhs_fail(c, rc,
               "the nonholonomic multiplier of system %s failed (%s): a callback, or A M^-1 A' "
               "singular along the reference",
               name, vi_strerror(rc));
      return rc;
    }
  }
  /* v = M^-1 p, once: it is qdot and, with M(q), the argument of dT/dq. */
  const VI_REAL *Minv = sys->Minv;
  if (sys->config_mass) {
    rc = VI_X(vi_system_mass_inv)(sys, q, c->Minv);
    Minv = c->Minv;
  }
  for (int i = 0; i < n && rc == VI_OK; i++) {
    VI_REAL v = 0;
    for (int j = 0; j < n; j++) {
      v += Minv[i * n + j] * p[j];
    }
    c->v[i] = v;
  }
  if (rc == VI_OK && sys->config_mass) {
    rc = VI_X(vi_system_kinetic)(sys, q, c->v, c->dT, NULL, NULL);
  }
  if (rc != VI_OK) {
    rhs_fail(c, rc, "callback mass_q or kinetic of system %s failed (%s)",
             name, vi_strerror(rc));
    return rc;
  }
  for (int i = 0; i < n; i++) {
    dy[i] = c->v[i];
    VI_REAL f = -c->dV[i];
    if (sys->config_mass) {
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

/* The multipliers (70) at the nodes 0..K of a reference (Q, P). */
static int node_lambdas(rhs_ctx *c, long K, const VI_REAL *Q,
                        const VI_REAL *P, VI_REAL *L) {
  const int n = c->sys->n, nq = c->sys->nq, m = c->sys->ml;
  if (m == 0) {
    return VI_OK;
  }
  for (long k = 0; k <= K; k++) {
    int rc = VI_X(vi_system_lambda)(c->sys, Q + k * nq, P + k * n, L + k * m);
    if (rc != VI_OK) {
      rhs_fail(c, rc,
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
static void ref_diff(int nq, int n, int m, long nk, long stride, const VI_REAL *Q,
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
static void ref_scale(int nq, int n, int m, long K, const VI_REAL *Q, const VI_REAL *P,
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

/* ---- double: GSL rk8pd ------------------------------------------------- */

#ifndef VI_PREC_Q

/* Tolerances of the reference run and of the run that checks it. rk8pd
 * reaches rtol = atol = 1e-14 on both systems without a step-size
 * underflow; on the planar pendulum over [0, 10] it then agrees with the
 * exact solution to 7e-12 in lambda and 1e-12 in q and p (defaults), to
 * 4e-10 and 1e-10 next to the separatrix (phi0 = 3, k = 0.9975), for any
 * node spacing h from 0.1 to 0.001. */
#define REF_TOL 1e-14
#define REF_TOL_CHECK 1e-12
/* With per-step error control the global error of an order-p method grows
 * like tol^(p/(p+1)) (steps ~ tol^(-1/(p+1))), so for p = 8 the tight run
 * should be 100^(8/9) = 60 times more accurate than the check run. The
 * estimate divides their difference by 20 only, for a margin: measured on
 * the planar pendulum against its exact solution (five parameter sets,
 * h = 0.1 to 0.001), the estimate is 3.5 to 8 times the actual error. */
#define REF_TOL_GAIN 20.0

static int gsl_rhs(double t, const double y[], double dydt[], void *params) {
  rhs_ctx *c = params;
  int rc = rhs_eval(c, y, dydt);
  if (rc == VI_OK) {
    return GSL_SUCCESS;
  }
  /* A recoverable failure (e.g. a trial step that left the domain of a
   * callback) lets the driver retry with half the step; a fatal one stops
   * it. The first failure stays recorded for the message. */
  return rc > 0 ? GSL_FAILURE : GSL_EBADFUNC;
}

/* Integrate from (q0, p0) to the nodes 1..K with rk8pd at tolerance tol.
 * The trajectory runs with the steps the error control picks, not stopped
 * at the nodes (gsl_odeiv2_evolve_apply towards t_K); the values at a node
 * inside a step come from one side step of rk8pd from the start of that
 * step, which does not feed back into the trajectory. Stopping at every
 * node (gsl_odeiv2_driver_apply node to node) would cap the steps at h:
 * for small h both runs then take the same many short steps, their
 * difference no longer measures the error, and the round-off of the extra
 * steps dominates (measured on the pendulum near the separatrix with
 * h = 1e-3: error 1e-10, estimate 6e-12). y holds 4(nq + n) reals. */
static int run_rk8pd(rhs_ctx *c, double h, long K, double tol, double *Q,
                     double *P, double *y, char *err, size_t errlen) {
  const VI_X(vi_system) *sys = c->sys;
  const char *name = sys->type->info->name;
  const int n = sys->n, nq = sys->nq;
  const size_t dim = (size_t)(nq + n);
  double *y0 = y + dim, *ys = y0 + dim, *yerr = ys + dim;
  gsl_odeiv2_system ode = {gsl_rhs, NULL, dim, c};
  gsl_odeiv2_step *st = gsl_odeiv2_step_alloc(gsl_odeiv2_step_rk8pd, dim);
  gsl_odeiv2_step *side = gsl_odeiv2_step_alloc(gsl_odeiv2_step_rk8pd, dim);
  gsl_odeiv2_control *con = gsl_odeiv2_control_y_new(tol, tol);
  gsl_odeiv2_evolve *ev = gsl_odeiv2_evolve_alloc(dim);
  int rc = VI_OK;
  if (st == NULL || side == NULL || con == NULL || ev == NULL) {
    vi_set_err(err, errlen, "out of memory allocating rk8pd");
    rc = VI_ENOMEM;
    goto done;
  }
  memcpy(Q, sys->q0, (size_t)nq * sizeof *Q);
  memcpy(P, c->y0p, (size_t)n * sizeof *P);
  memcpy(y, sys->q0, (size_t)nq * sizeof *y);
  memcpy(y + nq, c->y0p, (size_t)n * sizeof *y);
  const double T = (double)K * h;
  double t = 0;
  /* A modest first trial step: the control grows it by up to 5x per step,
   * and a whole coarse h could leave the region where the callbacks are
   * defined. */
  double hstep = h / 64;
  /* Far more steps than any smooth trajectory needs: a guard against an
   * integration that creeps. */
  const long max_steps = 10000000L + 100 * K;
  long steps = 0;
  long k = 1; /* the next node to fill */
  while (k <= K) {
    double t0 = t;
    memcpy(y0, y, dim * sizeof *y);
    c->status = VI_OK;
    int grc = gsl_odeiv2_evolve_apply(ev, con, st, &ode, &t, T, &hstep, y);
    if (grc == GSL_SUCCESS && ++steps > max_steps) {
      grc = GSL_EMAXITER;
    }
    /* Every node up to the new t, from a side step off (t0, y0); the last
     * node is the end of the trajectory itself (evolve lands on T). */
    while (grc == GSL_SUCCESS && k <= K && (double)k * h <= t) {
      double tk = (double)k * h;
      const double *yk = y;
      if (tk < t) {
        memcpy(ys, y0, dim * sizeof *y);
        grc = gsl_odeiv2_step_apply(side, t0, tk - t0, ys, yerr, NULL, NULL,
                                    &ode);
        yk = ys;
      }
      if (grc == GSL_SUCCESS) {
        memcpy(Q + k * nq, yk, (size_t)nq * sizeof *Q);
        memcpy(P + k * n, yk + nq, (size_t)n * sizeof *P);
        k++;
      }
    }
    if (grc != GSL_SUCCESS) {
      if (c->status != VI_OK) {
        rc = c->status;
        vi_set_err(err, errlen, "reference (rk8pd, tol %.0e) at t = %.17g: %s",
                tol, t, c->msg);
      } else {
        rc = VI_ESOLVER;
        vi_set_err(err, errlen,
                "reference integration (rk8pd, tol %.0e) of system %s "
                "failed at t = %.17g on the way to node %ld: %s",
                tol, name, t, k, gsl_strerror(grc));
      }
      break;
    }
  }
  if (rc == VI_OK && (rc = lie_to_mu(c, K, Q, P)) != VI_OK) {
    vi_set_err(err, errlen, "%s", c->msg);
  }
done:
  if (ev != NULL) {
    gsl_odeiv2_evolve_free(ev);
  }
  if (con != NULL) {
    gsl_odeiv2_control_free(con);
  }
  if (side != NULL) {
    gsl_odeiv2_step_free(side);
  }
  if (st != NULL) {
    gsl_odeiv2_step_free(st);
  }
  return rc;
}

/* The double reference: rk8pd at REF_TOL, checked by a run at
 * REF_TOL_CHECK. W holds (K+1)(nq+n+m) + 4(nq+n) reals (m: all multipliers). */
static int integrate(rhs_ctx *c, VI_REAL h, long K, VI_REAL *Q, VI_REAL *P,
                     VI_REAL *L, VI_REAL *W, VI_X(vi_reference_info) *info,
                     char *err, size_t errlen) {
  const int n = c->sys->n, nq = c->sys->nq, m = c->sys->ml;
  VI_REAL *Q2 = W, *P2 = Q2 + (K + 1) * nq, *L2 = P2 + (K + 1) * n;
  VI_REAL *y = L2 + (K + 1) * m;
  int rc = run_rk8pd(c, h, K, REF_TOL, Q, P, y, err, errlen);
  if (rc == VI_OK) {
    rc = run_rk8pd(c, h, K, REF_TOL_CHECK, Q2, P2, y, err, errlen);
  }
  if (rc == VI_OK) {
    c->status = VI_OK;
    rc = node_lambdas(c, K, Q, P, L);
    if (rc == VI_OK) {
      rc = node_lambdas(c, K, Q2, P2, L2);
    }
    if (rc != VI_OK) {
      vi_set_err(err, errlen, "%s", c->msg);
    }
  }
  if (rc != VI_OK) {
    return rc;
  }
  VI_REAL d[3], s[3];
  ref_diff(nq, n, m, K + 1, 1, Q, P, L, Q2, P2, L2, d);
  ref_scale(nq, n, m, K, Q, P, L, s);
  double acc = 0;
  for (int b = 0; b < 3; b++) {
    /* Floor: a few ulp of each block, the round-off of the stored values. */
    double e = rmax(d[b] / REF_TOL_GAIN, 4 * VI_EPS * s[b]);
    acc = e > acc || e != e ? e : acc;
  }
  info->accuracy = acc;
  snprintf(info->method, sizeof info->method,
           "rk8pd (GSL) on the %s, rtol = atol = %.0e; "
           "error from a %.0e run / %.0f",
           c->form, REF_TOL, REF_TOL_CHECK, REF_TOL_GAIN);
  return VI_OK;
}

/* Reals of workspace integrate needs besides Q, P, L. */
static size_t integrate_work(int nq, int n, int m, long K) {
  return (size_t)(K + 1) * (size_t)(nq + n + m) + 4 * (size_t)(nq + n);
}

#else /* VI_PREC_Q */

/* ---- quad: s = 8 Gauss-Legendre IRK ------------------------------------ */

enum { IRK_S = 8 };
/* Fixed-point sweeps per substep before the substep is declared too large
 * (the iteration contracts like hs |A| |df/dy|). */
enum { IRK_MAXIT = 100 };
/* Largest number of substeps per node, and of substeps in one run. */
#define IRK_MAX_SUB 4096L
#define IRK_MAX_TOTAL 400000000L
/* Target of the probe: the difference of the two runs below 64 eps of the
 * largest value of each of q, p, lambda (1.2e-32 relative). The full pair
 * is accepted up to IRK_ACCEPT: whatever dominates the difference there,
 * truncation (then the returned, finer run is 2^16 times better still) or
 * round-off amplified along a chaotic trajectory (which a smaller substep
 * cannot remove), the difference bounds the error of the returned run and
 * is reported as its accuracy; a finer pair would only tighten the bound. */
#define IRK_TARGET (64 * VI_EPS)
#define IRK_ACCEPT (16 * IRK_TARGET)

typedef struct irk {
  VI_REAL A[IRK_S * IRK_S], b[IRK_S], c[IRK_S];
  /* E_ij - b_j with E_ij = int_0^(1 + c_i) l_j: the collocation polynomial
   * of one step, extrapolated to the stages of the next, gives their
   * initial guess (Hairer & Wanner II §IV.8, "starting values"). */
  VI_REAL E[IRK_S * IRK_S];
  int have_prev;         /* F holds the converged stages of a previous step */
  int d, nq;             /* nq + n, and nq: the q block comes first */
  VI_REAL *Z, *F;        /* stage increments Y_i - y0 and f(Y_i), s x d */
  VI_REAL *y, *comp;     /* state and its Kahan compensation, d each */
  VI_REAL *ys, *f0;      /* a stage value, f(y0) */
  VI_REAL *V;            /* M^-1 p at the stages, s x n */
  VI_REAL sq, sp;        /* magnitudes of q and p seen so far */
} irk;

/* One Gauss step of size hs from w->y, in place:
 *   Z_i = hs sum_j a_ij f(y + Z_j),  y <- y + hs sum_i b_i f(y + Z_i),
 * the stages by fixed-point iteration from Z_i = c_i hs f(y) until the
 * update is below 2 eps of the magnitudes of q and p, where the remaining
 * iteration error is smaller still (the sweep contracts by at least 2). The
 * state update is Kahan-compensated: thousands of substeps per node would
 * otherwise add their rounding errors. Returns VI_OK, a callback status,
 * or VI_NEWTON_NOCONV when the sweeps do not contract. */
static int irk_step(irk *w, rhs_ctx *c, VI_REAL hs) {
  const int d = w->d, nq = w->nq, n = d - nq;
  int rc = VI_OK;
  if (w->have_prev) {
    for (int i = 0; i < IRK_S; i++) {
      for (int j = 0; j < d; j++) {
        VI_REAL z = 0;
        for (int l = 0; l < IRK_S; l++) {
          z += w->E[i * IRK_S + l] * w->F[l * d + j];
        }
        w->Z[i * d + j] = hs * z;
      }
    }
  } else {
    rc = rhs_eval(c, w->y, w->f0);
    if (rc != VI_OK) {
      return rc;
    }
    for (int i = 0; i < IRK_S; i++) {
      for (int j = 0; j < d; j++) {
        w->Z[i * d + j] = w->c[i] * hs * w->f0[j];
      }
    }
  }
  VI_REAL tq = 2 * VI_EPS * w->sq, tp = 2 * VI_EPS * w->sp;
  VI_REAL prev = 0;
  int it = 0, ok = 0;
  for (; it < IRK_MAXIT; it++) {
    for (int i = 0; i < IRK_S; i++) {
      for (int j = 0; j < d; j++) {
        w->ys[j] = w->y[j] + w->Z[i * d + j];
      }
      rc = rhs_eval(c, w->ys, w->F + i * d);
      if (rc != VI_OK) {
        return rc;
      }
    }
    /* p stages from the new F; then the q stages from the new p stages,
     * since their derivative M^-1 p is linear and known without another
     * evaluation (a Gauss-Seidel sweep over the two blocks: the q error no
     * longer lags one sweep behind the p error, which about halves the
     * sweeps). The degenerate form has no such split: both blocks come
     * from F (a plain fixed-point sweep). */
    const int degen = c->sys->type->degen != NULL || c->sys->type->lie != NULL;
    VI_REAL dq = 0, dp = 0;
    for (int i = 0; i < IRK_S; i++) {
      for (int j = degen ? 0 : nq; j < d; j++) {
        VI_REAL z = 0;
        for (int l = 0; l < IRK_S; l++) {
          z += w->A[i * IRK_S + l] * w->F[l * d + j];
        }
        z *= hs;
        VI_REAL e = vi_fabs(z - w->Z[i * d + j]);
        if (j < nq) {
          dq = e > dq || e != e ? e : dq;
        } else {
          dp = e > dp || e != e ? e : dp;
        }
        w->Z[i * d + j] = z;
      }
    }
    const VI_REAL *Minv = c->sys->Minv;
    for (int l = 0; !degen && l < IRK_S; l++) {
      if (c->sys->config_mass) {
        /* M^-1 at the stage's current q (still a contracting sweep). */
        for (int j = 0; j < n; j++) {
          w->ys[j] = w->y[j] + w->Z[l * d + j];
        }
        rc = VI_X(vi_system_mass_inv)(c->sys, w->ys, c->Minv);
        if (rc != VI_OK) {
          rhs_fail(c, rc, "callback mass_q of system %s failed (%s)",
                   c->sys->type->info->name, vi_strerror(rc));
          return rc;
        }
        Minv = c->Minv;
      }
      for (int j = 0; j < n; j++) {
        VI_REAL v = 0;
        for (int k = 0; k < n; k++) {
          v += Minv[j * n + k] * (w->y[nq + k] + w->Z[l * d + nq + k]);
        }
        w->V[l * n + j] = v;
      }
    }
    for (int i = 0; !degen && i < IRK_S; i++) {
      for (int j = 0; j < n; j++) {
        VI_REAL z = 0;
        for (int l = 0; l < IRK_S; l++) {
          z += w->A[i * IRK_S + l] * w->V[l * n + j];
        }
        z *= hs;
        VI_REAL e = vi_fabs(z - w->Z[i * d + j]);
        dq = e > dq || e != e ? e : dq;
        w->Z[i * d + j] = z;
      }
    }
    if (dq <= tq && dp <= tp) {
      ok = 1;
      break;
    }
    /* Not contracting after the first sweeps: the substep is too large
     * for the fixed-point iteration (or the state is not finite). */
    VI_REAL cur = rmax(dq / rmax(w->sq, VI_EPS), dp / rmax(w->sp, VI_EPS));
    if (!vi_isfinite(cur) || (it >= 4 && cur > prev / 2)) {
      break;
    }
    prev = cur;
  }
  if (!ok) {
    w->have_prev = 0;
    return VI_NEWTON_NOCONV;
  }
  w->have_prev = 1;
  /* The F of the last sweep belong to stages within the tolerance of the
   * converged ones. */
  for (int j = 0; j < d; j++) {
    VI_REAL inc = 0;
    for (int i = 0; i < IRK_S; i++) {
      inc += w->b[i] * w->F[i * d + j];
    }
    inc = hs * inc - w->comp[j];
    VI_REAL t = w->y[j] + inc;
    w->comp[j] = (t - w->y[j]) - inc;
    w->y[j] = t;
  }
  for (int j = 0; j < nq; j++) {
    w->sq = rmax(w->sq, vi_fabs(w->y[j]));
  }
  for (int j = 0; j < n; j++) {
    w->sp = rmax(w->sp, vi_fabs(w->y[nq + j]));
  }
  return VI_OK;
}

/* From (q0, p0), nout outputs spaced by nsub Gauss steps of size hs:
 * (Q, P) rows 0..nout. */
static int irk_run(irk *w, rhs_ctx *c, VI_REAL hs, long nsub, long nout,
                   VI_REAL *Q, VI_REAL *P) {
  const VI_X(vi_system) *sys = c->sys;
  const int n = sys->n, nq = sys->nq;
  memcpy(w->y, sys->q0, (size_t)nq * sizeof *w->y);
  memcpy(w->y + nq, c->y0p, (size_t)n * sizeof *w->y);
  memset(w->comp, 0, (size_t)w->d * sizeof *w->comp);
  memcpy(Q, sys->q0, (size_t)nq * sizeof *Q);
  memcpy(P, c->y0p, (size_t)n * sizeof *P);
  w->have_prev = 0;
  w->sq = VI_X(vi_norm_inf)(nq, sys->q0);
  w->sp = VI_X(vi_norm_inf)(n, c->y0p);
  /* A system at rest in p (or q) still needs a scale for the stopping
   * test: the other block's, or 1. */
  if (w->sq == 0) {
    w->sq = w->sp > 0 ? w->sp : 1;
  }
  if (w->sp == 0) {
    w->sp = w->sq;
  }
  for (long k = 1; k <= nout; k++) {
    for (long j = 0; j < nsub; j++) {
      int rc = irk_step(w, c, hs);
      if (rc != VI_OK) {
        return rc;
      }
    }
    memcpy(Q + k * nq, w->y, (size_t)nq * sizeof *Q);
    memcpy(P + k * n, w->y + nq, (size_t)n * sizeof *P);
  }
  return lie_to_mu(c, nout, Q, P);
}

/* One reference with ksub substeps per node, checked by a run with twice
 * the substep: ksub / 2 per node for even ksub, otherwise (ksub = 1) one
 * step of 2h per pair of nodes, compared at the even nodes. nodes: how many
 * nodes to compute (the probe uses a prefix). reuse: (Q, P, L) already hold
 * the run with ksub / 2 over the same nodes (the previous, rejected pair),
 * which becomes the check run. d receives the differences per block. */
static int irk_pair(irk *w, rhs_ctx *c, VI_REAL h, long ksub, long nodes,
                    int reuse, VI_REAL *Q, VI_REAL *P, VI_REAL *L,
                    VI_REAL *Q2, VI_REAL *P2, VI_REAL *L2, VI_REAL d[3]) {
  const int n = c->sys->n, nq = c->sys->nq, m = c->sys->ml;
  long stride = 1, nk = nodes;
  int rc = VI_OK;
  if (reuse && ksub % 2 == 0) {
    memcpy(Q2, Q, (size_t)(nodes + 1) * (size_t)nq * sizeof *Q);
    memcpy(P2, P, (size_t)(nodes + 1) * (size_t)n * sizeof *P);
    if (m > 0) {
      memcpy(L2, L, (size_t)(nodes + 1) * (size_t)m * sizeof *L);
    }
  } else if (ksub % 2 == 0) {
    rc = irk_run(w, c, h / (VI_REAL)(ksub / 2), ksub / 2, nodes, Q2, P2);
  } else {
    stride = 2;
    nk = nodes / 2;
    rc = irk_run(w, c, 2 * h / (VI_REAL)ksub, ksub, nk, Q2, P2);
  }
  if (rc == VI_OK && !(reuse && ksub % 2 == 0)) {
    rc = node_lambdas(c, nk, Q2, P2, L2);
  }
  if (rc == VI_OK) {
    rc = irk_run(w, c, h / (VI_REAL)ksub, ksub, nodes, Q, P);
  }
  if (rc == VI_OK) {
    rc = node_lambdas(c, nodes, Q, P, L);
  }
  if (rc == VI_OK) {
    ref_diff(nq, n, m, nk + 1, stride, Q, P, L, Q2, P2, L2, d);
  }
  return rc;
}

/* The largest of the block differences relative to the block scales. */
static VI_REAL rel_diff(const VI_REAL d[3], const VI_REAL s[3]) {
  VI_REAL r = 0;
  for (int b = 0; b < 3; b++) {
    VI_REAL e = d[b] == 0 ? 0 : d[b] / s[b];
    r = e > r || e != e ? e : r;
  }
  return r;
}

/* The quad reference. The substep count per node, ksub, is chosen on a
 * probe (the first K/8 nodes, at least 2): the difference of the pair
 * there, extrapolated linearly to all K nodes, must be below IRK_TARGET,
 * the error of the check run falling by 2^16 per doubling of ksub. The
 * full pair then decides: accepted up to IRK_ACCEPT, or when one more
 * doubling no longer reduces the difference (a round-off plateau);
 * otherwise ksub doubles, the old finer run becoming the new check run.
 * The finer run is returned with the difference as its accuracy. */
static int integrate(rhs_ctx *c, VI_REAL h, long K, VI_REAL *Q, VI_REAL *P,
                     VI_REAL *L, VI_REAL *W, VI_X(vi_reference_info) *info,
                     char *err, size_t errlen) {
  const VI_X(vi_system) *sys = c->sys;
  const int n = sys->n, nq = sys->nq, m = sys->ml, d = nq + n;
  const char *name = sys->type->info->name;
  VI_REAL *Q2 = W, *P2 = Q2 + (K + 1) * nq, *L2 = P2 + (K + 1) * n;
  if (K == 0) {
    memcpy(Q, sys->q0, (size_t)nq * sizeof *Q);
    memcpy(P, sys->p0, (size_t)n * sizeof *P);
    int rc = node_lambdas(c, 0, Q, P, L);
    if (rc != VI_OK) {
      vi_set_err(err, errlen, "%s", c->msg);
      return rc;
    }
    VI_REAL s0[3];
    ref_scale(nq, n, m, 0, Q, P, L, s0);
    info->accuracy = (double)(4 * VI_EPS * rmax(s0[0], rmax(s0[1], s0[2])));
    snprintf(info->method, sizeof info->method,
             "Gauss-Legendre IRK s = %d, %s: K = 0, the "
             "initial data", IRK_S, c->form);
    return VI_OK;
  }
  irk w;
  w.d = d;
  w.nq = nq;
  w.Z = L2 + (K + 1) * m;
  w.F = w.Z + IRK_S * d;
  w.y = w.F + IRK_S * d;
  w.comp = w.y + d;
  w.ys = w.comp + d;
  w.f0 = w.ys + d;
  w.V = w.f0 + d;
  int rc = VI_X(vi_tableau)(VI_TAB_GAUSS, IRK_S, w.A, w.b, w.c);
  VI_REAL gx[IRK_S], gw[IRK_S], lv[IRK_S];
  if (rc == VI_OK) {
    rc = VI_X(vi_quad_gauss)(IRK_S, gx, gw);
  }
  if (rc != VI_OK) {
    vi_set_err(err, errlen, "cannot build the %d-stage Gauss tableau (%s)",
            IRK_S, vi_strerror(rc));
    return rc;
  }
  /* E_ij = int_0^(1 + c_i) l_j by the s-point Gauss rule on [0, 1 + c_i],
   * exact for the degree s - 1 Lagrange polynomials l_j on the nodes c. */
  for (int i = 0; i < IRK_S; i++) {
    VI_REAL len = 1 + w.c[i];
    for (int j = 0; j < IRK_S; j++) {
      w.E[i * IRK_S + j] = -w.b[j];
    }
    for (int k = 0; k < IRK_S; k++) {
      VI_X(vi_lagrange_eval)(IRK_S, w.c, len * gx[k], lv, NULL);
      for (int j = 0; j < IRK_S; j++) {
        w.E[i * IRK_S + j] += len * gw[k] * lv[j];
      }
    }
  }
  VI_REAL dd[3], s[3];
  /* With ksub = 1 the check run covers pairs of nodes: K = 1 starts at 2. */
  long ksub = K >= 2 ? 1 : 2;
  long np = K / 8 > 2 ? K / 8 : 2;
  np = np < K ? np : K;
  int done = 0;
  /* Probe: the smallest ksub (a power of 2) whose extrapolated difference
   * meets the target. */
  for (;;) {
    if (ksub > IRK_MAX_SUB) {
      vi_set_err(err, errlen,
              "reference integration (Gauss IRK s = %d) of system %s: the "
              "stage iteration or the error target fails even with h/%ld "
              "substeps on the first %ld nodes (h = %.3e)",
              IRK_S, name, IRK_MAX_SUB, np, (double)h);
      return VI_NEWTON_NOCONV;
    }
    c->status = VI_OK;
    rc = irk_pair(&w, c, h, ksub, np, 0, Q, P, L, Q2, P2, L2, dd);
    if (rc == VI_NEWTON_NOCONV) {
      ksub *= 2;
      continue;
    }
    if (rc != VI_OK) {
      vi_set_err(err, errlen, "reference (Gauss IRK s = %d): %s", IRK_S,
              c->msg);
      return rc;
    }
    ref_scale(nq, n, m, np, Q, P, L, s);
    VI_REAL r = rel_diff(dd, s);
    if (!vi_isfinite(r)) {
      vi_set_err(err, errlen,
              "reference integration (Gauss IRK s = %d) of system %s: "
              "non-finite values on the first %ld nodes",
              IRK_S, name, np);
      return VI_ESOLVER;
    }
    VI_REAL pred = r * (VI_REAL)K / (VI_REAL)np;
    if (r <= 16 * VI_EPS || pred <= IRK_TARGET) {
      done = np == K && pred <= IRK_TARGET;
      break;
    }
    /* The check run's error falls by 2^16 per doubling of ksub. */
    long f = 1;
    while (pred > IRK_TARGET && f < 64) {
      pred /= 65536;
      f *= 2;
    }
    ksub *= f;
  }
  /* The full pair (see above). */
  VI_REAL prev = -1;
  int reuse = 0;
  while (!done) {
    if (ksub > IRK_MAX_SUB || (VI_REAL)ksub * (VI_REAL)K > IRK_MAX_TOTAL) {
      vi_set_err(err, errlen,
              "reference integration (Gauss IRK s = %d) of system %s did "
              "not reach its target (relative difference %.1e with h/%ld "
              "substeps, %ld nodes)",
              IRK_S, name, (double)prev, ksub / 2, K);
      return VI_NEWTON_NOCONV;
    }
    c->status = VI_OK;
    rc = irk_pair(&w, c, h, ksub, K, reuse, Q, P, L, Q2, P2, L2, dd);
    reuse = 0;
    if (rc == VI_NEWTON_NOCONV) {
      ksub *= 2;
      continue;
    }
    if (rc != VI_OK) {
      vi_set_err(err, errlen, "reference (Gauss IRK s = %d): %s", IRK_S,
              c->msg);
      return rc;
    }
    ref_scale(nq, n, m, K, Q, P, L, s);
    VI_REAL r = rel_diff(dd, s);
    if (r <= IRK_ACCEPT || (prev >= 0 && r > prev / 16)) {
      break;
    }
    prev = r;
    ksub *= 2;
    reuse = 1;
  }
  double acc = 0;
  for (int b = 0; b < 3; b++) {
    double e = (double)rmax(dd[b], 4 * VI_EPS * s[b]);
    acc = e > acc || e != e ? e : acc;
  }
  info->accuracy = acc;
  /* ksub <= IRK_MAX_SUB; the "% 100000" below only tells the compiler's
   * format-truncation check how wide the numbers can be. */
  char chk[32];
  if (ksub % 2 == 0) {
    snprintf(chk, sizeof chk, "h/%ld", (ksub / 2) % 100000);
  } else {
    snprintf(chk, sizeof chk, "2h");
  }
  snprintf(info->method, sizeof info->method,
           "Gauss-Legendre IRK s = %d (order %d), %s, "
           "substep h/%ld; error from a %.20s run",
           IRK_S, 2 * IRK_S, c->form, ksub % 100000, chk);
  return VI_OK;
}

/* Reals of workspace integrate needs besides Q, P, L. */
static size_t integrate_work(int nq, int n, int m, long K) {
  return (size_t)(K + 1) * (size_t)(nq + n + m) + 2 * IRK_S * (size_t)(nq + n) +
         IRK_S * (size_t)n + 4 * (size_t)(nq + n);
}

#endif

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
  ref_scale(nq, n, m, K, Q, P, L, s);
  /* The speed of the motion, for the round-off growth: M^-1 p, or the
   * Lie form's xi. */
  for (long k = 0; k <= K && sys->Minv != NULL; k++) {
    for (int i = 0; i < n; i++) {
      VI_REAL v = 0;
      for (int j = 0; j < n; j++) {
        v += sys->Minv[i * n + j] * P[k * n + j];
      }
      vmax = rmax(vmax, vi_fabs(v));
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

/* ---- on-disk cache --------------------------------------------------------- */

/* Bump when the file layout or any algorithm above changes, so that old
 * files are recomputed rather than trusted. */
#define REF_FORMAT 3u /* 3: method text of 256 bytes */

static const char ref_magic[8] = {'V', 'I', 'R', 'E', 'F', 'b', 'i', 'n'};

/* FNV-1a, 64 bits (Fowler, Noll & Vo): offset basis 14695981039346656037,
 * prime 1099511628211. */
#define FNV_BASIS UINT64_C(14695981039346656037)
static uint64_t fnv1a(uint64_t hsh, const void *data, size_t len) {
  const unsigned char *b = data;
  for (size_t i = 0; i < len; i++) {
    hsh ^= b[i];
    hsh *= UINT64_C(1099511628211);
  }
  return hsh;
}

static size_t put(unsigned char *dst, size_t off, const void *src,
                  size_t len) {
  if (dst != NULL && len > 0) {
    memcpy(dst + off, src, len);
  }
  return off + len;
}

/* The key of a reference as bytes: format, byte order, precision, sizes,
 * which path (exact or integration) the type offers, the system name,
 * every parameter value, q0, p0, h and K. Returns its length; writes it to
 * dst unless dst is NULL. */
static size_t ref_key(const VI_X(vi_system) *sys, VI_REAL h, long K,
                      int exact, unsigned char *dst) {
  const vi_system_info *inf = sys->type->info;
  uint32_t u[5] = {REF_FORMAT, UINT32_C(0x01020304),
                   (uint32_t)sizeof(VI_REAL), 0, (uint32_t)exact};
#ifdef VI_PREC_Q
  u[3] = 1;
#endif
  int32_t nn[3] = {(int32_t)sys->n, (int32_t)sys->ml,
                   (int32_t)vi_system_info_nvalues(inf)};
  int64_t kk = (int64_t)K;
  uint32_t namelen = (uint32_t)strlen(inf->name);
  size_t off = put(dst, 0, ref_magic, sizeof ref_magic);
  off = put(dst, off, u, sizeof u);
  off = put(dst, off, nn, sizeof nn);
  off = put(dst, off, &kk, sizeof kk);
  off = put(dst, off, &namelen, sizeof namelen);
  off = put(dst, off, inf->name, namelen);
  off = put(dst, off, sys->par, (size_t)nn[2] * sizeof *sys->par);
  off = put(dst, off, sys->q0, (size_t)sys->nq * sizeof *sys->q0);
  off = put(dst, off, sys->p0, (size_t)sys->n * sizeof *sys->p0);
  off = put(dst, off, &h, sizeof h);
  return off;
}

/* Cache file name: DIR/NAME-PRECISION-HASH.ref, with the system name
 * restricted to [A-Za-z0-9_-] (it is a registry name, but the cache must
 * not write outside its directory whatever the name). Returns a malloc'ed
 * string or NULL. */
static char *cache_path(const char *dir, const char *name, uint64_t hsh) {
  size_t len = strlen(dir) + strlen(name) + 64;
  char *path = malloc(len);
  if (path == NULL) {
    return NULL;
  }
  int w = snprintf(path, len, "%s/", dir);
  for (const char *c = name; *c != '\0' && (size_t)w + 40 < len; c++) {
    int ok = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
             (*c >= '0' && *c <= '9') || *c == '-' || *c == '_';
    path[w++] = ok ? *c : '_';
  }
  snprintf(path + w, len - (size_t)w, "-%s-%016llx.ref", VI_PREC_NAME,
           (unsigned long long)hsh);
  return path;
}

/* mkdir -p: create dir and its missing parents. */
static int mkdir_p(const char *dir, char *err, size_t errlen) {
  size_t len = strlen(dir);
  char *buf = malloc(len + 1);
  if (buf == NULL) {
    vi_set_err(err, errlen, "out of memory");
    return VI_ENOMEM;
  }
  memcpy(buf, dir, len + 1);
  for (size_t i = 1; i <= len; i++) {
    if (buf[i] == '/' || buf[i] == '\0') {
      char c = buf[i];
      buf[i] = '\0';
      if (mkdir(buf, 0777) != 0 && errno != EEXIST) {
        vi_set_err(err, errlen, "cannot create cache directory %s: %s", buf,
                strerror(errno));
        free(buf);
        return VI_EIO;
      }
      buf[i] = c;
    }
  }
  free(buf);
  struct stat st;
  if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
    vi_set_err(err, errlen, "cache directory %s is not a directory", dir);
    return VI_EIO;
  }
  return VI_OK;
}

/* Bytes of a cache file after the key: method, accuracy, Q, P, L, and the
 * FNV-1a checksum of everything before it. */
static size_t cache_body(int nq, int n, int m, long K) {
  return sizeof(((VI_X(vi_reference_info) *)0)->method) + sizeof(double) +
         (size_t)(K + 1) * (size_t)(nq + n + m) * sizeof(VI_REAL) +
         sizeof(uint64_t);
}

/* Read a cached reference. Returns 1 on a hit (arrays and info filled), 0
 * when there is no valid file (missing, short, another key, corrupt). */
static int cache_read(const char *path, const unsigned char *key,
                      size_t keylen, int nq, int n, int m, long K, VI_REAL *Q,
                      VI_REAL *P, VI_REAL *L, VI_X(vi_reference_info) *info) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    return 0;
  }
  size_t want = keylen + cache_body(nq, n, m, K);
  unsigned char *buf = malloc(want + 1);
  int hit = 0;
  /* Read one byte more than expected: a longer file is not ours. */
  if (buf != NULL && fread(buf, 1, want + 1, f) == want &&
      memcmp(buf, key, keylen) == 0) {
    uint64_t sum;
    memcpy(&sum, buf + want - sizeof sum, sizeof sum);
    if (sum == fnv1a(FNV_BASIS, buf, want - sizeof sum)) {
      size_t off = keylen;
      memcpy(info->method, buf + off, sizeof info->method);
      info->method[sizeof info->method - 1] = '\0';
      off += sizeof info->method;
      memcpy(&info->accuracy, buf + off, sizeof info->accuracy);
      off += sizeof info->accuracy;
      size_t qb = (size_t)(K + 1) * (size_t)nq * sizeof *Q;
      size_t pb = (size_t)(K + 1) * (size_t)n * sizeof *P;
      size_t lb = (size_t)(K + 1) * (size_t)m * sizeof *L;
      memcpy(Q, buf + off, qb);
      memcpy(P, buf + off + qb, pb);
      if (lb > 0) {
        memcpy(L, buf + off + qb + pb, lb);
      }
      hit = 1;
    }
  }
  free(buf);
  fclose(f);
  return hit;
}

/* Write a reference atomically: a temporary file in the same directory,
 * flushed to disk, then renamed over the final name, so that a reader never
 * sees a partial file and concurrent writers of the same key are harmless
 * (both write the same bytes). */
static int cache_write(const char *dir, const char *path,
                       const unsigned char *key, size_t keylen, int nq, int n, int m,
                       long K, const VI_REAL *Q, const VI_REAL *P,
                       const VI_REAL *L, const VI_X(vi_reference_info) *info,
                       char *err, size_t errlen) {
  int rc = mkdir_p(dir, err, errlen);
  if (rc != VI_OK) {
    return rc;
  }
  size_t tlen = strlen(path) + 16;
  char *tmp = malloc(tlen);
  if (tmp == NULL) {
    vi_set_err(err, errlen, "out of memory");
    return VI_ENOMEM;
  }
  snprintf(tmp, tlen, "%s.tmpXXXXXX", path);
  int fd = mkstemp(tmp);
  if (fd < 0) {
    vi_set_err(err, errlen, "cannot create a temporary file in %s: %s", dir,
            strerror(errno));
    free(tmp);
    return VI_EIO;
  }
  /* mkstemp makes the file private; a cache is as readable as any other
   * output (the umask still applies to the directory). */
  (void)fchmod(fd, 0644);
  FILE *f = fdopen(fd, "wb");
  if (f == NULL) {
    close(fd);
    unlink(tmp);
    vi_set_err(err, errlen, "cannot open %s: %s", tmp, strerror(errno));
    free(tmp);
    return VI_EIO;
  }
  char method[sizeof info->method];
  memset(method, 0, sizeof method);
  snprintf(method, sizeof method, "%s", info->method);
  const void *part[6] = {key, method, &info->accuracy, Q, P, L};
  size_t len[6] = {keylen, sizeof method, sizeof info->accuracy,
                   (size_t)(K + 1) * (size_t)nq * sizeof *Q, (size_t)(K + 1) * (size_t)n * sizeof *P,
                   (size_t)(K + 1) * (size_t)m * sizeof *L};
  uint64_t sum = FNV_BASIS;
  int ok = 1;
  for (int i = 0; i < 6 && ok; i++) {
    if (len[i] > 0) {
      ok = fwrite(part[i], 1, len[i], f) == len[i];
      sum = fnv1a(sum, part[i], len[i]);
    }
  }
  ok = ok && fwrite(&sum, sizeof sum, 1, f) == 1;
  ok = ok && fflush(f) == 0 && fsync(fileno(f)) == 0;
  int saved = errno;
  ok = (fclose(f) == 0) && ok;
  if (ok && rename(tmp, path) != 0) {
    saved = errno;
    ok = 0;
  }
  if (!ok) {
    unlink(tmp);
    vi_set_err(err, errlen, "cannot write the reference cache file %s: %s",
            path, strerror(saved != 0 ? saved : errno));
    rc = VI_EIO;
  }
  free(tmp);
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

  unsigned char *key = NULL;
  size_t keylen = 0;
  char *path = NULL;
  if (cache_dir != NULL) {
    keylen = ref_key(sys, h, K, exact, NULL);
    key = malloc(keylen);
    if (key == NULL) {
      vi_set_err(err, errlen, "out of memory");
      return VI_ENOMEM;
    }
    ref_key(sys, h, K, exact, key);
    path = cache_path(cache_dir, name, fnv1a(FNV_BASIS, key, keylen));
    if (path == NULL) {
      free(key);
      vi_set_err(err, errlen, "out of memory");
      return VI_ENOMEM;
    }
    if (cache_read(path, key, keylen, nq, n, m, K, Q, P, L, info)) {
      info->cached = 1;
      free(path);
      free(key);
      return VI_OK;
    }
  }

  int rc = VI_EUNSUPPORTED;
  if (exact) {
    rc = exact_nodes(sys, h, K, Q, P, L, info, err, errlen);
  }
  if (rc == VI_EUNSUPPORTED) {
    /* The index-1 form needs grad V, G and the contracted Hessian of g;
     * the degenerate form Dalpha and grad H (vi_system_alloc checked). */
    const VI_X(vi_system_type) *t = sys->type;
    if (t->mech != NULL && sys->m > 0 && t->holo->constraint_hess == NULL) {
      vi_set_err(err, errlen,
              "no reference for system %s: it has no exact solution here "
              "and lacks constraint_hess for the index-1 form (70)",
              name);
      rc = VI_EUNSUPPORTED;
      goto done;
    }
    size_t nw = integrate_work(nq, n, m, K) + rhs_work_size(n, m);
    VI_REAL *W = malloc(nw * sizeof *W);
    int *piv = malloc((size_t)n * sizeof *piv);
    if (W == NULL || piv == NULL) {
      free(W);
      free(piv);
      vi_set_err(err, errlen, "out of memory for the reference of %s (%ld "
              "nodes)", name, K);
      rc = VI_ENOMEM;
      goto done;
    }
    rhs_ctx c;
    rhs_ctx_init(&c, sys, W + integrate_work(nq, n, m, K), piv);
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
    rc = integrate(&c, h, K, Q, P, m > 0 ? L : dummy, W, info, err, errlen);
    free(W);
    free(piv);
  }
  if (rc == VI_OK) {
    /* A reference that overflowed or lost itself in NaN is no reference:
     * an error, never a result (nor a cache file). */
    const size_t nQ = (size_t)(K + 1) * (size_t)nq, nP = (size_t)(K + 1) * (size_t)n,
                 nl = (size_t)(K + 1) * (size_t)m;
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
  if (rc == VI_OK && cache_dir != NULL) {
    /* The reference itself is fine and stays in Q, P, L: a cache that
     * cannot be written costs a recomputation next time, nothing more. */
    char msg[256];
    if (cache_write(cache_dir, path, key, keylen, nq, n, m, K, Q, P, L, info, msg, sizeof msg) !=
        VI_OK) {
      snprintf(info->note, sizeof info->note, "reference not cached: %s", msg);
    }
  }
done:
  free(path);
  free(key);
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
  rhs_ctx c;
  rhs_ctx_init(&c, sys, W, piv);
  VI_REAL *y = c.Da + (size_t)n * (size_t)n, *f0 = y + d, *f1 = f0 + d, *y1 = f1 + d;
  memcpy(y, sys->q0, (size_t)nq * sizeof *y);
  memcpy(y + nq, c.y0p, (size_t)n * sizeof *y);
  int rc = rhs_eval(&c, y, f0);
  VI_REAL vq = 0, aq = 0, s = VI_X(vi_norm_inf)(nq, sys->q0);
  if (rc == VI_OK) {
    VI_REAL fy = VI_X(vi_norm_inf)(d, f0), ys = VI_X(vi_norm_inf)(d, y);
    VI_REAL eps = vi_sqrt(VI_EPS) * (1 + ys) / (fy > 0 ? fy : 1);
    for (int i = 0; i < d; i++) {
      y1[i] = y[i] + eps * f0[i];
    }
    rc = rhs_eval(&c, y1, f1);
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
