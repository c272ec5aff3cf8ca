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

#include <jansson.h>
#include <stddef.h>

typedef struct vi_cells {
  char path[VI_PATH_MAX + 64];
  json_t *root; /* the file's content: header and "cells" {key: value} */
  int loaded;   /* number of cells read from an earlier run */
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

/* A fitted order as a stored measurement: {"order": number or null,
 * "label": "4.01" | "d" | "plateau" | "-", "residual": number or null}. */
json_t *vi_cells_fit_json(double order, const char *label, double residual);

/* Read one back, checking it is consistent (a number with its two-decimal
 * label, or null with one of the other labels). 0, or -1 with the reason
 * in why. order and residual are NaN where null. */
int vi_cells_fit_read(json_t *v, double *order, char *label, size_t labellen,
                      double *residual, char *why, size_t whylen);

#endif
