/* run_sweep.c: the sweep runner (sweep.h). */
#include "sweep.h"

#include "baselines/gsl_rk.h"
#include "baselines/ida.h"
#include "outcome.h"
#include "plot.h"
#include "report.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- set-up ------------------------------------------------------------------ */

static long ladder_max(const long *l, int n) {
  long m = 0;
  for (int i = 0; l && i < n; i++) {
    m = l[i] > m ? l[i] : m;
  }
  return m;
}

/* The reference of the sweep's system on K steps over [0, T], in a
 * precision, rounded to double (vi_api.reference): rows Q, P, L of buf. */
static int sweep_ref_rows(const vi_sweep *S, vi_precision prec, long K, double *buf,
                          vi_reference_result *info, char *err, size_t errlen) {
  const size_t rows = (size_t)(K + 1);
  vi_reference_config rc = {0};
  rc.system = S->spec->system;
  rc.T = S->T;
  rc.K = K;
  rc.cache_dir = S->cache_dir;
  return vi_api_of(prec)->reference(&rc, buf, buf + rows * S->nq,
                                    buf + rows * (S->nq + S->n), info, err, errlen);
}

/* The reference on the nref grid: double, or (full study, quad_reference)
 * quad rounded to double, with the double one's deviation recorded. */
static int sweep_reference(vi_sweep *S, char *err, size_t errlen) {
  const long K = S->spec->nref;
  const size_t rows = (size_t)(K + 1);
  const int n = S->n, nq = S->nq, ml = S->ml;
  S->Qref = malloc(rows * (size_t)(nq + n + ml) * sizeof *S->Qref);
  if (!S->Qref) {
    vi_set_err(err, errlen, "out of memory");
    return -1;
  }
  S->Pref = S->Qref + rows * nq;
  S->Lref = S->Pref + rows * n;
  vi_reference_result dinfo;
  if (sweep_ref_rows(S, VI_DOUBLE, K, S->Qref, &dinfo, err, errlen) != VI_OK) {
    return -1;
  }
  S->dref_accuracy = dinfo.accuracy;
  snprintf(S->dref_method, sizeof S->dref_method, "%s", dinfo.method);
  if (S->quick || !S->spec->quad_reference) {
    S->ref_accuracy = dinfo.accuracy;
    S->ref_cached = dinfo.cached;
    snprintf(S->ref_method, sizeof S->ref_method, "%s", dinfo.method);
    snprintf(S->ref_precision, sizeof S->ref_precision, "double");
    return 0;
  }
  /* Quad: the same system and initial data, projected onto the constraints
   * in quad, then rounded. */
  double *W = malloc(rows * (size_t)(nq + n + ml) * sizeof *W);
  vi_reference_result qinfo;
  int rc = W ? sweep_ref_rows(S, VI_QUAD, K, W, &qinfo, err, errlen) : VI_ENOMEM;
  if (rc == VI_OK) {
    double dev = 0, qmax = 0;
    for (size_t i = 0; i < rows * (size_t)(nq + n + ml); i++) {
      const double x = W[i];
      if (i < rows * nq) {
        double d = fabs(x - S->Qref[i]);
        dev = d > dev || d != d ? d : dev;
        qmax = fabs(x) > qmax ? fabs(x) : qmax;
      }
      S->Qref[i] = x;
    }
    S->dref_dev = dev;
    /* The stored doubles carry their own rounding, half an ulp of |q|. */
    const double round = 0.5 * 2.220446049250313e-16 * (qmax > 1 ? qmax : 1);
    S->ref_accuracy = qinfo.accuracy > round ? qinfo.accuracy : round;
    S->ref_cached = qinfo.cached;
    snprintf(S->ref_method, sizeof S->ref_method, "%s, rounded to double", qinfo.method);
    snprintf(S->ref_precision, sizeof S->ref_precision, "quad");
  } else if (rc == VI_ENOMEM && err && !err[0]) {
    vi_set_err(err, errlen, "out of memory");
  }
  free(W);
  return rc == VI_OK ? 0 : -1;
}

int vi_sweep_open(vi_sweep *S, const vi_sweep_spec *spec, const char *id, int quick,
                  int progress, double every, const char *cache_dir, char *err,
                  size_t errlen) {
  memset(S, 0, sizeof *S);
  S->spec = spec;
  S->id = id;
  S->quick = quick;
  vi_progress_begin(&S->prog, progress, every, id, "point", 0);
  S->cache_dir = cache_dir;
  S->T = spec->T;
  S->tg.core = -1;
  const vi_system_type_d *type = vi_system_find_d(spec->system, err, errlen);
  if (!type || vi_system_alloc_d(type, 0, NULL, &S->sys, err, errlen) != VI_OK) {
    return -1;
  }
  S->n = S->sys->n;
  S->m = S->sys->m;
  S->nq = S->sys->nq;
  S->ml = S->sys->ml;
  if (vi_system_energy_d(S->sys, S->sys->q0, S->sys->p0, &S->E0) != VI_OK) {
    S->E0 = NAN;
  }
  /* Every step count must share nodes with the reference grid: N divides
   * nref or is a multiple of it (and so must the baselines' output grid),
   * else the error would compare a node with the wrong time. */
  const long *lads[2] = {spec->ladder, spec->quick_ladder};
  const int nls[2] = {spec->nladder, spec->nquick};
  for (int l = 0; spec->nref > 0 && l < 2; l++) {
    for (int i = 0; lads[l] && i < nls[l]; i++) {
      const long N = lads[l][i];
      if (N <= 0 || (N % spec->nref != 0 && spec->nref % N != 0)) {
        snprintf(err, errlen,
                 "%s: step count %ld of the %s ladder neither divides the reference grid "
                 "(%ld nodes) nor is a multiple of it",
                 id, N, l ? "quick" : "full", spec->nref);
        return -1;
      }
    }
  }
  if (spec->nout > 0 && (spec->nref <= 0 || spec->nref % spec->nout != 0)) {
    snprintf(err, errlen, "%s: the baselines' output grid (%ld nodes) must divide the reference "
             "grid (%ld nodes)", id, spec->nout, spec->nref);
    return -1;
  }
  long nmax = ladder_max(spec->ladder, spec->nladder);
  long nq = ladder_max(spec->quick_ladder, spec->nquick);
  nmax = nq > nmax ? nq : nmax;
  S->nmax = spec->nout > nmax ? spec->nout : nmax;
  S->run = malloc((size_t)(S->nmax + 1) * (size_t)(S->nq + S->n + S->ml) * sizeof *S->run);
  if (!S->run) {
    vi_set_err(err, errlen, "out of memory");
    return -1;
  }
  if (progress && spec->nref > 0) {
    /* Always shown: the reference may take minutes before the first point. */
    fprintf(stderr, "%s: reference on %ld nodes (%s)\n", id, spec->nref,
            quick || !spec->quad_reference ? "double" : "quad; cached after the first run");
  }
  return spec->nref > 0 ? sweep_reference(S, err, errlen) : 0;
}

