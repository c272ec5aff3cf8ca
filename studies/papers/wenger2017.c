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
#include "figure.h"
#include "published.h"
#include "report.h"
#include "study.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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


/* The rows of a published wenger2017 table (studies/published.h: by
 * column name; a missing column, short row, bad number or over-long text
 * is an error with the line). */
static int read_table(const vi_table_spec *spec, const char *path, void **out_, int *n,
                      char *err, size_t errlen) {
  (void)spec;
  cell **out = (cell **)out_;
  static const char *const names[] = {"s",     "quadL", "r",       "ordL",    "w",
                                      "quadZ", "z",     "ordZ",    "order_q", "order_p",
                                      "order_lambda", "basis"};
  enum { NC = 12 };
  vi_table t;
  int col[NC];
  if (vi_table_read(path, &t, err, errlen) != 0) {
    return -1;
  }
  for (int i = 0; i < NC; i++) {
    if ((col[i] = vi_table_col(&t, names[i], path, err, errlen)) < 0) {
      vi_table_free(&t);
      return -1;
    }
  }
  cell *c = calloc((size_t)(t.nrows > 0 ? t.nrows : 1), sizeof *c);
  int rc = c ? 0 : -1;
  if (!c) {
    snprintf(err, errlen, "out of memory");
  }
  for (int k = 0; rc == 0 && k < t.nrows; k++) {
    cell *x = &c[k];
    int *ints[6] = {&x->s, &x->r, &x->ordL, &x->w, &x->z, &x->ordZ};
    const int icol[6] = {col[0], col[2], col[3], col[4], col[6], col[7]};
    for (int i = 0; rc == 0 && i < 6; i++) {
      rc = vi_table_int(&t, k, icol[i], path, ints[i], err, errlen);
    }
    char *strs[6] = {x->quadL, x->quadZ, x->pub[0], x->pub[1], x->pub[2], x->basis};
    const size_t lens[6] = {sizeof x->quadL, sizeof x->quadZ, sizeof x->pub[0],
                            sizeof x->pub[1], sizeof x->pub[2], sizeof x->basis};
    const int scol[6] = {col[1], col[5], col[8], col[9], col[10], col[11]};
    for (int i = 0; rc == 0 && i < 6; i++) {
      const char *v = vi_table_at(&t, k, scol[i]);
      if (strlen(v) >= lens[i]) {
        static const char *const sname[6] = {"quadL",   "quadZ",        "order_q",
                                             "order_p", "order_lambda", "basis"};
        snprintf(err, errlen, "%s:%d: column %s: '%.40s' is too long", path, k + 2, sname[i],
                 v);
        rc = -1;
      } else {
        snprintf(strs[i], lens[i], "%s", v);
      }
    }
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

/* Rounded to the nearest even integer, as the match rule asks. */
static int nearest_even(double x) {
  return 2 * (int)lround(x / 2);
}

static void judge(cell *c) {
  for (int x = 0; x < VI_NQUANT; x++) {
    if (strcmp(c->pub[x], "d") == 0) {
      c->match[x] = strcmp(c->meas[x], "d") == 0;
    } else if (isfinite(c->order[x])) {
      c->match[x] = nearest_even(c->order[x]) == atoi(c->pub[x]);
    } else {
      c->match[x] = 0;
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
  vi_order_config a = {0};
  a.system = "planar-pendulum";
  a.T = 1;
  a.solver.kind = VI_SOLVER_NEWTON;
  a.cache_dir = o->cache_dir;
  a.clock = vi_cpu_clock;
  char spec[256], pspec[300];
  cell_spec(c, spec, sizeof spec);
  snprintf(pspec, sizeof pspec, "%s,project=p,lambda=recompute", spec);
  int quad = wants_quad(c);
  snprintf(c->precision, sizeof c->precision, "%s", quad ? "quad" : "double");
  vi_order_result *res = calloc(1, sizeof *res);
  if (!res) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  for (int pass = 0; pass < 2; pass++) {
    a.method = pass ? pspec : spec;
    if (vi_api_of(quad ? VI_QUAD : VI_DOUBLE)->order(&a, res, err, errlen) != VI_OK) {
      free(res);
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
  }
  free(res);
  judge(c);
  c->done = 1;
  return 0;
}

static json_t *cell_rows_json(const cell *c) {
  static const char *const qn[VI_NQUANT] = {"q", "p", "lambda"};
  json_t *arr = json_array();
  for (int x = 0; x < VI_NQUANT; x++) {
    json_t *j = json_object();
    json_object_set_new(j, "s", json_integer(c->s));
    json_object_set_new(j, "w", json_integer(c->w));
    json_object_set_new(j, "quadL", json_string(c->quadL));
    json_object_set_new(j, "r", json_integer(c->r));
    json_object_set_new(j, "ordL", json_integer(c->ordL));
    json_object_set_new(j, "quadZ", json_string(c->quadZ));
    json_object_set_new(j, "ordZ", json_integer(c->ordZ));
    json_object_set_new(j, "quantity", json_string(qn[x]));
    json_object_set_new(j, "published",
                        strcmp(c->pub[x], "d") == 0 ? json_string("d")
                                                    : json_integer(atoi(c->pub[x])));
    json_object_set_new(j, "measured",
                        isfinite(c->order[x]) ? json_real(c->order[x]) : json_string(c->meas[x]));
    json_object_set_new(j, "measured_label", json_string(c->meas[x]));
    json_object_set_new(j, "match", json_boolean(c->match[x]));
    json_object_set_new(j, "basis", json_string(c->basis));
    json_object_set_new(j, "precision", json_string(c->precision));
    json_object_set_new(j, "method", json_string(c->method));
    json_object_set_new(j, "fit_residual",
                        isfinite(c->residual[x]) ? json_real(c->residual[x]) : json_null());
    json_object_set_new(j, "projected", json_string(c->proj[x]));
    json_array_append_new(arr, j);
  }
  return arr;
}

/* The measurement of a finished cell as the cell store keeps it: no
 * verdicts, which are recomputed from the published table on every run. */
static json_t *cell_measurement(const void *c_) {
  const cell *c = c_;
  static const char *const qn[VI_NQUANT] = {"q", "p", "lambda"};
  json_t *j = json_pack("{s:s, s:s, s:[f, f]}", "method", c->method, "precision", c->precision,
                        "h", c->hmax, c->hmin);
  json_t *proj = json_object();
  for (int x = 0; j && x < VI_NQUANT; x++) {
    json_object_set_new(j, qn[x], vi_cells_fit_json(c->order[x], c->meas[x], c->residual[x]));
    json_object_set_new(proj, qn[x], json_string(c->proj[x]));
  }
  json_object_set_new(j, "projected", proj);
  return j;
}

/* Restore a cell from the store; -1 with the reason in why when the stored
 * value is not a valid measurement of this cell. */
static int cell_restore(void *c_, json_t *v, char *why, size_t whylen) {
  cell *c = c_;
  const char *method = NULL, *prec = NULL, *pq = NULL, *pp = NULL, *pl = NULL;
  json_t *f[VI_NQUANT];
  json_error_t je;
  if (json_unpack_ex(v, &je, JSON_STRICT, "{s:s, s:s, s:[FF], s:o, s:o, s:o, s:{s:s, s:s, s:s}}",
                     "method", &method, "precision", &prec, "h", &c->hmax, &c->hmin, "q", &f[0],
                     "p", &f[1], "lambda", &f[2], "projected", "q", &pq, "p", &pp, "lambda",
                     &pl) != 0) {
    snprintf(why, whylen, "%s", je.text);
    return -1;
  }
  if (strcmp(prec, wants_quad(c) ? "quad" : "double") != 0 ||
      strncmp(method, "galerkin:", 9) != 0 || strlen(method) >= sizeof c->method) {
    snprintf(why, whylen, "precision '%.8s' or method '%.40s' does not belong to this cell", prec,
             method);
    return -1;
  }
  const char *proj[VI_NQUANT] = {pq, pp, pl};
  for (int x = 0; x < VI_NQUANT; x++) {
    if (vi_cells_fit_read(f[x], &c->order[x], c->meas[x], sizeof c->meas[x], &c->residual[x],
                          why, whylen) != 0) {
      return -1;
    }
    if (strlen(proj[x]) >= sizeof c->proj[x]) {
      snprintf(why, whylen, "projected label too long");
      return -1;
    }
    snprintf(c->proj[x], sizeof c->proj[x], "%s", proj[x]);
  }
  snprintf(c->precision, sizeof c->precision, "%s", prec);
  snprintf(c->method, sizeof c->method, "%s", method);
  judge(c);
  c->done = 1;
  return 0;
}

/* The caption of the results: the study's title. */
static const char *table_caption(const vi_study *t) {
  const vi_table_spec *spec = t->spec;
  return spec->caption ? spec->caption : t->title;
}

static json_t *table_json(const vi_study *t, const void *cells_, int n, int *matched,
                          int *total) {
  const cell *cells = cells_;
  json_t *j = json_object();
  json_object_set_new(j, "id", json_string(t->id));
  json_object_set_new(j, "title", json_string(table_caption(t)));
  json_object_set_new(j, "system", json_string("planar-pendulum"));
  json_t *params = json_object();
  json_object_set_new(params, "m", json_real(1));
  json_object_set_new(params, "l", json_real(1));
  json_object_set_new(params, "gravity", json_real(9.81));
  json_object_set_new(params, "phi0", json_real(0.9));
  json_object_set_new(params, "omega0", json_real(0));
  json_object_set_new(params, "T", json_real(1));
  json_object_set_new(j, "params", params);
  json_object_set_new(j, "choices",
                      json_string("planar pendulum (default parameters; the paper does not "
                                  "name the system of its tables): the only system of §4 with "
                                  "an exact solution. T = 1, h = 1/N chosen automatically "
                                  "(vistudy order --h auto, README \"Orders\"); quad "
                                  "precision where min(ordL, ordZ, 2s) >= 8. lambda is measured "
                                  "over the nodes k >= 1 (the paper's e_g takes k = 0..N; its "
                                  "start value lambda_0 is one-sided, and on this pendulum, "
                                  "released at rest, both give the same orders). An order is "
                                  "printed only for an ok verdict, else 'unresolved', 'd' or "
                                  "'plateau'."));
  json_t *arr = json_array();
  json_t *bases = json_object();
  *matched = *total = 0;
  for (int k = 0; k < n; k++) {
    if (!cells[k].done) {
      continue;
    }
    json_t *rows = cell_rows_json(&cells[k]);
    json_array_extend(arr, rows); /* copies the references: release ours */
    json_decref(rows);
    for (int x = 0; x < VI_NQUANT; x++) {
      (*total)++;
      *matched += cells[k].match[x];
      json_t *b = json_object_get(bases, cells[k].basis);
      if (!b) {
        b = json_object();
        json_object_set_new(b, "matched", json_integer(0));
        json_object_set_new(b, "total", json_integer(0));
        json_object_set_new(bases, cells[k].basis, b);
      }
      json_object_set_new(b, "total",
                          json_integer(json_integer_value(json_object_get(b, "total")) + 1));
      json_object_set_new(b, "matched",
                          json_integer(json_integer_value(json_object_get(b, "matched")) +
                                       cells[k].match[x]));
    }
  }
  json_object_set_new(j, "cells", arr);
  json_object_set_new(j, "matched", json_integer(*matched));
  json_object_set_new(j, "total", json_integer(*total));
  json_object_set_new(j, "by_basis", bases);
  return j;
}

/* Markdown in the paper's layout: one block per w, rows q, p, lambda,
 * columns (s, ordL); each entry "measured (published)", mismatches bold. */
static char *table_md(const vi_study *t, const void *cells_, int n, int matched, int total) {
  const cell *cells = cells_;
  /* A growing buffer: the text has no size limit (a fixed 1 MiB buffer
   * overflowed on a large published table). */
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f) {
    return NULL;
  }
#define OUT(...) fprintf(f, __VA_ARGS__)
  OUT("# %s\n\n%s\n\n", t->id, table_caption(t));
  OUT("System: planar pendulum (m = 1, l = 1, gravity = 9.81, phi0 = 0.9, omega0 = 0), "
      "T = 1, exact reference; orders are least-squares slopes over the asymptotic range "
      "of h = 1/N chosen automatically, each with an ok verdict (README \"Orders\"; see "
      "the JSON for each fit). lambda is measured over the nodes k >= 1: the paper's error "
      "takes k = 0..N, but the start value lambda_0 is one-sided, of lower order for odd s "
      "when the system starts moving; this pendulum is released at rest, where both give "
      "the same orders. The paper does not say which system or interval produced its "
      "tables.\n\n");
  OUT("Matched **%d/%d** cells (rule: measured order rounded to the nearest even integer "
      "equals the published one, or both 'd').\n\n",
      matched, total);
  OUT("Each entry: measured (published); **bold** marks a mismatch. Column `proj p / "
      "lambda`: the orders with `project=p,lambda=recompute` (§4.1 claim: both reach q's "
      "order).\n\n");
  int ws[16], nw = 0;
  for (int k = 0; k < n; k++) {
    int seen = 0;
    for (int i = 0; i < nw; i++) {
      seen |= ws[i] == cells[k].w;
    }
    if (!seen && nw < 16) {
      ws[nw++] = cells[k].w;
    }
  }
  static const char *const qn[VI_NQUANT] = {"q", "p", "lambda"};
  for (int wi = 0; wi < nw; wi++) {
    int w = ws[wi];
    OUT("## w = %d, ordZ = %d (Lobatto, z = %d)\n\n| |", w, 2 * w, w + 1);
    for (int k = 0; k < n; k++) {
      if (cells[k].w == w) {
        OUT(" s=%d ordL=%d |", cells[k].s, cells[k].ordL);
      }
    }
    OUT("\n|---|");
    for (int k = 0; k < n; k++) {
      if (cells[k].w == w) {
        OUT("---|");
      }
    }
    OUT("\n");
    for (int x = 0; x < VI_NQUANT + 1; x++) {
      OUT("| %s |", x < VI_NQUANT ? qn[x] : "proj p / lambda");
      for (int k = 0; k < n; k++) {
        const cell *c = &cells[k];
        if (c->w != w) {
          continue;
        }
        if (!c->done) {
          OUT(" (not run) |");
        } else if (x == VI_NQUANT) {
          OUT(" %s / %s |", c->proj[VI_P], c->proj[VI_LAMBDA]);
        } else if (c->match[x]) {
          OUT(" %s (%s) |", c->meas[x], c->pub[x]);
        } else {
          OUT(" **%s (%s)** |", c->meas[x], c->pub[x]);
        }
      }
      OUT("\n");
    }
    OUT("\n");
  }
  OUT("## Mismatches\n\n");
  int any = 0;
  for (int k = 0; k < n; k++) {
    for (int x = 0; x < VI_NQUANT; x++) {
      const cell *c = &cells[k];
      if (c->done && !c->match[x]) {
        OUT("- s=%d w=%d %s r=%d (ordL %d): %s measured %s, published %s (basis: %s, %s)\n",
            c->s, c->w, c->quadL, c->r, c->ordL, qn[x], c->meas[x], c->pub[x], c->basis,
            c->precision);
        any = 1;
      }
    }
  }
  if (!any) {
    OUT("None.\n");
  }
#undef OUT
  if (fclose(f) != 0) {
    free(buf);
    return NULL;
  }
  return buf;
}

static char *table_csv(const void *cells_, int n) {
  const cell *cells = cells_;
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f) {
    return NULL;
  }
  static const char *const qn[VI_NQUANT] = {"q", "p", "lambda"};
  fprintf(f, "s,w,quadL,r,ordL,quadZ,ordZ,quantity,published,measured,match,"
             "basis,precision,projected\n");
  for (int k = 0; k < n; k++) {
    const cell *c = &cells[k];
    if (!c->done) {
      continue;
    }
    for (int x = 0; x < VI_NQUANT; x++) {
      fprintf(f, "%d,%d,%s,%d,%d,%s,%d,%s,%s,%s,%d,%s,%s,%s\n", c->s, c->w, c->quadL, c->r,
              c->ordL, c->quadZ, c->ordZ, qn[x], c->pub[x], c->meas[x], c->match[x], c->basis,
              c->precision, c->proj[x]);
    }
  }
  if (fclose(f) != 0) {
    free(buf);
    return NULL;
  }
  return buf;
}

/* What determines a table's cells besides the code (cells.h). */
static void cell_label(const void *c_, char *buf, size_t len) {
  const cell *c = c_;
  snprintf(buf, len, "s=%d w=%d %s r=%d", c->s, c->w, c->quadL, c->r);
}

static int cell_done(const void *c) {
  return ((const cell *)c)->done;
}

static int table_mismatches(const void *cells_, int n, FILE *f) {
  const cell *cells = cells_;
  static const char *const qn[VI_NQUANT] = {"q", "p", "lambda"};
  int mism = 0;
  for (int k = 0; k < n; k++) {
    for (int x = 0; x < VI_NQUANT; x++) {
      const cell *c = &cells[k];
      if (c->done && !c->match[x]) {
        fprintf(f, "  mismatch: s=%d w=%d %s r=%d (ordL %d) %s: measured %s, published %s [%s]\n",
                c->s, c->w, c->quadL, c->r, c->ordL, qn[x], c->meas[x], c->pub[x], c->basis);
        mism++;
      }
    }
  }
  return mism;
}

const vi_table_spec vi_wenger2017_table = {
    .config = "planar-pendulum defaults; T = 1; --h auto; quad where min(ordL, ordZ, 2s) >= 8; "
              "each cell plain and with project=p,lambda=recompute",
    .cell_size = sizeof(cell),
    .verdicts_per_cell = VI_NQUANT,
    .read = read_table,
    .key = cell_spec,
    .label = cell_label,
    .done = cell_done,
    .measure = run_cell,
    .stored = cell_measurement,
    .restore = cell_restore,
    .json = table_json,
    .md = table_md,
    .csv = table_csv,
    .mismatches = table_mismatches,
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
           "max |E - E0|: %.3e (h = %g) vs %.3e (h = %g)", a->extra[1], a->h, b->extra[1], b->h);
  cl[0].holds = a->extra[1] < b->extra[1];
  int k = 1;
  for (int i = 0; i < 2; i++, k++) {
    const vi_series *s = &ss[i];
    snprintf(cl[k].text, sizeof cl[k].text,
             "%.90s: the energy error oscillates but stays bounded (no drift)", s->label);
    double ratio = s->extra[3] / (s->extra[2] > 0 ? s->extra[2] : 1e-300);
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
    if (ss[i].extra[1] >= worst) {
      worst = ss[i].extra[1];
      wl = ss[i].label;
    }
    double qe[3];
    int rc = vi_fig_quad_invariant_error(f->system, ss[i].method, ss[i].h, lround(Tq / ss[i].h),
                                  f->quantity, 0, qe, err, errlen);
    ss[i].extra[4] = qe[0];
    if (rc != VI_OK) {
      return -1;
    }
    if (ss[i].extra[4] >= qworst) {
      qworst = ss[i].extra[4];
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

const vi_fig_spec vi_wenger2017_fig2 = {.id = "wenger2017-fig2",
 .kind = VI_FIG_TRACE,
 .system = "planar-pendulum",
 .quantity = "energy",
 .T = 1000,
 .T_quick = 50,
 .zoom = 10,
 .ylabel = "E(t) - E(0)",
 .why = "planar pendulum with its default parameters; T = 1000 (about 480 periods); "
        "the paper's step sizes are not given: h = 0.1 for the order-8 combination "
        "and h = 0.01 for the order-4 one (the paper's ratio of ten)",
 .claims = claims_fig2,
 .curves = {{"s=5, w=4, Gauss r=5 (ordL 10), h=0.1",
             "galerkin:s=5,w=4,quadL=gauss,r=5", 0.1, NULL, 0},
            {"s=5, w=3, Lobatto r=5 (ordL 8), h=0.01",
             "galerkin:s=5,w=3,quadL=lobatto,r=5", 0.01, NULL, 0}}};

const vi_fig_spec vi_wenger2017_fig3 = {.id = "wenger2017-fig3",
 .kind = VI_FIG_TRACE,
 .system = "double-pendulum-3d",
 .quantity = "Jz",
 .T = 100,
 .T_quick = 5,
 .zoom = 0,
 .ylabel = "Jz(t) - Jz(0)",
 .why = "3D double pendulum with its default parameters; T = 100, h = 0.01; the "
        "paper's combinations are not listed: SHAKE (s=w=1, Lobatto r=2), the shaded "
        "s=w and s=w+1 cells with Gauss quadrature, and one Lobatto cell",
 .claims = claims_fig3,
 .curves = {{"s=w=1, Lobatto r=2 (SHAKE)", "galerkin:s=1,w=1,quadL=lobatto,r=2", 0.01,
             NULL, 0},
            {"s=w=2, Gauss r=2", "galerkin:s=2,w=2,quadL=gauss,r=2", 0.01, NULL, 0},
            {"s=w=3, Gauss r=3", "galerkin:s=3,w=3,quadL=gauss,r=3", 0.01, NULL, 0},
            {"s=5, w=4, Gauss r=5", "galerkin:s=5,w=4,quadL=gauss,r=5", 0.01, NULL,
             0},
            {"s=w=4, Lobatto r=5", "galerkin:s=4,w=4,quadL=lobatto,r=5", 0.01, NULL,
             0}}};

const vi_fig_spec vi_wenger2017_fig4 = {.id = "wenger2017-fig4",
 .kind = VI_FIG_WORK,
 .system = "planar-pendulum",
 .quantity = NULL,
 .T = 20,
 .T_quick = 2,
 .zoom = 0,
 .ylabel = "global error of q",
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

const vi_fig_spec vi_wenger2017_fig5 = {.id = "wenger2017-fig5",
 .kind = VI_FIG_WORK,
 .system = "planar-pendulum",
 .quantity = NULL,
 .T = 20,
 .T_quick = 2,
 .zoom = 0,
 .ylabel = "global error of q",
 .why = "as wenger2017-fig4: planar pendulum, T = 20, the same step sizes for Gauss "
        "and Lobatto",
 .claims = claims_fig5,
 .curves = {{"s=w=2, Gauss r=2", "galerkin:s=2,w=2,quadL=gauss,r=2", 0, NULL, 0},
            {"s=w=2, Lobatto r=3", "galerkin:s=2,w=2,quadL=lobatto,r=3", 0, NULL, 0},
            {"s=w=5, Gauss r=5", "galerkin:s=5,w=5,quadL=gauss,r=5", 0, NULL, 0},
            {"s=w=5, Lobatto r=6", "galerkin:s=5,w=5,quadL=lobatto,r=6", 0, NULL,
             0}}};
