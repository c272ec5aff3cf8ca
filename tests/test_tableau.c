/* test_tableau.c: the Butcher tableaux of core/tableau_tmpl.c in both precisions:
 * argument checks, the simplifying assumptions B, C, D each family
 * satisfies (Hairer-Wanner II §IV.5) for every s <= VI_TAB_MAX, the
 * failure of the next order where that is a known fact (the assumptions are
 * tight), closed-form tableaux for s <= 3, the structural zeros and equal
 * rows, Lobatto IIIA's R(inf) = (-1)^(s-1), and symplecticity: Gauss is
 * its own symplectic conjugate and (Lobatto IIIA, IIIB) is a symplectic
 * pair (Hairer-Lubich-Wanner, Geometric Numerical Integration, §VI.4). The
 * test bodies are written once in the working precision of core/prec.h:
 * this file includes itself twice, once per precision, like the templated
 * library sources. */
#ifndef VI_TEST_BODY
#define VI_TEST_BODY

#include <stdio.h>

#include "check.h"
#include "vistudy.h"

#define NKIND 5

/* The order of these includes is the templating. */
/* clang-format off */
#include "prec.h"
#include "test_tableau.c"
#include "prec_undef.h"

#define VI_PREC_Q
#include "prec.h"
#include "test_tableau.c"
#include "prec_undef.h"
/* clang-format on */

int main(void) {
  vi_check_ctx ctx = {0, 0};
  run_d(&ctx);
  run_q(&ctx);
  return vi_check_done(&ctx, "test_tableau");
}

#else /* VI_TEST_BODY: the tests in the working precision */

static const char *const VI_X(kind_names)[NKIND] = {"gauss", "radau-iia", "lobatto-iiia",
                                                    "lobatto-iiib", "lobatto-iiic"};

/* The orders p, q, r of B(p), C(q), D(r) each family satisfies
 * (Hairer-Wanner II, §IV.5). */
static void VI_X(orders)(int kind, int s, int *p, int *q, int *r) {
  switch (kind) {
  case VI_TAB_GAUSS:
    *p = 2 * s;
    *q = s;
    *r = s;
    break;
  case VI_TAB_RADAU_IIA:
    *p = 2 * s - 1;
    *q = s;
    *r = s - 1;
    break;
  case VI_TAB_LOBATTO_IIIA:
    *p = 2 * s - 2;
    *q = s;
    *r = s - 2;
    break;
  case VI_TAB_LOBATTO_IIIB:
    *p = 2 * s - 2;
    *q = s - 2;
    *r = s;
    break;
  default:
    *p = 2 * s - 2;
    *q = s - 1;
    *r = s - 1;
    break;
  }
}

/* Largest residuals observed, in eps. */
typedef struct VI_X(tstats) {
  double B, C, D, sympl, known;
  int tight;
} VI_X(tstats);

static void VI_X(track)(double *m, VI_REAL r) {
  double e = (double)(r / VI_EPS);
  *m = e > *m ? e : *m;
}

static void VI_X(test_invalid)(vi_check_ctx *ctx) {
  VI_REAL A[(VI_TAB_MAX + 1) * (VI_TAB_MAX + 1)], b[VI_TAB_MAX + 1], c[VI_TAB_MAX + 1];
  for (int kind = 0; kind < NKIND; kind++) {
    VI_CHECK(ctx, VI_X(vi_tableau)(kind, 0, A, b, c) == VI_EINVAL, "%s s=0",
             VI_X(kind_names)[kind]);
    VI_CHECK(ctx, VI_X(vi_tableau)(kind, VI_TAB_MAX + 1, A, b, c) == VI_EINVAL,
             "%s s=max+1", VI_X(kind_names)[kind]);
    VI_CHECK(ctx, VI_X(vi_tableau)(kind, VI_TAB_MAX, A, b, c) == VI_OK, "%s s=max",
             VI_X(kind_names)[kind]);
    int one = VI_X(vi_tableau)(kind, 1, A, b, c);
    VI_CHECK(ctx, one == (kind >= VI_TAB_LOBATTO_IIIA ? VI_EINVAL : VI_OK), "%s s=1: %d",
             VI_X(kind_names)[kind], one);
  }
  VI_CHECK(ctx, VI_X(vi_tableau)(NKIND, 2, A, b, c) == VI_EINVAL, "kind 5");
  VI_CHECK(ctx, VI_X(vi_tableau)(-1, 2, A, b, c) == VI_EINVAL, "kind -1");
  VI_CHECK(ctx, VI_X(vi_tableau)(VI_TAB_GAUSS, 2, NULL, b, c) == VI_EINVAL, "NULL A");
  VI_REAL A2[] = {1, 2, 3, 4}, b2[] = {VI_C(0.5), 0}, Ah[4];
  VI_CHECK(ctx, VI_X(vi_tableau_conjugate)(2, A2, b2, Ah) == VI_EINVAL,
           "conjugate with b_2 = 0");
  VI_CHECK(ctx, VI_X(vi_tableau_conjugate)(0, A2, b2, Ah) == VI_EINVAL, "conjugate s=0");
}

