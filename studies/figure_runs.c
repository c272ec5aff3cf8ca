/* figure_runs.c: the curves of the figure runner by kind (figure.h): a
 * trace or a residual trace (one long run reduced to windows of a measure,
 * through vi_api's trace, in either precision), an m-sweep (one number per
 * value of a family's option, rerun in quad where double cannot resolve
 * it), a convergence curve (an order study with its fitted order) and the
 * timed work-precision curves (through the sweep core, sweep.h). The
 * driver is run_figure.c, the outputs figure_out.c. */
#include "figure_impl.h"
#include "fit.h"
#include "sweep.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Sweep of fig4/fig5: h_k = 1 * 2^(-k/2), N = round(T / h_k), until the
 * error is below WORK_EMIN or stops decreasing below WORK_EPLATEAU (the
 * round-off plateau, where a smaller h only costs time). */
#define WORK_H0 1.0
#define WORK_EPLATEAU 1e-8
#define WORK_EMAX 0.1
#define WORK_EMIN 1e-12
#define WORK_NMAX 40000
#define WORK_HMIN 1e-3
/* The repetitions of every timed study (timing.h): 3, 5 below 50 ms, 7
 * below 5 ms, in passes. */
static const vi_reps_policy work_reps = {7, 5, 3};

/* A trace keeps per window the smallest and largest change (or value) of
 * its measure, then the window maximum of each measure followed beside it. */
static const char *const trace_cols[] = {"t", "min", "max"};
/* msweep: per value the global error (47) and its maximum over the first
 * and the last tenth of the run, and whether the run was done in quad. */
static const char *const msweep_cols[] = {"m", "h", "err", "err_first_tenth",
                                          "err_last_tenth", "quad"};
static const char *const work_cols[] = {"h", "steps", "seconds", "err_q", "err_p",
                                        "err_lambda", "newton_per_step", "fevals"};
static const char *const conv_cols[] = {"h", "steps", "err", "newton_per_step"};
/* A path: per kept node its time and the abscissa's and the ordinate's
 * values. */
static const char *const path_cols[] = {"t", "x", "y"};

int vi_fig_push(vi_series *s, const double *row) {
  if (s->rows == s->cap) {
    int cap = s->cap ? 2 * s->cap : 64;
    double *v = realloc(s->v, (size_t)cap * (size_t)s->ncol * sizeof *v);
    if (!v) {
      return -1;
    }
    s->v = v;
    s->cap = cap;
  }
  memcpy(s->v + (size_t)s->rows * (size_t)s->ncol, row, (size_t)s->ncol * sizeof *row);
  s->rows++;
  return 0;
}

int vi_fig_cols(const vi_fig_spec *f, const char **cols) {
  const char *const *src = f->kind == VI_FIG_WORK          ? work_cols
                           : f->kind == VI_FIG_MSWEEP      ? msweep_cols
                           : f->kind == VI_FIG_CONVERGENCE ? conv_cols
                           : f->kind == VI_FIG_PATH        ? path_cols
                                                           : trace_cols;
  const int n = f->kind == VI_FIG_WORK          ? 8
                : f->kind == VI_FIG_MSWEEP      ? VI_M_NCOL
                : f->kind == VI_FIG_CONVERGENCE ? VI_C_NCOL
                                                : 3;
  for (int c = 0; c < n; c++) {
    cols[c] = src[c];
  }
  if (n != 3 || f->kind == VI_FIG_PATH) {
    return n;
  }
  /* A trace: t, min, max, then the columns of the measures beside it. */
  int k = n;
  for (int j = 0; j < VI_TRACE_MAXALSO && f->also[j].measure; j++) {
    cols[k++] = f->also[j].column ? f->also[j].column : f->also[j].measure;
  }
  return k;
}

const vi_series *vi_fig_find(const vi_series *ss, int ns, const char *label) {
  for (int i = 0; i < ns; i++) {
    if (strcmp(ss[i].label, label) == 0) {
      return &ss[i];
    }
  }
  return NULL;
}

int vi_fig_need(const vi_fig_spec *f, const vi_series *ss, int ns, const char *const *labels,
                int n, const vi_series **out, char *err, size_t errlen) {
  for (int i = 0; i < n; i++) {
    if (!(out[i] = vi_fig_find(ss, ns, labels[i]))) {
      snprintf(err, errlen, "%s: no series '%s'", f->id, labels[i]);
      return -1;
    }
  }
  return 0;
}

