/* test_systems.c: every registered system type in both precisions
 * (systems/systems.def through vi_system_types_d and _q): allocation from
 * the defaults, vi_system_check of every hand-written derivative against
 * finite differences, the energy, hidden constraint, projection (4) and
 * multiplier (70) of wenger2017 (the latter against the time derivative of
 * the hidden constraint along the index-1 flow), energy and momentum maps
 * as first integrals of that flow, the mass services and the dGv
 * fallback, bad parameter input and inconsistent initial data
 * (constructed and deliberately broken systems are
 * test_system_services.c's). For
 * the planar pendulum, wenger2017 (69), the exact solution is checked
 * against the constraints, the energy, (70), GSL's rk8pd on the index-1 ODE
 * and a quad-precision RK4 reference with Richardson extrapolation; its
 * quad variant (Jacobi elliptic functions by A&S 16.4) against the double
 * one (GSL), the invariants and (70) at quad round-off, and an independent
 * quad integration (the s = 8 Gauss IRK of core/reference_irk.c) on [0, 10].
 *
 * The precision-generic part is this same file, included twice below with
 * VI_TEST_TMPL defined (once per precision, as the library's *_tmpl code
 * is compiled), so that no test is written twice. */
#ifndef VI_TEST_TMPL

#include <gsl/gsl_errno.h>
#include <gsl/gsl_odeiv2.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "vistudy.h"

/* Largest system the test handles with fixed-size arrays (no VLAs). */
enum { TN = 16 };

static int contains(const char *s, const char *sub) {
  return s != NULL && sub != NULL && strstr(s, sub) != NULL;
}

/* Whether momentum map k is a first integral for every datum: a Noether
 * quantity or another first integral the system marks (momenta_conserved).
 * Only those are asserted conserved; an unmarked map (pendulum-3d's Jx, Jy,
 * the turntable's for a = b = c only, six-balls' (61) for symmetric data)
 * is checked finite and not a stub. */
static int map_kept(const vi_system_info *info, int k) {
  return ((info->momenta_noether | info->momenta_conserved) >> k) & 1u;
}

#define VI_TEST_TMPL
#include "prec.h"
#include "test_systems.c"
#include "prec_undef.h"

#define VI_PREC_Q
#include "prec.h"
#include "test_systems.c"
#include "prec_undef.h"

/* ---- double only: the exact pendulum against independent references ---- */

typedef struct ode_ctx {
  const vi_system_d *sys;
  int failed;
} ode_ctx;

static int ode_rhs(double t, const double y[], double dydt[], void *params) {
  ode_ctx *o = params;
  int n = o->sys->n;
  double a[TN], v[TN], lam[TN], M[TN * TN];
  if (accel_d(o->sys, y, y + n, v, a, lam) != VI_OK || vi_system_mass_d(o->sys, y, M) != VI_OK) {
    o->failed = 1;
    return GSL_EBADFUNC;
  }
  for (int i = 0; i < n; i++) {
    dydt[i] = v[i];
    double f = 0;
    for (int j = 0; j < n; j++) {
      f += M[i * n + j] * a[j];
    }
    dydt[n + i] = f;
  }
  return GSL_SUCCESS;
}

static double max_abs_diff(int k, const double *a, const double *b) {
  double e = 0;
  for (int i = 0; i < k; i++) {
    double d = fabs(a[i] - b[i]);
    e = d > e ? d : e;
  }
  return e;
}

/* The exact solution of the pendulum with these overrides against (a) GSL's
 * rk8pd at rtol = atol = 1e-13 on the index-1 ODE q' = M^-1 p,
 * p' = -grad V - G' lambda(q, p) and (b) the same ODE in quad precision by
 * RK4 with Richardson extrapolation, which is accurate far beyond double
 * and so measures the error of the double exact solution itself. */
static void test_pendulum_reference(vi_check_ctx *c, int nset,
                                    const char *const *set,
                                    const char *label) {
  char err[512] = "";
  vi_system_d *sd = NULL;
  vi_system_q *sq = NULL;
  int rc = vi_system_alloc_d(pendulum_d(), nset, set, &sd, err,
                             sizeof err);
  VI_CHECK(c, rc == VI_OK, "pendulum %s: alloc double: %s", label, err);
  rc = vi_system_alloc_q(pendulum_q(), nset, set, &sq, err,
                         sizeof err);
  VI_CHECK(c, rc == VI_OK, "pendulum %s: alloc quad: %s", label, err);
  if (sd == NULL || sq == NULL) {
    vi_system_free_d(sd);
    vi_system_free_q(sq);
    return;
  }
  int n = sd->n, m = sd->m;
  const double T = 3;

  /* (a) rk8pd. */
  ode_ctx o = {sd, 0};
  gsl_odeiv2_system ode = {ode_rhs, NULL, (size_t)(2 * n), &o};
  gsl_odeiv2_driver *drv = gsl_odeiv2_driver_alloc_y_new(
      &ode, gsl_odeiv2_step_rk8pd, 1e-3, 1e-13, 1e-13);
  double y[2 * TN];
  memcpy(y, sd->q0, (size_t)n * sizeof *y);
  memcpy(y + n, sd->p0, (size_t)n * sizeof *y);
  double t = 0;
  double eq = 0, ep = 0, el = 0;
  for (int k = 1; k <= 12; k++) {
    double t1 = T * k / 12;
    int grc = gsl_odeiv2_driver_apply(drv, &t, t1, y);
    VI_CHECK(c, grc == GSL_SUCCESS && !o.failed,
             "pendulum %s: rk8pd failed at t = %g (%d)", label, t, grc);
    if (grc != GSL_SUCCESS) {
      break;
    }
    double q[TN], p[TN], lam[TN], lref[TN], v[TN], a[TN];
    rc = sd->type->obs->exact(sd->state, t1, q, p, lam);
    VI_CHECK(c, rc == VI_OK, "pendulum %s: exact failed", label);
    accel_d(sd, y, y + n, v, a, lref);
    double e = max_abs_diff(n, q, y);
    eq = e > eq ? e : eq;
    e = max_abs_diff(n, p, y + n);
    ep = e > ep ? e : ep;
    e = max_abs_diff(m, lam, lref);
    el = e > el ? e : el;
  }
  gsl_odeiv2_driver_free(drv);
  printf("planar-pendulum %s: exact vs rk8pd (tol 1e-13) on [0, 3]: "
         "max |dq| %.1e, |dp| %.1e, |dlambda| %.1e\n",
         label, eq, ep, el);
  double lscale = fabs(sd->par[0] * sd->par[2] / sd->par[1]);
  VI_CHECK(c, eq < 1e-11 && ep < 1e-10 && el < 1e-10 * lscale,
           "pendulum %s: exact vs rk8pd: %.1e %.1e %.1e", label, eq, ep, el);

  /* (b) quad RK4 at the step counts N, 2N, 4N, 8N, extrapolated by
   * Richardson's table on the global error expansion h^4, h^5, h^6
   * (Hairer, Norsett, Wanner I, §II.8); the last correction estimates the
   * error of the reference. */
  enum { NOUT = 6, NLEV = 4 };
  __float128 ys[NLEV][NOUT][2 * TN];
  int N = 6000;
  for (int lev = 0; lev < NLEV; lev++) {
    rk4_q(sq, T, N << lev, NOUT, ys[lev]);
  }
  double eref = 0, dq = 0, dp = 0, dl = 0;
  for (int j = 0; j < NOUT; j++) {
    __float128 R[NLEV][NLEV][2 * TN], r2[2 * TN];
    for (int i = 0; i < 2 * n; i++) {
      for (int lev = 0; lev < NLEV; lev++) {
        R[lev][0][i] = ys[lev][j][i];
        for (int col = 1; col <= lev; col++) {
          __float128 f = (__float128)(1 << (3 + col)) - 1;
          R[lev][col][i] = R[lev][col - 1][i] +
                           (R[lev][col - 1][i] - R[lev - 1][col - 1][i]) / f;
        }
      }
      r2[i] = R[NLEV - 1][NLEV - 1][i];
      double e = (double)fabsq(r2[i] - R[NLEV - 1][NLEV - 2][i]);
      eref = e > eref ? e : eref;
    }
    double q[TN], p[TN], lam[TN];
    double t1 = T * (j + 1) / NOUT;
    sd->type->obs->exact(sd->state, t1, q, p, lam);
    __float128 vq[TN], aq[TN], lq[TN];
    accel_q(sq, r2, r2 + n, vq, aq, lq);
    for (int i = 0; i < n; i++) {
      double e = fabs(q[i] - (double)r2[i]);
      dq = e > dq ? e : dq;
      e = fabs(p[i] - (double)r2[n + i]);
      dp = e > dp ? e : dp;
    }
    for (int k = 0; k < m; k++) {
      double e = fabs(lam[k] - (double)lq[k]);
      dl = e > dl ? e : dl;
    }
  }
  printf("planar-pendulum %s: exact vs quad RK4-Richardson reference "
         "(its own error %.1e): max |dq| %.1e, |dp| %.1e, |dlambda| %.1e\n",
         label, eref, dq, dp, dl);
  double pscale = fabs(sd->par[0] * sd->par[1]) * 4 * sqrt(sd->par[2] /
                                                          sd->par[1]);
  VI_CHECK(c, eref < 1e-17, "pendulum %s: quad reference not converged (%.1e)",
           label, eref);
  VI_CHECK(c, dq < 2e-14 * sd->par[1] && dp < 2e-14 * pscale &&
                  dl < 2e-14 * lscale * 3,
           "pendulum %s: exact vs quad reference: %.1e %.1e %.1e", label, dq,
           dp, dl);
  vi_system_free_d(sd);
  vi_system_free_q(sq);
}

