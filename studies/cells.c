/* cells.c: the cell store of resumable studies (cells.h). */
/* sched_getaffinity, CPU_COUNT (glibc). */
#define _GNU_SOURCE
#include "cells.h"
#include "dist.h"
#include "progress.h"
#include "machine.h"
#include "report.h"

#include <errno.h>
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
  return cs->memory_only ? 0 : vi_json_write(cs->root, cs->path, err, errlen);
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

/* The pool of vi_cells_pool: the pending units, taken in order by the next
 * free thread (or handed by the coordinator thread to the next idle rank);
 * the stores, the progress, the cost log and the failure flag under the
 * lock. */
typedef struct cells_pool {
  vi_cells *cs;
  const vi_cells_unit *u;
  void *units;
  int n;
  const int *pending;
  int npending, next, done, failed;
  const void *ctx;
  const char *id;
  vi_dist *dist;
  char code[160]; /* vi_code_id, for the tasks' fingerprints */
  FILE *costs;
  pthread_mutex_t lock;
  vi_progress pr;
} cells_pool;

/* What must be equal on rank 0 and a worker for a unit measured there to be
 * the unit rank 0 would have measured: the build (vi_code_id), the study
 * and the configuration of the unit's store, which records everything its
 * units depend on (a seed, T, the reduced run) since resuming relies on it
 * too. FNV-1a 64 of the three. */
static unsigned long long unit_fingerprint(const char *code, const char *study,
                                           const vi_cells *store) {
  const char *cfg = store ? json_string_value(json_object_get(store->root, "config")) : NULL;
  const char *parts[3] = {code, study, cfg ? cfg : "(no store)"};
  unsigned long long h = 0xcbf29ce484222325ull;
  for (int i = 0; i < 3; i++) {
    for (const unsigned char *c = (const unsigned char *)parts[i]; *c; c++) {
      h = (h ^ *c) * 0x100000001b3ull;
    }
    h = (h ^ 0xff) * 0x100000001b3ull; /* a separator no text holds */
  }
  return h;
}

static vi_cells *unit_store(const vi_cells_unit *u, vi_cells *cs, void *x) {
  return u->cells ? u->cells(x) : cs;
}

static void *unit_at(const cells_pool *P, int k) {
  return (char *)P->units + (size_t)k * P->u->size;
}

/* The next pending unit's index, or -1 (none left, or a failure). */
static int pool_take(cells_pool *P) {
  pthread_mutex_lock(&P->lock);
  const int k = !P->failed && P->next < P->npending ? P->pending[P->next++] : -1;
  pthread_mutex_unlock(&P->lock);
  return k;
}

/* A unit measured (here or on rank): stored, counted, logged; or its
 * failure reported. Under the lock. */
static void pool_finished(cells_pool *P, void *x, int rc, const char *err, double seconds,
                          int rank) {
  char key[256], label[160], serr[2 * VI_PATH_MAX + 256];
  P->u->label(x, label, sizeof label);
  P->u->key(x, key, sizeof key);
  pthread_mutex_lock(&P->lock);
  if (rc != 0) {
    vi_progress_break(&P->pr);
    if (P->u->fail) {
      P->u->fail(x, P->ctx, err);
    } else {
      fprintf(stderr, "vistudy reproduce: %s %s %s: %s\n", P->id, P->u->noun, label, err);
      P->failed = 1;
    }
    pthread_mutex_unlock(&P->lock);
    return;
  }
  vi_cells *store = unit_store(P->u, P->cs, x);
  const double t0 = vi_clock();
  if (store && vi_cells_put(store, key, P->u->stored(x), serr, sizeof serr) != 0) {
    vi_progress_break(&P->pr);
    if (P->u->fail) {
      P->u->fail(x, P->ctx, serr);
    } else {
      fprintf(stderr, "vistudy reproduce: %s: %s\n", P->id, serr);
      P->failed = 1;
    }
  } else {
    P->done++;
    char what[200];
    snprintf(what, sizeof what, "%.150s finished", label);
    vi_progress_at(&P->pr, P->done, what);
  }
  if (P->costs) {
    /* the label names a unit uniquely in its study (a figure set's curve
     * labels repeat across its figures; their keys are per store) */
    json_t *line = json_pack("{s:s, s:s, s:f, s:f, s:i}", "study", P->id, "key", label,
                             "seconds", seconds, "store_seconds", vi_clock() - t0, "rank",
                             rank);
    char *text = line ? json_dumps(line, JSON_COMPACT) : NULL;
    if (text) {
      fprintf(P->costs, "%s\n", text);
      fflush(P->costs);
    }
    free(text);
    json_decref(line);
  }
  pthread_mutex_unlock(&P->lock);
}

