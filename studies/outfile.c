/* outfile.c: safe outputs (outfile.h). */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- temporaries removed on a signal -----------------------------------
 * The one piece of process-wide mutable state of the program: a signal
 * handler can reach nothing else. A slot's path is written before the slot
 * is marked used, and the handler only reads used slots, calling unlink(2)
 * and raise(3), both async-signal-safe. */
#define TMP_SLOTS 128 /* a figure set stages 8 files a figure */
static char tmp_paths[TMP_SLOTS][VI_PATH_MAX + 64];
static volatile sig_atomic_t tmp_used[TMP_SLOTS];
/* A child writing into temporaries (gnuplot): killed and reaped first, so
 * that it cannot re-create a file after it was removed. */
static volatile sig_atomic_t tmp_child;

void vi_tmp_child(long pid) {
  tmp_child = (sig_atomic_t)pid;
}

int vi_tmp_register(const char *path) {
  for (int i = 0; i < TMP_SLOTS; i++) {
    if (!tmp_used[i]) {
      snprintf(tmp_paths[i], sizeof tmp_paths[i], "%s", path);
      tmp_used[i] = 1;
      return i;
    }
  }
  return -1;
}

void vi_tmp_unregister(int slot) {
  if (slot >= 0 && slot < TMP_SLOTS) {
    tmp_used[slot] = 0;
  }
}

static void on_signal(int sig) {
  if (tmp_child > 0) {
    kill((pid_t)tmp_child, SIGKILL);
    waitpid((pid_t)tmp_child, NULL, 0);
  }
  for (int i = 0; i < TMP_SLOTS; i++) {
    if (tmp_used[i]) {
      unlink(tmp_paths[i]);
    }
  }
  /* A word for the log (write(2) is async-signal-safe; stdio is not). */
  static const char msg[] =
      "\nvistudy: interrupted; unfinished outputs removed, finished ones kept (a study "
      "resumes from its measured cells when rerun)\n";
  ssize_t w = write(2, msg, sizeof msg - 1);
  (void)w;
  signal(sig, SIG_DFL);
  raise(sig);
}

void vi_out_cleanup_on_signals(void) {
  static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
  for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    /* A signal the parent ignores (nohup) stays ignored. */
    struct sigaction old;
    if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN) {
      continue;
    }
    sigaction(sigs[i], &sa, NULL);
  }
}

/* ---- destinations -------------------------------------------------------- */

/* dirname of path into out ("." when it has no slash). */
static void dir_of(const char *path, char *out, size_t len) {
  const char *slash = strrchr(path, '/');
  if (!slash) {
    snprintf(out, len, ".");
  } else if (slash == path) {
    snprintf(out, len, "/");
  } else {
    snprintf(out, len, "%.*s", (int)(slash - path), path);
  }
}

/* Follow symbolic links from path to the final target (which may not
 * exist). 0, or -1 with the reason in err. */
static int follow_links(const char *path, char *out, size_t len, char *err,
                        size_t errlen) {
  char cur[VI_PATH_MAX];
  if (snprintf(cur, sizeof cur, "%s", path) >= (int)sizeof cur) {
    snprintf(err, errlen, "%s: path too long", path);
    return -1;
  }
  for (int hops = 0; hops < 40; hops++) {
    struct stat st;
    if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode)) {
      snprintf(out, len, "%s", cur);
      return 0;
    }
    char target[VI_PATH_MAX];
    ssize_t k = readlink(cur, target, sizeof target - 1);
    if (k < 0) {
      snprintf(err, errlen, "%s: cannot read the symbolic link: %s", cur,
               strerror(errno));
      return -1;
    }
    target[k] = '\0';
    if (target[0] == '/') {
      snprintf(cur, sizeof cur, "%s", target);
    } else {
      char dir[VI_PATH_MAX], next[2 * VI_PATH_MAX + 2];
      dir_of(cur, dir, sizeof dir);
      snprintf(next, sizeof next, "%s/%s", dir, target);
      size_t nlen = strlen(next);
      if (nlen >= sizeof cur) {
        snprintf(err, errlen, "%s: symbolic link target too long", path);
        return -1;
      }
      memcpy(cur, next, nlen + 1); /* fits: checked above */
    }
  }
  snprintf(err, errlen, "%s: too many levels of symbolic links", path);
  return -1;
}

