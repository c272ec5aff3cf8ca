/* man2020_eff.c: `vistudy reproduce man2020-efficiency`, the efficiency
 * claim of man2020 §4.2 measured (issue 4, item 6).
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
 * minimum over repetitions (as workprec.c), stepper init and steps, no
 * error evaluation; unknowns per step as the stepper reports them
 * (vi_stepper_unknowns); Newton iterations per step.
 *
 * The claims, each with a verdict from the measured values: (1) LGG is
 * more accurate than LLL at equal m and h; (2) LGG is cheaper per step
 * than the Lobatto IIIA-IIIB method at equal m; (3) LGG reaches a given
 * error in less time (costs interpolated along the work-precision curves
 * at fixed error levels, as workprec.c does for its speedups).
 *
 * The full study takes about 10 s here, so it is not resumable: it
 * reruns from scratch (the reference is cached). */
#include "machine.h"
#include "plot.h"
#include "report.h"
#include "reproduce.h"
#include "study.h"
#include "vistudy.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define ME_SYSTEM "triple-pendulum"
#define ME_T 10.0
/* Reference grid h = T / 9600: every step count of the ladder below
 * divides it or is a multiple of it, so the q error is measured at every
 * node (N <= ME_NREF) or at every reference node (N > ME_NREF). */
#define ME_NREF 9600L
/* The fixed step of the per-step table: h = T / 200 = 0.05. */
#define ME_NTAB 200L
#define ME_MMIN 2
#define ME_MMAX 6
/* A time ratio within 10% counts as a tie: the spread of the minimum
 * over repetitions on this shared 2-core machine. */
#define ME_TIE 0.10

/* Step counts N (h = T/N): ratios 1.2-2, each a divisor or a multiple of
 * ME_NREF. The coarse end serves m = 5, 6, whose errors fall by 10^2 per
 * halving of h; coarser than h = 0.5 the runs of every m are outside the
 * asymptotic range (more Newton iterations, erratic errors). */
static const long me_ladder[] = {20,  25,  30,  40,  50,   60,   80,   100,  120,
                                 160, 200, 240, 320, 400,  480,  640,  800,  960,
                                 1200, 1600, 2400, 3200, 4800, 9600, 19200};
#define ME_NLADDER (int)(sizeof me_ladder / sizeof me_ladder[0])
static const long me_quick_ladder[] = {50, 100, 200, 400};
#define ME_NQUICK (int)(sizeof me_quick_ladder / sizeof me_quick_ladder[0])
#define ME_NMAX 19200L

/* The error levels of the equal-error comparisons: q error and relative
 * energy error. */
#define ME_NLEV 3
static const double me_qlev[ME_NLEV] = {1e-6, 1e-8, 1e-10};
static const double me_elev[ME_NLEV] = {1e-7, 1e-9, 1e-11};

/* The methods compared at equal m. */
enum { ME_LGG = 0, ME_LLG = 1, ME_LLL = 2, ME_LOB = 3, ME_NMETH = 4 };
static const char *const me_names[ME_NMETH] = {"LGG", "LLG", "LLL", "Lobatto IIIA-IIIB"};
/* Short names for CSV and plots. */
static const char *const me_short[ME_NMETH] = {"LGG", "LLG", "LLL", "LobIIIA-IIIB"};

/* The two accuracy measures. */
enum { ME_Q = 0, ME_E = 1 };

#define ME_MAXPTS 640
#define ME_MAXCURVES (ME_NMETH * (ME_MMAX - ME_MMIN + 1))

typedef struct me_point {
  int curve;
  long N;
  double h;
  double eq, ep, eE;    /* global q and p errors, max relative energy error */
  vi_timed tm; /* CPU and wall time, minimum over the repetitions (timing.h) */
  long steps; /* stats->steps (the init solve of galerkin's look-ahead is
                 counted in newton, not in steps) */
  long newton, newton_max, fevals, jevals;
  int unknowns;
  int ok;
  char msg[160];
} me_point;

typedef struct me_curve {
  int meth, m;
  char label[48];
  char spec[200]; /* canonical after me_canonical */
  int unknowns;   /* measured (vi_stepper_unknowns) */
  int paper;      /* man2020 §4.2: md + mc, or 2md + (m-2)c for the PRK */
  int formula;    /* ours: m(d + c), or md + (m-1)c (wenger2017 momentum form) */
} me_curve;

typedef struct me_study {
  const reproduce_opts *o;
  vi_system_d *sys;
  int n, c;
  double *Qref, *Pref, *Lref; /* (ME_NREF + 1) x n, n, c */
  double *Qrun, *Prun;        /* (ME_NMAX + 1) x n: every node of one run */
  double E0;
  vi_reference_info_d ref;
  me_point pts[ME_MAXPTS];
  int npts;
  me_curve curves[ME_MAXCURVES];
  int ncurves;
  double cap_seconds; /* a sweep stops after a run slower than this */
  double stop_err;    /* ... or a q error below this (past ME_NTAB) */
} me_study;

static json_t *me_num(double v) {
  return isfinite(v) ? json_real(v) : json_null();
}

/* Repetitions of a run by its time (timing.h): 5, 7 below 50 ms, 11 below
 * 5 ms; more where they are cheap make the minimum robust on a shared
 * machine. */
static const vi_reps_policy me_reps = {11, 7, 5};

/* ---- runs ------------------------------------------------------------------ */

/* One timed run of N steps: init and steps, every node's q and p copied
 * out (the copy is the same for every method; the errors are evaluated
 * afterwards, outside the timing). Returns the method's status. */
static int me_copy_node(void *ctx, long k, const vi_node_d *nd) {
  me_study *S = ctx;
  memcpy(S->Qrun + k * S->n, nd->q, (size_t)S->n * sizeof *nd->q);
  memcpy(S->Prun + k * S->n, nd->p, (size_t)S->n * sizeof *nd->p);
  return VI_OK;
}

static int me_once(me_study *S, vi_stepper_d *st, long N, vi_time *tm) {
  const int n = S->n;
  double node[64];
  vi_node_d nd = {0, node, node + n, node + 2 * n};
  vi_solver_opts_d so;
  vi_solver_opts_default_d(&so);
  const double h = ME_T / (double)N;
  vi_time_start(tm);
  int rc = vi_integrate_d(st, &so, h, N, S->sys->q0, S->sys->p0, &nd, me_copy_node, S, NULL);
  vi_time_stop(tm);
  return rc;
}

/* Errors of the run in Qrun/Prun: q and p at the reference nodes, energy
 * at every node. */
