/* wenger2017.c: the table studies of wenger2017 as data (study.h): the
 * layout, measurement and verdict of a cell; the table runner does the rest.
 *
 * wenger2017-table1 / -table2: every (s, w, ordL) cell of Tables 1 and 2 of
 * wenger2017 (../shared/published/wenger2017_table{1_gauss,2_lobatto}.csv),
 * measured by an order study of galerkin:s,w,quadL,r,quadZ=lobatto on the
 * planar pendulum against its exact solution, compared cell by cell with
 * the published orders. The published values are read only to compare: no
 * published number is ever written into a measured column.
 *
 * Choices the paper leaves open (stated in every output): the system is the
 * planar pendulum with its default parameters (the only system of §4 with
 * an exact solution, so the reference is exact in both precisions), T = 1,
 * step sizes chosen automatically (h = 1/N, N doubling); a cell whose
 * predicted q order min(ordL, ordZ, 2s) is 8 or more runs in quad
 * precision, because double cannot resolve it above round-off.
 *
 * Match rule (issue 3): the measured order rounded to the nearest even
 * integer equals the published one, or both are 'd'. Extra columns: the
 * §4.1 projection claim, the orders of p and lambda with
 * project=p,lambda=recompute next to the order of q.
 *
 * Long runs: each finished cell goes to the cell store
 * results/ID.partial.json (cells.h); a rerun resumes from it unless --fresh,
 * recomputing every verdict from the stored measurement and the published
 * table as it is now. */
#include "specs.h"
#include "cells.h"
#include "emit.h"
#include "figure.h"
#include "published.h"
#include "report.h"
#include "study.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The system and interval of every cell (choices stated in the outputs). */
#define WG_SYSTEM "planar-pendulum"
#define WG_T 1.0

static const char *const wg_quantity[VI_NQUANT] = {"q", "p", "lambda"};

/* One row of a published table and what we measured for it. */
typedef struct cell {
  int s, r, ordL, w, z, ordZ;
  char quadL[16], quadZ[16], basis[32];
  char pub[VI_NQUANT][8];     /* published order or "d" */
  char meas[VI_NQUANT][16];   /* measured label: "4.01", "d", "plateau", "-" */
  double order[VI_NQUANT];    /* NaN unless fitted */
  char proj[VI_NQUANT][16];   /* with project=p,lambda=recompute */
  int match[VI_NQUANT];
  char precision[8];
  char method[256];
  double hmin, hmax;
  double residual[VI_NQUANT];
  int done;
} cell;

/* A row of a published wenger2017 table (published.h: every field is
 * validated before a row becomes a cell). The integer ranges are only a
 * sanity bound: the method's own ranges and rules are checked on the
 * row's method spec. */
enum {
  WG_S,
  WG_R,
  WG_ORDL,
  WG_W,
  WG_Z,
  WG_ORDZ,
  WG_QUADL,
  WG_QUADZ,
  WG_OQ,
  WG_OP,
  WG_OL,
  WG_BASIS
};
#define WG_ORDER(name)                                                                   \
  { name, VI_FIELD_INT, 1, 99, "d" }
static const vi_field wg_fields[] = {
    {"s", VI_FIELD_INT, 1, 99, NULL},
    {"r", VI_FIELD_INT, 1, 99, NULL},
    {"ordL", VI_FIELD_INT, 1, 99, NULL},
    {"w", VI_FIELD_INT, 1, 99, NULL},
    {"z", VI_FIELD_INT, 1, 99, NULL},
    {"ordZ", VI_FIELD_INT, 1, 99, NULL},
    {"quadL", VI_FIELD_CHOICE, 0, 0, "gauss|lobatto"},
    {"quadZ", VI_FIELD_CHOICE, 0, 0, "gauss|lobatto"},
    WG_ORDER("order_q"),
    WG_ORDER("order_p"),
    WG_ORDER("order_lambda"),
    {"basis", VI_FIELD_CHOICE, 0, 0,
     "extracted|extracted-realigned|extracted-incomplete|rule"},
    {NULL, 0, 0, 0, NULL},
};
#undef WG_ORDER

static void cell_spec(const void *c_, char *spec, size_t len);

