/* cells.h: the cell store of resumable studies (design.md "Studies are
 * data": cell store with resume, atomic writes, verdicts recomputed).
 *
 * A study made of cells (one order study, one curve) stores each finished
 * cell's measurement in DIR/ID.partial.json, written atomically after every
 * cell, so an interrupted run resumes from the cells done. The file records
 * what determines the measurements:
 *   schema  "vistudy-cells/1";
 *   study   the study ID;
 *   config  the study's own description of its configuration (system,
 *           parameters, T, precision policy, reduced or full run);
 *   code    the program's version and a hash of its executable, so a
 *           rebuilt program never trusts measurements of another build.
 * A file that differs in any of them is not used (a note says why), and
 * the study recomputes every cell. Only measurements are stored, never
 * verdicts: the study recomputes every verdict from the stored measurement
 * and the current published values, and validates each stored cell itself
 * (a cell it cannot read is recomputed, with a message). */
#ifndef VI_CELLS_H
#define VI_CELLS_H

#include "outfile.h"
#include "report.h"

#include <jansson.h>
#include <stddef.h>

typedef struct vi_cells {
  char path[VI_PATH_MAX + 64];
  json_t *root; /* the file's content: header and "cells" {key: value} */
  int loaded;   /* number of cells read from an earlier run */
  int memory_only; /* keep put cells in memory, write no file (quick figures) */
} vi_cells;

/* The program's identity for the store: version and the FNV-1a hash of
 * /proc/self/exe (the version alone where that cannot be read). */
void vi_code_id(char *buf, size_t len);

/* Open the store of study id in dir for config. fresh: ignore an earlier
 * file (it is replaced at the first vi_cells_put). note receives what
 * happened to an earlier file: resumed from (with its cell count), or why
 * it was not used ("" when there was none).
 * 0, or -1 with the reason in err (out of memory). */
int vi_cells_open(vi_cells *cs, const char *dir, const char *id, const char *config,
                  int fresh, char *note, size_t notelen, char *err, size_t errlen);

/* The stored value of cell key (borrowed), or NULL. */
json_t *vi_cells_get(const vi_cells *cs, const char *key);

/* Store value (the reference is stolen) as cell key and rewrite the file
 * atomically. 0, or -1 with the path and errno text in err. */
int vi_cells_put(vi_cells *cs, const char *key, json_t *value, char *err, size_t errlen);

/* The study is complete and its results are written: remove the file. */
void vi_cells_finish(vi_cells *cs);

void vi_cells_close(vi_cells *cs);

/* What a resumable study measures: its units (the table runner's cells,
 * the order validation's cases, a figure's curves), size bytes each, and
 * what the measuring loop does with one. noun names a unit in messages.
 * restore also takes back a unit measured by another rank (dist.h): the
 * stored JSON is what travels. Optional (NULL): cells, the store a unit
 * goes to when it is not the pool's (a figure set: one store per figure;
 * NULL returned: not stored); fail, which reports a unit's failure as the
 * unit's own, the pool going on (else the pool reports it and starts no
 * new unit). */
typedef struct vi_cells_unit {
  const char *noun;
  size_t size;
  void (*key)(const void *u, char *buf, size_t len);   /* its key in the store */
  void (*label)(const void *u, char *buf, size_t len); /* for progress and errors */
  int (*restore)(void *u, json_t *v, char *why, size_t whylen); /* 0 or -1 */
  int (*done)(const void *u);
  int (*measure)(void *u, const void *ctx, char *err, size_t errlen); /* 0 or -1 */
  json_t *(*stored)(const void *u); /* the measurement to store */
  vi_cells *(*cells)(void *u);
  void (*fail)(void *u, const void *ctx, const char *err);
} vi_cells_unit;

/* The measuring loop of study id over units[0..n-1]: a unit the store
 * holds is restored (an invalid one is recomputed, with a message); any
 * other is measured (ctx passed on) and stored at once, with progress on
 * stderr if asked. 0, or -1 after the first failed measurement or store
 * write (reported on stderr). */
int vi_cells_measure(vi_cells *cs, const vi_cells_unit *u, void *units, int n,
                     const void *ctx, const char *id, int progress, double every);

/* How a pool measures: progress (vi_progress_mode) every seconds; threads
 * measuring on this process (<= 0: one per CPU of the affinity mask, or 1
 * under MPI, one rank per core); the MPI ranks (NULL: none); costs: a cost
 * log (JSON lines) to order the units by (longest first) and to append
 * every measured unit's wall time to, or NULL. */