int vi_dest_check(const char *path, vi_dest *d, char *err, size_t errlen) {
  memset(d, 0, sizeof *d);
  if (!path || !*path) {
    snprintf(err, errlen, "empty output path");
    return -1;
  }
  if (strcmp(path, "-") == 0) {
    d->kind = VI_DEST_STDOUT;
    snprintf(d->path, sizeof d->path, "-");
    return 0;
  }
  if (follow_links(path, d->path, sizeof d->path, err, errlen) != 0) {
    return -1;
  }
  const char *via =
      strcmp(d->path, path) != 0 ? " (the target of the symbolic link " : "";
  char vbuf[VI_PATH_MAX + 64] = "";
  if (*via) {
    snprintf(vbuf, sizeof vbuf, "%s%s)", via, path);
  }
  struct stat st;
  if (stat(d->path, &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      snprintf(err, errlen, "%s%s is a directory, not a file", d->path, vbuf);
      return -1;
    }
    if (!S_ISREG(st.st_mode)) {
      /* Device, FIFO, socket: written through, never replaced. */
      if (access(d->path, W_OK) != 0) {
        snprintf(err, errlen, "%s%s: %s", d->path, vbuf, strerror(errno));
        return -1;
      }
      d->kind = VI_DEST_STREAM;
      return 0;
    }
    d->exists = 1;
  } else if (errno != ENOENT) {
    snprintf(err, errlen, "%s%s: %s", d->path, vbuf, strerror(errno));
    return -1;
  }
  d->kind = VI_DEST_FILE;
  char dir[VI_PATH_MAX];
  dir_of(d->path, dir, sizeof dir);
  if (stat(dir, &st) != 0) {
    snprintf(err, errlen, "%s%s: directory %s: %s", d->path, vbuf, dir, strerror(errno));
    return -1;
  }
  if (!S_ISDIR(st.st_mode)) {
    snprintf(err, errlen, "%s%s: %s is not a directory", d->path, vbuf, dir);
    return -1;
  }
  if (access(dir, W_OK | X_OK) != 0) {
    snprintf(err, errlen, "%s%s: cannot create files in %s: %s", d->path, vbuf, dir,
             strerror(errno));
    return -1;
  }
  return 0;
}

/* ---- writing ----------------------------------------------------------- */

/* Permissions of a new file: 0666 less the umask (read without changing
 * it where /proc says it; the program is single-threaded otherwise). */
static mode_t new_file_mode(void) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  unsigned mask = 0;
  int found = 0;
  while (f && fgets(line, sizeof line, f)) {
    if (sscanf(line, "Umask: %o", &mask) == 1) {
      found = 1;
      break;
    }
  }
  if (f) {
    fclose(f);
  }
  if (!found) {
    mode_t m = umask(022);
    umask(m);
    mask = (unsigned)m;
  }
  return (mode_t)(0666 & ~mask);
}

int vi_tmp_beside(const char *path, char *tmp, size_t len, int *slot, char *err,
                  size_t errlen) {
  /* Hidden, in the destination's directory: rename(2) is then atomic (same
   * file system) and a crash leaves the destination as it was. */
  char dir[VI_PATH_MAX];
  dir_of(path, dir, sizeof dir);
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  *slot = -1;
  /* At most 200 characters of the name: the temporary (and its ".old"
   * backup, vi_outset_commit) must stay within NAME_MAX (255) however long
   * a valid destination name is; mkstemp makes it unique. */
  if (snprintf(tmp, len, "%s/.%.200s.tmp.%ld.XXXXXX", dir, base, (long)getpid()) >=
      (int)len) {
    snprintf(err, errlen, "%s: path too long", path);
    return -1;
  }
  int fd = mkstemp(tmp);
  if (fd < 0) {
    snprintf(err, errlen, "cannot create a temporary file in %s for %s: %s", dir, path,
             strerror(errno));
    return -1;
  }
  *slot = vi_tmp_register(tmp);
  /* mkstemp makes the file private: give it the mode of the file it will
   * replace, or that of a new file. */
  struct stat st;
  mode_t mode = stat(path, &st) == 0 && S_ISREG(st.st_mode) ? (st.st_mode & 07777)
                                                            : new_file_mode();
  if (fchmod(fd, mode) != 0) {
    snprintf(err, errlen, "cannot write %s: %s", tmp, strerror(errno));
    close(fd);
    unlink(tmp);
    vi_tmp_unregister(*slot);
    *slot = -1;
    return -1;
  }
  return fd;
}

int vi_out_open(vi_out *o, const char *path, char *err, size_t errlen) {
  memset(o, 0, sizeof *o);
  o->slot = -1;
  if (vi_dest_check(path, &o->d, err, errlen) != 0) {
    return -1;
  }
  if (o->d.kind == VI_DEST_STDOUT) {
    o->f = stdout;
    return 0;
  }
  if (o->d.kind == VI_DEST_STREAM) {
    o->f = fopen(o->d.path, "w");
    if (!o->f) {
      snprintf(err, errlen, "cannot write %s: %s", o->d.path, strerror(errno));
      return -1;
    }
    return 0;
  }
  int fd = vi_tmp_beside(o->d.path, o->tmp, sizeof o->tmp, &o->slot, err, errlen);
  if (fd < 0) {
    o->tmp[0] = '\0';
    return -1;
  }
  if (!(o->f = fdopen(fd, "w"))) {
    snprintf(err, errlen, "cannot write %s: %s", o->tmp, strerror(errno));
    close(fd);
    vi_out_abort(o);
    return -1;
  }
  return 0;
}

