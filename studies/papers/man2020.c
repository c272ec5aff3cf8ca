/* man2020_tmpl.c: the table studies of man2020 Tables 1 and 3 as data (study.h) (Man, Gao, Zhong
 * 2020): the convergence order of the relative Hamiltonian error (46)-(49),
 * fitted from its root mean square over the nodes (the maximum (47) beside
 * it; docs/orders.md), of the eight algorithms ELL..LGG for m = 2..9 points on
 * the nonlinear spring pendulum (50)-(52), in quadruple precision as the
 * paper computed (published values: ../shared/published/man2020_orders.csv;
 * read only to compare).
 *
 *   man2020-table1  the m-point Gauss rule with m equidistant control
 *                   points (man2020 §3.1, Table 1) = algorithm EGG
 *   man2020-table3  all eight algorithms (Table 3)
 *
 * Choices the paper leaves open or that differ (stated in every output):
 * T = 10 instead of the paper's 400 s (the error measure is the maximum of
 * a bounded, oscillating energy error, reached within the first periods;
 * 400 s in quad would cost hours), automatic step sizes h = 10/N driven by
 * the energy error (vistudy order --measure energy), the paper's two-point
 * slope (49) replaced by our least-squares fit over the asymptotic range.
 * Match rule (issue 4, as for wenger2017): the measured order rounded to
 * the nearest even integer equals the published one.
 *
 * Each finished cell goes to the cell store results/ID.partial.json
 * (cells.h); a rerun resumes from it unless --fresh, recomputing every
 * verdict from the stored measurement and the published table as it is. */
#include "specs.h"
#include "cells.h"
#include "emit.h"
#include "figure.h"
#include "published.h"
#include "report.h"
#include "study.h"
#include "vistudy.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAN_T 10 /* man2020 §5: T = 10 */
#define MAN_T_TEXT "10"
#define MAN_SYSTEM "spring-pendulum"

typedef struct man_cell {
  char alg[8];
  int m;
  int published;
  vi_cell_fit fit;       /* of the rms energy error */
  char measured_max[16]; /* the label of the maximum's fit (46)-(47) */
  int match;
  int done;
} man_cell;

/* A row of the published CSV, when its source_table is this study's
 * (published.h: every field is validated before a row becomes a cell).
 * Table 1's rows name the construction, not an algorithm: it is EGG. */
enum { MAN_ALG, MAN_CTRL, MAN_QU, MAN_QC, MAN_M, MAN_ORDER, MAN_TABLE };
static const vi_field man_fields[] = {
    {"algorithm", VI_FIELD_TEXT, 0, 0, NULL},
    {"control_points", VI_FIELD_CHOICE, 0, 0, "equidistant|lobatto"},
    {"quad_unconstrained", VI_FIELD_CHOICE, 0, 0, "gauss|lobatto"},
    {"quad_constrained", VI_FIELD_CHOICE, 0, 0, "gauss|lobatto"},
    {"m", VI_FIELD_INT, 1, 99, NULL},
    {"order_energy", VI_FIELD_INT, 1, 99, NULL},
    {"source_table", VI_FIELD_CHOICE, 0, 0, "1|3"},
    {NULL, 0, 0, 0, NULL},
};

static int man_read_cell(const vi_table_spec *t, void *c_, const vi_table *tab, int r,
                         const char *path, char *err, size_t errlen) {
  man_cell *c = c_;
  if (strcmp(vi_table_at(tab, r, MAN_TABLE), t->subset) != 0) {
    return 0;
  }
  const char *ctrl = vi_table_at(tab, r, MAN_CTRL), *qu = vi_table_at(tab, r, MAN_QU),
             *qc = vi_table_at(tab, r, MAN_QC);
  snprintf(c->alg, sizeof c->alg, "%c%c%c", ctrl[0] == 'e' ? 'E' : 'L',
           qu[0] == 'g' ? 'G' : 'L', qc[0] == 'g' ? 'G' : 'L');
  c->m = vi_table_int(tab, r, MAN_M);
  c->published = vi_table_int(tab, r, MAN_ORDER);
  /* An m the family refuses is found here, before any cell runs. */
  char spec[64];
  snprintf(spec, sizeof spec, "man2020:alg=%s,m=%d", c->alg, c->m);
  if (vi_table_row_method(path, tab->line[r], spec, err, errlen) != 0) {
    return -1;
  }
  vi_cell_fit_none(&c->fit);
  snprintf(c->measured_max, sizeof c->measured_max, "-");
  return 1;
}

