/* test_reference.c: the reference solutions of core/reference_tmpl.c in both
 * precisions:
 *
 * - planar pendulum, wenger2017 (69): the exact path (Jacobi elliptic
 *   functions: GSL in double, A&S 16.4 in quad) against the integration
 *   path of the same system (a copy of its type without the exact
 *   solution, so rk8pd in double and the s = 8 Gauss IRK in quad integrate
 *   the index-1 form with (70)) agree within the accuracies they report,
 *   for the defaults and for a large, fast swing; the rotating pendulum,
 *   whose exact callback declines, falls back to the integration;
 * - knife edge on an incline (one holonomic and one nonholonomic
 *   constraint): the same exact-vs-integration comparison, with the
 *   stacked multipliers (lambda, mu), on the defaults and held-out data;
 * - spherical double pendulum, wenger2017 (69), (71): the energy and Jz of
 *   the reference, its constraints g = 0 and G v = 0 hold to what its
 *   reported accuracy allows (no projection hides the error), and the double
 *   and quad references agree within the double one's accuracy;
 * - the cache: a second call is read back (cached = 1) with identical
 *   bytes; a corrupt or truncated file is recomputed; another h is another
 *   entry; the directory is created with its parents; no temporary file is
 *   left behind; an unusable cache directory is an I/O error while the
 *   reference is still returned;
 * - the cache file format itself (core/refcache.c): a golden file name and
 *   checksum pin format 3, so that existing caches stay readable;
 * - errors: invalid arguments, and a deliberately broken system whose
 *   grad V fails (fatally or recoverably) mid-way, named in the message.
 *
 * The precision-generic part is this same file, included twice with
 * VI_TEST_TMPL defined (the pattern of tests/test_systems.c). */
#ifndef VI_TEST_TMPL

#include <dirent.h>
#include <errno.h>
#include <gsl/gsl_errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "refcache.h"
#include "vistudy.h"

/* Largest system of the test (fixed-size scratch, no VLAs). */
enum { TN = 8 };

static int contains(const char *s, const char *sub) {
  return s != NULL && sub != NULL && strstr(s, sub) != NULL;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Files in dir: how many end in ".ref", how many do not; the name of the
 * last .ref file into path. */
static void list_dir(const char *dir, int *nref, int *nother, char *path,
                     size_t len) {
  *nref = *nother = 0;
  DIR *d = opendir(dir);
  if (d == NULL) {
    return;
  }
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) {
      continue;
    }
    size_t l = strlen(e->d_name);
    if (l > 4 && strcmp(e->d_name + l - 4, ".ref") == 0) {
      (*nref)++;
      snprintf(path, len, "%s/%s", dir, e->d_name);
    } else {
      (*nother)++;
    }
  }
  closedir(d);
}

static long file_size(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* Flip one byte of a file at offset off. */
static int flip_byte(const char *path, long off) {
  FILE *f = fopen(path, "r+b");
  if (f == NULL) {
    return -1;
  }
  int c = -1;
  if (fseek(f, off, SEEK_SET) == 0) {
    c = fgetc(f);
  }
  int rc = -1;
  if (c != EOF && fseek(f, off, SEEK_SET) == 0 && fputc(c ^ 0x5a, f) != EOF) {
    rc = 0;
  }
  return fclose(f) == 0 ? rc : -1;
}

static int truncate_file(const char *path, long size) {
  return truncate(path, size);
}

/* Remove the files of a directory tree of depth <= 3 made by the test. */
static void remove_tree(const char *dir) {
  DIR *d = opendir(dir);
  if (d == NULL) {
    return;
  }
  struct dirent *e;
  char path[1024];
  while ((e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) {
      continue;
    }
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    struct stat st;
    if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
      remove_tree(path);
    } else {
      unlink(path);
    }
  }
  closedir(d);
  rmdir(dir);
}

#define VI_TEST_TMPL
#include "prec.h"
#include "test_reference.c"
#include "prec_undef.h"

#define VI_PREC_Q
#include "prec.h"
#include "test_reference.c"
#include "prec_undef.h"

/* The double pendulum's double and quad references agree within the
 * double one's reported accuracy. */
