/* test_quadrature.c: the Gauss, Lobatto and Radau IIA rules of
 * core/quadrature_tmpl.c in both precisions: argument checks, ordering, range,
 * symmetry and positivity, exactness up to the claimed degree for every n,
 * the error constant of the first monomial beyond it (Abramowitz-Stegun
 * §25.4, mapped to [0, 1]; this shows the degree is tight), closed-form
 * nodes and weights for small n, and the double rules against the quad
 * ones. The test bodies are written once in the working precision of
 * core/prec.h: this file includes itself twice, once per precision, like
 * the templated library sources. */
#ifndef VI_TEST_BODY
#define VI_TEST_BODY

#include <stdio.h>

#include "check.h"
#include "vistudy.h"

/* Largest observed residuals, printed at the end. */
typedef struct stats {
  double exact;  /* max |sum b c^k - 1/(k+1)| / eps over the exact degrees */
  double tail;   /* max |error - error constant| / eps for degree + 1 */
  double known;  /* max closed-form node/weight error / eps */
  double newton; /* max Newton correction of a node / eps (a posteriori) */
  int tight;     /* rules whose degree was shown to be tight */
} stats;

/* The order of these includes is the templating. */
/* clang-format off */
#include "prec.h"
#include "test_quadrature.c"
#include "prec_undef.h"

#define VI_PREC_Q
#include "prec.h"
#include "test_quadrature.c"
#include "prec_undef.h"
/* clang-format on */

int main(void) {
  vi_check_ctx ctx = {0, 0};
  run_d(&ctx);
  run_q(&ctx);
  return vi_check_done(&ctx, "test_quadrature");
}

#else /* VI_TEST_BODY: the tests in the working precision */

/* The degree of exactness each rule claims. */
static int VI_X(degree)(int rule, int n) {
  switch (rule) {
  case VI_RULE_GAUSS:
    return 2 * n - 1;
  case VI_RULE_LOBATTO:
    return 2 * n - 3;
  default:
    return 2 * n - 2;
  }
}

/* k! in the working precision (exact in quad for the k used here). */
static VI_REAL VI_X(fact)(int k) {
  VI_REAL r = 1;
  for (int i = 2; i <= k; i++) {
    r *= i;
  }
  return r;
}

/* I(f) - Q(f) for f = x^m, m = degree + 1, on [0, 1]: the [-1, 1] error
 * terms K f^(m)(xi) of the Gauss, Lobatto and Radau formulas
 * (Abramowitz-Stegun §25.4; Radau mirrored for the right end point), times
 * 2^-(m+1) m! for f^(m) = m! after mapping to [0, 1]. */
static VI_REAL VI_X(error_constant)(int rule, int n) {
  switch (rule) {
  case VI_RULE_GAUSS: {
    VI_REAL f = VI_X(fact)(n), f2 = VI_X(fact)(2 * n);
    return f * f * f * f / ((2 * n + 1) * f2 * f2);
  }
  case VI_RULE_LOBATTO: {
    VI_REAL f = VI_X(fact)(n - 2), f2 = VI_X(fact)(2 * n - 2);
    VI_REAL n1 = n - 1;
    return -n * n1 * n1 * n1 * f * f * f * f / ((2 * n - 1) * f2 * f2);
  }
  default: {
    VI_REAL f = VI_X(fact)(n - 1), f2 = VI_X(fact)(2 * n - 1);
    return -n * f * f * f * f / (2 * f2 * f2);
  }
  }
}

/* sum_i b_i c_i^k. */
static VI_REAL VI_X(moment)(int n, const VI_REAL *c, const VI_REAL *b, int k) {
  VI_REAL s = 0;
  for (int i = 0; i < n; i++) {
    VI_REAL p = 1;
    for (int e = 0; e < k; e++) {
      p *= c[i];
    }
    s += b[i] * p;
  }
  return s;
}

/* Newton correction |f(x) / f'(x)| / 2 of the node c (x = 2c - 1) for the
 * defining polynomial of the rule, evaluated independently of
 * quadrature_tmpl.c by the plain three-term recurrence in x: an a-posteriori
 * estimate of the node error on [0, 1]. */
