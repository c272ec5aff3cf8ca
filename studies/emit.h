/* emit.h: the row model of the studies (design.md "Studies are data";
 * in the manner of dav1d's muxer table): a table of named, typed columns
 * that a study fills once and that one set of emitters writes as JSON
 * (an array of objects), CSV (RFC 4180) and Markdown (a chosen subset of
 * columns and rows). A cell not set, or a non-finite real, is null in JSON,
 * empty in CSV and "-" in Markdown, so a failed run is a row with its
 * status and no numbers rather than a missing row.
 *
 * A column names its JSON key and CSV header once; where the two outputs
 * differ (a CSV that keeps the label of a fitted order where the JSON
 * keeps the number, a JSON-only array) the column says so in its flags,
 * its CSV header and its CSV format, so the layout of every output stays
 * in the one column table. */
#ifndef VI_EMIT_H
#define VI_EMIT_H

#include <jansson.h>
#include <stdio.h>

typedef enum vi_col_type {
  VI_COL_REAL = 0,
  VI_COL_INT = 1,
  VI_COL_TEXT = 2,
  VI_COL_BOOL = 3, /* JSON true/false; 0/1 in CSV and Markdown */
  VI_COL_ANY = 4,  /* each cell a real, an integer or a text as set (a
                      fitted order, or its label where there is none) */
  VI_COL_JSON = 5  /* a JSON value built by the study (an array of two
                      reals, say); JSON only: never in CSV or Markdown */
} vi_col_type;

/* Flags of a column. */
enum {
  VI_COL_NOJSON = 1, /* not in the JSON objects */
  VI_COL_NOCSV = 2,  /* not in the CSV */
  VI_COL_QUOTED = 4  /* text always quoted in the CSV (else only when it
                        holds a comma, a quote or a line break) */
};

typedef struct vi_col {
  const char *name; /* JSON key, CSV header, the name the setters use */
  vi_col_type type;
  const char *title;   /* Markdown header (NULL: name) */
  const char *fmt;     /* printf format of a real in Markdown (NULL: "%.4g") */
  const char *csv;     /* CSV header (NULL: name) */
  const char *csv_fmt; /* printf format of a real in CSV (NULL: "%.17g") */
  int flags;           /* VI_COL_NOJSON | VI_COL_NOCSV | VI_COL_QUOTED */
} vi_col;

typedef struct vi_cellv {
  double x;
  long i;
  char *s;
  json_t *j;
  vi_col_type kind; /* what the cell holds (the column's type unless VI_COL_ANY) */
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
 * error: the call aborts). Text is copied; 0, or -1 out of memory.
 * vi_rows_json_value takes the reference (NULL: out of memory, -1). */
void vi_rows_real(vi_rows *r, int row, const char *name, double x);
void vi_rows_int(vi_rows *r, int row, const char *name, long i);
void vi_rows_bool(vi_rows *r, int row, const char *name, int b);
int vi_rows_text(vi_rows *r, int row, const char *name, const char *s);
int vi_rows_json_value(vi_rows *r, int row, const char *name, json_t *v);
/* A VI_COL_ANY cell: x where it is finite, else the text (a fitted order,
 * else its label: "d", "plateau", ...). 0, or -1 out of memory. */
int vi_rows_real_or_text(vi_rows *r, int row, const char *name, double x, const char *s);

/* Read a cell back (the studies' verdict lines): the text ("" when unset),
 * the integer or boolean (0 when unset), the real (NaN when unset); an
 * unknown column aborts, as for the setters. */
const char *vi_rows_get_text(const vi_rows *r, int row, const char *name);
long vi_rows_get_int(const vi_rows *r, int row, const char *name);
double vi_rows_get_real(const vi_rows *r, int row, const char *name);
/* The cell as the Markdown shows it (unset: "-"), in buf; returns buf. */
const char *vi_rows_str(const vi_rows *r, int row, const char *name, char *buf,
                        size_t len);

/* A text written through a stream: f = vi_text_open(&t) (NULL out of
 * memory), fprintf to f, then vi_text_close(&t) gives the malloc'd text,
 * or NULL (out of memory, or f was NULL). */
typedef struct vi_text {
  FILE *f;
  char *buf;
  size_t len;
} vi_text;
FILE *vi_text_open(vi_text *t);
char *vi_text_close(vi_text *t);

/* Which rows an emitter writes: all when keep is NULL. */
typedef int (*vi_rows_keep)(const vi_rows *r, int row, void *ctx);

/* Array of objects, one per kept row, every JSON column as a key. */
json_t *vi_rows_json(const vi_rows *r, vi_rows_keep keep, void *ctx);
/* Header and one line per kept row, the CSV columns; text quoted when it
 * holds a comma, a quote or a line break (quotes doubled), or always
 * (VI_COL_QUOTED); reals with 17 significant digits unless the column
 * names a format. Malloc'd, NULL when out of memory. */
char *vi_rows_csv(const vi_rows *r, vi_rows_keep keep, void *ctx);
/* A Markdown table of the named columns (NULL-terminated) of the kept
 * rows; '|' in text is escaped. */
void vi_rows_md(FILE *f, const vi_rows *r, const char *const *cols, vi_rows_keep keep,
                void *ctx);

#endif