static void test_pendulum_special(vi_check_ctx *c) {
  char err[512] = "";
  vi_system_d *s = NULL;
  /* Resting: k = 0, the pendulum hangs still with lambda = m gravity / l. */
  const char *rest[] = {"m=1.37", "l=0.83", "phi0=0", "omega0=0"};
  int rc = vi_system_alloc_d(pendulum_d(), 4, rest, &s, err,
                             sizeof err);
  VI_CHECK(c, rc == VI_OK, "resting pendulum: %s", err);
  if (s != NULL) {
    double q[2], p[2], lam[1];
    rc = s->type->obs->exact(s->state, 2.7, q, p, lam);
    VI_CHECK(c, rc == VI_OK && q[0] == 0 && fabs(q[1] + 0.83) < 1e-15 &&
                    p[0] == 0 && p[1] == 0 &&
                    fabs(lam[0] - 1.37 * 9.81 / 0.83) < 1e-13,
             "resting pendulum exact: rc %d q (%g, %g) p (%g, %g) lambda %g",
             rc, q[0], q[1], p[0], p[1], lam[0]);
    vi_system_free_d(s);
  }
  /* Rotation (k > 1) is not implemented and must say so. */
  const char *rot[] = {"omega0=10"};
  s = NULL;
  rc = vi_system_alloc_d(pendulum_d(), 1, rot, &s, err,
                         sizeof err);
  VI_CHECK(c, rc == VI_OK, "rotating pendulum: %s", err);
  if (s != NULL) {
    double q[2], p[2], lam[1];
    rc = s->type->obs->exact(s->state, 1.0, q, p, lam);
    VI_CHECK(c, rc == VI_EUNSUPPORTED, "rotating pendulum exact gave %d", rc);
    vi_system_free_d(s);
  }
  /* Both variants have the exact solution (GSL in double, A&S 16.4 in
   * quad). */
  VI_CHECK(c, vi_type_has_exact_q(pendulum_q()) && vi_type_has_exact_d(pendulum_d()),
           "planar pendulum: exact advertised wrongly");
  /* The quad variant's resting and rotating cases. */
  vi_system_q *sq = NULL;
  rc = vi_system_alloc_q(pendulum_q(), 4, rest, &sq, err, sizeof err);
  VI_CHECK(c, rc == VI_OK, "resting pendulum (quad): %s", err);
  if (sq != NULL) {
    __float128 q[2], p[2], lam[1];
    rc = sq->type->obs->exact(sq->state, 2.7Q, q, p, lam);
    VI_CHECK(c, rc == VI_OK && q[0] == 0 && fabsq(q[1] + 0.83Q) < 1e-33Q &&
                    p[0] == 0 && p[1] == 0 &&
                    fabsq(lam[0] - 1.37Q * 9.81Q / 0.83Q) < 1e-31Q,
             "resting pendulum exact (quad): rc %d lambda %g", rc,
             (double)lam[0]);
    vi_system_free_q(sq);
  }
  sq = NULL;
  rc = vi_system_alloc_q(pendulum_q(), 1, rot, &sq, err, sizeof err);
  if (sq != NULL) {
    __float128 q[2], p[2], lam[1];
    rc = sq->type->obs->exact(sq->state, 1.0Q, q, p, lam);
    VI_CHECK(c, rc == VI_EUNSUPPORTED,
             "rotating pendulum exact (quad) gave %d", rc);
    vi_system_free_q(sq);
  }
}

/* The quad exact pendulum (A&S 16.4) on t = k/20, k = 0..200: against the
 * double one (GSL), whose own error is a few 1e-14 (see
 * test_pendulum_reference); energy, g = 0 and G v = 0 at quad round-off;
 * lambda against (70) at the exact state; and, when irk is set, against an
 * independent quad integration of the index-1 form (vi_reference_q on a
 * copy of the type without the exact solution: the s = 8 Gauss IRK). */
static void test_pendulum_quad(vi_check_ctx *c, int nset,
                               const char *const *set, const char *label,
                               int irk) {
  char err[512] = "";
  vi_system_d *sd = NULL;
  vi_system_q *sq = NULL, *sn = NULL;
  vi_system_type_q ntype = *pendulum_q();
  ntype.obs = NULL; /* no exact solution: the reference integrates */
  enum { NK = 200 };
  const __float128 h = 0.05Q;
  __float128 *R = NULL;
  int rc = vi_system_alloc_d(pendulum_d(), nset, set, &sd, err, sizeof err);
  if (rc == VI_OK) {
    rc = vi_system_alloc_q(pendulum_q(), nset, set, &sq, err, sizeof err);
  }
  if (rc == VI_OK) {
    rc = vi_system_alloc_q(&ntype, nset, set, &sn, err, sizeof err);
  }
  R = malloc((NK + 1) * 5 * sizeof *R);
  VI_CHECK(c, rc == VI_OK && R != NULL, "pendulum %s (quad): %s", label,
           err);
  if (rc != VI_OK || R == NULL) {
    goto done;
  }
  const __float128 m = sq->par[0], l = sq->par[1], grav = sq->par[2];
  const __float128 eps = FLT128_EPSILON;
  __float128 E0 = 0;
  vi_system_energy_q(sq, sq->q0, sq->p0, &E0);
  /* Scales: |q| = l, |p| <= m l w 2k <= 2 m sqrt(g l), lambda ~ m g / l. */
  double qsc = (double)l, psc = 2 * (double)(m * sqrtq(grav * l));
  double lsc = (double)(m * grav / l);
  double dq = 0, dp = 0, dl = 0, eE = 0, eg = 0, egv = 0, el = 0;
  __float128 *Q = R, *P = Q + (NK + 1) * 2, *L = P + (NK + 1) * 2;
  for (int k = 0; k <= NK; k++) {
    __float128 t = (__float128)k * h;
    __float128 *q = Q + 2 * k, *p = P + 2 * k, *lam = L + k;
    double qd[2], pd[2], ld[1];
    int r1 = sq->type->obs->exact(sq->state, t, q, p, lam);
    int r2 = sd->type->obs->exact(sd->state, (double)t, qd, pd, ld);
    VI_CHECK(c, r1 == VI_OK && r2 == VI_OK, "pendulum %s: exact at %g",
             label, (double)t);
    __float128 E = 0, g = 0, gv = 0, lref = 0;
    vi_system_energy_q(sq, q, p, &E);
    sq->type->holo->constraint(sq->state, q, &g);
    vi_system_hidden_q(sq, q, p, &gv);
    vi_system_lambda_q(sq, q, p, &lref);
    for (int i = 0; i < 2; i++) {
      dq = fmax(dq, fabs(qd[i] - (double)q[i]) / qsc);
      dp = fmax(dp, fabs(pd[i] - (double)p[i]) / psc);
    }
    dl = fmax(dl, fabs(ld[0] - (double)lam[0]) / lsc);
    __float128 Es = fabsq(E0) > m * grav * l ? fabsq(E0) : m * grav * l;
    eE = fmax(eE, (double)(fabsq(E - E0) / Es));
    eg = fmax(eg, (double)(fabsq(g) / (l * l)));
    egv = fmax(egv, (double)(fabsq(gv) / (l * psc / m)));
    __float128 ls = fabsq(lref) > m * grav / l ? fabsq(lref) : m * grav / l;
    el = fmax(el, (double)(fabsq(*lam - lref) / ls));
  }
  printf("planar-pendulum %s (quad exact) on [0, 10]: vs double (GSL), "
         "relative: q %.1e, p %.1e, lambda %.1e; |E - E0| %.1e, |g| %.1e, "
         "|G v| %.1e, |lambda - (70)| %.1e (relative)\n",
         label, dq, dp, dl, eE, eg, egv, el);
  /* GSL's own error: up to 8e-14 relative in lambda at phi0 = 3. */
  VI_CHECK(c, dq < 2e-13 && dp < 2e-13 && dl < 2e-13,
           "pendulum %s: quad exact vs double exact %.1e %.1e %.1e", label,
           dq, dp, dl);
  VI_CHECK(c, eE <= 64 * (double)eps && eg <= 64 * (double)eps &&
                  egv <= 64 * (double)eps && el <= 1e-30,
           "pendulum %s (quad exact): E %.1e g %.1e Gv %.1e lambda %.1e",
           label, eE, eg, egv, el);
  if (irk) {
    __float128 *I = malloc((NK + 1) * 5 * sizeof *I);
    vi_reference_info_q info;
    rc = I != NULL ? vi_reference_q(sn, h, NK, I, I + (NK + 1) * 2,
                                    I + (NK + 1) * 4, NULL, &info, err,
                                    sizeof err)
                   : VI_ENOMEM;
    VI_CHECK(c, rc == VI_OK, "pendulum %s: quad IRK reference: %s", label,
             err);
    if (rc == VI_OK) {
      double e[3] = {0, 0, 0};
      for (int i = 0; i < (NK + 1) * 5; i++) {
        int b = i < (NK + 1) * 2 ? 0 : i < (NK + 1) * 4 ? 1 : 2;
        e[b] = fmax(e[b], (double)fabsq(I[i] - R[i]));
      }
      printf("  vs %s (accuracy %.1e): max |dq| %.1e, |dp| %.1e, "
             "|dlambda| %.1e\n",
             info.method, info.accuracy, e[0], e[1], e[2]);
      double emax = fmax(e[0], fmax(e[1], e[2]));
      VI_CHECK(c, emax <= 1e-28 && info.accuracy <= 1e-28,
               "pendulum %s: quad exact vs quad IRK differ by %.1e "
               "(IRK accuracy %.1e)",
               label, emax, info.accuracy);
    }
    free(I);
  }
done:
  free(R);
  vi_system_free_d(sd);
  vi_system_free_q(sq);
  vi_system_free_q(sn);
}

int main(void) {
  vi_check_ctx ctx = {0, 0};
  vi_check_ctx *c = &ctx;
  /* The test reads GSL's status codes; GSL's default handler would abort. */
  gsl_set_error_handler_off();

  int nd = 0, nq = 0;
  while (vi_system_types_d[nd] != NULL) {
    nd++;
  }
  while (vi_system_types_q[nq] != NULL) {
    nq++;
  }
  VI_CHECK(c, nd == nq && nd >= 2, "registries differ: %d double, %d quad",
           nd, nq);
  for (int i = 0; i < nd && i < nq; i++) {
    VI_CHECK(c, strcmp(vi_system_types_d[i]->info->name,
                       vi_system_types_q[i]->info->name) == 0,
             "registries not parallel at %d", i);
    if (vi_system_types_d[i]->lie != NULL) {
      test_lie_system_d(c, vi_system_types_d[i]);
      test_lie_system_q(c, vi_system_types_q[i]);
    } else if (vi_system_types_d[i]->degen != NULL) {
      test_degen_system_d(c, vi_system_types_d[i]);
      test_degen_system_q(c, vi_system_types_q[i]);
    } else {
      test_system_d(c, vi_system_types_d[i]);
      test_system_q(c, vi_system_types_q[i]);
    }
  }
  test_mixed_inconsistent_d(c);
  test_mixed_inconsistent_q(c);
  test_param_kinds_d(c);
  test_param_kinds_q(c);

  /* The exact pendulum over a spread of regimes: default, both signs of
   * omega0, an amplitude beyond pi (phi0 = 7 = 0.717 + 2 pi), near the
   * separatrix (k = sin 1.5 = 0.9975). */
  static const char *const set1[] = {"m=1.37", "l=0.83", "phi0=-2.1",
                                     "omega0=1.3"};
  static const char *const set2[] = {"l=1.7", "phi0=2.4", "omega0=-1.2"};
  static const char *const set3[] = {"phi0=7.0", "omega0=-0.4"};
  static const char *const set4[] = {"phi0=3.0"};
  static const char *const set5[] = {"phi0=-0.3", "omega0=-2.9",
                                     "gravity=3.71"};
  const struct {
    int n;
    const char *const *set;
    const char *label;
  } cases[] = {{0, NULL, "defaults"},
               {4, set1, "m=1.37,l=0.83,phi0=-2.1,omega0=1.3"},
               {3, set2, "l=1.7,phi0=2.4,omega0=-1.2"},
               {2, set3, "phi0=7,omega0=-0.4"},
               {1, set4, "phi0=3"},
               {3, set5, "phi0=-0.3,omega0=-2.9,gravity=3.71"}};
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    char err[512] = "";
    vi_system_d *s = NULL;
    int rc = vi_system_alloc_d(pendulum_d(), cases[k].n,
                               cases[k].set, &s, err, sizeof err);
    VI_CHECK(c, rc == VI_OK, "pendulum %s: %s", cases[k].label, err);
    if (s != NULL) {
      /* test_system already did the defaults. */
      if (cases[k].n > 0) {
        test_exact_d(c, s, cases[k].label);
      }
      vi_system_free_d(s);
    }
    vi_system_q *sq = NULL;
    rc = vi_system_alloc_q(pendulum_q(), cases[k].n, cases[k].set, &sq, err,
                           sizeof err);
    VI_CHECK(c, rc == VI_OK, "pendulum %s (quad): %s", cases[k].label, err);
    if (sq != NULL) {
      if (cases[k].n > 0) {
        test_exact_q(c, sq, cases[k].label);
      }
      vi_system_free_q(sq);
    }
    test_pendulum_reference(c, cases[k].n, cases[k].set, cases[k].label);
    /* The independent quad integration on the defaults, both signs of
     * omega0, and the largest amplitude (k = 0.9975), to keep the time
     * down; the exact-solution checks on all. */
    test_pendulum_quad(c, cases[k].n, cases[k].set, cases[k].label,
                       k == 0 || k == 1 || k == 2 || k == 4);
  }
  test_pendulum_special(c);
  return vi_check_done(c, "systems");
}