static void me_errors(const me_study *S, long N, me_point *P) {
  const int n = S->n;
  double eq = 0, ep = 0, eE = 0;
  const long every = N > ME_NREF ? N / ME_NREF : 1;  /* run nodes per ref node */
  const long stride = N < ME_NREF ? ME_NREF / N : 1; /* ref nodes per run node */
  for (long k = 0; k <= N; k++) {
    const double *q = S->Qrun + k * n, *p = S->Prun + k * n;
    if (k % every == 0) {
      const long r = k / every * stride;
      for (int i = 0; i < n; i++) {
        double dq = fabs(q[i] - S->Qref[r * n + i]), dp = fabs(p[i] - S->Pref[r * n + i]);
        eq = dq <= eq ? eq : dq; /* NaN sticks */
        ep = dp <= ep ? ep : dp;
      }
    }
    double E = NAN;
    if (vi_system_energy_d(S->sys, q, p, &E) != VI_OK) {
      E = NAN;
    }
    double d = fabs(E - S->E0) / fabs(S->E0);
    eE = d <= eE ? eE : d;
  }
  P->eq = eq;
  P->ep = ep;
  P->eE = eE;
  P->ok = isfinite(eq) && isfinite(ep) && isfinite(eE);
  if (!P->ok) {
    snprintf(P->msg, sizeof P->msg, "non-finite error");
  }
}

/* One configuration at N steps into a new point (NULL when full). */
static me_point *me_point_run(me_study *S, int curve, long N) {
  if (S->npts >= ME_MAXPTS) {
    return NULL;
  }
  me_point *P = &S->pts[S->npts++];
  memset(P, 0, sizeof *P);
  P->curve = curve;
  P->N = N;
  P->h = ME_T / (double)N;
  P->eq = P->ep = P->eE = NAN;
  P->tm.seconds = P->tm.wall = NAN;
  char err[256];
  vi_stepper_d *st = NULL;
  if (vi_stepper_alloc_d(S->curves[curve].spec, S->sys, &st, err, sizeof err) != VI_OK) {
    snprintf(P->msg, sizeof P->msg, "%.150s", err);
    return P;
  }
  vi_time tm;
  int rc = me_once(S, st, N, &tm);
  const vi_stats_d *stats = vi_stepper_stats_d(st);
  P->steps = stats->steps;
  P->newton = stats->newton_iters;
  P->newton_max = stats->newton_iters_max;
  P->fevals = stats->fevals;
  P->jevals = stats->jevals;
  P->unknowns = vi_stepper_unknowns_d(st);
  vi_timed_first(&P->tm, &tm);
  vi_stepper_free_d(st);
  if (rc != VI_OK) {
    snprintf(P->msg, sizeof P->msg, "%s", vi_strerror(rc));
    return P;
  }
  me_errors(S, N, P);
  return P;
}

/* Sweep h down the ladder. Always as far as the table's h = 0.05 (so that
 * every configuration has its row), then until the q error is below
 * stop_err, stalls at the round-off floor, or a run is slower than
 * cap_seconds. */
static int me_sweep(me_study *S, int curve, char *err, size_t errlen) {
  const long *lad = S->o->quick ? me_quick_ladder : me_ladder;
  const int nl = S->o->quick ? ME_NQUICK : ME_NLADDER;
  double best = INFINITY;
  int fails = 0, any = 0;
  for (int i = 0; i < nl; i++) {
    me_point *P = me_point_run(S, curve, lad[i]);
    if (!P) {
      vi_set_err(err, errlen, "too many points");
      return -1;
    }
    if (S->o->progress) {
      fprintf(stderr, "%s: %-24s h = %-8.4g e_q = %-9.3g e_H = %-9.3g %8.5f s %5.2f it/step%s%s\n",
              "man2020-efficiency", S->curves[curve].label, P->h, P->eq, P->eE, P->tm.seconds,
              P->steps ? (double)P->newton / (double)P->steps : 0.0, P->ok ? "" : "  ",
              P->msg);
    }
    if (!P->ok) {
      /* Newton may fail at the coarsest steps: go on until a first success,
       * give up after three failures in a row after one. */
      if (any && ++fails >= 3) {
        break;
      }
      continue;
    }
    any = 1;
    fails = 0;
    const int plateau = best < 1e-10 && P->eq > 0.5 * best;
    best = P->eq < best ? P->eq : best;
    if (lad[i] >= ME_NTAB && (P->eq < S->stop_err || plateau || P->tm.seconds > S->cap_seconds)) {
      break;
    }
  }
  return 0;
}

/* A later repetition of a timed run (vi_repeat_in_passes). */
static vi_timed *me_timed(void *ctx, int i) {
  me_point *P = &((me_study *)ctx)->pts[i];
  return P->ok ? &P->tm : NULL;
}

static int me_run_again(void *ctx, int i, vi_time *tm) {
  me_study *S = ctx;
  const me_point *P = &S->pts[i];
  vi_stepper_d *st = NULL;
  char err[256];
  int rc = vi_stepper_alloc_d(S->curves[P->curve].spec, S->sys, &st, err, sizeof err);
  if (rc == VI_OK) {
    rc = me_once(S, st, P->N, tm);
  }
  vi_stepper_free_d(st);
  return rc == VI_OK ? 0 : -1;
}

/* ---- analysis ---------------------------------------------------------------- */

static double me_err(const me_point *P, int measure) {
  return measure == ME_E ? P->eE : P->eq;
}

/* Time (and h) of a curve at error E: log-log linear interpolation between
 * the first pair of consecutive successful runs (h decreasing) whose errors
 * bracket E. NAN, with the reason in why, when the curve does not reach E
 * or is below E already at its coarsest run. */
static double me_interp(const me_study *S, int curve, int measure, double E, double *h,
                        char *why, size_t wl) {
  const me_point *prev = NULL;
  double lo = INFINITY, hi = 0, h0 = NAN;
  *h = NAN;
  for (int i = 0; i < S->npts; i++) {
    const me_point *P = &S->pts[i];
    if (P->curve != curve || !P->ok || !(me_err(P, measure) > 0)) {
      continue;
    }
    const double e = me_err(P, measure);
    h0 = isfinite(h0) ? h0 : P->h;
    lo = e < lo ? e : lo;
    hi = e > hi ? e : hi;
    if (prev && me_err(prev, measure) >= E && e <= E) {
      double a = log(me_err(prev, measure)), b = log(e);
      double f = b == a ? 0 : (log(E) - a) / (b - a);
      *h = exp(log(prev->h) + f * (log(P->h) - log(prev->h)));
      return exp(log(prev->tm.seconds) + f * (log(P->tm.seconds) - log(prev->tm.seconds)));
    }
    prev = P;
  }
  if (hi == 0) {
    snprintf(why, wl, "no successful run");
  } else if (lo > E) {
    snprintf(why, wl, "reaches only %.2g", lo);
  } else {
    snprintf(why, wl, "below it already at h = %.3g (%.2g)", h0, hi);
  }
  return NAN;
}

static int me_curve_of(const me_study *S, int meth, int m) {
  for (int c = 0; c < S->ncurves; c++) {
    if (S->curves[c].meth == meth && S->curves[c].m == m) {
      return c;
    }
  }
  return -1;
}

