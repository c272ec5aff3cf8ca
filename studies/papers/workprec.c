/* workprec.c: `vistudy reproduce workprec-double-pendulum`, vistudy's own
 * work-precision study (no paper's figure): the constrained Galerkin
 * variational integrators (wenger2017 (11)-(22)) against SUNDIALS IDA, as
 * a spec of the sweep runner (sweep.h) with its claims and layout.
 *
 * System: the 3D double pendulum (wenger2017 §4, (69)) with its default
 * parameters, T = 10. Accuracy: the global q error max_k |q_k - q_ref(t_k)|
 * (wenger2017 §4.1); cost: CPU time (timing.h) and residual evaluations.
 *
 * Galerkin: s = w = 1..6 with Gauss r = s and Lobatto r = s + 1 Lagrangian
 * quadrature (ordL = 2s in both), built-in Newton at its default tolerance,
 * over a ladder of h = T/N.
 *
 * IDA (variable-order BDF, orders 1-5; Brenan, Campbell & Petzold 1996),
 * dense direct solver, rtol = atol swept in half decades, output at the
 * grid t_j = j T / 400 by IDA's interpolation, on two formulations
 * (studies/baselines/ida.h): GGL, the stabilised index-2 form of Gear,
 * Gupta & Leimkuhler (1985) that SUNDIALS' own multibody example uses, and
 * the index-1 ODE form with lambda from wenger2017 (70), which drifts off
 * g = 0 but is the cheaper of the two here; each speedup is taken against
 * the cheaper one at its error level.
 *
 * Reference: the double reference (rk8pd) is estimated at 1e-10 and
 * differs from the quad one by about 2e-12 in q, not well below the
 * smallest errors here (about 3e-12), so the full study uses the quad
 * reference (8-stage Gauss IRK, about 1e-30; cached), rounded to double;
 * --quick uses the double one and stops its sweeps at q errors of 1e-7. */
#include "specs.h"
#include "../sweep.h"

#include "../baselines/ida.h"

#include <sundials/sundials_config.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { WP_GALERKIN = 0, WP_IDA = 1 };

/* Error levels of the speedups. */
#define WP_NLEVELS 3
static const double wp_levels[WP_NLEVELS] = {1e-6, 1e-8, 1e-10};
static const char *const wp_level_names[WP_NLEVELS] = {"1e-6", "1e-8", "1e-10"};

/* Step counts N (h = T/N): ratios 1.25-2, each a divisor or a multiple of
 * the reference grid 9600 = 2^7 3 5^2. */
static const long wp_ladder[] = {20,    30,    40,     60,     80,     120,   160,
                                 240,   320,   480,    640,    960,    1200,  1600,
                                 2400,  3200,  4800,   9600,   19200,  28800, 38400,
                                 57600, 76800, 115200, 153600, 230400, 307200};

static int wp_curves(vi_sweep *S) {
  char label[64], spec[160];
  for (int s = 1; s <= 6; s++) {
    if (S->quick && s != 2 && s != 4) {
      continue;
    }
    for (int lob = 0; lob <= 1; lob++) {
      snprintf(label, sizeof label, "%s s=%d", lob ? "Lobatto" : "Gauss", s);
      snprintf(spec, sizeof spec, "galerkin:s=%d,w=%d,quadL=%s,r=%d", s, s,
               lob ? "lobatto" : "gauss", lob ? s + 1 : s);
      /* m: 2s + lob orders the colours by s, the dashes by the rule. */
      if (vi_sweep_add(S, VI_SWEEP_STEPPER, WP_GALERKIN, 2 * s + lob, label, spec) < 0) {
        return -1;
      }
    }
    /* The chord method (issue "Speed": one Jacobian per step) beside the
     * default exact Newton, Gauss only: the same scheme, another solver. */
    if (!S->quick || s == 4) {
      snprintf(label, sizeof label, "Gauss s=%d chord", s);
      snprintf(spec, sizeof spec, "galerkin:s=%d,w=%d,quadL=gauss,r=%d", s, s, s);
      int c = vi_sweep_add(S, VI_SWEEP_STEPPER, WP_GALERKIN, 2 * s, label, spec);
      if (c < 0) {
        return -1;
      }
      S->curves[c].solver = VI_SOLVER_CHORD;
    }
  }
  char ggl[256], idx1[256];
  snprintf(ggl, sizeof ggl,
           "SUNDIALS IDA %s: stabilised index-2 GGL form, lambda and mu out of the error "
           "test, dense solver, analytic Jacobian, first step %g",
           SUNDIALS_VERSION, VI_IDA_H0);
  snprintf(idx1, sizeof idx1,
           "SUNDIALS IDA %s: index-1 form with lambda(q, p) of wenger2017 (70), dense "
           "solver, difference-quotient Jacobian",
           SUNDIALS_VERSION);
  return vi_sweep_add(S, VI_SWEEP_IDA_GGL, WP_IDA, 0, "IDA GGL", ggl) < 0 ||
                 vi_sweep_add(S, VI_SWEEP_IDA_INDEX1, WP_IDA, 1, "IDA index 1", idx1) < 0
             ? -1
             : 0;
}