static int wg_read_cell(const vi_table_spec *t, void *c_, const vi_table *tab, int row,
                        const char *path, char *err, size_t errlen) {
  (void)t;
  cell *x = c_;
  int *ints[6] = {&x->s, &x->r, &x->ordL, &x->w, &x->z, &x->ordZ};
  for (int i = 0; i < 6; i++) {
    *ints[i] = vi_table_int(tab, row, i);
  }
  snprintf(x->quadL, sizeof x->quadL, "%s", vi_table_at(tab, row, WG_QUADL));
  snprintf(x->quadZ, sizeof x->quadZ, "%s", vi_table_at(tab, row, WG_QUADZ));
  snprintf(x->basis, sizeof x->basis, "%s", vi_table_at(tab, row, WG_BASIS));
  for (int q = 0; q < VI_NQUANT; q++) {
    snprintf(x->pub[q], sizeof x->pub[q], "%s", vi_table_at(tab, row, WG_OQ + q));
  }
  /* A row the method refuses (w > s with Lobatto constraints, r out of
   * range) is found here, before any cell runs. */
  char spec[256];
  cell_spec(x, spec, sizeof spec);
  if (vi_table_row_method(path, tab->line[row], spec, err, errlen) != 0) {
    return -1;
  }
  return 1;
}

/* The match rule (above), from the measured order and the published
 * value as it is now. */
static void judge(cell *c) {
  for (int x = 0; x < VI_NQUANT; x++) {
    if (strcmp(c->pub[x], "d") == 0) {
      c->match[x] = strcmp(c->meas[x], "d") == 0;
    } else {
      c->match[x] = vi_published_order_match(c->order[x], atoi(c->pub[x]), 1);
    }
  }
}

/* The predicted order of q (§4.1) only decides the precision. */
static int wants_quad(const cell *c) {
  int o = c->ordL < c->ordZ ? c->ordL : c->ordZ;
  o = o < 2 * c->s ? o : 2 * c->s;
  return o >= 8;
}

/* The method of a cell: also its key in the cell store. */
static void cell_spec(const void *c_, char *spec, size_t len) {
  const cell *c = c_;
  snprintf(spec, len, "galerkin:s=%d,w=%d,quadL=%s,r=%d,quadZ=%s", c->s, c->w, c->quadL, c->r,
           c->quadZ);
}

static int run_cell(void *c_, const reproduce_opts *o, char *err, size_t errlen) {
  cell *c = c_;
  char spec[256], pspec[300];
  cell_spec(c, spec, sizeof spec);
  snprintf(pspec, sizeof pspec, "%s,project=p,lambda=recompute", spec);
  const int quad = wants_quad(c);
  snprintf(c->precision, sizeof c->precision, "%s", quad ? "quad" : "double");
  /* Plain, then with the projection (§4.1): only the labels of the second. */
  for (int pass = 0; pass < 2; pass++) {
    vi_order_config a = {.system = WG_SYSTEM, .T = WG_T, .method = pass ? pspec : spec};
    vi_order_result *res = vi_table_order(&a, quad ? VI_QUAD : VI_DOUBLE, o, err, errlen);
    if (!res) {
      return -1;
    }
    vi_fit fits[VI_NQUANT];
    vi_order_fits(res, fits);
    for (int x = 0; x < VI_NQUANT; x++) {
      if (pass == 0) {
        vi_fit_label(&fits[x], c->meas[x], sizeof c->meas[x]);
        c->order[x] = fits[x].verdict == VI_VERDICT_OK ? fits[x].order : NAN;
        c->residual[x] = fits[x].verdict == VI_VERDICT_OK ? fits[x].residual : NAN;
      } else {
        vi_fit_label(&fits[x], c->proj[x], sizeof c->proj[x]);
      }
    }
    if (pass == 0) {
      snprintf(c->method, sizeof c->method, "%s", res->method);
      c->hmax = res->h[0];
      c->hmin = res->h[res->nh - 1];
    }
    free(res);
  }
  judge(c);
  c->done = 1;
  return 0;
}

/* The measurement of a finished cell as the cell store keeps it: no
 * verdicts, which are recomputed from the published table on every run. */
static json_t *cell_measurement(const void *c_) {
  const cell *c = c_;
  json_t *j = json_pack("{s:s, s:s, s:[f, f]}", "method", c->method, "precision", c->precision,
                        "h", c->hmax, c->hmin);
  json_t *proj = json_object();
  for (int x = 0; j && x < VI_NQUANT; x++) {
    json_object_set_new(j, wg_quantity[x],
                        vi_cells_fit_json(c->order[x], c->meas[x], c->residual[x]));
    json_object_set_new(proj, wg_quantity[x], json_string(c->proj[x]));
  }
  json_object_set_new(j, "projected", proj);
  return j;
}

