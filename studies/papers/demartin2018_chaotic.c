/* demartin2018_chaotic.c: `vistudy reproduce demartin2018-chaotic`,
 * demartin2018 §7.3 and Fig. 6 (reading notes
 * ../shared/papers/notes/demartin2018.md §2.3, claims C11-C13, §4.4, §7.2,
 * P15, P19): the energy of McLachlan-Perlmutter's fully chaotic
 * nonholonomic system (`chaotic-nh`, m_c = 3, n = 7) under the
 * nonholonomic Lobatto IIIA-IIIB PRK (`nhprk`, s = 2 and 3: the paper's
 * Lobatto-2 and -3) and under the DLA comparator of §7.3, McLachlan &
 * Perlmutter (2006) (4.18) (`dla`, second order, its default point
 * leapfrog), over the paper's ensemble of initial data on the energy sheet
 * E_0 = 3.06, members j = 0..J (the system's parameters J, j), and the
 * mean squared energy error of (33),
 *   mu(E, k) = 1/(J+1) sum_{j=0}^{J} (E_{jk} - E_0)^2,
 * on the common grid t = 1, 2, ..., T.
 *
 * Every member (method, h, j) is one cell of the cell store (cells.h):
 * one trajectory whose energy change E_j(t) - E_j(0) at t = 1..T and the
 * CPU time of its run (the measuring thread's, CLOCK_THREAD_CPUTIME_ID)
 * are the stored measurement, measured by a pool of threads and
 * resumable; the statistic, its fits and every verdict are recomputed from
 * the stored cells on every run. The store's configuration names the
 * methods and the cell layout, so a store of the earlier layout (two
 * methods, no CPU time) is not used.
 *
 * Choices the paper leaves open (it gives the initial data and E_0 only):
 * J = 9 (notes §4.4, odelab's copy of the test), h in {0.1, 0.05, 0.025},
 * T = 1000, double precision with the default Newton tolerance (100 eps);
 * E_0 of each member is its own computed initial energy (3.06 up to
 * round-off). --quick: J = 3, h in {0.1, 0.05}, T = 20.
 *
 * The claims: C11 the energy is not conserved and mu grows with t (fitted
 * as mu ~ t^a, and against mu(0) + D t); C11b the growth is a random walk
 * (a = 1); C12' mu/h^4 collapses the s = 2 curves; C12 (the paper's
 * Fig. 6) mu/h^10 collapses the s = 3 curves; C12n (the notes' reading,
 * P15: order 2s - 2 = 4 gives an energy error O(h^4), so mu = O(h^8)) mu/h^8
 * collapses them; C12d (beyond the paper) mu/h^4 collapses the dla curves
 * (order 2). The exponent of mu in h is the least-squares slope of log mu
 * against log h over the step sizes at every t of the grid, summarised per
 * window of t. C13 (§7.3: "our integrator matches the behaviour of ...
 * SPARK or DLA with no apparent gain over any of these, but no loss
 * either"; notes C13), measured against DLA for the method of the same
 * order, nhprk s = 2: the ratio mu(nhprk s=2) / mu(dla) at the same h
 * (C13) and at equal CPU time (C13c), median over each window of t; "like"
 * when every median lies within a factor DM_LIKE of 1; and C13g, the
 * behaviour the sentence says they share, C11's growth of mu applied to
 * the dla ensembles. SPARK is not in the harness. */
#include "specs.h"
#include "cells.h"
#include "claims.h"
#include "outfile.h"
#include "plot.h"
#include "report.h"
#include "study.h"
#include "timing.h"
#include "vistudy.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DM_SYSTEM "chaotic-nh"
#define DM_MC 3
#define DM_J 9
#define DM_J_QUICK 3
#define DM_T 1000
#define DM_T_QUICK 20
#define DM_NH 3
#define DM_NH_QUICK 2
#define DM_NM 3
/* A scaling h^q collapses the curves when the exponent of mu in h is
 * within DM_TOL of q in every window of t: over the step sizes' range of 4
 * the scaled curves then lie within a factor 4^0.5 = 2 of each other,
 * and the two candidates of s = 3 (8 and 10) are told apart. */
#define DM_TOL 0.5
/* C11: mu grows when its mean over the last tenth of the grid is at least
 * DM_GROWTH times its mean over the first tenth, in every ensemble. */
#define DM_GROWTH 1.5
/* C11b: a random walk of E started at E_0 has mu = D t: a = 1 within this. */
#define DM_WALK_TOL 0.25
/* C13: two methods of order 2 behave alike on the ensemble when the median
 * over every window of t of the ratio of their mu lies within a factor
 * DM_LIKE of 1, at every h. A factor 10 in mu is a factor 10^0.5 = 3.2 in
 * the rms energy error, less than what one halving of h changes for
 * either method (mu ~ h^4: a factor 16): the two curves of one h then lie
 * closer to each other than to the curves of the neighbouring h, so a
 * figure like Fig. 6 would not tell the methods apart. */
#define DM_LIKE 10.0
/* The windows of t over which the exponent in h and the ratios of C13 are
 * summarised. */
#define DM_NWIN 3
static const double dm_win_hi[DM_NWIN] = {10, 100, 1e300};

static const double dm_h[DM_NH] = {0.1, 0.05, 0.025};

/* The methods: the spec the study asks for, the tag of its CSV columns,
 * its name in tables and claims, its order in q and p (nhprk: 2s - 2,
 * demartin2018 Cor. 5.2.1; dla: 2, McLachlan-Perlmutter (4.18)) and the
 * scalings h^q of mu that are judged and plotted. */
typedef struct dm_meth {
  const char *spec, *tag, *name;
  int order, nq, q[2];
} dm_meth;
enum { DM_S2 = 0, DM_S3 = 1, DM_DLA = 2 };
/* The paper's method (C11, C11b): the first DM_NPRK methods. */
#define DM_NPRK 2
static const dm_meth dm_meths[DM_NM] = {
    {"nhprk:s=2", "s2", "nhprk s=2", 2, 1, {4, 0}},
    {"nhprk:s=3", "s3", "nhprk s=3", 4, 2, {8, 10}},
    {"dla", "dla", "dla", 2, 1, {4, 0}},
};
/* The order the pool measures in: the most expensive runs first (s = 3,
 * then s = 2, then dla, at the smallest h first), so the pool ends
 * together. */
static const int dm_cost_order[DM_NM] = {DM_S3, DM_S2, DM_DLA};

/* The exponent of mu in h the order predicts: mu ~ (h^order)^2 (C1). */
static int dm_theory(int m) {
  return 2 * dm_meths[m].order;
}

/* ---- the cells: one trajectory of the ensemble each --------------------- */

typedef struct dm_cell {
  int mi, hi, j, J, T;
  char method[256]; /* canonical spec, as the trace records it */
  double E0;
  double cpu; /* CPU seconds of the run, the measuring thread's */
  double *dE; /* E_j(t) - E_j(0) at t = 1..T */
  int done;
} dm_cell;

static void dm_key(const void *c_, char *buf, size_t len) {
  const dm_cell *c = c_;
  snprintf(buf, len, "%s h=%g j=%d", dm_meths[c->mi].spec, dm_h[c->hi], c->j);
}

static void dm_label(const void *c_, char *buf, size_t len) {
  const dm_cell *c = c_;
  snprintf(buf, len, "%s, h = %g, member j = %d of J = %d", dm_meths[c->mi].spec,
           dm_h[c->hi], c->j, c->J);
}

static int dm_done(const void *c) {
  return ((const dm_cell *)c)->done;
}

/* The sink of the trace: the change of every node at a whole time t is
 * kept (nodes k = t/h). */
typedef struct dm_sink {
  dm_cell *c;
  long stride;
} dm_sink;