static void test_agree_dq(vi_check_ctx *c) {
  char err[512] = "";
  vi_system_d *sd = make_system_d("double-pendulum-3d", 0, NULL);
  vi_system_q *sq = make_system_q("double-pendulum-3d", 0, NULL);
  const long K = 40;
  ref_d rd;
  ref_q rq;
  int rc = ref_alloc_d(&rd, sd, K) | ref_alloc_q(&rq, sq, K);
  VI_CHECK(c, rc == 0, "out of memory");
  if (rc == 0) {
    int r1 = vi_reference_d(sd, 0.05, K, rd.Q, rd.P, rd.L, NULL, &rd.info,
                            err, sizeof err);
    int r2 = vi_reference_q(sq, 0.05Q, K, rq.Q, rq.P, rq.L, NULL, &rq.info,
                            err, sizeof err);
    VI_CHECK(c, r1 == VI_OK && r2 == VI_OK, "double pendulum refs: %s", err);
    double e = 0;
    size_t nq = (size_t)(K + 1) * 6, nl = (size_t)(K + 1) * 2;
    for (size_t i = 0; i < nq; i++) {
      e = fmax(e, fabs(rd.Q[i] - (double)rq.Q[i]));
      e = fmax(e, fabs(rd.P[i] - (double)rq.P[i]));
    }
    for (size_t i = 0; i < nl; i++) {
      e = fmax(e, fabs(rd.L[i] - (double)rq.L[i]));
    }
    printf("double-pendulum-3d on [0, 2]: double reference vs quad: max "
           "diff %.2e, double's reported accuracy %.2e\n",
           e, rd.info.accuracy);
    VI_CHECK(c, e <= rd.info.accuracy + rq.info.accuracy && e > 0,
             "double vs quad reference differ by %.2e > %.2e", e,
             rd.info.accuracy);
  }
  ref_free_d(&rd);
  ref_free_q(&rq);
  vi_system_free_d(sd);
  vi_system_free_q(sq);
}

/* The cache file format through refcache.h directly, pinned: a double
 * key and body written now must be the bytes the format (version 3) has
 * always had, so that caches written by earlier builds are still read. The
 * name's hash (FNV-1a of the key) and the stored checksum (FNV-1a of key
 * and body) were computed independently from the format's layout (Python
 * struct, little-endian): a change to either layout fails here and must
 * bump the format. Then: a round trip, a longer file refused, the
 * precision in the name and the key, an unknown precision refused. */
static void test_refcache_format(vi_check_ctx *c, const char *tmp) {
  const uint32_t one = 1;
  if (*(const unsigned char *)&one != 1) {
    printf("refcache format: golden values are little-endian, skipped\n");
    return;
  }
  char dir[1024], err[512] = "";
  snprintf(dir, sizeof dir, "%s/refcache", tmp);
  const double par[1] = {2.385}, q0[2] = {0.5, -1.25}, p0[2] = {0.75, 3.0}, h = 0.125;
  vi_refcache_key key = {.prec = "double", .real_size = sizeof(double), .exact = 0,
                         .system = "golden-sys", .n = 2, .nq = 2, .ml = 1, .nvalues = 1,
                         .K = 2, .par = par, .q0 = q0, .p0 = p0, .h = &h};
  double Q[6], P[6], L[3], acc = 1.5e-13;
  for (int i = 0; i < 6; i++) {
    Q[i] = 0.5 * (i + 1);
    P[i] = -0.25 * (i + 1);
  }
  for (int i = 0; i < 3; i++) {
    L[i] = 0.125 * (i + 1);
  }
  char method[256] = "golden method";
  vi_refcache_body body = {method, sizeof method, &acc, {Q, P, L},
                           {sizeof Q, sizeof P, sizeof L}};
  vi_refcache *rc = NULL;
  int st = vi_refcache_open(dir, &key, &rc, err, sizeof err);
  VI_CHECK(c, st == VI_OK, "refcache open: %s", err);
  if (st != VI_OK) {
    return;
  }
  VI_CHECK(c, vi_refcache_read(rc, &body) == 0, "refcache: hit before any write");
  st = vi_refcache_write(rc, &body, err, sizeof err);
  VI_CHECK(c, st == VI_OK, "refcache write: %s", err);
  char path[1100];
  snprintf(path, sizeof path, "%s/golden-sys-double-7e5d8b0d33d9c595.ref", dir);
  uint64_t sum = 0;
  FILE *f = fopen(path, "rb");
  if (f != NULL) {
    if (fseek(f, -(long)sizeof sum, SEEK_END) != 0 || fread(&sum, sizeof sum, 1, f) != 1) {
      sum = 0;
    }
    fclose(f);
  }
  VI_CHECK(c, f != NULL && file_size(path) == 502 && sum == UINT64_C(0xf04e325c8ad6c370),
           "refcache format changed: %s size %ld checksum %016llx (want 502 bytes, "
           "f04e325c8ad6c370)",
           path, file_size(path), (unsigned long long)sum);
  /* Round trip into other arrays. */
  double Q2[6], P2[6], L2[3], acc2 = 0;
  char method2[256];
  memset(method2, 'x', sizeof method2);
  vi_refcache_body back = {method2, sizeof method2, &acc2, {Q2, P2, L2},
                           {sizeof Q2, sizeof P2, sizeof L2}};
  VI_CHECK(c, vi_refcache_read(rc, &back) == 1 && acc2 == acc &&
                  strcmp(method2, method) == 0 && memcmp(Q, Q2, sizeof Q) == 0 &&
                  memcmp(P, P2, sizeof P) == 0 && memcmp(L, L2, sizeof L) == 0,
           "refcache: round trip differs");
  /* A file longer than the format says is not ours. */
  f = fopen(path, "ab");
  if (f != NULL) {
    fputc(0, f);
    fclose(f);
  }
  VI_CHECK(c, vi_refcache_read(rc, &back) == 0, "refcache: a longer file was read");
  vi_refcache_free(rc);
  /* The precision is in the key and in the name. */
  key.prec = "quad";
  st = vi_refcache_open(dir, &key, &rc, err, sizeof err);
  VI_CHECK(c, st == VI_OK && vi_refcache_read(rc, &body) == 0,
           "refcache: the quad key read the double file");
  if (st == VI_OK) {
    VI_CHECK(c, vi_refcache_write(rc, &body, err, sizeof err) == VI_OK, "%s", err);
  }
  vi_refcache_free(rc);
  int nref, nother;
  list_dir(dir, &nref, &nother, path, sizeof path);
  VI_CHECK(c, nref == 2 && nother == 0 && contains(path, "golden-sys-"),
           "refcache: %d .ref files, %d others", nref, nother);
  key.prec = "single";
  rc = NULL;
  st = vi_refcache_open(dir, &key, &rc, err, sizeof err);
  VI_CHECK(c, st == VI_EINVAL && rc == NULL && contains(err, "single"),
           "refcache: unknown precision: %d '%s'", st, err);
  printf("refcache: format 3 pinned (name hash, checksum), round trip, keys by precision\n");
}

