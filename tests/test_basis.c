/* test_basis.c: control points and the Lagrange basis of core/basis_tmpl.c in
 * both precisions: argument checks, the equidistant and Lobatto families,
 * l_j(d_i) = delta_ij exactly, partition of unity (sum l_j = 1,
 * sum l_j' = 0), and exact interpolation of a polynomial of degree np - 1
 * and of its derivative, inside [0, 1], at control points and slightly
 * outside. Tolerances scale with sum |l_j| (the Lebesgue function), the
 * amplification of rounding errors by interpolation. The test bodies are
 * written once in the working precision of core/prec.h: this file includes
 * itself twice, once per precision, like the templated library sources. */
#ifndef VI_TEST_BODY
#define VI_TEST_BODY

#include <stdio.h>

#include "check.h"
#include "vistudy.h"

/* The largest number of points tested; the Galerkin methods use at most
 * VI_TAB_MAX. */
#define NP_MAX 16

/* The order of these includes is the templating. */
/* clang-format off */
#include "prec.h"
#include "test_basis.c"
#include "prec_undef.h"

#define VI_PREC_Q
#include "prec.h"
#include "test_basis.c"
#include "prec_undef.h"
/* clang-format on */

int main(void) {
  vi_check_ctx ctx = {0, 0};
  run_d(&ctx);
  run_q(&ctx);
  return vi_check_done(&ctx, "test_basis");
}

#else /* VI_TEST_BODY: the tests in the working precision */

static void VI_X(test_ctrl)(vi_check_ctx *ctx) {
  VI_REAL d[VI_QUAD_MAX + 1], c[VI_QUAD_MAX], w[VI_QUAD_MAX];
  VI_CHECK(ctx, VI_X(vi_ctrl_points)(VI_CTRL_EQUIDISTANT, 0, d) == VI_EINVAL,
           "equidistant deg 0");
  VI_CHECK(ctx, VI_X(vi_ctrl_points)(VI_CTRL_LOBATTO, 0, d) == VI_EINVAL,
           "lobatto deg 0");
  VI_CHECK(ctx, VI_X(vi_ctrl_points)(VI_CTRL_LOBATTO, -2, d) == VI_EINVAL,
           "lobatto deg -2");
  VI_CHECK(ctx, VI_X(vi_ctrl_points)(VI_CTRL_LOBATTO, VI_QUAD_MAX, d) == VI_EINVAL,
           "lobatto deg %d", VI_QUAD_MAX);
  VI_CHECK(ctx, VI_X(vi_ctrl_points)(2, 3, d) == VI_EINVAL, "family 2");
  VI_CHECK(ctx, VI_X(vi_ctrl_points)(VI_CTRL_EQUIDISTANT, 3, NULL) == VI_EINVAL,
           "NULL d");
  for (int deg = 1; deg < VI_QUAD_MAX; deg++) {
    int ok = VI_X(vi_ctrl_points)(VI_CTRL_EQUIDISTANT, deg, d) == VI_OK;
    for (int j = 0; j <= deg; j++) {
      ok &= vi_fabs(d[j] * deg - j) <= deg * VI_EPS;
      ok &= j == 0 || d[j] > d[j - 1];
    }
    ok &= d[0] == 0 && d[deg] == 1;
    VI_CHECK(ctx, ok, "%s equidistant deg %d", VI_PREC_NAME, deg);

    ok = VI_X(vi_ctrl_points)(VI_CTRL_LOBATTO, deg, d) == VI_OK;
    ok &= VI_X(vi_quad_lobatto)(deg + 1, c, w) == VI_OK;
    for (int j = 0; j <= deg; j++) {
      ok &= d[j] == c[j];
    }
    ok &= d[0] == 0 && d[deg] == 1;
    VI_CHECK(ctx, ok, "%s lobatto deg %d", VI_PREC_NAME, deg);
  }
}

/* A polynomial of degree np - 1 with unremarkable coefficients, and its
 * derivative, by Horner's scheme. */
static VI_REAL VI_X(poly)(int np, VI_REAL t, VI_REAL *dp) {
  VI_REAL p = 0, q = 0;
  for (int k = np - 1; k >= 0; k--) {
    VI_REAL a = (VI_REAL)((37 * k + 11) % 23 - 11) / 7;
    q = q * t + p;
    p = p * t + a;
  }
  *dp = q;
  return p;
}

/* Largest observed residuals relative to their bounds (in eps). */
typedef struct VI_X(bstats) {
  double unity, interp, dinterp;
} VI_X(bstats);