static int dm_every(void *ctx, const double *row, int ncol) {
  dm_sink *k = ctx;
  (void)ncol;
  const long node = lround(row[0] / dm_h[k->c->hi]);
  if (node > 0 && node % k->stride == 0 && node / k->stride <= k->c->T) {
    k->c->dE[node / k->stride - 1] = row[1];
  }
  return VI_OK;
}

static int dm_measure(void *c_, const void *ctx, char *err, size_t errlen) {
  dm_cell *c = c_;
  (void)ctx;
  const double h = dm_h[c->hi];
  dm_sink sink = {c, lround(1 / h)};
  if (fabs((double)sink.stride * h - 1) > 1e-12) {
    snprintf(err, errlen,
             "h = %g does not divide 1: the grid t = 1, 2, ... is not on nodes", h);
    return -1;
  }
  char set[3][32];
  snprintf(set[0], sizeof set[0], "m_c=%d", DM_MC);
  snprintf(set[1], sizeof set[1], "J=%d", c->J);
  snprintf(set[2], sizeof set[2], "j=%d", c->j);
  const char *const sets[3] = {set[0], set[1], set[2]};
  for (int t = 0; t < c->T; t++) {
    c->dE[t] = NAN;
  }
  vi_trace_config tc = {0};
  tc.system = DM_SYSTEM;
  tc.nset = 3;
  tc.set = sets;
  tc.method = dm_meths[c->mi].spec;
  tc.h = h;
  tc.N = sink.stride * c->T;
  tc.measure = "energy";
  tc.follow = VI_TRACE_CHANGE; /* E_jk - E_j0, taken in the working precision */
  tc.zoom = c->T;              /* every node, of which the sink keeps t = 1..T */
  tc.every = dm_every;
  tc.ctx = &sink;
  vi_trace_result tr;
  err[0] = '\0';
  /* The cost of the member (C13c): the CPU time of this thread over the
   * whole run, the energy at every node included (the same work per node
   * for every method). */
  const double cpu0 = vi_cpu_clock();
  const int rc = vi_api_of(VI_DOUBLE)->trace(&tc, &tr, err, errlen);
  const double cpu = vi_cpu_clock() - cpu0;
  if (rc != VI_OK) {
    if (!err[0]) {
      snprintf(err, errlen, "%s", vi_strerror(rc));
    }
    return -1;
  }
  for (int t = 0; t < c->T; t++) {
    if (!isfinite(c->dE[t])) {
      snprintf(err, errlen, "no finite energy at t = %d", t + 1);
      return -1;
    }
  }
  snprintf(c->method, sizeof c->method, "%s", tr.method);
  c->E0 = tr.I0;
  c->cpu = cpu;
  c->done = 1;
  return 0;
}

static json_t *dm_stored(const void *c_) {
  const dm_cell *c = c_;
  json_t *a = json_array();
  for (int t = 0; a && t < c->T; t++) {
    json_array_append_new(a, json_real(c->dE[t]));
  }
  return a ? json_pack("{s:s, s:f, s:f, s:o}", "method", c->method, "E0", c->E0,
                       "cpu_seconds", c->cpu, "dE", a)
           : NULL;
}

/* A stored member checked against what its run records: the canonical
 * spec of its method, a finite E_0 on the sheet, a CPU time (finite, >= 0,
 * below a day), T finite changes. */
static int dm_restore(void *c_, json_t *v, char *why, size_t whylen) {
  dm_cell *c = c_;
  const char *method = NULL;
  double E0 = NAN, cpu = NAN;
  json_t *a = NULL;
  json_error_t je;
  if (json_unpack_ex(v, &je, JSON_STRICT, "{s:s, s:F, s:F, s:o}", "method", &method, "E0",
                     &E0, "cpu_seconds", &cpu, "dE", &a) != 0) {
    snprintf(why, whylen, "%s", je.text);
    return -1;
  }
  char canon[256], err[256];
  if (vi_study_method(dm_meths[c->mi].spec, canon, sizeof canon, err, sizeof err) != 0 ||
      strcmp(canon, method) != 0) {
    snprintf(why, whylen, "method '%.80s' is not %.80s", method, dm_meths[c->mi].spec);
    return -1;
  }
  if (!(cpu >= 0 && cpu < 86400)) {
    snprintf(why, whylen, "cpu_seconds = %.17g is not a CPU time", cpu);
    return -1;
  }
  /* The paper's sheet, E_0 = 3.06 for every member (notes §2.3). */
  if (!(fabs(E0 - 3.06) < 1e-12)) {
    snprintf(why, whylen, "E0 = %.17g is not on the sheet 3.06", E0);
    return -1;
  }
  if (!json_is_array(a) || json_array_size(a) != (size_t)c->T) {
    snprintf(why, whylen, "dE must hold %d numbers", c->T);
    return -1;
  }
  for (int t = 0; t < c->T; t++) {
    json_t *x = json_array_get(a, (size_t)t);
    if (!json_is_number(x) || !isfinite(json_number_value(x))) {
      snprintf(why, whylen, "dE[%d] is not a finite number", t);
      return -1;
    }
  }
  for (int t = 0; t < c->T; t++) {
    c->dE[t] = json_number_value(json_array_get(a, (size_t)t));
  }
  snprintf(c->method, sizeof c->method, "%s", method);
  c->E0 = E0;
  c->cpu = cpu;
  c->done = 1;
  return 0;
}

static const vi_cells_unit dm_unit = {"member",   sizeof(dm_cell), dm_key,     dm_label,
                                      dm_restore, dm_done,         dm_measure, dm_stored,
                                      NULL,       NULL};

/* ---- the statistic and its fits ---------------------------------------- */

/* Least-squares line y = b + a x over n points: the slope a, the intercept
 * b and the rms of the residuals (NaN for fewer than two points). */
static void dm_line(const double *x, const double *y, int n, double *a, double *b,
                    double *rms) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (int i = 0; i < n; i++) {
    sx += x[i];
    sy += y[i];
  }
  const double mx = n > 0 ? sx / n : NAN, my = n > 0 ? sy / n : NAN;
  for (int i = 0; i < n; i++) {
    sxx += (x[i] - mx) * (x[i] - mx);
    sxy += (x[i] - mx) * (y[i] - my);
  }
  *a = n >= 2 && sxx > 0 ? sxy / sxx : NAN;
  *b = my - *a * mx;
  double r = 0;
  for (int i = 0; i < n; i++) {
    const double e = y[i] - (*b + *a * x[i]);
    r += e * e;
  }
  *rms = n >= 2 ? sqrt(r / n) : NAN;
}

