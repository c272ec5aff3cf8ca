/* test_man2020_systems.c: what the generic checks of test_systems.c cannot
 * see in the systems of man2020 §4.2 and §4.4, in both precisions.
 *
 * - spring-pendulum, (50)-(52) with held-out parameters: the sign of the
 *   potential (gravity along +q4): H(q0, 0) = -m2 g q4(0), and from rest the
 *   bob falls (q4 grows), swings in (q3 falls) and pulls A along +q1.
 * - six-balls, (57)-(61): the defaults start at rest, where the generic
 *   d/dt checks of the momentum maps are empty. Here from moving states:
 *   a point-symmetric one (v_{7-i} = -v_i, built along the bars so
 *   G v0 = 0) keeps the angular momentum (60) and the antisymmetry
 *   quantities (61) along the exact flow (the index-1 reference of
 *   core/reference_rk8pd.c, double) and along a Galerkin run (wenger2017
 *   s = w = 2, Gauss r = 2; both precisions) at round-off; a non-symmetric
 *   one keeps (60) but visibly not (61), so (61) is a property of the data,
 *   not an identity of the callback. */
#ifndef VI_TEST_TMPL

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "vistudy.h"

enum { SBN = 12, SBM = 5, STEPS = 200 };

#define VI_TEST_TMPL
#include "prec.h"
#include "test_man2020_systems.c"
#include "prec_undef.h"

#define VI_PREC_Q
#include "prec.h"
#include "test_man2020_systems.c"
#include "prec_undef.h"

int main(void) {
  vi_check_ctx ctx = {0, 0};
  test_spring_d(&ctx);
  test_spring_q(&ctx);
  test_six_balls_d(&ctx, 1);
  test_six_balls_q(&ctx, 0);
  return vi_check_done(&ctx, "man2020-systems");
}

#else /* VI_TEST_TMPL: compiled once per precision */

static const VI_X(vi_system_type) *VI_X(find)(const char *name) {
  char err[256];
  const VI_X(vi_system_type) *t = VI_X(vi_system_find)(name, err, sizeof err);
  if (t == NULL) {
    fprintf(stderr, "%s\n", err);
    exit(2);
  }
  return t;
}

/* Galerkin s = w = 2, Gauss r = 2 for STEPS steps of h from the system's
 * own data; q, p are (STEPS+1) x n. */
static int VI_X(run)(const VI_X(vi_system) *sys, VI_REAL h, VI_REAL *q,
                     VI_REAL *p) {
  char err[256];
  VI_X(vi_stepper) *st = NULL;
  int rc = VI_X(vi_stepper_alloc)("galerkin:s=2,w=2,quadL=gauss,r=2", sys,
                                  &st, err, sizeof err);
  if (rc != VI_OK) {
    fprintf(stderr, "%s\n", err);
    return rc;
  }
  VI_X(vi_solver_opts) so;
  VI_X(vi_solver_opts_default)(&so);
  VI_REAL lam[SBM];
  VI_X(vi_node) nd = {0, q, p, lam, NULL, NULL}; /* stored in place; no extra block */
  rc = VI_X(vi_stepper_init)(st, &so, h, 0, sys->q0, sys->p0, &nd);
  for (int k = 1; rc == VI_OK && k <= STEPS; k++) {
    nd.q = q + (size_t)k * sys->n;
    nd.p = p + (size_t)k * sys->n;
    rc = VI_X(vi_stepper_step)(st, &nd);
  }
  VI_X(vi_stepper_free)(st);
  return rc;
}

