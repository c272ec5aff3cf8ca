/* test_studies.c: the shared services of the studies (unit suite): the row
 * model and its emitters (emit.h), the claims record (claims.h), the
 * gnuplot builder (plot.h) and the sweep core (sweep.h): its error
 * measurement on nodes shared with the reference (N dividing the reference
 * grid and N a multiple of it), its stopping rules and its interpolation
 * along a curve; the table runner's writing from a paper's row model, and
 * a table larger than any fixed buffer (the wenger2017 writers once
 * overflowed a 1 MiB buffer). */
#include "check.h"

#include "cells.h"
#include "claims.h"
#include "emit.h"
#include "plot.h"
#include "specs.h"
#include "sweep.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CHECK(...) VI_CHECK(T, __VA_ARGS__)

static const vi_col cols[] = {
    {"name", .type = VI_COL_TEXT, .title = "the name"},
    {"x", .type = VI_COL_REAL, .fmt = "%.2f"},
    {"k", .type = VI_COL_INT},
};

static int keep_odd(const vi_rows *r, int row, void *ctx) {
  (void)r;
  (void)ctx;
  return row % 2 == 1;
}

static void test_rows(vi_check_ctx *T) {
  vi_rows R;
  vi_rows_init(&R, cols, 3);
  int r0 = vi_rows_add(&R);
  vi_rows_text(&R, r0, "name", "plain");
  vi_rows_real(&R, r0, "x", 0.5);
  vi_rows_int(&R, r0, "k", 7);
  int r1 = vi_rows_add(&R);
  vi_rows_text(&R, r1, "name", "a, \"quoted\" | name");
  vi_rows_real(&R, r1, "x", NAN); /* non-finite: null / empty / "-" */
  /* k of r1 never set */
  CHECK(vi_rows_col(&R, "k") == 2 && vi_rows_col(&R, "nope") == -1, "column lookup");

  char *csv = vi_rows_csv(&R, NULL, NULL);
  CHECK(csv != NULL, "csv built");
  CHECK(strcmp(csv, "name,x,k\nplain,0.5,7\n\"a, \"\"quoted\"\" | name\",,\n") == 0,
        "csv quoting and empty cells: got [%s]", csv);
  free(csv);

  json_t *j = vi_rows_json(&R, NULL, NULL);
  CHECK(json_array_size(j) == 2, "json rows");
  json_t *o1 = json_array_get(j, 1);
  CHECK(json_is_null(json_object_get(o1, "x")) && json_is_null(json_object_get(o1, "k")),
        "json: NaN and unset cells are null");
  CHECK(json_integer_value(json_object_get(json_array_get(j, 0), "k")) == 7, "json int");
  json_decref(j);

  char *md = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&md, &len);
  static const char *const show[] = {"name", "x", "k", NULL};
  vi_rows_md(f, &R, show, keep_odd, NULL);
  fclose(f);
  CHECK(strstr(md, "| the name | x | k |") != NULL, "md header uses titles: [%s]", md);
  CHECK(strstr(md, "a, \"quoted\" \\| name | - | - |") != NULL, "md escapes | and shows -: [%s]",
        md);
  CHECK(strstr(md, "plain") == NULL, "md keeps only the selected rows");
  free(md);
  vi_rows_free(&R);
}

/* The column options of the row model: a CSV header of its own, columns
 * left out of the JSON or the CSV, a JSON-only value, a cell that is a
 * number or a text as set, booleans, CSV formats and forced quoting. */
static const vi_col ext_cols[] = {
    {"a", .type = VI_COL_INT},
    {"any", .type = VI_COL_ANY},
    {"label", .type = VI_COL_TEXT, .csv = "any_label", .flags = VI_COL_NOJSON},
    {"ok", .type = VI_COL_BOOL},
    {"pair", .type = VI_COL_JSON},
    {"x", .type = VI_COL_REAL, .fmt = "%.1f", .csv_fmt = "%.3f"},
    {"hidden", .type = VI_COL_TEXT, .flags = VI_COL_NOCSV},
    {"q", .type = VI_COL_TEXT, .flags = VI_COL_QUOTED},
};

