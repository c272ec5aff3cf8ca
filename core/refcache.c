/* refcache.c: the on-disk cache of reference solutions (refcache.h), one
 * binary file per reference, compiled once for both precisions (it sees
 * the reals only as bytes). A file is the key (format, byte order,
 * precision, sizes, which path the system type offers, the system name,
 * every parameter value, q0, p0, h and K), then the method text, the
 * accuracy, the nodes Q, P, L, and an FNV-1a 64 checksum (Fowler, Noll &
 * Vo) of everything before it; its name carries the FNV-1a hash of the
 * key. Files are written atomically (temporary file in the same directory,
 * then rename). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "precision.h"
#include "refcache.h"
#include "status.h"

/* Bump when the file layout or any reference algorithm changes
 * (reference_tmpl.c, reference_rk8pd.c, reference_irk.c), so that old files
 * are recomputed rather than trusted. */
#define REF_FORMAT 3u /* 3: method text of 256 bytes */

static const char ref_magic[8] = {'V', 'I', 'R', 'E', 'F', 'b', 'i', 'n'};

struct vi_refcache {
  const char *dir;
  char *path;
  unsigned char *key;
  size_t keylen;
  int lockfd;     /* vi_refcache_lock's descriptor, -1 when not held */
  char *lockpath; /* its file, removed at unlock */
};

/* FNV-1a, 64 bits (Fowler, Noll & Vo): offset basis 14695981039346656037,
 * prime 1099511628211. */
#define FNV_BASIS UINT64_C(14695981039346656037)
static uint64_t fnv1a(uint64_t hsh, const void *data, size_t len) {
  const unsigned char *b = data;
  for (size_t i = 0; i < len; i++) {
    hsh ^= b[i];
    hsh *= UINT64_C(1099511628211);
  }
  return hsh;
}

static size_t put(unsigned char *dst, size_t off, const void *src,
                  size_t len) {
  if (dst != NULL && len > 0) {
    memcpy(dst + off, src, len);
  }
  return off + len;
}

/* The key as bytes: format, byte order, precision, sizes, which path
 * (exact or integration) the type offers, the system name, every
 * parameter value, q0, p0, h and K. Returns its length; writes it to dst
 * unless dst is NULL. */
static size_t key_bytes(const vi_refcache_key *k, vi_precision prec, unsigned char *dst) {
  uint32_t u[5] = {REF_FORMAT, UINT32_C(0x01020304), (uint32_t)k->real_size,
                   (uint32_t)prec, (uint32_t)k->exact};
  int32_t nn[3] = {(int32_t)k->n, (int32_t)k->ml, (int32_t)k->nvalues};
  int64_t kk = (int64_t)k->K;
  uint32_t namelen = (uint32_t)strlen(k->system);
  size_t off = put(dst, 0, ref_magic, sizeof ref_magic);
  off = put(dst, off, u, sizeof u);
  off = put(dst, off, nn, sizeof nn);
  off = put(dst, off, &kk, sizeof kk);
  off = put(dst, off, &namelen, sizeof namelen);
  off = put(dst, off, k->system, namelen);
  off = put(dst, off, k->par, (size_t)k->nvalues * k->real_size);
  off = put(dst, off, k->q0, (size_t)k->nq * k->real_size);
  off = put(dst, off, k->p0, (size_t)k->n * k->real_size);
  off = put(dst, off, k->h, k->real_size);
  return off;
}

/* Cache file name: DIR/NAME-PRECISION-HASH.ref, with the system name
 * restricted to [A-Za-z0-9_-] (it is a registry name, but the cache must
 * not write outside its directory whatever the name). Returns a malloc'ed
 * string or NULL. */
static char *cache_path(const char *dir, const char *name, const char *prec,
                        uint64_t hsh) {
  size_t len = strlen(dir) + strlen(name) + 64;
  char *path = malloc(len);
  if (path == NULL) {
    return NULL;
  }
  int w = snprintf(path, len, "%s/", dir);
  for (const char *c = name; *c != '\0' && (size_t)w + 40 < len; c++) {
    int ok = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
             (*c >= '0' && *c <= '9') || *c == '-' || *c == '_';
    path[w++] = ok ? *c : '_';
  }
  snprintf(path + w, len - (size_t)w, "-%s-%016llx.ref", prec,
           (unsigned long long)hsh);
  return path;
}

