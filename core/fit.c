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

vi_fit vi_fit_order(int n, const double *h, const double *e, double floor,
                    double plateau_factor) {
  vi_fit f = {VI_FIT_TOO_FEW, 0, 0, -1, 0, 0};
  /* Usable points: finite, positive, above the floor; the run ends at the
   * first failure (a method that failed at some h has no smaller-h data). */
  int last = -1, first = -1, nplat = 0;
  for (int i = 0; i < n; i++) {
    if (!isfinite(e[i])) {
      break;
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
  if (m < 2) {
    f.status = VI_FIT_TOO_FEW;
    f.lo = f.hi = idx[0];
    return f;
  }
  if (!(e[idx[m - 1]] < 0.8 * e[idx[0]])) {
    f.status = VI_FIT_DIVERGENT;
    f.lo = idx[0];
    f.hi = idx[m - 1];
    return f;
  }
  /* The asymptotic range: the longest window of 3-5 consecutive usable
   * points whose log-log fit is straight (rms residual <= 0.05 in log10 e),
   * preferring the smallest h; this drops both a pre-asymptotic start and
   * round-off noise at the end. Failing that, the straightest window of
   * three (its residual is reported), or the pair when there are only two. */
  double hh[64], ee[64];
  for (int i = 0; i < m; i++) {
    hh[i] = h[idx[i]];
    ee[i] = e[idx[i]];
  }
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
  return f;
}

const char *vi_fit_label(const vi_fit *f, char *buf, int len) {
  switch (f->status) {
  case VI_FIT_OK:
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
