/* validation.c: `vistudy reproduce order-validation` (issue 12): automatic
 * order studies on problems nobody tuned for. A seeded generator draws
 * cases: every registered system that a method family can integrate, with
 * random physical parameters and random consistent initial data, and a
 * configuration of the family whose orders the family declares
 * (vi_method_type.expected_order: the papers' rules). Each case runs as a
 * user would run `vistudy order --h auto` (automatic step sizes, automatic
 * precision) and every declared quantity gets a verdict:
 *   right       an ok fit within VI_VAL_TOL of the declared order;
 *   wrong       an ok fit further from it (a confident, wrong number);
 *   unresolved  no ok fit (the study says why).
 * Every wrong case is listed with the command that reproduces it.
 *
 * The draws (docs/orders.md), from GSL's mt19937 seeded with VI_VAL_SEED
 * (or $VI_VALIDATION_SEED, for other held-out cases):
 *   a positive scalar parameter  default x 2^u, u uniform in [-1, 1];
 *   another scalar (angles, rates, gravity)  default + u max(|default|, 1) / 2;
 *   q0 (positions)  default + u max(|q0|_inf, 1) / 4 componentwise;
 *                   a degenerate system's positive q0: default x 2^(u/2);
 *   v0, eta0 (velocities)  default + u max(|v0|_inf, 1) / 2;
 *   then made consistent as the library makes initial data
 *   (vi_system_alloc_projected): q0 onto g(q) = 0 along M^-1 G', v0
 *   M-orthogonally onto G(q0) v = 0 and A(q0) v + a(q0) = 0 jointly.
 *   No draw is a relative equilibrium (vi_obs_ops.steady, on which the
 *   conformance suite judges "at least" the declared order): the only
 *   system that declares one, the heavy top for I1 = I2, gets its moments
 *   drawn independently, so I1 != I2 and it nutates; the declared orders
 *   are judged as they are on any motion.
 * Methods: the configurations each family lists for the validation
 * (vi_method_type.validation, else its examples: galerkin on its declared
 * diagonal w = s, Lobatto constraint quadrature, Gauss r = s or Lobatto
 * r = s + 1, s = 1..5, judged on q, p and lambda; man2020's eight
 * algorithms with m = 2..7, judged on the energy error; vprk's tableaux on
 * q and p), T = 1 (or 25 time scales of the drawn motion where that is
 * shorter: the heavy top spins at omega_s ~ 135). A family added later
 * joins through its list and its declared orders: a method's extra block is judged like q where the exact
 * flow has it zero, and an energy the family declares exact
 * (VI_ORDER_EXACT) is judged in every study of a system whose energy is a
 * first integral: right when every run stayed within its round-off bound
 * (vi_order_exact), wrong when one did not; an extra block declared exact
 * likewise against its own bound (vi_order_exact_of). The pairs interleave the
 * families, so the reduced run (--quick) covers every family.
 *
 * Each finished case goes to the cell store (resume); the verdicts are
 * recomputed from the stored measurements on every run. */
#include "specs.h"
#include "cells.h"
#include "emit.h"
#include "report.h"
#include "study.h"
#include "timing.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VI_VAL_SEED 20261123UL

/* The seed: VI_VAL_SEED, or $VI_VALIDATION_SEED (other held-out cases). */
static unsigned long val_seed(void) {
  const char *e = getenv("VI_VALIDATION_SEED");
  char *end = NULL;
  unsigned long v = e && *e ? strtoul(e, &end, 10) : 0;
  return e && *e && end && *end == '\0' ? v : VI_VAL_SEED;
}
#define VI_VAL_CASES 200
#define VI_VAL_CASES_QUICK 10
#define VI_VAL_TOL 0.3
#define VI_VAL_T 1.0
#define VI_VAL_TAUS 25.0
#define VI_VAL_MAXSET 16 /* parameters of a system (four-particle has 9) */
#define VI_VAL_SETLEN 512

/* The quantities judged: q, p, lambda, the energy (its order, or its exact
 * conservation where the family declares it, VI_ORDER_EXACT), and a
 * method's extra block where the exact flow has it zero. */
enum { VAL_Q = 0, VAL_P = 1, VAL_L = 2, VAL_E = 3, VAL_X = 4, VAL_NQ = 5 };
static const char *const val_names[VAL_NQ] = {"q", "p", "lambda", "energy", "extra"};

typedef struct val_case {
  int id;
  char system[64];
  char method[128];
  int energy; /* the study's measure is the energy error */
  double T;   /* VI_VAL_T, or VI_VAL_TAUS time scales of the drawn motion when
                 that is shorter (a fast top: omega_s ~ 135) */
  int nset;
  char set[VI_VAL_MAXSET][VI_VAL_SETLEN];
  int declared[VAL_NQ]; /* -1: none */
  /* measured */
  double order[VAL_NQ], unc[VAL_NQ];
  int verdict[VAL_NQ]; /* vi_verdict; -1 not measured */
  char why[VAL_NQ][64];
  char precision[8];
  double seconds;
  int nruns;
  int done;
} val_case;

/* ---- the generator ----------------------------------------------------- */

/* The defaults of a parameter as numbers. */
static int parse_defaults(const vi_param *p, double *out) {
  const char *c = p->defaults;
  for (int i = 0; i < p->count; i++) {
    char *end = NULL;
    out[i] = strtod(c, &end);
    if (end == c) {
      return -1;
    }
    c = *end == ',' ? end + 1 : end;
  }
  return 0;
}

/* The sets of a case ("name=v1,v2,..", %.17g) from the parameter values
 * par, in the order of the type's parameters ps. */
static void write_sets(val_case *c, const vi_param *const *ps, const int *cnt, int nps,
                       const double *par) {
  c->nset = 0;
  for (int i = 0, k = 0; i < nps && c->nset < VI_VAL_MAXSET; i++) {
    if (cnt[i] == 0) {
      continue; /* a parameter per coordinate left unset: derived by the system */
    }
    char *b = c->set[c->nset++];
    int len = snprintf(b, VI_VAL_SETLEN, "%s=", ps[i]->name);
    for (int j = 0; j < cnt[i] && len < VI_VAL_SETLEN; j++, k++) {
      len += snprintf(b + len, VI_VAL_SETLEN - (size_t)len, "%s%.17g", j ? "," : "", par[k]);
    }
  }
}

