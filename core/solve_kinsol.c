/* solve_kinsol.c: the KINSOL backend of the nonlinear solver (SUNDIALS 6.x;
 * solve_impl_tmpl.h), built into the double library only: Debian's SUNDIALS
 * is built for double (conventions.md). Exact Newton via
 * KINSetMaxSetupCalls(1), no line search, with our dense LU plugged in as a
 * custom SUNLinearSolver because Debian's SUNDIALS is built without
 * optimisation; the KINSOL object is created once per solver and reused for
 * every solve. The LU factors our row-major Jacobian in place (KINSOL gets a
 * SUNMatrix without storage), the residual callback evaluates F and J
 * together when KINSOL will ask for J at that iterate (see kin_func), and
 * KINSOL's serial vector operations are compiled here (see nv_linearsum).
 * KINSOL has no contraction-rate test: it stops on its scaled-step test at
 * VI_SOLVER_STALL_FACTOR rtol (see kinsol_init), the bound at which the
 * built-in Newton (solve_tmpl.c) accepts a round-off floor. */
#include "prec.h"
#if defined(VI_PREC_Q)
#error "solve_kinsol.c is double only: build it into the double library"
#endif
#include "solve_impl_tmpl.h"

#include <math.h>
#include <string.h>

#include <kinsol/kinsol.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sundials/sundials_linearsolver.h>
#include <sunmatrix/sunmatrix_dense.h>

/* The backend's state (vi_solver_d.impl): the KINSOL objects and what the
 * callbacks share. */
typedef struct kin {
  vi_solver_d *s;
  SUNContext sunctx;
  void *kmem;
  N_Vector u, uscale, fscale;
  SUNMatrix A;
  SUNLinearSolver LS;
  long fevals, jevals; /* counted by the KINSOL callbacks */
  long factorizations; /* counted by ls_setup */
  int cb_status;       /* last failing callback status, for the caller */
  double *xc;          /* the iterate of the Jacobian kept in J (kin_func) */
  const double *ucur;  /* KINSOL's current iterate (kin_jac) */
  double steptol;      /* KINSOL's scaled-step tolerance */
  int want_jac;        /* the next residual evaluation also evaluates J */
  int jac_at_xc;       /* J holds the Jacobian at xc, not yet factored */
} kin;

/* Evaluations. Our callback computes F and J together for little more than
 * J alone (the residual alone costs 0.2-0.3 of a joint evaluation), and
 * KINSOL asks for F at an iterate, then for J at the same iterate at the
 * start of the next Newton iteration. So the residual callback evaluates F
 * and J together whenever another Newton iteration is expected (J is kept
 * in s->J with a copy of the iterate in k->xc), and the Jacobian callback
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
  kin *k = user;
  vi_solver_d *s = k->s;
  const double *x = N_VGetArrayPointer(u);
  double *J = k->want_jac ? s->J : NULL;
  k->fevals++;
  k->jac_at_xc = 0;
  if (J) {
    k->jevals++;
  }
  int st = s->fn(s->ctx, x, N_VGetArrayPointer(f), J);
  if (st != 0) {
    k->cb_status = st;
    return st > 0 ? 1 : -1;
  }
  if (J) {
    memcpy(k->xc, x, (size_t)s->N * sizeof *x);
    k->jac_at_xc = 1;
  }
  return 0;
}

/* The Jacobian, row-major in s->J, where the linear solver's setup factors
 * it in place: the SUNMatrix handed to KINSOL (kin_matrix) holds nothing. */
