/* emit.h: the row model of the studies (design.md "Studies are data";
 * in the manner of dav1d's muxer table): a table of named, typed columns
 * that a runner fills once and that one set of emitters writes as JSON
 * (an array of objects), CSV (RFC 4180) and Markdown (a chosen subset of
 * columns and rows). A cell not set, or a non-finite real, is null in JSON,
 * empty in CSV and "-" in Markdown, so a failed run is a row with its
 * status and no numbers rather than a missing row. */
#ifndef VI_EMIT_H
#define VI_EMIT_H

#include <jansson.h>
#include <stdio.h>

typedef enum vi_col_type { VI_COL_REAL = 0, VI_COL_INT = 1, VI_COL_TEXT = 2 } vi_col_type;

typedef struct vi_col {
  const char *name;  /* JSON key and CSV header */
  vi_col_type type;
  const char *title; /* Markdown header (NULL: name) */
  const char *fmt;   /* printf format of a real in Markdown (NULL: "%.4g") */
} vi_col;

typedef struct vi_cellv {
  double x;
  long i;
  char *s;
  int set;
} vi_cellv;

typedef struct vi_rows {
  const vi_col *cols;
  int ncol;
  int n, cap;
  vi_cellv *v; /* n x ncol */
} vi_rows;

void vi_rows_init(vi_rows *r, const vi_col *cols, int ncol);
void vi_rows_free(vi_rows *r);
/* Append a row with every cell unset: its index, or -1 (out of memory). */
int vi_rows_add(vi_rows *r);
/* The column named name, or -1. */
int vi_rows_col(const vi_rows *r, const char *name);
/* Set a cell by column name (a name not in the table is a programming
 * error: the call aborts). Text is copied; 0, or -1 out of memory. */
void vi_rows_real(vi_rows *r, int row, const char *name, double x);
void vi_rows_int(vi_rows *r, int row, const char *name, long i);
int vi_rows_text(vi_rows *r, int row, const char *name, const char *s);

/* Which rows an emitter writes: all when keep is NULL. */
typedef int (*vi_rows_keep)(const vi_rows *r, int row, void *ctx);

/* Array of objects, one per kept row, every column as a key. */
json_t *vi_rows_json(const vi_rows *r, vi_rows_keep keep, void *ctx);
/* Header and one line per kept row; text quoted when it holds a comma, a
 * quote or a line break (quotes doubled); reals with 17 significant
 * digits. Malloc'd, NULL when out of memory. */
char *vi_rows_csv(const vi_rows *r, vi_rows_keep keep, void *ctx);
/* A Markdown table of the named columns (NULL-terminated) of the kept
 * rows; '|' in text is escaped. */
void vi_rows_md(FILE *f, const vi_rows *r, const char *const *cols, vi_rows_keep keep,
                void *ctx);

#endif
