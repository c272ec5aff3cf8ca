/* workprec.c: `vistudy reproduce workprec-double-pendulum`, a
 * work-precision study of the constrained Galerkin variational integrators
 * (wenger2017 (11)-(22)) against SUNDIALS IDA (issue 5, item 4).
 *
 * System: the 3D double pendulum (wenger2017 §4, (69)) with its default
 * parameters, T = 10. Accuracy is the global q error
 *   e_q = max_k |q_k - q_ref(t_k)|_inf
 * (wenger2017 §4.1); cost is the run time (CPU time of the pinned thread,
 * minimum over repetitions, reference excluded; wall time beside it) and
 * the number of residual evaluations.
 *
 * Galerkin: s = w = 1..6 with Gauss r = s and Lobatto r = s + 1 Lagrangian
 * quadrature (ordL = 2s in both), built-in Newton at its default tolerance,
 * over a ladder of h = T/N.
 *
 * IDA (variable-order BDF, orders 1-5; Brenan, Campbell & Petzold 1996),
 * dense direct solver, rtol = atol swept, output at the fixed grid
 * t_j = j h_out by IDA's interpolation (IDA_NORMAL to each t_j), on two
 * formulations:
 * - GGL, the stabilised index-2 form of Gear, Gupta & Leimkuhler (1985),
 *   y = (q, p, lambda, mu):
 *     q' = M^-1 p + G(q)' mu,  p' = -grad V(q) - G(q)' lambda,
 *     0 = g(q),  0 = G(q) M^-1 p,
 *   the form SUNDIALS' own multibody example uses (idaSlCrank_dns): q and p
 *   stay on both constraint manifolds at every step, and the Jacobian needs
 *   only the derivatives the Galerkin method uses (Hess V, sum_k mu_k
 *   Hess g_k), so it is analytic. The multipliers are index-2 variables,
 *   left out of the local error test (IDASetSuppressAlg) as in that example.
 * - index 1: q' = M^-1 p, p' = -grad V - G' lambda(q, p) with lambda from
 *   wenger2017 (70) (vi_system_lambda), an ODE in IDA's DAE form with IDA's
 *   difference-quotient Jacobian; it drifts off g = 0 but is the cheaper of
 *   the two here, so the speedups are taken against the cheaper one at
 *   each error level.
 *
 * Reference: vi_reference on one grid of WP_NREF nodes; every step count of
 * the Galerkin ladder divides WP_NREF or is a multiple of it, so the error
 * is measured at every node (N <= WP_NREF) or at every reference node
 * (N > WP_NREF). The double reference (rk8pd) is estimated at 1e-10 and
 * differs from the quad one by about 2e-12 in q, not well below the
 * smallest errors here (about 3e-12), so the full study uses the quad
 * reference (8-stage Gauss IRK, about 1e-30; about 12 s once, then cached),
 * rounded to double; --quick uses the double one and stops its sweeps at
 * q errors of 1e-7. */
#include "machine.h"
#include "plot.h"
#include "report.h"
#include "reproduce.h"
#include "study.h"
#include "vistudy.h"

#include "baselines/ida.h"

#include <sundials/sundials_config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define WP_SYSTEM "double-pendulum-3d"
#define WP_T 10.0
/* Reference grid h = T / 9600: divisible by every coarse step count of the
 * ladder below (9600 = 2^7 3 5^2). */
#define WP_NREF 9600L
/* IDA output grid h_out = T / 400 = 0.025 (divides WP_NREF). Denser output
 * would add IDA's per-call overhead (one IDASolve per output) to its time
 * at loose tolerances without changing the measured maximum noticeably. */
#define WP_NOUT 400L
/* Error levels of the speedup tables. */
#define WP_NLEVELS 3
static const double wp_levels[WP_NLEVELS] = {1e-6, 1e-8, 1e-10};
static const char *const wp_level_names[WP_NLEVELS] = {"1e-6", "1e-8", "1e-10"};

/* Step counts N (h = T/N): ratios 1.25-2, each a divisor or a multiple of
 * WP_NREF. */
static const long wp_ladder[] = {20,    30,    40,     60,     80,     120,   160,
                                 240,   320,   480,    640,    960,    1200,  1600,
                                 2400,  3200,  4800,   9600,   19200,  28800, 38400,
                                 57600, 76800, 115200, 153600, 230400, 307200};
#define WP_NLADDER (int)(sizeof wp_ladder / sizeof wp_ladder[0])


#define WP_MAXPTS 512
#define WP_MAXCURVES 16

enum { WP_GALERKIN = 0, WP_IDA = 1 };

/* One run: a Galerkin step size or an IDA tolerance. */
typedef struct wp_point {
  int family, curve;
  double h;          /* Galerkin step (0 for IDA) */
  double rtol, atol; /* IDA tolerances (0 for Galerkin) */
  long steps;
  double err;     /* global q error; NAN when the run failed */
  double gdrift;  /* max_k |g(q_k)|_inf at the same nodes */
  vi_timed tm;    /* CPU and wall time, minimum over the repetitions (timing.h) */
  long fevals;                    /* residual evaluations */
  long jevals;                    /* Jacobian evaluations */
  long newton;                    /* Newton iterations */
  long lsetups, etfails, ncfails; /* IDA only */
  int ok;
  char msg[160]; /* why a run failed */
} wp_point;

typedef struct wp_curve {
  int family;
  int form;         /* IDA: VI_IDA_GGL or VI_IDA_INDEX1 */
  char label[48];   /* e.g. "Gauss s=3" */
  char method[200]; /* canonical spec or IDA description */
  int s, lobatto;
} wp_curve;

/* What a study needs: the system, the reference at the WP_NREF grid and the
 * results. */
typedef struct wp_study {
  const reproduce_opts *o;
  vi_system_d *sys;
  int n, m;
  double *Qref; /* (WP_NREF + 1) x n */
  double *Qrun; /* (WP_NREF + 1) x n: q of one run at the measured nodes */
  double ref_accuracy;
  char ref_method[200];
  char ref_precision[8];
  int ref_cached;
  double dref_accuracy, dref_dev; /* double reference: estimate, deviation from quad */
  char dref_method[200];
  wp_point pts[WP_MAXPTS];
  int npts;
  wp_curve curves[WP_MAXCURVES];
  int ncurves;
  double cap_seconds; /* a curve stops after a run slower than this */
  double stop_err;    /* ... or after an error below this */
  int max_points;     /* ... or after this many successful runs (0: no cap) */
} wp_study;

/* Repetitions of a run by its time (timing.h): 3, 5 below 50 ms, 7 below
 * 5 ms; more where they are cheap make the minimum robust on a shared
 * machine. */
static const vi_reps_policy wp_reps = {7, 5, 3};

