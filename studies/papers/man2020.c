/* man2020_tmpl.c: the table studies of man2020 Tables 1 and 3 as data (study.h) (Man, Gao, Zhong
 * 2020): the convergence order of the relative Hamiltonian error (46)-(49),
 * fitted from its root mean square over the nodes (the maximum (47) beside
 * it; README "Orders"), of the eight algorithms ELL..LGG for m = 2..9 points on
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
#include "figure.h"
#include "published.h"
#include "report.h"
#include "study.h"
#include "vistudy.h"

#include <errno.h>
#include <math.h>
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
  char measured[16]; /* "6.01", "d", "plateau", "unresolved", "-" */
  char measured_max[16]; /* the same for the maximum (46)-(47) */
  double order;      /* NaN unless fitted */
  double residual, hmin, hmax, emin, emax;
  int npoints;
  int match;
  double seconds;
  int done;
} man_cell;

/* Rows of the published CSV whose source_table is `table` (read by column
 * name, studies/published.h; an unknown rule name is an error with the
 * line). Table 1's rows name the construction, not an algorithm: it is
 * EGG. */
static int read_cells(const vi_table_spec *spec, const char *path, void **out_, int *n,
                      char *err, size_t errlen) {
  man_cell **out = (man_cell **)out_;
  const char *table = spec->subset;
  static const char *const names[] = {"control_points", "quad_unconstrained",
                                      "quad_constrained", "m", "order_energy", "source_table"};
  vi_table t;
  int col[6];
  if (vi_table_read(path, &t, err, errlen) != 0) {
    return -1;
  }
  for (int i = 0; i < 6; i++) {
    if ((col[i] = vi_table_col(&t, names[i], path, err, errlen)) < 0) {
      vi_table_free(&t);
      return -1;
    }
  }
  man_cell *c = calloc((size_t)(t.nrows > 0 ? t.nrows : 1), sizeof *c);
  int k = 0, rc = c ? 0 : -1;
  if (!c) {
    snprintf(err, errlen, "out of memory");
  }
  for (int r = 0; rc == 0 && r < t.nrows; r++) {
    if (strcmp(vi_table_at(&t, r, col[5]), table) != 0) {
      continue;
    }
    const char *ctrl = vi_table_at(&t, r, col[0]), *qu = vi_table_at(&t, r, col[1]),
               *qc = vi_table_at(&t, r, col[2]);
    int okc = strcmp(ctrl, "equidistant") == 0 || strcmp(ctrl, "lobatto") == 0;
    int oku = strcmp(qu, "gauss") == 0 || strcmp(qu, "lobatto") == 0;
    int okq = strcmp(qc, "gauss") == 0 || strcmp(qc, "lobatto") == 0;
    if (!okc || !oku || !okq) {
      snprintf(err, errlen, "%s:%d: control_points, quad_unconstrained, quad_constrained must "
               "be equidistant|lobatto, gauss|lobatto, gauss|lobatto: '%.20s', '%.20s', '%.20s'",
               path, r + 2, ctrl, qu, qc);
      rc = -1;
      break;
    }
    snprintf(c[k].alg, sizeof c[k].alg, "%c%c%c", ctrl[0] == 'e' ? 'E' : 'L',
             qu[0] == 'g' ? 'G' : 'L', qc[0] == 'g' ? 'G' : 'L');
    rc = vi_table_int(&t, r, col[3], path, &c[k].m, err, errlen);
    if (rc == 0) {
      rc = vi_table_int(&t, r, col[4], path, &c[k].published, err, errlen);
    }
    c[k].order = NAN;
    snprintf(c[k].measured, sizeof c[k].measured, "-");
    snprintf(c[k].measured_max, sizeof c[k].measured_max, "-");
    k++;
  }
  vi_table_free(&t);
  if (rc != 0) {
    free(c);
    return -1;
  }
  *out = c;
  *n = k;
  return 0;
}

/* The match rule (issue 4): the fitted order rounded to the nearest even
 * integer equals the published one; recomputed on every run, never stored. */
static void judge(man_cell *c) {
  c->match = isfinite(c->order) && 2 * (int)lround(c->order / 2) == c->published;
}

