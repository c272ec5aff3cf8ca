/* reproduce.c: paper reproductions (design.md "Studies and results").
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
#include "cells.h"
#include "published.h"
#include "outfile.h"
#include "report.h"
#include "spec.h"
#include "vistudy.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reproduce.h"

typedef struct table_spec {
  const char *id;
  const char *csv;   /* file in the published directory */
  const char *title; /* the paper's caption, shortened */
} table_spec;

static const table_spec tables[] = {
    {"wenger2017-table1", "wenger2017_table1_gauss.csv",
     "wenger2017 Table 1: convergence orders of (22), L_d by Gauss quadrature, "
     "g_d by Lobatto quadrature"},
    {"wenger2017-table2", "wenger2017_table2_lobatto.csv",
     "wenger2017 Table 2: convergence orders of (22), L_d by Lobatto quadrature, "
     "g_d by Lobatto quadrature"},
};
#define NTABLES (int)(sizeof tables / sizeof tables[0])

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

/* The published tables: $VI_PUBLISHED_DIR, else the team's shared copy
 * beside the source tree, else the vendored copy in it; the source tree is
 * found from the build (VI_SOURCE_ROOT) or from the executable (build/ is
 * one level below it), never from the current directory. */
const char *vi_published_dir(char *buf, size_t len) {
  const char *d = getenv("VI_PUBLISHED_DIR");
  if (d && *d) {
    return d;
  }
  char exe[VI_PATH_MAX] = "", exedir[VI_PATH_MAX] = ".";
  ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (k > 0) {
    exe[k] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash) {
      *slash = '\0';
      snprintf(exedir, sizeof exedir, "%s", exe);
    }
  }
  const char *roots[2] = {VI_SOURCE_ROOT, exedir};
  const char *sub[2][2] = {{"/../shared/published", "/studies/published"},
                           {"/../../shared/published", "/../studies/published"}};
  for (int i = 0; i < 2; i++) {
    for (int j = 0; j < 2; j++) {
      char probe[VI_PATH_MAX + 64];
      snprintf(buf, len, "%s%s", roots[j], sub[j][i]);
      snprintf(probe, sizeof probe, "%s/wenger2017_table1_gauss.csv", buf);
      if (access(probe, R_OK) == 0) {
        return buf;
      }
    }
  }
  snprintf(buf, len, "%s/studies/published", VI_SOURCE_ROOT);
  return buf;
}

/* The rows of a published wenger2017 table (studies/published.h: by
 * column name; a missing column, short row, bad number or over-long text
 * is an error with the line). */