/* A rotation matrix R (row-major) drawn as R exp(hat w), w uniform in
 * [-1, 1]^3 (Rodrigues' formula: orthogonal to round-off, so the system's
 * group check, 1e-10, takes it as drawn). */
static void draw_rotation(gsl_rng *rng, double *R) {
  double w[3], W[9], E[9], out[9];
  for (int i = 0; i < 3; i++) {
    w[i] = 2 * gsl_rng_uniform(rng) - 1;
  }
  const double th = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
  const double a = th > 0 ? sin(th) / th : 1, b = th > 0 ? (1 - cos(th)) / (th * th) : 0.5;
  const double hat[9] = {0, -w[2], w[1], w[2], 0, -w[0], -w[1], w[0], 0};
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      W[3 * i + j] = 0;
      for (int k = 0; k < 3; k++) {
        W[3 * i + j] += hat[3 * i + k] * hat[3 * k + j];
      }
    }
  }
  for (int i = 0; i < 9; i++) {
    E[i] = (i % 4 == 0) + a * hat[i] + b * W[i];
  }
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      out[3 * i + j] = 0;
      for (int k = 0; k < 3; k++) {
        out[3 * i + j] += R[3 * i + k] * E[3 * k + j];
      }
    }
  }
  memcpy(R, out, sizeof out);
}

/* Draw the parameters and initial data of one case of type t into sets
 * ("name=v1,v2"); 0, or -1 when the draw cannot be made consistent (the
 * caller draws again). */
static int draw_system(const vi_system_type_d *t, gsl_rng *rng, val_case *c) {
  const vi_system_info *in = t->info;
  /* The dimension and initial data of the defaults: the values of the
   * parameters per coordinate (VI_PARAM_COORDS), whose defaults may be
   * derived by the system (chaotic-nh's ensemble member). */
  vi_system_d *d0 = NULL;
  char err0[256];
  if (vi_system_alloc_d(t, 0, NULL, &d0, err0, sizeof err0) != VI_OK) {
    return -1;
  }
  const int n = d0->n;
  double par[64], q00[64], v00[64];
  for (int i = 0; i < n && i < 64; i++) {
    q00[i] = (double)d0->q0[i];
    v00[i] = (double)d0->v0[i];
  }
  vi_system_free_d(d0);
  int np = 0, iq = -1, iv = -1;
  const vi_param *ps[32];
  int cnt[32];
  int nps = 0;
  for (const vi_param *p = in->params; p->name; p++) {
    if (nps == VI_VAL_MAXSET) {
      return -1; /* more parameters than a case holds: said by make_cases */
    }
    const int coords = p->domain == VI_PARAM_COORDS;
    const int named = strcmp(p->name, "q0") == 0 || strcmp(p->name, "v0") == 0;
    cnt[nps] = !coords ? p->count : named ? n : 0;
    ps[nps++] = p;
    if (np + cnt[nps - 1] > 64 || (!coords && parse_defaults(p, par + np) != 0)) {
      return -1;
    }
    if (coords) {
      for (int i = 0; i < cnt[nps - 1]; i++) {
        par[np + i] = p->name[0] == 'q' ? q00[i] : v00[i];
      }
    }
    if (p->domain == VI_PARAM_NATURAL) {
      np += p->count; /* a size or an index: structural, never drawn */
      continue;
    }
    if (p->domain == VI_PARAM_ROTATION && p->count == 9) {
      draw_rotation(rng, par + np); /* on SO(3), not entry by entry */
      np += 9;
      continue;
    }
    const int vec = cnt[nps - 1] == n;
    if (vec && strcmp(p->name, "q0") == 0) {
      iq = np;
    } else if (vec && (strcmp(p->name, "v0") == 0 || strcmp(p->name, "eta0") == 0)) {
      iv = np;
    }
    const int isq = np == iq, isv = np == iv;
    double scale = 0;
    for (int i = 0; i < cnt[nps - 1]; i++) {
      scale = fabs(par[np + i]) > scale ? fabs(par[np + i]) : scale;
    }
    scale = scale > 1 ? scale : 1;
    for (int i = 0; i < cnt[nps - 1]; i++) {
      const double u = 2 * gsl_rng_uniform(rng) - 1;
      double *x = &par[np + i];
      if (isq) {
        *x = t->degen ? *x * pow(2, u / 2) : *x + u * scale / 4;
      } else if (isv) {
        *x += u * scale / 2;
      } else if (p->domain == VI_PARAM_POSITIVE || p->domain == VI_PARAM_NONNEG) {
        *x *= pow(2, u);
      } else {
        *x += u * scale / 2;
      }
    }
    np += cnt[nps - 1];
  }
  /* Make the drawn data consistent the one way the library does
   * (vi_system_alloc_projected: q0 onto g = 0 along M^-1 G', v0
   * M-orthogonally onto G v = 0 and A v + a = 0 jointly) and read it
   * back into q0 and v0. */
  write_sets(c, ps, cnt, nps, par);
  const char *set[VI_VAL_MAXSET];
  for (int i = 0; i < c->nset; i++) {
    set[i] = c->set[i];
  }
  vi_system_d *sys = NULL;
  char err[256];
  if (vi_system_alloc_projected_d(t, c->nset, set, &sys, err, sizeof err) != VI_OK) {
    return -1;
  }
  /* T: VI_VAL_T, or VI_VAL_TAUS time scales of this motion when that is
   * shorter, to two digits (the heavy top spins at omega_s ~ 135: T = 1 is
   * 140 time scales, hours of quad references, and no better a test). */
  double tau = INFINITY;
  c->T = VI_VAL_T;
  if (vi_system_time_scale_d(sys, &tau) == VI_OK && VI_VAL_TAUS * tau < VI_VAL_T) {
    char buf[32];
    snprintf(buf, sizeof buf, "%.2g", VI_VAL_TAUS * tau);
    c->T = strtod(buf, NULL);
  }
  for (int i = 0; i < n; i++) {
    if (iq >= 0) {
      par[iq + i] = sys->q0[i];
    }
    if (iv >= 0) {
      par[iv + i] = sys->v0[i];
    }
  }
  vi_system_free_d(sys);
  write_sets(c, ps, cnt, nps, par);
  return 0;
}