static int run_cell(void *c_, const reproduce_opts *o, char *err, size_t errlen) {
  man_cell *c = c_;
  char method[64];
  snprintf(method, sizeof method, "man2020:alg=%s,m=%d", c->alg, c->m);
  vi_order_config a = {0};
  a.system = MAN_SYSTEM;
  a.method = method;
  a.T = MAN_T;
  a.solver.kind = VI_SOLVER_NEWTON;
  a.cache_dir = o->cache_dir;
  a.clock = vi_cpu_clock;
  a.measure = VI_MEASURE_ENERGY;
  a.energy_only = 1;
  vi_order_result *r = calloc(1, sizeof *r);
  if (!r) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  if (vi_order_study_q(&a, r, err, errlen) != VI_OK) {
    free(r);
    return -1;
  }
  /* The order of the energy error from its mean square over the nodes
   * (README "Orders": the maximum jitters with the phase of the nodes);
   * the maximum's fit is kept beside it. */
  vi_fit f = vi_order_energy_rms_fit(r), fm = vi_order_energy_fit(r);
  vi_fit_label(&f, c->measured, sizeof c->measured);
  vi_fit_label(&fm, c->measured_max, sizeof c->measured_max);
  c->order = f.verdict == VI_VERDICT_OK ? f.order : NAN;
  c->residual = f.verdict == VI_VERDICT_OK ? f.residual : NAN;
  c->hmax = f.verdict == VI_VERDICT_OK ? r->h[f.lo] : NAN;
  c->hmin = f.verdict == VI_VERDICT_OK ? r->h[f.hi] : NAN;
  c->emax = f.verdict == VI_VERDICT_OK ? r->energy_rms[f.lo] : NAN;
  c->emin = f.verdict == VI_VERDICT_OK ? r->energy_rms[f.hi] : NAN;
  c->npoints = f.verdict == VI_VERDICT_OK ? f.hi - f.lo + 1 : 0;
  c->seconds = 0;
  for (int i = 0; i < r->nh; i++) {
    c->seconds += r->seconds[i];
  }
  judge(c);
  c->done = 1;
  free(r);
  return 0;
}

static json_t *num(double v) {
  return isfinite(v) ? json_real(v) : json_null();
}

static json_t *cells_json(const vi_study *st, const void *c_, int n, int *matched, int *total) {
  const char *id = st->id;
  const man_cell *c = c_;
  json_t *j = json_object(), *arr = json_array();
  *matched = *total = 0;
  json_object_set_new(j, "id", json_string(id));
  json_object_set_new(j, "system", json_string(MAN_SYSTEM));
  json_object_set_new(j, "params", json_string("defaults of vistudy list systems "
                                               "(man2020 (50)-(52): m1 = m2 = l = g = 1)"));
  json_object_set_new(j, "T", json_real(MAN_T));
  json_object_set_new(j, "measure", json_string("energy: max_k |H_k - H_0| / |H_0|, man2020 "
                                                "(46)-(47)"));
  json_object_set_new(j, "precision", json_string("quad"));
  for (int k = 0; k < n; k++) {
    if (!c[k].done) {
      continue;
    }
    json_t *x = json_object();
    char method[64];
    snprintf(method, sizeof method, "man2020:alg=%s,m=%d", c[k].alg, c[k].m);
    json_object_set_new(x, "algorithm", json_string(c[k].alg));
    json_object_set_new(x, "m", json_integer(c[k].m));
    json_object_set_new(x, "method", json_string(method));
    json_object_set_new(x, "quantity", json_string("energy"));
    json_object_set_new(x, "precision", json_string("quad"));
    json_object_set_new(x, "published", json_integer(c[k].published));
    json_object_set_new(x, "measured", isfinite(c[k].order) ? json_real(c[k].order)
                                                            : json_string(c[k].measured));
    json_object_set_new(x, "measured_max", json_string(c[k].measured_max));
    json_object_set_new(x, "match", json_boolean(c[k].match));
    json_object_set_new(x, "fit_h", json_pack("[o, o]", num(c[k].hmax), num(c[k].hmin)));
    json_object_set_new(x, "fit_err", json_pack("[o, o]", num(c[k].emax), num(c[k].emin)));
    json_object_set_new(x, "fit_points", json_integer(c[k].npoints));
    json_object_set_new(x, "fit_residual", num(c[k].residual));
    json_object_set_new(x, "seconds", json_real(c[k].seconds));
    json_array_append_new(arr, x);
    *matched += c[k].match;
    (*total)++;
  }
  json_object_set_new(j, "cells", arr);
  json_object_set_new(j, "matched", json_integer(*matched));
  json_object_set_new(j, "total", json_integer(*total));
  return j;
}

