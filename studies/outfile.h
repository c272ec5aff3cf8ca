/* outfile.h: every file the program writes goes through here (docs/usage.md
 * "Outputs"; design.md "Outputs"). The rules, enforced in one place:
 *
 * - A destination is classified before any work (vi_dest_check):
 *   "-" is standard output; a character or block device, a FIFO or a socket
 *   is written through directly (streaming), never replaced; a symbolic link
 *   is followed to its final target (relative links resolved against the
 *   link's directory) and that target is classified; a regular file or a
 *   new name in an existing directory is written atomically: a temporary
 *   file in the same directory, then rename(2) over the name, keeping the
 *   mode of a file it replaces. A directory, a missing parent directory or
 *   an unwritable one is refused with the path and the reason.
 * - A failed write is an error naming the path and the errno text; the
 *   temporary file is removed and the destination keeps its old contents.
 * - Temporary files are registered while they exist, so that SIGINT, SIGTERM
 *   or SIGHUP removes them (vi_out_cleanup_on_signals) before the process
 *   ends with the signal's default action.
 *
 * This is part of the program, not of the library: the library writes no
 * file except its reference cache (core/refcache.c). */
#ifndef VI_OUTFILE_H
#define VI_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

#define VI_PATH_MAX 4096

typedef enum vi_dest_kind {
  VI_DEST_STDOUT, /* "-" */
  VI_DEST_STREAM, /* a device, FIFO or socket: written through */
  VI_DEST_FILE    /* a regular file or a new name: temporary + rename */
} vi_dest_kind;

typedef struct vi_dest {
  vi_dest_kind kind;
  int exists;             /* VI_DEST_FILE: an existing regular file is replaced */
  char path[VI_PATH_MAX]; /* what is written: a symlink's final target */
} vi_dest;

/* Classify path (see above). 0, or -1 with "PATH: reason" in err. */
int vi_dest_check(const char *path, vi_dest *d, char *err, size_t errlen);

/* An output being written. */
typedef struct vi_out {
  FILE *f;
  vi_dest d;
  char tmp[VI_PATH_MAX + 64]; /* VI_DEST_FILE: the temporary file */
  int slot;                   /* signal-cleanup slot of tmp, -1 if none */
} vi_out;

/* Check path and open it for writing: a temporary file for VI_DEST_FILE
 * (created now, so an unwritable directory is found before the work), the
 * stream itself otherwise. 0, or -1 with the reason in err (o->f NULL). */
int vi_out_open(vi_out *o, const char *path, char *err, size_t errlen);

/* Finish: flush and close, then rename the temporary over the destination.
 * 0, or -1 with the reason in err (the temporary is removed, the old file
 * is untouched). */
int vi_out_commit(vi_out *o, char *err, size_t errlen);

/* Give up: close and remove the temporary (the destination is untouched). */
void vi_out_abort(vi_out *o);

/* Finish the writing of o without renaming: flush and close, the temporary
 * kept (a member of a set, below). 0, or -1 with the reason in err (the
 * temporary is removed). */
int vi_out_finish(vi_out *o, char *err, size_t errlen);

/* A set of regular files replaced together: a study's results. Every member
 * is written to its temporary first; vi_outset_commit then renames them all,
 * with signals held off, and when a rename fails puts back the files it
 * already replaced (from hard links of the old files made just before), so
 * that the set is all old or all new. A failure anywhere before removes
 * every temporary and keeps every old file (vi_outset_abort). */
typedef struct vi_outset {
  vi_out *o;
  int n, cap;
} vi_outset;

void vi_outset_init(vi_outset *s);

/* A new member at path, which must be a regular file or a new name (a
 * symbolic link is followed): its vi_out, open for writing, or NULL with
 * the reason in err. The pointer is valid until the next member is added
 * (the members may move). */
vi_out *vi_outset_add(vi_outset *s, const char *path, char *err, size_t errlen);

/* A member with the given text. 0, or -1 with the reason in err. */
int vi_outset_text(vi_outset *s, const char *path, const char *text, char *err,
                   size_t errlen);

/* Rename every member over its destination (above); the set is then empty.
 * 0, or -1 with the reason in err (every old file kept). */
int vi_outset_commit(vi_outset *s, char *err, size_t errlen);

/* Remove every temporary of the set (the destinations are untouched). */
void vi_outset_abort(vi_outset *s);

/* Whole-file writers built on vi_out_open/commit: text, or JSON (indent 2,
 * 17 significant digits). 0, or -1 with the reason in err. */
int vi_write_text(const char *path, const char *text, char *err, size_t errlen);

/* Make sure dir is a directory the program can create files in: created
 * when missing (with its missing parents when parents is 1; otherwise the
 * parent must exist), followed when a symlink, probed by creating and
 * removing a file. 0, or -1 with the reason in err. */
int vi_dir_prepare(const char *dir, int parents, char *err, size_t errlen);

/* Create a hidden temporary file beside path (same directory), with the
 * mode of the regular file at path or of a new file, registered for
 * removal on a signal (slot). The open descriptor, or -1 with err. */
int vi_tmp_beside(const char *path, char *tmp, size_t len, int *slot, char *err,
                  size_t errlen);

/* Register a temporary path for removal on SIGINT/SIGTERM/SIGHUP; returns
 * its slot, or -1 when the table is full (the file is then not removed on
 * a signal). vi_tmp_unregister(slot) when the file is gone or renamed. */
int vi_tmp_register(const char *path);
void vi_tmp_unregister(int slot);

/* The child process (pid > 0) that writes into registered temporaries, or
 * 0 when it has ended: a signal kills and reaps it before the removal. */
void vi_tmp_child(long pid);

/* Install the handlers that remove registered temporaries (once, in main). */
void vi_out_cleanup_on_signals(void);

#endif
