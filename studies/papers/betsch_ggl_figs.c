/* betsch_ggl_figs.c: the figure studies of betsch-ggl §6 (Kinon, Betsch,
 * Schneider, "The GGL variational principle for constrained mechanical
 * systems"; paper ../shared/papers/001_e052de82a54ec15c.txt, reading notes
 * ../shared/papers/notes/betsch-ggl.md) as figure sets (figure.h): the
 * figures are lost (only their captions survive), so every figure is
 * checked through the claims of the text (notes §3: P1-P8, T1-T8, F1-F10,
 * Table 2), each with its measured value and verdict.
 *
 *   betsch-ggl-pendulum       §6.1, Figs 2-15, claims P1-P7
 *   betsch-ggl-four-particle  §6.3, Figs 23-27, 31-33, Table 2, F1-F4, F6-F10
 *                             (F10 across the figures: stability and cost)
 *   betsch-ggl-top            §6.2, Figs 17, 20 and the claims T1, T4-T8, P8
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
 * truncation error, many decades above). The increments I^{n+1} - I^n
 * of Figs 9 and 11 are held to the same bound over the run: "conserved to
 * round-off" is one statement whether its figure draws the change or the
 * increments (a change within the bound has increments within twice it;
 * a per-step bound 10 eps max(1, |I(0)|) would not be the same statement:
 * the energy is evaluated from T and V of size 10 at |E| = 0.5, and its
 * round-off is that of the parts). */
#include "specs.h"
#include "figure.h"
#include "timing.h"
#include "vistudy.h"

#include <float.h>
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
#define BG_BS99 "bs99"

/* ---- services of the predicates ------------------------------------------- */

static double bg_T(const vi_fig_spec *f, int quick) {
  return quick ? f->T_quick : f->T;
}

/* The steps of curve s over the figure's span. */
static long bg_N(const vi_fig_spec *f, const vi_series *s, int quick) {
  return lround(bg_T(f, quick) / s->h);
}

/* A trace that keeps every node (N <= VI_FIG_TRACE_WINDOWS: one window per
 * node, min = max = the node's value; increments: nodes 1..N), or a path
 * that keeps every node: -1 with err otherwise. */
static int bg_every_node(const vi_fig_spec *f, const vi_series *s, int quick, char *err,
                         size_t errlen) {
  const long want =
      bg_N(f, s, quick) + (f->kind != VI_FIG_PATH && f->trace.follow == VI_TRACE_INCREMENT ? 0 : 1);
  if (s->rows != want) {
    snprintf(err, errlen, "%s: %s has %d rows, not one per node (%ld)", f->id, s->label, s->rows,
             want);
    return -1;
  }
  return 0;
}