/* The match rule (issue 4): the fitted order rounded to the nearest even
 * integer equals the published one; recomputed on every run, never stored. */
static void judge(man_cell *c) {
  c->match = vi_published_order_match(c->fit.order, c->published, 1);
}

static int run_cell(void *c_, const reproduce_opts *o, char *err, size_t errlen) {
  man_cell *c = c_;
  char method[64];
  snprintf(method, sizeof method, "man2020:alg=%s,m=%d", c->alg, c->m);
  vi_order_config a = {.system = MAN_SYSTEM,
                       .method = method,
                       .T = MAN_T,
                       .measure = VI_MEASURE_ENERGY,
                       .energy_only = 1};
  vi_order_result *r = vi_table_order(&a, VI_QUAD, o, err, errlen);
  if (!r) {
    return -1;
  }
  /* The order of the energy error from its mean square over the nodes
   * (docs/orders.md: the maximum jitters with the phase of the nodes);
   * the maximum's fit is kept beside it. */
  vi_fit f = vi_order_energy_rms_fit(r), fm = vi_order_energy_fit(r);
  vi_cell_fit_set(&c->fit, r, &f, r->energy_rms);
  vi_fit_label(&fm, c->measured_max, sizeof c->measured_max);
  judge(c);
  c->done = 1;
  free(r);
  return 0;
}

static json_t *num(double v) {
  return isfinite(v) ? json_real(v) : json_null();
}

/* The measurement of a finished cell as the cell store keeps it: the
 * fit as "energy" and the maximum's label as "energy_max". */
static json_t *cell_measurement(const void *c_) {
  const man_cell *c = c_;
  return vi_cell_fit_stored(json_pack("{s:s}", "energy_max", c->measured_max), "energy",
                            &c->fit);
}

/* Restore a cell from the store, every field checked (cells.h); -1 with
 * the reason in why, the cell untouched, when the stored value is not a
 * valid measurement. */
static int cell_restore(void *c_, json_t *v, char *why, size_t whylen) {
  man_cell x = *(man_cell *)c_;
  const char *mx = NULL;
  json_error_t je;
  if (json_unpack_ex(v, &je, 0, "{s:s}", "energy_max", &mx) != 0) {
    snprintf(why, whylen, "%s", je.text);
    return -1;
  }
  if (!vi_cells_label_ok(mx) || strlen(mx) >= sizeof x.measured_max) {
    snprintf(why, whylen, "energy_max '%.20s' is not a fit's label", mx);
    return -1;
  }
  snprintf(x.measured_max, sizeof x.measured_max, "%s", mx);
  if (vi_cell_fit_restore(v, "energy", 1, &x.fit, why, whylen) != 0) {
    return -1;
  }
  judge(&x);
  x.done = 1;
  *(man_cell *)c_ = x;
  return 0;
}

/* ---- the layout (study.h): one row per cell ----------------------------- */

/* The JSON keeps the fitted order as a number and the fit's range as
 * pairs; the CSV the order's label and the range apart; the Markdown's
 * table of fits the ranges as text. */
static const vi_col man_cols[] = {
    {"algorithm", .type = VI_COL_TEXT},
    {"m", .type = VI_COL_INT},
    {"method", .type = VI_COL_TEXT, .flags = VI_COL_NOCSV},
    {"quantity", .type = VI_COL_TEXT},
    {"precision", .type = VI_COL_TEXT},
    {"published", .type = VI_COL_INT},
    /* the fitted order, else its label (the CSV has the label) */
    {"measured", .type = VI_COL_ANY, .flags = VI_COL_NOCSV},
    {"measured_label", .type = VI_COL_TEXT, .title = "order", .csv = "measured",
     .flags = VI_COL_NOJSON},
    {"measured_max", .type = VI_COL_TEXT, .title = "max", .flags = VI_COL_NOCSV},
    {"match", .type = VI_COL_BOOL},
    {"fit_h", .type = VI_COL_JSON},   /* [h_max, h_min] */
    {"fit_err", .type = VI_COL_JSON}, /* the rms errors there */
    {"h_max", .type = VI_COL_REAL, .csv_fmt = "%.6g", .flags = VI_COL_NOJSON},
    {"h_min", .type = VI_COL_REAL, .csv_fmt = "%.6g", .flags = VI_COL_NOJSON},
    {"h_range", .type = VI_COL_TEXT, .title = "h range",
     .flags = VI_COL_NOJSON | VI_COL_NOCSV},
    {"err_range", .type = VI_COL_TEXT, .title = "energy errors (rms)",
     .flags = VI_COL_NOJSON | VI_COL_NOCSV},
    {"fit_points", .type = VI_COL_INT, .title = "points"},
    {"fit_residual", .type = VI_COL_REAL, .title = "rms residual (log10)", .fmt = "%.3f",
     .csv_fmt = "%.4f"},
    {"seconds", .type = VI_COL_REAL, .title = "run time [s]", .fmt = "%.1f",
     .flags = VI_COL_NOCSV},
};

