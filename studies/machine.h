/* machine.h: what a timing needs besides a clock: the machine it ran on
 * (CPU model from hwloc, core count, OS, compiler, build type, version) and
 * a thread pinned to one core (hwloc), so that run times from studies and
 * benchmarks can be compared run to run.
 *
 * Used by the figure studies (wenger2017-fig4/5) and the benchmark shim
 * (bench/, C++). Not templated: nothing here depends on the precision. */
#ifndef VI_MACHINE_H
#define VI_MACHINE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vi_machine {
  char cpu[160];     /* hwloc "CPUModel" of the first package, or "unknown" */
  int packages, cores, pus;
  char os[200];      /* uname: sysname release machine */
  char compiler[96]; /* e.g. "gcc 12.2.0" */
  char build[32];    /* meson build type */
  char version[64];  /* git describe at build time */
} vi_machine;

/* Fill m; never fails (fields it cannot learn say "unknown"). */
void vi_machine_describe(vi_machine *m);

/* One line: "CPU (N cores, M PUs), OS, compiler, build". */
void vi_machine_line(const vi_machine *m, char *buf, size_t len);

/* Pin the calling thread to one core (the last one: core 0 takes most
 * interrupts on Linux) and remember the previous binding. *core receives
 * the core's logical index. Returns 0, or -1 with the reason in err (the
 * thread then stays unpinned and timings are still valid, only noisier). */
typedef struct vi_pin vi_pin;
int vi_pin_thread(vi_pin **out, int *core, char *err, size_t errlen);
/* Restore the previous binding and free; p may be NULL. */
void vi_pin_release(vi_pin *p);

/* The program's version: git describe at build time (the release when
 * built outside git). */
const char *vi_version(void);
/* The release, meson's project version (vistudy --version, vistudy.pc). */
const char *vi_release(void);

/* Monotonic wall clock in seconds. */
double vi_clock(void);

#ifdef __cplusplus
}
#endif

#endif
