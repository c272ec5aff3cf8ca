/* published.h: one reader of the published tables (../shared/published,
 * studies/published), with one validation, run before any work. A study
 * declares every column of its table with a type (vi_field); the reader
 * checks the header (every declared column once, no other) and every field
 * of every row against its type, so a study reads only valid values. Each
 * error names the file, the line, the column and the valid choices; a table
 * without data rows is an error. CSV with a header row; fields are plain
 * (the tables quote nothing); a UTF-8 byte-order mark and CRLF line ends
 * are tolerated. */
#ifndef VI_PUBLISHED_H
#define VI_PUBLISHED_H

#include <stddef.h>

/* The type of a published column; every field is required (non-empty)
 * unless its column is optional. */
typedef enum vi_field_type {
  VI_FIELD_INT = 0,    /* an integer in lo..hi (digits only), or one of
                          the words of choices (e.g. "d": divergent) */
  VI_FIELD_REAL = 1,   /* a finite real number, the whole field */
  VI_FIELD_CHOICE = 2, /* one of choices */
  VI_FIELD_TEXT = 3,   /* free text (a source note) */
  /* Or'ed with a type: the column is optional, a field may be empty (the
   * paper states nothing there; vi_table_at gives "", vi_table_int -1). */
  VI_FIELD_OPTIONAL = 16
} vi_field_type;

/* A declared column; an array of them ends with name == NULL. */
typedef struct vi_field {
  const char *name;
  int type;            /* vi_field_type, possibly | VI_FIELD_OPTIONAL */
  int lo, hi;          /* VI_FIELD_INT */
  const char *choices; /* "gauss|lobatto"; for VI_FIELD_INT words allowed
                          besides the integers (NULL: none) */
} vi_field;

/* The maximum number of declared columns. */
#define VI_TABLE_MAXCOLS 32

typedef struct vi_table {
  int nrows, ncols;
  char **head;               /* ncols names */
  char **field;              /* nrows x ncols, row-major */
  char *text;                /* the file, split in place */
  int *line;                 /* the file's line number of each row */
  int col[VI_TABLE_MAXCOLS]; /* file column of each declared field */
} vi_table;

/* Read and validate the table at path against fields (every column
 * declared, every field valid, at least one data row). 0, or -1 with
 * "path:line: column name: reason (valid: ...)" in err. */
int vi_table_load(const char *path, const vi_field *fields, vi_table *t, char *err,
                  size_t errlen);
void vi_table_free(vi_table *t);

/* The text of declared field f in data row row (0-based) of a loaded
 * table. */
const char *vi_table_at(const vi_table *t, int row, int f);

/* A VI_FIELD_INT field as an integer; -1 for a word of its choices. */
int vi_table_int(const vi_table *t, int row, int f);

/* A VI_FIELD_REAL field. */
double vi_table_real(const vi_table *t, int row, int f);

/* The match rule of a published order: measured is finite and, rounded to
 * the nearest integer (even: to the nearest even integer; halves away
 * from zero), equals published. Defined for every double. */
int vi_published_order_match(double measured, int published, int even);

#endif