static void *cells_worker(void *arg) {
  cells_pool *P = arg;
  char err[2 * VI_PATH_MAX + 256];
  for (int k; (k = pool_take(P)) >= 0;) {
    void *x = unit_at(P, k);
    err[0] = '\0';
    const double t0 = vi_clock();
    const int rc = P->u->measure(x, P->ctx, err, sizeof err);
    pool_finished(P, x, rc, err, vi_clock() - t0, 0);
  }
  return NULL;
}

/* Hand rank the next pending unit, if any: 1 if handed, 0 if none is
 * left. A failed send ends the run (vi_dist_abort): a unit taken and never
 * measured would be a table written without it. */
static int pool_hand(cells_pool *P, int rank, int *busy) {
  const int k = pool_take(P);
  if (k < 0) {
    return 0;
  }
  void *x = unit_at(P, k);
  vi_dist_task t = {.valid = 1, .unit = k, .n = P->n};
  snprintf(t.study, sizeof t.study, "%s", vi_dist_study(P->dist));
  snprintf(t.pool, sizeof t.pool, "%s", P->id);
  P->u->key(x, t.key, sizeof t.key);
  t.fingerprint = unit_fingerprint(P->code, t.study, unit_store(P->u, P->cs, x));
  if (vi_dist_send_task(P->dist, rank, &t) != 0) {
    vi_dist_abort(P->dist, "a unit could not be sent to a rank");
  }
  busy[rank] = k;
  return 1;
}

/* Rank 0's coordinator thread: one unit at a time to every other rank;
 * each result restored into its unit as a resumed one would be, then
 * stored like a unit measured here. */
static void *cells_coordinate(void *arg) {
  cells_pool *P = arg;
  const int size = vi_dist_size(P->dist);
  int *busy = malloc((size_t)size * sizeof *busy);
  int outstanding = 0;
  char why[512], err[2 * VI_PATH_MAX + 1024];
  for (int r = 1; busy && r < size; r++) {
    busy[r] = -1;
    outstanding += pool_hand(P, r, busy);
  }
  while (busy && outstanding > 0) {
    int rank = 0, unit = -1, rc = -1;
    double seconds = 0;
    char *text = NULL;
    if (vi_dist_recv_result(P->dist, &rank, &unit, &rc, &seconds, &text) != 0 ||
        rank < 1 || rank >= size || busy[rank] != unit) {
      /* Not the result of a unit handed out: the ranks disagree on the
       * run. Stop them all; the units stored so far are kept. */
      vi_dist_abort(P->dist, "a result could not be received, or was for no unit handed "
                             "out");
    }
    void *x = unit_at(P, unit);
    if (rc == 0) {
      json_error_t je;
      json_t *v = json_loads(text, 0, &je);
      snprintf(why, sizeof why, "restored but not complete");
      if (!v || P->u->restore(x, v, why, sizeof why) != 0 || !P->u->done(x)) {
        rc = -1;
        snprintf(err, sizeof err, "the result of rank %d cannot be read back (%s)", rank,
                 v ? why : je.text);
      }
      json_decref(v);
    } else {
      snprintf(err, sizeof err, "rank %d: %s", rank, text ? text : "failed");
    }
    free(text);
    pool_finished(P, x, rc, err, seconds, rank);
    busy[rank] = -1;
    outstanding += pool_hand(P, rank, busy) - 1;
  }
  if (!busy) {
    pthread_mutex_lock(&P->lock);
    fprintf(stderr, "vistudy reproduce: %s: out of memory\n", P->id);
    P->failed = 1;
    pthread_mutex_unlock(&P->lock);
  }
  free(busy);
  return NULL;
}

