/* order.c: order studies in the working precision (prec.h): run a method
 * for a list of step sizes to a final time T and measure the global errors
 * e_x = max_k |x_k - x_ref(t_k)|_inf of q, p and lambda separately
 * (wenger2017 §4.1), plus the relative energy error, against a reference
 * that never comes from the method under test (core/reference.c). The
 * order fit itself is core/fit.c. */
#include "prec.h"
#include "numerics_tmpl.h"
#include "api_tmpl.h"
#include "fit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One run with N steps of h = T/N; fills slot i of res. Returns a status
 * of the reference (fatal for the study) or VI_OK; a failing method run
 * is recorded in res->status[i] with NaN errors. */
static int VI_X(order_run)(const VI_X(vi_system) *sys, const vi_order_config *a,
                           const VI_X(vi_solver_opts) *so, VI_REAL T, long N,
                           vi_order_result *res, int i, VI_REAL *scale,
                           char *err, size_t errlen) {
  const int n = sys->n, m = sys->ml;
  const VI_REAL h = T / (VI_REAL)N;
  /* The energy error needs no reference: H_0 is exact (man2020 (46)). */
  const int state = !a->energy_only;
  VI_REAL *Q = state ? malloc((size_t)(N + 1) * (size_t)(2 * n + m) * sizeof *Q) : NULL;
  VI_REAL *node = malloc((size_t)(2 * n + m) * sizeof *node);
  VI_X(vi_stepper) *st = NULL;
  int rc = VI_OK;
  if ((state && !Q) || !node) {
    snprintf(err, errlen, "out of memory");
    rc = VI_ENOMEM;
    goto done;
  }
  VI_REAL *P = state ? Q + (size_t)(N + 1) * n : NULL;
  VI_REAL *L = state ? P + (size_t)(N + 1) * n : NULL;
  VI_X(vi_reference_info) info;
  if (!state) {
    snprintf(res->reference, sizeof res->reference,
             "none (energy error only: H_0 from the initial data)");
  } else {
    rc = VI_X(vi_reference)(sys, h, N, Q, P, L, a->cache_dir, &info, err, errlen);
    if (rc != VI_OK) {
      goto done;
    }
    snprintf(res->reference, sizeof res->reference, "%s", info.method);
    if (info.note[0]) {
      snprintf(res->note, sizeof res->note, "%s", info.note);
    }
    if (info.accuracy > res->ref_accuracy) {
      res->ref_accuracy = info.accuracy;
    }
  }
  for (long k = 0; state && k <= N; k++) {
    for (int c = 0; c < n; c++) {
      VI_REAL aq = vi_fabs(Q[k * n + c]), ap = vi_fabs(P[k * n + c]);
      scale[VI_Q] = aq > scale[VI_Q] ? aq : scale[VI_Q];
      scale[VI_P] = ap > scale[VI_P] ? ap : scale[VI_P];
    }
    for (int c = 0; c < m; c++) {
      VI_REAL al = vi_fabs(L[k * m + c]);
      scale[VI_LAMBDA] = al > scale[VI_LAMBDA] ? al : scale[VI_LAMBDA];
    }
  }
  char msg[512];
  rc = VI_X(vi_stepper_alloc)(a->method, sys, &st, msg, sizeof msg);
  if (rc != VI_OK) {
    snprintf(err, errlen, "%s", msg);
    goto done;
  }
  VI_X(vi_node) nd = {0, node, node + n, node + 2 * n};
  VI_X(vi_err_obs) ob;
  VI_X(vi_err_obs_init)(&ob, sys, state ? Q : NULL, P, L, 1);
  double t0 = a->clock ? a->clock() : 0;
  int mrc = VI_X(vi_integrate)(st, so, h, N, sys->q0, sys->p0, &nd, VI_X(vi_err_observe), &ob,
                               NULL);
  VI_REAL *e = ob.e, eE = ob.eE;
  res->seconds[i] = a->clock ? a->clock() - t0 : NAN;
  res->h[i] = (double)h;
  res->steps[i] = N;
  res->status[i] = mrc;
  const VI_X(vi_stats) *stt = VI_X(vi_stepper_stats)(st);
  res->newton_per_step[i] = stt->steps ? (double)stt->newton_iters / (double)stt->steps : 0;
  res->unknowns = stt->unknowns ? stt->unknowns : res->unknowns;
  for (int x = 0; x < VI_NQUANT; x++) {
    res->err[x][i] = mrc == VI_OK && state ? (double)e[x] : NAN;
  }
  res->energy_err[i] = mrc == VI_OK ? (double)eE : NAN;
  VI_X(vi_stepper_spec)(st, res->method, sizeof res->method);
  if (a->progress) {
    a->progress(a->progress_ctx, res, i);
  }
done:
  VI_X(vi_stepper_free)(st);
  free(Q);
  free(node);
  return rc;
}

