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
} vi_galerkin_opts;

typedef struct vi_man2020_opts {
  int m;     /* points per step */
  int ctrl;  /* vi_ctrl */
  int quadU; /* vi_rule of the unconstrained term */
  int quadC; /* vi_rule of the constrained term */
} vi_man2020_opts;

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
  int n;               /* coordinates */
  int m;               /* holonomic constraints */
  int m_nh;            /* nonholonomic constraints A(q) v + a(q) = 0 */
  int n_momenta;       /* number of momentum maps (obs->momenta) */
  const char *const *momentum_names; /* n_momenta names, e.g. "Jz" */
  const vi_param *params; /* terminated by an entry with name == NULL */
} vi_system_info;

/* Number of parameter values of a system (sum of counts). */
int vi_system_info_nvalues(const vi_system_info *info);

/* Documentation of one key of a method spec NAME:key=value,... */
typedef struct vi_key_doc {
  const char *key;
  const char *values; /* valid values, e.g. "1..12" or "gauss|lobatto" */
  const char *def;    /* default, as text */
  const char *doc;
} vi_key_doc;

/* What `vistudy run` and `vistudy order` both need, as text: the numbers
 * are parsed in the working precision by the templated drivers. */
typedef struct vi_common_args {
  const char *system;
  int nset;
  const char *const *set; /* "name=v1,v2" overrides */
  const char *method;     /* NAME[:key=value,...] */
  const char *T;          /* final time (order: NULL means 1) */
  int solver;             /* vi_solver_kind */
  const char *rtol;       /* NULL: default */
  int max_iter;           /* 0: default */
} vi_common_args;

/* `vistudy run` (vi_run_d / vi_run_q). The caller opens the output (the
 * program's outfile.h checks and writes it safely); the driver writes the
 * CSV to it and refuses runs above the limits below unless force. */
#define VI_RUN_MAX_STEPS 100000000L        /* 1e8 steps */
#define VI_RUN_MAX_BYTES (1024.0 * 1024 * 1024) /* 1 GiB of CSV in a regular file */
typedef struct vi_run_args {
  vi_common_args c;
  const char *h;        /* step size */
  FILE *out;            /* where the CSV goes */
  const char *out_name; /* its name in messages */
  int out_is_file;      /* a regular file: the size limit applies */
  long every;           /* write every K-th node and the last; 0 or 1: all */
  int force;            /* run past VI_RUN_MAX_STEPS / VI_RUN_MAX_BYTES */
  int quiet;            /* no summary on stderr */
} vi_run_args;

/* What an order study needs, as text (numbers parsed in the working
 * precision by vi_order_d / vi_order_q). */
#define VI_ORDER_MAXH 24
typedef struct vi_order_args {
  vi_common_args c;
  int nh;                 /* number of explicit step sizes; 0: automatic */
  const char *h[VI_ORDER_MAXH];
  const char *cache_dir;  /* reference cache; NULL: none */
  int progress;           /* progress lines on stderr */
  int measure;            /* vi_measure: what drives the automatic step sizes */
  int energy_only;        /* skip the reference: energy errors only (studies
                             whose measure is the energy, man2020 (46)-(49)) */
} vi_order_args;

/* The error an order study is about: the global errors of q, p, lambda
 * against a reference (wenger2017 §4.1), or the max relative energy error
 * max_k |H_k - H_0| / |H_0| (man2020 (46)-(47)). */
typedef enum vi_measure { VI_MEASURE_STATE = 0, VI_MEASURE_ENERGY = 1 } vi_measure;

/* Result of an order study, in double whatever the working precision. */
enum { VI_Q = 0, VI_P = 1, VI_LAMBDA = 2, VI_NQUANT = 3 };
typedef struct vi_order_result {
  char system[64];
  char method[256];     /* canonical spec */
  char precision[8];
  char reference[160];  /* what produced the reference */
  double ref_accuracy;
  double floor[VI_NQUANT]; /* per quantity: errors <= 10 floor are plateau */
  double T;
  int nh;
  double h[VI_ORDER_MAXH];
  long steps[VI_ORDER_MAXH];
  double err[VI_NQUANT][VI_ORDER_MAXH]; /* NaN where the run failed */
  double energy_err[VI_ORDER_MAXH];     /* max |E_k - E_0| / |E_0| */
  double energy_floor;                  /* energy errors <= 10 floor are plateau */
  int measure;                          /* vi_measure of the study */
  double newton_per_step[VI_ORDER_MAXH];
  double seconds[VI_ORDER_MAXH];
  int status[VI_ORDER_MAXH];            /* vi_status of each run */
  int unknowns;
  char note[320];       /* "" or a warning for the user (a cache not written) */
  int nparams;
  char param_names[32][16];
  double params[64];    /* flattened parameter values (doubles, for reports) */
  int param_count[32];
} vi_order_result;

/* Exit statuses of the command line (design.md). */
enum { VI_EXIT_OK = 0, VI_EXIT_FAIL = 1, VI_EXIT_USAGE = 2 };

#ifdef __cplusplus
}
#endif
#endif
