/* ida.c: SUNDIALS IDA as an external baseline behind the observer of the
 * fixed-step driver (ida.h): the GGL index-2 and the index-1 formulations
 * of the mechanical form with holonomic constraints, constant M or M(q). */
#include "ida.h"

#include <ida/ida.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_config.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Scratch of the residual and Jacobian callbacks; everything is allocated
 * before the timed runs. */
typedef struct ida_dae {
  const vi_system_d *sys;
  int form, n, m;
  int cm; /* the mass matrix depends on q */
  double *dV, *G, *g, *H, *v, *e, *lam, *Hk; /* n, m x n, m, n x n, n, m, m, m x n x n */
  double *Mi, *dT; /* work of vi_system_minv_at (n x n) and dT/dq (n) */
  char msg[200];
} ida_dae;

static int ida_cb_fail(ida_dae *c, const char *what, int rc) {
  snprintf(c->msg, sizeof c->msg, "%s failed (%d)", what, rc);
  return rc;
}

/* v = M(q)^-1 p into c->v, and with a q-dependent M the kinetic force
 * dT/dq(q, v) into c->dT. Returns a status. */
static int ida_minv_p(ida_dae *c, const double *q, const double *p) {
  int rc = vi_system_minv_apply_d(c->sys, q, p, c->v);
  if (rc == VI_OK && !vi_system_mass_constant_d(c->sys)) {
    rc = vi_system_kinetic_d(c->sys, q, c->v, c->dT, NULL, NULL);
  }
  return rc;
}

/* GGL: F = (q' - M^-1 p - G'mu, p' + grad V + G'lambda, g, G M^-1 p).
 * Index 1: F = (q' - M^-1 p, p' + grad V + G'lambda(q, p)) with lambda
 * from wenger2017 (70). The sign of a system callback's status is IDA's
 * convention too (> 0 recoverable: IDA retries with a smaller step). */
static int ida_res(sunrealtype t, N_Vector yy, N_Vector yp, N_Vector rr, void *ud) {
  (void)t;
  ida_dae *c = ud;
  const vi_system_d *sys = c->sys;
  const int n = c->n, m = c->m;
  const double *y = N_VGetArrayPointer(yy), *d = N_VGetArrayPointer(yp);
  double *r = N_VGetArrayPointer(rr);
  const double *q = y, *p = y + n;
  const double *lam = c->form == VI_IDA_GGL ? y + 2 * n : c->lam;
  int rc = sys->type->mech->grad_potential(sys->state, q, c->dV);
  if (rc != 0) {
    return ida_cb_fail(c, "grad_potential", rc);
  }
  rc = sys->type->holo->constraint_jac(sys->state, q, c->G);
  if (rc != 0) {
    return ida_cb_fail(c, "constraint_jac", rc);
  }
  if (c->form == VI_IDA_INDEX1) {
    rc = vi_system_lambda_d(sys, q, p, c->lam);
    if (rc != VI_OK) {
      return ida_cb_fail(c, "the multiplier (70)", rc);
    }
  }
  /* pdot = -grad V + dT/dq - G' lambda with v = M(q)^-1 p (the kinetic
   * term vanishes for a constant M). */
  if ((rc = ida_minv_p(c, q, p)) != VI_OK) {
    return ida_cb_fail(c, "mass_q or kinetic", rc);
  }
  for (int i = 0; i < n; i++) {
    double rq = d[i] - c->v[i], rp = d[n + i] + c->dV[i] - (c->cm ? c->dT[i] : 0);
    for (int k = 0; k < m; k++) {
      rp += c->G[k * n + i] * lam[k];
      if (c->form == VI_IDA_GGL) {
        rq -= c->G[k * n + i] * y[2 * n + m + k];
      }
    }
    r[i] = rq;
    r[n + i] = rp;
  }
  if (c->form == VI_IDA_GGL) {
    rc = sys->type->holo->constraint(sys->state, q, c->g);
    if (rc != 0) {
      return ida_cb_fail(c, "constraint", rc);
    }
    for (int k = 0; k < m; k++) {
      double gv = 0;
      for (int j = 0; j < n; j++) {
        gv += c->G[k * n + j] * c->v[j];
      }
      r[2 * n + k] = c->g[k];
      r[2 * n + m + k] = gv;
    }
  }
  return 0;
}

/* GGL Jacobian J = dF/dy + cj dF/dy' (column-major SUNDenseMatrix):
 *   q rows: [cj I - H(mu), -M^-1, 0, -G'],   H(x) = sum_k x_k Hess g_k
 *   p rows: [Hess V + H(lambda), cj I, G', 0]
 *   g rows: [G, 0, 0, 0]
 *   v rows: [(Hess g_k M^-1 p)', G M^-1, 0, 0]. */