static void test_rows_columns(vi_check_ctx *T) {
  vi_rows R;
  vi_rows_init(&R, ext_cols, (int)(sizeof ext_cols / sizeof ext_cols[0]));
  int r0 = vi_rows_add(&R), r1 = vi_rows_add(&R);
  vi_rows_int(&R, r0, "a", 1);
  vi_rows_real_or_text(&R, r0, "any", 2.5, "2.50");
  vi_rows_text(&R, r0, "label", "2.50");
  vi_rows_bool(&R, r0, "ok", 7);
  vi_rows_json_value(&R, r0, "pair", json_pack("[i, i]", 1, 2));
  vi_rows_real(&R, r0, "x", 0.12345);
  vi_rows_text(&R, r0, "hidden", "h");
  vi_rows_text(&R, r0, "q", "plain");
  vi_rows_int(&R, r1, "a", 2);
  vi_rows_real_or_text(&R, r1, "any", NAN, "d");
  vi_rows_text(&R, r1, "label", "d");
  vi_rows_bool(&R, r1, "ok", 0);
  vi_rows_real(&R, r1, "x", NAN);
  vi_rows_text(&R, r1, "q", "");

  char *csv = vi_rows_csv(&R, NULL, NULL);
  CHECK(csv && strcmp(csv, "a,any,any_label,ok,x,q\n1,2.5,2.50,1,0.123,\"plain\"\n"
                           "2,d,d,0,,\"\"\n") == 0,
        "csv: own header, left-out columns, format, quoting: [%s]", csv);
  free(csv);

  json_t *j = vi_rows_json(&R, NULL, NULL);
  char *js = json_dumps(j, JSON_COMPACT);
  CHECK(js && strcmp(
                  js,
                  "[{\"a\":1,\"any\":2.5,\"ok\":true,\"pair\":[1,2],\"x\":0.12345,"
                  "\"hidden\":\"h\",\"q\":\"plain\"},{\"a\":2,\"any\":\"d\",\"ok\":false,"
                  "\"pair\":null,\"x\":null,\"hidden\":null,\"q\":\"\"}]") == 0,
        "json: mixed cells, booleans, JSON values, no NOJSON column: %s", js);
  free(js);
  json_decref(j);

  char *md = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&md, &len);
  static const char *const show[] = {"a", "any", "ok", "x", "hidden", NULL};
  vi_rows_md(f, &R, show, NULL, NULL);
  fclose(f);
  CHECK(md && strstr(md, "| 1 | 2.5 | 1 | 0.1 | h |\n| 2 | d | 0 | - | - |\n") != NULL,
        "md of mixed and boolean cells: [%s]", md);
  free(md);

  char b[32];
  CHECK(strcmp(vi_rows_get_text(&R, r1, "any"), "d") == 0 &&
            vi_rows_get_int(&R, r0, "ok") == 1 && isnan(vi_rows_get_real(&R, r1, "x")) &&
            vi_rows_get_real(&R, r0, "x") == 0.12345 &&
            strcmp(vi_rows_get_text(&R, r1, "hidden"), "") == 0 &&
            strcmp(vi_rows_str(&R, r0, "x", b, sizeof b), "0.1") == 0 &&
            strcmp(vi_rows_str(&R, r1, "hidden", b, sizeof b), "-") == 0,
        "cells read back");
  vi_rows_free(&R);
}

/* The table runner's writing (study.h) on a spec of four cells, one not
 * run and one a mismatch: the JSON's keys and breakdown, the CSV, the
 * Markdown's mismatch list and regenerate line, the lines of stdout. */
typedef struct tcell {
  int k, pub, meas, done;
  const char *grp;
} tcell;

static const vi_col tcols[] = {
    {"k", .type = VI_COL_INT},         {"grp", .type = VI_COL_TEXT},
    {"published", .type = VI_COL_INT}, {"measured", .type = VI_COL_INT},
    {"match", .type = VI_COL_BOOL},
};

static int t_done(const void *c) {
  return ((const tcell *)c)->done;
}

static int t_rows(const void *c_, vi_rows *R) {
  const tcell *c = c_;
  int r = vi_rows_add(R);
  if (r < 0 || vi_rows_text(R, r, "grp", c->grp) != 0) {
    return -1;
  }
  vi_rows_int(R, r, "k", c->k);
  vi_rows_int(R, r, "published", c->pub);
  vi_rows_int(R, r, "measured", c->meas);
  vi_rows_bool(R, r, "match", c->pub == c->meas);
  return 0;
}

static json_t *t_head(const vi_study *s) {
  return json_pack("{s:s}", "what", vi_table_caption(s));
}

static void t_md(FILE *f, const vi_study *s, const void *cells, int n, const vi_rows *R,
                 int matched, int total) {
  fprintf(f, "# %s: %d/%d of %d\n\n", s->id, matched, total, n);
}

static void t_mismatch(FILE *f, const vi_rows *R, int r, int md) {
  fprintf(f, "k=%ld%s", vi_rows_get_int(R, r, "k"), md ? "" : "!");
}

