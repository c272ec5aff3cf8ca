/* report.h: how studies are reported: text tables for people, JSON for
 * programs (jansson), written by the rules of outfile.h. */
#ifndef VI_REPORT_H
#define VI_REPORT_H

#include "vistudy.h"
#include "fit.h"
#include "timing.h"
#include "outcome.h"
#include "outfile.h"

#include <jansson.h>
#include <stdio.h>

/* Fits of q, p, lambda of an order study. */
void vi_order_fits(const vi_order_result *r, vi_fit fits[VI_NQUANT]);
/* Fit of the max relative energy error (man2020 (46)-(49)). */
vi_fit vi_order_energy_fit(const vi_order_result *r);
/* The robust energy measure: the root mean square over the nodes. */
vi_fit vi_order_energy_rms_fit(const vi_order_result *r);
/* Fit of the method's extra block (its size; r->extra_zero: an error). */
vi_fit vi_order_extra_fit(const vi_order_result *r);

/* The order study as a human-readable table. */
void vi_order_print(FILE *f, const vi_order_result *r, const vi_fit fits[VI_NQUANT]);

/* The order study as JSON: system, params, method, precision, T, measure,
 * h, err {q, p, lambda, energy}, energy_err, orders {q, p, lambda, energy:
 * number or "d" or "plateau" or null}, fit {per quantity: status, lo, hi,
 * residual, n_plateau}, floor, reference, reference_accuracy, steps,
 * newton_per_step, seconds, run_status. */
json_t *vi_order_json(const vi_order_result *r, const vi_fit fits[VI_NQUANT]);

/* Before any work: every output DIR/ID+SUFFIX (suffixes separated by
 * blanks, e.g. ".json .md .csv") can be written as a regular file (see
 * vi_dest_check). 0, or -1 with the path and the reason in err. */
int vi_study_check(const char *dir, const char *id, const char *suffixes, char *err,
                   size_t errlen);

/* A system's parameter values as a JSON object: scalars as numbers,
 * vector parameters (q0, v0, ...) as arrays, in the order of the type. */
json_t *vi_params_json(const vi_system_d *sys);

/* Write JSON to path (indent 2, 17 digits) by the rules of outfile.h;
 * 0 or -1 with the path and errno text in err. */
int vi_json_write(const json_t *j, const char *path, char *err, size_t errlen);

/* JSON as a member of a set of outputs (outfile.h). 0, or -1 with err. */
int vi_outset_json(vi_outset *set, const char *path, const json_t *j, char *err,
                   size_t errlen);

/* The three files every study writes, DIR/ID.json, DIR/ID.md, DIR/ID.csv
 * (csv NULL: none), as members of set; md or j NULL (a failed allocation)
 * is an error. 0, or -1 with the failure in err (the owner aborts the set). */
int vi_study_stage(vi_outset *set, const char *dir, const char *id, const json_t *j,
                   const char *md, const char *csv, char *err, size_t errlen);

/* The one message of a study that stopped early: no result file replaced
 * (outfile.h), and what a rerun resumes from (kept, e.g. "measured cells";
 * NULL: nothing, a reduced figure run stores nothing). */
void vi_study_stopped(const char *id, const char *kept);

/* vi_study_stage of a set of its own, committed: the three files replaced
 * together or not at all. 0, or -1 with the failure in err. */
int vi_study_write(const char *dir, const char *id, const json_t *j, const char *md,
                   const char *csv, char *err, size_t errlen);

#endif