static int ida_ggl_jac(sunrealtype t, sunrealtype cj, N_Vector yy, N_Vector yp,
                      N_Vector rr, SUNMatrix J, void *ud, N_Vector t1, N_Vector t2,
                      N_Vector t3) {
  (void)t;
  (void)yp;
  (void)rr;
  (void)t1;
  (void)t2;
  (void)t3;
  ida_dae *c = ud;
  const vi_system_d *sys = c->sys;
  const vi_system_type_d *ty = sys->type;
  const int n = c->n, m = c->m;
  const double *y = N_VGetArrayPointer(yy);
  const double *q = y, *p = y + n, *lam = y + 2 * n, *mu = y + 2 * n + m;
  SUNMatZero(J);
#define JE(i, j) SM_ELEMENT_D(J, i, j)
  int rc = ty->holo->constraint_jac(sys->state, q, c->G);
  if (rc != 0) {
    return ida_cb_fail(c, "constraint_jac", rc);
  }
  for (int k = 0; k < m; k++) {
    for (int l = 0; l < m; l++) {
      c->e[l] = l == k;
    }
    rc = ty->holo->constraint_hess(sys->state, q, c->e, c->Hk + (size_t)k * n * n);
    if (rc != 0) {
      return ida_cb_fail(c, "constraint_hess", rc);
    }
  }
  rc = ty->mech->hess_potential(sys->state, q, c->H);
  if (rc != 0) {
    return ida_cb_fail(c, "hess_potential", rc);
  }
  /* Constant M only (vi_ida_run leaves M(q) to IDA's difference
   * quotients): the cached M^-1. */
  ida_minv_p(c, q, p);
  const double *Minv = NULL;
  vi_system_minv_at_d(sys, q, c->Mi, &Minv);
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) {
      double hm = 0, hl = 0;
      for (int k = 0; k < m; k++) {
        hm += mu[k] * c->Hk[(size_t)k * n * n + i * n + j];
        hl += lam[k] * c->Hk[(size_t)k * n * n + i * n + j];
      }
      JE(i, j) = (i == j ? cj : 0) - hm;
      JE(i, n + j) = -Minv[i * n + j];
      JE(n + i, j) = c->H[i * n + j] + hl;
    }
    JE(n + i, n + i) = cj;
    for (int k = 0; k < m; k++) {
      JE(i, 2 * n + m + k) = -c->G[k * n + i];
      JE(n + i, 2 * n + k) = c->G[k * n + i];
    }
  }
  for (int k = 0; k < m; k++) {
    for (int j = 0; j < n; j++) {
      double hv = 0, gm = 0;
      for (int l = 0; l < n; l++) {
        hv += c->Hk[(size_t)k * n * n + j * n + l] * c->v[l];
        gm += c->G[k * n + l] * Minv[l * n + j];
      }
      JE(2 * n + k, j) = c->G[k * n + j];
      JE(2 * n + m + k, j) = hv;
      JE(2 * n + m + k, n + j) = gm;
    }
  }
#undef JE
  return 0;
}

static void ida_errh(int code, const char *module, const char *function, char *msg,
                        void *ud) {
  ida_dae *c = ud;
  snprintf(c->msg, sizeof c->msg, "%s (%s, %d)", msg, function, code);
  (void)module;
}

/* The SUNDIALS objects of one formulation's runs, created once. */
struct vi_ida {
  SUNContext ctx;
  N_Vector y, yp, id;
  SUNMatrix A;
  SUNLinearSolver LS;
  ida_dae dae;
  double *y0, *yp0; /* consistent initial values */
  double *node;     /* q, p, lambda of an output node */
  int N;
};

void vi_ida_free(vi_ida *I) {
  if (!I) {
    return;
  }
  if (I->LS) {
    SUNLinSolFree(I->LS);
  }
  if (I->A) {
    SUNMatDestroy(I->A);
  }
  if (I->y) {
    N_VDestroy(I->y);
  }
  if (I->yp) {
    N_VDestroy(I->yp);
  }
  if (I->id) {
    N_VDestroy(I->id);
  }
  if (I->ctx) {
    SUNContext_Free(&I->ctx);
  }
  free(I->dae.dV);
  free(I->y0);
  free(I->node);
  free(I);
}

