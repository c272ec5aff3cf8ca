/* study.h: studies as data (design.md "Studies are data"). A study is an
 * entry of the registry (studies.def): its ID, title, the runner that
 * executes it, the runner's spec, the files it writes and the published
 * table it reads. A paper's file (studies/papers/) holds only its specs,
 * table layouts and claim predicates; the runners and the services (cell
 * store, timing, outputs, plots) are shared. */
#ifndef VI_STUDY_H
#define VI_STUDY_H

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
  int progress;              /* progress on stderr */
  int max_cells;             /* > 0: only the first rows (tests) */
  int quick;                 /* figures: a reduced run (tests) */
  const char *skip;          /* --all: comma-separated IDs to leave out */
} reproduce_opts;

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
};

/* The table runner (run_table.c): the rows of a published table become
 * cells; each is measured once (the cell store keeps the measurement, never
 * a verdict), judged against its published values on every run, written as
 * ID.{json,md,csv} and summarised as "matched N/M cells" with every
 * mismatch. The paper's file supplies the layout through these hooks; a
 * cell is cell_size bytes. */
typedef struct vi_table_spec vi_table_spec;
struct vi_table_spec {
  const char *config;     /* what determines the cells besides the code (cells.h) */
  const char *caption;    /* the title of the results (NULL: the study's title) */
  const char *subset;     /* which rows of the published file (the paper's
                             file reads it; NULL: all) */
  size_t cell_size;
  int verdicts_per_cell;  /* judged quantities per cell */
  /* The cells of the published table at path (judging needs its values). */
  int (*read)(const vi_table_spec *t, const char *path, void **cells, int *n, char *err,
              size_t errlen);
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
  /* The layout: results as JSON (counting the verdicts), Markdown, CSV. */
  json_t *(*json)(const vi_study *s, const void *cells, int n, int *matched, int *total);
  char *(*md)(const vi_study *s, const void *cells, int n, int matched, int total);
  char *(*csv)(const void *cells, int n);
  /* Print one line per mismatch of the judged cells; the count. */
  int (*mismatches)(const void *cells, int n, FILE *f);
};

int vi_run_table(const vi_study *s, const reproduce_opts *o);

/* The specs of the papers are declared from the registry (specs.h). */

#endif