static VI_REAL VI_X(newton_estimate)(int rule, int n, VI_REAL c) {
  VI_REAL x = 2 * c - 1;
  VI_REAL p0 = 1, p = x, dp0 = 0, dp = 1, ddp0 = 0, ddp = 0;
  int m = rule == VI_RULE_LOBATTO ? n - 1 : n;
  for (int k = 1; k < m; k++) {
    VI_REAL pn = ((2 * k + 1) * x * p - k * p0) / (k + 1);
    VI_REAL dpn = dp0 + (2 * k + 1) * p;
    VI_REAL ddpn = ddp0 + (2 * k + 1) * dp;
    p0 = p;
    p = pn;
    dp0 = dp;
    dp = dpn;
    ddp0 = ddp;
    ddp = ddpn;
  }
  switch (rule) {
  case VI_RULE_GAUSS:
    return vi_fabs(p / dp) / 2;
  case VI_RULE_LOBATTO:
    return vi_fabs(dp / ddp) / 2;
  default:
    return vi_fabs((p - p0) / (dp - dp0)) / 2;
  }
}

static void VI_X(test_invalid)(vi_check_ctx *ctx) {
  VI_REAL c[VI_QUAD_MAX + 1], b[VI_QUAD_MAX + 1];
  VI_CHECK(ctx, VI_X(vi_quad_gauss)(0, c, b) == VI_EINVAL, "gauss n=0");
  VI_CHECK(ctx, VI_X(vi_quad_gauss)(VI_QUAD_MAX + 1, c, b) == VI_EINVAL, "gauss n=max+1");
  VI_CHECK(ctx, VI_X(vi_quad_lobatto)(1, c, b) == VI_EINVAL, "lobatto n=1");
  VI_CHECK(ctx, VI_X(vi_quad_lobatto)(VI_QUAD_MAX + 1, c, b) == VI_EINVAL,
           "lobatto n=max+1");
  VI_CHECK(ctx, VI_X(vi_quad_radau)(0, c, b) == VI_EINVAL, "radau n=0");
  VI_CHECK(ctx, VI_X(vi_quad_radau)(-3, c, b) == VI_EINVAL, "radau n=-3");
  VI_CHECK(ctx, VI_X(vi_quad_radau)(VI_QUAD_MAX + 1, c, b) == VI_EINVAL, "radau n=max+1");
  VI_CHECK(ctx, VI_X(vi_quad_rule)(3, 4, c, b) == VI_EINVAL, "rule 3");
  VI_CHECK(ctx, VI_X(vi_quad_rule)(-1, 4, c, b) == VI_EINVAL, "rule -1");
  VI_CHECK(ctx, VI_X(vi_quad_rule)(VI_RULE_LOBATTO, 1, c, b) == VI_EINVAL,
           "rule lobatto n=1");
  VI_CHECK(ctx, VI_X(vi_quad_gauss)(3, NULL, b) == VI_EINVAL, "NULL c");
  VI_CHECK(ctx, VI_X(vi_quad_gauss)(VI_QUAD_MAX, c, b) == VI_OK, "n=max");
}

