/* published.c: the reader of the published tables and its validation
 * (published.h). */
#include "published.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void vi_table_free(vi_table *t) {
  free(t->head);
  free(t->field);
  free(t->text);
  free(t->line);
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

/* The whole file into t->text, NUL-terminated, without a UTF-8 byte-order
 * mark (editors add one; it is not part of the first column's name). */
static int slurp(const char *path, vi_table *t, char *err, size_t errlen) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(err, errlen, "cannot read %s: %s (set --published DIR or VI_PUBLISHED_DIR)",
             path, strerror(errno));
    return -1;
  }
  size_t cap = 1 << 16, len = 0, k;
  t->text = malloc(cap);
  while (t->text && (k = fread(t->text + len, 1, cap - len - 1, f)) > 0) {
    len += k;
    if (len + 1 == cap) {
      char *bigger = realloc(t->text, cap *= 2);
      if (!bigger) {
        free(t->text);
      }
      t->text = bigger;
    }
  }
  int bad = ferror(f);
  fclose(f);
  if (!t->text || bad) {
    snprintf(err, errlen, "cannot read %s: %s", path,
             t->text ? "read error" : "out of memory");
    return -1;
  }
  t->text[len] = '\0';
  if (len >= 3 && memcmp(t->text, "\xEF\xBB\xBF", 3) == 0) {
    memmove(t->text, t->text + 3, len - 2);
  }
  return 0;
}

/* Split t->text into lines (CR of CRLF dropped): their number, line[] set;
 * -1 out of memory. */
static int lines_of(vi_table *t, char ***line) {
  int n = 1;
  for (const char *c = t->text; *c; c++) {
    n += *c == '\n';
  }
  char **l = calloc((size_t)n, sizeof *l);
  int nl = 0;
  for (char *c = t->text; c && *c && l;) {
    char *end = strchr(c, '\n');
    if (end) {
      *end = '\0';
    }
    size_t k = strlen(c);
    if (k > 0 && c[k - 1] == '\r') {
      c[k - 1] = '\0';
    }
    l[nl++] = c;
    c = end ? end + 1 : NULL;
  }
  *line = l;
  return l ? nl : -1;
}

/* The choices "a|b|c" as "a, b, c" into buf. */
static const char *choice_list(const char *choices, char *buf, size_t len) {
  size_t k = 0;
  for (const char *c = choices; *c && k + 3 < len; c++) {
    if (*c == '|') {
      buf[k++] = ',';
      buf[k++] = ' ';
    } else {
      buf[k++] = *c;
    }
  }
  buf[k] = '\0';
  return buf;
}

/* Whether s is one of the choices "a|b|c". */
static int is_choice(const char *s, const char *choices) {
  size_t n = strlen(s);
  for (const char *c = choices; c && *c;) {
    const char *bar = strchr(c, '|');
    size_t k = bar ? (size_t)(bar - c) : strlen(c);
    if (k == n && strncmp(c, s, n) == 0) {
      return 1;
    }
    c = bar ? bar + 1 : c + k;
  }
  return 0;
}

/* An integer of digits only (an optional minus), in -10^6..10^6: strtol
 * alone would take " 2", "+2" and, with a lax end check, "2x" or "2.9". */
static int strict_int(const char *s, long *out) {
  const char *d = s + (*s == '-');
  if (!*d || strlen(d) > 7 || strspn(d, "0123456789") != strlen(d)) {
    return -1;
  }
  *out = strtol(s, NULL, 10);
  return 0;
}

/* Why field s is not a valid value of f (into why), or 0 when it is. */
static int field_invalid(const vi_field *f, const char *s, char *why, size_t len) {
  char list[256];
  long v;
  char *end = NULL;
  if (!*s) {
    if (f->type & VI_FIELD_OPTIONAL) {
      return 0;
    }
    snprintf(why, len, "empty (a value is required)");
    return 1;
  }
  switch (f->type & ~VI_FIELD_OPTIONAL) {
  case VI_FIELD_INT:
    if (is_choice(s, f->choices)) {
      return 0;
    }
    if (strict_int(s, &v) != 0 || v < f->lo || v > f->hi) {
      snprintf(why, len, "'%.40s' is %s an integer in %d..%d%s%s", s,
               f->choices ? "neither" : "not", f->lo, f->hi,
               f->choices ? " nor one of: " : "",
               f->choices ? choice_list(f->choices, list, sizeof list) : "");
      return 1;
    }
    return 0;
  case VI_FIELD_REAL: {
    errno = 0;
    const double x = strtod(s, &end);
    if (end == s || *end != '\0' || errno == ERANGE || !isfinite(x) || s[0] == ' ' ||
        s[0] == '\t') {
      snprintf(why, len, "'%.40s' is not a finite real number", s);
      return 1;
    }
    return 0;
  }
  case VI_FIELD_CHOICE:
    if (!is_choice(s, f->choices)) {
      snprintf(why, len, "'%.40s' is not one of: %s", s,
               choice_list(f->choices, list, sizeof list));
      return 1;
    }
    return 0;
  default:
    return 0;
  }
}

