/* published.c: the reader of the published tables (published.h). */
#include "published.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void vi_table_free(vi_table *t) {
  free(t->head);
  free(t->field);
  free(t->text);
  memset(t, 0, sizeof *t);
}

/* The number of fields of line; with out non-NULL also split it in place
 * at the commas into at most max fields. */
static int split(char *line, char **out, int max) {
  int k = 0;
  char *c = line;
  for (;;) {
    if (out != NULL && k < max) {
      out[k] = c;
    }
    k++;
    char *comma = strchr(c, ',');
    if (!comma) {
      break;
    }
    if (out != NULL) {
      *comma = '\0';
    }
    c = comma + 1;
  }
  return k;
}

int vi_table_read(const char *path, vi_table *t, char *err, size_t errlen) {
  memset(t, 0, sizeof *t);
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(err, errlen, "cannot read %s: %s (set --published DIR or VI_PUBLISHED_DIR)",
             path, strerror(errno));
    return -1;
  }
  size_t cap = 1 << 16, len = 0;
  t->text = malloc(cap);
  size_t k;
  while (t->text && (k = fread(t->text + len, 1, cap - len - 1, f)) > 0) {
    len += k;
    if (len + 1 == cap) {
      char *bigger = realloc(t->text, cap *= 2);
      if (!bigger) {
        free(t->text);
        t->text = NULL;
      }
      t->text = bigger;
    }
  }
  int bad = ferror(f);
  fclose(f);
  if (!t->text || bad) {
    snprintf(err, errlen, "cannot read %s: %s", path,
             t->text ? "read error" : "out of memory");
    vi_table_free(t);
    return -1;
  }
  t->text[len] = '\0';
  /* Lines: count them for the arrays, then split in place. */
  int lines = 1;
  for (size_t i = 0; i < len; i++) {
    lines += t->text[i] == '\n';
  }
  char **line = calloc((size_t)lines, sizeof *line);
  int nl = 0;
  for (char *c = t->text; c && *c && line;) {
    char *end = strchr(c, '\n');
    if (end) {
      *end = '\0';
    }
    size_t l = strlen(c);
    if (l > 0 && c[l - 1] == '\r') {
      c[l - 1] = '\0';
    }
    line[nl++] = c;
    c = end ? end + 1 : NULL;
  }
  if (!line || nl == 0 || !line[0][0]) {
    snprintf(err, errlen, "%s: %s", path,
             line ? "empty (no header row)" : "out of memory");
    free(line);
    vi_table_free(t);
    return -1;
  }
  t->ncols = split(line[0], NULL, 0);
  t->head = calloc((size_t)t->ncols, sizeof *t->head);
  t->field = calloc((size_t)nl * (size_t)t->ncols + 1, sizeof *t->field);
  if (!t->head || !t->field) {
    snprintf(err, errlen, "%s: out of memory", path);
    free(line);
    vi_table_free(t);
    return -1;
  }
  split(line[0], t->head, t->ncols);
  for (int i = 1; i < nl; i++) {
    if (!line[i][0]) {
      continue; /* a trailing empty line */
    }
    char **row = t->field + (size_t)t->nrows * (size_t)t->ncols;
    int got = split(line[i], row, t->ncols);
    if (got != t->ncols) {
      snprintf(err, errlen, "%s:%d: %d fields, the header has %d", path, i + 1, got,
               t->ncols);
      free(line);
      vi_table_free(t);
      return -1;
    }
    t->nrows++;
  }
  free(line);
  return 0;
}

int vi_table_col(const vi_table *t, const char *name, const char *path, char *err,
                 size_t errlen) {
  for (int c = 0; c < t->ncols; c++) {
    if (strcmp(t->head[c], name) == 0) {
      return c;
    }
  }
  int k = snprintf(err, errlen, "%s has no column '%s'; its columns:", path, name);
  for (int c = 0; c < t->ncols && k > 0 && (size_t)k < errlen; c++) {
    k += snprintf(err + k, errlen - (size_t)k, " %s", t->head[c]);
  }
  return -1;
}

const char *vi_table_at(const vi_table *t, int row, int col) {
  return t->field[(size_t)row * (size_t)t->ncols + (size_t)col];
}

int vi_table_int(const vi_table *t, int row, int col, const char *path, int *out,
                 char *err, size_t errlen) {
  const char *s = vi_table_at(t, row, col);
  char *end = NULL;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno || end == s || *end != '\0' || v < -1000000 || v > 1000000) {
    snprintf(err, errlen, "%s:%d: column %s: '%s' is not an integer", path, row + 2,
             t->head[col], s);
    return -1;
  }
  *out = (int)v;
  return 0;
}

int vi_table_text(const vi_table *t, int row, int col, const char *path, char *buf,
                  size_t len, char *err, size_t errlen) {
  const char *s = vi_table_at(t, row, col);
  if (strlen(s) >= len) {
    snprintf(err, errlen, "%s:%d: column %s: '%.40s' is too long", path, row + 2,
             t->head[col], s);
    return -1;
  }
  snprintf(buf, len, "%s", s);
  return 0;
}