/* Every property that does not need a closed form, for every n. */
static void VI_X(test_rule)(vi_check_ctx *ctx, stats *st, int rule, int n) {
  static const char *const names[] = {"gauss", "lobatto", "radau"};
  const char *name = names[rule];
  VI_REAL c[VI_QUAD_MAX], b[VI_QUAD_MAX], c2[VI_QUAD_MAX], b2[VI_QUAD_MAX];
  int ret = VI_X(vi_quad_rule)(rule, n, c, b);
  VI_CHECK(ctx, ret == VI_OK, "%s %s n=%d: status %d", VI_PREC_NAME, name, n, ret);
  if (ret != VI_OK) {
    return;
  }
  /* The dispatcher and the direct call agree bit for bit. */
  if (rule == VI_RULE_GAUSS) {
    VI_X(vi_quad_gauss)(n, c2, b2);
  } else if (rule == VI_RULE_LOBATTO) {
    VI_X(vi_quad_lobatto)(n, c2, b2);
  } else {
    VI_X(vi_quad_radau)(n, c2, b2);
  }
  int same = 1, ascending = 1, positive = 1, symmetric = 1;
  for (int i = 0; i < n; i++) {
    same &= c[i] == c2[i] && b[i] == b2[i];
    ascending &= i == 0 || c[i] > c[i - 1];
    positive &= b[i] > 0;
  }
  VI_CHECK(ctx, same, "%s %s n=%d: dispatch differs", VI_PREC_NAME, name, n);
  VI_CHECK(ctx, ascending, "%s %s n=%d: nodes not ascending", VI_PREC_NAME, name, n);
  VI_CHECK(ctx, positive, "%s %s n=%d: weight <= 0", VI_PREC_NAME, name, n);
  if (rule == VI_RULE_GAUSS) {
    VI_CHECK(ctx, c[0] > 0 && c[n - 1] < 1, "%s gauss n=%d: node outside (0,1)",
             VI_PREC_NAME, n);
  } else if (rule == VI_RULE_LOBATTO) {
    VI_CHECK(ctx, c[0] == 0 && c[n - 1] == 1, "%s lobatto n=%d: end points", VI_PREC_NAME,
             n);
  } else {
    VI_CHECK(ctx, c[0] > 0 && c[n - 1] == 1, "%s radau n=%d: end points", VI_PREC_NAME,
             n);
  }
  if (rule != VI_RULE_RADAU) {
    for (int i = 0; i < n; i++) {
      symmetric &= vi_fabs(c[i] + c[n - 1 - i] - 1) <= VI_EPS && b[i] == b[n - 1 - i];
    }
    VI_CHECK(ctx, symmetric, "%s %s n=%d: not symmetric", VI_PREC_NAME, name, n);
  }

  /* The nodes solve their defining equations to a few eps. */
  VI_REAL nworst = 0;
  for (int i = 0; i < n; i++) {
    int end = (rule == VI_RULE_LOBATTO && (i == 0 || i == n - 1)) ||
              (rule == VI_RULE_RADAU && i == n - 1);
    if (!end) {
      VI_REAL r = VI_X(newton_estimate)(rule, n, c[i]);
      nworst = r > nworst ? r : nworst;
    }
  }
  VI_CHECK(ctx, nworst <= 4 * VI_EPS, "%s %s n=%d: Newton correction %.3g", VI_PREC_NAME,
           name, n, (double)nworst);
  if ((double)(nworst / VI_EPS) > st->newton) {
    st->newton = (double)(nworst / VI_EPS);
  }

  /* Exact for x^k, k <= degree: the rounding of the sum of at most n terms
   * bounded by b_i, with a mild growth for the large rules. */
  int deg = VI_X(degree)(rule, n);
  VI_REAL tol = 50 * VI_EPS * (n > 16 ? (VI_REAL)n / 16 : 1);
  VI_REAL worst = 0;
  for (int k = 0; k <= deg; k++) {
    VI_REAL r = vi_fabs(VI_X(moment)(n, c, b, k) - (VI_REAL)1 / (k + 1));
    worst = r > worst ? r : worst;
  }
  VI_CHECK(ctx, worst <= tol, "%s %s n=%d: not exact to degree %d: %.3g", VI_PREC_NAME,
           name, n, deg, (double)worst);
  if ((double)(worst / VI_EPS) > st->exact) {
    st->exact = (double)(worst / VI_EPS);
  }

  /* Degree + 1: the error is the known constant; where that constant is
   * well above the rounding, the rule is provably not exact there. */
  if (n <= 20) {
    VI_REAL err = (VI_REAL)1 / (deg + 2) - VI_X(moment)(n, c, b, deg + 1);
    VI_REAL E = VI_X(error_constant)(rule, n);
    VI_REAL r = vi_fabs(err - E);
    VI_CHECK(ctx, r <= tol, "%s %s n=%d: error of x^%d is %.17g, expected %.17g",
             VI_PREC_NAME, name, n, deg + 1, (double)err, (double)E);
    if ((double)(r / VI_EPS) > st->tail) {
      st->tail = (double)(r / VI_EPS);
    }
    if (vi_fabs(E) > 100 * tol) {
      VI_CHECK(ctx, vi_fabs(err) > 10 * tol, "%s %s n=%d: exact for x^%d", VI_PREC_NAME,
               name, n, deg + 1);
      st->tight++;
    }
  }
}

