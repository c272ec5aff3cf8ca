/* run_figure.c: the figure runner (figure.h): the figures of the papers
 * (specs and claim predicates in studies/papers/) as reproduce studies.
 *
 * Three kinds: a trace (the error of an invariant along one long run per
 * curve, stored as an envelope: the minimum and maximum of the signed
 * error over each window of steps, so no peak is lost however many steps
 * a window has, with an optional every-step zoom); a work-precision sweep
 * (run time against global error over a ladder of steps); an m-sweep (one
 * global error per number of points m).
 * Run times: the work-precision curves go through the sweep core
 * (sweep.h), so they are timed as every timed study is (timing.h): CPU
 * time of the pinned thread, minimum over repetitions taken in passes over
 * the figure, errors evaluated outside the timing; the machine is
 * described in the outputs.
 *
 * Figures have no published numbers; what the paper's text claims about
 * each figure is checked instead and reported as claims (held or not);
 * --strict turns a claim that does not hold into exit 1.
 *
 * Outputs (atomic): results/ID.json (everything), ID.csv (long format),
 * ID.md (summary and claims), ID.dat (the series as gnuplot data blocks; the
 * script ID.gp carries its own copy inline), ID.gp, ID.svg,
 * ID.png. Each finished series is kept in ID.partial.json, so an
 * interrupted run resumes (--fresh starts over). */
/* sched_getaffinity, CPU_COUNT (glibc). */
#define _GNU_SOURCE
#include "cells.h"
#include "machine.h"
#include "outfile.h"
#include "plot.h"
#include "report.h"
#include "reproduce.h"
#include "figure.h"
#include "sweep.h"
#include "study.h"
#include "vistudy.h"

#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <unistd.h>
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
#define TRACE_WINDOWS 2000

static const char *const trace_cols[] = {"t", "min", "max"};
/* msweep: per m the global error (47) and its maximum over the first and
 * the last tenth of the run, and whether the run was done in quad. */
static const char *const msweep_cols[] = {"m", "h", "err", "err_first_tenth",
                                          "err_last_tenth", "quad"};
static const char *const work_cols[] = {"h", "steps", "seconds", "err_q", "err_p",
                                        "err_lambda", "newton_per_step", "fevals"};

static int series_push(vi_series *s, const double *row) {
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


/* ---- runs ------------------------------------------------------------------ */

static int open_system(const char *name, vi_system_d **sys, char *err, size_t errlen) {
  const vi_system_type_d *type = vi_system_find_d(name, err, errlen);
  if (!type) {
    return VI_EINVAL;
  }
  return vi_system_alloc_d(type, 0, NULL, sys, err, errlen);
}

/* Index of a momentum map by name, -1 if the system has none of that name. */
static int momentum_index(const vi_system_d *sys, const char *name) {
  const vi_system_info *in = sys->type->info;
  for (int i = 0; i < in->n_momenta; i++) {
    if (strcmp(in->momentum_names[i], name) == 0) {
      return i;
    }
  }
  return -1;
}

static int invariant(const vi_system_d *sys, int mom, const double *q, const double *p,
                     double *val) {
  if (mom < 0) {
    return vi_system_energy_d(sys, q, p, val);
  }
  double J[16];
  int rc = vi_callback_status(sys->type->obs->momenta(sys->state, q, p, J));
  *val = J[mom];
  return rc;
}

/* A long run storing the envelope of the invariant's signed error
 * I(t_k) - I(0) (relative: divided by |I(0)|, man2020 (46)) per window of
 * steps into s, and every step of [0, zoom] into zs (NULL: none). */
/* The observer of a trace: the invariant's (relative) error at every node,
 * its envelope over windows of per steps into s, every step of [0, zoom]
 * into zs, and the summary numbers. */
typedef struct trace_obs {
  const vi_system_d *sys;
  int mom, relative;
  double h, zoom;
  long N, per;
  vi_series *s, *zs;
  double I0, scale, lo, hi, amax, first, last;
  int defect;       /* a fourth column: the window max of |p - alpha(q)| */
  double dmax;      /* its running value in the window */
  double breakdown; /* > 0: stop where |I - I0| exceeds it (tracebreak) */
  long k;           /* the last node seen */
  int broke;
} trace_obs;

/* The observer's status for a run stopped at the breakdown threshold. */
#define TRACE_BREAK 77

static int trace_observe(void *ctx, long k, const vi_node_d *nd) {
  trace_obs *o = ctx;
  double I = 0;
  int rc = invariant(o->sys, o->mom, nd->q, nd->p, &I);
  if (rc != VI_OK) {
    return rc;
  }
  if (k == 0) {
    /* An invariant that starts at 0 has no relative error: absolute then. */
    o->I0 = I;
    o->scale = o->relative && fabs(I) > VI_ENERGY_ABS_BELOW ? 1 / fabs(I) : 1;
  }
  double d = (I - o->I0) * o->scale, def = NAN;
  if (o->defect && (rc = vi_system_defect_d(o->sys, nd->q, nd->p, &def)) != VI_OK) {
    return rc;
  }
  o->k = k;
  if (o->zs && (double)k * o->h <= o->zoom * (1 + 1e-12)) {
    double row[4] = {(double)k * o->h, d, d, def};
    if (series_push(o->zs, row) != 0) {
      return VI_ENOMEM;
    }
  }
  o->lo = k % o->per == 0 || d < o->lo ? d : o->lo;
  o->hi = k % o->per == 0 || d > o->hi ? d : o->hi;
  o->dmax = k % o->per == 0 || def > o->dmax ? def : o->dmax;
  /* Past the breakdown threshold the orbit is destroyed (tyranowski2014
   * notes §4): the window so far is kept and the run ends. */
  const int brk = o->breakdown > 0 && !(fabs(d) <= o->breakdown);
  o->amax = fabs(d) > o->amax ? fabs(d) : o->amax;
  if (k <= o->N / 10 && fabs(d) > o->first) {
    o->first = fabs(d);
  }
  if (k >= o->N - o->N / 10 && fabs(d) > o->last) {
    o->last = fabs(d);
  }
  if ((k + 1) % o->per == 0 || k == o->N || brk) {
    double row[4] = {(double)k * o->h, o->lo, o->hi, o->dmax};
    if (series_push(o->s, row) != 0) {
      return VI_ENOMEM;
    }
  }
  if (brk) {
    o->broke = 1;
    return TRACE_BREAK;
  }
  return VI_OK;
}

static int trace_run(const vi_system_d *sys, const char *quantity, int relative,
                     const vi_curve_spec *c, double T, double zoom, vi_series *s, vi_series *zs,
                     double breakdown, int defect, char *err, size_t errlen) {
  int mom = strcmp(quantity, "energy") == 0 ? -1 : momentum_index(sys, quantity);
  if (mom < 0 && strcmp(quantity, "energy") != 0) {
    snprintf(err, errlen, "%s has no invariant '%s'", sys->type->info->name, quantity);
    return VI_EINVAL;
  }
  long N = lround(T / c->h);
  long per = N / TRACE_WINDOWS > 0 ? N / TRACE_WINDOWS : 1;
  vi_stepper_d *st = NULL;
  int rc = vi_stepper_alloc_d(c->method, sys, &st, err, errlen);
  /* The node by the stepper's dimensions (multipliers, extra block). */
  vi_node_d *buf = rc == VI_OK ? vi_node_alloc_d(vi_stepper_dims_d(st)) : NULL;
  if (rc == VI_OK && !buf) {
    rc = VI_ENOMEM;
  }
  if (rc != VI_OK) {
    vi_stepper_free_d(st);
    return rc;
  }
  vi_stepper_spec_d(st, s->method, sizeof s->method);
  vi_node_d nd = *buf;
  trace_obs to = {sys, mom, relative, c->h, zoom, N, per, s, zs, 0, 1, 0, 0, 0, 0, 0,
                  defect, 0, breakdown, -1, 0};
  rc = vi_integrate_d(st, NULL, c->h, N, sys->q0, sys->p0, &nd, trace_observe, &to, NULL);
  const double I0 = to.I0, amax = to.amax, first = to.first, last = to.last;
  s->event_t = NAN;
  s->event[0] = 0;
  if (breakdown > 0 && (to.broke || (rc > 0 && to.k >= 0))) {
    /* A breakdown is the curve's event, not a failure of the study: the
     * threshold crossed, or the method failing recoverably (Newton, a
     * stage outside the domain of alpha or H) after node to.k. */
    s->event_t = (double)to.k * c->h;
    if (to.broke) {
      snprintf(s->event, sizeof s->event, "|%s - %s(0)| > %g", strcmp(quantity, "energy") ? quantity : "H",
               strcmp(quantity, "energy") ? quantity : "H", breakdown);
    } else {
      snprintf(s->event, sizeof s->event, "%s", vi_strerror(rc));
      /* The window in progress, up to the last node. */
      double row[4] = {(double)to.k * c->h, to.lo, to.hi, to.dmax};
      if (to.k % per != per - 1 && series_push(s, row) != 0) {
        rc = VI_ENOMEM;
      }
    }
    rc = rc == VI_ENOMEM ? rc : VI_OK;
  }
  if (rc != VI_OK && !*err) {
    snprintf(err, errlen, "%s, h = %g: %s at t = %g", c->method, c->h, vi_strerror(rc),
             (double)nd.t);
  }
  s->h = c->h;
  if (zs) {
    zs->h = c->h;
    memcpy(zs->method, s->method, sizeof zs->method);
  }
  s->extra[0] = I0;
  s->extra[1] = amax;
  s->extra[2] = first;
  s->extra[3] = last;
  s->status = rc;
  vi_stepper_free_d(st);
  free(buf);
  return rc;
}

/* The work-precision curves (fig4, fig5) through the sweep core
 * (sweep.h): the same runs, timing and repetitions in passes as every
 * timed study. Every curve not restored from the store is swept, then all
 * are timed together; a reference on each run's own grid (cached). A
 * coarse step the Newton solve cannot take is not a point, and finer ones
 * may still work; an error of the size of the motion itself (the pendulum
 * swings through about 1.6 length units) converged to another solution
 * branch and is not a point either. */
static int work_sweeps(const vi_fig_spec *f, vi_series *ss, int ns, double T,
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
  vi_sweep S;
  int rc = vi_sweep_open(&S, &spec, f->id, o->quick, o->progress, o->cache_dir, err, errlen);
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
      if (series_push(&ss[i], row) != 0) {
        vi_set_err(err, errlen, "out of memory");
        rc = -1;
        break;
      }
    }
  }
  vi_sweep_close(&S);
  return rc;
}

