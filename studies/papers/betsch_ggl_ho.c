/* betsch_ggl_ho.c: `vistudy reproduce betsch-ggl-higher-order`, beyond the
 * paper (issue item 6). betsch-ggl (Kinon, Betsch, Schneider; reading notes
 * ../shared/papers/notes/betsch-ggl.md) closes with "the present integrators
 * are at most second-order accurate"; this sweep of two parts (sweep.h)
 * asks where the higher-order constrained Galerkin variational integrators
 * of wenger2017 ((11)-(22), Gauss r = s: order 2s in q) win over the
 * paper's schemes, at equal CPU time:
 *
 *   four-particle  betsch-ggl §6.3 (115)-(127), T = 1 (stiff springs,
 *                  k24 = 500: the first-order VIs need h < ~0.04), reference
 *                  integrated (quad in the full study, rounded);
 *   gyro-top       betsch-ggl §6.2 (100)-(112), T = 0.1 (about two turns of
 *                  the fast spin omega_s = 135.6), exact reference (steady
 *                  precession, notes §2.2).
 *
 * Curves: ggl VI-A (79) (second order), VI-B (83) (first order), em EM (84)
 * (second order, energy exact) and galerkin s = w = 1..4 (orders 2, 4, 6,
 * 8), each over a ladder h = T/N. Measures: the global q error and the
 * energy error max_k |H_k - H_0| / |H_0| (H = 1/2 p'M^-1 p + V, the
 * runner's energy) against CPU time (timing.h).
 *
 * Claims, computed from the sweep:
 *   Q  at q errors 1e-4, 1e-6, 1e-8: the cheapest Galerkin curve against
 *      the cheapest of the paper's schemes (the ratio of their CPU times,
 *      interpolated along the curves; a level the paper's schemes do not
 *      reach within the sweep gives a lower bound, their most expensive run);
 *   E1 EM keeps the energy to round-off at every cost: its energy error at
 *      or below BG_ROUNDOFF(N) = 10 eps N (betsch_ggl_figs.c, notes §5 item
 *      19) at every run;
 *   E2 Galerkin keeps the energy only to its order: at the CPU time of EM's
 *      cheapest run the best Galerkin energy error is above EM's (with the
 *      time Galerkin needs to bring it to EM's level, and the fitted order
 *      of each Galerkin curve's energy error in h).
 * Long-time part (the report hook, timed on the same pinned thread): EM at
 * a fixed h and the Galerkin curve that wins at the deepest level reached,
 * at the step that gives it about EM's CPU time per unit time (its time per
 * step from the sweep), over T = 100 (four-particle) and T = 10 (gyro-top):
 * the max energy error and the max error of every momentum map (Lx..Jz;
 * Jz), claims L: EM's energy and momenta stay at round-off (10 eps N); the
 * Galerkin run's momenta within Newton's tolerance (100 eps N: a
 * variational integrator of an invariant discrete Lagrangian, wenger2017
 * §3, discrete Noether) and its energy bounded (within 10x of its error
 * over the sweep's T at the same step: no secular drift); and where each
 * wins on conservation: EM's energy and momentum errors below Galerkin's. */
#include "specs.h"
#include "../sweep.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* betsch_ggl_figs.c's round-off of a quantity over N steps (relative to
 * max(1, |I(0)|)). */
#define HO_ROUNDOFF(N) (10.0 * DBL_EPSILON * (double)(N))
/* Newton's tolerance (100 eps, the default rtol) accumulated over N steps:
 * the level to which an implicit scheme's discrete conservation law holds
 * when each step's equations are solved only to it. */
#define HO_NEWTON(N) (100.0 * DBL_EPSILON * (double)(N))

enum { HO_PAPER = 0, HO_GAL = 1 };
enum { HO_VIA = 0, HO_VIB = 1, HO_EM = 2 };

#define HO_NLEV 3
static const double ho_levels[HO_NLEV] = {1e-4, 1e-6, 1e-8};
static const char *const ho_level_names[HO_NLEV] = {"1e-4", "1e-6", "1e-8"};

/* Step counts (h = T/N), ratios 1.25-2, each a divisor or a multiple of
 * the reference grid 9600 = 2^7 3 5^2. The coarse ones fail for some
 * schemes (Newton does not converge, or the first-order VIs beyond their
 * stability limit): failed points, not errors. */
static const long ho_ladder[] = {10,    15,    20,    30,     40,     60,     80,    120,
                                 160,   240,   320,   480,    640,    960,    1200,  1600,
                                 2400,  3200,  4800,  9600,   19200,  28800,  38400, 57600,
                                 76800, 115200, 153600, 230400, 307200};
static const long ho_quick[] = {20, 40, 80, 160, 320, 640, 1200};

static int ho_curves(vi_sweep *S) {
  static const char *const paper[3][2] = {
      {"VI-A", "ggl:scheme=VI-A"}, {"VI-B", "ggl:scheme=VI-B"}, {"EM", "em:variant=ggl"}};
  for (int i = 0; i < 3; i++) {
    if (vi_sweep_add(S, VI_SWEEP_STEPPER, HO_PAPER, i, paper[i][0], paper[i][1]) < 0) {
      return -1;
    }
  }
  char label[64], spec[96];
  for (int s = 1; s <= 4; s++) {
    if (S->quick && s != 2 && s != 3) {
      continue;
    }
    snprintf(label, sizeof label, "Galerkin s=%d", s);
    snprintf(spec, sizeof spec, "galerkin:s=%d,w=%d,quadL=gauss,r=%d", s, s, s);
    if (vi_sweep_add(S, VI_SWEEP_STEPPER, HO_GAL, s, label, spec) < 0) {
      return -1;
    }
  }
  return 0;
}

