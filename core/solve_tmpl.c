/* solve_tmpl.c: nonlinear solves F(x) = 0 of a fixed size N behind one small
 * interface (api_tmpl.h), with two backends:
 *
 * - the built-in dense Newton: exact Newton (a fresh analytic Jacobian and
 *   LU at every iterate), every precision;
 * - KINSOL (SUNDIALS 6.x, double only): exact Newton via
 *   KINSetMaxSetupCalls(1), no line search, with our dense LU plugged in as
 *   a custom SUNLinearSolver because Debian's SUNDIALS is built without
 *   optimisation (conventions.md); the KINSOL object is created once and
 *   reused for every solve. The LU factors our row-major Jacobian in place
 *   (KINSOL gets a SUNMatrix without storage), the residual callback
 *   evaluates F and J together when KINSOL will ask for J at that iterate
 *   (see kin_func), and KINSOL's serial vector operations are compiled
 *   here (see nv_linearsum).
 *
 * Convergence, with the weighted norm |dx|_w = max_i |dx_i| / (rtol (|x_i|
 * + u_i)) and the absolute scale u_i of each unknown (1 unless the caller
 * sets it, see vi_solver_set_unit): the built-in Newton stops when the error estimate of the updated
 * iterate, |dx|_w or theta/(1-theta) |dx|_w with the contraction rate theta
 * (Hairer-Wanner II §IV.8), is at most 1; it also accepts a stalled
 * iteration at round-off level (increments that stop contracting, theta >
 * 1/2, while already within |dx|_w <= 1e3), which an ill-conditioned
 * Jacobian (e.g. s = 12 on equidistant control points) would otherwise
 * turn into a spurious failure.
 * KINSOL stops on its scaled-step test at 1e3 rtol (see kinsol_setup).
 * Non-convergence is the recoverable status VI_NEWTON_NOCONV, never a
 * silently wrong step. */
#include "prec.h"
#include "numerics_tmpl.h"
#include "api_tmpl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if !defined(VI_PREC_Q)
#include <kinsol/kinsol.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sundials/sundials_linearsolver.h>
#include <sunmatrix/sunmatrix_dense.h>
#endif

#define STALL_FACTOR VI_C(1e3)

struct VI_X(vi_solver) {
  VI_X(vi_solver_opts) opts;
  int N;
  VI_X(vi_resjac_fn) fn;
  void *ctx;
  VI_REAL *F, *J, *dx;
  VI_REAL *unit; /* absolute scale of each unknown (default 1) */
  int *piv;
#if !defined(VI_PREC_Q)
  SUNContext sunctx;
  void *kmem;
  N_Vector u, uscale, fscale;
  SUNMatrix A;
  SUNLinearSolver LS;
  long fevals, jevals; /* counted by the KINSOL callbacks */
  int cb_status;       /* last failing callback status, for the caller */
  double *xc;          /* the iterate of the Jacobian kept in J (kin_func) */
  const double *ucur;  /* KINSOL's current iterate (kin_jac) */
  double steptol;      /* KINSOL's scaled-step tolerance */
  int want_jac;        /* the next residual evaluation also evaluates J */
  int jac_at_xc;       /* J holds the Jacobian at xc, not yet factored */
#endif
};

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
      if (it >= 3 && nrm <= STALL_FACTOR && theta > VI_C(0.5)) {
        return VI_OK; /* round-off floor reached: no further contraction */
      }
    }
    prev = nrm;
  }
  return VI_NEWTON_NOCONV;
}

#if !defined(VI_PREC_Q)
/* ---- KINSOL adapter --------------------------------------------------- */

/* Evaluations. Our callback computes F and J together for little more than
 * J alone (the residual alone costs 0.2-0.3 of a joint evaluation), and
 * KINSOL asks for F at an iterate, then for J at the same iterate at the
 * start of the next Newton iteration. So the residual callback evaluates F
 * and J together whenever another Newton iteration is expected (J is kept
 * in s->J with a copy of the iterate in s->xc), and the Jacobian callback
 * hands the kept J over when KINSOL asks at a bitwise identical iterate;
 * otherwise it evaluates J itself. Counters: a joint evaluation is one
 * residual and one Jacobian evaluation, a residual alone one residual
 * evaluation.
 *
 * Whether another iteration is expected is decided in the linear solve,
 * where the Newton step dx is known: KINSOL's scaled-step test
 * max_i |unew_i - u_i| / (1/uscale_i + |unew_i|) <= scsteptol (KINStop),
 * computed with the same operations as KINSOL, predicts that the residual
 * at unew = u + dx is the last one of the solve, so it is evaluated alone.
 * A wrong prediction (KINSOL shortened the step, or stopped on its
 * residual test) costs one separate Jacobian evaluation or one unused
 * one, never a wrong Jacobian. */