static void test_table_render(vi_check_ctx *T) {
  const vi_table_spec spec = {.cell_size = sizeof(tcell),
                              .verdicts_per_cell = 1,
                              .done = t_done,
                              .cols = tcols,
                              .ncols = (int)(sizeof tcols / sizeof tcols[0]),
                              .rows = t_rows,
                              .head = t_head,
                              .by = "grp",
                              .md = t_md,
                              .mismatch = t_mismatch,
                              .regenerate = 1};
  const vi_study st = {"test-table", "a test table", vi_run_table, &spec, "", NULL, 1, 0};
  const tcell cells[4] = {
      {0, 2, 2, 1, "a"}, {1, 4, 3, 1, "b"}, {2, 2, 2, 0, "a"}, {3, 6, 6, 1, "a"}};
  vi_table_out out;
  char err[128] = "";
  CHECK(vi_table_render(&st, cells, 4, &out, err, sizeof err) == 0, "rendered: %s", err);
  CHECK(out.matched == 2 && out.total == 3 && out.mismatches == 1, "verdicts %d/%d, %d",
        out.matched, out.total, out.mismatches);
  char *js = json_dumps(out.json, JSON_COMPACT);
  CHECK(js &&
            strcmp(
                js,
                "{\"id\":\"test-table\",\"what\":\"a test table\",\"cells\":["
                "{\"k\":0,\"grp\":\"a\",\"published\":2,\"measured\":2,\"match\":true},"
                "{\"k\":1,\"grp\":\"b\",\"published\":4,\"measured\":3,\"match\":false},"
                "{\"k\":3,\"grp\":\"a\",\"published\":6,\"measured\":6,\"match\":true}],"
                "\"matched\":2,\"total\":3,\"by_grp\":{\"a\":{\"matched\":2,\"total\":2},"
                "\"b\":{\"matched\":0,\"total\":1}}}") == 0,
        "json: %s", js);
  free(js);
  CHECK(out.csv &&
            strcmp(out.csv, "k,grp,published,measured,match\n0,a,2,2,1\n1,b,4,3,0\n"
                            "3,a,6,6,1\n") == 0,
        "csv: [%s]", out.csv);
  CHECK(out.md &&
            strcmp(out.md, "# test-table: 2/3 of 4\n\n## Mismatches\n\n- k=1\n\n"
                           "Regenerate with `vistudy reproduce test-table`.\n") == 0,
        "md: [%s]", out.md);
  CHECK(out.lines && strcmp(out.lines, "  mismatch: k=1!\n") == 0, "stdout: [%s]",
        out.lines);
  vi_table_out_free(&out);
}

static void test_claims(vi_check_ctx *T) {
  vi_claim cl[2];
  vi_claim_set(&cl[0], 1, "it holds", "%d of %d", 3, 3);
  vi_claim_set(&cl[1], 0, "it does | not", "measured %.1f", 2.5);
  CHECK(vi_claims_held(cl, 2) == 1, "held count");
  CHECK(strcmp(cl[1].measured, "measured 2.5") == 0, "measured text");
  CHECK(vi_claims_status(cl, 2, 0) == 0 && vi_claims_status(cl, 2, 1) == 1 &&
            vi_claims_status(cl, 1, 1) == 0,
        "--strict rule");
  json_t *j = json_object();
  vi_claims_json(j, cl, 2);
  CHECK(json_integer_value(json_object_get(j, "claims_held")) == 1 &&
            json_integer_value(json_object_get(j, "claims_total")) == 2 &&
            json_array_size(json_object_get(j, "claims")) == 2,
        "claims json");
  json_decref(j);
  char *md = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&md, &len);
  vi_claims_md(f, "Claims", cl, 2);
  fclose(f);
  CHECK(strstr(md, "1/2 hold.") && strstr(md, "it does \\| not") && strstr(md, "**no**"),
        "claims md: [%s]", md);
  free(md);
}

