/* quadrature_tmpl.c: Gauss, Lobatto and right Radau (Radau IIA) rules on [0, 1],
 * computed in the working precision by Newton's method on Legendre
 * polynomials, never from pasted tables. The nodes on [-1, 1] are the
 * roots of P_n (Gauss), of P'_{n-1} plus the end points (Lobatto), and of
 * P_n - P_{n-1}, which include x = 1 (Radau IIA); the starting guesses are
 * the asymptotic cosine formulas for the zeros of the Jacobi polynomials
 * P^(0,0), P^(1,1) and P^(1,0) (Tricomi, Gatteschi; Szego, Orthogonal
 * Polynomials), and the weights are the classical closed forms
 * (Abramowitz-Stegun §25.4). Each root is iterated on its distance
 * u = 1 -+ x to the nearer end point rather than on x, with the three-term
 * recurrence rewritten for the differences (P_k - P_{k-1}) / u (the trick of
 * Reinsch's modification of Goertzel's algorithm), so that the nodes near
 * 0 and near 1 are accurate relative to their distance from the end point
 * and not only in absolute terms. Compiled once per precision (prec.h). */

/* prec.h first: numerics_tmpl.h declares in the precision it sets. */
#include "prec.h"

#include "numerics_tmpl.h"

/* Legendre data of degree n at x = 1 - u, from one pass of the recurrence.
 * dp, dp1 and ddp are derivatives with respect to x. */
typedef struct legendre_vals {
  VI_REAL p, p1;   /* P_n(x), P_{n-1}(x) */
  VI_REAL dp, dp1; /* P_n'(x), P_{n-1}'(x) */
  VI_REAL ddp;     /* P_n''(x) */
  VI_REAL e, de;   /* e = (P_n - P_{n-1}) / u and de/du */
} legendre_vals;

/* The roots the Newton iteration can look for; see newton_step. */
enum root_kind { ROOT_GAUSS, ROOT_LOBATTO, ROOT_RADAU_POS, ROOT_RADAU_NEG };

/* Evaluates the Legendre polynomials of degree n >= 1 at x = 1 - u without
 * ever forming x: with E_k = (P_k - P_{k-1}) / u the three-term recurrence
 * (k+1) P_{k+1} = (2k+1) x P_k - k P_{k-1} becomes
 *   E_{k+1} = (k E_k - (2k+1) P_k) / (k+1),   P_{k+1} = P_k + u E_{k+1},
 * which loses nothing to the rounding of 1 - u when u is small. The
 * derivatives follow from (2k+1) P_k = P'_{k+1} - P'_{k-1}, which involves
 * no x either. */
static void legendre_u(int n, VI_REAL u, legendre_vals *v) {
  VI_REAL p0 = 1, p = 1 - u;
  VI_REAL dp0 = 0, dp = 1;
  VI_REAL ddp0 = 0, ddp = 0;
  VI_REAL e = -1, de = 0;
  for (int k = 1; k < n; k++) {
    VI_REAL kk = k, k1 = k + 1, k2 = 2 * k + 1;
    VI_REAL en = (kk * e - k2 * p) / k1;
    VI_REAL den = (kk * de + k2 * dp) / k1;
    VI_REAL pn = p + u * en;
    VI_REAL dpn = dp0 + k2 * p;
    VI_REAL ddpn = ddp0 + k2 * dp;
    p0 = p;
    p = pn;
    dp0 = dp;
    dp = dpn;
    ddp0 = ddp;
    ddp = ddpn;
    e = en;
    de = den;
  }
  v->p = p;
  v->p1 = p0;
  v->dp = dp;
  v->dp1 = dp0;
  v->ddp = ddp;
  v->e = e;
  v->de = de;
}

/* Newton correction du for the root in u of the function of the given kind:
 *   ROOT_GAUSS      P_n(1 - u)
 *   ROOT_LOBATTO    P_n'(1 - u)               (n is the degree n-1 of the rule)
 *   ROOT_RADAU_POS  (P_n - P_{n-1})(1 - u) / u, root x = 1 - u of the rule;
 *                   dividing by u removes the root x = 1
 *   ROOT_RADAU_NEG  (P_n + P_{n-1})(1 - u), root x = -(1 - u) of the rule,
 *                   since P_k(-y) = (-1)^k P_k(y). */
static VI_REAL newton_step(int kind, int n, VI_REAL u) {
  legendre_vals v;
  legendre_u(n, u, &v);
  switch (kind) {
  case ROOT_GAUSS:
    return v.p / v.dp;
  case ROOT_LOBATTO:
    return v.dp / v.ddp;
  case ROOT_RADAU_POS:
    return -v.e / v.de;
  default:
    return (v.p + v.p1) / (v.dp + v.dp1);
  }
}

/* Newton's method from the guess u until the correction falls below a few
 * eps relative to u, or stops decreasing (the rounding floor of the
 * polynomial evaluation), then one final step. */
static VI_REAL newton_root(int kind, int n, VI_REAL u) {
  VI_REAL prev = 0;
  for (int it = 0; it < 100; it++) {
    VI_REAL du = newton_step(kind, n, u);
    VI_REAL a = vi_fabs(du);
    u += du;
    if (a <= 4 * VI_EPS * vi_fabs(u) || (it >= 3 && a >= prev)) {
      break;
    }
    prev = a;
  }
  return u + newton_step(kind, n, u);
}

/* 1 - cos(theta) = 2 sin^2(theta/2), without cancellation for small theta. */
static VI_REAL one_minus_cos(VI_REAL theta) {
  VI_REAL s = vi_sin(theta / 2);
  return 2 * s * s;
}