int main(void) {
  vi_check_ctx ctx = {0, 0};
  vi_check_ctx *c = &ctx;
  /* The library never changes GSL's handler; a test reading statuses must
   * not abort on GSL's default one. */
  gsl_set_error_handler_off();
  double t0 = now();

  char base[] = "/tmp/vistudy-test-reference-XXXXXX";
  const char *tmpdir = getenv("TMPDIR");
  char tmpl[1024];
  snprintf(tmpl, sizeof tmpl, "%s/vistudy-test-reference-XXXXXX",
           tmpdir != NULL && *tmpdir != '\0' ? tmpdir : "/tmp");
  char *dir = mkdtemp(tmpl);
  if (dir == NULL) {
    dir = mkdtemp(base);
  }
  VI_CHECK(c, dir != NULL, "mkdtemp: %s", strerror(errno));
  if (dir == NULL) {
    return vi_check_done(c, "reference");
  }

  test_pendulum_d(c);
  test_pendulum_q(c);
  test_knife_edge_d(c);
  test_knife_edge_q(c);
  test_double_pendulum_d(c);
  test_double_pendulum_q(c);
  test_agree_dq(c);
  test_cache_d(c, dir);
  test_cache_q(c, dir);
  test_refcache_format(c, dir);
  test_errors_d(c, dir);
  test_errors_q(c, dir);

  remove_tree(dir);
  printf("reference tests: %.1f s\n", now() - t0);
  return vi_check_done(c, "reference");
}

#else /* VI_TEST_TMPL: compiled once per precision */

/* A reference's arrays and info. */
typedef struct VI_X(ref) {
  long K;
  int nq, n, m; /* m: all multipliers of a node, sys->ml */
  VI_REAL *Q, *P, *L;
  VI_X(vi_reference_info) info;
} VI_X(ref);

static int VI_X(ref_alloc)(VI_X(ref) *r, const VI_X(vi_system) *sys, long K) {
  r->K = K;
  r->nq = sys->nq;
  r->n = sys->n;
  r->m = sys->ml;
  size_t rows = (size_t)(K + 1);
  r->Q = calloc(rows * (size_t)(sys->nq + sys->n + sys->ml) + 1, sizeof *r->Q);
  r->P = r->Q != NULL ? r->Q + rows * (size_t)sys->nq : NULL;
  r->L = r->Q != NULL ? r->P + rows * (size_t)sys->n : NULL;
  memset(&r->info, 0, sizeof r->info);
  return r->Q == NULL;
}

static void VI_X(ref_free)(VI_X(ref) *r) {
  free(r->Q);
  r->Q = r->P = r->L = NULL;
}

static size_t VI_X(ref_bytes)(const VI_X(ref) *r) {
  return (size_t)(r->K + 1) * (size_t)(r->nq + r->n + r->m) * sizeof *r->Q;
}

static VI_X(vi_system) *VI_X(make_system)(const char *name, int nset,
                                         const char *const *set) {
  char err[512];
  const VI_X(vi_system_type) *t = VI_X(vi_system_find)(name, err, sizeof err);
  VI_X(vi_system) *sys = NULL;
  if (t == NULL ||
      VI_X(vi_system_alloc)(t, nset, set, &sys, err, sizeof err) != VI_OK) {
    fprintf(stderr, "cannot build %s (%s): %s\n", name, VI_PREC_NAME, err);
    exit(2);
  }
  return sys;
}

/* The same system type without its exact solution: vi_reference must
 * integrate (the approach of tests/test_galerkin.c's broken system). */
typedef struct VI_X(no_exact) {
  VI_X(vi_mech_ops) mech; /* a copy a test may break */
  VI_X(vi_system_type) type;
} VI_X(no_exact);

static void VI_X(strip_exact)(VI_X(no_exact) *ne,
                              const VI_X(vi_system_type) *t) {
  ne->mech = *t->mech;
  ne->type = *t;
  ne->type.mech = &ne->mech;
  ne->type.obs = NULL;
}