static int dm_cmp(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The median, minimum and maximum of x[0..n-1] (n >= 1; tmp n values). */
static void dm_stats(const double *x, int n, double *tmp, double *med, double *lo,
                     double *hi) {
  memcpy(tmp, x, (size_t)n * sizeof *tmp);
  qsort(tmp, (size_t)n, sizeof *tmp, dm_cmp);
  *med = n % 2 ? tmp[n / 2] : 0.5 * (tmp[n / 2 - 1] + tmp[n / 2]);
  *lo = tmp[0];
  *hi = tmp[n - 1];
}

/* One ensemble (method, h): mu on the grid and its growth in t. */
typedef struct dm_ens {
  double *mu;         /* T values, t = 1..T */
  double a, a_rms;    /* mu ~ t^a on [t_lo, T]: slope, rms residual (decades) */
  double B, D, r2;    /* mu = B + D t on [t_lo, T], its R^2 */
  double early, late; /* mean of mu over the first and the last tenth of the grid */
  double cpu;         /* mean CPU seconds of a member's run */
} dm_ens;

/* The exponent of mu in h per method: at every t the slope p(t) of log mu
 * against log h over the step sizes and the rms residual (decades; 0 for
 * two step sizes), then per window of t the median, range and median
 * residual; per scaling q the median over t of the spread
 * max_h (mu/h^q) / min_h (mu/h^q). */
typedef struct dm_expo {
  double *p, *res; /* T values */
  int nwin;
  double lo[DM_NWIN], hi[DM_NWIN]; /* the windows' t range */
  double med[DM_NWIN], pmin[DM_NWIN], pmax[DM_NWIN], rmed[DM_NWIN];
  double all_med, all_min, all_max;
} dm_expo;

/* C13, nhprk s = 2 against dla on the same ensemble. At every t of the
 * grid and every h: r, the ratio mu(s=2, h) / mu(dla, h) at the same h;
 * rc, the ratio at equal cost, mu(s=2) at the mean CPU time of a dla
 * member at h over mu(dla, h), where mu(s=2) at a cost c is read off the
 * least-squares line of log mu(s=2) against log c over the step sizes at
 * that t (as the exponent in h is fitted; slope its slope). Each is
 * summarised per window of t (the exponent's windows) by its median and
 * range. */
typedef struct dm_c13 {
  double *r[DM_NH], *rc[DM_NH], *slope; /* T values each */
  double med[DM_NH][DM_NWIN], lo[DM_NH][DM_NWIN], hi[DM_NH][DM_NWIN];
  double cmed[DM_NH][DM_NWIN], clo[DM_NH][DM_NWIN], chi[DM_NH][DM_NWIN];
  double cost_ratio[DM_NH]; /* mean CPU time of a member, s = 2 over dla, at h */
  double outside[DM_NH];    /* how far dla's cost at h lies outside the range of
                               s = 2's costs (a factor; 1 inside) */
  double slope_med, slope_lo, slope_hi;
} dm_c13;

typedef struct dm_study {
  int J, T, nh, t_lo;
  dm_cell *cells;
  int ncells;
  dm_ens ens[DM_NM][DM_NH];
  dm_expo ex[DM_NM];
  dm_c13 c13;
  double *buf;
} dm_study;

static double dm_mean(const double *x, int lo, int hi) {
  double s = 0;
  for (int i = lo; i < hi; i++) {
    s += x[i];
  }
  return hi > lo ? s / (hi - lo) : NAN;
}

/* The median over the grid of the spread of mu/h^q across the step sizes. */
static double dm_spread(const dm_study *S, int m, double q, double *tmp) {
  double *sp = tmp + S->T, med, lo, hi;
  for (int t = 0; t < S->T; t++) {
    double mn = INFINITY, mx = 0;
    for (int k = 0; k < S->nh; k++) {
      const double v = S->ens[m][k].mu[t] / pow(dm_h[k], q);
      mn = fmin(mn, v);
      mx = fmax(mx, v);
    }
    sp[t] = mx / mn;
  }
  dm_stats(sp, S->T, tmp, &med, &lo, &hi);
  return med;
}

/* C13: the ratios of nhprk s = 2 to dla at the same h and at equal cost
 * (dm_c13), per window of t of the exponent's windows (tmp: T values). */
static void dm_c13_analyse(dm_study *S, double *tmp) {
  dm_c13 *C = &S->c13;
  const dm_expo *X = &S->ex[DM_S2];
  double lc[DM_NH] = {0}, lm[DM_NH] = {0}, cmin = INFINITY, cmax = 0;
  for (int k = 0; k < S->nh; k++) {
    const double c = S->ens[DM_S2][k].cpu;
    lc[k] = c > 0 ? log10(c) : NAN;
    cmin = fmin(cmin, c);
    cmax = fmax(cmax, c);
  }
  for (int k = 0; k < S->nh; k++) {
    const double cd = S->ens[DM_DLA][k].cpu;
    C->cost_ratio[k] = S->ens[DM_S2][k].cpu / cd;
    C->outside[k] = cd < cmin ? cmin / cd : cd > cmax ? cd / cmax : 1;
  }
  for (int t = 0; t < S->T; t++) {
    for (int k = 0; k < S->nh; k++) {
      lm[k] = log10(S->ens[DM_S2][k].mu[t]);
    }
    double a, b, rms;
    dm_line(lc, lm, S->nh, &a, &b, &rms);
    C->slope[t] = a;
    for (int k = 0; k < S->nh; k++) {
      const double mud = S->ens[DM_DLA][k].mu[t], cd = S->ens[DM_DLA][k].cpu;
      C->r[k][t] = S->ens[DM_S2][k].mu[t] / mud;
      C->rc[k][t] = cd > 0 ? pow(10, b + a * log10(cd)) / mud : NAN;
    }
  }
  for (int k = 0; k < S->nh; k++) {
    for (int w = 0; w < X->nwin; w++) {
      const int i0 = (int)X->lo[w] - 1, n = (int)X->hi[w] - i0;
      dm_stats(C->r[k] + i0, n, tmp, &C->med[k][w], &C->lo[k][w], &C->hi[k][w]);
      dm_stats(C->rc[k] + i0, n, tmp, &C->cmed[k][w], &C->clo[k][w], &C->chi[k][w]);
    }
  }
  dm_stats(C->slope, S->T, tmp, &C->slope_med, &C->slope_lo, &C->slope_hi);
}

/* The verdict of C13 on the window medians med[k][w] of a ratio
 * mu(s=2)/mu(dla): *like when every one lies within a factor DM_LIKE of 1;
 * otherwise which method gains. */
static const char *dm_c13_verdict(const dm_study *S, const double (*med)[DM_NWIN],
                                  int *like) {
  int above = 0, below = 0, bad = 0;
  for (int k = 0; k < S->nh; k++) {
    for (int w = 0; w < S->ex[DM_S2].nwin; w++) {
      const double r = med[k][w];
      bad |= !(r > 0 && isfinite(r));
      above |= r > DM_LIKE;
      below |= r < 1 / DM_LIKE;
    }
  }
  *like = !bad && !above && !below && S->ex[DM_S2].nwin > 0;
  return bad              ? "undetermined (a ratio is not finite)"
         : *like          ? "alike: no gain and no loss"
         : above && below ? "neither: each gains in some window"
         : above ? "dla gains (nhprk s=2's mu larger than 10x dla's in some window)"
                 : "nhprk s=2 gains (its mu below 1/10 of dla's in some window)";
}

static int dm_analyse(dm_study *S) {
  const int T = S->T;
  double *x = malloc((size_t)(3 * T + 8) * sizeof *x);
  if (!x) {
    return -1;
  }
  double *y = x + T, *tmp = y + T;
  for (int m = 0; m < DM_NM; m++) {
    for (int k = 0; k < S->nh; k++) {
      dm_ens *E = &S->ens[m][k];
      for (int t = 0; t < T; t++) {
        double s = 0;
        int n = 0;
        for (int c = 0; c < S->ncells; c++) {
          const dm_cell *cl = &S->cells[c];
          if (cl->mi == m && cl->hi == k) {
            s += cl->dE[t] * cl->dE[t];
            n++;
          }
        }
        E->mu[t] = n == S->J + 1 ? s / n : NAN; /* demartin2018 (33) */
      }
      double cpu = 0;
      int nc = 0;
      for (int c = 0; c < S->ncells; c++) {
        if (S->cells[c].mi == m && S->cells[c].hi == k) {
          cpu += S->cells[c].cpu;
          nc++;
        }
      }
      E->cpu = nc == S->J + 1 ? cpu / nc : NAN;
      /* Growth in t over [t_lo, T]: the power law and the line. */
      int n = 0;
      for (int t = S->t_lo; t <= T; t++, n++) {
        x[n] = log10((double)t);
        y[n] = log10(E->mu[t - 1]);
      }
      double b;
      dm_line(x, y, n, &E->a, &b, &E->a_rms);
      n = 0;
      double ybar = 0;
      for (int t = S->t_lo; t <= T; t++, n++) {
        x[n] = t;
        y[n] = E->mu[t - 1];
        ybar += y[n];
      }
      ybar /= n;
      double rms;
      dm_line(x, y, n, &E->D, &E->B, &rms);
      double tot = 0;
      for (int i = 0; i < n; i++) {
        tot += (y[i] - ybar) * (y[i] - ybar);
      }
      E->r2 = tot > 0 ? 1 - n * rms * rms / tot : NAN;
      const int tenth = T / 10 > 0 ? T / 10 : 1;
      E->early = dm_mean(E->mu, 0, tenth);
      E->late = dm_mean(E->mu, T - tenth, T);
    }
    /* The exponent in h at every t. */
    dm_expo *X = &S->ex[m];
    double lh[DM_NH], lm[DM_NH];
    for (int k = 0; k < S->nh; k++) {
      lh[k] = log10(dm_h[k]);
    }
    for (int t = 0; t < T; t++) {
      for (int k = 0; k < S->nh; k++) {
        lm[k] = log10(S->ens[m][k].mu[t]);
      }
      double b;
      dm_line(lh, lm, S->nh, &X->p[t], &b, &X->res[t]);
    }
    X->nwin = 0;
    double lo = 1;
    for (int w = 0; w < DM_NWIN && lo <= T; w++) {
      const double hi = fmin(dm_win_hi[w], T);
      const int i0 = (int)lo - 1, i1 = (int)hi; /* t = lo..hi: indices i0..i1-1 */
      double rlo, rhi;
      X->lo[X->nwin] = lo;
      X->hi[X->nwin] = hi;
      dm_stats(X->p + i0, i1 - i0, tmp, &X->med[X->nwin], &X->pmin[X->nwin],
               &X->pmax[X->nwin]);
      dm_stats(X->res + i0, i1 - i0, tmp, &X->rmed[X->nwin], &rlo, &rhi);
      X->nwin++;
      lo = hi + 1;
    }
    dm_stats(X->p, T, tmp, &X->all_med, &X->all_min, &X->all_max);
  }
  dm_c13_analyse(S, tmp);
  free(x);
  return 0;
}

/* Whether h^q collapses the curves of method m: every window's median
 * exponent within DM_TOL of q. */
static int dm_collapses(const dm_study *S, int m, double q) {
  const dm_expo *X = &S->ex[m];
  int ok = X->nwin > 0;
  for (int w = 0; w < X->nwin; w++) {
    ok &= fabs(X->med[w] - q) <= DM_TOL;
  }
  return ok;
}

/* "p = 8.01 [7.98, 8.03] on t in [1, 10], ..." for method m. */
static void dm_expo_text(const dm_study *S, int m, char *buf, size_t len) {
  const dm_expo *X = &S->ex[m];
  size_t u = 0;
  buf[0] = '\0';
  for (int w = 0; w < X->nwin && u < len; w++) {
    u += (size_t)snprintf(
        buf + u, len - u,
        "%smedian %.2f (range %.2f..%.2f, median residual %.2g decades) on "
        "t in [%g, %g]",
        w ? "; " : "", X->med[w], X->pmin[w], X->pmax[w], X->rmed[w], X->lo[w], X->hi[w]);
  }
}

static int dm_claims(const dm_study *S, vi_claim *cl, double *tmp) {
  char buf[900], part[160];
  int nc = 0;
  /* C11: mu grows. */
  int grows = 1;
  size_t u = 0;
  buf[0] = '\0';
  for (int m = 0; m < DM_NPRK; m++) {
    for (int k = 0; k < S->nh; k++) {
      const dm_ens *E = &S->ens[m][k];
      grows &= E->late >= DM_GROWTH * E->early;
      snprintf(part, sizeof part, "%s%s h=%g: x%.2f, a = %.2f", u ? "; " : "",
               dm_meths[m].name, dm_h[k], E->late / E->early, E->a);
      u += (size_t)snprintf(buf + u, sizeof buf - u, "%s", part);
    }
  }
  vi_claim_set(
      &cl[nc++], grows,
      "C11 (§7.3): the energy is not conserved; its mean squared error mu(E,k) of "
      "(33) grows with t (mean of mu over the last tenth of the grid >= 1.5x its "
      "mean over the first tenth, every ensemble of nhprk)",
      "mean of mu, last tenth / first tenth, and mu ~ t^a fitted on t in [%d, %d]: %s",
      S->t_lo, S->T, buf);
  /* C11b: a random walk from E_0, mu = D t. */
  int walk = 1;
  u = 0;
  buf[0] = '\0';
  for (int m = 0; m < DM_NPRK; m++) {
    for (int k = 0; k < S->nh; k++) {
      const dm_ens *E = &S->ens[m][k];
      walk &= fabs(E->a - 1) <= DM_WALK_TOL;
      snprintf(part, sizeof part,
               "%s%s h=%g: a = %.2f (rms %.2f dec), D T / B = %.2f, R^2 %.2f",
               u ? "; " : "", dm_meths[m].name, dm_h[k], E->a, E->a_rms,
               E->D * S->T / E->B, E->r2);
      u += (size_t)snprintf(buf + u, sizeof buf - u, "%s", part);
    }
  }
  vi_claim_set(
      &cl[nc++], walk,
      "C11b (§7.3, read strictly): the energy performs a random walk from E_0, so mu "
      "grows like t (mu ~ t^a with a = 1 +- 0.25 on the fit range, every ensemble of "
      "nhprk)",
      "%s; the line mu = B + D t on the same range", buf);
  /* C12': s = 2, h^4. */
  dm_expo_text(S, 0, buf, sizeof buf);
  vi_claim_set(
      &cl[nc++], dm_collapses(S, 0, 4),
      "C12' (Fig. 6): the curves mu(E,k)/h^4 of Lobatto-2 (s = 2) coincide across h "
      "(exponent of mu in h within 0.5 of 4 in every window of t)",
      "exponent of mu in h (least squares of log mu on log h over h = %s): %s; median "
      "spread of mu/h^4 across h %.2f",
      S->nh == 3 ? "0.1, 0.05, 0.025" : "0.1, 0.05", buf, dm_spread(S, 0, 4, tmp));
  /* C12: s = 3, the paper's h^10 and the notes' h^8. */
  dm_expo_text(S, 1, buf, sizeof buf);
  const int c8 = dm_collapses(S, 1, 8), c10 = dm_collapses(S, 1, 10);
  const char *verdict = c8 ? "h^8 collapses" : c10 ? "h^10 collapses" : "neither";
  const double sp8 = dm_spread(S, 1, 8, tmp), sp10 = dm_spread(S, 1, 10, tmp);
  vi_claim_set(
      &cl[nc++], c10,
      "C12 (Fig. 6 as printed): the curves mu(E,k)/h^10 of Lobatto-3 (s = 3) "
      "coincide across h (exponent within 0.5 of 10 in every window of t)",
      "verdict: %s; exponent of mu in h: %s; median spread across h of mu/h^10 %.3g, "
      "of mu/h^8 %.3g",
      verdict, buf, sp10, sp8);
  vi_claim_set(
      &cl[nc++], c8,
      "C12n (notes C12, P15: order 2s-2 = 4 makes the energy error O(h^4), mu "
      "O(h^8)): the curves mu(E,k)/h^8 of Lobatto-3 coincide across h (exponent "
      "within 0.5 of 8 in every window of t)",
      "verdict: %s; exponent of mu in h: %s; median spread across h of mu/h^8 %.3g",
      verdict, buf, sp8);
  /* C12d: dla, h^4 (order 2, McLachlan-Perlmutter (4.18)). */
  dm_expo_text(S, DM_DLA, buf, sizeof buf);
  vi_claim_set(
      &cl[nc++], dm_collapses(S, DM_DLA, 4),
      "C12d (beyond the paper; dla is of order 2, so mu = O(h^4)): the curves "
      "mu(E,k)/h^4 of the DLA integrator coincide across h (exponent of mu in h within "
      "0.5 of 4 in every window of t)",
      "exponent of mu in h: %s; median spread of mu/h^4 across h %.2f", buf,
      dm_spread(S, DM_DLA, 4, tmp));
  /* C13 at the same h and at equal cost. */
  const dm_c13 *C = &S->c13;
  char wins[96] = "";
  for (int w = 0; w < S->ex[DM_S2].nwin; w++) {
    vi_claim_cat(wins, sizeof wins, "%s[%g, %g]", w ? ", " : "", S->ex[DM_S2].lo[w],
                 S->ex[DM_S2].hi[w]);
  }
  for (int pass = 0; pass < 2; pass++) {
    const double(*med)[DM_NWIN] = pass ? C->cmed : C->med;
    const double(*lo)[DM_NWIN] = pass ? C->clo : C->lo;
    const double(*hi)[DM_NWIN] = pass ? C->chi : C->hi;
    int like;
    const char *v = dm_c13_verdict(S, med, &like);
    buf[0] = '\0';
    for (int k = 0; k < S->nh; k++) {
      vi_claim_cat(buf, sizeof buf, "%sh=%g:", k ? "; " : "", dm_h[k]);
      for (int w = 0; w < S->ex[DM_S2].nwin; w++) {
        vi_claim_cat(buf, sizeof buf, " %.3g (%.2g..%.2g)", med[k][w], lo[k][w],
                     hi[k][w]);
      }
      if (pass) {
        vi_claim_cat(buf, sizeof buf, ", CPU time per member s=2/dla %.2f%s",
                     C->cost_ratio[k], C->outside[k] > 1 ? ", extrapolated" : "");
        if (C->outside[k] > 1) {
          vi_claim_cat(buf, sizeof buf, " x%.2f in cost", C->outside[k]);
        }
      }
    }
    if (!pass) {
      vi_claim_set(&cl[nc++], like,
                   "C13 (§7.3): on the chaotic ensemble nhprk s = 2 behaves like the DLA "
                   "integrator, no gain and no loss: at the same h the ratio "
                   "mu(nhprk s=2)/mu(dla) lies within a factor 10 of 1 (its median over "
                   "every window of t, every h)",
                   "verdict: %s; median (range) of the ratio per window of t, %s: %s", v,
                   wins, buf);
    } else {
      vi_claim_set(&cl[nc++], like,
                   "C13c (§7.3, at equal cost): the same at equal CPU time: mu of nhprk "
                   "s = 2 at the CPU time of a dla member at h (log mu on log CPU time, "
                   "least squares over h) within a factor 10 of dla's mu (median over "
                   "every window of t, every h)",
                   "verdict: %s; median (range) of the ratio per window of t, %s: %s; "
                   "slope of log mu(s=2) on log CPU time, median over t %.2f",
                   v, wins, buf, C->slope_med);
    }
  }
  /* C13g: the behaviour §7.3 says the methods share is the growth of mu
   * (C11): the same rule on the dla ensembles. */
  int dgrows = 1;
  buf[0] = '\0';
  for (int k = 0; k < S->nh; k++) {
    const dm_ens *E = &S->ens[DM_DLA][k], *E2 = &S->ens[DM_S2][k];
    dgrows &= E->late >= DM_GROWTH * E->early;
    vi_claim_cat(buf, sizeof buf, "%sh=%g: x%.2f, a = %.2f (nhprk s=2: x%.2f, a = %.2f)",
                 k ? "; " : "", dm_h[k], E->late / E->early, E->a, E2->late / E2->early,
                 E2->a);
  }
  vi_claim_set(
      &cl[nc++], dgrows,
      "C13g (§7.3, the behaviour C13 says the methods share: the energy's "
      "random walk, mu growing with t): the DLA integrator's mu grows with t "
      "too (C11's rule: mean over the last tenth of the grid >= 1.5x the mean "
      "over the first tenth, every dla ensemble)",
      "mean of mu, last tenth / first tenth, and mu ~ t^a fitted on t in [%d, %d], "
      "dla (nhprk s=2 beside it): %s",
      S->t_lo, S->T, buf);
  return nc;
}

/* ---- outputs ------------------------------------------------------------- */

static json_t *dm_num(double v) {
  return isfinite(v) ? json_real(v) : json_null();
}

static json_t *dm_json(const vi_study *s, const dm_study *S, const char *why, int quick,
                       const vi_claim *cl, int nc, double wall, double *tmp) {
  json_t *j = json_object(), *hs = json_array(), *ms = json_array(), *ens = json_array(),
         *ex = json_array(), *mem = json_array();
  for (int k = 0; k < S->nh; k++) {
    json_array_append_new(hs, json_real(dm_h[k]));
  }
  for (int m = 0; m < DM_NM; m++) {
    for (int c = 0; c < S->ncells; c++) {
      if (S->cells[c].mi == m) {
        json_array_append_new(ms, json_string(S->cells[c].method));
        break;
      }
    }
    for (int k = 0; k < S->nh; k++) {
      const dm_ens *E = &S->ens[m][k];
      json_array_append_new(
          ens,
          json_pack("{s:s, s:i, s:f, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, "
                    "s:o, s:o}",
                    "method", dm_meths[m].spec, "order", dm_meths[m].order, "h", dm_h[k],
                    "cpu_seconds_per_member", dm_num(E->cpu), "mu_t1", dm_num(E->mu[0]),
                    "mu_T", dm_num(E->mu[S->T - 1]), "growth_a", dm_num(E->a),
                    "growth_a_rms", dm_num(E->a_rms), "line_B", dm_num(E->B), "line_D",
                    dm_num(E->D), "line_R2", dm_num(E->r2), "mean_first_tenth",
                    dm_num(E->early), "mean_last_tenth", dm_num(E->late), "fit_t",
                    json_pack("[i, i]", S->t_lo, S->T), "members",
                    json_integer(S->J + 1)));
    }
    const dm_expo *X = &S->ex[m];
    json_t *w = json_array();
    for (int i = 0; i < X->nwin; i++) {
      json_array_append_new(
          w, json_pack("{s:f, s:f, s:o, s:o, s:o, s:o}", "t_lo", X->lo[i], "t_hi",
                       X->hi[i], "median", dm_num(X->med[i]), "min", dm_num(X->pmin[i]),
                       "max", dm_num(X->pmax[i]), "median_residual", dm_num(X->rmed[i])));
    }
    json_t *sp = json_object();
    for (int i = 0; i < dm_meths[m].nq; i++) {
      const int q = dm_meths[m].q[i];
      char key[16];
      snprintf(key, sizeof key, "h^%d", q);
      json_object_set_new(sp, key,
                          json_pack("{s:o, s:b}", "median_spread",
                                    dm_num(dm_spread(S, m, q, tmp)), "collapses",
                                    dm_collapses(S, m, q)));
    }
    json_array_append_new(ex,
                          json_pack("{s:s, s:i, s:o, s:o, s:o, s:o, s:o}", "method",
                                    dm_meths[m].spec, "theory", dm_theory(m), "median",
                                    dm_num(X->all_med), "min", dm_num(X->all_min), "max",
                                    dm_num(X->all_max), "windows", w, "scalings", sp));
  }
  /* C13: the ratios per h and window. */
  const dm_c13 *C = &S->c13;
  json_t *c13 = json_array();
  for (int k = 0; k < S->nh; k++) {
    json_t *w = json_array();
    for (int i = 0; i < S->ex[DM_S2].nwin; i++) {
      json_array_append_new(
          w, json_pack("{s:f, s:f, s:{s:o, s:o, s:o}, s:{s:o, s:o, s:o}}", "t_lo",
                       S->ex[DM_S2].lo[i], "t_hi", S->ex[DM_S2].hi[i], "same_h", "median",
                       dm_num(C->med[k][i]), "min", dm_num(C->lo[k][i]), "max",
                       dm_num(C->hi[k][i]), "equal_cost", "median", dm_num(C->cmed[k][i]),
                       "min", dm_num(C->clo[k][i]), "max", dm_num(C->chi[k][i])));
    }
    json_array_append_new(c13,
                          json_pack("{s:f, s:o, s:o, s:o}", "h", dm_h[k], "cpu_ratio",
                                    dm_num(C->cost_ratio[k]), "cost_outside_factor",
                                    dm_num(C->outside[k]), "windows", w));
  }
  int like_h, like_c;
  const char *vh = dm_c13_verdict(S, C->med, &like_h);
  const char *vc = dm_c13_verdict(S, C->cmed, &like_c);
  json_object_set_new(
      j, "c13",
      json_pack("{s:s, s:s, s:s, s:f, s:o, s:s, s:b, s:s, s:b, s:o}", "ratio",
                "mu(nhprk:s=2) / mu(dla)", "cpu_timing",
                "each member's CPU time is its own thread's, measured in the pool beside "
                "other members (-j threads, MPI ranks): not a pinned timed cell, and "
                "comparable only between members run on one kind of machine",
                "equal_cost",
                "mu(nhprk:s=2) at the mean CPU time of a dla member at h, from the "
                "least-squares line of log mu on log CPU time over h at every t",
                "like_factor", DM_LIKE, "cost_slope_median", dm_num(C->slope_med),
                "verdict_same_h", vh, "like_same_h", like_h, "verdict_equal_cost", vc,
                "like_equal_cost", like_c, "per_h", c13));
  for (int c = 0; c < S->ncells; c++) {
    const dm_cell *x = &S->cells[c];
    double amax = 0;
    for (int t = 0; t < S->T; t++) {
      amax = fmax(amax, fabs(x->dE[t]));
    }
    json_array_append_new(mem, json_pack("{s:s, s:f, s:i, s:f, s:f, s:f, s:f}", "method",
                                         x->method, "h", dm_h[x->hi], "j", x->j, "E0",
                                         x->E0, "dE_T", x->dE[S->T - 1], "max_abs_dE",
                                         amax, "cpu_seconds", x->cpu));
  }
  json_object_set_new(j, "id", json_string(s->id));
  json_object_set_new(j, "title", json_string(s->title));
  json_object_set_new(j, "choices", json_string(why));
  json_object_set_new(j, "quick", json_boolean(quick));
  json_object_set_new(
      j, "config",
      json_pack("{s:s, s:i, s:i, s:i, s:o, s:o, s:i, s:s, s:f, s:f, s:f, s:f}", "system",
                DM_SYSTEM, "m_c", DM_MC, "J", S->J, "members", S->J + 1, "methods", ms,
                "h", hs, "T", S->T, "grid", "t = 1, 2, ..., T", "collapse_tolerance",
                DM_TOL, "growth_ratio", DM_GROWTH, "random_walk_tolerance", DM_WALK_TOL,
                "like_factor", DM_LIKE));
  json_object_set_new(j, "ensembles", ens);
  json_object_set_new(j, "exponents", ex);
  json_object_set_new(j, "members", mem);
  vi_claims_json(j, cl, nc);
  json_object_set_new(j, "wall_seconds", json_real(wall));
  return j;
}

/* The CSV: t, mu of every ensemble (mu_TAG_hH), the exponent in h of
 * each method and its residual (p_TAG, p_TAG_residual), and C13's ratios
 * mu(s=2)/mu(dla) per h at the same h (r13_hH) and at equal cost
 * (r13c_hH). */
static char *dm_csv(const dm_study *S) {
  char *out = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&out, &len);
  if (!f) {
    return NULL;
  }
  fprintf(f, "t");
  for (int m = 0; m < DM_NM; m++) {
    for (int k = 0; k < S->nh; k++) {
      fprintf(f, ",mu_%s_h%g", dm_meths[m].tag, dm_h[k]);
    }
  }
  for (int m = 0; m < DM_NM; m++) {
    fprintf(f, ",p_%s,p_%s_residual", dm_meths[m].tag, dm_meths[m].tag);
  }
  for (int k = 0; k < S->nh; k++) {
    fprintf(f, ",r13_h%g", dm_h[k]);
  }
  for (int k = 0; k < S->nh; k++) {
    fprintf(f, ",r13c_h%g", dm_h[k]);
  }
  fputc('\n', f);
  for (int t = 0; t < S->T; t++) {
    fprintf(f, "%d", t + 1);
    for (int m = 0; m < DM_NM; m++) {
      for (int k = 0; k < S->nh; k++) {
        fprintf(f, ",%.17g", S->ens[m][k].mu[t]);
      }
    }
    for (int m = 0; m < DM_NM; m++) {
      fprintf(f, ",%.17g,%.17g", S->ex[m].p[t], S->ex[m].res[t]);
    }
    for (int k = 0; k < S->nh; k++) {
      fprintf(f, ",%.17g", S->c13.r[k][t]);
    }
    for (int k = 0; k < S->nh; k++) {
      fprintf(f, ",%.17g", S->c13.rc[k][t]);
    }
    fputc('\n', f);
  }
  return fclose(f) == 0 ? out : (free(out), NULL);
}