/* The run of a curve at N steps, NULL if none succeeded. */
static const me_point *me_at(const me_study *S, int curve, long N) {
  for (int i = 0; i < S->npts; i++) {
    if (S->pts[i].curve == curve && S->pts[i].N == N && S->pts[i].ok) {
      return &S->pts[i];
    }
  }
  return NULL;
}

/* Errors this small are at the round-off / reference floor (the double
 * reference is estimated at 4e-14; T = 10 accumulates round-off of about
 * 1e-13 in q): comparisons of accuracy leave them out. */
static double me_floor(int measure) {
  return measure == ME_E ? 1e-13 : 1e-12;
}

/* Claim 1 for one m and one measure: LGG against LLL at every h where both
 * ran and both errors are above the floor. ratio: geometric mean of
 * err(LLL) / err(LGG) (> 1: LGG more accurate); at_tab the ratio at
 * h = 0.05 (NAN at the floor). */
typedef struct me_acc {
  int n, wins;
  double ratio, at_tab, rmin, rmax;
  const char *verdict;
} me_acc;

static void me_accuracy(const me_study *S, int m, int measure, me_acc *a) {
  memset(a, 0, sizeof *a);
  a->ratio = a->at_tab = NAN;
  a->rmin = INFINITY;
  a->rmax = 0;
  const int cg = me_curve_of(S, ME_LGG, m), cl = me_curve_of(S, ME_LLL, m);
  double lsum = 0;
  for (int i = 0; cg >= 0 && cl >= 0 && i < S->npts; i++) {
    const me_point *P = &S->pts[i];
    if (P->curve != cg || !P->ok) {
      continue;
    }
    const me_point *Q = me_at(S, cl, P->N);
    const double fl = me_floor(measure);
    if (!Q || !(me_err(P, measure) > fl) || !(me_err(Q, measure) > fl)) {
      continue;
    }
    const double r = me_err(Q, measure) / me_err(P, measure);
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
  a->verdict = a->n == 0                ? "n/a"
               : a->wins == a->n        ? "holds"
               : a->wins == 0           ? "does not hold"
               : 4 * a->wins >= 3 * a->n ? "mostly holds"
               : 4 * a->wins <= a->n     ? "mostly does not hold"
                                        : "mixed";
}

/* A time ratio t(LGG) / t(other) as a verdict of "LGG is cheaper". */
static const char *me_time_verdict(double r) {
  return !isfinite(r)          ? "n/a"
         : r < 1 - ME_TIE      ? "holds"
         : r > 1 + ME_TIE      ? "does not hold"
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

/* Summary of per-m verdicts: "holds" when all agree, else grouped by
 * verdict, e.g. "does not hold at m = 2, 3; tie (within 10%) at m = 5". */
static void me_summary_m(const char *const *v, const int *ms, int n, char *buf, size_t len) {
  const char *d[16];
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
  const char *d[16];
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

/* Best time over m of one method at error E (the cheapest m); -1 if none. */
static int me_best_m(const me_study *S, int meth, int measure, double E, double *t) {
  int best = -1;
  *t = NAN;
  for (int m = ME_MMIN; m <= ME_MMAX; m++) {
    int c = me_curve_of(S, meth, m);
    if (c < 0) {
      continue;
    }
    char why[120];
    double h, v = me_interp(S, c, measure, E, &h, why, sizeof why);
    if (isfinite(v) && !(v >= *t)) {
      *t = v;
      best = m;
    }
  }
  return best;
}

/* ---- the outputs --------------------------------------------------------------- */

/* Everything the outputs share: the per-m claim values. */
typedef struct me_claims {
  int ms[ME_MMAX + 1], nm;
  me_acc acc[ME_MMAX + 1][2];        /* claim 1, per m and measure */
  double tstep[ME_MMAX + 1];         /* claim 2: t/step(LGG) / t/step(Lob) at h = 0.05 */
  double tstep_lll[ME_MMAX + 1];     /* t/step(LGG) / t/step(LLL) */
  const char *v2[ME_MMAX + 1];
  double teq[ME_MMAX + 1][2][ME_NLEV]; /* claim 3: t(LGG) / t(Lob) at equal error */
  const char *v3[ME_MMAX + 1][2][ME_NLEV];
  int bestm[ME_NMETH][2][ME_NLEV];   /* cheapest m per method at each level */
  double bestt[ME_NMETH][2][ME_NLEV];
  double best_ratio[2][ME_NLEV];     /* best LGG / best Lobatto IIIA-IIIB */
  char overall_2[160], overall_q1[160], overall_e1[160], overall_3q[160], overall_3e[160];
} me_claims;

static double me_tstep(const me_point *P) {
  return P ? P->tm.seconds / (double)P->N : NAN;
}

static void me_judge(const me_study *S, me_claims *C) {
  memset(C, 0, sizeof *C);
  for (int m = ME_MMIN; m <= ME_MMAX; m++) {
    if (me_curve_of(S, ME_LGG, m) >= 0) {
      C->ms[C->nm++] = m;
    }
  }
  const char *v1q[ME_MMAX + 1], *v1e[ME_MMAX + 1], *v2[ME_MMAX + 1];
  const char *v3q[(ME_MMAX + 1) * ME_NLEV], *v3e[(ME_MMAX + 1) * ME_NLEV];
  int n3q = 0, n3e = 0;
  for (int k = 0; k < C->nm; k++) {
    const int m = C->ms[k];
    me_accuracy(S, m, ME_Q, &C->acc[m][ME_Q]);
    me_accuracy(S, m, ME_E, &C->acc[m][ME_E]);
    v1q[k] = C->acc[m][ME_Q].verdict;
    v1e[k] = C->acc[m][ME_E].verdict;
    const me_point *g = me_at(S, me_curve_of(S, ME_LGG, m), ME_NTAB);
    const me_point *b = me_at(S, me_curve_of(S, ME_LOB, m), ME_NTAB);
    const me_point *l = me_at(S, me_curve_of(S, ME_LLL, m), ME_NTAB);
    C->tstep[m] = me_tstep(g) / me_tstep(b);
    C->tstep_lll[m] = me_tstep(g) / me_tstep(l);
    C->v2[m] = v2[k] = me_time_verdict(C->tstep[m]);
    for (int x = ME_Q; x <= ME_E; x++) {
      for (int l2 = 0; l2 < ME_NLEV; l2++) {
        const double E = x == ME_Q ? me_qlev[l2] : me_elev[l2];
        char why[120];
        double h, tg = me_interp(S, me_curve_of(S, ME_LGG, m), x, E, &h, why, sizeof why);
        double tb = me_interp(S, me_curve_of(S, ME_LOB, m), x, E, &h, why, sizeof why);
        C->teq[m][x][l2] = tg / tb;
        C->v3[m][x][l2] = me_time_verdict(tg / tb);
        if (x == ME_Q) {
          v3q[n3q++] = C->v3[m][x][l2];
        } else {
          v3e[n3e++] = C->v3[m][x][l2];
        }
      }
    }
  }
  for (int x = ME_Q; x <= ME_E; x++) {
    for (int l2 = 0; l2 < ME_NLEV; l2++) {
      const double E = x == ME_Q ? me_qlev[l2] : me_elev[l2];
      for (int meth = 0; meth < ME_NMETH; meth++) {
        C->bestm[meth][x][l2] = me_best_m(S, meth, x, E, &C->bestt[meth][x][l2]);
      }
      C->best_ratio[x][l2] = C->bestt[ME_LGG][x][l2] / C->bestt[ME_LOB][x][l2];
    }
  }
  me_summary_m(v1q, C->ms, C->nm, C->overall_q1, sizeof C->overall_q1);
  me_summary_m(v1e, C->ms, C->nm, C->overall_e1, sizeof C->overall_e1);
  me_summary_m(v2, C->ms, C->nm, C->overall_2, sizeof C->overall_2);
  me_summary_cells(v3q, n3q, C->overall_3q, sizeof C->overall_3q);
  me_summary_cells(v3e, n3e, C->overall_3e, sizeof C->overall_3e);
}

static json_t *me_point_json(const me_study *S, const me_point *P) {
  const me_curve *C = &S->curves[P->curve];
  json_t *j = json_object();
  json_object_set_new(j, "method", json_string(me_names[C->meth]));
  json_object_set_new(j, "m", json_integer(C->m));
  json_object_set_new(j, "spec", json_string(C->spec));
  json_object_set_new(j, "h", json_real(P->h));
  json_object_set_new(j, "steps", json_integer(P->N));
  json_object_set_new(j, "error_q", me_num(P->eq));
  json_object_set_new(j, "error_p", me_num(P->ep));
  json_object_set_new(j, "error_energy", me_num(P->eE));
  json_object_set_new(j, "seconds", me_num(P->tm.seconds));
  json_object_set_new(j, "wall_seconds", me_num(P->tm.wall));
  json_object_set_new(j, "seconds_per_step", me_num(P->tm.seconds / (double)P->N));
  json_object_set_new(j, "repetitions", json_integer(P->tm.reps));
  json_object_set_new(j, "unknowns", json_integer(P->unknowns));
  json_object_set_new(j, "newton_iters", json_integer(P->newton));
  json_object_set_new(j, "newton_per_step",
                      me_num(P->steps ? (double)P->newton / (double)P->steps : NAN));
  json_object_set_new(j, "newton_max", json_integer(P->newton_max));
  json_object_set_new(j, "solved_steps", json_integer(P->steps));
  json_object_set_new(j, "res_evals", json_integer(P->fevals));
  json_object_set_new(j, "jac_evals", json_integer(P->jevals));
  json_object_set_new(j, "ok", json_boolean(P->ok));
  json_object_set_new(j, "status", json_string(P->ok ? "ok" : P->msg));
  return j;
}

static json_t *me_claims_json(const me_study *S, const me_claims *C) {
  json_t *arr = json_array();
  /* 1: accuracy at equal m and h. */
  json_t *c1 = json_object();
  json_object_set_new(c1, "claim", json_string("LGG more accurate than LLL at equal m and h"));
  json_object_set_new(c1, "source", json_string("man2020 §4.2 (Fig. 3, energy error), §4.3"));
  json_object_set_new(c1, "rule",
                      json_string("at every h where both ran and both errors are above "
                                  "the floor (q 1e-12, energy 1e-13): err(LGG) < err(LLL); "
                                  "ratio = err(LLL) / err(LGG), > 1 means LGG more accurate"));
  json_object_set_new(c1, "verdict_q", json_string(C->overall_q1));
  json_object_set_new(c1, "verdict_energy", json_string(C->overall_e1));
  json_t *per = json_array();
  for (int k = 0; k < C->nm; k++) {
    const int m = C->ms[k];
    for (int x = ME_Q; x <= ME_E; x++) {
      const me_acc *a = &C->acc[m][x];
      json_t *r = json_object();
      json_object_set_new(r, "m", json_integer(m));
      json_object_set_new(r, "measure", json_string(x == ME_Q ? "q" : "energy"));
      json_object_set_new(r, "compared_h", json_integer(a->n));
      json_object_set_new(r, "lgg_better", json_integer(a->wins));
      json_object_set_new(r, "ratio_geomean", me_num(a->ratio));
      json_object_set_new(r, "ratio_min", me_num(a->n ? a->rmin : NAN));
      json_object_set_new(r, "ratio_max", me_num(a->n ? a->rmax : NAN));
      json_object_set_new(r, "ratio_h0.05", me_num(a->at_tab));
      json_object_set_new(r, "verdict", json_string(a->verdict));
      json_array_append_new(per, r);
    }
  }
  json_object_set_new(c1, "per_m", per);
  json_array_append_new(arr, c1);
  /* 2: cost per step. */
  json_t *c2 = json_object();
  json_object_set_new(c2, "claim",
                      json_string("LGG cheaper per step than the Lobatto IIIA-IIIB at equal m"));
  json_object_set_new(c2, "source", json_string("man2020 §4.2: md + mc against 2md + (m-2)c"));
  json_object_set_new(
      c2, "rule",
      json_string("time per step at h = 0.05: ratio t(LGG) / t(Lobatto IIIA-IIIB) < 0.9 "
                  "holds, > 1.1 does not hold, else a tie; unknowns as measured"));
  json_object_set_new(c2, "verdict_time", json_string(C->overall_2));
  json_object_set_new(
      c2, "verdict_unknowns",
      json_string("does not hold: measured m(d + c) for LGG against md + (m-1)c for our "
                  "Lobatto IIIA-IIIB (one unknown more); by the paper's count 2md + (m-2)c "
                  "it would hold"));
  per = json_array();
  for (int k = 0; k < C->nm; k++) {
    const int m = C->ms[k];
    const me_curve *g = &S->curves[me_curve_of(S, ME_LGG, m)];
    const me_curve *b = &S->curves[me_curve_of(S, ME_LOB, m)];
    json_t *r = json_object();
    json_object_set_new(r, "m", json_integer(m));
    json_object_set_new(r, "unknowns_lgg", json_integer(g->unknowns));
    json_object_set_new(r, "unknowns_lobatto", json_integer(b->unknowns));
    json_object_set_new(r, "paper_lgg", json_integer(g->paper));
    json_object_set_new(r, "paper_prk", json_integer(b->paper));
    json_object_set_new(r, "time_per_step_ratio", me_num(C->tstep[m]));
    json_object_set_new(r, "time_per_step_ratio_vs_lll", me_num(C->tstep_lll[m]));
    json_object_set_new(r, "verdict", json_string(C->v2[m]));
    json_array_append_new(per, r);
  }
  json_object_set_new(c2, "per_m", per);
  json_array_append_new(arr, c2);
  /* 3: time to a given error. */
  json_t *c3 = json_object();
  json_object_set_new(c3, "claim", json_string("LGG reaches a given error in less time"));
  json_object_set_new(c3, "source", json_string("man2020 §4.2: higher precision while taking "
                                                "less computational time"));
  json_object_set_new(
      c3, "rule",
      json_string("time interpolated (log-log) along each work-precision curve at the "
                  "error level; ratio t(LGG) / t(Lobatto IIIA-IIIB) at equal m, < 0.9 holds, "
                  "> 1.1 does not hold, else a tie; also the cheapest m of each"));
  json_object_set_new(c3, "verdict_q", json_string(C->overall_3q));
  json_object_set_new(c3, "verdict_energy", json_string(C->overall_3e));
  per = json_array();
  for (int k = 0; k < C->nm; k++) {
    const int m = C->ms[k];
    for (int x = ME_Q; x <= ME_E; x++) {
      for (int l = 0; l < ME_NLEV; l++) {
        json_t *r = json_object();
        json_object_set_new(r, "m", json_integer(m));
        json_object_set_new(r, "measure", json_string(x == ME_Q ? "q" : "energy"));
        json_object_set_new(r, "level", json_real(x == ME_Q ? me_qlev[l] : me_elev[l]));
        json_object_set_new(r, "time_ratio", me_num(C->teq[m][x][l]));
        json_object_set_new(r, "verdict", json_string(C->v3[m][x][l]));
        json_array_append_new(per, r);
      }
    }
  }
  json_object_set_new(c3, "per_m", per);
  json_t *best = json_array();
  for (int x = ME_Q; x <= ME_E; x++) {
    for (int l = 0; l < ME_NLEV; l++) {
      json_t *r = json_object();
      json_object_set_new(r, "measure", json_string(x == ME_Q ? "q" : "energy"));
      json_object_set_new(r, "level", json_real(x == ME_Q ? me_qlev[l] : me_elev[l]));
      for (int meth = 0; meth < ME_NMETH; meth++) {
        json_t *b = json_object();
        json_object_set_new(b, "m", C->bestm[meth][x][l] >= 0
                                        ? json_integer(C->bestm[meth][x][l])
                                        : json_null());
        json_object_set_new(b, "seconds", me_num(C->bestt[meth][x][l]));
        json_object_set_new(r, me_names[meth], b);
      }
      json_object_set_new(r, "time_ratio_lgg_lobatto", me_num(C->best_ratio[x][l]));
      json_object_set_new(r, "verdict", json_string(me_time_verdict(C->best_ratio[x][l])));
      json_array_append_new(best, r);
    }
  }
  json_object_set_new(c3, "best_over_m", best);
  json_array_append_new(arr, c3);
  return arr;
}

static const char *const me_colors[5] = {"#e41a1c", "#377eb8", "#4daf4a", "#984ea3",
                                         "#ff7f00"};

/* The gnuplot body: one datablock per curve (q error, energy error, time),
 * two panels (time against q error, time against energy error), colour by
 * m, line style by method. */
static char *me_plot_body(const me_study *S, const char *title) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f) {
    return NULL;
  }
  int shown[ME_MAXCURVES], nshown = 0;
  for (int c = 0; c < S->ncurves; c++) {
    int np = 0;
    for (int i = 0; i < S->npts; i++) {
      const me_point *P = &S->pts[i];
      if (P->curve == c && P->ok && P->eq > 0 && P->eE > 0) {
        if (np++ == 0) {
          fprintf(f, "$c%d << EOD\n", c);
        }
        fprintf(f, "%.6e %.6e %.6e %.5g\n", P->eq, P->eE, P->tm.seconds, P->h);
      }
    }
    if (np > 0) {
      fprintf(f, "EOD\n");
      shown[nshown++] = c;
    }
  }
  /* Method styles: LGG solid filled circles, LLG solid triangles, LLL
   * dashed open squares, Lobatto IIIA-IIIB dotted open diamonds. */
  static const int dt[ME_NMETH] = {1, 1, 2, 3}, pt[ME_NMETH] = {7, 9, 4, 12};
  static const double lw[ME_NMETH] = {2.0, 1.2, 1.2, 2.0};
  fprintf(f,
          "set multiplot title \"%s\" noenhanced\n"
          "set logscale xy\n"
          "set format x '10^{%%L}'\nset format y '10^{%%L}'\n"
          "set ylabel 'run time [s] (CPU time of the pinned thread, min of repetitions)'\n"
          "set grid xtics ytics lc rgb '#dddddd'\n",
          title);
  for (int panel = 0; panel < 2; panel++) {
    if (panel == 0) {
      fprintf(f, "set lmargin at screen 0.07\nset rmargin at screen 0.43\n"
                 "set tmargin at screen 0.90\nset bmargin at screen 0.10\n"
                 "unset key\n"
                 "set xlabel 'global q error  max_k |q_k - q_{ref}(t_k)|_{inf}'\n");
    } else {
      fprintf(f, "set lmargin at screen 0.50\nset rmargin at screen 0.86\n"
                 "set key at screen 0.995, screen 0.90 top right spacing 1.0 "
                 "font ',9' noenhanced\n"
                 "set xlabel 'max relative energy error  max_k |H_k - H_0| / |H_0|'\n");
    }
    fprintf(f, "plot ");
    for (int k = 0; k < nshown; k++) {
      const int c = shown[k];
      const me_curve *C = &S->curves[c];
      fprintf(f,
              "$c%d using %d:3 with linespoints lw %.1f lc rgb '%s' dt %d pt %d ps 0.8 "
              "title '%s m=%d'",
              c, panel == 0 ? 1 : 2, lw[C->meth], me_colors[(C->m - ME_MMIN) % 5], dt[C->meth],
              pt[C->meth], me_short[C->meth], C->m);
      fprintf(f, "%s", k + 1 < nshown ? ", \\\n     " : "\n");
    }
  }
  fprintf(f, "unset multiplot\n");
  fclose(f);
  return buf;
}

static char *me_csv(const me_study *S) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f) {
    return NULL;
  }
  fprintf(f, "method,m,spec,h,steps,unknowns,paper_unknowns,error_q,error_p,error_energy,"
             "seconds,wall_seconds,seconds_per_step,repetitions,newton_per_step,newton_max,"
             "res_evals,jac_evals,status\n");
  for (int i = 0; i < S->npts; i++) {
    const me_point *P = &S->pts[i];
    const me_curve *C = &S->curves[P->curve];
    fprintf(f, "%s,%d,\"%s\",%.17g,%ld,%d,%d,%.6e,%.6e,%.6e,%.6e,%.6e,%.6e,%d,%.4f,%ld,%ld,%ld,"
               "\"%s\"\n",
            me_short[C->meth], C->m, C->spec, P->h, P->N, P->unknowns, C->paper, P->eq, P->ep,
            P->eE, P->tm.seconds, P->tm.wall, P->tm.seconds / (double)P->N, P->tm.reps,
            P->steps ? (double)P->newton / (double)P->steps : NAN, P->newton_max, P->fevals,
            P->jevals, P->ok ? "ok" : P->msg);
  }
  fclose(f);
  return buf;
}

