/* test_contract.c: the method-system contract of issue 21 on the test-only
 * family nhmid (tests/families/nhmid_tmpl.c), which needs nonholonomic
 * constraints, handles holonomic ones when present, refuses systems by its
 * own rules, reports an extra block and declares an exact energy (built
 * with meson -Dtest_families=true, as tools/test does):
 *   - required and optional constraint kinds: nhmid takes the nonholonomic
 *     particle (nonholonomic only) and the knife edge (holonomic and
 *     nonholonomic), galerkin refuses the knife edge for its nonholonomic
 *     row;
 *   - refusals that depend on the system beyond its tables (a mass matrix
 *     M(q), a missing D_q(A'mu)), with a message naming the system;
 *   - an error text from init, kept by the stepper (vi_stepper_error);
 *   - the node layout (vi_node_size, vi_node_bind) and the extra block in
 *     the dimensions, the run columns and the order results;
 *   - the declared exact energy: the discrete gradient keeps the energy of
 *     a particle in a quartic potential at round-off, the midpoint
 *     gradient does not (its error shrinks like h^2), in both precisions;
 *     vi_order_exact on synthetic results;
 *   - an extra block named like another measure ("energy", "q", a
 *     system's momentum), named so that its columns could be others' ("q1")
 *     or break a CSV header ("a,b"), or with an unknown reference, is
 *     refused at allocation, naming the rule;
 *   - a negative control of the conformance test of declared momenta
 *     (test_conformance.c, cf_momenta): a non-variational tableau does not
 *     keep Kepler's angular momentum within that test's bound. */
#ifndef VI_TEST_TMPL

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "vistudy.h"

#define CHECK(...) VI_CHECK(T, __VA_ARGS__)

#define VI_TEST_TMPL
#include "prec.h"
#include "test_contract.c"
#include "prec_undef.h"

#define VI_PREC_Q
#include "prec.h"
#include "test_contract.c"
#include "prec_undef.h"
#undef VI_PREC_Q
#undef VI_TEST_TMPL

/* The extra block through the untemplated drivers: the run columns and an
 * order study's result. */
static void test_drivers(vi_check_ctx *T) {
  const vi_api *api = vi_api_of(VI_DOUBLE);
  vi_traj_config tc = {0};
  tc.system = "knife-edge-incline";
  tc.method = "nhmid";
  tc.T = 1;
  tc.N = 10;
  vi_traj *tr = NULL;
  vi_traj_info info;
  char err[512] = "";
  int rc = api->traj_open(&tc, &tr, &info, err, sizeof err);
  CHECK(rc == VI_OK, "traj_open nhmid on knife-edge-incline: %s", err);
  if (rc == VI_OK) {
    /* t, q1..q4, p1..p4, lambda1, mu1, phi_end1, energy, ... */
    CHECK(info.ncol > 12 && strcmp(info.colnames[10], "mu1") == 0 &&
              strcmp(info.colnames[11], "phi_end1") == 0 &&
              strcmp(info.colnames[12], "energy") == 0,
          "run columns: the extra block after the multipliers (%s, %s, %s)",
          info.ncol > 10 ? info.colnames[10] : "", info.ncol > 11 ? info.colnames[11] : "",
          info.ncol > 12 ? info.colnames[12] : "");
    api->traj_free(tr);
  }
  vi_order_config oc = {0};
  oc.system = "knife-edge-incline";
  oc.method = "nhmid";
  oc.T = 1;
  oc.nN = 4;
  for (int i = 0; i < 4; i++) {
    oc.N[i] = 16L << i;
  }
  vi_order_result *r = calloc(1, sizeof *r);
  rc = r ? api->order(&oc, r, err, sizeof err) : VI_ENOMEM;
  CHECK(rc == VI_OK, "order study of nhmid: %s", err);
  if (rc == VI_OK) {
    CHECK(r->nextra == 1 && strcmp(r->extra_name, "phi_end") == 0 && r->extra_zero,
          "order result: extra block %d '%s' zero %d", r->nextra, r->extra_name,
          r->extra_zero);
    CHECK(r->energy_exact && vi_order_exact(r, NULL, NULL) == 1,
          "order result: the declared exact energy holds");
    /* phi_end -> 0 like h^2: each halving of h divides it by about 4. */
    int halving = 1;
    for (int i = 1; i < r->nh; i++) {
      const double ratio = r->extra_err[i - 1] / r->extra_err[i];
      halving &= ratio > 3 && ratio < 5;
    }
    CHECK(halving, "phi_end errors %.2e .. %.2e do not shrink like h^2", r->extra_err[0],
          r->extra_err[r->nh - 1]);
  }
  free(r);
}

