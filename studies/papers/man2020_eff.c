/* man2020_eff.c: `vistudy reproduce man2020-efficiency`, the efficiency
 * claim of man2020 §4.2 measured (issue 4, item 6), as a spec of the sweep
 * runner (sweep.h) with its claims and layout.
 *
 * The claim (man2020 §4.2, last paragraph): with m points per step the
 * man2020 integrators solve a system of md + mc equations, the constrained
 * Lobatto IIIA-IIIB partitioned Runge-Kutta method one of 2md + (m-2)c
 * (d coordinates, c holonomic constraints); LLL has the precision of the
 * Lobatto IIIA-IIIB method (the paper's [38]), so "algorithms LLG and LGG
 * have higher precision while taking less computational time". §4.3 says
 * the triple pendulum (54)-(56) reconfirms §4.2's conclusions.
 *
 * What is measured: on the triple pendulum (54)-(56) (`triple-pendulum`,
 * the paper's parameters m1 = m2 = m3 = L = g = 1, d = 4, c = 1), T = 10,
 * double precision, for m = 2..6:
 *   man2020:alg=LGG,m=M   man2020:alg=LLG,m=M   man2020:alg=LLL,m=M
 *   galerkin:s=M,w=M-1,quadL=lobatto,r=M,project=p
 * the last being the constrained M-stage Lobatto IIIA-IIIB method as the
 * special case of the Galerkin integrators (wenger2017 §3.5; checked
 * against a direct implementation in tests/test_galerkin.c). It is the
 * momentum form of wenger2017: its unknowns are the M interior and end
 * control points of q and the M-1 multipliers of the interval (the
 * endpoint multiplier is carried over), M d + (M-1) c, not the paper's
 * 2Md + (M-2) c of the stage form with both Q_i and P_i as unknowns. With
 * the triple pendulum's configuration-dependent mass matrix it is not
 * identical to LLL (the two differ at the size of their truncation error,
 * tests/test_man2020.c), so the comparison is between different methods.
 *
 * Each configuration runs a ladder of h = T/N. Accuracy: the global q error
 * max_k |q_k - q_ref(t_k)|_inf against the library reference (rk8pd on the
 * index-1 form, vi_reference_d, estimated 4e-14) and the max relative
 * energy error max_k |H_k - H_0| / |H_0| (man2020 (46)-(47), the paper's
 * own measure, needing no reference). Cost: CPU time of the pinned thread,
 * minimum over repetitions, stepper init and steps, no error evaluation
 * (the runner's timing, timing.h); unknowns per step as the stepper
 * reports them (vi_stepper_unknowns); Newton iterations per step.
 *
 * The claims, each with a verdict from the measured values: (1) LGG is
 * more accurate than LLL at equal m and h; (2) LGG is cheaper per step
 * than the Lobatto IIIA-IIIB method at equal m, recorded as two claims:
 * fewer unknowns, and less time per step; (3) LGG reaches a given
 * error in less time (costs interpolated along the work-precision curves
 * at fixed error levels, vi_sweep_interp).
 *
 * The full study takes about 10 s here, so it is not resumable: it
 * reruns from scratch (the reference is cached). */
#include "specs.h"
#include "../sweep.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The methods compared at equal m: the curve's group. */
enum { ME_LGG = 0, ME_LLG = 1, ME_LLL = 2, ME_LOB = 3, ME_NMETH = 4 };
static const char *const me_names[ME_NMETH] = {"LGG", "LLG", "LLL", "Lobatto IIIA-IIIB"};
/* Short names for the curve labels (CSV, plots). */
static const char *const me_short[ME_NMETH] = {"LGG", "LLG", "LLL", "LobIIIA-IIIB"};

#define ME_MMIN 2
#define ME_MMAX 6
#define ME_MMAX_QUICK 4
/* The fixed step of the per-step table: h = T / 200 = 0.05 (n_keep: every
 * curve runs at least this far, so every configuration has its row). */
#define ME_NTAB 200L
/* A time ratio within 10% counts as a tie: the spread of the minimum
 * over repetitions on this shared 2-core machine. */
#define ME_TIE 0.10

/* Step counts N (h = T/N): ratios 1.2-2, each a divisor or a multiple of
 * the reference grid 9600, so the q error is measured at every node
 * (N <= 9600) or at every reference node (N > 9600). The coarse end serves
 * m = 5, 6, whose errors fall by 10^2 per halving of h; coarser than
 * h = 0.5 the runs of every m are outside the asymptotic range (more
 * Newton iterations, erratic errors). */
static const long me_ladder[] = {20,  25,  30,  40,  50,   60,   80,   100,  120,
                                 160, 200, 240, 320, 400,  480,  640,  800,  960,
                                 1200, 1600, 2400, 3200, 4800, 9600, 19200};
static const long me_quick_ladder[] = {50, 100, 200, 400};

/* The error levels of the equal-error comparisons: q error and relative
 * energy error. */
#define ME_NLEV 3
static const double me_qlev[ME_NLEV] = {1e-6, 1e-8, 1e-10};
static const double me_elev[ME_NLEV] = {1e-7, 1e-9, 1e-11};

/* The two accuracy measures, as indices x of the claim arrays. */
enum { ME_Q = 0, ME_E = 1 };
static const int me_meas[2] = {VI_SW_Q, VI_SW_ENERGY};

static double me_level(int x, int l) {
  return x == ME_Q ? me_qlev[l] : me_elev[l];
}

static json_t *me_num(double v) {
  return isfinite(v) ? json_real(v) : json_null();
}