/* P->err = max over the measured nodes of |q_k - q_ref(t_k)|_inf (nk + 1
 * nodes, stride reference nodes apart; NaN propagates) and P->gdrift =
 * max_k |g(q_k)|_inf; P->ok when both are finite. */
static void wp_error(const wp_study *S, long nk, long stride, wp_point *P) {
  double e = 0, gd = 0, g[16];
  for (long k = 0; k <= nk; k++) {
    const double *q = S->Qrun + k * S->n;
    for (int c = 0; c < S->n; c++) {
      double d = fabs(q[c] - S->Qref[k * stride * S->n + c]);
      if (!(d <= e)) {
        e = d;
      }
    }
    if (S->m > 16 || S->sys->type->holo->constraint(S->sys->state, q, g) != 0) {
      gd = NAN;
      continue;
    }
    for (int c = 0; c < S->m; c++) {
      if (!(fabs(g[c]) <= gd)) {
        gd = fabs(g[c]);
      }
    }
  }
  P->err = e;
  P->gdrift = gd;
  P->ok = isfinite(e) && isfinite(gd);
}

/* ---- reference --------------------------------------------------------- */

static int wp_reference(wp_study *S, char *err, size_t errlen) {
  const long K = WP_NREF;
  const size_t rows = (size_t)(K + 1);
  const int n = S->n, m = S->m;
  double *W = malloc(rows * (size_t)(2 * n + m) * sizeof *W);
  if (!W) {
    vi_set_err(err, errlen, "out of memory");
    return -1;
  }
  vi_reference_info_d dinfo;
  int rc = vi_reference_d(S->sys, WP_T / (double)K, K, W, W + rows * n, W + rows * 2 * n,
                          S->o->cache_dir, &dinfo, err, errlen);
  if (rc != VI_OK) {
    free(W);
    return -1;
  }
  S->dref_accuracy = dinfo.accuracy;
  snprintf(S->dref_method, sizeof S->dref_method, "%s", dinfo.method);
  if (S->o->quick) {
    memcpy(S->Qref, W, rows * n * sizeof *W);
    S->ref_accuracy = dinfo.accuracy;
    S->ref_cached = dinfo.cached;
    S->dref_dev = 0;
    snprintf(S->ref_method, sizeof S->ref_method, "%s", dinfo.method);
    snprintf(S->ref_precision, sizeof S->ref_precision, "double");
    free(W);
    return 0;
  }
  /* Quad: the same system and initial data, projected onto the constraints
   * in quad, then rounded. */
  const vi_system_type_q *tq = vi_system_find_q(WP_SYSTEM, err, errlen);
  vi_system_q *sq = NULL;
  __float128 *Wq = malloc(rows * (size_t)(2 * n + m) * sizeof *Wq);
  rc = !tq || !Wq ? VI_ENOMEM : vi_system_alloc_q(tq, 0, NULL, &sq, err, errlen);
  vi_reference_info_q qinfo;
  if (rc == VI_OK) {
    rc = vi_reference_q(sq, (__float128)WP_T / (__float128)K, K, Wq, Wq + rows * n,
                        Wq + rows * 2 * n, S->o->cache_dir, &qinfo, err, errlen);
  }
  if (rc == VI_OK) {
    double dev = 0;
    for (size_t i = 0; i < rows * n; i++) {
      S->Qref[i] = (double)Wq[i];
      double d = fabs(S->Qref[i] - W[i]);
      dev = d > dev || d != d ? d : dev;
    }
    S->dref_dev = dev;
    /* The stored doubles carry their own rounding, half an ulp of |q| <= 2. */
    S->ref_accuracy = qinfo.accuracy > 2.3e-16 ? qinfo.accuracy : 2.3e-16;
    S->ref_cached = qinfo.cached;
    snprintf(S->ref_method, sizeof S->ref_method, "%s, rounded to double", qinfo.method);
    snprintf(S->ref_precision, sizeof S->ref_precision, "quad");
  } else if (rc == VI_ENOMEM && err && !err[0]) {
    vi_set_err(err, errlen, "out of memory");
  }
  vi_system_free_q(sq);
  free(Wq);
  free(W);
  return rc == VI_OK ? 0 : -1;
}

/* ---- Galerkin ----------------------------------------------------------- */

/* One run of N steps; q stored at the measured nodes. Returns the method's
 * status; *sec the time of init + steps. */
typedef struct wp_copy {
  wp_study *S;
  long every;
} wp_copy;

/* Every every-th node's q into Qrun (the observer of the timed runs). */
static int wp_copy_node(void *ctx, long k, const vi_node_d *nd) {
  wp_copy *c = ctx;
  if (k % c->every == 0) {
    memcpy(c->S->Qrun + (k / c->every) * c->S->n, nd->q, (size_t)c->S->n * sizeof *nd->q);
  }
  return VI_OK;
}

static int wp_galerkin_once(wp_study *S, vi_stepper_d *st, long N, vi_time *tm) {
  const int n = S->n;
  double node[64]; /* 2n + m reals; wp_galerkin_point checks the size */
  vi_node_d nd = {0, node, node + n, node + 2 * n};
  vi_solver_opts_d so;
  vi_solver_opts_default_d(&so);
  const double h = WP_T / (double)N;
  /* Nodes per measured node: 1 up to the reference grid, N / WP_NREF above. */
  wp_copy c = {S, N > WP_NREF ? N / WP_NREF : 1};
  vi_time_start(tm);
  int rc = vi_integrate_d(st, &so, h, N, S->sys->q0, S->sys->p0, &nd, wp_copy_node, &c, NULL);
  vi_time_stop(tm);
  return rc;
}

/* Run one configuration at step count N (repetitions, error, counts) into
 * a new point. Returns the point, or NULL when the table is full. */
static wp_point *wp_galerkin_point(wp_study *S, int curve, long N, char *err,
                                   size_t errlen) {
  if (S->npts >= WP_MAXPTS) {
    return NULL;
  }
  wp_point *P = &S->pts[S->npts++];
  memset(P, 0, sizeof *P);
  P->family = WP_GALERKIN;
  P->curve = curve;
  P->h = WP_T / (double)N;
  P->steps = N;
  P->err = NAN;
  vi_stepper_d *st = NULL;
  if (2 * S->n + S->m > 64) {
    snprintf(P->msg, sizeof P->msg, "system too large for the node buffer");
    return P;
  }
  if (vi_stepper_alloc_d(S->curves[curve].method, S->sys, &st, err, errlen) != VI_OK) {
    snprintf(P->msg, sizeof P->msg, "%s", err);
    return P;
  }
  vi_time tm;
  int rc = wp_galerkin_once(S, st, N, &tm);
  const vi_stats_d *stats = vi_stepper_stats_d(st);
  P->fevals = stats->fevals;
  P->jevals = stats->jevals;
  P->newton = stats->newton_iters;
  vi_timed_first(&P->tm, &tm);
  if (rc != VI_OK) {
    snprintf(P->msg, sizeof P->msg, "%s", vi_strerror(rc));
    vi_stepper_free_d(st);
    return P;
  }
  const long nk = N < WP_NREF ? N : WP_NREF;
  wp_error(S, nk, WP_NREF / nk, P);
  vi_stepper_free_d(st);
  return P;
}

