/* emit.c: the row model and its emitters (emit.h). */
#include "emit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void vi_rows_init(vi_rows *r, const vi_col *cols, int ncol) {
  memset(r, 0, sizeof *r);
  r->cols = cols;
  r->ncol = ncol;
}

void vi_rows_free(vi_rows *r) {
  for (long k = 0; r->v && k < (long)r->n * r->ncol; k++) {
    free(r->v[k].s);
    json_decref(r->v[k].j);
  }
  free(r->v);
  r->v = NULL;
  r->n = r->cap = 0;
}

int vi_rows_add(vi_rows *r) {
  if (r->n == r->cap) {
    int cap = r->cap ? 2 * r->cap : 64;
    vi_cellv *v = realloc(r->v, (size_t)cap * (size_t)r->ncol * sizeof *v);
    if (!v) {
      return -1;
    }
    r->v = v;
    r->cap = cap;
  }
  memset(r->v + (size_t)r->n * (size_t)r->ncol, 0, (size_t)r->ncol * sizeof *r->v);
  return r->n++;
}

int vi_rows_col(const vi_rows *r, const char *name) {
  for (int c = 0; c < r->ncol; c++) {
    if (strcmp(r->cols[c].name, name) == 0) {
      return c;
    }
  }
  return -1;
}

/* The cell of (row, name); an unknown name is a bug in the caller's
 * layout, found by the first test that writes it. */
static vi_cellv *cell(const vi_rows *r, int row, const char *name) {
  int c = vi_rows_col(r, name);
  if (c < 0 || row < 0 || row >= r->n) {
    fprintf(stderr, "vi_rows: no column '%s' or row %d\n", name, row);
    abort();
  }
  return &r->v[(size_t)row * (size_t)r->ncol + (size_t)c];
}

void vi_rows_real(vi_rows *r, int row, const char *name, double x) {
  vi_cellv *v = cell(r, row, name);
  v->x = x;
  v->kind = VI_COL_REAL;
  v->set = 1;
}

void vi_rows_int(vi_rows *r, int row, const char *name, long i) {
  vi_cellv *v = cell(r, row, name);
  v->i = i;
  v->kind = VI_COL_INT;
  v->set = 1;
}

void vi_rows_bool(vi_rows *r, int row, const char *name, int b) {
  vi_cellv *v = cell(r, row, name);
  v->i = b != 0;
  v->kind = VI_COL_BOOL;
  v->set = 1;
}

int vi_rows_text(vi_rows *r, int row, const char *name, const char *s) {
  vi_cellv *v = cell(r, row, name);
  free(v->s);
  v->s = strdup(s ? s : "");
  v->kind = VI_COL_TEXT;
  v->set = v->s != NULL;
  return v->s ? 0 : -1;
}

int vi_rows_json_value(vi_rows *r, int row, const char *name, json_t *j) {
  vi_cellv *v = cell(r, row, name);
  json_decref(v->j);
  v->j = j;
  v->kind = VI_COL_JSON;
  v->set = j != NULL;
  return j ? 0 : -1;
}

int vi_rows_real_or_text(vi_rows *r, int row, const char *name, double x, const char *s) {
  if (isfinite(x)) {
    vi_rows_real(r, row, name, x);
    return 0;
  }
  return vi_rows_text(r, row, name, s);
}

const char *vi_rows_get_text(const vi_rows *r, int row, const char *name) {
  const vi_cellv *v = cell(r, row, name);
  return v->set && v->s ? v->s : "";
}

long vi_rows_get_int(const vi_rows *r, int row, const char *name) {
  const vi_cellv *v = cell(r, row, name);
  return v->set ? v->i : 0;
}

double vi_rows_get_real(const vi_rows *r, int row, const char *name) {
  const vi_cellv *v = cell(r, row, name);
  return v->set && v->kind == VI_COL_REAL ? v->x : NAN;
}

static const vi_cellv *at(const vi_rows *r, int row, int c) {
  return &r->v[(size_t)row * (size_t)r->ncol + (size_t)c];
}

/* What a cell holds: its column's type, or for VI_COL_ANY what was set. */
static vi_col_type type_of(const vi_rows *r, const vi_cellv *v, int c) {
  return r->cols[c].type == VI_COL_ANY ? v->kind : r->cols[c].type;
}

static int defined(const vi_rows *r, const vi_cellv *v, int c) {
  const vi_col_type t = type_of(r, v, c);
  return v->set && (t != VI_COL_REAL || isfinite(v->x)) && (t != VI_COL_JSON || v->j);
}

json_t *vi_rows_json(const vi_rows *r, vi_rows_keep keep, void *ctx) {
  json_t *a = json_array();
  for (int i = 0; a && i < r->n; i++) {
    if (keep && !keep(r, i, ctx)) {
      continue;
    }
    json_t *o = json_object();
    for (int c = 0; c < r->ncol; c++) {
      if (r->cols[c].flags & VI_COL_NOJSON) {
        continue;
      }
      const vi_cellv *v = at(r, i, c);
      const vi_col_type t = type_of(r, v, c);
      json_t *x = !defined(r, v, c)  ? json_null()
                  : t == VI_COL_REAL ? json_real(v->x)
                  : t == VI_COL_INT  ? json_integer(v->i)
                  : t == VI_COL_BOOL ? json_boolean(v->i)
                  : t == VI_COL_JSON ? json_incref(v->j)
                                     : json_string(v->s);
      json_object_set_new(o, r->cols[c].name, x);
    }
    json_array_append_new(a, o);
  }
  return a;
}