/* The unknowns per step by formula. The paper's count (man2020 §4.2):
 * md + mc for its integrators, 2md + (m-2)c for the stage form of the
 * Lobatto IIIA-IIIB PRK. Ours: m(d + c), and md + (m-1)c for the momentum
 * form of wenger2017. Formulas in d and c (4 and 1 here), not
 * measurements: the measured count is the curve's `unknowns`. */
static int me_paper(int meth, int m, int d, int c) {
  return meth == ME_LOB ? 2 * m * d + (m - 2) * c : m * d + m * c;
}

static int me_formula(int meth, int m, int d, int c) {
  return meth == ME_LOB ? m * d + (m - 1) * c : m * d + m * c;
}

/* ---- the curves ------------------------------------------------------------- */

static int me_curves(vi_sweep *S) {
  char label[64], spec[160];
  for (int m = ME_MMIN; m <= (S->quick ? ME_MMAX_QUICK : ME_MMAX); m++) {
    for (int meth = 0; meth < ME_NMETH; meth++) {
      snprintf(label, sizeof label, "%s m=%d", me_short[meth], m);
      if (meth == ME_LOB) {
        snprintf(spec, sizeof spec, "galerkin:s=%d,w=%d,quadL=lobatto,r=%d,project=p", m,
                 m - 1, m);
      } else {
        snprintf(spec, sizeof spec, "man2020:alg=%s,m=%d", me_names[meth], m);
      }
      if (vi_sweep_add(S, VI_SWEEP_STEPPER, meth, m, label, spec) < 0) {
        return -1;
      }
    }
  }
  return 0;
}

/* ---- claim 1: accuracy at equal m and h --------------------------------------- */

/* Errors this small are at the round-off / reference floor (the double
 * reference is estimated at 4e-14; T = 10 accumulates round-off of about
 * 1e-13 in q): comparisons of accuracy leave them out. */
static double me_floor(int x) {
  return x == ME_E ? 1e-13 : 1e-12;
}

/* LGG against LLL for one m and one measure, at every h where both ran and
 * both errors are above the floor. ratio: geometric mean of err(LLL) /
 * err(LGG) (> 1: LGG more accurate); at_tab the ratio at h = 0.05 (NAN at
 * the floor). */
typedef struct me_acc {
  int n, wins;
  double ratio, at_tab, rmin, rmax;
  const char *verdict;
} me_acc;

static void me_accuracy(const vi_sweep *S, int m, int x, me_acc *a) {
  memset(a, 0, sizeof *a);
  a->ratio = a->at_tab = NAN;
  a->rmin = INFINITY;
  a->rmax = 0;
  const int cg = vi_sweep_find(S, ME_LGG, m), cl = vi_sweep_find(S, ME_LLL, m);
  const double fl = me_floor(x);
  double lsum = 0;
  for (int i = 0; cg >= 0 && cl >= 0 && i < S->npts; i++) {
    const vi_sweep_point *P = &S->pts[i];
    if (P->curve != cg || !P->ok) {
      continue;
    }
    const vi_sweep_point *Q = vi_sweep_at(S, cl, P->N);
    const double eg = vi_sweep_err(P, me_meas[x]);
    if (!Q || !(eg > fl) || !(vi_sweep_err(Q, me_meas[x]) > fl)) {
      continue;
    }
    const double r = vi_sweep_err(Q, me_meas[x]) / eg;
    a->n++;
    a->wins += r > 1;
    lsum += log(r);
    a->rmin = r < a->rmin ? r : a->rmin;
    a->rmax = r > a->rmax ? r : a->rmax;
    if (P->N == ME_NTAB) {
      a->at_tab = r;
    }
  }
  if (a->n > 0) {
    a->ratio = exp(lsum / a->n);
  }
  /* "mostly": all but a quarter of the step sizes, typically the coarsest,
   * outside the asymptotic range. */
  a->verdict = a->n == 0                 ? "n/a"
               : a->wins == a->n         ? "holds"
               : a->wins == 0            ? "does not hold"
               : 4 * a->wins >= 3 * a->n ? "mostly holds"
               : 4 * a->wins <= a->n     ? "mostly does not hold"
                                         : "mixed";
}

/* ---- verdicts ----------------------------------------------------------------- */

/* A time ratio t(LGG) / t(other) as a verdict of "LGG is cheaper". */
static const char *me_time_verdict(double r) {
  return !isfinite(r)       ? "n/a"
         : r < 1 - ME_TIE   ? "holds"
         : r > 1 + ME_TIE   ? "does not hold"
                            : "tie (within 10%)";
}

/* The distinct verdicts of v[0..n-1] in order of first appearance. */
static int me_distinct(const char *const *v, int n, const char **out) {
  int k = 0;
  for (int i = 0; i < n; i++) {
    int seen = 0;
    for (int j = 0; j < k; j++) {
      seen |= strcmp(out[j], v[i]) == 0;
    }
    if (!seen) {
      out[k++] = v[i];
    }
  }
  return k;
}

/* Summary of per-m verdicts: "holds (m = 2..6)" when all agree, else
 * grouped by verdict, e.g. "does not hold at m = 2, 3; tie (within 10%) at
 * m = 5". */
static void me_summary_m(const char *const *v, const int *ms, int n, char *buf, size_t len) {
  const char *d[ME_MMAX + 1];
  const int nd = me_distinct(v, n, d);
  size_t off = 0;
  buf[0] = 0;
  for (int k = 0; k < nd && off < len; k++) {
    if (nd == 1) {
      snprintf(buf, len, "%s (m = %d..%d)", d[0], ms[0], ms[n - 1]);
      return;
    }
    off += (size_t)snprintf(buf + off, len - off, "%s%s at m =", k ? "; " : "", d[k]);
    int first = 1;
    for (int i = 0; i < n && off < len; i++) {
      if (strcmp(v[i], d[k]) == 0) {
        off += (size_t)snprintf(buf + off, len - off, "%s %d", first ? "" : ",", ms[i]);
        first = 0;
      }
    }
  }
}

