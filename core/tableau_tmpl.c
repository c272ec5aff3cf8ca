/* tableau_tmpl.c: Butcher tableaux of the implicit Runge-Kutta families built on
 * Gauss, Radau and Lobatto nodes, and the residuals of the simplifying
 * assumptions B(p), C(q), D(r) that characterise them (Hairer-Wanner,
 * Solving ODEs II, §IV.5; Hairer-Lubich-Wanner, Geometric Numerical
 * Integration, Ch. II and VI, for Lobatto IIIB as the symplectic conjugate
 * of IIIA). Everything is derived from the nodes in the working
 * precision: the collocation methods by a_ij = int_0^c_i l_j and
 * b_j = int_0^1 l_j with the Lagrange basis l_j on the nodes, integrated
 * exactly by a Gauss rule. Compiled once per precision (prec.h). */

/* prec.h first: numerics_tmpl.h declares in the precision it sets. */
#include "prec.h"

#include "numerics_tmpl.h"

/* out[j] = int_0^x l_j(tau) dtau for the np Lagrange polynomials on d,
 * with the ng-node Gauss rule (g, w) on [0, 1], exact when 2 ng - 1 >= np -1
 * since l_j has degree np - 1. */
static void lagrange_integrals(int np, const VI_REAL *d, VI_REAL x, int ng,
                               const VI_REAL *g, const VI_REAL *w, VI_REAL *out) {
  VI_REAL l[VI_TAB_MAX];
  for (int j = 0; j < np; j++) {
    out[j] = 0;
  }
  for (int k = 0; k < ng; k++) {
    VI_X(vi_lagrange_eval)(np, d, x * g[k], l, NULL);
    for (int j = 0; j < np; j++) {
      out[j] += w[k] * l[j];
    }
  }
  for (int j = 0; j < np; j++) {
    out[j] *= x;
  }
}

int VI_X(vi_tableau)(int kind, int s, VI_REAL *A, VI_REAL *b, VI_REAL *c) {
  if (s < 1 || s > VI_TAB_MAX || !A || !b || !c) {
    return VI_EINVAL;
  }
  VI_REAL w[VI_TAB_MAX];
  int st;
  switch (kind) {
  case VI_TAB_GAUSS:
    st = VI_X(vi_quad_gauss)(s, c, w);
    break;
  case VI_TAB_RADAU_IIA:
    st = VI_X(vi_quad_radau)(s, c, w);
    break;
  case VI_TAB_LOBATTO_IIIA:
  case VI_TAB_LOBATTO_IIIB:
  case VI_TAB_LOBATTO_IIIC:
    st = s >= 2 ? VI_X(vi_quad_lobatto)(s, c, w) : VI_EINVAL;
    break;
  default:
    st = VI_EINVAL;
    break;
  }
  if (st != VI_OK) {
    return st;
  }

  /* A Gauss rule exact for the degree s - 1 of the Lagrange polynomials. */
  int ng = s / 2 + 1;
  VI_REAL g[VI_TAB_MAX], gw[VI_TAB_MAX];
  st = VI_X(vi_quad_gauss)(ng, g, gw);
  if (st != VI_OK) {
    return st;
  }

  /* b_j = int_0^1 l_j: the quadrature weights of the nodes, recomputed
   * from the basis so that b and A come from the same construction. */
  lagrange_integrals(s, c, 1, ng, g, gw, b);

  if (kind == VI_TAB_LOBATTO_IIIC) {
    /* a_i1 = b_1 and C(s-1): sum_j a_ij p(c_j) = int_0^c_i p for every p of
     * degree <= s - 2. Taking for p the Lagrange polynomials L_m on the
     * s - 1 nodes c_2..c_s turns this linear system into the explicit
     * a_im = int_0^c_i L_m - b_1 L_m(c_1), which avoids the
     * ill-conditioned Vandermonde matrix of the monomial form. */
    VI_REAL L0[VI_TAB_MAX];
    VI_X(vi_lagrange_eval)(s - 1, c + 1, c[0], L0, NULL);
    for (int i = 0; i < s; i++) {
      VI_REAL *row = A + i * s;
      row[0] = b[0];
      lagrange_integrals(s - 1, c + 1, c[i], ng, g, gw, row + 1);
      for (int m = 1; m < s; m++) {
        row[m] -= b[0] * L0[m - 1];
      }
    }
    return VI_OK;
  }

  /* Collocation: a_ij = int_0^c_i l_j. */
  for (int i = 0; i < s; i++) {
    lagrange_integrals(s, c, c[i], ng, g, gw, A + i * s);
  }
  if (kind == VI_TAB_LOBATTO_IIIB) {
    return VI_X(vi_tableau_conjugate)(s, A, b, A);
  }
  return VI_OK;
}