/* Each part's long run. */
typedef struct ho_long {
  double T, T_quick, h_em;
  const char *const *momenta;
  int nmomenta;
} ho_long;
static const char *const ho_fp_momenta[] = {"Lx", "Ly", "Lz", "Jx", "Jy", "Jz"};
static const char *const ho_top_momenta[] = {"Jz"};
/* EM at h = 0.01 on four-particle (a quarter of the first-order VIs'
 * limit) and at the paper's h = 0.002 on the top (Fig. 17). */
static const ho_long ho_longs[2] = {{100.0, 5.0, 0.01, ho_fp_momenta, 6},
                                    {10.0, 0.5, 0.002, ho_top_momenta, 1}};

/* ---- services ---------------------------------------------------------------- */

static json_t *ho_num(double v) {
  return isfinite(v) ? json_real(v) : json_null();
}

/* The most expensive successful run of a group: a lower bound on its cost
 * at an error it does not reach (errors fall with cost along each curve). */
static double ho_max_cost(const vi_sweep *S, int group, int *curve) {
  double c = NAN;
  *curve = -1;
  for (int i = 0; i < S->npts; i++) {
    const vi_sweep_point *P = &S->pts[i];
    if (P->ok && S->curves[P->curve].group == group && !(P->tm.seconds <= c)) {
      c = P->tm.seconds;
      *curve = P->curve;
    }
  }
  return c;
}

/* The smallest q error of a group's runs. */
static double ho_group_min(const vi_sweep *S, int group) {
  double lo = INFINITY;
  for (int c = 0; c < S->ncurves; c++) {
    if (S->curves[c].group == group) {
      lo = fmin(lo, vi_sweep_min_err(S, c, VI_SW_Q));
    }
  }
  return lo;
}

/* Where each wins at a q error level. */
typedef struct ho_win {
  int gal, paper;       /* the cheapest curve of each group, -1 none */
  double tg, tp;        /* their times (tp: a lower bound when paper_lower) */
  int gal_ub, paper_ub; /* a time that is an upper bound (below the level at
                           the curve's cheapest run) */
  int paper_lower;      /* the paper's schemes do not reach the level */
  double ratio;         /* tp / tg, NAN when undefined */
  int determined;       /* the faster one is certain */
  char why[400];
} ho_win;

static void ho_where(const vi_sweep *S, double E, ho_win *w) {
  memset(w, 0, sizeof *w);
  char wg[180] = "", wp[180] = "";
  w->gal = vi_sweep_best(S, HO_GAL, VI_SW_Q, VI_COST_CPU, E, &w->tg, &w->gal_ub, wg, sizeof wg);
  w->paper =
      vi_sweep_best(S, HO_PAPER, VI_SW_Q, VI_COST_CPU, E, &w->tp, &w->paper_ub, wp, sizeof wp);
  w->ratio = NAN;
  if (w->gal < 0) {
    snprintf(w->why, sizeof w->why, "Galerkin: %s", wg);
    return;
  }
  if (w->paper < 0) {
    /* Not reached by the paper's schemes: their cost there is at least
     * that of their most expensive run. */
    w->tp = ho_max_cost(S, HO_PAPER, &w->paper);
    w->paper_lower = 1;
    snprintf(w->why, sizeof w->why, "the paper's schemes: %s", wp);
    if (w->paper < 0) {
      return;
    }
  }
  w->ratio = w->tp / w->tg;
  /* Certain when the slower one's time is not an upper bound (and a lower
   * bound on the paper's time only proves Galerkin faster). */
  w->determined = w->ratio > 1 ? !w->paper_ub && !(w->paper_lower && w->ratio <= 1)
                               : !w->gal_ub && !w->paper_lower;
}

/* The energy error of a curve at CPU time c: log-log interpolation between
 * the consecutive runs whose times bracket c; NAN outside its runs. */
static double ho_energy_at(const vi_sweep *S, int curve, double c) {
  const vi_sweep_point *prev = NULL;
  for (int i = 0; i < S->npts; i++) {
    const vi_sweep_point *P = &S->pts[i];
    if (P->curve != curve || !P->ok || !(P->err[VI_SW_ENERGY] > 0)) {
      continue;
    }
    if (prev && prev->tm.seconds <= c && P->tm.seconds >= c) {
      const double a = log(prev->tm.seconds), b = log(P->tm.seconds);
      const double f = b == a ? 0 : (log(c) - a) / (b - a);
      return exp(log(prev->err[VI_SW_ENERGY]) +
                 f * (log(P->err[VI_SW_ENERGY]) - log(prev->err[VI_SW_ENERGY])));
    }
    prev = P;
  }
  return NAN;
}

/* The least-squares slope of log(energy error) in log(h) over a curve's
 * runs well above round-off (100x HO_ROUNDOFF(N)); NAN below 3 runs. */
