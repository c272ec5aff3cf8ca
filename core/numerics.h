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

/* Nonlinear solver backends (core/solve_tmpl.c). */
typedef enum vi_solver_kind { VI_SOLVER_NEWTON = 0, VI_SOLVER_KINSOL = 1 } vi_solver_kind;

#ifdef __cplusplus
}
#endif
#endif
