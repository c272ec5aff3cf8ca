/* timing.h: the one timing service of vistudy (design.md "Studies are
 * data"). Run time is the CPU time of the timing thread
 * (CLOCK_THREAD_CPUTIME_ID), pinned to one core where hwloc can (machine.h),
 * with the wall time recorded beside it: on a shared machine other
 * processes' time slices inflate the wall time of every repetition alike,
 * the thread's CPU time hardly. A timed point keeps the minimum over its
 * repetitions, and the repetitions are taken in passes over a whole study,
 * so that a burst of load spoils one pass, not every repetition of a run.
 * Every timed study records the same machine block. */
#ifndef VI_TIMING_H
#define VI_TIMING_H

#include "machine.h"

#include <jansson.h>

/* CPU time of the calling thread, seconds. */
double vi_cpu_clock(void);

/* One timed interval: vi_time_start, the work, vi_time_stop. */
typedef struct vi_time {
  double cpu, wall;
} vi_time;
void vi_time_start(vi_time *t);
void vi_time_stop(vi_time *t);

/* What a timed point of a study keeps: the minimum CPU and wall time over
 * its successful repetitions, and their count. */
typedef struct vi_timed {
  double seconds, wall;
  int reps;
} vi_timed;
/* The first repetition (reps = 1), and a later one (minimum kept). */
void vi_timed_first(vi_timed *p, const vi_time *t);
void vi_timed_more(vi_timed *p, const vi_time *t);

/* Repetitions of a run of t seconds: fast below 5 ms, mid below 50 ms,
 * slow otherwise (more where they are cheap); 1 in a quick run. t = 0 gives
 * the most of any run (the number of passes). */
typedef struct vi_reps_policy {
  int fast, mid, slow;
} vi_reps_policy;
int vi_reps(const vi_reps_policy *p, int quick, double t);

/* The later repetitions of a study's npts points, in passes: in pass k
 * (1 .. vi_reps(0) - 1) every point i that timed(ctx, i) returns (NULL:
 * not timed, e.g. a failed run) and whose own repetition count is above k
 * is run again by again(ctx, i, &t) (0 on success), and the minimum is
 * kept. Progress lines "WHO: timing repetition K" when progress. */
void vi_repeat_in_passes(void *ctx, int npts, vi_timed *(*timed)(void *ctx, int i),
                         int (*again)(void *ctx, int i, vi_time *t), const vi_reps_policy *p,
                         int quick, const char *who, int progress);

/* The machine as JSON: cpu, cores, pus, os, compiler, build, version and
 * the one-line description (vi_machine_line) as "line". */
json_t *vi_machine_json(const vi_machine *m, const char *line);

/* How a timed study's cells were scheduled, recorded in its machine block
 * (issue 26): -j and MPI measure untimed cells only. */
#define VI_TIMING_SCHEDULE                                                              \
  "timed cells run one at a time in the study's thread, pinned to one core, with no " \
  "other cell of the run measured meanwhile, whatever -j (untimed cells run before "   \
  "or after them; under MPI the other ranks wait)"

/* The machine block of a timed study: where it ran and how it was timed. */
typedef struct vi_timing {
  vi_machine machine;
  char line[512];
  vi_pin *pin;
  int core;          /* the pinned core, -1 when not pinned */
  char pin_note[256]; /* why the thread is not pinned, or "" */
} vi_timing;
/* Describe the machine and pin the calling thread; never fails (an
 * unpinned thread is noted in pin_note). */
void vi_timing_begin(vi_timing *t);
void vi_timing_end(vi_timing *t);
/* {"cpu": ..., "line": ..., "pinned_core": ..., "clock": ...}, via
 * vi_machine_json. */
json_t *vi_timing_json(const vi_timing *t);

#endif
