/* numerics.h: the untemplated part of the numerics: the kinds of quadrature
 * rules, control points, Butcher tableaux and nonlinear solvers (the
 * templated functions that build them: numerics_tmpl.h) */
#ifndef VI_NUMERICS_H
#define VI_NUMERICS_H


#ifdef __cplusplus
extern "C" {
#endif

/* Quadrature rule families (core/quadrature_tmpl.c). */
typedef enum vi_rule { VI_RULE_GAUSS = 0, VI_RULE_LOBATTO = 1, VI_RULE_RADAU = 2 } vi_rule;
/* Control-point families of Lagrange bases (core/basis_tmpl.c). */
typedef enum vi_ctrl { VI_CTRL_EQUIDISTANT = 0, VI_CTRL_LOBATTO = 1 } vi_ctrl;
/* Butcher tableau families (core/tableau_tmpl.c). */
typedef enum vi_tableau_kind {
  VI_TAB_GAUSS = 0,
  VI_TAB_RADAU_IIA = 1,
  VI_TAB_LOBATTO_IIIA = 2,
  VI_TAB_LOBATTO_IIIB = 3,
  VI_TAB_LOBATTO_IIIC = 4
} vi_tableau_kind;

/* Nonlinear solvers of a step (core/solve_tmpl.c): the default of the
 * working precision (VI_SOLVER_AUTO, what a zeroed configuration asks
 * for), exact Newton (a fresh Jacobian and LU at every iterate), the chord
 * method (one Jacobian and LU per solve, at the initial guess), simplified
 * Newton (the Jacobian and its LU kept across iterations and solves while
 * the contraction rate stays small, Hairer-Wanner II §IV.8, RADAU5), or
 * KINSOL (exact Newton, double only), or fixed-point iteration (the
 * family's leading part of the Jacobian, its limit as h -> 0, in place of
 * the Jacobian: no Jacobian and, where that part is constant, one LU per
 * run, as Hairer's GNI codes iterate Z = h A f(Z); families that have one,
 * vi_method_type.fixed_point). */
typedef enum vi_solver_kind {
  VI_SOLVER_AUTO = 0,
  VI_SOLVER_NEWTON = 1,
  VI_SOLVER_KINSOL = 2,
  VI_SOLVER_SIMPLIFIED = 3,
  VI_SOLVER_CHORD = 4,
  VI_SOLVER_FIXED_POINT = 5
} vi_solver_kind;
#define VI_SOLVER_NKINDS 6

/* The precision of the Newton iteration's LU: the working precision, or
 * double whatever the working precision (mixed precision: the Jacobian
 * only steers the iteration, the residual stays in the working precision);
 * VI_LU_AUTO is the working precision's default. In double the two are the
 * same. */
typedef enum vi_lu_precision { VI_LU_AUTO = 0, VI_LU_WORKING = 1, VI_LU_DOUBLE = 2 } vi_lu_precision;

/* Work counters of nonlinear solves, added to by every solve. */
typedef struct vi_solve_counts {
  long iters;          /* Newton iterations (one linear solve each) */
  long fevals;         /* residual evaluations */
  long jevals;         /* Jacobian evaluations */
  long factorizations; /* LU factorizations */
} vi_solve_counts;

/* "newton", "chord", "simplified", "fixed-point", "kinsol" or "auto"; parse returns 0 and sets
 * *kind, or -1 for an unknown name. */
const char *vi_solver_kind_name(int kind);
int vi_solver_kind_parse(const char *s, int *kind);
/* "working", "double" or "auto"; parse as above. */
const char *vi_lu_precision_name(int lu);
int vi_lu_precision_parse(const char *s, int *lu);

#ifdef __cplusplus
}
#endif
#endif