#else /* VI_TEST_TMPL: compiled once per precision */

/* The planar pendulum, found by name in the registry. */
static const VI_X(vi_system_type) *VI_X(pendulum)(void) {
  for (int i = 0; VI_X(vi_system_types)[i] != NULL; i++) {
    if (strcmp(VI_X(vi_system_types)[i]->info->name, "planar-pendulum") == 0) {
      return VI_X(vi_system_types)[i];
    }
  }
  fprintf(stderr, "planar-pendulum is not registered\n");
  exit(1);
}

/* Velocity v = M^-1 p, multiplier (70), acceleration a = M^-1 f and
 * momentum rate pd = dT/dq - grad V - G' lambda (pdot of the Hamiltonian
 * form) at (q, p), with f = -grad V + dT/dq - D_q(Mv) v - G' lambda and
 * M = M(q): computed here from the type's callbacks (M(q) solved by the
 * test's own elimination), only lambda comes from the library. pd may be
 * NULL. */
static void VI_X(gauss_solve)(int n, const VI_REAL *A0, const VI_REAL *b0,
                              VI_REAL *x) {
  VI_REAL A[TN * TN], b[TN];
  memcpy(A, A0, (size_t)n * (size_t)n * sizeof *A);
  memcpy(b, b0, (size_t)n * sizeof *b);
  for (int k = 0; k < n; k++) {
    int piv = k;
    for (int i = k + 1; i < n; i++) {
      if (vi_fabs(A[i * n + k]) > vi_fabs(A[piv * n + k])) {
        piv = i;
      }
    }
    for (int j = 0; j < n; j++) {
      VI_REAL t = A[k * n + j];
      A[k * n + j] = A[piv * n + j];
      A[piv * n + j] = t;
    }
    VI_REAL t = b[k];
    b[k] = b[piv];
    b[piv] = t;
    for (int i = k + 1; i < n; i++) {
      VI_REAL f = A[i * n + k] / A[k * n + k];
      for (int j = k; j < n; j++) {
        A[i * n + j] -= f * A[k * n + j];
      }
      b[i] -= f * b[k];
    }
  }
  for (int i = n - 1; i >= 0; i--) {
    VI_REAL s = b[i];
    for (int j = i + 1; j < n; j++) {
      s -= A[i * n + j] * x[j];
    }
    x[i] = s / A[i * n + i];
  }
}

static int VI_X(flow)(const VI_X(vi_system) *sys, const VI_REAL *q,
                      const VI_REAL *p, VI_REAL *v, VI_REAL *a, VI_REAL *pd,
                      VI_REAL *lambda) {
  int n = sys->n, m = sys->m;
  VI_REAL dV[TN], G[TN * TN], f[TN], M[TN * TN], dT[TN], D[TN * TN];
  int rc = VI_X(vi_system_lambda)(sys, q, p, lambda);
  if (rc != VI_OK) {
    return rc;
  }
  if (sys->type->mech->grad_potential(sys->state, q, dV) != 0 ||
      (m > 0 && sys->type->holo->constraint_jac(sys->state, q, G) != 0)) {
    return VI_ECALLBACK;
  }
  const int cm = !VI_X(vi_system_mass_constant)(sys);
  if (cm) {
    if (sys->type->mech->mass_q(sys->state, q, M) != 0) {
      return VI_ECALLBACK;
    }
    VI_X(gauss_solve)(n, M, p, v);
    if (sys->type->mech->kinetic(sys->state, q, v, dT, D, NULL) != 0) {
      return VI_ECALLBACK;
    }
  }
  /* Nonholonomic constraints: the force -A(q)' mu, mu after lambda. */
  VI_REAL A[TN * TN];
  if (sys->m_nh > 0 && sys->type->nh->matrix(sys->state, q, A) != 0) {
    return VI_ECALLBACK;
  }
  for (int i = 0; i < n; i++) {
    VI_REAL s = -dV[i] + (cm ? dT[i] : 0);
    for (int k = 0; k < m; k++) {
      s -= G[k * n + i] * lambda[k];
    }
    for (int k = 0; k < sys->m_nh; k++) {
      s -= A[k * n + i] * lambda[m + k];
    }
    if (pd != NULL) {
      pd[i] = s;
    }
    for (int j = 0; cm && j < n; j++) {
      s -= D[i * n + j] * v[j];
    }
    f[i] = s;
  }
  if (cm) {
    VI_X(gauss_solve)(n, M, f, a);
    return VI_OK;
  }
  if (VI_X(vi_system_mass_inv)(sys, q, M) != VI_OK) {
    return VI_ECALLBACK;
  }
  for (int i = 0; i < n; i++) {
    VI_REAL s = 0, t = 0;
    for (int j = 0; j < n; j++) {
      s += M[i * n + j] * p[j];
      t += M[i * n + j] * f[j];
    }
    v[i] = s;
    a[i] = t;
  }
  return VI_OK;
}

static int VI_X(accel)(const VI_X(vi_system) *sys, const VI_REAL *q,
                       const VI_REAL *p, VI_REAL *v, VI_REAL *a,
                       VI_REAL *lambda) {
  return VI_X(flow)(sys, q, p, v, a, NULL, lambda);
}

/* Classical RK4 with `steps` steps on [0, T] for y = (q, p), storing y at
 * nout equally spaced times (steps divisible by nout). */
static void VI_X(rk4)(const VI_X(vi_system) *sys, VI_REAL T, int steps,
                      int nout, VI_REAL (*out)[2 * TN]) {
  int n = sys->n, d = 2 * n;
  VI_REAL y[2 * TN], k[4][2 * TN], ys[2 * TN];
  VI_REAL h = T / steps;
  for (int i = 0; i < n; i++) {
    y[i] = sys->q0[i];
    y[n + i] = sys->p0[i];
  }
  static const VI_REAL cst[4] = {0, VI_C(0.5), VI_C(0.5), 1};
  for (int s = 0; s < steps; s++) {
    for (int st = 0; st < 4; st++) {
      for (int i = 0; i < d; i++) {
        ys[i] = st == 0 ? y[i] : y[i] + cst[st] * h * k[st - 1][i];
      }
      VI_REAL v[TN], a[TN], lam[TN];
      VI_X(flow)(sys, ys, ys + n, v, a, k[st] + n, lam);
      for (int i = 0; i < n; i++) {
        k[st][i] = v[i];
      }
    }
    for (int i = 0; i < d; i++) {
      y[i] += h * (k[0][i] + 2 * k[1][i] + 2 * k[2][i] + k[3][i]) / 6;
    }
    if ((s + 1) % (steps / nout) == 0) {
      memcpy(out[(s + 1) / (steps / nout) - 1], y, (size_t)d * sizeof *y);
    }
  }
}

static VI_REAL VI_X(nrm)(int k, const VI_REAL *x) {
  return VI_X(vi_norm_inf)(k, x);
}

static VI_REAL VI_X(max1)(VI_REAL a) {
  return a > 1 ? a : 1;
}

/* Offset of the parameter called name in the flattened values, or -1. */
/* A form without a mass matrix: every mass service refuses. */
static int VI_X(no_mass)(const VI_X(vi_system) *sys) {
  const VI_REAL *M = NULL;
  VI_REAL v[TN], p[TN] = {0};
  return !VI_X(vi_system_mass_constant)(sys) &&
         VI_X(vi_system_mass_at)(sys, sys->q0, NULL, &M) == VI_EUNSUPPORTED &&
         VI_X(vi_system_minv_at)(sys, sys->q0, NULL, &M) == VI_EUNSUPPORTED &&
         VI_X(vi_system_minv_apply)(sys, sys->q0, p, v) == VI_EUNSUPPORTED && M == NULL;
}

/* The offset of parameter name in par and its number of values (n, the
 * instance's dimension, for a parameter per coordinate). */
static int VI_X(param_offset)(const vi_system_info *info, const char *name, int n,
                              int *count) {
  int off = 0;
  for (const vi_param *p = info->params; p->name != NULL; p++) {
    if (strcmp(p->name, name) == 0) {
      *count = p->domain == VI_PARAM_COORDS ? n : p->count;
      return off;
    }
    off += p->count;
  }
  return -1;
}

/* Allocation with one override that must fail with status want and a
 * message containing both needles. */
static void VI_X(expect_fail)(vi_check_ctx *c, const VI_X(vi_system_type) *t,
                              const char *setting, int want,
                              const char *needle1, const char *needle2) {
  char err[512] = "";
  VI_X(vi_system) dummy;
  VI_X(vi_system) *sys = &dummy; /* must be reset to NULL */
  const char *set[1] = {setting};
  int rc = VI_X(vi_system_alloc)(t, 1, set, &sys, err, sizeof err);
  VI_CHECK(c, rc == want && sys == NULL && contains(err, needle1) &&
                  contains(err, needle2),
           "%s %s: '%s' gave %d (want %d), message '%s' (want '%s', '%s')",
           t->info->name, VI_PREC_NAME, setting, rc, want, err, needle1,
           needle2);
  if (rc == VI_OK) {
    VI_X(vi_system_free)(sys);
  }
}

