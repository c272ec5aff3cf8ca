/* betsch_ggl_figs.c: the figure studies of betsch-ggl §6 (Kinon, Betsch,
 * Schneider, "The GGL variational principle for constrained mechanical
 * systems"; paper ../shared/papers/001_e052de82a54ec15c.txt, reading notes
 * ../shared/papers/notes/betsch-ggl.md) as figure sets (figure.h): the
 * figures are lost (only their captions survive), so every figure is
 * checked through the claims of the text (notes §3: P1-P8, T1-T8, F1-F10,
 * Table 2), each with its measured value and verdict.
 *
 *   betsch-ggl-pendulum       §6.1, Figs 2-5, 8, 11-15, claims P1-P7
 *   betsch-ggl-four-particle  §6.3, Figs 23-27, 31-33, Table 2, F1-F4, F6-F9
 *   betsch-ggl-top            §6.2, Fig 17 and the claims T1, T4-T8
 *
 * The schemes (notes §1.0, the reconstructed Table 1): VI-S = (55)
 * (ggl:scheme=VI-S), VI-A = option A (79) with theta = 1/2, VI-B = option B
 * (82) with theta = 1, vartheta = 1/2, i.e. (83), EM = (84) (em), EM-G =
 * Gonzalez's index-3 scheme (em:variant=gonzalez). The nodes carry each
 * scheme's own velocity v (VI-S: v^n of the step n -> n+1, notes §1.2), so
 * E = p.v - 1/2 v'Mv + V (89), the paper's energy, is the measure energy_v
 * and |G(q) v| is gvv_norm; gv_norm is |G(q) M^-1 p|.
 *
 * Round-off (notes §5 item 19): a quantity is "conserved" or "satisfied"
 * when its largest deviation over a run of N steps is at most
 * BG_ROUNDOFF(N) = 10 eps N times max(1, |I(0)|) (a random walk of eps per
 * step stays far below; a scheme that does not conserve it shows its
 * truncation error, many decades above). */
#include "specs.h"
#include "figure.h"
#include "timing.h"
#include "vistudy.h"

#include <float.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BG_ROUNDOFF(N) (10.0 * DBL_EPSILON * (double)(N))

#define BG_VIS "ggl:scheme=VI-S"
#define BG_VIA "ggl:scheme=VI-A"
#define BG_VIB "ggl:scheme=VI-B"
#define BG_EM "em"
#define BG_EMG "em:variant=gonzalez"

/* ---- services of the predicates ------------------------------------------- */

static const vi_series *bg_find(const vi_series *ss, int ns, const char *label) {
  for (int i = 0; i < ns; i++) {
    if (strcmp(ss[i].label, label) == 0) {
      return &ss[i];
    }
  }
  return NULL;
}

/* The series of the given labels into out; -1 with err when one is missing. */
static int bg_need(const vi_fig_spec *f, const vi_series *ss, int ns, const char *const *labels,
                   int n, const vi_series **out, char *err, size_t errlen) {
  for (int i = 0; i < n; i++) {
    if (!(out[i] = bg_find(ss, ns, labels[i]))) {
      snprintf(err, errlen, "%s: no series '%s'", f->id, labels[i]);
      return -1;
    }
  }
  return 0;
}

static double bg_T(const vi_fig_spec *f, int quick) {
  return quick ? f->T_quick : f->T;
}

/* The steps of curve s over the figure's span. */
static long bg_N(const vi_fig_spec *f, const vi_series *s, int quick) {
  return lround(bg_T(f, quick) / s->h);
}

/* The smallest window minimum and the largest window maximum over the
 * windows ending in [a, b]; a NaN anywhere makes both NaN (a claim must
 * not hold over a node that could not be evaluated). */
static void bg_range(const vi_series *s, double a, double b, double *lo, double *hi) {
  *lo = INFINITY;
  *hi = -INFINITY;
  for (int r = 0; r < s->rows; r++) {
    const double t = vi_fig_at(s, r, 0), x = vi_fig_at(s, r, 1), y = vi_fig_at(s, r, 2);
    if (t < a * (1 - 1e-12) || t > b * (1 + 1e-12)) {
      continue;
    }
    if (x != x || y != y) {
      *lo = *hi = NAN;
      return;
    }
    *lo = x < *lo ? x : *lo;
    *hi = y > *hi ? y : *hi;
  }
}

