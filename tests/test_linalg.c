/* test_linalg.c: dense LU with partial pivoting in both precisions: solves
 * a non-symmetric system that needs pivoting to residual round-off, and
 * reports an exactly singular matrix. */
#include "check.h"
#include "vistudy.h"

#include <string.h>

#define N 7

int main(void) {
  vi_check_ctx ctx = {0, 0};
  /* A_ij = 1 / (i + 2 j + 1.37) with a zero leading pivot: pivoting needed. */
  double A[N * N], LU[N * N], x[N], b[N];
  __float128 Aq[N * N], LUq[N * N], xq[N], bq[N];
  int piv[N];
  for (int i = 0; i < N; i++) {
    b[i] = 0;
    bq[i] = 0;
    for (int j = 0; j < N; j++) {
      A[i * N + j] = (i == 0 && j == 0) ? 0.0 : 1.0 / (i + 2.0 * j + 1.37) + (i == j ? 0.5 : 0.0);
      Aq[i * N + j] = (i == 0 && j == 0) ? 0 : 1 / (i + 2 * j + (__float128)137 / 100) + (i == j ? (__float128)0.5 : 0);
    }
  }
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < N; j++) {
      b[i] += A[i * N + j] * (j + 0.3);
      bq[i] += Aq[i * N + j] * (j + (__float128)3 / 10);
    }
  }
  memcpy(LU, A, sizeof LU);
  memcpy(x, b, sizeof x);
  VI_CHECK(&ctx, vi_lu_factor_d(N, LU, piv) == VI_OK, "double LU failed");
  vi_lu_solve_d(N, LU, piv, x);
  double err = 0;
  for (int j = 0; j < N; j++) {
    double e = x[j] - (j + 0.3);
    err = e > err ? e : (-e > err ? -e : err);
  }
  VI_CHECK(&ctx, err < 1e-12, "double solution error %.3e", err);
  memcpy(LUq, Aq, sizeof LUq);
  memcpy(xq, bq, sizeof xq);
  VI_CHECK(&ctx, vi_lu_factor_q(N, LUq, piv) == VI_OK, "quad LU failed");
  vi_lu_solve_q(N, LUq, piv, xq);
  __float128 errq = 0;
  for (int j = 0; j < N; j++) {
    __float128 e = xq[j] - (j + (__float128)3 / 10);
    errq = e > errq ? e : (-e > errq ? -e : errq);
  }
  VI_CHECK(&ctx, errq < 1e-28Q, "quad solution error %.3e", (double)errq);
  /* Two equal rows: exactly singular. */
  double S[9] = {1, 2, 3, 1, 2, 3, 4, 5, 6};
  VI_CHECK(&ctx, vi_lu_factor_d(3, S, piv) == VI_SINGULAR, "singular matrix not reported");
  return vi_check_done(&ctx, "linalg");
}