/* The measurement of a finished cell as the cell store keeps it. */
static json_t *cell_measurement(const void *c_) {
  const man_cell *c = c_;
  return json_pack("{s:o, s:s, s:[o, o], s:[o, o], s:i, s:f}", "energy",
                   vi_cells_fit_json(c->order, c->measured, c->residual), "energy_max",
                   c->measured_max, "fit_h", num(c->hmax), num(c->hmin), "fit_err",
                   num(c->emax), num(c->emin), "fit_points", c->npoints, "seconds", c->seconds);
}

static double num_or_nan(json_t *v) {
  return json_is_number(v) ? json_number_value(v) : NAN;
}

/* Restore a cell from the store; -1 with the reason in why when the stored
 * value is not a valid measurement. */
static int cell_restore(void *c_, json_t *v, char *why, size_t whylen) {
  man_cell *c = c_;
  json_t *fit, *h0, *h1, *e0, *e1;
  const char *mx = NULL;
  json_error_t je;
  if (json_unpack_ex(v, &je, JSON_STRICT, "{s:o, s:s, s:[oo], s:[oo], s:i, s:F}", "energy",
                     &fit, "energy_max", &mx, "fit_h", &h0, &h1, "fit_err", &e0, &e1,
                     "fit_points", &c->npoints, "seconds", &c->seconds) != 0) {
    snprintf(why, whylen, "%s", je.text);
    return -1;
  }
  if (strlen(mx) >= sizeof c->measured_max) {
    snprintf(why, whylen, "energy_max label too long");
    return -1;
  }
  snprintf(c->measured_max, sizeof c->measured_max, "%s", mx);
  if (vi_cells_fit_read(fit, &c->order, c->measured, sizeof c->measured, &c->residual, why,
                        whylen) != 0) {
    return -1;
  }
  c->hmax = num_or_nan(h0);
  c->hmin = num_or_nan(h1);
  c->emax = num_or_nan(e0);
  c->emin = num_or_nan(e1);
  judge(c);
  c->done = 1;
  return 0;
}

/* Markdown: the paper's layout (one row per algorithm, one column per m),
 * each entry "measured (published)", a mismatch in bold; then the fits. */
