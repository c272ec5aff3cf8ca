/* fit.c: least-squares order fits with divergence and round-off plateau
 * labels (fit.h). */
#include "fit.h"

#include <math.h>
#include <stdio.h>

/* Least-squares slope of log e on log h over [lo, hi], and the RMS residual
 * (log10). */
static double lsq(const double *h, const double *e, int lo, int hi, double *res) {
  int n = hi - lo + 1;
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (int i = lo; i <= hi; i++) {
    double x = log10(h[i]), y = log10(e[i]);
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  double den = n * sxx - sx * sx;
  double slope = den != 0 ? (n * sxy - sx * sy) / den : 0;
  double icpt = (sy - slope * sx) / n;
  double r2 = 0;
  for (int i = lo; i <= hi; i++) {
    double d = log10(e[i]) - (icpt + slope * log10(h[i]));
    r2 += d * d;
  }
  *res = sqrt(r2 / n);
  return slope;
}

/* Standard error of the least-squares slope over [lo, hi] (log10 units,
 * the slope is dimensionless). */
static double slope_se(const double *h, const double *e, int lo, int hi, double slope) {
  int n = hi - lo + 1;
  if (n < 3) {
    return INFINITY;
  }
  double mx = 0, my = 0;
  for (int i = lo; i <= hi; i++) {
    mx += log10(h[i]) / n;
    my += log10(e[i]) / n;
  }
  double sxx = 0, r2 = 0;
  for (int i = lo; i <= hi; i++) {
    double x = log10(h[i]) - mx, d = log10(e[i]) - my - slope * x;
    sxx += x * x;
    r2 += d * d;
  }
  return sxx > 0 ? sqrt(r2 / (n - 2) / sxx) : INFINITY;
}

/* Local slopes over [lo, hi]: their smallest and largest. */
static void local_slopes(const double *h, const double *e, int lo, int hi, double *smin,
                         double *smax) {
  *smin = INFINITY;
  *smax = -INFINITY;
  for (int i = lo; i < hi; i++) {
    double s = log(e[i] / e[i + 1]) / log(h[i] / h[i + 1]);
    *smin = s < *smin ? s : *smin;
    *smax = s > *smax ? s : *smax;
  }
}

/* 1 when a local slope over [lo, hi] differs from the finest one by more
 * than VI_FIT_SETTLE, or the local slopes move one way by more than half
 * of it: the window has not settled on its asymptotic slope. */
static int monotone(const double *h, const double *e, int lo, int hi);

static int drifting(const double *h, const double *e, int lo, int hi) {
  const double last = log(e[hi - 1] / e[hi]) / log(h[hi - 1] / h[hi]);
  double smin, smax;
  for (int i = lo; i < hi - 1; i++) {
    double s = log(e[i] / e[i + 1]) / log(h[i] / h[i + 1]);
    if (!(fabs(s - last) <= VI_FIT_SETTLE)) {
      return 1;
    }
  }
  /* A one-way trend of the local slopes biases the fitted slope towards
   * its coarse end: more than half the tolerance of it is not settled. */
  local_slopes(h, e, lo, hi, &smin, &smax);
  return monotone(h, e, lo, hi) && smax - smin > VI_FIT_SETTLE / 2;
}

/* 1 when the local slopes over [lo, hi] move one way (all increasing or all
 * decreasing): the reason given for an unsettled window. */
static int monotone(const double *h, const double *e, int lo, int hi) {
  int up = 1, down = 1;
  double s0 = NAN;
  for (int i = lo; i < hi; i++) {
    double s = log(e[i] / e[i + 1]) / log(h[i] / h[i + 1]);
    if (!isnan(s0)) {
      up &= s > s0;
      down &= s < s0;
    }
    s0 = s;
  }
  return up || down;
}

/* The verdict over the m usable points hh, ee: the window of
 * VI_FIT_MIN_POINTS consecutive points at the smallest h (the most
 * asymptotic one; a coarser one only when the finer errors are near the
 * floor) whose least-squares line is straight (rms residual <=
 * VI_FIT_MAX_RESIDUAL), whose slope is known to VI_FIT_MAX_SE (standard
 * error) and whose local slopes all lie within VI_FIT_SETTLE of the finest
 * one (settled). */
static void judge(vi_fit *f, const int *idx, const double *hh, const double *ee, int m,
                  double floor) {
  f->n_above = m;
  f->uncertainty = NAN;
  f->slope_min = f->slope_max = NAN;
  f->verdict = VI_VERDICT_UNRESOLVED;
  if (f->status == VI_FIT_PLATEAU) {
    f->why = VI_WHY_FLOOR;
    return;
  }
  if (m == 0) {
    f->why = VI_WHY_NO_DATA;
    return;
  }
  /* The finest windows are judged even when the coarse test called the
   * errors divergent: a flat pre-asymptotic start must not hide a clean
   * fine window. */
  const int divergent = f->status == VI_FIT_DIVERGENT;
  const int L = VI_FIT_MIN_POINTS;
  if (m < L) {
    f->why = divergent ? VI_WHY_NOT_CONVERGING : VI_WHY_TOO_FEW;
    return;
  }
  for (int b = m - L; b >= 0; b--) {
    /* A window short of the smallest h only when every finer error is
     * near the floor (within 1e3 floor, where round-off may bend the
     * line): otherwise the finest errors disagree with it, and the
     * asymptotic range is not established. */
    int near_floor = 1;
    for (int i = b + L; i < m; i++) {
      near_floor &= ee[i] <= 1e3 * floor;
    }
    if (!near_floor) {
      break;
    }
    double res, slope = lsq(hh, ee, b, b + L - 1, &res);
    double se = slope_se(hh, ee, b, b + L - 1, slope);
    if (!(res <= VI_FIT_MAX_RESIDUAL) || !(se <= VI_FIT_MAX_SE) || slope < 0.5 ||
        drifting(hh, ee, b, b + L - 1)) {
      continue;
    }
    f->verdict = VI_VERDICT_OK;
    f->why = VI_WHY_NONE;
    f->status = VI_FIT_OK;
    f->order = slope;
    f->lo = idx[b];
    f->hi = idx[b + L - 1];
    f->residual = res;
    f->uncertainty = se;
    local_slopes(hh, ee, b, b + L - 1, &f->slope_min, &f->slope_max);
    return;
  }
  local_slopes(hh, ee, m - L, m - 1, &f->slope_min, &f->slope_max);
  f->why = divergent                       ? VI_WHY_NOT_CONVERGING
           : monotone(hh, ee, m - L, m - 1) ? VI_WHY_PREASYMPTOTIC
                                            : VI_WHY_SCATTERED;
}

int vi_fit_tail_slopes(int n, const double *h, const double *e, double s[2]) {
  if (n < 3) {
    return -1;
  }
  for (int i = n - 3; i < n; i++) {
    if (!(isfinite(e[i]) && e[i] > 0)) {
      return -1;
    }
  }
  for (int k = 0; k < 2; k++) {
    const int i = n - 2 + k;
    s[k] = log(e[i - 1] / e[i]) / log(h[i - 1] / h[i]);
  }
  return 0;
}

const char *vi_fit_why(int why) {
  switch (why) {
  case VI_WHY_FLOOR:
    return "every error is at the round-off/reference floor";
  case VI_WHY_TOO_FEW:
    return "too few usable errors";
  case VI_WHY_NOT_CONVERGING:
    return "the error does not decrease with h";
  case VI_WHY_PREASYMPTOTIC:
    return "pre-asymptotic: the local slopes still drift";
  case VI_WHY_SCATTERED:
    return "scattered errors: the local slopes disagree";
  case VI_WHY_NO_DATA:
    return "no run gave a finite error";
  case VI_WHY_SOLVER:
    return "the Newton iterations per step grow over the window (the solves set the errors)";
  default:
    return "";
  }
}

vi_fit vi_fit_order(int n, const double *h, const double *e, double floor,
                    double plateau_factor) {
  vi_fit f = {VI_FIT_TOO_FEW, 0, 0, -1, 0, 0, VI_VERDICT_UNRESOLVED, VI_WHY_NO_DATA, NAN, 0,
              NAN, NAN};
  /* Usable points: finite, positive, above the floor. A failed run is
   * simply absent, wherever it is: at the coarse end a step too large for
   * the method, in between a solve that failed at one h while coarser and
   * finer ones succeeded (ending the usable range there, as before, left a
   * fit with the errors above the failure only). */
  int last = -1, first = -1, nplat = 0;
  for (int i = 0; i < n; i++) {
    if (!isfinite(e[i])) {
      continue;
    }
    if (e[i] <= plateau_factor * floor) {
      nplat++;
      continue;
    }
    if (first < 0) {
      first = i;
    }
    last = i;
  }
  f.n_plateau = nplat;
  if (first < 0) {
    f.status = nplat > 0 ? VI_FIT_PLATEAU : VI_FIT_TOO_FEW;
    judge(&f, NULL, NULL, NULL, 0, floor);
    return f;
  }
  /* Plateau points in the middle of the usable run are not used either:
   * collect the usable indices. */
  int idx[64], m = 0;
  for (int i = first; i <= last && m < 64; i++) {
    if (isfinite(e[i]) && e[i] > plateau_factor * floor) {
      idx[m++] = i;
    }
  }
  double hh[64], ee[64];
  for (int i = 0; i < m; i++) {
    hh[i] = h[idx[i]];
    ee[i] = e[idx[i]];
  }
  if (m < 2) {
    f.status = VI_FIT_TOO_FEW;
    f.lo = f.hi = idx[0];
    judge(&f, idx, hh, ee, m, floor);
    return f;
  }
  if (!(e[idx[m - 1]] < 0.8 * e[idx[0]])) {
    f.status = VI_FIT_DIVERGENT;
    f.lo = idx[0];
    f.hi = idx[m - 1];
    judge(&f, idx, hh, ee, m, floor);
    return f;
  }
  /* The asymptotic range: the longest window of 3-5 consecutive usable
   * points whose log-log fit is straight (rms residual <= 0.05 in log10 e),
   * preferring the smallest h; this drops both a pre-asymptotic start and
   * round-off noise at the end. Failing that, the straightest window of
   * three (its residual is reported), or the pair when there are only two. */
  int lo = m - 2, hi = m - 1, found = 0;
  double res = 0, slope = lsq(hh, ee, lo, hi, &res);
  for (int L = m < 5 ? m : 5; L >= 3 && !found; L--) {
    for (int b = m - L; b >= 0; b--) {
      double r2, sl = lsq(hh, ee, b, b + L - 1, &r2);
      if (r2 <= 0.05) {
        lo = b;
        hi = b + L - 1;
        slope = sl;
        res = r2;
        found = 1;
        break;
      }
    }
  }
  if (!found && m >= 3) {
    double best = INFINITY;
    for (int b = 0; b + 2 < m; b++) {
      double r2, sl = lsq(hh, ee, b, b + 2, &r2);
      if (r2 < best) {
        best = r2;
        lo = b;
        hi = b + 2;
        slope = sl;
        res = r2;
      }
    }
  }
  /* Over the asymptotic range the error must decrease: a slope below 1/2
   * (e.g. a constant multiplier error after a pre-asymptotic start far
   * above it, which the end-point test above does not see) is 'd'. */
  f.status = slope < 0.5 ? VI_FIT_DIVERGENT : VI_FIT_OK;
  f.order = slope;
  f.lo = idx[lo];
  f.hi = idx[hi];
  f.residual = res;
  judge(&f, idx, hh, ee, m, floor);
  return f;
}

const char *vi_fit_label(const vi_fit *f, char *buf, int len) {
  switch (f->status) {
  case VI_FIT_OK:
    if (f->verdict != VI_VERDICT_OK) {
      snprintf(buf, (size_t)len, "unresolved");
      break;
    }
    snprintf(buf, (size_t)len, "%.2f", f->order);
    break;
  case VI_FIT_DIVERGENT:
    snprintf(buf, (size_t)len, "d");
    break;
  case VI_FIT_PLATEAU:
    snprintf(buf, (size_t)len, "plateau");
    break;
  default:
    snprintf(buf, (size_t)len, "-");
    break;
  }
  return buf;
}

void vi_fit_solver_check(vi_fit *f, const double *newton) {
  if (newton == NULL || f->verdict != VI_VERDICT_OK) {
    return;
  }
  const double a = newton[f->lo], b = newton[f->hi];
  if (a > 0 && b > VI_FIT_SOLVER_GROWTH * a) {
    f->verdict = VI_VERDICT_UNRESOLVED;
    f->why = VI_WHY_SOLVER;
  }
}
