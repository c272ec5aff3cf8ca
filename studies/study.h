/* study.h: studies as data (design.md "Studies are data"). A study is an
 * entry of the registry (studies.def): its ID, title, the runner that
 * executes it, the runner's spec, the files it writes and the published
 * table it reads. A paper's file (studies/papers/) holds only its specs,
 * table layouts and claim predicates; the runners and the services (cell
 * store, timing, outputs, plots) are shared. */
#ifndef VI_STUDY_H
#define VI_STUDY_H

#include "cells.h"
#include "emit.h"
#include "outfile.h"
#include "published.h"
#include "vistudy.h"

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

/* The options of a reproduce run, which every runner reads. */
typedef struct reproduce_opts {
  const char *published_dir; /* ../shared/published or $VI_PUBLISHED_DIR */
  const char *results_dir;   /* results */
  const char *cache_dir;     /* reference cache, NULL for none */
  int fresh;                 /* ignore a partial run */
  int strict;                /* exit 1 on any mismatch */
  int progress;              /* vi_progress_mode on stderr (progress.h) */
  double progress_every;     /* VI_PROGRESS_LOG: seconds between lines */
  int max_cells;             /* > 0: only the first rows (tests) */
  int quick;                 /* figures: a reduced run (tests) */
  const char *skip;          /* --all: comma-separated IDs to leave out */
  int jobs;                  /* -j: threads for untimed cells; 0: one per CPU
                                this process may run on (its affinity mask) */
  struct vi_dist *dist;      /* the MPI ranks (dist.h), NULL for none */
  const char *costs;         /* --costs: the cost log (cells.h), or NULL */
} reproduce_opts;

/* The pool options of a run (cells.h). */
vi_pool_opts vi_pool_of(const reproduce_opts *o);

typedef struct vi_study vi_study;

/* A registry entry. */
struct vi_study {
  const char *id;
  const char *title;
  int (*run)(const vi_study *s, const reproduce_opts *o); /* VI_EXIT_* outcome */
  const void *spec;      /* the runner's spec (vi_table_spec for tables), or NULL */
  const char *outputs;   /* suffixes of every file written in the results directory */
  const char *published; /* the published table it reads, or NULL */
  int tabular;           /* reduced by --max-cells (a table); else by --quick */
  int timed;             /* run times are among its results (studies.def) */
};

/* The table runner (run_table.c): the rows of a published table become
 * cells; each is measured once (the cell store keeps the measurement, never
 * a verdict), judged against its published values on every run, written as
 * ID.{json,md,csv} and summarised as "matched N/M cells" with every
 * mismatch. A cell is cell_size bytes of the paper's own struct.
 *
 * What a paper declares: the published columns it reads and how a row
 * becomes a cell; how a cell is keyed, measured, stored and restored; the
 * columns of its verdicts (one row model, emit.h, for the JSON cells, the
 * CSV and the Markdown's tables of rows) and how a judged cell fills them;
 * the JSON keys that describe the study; its Markdown text and the paper's
 * arrangement of the cells (a pivot); the words of a mismatch. The runner
 * reads the published table and writes every output:
 *   JSON      {"id", the paper's keys, "cells": the rows, "matched",
 *             "total", and "by_<by>": {value: {"matched", "total"}}};
 *   CSV       the rows (the CSV columns of the row model);
 *   Markdown  the paper's part, then "## Mismatches" with one line per
 *             mismatch (or "None."), then the regenerate line if asked;
 *   stdout    "ID: matched N/M cells" and one line per mismatch. */
typedef struct vi_table_spec vi_table_spec;
struct vi_table_spec {
  const char *config;     /* what determines the cells besides the code (cells.h) */
  const char *caption;    /* the title of the results (NULL: the study's title) */
  const char *subset;     /* which rows of the published file (the cell
                             hook reads it; NULL: all) */
  size_t cell_size;
  int verdicts_per_cell;  /* judged quantities per cell: rows per judged cell */
  /* The published table (judging needs its values): every column of the
   * file with its type (published.h: the reader validates every field
   * before a row becomes a cell), and one valid row made a cell (zeroed
   * before; field i of the row is vi_table_at(tab, row, i)): 1, 0 when the
   * row is not of this study (subset), or -1 with "path:line: reason" in
   * err (a row that names no valid method). */
  const vi_field *fields;
  int (*cell)(const vi_table_spec *t, void *cell, const vi_table *tab, int row,
              const char *path, char *err, size_t errlen);
  /* The key of a cell in the store, and a short label for progress. */
  void (*key)(const void *cell, char *buf, size_t len);
  void (*label)(const void *cell, char *buf, size_t len);
  int (*done)(const void *cell);
  /* Measure a cell and judge it (0, or -1 with the reason). */
  int (*measure)(void *cell, const reproduce_opts *o, char *err, size_t errlen);
  /* The measurement as stored, and a stored one restored and judged (-1
   * with the reason when it is not a valid measurement of this cell). */
  json_t *(*stored)(const void *cell);
  int (*restore)(void *cell, json_t *v, char *why, size_t whylen);

