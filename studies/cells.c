/* cells.c: the cell store of resumable studies (cells.h). */
/* sched_getaffinity, CPU_COUNT (glibc). */
#define _GNU_SOURCE
#include "cells.h"
#include "progress.h"
#include "machine.h"
#include "report.h"

#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CELLS_SCHEMA "vistudy-cells/1"

void vi_code_id(char *buf, size_t len) {
  uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a 64 */
  FILE *f = fopen("/proc/self/exe", "rb");
  unsigned char chunk[1 << 16];
  size_t k;
  int ok = f != NULL;
  while (f && (k = fread(chunk, 1, sizeof chunk, f)) > 0) {
    for (size_t i = 0; i < k; i++) {
      h = (h ^ chunk[i]) * 0x100000001b3ull;
    }
  }
  if (f) {
    ok = !ferror(f);
    fclose(f);
  }
  if (ok) {
    snprintf(buf, len, "%s exe:%016llx", vi_version(), (unsigned long long)h);
  } else {
    snprintf(buf, len, "%s", vi_version());
  }
}

/* Why an earlier file does not belong to this run, or NULL if it does. */
static const char *mismatch(json_t *root, const char *id, const char *config,
                            const char *code) {
  const char *schema = NULL, *study = NULL, *cfg = NULL, *cd = NULL;
  json_t *cells = NULL;
  json_error_t je;
  if (json_unpack_ex(root, &je, 0, "{s:s, s:s, s:s, s:s, s:o}", "schema", &schema,
                     "study", &study, "config", &cfg, "code", &cd, "cells",
                     &cells) != 0 ||
      !json_is_object(cells)) {
    return "it is not a cell store of this program (unreadable header)";
  }
  if (strcmp(schema, CELLS_SCHEMA) != 0) {
    return "it was written with another schema";
  }
  if (strcmp(study, id) != 0) {
    return "it belongs to another study";
  }
  if (strcmp(cfg, config) != 0) {
    return "it was computed for another configuration";
  }
  if (strcmp(cd, code) != 0) {
    return "it was computed by another build of vistudy";
  }
  return NULL;
}

int vi_cells_open(vi_cells *cs, const char *dir, const char *id, const char *config,
                  int fresh, char *note, size_t notelen, char *err, size_t errlen) {
  memset(cs, 0, sizeof *cs);
  note[0] = '\0';
  snprintf(cs->path, sizeof cs->path, "%s/%s.partial.json", dir, id);
  char code[160];
  vi_code_id(code, sizeof code);
  if (!fresh && access(cs->path, F_OK) == 0) {
    json_error_t je;
    json_t *old = json_load_file(cs->path, 0, &je);
    char jerr[200];
    snprintf(jerr, sizeof jerr, "it cannot be read as JSON (%s)", je.text);
    const char *why = old ? mismatch(old, id, config, code) : jerr;
    if (why) {
      snprintf(note, notelen, "not resuming from %s: %s; every cell is recomputed",
               cs->path, why);
      json_decref(old);
    } else {
      cs->root = old;
      cs->loaded = (int)json_object_size(json_object_get(old, "cells"));
      snprintf(note, notelen, "resuming from %s (%d stored cell%s; --fresh starts over)",
               cs->path, cs->loaded, cs->loaded == 1 ? "" : "s");
      return 0;
    }
  }
  cs->root = json_pack("{s:s, s:s, s:s, s:s, s:{}}", "schema", CELLS_SCHEMA, "study", id,
                       "config", config, "code", code, "cells");
  if (!cs->root) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  return 0;
}

json_t *vi_cells_get(const vi_cells *cs, const char *key) {
  return json_object_get(json_object_get(cs->root, "cells"), key);
}

int vi_cells_put(vi_cells *cs, const char *key, json_t *value, char *err, size_t errlen) {
  if (!value ||
      json_object_set_new(json_object_get(cs->root, "cells"), key, value) != 0) {
    snprintf(err, errlen, "out of memory storing cell %s", key);
    return -1;
  }
  return vi_json_write(cs->root, cs->path, err, errlen);
}

