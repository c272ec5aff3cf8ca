/* published.h: one reader of the published tables (../shared/published,
 * studies/published): CSV with a header row, fields found by column name,
 * so a study names the columns it needs and a table with one missing, a
 * short row or an unreadable number is an error with the file and line,
 * never a silently skipped row (review §3: two sscanf readers with a
 * 128-row cap). Fields are plain (the tables quote nothing). */
#ifndef VI_PUBLISHED_H
#define VI_PUBLISHED_H

#include <stddef.h>

typedef struct vi_table {
  int nrows, ncols;
  char **head;  /* ncols names */
  char **field; /* nrows x ncols, row-major */
  char *text;   /* the file, split in place */
} vi_table;

/* Read path; every row must have the header's number of fields. 0, or -1
 * with "path:line: reason" in err. */
int vi_table_read(const char *path, vi_table *t, char *err, size_t errlen);
void vi_table_free(vi_table *t);

/* Index of column name, or -1 with the file's columns in err. */
int vi_table_col(const vi_table *t, const char *name, const char *path, char *err,
                 size_t errlen);

/* Field (row, col). */
const char *vi_table_at(const vi_table *t, int row, int col);

/* The field as an integer; -1 with "path:line: column name: 'text' is
 * not an integer" in err. */
int vi_table_int(const vi_table *t, int row, int col, const char *path, int *out,
                 char *err, size_t errlen);

/* The field copied into buf (len bytes with its terminator); -1 with
 * "path:line: column name: 'text' is too long" in err. */
int vi_table_text(const vi_table *t, int row, int col, const char *path, char *buf,
                  size_t len, char *err, size_t errlen);

#endif