static void VI_X(test_bad_input)(vi_check_ctx *c,
                                 const VI_X(vi_system_type) *t,
                                 const VI_X(vi_system) *sys) {
  const vi_system_info *info = t->info;
  const vi_param *p0 = &info->params[0];
  char s[1024];
  VI_X(expect_fail)(c, t, "nosuch_param=1", VI_EINVAL, "nosuch_param",
                    p0->name);
  VI_X(expect_fail)(c, t, "no equals sign", VI_EINVAL, "no equals sign",
                    info->name);
  /* One value too many. */
  snprintf(s, sizeof s, "%s=", p0->name);
  for (int i = 0; i <= p0->count; i++) {
    strcat(s, i == 0 ? "1.5" : ",1.5");
  }
  char want[64];
  snprintf(want, sizeof want, "takes %d value", p0->count);
  VI_X(expect_fail)(c, t, s, VI_EINVAL, p0->name, want);
  snprintf(s, sizeof s, "%s=abc", p0->name);
  VI_X(expect_fail)(c, t, s, VI_EINVAL, p0->name, "abc");
  snprintf(s, sizeof s, "%s=inf", p0->name);
  VI_X(expect_fail)(c, t, s, VI_EINVAL, p0->name, "inf");
  snprintf(s, sizeof s, "%s=nan", p0->name);
  VI_X(expect_fail)(c, t, s, VI_EINVAL, p0->name, "nan");
  snprintf(s, sizeof s, "%s=1.5x", p0->name);
  VI_X(expect_fail)(c, t, s, VI_EINVAL, p0->name, "1.5x");
  /* Masses and lengths are declared positive: a value outside the domain
   * is refused naming the parameter and the range (the last value of a
   * vector, so the message must name its index). */
  int npositive = 0;
  for (const vi_param *p = info->params; p->name != NULL; p++) {
    if (p->domain != VI_PARAM_POSITIVE) {
      continue;
    }
    npositive++;
    size_t used = (size_t)snprintf(s, sizeof s, "%s=", p->name);
    for (int i = 0; i < p->count; i++) {
      used += (size_t)snprintf(s + used, sizeof s - used, "%s%s", i ? "," : "",
                               i == p->count - 1 ? "-0.5" : "1.5");
    }
    char name[128];
    if (p->count > 1) {
      snprintf(name, sizeof name, "%s[%d] of %s", p->name, p->count, info->name);
    } else {
      snprintf(name, sizeof name, "%s of %s", p->name, info->name);
    }
    VI_X(expect_fail)(c, t, s, VI_EINVAL, name, "must be > 0, got -0.5");
  }
  /* A size or an index (VI_PARAM_NATURAL) is a whole number: 2.5 is
   * refused naming it; a parameter per coordinate (VI_PARAM_COORDS) takes
   * exactly n values, n the instance's dimension. */
  for (const vi_param *p = info->params; p->name != NULL; p++) {
    if (p->domain == VI_PARAM_NATURAL) {
      char name[128];
      snprintf(s, sizeof s, "%s=2.5", p->name);
      snprintf(name, sizeof name, "%s of %s", p->name, info->name);
      VI_X(expect_fail)(c, t, s, VI_EINVAL, name, "must be a whole number >= 0, got 2.5");
    } else if (p->domain == VI_PARAM_COORDS && sys->n >= 2) {
      size_t used = (size_t)snprintf(s, sizeof s, "%s=", p->name);
      for (int i = 0; i < sys->n - 1; i++) {
        used += (size_t)snprintf(s + used, sizeof s - used, "%s0.25", i ? "," : "");
      }
      char want2[64];
      snprintf(want2, sizeof want2, "takes n = %d values", sys->n);
      VI_X(expect_fail)(c, t, s, VI_EINVAL, p->name, want2);
    }
  }
  /* Named data sets: each is accepted; an unknown one is refused naming
   * the valid ones (or saying there are none). */
  for (const vi_data_set *d = info->data; d != NULL && d->name != NULL; d++) {
    char a[96], err[512] = "";
    snprintf(a, sizeof a, "data=%s", d->name);
    const char *set[1] = {a};
    VI_X(vi_system) *s2 = NULL;
    int rc = VI_X(vi_system_alloc)(t, 1, set, &s2, err, sizeof err);
    VI_CHECK(c, rc == VI_OK && s2 != NULL, "%s %s: data set %s refused: %s", info->name,
             VI_PREC_NAME, d->name, err);
    VI_X(vi_system_free)(s2);
  }
  VI_X(expect_fail)(c, t, "data=no-such-set", VI_EINVAL, "no-such-set",
                    info->data != NULL && info->data->name != NULL ? info->data->name
                                                                   : "no named data sets");
  /* Every mechanical system has masses or lengths; a degenerate one may
   * have none (vortex strengths take either sign). */
  VI_CHECK(c, npositive > 0 || t->mech == NULL,
           "%s declares no positive parameter (masses, lengths)", info->name);
  /* Inconsistent initial data where the parameters carry it directly:
   * q0 stretched by 10 % and shifted violates g (the shift for constraints
   * that a stretch keeps, such as a plane through the origin), v0 = q0
   * violates G v0 = 0 (rod 1 would stretch) or, with a nonholonomic
   * constraint too, A v0 = 0. */
  int cnt = 0;
  int n = sys->n;
  if (sys->m > 0 && VI_X(param_offset)(info, "q0", sys->n, &cnt) >= 0 && cnt == n) {
    size_t used = (size_t)snprintf(s, sizeof s, "q0=");
    for (int i = 0; i < n; i++) {
      used += (size_t)snprintf(s + used, sizeof s - used, "%s%.17g",
                               i ? "," : "",
                               (double)(VI_C(1.1) * sys->q0[i] + VI_C(0.01) * (i + 1)));
    }
    /* With both kinds every residual is named (phi moved too, so A v0 != 0). */
    VI_X(expect_fail)(c, t, s, VI_EINCONSISTENT, "|g(q0)| = ",
                      sys->m_nh > 0 ? "|A(q0) v0 + a(q0)| = " : "tolerance");
  }
  if ((sys->m > 0 || sys->m_nh > 0) && VI_X(param_offset)(info, "v0", sys->n, &cnt) >= 0 &&
      cnt == n) {
    size_t used = (size_t)snprintf(s, sizeof s, "v0=");
    for (int i = 0; i < n; i++) {
      used += (size_t)snprintf(s + used, sizeof s - used, "%s%.17g",
                               i ? "," : "", (double)sys->q0[i]);
    }
    VI_X(expect_fail)(c, t, s, VI_EINCONSISTENT,
                      sys->m_nh > 0 ? "|A(q0) v0 + a(q0)| = " : "|G(q0) v0| = ", info->name);
  }
  /* A parameter set twice is refused, naming it (issue 10: the last one
   * used to win silently). */
  {
    char a[64], b[64];
    snprintf(a, sizeof a, "%s=2.5", p0->name);
    snprintf(b, sizeof b, "%s=3.25", p0->name);
    const char *set[2] = {a, b};
    if (p0->count == 1) {
      VI_X(vi_system) *s2 = NULL;
      char err[512] = "";
      int rc = VI_X(vi_system_alloc)(t, 2, set, &s2, err, sizeof err);
      VI_CHECK(c, rc == VI_EINVAL && s2 == NULL && contains(err, p0->name) &&
                      contains(err, "set twice"),
               "%s %s: a parameter set twice: %d %s", info->name, VI_PREC_NAME, rc, err);
      VI_X(vi_system_free)(s2);
    }
  }
}

/* The exact solution of a system against its own constraints (holonomic and
 * nonholonomic), energy and multipliers (70) (lambda, then mu: all ml of
 * them), at several times including a long one. */
static void VI_X(test_exact)(vi_check_ctx *c, const VI_X(vi_system) *sys,
                             const char *label) {
  const VI_X(vi_system_type) *t = sys->type;
  const char *name = t->info->name;
  int n = sys->n, m = sys->m, ml = sys->ml;
  if (!VI_X(vi_type_has_exact)(t)) {
    return;
  }
  const VI_REAL eps = VI_EPS;
  VI_REAL enh = 0;
  VI_REAL E0 = 0;
  VI_X(vi_system_energy)(sys, sys->q0, sys->p0, &E0);
  static const VI_REAL times[] = {0, VI_C(0.37), VI_C(0.8), VI_C(1.5),
                                  VI_C(2.2), 3, VI_C(10.7), VI_C(41.3)};
  VI_REAL eg = 0, ehid = 0, eE = 0, el = 0, e0 = 0;
  for (size_t k = 0; k < sizeof times / sizeof times[0]; k++) {
    VI_REAL q[TN], p[TN], lam[TN], lref[TN], g[TN], gv[TN], r[TN], E = 0;
    int rc = t->obs->exact(sys->state, times[k], q, p, lam);
    VI_CHECK(c, rc == VI_OK, "%s %s: exact at %g: %d", name, label,
             (double)times[k], rc);
    if (rc != VI_OK) {
      return;
    }
    VI_REAL qs = VI_X(max1)(VI_X(nrm)(n, q)), ps = VI_X(max1)(VI_X(nrm)(n, p));
    t->holo->constraint(sys->state, q, g);
    VI_X(vi_system_hidden)(sys, q, p, gv);
    VI_X(vi_system_energy)(sys, q, p, &E);
    VI_X(vi_system_lambda)(sys, q, p, lref);
    VI_X(vi_system_nh_residual)(sys, q, p, r);
    VI_REAL d = VI_X(nrm)(sys->m_nh, r) / (qs * ps);
    enh = d > enh ? d : enh;
    d = VI_X(nrm)(m, g) / (qs * qs);
    eg = d > eg ? d : eg;
    d = VI_X(nrm)(m, gv) / (qs * ps);
    ehid = d > ehid ? d : ehid;
    d = vi_fabs(E - E0) / VI_X(max1)(vi_fabs(E0));
    eE = d > eE ? d : eE;
    for (int i = 0; i < ml; i++) {
      d = vi_fabs(lam[i] - lref[i]) / VI_X(max1)(vi_fabs(lref[i]));
      el = d > el ? d : el;
    }
    if (times[k] == 0) {
      for (int i = 0; i < n; i++) {
        d = vi_fabs(q[i] - sys->q0[i]) / qs;
        e0 = d > e0 ? d : e0;
        d = vi_fabs(p[i] - sys->p0[i]) / ps;
        e0 = d > e0 ? d : e0;
      }
    }
  }
  printf("%s %s (%s): exact: |x(0) - x0| %.1e, |g| %.1e, |G v| %.1e, |A v| %.1e, "
         "|E - E0| %.1e, |lambda - (70)| %.1e (relative)\n",
         name, label, VI_PREC_NAME, (double)e0, (double)eg, (double)ehid, (double)enh,
         (double)eE, (double)el);
  /* 1e-13 in double: what the elliptic functions deliver. */
  VI_REAL tol = 500 * eps;
  VI_CHECK(c, e0 <= tol && eg <= tol && ehid <= tol && enh <= tol && eE <= tol && el <= tol,
           "%s %s: exact solution inconsistent: %.1e %.1e %.1e %.1e %.1e %.1e",
           name, label, (double)e0, (double)eg, (double)ehid, (double)enh, (double)eE,
           (double)el);
}