/* Successful runs of a curve so far. */
static int wp_curve_points(const wp_study *S, int curve) {
  int k = 0;
  for (int i = 0; i < S->npts; i++) {
    k += S->pts[i].curve == curve && S->pts[i].ok;
  }
  return k;
}

/* Sweep h down the ladder until the error is below stop_err, stalls at the
 * round-off/reference floor, a run takes longer than cap_seconds, or the
 * curve has max_points successful runs. */
static int wp_galerkin_sweep(wp_study *S, int curve, char *err, size_t errlen) {
  double best = INFINITY;
  int fails = 0, any = 0;
  for (int i = 0; i < WP_NLADDER; i++) {
    wp_point *P = wp_galerkin_point(S, curve, wp_ladder[i], err, errlen);
    if (!P) {
      vi_set_err(err, errlen, "too many points");
      return -1;
    }
    if (S->o->progress) {
      fprintf(stderr,
              "workprec: %-12s h = %-10.4g e_q = %-9.3g %8.4f s  %ld res evals%s%s\n",
              S->curves[curve].label, P->h, P->err, P->tm.seconds, P->fevals,
              P->ok ? "" : "  ", P->msg);
    }
    if (!P->ok) {
      /* Newton may not converge at coarse steps (h >= 0.1 for s = 1):
       * keep refining down to h = T/480 before any success, give up after
       * three failures in a row after one. */
      if ((any && ++fails >= 3) || (!any && wp_ladder[i] >= 480)) {
        break;
      }
      continue;
    }
    any = 1;
    fails = 0;
    int plateau = best < 1e-9 && P->err > 0.5 * best;
    best = P->err < best ? P->err : best;
    if (P->err < S->stop_err || plateau || P->tm.seconds > S->cap_seconds ||
        (S->max_points > 0 && wp_curve_points(S, curve) >= S->max_points)) {
      break;
    }
  }
  return 0;
}

/* ---- IDA (studies/baselines/ida.h), through the same copy observer -------- */

/* One IDA run at rtol = atol = tol to T with output at t_j = j T / WP_NOUT;
 * IDACreate, IDAInit and the options are inside the timing, the vectors
 * and the dense solver are reused. */
static int wp_ida_once(wp_study *S, vi_ida *I, double tol, wp_point *P, vi_time *tm) {
  wp_copy cp = {S, 1};
  vi_ida_stats st;
  char err[256] = "";
  vi_time_start(tm);
  int rc = vi_ida_run(I, tol, WP_T, WP_NOUT, wp_copy_node, &cp, &st, err, sizeof err);
  vi_time_stop(tm);
  P->steps = st.steps;
  P->fevals = st.fevals;
  P->jevals = st.jevals;
  P->newton = st.newton;
  P->lsetups = st.lsetups;
  P->etfails = st.etfails;
  P->ncfails = st.ncfails;
  if (rc != 0) {
    snprintf(P->msg, sizeof P->msg, "%.150s", err);
  }
  return rc;
}

static int wp_ida_sweep(wp_study *S, int curve, vi_ida *I) {
  /* rtol = atol = 10^(-k/2) from 1e-3 to 1e-15: half decades resolve the
   * curve about as finely as the Galerkin ladder does, and IDA's global
   * error stays far above its tolerance (by 1e2-1e5 here), so the sweep
   * goes almost to round-off. */
  double best = INFINITY;
  const int kmax = S->o->quick ? 10 : 30;
  for (int k = 6; k <= kmax; k += S->o->quick ? 2 : 1) {
    if (S->npts >= WP_MAXPTS) {
      break;
    }
    double tol = pow(10.0, -0.5 * k);
    wp_point *P = &S->pts[S->npts++];
    memset(P, 0, sizeof *P);
    P->family = WP_IDA;
    P->curve = curve;
    P->rtol = P->atol = tol;
    P->err = NAN;
    vi_time tm;
    int rc = wp_ida_once(S, I, tol, P, &tm);
    vi_timed_first(&P->tm, &tm);
    if (rc == 0) {
      wp_error(S, WP_NOUT, WP_NREF / WP_NOUT, P);
    }
    if (S->o->progress) {
      fprintf(stderr,
              "workprec: %-12s tol = %-8.2g e_q = %-9.3g %8.4f s  %ld res evals%s%s\n",
              S->curves[curve].label, tol, P->err, P->tm.seconds, P->fevals,
              P->ok ? "" : "  ", P->msg);
    }
    if (!P->ok) {
      break;
    }
    int plateau = best < 1e-9 && P->err > 0.5 * best;
    best = P->err < best ? P->err : best;
    if (P->err < S->stop_err || plateau || P->tm.seconds > 4 * S->cap_seconds ||
        (S->max_points > 0 && wp_curve_points(S, curve) >= S->max_points)) {
      break;
    }
  }
  return 0;
}

/* A later repetition of a timed run (vi_repeat_in_passes). */
typedef struct wp_again {
  wp_study *S;
  vi_ida **ida;
} wp_again;

static vi_timed *wp_timed(void *ctx, int i) {
  wp_point *P = &((wp_again *)ctx)->S->pts[i];
  return P->ok ? &P->tm : NULL;
}

static int wp_run_again(void *ctx, int i, vi_time *tm) {
  wp_again *a = ctx;
  wp_study *S = a->S;
  wp_point *P = &S->pts[i];
  int rc = -1;
  if (P->family == WP_IDA) {
    wp_point tmp;
    rc = wp_ida_once(S, a->ida[S->curves[P->curve].form], P->rtol, &tmp, tm);
  } else {
    vi_stepper_d *st = NULL;
    char err[256];
    if (vi_stepper_alloc_d(S->curves[P->curve].method, S->sys, &st, err, sizeof err) ==
        VI_OK) {
      rc = wp_galerkin_once(S, st, P->steps, tm);
    }
    vi_stepper_free_d(st);
  }
  return rc == 0 ? 0 : -1;
}

/* ---- analysis ------------------------------------------------------------ */

/* The cost measures: 0 CPU seconds, 1 residual evaluations, 2 wall seconds. */
static double wp_cost(const wp_point *P, int evals) {
  return evals == 1 ? (double)P->fevals : evals == 2 ? P->tm.wall : P->tm.seconds;
}