/* max - min of a trace's values over the whole run. */
static double bg_spread(const vi_series *s, double T) {
  double lo, hi;
  vi_fig_range(s, 0, T, &lo, &hi);
  return hi - lo;
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
    "(notes §3). Fig 6: the path of the mass point (q1-q2 from above, q1-q3 from the side), "
    "the rod from the origin at t = 0 and t = T. Fig 7: T = 1/2 p'M^-1 p (kinetic), V "
    "(potential) and H = T + V (energy) as values, and T_v = 1/2 v'Mv with VI-S's own v "
    "(kinetic_v, metis's T; the paper does not say which it plots). Figs 9 and 11: the "
    "increments I^{n+1} - I^n per step; Fig 10: the values of J1, J2, J3 (Jx, Jy, Jz; only "
    "Jz is a first integral) of every scheme, VI-S first as the paper shows. Round-off: at "
    "most 10 eps N max(1, |I(0)|) over N steps, for the change and the increments alike";

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
  return vi_fig_need(f, ss, ns, labs, 4, out, err, errlen);
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
      amp = fmax(amp, vi_fig_amax(s[i], 0, bg_T(f, quick)));
      for (int j = i + 1; j < 4; j++) {
        for (int r = 0; r < s[i]->rows && r < s[j]->rows; r++) {
          const double d = fabs(vi_fig_at(s[i], r, 1) - vi_fig_at(s[j], r, 1));
          spread = d > spread || d != d ? d : spread;
        }
      }
    }
    ok &= spread > 0.01 * amp && spread < amp;
    vi_claim_cat(m, sizeof m, "%s%s: largest spread between two schemes %.3g, amplitude %.3g",
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
    gmax[i] = vi_fig_amax(g[i], f->curves[0].h / 2, bg_T(f, quick));
    vi_claim_cat(m, sizeof m, "%s%s %.2f, %.2f", i ? "; " : "", bg_pen_schemes[i], rl[i], rg[i]);
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
  vi_claim_cat(m, sizeof m, " (pure period 2: 2, smooth: about 0.3; oscillating: R > %g). Measured: %s, %s. "
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
    vi_fig_range(s[i], 0, T, &lo, &hi);
    const int bd = vi_fig_bounded(s[i], T, &a, &b);
    const int fl = hi - lo > 1e3 * BG_ROUNDOFF(bg_N(f, s[i], quick)) * fmax(1, fabs(s[i]->I0));
    ok &= bd && fl;
    vi_claim_cat(m, sizeof m, "%s%s: E0 = %.4g, max - min of E = %.3g, max |E - E0| first half %.3g, "
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
               "P4 (Fig 8): EM conserves the energy E to round-off",
               "EM: max |E - E0| = %.3g over %ld steps (round-off bound %.2g)", s[3]->amax, N,
               tol);
  return 2;
}

/* The largest increment |I^{n+1} - I^n| of an increments trace within the
 * round-off bound of the run, BG_ROUNDOFF(N) max(1, |I(0)|), for every
 * series s[0..n-1] (Figs 9, 11: conservation to round-off, drawn step by
 * step); the per-step 10 eps max(1, |I(0)|) reported beside it. */
static int bg_increments(const vi_fig_spec *f, const vi_series *const *s, int n, int quick,
                         vi_claim *cl, const char *text, char *err, size_t errlen) {
  char m[1024] = "max |I^{n+1} - I^n|: ";
  int ok = 1;
  double tol = 0;
  for (int i = 0; i < n; i++) {
    if (bg_every_node(f, s[i], quick, err, errlen) != 0) {
      return -1;
    }
    tol = BG_ROUNDOFF(bg_N(f, s[i], quick)) * fmax(1, fabs(s[i]->I0));
    ok &= s[i]->amax <= tol && !isfinite(s[i]->event_t);
    vi_claim_cat(m, sizeof m, "%s%s %.2g", i ? ", " : "", s[i]->label, s[i]->amax);
  }
  vi_claim_cat(m, sizeof m, " over %ld steps (round-off bound %.2g, as for the change I - I(0); "
         "10 eps max(1, |I(0)|) = %.2g)", bg_N(f, s[0], quick), tol,
         BG_ROUNDOFF(1) * fmax(1, fabs(s[n - 1]->I0)));
  vi_claim_set(&cl[0], ok, text, "%s", m);
  return 1;
}

/* P4 (Fig 9): EM's energy increments E^{n+1} - E^n at round-off. */
static int claims_pen_fig9(const vi_fig_spec *f, vi_series *ss, int ns, int quick, vi_claim *cl,
                           char *err, size_t errlen) {
  static const char *const lab[] = {"EM"};
  const vi_series *s[1];
  if (vi_fig_need(f, ss, ns, lab, 1, s, err, errlen) != 0) {
    return -1;
  }
  return bg_increments(f, s, 1, quick, cl,
                       "P4 (Fig 9): EM conserves the energy E to round-off: its increments "
                       "E^{n+1} - E^n per step",
                       err, errlen);
}

/* Fig 6: the VI-S path of the mass point, q1-q2 (from above) and q1-q3
 * (from the side) at the same nodes: the text says only that it shows
 * the motion from q0 to q(T); what the drawn path must satisfy is the
 * constraint (93), |q| = l, at every node (P6 for VI-S). */
static int claims_pen_fig6(const vi_fig_spec *f, vi_series *ss, int ns, int quick, vi_claim *cl,
                           char *err, size_t errlen) {
  static const char *const lab[] = {"VI-S top view", "VI-S side view"};
  const vi_series *s[2];
  if (vi_fig_need(f, ss, ns, lab, 2, s, err, errlen) != 0 ||
      bg_every_node(f, s[0], quick, err, errlen) != 0 ||
      bg_every_node(f, s[1], quick, err, errlen) != 0) {
    return -1;
  }
  double dev = 0;
  for (int r = 0; r < s[0]->rows; r++) {
    const double q1 = vi_fig_at(s[0], r, 1), q2 = vi_fig_at(s[0], r, 2),
                 q3 = vi_fig_at(s[1], r, 2);
    const double d = fabs(sqrt(q1 * q1 + q2 * q2 + q3 * q3) - 1) +
                     fabs(q1 - vi_fig_at(s[1], r, 1)); /* the same node in both views */
    dev = d > dev || d != d ? d : dev;
  }
  const int e = s[0]->rows - 1;
  const double tol = BG_ROUNDOFF(bg_N(f, s[0], quick));
  vi_claim_set(&cl[0], dev <= tol,
               "Fig 6 (the text: the motion from q0 to q(T)): the VI-S path of the mass point "
               "lies on the sphere |q| = l = 1 at every node",
               "max ||q| - 1| = %.2g over %d nodes (round-off bound %.2g); q(0) = (%.4g, %.4g, "
               "%.4g), q(%g) = (%.4f, %.4f, %.4f)",
               dev, s[0]->rows, tol, vi_fig_at(s[0], 0, 1), vi_fig_at(s[0], 0, 2),
               vi_fig_at(s[1], 0, 2), vi_fig_at(s[0], e, 0), vi_fig_at(s[0], e, 1),
               vi_fig_at(s[0], e, 2), vi_fig_at(s[1], e, 2));
  return 1;
}

/* Fig 7: T, V and H of VI-S as values. The text only names them; what the
 * figure must show: H = T + V at every node (to round-off: the three
 * curves are one decomposition), and T and V exchanging energy while H
 * fluctuates less than either (read: the spread max - min of T and of V
 * each larger than that of H). */
static int claims_pen_fig7(const vi_fig_spec *f, vi_series *ss, int ns, int quick, vi_claim *cl,
                           char *err, size_t errlen) {
  static const char *const lab[] = {"T", "V", "H", "T_v"};
  const vi_series *s[4];
  if (vi_fig_need(f, ss, ns, lab, 4, s, err, errlen) != 0) {
    return -1;
  }
  double sum = 0, scale = 1, dv = 0;
  for (int i = 0; i < 4; i++) {
    if (bg_every_node(f, s[i], quick, err, errlen) != 0) {
      return -1;
    }
  }
  for (int r = 0; r < s[0]->rows; r++) {
    const double T = vi_fig_at(s[0], r, 1), V = vi_fig_at(s[1], r, 1), H = vi_fig_at(s[2], r, 1),
                 Tv = vi_fig_at(s[3], r, 1);
    const double d = fabs(T + V - H);
    sum = d > sum || d != d ? d : sum;
    scale = fmax(scale, fmax(fabs(T), fabs(V)));
    dv = fabs(Tv - T) > dv || Tv != Tv ? fabs(Tv - T) : dv;
  }
  const double tol = BG_ROUNDOFF(1) * scale, Tq = bg_T(f, quick);
  vi_claim_set(&cl[0], sum <= tol,
               "Fig 7: the Hamiltonian H drawn is T + V (T = 1/2 p'M^-1 p) at every node, to "
               "round-off",
               "max |T + V - H| = %.2g over %d nodes (round-off bound %.2g)", sum, s[0]->rows,
               tol);
  const double rT = bg_spread(s[0], Tq), rV = bg_spread(s[1], Tq), rH = bg_spread(s[2], Tq);
  vi_claim_set(&cl[1], rT > rH && rV > rH,
               "Fig 7 (what it shows; the text only names T, V, H): VI-S's T and V exchange "
               "energy while H fluctuates less (max - min of T and of V each above that of H)",
               "max - min: T %.3g, V %.3g, H %.3g; T_v = 1/2 v'Mv with VI-S's own v (metis's T) "
               "differs from T by up to %.3g",
               rT, rV, rH, dv);
  return 2;
}

/* Fig 10: the components of the angular momentum q x p as values, VI-S
 * (the paper's figure) and the other schemes. P5's second part: J1 and J2
 * vary (no symmetry keeps them: gravity's torque about the horizontal
 * axes), J3 is conserved; and "the other schemes yield only small
 * deviations from these results" (read: the largest deviation of each
 * scheme's J1, J2 from VI-S's at a node at most a tenth of VI-S's
 * amplitude max |J_i|). */
static int claims_pen_fig10(const vi_fig_spec *f, vi_series *ss, int ns, int quick,
                            vi_claim *cl, char *err, size_t errlen) {
  static const char *const comp[3] = {" J1", " J2", " J3"};
  const vi_series *s[4][3];
  for (int c = 0; c < 3; c++) {
    const vi_series *x[4];
    if (bg_pen4(f, ss, ns, comp[c], x, err, errlen) != 0) {
      return -1;
    }
    for (int i = 0; i < 4; i++) {
      if (bg_every_node(f, x[i], quick, err, errlen) != 0) {
        return -1;
      }
      s[i][c] = x[i];
    }
  }
  const double Tq = bg_T(f, quick);
  const long N = bg_N(f, s[0][2], quick);
  const double tol = BG_ROUNDOFF(N) * fmax(1, fabs(s[0][2]->I0));
  const double r1 = bg_spread(s[0][0], Tq), r2 = bg_spread(s[0][1], Tq),
               r3 = bg_spread(s[0][2], Tq);
  vi_claim_set(&cl[0], r1 > 1e3 * tol && r2 > 1e3 * tol && r3 <= tol,
               "P5 (Fig 10): J1 and J2 vary along VI-S's run (not conserved), J3 is conserved",
               "VI-S max - min: J1 %.3g, J2 %.3g, J3 %.2g (J3(0) = %.6g; round-off bound %.2g)",
               r1, r2, r3, s[0][2]->I0, tol);
  char m[1024] = "largest deviation from VI-S in J1, J2 / VI-S's amplitude: ";
  int ok = 1;
  for (int c = 0; c < 2; c++) {
    const double amp = vi_fig_amax(s[0][c], 0, Tq);
    for (int i = 1; i < 4; i++) {
      double dev = 0;
      for (int r = 0; r < s[0][c]->rows && r < s[i][c]->rows; r++) {
        const double d = fabs(vi_fig_at(s[i][c], r, 1) - vi_fig_at(s[0][c], r, 1));
        dev = d > dev || d != d ? d : dev;
      }
      ok &= dev <= 0.1 * amp;
      vi_claim_cat(m, sizeof m, "%s%s%s %.3g", c || i > 1 ? ", " : "", bg_pen_schemes[i], comp[c],
             dev / amp);
    }
  }
  vi_claim_set(&cl[1], ok,
               "P5 (Fig 10): the other schemes yield only small deviations from VI-S's J1, J2 "
               "(read: at most a tenth of VI-S's amplitude max |J_i| at every node)",
               "%s", m);
  return 2;
}

/* A first integral conserved to round-off by every series s[0..n-1]: its
 * max |I - I(0)| within BG_ROUNDOFF(N) max(1, |I(0)|), and (events) no run
 * ended early; the message "PREFIX label amax, ... (round-off bound B
 * SUFFIX)". P5, T5 and F2 are this claim. */
static int bg_conserve(const vi_fig_spec *f, const vi_series *const *s, int n, int quick,
                       int events, const char *prefix, const char *suffix, vi_claim *cl,
                       const char *text) {
  char m[1024];
  snprintf(m, sizeof m, "%s", prefix);
  int ok = 1;
  double tol = 0;
  for (int i = 0; i < n; i++) {
    tol = BG_ROUNDOFF(bg_N(f, s[i], quick)) * fmax(1, fabs(s[i]->I0));
    ok &= s[i]->amax <= tol && !(events && isfinite(s[i]->event_t));
    vi_claim_cat(m, sizeof m, "%s%s %.2g", i ? ", " : "", s[i]->label, s[i]->amax);
  }
  vi_claim_cat(m, sizeof m, " (round-off bound %.2g%s)", tol, suffix);
  vi_claim_set(&cl[0], ok, text, "%s", m);
  return 1;
}

/* P5 (Fig 11): all four schemes conserve J3 (98) to round-off: the
 * increments J3^{n+1} - J3^n the figure draws, step by step. */
static int claims_pen_fig11(const vi_fig_spec *f, vi_series *ss, int ns, int quick, vi_claim *cl,
                            char *err, size_t errlen) {
  const vi_series *s[4];
  if (bg_pen4(f, ss, ns, "", s, err, errlen) != 0) {
    return -1;
  }
  return bg_increments(f, s, 4, quick, cl,
                       "P5 (Fig 11): VI-S, VI-A, VI-B and EM conserve J3 to round-off: their "
                       "increments J3^{n+1} - J3^n per step",
                       err, errlen);
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
  const int bd = vi_fig_bounded(s[1], bg_T(f, quick), &a, &b);
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
    vi_claim_cat(m, sizeof m, "%s%s %.2g, %.2g", i ? "; " : "", bg_pen_schemes[i], gv[i]->amax,
           gvv[i]->amax);
  }
  vi_claim_cat(m, sizeof m, " (round-off bound %.2g)", tol);
  vi_claim_set(&cl[0], gv[0]->amax <= tol && gv[3]->amax <= tol && gvv[2]->amax <= tol,
               "P7 (Fig 14): VI-S, VI-B and EM satisfy the velocity constraint to round-off (as "
               "the paper plots it: G M^-1 p for VI-S and EM, G v for VI-B)",
               "%s", m);
  vi_claim_set(&cl[1], gv[1]->amax > 1e3 * tol && gvv[1]->amax > 1e3 * tol,
               "P7 (Fig 15): VI-A violates the velocity constraint (in both measures)", "%s", m);
  return 2;
}

