/* solve_tmpl.c: nonlinear solves F(x) = 0 of a fixed size N behind one small
 * interface (api_tmpl.h), with its backends behind an ops table
 * (solve_impl_tmpl.h):
 *
 * - the built-in dense Newton, here: exact Newton (a fresh analytic
 *   Jacobian and LU at every iterate), every precision;
 * - KINSOL (SUNDIALS 6.x), in solve_kinsol.c in the double library; the
 *   quad library's slot (solve_nokinsol.c) says why it is refused.
 *
 * Convergence, with the weighted norm |dx|_w = max_i |dx_i| / (rtol (|x_i|
 * + u_i)) and the absolute scale u_i of each unknown (1 unless the caller
 * sets it, see vi_solver_set_unit): the built-in Newton stops when the
 * error estimate of the updated iterate, |dx|_w or theta/(1-theta) |dx|_w
 * with the contraction rate theta
 * (Hairer-Wanner II §IV.8), is at most 1; it also accepts a stalled
 * iteration at round-off level (increments that stop contracting, theta >
 * 1/2, while already within |dx|_w <= 1e3), which an ill-conditioned
 * Jacobian (e.g. s = 12 on equidistant control points) would otherwise
 * turn into a spurious failure.
 * KINSOL stops on its scaled-step test at 1e3 rtol (see solve_kinsol.c).
 * Non-convergence is the recoverable status VI_NEWTON_NOCONV, never a
 * silently wrong step. */
#include "solve_impl_tmpl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void VI_X(vi_solver_opts_default)(VI_X(vi_solver_opts) *opts) {
  opts->kind = VI_SOLVER_NEWTON;
  opts->rtol = 100 * VI_EPS;
  opts->max_iter = 50;
}

/* Weighted max-norm of dx; the iterate is finite when the result is. */
static VI_REAL wnorm(const VI_X(vi_solver) *s, const VI_REAL *x,
                           const VI_REAL *dx) {
  VI_REAL r = 0;
  for (int i = 0; i < s->N; i++) {
    VI_REAL a = vi_fabs(dx[i]) / (s->opts.rtol * (vi_fabs(x[i]) + s->unit[i]));
    if (!(a <= r)) {
      r = a; /* also propagates NaN */
    }
  }
  return r;
}

static int newton(VI_X(vi_solver) *s, VI_REAL *x, long *iters,
                        long *fevals, long *jevals) {
  const int N = s->N;
  VI_REAL prev = 0;
  for (int it = 1; it <= s->opts.max_iter; it++) {
    int st = s->fn(s->ctx, x, s->F, s->J);
    (*fevals)++;
    (*jevals)++;
    if (st != 0) {
      return st;
    }
    st = VI_X(vi_lu_factor)(N, s->J, s->piv);
    if (st != VI_OK) {
      return st;
    }
    for (int i = 0; i < N; i++) {
      s->dx[i] = -s->F[i];
    }
    VI_X(vi_lu_solve)(N, s->J, s->piv, s->dx);
    for (int i = 0; i < N; i++) {
      x[i] += s->dx[i];
    }
    (*iters)++;
    VI_REAL nrm = wnorm(s, x, s->dx);
    if (!vi_isfinite(nrm)) {
      return VI_NEWTON_NOCONV;
    }
    if (nrm <= 1) {
      return VI_OK;
    }
    if (it >= 2) {
      /* Error estimate of the updated iterate from the contraction rate
       * (Hairer-Wanner II §IV.8): theta/(1-theta) |dx|. */
      VI_REAL theta = nrm / prev;
      if (theta < 1 && theta / (1 - theta) * nrm <= 1) {
        return VI_OK;
      }
      if (it >= 3 && nrm <= VI_SOLVER_STALL_FACTOR && theta > VI_C(0.5)) {
        return VI_OK; /* round-off floor reached: no further contraction */
      }
    }
    prev = nrm;
  }
  return VI_NEWTON_NOCONV;
}

static const vi_solver_backend newton_backend = {
    .solve = newton,
};

