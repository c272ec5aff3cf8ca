/* test_solve.c: the nonlinear solver's backends (core/solve_tmpl.c behind
 * the ops table of core/solve_impl_tmpl.h):
 *
 * - the built-in Newton (exact and simplified, its LU in the working
 *   precision and in double) in both precisions and KINSOL in double find
 *   the root of a small system (x0^2 = 2.385, x0 x1 = 1) to their
 *   tolerance, count their iterations, evaluations and factorizations,
 *   pass a failing callback's own status through (recoverable and fatal),
 *   and report a singular Jacobian;
 * - an LU in double of a quad Jacobian too ill-conditioned for double
 *   (or singular in double) still converges to quad's rtol;
 * - the simplified Newton keeps its Jacobian over a sequence of related
 *   solves and still solves a jump of the data its kept Jacobian diverges
 *   on; the chord method evaluates one per solve;
 * - the fixed-point iteration (the leading part M = I of x - g(x)) finds
 *   the root where exact Newton does, with one factorization over a
 *   sequence of solves and no Jacobian; where g does not contract it goes
 *   on as exact Newton and still converges, as it does where it diverges
 *   or contracts slowly from increments already at round-off level;
 *   without a leading part it is VI_EUNSUPPORTED;
 * - the quad library refuses KINSOL: vi_solver_opts_from with the message
 *   the CLI and studies show, vi_solver_alloc with VI_EUNSUPPORTED;
 * - an unknown backend kind is VI_EINVAL in both precisions.
 *
 * The precision-generic part is this same file, included twice with
 * VI_TEST_TMPL defined (the pattern of tests/test_systems.c). */
#ifndef VI_TEST_TMPL

#include <stdio.h>
#include <string.h>

#include "check.h"
#include "vistudy.h"

/* What the residual callback does: solve, fail (with a status) or make the
 * Jacobian singular. */
typedef struct prob {
  int fail_status; /* returned by every evaluation when nonzero */
  int singular;    /* J's second row zero */
  long calls;
  __float128 a;    /* the root's square, x0^2 = a */
} prob;

/* A x = b with A = [1, 1; 1, 1 + d]: cond(A) about 4/d, root (1, 1). */
typedef struct lin {
  __float128 d;
} lin;

#define VI_TEST_TMPL
#include "prec.h"
#include "test_solve.c"
#include "prec_undef.h"

#define VI_PREC_Q
#include "prec.h"
#include "test_solve.c"
#include "prec_undef.h"

static const char kinsol_quad_msg[] =
    "the KINSOL backend works in double precision only (Debian's SUNDIALS is built for "
    "double); use the built-in Newton solver in quad";