/* SI units: the paper's m = l = 1 and b = -9.81 e3 (betsch-ggl §6.1). The
 * constraint (93) is scaled by l^2, so |g| has no unit and G = q'/l^2 is in
 * 1/m; the multipliers' units are left out of the axis titles. */
#define BG_PEN_FIG(id_, kind_, claims_, ylabel_, ...)                                    \
  {                                                                                      \
    .id = "betsch-ggl-pendulum-" id_, .kind = kind_, .system = "pendulum-3d",            \
    .T = BG_PEN_T, .T_quick = BG_PEN_TQ, .ylabel = ylabel_, .tlabel = "time t [s]",      \
    .why = bg_pen_why, .claims = claims_, __VA_ARGS__                                    \
  }

static const vi_fig_spec bg_pen_fig23 =
    BG_PEN_FIG("fig2-3", VI_FIG_TRACE, claims_pen_fig23,
               "position q1(t) [m], momentum p1(t) [kg m/s]",
               .curves = {BG_PEN_CURVES(Q1, 0), BG_PEN_CURVES(P1, 1)},
               .panels = {"Fig 2: q1(t)", "Fig 3: p1(t)"});
static const vi_fig_spec bg_pen_fig45 =
    BG_PEN_FIG("fig4-5", VI_FIG_TRACE, claims_pen_fig45, "Lagrange multiplier at t^{n+1}",
               .curves = {BG_PEN_CURVES(LAM, 0), BG_PEN_CURVES(GAM, 1)},
               .panels = {"Fig 4: lambda(t)", "Fig 5: gamma(t)"});
static const vi_fig_spec bg_pen_fig6 =
    BG_PEN_FIG("fig6", VI_FIG_PATH, claims_pen_fig6, "the mass point's path",
               .path = {.x = "q1", .rod = 1, .unit = "[m]"},
               .curves = {{"VI-S top view", BG_VIS, BG_PEN_H, "q2", 0},
                          {"VI-S side view", BG_VIS, BG_PEN_H, "q3", 1}},
               .panels = {"from above (q1, q2)", "from the side (q1, q3)"});
static const vi_fig_spec bg_pen_fig7 =
    BG_PEN_FIG("fig7", VI_FIG_TRACE, claims_pen_fig7, "energy [J] (VI-S)",
               .trace = {.follow = VI_TRACE_VALUE},
               .curves = {{"T", BG_VIS, BG_PEN_H, "kinetic", 0},
                          {"V", BG_VIS, BG_PEN_H, "potential", 0},
                          {"H", BG_VIS, BG_PEN_H, "energy", 0},
                          {"T_v", BG_VIS, BG_PEN_H, "kinetic_v", 0}});
static const vi_fig_spec bg_pen_fig8 =
    BG_PEN_FIG("fig8", VI_FIG_TRACE, claims_pen_fig8,
               "energy error E - E(0) [J], E = p.v - v'Mv/2 + V", .measure = "energy_v",
               .curves = {BG_PEN_CURVES(NONE, 0)});
static const vi_fig_spec bg_pen_fig9 = BG_PEN_FIG(
    "fig9", VI_FIG_TRACE, claims_pen_fig9, "energy increment E^{n+1} - E^n [J] (EM)",
    .measure = "energy_v", .trace = {.follow = VI_TRACE_INCREMENT},
    .curves = {{"EM", BG_EM, BG_PEN_H, NULL, 0}});
static const vi_fig_spec bg_pen_fig10 = BG_PEN_FIG(
    "fig10", VI_FIG_TRACE, claims_pen_fig10,
    "angular momentum J_i = (q x p)_i [kg m^2/s]", .trace = {.follow = VI_TRACE_VALUE},
    .curves = {{"VI-S J1", BG_VIS, BG_PEN_H, "Jx", 0},
               {"VI-S J2", BG_VIS, BG_PEN_H, "Jy", 0},
               {"VI-S J3", BG_VIS, BG_PEN_H, "Jz", 0},
               {"VI-A J1", BG_VIA, BG_PEN_H, "Jx", 1},
               {"VI-A J2", BG_VIA, BG_PEN_H, "Jy", 1},
               {"VI-A J3", BG_VIA, BG_PEN_H, "Jz", 1},
               {"VI-B J1", BG_VIB, BG_PEN_H, "Jx", 2},
               {"VI-B J2", BG_VIB, BG_PEN_H, "Jy", 2},
               {"VI-B J3", BG_VIB, BG_PEN_H, "Jz", 2},
               {"EM J1", BG_EM, BG_PEN_H, "Jx", 3},
               {"EM J2", BG_EM, BG_PEN_H, "Jy", 3},
               {"EM J3", BG_EM, BG_PEN_H, "Jz", 3}},
    .panels = {"Fig 10: VI-S", "VI-A", "VI-B", "EM"});
static const vi_fig_spec bg_pen_fig11 = BG_PEN_FIG(
    "fig11", VI_FIG_TRACE, claims_pen_fig11, "increment J3^{n+1} - J3^n [kg m^2/s]",
    .measure = "Jz", .trace = {.follow = VI_TRACE_INCREMENT},
    .curves = {BG_PEN_CURVES(NONE, 0)});
static const vi_fig_spec bg_pen_fig1213 =
    BG_PEN_FIG("fig12-13", VI_FIG_RESIDUAL, claims_pen_fig1213,
               "position constraint |g(q)| (no unit)", .measure = "g_norm",
               .curves = {BG_PEN_CURVES(NONE, 0)});
static const vi_fig_spec bg_pen_fig1415 =
    BG_PEN_FIG("fig14-15", VI_FIG_RESIDUAL, claims_pen_fig1415,
               "velocity constraint |G(q) M^-1 p|, |G(q) v| [1/s]",
               .curves = {BG_PEN_CURVES(GV, 0), BG_PEN_CURVES(GVV, 0)});

static const vi_fig_spec *const bg_pen_figs[] = {
    &bg_pen_fig23, &bg_pen_fig45,  &bg_pen_fig6,    &bg_pen_fig7,    &bg_pen_fig8,
    &bg_pen_fig9,  &bg_pen_fig10,  &bg_pen_fig11,   &bg_pen_fig1213, &bg_pen_fig1415, NULL};

const vi_fig_set vi_betsch_ggl_pendulum = {.figs = bg_pen_figs, .why = bg_pen_why};

/* ==== betsch-ggl-four-particle: §6.3, Figs 23-27, 31-33, Table 2 ============= */

/* The paper's data (notes §2.3; (115)-(127)): masses (1, 3, 2.3, 1.7), k13 =
 * 50, k24 = 500, all lengths 1, the unit square at rest but v4 = (0, 0,
 * 2/1.7) (the system's defaults). The base run h = 0.01, T = 10. */
#define BG_FP_H 0.01
#define BG_FP_T 10

static const char bg_fp_why[] =
    "four-particle with the paper's data (127) (masses 1, 3, 2.3, 1.7; k13 = 50, k24 = 500; "
    "lengths 1; v4 = (0, 0, 2/1.7)); base run h = 0.01, T = 10 (metis single_analysis_4Psystem); "
    "EM and EM-G with the closed-form discrete gradient of (126) (no singular case, so no "
    "first-step spike: notes §5 item 7). Stability (notes §4 item 9): E = p.v - 1/2 v'Mv + V "
    "(energy_v) relative to |E0|; a run ends as an event at the first node where |E - E0| > 10 "
    "|E0|, E is not finite, or Newton fails (trace.breakdown = 10). Fig 31: h = 0.01, T = 10; "
    "the text's 'h <= 0.04 to T = 1000': h = 0.04, T = 1000 (25,000 steps per scheme); Fig 32: "
    "h = 0.05, T = 100; Fig 33: h = 0.25, T = 100 (metis's stability input), and EM at h = "
    "0.675 (148 steps, to t = 99.9 as metis's t = 0:h:T). Newton: vistudy's built-in Newton "
    "(a fresh analytic Jacobian per iterate; converged when the weighted step |dx_i| / (rtol "
    "(|x_i| + u_i)) with rtol = 100 eps, or its contraction estimate, is at most 1; at most 50 "
    "iterations), not metis's absolute test max(|r|, |dx|) <= 1e-9 with r before the update "
    "(notes §1.7): iteration counts are ours as measured. Guesses (Table 2): simple = the "
    "previous step's unknowns, advanced = the same with q^{n+1} = q^n + h v (notes §1.7)";

