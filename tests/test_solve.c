/* test_solve.c: the nonlinear solver's backends (core/solve_tmpl.c behind
 * the ops table of core/solve_impl_tmpl.h):
 *
 * - the built-in Newton in both precisions and KINSOL in double find the
 *   root of a small system (x0^2 = 2.385, x0 x1 = 1) to their tolerance,
 *   count their iterations and evaluations, pass a failing callback's own
 *   status through (recoverable and fatal), and report a singular Jacobian;
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
} prob;

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
  test_backend_d(c, VI_SOLVER_NEWTON);
  test_backend_d(c, VI_SOLVER_KINSOL);
  test_backend_q(c, VI_SOLVER_NEWTON);

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
  rc = vi_solver_alloc_q(&soq, 2, resjac_q, &(prob){0}, &sq);
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
  rc = vi_solver_alloc_d(&sod, 2, resjac_d, &(prob){0}, &sd);
  VI_CHECK(c, rc == VI_EINVAL && sd == NULL, "double kind 7: %d", rc);
  vi_solver_opts_default_q(&soq);
  soq.kind = 7;
  sq = NULL;
  rc = vi_solver_alloc_q(&soq, 2, resjac_q, &(prob){0}, &sq);
  VI_CHECK(c, rc == VI_EINVAL && sq == NULL, "quad kind 7: %d", rc);
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
    F[0] = x[0] * x[0] - VI_C(2.385);
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

static int VI_X(solve_once)(int kind, prob *pr, VI_REAL x[2], long cnt[3]) {
  VI_X(vi_solver_opts) so;
  VI_X(vi_solver_opts_default)(&so);
  so.kind = kind;
  VI_X(vi_solver) *s = NULL;
  int rc = VI_X(vi_solver_alloc)(&so, 2, VI_X(resjac), pr, &s);
  if (rc != VI_OK) {
    return rc;
  }
  VI_X(vi_solver_set_unit)(s, 1, VI_C(2.0));
  x[0] = VI_C(1.3);
  x[1] = VI_C(0.7);
  cnt[0] = cnt[1] = cnt[2] = 0;
  rc = VI_X(vi_solve)(s, x, &cnt[0], &cnt[1], &cnt[2]);
  VI_X(vi_solver_free)(s);
  return rc;
}

static void VI_X(test_backend)(vi_check_ctx *c, int kind) {
  const char *name = kind == VI_SOLVER_KINSOL ? "kinsol" : "newton";
  VI_REAL x[2];
  long cnt[3];
  prob pr = {0, 0, 0};
  int rc = VI_X(solve_once)(kind, &pr, x, cnt);
  VI_REAL r0 = vi_sqrt(VI_C(2.385));
  double e = (double)(vi_fabs(x[0] - r0) + vi_fabs(x[1] - 1 / r0));
  /* Converged with rtol = 100 eps: the error is a few eps after the last
   * (quadratically convergent) update. */
  VI_CHECK(c, rc == VI_OK && e <= (double)(200 * VI_EPS),
           "%s (%s): rc %d, error %.3e", name, VI_PREC_NAME, rc, e);
  VI_CHECK(c, cnt[0] >= 3 && cnt[0] <= 8 && cnt[1] >= cnt[0] && cnt[2] >= 1 &&
                  cnt[1] + cnt[2] >= pr.calls,
           "%s (%s): iterations %ld, F evaluations %ld, J evaluations %ld, calls %ld",
           name, VI_PREC_NAME, cnt[0], cnt[1], cnt[2], pr.calls);
  const long iters = cnt[0];
  for (int status = -4; status <= 5; status += 9) {
    prob bad = {status, 0, 0};
    rc = VI_X(solve_once)(kind, &bad, x, cnt);
    VI_CHECK(c, rc == status, "%s (%s): callback status %d came back as %d", name,
             VI_PREC_NAME, status, rc);
  }
  prob sing = {0, 1, 0};
  rc = VI_X(solve_once)(kind, &sing, x, cnt);
  VI_CHECK(c, kind == VI_SOLVER_KINSOL ? rc != VI_OK : rc == VI_SINGULAR,
           "%s (%s): singular Jacobian gave %d", name, VI_PREC_NAME, rc);
  printf("%s (%s): root to %.1e in %ld iterations; failing callbacks and a singular "
         "Jacobian reported\n",
         name, VI_PREC_NAME, e, iters);
}

#endif