/* Summary of verdicts of (m, level) cells: counts per verdict. */
static void me_summary_cells(const char *const *v, int n, char *buf, size_t len) {
  const char *d[8];
  const int nd = me_distinct(v, n, d);
  int defined = 0;
  for (int i = 0; i < n; i++) {
    defined += strcmp(v[i], "n/a") != 0;
  }
  size_t off = 0;
  buf[0] = 0;
  for (int k = 0, first = 1; k < nd && off < len; k++) {
    if (strcmp(d[k], "n/a") == 0) {
      continue;
    }
    int cnt = 0;
    for (int i = 0; i < n; i++) {
      cnt += strcmp(v[i], d[k]) == 0;
    }
    off += (size_t)snprintf(buf + off, len - off, "%s%s in %d of %d", first ? "" : ", ",
                            d[k], cnt, defined);
    first = 0;
  }
  if (off < len) {
    snprintf(buf + off, len - off, "%s", defined ? " (m, level) pairs" : "n/a");
  }
}

/* Whether every defined verdict of v[0..n-1] is one of the accepted ones
 * (and one at least is defined): the boolean of a claim. */
static int me_all(const char *const *v, int n, const char *ok1, const char *ok2) {
  int defined = 0;
  for (int i = 0; i < n; i++) {
    if (strcmp(v[i], "n/a") == 0) {
      continue;
    }
    defined++;
    if (strcmp(v[i], ok1) != 0 && (!ok2 || strcmp(v[i], ok2) != 0)) {
      return 0;
    }
  }
  return defined > 0;
}

/* ---- the claim values ---------------------------------------------------------- */

typedef struct me_claims {
  int ms[ME_MMAX + 1], nm;
  me_acc acc[ME_MMAX + 1][2];    /* claim 1, per m and measure */
  double tstep[ME_MMAX + 1];     /* claim 2: t/step(LGG) / t/step(Lob) at h = 0.05 */
  double tstep_lll[ME_MMAX + 1]; /* t/step(LGG) / t/step(LLL) */
  const char *v2[ME_MMAX + 1];
  int fewer_unknowns; /* LGG has fewer measured unknowns than Lob at every m */
  double teq[ME_MMAX + 1][2][ME_NLEV]; /* claim 3: t(LGG) / t(Lob) at equal error */
  const char *v3[ME_MMAX + 1][2][ME_NLEV];
  int bestm[ME_NMETH][2][ME_NLEV]; /* cheapest m per method at each level */
  double bestt[ME_NMETH][2][ME_NLEV];
  double best_ratio[2][ME_NLEV]; /* best LGG / best Lobatto IIIA-IIIB */
  char overall_2[160], overall_q1[160], overall_e1[160], overall_3q[160], overall_3e[160];
  int holds1, holds2, holds2t, holds3; /* 2: unknowns and time; 2t: time alone */
} me_claims;

/* Time per step of a run (the first step's start-up spread over N). */
static double me_tstep(const vi_sweep_point *P) {
  return P ? vi_sweep_cost(P, VI_COST_CPU) / (double)P->N : NAN;
}

static double me_time_at(const vi_sweep *S, int meth, int m, int x, double E) {
  char why[160];
  return vi_sweep_interp(S, vi_sweep_find(S, meth, m), me_meas[x], VI_COST_CPU, E, NULL, why,
                         sizeof why);
}