/* F1 (Figs 23, 24): EM-G does not satisfy the secondary constraint G M^-1 p
 * = 0; EM does. */
static int claims_fp_fig2324(const vi_fig_spec *f, vi_series *ss, int ns, int quick,
                             vi_claim *cl, char *err, size_t errlen) {
  static const char *const lab[] = {"EM-G", "EM"};
  const vi_series *s[2];
  if (vi_fig_need(f, ss, ns, lab, 2, s, err, errlen) != 0) {
    return -1;
  }
  const double tol = BG_ROUNDOFF(bg_N(f, s[0], quick));
  vi_claim_set(&cl[0], s[0]->amax > 1e3 * tol && s[1]->amax <= tol,
               "F1 (Figs 23, 24): EM-G does not satisfy the secondary (velocity) constraints; "
               "EM does",
               "max |G M^-1 p|: EM-G %.3g, EM %.2g (round-off bound %.2g; notes: 1.73e-5 and "
               "3.9e-16)",
               s[0]->amax, s[1]->amax, tol);
  return 1;
}

/* F2 (Figs 25-27): EM and EM-G are comparable in energy and momentum
 * conservation: both conserve E, J (121) and L (118) to round-off. */
static int bg_fp_conserve(const vi_fig_spec *f, vi_series *ss, int ns, int quick, vi_claim *cl,
                          const char *text) {
  const vi_series *s[VI_FIG_MAXCURVES];
  for (int i = 0; i < ns && i < VI_FIG_MAXCURVES; i++) {
    s[i] = &ss[i];
  }
  return bg_conserve(f, s, ns < VI_FIG_MAXCURVES ? ns : VI_FIG_MAXCURVES, quick, 1,
                     "max |I - I(0)|: ", "", cl, text);
}

static int claims_fp_fig25(const vi_fig_spec *f, vi_series *ss, int ns, int quick, vi_claim *cl,
                           char *err, size_t errlen) {
  (void)err;
  (void)errlen;
  return bg_fp_conserve(f, ss, ns, quick, cl,
                        "F2 (Fig 25): EM and EM-G are comparable in energy conservation: both "
                        "conserve E to round-off");
}

static int claims_fp_fig2627(const vi_fig_spec *f, vi_series *ss, int ns, int quick,
                             vi_claim *cl, char *err, size_t errlen) {
  (void)err;
  (void)errlen;
  return bg_fp_conserve(f, ss, ns, quick, cl,
                        "F2 (Figs 26, 27): EM and EM-G are comparable in angular-momentum "
                        "conservation: both conserve J1, J2, J3 (121) to round-off");
}

static int claims_fp_L(const vi_fig_spec *f, vi_series *ss, int ns, int quick, vi_claim *cl,
                       char *err, size_t errlen) {
  (void)err;
  (void)errlen;
  return bg_fp_conserve(f, ss, ns, quick, cl,
                        "EM and EM-G conserve the total linear momentum L (118) to round-off "
                        "(§6.3 text on the momentum maps; no figure)");
}

/* The event of a stability curve as text. */
static void bg_event_text(const vi_series *s, char *buf, size_t len) {
  if (isfinite(s->event_t)) {
    snprintf(buf, len, "%s at t = %.4g", s->event, s->event_t);
  } else {
    snprintf(buf, len, "stable to T, max |E - E0| / |E0| = %.2g", s->amax);
  }
}

/* Stable: no event (|E - E0| <= 10 |E0|, finite, Newton converged) to T. */
static int bg_stable(const vi_series *s) {
  return !isfinite(s->event_t) && isfinite(s->amax);
}

static void bg_events(const vi_series *ss, int ns, char *m, size_t len) {
  for (int i = 0; i < ns; i++) {
    char ev[240];
    bg_event_text(&ss[i], ev, sizeof ev);
    vi_claim_cat(m, len, "%s%s: %s", i ? "; " : "", ss[i].label, ev);
  }
}

/* F6 (Fig 31): at h = 0.01 all schemes are stable. */
static int claims_fp_fig31(const vi_fig_spec *f, vi_series *ss, int ns, int quick, vi_claim *cl,
                           char *err, size_t errlen) {
  (void)err;
  (void)errlen;
  char m[1024] = "";
  int ok = 1;
  for (int i = 0; i < ns; i++) {
    ok &= bg_stable(&ss[i]);
  }
  bg_events(ss, ns, m, sizeof m);
  vi_claim_set(&cl[0], ok, "F6 (Fig 31): at h = 0.01 all schemes are stable", "T = %g: %s",
               bg_T(f, quick), m);
  return 1;
}

/* F6: "at h <= 0.04 all schemes stay stable at least until T = 1000". */
static int claims_fp_h004(const vi_fig_spec *f, vi_series *ss, int ns, int quick, vi_claim *cl,
                          char *err, size_t errlen) {
  (void)err;
  (void)errlen;
  char m[1024] = "";
  int ok = 1;
  for (int i = 0; i < ns; i++) {
    ok &= bg_stable(&ss[i]);
  }
  bg_events(ss, ns, m, sizeof m);
  vi_claim_set(&cl[0], ok,
               "F6: at h <= 0.04 all schemes stay stable at least until T = 1000 (run: h = "
               "0.04)",
               "T = %g: %s", bg_T(f, quick), m);
  return 1;
}

/* F7 (Fig 32): at h = 0.05 VI-S and VI-B show an energy blow-up (so VI-A,
 * EM and EM-G do not). The onset time is not in the paper. */
static int claims_fp_fig32(const vi_fig_spec *f, vi_series *ss, int ns, int quick, vi_claim *cl,
                           char *err, size_t errlen) {
  static const char *const lab[] = {"VI-S", "VI-A", "VI-B", "EM", "EM-G"};
  const vi_series *s[5];
  if (vi_fig_need(f, ss, ns, lab, 5, s, err, errlen) != 0) {
    return -1;
  }
  char m[1024] = "";
  bg_events(ss, ns, m, sizeof m);
  vi_claim_set(&cl[0], !bg_stable(s[0]) && !bg_stable(s[2]),
               "F7 (Fig 32): at h = 0.05 VI-S and VI-B show an energy blow-up", "%s", m);
  vi_claim_set(&cl[1], bg_stable(s[1]) && bg_stable(s[3]) && bg_stable(s[4]),
               "F7 (Fig 32, implied): at h = 0.05 VI-A, EM and EM-G stay stable", "T = %g: %s",
               bg_T(f, quick), m);
  return 2;
}

/* F8 (Fig 33): at h = 0.25 VI-A blows up at about t = 55 (read: the event
 * within 20% of 55), EM stays stable; F9: EM stable even at h = 0.675. */
#define BG_F8_T 55
static int claims_fp_fig33(const vi_fig_spec *f, vi_series *ss, int ns, int quick, vi_claim *cl,
                           char *err, size_t errlen) {
  static const char *const lab[] = {"VI-A h=0.25", "EM h=0.25", "EM h=0.675", "EM-G h=0.25",
                                    "EM-G h=0.675"};
  const vi_series *s[5];
  if (vi_fig_need(f, ss, ns, lab, 5, s, err, errlen) != 0) {
    return -1;
  }
  char m[1024] = "";
  bg_events(ss, ns, m, sizeof m);
  const double te = s[0]->event_t;
  vi_claim_set(&cl[0],
               isfinite(te) && fabs(te - BG_F8_T) <= 0.2 * BG_F8_T && bg_stable(s[1]),
               "F8 (Fig 33): at h = 0.25 VI-A shows an energy blow-up at about t = 55 (read: "
               "within 20%), EM stays stable",
               "%s", m);
  vi_claim_set(&cl[1], bg_stable(s[2]),
               "F9: EM stays stable even at h = 0.675 (148 steps, to t = 99.9)", "%s", m);
  return 2;
}

/* ---- Table 2: Newton iterations per step and run time ----------------------- */

/* The mean Newton iterations per step of a newton_iters trace that keeps
 * every node: rows 1..N (node 0 holds init's, VI-S's look-ahead). */
static double bg_mean_newton(const vi_series *s) {
  double sum = 0;
  for (int r = 1; r < s->rows; r++) {
    sum += vi_fig_at(s, r, 1);
  }
  return s->rows > 1 ? sum / (s->rows - 1) : NAN;
}

/* One timed run of a method (init and N steps, no observer) on the shared
 * timing service (timing.h): CPU time of the calling thread. */
typedef struct bg_trun {
  const char *system, *method;
  double h;
  long N;
  vi_timed tm;
  int ok;
} bg_trun;