void vi_out_abort(vi_out *o) {
  if (o->f && o->f != stdout) {
    fclose(o->f);
  }
  o->f = NULL;
  if (o->tmp[0]) {
    unlink(o->tmp);
    o->tmp[0] = '\0';
  }
  vi_tmp_unregister(o->slot);
  o->slot = -1;
}

int vi_out_finish(vi_out *o, char *err, size_t errlen) {
  const char *name = o->d.kind == VI_DEST_STDOUT ? "standard output" : o->d.path;
  if (!o->f) {
    snprintf(err, errlen, "%s: not open", name);
    return -1;
  }
  int bad = fflush(o->f) != 0 || ferror(o->f);
  int saved = errno;
  if (o->f != stdout) {
    bad |= fclose(o->f) != 0;
    if (!saved) {
      saved = errno;
    }
  }
  o->f = NULL;
  if (bad) {
    snprintf(err, errlen, "write error on %s: %s", name, strerror(saved ? saved : EIO));
    vi_out_abort(o);
    return -1;
  }
  return 0;
}

int vi_out_commit(vi_out *o, char *err, size_t errlen) {
  if (vi_out_finish(o, err, errlen) != 0) {
    return -1;
  }
  if (o->d.kind == VI_DEST_FILE) {
    if (rename(o->tmp, o->d.path) != 0) {
      snprintf(err, errlen, "cannot write %s (rename of %s): %s", o->d.path, o->tmp,
               strerror(errno));
      vi_out_abort(o);
      return -1;
    }
    o->tmp[0] = '\0';
  }
  vi_tmp_unregister(o->slot);
  o->slot = -1;
  return 0;
}

/* ---- sets of files replaced together ------------------------------------ */

void vi_outset_init(vi_outset *s) {
  memset(s, 0, sizeof *s);
}

vi_out *vi_outset_add(vi_outset *s, const char *path, char *err, size_t errlen) {
  if (s->n == s->cap) {
    int cap = s->cap ? 2 * s->cap : 8;
    vi_out *o = realloc(s->o, (size_t)cap * sizeof *o);
    if (!o) {
      snprintf(err, errlen, "out of memory writing %s", path);
      return NULL;
    }
    s->o = o;
    s->cap = cap;
  }
  /* Classified before opening: opening a FIFO would wait for a reader. */
  vi_dest d;
  if (vi_dest_check(path, &d, err, errlen) != 0) {
    return NULL;
  }
  if (d.kind != VI_DEST_FILE) {
    snprintf(err, errlen, "%s is not a regular file: results are written as files", path);
    return NULL;
  }
  vi_out *o = &s->o[s->n];
  if (vi_out_open(o, path, err, errlen) != 0) {
    return NULL;
  }
  s->n++;
  return o;
}

int vi_outset_text(vi_outset *s, const char *path, const char *text, char *err,
                   size_t errlen) {
  if (!text) {
    snprintf(err, errlen, "out of memory writing %s", path);
    return -1;
  }
  vi_out *o = vi_outset_add(s, path, err, errlen);
  if (!o) {
    return -1;
  }
  if (fputs(text, o->f) < 0) {
    snprintf(err, errlen, "write error on %s: %s", o->d.path, strerror(errno));
    return -1; /* the set is aborted by its owner */
  }
  return 0;
}

void vi_outset_abort(vi_outset *s) {
  for (int i = 0; i < s->n; i++) {
    vi_out_abort(&s->o[i]);
  }
  free(s->o);
  memset(s, 0, sizeof *s);
}

/* Put back what rename_all replaced before member k failed: the old file
 * from its backup, or no file where there was none. */
static void outset_undo(vi_outset *s, int k, char (*bak)[VI_PATH_MAX + 72]) {
  for (int i = 0; i < k; i++) {
    if (bak[i][0]) {
      rename(bak[i], s->o[i].d.path);
      bak[i][0] = '\0';
    } else if (!s->o[i].d.exists) {
      unlink(s->o[i].d.path);
    }
  }
}