/* max |value| over the windows ending in [a, b]. */
static double bg_amax(const vi_series *s, double a, double b) {
  double lo, hi;
  bg_range(s, a, b, &lo, &hi);
  return fmax(fabs(lo), fabs(hi));
}

/* A trace that keeps every node (N <= VI_FIG_TRACE_WINDOWS: one window per
 * node, min = max = the node's value): -1 with err otherwise. */
static int bg_every_node(const vi_fig_spec *f, const vi_series *s, int quick, char *err,
                         size_t errlen) {
  if (s->rows != bg_N(f, s, quick) + 1) {
    snprintf(err, errlen, "%s: %s has %d rows, not one per node (%ld)", f->id, s->label, s->rows,
             bg_N(f, s, quick) + 1);
    return -1;
  }
  return 0;
}

/* The period-2 (zig-zag) index of a multiplier's nodal values x_k, k >= 1
 * (node 0 holds a start value): R = mean |x_{k+1} - 2 x_k + x_{k-1}| /
 * mean |x_{k+1} - x_k|. A pure period-2 oscillation (-1)^k a gives R = 2,
 * a smooth sampled curve R = O(omega h) (0.27 for the pendulum at h =
 * 0.05); BG_ZIGZAG, half-way, separates them. */
#define BG_ZIGZAG 1.0
static double bg_zigzag(const vi_series *s) {
  double d1 = 0, d2 = 0;
  int n1 = 0, n2 = 0;
  for (int r = 1; r + 1 < s->rows; r++) {
    const double a = vi_fig_at(s, r - 1, 1), b = vi_fig_at(s, r, 1), c = vi_fig_at(s, r + 1, 1);
    d1 += fabs(c - b);
    n1++;
    if (r >= 2) {
      d2 += fabs(c - 2 * b + a);
      n2++;
    }
  }
  return n1 > 0 && n2 > 0 && d1 > 0 ? (d2 / n2) / (d1 / n1) : NAN;
}

/* "Bounded fluctuations": the largest |change| over the second half of the
 * run at most twice that over the first half, no event. */
static int bg_bounded(const vi_series *s, double T, double *first, double *second) {
  *first = bg_amax(s, 0, T / 2);
  *second = bg_amax(s, T / 2 * (1 + 1e-9), T);
  return !isfinite(s->event_t) && *second <= 2 * *first;
}

/* Append to a claim's measured text. */
static void bg_cat(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void bg_cat(char *buf, size_t len, const char *fmt, ...) {
  const size_t off = strlen(buf);
  if (off + 1 >= len) {
    return;
  }
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf + off, len - off, fmt, ap);
  va_end(ap);
}

/* ==== betsch-ggl-pendulum: §6.1, Figs 2-5, 8, 11-15 ========================== */

/* The paper's run (notes §2.1; metis single_analysis_pendulum): m = l = 1,
 * gravity 9.81 along -e3, q0 = (1,0,0), v0 = (0,1,0) (the system's
 * defaults), h = 0.05, T = 10 (200 steps); --quick: T = 2. */
#define BG_PEN_H 0.05
#define BG_PEN_T 10
#define BG_PEN_TQ 2

static const char bg_pen_why[] =
    "pendulum-3d with the paper's data (m = l = 1, b = -9.81 e3, q0 = (1,0,0), v0 = "
    "(0,1,0)), h = 0.05 and T = 10 as in §6.1 (metis single_analysis_pendulum); schemes VI-S "
    "(55), VI-A (79, theta = 1/2), VI-B (83), EM (84) (notes §1.0); every node kept (200 "
    "steps: one window per node). E = p.v - 1/2 v'Mv + V with each scheme's own v (the "
    "paper's E (89); VI-S's v^n is that of the step n -> n+1); the multipliers stored at the "
    "step end t^{n+1} (notes §4 item 15); velocity constraint both as G(q) M^-1 p (gv_norm) "
    "and G(q) v (gvv_norm): the paper plots G M^-1 p for VI-S and EM and G v for VI-A and VI-B "
    "(notes §3). Round-off: at most 10 eps N max(1, |I(0)|) over N steps. Not expressible "
    "with these figure kinds, so skipped: Fig 6 (the VI-S configuration), Fig 7 (T and V "
    "apart), Fig 9 (the increments E^{n+1} - E^n: the change E - E(0) is traced, and "
    "|increment| <= 2 max |E - E(0)|), Fig 10 (J1, J2: the system has the momentum map Jz "
    "only)";