/* Cost of a curve at error E: log-log linear interpolation between the
 * first pair of consecutive successful points (in sweep order: h
 * decreasing, tolerance tightening) whose errors bracket E. NAN with the
 * reason in why when the curve does not reach E or starts below it. */
static double wp_interp(const wp_study *S, int curve, double E, int evals, char *why,
                        size_t wl) {
  const wp_point *prev = NULL;
  double lo = INFINITY, hi = 0;
  for (int i = 0; i < S->npts; i++) {
    const wp_point *P = &S->pts[i];
    if (P->curve != curve || !P->ok) {
      continue;
    }
    lo = P->err < lo ? P->err : lo;
    hi = P->err > hi ? P->err : hi;
    if (prev && prev->err >= E && P->err <= E) {
      double a = log(prev->err), b = log(P->err);
      double ca = log(wp_cost(prev, evals)), cb = log(wp_cost(P, evals));
      double f = b == a ? 0 : (log(E) - a) / (b - a);
      return exp(ca + f * (cb - ca));
    }
    prev = P;
  }
  if (hi == 0) {
    snprintf(why, wl, "no successful run");
  } else if (lo > E) {
    snprintf(why, wl, "reaches only %.2g", lo);
  } else {
    snprintf(why, wl, "already below at its cheapest point (%.2g)", hi);
  }
  return NAN;
}

typedef struct wp_speed {
  double value;       /* best IDA cost / best Galerkin cost, NAN if undefined */
  int best, ida_best; /* the cheapest curve of each family at E, -1 if none */
  double gal, ida;    /* their interpolated costs */
  char reason[300];
} wp_speed;

/* The cheapest curve of a family at error E (-1 if none reaches E); *cost
 * its cost, why the reason when none does. */
static int wp_best_at(const wp_study *S, int family, double E, int evals, double *cost,
                      char *why, size_t wl) {
  int best = -1;
  double reach = INFINITY;
  *cost = NAN;
  for (int c = 0; c < S->ncurves; c++) {
    if (S->curves[c].family != family) {
      continue;
    }
    char w[120];
    double v = wp_interp(S, c, E, evals, w, sizeof w);
    if (isfinite(v) && !(v >= *cost)) {
      *cost = v;
      best = c;
    }
    for (int i = 0; i < S->npts; i++) {
      if (S->pts[i].curve == c && S->pts[i].ok && S->pts[i].err < reach) {
        reach = S->pts[i].err;
      }
    }
  }
  if (best < 0) {
    snprintf(why, wl, "no %s curve reaches a q error of %.0e (smallest error %.2g)",
             family == WP_IDA ? "IDA" : "Galerkin", E, reach);
  }
  return best;
}

static void wp_speedup(const wp_study *S, double E, int evals, wp_speed *sp) {
  memset(sp, 0, sizeof *sp);
  sp->value = NAN;
  char wg[150] = "", wi[150] = "";
  sp->best = wp_best_at(S, WP_GALERKIN, E, evals, &sp->gal, wg, sizeof wg);
  sp->ida_best = wp_best_at(S, WP_IDA, E, evals, &sp->ida, wi, sizeof wi);
  if (sp->best >= 0 && sp->ida_best >= 0) {
    sp->value = sp->ida / sp->gal;
  } else {
    snprintf(sp->reason, sizeof sp->reason, "%s%s%s", wg, wg[0] && wi[0] ? "; " : "", wi);
  }
}

/* ---- outputs ------------------------------------------------------------- */

static json_t *wp_num(double v) {
  return isfinite(v) ? json_real(v) : json_null();
}

static json_t *wp_point_json(const wp_study *S, const wp_point *P) {
  const wp_curve *C = &S->curves[P->curve];
  json_t *j = json_object();
  json_object_set_new(j, "family", json_string(P->family == WP_IDA ? "ida" : "galerkin"));
  json_object_set_new(j, "config", json_string(C->label));
  json_object_set_new(j, "method", json_string(C->method));
  json_object_set_new(j, "h", P->family == WP_GALERKIN ? json_real(P->h) : json_null());
  json_object_set_new(j, "rtol", P->family == WP_IDA ? json_real(P->rtol) : json_null());
  json_object_set_new(j, "atol", P->family == WP_IDA ? json_real(P->atol) : json_null());
  json_object_set_new(j, "steps", json_integer(P->steps));
  json_object_set_new(j, "error", wp_num(P->err));
  json_object_set_new(j, "g_drift", wp_num(P->gdrift));
  json_object_set_new(j, "seconds", wp_num(P->tm.seconds));
  json_object_set_new(j, "wall_seconds", wp_num(P->tm.wall));
  json_object_set_new(j, "repetitions", json_integer(P->tm.reps));
  json_object_set_new(j, "evals", json_integer(P->fevals));
  json_object_set_new(j, "jac_evals", json_integer(P->jevals));
  json_object_set_new(j, "newton_iters", json_integer(P->newton));
  if (P->family == WP_IDA) {
    json_object_set_new(j, "lin_setups", json_integer(P->lsetups));
    json_object_set_new(j, "err_test_fails", json_integer(P->etfails));
    json_object_set_new(j, "conv_fails", json_integer(P->ncfails));
  }
  json_object_set_new(j, "ok", json_boolean(P->ok));
  json_object_set_new(j, "status", json_string(P->ok ? "ok" : P->msg));
  return j;
}

static json_t *wp_speed_json(const wp_study *S, const wp_speed *sp, int evals) {
  json_t *j = json_object();
  json_object_set_new(j, "value", wp_num(sp->value));
  json_object_set_new(
      j, "best", sp->best >= 0 ? json_string(S->curves[sp->best].label) : json_null());
  json_object_set_new(j, "best_method",
                      sp->best >= 0 ? json_string(S->curves[sp->best].method)
                                    : json_null());
  json_object_set_new(j, "ida",
                      sp->ida_best >= 0 ? json_string(S->curves[sp->ida_best].label)
                                        : json_null());
  json_object_set_new(j, evals ? "galerkin_evals" : "galerkin_seconds", wp_num(sp->gal));
  json_object_set_new(j, evals ? "ida_evals" : "ida_seconds", wp_num(sp->ida));
  json_object_set_new(j, "reason", sp->reason[0] ? json_string(sp->reason) : json_null());
  return j;
}

static const char *const wp_colors[6] = {"#e41a1c", "#377eb8", "#4daf4a",
                                         "#984ea3", "#ff7f00", "#a65628"};

/* The gnuplot body: one datablock per curve (error, seconds, evals), so
 * the kept .gp script is self-contained; column ycol on the y axis. */