/* A transposed (wrong) ad of SE(2) for the vertical disc: the check must
 * catch it. */
static int VI_X(se2_ad_wrong)(const void *st, const VI_REAL *xi, VI_REAL *A) {
  (void)st;
  const VI_REAL v1 = xi[0], v2 = xi[1], w = xi[2];
  A[0] = 0;
  A[1] = w;
  A[2] = 0;
  A[3] = -w;
  A[4] = 0;
  A[5] = 0;
  A[6] = v2;
  A[7] = -v1;
  A[8] = 0;
  return 0;
}

/* A second tangent that is not one: zero (the term dropped, notes P10). */
static int VI_X(ddcay_zero)(const void *st, const VI_REAL *xi, const VI_REAL *y,
                            const VI_REAL *pi, VI_REAL *K) {
  (void)st;
  (void)y;
  (void)pi;
  for (int i = 0; i < 3; i++) {
    K[i] = 0 * xi[i];
  }
  return 0;
}

/* A system in the Lie-group form (demartin2018 §5-6): mu0 = D2 l(g0, xi0),
 * every derivative and group map against finite differences (14 checks per
 * point with nonholonomic constraints and the second tangent), the integrated reference (the
 * Euler-Poincare equations with the multiplier) against the exact solution
 * where there is one, energy and the constraint kept along it, a wrong
 * group map caught, and inconsistent initial velocities refused. */
static void VI_X(test_lie_system)(vi_check_ctx *c, const VI_X(vi_system_type) *t) {
  const vi_system_info *info = t->info;
  const char *pn = VI_PREC_NAME;
  char err[512] = "";
  VI_X(vi_system) *sys = NULL;
  int rc = VI_X(vi_system_alloc)(t, 0, NULL, &sys, err, sizeof err);
  VI_CHECK(c, rc == VI_OK && sys != NULL && VI_X(no_mass)(sys), "%s %s: alloc: %d %s", info->name,
           pn, rc, err);
  if (sys == NULL) {
    return;
  }
  const int n = sys->n, nq = sys->nq;
  VI_REAL mu[TN];
  t->lie->dxi(sys->state, sys->q0, sys->v0, mu);
  VI_CHECK(c, n <= TN && memcmp(mu, sys->p0, (size_t)n * sizeof *mu) == 0,
           "%s %s: p0 is not D2 l(g0, xi0)", info->name, pn);
  printf("%s (%s):\n", info->name, pn);
  vi_report_ctx r = {0, 0, 0};
  int nf = VI_X(vi_system_check)(sys, 5, vi_report_line, &r);
  /* 11 group and Lagrangian checks, 1 of the second tangent when the
   * group table has it (ddcay_star), 2 of the constraint, 1 of project for
   * an embedded group. */
  const int per_point = 11 + (t->space->ddcay_star != NULL) + (sys->m_nh > 0 ? 2 : 0) +
                        (t->space->project != NULL);
  VI_CHECK(c, nf == 0 && r.failed_lines == 0 && r.lines == 6 * per_point,
           "%s %s: vi_system_check: %d failures, %d lines", info->name, pn, nf, r.lines);

  /* The reference, integrated (the type without its exact solution), and
   * against the exact solution when the type has one. */
  enum { K = 20 };
  VI_REAL Q[(K + 1) * TN], P[(K + 1) * TN], L[(K + 1) * TN];
  VI_REAL Qe[(K + 1) * TN], Pe[(K + 1) * TN], Le[(K + 1) * TN];
  VI_X(vi_system_type) nt = *t;
  nt.obs = NULL;
  VI_X(vi_system) *ns = NULL;
  VI_X(vi_reference_info) ri, re;
  rc = VI_X(vi_system_alloc)(&nt, 0, NULL, &ns, err, sizeof err);
  if (rc == VI_OK) {
    rc = VI_X(vi_reference)(ns, VI_C(0.1), K, Q, P, L, NULL, &ri, err, sizeof err);
  }
  VI_CHECK(c, rc == VI_OK && strstr(ri.method, "Lie-group") != NULL,
           "%s %s: integrated reference %d %s", info->name, pn, rc, err);
  /* The energy is a first integral unless a constraint is affine (a moving
   * surface, e.g. the turntable: demartin2018 §7.5); then the momentum maps
   * the system declares are checked instead (the turntable's default data
   * have a = b = c, where its four maps are first integrals). */
  const int energy_kept = t->nh == NULL || t->nh->affine == NULL;
  const int nmom = VI_X(vi_type_has_momenta)(t) ? info->n_momenta : 0;
  VI_REAL E0 = 0, dE = 0, dphi = 0, J0[TN], dJ = 0, sJ = 1;
  VI_X(vi_system_energy)(sys, sys->q0, sys->p0, &E0);
  if (nmom > 0 && nmom <= TN) {
    t->obs->momenta(sys->state, sys->q0, sys->p0, J0);
    sJ = VI_X(max1)(VI_X(nrm)(nmom, J0));
  }
  for (int k = 0; rc == VI_OK && k <= K; k++) {
    VI_REAL E = 0, ph[TN], J[TN];
    VI_X(vi_system_energy)(sys, Q + k * nq, P + k * n, &E);
    dE = vi_fabs(E - E0) > dE ? vi_fabs(E - E0) : dE;
    VI_X(vi_system_nh_residual)(sys, Q + k * nq, P + k * n, ph);
    dphi = VI_X(nrm)(sys->m_nh, ph) > dphi ? VI_X(nrm)(sys->m_nh, ph) : dphi;
    for (int i = 0; !energy_kept && nmom <= TN && i < nmom; i++) {
      t->obs->momenta(sys->state, Q + k * nq, P + k * n, J);
      dJ = vi_fabs(J[i] - J0[i]) > dJ ? vi_fabs(J[i] - J0[i]) : dJ;
    }
  }
  VI_REAL sc = VI_X(max1)(vi_fabs(E0));
  VI_CHECK(c, (!energy_kept || dE <= 10 * (VI_REAL)ri.accuracy * sc) &&
                  dphi <= 10 * (VI_REAL)ri.accuracy * sc,
           "%s %s: along the reference energy drift %.1e, |Phi| %.1e (accuracy %.1e)",
           info->name, pn, (double)dE, (double)dphi, ri.accuracy);
  VI_CHECK(c, energy_kept || (nmom > 0 && dJ <= 10 * (VI_REAL)ri.accuracy * sJ),
           "%s %s: an affine constraint and %s; the maps drift by %.1e along the reference "
           "(accuracy %.1e)",
           info->name, pn, nmom > 0 ? "momentum maps" : "no momentum maps to check",
           (double)dJ, ri.accuracy);
  if (VI_X(vi_type_has_exact)(t) && rc == VI_OK) {
    rc = VI_X(vi_reference)(sys, VI_C(0.1), K, Qe, Pe, Le, NULL, &re, err, sizeof err);
    VI_REAL d = 0;
    for (int i = 0; rc == VI_OK && i < (K + 1) * nq; i++) {
      d = vi_fabs(Q[i] - Qe[i]) > d ? vi_fabs(Q[i] - Qe[i]) : d;
    }
    for (int i = 0; rc == VI_OK && i < (K + 1) * n; i++) {
      d = vi_fabs(P[i] - Pe[i]) > d ? vi_fabs(P[i] - Pe[i]) : d;
    }
    for (int i = 0; rc == VI_OK && i < (K + 1) * sys->ml; i++) {
      d = vi_fabs(L[i] - Le[i]) > d ? vi_fabs(L[i] - Le[i]) : d;
    }
    VI_CHECK(c, rc == VI_OK && d <= 10 * (VI_REAL)(ri.accuracy + re.accuracy),
             "%s %s: integrated vs exact reference %.1e (accuracies %.1e, %.1e)", info->name,
             pn, (double)d, ri.accuracy, re.accuracy);
  }
  VI_X(vi_system_free)(ns);

  /* A wrong group map is caught (the vertical disc's SE(2)). */
  if (strcmp(info->name, "vertical-disc") == 0) {
    VI_X(vi_space_ops) wsp = *t->space;
    VI_X(vi_system_type) wt = *t;
    wsp.ad = VI_X(se2_ad_wrong);
    wt.space = &wsp;
    VI_X(vi_system) *ws = NULL;
    if (VI_X(vi_system_alloc)(&wt, 0, NULL, &ws, err, sizeof err) == VI_OK) {
      vi_report_ctx r2 = {0, 0, 0};
      nf = VI_X(vi_system_check)(ws, 2, vi_report_line, &r2);
      VI_CHECK(c, nf == 3, "%s %s: a wrong ad gave %d failures (want 3)", info->name, pn, nf);
      VI_X(vi_system_free)(ws);
    }
    /* And a wrong second tangent (vi_space_ops.ddcay_star). */
    wsp = *t->space;
    wsp.ddcay_star = VI_X(ddcay_zero);
    ws = NULL;
    if (VI_X(vi_system_alloc)(&wt, 0, NULL, &ws, err, sizeof err) == VI_OK) {
      vi_report_ctx r2 = {0, 0, 0};
      nf = VI_X(vi_system_check)(ws, 2, vi_report_line, &r2);
      VI_CHECK(c, nf == 3, "%s %s: a zero ddcay_star gave %d failures (want 3)", info->name, pn,
               nf);
      VI_X(vi_system_free)(ws);
    }
    VI_X(expect_fail)(c, t, "eta0=0.2,0.5,0.7", VI_EINCONSISTENT, "|A(g0) xi0 + a(g0)| = ",
                      "tolerance");
  }
  /* An embedded group: a configuration off the group is refused with its
   * distance (the turntable's R0 sheared by 1e-6). */
  if (strcmp(info->name, "turntable") == 0) {
    VI_X(expect_fail)(c, t, "R0=1,1e-6,0,0,1,0,0,0,1", VI_EINCONSISTENT, "away from the group",
                      "tolerance");
  }
  VI_X(vi_system_free)(sys);
}

/* A system in the degenerate form L = alpha(q).v - H(q) (tyranowski2014):
 * p0 = alpha(q0) exactly, energy H(q0), every derivative against finite
 * differences, H conserved and p = alpha(q) carried along by the reference
 * in this precision, and the bad-input contract. (That the check catches
 * a wrong derivative is test_degen_toy's.) */
