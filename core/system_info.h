/* system_info.h: the metadata of a system type shared by its double and
 * quad variants (name, sizes, parameters), and what a method family needs
 * of a system */
#ifndef VI_SYSTEM_INFO_H
#define VI_SYSTEM_INFO_H

#include <stddef.h>


#ifdef __cplusplus
extern "C" {
#endif

/* A named physical parameter or piece of initial data of a system type.
 * count values (1 for a scalar, n for a vector such as q0); the defaults are
 * a comma-separated list parsed in the working precision, so a quad run
 * sees 9.81 to 36 digits, not the double nearest to it. */
/* The values a parameter may take, checked when a system is made (a
 * parameter set outside it is refused naming the parameter and the range). */
typedef enum vi_param_domain {
  VI_PARAM_ANY = 0,      /* any finite number */
  VI_PARAM_POSITIVE = 1, /* > 0 (masses, lengths) */
  VI_PARAM_NONNEG = 2,   /* >= 0 */
  VI_PARAM_NATURAL = 3,  /* a whole number >= 0: a size or an index (chaotic-nh's
                            m_c, an ensemble member j of J); structural, so the
                            order validation never draws it */
  VI_PARAM_COORDS = 4,   /* any finite numbers, one per coordinate: exactly n
                            values, n the instance's dimension, for a system
                            whose dimension is set by a parameter
                            (vi_system_type.dim); count is the largest n
                            (info->n). Defaults "": unset unless --set, passed
                            to setup as NaN (the system derives the values) */
  VI_PARAM_ROTATION = 5  /* a rotation matrix, 9 values row-major (the
                            turntable's initial attitude R0): the values are
                            any finite numbers, the system refuses a matrix
                            off SO(3) (its group check); the order validation
                            draws it as the default times a random rotation,
                            never entry by entry */
} vi_param_domain;

/* A named data set of a system (vi_system_info.data): settings of some of
 * its parameters, "name=v1,v2;name=v" (';' between parameters, values as
 * --set takes them, parsed in the working precision), that a user selects
 * with the setting data=NAME (--set data=NAME). The data set is applied
 * over the defaults, and every other setting over it, whatever their
 * order: "data=high,eps=0" is the high-energy data of cvt with eps = 0. */
typedef struct vi_data_set {
  const char *name; /* e.g. "low" */
  const char *doc;  /* one line: what the data are and where from */
  const char *sets; /* "q0=1,0,1;v0=0,1.8973665961010275991993361266596341,0" */
} vi_data_set;

typedef struct vi_param {
  const char *name;
  int count;
  const char *defaults;
  const char *doc;
  int domain; /* vi_param_domain of every value */
} vi_param;

/* The domain as text: "any finite number", "> 0", ">= 0", "a whole number >= 0",
 * "any finite number, one per coordinate", "a rotation matrix (row-major)". */
const char *vi_param_domain_text(int domain);

/* What a method family needs of a system (vi_method_type.needs: every
 * bit required) and what it handles when present (vi_method_type.optional:
 * a constraint kind the family treats if the system has it), checked once
 * when a stepper is made, with a message naming what is missing or
 * unhandled. */
enum {
  VI_NEED_MECH = 1u << 0,  /* the mechanical form 1/2 v'M(q)v - V(q) */
  VI_NEED_DEGEN = 1u << 1, /* the degenerate form alpha(q).v - H(q) */
  VI_NEED_HOLO = 1u << 2,  /* holonomic constraints g(q) = 0 (m >= 1) */
  VI_NEED_LIE = 1u << 3,   /* the Lie-group form l(g, xi) */
  VI_NEED_NH = 1u << 4     /* nonholonomic constraints (m_nh >= 1) */
};

/* The constraint residuals a method keeps at round-off at every node
 * (vi_method_type.keeps): g(q), the hidden constraint G(q) M^-1 p, and
 * G(q) v with the method's own velocity (betsch-ggl: VI-B keeps G v but
 * not G M^-1 p, VI-A neither at its nodes), and the nonholonomic one
 * A(q) M^-1 p + a(q) (demartin2018 (14e) at the end stage; without the
 * bit the conformance suite only asks it to converge). */
enum {
  VI_KEEPS_G = 1u << 0,
  VI_KEEPS_GV = 1u << 1,
  VI_KEEPS_GVV = 1u << 2,
  VI_KEEPS_NH = 1u << 3
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
  unsigned quadratic;  /* VI_QUADRATIC_V: V is a polynomial of degree <= 2;
                          VI_QUADRATIC_G: so is every g_k. The midpoint
                          gradient is then an exact discrete gradient
                          (betsch-ggl §4.3, (99)): what the energy-momentum
                          family em uses instead of Gonzalez's formula */
  const char *const *momentum_names; /* n_momenta names, e.g. "Jz" */
  unsigned momenta_noether; /* bit i: momentum map i is a first integral
                               for every parameter and initial datum, the
                               Noether quantity of a symmetry acting
                               linearly on q (rotation, translation) that
                               keeps L (up to a total derivative) and the
                               constraints; a family whose discrete
                               Lagrangian keeps such symmetries may declare
                               its exact conservation (VI_MOMENTA,
                               VI_ORDER_EXACT: wenger2017 §3.4.2), which the
                               conformance suite traces */
  unsigned momenta_conserved; /* bit i: momentum map i is a first integral
                                 for every parameter and initial datum
                                 without being a Noether quantity (cvt's
                                 subsystem energies E_d, E_p: demartin2018
                                 §7.2; the nonholonomic particle's E_y): the
                                 measures follow its change, but no family
                                 is asked to keep it exactly. Disjoint from
                                 momenta_noether. A map in neither mask is a
                                 first integral of special data at most
                                 (the turntable's for a = b = c, six-balls'
                                 antisymmetry (61) for symmetric data, or
                                 never: pendulum-3d's Jx, Jy), followed as
                                 its value */
  const vi_param *params; /* terminated by an entry with name == NULL */
  int test_only;          /* 1 for a system of the tests only (tests/systems/,
                             VI_TEST_SYSTEM in systems.def): registered in the
                             test configuration, left out of the generated
                             reference pages */
  const vi_data_set *data; /* named data sets, terminated by an entry with
                              name == NULL; NULL: none */
  const char *dim_doc;     /* a dimension set by a parameter (vi_system_type.dim):
                              how, e.g. "2 m_c + 1"; n is then the largest */
} vi_system_info;

enum { VI_QUADRATIC_V = 1u << 0, VI_QUADRATIC_G = 1u << 1 };

/* Number of parameter values of a system (sum of counts). */
int vi_system_info_nvalues(const vi_system_info *info);

/* The dimensions a stepper is sized by and a node is laid out by: the
 * system's (n coordinates or the group's dimension, nq reals per
 * configuration, m holonomic and m_nh nonholonomic multipliers, ml = m +
 * m_nh) and the method's extra block (n_extra reals per node, e.g. the
 * second multiplier gamma of GGL; 0 for a system alone). */
typedef struct vi_dims {
  int n, nq, m, m_nh, ml;
  int n_extra;
  int n_vel; /* reals of the node's velocity block: n when the method has a
                velocity of its own (vi_method_type.velocity: betsch-ggl's
                VI-S, VI-A, VI-B, whose v is not M^-1 p), else 0 */
} vi_dims;

/* What the exact flow says of a method's extra block (vi_method_type):
 * nothing (reported, not measured), or that it vanishes (e.g. the second
 * multiplier gamma of GGL): its size is then its error. */
enum { VI_EXTRA_UNREFERENCED = 0, VI_EXTRA_ZERO = 1 };
/* The longest name of an extra block (its columns add a number). */
#define VI_EXTRA_NAME_MAX 16

/* Reals of one node: q (nq), p (n), the multipliers (ml), the extra block
 * (n_extra), the velocity (n_vel); t is kept apart. The layout in a buffer, in this order, is
 * vi_node_bind's (api_tmpl.h). */
static inline size_t vi_node_size(const vi_dims *d) {
  return (size_t)d->nq + (size_t)d->n + (size_t)d->ml + (size_t)d->n_extra +
         (size_t)d->n_vel;
}

#ifdef __cplusplus
}
#endif
#endif