/* The speedup at one level and cost: the cheapest curve of each family. */
typedef struct wp_speed {
  double value;       /* IDA cost / Galerkin cost, NAN if undefined */
  int best, ida_best; /* the cheapest curve of each family, -1 if none */
  double gal, ida;
  char reason[400];
} wp_speed;

static void wp_speedup(const vi_sweep *S, double E, int cost, wp_speed *sp) {
  memset(sp, 0, sizeof *sp);
  char wg[180] = "", wi[180] = "";
  sp->best = vi_sweep_best(S, WP_GALERKIN, VI_SW_Q, cost, E, &sp->gal, NULL, wg, sizeof wg);
  sp->ida_best = vi_sweep_best(S, WP_IDA, VI_SW_Q, cost, E, &sp->ida, NULL, wi, sizeof wi);
  sp->value = sp->ida / sp->gal;
  if (sp->best < 0 || sp->ida_best < 0) {
    sp->value = NAN;
    snprintf(sp->reason, sizeof sp->reason, "%s%s%s%s%s", sp->best < 0 ? "Galerkin: " : "",
             sp->best < 0 ? wg : "", sp->best < 0 && sp->ida_best < 0 ? "; " : "",
             sp->ida_best < 0 ? "IDA: " : "", sp->ida_best < 0 ? wi : "");
  }
}

static json_t *wp_num(double v) {
  return isfinite(v) ? json_real(v) : json_null();
}

static json_t *wp_speed_json(const vi_sweep *S, const wp_speed *sp, int evals) {
  json_t *j = json_object();
  json_object_set_new(j, "value", wp_num(sp->value));
  json_object_set_new(j, "best",
                      sp->best >= 0 ? json_string(S->curves[sp->best].label) : json_null());
  json_object_set_new(j, "best_method",
                      sp->best >= 0 ? json_string(S->curves[sp->best].method) : json_null());
  json_object_set_new(
      j, "ida", sp->ida_best >= 0 ? json_string(S->curves[sp->ida_best].label) : json_null());
  json_object_set_new(j, evals ? "galerkin_evals" : "galerkin_seconds", wp_num(sp->gal));
  json_object_set_new(j, evals ? "ida_evals" : "ida_seconds", wp_num(sp->ida));
  json_object_set_new(j, "reason", sp->reason[0] ? json_string(sp->reason) : json_null());
  return j;
}

static void wp_md_speed(FILE *f, const vi_sweep *S, const wp_speed *sp, int evals) {
  const char *u = evals ? "res. evals" : "time [s]";
  fprintf(f, "| q error | best Galerkin | its %s | best IDA | its %s | speedup |\n", u, u);
  fprintf(f, "|---|---|---|---|---|---|\n");
  for (int l = 0; l < WP_NLEVELS; l++) {
    const wp_speed *x = &sp[l];
    fprintf(f, "| %s | %s | ", wp_level_names[l], x->best >= 0 ? S->curves[x->best].label : "-");
    fprintf(f, isfinite(x->gal) ? "%.3g | " : "- | ", x->gal);
    fprintf(f, "%s | ", x->ida_best >= 0 ? S->curves[x->ida_best].label : "-");
    fprintf(f, isfinite(x->ida) ? "%.3g | " : "- | ", x->ida);
    if (isfinite(x->value)) {
      fprintf(f, "**%.1f** |\n", x->value);
    } else {
      fprintf(f, "n/a: %s |\n", x->reason);
    }
  }
  fputc('\n', f);
}

