/* figure.h: the figure runner (run_figure.c) and the types a paper's file
 * uses to describe a figure (design.md "Studies are data"): what to run
 * (a kind of figure and the measures it follows, by their names in
 * core/measures.h), the choices the paper leaves open, and the claim
 * predicates that check what the paper's text says about the figure. The
 * specs and predicates live in studies/papers/; the runner integrates (in
 * either precision, through vi_api), stores, draws and reports. */
#ifndef VI_FIGURE_H
#define VI_FIGURE_H

#include "claims.h"
#include "study.h"
#include "vistudy.h"

#include <stddef.h>

/* The kinds of figures:
 *   VI_FIG_TRACE: a measure along one long run per curve: the change
 *     I - I(0) of a first integral (the energy, a momentum map), kept per
 *     window of steps as its smallest and largest value (a band), with an
 *     optional every-step close-up;
 *   VI_FIG_RESIDUAL: the size of a residual along one long run per curve
 *     (g_norm, gv_norm, phi_norm, group_defect, a method's extra block:
 *     measures the exact flow keeps at zero), drawn as the maximum of each
 *     window on a log scale;
 *   VI_FIG_WORK: run time against global error over a sweep of steps;
 *   VI_FIG_MSWEEP: one number per run (the maximum change of a first
 *     integral, man2020 (47)) for each value of one option of a curve's
 *     family (man2020's points per step m);
 *   VI_FIG_CONVERGENCE: the global error of one quantity against h, one
 *     line per method, with its fitted order (an order study per curve:
 *     the automatic step sizes, fits and verdicts of docs/orders.md);
 *   VI_FIG_PATH: one measure against another along one run per curve (a
 *     parametric path: betsch-ggl Fig 6, the pendulum's mass point q1-q2
 *     and q1-q3), every node kept up to VI_FIG_TRACE_WINDOWS rows (else
 *     every k-th node and the last: a path has no window extremes), the
 *     first and the last node marked.
 * A trace or residual follows what trace.follow says of its measure: by
 * default the change of a first integral and the value of anything else;
 * the value of a first integral (Figs 7, 10), or the increments I_k -
 * I_{k-1} per step (Figs 9, 11), drawn and stored like the others. */
enum vi_fig_kind {
  VI_FIG_TRACE = 0,
  VI_FIG_WORK = 1,
  VI_FIG_MSWEEP = 2,
  VI_FIG_RESIDUAL = 3,
  VI_FIG_CONVERGENCE = 4,
  VI_FIG_PATH = 5
};

#define VI_FIG_MAXCURVES 18
#define VI_FIG_MAXCOLS 8
#define VI_FIG_MAXSET 4

typedef struct vi_curve_spec {
  const char *label;
  const char *method; /* msweep: without the swept option, which the runner adds */
  double h;           /* trace, residual, msweep: the step; work, convergence: unused */
  const char *measure; /* trace, residual: the curve's own measure, NULL: the figure's;
                          path: the ordinate's */
  int panel;          /* trace, path: the panel it is drawn in (fig_spec.panels) */
  const char *xmeasure; /* path: the abscissa's measure, NULL: the figure's path.x */
  double rtol;          /* trace, residual: the Newton tolerance of every step
                           (vi_solver_config.rtol, `vistudy run --rtol`); 0: the
                           default, 100 eps (demartin2018 Fig 8 runs the paper's
                           1e-12 beside it) */
} vi_curve_spec;

/* The parts of a spec that only some kinds read; zero where unused. */
typedef struct vi_fig_trace {
  double zoom;      /* > 0: a close-up with every step of [0, zoom], and the
                       whole run drawn as the window maxima of |change| */
  double breakdown; /* > 0: a run ends where |I - I(0)| exceeds it, and a
                       recoverable failure of the method (Newton, a stage
                       outside the domain) ends it too: both are recorded
                       as the curve's event with its time, never a study
                       failure */
  int tenths;       /* md: the maximum over the first and last tenth per curve */
  double quad_T, quad_T_quick; /* the span of the claims' quad rerun */
  int follow;       /* VI_TRACE_* (drivers.h): 0 as the measure's reference
                       says; VI_TRACE_VALUE, _CHANGE or _INCREMENT (a trace
                       of increments has rows for nodes 1..N) */
} vi_fig_trace;