int main(void) {
  vi_check_ctx ctx = {0, 0};
  vi_check_ctx *c = &ctx;
  for (int lu = VI_LU_WORKING; lu <= VI_LU_DOUBLE; lu++) {
    test_backend_d(c, VI_SOLVER_NEWTON, lu);
    test_backend_d(c, VI_SOLVER_SIMPLIFIED, lu);
    test_backend_d(c, VI_SOLVER_CHORD, lu);
    test_backend_q(c, VI_SOLVER_NEWTON, lu);
    test_backend_q(c, VI_SOLVER_SIMPLIFIED, lu);
    test_backend_q(c, VI_SOLVER_CHORD, lu);
    for (int kind = VI_SOLVER_SIMPLIFIED; kind <= VI_SOLVER_CHORD; kind++) {
      test_sequence_d(c, kind, lu);
      test_sequence_q(c, kind, lu);
    }
  }
  test_backend_d(c, VI_SOLVER_KINSOL, VI_LU_WORKING);
  for (int lu = VI_LU_WORKING; lu <= VI_LU_DOUBLE; lu++) {
    test_fixed_point_d(c, lu);
    test_fixed_point_q(c, lu);
  }
  test_fixed_point_slow_d(c);
  test_fixed_point_slow_q(c);
  for (int kind = VI_SOLVER_NEWTON; kind < VI_SOLVER_NKINDS; kind++) {
    if (kind != VI_SOLVER_KINSOL && kind != VI_SOLVER_FIXED_POINT) {
      test_illcond_d(c, kind); /* d = 1 only: the others are singular in double */
      test_illcond_q(c, kind);
    }
  }

  /* KINSOL in quad: refused with its reason, by both entry points. */
  vi_solver_config cfg = {.kind = VI_SOLVER_KINSOL};
  vi_solver_opts_q soq;
  char err[512] = "";
  int rc = vi_solver_opts_from_q(&cfg, &soq, err, sizeof err);
  VI_CHECK(c, rc == VI_EUNSUPPORTED && strcmp(err, kinsol_quad_msg) == 0,
           "quad KINSOL options: %d '%s'", rc, err);
  vi_solver_opts_default_q(&soq);
  soq.kind = VI_SOLVER_KINSOL;
  vi_solver_q *sq = NULL;
  rc = vi_solver_alloc_q(&soq, 2, resjac_q, &(prob){0, 0, 0, 2.385}, &sq);
  VI_CHECK(c, rc == VI_EUNSUPPORTED && sq == NULL, "quad KINSOL alloc: %d", rc);
  vi_solver_opts_d sod;
  err[0] = '\0';
  cfg.kind = VI_SOLVER_KINSOL;
  rc = vi_solver_opts_from_d(&cfg, &sod, err, sizeof err);
  VI_CHECK(c, rc == VI_OK && sod.kind == VI_SOLVER_KINSOL && err[0] == '\0',
           "double KINSOL options: %d '%s'", rc, err);

  /* An unknown kind. */
  vi_solver_opts_default_d(&sod);
  sod.kind = 7;
  vi_solver_d *sd = NULL;
  rc = vi_solver_alloc_d(&sod, 2, resjac_d, &(prob){0, 0, 0, 2.385}, &sd);
  VI_CHECK(c, rc == VI_EINVAL && sd == NULL, "double kind 7: %d", rc);
  vi_solver_opts_default_q(&soq);
  soq.kind = 7;
  sq = NULL;
  rc = vi_solver_alloc_q(&soq, 2, resjac_q, &(prob){0, 0, 0, 2.385}, &sq);
  VI_CHECK(c, rc == VI_EINVAL && sq == NULL, "quad kind 7: %d", rc);
  /* A configuration's unknown kind or LU precision: refused with the valid
   * choices; zero means the precision's default (exact Newton in double;
   * in quad the LU in double and the family's solver, which a stepper
   * resolves: AUTO until then, the chord method without a family). */
  vi_solver_config bad = {.kind = 9};
  err[0] = '\0';
  rc = vi_solver_opts_from_d(&bad, &sod, err, sizeof err);
  VI_CHECK(c, rc == VI_EINVAL && strstr(err, "newton, chord, simplified, fixed-point, kinsol") != NULL,
           "kind 9: %d '%s'", rc, err);
  bad = (vi_solver_config){.lu = 5};
  err[0] = '\0';
  rc = vi_solver_opts_from_q(&bad, &soq, err, sizeof err);
  VI_CHECK(c, rc == VI_EINVAL && strstr(err, "working, double") != NULL, "lu 5: %d '%s'", rc,
           err);
  vi_solver_config dflt = {0};
  rc = vi_solver_opts_from_d(&dflt, &sod, err, sizeof err) |
       vi_solver_opts_from_q(&dflt, &soq, err, sizeof err);
  VI_CHECK(c, rc == VI_OK && sod.kind == VI_SOLVER_NEWTON && soq.kind == VI_SOLVER_AUTO &&
                  sod.lu == VI_LU_DOUBLE && soq.lu == VI_LU_DOUBLE &&
                  vi_solver_default_kind_q(0) == VI_SOLVER_CHORD &&
                  vi_solver_default_kind_q(VI_SOLVER_SIMPLIFIED) == VI_SOLVER_SIMPLIFIED &&
                  vi_solver_default_kind_d(VI_SOLVER_SIMPLIFIED) == VI_SOLVER_NEWTON,
           "defaults: rc %d, double %s/%s, quad %s/%s", rc, vi_solver_kind_name(sod.kind),
           vi_lu_precision_name(sod.lu), vi_solver_kind_name(soq.kind),
           vi_lu_precision_name(soq.lu));
  vi_solver_free_d(NULL);
  vi_solver_free_q(NULL);
  return vi_check_done(c, "solve");
}