static void me_judge(const vi_sweep *S, me_claims *C) {
  memset(C, 0, sizeof *C);
  for (int m = ME_MMIN; m <= ME_MMAX; m++) {
    if (vi_sweep_find(S, ME_LGG, m) >= 0) {
      C->ms[C->nm++] = m;
    }
  }
  const char *v1q[ME_MMAX + 1], *v1e[ME_MMAX + 1], *v2[ME_MMAX + 1];
  const char *v3q[(ME_MMAX + 1) * ME_NLEV], *v3e[(ME_MMAX + 1) * ME_NLEV];
  int n3q = 0, n3e = 0;
  C->fewer_unknowns = C->nm > 0;
  for (int k = 0; k < C->nm; k++) {
    const int m = C->ms[k];
    const int cg = vi_sweep_find(S, ME_LGG, m), cb = vi_sweep_find(S, ME_LOB, m);
    me_accuracy(S, m, ME_Q, &C->acc[m][ME_Q]);
    me_accuracy(S, m, ME_E, &C->acc[m][ME_E]);
    v1q[k] = C->acc[m][ME_Q].verdict;
    v1e[k] = C->acc[m][ME_E].verdict;
    const vi_sweep_point *g = vi_sweep_at(S, cg, ME_NTAB);
    const vi_sweep_point *b = vi_sweep_at(S, cb, ME_NTAB);
    const vi_sweep_point *l = vi_sweep_at(S, vi_sweep_find(S, ME_LLL, m), ME_NTAB);
    C->tstep[m] = me_tstep(g) / me_tstep(b);
    C->tstep_lll[m] = me_tstep(g) / me_tstep(l);
    C->v2[m] = v2[k] = me_time_verdict(C->tstep[m]);
    C->fewer_unknowns &= cb >= 0 && S->curves[cg].unknowns < S->curves[cb].unknowns;
    for (int x = ME_Q; x <= ME_E; x++) {
      for (int l2 = 0; l2 < ME_NLEV; l2++) {
        const double E = me_level(x, l2);
        const double r = me_time_at(S, ME_LGG, m, x, E) / me_time_at(S, ME_LOB, m, x, E);
        C->teq[m][x][l2] = r;
        C->v3[m][x][l2] = me_time_verdict(r);
        if (x == ME_Q) {
          v3q[n3q++] = C->v3[m][x][l2];
        } else {
          v3e[n3e++] = C->v3[m][x][l2];
        }
      }
    }
  }
  /* The cheapest m of each method: the cheapest curve of its group. */
  for (int x = ME_Q; x <= ME_E; x++) {
    for (int l2 = 0; l2 < ME_NLEV; l2++) {
      for (int meth = 0; meth < ME_NMETH; meth++) {
        char why[200];
        const int c = vi_sweep_best(S, meth, me_meas[x], VI_COST_CPU, me_level(x, l2),
                                    &C->bestt[meth][x][l2], NULL, why, sizeof why);
        C->bestm[meth][x][l2] = c >= 0 ? S->curves[c].m : -1;
      }
      C->best_ratio[x][l2] = C->bestt[ME_LGG][x][l2] / C->bestt[ME_LOB][x][l2];
    }
  }
  me_summary_m(v1q, C->ms, C->nm, C->overall_q1, sizeof C->overall_q1);
  me_summary_m(v1e, C->ms, C->nm, C->overall_e1, sizeof C->overall_e1);
  me_summary_m(v2, C->ms, C->nm, C->overall_2, sizeof C->overall_2);
  me_summary_cells(v3q, n3q, C->overall_3q, sizeof C->overall_3q);
  me_summary_cells(v3e, n3e, C->overall_3e, sizeof C->overall_3e);
  /* The booleans of the claims record. (1): both measures hold, or hold
   * but at a quarter of the step sizes at most (the coarsest, outside the
   * asymptotic range), at every m. (2): the paper's statement is about the
   * count of unknowns and the cost it implies: fewer measured unknowns and
   * a shorter time per step (a tie is not cheaper) at every m; the claims
   * record lists the two apart (holds2t: the time alone). (3): LGG
   * faster beyond the tie at every (m, level) pair the curves bracket. */
  C->holds1 = me_all(v1q, C->nm, "holds", "mostly holds") &&
              me_all(v1e, C->nm, "holds", "mostly holds");
  C->holds2t = me_all(v2, C->nm, "holds", NULL);
  C->holds2 = C->fewer_unknowns && C->holds2t;
  C->holds3 = me_all(v3q, n3q, "holds", NULL) && me_all(v3e, n3e, "holds", NULL);
}

/* ---- JSON: the per-m details of the claims --------------------------------------- */

/* Claim 1 per m and measure: the ratios err(LLL) / err(LGG). */
static json_t *me_claim1_per_m(const me_claims *C) {
  json_t *per = json_array();
  for (int k = 0; k < C->nm; k++) {
    for (int x = ME_Q; x <= ME_E; x++) {
      const me_acc *a = &C->acc[C->ms[k]][x];
      json_array_append_new(
          per, json_pack("{s:i, s:s, s:i, s:i, s:o, s:o, s:o, s:o, s:s}", "m", C->ms[k],
                         "measure", x == ME_Q ? "q" : "energy", "compared_h", a->n,
                         "lgg_better", a->wins, "ratio_geomean", me_num(a->ratio),
                         "ratio_min", me_num(a->n ? a->rmin : NAN), "ratio_max",
                         me_num(a->n ? a->rmax : NAN), "ratio_h0.05", me_num(a->at_tab),
                         "verdict", a->verdict));
    }
  }
  return per;
}

/* Claim 2 per m: the unknowns (measured, our formula, the paper's) and the
 * time per step. */
static json_t *me_claim2_per_m(const vi_sweep *S, const me_claims *C) {
  const int d = S->n, c = S->m;
  json_t *per = json_array();
  for (int k = 0; k < C->nm; k++) {
    const int m = C->ms[k];
    json_array_append_new(
        per,
        json_pack("{s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:o, s:o, s:s}", "m", m,
                  "unknowns_lgg", S->curves[vi_sweep_find(S, ME_LGG, m)].unknowns,
                  "unknowns_lobatto", S->curves[vi_sweep_find(S, ME_LOB, m)].unknowns,
                  "formula_lgg", me_formula(ME_LGG, m, d, c), "formula_lobatto",
                  me_formula(ME_LOB, m, d, c), "paper_lgg", me_paper(ME_LGG, m, d, c),
                  "paper_prk", me_paper(ME_LOB, m, d, c), "time_per_step_ratio",
                  me_num(C->tstep[m]), "time_per_step_ratio_vs_lll",
                  me_num(C->tstep_lll[m]), "verdict", C->v2[m]));
  }
  return per;
}

/* Claim 3 per m, measure and level; and the cheapest m of each method. */
static json_t *me_claim3_per_m(const me_claims *C) {
  json_t *per = json_array();
  for (int k = 0; k < C->nm; k++) {
    const int m = C->ms[k];
    for (int x = ME_Q; x <= ME_E; x++) {
      for (int l = 0; l < ME_NLEV; l++) {
        json_array_append_new(per, json_pack("{s:i, s:s, s:f, s:o, s:s}", "m", m,
                                             "measure", x == ME_Q ? "q" : "energy",
                                             "level", me_level(x, l), "time_ratio",
                                             me_num(C->teq[m][x][l]), "verdict",
                                             C->v3[m][x][l]));
      }
    }
  }
  return per;
}