void vi_sweep_close(vi_sweep *S) {
  vi_ida_free(S->ida[0]);
  vi_ida_free(S->ida[1]);
  vi_gsl_rk_free(S->rk);
  vi_system_free_d(S->sys);
  free(S->Qref);
  free(S->run);
  free(S->curves);
  free(S->pts);
  memset(S, 0, sizeof *S);
}

int vi_sweep_add(vi_sweep *S, int kind, int group, int m, const char *label,
                 const char *method) {
  if (S->ncurves == S->capc) {
    int cap = S->capc ? 2 * S->capc : 16;
    vi_sweep_curve *c = realloc(S->curves, (size_t)cap * sizeof *c);
    if (!c) {
      return -1;
    }
    S->curves = c;
    S->capc = cap;
  }
  vi_sweep_curve *C = &S->curves[S->ncurves];
  memset(C, 0, sizeof *C);
  C->kind = kind;
  C->group = group;
  C->m = m;
  snprintf(C->label, sizeof C->label, "%s", label);
  snprintf(C->method, sizeof C->method, "%s", method);
  return S->ncurves++;
}

static vi_sweep_point *new_point(vi_sweep *S, int curve) {
  if (S->npts == S->capp) {
    int cap = S->capp ? 2 * S->capp : 128;
    vi_sweep_point *p = realloc(S->pts, (size_t)cap * sizeof *p);
    if (!p) {
      return NULL;
    }
    S->pts = p;
    S->capp = cap;
  }
  vi_sweep_point *P = &S->pts[S->npts++];
  memset(P, 0, sizeof *P);
  P->curve = curve;
  P->h = P->tol = NAN;
  for (int k = 0; k < VI_SW_NMEAS; k++) {
    P->err[k] = NAN;
  }
  P->tm.seconds = P->tm.wall = NAN;
  return P;
}

/* ---- runs ---------------------------------------------------------------------- */

/* The observer of every timed run: node k copied out (the same work for
 * every method; errors are evaluated afterwards). */
static int copy_node(void *ctx, long k, const vi_node_d *nd) {
  vi_sweep *S = ctx;
  if (k > S->nmax) {
    return VI_EINVAL;
  }
  const int n = S->n, nq = S->nq, ml = S->ml;
  double *row = S->run + (size_t)k * (size_t)(nq + n + ml);
  memcpy(row, nd->q, (size_t)nq * sizeof *row);
  memcpy(row + nq, nd->p, (size_t)n * sizeof *row);
  if (ml > 0) {
    memcpy(row + nq + n, nd->lambda, (size_t)ml * sizeof *row);
  }
  return VI_OK;
}

/* One timed stepper run of N steps (init and steps) with curve C's
 * solver. */
static int stepper_once(vi_sweep *S, const vi_sweep_curve *C, vi_stepper_d *st, long N,
                        vi_time *tm) {
  vi_solver_config cfg = {.kind = C->solver};
  vi_solver_opts_d so;
  char err[256];
  int rc = vi_solver_opts_from_d(&cfg, &so, err, sizeof err);
  if (rc != VI_OK) {
    return rc;
  }
  /* The node by the stepper's dimensions (its extra block included), made
   * before the timing starts. */
  vi_node_d *nd = vi_node_alloc_d(vi_stepper_dims_d(st));
  if (!nd) {
    return VI_ENOMEM;
  }
  vi_time_start(tm);
  rc = vi_integrate_d(st, &so, S->T / (double)N, N, S->sys->q0, S->sys->p0, nd, copy_node,
                      S, NULL);
  vi_time_stop(tm);
  free(nd);
  return rc;
}

/* One timed run of GSL rk8pd at tol (baselines/gsl_rk.h). */
static int rk_once(vi_sweep *S, double tol, vi_sweep_point *P, vi_time *tm) {
  vi_gsl_rk_stats st;
  char err[256] = "";
  vi_time_start(tm);
  int rc = vi_gsl_rk_run(S->rk, tol, S->T, S->spec->nout, copy_node, S, &st, err, sizeof err);
  vi_time_stop(tm);
  if (P) {
    P->steps = st.steps;
    P->fevals = st.fevals;
    P->etfails = st.fails;
    if (rc != 0) {
      snprintf(P->msg, sizeof P->msg, "%.150s", err);
    }
  }
  return rc;
}

static int ida_once(vi_sweep *S, int form, double tol, vi_sweep_point *P, vi_time *tm) {
  vi_ida_stats st;
  char err[256] = "";
  vi_time_start(tm);
  int rc = vi_ida_run(S->ida[form], tol, S->T, S->spec->nout, copy_node, S, &st, err,
                      sizeof err);
  vi_time_stop(tm);
  if (P) {
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
  }
  return rc;
}

/* The global errors of q, p and lambda (vi_node_errors) land in e by the
 * order studies' indices. */
_Static_assert((int)VI_SW_Q == (int)VI_Q && (int)VI_SW_P == (int)VI_P &&
                   (int)VI_SW_LAMBDA == (int)VI_LAMBDA,
               "sweep measures share the order studies' indices");

static void maxabs(double *e, double d) {
  if (*e == *e && !(d <= *e)) { /* a NaN d makes e NaN, and a NaN e stays */
    *e = d;
  }
}

/* The errors of the run of N intervals in S->run against the reference
 * rows (Q, P, L: the nref grid, or the run's own when nref = 0). */