static char *dm_md(const vi_study *s, const dm_study *S, const char *why, int quick,
                   const vi_claim *cl, int nc, double wall, double *tmp) {
  char *out = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&out, &len);
  if (!f) {
    return NULL;
  }
  fprintf(f, "# %s\n\n%s%s\n\n![figure](%s.svg)\n\n%s\n\n", s->id,
          quick ? "**Quick run** (reduced J, h and T). " : "", s->title, s->id, why);
  vi_claims_md(f, "Claims", cl, nc);
  fprintf(f,
          "\n## The ensembles\n\nmu of (33) over the %d members; growth in t fitted on "
          "t in [%d, %d] (log-log slope a with its rms residual in decades; the line "
          "mu = B + D t with its R^2); means of mu over the first and the last tenth of "
          "the grid.\n\n",
          S->J + 1, S->t_lo, S->T);
  fprintf(f, "| method | h | mu(t = 1) | mu(t = T) | a | rms | B | D T | R^2 | first "
             "tenth | last tenth | ratio | CPU s per member |\n"
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (int m = 0; m < DM_NM; m++) {
    for (int k = 0; k < S->nh; k++) {
      const dm_ens *E = &S->ens[m][k];
      fprintf(
          f,
          "| %s | %g | %.3g | %.3g | %.2f | %.2f | %.3g | %.3g | %.2f | %.3g | %.3g | "
          "%.2f | %.3g |\n",
          dm_meths[m].name, dm_h[k], E->mu[0], E->mu[S->T - 1], E->a, E->a_rms, E->B,
          E->D * S->T, E->r2, E->early, E->late, E->late / E->early, E->cpu);
    }
  }
  fprintf(f,
          "\n## The exponent of mu in h\n\nAt every t of the grid, the least-squares "
          "slope p(t) of log mu against log h over the %d step sizes (residual in "
          "decades; zero with two step sizes), summarised per window of t. The order "
          "predicts p = 2 x order: 4 for nhprk s = 2 (order 2s - 2 = 2) and dla (order "
          "2), 8 for s = 3; Fig. 6 scales s = 3 by h^10. A scaling h^q collapses the "
          "curves when every window's median is within %.1f of q. The spread is the "
          "median over t of max_h (mu/h^q) / min_h (mu/h^q).\n\n",
          S->nh, DM_TOL);
  fprintf(f, "| method | theory | t window | median p | min | max | median residual |\n"
             "|---|---|---|---|---|---|---|\n");
  for (int m = 0; m < DM_NM; m++) {
    const dm_expo *X = &S->ex[m];
    for (int w = 0; w < X->nwin; w++) {
      fprintf(f, "| %s | %d | [%g, %g] | %.2f | %.2f | %.2f | %.2g |\n", dm_meths[m].name,
              dm_theory(m), X->lo[w], X->hi[w], X->med[w], X->pmin[w], X->pmax[w],
              X->rmed[w]);
    }
    fprintf(f, "| %s | %d | all | %.2f | %.2f | %.2f | |\n", dm_meths[m].name,
            dm_theory(m), X->all_med, X->all_min, X->all_max);
  }
  fprintf(f, "\n| method | scaling | median spread across h | collapses |\n"
             "|---|---|---|---|\n");
  for (int m = 0; m < DM_NM; m++) {
    for (int i = 0; i < dm_meths[m].nq; i++) {
      const int q = dm_meths[m].q[i];
      fprintf(f, "| %s | h^%d | %.3g | %s |\n", dm_meths[m].name, q,
              dm_spread(S, m, q, tmp), dm_collapses(S, m, q) ? "yes" : "no");
    }
  }
  const dm_c13 *C = &S->c13;
  int like_h, like_c;
  const char *vh = dm_c13_verdict(S, C->med, &like_h);
  const char *vc = dm_c13_verdict(S, C->cmed, &like_c);
  fprintf(f,
          "\n## C13: nhprk s = 2 against the DLA integrator\n\n"
          "The ratio mu(nhprk s=2) / mu(dla) at every t, at the same h and at equal "
          "CPU time, summarised per window of t by its median and range. At equal cost "
          "nhprk s = 2's mu is read at the mean CPU time of a dla member at h off the "
          "least-squares line of log mu(s=2) against log CPU time over the %d step "
          "sizes at that t (median slope %.2f; 'extrapolated' where dla's time lies "
          "outside the range of s = 2's, by the factor given). A member's CPU time is "
          "its measuring thread's over the whole run, the energy at every node "
          "included. The methods are alike when every median lies within a factor %g "
          "of 1 (a factor %.1f in the rms energy error, less than one halving of h "
          "changes mu, 16).\n\n",
          S->nh, C->slope_med, DM_LIKE, sqrt(DM_LIKE));
  fprintf(f, "| h | CPU s=2 / dla | t window | same h: median | min | max | equal cost: "
             "median | min | max |\n|---|---|---|---|---|---|---|---|---|\n");
  for (int k = 0; k < S->nh; k++) {
    for (int w = 0; w < S->ex[DM_S2].nwin; w++) {
      char cr[48];
      snprintf(cr, sizeof cr, "%.2f", C->cost_ratio[k]);
      if (C->outside[k] > 1) {
        snprintf(cr, sizeof cr, "%.2f (extrapolated x%.2f)", C->cost_ratio[k],
                 C->outside[k]);
      }
      fprintf(f, "| %g | %s | [%g, %g] | %.3g | %.3g | %.3g | %.3g | %.3g | %.3g |\n",
              dm_h[k], w ? "" : cr, S->ex[DM_S2].lo[w], S->ex[DM_S2].hi[w], C->med[k][w],
              C->lo[k][w], C->hi[k][w], C->cmed[k][w], C->clo[k][w], C->chi[k][w]);
    }
  }
  fprintf(
      f,
      "\nVerdict at the same h: %s. At equal cost: %s. Whether dla's mu grows "
      "with t as nhprk's does (C11's rule) is C13g; the ensembles table has both. "
      "SPARK, the other comparator of §7.3, is not in the harness.\n\n"
      "%d of %d members (one trajectory each, a cell of the store); wall time %.1f s. "
      "Regenerate with `vistudy reproduce %s`.\n",
      vh, vc, S->ncells, DM_NM * S->nh * (S->J + 1), wall, s->id);
  return fclose(f) == 0 ? out : (free(out), NULL);
}