void vi_fig_range(const vi_series *s, double a, double b, double *lo, double *hi) {
  *lo = INFINITY;
  *hi = -INFINITY;
  for (int r = 0; r < s->rows; r++) {
    const double t = vi_fig_at(s, r, 0), x = vi_fig_at(s, r, 1), y = vi_fig_at(s, r, 2);
    if (t < a * (1 - 1e-12) || t > b * (1 + 1e-12)) {
      continue;
    }
    if (x != x || y != y) {
      *lo = *hi = NAN;
      return;
    }
    *lo = x < *lo ? x : *lo;
    *hi = y > *hi ? y : *hi;
  }
}

double vi_fig_amax(const vi_series *s, double a, double b) {
  double lo, hi;
  vi_fig_range(s, a, b, &lo, &hi);
  return fmax(fabs(lo), fabs(hi));
}

int vi_fig_bounded(const vi_series *s, double T, double *first, double *second) {
  *first = vi_fig_amax(s, 0, T / 2);
  *second = vi_fig_amax(s, T / 2 * (1 + 1e-9), T);
  return !isfinite(s->event_t) && *second <= 2 * *first;
}

const char *vi_fig_series_measure(const vi_fig_spec *f, const vi_series *s) {
  return s->measure[0] ? s->measure : f->measure;
}

const char *vi_fig_path_x(const vi_fig_spec *f, int i) {
  return f->curves[i].xmeasure ? f->curves[i].xmeasure : f->path.x;
}

/* The swept option of an m-sweep and the separator that adds it to the
 * curve's spec (NAME or NAME:k=v,...). */
static const char *msweep_key(const vi_fig_spec *f) {
  return f->msweep.key ? f->msweep.key : "m";
}

static const char *msweep_sep(const vi_curve_spec *c) {
  return strchr(c->method, ':') ? "," : ":";
}

static int msweep_hi(const vi_fig_spec *f, int quick) {
  return quick ? f->msweep.hi_quick : f->msweep.hi;
}

int vi_fig_curve_method(const vi_fig_spec *f, int i, int quick, char *buf, size_t len,
                        char *why, size_t whylen) {
  const vi_curve_spec *c = &f->curves[i];
  if (f->kind == VI_FIG_MSWEEP) {
    /* The curve's spec as given, with the range of the swept option. */
    const int n = snprintf(buf, len, "%s%s%s=%d..%d", c->method, msweep_sep(c),
                           msweep_key(f), f->msweep.lo, msweep_hi(f, quick));
    if (n < 0 || (size_t)n >= len) {
      snprintf(why, whylen, "the spec of curve '%.60s' is too long", c->label);
      return -1;
    }
    return 0;
  }
  /* A stepper's canonical spec, as its trace, order study or sweep
   * records it. */
  return vi_study_method(c->method, buf, len, why, whylen);
}

void vi_fig_breakdown_what(const vi_fig_spec *f, const vi_curve_spec *c, char *buf,
                           size_t len) {
  const char *measure = c->measure ? c->measure : f->measure;
  const int energy = strcmp(measure, "energy") == 0;
  const char *x = energy ? "H" : measure;
  if (f->relative) {
    snprintf(buf, len, "|%s - %s(0)| / |%s(0)| > %g", x, x, x, f->trace.breakdown);
  } else {
    snprintf(buf, len, "|%s - %s(0)| > %g", x, x, f->trace.breakdown);
  }
}

/* The number of the figure's system settings (vi_fig_spec.set). */
static int fig_nset(const vi_fig_spec *f) {
  int n = 0;
  while (n < VI_FIG_MAXSET && f->set[n]) {
    n++;
  }
  return n;
}

/* ---- traces ----------------------------------------------------------------- */

/* The sinks of a trace: the window rows into s, the every-step rows into z. */
static int push_window(void *ctx, const double *row, int ncol) {
  vi_series *const *sz = ctx;
  (void)ncol;
  return vi_fig_push(sz[0], row) == 0 ? VI_OK : VI_ENOMEM;
}