/* The error of an invariant over the first N steps in quad precision:
 * out[0] = max_k |I_k - I_0| (relative: divided by |I_0|, man2020 (46)),
 * out[1], out[2] its maximum over the first and the last tenth of the
 * steps. A scheme that conserves a momentum map exactly (wenger2017
 * §3.4.2, man2020 (60)) shows an error at the quad round-off level, where
 * a non-conserving one would show its truncation error; an energy error
 * that double cannot resolve (man2020-fig3) is measured here. */
/* The observer of quad_invariant_error (mom < 0: the energy). */
typedef struct qinv_obs {
  const vi_system_q *sys;
  int mom, relative;
  long N;
  __float128 *J;
  __float128 I0, scale, emax, first, last;
} qinv_obs;

static int qinv_observe(void *ctx, long k, const vi_node_q *nd) {
  qinv_obs *o = ctx;
  __float128 I = 0;
  int rc = o->mom < 0 ? vi_system_energy_q(o->sys, nd->q, nd->p, &I)
                      : vi_callback_status(o->sys->type->obs->momenta(o->sys->state, nd->q,
                                                                      nd->p, o->J));
  if (rc != VI_OK) {
    return rc;
  }
  if (o->mom >= 0) {
    I = o->J[o->mom];
  }
  if (k == 0) {
    o->I0 = I;
    o->scale = o->relative && (I < 0 ? -I : I) > VI_ENERGY_ABS_BELOW ? 1 / (I < 0 ? -I : I) : 1;
  }
  __float128 d = (I - o->I0) * o->scale;
  d = d < 0 ? -d : d;
  o->emax = d > o->emax ? d : o->emax;
  o->first = k <= o->N / 10 && d > o->first ? d : o->first;
  o->last = k >= o->N - o->N / 10 && d > o->last ? d : o->last;
  return VI_OK;
}

int vi_fig_quad_invariant_error(const char *system, const char *method, double h, long N,
                                const char *quantity, int relative, double *out, char *err,
                                size_t errlen) {
  const vi_system_type_q *type = vi_system_find_q(system, err, errlen);
  vi_system_q *sys = NULL;
  vi_stepper_q *st = NULL;
  int rc = type ? vi_system_alloc_q(type, 0, NULL, &sys, err, errlen) : VI_EINVAL;
  if (rc != VI_OK) {
    return rc;
  }
  const int nm = type->info->n_momenta;
  const int energy = strcmp(quantity, "energy") == 0;
  int mom = -1;
  for (int i = 0; i < nm; i++) {
    mom = strcmp(type->info->momentum_names[i], quantity) == 0 ? i : mom;
  }
  __float128 *J = malloc((size_t)(nm + 1) * sizeof *J);
  vi_node_q *buf = NULL;
  if (!energy && mom < 0) {
    snprintf(err, errlen, "%s has no invariant '%s'", system, quantity);
  }
  rc = !J || (!energy && mom < 0) ? VI_EINVAL : vi_stepper_alloc_q(method, sys, &st, err, errlen);
  if (rc == VI_OK && !(buf = vi_node_alloc_q(vi_stepper_dims_q(st)))) {
    rc = VI_ENOMEM;
  }
  if (rc == VI_OK) {
    vi_node_q nd = *buf;
    qinv_obs o = {sys, energy ? -1 : mom, relative, N, J, 0, 1, 0, 0, 0};
    rc = vi_integrate_q(st, NULL, (__float128)h, N, sys->q0, sys->p0, &nd, qinv_observe, &o,
                        NULL);
    out[0] = (double)o.emax;
    out[1] = (double)o.first;
    out[2] = (double)o.last;
    if (rc != VI_OK) {
      snprintf(err, errlen, "%s in quad: %s", method, vi_strerror(rc));
    }
  }
  vi_stepper_free_q(st);
  vi_system_free_q(sys);
  free(buf);
  free(J);
  return rc;
}

/* One point per m of the curve's method (man2020 §4.2 Fig. 3): the global
 * error (47) of a run over [0, T] at the curve's step, in double, rerun in
 * quad when double round-off would be a visible part of it. */
#define MSWEEP_QUAD_BELOW 1e-11