/* Plot style: colour by s, dashed for Lobatto, dotted for the chord
 * method; IDA in the last colours. */
static int wp_color(const vi_sweep *S, int c) {
  const vi_sweep_curve *C = &S->curves[c];
  return C->group == WP_IDA ? 6 + C->m : C->m / 2 - 1;
}

static int wp_dash(const vi_sweep *S, int c) {
  const vi_sweep_curve *C = &S->curves[c];
  return C->group == WP_IDA ? 0 : C->solver == VI_SOLVER_CHORD ? 2 : C->m % 2;
}

static int wp_report(vi_sweep *S, vi_sweep_report *R, char *err, size_t errlen) {
  (void)err;
  (void)errlen;
  wp_speed st[WP_NLEVELS], se[WP_NLEVELS], sw[WP_NLEVELS];
  for (int l = 0; l < WP_NLEVELS; l++) {
    wp_speedup(S, wp_levels[l], VI_COST_CPU, &st[l]);
    wp_speedup(S, wp_levels[l], VI_COST_EVALS, &se[l]);
    wp_speedup(S, wp_levels[l], VI_COST_WALL, &sw[l]);
  }
  json_t *sj = json_object(), *sej = json_object(), *swj = json_object(), *sd = json_object(),
         *sed = json_object();
  for (int l = 0; l < WP_NLEVELS; l++) {
    json_object_set_new(sj, wp_level_names[l], wp_num(st[l].value));
    json_object_set_new(sej, wp_level_names[l], wp_num(se[l].value));
    json_object_set_new(swj, wp_level_names[l], wp_num(sw[l].value));
    json_object_set_new(sd, wp_level_names[l], wp_speed_json(S, &st[l], 0));
    json_object_set_new(sed, wp_level_names[l], wp_speed_json(S, &se[l], 1));
  }
  json_object_set_new(R->j, "speedup", sj);
  json_object_set_new(R->j, "speedup_evals", sej);
  json_object_set_new(R->j, "speedup_wall", swj);
  json_object_set_new(R->j, "speedup_detail", sd);
  json_object_set_new(R->j, "speedup_evals_detail", sed);
  json_t *ij = json_object();
  json_object_set_new(ij, "version", json_string(SUNDIALS_VERSION));
  json_object_set_new(ij, "tolerances", json_string("rtol = atol = 10^(-k/2), k = 6..30"));
  json_object_set_new(ij, "h_out", json_real(S->T / (double)S->spec->nout));
  json_object_set_new(ij, "build_note",
                      json_string("Debian's SUNDIALS is built without optimisation: compare "
                                  "evaluation counts as well as times"));
  json_object_set_new(R->j, "ida", ij);

  FILE *f = R->md;
  fprintf(f,
          "3D double pendulum (`%s`, default parameters, wenger2017 §4), T = %g. Accuracy: "
          "the global q error; cost: run time and residual evaluations.\n\n",
          S->spec->system, S->T);
  fprintf(f,
          "- SUNDIALS %s from Debian, which is built without optimisation: IDA's own "
          "vector and dense linear algebra run unoptimised, so its times are pessimistic; "
          "the evaluation counts beside them do not depend on the build.\n",
          SUNDIALS_VERSION);
  fprintf(f,
          "- Galerkin: `galerkin:s=w` with Gauss r = s and Lobatto r = s + 1 (ordL = 2s), "
          "built-in dense Newton (analytic Jacobian), h = T/N on a ladder of ratio 1.25-2. "
          "Each residual evaluation assembles the residual and the Jacobian of one step's "
          "system.\n");
  fprintf(f,
          "- IDA (variable-order BDF), dense direct solver, rtol = atol swept in half "
          "decades, error at the output grid t_j = j %g:\n"
          "  - **GGL**: the stabilised index-2 form of Gear, Gupta & Leimkuhler, "
          "q' = M^-1 p + G'mu, p' = -grad V - G'lambda, 0 = g(q), 0 = G M^-1 p, %d "
          "unknowns, analytic Jacobian, lambda and mu out of the error test (as SUNDIALS' "
          "slider-crank example does), first step %g. Both constraints hold at every step.\n"
          "  - **index 1**: q' = M^-1 p, p' = -grad V - G'lambda(q, p) with lambda from "
          "wenger2017 (70), %d unknowns, IDA's difference-quotient Jacobian (its residual "
          "evaluations are counted); it drifts off g = 0 (`g_drift`) but is cheaper than "
          "GGL here.\n"
          "  - IDA reuses its Jacobian over many steps (modified Newton). The speedups "
          "compare with the cheaper IDA formulation at each level.\n",
          S->T / (double)S->spec->nout, 2 * S->n + 2 * S->m, VI_IDA_H0, 2 * S->n);
  if (!S->quick) {
    fprintf(f,
            "- The double reference (%s) is estimated at %.1e and differs from the quad one "
            "by %.1e in q: too close to the smallest errors here, hence the quad "
            "reference.\n",
            S->dref_method, S->dref_accuracy, S->dref_dev);
  }
  fprintf(f, "\n![error vs time](%s.svg)\n![error vs residual evaluations](%s-evals.svg)\n\n",
          S->id, S->id);
  fprintf(f, "## Speedup of the best Galerkin configuration over IDA, in time\n\n");
  wp_md_speed(f, S, st, 0);
  fprintf(f, "The same in wall-clock time (`speedup_wall`; other processes on the machine "
             "inflate it):");
  for (int l = 0; l < WP_NLEVELS; l++) {
    fprintf(f, isfinite(sw[l].value) ? " %s: %.1f" : " %s: n/a", wp_level_names[l],
            sw[l].value);
    fputc(l + 1 < WP_NLEVELS ? ',' : '.', f);
  }
  fprintf(f, "\n\n## The same in residual evaluations\n\n");
  wp_md_speed(f, S, se, 1);
  fprintf(f,
          "Costs are interpolated linearly in log-log between the two runs of a curve that "
          "bracket the error level.\n\n"
          "Gauss r = s and Lobatto r = s + 1 give the same integrator on this system: along "
          "q_d its Lagrangian is a polynomial of degree at most 2s - 1 (quadratic kinetic "
          "energy, linear potential), which both rules integrate exactly, so their errors "
          "and counts agree and only the time of the extra quadrature node differs.\n\n");

  /* The claims: vistudy's own statement (docs/usage.md) that the best Galerkin
   * configuration beats IDA, at every level the sweep reaches (a quick
   * run stops at 1e-7). */
  for (int l = 0; l < WP_NLEVELS; l++) {
    char text[200];
    snprintf(text, sizeof text,
             "the best Galerkin configuration reaches a q error of %s in less CPU time "
             "than the cheaper IDA formulation",
             wp_level_names[l]);
    if (S->quick && !isfinite(st[l].value)) {
      continue; /* a quick sweep need not reach the level */
    }
    vi_claim *c = &R->claims[R->nclaims++];
    if (isfinite(st[l].value)) {
      vi_claim_set(c, st[l].value > 1, text, "%.1fx faster: %s %.3g s, %s %.3g s",
                   st[l].value, S->curves[st[l].best].label, st[l].gal,
                   S->curves[st[l].ida_best].label, st[l].ida);
    } else if (st[l].best >= 0) {
      /* IDA's sweep runs its tolerance down to 1e-15: a level it never
       * reaches is one the Galerkin curve wins outright. */
      vi_claim_set(c, 1, text, "%s in %.3g s; no IDA run reaches it (smallest IDA error %.2g)",
                   S->curves[st[l].best].label, st[l].gal,
                   fmin(vi_sweep_min_err(S, vi_sweep_find(S, WP_IDA, 0), VI_SW_Q),
                        vi_sweep_min_err(S, vi_sweep_find(S, WP_IDA, 1), VI_SW_Q)));
    } else {
      vi_claim_set(c, 0, text, "n/a: %s", st[l].reason);
    }
  }
  R->claims_heading = "Claims (vistudy's own, docs/usage.md, \"Work-precision against SUNDIALS IDA\")";

  char title[700];
  snprintf(title, sizeof title, "3D double pendulum, T = %g: Galerkin vs IDA", S->T);
  for (int k = 0; k < 2; k++) {
    vi_gp *g = vi_gp_new(title);
    vi_gp_note(g, S->tg.line);
    vi_sweep_plot_panel(S, g, NULL, VI_SW_Q, k ? VI_COST_EVALS : VI_COST_CPU, wp_color,
                        wp_dash);
    vi_sweep_report_plot(R, k ? "-evals" : "", g, 1, 1, 1000, 680);
  }

  int ngal = 0;
  for (int c = 0; c < S->ncurves; c++) {
    ngal += S->curves[c].group == WP_GALERKIN;
  }
  fprintf(R->summary,
          "%s: 3D double pendulum, T = %g, %d Galerkin configurations and SUNDIALS IDA %s "
          "(GGL index-2 and index-1 forms; Debian's unoptimised build), %d runs, q errors "
          "down to %.1e against a %s reference (accuracy %.0e); speedups against the "
          "cheaper IDA form.",
          S->id, S->T, ngal, SUNDIALS_VERSION, S->npts, vi_sweep_min_err(S, -1, VI_SW_Q),
          S->ref_precision, S->ref_accuracy);
  for (int l = 0; l < WP_NLEVELS; l++) {
    if (isfinite(st[l].value)) {
      fprintf(R->summary, " At q error %s the best Galerkin (%s) is %.1fx faster",
              wp_level_names[l], S->curves[st[l].best].label, st[l].value);
    } else {
      fprintf(R->summary, " At %s no time speedup (%s)", wp_level_names[l], st[l].reason);
    }
    if (isfinite(se[l].value)) {
      fprintf(R->summary, " and needs %.1fx fewer residual evaluations (%s).", se[l].value,
              S->curves[se[l].best].label);
    } else {
      fprintf(R->summary, "; evaluations: n/a (%s).", se[l].reason);
    }
  }
  return 0;
}

