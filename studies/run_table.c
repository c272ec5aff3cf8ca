/* run_table.c: the table runner (study.h): published rows -> cells ->
 * order studies -> verdicts, resumable through the cell store, written by
 * the rules of outfile.h. Every output of a table study is written here
 * from the paper's row model (emit.h): the paper declares its columns, its
 * JSON keys, its Markdown text and arrangement, and the words of a
 * mismatch; the runner builds the rows of the judged cells and writes the
 * JSON, the CSV, the Markdown's mismatch list and the summary. */
#include "cells.h"
#include "options.h"
#include "report.h"
#include "spec.h"
#include "study.h"
#include "timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int vi_table_cells(const vi_table_spec *t, const char *path, void **cells, int *n,
                   char *err, size_t errlen) {
  vi_table tab;
  if (vi_table_load(path, t->fields, &tab, err, errlen) != 0) {
    return -1;
  }
  const int nextra = t->extra ? t->nextra : 0;
  char *c = calloc((size_t)(tab.nrows + nextra), t->cell_size);
  int k = 0, rc = c ? 0 : -1;
  if (!c) {
    snprintf(err, errlen, "out of memory");
  }
  for (int r = 0; rc >= 0 && r < tab.nrows; r++) {
    char *x = c + (size_t)k * t->cell_size;
    rc = t->cell(t, x, &tab, r, path, err, errlen);
    if (rc > 0) {
      k++;
    } else {
      memset(x, 0, t->cell_size); /* a row left out leaves no trace */
    }
  }
  vi_table_free(&tab);
  if (rc >= 0 && k > 0 && nextra > 0) {
    /* The study's own cells, beyond the paper, after the published ones. */
    const int e = t->extra(t, c + (size_t)k * t->cell_size, nextra, err, errlen);
    rc = e < 0 || e > nextra ? -1 : 0;
    k += rc == 0 ? e : 0;
  }
  if (rc >= 0 && k == 0) {
    snprintf(err, errlen, "%s: no data row for this study%s%s%s", path,
             t->subset ? " (its rows are marked '" : "", t->subset ? t->subset : "",
             t->subset ? "')" : "");
    rc = -1;
  }
  if (rc < 0) {
    free(c);
    return -1;
  }
  *cells = c;
  *n = k;
  return 0;
}

int vi_table_check(const vi_study *s, const char *dir, char *err, size_t errlen) {
  char path[VI_PATH_MAX + 64];
  snprintf(path, sizeof path, "%s/%s", dir, s->published);
  void *cells = NULL;
  int n = 0;
  if (vi_table_cells(s->spec, path, &cells, &n, err, errlen) != 0) {
    return -1;
  }
  free(cells);
  return 0;
}

int vi_study_method(const char *spec, char *canon, size_t len, char *err, size_t errlen) {
  char name[64];
  const char *kv = vi_spec_split(spec, name, sizeof name);
  const vi_method_type_d *mt = vi_method_find_d(name, err, errlen);
  _Alignas(16) char opts[256];
  if (!mt) {
    return -1;
  }
  if (mt->opts_size > sizeof opts) {
    snprintf(err, errlen, "options of method %s exceed %zu bytes", name, sizeof opts);
    return -1;
  }
  vi_opts_defaults(mt->options, opts);
  const vi_opts_family fam = {mt->check, mt->opts_size};
  if (vi_opts_parse(mt->name, mt->options, opts, kv, &fam, err, errlen) != VI_OK ||
      (mt->check && mt->check(opts, err, errlen) != 0)) {
    return -1;
  }
  vi_opts_format(mt->name, mt->options, opts, canon, len);
  return 0;
}

int vi_table_row_method(const char *path, int line, const char *spec, char *err,
                        size_t errlen) {
  char canon[256], why[256];
  if (vi_study_method(spec, canon, sizeof canon, why, sizeof why) != 0) {
    snprintf(err, errlen, "%s:%d: %s: %s", path, line, spec, why);
    return -1;
  }
  return 0;
}