static int msweep_run(const vi_fig_spec *f, const vi_system_d *sys, const vi_curve_spec *c, double T,
                      int m_hi, vi_series *s, char *err, size_t errlen) {
  const long N = lround(T / c->h);
  for (int m = f->m_lo; m <= m_hi; m++) {
    char spec[256];
    snprintf(spec, sizeof spec, "%s,m=%d", c->method, m);
    vi_curve_spec cm = *c;
    cm.method = spec;
    vi_series tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.cols = trace_cols;
    tmp.ncol = 3;
    int rc = trace_run(sys, f->quantity, f->relative, &cm, T, 0, &tmp, NULL, 0, 0, err, errlen);
    double e[3] = {tmp.extra[1], tmp.extra[2], tmp.extra[3]};
    free(tmp.v);
    if (rc != VI_OK) {
      return rc;
    }
    int quad = e[0] < MSWEEP_QUAD_BELOW;
    if (quad) {
      rc = vi_fig_quad_invariant_error(f->system, spec, c->h, N, f->quantity, f->relative, e, err,
                                errlen);
      if (rc != VI_OK) {
        return rc;
      }
    }
    double row[VI_M_NCOL] = {m, c->h, e[0], e[1], e[2], quad};
    if (series_push(s, row) != 0) {
      return VI_ENOMEM;
    }
  }
  snprintf(s->method, sizeof s->method, "%s,m=%d..%d", c->method, f->m_lo, m_hi);
  s->h = c->h;
  s->status = VI_OK;
  return VI_OK;
}

/* ---- JSON of series (results and the partial file) ----------------------- */

static json_t *series_json(const vi_series *s) {
  json_t *j = json_object();
  json_object_set_new(j, "label", json_string(s->label));
  json_object_set_new(j, "method", json_string(s->method));
  if (s->quantity[0]) {
    json_object_set_new(j, "quantity", json_string(s->quantity));
  }
  if (s->h > 0) {
    json_object_set_new(j, "h", json_real(s->h));
  }
  json_t *cols = json_array();
  for (int c = 0; c < s->ncol; c++) {
    json_array_append_new(cols, json_string(s->cols[c]));
  }
  json_object_set_new(j, "columns", cols);
  json_t *rows = json_array();
  for (int r = 0; r < s->rows; r++) {
    json_t *row = json_array();
    for (int c = 0; c < s->ncol; c++) {
      double x = vi_fig_at(s, r, c);
      json_array_append_new(row, isfinite(x) ? json_real(x) : json_null());
    }
    json_array_append_new(rows, row);
  }
  json_object_set_new(j, "rows", rows);
  json_object_set_new(j, "status", json_string(vi_strerror(s->status)));
  json_t *ex = json_array();
  for (int i = 0; i < 4; i++) {
    json_array_append_new(ex, json_real(s->extra[i]));
  }
  json_object_set_new(j, "extra", ex);
  if (!isnan(s->extra[4])) {
    json_object_set_new(j, "quad_check_error", json_real(s->extra[4]));
  }
  if (isfinite(s->event_t)) {
    json_object_set_new(j, "event", json_pack("{s:f, s:s}", "t", s->event_t, "what", s->event));
  }
  return j;
}

/* A finished curve as the cell store keeps it: its series, the status
 * that ended it, and its every-step close-up when the figure has one. */
static json_t *curve_measurement(const vi_series *s, const vi_series *zoom) {
  json_t *j = json_object();
  json_t *m = series_json(s);
  json_object_set_new(m, "status_code", json_integer(s->status));
  json_object_set_new(j, "series", m);
  if (zoom) {
    json_object_set_new(j, "zoom", series_json(zoom));
  }
  return j;
}

/* Restore one series from the store into s (label, columns and the shape
 * of every row checked); -1 with the reason in why. */
static int series_restore(vi_series *s, json_t *v, char *why, size_t whylen) {
  const char *label = NULL, *method = NULL;
  json_t *cols = NULL, *rows = NULL, *extra = NULL;
  json_error_t je;
  if (json_unpack_ex(v, &je, 0, "{s:s, s:s, s:o, s:o, s:o}", "label", &label, "method",
                     &method, "columns", &cols, "rows", &rows, "extra", &extra) != 0) {
    snprintf(why, whylen, "%s", je.text);
    return -1;
  }
  if (strcmp(label, s->label) != 0 || strlen(method) >= sizeof s->method) {
    snprintf(why, whylen, "series '%.60s' does not belong here", label);
    return -1;
  }
  if (!json_is_array(cols) || json_array_size(cols) != (size_t)s->ncol) {
    snprintf(why, whylen, "series '%.60s' has other columns", label);
    return -1;
  }
  for (int c = 0; c < s->ncol; c++) {
    const char *name = json_string_value(json_array_get(cols, (size_t)c));
    if (!name || strcmp(name, s->cols[c]) != 0) {
      snprintf(why, whylen, "series '%.60s' has other columns", label);
      return -1;
    }
  }
  if (!json_is_array(rows) || !json_is_array(extra) || json_array_size(extra) != 4) {
    snprintf(why, whylen, "series '%.60s': rows or extra malformed", label);
    return -1;
  }
  json_t *h = json_object_get(v, "h"), *qc = json_object_get(v, "quad_check_error");
  json_t *sc = json_object_get(v, "status_code");
  if ((h && !json_is_number(h)) || (qc && !json_is_number(qc)) || (sc && !json_is_integer(sc))) {
    snprintf(why, whylen, "series '%.60s': h, quad_check_error or status malformed", label);
    return -1;
  }
  s->rows = 0;
  size_t r;
  json_t *row;
  json_array_foreach(rows, r, row) {
    double x[VI_FIG_MAXCOLS];
    if (!json_is_array(row) || json_array_size(row) != (size_t)s->ncol) {
      snprintf(why, whylen, "series '%.60s': row %zu malformed", label, r);
      return -1;
    }
    for (int c = 0; c < s->ncol; c++) {
      json_t *e = json_array_get(row, (size_t)c);
      if (!json_is_number(e) && !json_is_null(e)) {
        snprintf(why, whylen, "series '%.60s': row %zu malformed", label, r);
        return -1;
      }
      x[c] = json_is_number(e) ? json_number_value(e) : NAN;
    }
    if (series_push(s, x) != 0) {
      snprintf(why, whylen, "out of memory");
      return -1;
    }
  }
  for (int e = 0; e < 4; e++) {
    json_t *x = json_array_get(extra, (size_t)e);
    s->extra[e] = json_is_number(x) ? json_number_value(x) : NAN;
  }
  s->extra[4] = qc ? json_number_value(qc) : NAN;
  s->event_t = NAN;
  s->event[0] = 0;
  json_t *ev = json_object_get(v, "event");
  if (ev) {
    double et;
    const char *what;
    if (json_unpack(ev, "{s:F, s:s}", "t", &et, "what", &what) != 0 ||
        strlen(what) >= sizeof s->event) {
      snprintf(why, whylen, "series '%.60s': event malformed", label);
      return -1;
    }
    s->event_t = et;
    snprintf(s->event, sizeof s->event, "%s", what);
  }
  s->h = h ? json_number_value(h) : 0;
  s->status = sc ? (int)json_integer_value(sc) : VI_OK;
  snprintf(s->method, sizeof s->method, "%s", method);
  return 0;
}

/* Restore a finished curve (and its close-up); -1 with the reason. */
static int curve_restore(vi_series *s, vi_series *zoom, json_t *v, char *why, size_t whylen) {
  json_t *m = json_object_get(v, "series"), *z = json_object_get(v, "zoom");
  if (!m || (zoom != NULL) != (z != NULL)) {
    snprintf(why, whylen, "%s", !m ? "no series" : "close-up missing or unexpected");
    return -1;
  }
  if (series_restore(s, m, why, whylen) != 0 || (zoom && series_restore(zoom, z, why, whylen) != 0)) {
    return -1;
  }
  s->done = 1;
  if (zoom) {
    zoom->done = 1;
  }
  return 0;
}

/* ---- claims ------------------------------------------------------------------ */

/* The invariant a trace series follows: its curve's own, else the figure's. */
const char *vi_fig_series_quantity(const vi_fig_spec *f, const vi_series *s) {
  return s->quantity[0] ? s->quantity : f->quantity;
}

