/* workprec_vprk.c: work-precision of the VPRK methods (tyranowski2014 §4)
 * against GSL's explicit rk8pd on the non-degenerate ODE form, on Kepler and
 * on the two point vortices (issue 13, item 6; beyond the paper), as specs
 * of the sweep runner (sweep.h):
 *
 *   workprec-vprk-kepler, workprec-vprk-vortices: the q error at T = 7
 *     (the paper's measure, |q_N - q(T)|) against the exact solution,
 *     against CPU time;
 *   energy-vprk-kepler, energy-vprk-vortices: the maximum Hamiltonian
 *     error over a long run, T = 1000 (160 Kepler periods, 152 vortex
 *     turns), max_k |H_k - H_0| (absolute: H = 0 on the orbit), against
 *     CPU time.
 *
 * Curves: vprk Gauss s = 1..4 and Radau IIA s = 3 over a ladder of h = T/N
 * (built-in Newton, analytic Jacobian); GSL rk8pd (gsl_odeiv2 driver,
 * y_new control, rtol = atol = 10^(-k/2)) on qdot = (Dalpha' - Dalpha)^-1
 * grad H, its output every T/nout (the error at T is that of its last
 * output). The energy error of every curve is the maximum over the same
 * output times t_j = j T / nout (energy_at_outputs): rk8pd is sampled only
 * there, and a maximum over every VPRK step against 100 rk8pd samples would
 * favour rk8pd (sampling rk8pd 32x more densely raises its maximum by up
 * to 2x). The report says where each wins: at each error level the
 * cheapest VPRK curve against rk8pd, by CPU time interpolated along the
 * curves. */
#include "specs.h"
#include "../sweep.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { WV_VPRK = 0, WV_RK = 1 };

#define WV_NLEV 3
static const double wv_qlev[WV_NLEV] = {1e-6, 1e-9, 1e-12};
static const double wv_elev[WV_NLEV] = {1e-6, 1e-9, 1e-12};

/* T = 7: h = 7/N, N = 20 .. 20480 doubling; the reference (exact) on 2560
 * nodes, which every N divides or is a multiple of. */
static const long wv_ladder7[] = {20, 40, 80, 160, 320, 640, 1280, 2560, 5120, 10240, 20480};
static const long wv_quick7[] = {40, 80, 160, 320};
/* T = 1000: h = 0.2 .. 0.00625. */
static const long wv_ladder1k[] = {5000, 10000, 20000, 40000, 80000, 160000};
static const long wv_quick1k[] = {5000, 10000};

static int wv_curves(vi_sweep *S) {
  static const char *const specs[] = {"vprk:tableau=gauss,s=1", "vprk:tableau=gauss,s=2",
                                      "vprk:tableau=gauss,s=3", "vprk:tableau=gauss,s=4",
                                      "vprk:tableau=radau-iia,s=3"};
  static const char *const labels[] = {"Gauss s=1", "Gauss s=2", "Gauss s=3", "Gauss s=4",
                                       "Radau IIA s=3"};
  for (int i = 0; i < 5; i++) {
    if (S->quick && i != 1 && i != 3) {
      continue;
    }
    if (vi_sweep_add(S, VI_SWEEP_STEPPER, WV_VPRK, i, labels[i], specs[i]) < 0) {
      return -1;
    }
  }
  /* The chord method (issue "Speed": one Jacobian per step) and the
   * fixed-point iteration with extrapolated starting values (no Jacobian;
   * one LU per run where M is constant, as on Kepler) beside the default
   * exact Newton, for the Gauss methods. */
  static const int kinds[] = {VI_SOLVER_CHORD, VI_SOLVER_FIXED_POINT};
  for (int k = 0; k < 2; k++) {
    for (int i = 1; i <= 3; i++) {
      if (S->quick && i != 3) {
        continue;
      }
      char label[64];
      snprintf(label, sizeof label, "%s %s", labels[i], vi_solver_kind_name(kinds[k]));
      int c = vi_sweep_add(S, VI_SWEEP_STEPPER, WV_VPRK, i, label, specs[i]);
      if (c < 0) {
        return -1;
      }
      S->curves[c].solver = kinds[k];
    }
  }
  return vi_sweep_add(S, VI_SWEEP_GSL_RK8PD, WV_RK, 0, "GSL rk8pd",
                      "GSL rk8pd (explicit Runge-Kutta-Prince-Dormand 8(9), gsl_odeiv2 driver, "
                      "y_new control, rtol = atol) on qdot = (Dalpha' - Dalpha)^-1 grad H") < 0
             ? -1
             : 0;
}