int vi_refcache_open(const char *dir, const vi_refcache_key *key, vi_refcache **out,
                     char *err, size_t errlen) {
  *out = NULL;
  vi_precision prec;
  if (vi_precision_parse(key->prec, &prec) != 0) {
    vi_set_err(err, errlen, "reference cache: unknown precision %s", key->prec);
    return VI_EINVAL;
  }
  vi_refcache *c = calloc(1, sizeof *c);
  if (c == NULL) {
    vi_set_err(err, errlen, "out of memory");
    return VI_ENOMEM;
  }
  c->dir = dir;
  c->lockfd = -1;
  c->keylen = key_bytes(key, prec, NULL);
  c->key = malloc(c->keylen);
  if (c->key != NULL) {
    key_bytes(key, prec, c->key);
    uint64_t hsh = fnv1a(FNV_BASIS, c->key, c->keylen);
    c->path = cache_path(dir, key->system, key->prec, hsh);
  }
  if (c->path == NULL) {
    vi_refcache_free(c);
    vi_set_err(err, errlen, "out of memory");
    return VI_ENOMEM;
  }
  *out = c;
  return VI_OK;
}

void vi_refcache_free(vi_refcache *c) {
  if (c == NULL) {
    return;
  }
  vi_refcache_unlock(c);
  free(c->path);
  free(c->key);
  free(c);
}

/* forward: the lock needs the directory */
static int mkdir_p(const char *dir, char *err, size_t errlen);

int vi_refcache_lock(vi_refcache *c) {
  if (c->lockfd >= 0) {
    return 1;
  }
  char err[64];
  size_t len = strlen(c->path) + 6;
  char *lp = malloc(len);
  if (lp == NULL || mkdir_p(c->dir, err, sizeof err) != VI_OK) {
    free(lp);
    return 0;
  }
  snprintf(lp, len, "%s.lock", c->path);
  int fd = open(lp, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (fd < 0) {
    free(lp);
    return 0;
  }
  while (flock(fd, LOCK_EX) != 0) {
    if (errno != EINTR) {
      close(fd);
      free(lp);
      return 0;
    }
  }
  c->lockfd = fd;
  c->lockpath = lp;
  return 1;
}

/* The lock file is removed before it is released: a waiter then holds an
 * unlinked file, and finds the reference written (or computes it, still
 * correctly); a later one finds the reference and takes no lock. So the
 * cache keeps no lock files, but from a run killed while computing. */
void vi_refcache_unlock(vi_refcache *c) {
  if (c->lockfd >= 0) {
    unlink(c->lockpath);
    flock(c->lockfd, LOCK_UN);
    close(c->lockfd);
    c->lockfd = -1;
  }
  free(c->lockpath);
  c->lockpath = NULL;
}

/* mkdir -p: create dir and its missing parents. */
static int mkdir_p(const char *dir, char *err, size_t errlen) {
  size_t len = strlen(dir);
  char *buf = malloc(len + 1);
  if (buf == NULL) {
    vi_set_err(err, errlen, "out of memory");
    return VI_ENOMEM;
  }
  memcpy(buf, dir, len + 1);
  for (size_t i = 1; i <= len; i++) {
    if (buf[i] == '/' || buf[i] == '\0') {
      char c = buf[i];
      buf[i] = '\0';
      if (mkdir(buf, 0777) != 0 && errno != EEXIST) {
        vi_set_err(err, errlen, "cannot create cache directory %s: %s", buf,
                   strerror(errno));
        free(buf);
        return VI_EIO;
      }
      buf[i] = c;
    }
  }
  free(buf);
  struct stat st;
  if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
    vi_set_err(err, errlen, "cache directory %s is not a directory", dir);
    return VI_EIO;
  }
  return VI_OK;
}

/* Bytes of a file after the key: method, accuracy, the blocks, and the
 * checksum. */
static size_t body_size(const vi_refcache_body *b) {
  return b->method_size + sizeof *b->accuracy + b->bytes[0] + b->bytes[1] + b->bytes[2] +
         sizeof(uint64_t);
}

