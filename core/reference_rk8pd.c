/* reference_rk8pd.c: the reference integrator of the double library
 * (reference_impl_tmpl.h): GSL's rk8pd, the explicit Prince-Dormand (8, 9)
 * pair (Prince & Dormand 1981), with the gsl_odeiv2 evolve and the y_new
 * control at a tight tolerance, on the equations of the system's form
 * (reference_tmpl.c). The run is checked by a second one at a looser
 * tolerance, and their difference, scaled, is the stated accuracy. Double
 * only: GSL's odeiv2 works in double. */
#include "prec.h"
#if defined(VI_PREC_Q)
#error "reference_rk8pd.c is double only: build it into the double library"
#endif
#include "reference_impl_tmpl.h"

#include <float.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_odeiv2.h>

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
  vi_ref_rhs *c = params;
  int rc = vi_ref_rhs_eval_d(c, y, dydt);
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
static int run_rk8pd(vi_ref_rhs *c, double h, long K, double tol, double *Q,
                     double *P, double *y, char *err, size_t errlen) {
  const vi_system_d *sys = c->sys;
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
  if (rc == VI_OK && (rc = vi_ref_lie_to_mu_d(c, K, Q, P)) != VI_OK) {
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
static int rk8pd_integrate(vi_ref_rhs *c, double h, long K, double *Q, double *P,
                           double *L, double *W, vi_reference_info_d *info, char *err,
                           size_t errlen) {
  const int n = c->sys->n, nq = c->sys->nq, m = c->sys->ml;
  double *Q2 = W, *P2 = Q2 + (K + 1) * nq, *L2 = P2 + (K + 1) * n;
  double *y = L2 + (K + 1) * m;
  int rc = run_rk8pd(c, h, K, REF_TOL, Q, P, y, err, errlen);
  if (rc == VI_OK) {
    rc = run_rk8pd(c, h, K, REF_TOL_CHECK, Q2, P2, y, err, errlen);
  }
  if (rc == VI_OK) {
    c->status = VI_OK;
    rc = vi_ref_node_lambdas_d(c, K, Q, P, L);
    if (rc == VI_OK) {
      rc = vi_ref_node_lambdas_d(c, K, Q2, P2, L2);
    }
    if (rc != VI_OK) {
      vi_set_err(err, errlen, "%s", c->msg);
    }
  }
  if (rc != VI_OK) {
    return rc;
  }
  double d[3], s[3];
  vi_ref_diff_d(nq, n, m, K + 1, 1, Q, P, L, Q2, P2, L2, d);
  vi_ref_scale_d(nq, n, m, K, Q, P, L, s);
  double acc = 0;
  for (int b = 0; b < 3; b++) {
    /* Floor: a few ulp of each block, the round-off of the stored values. */
    double e = rmax(d[b] / REF_TOL_GAIN, 4 * DBL_EPSILON * s[b]);
    acc = e > acc || e != e ? e : acc;
  }
  info->accuracy = acc;
  snprintf(info->method, sizeof info->method,
           "rk8pd (GSL) on the %s, rtol = atol = %.0e; "
           "error from a %.0e run / %.0f",
           c->form, REF_TOL, REF_TOL_CHECK, REF_TOL_GAIN);
  return VI_OK;
}

/* Reals of workspace rk8pd_integrate needs besides Q, P, L. */
static size_t rk8pd_work(int nq, int n, int m, long K) {
  return (size_t)(K + 1) * (size_t)(nq + n + m) + 4 * (size_t)(nq + n);
}

const vi_ref_ops vi_ref_integrator_d = {
    .work = rk8pd_work,
    .integrate = rk8pd_integrate,
};