static int bg_time_once(const bg_trun *R, vi_time *t, char *err, size_t errlen) {
  const vi_system_type_d *type = vi_system_find_d(R->system, err, errlen);
  vi_system_d *sys = NULL;
  vi_stepper_d *st = NULL;
  vi_node_d *nd = NULL;
  int rc = type ? vi_system_alloc_d(type, 0, NULL, &sys, err, errlen) : VI_EINVAL;
  if (rc == VI_OK) {
    rc = vi_stepper_alloc_d(R->method, sys, &st, err, errlen);
  }
  if (rc == VI_OK) {
    nd = vi_node_alloc_d(vi_stepper_dims_d(st));
    rc = nd ? VI_OK : VI_ENOMEM;
  }
  if (rc == VI_OK) {
    vi_time_start(t);
    rc = vi_integrate_d(st, NULL, R->h, R->N, sys->q0, sys->p0, nd, NULL, NULL, NULL);
    vi_time_stop(t);
    if (rc != VI_OK) {
      snprintf(err, errlen, "%s: %s", R->method, vi_strerror(rc));
    }
  }
  free(nd);
  vi_stepper_free_d(st);
  vi_system_free_d(sys);
  return rc;
}

static vi_timed *bg_trun_timed(void *ctx, int i) {
  bg_trun *R = &((bg_trun *)ctx)[i];
  return R->ok ? &R->tm : NULL;
}

static int bg_trun_again(void *ctx, int i, vi_time *t) {
  char err[256];
  return bg_time_once(&((bg_trun *)ctx)[i], t, err, sizeof err) == VI_OK ? 0 : -1;
}

/* The repetitions: 7 below 5 ms, 5 below 50 ms, 3 otherwise (as the
 * work-precision figures), in passes; the minimum kept. */
static const vi_reps_policy bg_reps = {7, 5, 3};

/* Table 2 and F3, F4: the mean Newton iterations per step of the five
 * schemes with the simple and the advanced guess (the traces), and the run
 * time t_comp of each relative to VI-S with the same guess, timed here. */
static int claims_fp_table2(const vi_fig_spec *f, vi_series *ss, int ns, int quick, vi_claim *cl,
                            char *err, size_t errlen) {
  static const char *const sch[] = {"VI-S", "VI-A", "VI-B", "EM", "EM-G"};
  if (ns != 10) {
    snprintf(err, errlen, "%s: 10 curves expected", f->id);
    return -1;
  }
  bg_trun R[10];
  double it[10];
  for (int i = 0; i < 10; i++) {
    if (bg_every_node(f, &ss[i], quick, err, errlen) != 0) {
      return -1;
    }
    it[i] = bg_mean_newton(&ss[i]);
    R[i] = (bg_trun){.system = f->system, .method = ss[i].method, .h = ss[i].h,
                     .N = bg_N(f, &ss[i], quick)};
  }
  vi_timing tg;
  vi_timing_begin(&tg);
  int rc = 0;
  for (int i = 0; rc == 0 && i < 10; i++) {
    vi_time t;
    rc = bg_time_once(&R[i], &t, err, errlen);
    if (rc == VI_OK) {
      vi_timed_first(&R[i].tm, &t);
      R[i].ok = 1;
    }
  }
  if (rc == 0) {
    vi_repeat_in_passes(R, 10, bg_trun_timed, bg_trun_again, &bg_reps, quick, f->id, 0);
  }
  vi_timing_end(&tg);
  if (rc != 0) {
    return -1;
  }
  /* The times are the series' data (the figure's JSON, F10 across the
   * figures), not only the claims' text. */
  for (int i = 0; i < 10; i++) {
    ss[i].seconds = R[i].tm.seconds;
  }
  /* Curves 2k (simple) and 2k+1 (advanced) are scheme k. */
  char m[1024] = "";
  int f4 = 1, f3 = 1;
  for (int k = 0; k < 5; k++) {
    const double rs = R[2 * k].tm.seconds / R[0].tm.seconds,
                 ra = R[2 * k + 1].tm.seconds / R[1].tm.seconds;
    f4 &= it[2 * k + 1] < it[2 * k];
    if (k != 3) {
      f3 &= R[6].tm.seconds > R[2 * k].tm.seconds && R[7].tm.seconds > R[2 * k + 1].tm.seconds;
    }
    vi_claim_cat(m, sizeof m, "%s%s: n_iter %.2f / %.2f, t_comp %.2f / %.2f", k ? "; " : "", sch[k],
           it[2 * k], it[2 * k + 1], rs, ra);
  }
  vi_claim_cat(m, sizeof m, " (simple / advanced guess; t_comp relative to VI-S with the same guess; "
         "VI-S simple %.3g s, advanced %.3g s CPU, minimum of %d repetitions%s; %s)",
         R[0].tm.seconds, R[1].tm.seconds, R[0].tm.reps,
         tg.core >= 0 ? ", pinned" : ", not pinned", tg.line);
  vi_claim_set(&cl[0], f4,
               "F4 (Table 2): an advanced initial guess decreases the number of Newton "
               "iterations (mean per step, every scheme)",
               "%s", m);
  vi_claim_set(&cl[1], f3,
               "F3 (Table 2): EM causes the largest numerical effort (the largest t_comp of the "
               "five schemes, with either guess)",
               "%s", m);
  return 2;
}

#define BG_FP_FIG(id_, kind_, claims_, T_, Tq_, ylabel_, ...)                                  \
  {.id = "betsch-ggl-four-particle-" id_, .kind = kind_, .system = "four-particle", .T = T_,   \
   .T_quick = Tq_, .ylabel = ylabel_, .why = bg_fp_why, .claims = claims_, __VA_ARGS__}

/* The five schemes at step h_ (labels without the step). */
#define BG_FP5(h_)                                                                             \
  {"VI-S", BG_VIS, h_, NULL, 0}, {"VI-A", BG_VIA, h_, NULL, 0}, {"VI-B", BG_VIB, h_, NULL, 0}, \
      {"EM", BG_EM, h_, NULL, 0}, {"EM-G", BG_EMG, h_, NULL, 0}
#define BG_FP_STAB .measure = "energy_v", .relative = 1, .trace = {.breakdown = 10}

static const vi_fig_spec bg_fp_fig2324 = BG_FP_FIG(
    "fig23-24", VI_FIG_RESIDUAL, claims_fp_fig2324, BG_FP_T, 2,
    "velocity constraint |G(q) M^-1 p|", .measure = "gv_norm",
    .curves = {{"EM-G", BG_EMG, BG_FP_H, NULL, 0}, {"EM", BG_EM, BG_FP_H, NULL, 0}});
static const vi_fig_spec bg_fp_fig25 = BG_FP_FIG(
    "fig25", VI_FIG_TRACE, claims_fp_fig25, BG_FP_T, 2, "energy error E - E(0)",
    .measure = "energy",
    .curves = {{"EM", BG_EM, BG_FP_H, NULL, 0}, {"EM-G", BG_EMG, BG_FP_H, NULL, 0}});
static const vi_fig_spec bg_fp_fig2627 =
    BG_FP_FIG("fig26-27", VI_FIG_TRACE, claims_fp_fig2627, BG_FP_T, 2,
              "angular momentum error J_i - J_i(0)",
              .curves = {{"EM J1", BG_EM, BG_FP_H, "Jx", 0},
                         {"EM J2", BG_EM, BG_FP_H, "Jy", 0},
                         {"EM J3", BG_EM, BG_FP_H, "Jz", 0},
                         {"EM-G J1", BG_EMG, BG_FP_H, "Jx", 1},
                         {"EM-G J2", BG_EMG, BG_FP_H, "Jy", 1},
                         {"EM-G J3", BG_EMG, BG_FP_H, "Jz", 1}},
              .panels = {"EM", "EM-G"});
static const vi_fig_spec bg_fp_L =
    BG_FP_FIG("momentum-L", VI_FIG_TRACE, claims_fp_L, BG_FP_T, 2,
              "linear momentum error L_i - L_i(0)",
              .curves = {{"EM L1", BG_EM, BG_FP_H, "Lx", 0},
                         {"EM L2", BG_EM, BG_FP_H, "Ly", 0},
                         {"EM L3", BG_EM, BG_FP_H, "Lz", 0},
                         {"EM-G L1", BG_EMG, BG_FP_H, "Lx", 1},
                         {"EM-G L2", BG_EMG, BG_FP_H, "Ly", 1},
                         {"EM-G L3", BG_EMG, BG_FP_H, "Lz", 1}},
              .panels = {"EM", "EM-G"});
static const vi_fig_spec bg_fp_fig31 = BG_FP_FIG(
    "fig31", VI_FIG_TRACE, claims_fp_fig31, BG_FP_T, BG_FP_T,
    "relative energy error (E - E_0) / |E_0|", BG_FP_STAB, .curves = {BG_FP5(0.01)});