static int kin_jac(N_Vector u, N_Vector fu, SUNMatrix A, void *user,
                   N_Vector t1, N_Vector t2) {
  kin *k = user;
  vi_solver_d *s = k->s;
  const double *x = N_VGetArrayPointer(u);
  k->ucur = x;
  if (k->jac_at_xc && memcmp(x, k->xc, (size_t)s->N * sizeof *x) == 0) {
    k->jac_at_xc = 0; /* consumed: factored in place next */
    return 0;
  }
  k->jac_at_xc = 0;
  k->jevals++;
  int st = s->fn(s->ctx, x, NULL, s->J);
  if (st != 0) {
    k->cb_status = st;
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
  kin *k = LS->content;
  const vi_solver_d *s = k->s;
  k->factorizations++;
  return vi_lu_factor_d(s->N, s->J, s->piv) == VI_OK ? 0 : 1;
}

/* Solve, then predict KINSOL's scaled-step test for the residual callback
 * (see kin_func). */
static int ls_solve(SUNLinearSolver LS, SUNMatrix A, N_Vector x, N_Vector b,
                    double tol) {
  kin *k = LS->content;
  const vi_solver_d *s = k->s;
  const int N = s->N;
  double *xd = N_VGetArrayPointer(x);
  memcpy(xd, N_VGetArrayPointer(b), (size_t)N * sizeof *xd);
  vi_lu_solve_d(N, s->J, s->piv, xd);
  const double *u = k->ucur;
  const double *us = N_VGetArrayPointer(k->uscale);
  double r = 0;
  for (int i = 0; i < N; i++) {
    double unew = u[i] + xd[i];
    double a = fabs((unew - u[i]) / (1.0 / us[i] + fabs(unew)));
    if (!(a <= r)) {
      r = a;
    }
  }
  k->want_jac = !(r <= k->steptol);
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
 * the same; KINSOL's clones of k->u copy these operations. */
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

static int kinsol_init(vi_solver_d *s) {
  const int N = s->N;
  kin *k = s->impl;
  k->s = s;
  if (SUNContext_Create(NULL, &k->sunctx) != 0) {
    return VI_ESOLVER;
  }
  k->u = N_VNew_Serial(N, k->sunctx);
  k->uscale = N_VNew_Serial(N, k->sunctx);
  k->fscale = N_VNew_Serial(N, k->sunctx);
  k->A = SUNMatNewEmpty(k->sunctx);
  k->LS = SUNLinSolNewEmpty(k->sunctx);
  k->kmem = KINCreate(k->sunctx);
  if (!k->u || !k->uscale || !k->fscale || !k->A || !k->LS || !k->kmem) {
    return VI_ENOMEM;
  }
  nv_compiled_ops(k->u); /* before KINInit, which clones k->u */
  nv_compiled_ops(k->uscale);
  nv_compiled_ops(k->fscale);
  k->A->ops->getid = mat_getid;
  k->A->ops->zero = mat_zero;
  k->A->ops->destroy = mat_destroy;
  k->xc = s->dx; /* dx is the built-in Newton's, free here */
  k->ucur = N_VGetArrayPointer(k->u);
  k->LS->content = k;
  k->LS->ops->gettype = ls_gettype;
  k->LS->ops->setup = ls_setup;
  k->LS->ops->solve = ls_solve;
  k->LS->ops->free = ls_free;
  N_VConst(1.0, k->fscale);
  /* KINSOL has no contraction-rate test: it stops on the scaled step,
   * here at VI_SOLVER_STALL_FACTOR rtol, the bound at which the built-in
   * Newton accepts a round-off floor. With quadratic convergence the
   * accepted update leaves an error far below rtol either way. */
  k->steptol = (double)VI_SOLVER_STALL_FACTOR * s->opts.rtol;
  int f = KINInit(k->kmem, kin_func, k->u);
  f |= KINSetUserData(k->kmem, k);
  f |= KINSetLinearSolver(k->kmem, k->LS, k->A);
  f |= KINSetJacFn(k->kmem, kin_jac);
  f |= KINSetMaxSetupCalls(k->kmem, 1); /* exact Newton */
  f |= KINSetNumMaxIters(k->kmem, s->opts.max_iter);
  f |= KINSetScaledStepTol(k->kmem, k->steptol);
  /* Stop on the step test only (as the built-in Newton does): the residual
   * test is made unreachable in practice. */
  f |= KINSetFuncNormTol(k->kmem, 1e-250);
  f |= KINSetErrHandlerFn(k->kmem, kin_silent, NULL);
  f |= KINSetPrintLevel(k->kmem, 0);
  return f == 0 ? VI_OK : VI_ESOLVER;
}

static int kinsol_solve(vi_solver_d *s, double *x, vi_solve_counts *c) {
  kin *k = s->impl;
  const int N = s->N;
  double *u = N_VGetArrayPointer(k->u);
  double *us = N_VGetArrayPointer(k->uscale);
  for (int i = 0; i < N; i++) {
    u[i] = x[i];
    us[i] = 1.0 / (fabs(x[i]) + s->unit[i]);
  }
  k->fevals = k->jevals = k->factorizations = 0;
  k->cb_status = 0;
  k->want_jac = 1; /* the initial residual: the first iteration needs J */
  k->jac_at_xc = 0;
  int flag = KINSol(k->kmem, k->u, KIN_NONE, k->uscale, k->fscale);
  long nni = 0; /* KINSol restarts its counters at every call */
  KINGetNumNonlinSolvIters(k->kmem, &nni);
  c->iters += nni;
  c->fevals += k->fevals;
  c->jevals += k->jevals;
  c->factorizations += k->factorizations;
  if (flag >= 0) {
    memcpy(x, u, (size_t)N * sizeof *x);
    return VI_OK;
  }
  if (k->cb_status != 0) {
    return k->cb_status;
  }
  if (flag == KIN_LSETUP_FAIL) {
    return VI_SINGULAR;
  }
  return VI_NEWTON_NOCONV;
}

/* Frees whatever kinsol_init created, also after it failed part-way. */
static void kinsol_fini(vi_solver_d *s) {
  kin *k = s->impl;
  if (k->kmem) {
    KINFree(&k->kmem);
  }
  if (k->LS) {
    SUNLinSolFree(k->LS);
  }
  if (k->A) {
    SUNMatDestroy(k->A);
  }
  N_Vector vecs[] = {k->u, k->uscale, k->fscale};
  for (int i = 0; i < 3; i++) {
    if (vecs[i]) {
      N_VDestroy(vecs[i]);
    }
  }
  if (k->sunctx) {
    SUNContext_Free(&k->sunctx);
  }
}

const vi_solver_backend vi_solver_kinsol_d = {
    .unavailable = NULL,
    .state_size = sizeof(kin),
    .init = kinsol_init,
    .solve = kinsol_solve,
    .fini = kinsol_fini,
};