static void test_gp(vi_check_ctx *T) {
  vi_gp *g = vi_gp_new("fig \"one\"");
  vi_gp_panel(g, "left", "x", "y", VI_GP_LOGX | VI_GP_LOGY);
  const double x[4] = {1, -1, 10, NAN}, y[4] = {2, 3, 0, 5};
  vi_gp_curve(g, "kept", x, y, 4, 0, 0);  /* only (1, 2) survives the log axes */
  vi_gp_curve(g, "empty", y + 2, y + 2, 1, 1, 0); /* (0, 0): nothing on log axes */
  vi_gp_panel(g, "right", "x", "y", 0);
  vi_gp_curve(g, "lin", x, y, 3, 1, 1); /* (-1, 3) and (10, 0) are fine on linear axes */
  char *b = vi_gp_body(g, 1, 2);
  vi_gp_free(g);
  CHECK(b != NULL, "gp body");
  CHECK(strstr(b, "$d0 << EOD\n1.000000000e+00 2.000000000e+00\nEOD\n") != NULL,
        "log axes drop non-positive and non-finite points: [%s]", b);
  CHECK(strstr(b, "\"empty\"") == NULL, "a curve without points is not drawn");
  CHECK(strstr(b, "$d1 << EOD\n1.000000000e+00 2.000000000e+00\n-1.000000000e+00") != NULL,
        "linear axes keep negative points");
  CHECK(strstr(b, "set multiplot layout 1,2 title \"fig \\\"one\\\"\"") != NULL,
        "two panels: a multiplot, quotes escaped");
  CHECK(strstr(b, "unset multiplot") != NULL, "multiplot closed");
  free(b);
  /* A panel without a curve (a reduced run): an empty frame on fixed
   * ranges, since gnuplot cannot autoscale an axis from no point. */
  g = vi_gp_new("empty");
  vi_gp_panel(g, NULL, "h", "e", VI_GP_LOGX | VI_GP_LOGY);
  vi_gp_curve(g, "nothing", y + 2, y + 2, 1, 0, 0);
  b = vi_gp_body(g, 1, 1);
  vi_gp_free(g);
  CHECK(b && strstr(b, "set xrange [1:10]\nset yrange [1:10]\nplot NaN title 'no data'\n"),
        "an empty panel is a frame on fixed ranges: [%s]", b);
  free(b);
  /* The key rule (plot.h): outside the axes, below the panel; none where
   * the panel's one entry repeats its title; the note (a machine line) in
   * small print once, before the last panel, below a strip kept free. */
  g = vi_gp_new("keys");
  vi_gp_note(g, "CPU X, gcc 12");
  vi_gp_panel(g, "Gauss s=1, every step", "t", "H", 0);
  vi_gp_curve(g, "Gauss s=1", x, y, 2, 0, 0);
  vi_gp_set(g, "set key inside top right"); /* overridden: the builder places keys */
  vi_gp_panel(g, "both", "t", "H", 0);
  vi_gp_curve(g, "a", x, y, 2, 0, 0);
  vi_gp_curve(g, "b", x, y, 2, 1, 0);
  b = vi_gp_body(g, 2, 1);
  vi_gp_free(g);
  const char *second = b ? strstr(b, "set title \"both\"") : NULL;
  const char *unset = b ? strstr(b, "unset key\nplot $d") : NULL;
  const char *below = b ? strstr(b, "set key outside bottom center") : NULL;
  CHECK(second && unset && unset < second && below > second,
        "a repeated title drops the key, two entries go below the panel: [%s]", b);
  const char *note = b ? strstr(b, "set label 1001 \"CPU X, gcc 12\"") : NULL;
  CHECK(note && note > unset && note < second &&
            strstr(note + 1, "set label 1001 \"") == NULL &&
            strstr(note, "right front font ',8'") &&
            strstr(b, "layout 2,1 title \"keys\"") && strstr(b, " scale 1,0.9"),
        "the note once, small, right-aligned, rows scaled to free the strip: [%s]", b);
  free(b);
}

/* The sweep core on the planar pendulum with its exact reference: the
 * errors of galerkin s=2 (order 4 in q) at N dividing the reference grid
 * and at N a multiple of it fall by 2^4 per halving of h; a wrong mapping
 * of run nodes to reference nodes gives O(1) errors. */
static int sweep_curves(vi_sweep *S) {
  (void)S;
  return 0;
}

