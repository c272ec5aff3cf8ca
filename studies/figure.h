/* figure.h: the figure runner (run_figure.c) and the types a paper's file
 * uses to describe a figure (design.md "Studies are data"): what to run
 * (a long trace of an invariant's error, a work-precision sweep, or one
 * number per run over m), the choices the paper leaves open, and the claim
 * predicates that check what the paper's text says about the figure. The
 * specs and predicates live in studies/papers/; the runner integrates,
 * stores, draws and reports. */
#ifndef VI_FIGURE_H
#define VI_FIGURE_H

#include "claims.h"
#include "study.h"
#include "vistudy.h"

#include <stddef.h>

/* FIG_TRACE: the error of an invariant along one long run per curve;
 * FIG_WORK: run time against global error over a sweep of steps;
 * FIG_MSWEEP: one number per run, the global error (47) of man2020, for
 * each number of points m of a curve's method. */
enum vi_fig_kind { VI_FIG_TRACE = 0, VI_FIG_WORK = 1, VI_FIG_MSWEEP = 2 };

#define VI_FIG_MAXCURVES 12
#define VI_FIG_MAXCOLS 8

typedef struct vi_curve_spec {
  const char *label;
  const char *method; /* msweep: without m, which the sweep appends */
  double h;           /* trace, msweep: the step; work: unused (swept) */
  const char *quantity; /* trace: the curve's own invariant, NULL: the figure's */
  int panel;            /* trace: the panel it is drawn in (fig_spec.panels) */
} vi_curve_spec;

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
  const char *quantity; /* trace: "energy" or a momentum name */
  double T, T_quick;
  double zoom; /* trace: > 0 adds a panel with every step of [0, zoom] and
                  draws the whole run as the window maxima of |error| */
  const char *ylabel;
  const char *why; /* the choices the paper leaves open */
  vi_claims_fn claims;
  vi_curve_spec curves[VI_FIG_MAXCURVES];
  /* Added for man2020; zero (the wenger2017 behaviour) when absent. */
  const char *precision; /* what the outputs say of the precision; NULL: double */
  int relative;          /* trace, msweep: (I - I0) / |I0|, man2020 (46) */
  int tenths;            /* md: the max over the first and last tenth per curve */
  double quad_T, quad_T_quick; /* span of the claims' quad rerun */
  int m_lo, m_hi, m_hi_quick;  /* msweep: the points per step */
  const char *panels[6];       /* trace: panel titles; NULL: one panel */
  /* Added for tyranowski2014's long runs; zero when absent. */
  double breakdown; /* trace: > 0 ends a run where |I - I(0)| exceeds it, and a
                       recoverable failure of the method (Newton, a stage
                       outside the domain) ends it too: both are recorded as
                       the curve's event with its time, never a study failure */
  int defect;       /* trace, degenerate form: the window maximum of
                       |p - alpha(q)| as a fourth column */
};

/* Several figures run as one study (e.g. tyranowski2014-longtime): their
 * curves share one pool of threads (traces and m-sweeps are not timed), and
 * the study writes each figure's files under the figure's ID and one
 * summary ID.{json,md} with every claim. */
typedef struct vi_fig_set {
  const vi_fig_spec *const *figs; /* NULL-terminated */
  const char *why;                /* the choices common to the figures */
} vi_fig_set;

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
  char quantity[32]; /* the curve's own invariant ("": the figure's) */
  double extra[5];  /* trace: I(0), max |err|, max over the first and the last
                       tenth, max |err| of the quad check (NaN: none) */
  double event_t;   /* trace with breakdown: the time of the last node before
                       the run ended early, NaN when it ran to T */
  char event[160];  /* what ended it ("|H - H(0)| > 1", a status) */
  int done;
};

/* Columns of a series by kind. */
enum { VI_M_M, VI_M_H, VI_M_ERR, VI_M_FIRST, VI_M_LAST, VI_M_QUAD, VI_M_NCOL };
enum { VI_W_H, VI_W_STEPS, VI_W_SEC, VI_W_EQ, VI_W_EP, VI_W_EL, VI_W_NEWTON, VI_W_FEVALS };

static inline double vi_fig_at(const vi_series *s, int row, int col) {
  return s->v[(size_t)row * (size_t)s->ncol + (size_t)col];
}


/* Services of the runner for the claim predicates. */
/* The invariant a trace series follows: its curve's own, else the figure's. */
const char *vi_fig_series_quantity(const vi_fig_spec *f, const vi_series *s);
/* The error of an invariant over N steps of h of a method rerun in quad
 * precision (see run_figure.c): out[0] = max |I_k - I_0| (relative: over
 * |I_0|); a status with err. */
int vi_fig_quad_invariant_error(const char *system, const char *method, double h, long N,
                                const char *quantity, int relative, double *out, char *err,
                                size_t errlen);
/* The quad rerun of each curve over the figure's quad_T, its max |I - I0|
 * into extra[4]; 0 or -1 with err. */
int vi_fig_quad_check(const vi_fig_spec *f, vi_series *ss, int ns, int quick, char *err,
                      size_t errlen);

/* The runner: s->spec is a vi_fig_spec. */
int vi_run_figure(const vi_study *s, const reproduce_opts *o);

/* The specs of the papers are declared from the registry (specs.h). */

#endif