/* max |b_i Ahat_ij + b_j A_ji - b_i b_j|: zero for a symplectic pair. */
static VI_REAL VI_X(sympl)(int s, const VI_REAL *A, const VI_REAL *Ahat,
                           const VI_REAL *b) {
  VI_REAL m = 0;
  for (int i = 0; i < s; i++) {
    for (int j = 0; j < s; j++) {
      VI_REAL r = vi_fabs(b[i] * Ahat[i * s + j] + b[j] * A[j * s + i] - b[i] * b[j]);
      m = r > m ? r : m;
    }
  }
  return m;
}

static VI_REAL VI_X(maxdiff)(int n, const VI_REAL *x, const VI_REAL *y) {
  VI_REAL m = 0;
  for (int i = 0; i < n; i++) {
    VI_REAL r = vi_fabs(x[i] - y[i]);
    m = r > m ? r : m;
  }
  return m;
}

static void VI_X(test_family)(vi_check_ctx *ctx, VI_X(tstats) * st, int kind, int s) {
  const char *name = VI_X(kind_names)[kind];
  VI_REAL A[VI_TAB_MAX * VI_TAB_MAX], b[VI_TAB_MAX], c[VI_TAB_MAX];
  VI_REAL Ah[VI_TAB_MAX * VI_TAB_MAX], cq[VI_TAB_MAX], bq[VI_TAB_MAX];
  int ret = VI_X(vi_tableau)(kind, s, A, b, c);
  VI_CHECK(ctx, ret == VI_OK, "%s %s s=%d: status %d", VI_PREC_NAME, name, s, ret);
  if (ret != VI_OK) {
    return;
  }
  /* The residuals are sums of s terms of size <= max |a_ij| <= 1 or so,
   * against which 50 eps is a tight bound. */
  VI_REAL tol = 50 * VI_EPS;

  /* Nodes and weights are those of the quadrature rule. */
  int rule = kind == VI_TAB_GAUSS       ? VI_RULE_GAUSS
             : kind == VI_TAB_RADAU_IIA ? VI_RULE_RADAU
                                        : VI_RULE_LOBATTO;
  VI_X(vi_quad_rule)(rule, s, cq, bq);
  VI_CHECK(ctx, VI_X(maxdiff)(s, c, cq) == 0, "%s %s s=%d: nodes differ", VI_PREC_NAME,
           name, s);
  VI_CHECK(ctx, VI_X(maxdiff)(s, b, bq) <= tol, "%s %s s=%d: weights differ",
           VI_PREC_NAME, name, s);

  int p, q, r;
  VI_X(orders)(kind, s, &p, &q, &r);
  VI_REAL rB = VI_X(vi_tableau_B)(s, b, c, p);
  VI_REAL rC = VI_X(vi_tableau_C)(s, A, c, q);
  VI_REAL rD = VI_X(vi_tableau_D)(s, A, b, c, r);
  VI_CHECK(ctx, rB <= tol, "%s %s s=%d: B(%d) residual %.3g", VI_PREC_NAME, name, s, p,
           (double)rB);
  VI_CHECK(ctx, rC <= tol, "%s %s s=%d: C(%d) residual %.3g", VI_PREC_NAME, name, s, q,
           (double)rC);
  VI_CHECK(ctx, rD <= tol, "%s %s s=%d: D(%d) residual %.3g", VI_PREC_NAME, name, s, r,
           (double)rD);
  VI_X(track)(&st->B, rB);
  VI_X(track)(&st->C, rC);
  VI_X(track)(&st->D, rD);

  /* The next orders fail (known facts: B by the degree of the quadrature,
   * C(s+1) for collocation, C(s) for IIIC since a_11 = b_1 != 0, C(s-1) for
   * IIIB whose last column vanishes, D one beyond each family's). Their
   * residuals shrink like the quadrature error constants, so the failure
   * is only asserted while it is far above the rounding. */
  if (s <= 8) {
    VI_REAL fB = VI_X(vi_tableau_B)(s, b, c, p + 1);
    VI_REAL fC = VI_X(vi_tableau_C)(s, A, c, q + 1);
    VI_REAL fD = VI_X(vi_tableau_D)(s, A, b, c, r + 1);
    VI_REAL big = VI_C(1e-11);
    VI_CHECK(ctx, fB > big, "%s %s s=%d: B(%d) holds (%.3g)", VI_PREC_NAME, name, s,
             p + 1, (double)fB);
    VI_CHECK(ctx, fC > big, "%s %s s=%d: C(%d) holds (%.3g)", VI_PREC_NAME, name, s,
             q + 1, (double)fC);
    VI_CHECK(ctx, fD > big, "%s %s s=%d: D(%d) holds (%.3g)", VI_PREC_NAME, name, s,
             r + 1, (double)fD);
    st->tight += fB > big && fC > big && fD > big;
  }

  /* Structure of each family. */
  int ok = 1;
  switch (kind) {
  case VI_TAB_RADAU_IIA:
    ok = VI_X(maxdiff)(s, A + (s - 1) * s, b) == 0;
    break;
  case VI_TAB_LOBATTO_IIIA:
    for (int j = 0; j < s; j++) {
      ok &= A[j] == 0;
    }
    ok &= VI_X(maxdiff)(s, A + (s - 1) * s, b) == 0;
    break;
  case VI_TAB_LOBATTO_IIIB:
    for (int i = 0; i < s; i++) {
      ok &= A[i * s + s - 1] == 0 && A[i * s] == b[0];
    }
    break;
  case VI_TAB_LOBATTO_IIIC:
    for (int i = 0; i < s; i++) {
      ok &= A[i * s] == b[0];
    }
    ok &= VI_X(maxdiff)(s, A + (s - 1) * s, b) <= tol;
    break;
  default:
    break;
  }
  VI_CHECK(ctx, ok, "%s %s s=%d: structure", VI_PREC_NAME, name, s);

  /* Lobatto IIIA's stability function at infinity, R(inf) = (-1)^(s-1)
   * (demartin2018 App. A; notes C22): |R(inf)| = 1, which is why nhprk's
   * multiplier errors are never damped and lambda_0 must be exact (notes
   * P3). R(z) = 1 + z b'(I - zA)^-1 1 at z = -1e6 is within O(1/|z|) of
   * it. */
  if (kind == VI_TAB_LOBATTO_IIIA) {
    const VI_REAL z = VI_C(-1e6);
    VI_REAL M[VI_TAB_MAX * VI_TAB_MAX], x[VI_TAB_MAX];
    int piv[VI_TAB_MAX];
    for (int i = 0; i < s; i++) {
      for (int j = 0; j < s; j++) {
        M[i * s + j] = (i == j) - z * A[i * s + j];
      }
      x[i] = 1;
    }
    VI_REAL R = NAN;
    if (VI_X(vi_lu_factor)(s, M, piv) == 0) {
      VI_X(vi_lu_solve)(s, M, piv, x);
      R = 1;
      for (int i = 0; i < s; i++) {
        R += z * b[i] * x[i];
      }
    }
    const VI_REAL want = s % 2 == 1 ? 1 : -1;
    VI_CHECK(ctx, vi_fabs(R - want) <= VI_C(1e-3), "%s %s s=%d: R(-1e6) = %.6g, R(inf) = %g",
             VI_PREC_NAME, name, s, (double)R, (double)want);
  }

  /* Symplecticity: Gauss is its own conjugate; the conjugate of IIIA is
   * IIIB and conversely; Radau IIA is not symplectic. */
  if (kind == VI_TAB_GAUSS) {
    VI_REAL m = VI_X(sympl)(s, A, A, b);
    VI_CHECK(ctx, m <= tol, "%s gauss s=%d: not symplectic (%.3g)", VI_PREC_NAME, s,
             (double)m);
    VI_X(track)(&st->sympl, m);
    VI_X(vi_tableau_conjugate)(s, A, b, Ah);
    m = VI_X(maxdiff)(s * s, A, Ah);
    VI_CHECK(ctx, m <= tol, "%s gauss s=%d: conjugate differs by %.3g", VI_PREC_NAME, s,
             (double)m);
    VI_X(track)(&st->sympl, m);
  } else if (kind == VI_TAB_RADAU_IIA && s <= 8) {
    VI_CHECK(ctx, VI_X(sympl)(s, A, A, b) > VI_C(1e-6), "%s radau-iia s=%d: symplectic",
             VI_PREC_NAME, s);
  } else if (kind == VI_TAB_LOBATTO_IIIA || kind == VI_TAB_LOBATTO_IIIB) {
    VI_REAL B2[VI_TAB_MAX * VI_TAB_MAX], b2[VI_TAB_MAX], c2[VI_TAB_MAX];
    int other = kind == VI_TAB_LOBATTO_IIIA ? VI_TAB_LOBATTO_IIIB : VI_TAB_LOBATTO_IIIA;
    VI_X(vi_tableau)(other, s, B2, b2, c2);
    VI_REAL m = VI_X(sympl)(s, A, B2, b);
    VI_CHECK(ctx, m <= tol, "%s %s s=%d: not a symplectic pair (%.3g)", VI_PREC_NAME,
             name, s, (double)m);
    VI_X(track)(&st->sympl, m);
    VI_X(vi_tableau_conjugate)(s, A, b, Ah);
    m = VI_X(maxdiff)(s * s, Ah, B2);
    VI_CHECK(ctx, m <= tol, "%s %s s=%d: conjugate differs by %.3g", VI_PREC_NAME, name,
             s, (double)m);
    VI_X(track)(&st->sympl, m);
    /* In place (Ahat aliasing A) gives the same result. */
    VI_X(vi_tableau_conjugate)(s, A, b, A);
    VI_CHECK(ctx, VI_X(maxdiff)(s * s, A, Ah) == 0,
             "%s %s s=%d: in-place conjugate differs", VI_PREC_NAME, name, s);
  }
}