static json_t *me_claim3_best(const me_claims *C) {
  json_t *best = json_array();
  for (int x = ME_Q; x <= ME_E; x++) {
    for (int l = 0; l < ME_NLEV; l++) {
      json_t *r = json_pack("{s:s, s:f}", "measure", x == ME_Q ? "q" : "energy", "level",
                            me_level(x, l));
      for (int meth = 0; meth < ME_NMETH; meth++) {
        const int bm = C->bestm[meth][x][l];
        json_object_set_new(r, me_names[meth],
                            json_pack("{s:o, s:o}", "m",
                                      bm >= 0 ? json_integer(bm) : json_null(), "seconds",
                                      me_num(C->bestt[meth][x][l])));
      }
      json_object_set_new(r, "time_ratio_lgg_lobatto", me_num(C->best_ratio[x][l]));
      json_object_set_new(r, "verdict", json_string(me_time_verdict(C->best_ratio[x][l])));
      json_array_append_new(best, r);
    }
  }
  return best;
}

/* The per-m details of the three claims. */
static json_t *me_claims_json(const vi_sweep *S, const me_claims *C) {
  json_t *c1 = json_pack(
      "{s:s, s:s, s:s, s:s, s:s, s:b, s:o}", "claim",
      "LGG more accurate than LLL at equal m and h", "source",
      "man2020 §4.2 (Fig. 3, energy error), §4.3", "rule",
      "at every h where both ran and both errors are above the floor (q 1e-12, energy 1e-13): "
      "err(LGG) < err(LLL); ratio = err(LLL) / err(LGG), > 1 means LGG more accurate; holds "
      "when both measures hold or mostly hold at every m",
      "verdict_q", C->overall_q1, "verdict_energy", C->overall_e1, "holds", C->holds1,
      "per_m", me_claim1_per_m(C));
  json_t *c2 = json_pack(
      "{s:s, s:s, s:s, s:s, s:s, s:b, s:o}", "claim",
      "LGG cheaper per step than the Lobatto IIIA-IIIB at equal m", "source",
      "man2020 §4.2: md + mc against 2md + (m-2)c", "rule",
      "time per step at h = 0.05: ratio t(LGG) / t(Lobatto IIIA-IIIB) < 0.9 holds, > 1.1 does "
      "not hold, else a tie; unknowns as measured; holds when LGG has fewer unknowns and the "
      "time per step holds at every m",
      "verdict_time", C->overall_2, "verdict_unknowns",
      C->fewer_unknowns
          ? "holds: LGG has fewer unknowns per step at every m"
          : "does not hold: measured m(d + c) for LGG against md + (m-1)c for our "
            "Lobatto IIIA-IIIB (one unknown more); by the paper's count "
            "2md + (m-2)c it would hold",
      "holds", C->holds2, "per_m", me_claim2_per_m(S, C));
  json_t *c3 = json_pack(
      "{s:s, s:s, s:s, s:s, s:s, s:b, s:o, s:o}", "claim",
      "LGG reaches a given error in less time", "source",
      "man2020 §4.2: higher precision while taking less computational time", "rule",
      "time interpolated (log-log) along each work-precision curve at the error level; ratio "
      "t(LGG) / t(Lobatto IIIA-IIIB) at equal m, < 0.9 holds, > 1.1 does not hold, else a tie; "
      "also the cheapest m of each; holds when it holds at every (m, level) pair of both "
      "measures that the curves bracket",
      "verdict_q", C->overall_3q, "verdict_energy", C->overall_3e, "holds", C->holds3,
      "per_m", me_claim3_per_m(C), "best_over_m", me_claim3_best(C));
  return json_pack("[o, o, o]", c1, c2, c3);
}

/* ---- Markdown ------------------------------------------------------------------ */

/* An error cell: the value, or "floor" below the comparison floor. */
static void me_md_err(FILE *f, double e, int x) {
  if (!isfinite(e)) {
    fprintf(f, " - |");
  } else if (e < me_floor(x)) {
    fprintf(f, " %.1e (floor) |", e);
  } else {
    fprintf(f, " %.2e |", e);
  }
}

static void me_md_ratio(FILE *f, double r) {
  fprintf(f, isfinite(r) ? " %.2f |" : " - |", r);
}

/* The header of a table: nfirst columns (first), then one per (measure,
 * level). */
static void me_md_levels(FILE *f, const char *first, int nfirst, const char *unit) {
  fprintf(f, "%s", first);
  for (int x = ME_Q; x <= ME_E; x++) {
    for (int l = 0; l < ME_NLEV; l++) {
      fprintf(f, " %s %.0e%s |", x == ME_Q ? "q" : "energy", me_level(x, l), unit);
    }
  }
  fprintf(f, "\n|");
  for (int k = 0; k < nfirst + 2 * ME_NLEV; k++) {
    fprintf(f, "---|");
  }
  fprintf(f, "\n");
}