static double ho_energy_order(const vi_sweep *S, int curve, int *npts) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  int k = 0;
  for (int i = 0; i < S->npts; i++) {
    const vi_sweep_point *P = &S->pts[i];
    const double e = P->err[VI_SW_ENERGY];
    if (P->curve != curve || !P->ok || !(e > 100 * HO_ROUNDOFF(P->N)) || !(e < 1e-1)) {
      continue;
    }
    const double x = log(P->h), y = log(e);
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
    k++;
  }
  *npts = k;
  if (k < 3) {
    return NAN;
  }
  return (k * sxy - sx * sy) / (k * sxx - sx * sx);
}

/* ---- the long run ------------------------------------------------------------ */

typedef struct ho_obs {
  const vi_system_d *sys;
  vi_measure m[8];
  int nm, n_extra;
  double *work;
  double I0[8], dmax[8];
  double escale;
} ho_obs;

/* The deviation of energy (m[0], relative) and of every momentum map
 * (absolute) from its value at node 0. */
static int ho_observe(void *ctx, long k, const vi_node_d *nd) {
  ho_obs *o = ctx;
  double v[8];
  int rc = vi_measure_eval_d(o->sys, o->m, o->nm, nd, o->n_extra, o->work, v);
  if (rc != VI_OK) {
    return rc;
  }
  for (int i = 0; i < o->nm; i++) {
    if (k == 0) {
      o->I0[i] = v[i];
      o->dmax[i] = 0;
    }
    double d = fabs(v[i] - o->I0[i]) / (i == 0 ? o->escale : 1.0);
    if (!(d <= o->dmax[i])) {
      o->dmax[i] = d;
    }
  }
  return VI_OK;
}

typedef struct ho_longrun {
  char method[256], label[64];
  long N;
  double h, seconds, per_unit;
  double energy, momentum[6], momentum0[6];
  double mscaled; /* max_i of momentum[i] / max(1, |momentum0[i]|) */
  int ok;
  char msg[160];
} ho_longrun;

/* One long run: timed (no observer), then measured (untimed). */
static int ho_long_run(const vi_sweep *S, const ho_long *L, double T, const char *label,
                       const char *method, long N, ho_longrun *r, char *err, size_t errlen) {
  memset(r, 0, sizeof *r);
  snprintf(r->label, sizeof r->label, "%s", label);
  snprintf(r->method, sizeof r->method, "%s", method);
  r->N = N;
  r->h = T / (double)N;
  r->seconds = r->energy = NAN;
  vi_stepper_d *st = NULL;
  if (vi_stepper_alloc_d(method, S->sys, &st, err, errlen) != VI_OK) {
    return -1;
  }
  vi_stepper_spec_d(st, r->method, sizeof r->method);
  const vi_dims *d = vi_stepper_dims_d(st);
  vi_node_d *nd = vi_node_alloc_d(d);
  ho_obs o;
  memset(&o, 0, sizeof o);
  o.sys = S->sys;
  o.n_extra = d->n_extra;
  o.work = malloc(vi_measure_work_d(S->sys) * sizeof *o.work + 1);
  o.escale = fabs(S->E0) > VI_ENERGY_ABS_BELOW ? fabs(S->E0) : 1;
  int rc = nd && o.work ? VI_OK : VI_ENOMEM;
  if (rc == VI_OK &&
      vi_measure_find_d(S->sys, NULL, "energy", &o.m[0], err, errlen) != VI_OK) {
    rc = VI_EINVAL;
  }
  o.nm = 1;
  for (int i = 0; rc == VI_OK && i < L->nmomenta; i++, o.nm++) {
    if (vi_measure_find_d(S->sys, NULL, L->momenta[i], &o.m[o.nm], err, errlen) != VI_OK) {
      rc = VI_EINVAL;
    }
  }
  if (rc == VI_OK) {
    vi_time tm;
    vi_time_start(&tm);
    int r1 = vi_integrate_d(st, NULL, r->h, N, S->sys->q0, S->sys->p0, nd, NULL, NULL, NULL);
    vi_time_stop(&tm);
    int r2 = r1 == VI_OK ? vi_integrate_d(st, NULL, r->h, N, S->sys->q0, S->sys->p0, nd,
                                          ho_observe, &o, NULL)
                         : r1;
    if (r2 == VI_OK) {
      r->ok = 1;
      r->seconds = tm.cpu;
      r->per_unit = tm.cpu / T;
      r->energy = o.dmax[0];
      for (int i = 0; i < L->nmomenta; i++) {
        r->momentum[i] = o.dmax[1 + i];
        r->momentum0[i] = o.I0[1 + i];
        r->mscaled = fmax(r->mscaled, r->momentum[i] / fmax(1.0, fabs(r->momentum0[i])));
      }
    } else {
      snprintf(r->msg, sizeof r->msg, "%s", vi_strerror(r2));
    }
  } else if (rc == VI_ENOMEM) {
    vi_set_err(err, errlen, "out of memory");
  }
  free(o.work);
  free(nd);
  vi_stepper_free_d(st);
  return rc == VI_OK ? 0 : -1;
}

/* The CPU time per step of a curve: the median of seconds / N over its
 * runs of at least 1 ms (all runs when none is). */
static double ho_per_step(const vi_sweep *S, int curve) {
  double v[64];
  int k = 0;
  for (int pass = 0; pass < 2 && k == 0; pass++) {
    for (int i = 0; i < S->npts && k < 64; i++) {
      const vi_sweep_point *P = &S->pts[i];
      if (P->curve == curve && P->ok && (pass || P->tm.seconds >= 1e-3)) {
        v[k++] = P->tm.seconds / (double)P->N;
      }
    }
  }
  for (int i = 1; i < k; i++) { /* insertion sort */
    double x = v[i];
    int j = i - 1;
    for (; j >= 0 && v[j] > x; j--) {
      v[j + 1] = v[j];
    }
    v[j + 1] = x;
  }
  return k ? v[k / 2] : NAN;
}