static int push_every(void *ctx, const double *row, int ncol) {
  vi_series *const *sz = ctx;
  (void)ncol;
  return vi_fig_push(sz[1], row) == 0 ? VI_OK : VI_ENOMEM;
}

/* One trace (or residual trace) of curve c over [0, T] in the working
 * precision of api: windows into s, every step of [0, zoom] into z (NULL:
 * none), the summary numbers, and a breakdown as the curve's event. */
static int trace_curve(const vi_api *api, const vi_fig_spec *f, const vi_curve_spec *c,
                       double T, double zoom, vi_series *s, vi_series *z, char *err,
                       size_t errlen) {
  const char *measure = c->measure ? c->measure : f->measure;
  vi_series *sz[2] = {s, z};
  vi_trace_config tc = {0};
  tc.system = f->system;
  tc.nset = fig_nset(f);
  tc.set = f->set;
  tc.method = c->method;
  tc.h = c->h;
  tc.N = lround(T / c->h);
  tc.solver.rtol = (vi_wide)c->rtol;
  tc.measure = measure;
  tc.relative = f->relative;
  tc.follow = f->trace.follow;
  for (int j = 0; j < VI_TRACE_MAXALSO && f->also[j].measure; j++) {
    tc.also[tc.nalso++] = f->also[j].measure;
  }
  tc.per = tc.N / VI_FIG_TRACE_WINDOWS > 0 ? tc.N / VI_FIG_TRACE_WINDOWS : 1;
  tc.zoom = z ? zoom : 0;
  tc.breakdown = f->trace.breakdown;
  tc.window = push_window;
  tc.every = z ? push_every : NULL;
  tc.ctx = sz;
  vi_trace_result tr;
  err[0] = '\0';
  int rc = api->trace(&tc, &tr, err, errlen);
  snprintf(s->method, sizeof s->method, "%s", tr.method);
  s->event_t = NAN;
  s->event[0] = 0;
  if (rc == VI_OK && (tr.broke || tr.status != VI_OK)) {
    /* A breakdown is the curve's event, not a failure of the study. */
    s->event_t = (double)tr.last_node * c->h;
    if (tr.broke) {
      vi_fig_breakdown_what(f, c, s->event, sizeof s->event);
    } else {
      snprintf(s->event, sizeof s->event, "%s", vi_strerror(tr.status));
    }
  }
  s->h = c->h;
  if (z) {
    z->h = c->h;
    memcpy(z->method, s->method, sizeof z->method);
  }
  s->I0 = tr.I0;
  s->amax = tr.amax;
  s->first = tr.first;
  s->last = tr.last;
  s->status = rc;
  return rc;
}

/* The change of a measure over the first N steps in quad precision:
 * out[0] = max_k |I_k - I_0| (relative: over |I_0|, man2020 (46)), out[1],
 * out[2] its maximum over the first and the last tenth of the steps. A
 * scheme that conserves a momentum map exactly (wenger2017 §3.4.2, man2020
 * (60)) shows a change at the quad round-off level, where a non-conserving
 * one would show its truncation error; an energy error that double cannot
 * resolve (man2020-fig3) is measured here. */
static int quad_invariant_error(const char *system, int nset, const char *const *set,
                                const char *method, double h, long N, const char *measure,
                                int relative, double *out, char *err, size_t errlen) {
  vi_trace_config tc = {0};
  tc.system = system;
  tc.nset = nset;
  tc.set = set;
  tc.method = method;
  tc.h = h;
  tc.N = N;
  tc.measure = measure;
  tc.relative = relative;
  tc.follow = VI_TRACE_CHANGE; /* max |I_k - I_0|, whatever the reference says */
  vi_trace_result tr;
  char why[512] = "";
  int rc = vi_api_of(VI_QUAD)->trace(&tc, &tr, why, sizeof why);
  out[0] = tr.amax;
  out[1] = tr.first;
  out[2] = tr.last;
  if (rc != VI_OK) {
    snprintf(err, errlen, "%s in quad: %s", method, why[0] ? why : vi_strerror(rc));
  }
  return rc;
}

int vi_fig_quad_invariant_error(const char *system, const char *method, double h, long N,
                                const char *measure, int relative, double *out, char *err,
                                size_t errlen) {
  return quad_invariant_error(system, 0, NULL, method, h, N, measure, relative, out, err,
                              errlen);
}

