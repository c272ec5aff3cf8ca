/* dist.c: the ranks of an MPI run (dist.h). Messages: a task is the
 * vi_dist_task bytes (every rank runs the same build on machines of one
 * kind); a result is a header (unit, rc, seconds) followed by its text. */
#define _POSIX_C_SOURCE 200809L
#include "dist.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The tasks of the Slurm step this process is one of (srun), 0 outside. */
static long step_tasks(void) {
  const char *e = getenv("SLURM_STEP_NUM_TASKS");
  return e ? strtol(e, NULL, 10) : 0;
}

#ifdef VI_HAVE_MPI
#include <mpi.h>
#include <time.h>

enum { TAG_TASK = 1, TAG_RESULT = 2 };

struct vi_dist {
  int rank, size;
  char study[64];
  vi_dist_task held;
  long served;
};

typedef struct result_head {
  int unit, rc;
  double seconds;
} result_head;

int vi_dist_available(void) {
  return 1;
}

_Noreturn void vi_dist_abort(vi_dist *d, const char *why) {
  fprintf(stderr, "vistudy reproduce: rank %d: %s; every rank stops (the cells stored so "
          "far are kept: rerun to resume)\n", d ? d->rank : 0, why);
  fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 1);
  exit(1); /* MPI_Abort does not return */
}

/* Started by a launcher: OpenMPI's mpirun, or a PMI/PMIx launcher (srun),
 * or one of several tasks of an srun step. */
static int launched(void) {
  return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK") || getenv("PMI_SIZE") ||
         step_tasks() > 1;
}

int vi_dist_init(int *argc, char ***argv, vi_dist **out, char *err, size_t errlen) {
  *out = NULL;
  if (!launched()) {
    return 0;
  }
  int provided = 0;
  /* One thread of rank 0 talks to the workers while others measure. */
  if (MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS) {
    snprintf(err, errlen, "MPI_Init_thread failed");
    return -1;
  }
  if (provided < MPI_THREAD_SERIALIZED) {
    snprintf(err, errlen, "the MPI library offers no MPI_THREAD_SERIALIZED");
    MPI_Finalize();
    return -1;
  }
  vi_dist *d = calloc(1, sizeof *d);
  if (!d) {
    snprintf(err, errlen, "out of memory");
    MPI_Finalize();
    return -1;
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &d->rank);
  MPI_Comm_size(MPI_COMM_WORLD, &d->size);
  if (d->size < 2 && step_tasks() > 1) {
    snprintf(err, errlen,
             "srun started %ld tasks, but MPI sees each as a run of its own (one "
             "rank): start them with srun --mpi=pmix (see srun --mpi=list), or mpirun",
             step_tasks());
    MPI_Finalize();
    free(d);
    return -1;
  }
  if (d->size < 2) {
    MPI_Finalize();
    free(d);
    return 0;
  }
  *out = d;
  return 0;
}

int vi_dist_rank(const vi_dist *d) {
  return d ? d->rank : 0;
}

int vi_dist_size(const vi_dist *d) {
  return d ? d->size : 1;
}

void vi_dist_set_study(vi_dist *d, const char *id) {
  if (d) {
    snprintf(d->study, sizeof d->study, "%s", id);
  }
}

const char *vi_dist_study(const vi_dist *d) {
  return d ? d->study : "";
}

void vi_dist_finish(vi_dist *d) {
  if (!d) {
    return;
  }
  if (d->rank == 0) {
    vi_dist_task stop = {.valid = 1, .stop = 1};
    for (int r = 1; r < d->size; r++) {
      vi_dist_send_task(d, r, &stop);
    }
  }
  MPI_Finalize();
  free(d);
}

/* Wait for a message of tag from source (MPI_ANY_SOURCE) without spinning:
 * mpirun's blocking receive polls a core at 100%, which would slow the
 * ranks measuring beside an idle one on the same machine. The sleep
 * between polls grows from 50 us to max_ns: a message that follows soon
 * is taken at once, a long wait wakes rarely: each wake-up preempts a
 * measuring thread. At a fixed 200 us, man2020-table3 under mpirun -n 2 on
 * 2 cores took 51.5 s and 99.9 s of user CPU; with this, 47.3 s and 91.4 s
 * (-j 2: 48.5 s, 94.6 s). */
static int wait_msg(int source, int tag, MPI_Status *st, long max_ns) {
  for (long ns = 50000;; ns = ns * 2 < max_ns ? ns * 2 : max_ns) {
    int flag = 0;
    if (MPI_Iprobe(source, tag, MPI_COMM_WORLD, &flag, st) != MPI_SUCCESS) {
      return -1;
    }
    if (flag) {
      return 0;
    }
    struct timespec ts = {0, ns};
    nanosleep(&ts, NULL);
  }
}

int vi_dist_send_task(vi_dist *d, int rank, const vi_dist_task *t) {
  (void)d;
  return MPI_Send(t, (int)sizeof *t, MPI_BYTE, rank, TAG_TASK, MPI_COMM_WORLD) ==
                 MPI_SUCCESS
             ? 0
             : -1;
}