static void point_errors(vi_sweep *S, long N, const double *Q, const double *Pr,
                         const double *L, long nref, vi_sweep_point *P) {
  const int n = S->n, nq = S->nq, m = S->m, ml = S->ml, w = nq + n + ml;
  const vi_dims dims = vi_system_dims_d(S->sys);
  const long every = N > nref ? N / nref : 1;  /* run nodes per reference node */
  const long stride = N < nref ? nref / N : 1; /* reference nodes per run node */
  double e[VI_SW_NMEAS] = {0, 0, 0, 0, 0, 0};
  /* The energy and |g| of a node by their measures (measures.h). */
  vi_measure me, mg;
  char merr[512];
  double work[256];
  const int has_g = m > 0 && vi_measure_find_d(S->sys, NULL, "g_norm", &mg, merr,
                                                sizeof merr) == VI_OK;
  const int has_e = vi_measure_find_d(S->sys, NULL, "energy", &me, merr, sizeof merr) ==
                        VI_OK &&
                    vi_measure_work_d(S->sys) <= sizeof work / sizeof work[0];
  /* Relative, as vi_err_observe: absolute when |H_0| <= sqrt(eps). */
  const double scale = fabs(S->E0) > VI_ENERGY_ABS_BELOW && isfinite(S->E0) ? fabs(S->E0) : 1;
  for (long k = 0; k <= N; k++) {
    vi_node_d nd;
    vi_node_bind_d(&nd, S->run + (size_t)k * (size_t)w, &dims);
    if (k % every == 0) {
      /* The global error of the node (vi_node_errors: the one definition
       * the order studies use), lambda over k >= 1. */
      const long r = k / every * stride;
      vi_node_d ref = {0, (double *)Q + r * nq, (double *)Pr + r * n, (double *)L + r * ml,
                       NULL, NULL};
      vi_node_errors_d(&dims, &nd, &ref,
                       k >= 1 ? VI_ERR_Q | VI_ERR_P | VI_ERR_LAMBDA : VI_ERR_Q | VI_ERR_P, e);
    }
    /* energy_at_outputs: only at the times t_j = j T / nout, as the
     * baselines are sampled (a fair maximum for both). */
    const long eevery = S->spec->energy_at_outputs && N > S->spec->nout && S->spec->nout > 0
                            ? N / S->spec->nout
                            : 1;
    double E = NAN;
    if (k % eevery == 0) {
      if (!has_e || vi_measure_eval_d(S->sys, &me, 1, &nd, 0, work, &E) != VI_OK) {
        E = NAN;
      }
      maxabs(&e[VI_SW_ENERGY], fabs(E - S->E0) / scale);
    }
    double gn = NAN;
    if (has_g && vi_measure_eval_d(S->sys, &mg, 1, &nd, 0, work, &gn) == VI_OK) {
      maxabs(&e[VI_SW_GDRIFT], gn);
    } else if (m > 0) {
      e[VI_SW_GDRIFT] = NAN;
    }
  }
  /* The error at T: the last node is a measured node (N divides nref or
   * is a multiple of it). */
  {
    const long r = N / every * stride;
    vi_node_d nd, ref = {0, (double *)Q + r * nq, (double *)Pr + r * n, (double *)L + r * ml,
                         NULL, NULL};
    vi_node_bind_d(&nd, S->run + (size_t)N * (size_t)w, &dims);
    double eT[VI_NQUANT] = {0, 0, 0};
    vi_node_errors_d(&dims, &nd, &ref, VI_ERR_Q, eT);
    e[VI_SW_QT] = eT[VI_Q];
  }
  memcpy(P->err, e, sizeof e);
  P->ok = isfinite(e[VI_SW_Q]) && isfinite(e[VI_SW_P]) && isfinite(e[VI_SW_ENERGY]);
  if (!P->ok) {
    snprintf(P->msg, sizeof P->msg, "non-finite error");
  }
}

/* One stepper run at N steps into a new point; NULL when out of memory or
 * the run failed for a reason other than the method's (err set). */
static vi_sweep_point *stepper_point(vi_sweep *S, int curve, long N, char *err,
                                     size_t errlen) {
  vi_sweep_point *P = new_point(S, curve);
  if (!P) {
    vi_set_err(err, errlen, "out of memory");
    return NULL;
  }
  vi_sweep_curve *C = &S->curves[curve];
  P->N = N;
  P->h = S->T / (double)N;
  double *ref = NULL;
  const double *Q = S->Qref, *Pr = S->Pref, *L = S->Lref;
  long nref = S->spec->nref;
  if (nref == 0) {
    /* A reference on the run's own grid (cached). */
    const size_t rows = (size_t)(N + 1);
    ref = malloc(rows * (size_t)(S->nq + S->n + S->ml) * sizeof *ref);
    vi_reference_result info;
    if (!ref || sweep_ref_rows(S, VI_DOUBLE, N, ref, &info, err, errlen) != VI_OK) {
      if (!ref) {
        vi_set_err(err, errlen, "out of memory");
      }
      free(ref);
      return NULL;
    }
    Q = ref;
    Pr = ref + rows * S->nq;
    L = ref + rows * (S->nq + S->n);
    nref = N;
    if (!(info.accuracy <= S->ref_accuracy)) {
      S->ref_accuracy = info.accuracy;
    }
    snprintf(S->ref_method, sizeof S->ref_method, "%s", info.method);
    snprintf(S->ref_precision, sizeof S->ref_precision, "double");
  }
  vi_stepper_d *st = NULL;
  char e2[256];
  if (vi_stepper_alloc_d(C->method, S->sys, &st, e2, sizeof e2) != VI_OK) {
    /* A spec the registry refuses is the study's error, not a point. */
    vi_set_err(err, errlen, e2);
    free(ref);
    return NULL;
  }
  vi_stepper_spec_d(st, C->method, sizeof C->method);
  vi_time tm;
  int rc = stepper_once(S, C, st, N, &tm);
  const vi_stats_d *stats = vi_stepper_stats_d(st);
  C->unknowns = vi_stepper_unknowns_d(st);
  C->solver_ran = stats->solver_kind;
  P->steps = stats->steps;
  P->fevals = stats->fevals;
  P->jevals = stats->jevals;
  P->newton = stats->newton_iters;
  P->newton_max = stats->newton_iters_max;
  vi_timed_first(&P->tm, &tm);
  vi_stepper_free_d(st);
  if (rc != VI_OK) {
    snprintf(P->msg, sizeof P->msg, "%s", vi_strerror(rc));
    P->tm.seconds = P->tm.wall = NAN;
  } else {
    point_errors(S, N, Q, Pr, L, nref, P);
  }
  free(ref);
  return P;
}

static vi_sweep_point *ida_point(vi_sweep *S, int curve, double tol, char *err,
                                 size_t errlen) {
  const int kind = S->curves[curve].kind;
  const int form = kind == VI_SWEEP_IDA_GGL ? VI_IDA_GGL : VI_IDA_INDEX1;
  if (S->spec->nref <= 0 || S->spec->nout <= 0 || S->spec->nref % S->spec->nout != 0) {
    vi_set_err(err, errlen, "a baseline needs a reference grid that its output grid divides");
    return NULL;
  }
  if (kind == VI_SWEEP_GSL_RK8PD ? !S->rk && vi_gsl_rk_alloc(S->sys, &S->rk, err, errlen) != VI_OK
                                 : !S->ida[form] &&
                                       vi_ida_alloc(S->sys, form, &S->ida[form], err, errlen) !=
                                           VI_OK) {
    return NULL;
  }
  vi_sweep_point *P = new_point(S, curve);
  if (!P) {
    vi_set_err(err, errlen, "out of memory");
    return NULL;
  }
  P->tol = tol;
  P->N = S->spec->nout;
  vi_time tm;
  int rc = kind == VI_SWEEP_GSL_RK8PD ? rk_once(S, tol, P, &tm) : ida_once(S, form, tol, P, &tm);
  vi_timed_first(&P->tm, &tm);
  if (rc == 0) {
    point_errors(S, S->spec->nout, S->Qref, S->Pref, S->Lref, S->spec->nref, P);
  } else {
    P->tm.seconds = P->tm.wall = NAN;
  }
  return P;
}