/* The figure: mu/h^4 (s = 2, solid, and dla, dashed), mu/h^8 and mu/h^10
 * (s = 3) against t per h, and the exponent p(t) of each method with the
 * candidate lines. */
static char *dm_plot(const vi_study *s, const dm_study *S) {
  char title[200];
  snprintf(title, sizeof title, "%s: mu(E,k) of (33), %d members, chaotic-nh m_c = %d",
           s->id, S->J + 1, DM_MC);
  vi_gp *g = vi_gp_new(title);
  const int T = S->T;
  double *t = malloc((size_t)T * sizeof *t), *y = malloc((size_t)T * sizeof *y);
  if (!g || !t || !y) {
    vi_gp_free(g);
    free(t);
    free(y);
    return NULL;
  }
  for (int i = 0; i < T; i++) {
    t[i] = i + 1;
  }
  /* Each panel: its methods (-1: none), the scaling, the title. */
  static const struct {
    int m[2], q;
    const char *title;
  } pan[3] = {{{DM_S2, DM_DLA}, 4, "Lobatto-2 (s = 2, solid) and DLA (dashed): mu / h^4"},
              {{DM_S3, -1}, 8, "Lobatto-3 (s = 3): mu / h^8 (order 4)"},
              {{DM_S3, -1}, 10, "Lobatto-3 (s = 3): mu / h^10 (Fig. 6 as printed)"}};
  for (int p = 0; p < 3; p++) {
    char yl[64];
    snprintf(yl, sizeof yl, "mean squared energy error mu / h^{%d}", pan[p].q);
    vi_gp_panel(g, pan[p].title, "time t [time units]", yl, VI_GP_LOGY);
    for (int d = 0; d < 2 && pan[p].m[d] >= 0; d++) {
      const int m = pan[p].m[d];
      for (int k = 0; k < S->nh; k++) {
        char lab[48];
        if (pan[p].m[1] >= 0) {
          snprintf(lab, sizeof lab, "%s, h = %g", dm_meths[m].name, dm_h[k]);
        } else {
          snprintf(lab, sizeof lab, "h = %g", dm_h[k]);
        }
        for (int i = 0; i < T; i++) {
          y[i] = S->ens[m][k].mu[i] / pow(dm_h[k], pan[p].q);
        }
        vi_gp_curve_style(g, lab, t, y, T, k, d, VI_GP_LINES);
      }
    }
  }
  vi_gp_panel(g, "exponent p(t) of mu in h (least squares over h)", "time t [time units]",
              "exponent p", VI_GP_LOGX);
  vi_gp_set(g, "set yrange [0:12]");
  for (int m = 0; m < DM_NM; m++) {
    vi_gp_curve_style(g, dm_meths[m].name, t, S->ex[m].p, T, m, m == DM_DLA, VI_GP_LINES);
  }
  const int qs[3] = {4, 8, 10};
  for (int i = 0; i < 3; i++) {
    char lab[32];
    snprintf(lab, sizeof lab, "p = %d", qs[i]);
    const double ends[2] = {1, T}, q[2] = {qs[i], qs[i]};
    vi_gp_curve_style(g, lab, ends, q, 2, 3 + i, 2, VI_GP_LINES);
  }
  char *body = vi_gp_body(g, 2, 2);
  vi_gp_free(g);
  free(t);
  free(y);
  return body;
}

