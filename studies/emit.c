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
static vi_cellv *cell(vi_rows *r, int row, const char *name) {
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
  v->set = 1;
}

void vi_rows_int(vi_rows *r, int row, const char *name, long i) {
  vi_cellv *v = cell(r, row, name);
  v->i = i;
  v->set = 1;
}

int vi_rows_text(vi_rows *r, int row, const char *name, const char *s) {
  vi_cellv *v = cell(r, row, name);
  free(v->s);
  v->s = strdup(s ? s : "");
  v->set = v->s != NULL;
  return v->s ? 0 : -1;
}

static const vi_cellv *at(const vi_rows *r, int row, int c) {
  return &r->v[(size_t)row * (size_t)r->ncol + (size_t)c];
}

static int defined(const vi_rows *r, const vi_cellv *v, int c) {
  return v->set && (r->cols[c].type != VI_COL_REAL || isfinite(v->x));
}

json_t *vi_rows_json(const vi_rows *r, vi_rows_keep keep, void *ctx) {
  json_t *a = json_array();
  for (int i = 0; a && i < r->n; i++) {
    if (keep && !keep(r, i, ctx)) {
      continue;
    }
    json_t *o = json_object();
    for (int c = 0; c < r->ncol; c++) {
      const vi_cellv *v = at(r, i, c);
      json_t *x = !defined(r, v, c)                 ? json_null()
                  : r->cols[c].type == VI_COL_REAL ? json_real(v->x)
                  : r->cols[c].type == VI_COL_INT  ? json_integer(v->i)
                                                   : json_string(v->s);
      json_object_set_new(o, r->cols[c].name, x);
    }
    json_array_append_new(a, o);
  }
  return a;
}

/* RFC 4180: a field with a comma, a quote or a line break is quoted, its
 * quotes doubled. */
static void csv_text(FILE *f, const char *s) {
  if (!strpbrk(s, ",\"\r\n")) {
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

char *vi_rows_csv(const vi_rows *r, vi_rows_keep keep, void *ctx) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f) {
    return NULL;
  }
  for (int c = 0; c < r->ncol; c++) {
    fprintf(f, "%s%s", c ? "," : "", r->cols[c].name);
  }
  fputc('\n', f);
  for (int i = 0; i < r->n; i++) {
    if (keep && !keep(r, i, ctx)) {
      continue;
    }
    for (int c = 0; c < r->ncol; c++) {
      const vi_cellv *v = at(r, i, c);
      if (c) {
        fputc(',', f);
      }
      if (!defined(r, v, c)) {
        continue;
      }
      if (r->cols[c].type == VI_COL_REAL) {
        fprintf(f, "%.17g", v->x);
      } else if (r->cols[c].type == VI_COL_INT) {
        fprintf(f, "%ld", v->i);
      } else {
        csv_text(f, v->s);
      }
    }
    fputc('\n', f);
  }
  if (fclose(f) != 0) {
    free(buf);
    return NULL;
  }
  return buf;
}

void vi_rows_md(FILE *f, const vi_rows *r, const char *const *cols, vi_rows_keep keep,
                void *ctx) {
  int idx[64], n = 0;
  for (; n < 64 && cols[n]; n++) {
    idx[n] = vi_rows_col(r, cols[n]);
    if (idx[n] < 0) {
      fprintf(stderr, "vi_rows_md: no column '%s'\n", cols[n]);
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
      const vi_col *c = &r->cols[idx[k]];
      const vi_cellv *v = at(r, i, idx[k]);
      fputs("| ", f);
      if (!defined(r, v, idx[k])) {
        fputs("-", f);
      } else if (c->type == VI_COL_REAL) {
        fprintf(f, c->fmt ? c->fmt : "%.4g", v->x);
      } else if (c->type == VI_COL_INT) {
        fprintf(f, "%ld", v->i);
      } else {
        for (const char *s = v->s; *s; s++) {
          if (*s == '|') {
            fputc('\\', f);
          }
          fputc(*s == '\n' ? ' ' : *s, f);
        }
      }
      fputc(' ', f);
    }
    fputs("|\n", f);
  }
  fputc('\n', f);
}
