/* dist.h: the ranks of `mpirun -n N vistudy reproduce` (issue 26).
 *
 * Rank 0 runs the studies as a serial run would: it restores what the cell
 * store holds, runs the timed cells itself, coordinates every pool of
 * untimed units (cells.c: it hands a unit to each idle rank, longest first
 * where a cost log knows the costs, and measures on its own threads too),
 * and it is the one process that writes: results, the resume store, the
 * cost log. Every other rank is a worker: handed unit k of a study's pool,
 * it runs that study's runner, which builds the same units
 * deterministically, measures unit k and sends it back as the JSON the
 * store keeps (the store's own serialisation, so a unit measured elsewhere
 * is restored exactly as a resumed one). A worker writes nothing and prints
 * nothing. A rank that dies takes the run down with it (mpirun's default),
 * but every unit finished before is in rank 0's store: a rerun resumes.
 *
 * Without MPI at build time, or run without mpirun/srun, there is no
 * vi_dist (NULL): one rank, every call below trivial. A launcher's N > 1
 * tasks that this build cannot join into one run (no MPI, or srun without
 * an MPI plugin) are refused: N copies of a run would write the same
 * results. */
#ifndef VI_DIST_H
#define VI_DIST_H

#include <stddef.h>

typedef struct vi_dist vi_dist;

/* A unit handed to a worker: the study whose runner builds the pool, the
 * pool's name, the unit's index among n, its key and a fingerprint of the
 * build and of its store's configuration (all checked by the worker: units
 * built differently, by another build or for another configuration, are
 * an error, never a wrong result); stop: the run is over. One pool per
 * study run: a worker finds a pool by running its study's runner from the
 * start (every runner has one pool today). */
typedef struct vi_dist_task {
  int valid, stop;
  char study[64], pool[64];
  int unit, n;
  char key[256];
  unsigned long long fingerprint;
} vi_dist_task;

/* Whether this build has MPI. */
int vi_dist_available(void);

/* The run's ranks when this process was started by mpirun or srun (their
 * environment says so) and there are at least 2: *out is set, else NULL.
 * 0, or -1 with the reason in err (MPI present but failing, or asked for
 * in a build without it). */
int vi_dist_init(int *argc, char ***argv, vi_dist **out, char *err, size_t errlen);
int vi_dist_rank(const vi_dist *d); /* 0 without MPI */
int vi_dist_size(const vi_dist *d); /* 1 without MPI */

/* Rank 0: the study it runs now (named in the tasks it sends). */
void vi_dist_set_study(vi_dist *d, const char *id);
const char *vi_dist_study(const vi_dist *d);

/* Rank 0 tells the workers the run is over; every rank finalizes MPI and
 * frees d (NULL: nothing). */
void vi_dist_finish(vi_dist *d);

/* End every rank after an MPI failure or a disagreement between ranks,
 * with why on stderr (what rank 0 stored is kept: a rerun resumes). */
_Noreturn void vi_dist_abort(vi_dist *d, const char *why);

/* Coordinator (rank 0; one thread at a time). */
int vi_dist_send_task(vi_dist *d, int rank, const vi_dist_task *t);
/* Wait for any worker's result: its rank, the unit, rc (0: text is the
 * stored JSON; else text is the error), the unit's wall seconds on the
 * worker. text is malloc'd. The wait polls with short sleeps, so that an
 * idle coordinator takes no CPU from the cores measuring. 0, or -1. */
int vi_dist_recv_result(vi_dist *d, int *rank, int *unit, int *rc, double *seconds,
                        char **text);

/* Worker. The task received and not served yet (valid = 0: none). */
vi_dist_task *vi_dist_held(vi_dist *d);
/* Wait for the next task into vi_dist_held (polling, as above). 0 or -1. */
int vi_dist_recv_task(vi_dist *d);
/* Send the result of the held task and mark it served. 0 or -1. */
int vi_dist_send_result(vi_dist *d, int rc, double seconds, const char *text);
/* Tasks served so far (the worker's loop sees whether a runner served any). */
long vi_dist_served(const vi_dist *d);

#endif
