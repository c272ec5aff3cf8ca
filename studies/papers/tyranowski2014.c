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
  char measured[16];   /* "6.01", "d", "plateau", "unresolved", "-" */
  double order;        /* NaN unless fitted */
  double residual, hmin, hmax, emin, emax;
  int npoints;
  char precision[8];
  char precision_note[240];
  int match;
  double seconds;
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

static int ty_read(const vi_table_spec *spec, const char *path, void **out_, int *n, char *err,
                   size_t errlen) {
  (void)spec;
  ty_cell **out = (ty_cell **)out_;
  static const char *const names[] = {"system", "tableau", "s", "order_q"};
  vi_table t;
  int col[4];
  if (vi_table_read(path, &t, err, errlen) != 0) {
    return -1;
  }
  for (int i = 0; i < 4; i++) {
    if ((col[i] = vi_table_col(&t, names[i], path, err, errlen)) < 0) {
      vi_table_free(&t);
      return -1;
    }
  }
  ty_cell *c = calloc((size_t)(t.nrows > 0 ? t.nrows : 1), sizeof *c);
  int rc = c ? 0 : -1;
  if (!c) {
    snprintf(err, errlen, "out of memory");
  }
  for (int r = 0; rc == 0 && r < t.nrows; r++) {
    const char *sys = vi_table_at(&t, r, col[0]), *tab = vi_table_at(&t, r, col[1]);
    const char *ord = vi_table_at(&t, r, col[3]);
    if (strlen(sys) >= sizeof c[r].system || strlen(tab) >= sizeof c[r].tableau) {
      snprintf(err, errlen, "%s:%d: system or tableau name too long", path, r + 2);
      rc = -1;
      break;
    }
    snprintf(c[r].system, sizeof c[r].system, "%s", sys);
    snprintf(c[r].tableau, sizeof c[r].tableau, "%s", tab);
    rc = vi_table_int(&t, r, col[2], path, &c[r].s, err, errlen);
    if (rc == 0 && strcmp(ord, "d") == 0) {
      c[r].published = -1;
    } else if (rc == 0) {
      rc = vi_table_int(&t, r, col[3], path, &c[r].published, err, errlen);
    }
    c[r].order = NAN;
    snprintf(c[r].measured, sizeof c[r].measured, "-");
  }
  const int rows = t.nrows;
  vi_table_free(&t);
  if (rc != 0) {
    free(c);
    return -1;
  }
  *out = c;
  *n = rows;
  return 0;
}

/* The match rule: an ok fit rounding to the published order; 'd' when the
 * verdict is "does not converge". Recomputed on every run, never stored. */
static void ty_judge(ty_cell *c) {
  c->match = c->published < 0 ? strcmp(c->measured, "d") == 0
                              : isfinite(c->order) && lround(c->order) == c->published;
}

static int ty_measure(void *c_, const reproduce_opts *o, char *err, size_t errlen) {
  ty_cell *c = c_;
  char method[96];
  snprintf(method, sizeof method, "vprk:tableau=%s,s=%d", c->tableau, c->s);
  vi_order_config a = {0};
  a.system = c->system;
  a.method = method;
  a.T = ty_T(c->system);
  a.nN = ty_ladder(c->system, a.N);
  a.solver.kind = VI_SOLVER_NEWTON;
  a.cache_dir = o->cache_dir;
  a.clock = vi_cpu_clock;
  a.measure = VI_MEASURE_STATE;
  a.at_final = 1;
  vi_order_result *r = calloc(1, sizeof *r);
  if (!r) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  if (vi_order_run(&a, VI_PRECISION_AUTO, r, err, errlen) != VI_OK) {
    free(r);
    return -1;
  }
  vi_fit fits[VI_NQUANT];
  vi_order_fits(r, fits);
  const vi_fit *f = &fits[VI_Q];
  vi_fit_label(f, c->measured, sizeof c->measured);
  const int ok = f->verdict == VI_VERDICT_OK;
  c->order = ok ? f->order : NAN;
  c->residual = ok ? f->residual : NAN;
  c->hmax = ok ? r->h[f->lo] : NAN;
  c->hmin = ok ? r->h[f->hi] : NAN;
  c->emax = ok ? r->err[VI_Q][f->lo] : NAN;
  c->emin = ok ? r->err[VI_Q][f->hi] : NAN;
  /* A constant error (the stationary 2-stage Lobatto pair): its size. */
  if (f->status == VI_FIT_DIVERGENT) {
    c->emax = r->err[VI_Q][0];
    c->emin = r->err[VI_Q][r->nh - 1];
  }
  c->npoints = ok ? f->hi - f->lo + 1 : 0;
  snprintf(c->precision, sizeof c->precision, "%s", r->precision);
  snprintf(c->precision_note, sizeof c->precision_note, "%s", r->precision_note);
  c->seconds = 0;
  for (int i = 0; i < r->nh; i++) {
    c->seconds += isfinite(r->seconds[i]) ? r->seconds[i] : 0;
  }
  ty_judge(c);
  c->done = 1;
  free(r);
  return 0;
}