void vi_cells_finish(vi_cells *cs) {
  unlink(cs->path);
}

void vi_cells_close(vi_cells *cs) {
  json_decref(cs->root);
  cs->root = NULL;
}

int vi_cells_measure(vi_cells *cs, const vi_cells_unit *u, void *units, int n,
                     const void *ctx, const char *id, int progress, double every) {
  char err[2 * VI_PATH_MAX + 256], key[256], label[160], why[512];
  int rc = 0, k = 0;
  vi_progress pr;
  vi_progress_begin(&pr, progress, every, id, u->noun, n);
  for (; rc == 0 && k < n; k++) {
    void *x = (char *)units + (size_t)k * u->size;
    u->key(x, key, sizeof key);
    json_t *stored = vi_cells_get(cs, key);
    if (stored && u->restore(x, stored, why, sizeof why) != 0) {
      vi_progress_break(&pr);
      fprintf(stderr,
              "vistudy reproduce: %s: stored %s %s in %s is invalid (%s); recomputing "
              "it\n",
              id, u->noun, key, cs->path, why);
    }
    if (u->done(x)) {
      continue;
    }
    u->label(x, label, sizeof label);
    vi_progress_at(&pr, k, label);
    if (u->measure(x, ctx, err, sizeof err) != 0) {
      vi_progress_break(&pr);
      fprintf(stderr, "vistudy reproduce: %s %s %s: %s\n", id, u->noun, label, err);
      rc = -1;
    } else if (vi_cells_put(cs, key, u->stored(x), err, sizeof err) != 0) {
      vi_progress_break(&pr);
      fprintf(stderr, "vistudy reproduce: %s: %s\n", id, err);
      rc = -1;
    }
  }
  vi_progress_end(&pr, rc == 0 ? n : k - 1);
  return rc;
}

/* The pool of vi_cells_measure_pool: the pending units, taken in order by
 * the next free thread; the store, the progress and the failure flag under
 * the lock. */
typedef struct cells_pool {
  vi_cells *cs;
  const vi_cells_unit *u;
  void *units;
  const int *pending;
  int npending, next, done, failed;
  const void *ctx;
  const char *id;
  pthread_mutex_t lock;
  vi_progress pr;
} cells_pool;

static void *cells_worker(void *arg) {
  cells_pool *P = arg;
  char err[2 * VI_PATH_MAX + 256], key[256], label[160];
  for (;;) {
    pthread_mutex_lock(&P->lock);
    const int j = !P->failed && P->next < P->npending ? P->next++ : -1;
    pthread_mutex_unlock(&P->lock);
    if (j < 0) {
      return NULL;
    }
    void *x = (char *)P->units + (size_t)P->pending[j] * P->u->size;
    P->u->label(x, label, sizeof label);
    err[0] = '\0';
    const int rc = P->u->measure(x, P->ctx, err, sizeof err);
    pthread_mutex_lock(&P->lock);
    if (rc != 0) {
      vi_progress_break(&P->pr);
      fprintf(stderr, "vistudy reproduce: %s %s %s: %s\n", P->id, P->u->noun, label, err);
      P->failed = 1;
    } else {
      P->u->key(x, key, sizeof key);
      if (vi_cells_put(P->cs, key, P->u->stored(x), err, sizeof err) != 0) {
        vi_progress_break(&P->pr);
        fprintf(stderr, "vistudy reproduce: %s: %s\n", P->id, err);
        P->failed = 1;
      } else {
        P->done++;
        char what[200];
        snprintf(what, sizeof what, "%.150s finished", label);
        vi_progress_at(&P->pr, P->done, what);
      }
    }
    pthread_mutex_unlock(&P->lock);
  }
}