static void me_md(const vi_sweep *S, const me_claims *C, FILE *f) {
  const int d = S->n, c = S->m;
  fprintf(
      f,
      "man2020 §4.2: with m points per step the man2020 integrators solve md + mc "
      "equations per step, the constrained Lobatto IIIA-IIIB partitioned Runge-Kutta "
      "method 2md + (m-2)c, and \"algorithms LLG and LGG have higher precision while "
      "taking less computational time\"; §4.3 reconfirms §4.2 on the triple pendulum. "
      "Measured here on the triple pendulum (54)-(56) (`%s`, the paper's parameters "
      "m1 = m2 = m3 = L = g = 1, d = %d, c = %d), T = %g, double precision, built-in "
      "Newton at its default tolerance (100 eps), m = %d..%d.\n\n",
      S->spec->system, d, c, S->T, C->ms[0], C->ms[C->nm - 1]);
  fprintf(f,
          "- Methods at equal m: `man2020:alg=LGG,m=M`, `LLG`, `LLL`, and the constrained "
          "M-stage Lobatto IIIA-IIIB method as the special case "
          "`galerkin:s=M,w=M-1,quadL=lobatto,r=M,project=p` of the Galerkin integrators "
          "(wenger2017 §3.5, checked against a direct implementation by "
          "`tests/test_galerkin.c`). With the triple pendulum's q-dependent mass matrix "
          "it is not identical to LLL: the two differ at the size of their truncation "
          "errors.\n");
  fprintf(f,
          "- **Unknowns.** Our Lobatto IIIA-IIIB is the momentum form of wenger2017: it "
          "solves for the M interior and end control points of q and M-1 multipliers "
          "(the endpoint multiplier carries over), **m·d + (m-1)·c** unknowns, not the "
          "paper's 2md + (m-2)c of the stage form with Q_i and P_i both unknown. man2020 "
          "solves m·d + m·c. So against this implementation LGG has one unknown *more* "
          "per step, not about md fewer: the basis of the paper's comparison does not "
          "apply here; the table reports what the steppers report "
          "(`vi_stepper_unknowns`) beside both formulas.\n");
  fprintf(f,
          "- Accuracy: global q error max_k |q_k - q_ref(t_k)|_inf against the reference "
          "above (grid h = T/%ld), and the max relative energy error max_k |H_k - H_0| / "
          "|H_0| (man2020 (46)-(47), the paper's measure). Errors below 1e-12 (q) or "
          "1e-13 (energy) are at the round-off / reference floor and left out of the "
          "accuracy comparisons.\n",
          S->spec->nref);
  if (S->tg.core >= 0) {
    fprintf(f, "- Time: CPU time of the thread pinned to core %d", S->tg.core);
  } else {
    fprintf(f, "- Time: CPU time of the (unpinned) timing thread");
  }
  fprintf(f,
          ", minimum of %d-%d repetitions (1 with --quick) in passes over the study; "
          "stepper init and steps, error evaluation excluded. A time ratio within 10%% is "
          "called a tie: timings on this shared machine scatter by about that much.\n\n",
          S->spec->reps.slow, S->spec->reps.fast);

  fprintf(f, "![time vs q error and vs energy error](%s.svg)\n\n", S->id);

  fprintf(f, "## Per step at h = %g (N = %ld)\n\n", S->T / (double)ME_NTAB, ME_NTAB);
  fprintf(f, "| method | m | unknowns (measured) | paper's count | our formula | Newton "
             "it./step | time/step [µs] | q error | energy error |\n"
             "|---|---|---|---|---|---|---|---|---|\n");
  for (int k = 0; k < C->nm; k++) {
    const int m = C->ms[k];
    for (int meth = 0; meth < ME_NMETH; meth++) {
      const int cv = vi_sweep_find(S, meth, m);
      const vi_sweep_point *P = vi_sweep_at(S, cv, ME_NTAB);
      fprintf(f, "| %s | %d | %d | %d (%s) | %d | ", me_names[meth], m, S->curves[cv].unknowns,
              me_paper(meth, m, d, c), meth == ME_LOB ? "2md + (m-2)c" : "md + mc",
              me_formula(meth, m, d, c));
      if (P) {
        fprintf(f, "%.2f | %.1f |", P->steps ? (double)P->newton / (double)P->steps : NAN,
                1e6 * me_tstep(P));
        me_md_err(f, vi_sweep_err(P, VI_SW_Q), ME_Q);
        me_md_err(f, vi_sweep_err(P, VI_SW_ENERGY), ME_E);
        fputc('\n', f);
      } else {
        fprintf(f, "- | - | - | - |\n");
      }
    }
  }
  fprintf(f, "\nTime per step includes the first step's start-up (Taylor guess, for "
             "galerkin the look-ahead interval) spread over the N steps.\n\n");

  fprintf(f, "## Time to reach an error (interpolated along each curve)\n\n");
  me_md_levels(f, "| method | m |", 2, " [ms]");
  for (int k = 0; k < C->nm; k++) {
    for (int meth = 0; meth < ME_NMETH; meth++) {
      fprintf(f, "| %s | %d |", me_names[meth], C->ms[k]);
      for (int x = ME_Q; x <= ME_E; x++) {
        for (int l = 0; l < ME_NLEV; l++) {
          const double t = me_time_at(S, meth, C->ms[k], x, me_level(x, l));
          fprintf(f, isfinite(t) ? " %.3g |" : " - |", 1e3 * t);
        }
      }
      fprintf(f, "\n");
    }
  }
  fprintf(f, "\n\"-\": the curve does not bracket the level (it stops above it, or is "
             "below it already at its coarsest h).\n\n");

  fprintf(f, "## The claims in detail\n\n");
  fprintf(f, "### 1. \"LGG is more accurate than LLL at equal m and h\": q error **%s**, "
             "energy error **%s**\n\n",
          C->overall_q1, C->overall_e1);
  fprintf(f, "Ratio err(LLL) / err(LGG) (> 1: LGG more accurate) over every h where both "
             "errors are above the floor.\n\n"
             "| m | measure | h compared | LGG better at | geometric mean | range | at h = "
             "0.05 | verdict |\n|---|---|---|---|---|---|---|---|\n");
  for (int k = 0; k < C->nm; k++) {
    for (int x = ME_Q; x <= ME_E; x++) {
      const me_acc *a = &C->acc[C->ms[k]][x];
      fprintf(f, "| %d | %s | %d | %d |", C->ms[k], x == ME_Q ? "q" : "energy", a->n,
              a->wins);
      me_md_ratio(f, a->ratio);
      if (a->n) {
        fprintf(f, " %.2f-%.2f |", a->rmin, a->rmax);
      } else {
        fprintf(f, " - |");
      }
      me_md_ratio(f, a->at_tab);
      fprintf(f, " %s |\n", a->verdict);
    }
  }
  fprintf(f, "\n### 2. \"LGG is cheaper per step than the Lobatto IIIA-IIIB at equal m\": "
             "unknowns **%s** (measured), time per step **%s**\n\n",
          C->fewer_unknowns ? "holds" : "does not hold", C->overall_2);
  fprintf(f, "| m | unknowns LGG | unknowns Lobatto IIIA-IIIB (ours) | paper: man2020 / PRK | "
             "t/step LGG / Lobatto | t/step LGG / LLL | verdict (time) |\n"
             "|---|---|---|---|---|---|---|\n");
  for (int k = 0; k < C->nm; k++) {
    const int m = C->ms[k];
    fprintf(f, "| %d | %d | %d | %d / %d |", m, S->curves[vi_sweep_find(S, ME_LGG, m)].unknowns,
            S->curves[vi_sweep_find(S, ME_LOB, m)].unknowns, me_paper(ME_LGG, m, d, c),
            me_paper(ME_LOB, m, d, c));
    me_md_ratio(f, C->tstep[m]);
    me_md_ratio(f, C->tstep_lll[m]);
    fprintf(f, " %s |\n", C->v2[m]);
  }
  fprintf(f, "\n### 3. \"LGG reaches a given error in less time\": q error **%s**, energy "
             "error **%s** (at equal m)\n\n",
          C->overall_3q, C->overall_3e);
  fprintf(f, "Ratio t(LGG) / t(Lobatto IIIA-IIIB) at equal m and equal error (< 1: LGG "
             "faster).\n\n");
  me_md_levels(f, "| m |", 1, "");
  for (int k = 0; k < C->nm; k++) {
    fprintf(f, "| %d |", C->ms[k]);
    for (int x = ME_Q; x <= ME_E; x++) {
      for (int l = 0; l < ME_NLEV; l++) {
        const double r = C->teq[C->ms[k]][x][l];
        if (isfinite(r)) {
          fprintf(f, " %.2f (%s) |", r, C->v3[C->ms[k]][x][l]);
        } else {
          fprintf(f, " - |");
        }
      }
    }
    fprintf(f, "\n");
  }
  fprintf(f, "\nThe cheapest m of each method at each level (time in ms):\n\n| level |");
  for (int meth = 0; meth < ME_NMETH; meth++) {
    fprintf(f, " %s |", me_names[meth]);
  }
  fprintf(f, " LGG / Lobatto |\n|---|---|---|---|---|---|\n");
  for (int x = ME_Q; x <= ME_E; x++) {
    for (int l = 0; l < ME_NLEV; l++) {
      fprintf(f, "| %s %.0e |", x == ME_Q ? "q" : "energy", me_level(x, l));
      for (int meth = 0; meth < ME_NMETH; meth++) {
        if (C->bestm[meth][x][l] >= 0) {
          fprintf(f, " %.3g (m=%d) |", 1e3 * C->bestt[meth][x][l], C->bestm[meth][x][l]);
        } else {
          fprintf(f, " - |");
        }
      }
      me_md_ratio(f, C->best_ratio[x][l]);
      fprintf(f, "\n");
    }
  }
  fprintf(f, "\n");
}