static json_t *ty_num(double v) {
  return isfinite(v) ? json_real(v) : json_null();
}

static json_t *ty_stored(const void *c_) {
  const ty_cell *c = c_;
  return json_pack("{s:o, s:[o, o], s:[o, o], s:i, s:s, s:s, s:f}", "q",
                   vi_cells_fit_json(c->order, c->measured, c->residual), "fit_h",
                   ty_num(c->hmax), ty_num(c->hmin), "fit_err", ty_num(c->emax),
                   ty_num(c->emin), "fit_points", c->npoints, "precision", c->precision,
                   "precision_note", c->precision_note, "seconds", c->seconds);
}

static double ty_num_or_nan(json_t *v) {
  return json_is_number(v) ? json_number_value(v) : NAN;
}

static int ty_restore(void *c_, json_t *v, char *why, size_t whylen) {
  ty_cell *c = c_;
  json_t *fit, *h0, *h1, *e0, *e1;
  const char *prec = NULL, *note = NULL;
  json_error_t je;
  if (json_unpack_ex(v, &je, JSON_STRICT, "{s:o, s:[oo], s:[oo], s:i, s:s, s:s, s:F}", "q", &fit,
                     "fit_h", &h0, &h1, "fit_err", &e0, &e1, "fit_points", &c->npoints,
                     "precision", &prec, "precision_note", &note, "seconds", &c->seconds) != 0) {
    snprintf(why, whylen, "%s", je.text);
    return -1;
  }
  if (strcmp(prec, "double") != 0 && strcmp(prec, "quad") != 0) {
    snprintf(why, whylen, "precision '%.20s'", prec);
    return -1;
  }
  snprintf(c->precision, sizeof c->precision, "%s", prec);
  snprintf(c->precision_note, sizeof c->precision_note, "%s", note);
  if (vi_cells_fit_read(fit, &c->order, c->measured, sizeof c->measured, &c->residual, why,
                        whylen) != 0) {
    return -1;
  }
  c->hmax = ty_num_or_nan(h0);
  c->hmin = ty_num_or_nan(h1);
  c->emax = ty_num_or_nan(e0);
  c->emin = ty_num_or_nan(e1);
  ty_judge(c);
  c->done = 1;
  return 0;
}

static void ty_published_text(const ty_cell *c, char *buf, size_t len) {
  if (c->published < 0) {
    snprintf(buf, len, "d");
  } else {
    snprintf(buf, len, "%d", c->published);
  }
}

/* The row model of the cells (emit.h): JSON cells and CSV from one place. */
static const vi_col ty_cols[] = {
    {"system", VI_COL_TEXT, NULL, NULL},
    {"tableau", VI_COL_TEXT, NULL, NULL},
    {"s", VI_COL_INT, NULL, NULL},
    {"method", VI_COL_TEXT, NULL, NULL},
    {"T", VI_COL_REAL, NULL, "%g"},
    {"quantity", VI_COL_TEXT, NULL, NULL},
    {"published", VI_COL_TEXT, NULL, NULL},
    {"measured", VI_COL_TEXT, NULL, NULL},
    {"order", VI_COL_REAL, NULL, "%.2f"},
    {"match", VI_COL_INT, NULL, NULL},
    {"precision", VI_COL_TEXT, NULL, NULL},
    {"precision_note", VI_COL_TEXT, NULL, NULL},
    {"h_max", VI_COL_REAL, "h range from", "%.4g"},
    {"h_min", VI_COL_REAL, "to", "%.4g"},
    {"err_at_h_max", VI_COL_REAL, "q error from", "%.3e"},
    {"err_at_h_min", VI_COL_REAL, "to", "%.3e"},
    {"fit_points", VI_COL_INT, "points", NULL},
    {"fit_residual", VI_COL_REAL, "rms residual", "%.3f"},
    {"seconds", VI_COL_REAL, "CPU [s]", "%.2f"},
};