int vi_cells_measure_pool(vi_cells *cs, const vi_cells_unit *u, void *units, int n,
                          const void *ctx, const char *id, int progress, double every,
                          int threads) {
  if (threads == 1) {
    return vi_cells_measure(cs, u, units, n, ctx, id, progress, every);
  }
  char key[256], why[512];
  int *pending = malloc((size_t)(n > 0 ? n : 1) * sizeof *pending);
  if (!pending) {
    fprintf(stderr, "vistudy reproduce: %s: out of memory\n", id);
    return -1;
  }
  /* Restored serially first: only the units not stored go to the pool. */
  int np = 0;
  for (int k = 0; k < n; k++) {
    void *x = (char *)units + (size_t)k * u->size;
    u->key(x, key, sizeof key);
    json_t *stored = vi_cells_get(cs, key);
    if (stored && u->restore(x, stored, why, sizeof why) != 0) {
      fprintf(stderr,
              "vistudy reproduce: %s: stored %s %s in %s is invalid (%s); recomputing "
              "it\n",
              id, u->noun, key, cs->path, why);
    }
    if (!u->done(x)) {
      pending[np++] = k;
    }
  }
  cells_pool P = {.cs = cs, .u = u, .units = units, .pending = pending, .npending = np,
                  .ctx = ctx, .id = id, .lock = PTHREAD_MUTEX_INITIALIZER};
  vi_progress_begin(&P.pr, progress, every, id, u->noun, n);
  P.done = n - np;
  /* the restored units are no measured time: the rate starts from here */
  vi_progress_at(&P.pr, P.done, NULL);
  if (threads <= 0) {
    cpu_set_t set;
    const long ncpu = sched_getaffinity(0, sizeof set, &set) == 0
                          ? CPU_COUNT(&set)
                          : sysconf(_SC_NPROCESSORS_ONLN);
    threads = ncpu > 1 ? (int)ncpu : 1;
  }
  threads = threads > np ? np : threads;
  pthread_t th[64];
  int started = 0;
  for (int t = 1; t < threads && t < 64; t++) {
    started += pthread_create(&th[started], NULL, cells_worker, &P) == 0;
  }
  cells_worker(&P); /* the calling thread works too */
  for (int t = 0; t < started; t++) {
    pthread_join(th[t], NULL);
  }
  vi_progress_end(&P.pr, P.done);
  pthread_mutex_destroy(&P.lock);
  free(pending);
  return P.failed ? -1 : 0;
}

static json_t *num_or_null(double v) {
  return isfinite(v) ? json_real(v) : json_null();
}

json_t *vi_cells_fit_json(double order, const char *label, double residual) {
  return json_pack("{s:o, s:s, s:o}", "order", num_or_null(order), "label", label,
                   "residual", num_or_null(residual));
}

json_t *vi_cells_errors_json(const double *e, int n) {
  json_t *a = json_array();
  for (int i = 0; a && i < n; i++) {
    json_array_append_new(a, num_or_null(e[i]));
  }
  return a;
}

int vi_cells_errors_read(json_t *a, const char *name, double *e, int n, char *why,
                         size_t whylen) {
  if (!json_is_array(a) || json_array_size(a) != (size_t)n) {
    snprintf(why, whylen, "errors of %s: not an array of %d", name, n);
    return -1;
  }
  for (int i = 0; i < n; i++) {
    json_t *v = json_array_get(a, (size_t)i);
    if (json_is_null(v)) {
      e[i] = NAN;
    } else if (json_is_number(v) && json_number_value(v) >= 0 &&
               isfinite(json_number_value(v))) {
      e[i] = json_number_value(v);
    } else {
      snprintf(why, whylen, "errors of %s: entry %d is not an error", name, i);
      return -1;
    }
  }
  return 0;
}

/* The labels of a fit without an order (vi_fit_label). */
static int label_word(const char *label) {
  static const char *const words[] = {"d", "plateau", "unresolved", "-"};
  for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
    if (strcmp(label, words[i]) == 0) {
      return 1;
    }
  }
  return 0;
}