static const vi_fig_spec bg_fp_h004 = BG_FP_FIG(
    "h0.04", VI_FIG_TRACE, claims_fp_h004, 1000, 50,
    "relative energy error (E - E_0) / |E_0|", BG_FP_STAB, .curves = {BG_FP5(0.04)});
static const vi_fig_spec bg_fp_fig32 = BG_FP_FIG(
    "fig32", VI_FIG_TRACE, claims_fp_fig32, 100, 10,
    "relative energy error (E - E_0) / |E_0|", BG_FP_STAB, .curves = {BG_FP5(0.05)});
static const vi_fig_spec bg_fp_fig33 =
    BG_FP_FIG("fig33", VI_FIG_TRACE, claims_fp_fig33, 100, 100,
              "relative energy error (E - E_0) / |E_0|", BG_FP_STAB,
              .curves = {{"VI-A h=0.25", BG_VIA, 0.25, NULL, 0},
                         {"EM h=0.25", BG_EM, 0.25, NULL, 0},
                         {"EM h=0.675", BG_EM, 0.675, NULL, 0},
                         {"EM-G h=0.25", BG_EMG, 0.25, NULL, 0},
                         {"EM-G h=0.675", BG_EMG, 0.675, NULL, 0}});
#define BG_T2(lab_, m_)                                                                        \
  {lab_ " simple", m_ ",guess=simple", BG_FP_H, NULL, 0},                                      \
      {lab_ " advanced", m_ ",guess=advanced", BG_FP_H, NULL, 1}
static const vi_fig_spec bg_fp_table2 = BG_FP_FIG(
    "table2", VI_FIG_TRACE, claims_fp_table2, BG_FP_T, 2,
    "Newton iterations per step (count)", .measure = "newton_iters",
    .curves = {BG_T2("VI-S", BG_VIS), BG_T2("VI-A", BG_VIA), BG_T2("VI-B", BG_VIB),
               BG_T2("EM", "em:variant=ggl"), BG_T2("EM-G", BG_EMG)},
    .panels = {"simple guess", "advanced guess"});

static const vi_fig_spec *const bg_fp_figs[] = {
    &bg_fp_fig2324, &bg_fp_fig25, &bg_fp_fig2627, &bg_fp_L,      &bg_fp_fig31,
    &bg_fp_h004,    &bg_fp_fig32, &bg_fp_fig33,   &bg_fp_table2, NULL};

/* F10 (Conclusion): "the superior numerical stability of EM comes at the
 * expense of a larger numerical effort per time step": the stability of
 * Figs 32, 33 (EM stable where VI-S and VI-B at h = 0.05 and VI-A at h =
 * 0.25 blow up, and at h = 0.675: F7-F9) and EM's cost per step above each
 * VI's. The cost per step as the study measures it, both ways (Table 2's
 * runs, h = 0.01, simple and advanced guess): the CPU time per step
 * (t_comp / N, the same N for every scheme) and the Newton iterations per
 * step (each EM iteration solves 2d + 2m unknowns, each VI's 3d + 2m, so
 * the two need not agree). */
static const vi_fig_done *bg_done(const vi_fig_done *figs, int n, const char *id) {
  for (int r = 0; r < n; r++) {
    if (strcmp(figs[r].f->id, id) == 0) {
      return &figs[r];
    }
  }
  return NULL;
}

static int claims_fp_across(const vi_fig_set *set, const vi_fig_done *figs, int n, int quick,
                            vi_claim *cl, char *err, size_t errlen) {
  (void)set;
  (void)quick;
  const vi_fig_done *t2 = bg_done(figs, n, "betsch-ggl-four-particle-table2"),
                    *f32 = bg_done(figs, n, "betsch-ggl-four-particle-fig32"),
                    *f33 = bg_done(figs, n, "betsch-ggl-four-particle-fig33");
  if (!t2 || !f32 || !f33 || t2->ns != 10) {
    snprintf(err, errlen, "F10: Table 2, Fig 32 or Fig 33 missing");
    return -1;
  }
  static const char *const l32[] = {"VI-S", "VI-B", "VI-A", "EM"},
                           *const l33[] = {"VI-A h=0.25", "EM h=0.25", "EM h=0.675"};
  const vi_series *s32[4], *s33[3];
  if (vi_fig_need(f32->f, f32->ss, f32->ns, l32, 4, s32, err, errlen) != 0 ||
      vi_fig_need(f33->f, f33->ss, f33->ns, l33, 3, s33, err, errlen) != 0) {
    return -1;
  }
  const int stable = !bg_stable(s32[0]) && !bg_stable(s32[1]) && bg_stable(s32[3]) &&
                     !bg_stable(s33[0]) && bg_stable(s33[1]) && bg_stable(s33[2]);
  char st[512];
  snprintf(st, sizeof st,
           "stability: h = 0.05 VI-S %s, VI-B %s, EM %s; h = 0.25 VI-A %s, EM %s; h = 0.675 "
           "EM %s",
           bg_stable(s32[0]) ? "stable" : "blows up", bg_stable(s32[1]) ? "stable" : "blows up",
           bg_stable(s32[3]) ? "stable" : "blows up", bg_stable(s33[0]) ? "stable" : "blows up",
           bg_stable(s33[1]) ? "stable" : "blows up", bg_stable(s33[2]) ? "stable" : "blows up");
  /* Table 2's curves 2k (simple) and 2k+1 (advanced) are scheme k: VI-S,
   * VI-A, VI-B, EM (k = 3), EM-G. */
  static const char *const sch[] = {"VI-S", "VI-A", "VI-B"};
  const vi_series *ss = t2->ss;
  char mt[1024] = "", mi[1024] = "";
  int ct = 1, ci = 1;
  for (int g = 0; g < 2; g++) {
    const vi_series *em = &ss[6 + g];
    const double Ne = (double)(em->rows - 1), te = em->seconds / Ne, ie = bg_mean_newton(em);
    vi_claim_cat(mt, sizeof mt, "%s%s guess: EM %.3g us", g ? "; " : "", g ? "advanced" : "simple",
           1e6 * te);
    vi_claim_cat(mi, sizeof mi, "%s%s guess: EM %.2f", g ? "; " : "", g ? "advanced" : "simple", ie);
    for (int k = 0; k < 3; k++) {
      const vi_series *v = &ss[2 * k + g];
      const double tv = v->seconds / (double)(v->rows - 1), iv = bg_mean_newton(v);
      ct &= isfinite(te) && isfinite(tv) && te > tv;
      ci &= ie > iv;
      vi_claim_cat(mt, sizeof mt, ", %s %.3g us", sch[k], 1e6 * tv);
      vi_claim_cat(mi, sizeof mi, ", %s %.2f", sch[k], iv);
    }
  }
  vi_claim_set(&cl[0], stable && ct,
               "F10 (Conclusion): the superior stability of EM comes at a larger cost per step "
               "(cost: CPU time per step of the Table 2 runs, h = 0.01; EM's above each of "
               "VI-S, VI-A, VI-B with either guess)",
               "%s; CPU time per step (%ld steps): %s", st, (long)(ss[0].rows - 1), mt);
  vi_claim_set(&cl[1], stable && ci,
               "F10 (Conclusion): the superior stability of EM comes at a larger cost per step "
               "(cost: Newton iterations per step of the Table 2 runs; EM's above each VI's "
               "with either guess)",
               "%s; Newton iterations per step: %s (an EM iteration solves 2d + 2m unknowns, a "
               "VI's 3d + 2m)",
               st, mi);
  return 2;
}

const vi_fig_set vi_betsch_ggl_four_particle = {
    .figs = bg_fp_figs, .why = bg_fp_why, .claims = claims_fp_across};

/* ==== betsch-ggl-top: §6.2, Fig 17 and the claims T1, T4-T8 ================== */

/* The paper's top (notes §2.2; (100)-(112)): the metis parameters (m =
 * 0.225 pi, I = 0.3 m r^2, l = 0.075), alpha0 = pi/3, omega_p = 10, omega_s
 * from (112) (the system's defaults); h = 0.002 as Fig 17, T = 2 as metis's
 * single_analysis_heavy_top (the paper does not state it); --quick: T =
 * 0.2 (the notes' span). */
#define BG_TOP_H 0.002
#define BG_TOP_T 2
#define BG_TOP_TQ 0.2
/* The constraints (102)-(104) in the system's order: internal d_i.d_i and
 * d_i.d_j, k = 1..6, then the external phi/l - d3, k = 7..9. */
#define BG_TOP_NINT 6