int vi_ida_alloc(const vi_system_d *sys, int form, vi_ida **out, char *err, size_t errlen) {
  *out = NULL;
  if (!sys->type->mech || !sys->type->holo || sys->m < 1 || sys->m_nh > 0) {
    vi_set_err(err, errlen, "the IDA baseline integrates the mechanical form with holonomic "
               "constraints only; %s is not such a system", sys->type->info->name);
    return VI_EUNSUPPORTED;
  }
  if (form != VI_IDA_GGL && form != VI_IDA_INDEX1) {
    vi_set_err(err, errlen, "IDA form %d: valid VI_IDA_GGL, VI_IDA_INDEX1", form);
    return VI_EINVAL;
  }
  vi_ida *I = calloc(1, sizeof *I);
  if (!I) {
    vi_set_err(err, errlen, "out of memory");
    return VI_ENOMEM;
  }
  const int n = sys->n, m = sys->m, N = form == VI_IDA_GGL ? 2 * n + 2 * m : 2 * n;
  I->N = N;
  ida_dae *c = &I->dae;
  c->sys = sys;
  c->cm = !vi_system_mass_constant_d(sys);
  c->form = form;
  c->n = n;
  c->m = m;
  size_t nd = (size_t)n * (3 + n + (size_t)m * n + m) + 3 * (size_t)m + (size_t)n * (n + 1);
  double *w = calloc(nd, sizeof *w);
  I->y0 = calloc(2 * (size_t)N, sizeof *I->y0);
  I->node = calloc(2 * (size_t)n + (size_t)m, sizeof *I->node);
  c->dV = w;
  if (!w || !I->y0 || !I->node) {
    vi_set_err(err, errlen, "out of memory");
    vi_ida_free(I);
    return VI_ENOMEM;
  }
  c->dV = w;
  c->G = c->dV + n;
  c->g = c->G + (size_t)m * n;
  c->H = c->g + m;
  c->v = c->H + (size_t)n * n;
  c->e = c->v + n;
  c->lam = c->e + m;
  c->Hk = c->lam + m;
  c->Mi = c->Hk + (size_t)m * n * n;
  c->dT = c->Mi + (size_t)n * n;
  I->yp0 = I->y0 + N;
  if (SUNContext_Create(NULL, &I->ctx) != 0) {
    vi_set_err(err, errlen, "SUNContext_Create failed");
    vi_ida_free(I);
    return VI_ESOLVER;
  }
  I->y = N_VNew_Serial(N, I->ctx);
  I->yp = N_VNew_Serial(N, I->ctx);
  I->id = N_VNew_Serial(N, I->ctx);
  I->A = SUNDenseMatrix(N, N, I->ctx);
  I->LS = I->y && I->A ? SUNLinSol_Dense(I->y, I->A, I->ctx) : NULL;
  if (!I->y || !I->yp || !I->id || !I->A || !I->LS) {
    vi_set_err(err, errlen, "cannot allocate the SUNDIALS vectors and dense solver");
    vi_ida_free(I);
    return VI_ESOLVER;
  }
  /* Consistent initial values: (q0, p0) on both manifolds (vi_system_alloc
   * projects them), lambda0 by wenger2017 (70), mu0 = 0; q'0, p'0 from the
   * equations. Only q and p are differential (id = 1). */
  double *y = I->y0, *yp = I->yp0;
  memcpy(y, sys->q0, (size_t)n * sizeof *y);
  memcpy(y + n, sys->p0, (size_t)n * sizeof *y);
  int rc = vi_system_lambda_d(sys, sys->q0, sys->p0, c->lam);
  rc = rc ? rc : sys->type->mech->grad_potential(sys->state, sys->q0, c->dV);
  rc = rc ? rc : sys->type->holo->constraint_jac(sys->state, sys->q0, c->G);
  if (rc != 0) {
    vi_set_err(err, errlen, "initial multipliers: %s",
               vi_strerror(vi_callback_status(rc)));
    vi_ida_free(I);
    return vi_callback_status(rc);
  }
  if (ida_minv_p(c, sys->q0, sys->p0) != VI_OK) {
    vi_set_err(err, errlen, "initial velocity: mass_q or kinetic failed");
    vi_ida_free(I);
    return VI_ECALLBACK;
  }
  for (int i = 0; i < n; i++) {
    double f = -c->dV[i] + (c->cm ? c->dT[i] : 0);
    for (int k = 0; k < m; k++) {
      f -= c->G[k * n + i] * c->lam[k];
    }
    yp[i] = c->v[i];
    yp[n + i] = f;
  }
  if (form == VI_IDA_GGL) {
    memcpy(y + 2 * n, c->lam, (size_t)m * sizeof *y);
  }
  double *id = N_VGetArrayPointer(I->id);
  for (int i = 0; i < N; i++) {
    id[i] = i < 2 * n ? 1.0 : 0.0;
  }
  *out = I;
  return VI_OK;
}


/* Hand output node k to the observer: q, p and lambda (GGL: its own
 * multiplier; index 1: wenger2017 (70) at (q, p)). */
