/* basis_tmpl.c: control points and the Lagrange basis polynomials on them, the
 * interpolation space of the Galerkin variational integrators (wenger2017
 * (11); Ober-Bloebaum & Saake, Adv. Comput. Math. 41 (2015)). The
 * Lagrange values and derivatives are evaluated as products of the ratios
 * (t - d_j) / (d_i - d_j), with the derivative accumulated by the product
 * rule, which is exact at the control points and free of the 1 / (t - d_j)
 * of the barycentric formula (Berrut & Trefethen, SIAM Rev. 46 (2004)).
 * Compiled once per precision (prec.h). */

/* prec.h first: numerics_tmpl.h declares in the precision it sets. */
#include "prec.h"

#include "numerics_tmpl.h"

int VI_X(vi_ctrl_points)(int family, int deg, VI_REAL *d) {
  if (deg < 1 || !d) {
    return VI_EINVAL;
  }
  switch (family) {
  case VI_CTRL_EQUIDISTANT:
    for (int j = 0; j <= deg; j++) {
      d[j] = (VI_REAL)j / deg;
    }
    return VI_OK;
  case VI_CTRL_LOBATTO: {
    /* The Lobatto weights are not needed, but the rule computes them. */
    VI_REAL w[VI_QUAD_MAX];
    if (deg + 1 > VI_QUAD_MAX) {
      return VI_EINVAL;
    }
    return VI_X(vi_quad_lobatto)(deg + 1, d, w);
  }
  default:
    return VI_EINVAL;
  }
}

void VI_X(vi_lagrange_eval)(int np, const VI_REAL *d, VI_REAL t, VI_REAL *l,
                            VI_REAL *dl) {
  for (int i = 0; i < np; i++) {
    /* l_i = prod_{j != i} f_j with f_j = (t - d_j) / (d_i - d_j); the
     * running pair (p, dp) is the product so far and its derivative. When
     * t == d_i every factor is the quotient of two identical numbers, so
     * l_i(d_i) = 1 and l_i(d_k) = 0 exactly. */
    VI_REAL p = 1, dp = 0;
    for (int j = 0; j < np; j++) {
      if (j == i) {
        continue;
      }
      VI_REAL den = d[i] - d[j];
      VI_REAL f = (t - d[j]) / den;
      dp = dp * f + p / den;
      p *= f;
    }
    l[i] = p;
    if (dl) {
      dl[i] = dp;
    }
  }
}