static const char bg_top_why[] =
    "gyro-top (director form (100)-(104)) with the metis parameters (m = 0.225 pi, I1 = I2 = "
    "I3 = 0.3 m r^2, l = 0.075; the paper's d_i.d_j, not metis's 1/2 d_i.d_j), alpha0 = pi/3, "
    "omega_p = 10 and omega_s from (112) (135.6); h = 0.002 as in Fig 17, T = 2 as metis's "
    "single run (the paper does not state T; the notes' prototype used T = 0.2, the quick "
    "run's span); schemes VI-S, VI-A, VI-B, EM, and BS99 (bs99: the Bobenko-Suris Lagrange "
    "top, notes §1.6) in Figs 17, the energy and J3 (T1, T4, T5). E = p.v - 1/2 v'Mv + V with each scheme's v; the "
    "constraint levels per constraint (internal k = 1..6, external k = 7..9) are the "
    "measures g1..g9, gv1..gv9 (G M^-1 p) and gvv1..gvv9 (G v): Fig 20 draws VI-S's gv_k "
    "(T6), constraints-VI-A VI-A's g_k and gvv_k (T7). P8 (the pendulum section's claim "
    "about this example) compares Fig 20 with VI-S's G M^-1 p on the pendulum (h = 0.05, T "
    "= 10 as Fig 14; quick: T = 2), rerun here by a trace. Round-off: at most 10 eps N "
    "max(1, |I(0)|) over N steps. Not here: Figs 18-19 (orders: the order studies)";

/* The top's five series of Figs 17, energy and J3: the four schemes of
 * the pendulum's order, then BS99. */
static int bg_top5(const vi_fig_spec *f, const vi_series *ss, int ns, const vi_series **out,
                   char *err, size_t errlen) {
  static const char *const bs[] = {"BS99"};
  return bg_pen4(f, ss, ns, "", out, err, errlen) != 0 ||
                 vi_fig_need(f, ss, ns, bs, 1, out + 4, err, errlen) != 0
             ? -1
             : 0;
}

/* T1 (Fig 17): at h = 0.002 no scheme keeps phi3 at its analytic value
 * l cos(alpha0) = 0.0375 (the steady precession keeps phi3 constant). */
static int claims_top_fig17(const vi_fig_spec *f, vi_series *ss, int ns, int quick, vi_claim *cl,
                            char *err, size_t errlen) {
  const vi_series *s[5];
  if (bg_top5(f, ss, ns, s, err, errlen) != 0) {
    return -1;
  }
  char m[1024] = "";
  int ok = 1;
  for (int i = 0; i < 5; i++) {
    double lo, hi;
    vi_fig_range(s[i], 0, bg_T(f, quick), &lo, &hi);
    const double dev = fmax(fabs(lo - s[i]->I0), fabs(hi - s[i]->I0));
    ok &= dev > 1e3 * BG_ROUNDOFF(bg_N(f, s[i], quick)) * fabs(s[i]->I0);
    vi_claim_cat(m, sizeof m, "%s%s: phi3 in [%.5f, %.5f], max |phi3 - phi3(0)| = %.2g", i ? "; " : "",
           s[i]->label, lo, hi, dev);
  }
  vi_claim_cat(m, sizeof m, " (phi3(0) = l cos(alpha0) = %.5g)", s[0]->I0);
  vi_claim_set(&cl[0], ok,
               "T1 (Fig 17): at h = 0.002 no scheme keeps phi3 at its analytic value 0.0375 "
               "(each deviates 1e3 times above round-off)",
               "%s", m);
  return 1;
}

/* T4 (§6.2 text): only EM conserves the total energy. */
static int claims_top_energy(const vi_fig_spec *f, vi_series *ss, int ns, int quick,
                             vi_claim *cl, char *err, size_t errlen) {
  const vi_series *s[5];
  if (bg_top5(f, ss, ns, s, err, errlen) != 0) {
    return -1;
  }
  char m[512] = "max |E - E0|: ";
  int ok = 1;
  double tol = 0;
  for (int i = 0; i < 5; i++) {
    tol = BG_ROUNDOFF(bg_N(f, s[i], quick)) * fmax(1, fabs(s[i]->I0));
    ok &= i == 3 ? s[i]->amax <= tol : s[i]->amax > 1e3 * tol;
    vi_claim_cat(m, sizeof m, "%s%s %.2g", i ? ", " : "", s[i]->label, s[i]->amax);
  }
  vi_claim_cat(m, sizeof m, " (E0 = %.6g; round-off bound %.2g)", s[3]->I0, tol);
  vi_claim_set(&cl[0], ok,
               "T4: only EM conserves the total energy (EM at round-off, VI-S, VI-A, VI-B, BS99 "
               "1e3 times above)",
               "%s", m);
  return 1;
}

/* T5: all schemes conserve J3, BS99 included (exact by its construction:
 * its torque is horizontal). */
static int claims_top_J3(const vi_fig_spec *f, vi_series *ss, int ns, int quick, vi_claim *cl,
                         char *err, size_t errlen) {
  const vi_series *s[5];
  if (bg_top5(f, ss, ns, s, err, errlen) != 0) {
    return -1;
  }
  return bg_conserve(f, s, 5, quick, 0, "max |J3 - J3(0)|: ", "", cl,
                     "T5: all schemes conserve the angular momentum J3 (VI-S, VI-A, VI-B, EM, "
                     "BS99)");
}

/* The largest |value| over the curves of labels PREFIX k SUFFIX, k = lo..hi
 * (1-based: the constraint's number). NaN with err when one is missing. */
static double bg_kmax(const vi_fig_spec *f, const vi_series *ss, int ns, const char *prefix,
                      int lo, int hi, char *err, size_t errlen) {
  double a = 0;
  for (int k = lo; k <= hi; k++) {
    char lab[96];
    snprintf(lab, sizeof lab, "%s%d", prefix, k);
    const vi_series *x = vi_fig_find(ss, ns, lab);
    if (!x) {
      snprintf(err, errlen, "%s: no series '%s'", f->id, lab);
      return NAN;
    }
    a = x->amax > a || x->amax != x->amax ? x->amax : a;
  }
  return a;
}

/* P8's pendulum half: max |G(q) M^-1 p| along VI-S on the pendulum with
 * the paper's data (h = 0.05, T = 10; quick T = 2: the pendulum study's
 * spans), a trace through vi_api (the pendulum study's Fig 14 curve, rerun
 * here because a claim sees one study's figures). out: its max, N. */
static int bg_pendulum_gv(int quick, double *out, long *N, char *err, size_t errlen) {
  vi_trace_config tc = {0};
  tc.system = "pendulum-3d";
  tc.method = BG_VIS;
  tc.h = 0.05;
  tc.N = *N = lround((quick ? 2.0 : 10.0) / tc.h);
  tc.measure = "gv_norm";
  vi_trace_result tr;
  char why[512] = "";
  const int rc = vi_api_of(VI_DOUBLE)->trace(&tc, &tr, why, sizeof why);
  if (rc != VI_OK) {
    snprintf(err, errlen, "P8: VI-S on pendulum-3d: %s", why[0] ? why : vi_strerror(rc));
    return -1;
  }
  *out = tr.amax;
  return 0;
}

/* T6 (Fig 20): VI-S's velocity-level constraints (G M^-1 p)_k, k = 1..9,
 * one curve each: the internal k = 1..6 violated, the linear external
 * k = 7..9 at round-off. P8 (§6.1 text): VI-S's correct behaviour on the
 * pendulum (its G M^-1 p at round-off, P7) does not carry over to this
 * more involved example. */
static int claims_top_fig20(const vi_fig_spec *f, vi_series *ss, int ns, int quick,
                            vi_claim *cl, char *err, size_t errlen) {
  const double in = bg_kmax(f, ss, ns, "VI-S k=", 1, BG_TOP_NINT, err, errlen),
               ex = bg_kmax(f, ss, ns, "VI-S k=", BG_TOP_NINT + 1, 9, err, errlen);
  if (in != in || ex != ex) {
    return -1;
  }
  const long N = bg_N(f, &ss[0], quick);
  const double tol = BG_ROUNDOFF(N);
  char m[1024] = "VI-S max |(G M^-1 p)_k|:";
  for (int i = 0; i < ns; i++) {
    vi_claim_cat(m, sizeof m, "%s k = %d %.2g", i ? "," : "", i + 1, ss[i].amax);
  }
  vi_claim_set(&cl[0], in > 1e3 * tol && ex <= tol,
               "T6 (Fig 20): VI-S does not satisfy the velocity constraints G M^-1 p of the "
               "internal constraints k = 1..6, but satisfies the external (linear) ones k = "
               "7..9 to machine precision",
               "%s: internal up to %.3g, external up to %.2g (round-off bound %.2g)", m, in, ex,
               tol);
  double pen = NAN;
  long Np = 0;
  if (bg_pendulum_gv(quick, &pen, &Np, err, errlen) != 0) {
    return -1;
  }
  const double ptol = BG_ROUNDOFF(Np);
  vi_claim_set(&cl[1], pen <= ptol && in > 1e3 * tol,
               "P8 (§6.1): although VI-S shows the correct behaviour (the velocity constraint "
               "G M^-1 p at round-off) in the simple pendulum example, this is not the case "
               "anymore for more involved examples (the top, Fig 20)",
               "VI-S max |G M^-1 p|: pendulum-3d (h = 0.05, %ld steps) %.2g (round-off bound "
               "%.2g); gyro-top internal k = 1..6 %.3g, external k = 7..9 %.2g (h = %g, %ld "
               "steps, round-off bound %.2g)",
               Np, pen, ptol, in, ex, ss[0].h, N, tol);
  return 2;
}