static int ty_rows(const ty_cell *c, int n, vi_rows *R) {
  vi_rows_init(R, ty_cols, (int)(sizeof ty_cols / sizeof ty_cols[0]));
  for (int k = 0; k < n; k++) {
    if (!c[k].done) {
      continue;
    }
    char method[96], pub[16];
    snprintf(method, sizeof method, "vprk:tableau=%s,s=%d", c[k].tableau, c[k].s);
    ty_published_text(&c[k], pub, sizeof pub);
    const int r = vi_rows_add(R);
    if (r < 0 || vi_rows_text(R, r, "system", c[k].system) || vi_rows_text(R, r, "tableau", c[k].tableau) ||
        vi_rows_text(R, r, "method", method) || vi_rows_text(R, r, "quantity", "q at T") ||
        vi_rows_text(R, r, "published", pub) || vi_rows_text(R, r, "measured", c[k].measured) ||
        vi_rows_text(R, r, "precision", c[k].precision) ||
        vi_rows_text(R, r, "precision_note", c[k].precision_note)) {
      return -1;
    }
    vi_rows_int(R, r, "s", c[k].s);
    vi_rows_real(R, r, "T", ty_T(c[k].system));
    vi_rows_real(R, r, "order", c[k].order);
    vi_rows_int(R, r, "match", c[k].match);
    vi_rows_real(R, r, "h_max", c[k].hmax);
    vi_rows_real(R, r, "h_min", c[k].hmin);
    vi_rows_real(R, r, "err_at_h_max", c[k].emax);
    vi_rows_real(R, r, "err_at_h_min", c[k].emin);
    vi_rows_int(R, r, "fit_points", c[k].npoints);
    vi_rows_real(R, r, "fit_residual", c[k].residual);
    vi_rows_real(R, r, "seconds", c[k].seconds);
  }
  return 0;
}

static json_t *ty_json(const vi_study *st, const void *c_, int n, int *matched, int *total) {
  const ty_cell *c = c_;
  *matched = *total = 0;
  for (int k = 0; k < n; k++) {
    *matched += c[k].done && c[k].match;
    *total += c[k].done;
  }
  json_t *j = json_object();
  json_object_set_new(j, "id", json_string(st->id));
  json_object_set_new(j, "measure",
                      json_string("|q_K - q_ref(T)|_inf at the final time (tyranowski2014 §5: "
                                  "max norm errors of the solution at T)"));
  json_object_set_new(j, "T", json_string("7 (kepler, point-vortices), 5 (lotka-volterra)"));
  json_object_set_new(j, "steps", json_string("h = T/K, K = 20 .. 1280 (T = 7), 15 .. 960 "
                                              "(T = 5), doubling"));
  json_object_set_new(j, "match_rule",
                      json_string("an ok fit whose order rounds to the published integer; 'd' "
                                  "matches the verdict 'does not converge'"));
  vi_rows R;
  json_object_set_new(j, "cells", ty_rows(c, n, &R) == 0 ? vi_rows_json(&R, NULL, NULL)
                                                         : json_null());
  vi_rows_free(&R);
  json_object_set_new(j, "matched", json_integer(*matched));
  json_object_set_new(j, "total", json_integer(*total));
  return j;
}

static char *ty_csv(const void *c_, int n) {
  vi_rows R;
  char *s = ty_rows(c_, n, &R) == 0 ? vi_rows_csv(&R, NULL, NULL) : NULL;
  vi_rows_free(&R);
  return s;
}