static char *wp_plot_body(const wp_study *S, int ycol, const char *ylabel,
                          const char *title) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f) {
    return NULL;
  }
  /* Curves without a successful run are left out (gnuplot warns on them). */
  int shown[WP_MAXCURVES], nshown = 0;
  for (int c = 0; c < S->ncurves; c++) {
    int np = 0;
    for (int i = 0; i < S->npts; i++) {
      const wp_point *P = &S->pts[i];
      if (P->curve == c && P->ok && P->err > 0) {
        if (np++ == 0) {
          fprintf(f, "$c%d << EOD\n", c);
        }
        fprintf(f, "%.6e %.6e %ld\n", P->err, P->tm.seconds, P->fevals);
      }
    }
    if (np > 0) {
      fprintf(f, "EOD\n");
      shown[nshown++] = c;
    }
  }
  fprintf(f,
          "set title \"%s\" noenhanced\n"
          "set logscale xy\n"
          "set format x '10^{%%L}'\nset format y '10^{%%L}'\n"
          "set xlabel 'global q error  max_k |q_k - q_{ref}(t_k)|_{inf}'\n"
          "set ylabel '%s'\n"
          "set grid xtics ytics mxtics mytics lc rgb '#dddddd'\n"
          "set key outside right top spacing 1.1\n"
          "plot ",
          title, ylabel);
  for (int k = 0; k < nshown; k++) {
    const int c = shown[k];
    const wp_curve *C = &S->curves[c];
    if (C->family == WP_IDA) {
      fprintf(f,
              "$c%d using 1:%d with linespoints lw 3 lc rgb '%s' pt %d ps 0.8 title '%s'",
              c, ycol, C->form == VI_IDA_GGL ? "black" : "#777777", C->form == VI_IDA_GGL ? 5 : 4,
              C->label);
    } else {
      fprintf(f,
              "$c%d using 1:%d with linespoints lw 1.5 lc rgb '%s' dt %d pt %d ps 0.7 "
              "title '%s'",
              c, ycol, wp_colors[(C->s - 1) % 6], C->lobatto ? 2 : 1, C->lobatto ? 9 : 7,
              C->label);
    }
    fprintf(f, "%s", k + 1 < nshown ? ", \\\n     " : "\n");
  }
  fclose(f);
  return buf;
}

static char *wp_csv(const wp_study *S) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f) {
    return NULL;
  }
  fprintf(f, "family,config,method,h,rtol,atol,steps,error,g_drift,seconds,wall_seconds,"
             "repetitions,evals,jac_evals,newton_iters,status\n");
  for (int i = 0; i < S->npts; i++) {
    const wp_point *P = &S->pts[i];
    const wp_curve *C = &S->curves[P->curve];
    fprintf(f, "%s,%s,\"%s\",", P->family == WP_IDA ? "ida" : "galerkin", C->label,
            C->method);
    if (P->family == WP_GALERKIN) {
      fprintf(f, "%.17g,,,", P->h);
    } else {
      fprintf(f, ",%.3g,%.3g,", P->rtol, P->atol);
    }
    fprintf(f, "%ld,%.6e,%.6e,%.6e,%.6e,%d,%ld,%ld,%ld,\"%s\"\n", P->steps, P->err,
            P->gdrift, P->tm.seconds, P->tm.wall, P->tm.reps, P->fevals, P->jevals, P->newton,
            P->ok ? "ok" : P->msg);
  }
  fclose(f);
  return buf;
}

static void wp_md_speed(FILE *f, const wp_study *S, const wp_speed *sp, int evals) {
  const char *u = evals ? "res. evals" : "time [s]";
  fprintf(f, "| q error | best Galerkin | its %s | best IDA | its %s | speedup |\n", u,
          u);
  fprintf(f, "|---|---|---|---|---|---|\n");
  for (int l = 0; l < WP_NLEVELS; l++) {
    const wp_speed *x = &sp[l];
    fprintf(f, "| %s | %s | ", wp_level_names[l],
            x->best >= 0 ? S->curves[x->best].label : "-");
    fprintf(f, isfinite(x->gal) ? "%.3g | " : "- | ", x->gal);
    fprintf(f, "%s | ", x->ida_best >= 0 ? S->curves[x->ida_best].label : "-");
    fprintf(f, isfinite(x->ida) ? "%.3g | " : "- | ", x->ida);
    if (isfinite(x->value)) {
      fprintf(f, "**%.1f** |\n", x->value);
    } else {
      fprintf(f, "n/a: %s |\n", x->reason);
    }
  }
  fputc('\n', f);
}