vi_order_result *vi_table_order(vi_order_config *a, int precision,
                                const reproduce_opts *o, char *err, size_t errlen) {
  a->solver.kind = VI_SOLVER_AUTO;
  a->cache_dir = o->cache_dir;
  a->clock = vi_cpu_clock;
  vi_order_result *r = calloc(1, sizeof *r);
  if (!r) {
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  if (vi_order_run(a, precision, r, err, errlen) != VI_OK) {
    free(r);
    return NULL;
  }
  return r;
}

int vi_table_distinct(const void *cells, int n, size_t size, size_t off, int *out,
                      int max) {
  int k = 0;
  for (int i = 0; i < n; i++) {
    int v;
    memcpy(&v, (const char *)cells + (size_t)i * size + off, sizeof v);
    int seen = 0;
    for (int j = 0; j < k; j++) {
      seen |= out[j] == v;
    }
    if (!seen && k < max) {
      out[k++] = v;
    }
  }
  return k;
}

const char *vi_table_caption(const vi_study *s) {
  const vi_table_spec *t = s->spec;
  return t->caption ? t->caption : s->title;
}

/* Whether row r was not run (vi_table_spec.not_run). */
static int row_not_run(const vi_table_spec *t, const vi_rows *R, int r) {
  return t->not_run && vi_rows_get_int(R, r, t->not_run) != 0;
}

/* Whether row r is beyond the paper (vi_table_spec.beyond) and run. */
static int row_beyond(const vi_table_spec *t, const vi_rows *R, int r) {
  return t->beyond && !row_not_run(t, R, r) && vi_rows_get_int(R, r, t->beyond) != 0;
}

/* The verdicts broken down by the values of the text column by, in the
 * order they first appear: {value: {"matched", "total"}}; rows not run
 * are left out. */
static json_t *breakdown(const vi_table_spec *t, const vi_rows *R, const char *by) {
  json_t *o = json_object();
  for (int r = 0; o && r < R->n; r++) {
    if (row_not_run(t, R, r) || row_beyond(t, R, r)) {
      continue;
    }
    const char *v = vi_rows_get_text(R, r, by);
    json_t *b = json_object_get(o, v);
    if (!b) {
      b = json_pack("{s:i, s:i}", "matched", 0, "total", 0);
      json_object_set_new(o, v, b);
    }
    json_object_set_new(
        b, "total", json_integer(json_integer_value(json_object_get(b, "total")) + 1));
    json_object_set_new(b, "matched",
                        json_integer(json_integer_value(json_object_get(b, "matched")) +
                                     (vi_rows_get_int(R, r, "match") != 0)));
  }
  return o;
}

static json_t *table_json(const vi_study *s, const vi_rows *R, const vi_table_out *out) {
  const int matched = out->matched, total = out->total, not_run = out->not_run;
  const vi_table_spec *t = s->spec;
  json_t *j = json_pack("{s:s}", "id", s->id);
  json_t *head = t->head ? t->head(s) : json_object();
  if (!j || !head || json_object_update(j, head) != 0 ||
      json_object_set_new(j, "cells", vi_rows_json(R, NULL, NULL)) != 0 ||
      json_object_set_new(j, "matched", json_integer(matched)) != 0 ||
      json_object_set_new(j, "total", json_integer(total)) != 0 ||
      (t->not_run && json_object_set_new(j, "not_run", json_integer(not_run)) != 0) ||
      (t->beyond &&
       json_object_set_new(j, "beyond", json_pack("{s:i, s:i}", "matched", out->beyond_matched,
                                                  "total", out->beyond_total)) != 0)) {
    json_decref(head);
    json_decref(j);
    return NULL;
  }
  json_decref(head);
  if (t->by) {
    char key[64];
    snprintf(key, sizeof key, "by_%s", t->by);
    if (json_object_set_new(j, key, breakdown(t, R, t->by)) != 0) {
      json_decref(j);
      return NULL;
    }
  }
  return j;
}

/* The mismatch lines of one form (md: the Markdown list; else standard
 * output) of the published rows (which = 0), of the rows not run (1) or
 * of the rows beyond the paper (2); the count. */
static int mismatch_lines(const vi_table_spec *t, const vi_rows *R, int md, int which,
                          FILE *f) {
  static const char *const lead[] = {"  mismatch: ", "  not run: ",
                                     "  beyond the paper, disagrees: "};
  int k = 0;
  for (int r = 0; r < R->n; r++) {
    const int skipped = row_not_run(t, R, r), beyond = row_beyond(t, R, r);
    const int wrong = !skipped && !vi_rows_get_int(R, r, "match");
    if (which == 1 ? skipped : which == 2 ? beyond && wrong : !beyond && wrong) {
      fputs(md ? "- " : lead[which], f);
      t->mismatch(f, R, r, md);
      fputc('\n', f);
      k++;
    }
  }
  return k;
}

static char *table_md(const vi_study *s, const void *cells, int n, const vi_rows *R,
                      int matched, int total) {
  const vi_table_spec *t = s->spec;
  vi_text text;
  FILE *f = vi_text_open(&text);
  if (f) {
    t->md(f, s, cells, n, R, matched, total);
    if (t->not_run) {
      fputs("## Not run\n\n", f);
      if (mismatch_lines(t, R, 1, 1, f) == 0) {
        fputs("None.\n", f);
      }
      fputc('\n', f);
    }
    fputs("## Mismatches\n\n", f);
    if (mismatch_lines(t, R, 1, 0, f) == 0) {
      fputs("None.\n", f);
    }
    if (t->beyond) {
      fputs("\n## Beyond the paper: disagreements\n\n", f);
      if (mismatch_lines(t, R, 1, 2, f) == 0) {
        fputs("None.\n", f);
      }
    }
    if (t->regenerate) {
      fprintf(f, "\nRegenerate with `vistudy reproduce %s`.\n", s->id);
    }
  }
  return vi_text_close(&text);
}

int vi_table_render(const vi_study *s, const void *cells, int n, vi_table_out *out,
                    char *err, size_t errlen) {
  const vi_table_spec *t = s->spec;
  const char *base = cells;
  memset(out, 0, sizeof *out);
  vi_rows R;
  vi_rows_init(&R, t->cols, t->ncols);
  int rc = 0;
  for (int k = 0; rc == 0 && k < n; k++) {
    const void *c = base + (size_t)k * t->cell_size;
    if (t->done(c)) {
      rc = t->rows(c, &R);
    }
  }
  for (int r = 0; rc == 0 && r < R.n; r++) {
    if (row_not_run(t, &R, r)) {
      out->not_run++;
    } else if (row_beyond(t, &R, r)) {
      out->beyond_matched += vi_rows_get_int(&R, r, "match") != 0;
      out->beyond_total++;
    } else {
      out->matched += vi_rows_get_int(&R, r, "match") != 0;
      out->total++;
    }
  }
  vi_text lines;
  FILE *f = rc == 0 ? vi_text_open(&lines) : NULL;
  if (f) {
    mismatch_lines(t, &R, 0, 1, f);
    out->mismatches = mismatch_lines(t, &R, 0, 0, f);
    out->mismatches += t->beyond ? mismatch_lines(t, &R, 0, 2, f) : 0;
  }
  out->lines = f ? vi_text_close(&lines) : NULL;
  if (rc == 0) {
    out->json = table_json(s, &R, out);
    out->md = table_md(s, cells, n, &R, out->matched, out->total);
    out->csv = vi_rows_csv(&R, NULL, NULL);
  }
  vi_rows_free(&R);
  if (!out->json || !out->md || !out->csv || !out->lines) {
    snprintf(err, errlen, "%s: out of memory writing the results", s->id);
    return -1;
  }
  return 0;
}

void vi_table_out_free(vi_table_out *out) {
  json_decref(out->json);
  free(out->md);
  free(out->csv);
  free(out->lines);
  memset(out, 0, sizeof *out);
}

/* The measuring loop's view of a table spec (cells.h). */
typedef struct table_ctx {
  const vi_table_spec *t;
  const reproduce_opts *o;
} table_ctx;

static int table_measure(void *c, const void *ctx, char *err, size_t errlen) {
  const table_ctx *x = ctx;
  return x->t->measure(c, x->o, err, errlen);
}

int vi_run_table(const vi_study *s, const reproduce_opts *o) {
  const vi_table_spec *t = s->spec;
  char err[2 * VI_PATH_MAX + 256], path[VI_PATH_MAX + 64], note[VI_PATH_MAX + 256];
  snprintf(path, sizeof path, "%s/%s", o->published_dir, s->published);
  void *cells = NULL;
  int n = 0;
  if (vi_table_cells(t, path, &cells, &n, err, sizeof err) != 0) {
    fprintf(stderr, "vistudy reproduce: %s\n", err);
    return VI_EXIT_FAIL;
  }
  /* A reduced run (--max-cells) keeps its store, so that a longer reduced
   * run resumes from it. */
  const int full = n;
  if (o->max_cells > 0 && o->max_cells < n) {
    n = o->max_cells;
  }
  vi_cells store;
  if (vi_cells_open(&store, o->results_dir, s->id, t->config, o->fresh, note, sizeof note, err,
                    sizeof err) != 0) {
    fprintf(stderr, "vistudy reproduce: %s\n", err);
    free(cells);
    return VI_EXIT_FAIL;
  }
  if (note[0]) {
    fprintf(stderr, "vistudy reproduce: %s: %s\n", s->id, note);
  }
  const vi_cells_unit unit = {"cell",     t->cell_size, t->key,        t->label,
                              t->restore, t->done,      table_measure, t->stored,
                              NULL,       NULL};
  const table_ctx ctx = {t, o};
  const vi_pool_opts po = vi_pool_of(o);
  int status = vi_cells_measure_pool(&store, &unit, cells, n, &ctx, s->id, &po) == 0
                   ? VI_EXIT_OK
                   : VI_EXIT_FAIL;
  vi_table_out out;
  int rendered = vi_table_render(s, cells, n, &out, err, sizeof err) == 0;
  /* A study that stopped early replaces no result file: its measured
   * cells wait in the store for a rerun to resume (outfile.h). */
  int written = 0;
  if (rendered && status == VI_EXIT_OK) {
    vi_outset set;
    vi_outset_init(&set);
    written = vi_study_stage(&set, o->results_dir, s->id, out.json, out.md, out.csv, err,
                             sizeof err) == 0 &&
              (!t->stage || t->stage(s, cells, n, &set, o->results_dir, err, sizeof err) == 0);
    if (!written) {
      vi_outset_abort(&set);
    } else {
      written = vi_outset_commit(&set, err, sizeof err) == 0;
    }
  }
  if (status != VI_EXIT_OK) {
    vi_study_stopped(s->id, "measured cells");
  } else if (!written) {
    fprintf(stderr, "vistudy reproduce: %s\n", err);
    status = VI_EXIT_FAIL;
  }
  if (status == VI_EXIT_OK && n == full) {
    vi_cells_finish(&store);
  }
  vi_cells_close(&store);
  char skipped[64] = "", beyond[256] = "";
  if (out.not_run > 0) {
    snprintf(skipped, sizeof skipped, ", %d not run", out.not_run);
  }
  if (t->beyond && out.beyond_total + out.not_run > 0) {
    snprintf(beyond, sizeof beyond, "; beyond the paper: %d/%d %s", out.beyond_matched,
             out.beyond_total, t->beyond_words ? t->beyond_words : "agree");
  }
  printf("%s: matched %d/%d cells%s%s%s\n", s->id, out.matched, out.total, skipped, beyond,
         out.total + out.beyond_total + out.not_run < t->verdicts_per_cell * n
             ? " (incomplete: the study stopped early)"
             : "");
  fputs(out.lines ? out.lines : "", stdout);
  if (written) {
    printf("  results: %s/%s.{md,csv,json}\n", o->results_dir, s->id);
  }
  if (status == VI_EXIT_OK && o->strict && out.mismatches > 0) {
    status = VI_EXIT_FAIL;
  }
  vi_table_out_free(&out);
  free(cells);
  return status;
}