static int read_table(const char *path, cell **out, int *n, char *err, size_t errlen) {
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
static void cell_spec(const cell *c, char *spec, size_t len) {
  snprintf(spec, len, "galerkin:s=%d,w=%d,quadL=%s,r=%d,quadZ=%s", c->s, c->w, c->quadL, c->r,
           c->quadZ);
}

static int run_cell(cell *c, const reproduce_opts *o, char *err, size_t errlen) {
  vi_order_config a = {0};
  a.system = "planar-pendulum";
  a.T = 1;
  a.solver.kind = VI_SOLVER_NEWTON;
  a.cache_dir = o->cache_dir;
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
        c->order[x] = fits[x].status == VI_FIT_OK ? fits[x].order : NAN;
        c->residual[x] = fits[x].status == VI_FIT_OK ? fits[x].residual : NAN;
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
static json_t *cell_measurement(const cell *c) {
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
static int cell_restore(cell *c, json_t *v, char *why, size_t whylen) {
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

static json_t *table_json(const table_spec *t, const cell *cells, int n, int *matched,
                          int *total) {
  json_t *j = json_object();
  json_object_set_new(j, "id", json_string(t->id));
  json_object_set_new(j, "title", json_string(t->title));
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
                                  "an exact solution. T = 1, h = 1/N chosen automatically; quad "
                                  "precision where min(ordL, ordZ, 2s) >= 8."));
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
static char *table_md(const table_spec *t, const cell *cells, int n, int matched, int total) {
  size_t cap = 1 << 20, len = 0;
  char *buf = malloc(cap);
  if (!buf) {
    return NULL;
  }
#define OUT(...) len += (size_t)snprintf(buf + len, cap - len, __VA_ARGS__)
  OUT("# %s\n\n%s\n\n", t->id, t->title);
  OUT("System: planar pendulum (m = 1, l = 1, gravity = 9.81, phi0 = 0.9, omega0 = 0), "
      "T = 1, exact reference; orders are least-squares slopes over the asymptotic range "
      "of h = 1/N (see the JSON for each fit). The paper does not say which system or "
      "interval produced its tables.\n\n");
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
  return buf;
}

static char *table_csv(const cell *cells, int n) {
  size_t cap = 1 << 19, len = 0;
  char *buf = malloc(cap);
  if (!buf) {
    return NULL;
  }
  static const char *const qn[VI_NQUANT] = {"q", "p", "lambda"};
  len += (size_t)snprintf(buf + len, cap - len,
                          "s,w,quadL,r,ordL,quadZ,ordZ,quantity,published,measured,match,"
                          "basis,precision,projected\n");
  for (int k = 0; k < n; k++) {
    const cell *c = &cells[k];
    if (!c->done) {
      continue;
    }
    for (int x = 0; x < VI_NQUANT; x++) {
      len += (size_t)snprintf(buf + len, cap - len, "%d,%d,%s,%d,%d,%s,%d,%s,%s,%s,%d,%s,%s,%s\n",
                              c->s, c->w, c->quadL, c->r, c->ordL, c->quadZ, c->ordZ, qn[x],
                              c->pub[x], c->meas[x], c->match[x], c->basis, c->precision,
                              c->proj[x]);
    }
  }
  return buf;
}

/* What determines a table's cells besides the code (cells.h). */
#define TABLE_CONFIG                                                                  \
  "planar-pendulum defaults; T = 1; --h auto; quad where min(ordL, ordZ, 2s) >= 8; " \
  "each cell plain and with project=p,lambda=recompute"

static int reproduce_table(const table_spec *t, const reproduce_opts *o) {
  char err[2 * VI_PATH_MAX + 256], path[VI_PATH_MAX + 64], note[VI_PATH_MAX + 256];
  snprintf(path, sizeof path, "%s/%s", o->published_dir, t->csv);
  cell *cells = NULL;
  int n = 0;
  if (read_table(path, &cells, &n, err, sizeof err) != 0) {
    fprintf(stderr, "vistudy reproduce: %s\n", err);
    return VI_EXIT_FAIL;
  }
  /* A reduced run (--max-cells) keeps its store, so that a longer
   * reduced run resumes from it. */
  const int full = n;
  if (o->max_cells > 0 && o->max_cells < n) {
    n = o->max_cells;
  }
  vi_cells store;
  if (vi_cells_open(&store, o->results_dir, t->id, TABLE_CONFIG, o->fresh, note, sizeof note, err,
                    sizeof err) != 0) {
    fprintf(stderr, "vistudy reproduce: %s\n", err);
    free(cells);
    return VI_EXIT_FAIL;
  }
  if (note[0]) {
    fprintf(stderr, "vistudy reproduce: %s: %s\n", t->id, note);
  }
  int status = VI_EXIT_OK, matched = 0, total = 0;
  for (int k = 0; k < n; k++) {
    cell *c = &cells[k];
    char key[256], why[512];
    cell_spec(c, key, sizeof key);
    json_t *stored = vi_cells_get(&store, key);
    if (stored && cell_restore(c, stored, why, sizeof why) != 0) {
      fprintf(stderr, "vistudy reproduce: %s: stored cell %s in %s is invalid (%s); recomputing it\n",
              t->id, key, store.path, why);
    }
    if (c->done) {
      continue;
    }
    if (o->progress) {
      fprintf(stderr, "\r%s: cell %d/%d (s=%d w=%d %s r=%d)        ", t->id, k + 1, n, c->s,
              c->w, c->quadL, c->r);
    }
    if (run_cell(c, o, err, sizeof err) != 0) {
      fprintf(stderr, "\nvistudy reproduce: %s cell s=%d w=%d r=%d: %s\n", t->id, c->s, c->w,
              c->r, err);
      status = VI_EXIT_FAIL;
      break;
    }
    if (vi_cells_put(&store, key, cell_measurement(c), err, sizeof err) != 0) {
      fprintf(stderr, "\nvistudy reproduce: %s: %s\n", t->id, err);
      status = VI_EXIT_FAIL;
      break;
    }
  }
  if (o->progress) {
    fputc('\n', stderr);
  }
  json_t *j = table_json(t, cells, n, &matched, &total);
  char *md = table_md(t, cells, n, matched, total);
  char *csv = table_csv(cells, n);
  int written = vi_study_write(o->results_dir, t->id, j, md, csv, err, sizeof err) == 0;
  if (!written) {
    fprintf(stderr, "vistudy reproduce: %s\n", err);
    status = VI_EXIT_FAIL;
  }
  if (status == VI_EXIT_OK && n == full) {
    vi_cells_finish(&store);
  }
  vi_cells_close(&store);
  static const char *const qn[VI_NQUANT] = {"q", "p", "lambda"};
  printf("%s: matched %d/%d cells%s\n", t->id, matched, total,
         total < 3 * n ? " (incomplete: the study stopped early)" : "");
  int mism = 0;
  for (int k = 0; k < n; k++) {
    for (int x = 0; x < VI_NQUANT; x++) {
      const cell *c = &cells[k];
      if (c->done && !c->match[x]) {
        printf("  mismatch: s=%d w=%d %s r=%d (ordL %d) %s: measured %s, published %s [%s]\n",
               c->s, c->w, c->quadL, c->r, c->ordL, qn[x], c->meas[x], c->pub[x], c->basis);
        mism++;
      }
    }
  }
  if (written) {
    printf("  results: %s/%s.{md,csv,json}\n", o->results_dir, t->id);
  }
  json_decref(j);
  free(md);
  free(csv);
  free(cells);
  if (status == VI_EXIT_OK && o->strict && mism > 0) {
    status = VI_EXIT_FAIL;
  }
  return status;
}

/* Every study `reproduce` knows: the two tables (this file), the figures
 * of wenger2017 and man2020 (figures.c), the man2020 tables (man2020.c),
 * the man2020 efficiency study (man2020_eff.c) and the work-precision study
 * (workprec.c). outputs: the suffixes of every file the study writes in the
 * results directory (checked before any study starts); published: the
 * published table it reads, if any. */
typedef struct study {
  const char *id;
  const char *title;
  int (*run)(const char *id, const reproduce_opts *o);
  const char *outputs;
  const char *published;
  int tabular; /* reduced by --max-cells (a table); else by --quick */
} study;

static int run_table(const char *id, const reproduce_opts *o) {
  for (int i = 0; i < NTABLES; i++) {
    if (strcmp(id, tables[i].id) == 0) {
      return reproduce_table(&tables[i], o);
    }
  }
  return VI_EXIT_USAGE;
}

#define OUT_TABLE ".json .md .csv .partial.json"
#define OUT_FIGURE ".json .md .csv .partial.json .dat .gp .svg .png"
#define OUT_PLOT ".json .md .csv .gp .svg .png"

static const study studies[] = {
    {"wenger2017-table1", NULL, run_table, OUT_TABLE, "wenger2017_table1_gauss.csv", 1},
    {"wenger2017-table2", NULL, run_table, OUT_TABLE, "wenger2017_table2_lobatto.csv", 1},
    {"wenger2017-fig2", "wenger2017 Fig. 2: planar pendulum, energy error over a long run",
     vi_figures_run, OUT_FIGURE, NULL, 0},
    {"wenger2017-fig3", "wenger2017 Fig. 3: double pendulum, error of the z angular momentum",
     vi_figures_run, OUT_FIGURE, NULL, 0},
    {"wenger2017-fig4", "wenger2017 Fig. 4: run time vs global q error, s = w = r = 1..6, Gauss",
     vi_figures_run, OUT_FIGURE, NULL, 0},
    {"wenger2017-fig5", "wenger2017 Fig. 5: run time vs global q error, Gauss vs Lobatto",
     vi_figures_run, OUT_FIGURE, NULL, 0},
    {"man2020-table1",
     "man2020 Table 1: energy-error order, m-point Gauss rule on m equidistant control points",
     vi_man2020_run, OUT_TABLE, "man2020_orders.csv", 1},
    {"man2020-table3", "man2020 Table 3: energy-error order of the eight algorithms, m = 2..9",
     vi_man2020_run, OUT_TABLE, "man2020_orders.csv", 1},
    {"man2020-fig3",
     "man2020 Fig. 3: spring pendulum, global Hamiltonian error of LLL, LGL, LLG, LGG vs m",
     vi_figures_run, OUT_FIGURE, NULL, 0},
    {"man2020-fig8", "man2020 Fig. 8: six balls, energy error of LGG and LLL, m = 2..6",
     vi_figures_run, OUT_FIGURE, NULL, 0},
    {"man2020-fig9", "man2020 Fig. 9: six balls, angular momentum error of LGG, m = 2, h = 1",
     vi_figures_run, OUT_FIGURE, NULL, 0},
    {"man2020-fig11", "man2020 Fig. 11: six balls, antisymmetry quantities (61) under LGG",
     vi_figures_run, OUT_FIGURE, NULL, 0},
    {"man2020-efficiency",
     "man2020 §4.2 efficiency claim: LGG, LLG, LLL vs constrained Lobatto IIIA-IIIB, "
     "triple pendulum",
     vi_man2020_eff_run, OUT_PLOT, NULL, 0},
    {"workprec-double-pendulum",
     "work-precision: galerkin vs SUNDIALS IDA, 3D double pendulum, T = 10", vi_workprec_run,
     OUT_PLOT " -evals.gp -evals.svg -evals.png", NULL, 0},
};
#define NSTUDIES (int)(sizeof studies / sizeof studies[0])

static const char *study_title(int i) {
  for (int k = 0; k < NTABLES; k++) {
    if (strcmp(studies[i].id, tables[k].id) == 0) {
      return tables[k].title;
    }
  }
  return studies[i].title;
}

int vi_reproduce_list(FILE *f) {
  for (int i = 0; i < NSTUDIES; i++) {
    fprintf(f, "%-25s %s\n", studies[i].id, study_title(i));
  }
  return VI_EXIT_OK;
}

static int study_index(const char *id, size_t len) {
  for (int i = 0; i < NSTUDIES; i++) {
    if (strlen(studies[i].id) == len && strncmp(studies[i].id, id, len) == 0) {
      return i;
    }
  }
  return -1;
}

static void valid_ids(char *buf, size_t len) {
  size_t k = 0;
  buf[0] = '\0';
  for (int i = 0; i < NSTUDIES && k < len; i++) {
    k += (size_t)snprintf(buf + k, len - k, "%s%s", i ? " " : "", studies[i].id);
  }
}

int vi_reproduce_select(const char *id, const char *skip, int selected[], char *err,
                        size_t errlen) {
  char valid[2048];
  valid_ids(valid, sizeof valid);
  for (int i = 0; i < NSTUDIES; i++) {
    selected[i] = id == NULL;
  }
  if (id) {
    int i = study_index(id, strlen(id));
    if (i < 0) {
      snprintf(err, errlen, "unknown study '%s'; valid: %s (or --all)", id, valid);
      return -1;
    }
    selected[i] = 1;
  }
  for (const char *c = skip; c && *c;) {
    const char *end = strchr(c, ',');
    size_t len = end ? (size_t)(end - c) : strlen(c);
    int i = study_index(c, len);
    if (i < 0) {
      snprintf(err, errlen, "unknown study '%.*s' in --skip; valid: %s", (int)len, c, valid);
      return -1;
    }
    selected[i] = 0;
    c = end ? end + 1 : c + len;
  }
  return 0;
}

int vi_reproduce_nstudies(void) {
  return NSTUDIES;
}

int vi_reproduce_check(const int selected[], const reproduce_opts *o, char *err,
                       size_t errlen) {
  if (vi_dir_prepare(o->results_dir, 0, err, errlen) != 0) {
    return -1;
  }
  for (int i = 0; i < NSTUDIES; i++) {
    if (!selected[i]) {
      continue;
    }
    if ((o->max_cells > 0 && !studies[i].tabular) || (o->quick && studies[i].tabular)) {
      snprintf(err, errlen,
               "%s reduces %s studies only; %s is a %s, reduced by %s (leave it out with "
               "--skip, or run it alone)",
               o->max_cells > 0 ? "--max-cells N" : "--quick",
               o->max_cells > 0 ? "the table" : "the figure and sweep", studies[i].id,
               studies[i].tabular ? "table" : "figure or sweep",
               studies[i].tabular ? "--max-cells N" : "--quick");
      return -1;
    }
    if (vi_study_check(o->results_dir, studies[i].id, studies[i].outputs, err, errlen) != 0) {
      return -1;
    }
    if (studies[i].published) {
      char path[VI_PATH_MAX + 64];
      snprintf(path, sizeof path, "%s/%s", o->published_dir, studies[i].published);
      if (access(path, R_OK) != 0) {
        snprintf(err, errlen, "cannot read the published table %s of %s: %s (set --published "
                 "DIR or VI_PUBLISHED_DIR)", path, studies[i].id, strerror(errno));
        return -1;
      }
    }
  }
  return 0;
}

int vi_reproduce(const int selected[], const reproduce_opts *o) {
  int worst = VI_EXIT_OK;
  for (int i = 0; i < NSTUDIES; i++) {
    if (selected[i]) {
      int st = studies[i].run(studies[i].id, o);
      worst = st > worst ? st : worst;
    }
  }
  return worst;
}