/* The quad rerun of the claims of man2020 Figs. 9 and 11: each curve's
 * steps over the first quad_T seconds, its max |I - I0| into extra[4]. */
int vi_fig_quad_check(const vi_fig_spec *f, vi_series *ss, int ns, int quick, char *err,
                      size_t errlen) {
  const double Tq = quick ? f->quad_T_quick : f->quad_T;
  for (int i = 0; i < ns; i++) {
    double qe[3];
    int rc = vi_fig_quad_invariant_error(f->system, ss[i].method, ss[i].h, lround(Tq / ss[i].h),
                                  vi_fig_series_quantity(f, &ss[i]), 0, qe, err, errlen);
    if (rc != VI_OK) {
      return -1;
    }
    ss[i].extra[4] = qe[0];
  }
  return 0;
}

/* ---- outputs ------------------------------------------------------------------ */

static char *fig_dat(const vi_fig_spec *f, const vi_series *ss, int ns) {
  size_t cap = 1 << 16, len = 0;
  char *t = malloc(cap);
  for (int i = 0; t && i < ns; i++) {
    const vi_series *s = &ss[i];
    for (int r = -1; r < s->rows; r++) {
      if (len + 512 > cap) {
        char *u = realloc(t, cap *= 2);
        if (!u) {
          free(t);
          return NULL;
        }
        t = u;
      }
      if (r < 0) {
        len += (size_t)snprintf(t + len, cap - len, "# %s: %s (%s)\n#", f->id, s->label,
                                s->method);
        for (int c = 0; c < s->ncol; c++) {
          len += (size_t)snprintf(t + len, cap - len, " %s", s->cols[c]);
        }
        len += (size_t)snprintf(t + len, cap - len, "\n");
        continue;
      }
      for (int c = 0; c < s->ncol; c++) {
        len += (size_t)snprintf(t + len, cap - len, "%s%.10e", c ? " " : "", vi_fig_at(s, r, c));
      }
      len += (size_t)snprintf(t + len, cap - len, "\n");
    }
    len += (size_t)snprintf(t + len, cap - len, "\n\n");
  }
  return t;
}

static char *fig_csv(const vi_series *ss, int ns) {
  size_t cap = 1 << 16, len = 0;
  char *t = malloc(cap);
  if (!t) {
    return NULL;
  }
  len += (size_t)snprintf(t, cap, "series,method");
  for (int c = 0; c < ss[0].ncol; c++) {
    len += (size_t)snprintf(t + len, cap - len, ",%s", ss[0].cols[c]);
  }
  len += (size_t)snprintf(t + len, cap - len, "\n");
  for (int i = 0; i < ns; i++) {
    for (int r = 0; r < ss[i].rows; r++) {
      if (len + 1024 > cap) {
        char *u = realloc(t, cap *= 2);
        if (!u) {
          free(t);
          return NULL;
        }
        t = u;
      }
      len += (size_t)snprintf(t + len, cap - len, "\"%s\",\"%s\"", ss[i].label, ss[i].method);
      for (int c = 0; c < ss[i].ncol; c++) {
        len += (size_t)snprintf(t + len, cap - len, ",%.17g", vi_fig_at(&ss[i], r, c));
      }
      len += (size_t)snprintf(t + len, cap - len, "\n");
    }
  }
  return t;
}

static int panel_count(const vi_fig_spec *f) {
  int np = 0;
  while (np < (int)(sizeof f->panels / sizeof f->panels[0]) && f->panels[np]) {
    np++;
  }
  return np;
}

/* Column cx and cy of a series (cy < 0: max(|col 1|, |col 2|), the
 * window maximum of |error|) into fresh arrays; 0, or -1 out of memory. */
static int series_xy(const vi_series *s, int cx, int cy, double **x, double **y) {
  *x = malloc((size_t)(s->rows + 1) * sizeof **x);
  *y = malloc((size_t)(s->rows + 1) * sizeof **y);
  if (!*x || !*y) {
    free(*x);
    free(*y);
    *x = *y = NULL;
    return -1;
  }
  for (int r = 0; r < s->rows; r++) {
    (*x)[r] = vi_fig_at(s, r, cx);
    (*y)[r] = cy >= 0 ? vi_fig_at(s, r, cy)
                      : fmax(fabs(vi_fig_at(s, r, 1)), fabs(vi_fig_at(s, r, 2)));
  }
  return 0;
}

/* A series as a curve; label NULL: the series' own. */
static void gp_series(vi_gp *g, const vi_series *s, const char *label, int cx, int cy,
                      int color, int dash, int style) {
  double *x, *y;
  if (series_xy(s, cx, cy, &x, &y) == 0) {
    vi_gp_curve_style(g, label ? label : s->label, x, y, s->rows, color, dash, style);
  }
  free(x);
  free(y);
}

/* The band of a trace series: the minimum and maximum of each window. */
static void gp_band(vi_gp *g, const vi_series *s, int color) {
  double *x, *lo, *hi;
  if (series_xy(s, 0, 1, &x, &lo) == 0) {
    hi = malloc((size_t)(s->rows + 1) * sizeof *hi);
    for (int r = 0; hi && r < s->rows; r++) {
      hi[r] = vi_fig_at(s, r, 2);
    }
    if (hi) {
      vi_gp_band(g, s->label, x, lo, hi, s->rows, color);
    }
    free(hi);
  }
  free(x);
  free(lo);
}

/* The figure's script through the gnuplot builder (plot.h): the data
 * inline, so the kept .gp reruns in place; ID.dat keeps the same numbers
 * as a data file. */
