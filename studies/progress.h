/* progress.h: what a long run is doing, on standard error (docs/usage.md
 * "Progress"). On a terminal one line rewritten in place; in a log (stderr
 * not a terminal: CI, `2>&1 | tee`) a line at most every few seconds, with
 * the unit k/N, the elapsed time and an estimate of what remains; off with
 * --no-progress. Results never go here: they are on standard output and in
 * the results files. */
#ifndef VI_PROGRESS_H
#define VI_PROGRESS_H

#include <stddef.h>

typedef enum vi_progress_mode {
  VI_PROGRESS_NONE = 0,
  VI_PROGRESS_TTY = 1, /* one line, rewritten ('\r') */
  VI_PROGRESS_LOG = 2  /* whole lines, at most one per interval */
} vi_progress_mode;

/* The default seconds between two lines in a log. */
#define VI_PROGRESS_EVERY 5.0

/* The mode for stderr as it is: TTY on a terminal, LOG otherwise, NONE
 * when quiet. */
int vi_progress_mode_auto(int quiet);

/* One counted activity (a study's cells, a figure's curves). */
typedef struct vi_progress {
  int mode;       /* vi_progress_mode */
  double every;   /* LOG: seconds between lines */
  char who[160];  /* e.g. "man2020-table1" */
  char noun[24];  /* e.g. "cell" */
  long total;
  long first;     /* the units done before this run (restored): not timed */
  double t0, last;
  int pending;    /* TTY: a line waits for its newline */
} vi_progress;

void vi_progress_begin(vi_progress *p, int mode, double every, const char *who,
                       const char *noun, long total);

/* done units of total are finished; what is the one now running (or "").
 * TTY: the line rewritten; LOG: a line when the interval has passed. */
void vi_progress_at(vi_progress *p, long done, const char *what);

/* A whole line of its own (a sweep's point): TTY prints every one, LOG at
 * most one per interval. */
void vi_progress_line(vi_progress *p, const char *line);

/* Before another message on stderr: end a pending TTY line. */
void vi_progress_break(vi_progress *p);

/* The end: a TTY line ended; a log gets a last line when it got any. */
void vi_progress_end(vi_progress *p, long done);

#endif