typedef struct vi_fig_path {
  const char *x; /* the abscissa's measure of every curve without its own */
  int rod;       /* 1: the segments from the origin to the first and the
                    last point drawn (a pendulum's rod, betsch-ggl Fig 6) */
  const char *unit; /* both axes' unit in the axis titles ("[m]"); NULL: none */
} vi_fig_path;

typedef struct vi_fig_msweep {
  const char *key; /* the family's option swept, e.g. "m" (man2020) */
  int lo, hi, hi_quick;
} vi_fig_msweep;

typedef struct vi_fig_convergence {
  int quantity;          /* VI_Q, VI_P, VI_LAMBDA, VI_ENERGY or VI_EXTRA */
  int nN;                /* explicit runs h = T/N; 0: automatic step sizes */
  long N[VI_ORDER_MAXH];
  int precision;         /* VI_DOUBLE, VI_QUAD or VI_PRECISION_AUTO */
  int at_final;          /* the errors at t = T only (vi_order_config) */
} vi_fig_convergence;

typedef struct vi_series vi_series;
typedef struct vi_fig_spec vi_fig_spec;

/* What the paper's text says about a figure, checked on the computed
 * series: fills cl and returns the number of claims, or -1 with err. */
typedef int (*vi_claims_fn)(const vi_fig_spec *f, vi_series *ss, int ns, int quick, vi_claim *cl, char *err,
                         size_t errlen);

struct vi_fig_spec {
  const char *id;
  int kind;
  const char *system;
  /* The system's settings for every curve ("name=value" as `--set`, e.g.
   * "data=high"), NULL-terminated; none: the system's defaults. They
   * belong to the cell store's configuration (a stored curve of other
   * data is not resumed). */
  const char *set[VI_FIG_MAXSET];
  double T, T_quick;
  /* The axis titles: the quantity's name and its unit where the system has
   * units ("Hamiltonian H", "energy error E(t) - E(0) [J]"; "\\n" breaks the
   * line of a long one); tlabel the time
   * axis's ("time t [s]", "time t (dimensionless)"; NULL: "time t [time
   * units]", the system's own, for a system whose paper states none). */
  const char *ylabel, *tlabel;
  const char *why;       /* the choices the paper leaves open */
  const char *precision; /* what the outputs say of the precision; NULL: double */
  vi_claims_fn claims;
  vi_curve_spec curves[VI_FIG_MAXCURVES];
  const char *panels[6]; /* panel titles (each curve names its panel); NULL: one */
  /* What is measured (core/measures.h, by name): the figure's measure
   * (trace, residual, msweep; a curve may name its own), whether a first
   * integral's change is over |I(0)| (man2020 (46)), and measures followed
   * beside it as the maximum of each window, each under a column name
   * (e.g. tyranowski2014's alpha_defect as "defect_max"). */
  const char *measure;
  int relative;
  struct {
    const char *measure, *column;
  } also[VI_TRACE_MAXALSO];
  vi_fig_trace trace;
  vi_fig_msweep msweep;
  vi_fig_convergence conv;
  vi_fig_path path;
};

/* A finished figure of a set as the set's claims see it: its spec, its
 * series (after its own claims, which may have added to them, e.g. a
 * timed rerun's seconds) and its claims. */
typedef struct vi_fig_done {
  const vi_fig_spec *f;
  const vi_series *ss;
  int ns;
  const vi_claim *cl;
  int nc;
} vi_fig_done;

typedef struct vi_fig_set vi_fig_set;
/* What the paper's text says across the figures of a set (betsch-ggl F10:
 * the stability of Figs 32, 33 against the cost of Table 2), checked on
 * the finished figures: fills cl (at most VI_FIG_SET_MAXCLAIMS) and
 * returns the number of claims, or -1 with err. */
#define VI_FIG_SET_MAXCLAIMS 8
typedef int (*vi_set_claims_fn)(const vi_fig_set *set, const vi_fig_done *figs, int n,
                                int quick, vi_claim *cl, char *err, size_t errlen);

/* Several figures run as one study (e.g. tyranowski2014-longtime): their
 * curves share one pool of threads (traces and m-sweeps are not timed), and
 * the study writes each figure's files under the figure's ID and one
 * summary ID.{json,md} with every claim, the set's own (claims, NULL:
 * none) under "across". */
struct vi_fig_set {
  const vi_fig_spec *const *figs; /* NULL-terminated */
  const char *why;                /* the choices common to the figures */
  vi_set_claims_fn claims;
};

int vi_run_figure_set(const vi_study *s, const reproduce_opts *o);