/* ---- the plot ------------------------------------------------------------------ */

/* Colour by m, dash by method (solid LGG, ... , Lobatto IIIA-IIIB last). */
static int me_color(const vi_sweep *S, int c) {
  return S->curves[c].m - ME_MMIN;
}

static int me_dash(const vi_sweep *S, int c) {
  return S->curves[c].group;
}

/* ---- the report hook ------------------------------------------------------------- */

static int me_report(vi_sweep *S, vi_sweep_report *R, char *err, size_t errlen) {
  me_claims C;
  me_judge(S, &C);
  if (C.nm == 0) {
    vi_set_err(err, errlen, "no curves");
    return -1;
  }
  const int d = S->n, c = S->m;

  json_t *j = R->j;
  json_object_set_new(j, "d", json_integer(d));
  json_object_set_new(j, "c", json_integer(c));
  json_object_set_new(j, "precision", json_string("double"));
  json_object_set_new(j, "table_h", json_real(S->T / (double)ME_NTAB));
  json_t *gj = json_array();
  for (int meth = 0; meth < ME_NMETH; meth++) {
    json_array_append_new(gj, json_string(me_names[meth]));
  }
  json_object_set_new(j, "groups", gj);
  json_object_set_new(
      j, "unknowns_note",
      json_string("measured by vi_stepper_unknowns (configs[].unknowns). man2020: m d + m c "
                  "(the paper's md + mc). Lobatto IIIA-IIIB: "
                  "galerkin:s=m,w=m-1,quadL=lobatto,r=m,project=p, the momentum form of "
                  "wenger2017 with m d + (m-1) c unknowns, fewer than the paper's "
                  "2md + (m-2)c for the stage form: the paper's basis of comparison does not "
                  "apply to this implementation. The paper's counts are formulas in d and c "
                  "(claims_detail[1].per_m)"));
  json_object_set_new(j, "tie_rule", json_string("time ratios within 10% are ties"));
  json_object_set_new(j, "claims_detail", me_claims_json(S, &C));

  me_md(S, &C, R->md);

  /* The claims record: the text, what was measured, the boolean. */
  const int m0 = C.ms[0], m1 = C.ms[C.nm - 1];
  const int cg0 = vi_sweep_find(S, ME_LGG, m0), cb0 = vi_sweep_find(S, ME_LOB, m0);
  vi_claim_set(&R->claims[R->nclaims++], C.holds1,
               "LGG is more accurate than LLL at equal m and h (man2020 §4.2, Fig. 3; §4.3)",
               "q error: %s; energy error: %s (err(LLL) / err(LGG) above the floor)",
               C.overall_q1, C.overall_e1);
  /* The paper's per-step argument is a count of unknowns; the cost per
   * step is what the count stands for. Two claims, each measured. */
  vi_claim_set(&R->claims[R->nclaims++], C.fewer_unknowns,
               "LGG has fewer unknowns per step than the constrained Lobatto IIIA-IIIB method "
               "at equal m (man2020 §4.2: md + mc against 2md + (m-2)c)",
               "measured %d against %d at m = %d (%d against %d at m = %d); the paper's count "
               "%d against %d holds for the stage form, not for the momentum form run here",
               S->curves[cg0].unknowns, S->curves[cb0].unknowns, m0,
               S->curves[vi_sweep_find(S, ME_LGG, m1)].unknowns,
               S->curves[vi_sweep_find(S, ME_LOB, m1)].unknowns, m1, me_paper(ME_LGG, m0, d, c),
               me_paper(ME_LOB, m0, d, c));
  vi_claim_set(&R->claims[R->nclaims++], C.holds2t,
               "LGG takes less time per step than the constrained Lobatto IIIA-IIIB method at "
               "equal m (man2020 §4.2)",
               "time per step at h = %g, t(LGG) / t(Lobatto): %s", S->T / (double)ME_NTAB,
               C.overall_2);
  char best[300];
  size_t off = 0;
  for (int x = ME_Q; x <= ME_E && off < sizeof best; x++) {
    off += (size_t)snprintf(best + off, sizeof best - off, "%s", x ? "; energy" : " q");
    for (int l = 0; l < ME_NLEV && off < sizeof best; l++) {
      off += (size_t)snprintf(best + off, sizeof best - off,
                              isfinite(C.best_ratio[x][l]) ? " %.0e: %.2f" : " %.0e: -",
                              me_level(x, l), C.best_ratio[x][l]);
    }
  }
  vi_claim_set(&R->claims[R->nclaims++], C.holds3,
               "LGG reaches a given error in less time than the constrained Lobatto "
               "IIIA-IIIB method (man2020 §4.2: higher precision while taking less "
               "computational time)",
               "at equal m, q error: %s; energy error: %s. Cheapest m of each, t(LGG) / "
               "t(Lobatto):%s",
               C.overall_3q, C.overall_3e, best);
  R->claims_heading = "Claims of man2020 §4.2 and §4.3";
  R->claims_whose = "of the text";

  /* The figure: time against q error and against energy error. */
  char title[700];
  snprintf(title, sizeof title,
           "triple pendulum (man2020 (54)-(56)), T = %g: LGG, LLG, LLL vs constrained "
           "Lobatto IIIA-IIIB at equal m",
           S->T);
  vi_gp *g = vi_gp_new(title);
  vi_gp_note(g, S->tg.line);
  vi_sweep_plot_panel(S, g, "run time vs global q error", VI_SW_Q, VI_COST_CPU, me_color,
                      me_dash);
  vi_sweep_plot_panel(S, g, "run time vs max relative energy error (man2020 (46)-(47))",
                      VI_SW_ENERGY, VI_COST_CPU, me_color, me_dash);
  vi_sweep_report_plot(R, "", g, 1, 2, 1500, 800);

  fprintf(
      R->summary,
      "%s: triple pendulum, T = %g, m = %d..%d, %d runs. Claims: (1) LGG more accurate "
      "than LLL at equal m, h: q error %s, energy error %s; (2) LGG cheaper per step "
      "than the Lobatto IIIA-IIIB: unknowns %s (%d against %d at m = %d), time per "
      "step %s; (3) LGG reaches an error in less time: q %s, energy %s.",
      S->id, S->T, m0, m1, S->npts, C.overall_q1, C.overall_e1,
      C.fewer_unknowns ? "holds" : "does NOT hold", S->curves[cg0].unknowns,
      S->curves[cb0].unknowns, m0, C.overall_2, C.overall_3q, C.overall_3e);
  return 0;
}

