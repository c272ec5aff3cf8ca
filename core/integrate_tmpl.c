/* integrate_tmpl.c: the fixed-step driver (design.md "The method interface";
 * GSL's gsl_odeiv2_driver_apply_fixed_step), the one loop that steps a
 * method: run, order studies, the figure traces and sweeps, the efficiency
 * and work-precision studies all go through it, so that what a step is, and
 * what a failure means, is defined once. Compiled once per precision. */
#include <math.h>

#include "prec.h"
#include "numerics_tmpl.h"
#include "api_tmpl.h"

int VI_X(vi_integrate)(VI_X(vi_stepper) * st, const VI_X(vi_solver_opts) * solver,
                       VI_REAL h, long N, const VI_REAL *q0, const VI_REAL *p0,
                       VI_X(vi_node) * node, VI_X(vi_observer) obs, void *ctx,
                       long *last) {
  long k = -1;
  int rc = VI_X(vi_stepper_init)(st, solver, h, 0, q0, p0, node);
  while (rc == VI_OK) {
    k++;
    if (obs != NULL && (rc = obs(ctx, k, node)) != VI_OK) {
      break;
    }
    if (k == N) {
      break;
    }
    rc = VI_X(vi_stepper_step)(st, node);
  }
  if (last != NULL) {
    *last = k;
  }
  return rc;
}

void VI_X(vi_err_obs_init)(VI_X(vi_err_obs) * o, const VI_X(vi_system) * sys,
                           const VI_REAL *Q, const VI_REAL *P, const VI_REAL *L,
                           int energy, int n_extra) {
  o->sys = sys;
  o->Q = Q;
  o->P = P;
  o->L = L;
  o->e[0] = o->e[1] = o->e[2] = 0;
  o->eL0 = 0;
  o->eE = 0;
  o->eE2 = 0;
  o->eElast = 0;
  o->nE = 0;
  o->E0 = 0;
  o->energy = energy;
  o->n_extra = n_extra;
  o->eX = 0;
  if (energy && VI_X(vi_system_energy)(sys, sys->q0, sys->p0, &o->E0) != VI_OK) {
    o->E0 = (VI_REAL)NAN;
  }
}

int VI_X(vi_err_observe)(void *ctx, long k, const VI_X(vi_node) * nd) {
  VI_X(vi_err_obs) *o = ctx;
  const int n = o->sys->n, nq = o->sys->nq, m = o->sys->ml;
  if (o->Q != NULL) {
    /* The reference node k; lambda_0, the one-sided start value, apart. */
    const vi_dims d = VI_X(vi_system_dims)(o->sys);
    VI_X(vi_node) ref = {nd->t, (VI_REAL *)o->Q + k * nq, (VI_REAL *)o->P + k * n,
                         (VI_REAL *)o->L + k * m, NULL, NULL};
    VI_X(vi_node_errors)(&d, nd, &ref, k > 0 ? VI_ERR_Q | VI_ERR_P | VI_ERR_LAMBDA
                                             : VI_ERR_Q | VI_ERR_P, o->e);
    if (k == 0) {
      VI_REAL e0[VI_NQUANT] = {0, 0, o->eL0};
      VI_X(vi_node_errors)(&d, nd, &ref, VI_ERR_LAMBDA, e0);
      o->eL0 = e0[VI_LAMBDA];
    }
  }
  for (int c = 0; k > 0 && c < o->n_extra; c++) {
    VI_REAL d = vi_fabs(nd->extra[c]);
    o->eX = d > o->eX || d != d ? d : o->eX;
  }
  VI_REAL E = 0;
  if (o->energy) {
    /* An energy that cannot be evaluated, or is not finite, makes the
     * error NaN (never a silently smaller maximum). */
    VI_REAL d = VI_X(vi_system_energy)(o->sys, nd->q, nd->p, &E) == VI_OK
                    ? vi_fabs(E - o->E0) /
                          (vi_fabs(o->E0) > VI_ENERGY_ABS_BELOW ? vi_fabs(o->E0) : 1)
                    : (VI_REAL)NAN;
    o->eE = d > o->eE || d != d ? d : o->eE;
    o->eE2 += d * d;
    o->eElast = d * d;
    o->nE++;
  }
  return VI_OK;
}