/* An error cell: the value, or "floor" below the comparison floor. */
static void me_md_err(FILE *f, double e, int measure) {
  if (!isfinite(e)) {
    fprintf(f, " - |");
  } else if (e < me_floor(measure)) {
    fprintf(f, " %.1e (floor) |", e);
  } else {
    fprintf(f, " %.2e |", e);
  }
}

static void me_md_ratio(FILE *f, double r) {
  fprintf(f, isfinite(r) ? " %.2f |" : " - |", r);
}

static char *me_md(const me_study *S, const char *id, const char *mline, int core,
                   const me_claims *C, double total) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f) {
    return NULL;
  }
  const int d = S->n, c = S->c;
  fprintf(f, "# %s: the efficiency claim of man2020 §4.2, measured\n\n", id);
  fprintf(
      f,
      "man2020 §4.2: with m points per step the man2020 integrators solve md + mc "
      "equations per step, the constrained Lobatto IIIA-IIIB partitioned Runge-Kutta "
      "method 2md + (m-2)c, and \"algorithms LLG and LGG have higher precision while "
      "taking less computational time\"; §4.3 reconfirms §4.2 on the triple pendulum. "
      "Measured here on the triple pendulum (54)-(56) (`%s`, the paper's parameters "
      "m1 = m2 = m3 = L = g = 1, d = %d, c = %d), T = %g, double precision, built-in "
      "Newton at its default tolerance (100 eps), m = %d..%d.%s\n\n",
      ME_SYSTEM, d, c, ME_T, C->ms[0], C->ms[C->nm - 1],
      S->o->quick ? " **Quick run (reduced sweep, for tests).**" : "");
  fprintf(f, "- Machine: %s\n", mline);
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
          "- Accuracy: global q error max_k |q_k - q_ref(t_k)|_inf against %s (accuracy "
          "%.0e; grid h = T/%ld), and the max relative energy error max_k |H_k - H_0| / "
          "|H_0| (man2020 (46)-(47), the paper's measure). Errors below 1e-12 (q) or "
          "1e-13 (energy) are at the round-off / reference floor and left out of the "
          "accuracy comparisons.\n",
          S->ref.method, S->ref.accuracy, ME_NREF);
  fprintf(f,
          "- Time: CPU time of the thread pinned to core %d, minimum of 5-11 repetitions "
          "(1 with --quick) in passes over the study; stepper init and steps, error "
          "evaluation excluded. A time ratio within 10%% is called a tie: timings on this "
          "shared machine scatter by about that much.\n\n",
          core);

  fprintf(f, "## Per step at h = %g (N = %ld)\n\n", ME_T / (double)ME_NTAB, ME_NTAB);
  fprintf(f, "| method | m | unknowns (measured) | paper's count | our formula | Newton "
             "it./step | time/step [µs] | q error | energy error |\n"
             "|---|---|---|---|---|---|---|---|---|\n");
  for (int k = 0; k < C->nm; k++) {
    for (int meth = 0; meth < ME_NMETH; meth++) {
      const int cv = me_curve_of(S, meth, C->ms[k]);
      const me_curve *K = &S->curves[cv];
      const me_point *P = me_at(S, cv, ME_NTAB);
      fprintf(f, "| %s | %d | %d | %d (%s) | %d | ", me_names[meth], K->m, K->unknowns,
              K->paper, meth == ME_LOB ? "2md + (m-2)c" : "md + mc", K->formula);
      if (P) {
        fprintf(f, "%.2f | %.1f |", (double)P->newton / (double)P->steps,
                1e6 * P->tm.seconds / (double)P->N);
        me_md_err(f, P->eq, ME_Q);
        me_md_err(f, P->eE, ME_E);
        fputc('\n', f);
      } else {
        fprintf(f, "- | - | - | - |\n");
      }
    }
  }
  fprintf(f, "\nTime per step includes the first step's start-up (Taylor guess, for "
             "galerkin the look-ahead interval) spread over the N steps.\n\n");

  fprintf(f, "## Time to reach an error (interpolated along each curve)\n\n"
             "| method | m |");
  for (int l = 0; l < ME_NLEV; l++) {
    fprintf(f, " q %.0e [ms] |", me_qlev[l]);
  }
  for (int l = 0; l < ME_NLEV; l++) {
    fprintf(f, " energy %.0e [ms] |", me_elev[l]);
  }
  fprintf(f, "\n|---|---|");
  for (int l = 0; l < 2 * ME_NLEV; l++) {
    fprintf(f, "---|");
  }
  fprintf(f, "\n");
  for (int k = 0; k < C->nm; k++) {
    for (int meth = 0; meth < ME_NMETH; meth++) {
      const int cv = me_curve_of(S, meth, C->ms[k]);
      fprintf(f, "| %s | %d |", me_names[meth], C->ms[k]);
      for (int x = ME_Q; x <= ME_E; x++) {
        for (int l = 0; l < ME_NLEV; l++) {
          char why[120];
          double h, t = me_interp(S, cv, x, x == ME_Q ? me_qlev[l] : me_elev[l], &h, why,
                                  sizeof why);
          fprintf(f, isfinite(t) ? " %.3g |" : " - |", 1e3 * t);
        }
      }
      fprintf(f, "\n");
    }
  }
  fprintf(f, "\n\"-\": the curve does not bracket the level (it stops above it, or is "
             "below it already at its coarsest h).\n\n");

  fprintf(f, "## The claims\n\n");
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
             "unknowns **does not hold** (measured), time per step **%s**\n\n",
          C->overall_2);
  fprintf(f, "| m | unknowns LGG | unknowns Lobatto IIIA-IIIB (ours) | paper: man2020 / PRK | "
             "t/step LGG / Lobatto | t/step LGG / LLL | verdict (time) |\n"
             "|---|---|---|---|---|---|---|\n");
  for (int k = 0; k < C->nm; k++) {
    const int m = C->ms[k];
    const me_curve *g = &S->curves[me_curve_of(S, ME_LGG, m)];
    const me_curve *b = &S->curves[me_curve_of(S, ME_LOB, m)];
    fprintf(f, "| %d | %d | %d | %d / %d |", m, g->unknowns, b->unknowns, g->paper, b->paper);
    me_md_ratio(f, C->tstep[m]);
    me_md_ratio(f, C->tstep_lll[m]);
    fprintf(f, " %s |\n", C->v2[m]);
  }
  fprintf(f, "\n### 3. \"LGG reaches a given error in less time\": q error **%s**, energy "
             "error **%s** (at equal m)\n\n",
          C->overall_3q, C->overall_3e);
  fprintf(f, "Ratio t(LGG) / t(Lobatto IIIA-IIIB) at equal m and equal error (< 1: LGG "
             "faster).\n\n| m |");
  for (int l = 0; l < ME_NLEV; l++) {
    fprintf(f, " q %.0e |", me_qlev[l]);
  }
  for (int l = 0; l < ME_NLEV; l++) {
    fprintf(f, " energy %.0e |", me_elev[l]);
  }
  fprintf(f, "\n|---|");
  for (int l = 0; l < 2 * ME_NLEV; l++) {
    fprintf(f, "---|");
  }
  fprintf(f, "\n");
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
  fprintf(f, "\nThe cheapest m of each method at each level (time in ms):\n\n"
             "| level |");
  for (int meth = 0; meth < ME_NMETH; meth++) {
    fprintf(f, " %s |", me_names[meth]);
  }
  fprintf(f, " LGG / Lobatto |\n|---|---|---|---|---|---|\n");
  for (int x = ME_Q; x <= ME_E; x++) {
    for (int l = 0; l < ME_NLEV; l++) {
      fprintf(f, "| %s %.0e |", x == ME_Q ? "q" : "energy",
              x == ME_Q ? me_qlev[l] : me_elev[l]);
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

  fprintf(f, "\n## All runs\n\n| method | m | h | steps | q error | energy error | time "
             "[s] | reps | Newton it./step | status |\n|---|---|---|---|---|---|---|---|---|---|\n");
  for (int i = 0; i < S->npts; i++) {
    const me_point *P = &S->pts[i];
    const me_curve *K = &S->curves[P->curve];
    if (P->ok) {
      fprintf(f, "| %s | %d | %.5g | %ld | %.3e | %.3e | %.3e | %d | %.2f | ok |\n",
              me_names[K->meth], K->m, P->h, P->N, P->eq, P->eE, P->tm.seconds, P->tm.reps,
              (double)P->newton / (double)P->steps);
    } else {
      fprintf(f, "| %s | %d | %.5g | %ld | - | - | - | - | - | %s |\n", me_names[K->meth],
              K->m, P->h, P->N, P->msg);
    }
  }
  fprintf(f, "\nStudy run time %.1f s. Regenerate with `vistudy reproduce %s`.\n", total, id);
  fclose(f);
  return buf;
}

/* ---- driver -------------------------------------------------------------------- */

static void me_add_curves(me_study *S) {
  const int d = S->n, c = S->c;
  for (int m = ME_MMIN; m <= ME_MMAX; m++) {
    if (S->o->quick && m > 4) {
      continue;
    }
    for (int meth = 0; meth < ME_NMETH; meth++) {
      me_curve *C = &S->curves[S->ncurves++];
      C->meth = meth;
      C->m = m;
      snprintf(C->label, sizeof C->label, "%s m=%d", me_short[meth], m);
      if (meth == ME_LOB) {
        snprintf(C->spec, sizeof C->spec, "galerkin:s=%d,w=%d,quadL=lobatto,r=%d,project=p",
                 m, m - 1, m);
        C->paper = 2 * m * d + (m - 2) * c;
        C->formula = m * d + (m - 1) * c;
      } else {
        snprintf(C->spec, sizeof C->spec, "man2020:alg=%s,m=%d", me_names[meth], m);
        C->paper = m * d + m * c;
        C->formula = m * d + m * c;
      }
    }
  }
}

/* Canonical specs and the unknowns per step, from an initialised stepper. */
static int me_canonical(me_study *S, char *err, size_t errlen) {
  for (int k = 0; k < S->ncurves; k++) {
    me_curve *C = &S->curves[k];
    vi_stepper_d *st = NULL;
    if (vi_stepper_alloc_d(C->spec, S->sys, &st, err, errlen) != VI_OK) {
      return -1;
    }
    vi_solver_opts_d so;
    vi_solver_opts_default_d(&so);
    double node[64];
    vi_node_d nd = {0, node, node + S->n, node + 2 * S->n};
    int rc = vi_stepper_init_d(st, &so, ME_T / (double)ME_NTAB, 0, S->sys->q0, S->sys->p0, &nd);
    C->unknowns = rc == VI_OK ? vi_stepper_unknowns_d(st) : 0;
    vi_stepper_spec_d(st, C->spec, sizeof C->spec);
    vi_stepper_free_d(st);
    if (rc != VI_OK) {
      vi_set_err(err, errlen, "%s: init failed: %s", C->spec, vi_strerror(rc));
      return -1;
    }
  }
  return 0;
}

static int me_reference(me_study *S, char *err, size_t errlen) {
  const size_t rows = (size_t)(ME_NREF + 1);
  S->Qref = malloc(rows * (size_t)(2 * S->n + S->c) * sizeof *S->Qref);
  if (!S->Qref) {
    vi_set_err(err, errlen, "out of memory");
    return -1;
  }
  S->Pref = S->Qref + rows * S->n;
  S->Lref = S->Pref + rows * S->n;
  return vi_reference_d(S->sys, ME_T / (double)ME_NREF, ME_NREF, S->Qref, S->Pref, S->Lref,
                        S->o->cache_dir, &S->ref, err, errlen) == VI_OK
             ? 0
             : -1;
}

int vi_man2020_eff_run(const vi_study *s, const reproduce_opts *o) {
  const char *id = s->id;
  const double tstart = vi_clock();
  char err[512] = "";
  me_study *S = calloc(1, sizeof *S);
  me_claims *C = calloc(1, sizeof *C);
  if (!S || !C) {
    free(S);
    free(C);
    fprintf(stderr, "vistudy reproduce: %s: out of memory\n", id);
    return VI_EXIT_FAIL;
  }
  S->o = o;
  S->cap_seconds = o->quick ? 0.05 : 0.15;
  S->stop_err = 1e-12;
  int status = VI_EXIT_FAIL;
  vi_timing tg = {.core = -1};
  json_t *j = NULL;
  char *md = NULL, *csv = NULL, *body = NULL;
  const vi_system_type_d *type = vi_system_find_d(ME_SYSTEM, err, sizeof err);
  if (!type || vi_system_alloc_d(type, 0, NULL, &S->sys, err, sizeof err) != VI_OK) {
    goto out;
  }
  S->n = S->sys->n;
  S->c = S->sys->m;
  if (2 * S->n + S->c > 64) {
    vi_set_err(err, sizeof err, "system too large for the node buffer");
    goto out;
  }
  if (vi_system_energy_d(S->sys, S->sys->q0, S->sys->p0, &S->E0) != VI_OK || S->E0 == 0) {
    vi_set_err(err, sizeof err, "cannot evaluate H_0");
    goto out;
  }
  S->Qrun = malloc((size_t)(ME_NMAX + 1) * 2 * S->n * sizeof *S->Qrun);
  if (!S->Qrun) {
    vi_set_err(err, sizeof err, "out of memory");
    goto out;
  }
  S->Prun = S->Qrun + (size_t)(ME_NMAX + 1) * S->n;
  if (o->progress) {
    fprintf(stderr, "%s: reference on %ld nodes\n", id, ME_NREF);
  }
  if (me_reference(S, err, sizeof err) != 0) {
    goto out;
  }
  me_add_curves(S);
  if (me_canonical(S, err, sizeof err) != 0) {
    goto out;
  }
  vi_timing_begin(&tg);
  if (tg.pin_note[0]) {
    fprintf(stderr, "%s: timings unpinned: %s\n", id, tg.pin_note);
  }
  for (int c = 0; c < S->ncurves; c++) {
    if (me_sweep(S, c, err, sizeof err) != 0) {
      goto out;
    }
  }
  vi_repeat_in_passes(S, S->npts, me_timed, me_run_again, &me_reps, o->quick, id, o->progress);
  vi_timing_end(&tg);
  me_judge(S, C);

  const char *mline = tg.line;
  const int core = tg.core;
  const double total = vi_clock() - tstart;

  j = json_object();
  json_object_set_new(j, "id", json_string(id));
  json_object_set_new(j, "title", json_string("man2020 §4.2 efficiency claim measured on the "
                                              "triple pendulum (54)-(56)"));
  json_object_set_new(j, "system", json_string(ME_SYSTEM));
  json_object_set_new(j, "params", vi_params_json(S->sys));
  json_object_set_new(j, "d", json_integer(S->n));
  json_object_set_new(j, "c", json_integer(S->c));
  json_object_set_new(j, "T", json_real(ME_T));
  json_object_set_new(j, "precision", json_string("double"));
  json_object_set_new(j, "quick", json_boolean(o->quick));
  json_object_set_new(j, "table_h", json_real(ME_T / (double)ME_NTAB));
  json_object_set_new(j, "error_measures",
                      json_string("error_q: max over the nodes of |q_k - q_ref(t_k)|_inf; "
                                  "error_energy: max_k |H_k - H_0| / |H_0| (man2020 "
                                  "(46)-(47))"));
  json_object_set_new(
      j, "unknowns_note",
      json_string("measured by vi_stepper_unknowns. man2020: m d + m c (the paper's md + "
                  "mc). Lobatto IIIA-IIIB: galerkin:s=m,w=m-1,quadL=lobatto,r=m,project=p, "
                  "the momentum form of wenger2017 with m d + (m-1) c unknowns, fewer than "
                  "the paper's 2md + (m-2)c for the stage form: the paper's basis of "
                  "comparison does not apply to this implementation"));
  json_object_set_new(j, "machine", vi_machine_json(&tg.machine, mline));
  json_object_set_new(j, "pinned_core", core >= 0 ? json_integer(core) : json_null());
  json_object_set_new(
      j, "timing",
      json_string("seconds: CPU time of the pinned thread (CLOCK_THREAD_CPUTIME_ID), "
                  "wall_seconds: wall clock; each the minimum of 5 repetitions (7 below 50 "
                  "ms, 11 below 5 ms; 1 with --quick) in passes over the study; stepper init "
                  "and steps, error evaluation excluded; time ratios within 10% are ties"));
  json_t *rj = json_object();
  json_object_set_new(rj, "method", json_string(S->ref.method));
  json_object_set_new(rj, "accuracy", json_real(S->ref.accuracy));
  json_object_set_new(rj, "grid_h", json_real(ME_T / (double)ME_NREF));
  json_object_set_new(rj, "cached", json_boolean(S->ref.cached));
  json_object_set_new(j, "reference", rj);
  json_t *cj = json_array();
  for (int c = 0; c < S->ncurves; c++) {
    const me_curve *K = &S->curves[c];
    json_t *x = json_object();
    json_object_set_new(x, "method", json_string(me_names[K->meth]));
    json_object_set_new(x, "m", json_integer(K->m));
    json_object_set_new(x, "spec", json_string(K->spec));
    json_object_set_new(x, "unknowns", json_integer(K->unknowns));
    json_object_set_new(x, "unknowns_formula", json_integer(K->formula));
    json_object_set_new(x, "paper_unknowns", json_integer(K->paper));
    json_object_set_new(x, "paper_formula",
                        json_string(K->meth == ME_LOB ? "2md + (m-2)c" : "md + mc"));
    json_array_append_new(cj, x);
  }
  json_object_set_new(j, "configs", cj);
  json_t *pj = json_array();
  for (int i = 0; i < S->npts; i++) {
    json_array_append_new(pj, me_point_json(S, &S->pts[i]));
  }
  json_object_set_new(j, "points", pj);
  json_object_set_new(j, "claims", me_claims_json(S, C));
  json_object_set_new(j, "seconds_total", json_real(total));

  md = me_md(S, id, mline, core, C, total);
  csv = me_csv(S);
  char title[700];
  snprintf(title, sizeof title,
           "triple pendulum (man2020 (54)-(56)), T = 10: LGG, LLG, LLL vs constrained "
           "Lobatto IIIA-IIIB at equal m\\n%s",
           mline);
  body = me_plot_body(S, title);
  if (!md || !csv || !body) {
    vi_set_err(err, sizeof err, "out of memory");
    goto out;
  }
  if (vi_study_write(o->results_dir, id, j, md, csv, err, sizeof err) != 0) {
    goto out;
  }
  status = VI_EXIT_OK;
  if (vi_plot(o->results_dir, id, body, 1500, 700, err, sizeof err) != 0) {
    fprintf(stderr, "vistudy reproduce: %s: %s\n", id, err);
    status = VI_EXIT_FAIL;
  }
  printf("%s: triple pendulum, T = %g, m = %d..%d, %d runs. Claims: (1) LGG more accurate "
         "than LLL at equal m, h: q error %s, energy error %s; (2) LGG cheaper per step "
         "than the Lobatto IIIA-IIIB: unknowns does NOT hold (%d against %d at m = %d), time "
         "per step %s; (3) LGG reaches an error in less time: q %s, energy %s. Pinned core "
         "%d; %.1f s.\n  results: %s/%s.{md,json,csv,svg,png,gp}\n",
         id, ME_T, C->ms[0], C->ms[C->nm - 1], S->npts, C->overall_q1,
         C->overall_e1, S->curves[me_curve_of(S, ME_LGG, C->ms[0])].unknowns,
         S->curves[me_curve_of(S, ME_LOB, C->ms[0])].unknowns, C->ms[0],
         C->overall_2, C->overall_3q, C->overall_3e, core, total,
         o->results_dir, id);
out:
  if (status != VI_EXIT_OK && err[0]) {
    fprintf(stderr, "vistudy reproduce: %s: %s\n", id, err);
  }
  vi_timing_end(&tg);
  json_decref(j);
  free(md);
  free(csv);
  free(body);
  vi_system_free_d(S->sys);
  free(S->Qref);
  free(S->Qrun);
  free(S);
  free(C);
  return status;
}