static void VI_X(test_at)(vi_check_ctx *ctx, VI_X(bstats) * st, int family, int np,
                          const VI_REAL *d, VI_REAL t) {
  VI_REAL l[NP_MAX], dl[NP_MAX], l2[NP_MAX];
  VI_X(vi_lagrange_eval)(np, d, t, l, dl);
  VI_X(vi_lagrange_eval)(np, d, t, l2, NULL);
  int same = 1;
  for (int j = 0; j < np; j++) {
    same &= l[j] == l2[j];
  }
  VI_CHECK(ctx, same, "%s family %d np %d: dl = NULL changes l", VI_PREC_NAME, family,
           np);

  /* Lebesgue-type sums bound the rounding of the sums below. */
  VI_REAL sl = 0, sdl = 0, s = 0, ds = 0, ip = 0, dip = 0, pmax = 0, dpj;
  for (int j = 0; j < np; j++) {
    VI_REAL pj = VI_X(poly)(np, d[j], &dpj);
    sl += vi_fabs(l[j]);
    sdl += vi_fabs(dl[j]);
    s += l[j];
    ds += dl[j];
    ip += pj * l[j];
    dip += pj * dl[j];
    pmax = vi_fabs(pj) > pmax ? vi_fabs(pj) : pmax;
  }
  VI_REAL dpt, pt = VI_X(poly)(np, t, &dpt);
  VI_REAL tol = 50 * VI_EPS;
  VI_REAL r1 = vi_fabs(s - 1) / sl;
  VI_REAL r2 = vi_fabs(ds) / (sdl + 1);
  VI_REAL r3 = vi_fabs(ip - pt) / (sl * pmax + vi_fabs(pt));
  VI_REAL r4 = vi_fabs(dip - dpt) / (sdl * pmax + vi_fabs(dpt));
  VI_CHECK(ctx, r1 <= tol, "%s family %d np %d t %.4f: sum l - 1 = %.3g", VI_PREC_NAME,
           family, np, (double)t, (double)(s - 1));
  VI_CHECK(ctx, r2 <= tol, "%s family %d np %d t %.4f: sum dl = %.3g", VI_PREC_NAME,
           family, np, (double)t, (double)ds);
  VI_CHECK(ctx, r3 <= tol, "%s family %d np %d t %.4f: interpolation %.3g", VI_PREC_NAME,
           family, np, (double)t, (double)(ip - pt));
  VI_CHECK(ctx, r4 <= tol, "%s family %d np %d t %.4f: derivative %.3g", VI_PREC_NAME,
           family, np, (double)t, (double)(dip - dpt));
  double e1 = (double)(r1 / VI_EPS), e2 = (double)(r2 / VI_EPS);
  double e3 = (double)(r3 / VI_EPS), e4 = (double)(r4 / VI_EPS);
  st->unity = e1 > st->unity ? e1 : st->unity;
  st->unity = e2 > st->unity ? e2 : st->unity;
  st->interp = e3 > st->interp ? e3 : st->interp;
  st->dinterp = e4 > st->dinterp ? e4 : st->dinterp;
}

static void VI_X(test_lagrange)(vi_check_ctx *ctx) {
  VI_X(bstats) st = {0, 0, 0};
  const VI_REAL ts[] = {VI_C(0.3719),       VI_C(0.0137),  VI_C(0.8812),
                        VI_C(0.6180339887), VI_C(-0.0731), VI_C(1.0917)};
  int nts = (int)(sizeof ts / sizeof ts[0]);
  for (int family = 0; family < 2; family++) {
    for (int np = 2; np <= NP_MAX; np++) {
      VI_REAL d[NP_MAX], l[NP_MAX], dl[NP_MAX];
      VI_X(vi_ctrl_points)(family, np - 1, d);
      /* Exactly the Kronecker delta at the control points. */
      int delta = 1;
      for (int i = 0; i < np; i++) {
        VI_X(vi_lagrange_eval)(np, d, d[i], l, dl);
        for (int j = 0; j < np; j++) {
          delta &= l[j] == (i == j ? 1 : 0);
        }
      }
      VI_CHECK(ctx, delta, "%s family %d np %d: l_j(d_i) != delta_ij", VI_PREC_NAME,
               family, np);
      for (int k = 0; k < nts; k++) {
        VI_X(test_at)(ctx, &st, family, np, d, ts[k]);
      }
      /* At control points the derivatives carry the whole polynomial. */
      VI_X(test_at)(ctx, &st, family, np, d, d[0]);
      VI_X(test_at)(ctx, &st, family, np, d, d[np / 2]);
      VI_X(test_at)(ctx, &st, family, np, d, d[np - 1]);
    }
  }

  /* np = 1: the constant 1; np = 2 on {0, 1}: 1 - t and t. */
  VI_REAL d1[] = {VI_C(0.3)}, l[2], dl[2];
  VI_REAL t = VI_C(0.3719);
  VI_X(vi_lagrange_eval)(1, d1, t, l, dl);
  VI_CHECK(ctx, l[0] == 1 && dl[0] == 0, "%s np 1", VI_PREC_NAME);
  VI_REAL d2[] = {0, 1};
  VI_X(vi_lagrange_eval)(2, d2, t, l, dl);
  VI_CHECK(ctx,
           vi_fabs(l[0] - (1 - t)) <= VI_EPS && vi_fabs(l[1] - t) <= VI_EPS &&
               dl[0] == -1 && dl[1] == 1,
           "%s np 2", VI_PREC_NAME);

  printf("%s (eps %.3g), np <= %d: partition of unity %.2f, interpolation "
         "%.2f, derivative %.2f (eps, relative to the Lebesgue bound)\n",
         VI_PREC_NAME, (double)VI_EPS, NP_MAX, st.unity, st.interp, st.dinterp);
}

static void VI_X(run)(vi_check_ctx *ctx) {
  VI_X(test_ctrl)(ctx);
  VI_X(test_lagrange)(ctx);
}

#endif /* VI_TEST_BODY */