#else /* VI_TEST_TMPL: compiled once per precision */

/* F = (x0^2 - 2.385, x0 x1 - 1), J = [2 x0, 0; x1, x0] (second row zero
 * when singular). */
static int VI_X(resjac)(void *ctx, const VI_REAL *x, VI_REAL *F, VI_REAL *J) {
  prob *pr = ctx;
  pr->calls++;
  if (pr->fail_status != 0) {
    return pr->fail_status;
  }
  if (F != NULL) {
    F[0] = x[0] * x[0] - (VI_REAL)pr->a;
    F[1] = x[0] * x[1] - 1;
  }
  if (J != NULL) {
    J[0] = 2 * x[0];
    J[1] = 0;
    J[2] = pr->singular ? 0 : x[1];
    J[3] = pr->singular ? 0 : x[0];
  }
  return 0;
}

/* The error of x against the root of x0^2 = a, x0 x1 = 1 in units of the
 * solver's convergence bound rtol (|x_i| + u_i) (rtol = 100 eps, u = 1, 2):
 * converged means an error estimate within 1; the contraction estimate
 * theta/(1-theta) |dx| may underestimate a little, hence checks <= 2. */
static double VI_X(werr)(const VI_REAL x[2], VI_REAL a) {
  const VI_REAL r[2] = {vi_sqrt(a), 1 / vi_sqrt(a)}, u[2] = {1, 2};
  double e = 0;
  for (int i = 0; i < 2; i++) {
    double ei = (double)(vi_fabs(x[i] - r[i]) / (100 * VI_EPS * (vi_fabs(r[i]) + u[i])));
    e = ei > e ? ei : e;
  }
  return e;
}

static int VI_X(lin_resjac)(void *ctx, const VI_REAL *x, VI_REAL *F, VI_REAL *J) {
  const VI_REAL d = (VI_REAL)((const lin *)ctx)->d;
  if (F != NULL) {
    /* written in x - 1, so that the residual near the root is exact to
     * its own precision and only the LU's precision limits the iteration */
    F[0] = (x[0] - 1) + (x[1] - 1);
    F[1] = (x[0] - 1) + (1 + d) * (x[1] - 1);
  }
  if (J != NULL) {
    J[0] = J[1] = J[2] = 1;
    J[3] = 1 + d;
  }
  return 0;
}

/* An LU in double of a Jacobian ill-conditioned for double still solves
 * to the working precision's rtol: cond 4e15, where the double LU slows
 * the contraction to about 0.1 (30-odd iterations), and 4e20, singular in
 * double, where the solver falls back to the working precision's LU (3
 * iterations). The root is (1, 1). And a well-conditioned one (d = 1),
 * whose first step lands on the root: the next increment is exactly 0,
 * which converges (it has no rate). The fall-back of a double LU that
 * contracts at more than 1/2 without being singular is not reached by
 * this 2 x 2 family (rounding keeps d / fl(1 + d) - 1 within 1/2). */