static int curve_ok_points(const vi_sweep *S, int curve) {
  int k = 0;
  for (int i = 0; i < S->npts; i++) {
    k += S->pts[i].curve == curve && S->pts[i].ok;
  }
  return k;
}

static void progress_line(vi_sweep *S, const vi_sweep_point *P) {
  if (S->prog.mode == VI_PROGRESS_NONE) {
    return;
  }
  const vi_sweep_curve *C = &S->curves[P->curve];
  char at[48];
  if (C->kind == VI_SWEEP_STEPPER) {
    snprintf(at, sizeof at, "h = %-10.4g", P->h);
  } else {
    snprintf(at, sizeof at, "tol = %-8.2g", P->tol);
  }
  char line[512];
  snprintf(line, sizeof line, "%s: %-24s %s e_q = %-9.3g e_H = %-9.3g %8.5f s %8ld res evals%s%s",
           S->id, C->label, at, P->err[VI_SW_Q], P->err[VI_SW_ENERGY], P->tm.seconds, P->fevals,
           P->ok ? "" : "  ", P->msg);
  vi_progress_line(&S->prog, line);
}

/* Whether a curve ends after the successful run P (sweep.h). */
static int curve_ends(const vi_sweep *S, const vi_sweep_point *P, double *best, int baseline) {
  const vi_sweep_spec *sp = S->spec;
  const double e = P->err[VI_SW_Q];
  const int plateau = sp->plateau_below > 0 && *best < sp->plateau_below &&
                      e > sp->plateau_ratio * *best;
  *best = e < *best ? e : *best;
  if (!baseline && P->N < sp->n_keep) {
    return 0;
  }
  const double cap = baseline ? sp->baseline_cap : sp->cap_seconds;
  return e < (S->quick ? sp->stop_err_quick : sp->stop_err) || plateau ||
         (!S->quick && cap > 0 && P->tm.seconds > cap) ||
         (S->quick && sp->max_points_quick > 0 &&
          curve_ok_points(S, P->curve) >= sp->max_points_quick);
}

int vi_sweep_curve_run(vi_sweep *S, int curve, char *err, size_t errlen) {
  const vi_sweep_spec *sp = S->spec;
  double best = INFINITY;
  if (S->curves[curve].kind != VI_SWEEP_STEPPER) {
    const int kmax = S->quick ? sp->tol_kmax_quick : sp->tol_kmax;
    for (int k = sp->tol_kmin; k <= kmax; k += S->quick ? sp->tol_kstep_quick : 1) {
      vi_sweep_point *P = ida_point(S, curve, pow(10.0, -0.5 * k), err, errlen);
      if (!P) {
        return -1;
      }
      progress_line(S, P);
      if (!P->ok || curve_ends(S, P, &best, 1)) {
        break;
      }
    }
    return 0;
  }
  const long *lad = S->quick && sp->quick_ladder ? sp->quick_ladder : sp->ladder;
  const int nl = S->quick && sp->quick_ladder ? sp->nquick : sp->nladder;
  int fails = 0, any = 0;
  for (int i = 0; i < nl; i++) {
    vi_sweep_point *P = stepper_point(S, curve, lad[i], err, errlen);
    if (!P) {
      return -1;
    }
    if (P->ok && sp->discard_above > 0 && P->err[VI_SW_Q] > sp->discard_above) {
      /* Converged to another solution branch: not a point of the curve. */
      P->ok = 0;
      snprintf(P->msg, sizeof P->msg, "another solution branch (q error %.2g)",
               P->err[VI_SW_Q]);
      progress_line(S, P);
      continue;
    }
    progress_line(S, P);
    if (!P->ok) {
      /* Newton may not converge at coarse steps. */
      if ((any && sp->max_fails > 0 && ++fails >= sp->max_fails) ||
          (!any && sp->n_first > 0 && lad[i] >= sp->n_first)) {
        break;
      }
      continue;
    }
    any = 1;
    fails = 0;
    if (curve_ends(S, P, &best, 0)) {
      break;
    }
  }
  return 0;
}

/* ---- timing in passes -------------------------------------------------------- */

static vi_timed *point_timed(void *ctx, int i) {
  vi_sweep_point *P = &((vi_sweep *)ctx)->pts[i];
  return P->ok ? &P->tm : NULL;
}

static int point_again(void *ctx, int i, vi_time *tm) {
  vi_sweep *S = ctx;
  const vi_sweep_point *P = &S->pts[i];
  const vi_sweep_curve *C = &S->curves[P->curve];
  int rc = -1;
  if (C->kind == VI_SWEEP_GSL_RK8PD) {
    rc = rk_once(S, P->tol, NULL, tm);
  } else if (C->kind != VI_SWEEP_STEPPER) {
    rc = ida_once(S, C->kind == VI_SWEEP_IDA_GGL ? VI_IDA_GGL : VI_IDA_INDEX1, P->tol, NULL,
                  tm);
  } else {
    vi_stepper_d *st = NULL;
    char err[256];
    if (vi_stepper_alloc_d(C->method, S->sys, &st, err, sizeof err) == VI_OK) {
      rc = stepper_once(S, C, st, P->N, tm);
    }
    vi_stepper_free_d(st);
  }
  return rc == 0 ? 0 : -1;
}

void vi_sweep_time(vi_sweep *S) {
  vi_repeat_in_passes(S, S->npts, point_timed, point_again, &S->spec->reps, S->quick, S->id,
                      S->prog.mode);
}

/* ---- services of the report hooks ----------------------------------------------- */

double vi_sweep_err(const vi_sweep_point *P, int measure) {
  return P->err[measure];
}

double vi_sweep_cost(const vi_sweep_point *P, int cost) {
  return cost == VI_COST_EVALS ? (double)P->fevals : cost == VI_COST_WALL ? P->tm.wall
                                                                          : P->tm.seconds;
}