/* The declared columns of fields as "a, b, c" into buf. */
static const char *field_list(const vi_field *fields, char *buf, size_t len) {
  size_t k = 0;
  buf[0] = '\0';
  for (int i = 0; fields[i].name && k < len; i++) {
    k += (size_t)snprintf(buf + k, len - k, "%s%s", i ? ", " : "", fields[i].name);
  }
  return buf;
}

/* The header against the declaration: every declared column exactly once,
 * no other; t->col set. */
static int check_header(const char *path, const vi_field *fields, vi_table *t, char *err,
                        size_t errlen) {
  char list[512];
  int nf = 0;
  for (; fields[nf].name; nf++) {
    if (nf == VI_TABLE_MAXCOLS) {
      snprintf(err, errlen, "%s: a table declares at most %d columns", path,
               VI_TABLE_MAXCOLS);
      return -1;
    }
    t->col[nf] = -1;
    for (int c = 0; c < t->ncols; c++) {
      if (strcmp(t->head[c], fields[nf].name) != 0) {
        continue;
      }
      if (t->col[nf] >= 0) {
        snprintf(err, errlen, "%s:1: column %s appears twice", path, fields[nf].name);
        return -1;
      }
      t->col[nf] = c;
    }
    if (t->col[nf] < 0) {
      snprintf(err, errlen, "%s:1: has no column '%s'; the columns it must have: %s",
               path, fields[nf].name, field_list(fields, list, sizeof list));
      return -1;
    }
  }
  for (int c = 0; c < t->ncols; c++) {
    int known = 0;
    for (int i = 0; i < nf; i++) {
      known |= t->col[i] == c;
    }
    if (!known) {
      snprintf(err, errlen, "%s:1: unknown column '%.40s'; the columns it must have: %s",
               path, t->head[c], field_list(fields, list, sizeof list));
      return -1;
    }
  }
  return 0;
}

/* Every data line split into t->field and validated. */
static int read_rows(const char *path, const vi_field *fields, vi_table *t, char **line,
                     int nl, char *err, size_t errlen) {
  for (int i = 1; i < nl; i++) {
    if (!line[i][0]) {
      continue; /* a blank line, as at the end of a file */
    }
    char **row = t->field + (size_t)t->nrows * (size_t)t->ncols;
    int got = split(line[i], row, t->ncols);
    if (got != t->ncols) {
      snprintf(err, errlen, "%s:%d: %d fields, the header has %d", path, i + 1, got,
               t->ncols);
      return -1;
    }
    for (int f = 0; fields[f].name; f++) {
      char why[400];
      if (field_invalid(&fields[f], row[t->col[f]], why, sizeof why)) {
        snprintf(err, errlen, "%s:%d: column %s: %s", path, i + 1, fields[f].name, why);
        return -1;
      }
    }
    t->line[t->nrows++] = i + 1;
  }
  if (t->nrows == 0) {
    snprintf(err, errlen, "%s: no data rows (only a header)", path);
    return -1;
  }
  return 0;
}

int vi_table_load(const char *path, const vi_field *fields, vi_table *t, char *err,
                  size_t errlen) {
  memset(t, 0, sizeof *t);
  char **line = NULL;
  int nl = slurp(path, t, err, errlen) == 0 ? lines_of(t, &line) : -2;
  int rc = -1;
  if (nl == -1) {
    snprintf(err, errlen, "%s: out of memory", path);
  } else if (nl == 0 || (nl > 0 && !line[0][0])) {
    snprintf(err, errlen, "%s: empty (no header row)", path);
  } else if (nl > 0) {
    t->ncols = split(line[0], NULL, 0);
    t->head = calloc((size_t)t->ncols, sizeof *t->head);
    t->field = calloc((size_t)nl * (size_t)t->ncols + 1, sizeof *t->field);
    t->line = calloc((size_t)nl, sizeof *t->line);
    if (!t->head || !t->field || !t->line) {
      snprintf(err, errlen, "%s: out of memory", path);
    } else {
      split(line[0], t->head, t->ncols);
      rc = check_header(path, fields, t, err, errlen) == 0 &&
                   read_rows(path, fields, t, line, nl, err, errlen) == 0
               ? 0
               : -1;
    }
  }
  free(line);
  if (rc != 0) {
    vi_table_free(t);
  }
  return rc;
}

const char *vi_table_at(const vi_table *t, int row, int f) {
  return t->field[(size_t)row * (size_t)t->ncols + (size_t)t->col[f]];
}

int vi_table_int(const vi_table *t, int row, int f) {
  long v;
  return strict_int(vi_table_at(t, row, f), &v) == 0 ? (int)v : -1;
}

double vi_table_real(const vi_table *t, int row, int f) {
  return strtod(vi_table_at(t, row, f), NULL);
}

int vi_published_order_match(double measured, int published, int even) {
  if (!isfinite(measured)) {
    return 0;
  }
  /* In double: an int conversion of a stored 1e10 would overflow. */
  const double r = even ? 2 * round(measured / 2) : round(measured);
  return r == (double)published;
}