/* ---- the report -------------------------------------------------------------- */

static int ho_color(const vi_sweep *S, int c) {
  const vi_sweep_curve *C = &S->curves[c];
  return C->group == HO_PAPER ? 4 + C->m : C->m - 1;
}

static int ho_dash(const vi_sweep *S, int c) {
  return S->curves[c].group == HO_PAPER ? 1 : 0;
}

static const char *ho_label(const vi_sweep *S, int c) {
  return c >= 0 ? S->curves[c].label : "-";
}

/* The part's claims and sections; its long run. */
static int ho_part(vi_sweep *top, int ip, vi_sweep_report *R, json_t *pj, char *err,
                   size_t errlen) {
  vi_sweep *S = &top->parts[ip];
  const char *name = S->spec->part_name;
  FILE *f = R->md;
  fprintf(f, "## %s (`%s`, T = %g)\n\n", name, S->spec->system, S->T);

  /* Q: where each wins in q. */
  fprintf(f, "### Where each wins: CPU time at a q error\n\n"
             "| q error | cheapest Galerkin | its time [s] | cheapest of VI-A, VI-B, EM | its "
             "time [s] | paper / Galerkin |\n|---|---|---|---|---|---|\n");
  json_t *wins = json_array();
  int deepest = -1; /* the best Galerkin curve at the deepest level it reaches */
  for (int l = 0; l < HO_NLEV; l++) {
    ho_win w;
    ho_where(S, ho_levels[l], &w);
    if (w.gal >= 0) {
      deepest = w.gal;
    }
    fprintf(f, "| %s | %s | ", ho_level_names[l], ho_label(S, w.gal));
    fprintf(f, isfinite(w.tg) ? "%s%.3g | " : "%s- | ", w.gal_ub ? "<= " : "", w.tg);
    fprintf(f, "%s | ", ho_label(S, w.paper));
    fprintf(f, isfinite(w.tp) ? "%s%.3g | " : "%s- | ",
            w.paper_lower ? ">= " : w.paper_ub ? "<= " : "", w.tp);
    if (isfinite(w.ratio)) {
      fprintf(f, "%s%.3g%s |\n", w.paper_lower ? ">= " : "", w.ratio,
              w.determined ? "" : " (undetermined)");
    } else {
      fprintf(f, "n/a: %s |\n", w.why);
    }
    json_t *e = json_object();
    json_object_set_new(e, "level", json_real(ho_levels[l]));
    json_object_set_new(e, "galerkin", w.gal >= 0 ? json_string(ho_label(S, w.gal)) : json_null());
    json_object_set_new(e, "galerkin_seconds", ho_num(w.tg));
    json_object_set_new(e, "galerkin_upper_bound", json_boolean(w.gal_ub));
    json_object_set_new(e, "paper", w.paper >= 0 ? json_string(ho_label(S, w.paper)) : json_null());
    json_object_set_new(e, "paper_seconds", ho_num(w.tp));
    json_object_set_new(e, "paper_upper_bound", json_boolean(w.paper_ub));
    json_object_set_new(e, "paper_not_reached", json_boolean(w.paper_lower));
    json_object_set_new(e, "paper_over_galerkin", ho_num(w.ratio));
    json_object_set_new(e, "determined", json_boolean(w.determined));
    json_object_set_new(e, "why", json_string(w.why));
    json_object_set_new(e, "claim", json_null()); /* its index in "claims" */
    json_array_append_new(wins, e);

    char text[300];
    snprintf(text, sizeof text,
             "%s: at a q error of %s the best Galerkin configuration is cheaper in CPU time "
             "than the best of betsch-ggl's VI-A, VI-B and EM",
             name, ho_level_names[l]);
    if (S->quick && w.gal < 0 && w.paper < 0) {
      continue; /* a quick sweep need not reach the level */
    }
    if (R->nclaims >= VI_SWEEP_MAXCLAIMS) {
      break;
    }
    json_object_set_new(e, "claim", json_integer(R->nclaims));
    vi_claim *c = &R->claims[R->nclaims++];
    if (!isfinite(w.ratio)) {
      vi_claim_set(c, 0, text, "n/a: %s", w.why);
    } else if (w.paper_lower) {
      vi_claim_set(c, w.ratio > 1, text,
                   "at least %.3gx cheaper: %s %.3g s; none of the paper's schemes reaches it "
                   "(smallest q error %.2g), their most expensive run (%s) took %.3g s",
                   w.ratio, ho_label(S, w.gal), w.tg, ho_group_min(S, HO_PAPER),
                   ho_label(S, w.paper), w.tp);
    } else {
      vi_claim_set(c, w.ratio > 1 && w.determined, text,
                   "%.3gx%s: %s %s%.3g s, %s %s%.3g s", w.ratio,
                   w.determined ? "" : " (undetermined: the faster one's time is an upper "
                                       "bound of the slower's)",
                   ho_label(S, w.gal), w.gal_ub ? "<= " : "", w.tg, ho_label(S, w.paper),
                   w.paper_ub ? "<= " : "", w.tp);
    }
  }
  fprintf(f, "\nTimes interpolated in log-log between the two runs of a curve that bracket "
             "the level; '<=': the curve is below the level already at its cheapest run (an "
             "upper bound); '>=': no run of the paper's schemes reaches the level, and their "
             "most expensive run's time is a lower bound on their cost there.\n\n");
  json_object_set_new(pj, "where_each_wins", wins);

  /* E1, E2: energy at equal cost. */
  const int em = vi_sweep_find(S, HO_PAPER, HO_EM);
  double em_max = NAN, em_ratio = 0, c0 = NAN, e0 = NAN;
  int em_runs = 0, em_worst_ok = 1;
  long em_worst_N = 0;
  for (int i = 0; i < S->npts; i++) {
    const vi_sweep_point *P = &S->pts[i];
    if (P->curve != em || !P->ok) {
      continue;
    }
    em_runs++;
    const double r = P->err[VI_SW_ENERGY] / HO_ROUNDOFF(P->N);
    if (!(r <= em_ratio)) {
      em_ratio = r;
      em_worst_N = P->N;
    }
    if (!(P->err[VI_SW_ENERGY] <= em_max)) {
      em_max = P->err[VI_SW_ENERGY];
    }
    if (!(P->tm.seconds >= c0)) {
      c0 = P->tm.seconds;
      e0 = P->err[VI_SW_ENERGY];
    }
  }
  em_worst_ok = em_runs > 0 && em_ratio <= 1;
  int k_e1 = -1, k_e2 = -1, k_l1 = -1, k_l2 = -1, k_l3 = -1; /* the claims' indices */
  if (R->nclaims < VI_SWEEP_MAXCLAIMS) {
    k_e1 = R->nclaims;
    char text[300];
    snprintf(text, sizeof text,
             "%s: EM keeps the energy to round-off (at most 10 eps N over N steps) at every "
             "step size of the sweep",
             name);
    vi_claim_set(&R->claims[R->nclaims++], em_worst_ok, text,
                 em_runs ? "%d runs, max energy error %.2g, at most %.2g of 10 eps N (N = %ld)"
                         : "%d runs of EM",
                 em_runs, em_max, em_ratio, em_worst_N);
  }
  /* The best Galerkin energy error at EM's cheapest time. */
  double ge = NAN;
  int gbest = -1;
  for (int c = 0; c < S->ncurves; c++) {
    if (S->curves[c].group != HO_GAL) {
      continue;
    }
    const double e = ho_energy_at(S, c, c0);
    if (isfinite(e) && !(e >= ge)) {
      ge = e;
      gbest = c;
    }
  }
  /* The time Galerkin needs to bring its energy error to EM's largest. */
  double tg_em = NAN;
  int ub = 0;
  char why[200] = "";
  const int greach = isfinite(em_max) && em_max > 0
                         ? vi_sweep_best(S, HO_GAL, VI_SW_ENERGY, VI_COST_CPU, em_max, &tg_em,
                                         &ub, why, sizeof why)
                         : -1;
  if (R->nclaims < VI_SWEEP_MAXCLAIMS) {
    char text[300], reach[300];
    snprintf(text, sizeof text,
             "%s: Galerkin keeps the energy only to its order: at the CPU time of EM's "
             "cheapest run the best Galerkin energy error is above EM's",
             name);
    if (greach >= 0) {
      snprintf(reach, sizeof reach, "; Galerkin reaches EM's largest energy error (%.2g) in "
               "%s%.3g s (%s), %.3gx that time", em_max, ub ? "<= " : "", tg_em,
               ho_label(S, greach), tg_em / c0);
    } else {
      snprintf(reach, sizeof reach, "; Galerkin does not reach EM's largest energy error "
               "(%.2g) in the sweep: %s", em_max, why);
    }
    k_e2 = R->nclaims;
    vi_claim *c = &R->claims[R->nclaims++];
    if (isfinite(ge) && isfinite(e0)) {
      vi_claim_set(c, ge > e0, text, "at %.3g s: EM %.2g, %s %.2g (%.3gx)%s", c0, e0,
                   ho_label(S, gbest), ge, ge / e0, reach);
    } else {
      vi_claim_set(c, 0, text, "n/a: %s%s",
                   isfinite(c0) ? "no Galerkin curve has runs bracketing EM's cheapest time"
                                : "no EM run",
                   reach);
    }
  }
  fprintf(f, "### Energy\n\nEM's largest energy error over its %d runs: %.2g (at most %.2g "
             "of the round-off 10 eps N). At EM's cheapest run (%.3g s, energy error %.2g) "
             "the best Galerkin curve at the same time is %s with %.2g.\n\n",
          em_runs, em_max, em_ratio, c0, e0, ho_label(S, gbest), ge);
  fprintf(f, "Fitted order of the energy error in h (least squares over the runs between "
             "100x round-off and 0.1):\n\n| configuration | energy order | runs |\n|---|---|---|\n");
  json_t *eo = json_object();
  for (int c = 0; c < S->ncurves; c++) {
    int k;
    const double p = ho_energy_order(S, c, &k);
    if (isfinite(p)) {
      fprintf(f, "| %s | %.2f | %d |\n", S->curves[c].label, p, k);
    } else {
      fprintf(f, "| %s | - | %d |\n", S->curves[c].label, k);
    }
    json_object_set_new(eo, S->curves[c].label, ho_num(p));
  }
  fputc('\n', f);
  json_t *ej = json_object();
  json_object_set_new(ej, "em_runs", json_integer(em_runs));
  json_object_set_new(ej, "em_max_energy_error", ho_num(em_max));
  json_object_set_new(ej, "em_max_over_roundoff", ho_num(em_ratio));
  json_object_set_new(ej, "em_cheapest_seconds", ho_num(c0));
  json_object_set_new(ej, "em_cheapest_energy_error", ho_num(e0));
  json_object_set_new(ej, "galerkin_at_em_cheapest",
                      gbest >= 0 ? json_string(ho_label(S, gbest)) : json_null());
  json_object_set_new(ej, "galerkin_energy_error_at_em_cheapest", ho_num(ge));
  json_object_set_new(ej, "galerkin_seconds_to_em_level", ho_num(tg_em));
  json_object_set_new(ej, "energy_orders", eo);
  json_object_set_new(ej, "claim_em_roundoff", k_e1 >= 0 ? json_integer(k_e1) : json_null());
  json_object_set_new(ej, "claim_equal_cost", k_e2 >= 0 ? json_integer(k_e2) : json_null());
  json_object_set_new(pj, "energy", ej);

  /* The long run: EM at h_em; the Galerkin curve of the deepest level at
   * about EM's CPU time per unit time. */
  const ho_long *L = &ho_longs[ip];
  const double T = S->quick ? L->T_quick : L->T;
  int gc = deepest >= 0 ? deepest : vi_sweep_find(S, HO_GAL, 2);
  ho_longrun lr[2];
  memset(lr, 0, sizeof lr);
  const long Nem = lround(T / L->h_em);
  if (em < 0 || gc < 0 ||
      ho_long_run(S, L, T, "EM", S->curves[em].method, Nem, &lr[0], err, errlen) != 0) {
    if (!err[0]) {
      vi_set_err(err, errlen, "the long run needs the EM and a Galerkin curve");
    }
    return -1;
  }
  const double cg = ho_per_step(S, gc);
  long Ng = lr[0].ok && isfinite(cg) && cg > 0 ? lround(lr[0].seconds / cg) : Nem;
  Ng = Ng < 1 ? 1 : Ng;
  /* Newton may not converge at the equal-cost step: halve h (at most 3x). */
  for (int t = 0; t < 4; t++, Ng *= 2) {
    if (ho_long_run(S, L, T, S->curves[gc].label, S->curves[gc].method, Ng, &lr[1], err,
                    errlen) != 0) {
      return -1;
    }
    if (lr[1].ok) {
      break;
    }
  }
  fprintf(f, "### Long run at equal cost (T = %g)\n\nEM at h = %g; %s at the step that gives "
             "it about EM's CPU time per unit time (its time per step in the sweep, %.3g s). "
             "Energy: max |H_k - H_0| / |H_0|; momentum maps: max |I_k - I_0| (the claims "
             "divide it by max(1, |I_0|), as the round-off of betsch_ggl_figs.c).\n\n"
             "| method | h | steps | CPU time [s] | energy error |",
          T, L->h_em, S->curves[gc].label, cg);
  for (int i = 0; i < L->nmomenta; i++) {
    fprintf(f, " %s error |", L->momenta[i]);
  }
  fprintf(f, "\n|---|---|---|---|---|");
  for (int i = 0; i < L->nmomenta; i++) {
    fprintf(f, "---|");
  }
  fputc('\n', f);
  json_t *lj = json_array();
  for (int k = 0; k < 2; k++) {
    const ho_longrun *r = &lr[k];
    fprintf(f, "| %s | %.5g | %ld | ", r->label, r->h, r->N);
    if (!r->ok) {
      fprintf(f, "failed: %s |", r->msg);
      for (int i = 0; i <= L->nmomenta; i++) {
        fprintf(f, " - |");
      }
    } else {
      fprintf(f, "%.3g | %.2e |", r->seconds, r->energy);
      for (int i = 0; i < L->nmomenta; i++) {
        fprintf(f, " %.2e |", r->momentum[i]);
      }
    }
    fputc('\n', f);
    json_t *x = json_object();
    json_object_set_new(x, "config", json_string(r->label));
    json_object_set_new(x, "method", json_string(r->method));
    json_object_set_new(x, "T", json_real(T));
    json_object_set_new(x, "h", json_real(r->h));
    json_object_set_new(x, "steps", json_integer(r->N));
    json_object_set_new(x, "ok", json_boolean(r->ok));
    json_object_set_new(x, "status", json_string(r->ok ? "ok" : r->msg));
    json_object_set_new(x, "seconds", ho_num(r->seconds));
    json_object_set_new(x, "energy_error", ho_num(r->energy));
    json_t *mj = json_object(), *m0 = json_object();
    double mmax = r->ok ? 0 : NAN;
    for (int i = 0; i < L->nmomenta; i++) {
      json_object_set_new(mj, L->momenta[i], ho_num(r->ok ? r->momentum[i] : NAN));
      json_object_set_new(m0, L->momenta[i], ho_num(r->ok ? r->momentum0[i] : NAN));
      mmax = r->momentum[i] > mmax ? r->momentum[i] : mmax;
    }
    json_object_set_new(x, "momentum_errors", mj);
    json_object_set_new(x, "momentum_initial", m0);
    json_object_set_new(x, "momentum_error_max", ho_num(mmax));
    json_object_set_new(x, "momentum_error_scaled_max", ho_num(r->ok ? r->mscaled : NAN));
    json_object_set_new(x, "roundoff", json_real(HO_ROUNDOFF(r->N)));
    json_array_append_new(lj, x);
  }
  fputc('\n', f);
  json_object_set_new(pj, "long_run", lj);

  /* L: EM's energy and momenta at round-off over the long run, and the
   * Galerkin run's momenta (discrete Noether, wenger2017 §3). */
  /* Momenta scaled by max(1, |I(0)|), as betsch_ggl_figs.c's round-off. */
  const double mem = lr[0].mscaled, mg = lr[1].mscaled;
  if (R->nclaims + 2 < VI_SWEEP_MAXCLAIMS) {
    char text[300];
    snprintf(text, sizeof text,
             "%s, long run (T = %g) at about equal CPU time: EM keeps energy and momenta to "
             "round-off (10 eps N)",
             name, T);
    k_l1 = R->nclaims;
    vi_claim_set(&R->claims[R->nclaims++],
                 lr[0].ok && lr[0].energy <= HO_ROUNDOFF(lr[0].N) &&
                     mem <= HO_ROUNDOFF(lr[0].N),
                 text, lr[0].ok ? "EM, %ld steps, %.3g s: energy %.2e, momenta %.2e (over max(1, |I(0)|); 10 "
                                  "eps N = %.2e)"
                                : "EM failed (%ld steps, %.3g s)",
                 lr[0].N, lr[0].seconds, lr[0].energy, mem, HO_ROUNDOFF(lr[0].N));
    /* Where each wins on conservation at equal cost. */
    snprintf(text, sizeof text,
             "%s, long run (T = %g) at about equal CPU time: EM's energy error and largest "
             "momentum error are below the Galerkin run's",
             name, T);
    k_l2 = R->nclaims;
    if (lr[0].ok && lr[1].ok) {
      vi_claim_set(&R->claims[R->nclaims++], lr[0].energy < lr[1].energy && mem < mg, text,
                   "energy: EM %.2e, %s %.2e; momenta (over max(1, |I(0)|)): EM %.2e, %s "
                   "%.2e; CPU time EM %.3g s, %s %.3g s",
                   lr[0].energy, lr[1].label, lr[1].energy, mem, lr[1].label, mg,
                   lr[0].seconds, lr[1].label, lr[1].seconds);
    } else {
      vi_claim_set(&R->claims[R->nclaims++], 0, text, "n/a: %s failed",
                   lr[0].ok ? lr[1].label : "EM");
    }
    snprintf(text, sizeof text,
             "%s, long run (T = %g) at about EM's CPU time: the Galerkin run keeps the momenta "
             "to Newton's tolerance (100 eps N) and its energy error bounded (within 10x of "
             "its error over the sweep's T at the same step)",
             name, T);
    k_l3 = R->nclaims;
    vi_claim *c = &R->claims[R->nclaims++];
    if (!lr[1].ok) {
      vi_claim_set(c, 0, text, "%s failed at h = %.3g: %s", lr[1].label, lr[1].h, lr[1].msg);
    } else {
      /* Bounded energy: the long run's error against the sweep's at the
       * same h, interpolated in log-log between the runs that bracket it
       * (the nearest run outside them): no secular drift, within 10x. */
      double eshort = NAN, dh = INFINITY, hshort = NAN;
      const vi_sweep_point *prev = NULL;
      for (int i = 0; i < S->npts; i++) {
        const vi_sweep_point *P = &S->pts[i];
        if (P->curve != gc || !P->ok || !(P->err[VI_SW_ENERGY] > 0)) {
          continue;
        }
        if (prev && prev->h >= lr[1].h && P->h <= lr[1].h) {
          const double fr = log(lr[1].h / prev->h) / log(P->h / prev->h);
          eshort = exp(log(prev->err[VI_SW_ENERGY]) +
                       fr * (log(P->err[VI_SW_ENERGY]) - log(prev->err[VI_SW_ENERGY])));
          hshort = lr[1].h;
          dh = 0;
        } else if (dh > 0 && fabs(log(P->h / lr[1].h)) < dh) {
          dh = fabs(log(P->h / lr[1].h));
          eshort = P->err[VI_SW_ENERGY];
          hshort = P->h;
        }
        prev = P;
      }
      const int bounded = isfinite(eshort) &&
                          lr[1].energy <= 10 * fmax(eshort, HO_ROUNDOFF(lr[1].N));
      json_object_set_new(pj, "long_run_energy_short", ho_num(eshort));
      vi_claim_set(c, mg <= HO_NEWTON(lr[1].N) && bounded, text,
                   "%s, h = %.3g, %ld steps, %.3g s (EM %.3g s): momenta %.2e (over max(1, "
                   "|I(0)|); 100 eps N = %.2e), energy %.2e against %.2e over the sweep's T = %g at h = %.3g",
                   lr[1].label, lr[1].h, lr[1].N, lr[1].seconds, lr[0].seconds, mg,
                   HO_NEWTON(lr[1].N), lr[1].energy, eshort, S->T, hshort);
    }
  }
  json_t *lc = json_array();
  json_array_append_new(lc, k_l1 >= 0 ? json_integer(k_l1) : json_null());
  json_array_append_new(lc, k_l2 >= 0 ? json_integer(k_l2) : json_null());
  json_array_append_new(lc, k_l3 >= 0 ? json_integer(k_l3) : json_null());
  json_object_set_new(pj, "long_run_claims", lc);
  return 0;
}