/* The method of a case: one of the family's configurations whose orders
 * it declares (vi_method_type.validation, else its examples). */
/* Whether the family accepts configuration spec on system type t (with
 * its default data): beyond its tables (vi_method_compatible), its own
 * refusals of a system (vi_method_type.accepts: ggl and em refuse a mass
 * matrix that depends on q). */
static int spec_accepted(const char *spec, const vi_system_type_d *t) {
  char err[256];
  vi_system_d *sys = NULL;
  vi_stepper_d *st = NULL;
  int ok = vi_system_alloc_d(t, 0, NULL, &sys, err, sizeof err) == VI_OK &&
           vi_stepper_alloc_d(spec, sys, &st, err, sizeof err) == VI_OK;
  vi_stepper_free_d(st);
  vi_system_free_d(sys);
  return ok;
}

/* The configurations of family mt a case of system t may draw, into out
 * (at most 64); their number. */
static int method_pool(const vi_method_type_d *mt, const vi_system_type_d *t,
                       const char **out) {
  const char *const *pool = mt->validation ? mt->validation : mt->examples;
  int n = 0;
  for (size_t i = 0; pool && pool[i] && n < 64; i++) {
    if (spec_accepted(pool[i], t)) {
      out[n++] = pool[i];
    }
  }
  return n;
}

static void draw_method(const vi_method_type_d *mt, const vi_system_type_d *t, gsl_rng *rng,
                        val_case *c) {
  const char *pool[64];
  const int n = method_pool(mt, t, pool);
  snprintf(c->method, sizeof c->method, "%s",
           n ? pool[gsl_rng_uniform_int(rng, (unsigned long)n)] : mt->name);
}

/* The declared orders of a case (expected_order of its stepper). */
static int declare(val_case *c, char *err, size_t errlen) {
  const vi_system_type_d *t = vi_system_find_d(c->system, err, errlen);
  const char *set[VI_VAL_MAXSET];
  for (int i = 0; i < c->nset; i++) {
    set[i] = c->set[i];
  }
  vi_system_d *sys = NULL;
  vi_stepper_d *st = NULL;
  if (!t || vi_system_alloc_d(t, c->nset, set, &sys, err, errlen) != VI_OK ||
      vi_stepper_alloc_d(c->method, sys, &st, err, errlen) != VI_OK) {
    vi_system_free_d(sys);
    return -1;
  }
  int state = 0;
  const int zero_extra = vi_stepper_dims_d(st)->n_extra > 0 &&
                         vi_stepper_extra_ref_d(st) == VI_EXTRA_ZERO;
  for (int x = 0; x < VAL_NQ; x++) {
    c->declared[x] = vi_stepper_expected_order_d(st, x == VAL_X   ? VI_EXTRA
                                                     : x == VAL_E ? VI_ENERGY
                                                                  : x);
    if ((x == VAL_L && sys->ml == 0) || (x == VAL_X && !zero_extra)) {
      c->declared[x] = -1;
    }
    state |= x != VAL_E && (c->declared[x] >= 0 || c->declared[x] == VI_ORDER_EXACT);
  }
  /* The study's measure: the state when the family declares an order of
   * q, p, lambda or its extra block, else the energy; only its quantities
   * are judged, and an energy declared exact in either (it needs no
   * measure of its own: every run measures the energy). */
  const int exact = c->declared[VAL_E] == VI_ORDER_EXACT &&
                    vi_type_energy_conserved_d(sys->type);
  c->energy = !state;
  for (int x = 0; x < VAL_NQ; x++) {
    if (c->energy != (x == VAL_E) && !(x == VAL_E && exact)) {
      c->declared[x] = -1;
    }
  }
  if (c->declared[VAL_E] == VI_ORDER_EXACT && !exact) {
    c->declared[VAL_E] = -1; /* not a first integral of this system */
  }
  int any = 0;
  for (int x = 0; x < VAL_NQ; x++) {
    any |= c->declared[x] >= 0 || c->declared[x] == VI_ORDER_EXACT;
  }
  vi_stepper_free_d(st);
  vi_system_free_d(sys);
  if (!any) {
    snprintf(err, errlen, "%s declares no order on %s", c->method, c->system);
    return -1;
  }
  return 0;
}

/* The cases, deterministic in the seed: round robin over the compatible
 * (system, family) pairs. */