/* Nodes and weights against closed forms evaluated in the working
 * precision (Abramowitz-Stegun §25.4, Hairer-Wanner II §IV.5). */
static void VI_X(expect)(vi_check_ctx *ctx, stats *st, int rule, int n, const VI_REAL *ce,
                         const VI_REAL *be) {
  VI_REAL c[VI_QUAD_MAX], b[VI_QUAD_MAX];
  VI_X(vi_quad_rule)(rule, n, c, b);
  VI_REAL worst = 0;
  for (int i = 0; i < n; i++) {
    VI_REAL r = vi_fabs(c[i] - ce[i]);
    VI_REAL rb = vi_fabs(b[i] - be[i]);
    worst = r > worst ? r : worst;
    worst = rb > worst ? rb : worst;
  }
  VI_CHECK(ctx, worst <= 8 * VI_EPS, "%s rule %d n=%d: closed form off by %.3g",
           VI_PREC_NAME, rule, n, (double)worst);
  if ((double)(worst / VI_EPS) > st->known) {
    st->known = (double)(worst / VI_EPS);
  }
}

static void VI_X(test_known)(vi_check_ctx *ctx, stats *st) {
  const VI_REAL h = VI_C(0.5);
  {
    VI_REAL c[] = {h}, b[] = {1};
    VI_X(expect)(ctx, st, VI_RULE_GAUSS, 1, c, b);
  }
  {
    VI_REAL d = 1 / (2 * vi_sqrt(VI_C(3.0)));
    VI_REAL c[] = {h - d, h + d}, b[] = {h, h};
    VI_X(expect)(ctx, st, VI_RULE_GAUSS, 2, c, b);
  }
  {
    VI_REAL d = vi_sqrt(VI_C(15.0)) / 10;
    VI_REAL c[] = {h - d, h, h + d};
    VI_REAL b[] = {VI_C(5.0) / 18, VI_C(4.0) / 9, VI_C(5.0) / 18};
    VI_X(expect)(ctx, st, VI_RULE_GAUSS, 3, c, b);
  }
  {
    VI_REAL r = 2 * vi_sqrt(VI_C(6.0) / 5) / 7, s30 = vi_sqrt(VI_C(30.0));
    VI_REAL xo = vi_sqrt(VI_C(3.0) / 7 + r), xi = vi_sqrt(VI_C(3.0) / 7 - r);
    VI_REAL wo = (18 - s30) / 72, wi = (18 + s30) / 72;
    VI_REAL c[] = {(1 - xo) / 2, (1 - xi) / 2, (1 + xi) / 2, (1 + xo) / 2};
    VI_REAL b[] = {wo, wi, wi, wo};
    VI_X(expect)(ctx, st, VI_RULE_GAUSS, 4, c, b);
  }
  {
    VI_REAL c[] = {0, 1}, b[] = {h, h};
    VI_X(expect)(ctx, st, VI_RULE_LOBATTO, 2, c, b);
  }
  {
    VI_REAL c[] = {0, h, 1};
    VI_REAL b[] = {VI_C(1.0) / 6, VI_C(2.0) / 3, VI_C(1.0) / 6};
    VI_X(expect)(ctx, st, VI_RULE_LOBATTO, 3, c, b);
  }
  {
    VI_REAL d = vi_sqrt(VI_C(5.0)) / 10;
    VI_REAL c[] = {0, h - d, h + d, 1};
    VI_REAL b[] = {VI_C(1.0) / 12, VI_C(5.0) / 12, VI_C(5.0) / 12, VI_C(1.0) / 12};
    VI_X(expect)(ctx, st, VI_RULE_LOBATTO, 4, c, b);
  }
  {
    VI_REAL d = vi_sqrt(VI_C(21.0)) / 14;
    VI_REAL c[] = {0, h - d, h, h + d, 1};
    VI_REAL b[] = {VI_C(1.0) / 20, VI_C(49.0) / 180, VI_C(16.0) / 45, VI_C(49.0) / 180,
                   VI_C(1.0) / 20};
    VI_X(expect)(ctx, st, VI_RULE_LOBATTO, 5, c, b);
  }
  {
    VI_REAL c[] = {1}, b[] = {1};
    VI_X(expect)(ctx, st, VI_RULE_RADAU, 1, c, b);
  }
  {
    VI_REAL c[] = {VI_C(1.0) / 3, 1}, b[] = {VI_C(3.0) / 4, VI_C(1.0) / 4};
    VI_X(expect)(ctx, st, VI_RULE_RADAU, 2, c, b);
  }
  {
    VI_REAL s6 = vi_sqrt(VI_C(6.0));
    VI_REAL c[] = {(4 - s6) / 10, (4 + s6) / 10, 1};
    VI_REAL b[] = {(16 - s6) / 36, (16 + s6) / 36, VI_C(1.0) / 9};
    VI_X(expect)(ctx, st, VI_RULE_RADAU, 3, c, b);
  }
}