/* The method and precision a stored measurement must name: those run_cell
 * gives this cell. 0, or -1 with the reason in why. */
static int stored_method_ok(const cell *c, const char *method, const char *prec,
                            char *why, size_t whylen) {
  char spec[256], canon[256];
  cell_spec(c, spec, sizeof spec);
  if (vi_study_method(spec, canon, sizeof canon, why, whylen) != 0) {
    return -1;
  }
  if (strcmp(method, canon) != 0 ||
      strcmp(prec, wants_quad(c) ? "quad" : "double") != 0) {
    snprintf(why, whylen,
             "method '%.120s' in %.8s precision is not this cell's (%s in %s)", method,
             prec, canon, wants_quad(c) ? "quad" : "double");
    return -1;
  }
  return 0;
}

/* Restore a cell from the store, every field checked against the cell it
 * claims to be (its method and precision, h within (0, T], the fits and
 * the projected labels); -1 with the reason in why, the cell untouched,
 * when the stored value is not a valid measurement of this cell. */
static int cell_restore(void *c_, json_t *v, char *why, size_t whylen) {
  cell x = *(cell *)c_;
  const char *method = NULL, *prec = NULL, *proj[VI_NQUANT];
  json_t *f[VI_NQUANT];
  json_error_t je;
  if (json_unpack_ex(v, &je, JSON_STRICT,
                     "{s:s, s:s, s:[FF!], s:o, s:o, s:o, s:{s:s, s:s, s:s}}", "method",
                     &method, "precision", &prec, "h", &x.hmax, &x.hmin, "q", &f[0], "p",
                     &f[1], "lambda", &f[2], "projected", "q", &proj[0], "p", &proj[1],
                     "lambda", &proj[2]) != 0) {
    snprintf(why, whylen, "%s", je.text);
    return -1;
  }
  if (stored_method_ok(&x, method, prec, why, whylen) != 0) {
    return -1;
  }
  if (!(isfinite(x.hmax) && isfinite(x.hmin) && 0 < x.hmin && x.hmin <= x.hmax &&
        x.hmax <= WG_T)) {
    snprintf(why, whylen, "h [%.3g, %.3g] is not a range of steps in (0, T = %g]", x.hmax,
             x.hmin, WG_T);
    return -1;
  }
  for (int q = 0; q < VI_NQUANT; q++) {
    if (vi_cells_fit_read(f[q], &x.order[q], x.meas[q], sizeof x.meas[q], &x.residual[q],
                          why, whylen) != 0) {
      return -1;
    }
    if (!vi_cells_label_ok(proj[q]) || strlen(proj[q]) >= sizeof x.proj[q]) {
      snprintf(why, whylen, "projected %s '%.20s' is not a fit's label", wg_quantity[q],
               proj[q]);
      return -1;
    }
    snprintf(x.proj[q], sizeof x.proj[q], "%s", proj[q]);
  }
  snprintf(x.precision, sizeof x.precision, "%s", prec);
  snprintf(x.method, sizeof x.method, "%s", method);
  judge(&x);
  x.done = 1;
  *(cell *)c_ = x;
  return 0;
}

/* ---- the layout (study.h): one row per quantity of a cell ------------------ */

/* The JSON keeps the fitted order as a number (its label beside it), the
 * CSV the label; the CSV leaves out the method and the fit's residual. */
static const vi_col wg_cols[] = {
    {"s", .type = VI_COL_INT},
    {"w", .type = VI_COL_INT},
    {"quadL", .type = VI_COL_TEXT},
    {"r", .type = VI_COL_INT},
    {"ordL", .type = VI_COL_INT},
    {"quadZ", .type = VI_COL_TEXT},
    {"ordZ", .type = VI_COL_INT},
    {"quantity", .type = VI_COL_TEXT},
    {"published", .type = VI_COL_ANY}, /* the order, or "d" */
    /* the fitted order, else its label (the CSV has the label) */
    {"measured", .type = VI_COL_ANY, .flags = VI_COL_NOCSV},
    {"measured_label", .type = VI_COL_TEXT, .csv = "measured"},
    {"match", .type = VI_COL_BOOL},
    {"basis", .type = VI_COL_TEXT},
    {"precision", .type = VI_COL_TEXT},
    {"method", .type = VI_COL_TEXT, .flags = VI_COL_NOCSV},
    {"fit_residual", .type = VI_COL_REAL, .flags = VI_COL_NOCSV},
    {"projected", .type = VI_COL_TEXT},
};