static void VI_X(test_degen_system)(vi_check_ctx *c, const VI_X(vi_system_type) *t) {
  const vi_system_info *info = t->info;
  const char *pn = VI_PREC_NAME;
  char err[512] = "";
  VI_X(vi_system) *sys = NULL;
  int rc = VI_X(vi_system_alloc)(t, 0, NULL, &sys, err, sizeof err);
  VI_CHECK(c, rc == VI_OK && sys != NULL && VI_X(no_mass)(sys) && sys->m == 0,
           "%s %s: alloc: %d %s", info->name, pn, rc, err);
  if (sys == NULL) {
    return;
  }
  const int n = sys->n;
  VI_REAL a[TN], d = 1, E = 0, H = 0;
  rc = t->degen->alpha(sys->state, sys->q0, a);
  VI_CHECK(c, rc == 0 && n <= TN && memcmp(a, sys->p0, (size_t)n * sizeof *a) == 0,
           "%s %s: p0 is not alpha(q0)", info->name, pn);
  rc = VI_X(vi_system_defect)(sys, sys->q0, sys->p0, &d);
  VI_CHECK(c, rc == VI_OK && d == 0, "%s %s: defect at t = 0: %d %g", info->name, pn, rc,
           (double)d);
  rc = VI_X(vi_system_energy)(sys, sys->q0, sys->p0, &E);
  t->degen->hamiltonian(sys->state, sys->q0, &H);
  VI_CHECK(c, rc == VI_OK && E == H, "%s %s: energy is not H(q0)", info->name, pn);
  VI_REAL M[TN * TN];
  VI_CHECK(c, VI_X(vi_system_mass)(sys, sys->q0, M) == VI_EUNSUPPORTED,
           "%s %s: a mass matrix of a degenerate system", info->name, pn);

  printf("%s (%s):\n", info->name, pn);
  vi_report_ctx r = {0, 0, 0};
  int nf = VI_X(vi_system_check)(sys, 5, vi_report_line, &r);
  /* Six points x (dalpha, d2alpha, grad H, Hess H), and the declared
   * affine alpha at each. */
  VI_CHECK(c, nf == 0 && r.failed_lines == 0 && r.lines == 6 * (4 + (info->alpha_affine != 0)),
           "%s %s: vi_system_check: %d failures, %d lines", info->name, pn, nf, r.lines);

  /* The reference over a few nodes: H conserved and p = alpha(q) to its
   * stated accuracy (both are properties of the exact flow). */
  enum { K = 20 };
  VI_REAL Q[(K + 1) * TN], P[(K + 1) * TN], L[1];
  VI_X(vi_reference_info) ri;
  rc = VI_X(vi_reference)(sys, VI_C(0.1), K, Q, P, L, NULL, &ri, err, sizeof err);
  VI_CHECK(c, rc == VI_OK, "%s %s: reference %d %s", info->name, pn, rc, err);
  VI_REAL dmax = 0, hmax = 0;
  for (int k = 0; rc == VI_OK && k <= K; k++) {
    VI_REAL dk = 0, Hk = 0;
    VI_X(vi_system_defect)(sys, Q + k * n, P + k * n, &dk);
    VI_X(vi_system_energy)(sys, Q + k * n, P + k * n, &Hk);
    dmax = dk > dmax ? dk : dmax;
    hmax = vi_fabs(Hk - E) > hmax ? vi_fabs(Hk - E) : hmax;
  }
  VI_REAL scale = VI_X(max1)(VI_X(nrm)(n, sys->p0));
  VI_CHECK(c, dmax <= 10 * (VI_REAL)ri.accuracy * scale && hmax <= 10 * (VI_REAL)ri.accuracy * scale,
           "%s %s: reference defect %.1e, H drift %.1e (accuracy %.1e)", info->name, pn,
           (double)dmax, (double)hmax, ri.accuracy);

  VI_X(test_bad_input)(c, t, sys);
  VI_X(vi_system_free)(sys);
}

/* The mass services of a mechanical system at q0 and at a generic point:
 * M M^-1 = I, the pointers (cached for a constant M) agree with the
 * copies, minv_apply is the product with M^-1 in the order of j, and a
 * constant M is the same everywhere. */
static void VI_X(test_mass)(vi_check_ctx *c, const VI_X(vi_system) *sys) {
  const char *name = sys->type->info->name, *pn = VI_PREC_NAME;
  const int n = sys->n;
  const int cm = !VI_X(vi_system_mass_constant)(sys);
  VI_CHECK(c, cm == VI_X(vi_type_config_mass)(sys->type), "%s %s: mass_constant %d", name, pn,
           !cm);
  VI_REAL q[TN], p[TN], v[TN], M[TN * TN], Mi[TN * TN], W1[TN * TN], W2[TN * TN];
  for (int pt = 0; pt < 2; pt++) {
    for (int i = 0; i < n; i++) {
      q[i] = sys->q0[i] + (pt ? VI_C(0.13) * (i + 1) : 0);
      p[i] = sys->p0[i] + VI_C(0.31) * (i + 2);
    }
    const VI_REAL *Mp = NULL, *Mip = NULL;
    int rc = VI_X(vi_system_mass)(sys, q, M);
    rc = rc ? rc : VI_X(vi_system_mass_inv)(sys, q, Mi);
    rc = rc ? rc : VI_X(vi_system_mass_at)(sys, q, W1, &Mp);
    rc = rc ? rc : VI_X(vi_system_minv_at)(sys, q, W2, &Mip);
    rc = rc ? rc : VI_X(vi_system_minv_apply)(sys, q, p, v);
    VI_CHECK(c, rc == VI_OK, "%s %s: mass services %d", name, pn, rc);
    if (rc != VI_OK) {
      return;
    }
    VI_REAL e = 0, d = 0;
    for (int i = 0; i < n; i++) {
      VI_REAL t = 0;
      for (int j = 0; j < n; j++) {
        VI_REAL s = 0;
        for (int k = 0; k < n; k++) {
          s += M[i * n + k] * Mi[k * n + j];
        }
        s -= i == j;
        e = vi_fabs(s) > e ? vi_fabs(s) : e;
        t += Mi[i * n + j] * p[j];
      }
      d = vi_fabs(t - v[i]) > d ? vi_fabs(t - v[i]) : d;
    }
    const size_t nn = (size_t)n * (size_t)n * sizeof *M;
    VI_CHECK(c, e <= 10 * VI_EPS && d == 0 && memcmp(M, Mp, nn) == 0 && memcmp(Mi, Mip, nn) == 0,
             "%s %s: M Minv - I = %.1e, minv_apply off by %.1e, pointers differ %d %d", name,
             pn, (double)e, (double)d, memcmp(M, Mp, nn) != 0, memcmp(Mi, Mip, nn) != 0);
    VI_CHECK(c, cm == (Mp == W1) && cm == (Mip == W2), "%s %s: work used for a %s mass", name,
             pn, cm ? "configuration-dependent" : "constant");
  }
}

/* vi_system_dGv: the fallback through constraint_hess with unit mu, at a
 * generic velocity, against the contracted Hessians computed here (bit for
 * bit: the same sums in the same order), and v . dGv_k = v' Hess g_k v. */
static void VI_X(test_dgv)(vi_check_ctx *c, const VI_X(vi_system) *sys) {
  const char *name = sys->type->info->name, *pn = VI_PREC_NAME;
  const int n = sys->n, m = sys->m;
  const VI_X(vi_holo_ops) *holo = sys->type->holo;
  if (m == 0 || holo->constraint_hess == NULL) {
    return;
  }
  VI_REAL v[TN], J[TN * TN], H[TN * TN], mu[TN], Jh[TN * TN];
  for (int i = 0; i < n; i++) {
    v[i] = VI_C(0.7) - VI_C(0.29) * i;
  }
  int rc = VI_X(vi_system_dGv)(sys, sys->q0, v, J);
  for (int k = 0; rc == VI_OK && k < m; k++) {
    for (int l = 0; l < m; l++) {
      mu[l] = l == k;
    }
    rc = holo->constraint_hess(sys->state, sys->q0, mu, H);
    for (int j = 0; j < n; j++) {
      VI_REAL t = 0;
      for (int i = 0; i < n; i++) {
        t += H[j * n + i] * v[i];
      }
      Jh[k * n + j] = t;
    }
  }
  VI_CHECK(c, rc == VI_OK && memcmp(J, Jh, (size_t)(m * n) * sizeof *J) == 0,
           "%s %s: vi_system_dGv (fallback) %d differs from the contracted Hessians", name, pn,
           rc);
}

/* vi_system_check: every supplied derivative passes at q0 and 5 probes. */
static void VI_X(test_check_lines)(vi_check_ctx *c, const VI_X(vi_system) *sys) {
  const char *name = sys->type->info->name, *pn = VI_PREC_NAME;
  printf("%s (%s):\n", name, pn);
  vi_report_ctx r = {0, 0, 0};
  int nf = VI_X(vi_system_check)(sys, 5, vi_report_line, &r);
  /* Six points x (grad V, Hess V[, the discrete gradient's J1][, G,
   * Hess g[, dGv]][, D_q Phi, D_q A'mu][, three kinetic terms][, what the
   * type declares: the discrete gradient's directionality, V and g of
   * degree <= 2, the rigid-body table]). */
  const int dgv = sys->m > 0 && sys->type->holo->dGv != NULL;
  const unsigned qd = sys->type->info->quadratic;
  const int dg = sys->type->mech != NULL && sys->type->mech->dgrad_potential != NULL;
  const int declared = sys->type->mech == NULL
                           ? 0
                           : 2 * dg + ((qd & VI_QUADRATIC_V) != 0) +
                                 ((qd & VI_QUADRATIC_G) != 0 && sys->m > 0) +
                                 (sys->type->top != NULL);
  const int per_point = (sys->m > 0 ? 4 + dgv : 2) + (sys->m_nh > 0 ? 2 : 0) +
                        (VI_X(vi_system_mass_constant)(sys) ? 0 : 3) + declared;
  VI_CHECK(c, nf == 0 && r.failed_lines == 0 && r.lines == 6 * per_point,
           "%s %s: vi_system_check: %d failures, %d lines", name, pn, nf, r.lines);
}

/* (70) by construction: G a + [v' Hess g_k v]_k = 0, the second time
 * derivative of g, at (q0, p0) with a, v of the index-1 flow. */
static void VI_X(test_lambda70)(vi_check_ctx *c, const VI_X(vi_system) *sys, const VI_REAL *v,
                                const VI_REAL *a) {
  const char *name = sys->type->info->name, *pn = VI_PREC_NAME;
  const int n = sys->n, m = sys->m;
  const VI_REAL *q0 = sys->q0, eps = VI_EPS;
  VI_REAL qs = VI_X(max1)(VI_X(nrm)(n, q0)), vs = VI_X(max1)(VI_X(nrm)(n, v));
  VI_REAL as = VI_X(max1)(VI_X(nrm)(n, a));
  VI_REAL G[TN * TN], H[TN * TN], mu[TN];
  if (m > 0) {
    sys->type->holo->constraint_jac(sys->state, q0, G);
  }
  for (int k = 0; k < m; k++) {
    for (int l = 0; l < m; l++) {
      mu[l] = l == k;
    }
    sys->type->holo->constraint_hess(sys->state, q0, mu, H);
    VI_REAL s = 0;
    for (int i = 0; i < n; i++) {
      s += G[k * n + i] * a[i];
      for (int j = 0; j < n; j++) {
        s += v[i] * H[i * n + j] * v[j];
      }
    }
    VI_CHECK(c, vi_fabs(s) <= 1000 * eps * qs * (as + vs * vs),
             "%s %s: G a + v'Hg v = %.1e for constraint %d", name, pn, (double)s, k);
  }
}