/* ---- the study ------------------------------------------------------------ */

static int dm_alloc(dm_study *S) {
  S->ncells = DM_NM * S->nh * (S->J + 1);
  S->cells = calloc((size_t)S->ncells, sizeof *S->cells);
  /* dE of every cell, mu of every ensemble, p and res of every method,
   * C13's two ratios per h and its slope. */
  const size_t n =
      (size_t)S->T * (size_t)(S->ncells + DM_NM * S->nh + 2 * DM_NM + 2 * S->nh + 1);
  S->buf = malloc(n * sizeof *S->buf);
  if (!S->cells || !S->buf) {
    return -1;
  }
  double *b = S->buf;
  /* The longest runs first (dm_cost_order at the smallest h), so the pool
   * ends together. */
  int c = 0;
  for (int k = S->nh - 1; k >= 0; k--) {
    for (int i = 0; i < DM_NM; i++) {
      const int m = dm_cost_order[i];
      for (int j = 0; j <= S->J; j++, c++) {
        S->cells[c] = (dm_cell){.mi = m, .hi = k, .j = j, .J = S->J, .T = S->T, .dE = b};
        b += S->T;
      }
    }
  }
  for (int m = 0; m < DM_NM; m++) {
    for (int k = 0; k < S->nh; k++, b += S->T) {
      S->ens[m][k].mu = b;
    }
    S->ex[m].p = b;
    S->ex[m].res = b + S->T;
    b += 2 * S->T;
  }
  for (int k = 0; k < S->nh; k++) {
    S->c13.r[k] = b;
    S->c13.rc[k] = b + S->T;
    b += 2 * S->T;
  }
  S->c13.slope = b;
  return 0;
}

