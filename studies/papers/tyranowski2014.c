/* tyranowski2014.c: the studies of tyranowski2014 (Tyranowski & Desbrun,
 * "Variational partitioned Runge-Kutta methods for Lagrangians linear in
 * velocities") as data: the convergence orders of Figs 5.2, 5.6 and 5.10
 * (a table study, study.h) and the long-time Hamiltonian figures 5.3, 5.4,
 * 5.7, 5.8, 5.11 and 5.12 (figure specs, figure.h) with the claims of the
 * text (reading notes ../shared/papers/notes/tyranowski2014.md, TY-01 to
 * TY-17).
 *
 * tyranowski2014-orders: every row of ../shared/published/
 * tyranowski2014_orders.csv (system, tableau, s, order of q: a number or
 * 'd' for "does not converge"), measured as the paper does: T = 7 (kepler,
 * point-vortices) and 5 (lotka-volterra), the max norm of the q error at T
 * (vi_order_config.at_final) against the exact solution (Kepler's equation,
 * (5.6)) or the library's reference (Lotka-Volterra), h = T/K on the
 * paper's range (K = 20 .. 1280 for T = 7, h = 0.35 .. 0.0055; K = 15 ..
 * 960 for T = 5), precision chosen per cell (double, rerun in quad when the
 * floor of double leaves fewer than four errors: vi_order_run). Match rule:
 * an ok fit whose order rounds to the published integer; a 'd' row matches
 * the verdict "does not converge", never a slope. */
#include "specs.h"
#include "cells.h"
#include "emit.h"
#include "figure.h"
#include "published.h"
#include "report.h"
#include "study.h"
#include "vistudy.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- tyranowski2014-orders --------------------------------------------------- */

typedef struct ty_cell {
  char system[32];
  char tableau[24];
  int s;
  int published;       /* the order; -1 for 'd' */
  vi_cell_fit fit;     /* of the q error at T */
  char precision[8];
  char precision_note[240];
  int match;
  int done;
} ty_cell;

/* The paper's final times (§5.1-5.3; Figs 5.2, 5.6, 5.10) and step ladders
 * (notes §4: T a whole multiple of h, the paper's h = 0.35 .. 0.0035). */
static double ty_T(const char *system) {
  return strcmp(system, "lotka-volterra") == 0 ? 5 : 7;
}

static int ty_ladder(const char *system, long *N) {
  const long base = strcmp(system, "lotka-volterra") == 0 ? 15 : 20;
  for (int i = 0; i < 7; i++) {
    N[i] = base << i;
  }
  return 7;
}

/* A row of the published table (published.h: every field is validated
 * before a row becomes a cell); 'd' is published as -1. */
enum { TY_SYSTEM, TY_TABLEAU, TY_S, TY_ORDER, TY_SOURCE };
static const vi_field ty_fields[] = {
    {"system", VI_FIELD_CHOICE, 0, 0, "kepler|point-vortices|lotka-volterra"},
    {"tableau", VI_FIELD_CHOICE, 0, 0, "gauss|radau-iia|lobatto-iiia-iiib"},
    {"s", VI_FIELD_INT, 1, 99, NULL},
    {"order_q", VI_FIELD_INT, 1, 99, "d"},
    {"source", VI_FIELD_TEXT, 0, 0, NULL},
    {NULL, 0, 0, 0, NULL},
};

static int ty_read_cell(const vi_table_spec *t, void *c_, const vi_table *tab, int r,
                        const char *path, char *err, size_t errlen) {
  (void)t;
  ty_cell *c = c_;
  snprintf(c->system, sizeof c->system, "%s", vi_table_at(tab, r, TY_SYSTEM));
  snprintf(c->tableau, sizeof c->tableau, "%s", vi_table_at(tab, r, TY_TABLEAU));
  c->s = vi_table_int(tab, r, TY_S);
  c->published = vi_table_int(tab, r, TY_ORDER);
  /* A stage count the tableau does not have is found here, before any
   * cell runs. */
  char spec[96];
  snprintf(spec, sizeof spec, "vprk:tableau=%s,s=%d", c->tableau, c->s);
  if (vi_table_row_method(path, tab->line[r], spec, err, errlen) != 0) {
    return -1;
  }
  vi_cell_fit_none(&c->fit);
  return 1;
}

/* The match rule: an ok fit rounding to the published order; 'd' when the
 * verdict is "does not converge". Recomputed on every run, never stored. */
static void ty_judge(ty_cell *c) {
  c->match = c->published < 0 ? strcmp(c->fit.label, "d") == 0
                              : vi_published_order_match(c->fit.order, c->published, 0);
}