static int make_cases(val_case *cs, int ncases, unsigned long seed, char *failed,
                      size_t failedlen) {
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  if (!rng) {
    return -1;
  }
  gsl_rng_set(rng, seed);
  const vi_system_type_d *ps[64];
  const vi_method_type_d *pm[64];
  /* The pairs with the families interleaved: the k-th system of every
   * family, then the (k+1)-th, so that the first cases (the reduced run)
   * cover every family. */
  /* Which family takes which system, once (a system and a stepper per
   * configuration to find out). */
  enum { VAL_MAXF = 16, VAL_MAXS = 64 };
  unsigned char takes[VAL_MAXF][VAL_MAXS] = {{0}};
  for (int f = 0; f < VAL_MAXF && vi_method_types_d[f]; f++) {
    for (int i = 0; i < VAL_MAXS && vi_system_types_d[i]; i++) {
      const char *pool[64];
      takes[f][i] = vi_method_compatible_d(vi_method_types_d[f], vi_system_types_d[i], NULL, 0) &&
                    method_pool(vi_method_types_d[f], vi_system_types_d[i], pool) > 0;
    }
  }
  int npair = 0;
  for (int k = 0; npair < 64 && k < 64; k++) {
    for (int f = 0; f < VAL_MAXF && vi_method_types_d[f] && npair < 64; f++) {
      int j = 0;
      for (int i = 0; i < VAL_MAXS && vi_system_types_d[i]; i++) {
        if (takes[f][i] && j++ == k) {
          ps[npair] = vi_system_types_d[i];
          pm[npair++] = vi_method_types_d[f];
          break;
        }
      }
    }
  }
  int made = 0;
  char err[512];
  for (int k = 0; made < ncases && npair > 0 && k < 50 * ncases; k++) {
    val_case *c = &cs[made];
    memset(c, 0, sizeof *c);
    c->id = made;
    const int pair = made % npair;
    snprintf(c->system, sizeof c->system, "%s", ps[pair]->info->name);
    if (draw_system(ps[pair], rng, c) != 0) {
      snprintf(failed, failedlen, "%s", c->system);
      continue;
    }
    draw_method(pm[pair], ps[pair], rng, c);
    if (declare(c, err, sizeof err) != 0) {
      snprintf(failed, failedlen, "%s", c->system);
      continue; /* a draw the system refuses: draw again */
    }
    for (int x = 0; x < VAL_NQ; x++) {
      c->verdict[x] = -1;
      c->order[x] = c->unc[x] = NAN;
    }
    made++;
  }
  gsl_rng_free(rng);
  return made;
}

/* ---- running and judging -------------------------------------------------- */

static void case_key(const void *c_, char *buf, size_t len) {
  const val_case *c = c_;
  snprintf(buf, len, "%d %s %s", c->id, c->system, c->method);
}

static void case_label(const void *c_, char *buf, size_t len) {
  const val_case *c = c_;
  snprintf(buf, len, "%s, %s", c->system, c->method);
}

static int case_done(const void *c) {
  return ((const val_case *)c)->done;
}

static int run_case(val_case *c, const reproduce_opts *o, char *err, size_t errlen) {
  const char *set[VI_VAL_MAXSET];
  for (int i = 0; i < c->nset; i++) {
    set[i] = c->set[i];
  }
  vi_order_config a = {.system = c->system,
                       .nset = c->nset,
                       .set = set,
                       .method = c->method,
                       .T = c->T,
                       .measure = c->energy ? VI_MEASURE_ENERGY : VI_MEASURE_STATE,
                       .energy_only = c->energy};
  double t0 = vi_cpu_clock();
  vi_order_result *r = vi_table_order(&a, VI_PRECISION_AUTO, o, err, errlen);
  c->seconds = vi_cpu_clock() - t0;
  if (!r) {
    return -1;
  }
  vi_fit fits[VI_NQUANT];
  vi_order_fits(r, fits);
  vi_fit fe = vi_order_energy_rms_fit(r), fx = vi_order_extra_fit(r);
  for (int x = 0; x < VAL_NQ; x++) {
    const vi_fit *f = x < VAL_E ? &fits[x] : x == VAL_E ? &fe : &fx;
    c->verdict[x] = f->verdict;
    c->order[x] = f->verdict == VI_VERDICT_OK ? f->order : NAN;
    c->unc[x] = f->verdict == VI_VERDICT_OK ? f->uncertainty : NAN;
    snprintf(c->why[x], sizeof c->why[x], "%s", vi_fit_why(f->why));
  }
  for (int x = VAL_E; x <= VAL_X; x++) {
    if (c->declared[x] != VI_ORDER_EXACT) {
      continue;
    }
    /* Declared exact (the energy, or the extra block): the measurement is
     * the worst error over its round-off bound (vi_order_exact_of), the
     * verdict whether it stayed within. */
    double worst = NAN;
    const int held = vi_order_exact_of(r, x == VAL_E ? VI_ENERGY : VI_EXTRA, &worst, NULL);
    c->verdict[x] = held == 1 ? VI_VERDICT_OK : VI_VERDICT_UNRESOLVED;
    c->order[x] = held >= 0 ? worst : NAN;
    c->unc[x] = NAN;
    snprintf(c->why[x], sizeof c->why[x], "%s",
             held == 1   ? "within round-off"
             : held == 0 ? "above round-off"
                         : "no error measured");
  }
  snprintf(c->precision, sizeof c->precision, "%s", r->precision);
  c->nruns = r->nh;
  c->done = 1;
  free(r);
  return 0;
}

/* right (0), unresolved (1), wrong (2); -1 when nothing is declared. A
 * method declared not to converge (VI_ORDER_NONE) is right when the study
 * says so ('d'), wrong when it fits a slope. */
static int judge(const val_case *c, int x) {
  if (c->declared[x] == VI_ORDER_EXACT && c->done) {
    /* Exact conservation: right within round-off, wrong above it. */
    return c->verdict[x] == VI_VERDICT_OK                  ? 0
           : strcmp(c->why[x], "above round-off") == 0 ? 2
                                                          : 1;
  }
  if (c->declared[x] < 0 || !c->done) {
    return -1;
  }
  if (c->declared[x] == VI_ORDER_NONE) {
    return c->verdict[x] == VI_VERDICT_OK                                ? 2
           : strcmp(c->why[x], vi_fit_why(VI_WHY_NOT_CONVERGING)) == 0 ? 0
                                                                          : 1;
  }
  if (c->verdict[x] != VI_VERDICT_OK) {
    return 1;
  }
  return fabs(c->order[x] - c->declared[x]) <= VI_VAL_TOL ? 0 : 2;
}

static json_t *num(double v) {
  return isfinite(v) ? json_real(v) : json_null();
}

static json_t *case_measurement(const void *c_) {
  const val_case *c = c_;
  json_t *j = json_object();
  json_object_set_new(j, "precision", json_string(c->precision));
  json_object_set_new(j, "seconds", num(c->seconds));
  json_object_set_new(j, "runs", json_integer(c->nruns));
  for (int x = 0; x < VAL_NQ; x++) {
    json_object_set_new(j, val_names[x],
                        json_pack("{s:o, s:o, s:i, s:s}", "order", num(c->order[x]),
                                  "uncertainty", num(c->unc[x]), "verdict", c->verdict[x],
                                  "reason", c->why[x]));
  }
  return j;
}