#ifdef VI_PREC_Q
/* The double rules against the quad ones: absolute node and weight errors
 * of a few double eps, and nodes near 0 with relative accuracy (the reason
 * quadrature_tmpl.c iterates on the distance to the end point). */
static void VI_X(test_cross)(vi_check_ctx *ctx) {
  double worst = 0, worst_rel = 0;
  for (int rule = 0; rule < 3; rule++) {
    for (int n = rule == VI_RULE_LOBATTO ? 2 : 1; n <= VI_QUAD_MAX; n++) {
      __float128 cq[VI_QUAD_MAX], bq[VI_QUAD_MAX];
      double cd[VI_QUAD_MAX], bd[VI_QUAD_MAX];
      vi_quad_rule_q(rule, n, cq, bq);
      vi_quad_rule_d(rule, n, cd, bd);
      for (int i = 0; i < n; i++) {
        double e = (double)vi_fabs(cd[i] - cq[i]) / DBL_EPSILON;
        double eb = (double)vi_fabs(bd[i] - bq[i]) / DBL_EPSILON;
        worst = e > worst ? e : worst;
        worst = eb > worst ? eb : worst;
        if (cq[i] > 0) {
          double er = (double)(vi_fabs(cd[i] - cq[i]) / cq[i]) / DBL_EPSILON;
          worst_rel = er > worst_rel ? er : worst_rel;
        }
      }
    }
  }
  VI_CHECK(ctx, worst <= 8, "double vs quad rules: %.3g eps", worst);
  VI_CHECK(ctx, worst_rel <= 32, "double vs quad nodes, relative: %.3g eps", worst_rel);
  printf("double rules vs quad, n <= %d: max abs error %.2f eps_d, max "
         "relative node error %.2f eps_d\n",
         VI_QUAD_MAX, worst, worst_rel);
}
#endif

static void VI_X(run)(vi_check_ctx *ctx) {
  stats st = {0, 0, 0, 0, 0};
  VI_X(test_invalid)(ctx);
  for (int rule = 0; rule < 3; rule++) {
    for (int n = rule == VI_RULE_LOBATTO ? 2 : 1; n <= VI_QUAD_MAX; n++) {
      VI_X(test_rule)(ctx, &st, rule, n);
    }
  }
  VI_X(test_known)(ctx, &st);
#ifdef VI_PREC_Q
  VI_X(test_cross)(ctx);
#endif
  printf("%s (eps %.3g), n <= %d: max exactness residual %.2f eps, node "
         "Newton correction %.2f eps, error constant residual %.2f eps, "
         "closed forms %.2f eps, %d rules shown tight\n",
         VI_PREC_NAME, (double)VI_EPS, VI_QUAD_MAX, st.exact, st.newton, st.tail,
         st.known, st.tight);
}

#endif /* VI_TEST_BODY */