static char *cells_md(const vi_study *st, const void *c_, int n, int matched, int total) {
  const man_cell *c = c_;
  size_t cap = 1 << 16, len = 0;
  char *t = malloc(cap);
  if (!t) {
    return NULL;
  }
#define MD(...) len += (size_t)snprintf(t + len, len < cap ? cap - len : 0, __VA_ARGS__)
  MD("# %s\n\n%s\n\nSystem `%s` (man2020 (50)-(52), default parameters), T = %s (the paper: "
     "400 s), quad precision, built-in Newton (rtol = 100 eps); measure: the relative "
     "Hamiltonian error |H_k - H_0| / |H_0| (46), its order fitted from its root mean "
     "square over the nodes (README \"Orders\": the maximum (47) the paper fits jitters "
     "with the phase of the nodes; its own fit is in the column `max`); no reference "
     "needed; step sizes chosen automatically (`vistudy order --measure energy --precision "
     "quad`); order: an ok verdict over the four finest settled errors. Each entry: "
     "measured (published); a mismatch in **bold**. Matched %d/%d.\n\n",
     st->id, ((const vi_table_spec *)st->spec)->caption, MAN_SYSTEM, MAN_T_TEXT, matched,
     total);
  MD("| algorithm |");
  int ms[16], nm = 0;
  for (int k = 0; k < n; k++) {
    int seen = 0;
    for (int i = 0; i < nm; i++) {
      seen |= ms[i] == c[k].m;
    }
    if (!seen && nm < 16) {
      ms[nm++] = c[k].m;
    }
  }
  for (int i = 0; i < nm; i++) {
    MD(" m = %d |", ms[i]);
  }
  MD("\n|---|");
  for (int i = 0; i < nm; i++) {
    MD("---|");
  }
  MD("\n");
  for (int k = 0; k < n; k++) {
    if (k > 0 && strcmp(c[k].alg, c[k - 1].alg) == 0) {
      continue;
    }
    MD("| %s |", c[k].alg);
    for (int i = 0; i < nm; i++) {
      const man_cell *x = NULL;
      for (int q = 0; q < n; q++) {
        if (strcmp(c[q].alg, c[k].alg) == 0 && c[q].m == ms[i]) {
          x = &c[q];
        }
      }
      if (!x || !x->done) {
        MD(" - |");
      } else if (x->match) {
        MD(" %s (%d) |", x->measured, x->published);
      } else {
        MD(" **%s (%d)** |", x->measured, x->published);
      }
    }
    MD("\n");
  }
  MD("\n## Fits\n\n| algorithm | m | order | max | h range | energy errors (rms) | points | "
     "rms residual (log10) | run time [s] |\n|---|---|---|---|---|---|---|---|---|\n");
  for (int k = 0; k < n; k++) {
    if (c[k].done) {
      MD("| %s | %d | %s | %s | %.4g .. %.4g | %.2e .. %.2e | %d | %.3f | %.1f |\n", c[k].alg,
         c[k].m, c[k].measured, c[k].measured_max, c[k].hmax, c[k].hmin, c[k].emax, c[k].emin,
         c[k].npoints, c[k].residual, c[k].seconds);
    }
  }
  MD("\n## Mismatches\n\n");
  int any = 0;
  for (int k = 0; k < n; k++) {
    if (c[k].done && !c[k].match) {
      MD("- %s m = %d: measured %s, published %d\n", c[k].alg, c[k].m, c[k].measured,
         c[k].published);
      any = 1;
    }
  }
  if (!any) {
    MD("None.\n");
  }
#undef MD
  return t;
}