/* A tableau against a closed form (Hairer-Wanner II, §IV.5). */
static void VI_X(expect)(vi_check_ctx *ctx, VI_X(tstats) * st, int kind, int s,
                         const VI_REAL *Ae) {
  VI_REAL A[VI_TAB_MAX * VI_TAB_MAX], b[VI_TAB_MAX], c[VI_TAB_MAX];
  VI_X(vi_tableau)(kind, s, A, b, c);
  VI_REAL m = VI_X(maxdiff)(s * s, A, Ae);
  VI_CHECK(ctx, m <= 8 * VI_EPS, "%s %s s=%d: closed form off by %.3g", VI_PREC_NAME,
           VI_X(kind_names)[kind], s, (double)m);
  VI_X(track)(&st->known, m);
}

static void VI_X(test_known)(vi_check_ctx *ctx, VI_X(tstats) * st) {
  const VI_REAL h = VI_C(0.5), q = VI_C(0.25);
  const VI_REAL r3 = vi_sqrt(VI_C(3.0)) / 6, r15 = vi_sqrt(VI_C(15.0));
  const VI_REAL r6 = vi_sqrt(VI_C(6.0));
  {
    VI_REAL A[] = {h};
    VI_X(expect)(ctx, st, VI_TAB_GAUSS, 1, A);
  }
  {
    VI_REAL A[] = {q, q - r3, q + r3, q};
    VI_X(expect)(ctx, st, VI_TAB_GAUSS, 2, A);
  }
  {
    VI_REAL A[] = {VI_C(5.0) / 36,
                   VI_C(2.0) / 9 - r15 / 15,
                   VI_C(5.0) / 36 - r15 / 30,
                   VI_C(5.0) / 36 + r15 / 24,
                   VI_C(2.0) / 9,
                   VI_C(5.0) / 36 - r15 / 24,
                   VI_C(5.0) / 36 + r15 / 30,
                   VI_C(2.0) / 9 + r15 / 15,
                   VI_C(5.0) / 36};
    VI_X(expect)(ctx, st, VI_TAB_GAUSS, 3, A);
  }
  {
    VI_REAL A[] = {1};
    VI_X(expect)(ctx, st, VI_TAB_RADAU_IIA, 1, A);
  }
  {
    VI_REAL A[] = {VI_C(5.0) / 12, VI_C(-1.0) / 12, VI_C(3.0) / 4, VI_C(1.0) / 4};
    VI_X(expect)(ctx, st, VI_TAB_RADAU_IIA, 2, A);
  }
  {
    VI_REAL A[] = {(88 - 7 * r6) / 360,     (296 - 169 * r6) / 1800, (-2 + 3 * r6) / 225,
                   (296 + 169 * r6) / 1800, (88 + 7 * r6) / 360,     (-2 - 3 * r6) / 225,
                   (16 - r6) / 36,          (16 + r6) / 36,          VI_C(1.0) / 9};
    VI_X(expect)(ctx, st, VI_TAB_RADAU_IIA, 3, A);
  }
  {
    VI_REAL A[] = {0, 0, h, h};
    VI_X(expect)(ctx, st, VI_TAB_LOBATTO_IIIA, 2, A);
  }
  {
    VI_REAL A[] = {0,
                   0,
                   0,
                   VI_C(5.0) / 24,
                   VI_C(1.0) / 3,
                   VI_C(-1.0) / 24,
                   VI_C(1.0) / 6,
                   VI_C(2.0) / 3,
                   VI_C(1.0) / 6};
    VI_X(expect)(ctx, st, VI_TAB_LOBATTO_IIIA, 3, A);
  }
  {
    VI_REAL A[] = {h, 0, h, 0};
    VI_X(expect)(ctx, st, VI_TAB_LOBATTO_IIIB, 2, A);
  }
  {
    VI_REAL A[] = {VI_C(1.0) / 6, VI_C(-1.0) / 6, 0, VI_C(1.0) / 6, VI_C(1.0) / 3, 0,
                   VI_C(1.0) / 6, VI_C(5.0) / 6,  0};
    VI_X(expect)(ctx, st, VI_TAB_LOBATTO_IIIB, 3, A);
  }
  {
    VI_REAL A[] = {h, -h, h, h};
    VI_X(expect)(ctx, st, VI_TAB_LOBATTO_IIIC, 2, A);
  }
  {
    VI_REAL A[] = {VI_C(1.0) / 6, VI_C(-1.0) / 3, VI_C(1.0) / 6,
                   VI_C(1.0) / 6, VI_C(5.0) / 12, VI_C(-1.0) / 12,
                   VI_C(1.0) / 6, VI_C(2.0) / 3,  VI_C(1.0) / 6};
    VI_X(expect)(ctx, st, VI_TAB_LOBATTO_IIIC, 3, A);
  }
}

static void VI_X(run)(vi_check_ctx *ctx) {
  VI_X(tstats) st = {0, 0, 0, 0, 0, 0};
  VI_X(test_invalid)(ctx);
  for (int kind = 0; kind < NKIND; kind++) {
    for (int s = kind >= VI_TAB_LOBATTO_IIIA ? 2 : 1; s <= VI_TAB_MAX; s++) {
      VI_X(test_family)(ctx, &st, kind, s);
    }
  }
  VI_X(test_known)(ctx, &st);
  printf("%s (eps %.3g), s <= %d: max residual B %.2f, C %.2f, D %.2f, "
         "symplecticity %.2f, closed forms %.2f (eps); %d tableaux shown "
         "tight in B, C and D\n",
         VI_PREC_NAME, (double)VI_EPS, VI_TAB_MAX, st.B, st.C, st.D, st.sympl, st.known,
         st.tight);
}

#endif /* VI_TEST_BODY */