static void VI_X(test_illcond)(vi_check_ctx *c, int kind) {
  const VI_REAL ds[] = {VI_C(1e-15), VI_C(1e-20), VI_C(1.0)};
  for (int k = 0; k < 3; k++) {
    if (ds[k] < 8 * VI_EPS) {
      continue; /* singular in the working precision too */
    }
    VI_X(vi_solver_opts) so;
    VI_X(vi_solver_opts_default)(&so);
    so.kind = kind;
    so.lu = VI_LU_DOUBLE;
    lin L = {ds[k]};
    VI_X(vi_solver) *s = NULL;
    int rc = VI_X(vi_solver_alloc)(&so, 2, VI_X(lin_resjac), &L, &s);
    VI_REAL x[2] = {VI_C(0.5), VI_C(1.7)};
    vi_solve_counts cnt = {0, 0, 0, 0};
    if (rc == VI_OK) {
      rc = VI_X(vi_solve)(s, x, &cnt);
    }
    VI_X(vi_solver_free)(s);
    double e = (double)((vi_fabs(x[0] - 1) + vi_fabs(x[1] - 1)) / (100 * VI_EPS * 2));
    VI_CHECK(c, rc == VI_OK && e <= 2,
             "%s, LU double (%s), cond %.0e: rc %d, error %.3g rtol in %ld iterations",
             vi_solver_kind_name(kind), VI_PREC_NAME, (double)(4 / ds[k]), rc, e, cnt.iters);
    printf("%s, LU double (%s), cond %.0e: root to %.2f rtol in %ld iterations, %ld "
           "factorizations\n",
           vi_solver_kind_name(kind), VI_PREC_NAME, (double)(4 / ds[k]), e, cnt.iters,
           cnt.factorizations);
  }
}

static int VI_X(solve_once)(int kind, int lu, prob *pr, VI_REAL x[2], vi_solve_counts *cnt) {
  VI_X(vi_solver_opts) so;
  VI_X(vi_solver_opts_default)(&so);
  so.kind = kind;
  so.lu = lu;
  VI_X(vi_solver) *s = NULL;
  int rc = VI_X(vi_solver_alloc)(&so, 2, VI_X(resjac), pr, &s);
  if (rc != VI_OK) {
    return rc;
  }
  VI_X(vi_solver_set_unit)(s, 1, VI_C(2.0));
  x[0] = VI_C(1.3);
  x[1] = VI_C(0.7);
  *cnt = (vi_solve_counts){0, 0, 0, 0};
  rc = VI_X(vi_solve)(s, x, cnt);
  VI_X(vi_solver_free)(s);
  return rc;
}

static void VI_X(test_backend)(vi_check_ctx *c, int kind, int lu) {
  char name[64];
  snprintf(name, sizeof name, "%s, LU %s", vi_solver_kind_name(kind), vi_lu_precision_name(lu));
  VI_REAL x[2];
  vi_solve_counts cnt;
  prob pr = {0, 0, 0, VI_C(2.385)};
  int rc = VI_X(solve_once)(kind, lu, &pr, x, &cnt);
  double e = VI_X(werr)(x, VI_C(2.385));
  /* Converged with rtol = 100 eps: the error is a few eps after the last
   * update (quadratically convergent for exact Newton, with the contraction
   * estimate for the simplified one); an LU in double changes only the
   * rate, not the accuracy, in quad too. */
  VI_CHECK(c, rc == VI_OK && e <= 2, "%s (%s): rc %d, error %.3g rtol", name, VI_PREC_NAME,
           rc, e);
  /* Exact Newton: one Jacobian and one LU per iteration. Simplified: fewer
   * Jacobians than iterations (from 1.3 the rate is about 0.2), one LU per
   * Jacobian. */
  const int exact = kind != VI_SOLVER_SIMPLIFIED && kind != VI_SOLVER_CHORD;
  const int builtin = kind != VI_SOLVER_KINSOL;
  VI_CHECK(c, cnt.iters >= 3 && cnt.iters <= (exact ? 8 : 50) && cnt.fevals >= cnt.iters &&
                  cnt.jevals >= 1 && cnt.factorizations >= 1 &&
                  (!builtin || (exact ? cnt.jevals == cnt.iters : cnt.jevals < cnt.iters)) &&
                  (builtin ? cnt.factorizations == cnt.jevals
                           : cnt.factorizations <= cnt.jevals) &&
                  (builtin ? cnt.fevals == pr.calls : cnt.fevals + cnt.jevals >= pr.calls),
           "%s (%s): iterations %ld, F evaluations %ld, J evaluations %ld, factorizations "
           "%ld, calls %ld",
           name, VI_PREC_NAME, cnt.iters, cnt.fevals, cnt.jevals, cnt.factorizations, pr.calls);
  const long iters = cnt.iters;
  for (int status = -4; status <= 5; status += 9) {
    prob bad = {status, 0, 0, VI_C(2.385)};
    rc = VI_X(solve_once)(kind, lu, &bad, x, &cnt);
    VI_CHECK(c, rc == status, "%s (%s): callback status %d came back as %d", name,
             VI_PREC_NAME, status, rc);
  }
  prob sing = {0, 1, 0, VI_C(2.385)};
  rc = VI_X(solve_once)(kind, lu, &sing, x, &cnt);
  VI_CHECK(c, kind == VI_SOLVER_KINSOL ? rc != VI_OK : rc == VI_SINGULAR,
           "%s (%s): singular Jacobian gave %d", name, VI_PREC_NAME, rc);
  printf("%s (%s): root to %.2f rtol in %ld iterations; failing callbacks and a singular "
         "Jacobian reported\n",
         name, VI_PREC_NAME, e, iters);
}