static char *cells_csv(const void *c_, int n) {
  const man_cell *c = c_;
  size_t cap = 1 << 14, len = 0;
  char *t = malloc(cap);
  if (!t) {
    return NULL;
  }
  len += (size_t)snprintf(t, cap,
                          "algorithm,m,quantity,precision,published,measured,match,h_max,h_min,"
                          "fit_points,fit_residual\n");
  for (int k = 0; k < n && len < cap; k++) {
    if (c[k].done) {
      len += (size_t)snprintf(t + len, cap - len, "%s,%d,energy,quad,%d,%s,%d,%.6g,%.6g,%d,%.4f\n",
                              c[k].alg, c[k].m, c[k].published, c[k].measured, c[k].match,
                              c[k].hmax, c[k].hmin, c[k].npoints, c[k].residual);
    }
  }
  return t;
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

static int cells_mismatches(const void *c_, int n, FILE *f) {
  const man_cell *c = c_;
  int mism = 0;
  for (int k = 0; k < n; k++) {
    if (c[k].done && !c[k].match) {
      fprintf(f, "  mismatch: %s m=%d energy: measured %s, published %d\n", c[k].alg, c[k].m,
              c[k].measured, c[k].published);
      mism++;
    }
  }
  return mism;
}

/* What determines the cells besides the code (cells.h). */
#define MAN_CONFIG                                                                       \
  MAN_SYSTEM " defaults; T = " MAN_T_TEXT "; quad; --measure energy, --h auto; energy error " \
             "rms_k |H_k - H_0| / |H_0| (the maximum beside it)"

#define MAN_TABLE_SPEC(caption_, subset_)                                                   \
  {                                                                                       \
    .config = MAN_CONFIG, .caption = caption_, .subset = subset_,                         \
    .cell_size = sizeof(man_cell), .verdicts_per_cell = 1, .read = read_cells,            \
    .key = cell_key, .label = cell_label, .done = cell_done, .measure = run_cell,         \
    .stored = cell_measurement, .restore = cell_restore, .json = cells_json,               \
    .md = cells_md, .csv = cells_csv, .mismatches = cells_mismatches                      \
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
    double ratio = s->extra[3] / (s->extra[2] > 0 ? s->extra[2] : 1e-300);
    snprintf(cl[i].text, sizeof cl[i].text,
             "%.90s: the energy error has definite upper and lower bounds and does not grow "
             "over the run",
             s->label);
    snprintf(cl[i].measured, sizeof cl[i].measured,
             "max |e_H| = %.3e; over the last tenth / over the first tenth = %.3f (bounded: "
             "<= 2)",
             s->extra[1], ratio);
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
  const double Tq = quick ? f->quad_T_quick : f->quad_T;
  snprintf(cl[0].measured, sizeof cl[0].measured,
           "max |I - I0| in double over %g s: %.2e (bound %.0e); over the first %g s: %.2e "
           "in double, %.2e in quad (bound %.0e): the error follows the precision",
           quick ? f->T_quick : f->T, s->extra[1], MAN_JZ_DOUBLE, Tq, trace_max_until(s, Tq),
           s->extra[4], MAN_QUAD_BOUND);
  cl[0].holds = s->extra[1] < MAN_JZ_DOUBLE && s->extra[4] < MAN_QUAD_BOUND;
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
    const double Tq = quick ? f->quad_T_quick : f->quad_T;
    snprintf(cl[i].measured, sizeof cl[i].measured,
             "max deviation from the initial value in double over %g s: %.2e (bound %.0e); "
             "over the first %g s: %.2e in double, %.2e in quad (bound %.0e)",
             quick ? f->T_quick : f->T, s->extra[1], MAN_ANTISYM_DOUBLE, Tq,
             trace_max_until(s, Tq), s->extra[4], MAN_QUAD_BOUND);
    cl[i].holds = s->extra[1] < MAN_ANTISYM_DOUBLE && s->extra[4] < MAN_QUAD_BOUND;
  }
  return ns;
}

const vi_fig_spec vi_man2020_fig3 = {.id = "man2020-fig3",
 .kind = VI_FIG_MSWEEP,
 .system = "spring-pendulum",
 .quantity = "energy",
 .T = 400,
 .T_quick = 20,
 .ylabel = "global error of the Hamiltonian e = max |H_k - H_0| / |H_0|",
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
 .m_lo = 2,
 .m_hi = 6,
 .m_hi_quick = 5};

const vi_fig_spec vi_man2020_fig8 = {.id = "man2020-fig8",
 .kind = VI_FIG_TRACE,
 .system = "six-balls",
 .quantity = "energy",
 .T = 400,
 .T_quick = 100,
 .ylabel = "(H - H0) / |H0|",
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
 .tenths = 1,
 .panels = {"(a) m = 2", "(b) m = 3", "(c) m = 4", "(d) m = 5", "(e) m = 6"}};

const vi_fig_spec vi_man2020_fig9 = {.id = "man2020-fig9",
 .kind = VI_FIG_TRACE,
 .system = "six-balls",
 .quantity = "Jz",
 .T = 400,
 .T_quick = 40,
 .ylabel = "I(t) - I(0), angular momentum (60)",
 .why = "six balls (57)-(59) with the paper's parameters, LGG with eta = h = 1 and "
        "m = 2 as in the paper, 0..400 s (the span of Figs. 8 and 11); I(0) = 0 "
        "since (59) starts at rest",
 .claims = claims_man_fig9,
 .curves = {{"LGG, m=2, h=1", "man2020:alg=LGG,m=2", 1, NULL, 0}},
 .precision = "double; the claim reruns the same steps in quad over the whole run",
 .quad_T = 400,
 .quad_T_quick = 40};

const vi_fig_spec vi_man2020_fig11 = {.id = "man2020-fig11",
 .kind = VI_FIG_TRACE,
 .system = "six-balls",
 .T = 400,
 .T_quick = 10,
 .ylabel = "value of (61)",
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
 .quad_T = 40,
 .quad_T_quick = 10};