static int man_rows(const void *c_, vi_rows *R) {
  const man_cell *c = c_;
  const vi_cell_fit *f = &c->fit;
  char method[64], hr[64], er[64];
  snprintf(method, sizeof method, "man2020:alg=%s,m=%d", c->alg, c->m);
  snprintf(hr, sizeof hr, "%.4g .. %.4g", f->hmax, f->hmin);
  snprintf(er, sizeof er, "%.2e .. %.2e", f->emax, f->emin);
  const int r = vi_rows_add(R);
  if (r < 0 || vi_rows_text(R, r, "algorithm", c->alg) ||
      vi_rows_text(R, r, "method", method) || vi_rows_text(R, r, "quantity", "energy") ||
      vi_rows_text(R, r, "precision", "quad") ||
      vi_rows_text(R, r, "measured_label", f->label) ||
      vi_rows_text(R, r, "measured_max", c->measured_max) ||
      vi_rows_text(R, r, "h_range", hr) || vi_rows_text(R, r, "err_range", er) ||
      vi_rows_json_value(R, r, "fit_h",
                         json_pack("[o, o]", num(f->hmax), num(f->hmin))) ||
      vi_rows_json_value(R, r, "fit_err",
                         json_pack("[o, o]", num(f->emax), num(f->emin))) ||
      vi_rows_real_or_text(R, r, "measured", f->order, f->label)) {
    return -1;
  }
  vi_rows_int(R, r, "m", c->m);
  vi_rows_int(R, r, "published", c->published);
  vi_rows_bool(R, r, "match", c->match);
  vi_rows_real(R, r, "h_max", f->hmax);
  vi_rows_real(R, r, "h_min", f->hmin);
  vi_rows_int(R, r, "fit_points", f->npoints);
  vi_rows_real(R, r, "fit_residual", f->residual);
  vi_rows_real(R, r, "seconds", f->seconds);
  return 0;
}

static json_t *man_head(const vi_study *st) {
  return json_pack(
      "{s:s, s:s, s:f, s:s, s:s}", "system", MAN_SYSTEM, "params",
      "defaults of vistudy list systems (man2020 (50)-(52): m1 = m2 = l = g = 1)", "T",
      (double)MAN_T, "measure", "energy: max_k |H_k - H_0| / |H_0|, man2020 (46)-(47)",
      "precision", "quad");
}

/* Markdown: the paper's layout (one row per algorithm, one column per m),
 * each entry "measured (published)", a mismatch in bold; then the fits. */