static void test_sweep(vi_check_ctx *T) {
  static const long ladder[] = {20, 40, 80, 160, 320};
  const vi_sweep_spec spec = {.system = "planar-pendulum",
                              .T = 4.0 * 1.0,
                              .nref = 80,
                              .ladder = ladder,
                              .nladder = 5,
                              .stop_err = 0,
                              .reps = {1, 1, 1},
                              .curves = sweep_curves};
  vi_sweep S;
  char err[512] = "";
  int rc = vi_sweep_open(&S, &spec, "test", 0, 0, 0, NULL, err, sizeof err);
  CHECK(rc == 0, "sweep open: %s", err);
  if (rc != 0) {
    return;
  }
  int c = vi_sweep_add(&S, VI_SWEEP_STEPPER, 3, 2, "s=2", "galerkin:s=2");
  CHECK(c == 0 && vi_sweep_find(&S, 3, 2) == 0 && vi_sweep_find(&S, 3, 1) == -1, "curve added");
  rc = vi_sweep_curve_run(&S, c, err, sizeof err);
  CHECK(rc == 0 && S.npts == 5, "five runs (%d): %s", S.npts, err);
  CHECK(strstr(S.curves[c].method, "galerkin:s=2,") == S.curves[c].method,
        "canonical spec recorded: %s", S.curves[c].method);
  for (int i = 1; i < S.npts; i++) {
    const double r = log2(S.pts[i - 1].err[VI_SW_Q] / S.pts[i].err[VI_SW_Q]);
    CHECK(S.pts[i].ok && fabs(r - 4) < 0.3, "q error order %.2f between N = %ld and %ld", r,
          S.pts[i - 1].N, S.pts[i].N);
  }
  CHECK(S.pts[0].err[VI_SW_ENERGY] > 0 && S.pts[4].err[VI_SW_ENERGY] < S.pts[0].err[VI_SW_ENERGY],
        "energy error measured");
  CHECK(S.pts[4].err[VI_SW_GDRIFT] < 1e-12, "constraint drift at round-off: %g",
        S.pts[4].err[VI_SW_GDRIFT]);
  /* Interpolation: halfway (in log) between two runs' errors. */
  const vi_sweep_point *a = vi_sweep_at(&S, c, 40), *b = vi_sweep_at(&S, c, 80);
  CHECK(a && b && !vi_sweep_at(&S, c, 41), "runs looked up by N");
  if (a && b) {
    const double E = sqrt(a->err[VI_SW_Q] * b->err[VI_SW_Q]);
    double h;
    char why[160];
    const double ev = vi_sweep_interp(&S, c, VI_SW_Q, VI_COST_EVALS, E, &h, why, sizeof why);
    CHECK(fabs(ev - sqrt((double)a->fevals * (double)b->fevals)) < 1e-9 * ev &&
              fabs(h - sqrt(a->h * b->h)) < 1e-12,
          "log-log interpolation: %g evals at h = %g", ev, h);
    const double no = vi_sweep_interp(&S, c, VI_SW_Q, VI_COST_CPU, 1e-300, NULL, why, sizeof why);
    CHECK(isnan(no) && strstr(why, "reaches only"), "unreachable level: %s", why);
    double cost;
    CHECK(vi_sweep_best(&S, 3, VI_SW_Q, VI_COST_EVALS, E, &cost, NULL, why, sizeof why) == c &&
              vi_sweep_best(&S, 4, VI_SW_Q, VI_COST_EVALS, E, &cost, NULL, why, sizeof why) == -1,
          "best curve of a group");
  }
  vi_sweep_close(&S);

  /* Stopping rules: stop below an error, never before n_keep. */
  vi_sweep_spec stop = spec;
  stop.stop_err = 1e-3;
  stop.n_keep = 80;
  rc = vi_sweep_open(&S, &stop, "test", 0, 0, 0, NULL, err, sizeof err);
  c = vi_sweep_add(&S, VI_SWEEP_STEPPER, 0, 0, "s=2", "galerkin:s=2");
  rc = rc == 0 ? vi_sweep_curve_run(&S, c, err, sizeof err) : rc;
  CHECK(rc == 0 && S.npts == 3 && S.pts[2].N == 80, "stops at N = n_keep once below stop_err (%d runs)",
        S.npts);
  vi_sweep_close(&S);

  /* A spec the registry refuses is the study's error, named. */
  rc = vi_sweep_open(&S, &spec, "test", 0, 0, 0, NULL, err, sizeof err);
  c = vi_sweep_add(&S, VI_SWEEP_STEPPER, 0, 0, "bad", "galerkin:s=0");
  rc = rc == 0 ? vi_sweep_curve_run(&S, c, err, sizeof err) : rc;
  CHECK(rc == -1 && strstr(err, "'0' for s") && strstr(err, "1..12"), "bad spec refused: %s",
        err);
  vi_sweep_close(&S);

  /* A ladder that shares no nodes with the reference grid is refused (N =
   * 30 neither divides 80 nor is a multiple of it): the error would
   * compare nodes at different times. */
  static const long bad_ladder[] = {20, 30};
  vi_sweep_spec bad = spec;
  bad.ladder = bad_ladder;
  bad.nladder = 2;
  err[0] = 0;
  rc = vi_sweep_open(&S, &bad, "test", 0, 0, 0, NULL, err, sizeof err);
  CHECK(rc == -1 && strstr(err, "step count 30") && strstr(err, "80"), "bad ladder: %s", err);
  vi_sweep_close(&S);

  /* A failed run inside a curve is skipped by the interpolation: mark the
   * N = 80 run failed and interpolate between N = 40 and N = 160. */
  rc = vi_sweep_open(&S, &spec, "test", 0, 0, 0, NULL, err, sizeof err);
  c = rc == 0 ? vi_sweep_add(&S, VI_SWEEP_STEPPER, 0, 0, "s=2", "galerkin:s=2") : -1;
  rc = c == 0 ? vi_sweep_curve_run(&S, c, err, sizeof err) : -1;
  if (rc == 0 && S.npts == 5) {
    const vi_sweep_point a40 = S.pts[1], a160 = S.pts[3];
    S.pts[2].ok = 0;
    const double E = sqrt(a40.err[VI_SW_Q] * a160.err[VI_SW_Q]);
    char why[160];
    const double ev = vi_sweep_interp(&S, c, VI_SW_Q, VI_COST_EVALS, E, NULL, why, sizeof why);
    CHECK(fabs(ev - sqrt((double)a40.fevals * (double)a160.fevals)) < 1e-9 * ev,
          "interpolation across a failed run: %g", ev);
  } else {
    CHECK(0, "sweep for the failed-run check: %s", err);
  }
  vi_sweep_close(&S);
}

