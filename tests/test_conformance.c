/* test_conformance.c: every method family x every compatible system x both
 * precisions, from the registries (a family or system added later is
 * covered without anyone remembering to add it; conformance suite):
 *   - each example spec of the family (vi_method_type.examples) runs 20
 *     steps through the fixed-step driver, and the holonomic constraint
 *     residual |g(q_k)| stays at round-off;
 *   - init solves as many intervals as the family declares (lookahead), and
 *     counts their Newton iterations;
 *   - it reaches every order the family declares for it
 *     (vi_method_type.expected_order) on a short order study with explicit
 *     step sizes, within 0.5 (the rule of the paper tables' tests);
 *   - a system whose force fails (grad V, grad H or the Lie form's group
 *     force; recoverably, then fatally) is reported with that status, never
 *     crashed on.
 * Pairs the family declares it cannot integrate (vi_method_compatible) are
 * counted and skipped. The precision-generic part is this same file,
 * included twice with VI_TEST_TMPL defined. */
#ifndef VI_TEST_TMPL

#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fit.h"
#include "vistudy.h"

enum { CN = 16 };

#define VI_TEST_TMPL
#include "prec.h"
#include "test_conformance.c"
#include "prec_undef.h"

#define VI_PREC_Q
#include "prec.h"
#include "test_conformance.c"
#include "prec_undef.h"
#undef VI_PREC_Q
#undef VI_TEST_TMPL

int main(void) {
  vi_check_ctx ctx = {0, 0};
  gsl_set_error_handler_off();
  int pairs = 0, skipped = 0;
  conformance_d(&ctx, &pairs, &skipped);
  conformance_q(&ctx, &pairs, &skipped);
  printf(
      "conformance: %d (family example, system, precision) cases, %d incompatible pairs "
      "skipped\n",
      pairs, skipped);
  VI_CHECK(&ctx, pairs > 0, "no compatible pair at all");
  return vi_check_done(&ctx, "conformance");
}

#else /* VI_TEST_TMPL: compiled once per precision */

/* Max |g(q_k)| over the run (the holonomic residual at the nodes). */
typedef struct VI_X(cf_obs) {
  const VI_X(vi_system) * sys;
  VI_REAL gmax, qmax;
} VI_X(cf_obs);

static int VI_X(cf_observe)(void *ctx, long k, const VI_X(vi_node) * nd) {
  VI_X(cf_obs) *o = ctx;
  VI_REAL g[CN];
  (void)k;
  if (o->sys->m > 0) {
    int rc = vi_callback_status(o->sys->type->holo->constraint(o->sys->state, nd->q, g));
    if (rc != VI_OK) {
      return rc;
    }
    VI_REAL r = VI_X(vi_norm_inf)(o->sys->m, g);
    o->gmax = r > o->gmax || r != r ? r : o->gmax;
  }
  VI_REAL qn = VI_X(vi_norm_inf)(o->sys->nq, nd->q);
  o->qmax = qn > o->qmax ? qn : o->qmax;
  return VI_OK;
}

static int VI_X(cf_fail_rec)(const void *st, const VI_REAL *q, VI_REAL *dV) {
  (void)st;
  (void)q;
  (void)dV;
  return 2;
}

static int VI_X(cf_fail_fatal)(const void *st, const VI_REAL *q, VI_REAL *dV) {
  (void)st;
  (void)q;
  (void)dV;
  return -2;
}

static int VI_X(cf_fail_rec_lie)(const void *st, const VI_REAL *g, const VI_REAL *xi,
                                 VI_REAL *F) {
  (void)st;
  (void)g;
  (void)xi;
  (void)F;
  return 2;
}

static int VI_X(cf_fail_fatal_lie)(const void *st, const VI_REAL *g, const VI_REAL *xi,
                                   VI_REAL *F) {
  (void)st;
  (void)g;
  (void)xi;
  (void)F;
  return -2;
}

/* The declared orders of spec on sys, measured by vi_order_study with explicit
 * step sizes h = 1/32 .. 1/256 (T = 0.5): small enough for the fastest
 * default motion (the 3D double pendulum) to be asymptotic. */