/* Max abs difference per block of two references. */
static void VI_X(ref_diff)(const VI_X(ref) *a, const VI_X(ref) *b,
                           double d[3]) {
  size_t nq = (size_t)(a->K + 1) * (size_t)a->nq;
  size_t np = (size_t)(a->K + 1) * (size_t)a->n;
  size_t nl = (size_t)(a->K + 1) * (size_t)a->m;
  d[0] = d[1] = d[2] = 0;
  for (size_t i = 0; i < nq; i++) {
    d[0] = fmax(d[0], (double)vi_fabs(a->Q[i] - b->Q[i]));
  }
  for (size_t i = 0; i < np; i++) {
    d[1] = fmax(d[1], (double)vi_fabs(a->P[i] - b->P[i]));
  }
  for (size_t i = 0; i < nl; i++) {
    d[2] = fmax(d[2], (double)vi_fabs(a->L[i] - b->L[i]));
  }
}

/* Exact path vs integration path of a system with an exact solution. */
static void VI_X(exact_case)(vi_check_ctx *c, const char *name, int nset,
                             const char *const *set, const char *label,
                             VI_REAL h, long K) {
  VI_X(vi_system) *sys = VI_X(make_system)(name, nset, set);
  VI_X(no_exact) ne;
  VI_X(strip_exact)(&ne, sys->type);
  VI_X(vi_system) *sni = NULL;
  char err[512] = "";
  int rc = VI_X(vi_system_alloc)(&ne.type, nset, set, &sni, err, sizeof err);
  VI_CHECK(c, rc == VI_OK, "%s without exact (%s): %s", name,
           VI_PREC_NAME, err);
  VI_X(ref) ex, in;
  int arc = VI_X(ref_alloc)(&ex, sys, K) | VI_X(ref_alloc)(&in, sys, K);
  if (rc != VI_OK || arc != 0) {
    VI_CHECK(c, arc == 0, "out of memory");
    goto done;
  }
  double t0 = now();
  int r1 = VI_X(vi_reference)(sys, h, K, ex.Q, ex.P, ex.L, NULL, &ex.info,
                              err, sizeof err);
  VI_CHECK(c, r1 == VI_OK, "%s %s (%s) exact path: %s", name, label,
           VI_PREC_NAME, err);
  double t1 = now();
  int r2 = VI_X(vi_reference)(sni, h, K, in.Q, in.P, in.L, NULL, &in.info,
                              err, sizeof err);
  VI_CHECK(c, r2 == VI_OK, "%s %s (%s) integration path: %s", name, label,
           VI_PREC_NAME, err);
  double t2 = now();
  if (r1 != VI_OK || r2 != VI_OK) {
    goto done;
  }
  double d[3];
  VI_X(ref_diff)(&ex, &in, d);
  double dmax = fmax(d[0], fmax(d[1], d[2]));
  printf("%s %s (%s), h = %g, K = %ld:\n"
         "  exact:       %s, accuracy %.2e (%.3f s)\n"
         "  integration: %s, accuracy %.2e (%.3f s)\n"
         "  max |dq| %.2e, |dp| %.2e, |dlambda| %.2e\n",
         name, label, VI_PREC_NAME, (double)h, K, ex.info.method,
         ex.info.accuracy, t1 - t0, in.info.method, in.info.accuracy,
         t2 - t1, d[0], d[1], d[2]);
  VI_CHECK(c, contains(ex.info.method, "exact") && ex.info.cached == 0,
           "exact path method '%s'", ex.info.method);
#ifdef VI_PREC_Q
  VI_CHECK(c, contains(in.info.method, "Gauss") && in.info.cached == 0,
           "quad integration method '%s'", in.info.method);
  /* The brief of the reference: quad agreement about 1e-28 or better. */
  const double want = 1e-28;
#else
  VI_CHECK(c, contains(in.info.method, "rk8pd") && in.info.cached == 0,
           "double integration method '%s'", in.info.method);
  const double want = 1e-10;
#endif
  VI_CHECK(c, dmax <= ex.info.accuracy + in.info.accuracy,
           "%s %s (%s): exact and integration differ by %.2e, more "
           "than their accuracies %.2e + %.2e",
           name, label, VI_PREC_NAME, dmax, ex.info.accuracy, in.info.accuracy);
  VI_CHECK(c, dmax <= want && in.info.accuracy <= want &&
                  ex.info.accuracy <= want && (dmax > 0 || K == 0),
           "%s %s (%s): difference %.2e, accuracies %.2e %.2e (want "
           "<= %.0e)",
           name, label, VI_PREC_NAME, dmax, ex.info.accuracy, in.info.accuracy,
           want);
  /* Node 0 is the initial data itself on the integration path (to the
   * bit), and the exact solution evaluated at t = 0 on the exact path (a
   * few ulp of the largest value: the closed form recomputes q0 and p0). */
  double din = 0, dex = 0;
  VI_REAL scale = 1;
  for (int i = 0; i < sys->n; i++) {
    scale = vi_fabs(sys->q0[i]) > scale ? vi_fabs(sys->q0[i]) : scale;
    scale = vi_fabs(sys->p0[i]) > scale ? vi_fabs(sys->p0[i]) : scale;
  }
  for (int i = 0; i < sys->n; i++) {
    din = fmax(din, (double)vi_fabs(in.Q[i] - sys->q0[i]));
    din = fmax(din, (double)vi_fabs(in.P[i] - sys->p0[i]));
    dex = fmax(dex, (double)(vi_fabs(ex.Q[i] - sys->q0[i]) / scale));
    dex = fmax(dex, (double)(vi_fabs(ex.P[i] - sys->p0[i]) / scale));
  }
  VI_CHECK(c, din == 0 && dex <= 10 * (double)VI_EPS,
           "%s %s (%s): node 0 is not (q0, p0): integration %.2e, exact %.2e (relative; want "
           "0 and <= 10 eps)",
           name, label, VI_PREC_NAME, din, dex);
  printf("  node 0: integration path exactly (q0, p0), exact path within %.1f eps\n",
         dex / (double)VI_EPS);
done:
  VI_X(ref_free)(&ex);
  VI_X(ref_free)(&in);
  VI_X(vi_system_free)(sni);
  VI_X(vi_system_free)(sys);
}