/* vi_order_exact on synthetic results: within the bound 100 eps sqrt(N)
 * holds, one run above it or a successful run with a NaN error does not,
 * no run that measured the energy is undecided; vi_order_exact_of the
 * same for the extra block against its floor. */
static void test_exact_rule(vi_check_ctx *T) {
  vi_order_result *r = calloc(1, sizeof *r);
  if (!r) {
    return;
  }
  r->nh = 3;
  r->energy_floor = 100 * 2.220446049250313e-16;
  for (int i = 0; i < 3; i++) {
    r->steps[i] = 100L << (2 * i);
    r->energy_err[i] = 0.5 * vi_order_exact_bound(r, r->steps[i]);
  }
  double worst = 0;
  int at = -1;
  CHECK(vi_order_exact(r, &worst, &at) == 1 && fabs(worst - 0.5) < 1e-12,
        "within the bound: holds (worst %.3g)", worst);
  r->energy_err[1] = 3 * vi_order_exact_bound(r, r->steps[1]);
  CHECK(vi_order_exact(r, &worst, &at) == 0 && at == 1, "one run above the bound: fails at 1");
  /* A run that succeeded but measured NaN breaks the claim; failed runs
   * measured nothing. */
  r->energy_err[1] = NAN;
  CHECK(vi_order_exact(r, &worst, &at) == 0 && at == 1 && isinf(worst),
        "a NaN energy error of a successful run: fails at 1 (worst %g)", worst);
  for (int i = 0; i < 3; i++) {
    r->energy_err[i] = NAN;
    r->status[i] = VI_NEWTON_NOCONV;
  }
  CHECK(vi_order_exact(r, NULL, NULL) == -1, "no run measured the energy: undecided");
  /* The extra block against its own floor times sqrt(N). */
  r->extra_floor = 1e-12;
  for (int i = 0; i < 3; i++) {
    r->status[i] = VI_OK;
    r->extra_err[i] = 0.9 * r->extra_floor * sqrt((double)r->steps[i]);
  }
  CHECK(vi_order_exact_of(r, VI_EXTRA, &worst, &at) == 1 && fabs(worst - 0.9) < 1e-12 &&
            fabs(vi_order_exact_bound_of(r, VI_EXTRA, 400) - 2e-11) < 1e-24,
        "extra block within its bound: holds (worst %.3g)", worst);
  r->extra_err[2] = 1.1 * r->extra_floor * sqrt((double)r->steps[2]);
  CHECK(vi_order_exact_of(r, VI_EXTRA, &worst, &at) == 0 && at == 2,
        "extra block above its bound at run 2: fails there (at %d)", at);
  free(r);
}

int main(void) {
  vi_check_ctx ctx = {0, 0};
  contract_d(&ctx);
  contract_q(&ctx);
  test_drivers(&ctx);
  test_exact_rule(&ctx);
  return vi_check_done(&ctx, "contract");
}

#else /* VI_TEST_TMPL: compiled once per precision */

/* A system type by registry name. */
static const VI_X(vi_system_type) * VI_X(find)(const char *name) {
  char err[256];
  return VI_X(vi_system_find)(name, err, sizeof err);
}

/* Allocate a stepper of spec on a copy of a type; the status, the message
 * in err. */
static int VI_X(try_alloc)(const VI_X(vi_system_type) * t, const char *spec, char *err,
                           size_t errlen) {
  VI_X(vi_system) *sys = NULL;
  VI_X(vi_stepper) *st = NULL;
  int rc = VI_X(vi_system_alloc)(t, 0, NULL, &sys, err, errlen);
  if (rc == VI_OK) {
    rc = VI_X(vi_stepper_alloc)(spec, sys, &st, err, errlen);
  }
  VI_X(vi_stepper_free)(st);
  VI_X(vi_system_free)(sys);
  return rc;
}

