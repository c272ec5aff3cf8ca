/* drivers.h: the typed drivers for untemplated callers (the program,
 * studies, tests): order studies and trajectories with their configurations
 * and results, and the per-precision table of entry points vi_api */
#ifndef VI_DRIVERS_H
#define VI_DRIVERS_H

#include <stddef.h>

#include "precision.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The error an order study is about: the global errors of q, p, lambda
 * against a reference (wenger2017 §4.1), or the max relative energy error
 * max_k |H_k - H_0| / |H_0| (man2020 (46)-(47)). */
typedef enum vi_order_measure { VI_MEASURE_STATE = 0, VI_MEASURE_ENERGY = 1 } vi_order_measure;

/* Options of the nonlinear solver of each step (vi_solver_opts in the
 * working precision). */
typedef struct vi_solver_config {
  int kind;     /* vi_solver_kind; VI_SOLVER_AUTO (0): the precision's default */
  int lu;       /* vi_lu_precision; VI_LU_AUTO (0): the precision's default */
  vi_wide rtol; /* 0: the default (100 eps) */
  int max_iter; /* 0: the default (50) */
} vi_solver_config;

/* Result of an order study, in double whatever the working precision. */
#define VI_ORDER_MAXH 24
/* Step budget of one run of an automatic study, per precision (docs/orders.md
 * "Automatic step sizes"): at most NMAX steps and WORK steps x unknowns per
 * step. The precision policy (vi_order_run) needs quad's to know which
 * steps a quad rerun can reach. */
#define VI_ORDER_AUTO_NMAX_DOUBLE (1L << 18)
#define VI_ORDER_AUTO_WORK_DOUBLE (1L << 24)
#define VI_ORDER_AUTO_NMAX_QUAD (1L << 15)
#define VI_ORDER_AUTO_WORK_QUAD (1L << 18)
/* The quantities of an order study, and of a method's declared orders
 * (vi_method_type.expected_order): the global errors of q, p and every
 * multiplier lambda (the state, VI_NQUANT of them), the relative energy
 * error (VI_ENERGY), the method's extra block (VI_EXTRA: its size, when
 * the exact flow has it zero) and the momentum maps a system declares
 * first integrals (VI_MOMENTA: only their exact conservation is declared,
 * and checked by the conformance suite). */
enum {
  VI_Q = 0,
  VI_P = 1,
  VI_LAMBDA = 2,
  VI_NQUANT = 3,
  VI_ENERGY = 3,
  VI_EXTRA = 4,
  VI_MOMENTA = 5
};
/* A declared order meaning "does not converge" (an inconsistent method,
 * e.g. the 2-stage Lobatto IIIA-IIIB pair of tyranowski2014 §4.3.2): an
 * order study must give the verdict 'd', never a slope. */
#define VI_ORDER_NONE 0
/* A declared "order" meaning exact conservation: the quantity's error
 * stays at round-off whatever the step (the energy of an energy-momentum
 * scheme, betsch-ggl); an order study then checks that instead of fitting
 * a slope (vi_order_exact_bound). */
#define VI_ORDER_EXACT (-2)
/* An energy error is relative to |E_0| unless |E_0| is at most this
 * (sqrt of double's eps, in every precision so that double and quad runs
 * measure the same thing): then it is absolute. A Hamiltonian shifted to
 * vanish on the orbit (tyranowski2014's H0) has no scale to be relative
 * to. */