static int wv_color(const vi_sweep *S, int c) {
  return S->curves[c].group == WV_RK ? 7 : S->curves[c].m;
}

static int wv_dash(const vi_sweep *S, int c) {
  return S->curves[c].group == WV_RK                  ? 1
         : S->curves[c].solver == VI_SOLVER_CHORD       ? 2
         : S->curves[c].solver == VI_SOLVER_FIXED_POINT ? 3
                                                        : 0;
}

/* The accuracy studies measure the q error at T, the energy ones the
 * maximum Hamiltonian error. */
static int wv_measure(const vi_sweep *S) {
  return S->spec->T > 100 ? VI_SW_ENERGY : VI_SW_QT;
}

static int wv_report(vi_sweep *S, vi_sweep_report *R, char *err, size_t errlen) {
  (void)err;
  (void)errlen;
  const int x = wv_measure(S);
  const double *lev = x == VI_SW_QT ? wv_qlev : wv_elev;
  const char *what = x == VI_SW_QT ? "q error at T" : "max abs(H - H(0)) over the run";
  FILE *f = R->md;
  fprintf(f,
          "`%s` with its default parameters and initial data (tyranowski2014 §5), T = %g; "
          "measure: the %s; cost: CPU time. VPRK (`vprk`; exact Newton with the analytic "
          "Jacobian, the chord method, or fixed-point iteration with extrapolated starting "
          "values, as the curve names) over a ladder h = T/N against GSL rk8pd on the non-degenerate ODE qdot = (Dalpha' "
          "- Dalpha)^-1 grad H with rtol = atol swept in half decades (its %s at its %ld "
          "outputs).\n\n![work-precision](%s.svg)\n\n",
          S->spec->system, S->T, what, x == VI_SW_QT ? "error at T is that of its last output"
                                                     : "energy error sampled",
          S->spec->nout, S->id);
  fprintf(f, "## Where each wins\n\n| %s | cheapest VPRK | its time [s] | rk8pd time [s] | "
             "faster | ratio |\n|---|---|---|---|---|---|\n", what);
  json_t *wins = json_array();
  for (int l = 0; l < WV_NLEV; l++) {
    char w1[200] = "", w2[200] = "";
    double tv, tr;
    int ubv, ubr;
    /* A curve already below the level at its cheapest run (Gauss keeps
     * the vortices' H at round-off at every h) counts at that run's time,
     * an upper bound. */
    const int bv = vi_sweep_best(S, WV_VPRK, x, VI_COST_CPU, lev[l], &tv, &ubv, w1, sizeof w1);
    const int br = vi_sweep_best(S, WV_RK, x, VI_COST_CPU, lev[l], &tr, &ubr, w2, sizeof w2);
    /* The faster one is certain when the slower one's time is not an
     * upper bound (its true cost at the level is then at least that). */
    const char *who = bv >= 0 && br >= 0 ? (tv < tr ? (ubr ? "undetermined (rk8pd's time is an "
                                                             "upper bound)"
                                                           : "VPRK")
                                                    : (ubv ? "undetermined (VPRK's time is an "
                                                             "upper bound)"
                                                           : "rk8pd"))
                      : bv >= 0          ? "VPRK (rk8pd does not reach it)"
                      : br >= 0          ? "rk8pd (no VPRK curve reaches it)"
                                         : "n/a";
    fprintf(f, "| %.0e | %s | ", lev[l], bv >= 0 ? S->curves[bv].label : "-");
    fprintf(f, isfinite(tv) ? "%s%.3g | " : "%s- | ", ubv ? "<= " : "", tv);
    fprintf(f, isfinite(tr) ? "%s%.3g | " : "%s- | ", ubr ? "<= " : "", tr);
    fprintf(f, "%s | ", who);
    fprintf(f, bv >= 0 && br >= 0 ? "%.2f |\n" : "- |\n", tr / tv);
    json_t *e = json_object();
    json_object_set_new(e, "level", json_real(lev[l]));
    json_object_set_new(e, "vprk", bv >= 0 ? json_string(S->curves[bv].label) : json_null());
    json_object_set_new(e, "vprk_seconds", isfinite(tv) ? json_real(tv) : json_null());
    json_object_set_new(e, "rk8pd_seconds", isfinite(tr) ? json_real(tr) : json_null());
    json_object_set_new(e, "faster", json_string(who));
    json_object_set_new(e, "vprk_upper_bound", json_boolean(ubv));
    json_object_set_new(e, "rk8pd_upper_bound", json_boolean(ubr));
    json_object_set_new(e, "rk8pd_over_vprk",
                        bv >= 0 && br >= 0 ? json_real(tr / tv) : json_null());
    json_object_set_new(e, "why", json_string(bv < 0 ? w1 : br < 0 ? w2 : ""));
    json_array_append_new(wins, e);
  }
  fprintf(f, "\nTimes are interpolated in log-log between the two runs of a curve that "
             "bracket the level; '<=': the curve is below the level already at its cheapest "
             "run, whose time is an upper bound; the ratio is rk8pd's time over the cheapest "
             "VPRK's (above 1: VPRK is faster).\n\n");
  json_object_set_new(R->j, "measure", json_string(what));
  json_object_set_new(R->j, "where_each_wins", wins);
  char title[700];
  snprintf(title, sizeof title, "%s, T = %g: VPRK vs GSL rk8pd", S->spec->system, S->T);
  vi_gp *g = vi_gp_new(title);
  vi_gp_note(g, S->tg.line);
  vi_sweep_plot_panel(S, g, NULL, x, VI_COST_CPU, wv_color, wv_dash);
  snprintf(R->plots[0].suffix, sizeof R->plots[0].suffix, "%s", "");
  R->plots[0].body = vi_gp_body(g, 1, 1);
  R->plots[0].width = 1000;
  R->plots[0].height = 680;
  R->nplots = 1;
  vi_gp_free(g);
  fprintf(R->summary, "%s: %s, T = %g, %d runs; %s:", S->id, S->spec->system, S->T, S->npts,
          what);
  for (size_t l = 0; l < json_array_size(wins); l++) {
    json_t *e = json_array_get(wins, l);
    fprintf(R->summary, " %.0e: %s", json_real_value(json_object_get(e, "level")),
            json_string_value(json_object_get(e, "faster")));
    json_t *rt = json_object_get(e, "rk8pd_over_vprk");
    if (json_is_real(rt)) {
      fprintf(R->summary, " (rk8pd/VPRK time %.2f)", json_real_value(rt));
    }
    fprintf(R->summary, "%s", l + 1 < json_array_size(wins) ? ";" : "");
  }
  fprintf(R->summary, ". Pinned core %d; %.1f s.\n", S->tg.core, S->seconds);
  return 0;
}