int vi_fig_quad_check(const vi_fig_spec *f, vi_series *ss, int ns, int quick, char *err,
                      size_t errlen) {
  const double Tq = quick ? f->trace.quad_T_quick : f->trace.quad_T;
  for (int i = 0; i < ns; i++) {
    double qe[3];
    int rc = quad_invariant_error(f->system, fig_nset(f), f->set, ss[i].method, ss[i].h,
                                  lround(Tq / ss[i].h), vi_fig_series_measure(f, &ss[i]), 0, qe,
                                  err, errlen);
    if (rc != VI_OK) {
      return -1;
    }
    ss[i].quad = qe[0];
  }
  return 0;
}

/* ---- paths ----------------------------------------------------------------- */

/* The sink of a path: every node of the trace's every-step rows (t, y, y,
 * x), of which every stride-th and the last are kept as (t, x, y). */
typedef struct path_sink {
  vi_series *s;
  double h;
  long N, stride;
} path_sink;

static int push_path(void *ctx, const double *row, int ncol) {
  path_sink *p = ctx;
  (void)ncol;
  const long k = lround(row[0] / p->h);
  if (k % p->stride != 0 && k != p->N) {
    return VI_OK;
  }
  const double r[3] = {row[0], row[3], row[1]};
  return vi_fig_push(p->s, r) == 0 ? VI_OK : VI_ENOMEM;
}

/* One path: the curve's measure (the ordinate) against the abscissa's
 * along one run over [0, T], both as values (a first integral too), every
 * node up to VI_FIG_TRACE_WINDOWS rows (the trace's every-step rows over
 * the whole run, with the abscissa as the measure beside it). */
static int path_curve(const vi_fig_spec *f, int i, double T, vi_series *s, char *err,
                      size_t errlen) {
  const vi_curve_spec *c = &f->curves[i];
  const char *y = c->measure ? c->measure : f->measure, *x = vi_fig_path_x(f, i);
  if (!x || !y) {
    snprintf(err, errlen, "%s: path curve '%.60s' needs an abscissa and an ordinate measure",
             f->id, c->label);
    return VI_EINVAL;
  }
  const long N = lround(T / c->h);
  path_sink ps = {s, c->h, N, N / VI_FIG_TRACE_WINDOWS + 1};
  vi_trace_config tc = {0};
  tc.system = f->system;
  tc.nset = fig_nset(f);
  tc.set = f->set;
  tc.method = c->method;
  tc.h = c->h;
  tc.N = N;
  tc.solver.rtol = (vi_wide)c->rtol;
  tc.measure = y;
  tc.follow = VI_TRACE_VALUE;
  tc.nalso = 1;
  tc.also[0] = x;
  tc.zoom = (double)N * c->h;
  tc.every = push_path;
  tc.ctx = &ps;
  vi_trace_result tr;
  err[0] = '\0';
  const int rc = vi_api_of(VI_DOUBLE)->trace(&tc, &tr, err, errlen);
  snprintf(s->method, sizeof s->method, "%s", tr.method);
  s->h = c->h;
  s->event_t = NAN;
  s->event[0] = 0;
  s->I0 = tr.I0;
  s->amax = tr.amax;
  s->first = tr.first;
  s->last = tr.last;
  s->status = rc;
  return rc;
}

/* ---- m-sweeps -------------------------------------------------------------- */

/* One point per value of the swept option (man2020 §4.2 Fig. 3: m): the
 * global error (47) of a run over [0, T] at the curve's step, in double,
 * rerun in quad when double round-off would be a visible part of it. */
#define MSWEEP_QUAD_BELOW 1e-11