int vi_cells_label_ok(const char *label) {
  if (label_word(label)) {
    return 1;
  }
  char *end = NULL, again[32];
  const double x = strtod(label, &end);
  if (end == label || *end != '\0' || !isfinite(x) || fabs(x) > VI_CELLS_ORDER_MAX) {
    return 0;
  }
  snprintf(again, sizeof again, "%.2f", x);
  return strcmp(again, label) == 0;
}

int vi_cells_fit_read(json_t *v, double *order, char *label, size_t labellen,
                      double *residual, char *why, size_t whylen) {
  json_t *o = NULL, *r = NULL;
  const char *lab = NULL;
  json_error_t je;
  if (json_unpack_ex(v, &je, JSON_STRICT, "{s:o, s:s, s:o}", "order", &o, "label", &lab,
                     "residual", &r) != 0) {
    snprintf(why, whylen, "%s", je.text);
    return -1;
  }
  if (!(json_is_number(o) || json_is_null(o)) || json_is_number(o) != json_is_number(r) ||
      !(json_is_number(r) || json_is_null(r))) {
    snprintf(why, whylen, "order and residual must be both numbers or both null");
    return -1;
  }
  const double x = json_is_number(o) ? json_number_value(o) : NAN;
  const double res = json_is_number(r) ? json_number_value(r) : NAN;
  /* An order is a slope of a few decades of errors: anything larger is not
   * a measurement (and overflows an integer rounding). */
  if (json_is_number(o) && !(fabs(x) <= VI_CELLS_ORDER_MAX)) {
    snprintf(why, whylen, "order %.3g out of range (|order| <= %d)", x,
             VI_CELLS_ORDER_MAX);
    return -1;
  }
  if (json_is_number(r) && !(res >= 0 && res <= 1e3)) {
    snprintf(why, whylen, "fit residual %.3g out of range (0..1e3)", res);
    return -1;
  }
  char expect[32];
  if (isfinite(x)) {
    snprintf(expect, sizeof expect, "%.2f", x);
    if (strcmp(lab, expect) != 0) {
      snprintf(why, whylen, "label '%.20s' does not match the order %s", lab, expect);
      return -1;
    }
  } else if (!label_word(lab)) {
    snprintf(why, whylen, "label '%.20s' without an order", lab);
    return -1;
  }
  if (strlen(lab) >= labellen) {
    snprintf(why, whylen, "label too long");
    return -1;
  }
  *order = x;
  *residual = res;
  snprintf(label, labellen, "%s", lab);
  return 0;
}

void vi_cell_fit_none(vi_cell_fit *c) {
  memset(c, 0, sizeof *c);
  c->order = c->residual = c->hmax = c->hmin = c->emax = c->emin = NAN;
  snprintf(c->label, sizeof c->label, "-");
}

void vi_cell_fit_set(vi_cell_fit *c, const vi_order_result *r, const vi_fit *f,
                     const double *err) {
  const int ok = f->verdict == VI_VERDICT_OK;
  vi_fit_label(f, c->label, sizeof c->label);
  c->order = ok ? f->order : NAN;
  c->residual = ok ? f->residual : NAN;
  c->hmax = ok ? r->h[f->lo] : NAN;
  c->hmin = ok ? r->h[f->hi] : NAN;
  c->emax = ok ? err[f->lo] : NAN;
  c->emin = ok ? err[f->hi] : NAN;
  c->npoints = ok ? f->hi - f->lo + 1 : 0;
  c->seconds = 0;
  for (int i = 0; i < r->nh; i++) {
    c->seconds += isfinite(r->seconds[i]) ? r->seconds[i] : 0;
  }
}