static int kin_func(N_Vector u, N_Vector f, void *user) {
  vi_solver_d *s = user;
  const double *x = N_VGetArrayPointer(u);
  double *J = s->want_jac ? s->J : NULL;
  s->fevals++;
  s->jac_at_xc = 0;
  if (J) {
    s->jevals++;
  }
  int st = s->fn(s->ctx, x, N_VGetArrayPointer(f), J);
  if (st != 0) {
    s->cb_status = st;
    return st > 0 ? 1 : -1;
  }
  if (J) {
    memcpy(s->xc, x, (size_t)s->N * sizeof *x);
    s->jac_at_xc = 1;
  }
  return 0;
}

/* The Jacobian, row-major in s->J, where the linear solver's setup factors
 * it in place: the SUNMatrix handed to KINSOL (kin_matrix) holds nothing. */
static int kin_jac(N_Vector u, N_Vector fu, SUNMatrix A, void *user,
                   N_Vector t1, N_Vector t2) {
  vi_solver_d *s = user;
  const double *x = N_VGetArrayPointer(u);
  s->ucur = x;
  if (s->jac_at_xc && memcmp(x, s->xc, (size_t)s->N * sizeof *x) == 0) {
    s->jac_at_xc = 0; /* consumed: factored in place next */
    return 0;
  }
  s->jac_at_xc = 0;
  s->jevals++;
  int st = s->fn(s->ctx, x, NULL, s->J);
  if (st != 0) {
    s->cb_status = st;
    return st > 0 ? 1 : -1;
  }
  return 0;
}

/* A SUNMatrix without storage: KINSOL only zeroes it (our Jacobian callback
 * overwrites every entry of s->J) and passes it to our linear solver. */
static SUNMatrix_ID mat_getid(SUNMatrix A) {
  return SUNMATRIX_CUSTOM;
}

static int mat_zero(SUNMatrix A) {
  return 0;
}

static void mat_destroy(SUNMatrix A) {
  SUNMatFreeEmpty(A);
}

static SUNLinearSolver_Type ls_gettype(SUNLinearSolver LS) {
  return SUNLINEARSOLVER_DIRECT;
}

/* Setup: factor the row-major Jacobian in s->J in place. */
static int ls_setup(SUNLinearSolver LS, SUNMatrix A) {
  vi_solver_d *s = LS->content;
  return vi_lu_factor_d(s->N, s->J, s->piv) == VI_OK ? 0 : 1;
}

/* Solve, then predict KINSOL's scaled-step test for the residual callback
 * (see kin_func). */
static int ls_solve(SUNLinearSolver LS, SUNMatrix A, N_Vector x, N_Vector b,
                    double tol) {
  vi_solver_d *s = LS->content;
  const int N = s->N;
  double *xd = N_VGetArrayPointer(x);
  memcpy(xd, N_VGetArrayPointer(b), (size_t)N * sizeof *xd);
  vi_lu_solve_d(N, s->J, s->piv, xd);
  const double *u = s->ucur;
  const double *us = N_VGetArrayPointer(s->uscale);
  double r = 0;
  for (int i = 0; i < N; i++) {
    double unew = u[i] + xd[i];
    double a = fabs((unew - u[i]) / (1.0 / us[i] + fabs(unew)));
    if (!(a <= r)) {
      r = a;
    }
  }
  s->want_jac = !(r <= s->steptol);
  return 0;
}

static int ls_free(SUNLinearSolver LS) {
  LS->content = NULL;
  SUNLinSolFreeEmpty(LS);
  return 0;
}

/* The serial N_Vector operations KINSOL calls (a dozen per Newton iteration,
 * each a pass over N entries), compiled here: Debian's SUNDIALS is built
 * without optimisation (conventions.md). Each does the arithmetic of its
 * nvector_serial counterpart in the same order, so the results are bitwise
 * the same; KINSOL's clones of s->u copy these operations. */