int vi_sweep_find(const vi_sweep *S, int group, int m) {
  for (int c = 0; c < S->ncurves; c++) {
    if (S->curves[c].group == group && S->curves[c].m == m) {
      return c;
    }
  }
  return -1;
}

const vi_sweep_point *vi_sweep_at(const vi_sweep *S, int curve, long N) {
  for (int i = 0; curve >= 0 && i < S->npts; i++) {
    if (S->pts[i].curve == curve && S->pts[i].N == N && S->pts[i].ok) {
      return &S->pts[i];
    }
  }
  return NULL;
}

double vi_sweep_min_err(const vi_sweep *S, int curve, int measure) {
  double lo = INFINITY;
  for (int i = 0; i < S->npts; i++) {
    const vi_sweep_point *P = &S->pts[i];
    if ((curve < 0 || P->curve == curve) && P->ok && P->err[measure] < lo) {
      lo = P->err[measure];
    }
  }
  return lo;
}

double vi_sweep_interp(const vi_sweep *S, int curve, int measure, int cost, double E, double *h,
                       char *why, size_t wl) {
  const vi_sweep_point *prev = NULL;
  double lo = INFINITY, hi = 0, h0 = NAN;
  if (h) {
    *h = NAN;
  }
  for (int i = 0; curve >= 0 && i < S->npts; i++) {
    const vi_sweep_point *P = &S->pts[i];
    const double e = P->err[measure];
    if (P->curve != curve || !P->ok || !(e > 0)) {
      continue;
    }
    h0 = isnan(h0) ? P->h : h0;
    lo = e < lo ? e : lo;
    hi = e > hi ? e : hi;
    if (prev && prev->err[measure] >= E && e <= E) {
      const double a = log(prev->err[measure]), b = log(e);
      const double f = b == a ? 0 : (log(E) - a) / (b - a);
      if (h) {
        *h = exp(log(prev->h) + f * (log(P->h) - log(prev->h)));
      }
      const double ca = log(vi_sweep_cost(prev, cost)), cb = log(vi_sweep_cost(P, cost));
      return exp(ca + f * (cb - ca));
    }
    prev = P;
  }
  if (hi == 0) {
    snprintf(why, wl, "no successful run");
  } else if (lo > E) {
    snprintf(why, wl, "reaches only %.2g", lo);
  } else if (isfinite(h0)) {
    snprintf(why, wl, "below it already at h = %.3g (%.2g)", h0, hi);
  } else {
    snprintf(why, wl, "already below at its cheapest point (%.2g)", hi);
  }
  return NAN;
}

int vi_sweep_best(const vi_sweep *S, int group, int measure, int cost, double E, double *c,
                  int *bound, char *why, size_t wl) {
  int best = -1;
  double reach = INFINITY;
  *c = NAN;
  if (bound) {
    *bound = 0;
  }
  for (int k = 0; k < S->ncurves; k++) {
    if (S->curves[k].group != group) {
      continue;
    }
    char w[160];
    double v = vi_sweep_interp(S, k, measure, cost, E, NULL, w, sizeof w);
    int b = 0;
    for (int i = 0; bound && !isfinite(v) && i < S->npts; i++) {
      const vi_sweep_point *P = &S->pts[i];
      if (P->curve == k && P->ok) {
        if (P->err[measure] <= E) { /* below E already at its cheapest run */
          v = vi_sweep_cost(P, cost);
          b = 1;
        }
        break; /* the first successful run only */
      }
    }
    if (isfinite(v) && !(v >= *c)) {
      *c = v;
      best = k;
      if (bound) {
        *bound = b;
      }
    }
    double lo = vi_sweep_min_err(S, k, measure);
    reach = lo < reach ? lo : reach;
  }
  if (best < 0) {
    snprintf(why, wl, "no curve reaches an error of %.0e (smallest error %.2g)", E, reach);
  }
  return best;
}

void vi_sweep_plot_panel(const vi_sweep *S, vi_gp *gp, const char *title, int measure,
                         int cost, int (*color)(const vi_sweep *, int),
                         int (*dash)(const vi_sweep *, int)) {
  static const char *const mname[VI_SW_NMEAS] = {
      "global q error max_k |q_k - q(t_k)|",
      "global p error max_k |p_k - p(t_k)|",
      "global lambda error max_k |lambda_k - lambda(t_k)|",
      "max energy error |H_k - H_0| (over |H_0| unless |H_0| <= 1.5e-8)",
      "constraint residual max_k |g(q_k)|",
      "q error at T, |q_N - q(T)|"};
  static const char *const cname[3] = {"CPU time [s] (pinned thread, min of repetitions)",
                                       "residual evaluations (count)", "wall time [s]"};
  vi_gp_panel(gp, title, mname[measure], cname[cost], VI_GP_LOGX | VI_GP_LOGY);
  double *x = malloc((size_t)(S->npts + 1) * sizeof *x);
  double *y = malloc((size_t)(S->npts + 1) * sizeof *y);
  for (int c = 0; x && y && c < S->ncurves; c++) {
    int n = 0;
    for (int i = 0; i < S->npts; i++) {
      const vi_sweep_point *P = &S->pts[i];
      if (P->curve == c && P->ok) {
        x[n] = P->err[measure];
        y[n++] = vi_sweep_cost(P, cost);
      }
    }
    vi_gp_curve(gp, S->curves[c].label, x, y, n, color ? color(S, c) : c, dash ? dash(S, c) : 0);
  }
  free(x);
  free(y);
}

/* ---- the runner ---------------------------------------------------------------- */

static const char *kind_name(int kind) {
  return kind == VI_SWEEP_IDA_GGL      ? "ida-ggl"
         : kind == VI_SWEEP_IDA_INDEX1 ? "ida-index1"
         : kind == VI_SWEEP_GSL_RK8PD  ? "gsl-rk8pd"
                                       : "stepper";
}

/* The row model of the runs; a sweep of parts (sweep.h) puts the part
 * first. */