/* A worker rank's part of a pool: the units rank 0 hands out, while they
 * belong to this pool of this study; the first task of another is left
 * held for the worker's loop (reproduce.c), and the pool returns -1 so
 * that its runner stops without writing. */
static int cells_serve(vi_cells *cs, const vi_cells_unit *u, void *units, int n,
                       const void *ctx, const char *id, vi_dist *d) {
  vi_dist_task *t = vi_dist_held(d);
  char err[2 * VI_PATH_MAX + 256], key[256], code[160];
  vi_code_id(code, sizeof code);
  for (;;) {
    if (!t->valid && vi_dist_recv_task(d) != 0) {
      return -1;
    }
    if (t->stop || strcmp(t->study, vi_dist_study(d)) != 0 || strcmp(t->pool, id) != 0) {
      return -1;
    }
    int rc = -1;
    double seconds = 0;
    char *text = NULL;
    err[0] = '\0';
    if (t->n != n || t->unit < 0 || t->unit >= n) {
      snprintf(err, sizeof err, "rank %d built %d %ss of %s, rank 0 %d", vi_dist_rank(d), n,
               u->noun, id, t->n);
    } else {
      void *x = (char *)units + (size_t)t->unit * u->size;
      u->key(x, key, sizeof key);
      if (strcmp(key, t->key) != 0) {
        snprintf(err, sizeof err, "%s %d is %s on rank %d but %s on rank 0", u->noun,
                 t->unit, key, vi_dist_rank(d), t->key);
      } else if (unit_fingerprint(code, t->study, unit_store(u, cs, x)) != t->fingerprint) {
        snprintf(err, sizeof err,
                 "rank %d builds %s %s for another configuration or build than rank 0 "
                 "(another vistudy, or an environment such as VI_VALIDATION_SEED that "
                 "differs: mpirun -x passes it)",
                 vi_dist_rank(d), u->noun, key);
      } else {
        const double t0 = vi_clock();
        rc = u->measure(x, ctx, err, sizeof err);
        seconds = vi_clock() - t0;
        json_t *v = rc == 0 ? u->stored(x) : NULL;
        text = v ? json_dumps(v, JSON_COMPACT) : NULL;
        json_decref(v);
        if (rc == 0 && !text) {
          rc = -1;
          snprintf(err, sizeof err, "out of memory");
        }
      }
    }
    const int sent = vi_dist_send_result(d, rc, seconds, rc == 0 ? text : err);
    free(text);
    if (sent != 0) {
      return -1;
    }
  }
}

/* Longest first where the cost log knows the costs (units it does not know
 * first, in their order): the longest unit started last would bound the
 * pool's time. */
static void order_by_cost(int *pending, int np, const vi_cells_unit *u, void *units,
                          const char *id, const char *path) {
  FILE *f = path ? fopen(path, "r") : NULL;
  if (!f) {
    return;
  }
  json_t *known = json_object();
  char line[4096];
  while (known && fgets(line, sizeof line, f)) {
    json_t *v = json_loads(line, 0, NULL);
    const char *study = json_string_value(json_object_get(v, "study"));
    const char *key = json_string_value(json_object_get(v, "key"));
    json_t *sec = json_object_get(v, "seconds");
    if (study && key && json_is_number(sec) && strcmp(study, id) == 0) {
      json_object_set_new(known, key, json_real(json_number_value(sec)));
    }
    json_decref(v);
  }
  fclose(f);
  double *c = malloc((size_t)(np > 0 ? np : 1) * sizeof *c);
  char key[256];
  for (int i = 0; c && i < np; i++) {
    u->label((char *)units + (size_t)pending[i] * u->size, key, sizeof key);
    json_t *v = json_object_get(known, key);
    c[i] = v ? json_number_value(v) : INFINITY;
  }
  /* Insertion sort, stable: equal costs keep the units' order. */
  for (int i = 1; c && i < np; i++) {
    const double ci = c[i];
    const int pi = pending[i];
    int j = i - 1;
    for (; j >= 0 && c[j] < ci; j--) {
      c[j + 1] = c[j];
      pending[j + 1] = pending[j];
    }
    c[j + 1] = ci;
    pending[j + 1] = pi;
  }
  free(c);
  json_decref(known);
}