static void VI_X(test_spring)(vi_check_ctx *c) {
  static const char *const set[] = {"m1=0.71", "m2=1.37", "gravity=2.9",
                                     "k2=0.83", "k4=1.9"};
  char err[512] = "";
  VI_X(vi_system) *sys = NULL;
  int rc = VI_X(vi_system_alloc)(VI_X(find)("spring-pendulum"), 5, set, &sys,
                                 err, sizeof err);
  VI_CHECK(c, rc == VI_OK, "spring-pendulum %s: %s", VI_PREC_NAME, err);
  if (rc != VI_OK) {
    return;
  }
  VI_REAL E = 0;
  VI_X(vi_system_energy)(sys, sys->q0, sys->p0, &E);
  const VI_REAL want = -VI_C(1.37) * VI_C(2.9) * vi_sqrt(VI_C(0.5));
  VI_CHECK(c, vi_fabs(E - want) <= 10 * VI_EPS,
           "spring-pendulum %s: H(q0) = %.17g, want -m2 g sqrt2/2 = %.17g",
           VI_PREC_NAME, (double)E, (double)want);
  static VI_REAL q[(STEPS + 1) * 4], p[(STEPS + 1) * 4];
  rc = VI_X(run)(sys, VI_C(0.01), q, p);
  VI_CHECK(c, rc == VI_OK, "spring-pendulum %s: run %d", VI_PREC_NAME, rc);
  /* After 0.05 s (5 steps). */
  const VI_REAL *q5 = q + 5 * 4;
  VI_CHECK(c, rc == VI_OK && q5[3] > sys->q0[3] && q5[2] < sys->q0[2] &&
                  q5[0] > 0,
           "spring-pendulum %s: from rest q = (%g, %g, %g, %g): the bob "
           "should fall along +q4 and pull A along +q1",
           VI_PREC_NAME, (double)q5[0], (double)q5[1], (double)q5[2],
           (double)q5[3]);
  VI_X(vi_system_free)(sys);
}

/* Consistent six-balls velocities built along the chain: each bar turns,
 * v_{i+1} = v_i + beta_i J d_i with d_i = b_{i+1} - b_i and J the rotation
 * by 90 degrees, so (58) stays satisfied to first order (G v = 0). With
 * symmetric != 0 the data are point-symmetric: v3 = -beta_3/2 J d_3 so
 * v4 = -v3, and v5 = -v2, v6 = -v1 (d_5 = d_1, d_4 = d_2 at a symmetric
 * q0). */
static void VI_X(chain_v0)(const VI_REAL *q0, int symmetric, VI_REAL *v) {
  static const VI_REAL beta[SBM] = {VI_C(0.7), VI_C(-0.4), VI_C(1.1),
                                    VI_C(0.3), VI_C(-0.9)};
  VI_REAL Jd[SBM][2];
  for (int i = 0; i < SBM; i++) {
    Jd[i][0] = -(q0[2 * i + 3] - q0[2 * i + 1]);
    Jd[i][1] = q0[2 * i + 2] - q0[2 * i];
  }
  if (symmetric) {
    for (int e = 0; e < 2; e++) {
      v[4 + e] = -beta[2] / 2 * Jd[2][e];
      v[2 + e] = v[4 + e] - beta[1] * Jd[1][e];
      v[e] = v[2 + e] - beta[0] * Jd[0][e];
      v[6 + e] = -v[4 + e];
      v[8 + e] = -v[2 + e];
      v[10 + e] = -v[e];
    }
    return;
  }
  v[0] = VI_C(0.29);
  v[1] = VI_C(-0.43);
  for (int i = 0; i < SBM; i++) {
    for (int e = 0; e < 2; e++) {
      v[2 * i + 2 + e] = v[2 * i + e] + beta[i] * Jd[i][e];
    }
  }
}

/* Largest |J_k - J_k(0)| over the trajectory, for each of the 3 maps. */
static void VI_X(drift)(const VI_X(vi_system) *sys, int K, const VI_REAL *q,
                        const VI_REAL *p, VI_REAL *d) {
  VI_REAL J0[3], J[3];
  sys->type->obs->momenta(sys->state, q, p, J0);
  d[0] = d[1] = d[2] = 0;
  for (int k = 0; k <= K; k++) {
    sys->type->obs->momenta(sys->state, q + (size_t)k * SBN, p + (size_t)k * SBN,
                       J);
    for (int i = 0; i < 3; i++) {
      VI_REAL e = vi_fabs(J[i] - J0[i]);
      d[i] = e > d[i] ? e : d[i];
    }
  }
}