#define RUN_COLS \
    {"config", .type = VI_COL_TEXT, .title = "configuration"}, \
    {"kind", .type = VI_COL_TEXT}, \
    {"group", .type = VI_COL_INT}, \
    {"m", .type = VI_COL_INT}, \
    {"method", .type = VI_COL_TEXT}, \
    {"h", .type = VI_COL_REAL, .title = "h", .fmt = "%.5g"}, \
    {"tol", .type = VI_COL_REAL, .title = "rtol = atol", .fmt = "%.2g"}, \
    {"steps", .type = VI_COL_INT}, \
    {"error_q", .type = VI_COL_REAL, .title = "q error", .fmt = "%.3e"}, \
    {"error_q_T", .type = VI_COL_REAL, .title = "q error at T", .fmt = "%.3e"}, \
    {"error_p", .type = VI_COL_REAL, .title = "p error", .fmt = "%.3e"}, \
    {"error_lambda", .type = VI_COL_REAL, .title = "lambda error", .fmt = "%.3e"}, \
    {"error_energy", .type = VI_COL_REAL, .title = "energy error", .fmt = "%.3e"}, \
    {"g_drift", .type = VI_COL_REAL, .title = "max abs g", .fmt = "%.1e"}, \
    {"seconds", .type = VI_COL_REAL, .title = "time [s]", .fmt = "%.3e"}, \
    {"wall_seconds", .type = VI_COL_REAL, .title = "wall [s]", .fmt = "%.3e"}, \
    {"repetitions", .type = VI_COL_INT, .title = "reps"}, \
    {"res_evals", .type = VI_COL_INT, .title = "res. evals"}, \
    {"jac_evals", .type = VI_COL_INT, .title = "Jac. evals"}, \
    {"newton_iters", .type = VI_COL_INT, .title = "Newton it."}, \
    {"newton_per_step", .type = VI_COL_REAL, .title = "Newton it./step", .fmt = "%.2f"}, \
    {"newton_max", .type = VI_COL_INT, .title = "max it."}, \
    {"unknowns", .type = VI_COL_INT}, \
    {"lin_setups", .type = VI_COL_INT, .title = "lin. setups"}, \
    {"err_test_fails", .type = VI_COL_INT, .title = "error test fails"}, \
    {"conv_fails", .type = VI_COL_INT, .title = "conv. fails"}, \
    {"ok", .type = VI_COL_INT}, \
    {"status", .type = VI_COL_TEXT},
static const vi_col run_cols[] = {RUN_COLS};
static const vi_col part_cols[] = {{"part", .type = VI_COL_TEXT}, RUN_COLS};
#undef RUN_COLS

/* The rows of a sweep's runs appended to R (part: the "part" column of a
 * sweep of parts, else NULL). */
static int fill_rows(const vi_sweep *S, vi_rows *R, const char *part) {
  for (int i = 0; i < S->npts; i++) {
    const vi_sweep_point *P = &S->pts[i];
    const vi_sweep_curve *C = &S->curves[P->curve];
    const int base = C->kind != VI_SWEEP_STEPPER;
    int r = vi_rows_add(R);
    if (r < 0 || (part && vi_rows_text(R, r, "part", part) != 0) ||
        vi_rows_text(R, r, "config", C->label) != 0 ||
        vi_rows_text(R, r, "kind", kind_name(C->kind)) != 0 ||
        vi_rows_text(R, r, "method", C->method) != 0 ||
        vi_rows_text(R, r, "status", P->ok ? "ok" : P->msg) != 0) {
      return -1;
    }
    vi_rows_int(R, r, "group", C->group);
    vi_rows_int(R, r, "m", C->m);
    if (!base) {
      vi_rows_real(R, r, "h", P->h);
      vi_rows_int(R, r, "unknowns", C->unknowns);
      vi_rows_int(R, r, "newton_max", P->newton_max);
    } else {
      vi_rows_real(R, r, "tol", P->tol);
      vi_rows_int(R, r, "lin_setups", P->lsetups);
      vi_rows_int(R, r, "err_test_fails", P->etfails);
      vi_rows_int(R, r, "conv_fails", P->ncfails);
    }
    vi_rows_int(R, r, "steps", P->steps);
    if (P->ok) {
      vi_rows_real(R, r, "error_q", P->err[VI_SW_Q]);
      vi_rows_real(R, r, "error_q_T", P->err[VI_SW_QT]);
      vi_rows_real(R, r, "error_p", P->err[VI_SW_P]);
      vi_rows_real(R, r, "error_lambda", P->err[VI_SW_LAMBDA]);
      vi_rows_real(R, r, "error_energy", P->err[VI_SW_ENERGY]);
      vi_rows_real(R, r, "g_drift", P->err[VI_SW_GDRIFT]);
      vi_rows_real(R, r, "seconds", P->tm.seconds);
      vi_rows_real(R, r, "wall_seconds", P->tm.wall);
      vi_rows_int(R, r, "repetitions", P->tm.reps);
    }
    vi_rows_int(R, r, "res_evals", P->fevals);
    vi_rows_int(R, r, "jac_evals", P->jevals);
    vi_rows_int(R, r, "newton_iters", P->newton);
    if (P->steps > 0) {
      vi_rows_real(R, r, "newton_per_step", (double)P->newton / (double)P->steps);
    }
    vi_rows_int(R, r, "ok", P->ok);
  }
  return 0;
}

static int keep_stepper(const vi_rows *R, int row, void *ctx) {
  (void)ctx;
  return strcmp(vi_rows_get_text(R, row, "kind"), "stepper") == 0;
}

static int keep_baseline(const vi_rows *R, int row, void *ctx) {
  return !keep_stepper(R, row, ctx);
}

static json_t *num(double v) {
  return isfinite(v) ? json_real(v) : json_null();
}

static json_t *reference_json(const vi_sweep *S) {
  json_t *rj = json_object();
  const double minerr = vi_sweep_min_err(S, -1, VI_SW_Q);
  json_object_set_new(rj, "method", json_string(S->ref_method));
  json_object_set_new(rj, "precision", json_string(S->ref_precision));
  json_object_set_new(rj, "accuracy", num(S->ref_accuracy));
  json_object_set_new(rj, "grid_h",
                      S->spec->nref > 0 ? json_real(S->T / (double)S->spec->nref)
                                        : json_string("each run's own grid"));
  json_object_set_new(rj, "cached", json_boolean(S->ref_cached));
  json_object_set_new(rj, "smallest_error", num(minerr));
  json_object_set_new(rj, "ok", json_boolean(S->ref_accuracy <= 0.1 * minerr));
  if (S->spec->nref > 0 && !S->quick && S->spec->quad_reference) {
    json_object_set_new(rj, "double_method", json_string(S->dref_method));
    json_object_set_new(rj, "double_accuracy", num(S->dref_accuracy));
    json_object_set_new(rj, "double_q_deviation", num(S->dref_dev));
  }
  return rj;
}

int vi_sweep_report_plot(vi_sweep_report *R, const char *suffix, vi_gp *g, int rows,
                         int cols, int width, int height) {
  if (R->nplots >= VI_SWEEP_MAXPLOTS) {
    vi_gp_free(g);
    return -1;
  }
  snprintf(R->plots[R->nplots].suffix, sizeof R->plots[R->nplots].suffix, "%s", suffix);
  R->plots[R->nplots].body =
      vi_gp_body(g, rows, cols); /* NULL: reported at the drawing */
  R->plots[R->nplots].width = width;
  R->plots[R->nplots].height = height;
  R->nplots++;
  vi_gp_free(g);
  return 0;
}