static int ida_emit(vi_ida *I, long k, double t, vi_observer_d obs, void *ctx) {
  const int n = I->dae.n, m = I->dae.m;
  const double *y = N_VGetArrayPointer(I->y);
  double *q = I->node, *p = q + n, *lam = p + n;
  memcpy(q, y, 2 * (size_t)n * sizeof *q);
  if (I->dae.form == VI_IDA_GGL) {
    memcpy(lam, y + 2 * n, (size_t)m * sizeof *lam);
  } else if (vi_system_lambda_d(I->dae.sys, q, p, lam) != VI_OK) {
    for (int i = 0; i < m; i++) {
      lam[i] = NAN;
    }
  }
  vi_node_d nd = {t, q, p, lam, NULL, NULL};
  return obs ? obs(ctx, k, &nd) : VI_OK;
}

int vi_ida_run(vi_ida *I, double tol, double T, long N, vi_observer_d obs, void *ctx,
               vi_ida_stats *st, char *err, size_t errlen) {
  const int ggl = I->dae.form == VI_IDA_GGL;
  memset(st, 0, sizeof *st);
  memcpy(N_VGetArrayPointer(I->y), I->y0, (size_t)I->N * sizeof *I->y0);
  memcpy(N_VGetArrayPointer(I->yp), I->yp0, (size_t)I->N * sizeof *I->yp0);
  I->dae.msg[0] = 0;
  void *mem = IDACreate(I->ctx);
  int rc = mem ? IDASetErrHandlerFn(mem, ida_errh, &I->dae) : IDA_MEM_NULL;
  rc = rc ? rc : IDAInit(mem, ida_res, 0.0, I->y, I->yp);
  rc = rc ? rc : IDASetUserData(mem, &I->dae);
  rc = rc ? rc : IDASStolerances(mem, tol, tol);
  rc = rc ? rc : IDASetMaxNumSteps(mem, 1000000);
  rc = rc ? rc : IDASetLinearSolver(mem, I->LS, I->A);
  if (ggl) {
    /* The multipliers are index-2 variables: out of the error test (as in
     * SUNDIALS' idaSlCrank_dns). IDA's own first step is about tol / |y'|;
     * at that size the round-off of the multipliers' Newton updates, which
     * grows like 1/h, exceeds a tight tolerance and IDA gives up at t = 0
     * (IDA_CONV_FAIL from rtol = 1e-8 on), so the first step is set to
     * VI_IDA_H0; IDA still shrinks it when its error test asks. */
    rc = rc ? rc : IDASetId(mem, I->id);
    rc = rc ? rc : IDASetSuppressAlg(mem, SUNTRUE);
    /* The analytic Jacobian assumes a constant mass matrix; with M(q) IDA
     * forms its own by difference quotients. */
    rc = rc ? rc : (I->dae.cm ? 0 : IDASetJacFn(mem, ida_ggl_jac));
    rc = rc ? rc : IDASetInitStep(mem, VI_IDA_H0);
  }
  int orc = rc == 0 ? ida_emit(I, 0, 0.0, obs, ctx) : VI_OK;
  for (long j = 1; rc == 0 && orc == VI_OK && j <= N; j++) {
    sunrealtype tret = 0;
    rc = IDASolve(mem, T * (double)j / (double)N, &tret, I->y, I->yp, IDA_NORMAL);
    if (rc >= 0) {
      rc = 0;
      orc = ida_emit(I, j, (double)tret, obs, ctx);
    }
  }
  if (mem) {
    long v = 0;
    IDAGetNumSteps(mem, &v);
    st->steps = v;
    IDAGetNumResEvals(mem, &v);
    st->fevals = v;
    /* The residual evaluations of difference-quotient Jacobians (index-1
     * form and M(q); none for GGL with constant M, whose Jacobian is
     * analytic). */
    IDAGetNumLinResEvals(mem, &v);
    st->fevals += v;
    IDAGetNumJacEvals(mem, &v);
    st->jevals = v;
    IDAGetNumNonlinSolvIters(mem, &v);
    st->newton = v;
    IDAGetNumLinSolvSetups(mem, &v);
    st->lsetups = v;
    IDAGetNumErrTestFails(mem, &v);
    st->etfails = v;
    IDAGetNumNonlinSolvConvFails(mem, &v);
    st->ncfails = v;
  }
  if (rc != 0) {
    vi_set_err(err, errlen, "IDA: %s%s%.100s", mem ? IDAGetReturnFlagName(rc) : "IDACreate",
               I->dae.msg[0] ? ": " : "", I->dae.msg);
  }
  IDAFree(&mem);
  if (rc == 0 && orc != VI_OK) {
    vi_set_err(err, errlen, "the observer stopped the run (%s)", vi_strerror(orc));
    return orc;
  }
  return rc;
}