static char *fig_gnuplot(const vi_fig_spec *f, const vi_series *ss, int ns, int ntot,
                         const char *machine, int quick) {
  const double T = quick ? f->T_quick : f->T;
  const int np = panel_count(f);
  char title[800], line[256];
  vi_gp *g;
  int rows = 1, cols = 1;
  if (f->kind == VI_FIG_WORK) {
    /* Run time against q error, as the paper draws it. */
    snprintf(title, sizeof title, "%s (%s, T = %g)\\n%s", f->id, f->system, T, machine);
    g = vi_gp_new(title);
    vi_gp_panel(g, NULL, "run time [s] (CPU time, pinned core, min of repetitions)", f->ylabel,
                VI_GP_LOGX | VI_GP_LOGY);
    for (int i = 0; i < ns; i++) {
      gp_series(g, &ss[i], NULL, VI_W_SEC, VI_W_EQ, i, 0, VI_GP_LINESPOINTS);
    }
  } else if (f->kind == VI_FIG_MSWEEP) {
    /* man2020 Fig. 3: the global error (47) against m, one line per
     * algorithm (pairs that nearly coincide told apart by dash), open
     * circles on the runs done in quad; below, each error divided by the
     * last curve's (LGG) at the same m, where the text's comparisons are
     * visible, which twelve decades on one axis hide. */
    const vi_series *ref = &ss[ns - 1];
    const double mmax = ref->rows > 0 ? vi_fig_at(ref, ref->rows - 1, VI_M_M) + 0.3 : 10;
    snprintf(title, sizeof title, "%s (%s, h = %g, T = %g)", f->id, f->system, ss[0].h, T);
    g = vi_gp_new(title);
    vi_gp_panel(g, "", "m (points per step)", f->ylabel, VI_GP_LOGY);
    snprintf(line, sizeof line, "set xrange [1.7:%g]\nset xtics 1\nset key inside bottom left "
             "vertical maxrows 6", mmax);
    vi_gp_set(g, line);
    int nq = 0;
    double qx[256], qy[256];
    for (int i = 0; i < ns; i++) {
      gp_series(g, &ss[i], NULL, VI_M_M, VI_M_ERR, i, i % 2, VI_GP_LINESPOINTS);
      for (int r = 0; r < ss[i].rows && nq < 256; r++) {
        if (vi_fig_at(&ss[i], r, VI_M_QUAD) > 0) {
          qx[nq] = vi_fig_at(&ss[i], r, VI_M_M);
          qy[nq++] = vi_fig_at(&ss[i], r, VI_M_ERR);
        }
      }
    }
    vi_gp_curve_style(g, "run in quad precision", qx, qy, nq, 7, 0, VI_GP_POINTS);
    snprintf(line, sizeof line, "e / e(%s)", ref->label);
    vi_gp_panel(g, "", "m (points per step)", line, 0);
    snprintf(line, sizeof line, "set xrange [1.7:%g]\nset xtics 1\nset yrange [0:*]\nset key "
             "inside top right horizontal", mmax);
    vi_gp_set(g, line);
    for (int i = 0; i < ns; i++) {
      double x[64], y[64];
      int n = 0;
      for (int r = 0; r < ref->rows && r < ss[i].rows && n < 64; r++) {
        x[n] = vi_fig_at(ref, r, VI_M_M);
        y[n++] = vi_fig_at(&ss[i], r, VI_M_ERR) / vi_fig_at(ref, r, VI_M_ERR);
      }
      vi_gp_curve_style(g, ss[i].label, x, y, n, i, i % 2, VI_GP_LINESPOINTS);
    }
    rows = 2;
  } else if (np > 0 && ntot > ns) {
    /* tyranowski2014 Figs 5.3, 5.8, 5.11: one row per panel (a method), the
     * every-step close-up on the left, the whole run as the band of each
     * window on the right (five tick intervals: times up to 5e5); a run
     * that broke down says when. */
    snprintf(title, sizeof title, "%s (%s, T = %g)", f->id, f->system, T);
    g = vi_gp_new(title);
    for (int p = 0; p < np; p++) {
      char ev[128] = "";
      for (int i = 0; i < ns; i++) {
        if (f->curves[i].panel == p && isfinite(ss[i].event_t)) {
          snprintf(ev, sizeof ev, ", stops at t = %.4g", ss[i].event_t);
        }
      }
      for (int side = 0; side < 2; side++) {
        char pt[256];
        snprintf(pt, sizeof pt, "%s, %s%s", f->panels[p], side ? "min, max per window" : "every step",
                 ev);
        vi_gp_panel(g, pt, "t", f->ylabel, VI_GP_YEXP);
        char tics[64] = "set xtics autofreq";
        if (side) {
          snprintf(tics, sizeof tics, "set xtics %g", T / 5);
        }
        snprintf(line, sizeof line, "%s\nset key inside top right vertical opaque box", tics);
        vi_gp_set(g, line);
        for (int i = 0, k = 0; i < ns; i++) {
          if (f->curves[i].panel != p) {
            continue;
          }
          if (side) {
            gp_band(g, &ss[i], k);
          } else {
            gp_series(g, &ss[ns + i], ss[ns + i].label, 0, 1, k, 0, VI_GP_LINES);
          }
          k++;
        }
      }
    }
    rows = np;
    cols = 2;
  } else if (np > 0) {
    /* man2020 Fig. 8: one panel per m, the bands of its curves (LLL first,
     * so that the smaller LGG error is drawn on top of it). */
    snprintf(title, sizeof title, "%s (%s, T = %g)", f->id, f->system, T);
    g = vi_gp_new(title);
    for (int p = 0; p < np; p++) {
      vi_gp_panel(g, f->panels[p], "t [s]", f->ylabel, VI_GP_YEXP);
      vi_gp_set(g, "set key inside top right vertical opaque box");
      for (int i = 0, k = 0; i < ns; i++) {
        if (f->curves[i].panel == p) {
          gp_band(g, &ss[i], k++);
        }
      }
    }
    rows = (np + 1) / 2;
    cols = np > 1 ? 2 : 1;
  } else if (ntot > ns) {
    /* wenger2017 Fig. 2: the whole run as the window maxima of |error|
     * (log scale, so bounded curves of different sizes stay apart); below,
     * every step of the first seconds. */
    snprintf(title, sizeof title, "%s (%s, T = %g)", f->id, f->system, T);
    g = vi_gp_new(title);
    snprintf(line, sizeof line, "|%s|, maximum per window", f->ylabel);
    vi_gp_panel(g, "", "t [s]", line, VI_GP_LOGY);
    vi_gp_set(g, "set key inside top center horizontal maxrows 2");
    for (int i = 0; i < ns; i++) {
      gp_series(g, &ss[i], NULL, 0, -1, i, 0, VI_GP_LINES);
    }
    vi_gp_panel(g, "", "t [s]", f->ylabel, VI_GP_YEXP);
    vi_gp_set(g, "set key outside bottom center horizontal maxrows 3");
    for (int i = 0; i < ns; i++) {
      gp_series(g, &ss[ns + i], NULL, 0, 1, i, 0, VI_GP_LINESPOINTS);
    }
    rows = 2;
  } else {
    /* One trace panel: the band between the smallest and largest error of
     * each window. */
    snprintf(title, sizeof title, "%s (%s, T = %g)", f->id, f->system, T);
    g = vi_gp_new(title);
    vi_gp_panel(g, NULL, "t [s]", f->ylabel, VI_GP_YEXP);
    for (int i = 0; i < ns; i++) {
      gp_band(g, &ss[i], i);
    }
  }
  char *body = vi_gp_body(g, rows, cols);
  vi_gp_free(g);
  return body;
}

