/* common.h: the non-templated part of the vistudy API: status codes,
 * parameter and option descriptors, and the metadata of system types.
 *
 * Everything that depends on the working precision lives in the templated
 * headers (numerics_tmpl.h, api_tmpl.h), declared for both precisions by
 * vistudy.h. */
#ifndef VI_COMMON_H
#define VI_COMMON_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes (core/status.def): 0 success, > 0 recoverable, < 0 fatal. */
typedef enum vi_status {
#define VI_STATUS(name, value, msg) name = value,
#include "status.def"
#undef VI_STATUS
} vi_status;

/* Message of a status code; never NULL. */
const char *vi_strerror(int status);

/* A system callback's own return code is not a vi_status: map it onto the
 * two callback statuses, keeping the sign (> 0 recoverable, < 0 fatal). */
static inline int vi_callback_status(int rc) {
  return rc == 0 ? VI_OK : rc > 0 ? VI_CALLBACK_RECOVERABLE : VI_ECALLBACK;
}

/* printf into err (bounded; err may be NULL or errlen 0). */
void vi_set_err(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Precisions a numeric object can be built in. */
typedef enum vi_precision { VI_DOUBLE = 0, VI_QUAD = 1 } vi_precision;

/* Quadrature rule families (core/quadrature.c). */
typedef enum vi_rule { VI_RULE_GAUSS = 0, VI_RULE_LOBATTO = 1, VI_RULE_RADAU = 2 } vi_rule;
/* Control-point families of Lagrange bases (core/basis.c). */
typedef enum vi_ctrl { VI_CTRL_EQUIDISTANT = 0, VI_CTRL_LOBATTO = 1 } vi_ctrl;
/* Butcher tableau families (core/tableau.c). */
typedef enum vi_tableau_kind {
  VI_TAB_GAUSS = 0,
  VI_TAB_RADAU_IIA = 1,
  VI_TAB_LOBATTO_IIIA = 2,
  VI_TAB_LOBATTO_IIIB = 3,
  VI_TAB_LOBATTO_IIIC = 4
} vi_tableau_kind;

/* Nonlinear solver backends (core/solve.c). */
typedef enum vi_solver_kind { VI_SOLVER_NEWTON = 0, VI_SOLVER_KINSOL = 1 } vi_solver_kind;

/* Parse "double" or "quad"; returns 0 and sets *p, or -1. */
int vi_precision_parse(const char *s, vi_precision *p);
const char *vi_precision_name(vi_precision p);

/* A named physical parameter or piece of initial data of a system type.
 * count values (1 for a scalar, n for a vector such as q0); the defaults are
 * a comma-separated list parsed in the working precision, so a quad run
 * sees 9.81 to 36 digits, not the double nearest to it. */
/* The values a parameter may take, checked when a system is made (a
 * parameter set outside it is refused naming the parameter and the range). */
typedef enum vi_param_domain {
  VI_PARAM_ANY = 0,      /* any finite number */
  VI_PARAM_POSITIVE = 1, /* > 0 (masses, lengths) */
  VI_PARAM_NONNEG = 2    /* >= 0 */
} vi_param_domain;

typedef struct vi_param {
  const char *name;
  int count;
  const char *defaults;
  const char *doc;
  int domain; /* vi_param_domain of every value */
} vi_param;

/* The domain as text: "any finite number", "> 0", ">= 0". */
const char *vi_param_domain_text(int domain);

/* The options of the families, for the typed constructor
 * vi_stepper_alloc_opts (beside the spec strings NAME:key=value,...). A 0
 * in w or r of galerkin means its default (w = s; r = s for Gauss, s + 1
 * for Lobatto). */
typedef struct vi_galerkin_opts {
  int s, w, r;
  int quadL;   /* vi_rule: gauss or lobatto */
  int quadZ;   /* vi_rule: lobatto or gauss */
  int ctrl;    /* vi_ctrl */
  int project; /* 0: none, 1: P p (projection (4)) */
  int lambda;  /* 0: lambda_k^0, 1: recomputed from (70) */
  int scheme;  /* vi_galerkin_scheme: a named scheme sets its keys (where
                  they hold 0) */
} vi_galerkin_opts;
/* The named schemes of galerkin (wenger2017 §2.2; the constrained Lobatto
 * IIIA-IIIB pair: w = s-1, r = s with Lobatto rules). */
typedef enum vi_galerkin_scheme {
  VI_GALERKIN_NO_SCHEME = 0,
  VI_GALERKIN_SHAKE = 1,
  VI_GALERKIN_RATTLE = 2,
  VI_GALERKIN_LOBATTO3AB = 3
} vi_galerkin_scheme;

typedef struct vi_man2020_opts {
  int m;     /* points per step */
  int ctrl;  /* vi_ctrl */
  int quadU; /* vi_rule of the unconstrained term */
  int quadC; /* vi_rule of the constrained term */
} vi_man2020_opts;

/* The tableau pairs of vprk (tyranowski2014 §4, §5): a for Q, abar for P,
 * common weights b. Gauss (abar = a, its own symplectic conjugate), Radau
 * IIA (abar = a; not variational, stiffly accurate), Lobatto IIIA-IIIB
 * (a = IIIA, abar = IIIB, the symplectic conjugate of IIIA). */
typedef enum vi_vprk_tableau {
  VI_VPRK_GAUSS = 0,
  VI_VPRK_RADAU_IIA = 1,
  VI_VPRK_LOBATTO_IIIA_IIIB = 2
} vi_vprk_tableau;

typedef struct vi_vprk_opts {
  int tableau; /* vi_vprk_tableau */
  int s;       /* stages */
} vi_vprk_opts;

/* What a method family needs of a system (vi_method_type.needs), checked
 * once when a stepper is made, with a message naming what is missing. */
enum {
  VI_NEED_MECH = 1u << 0,  /* the mechanical form 1/2 v'M(q)v - V(q) */
  VI_NEED_DEGEN = 1u << 1, /* the degenerate form alpha(q).v - H(q) */
  VI_NEED_HOLO = 1u << 2,  /* holonomic constraints g(q) = 0 (m >= 1) */
  VI_NEED_LIE = 1u << 3,   /* the Lie-group form l(g, xi) */
  VI_NEED_NH = 1u << 4     /* nonholonomic constraints (m_nh >= 1) */
};

/* Metadata of a system type, shared by its double and quad variants. */
typedef struct vi_system_info {
  const char *name;    /* registry name, e.g. "planar-pendulum" */
  const char *summary; /* one line */
  const char *cite;    /* paper key and equations, e.g. "wenger2017 (69)" */
  int n;               /* coordinates (Lie form: the dimension of the group) */
  int nq;              /* reals stored per configuration; 0: n. The Lie form
                          may store a group element in an embedding with
                          nq > n (SO(3) x R^2: R row-major, then x, y: 11) */
  int m;               /* holonomic constraints */
  int m_nh;            /* nonholonomic constraints A(q) v + a(q) = 0 */
  int n_momenta;       /* number of momentum maps (obs->momenta) */
  int alpha_affine;    /* degenerate form: alpha(q) = C q + d, so Dalpha is
                          constant and the contracted Hess alpha vanishes
                          (tyranowski2014 §4.2: Theorems 4.3-4.6 apply);
                          vistudy check verifies it */
  const char *const *momentum_names; /* n_momenta names, e.g. "Jz" */
  const vi_param *params; /* terminated by an entry with name == NULL */
} vi_system_info;

/* Number of parameter values of a system (sum of counts). */
int vi_system_info_nvalues(const vi_system_info *info);

/* The options of a method family as data (design.md, "The method
 * interface"): one table generates the parsing of NAME:key=value,..., the
 * canonical spec, the range checks of the typed constructor, `vistudy list
 * methods` and every message naming the valid choices (core/options.c). */
typedef enum vi_opt_kind {
  VI_OPT_INT = 0,    /* an integer in lo..hi */
  VI_OPT_CHOICE = 1, /* one of names[], stored as values[i] */
  VI_OPT_PRESET = 2  /* a name that stands for other keys (presets[]) */
} vi_opt_kind;

/* A named preset: a spec fragment of other keys, e.g. galerkin's
 * scheme=shake = "s=1,w=1,quadL=lobatto,r=2", man2020's alg=LGG =
 * "ctrl=lobatto,quadU=gauss,quadC=gauss". */
typedef struct vi_opt_preset {
  const char *name;
  const char *fragment;
  const char *derived; /* keys the family's check derives from it, as text
                          ("w=s-1, r=s"), or NULL */
} vi_opt_preset;

#define VI_OPT_NOFIELD ((size_t)-1)
typedef struct vi_opt {
  const char *key;
  int kind;                      /* vi_opt_kind */
  size_t offset;                 /* offsetof the int field; VI_OPT_NOFIELD: none
                                    (a preset that is not stored) */
  int lo, hi;                    /* VI_OPT_INT: the range */
  const char *const *names;      /* VI_OPT_CHOICE: NULL-terminated value names */
  const int *values;             /* VI_OPT_CHOICE: stored value of each name */
  const vi_opt_preset *presets;  /* VI_OPT_PRESET: terminated by name == NULL;
                                    stored as 1 + index (0: none) */
  int def;                       /* default stored value; for VI_OPT_INT a 0
                                    outside lo..hi means "derived by check" */
  int preset_mode;               /* VI_OPT_PRESET: VI_PRESET_EXCLUSIVE (a key it
                                    sets may not be given too) or
                                    VI_PRESET_IN_SPEC (later keys override it, and
                                    the canonical spec names it) */
  const char *range_doc;         /* NULL: generated ("1..12", "gauss|lobatto") */
  const char *def_doc;           /* NULL: generated from def */
  const char *doc;
} vi_opt;
enum { VI_PRESET_EXCLUSIVE = 0, VI_PRESET_IN_SPEC = 1 };

/* Defaults of every option into opts. */
void vi_opts_defaults(const vi_opt *table, void *opts);
/* Parse "key=value,..." (after the defaults) for family; VI_EINVAL with a
 * message naming the key and the valid choices. */
int vi_opts_parse(const char *family, const vi_opt *table, void *opts, const char *kv,
                  char *err, size_t errlen);
/* The ranges of options filled directly (typed constructor); VI_EINVAL with
 * the option, its value and its range. */
int vi_opts_check(const char *family, const vi_opt *table, const void *opts, char *err,
                  size_t errlen);
/* Typed construction: a stored preset (e.g. vi_galerkin_opts.scheme) sets
 * its keys where the options hold 0 (unset); a nonzero value that differs is
 * refused. A no-op after vi_opts_parse. */
int vi_opts_apply_presets(const char *family, const vi_opt *table, void *opts, char *err,
                          size_t errlen);
/* The canonical spec "family:key=value,...". */
void vi_opts_format(const char *family, const vi_opt *table, const void *opts, char *buf,
                    size_t len);
/* The valid values and the default of option o as text (list methods). */
void vi_opt_describe(const vi_opt *o, char *range, size_t rlen, char *def, size_t dlen);

/* The error an order study is about: the global errors of q, p, lambda
 * against a reference (wenger2017 §4.1), or the max relative energy error
 * max_k |H_k - H_0| / |H_0| (man2020 (46)-(47)). */
typedef enum vi_measure { VI_MEASURE_STATE = 0, VI_MEASURE_ENERGY = 1 } vi_measure;

/* A real number passed between untemplated code and the drivers of either
 * precision: __float128 holds every double exactly, so a number parsed in
 * the working precision (vi_api.parse_real) reaches the driver unchanged. */
typedef __float128 vi_wide;

/* Options of the nonlinear solver of each step (vi_solver_opts in the
 * working precision). */
typedef struct vi_solver_config {
  int kind;     /* vi_solver_kind */
  vi_wide rtol; /* 0: the default (100 eps) */
  int max_iter; /* 0: the default (50) */
} vi_solver_config;

/* Result of an order study, in double whatever the working precision. */
#define VI_ORDER_MAXH 24
enum { VI_Q = 0, VI_P = 1, VI_LAMBDA = 2, VI_NQUANT = 3 };
/* A declared order meaning "does not converge" (an inconsistent method,
 * e.g. the 2-stage Lobatto IIIA-IIIB pair of tyranowski2014 §4.3.2): an
 * order study must give the verdict 'd', never a slope. */
#define VI_ORDER_NONE 0
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
  int measure;                          /* vi_measure of the study */
  double newton_per_step[VI_ORDER_MAXH];
  double seconds[VI_ORDER_MAXH];        /* by vi_order_config.clock; NaN untimed */
  int status[VI_ORDER_MAXH];            /* vi_status of each run */
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
} vi_order_result;