static char *wp_md(const wp_study *S, const char *id, const char *mline, int core,
                   const wp_speed *st, const wp_speed *se, const wp_speed *sw,
                   double total) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f) {
    return NULL;
  }
  fprintf(f, "# %s: Galerkin variational integrators vs SUNDIALS IDA\n\n", id);
  fprintf(
      f,
      "3D double pendulum (`%s`, default parameters, wenger2017 §4), T = %g. Accuracy: "
      "the global q error max_k |q_k - q_ref(t_k)|_inf; cost: run time and residual "
      "evaluations. Run time: CPU time of the thread, pinned to core %d, minimum of 3-7 "
      "repetitions spread over the study, setup included, reference excluded; the "
      "machine is shared, and the CPU time is what other processes do not inflate (the "
      "wall time, `wall_seconds` in the JSON, equals it on an idle machine).%s\n\n",
      WP_SYSTEM, WP_T, core,
      S->o->quick ? " **Quick run (reduced sweep, for tests).**" : "");
  fprintf(f, "- Machine: %s\n", mline);
  fprintf(
      f,
      "- SUNDIALS %s from Debian, which is built without optimisation: IDA's own "
      "vector and dense linear algebra run unoptimised, so its times are pessimistic; "
      "the evaluation counts beside them do not depend on the build.\n",
      SUNDIALS_VERSION);
  fprintf(
      f,
      "- Galerkin: `galerkin:s=w` with Gauss r = s and Lobatto r = s + 1 (ordL = 2s), "
      "built-in dense Newton (analytic Jacobian, tolerance 100 eps), h = T/N on a ladder "
      "of ratio 1.25-2, error at every node (every reference node for h < T/%ld). Each "
      "residual evaluation assembles the residual and the Jacobian of one step's system "
      "of s n + w m unknowns with r quadrature nodes.\n",
      WP_NREF);
  fprintf(
      f,
      "- IDA (variable-order BDF), two formulations, dense direct solver, rtol = atol "
      "swept in half decades, error at the output grid t_j = j %g (IDA_NORMAL to each "
      "t_j, IDA's interpolant):\n"
      "  - **GGL**: the stabilised index-2 form of Gear, Gupta & "
      "Leimkuhler, q' = M^-1 p + G'mu, p' = -grad V - G'lambda, 0 = g(q), 0 = G M^-1 p, "
      "%d unknowns, analytic Jacobian, lambda and mu out of the error test "
      "(IDASetSuppressAlg, as SUNDIALS' slider-crank example does), first step %g "
      "(IDA's own first step is so small that the multipliers' Newton round-off, which "
      "grows like 1/h, fails a tight tolerance at t = 0). Both constraints hold at every "
      "step, so nothing drifts (the interpolated outputs miss g = 0 by about the local "
      "error, `g_drift` in the tables, without growth): the formulation a DAE user picks "
      "first for a constrained mechanical system.\n"
      "  - **index 1**: q' = M^-1 p, p' = -grad V - G'lambda(q, p) with lambda from "
      "wenger2017 (70), %d unknowns, IDA's difference-quotient Jacobian (its residual "
      "evaluations are counted), every unknown in the error test; it drifts off g = 0 "
      "like any ODE form (`g_drift`), but is cheaper than GGL here at every tolerance.\n"
      "  - An IDA residual evaluation is the equations at one point; IDA reuses its "
      "Jacobian over many steps (modified Newton), so its Jacobian evaluations are "
      "few. The speedups compare with the cheaper IDA formulation at each level.\n",
      WP_T / (double)WP_NOUT, 2 * S->n + 2 * S->m, VI_IDA_H0, 2 * S->n);
  fprintf(f, "- Reference: %s, on the grid h = T/%ld; estimated accuracy %.1e (%s).",
          S->ref_method, WP_NREF, S->ref_accuracy, S->ref_cached ? "cached" : "computed");
  if (S->o->quick) {
    fprintf(f, " Quick runs stop their sweeps at q errors of 1e-7, far above it.\n\n");
  } else {
    fprintf(
        f,
        " The double reference (%s) is estimated at %.1e and differs from the quad one "
        "by %.1e in q: too close to the smallest errors here, hence the quad "
        "reference.\n\n",
        S->dref_method, S->dref_accuracy, S->dref_dev);
  }
  fprintf(f,
          "![error vs time](%s.svg)\n![error vs residual evaluations](%s-evals.svg)\n\n",
          id, id);
  fprintf(f, "## Speedup of the best Galerkin configuration over IDA, in time\n\n");
  wp_md_speed(f, S, st, 0);
  fprintf(f,
          "The same in wall-clock time (`speedup_wall`; other processes on the machine "
          "inflate it):");
  for (int l = 0; l < WP_NLEVELS; l++) {
    fprintf(f, isfinite(sw[l].value) ? " %s: %.1f" : " %s: n/a", wp_level_names[l],
            sw[l].value);
    fputc(l + 1 < WP_NLEVELS ? ',' : '.', f);
  }
  fprintf(f, "\n\n");
  fprintf(f, "## The same in residual evaluations\n\n");
  wp_md_speed(f, S, se, 1);
  fprintf(f, "Costs are interpolated linearly in log-log between the two runs of a curve "
             "that bracket the error level.\n\n");
  fprintf(
      f, "Gauss r = s and Lobatto r = s + 1 give the same integrator on this system: "
         "along q_d its Lagrangian is a polynomial of degree at most 2s - 1 (quadratic "
         "kinetic energy, linear potential), which both rules integrate exactly, so "
         "their errors and counts agree (the Lobatto curves lie "
         "under the Gauss ones in the evaluations plot) and only the time of the extra "
         "quadrature node differs.\n\n"
         "## Galerkin runs\n\n| configuration | h | steps | q error | g_drift | time [s] "
         "| res. evals | Newton it./step | status "
         "|\n|---|---|---|---|---|---|---|---|---|\n");
  for (int i = 0; i < S->npts; i++) {
    const wp_point *P = &S->pts[i];
    if (P->family == WP_GALERKIN && P->ok) {
      fprintf(f, "| %s | %.5g | %ld | %.3e | %.1e | %.3e | %ld | %.2f | ok |\n",
              S->curves[P->curve].label, P->h, P->steps, P->err, P->gdrift, P->tm.seconds,
              P->fevals, (double)P->newton / (double)P->steps);
    } else if (P->family == WP_GALERKIN) {
      fprintf(f, "| %s | %.5g | %ld | - | - | - | %ld | - | %s |\n",
              S->curves[P->curve].label, P->h, P->steps, P->fevals, P->msg);
    }
  }
  fprintf(f, "\n## IDA runs\n\n| formulation | rtol = atol | steps | q error | g_drift | "
             "time [s] | res. evals | Jacobian evals | Newton it. | error test fails | "
             "status |\n|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (int i = 0; i < S->npts; i++) {
    const wp_point *P = &S->pts[i];
    if (P->family == WP_IDA) {
      if (P->ok) {
        fprintf(f,
                "| %s | %.2g | %ld | %.3e | %.1e | %.3e | %ld | %ld | %ld | %ld | ok |\n",
                S->curves[P->curve].label, P->rtol, P->steps, P->err, P->gdrift,
                P->tm.seconds, P->fevals, P->jevals, P->newton, P->etfails);
      } else {
        fprintf(f, "| %s | %.2g | %ld | - | - | - | %ld | %ld | %ld | %ld | %s |\n",
                S->curves[P->curve].label, P->rtol, P->steps, P->fevals, P->jevals,
                P->newton, P->etfails, P->msg);
      }
    }
  }
  fprintf(f, "\nStudy run time %.1f s. Regenerate with `vistudy reproduce %s`.\n", total,
          id);
  fclose(f);
  return buf;
}

/* ---- driver ---------------------------------------------------------------- */

static void wp_add_curves(wp_study *S) {
  for (int s = 1; s <= 6; s++) {
    if (S->o->quick && s != 2 && s != 4) {
      continue;
    }
    for (int lob = 0; lob <= 1; lob++) {
      wp_curve *C = &S->curves[S->ncurves++];
      C->family = WP_GALERKIN;
      C->s = s;
      C->lobatto = lob;
      snprintf(C->label, sizeof C->label, "%s s=%d", lob ? "Lobatto" : "Gauss", s);
      snprintf(C->method, sizeof C->method, "galerkin:s=%d,w=%d,quadL=%s,r=%d", s, s,
               lob ? "lobatto" : "gauss", lob ? s + 1 : s);
    }
  }
  for (int form = VI_IDA_GGL; form <= VI_IDA_INDEX1; form++) {
    wp_curve *C = &S->curves[S->ncurves++];
    C->family = WP_IDA;
    C->form = form;
    snprintf(C->label, sizeof C->label, form == VI_IDA_GGL ? "IDA GGL" : "IDA index 1");
    if (form == VI_IDA_GGL) {
      snprintf(
          C->method, sizeof C->method,
          "SUNDIALS IDA %s: stabilised index-2 GGL form, lambda and mu out of the error "
          "test, dense solver, analytic Jacobian, first step %g",
          SUNDIALS_VERSION, VI_IDA_H0);
    } else {
      snprintf(
          C->method, sizeof C->method,
          "SUNDIALS IDA %s: index-1 form with lambda(q, p) of wenger2017 (70), dense "
          "solver, difference-quotient Jacobian",
          SUNDIALS_VERSION);
    }
  }
}