typedef struct vi_pool_opts {
  int progress;
  double every;
  int threads;
  struct vi_dist *dist;
  const char *costs;
} vi_pool_opts;

/* The same loop with the units not restored measured by a pool of threads
 * and, under MPI, by the other ranks (rank 0 coordinates and stores; a
 * worker rank measures what it is handed and returns -1 when rank 0 moves
 * on, see dist.h): u->measure is then called concurrently on distinct
 * units (it must touch nothing shared but ctx, read-only); each finished
 * unit is stored at once under a lock, so an interrupted run resumes from
 * every unit finished, in any order. After a failed measurement or store
 * write no new unit starts. 0, or -1 (reported on stderr). One thread
 * without MPI and cost log: the units measured in the calling thread, in
 * order. */
int vi_cells_measure_pool(vi_cells *cs, const vi_cells_unit *u, void *units, int n,
                          const void *ctx, const char *id, const vi_pool_opts *po);

/* The pool itself, over the unit indices pending[0..np-1] (reordered by
 * the cost log), for a runner that restores its units itself (figures). */
int vi_cells_pool(vi_cells *cs, const vi_cells_unit *u, void *units, int n, int *pending,
                  int np, const void *ctx, const char *id, const vi_pool_opts *po);

/* A fitted order as a stored measurement: {"order": number or null,
 * "label": "4.01" | "d" | "plateau" | "-", "residual": number or null}. */
json_t *vi_cells_fit_json(double order, const char *label, double residual);

/* The errors of an order study's runs as the store keeps them: n numbers,
 * null for a failed run (NaN); and read back, each a finite number >= 0 or
 * null: 0, or -1 with "errors of NAME: ..." in why. */
json_t *vi_cells_errors_json(const double *e, int n);
int vi_cells_errors_read(json_t *a, const char *name, double *e, int n, char *why,
                         size_t whylen);

/* The largest |order| a stored measurement may hold (a slope of the
 * errors of one study is a few units; more is a corrupt store). */
#define VI_CELLS_ORDER_MAX 100

/* Whether label is a fit's label: "4.01" (two decimals of an order within
 * VI_CELLS_ORDER_MAX), "d", "plateau", "unresolved" or "-". */
int vi_cells_label_ok(const char *label);

/* Read one back, checking it is consistent (an order within
 * VI_CELLS_ORDER_MAX with its two-decimal label and a residual in 0..1e3,
 * or null with one of the other labels and a null residual). 0, or -1
 * with the reason in why (nothing written). order and residual are NaN
 * where null. */
int vi_cells_fit_read(json_t *v, double *order, char *label, size_t labellen,
                      double *residual, char *why, size_t whylen);

/* A fitted order with the range it was fitted over, as a table study
 * measures a cell: the order (NaN unless the fit is ok) and its label, the
 * residual, the coarsest and finest h of the fit and the errors there (NaN
 * unless ok), the points of the fit, and the CPU time of the study. */
typedef struct vi_cell_fit {
  char label[16];
  double order, residual, hmax, hmin, emax, emin;
  int npoints;
  double seconds;
} vi_cell_fit;

/* Not measured yet: no order, label "-". */
void vi_cell_fit_none(vi_cell_fit *c);

/* The fit f of the errors err[0..r->nh-1] of the order study r. */
void vi_cell_fit_set(vi_cell_fit *c, const vi_order_result *r, const vi_fit *f,
                     const double *err);

/* The measurement to store: the study's own keys own (the reference is
 * stolen), then name {order, label, residual} (as vi_cells_fit_json),
 * fit_h [hmax, hmin], fit_err [emax, emin], fit_points, seconds; NULL out
 * of memory. */
json_t *vi_cell_fit_stored(json_t *own, const char *name, const vi_cell_fit *c);

/* Read those keys of v back; v holds exactly nown keys of the study's own
 * beside them. Every value is checked against what a fit can be (the
 * order as vi_cells_fit_read; an ok fit with 0 < h_min < h_max, positive
 * errors and 2..VI_ORDER_MAXH points, no range without one; seconds
 * finite, >= 0). 0, or -1 with the reason in why (c untouched). */
int vi_cell_fit_restore(json_t *v, const char *name, int nown, vi_cell_fit *c, char *why,
                        size_t whylen);

#endif