/* A sweep's own keys of the JSON: its system, parameters and T (head),
 * then its reference and curves. */
static void sweep_head_json(json_t *j, const vi_sweep *S) {
  json_object_set_new(j, "system", json_string(S->spec->system));
  json_object_set_new(j, "params", vi_params_json(S->sys));
  json_object_set_new(j, "T", json_real(S->T));
}

static void sweep_keys_json(json_t *j, const vi_sweep *S) {
  json_object_set_new(j, "reference", reference_json(S));
  json_t *cj = json_array();
  for (int c = 0; c < S->ncurves; c++) {
    json_t *x = json_object();
    json_object_set_new(x, "config", json_string(S->curves[c].label));
    json_object_set_new(x, "kind", json_string(kind_name(S->curves[c].kind)));
    json_object_set_new(x, "group", json_integer(S->curves[c].group));
    json_object_set_new(x, "m", json_integer(S->curves[c].m));
    json_object_set_new(x, "method", json_string(S->curves[c].method));
    if (S->curves[c].solver_ran != VI_SOLVER_AUTO) {
      json_object_set_new(x, "solver", json_string(vi_solver_kind_name(S->curves[c].solver_ran)));
    }
    json_object_set_new(x, "unknowns", json_integer(S->curves[c].unknowns));
    json_array_append_new(cj, x);
  }
  json_object_set_new(j, "configs", cj);
}

/* The Markdown's reference line of a sweep (prefix: the part's, or ""). */
static void sweep_ref_md(FILE *f, const vi_sweep *S, const char *prefix) {
  fprintf(f,
          "%sReference: %s (%s precision, accuracy %.1e, on the grid h = T / %ld); smallest "
          "q error measured %.2e.\n\n",
          prefix, S->ref_method, S->ref_precision, S->ref_accuracy, S->spec->nref,
          vi_sweep_min_err(S, -1, VI_SW_Q));
}