static int ty_measure(void *c_, const reproduce_opts *o, char *err, size_t errlen) {
  ty_cell *c = c_;
  char method[96];
  snprintf(method, sizeof method, "vprk:tableau=%s,s=%d", c->tableau, c->s);
  vi_order_config a = {.system = c->system,
                       .method = method,
                       .T = ty_T(c->system),
                       .measure = VI_MEASURE_STATE,
                       .at_final = 1};
  a.nN = ty_ladder(c->system, a.N);
  vi_order_result *r = vi_table_order(&a, VI_PRECISION_AUTO, o, err, errlen);
  if (!r) {
    return -1;
  }
  vi_fit fits[VI_NQUANT];
  vi_order_fits(r, fits);
  const vi_fit *f = &fits[VI_Q];
  vi_cell_fit_set(&c->fit, r, f, r->err[VI_Q]);
  /* A constant error (the stationary 2-stage Lobatto pair): its size. */
  if (f->status == VI_FIT_DIVERGENT) {
    c->fit.emax = r->err[VI_Q][0];
    c->fit.emin = r->err[VI_Q][r->nh - 1];
  }
  snprintf(c->precision, sizeof c->precision, "%s", r->precision);
  snprintf(c->precision_note, sizeof c->precision_note, "%s", r->precision_note);
  ty_judge(c);
  c->done = 1;
  free(r);
  return 0;
}

/* The measurement as stored: the fit as "q", and the precision chosen. */
static json_t *ty_stored(const void *c_) {
  const ty_cell *c = c_;
  return vi_cell_fit_stored(json_pack("{s:s, s:s}", "precision", c->precision,
                                      "precision_note", c->precision_note),
                            "q", &c->fit);
}

/* Restore a cell from the store, every field checked (cells.h); -1 with
 * the reason in why, the cell untouched, when the stored value is not a
 * valid measurement. */
static int ty_restore(void *c_, json_t *v, char *why, size_t whylen) {
  ty_cell x = *(ty_cell *)c_;
  const char *prec = NULL, *note = NULL;
  json_error_t je;
  if (json_unpack_ex(v, &je, 0, "{s:s, s:s}", "precision", &prec, "precision_note",
                     &note) != 0) {
    snprintf(why, whylen, "%s", je.text);
    return -1;
  }
  if ((strcmp(prec, "double") != 0 && strcmp(prec, "quad") != 0) ||
      strlen(note) >= sizeof x.precision_note) {
    snprintf(why, whylen, "precision '%.20s' (double or quad) or its note", prec);
    return -1;
  }
  snprintf(x.precision, sizeof x.precision, "%s", prec);
  snprintf(x.precision_note, sizeof x.precision_note, "%s", note);
  if (vi_cell_fit_restore(v, "q", 2, &x.fit, why, whylen) != 0) {
    return -1;
  }
  ty_judge(&x);
  x.done = 1;
  *(ty_cell *)c_ = x;
  return 0;
}

static void ty_published_text(const ty_cell *c, char *buf, size_t len) {
  if (c->published < 0) {
    snprintf(buf, len, "d");
  } else {
    snprintf(buf, len, "%d", c->published);
  }
}

/* ---- the layout (study.h): one row per cell ----------------------------- */

static const vi_col ty_cols[] = {
    {"system", .type = VI_COL_TEXT},
    {"tableau", .type = VI_COL_TEXT},
    {"s", .type = VI_COL_INT},
    {"method", .type = VI_COL_TEXT},
    {"T", .type = VI_COL_REAL, .fmt = "%g"},
    {"quantity", .type = VI_COL_TEXT},
    {"published", .type = VI_COL_TEXT},
    {"measured", .type = VI_COL_TEXT},
    {"order", .type = VI_COL_REAL, .fmt = "%.2f"},
    {"match", .type = VI_COL_INT},
    {"precision", .type = VI_COL_TEXT},
    {"precision_note", .type = VI_COL_TEXT},
    {"h_max", .type = VI_COL_REAL, .title = "h range from", .fmt = "%.4g"},
    {"h_min", .type = VI_COL_REAL, .title = "to", .fmt = "%.4g"},
    {"err_at_h_max", .type = VI_COL_REAL, .title = "q error from", .fmt = "%.3e"},
    {"err_at_h_min", .type = VI_COL_REAL, .title = "to", .fmt = "%.3e"},
    {"fit_points", .type = VI_COL_INT, .title = "points"},
    {"fit_residual", .type = VI_COL_REAL, .title = "rms residual", .fmt = "%.3f"},
    {"seconds", .type = VI_COL_REAL, .title = "CPU [s]", .fmt = "%.2f"},
};