static int msweep_curve(const vi_fig_spec *f, int i, double T, int quick, vi_series *s,
                        char *err, size_t errlen) {
  const vi_curve_spec *c = &f->curves[i];
  const int hi = msweep_hi(f, quick);
  /* What the curve records as its method (shared with the store's check). */
  if (vi_fig_curve_method(f, i, quick, s->method, sizeof s->method, err, errlen) != 0) {
    return VI_EINVAL;
  }
  const long N = lround(T / c->h);
  const char *key = msweep_key(f);
  const char *measure = c->measure ? c->measure : f->measure;
  /* The swept option added to the curve's spec (NAME or NAME:k=v,...). */
  const char *sep = msweep_sep(c);
  for (int m = f->msweep.lo; m <= hi; m++) {
    char spec[256];
    snprintf(spec, sizeof spec, "%s%s%s=%d", c->method, sep, key, m);
    vi_curve_spec cm = *c;
    cm.method = spec;
    vi_series tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.cols = trace_cols;
    tmp.ncol = 3;
    int rc = trace_curve(vi_api_of(VI_DOUBLE), f, &cm, T, 0, &tmp, NULL, err, errlen);
    double e[3] = {tmp.amax, tmp.first, tmp.last};
    free(tmp.v);
    if (rc != VI_OK) {
      return rc;
    }
    int quad = e[0] < MSWEEP_QUAD_BELOW;
    if (quad) {
      rc = quad_invariant_error(f->system, fig_nset(f), f->set, spec, c->h, N, measure,
                                f->relative, e, err, errlen);
      if (rc != VI_OK) {
        return rc;
      }
    }
    double row[VI_M_NCOL] = {m, c->h, e[0], e[1], e[2], quad};
    if (vi_fig_push(s, row) != 0) {
      return VI_ENOMEM;
    }
  }
  s->h = c->h;
  s->status = VI_OK;
  return VI_OK;
}

/* ---- convergence curves ------------------------------------------------------ */

/* One curve of a convergence figure: an order study of the curve's method
 * (docs/orders.md: automatic step sizes unless the spec lists them, the
 * precision policy, the fit and its verdict) on the figure's system over
 * [0, T]; the rows are (h, steps, error of the quantity, Newton
 * iterations per step) and the fit goes to the series. */
static int conv_curve(const vi_fig_spec *f, const vi_curve_spec *c, double T, int quick,
                      vi_series *s, char *err, size_t errlen) {
  const vi_fig_convergence *cv = &f->conv;
  vi_order_config a = {0};
  a.system = f->system;
  a.nset = fig_nset(f);
  a.set = f->set;
  a.method = c->method;
  a.T = T;
  a.nN = quick && cv->nN > 4 ? 4 : cv->nN;
  for (int i = 0; i < a.nN; i++) {
    a.N[i] = cv->N[i];
  }
  a.measure = cv->quantity == VI_ENERGY ? VI_MEASURE_ENERGY : VI_MEASURE_STATE;
  a.energy_only = cv->quantity == VI_ENERGY;
  a.at_final = cv->at_final;
  vi_order_result *r = calloc(1, sizeof *r);
  if (!r) {
    snprintf(err, errlen, "out of memory");
    return VI_ENOMEM;
  }
  int rc = vi_order_run(&a, cv->precision, r, err, errlen);
  if (rc == VI_OK) {
    double fl = 0;
    const double *e = vi_order_errors(r, cv->quantity, &fl);
    for (int i = 0; i < r->nh; i++) {
      double row[VI_C_NCOL] = {r->h[i], (double)r->steps[i], e[i], r->newton_per_step[i]};
      if (vi_fig_push(s, row) != 0) {
        rc = VI_ENOMEM;
        break;
      }
    }
    vi_fit ft = vi_fit_order(r->nh, r->h, e, fl, 10.0);
    vi_fit_solver_check(&ft, r->newton_per_step);
    s->fit_ok = ft.verdict == VI_VERDICT_OK;
    s->order = s->fit_ok ? ft.order : NAN;
    s->uncertainty = s->fit_ok ? ft.uncertainty : NAN;
    s->fit_lo = ft.lo;
    s->fit_hi = ft.hi;
    snprintf(s->fit_why, sizeof s->fit_why, "%s", s->fit_ok ? "ok" : vi_fit_why(ft.why));
    snprintf(s->precision, sizeof s->precision, "%s", r->precision_note);
    snprintf(s->method, sizeof s->method, "%s", r->method);
  }
  free(r);
  s->h = 0;
  s->status = rc;
  return rc;
}