int vi_cells_pool(vi_cells *cs, const vi_cells_unit *u, void *units, int n, int *pending,
                  int np, const void *ctx, const char *id, const vi_pool_opts *po) {
  if (vi_dist_rank(po->dist) > 0) {
    return cells_serve(cs, u, units, n, ctx, id, po->dist);
  }
  order_by_cost(pending, np, u, units, id, po->costs);
  cells_pool P = {.cs = cs, .u = u, .units = units, .n = n, .pending = pending,
                  .npending = np, .ctx = ctx, .id = id, .dist = po->dist,
                  .lock = PTHREAD_MUTEX_INITIALIZER};
  if (vi_dist_size(po->dist) > 1) {
    vi_code_id(P.code, sizeof P.code);
  }
  if (po->costs) {
    P.costs = fopen(po->costs, "a");
    if (!P.costs) {
      fprintf(stderr, "vistudy reproduce: %s: cannot append to the cost log %s (%s)\n", id,
              po->costs, strerror(errno));
      return -1;
    }
  }
  vi_progress_begin(&P.pr, po->progress, po->every, id, u->noun, n);
  P.done = n - np;
  /* the restored units are no measured time: the rate starts from here */
  vi_progress_at(&P.pr, P.done, NULL);
  int threads = po->threads;
  if (threads <= 0 && vi_dist_size(po->dist) > 1) {
    threads = 1; /* under MPI: one rank per core, rank 0 measuring too */
  } else if (threads <= 0) {
    cpu_set_t set;
    const long ncpu = sched_getaffinity(0, sizeof set, &set) == 0
                          ? CPU_COUNT(&set)
                          : sysconf(_SC_NPROCESSORS_ONLN);
    threads = ncpu > 1 ? (int)ncpu : 1;
  }
  threads = threads > np ? np : threads;
  pthread_t th[65];
  int started = 0;
  for (int t = 1; t < threads && t < 64; t++) {
    started += pthread_create(&th[started], NULL, cells_worker, &P) == 0;
  }
  if (vi_dist_size(po->dist) > 1 && np > 0) {
    if (pthread_create(&th[started], NULL, cells_coordinate, &P) == 0) {
      started++;
    } else {
      cells_coordinate(&P);
    }
  }
  cells_worker(&P); /* the calling thread works too */
  for (int t = 0; t < started; t++) {
    pthread_join(th[t], NULL);
  }
  vi_progress_end(&P.pr, P.done);
  pthread_mutex_destroy(&P.lock);
  if (P.costs) {
    fclose(P.costs);
  }
  return P.failed ? -1 : 0;
}

int vi_cells_measure_pool(vi_cells *cs, const vi_cells_unit *u, void *units, int n,
                          const void *ctx, const char *id, const vi_pool_opts *po) {
  if (po->threads == 1 && vi_dist_size(po->dist) == 1 && !po->costs) {
    return vi_cells_measure(cs, u, units, n, ctx, id, po->progress, po->every);
  }
  char key[256], why[512];
  int *pending = malloc((size_t)(n > 0 ? n : 1) * sizeof *pending);
  if (!pending) {
    fprintf(stderr, "vistudy reproduce: %s: out of memory\n", id);
    return -1;
  }
  /* Restored serially first: only the units not stored go to the pool (a
   * worker rank's store is empty: it restores nothing). */
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
  const int rc = vi_cells_pool(cs, u, units, n, pending, np, ctx, id, po);
  free(pending);
  return rc;
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