int vi_demartin2018_chaotic(const vi_study *s, const reproduce_opts *o) {
  dm_study S;
  memset(&S, 0, sizeof S);
  S.J = o->quick ? DM_J_QUICK : DM_J;
  S.T = o->quick ? DM_T_QUICK : DM_T;
  S.nh = o->quick ? DM_NH_QUICK : DM_NH;
  /* The growth is fitted past the first hundredth of the run, where mu has
   * left its initial rise. */
  S.t_lo = S.T / 100 > 1 ? S.T / 100 : 1;
  const double t0 = vi_clock();
  char why[2000], config[400], note[VI_PATH_MAX + 256], err[2 * VI_PATH_MAX + 256] = "";
  snprintf(
      why, sizeof why,
      "Ensemble of demartin2018 (33): members j = 0..J = %d of chaotic-nh with m_c = %d "
      "(n = 7), q0 = (cos(j pi/(2J)), 0.6, 0.4, 0.2, 1, 1, 1), v0 = sin(j pi/(2J)) e_2, "
      "E_0 = 3.06 (the paper's); J, h and T are not given by the paper: J = %d (notes "
      "§4.4, odelab's test), h in {%s}, T = %d; nhprk s = 2 and 3 (Lobatto-2, "
      "Lobatto-3) and the DLA comparator of §7.3 (dla, McLachlan-Perlmutter (4.18), "
      "order 2, point leapfrog) in double precision, Newton tolerance 100 eps; E_j0 is "
      "each member's computed initial energy. mu(E,k) on the grid t = 1, 2, ..., T; "
      "each member (method, h, j) is one cell of the store, with the CPU time of its "
      "run. Exponent of mu in h: least squares of log mu on log h at every t, "
      "summarised over the windows [1, 10], [11, 100], [101, T]; a scaling h^q "
      "collapses the curves when every window's median is within %.1f of q. Growth in "
      "t: mu ~ t^a and mu = B + D t on [%d, T]. C13: mu(nhprk s=2)/mu(dla) at the same "
      "h and at equal CPU time, median per window of t; alike when every median lies "
      "within a factor %g of 1.",
      S.J, DM_MC, S.J, S.nh == 3 ? "0.1, 0.05, 0.025" : "0.1, 0.05", S.T, DM_TOL, S.t_lo,
      DM_LIKE);
  /* The cells' layout is part of the configuration: a store of another
   * layout (v1: two methods, no CPU time) is not used. */
  snprintf(
      config, sizeof config,
      "%s m_c=%d; J = %d; T = %d; grid t = 1..T; h = %s; methods %s, %s, %s; double; "
      "cells v2 (E0, cpu_seconds, dE); %s",
      DM_SYSTEM, DM_MC, S.J, S.T, S.nh == 3 ? "0.1,0.05,0.025" : "0.1,0.05",
      dm_meths[0].spec, dm_meths[1].spec, dm_meths[2].spec, o->quick ? "quick" : "full");
  int status = VI_EXIT_OK;
  vi_cells store;
  int store_open = 0;
  if (dm_alloc(&S) != 0) {
    fprintf(stderr, "vistudy reproduce: %s: out of memory\n", s->id);
    status = VI_EXIT_FAIL;
  } else if (vi_cells_open(&store, o->results_dir, s->id, config, o->fresh, note,
                           sizeof note, err, sizeof err) != 0) {
    fprintf(stderr, "vistudy reproduce: %s: %s\n", s->id, err);
    status = VI_EXIT_FAIL;
  } else {
    store_open = 1;
    if (note[0]) {
      fprintf(stderr, "vistudy reproduce: %s: %s\n", s->id, note);
    }
    const vi_pool_opts po = vi_pool_of(o);
    if (vi_cells_measure_pool(&store, &dm_unit, S.cells, S.ncells, NULL, s->id, &po) != 0) {
      status = VI_EXIT_FAIL;
    }
  }
  vi_claim cl[10];
  int nc = 0;
  json_t *j = NULL;
  char *md = NULL, *csv = NULL, *gp = NULL;
  double *tmp = status == VI_EXIT_OK ? malloc((size_t)(2 * S.T) * sizeof *tmp) : NULL;
  if (status == VI_EXIT_OK) {
    if (!tmp || dm_analyse(&S) != 0) {
      snprintf(err, sizeof err, "out of memory");
      status = VI_EXIT_FAIL;
    } else {
      memset(cl, 0, sizeof cl);
      nc = dm_claims(&S, cl, tmp);
      const double wall = vi_clock() - t0;
      j = dm_json(s, &S, why, o->quick, cl, nc, wall, tmp);
      md = dm_md(s, &S, why, o->quick, cl, nc, wall, tmp);
      csv = dm_csv(&S);
      gp = dm_plot(s, &S);
      if (!j || !md || !csv || !gp) {
        snprintf(err, sizeof err, "out of memory writing the results");
        status = VI_EXIT_FAIL;
      }
    }
  }
  int written = 0;
  if (status == VI_EXIT_OK) {
    vi_outset set;
    vi_outset_init(&set);
    if (vi_study_stage(&set, o->results_dir, s->id, j, md, csv, err, sizeof err) != 0 ||
        vi_plot_stage(&set, o->results_dir, s->id, gp, 1100, 900, err, sizeof err) != 0) {
      vi_outset_abort(&set);
      status = VI_EXIT_FAIL;
    } else {
      written = vi_outset_commit(&set, err, sizeof err) == 0;
      status = written ? VI_EXIT_OK : VI_EXIT_FAIL;
    }
    if (!written) {
      fprintf(stderr, "vistudy reproduce: %s: %s\n", s->id, err);
    }
  } else if (err[0]) {
    fprintf(stderr, "vistudy reproduce: %s: %s\n", s->id, err);
  }
  if (!written && store_open) {
    vi_study_stopped(s->id, "measured members");
  }
  if (store_open) {
    if (written) {
      vi_cells_finish(&store);
    }
    vi_cells_close(&store);
  }
  if (written) {
    vi_claims_print(stdout, s->id, "of the text", cl, nc);
    printf("%s: %d members x %d step sizes x %d methods, T = %d; wall time %.1f s\n",
           s->id, S.J + 1, S.nh, DM_NM, S.T, vi_clock() - t0);
    printf("  results: %s/%s.{md,csv,json,gp,svg,png,pdf}\n", o->results_dir, s->id);
    if (vi_claims_status(cl, nc, o->strict)) {
      status = VI_EXIT_FAIL;
    }
  }
  json_decref(j);
  free(md);
  free(csv);
  free(gp);
  free(tmp);
  free(S.cells);
  free(S.buf);
  return status;
}