static void VI_X(test_six_balls)(vi_check_ctx *c, int with_reference) {
  const VI_X(vi_system_type) *t = VI_X(find)("six-balls");
  const char *pn = VI_PREC_NAME;
  char err[512] = "";
  VI_X(vi_system) *def = NULL;
  int rc = VI_X(vi_system_alloc)(t, 0, NULL, &def, err, sizeof err);
  VI_CHECK(c, rc == VI_OK, "six-balls %s: %s", pn, err);
  if (rc != VI_OK) {
    return;
  }
  /* (61) is measured from the initial data: zero there. */
  VI_REAL J[3];
  t->obs->momenta(def->state, def->q0, def->p0, J);
  VI_CHECK(c, vi_fabs(J[1]) <= 10 * VI_EPS && vi_fabs(J[2]) <= 10 * VI_EPS,
           "six-balls %s: (61) at q0 = %.1e, %.1e", pn, (double)J[1],
           (double)J[2]);
  static VI_REAL q[(STEPS + 1) * SBN], p[(STEPS + 1) * SBN];
  static VI_REAL Q[(STEPS + 1) * SBN], P[(STEPS + 1) * SBN],
      L[(STEPS + 1) * SBM];
  const VI_REAL h = VI_C(0.05);
  for (int symmetric = 1; symmetric >= 0; symmetric--) {
    VI_REAL v[SBN];
    VI_X(chain_v0)(def->q0, symmetric, v);
    char set[1024], num[64];
    size_t used = (size_t)snprintf(set, sizeof set, "v0=");
    for (int i = 0; i < SBN; i++) {
      VI_X(vi_format_real)(num, sizeof num, v[i]);
      used += (size_t)snprintf(set + used, sizeof set - used, "%s%s",
                               i ? "," : "", num);
    }
    const char *sets[1] = {set};
    VI_X(vi_system) *sys = NULL;
    rc = VI_X(vi_system_alloc)(t, 1, sets, &sys, err, sizeof err);
    VI_CHECK(c, rc == VI_OK, "six-balls %s: moving data: %s", pn, err);
    if (rc != VI_OK) {
      continue;
    }
    t->obs->momenta(sys->state, sys->q0, sys->p0, J);
    VI_REAL ps = VI_X(vi_norm_inf)(SBN, sys->p0);
    /* Round-off of a sum of 12 products of size |q| |p| <= 3 |p|, a few
     * hundred steps each within the Newton tolerance (100 eps). */
    const VI_REAL tol = 100 * STEPS * VI_EPS * 3 * ps;
    VI_REAL d[3];
    rc = VI_X(run)(sys, h, q, p);
    VI_CHECK(c, rc == VI_OK, "six-balls %s: run %d", pn, rc);
    VI_X(drift)(sys, STEPS, q, p, d);
    printf("six-balls %s, %s v0 (Jz = %.6f): galerkin over [0, %g]: drift of "
           "Jz %.1e, of (61) %.1e %.1e\n",
           pn, symmetric ? "point-symmetric" : "non-symmetric", (double)J[0],
           (double)(STEPS * h), (double)d[0], (double)d[1], (double)d[2]);
    VI_CHECK(c, J[0] != 0 && d[0] <= tol, "six-balls %s: Jz drift %.1e > %.1e",
             pn, (double)d[0], (double)tol);
    if (symmetric) {
      VI_CHECK(c, d[1] <= tol && d[2] <= tol,
               "six-balls %s: (61) drift %.1e %.1e > %.1e", pn, (double)d[1],
               (double)d[2], (double)tol);
    } else {
      VI_CHECK(c, d[1] > VI_C(1e-3) && d[2] > VI_C(1e-3),
               "six-balls %s: (61) should not hold for non-symmetric data: "
               "%.1e %.1e",
               pn, (double)d[1], (double)d[2]);
    }
    if (with_reference) {
      VI_X(vi_reference_info) info;
      rc = VI_X(vi_reference)(sys, h, STEPS, Q, P, L, NULL, &info, err,
                              sizeof err);
      VI_CHECK(c, rc == VI_OK, "six-balls %s: reference: %s", pn, err);
      if (rc == VI_OK) {
        VI_X(drift)(sys, STEPS, Q, P, d);
        printf("  exact flow (%s, accuracy %.1e): drift of Jz %.1e, of (61) "
               "%.1e %.1e\n",
               info.method, info.accuracy, (double)d[0], (double)d[1],
               (double)d[2]);
        VI_REAL rt = 100 * info.accuracy * ps;
        VI_CHECK(c, d[0] <= rt && (!symmetric || (d[1] <= rt && d[2] <= rt)),
                 "six-balls %s: exact flow drift %.1e %.1e %.1e > %.1e", pn,
                 (double)d[0], (double)d[1], (double)d[2], (double)rt);
      }
    }
    VI_X(vi_system_free)(sys);
  }
  VI_X(vi_system_free)(def);
}

#endif /* VI_TEST_TMPL */