int vi_fig_curve_run(const vi_fig_spec *f, int i, double T, double zoom, int quick,
                     vi_series *s, vi_series *z, char *err, size_t errlen) {
  const vi_curve_spec *c = &f->curves[i];
  switch (f->kind) {
  case VI_FIG_MSWEEP:
    return msweep_curve(f, i, T, quick, s, err, errlen);
  case VI_FIG_CONVERGENCE:
    return conv_curve(f, c, T, quick, s, err, errlen);
  case VI_FIG_PATH:
    return path_curve(f, i, T, s, err, errlen);
  default:
    return trace_curve(vi_api_of(VI_DOUBLE), f, c, T, zoom, s, z, err, errlen);
  }
}

/* ---- work-precision -------------------------------------------------------- */

/* The work-precision curves (fig4, fig5) through the sweep core
 * (sweep.h): the same runs, timing and repetitions in passes as every
 * timed study. Every curve not restored from the store is swept, then all
 * are timed together; a reference on each run's own grid (cached). A
 * coarse step the Newton solve cannot take is not a point, and finer ones
 * may still work; an error of the size of the motion itself (the pendulum
 * swings through about 1.6 length units) converged to another solution
 * branch and is not a point either. */
int vi_fig_work_sweeps(const vi_fig_spec *f, vi_series *ss, int ns, double T,
                       const reproduce_opts *o, char *err, size_t errlen) {
  long ladder[64], prevN = 0;
  int nl = 0, nq = 0;
  for (int k = 0; nl < 64; k++) {
    const long N = lround(T / (WORK_H0 * pow(2.0, -0.5 * k)));
    if (N > WORK_NMAX || T / (double)N < WORK_HMIN) {
      break;
    }
    if (N > prevN) {
      ladder[nl++] = prevN = N;
      nq += N <= 400;
    }
  }
  const vi_sweep_spec spec = {
      .system = f->system,
      .T = T,
      .ladder = ladder,
      .nladder = nl,
      .quick_ladder = ladder,
      .nquick = nq,
      .stop_err = WORK_EMIN,
      .stop_err_quick = WORK_EMIN,
      .plateau_below = WORK_EPLATEAU,
      .plateau_ratio = 0.7,
      .discard_above = WORK_EMAX,
      .reps = work_reps,
  };
  if (fig_nset(f) > 0) {
    /* The sweep core integrates the system's defaults. */
    vi_set_err(err, errlen, "%s: a work-precision figure takes no system settings", f->id);
    return -1;
  }
  vi_sweep S;
  int rc = vi_sweep_open(&S, &spec, f->id, o->quick, o->progress, o->progress_every,
                         o->cache_dir, err, errlen);
  int idx[VI_FIG_MAXCURVES];
  for (int i = 0; rc == 0 && i < ns; i++) {
    idx[i] = -1;
    if (ss[i].done) {
      continue;
    }
    idx[i] = vi_sweep_add(&S, VI_SWEEP_STEPPER, 0, i, f->curves[i].label, f->curves[i].method);
    rc = idx[i] < 0 ? (vi_set_err(err, errlen, "out of memory"), -1)
                    : vi_sweep_curve_run(&S, idx[i], err, errlen);
  }
  if (rc == 0) {
    vi_sweep_time(&S);
  }
  for (int i = 0; rc == 0 && i < ns; i++) {
    if (idx[i] < 0) {
      continue;
    }
    ss[i].rows = 0;
    ss[i].status = VI_OK;
    snprintf(ss[i].method, sizeof ss[i].method, "%s", S.curves[idx[i]].method);
    for (int k = 0; k < S.npts; k++) {
      const vi_sweep_point *P = &S.pts[k];
      if (P->curve != idx[i] || !P->ok) {
        continue;
      }
      double row[VI_FIG_MAXCOLS];
      row[VI_W_H] = P->h;
      row[VI_W_STEPS] = (double)P->N;
      row[VI_W_SEC] = P->tm.seconds;
      row[VI_W_EQ] = P->err[VI_SW_Q];
      row[VI_W_EP] = P->err[VI_SW_P];
      row[VI_W_EL] = P->err[VI_SW_LAMBDA];
      row[VI_W_NEWTON] = P->steps ? (double)P->newton / (double)P->steps : 0;
      row[VI_W_FEVALS] = P->steps ? (double)P->fevals / (double)P->steps : 0;
      if (vi_fig_push(&ss[i], row) != 0) {
        vi_set_err(err, errlen, "out of memory");
        rc = -1;
        break;
      }
    }
  }
  vi_sweep_close(&S);
  return rc;
}