/* A named table of numbers: one curve of a figure. */

struct vi_series {
  char label[96];
  char method[256]; /* canonical spec */
  double h;         /* trace step; 0 for a sweep */
  int ncol;
  const char *const *cols;
  int rows, cap;
  double *v; /* rows x ncol, row-major */
  int status;       /* VI_OK, or the status that ended the sweep/run */
  char measure[32]; /* the curve's own measure ("": the figure's) */
  char xmeasure[32]; /* path: the abscissa's measure ("" for other kinds) */
  /* trace: the measure at t = 0, the largest |change| (or value), its
   * maximum over the first and the last tenth of the run, the largest
   * |change| of the claims' quad rerun (NaN: none) */
  double I0, amax, first, last, quad;
  double event_t;   /* trace with breakdown: the time of the last node before
                       the run ended early, NaN when it ran to T */
  double seconds;   /* CPU seconds of the curve's method timed by the
                       claims (betsch-ggl Table 2), NaN: not timed */
  char event[160];  /* what ended it ("|H - H(0)| > 1", a status) */
  /* convergence: the fitted order of the curve's quantity, its standard
   * error and window (indices into the rows), ok 1 for an ok verdict (else
   * the reason in why), and the precision the study chose */
  double order, uncertainty;
  int fit_lo, fit_hi, fit_ok;
  char fit_why[64], precision[240];
  int done;
};

/* Columns of a series by kind. */
enum { VI_M_M, VI_M_H, VI_M_ERR, VI_M_FIRST, VI_M_LAST, VI_M_QUAD, VI_M_NCOL };
enum { VI_W_H, VI_W_STEPS, VI_W_SEC, VI_W_EQ, VI_W_EP, VI_W_EL, VI_W_NEWTON, VI_W_FEVALS };
enum { VI_C_H, VI_C_STEPS, VI_C_ERR, VI_C_NEWTON, VI_C_NCOL };

static inline double vi_fig_at(const vi_series *s, int row, int col) {
  return s->v[(size_t)row * (size_t)s->ncol + (size_t)col];
}


/* Services of the runner for the claim predicates. */
/* The series labelled label, or NULL. */
const vi_series *vi_fig_find(const vi_series *ss, int ns, const char *label);
/* The series of the n given labels into out: 0, or -1 with "ID: no series
 * 'LABEL'" in err when one is missing. */
int vi_fig_need(const vi_fig_spec *f, const vi_series *ss, int ns, const char *const *labels,
                int n, const vi_series **out, char *err, size_t errlen);
/* The smallest window minimum and the largest window maximum of a trace
 * over the windows ending in [a, b]; a NaN anywhere makes both NaN (a claim
 * must not hold over a node that could not be evaluated). */
void vi_fig_range(const vi_series *s, double a, double b, double *lo, double *hi);
/* max |value| over the windows ending in [a, b] (vi_fig_range). */
double vi_fig_amax(const vi_series *s, double a, double b);
/* "Bounded, no drift": the largest |value| over the windows ending in
 * (T/2, T] at most twice that over [0, T/2], and no event (a window
 * straddling T/2 counts in the first half); both maxima into first and
 * second. */
int vi_fig_bounded(const vi_series *s, double T, double *first, double *second);
/* The measure a trace series follows: its curve's own, else the figure's
 * (a path's ordinate). */
const char *vi_fig_series_measure(const vi_fig_spec *f, const vi_series *s);
/* The abscissa's measure of path curve i: its own, else the figure's. */
const char *vi_fig_path_x(const vi_fig_spec *f, int i);
/* The change of a measure over N steps of h of a method rerun in quad
 * precision (a trace in quad, vi_api, following the change whatever the
 * measure's reference): out[0] = max |I_k - I_0| (relative:
 * over |I_0|), out[1], out[2] its maximum over the first and the last
 * tenth of the steps; a status with err. */
int vi_fig_quad_invariant_error(const char *system, const char *method, double h, long N,
                                const char *measure, int relative, double *out, char *err,
                                size_t errlen);
/* The quad rerun of each curve over the figure's trace.quad_T, its max
 * |I - I0| into the series' quad; 0 or -1 with err. */
int vi_fig_quad_check(const vi_fig_spec *f, vi_series *ss, int ns, int quick, char *err,
                      size_t errlen);

/* The runner: s->spec is a vi_fig_spec. */
int vi_run_figure(const vi_study *s, const reproduce_opts *o);

#endif