/* Along q(t) = q0 + t v + t^2/2 a, v(t) = v + t a (central differences)
 * the hidden constraint G(q(t)) v(t) and the nonholonomic Phi must be
 * stationary at t = 0, independently of constraint_hess and of the sign
 * convention in it; likewise the energy and every momentum map, first
 * integrals of the flow. */
static void VI_X(test_flow_stationary)(vi_check_ctx *c, const VI_X(vi_system) *sys,
                                       const VI_REAL *v, const VI_REAL *a) {
  const VI_X(vi_system_type) *t = sys->type;
  const vi_system_info *info = t->info;
  const char *pn = VI_PREC_NAME;
  const int n = sys->n, m = sys->m;
  const VI_REAL *q0 = sys->q0, *p0 = sys->p0, eps = VI_EPS;
  VI_REAL qs = VI_X(max1)(VI_X(nrm)(n, q0)), vs = VI_X(max1)(VI_X(nrm)(n, v));
  VI_REAL as = VI_X(max1)(VI_X(nrm)(n, a));
  VI_REAL dt = vi_pow(eps, 1 / VI_C(3.0)) / vs;
  VI_REAL qq[2][TN], pp[2][TN], hh[2][TN], EE[2], JJ[2][TN], ph[2][TN];
  for (int sgn = 0; sgn < 2; sgn++) {
    VI_REAL tt = sgn ? -dt : dt;
    VI_REAL vv[TN];
    for (int i = 0; i < n; i++) {
      qq[sgn][i] = q0[i] + tt * v[i] + tt * tt / 2 * a[i];
      vv[i] = v[i] + tt * a[i];
    }
    VI_REAL Mt[TN * TN];
    VI_X(vi_system_mass)(sys, qq[sgn], Mt);
    for (int i = 0; i < n; i++) {
      VI_REAL s = 0;
      for (int j = 0; j < n; j++) {
        s += Mt[i * n + j] * vv[j];
      }
      pp[sgn][i] = s;
    }
    VI_X(vi_system_hidden)(sys, qq[sgn], pp[sgn], hh[sgn]);
    VI_X(vi_system_nh_residual)(sys, qq[sgn], pp[sgn], ph[sgn]);
    VI_X(vi_system_energy)(sys, qq[sgn], pp[sgn], &EE[sgn]);
    if (VI_X(vi_type_has_momenta)(t)) {
      t->obs->momenta(sys->state, qq[sgn], pp[sgn], JJ[sgn]);
    }
  }
  VI_REAL tol = 1000 * vi_pow(eps, 2 / VI_C(3.0));
  for (int k = 0; k < m; k++) {
    VI_REAL d = (hh[0][k] - hh[1][k]) / (2 * dt);
    VI_CHECK(c, vi_fabs(d) <= tol * qs * (as + vs * vs),
             "%s %s: d/dt G v = %.1e != 0 (constraint %d): lambda wrong", info->name, pn,
             (double)d, k);
  }
  /* The nonholonomic multipliers of vi_system_lambda keep Phi = 0:
   * d/dt (A(q) v + a) = 0 along the flow (whatever the sign inside). */
  for (int k = 0; k < sys->m_nh; k++) {
    VI_REAL d = (ph[0][k] - ph[1][k]) / (2 * dt);
    VI_CHECK(c, vi_fabs(d) <= tol * qs * (as + vs * vs),
             "%s %s: d/dt Phi = %.1e != 0 (constraint %d): mu wrong", info->name, pn,
             (double)d, k);
  }
  VI_REAL psc = VI_X(max1)(VI_X(nrm)(n, p0));
  VI_REAL dE = (EE[0] - EE[1]) / (2 * dt);
  VI_CHECK(c, vi_fabs(dE) <= tol * psc * (as + vs), "%s %s: dE/dt = %.1e along the flow",
           info->name, pn, (double)dE);
  if (info->n_momenta == 0) {
    return;
  }
  VI_CHECK(c, VI_X(vi_type_has_momenta)(t) && info->n_momenta <= TN &&
                  info->momentum_names != NULL,
           "%s %s: momentum maps declared but not given", info->name, pn);
  /* The two marks are disjoint and name existing maps. */
  const unsigned all = info->n_momenta >= 32 ? ~0u : (1u << info->n_momenta) - 1u;
  VI_CHECK(c, (info->momenta_noether & info->momenta_conserved) == 0 &&
                  ((info->momenta_noether | info->momenta_conserved) & ~all) == 0,
           "%s %s: momenta_noether %#x and momenta_conserved %#x overlap or name maps "
           "beyond the %d", info->name, pn, info->momenta_noether, info->momenta_conserved,
           info->n_momenta);
  if (!VI_X(vi_type_has_momenta)(t)) {
    return;
  }
  /* A map may vanish at the defaults (six-balls starts at rest and
   * reports (61) relative to q0); then "not a stub" is asked of its value
   * at a generic point (q0 + 0.37 i, p0 + 0.53 i). */
  VI_REAL J0[TN], Jg[TN], qg[TN], pg[TN];
  for (int i = 0; i < n; i++) {
    qg[i] = q0[i] + VI_C(0.37) * (i + 1);
    pg[i] = p0[i] + VI_C(0.53) * (i + 1);
  }
  int rg = t->obs->momenta(sys->state, qg, pg, Jg);
  int rc = t->obs->momenta(sys->state, q0, p0, J0);
  for (int k = 0; k < info->n_momenta; k++) {
    VI_REAL dJ = (JJ[0][k] - JJ[1][k]) / (2 * dt);
    const int varies = !map_kept(info, k);
    VI_CHECK(c, rc == 0 && rg == 0 && vi_isfinite(J0[k]) &&
                    (J0[k] != 0 || (vi_isfinite(Jg[k]) && Jg[k] != 0)) &&
                    (varies || vi_fabs(dJ) <= tol * qs * psc * (as + vs)),
             "%s %s: momentum %s = %.6g, d/dt = %.1e", info->name, pn, info->momentum_names[k],
             (double)J0[k], (double)dJ);
    printf("  %s at (q0, p0): %.12g, d/dt along the flow %.1e%s\n", info->momentum_names[k],
           (double)J0[k], (double)dJ, varies ? " (not asserted: no first integral of every datum)" : "");
  }
}

/* Projection (4): lands on the hidden constraint, is idempotent and
 * M^-1-orthogonal (p - Pp)' M^-1 Pp = 0. */
static void VI_X(test_projection)(vi_check_ctx *c, const VI_X(vi_system) *sys) {
  const char *name = sys->type->info->name, *pn = VI_PREC_NAME;
  const int n = sys->n, m = sys->m;
  const VI_REAL *q0 = sys->q0, *p0 = sys->p0, eps = VI_EPS;
  const VI_REAL qs = VI_X(max1)(VI_X(nrm)(n, q0));
  const VI_REAL golden = VI_C(0.618033988749894848204586834365638118);
  VI_REAL p[TN], pp1[TN], w[TN], gv[TN], Mi[TN * TN];
  for (int i = 0; i < n; i++) {
    VI_REAL u = (i + 1) * golden;
    p[i] = p0[i] + (u - vi_floor(u) - VI_C(0.5)) * VI_X(max1)(VI_X(nrm)(n, p0));
  }
  memcpy(pp1, p, sizeof p);
  int rc = VI_X(vi_system_project_p)(sys, q0, pp1);
  VI_CHECK(c, rc == VI_OK, "%s %s: project_p %d", name, pn, rc);
  VI_X(vi_system_hidden)(sys, q0, pp1, gv);
  VI_REAL ps = VI_X(max1)(VI_X(nrm)(n, p));
  /* G M^-1 p and p' M^-1 p scale with M^-1: its largest entry ms (a rigid
   * body's director masses E_i ~ 1e-4 next to its mass ~ 1, gyro-top). */
  VI_X(vi_system_mass_inv)(sys, q0, Mi);
  const VI_REAL ms = VI_X(max1)(VI_X(nrm)(n * n, Mi));
  VI_CHECK(c, VI_X(nrm)(m, gv) <= 100 * eps * qs * ps * ms,
           "%s %s: hidden after projection %.1e", name, pn, (double)VI_X(nrm)(m, gv));
  memcpy(w, pp1, sizeof w);
  VI_X(vi_system_project_p)(sys, q0, w);
  VI_REAL d = 0, ip = 0;
  for (int i = 0; i < n; i++) {
    d = vi_fabs(w[i] - pp1[i]) > d ? vi_fabs(w[i] - pp1[i]) : d;
    VI_REAL s = 0;
    for (int j = 0; j < n; j++) {
      s += Mi[i * n + j] * pp1[j];
    }
    ip += (p[i] - pp1[i]) * s;
  }
  VI_CHECK(c, d <= 100 * eps * ps && vi_fabs(ip) <= 100 * eps * ps * ps * ms,
           "%s %s: projection not idempotent (%.1e) or not orthogonal (%.1e)", name, pn,
           (double)d, (double)ip);
}

/* A short RK4 run of the index-1 form: the energy, the momentum maps and
 * the constraints stay put up to the error of RK4. 1000 steps over [0,
 * 0.5 / rate]: rate = 1, or 0.1 / tau for a motion with time scale tau
 * (vi_system_time_scale) below 0.1, as the conformance suite scales its
 * steps (every other default motion has tau >= 0.24; gyro-top spins at
 * 135.6 rad/s, tau = 0.0071, and would leave RK4 at 1e-5 over [0, 0.5]). */