/* Whether reason is one a measurement of quantity x gives (run_case): the
 * fit's reasons, or those of a quantity declared exact. */
static int reason_ok(const val_case *c, int x, const char *reason) {
  if (c->declared[x] == VI_ORDER_EXACT) {
    return strcmp(reason, "within round-off") == 0 ||
           strcmp(reason, "above round-off") == 0 ||
           strcmp(reason, "no error measured") == 0;
  }
  for (int w = VI_WHY_NONE; w == VI_WHY_NONE || vi_fit_why(w)[0]; w++) {
    if (strcmp(reason, vi_fit_why(w)) == 0) {
      return 1;
    }
  }
  return 0;
}

/* One stored quantity of a case, checked against what run_case gives it:
 * a verdict (ok or unresolved), an order within VI_CELLS_ORDER_MAX exactly
 * when ok (declared exact: the worst error over its bound, >= 0, or
 * null), an uncertainty >= 0 or null, a reason it can give. */
static int quantity_restore(val_case *c, int x, json_t *q, char *why, size_t whylen) {
  json_t *o = NULL, *u = NULL;
  const char *r = NULL;
  json_error_t je;
  if (json_unpack_ex(q, &je, JSON_STRICT, "{s:o, s:o, s:i, s:s}", "order", &o,
                     "uncertainty", &u, "verdict", &c->verdict[x], "reason", &r) != 0) {
    snprintf(why, whylen, "%s: %s", val_names[x], je.text);
    return -1;
  }
  if (!(json_is_number(o) || json_is_null(o)) ||
      !(json_is_number(u) || json_is_null(u))) {
    snprintf(why, whylen, "%s: order and uncertainty must be numbers or null",
             val_names[x]);
    return -1;
  }
  c->order[x] = json_is_number(o) ? json_number_value(o) : NAN;
  c->unc[x] = json_is_number(u) ? json_number_value(u) : NAN;
  const int exact = c->declared[x] == VI_ORDER_EXACT, ok = c->verdict[x] == VI_VERDICT_OK;
  const int order_ok = exact ? !(c->order[x] < 0) && !isinf(c->order[x])
                             : ok == (fabs(c->order[x]) <= VI_CELLS_ORDER_MAX);
  if ((!ok && c->verdict[x] != VI_VERDICT_UNRESOLVED) || !order_ok || c->unc[x] < 0 ||
      isinf(c->unc[x]) || !reason_ok(c, x, r)) {
    snprintf(why, whylen,
             "%s: verdict %d, order %.3g, uncertainty %.3g or reason '%.40s' "
             "is not a measurement",
             val_names[x], c->verdict[x], c->order[x], c->unc[x], r);
    return -1;
  }
  snprintf(c->why[x], sizeof c->why[x], "%s", r);
  return 0;
}

/* Restore a case from the store, every field checked; -1 with the reason
 * in why, the case untouched, when it is not a valid measurement. */
static int case_restore(void *c_, json_t *v, char *why, size_t whylen) {
  val_case x = *(val_case *)c_;
  const char *prec = NULL;
  json_error_t je;
  json_t *q[VAL_NQ];
  q[VAL_X] = NULL;
  /* The extra block is absent from the stores of earlier builds. */
  if (json_unpack_ex(v, &je, JSON_STRICT, "{s:s, s:F, s:i, s:o, s:o, s:o, s:o, s?o}",
                     "precision", &prec, "seconds", &x.seconds, "runs", &x.nruns, "q",
                     &q[0], "p", &q[1], "lambda", &q[2], "energy", &q[3], "extra",
                     &q[4]) != 0) {
    snprintf(why, whylen, "%s", je.text);
    return -1;
  }
  if ((strcmp(prec, "double") != 0 && strcmp(prec, "quad") != 0) ||
      !(isfinite(x.seconds) && x.seconds >= 0) || x.nruns < 1 ||
      x.nruns > VI_ORDER_MAXH) {
    snprintf(why, whylen,
             "precision '%.20s', seconds %.3g or runs %d is not a measurement", prec,
             x.seconds, x.nruns);
    return -1;
  }
  for (int k = 0; k < VAL_NQ; k++) {
    if (!q[k]) {
      x.verdict[k] = -1;
      x.order[k] = x.unc[k] = NAN;
      snprintf(x.why[k], sizeof x.why[k], "not measured");
    } else if (quantity_restore(&x, k, q[k], why, whylen) != 0) {
      return -1;
    }
  }
  snprintf(x.precision, sizeof x.precision, "%s", prec);
  x.done = 1;
  *(val_case *)c_ = x;
  return 0;
}

/* The command that reruns a case as a user would. */
static void case_command(const val_case *c, char *buf, size_t len) {
  size_t k = (size_t)snprintf(buf, len, "vistudy order --system %s", c->system);
  for (int i = 0; i < c->nset && k < len; i++) {
    k += (size_t)snprintf(buf + k, len - k, " --set %s", c->set[i]);
  }
  if (k < len) {
    snprintf(buf + k, len - k, " --method %s%s --T %g --h auto", c->method,
             c->energy ? " --measure energy --no-reference" : "", c->T);
  }
}

static void format_declared(const val_case *c, int x, char *buf, size_t len) {
  if (c->declared[x] == VI_ORDER_EXACT) {
    snprintf(buf, len, "exact");
  } else if (c->declared[x] == VI_ORDER_NONE) {
    snprintf(buf, len, "d");
  } else {
    snprintf(buf, len, "%d", c->declared[x]);
  }
}

static void format_measured(const val_case *c, int x, char *buf, size_t len) {
  if (c->declared[x] == VI_ORDER_EXACT) {
    snprintf(buf, len, "%s (%.2g of the bound)", c->why[x], c->order[x]);
  } else if (c->verdict[x] == VI_VERDICT_OK) {
    snprintf(buf, len, "%.2f +- %.2f", c->order[x], c->unc[x]);
  } else if (strcmp(c->why[x], vi_fit_why(VI_WHY_NOT_CONVERGING)) == 0) {
    snprintf(buf, len, "d (%s)", c->why[x]);
  } else {
    snprintf(buf, len, "unresolved (%s)", c->why[x]);
  }
}

