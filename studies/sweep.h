/* sweep.h: the sweep runner (run_sweep.c; design.md "Studies are data"):
 * work-precision studies as data. A spec names the system, T, the
 * reference, a ladder of step counts (and a tolerance ladder for the
 * external baselines), the rules that end a curve, the repetition policy,
 * and two hooks of its own: the curves (variational methods by spec string,
 * SUNDIALS IDA as an external baseline behind the same observer) and the
 * report (claim predicates, its sections, plots). The runner does the rest
 * once for every sweep:
 *
 *  - every run goes through the fixed-step driver (or IDA) with one copy
 *    observer, timed: init and steps, CPU time of the pinned thread, wall
 *    time beside it (timing.h); errors are evaluated afterwards, outside
 *    the timing, at the nodes shared with the reference;
 *  - repetitions in passes over the whole study, the minimum kept;
 *  - measures per run: max_k |q_k - q(t_k)|_inf, the same for p and lambda,
 *    max_k |H_k - H_0| / |H_0| over every node, max_k |g(q_k)|_inf; counts
 *    (residual and Jacobian evaluations, Newton iterations, unknowns);
 *  - one row model of the runs (emit.h) written as JSON, CSV and Markdown,
 *    the machine block, the reference block, the claims record (claims.h)
 *    and the gnuplot builder's figures (plot.h).
 *
 * The figure runner's work-precision figures (run_figure.c, VI_FIG_WORK)
 * use the same functions one level down: vi_sweep_open, vi_sweep_add,
 * vi_sweep_curve_run, vi_sweep_time, vi_sweep_close. */
#ifndef VI_SWEEP_H
#define VI_SWEEP_H

#include "progress.h"
#include "claims.h"
#include "emit.h"
#include "plot.h"
#include "study.h"
#include "timing.h"
#include "vistudy.h"

#include <jansson.h>
#include <stdio.h>

/* What a curve runs. */
enum vi_sweep_kind {
  VI_SWEEP_STEPPER = 0,   /* a method of the registry, by spec string */
  VI_SWEEP_IDA_GGL = 1,   /* SUNDIALS IDA, stabilised index 2 (baselines/ida.h) */
  VI_SWEEP_IDA_INDEX1 = 2, /* SUNDIALS IDA, index 1 */
  VI_SWEEP_GSL_RK8PD = 3   /* GSL rk8pd on the ODE of a degenerate Lagrangian
                              (baselines/gsl_rk.h) */
};

/* The measures of a run. */
enum vi_sweep_measure {
  VI_SW_Q = 0,      /* max_k |q_k - q_ref(t_k)|_inf */
  VI_SW_P = 1,      /* the same for p */
  VI_SW_LAMBDA = 2, /* the same for lambda, k >= 1 */
  VI_SW_ENERGY = 3, /* max_k |H_k - H_0| / |H_0|, every node (man2020 (46)-(47)) */
  VI_SW_GDRIFT = 4, /* max_k |g(q_k)|_inf */
  VI_SW_QT = 5,     /* |q_N - q_ref(T)|_inf: the error at the final time */
  VI_SW_NMEAS = 6
};

/* The costs a curve can be read at. */
enum vi_sweep_cost { VI_COST_CPU = 0, VI_COST_EVALS = 1, VI_COST_WALL = 2 };

typedef struct vi_sweep_curve {
  int kind;
  int group;         /* the spec's grouping (a family, an algorithm) */
  int m;             /* the spec's parameter (points per step, stages) */
  char label[64];
  char method[256];  /* the canonical spec, or the baseline's description */
  int unknowns;      /* of a stepper (vi_stepper_unknowns), 0 for a baseline */
  int solver;        /* a stepper's vi_solver_kind (0: the precision's default);
                        set after vi_sweep_add */
  int solver_ran;    /* the solver its runs used, defaults resolved (0: none ran) */
} vi_sweep_curve;

typedef struct vi_sweep_point {
  int curve;
  long N;       /* steps of a stepper; output nodes of a baseline */
  double h;     /* T / N for a stepper, NAN for a baseline */
  double tol;   /* rtol = atol of a baseline, NAN for a stepper */
  long steps;   /* steps taken */
  double err[VI_SW_NMEAS];
  vi_timed tm;
  long fevals, jevals, newton, newton_max;
  long lsetups, etfails, ncfails; /* baselines */
  int ok;
  char msg[160]; /* why a run failed */
} vi_sweep_point;

