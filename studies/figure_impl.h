/* figure_impl.h: what the three files of the figure runner share (private
 * to studies/): the curve runs by kind (figure_runs.c), the outputs and the
 * cell store's form of a curve (figure_out.c), both used by the driver
 * (run_figure.c). */
#ifndef VI_FIGURE_IMPL_H
#define VI_FIGURE_IMPL_H

#include "figure.h"
#include "outfile.h"
#include "reproduce.h"
#include "timing.h"

#include <jansson.h>

/* Windows of a whole-run trace: the number of rows a curve keeps. */
#define VI_FIG_TRACE_WINDOWS 2000

/* Append a row (ncol values) to a series; 0, or -1 out of memory. */
int vi_fig_push(vi_series *s, const double *row);
/* The column names of the figure's series into cols (VI_FIG_MAXCOLS; the
 * strings are static or the spec's), their count: a trace's t, min, max
 * and then the columns of the measures beside it (also[].column). */
int vi_fig_cols(const vi_fig_spec *f, const char **cols);

/* One untimed curve i of a figure over [0, T] (trace, residual, msweep,
 * convergence) into s and its close-up z (NULL: none; zoom its span); the
 * timed work-precision curves of a figure together (vi_fig_work_sweeps).
 * VI_OK, or a status with err. */
int vi_fig_curve_run(const vi_fig_spec *f, int i, double T, double zoom, int quick,
                     vi_series *s, vi_series *z, char *err, size_t errlen);
int vi_fig_work_sweeps(const vi_fig_spec *f, vi_series *ss, int ns, double T,
                       const reproduce_opts *o, char *err, size_t errlen);

/* The method curve i of f records when it runs (quick: the reduced run),
 * from its spec: an m-sweep's spec with the swept option's range
 * ("NAME:k=v,m=1..8"), any other the stepper's canonical spec (as its
 * trace, order study or sweep names it). 0, or -1 with the reason in why. */
int vi_fig_curve_method(const vi_fig_spec *f, int i, int quick, char *buf, size_t len,
                        char *why, size_t whylen);
/* What a trace's breakdown event says ("|H - H(0)| > 1"). */
void vi_fig_breakdown_what(const vi_fig_spec *f, const vi_curve_spec *c, char *buf,
                           size_t len);

/* A finished curve as the cell store keeps it (its series, the status that
 * ended it, its close-up), and restored from it: curve i of f over [0, T]
 * (close-up of [0, zoom]; quick: the reduced run) into s and zoom, every
 * stored field checked against what that curve's run can record (its
 * method, h, columns, rows, status, summaries, fit, event). -1 with the
 * reason in why, s and zoom untouched. */
json_t *vi_fig_curve_stored(const vi_series *s, const vi_series *zoom);
int vi_fig_curve_restore(const vi_fig_spec *f, int i, double T, double zoom_T, int quick,
                         vi_series *s, vi_series *zoom, json_t *v, char *why,
                         size_t whylen);

/* The panels a spec names. */
int vi_fig_panel_count(const vi_fig_spec *f);

/* Every output of one figure, ID.json, .md, .csv, .dat, .gp, .svg, .png, as
 * members of set (outfile.h), replaced when the owner commits it; 0, or -1
 * with err (the owner aborts the set). */
int vi_fig_stage_outputs(vi_outset *set, const vi_fig_spec *f, const vi_series *ss, int ns,
                         int ntot, const vi_claim *cl, int nc, const vi_timing *tg,
                         const reproduce_opts *o, char *err, size_t errlen);

#endif