static const char *const val_verdicts[3] = {"right", "unresolved", "wrong"};

/* ---- the outputs (the row model, emit.h) ------------------------------------- */

/* One row per case (the JSON's cases), one per judged quantity (the CSV:
 * specs and reasons quoted, as they hold commas), one per quantity with
 * its counts (the Markdown's summary table). */
static const vi_col val_case_cols[] = {
    {"case", .type = VI_COL_INT},
    {"system", .type = VI_COL_TEXT},
    {"method", .type = VI_COL_TEXT},
    {"set", .type = VI_COL_JSON}, /* the --set values */
    {"precision", .type = VI_COL_TEXT},
    {"seconds", .type = VI_COL_REAL},
    {"command", .type = VI_COL_TEXT},
    {"quantities", .type = VI_COL_JSON}, /* {q: {declared, measured, ...}, ...} */
};

static const vi_col val_quantity_cols[] = {
    {"case", .type = VI_COL_INT},
    {"system", .type = VI_COL_TEXT},
    {"method", .type = VI_COL_TEXT, .flags = VI_COL_QUOTED},
    {"quantity", .type = VI_COL_TEXT},
    {"declared", .type = VI_COL_ANY}, /* an order, or "exact" */
    {"measured", .type = VI_COL_REAL, .csv_fmt = "%.4f"},
    {"uncertainty", .type = VI_COL_REAL, .csv_fmt = "%.4f"},
    {"verdict", .type = VI_COL_TEXT},
    {"reason", .type = VI_COL_TEXT, .flags = VI_COL_QUOTED},
    {"precision", .type = VI_COL_TEXT},
    {"seconds", .type = VI_COL_REAL, .csv_fmt = "%.3f"},
};

static const vi_col val_count_cols[] = {
    {"quantity", .type = VI_COL_TEXT},
    {"right", .type = VI_COL_INT},
    {"unresolved", .type = VI_COL_INT},
    {"wrong", .type = VI_COL_INT},
};

/* The rows of the finished cases and the verdict counts (count[VAL_NQ] is
 * every quantity together). */
typedef struct val_out {
  vi_rows cases, quantities, counts;
  int count[VAL_NQ + 1][3];
} val_out;

/* A judged quantity x of case c (verdict v): its CSV row and its entry in
 * the case's quantities. 0, or -1 out of memory. */
static int quantity_row(val_out *V, const val_case *c, int x, int v, json_t *qs) {
  const int r = vi_rows_add(&V->quantities);
  vi_rows *Q = &V->quantities;
  if (r < 0 || vi_rows_text(Q, r, "system", c->system) ||
      vi_rows_text(Q, r, "method", c->method) ||
      vi_rows_text(Q, r, "quantity", val_names[x]) ||
      vi_rows_text(Q, r, "verdict", val_verdicts[v]) ||
      vi_rows_text(Q, r, "reason", c->why[x]) ||
      vi_rows_text(Q, r, "precision", c->precision)) {
    return -1;
  }
  vi_rows_int(Q, r, "case", c->id);
  const int exact = c->declared[x] == VI_ORDER_EXACT;
  if (vi_rows_real_or_text(Q, r, "declared", exact ? NAN : c->declared[x], "exact") != 0) {
    return -1;
  }
  /* The uncertainty of a fit without an order is not written. */
  vi_rows_real(Q, r, "measured", c->order[x]);
  vi_rows_real(Q, r, "uncertainty", isfinite(c->order[x]) ? c->unc[x] : NAN);
  vi_rows_real(Q, r, "seconds", c->seconds);
  return json_object_set_new(qs, val_names[x],
                             json_pack("{s:o, s:o, s:o, s:s, s:s}", "declared",
                                       exact ? json_string("exact")
                                             : json_integer(c->declared[x]),
                                       "measured", num(c->order[x]),
                                       "uncertainty", num(c->unc[x]), "verdict",
                                       val_verdicts[v], "reason", c->why[x]));
}

static int case_row(val_out *V, const val_case *c) {
  char cmd[2048];
  case_command(c, cmd, sizeof cmd);
  json_t *sets = json_array(), *qs = json_object();
  for (int i = 0; sets && i < c->nset; i++) {
    json_array_append_new(sets, json_string(c->set[i]));
  }
  for (int x = 0; qs && x < VAL_NQ; x++) {
    const int v = judge(c, x);
    if (v < 0) {
      continue;
    }
    V->count[x][v]++;
    V->count[VAL_NQ][v]++;
    if (quantity_row(V, c, x, v, qs) != 0) {
      json_decref(qs);
      qs = NULL;
    }
  }
  vi_rows *C = &V->cases;
  const int r = vi_rows_add(C);
  if (r < 0) {
    json_decref(sets);
    json_decref(qs);
    return -1;
  }
  /* The row owns the two values from here, set or not. */
  const int bad =
      vi_rows_json_value(C, r, "set", sets) | vi_rows_json_value(C, r, "quantities", qs);
  if (bad || vi_rows_text(C, r, "system", c->system) ||
      vi_rows_text(C, r, "method", c->method) ||
      vi_rows_text(C, r, "precision", c->precision) ||
      vi_rows_text(C, r, "command", cmd)) {
    return -1;
  }
  vi_rows_int(C, r, "case", c->id);
  vi_rows_real(C, r, "seconds", c->seconds);
  return 0;
}