  /* The layout. The columns of a verdict's row; one named "match"
   * (VI_COL_BOOL or VI_COL_INT) holds the verdict. */
  const vi_col *cols;
  int ncols;
  /* Append the verdicts_per_cell rows of a judged cell; 0, or -1 out of
   * memory. */
  int (*rows)(const void *cell, vi_rows *R);
  /* The JSON keys after "id", before "cells" (a new object; NULL: none). */
  json_t *(*head)(const vi_study *s);
  /* A text column whose values break the verdicts down in the JSON
   * ("by_<by>"), or NULL. */
  const char *by;
  /* The Markdown before the mismatches: title, text, the paper's
   * arrangement of the cells, tables of the rows (vi_rows_md). */
  void (*md)(FILE *f, const vi_study *s, const void *cells, int n, const vi_rows *R,
             int matched, int total);
  /* The words of the mismatch in row R: on standard output (md = 0, after
   * "  mismatch: ") or in the Markdown list (md = 1, after "- "); the
   * runner ends the line. */
  void (*mismatch)(FILE *f, const vi_rows *R, int row, int md);
  /* A VI_COL_BOOL column (or NULL: every row was run) that is true in a
   * row that was not run (a published row whose method does not exist):
   * such a row is neither matched nor counted in the total; it is counted
   * as "not_run" in the JSON, listed under "## Not run" in the Markdown
   * and after "  not run: " on standard output, in the words of mismatch,
   * which say why. */
  const char *not_run;
  int regenerate; /* the Markdown ends with "Regenerate with `vistudy reproduce ID`." */
  /* Rows beyond the paper (all NULL/0: none). extra appends the study's
   * own cells after those of the published table: at most nextra of them
   * into cells (each zeroed before); their number, or -1 with the reason
   * in err. A cell of its own is judged by the study against what it
   * states (e.g. the family's declared orders), never against a published
   * value; its rows have the VI_COL_BOOL column beyond true, and are
   * counted apart from matched/total: "beyond" {"matched", "total"} in the
   * JSON, "; beyond the paper: N/M <beyond_words>" on the summary line,
   * each row without a match after "  beyond the paper, disagrees: " on
   * standard output and under "## Beyond the paper: disagreements" in the
   * Markdown, in the words of mismatch (and, as a mismatch, failing
   * --strict). --max-cells keeps the first cells,
   * the published ones first. A row both beyond and not run is not run. */
  int (*extra)(const vi_table_spec *t, void *cells, int max, char *err, size_t errlen);
  int nextra;
  const char *beyond;
  const char *beyond_words; /* "agree with ..." */
  /* Files beside ID.{json,md,csv} (figures drawn from the judged cells,
   * each suffix listed in the study's outputs), staged into the same set,
   * so that every result is replaced together (outfile.h): 0, or -1 with
   * the reason in err. NULL: none. */
  int (*stage)(const vi_study *s, const void *cells, int n, vi_outset *set,
               const char *dir, char *err, size_t errlen);
};

int vi_run_table(const vi_study *s, const reproduce_opts *o);

/* The cells of a table study from its published table at path (the spec's
 * columns and cell hook): 0, or -1 with the reason in err (an invalid
 * table, or one without a row of this study). */
int vi_table_cells(const vi_table_spec *t, const char *path, void **cells, int *n,
                   char *err, size_t errlen);

/* The published table of study s (a table study) in dir read and
 * validated, as its run will read it: 0, or -1 with the reason in err.
 * For the checks before any study starts. */
int vi_table_check(const vi_study *s, const char *dir, char *err, size_t errlen);

/* The canonical spec of the method spec ("galerkin:s=2,..." as an order
 * study's result names it) into canon: 0, or -1 with the family's reason
 * in err (unknown family or key, a value out of range). For checking a
 * published row, and a stored cell's method, without running anything. */
int vi_study_method(const char *spec, char *canon, size_t len, char *err, size_t errlen);

/* A published row's method: 0 when the family accepts spec, else -1 with
 * "PATH:LINE: SPEC: the family's reason" in err, before any cell runs. */
int vi_table_row_method(const char *path, int line, const char *spec, char *err,
                        size_t errlen);

/* The order study of a cell as the table studies run it (and the order
 * validation): the caller's system, method, T and measure in a, to which
 * this adds the built-in Newton solver, the run's reference cache and the
 * CPU clock (timing.h); precision VI_DOUBLE, VI_QUAD or VI_PRECISION_AUTO
 * (vi_order_run). The result (free it), or NULL with the reason in err. */
vi_order_result *vi_table_order(vi_order_config *a, int precision,
                                const reproduce_opts *o, char *err, size_t errlen);

/* The distinct values of an int member of the cells (at byte offset off
 * in each cell of size bytes), in the order they first appear, at most
 * max of them in out; their number. For the papers' arrangements. */
int vi_table_distinct(const void *cells, int n, size_t size, size_t off, int *out,
                      int max);

/* The caption of a table study's results: its spec's, else its title. */
const char *vi_table_caption(const vi_study *s);

/* Everything the runner writes for the judged cells (done) among cells[0..n-1]. */
typedef struct vi_table_out {
  json_t *json;
  char *md, *csv;
  char *lines; /* the mismatch lines of standard output */
  int matched, total, mismatches;
  int not_run; /* rows not run (vi_table_spec.not_run), outside total */
  int beyond_matched, beyond_total; /* rows beyond the paper (vi_table_spec.beyond) */
} vi_table_out;

/* 0, or -1 with the reason in err (out of memory); out is filled either
 * way and freed by vi_table_out_free. */
int vi_table_render(const vi_study *s, const void *cells, int n, vi_table_out *out,
                    char *err, size_t errlen);
void vi_table_out_free(vi_table_out *out);

/* The specs of the papers are declared from the registry (specs.h). */

#endif