FILE *vi_text_open(vi_text *t) {
  t->buf = NULL;
  t->len = 0;
  t->f = open_memstream(&t->buf, &t->len);
  return t->f;
}

char *vi_text_close(vi_text *t) {
  /* open_memstream sets buf at the close */
  if (!t->f || fclose(t->f) != 0) {
    free(t->buf);
    t->buf = NULL;
  }
  t->f = NULL;
  return t->buf;
}

/* RFC 4180: a field with a comma, a quote or a line break is quoted, its
 * quotes doubled; always quoted when asked. */
static void csv_text(FILE *f, const char *s, int always) {
  if (!always && !strpbrk(s, ",\"\r\n")) {
    fputs(s, f);
    return;
  }
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"') {
      fputc('"', f);
    }
    fputc(*s, f);
  }
  fputc('"', f);
}

static int in_csv(const vi_col *c) {
  return !(c->flags & VI_COL_NOCSV) && c->type != VI_COL_JSON;
}

char *vi_rows_csv(const vi_rows *r, vi_rows_keep keep, void *ctx) {
  vi_text text;
  FILE *f = vi_text_open(&text);
  if (!f) {
    return NULL;
  }
  int first = 1;
  for (int c = 0; c < r->ncol; c++) {
    if (in_csv(&r->cols[c])) {
      fprintf(f, "%s%s", first ? "" : ",",
              r->cols[c].csv ? r->cols[c].csv : r->cols[c].name);
      first = 0;
    }
  }
  fputc('\n', f);
  for (int i = 0; i < r->n; i++) {
    if (keep && !keep(r, i, ctx)) {
      continue;
    }
    first = 1;
    for (int c = 0; c < r->ncol; c++) {
      const vi_col *col = &r->cols[c];
      const vi_cellv *v = at(r, i, c);
      if (!in_csv(col)) {
        continue;
      }
      if (!first) {
        fputc(',', f);
      }
      first = 0;
      if (!defined(r, v, c)) {
        continue;
      }
      const vi_col_type t = type_of(r, v, c);
      if (t == VI_COL_REAL) {
        fprintf(f, col->csv_fmt ? col->csv_fmt : "%.17g", v->x);
      } else if (t == VI_COL_INT || t == VI_COL_BOOL) {
        fprintf(f, "%ld", v->i);
      } else if (t == VI_COL_TEXT) {
        csv_text(f, v->s, col->flags & VI_COL_QUOTED);
      }
    }
    fputc('\n', f);
  }
  return vi_text_close(&text);
}

/* A cell as the Markdown shows it, text unescaped. */
static void cell_str(const vi_rows *r, int row, int c, char *buf, size_t len) {
  const vi_cellv *v = at(r, row, c);
  const vi_col_type t = type_of(r, v, c);
  if (!defined(r, v, c) || t == VI_COL_JSON) {
    snprintf(buf, len, "-");
  } else if (t == VI_COL_REAL) {
    snprintf(buf, len, r->cols[c].fmt ? r->cols[c].fmt : "%.4g", v->x);
  } else if (t == VI_COL_INT || t == VI_COL_BOOL) {
    snprintf(buf, len, "%ld", v->i);
  } else {
    snprintf(buf, len, "%s", v->s);
  }
}

const char *vi_rows_str(const vi_rows *r, int row, const char *name, char *buf,
                        size_t len) {
  (void)cell(r, row, name); /* aborts on an unknown column, as the setters */
  cell_str(r, row, vi_rows_col(r, name), buf, len);
  return buf;
}

void vi_rows_md(FILE *f, const vi_rows *r, const char *const *cols, vi_rows_keep keep,
                void *ctx) {
  int idx[64], n = 0;
  for (; n < 64 && cols[n]; n++) {
    idx[n] = vi_rows_col(r, cols[n]);
    if (idx[n] < 0 || r->cols[idx[n]].type == VI_COL_JSON) {
      fprintf(stderr, "vi_rows_md: no column '%s' to show\n", cols[n]);
      abort();
    }
  }
  for (int k = 0; k < n; k++) {
    const vi_col *c = &r->cols[idx[k]];
    fprintf(f, "| %s ", c->title ? c->title : c->name);
  }
  fputs("|\n", f);
  for (int k = 0; k < n; k++) {
    fputs("|---", f);
  }
  fputs("|\n", f);
  for (int i = 0; i < r->n; i++) {
    if (keep && !keep(r, i, ctx)) {
      continue;
    }
    for (int k = 0; k < n; k++) {
      const vi_cellv *v = at(r, i, idx[k]);
      fputs("| ", f);
      if (defined(r, v, idx[k]) && type_of(r, v, idx[k]) == VI_COL_TEXT) {
        for (const char *s = v->s; *s; s++) {
          if (*s == '|') {
            fputc('\\', f);
          }
          fputc(*s == '\n' ? ' ' : *s, f);
        }
      } else {
        char b[64];
        cell_str(r, i, idx[k], b, sizeof b);
        fputs(b, f);
      }
      fputc(' ', f);
    }
    fputs("|\n", f);
  }
  fputc('\n', f);
}