#define VI_ENERGY_ABS_BELOW 1.4901161193847656e-08
typedef struct vi_order_result {
  char system[64];
  char method[256];     /* canonical spec */
  char precision[8];
  char reference[256];  /* what produced the reference */
  double ref_accuracy;
  double floor[VI_NQUANT]; /* per quantity: errors <= 10 floor are plateau */
  double T;
  int nh;
  double h[VI_ORDER_MAXH];
  long steps[VI_ORDER_MAXH];
  double err[VI_NQUANT][VI_ORDER_MAXH]; /* NaN where the run failed; lambda
                                           over the nodes k >= 1 */
  double lambda0_err[VI_ORDER_MAXH];    /* the start value lambda_0 (node 0) */
  double energy_err[VI_ORDER_MAXH];     /* max |E_k - E_0| / |E_0| (man2020 (46)) */
  double energy_rms[VI_ORDER_MAXH];     /* its root mean square over the nodes:
                                           the robust energy measure */
  double energy_floor;                  /* energy errors <= 10 floor are plateau */
  int measure;                          /* vi_order_measure of the study */
  double newton_per_step[VI_ORDER_MAXH];
  double seconds[VI_ORDER_MAXH];        /* by vi_order_config.clock; NaN untimed */
  int status[VI_ORDER_MAXH];            /* vi_status of each run */
  double reached[VI_ORDER_MAXH];        /* the fraction of [0, T] each run
                                           covered (1 when it finished) */
  int unknowns;
  char note[320];       /* "" or a warning for the user (a cache not written) */
  int nparams;
  char param_names[32][16];
  double params[64];    /* flattened parameter values (doubles, for reports) */
  int param_count[32];
  int nmult;            /* multipliers per node (lambda, then mu); 0: none */
  char precision_note[240]; /* how the precision was chosen (vi_order_run) */
  double h_first;       /* automatic step sizes: the first h run (NaN otherwise) */
  double time_scale;    /* automatic step sizes: the time scale of the motion
                           (vi_system_time_scale), NaN otherwise */
  int started;          /* 0 when the study failed while being set up (the
                           system, its data, the method spec, T or the runs) */
  int at_final;         /* the errors are those at t = T (vi_order_config) */
  int lambda_mid;       /* lambda against the reference at t_k - h/2 */
  /* The method's extra block (vi_method_type.extra): reals per node (0:
   * none), its name ("gamma"), whether the exact flow has it zero (then its
   * size is an error, fitted like the others: VI_EXTRA), max_k
   * |extra_k|_inf over the nodes k >= 1 of each run, and its floor. */
  int nextra;
  char extra_name[24];
  int extra_zero;
  double extra_err[VI_ORDER_MAXH];
  double extra_floor;
  /* The method declares that it conserves the energy exactly
   * (VI_ORDER_EXACT): its error is checked against round-off
   * (vi_order_exact), not fitted, and does not drive the step sizes. */
  int energy_exact;
  /* The method declares its extra block at round-off along every run
   * (VI_ORDER_EXACT for VI_EXTRA): checked as the energy is, against
   * extra_floor sqrt(N), never driving the step sizes. */
  int extra_exact;
} vi_order_result;

/* The errors of quantity x of an order study (VI_Q, VI_P, VI_LAMBDA, the
 * energy's root mean square VI_ENERGY, the extra block VI_EXTRA) and
 * their floor. */
static inline const double *vi_order_errors(const vi_order_result *r, int x, double *floor) {
  *floor = x < VI_NQUANT ? r->floor[x] : x == VI_EXTRA ? r->extra_floor : r->energy_floor;
  return x < VI_NQUANT ? r->err[x] : x == VI_EXTRA ? r->extra_err : r->energy_rms;
}

/* The round-off bound of an exactly conserved energy (VI_ORDER_EXACT) after
 * N steps: the energy floor (100 eps) grown as a random walk of one
 * rounding per step, 100 eps max(1, sqrt(N)). */
double vi_order_exact_bound(const vi_order_result *r, long N);
/* The same bound for quantity x: VI_ENERGY (the energy floor) or VI_EXTRA
 * (the extra block's floor), times sqrt(N). */
double vi_order_exact_bound_of(const vi_order_result *r, int x, long N);

/* A typed order study (vi_order_study_d / _q, vi_api.order): a system
 * (registry name and overrides "name=v1,v2"), a method spec, the final
 * time T and the runs h = T/N. */