static int ty_rows(const void *c_, vi_rows *R) {
  const ty_cell *c = c_;
  char method[96], pub[16];
  snprintf(method, sizeof method, "vprk:tableau=%s,s=%d", c->tableau, c->s);
  ty_published_text(c, pub, sizeof pub);
  const int r = vi_rows_add(R);
  if (r < 0 || vi_rows_text(R, r, "system", c->system) ||
      vi_rows_text(R, r, "tableau", c->tableau) || vi_rows_text(R, r, "method", method) ||
      vi_rows_text(R, r, "quantity", "q at T") || vi_rows_text(R, r, "published", pub) ||
      vi_rows_text(R, r, "measured", c->fit.label) ||
      vi_rows_text(R, r, "precision", c->precision) ||
      vi_rows_text(R, r, "precision_note", c->precision_note)) {
    return -1;
  }
  vi_rows_int(R, r, "s", c->s);
  vi_rows_real(R, r, "T", ty_T(c->system));
  vi_rows_real(R, r, "order", c->fit.order);
  vi_rows_int(R, r, "match", c->match);
  vi_rows_real(R, r, "h_max", c->fit.hmax);
  vi_rows_real(R, r, "h_min", c->fit.hmin);
  vi_rows_real(R, r, "err_at_h_max", c->fit.emax);
  vi_rows_real(R, r, "err_at_h_min", c->fit.emin);
  vi_rows_int(R, r, "fit_points", c->fit.npoints);
  vi_rows_real(R, r, "fit_residual", c->fit.residual);
  vi_rows_real(R, r, "seconds", c->fit.seconds);
  return 0;
}

static json_t *ty_head(const vi_study *st) {
  return json_pack(
      "{s:s, s:s, s:s, s:s}", "measure",
      "|q_K - q_ref(T)|_inf at the final time (tyranowski2014 §5: max norm errors "
      "of the solution at T)",
      "T", "7 (kepler, point-vortices), 5 (lotka-volterra)", "steps",
      "h = T/K, K = 20 .. 1280 (T = 7), 15 .. 960 (T = 5), doubling", "match_rule",
      "an ok fit whose order rounds to the published integer; 'd' matches the "
      "verdict 'does not converge'");
}

/* Markdown: the paper's figures as one table (a row per method, a column
 * per system), each entry "measured (published)", a mismatch in bold; then
 * the fits. */
static void ty_md(FILE *f, const vi_study *st, const void *c_, int n, const vi_rows *R,
                  int matched, int total) {
  const ty_cell *c = c_;
  fprintf(
      f,
      "# %s\n\n%s\n\nThe order of q of the VPRK methods (`vprk`) as the paper measures it: "
      "the max norm of the q error at the final time T = 7 (Kepler, point vortices) or 5 "
      "(Lotka-Volterra) against the exact solution (Kepler's equation; (5.6)) or the "
      "library's reference (Lotka-Volterra), h = T/K on the paper's range (K = 20 .. 1280, "
      "15 .. 960), the precision chosen per cell (double, rerun in quad when the floor of "
      "double leaves too few errors). Order: an ok verdict over the four finest settled "
      "errors (docs/orders.md); 'd': the error does not decrease. Each entry: "
      "measured (published); a mismatch in **bold**. Matched %d/%d.\n\n",
      st->id, vi_table_caption(st), matched, total);
  static const char *const systems[] = {"kepler", "point-vortices", "lotka-volterra"};
  fprintf(f, "| method | Kepler (5.3) | point vortices (5.4) | Lotka-Volterra (5.10) |\n"
             "|---|---|---|---|\n");
  for (int k = 0; k < n; k++) {
    int first = 1;
    for (int q = 0; q < k; q++) {
      first &= !(strcmp(c[q].tableau, c[k].tableau) == 0 && c[q].s == c[k].s);
    }
    if (!first) {
      continue;
    }
    fprintf(f, "| %s s=%d |", c[k].tableau, c[k].s);
    for (int i = 0; i < 3; i++) {
      const ty_cell *x = NULL;
      for (int q = 0; q < n; q++) {
        if (strcmp(c[q].system, systems[i]) == 0 && strcmp(c[q].tableau, c[k].tableau) == 0 &&
            c[q].s == c[k].s) {
          x = &c[q];
        }
      }
      char pub[16];
      if (!x || !x->done) {
        fprintf(f, " - |");
        continue;
      }
      ty_published_text(x, pub, sizeof pub);
      fprintf(f, x->match ? " %s (%s)%s |" : " **%s (%s)**%s |", x->fit.label, pub,
              strcmp(x->precision, "quad") == 0 ? " quad" : "");
    }
    fputs("\n", f);
  }
  fprintf(f,
          "\n'quad': the cell was rerun in quad precision (its errors reach the floor of "
          "double within the paper's range).\n\n## Fits\n\n");
  static const char *const show[] = {"system",      "method",       "measured", "precision",
                                     "h_max",       "h_min",        "err_at_h_max",
                                     "err_at_h_min", "fit_points",  "fit_residual", "seconds",
                                     NULL};
  vi_rows_md(f, R, show, NULL, NULL);
  fprintf(f,
          "For a 'd' row the error columns give the error at the coarsest and the "
          "finest h: a constant error is the stationary 2-stage Lobatto pair, q_K = q_0 "
          "(|q(T) - q_0|, notes §1.6).\n\n");
}