/* The wenger2017 table layout on a published table of 20000 rows, every
 * cell restored as measured: its Markdown passes 1 MiB and its CSV 512 KiB,
 * the sizes of the fixed buffers the writers once overran (AddressSanitizer
 * caught the overflow); the text must be complete. */
static void test_table_size(vi_check_ctx *T) {
  enum { ROWS = 20000 };
  char path[] = "/tmp/vi_test_table_XXXXXX";
  int fd = mkstemp(path);
  FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
  CHECK(f != NULL, "temporary table");
  if (!f) {
    return;
  }
  fprintf(f, "s,quadL,r,ordL,w,quadZ,z,ordZ,order_q,order_p,order_lambda,basis\n");
  for (int k = 0; k < ROWS; k++) {
    fprintf(f, "1,gauss,1,2,1,lobatto,2,2,2,2,2,extracted\n");
  }
  fclose(f);
  const vi_table_spec *spec = &vi_wenger2017_table;
  const vi_study st = {"wenger2017-table-size", "a large table", vi_run_table, spec, "", NULL, 1, 0};
  void *cells = NULL;
  int n = 0;
  char err[256] = "";
  CHECK(vi_table_cells(spec, path, &cells, &n, err, sizeof err) == 0 && n == ROWS,
        "read %d rows: %s", n, err);
  unlink(path);
  if (n != ROWS) {
    free(cells);
    return;
  }
  int restored = 0;
  for (int k = 0; k < n; k++) {
    json_t *v = json_pack(
        "{s:s, s:s, s:[f, f], s:o, s:o, s:o, s:{s:s, s:s, s:s}}", "method",
        "galerkin:s=1,w=1,quadL=gauss,r=1,quadZ=lobatto,ctrl=lobatto,"
        "project=none,lambda=node",
        "precision", "double", "h", 0.1, 0.01, "q", vi_cells_fit_json(2.0, "2.00", 0.01),
        "p", vi_cells_fit_json(2.0, "2.00", 0.01), "lambda",
        vi_cells_fit_json(2.0, "2.00", 0.01), "projected", "q", "2.00", "p", "2.00",
        "lambda", "2.00");
    char why[256] = "";
    restored += spec->restore((char *)cells + (size_t)k * spec->cell_size, v, why,
                              sizeof why) == 0;
    json_decref(v);
  }
  CHECK(restored == n, "every cell restored (%d of %d)", restored, n);
  vi_table_out out;
  CHECK(vi_table_render(&st, cells, n, &out, err, sizeof err) == 0, "rendered: %s", err);
  const char *md = out.md;
  CHECK(md != NULL && strlen(md) > (1u << 20), "markdown of %zu bytes", md ? strlen(md) : 0);
  const char *tail = "## Mismatches\n\nNone.\n";
  CHECK(md != NULL && strlen(md) > strlen(tail) &&
            strcmp(md + strlen(md) - strlen(tail), tail) == 0,
        "markdown complete (ends with its mismatches section)");
  const char *csv = out.csv;
  int lines = 0;
  for (const char *c = csv; c && *c; c++) {
    lines += *c == '\n';
  }
  CHECK(csv != NULL && strlen(csv) > (1u << 19) && lines == 1 + 3 * n,
        "csv of %zu bytes, %d lines (want %d)", csv ? strlen(csv) : 0, lines, 1 + 3 * n);
  CHECK(out.matched == 3 * n && out.total == 3 * n && out.mismatches == 0 &&
            json_array_size(json_object_get(out.json, "cells")) == (size_t)(3 * n),
        "json of every verdict: %d/%d matched", out.matched, out.total);
  vi_table_out_free(&out);
  free(cells);
}

/* Rows beyond the paper (vi_table_spec.extra, beyond): a published table
 * of two rows (one a mismatch) and three cells of the study's own (one
 * agreeing, one disagreeing, one not run). The own cells follow the
 * published ones; they are counted apart from matched/total, left out of
 * the breakdown, listed under their own heading and on standard output;
 * a row both beyond and not run is not run. */
typedef struct bcell {
  int k, want, meas, beyond, skip, done;
} bcell;

static const vi_col bcols[] = {
    {"k", .type = VI_COL_INT},         {"grp", .type = VI_COL_TEXT},
    {"beyond", .type = VI_COL_BOOL},   {"skip", .type = VI_COL_BOOL},
    {"match", .type = VI_COL_BOOL},
};