static void man_md(FILE *f, const vi_study *st, const void *c_, int n, const vi_rows *R,
                   int matched, int total) {
  const man_cell *c = c_;
  fprintf(
      f,
      "# %s\n\n%s\n\nSystem `%s` (man2020 (50)-(52), default parameters), T = %s (the "
      "paper: 400 s), quad precision, built-in Newton (rtol = 100 eps); measure: the "
      "relative Hamiltonian error |H_k - H_0| / |H_0| (46), its order fitted from its root "
      "mean square over the nodes (docs/orders.md: the maximum (47) the paper fits "
      "jitters with the phase of the nodes; its own fit is in the column `max`); no "
      "reference needed; step sizes chosen automatically (`vistudy order --measure energy "
      "--precision quad`); order: an ok verdict over the four finest settled errors. Each "
      "entry: measured (published); a mismatch in **bold**. Matched %d/%d.\n\n",
      st->id, vi_table_caption(st), MAN_SYSTEM, MAN_T_TEXT, matched, total);
  fprintf(f, "| algorithm |");
  int ms[16];
  const int nm = vi_table_distinct(c, n, sizeof *c, offsetof(man_cell, m), ms, 16);
  for (int i = 0; i < nm; i++) {
    fprintf(f, " m = %d |", ms[i]);
  }
  fprintf(f, "\n|---|");
  for (int i = 0; i < nm; i++) {
    fprintf(f, "---|");
  }
  fprintf(f, "\n");
  for (int k = 0; k < n; k++) {
    if (k > 0 && strcmp(c[k].alg, c[k - 1].alg) == 0) {
      continue;
    }
    fprintf(f, "| %s |", c[k].alg);
    for (int i = 0; i < nm; i++) {
      const man_cell *x = NULL;
      for (int q = 0; q < n; q++) {
        if (strcmp(c[q].alg, c[k].alg) == 0 && c[q].m == ms[i]) {
          x = &c[q];
        }
      }
      if (!x || !x->done) {
        fprintf(f, " - |");
      } else {
        fprintf(f, x->match ? " %s (%d) |" : " **%s (%d)** |", x->fit.label,
                x->published);
      }
    }
    fprintf(f, "\n");
  }
  static const char *const fits[] = {
      "algorithm", "m",          "measured_label", "measured_max", "h_range",
      "err_range", "fit_points", "fit_residual",   "seconds",      NULL};
  fprintf(f, "\n## Fits\n\n");
  vi_rows_md(f, R, fits, NULL, NULL);
}

static void man_mismatch(FILE *f, const vi_rows *R, int r, int md) {
  fprintf(f,
          md ? "%s m = %ld: measured %s, published %ld"
             : "%s m=%ld energy: measured %s, "
               "published %ld",
          vi_rows_get_text(R, r, "algorithm"), vi_rows_get_int(R, r, "m"),
          vi_rows_get_text(R, r, "measured_label"), vi_rows_get_int(R, r, "published"));
}

static void cell_key(const void *c_, char *buf, size_t len) {
  const man_cell *c = c_;
  snprintf(buf, len, "man2020:alg=%s,m=%d", c->alg, c->m);
}

static void cell_label(const void *c_, char *buf, size_t len) {
  const man_cell *c = c_;
  snprintf(buf, len, "%s m=%d", c->alg, c->m);
}

static int cell_done(const void *c) {
  return ((const man_cell *)c)->done;
}

/* What determines the cells besides the code (cells.h). */
#define MAN_CONFIG                                                                       \
  MAN_SYSTEM " defaults; T = " MAN_T_TEXT "; quad; --measure energy, --h auto; energy error " \
             "rms_k |H_k - H_0| / |H_0| (the maximum beside it)"

#define MAN_TABLE_SPEC(caption_, subset_)                                                \
  {                                                                                      \
    .config = MAN_CONFIG, .caption = caption_, .subset = subset_,                        \
    .cell_size = sizeof(man_cell), .verdicts_per_cell = 1, .fields = man_fields,         \
    .cell = man_read_cell, .key = cell_key, .label = cell_label, .done = cell_done,      \
    .measure = run_cell, .stored = cell_measurement, .restore = cell_restore,            \
    .cols = man_cols, .ncols = (int)(sizeof man_cols / sizeof man_cols[0]),              \
    .rows = man_rows, .head = man_head, .md = man_md, .mismatch = man_mismatch           \
  }

const vi_table_spec vi_man2020_table1 = MAN_TABLE_SPEC(
    "man2020 Table 1: m-point Gauss rule, m equidistant control points (algorithm EGG)", "1");
const vi_table_spec vi_man2020_table3 =
    MAN_TABLE_SPEC("man2020 Table 3: convergence order of the eight algorithms", "3");

/* ---- the figures of §4.2 and §4.4 (figure.h) ------------------------------ */

/* man2020 §4.2 on Fig. 3: "the global error of LGG is always better than
 * LLL" and "the global errors of LLL and LGL are basically the same, as
 * are the global errors of LLG and LGG". On a plot spanning twelve decades
 * "basically the same" is read as: within a factor MAN_SAME (0.3 decades)
 * at every m. */
#define MAN_SAME 2.0