static char *ty_md(const vi_study *st, const void *c_, int n, int matched, int total) {
  const ty_cell *c = c_;
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f) {
    return NULL;
  }
  fprintf(f,
          "# %s\n\n%s\n\nThe order of q of the VPRK methods (`vprk`) as the paper measures it: "
          "the max norm of the q error at the final time T = 7 (Kepler, point vortices) or 5 "
          "(Lotka-Volterra) against the exact solution (Kepler's equation; (5.6)) or the "
          "library's reference (Lotka-Volterra), h = T/K on the paper's range (K = 20 .. 1280, "
          "15 .. 960), the precision chosen per cell (double, rerun in quad when the floor of "
          "double leaves too few errors). Order: an ok verdict over the four finest settled "
          "errors (README \"Orders\"); 'd': the error does not decrease. Each entry: "
          "measured (published); a mismatch in **bold**. Matched %d/%d.\n\n",
          st->id, ((const vi_table_spec *)st->spec)->caption, matched, total);
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
      fprintf(f, x->match ? " %s (%s)%s |" : " **%s (%s)**%s |", x->measured, pub,
              strcmp(x->precision, "quad") == 0 ? " quad" : "");
    }
    fputs("\n", f);
  }
  fprintf(f, "\n'quad': the cell was rerun in quad precision (its errors reach the floor of "
             "double within the paper's range).\n\n## Fits\n\n");
  vi_rows R;
  static const char *const show[] = {"system",      "method",       "measured", "precision",
                                     "h_max",       "h_min",        "err_at_h_max",
                                     "err_at_h_min", "fit_points",  "fit_residual", "seconds",
                                     NULL};
  if (ty_rows(c, n, &R) == 0) {
    vi_rows_md(f, &R, show, NULL, NULL);
  }
  vi_rows_free(&R);
  fprintf(f, "For a 'd' row the error columns give the error at the coarsest and the "
             "finest h: a constant error is the stationary 2-stage Lobatto pair, q_K = q_0 "
             "(|q(T) - q_0|, notes §1.6).\n\n## Mismatches\n\n");
  int any = 0;
  for (int k = 0; k < n; k++) {
    if (c[k].done && !c[k].match) {
      char pub[16];
      ty_published_text(&c[k], pub, sizeof pub);
      fprintf(f, "- %s %s s=%d: measured %s, published %s\n", c[k].system, c[k].tableau, c[k].s,
              c[k].measured, pub);
      any = 1;
    }
  }
  fprintf(f, "%s\nRegenerate with `vistudy reproduce %s`.\n", any ? "" : "None.\n", st->id);
  if (fclose(f) != 0) {
    free(buf);
    return NULL;
  }
  return buf;
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

static int ty_mismatches(const void *c_, int n, FILE *f) {
  const ty_cell *c = c_;
  int mism = 0;
  for (int k = 0; k < n; k++) {
    if (c[k].done && !c[k].match) {
      char pub[16];
      ty_published_text(&c[k], pub, sizeof pub);
      fprintf(f, "  mismatch: %s %s s=%d q: measured %s, published %s\n", c[k].system,
              c[k].tableau, c[k].s, c[k].measured, pub);
      mism++;
    }
  }
  return mism;
}

const vi_table_spec vi_tyranowski2014_orders = {
    .config = "defaults of each system; T = 7 (kepler, point-vortices), 5 (lotka-volterra); "
              "q error at T; K = 20..1280 / 15..960 doubling; precision auto",
    .caption = "tyranowski2014 Figs 5.2, 5.6, 5.10: convergence orders of q of the VPRK "
               "methods (Gauss, Radau IIA, Lobatto IIIA-IIIB) on Kepler, two point vortices "
               "and Lotka-Volterra",
    .cell_size = sizeof(ty_cell),
    .verdicts_per_cell = 1,
    .read = ty_read,
    .key = ty_key,
    .label = ty_label,
    .done = ty_done,
    .measure = ty_measure,
    .stored = ty_stored,
    .restore = ty_restore,
    .json = ty_json,
    .md = ty_md,
    .csv = ty_csv,
    .mismatches = ty_mismatches,
};