static const vi_field bfields[] = {
    {"k", VI_FIELD_INT, 0, 99, NULL}, {"pub", VI_FIELD_INT, 0, 99, NULL}, {NULL, 0, 0, 0, NULL}};

static int b_cell(const vi_table_spec *t, void *c_, const vi_table *tab, int row,
                  const char *path, char *err, size_t errlen) {
  (void)t, (void)path, (void)err, (void)errlen;
  bcell *c = c_;
  c->k = vi_table_int(tab, row, 0);
  c->want = vi_table_int(tab, row, 1);
  c->meas = c->want - (c->k == 1); /* row k = 1 does not match */
  c->done = 1;
  return 1;
}

static int b_extra(const vi_table_spec *t, void *cells, int max, char *err, size_t errlen) {
  (void)t, (void)err, (void)errlen;
  const bcell own[3] = {{10, 2, 2, 1, 0, 1}, {11, 4, 5, 1, 0, 1}, {12, 6, 0, 1, 1, 1}};
  if (max < 3) {
    return -1;
  }
  memcpy(cells, own, sizeof own);
  return 3;
}

static int b_done(const void *c) {
  return ((const bcell *)c)->done;
}

static int b_rows(const void *c_, vi_rows *R) {
  const bcell *c = c_;
  int r = vi_rows_add(R);
  if (r < 0 || vi_rows_text(R, r, "grp", "g") != 0) {
    return -1;
  }
  vi_rows_int(R, r, "k", c->k);
  vi_rows_bool(R, r, "beyond", c->beyond);
  vi_rows_bool(R, r, "skip", c->skip);
  vi_rows_bool(R, r, "match", !c->skip && c->want == c->meas);
  return 0;
}

static void test_table_beyond(vi_check_ctx *T) {
  char path[] = "/tmp/vi_test_beyond_XXXXXX";
  int fd = mkstemp(path);
  FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
  CHECK(f != NULL, "temporary table");
  if (!f) {
    return;
  }
  fprintf(f, "k,pub\n0,2\n1,4\n");
  fclose(f);
  const vi_table_spec spec = {.cell_size = sizeof(bcell),
                              .verdicts_per_cell = 1,
                              .fields = bfields,
                              .cell = b_cell,
                              .done = b_done,
                              .cols = bcols,
                              .ncols = (int)(sizeof bcols / sizeof bcols[0]),
                              .rows = b_rows,
                              .head = t_head,
                              .by = "grp",
                              .md = t_md,
                              .mismatch = t_mismatch,
                              .not_run = "skip",
                              .extra = b_extra,
                              .nextra = 3,
                              .beyond = "beyond",
                              .beyond_words = "agree"};
  const vi_study st = {"test-beyond", "beyond", vi_run_table, &spec, "", NULL, 1, 0};
  void *cells = NULL;
  int n = 0;
  char err[256] = "";
  CHECK(vi_table_cells(&spec, path, &cells, &n, err, sizeof err) == 0 && n == 5,
        "two published and three own cells: %d (%s)", n, err);
  unlink(path);
  if (n != 5) {
    free(cells);
    return;
  }
  const bcell *bc = cells;
  CHECK(bc[0].k == 0 && bc[1].k == 1 && bc[2].k == 10 && bc[4].k == 12,
        "the own cells after the published ones");
  vi_table_out out;
  CHECK(vi_table_render(&st, cells, n, &out, err, sizeof err) == 0, "rendered: %s", err);
  CHECK(out.matched == 1 && out.total == 2 && out.beyond_matched == 1 &&
            out.beyond_total == 2 && out.not_run == 1 && out.mismatches == 2,
        "published %d/%d, beyond %d/%d, not run %d, mismatches %d", out.matched, out.total,
        out.beyond_matched, out.beyond_total, out.not_run, out.mismatches);
  json_t *b = json_object_get(out.json, "beyond");
  json_t *g = json_object_get(json_object_get(out.json, "by_grp"), "g");
  CHECK(json_integer_value(json_object_get(b, "matched")) == 1 &&
            json_integer_value(json_object_get(b, "total")) == 2 &&
            json_integer_value(json_object_get(g, "total")) == 2 &&
            json_integer_value(json_object_get(out.json, "not_run")) == 1,
        "json: beyond counted apart, not in the breakdown");
  CHECK(out.lines && strcmp(out.lines, "  not run: k=12!\n  mismatch: k=1!\n"
                                       "  beyond the paper, disagrees: k=11!\n") == 0,
        "stdout: [%s]", out.lines);
  CHECK(out.md && strstr(out.md, "## Mismatches\n\n- k=1\n\n## Beyond the paper: "
                                 "disagreements\n\n- k=11\n") != NULL &&
            strstr(out.md, "## Not run\n\n- k=12\n") != NULL,
        "md: [%s]", out.md);
  vi_table_out_free(&out);
  free(cells);
}