/* Simplified Newton over a sequence of related systems, each started from
 * the previous root (the steps of a run): the roots to tolerance with far
 * fewer Jacobians than solves; then a jump of the data that the kept
 * Jacobian cannot follow (x0^2 = 12.25 from x0 = 1.57, where the kept J
 * and one evaluated there diverge, theta = 1.2), solved all the same
 * through fresh Jacobians (exact Newton from the initial guess, which
 * stays on the positive root). */
static void VI_X(test_sequence)(vi_check_ctx *c, int kind, int lu) {
  VI_X(vi_solver_opts) so;
  VI_X(vi_solver_opts_default)(&so);
  so.kind = kind;
  const int chord = kind == VI_SOLVER_CHORD;
  so.lu = lu;
  prob pr = {0, 0, 0, VI_C(2.385)};
  VI_X(vi_solver) *s = NULL;
  int rc = VI_X(vi_solver_alloc)(&so, 2, VI_X(resjac), &pr, &s);
  VI_CHECK(c, rc == VI_OK, "sequence: alloc %d", rc);
  if (rc != VI_OK) {
    return;
  }
  VI_REAL x[2] = {VI_C(1.5), VI_C(0.65)};
  vi_solve_counts cnt = {0, 0, 0, 0};
  double emax = 0;
  const int nsolve = 40;
  for (int k = 0; k < nsolve && rc == VI_OK; k++) {
    pr.a = VI_C(2.385) + VI_C(0.002) * k;
    rc = VI_X(vi_solve)(s, x, &cnt);
    double e = VI_X(werr)(x, pr.a);
    emax = e > emax ? e : emax;
  }
  VI_CHECK(c, rc == VI_OK && emax <= 2 &&
                  (chord ? cnt.jevals == nsolve : cnt.jevals <= nsolve / 4) &&
                  cnt.factorizations == cnt.jevals,
           "%s sequence (%s, LU %s): rc %d, max error %.3g rtol, %ld Jacobians and "
           "%ld factorizations in %d solves",
           vi_solver_kind_name(kind), VI_PREC_NAME, vi_lu_precision_name(lu), rc, emax,
           cnt.jevals, cnt.factorizations, nsolve);
  const long jbefore = cnt.jevals;
  pr.a = VI_C(12.25);
  rc = VI_X(vi_solve)(s, x, &cnt);
  double e = VI_X(werr)(x, pr.a);
  VI_CHECK(c, rc == VI_OK && e <= 2 && cnt.jevals > jbefore,
           "%s jump (%s): rc %d, error %.3g rtol, Jacobians %ld -> %ld",
           vi_solver_kind_name(kind), VI_PREC_NAME, rc, e, jbefore, cnt.jevals);
  /* After vi_solver_reset, simplified Newton evaluates a fresh Jacobian. */
  const long jreset = cnt.jevals;
  VI_X(vi_solver_reset)(s);
  rc = VI_X(vi_solve)(s, x, &cnt);
  VI_CHECK(c, rc == VI_OK && cnt.jevals == jreset + 1,
           "%s after reset (%s): rc %d, Jacobians %ld -> %ld", vi_solver_kind_name(kind),
           VI_PREC_NAME, rc, jreset, cnt.jevals);
  printf("%s (%s, LU %s): %d related solves with %ld Jacobians (max "
         "error %.2f rtol); a jump solved through %ld fresh ones\n",
         vi_solver_kind_name(kind), VI_PREC_NAME, vi_lu_precision_name(lu), nsolve, jbefore,
         emax, cnt.jevals - jbefore);
  VI_X(vi_solver_free)(s);
}