static void ty_mismatch(FILE *f, const vi_rows *R, int r, int md) {
  fprintf(f, "%s %s s=%ld%s: measured %s, published %s", vi_rows_get_text(R, r, "system"),
          vi_rows_get_text(R, r, "tableau"), vi_rows_get_int(R, r, "s"), md ? "" : " q",
          vi_rows_get_text(R, r, "measured"), vi_rows_get_text(R, r, "published"));
}

static void ty_key(const void *c_, char *buf, size_t len) {
  const ty_cell *c = c_;
  snprintf(buf, len, "%s/vprk:tableau=%s,s=%d", c->system, c->tableau, c->s);
}

static void ty_label(const void *c_, char *buf, size_t len) {
  const ty_cell *c = c_;
  snprintf(buf, len, "%s %s s=%d", c->system, c->tableau, c->s);
}

static int ty_done(const void *c) {
  return ((const ty_cell *)c)->done;
}

const vi_table_spec vi_tyranowski2014_orders = {
    .config =
        "defaults of each system; T = 7 (kepler, point-vortices), 5 (lotka-volterra); "
        "q error at T; K = 20..1280 / 15..960 doubling; precision auto",
    .caption =
        "tyranowski2014 Figs 5.2, 5.6, 5.10: convergence orders of q of the VPRK "
        "methods (Gauss, Radau IIA, Lobatto IIIA-IIIB) on Kepler, two point vortices "
        "and Lotka-Volterra",
    .cell_size = sizeof(ty_cell),
    .verdicts_per_cell = 1,
    .fields = ty_fields,
    .cell = ty_read_cell,
    .key = ty_key,
    .label = ty_label,
    .done = ty_done,
    .measure = ty_measure,
    .stored = ty_stored,
    .restore = ty_restore,
    .cols = ty_cols,
    .ncols = (int)(sizeof ty_cols / sizeof ty_cols[0]),
    .rows = ty_rows,
    .head = ty_head,
    .md = ty_md,
    .mismatch = ty_mismatch,
    .regenerate = 1,
};

/* ---- tyranowski2014-longtime: Figs 5.3, 5.4, 5.7, 5.8, 5.11, 5.12 ------------ */

/* The long runs (§5.1-5.3): h = 0.1 to T = 5e5 (5e6 steps), H itself (H0
 * makes H = 0 on the orbit, so H - H(0) is H to round-off), stored as the
 * band of each of 2000 windows (250 time units), with every step of a
 * close-up and the window maximum of the defect |p - alpha(q)|. A run ends
 * early, as an event with its time, when |H| exceeds 1 (the orbit is
 * destroyed; notes §4) or the method fails recoverably (Newton; a stage
 * outside the domain). --quick: T = 2000. */
#define TY_T 5e5
#define TY_TQ 2e3
#define TY_H 0.1

static const char ty_why[] =
    "h = 0.1 and T = 5e5 (5e6 steps) as in the paper; the paper's initial data and H0 (H = 0 "
    "on the orbit), so H itself is plotted; each run stored as the minimum and maximum of H - "
    "H(0) over 2000 windows plus every step of a close-up (the paper's [0, 150], [0, 50], "
    "[0, 100]; [0, 50] and [0, 100] also for Figs 5.4 and 5.12, where the breakdowns happen "
    "early); a run ends as an event when |H| > 1 (notes §4: the orbit is destroyed) or the "
    "method fails (Newton, a stage outside the domain of alpha or H); Radau IIA with s = 3 "
    "(stated for Figs 5.2 and 5.7); --quick runs T = 2000";

static const vi_series *ty_series(const vi_series *ss, int ns, const char *label) {
  for (int i = 0; i < ns; i++) {
    if (strcmp(ss[i].label, label) == 0) {
      return &ss[i];
    }
  }
  return NULL;
}

/* The range [lo, hi] of H - H(0) over the windows with t in [t0, t1]. */
static void ty_range(const vi_series *s, double t0, double t1, double *lo, double *hi) {
  *lo = INFINITY;
  *hi = -INFINITY;
  for (int r = 0; r < s->rows; r++) {
    const double t = vi_fig_at(s, r, 0);
    if (t >= t0 && t <= t1) {
      *lo = fmin(*lo, vi_fig_at(s, r, 1));
      *hi = fmax(*hi, vi_fig_at(s, r, 2));
    }
  }
}

/* max |H - H(0)| (col 1-2) or the defect (col 3) over t in [t0, t1]. */
static double ty_amax(const vi_series *s, int col, double t0, double t1) {
  double m = 0;
  for (int r = 0; r < s->rows; r++) {
    const double t = vi_fig_at(s, r, 0);
    if (t < t0 || t > t1) {
      continue;
    }
    if (col == 3) {
      m = fmax(m, vi_fig_at(s, r, 3));
    } else {
      m = fmax(m, fmax(fabs(vi_fig_at(s, r, 1)), fabs(vi_fig_at(s, r, 2))));
    }
  }
  return m;
}

