/* linalg_tmpl.c: dense LU with partial pivoting and triangular solves, the
 * linear algebra of every Newton iteration (built-in Newton and the custom
 * SUNLinearSolver plugged into KINSOL). Row-major, in place, no allocation.
 * Compiled once per precision (prec.h).
 *
 * Tuned for the small systems of one step (N = 3..100, bench/): the
 * elimination updates two rows per pass over the pivot row (half the loads
 * of the pivot row, half the loop overhead) and skips rows whose
 * multiplier is zero (the Galerkin Jacobians are block-sparse); the
 * triangular solves run column by column, so consecutive updates are
 * independent instead of one dependent chain per dot product (latency, not
 * arithmetic, bounds a solve at these sizes). Every element of the factors
 * gets the same operations in the same order as in the textbook loop, so
 * the factorisation is unchanged to the bit; the back substitution
 * subtracts in the opposite order (a rounding-level difference).
 *
 * In double on x86-64, GCC also builds an AVX2 clone of both functions,
 * picked at load time (target_clones, an ifunc): 10-20% faster at N >= 24.
 * Contraction into FMA is off in this file, so the clone performs exactly
 * the operations of the baseline SSE2 code and the results do not depend on
 * the machine. */
#include "prec.h"
#include "numerics_tmpl.h"

#if !defined(VI_PREC_Q) && defined(__x86_64__) && defined(__GNUC__) && \
    !defined(__clang__) && defined(__linux__)
#pragma GCC optimize("fp-contract=off")
#define VI_LINALG_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define VI_LINALG_CLONES
#endif

/* d[j] -= l * s[j], j < len. */
static inline void axpy1(int len, VI_REAL l, const VI_REAL *restrict s,
                         VI_REAL *restrict d) {
  for (int j = 0; j < len; j++) {
    d[j] -= l * s[j];
  }
}

/* d0[j] -= l0 * s[j] and d1[j] -= l1 * s[j]: one load of s for two rows. */
static inline void axpy2(int len, VI_REAL l0, VI_REAL *restrict d0, VI_REAL l1,
                         VI_REAL *restrict d1, const VI_REAL *restrict s) {
  for (int j = 0; j < len; j++) {
    VI_REAL sj = s[j];
    d0[j] -= l0 * sj;
    d1[j] -= l1 * sj;
  }
}

VI_LINALG_CLONES int VI_X(vi_lu_factor)(int n, VI_REAL *A, int *piv) {
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
    const VI_REAL *uk = A + k * n + k + 1; /* pivot row right of the diagonal */
    const int len = n - k - 1;
    VI_REAL inv = 1 / A[k * n + k];
    /* Pair the rows with a nonzero multiplier; a zero one leaves its row
     * unchanged, so skipping it is exact. */
    VI_REAL *pending = NULL, lp = 0;
    for (int i = k + 1; i < n; i++) {
      VI_REAL *ri = A + i * n;
      VI_REAL l = ri[k] * inv;
      ri[k] = l;
      if (l == 0) {
        continue;
      }
      if (!pending) {
        pending = ri + k + 1;
        lp = l;
        continue;
      }
      axpy2(len, lp, pending, l, ri + k + 1, uk);
      pending = NULL;
    }
    if (pending) {
      axpy1(len, lp, uk, pending);
    }
  }
  return VI_OK;
}

VI_LINALG_CLONES void VI_X(vi_lu_solve)(int n, const VI_REAL *LU, const int *piv,
                                        VI_REAL *x) {
  for (int k = 0; k < n; k++) {
    if (piv[k] != k) {
      VI_REAL t = x[k];
      x[k] = x[piv[k]];
      x[piv[k]] = t;
    }
  }
  /* L y = b (unit diagonal), column j eliminating x[j] from the rows
   * below: the same subtractions in the same order as row-wise dot
   * products, but independent of each other within a column. */
  for (int j = 0; j < n - 1; j++) {
    const VI_REAL xj = x[j];
    const VI_REAL *c = LU + j;
    for (int i = j + 1; i < n; i++) {
      x[i] -= c[i * n] * xj;
    }
  }
  /* U x = y, last column first. */
  for (int j = n - 1; j >= 0; j--) {
    const VI_REAL xj = x[j] / LU[j * n + j];
    const VI_REAL *c = LU + j;
    x[j] = xj;
    for (int i = 0; i < j; i++) {
      x[i] -= c[i * n] * xj;
    }
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

void VI_X(vi_cayley3)(const VI_REAL *a, VI_REAL *C) {
  const VI_REAL aa = a[0] * a[0] + a[1] * a[1] + a[2] * a[2];
  const VI_REAL f = 4 / (4 + aa);
  const VI_REAL A[9] = {0, -a[2], a[1], a[2], 0, -a[0], -a[1], a[0], 0};
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      const VI_REAL A2 = a[i] * a[j] - (i == j ? aa : 0); /* (a^ a^)_ij */
      C[3 * i + j] = (i == j ? 1 : 0) + f * (A[3 * i + j] + A2 / 2);
    }
  }
}

void VI_X(vi_matmul3)(const VI_REAL *A, const VI_REAL *B, VI_REAL *C) {
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      C[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
    }
  }
}