static void nv_linearsum(double a, N_Vector x, double b, N_Vector y,
                         N_Vector z) {
  const double *xd = NV_DATA_S(x), *yd = NV_DATA_S(y);
  double *zd = NV_DATA_S(z);
  const sunindextype n = NV_LENGTH_S(x);
  /* nvector_serial: a (x + y) when a == b, a (x - y) when a == -b, else
   * a x + b y (its other special cases, a or b = +-1, give the same bits) */
  if (a == b) {
    for (sunindextype i = 0; i < n; i++) {
      zd[i] = a * (xd[i] + yd[i]);
    }
  } else if (a == -b) {
    for (sunindextype i = 0; i < n; i++) {
      zd[i] = a * (xd[i] - yd[i]);
    }
  } else {
    for (sunindextype i = 0; i < n; i++) {
      zd[i] = a * xd[i] + b * yd[i];
    }
  }
}

static void nv_const(double c, N_Vector z) {
  double *zd = NV_DATA_S(z);
  const sunindextype n = NV_LENGTH_S(z);
  for (sunindextype i = 0; i < n; i++) {
    zd[i] = c;
  }
}

static void nv_prod(N_Vector x, N_Vector y, N_Vector z) {
  const double *xd = NV_DATA_S(x), *yd = NV_DATA_S(y);
  double *zd = NV_DATA_S(z);
  const sunindextype n = NV_LENGTH_S(x);
  for (sunindextype i = 0; i < n; i++) {
    zd[i] = xd[i] * yd[i];
  }
}

static void nv_div(N_Vector x, N_Vector y, N_Vector z) {
  const double *xd = NV_DATA_S(x), *yd = NV_DATA_S(y);
  double *zd = NV_DATA_S(z);
  const sunindextype n = NV_LENGTH_S(x);
  for (sunindextype i = 0; i < n; i++) {
    zd[i] = xd[i] / yd[i];
  }
}

static void nv_scale(double c, N_Vector x, N_Vector z) {
  const double *xd = NV_DATA_S(x);
  double *zd = NV_DATA_S(z);
  const sunindextype n = NV_LENGTH_S(x);
  for (sunindextype i = 0; i < n; i++) {
    zd[i] = c * xd[i];
  }
}

static void nv_abs(N_Vector x, N_Vector z) {
  const double *xd = NV_DATA_S(x);
  double *zd = NV_DATA_S(z);
  const sunindextype n = NV_LENGTH_S(x);
  for (sunindextype i = 0; i < n; i++) {
    zd[i] = fabs(xd[i]);
  }
}

static void nv_inv(N_Vector x, N_Vector z) {
  const double *xd = NV_DATA_S(x);
  double *zd = NV_DATA_S(z);
  const sunindextype n = NV_LENGTH_S(x);
  for (sunindextype i = 0; i < n; i++) {
    zd[i] = 1.0 / xd[i];
  }
}

static double nv_dotprod(N_Vector x, N_Vector y) {
  const double *xd = NV_DATA_S(x), *yd = NV_DATA_S(y);
  const sunindextype n = NV_LENGTH_S(x);
  double sum = 0;
  for (sunindextype i = 0; i < n; i++) {
    sum += xd[i] * yd[i];
  }
  return sum;
}

/* max_i |x_i|, skipping NaN as nvector_serial does. */
static double nv_maxnorm(N_Vector x) {
  const double *xd = NV_DATA_S(x);
  const sunindextype n = NV_LENGTH_S(x);
  double m = 0;
  for (sunindextype i = 0; i < n; i++) {
    if (fabs(xd[i]) > m) {
      m = fabs(xd[i]);
    }
  }
  return m;
}

/* sqrt(sum_i (x_i w_i)^2), 0 unless the sum is positive (SUNRsqrt). */
static double nv_wl2norm(N_Vector x, N_Vector w) {
  const double *xd = NV_DATA_S(x), *wd = NV_DATA_S(w);
  const sunindextype n = NV_LENGTH_S(x);
  double sum = 0;
  for (sunindextype i = 0; i < n; i++) {
    double p = xd[i] * wd[i];
    sum += p * p;
  }
  return sum > 0 ? sqrt(sum) : 0;
}

static double nv_min(N_Vector x) {
  const double *xd = NV_DATA_S(x);
  const sunindextype n = NV_LENGTH_S(x);
  double m = xd[0];
  for (sunindextype i = 1; i < n; i++) {
    if (xd[i] < m) {
      m = xd[i];
    }
  }
  return m;
}