/* The backend of a vi_solver_kind, or NULL for an unknown kind. */
static const vi_solver_backend *backend_of(int kind) {
  switch (kind) {
  case VI_SOLVER_NEWTON:
    return &newton_backend;
  case VI_SOLVER_KINSOL:
    return &VI_X(vi_solver_kinsol);
  default:
    return NULL;
  }
}

int VI_X(vi_solver_alloc)(const VI_X(vi_solver_opts) *opts, int N,
                          VI_X(vi_resjac_fn) fn, void *ctx,
                          VI_X(vi_solver) **out) {
  *out = NULL;
  if (N <= 0 || !fn || !opts || opts->max_iter <= 0 || !(opts->rtol > 0)) {
    return VI_EINVAL;
  }
  const vi_solver_backend *be = backend_of(opts->kind);
  if (be == NULL) {
    return VI_EINVAL;
  }
  if (be->unavailable != NULL) {
    return VI_EUNSUPPORTED; /* e.g. KINSOL in quad */
  }
  /* One allocation: the struct, the backend's state, then F, J, dx, unit,
   * then piv. */
  size_t head = (sizeof(VI_X(vi_solver)) + 15) / 16 * 16;
  size_t impl = (be->state_size + 15) / 16 * 16;
  size_t nreal = (size_t)N * (size_t)(N + 3);
  size_t bytes = head + impl + nreal * sizeof(VI_REAL) + (size_t)N * sizeof(int);
  char *mem = calloc(1, bytes);
  if (!mem) {
    return VI_ENOMEM;
  }
  VI_X(vi_solver) *s = (VI_X(vi_solver) *)mem;
  s->opts = *opts;
  s->N = N;
  s->fn = fn;
  s->ctx = ctx;
  s->backend = be;
  s->impl = impl > 0 ? mem + head : NULL;
  s->F = (VI_REAL *)(mem + head + impl);
  s->J = s->F + N;
  s->dx = s->J + (size_t)N * N;
  s->unit = s->dx + N;
  for (int i = 0; i < N; i++) {
    s->unit[i] = 1;
  }
  s->piv = (int *)(s->unit + N);
  if (be->init != NULL) {
    int st = be->init(s);
    if (st != VI_OK) {
      VI_X(vi_solver_free)(s);
      return st;
    }
  }
  *out = s;
  return VI_OK;
}

void VI_X(vi_solver_free)(VI_X(vi_solver) *s) {
  if (!s) {
    return;
  }
  if (s->backend->fini != NULL) {
    s->backend->fini(s);
  }
  free(s);
}

void VI_X(vi_solver_set_unit)(VI_X(vi_solver) *s, int i, VI_REAL unit) {
  s->unit[i] = unit;
}

int VI_X(vi_solve)(VI_X(vi_solver) *s, VI_REAL *x, long *iters, long *fevals,
                   long *jevals) {
  return s->backend->solve(s, x, iters, fevals, jevals);
}

/* Solver options of a typed configuration (vi_solver_config). */
int VI_X(vi_solver_opts_from)(const vi_solver_config *c, VI_X(vi_solver_opts) *so, char *err,
                              size_t errlen) {
  VI_X(vi_solver_opts_default)(so);
  so->kind = c->kind;
  const vi_solver_backend *be = backend_of(so->kind);
  if (be != NULL && be->unavailable != NULL) {
    snprintf(err, errlen, "%s", be->unavailable);
    return VI_EUNSUPPORTED;
  }
  if (c->rtol != 0) {
    if (!(c->rtol > 0) || !vi_isfinite((VI_REAL)c->rtol)) {
      snprintf(err, errlen, "invalid solver rtol %.3g: must be a positive number",
               (double)c->rtol);
      return VI_EINVAL;
    }
    so->rtol = (VI_REAL)c->rtol;
  }
  if (so->rtol < VI_EPS) {
    snprintf(err, errlen, "rtol %.3g is below the %s precision's epsilon %.3g and "
             "cannot be met; use quad precision or a larger rtol",
             (double)so->rtol, VI_PREC_NAME, (double)VI_EPS);
    return VI_EINVAL;
  }
  if (c->max_iter > 0) {
    so->max_iter = c->max_iter;
  }
  return VI_OK;
}