static int wg_rows(const void *c_, vi_rows *R) {
  const cell *c = c_;
  for (int x = 0; x < VI_NQUANT; x++) {
    const int r = vi_rows_add(R);
    if (r < 0 || vi_rows_text(R, r, "quadL", c->quadL) ||
        vi_rows_text(R, r, "quadZ", c->quadZ) ||
        vi_rows_text(R, r, "quantity", wg_quantity[x]) ||
        vi_rows_text(R, r, "measured_label", c->meas[x]) ||
        vi_rows_text(R, r, "basis", c->basis) ||
        vi_rows_text(R, r, "precision", c->precision) ||
        vi_rows_text(R, r, "method", c->method) ||
        vi_rows_text(R, r, "projected", c->proj[x]) ||
        vi_rows_real_or_text(R, r, "measured", c->order[x], c->meas[x])) {
      return -1;
    }
    vi_rows_int(R, r, "s", c->s);
    vi_rows_int(R, r, "w", c->w);
    vi_rows_int(R, r, "r", c->r);
    vi_rows_int(R, r, "ordL", c->ordL);
    vi_rows_int(R, r, "ordZ", c->ordZ);
    if (strcmp(c->pub[x], "d") == 0) {
      if (vi_rows_text(R, r, "published", "d") != 0) {
        return -1;
      }
    } else {
      vi_rows_int(R, r, "published", atoi(c->pub[x]));
    }
    vi_rows_bool(R, r, "match", c->match[x]);
    vi_rows_real(R, r, "fit_residual", c->residual[x]);
  }
  return 0;
}

/* The system's parameters: its defaults, read from the system (the paper
 * names none), and T; text "m = 1, l = 1, ..." of the defaults in text
 * (NULL: none). NULL when the system cannot be made. */
static json_t *wg_params(char *text, size_t len) {
  char err[256];
  const vi_system_type_d *t = vi_system_find_d(WG_SYSTEM, err, sizeof err);
  vi_system_d *sys = NULL;
  if (!t || vi_system_alloc_d(t, 0, NULL, &sys, err, sizeof err) != VI_OK) {
    return NULL;
  }
  json_t *p = vi_params_json(sys);
  vi_system_free_d(sys);
  const char *key;
  json_t *v;
  size_t off = 0;
  json_object_foreach(p, key, v) {
    if (text && off < len) {
      off += (size_t)snprintf(text + off, len - off, "%s%s = %g", off ? ", " : "", key,
                              json_number_value(v));
    }
  }
  json_object_set_new(p, "T", json_real(WG_T));
  return p;
}

static json_t *wg_head(const vi_study *s) {
  return json_pack(
      "{s:s, s:s, s:o, s:s}", "title", vi_table_caption(s), "system", WG_SYSTEM, "params",
      wg_params(NULL, 0), "choices",
      "planar pendulum (default parameters; the paper does not name the system of its "
      "tables): the only system of §4 with an exact solution. T = 1, h = 1/N chosen "
      "automatically (vistudy order --h auto, docs/orders.md); quad precision where "
      "min(ordL, ordZ, 2s) >= 8. lambda is measured over the nodes k >= 1 (the paper's e_g "
      "takes k = 0..N; its start value lambda_0 is one-sided, and on this pendulum, released "
      "at rest, both give the same orders). An order is printed only for an ok verdict, else "
      "'unresolved', 'd' or 'plateau'.");
}

/* Markdown in the paper's layout: one block per w, rows q, p, lambda,
 * columns (s, ordL); each entry "measured (published)", mismatches bold. */