typedef struct vi_order_config {
  const char *system;
  int nset;
  const char *const *set;
  const char *method;    /* NAME[:key=value,...] */
  /* A system or a family of the caller's own, not in the registries
   * (examples/): its type in double and in quad. A non-NULL system type
   * replaces `system` (set then applies to its parameters; its reference
   * is not cached, the cache being keyed by registry name); a non-NULL
   * method type parses `method` against it instead of the registry. Give
   * both precisions, or the one precision run: a study in a precision
   * whose type is missing is refused, and the precision policy
   * (vi_order_run) then stays in double. */
  const struct vi_system_type_d *system_d;
  const struct vi_system_type_q *system_q;
  const struct vi_method_type_d *method_d;
  const struct vi_method_type_q *method_q;
  vi_wide T;             /* final time; 0 means 1 */
  int nN;                /* explicit runs; 0: automatic step sizes */
  long N[VI_ORDER_MAXH]; /* steps of each explicit run */
  vi_solver_config solver;
  const char *cache_dir; /* reference cache; NULL: none */
  int measure;           /* vi_order_measure: what drives the automatic step sizes */
  int energy_only;       /* skip the reference: energy errors only (studies
                            whose measure is the energy, man2020 (46)-(49)) */
  int at_final;          /* q, p, lambda errors at the final node t = T only
                            (tyranowski2014 §5: "max norm errors" of the
                            solution at T); 0: the maximum over the nodes */
  int lambda_mid;        /* the multipliers of node k (k >= 1) against the
                            reference at t_k - h/2, the middle of the step that
                            ends at t_k (betsch-ggl notes item 12: EM's
                            lambda^{n+1} approximates lambda(t^{n+1/2})); 0: at
                            t_k */
  /* Called (may be NULL) once the study is set up (i = -1: system, method,
   * precision and T filled in), after each run i, and with i = -2 when
   * vi_order_run reruns the study in quad: the library never prints, the
   * caller reports progress. */
  void (*progress)(void *ctx, const vi_order_result *r, int i);
  void *progress_ctx;
  /* The caller's clock for the seconds of each run (the studies' timing
   * service, studies/timing.h); NULL: not timed (NaN). */
  double (*clock)(void);
} vi_order_config;

/* A typed trajectory (vi_api.traj_*): integrate a system with a method
 * spec, or "reference" for the reference solution of order studies, with N
 * steps of h = T/N, handing every K-th node and the last to a sink. */
typedef struct vi_traj_config {
  const char *system;
  int nset;
  const char *const *set;
  const char *method; /* NAME[:key=value,...] or "reference" */
  vi_wide T;
  long N;
  long every; /* 0 or 1: every node */
  vi_solver_config solver;
} vi_traj_config;

/* Nodes of a reference trajectory held in memory at once. */
#define VI_TRAJ_MAX_REF_NODES 10000000L

/* What a prepared trajectory will produce: the columns of every row, the
 * measures of its node (measures.h, vi_measures: t, q1..q{nq} (a group in
 * its embedding), p1..pn, the multipliers lambda then mu, the method's
 * extra block, energy, the residuals of the form (g_norm, gv_norm,
 * phi_norm, group_defect, alpha_defect), the momentum maps) and the
 * canonical method spec. */
typedef struct vi_traj_info {
  char system[64];
  char method[256];             /* canonical spec, or "reference" */
  int ncol;
  const char *const *colnames; /* ncol names, owned by the trajectory */
} vi_traj_info;

/* How a trajectory went. */
typedef struct vi_traj_result {
  long rows;          /* rows the sink accepted */
  long failed_step;   /* 0, or the step that failed (1 = the first) */
  int sink_status;    /* VI_OK, or what the sink returned when it stopped */
  int eval_failed;    /* 1: the energy or a residual of a node could not be
                         evaluated (status in the return value) */
  long steps, newton_iters, newton_iters_max; /* iterations: total, most in one solve */
  long solves; /* the solves counted: init's look-ahead and one per step */
  long jevals, factorizations; /* Jacobian evaluations, LU factorizations */
  int solver_kind, solver_lu;  /* the solver that ran (resolved defaults) */
  int unknowns;
  char ref_method[256]; /* reference: what produced it */
  double ref_accuracy;
} vi_traj_result;

/* Receives one row of ncol values (vi_traj_info.colnames) at node k; VI_OK
 * to go on, anything else stops the trajectory. */
typedef int (*vi_row_sink)(void *ctx, long k, int ncol, const vi_wide *values);

/* A prepared trajectory (opaque; one precision). */
typedef struct vi_traj vi_traj;