static int val_rows(val_out *V, const val_case *cs, int n) {
  memset(V, 0, sizeof *V);
  vi_rows_init(&V->cases, val_case_cols,
               (int)(sizeof val_case_cols / sizeof val_case_cols[0]));
  vi_rows_init(&V->quantities, val_quantity_cols,
               (int)(sizeof val_quantity_cols / sizeof val_quantity_cols[0]));
  vi_rows_init(&V->counts, val_count_cols,
               (int)(sizeof val_count_cols / sizeof val_count_cols[0]));
  for (int k = 0; k < n; k++) {
    if (cs[k].done && case_row(V, &cs[k]) != 0) {
      return -1;
    }
  }
  for (int x = 0; x <= VAL_NQ; x++) {
    const int r = vi_rows_add(&V->counts);
    if (r < 0 ||
        vi_rows_text(&V->counts, r, "quantity", x < VAL_NQ ? val_names[x] : "all")) {
      return -1;
    }
    for (int v = 0; v < 3; v++) {
      vi_rows_int(&V->counts, r, val_verdicts[v], V->count[x][v]);
    }
  }
  return 0;
}

static void val_out_free(val_out *V) {
  vi_rows_free(&V->cases);
  vi_rows_free(&V->quantities);
  vi_rows_free(&V->counts);
}

static json_t *val_json(const vi_study *s, const reproduce_opts *o, const char *config,
                        const val_out *V, double total) {
  json_t *sum = json_object();
  for (int x = 0; sum && x <= VAL_NQ; x++) {
    if (x == VAL_X && V->count[x][0] + V->count[x][1] + V->count[x][2] == 0) {
      continue; /* no extra block judged */
    }
    json_object_set_new(sum, x < VAL_NQ ? val_names[x] : "all",
                        json_pack("{s:i, s:i, s:i}", "right", V->count[x][0],
                                  "unresolved", V->count[x][1], "wrong", V->count[x][2]));
  }
  return json_pack("{s:s, s:s, s:s, s:b, s:o, s:o, s:o}", "id", s->id, "title", s->title,
                   "config", config, "quick", o->quick, "cases",
                   vi_rows_json(&V->cases, NULL, NULL), "summary", sum, "seconds",
                   num(total));
}

/* Not the counts' "all" row: the Markdown's table is per quantity (the
 * extra block's only where a case judges one). */
static int keep_quantity(const vi_rows *R, int row, void *ctx) {
  const val_out *V = ctx;
  (void)R;
  return row < VAL_X ||
         (row == VAL_X && V->count[VAL_X][0] + V->count[VAL_X][1] + V->count[VAL_X][2] > 0);
}

/* The list of the cases judged v (wrong or unresolved). */
static void md_list(FILE *f, const val_case *cs, int n, int v) {
  char cmd[2048], meas[96];
  int any = 0;
  for (int k = 0; k < n; k++) {
    for (int x = 0; x < VAL_NQ; x++) {
      if (judge(&cs[k], x) != v) {
        continue;
      }
      case_command(&cs[k], cmd, sizeof cmd);
      if (v == 2) {
        char decl[16];
        format_measured(&cs[k], x, meas, sizeof meas);
        format_declared(&cs[k], x, decl, sizeof decl);
        fprintf(f, "- case %d, %s: measured %s, declared %s: `%s`\n", cs[k].id,
                val_names[x], meas, decl, cmd);
      } else {
        fprintf(f, "- case %d, %s (%s): %s: `%s`\n", cs[k].id, val_names[x],
                cs[k].precision, cs[k].why[x], cmd);
      }
      any = 1;
    }
  }
  fputs(any ? "\n" : "None.\n\n", f);
}

/* The study's arrangement of the cases: one row per case, one column per
 * quantity ("measured (declared)"), blank where nothing is declared. */
static void md_cases(FILE *f, const val_case *cs, int n) {
  /* The extra block's column only where a case judges one. */
  int nq = VAL_X;
  for (int k = 0; k < n; k++) {
    nq = judge(&cs[k], VAL_X) >= 0 ? VAL_NQ : nq;
  }
  fprintf(f, "## Cases\n\n| case | system | method | precision | q | p | lambda | energy |%s "
             "CPU s |\n|---|---|---|---|---|---|---|---|%s---|\n",
          nq > VAL_X ? " extra |" : "", nq > VAL_X ? "---|" : "");
  for (int k = 0; k < n; k++) {
    const val_case *c = &cs[k];
    fprintf(f, "| %d | %s | `%s` | %s |", c->id, c->system, c->method, c->precision);
    for (int x = 0; x < nq; x++) {
      const int v = judge(c, x);
      if (v < 0) {
        fprintf(f, " |");
        continue;
      }
      char meas[96], decl[16];
      format_measured(c, x, meas, sizeof meas);
      format_declared(c, x, decl, sizeof decl);
      fprintf(f, " %s (%s)%s |",
              v == 1                                      ? "unresolved"
              : v == 0 && c->declared[x] == VI_ORDER_NONE ? "d"
                                                          : meas,
              decl, v == 2 ? " **wrong**" : "");
    }
    fprintf(f, " %.2f |\n", c->seconds);
  }
}

static char *val_md(const vi_study *s, const val_case *cs, int n, unsigned long seed,
                    const val_out *V, double total) {
  vi_text text;
  FILE *f = vi_text_open(&text);
  if (!f) {
    return NULL;
  }
  const int *all = V->count[VAL_NQ];
  const int judged = all[0] + all[1] + all[2];
  fprintf(f, "# %s\n\n%s\n\n", s->id, s->title);
  fprintf(
      f,
      "Seeded random cases (seed %lu): every registered system a method family can "
      "integrate, with random physical parameters and random consistent initial data (the "
      "draws: `studies/validation.c`, docs/orders.md), and a configuration of the family "
      "whose orders it declares; each run as `vistudy order --h auto` with automatic "
      "precision, T = %g (or %g time scales of the drawn motion where that is shorter: "
      "the heavy top's). A quantity is **right** when its fit is ok and within %.1f of "
      "the declared order, **wrong** when an ok fit is further from it, **unresolved** "
      "when the study gives no ok fit.\n\n",
      seed, VI_VAL_T, VI_VAL_TAUS, VI_VAL_TOL);
  fprintf(
      f,
      "%d cases, %d judged quantities: **%d right, %d unresolved (%.1f%%), %d wrong**; %.0f "
      "s of CPU time.\n\n",
      n, judged, all[0], all[1], judged ? 100.0 * all[1] / judged : 0.0, all[2], total);
  static const char *const counts[] = {"quantity", "right", "unresolved", "wrong", NULL};
  vi_rows_md(f, &V->counts, counts, keep_quantity, (void *)V);
  fprintf(f, "## Wrong\n\n");
  md_list(f, cs, n, 2);
  fprintf(f, "## Unresolved\n\n");
  md_list(f, cs, n, 1);
  md_cases(f, cs, n);
  return vi_text_close(&text);
}