static void VI_X(test_pendulum)(vi_check_ctx *c) {
  /* The smallest node counts: K = 0 (the initial data) and K = 1. */
  VI_X(exact_case)(c, "planar-pendulum", 0, NULL, "defaults", VI_C(0.1), 0);
  VI_X(exact_case)(c, "planar-pendulum", 0, NULL, "defaults", VI_C(0.1), 1);
  VI_X(exact_case)(c, "planar-pendulum", 0, NULL, "defaults", VI_C(0.1), 30);
  /* k = 0.977: a large swing close to the separatrix. */
  static const char *const big[] = {"m=1.37", "l=0.83", "phi0=2.6",
                                    "omega0=-1.1"};
  VI_X(exact_case)(c, "planar-pendulum", 4, big, "m=1.37,l=0.83,phi0=2.6,omega0=-1.1",
                      VI_C(0.05), 40);
  /* Rotation: the exact callback declines, the reference integrates. */
  static const char *const rot[] = {"omega0=7.5"};
  VI_X(vi_system) *sys = VI_X(make_system)("planar-pendulum", 1, rot);
  VI_X(ref) r;
  char err[512] = "";
  if (VI_X(ref_alloc)(&r, sys, 10) == 0) {
    int rc = VI_X(vi_reference)(sys, VI_C(0.1), 10, r.Q, r.P, r.L, NULL,
                                &r.info, err, sizeof err);
    VI_REAL E0 = 0, E1 = 0;
    VI_X(vi_system_energy)(sys, r.Q + 10 * 2, r.P + 10 * 2, &E1);
    VI_X(vi_system_energy)(sys, sys->q0, sys->p0, &E0);
    double dE = (double)vi_fabs(E1 - E0);
    VI_CHECK(c, rc == VI_OK && !contains(r.info.method, "exact") &&
                    dE <= 100 * r.info.accuracy,
             "rotating pendulum (%s): %d '%s' '%s', dE %.2e", VI_PREC_NAME,
             rc, err, r.info.method, dE);
    printf("rotating pendulum (%s): %s, accuracy %.2e, |E(1) - E0| %.2e\n",
           VI_PREC_NAME, r.info.method, r.info.accuracy, dE);
  }
  VI_X(ref_free)(&r);
  VI_X(vi_system_free)(sys);
}

/* A holonomic and a nonholonomic constraint together (knife-edge-incline):
 * the closed form against the integration of the index-1 form with the
 * stacked multipliers (lambda, mu), on the defaults and on held-out data:
 * another slope (negative), mass, inertia, gravity and a turning blade;
 * omega = 0 (straight sliding, the closed form's series branch at t > 0). */
static void VI_X(test_knife_edge)(vi_check_ctx *c) {
  VI_X(exact_case)(c, "knife-edge-incline", 0, NULL, "defaults", VI_C(0.1), 30);
  static const char *const held[] = {
      "m=2.1", "J=0.7", "gravity=3.5", "alpha=-0.45",
      "q0=-0.27013413070580305,0.8,0.13048966023336905,2.2",
      "v0=0.47692271318750018,-0.72764676343763113,-0.23037993251282451,-1.3"};
  VI_X(exact_case)(c, "knife-edge-incline", 6, held,
                   "m=2.1,J=0.7,gravity=3.5,alpha=-0.45,phi0=2.2,omega=-1.3",
                   VI_C(0.05), 40);
  static const char *const straight[] = {
      "alpha=0.6", "q0=0.082533561490967841,0,0.056464247339503539,-0.7",
      "v0=0.25250059878052267,-0.25768707489507642,0.17274495375407298,0"};
  VI_X(exact_case)(c, "knife-edge-incline", 3, straight, "alpha=0.6,omega=0", VI_C(0.1), 20);
}

/* The double pendulum's reference keeps its invariants and constraints to
 * first order in its reported accuracy acc (a bound on every component's
 * error): |dE| <= acc (|v|_1 + |grad V|_1), |dJz| <= acc (|q|_1 + |p|_1),
 * |dg_k| <= acc |G_k|_1, |d(G v)_k| <= acc (|G_k M^-1|_1 + |v' Hess g_k|_1)
 * with |Hess g_k| <= 2 here (g_k = 1/2 |x_i - x_j|^2). */
