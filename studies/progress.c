/* progress.c: progress on standard error (progress.h). */
#include "progress.h"
#include "machine.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

int vi_progress_mode_auto(int quiet) {
  return quiet ? VI_PROGRESS_NONE : isatty(2) ? VI_PROGRESS_TTY : VI_PROGRESS_LOG;
}

void vi_progress_begin(vi_progress *p, int mode, double every, const char *who,
                       const char *noun, long total) {
  memset(p, 0, sizeof *p);
  p->mode = mode;
  p->every = every > 0 ? every : VI_PROGRESS_EVERY;
  snprintf(p->who, sizeof p->who, "%s", who);
  snprintf(p->noun, sizeof p->noun, "%s", noun);
  p->total = total;
  p->first = -1;
  p->t0 = vi_clock();
  /* The first log line after one interval: short runs stay silent. */
  p->last = p->t0;
}

/* "0.4 s", "12 s", "3.4 min" or "1.2 h". */
static void span(double s, char *buf, size_t len) {
  if (s < 10) {
    snprintf(buf, len, "%.1f s", s);
  } else if (s < 120) {
    snprintf(buf, len, "%.0f s", s);
  } else if (s < 7200) {
    snprintf(buf, len, "%.1f min", s / 60);
  } else {
    snprintf(buf, len, "%.1f h", s / 3600);
  }
}

void vi_progress_at(vi_progress *p, long done, const char *what) {
  if (p->mode == VI_PROGRESS_NONE) {
    return;
  }
  if (p->first < 0) {
    p->first = done;
  }
  const double now = vi_clock();
  if (p->mode == VI_PROGRESS_TTY) {
    fprintf(stderr, "\r%s: %ld/%ld %ss done%s%s        ", p->who, done, p->total, p->noun,
            what && *what ? "; now " : "", what && *what ? what : "");
    p->pending = 1;
    return;
  }
  if (now - p->last < p->every) {
    return;
  }
  p->last = now;
  char el[32], rest[64] = "";
  span(now - p->t0, el, sizeof el);
  /* The rate of the units measured in this run (restored ones cost
   * nothing); no estimate before the first. */
  const long measured = done - p->first;
  if (measured > 0 && done < p->total) {
    char r[32];
    span((now - p->t0) / (double)measured * (double)(p->total - done), r, sizeof r);
    snprintf(rest, sizeof rest, ", about %s to go", r);
  }
  fprintf(stderr, "%s: %ld/%ld %ss done, %s elapsed%s%s%s\n", p->who, done, p->total, p->noun,
          el, rest, what && *what ? "; now " : "", what && *what ? what : "");
}

void vi_progress_line(vi_progress *p, const char *line) {
  if (p->mode == VI_PROGRESS_NONE) {
    return;
  }
  const double now = vi_clock();
  if (p->mode == VI_PROGRESS_LOG) {
    if (now - p->last < p->every) {
      return;
    }
    p->last = now;
  }
  vi_progress_break(p);
  fprintf(stderr, "%s\n", line);
}

void vi_progress_break(vi_progress *p) {
  if (p->pending) {
    fputc('\n', stderr);
    p->pending = 0;
  }
}

void vi_progress_end(vi_progress *p, long done) {
  if (p->mode == VI_PROGRESS_LOG && p->last > p->t0) {
    char el[32];
    span(vi_clock() - p->t0, el, sizeof el);
    fprintf(stderr, "%s: %ld/%ld %ss done in %s\n", p->who, done, p->total, p->noun, el);
  }
  vi_progress_break(p);
}