#define WV_SPEC(sys_, T_, lad_, quick_, nref_, nout_)                                           \
  {                                                                                          \
    .system = sys_, .T = T_, .nref = nref_, .quad_reference = 0, .ladder = lad_,             \
    .nladder = (int)(sizeof lad_ / sizeof lad_[0]), .quick_ladder = quick_,                  \
    .nquick = (int)(sizeof quick_ / sizeof quick_[0]), .nout = nout_, .tol_kmin = 6,         \
    .tol_kmax = 28, .tol_kmax_quick = 12, .tol_kstep_quick = 3, .max_fails = 3,              \
    .stop_err = 0, .stop_err_quick = 0, .plateau_below = 1e-12, .plateau_ratio = 0.5,         \
    .energy_at_outputs = 1,                                                                  \
    .cap_seconds = 0.5, .baseline_cap = 2.0, .max_points_quick = 4, .reps = {5, 3, 3},        \
    .curves = wv_curves, .report = wv_report                                                 \
  }

/* rk8pd's outputs: few, since gsl_odeiv2_driver_apply ends a step at
 * every output (denser outputs would cap its step size): every 0.35 at
 * T = 7 (only the last counts for the error at T), every 10 time units
 * at T = 1000 (its energy error drifts monotonically, so the samples
 * catch its maximum). */
const vi_sweep_spec vi_workprec_vprk_kepler =
    WV_SPEC("kepler", 7.0, wv_ladder7, wv_quick7, 2560, 20);
const vi_sweep_spec vi_workprec_vprk_vortices =
    WV_SPEC("point-vortices", 7.0, wv_ladder7, wv_quick7, 2560, 20);
const vi_sweep_spec vi_energy_vprk_kepler =
    WV_SPEC("kepler", 1000.0, wv_ladder1k, wv_quick1k, 5000, 100);
const vi_sweep_spec vi_energy_vprk_vortices =
    WV_SPEC("point-vortices", 1000.0, wv_ladder1k, wv_quick1k, 5000, 100);