static void VI_X(test_double_pendulum)(vi_check_ctx *c) {
  VI_X(vi_system) *sys = VI_X(make_system)("double-pendulum-3d", 0, NULL);
  const int n = sys->n, m = sys->m;
  const long K = 40;
  const VI_REAL h = VI_C(0.05);
  VI_X(ref) r;
  char err[512] = "";
  if (VI_X(ref_alloc)(&r, sys, K) != 0 || n > TN || m > TN) {
    VI_CHECK(c, 0, "out of memory");
    VI_X(vi_system_free)(sys);
    return;
  }
  double t0 = now();
  int rc = VI_X(vi_reference)(sys, h, K, r.Q, r.P, r.L, NULL, &r.info, err,
                              sizeof err);
  double t1 = now();
  VI_CHECK(c, rc == VI_OK, "double pendulum (%s): %s", VI_PREC_NAME, err);
  if (rc == VI_OK) {
    const VI_X(vi_system_type) *t = sys->type;
    VI_REAL E0 = 0, J0 = 0;
    VI_X(vi_system_energy)(sys, sys->q0, sys->p0, &E0);
    t->obs->momenta(sys->state, sys->q0, sys->p0, &J0);
    double eE = 0, eJ = 0, eg = 0, egv = 0;
    double tE = 0, tJ = 0, tg = 0, tgv = 0;
    double acc = r.info.accuracy;
    VI_REAL Minv[TN * TN]; /* constant */
    VI_X(vi_system_mass_inv)(sys, sys->q0, Minv);
    for (long k = 0; k <= K; k++) {
      const VI_REAL *q = r.Q + k * n, *p = r.P + k * n;
      VI_REAL E = 0, J = 0, g[TN], gv[TN], dV[TN], G[TN * TN];
      VI_X(vi_system_energy)(sys, q, p, &E);
      t->obs->momenta(sys->state, q, p, &J);
      t->holo->constraint(sys->state, q, g);
      t->mech->grad_potential(sys->state, q, dV);
      t->holo->constraint_jac(sys->state, q, G);
      VI_X(vi_system_hidden)(sys, q, p, gv);
      eE = fmax(eE, (double)vi_fabs(E - E0));
      eJ = fmax(eJ, (double)vi_fabs(J - J0));
      eg = fmax(eg, (double)VI_X(vi_norm_inf)(m, g));
      egv = fmax(egv, (double)VI_X(vi_norm_inf)(m, gv));
      double v1 = 0, dV1 = 0, q1 = 0, p1 = 0;
      for (int i = 0; i < n; i++) {
        VI_REAL v = 0;
        for (int j = 0; j < n; j++) {
          v += Minv[i * n + j] * p[j];
        }
        v1 += (double)vi_fabs(v);
        dV1 += (double)vi_fabs(dV[i]);
        q1 += (double)vi_fabs(q[i]);
        p1 += (double)vi_fabs(p[i]);
      }
      tE = fmax(tE, acc * (v1 + dV1));
      tJ = fmax(tJ, acc * (q1 + p1));
      for (int l = 0; l < m; l++) {
        double G1 = 0, GM1 = 0;
        for (int j = 0; j < n; j++) {
          G1 += (double)vi_fabs(G[l * n + j]);
          VI_REAL s = 0;
          for (int i = 0; i < n; i++) {
            s += G[l * n + i] * Minv[i * n + j];
          }
          GM1 += (double)vi_fabs(s);
        }
        tg = fmax(tg, acc * G1);
        tgv = fmax(tgv, acc * (GM1 + 2 * 2 * v1));
      }
    }
    printf("double-pendulum-3d (%s), h = %g, K = %ld: %s, accuracy %.2e "
           "(%.3f s)\n  |E - E0| %.2e (bound %.1e), |Jz - Jz0| %.2e (%.1e), "
           "|g| %.2e (%.1e), |G v| %.2e (%.1e)\n",
           VI_PREC_NAME, (double)h, K, r.info.method, acc, t1 - t0, eE, tE,
           eJ, tJ, eg, tg, egv, tgv);
    VI_CHECK(c, eE <= tE && eJ <= tJ && eg <= tg && egv <= tgv,
             "double pendulum (%s): invariants or constraints beyond the "
             "reported accuracy %.2e: %.2e %.2e %.2e %.2e",
             VI_PREC_NAME, acc, eE, eJ, eg, egv);
#ifdef VI_PREC_Q
    VI_CHECK(c, acc <= 1e-29 && contains(r.info.method, "Gauss"),
             "double pendulum (quad): accuracy %.2e, method '%s'", acc,
             r.info.method);
#else
    VI_CHECK(c, acc <= 1e-10 && contains(r.info.method, "rk8pd"),
             "double pendulum (double): accuracy %.2e, method '%s'", acc,
             r.info.method);
#endif
    /* Sanity of the bounds: the errors are not all exactly zero. */
    VI_CHECK(c, eE > 0 || eJ > 0, "double pendulum (%s): suspiciously exact",
             VI_PREC_NAME);
  }
  VI_X(ref_free)(&r);
  VI_X(vi_system_free)(sys);
}