static void VI_X(cf_orders)(vi_check_ctx *c, const char *spec, const char *sysname,
                            const VI_X(vi_stepper) * st) {
  static const long Ns[] = {16, 32, 64, 128}; /* h = T/N = 1/32 .. 1/256 */
  static const char *const qn[VI_NQUANT + 1] = {"q", "p", "lambda", "energy"};
  int want[VI_NQUANT + 1], any_state = 0;
  for (int x = 0; x <= VI_NQUANT; x++) {
    want[x] = VI_X(vi_stepper_expected_order)(st, x);
    any_state |= x < VI_NQUANT && want[x] >= 0;
  }
  if (!any_state && want[VI_NQUANT] < 0) {
    return;
  }
  vi_order_config a = {0};
  a.system = sysname;
  a.method = spec;
  a.T = 0.5;
  a.solver.kind = VI_SOLVER_NEWTON;
  a.nN = 4;
  for (int i = 0; i < 4; i++) {
    a.N[i] = Ns[i];
  }
  a.measure = any_state ? VI_MEASURE_STATE : VI_MEASURE_ENERGY;
  a.energy_only = !any_state;
  vi_order_result *r = calloc(1, sizeof *r);
  char err[512] = "";
  int rc = r ? VI_X(vi_order_study)(&a, r, err, sizeof err) : VI_ENOMEM;
  VI_CHECK(c, rc == VI_OK, "%s on %s (%s): order study failed: %s", spec, sysname,
           VI_PREC_NAME, err);
  for (int x = 0; rc == VI_OK && x <= VI_NQUANT; x++) {
    if (want[x] < 0) {
      continue;
    }
    const double *e = x < VI_NQUANT ? r->err[x] : r->energy_err;
    const double fl = x < VI_NQUANT ? r->floor[x] : r->energy_floor;
    vi_fit f = vi_fit_order(r->nh, r->h, e, fl, 10.0);
#ifndef VI_PREC_Q
    /* A high order on a slow motion reaches the floor of double within
     * these steps (e.g. Gauss s = 3 on the point vortices): the quad pass
     * of the same pair checks it, and there it must resolve. */
    if ((f.status == VI_FIT_PLATEAU || f.status == VI_FIT_TOO_FEW) && want[x] > 0 &&
        e[0] <= 1e4 * fl) {
      printf("  %s on %s (%s): %s at the floor of double (%.2e .. %.2e): checked in quad\n",
             spec, sysname, VI_PREC_NAME, qn[x], e[0], e[3]);
      continue;
    }
#endif
    /* VI_ORDER_NONE: the paper says it does not converge; the verdict must
     * be 'd', never a slope. */
    int ok = want[x] == VI_ORDER_NONE
                 ? f.status == VI_FIT_DIVERGENT
                 : f.status == VI_FIT_OK && fabs(f.order - want[x]) <= 0.5;
    VI_CHECK(c, ok,
             "%s on %s (%s): %s order %.2f (status %d), declared %d; errors %.2e .. %.2e",
             spec, sysname, VI_PREC_NAME, qn[x], f.order, f.status, want[x], e[0], e[3]);
    if (want[x] == VI_ORDER_NONE) {
      printf("  %s on %s (%s): %s %s, declared: does not converge\n", spec, sysname,
             VI_PREC_NAME, qn[x], f.status == VI_FIT_DIVERGENT ? "d" : "converges");
    } else {
      printf("  %s on %s (%s): %s order %.2f, declared %d\n", spec, sysname, VI_PREC_NAME,
             qn[x], f.status == VI_FIT_OK ? f.order : NAN, want[x]);
    }
  }
  free(r);
}