typedef struct vi_sweep_spec vi_sweep_spec;
typedef struct vi_sweep vi_sweep;
typedef struct vi_sweep_report vi_sweep_report;

struct vi_sweep_spec {
  const char *system; /* with its default parameters */
  double T;
  /* The reference: nref > 0, one grid of nref steps that every N of the
   * ladders divides or is a multiple of (and nout divides); nref = 0, a
   * reference on each run's own grid (cached). quad_reference: the full
   * study takes it in quad precision, rounded (quick runs: double). */
  long nref;
  int quad_reference;
  const long *ladder, *quick_ladder; /* step counts, increasing */
  int nladder, nquick;               /* quick_ladder NULL: the ladder */
  long nout;                         /* baselines: output nodes */
  int energy_at_outputs;             /* the energy error of every curve only at
                                        t_j = j T / nout, as the baselines are
                                        sampled (0: every node) */
  int tol_kmin, tol_kmax, tol_kmax_quick, tol_kstep_quick; /* tol = 10^(-k/2) */
  /* A curve ends after a run when (never before N >= n_keep):
   * its q error is below stop_err (stop_err_quick in a quick run), or
   * the best q error is below plateau_below and this one above
   * plateau_ratio times it (the floor), or the run took longer than
   * cap_seconds (baseline_cap for baselines; full runs only), or, in a
   * quick run, it has max_points_quick successful runs. A failed run ends
   * it after max_fails failures in a row once one run succeeded (0: never),
   * or when none succeeded by N >= n_first (0: never); a baseline's failure
   * ends it. A q error above discard_above (> 0) is another solution
   * branch: not a point. */
  long n_keep, n_first;
  int max_fails;
  double stop_err, stop_err_quick, plateau_below, plateau_ratio, discard_above;
  double cap_seconds, baseline_cap;
  int max_points_quick;
  vi_reps_policy reps;
  /* The spec's own part. */
  int (*curves)(vi_sweep *S); /* vi_sweep_add for each curve; 0 or -1 */
  int (*report)(vi_sweep *S, vi_sweep_report *R, char *err, size_t errlen);
  const char *timing_id; /* the prefix of progress lines */
  /* A sweep of parts (nparts > 0): one study over several systems. Each
   * part is a sweep spec of its own (system, T, reference, ladders, rules,
   * curves hook; its report hook is not called) named by its part_name;
   * the runner opens and runs every part in turn under one timing (the
   * repetitions in passes over each part), writes the points of all in
   * one row model with the part first ("part" column), the parts' system,
   * params, T, reference and configs under "parts" in the JSON, and calls
   * this spec's report hook once with a sweep whose parts[i] are the run
   * parts (its own system is NULL). The thread stays pinned through that
   * hook, which may time runs of its own (timing.h). This spec's other
   * fields are unused. */
  const vi_sweep_spec *const *parts;
  int nparts;
  const char *part_name;
};

/* A sweep being run. The spec's hooks read it. */
struct vi_sweep {
  const vi_sweep_spec *spec;
  const char *id;
  int quick;
  vi_progress prog; /* a line per point (progress.h) */
  const char *cache_dir;
  vi_system_d *sys;
  int n, m;
  int nq, ml; /* reals of a configuration; every multiplier (holonomic, then nonholonomic) */
  double T, E0;
  /* reference (nref > 0): (nref + 1) rows of nq, n and ml reals */
  double *Qref, *Pref, *Lref;
  double ref_accuracy;
  char ref_method[288], ref_precision[8]; /* the reference's method text (256) and a suffix */
  int ref_cached;
  double dref_accuracy, dref_dev; /* the double reference beside a quad one */
  char dref_method[256];
  /* one run's nodes: (nmax + 1) x (2n + m) */
  double *run;
  long nmax;
  vi_sweep_curve *curves;
  int ncurves, capc;
  vi_sweep_point *pts;
  int npts, capp;
  struct vi_ida *ida[2]; /* per formulation (baselines/ida.h), made when needed */
  struct vi_gsl_rk *rk;  /* baselines/gsl_rk.h, made when needed */
  vi_timing tg;
  double seconds;
  /* A sweep of parts: the parts run (the report hook reads them). */
  vi_sweep *parts;
  int nparts;
};