/* Canonical method specs (the defaults spelled out) for the outputs. */
static void wp_canonical(wp_study *S) {
  for (int c = 0; c < S->ncurves; c++) {
    vi_stepper_d *st = NULL;
    char err[256];
    if (S->curves[c].family == WP_GALERKIN &&
        vi_stepper_alloc_d(S->curves[c].method, S->sys, &st, err, sizeof err) == VI_OK) {
      vi_stepper_spec_d(st, S->curves[c].method, sizeof S->curves[c].method);
      vi_stepper_free_d(st);
    }
  }
}

int vi_workprec_run(const vi_study *s, const reproduce_opts *o) {
  const char *id = s->id;
  double tstart = vi_clock();
  char err[512] = "";
  wp_study *S = calloc(1, sizeof *S);
  if (!S) {
    fprintf(stderr, "vistudy reproduce: %s: out of memory\n", id);
    return VI_EXIT_FAIL;
  }
  S->o = o;
  /* The full study stops a curve at a run of 0.25 s (its points depend on
   * the machine's speed, which the study reports). The quick one, which the
   * tests run under sanitizers on a loaded machine, must not depend on
   * timing: it stops on the error and after 5 successful runs. */
  S->cap_seconds = o->quick ? INFINITY : 0.25;
  S->max_points = o->quick ? 5 : 0;
  /* Full: down to the round-off floor. Quick: above 100x the double
   * reference's accuracy (about 1e-10). */
  S->stop_err = o->quick ? 1e-7 : 2e-12;
  int status = VI_EXIT_FAIL;
  vi_timing tg = {.core = -1};
  json_t *j = NULL;
  char *md = NULL, *csv = NULL, *b1 = NULL, *b2 = NULL;
  vi_ida *ida[2] = {NULL, NULL};
  const vi_system_type_d *type = vi_system_find_d(WP_SYSTEM, err, sizeof err);
  if (!type || vi_system_alloc_d(type, 0, NULL, &S->sys, err, sizeof err) != VI_OK) {
    goto out;
  }
  S->n = S->sys->n;
  S->m = S->sys->m;
  S->Qref = malloc((size_t)(WP_NREF + 1) * S->n * sizeof *S->Qref);
  S->Qrun = malloc((size_t)(WP_NREF + 1) * S->n * sizeof *S->Qrun);
  if (!S->Qref || !S->Qrun) {
    vi_set_err(err, sizeof err, "out of memory");
    goto out;
  }
  if (o->progress) {
    fprintf(stderr, "workprec: reference on %ld nodes (%s)\n", WP_NREF,
            o->quick ? "double" : "quad; cached after the first run");
  }
  if (wp_reference(S, err, sizeof err) != 0) {
    goto out;
  }
  wp_add_curves(S);
  wp_canonical(S);
  for (int f = VI_IDA_GGL; f <= VI_IDA_INDEX1; f++) {
    if (vi_ida_alloc(S->sys, f, &ida[f], err, sizeof err) != VI_OK) {
      goto out;
    }
  }
  vi_timing_begin(&tg);
  if (tg.pin_note[0]) {
    fprintf(stderr, "workprec: timings unpinned: %s\n", tg.pin_note);
  }
  for (int c = 0; c < S->ncurves; c++) {
    int rc = S->curves[c].family == WP_IDA ? wp_ida_sweep(S, c, ida[S->curves[c].form])
                                           : wp_galerkin_sweep(S, c, err, sizeof err);
    if (rc != 0) {
      goto out;
    }
  }
  wp_again again = {S, ida};
  vi_repeat_in_passes(&again, S->npts, wp_timed, wp_run_again, &wp_reps, o->quick, "workprec",
                      o->progress);
  vi_timing_end(&tg);

  wp_speed st[WP_NLEVELS], se[WP_NLEVELS], sw[WP_NLEVELS];
  for (int l = 0; l < WP_NLEVELS; l++) {
    wp_speedup(S, wp_levels[l], 0, &st[l]);
    wp_speedup(S, wp_levels[l], 1, &se[l]);
    wp_speedup(S, wp_levels[l], 2, &sw[l]);
  }
  double minerr = INFINITY;
  int ngal = 0;
  for (int c = 0; c < S->ncurves; c++) {
    ngal += S->curves[c].family == WP_GALERKIN;
  }
  for (int i = 0; i < S->npts; i++) {
    if (S->pts[i].ok && S->pts[i].err < minerr) {
      minerr = S->pts[i].err;
    }
  }
  const char *mline = tg.line;
  const int core = tg.core;
  double total = vi_clock() - tstart;

  j = json_object();
  json_object_set_new(j, "id", json_string(id));
  json_object_set_new(j, "system", json_string(WP_SYSTEM));
  json_object_set_new(j, "params", vi_params_json(S->sys));
  json_object_set_new(j, "T", json_real(WP_T));
  json_object_set_new(j, "quick", json_boolean(o->quick));
  json_object_set_new(j, "error_measure",
                      json_string("max over the nodes t_k of |q_k - q_ref(t_k)|_inf"));
  json_object_set_new(j, "machine", vi_machine_json(&tg.machine, mline));
  json_object_set_new(j, "pinned_core", core >= 0 ? json_integer(core) : json_null());
  json_object_set_new(
      j, "timing",
      json_string(
          "seconds: CPU time of the pinned thread (CLOCK_THREAD_CPUTIME_ID), "
          "wall_seconds: wall clock; each the minimum of 3 repetitions (5 below 50 ms, 7 "
          "below 5 ms; 1 with --quick) in passes over the study; setup and integration, "
          "reference excluded; speedup uses seconds"));
  json_t *rj = json_object();
  json_object_set_new(rj, "method", json_string(S->ref_method));
  json_object_set_new(rj, "precision", json_string(S->ref_precision));
  json_object_set_new(rj, "accuracy", json_real(S->ref_accuracy));
  json_object_set_new(rj, "grid_h", json_real(WP_T / (double)WP_NREF));
  json_object_set_new(rj, "cached", json_boolean(S->ref_cached));
  json_object_set_new(rj, "smallest_error", wp_num(minerr));
  json_object_set_new(rj, "ok", json_boolean(S->ref_accuracy <= 0.1 * minerr));
  json_object_set_new(rj, "double_method", json_string(S->dref_method));
  json_object_set_new(rj, "double_accuracy", json_real(S->dref_accuracy));
  json_object_set_new(rj, "double_q_deviation",
                      o->quick ? json_null() : json_real(S->dref_dev));
  json_object_set_new(j, "reference", rj);
  json_t *ij = json_object();
  json_object_set_new(ij, "version", json_string(SUNDIALS_VERSION));
  json_object_set_new(
      ij, "formulation",
      json_string("GGL: stabilised index 2 (Gear-Gupta-Leimkuhler), q' = "
                  "M^-1 p + G'mu, p' = -grad V - G'lambda, 0 = g(q), 0 = G "
                  "M^-1 p; also: index 1, lambda(q, p) from wenger2017 (70)"));
  json_object_set_new(
      ij, "why",
      json_string("GGL keeps both constraints at every step (no drift), has "
                  "an analytic Jacobian from the derivatives the Galerkin "
                  "method uses, and is SUNDIALS' own choice for multibody "
                  "systems (idaSlCrank example); the index-1 ODE form is "
                  "shown too, and the speedups use the cheaper of the two"));
  json_object_set_new(
      ij, "ggl",
      json_string("SUNLinSol_Dense with analytic Jacobian; lambda, mu out of "
                  "the error test (IDASetSuppressAlg); IDASetInitStep 1e-4"));
  json_object_set_new(
      ij, "index1",
      json_string("SUNLinSol_Dense with IDA's difference-quotient Jacobian "
                  "(its residual evaluations are counted in evals)"));
  json_object_set_new(ij, "tolerances", json_string("rtol = atol, half-decade sweep"));
  json_object_set_new(ij, "h_out", json_real(WP_T / (double)WP_NOUT));
  json_object_set_new(
      ij, "build_note",
      json_string("Debian's SUNDIALS is built without optimisation: compare "
                  "evaluation counts as well as times"));
  json_object_set_new(j, "ida", ij);
  json_t *cj = json_array();
  for (int c = 0; c < S->ncurves; c++) {
    json_t *x = json_object();
    json_object_set_new(x, "family",
                        json_string(S->curves[c].family == WP_IDA ? "ida" : "galerkin"));
    json_object_set_new(x, "config", json_string(S->curves[c].label));
    json_object_set_new(x, "method", json_string(S->curves[c].method));
    json_array_append_new(cj, x);
  }
  json_object_set_new(j, "configs", cj);
  json_t *pj = json_array();
  for (int i = 0; i < S->npts; i++) {
    json_array_append_new(pj, wp_point_json(S, &S->pts[i]));
  }
  json_object_set_new(j, "points", pj);
  json_t *sj = json_object(), *sej = json_object(), *swj = json_object(),
         *sd = json_object(), *sed = json_object();
  for (int l = 0; l < WP_NLEVELS; l++) {
    json_object_set_new(sj, wp_level_names[l], wp_num(st[l].value));
    json_object_set_new(sej, wp_level_names[l], wp_num(se[l].value));
    json_object_set_new(swj, wp_level_names[l], wp_num(sw[l].value));
    json_object_set_new(sd, wp_level_names[l], wp_speed_json(S, &st[l], 0));
    json_object_set_new(sed, wp_level_names[l], wp_speed_json(S, &se[l], 1));
  }
  json_object_set_new(j, "speedup", sj);
  json_object_set_new(j, "speedup_evals", sej);
  json_object_set_new(j, "speedup_wall", swj);
  json_object_set_new(j, "speedup_detail", sd);
  json_object_set_new(j, "speedup_evals_detail", sed);
  json_object_set_new(j, "seconds_total", json_real(total));

  char path[1100], base[1024];
  snprintf(base, sizeof base, "%s/%s", o->results_dir, id);
  md = wp_md(S, id, mline, core, st, se, sw, total);
  csv = wp_csv(S);
  char title[700];
  snprintf(title, sizeof title, "3D double pendulum, T = 10: Galerkin vs IDA\\n%s",
           mline);
  b1 = wp_plot_body(
      S, 2, "run time [s] (CPU time of the pinned thread, min of repetitions)", title);
  b2 = wp_plot_body(S, 3, "residual evaluations", title);
  if (!md || !csv || !b1 || !b2) {
    vi_set_err(err, sizeof err, "out of memory");
    goto out;
  }
  if (vi_study_write(o->results_dir, id, j, md, csv, err, sizeof err) != 0) {
    goto out;
  }
  status = VI_EXIT_OK;
  if (vi_plot(o->results_dir, id, b1, 1000, 620, err, sizeof err) != 0) {
    fprintf(stderr, "vistudy reproduce: %s: %s\n", id, err);
    status = VI_EXIT_FAIL;
  }
  snprintf(path, sizeof path, "%s-evals", id);
  if (vi_plot(o->results_dir, path, b2, 1000, 620, err, sizeof err) != 0) {
    fprintf(stderr, "vistudy reproduce: %s: %s\n", id, err);
    status = VI_EXIT_FAIL;
  }

  /* The one-paragraph summary. */
  printf(
      "%s: 3D double pendulum, T = %g, %d Galerkin configurations and SUNDIALS IDA %s "
      "(GGL index-2 and index-1 forms; Debian's unoptimised build), %d runs, q errors "
      "down to %.1e against a %s reference (accuracy %.0e); speedups against the cheaper "
      "IDA form.",
      id, WP_T, ngal, SUNDIALS_VERSION, S->npts, minerr, S->ref_precision,
      S->ref_accuracy);
  for (int l = 0; l < WP_NLEVELS; l++) {
    if (isfinite(st[l].value)) {
      printf(" At q error %s the best Galerkin (%s) is %.1fx faster", wp_level_names[l],
             S->curves[st[l].best].label, st[l].value);
    } else {
      printf(" At %s no time speedup (%s)", wp_level_names[l], st[l].reason);
    }
    if (isfinite(se[l].value)) {
      printf(" and needs %.1fx fewer residual evaluations (%s).", se[l].value,
             S->curves[se[l].best].label);
    } else {
      printf("; evaluations: n/a (%s).", se[l].reason);
    }
  }
  printf(" Pinned core %d; %.1f s.\n  results: %s.{md,json,csv,svg,png}, "
         "%s-evals.{svg,png}\n",
         core, total, base, base);
out:
  if (status != VI_EXIT_OK && err[0]) {
    fprintf(stderr, "vistudy reproduce: %s: %s\n", id, err);
  }
  vi_timing_end(&tg);
  vi_ida_free(ida[VI_IDA_GGL]);
  vi_ida_free(ida[VI_IDA_INDEX1]);
  json_decref(j);
  free(md);
  free(csv);
  free(b1);
  free(b2);
  vi_system_free_d(S->sys);
  free(S->Qref);
  free(S->Qrun);
  free(S);
  return status;
}
