/* refcache.h: the on-disk cache of reference solutions (core/refcache.c),
 * in terms of bytes and sizes so that it is compiled once for both
 * precisions: vi_reference (reference_tmpl.c) describes its key and its
 * result by pointers to its reals and their sizes, and the precision by
 * name. Not part of the public API. */
#ifndef VI_REFCACHE_H
#define VI_REFCACHE_H

#include <stddef.h>

/* Everything a reference depends on. The reals (par, q0, p0, h) are
 * real_size bytes each, in the working precision named prec ("double" or
 * "quad"). */
typedef struct vi_refcache_key {
  const char *prec;
  size_t real_size;
  int exact;          /* 1 when the system type offers an exact solution */
  const char *system; /* the system's registry name */
  int n, nq, ml;      /* velocities, configuration reals, all multipliers */
  int nvalues;        /* parameter values (par) */
  long K;             /* nodes 0..K */
  const void *par, *q0, *p0, *h;
} vi_refcache_key;

/* A cached result: the method text (method_size bytes, NUL-padded in the
 * file), the accuracy, and the node blocks Q, P, L (bytes[i] each; a block
 * of 0 bytes may be NULL). */
typedef struct vi_refcache_body {
  char *method;
  size_t method_size;
  double *accuracy;
  void *block[3];
  size_t bytes[3];
} vi_refcache_body;

/* A cache entry: the key as bytes and the file DIR/NAME-PREC-HASH.ref. */
typedef struct vi_refcache vi_refcache;

/* The entry of key in directory dir. Returns VI_OK, VI_ENOMEM, or VI_EINVAL
 * for an unknown precision name (with a message in err). */
int vi_refcache_open(const char *dir, const vi_refcache_key *key, vi_refcache **out,
                     char *err, size_t errlen);
void vi_refcache_free(vi_refcache *c);
/* Read the entry into body. Returns 1 on a hit (body filled), 0 when there
 * is no valid file (missing, short, another key, corrupt; body untouched). */
int vi_refcache_read(const vi_refcache *c, const vi_refcache_body *body);
/* Hold the entry's lock (DIR/NAME.ref.lock, flock, removed at unlock):
 * exclusive between the threads and processes that compute the same
 * reference, so that one computes it and the others read it (-j N,
 * several runs on one cache).
 * Returns 1 when held, 0 when the lock cannot be had (a read-only cache
 * directory: computing without it is still correct, only perhaps twice).
 * Released by vi_refcache_unlock or vi_refcache_free. */
int vi_refcache_lock(vi_refcache *c);
void vi_refcache_unlock(vi_refcache *c);
/* Write the entry atomically, creating the directory and its parents.
 * Returns VI_OK or an error status with a message in err. */
int vi_refcache_write(const vi_refcache *c, const vi_refcache_body *body, char *err,
                      size_t errlen);

#endif