/* A markdown table cell: '|' escaped. */
static char *fig_md(const vi_fig_spec *f, const vi_series *ss, int ns, const vi_claim *cl, int nc,
                    const char *machine, int quick) {
  char *t = NULL;
  size_t len = 0;
  FILE *mf = open_memstream(&t, &len);
  if (!mf) {
    return NULL;
  }
#define MD(...) fprintf(mf, __VA_ARGS__)
  MD("# %s%s\n\n![%s](%s.svg)\n\n", f->id, quick ? " (quick run, reduced grid)" : "", f->id,
     f->id);
  if (f->precision) {
    MD("System `%s`, T = %g, built-in Newton (rtol = 100 eps). Precision: %s. Choices: "
       "%s.\n\n",
       f->system, quick ? f->T_quick : f->T, f->precision, f->why);
  } else {
    MD("System `%s`, T = %g, double precision, built-in Newton (rtol = 100 eps). Choices "
       "the paper leaves open: %s.\n\n",
       f->system, quick ? f->T_quick : f->T, f->why);
  }
  if (f->kind == VI_FIG_MSWEEP) {
    MD("Global error e = max_k |H_k - H_0| / |H_0| (man2020 (46)-(47)) of one run over "
       "[0, %g] at h = %g for each algorithm and m; (quad): the run was done in quad "
       "precision.\n\n| m |",
       quick ? f->T_quick : f->T, ns ? ss[0].h : 0);
    for (int i = 0; i < ns; i++) {
      MD(" %s |", ss[i].label);
    }
    MD("\n|---|");
    for (int i = 0; i < ns; i++) {
      MD("---|");
    }
    MD("\n");
    for (int r = 0; ns && r < ss[0].rows; r++) {
      MD("| %.0f |", vi_fig_at(&ss[0], r, VI_M_M));
      for (int i = 0; i < ns; i++) {
        if (r < ss[i].rows) {
          MD(" %.3e%s |", vi_fig_at(&ss[i], r, VI_M_ERR), vi_fig_at(&ss[i], r, VI_M_QUAD) > 0 ? " (quad)" : "");
        } else {
          MD(" - |");
        }
      }
      MD("\n");
    }
    MD("\nMethods: ");
    for (int i = 0; i < ns; i++) {
      MD("%s`%s`", i ? ", " : "", ss[i].method);
    }
    MD(". The JSON and CSV also give the maximum over the first and the last tenth of each "
       "run.\n\n");
  } else if (f->kind == VI_FIG_WORK) {
    MD("Machine: %s. Each time is the CPU time of init + all steps on a thread pinned to "
       "one core, the minimum over %s taken in passes over the figure (the timing of "
       "every timed study, timing.h); the errors are evaluated outside the timing.\n\n",
       machine, quick ? "1 repetition" : "3 repetitions (5 below 50 ms, 7 below 5 ms)");
    for (int i = 0; i < ns; i++) {
      MD("## %s\n\n`%s`\n\n| h | steps | run time [s] | e_q | e_p | e_lambda | Newton/step |\n"
         "|---|---|---|---|---|---|---|\n",
         ss[i].label, ss[i].method);
      for (int r = 0; r < ss[i].rows; r++) {
        MD("| %.4g | %.0f | %.3e | %.3e | %.3e | %.3e | %.2f |\n", vi_fig_at(&ss[i], r, VI_W_H),
           vi_fig_at(&ss[i], r, VI_W_STEPS), vi_fig_at(&ss[i], r, VI_W_SEC), vi_fig_at(&ss[i], r, VI_W_EQ),
           vi_fig_at(&ss[i], r, VI_W_EP), vi_fig_at(&ss[i], r, VI_W_EL), vi_fig_at(&ss[i], r, VI_W_NEWTON));
      }
      MD("\n");
    }
  } else {
    int quad = !isnan(ss[0].extra[4]), own = ss[0].quantity[0] != 0;
    const char *what = f->relative ? "max relative error" : "max abs error";
    MD("| combination |%s method | h | I(0) | %s |%s%s\n|---|%s---|---|---|---|%s%s\n",
       own ? " quantity |" : "", what, f->tenths ? " first tenth | last tenth |" : "",
       quad ? " max abs error, quad check |" : "", own ? "---|" : "",
       f->tenths ? "---|---|" : "", quad ? "---|" : "");
    for (int i = 0; i < ns; i++) {
      MD("| %s |", ss[i].label);
      if (own) {
        MD(" %s |", ss[i].quantity);
      }
      MD(" `%s` | %g | %.12g | %.3e |", ss[i].method, ss[i].h, ss[i].extra[0], ss[i].extra[1]);
      if (f->tenths) {
        MD(" %.3e | %.3e |", ss[i].extra[2], ss[i].extra[3]);
      }
      if (quad) {
        MD(" %.3e |", ss[i].extra[4]);
      }
      MD("\n");
    }
    MD("\nThe plot shows, per window of steps, the band between the smallest and largest "
       "signed error in the window.\n\n");
  }
  vi_claims_md(mf, "Claims of the paper's text", cl, nc);
#undef MD
  if (fclose(mf) != 0) {
    free(t);
    return NULL;
  }
  return t;
}

/* ---- driver --------------------------------------------------------------- */

static int write_outputs(const vi_fig_spec *f, const vi_series *ss, int ns, int ntot, const vi_claim *cl,
                         int nc, const vi_timing *tg, const reproduce_opts *o, char *err,
                         size_t errlen) {
  char base[1024];
  const char *line = tg->line;
  snprintf(base, sizeof base, "%s/%s", o->results_dir, f->id);
  json_t *j = json_object();
  json_object_set_new(j, "id", json_string(f->id));
  json_object_set_new(j, "system", json_string(f->system));
  json_object_set_new(j, "T", json_real(o->quick ? f->T_quick : f->T));
  json_object_set_new(j, "precision", json_string(f->precision ? f->precision : "double"));
  if (f->relative) {
    json_object_set_new(j, "relative", json_true());
  }
  json_object_set_new(j, "choices", json_string(f->why));
  json_object_set_new(j, "quick", json_boolean(o->quick));
  if (f->quantity) {
    json_object_set_new(j, "quantity", json_string(f->quantity));
  }
  json_object_set_new(j, "machine", vi_timing_json(tg));
  json_t *arr = json_array();
  for (int i = 0; i < ntot; i++) {
    json_array_append_new(arr, series_json(&ss[i]));
  }
  json_object_set_new(j, "series", arr);
  vi_claims_json(j, cl, nc);
  char dat[1100];
  snprintf(dat, sizeof dat, "%s.dat", base);
  char *d = fig_dat(f, ss, ntot), *c = fig_csv(ss, ntot);
  char *md = fig_md(f, ss, ns, cl, nc, line, o->quick);
  int bad = vi_study_write(o->results_dir, f->id, j, md, c, err, errlen) != 0;
  json_decref(j);
  /* The script holds its data (the builder's datablocks), so the kept .gp
   * reruns in place; ID.dat is the same data as a file. */
  char *gp = fig_gnuplot(f, ss, ns, ntot, line, o->quick);
  if (!bad) {
    bad |= vi_write_text(dat, d, err, errlen) != 0;
  }
  if (!bad) {
    /* Two stacked panels (zoom), or the larger man2020 layouts. */
    const int big = panel_count(f) > 2 || f->kind == VI_FIG_MSWEEP;
    bad |= !gp || vi_plot(o->results_dir, f->id, gp, big ? 1100 : 900,
                          big ? 950 : ntot > ns ? 900 : 600, err, errlen) != 0;
  }
  free(d);
  free(c);
  free(md);
  free(gp);
  return bad ? -1 : 0;
}

/* ---- driver: a figure in three phases, curves in a pool of threads -------- */

/* One figure being run: its system, series, store and outcome. */
typedef struct fig_run {
  const vi_fig_spec *f;
  vi_system_d *sys;
  vi_series ss[2 * VI_FIG_MAXCURVES];
  int ns, nz, ntot;
  vi_cells store;
  int store_open;
  vi_timing tg;
  double T;
  int status; /* VI_EXIT_* */
  vi_claim cl[16];
  int nc;
} fig_run;

static void fig_report(const fig_run *R, const reproduce_opts *o, const char *what) {
  fprintf(stderr, "%svistudy reproduce: %s: %s\n", o->progress ? "\n" : "", R->f->id, what);
}