int vi_run_sweep(const vi_study *s, const reproduce_opts *o) {
  const vi_sweep_spec *sp = s->spec;
  const char *id = s->id;
  const double t0 = vi_clock();
  char err[1024] = "";
  int status = VI_EXIT_FAIL;
  vi_sweep S;
  vi_rows R;
  vi_rows_init(&R, run_cols, 0);
  vi_sweep_report rep;
  memset(&rep, 0, sizeof rep);
  char *mdbuf = NULL, *sumbuf = NULL, *csv = NULL;
  size_t mdlen = 0, sumlen = 0;
  /* The sweeps run: S itself, or (a sweep of parts) S's parts; S then holds
   * only the study's spec, ID, timing and run time. */
  vi_sweep *W = &S;
  int nw = 1;
  if (sp->nparts > 0) {
    memset(&S, 0, sizeof S);
    S.spec = sp;
    S.id = id;
    S.quick = o->quick;
    S.tg.core = -1;
    S.parts = calloc((size_t)sp->nparts, sizeof *S.parts);
    if (!S.parts) {
      vi_set_err(err, sizeof err, "out of memory");
      goto out;
    }
    W = S.parts;
    for (int i = 0; i < sp->nparts; i++) {
      S.nparts = i + 1; /* closed at the end, opened or not */
      if (vi_sweep_open(&W[i], sp->parts[i], id, o->quick, o->progress, o->progress_every,
                        o->cache_dir, err, sizeof err) != 0 ||
          sp->parts[i]->curves(&W[i]) != 0) {
        if (!err[0]) {
          vi_set_err(err, sizeof err, "out of memory");
        }
        goto out;
      }
    }
    nw = sp->nparts;
  } else if (vi_sweep_open(&S, sp, id, o->quick, o->progress, o->progress_every, o->cache_dir,
                           err, sizeof err) != 0 ||
             sp->curves(&S) != 0) {
    goto out;
  }
  vi_timing_begin(&S.tg);
  if (S.tg.pin_note[0]) {
    fprintf(stderr, "%s: timings unpinned: %s\n", id, S.tg.pin_note);
  }
  for (int w = 0; w < nw; w++) {
    for (int c = 0; c < W[w].ncurves; c++) {
      if (vi_sweep_curve_run(&W[w], c, err, sizeof err) != 0) {
        goto out;
      }
    }
  }
  for (int w = 0; w < nw; w++) {
    vi_sweep_time(&W[w]);
  }
  /* A sweep of parts stays pinned through its report hook, which may time
   * runs of its own. */
  if (nw == 1 && W == &S) {
    vi_timing_end(&S.tg);
  }
  S.seconds = vi_clock() - t0;
  for (int w = 0; w < nw; w++) {
    W[w].seconds = S.seconds;
    W[w].tg = S.tg;
    W[w].tg.pin = NULL; /* S's to release */
  }
  if (sp->nparts > 0) {
    vi_rows_init(&R, part_cols, (int)(sizeof part_cols / sizeof part_cols[0]));
  } else {
    vi_rows_init(&R, run_cols, (int)(sizeof run_cols / sizeof run_cols[0]));
  }
  for (int w = 0; w < nw; w++) {
    if (fill_rows(&W[w], &R, sp->nparts > 0 ? W[w].spec->part_name : NULL) != 0) {
      vi_set_err(err, sizeof err, "out of memory");
      goto out;
    }
  }

  rep.j = json_object();
  rep.md = open_memstream(&mdbuf, &mdlen);
  rep.summary = open_memstream(&sumbuf, &sumlen);
  if (!rep.j || !rep.md || !rep.summary) {
    vi_set_err(err, sizeof err, "out of memory");
    goto out;
  }
  json_t *j = rep.j;
  json_object_set_new(j, "id", json_string(id));
  json_object_set_new(j, "title", json_string(s->title));
  if (sp->nparts > 0) {
    json_t *pj = json_array();
    for (int w = 0; w < nw; w++) {
      json_t *x = json_object();
      json_object_set_new(x, "part", json_string(W[w].spec->part_name));
      sweep_head_json(x, &W[w]);
      sweep_keys_json(x, &W[w]);
      json_array_append_new(pj, x);
    }
    json_object_set_new(j, "parts", pj);
  } else {
    sweep_head_json(j, &S);
  }
  json_object_set_new(j, "quick", json_boolean(o->quick));
  json_object_set_new(j, "machine", vi_machine_json(&S.tg.machine, S.tg.line));
  json_object_set_new(j, "pinned_core", S.tg.core >= 0 ? json_integer(S.tg.core) : json_null());
  json_object_set_new(j, "schedule", json_string(VI_TIMING_SCHEDULE));
  json_object_set_new(
      j, "timing",
      json_string("seconds: CPU time of the pinned thread (CLOCK_THREAD_CPUTIME_ID), "
                  "wall_seconds: wall clock; each the minimum of the repetitions (the count "
                  "per run in 'repetitions', by its time; 1 with --quick) taken in passes "
                  "over the study; stepper init and steps (IDA: create, init, solve), the "
                  "copy of every node, reference and error evaluation excluded"));
  json_object_set_new(j, "error_measures",
                      json_string("error_q, error_p: max over the nodes shared with the "
                                  "reference of the max-norm error; error_lambda the same "
                                  "over k >= 1; error_energy: max over the nodes of "
                                  "|H_k - H_0| / |H_0|, absolute when |H_0| <= 1.5e-8 (every "
                                  "node, or the baselines' output times when the spec says "
                                  "energy_at_outputs); error_q_T: |q_N - q_ref(T)|; g_drift: "
                                  "max_k |g(q_k)|_inf"));
  if (sp->nparts == 0) {
    sweep_keys_json(j, &S);
  }
  json_object_set_new(j, "points", vi_rows_json(&R, NULL, NULL));

  fprintf(rep.md, "# %s\n\n", s->title);
  fprintf(rep.md, "%s`vistudy reproduce %s%s`. Machine: %s%s.\n\n",
          o->quick ? "**Quick run** (reduced sweep, one repetition): " : "", id,
          o->quick ? " --quick" : "", S.tg.line,
          S.tg.core >= 0 ? "" : " (timings unpinned)");
  for (int w = 0; w < nw; w++) {
    char prefix[160] = "";
    if (sp->nparts > 0) {
      snprintf(prefix, sizeof prefix, "**%s** (`%s`, T = %g). ", W[w].spec->part_name,
               W[w].spec->system, W[w].T);
    }
    sweep_ref_md(rep.md, &W[w], prefix);
  }
  if (sp->report(&S, &rep, err, sizeof err) != 0) {
    goto out;
  }
  vi_timing_end(&S.tg);
  fprintf(rep.summary, " Pinned core %d; %.1f s.\n", S.tg.core, S.seconds);
  vi_claims_json(j, rep.claims, rep.nclaims);
  if (rep.nclaims > 0) {
    vi_claims_md(rep.md, rep.claims_heading ? rep.claims_heading : "Claims", rep.claims,
                 rep.nclaims);
  }
  static const char *const stepper_md[] = {
      "config", "h", "steps", "error_q", "error_p", "error_energy", "g_drift", "seconds",
      "unknowns", "res_evals", "newton_per_step", "status", NULL};
  static const char *const part_md[] = {
      "part", "config", "h", "steps", "error_q", "error_p", "error_energy", "g_drift",
      "seconds", "unknowns", "res_evals", "newton_per_step", "status", NULL};
  static const char *const base_md[] = {"config", "tol", "steps", "error_q", "g_drift",
                                        "seconds", "res_evals", "jac_evals", "newton_iters",
                                        "err_test_fails", "status", NULL};
  int nbase = 0;
  for (int w = 0; w < nw; w++) {
    for (int c = 0; c < W[w].ncurves; c++) {
      nbase += W[w].curves[c].kind != VI_SWEEP_STEPPER;
    }
  }
  fprintf(rep.md, "## Runs\n\n");
  vi_rows_md(rep.md, &R, sp->nparts > 0 ? part_md : stepper_md, keep_stepper, NULL);
  if (nbase) {
    fprintf(rep.md, "## Baseline runs\n\n");
    vi_rows_md(rep.md, &R, base_md, keep_baseline, NULL);
  }
  S.seconds = vi_clock() - t0;
  fprintf(rep.md, "Study run time %.1f s. Regenerate with `vistudy reproduce %s`.\n",
          S.seconds, id);
  json_object_set_new(j, "seconds_total", json_real(S.seconds));
  csv = vi_rows_csv(&R, NULL, NULL);
  if (fclose(rep.md) != 0 || fclose(rep.summary) != 0 || !csv) {
    rep.md = rep.summary = NULL;
    vi_set_err(err, sizeof err, "out of memory");
    goto out;
  }
  rep.md = rep.summary = NULL;
  /* The study's files and its plots, replaced together (outfile.h). */
  vi_outset set;
  vi_outset_init(&set);
  int staged = vi_study_stage(&set, o->results_dir, id, j, mdbuf, csv, err, sizeof err) == 0;
  for (int i = 0; staged && i < rep.nplots; i++) {
    char name[256];
    snprintf(name, sizeof name, "%s%s", id, rep.plots[i].suffix);
    if (!rep.plots[i].body) {
      vi_set_err(err, sizeof err, "out of memory");
    }
    staged = rep.plots[i].body && vi_plot_stage(&set, o->results_dir, name, rep.plots[i].body,
                                                rep.plots[i].width, rep.plots[i].height, err,
                                                sizeof err) == 0;
  }
  if (!staged) {
    vi_outset_abort(&set);
    goto out;
  }
  if (vi_outset_commit(&set, err, sizeof err) != 0) {
    goto out;
  }
  status = VI_EXIT_OK;
  fputs(sumbuf, stdout);
  if (rep.nclaims > 0) {
    vi_claims_print(stdout, id, rep.claims_whose, rep.claims, rep.nclaims);
  }
  printf("  results: %s/%s.{md,json,csv,svg,png,pdf}\n", o->results_dir, id);
  if (status == VI_EXIT_OK && vi_claims_status(rep.claims, rep.nclaims, o->strict)) {
    status = VI_EXIT_FAIL;
  }
  err[0] = 0;
out:
  if (status != VI_EXIT_OK && err[0]) {
    fprintf(stderr, "vistudy reproduce: %s: %s\n", id, err);
  }
  vi_timing_end(&S.tg);
  if (rep.md) {
    fclose(rep.md);
  }
  if (rep.summary) {
    fclose(rep.summary);
  }
  for (int i = 0; i < rep.nplots; i++) {
    free(rep.plots[i].body);
  }
  json_decref(rep.j);
  free(mdbuf);
  free(sumbuf);
  free(csv);
  vi_rows_free(&R);
  for (int w = 0; S.parts && w < S.nparts; w++) {
    vi_sweep_close(&S.parts[w]);
  }
  free(S.parts);
  S.parts = NULL;
  vi_sweep_close(&S);
  return status;
}
