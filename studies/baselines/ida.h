/* ida.h: SUNDIALS IDA as an external baseline (design.md "Studies are
 * data"): it integrates a system's DAE with adaptive steps and hands its
 * output nodes t_k = k T / N, k = 0..N, to the same observer as the
 * fixed-step driver (vi_integrate_d), so a study measures IDA and the
 * variational families with one error observer. Double precision (Debian's
 * SUNDIALS is built for double). Two formulations of the mechanical form
 * with holonomic constraints, constant M or M(q):
 *   VI_IDA_GGL     q' = M^-1 p + G'mu, p' = -grad V + dT/dq - G'lambda,
 *                  g(q) = 0, G M^-1 p = 0 (index 2; lambda, mu algebraic,
 *                  out of the error test; analytic Jacobian for constant
 *                  M, IDA's difference quotients for M(q));
 *   VI_IDA_INDEX1  q' = M^-1 p, p' = -grad V + dT/dq - G'lambda(q, p) with
 *                  lambda from wenger2017 (70) (an ODE; drifts off g = 0). */
#ifndef VI_IDA_H
#define VI_IDA_H

#include "vistudy.h"

enum { VI_IDA_GGL = 0, VI_IDA_INDEX1 = 1 };

/* IDA's first step for GGL (see ida.c). */
#define VI_IDA_H0 1e-4

typedef struct vi_ida vi_ida;

typedef struct vi_ida_stats {
  long steps, fevals, jevals, newton, lsetups, etfails, ncfails;
} vi_ida_stats;

/* The SUNDIALS objects and consistent initial values of one formulation
 * for sys's initial data (lambda0 by (70), mu0 = 0); VI_EUNSUPPORTED for a
 * system without the mechanical form and holonomic constraints. */
int vi_ida_alloc(const vi_system_d *sys, int form, vi_ida **out, char *err, size_t errlen);
void vi_ida_free(vi_ida *I);

/* One run at rtol = atol = tol to T: every output node (q, p, lambda) goes
 * to obs (may be NULL). Returns 0, IDA's flag (< 0) or the observer's
 * status, with the reason in err; the counts in st. */
int vi_ida_run(vi_ida *I, double tol, double T, long N, vi_observer_d obs, void *ctx,
               vi_ida_stats *st, char *err, size_t errlen);

#endif
