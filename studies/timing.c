/* timing.c: the one timing service (timing.h). */
#include "timing.h"

#include <stdio.h>
#include <time.h>

double vi_cpu_clock(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void vi_time_start(vi_time *t) {
  t->cpu = vi_cpu_clock();
  t->wall = vi_clock();
}

void vi_time_stop(vi_time *t) {
  t->cpu = vi_cpu_clock() - t->cpu;
  t->wall = vi_clock() - t->wall;
}

void vi_timed_first(vi_timed *p, const vi_time *t) {
  p->seconds = t->cpu;
  p->wall = t->wall;
  p->reps = 1;
}

void vi_timed_more(vi_timed *p, const vi_time *t) {
  p->seconds = t->cpu < p->seconds ? t->cpu : p->seconds;
  p->wall = t->wall < p->wall ? t->wall : p->wall;
  p->reps++;
}

int vi_reps(const vi_reps_policy *p, int quick, double t) {
  if (quick) {
    return 1;
  }
  return t < 0.005 ? p->fast : t < 0.05 ? p->mid : p->slow;
}

void vi_repeat_in_passes(void *ctx, int npts, vi_timed *(*timed)(void *ctx, int i),
                         int (*again)(void *ctx, int i, vi_time *t), const vi_reps_policy *p,
                         int quick, const char *who, int progress) {
  for (int pass = 1; pass < vi_reps(p, quick, 0); pass++) {
    if (progress) {
      fprintf(stderr, "%s: timing repetition %d\n", who, pass + 1);
    }
    for (int i = 0; i < npts; i++) {
      vi_timed *P = timed(ctx, i);
      if (!P || pass >= vi_reps(p, quick, P->seconds)) {
        continue;
      }
      vi_time t;
      if (again(ctx, i, &t) == 0) {
        vi_timed_more(P, &t);
      }
    }
  }
}

void vi_timing_begin(vi_timing *t) {
  vi_machine_describe(&t->machine);
  vi_machine_line(&t->machine, t->line, sizeof t->line);
  t->pin = NULL;
  t->core = -1;
  t->pin_note[0] = '\0';
  if (vi_pin_thread(&t->pin, &t->core, t->pin_note, sizeof t->pin_note) != 0) {
    t->core = -1;
  }
}

void vi_timing_end(vi_timing *t) {
  vi_pin_release(t->pin);
  t->pin = NULL;
}

json_t *vi_timing_json(const vi_timing *t) {
  json_t *j = vi_machine_json(&t->machine, t->line);
  json_object_set_new(j, "pinned_core", t->core >= 0 ? json_integer(t->core) : json_null());
  json_object_set_new(j, "clock", json_string("CPU time of the timing thread "
                                              "(CLOCK_THREAD_CPUTIME_ID); wall time beside it"));

  return j;
}

json_t *vi_machine_json(const vi_machine *m, const char *line) {
  json_t *mj = json_object();
  json_object_set_new(mj, "cpu", json_string(m->cpu));
  json_object_set_new(mj, "cores", json_integer(m->cores));
  json_object_set_new(mj, "pus", json_integer(m->pus));
  json_object_set_new(mj, "os", json_string(m->os));
  json_object_set_new(mj, "compiler", json_string(m->compiler));
  json_object_set_new(mj, "build", json_string(m->build));
  json_object_set_new(mj, "version", json_string(m->version));
  json_object_set_new(mj, "line", json_string(line));
  return mj;
}
