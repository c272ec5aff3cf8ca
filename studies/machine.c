/* machine.c: machine description and thread pinning with hwloc
 * (machine.h). The CPU model comes from hwloc's "CPUModel" info of the
 * first package (Linux /proc/cpuinfo underneath); the pinning binds the
 * calling thread to a single PU of the last core with
 * hwloc_set_cpubind(HWLOC_CPUBIND_THREAD), after singlify so the kernel
 * cannot move it between hyperthreads. */
#include "machine.h"

#include <hwloc.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "version.h"

#ifndef VI_BUILDTYPE
#define VI_BUILDTYPE "unknown"
#endif

struct vi_pin {
  hwloc_topology_t topo;
  hwloc_bitmap_t old; /* binding before the pin, restored on release */
};

double vi_clock(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void vi_machine_describe(vi_machine *m) {
  memset(m, 0, sizeof *m);
  snprintf(m->cpu, sizeof m->cpu, "unknown");
  hwloc_topology_t topo;
  if (hwloc_topology_init(&topo) == 0) {
    if (hwloc_topology_load(topo) == 0) {
      m->packages = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE);
      m->cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
      m->pus = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
      hwloc_obj_t pkg = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PACKAGE, 0);
      const char *model = pkg ? hwloc_obj_get_info_by_name(pkg, "CPUModel") : NULL;
      if (!model) {
        model = hwloc_obj_get_info_by_name(hwloc_get_root_obj(topo), "CPUModel");
      }
      if (model) {
        snprintf(m->cpu, sizeof m->cpu, "%s", model);
        /* Some firmware pads the model string with blanks (seen: "Oxide
         * Virtual Turin-like Processor" and 13 spaces): not part of it. */
        size_t len = strlen(m->cpu);
        while (len > 0 && isspace((unsigned char)m->cpu[len - 1])) {
          m->cpu[--len] = '\0';
        }
      }
    }
    hwloc_topology_destroy(topo);
  }
  struct utsname u;
  if (uname(&u) == 0) {
    snprintf(m->os, sizeof m->os, "%s %s %s", u.sysname, u.release, u.machine);
  } else {
    snprintf(m->os, sizeof m->os, "unknown");
  }
#if defined(__clang__)
  snprintf(m->compiler, sizeof m->compiler, "clang %s", __clang_version__);
#elif defined(__GNUC__)
  snprintf(m->compiler, sizeof m->compiler, "gcc %d.%d.%d", __GNUC__, __GNUC_MINOR__,
           __GNUC_PATCHLEVEL__);
#else
  snprintf(m->compiler, sizeof m->compiler, "unknown");
#endif
  snprintf(m->build, sizeof m->build, "%s", VI_BUILDTYPE);
  snprintf(m->version, sizeof m->version, "%s", vi_version());
}

void vi_machine_line(const vi_machine *m, char *buf, size_t len) {
  snprintf(buf, len, "%s (%d cores, %d PUs), %s, %s, %s build, vistudy %s", m->cpu, m->cores,
           m->pus, m->os, m->compiler, m->build, m->version);
}

int vi_pin_thread(vi_pin **out, int *core, char *err, size_t errlen) {
  *out = NULL;
  vi_pin *p = calloc(1, sizeof *p);
  if (!p) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  if (hwloc_topology_init(&p->topo) != 0 || hwloc_topology_load(p->topo) != 0) {
    snprintf(err, errlen, "hwloc cannot load the topology");
    free(p);
    return -1;
  }
  int ncores = hwloc_get_nbobjs_by_type(p->topo, HWLOC_OBJ_CORE);
  hwloc_obj_t c = ncores > 0 ? hwloc_get_obj_by_type(p->topo, HWLOC_OBJ_CORE, (unsigned)(ncores - 1))
                             : hwloc_get_obj_by_type(p->topo, HWLOC_OBJ_PU, 0);
  p->old = hwloc_bitmap_alloc();
  hwloc_bitmap_t set = c ? hwloc_bitmap_dup(c->cpuset) : NULL;
  if (!c || !p->old || !set) {
    snprintf(err, errlen, "hwloc found no core to pin to");
    hwloc_bitmap_free(set);
    vi_pin_release(p);
    return -1;
  }
  hwloc_get_cpubind(p->topo, p->old, HWLOC_CPUBIND_THREAD);
  hwloc_bitmap_singlify(set);
  if (hwloc_set_cpubind(p->topo, set, HWLOC_CPUBIND_THREAD) != 0) {
    snprintf(err, errlen, "hwloc_set_cpubind refused to pin the thread to core %u",
             c->logical_index);
    hwloc_bitmap_free(set);
    vi_pin_release(p);
    return -1;
  }
  hwloc_bitmap_free(set);
  *core = (int)c->logical_index;
  *out = p;
  return 0;
}

void vi_pin_release(vi_pin *p) {
  if (!p) {
    return;
  }
  if (p->old && !hwloc_bitmap_iszero(p->old)) {
    hwloc_set_cpubind(p->topo, p->old, HWLOC_CPUBIND_THREAD);
  }
  hwloc_bitmap_free(p->old);
  hwloc_topology_destroy(p->topo);
  free(p);
}

const char *vi_version(void) {
  return VI_VERSION;
}

const char *vi_release(void) {
  return VI_RELEASE;
}