/* The end of a run: its event time, else T. */
static double ty_end(const vi_series *s, double T) {
  return isfinite(s->event_t) ? s->event_t : T;
}

/* Bounded: no event, and the maximum over the last tenth of the run at
 * most twice the maximum over the first tenth (no growth). */
static int ty_bounded(const vi_series *s, int col, double T, double *first, double *last) {
  *first = ty_amax(s, col, 0, T / 10);
  *last = ty_amax(s, col, T - T / 10, T);
  return !isfinite(s->event_t) && *last <= 2 * *first;
}

/* A monotone drift: the window midpoints at t = T/10, 2T/10, .., T move one
 * way (sign -1: down, +1: up), each step by more than the width of the
 * first window's band (so that a wobble inside the band is no drift), and
 * no event. *end the midpoint at T. */
static int ty_drift(const vi_series *s, int sign, double *end) {
  double prev = NAN;
  int ok = !isfinite(s->event_t) && s->rows >= 10;
  const double width = s->rows > 0 ? vi_fig_at(s, 0, 2) - vi_fig_at(s, 0, 1) : 0;
  for (int j = 1; ok && j <= 10; j++) {
    const int r = s->rows * j / 10 - 1;
    const double mid = (vi_fig_at(s, r, 1) + vi_fig_at(s, r, 2)) / 2;
    ok = isnan(prev) || sign * (mid - prev) > width;
    prev = mid;
  }
  *end = prev;
  return ok;
}

/* Grows until it breaks down: the run ends early (an event), and the
 * maximum of |H| over the last tenth of the span before the event, the
 * crossing itself left out (the last hundredth of the span, or the window
 * that holds the event), is at least twice that over its first hundredth
 * (the early amplitude; the every-step close-up z where it covers the
 * span, else the first window). Twice: an amplitude that doubles is
 * growing; the breakdown is the event. */
static int ty_grows(const vi_series *s, const vi_series *z, double T, double *first,
                    double *last) {
  const double e = ty_end(s, T);
  const double zend = z && z->rows > 0 ? vi_fig_at(z, z->rows - 1, 0) : 0;
  *first = z && e / 100 <= zend ? ty_amax(z, 1, 0, e / 100) : ty_amax(s, 1, 0, vi_fig_at(s, 0, 0));
  if (z && e <= zend) {
    *last = ty_amax(z, 1, e - e / 10, e - e / 100);
  } else {
    /* Windows end at their last node's time: the one ending at e holds the
     * crossing, and the bound leaves it out. */
    *last = ty_amax(s, 1, e - e / 10, e * (1 - 1e-12));
  }
  return isfinite(s->event_t) && *first > 0 && *last >= 2 * *first;
}

/* The close-up of curve s (the series after the ns curves), or NULL. */
static const vi_series *ty_zoom(const vi_fig_spec *f, const vi_series *ss, int ns,
                                const vi_series *s) {
  return f->trace.zoom > 0 ? &ss[ns + (s - ss)] : NULL;
}

static void ty_event_text(const vi_series *s, char *buf, size_t len) {
  if (isfinite(s->event_t)) {
    snprintf(buf, len, "%s at t = %.4g", s->event, s->event_t);
  } else {
    snprintf(buf, len, "ran to T");
  }
}

static int ty_need(const vi_fig_spec *f, const vi_series *ss, int ns, const char *const *labels,
                   int n, const vi_series **out, char *err, size_t errlen) {
  for (int i = 0; i < n; i++) {
    if (!(out[i] = ty_series(ss, ns, labels[i]))) {
      snprintf(err, errlen, "%s: no series '%s'", f->id, labels[i]);
      return -1;
    }
  }
  return 0;
}

/* Fig 5.3, TY-08: Gauss 1, 2, 3 on Kepler "preserve the Hamiltonian very
 * well": each bounded, and the error falls with s. */
static int claims_fig53(const vi_fig_spec *f, vi_series *ss, int ns, int quick, vi_claim *cl,
                        char *err, size_t errlen) {
  static const char *const lab[] = {"Gauss s=1", "Gauss s=2", "Gauss s=3"};
  const vi_series *s[3];
  if (ty_need(f, ss, ns, lab, 3, s, err, errlen) != 0) {
    return -1;
  }
  const double T = quick ? f->T_quick : f->T;
  char m[1024];
  size_t off = 0;
  int ok = 1;
  double amax[3];
  for (int i = 0; i < 3; i++) {
    double a, b, lo, hi;
    ok &= ty_bounded(s[i], 1, T, &a, &b);
    ty_range(s[i], 0, T, &lo, &hi);
    amax[i] = fmax(fabs(lo), fabs(hi));
    off += (size_t)snprintf(m + off, sizeof m - off, "%s%s: H in [%.3g, %.3g], max |H| first "
                            "tenth %.3g, last tenth %.3g", i ? "; " : "", lab[i], lo, hi, a, b);
  }
  vi_claim_set(&cl[0], ok,
               "Gauss 1, 2, 3 preserve the Hamiltonian very well over 5e5 (TY-08: bounded, no "
               "growth: the last tenth's max |H| at most twice the first tenth's)",
               "%s", m);
  vi_claim_set(&cl[1], amax[0] > amax[1] && amax[1] > amax[2],
               "the Hamiltonian error falls with the number of stages (Fig 5.3, top to bottom)",
               "max |H|: %.3g, %.3g, %.3g", amax[0], amax[1], amax[2]);
  return 2;
}