static const vi_series *series_by_label(const vi_series *ss, int ns, const char *label) {
  for (int i = 0; i < ns; i++) {
    if (strcmp(ss[i].label, label) == 0) {
      return &ss[i];
    }
  }
  return NULL;
}

static int claims_man_fig3(const vi_fig_spec *f, vi_series *ss, int ns, int quick, vi_claim *cl,
                           char *err, size_t errlen) {
  static const char *const pairs[3][2] = {{"LGG", "LLL"}, {"LLL", "LGL"}, {"LLG", "LGG"}};
  for (int k = 0; k < 3; k++) {
    const vi_series *a = series_by_label(ss, ns, pairs[k][0]);
    const vi_series *b = series_by_label(ss, ns, pairs[k][1]);
    if (!a || !b) {
      snprintf(err, errlen, "%s: no series %s or %s", f->id, pairs[k][0], pairs[k][1]);
      return -1;
    }
    char *m = cl[k].measured;
    size_t len = sizeof cl[k].measured, off = 0;
    int holds = a->rows > 0 && a->rows == b->rows;
    double worst = 0;
    off += (size_t)snprintf(m + off, len - off, "e(%s) / e(%s):", pairs[k][0], pairs[k][1]);
    for (int r = 0; r < a->rows && r < b->rows && off < len; r++) {
      double ea = vi_fig_at(a, r, VI_M_ERR), eb = vi_fig_at(b, r, VI_M_ERR), q = ea / eb;
      off += (size_t)snprintf(m + off, len - off, "%s m=%.0f %.3g", r ? ";" : "",
                              vi_fig_at(a, r, VI_M_M), q);
      if (k == 0) {
        holds &= ea < eb;
      } else {
        double spread = q > 1 ? q : 1 / q;
        worst = spread > worst ? spread : worst;
        holds &= spread <= MAN_SAME;
      }
    }
    if (k == 0) {
      snprintf(cl[k].text, sizeof cl[k].text,
               "the global error of LGG is always better than LLL (e(LGG) < e(LLL) at every m)");
    } else {
      snprintf(cl[k].text, sizeof cl[k].text,
               "the global errors of %s and %s are basically the same (within a factor %g at "
               "every m)",
               pairs[k][0], pairs[k][1], MAN_SAME);
      if (off < len) {
        snprintf(m + off, len - off, "; largest factor %.3g", worst);
      }
    }
    cl[k].holds = holds;
  }
  return 3;
}

static int claims_man_fig8(const vi_fig_spec *f, vi_series *ss, int ns, int quick, vi_claim *cl,
                           char *err, size_t errlen) {
  for (int i = 0; i < ns; i++) {
    const vi_series *s = &ss[i];
    double ratio = s->last / (s->first > 0 ? s->first : 1e-300);
    snprintf(cl[i].text, sizeof cl[i].text,
             "%.90s: the energy error has definite upper and lower bounds and does not grow "
             "over the run",
             s->label);
    snprintf(cl[i].measured, sizeof cl[i].measured,
             "max |e_H| = %.3e; over the last tenth / over the first tenth = %.3f (bounded: "
             "<= 2)",
             s->amax, ratio);
    cl[i].holds = ratio <= 2;
  }
  return ns;
}

/* Round-off bounds of man2020 Figs. 9 and 11 in double: Jz (60) sums terms
 * x_i p_iy of size about 1 (about 20 eps after 400 steps as a random walk)
 * and (61) adds coordinates of size about 2.7 over 4000 steps; the bounds
 * leave a margin of 100 over what was measured, and a scheme that did not
 * conserve them would show its truncation error (relative energy error
 * 0.1 for LGG m = 2 at h = 1). In quad, as wenger2017-fig3. */
#define MAN_JZ_DOUBLE 1e-13
#define MAN_ANTISYM_DOUBLE 1e-12
#define MAN_QUAD_BOUND 1e-25

/* max |error| of a trace over the windows that end by t = Tq (the span of
 * the quad rerun), so double and quad are compared over the same steps. */
static double trace_max_until(const vi_series *s, double Tq) {
  double e = 0;
  for (int r = 0; r < s->rows && vi_fig_at(s, r, 0) <= Tq * (1 + 1e-12); r++) {
    double a = fmax(fabs(vi_fig_at(s, r, 1)), fabs(vi_fig_at(s, r, 2)));
    e = a > e ? a : e;
  }
  return e;
}