static void wg_md(FILE *f, const vi_study *st, const void *cells_, int n,
                  const vi_rows *R, int matched, int total) {
  const cell *cells = cells_;
  char params[256] = "";
  json_decref(wg_params(params, sizeof params));
  fprintf(f, "# %s\n\n%s\n\n", st->id, vi_table_caption(st));
  fprintf(
      f,
      "System: planar pendulum (%s), T = %g, exact reference; orders are least-squares "
      "slopes over the asymptotic range of h = 1/N chosen automatically, each with an ok "
      "verdict (docs/orders.md; see the JSON for each fit). lambda is measured over the "
      "nodes k >= 1: the paper's error takes k = 0..N, but the start value lambda_0 is "
      "one-sided, of lower order for odd s when the system starts moving; this pendulum "
      "is released at rest, where both give the same orders. The paper does not say "
      "which system or interval produced its tables.\n\n",
      params, WG_T);
  fprintf(
      f,
      "Matched **%d/%d** cells (rule: measured order rounded to the nearest even integer "
      "equals the published one, or both 'd').\n\n",
      matched, total);
  fprintf(f,
          "Each entry: measured (published); **bold** marks a mismatch. Column `proj p / "
          "lambda`: the orders with `project=p,lambda=recompute` (§4.1 claim: both reach "
          "q's order).\n\n");
  int ws[16];
  const int nw = vi_table_distinct(cells, n, sizeof *cells, offsetof(cell, w), ws, 16);
  for (int wi = 0; wi < nw; wi++) {
    const int w = ws[wi];
    fprintf(f, "## w = %d, ordZ = %d (Lobatto, z = %d)\n\n| |", w, 2 * w, w + 1);
    for (int k = 0; k < n; k++) {
      if (cells[k].w == w) {
        fprintf(f, " s=%d ordL=%d |", cells[k].s, cells[k].ordL);
      }
    }
    fprintf(f, "\n|---|");
    for (int k = 0; k < n; k++) {
      if (cells[k].w == w) {
        fprintf(f, "---|");
      }
    }
    fprintf(f, "\n");
    for (int x = 0; x < VI_NQUANT + 1; x++) {
      fprintf(f, "| %s |", x < VI_NQUANT ? wg_quantity[x] : "proj p / lambda");
      for (int k = 0; k < n; k++) {
        const cell *c = &cells[k];
        if (c->w != w) {
          continue;
        }
        if (!c->done) {
          fprintf(f, " (not run) |");
        } else if (x == VI_NQUANT) {
          fprintf(f, " %s / %s |", c->proj[VI_P], c->proj[VI_LAMBDA]);
        } else {
          fprintf(f, c->match[x] ? " %s (%s) |" : " **%s (%s)** |", c->meas[x],
                  c->pub[x]);
        }
      }
      fprintf(f, "\n");
    }
    fprintf(f, "\n");
  }
}

static void wg_mismatch(FILE *f, const vi_rows *R, int r, int md) {
  char pub[16];
  const char *q = vi_rows_get_text(R, r, "quantity");
  fprintf(f, "s=%ld w=%ld %s r=%ld (ordL %ld)%s%s%s measured %s, published %s",
          vi_rows_get_int(R, r, "s"), vi_rows_get_int(R, r, "w"),
          vi_rows_get_text(R, r, "quadL"), vi_rows_get_int(R, r, "r"),
          vi_rows_get_int(R, r, "ordL"), md ? ": " : " ", q, md ? "" : ":",
          vi_rows_get_text(R, r, "measured_label"),
          vi_rows_str(R, r, "published", pub, sizeof pub));
  if (md) {
    fprintf(f, " (basis: %s, %s)", vi_rows_get_text(R, r, "basis"),
            vi_rows_get_text(R, r, "precision"));
  } else {
    fprintf(f, " [%s]", vi_rows_get_text(R, r, "basis"));
  }
}

static void cell_label(const void *c_, char *buf, size_t len) {
  const cell *c = c_;
  snprintf(buf, len, "s=%d w=%d %s r=%d", c->s, c->w, c->quadL, c->r);
}

static int cell_done(const void *c) {
  return ((const cell *)c)->done;
}

const vi_table_spec vi_wenger2017_table = {
    .config =
        "planar-pendulum defaults; T = 1; --h auto; quad where min(ordL, ordZ, 2s) >= 8; "
        "each cell plain and with project=p,lambda=recompute",
    .cell_size = sizeof(cell),
    .verdicts_per_cell = VI_NQUANT,
    .fields = wg_fields,
    .cell = wg_read_cell,
    .key = cell_spec,
    .label = cell_label,
    .done = cell_done,
    .measure = run_cell,
    .stored = cell_measurement,
    .restore = cell_restore,
    .cols = wg_cols,
    .ncols = (int)(sizeof wg_cols / sizeof wg_cols[0]),
    .rows = wg_rows,
    .head = wg_head,
    .by = "basis",
    .md = wg_md,
    .mismatch = wg_mismatch,
};

/* ---- the figures of §4.2 (figure.h) ------------------------------------- */

/* log-log interpolation of seconds at error level e along a sweep (errors
 * decreasing with the row index); NaN when the curve does not reach it. */