/* Fig 5.4, TY-09 and TY-10: Lobatto IIIA-IIIB 3 and 4 on Kepler are
 * unstable, Radau IIA dissipates. */
static int claims_fig54(const vi_fig_spec *f, vi_series *ss, int ns, int quick, vi_claim *cl,
                        char *err, size_t errlen) {
  static const char *const lab[] = {"Lobatto IIIA-IIIB s=3", "Lobatto IIIA-IIIB s=4",
                                    "Radau IIA s=3"};
  const vi_series *s[3];
  if (ty_need(f, ss, ns, lab, 3, s, err, errlen) != 0) {
    return -1;
  }
  const double T = quick ? f->T_quick : f->T;
  char e0[200], e1[200];
  double a0, b0, a1, b1, end;
  const int g0 = ty_grows(s[0], ty_zoom(f, ss, ns, s[0]), T, &a0, &b0),
            g1 = ty_grows(s[1], ty_zoom(f, ss, ns, s[1]), T, &a1, &b1);
  ty_event_text(s[0], e0, sizeof e0);
  ty_event_text(s[1], e1, sizeof e1);
  vi_claim_set(&cl[0], g0 && g1,
               "Lobatto IIIA-IIIB 3 and 4 on Kepler are unstable: H varies with a growing "
               "amplitude and the computation cannot be continued far (TY-09: a breakdown "
               "before T, max |H| over the last tenth before it at least twice that over "
               "the first hundredth)",
               "s=3: %s, max |H| %.3g then %.3g; s=4: %s, max |H| %.3g then %.3g", e0, a0, b0, e1,
               a1, b1);
  const int d = ty_drift(s[2], -1, &end);
  double lo, hi;
  ty_range(s[2], 0, T, &lo, &hi);
  vi_claim_set(&cl[1], d && hi < 1e-3,
               "Radau IIA on Kepler: an accurate solution but a gradual energy dissipation "
               "(TY-10: H decreases monotonically, window midpoints at every tenth of T)",
               "H at T %.3g, H in [%.3g, %.3g]%s", end, lo, hi, d ? "" : "; not monotone");
  return 2;
}

/* Fig 5.7, TY-11 and TY-12: Gauss keeps H on the vortices to round-off,
 * Radau IIA drifts. */
static int claims_fig57(const vi_fig_spec *f, vi_series *ss, int ns, int quick, vi_claim *cl,
                        char *err, size_t errlen) {
  static const char *const lab[] = {"Gauss s=1", "Gauss s=2", "Gauss s=3", "Radau IIA s=3"};
  const vi_series *s[4];
  if (ty_need(f, ss, ns, lab, 4, s, err, errlen) != 0) {
    return -1;
  }
  const double T = quick ? f->T_quick : f->T;
  double g = 0;
  for (int i = 0; i < 3; i++) {
    g = fmax(g, ty_amax(s[i], 1, 0, T));
  }
  /* Round-off: eps per step as a random walk over 5e6 steps is ~1e-13;
   * 1e-10 is far above it and 1e5 times below the Radau drift. */
  vi_claim_set(&cl[0],
               g <= 1e-10 && !isfinite(s[0]->event_t) && !isfinite(s[1]->event_t) &&
                   !isfinite(s[2]->event_t),
               "Gauss 1, 2, 3 on the vortices: H stays virtually constant, the visible "
               "oscillations are round-off (TY-11: max |H| <= 1e-10 over the run)",
               "max |H| over Gauss 1-3: %.3g", g);
  double end;
  const int d = ty_drift(s[3], -1, &end) || ty_drift(s[3], 1, &end);
  vi_claim_set(&cl[1], d && fabs(end) > 100 * g,
               "Radau IIA on the vortices: a slow but systematic drift of H (TY-12: monotone "
               "at every tenth of T, far above round-off)",
               "H at T %.3g (%.3g per unit time), Gauss's round-off level %.3g", end, end / T, g);
  return 2;
}

/* Fig 5.8, TY-13: Lobatto IIIA-IIIB on the vortices does better than on
 * Kepler: no breakdown, H and the defect bounded. */