static void nv_compiled_ops(N_Vector v) {
  v->ops->nvlinearsum = nv_linearsum;
  v->ops->nvconst = nv_const;
  v->ops->nvprod = nv_prod;
  v->ops->nvdiv = nv_div;
  v->ops->nvscale = nv_scale;
  v->ops->nvabs = nv_abs;
  v->ops->nvinv = nv_inv;
  v->ops->nvdotprod = nv_dotprod;
  v->ops->nvmaxnorm = nv_maxnorm;
  v->ops->nvwl2norm = nv_wl2norm;
  v->ops->nvmin = nv_min;
}

/* KINSOL reports errors through this handler; the caller gets a status. */
static void kin_silent(int code, const char *module, const char *function,
                       char *msg, void *user) {}

static int kinsol_setup(vi_solver_d *s) {
  const int N = s->N;
  if (SUNContext_Create(NULL, &s->sunctx) != 0) {
    return VI_ESOLVER;
  }
  s->u = N_VNew_Serial(N, s->sunctx);
  s->uscale = N_VNew_Serial(N, s->sunctx);
  s->fscale = N_VNew_Serial(N, s->sunctx);
  s->A = SUNMatNewEmpty(s->sunctx);
  s->LS = SUNLinSolNewEmpty(s->sunctx);
  s->kmem = KINCreate(s->sunctx);
  if (!s->u || !s->uscale || !s->fscale || !s->A || !s->LS || !s->kmem) {
    return VI_ENOMEM;
  }
  nv_compiled_ops(s->u); /* before KINInit, which clones s->u */
  nv_compiled_ops(s->uscale);
  nv_compiled_ops(s->fscale);
  s->A->ops->getid = mat_getid;
  s->A->ops->zero = mat_zero;
  s->A->ops->destroy = mat_destroy;
  s->xc = s->dx; /* dx is the built-in Newton's, free here */
  s->ucur = N_VGetArrayPointer(s->u);
  s->LS->content = s;
  s->LS->ops->gettype = ls_gettype;
  s->LS->ops->setup = ls_setup;
  s->LS->ops->solve = ls_solve;
  s->LS->ops->free = ls_free;
  N_VConst(1.0, s->fscale);
  /* KINSOL has no contraction-rate test: it stops on the scaled step,
   * here at STALL_FACTOR rtol, the bound at which the built-in Newton
   * accepts a round-off floor. With quadratic convergence the accepted
   * update leaves an error far below rtol either way. */
  s->steptol = (double)STALL_FACTOR * s->opts.rtol;
  int f = KINInit(s->kmem, kin_func, s->u);
  f |= KINSetUserData(s->kmem, s);
  f |= KINSetLinearSolver(s->kmem, s->LS, s->A);
  f |= KINSetJacFn(s->kmem, kin_jac);
  f |= KINSetMaxSetupCalls(s->kmem, 1); /* exact Newton */
  f |= KINSetNumMaxIters(s->kmem, s->opts.max_iter);
  f |= KINSetScaledStepTol(s->kmem, s->steptol);
  /* Stop on the step test only (as the built-in Newton does): the residual
   * test is made unreachable in practice. */
  f |= KINSetFuncNormTol(s->kmem, 1e-250);
  f |= KINSetErrHandlerFn(s->kmem, kin_silent, NULL);
  f |= KINSetPrintLevel(s->kmem, 0);
  return f == 0 ? VI_OK : VI_ESOLVER;
}

static int kinsol_solve(vi_solver_d *s, double *x, long *iters, long *fevals,
                        long *jevals) {
  const int N = s->N;
  double *u = N_VGetArrayPointer(s->u);
  double *us = N_VGetArrayPointer(s->uscale);
  for (int i = 0; i < N; i++) {
    u[i] = x[i];
    us[i] = 1.0 / (fabs(x[i]) + s->unit[i]);
  }
  s->fevals = s->jevals = 0;
  s->cb_status = 0;
  s->want_jac = 1; /* the initial residual: the first iteration needs J */
  s->jac_at_xc = 0;
  int flag = KINSol(s->kmem, s->u, KIN_NONE, s->uscale, s->fscale);
  long nni = 0; /* KINSol restarts its counters at every call */
  KINGetNumNonlinSolvIters(s->kmem, &nni);
  *iters += nni;
  *fevals += s->fevals;
  *jevals += s->jevals;
  if (flag >= 0) {
    memcpy(x, u, (size_t)N * sizeof *x);
    return VI_OK;
  }
  if (s->cb_status != 0) {
    return s->cb_status;
  }
  if (flag == KIN_LSETUP_FAIL) {
    return VI_SINGULAR;
  }
  return VI_NEWTON_NOCONV;
}
#endif