json_t *vi_cell_fit_stored(json_t *own, const char *name, const vi_cell_fit *c) {
  json_t *v = json_pack("{s:o, s:[o, o], s:[o, o], s:i, s:f}", name,
                        vi_cells_fit_json(c->order, c->label, c->residual), "fit_h",
                        num_or_null(c->hmax), num_or_null(c->hmin), "fit_err",
                        num_or_null(c->emax), num_or_null(c->emin), "fit_points",
                        c->npoints, "seconds", c->seconds);
  if (!own || !v || json_object_update(own, v) != 0) {
    json_decref(own);
    own = NULL;
  }
  json_decref(v);
  return own;
}

/* A pair [a, b] of the store as numbers (NaN for null): 0, or -1 when it
 * is not numbers or nulls. */
static int pair(json_t *a, json_t *b, double *x, double *y) {
  if (!(json_is_number(a) || json_is_null(a)) ||
      !(json_is_number(b) || json_is_null(b))) {
    return -1;
  }
  *x = json_is_number(a) ? json_number_value(a) : NAN;
  *y = json_is_number(b) ? json_number_value(b) : NAN;
  return 0;
}

/* The range of an ok fit (h, errors, points) against what a fit can be: a
 * window of at least two of the study's step sizes, h and the errors
 * finite and positive, h decreasing; none of it without a fit (the errors
 * of a divergent fit excepted, kept to show its size). */
static int fit_range_ok(const vi_cell_fit *c, char *why, size_t whylen) {
  const int ok = isfinite(c->order);
  const int hs =
      isfinite(c->hmax) && isfinite(c->hmin) && c->hmin > 0 && c->hmin < c->hmax;
  const int es = isfinite(c->emax) && isfinite(c->emin) && c->emax > 0 && c->emin > 0;
  const int pts = c->npoints >= 2 && c->npoints <= VI_ORDER_MAXH;
  if (ok ? !(hs && es && pts)
         : !(isnan(c->hmax) && isnan(c->hmin) && c->npoints == 0 &&
             !(c->emax < 0 || c->emin < 0 || isinf(c->emax) || isinf(c->emin)))) {
    snprintf(why, whylen, "fit_h [%.3g, %.3g], fit_err [%.3g, %.3g] or fit_points %d %s",
             c->hmax, c->hmin, c->emax, c->emin, c->npoints,
             ok ? "is not the range of a fit (0 < h_min < h_max, errors > 0, 2 or more "
                  "points)"
                : "given without a fit");
    return -1;
  }
  if (!(isfinite(c->seconds) && c->seconds >= 0)) {
    snprintf(why, whylen, "seconds %.3g is not a time", c->seconds);
    return -1;
  }
  return 0;
}

int vi_cell_fit_restore(json_t *v, const char *name, int nown, vi_cell_fit *c, char *why,
                        size_t whylen) {
  json_t *fit, *h0, *h1, *e0, *e1;
  json_error_t je;
  vi_cell_fit x;
  if (json_unpack_ex(v, &je, 0, "{s:o, s:[oo!], s:[oo!], s:i, s:F}", name, &fit, "fit_h",
                     &h0, &h1, "fit_err", &e0, &e1, "fit_points", &x.npoints, "seconds",
                     &x.seconds) != 0) {
    snprintf(why, whylen, "%s", je.text);
    return -1;
  }
  if (json_object_size(v) != (size_t)(5 + nown)) {
    snprintf(why, whylen, "%zu keys, expected %d", json_object_size(v), 5 + nown);
    return -1;
  }
  if (pair(h0, h1, &x.hmax, &x.hmin) != 0 || pair(e0, e1, &x.emax, &x.emin) != 0) {
    snprintf(why, whylen, "fit_h and fit_err must be numbers or null");
    return -1;
  }
  if (vi_cells_fit_read(fit, &x.order, x.label, sizeof x.label, &x.residual, why,
                        whylen) != 0 ||
      fit_range_ok(&x, why, whylen) != 0) {
    return -1;
  }
  *c = x;
  return 0;
}