int vi_dist_recv_result(vi_dist *d, int *rank, int *unit, int *rc, double *seconds,
                        char **text) {
  (void)d;
  MPI_Status st;
  int count = 0;
  *text = NULL;
  if (wait_msg(MPI_ANY_SOURCE, TAG_RESULT, &st, 5000000) != 0 ||
      MPI_Get_count(&st, MPI_BYTE, &count) != MPI_SUCCESS ||
      count < (int)sizeof(result_head)) {
    return -1;
  }
  char *buf = malloc((size_t)count + 1);
  if (!buf || MPI_Recv(buf, count, MPI_BYTE, st.MPI_SOURCE, TAG_RESULT, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE) != MPI_SUCCESS) {
    free(buf);
    return -1;
  }
  result_head h;
  memcpy(&h, buf, sizeof h);
  const size_t len = (size_t)count - sizeof h;
  memmove(buf, buf + sizeof h, len);
  buf[len] = '\0';
  *rank = st.MPI_SOURCE;
  *unit = h.unit;
  *rc = h.rc;
  *seconds = h.seconds;
  *text = buf;
  return 0;
}

vi_dist_task *vi_dist_held(vi_dist *d) {
  return &d->held;
}

int vi_dist_recv_task(vi_dist *d) {
  MPI_Status st;
  int count = 0;
  /* An idle worker wakes at most every 5 ms: it may wait through rank 0's
   * timed cells, which must have their core to themselves. */
  if (wait_msg(0, TAG_TASK, &st, 5000000) != 0 ||
      MPI_Get_count(&st, MPI_BYTE, &count) != MPI_SUCCESS ||
      count != (int)sizeof d->held ||
      MPI_Recv(&d->held, count, MPI_BYTE, 0, TAG_TASK, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE) != MPI_SUCCESS) {
    return -1;
  }
  d->held.valid = 1;
  d->held.study[sizeof d->held.study - 1] = d->held.pool[sizeof d->held.pool - 1] = '\0';
  d->held.key[sizeof d->held.key - 1] = '\0';
  return 0;
}

int vi_dist_send_result(vi_dist *d, int rc, double seconds, const char *text) {
  const size_t len = text ? strlen(text) : 0;
  if (len > (size_t)1 << 30) {
    return -1;
  }
  char *buf = malloc(sizeof(result_head) + len + 1);
  if (!buf) {
    return -1;
  }
  result_head h = {.unit = d->held.unit, .rc = rc, .seconds = seconds};
  memcpy(buf, &h, sizeof h);
  if (len) {
    memcpy(buf + sizeof h, text, len);
  }
  const int ok = MPI_Send(buf, (int)(sizeof h + len), MPI_BYTE, 0, TAG_RESULT,
                          MPI_COMM_WORLD) == MPI_SUCCESS;
  free(buf);
  d->held.valid = 0;
  d->served++;
  return ok ? 0 : -1;
}

long vi_dist_served(const vi_dist *d) {
  return d->served;
}

#else /* built without MPI: one rank */

int vi_dist_available(void) {
  return 0;
}

int vi_dist_init(int *argc, char ***argv, vi_dist **out, char *err, size_t errlen) {
  (void)argc;
  (void)argv;
  *out = NULL;
  const char *n = getenv("OMPI_COMM_WORLD_SIZE");
  if (!n) {
    n = getenv("PMI_SIZE");
  }
  const long tasks = n ? strtol(n, NULL, 10) : step_tasks();
  if (tasks > 1 || (tasks == 0 && getenv("PMIX_RANK"))) {
    snprintf(err, errlen,
             "started as one of several tasks of an MPI launcher (mpirun or srun), but "
             "this vistudy was built without MPI: each task would run the whole study "
             "(install libopenmpi-dev and rerun meson setup; docs/cluster.md)");
    return -1;
  }
  return 0;
}

int vi_dist_rank(const vi_dist *d) {
  (void)d;
  return 0;
}

int vi_dist_size(const vi_dist *d) {
  (void)d;
  return 1;
}

void vi_dist_set_study(vi_dist *d, const char *id) {
  (void)d;
  (void)id;
}

const char *vi_dist_study(const vi_dist *d) {
  (void)d;
  return "";
}

void vi_dist_finish(vi_dist *d) {
  (void)d;
}

_Noreturn void vi_dist_abort(vi_dist *d, const char *why) {
  (void)d;
  fprintf(stderr, "vistudy reproduce: %s\n", why);
  exit(1);
}

int vi_dist_send_task(vi_dist *d, int rank, const vi_dist_task *t) {
  (void)d;
  (void)rank;
  (void)t;
  return -1;
}

int vi_dist_recv_result(vi_dist *d, int *rank, int *unit, int *rc, double *seconds,
                        char **text) {
  (void)d;
  (void)rank;
  (void)unit;
  (void)rc;
  (void)seconds;
  *text = NULL;
  return -1;
}

vi_dist_task *vi_dist_held(vi_dist *d) {
  (void)d;
  return NULL;
}

int vi_dist_recv_task(vi_dist *d) {
  (void)d;
  return -1;
}

int vi_dist_send_result(vi_dist *d, int rc, double seconds, const char *text) {
  (void)d;
  (void)rc;
  (void)seconds;
  (void)text;
  return -1;
}

long vi_dist_served(const vi_dist *d) {
  (void)d;
  return 0;
}

#endif