static int claims_fig58(const vi_fig_spec *f, vi_series *ss, int ns, int quick, vi_claim *cl,
                        char *err, size_t errlen) {
  static const char *const lab[] = {"Lobatto IIIA-IIIB s=3", "Lobatto IIIA-IIIB s=4"};
  const vi_series *s[2];
  if (ty_need(f, ss, ns, lab, 2, s, err, errlen) != 0) {
    return -1;
  }
  const double T = quick ? f->T_quick : f->T;
  double a[2], b[2], da[2], db[2], lo[2], hi[2];
  int ok = 1;
  for (int i = 0; i < 2; i++) {
    ok &= ty_bounded(s[i], 1, T, &a[i], &b[i]) && ty_bounded(s[i], 3, T, &da[i], &db[i]);
    ty_range(s[i], 0, T, &lo[i], &hi[i]);
  }
  vi_claim_set(&cl[0], ok,
               "Lobatto IIIA-IIIB 3 and 4 on the vortices perform better than on Kepler: no "
               "breakdown, H and the defect |p - alpha(q)| bounded (TY-13)",
               "s=3: H in [%.3g, %.3g], defect max %.3g then %.3g; s=4: H in [%.3g, %.3g], "
               "defect max %.3g then %.3g (first, last tenth)",
               lo[0], hi[0], da[0], db[0], lo[1], hi[1], da[1], db[1]);
  return 1;
}

/* Fig 5.11, TY-14: Gauss 1 and 3 on Lotka-Volterra keep H well. */
static int claims_fig511(const vi_fig_spec *f, vi_series *ss, int ns, int quick, vi_claim *cl,
                         char *err, size_t errlen) {
  static const char *const lab[] = {"Gauss s=1", "Gauss s=3"};
  const vi_series *s[2];
  if (ty_need(f, ss, ns, lab, 2, s, err, errlen) != 0) {
    return -1;
  }
  const double T = quick ? f->T_quick : f->T;
  double a[2], b[2], lo[2], hi[2];
  int ok = 1;
  for (int i = 0; i < 2; i++) {
    ok &= ty_bounded(s[i], 1, T, &a[i], &b[i]);
    ty_range(s[i], 0, T, &lo[i], &hi[i]);
  }
  vi_claim_set(&cl[0], ok,
               "Gauss 1 and 3 on Lotka-Volterra show excellent Hamiltonian conservation over "
               "5e5 (TY-14: bounded, no growth)",
               "s=1: H in [%.3g, %.3g], max |H| %.3g then %.3g; s=3: H in [%.3g, %.3g], %.3g "
               "then %.3g (first, last tenth)",
               lo[0], hi[0], a[0], b[0], lo[1], hi[1], a[1], b[1]);
  return 1;
}

/* Fig 5.12, TY-15 to TY-17: Gauss 2 on Lotka-Volterra grows until it
 * breaks down; Lobatto breaks down as on Kepler; Radau IIA drifts. */
static int claims_fig512(const vi_fig_spec *f, vi_series *ss, int ns, int quick, vi_claim *cl,
                         char *err, size_t errlen) {
  static const char *const lab[] = {"Gauss s=2", "Lobatto IIIA-IIIB s=3", "Lobatto IIIA-IIIB s=4",
                                    "Radau IIA s=3"};
  const vi_series *s[4];
  if (ty_need(f, ss, ns, lab, 4, s, err, errlen) != 0) {
    return -1;
  }
  const double T = quick ? f->T_quick : f->T;
  char e[3][200];
  double a[3], b[3];
  int g[3];
  for (int i = 0; i < 3; i++) {
    g[i] = ty_grows(s[i], ty_zoom(f, ss, ns, s[i]), T, &a[i], &b[i]);
    ty_event_text(s[i], e[i], sizeof e[i]);
  }
  vi_claim_set(&cl[0], g[0],
               "Gauss 2 on Lotka-Volterra: H oscillates with an increasing amplitude until the "
               "computation breaks down (TY-15: |H| > 1 or a failure before T, max |H| over "
               "the last tenth before it at least twice that over the first hundredth)",
               "%s; max |H| %.3g early, %.3g in the last tenth before it", e[0], a[0], b[0]);
  /* TY-16's text ("similar problems as in Section 5.1") names no growth:
   * the predicate is the breakdown; the amplitudes are reported, and
   * whether they grew. */
  vi_claim_set(&cl[1], isfinite(s[1]->event_t) && isfinite(s[2]->event_t),
               "Lobatto IIIA-IIIB 3 and 4 on Lotka-Volterra show the problems of §5.1: the "
               "computation cannot be continued far (TY-16: a breakdown before T)",
               "s=3: %s, max |H| %.3g early, %.3g before it (%s); s=4: %s, %.3g early, %.3g "
               "before it (%s)",
               e[1], a[1], b[1], g[1] ? "grew" : "did not grow 2x", e[2], a[2], b[2],
               g[2] ? "grew" : "did not grow 2x");
  double end, lo, hi;
  const int d = ty_drift(s[3], 1, &end) || ty_drift(s[3], -1, &end);
  ty_range(s[3], 0, T, &lo, &hi);
  vi_claim_set(&cl[2], d,
               "Radau IIA on Lotka-Volterra: an accurate solution with a steady drift of the "
               "Hamiltonian (TY-17: monotone at every tenth of T)",
               "H at T %.3g, H in [%.3g, %.3g]", end, lo, hi);
  return 3;
}