const vi_sweep_spec vi_man2020_eff_sweep = {
    .system = "triple-pendulum",
    .T = 10.0,
    /* Reference grid h = T / 9600 (every N of the ladders divides it or is
     * a multiple of it); the double reference (estimated 4e-14) is well
     * below the floor of the comparisons (1e-12 in q), full and quick. */
    .nref = 9600,
    .quad_reference = 0,
    .ladder = me_ladder,
    .nladder = (int)(sizeof me_ladder / sizeof me_ladder[0]),
    .quick_ladder = me_quick_ladder,
    .nquick = (int)(sizeof me_quick_ladder / sizeof me_quick_ladder[0]),
    /* Always as far as the table's h = 0.05, so that every configuration
     * has its row; then until the q error is below 1e-12, stalls at the
     * round-off floor (no better than half the best below 1e-10), or a run
     * is slower than 0.15 s (full runs). */
    .n_keep = ME_NTAB,
    /* Newton may fail at the coarsest steps: go on until a first success,
     * give up after three failures in a row after one. */
    .n_first = 0,
    .max_fails = 3,
    .stop_err = 1e-12,
    .stop_err_quick = 1e-12,
    .plateau_below = 1e-10,
    .plateau_ratio = 0.5,
    .cap_seconds = 0.15,
    /* Repetitions by the run's time: 5, 7 below 50 ms, 11 below 5 ms; more
     * where they are cheap make the minimum robust on a shared machine. */
    .reps = {11, 7, 5},
    .curves = me_curves,
    .report = me_report,
};