int vi_outset_commit(vi_outset *s, char *err, size_t errlen) {
  /* Every member complete on disk first: a full disk shows here. */
  for (int i = 0; i < s->n; i++) {
    if (s->o[i].f && vi_out_finish(&s->o[i], err, errlen) != 0) {
      vi_outset_abort(s);
      return -1;
    }
  }
  char(*bak)[VI_PATH_MAX + 72] = calloc((size_t)(s->n ? s->n : 1), sizeof *bak);
  if (!bak) {
    snprintf(err, errlen, "out of memory replacing the results");
    vi_outset_abort(s);
    return -1;
  }
  /* A signal between two renames would leave a mixed set. */
  sigset_t hold, old;
  sigemptyset(&hold);
  sigaddset(&hold, SIGINT);
  sigaddset(&hold, SIGTERM);
  sigaddset(&hold, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &hold, &old);
  /* Backups of the old files as hard links (no data copied); where the
   * file system refuses links, that member cannot be put back. */
  for (int i = 0; i < s->n; i++) {
    if (s->o[i].d.exists) {
      snprintf(bak[i], sizeof bak[i], "%s.old", s->o[i].tmp);
      if (link(s->o[i].d.path, bak[i]) != 0) {
        bak[i][0] = '\0';
      }
    }
  }
  int rc = 0;
  for (int i = 0; i < s->n; i++) {
    if (rename(s->o[i].tmp, s->o[i].d.path) != 0) {
      snprintf(err, errlen, "cannot write %s (rename of %s): %s; the other files of the set "
               "are kept as they were", s->o[i].d.path, s->o[i].tmp, strerror(errno));
      outset_undo(s, i, bak);
      rc = -1;
      break;
    }
    s->o[i].tmp[0] = '\0';
  }
  for (int i = 0; i < s->n; i++) {
    if (bak[i][0]) {
      unlink(bak[i]);
    }
  }
  free(bak);
  vi_outset_abort(s); /* removes the temporaries not renamed, frees */
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  return rc;
}

int vi_write_text(const char *path, const char *text, char *err, size_t errlen) {
  vi_out o;
  if (!text) {
    snprintf(err, errlen, "out of memory writing %s", path);
    return -1;
  }
  if (vi_out_open(&o, path, err, errlen) != 0) {
    return -1;
  }
  if (fputs(text, o.f) < 0) {
    snprintf(err, errlen, "write error on %s: %s", o.d.path, strerror(errno));
    vi_out_abort(&o);
    return -1;
  }
  return vi_out_commit(&o, err, errlen);
}

/* mkdir -p of the missing ancestors of dir (not dir itself). */
static void make_parents(const char *dir) {
  char buf[VI_PATH_MAX];
  snprintf(buf, sizeof buf, "%s", dir);
  for (char *c = buf + 1; *c; c++) {
    if (*c == '/') {
      *c = '\0';
      mkdir(buf, 0777); /* an existing one is fine; the final mkdir reports */
      *c = '/';
    }
  }
}

int vi_dir_prepare(const char *dir, int parents, char *err, size_t errlen) {
  char real[VI_PATH_MAX];
  if (!dir || !*dir) {
    snprintf(err, errlen, "empty directory name");
    return -1;
  }
  if (follow_links(dir, real, sizeof real, err, errlen) != 0) {
    return -1;
  }
  struct stat st;
  if (stat(real, &st) != 0) {
    if (errno != ENOENT) {
      snprintf(err, errlen, "%s: %s", dir, strerror(errno));
      return -1;
    }
    if (parents) {
      make_parents(real);
    }
    if (mkdir(real, 0777) != 0) {
      int e = errno;
      char parent[VI_PATH_MAX];
      dir_of(real, parent, sizeof parent);
      int noparent = e == ENOENT && stat(parent, &st) != 0;
      snprintf(err, errlen, "cannot create directory %s: %s%s%s", dir, strerror(e),
               noparent ? "; its parent directory does not exist: " : "",
               noparent ? parent : "");
      return -1;
    }
  } else if (!S_ISDIR(st.st_mode)) {
    snprintf(err, errlen, "%s exists and is not a directory", dir);
    return -1;
  }
  /* access(2) says yes to root on most things; creating a file is the
   * real test (read-only file systems, full disks of inodes, ACLs). */
  char probe[VI_PATH_MAX + 64];
  if (snprintf(probe, sizeof probe, "%s/.vistudy-probe.%ld.XXXXXX", real,
               (long)getpid()) >= (int)sizeof probe) {
    snprintf(err, errlen, "%s: path too long", dir);
    return -1;
  }
  int fd = mkstemp(probe);
  if (fd < 0) {
    snprintf(err, errlen, "cannot create files in %s: %s", dir, strerror(errno));
    return -1;
  }
  close(fd);
  unlink(probe);
  return 0;
}