int vi_refcache_read(const vi_refcache *c, const vi_refcache_body *body) {
  FILE *f = fopen(c->path, "rb");
  if (f == NULL) {
    return 0;
  }
  size_t want = c->keylen + body_size(body);
  unsigned char *buf = malloc(want + 1);
  int hit = 0;
  /* Read one byte more than expected: a longer file is not ours. */
  if (buf != NULL && fread(buf, 1, want + 1, f) == want &&
      memcmp(buf, c->key, c->keylen) == 0) {
    uint64_t sum;
    memcpy(&sum, buf + want - sizeof sum, sizeof sum);
    if (sum == fnv1a(FNV_BASIS, buf, want - sizeof sum)) {
      size_t off = c->keylen;
      memcpy(body->method, buf + off, body->method_size);
      body->method[body->method_size - 1] = '\0';
      off += body->method_size;
      memcpy(body->accuracy, buf + off, sizeof *body->accuracy);
      off += sizeof *body->accuracy;
      for (int i = 0; i < 3; i++) {
        if (body->bytes[i] > 0) {
          memcpy(body->block[i], buf + off, body->bytes[i]);
        }
        off += body->bytes[i];
      }
      hit = 1;
    }
  }
  free(buf);
  fclose(f);
  return hit;
}

/* Write a reference atomically: a temporary file in the same directory,
 * flushed to disk, then renamed over the final name, so that a reader never
 * sees a partial file and concurrent writers of the same key are harmless
 * (both write the same bytes). */
int vi_refcache_write(const vi_refcache *c, const vi_refcache_body *body, char *err,
                      size_t errlen) {
  int rc = mkdir_p(c->dir, err, errlen);
  if (rc != VI_OK) {
    return rc;
  }
  size_t tlen = strlen(c->path) + 16;
  char *tmp = malloc(tlen);
  char *method = calloc(1, body->method_size);
  if (tmp == NULL || method == NULL) {
    free(tmp);
    free(method);
    vi_set_err(err, errlen, "out of memory");
    return VI_ENOMEM;
  }
  snprintf(tmp, tlen, "%s.tmpXXXXXX", c->path);
  int fd = mkstemp(tmp);
  if (fd < 0) {
    vi_set_err(err, errlen, "cannot create a temporary file in %s: %s", c->dir,
               strerror(errno));
    free(tmp);
    free(method);
    return VI_EIO;
  }
  /* mkstemp makes the file private; a cache is as readable as any other
   * output (the umask still applies to the directory). */
  (void)fchmod(fd, 0644);
  FILE *f = fdopen(fd, "wb");
  if (f == NULL) {
    close(fd);
    unlink(tmp);
    vi_set_err(err, errlen, "cannot open %s: %s", tmp, strerror(errno));
    free(tmp);
    free(method);
    return VI_EIO;
  }
  /* The method text NUL-padded to its full size (no stray bytes in the
   * file, so that equal references give equal files). */
  snprintf(method, body->method_size, "%s", body->method);
  const void *part[6] = {c->key, method, body->accuracy, body->block[0], body->block[1],
                         body->block[2]};
  size_t len[6] = {c->keylen, body->method_size, sizeof *body->accuracy, body->bytes[0],
                   body->bytes[1], body->bytes[2]};
  uint64_t sum = FNV_BASIS;
  int ok = 1;
  for (int i = 0; i < 6 && ok; i++) {
    if (len[i] > 0) {
      ok = fwrite(part[i], 1, len[i], f) == len[i];
      sum = fnv1a(sum, part[i], len[i]);
    }
  }
  ok = ok && fwrite(&sum, sizeof sum, 1, f) == 1;
  ok = ok && fflush(f) == 0 && fsync(fileno(f)) == 0;
  int saved = errno;
  ok = (fclose(f) == 0) && ok;
  if (ok && rename(tmp, c->path) != 0) {
    saved = errno;
    ok = 0;
  }
  if (!ok) {
    unlink(tmp);
    vi_set_err(err, errlen, "cannot write the reference cache file %s: %s",
               c->path, strerror(saved != 0 ? saved : errno));
    rc = VI_EIO;
  }
  free(tmp);
  free(method);
  return rc;
}
