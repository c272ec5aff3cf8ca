/* conformance_tmpl.c: the conformance checks of one method family
 * (vi_conformance, core/api_tmpl.h; docs/architecture.md, "The
 * method-system contract") on every compatible system, in the working
 * precision (prec.h). The family is given by its type, registered or the
 * caller's own (examples/symplectic_euler.c), and reached only through it:
 * its steppers come from vi_stepper_alloc_type, its order studies and
 * traces from the type fields of their configurations, never from the
 * method registry by name. The conformance suite (tests/test_conformance.c)
 * runs it on every registered family, so a family or system added later is
 * covered without anyone remembering to add it:
 *   - each example spec of the family (vi_method_type.examples) runs 20
 *     steps through the fixed-step driver on nodes laid out by the
 *     stepper's dimensions; the holonomic residual |g(q_k)| stays at
 *     round-off, the nonholonomic residual |A(q_k) v_k + a(q_k)| is
 *     consistent (at round-off, or smaller when h is halved) and a group
 *     element in an embedding stays on its group;
 *   - the method's extra block has distinct names, and finite values;
 *   - init solves as many intervals as the family declares (lookahead), and
 *     counts their Newton iterations;
 *   - it reaches every order the family declares for it
 *     (vi_method_type.expected_order: q, p, lambda, energy, the extra block)
 *     on a short order study with explicit step sizes, within 0.5 (the rule
 *     of the paper tables' tests; at least the declared order where the
 *     system declares its default data a relative equilibrium,
 *     vi_obs_ops.steady), and an energy it declares exact
 *     (VI_ORDER_EXACT) stays within round-off;
 *   - a system whose force fails (grad V, grad H or the Lie form's group
 *     force; recoverably, then fatally) is reported with that status, never
 *     crashed on.
 * Pairs the family declares it cannot integrate (vi_method_compatible, and
 * its own refusals, vi_method_accepts: a message naming the system) are
 * counted and skipped. The library never prints: every check's line and
 * every note goes to the caller's report callback. */
#include "prec.h"
#include "numerics_tmpl.h"
#include "api_tmpl.h"
#include "fit.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The largest nq, ml and extra block the checks' stack scratch holds. */
enum { CN = 16 };

/* One call's reporting: the caller's callback and the counts. */
typedef struct cf_ctx {
  vi_conformance_report report;
  void *rctx;
  vi_conformance_counts n;
} cf_ctx;

static void cf_line(cf_ctx *c, int kind, const char *fmt, va_list ap) {
  if (c->report) {
    char line[1024];
    vsnprintf(line, sizeof line, fmt, ap);
    c->report(c->rctx, kind, line);
  }
}

/* A check: counted, and its line (what is checked and what was measured)
 * reported as passed or failed. */