static double time_at_error(const vi_series *s, double e) {
  for (int r = 1; r < s->rows; r++) {
    double e0 = vi_fig_at(s, r - 1, VI_W_EQ), e1 = vi_fig_at(s, r, VI_W_EQ);
    if (e0 >= e && e1 <= e && e0 > e1 && e1 > 0) {
      double t0 = vi_fig_at(s, r - 1, VI_W_SEC), t1 = vi_fig_at(s, r, VI_W_SEC);
      double w = log(e / e0) / log(e1 / e0);
      return exp(log(t0) + w * (log(t1) - log(t0)));
    }
  }
  return NAN;
}

static int claims_fig2(const vi_fig_spec *f, vi_series *ss, int ns, int quick, vi_claim *cl, char *err,
                       size_t errlen) {
  const vi_series *a = &ss[0], *b = &ss[1];
  snprintf(cl[0].text, sizeof cl[0].text,
           "with a ten times larger step, the order-8 combination has the smaller energy "
           "error");
  snprintf(cl[0].measured, sizeof cl[0].measured,
           "max |E - E0|: %.3e (h = %g) vs %.3e (h = %g)", a->amax, a->h, b->amax, b->h);
  cl[0].holds = a->amax < b->amax;
  int k = 1;
  for (int i = 0; i < 2; i++, k++) {
    const vi_series *s = &ss[i];
    snprintf(cl[k].text, sizeof cl[k].text,
             "%.90s: the energy error oscillates but stays bounded (no drift)", s->label);
    double ratio = s->last / (s->first > 0 ? s->first : 1e-300);
    snprintf(cl[k].measured, sizeof cl[k].measured,
             "max |E - E0| over the last tenth / over the first tenth = %.3f (bounded: <= 2)",
             ratio);
    cl[k].holds = ratio <= 2;
  }
  return k;
}

/* Quad check of fig3: the first FIG3_QUAD_T seconds of every curve. */
#define FIG3_QUAD_T 10.0
#define FIG3_QUAD_BOUND 1e-25

static int claims_fig3(const vi_fig_spec *f, vi_series *ss, int ns, int quick, vi_claim *cl, char *err,
                       size_t errlen) {
  double worst = 0, qworst = 0, Tq = quick ? f->T_quick : FIG3_QUAD_T;
  const char *wl = "", *ql = "";
  for (int i = 0; i < ns; i++) {
    if (ss[i].amax >= worst) {
      worst = ss[i].amax;
      wl = ss[i].label;
    }
    double qe[3];
    int rc = vi_fig_quad_invariant_error(f->system, ss[i].method, ss[i].h, lround(Tq / ss[i].h),
                                  f->measure, 0, qe, err, errlen);
    ss[i].quad = qe[0];
    if (rc != VI_OK) {
      return -1;
    }
    if (ss[i].quad >= qworst) {
      qworst = ss[i].quad;
      ql = ss[i].label;
    }
  }
  snprintf(cl[0].text, sizeof cl[0].text,
           "the z angular momentum is preserved up to numerical accuracy (checked by "
           "rerunning the first %g s in quad precision: an exactly conserving scheme drops "
           "to quad round-off, a non-conserving one keeps its truncation error)",
           Tq);
  snprintf(cl[0].measured, sizeof cl[0].measured,
           "largest max |Jz - Jz0| in double over T = %g: %.2e (%.90s); in quad over %g s: "
           "%.2e (%.90s); holds when the quad error is below %.0e",
           quick ? f->T_quick : f->T, worst, wl, Tq, qworst, ql, FIG3_QUAD_BOUND);
  cl[0].holds = qworst < FIG3_QUAD_BOUND;
  return 1;
}

static int claims_fig4(const vi_fig_spec *f, vi_series *ss, int ns, int quick, vi_claim *cl, char *err,
                       size_t errlen) {
  int k = 0;
  static const double levels[] = {1e-6, 1e-10};
  for (int l = 0; l < 2; l++) {
    char *m = cl[k].measured;
    size_t len = sizeof cl[k].measured, off = 0;
    int mono = 1, have = 0;
    double prev = NAN, first = NAN, last = NAN;
    const char *fl = "", *ll = "";
    off += (size_t)snprintf(m + off, len - off, "run time at e_q = %.0e:", levels[l]);
    for (int i = 0; i < ns && off < len; i++) {
      double t = time_at_error(&ss[i], levels[l]);
      if (isnan(t)) {
        off += (size_t)snprintf(m + off, len - off, " %.40s not reached;", ss[i].label);
        continue;
      }
      off += (size_t)snprintf(m + off, len - off, " %.40s %.2e s;", ss[i].label, t);
      mono &= isnan(prev) || t < prev;
      prev = t;
      if (!have++) {
        first = t;
        fl = ss[i].label;
      }
      last = t;
      ll = ss[i].label;
    }
    snprintf(cl[k].text, sizeof cl[k].text,
             "higher order: higher accuracy at lower run time (at e_q = %.0e the highest "
             "order is at least twice as fast as the lowest that reaches it)",
             levels[l]);
    cl[k].holds = have >= 2 && last < 0.5 * first;
    k++;
    snprintf(cl[k].text, sizeof cl[k].text,
             "run time decreases with every increase of s (at e_q = %.0e)", levels[l]);
    snprintf(cl[k].measured, sizeof cl[k].measured,
             "%.60s: %.2e s ... %.60s: %.2e s; strictly decreasing over all %d curves that "
             "reach it: %s",
             fl, first, ll, last, have, mono ? "yes" : "no");
    cl[k].holds = have >= 2 && mono;
    k++;
  }
  return k;
}