/* A typed order study (vi_order_study_d / _q, vi_api.order): a system
 * (registry name and overrides "name=v1,v2"), a method spec, the final
 * time T and the runs h = T/N. */
typedef struct vi_order_config {
  const char *system;
  int nset;
  const char *const *set;
  const char *method;    /* NAME[:key=value,...] */
  vi_wide T;             /* final time; 0 means 1 */
  int nN;                /* explicit runs; 0: automatic step sizes */
  long N[VI_ORDER_MAXH]; /* steps of each explicit run */
  vi_solver_config solver;
  const char *cache_dir; /* reference cache; NULL: none */
  int measure;           /* vi_measure: what drives the automatic step sizes */
  int energy_only;       /* skip the reference: energy errors only (studies
                            whose measure is the energy, man2020 (46)-(49)) */
  int at_final;          /* q, p, lambda errors at the final node t = T only
                            (tyranowski2014 §5: "max norm errors" of the
                            solution at T); 0: the maximum over the nodes */
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

/* What a prepared trajectory will produce: the columns of every row (t,
 * q1..q{nq} (a group in its embedding), p1..pn, the multipliers lambda
 * then mu, energy, the residuals of the form (g_norm, gv_norm, phi_norm,
 * group_defect, alpha_defect), the momentum maps) and the canonical method
 * spec. */
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
  long steps, newton_iters, newton_iters_max;
  int unknowns;
  char ref_method[256]; /* reference: what produced it */
  double ref_accuracy;
} vi_traj_result;

/* Receives one row of ncol values (vi_traj_info.colnames) at node k; VI_OK
 * to go on, anything else stops the trajectory. */
typedef int (*vi_row_sink)(void *ctx, long k, int ncol, const vi_wide *values);

/* A prepared trajectory (opaque; one precision). */
typedef struct vi_traj vi_traj;

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
} vi_api;

const vi_api *vi_api_of(vi_precision p);

/* The quantities an order study is about (its measure): q, p and lambda
 * (when the system has multipliers) for the state, the energy error for
 * the energy measure; x is VI_Q, VI_P, VI_LAMBDA or VI_NQUANT (energy). */
int vi_order_drives(const vi_order_result *r, int x);

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