/* nhmid's extra block, renamed to a name another measure already has:
 * one hook per name (no mutable state). */
static int VI_X(extra_energy)(const void *opts, const vi_dims *d, const char **name, int *ref) {
  (void)opts;
  (void)d;
  *name = "energy";
  *ref = VI_EXTRA_ZERO;
  return 1;
}
static int VI_X(extra_q)(const void *opts, const vi_dims *d, const char **name, int *ref) {
  (void)opts;
  (void)d;
  *name = "q";
  *ref = VI_EXTRA_ZERO;
  return 1;
}
static int VI_X(extra_L)(const void *opts, const vi_dims *d, const char **name, int *ref) {
  (void)opts;
  (void)d;
  *name = "L";
  *ref = VI_EXTRA_ZERO;
  return 1;
}
static int VI_X(extra_q1)(const void *opts, const vi_dims *d, const char **name, int *ref) {
  (void)opts;
  (void)d;
  *name = "q1"; /* its column q11 would be six-balls' q11 */
  *ref = VI_EXTRA_ZERO;
  return 1;
}
static int VI_X(extra_comma)(const void *opts, const vi_dims *d, const char **name, int *ref) {
  (void)opts;
  (void)d;
  *name = "a,b"; /* two CSV fields */
  *ref = VI_EXTRA_ZERO;
  return 1;
}
static int VI_X(extra_badref)(const void *opts, const vi_dims *d, const char **name, int *ref) {
  (void)opts;
  (void)d;
  *name = "gamma";
  *ref = 7;
  return 1;
}


/* M(q) = (1 + x^2) I for the particle copy that nhmid must refuse. */
static int VI_X(mq_mass)(const void *state, const VI_REAL *q, VI_REAL *M) {
  (void)state;
  for (int i = 0; i < 9; i++) {
    M[i] = i % 4 == 0 ? 1 + q[0] * q[0] : 0;
  }
  return 0;
}

static int VI_X(mq_kinetic)(const void *state, const VI_REAL *q, const VI_REAL *v,
                            VI_REAL *dTdq, VI_REAL *DqMv, VI_REAL *Tqq) {
  (void)state;
  const VI_REAL vv = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
  dTdq[0] = q[0] * vv;
  dTdq[1] = dTdq[2] = 0;
  for (int i = 0; DqMv && i < 9; i++) {
    DqMv[i] = i % 3 == 0 ? 2 * q[0] * v[i / 3] : 0;
  }
  for (int i = 0; Tqq && i < 9; i++) {
    Tqq[i] = i == 0 ? vv : 0;
  }
  return 0;
}

static int VI_X(fail_grad)(const void *state, const VI_REAL *q, VI_REAL *dV) {
  (void)state;
  (void)q;
  (void)dV;
  return 3;
}

/* A quartic potential V = (x^4 + y^4) / 4 for the particle: the midpoint
 * gradient is then not exact. */
static int VI_X(quart_V)(const void *state, const VI_REAL *q, VI_REAL *V) {
  (void)state;
  *V = (q[0] * q[0] * q[0] * q[0] + q[1] * q[1] * q[1] * q[1]) / 4;
  return 0;
}

static int VI_X(quart_dV)(const void *state, const VI_REAL *q, VI_REAL *dV) {
  (void)state;
  dV[0] = q[0] * q[0] * q[0];
  dV[1] = q[1] * q[1] * q[1];
  dV[2] = 0;
  return 0;
}

static int VI_X(quart_H)(const void *state, const VI_REAL *q, VI_REAL *H) {
  (void)state;
  for (int i = 0; i < 9; i++) {
    H[i] = 0;
  }
  H[0] = 3 * q[0] * q[0];
  H[4] = 3 * q[1] * q[1];
  return 0;
}