static int claims_man_fig9(const vi_fig_spec *f, vi_series *ss, int ns, int quick, vi_claim *cl,
                           char *err, size_t errlen) {
  if (vi_fig_quad_check(f, ss, ns, quick, err, errlen) != 0) {
    return -1;
  }
  const vi_series *s = &ss[0];
  snprintf(cl[0].text, sizeof cl[0].text,
           "the angular momentum (60) attains numerical accuracy, even with a large step "
           "(eta = %g) and a low order (m = 2)",
           s->h);
  const double Tq = quick ? f->trace.quad_T_quick : f->trace.quad_T;
  snprintf(cl[0].measured, sizeof cl[0].measured,
           "max |I - I0| in double over %g s: %.2e (bound %.0e); over the first %g s: %.2e "
           "in double, %.2e in quad (bound %.0e): the error follows the precision",
           quick ? f->T_quick : f->T, s->amax, MAN_JZ_DOUBLE, Tq, trace_max_until(s, Tq),
           s->quad, MAN_QUAD_BOUND);
  cl[0].holds = s->amax < MAN_JZ_DOUBLE && s->quad < MAN_QUAD_BOUND;
  return 1;
}

static int claims_man_fig11(const vi_fig_spec *f, vi_series *ss, int ns, int quick, vi_claim *cl,
                            char *err, size_t errlen) {
  if (vi_fig_quad_check(f, ss, ns, quick, err, errlen) != 0) {
    return -1;
  }
  for (int i = 0; i < ns; i++) {
    const vi_series *s = &ss[i];
    snprintf(cl[i].text, sizeof cl[i].text,
             "%.60s (61): even after long-time simulations the antisymmetric property is "
             "perfectly conserved",
             s->label);
    const double Tq = quick ? f->trace.quad_T_quick : f->trace.quad_T;
    snprintf(cl[i].measured, sizeof cl[i].measured,
             "max deviation from the initial value in double over %g s: %.2e (bound %.0e); "
             "over the first %g s: %.2e in double, %.2e in quad (bound %.0e)",
             quick ? f->T_quick : f->T, s->amax, MAN_ANTISYM_DOUBLE, Tq,
             trace_max_until(s, Tq), s->quad, MAN_QUAD_BOUND);
    cl[i].holds = s->amax < MAN_ANTISYM_DOUBLE && s->quad < MAN_QUAD_BOUND;
  }
  return ns;
}

const vi_fig_spec vi_man2020_fig3 = {
    .id = "man2020-fig3",
    .kind = VI_FIG_MSWEEP,
    .system = "spring-pendulum",
    .measure = "energy",
    .T = 400,
    .T_quick = 20,
    .ylabel = "global relative Hamiltonian error\\ne = max_k |H_k - H_0| / |H_0|",
    .why = "spring pendulum (50)-(52) with the paper's parameters (m1 = m2 = l = g = 1, "
           "q(0) from (52), at rest); eta = h = 0.1 and 0..400 s as in the paper. "
           "'Global error of Hamiltonian' is read as (47): e = max_k |e_H| with e_H = "
           "(H_k - H_0) / H_0 (46), one number per run, so the figure is e against m = "
           "2..6 for each algorithm (Fig. 2 plots the same measure against eta)",
    .claims = claims_man_fig3,
    .curves = {{"LLL", "man2020:alg=LLL", 0.1, NULL, 0},
               {"LGL", "man2020:alg=LGL", 0.1, NULL, 0},
               {"LLG", "man2020:alg=LLG", 0.1, NULL, 0},
               {"LGG", "man2020:alg=LGG", 0.1, NULL, 0}},
    .precision = "double, except that a run whose double error e is below 1e-11 is "
                 "rerun in quad (column quad = 1): over 4000 steps double round-off "
                 "alone gives e of about 4e-13",
    .relative = 1,
    .msweep = {.key = "m", .lo = 2, .hi = 6, .hi_quick = 5}};

