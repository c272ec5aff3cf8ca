/* measures.h: one vocabulary of what is measured at a node of a trajectory
 * (design.md "A node of a trajectory ... each with a column name"): the
 * node's own values (t, q, p, the multipliers of each kind, the method's
 * extra block) and the functionals of the system (the energy, each
 * momentum map by name, the residuals of its constraints, the defect of
 * its form), each under one name. run's columns, the figure traces, the
 * sweeps and the order studies all read them from here
 * (vi_measures, vi_measure_find, vi_measure_eval in api_tmpl.h). */
#ifndef VI_MEASURES_H
#define VI_MEASURES_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum vi_measure_kind {
  VI_MK_T = 0,         /* time */
  VI_MK_Q = 1,         /* a configuration coordinate (nq of them; a group in its embedding) */
  VI_MK_P = 2,         /* a momentum */
  VI_MK_LAMBDA = 3,    /* a holonomic multiplier */
  VI_MK_MU = 4,        /* a nonholonomic multiplier */
  VI_MK_EXTRA = 5,     /* a real of the method's extra block */
  VI_MK_ENERGY = 6,    /* the total energy */
  VI_MK_ALPHA_DEFECT = 7, /* |p - alpha(q)|_inf, degenerate form */
  VI_MK_G_NORM = 8,    /* |g(q)|_inf */
  VI_MK_GV_NORM = 9,   /* |G(q) M^-1 p|_inf, the hidden constraint */
  VI_MK_PHI_NORM = 10, /* |A(q) v + a(q)|_inf */
  VI_MK_GROUP_DEFECT = 11, /* distance of a group element in an embedding from its group */
  VI_MK_MOMENTUM = 12, /* a momentum map, by its name */
  VI_MK_NEWTON = 13,   /* the Newton iterations of the step that produced the
                          node (its solves, retries included; at node 0 those
                          of init, the look-ahead's):
                          a measure of a run, known to a trace (vi_api.trace),
                          not to a node alone (betsch-ggl Table 2) */
  VI_MK_V = 14,        /* a real of the method's own velocity (vi_node.v) */
  VI_MK_GVV_NORM = 15, /* |G(q) v|_inf with the method's v (else M^-1 p) */
  VI_MK_ENERGY_V = 16, /* p.v - 1/2 v'M v + V(q) with the method's v */
  VI_MK_KINETIC = 17,  /* 1/2 p'M(q)^-1 p (betsch-ggl Fig 7's T) */
  VI_MK_POTENTIAL = 18, /* V(q) (Fig 7's V) */
  VI_MK_KINETIC_V = 19, /* 1/2 v'M(q) v with the method's v (else M^-1 p) */
  VI_MK_G = 20,        /* g_k(q), one holonomic constraint (index k) */
  VI_MK_GV = 21,       /* (G(q) M^-1 p)_k, its hidden constraint (Fig 20) */
  VI_MK_GVV = 22       /* (G(q) v)_k with the method's v (else M^-1 p) */
} vi_measure_kind;

/* What the exact flow does with a measure: nothing in particular (a
 * coordinate), keeps it constant (a first integral: a trace follows its
 * change I - I(0)), or keeps it zero (a residual: a trace follows its
 * size). */
enum { VI_MR_FREE = 0, VI_MR_CONSTANT = 1, VI_MR_ZERO = 2 };

/* One measure of a node. index: the component of a vector kind (0-based),
 * or -1 for the whole block as its max norm (the name of the block, e.g.
 * "lambda" or the extra block's "gamma"). */
typedef struct vi_measure {
  int kind;      /* vi_measure_kind */
  int index;
  int reference; /* VI_MR_*: what the exact flow does with it */
  char name[32]; /* its column name */
} vi_measure;

/* The named functionals (not the node's own values), for `vistudy list
 * measures` and the messages naming the valid choices: name, kind,
 * reference, what it is; NULL-terminated. A family of one measure per
 * constraint is named by its base with "<k>" (g<k>: the columns g1..gm).
 * The momentum maps are named by each system (vi_system_info
 * .momentum_names): a first integral (VI_MR_CONSTANT) where the system
 * marks it one (momenta_noether or momenta_conserved), else VI_MR_FREE (e.g.
 * pendulum-3d's Jx, Jy: gravity exerts a torque about horizontal axes). */
typedef struct vi_measure_doc {
  const char *name;
  int kind;
  int reference;
  const char *doc;
} vi_measure_doc;
extern const vi_measure_doc vi_measure_docs[];

/* The blocks of a node's errors against a reference (vi_node_errors). */
enum { VI_ERR_Q = 1u << 0, VI_ERR_P = 1u << 1, VI_ERR_LAMBDA = 1u << 2 };

#ifdef __cplusplus
}
#endif
#endif