/* T7 (§6.2 text): VI-A does not fulfil both types of constraints at the
 * nodes: per constraint, position level g_k and velocity level (G v)_k
 * (the measure VI-A enforces at q^{n+1/2}, notes §1.3); the notes: the
 * linear external ones k = 7..9 still hold at the nodes. */
static int claims_top_via(const vi_fig_spec *f, vi_series *ss, int ns, int quick,
                          vi_claim *cl, char *err, size_t errlen) {
  const double gi = bg_kmax(f, ss, ns, "VI-A g", 1, BG_TOP_NINT, err, errlen),
               ge = bg_kmax(f, ss, ns, "VI-A g", BG_TOP_NINT + 1, 9, err, errlen),
               vi = bg_kmax(f, ss, ns, "VI-A G v ", 1, BG_TOP_NINT, err, errlen),
               ve = bg_kmax(f, ss, ns, "VI-A G v ", BG_TOP_NINT + 1, 9, err, errlen);
  if (gi != gi || ge != ge || vi != vi || ve != ve) {
    return -1;
  }
  const double tol = BG_ROUNDOFF(bg_N(f, &ss[0], quick));
  vi_claim_set(&cl[0], gi > 1e3 * tol && vi > 1e3 * tol,
               "T7: VI-A does not fulfil both types of constraints (position and velocity "
               "level) at the nodes (internal constraints; the notes: the linear external ones "
               "hold at the nodes)",
               "VI-A max |g_k|: internal %.3g, external %.2g; max |(G v)_k|: internal %.3g, "
               "external %.2g (round-off bound %.2g)",
               gi, ge, vi, ve, tol);
  return 1;
}

/* T8 (the text): VI-B and EM satisfy the constraints on configuration and
 * velocity level exactly, each in the velocity measure it enforces. */
static int claims_top_constraints(const vi_fig_spec *f, vi_series *ss, int ns, int quick,
                                  vi_claim *cl, char *err, size_t errlen) {
  const vi_series *g[4], *gv[4], *gvv[4];
  if (bg_pen4(f, ss, ns, " g", g, err, errlen) != 0 ||
      bg_pen4(f, ss, ns, " G M^-1 p", gv, err, errlen) != 0 ||
      bg_pen4(f, ss, ns, " G v", gvv, err, errlen) != 0) {
    return -1;
  }
  const double tol = BG_ROUNDOFF(bg_N(f, g[0], quick));
  vi_claim_set(&cl[0],
               g[2]->amax <= tol && gvv[2]->amax <= tol && g[3]->amax <= tol &&
                   gv[3]->amax <= tol,
               "T8: VI-B and EM satisfy the constraints on configuration and velocity level "
               "exactly (VI-B: g and G v; EM: g and G M^-1 p)",
               "max |g|, |G M^-1 p|, |G v|: VI-B %.2g, %.3g, %.2g; EM %.2g, %.2g, %.2g "
               "(round-off bound %.2g; VI-B's G M^-1 p is O(h), notes §5 item 11)",
               g[2]->amax, gv[2]->amax, gvv[2]->amax, g[3]->amax, gv[3]->amax, gvv[3]->amax, tol);
  return 1;
}

#define BG_TOP_CURVES(m_, p_)                                                                  \
  {"VI-S" m_##_SUFFIX, BG_VIS, BG_TOP_H, m_##_MEASURE, p_},                                    \
  {"VI-A" m_##_SUFFIX, BG_VIA, BG_TOP_H, m_##_MEASURE, p_},                                    \
  {"VI-B" m_##_SUFFIX, BG_VIB, BG_TOP_H, m_##_MEASURE, p_},                                    \
  {"EM" m_##_SUFFIX, BG_EM, BG_TOP_H, m_##_MEASURE, p_}
#define G_SUFFIX " g"
#define G_MEASURE "g_norm"

/* SI units: the authors' top (m = 0.225 pi kg, r = 0.05 m, b = -9.81 e3;
 * betsch-ggl §6.2, docs/system-notes.md). Its constraints (the directors'
 * orthonormality, phi/l - d3) have no unit, their rates G v are in 1/s. */
#define BG_TOP_FIG(id_, kind_, claims_, ylabel_, ...)                                    \
  {                                                                                      \
    .id = "betsch-ggl-top-" id_, .kind = kind_, .system = "gyro-top", .T = BG_TOP_T,     \
    .T_quick = BG_TOP_TQ, .ylabel = ylabel_, .tlabel = "time t [s]", .why = bg_top_why,  \
    .claims = claims_, __VA_ARGS__                                                       \
  }

/* BS99 (notes §1.6) beside the four: Fig 17's fifth curve, T4, T5. */
#define BG_TOP_BS99 {"BS99", BG_BS99, BG_TOP_H, NULL, 0}
static const vi_fig_spec bg_top_fig17 = BG_TOP_FIG(
    "fig17", VI_FIG_TRACE, claims_top_fig17, "centre of mass height phi3(t) [m]",
    .measure = "q3", .curves = {BG_TOP_CURVES(NONE, 0), BG_TOP_BS99});
static const vi_fig_spec bg_top_energy =
    BG_TOP_FIG("energy", VI_FIG_TRACE, claims_top_energy,
               "energy error E - E(0) [J], E = p.v - v'Mv/2 + V", .measure = "energy_v",
               .curves = {BG_TOP_CURVES(NONE, 0), BG_TOP_BS99});
static const vi_fig_spec bg_top_J3 = BG_TOP_FIG(
    "J3", VI_FIG_TRACE, claims_top_J3, "angular momentum error J3 - J3(0) [kg m^2/s]",
    .measure = "Jz", .curves = {BG_TOP_CURVES(NONE, 0), BG_TOP_BS99});
static const vi_fig_spec bg_top_constraints = BG_TOP_FIG(
    "constraints", VI_FIG_RESIDUAL, claims_top_constraints,
    "constraints |g| (no unit), |G M^-1 p|, |G v| [1/s]",
    .curves = {BG_TOP_CURVES(G, 0), BG_TOP_CURVES(GV, 0), BG_TOP_CURVES(GVV, 0)});
/* Fig 20: one curve per constraint k (the measures gv1..gv9). */
#define BG_K(lab_, m_, meas_, k_) {lab_ #k_, m_, BG_TOP_H, meas_ #k_, 0}
#define BG_K9(lab_, m_, meas_)                                                                 \
  BG_K(lab_, m_, meas_, 1), BG_K(lab_, m_, meas_, 2), BG_K(lab_, m_, meas_, 3),                \
      BG_K(lab_, m_, meas_, 4), BG_K(lab_, m_, meas_, 5), BG_K(lab_, m_, meas_, 6),            \
      BG_K(lab_, m_, meas_, 7), BG_K(lab_, m_, meas_, 8), BG_K(lab_, m_, meas_, 9)
static const vi_fig_spec bg_top_fig20 =
    BG_TOP_FIG("fig20", VI_FIG_RESIDUAL, claims_top_fig20,
               "velocity constraint |(G(q) M^-1 p)_k| [1/s] (VI-S)",
               .curves = {BG_K9("VI-S k=", BG_VIS, "gv")});
/* T7 per constraint: VI-A's g_k and (G v)_k, k = 1..9. */
static const vi_fig_spec bg_top_via = BG_TOP_FIG(
    "constraints-VI-A", VI_FIG_RESIDUAL, claims_top_via,
    "|g_k(q)| (no unit), |(G(q) v)_k| [1/s] (VI-A)",
    .curves = {BG_K9("VI-A g", BG_VIA, "g"), BG_K9("VI-A G v ", BG_VIA, "gvv")});

static const vi_fig_spec *const bg_top_figs[] = {&bg_top_fig17,       &bg_top_energy,
                                                 &bg_top_J3,          &bg_top_constraints,
                                                 &bg_top_fig20,       &bg_top_via, NULL};

const vi_fig_set vi_betsch_ggl_top = {.figs = bg_top_figs, .why = bg_top_why};
