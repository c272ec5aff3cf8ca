/* gsl_rk.h: GSL's explicit Runge-Kutta-Prince-Dormand (8, 9) (rk8pd) as an
 * external baseline of the sweeps (sweep.h): it integrates the
 * non-degenerate ODE of a degenerate Lagrangian, qdot = (Dalpha' -
 * Dalpha)^-1 grad H (tyranowski2014 (2.8)-(2.9)), with adaptive steps at
 * rtol = atol = tol (gsl_odeiv2_driver, y_new control), and hands its
 * output nodes t_k = k T / N, k = 0..N, (q, p = alpha(q)) to the same
 * observer as the fixed-step driver. Double precision. */
#ifndef VI_GSL_RK_H
#define VI_GSL_RK_H

#include "vistudy.h"

typedef struct vi_gsl_rk vi_gsl_rk;

typedef struct vi_gsl_rk_stats {
  long steps, fevals, fails;
} vi_gsl_rk_stats;

/* VI_EUNSUPPORTED for a system without the degenerate form. */
int vi_gsl_rk_alloc(const vi_system_d *sys, vi_gsl_rk **out, char *err, size_t errlen);
void vi_gsl_rk_free(vi_gsl_rk *R);
/* One run at rtol = atol = tol to T with N output nodes; 0, GSL's status
 * or the observer's, with the reason in err; the counts in st. */
int vi_gsl_rk_run(vi_gsl_rk *R, double tol, double T, long N, vi_observer_d obs, void *ctx,
                  vi_gsl_rk_stats *st, char *err, size_t errlen);

#endif
