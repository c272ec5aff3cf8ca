/* numerics_tmpl.h: building blocks in the working precision (see prec.h):
 * quadrature rules, Lagrange bases, Butcher tableaux, dense LU.
 *
 * No include guard: included once per precision (vistudy.h) or once by a
 * templated translation unit after prec.h. Conventions: every rule lives on
 * [0, 1] with ascending nodes and weights summing to 1; matrices are
 * row-major. Returned int values are vi_status codes. */

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- quadrature_tmpl.c ---------------------------------------------------- */

/* n-node rules on [0, 1], computed in the working precision by Newton's
 * method on Legendre polynomials (no pasted tables). Exact for polynomials
 * of degree 2n-1 (Gauss, n >= 1), 2n-3 (Lobatto, n >= 2, both ends are
 * nodes), 2n-2 (Radau IIA, n >= 1, right end is a node). n <= VI_QUAD_MAX. */
#ifndef VI_QUAD_MAX
#define VI_QUAD_MAX 64
#endif
int VI_X(vi_quad_gauss)(int n, VI_REAL *c, VI_REAL *b);
int VI_X(vi_quad_lobatto)(int n, VI_REAL *c, VI_REAL *b);
int VI_X(vi_quad_radau)(int n, VI_REAL *c, VI_REAL *b);
/* Dispatch on the rule kind (vi_rule in common.h). */
int VI_X(vi_quad_rule)(int rule, int n, VI_REAL *c, VI_REAL *b);

/* ---- basis_tmpl.c --------------------------------------------------------- */

/* deg + 1 control points on [0, 1] into d[deg + 1], ascending, d[0] = 0
 * and d[deg] = 1 (equidistant and Lobatto, the families so far; vi_ctrl in
 * common.h). 1 <= deg, and deg + 1 <= VI_QUAD_MAX for Lobatto. */
int VI_X(vi_ctrl_points)(int family, int deg, VI_REAL *d);

/* Values l[j] = l_j(t) and derivatives dl[j] = l_j'(t), j = 0..np-1, of the
 * Lagrange basis on the np distinct points d (wenger2017 (11)); dl may be
 * NULL. Exact Kronecker deltas at the points themselves. */
void VI_X(vi_lagrange_eval)(int np, const VI_REAL *d, VI_REAL t, VI_REAL *l,
                            VI_REAL *dl);

/* ---- tableau_tmpl.c ------------------------------------------------------- */

/* s-stage Butcher tableau (A s x s row-major, b, c) of the given kind
 * (vi_tableau_kind in common.h), built from the nodes in the working
 * precision: Gauss, Radau IIA and Lobatto IIIA by collocation, Lobatto IIIB
 * as the symplectic conjugate of IIIA, Lobatto IIIC by a_i1 = b_1 and C(s-1).
 * s <= VI_TAB_MAX. */
#ifndef VI_TAB_MAX
#define VI_TAB_MAX 16
#endif
int VI_X(vi_tableau)(int kind, int s, VI_REAL *A, VI_REAL *b, VI_REAL *c);

/* Symplectic conjugate: Ahat_ij = b_j - b_j A_ji / b_i (all b_i != 0), so
 * that (A, b) and (Ahat, b) form a symplectic partitioned RK method.
 * 1 <= s <= VI_TAB_MAX; Ahat may alias A. */
int VI_X(vi_tableau_conjugate)(int s, const VI_REAL *A, const VI_REAL *b,
                               VI_REAL *Ahat);

/* Residuals (max abs) of the simplifying assumptions
 * B(p): sum_i b_i c_i^(k-1) = 1/k,                  k = 1..p
 * C(q): sum_j a_ij c_j^(k-1) = c_i^k / k,           k = 1..q, all i
 * D(r): sum_i b_i c_i^(k-1) a_ij = b_j (1 - c_j^k) / k, k = 1..r, all j */
VI_REAL VI_X(vi_tableau_B)(int s, const VI_REAL *b, const VI_REAL *c, int p);
VI_REAL VI_X(vi_tableau_C)(int s, const VI_REAL *A, const VI_REAL *c, int q);
VI_REAL VI_X(vi_tableau_D)(int s, const VI_REAL *A, const VI_REAL *b,
                           const VI_REAL *c, int r);

/* ---- linalg_tmpl.c -------------------------------------------------------- */

/* In-place LU with partial pivoting of the n x n row-major A; piv[n].
 * Returns VI_SINGULAR on an exactly zero pivot. */
int VI_X(vi_lu_factor)(int n, VI_REAL *A, int *piv);
/* Solve LU x = b in place (x holds b on entry). */
void VI_X(vi_lu_solve)(int n, const VI_REAL *LU, const int *piv, VI_REAL *x);
/* Max-norm of a vector. */
VI_REAL VI_X(vi_norm_inf)(int n, const VI_REAL *x);
/* The rotation cay(a) = (I - a^/2)^-1 (I + a^/2) of a in R^3 (a^ x = a x
 * x), 3 x 3 row-major, in closed form I + 4/(4 + |a|^2) (a^ + a^ a^ / 2). */
void VI_X(vi_cayley3)(const VI_REAL *a, VI_REAL *C);
/* C = A B for 3 x 3 row-major matrices (C must not alias A or B). */
void VI_X(vi_matmul3)(const VI_REAL *A, const VI_REAL *B, VI_REAL *C);

#ifdef __cplusplus
}
#endif