/* The four schemes' curves of one measure (NAME_SUFFIX, NAME_MEASURE) in
 * panel p_. */
#define BG_PEN_CURVES(m_, p_)                                                                  \
  {"VI-S" m_##_SUFFIX, BG_VIS, BG_PEN_H, m_##_MEASURE, p_},                                    \
  {"VI-A" m_##_SUFFIX, BG_VIA, BG_PEN_H, m_##_MEASURE, p_},                                    \
  {"VI-B" m_##_SUFFIX, BG_VIB, BG_PEN_H, m_##_MEASURE, p_},                                    \
  {"EM" m_##_SUFFIX, BG_EM, BG_PEN_H, m_##_MEASURE, p_}
#define Q1_SUFFIX " q1"
#define Q1_MEASURE "q1"
#define P1_SUFFIX " p1"
#define P1_MEASURE "p1"
#define LAM_SUFFIX " lambda"
#define LAM_MEASURE "lambda1"
#define GAM_SUFFIX " gamma"
#define GAM_MEASURE "gamma1"
#define GV_SUFFIX " G M^-1 p"
#define GV_MEASURE "gv_norm"
#define GVV_SUFFIX " G v"
#define GVV_MEASURE "gvv_norm"
#define NONE_SUFFIX ""
#define NONE_MEASURE NULL

static const char *const bg_pen_schemes[] = {"VI-S", "VI-A", "VI-B", "EM"};

/* The series "SCHEME SUFFIX" of the four schemes. */
static int bg_pen4(const vi_fig_spec *f, const vi_series *ss, int ns, const char *suffix,
                   const vi_series **out, char *err, size_t errlen) {
  char lab[4][64];
  const char *labs[4];
  for (int i = 0; i < 4; i++) {
    snprintf(lab[i], sizeof lab[i], "%s%s", bg_pen_schemes[i], suffix);
    labs[i] = lab[i];
  }
  return bg_need(f, ss, ns, labs, 4, out, err, errlen);
}

/* P1 (Figs 2, 3): "slight deviations between the schemes are visible" in
 * q1 and p1. Read as: the largest spread between two schemes at a node is
 * visible (above 1% of the amplitude) and stays below the amplitude (the
 * same motion, not another one). */
static int claims_pen_fig23(const vi_fig_spec *f, vi_series *ss, int ns, int quick, vi_claim *cl,
                            char *err, size_t errlen) {
  static const char *const sfx[2] = {" q1", " p1"};
  char m[1024] = "";
  int ok = 1;
  for (int c = 0; c < 2; c++) {
    const vi_series *s[4];
    if (bg_pen4(f, ss, ns, sfx[c], s, err, errlen) != 0) {
      return -1;
    }
    double spread = 0, amp = 0;
    for (int i = 0; i < 4; i++) {
      if (bg_every_node(f, s[i], quick, err, errlen) != 0) {
        return -1;
      }
      amp = fmax(amp, bg_amax(s[i], 0, bg_T(f, quick)));
      for (int j = i + 1; j < 4; j++) {
        for (int r = 0; r < s[i]->rows && r < s[j]->rows; r++) {
          const double d = fabs(vi_fig_at(s[i], r, 1) - vi_fig_at(s[j], r, 1));
          spread = d > spread || d != d ? d : spread;
        }
      }
    }
    ok &= spread > 0.01 * amp && spread < amp;
    bg_cat(m, sizeof m, "%s%s: largest spread between two schemes %.3g, amplitude %.3g",
           c ? "; " : "", sfx[c] + 1, spread, amp);
  }
  vi_claim_set(&cl[0], ok,
               "P1 (Figs 2, 3): slight deviations between the schemes are visible in q1 and p1 "
               "(read as: the largest spread between two schemes above 1% of the amplitude and "
               "below the amplitude)",
               "%s", m);
  return 1;
}

/* P2 (Figs 4, 5): "VI-A and VI-B exhibit slight oscillations in lambda and
 * gamma, respectively". The zig-zag index R of each multiplier (bg_zigzag):
 * the text's mapping, and the mapping measured. */
static int claims_pen_fig45(const vi_fig_spec *f, vi_series *ss, int ns, int quick, vi_claim *cl,
                            char *err, size_t errlen) {
  const vi_series *l[4], *g[4];
  if (bg_pen4(f, ss, ns, " lambda", l, err, errlen) != 0 ||
      bg_pen4(f, ss, ns, " gamma", g, err, errlen) != 0) {
    return -1;
  }
  double rl[4], rg[4], gmax[4];
  char m[1024] = "R (lambda, gamma): ";
  for (int i = 0; i < 4; i++) {
    if (bg_every_node(f, l[i], quick, err, errlen) != 0 ||
        bg_every_node(f, g[i], quick, err, errlen) != 0) {
      return -1;
    }
    rl[i] = bg_zigzag(l[i]);
    rg[i] = bg_zigzag(g[i]);
    gmax[i] = bg_amax(g[i], f->curves[0].h / 2, bg_T(f, quick));
    bg_cat(m, sizeof m, "%s%s %.2f, %.2f", i ? "; " : "", bg_pen_schemes[i], rl[i], rg[i]);
  }
  /* The multiplier each of VI-A (1) and VI-B (2) oscillates in. */
  char map[2][64];
  for (int i = 1; i <= 2; i++) {
    const char *w = rl[i] > BG_ZIGZAG && rg[i] > BG_ZIGZAG ? "both"
                    : rl[i] > BG_ZIGZAG                    ? "lambda"
                    : rg[i] > BG_ZIGZAG                    ? "gamma"
                                                           : "neither";
    snprintf(map[i - 1], sizeof map[i - 1], "%s zig-zags in %s", bg_pen_schemes[i], w);
  }
  bg_cat(m, sizeof m, " (pure period 2: 2, smooth: about 0.3; oscillating: R > %g). Measured: %s, %s. "
         "max |gamma| over t > 0: VI-S %.3g, VI-A %.3g, VI-B %.3g, EM %.3g",
         BG_ZIGZAG, map[0], map[1], gmax[0], gmax[1], gmax[2], gmax[3]);
  vi_claim_set(&cl[0], rl[1] > BG_ZIGZAG && rg[2] > BG_ZIGZAG && rl[2] <= BG_ZIGZAG &&
                           rg[1] <= BG_ZIGZAG,
               "P2 (Figs 4, 5): VI-A and VI-B exhibit slight oscillations in lambda and gamma, "
               "respectively (zig-zag index R > 1 in VI-A's lambda and VI-B's gamma, not in the "
               "other multiplier)",
               "%s", m);
  int none = 1;
  for (int i = 0; i < 4; i += 3) {
    none &= rl[i] <= BG_ZIGZAG && rg[i] <= BG_ZIGZAG;
  }
  vi_claim_set(&cl[1],
               none && (rl[1] > BG_ZIGZAG || rg[1] > BG_ZIGZAG) &&
                   (rl[2] > BG_ZIGZAG || rg[2] > BG_ZIGZAG),
               "P2 without its mapping (notes §3.1): each of VI-A and VI-B oscillates (period "
               "2) in one multiplier; VI-S and EM in neither",
               "%s", m);
  return 2;
}

/* P3, P4 (Figs 8, 9): the VIs show bounded fluctuations of E, typical of
 * symplectic methods; EM conserves E to round-off. */
static int claims_pen_fig8(const vi_fig_spec *f, vi_series *ss, int ns, int quick, vi_claim *cl,
                           char *err, size_t errlen) {
  const vi_series *s[4];
  if (bg_pen4(f, ss, ns, "", s, err, errlen) != 0) {
    return -1;
  }
  const double T = bg_T(f, quick);
  char m[1024] = "";
  int ok = 1;
  for (int i = 0; i < 3; i++) {
    double lo, hi, a, b;
    bg_range(s[i], 0, T, &lo, &hi);
    const int bd = bg_bounded(s[i], T, &a, &b);
    const int fl = hi - lo > 1e3 * BG_ROUNDOFF(bg_N(f, s[i], quick)) * fmax(1, fabs(s[i]->I0));
    ok &= bd && fl;
    bg_cat(m, sizeof m, "%s%s: E0 = %.4g, max - min of E = %.3g, max |E - E0| first half %.3g, "
           "second half %.3g", i ? "; " : "", s[i]->label, s[i]->I0, hi - lo, a, b);
  }
  vi_claim_set(&cl[0], ok,
               "P3 (Fig 8): VI-S, VI-A and VI-B show bounded fluctuations of the energy E, "
               "typical of symplectic methods (read as: E varies above round-off, and max |E - "
               "E0| over the second half of the run at most twice that over the first half)",
               "%s", m);
  const long N = bg_N(f, s[3], quick);
  const double tol = BG_ROUNDOFF(N) * fmax(1, fabs(s[3]->I0));
  vi_claim_set(&cl[1], s[3]->amax <= tol && !isfinite(s[3]->event_t),
               "P4 (Figs 8, 9): EM conserves the energy E to round-off",
               "EM: max |E - E0| = %.3g over %ld steps (round-off bound %.2g; the increments "
               "are at most twice it)",
               s[3]->amax, N, tol);
  return 2;
}

/* P5 (Fig 11): all four schemes conserve J3 (98) to round-off. */
static int claims_pen_fig11(const vi_fig_spec *f, vi_series *ss, int ns, int quick, vi_claim *cl,
                            char *err, size_t errlen) {
  const vi_series *s[4];
  if (bg_pen4(f, ss, ns, "", s, err, errlen) != 0) {
    return -1;
  }
  char m[512] = "max |J3 - J3(0)|: ";
  int ok = 1;
  double tol = 0;
  for (int i = 0; i < 4; i++) {
    tol = BG_ROUNDOFF(bg_N(f, s[i], quick)) * fmax(1, fabs(s[i]->I0));
    ok &= s[i]->amax <= tol;
    bg_cat(m, sizeof m, "%s%s %.2g", i ? ", " : "", s[i]->label, s[i]->amax);
  }
  bg_cat(m, sizeof m, " (round-off bound %.2g)", tol);
  vi_claim_set(&cl[0], ok, "P5 (Fig 11): VI-S, VI-A, VI-B and EM conserve J3 to round-off",
               "%s", m);
  return 1;
}

/* P6 (Figs 12, 13): VI-S, VI-B and EM satisfy g(q^n) to round-off; VI-A
 * violates it by design (its constraint holds at q^{n+1/2}, notes §1.3). */
static int claims_pen_fig1213(const vi_fig_spec *f, vi_series *ss, int ns, int quick,
                              vi_claim *cl, char *err, size_t errlen) {
  const vi_series *s[4];
  if (bg_pen4(f, ss, ns, "", s, err, errlen) != 0) {
    return -1;
  }
  const double tol = BG_ROUNDOFF(bg_N(f, s[0], quick));
  vi_claim_set(&cl[0], s[0]->amax <= tol && s[2]->amax <= tol && s[3]->amax <= tol,
               "P6 (Fig 12): VI-S, VI-B and EM satisfy the position constraint g(q^n) = 0 to "
               "round-off",
               "max |g(q^n)|: VI-S %.2g, VI-B %.2g, EM %.2g (round-off bound %.2g)", s[0]->amax,
               s[2]->amax, s[3]->amax, tol);
  double a, b;
  const int bd = bg_bounded(s[1], bg_T(f, quick), &a, &b);
  vi_claim_set(&cl[1], s[1]->amax > 1e3 * tol,
               "P6 (Fig 13): VI-A violates g(q^n) = 0 at the nodes by design",
               "VI-A: max |g(q^n)| = %.3g (first half %.3g, second half %.3g: %s)", s[1]->amax, a,
               b, bd ? "bounded" : "growing");
  return 2;
}

/* P7 (Figs 14, 15): VI-S, VI-B and EM satisfy the velocity constraint, VI-A
 * violates it. The measure the paper plots (notes §3): G M^-1 p for VI-S
 * and EM, G v for VI-A and VI-B; both are reported for every scheme. */
static int claims_pen_fig1415(const vi_fig_spec *f, vi_series *ss, int ns, int quick,
                              vi_claim *cl, char *err, size_t errlen) {
  const vi_series *gv[4], *gvv[4];
  if (bg_pen4(f, ss, ns, " G M^-1 p", gv, err, errlen) != 0 ||
      bg_pen4(f, ss, ns, " G v", gvv, err, errlen) != 0) {
    return -1;
  }
  const double tol = BG_ROUNDOFF(bg_N(f, gv[0], quick));
  char m[1024] = "max |G M^-1 p|, max |G v|: ";
  for (int i = 0; i < 4; i++) {
    bg_cat(m, sizeof m, "%s%s %.2g, %.2g", i ? "; " : "", bg_pen_schemes[i], gv[i]->amax,
           gvv[i]->amax);
  }
  bg_cat(m, sizeof m, " (round-off bound %.2g)", tol);
  vi_claim_set(&cl[0], gv[0]->amax <= tol && gv[3]->amax <= tol && gvv[2]->amax <= tol,
               "P7 (Fig 14): VI-S, VI-B and EM satisfy the velocity constraint to round-off (as "
               "the paper plots it: G M^-1 p for VI-S and EM, G v for VI-B)",
               "%s", m);
  vi_claim_set(&cl[1], gv[1]->amax > 1e3 * tol && gvv[1]->amax > 1e3 * tol,
               "P7 (Fig 15): VI-A violates the velocity constraint (in both measures)", "%s", m);
  return 2;
}

#define BG_PEN_FIG(id_, kind_, claims_, ylabel_, ...)                                          \
  {.id = "betsch-ggl-pendulum-" id_, .kind = kind_, .system = "pendulum-3d", .T = BG_PEN_T,     \
   .T_quick = BG_PEN_TQ, .ylabel = ylabel_, .why = bg_pen_why, .claims = claims_, __VA_ARGS__}

static const vi_fig_spec bg_pen_fig23 =
    BG_PEN_FIG("fig2-3", VI_FIG_TRACE, claims_pen_fig23, "q1(t), p1(t)",
               .curves = {BG_PEN_CURVES(Q1, 0), BG_PEN_CURVES(P1, 1)},
               .panels = {"Fig 2: q1(t)", "Fig 3: p1(t)"});
static const vi_fig_spec bg_pen_fig45 =
    BG_PEN_FIG("fig4-5", VI_FIG_TRACE, claims_pen_fig45, "multiplier at t^{n+1}",
               .curves = {BG_PEN_CURVES(LAM, 0), BG_PEN_CURVES(GAM, 1)},
               .panels = {"Fig 4: lambda(t)", "Fig 5: gamma(t)"});
static const vi_fig_spec bg_pen_fig8 =
    BG_PEN_FIG("fig8", VI_FIG_TRACE, claims_pen_fig8, "E - E(0), E = p.v - v'Mv/2 + V",
               .measure = "energy_v", .curves = {BG_PEN_CURVES(NONE, 0)});
static const vi_fig_spec bg_pen_fig11 =
    BG_PEN_FIG("fig11", VI_FIG_TRACE, claims_pen_fig11, "J3 - J3(0)", .measure = "Jz",
               .curves = {BG_PEN_CURVES(NONE, 0)});
static const vi_fig_spec bg_pen_fig1213 =
    BG_PEN_FIG("fig12-13", VI_FIG_RESIDUAL, claims_pen_fig1213, "|g(q)|", .measure = "g_norm",
               .curves = {BG_PEN_CURVES(NONE, 0)});
static const vi_fig_spec bg_pen_fig1415 =
    BG_PEN_FIG("fig14-15", VI_FIG_RESIDUAL, claims_pen_fig1415, "|G(q) M^-1 p|, |G(q) v|",
               .curves = {BG_PEN_CURVES(GV, 0), BG_PEN_CURVES(GVV, 0)});

static const vi_fig_spec *const bg_pen_figs[] = {&bg_pen_fig23,   &bg_pen_fig45,
                                                 &bg_pen_fig8,    &bg_pen_fig11,
                                                 &bg_pen_fig1213, &bg_pen_fig1415, NULL};

const vi_fig_set vi_betsch_ggl_pendulum = {.figs = bg_pen_figs, .why = bg_pen_why};