int VI_X(vi_quad_gauss)(int n, VI_REAL *c, VI_REAL *b) {
  if (n < 1 || n > VI_QUAD_MAX || !c || !b) {
    return VI_EINVAL;
  }
  /* Tricomi's guess x_i = (1 - (1 - 1/n) / (8 n^2)) cos(pi (4i-1)/(4n+2))
   * for the i-th largest root; only the roots x > 0 are computed, the rule
   * being symmetric. u = 1 - x = (1 - a) + a (1 - cos theta). */
  VI_REAL nn = n;
  VI_REAL a = 1 - (1 - 1 / nn) / (8 * nn * nn);
  for (int i = 1; i <= n / 2; i++) {
    VI_REAL theta = VI_PI * (4 * i - 1) / (4 * n + 2);
    VI_REAL u = newton_root(ROOT_GAUSS, n, (1 - a) + a * one_minus_cos(theta));
    legendre_vals v;
    legendre_u(n, u, &v);
    /* On [-1, 1] w = 2 / ((1 - x^2) P_n'(x)^2) with 1 - x^2 = u (2 - u);
     * mapping to [0, 1] halves it. */
    VI_REAL w = 1 / (u * (2 - u) * v.dp * v.dp);
    c[i - 1] = u / 2;
    c[n - i] = 1 - c[i - 1];
    b[i - 1] = w;
    b[n - i] = w;
  }
  if (n % 2 == 1) {
    /* The middle root x = 0 is exact by symmetry. */
    legendre_vals v;
    legendre_u(n, 1, &v);
    c[n / 2] = VI_C(0.5);
    b[n / 2] = 1 / (v.dp * v.dp);
  }
  return VI_OK;
}

int VI_X(vi_quad_lobatto)(int n, VI_REAL *c, VI_REAL *b) {
  if (n < 2 || n > VI_QUAD_MAX || !c || !b) {
    return VI_EINVAL;
  }
  /* The interior nodes are the n-2 roots of P_m', m = n-1, the zeros of the
   * Jacobi polynomial P^(1,1)_{m-1}: guess theta_i = pi (4i+1) / (4m+2).
   * On [-1, 1] the weights are 2 / (n (n-1) P_m(x)^2), halved on [0, 1]. */
  int m = n - 1;
  VI_REAL nn1 = (VI_REAL)n * (n - 1);
  c[0] = 0;
  c[n - 1] = 1;
  b[0] = 1 / nn1;
  b[n - 1] = b[0];
  for (int i = 1; i <= (m - 1) / 2; i++) {
    VI_REAL theta = VI_PI * (4 * i + 1) / (4 * m + 2);
    VI_REAL u = newton_root(ROOT_LOBATTO, m, one_minus_cos(theta));
    legendre_vals v;
    legendre_u(m, u, &v);
    VI_REAL w = 1 / (nn1 * v.p * v.p);
    c[i] = u / 2;
    c[n - 1 - i] = 1 - c[i];
    b[i] = w;
    b[n - 1 - i] = w;
  }
  if (n % 2 == 1) {
    legendre_vals v;
    legendre_u(m, 1, &v);
    c[n / 2] = VI_C(0.5);
    b[n / 2] = 1 / (nn1 * v.p * v.p);
  }
  return VI_OK;
}

int VI_X(vi_quad_radau)(int n, VI_REAL *c, VI_REAL *b) {
  if (n < 1 || n > VI_QUAD_MAX || !c || !b) {
    return VI_EINVAL;
  }
  /* The nodes other than x = 1 are the zeros of P^(1,0)_{n-1}, guessed at
   * theta_i = pi (4i+1) / (4n), i = 1..n-1 (descending x). A root with
   * x > 0 is iterated on u = 1 - x, one with x < 0 on u = 1 + x. On
   * [-1, 1] the weights of the right Radau rule are
   * (1 + x) / (n^2 P_{n-1}(x)^2) and 2 / n^2 at x = 1 (the mirror image of
   * Abramowitz-Stegun §25.4), i.e. b = c / (n^2 P_{n-1}^2) on [0, 1]. */
  VI_REAL n2 = (VI_REAL)n * n;
  c[n - 1] = 1;
  b[n - 1] = 1 / n2;
  for (int i = 1; i <= n - 1; i++) {
    VI_REAL theta = VI_PI * (4 * i + 1) / (4 * n);
    int pos = 4 * i + 1 < 2 * n;
    VI_REAL u;
    legendre_vals v;
    if (pos) {
      u = newton_root(ROOT_RADAU_POS, n, one_minus_cos(theta));
      c[n - 1 - i] = 1 - u / 2;
    } else {
      u = newton_root(ROOT_RADAU_NEG, n, one_minus_cos(VI_PI - theta));
      c[n - 1 - i] = u / 2;
    }
    legendre_u(n, u, &v);
    b[n - 1 - i] = c[n - 1 - i] / (n2 * v.p1 * v.p1);
  }
  return VI_OK;
}

int VI_X(vi_quad_rule)(int rule, int n, VI_REAL *c, VI_REAL *b) {
  switch (rule) {
  case VI_RULE_GAUSS:
    return VI_X(vi_quad_gauss)(n, c, b);
  case VI_RULE_LOBATTO:
    return VI_X(vi_quad_lobatto)(n, c, b);
  case VI_RULE_RADAU:
    return VI_X(vi_quad_radau)(n, c, b);
  default:
    return VI_EINVAL;
  }
}