const vi_fig_spec vi_man2020_fig8 = {
    .id = "man2020-fig8",
    .kind = VI_FIG_TRACE,
    .system = "six-balls",
    .measure = "energy",
    .T = 400,
    .T_quick = 100,
    /* man2020 §4 computes with dimensionless quantities. */
    .ylabel = "relative energy error (H - H_0) / |H_0|",
    .tlabel = "time t (dimensionless)",
    .why = "six balls (57)-(59) with the paper's parameters (unit masses, spring "
           "stiffness 1, springs and bars of length 1, (59) at rest), 0..400 s as in "
           "the paper, the relative energy error (46); the paper does not give the step "
           "of Fig. 8: h = 1 (the step of Fig. 9), where every error, from about 1e-1 "
           "(m = 2) to 1e-7 (m = 6), stays far above double round-off; at h = 0.1 the "
           "errors for m >= 5 are about 1e-13, where the round-off of 4000 double steps "
           "(about 1e-12) would hide the bounded behaviour, and quad would take minutes",
    .claims = claims_man_fig8,
    .curves = {{"LLL, m=2", "man2020:alg=LLL,m=2", 1, NULL, 0},
               {"LGG, m=2", "man2020:alg=LGG,m=2", 1, NULL, 0},
               {"LLL, m=3", "man2020:alg=LLL,m=3", 1, NULL, 1},
               {"LGG, m=3", "man2020:alg=LGG,m=3", 1, NULL, 1},
               {"LLL, m=4", "man2020:alg=LLL,m=4", 1, NULL, 2},
               {"LGG, m=4", "man2020:alg=LGG,m=4", 1, NULL, 2},
               {"LLL, m=5", "man2020:alg=LLL,m=5", 1, NULL, 3},
               {"LGG, m=5", "man2020:alg=LGG,m=5", 1, NULL, 3},
               {"LLL, m=6", "man2020:alg=LLL,m=6", 1, NULL, 4},
               {"LGG, m=6", "man2020:alg=LGG,m=6", 1, NULL, 4}},
    .relative = 1,
    .trace = {.tenths = 1},
    .panels = {"(a) m = 2", "(b) m = 3", "(c) m = 4", "(d) m = 5", "(e) m = 6"}};

const vi_fig_spec vi_man2020_fig9 = {
    .id = "man2020-fig9",
    .kind = VI_FIG_TRACE,
    .system = "six-balls",
    .measure = "Jz",
    .T = 400,
    .T_quick = 40,
    .ylabel = "angular momentum error I(t) - I(0), (60)",
    .tlabel = "time t (dimensionless)",
    .why = "six balls (57)-(59) with the paper's parameters, LGG with eta = h = 1 and "
           "m = 2 as in the paper, 0..400 s (the span of Figs. 8 and 11); I(0) = 0 "
           "since (59) starts at rest",
    .claims = claims_man_fig9,
    .curves = {{"LGG, m=2, h=1", "man2020:alg=LGG,m=2", 1, NULL, 0}},
    .precision = "double; the claim reruns the same steps in quad over the whole run",
    .trace = {.quad_T = 400, .quad_T_quick = 40}};

const vi_fig_spec vi_man2020_fig11 = {
    .id = "man2020-fig11",
    .kind = VI_FIG_TRACE,
    .system = "six-balls",
    .T = 400,
    .T_quick = 10,
    .ylabel = "antisymmetry quantity (61)",
    .tlabel = "time t (dimensionless)",
    .why = "six balls (57)-(59) with the paper's parameters, LGG over 0..400 s as in "
           "the paper; m = 2 and eta = h = 0.1 are those of Fig. 10 (the paper does not "
           "repeat them for Fig. 11); C1 and C2 are x1 + x6 and y1 + y6 at q(0) (5/2 "
           "and sqrt3/2 for (59)), so both quantities start at 0 up to the rounding of "
           "q(0)",
    .claims = claims_man_fig11,
    .curves = {{"x1 + x6 - C1", "man2020:alg=LGG,m=2", 0.1, "antisym_x", 0},
               {"y1 + y6 - C2", "man2020:alg=LGG,m=2", 0.1, "antisym_y", 0}},
    .precision = "double; the claims rerun the same steps in quad over the first "
                 "40 s (quick: 10 s)",
    /* (61) is no Noether quantity (a first integral of point-symmetric data
     * only), so its measure is followed as a value by default; the claim is
     * about its deviation from the initial value. */
    .trace = {.quad_T = 40, .quad_T_quick = 10, .follow = VI_TRACE_CHANGE}};