/* x = g(x), g = (k sin x1 + 0.5, k cos x0 - 0.2): F = x - g(x), its
 * Jacobian I - g'(x) and its leading part M = I (the fixed-point form);
 * g contracts for k < 1. */
static int VI_X(fp_resjac)(void *ctx, const VI_REAL *x, VI_REAL *F, VI_REAL *J) {
  const VI_REAL k = (VI_REAL)*(const double *)ctx;
  if (F != NULL) {
    F[0] = x[0] - (k * vi_sin(x[1]) + VI_C(0.5));
    F[1] = x[1] - (k * vi_cos(x[0]) - VI_C(0.2));
  }
  if (J != NULL) {
    J[0] = 1;
    J[1] = -k * vi_cos(x[1]);
    J[2] = k * vi_sin(x[0]);
    J[3] = 1;
  }
  return 0;
}

static int VI_X(fp_lead)(void *ctx, const VI_REAL *x, VI_REAL *M) {
  (void)ctx;
  (void)x;
  M[0] = M[3] = 1;
  M[1] = M[2] = 0;
  return 0;
}

/* F(x) = (I - G)(x - r), G = diag(0, g): the fixed-point map with M = I
 * multiplies the error's second component by g, its first step removes
 * the first; exact Newton lands on r at once. A reviewer's two cases of
 * a fixed-point "stall" taken for convergence: g = 1.5 (diverges from a
 * small increment) and g = 0.95 (a slow linear rate after a first ratio
 * of 0). */
static int VI_X(lin_fp_resjac)(void *ctx, const VI_REAL *x, VI_REAL *F, VI_REAL *J) {
  const VI_REAL g = (VI_REAL)*(const double *)ctx;
  if (F != NULL) {
    F[0] = x[0] - 1;
    F[1] = (1 - g) * (x[1] - 2);
  }
  if (J != NULL) {
    J[0] = 1;
    J[1] = J[2] = 0;
    J[3] = 1 - g;
  }
  return 0;
}