static int ho_report(vi_sweep *top, vi_sweep_report *R, char *err, size_t errlen) {
  FILE *f = R->md;
  fprintf(f,
          "Beyond the paper: betsch-ggl's schemes (`ggl` VI-A (79), second order; VI-B (83), "
          "first order; `em` EM (84), second order and energy exact) against the "
          "constrained Galerkin variational integrators of wenger2017 (`galerkin:s=w`, Gauss "
          "r = s, order 2s in q: s = 1..4), work-precision by CPU time of the pinned thread. "
          "q error: max_k |q_k - q(t_k)|_inf; energy error: max_k |H_k - H_0| / |H_0| with H "
          "= 1/2 p'M^-1 p + V (the paper's VIs carry a velocity of their own, and their E "
          "(89) differs from H by O(h^2)). Newton at its default tolerance (100 eps). Other "
          "processes share the machine: CPU times are the minimum over repetitions, taken in "
          "passes, and still carry noise of some 10%%.\n\n"
          "![work-precision](%s.svg)\n\n",
          top->id);
  json_t *pa = json_array();
  for (int i = 0; i < top->nparts; i++) {
    json_t *pj = json_object();
    json_object_set_new(pj, "part", json_string(top->parts[i].spec->part_name));
    if (ho_part(top, i, R, pj, err, errlen) != 0) {
      json_decref(pj);
      json_decref(pa);
      return -1;
    }
    json_array_append_new(pa, pj);
  }
  json_object_set_new(R->j, "analysis", pa);
  R->claims_heading = "Claims (beyond the paper: where each wins)";

  char title[700];
  snprintf(title, sizeof title, "betsch-ggl's schemes vs Galerkin VIs");
  vi_gp *g = vi_gp_new(title);
  vi_gp_note(g, top->tg.line);
  for (int i = 0; i < top->nparts; i++) {
    const vi_sweep *S = &top->parts[i];
    char pt[160];
    snprintf(pt, sizeof pt, "%s, T = %g: q error", S->spec->part_name, S->T);
    vi_sweep_plot_panel(S, g, pt, VI_SW_Q, VI_COST_CPU, ho_color, ho_dash);
    snprintf(pt, sizeof pt, "%s, T = %g: energy error", S->spec->part_name, S->T);
    vi_sweep_plot_panel(S, g, pt, VI_SW_ENERGY, VI_COST_CPU, ho_color, ho_dash);
  }
  vi_sweep_report_plot(R, "", g, top->nparts, 2, 1400, 1100);

  int npts = 0;
  for (int i = 0; i < top->nparts; i++) {
    npts += top->parts[i].npts;
  }
  fprintf(R->summary, "%s: %d runs on", top->id, npts);
  for (int i = 0; i < top->nparts; i++) {
    fprintf(R->summary, "%s %s (T = %g)", i ? " and" : "", top->parts[i].spec->part_name,
            top->parts[i].T);
  }
  fprintf(R->summary, "; the best Galerkin against the best of VI-A, VI-B, EM in CPU time:");
  json_t *an = json_object_get(R->j, "analysis");
  for (size_t i = 0; i < json_array_size(an); i++) {
    json_t *w = json_object_get(json_array_get(an, i), "where_each_wins");
    fprintf(R->summary, "%s %s", i ? ";" : "", top->parts[i].spec->part_name);
    for (size_t l = 0; l < json_array_size(w); l++) {
      json_t *e = json_array_get(w, l);
      json_t *r = json_object_get(e, "paper_over_galerkin");
      fprintf(R->summary, json_is_real(r) ? " %s: %s%.3gx" : " %s: n/a%s", ho_level_names[l],
              json_is_true(json_object_get(e, "paper_not_reached")) ? ">= " : "",
              json_is_real(r) ? json_real_value(r) : 0.0);
    }
  }
  fprintf(R->summary, ".");
  return 0;
}