/* The cache, on the pendulum's integration path (worth caching). */
static void VI_X(test_cache)(vi_check_ctx *c, const char *tmp) {
  char dir[1024], path[1100], err[512] = "";
  snprintf(dir, sizeof dir, "%s/%s/a/b", tmp, VI_PREC_NAME);
  static const char *const set[] = {"phi0=1.7", "omega0=0.4"};
  VI_X(vi_system) *base = VI_X(make_system)("planar-pendulum", 2, set);
  VI_X(no_exact) ne;
  VI_X(strip_exact)(&ne, base->type);
  VI_X(vi_system) *sys = NULL;
  VI_X(vi_system_alloc)(&ne.type, 2, set, &sys, err, sizeof err);
  const long K = 12;
  const VI_REAL h = VI_C(0.1);
  VI_X(ref) a, b;
  if (sys == NULL || VI_X(ref_alloc)(&a, sys, K) != 0 ||
      VI_X(ref_alloc)(&b, sys, K) != 0) {
    VI_CHECK(c, 0, "cache test setup failed: %s", err);
    VI_X(vi_system_free)(sys);
    VI_X(vi_system_free)(base);
    return;
  }
  size_t nb = VI_X(ref_bytes)(&a);
  int rc = VI_X(vi_reference)(sys, h, K, a.Q, a.P, a.L, dir, &a.info, err,
                              sizeof err);
  int nref = 0, nother = 0;
  list_dir(dir, &nref, &nother, path, sizeof path);
  VI_CHECK(c, rc == VI_OK && a.info.cached == 0 && nref == 1 && nother == 0,
           "cache (%s): first call rc %d cached %d, %d files + %d others: "
           "%s",
           VI_PREC_NAME, rc, a.info.cached, nref, nother, err);
  rc = VI_X(vi_reference)(sys, h, K, b.Q, b.P, b.L, dir, &b.info, err,
                          sizeof err);
  VI_CHECK(c, rc == VI_OK && b.info.cached == 1 &&
                  memcmp(a.Q, b.Q, nb) == 0 &&
                  strcmp(a.info.method, b.info.method) == 0 &&
                  a.info.accuracy == b.info.accuracy,
           "cache (%s): second call rc %d cached %d, bytes %s", VI_PREC_NAME,
           rc, b.info.cached, memcmp(a.Q, b.Q, nb) == 0 ? "equal" : "differ");

  /* Corrupt one data byte (near the end: the arrays), then the header's
   * key, then truncate: each time recomputed with the same bytes, and the
   * file is rewritten so that the next call hits again. */
  long size = file_size(path);
  long where[2] = {size - 40, 20};
  for (int i = 0; i < 3; i++) {
    int frc = i < 2 ? flip_byte(path, where[i])
                    : truncate_file(path, size / 2);
    memset(b.Q, 0, nb);
    rc = VI_X(vi_reference)(sys, h, K, b.Q, b.P, b.L, dir, &b.info, err,
                            sizeof err);
    VI_CHECK(c, frc == 0 && rc == VI_OK && b.info.cached == 0 &&
                    memcmp(a.Q, b.Q, nb) == 0,
             "cache (%s): damage %d: rc %d cached %d, bytes %s", VI_PREC_NAME,
             i, rc, b.info.cached,
             memcmp(a.Q, b.Q, nb) == 0 ? "equal" : "differ");
    rc = VI_X(vi_reference)(sys, h, K, b.Q, b.P, b.L, dir, &b.info, err,
                            sizeof err);
    VI_CHECK(c, rc == VI_OK && b.info.cached == 1 && file_size(path) == size,
             "cache (%s): after damage %d the file was not rewritten",
             VI_PREC_NAME, i);
  }
  /* Another h (or K) is another entry; nothing else is left behind. */
  VI_X(ref) d;
  if (VI_X(ref_alloc)(&d, sys, K) == 0) {
    rc = VI_X(vi_reference)(sys, h / 2, K, d.Q, d.P, d.L, dir, &d.info, err,
                            sizeof err);
    list_dir(dir, &nref, &nother, path, sizeof path);
    VI_CHECK(c, rc == VI_OK && d.info.cached == 0 && nref == 2 &&
                    nother == 0,
             "cache (%s): another h: rc %d cached %d, %d + %d files",
             VI_PREC_NAME, rc, d.info.cached, nref, nother);
    /* The same parameters through the type with the exact solution are a
     * different entry (the key records which path the type offers). */
    rc = VI_X(vi_reference)(base, h, K, d.Q, d.P, d.L, dir, &d.info, err,
                            sizeof err);
    VI_CHECK(c, rc == VI_OK && d.info.cached == 0 &&
                    contains(d.info.method, "exact"),
             "cache (%s): exact path hit the integration's entry (%s)",
             VI_PREC_NAME, d.info.method);
    VI_X(ref_free)(&d);
  }
  printf("cache (%s): hit, corrupt/truncated -> recomputed, keys distinct\n",
         VI_PREC_NAME);
  VI_X(ref_free)(&a);
  VI_X(ref_free)(&b);
  VI_X(vi_system_free)(sys);
  VI_X(vi_system_free)(base);
}