/* Insert-sort the runs by decreasing h. */
static void VI_X(order_sort)(vi_order_result *r) {
  for (int i = 1; i < r->nh; i++) {
    for (int j = i; j > 0 && r->h[j] > r->h[j - 1]; j--) {
#define SWAP(arr)                 \
  do {                            \
    __typeof__(arr[0]) t_ = arr[j]; \
    arr[j] = arr[j - 1];          \
    arr[j - 1] = t_;              \
  } while (0)
      SWAP(r->h);
      SWAP(r->steps);
      SWAP(r->err[0]);
      SWAP(r->err[1]);
      SWAP(r->err[2]);
      SWAP(r->energy_err);
      SWAP(r->newton_per_step);
      SWAP(r->seconds);
      SWAP(r->status);
#undef SWAP
    }
  }
}

int VI_X(vi_order_study)(const vi_order_config *oa, vi_order_result *res, char *err,
                         size_t errlen) {
  memset(res, 0, sizeof *res);
  const VI_X(vi_system_type) *type = VI_X(vi_system_find)(oa->system, err, errlen);
  if (!type) {
    return VI_EINVAL;
  }
  VI_X(vi_system) *sys = NULL;
  int rc = VI_X(vi_system_alloc)(type, oa->nset, oa->set, &sys, err, errlen);
  if (rc != VI_OK) {
    return rc;
  }
  VI_REAL T = oa->T != 0 ? (VI_REAL)oa->T : 1;
  if (!(T > 0) || !vi_isfinite(T)) {
    snprintf(err, errlen, "final time T = %g must be a positive number", (double)T);
    rc = VI_EINVAL;
    goto out;
  }
  /* Validate the method spec once, up front. */
  {
    VI_X(vi_stepper) *probe = NULL;
    if ((rc = VI_X(vi_stepper_alloc)(oa->method, sys, &probe, err, errlen)) != VI_OK) {
      goto out;
    }
    VI_X(vi_stepper_spec)(probe, res->method, sizeof res->method);
    VI_X(vi_stepper_free)(probe);
  }
  VI_X(vi_solver_opts) so;
  if ((rc = VI_X(vi_solver_opts_from)(&oa->solver, &so, err, errlen)) != VI_OK) {
    goto out;
  }
  const long *Ns = oa->N;
  const int nN = oa->nN;
  if (nN < 0 || nN > VI_ORDER_MAXH) {
    snprintf(err, errlen, "an order study takes 0 (automatic) to %d runs, not %d",
             VI_ORDER_MAXH, nN);
    rc = VI_EINVAL;
    goto out;
  }
  for (int i = 0; i < nN; i++) {
    if (Ns[i] < 1) {
      snprintf(err, errlen, "run %d has %ld steps; every run needs at least one", i + 1,
               Ns[i]);
      rc = VI_EINVAL;
      goto out;
    }
  }
  snprintf(res->system, sizeof res->system, "%s", type->info->name);
  snprintf(res->precision, sizeof res->precision, "%s", VI_PREC_NAME);
  res->T = (double)T;
  res->measure = oa->energy_only ? VI_MEASURE_ENERGY : oa->measure;
  {
    int k = 0, pi = 0;
    for (const vi_param *p = type->info->params; p->name && pi < 32; p++, pi++) {
      snprintf(res->param_names[pi], sizeof res->param_names[pi], "%s", p->name);
      res->param_count[pi] = p->count;
      for (int c = 0; c < p->count && k < 64; c++, k++) {
        res->params[k] = (double)sys->par[k];
      }
    }
    res->nparams = pi;
  }
  res->started = 1;
  VI_REAL scale[VI_NQUANT] = {1, 1, 1};
  if (oa->progress) {
    oa->progress(oa->progress_ctx, res, -1);
  }
  /* Round-off floor of each quantity: a few hundred eps of its size, or the
   * reference's own accuracy if that is worse. */
#define FLOORS()                                                           \
  for (int x = 0; x < VI_NQUANT; x++) {                                    \
    double fl = 100 * (double)VI_EPS * (double)(scale[x] > 1 ? scale[x] : 1); \
    res->floor[x] = fl > res->ref_accuracy ? fl : res->ref_accuracy;       \
  }                                                                        \
  res->energy_floor = 100 * (double)VI_EPS;
  if (nN > 0) {
    for (int i = 0; i < nN; i++) {
      if ((rc = VI_X(order_run)(sys, oa, &so, T, Ns[i], res, res->nh, scale, err, errlen))) {
        goto out;
      }
      res->nh++;
    }
    FLOORS();
  } else {
    /* Automatic, driven by the q error or (measure energy) the energy
     * error: N0 ~ T/0.1, refine by halving h while the q error is well
     * above the floor (1e4 floor: below that, round-off accumulated over
     * the steps starts to show), then add coarser steps until four q errors
     * are above 10 floor. */
    const int energy = oa->measure == VI_MEASURE_ENERGY || oa->energy_only;
    long N0 = (long)vi_floor(T / VI_C(0.1) + VI_C(0.5));
    N0 = N0 < 2 ? 2 : N0;
    const long Nmax = 1L << 16;
    long N = N0;
    while (res->nh < 8 && N <= Nmax) {
      if ((rc = VI_X(order_run)(sys, oa, &so, T, N, res, res->nh, scale, err, errlen))) {
        goto out;
      }
      FLOORS();
      double eq = energy ? res->energy_err[res->nh] : res->err[VI_Q][res->nh];
      double fq = energy ? res->energy_floor : res->floor[VI_Q];
      res->nh++;
      /* The energy error is not accumulated like the global q error: it
       * stays resolvable down to a hundred times its floor. */
      if (!isfinite(eq) || eq <= (energy ? 1e2 : 1e4) * fq) {
        break;
      }
      /* Energy studies (quad, up to 54 unknowns per step) stop refining as
       * soon as the four finest errors lie on a straight line (rms
       * residual <= 0.05 in log10 e): the asymptotic range is reached and
       * finer steps would only cost time. */
      if (energy && res->nh >= 4) {
        vi_fit f = vi_fit_order(4, res->h + res->nh - 4, res->energy_err + res->nh - 4, fq,
                                10.0);
        if (f.status == VI_FIT_OK && f.lo == 0 && f.hi == 3 && f.residual <= 0.05) {
          break;
        }
      }
      /* Orders up to 16 leave only a few halvings between truncation and
       * round-off in quad: energy studies refine by 3/2 instead of 2. */
      N = energy ? (3 * N + 1) / 2 : 2 * N;
    }
    for (N = N0 / 2; N >= 1 && res->nh < VI_ORDER_MAXH; N /= 2) {
      int usable = 0;
      for (int i = 0; i < res->nh; i++) {
        double ei = energy ? res->energy_err[i] : res->err[VI_Q][i];
        double fi = energy ? res->energy_floor : res->floor[VI_Q];
        usable += isfinite(ei) && ei > 10 * fi;
      }
      if (usable >= 4) {
        break;
      }
      if ((rc = VI_X(order_run)(sys, oa, &so, T, N, res, res->nh, scale, err, errlen))) {
        goto out;
      }
      FLOORS();
      res->nh++;
    }
  }
#undef FLOORS
  VI_X(order_sort)(res);
  rc = VI_OK;
out:
  VI_X(vi_system_free)(sys);
  return rc;
}