int VI_X(vi_solver_alloc)(const VI_X(vi_solver_opts) *opts, int N,
                          VI_X(vi_resjac_fn) fn, void *ctx,
                          VI_X(vi_solver) **out) {
  *out = NULL;
  if (N <= 0 || !fn || !opts || opts->max_iter <= 0 || !(opts->rtol > 0)) {
    return VI_EINVAL;
  }
#if defined(VI_PREC_Q)
  if (opts->kind == VI_SOLVER_KINSOL) {
    return VI_EUNSUPPORTED; /* KINSOL is double only */
  }
#endif
  if (opts->kind != VI_SOLVER_NEWTON && opts->kind != VI_SOLVER_KINSOL) {
    return VI_EINVAL;
  }
  /* One allocation: the struct, then F, J, dx, unit, then piv. */
  size_t nreal = (size_t)N * (size_t)(N + 3);
  size_t head = (sizeof(VI_X(vi_solver)) + 15) / 16 * 16;
  size_t bytes = head + nreal * sizeof(VI_REAL) + (size_t)N * sizeof(int);
  char *mem = calloc(1, bytes);
  if (!mem) {
    return VI_ENOMEM;
  }
  VI_X(vi_solver) *s = (VI_X(vi_solver) *)mem;
  s->opts = *opts;
  s->N = N;
  s->fn = fn;
  s->ctx = ctx;
  s->F = (VI_REAL *)(mem + head);
  s->J = s->F + N;
  s->dx = s->J + (size_t)N * N;
  s->unit = s->dx + N;
  for (int i = 0; i < N; i++) {
    s->unit[i] = 1;
  }
  s->piv = (int *)(s->unit + N);
#if !defined(VI_PREC_Q)
  if (opts->kind == VI_SOLVER_KINSOL) {
    int st = kinsol_setup(s);
    if (st != VI_OK) {
      VI_X(vi_solver_free)(s);
      return st;
    }
  }
#endif
  *out = s;
  return VI_OK;
}

void VI_X(vi_solver_free)(VI_X(vi_solver) *s) {
  if (!s) {
    return;
  }
#if !defined(VI_PREC_Q)
  if (s->kmem) {
    KINFree(&s->kmem);
  }
  if (s->LS) {
    SUNLinSolFree(s->LS);
  }
  if (s->A) {
    SUNMatDestroy(s->A);
  }
  N_Vector vecs[] = {s->u, s->uscale, s->fscale};
  for (int i = 0; i < 3; i++) {
    if (vecs[i]) {
      N_VDestroy(vecs[i]);
    }
  }
  if (s->sunctx) {
    SUNContext_Free(&s->sunctx);
  }
#endif
  free(s);
}

void VI_X(vi_solver_set_unit)(VI_X(vi_solver) *s, int i, VI_REAL unit) {
  s->unit[i] = unit;
}

int VI_X(vi_solve)(VI_X(vi_solver) *s, VI_REAL *x, long *iters, long *fevals,
                   long *jevals) {
#if !defined(VI_PREC_Q)
  if (s->opts.kind == VI_SOLVER_KINSOL) {
    return kinsol_solve(s, x, iters, fevals, jevals);
  }
#endif
  return newton(s, x, iters, fevals, jevals);
}

/* Solver options of a typed configuration (vi_solver_config). */
int VI_X(vi_solver_opts_from)(const vi_solver_config *c, VI_X(vi_solver_opts) *so, char *err,
                              size_t errlen) {
  VI_X(vi_solver_opts_default)(so);
  so->kind = c->kind;
#if defined(VI_PREC_Q)
  if (so->kind == VI_SOLVER_KINSOL) {
    snprintf(err, errlen, "the KINSOL backend works in double precision only (Debian's "
             "SUNDIALS is built for double); use the built-in Newton solver in quad");
    return VI_EUNSUPPORTED;
  }
#endif
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