/* A typed trace (vi_api.trace): one run of a method, N steps of h from the
 * system's initial data, reduced to windows of a measure (measures.h), so
 * that a long run keeps its peaks in a few thousand rows. A first integral
 * (VI_MR_CONSTANT: the energy, a momentum map) is followed as its change
 * d_k = I_k - I_0 (over |I_0| when relative, unless |I_0| <=
 * VI_ENERGY_ABS_BELOW), anything else as its value d_k = I_k (a residual:
 * phi_norm, a method's extra block), unless follow asks otherwise (the
 * value of a first integral: betsch-ggl Figs 7, 10; the increments
 * d_k = I_k - I_{k-1}, k >= 1: Figs 9, 11). Every `per` nodes the window's
 * row goes to window: t, min d, max d over the window, then the window
 * maximum of each measure in also (their values); every node with t <=
 * zoom goes to every: t, d, d, the values of also. Increments start at
 * node 1 (node 0 has none): windows then count from node 1 and the rows
 * end with node N as always. */
#define VI_TRACE_MAXALSO 2
/* What a trace follows of its measure (vi_trace_config.follow). */
enum {
  VI_TRACE_AUTO = 0,     /* the change of a first integral (VI_MR_CONSTANT), else the value */
  VI_TRACE_CHANGE = 1,   /* I_k - I_0, whatever the measure's reference */
  VI_TRACE_VALUE = 2,    /* I_k */
  VI_TRACE_INCREMENT = 3 /* I_k - I_{k-1}, k >= 1 (over |I_0| when relative) */
};
typedef struct vi_trace_config {
  const char *system;
  int nset;
  const char *const *set;
  const char *method;   /* NAME[:key=value,...] */
  /* A system or a family of the caller's own, as in vi_order_config: a
   * non-NULL type of the trace's precision replaces the registry's (the
   * conformance checks, vi_conformance, trace a family not registered). */
  const struct vi_system_type_d *system_d;
  const struct vi_system_type_q *system_q;
  const struct vi_method_type_d *method_d;
  const struct vi_method_type_q *method_q;
  double h;             /* the step (the rows' t = k h in double) */
  long N;
  const char *measure;  /* by name (vi_measure_find) */
  int relative;
  int follow;           /* VI_TRACE_*: 0 (auto) as the measure's reference says */
  int nalso;
  const char *also[VI_TRACE_MAXALSO];
  long per;             /* nodes per window; 0: no window rows */
  double zoom;          /* > 0: the every-node rows up to t = zoom */
  /* > 0: the run stops where |d| exceeds it (result broke), and a
   * recoverable failure of the method after node 0 ends it too (its
   * status in the result, the window in progress delivered): both are an
   * event of the run, not a failure of the trace. */
  double breakdown;
  vi_solver_config solver;
  int (*window)(void *ctx, const double *row, int ncol); /* VI_OK to go on */
  int (*every)(void *ctx, const double *row, int ncol);
  void *ctx;
} vi_trace_config;

/* What a trace measured, computed in the working precision: I_0 (the
 * measure at node 0, whatever it follows), max |d|, its maxima over the
 * first and the last tenth of the steps. */
typedef struct vi_trace_result {
  char method[256]; /* canonical spec */
  double I0, amax, first, last;
  long last_node;   /* the last node observed (-1: init failed) */
  int broke;        /* stopped where |d| exceeded the breakdown threshold */
  int status;       /* VI_OK, or the method's recoverable failure that ended
                       a run with a breakdown threshold */
} vi_trace_result;

/* A reference on a grid (vi_api.reference): the exact solution or the
 * independent integration of order studies (vi_reference) at t_k = k T/K,
 * k = 0..K, rounded to double: Q (K+1) x nq, P (K+1) x n, L (K+1) x ml. */
typedef struct vi_reference_config {
  const char *system;
  int nset;
  const char *const *set;
  vi_wide T;
  long K;
  const char *cache_dir; /* NULL: no cache */
} vi_reference_config;

typedef struct vi_reference_result {
  char method[256];
  double accuracy;
  int cached;
  char note[320];
} vi_reference_result;

/* The library in one precision, for untemplated callers (the program,
 * studies, tests), as dav1d reaches its bit depths through function tables:
 * vi_api_of(VI_DOUBLE) or vi_api_of(VI_QUAD). Every entry returns a
 * vi_status and writes the reason of a failure to err. */