/* max_k |E_k - E_0| / |E_0| over N steps of h. */
static int VI_X(energy_drift)(const VI_X(vi_system) * sys, const char *spec, VI_REAL h, long N,
                              VI_REAL *drift) {
  char err[256];
  VI_X(vi_stepper) *st = NULL;
  int rc = VI_X(vi_stepper_alloc)(spec, sys, &st, err, sizeof err);
  VI_X(vi_node) *nd = rc == VI_OK ? VI_X(vi_node_alloc)(VI_X(vi_stepper_dims)(st)) : NULL;
  VI_REAL E0 = 0, E = 0;
  *drift = 0;
  rc = rc == VI_OK && nd ? VI_X(vi_system_energy)(sys, sys->q0, sys->p0, &E0) : VI_ENOMEM;
  if (rc == VI_OK) {
    rc = VI_X(vi_stepper_init)(st, NULL, h, 0, sys->q0, sys->p0, nd);
  }
  for (long k = 0; rc == VI_OK && k < N; k++) {
    rc = VI_X(vi_stepper_step)(st, nd);
    if (rc == VI_OK && (rc = VI_X(vi_system_energy)(sys, nd->q, nd->p, &E)) == VI_OK) {
      VI_REAL d = vi_fabs(E - E0) / vi_fabs(E0);
      *drift = d > *drift ? d : *drift;
    }
  }
  free(nd);
  VI_X(vi_stepper_free)(st);
  return rc;
}