/* Phase 1: the system, the series, the cell store with what it holds. */
static int fig_prepare(fig_run *R, const vi_fig_spec *f, const reproduce_opts *o) {
  char err[1024] = "";
  memset(R, 0, sizeof *R);
  R->f = f;
  R->status = VI_EXIT_OK;
  R->tg.core = -1;
  if (open_system(f->system, &R->sys, err, sizeof err) != VI_OK) {
    fig_report(R, o, err);
    return R->status = VI_EXIT_FAIL;
  }
  vi_series *ss = R->ss;
  static const char *const trace_cols4[] = {"t", "min", "max", "defect_max"};
  const char *const *tcols = f->defect ? trace_cols4 : trace_cols;
  const int tn = f->defect ? 4 : 3;
  int ns = 0;
  for (; ns < VI_FIG_MAXCURVES && f->curves[ns].method; ns++) {
    snprintf(ss[ns].label, sizeof ss[ns].label, "%s", f->curves[ns].label);
    if (f->curves[ns].quantity) {
      snprintf(ss[ns].quantity, sizeof ss[ns].quantity, "%s", f->curves[ns].quantity);
    }
    ss[ns].cols = f->kind == VI_FIG_TRACE ? tcols : f->kind == VI_FIG_WORK ? work_cols : msweep_cols;
    ss[ns].ncol = f->kind == VI_FIG_TRACE ? tn : f->kind == VI_FIG_WORK ? 8 : VI_M_NCOL;
    ss[ns].extra[4] = NAN;
    ss[ns].event_t = NAN;
  }
  const int nz = f->kind == VI_FIG_TRACE && f->zoom > 0 ? ns : 0;
  for (int i = 0; i < nz; i++) {
    vi_series *z = &ss[ns + i];
    snprintf(z->label, sizeof z->label, "%.60s, every step of [0, %g]", f->curves[i].label,
             o->quick ? f->zoom / 5 : f->zoom);
    z->cols = tcols;
    z->ncol = tn;
    z->extra[4] = NAN;
    z->event_t = NAN;
  }
  R->ns = ns;
  R->nz = nz;
  R->ntot = ns + nz;
  R->T = o->quick ? f->T_quick : f->T;
  /* The cell store: one cell per curve (quick runs neither resume nor
   * store). What determines a curve besides the code: the figure and T.
   * Timed curves (work-precision) belong to the machine they were timed
   * on: a store from another CPU is not resumed. */
  char config[400], note[VI_PATH_MAX + 256], mline[200] = "";
  if (f->kind == VI_FIG_WORK) {
    vi_machine mm;
    vi_machine_describe(&mm);
    snprintf(mline, sizeof mline, "; timed on %s", mm.cpu);
  }
  snprintf(config, sizeof config, "%s; T = %.17g; every-step close-up of [0, %.17g]%s", f->id,
           R->T, o->quick ? f->zoom / 5 : f->zoom, mline);
  if (vi_cells_open(&R->store, o->results_dir, f->id, config, o->fresh || o->quick, note,
                    sizeof note, err, sizeof err) != 0) {
    fig_report(R, o, err);
    return R->status = VI_EXIT_FAIL;
  }
  R->store_open = 1;
  if (note[0]) {
    fig_report(R, o, note);
  }
  for (int i = 0; i < ns; i++) {
    char why[512], msg[VI_PATH_MAX + 1024];
    json_t *v = vi_cells_get(&R->store, ss[i].label);
    if (v && curve_restore(&ss[i], nz ? &ss[ns + i] : NULL, v, why, sizeof why) != 0) {
      snprintf(msg, sizeof msg, "stored curve '%s' in %s is invalid (%s); recomputing it",
               ss[i].label, R->store.path, why);
      fig_report(R, o, msg);
    }
  }
  return VI_EXIT_OK;
}

/* One untimed curve (trace or m-sweep) of a figure: independent of the
 * others (its own stepper; the system is only read), so curves run in
 * parallel. */
static int fig_curve(fig_run *R, int i, const reproduce_opts *o, char *err, size_t errlen) {
  const vi_fig_spec *f = R->f;
  vi_series *s = &R->ss[i], *z = R->nz ? &R->ss[R->ns + i] : NULL;
  s->rows = 0;
  if (z) {
    z->rows = 0;
  }
  if (f->kind == VI_FIG_TRACE) {
    const char *qty = f->curves[i].quantity ? f->curves[i].quantity : f->quantity;
    return trace_run(R->sys, qty, f->relative, &f->curves[i], R->T,
                     z ? (o->quick ? f->zoom / 5 : f->zoom) : 0, s, z, f->breakdown, f->defect,
                     err, errlen);
  }
  return msweep_run(f, R->sys, &f->curves[i], R->T, o->quick ? f->m_hi_quick : f->m_hi, s, err,
                    errlen);
}

/* The pool: every pending (figure, curve) of a set of figures, taken by
 * the next free thread; finished curves go to their figure's store under
 * the lock (the store writes its partial file). */
typedef struct fig_job {
  fig_run *R;
  int i;
  int rc;
  char err[1024];
} fig_job;

typedef struct fig_pool {
  fig_job *jobs;
  int njobs, next, done;
  const reproduce_opts *o;
  pthread_mutex_t lock;
} fig_pool;

static void *fig_worker(void *arg) {
  fig_pool *P = arg;
  for (;;) {
    pthread_mutex_lock(&P->lock);
    const int j = P->next < P->njobs ? P->next++ : -1;
    pthread_mutex_unlock(&P->lock);
    if (j < 0) {
      return NULL;
    }
    fig_job *J = &P->jobs[j];
    J->rc = fig_curve(J->R, J->i, P->o, J->err, sizeof J->err);
    pthread_mutex_lock(&P->lock);
    fig_run *R = J->R;
    vi_series *s = &R->ss[J->i], *z = R->nz ? &R->ss[R->ns + J->i] : NULL;
    P->done++;
    if (P->o->progress) {
      fprintf(stderr, "\r%s: %d/%d curves done (%s: %s)          ", P->o->quick ? "quick" : "runs",
              P->done, P->njobs, R->f->id, s->label);
    }
    if (J->rc != VI_OK) {
      char msg[1200];
      snprintf(msg, sizeof msg, "%s: %s", s->label, J->err);
      fig_report(R, P->o, msg);
      R->status = VI_EXIT_FAIL;
    } else {
      s->done = 1;
      if (z) {
        z->done = 1;
      }
      char err[512];
      if (!P->o->quick &&
          vi_cells_put(&R->store, s->label, curve_measurement(s, z), err, sizeof err) != 0) {
        fig_report(R, P->o, err);
        R->status = VI_EXIT_FAIL;
      }
    }
    pthread_mutex_unlock(&P->lock);
  }
}

/* Phase 2: the curves not restored. Timed ones (work-precision) serially
 * through the sweep core; the others in the pool. */
static void fig_run_all(fig_run *Rs, int nR, const reproduce_opts *o) {
  fig_job *jobs = calloc((size_t)(nR * VI_FIG_MAXCURVES + 1), sizeof *jobs);
  int nj = 0;
  for (int r = 0; r < nR; r++) {
    fig_run *R = &Rs[r];
    if (R->status != VI_EXIT_OK) {
      continue;
    }
    if (R->f->kind == VI_FIG_WORK) {
      char err[1024] = "";
      vi_timing_begin(&R->tg);
      if (R->tg.pin_note[0]) {
        fig_report(R, o, R->tg.pin_note);
      }
      if (work_sweeps(R->f, R->ss, R->ns, R->T, o, err, sizeof err) != 0) {
        fig_report(R, o, err);
        R->status = VI_EXIT_FAIL;
      }
      vi_timing_end(&R->tg);
      for (int i = 0; R->status == VI_EXIT_OK && i < R->ns; i++) {
        if (R->ss[i].done) {
          continue;
        }
        R->ss[i].done = 1;
        if (!o->quick && vi_cells_put(&R->store, R->ss[i].label, curve_measurement(&R->ss[i], NULL),
                                      err, sizeof err) != 0) {
          fig_report(R, o, err);
          R->status = VI_EXIT_FAIL;
        }
      }
      continue;
    }
    vi_machine_describe(&R->tg.machine);
    vi_machine_line(&R->tg.machine, R->tg.line, sizeof R->tg.line);
    for (int i = 0; jobs && i < R->ns; i++) {
      if (!(R->ss[i].done && (R->nz == 0 || R->ss[R->ns + i].done))) {
        jobs[nj].R = R;
        jobs[nj++].i = i;
      }
    }
  }
  if (!jobs) {
    for (int r = 0; r < nR; r++) {
      Rs[r].status = VI_EXIT_FAIL;
    }
    return;
  }
  fig_pool P = {jobs, nj, 0, 0, o, PTHREAD_MUTEX_INITIALIZER};
  /* One thread per CPU this process may run on (its affinity mask, which
   * a cgroup or taskset narrows), not per CPU of the machine. */
  cpu_set_t cs;
  long ncpu = sched_getaffinity(0, sizeof cs, &cs) == 0 ? CPU_COUNT(&cs)
                                                       : sysconf(_SC_NPROCESSORS_ONLN);
  int nt = ncpu > 1 ? (int)ncpu : 1;
  nt = nt > nj ? nj : nt;
  pthread_t th[64];
  int started = 0;
  for (int t = 1; t < nt && t < 64; t++) {
    started += pthread_create(&th[started], NULL, fig_worker, &P) == 0;
  }
  fig_worker(&P); /* the calling thread works too */
  for (int t = 0; t < started; t++) {
    pthread_join(th[t], NULL);
  }
  if (o->progress && nj > 0) {
    fputc('\n', stderr);
  }
  free(jobs);
}