static void check(cf_ctx *c, int ok, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void check(cf_ctx *c, int ok, const char *fmt, ...) {
  c->n.checks++;
  c->n.failed += !ok;
  va_list ap;
  va_start(ap, fmt);
  cf_line(c, ok ? VI_CONFORMANCE_PASSED : VI_CONFORMANCE_FAILED, fmt, ap);
  va_end(ap);
}

/* An informative line, no verdict. */
static void note(cf_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(cf_ctx *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  cf_line(c, VI_CONFORMANCE_NOTE, fmt, ap);
  va_end(ap);
}

/* Over the run: max |g(q_k)| (the holonomic residual at the nodes), max
 * |A(q_k) v_k + a(q_k)| (the nonholonomic one), the distance of a group
 * element in an embedding from its group, whether the extra block stayed
 * finite, and max |q_k|. */
typedef struct cf_obs {
  const VI_X(vi_system) * sys;
  VI_REAL gmax, qmax, nhmax, gdef;
  int n_extra, extra_finite;
  VI_REAL gvmax, gvvmax; /* |G M^-1 p| and |G v| (the method's v, else M^-1 p) */
} cf_obs;

static int cf_observe(void *ctx, long k, const VI_X(vi_node) * nd) {
  cf_obs *o = ctx;
  VI_REAL g[CN];
  (void)k;
  const VI_X(vi_system) *sys = o->sys;
  if (sys->m > 0) {
    int rc = vi_callback_status(sys->type->holo->constraint(sys->state, nd->q, g));
    if (rc != VI_OK) {
      return rc;
    }
    VI_REAL r = VI_X(vi_norm_inf)(sys->m, g);
    o->gmax = r > o->gmax || r != r ? r : o->gmax;
    if (sys->type->mech) {
      if ((rc = VI_X(vi_system_hidden)(sys, nd->q, nd->p, g)) != VI_OK) {
        return rc;
      }
      r = VI_X(vi_norm_inf)(sys->m, g);
      o->gvmax = r > o->gvmax || r != r ? r : o->gvmax;
      VI_REAL G[CN * CN], v[CN];
      if (nd->v) {
        memcpy(v, nd->v, (size_t)sys->n * sizeof *v);
      } else if ((rc = VI_X(vi_system_minv_apply)(sys, nd->q, nd->p, v)) != VI_OK) {
        return rc;
      }
      if ((rc = vi_callback_status(
               sys->type->holo->constraint_jac(sys->state, nd->q, G))) != VI_OK) {
        return rc;
      }
      for (int i = 0; i < sys->m; i++) {
        VI_REAL s = 0;
        for (int j = 0; j < sys->n; j++) {
          s += G[i * sys->n + j] * v[j];
        }
        r = vi_fabs(s);
        o->gvvmax = r > o->gvvmax || r != r ? r : o->gvvmax;
      }
    }
  }
  if (sys->m_nh > 0) {
    int rc = VI_X(vi_system_nh_residual)(sys, nd->q, nd->p, g);
    if (rc != VI_OK) {
      return rc;
    }
    VI_REAL r = VI_X(vi_norm_inf)(sys->m_nh, g);
    o->nhmax = r > o->nhmax || r != r ? r : o->nhmax;
  }
  if (sys->type->space != NULL && sys->type->space->project != NULL) {
    VI_REAL gq[CN], res = 0;
    memcpy(gq, nd->q, (size_t)sys->nq * sizeof *gq);
    int rc = vi_callback_status(sys->type->space->project(sys->state, gq, &res));
    o->gdef = rc != VI_OK || res != res ? (VI_REAL)NAN : res > o->gdef ? res : o->gdef;
  }
  for (int i = 0; i < o->n_extra; i++) {
    o->extra_finite &= vi_isfinite(nd->extra[i]);
  }
  VI_REAL qn = VI_X(vi_norm_inf)(sys->nq, nd->q);
  o->qmax = qn > o->qmax ? qn : o->qmax;
  return VI_OK;
}

/* One run of N steps of h from the system's initial data, observed. */
static int cf_run(VI_X(vi_stepper) * st, const VI_X(vi_system) * sys, VI_REAL h, long N,
                  cf_obs *o) {
  VI_X(vi_node) *nd = VI_X(vi_node_alloc)(VI_X(vi_stepper_dims)(st));
  if (!nd) {
    return VI_ENOMEM;
  }
  cf_obs z = {sys, 0, 1, 0, 0, VI_X(vi_stepper_dims)(st)->n_extra, 1, 0, 0};
  *o = z;
  int rc = VI_X(vi_integrate)(st, NULL, h, N, sys->q0, sys->p0, nd, cf_observe, o, NULL);
  free(nd);
  return rc;
}

static int cf_fail_rec(const void *st, const VI_REAL *q, VI_REAL *dV) {
  (void)st;
  (void)q;
  (void)dV;
  return 2;
}

static int cf_fail_fatal(const void *st, const VI_REAL *q, VI_REAL *dV) {
  (void)st;
  (void)q;
  (void)dV;
  return -2;
}

static int cf_fail_rec_lie(const void *st, const VI_REAL *g, const VI_REAL *xi,
                           VI_REAL *F) {
  (void)st;
  (void)g;
  (void)xi;
  (void)F;
  return 2;
}

static int cf_fail_fatal_lie(const void *st, const VI_REAL *g, const VI_REAL *xi,
                             VI_REAL *F) {
  (void)st;
  (void)g;
  (void)xi;
  (void)F;
  return -2;
}

/* The unit of time of the suite's fixed steps (h = 0.05, the order study's
 * T = 0.5) for a system: 1, or tau / CF_TAU for a motion faster than
 * CF_TAU (tau = vi_system_time_scale, the time in which q moves by its
 * size). The steps were chosen for the systems' default motions (the
 * fastest, knife-edge-incline, has tau = 0.24: unit 1); a much faster one
 * (the gyroscopic top, betsch-ggl §6.2, spinning at 135.6 rad/s: tau =
 * 0.0071) runs the same checks on its own time scale instead of steps
 * several radians long. */
#define CF_TAU 0.1
static VI_REAL cf_unit(const VI_X(vi_system) * sys) {
  double tau = INFINITY;
  if (VI_X(vi_system_time_scale)(sys, &tau) != VI_OK || !(tau < CF_TAU)) {
    return 1;
  }
  return (VI_REAL)(tau / CF_TAU);
}

/* Whether the system's default motion is a relative equilibrium, as the
 * system declares it (vi_obs_ops.steady, vi_system_steady): there the
 * errors may converge faster than declared, so the declared orders are
 * judged as "at least". Measured on the heavy top's steady precession
 * (betsch-ggl (112)): the energy error of the man2020 schemes converges at
 * twice their declared order (4.03 for LGG m = 2, declared 2; 8.00 for LLL
 * and EGG m = 3, declared 4), the discrete flow staying close to a
 * relative equilibrium of its own, and VI-S's p is still pre-asymptotic at
 * these steps (1.76 for a declared 1; the reading notes saw 1.36, 1.16 at
 * h = 1e-4 .. 1e-5, tending to 1). A failing callback counts as not
 * steady (the exact rule is then applied). */
static int cf_steady(const VI_X(vi_system) * sys, const char **motion) {
  return VI_X(vi_system_steady)(sys, motion) == VI_OK && *motion != NULL;
}

/* The declared orders of spec on sys (the system's defaults, as the order
 * study makes them from the type), measured by vi_order_study with
 * explicit step sizes h = 1/32 .. 1/256 (T = 0.5) in the system's unit of
 * time (cf_unit): small enough for the fastest default motion (the 3D
 * double pendulum) to be asymptotic. */
static void cf_orders(cf_ctx *c, const VI_X(vi_method_type) * type, const char *spec,
                      const VI_X(vi_system) * sys, const VI_X(vi_stepper) * st,
                      VI_REAL unit) {
  const char *sysname = sys->type->info->name, *motion = NULL;
  const int atleast = cf_steady(sys, &motion);
  static const long Ns[] = {16, 32, 64, 128}; /* h = T/N = 1/32 .. 1/256 */
  static const char *const qn[VI_EXTRA + 1] = {"q", "p", "lambda", "energy", "extra"};
  int want[VI_EXTRA + 1], any_state = 0;
  for (int x = 0; x <= VI_EXTRA; x++) {
    want[x] = VI_X(vi_stepper_expected_order)(st, x);
    any_state |= x != VI_ENERGY && want[x] >= 0;
  }
  const int exact = want[VI_ENERGY] == VI_ORDER_EXACT;
  any_state |= want[VI_EXTRA] == VI_ORDER_EXACT;
  if (!any_state && want[VI_ENERGY] < 0 && !exact) {
    return;
  }
  vi_order_config a = {0};
  /* The system and the family by their types (this precision's): the
   * family need not be registered. */
  a.system = sysname;
  a.VI_X(system) = sys->type;
  a.method = spec;
  a.VI_X(method) = type;
  a.T = 0.5 * (double)unit;
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
  check(c, rc == VI_OK, "%s on %s (%s): order study %s%s%s", spec, sysname, VI_PREC_NAME,
        rc == VI_OK ? "ran" : "failed", err[0] ? ": " : "", err);
  /* Declared exact (the energy, or an extra block the exact flow has
   * zero): every run within round-off, and measured (a family declares an
   * exact energy only where it is a first integral). */
  for (int x = VI_ENERGY; rc == VI_OK && x <= VI_EXTRA; x++) {
    if (want[x] != VI_ORDER_EXACT ||
        (x == VI_EXTRA && !(r->nextra > 0 && r->extra_zero))) {
      continue;
    }
    double worst = 0;
    int at = -1, held = vi_order_exact_of(r, x, &worst, &at);
    const double *ex = x == VI_ENERGY ? r->energy_err : r->extra_err;
    const char *name = x == VI_ENERGY ? "energy" : r->extra_name;
    check(c, held == 1,
          "%s on %s (%s): %s declared exact, %.2e at h = %g is %.2g times the round-off "
          "bound (%s)",
          spec, sysname, VI_PREC_NAME, name, at >= 0 ? ex[at] : NAN,
          at >= 0 ? r->h[at] : NAN, worst,
          held < 0 ? "no run measured it"
          : held   ? "within it"
                   : "above it");
    note(c, "%s on %s (%s): %s %s, declared exact (worst %.2g of the bound)", spec,
         sysname, VI_PREC_NAME, name,
         held < 0 ? "not measured"
         : held   ? "exact"
                  : "NOT exact",
         worst);
  }
  for (int x = 0; rc == VI_OK && x <= VI_EXTRA; x++) {
    if (want[x] < 0 || (x == VI_EXTRA && !(r->nextra > 0 && r->extra_zero))) {
      continue;
    }
    double fl = 0;
    const double *e = x == VI_ENERGY ? r->energy_err : vi_order_errors(r, x, &fl);
    fl = x == VI_ENERGY ? r->energy_floor : fl;
    vi_fit f = vi_fit_order(r->nh, r->h, e, fl, 10.0);
#ifndef VI_PREC_Q
    /* A high order on a slow motion reaches the floor of double within
     * these steps (e.g. Gauss s = 3 on the point vortices): the quad pass
     * of the same pair checks it, and there it must resolve. The floor is
     * also reached where the finest error is no smaller than the one
     * before (truncation errors do not grow as h shrinks), whatever the
     * fit says of the four, although it is above the study's floor of 100
     * eps |x|: a multiplier that acts on the momenta through h has a
     * round-off floor of about eps |p| / h, and one carried from step to
     * step undamped (nhprk, |R(inf)| = 1) grows it as sqrt(N)
     * (nhprk:s=4 on turntable: 1.1e-12, 1.6e-12 at h = 1/128, 1/256 in
     * double against 4.5e-13, 2.8e-14 in quad). A caller that runs only
     * double (vi_conformance_d alone) leaves these unchecked: the note
     * says so. */
    const int stalled = r->nh >= 2 && e[r->nh - 1] >= e[r->nh - 2];
    if ((f.status == VI_FIT_PLATEAU || f.status == VI_FIT_TOO_FEW || stalled) &&
        want[x] > 0 && e[0] <= 1e4 * fl) {
      note(c,
           "%s on %s (%s): %s at the floor of double (%.2e .. %.2e): left to the quad pass "
           "(vi_conformance_q)",
           spec, sysname, VI_PREC_NAME, qn[x], e[0], e[3]);
      c->n.deferred++;
      continue;
    }
#endif
    /* VI_ORDER_NONE: the paper says it does not converge; the verdict must
     * be 'd', never a slope. On a relative equilibrium (cf_steady) the
     * errors may converge faster than declared: at least the declared
     * order there. */
    int ok = want[x] == VI_ORDER_NONE
                 ? f.status == VI_FIT_DIVERGENT
                 : f.status == VI_FIT_OK && (atleast ? f.order >= want[x] - 0.5
                                                     : fabs(f.order - want[x]) <= 0.5);
    check(c, ok,
          "%s on %s (%s): %s order %.2f (status %d), declared %d; errors %.2e .. %.2e",
          spec, sysname, VI_PREC_NAME, qn[x], f.order, f.status, want[x], e[0], e[3]);
    if (want[x] == VI_ORDER_NONE) {
      note(c, "%s on %s (%s): %s %s, declared: does not converge", spec, sysname,
           VI_PREC_NAME, qn[x], f.status == VI_FIT_DIVERGENT ? "d" : "converges");
    } else {
      note(c, "%s on %s (%s): %s order %.2f, declared %d%s%s%s", spec, sysname,
           VI_PREC_NAME, qn[x], f.status == VI_FIT_OK ? f.order : NAN, want[x],
           atleast ? " (at least: a relative equilibrium, " : "", atleast ? motion : "",
           atleast ? ")" : "");
    }
  }
  free(r);
}

/* The momentum maps the system declares Noether quantities, where the
 * family declares their exact conservation (VI_MOMENTA): a trace of each
 * in this precision changes by no more than round-off, 100 eps sqrt(N)
 * relative to the size |q0| |p0| a momentum map is computed from. */
static void cf_momenta(cf_ctx *c, const VI_X(vi_method_type) * type, const char *spec,
                       const VI_X(vi_system) * sys, const VI_X(vi_stepper) * st,
                       VI_REAL unit) {
  const vi_system_info *info = sys->type->info;
  if (VI_X(vi_stepper_expected_order)(st, VI_MOMENTA) != VI_ORDER_EXACT ||
      info->momenta_noether == 0) {
    return;
  }
  const long N = 40;
  const double qs = (double)VI_X(vi_norm_inf)(sys->nq, sys->q0);
  const double ps = (double)VI_X(vi_norm_inf)(sys->n, sys->p0);
  const double bound = 100 * (double)VI_EPS * sqrt((double)N) * fmax(1, qs) * fmax(1, ps);
  for (int i = 0; i < info->n_momenta; i++) {
    if (!(info->momenta_noether & (1u << i))) {
      continue;
    }
    vi_trace_config tc = {0};
    tc.system = info->name;
    tc.VI_X(system) = sys->type;
    tc.method = spec;
    tc.VI_X(method) = type;
    tc.h = 0.04 * (double)unit; /* inside the first-order GGL schemes' stability
                                   bound on four-particle, 0.0466 (betsch-ggl notes
                                   item 9) */
    tc.N = N;
    tc.measure = info->momentum_names[i];
    vi_trace_result tr;
    char err[512] = "";
    int rc = VI_X(vi_trace)(&tc, &tr, err, sizeof err);
    check(
        c, rc == VI_OK && tr.amax <= bound,
        "%s on %s (%s): %s declared exactly conserved, changed by %.2e (bound %.2e)%s%s",
        spec, info->name, VI_PREC_NAME, info->momentum_names[i], tr.amax, bound,
        err[0] ? ": " : "", err);
    note(c, "%s on %s (%s): %s conserved to %.2e (bound %.2e), declared exact", spec,
         info->name, VI_PREC_NAME, info->momentum_names[i], tr.amax, bound);
  }
}

/* The columns of a run with the family: every name distinct (the extra
 * block's among the system's measures: vi_stepper_alloc refuses a clash of
 * the block's name, this checks the columns it makes), and each found by
 * its name. */
static void cf_columns(cf_ctx *c, const char *spec, const VI_X(vi_system) * sys,
                       const VI_X(vi_stepper) * st) {
  vi_measure all[128];
  const int n = VI_X(vi_measures)(sys, st, all, 128);
  int ok = n <= 128;
  for (int i = 0; ok && i < n; i++) {
    for (int j = 0; j < i; j++) {
      ok &= strcmp(all[i].name, all[j].name) != 0;
    }
    vi_measure m;
    char err[512];
    ok &= VI_X(vi_measure_find)(sys, st, all[i].name, &m, err, sizeof err) == VI_OK &&
          m.kind == all[i].kind && m.index == all[i].index;
  }
  check(c, ok, "%s on %s (%s): the run's %d columns distinct and each found by its name",
        spec, sys->type->info->name, VI_PREC_NAME, n);
}

/* Five steps of h from the initial data, the state of each node stored
 * into out (5 nodes of vi_node_size reals), the benchmark hooks called
 * before each step when hooks. */
static int cf_steps(VI_X(vi_stepper) * st, const VI_X(vi_system) * sys, VI_REAL h,
                    int hooks, VI_REAL *out, size_t nsz) {
  const vi_dims *dims = VI_X(vi_stepper_dims)(st);
  VI_X(vi_node) *nd = VI_X(vi_node_alloc)(dims);
  VI_REAL *F = NULL, *J = NULL;
  int rc = nd ? VI_X(vi_stepper_init)(st, NULL, h, 0, sys->q0, sys->p0, nd) : VI_ENOMEM;
  if (rc == VI_OK && hooks) {
    const int Nu = VI_X(vi_stepper_unknowns)(st);
    F = malloc((size_t)(Nu > 0 ? Nu : 1) * sizeof *F);
    J = malloc((size_t)(Nu > 0 ? Nu : 1) * (size_t)(Nu > 0 ? Nu : 1) * sizeof *J);
    rc = F && J ? VI_OK : VI_ENOMEM;
  }
  for (int k = 0; rc == VI_OK && k < 5; k++) {
    if (hooks) {
      int ra = VI_X(vi_stepper_assemble)(st, F, J);
      int rs = VI_X(vi_stepper_solve)(st);
      rc =
          (ra == VI_OK || ra == VI_EUNSUPPORTED) && (rs == VI_OK || rs == VI_EUNSUPPORTED)
              ? VI_OK
          : ra != VI_OK ? ra
                        : rs;
    }
    if (rc == VI_OK) {
      rc = VI_X(vi_stepper_step)(st, nd);
    }
    if (rc == VI_OK) {
      memcpy(out + (size_t)k * nsz, nd->q, nsz * sizeof *out);
    }
  }
  free(F);
  free(J);
  free(nd);
  return rc;
}

static void cf_hooks(cf_ctx *c, const char *spec, const VI_X(vi_system) * sys,
                     VI_X(vi_stepper) * st, VI_REAL h) {
  const size_t nsz = vi_node_size(VI_X(vi_stepper_dims)(st));
  VI_REAL *a = calloc(10 * nsz, sizeof *a);
  if (!a) {
    return;
  }
  int ra = cf_steps(st, sys, h, 0, a, nsz);
  int rb = cf_steps(st, sys, h, 1, a + 5 * nsz, nsz);
  VI_REAL d = 0;
  for (size_t i = 0; ra == VI_OK && rb == VI_OK && i < 5 * nsz; i++) {
    VI_REAL e = vi_fabs(a[i] - a[5 * nsz + i]);
    d = e > d || e != e ? e : d;
  }
  check(
      c, ra == rb && d == 0,
      "%s on %s (%s): the benchmark hooks leave the trajectory unchanged (status %d, %d; "
      "max difference %.1e)",
      spec, sys->type->info->name, VI_PREC_NAME, ra, rb, (double)d);
  free(a);
}

/* The consistency of the nonholonomic residual at the nodes: at round-off,
 * or smaller after 100 steps of h/2 than after 50 of h. */
static void cf_nh(cf_ctx *c, const char *spec, const VI_X(vi_system) * sys,
                  VI_X(vi_stepper) * st, const cf_obs *o1, VI_REAL unit) {
  if (sys->m_nh == 0) {
    return;
  }
  cf_obs o2;
  int rc = cf_run(st, sys, VI_C(0.01) * unit, 100, &o2);
  const VI_REAL vs = 1 + VI_X(vi_norm_inf)(sys->n, sys->v0);
  const VI_REAL floor = 1e4 * VI_EPS * vs * (o1->qmax > 1 ? o1->qmax : 1);
  /* A family that keeps it (VI_KEEPS_NH) has it at round-off at both h. */
  const int kept = (VI_X(vi_stepper_keeps)(st) & VI_KEEPS_NH) != 0;
  const int ok =
      rc == VI_OK && (kept ? o1->nhmax <= floor && o2.nhmax <= floor
                           : o1->nhmax <= floor || o2.nhmax <= o1->nhmax / 1.5);
  check(c, ok,
        "%s on %s (%s): |A v + a| at the nodes %.1e (h = 0.02), %.1e (h = 0.01): %s",
        spec, sys->type->info->name, VI_PREC_NAME, (double)o1->nhmax, (double)o2.nhmax,
        kept ? "declared kept, at round-off at both" : "at round-off or converging");
}

/* Every solver of the built-in Newton converges on every pair, at the run's
 * step and at a step so small that the residual's round-off floor (F is
 * scaled by 1/h in most families) lies above rtol, and lands where exact
 * Newton does (and the fixed-point iteration where the family has it, a
 * refusal naming the families that do where not): 20 steps each, the
 * final q within 1e4 eps (1 + |q|)
 * (each solve within rtol = 100 eps). Found this way: the chord method
 * asking for fresh Jacobians at that floor until max_iter (vprk s = 2 on
 * kepler, h = 1.4e-3), simplified Newton taking the ratio of a solve's
 * first two steps for its rate (galerkin s = 1 on four-particle, quad). */
static void cf_solvers(cf_ctx *c, const char *spec, const VI_X(vi_system) * sys,
                       VI_X(vi_stepper) * st, VI_REAL unit, int fixed_point) {
  static const int kinds[] = {VI_SOLVER_NEWTON, VI_SOLVER_CHORD, VI_SOLVER_SIMPLIFIED,
                              VI_SOLVER_FIXED_POINT};
  const int nk = fixed_point ? 4 : 3;
  const VI_REAL hs[] = {VI_C(0.02) * unit, VI_C(1e-4) * unit};
  const vi_dims *dims = VI_X(vi_stepper_dims)(st);
  VI_X(vi_node) *nd = VI_X(vi_node_alloc)(dims);
  VI_REAL qn[CN];
  if (!nd) {
    return;
  }
  for (int ih = 0; ih < 2; ih++) {
    for (int k = 0; k < nk; k++) {
      VI_X(vi_solver_opts) so;
      VI_X(vi_solver_opts_default)(&so);
      so.kind = kinds[k];
      int rc =
          VI_X(vi_integrate)(st, &so, hs[ih], 20, sys->q0, sys->p0, nd, NULL, NULL, NULL);
      VI_REAL d = 0, scale = 1;
      for (int i = 0; rc == VI_OK && i < dims->nq; i++) {
        if (k == 0) {
          qn[i] = nd->q[i];
        }
        VI_REAL e = vi_fabs(nd->q[i] - qn[i]);
        d = e > d || e != e ? e : d;
        scale = vi_fabs(qn[i]) + 1 > scale ? vi_fabs(qn[i]) + 1 : scale;
      }
      if (rc != VI_OK && k == 0) {
        /* exact Newton's own round-off floor above its stall bound (1e3
         * rtol): man2020 EGG m = 3 on four-particle at h = 1e-4 in double,
         * docs/usage.md; nothing to compare the others with */
        note(c, "%s on %s (%s), h = %.0e: exact Newton: %s", spec, sys->type->info->name,
             VI_PREC_NAME, (double)hs[ih], vi_strerror(rc));
        break;
      }
      check(c, rc == VI_OK && d <= 1e4 * VI_EPS * scale,
            "%s on %s (%s), %s solver, h = %.0e: %s, final q %.1e from exact Newton's",
            spec, sys->type->info->name, VI_PREC_NAME, vi_solver_kind_name(kinds[k]),
            (double)hs[ih], vi_strerror(rc), (double)d);
    }
  }
  free(nd);
}

/* Every check of one example spec on one system type that the family's
 * tables are compatible with. */
static void cf_pair(cf_ctx *c, const VI_X(vi_method_type) * mt, const char *spec,
                    const VI_X(vi_system_type) * t) {
  char err[512] = "";
  VI_X(vi_system) *sys = NULL;
  VI_X(vi_stepper) *st = NULL;
  int rc = VI_X(vi_system_alloc)(t, 0, NULL, &sys, err, sizeof err);
  if (rc == VI_OK) {
    rc = VI_X(vi_stepper_alloc_type)(mt, spec, sys, &st, err, sizeof err);
  }
  if (rc == VI_EUNSUPPORTED) {
    /* The family's own refusal of this system (vi_method_accepts):
     * skipped, with a reason that names the system. */
    check(c, strstr(err, t->info->name) != NULL,
          "%s on %s (%s): refused with a reason that names the system: '%s'", spec,
          t->info->name, VI_PREC_NAME, err);
    note(c, "%s on %s (%s): refused: %s", spec, t->info->name, VI_PREC_NAME, err);
    c->n.skipped++;
    VI_X(vi_system_free)(sys);
    return;
  }
  check(c, rc == VI_OK, "%s on %s (%s): system and stepper made%s%s", spec, t->info->name,
        VI_PREC_NAME, err[0] ? ": " : "", err);
  if (rc == VI_OK && (sys->nq > CN || sys->ml > CN || sys->n > CN)) {
    /* The checks' stack scratch holds CN reals a block: a larger system
     * (none is registered) is skipped, and said so. */
    note(c,
         "%s on %s (%s): skipped: the conformance checks take at most %d coordinates and "
         "multipliers",
         spec, t->info->name, VI_PREC_NAME, CN);
    c->n.skipped++;
  }
  if (rc != VI_OK || sys->nq > CN || sys->ml > CN || sys->n > CN) {
    VI_X(vi_stepper_free)(st);
    VI_X(vi_system_free)(sys);
    return;
  }
  c->n.pairs++;
  const vi_dims *dims = VI_X(vi_stepper_dims)(st);
  /* Every block of a node is then at most CN reals, which the checks'
   * scratch below relies on: a family of the caller's own whose
   * dimensions are wrong is reported and checked no further. */
  const int dims_ok = dims->n == sys->n && dims->nq == sys->nq && dims->ml == sys->ml &&
                      dims->n_extra >= 0 && dims->n_extra <= CN &&
                      (dims->n_vel == 0 || dims->n_vel == sys->n);
  check(c, dims_ok,
        "%s on %s (%s): stepper dimensions n %d, nq %d, ml %d, velocity %d those of the "
        "system (%d, %d, %d, 0 or n), extra block %d of at most %d",
        spec, t->info->name, VI_PREC_NAME, dims->n, dims->nq, dims->ml, dims->n_vel, sys->n,
        sys->nq, sys->ml, dims->n_extra, CN);
  if (!dims_ok) {
    VI_X(vi_stepper_free)(st);
    VI_X(vi_system_free)(sys);
    return;
  }
  cf_columns(c, spec, sys, st);
  const VI_REAL unit = cf_unit(sys);
  cf_momenta(c, mt, spec, sys, st, unit);
  /* It runs, keeps g at round-off, a group element on its group, the
   * extra block finite and the nonholonomic residual consistent. */
  cf_obs o;
  /* h = 0.02 (in the system's unit of time): inside the stability
   * bound of the first-order GGL schemes on four-particle (h omega_max
   * < 2, omega_max = 42.9: betsch-ggl notes item 9). */
  rc = cf_run(st, sys, VI_C(0.02) * unit, 50, &o);
  VI_REAL tol = 1e4 * VI_EPS * (o.qmax > 1 ? o.qmax * o.qmax : 1);
  const unsigned keeps = VI_X(vi_stepper_keeps)(st);
  check(c, rc == VI_OK && (!(keeps & VI_KEEPS_G) || o.gmax <= tol),
        "%s on %s (%s): run %s, |g| = %.1e (tol %.1e%s)", spec, t->info->name,
        VI_PREC_NAME, vi_strerror(rc), (double)o.gmax, (double)tol,
        keeps & VI_KEEPS_G ? ", declared kept" : ", not declared kept");
  /* The velocity level where the family declares it kept
   * (vi_method_type.keeps): G M^-1 p, G v with its own v. */
  const VI_REAL vs = 1 + VI_X(vi_norm_inf)(sys->n, sys->v0);
  check(c, rc != VI_OK || !(keeps & VI_KEEPS_GV) || o.gvmax <= tol * vs,
        "%s on %s (%s): G M^-1 p %s, |G M^-1 p| = %.1e (tol %.1e)", spec, t->info->name,
        VI_PREC_NAME, keeps & VI_KEEPS_GV ? "declared kept" : "not declared kept",
        (double)o.gvmax, (double)(tol * vs));
  check(c, rc != VI_OK || !(keeps & VI_KEEPS_GVV) || o.gvvmax <= tol * vs,
        "%s on %s (%s): G v %s, |G v| = %.1e (tol %.1e)", spec, t->info->name,
        VI_PREC_NAME, keeps & VI_KEEPS_GVV ? "declared kept" : "not declared kept",
        (double)o.gvvmax, (double)(tol * vs));
  /* A residual not declared kept must show: else the declaration
   * undersells the family (VI-A's g at its nodes, VI-B's G M^-1 p). */
  if (sys->m > 0 && sys->type->mech && rc == VI_OK) {
    note(
        c,
        "%s on %s (%s): at the nodes |g| %.1e, |G M^-1 p| %.1e, |G v| %.1e (kept:%s%s%s)",
        spec, t->info->name, VI_PREC_NAME, (double)o.gmax, (double)o.gvmax,
        (double)o.gvvmax, keeps & VI_KEEPS_G ? " g" : "",
        keeps & VI_KEEPS_GV ? " G M^-1 p" : "", keeps & VI_KEEPS_GVV ? " G v" : "");
  }
  check(c, rc != VI_OK || o.gdef <= 1e4 * VI_EPS,
        "%s on %s (%s): the group element stays on its group (off by %.1e)", spec,
        t->info->name, VI_PREC_NAME, (double)o.gdef);
  check(c, rc != VI_OK || o.extra_finite, "%s on %s (%s): the extra block stays finite",
        spec, t->info->name, VI_PREC_NAME);
  if (rc == VI_OK) {
    cf_nh(c, spec, sys, st, &o, unit);
  }
  VI_X(vi_node) nd;
  VI_REAL buf[5 * CN]; /* q, p, lambda, extra, v: each at most CN (dims_ok) */
  VI_X(vi_node_bind)(&nd, buf, dims);
  /* The declared look-ahead: init solves that many intervals, and
   * their Newton work is counted before any step. */
  {
    /* h = 0.02 as the run's: VI-S's first step has no solution near
     * its guess on gyro-top beyond omega h ~ 0.45 (h ~ 0.0033). */
    rc = VI_X(vi_stepper_init)(st, NULL, VI_C(0.02) * unit, 0, sys->q0, sys->p0, &nd);
    const VI_X(vi_stats) *ss = VI_X(vi_stepper_stats)(st);
    check(c,
          rc == VI_OK && ss->steps == 0 &&
              (VI_X(vi_stepper_lookahead)(st) > 0 ? ss->newton_iters > 0
                                                  : ss->newton_iters == 0),
          "%s on %s (%s): look-ahead %d, %ld Newton iterations counted by init (%s)",
          spec, t->info->name, VI_PREC_NAME, VI_X(vi_stepper_lookahead)(st),
          ss->newton_iters, vi_strerror(rc));
  }
  /* The benchmark hooks (assemble, solve) leave the trajectory
   * unchanged: 5 steps with both called before each step against 5
   * without (the reviewer found VI-S's advanced guess leaking). */
  cf_hooks(c, spec, sys, st, VI_C(0.02) * unit);
  /* Every solver, at the run's step and at round-off. */
  cf_solvers(c, spec, sys, st, unit, mt->fixed_point);
  if (!mt->fixed_point) {
    /* refused, with the families that have it (the registered ones) */
    VI_X(vi_solver_opts) fo;
    VI_X(vi_solver_opts_default)(&fo);
    fo.kind = VI_SOLVER_FIXED_POINT;
    VI_X(vi_node) *fn = VI_X(vi_node_alloc)(dims);
    int rf =
        fn ? VI_X(vi_stepper_init)(st, &fo, VI_C(0.02) * unit, 0, sys->q0, sys->p0, fn)
           : VI_ENOMEM;
    check(
        c,
        rf == VI_EUNSUPPORTED &&
            strstr(VI_X(vi_stepper_error)(st), "families that do: vprk") != NULL,
        "%s on %s (%s): the fixed-point solver refused naming the families that have it: "
        "%d '%s'",
        spec, t->info->name, VI_PREC_NAME, rf, VI_X(vi_stepper_error)(st));
    free(fn);
  }
  /* Its declared orders. */
  cf_orders(c, mt, spec, sys, st, unit);
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
      bm.grad_potential = fatal ? cf_fail_fatal : cf_fail_rec;
      bt.mech = &bm;
    } else if (t->degen) {
      bd = *t->degen;
      bd.grad_hamiltonian = fatal ? cf_fail_fatal : cf_fail_rec;
      bt.degen = &bd;
    } else {
      bl = *t->lie;
      bl.force = fatal ? cf_fail_fatal_lie : cf_fail_rec_lie;
      bt.lie = &bl;
    }
    sys = NULL;
    st = NULL;
    err[0] = '\0';
    rc = VI_X(vi_system_alloc)(&bt, 0, NULL, &sys, err, sizeof err);
    if (rc == VI_OK) {
      rc = VI_X(vi_stepper_alloc_type)(mt, spec, sys, &st, err, sizeof err);
    }
    /* The failure must come from the run, not from setting it up. */
    check(c, rc == VI_OK, "%s on %s (%s): the broken copy set up%s%s", spec,
          t->info->name, VI_PREC_NAME, err[0] ? ": " : "", err);
    if (rc == VI_OK) {
      rc = VI_X(vi_integrate)(st, NULL, VI_C(0.05) * unit, 5, sys->q0, sys->p0, &nd, NULL,
                              NULL, NULL);
    }
    check(c, fatal ? rc < 0 : rc > 0, "%s on %s (%s): a %s grad V gave status %d (%s)",
          spec, t->info->name, VI_PREC_NAME,
          fatal ? "fatally failing" : "recoverably failing", rc, vi_strerror(rc));
    VI_X(vi_stepper_free)(st);
    VI_X(vi_system_free)(sys);
  }
}

int VI_X(vi_conformance)(const VI_X(vi_method_type) * mt,
                         const VI_X(vi_system_type) *const *systems,
                         vi_conformance_report report, void *ctx,
                         vi_conformance_counts *counts) {
  cf_ctx c = {report, ctx, {0}};
  if (counts) {
    *counts = c.n;
  }
  if (!mt) {
    return VI_EINVAL;
  }
  if (!systems) {
    systems = VI_X(vi_system_types);
  }
  check(&c, mt->examples != NULL && mt->examples[0] != NULL,
        "family %s declares example specs (vi_method_type.examples)", mt->name);
  for (int i = 0; systems[i]; i++) {
    const VI_X(vi_system_type) *t = systems[i];
    if (!VI_X(vi_method_compatible)(mt, t, NULL, 0)) {
      c.n.skipped++;
      continue;
    }
    for (int e = 0; mt->examples && mt->examples[e]; e++) {
      cf_pair(&c, mt, mt->examples[e], t);
    }
  }
  if (counts) {
    *counts = c.n;
  }
  return c.n.failed;
}
