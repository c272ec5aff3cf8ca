/* figure_out.c: the outputs of the figure runner (figure.h): a curve as
 * the cell store keeps it and restored from it, and every file of a
 * figure: ID.json (everything), ID.csv (long format), ID.md (summary and
 * claims), ID.dat (the series as gnuplot data blocks; the script ID.gp
 * carries its own copy inline), ID.gp, ID.svg, ID.png, ID.pdf, written atomically
 * (outfile.h). The driver is run_figure.c, the runs figure_runs.c. */
#include "cells.h"
#include "emit.h"
#include "fit.h"
#include "figure_impl.h"
#include "outfile.h"
#include "plot.h"
#include "report.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a curve in the cell store and in the results ---------------------------- */

/* A finite number, or null. */
static json_t *fin(double x) {
  return isfinite(x) ? json_real(x) : json_null();
}

static json_t *series_json(const vi_series *s) {
  json_t *j = json_object();
  json_object_set_new(j, "label", json_string(s->label));
  json_object_set_new(j, "method", json_string(s->method));
  if (s->measure[0]) {
    json_object_set_new(j, "quantity", json_string(s->measure));
  }
  if (s->xmeasure[0]) {
    json_object_set_new(j, "xquantity", json_string(s->xmeasure));
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
  /* The summary numbers of a trace: I(0), max |change|, its maxima over
   * the first and the last tenth (the key "extra" of earlier results). */
  const double sum[4] = {s->I0, s->amax, s->first, s->last};
  json_t *ex = json_array();
  for (int i = 0; i < 4; i++) {
    json_array_append_new(ex, fin(sum[i])); /* null for a NaN: four entries always */
  }
  json_object_set_new(j, "extra", ex);
  if (!isnan(s->quad)) {
    json_object_set_new(j, "quad_check_error", json_real(s->quad));
  }
  if (s->precision[0]) {
    /* A convergence curve: its fitted order and how the study ran. */
    json_object_set_new(j, "fit", json_pack("{s:o, s:o, s:i, s:i, s:b, s:s, s:s}", "order",
                                            fin(s->order), "uncertainty", fin(s->uncertainty),
                                            "lo", s->fit_lo, "hi", s->fit_hi, "ok", s->fit_ok,
                                            "reason", s->fit_why, "precision", s->precision));
  }
  if (isfinite(s->event_t)) {
    json_object_set_new(j, "event", json_pack("{s:f, s:s}", "t", s->event_t, "what", s->event));
  }
  if (isfinite(s->seconds)) {
    /* Timed by the claims after the run (never in the cell store). */
    json_object_set_new(j, "cpu_seconds", json_real(s->seconds));
  }
  return j;
}

/* A finished curve as the cell store keeps it: its series, the status
 * that ended it, and its every-step close-up when the figure has one. */
json_t *vi_fig_curve_stored(const vi_series *s, const vi_series *zoom) {
  json_t *j = json_object();
  json_t *m = series_json(s);
  /* A claim's timing is no part of the curve's run (the claims time it
   * after the curve is stored; a restored curve is timed again). */
  json_object_del(m, "cpu_seconds");
  json_object_set_new(m, "status_code", json_integer(s->status));
  json_object_set_new(j, "series", m);
  if (zoom) {
    json_object_set_new(j, "zoom", series_json(zoom));
  }
  return j;
}

/* What a stored series must be: curve c of figure f over [0, T] or its
 * every-step close-up of [0, zoom] (is_zoom), and the method its run
 * records (vi_fig_curve_method). */
typedef struct curve_want {
  const vi_fig_spec *f;
  const vi_curve_spec *c;
  double T, zoom;
  int quick, is_zoom, trace, path;
  const char *method;
} curve_want;

/* The keys a stored series may have (series_json, vi_fig_curve_stored). */
static const char *const series_keys[] = {
    "label", "method",           "quantity", "h",     "columns",     "rows", "status",
    "extra", "quad_check_error", "fit",      "event", "status_code", "xquantity", NULL};

static int known_key(const char *k, const char *const *keys) {
  for (; *keys; keys++) {
    if (strcmp(k, *keys) == 0) {
      return 1;
    }
  }
  return 0;
}

/* Whether st is a status of status.def (vi_strerror knows it). */
static int known_status(json_int_t st) {
  return st >= INT_MIN + 1 && st <= INT_MAX &&
         strcmp(vi_strerror((int)st), vi_strerror(INT_MIN)) != 0;
}

/* Whether what is a reason an unresolved fit gives (vi_fit_why). */
static int fit_reason_ok(const char *what) {
  for (int k = 1; vi_fit_why(k)[0]; k++) {
    if (strcmp(what, vi_fit_why(k)) == 0) {
      return 1;
    }
  }
  return 0;
}

/* Whether what is what ends a trace early (trace_curve): its breakdown,
 * or a recoverable failure of the method. */
static int event_what_ok(const curve_want *w, const char *what) {
  char brk[160];
  vi_fig_breakdown_what(w->f, w->c, brk, sizeof brk);
  if (strcmp(what, brk) == 0) {
    return 1;
  }
  for (int st = 1; known_status(st); st++) {
    if (strcmp(what, vi_strerror(st)) == 0) {
      return 1;
    }
  }
  return 0;
}

/* x >= 0 or NaN (a stored null). */
#define NONNEG_OR_NAN(x) (isnan(x) || ((x) >= 0 && isfinite(x)))

/* One stored row x (row r, the previous row prev or NULL) checked against
 * the kind's rules: which columns may be NaN (null), their ranges, the
 * time or step column's order. 0, or -1 with the reason. */
static int row_ok(const curve_want *w, const vi_series *s, size_t r, const double *x,
                  const double *prev, char *why, size_t whylen) {
  const vi_fig_spec *f = w->f;
  const double T = w->T;
  const char *lab = s->label;
  if (w->trace) {
    /* t = k h over the run's N = round(T / h) steps (the close-up: up to
     * its span), increasing; every measure may be NaN (a node it could not
     * evaluate), the band's min <= max. */
    const double tend = (double)lround(T / w->c->h) * w->c->h;
    const double tmax = w->is_zoom ? fmin(tend, w->zoom * (1 + 1e-12)) : tend;
    if (!(isfinite(x[0]) && x[0] >= 0 && x[0] <= tmax)) {
      snprintf(why, whylen, "series '%.60s': t = %g in row %zu is outside [0, %g]", lab,
               x[0], r, tmax);
      return -1;
    }
    if (prev && !(x[0] > prev[0])) {
      snprintf(why, whylen, "series '%.60s': t = %g in row %zu does not increase", lab,
               x[0], r);
      return -1;
    }
    if (isfinite(x[1]) && isfinite(x[2]) && !(x[1] <= x[2])) {
      snprintf(why, whylen, "series '%.60s': min > max in row %zu", lab, r);
      return -1;
    }
    for (int c = 1; c < s->ncol; c++) {
      if (isinf(x[c])) {
        snprintf(why, whylen, "series '%.60s': %s in row %zu is not finite", lab,
                 s->cols[c], r);
        return -1;
      }
    }
    return 0;
  }
  if (w->path) {
    /* t = k h within the run's [0, N h], increasing; the abscissa and the
     * ordinate finite or NaN (a node the measure could not evaluate). */
    const double tend = (double)lround(T / w->c->h) * w->c->h;
    if (!(isfinite(x[0]) && x[0] >= 0 && x[0] <= tend * (1 + 1e-12))) {
      snprintf(why, whylen, "series '%.60s': t = %g in row %zu is outside [0, %g]", lab,
               x[0], r, tend);
      return -1;
    }
    if (prev && !(x[0] > prev[0])) {
      snprintf(why, whylen, "series '%.60s': t = %g in row %zu does not increase", lab,
               x[0], r);
      return -1;
    }
    if (isinf(x[1]) || isinf(x[2])) {
      snprintf(why, whylen, "series '%.60s': row %zu is not finite", lab, r);
      return -1;
    }
    return 0;
  }
  if (f->kind == VI_FIG_MSWEEP) {
    /* m = lo + r at the curve's h; the errors (47) >= 0 or NaN; quad 0/1. */
    if (!(x[VI_M_M] == (double)f->msweep.lo + (double)r && x[VI_M_H] == w->c->h &&
          NONNEG_OR_NAN(x[VI_M_ERR]) && NONNEG_OR_NAN(x[VI_M_FIRST]) &&
          NONNEG_OR_NAN(x[VI_M_LAST]) && (x[VI_M_QUAD] == 0 || x[VI_M_QUAD] == 1))) {
      snprintf(why, whylen,
               "series '%.60s': row %zu is not the sweep's value %d at h = %g", lab, r,
               f->msweep.lo + (int)r, w->c->h);
      return -1;
    }
    return 0;
  }
  /* Convergence and work-precision: h = T / steps in (0, T], an integer
   * number of steps; a convergence curve's h strictly decreasing (the fit
   * needs it), its error and Newton iterations NaN where a run failed; a
   * work point's errors of q and p finite (a point is kept only then), of
   * lambda NaN where the system has none, its time and counts >= 0. */
  const int conv = f->kind == VI_FIG_CONVERGENCE;
  const double h = x[0], steps = x[1];
  if (!(isfinite(h) && h > 0 && h <= T)) {
    snprintf(why, whylen, "series '%.60s': h = %g in row %zu is not in (0, T = %g]", lab,
             h, r, T);
    return -1;
  }
  if (!(isfinite(steps) && steps >= 1 && steps == floor(steps) && steps <= 1e15)) {
    snprintf(why, whylen,
             "series '%.60s': steps = %g in row %zu is not a number of steps", lab, steps,
             r);
    return -1;
  }
  if (conv && prev && !(h < prev[0])) {
    snprintf(why, whylen, "series '%.60s': h in row %zu does not decrease", lab, r);
    return -1;
  }
  int ok;
  if (conv) {
    ok = NONNEG_OR_NAN(x[VI_C_ERR]) && NONNEG_OR_NAN(x[VI_C_NEWTON]);
  } else {
    ok = isfinite(x[VI_W_SEC]) && x[VI_W_SEC] >= 0 && isfinite(x[VI_W_EQ]) &&
         x[VI_W_EQ] >= 0 && isfinite(x[VI_W_EP]) && x[VI_W_EP] >= 0 &&
         NONNEG_OR_NAN(x[VI_W_EL]) && isfinite(x[VI_W_NEWTON]) && x[VI_W_NEWTON] >= 0 &&
         isfinite(x[VI_W_FEVALS]) && x[VI_W_FEVALS] >= 0;
  }
  if (!ok) {
    snprintf(why, whylen, "series '%.60s': row %zu has a value out of range or null", lab,
             r);
    return -1;
  }
  return 0;
}

/* The fit of a convergence curve (conv_curve): an ok fit with an order
 * within VI_CELLS_ORDER_MAX, a finite uncertainty >= 0 and its window
 * 0 <= lo < hi < rows; any other with neither and one of vi_fit_why's
 * reasons; the precision the study ran in named first. */
static int fit_restore(const curve_want *w, vi_series *s, json_t *fit, char *why,
                       size_t whylen) {
  json_t *ord = NULL, *unc = NULL;
  const char *reason = NULL, *prec = NULL;
  int lo = 0, hi = 0, ok = 0;
  const char *lab = s->label;
  if (json_unpack(fit, "{s:o, s:o, s:i, s:i, s:b, s:s, s:s !}", "order", &ord,
                  "uncertainty", &unc, "lo", &lo, "hi", &hi, "ok", &ok, "reason", &reason,
                  "precision", &prec) != 0 ||
      (!json_is_number(ord) && !json_is_null(ord)) ||
      (!json_is_number(unc) && !json_is_null(unc)) ||
      strlen(reason) >= sizeof s->fit_why || strlen(prec) >= sizeof s->precision) {
    snprintf(why, whylen, "series '%.60s': fit malformed", lab);
    return -1;
  }
  const double order = json_is_number(ord) ? json_number_value(ord) : NAN;
  const double u = json_is_number(unc) ? json_number_value(unc) : NAN;
  if (ok) {
    if (!(isfinite(order) && fabs(order) <= VI_CELLS_ORDER_MAX)) {
      snprintf(why, whylen, "series '%.60s': fitted order %g is not within +-%d", lab,
               order, VI_CELLS_ORDER_MAX);
      return -1;
    }
    if (!(isfinite(u) && u >= 0) || strcmp(reason, "ok") != 0) {
      snprintf(why, whylen,
               "series '%.60s': an ok fit with uncertainty %g, reason '%.40s'", lab, u,
               reason);
      return -1;
    }
    if (!(0 <= lo && lo < hi && hi < s->rows)) {
      snprintf(why, whylen,
               "series '%.60s': fit window [%d, %d] is not within the %d rows", lab, lo,
               hi, s->rows);
      return -1;
    }
  } else if (!isnan(order) || !isnan(u) || !fit_reason_ok(reason) || lo < -1 || hi < -1 ||
             lo > s->rows || hi > s->rows) {
    snprintf(why, whylen,
             "series '%.60s': an unresolved fit with order %g, reason '%.40s'", lab,
             order, reason);
    return -1;
  }
  /* The precision: "double (...)" or "quad (...)", the one asked if the
   * figure fixes it (vi_order_run's note). */
  const int p = w->f->conv.precision;
  int pok = 0;
  for (int k = 0; k < 2; k++) {
    const vi_precision pk = k ? VI_QUAD : VI_DOUBLE;
    const char *name = vi_precision_name(pk);
    const size_t n = strlen(name);
    if ((p == VI_PRECISION_AUTO || p == (int)pk) && strncmp(prec, name, n) == 0 &&
        strncmp(prec + n, " (", 2) == 0 && prec[strlen(prec) - 1] == ')') {
      pok = 1;
    }
  }
  if (!pok) {
    snprintf(why, whylen,
             "series '%.60s': precision '%.60s' is not one this curve runs in", lab,
             prec);
    return -1;
  }
  s->fit_ok = ok;
  s->fit_lo = lo;
  s->fit_hi = hi;
  s->order = order;
  s->uncertainty = u;
  snprintf(s->fit_why, sizeof s->fit_why, "%s", reason);
  snprintf(s->precision, sizeof s->precision, "%s", prec);
  return 0;
}

/* Restore one stored series into s (a scratch copy: its label, columns and
 * measure set, no rows), every field checked against what curve w's run
 * records; -1 with the reason in why (s may hold rows then: the caller
 * frees them). */
static int series_restore(const curve_want *w, vi_series *s, json_t *v, char *why,
                          size_t whylen) {
  const vi_fig_spec *f = w->f;
  const char *label = NULL, *method = NULL, *status = NULL;
  json_t *cols = NULL, *rows = NULL, *extra = NULL;
  json_error_t je;
  if (json_unpack_ex(v, &je, 0, "{s:s, s:s, s:o, s:o, s:o, s:s}", "label", &label,
                     "method", &method, "columns", &cols, "rows", &rows, "extra", &extra,
                     "status", &status) != 0) {
    snprintf(why, whylen, "%s", je.text);
    return -1;
  }
  const char *key;
  json_t *val;
  json_object_foreach(v, key, val) {
    if (!known_key(key, series_keys)) {
      snprintf(why, whylen, "series '%.60s' has an unknown key '%.40s'", label, key);
      return -1;
    }
  }
  if (strcmp(label, s->label) != 0) {
    snprintf(why, whylen, "series '%.60s' does not belong here", label);
    return -1;
  }
  if (strcmp(method, w->method) != 0) {
    snprintf(why, whylen, "method '%.120s' is not this curve's (%.120s)", method,
             w->method);
    return -1;
  }
  json_t *q = json_object_get(v, "quantity");
  if (s->measure[0]
          ? !(json_is_string(q) && strcmp(json_string_value(q), s->measure) == 0)
          : q != NULL) {
    snprintf(why, whylen, "series '%.60s': quantity is not the curve's (%s)", label,
             s->measure[0] ? s->measure : "none");
    return -1;
  }
  json_t *xq = json_object_get(v, "xquantity");
  if (s->xmeasure[0]
          ? !(json_is_string(xq) && strcmp(json_string_value(xq), s->xmeasure) == 0)
          : xq != NULL) {
    snprintf(why, whylen, "series '%.60s': xquantity is not the curve's (%s)", label,
             s->xmeasure[0] ? s->xmeasure : "none");
    return -1;
  }
  /* h: the curve's fixed step for a trace, residual or m-sweep; none for a
   * sweep of steps (work-precision, convergence). */
  json_t *hj = json_object_get(v, "h");
  const int has_h = f->kind == VI_FIG_TRACE || f->kind == VI_FIG_RESIDUAL ||
                    f->kind == VI_FIG_MSWEEP || f->kind == VI_FIG_PATH;
  double h = 0;
  if (has_h) {
    h = json_is_number(hj) ? json_number_value(hj) : NAN;
    if (!(isfinite(h) && h > 0 && h <= w->T && h == w->c->h)) {
      snprintf(why, whylen, "h = %g is not this curve's step %g in (0, T = %g]", h,
               w->c->h, w->T);
      return -1;
    }
  } else if (hj) {
    snprintf(why, whylen, "series '%.60s' has an h, which a sweep of steps has not",
             label);
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
  /* The status: only a curve that finished is stored (VI_OK); the close-up
   * has no code of its own. */
  json_t *sc = json_object_get(v, "status_code");
  if (w->is_zoom ? sc != NULL : !json_is_integer(sc)) {
    snprintf(why, whylen, "series '%.60s': status_code %s", label,
             w->is_zoom ? "on a close-up" : "missing or not an integer");
    return -1;
  }
  const json_int_t code = sc ? json_integer_value(sc) : VI_OK;
  if (!known_status(code)) {
    snprintf(why, whylen, "status_code %lld is not a vi_status", (long long)code);
    return -1;
  }
  if (code != VI_OK || strcmp(status, vi_strerror((int)code)) != 0) {
    snprintf(why, whylen, "status %lld ('%.60s') is not a finished curve's",
             (long long)code, status);
    return -1;
  }
  if (!json_is_array(rows) || !json_is_array(extra) || json_array_size(extra) != 4) {
    snprintf(why, whylen, "series '%.60s': rows or extra malformed", label);
    return -1;
  }
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
    if (row_ok(w, s, r, x, r ? s->v + (size_t)(r - 1) * (size_t)s->ncol : NULL, why,
               whylen) != 0) {
      return -1;
    }
    if (vi_fig_push(s, x) != 0) {
      snprintf(why, whylen, "out of memory");
      return -1;
    }
  }
  /* Every curve has a row (a trace its last window, a sweep its values);
   * an m-sweep one per value of its range. */
  const int want_rows =
      f->kind == VI_FIG_MSWEEP
          ? (w->quick ? f->msweep.hi_quick : f->msweep.hi) - f->msweep.lo + 1
          : -1;
  if (((w->trace || w->path) && s->rows < 1) || (want_rows >= 0 && s->rows != want_rows)) {
    snprintf(why, whylen, "series '%.60s' has %d rows", label, s->rows);
    return -1;
  }
  /* The summaries: I(0), then max |change| and its maxima over the first
   * and last tenth, which are >= 0; each finite or null (NaN). */
  double sum[4];
  for (int e = 0; e < 4; e++) {
    json_t *x = json_array_get(extra, (size_t)e);
    sum[e] = json_is_number(x) ? json_number_value(x) : NAN;
    if ((!json_is_number(x) && !json_is_null(x)) || isinf(sum[e]) ||
        (e > 0 && (w->trace || w->path) && sum[e] < 0)) {
      snprintf(why, whylen, "series '%.60s': extra[%d] is not a summary", label, e);
      return -1;
    }
  }
  json_t *qc = json_object_get(v, "quad_check_error");
  const double quad = qc && json_is_number(qc) ? json_number_value(qc) : NAN;
  if (qc && !(isfinite(quad) && quad >= 0)) {
    snprintf(why, whylen, "series '%.60s': quad_check_error is not a finite change",
             label);
    return -1;
  }
  /* A convergence curve has its fit, no other series one. */
  json_t *fit = json_object_get(v, "fit");
  const int want_fit = f->kind == VI_FIG_CONVERGENCE && !w->is_zoom;
  if ((fit != NULL) != want_fit) {
    snprintf(why, whylen, "series '%.60s': fit %s", label,
             want_fit ? "missing" : "unexpected");
    return -1;
  }
  if (fit && fit_restore(w, s, fit, why, whylen) != 0) {
    return -1;
  }
  /* An event: only a trace with a breakdown ends early, at a node time of
   * [0, T] (not a close-up). */
  json_t *ev = json_object_get(v, "event");
  s->event_t = NAN;
  s->event[0] = 0;
  if (ev) {
    double et = NAN;
    const char *what = "";
    if (!w->trace || w->is_zoom || !(f->trace.breakdown > 0) ||
        json_unpack(ev, "{s:F, s:s !}", "t", &et, "what", &what) != 0 ||
        strlen(what) >= sizeof s->event) {
      snprintf(why, whylen, "series '%.60s': event malformed or unexpected", label);
      return -1;
    }
    const double tend = (double)lround(w->T / w->c->h) * w->c->h;
    if (!(isfinite(et) && et >= 0 && et <= tend)) {
      snprintf(why, whylen, "event at t = %g is outside [0, T = %g]", et, tend);
      return -1;
    }
    if (!event_what_ok(w, what)) {
      snprintf(why, whylen, "event '%.60s' is not what ends this curve", what);
      return -1;
    }
    s->event_t = et;
    snprintf(s->event, sizeof s->event, "%s", what);
  }
  s->I0 = sum[0];
  s->amax = sum[1];
  s->first = sum[2];
  s->last = sum[3];
  s->quad = quad;
  s->h = h;
  s->status = (int)code;
  snprintf(s->method, sizeof s->method, "%s", method);
  return 0;
}

/* A scratch copy of s without its rows, for restoring into. */
static vi_series scratch(const vi_series *s) {
  vi_series t = *s;
  t.v = NULL;
  t.rows = t.cap = 0;
  return t;
}

int vi_fig_curve_restore(const vi_fig_spec *f, int i, double T, double zoom_T, int quick,
                         vi_series *s, vi_series *zoom, json_t *v, char *why,
                         size_t whylen) {
  json_t *m = json_object_get(v, "series"), *z = json_object_get(v, "zoom");
  if (!m || (zoom != NULL) != (z != NULL) || json_object_size(v) != 1 + (z != NULL)) {
    snprintf(why, whylen, "%s", !m ? "no series" : "close-up missing or unexpected");
    return -1;
  }
  char method[sizeof s->method];
  if (vi_fig_curve_method(f, i, quick, method, sizeof method, why, whylen) != 0) {
    return -1;
  }
  curve_want w = {f,
                  &f->curves[i],
                  T,
                  zoom_T,
                  quick,
                  0,
                  f->kind == VI_FIG_TRACE || f->kind == VI_FIG_RESIDUAL,
                  f->kind == VI_FIG_PATH,
                  method};
  vi_series a = scratch(s), b;
  memset(&b, 0, sizeof b);
  int rc = series_restore(&w, &a, m, why, whylen);
  if (rc == 0 && zoom) {
    w.is_zoom = 1;
    b = scratch(zoom);
    rc = series_restore(&w, &b, z, why, whylen);
  }
  if (rc != 0) {
    /* Refused: the series are untouched, the curve is run again. */
    free(a.v);
    free(b.v);
    return -1;
  }
  free(s->v);
  *s = a;
  s->done = 1;
  if (zoom) {
    free(zoom->v);
    *zoom = b;
    zoom->done = 1;
  }
  return 0;
}

/* ---- files -------------------------------------------------------------------- */

static char *fig_dat(const vi_fig_spec *f, const vi_series *ss, int ns) {
  vi_text t;
  FILE *o = vi_text_open(&t);
  for (int i = 0; o && i < ns; i++) {
    const vi_series *s = &ss[i];
    fprintf(o, "# %s: %s (%s)\n#", f->id, s->label, s->method);
    for (int c = 0; c < s->ncol; c++) {
      fprintf(o, " %s", s->cols[c]);
    }
    fprintf(o, "\n");
    for (int r = 0; r < s->rows; r++) {
      for (int c = 0; c < s->ncol; c++) {
        fprintf(o, "%s%.10e", c ? " " : "", vi_fig_at(s, r, c));
      }
      fprintf(o, "\n");
    }
    fprintf(o, "\n\n");
  }
  return vi_text_close(&t);
}

static char *fig_csv(const vi_series *ss, int ns) {
  vi_text t;
  FILE *o = vi_text_open(&t);
  if (o) {
    fprintf(o, "series,method");
    for (int c = 0; c < ss[0].ncol; c++) {
      fprintf(o, ",%s", ss[0].cols[c]);
    }
    fprintf(o, "\n");
  }
  for (int i = 0; o && i < ns; i++) {
    for (int r = 0; r < ss[i].rows; r++) {
      fprintf(o, "\"%s\",\"%s\"", ss[i].label, ss[i].method);
      for (int c = 0; c < ss[i].ncol; c++) {
        fprintf(o, ",%.17g", vi_fig_at(&ss[i], r, c));
      }
      fprintf(o, "\n");
    }
  }
  return vi_text_close(&t);
}

int vi_fig_panel_count(const vi_fig_spec *f) {
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

/* The band of a trace series: the minimum and maximum of each window (a
 * row at the end of its window). A run that stopped before its second
 * window has one row, the window [0, t] it closed when it stopped: drawn
 * over that span, else it would be one invisible point. */
static void gp_band(vi_gp *g, const vi_series *s, const char *label, int color) {
  if (s->rows == 1) {
    const double x[2] = {0, vi_fig_at(s, 0, 0)};
    const double lo[2] = {vi_fig_at(s, 0, 1), vi_fig_at(s, 0, 1)};
    const double hi[2] = {vi_fig_at(s, 0, 2), vi_fig_at(s, 0, 2)};
    vi_gp_band(g, label, x, lo, hi, 2, color);
    return;
  }
  double *x, *lo, *hi;
  if (series_xy(s, 0, 1, &x, &lo) == 0) {
    hi = malloc((size_t)(s->rows + 1) * sizeof *hi);
    for (int r = 0; hi && r < s->rows; r++) {
      hi[r] = vi_fig_at(s, r, 2);
    }
    if (hi) {
      vi_gp_band(g, label, x, lo, hi, s->rows, color);
    }
    free(hi);
  }
  free(x);
  free(lo);
}

/* The time axis's title (vi_fig_spec.tlabel). */
static const char *fig_tlabel(const vi_fig_spec *f) {
  return f->tlabel ? f->tlabel : "time t [time units]";
}

/* Where a curve's run stopped before T (its event, figure_runs.c:
 * a breakdown or a failed step) as "run stopped at t = 18: |H - H(0)| > 1";
 * "" when it ran to T. */
static void stop_note(const vi_series *s, char *buf, size_t len) {
  buf[0] = '\0';
  if (isfinite(s->event_t)) {
    snprintf(buf, len, "run stopped at t = %.6g: %s", s->event_t, s->event);
  }
}

/* A curve's key label: its own, with where its run stopped. */
static void stop_label(const vi_series *s, char *buf, size_t len) {
  char stop[200];
  stop_note(s, stop, sizeof stop);
  snprintf(buf, len, stop[0] ? "%s (%s)" : "%s", s->label, stop);
}

/* The last time reached in panel p (-1: every curve) when every run of
 * its curves stopped before T: the span the panel is drawn over, so that
 * it shows what ran rather than an axis to T with nothing visible; NaN
 * when one ran to T. */
static double panel_stop(const vi_fig_spec *f, const vi_series *ss, int ns, int p) {
  double t = -INFINITY;
  for (int i = 0; i < ns; i++) {
    if (p >= 0 && f->curves[i].panel != p) {
      continue;
    }
    if (!isfinite(ss[i].event_t)) {
      return NAN;
    }
    t = fmax(t, ss[i].event_t);
  }
  return t > 0 ? t : NAN;
}

/* The x range of a panel drawn over the span that ran (panel_stop). */
static void set_stop_range(vi_gp *g, double t) {
  if (isfinite(t)) {
    char line[96];
    snprintf(line, sizeof line, "set xtics autofreq\nset xrange [0:%.9g]", t);
    vi_gp_set(g, line);
  }
}

/* The figure's script through the gnuplot builder (plot.h): the data
 * inline, so the kept .gp reruns in place; ID.dat keeps the same numbers
 * as a data file. Keys are the builder's (outside the axes); a timed
 * figure's machine line is its note, in small print below everything. */
static char *fig_gnuplot(const vi_fig_spec *f, const vi_series *ss, int ns, int ntot,
                         const char *machine, int quick) {
  const double T = quick ? f->T_quick : f->T;
  const int np = vi_fig_panel_count(f);
  const char *tl = fig_tlabel(f);
  char title[800], line[256], lab[400];
  vi_gp *g;
  int rows = 1, cols = 1;
  if (f->kind == VI_FIG_WORK) {
    /* Run time against q error, as the paper draws it. */
    snprintf(title, sizeof title, "%s (%s, T = %g)", f->id, f->system, T);
    g = vi_gp_new(title);
    vi_gp_note(g, machine);
    vi_gp_panel(g, NULL, "CPU time [s] (pinned core, min of repetitions)", f->ylabel,
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
    vi_gp_panel(g, "", "points per step m", f->ylabel, VI_GP_LOGY);
    snprintf(line, sizeof line, "set xrange [1.7:%g]\nset xtics 1", mmax);
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
    snprintf(line, sizeof line, "error ratio e / e(%s)", ref->label);
    vi_gp_panel(g, "", "points per step m", line, 0);
    snprintf(line, sizeof line, "set xrange [1.7:%g]\nset xtics 1\nset yrange [0:*]",
             mmax);
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
  } else if (f->kind == VI_FIG_CONVERGENCE) {
    /* The error against h in log-log, one line per method, its fitted
     * order in the legend (or why there is none). */
    snprintf(title, sizeof title, "%s (%s, T = %g)", f->id, f->system, T);
    g = vi_gp_new(title);
    vi_gp_panel(g, NULL, "step size h", f->ylabel, VI_GP_LOGX | VI_GP_LOGY);
    for (int i = 0; i < ns; i++) {
      if (ss[i].fit_ok) {
        snprintf(lab, sizeof lab, "%s (order %.2f)", ss[i].label, ss[i].order);
      } else {
        snprintf(lab, sizeof lab, "%s (%s)", ss[i].label, ss[i].fit_why);
      }
      gp_series(g, &ss[i], lab, VI_C_H, VI_C_ERR, i, 0, VI_GP_LINESPOINTS);
    }
  } else if (f->kind == VI_FIG_PATH) {
    /* betsch-ggl Fig 6: per panel the path of its curves' ordinate against
     * the abscissa at equal scales, the first and the last node marked
     * (with rod: the segment from the origin to each, a pendulum's rod at
     * t = 0 and t = T); the axes are the measures', with the unit of the
     * spec's path.unit. */
    snprintf(title, sizeof title, "%s (%s, T = %g)", f->id, f->system, T);
    g = vi_gp_new(title);
    const int npan = np > 0 ? np : 1;
    for (int p = 0; p < npan; p++) {
      const vi_series *first = NULL;
      for (int i = 0; i < ns && !first; i++) {
        first = f->curves[i].panel == p || np == 0 ? &ss[i] : NULL;
      }
      char xl[96], yl[96];
      snprintf(xl, sizeof xl, "%s%s%s", first ? first->xmeasure : "x",
               f->path.unit ? " " : "", f->path.unit ? f->path.unit : "");
      snprintf(yl, sizeof yl, "%s%s%s", first ? vi_fig_series_measure(f, first) : "y",
               f->path.unit ? " " : "", f->path.unit ? f->path.unit : "");
      vi_gp_panel(g, np > 0 ? f->panels[p] : NULL, xl, yl, 0);
      vi_gp_set(g, "set size ratio -1");
      for (int i = 0, k = 0; i < ns; i++) {
        const vi_series *s = &ss[i];
        if ((np > 0 && f->curves[i].panel != p) || s->rows < 1) {
          continue;
        }
        gp_series(g, s, NULL, 1, 2, k, 0, VI_GP_LINES);
        for (int e = 0; e < 2; e++) {
          const int r = e ? s->rows - 1 : 0;
          const double px = vi_fig_at(s, r, 1), py = vi_fig_at(s, r, 2);
          snprintf(lab, sizeof lab, "%.60s at t = %g", s->label, vi_fig_at(s, r, 0));
          if (f->path.rod) {
            const double rx[2] = {0, px}, ry[2] = {0, py};
            vi_gp_curve_style(g, lab, rx, ry, 2, k + 1 + e, 0, VI_GP_LINESPOINTS);
          } else {
            vi_gp_curve_style(g, lab, &px, &py, 1, k + 1 + e, 0, VI_GP_POINTS);
          }
        }
        k += 3;
      }
    }
    rows = 1;
    cols = npan;
  } else if (f->kind == VI_FIG_RESIDUAL) {
    /* The size of each residual: the maximum of each window, log scale. */
    snprintf(title, sizeof title, "%s (%s, T = %g)", f->id, f->system, T);
    g = vi_gp_new(title);
    snprintf(line, sizeof line, "%s\\nmaximum per window", f->ylabel);
    vi_gp_panel(g, NULL, tl, line, VI_GP_LOGY);
    set_stop_range(g, panel_stop(f, ss, ns, -1));
    for (int i = 0; i < ns; i++) {
      /* Past the palette's eight colours dashed (betsch-ggl Fig 20's nine). */
      stop_label(&ss[i], lab, sizeof lab);
      gp_series(g, &ss[i], lab, 0, -1, i, (i / 8) % 2, VI_GP_LINES);
    }
  } else if (np > 0 && ntot > ns) {
    /* tyranowski2014 Figs 5.3, 5.8, 5.11: one row per panel (a method), the
     * every-step close-up on the left, the whole run as the band of each
     * window on the right (five tick intervals: times up to 5e5); the
     * titles name the curve, so the panels need no key. A run that stopped
     * early says when and why, and its whole-run panel is drawn over the
     * span that ran. */
    snprintf(title, sizeof title, "%s (%s, T = %g)", f->id, f->system, T);
    g = vi_gp_new(title);
    for (int p = 0; p < np; p++) {
      char ev[220] = "";
      for (int i = 0; i < ns; i++) {
        if (f->curves[i].panel == p && isfinite(ss[i].event_t)) {
          char stop[200];
          stop_note(&ss[i], stop, sizeof stop);
          snprintf(ev, sizeof ev, "\\n%s", stop);
        }
      }
      const double stop = panel_stop(f, ss, ns, p);
      for (int side = 0; side < 2; side++) {
        char pt[512];
        const vi_series *first = NULL;
        for (int i = 0; i < ns && !first; i++) {
          first = f->curves[i].panel == p ? &ss[side ? i : ns + i] : NULL;
        }
        snprintf(pt, sizeof pt, "%s%s%s", first ? first->label : f->panels[p],
                 side ? ", min and max per window" : "", ev);
        vi_gp_panel(g, pt, tl, f->ylabel, VI_GP_YEXP);
        if (side && !isfinite(stop)) {
          snprintf(line, sizeof line, "set xtics %g", T / 5);
          vi_gp_set(g, line);
        } else if (side) {
          set_stop_range(g, stop);
        } else {
          vi_gp_set(g, "set xtics autofreq");
        }
        for (int i = 0, k = 0; i < ns; i++) {
          if (f->curves[i].panel != p) {
            continue;
          }
          if (side) {
            gp_band(g, &ss[i], ss[i].label, k);
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
      vi_gp_panel(g, f->panels[p], tl, f->ylabel, VI_GP_YEXP);
      set_stop_range(g, panel_stop(f, ss, ns, p));
      for (int i = 0, k = 0; i < ns; i++) {
        if (f->curves[i].panel == p) {
          stop_label(&ss[i], lab, sizeof lab);
          gp_band(g, &ss[i], lab, k++);
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
    snprintf(line, sizeof line, "%s\\nlargest magnitude per window", f->ylabel);
    vi_gp_panel(g, "", tl, line, VI_GP_LOGY);
    set_stop_range(g, panel_stop(f, ss, ns, -1));
    for (int i = 0; i < ns; i++) {
      stop_label(&ss[i], lab, sizeof lab);
      gp_series(g, &ss[i], lab, 0, -1, i, 0, VI_GP_LINES);
    }
    vi_gp_panel(g, "", tl, f->ylabel, VI_GP_YEXP);
    for (int i = 0; i < ns; i++) {
      gp_series(g, &ss[ns + i], NULL, 0, 1, i, 0, VI_GP_LINESPOINTS);
    }
    rows = 2;
  } else {
    /* One trace panel: the band between the smallest and largest error of
     * each window. */
    snprintf(title, sizeof title, "%s (%s, T = %g)", f->id, f->system, T);
    g = vi_gp_new(title);
    vi_gp_panel(g, NULL, tl, f->ylabel, VI_GP_YEXP);
    set_stop_range(g, panel_stop(f, ss, ns, -1));
    for (int i = 0; i < ns; i++) {
      stop_label(&ss[i], lab, sizeof lab);
      gp_band(g, &ss[i], lab, i);
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
  /* The system's settings and the curves' own Newton tolerances. */
  char sets[300] = "", newton[64] = "rtol = 100 eps";
  for (int j = 0; j < VI_FIG_MAXSET && f->set[j]; j++) {
    const size_t off = strlen(sets);
    snprintf(sets + off, sizeof sets - off, "%s%s", j ? ", " : " with --set ", f->set[j]);
  }
  for (int i = 0; i < ns; i++) {
    if (f->curves[i].rtol > 0) {
      snprintf(newton, sizeof newton, "rtol = 100 eps unless a curve names its own");
    }
  }
  if (f->precision) {
    MD("System `%s`%s, T = %g, built-in Newton (%s). Precision: %s. Choices: "
       "%s.\n\n",
       f->system, sets, quick ? f->T_quick : f->T, newton, f->precision, f->why);
  } else {
    MD("System `%s`%s, T = %g, double precision, built-in Newton (%s). Choices "
       "the paper leaves open: %s.\n\n",
       f->system, sets, quick ? f->T_quick : f->T, newton, f->why);
  }
  if (f->kind == VI_FIG_MSWEEP) {
    if (strcmp(f->measure, "energy") == 0 && f->relative) {
      MD("Global error e = max_k |H_k - H_0| / |H_0| (man2020 (46)-(47)) of one run over "
         "[0, %g] at h = %g for each algorithm and m; (quad): the run was done in quad "
         "precision.\n\n| m |",
         quick ? f->T_quick : f->T, ns ? ss[0].h : 0);
    } else {
      MD("The largest change max_k |I_k - I_0|%s of %s over one run over [0, %g] at h = %g "
         "for each curve and %s; (quad): the run was done in quad precision.\n\n| %s |",
         f->relative ? " / |I_0|" : "", f->measure, quick ? f->T_quick : f->T,
         ns ? ss[0].h : 0, f->msweep.key ? f->msweep.key : "m",
         f->msweep.key ? f->msweep.key : "m");
    }
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
  } else if (f->kind == VI_FIG_CONVERGENCE) {
    static const char *const qn[VI_EXTRA + 1] = {"q", "p", "lambda", "energy", "extra block"};
    const int x = f->conv.quantity;
    MD("Global error of %s against h on [0, %g], one order study per method (docs/orders.md: "
       "%s; the fit over the settled window, with its verdict).\n\n| method | order | h "
       "range of the fit | precision |\n|---|---|---|---|\n",
       x >= 0 && x <= VI_EXTRA ? qn[x] : "?", quick ? f->T_quick : f->T,
       f->conv.nN > 0 ? "the step sizes of the spec" : "automatic step sizes");
    for (int i = 0; i < ns; i++) {
      const vi_series *s = &ss[i];
      if (s->fit_ok && s->fit_lo >= 0 && s->fit_hi < s->rows) {
        MD("| %s `%s` | %.2f +- %.2f | %.4g .. %.4g | %s |\n", s->label, s->method, s->order,
           s->uncertainty, vi_fig_at(s, s->fit_lo, VI_C_H), vi_fig_at(s, s->fit_hi, VI_C_H),
           s->precision);
      } else {
        MD("| %s `%s` | unresolved (%s) | - | %s |\n", s->label, s->method, s->fit_why,
           s->precision);
      }
    }
    MD("\n");
  } else if (f->kind == VI_FIG_PATH) {
    MD("| curve | abscissa | ordinate | method | h | at t = 0 | at the last node |\n"
       "|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < ns; i++) {
      const vi_series *s = &ss[i];
      if (s->rows < 1) {
        continue;
      }
      const int e = s->rows - 1;
      MD("| %s | %s | %s | `%s` | %g | (%.6g, %.6g) | t = %g: (%.6g, %.6g) |\n", s->label,
         s->xmeasure, vi_fig_series_measure(f, s), s->method, s->h, vi_fig_at(s, 0, 1),
         vi_fig_at(s, 0, 2), vi_fig_at(s, e, 0), vi_fig_at(s, e, 1), vi_fig_at(s, e, 2));
    }
    MD("\nThe plot shows the path through %s kept nodes (every node up to %d)%s.\n\n",
       ns ? "the" : "no", VI_FIG_TRACE_WINDOWS,
       f->path.rod ? "; the segments from the origin to the first and the last point are "
                     "the rod at t = 0 and at the end"
                   : "; the first and the last point marked");
  } else if (f->kind == VI_FIG_RESIDUAL) {
    MD("| curve | measure | method | h | max over the run |\n|---|---|---|---|---|\n");
    for (int i = 0; i < ns; i++) {
      MD("| %s | %s | `%s` | %g | %.3e |\n", ss[i].label, vi_fig_series_measure(f, &ss[i]),
         ss[i].method, ss[i].h, ss[i].amax);
    }
    MD("\nThe plot shows the maximum of each window of steps.\n\n");
  } else {
    int quad = !isnan(ss[0].quad), own = ss[0].measure[0] != 0;
    /* What the rows are (trace.follow): the default keeps the wording of
     * the studies before follow existed. */
    const int fw = f->trace.follow;
    const char *what = fw == VI_TRACE_VALUE ? "max abs value"
                       : fw == VI_TRACE_INCREMENT
                           ? (f->relative ? "max abs increment / abs I(0)" : "max abs increment")
                       : f->relative ? "max relative error"
                                     : "max abs error";
    MD("| combination |%s method | h | I(0) | %s |%s%s\n|---|%s---|---|---|---|%s%s\n",
       own ? " quantity |" : "", what, f->trace.tenths ? " first tenth | last tenth |" : "",
       quad ? " max abs error, quad check |" : "", own ? "---|" : "",
       f->trace.tenths ? "---|---|" : "", quad ? "---|" : "");
    for (int i = 0; i < ns; i++) {
      MD("| %s |", ss[i].label);
      if (own) {
        MD(" %s |", ss[i].measure);
      }
      MD(" `%s` | %g | %.12g | %.3e |", ss[i].method, ss[i].h, ss[i].I0, ss[i].amax);
      if (f->trace.tenths) {
        MD(" %.3e | %.3e |", ss[i].first, ss[i].last);
      }
      if (quad) {
        MD(" %.3e |", ss[i].quad);
      }
      MD("\n");
    }
    MD("\nThe plot shows, per window of steps, the band between the smallest and largest "
       "%s in the window.\n\n",
       fw == VI_TRACE_VALUE       ? "value"
       : fw == VI_TRACE_INCREMENT ? "increment I_k - I_{k-1} per step (one step per window when "
                                    "the run has at most 2000 steps; rows for k >= 1)"
                                  : "signed error");
  }
  vi_claims_md(mf, "Claims of the paper's text", cl, nc);
#undef MD
  if (fclose(mf) != 0) {
    free(t);
    return NULL;
  }
  return t;
}


int vi_fig_stage_outputs(vi_outset *set, const vi_fig_spec *f, const vi_series *ss, int ns,
                         int ntot, const vi_claim *cl, int nc, const vi_timing *tg,
                         const reproduce_opts *o, char *err, size_t errlen) {
  char base[1024];
  const char *line = tg->line;
  snprintf(base, sizeof base, "%s/%s", o->results_dir, f->id);
  json_t *j = json_object();
  json_object_set_new(j, "id", json_string(f->id));
  json_object_set_new(j, "system", json_string(f->system));
  if (f->set[0]) {
    json_t *st = json_array();
    for (int k = 0; k < VI_FIG_MAXSET && f->set[k]; k++) {
      json_array_append_new(st, json_string(f->set[k]));
    }
    json_object_set_new(j, "set", st);
  }
  json_object_set_new(j, "T", json_real(o->quick ? f->T_quick : f->T));
  json_object_set_new(j, "precision", json_string(f->precision ? f->precision : "double"));
  if (f->relative) {
    json_object_set_new(j, "relative", json_true());
  }
  json_object_set_new(j, "choices", json_string(f->why));
  json_object_set_new(j, "quick", json_boolean(o->quick));
  if (f->measure) {
    json_object_set_new(j, "quantity", json_string(f->measure));
  }
  json_t *mj = vi_timing_json(tg);
  if (f->kind == VI_FIG_WORK) {
    json_object_set_new(mj, "schedule", json_string(VI_TIMING_SCHEDULE));
  }
  json_object_set_new(j, "machine", mj);
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
  int bad = vi_study_stage(set, o->results_dir, f->id, j, md, c, err, errlen) != 0;
  json_decref(j);
  /* The script holds its data (the builder's datablocks), so the kept .gp
   * reruns in place; ID.dat is the same data as a file. */
  char *gp = fig_gnuplot(f, ss, ns, ntot, line, o->quick);
  if (!bad) {
    bad |= vi_outset_text(set, dat, d, err, errlen) != 0;
  }
  if (!bad) {
    /* Two stacked panels (zoom), or the larger man2020 layouts. */
    const int big = vi_fig_panel_count(f) > 2 || f->kind == VI_FIG_MSWEEP;
    if (!gp) {
      snprintf(err, errlen, "out of memory");
    }
    bad |= !gp || vi_plot_stage(set, o->results_dir, f->id, gp, big ? 1100 : 900,
                                big ? 950 : ntot > ns ? 900 : 600, err, errlen) != 0;
  }
  free(d);
  free(c);
  free(md);
  free(gp);
  return bad ? -1 : 0;
}