typedef struct vi_api {
  vi_precision precision;
  const char *name; /* "double", "quad" */
  double eps;
  /* A finite number in the working precision (VI_EINVAL otherwise). */
  int (*parse_real)(const char *text, vi_wide *out);
  /* Full precision: 17 significant digits in double, 36 in quad. */
  int (*format_real)(char *buf, size_t len, vi_wide x);
  /* N with N h = T within 1e-9 relative (VI_EINVAL otherwise, T/h in
   * *ratio); the nodes t_k = k h must land on T. */
  int (*steps_of)(vi_wide T, vi_wide h, long *N, double *ratio);
  /* The derivative checks of a system (vi_system_check): lines to line(),
   * the number of failed checks in *failed. */
  int (*check)(const char *system, int nset, const char *const *set,
               void (*line)(void *ctx, const char *text), void *ctx, int *failed,
               char *err, size_t errlen);
  int (*order)(const vi_order_config *c, vi_order_result *r, char *err, size_t errlen);
  int (*traj_open)(const vi_traj_config *c, vi_traj **out, vi_traj_info *info, char *err,
                   size_t errlen);
  int (*traj_run)(vi_traj *t, vi_row_sink sink, void *ctx, vi_traj_result *res,
                  char *err, size_t errlen);
  void (*traj_free)(vi_traj *t);
  int (*trace)(const vi_trace_config *c, vi_trace_result *r, char *err, size_t errlen);
  int (*reference)(const vi_reference_config *c, double *Q, double *P, double *L,
                   vi_reference_result *r, char *err, size_t errlen);
} vi_api;

const vi_api *vi_api_of(vi_precision p);

/* The quantities an order study is about (its measure): q, p and lambda
 * (when the system has multipliers) for the state, the energy error for
 * the energy measure, and the extra block when the exact flow has it zero;
 * x is VI_Q, VI_P, VI_LAMBDA, VI_ENERGY or VI_EXTRA. An energy declared
 * exact drives nothing (it is checked, not fitted). */
int vi_order_drives(const vi_order_result *r, int x);

/* Whether an energy declared exact (r->energy_exact) stayed at round-off:
 * 1 when every run's maximum energy error is within vi_order_exact_bound
 * of its steps, 0 when one is not (a run that succeeded with a NaN or
 * infinite error is not); -1 when no run that succeeded measured it.
 * *worst is the largest ratio error / bound over the runs and *at its run
 * (may be NULL). */
int vi_order_exact(const vi_order_result *r, double *worst, int *at);
/* The same for quantity x: VI_ENERGY (the maximum energy errors) or
 * VI_EXTRA (the extra block's maxima). */
int vi_order_exact_of(const vi_order_result *r, int x, double *worst, int *at);

/* The conformance checks of a method family (vi_conformance_d / _q,
 * core/conformance_tmpl.c; docs/architecture.md, "The method-system
 * contract"): the library never prints, it hands every line to a report
 * callback with its kind. A check's line states what is checked and what
 * was measured; a note says what was measured or why a pair was skipped,
 * and is no verdict. */
enum {
  VI_CONFORMANCE_PASSED = 0, /* a check that held */
  VI_CONFORMANCE_FAILED = 1, /* a check that failed */
  VI_CONFORMANCE_NOTE = 2    /* informative: a measured order, a refusal, ... */
};
/* Receives one line (no newline; valid during the call only) of kind
 * VI_CONFORMANCE_*. */
typedef void (*vi_conformance_report)(void *ctx, int kind, const char *line);
/* What one call did: the (example spec, system) pairs run and skipped
 * (the tables incompatible, vi_method_compatible, counted once per system;
 * or the family's refusal, vi_method_accepts, once per example), the
 * checks made and those that failed, and the declared orders the double
 * pass left to the quad pass because their errors reached the floor of
 * double (deferred: a family checked with vi_conformance_d alone has these
 * unchecked; always 0 in quad). */
typedef struct vi_conformance_counts {
  int pairs;
  int skipped;
  int checks;
  int failed;
  int deferred;
} vi_conformance_counts;

/* An order study with a precision policy (core/order_policy.c): precision
 * VI_DOUBLE or VI_QUAD runs in that precision; -1 (VI_PRECISION_AUTO) runs
 * in double and, when a quantity the study is about cannot get four errors
 * above the floor of double (every error, or all but a few, at the
 * round-off or reference floor), reruns in quad. How the precision was
 * chosen goes to r->precision_note. A vi_status, as vi_api.order. */
#define VI_PRECISION_AUTO (-1)
int vi_order_run(const vi_order_config *c, int precision, vi_order_result *r, char *err,
                 size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