#define FIG5_EFLOOR 1e-10

static int claims_fig5(const vi_fig_spec *f, vi_series *ss, int ns, int quick, vi_claim *cl, char *err,
                       size_t errlen) {
  int k = 0;
  for (int i = 0; i + 1 < ns; i += 2) {
    const vi_series *g = &ss[i], *lo = &ss[i + 1];
    double maxrel = 0, ratios[64];
    int nr = 0, n = 0;
    /* Compare at equal steps; accuracy only above the round-off plateau. */
    for (int r = 0; r < g->rows && nr < 64; r++) {
      for (int q = 0; q < lo->rows; q++) {
        if (vi_fig_at(lo, q, VI_W_STEPS) != vi_fig_at(g, r, VI_W_STEPS)) {
          continue;
        }
        double eg = vi_fig_at(g, r, VI_W_EQ), el = vi_fig_at(lo, q, VI_W_EQ);
        if (eg > FIG5_EFLOOR && el > FIG5_EFLOOR) {
          double rel = fabs(eg - el) / (eg > el ? eg : el);
          maxrel = rel > maxrel ? rel : maxrel;
          n++;
        }
        ratios[nr++] = vi_fig_at(lo, q, VI_W_SEC) / vi_fig_at(g, r, VI_W_SEC);
      }
    }
    /* Median of the time ratios: robust to a noisy point. */
    for (int a = 1; a < nr; a++) {
      for (int b = a; b > 0 && ratios[b - 1] > ratios[b]; b--) {
        double t = ratios[b];
        ratios[b] = ratios[b - 1];
        ratios[b - 1] = t;
      }
    }
    double med = nr ? (nr % 2 ? ratios[nr / 2] : 0.5 * (ratios[nr / 2 - 1] + ratios[nr / 2])) : NAN;
    snprintf(cl[k].text, sizeof cl[k].text, "%.90s vs %.90s: the same accuracy at the same step",
             g->label, lo->label);
    snprintf(cl[k].measured, sizeof cl[k].measured,
             "max relative difference of e_q over the %d common steps with both errors above "
             "%.0e = %.2e (same: <= 0.1)",
             n, FIG5_EFLOOR, maxrel);
    cl[k].holds = n > 0 && maxrel <= 0.1;
    k++;
    snprintf(cl[k].text, sizeof cl[k].text, "%.90s vs %.90s: Gauss is slightly faster", g->label,
             lo->label);
    snprintf(cl[k].measured, sizeof cl[k].measured,
             "median run-time ratio Lobatto / Gauss over %d steps = %.3f", nr, med);
    cl[k].holds = med > 1;
    k++;
  }
  return k;
}

const vi_fig_spec vi_wenger2017_fig2 = {
    .id = "wenger2017-fig2",
    .kind = VI_FIG_TRACE,
    .system = "planar-pendulum",
    .measure = "energy",
    .T = 1000,
    .T_quick = 50,
    .trace = {.zoom = 10},
    /* SI units: the paper's g = 9.81 (wenger2017 §4), m = l = 1 (docs/systems.md). */
    .ylabel = "energy error E(t) - E(0) [J]",
    .tlabel = "time t [s]",
    .why = "planar pendulum with its default parameters; T = 1000 (about 480 periods); "
           "the paper's step sizes are not given: h = 0.1 for the order-8 combination "
           "and h = 0.01 for the order-4 one (the paper's ratio of ten)",
    .claims = claims_fig2,
    .curves = {{"s=5, w=4, Gauss r=5 (ordL 10), h=0.1",
                "galerkin:s=5,w=4,quadL=gauss,r=5", 0.1, NULL, 0},
               {"s=5, w=3, Lobatto r=5 (ordL 8), h=0.01",
                "galerkin:s=5,w=3,quadL=lobatto,r=5", 0.01, NULL, 0}}};