#define TY_FIG(id_, sys_, zoom_, claims_, ...)                                           \
  {                                                                                      \
    .id = id_, .kind = VI_FIG_TRACE, .system = sys_, .measure = "energy", .T = TY_T,     \
    .T_quick = TY_TQ, .ylabel = "Hamiltonian H", .why = ty_why, .claims = claims_,       \
    .also = {{"alpha_defect", "defect_max"}}, .trace = {.zoom = zoom_, .breakdown = 1},  \
    __VA_ARGS__                                                                          \
  }

#define TY_G(s_) "vprk:tableau=gauss,s=" #s_
#define TY_L(s_) "vprk:tableau=lobatto-iiia-iiib,s=" #s_
#define TY_R3 "vprk:tableau=radau-iia,s=3"

static const vi_fig_spec ty_fig53 = TY_FIG(
    "tyranowski2014-longtime-fig5.3", "kepler", 150, claims_fig53,
    .curves = {{"Gauss s=1", TY_G(1), TY_H, NULL, 0}, {"Gauss s=2", TY_G(2), TY_H, NULL, 1},
               {"Gauss s=3", TY_G(3), TY_H, NULL, 2}},
    .panels = {"Gauss s=1", "Gauss s=2", "Gauss s=3"});
static const vi_fig_spec ty_fig54 = TY_FIG(
    "tyranowski2014-longtime-fig5.4", "kepler", 50, claims_fig54,
    .curves = {{"Lobatto IIIA-IIIB s=3", TY_L(3), TY_H, NULL, 0},
               {"Lobatto IIIA-IIIB s=4", TY_L(4), TY_H, NULL, 1},
               {"Radau IIA s=3", TY_R3, TY_H, NULL, 2}},
    .panels = {"Lobatto IIIA-IIIB s=3", "Lobatto IIIA-IIIB s=4", "Radau IIA s=3"});
static const vi_fig_spec ty_fig57 = TY_FIG(
    "tyranowski2014-longtime-fig5.7", "point-vortices", 50, claims_fig57,
    .curves = {{"Gauss s=1", TY_G(1), TY_H, NULL, 0}, {"Gauss s=2", TY_G(2), TY_H, NULL, 1},
               {"Gauss s=3", TY_G(3), TY_H, NULL, 2}, {"Radau IIA s=3", TY_R3, TY_H, NULL, 3}},
    .panels = {"Gauss s=1", "Gauss s=2", "Gauss s=3", "Radau IIA s=3"});
static const vi_fig_spec ty_fig58 = TY_FIG(
    "tyranowski2014-longtime-fig5.8", "point-vortices", 50, claims_fig58,
    .curves = {{"Lobatto IIIA-IIIB s=3", TY_L(3), TY_H, NULL, 0},
               {"Lobatto IIIA-IIIB s=4", TY_L(4), TY_H, NULL, 1}},
    .panels = {"Lobatto IIIA-IIIB s=3", "Lobatto IIIA-IIIB s=4"});
static const vi_fig_spec ty_fig511 = TY_FIG(
    "tyranowski2014-longtime-fig5.11", "lotka-volterra", 100, claims_fig511,
    .curves = {{"Gauss s=1", TY_G(1), TY_H, NULL, 0}, {"Gauss s=3", TY_G(3), TY_H, NULL, 1}},
    .panels = {"Gauss s=1", "Gauss s=3"});
static const vi_fig_spec ty_fig512 = TY_FIG(
    "tyranowski2014-longtime-fig5.12", "lotka-volterra", 100, claims_fig512,
    .curves = {{"Gauss s=2", TY_G(2), TY_H, NULL, 0},
               {"Lobatto IIIA-IIIB s=3", TY_L(3), TY_H, NULL, 1},
               {"Lobatto IIIA-IIIB s=4", TY_L(4), TY_H, NULL, 2},
               {"Radau IIA s=3", TY_R3, TY_H, NULL, 3}},
    .panels = {"Gauss s=2", "Lobatto IIIA-IIIB s=3", "Lobatto IIIA-IIIB s=4", "Radau IIA s=3"});

static const vi_fig_spec *const ty_figs[] = {&ty_fig53, &ty_fig54, &ty_fig57,
                                             &ty_fig58, &ty_fig511, &ty_fig512, NULL};

const vi_fig_set vi_tyranowski2014_longtime = {.figs = ty_figs, .why = ty_why};