static void VI_X(conformance)(vi_check_ctx *c, int *pairs, int *skipped) {
  for (int f = 0; VI_X(vi_method_types)[f]; f++) {
    const VI_X(vi_method_type) *mt = VI_X(vi_method_types)[f];
    VI_CHECK(c, mt->examples != NULL && mt->examples[0] != NULL,
             "family %s declares no example spec", mt->name);
    for (int i = 0; VI_X(vi_system_types)[i]; i++) {
      const VI_X(vi_system_type) *t = VI_X(vi_system_types)[i];
      if (!VI_X(vi_method_compatible)(mt, t, NULL, 0)) {
        (*skipped)++;
        continue;
      }
      for (int e = 0; mt->examples && mt->examples[e]; e++) {
        const char *spec = mt->examples[e];
        char err[512] = "";
        VI_X(vi_system) *sys = NULL;
        VI_X(vi_stepper) *st = NULL;
        int rc = VI_X(vi_system_alloc)(t, 0, NULL, &sys, err, sizeof err);
        if (rc == VI_OK) {
          rc = VI_X(vi_stepper_alloc)(spec, sys, &st, err, sizeof err);
        }
        VI_CHECK(c, rc == VI_OK, "%s on %s (%s): %s", spec, t->info->name, VI_PREC_NAME,
                 err);
        if (rc != VI_OK || sys->nq > CN || sys->ml > CN) {
          VI_X(vi_stepper_free)(st);
          VI_X(vi_system_free)(sys);
          continue;
        }
        (*pairs)++;
        /* It runs, and keeps g at round-off. */
        VI_REAL buf[3 * CN];
        VI_X(vi_node) nd = {0, buf, buf + sys->nq, buf + sys->nq + sys->n};
        VI_X(cf_obs) o = {sys, 0, 1};
        rc = VI_X(vi_integrate)(st, NULL, VI_C(0.05), 20, sys->q0, sys->p0, &nd,
                                VI_X(cf_observe), &o, NULL);
        VI_REAL tol = 1e4 * VI_EPS * (o.qmax > 1 ? o.qmax * o.qmax : 1);
        VI_CHECK(c, rc == VI_OK && o.gmax <= tol,
                 "%s on %s (%s): run %s, |g| = %.1e (tol %.1e)", spec, t->info->name,
                 VI_PREC_NAME, vi_strerror(rc), (double)o.gmax, (double)tol);
        /* The declared look-ahead: init solves that many intervals, and
         * their Newton work is counted before any step. */
        {
          rc = VI_X(vi_stepper_init)(st, NULL, VI_C(0.05), 0, sys->q0, sys->p0, &nd);
          const VI_X(vi_stats) *ss = VI_X(vi_stepper_stats)(st);
          VI_CHECK(
              c,
              rc == VI_OK && ss->steps == 0 &&
                  (mt->lookahead > 0 ? ss->newton_iters > 0 : ss->newton_iters == 0),
              "%s on %s (%s): look-ahead %d but %ld Newton iterations counted by init",
              spec, t->info->name, VI_PREC_NAME, mt->lookahead, ss->newton_iters);
        }
        /* Its declared orders. */
        VI_X(cf_orders)(c, spec, t->info->name, st);
        VI_X(vi_stepper_free)(st);
        VI_X(vi_system_free)(sys);

        /* A failing force (grad V, grad H or the group force) is reported
         * with its sign, not crashed on. */
        for (int fatal = 0; fatal < 2; fatal++) {
          VI_X(vi_system_type) bt = *t;
          VI_X(vi_mech_ops) bm;
          VI_X(vi_degen_ops) bd;
          VI_X(vi_lie_ops) bl;
          if (t->mech) {
            bm = *t->mech;
            bm.grad_potential = fatal ? VI_X(cf_fail_fatal) : VI_X(cf_fail_rec);
            bt.mech = &bm;
          } else if (t->degen) {
            bd = *t->degen;
            bd.grad_hamiltonian = fatal ? VI_X(cf_fail_fatal) : VI_X(cf_fail_rec);
            bt.degen = &bd;
          } else {
            bl = *t->lie;
            bl.force = fatal ? VI_X(cf_fail_fatal_lie) : VI_X(cf_fail_rec_lie);
            bt.lie = &bl;
          }
          sys = NULL;
          st = NULL;
          rc = VI_X(vi_system_alloc)(&bt, 0, NULL, &sys, err, sizeof err);
          if (rc == VI_OK) {
            rc = VI_X(vi_stepper_alloc)(spec, sys, &st, err, sizeof err);
          }
          /* The failure must come from the run, not from setting it up. */
          VI_CHECK(c, rc == VI_OK, "%s on %s (%s): the broken copy could not be set up: %s",
                   spec, t->info->name, VI_PREC_NAME, err);
          if (rc == VI_OK) {
            rc = VI_X(vi_integrate)(st, NULL, VI_C(0.05), 5, sys->q0, sys->p0, &nd, NULL,
                                    NULL, NULL);
          }
          VI_CHECK(c, fatal ? rc < 0 : rc > 0,
                   "%s on %s (%s): a %s grad V gave status %d (%s)", spec, t->info->name,
                   VI_PREC_NAME, fatal ? "fatally failing" : "recoverably failing", rc,
                   vi_strerror(rc));
          VI_X(vi_stepper_free)(st);
          VI_X(vi_system_free)(sys);
        }
      }
    }
  }
}

#endif /* VI_TEST_TMPL */