/* The pendulum's grad V failing once the bob crosses x = 0. */
static int VI_X(grad_fatal)(const void *state, const VI_REAL *q,
                            VI_REAL *dV) {
  if (q[0] < 0) {
    return -3;
  }
  char err[64];
  return VI_X(vi_system_find)("planar-pendulum", err, sizeof err)
      ->mech->grad_potential(state, q, dV);
}

static int VI_X(grad_recoverable)(const void *state, const VI_REAL *q,
                                  VI_REAL *dV) {
  int rc = VI_X(grad_fatal)(state, q, dV);
  return rc < 0 ? 2 : rc;
}

static void VI_X(test_errors)(vi_check_ctx *c, const char *tmp) {
  char err[512] = "";
  VI_X(vi_system) *sys = VI_X(make_system)("planar-pendulum", 0, NULL);
  VI_X(ref) r;
  if (VI_X(ref_alloc)(&r, sys, 10) != 0) {
    VI_CHECK(c, 0, "out of memory");
    VI_X(vi_system_free)(sys);
    return;
  }
  int rc = VI_X(vi_reference)(sys, 0, 10, r.Q, r.P, r.L, NULL, &r.info, err,
                              sizeof err);
  VI_CHECK(c, rc == VI_EINVAL && contains(err, "h"), "h = 0: %d %s", rc, err);
  rc = VI_X(vi_reference)(sys, VI_C(0.1), -1, r.Q, r.P, r.L, NULL, &r.info,
                          err, sizeof err);
  VI_CHECK(c, rc == VI_EINVAL && contains(err, "K"), "K < 0: %d %s", rc,
           err);
  rc = VI_X(vi_reference)(sys, VI_C(0.1), 10, r.Q, r.P, NULL, NULL, &r.info,
                          err, sizeof err);
  VI_CHECK(c, rc == VI_EINVAL && contains(err, "L"), "L NULL: %d %s", rc,
           err);
  rc = VI_X(vi_reference)(NULL, VI_C(0.1), 10, r.Q, r.P, r.L, NULL, &r.info,
                          err, sizeof err);
  VI_CHECK(c, rc == VI_EINVAL, "no system: %d %s", rc, err);

  /* An unusable cache directory (below a regular file): the reference is
   * computed and returned, and a note names the cache (a cache is only a
   * saving: failing to write it must not lose a computed result). */
  char file[1024], bad[1100];
  snprintf(file, sizeof file, "%s/plain-file-%s", tmp, VI_PREC_NAME);
  FILE *f = fopen(file, "w");
  if (f != NULL) {
    fclose(f);
  }
  snprintf(bad, sizeof bad, "%s/sub", file);
  memset(r.Q, 0, VI_X(ref_bytes)(&r));
  rc = VI_X(vi_reference)(sys, VI_C(0.1), 10, r.Q, r.P, r.L, bad, &r.info,
                          err, sizeof err);
  VI_REAL q[2], p[2], l[1];
  sys->type->obs->exact(sys->state, 10 * VI_C(0.1), q, p, l);
  VI_CHECK(c, rc == VI_OK && contains(r.info.note, "not cached") &&
                  contains(r.info.note, bad) && r.Q[20] == q[0] && r.L[10] == l[0],
           "bad cache dir: %d '%s'", rc, r.info.note);

  /* A system whose grad V fails on the way: fatal and recoverable. */
  for (int variant = 0; variant < 2; variant++) {
    VI_X(no_exact) ne;
    VI_X(strip_exact)(&ne, sys->type);
    ne.mech.grad_potential =
        variant ? VI_X(grad_recoverable) : VI_X(grad_fatal);
    VI_X(vi_system) *bs = NULL;
    rc = VI_X(vi_system_alloc)(&ne.type, 0, NULL, &bs, err, sizeof err);
    VI_CHECK(c, rc == VI_OK && bs->q0[0] > 0, "broken alloc: %s", err);
    if (bs != NULL) {
      err[0] = '\0';
      rc = VI_X(vi_reference)(bs, VI_C(0.1), 10, r.Q, r.P, r.L, NULL,
                              &r.info, err, sizeof err);
      int want = variant ? VI_CALLBACK_RECOVERABLE : VI_ECALLBACK;
      VI_CHECK(c, rc == want && contains(err, "grad_potential"),
               "broken grad V (%s, %s): %d (want %d) '%s'", VI_PREC_NAME,
               variant ? "recoverable" : "fatal", rc, want, err);
      printf("broken grad V (%s, %s): %s\n", VI_PREC_NAME,
             variant ? "recoverable" : "fatal", err);
    }
    VI_X(vi_system_free)(bs);
  }
  VI_X(ref_free)(&r);
  VI_X(vi_system_free)(sys);
}

#endif /* VI_TEST_TMPL */
