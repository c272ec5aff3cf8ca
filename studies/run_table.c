/* run_table.c: the table runner (study.h): published rows -> cells ->
 * order studies -> verdicts, resumable through the cell store, written by
 * the rules of outfile.h. */
#include "cells.h"
#include "report.h"
#include "study.h"

#include <stdio.h>
#include <stdlib.h>

int vi_run_table(const vi_study *s, const reproduce_opts *o) {
  const vi_table_spec *t = s->spec;
  char err[2 * VI_PATH_MAX + 256], path[VI_PATH_MAX + 64], note[VI_PATH_MAX + 256];
  char key[256], label[128], why[512];
  snprintf(path, sizeof path, "%s/%s", o->published_dir, s->published);
  void *cells = NULL;
  int n = 0;
  if (t->read(t, path, &cells, &n, err, sizeof err) != 0) {
    fprintf(stderr, "vistudy reproduce: %s\n", err);
    return VI_EXIT_FAIL;
  }
  char *base = cells;
#define CELL(k) ((void *)(base + (size_t)(k) * t->cell_size))
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
  int status = VI_EXIT_OK, matched = 0, total = 0;
  for (int k = 0; k < n; k++) {
    t->key(CELL(k), key, sizeof key);
    json_t *stored = vi_cells_get(&store, key);
    if (stored && t->restore(CELL(k), stored, why, sizeof why) != 0) {
      fprintf(stderr, "vistudy reproduce: %s: stored cell %s in %s is invalid (%s); recomputing "
              "it\n", s->id, key, store.path, why);
    }
    if (t->done(CELL(k))) {
      continue;
    }
    t->label(CELL(k), label, sizeof label);
    if (o->progress) {
      fprintf(stderr, "\r%s: cell %d/%d (%s)        ", s->id, k + 1, n, label);
    }
    if (t->measure(CELL(k), o, err, sizeof err) != 0) {
      fprintf(stderr, "\nvistudy reproduce: %s cell %s: %s\n", s->id, label, err);
      status = VI_EXIT_FAIL;
      break;
    }
    if (vi_cells_put(&store, key, t->stored(CELL(k)), err, sizeof err) != 0) {
      fprintf(stderr, "\nvistudy reproduce: %s: %s\n", s->id, err);
      status = VI_EXIT_FAIL;
      break;
    }
  }
  if (o->progress) {
    fputc('\n', stderr);
  }
  json_t *j = t->json(s, cells, n, &matched, &total);
  char *md = t->md(s, cells, n, matched, total);
  char *csv = t->csv(cells, n);
  int written = vi_study_write(o->results_dir, s->id, j, md, csv, err, sizeof err) == 0;
  if (!written) {
    fprintf(stderr, "vistudy reproduce: %s\n", err);
    status = VI_EXIT_FAIL;
  }
  if (status == VI_EXIT_OK && n == full) {
    vi_cells_finish(&store);
  }
  vi_cells_close(&store);
  printf("%s: matched %d/%d cells%s\n", s->id, matched, total,
         total < t->verdicts_per_cell * n ? " (incomplete: the study stopped early)" : "");
  int mism = t->mismatches(cells, n, stdout);
  if (written) {
    printf("  results: %s/%s.{md,csv,json}\n", o->results_dir, s->id);
  }
  json_decref(j);
  free(md);
  free(csv);
  free(cells);
#undef CELL
  if (status == VI_EXIT_OK && o->strict && mism > 0) {
    status = VI_EXIT_FAIL;
  }
  return status;
}