#define HO_PART(name_, sys_, T_, quad_)                                                     \
  {                                                                                        \
    .system = sys_, .T = T_, .nref = 9600, .quad_reference = quad_, .ladder = ho_ladder,    \
    .nladder = (int)(sizeof ho_ladder / sizeof ho_ladder[0]), .quick_ladder = ho_quick,    \
    .nquick = (int)(sizeof ho_quick / sizeof ho_quick[0]), .n_first = 480, .max_fails = 3, \
    .stop_err = 2e-12, .stop_err_quick = 1e-8, .plateau_below = 1e-9, .plateau_ratio = 0.5, \
    .cap_seconds = 0.25, .max_points_quick = 5, .reps = {7, 5, 3}, .curves = ho_curves,    \
    .part_name = name_                                                                     \
  }

/* four-particle: T = 1 (about 7 periods of the stiff mode, omega = 42.9),
 * an integrated reference (quad in the full study: the smallest errors
 * reach 1e-12, the double one's accuracy); gyro-top: T = 0.1, exact. Both
 * stop a curve at a run of 0.25 s (its points depend on the machine's
 * speed, which the study reports). */
static const vi_sweep_spec ho_four_particle = HO_PART("four-particle", "four-particle", 1.0, 1);
static const vi_sweep_spec ho_top = HO_PART("gyro-top", "gyro-top", 0.1, 0);
static const vi_sweep_spec *const ho_parts[] = {&ho_four_particle, &ho_top};

const vi_sweep_spec vi_betsch_ggl_ho_sweep = {
    .parts = ho_parts,
    .nparts = 2,
    .report = ho_report,
};