static void VI_X(contract)(vi_check_ctx *T) {
  char err[512] = "";
  const VI_X(vi_system_type) *np = VI_X(find)("nonholonomic-particle");
  const VI_X(vi_system_type) *ke = VI_X(find)("knife-edge-incline");
  const VI_X(vi_system_type) *pp = VI_X(find)("planar-pendulum");
  const VI_X(vi_method_type) *nhmid = VI_X(vi_method_find)("nhmid", err, sizeof err);
  const VI_X(vi_method_type) *gal = VI_X(vi_method_find)("galerkin", err, sizeof err);
  CHECK(np && ke && pp && nhmid && gal, "the registries hold the test's systems and nhmid");
  if (!(np && ke && pp && nhmid && gal)) {
    return;
  }

  /* Required and optional constraint kinds. */
  CHECK(VI_X(vi_method_compatible)(nhmid, np, err, sizeof err), "nhmid takes %s: %s",
        np->info->name, err);
  CHECK(VI_X(vi_method_compatible)(nhmid, ke, err, sizeof err),
        "nhmid takes %s (holonomic optional): %s", ke->info->name, err);
  CHECK(!VI_X(vi_method_compatible)(nhmid, pp, err, sizeof err) &&
            strstr(err, "nonholonomic constraints") != NULL,
        "nhmid refuses %s, which has no nonholonomic constraint: '%s'", pp->info->name, err);
  CHECK(!VI_X(vi_method_compatible)(gal, ke, err, sizeof err) &&
            strstr(err, "does not handle nonholonomic") != NULL,
        "galerkin refuses the nonholonomic row of %s: '%s'", ke->info->name, err);

  /* Refusals by the family's own rules, naming the system. */
  VI_X(vi_system_type) bt = *np;
  VI_X(vi_mech_ops) bm = *np->mech;
  bm.mass = NULL;
  bm.mass_q = VI_X(mq_mass);
  bm.kinetic = VI_X(mq_kinetic);
  bt.mech = &bm;
  int rc = VI_X(try_alloc)(&bt, "nhmid", err, sizeof err);
  CHECK(rc == VI_EUNSUPPORTED && strstr(err, "constant mass matrix") != NULL &&
            strstr(err, "nonholonomic-particle has M(q)") != NULL,
        "nhmid refuses M(q) with the reason: %d '%s'", rc, err);
  VI_X(vi_nh_ops) bn = *np->nh;
  bn.datmu = NULL;
  bt = *np;
  bt.nh = &bn;
  rc = VI_X(try_alloc)(&bt, "nhmid", err, sizeof err);
  CHECK(rc == VI_EUNSUPPORTED && strstr(err, "datmu") != NULL,
        "nhmid refuses a system without D_q(A'mu): %d '%s'", rc, err);

  /* An error text from init: a failing force makes the multipliers of the
   * initial data fail, and the stepper keeps why. */
  bm = *np->mech;
  bm.grad_potential = VI_X(fail_grad);
  bt = *np;
  bt.mech = &bm;
  VI_X(vi_system) *sys = NULL;
  VI_X(vi_stepper) *st = NULL;
  rc = VI_X(vi_system_alloc)(&bt, 0, NULL, &sys, err, sizeof err);
  if (rc == VI_OK) {
    rc = VI_X(vi_stepper_alloc)("nhmid", sys, &st, err, sizeof err);
  }
  if (rc == VI_OK) {
    VI_REAL buf[32];
    VI_X(vi_node) nd;
    VI_X(vi_node_bind)(&nd, buf, VI_X(vi_stepper_dims)(st));
    rc = VI_X(vi_stepper_init)(st, NULL, VI_C(0.1), 0, sys->q0, sys->p0, &nd);
    CHECK(rc > 0 && strstr(VI_X(vi_stepper_error)(st), "vi_system_lambda") != NULL,
          "init fails recoverably and says why: %d '%s'", rc, VI_X(vi_stepper_error)(st));
  }
  VI_X(vi_stepper_free)(st);
  VI_X(vi_system_free)(sys);

  /* The node layout by the stepper's dimensions: q, p, lambda, extra. */
  sys = NULL;
  st = NULL;
  rc = VI_X(vi_system_alloc)(ke, 0, NULL, &sys, err, sizeof err);
  if (rc == VI_OK) {
    rc = VI_X(vi_stepper_alloc)("nhmid", sys, &st, err, sizeof err);
  }
  CHECK(rc == VI_OK, "nhmid on knife-edge-incline: %s", err);
  if (rc == VI_OK) {
    const vi_dims *d = VI_X(vi_stepper_dims)(st);
    CHECK(d->n == 4 && d->nq == 4 && d->m == 1 && d->m_nh == 1 && d->ml == 2 && d->n_extra == 1,
          "dimensions %d %d %d %d %d %d", d->n, d->nq, d->m, d->m_nh, d->ml, d->n_extra);
    CHECK(vi_node_size(d) == 11, "node size %zu (q 4, p 4, multipliers 2, extra 1)",
          vi_node_size(d));
    VI_REAL buf[11];
    VI_X(vi_node) nd;
    VI_X(vi_node_bind)(&nd, buf, d);
    CHECK(nd.q == buf && nd.p == buf + 4 && nd.lambda == buf + 8 && nd.extra == buf + 10,
          "the node layout q, p, lambda, extra");
    char name[32];
    VI_X(vi_stepper_extra_name)(st, 0, name, sizeof name);
    CHECK(strcmp(name, "phi_end1") == 0, "extra column name '%s'", name);
    VI_X(vi_stepper_extra_name)(st, -1, name, sizeof name);
    CHECK(strcmp(name, "phi_end") == 0, "extra block name '%s'", name);
    CHECK(VI_X(vi_stepper_extra_ref)(st) == VI_EXTRA_ZERO, "extra block vanishes exactly");
    const vi_dims ds = VI_X(vi_system_dims)(sys);
    VI_X(vi_node) nr;
    VI_X(vi_node_bind)(&nr, buf, &ds);
    CHECK(ds.n_extra == 0 && nr.extra == NULL && vi_node_size(&ds) == 10,
          "a system's node has no extra block");
  }
  VI_X(vi_stepper_free)(st);
  VI_X(vi_system_free)(sys);

  /* An extra block may not take another measure's name: the reserved
   * ones, the measures' and the system's momenta. */
  {
    VI_X(vi_method_type) mt = *nhmid;
    struct {
      int (*hook)(const void *, const vi_dims *, const char **, int *);
      const char *clash;
    } cases[] = {{VI_X(extra_energy), "taken by energy"},
                 {VI_X(extra_q), "taken by q"},
                 {VI_X(extra_q1), "not ending in a digit"},
                 {VI_X(extra_comma), "an identifier"},
                 {VI_X(extra_badref), "VI_EXTRA_ZERO or VI_EXTRA_UNREFERENCED"},
                 {VI_X(extra_L), NULL}};
    sys = NULL;
    rc = VI_X(vi_system_alloc)(np, 0, NULL, &sys, err, sizeof err);
    for (int i = 0; rc == VI_OK && i < 6; i++) {
      mt.extra = cases[i].hook;
      _Alignas(16) char ob[256];
      vi_opts_defaults(mt.options, ob);
      st = NULL;
      int r = VI_X(vi_stepper_alloc_opts)(&mt, ob, sys, &st, err, sizeof err);
      if (cases[i].clash) {
        CHECK(r == VI_EINVAL && strstr(err, cases[i].clash) != NULL,
              "an extra block named like a measure is refused: %d '%s'", r, err);
      } else {
        /* The particle has no momentum named L: the name is free there. */
        CHECK(r == VI_OK, "an extra block named L on a system without L: %d '%s'", r, err);
      }
      VI_X(vi_stepper_free)(st);
    }
    VI_X(vi_system_free)(sys);
  }

  /* Negative control of cf_momenta (test_conformance.c): with the bound
   * that test uses, Radau IIA (no variational integrator) changes
   * Kepler's angular momentum far beyond it, so the check can fail. */
  {
    vi_trace_config tc = {0};
    tc.system = "kepler";
    tc.method = "vprk:tableau=radau-iia,s=2";
    tc.h = 0.05;
    tc.N = 40;
    tc.measure = "L";
    vi_trace_result tr;
    rc = VI_X(vi_trace)(&tc, &tr, err, sizeof err);
    const VI_X(vi_system_type) *kt = VI_X(find)("kepler");
    VI_X(vi_system) *ks = NULL;
    const int krc = kt ? VI_X(vi_system_alloc)(kt, 0, NULL, &ks, err, sizeof err) : VI_EINVAL;
    CHECK(krc == VI_OK, "the negative control's kepler: %s", err);
    if (krc == VI_OK) {
      const double qs = (double)VI_X(vi_norm_inf)(ks->nq, ks->q0);
      const double ps = (double)VI_X(vi_norm_inf)(ks->n, ks->p0);
      const double bound = 100 * (double)VI_EPS * sqrt((double)tc.N) * fmax(1, qs) * fmax(1, ps);
      CHECK(rc == VI_OK && tr.amax > 1e3 * bound,
            "%s: radau-iia changes L by %.2e, not far beyond the bound %.2e", VI_PREC_NAME,
            tr.amax, bound);
      printf("contract (%s): negative control, radau-iia changes Kepler's L by %.2e (bound "
             "%.2e)\n",
             VI_PREC_NAME, tr.amax, bound);
    }
    VI_X(vi_system_free)(ks);
  }

  /* The exact energy on a quartic potential: the discrete gradient at
   * round-off (within the order studies' bound 100 eps sqrt(N)), the
   * midpoint gradient at O(h^2). */
  bm = *np->mech;
  bm.potential = VI_X(quart_V);
  bm.grad_potential = VI_X(quart_dV);
  bm.hess_potential = VI_X(quart_H);
  bt = *np;
  bt.mech = &bm;
  sys = NULL;
  rc = VI_X(vi_system_alloc)(&bt, 0, NULL, &sys, err, sizeof err);
  CHECK(rc == VI_OK, "quartic particle: %s", err);
  if (rc == VI_OK) {
    VI_REAL dg = 0, m1 = 0, m2 = 0;
    const long N = 200;
    int r1 = VI_X(energy_drift)(sys, "nhmid:gradient=gonzalez", VI_C(0.05), N, &dg);
    int r2 = VI_X(energy_drift)(sys, "nhmid:gradient=midpoint", VI_C(0.05), N, &m1);
    int r3 = VI_X(energy_drift)(sys, "nhmid:gradient=midpoint", VI_C(0.025), 2 * N, &m2);
    const VI_REAL bound = 100 * VI_EPS * vi_sqrt((VI_REAL)N);
    CHECK(r1 == VI_OK && dg <= bound, "%s: discrete gradient energy drift %.2e (bound %.2e)",
          VI_PREC_NAME, (double)dg, (double)bound);
    CHECK(r2 == VI_OK && r3 == VI_OK && m1 > 1e6 * bound && m1 / m2 > 3 && m1 / m2 < 5,
          "%s: midpoint gradient energy drift %.2e (h = 0.05), %.2e (h = 0.025): O(h^2)",
          VI_PREC_NAME, (double)m1, (double)m2);
    printf("contract (%s): energy drift over 10 time units, discrete gradient %.2e, midpoint "
           "gradient %.2e (h = 0.05) and %.2e (h = 0.025)\n",
           VI_PREC_NAME, (double)dg, (double)m1, (double)m2);
  }
  VI_X(vi_system_free)(sys);
}

#endif /* VI_TEST_TMPL */