static void VI_X(test_rk4_drift)(vi_check_ctx *c, const VI_X(vi_system) *sys, VI_REAL E) {
  const VI_X(vi_system_type) *t = sys->type;
  const vi_system_info *info = t->info;
  const char *pn = VI_PREC_NAME;
  const int n = sys->n, m = sys->m;
  const VI_REAL qs = VI_X(max1)(VI_X(nrm)(n, sys->q0));
  VI_REAL ys[1][2 * TN], E1 = 0, g[TN], J0[TN], J1[TN];
  double tau = INFINITY;
  const VI_REAL rate = VI_X(vi_system_time_scale)(sys, &tau) == VI_OK && tau < 0.1
                           ? (VI_REAL)(0.1 / tau)
                           : 1;
  VI_X(rk4)(sys, VI_C(0.5) / rate, 1000, 1, ys);
  VI_X(vi_system_energy)(sys, ys[0], ys[0] + n, &E1);
  VI_REAL dE = vi_fabs(E1 - E) / VI_X(max1)(vi_fabs(E));
  VI_REAL dJ = 0, dg = 0;
  if (m > 0) {
    t->holo->constraint(sys->state, ys[0], g);
    dg = VI_X(nrm)(m, g) / (qs * qs);
  }
  if (VI_X(vi_type_has_momenta)(t) && info->n_momenta <= TN) {
    t->obs->momenta(sys->state, sys->q0, sys->p0, J0);
    t->obs->momenta(sys->state, ys[0], ys[0] + n, J1);
    for (int k = 0; k < info->n_momenta; k++) {
      VI_REAL d = vi_fabs(J1[k] - J0[k]) / VI_X(max1)(vi_fabs(J0[k]));
      dJ = d > dJ && map_kept(info, k) ? d : dJ;
    }
  }
  printf("  RK4 on [0, %.3g], h = %.3g: relative drift of E %.1e, of the "
         "momenta %.1e, |g| %.1e\n",
         (double)(VI_C(0.5) / rate), (double)(VI_C(5e-4) / rate), (double)dE, (double)dJ,
         (double)dg);
  VI_REAL tol = VI_C(1e-9);
  if (!VI_X(vi_type_energy_conserved)(t)) {
    dE = 0; /* an affine constraint does work: E is no invariant */
  }
  VI_CHECK(c, dE <= tol && dJ <= tol && dg <= tol, "%s %s: RK4 drift E %.1e J %.1e g %.1e",
           info->name, pn, (double)dE, (double)dJ, (double)dg);
}

/* A mechanical system: the mass services, the derivative check, energy,
 * hidden constraint and multipliers at consistent data and along the
 * flow, the projection, a short RK4 run, the exact solution and the
 * bad-input contract. */
static void VI_X(test_system)(vi_check_ctx *c, const VI_X(vi_system_type) *t) {
  const vi_system_info *info = t->info;
  const char *pn = VI_PREC_NAME;
  char err[512] = "";
  VI_X(vi_system) *sys = NULL;
  int rc = VI_X(vi_system_alloc)(t, 0, NULL, &sys, err, sizeof err);
  VI_CHECK(c, rc == VI_OK && sys != NULL, "%s %s: alloc: %d %s", info->name, pn, rc, err);
  if (sys == NULL) {
    return;
  }
  int n = sys->n, m = sys->m;
  /* A dimension set by a parameter (vi_system_type.dim) is at most the
   * type's info->n. */
  VI_CHECK(c, (n == info->n || (t->dim != NULL && n >= 1 && n <= info->n)) &&
                  m == info->m && n <= TN && m <= TN,
           "%s %s: sizes %d %d", info->name, pn, n, m);
  if (n > TN || m > TN) {
    VI_X(vi_system_free)(sys);
    return;
  }
  VI_X(test_mass)(c, sys);
  VI_X(test_dgv)(c, sys);
  VI_X(test_check_lines)(c, sys);

  /* Energy, and the hidden constraint at consistent data. */
  const VI_REAL *q0 = sys->q0, *p0 = sys->p0, eps = VI_EPS;
  VI_REAL E = 0, gv[TN], v[TN], a[TN], lam[TN];
  rc = VI_X(vi_system_energy)(sys, q0, p0, &E);
  VI_CHECK(c, rc == VI_OK && vi_isfinite(E), "%s %s: energy %d", info->name, pn, rc);
  rc = VI_X(accel)(sys, q0, p0, v, a, lam);
  VI_CHECK(c, rc == VI_OK, "%s %s: lambda %d", info->name, pn, rc);
  VI_REAL qs = VI_X(max1)(VI_X(nrm)(n, q0)), vs = VI_X(max1)(VI_X(nrm)(n, v));
  rc = VI_X(vi_system_hidden)(sys, q0, p0, gv);
  VI_CHECK(c, rc == VI_OK && VI_X(nrm)(m, gv) <= 100 * eps * qs * vs,
           "%s %s: hidden constraint at (q0, p0) = %.1e", info->name, pn,
           (double)VI_X(nrm)(m, gv));
  for (int k = 0; k < m; k++) {
    VI_CHECK(c, vi_isfinite(lam[k]), "%s %s: lambda not finite", info->name, pn);
  }
  VI_X(test_lambda70)(c, sys, v, a);
  VI_X(test_flow_stationary)(c, sys, v, a);
  VI_X(test_projection)(c, sys);
  VI_X(test_rk4_drift)(c, sys, E);
  VI_X(test_exact)(c, sys, "defaults");
  VI_X(test_bad_input)(c, t, sys);
  VI_X(vi_system_free)(sys);
  VI_X(vi_system_free)(NULL);
}

/* A dimension set by a parameter (chaotic-nh: n = 2 m_c + 1) and a named
 * data set (cvt): the instance's n, every derivative at that n, the
 * paper's energy sheet E_0 = 3.06 for every ensemble member at m_c = 3
 * (demartin2018 §7.3), explicit data of n values, and a data set under
 * the user's other settings whatever their order. */
static void VI_X(test_param_kinds)(vi_check_ctx *c) {
  char err[512];
  const VI_X(vi_system_type) *t = VI_X(vi_system_find)("chaotic-nh", err, sizeof err);
  VI_CHECK(c, t != NULL && t->dim != NULL, "chaotic-nh not registered: %s", err);
  static const struct {
    const char *set[3];
    int nset, n;
  } cases[] = {{{"m_c=2"}, 1, 5},
               {{"m_c=5", "j=4", "m=1.7"}, 3, 11},
               {{"m_c=7", "J=4", "j=1"}, 3, 15},
               {{"m_c=2", "q0=0.3,-0.7,1.2,0.45,-0.8", "v0=-0.18,1.1,-0.6,0.4,0"}, 3, 5}};
  for (size_t k = 0; t != NULL && k < sizeof cases / sizeof cases[0]; k++) {
    VI_X(vi_system) *sys = NULL;
    int rc = VI_X(vi_system_alloc)(t, cases[k].nset, cases[k].set, &sys, err, sizeof err);
    VI_CHECK(c, rc == VI_OK && sys != NULL && sys->n == cases[k].n,
             "chaotic-nh %s %s: alloc %d, n = %d (want %d): %s", VI_PREC_NAME,
             cases[k].set[0], rc, sys ? sys->n : -1, cases[k].n, err);
    if (sys != NULL) {
      vi_report_ctx r = {0, 0, 1};
      int nf = VI_X(vi_system_check)(sys, 3, vi_report_line, &r);
      VI_CHECK(c, nf == 0 && r.lines > 0, "chaotic-nh %s n = %d: vi_system_check: %d failures",
               VI_PREC_NAME, sys->n, nf);
      VI_X(vi_system_free)(sys);
    }
  }
  for (int j = 0; t != NULL && j <= 9; j += 3) {
    char js[16];
    snprintf(js, sizeof js, "j=%d", j);
    const char *set[1] = {js};
    VI_X(vi_system) *sys = NULL;
    VI_REAL E = 0;
    int rc = VI_X(vi_system_alloc)(t, 1, set, &sys, err, sizeof err);
    rc = rc == VI_OK ? VI_X(vi_system_energy)(sys, sys->q0, sys->p0, &E) : rc;
    VI_CHECK(c, rc == VI_OK && vi_fabs(E - VI_C(3.06)) <= 10 * VI_EPS,
             "chaotic-nh %s %s: E_0 = %.17g, want 3.06: %s", VI_PREC_NAME, js, (double)E, err);
    VI_X(vi_system_free)(sys);
  }
  const VI_X(vi_system_type) *cv = VI_X(vi_system_find)("cvt", err, sizeof err);
  VI_CHECK(c, cv != NULL, "cvt not registered: %s", err);
  static const char *const orders[2][2] = {{"eps=0.25", "data=high"}, {"data=high", "eps=0.25"}};
  for (int o = 0; cv != NULL && o < 2; o++) {
    VI_X(vi_system) *sys = NULL;
    int rc = VI_X(vi_system_alloc)(cv, 2, orders[o], &sys, err, sizeof err);
    VI_REAL J[2] = {0, 0};
    if (rc == VI_OK) {
      cv->obs->momenta(sys->state, sys->q0, sys->p0, J);
    }
    /* E_d = 3 and E_p = 1 (y0 = 0: eps does not enter E_d(0)); eps
     * itself is the user's. */
    VI_CHECK(c, rc == VI_OK && vi_fabs(J[0] - 3) <= 10 * VI_EPS &&
                    vi_fabs(J[1] - 1) <= 10 * VI_EPS && sys->par[2] == VI_C(0.25),
             "cvt %s %s, %s: E_d %.17g, E_p %.17g, eps %g: %s", VI_PREC_NAME, orders[o][0],
             orders[o][1], (double)J[0], (double)J[1], sys ? (double)sys->par[2] : -1.0, err);
    VI_X(vi_system_free)(sys);
  }
  if (cv != NULL) {
    static const char *const two[2] = {"data=low", "data=high"};
    VI_X(expect_fail)(c, cv, "data=", VI_EINVAL, "data set '' of cvt", "low, high");
    VI_X(vi_system) *sys = NULL;
    int rc = VI_X(vi_system_alloc)(cv, 2, two, &sys, err, sizeof err);
    VI_CHECK(c, rc == VI_EINVAL && sys == NULL && contains(err, "set twice"),
             "cvt %s: two data sets: %d %s", VI_PREC_NAME, rc, err);
  }
}

/* A system with both constraint kinds refuses initial data that violates
 * only one of them, naming it: knife-edge-incline with q0 lifted off the
 * plane (phi and v0 kept, so A(q0) v0 = 0 still: only g catches it), and
 * with v0 given a sideways component in the plane (G v0 = 0 still: only A
 * catches it). The generic bad-input test moves both at once. */
static void VI_X(test_mixed_inconsistent)(vi_check_ctx *c) {
  char err[512];
  const VI_X(vi_system_type) *t = VI_X(vi_system_find)("knife-edge-incline", err, sizeof err);
  VI_CHECK(c, t != NULL, "knife-edge-incline not registered: %s", err);
  if (t == NULL) {
    return;
  }
  /* z0 + 0.05: |g| = 0.05 cos(0.3) = 4.8e-2. */
  VI_X(expect_fail)(c, t, "q0=0.47766824456280301,-0.2,0.19776010333066979,0.4",
                    VI_EINCONSISTENT, "|g(q0)| = 4.8e-02", "|A(q0) v0 + a(q0)| = ");
  /* v0 + 0.1 e_perp(0.4) = v0 + 0.1 (-sin 0.4 cos 0.3, cos 0.4, -sin 0.4 sin 0.3, 0):
   * |A v0| = 0.1, G v0 unchanged (0). */
  VI_X(expect_fail)(c, t,
                    "v0=1.2826822092276597,0.67623361286326422,0.39678010404347031,2",
                    VI_EINCONSISTENT, "|A(q0) v0 + a(q0)| = 1.0e-01", "|g(q0)| = ");
}

#endif /* VI_TEST_TMPL */