/* Phase 3: the claims, the outputs, the summary. */
static void fig_finish(fig_run *R, const reproduce_opts *o) {
  const vi_fig_spec *f = R->f;
  char err[1024] = "";
  if (R->status == VI_EXIT_OK) {
    memset(R->cl, 0, sizeof R->cl);
    R->nc = f->claims(f, R->ss, R->ns, o->quick, R->cl, err, sizeof err);
    if (R->nc < 0) {
      fig_report(R, o, err);
      R->status = VI_EXIT_FAIL;
      R->nc = 0;
    }
    err[0] = 0;
    int written = write_outputs(f, R->ss, R->ns, R->ntot, R->cl, R->nc, &R->tg, o, err,
                                sizeof err) == 0;
    if (!written) {
      fig_report(R, o, err);
      R->status = VI_EXIT_FAIL;
    }
    vi_claims_print(stdout, f->id, "of the text", R->cl, R->nc);
    for (int i = 0; i < R->ns; i++) {
      if (isfinite(R->ss[i].event_t)) {
        printf("  event: %s: %s at t = %.6g\n", R->ss[i].label, R->ss[i].event, R->ss[i].event_t);
      }
    }
    if (written) {
      printf("  results: %s/%s.{md,csv,json,svg,png}\n", o->results_dir, f->id);
    }
    if (R->status == VI_EXIT_OK) {
      vi_cells_finish(&R->store);
    }
    if (R->status == VI_EXIT_OK && vi_claims_status(R->cl, R->nc, o->strict)) {
      R->status = VI_EXIT_FAIL;
    }
  }
  if (R->store_open) {
    vi_cells_close(&R->store);
  }
  vi_system_free_d(R->sys);
  for (int i = 0; i < R->ntot; i++) {
    free(R->ss[i].v);
  }
}

static int run_figures(const vi_fig_spec *const *figs, int n, fig_run *Rs,
                       const reproduce_opts *o) {
  for (int r = 0; r < n; r++) {
    fig_prepare(&Rs[r], figs[r], o);
  }
  fig_run_all(Rs, n, o);
  int worst = VI_EXIT_OK;
  for (int r = 0; r < n; r++) {
    fig_finish(&Rs[r], o);
    worst = Rs[r].status > worst ? Rs[r].status : worst;
  }
  return worst;
}

int vi_run_figure(const vi_study *s, const reproduce_opts *o) {
  const vi_fig_spec *f = s->spec;
  fig_run *R = calloc(1, sizeof *R);
  if (!R) {
    fprintf(stderr, "vistudy reproduce: %s: out of memory\n", s->id);
    return VI_EXIT_FAIL;
  }
  int st = run_figures(&f, 1, R, o);
  free(R);
  return st;
}

int vi_run_figure_set(const vi_study *s, const reproduce_opts *o) {
  const vi_fig_set *set = s->spec;
  int n = 0;
  while (set->figs[n]) {
    n++;
  }
  fig_run *Rs = calloc((size_t)n, sizeof *Rs);
  if (!Rs) {
    fprintf(stderr, "vistudy reproduce: %s: out of memory\n", s->id);
    return VI_EXIT_FAIL;
  }
  const double t0 = vi_clock();
  int st = run_figures(set->figs, n, Rs, o);
  const double wall = vi_clock() - t0;
  /* The summary of the set: every figure's claims and events. */
  json_t *j = json_object(), *figs = json_array();
  char *md = NULL;
  size_t mdlen = 0;
  FILE *mf = open_memstream(&md, &mdlen);
  json_object_set_new(j, "id", json_string(s->id));
  json_object_set_new(j, "title", json_string(s->title));
  json_object_set_new(j, "choices", json_string(set->why));
  json_object_set_new(j, "quick", json_boolean(o->quick));
  int held = 0, total = 0;
  if (mf) {
    fprintf(mf, "# %s\n\n%s%s\n\n%s\n\n", s->id, o->quick ? "**Quick run** (reduced T). " : "",
            s->title, set->why);
  }
  for (int r = 0; r < n; r++) {
    const fig_run *R = &Rs[r];
    json_t *x = json_object();
    json_object_set_new(x, "id", json_string(R->f->id));
    json_object_set_new(x, "system", json_string(R->f->system));
    json_object_set_new(x, "ok", json_boolean(R->status == VI_EXIT_OK));
    vi_claims_json(x, R->cl, R->nc);
    json_t *ev = json_array();
    for (int i = 0; i < R->ns; i++) {
      json_t *e = json_object();
      json_object_set_new(e, "curve", json_string(R->ss[i].label));
      json_object_set_new(e, "t", isfinite(R->ss[i].event_t) ? json_real(R->ss[i].event_t)
                                                              : json_null());
      json_object_set_new(e, "event", json_string(isfinite(R->ss[i].event_t) ? R->ss[i].event
                                                                              : "ran to T"));
      json_array_append_new(ev, e);
    }
    json_object_set_new(x, "events", ev);
    json_array_append_new(figs, x);
    held += vi_claims_held(R->cl, R->nc);
    total += R->nc;
    if (mf) {
      char head[256];
      snprintf(head, sizeof head, "%s (`%s`, [figure](%s.svg), [details](%s.md))", R->f->id,
               R->f->system, R->f->id, R->f->id);
      vi_claims_md(mf, head, R->cl, R->nc);
      for (int i = 0; i < R->ns; i++) {
        if (isfinite(R->ss[i].event_t)) {
          fprintf(mf, "- event: %s: %s at t = %.6g\n", R->ss[i].label, R->ss[i].event,
                  R->ss[i].event_t);
        }
      }
      fputc('\n', mf);
    }
  }
  json_object_set_new(j, "figures", figs);
  json_object_set_new(j, "claims_held", json_integer(held));
  json_object_set_new(j, "claims_total", json_integer(total));
  json_object_set_new(j, "wall_seconds", json_real(wall));
  if (mf) {
    fprintf(mf, "%d/%d claims hold. Wall time %.1f s. Regenerate with `vistudy reproduce %s`.\n",
            held, total, wall, s->id);
    fclose(mf);
  }
  char err[1024] = "", path[VI_PATH_MAX + 64];
  snprintf(path, sizeof path, "%s/%s.json", o->results_dir, s->id);
  int bad = !md || vi_json_write(j, path, err, sizeof err) != 0;
  snprintf(path, sizeof path, "%s/%s.md", o->results_dir, s->id);
  bad = bad || vi_write_text(path, md, err, sizeof err) != 0;
  if (bad) {
    fprintf(stderr, "vistudy reproduce: %s: %s\n", s->id, err[0] ? err : "out of memory");
    st = VI_EXIT_FAIL;
  }
  printf("%s: %d/%d claims of the text hold over %d figures; wall time %.1f s\n  results: "
         "%s/%s.{md,json}\n",
         s->id, held, total, n, wall, o->results_dir, s->id);
  json_decref(j);
  free(md);
  free(Rs);
  return st;
}