static void VI_X(test_fixed_point_slow)(vi_check_ctx *c) {
  const double gs[] = {1.5, 0.95};
  for (int i = 0; i < 2; i++) {
    double g = gs[i];
    VI_X(vi_solver_opts) so;
    VI_X(vi_solver_opts_default)(&so);
    so.kind = VI_SOLVER_FIXED_POINT;
    VI_X(vi_solver) *f = NULL;
    int rc = VI_X(vi_solver_alloc)(&so, 2, VI_X(lin_fp_resjac), &g, &f);
    /* the first step removes a large first component (|dx|_w 1e5), the
     * second's increments start within the stall bound (400-1000) */
    VI_REAL x[2] = {1 + 2e5 * so.rtol, 2 + 2400 * so.rtol};
    vi_solve_counts cf = {0, 0, 0, 0};
    if (rc == VI_OK) {
      VI_X(vi_solver_set_leading)(f, VI_X(fp_lead));
      rc = VI_X(vi_solve)(f, x, &cf);
    }
    VI_X(vi_solver_free)(f);
    double e = (double)((vi_fabs(x[0] - 1) / 2 + vi_fabs(x[1] - 2) / 3) / so.rtol);
    VI_CHECK(c, rc == VI_OK && e <= 1, "fixed-point, g = %g (%s): rc %d, %.3g rtol from the "
             "root after %ld iterations, %ld Jacobians", g, VI_PREC_NAME, rc, e, cf.iters,
             cf.jevals);
    printf("fixed-point, g = %g (%s): root to %.2g rtol in %ld iterations, %ld Jacobians\n", g,
           VI_PREC_NAME, e, cf.iters, cf.jevals);
  }
}

static void VI_X(test_fixed_point)(vi_check_ctx *c, int lu) {
  const double ks[] = {0.3, 1.5};
  for (int i = 0; i < 2; i++) {
    double k = ks[i];
    VI_REAL xn[2] = {0, 0}, x[2];
    vi_solve_counts cn = {0, 0, 0, 0}, cf = {0, 0, 0, 0};
    VI_X(vi_solver_opts) so;
    VI_X(vi_solver_opts_default)(&so);
    so.lu = lu;
    so.kind = VI_SOLVER_NEWTON;
    VI_X(vi_solver) *s = NULL, *f = NULL;
    int rn = VI_X(vi_solver_alloc)(&so, 2, VI_X(fp_resjac), &k, &s);
    so.kind = VI_SOLVER_FIXED_POINT;
    int rf = VI_X(vi_solver_alloc)(&so, 2, VI_X(fp_resjac), &k, &f);
    if (rn == VI_OK) {
      rn = VI_X(vi_solve)(s, xn, &cn);
    }
    if (rf == VI_OK) {
      /* without its leading part: refused */
      x[0] = x[1] = 0;
      rf = VI_X(vi_solve)(f, x, &cf);
      VI_CHECK(c, rf == VI_EUNSUPPORTED, "fixed-point without a leading part (%s): %d",
               VI_PREC_NAME, rf);
      VI_X(vi_solver_set_leading)(f, VI_X(fp_lead));
      rf = VI_OK;
    }
    /* five solves from nearby guesses: M is kept from the first */
    double e = 0;
    for (int r = 0; rf == VI_OK && r < 5; r++) {
      x[0] = VI_C(0.1) * r;
      x[1] = -VI_C(0.1) * r;
      rf = VI_X(vi_solve)(f, x, &cf);
      for (int j = 0; j < 2; j++) {
        double ej = (double)(vi_fabs(x[j] - xn[j]) / (so.rtol * (vi_fabs(xn[j]) + 1)));
        e = ej > e ? ej : e;
      }
    }
    VI_X(vi_solver_free)(s);
    VI_X(vi_solver_free)(f);
    const int contracts = k < 1;
    VI_CHECK(c, rn == VI_OK && rf == VI_OK && e <= 2 &&
                    (contracts ? cf.jevals == 0 && cf.factorizations == 1 : cf.jevals > 0),
             "fixed-point, k = %g, LU %s (%s): rc %d %d, %.2g rtol from exact Newton's root, "
             "%ld Jacobians, %ld factorizations", k, vi_lu_precision_name(lu), VI_PREC_NAME,
             rn, rf, e, cf.jevals, cf.factorizations);
    printf("fixed-point, k = %g, LU %s (%s): root to %.2f rtol of exact Newton's in %ld "
           "iterations over 5 solves, %ld Jacobians, %ld factorizations\n", k,
           vi_lu_precision_name(lu), VI_PREC_NAME, e, cf.iters, cf.jevals, cf.factorizations);
  }
}

#endif