const vi_sweep_spec vi_workprec_sweep = {
    .system = "double-pendulum-3d",
    .T = 10.0,
    .nref = 9600,
    .quad_reference = 1,
    .ladder = wp_ladder,
    .nladder = (int)(sizeof wp_ladder / sizeof wp_ladder[0]),
    /* IDA output grid h_out = T / 400 = 0.025 (divides the reference grid):
     * denser output would add IDA's per-call overhead (one IDASolve per
     * output) to its time without changing the measured maximum. */
    .nout = 400,
    /* Half decades resolve the curve about as finely as the Galerkin ladder
     * does; IDA's global error stays far above its tolerance (by 1e2-1e5
     * here), so the sweep goes almost to round-off. */
    .tol_kmin = 6,
    .tol_kmax = 30,
    .tol_kmax_quick = 10,
    .tol_kstep_quick = 2,
    /* Newton may not converge at coarse steps (h >= 0.1 for s = 1): refine
     * down to h = T/480 before any success; three failures in a row after
     * one end a curve. */
    .n_first = 480,
    .max_fails = 3,
    /* Full: down to the round-off floor. Quick: above 100x the double
     * reference's accuracy (about 1e-10), after at most 5 runs, never on
     * timing (the tests run it under sanitizers on a loaded machine). */
    .stop_err = 2e-12,
    .stop_err_quick = 1e-7,
    .plateau_below = 1e-9,
    .plateau_ratio = 0.5,
    /* The full study stops a curve at a run of 0.25 s (IDA: 1 s); its points
     * depend on the machine's speed, which the study reports. */
    .cap_seconds = 0.25,
    .baseline_cap = 1.0,
    .max_points_quick = 5,
    /* 3 repetitions, 5 below 50 ms, 7 below 5 ms. */
    .reps = {7, 5, 3},
    .curves = wp_curves,
    .report = wp_report,
};