int VI_X(vi_tableau_conjugate)(int s, const VI_REAL *A, const VI_REAL *b, VI_REAL *Ahat) {
  if (s < 1 || s > VI_TAB_MAX || !A || !b || !Ahat) {
    return VI_EINVAL;
  }
  for (int i = 0; i < s; i++) {
    if (b[i] == 0) {
      return VI_EINVAL;
    }
  }
  /* A copy of A lets Ahat alias it (the transpose is read). */
  VI_REAL At[VI_TAB_MAX * VI_TAB_MAX];
  for (int i = 0; i < s; i++) {
    for (int j = 0; j < s; j++) {
      At[j * s + i] = A[i * s + j];
    }
  }
  /* Dividing first makes the ratio exactly 0 or 1 where A_ji is 0 or b_i,
   * so the structural zeros and copies of b (Lobatto IIIB from IIIA: last
   * column 0, first column b_1) come out exact. */
  for (int i = 0; i < s; i++) {
    for (int j = 0; j < s; j++) {
      Ahat[i * s + j] = b[j] - b[j] * (At[i * s + j] / b[i]);
    }
  }
  return VI_OK;
}

/* x^e for a small e >= 0 by repeated multiplication (0^0 = 1). */
static VI_REAL ipow(VI_REAL x, int e) {
  VI_REAL r = 1;
  for (int k = 0; k < e; k++) {
    r *= x;
  }
  return r;
}

/* Keeps the larger of m and r, letting a NaN through. */
static VI_REAL maxabs(VI_REAL m, VI_REAL r) {
  r = vi_fabs(r);
  return (r > m || r != r) ? r : m;
}

VI_REAL VI_X(vi_tableau_B)(int s, const VI_REAL *b, const VI_REAL *c, int p) {
  VI_REAL res = 0;
  for (int k = 1; k <= p; k++) {
    VI_REAL sum = 0;
    for (int i = 0; i < s; i++) {
      sum += b[i] * ipow(c[i], k - 1);
    }
    res = maxabs(res, sum - (VI_REAL)1 / k);
  }
  return res;
}

VI_REAL VI_X(vi_tableau_C)(int s, const VI_REAL *A, const VI_REAL *c, int q) {
  VI_REAL res = 0;
  for (int k = 1; k <= q; k++) {
    for (int i = 0; i < s; i++) {
      VI_REAL sum = 0;
      for (int j = 0; j < s; j++) {
        sum += A[i * s + j] * ipow(c[j], k - 1);
      }
      res = maxabs(res, sum - ipow(c[i], k) / k);
    }
  }
  return res;
}

VI_REAL VI_X(vi_tableau_D)(int s, const VI_REAL *A, const VI_REAL *b, const VI_REAL *c,
                           int r) {
  VI_REAL res = 0;
  for (int k = 1; k <= r; k++) {
    for (int j = 0; j < s; j++) {
      VI_REAL sum = 0;
      for (int i = 0; i < s; i++) {
        sum += b[i] * ipow(c[i], k - 1) * A[i * s + j];
      }
      res = maxabs(res, sum - b[j] * (1 - ipow(c[j], k)) / k);
    }
  }
  return res;
}