/* What the spec's report hook adds to the runner's outputs. The runner
 * ends the summary paragraph (the pinned core and the study's run time). */
#define VI_SWEEP_MAXCLAIMS 32
#define VI_SWEEP_MAXPLOTS 4
struct vi_sweep_report {
  json_t *j;     /* the study's JSON (the runner's keys set; add the spec's) */
  FILE *md;      /* the spec's sections (after the runner's header) */
  FILE *summary; /* the paragraph on standard output */
  vi_claim claims[VI_SWEEP_MAXCLAIMS];
  int nclaims;
  struct {
    char suffix[32]; /* file name: ID + suffix */
    char *body;      /* gnuplot body (vi_gp_body), owned by the runner */
    int width, height;
  } plots[VI_SWEEP_MAXPLOTS];
  int nplots;
  const char *claims_heading; /* NULL: "Claims" */
  const char *claims_whose;   /* "of the text" for a paper's claims; NULL: none */
};

/* A figure of the report: g's panels as rows x cols, drawn as ID + suffix
 * at width x height pixels (g is freed). 0, or -1 when the report holds
 * VI_SWEEP_MAXPLOTS already or out of memory. */
int vi_sweep_report_plot(vi_sweep_report *R, const char *suffix, vi_gp *g, int rows,
                         int cols, int width, int height);

/* The runner of registry entries whose spec is a vi_sweep_spec. */
int vi_run_sweep(const vi_study *s, const reproduce_opts *o);

/* One level down (the figure runner): the system and reference; 0 or -1
 * with err. */
int vi_sweep_open(vi_sweep *S, const vi_sweep_spec *spec, const char *id, int quick,
                  int progress, double every, const char *cache_dir, char *err,
                  size_t errlen);
/* Add a curve (method: a stepper spec, canonical after the first run, or
 * the baseline's description); its index, or -1. */
int vi_sweep_add(vi_sweep *S, int kind, int group, int m, const char *label,
                 const char *method);
/* Run a curve down its ladder; 0, or -1 with err (a failed run is a point
 * with its status, not an error). */
int vi_sweep_curve_run(vi_sweep *S, int curve, char *err, size_t errlen);
/* The later repetitions of every point, in passes. */
void vi_sweep_time(vi_sweep *S);
void vi_sweep_close(vi_sweep *S);

/* Services of the report hooks. */
double vi_sweep_err(const vi_sweep_point *P, int measure);
double vi_sweep_cost(const vi_sweep_point *P, int cost);
/* The curve of (group, m), or -1. */
int vi_sweep_find(const vi_sweep *S, int group, int m);
/* The successful run of a curve at N steps, or NULL. */
const vi_sweep_point *vi_sweep_at(const vi_sweep *S, int curve, long N);
/* The smallest error of a measure over the successful runs (of one curve,
 * or of all when curve < 0). */
double vi_sweep_min_err(const vi_sweep *S, int curve, int measure);
/* The cost of a curve at error E: log-log linear interpolation between
 * the first pair of consecutive successful runs (in sweep order) whose
 * errors bracket E; *h the interpolated step (NAN for a baseline). NAN
 * with the reason in why when the curve does not reach E or is below it
 * already at its first run. */
double vi_sweep_interp(const vi_sweep *S, int curve, int measure, int cost, double E, double *h,
                       char *why, size_t wl);
/* The cheapest curve of a group at error E (-1 if none reaches it), *c its
 * cost, why the reason when none does. bound NULL: interpolated costs only;
 * else a curve already below E at its cheapest run also counts, at that
 * run's cost, an upper bound (*bound set when the chosen cost is one). */
int vi_sweep_best(const vi_sweep *S, int group, int measure, int cost, double E, double *c,
                  int *bound, char *why, size_t wl);
/* A work-precision panel: cost (y) against the error of a measure (x),
 * one line per curve, colour by color(curve), dash by dash(curve). */
void vi_sweep_plot_panel(const vi_sweep *S, vi_gp *gp, const char *title, int measure,
                         int cost, int (*color)(const vi_sweep *, int),
                         int (*dash)(const vi_sweep *, int));

/* The specs of the papers are declared from the registry (specs.h). */

#endif