/* A case measured for the measuring loop (cells.h): a case the study
 * cannot run is a finding, not a crash: kept with its reason (every
 * declared quantity unresolved). */
static int case_measure(void *c_, const void *ctx, char *err, size_t errlen) {
  val_case *c = c_;
  if (run_case(c, ctx, err, errlen) != 0) {
    for (int x = 0; x < VAL_NQ; x++) {
      c->verdict[x] = VI_VERDICT_UNRESOLVED;
      snprintf(c->why[x], sizeof c->why[x], "study failed: %.40s", err);
    }
    snprintf(c->precision, sizeof c->precision, "-");
    c->done = 1;
  }
  return 0;
}

static const vi_cells_unit val_unit = {"case",       sizeof(val_case), case_key,
                                       case_label,   case_restore,     case_done,
                                       case_measure, case_measurement, NULL,
                                       NULL};

/* The summary on standard output: the counts and every wrong quantity. */
static void val_print(const vi_study *s, const val_case *cs, int n, const int *all,
                      double total) {
  const int judged = all[0] + all[1] + all[2];
  char cmd[2048], meas[96];
  printf("%s: %d cases, %d quantities: %d right, %d unresolved (%.1f%%), %d wrong; %.0f s\n",
         s->id, n, judged, all[0], all[1], judged ? 100.0 * all[1] / judged : 0.0, all[2],
         total);
  for (int k = 0; k < n; k++) {
    for (int x = 0; x < VAL_NQ; x++) {
      if (judge(&cs[k], x) == 2) {
        case_command(&cs[k], cmd, sizeof cmd);
        format_measured(&cs[k], x, meas, sizeof meas);
        printf("  wrong: case %d %s: measured %s, declared %d: %s\n", cs[k].id,
               val_names[x], meas, cs[k].declared[x], cmd);
      }
    }
  }
}

static int run_validation(const vi_study *s, const reproduce_opts *o) {
  const int ncases = o->quick ? VI_VAL_CASES_QUICK : VI_VAL_CASES;
  val_case *cs = calloc((size_t)ncases, sizeof *cs);
  if (!cs) {
    fprintf(stderr, "vistudy reproduce: %s: out of memory\n", s->id);
    return VI_EXIT_FAIL;
  }
  const unsigned long seed = val_seed();
  char failed[64] = "";
  const int n = make_cases(cs, ncases, seed, failed, sizeof failed);
  if (n < ncases) {
    /* Never a silently smaller study: a system whose draws always fail
     * would drop out of it. */
    fprintf(stderr, "vistudy reproduce: %s: only %d of %d cases could be drawn; the draws of "
            "%s keep failing (studies/validation.c draw_system)\n", s->id, n, ncases,
            failed[0] ? failed : "a system");
    free(cs);
    return VI_EXIT_FAIL;
  }
  char err[2 * VI_PATH_MAX + 256] = "", note[VI_PATH_MAX + 256], config[256];
  snprintf(config, sizeof config,
           "seed %lu, %d cases, T = %g or %g time scales, --h auto, --precision auto, "
           "tolerance %.1f",
           seed, n, VI_VAL_T, VI_VAL_TAUS, VI_VAL_TOL);
  vi_cells store;
  if (vi_cells_open(&store, o->results_dir, s->id, config, o->fresh, note, sizeof note,
                    err, sizeof err) != 0) {
    fprintf(stderr, "vistudy reproduce: %s\n", err);
    free(cs);
    return VI_EXIT_FAIL;
  }
  if (note[0]) {
    fprintf(stderr, "vistudy reproduce: %s: %s\n", s->id, note);
  }
  const vi_pool_opts po = vi_pool_of(o);
  int status = vi_cells_measure_pool(&store, &val_unit, cs, n, o, s->id, &po) == 0
                   ? VI_EXIT_OK
                   : VI_EXIT_FAIL;
  double total = 0;
  for (int k = 0; k < n; k++) {
    total += cs[k].seconds;
  }
  val_out V;
  json_t *j = NULL;
  char *md = NULL, *csv = NULL;
  if (val_rows(&V, cs, n) == 0) {
    j = val_json(s, o, config, &V, total);
    md = val_md(s, cs, n, seed, &V, total);
    csv = vi_rows_csv(&V.quantities, NULL, NULL);
  }
  if (!j || !md || !csv) {
    snprintf(err, sizeof err, "%s: out of memory writing the results", s->id);
  }
  /* A study that stopped early replaces no result file (run_table.c). */
  const int written =
      status == VI_EXIT_OK && j && md && csv &&
      vi_study_write(o->results_dir, s->id, j, md, csv, err, sizeof err) == 0;
  if (status != VI_EXIT_OK) {
    vi_study_stopped(s->id, "measured cases");
  } else if (!written) {
    fprintf(stderr, "vistudy reproduce: %s\n", err);
    status = VI_EXIT_FAIL;
  }
  if (status == VI_EXIT_OK) {
    vi_cells_finish(&store);
  }
  vi_cells_close(&store);
  val_print(s, cs, n, V.count[VAL_NQ], total);
  if (written) {
    printf("  results: %s/%s.{md,csv,json}\n", o->results_dir, s->id);
  }
  const int wrong = V.count[VAL_NQ][2];
  val_out_free(&V);
  json_decref(j);
  free(md);
  free(csv);
  free(cs);
  if (status == VI_EXIT_OK && o->strict && wrong > 0) {
    status = VI_EXIT_FAIL;
  }
  return status;
}

int vi_validation_run(const vi_study *s, const reproduce_opts *o) {
  return run_validation(s, o);
}