/* The published-table reader's validation (published.h) on the cases
 * the e2e tests cannot reach with the real tables: a byte-order mark with
 * CRLF ends, a real column, a repeated column. Each bad table must be
 * refused with its line and column. */
static int load_text(const char *text, const vi_field *fields, vi_table *t, char *err,
                     size_t errlen) {
  char path[] = "/tmp/vi_test_pub_XXXXXX";
  int fd = mkstemp(path);
  FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (!f) {
    snprintf(err, errlen, "no temporary file");
    return -2;
  }
  fputs(text, f);
  fclose(f);
  int rc = vi_table_load(path, fields, t, err, errlen);
  unlink(path);
  return rc;
}

static void test_table_reader(vi_check_ctx *T) {
  static const vi_field fields[] = {{"k", VI_FIELD_INT, 1, 9, "d"},
                                    {"x", VI_FIELD_REAL, 0, 0, NULL},
                                    {"q", VI_FIELD_CHOICE, 0, 0, "gauss|lobatto"},
                                    {NULL, 0, 0, 0, NULL}};
  vi_table t;
  char err[512] = "";
  int rc = load_text("\xEF\xBB\xBFq,k,x\r\nlobatto,d,-2.385e-3\r\ngauss,7,1\r\n", fields,
                     &t, err, sizeof err);
  CHECK(rc == 0 && t.nrows == 2, "BOM and CRLF tolerated: %s", err);
  if (rc == 0) {
    CHECK(vi_table_int(&t, 0, 0) == -1 && vi_table_int(&t, 1, 0) == 7 &&
              vi_table_real(&t, 0, 1) == -2.385e-3 &&
              strcmp(vi_table_at(&t, 1, 2), "gauss") == 0,
          "the values read back by declared field");
    vi_table_free(&t);
  }
  static const char *const bad[][2] = {
      {"q,k,x\ngauss,1,1.5x\n", ":2: column x: '1.5x' is not a finite real number"},
      {"q,k,x\ngauss,1,inf\n", ":2: column x: 'inf' is not a finite real number"},
      {"q,k,x\ngauss,1, 2\n", ":2: column x: ' 2' is not a finite real number"},
      {"q,k,x\ngauss,1,2\ngauss,+3,2\n",
       ":3: column k: '+3' is neither an integer in 1..9"},
      {"q,k,x,k\ngauss,1,2,1\n", ":1: column k appears twice"},
      {"q,k,x\n\n", ": no data rows"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    err[0] = '\0';
    rc = load_text(bad[i][0], fields, &t, err, sizeof err);
    CHECK(rc == -1 && strstr(err, bad[i][1]) != NULL, "refused with '%s': %s", bad[i][1],
          err);
  }
  /* An optional column (the paper states nothing there) may be empty; a
   * required one may not, and an optional one's non-empty values are
   * still checked. */
  static const vi_field opt[] = {{"k", VI_FIELD_INT, 1, 9, NULL},
                                 {"o", VI_FIELD_INT | VI_FIELD_OPTIONAL, 1, 9, NULL},
                                 {NULL, 0, 0, 0, NULL}};
  rc = load_text("k,o\n1,\n2,3\n", opt, &t, err, sizeof err);
  CHECK(rc == 0 && t.nrows == 2, "an empty optional field accepted: %s", err);
  if (rc == 0) {
    CHECK(strcmp(vi_table_at(&t, 0, 1), "") == 0 && vi_table_int(&t, 0, 1) == -1 &&
              vi_table_int(&t, 1, 1) == 3,
          "an empty optional field reads back as \"\" (int -1)");
    vi_table_free(&t);
  }
  rc = load_text("k,o\n,3\n", opt, &t, err, sizeof err);
  CHECK(rc == -1 && strstr(err, ":2: column k: empty") != NULL, "a required field empty: %s",
        err);
  rc = load_text("k,o\n1,x\n", opt, &t, err, sizeof err);
  CHECK(rc == -1 && strstr(err, ":2: column o: 'x'") != NULL,
        "an optional field's value still checked: %s", err);
}

int main(void) {
  vi_check_ctx ctx = {0, 0};
  test_rows(&ctx);
  test_rows_columns(&ctx);
  test_table_render(&ctx);
  test_table_reader(&ctx);
  test_claims(&ctx);
  test_gp(&ctx);
  test_sweep(&ctx);
  test_table_size(&ctx);
  test_table_beyond(&ctx);
  return vi_check_done(&ctx, "studies");
}