const vi_fig_spec vi_wenger2017_fig3 = {
    .id = "wenger2017-fig3",
    .kind = VI_FIG_TRACE,
    .system = "double-pendulum-3d",
    .measure = "Jz",
    .T = 100,
    .T_quick = 5,
    /* SI units, as Fig. 2. */
    .ylabel = "angular momentum error Jz(t) - Jz(0) [kg m^2/s]",
    .tlabel = "time t [s]",
    .why = "3D double pendulum with its default parameters; T = 100, h = 0.01; the "
           "paper's combinations are not listed: SHAKE (s=w=1, Lobatto r=2), the shaded "
           "s=w and s=w+1 cells with Gauss quadrature, and one Lobatto cell",
    .claims = claims_fig3,
    .curves = {
        {"s=w=1, Lobatto r=2 (SHAKE)", "galerkin:s=1,w=1,quadL=lobatto,r=2", 0.01, NULL,
         0},
        {"s=w=2, Gauss r=2", "galerkin:s=2,w=2,quadL=gauss,r=2", 0.01, NULL, 0},
        {"s=w=3, Gauss r=3", "galerkin:s=3,w=3,quadL=gauss,r=3", 0.01, NULL, 0},
        {"s=5, w=4, Gauss r=5", "galerkin:s=5,w=4,quadL=gauss,r=5", 0.01, NULL, 0},
        {"s=w=4, Lobatto r=5", "galerkin:s=4,w=4,quadL=lobatto,r=5", 0.01, NULL, 0}}};

const vi_fig_spec vi_wenger2017_fig4 = {
    .id = "wenger2017-fig4",
    .kind = VI_FIG_WORK,
    .system = "planar-pendulum",
    .T = 20,
    .T_quick = 2,
    /* q is the bob's position in metres (SI, as Fig. 2). */
    .ylabel = "global q error max_k |q_k - q(t_k)| [m]",
    .why = "planar pendulum with its default parameters, T = 20 (about 9.6 periods), "
           "errors against the exact solution at every node; h = T/N swept in "
           "half-octaves from h = 1 until e_q < 1e-12, e_q stops decreasing below 1e-8 "
           "(round-off), N > 40000 or h < 1e-3; steps the Newton solve cannot take, and "
           "runs with e_q > 0.1 (a different solution branch), are left out",
    .claims = claims_fig4,
    .curves = {{"s=w=r=1", "galerkin:s=1,w=1,quadL=gauss,r=1", 0, NULL, 0},
               {"s=w=r=2", "galerkin:s=2,w=2,quadL=gauss,r=2", 0, NULL, 0},
               {"s=w=r=3", "galerkin:s=3,w=3,quadL=gauss,r=3", 0, NULL, 0},
               {"s=w=r=4", "galerkin:s=4,w=4,quadL=gauss,r=4", 0, NULL, 0},
               {"s=w=r=5", "galerkin:s=5,w=5,quadL=gauss,r=5", 0, NULL, 0},
               {"s=w=r=6", "galerkin:s=6,w=6,quadL=gauss,r=6", 0, NULL, 0}}};

const vi_fig_spec vi_wenger2017_fig5 = {
    .id = "wenger2017-fig5",
    .kind = VI_FIG_WORK,
    .system = "planar-pendulum",
    .T = 20,
    .T_quick = 2,
    /* q is the bob's position in metres (SI, as Fig. 2). */
    .ylabel = "global q error max_k |q_k - q(t_k)| [m]",
    .why = "as wenger2017-fig4: planar pendulum, T = 20, the same step sizes for Gauss "
           "and Lobatto",
    .claims = claims_fig5,
    .curves = {{"s=w=2, Gauss r=2", "galerkin:s=2,w=2,quadL=gauss,r=2", 0, NULL, 0},
               {"s=w=2, Lobatto r=3", "galerkin:s=2,w=2,quadL=lobatto,r=3", 0, NULL, 0},
               {"s=w=5, Gauss r=5", "galerkin:s=5,w=5,quadL=gauss,r=5", 0, NULL, 0},
               {"s=w=5, Lobatto r=6", "galerkin:s=5,w=5,quadL=lobatto,r=6", 0, NULL, 0}}};
