/* linalg.c: dense LU with partial pivoting and triangular solves, the
 * linear algebra of every Newton iteration (built-in Newton and the custom
 * SUNLinearSolver plugged into KINSOL). Row-major, in place, no allocation.
 * Compiled once per precision (prec.h). */
#include "prec.h"
#include "numerics_tmpl.h"

int VI_X(vi_lu_factor)(int n, VI_REAL *A, int *piv) {
  for (int k = 0; k < n; k++) {
    int p = k;
    VI_REAL amax = vi_fabs(A[k * n + k]);
    for (int i = k + 1; i < n; i++) {
      VI_REAL a = vi_fabs(A[i * n + k]);
      if (a > amax) {
        amax = a;
        p = i;
      }
    }
    piv[k] = p;
    if (amax == 0) {
      return VI_SINGULAR;
    }
    if (p != k) {
      VI_REAL *rk = A + k * n, *rp = A + p * n;
      for (int j = 0; j < n; j++) {
        VI_REAL t = rk[j];
        rk[j] = rp[j];
        rp[j] = t;
      }
    }
    const VI_REAL *rk = A + k * n;
    VI_REAL inv = 1 / rk[k];
    for (int i = k + 1; i < n; i++) {
      VI_REAL *ri = A + i * n;
      VI_REAL l = ri[k] * inv;
      ri[k] = l;
      if (l != 0) {
        for (int j = k + 1; j < n; j++) {
          ri[j] -= l * rk[j];
        }
      }
    }
  }
  return VI_OK;
}

void VI_X(vi_lu_solve)(int n, const VI_REAL *LU, const int *piv, VI_REAL *x) {
  for (int k = 0; k < n; k++) {
    if (piv[k] != k) {
      VI_REAL t = x[k];
      x[k] = x[piv[k]];
      x[piv[k]] = t;
    }
  }
  for (int i = 1; i < n; i++) {
    const VI_REAL *ri = LU + i * n;
    VI_REAL s = x[i];
    for (int j = 0; j < i; j++) {
      s -= ri[j] * x[j];
    }
    x[i] = s;
  }
  for (int i = n - 1; i >= 0; i--) {
    const VI_REAL *ri = LU + i * n;
    VI_REAL s = x[i];
    for (int j = i + 1; j < n; j++) {
      s -= ri[j] * x[j];
    }
    x[i] = s / ri[i];
  }
}

VI_REAL VI_X(vi_norm_inf)(int n, const VI_REAL *x) {
  VI_REAL r = 0;
  for (int i = 0; i < n; i++) {
    VI_REAL a = vi_fabs(x[i]);
    if (a > r || a != a) {
      r = a;
    }
  }
  return r;
}
