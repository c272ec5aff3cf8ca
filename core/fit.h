/* fit.h: convergence-order fits of global errors against step sizes
 * (design.md "Studies and results"). Non-templated: errors are reported in
 * double whatever the working precision (their exponent range suffices). */
#ifndef VI_FIT_H
#define VI_FIT_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum vi_fit_status {
  VI_FIT_OK = 0,        /* an order was fitted */
  VI_FIT_DIVERGENT = 1, /* 'd': the error does not decrease when h does */
  VI_FIT_PLATEAU = 2,   /* every error sits at the round-off/reference floor */
  VI_FIT_TOO_FEW = 3    /* fewer than two usable points */
} vi_fit_status;

typedef struct vi_fit {
  int status;      /* vi_fit_status */
  double order;    /* least-squares slope of log e against log h */
  int lo, hi;      /* index range [lo, hi] of the points used (h sorted descending) */
  double residual; /* RMS of the fit residuals in log10 e */
  int n_plateau;   /* points excluded as being at the floor */
} vi_fit;

/* Fit the order of errors e[i] at step sizes h[i] (n points, h strictly
 * decreasing). Points with e <= plateau_factor * floor are excluded as
 * round-off plateau; non-finite errors end the usable range. The fit uses
 * the longest window of 3-5 consecutive usable points whose log-log fit is
 * straight (rms residual <= 0.05 in log10 e), preferring the smallest h, so
 * a pre-asymptotic start and round-off noise at the end are both dropped;
 * failing that the straightest window of three, or the only pair.
 * Divergence ('d', the paper's "the global error does not decrease when
 * the time step decreases"): over the usable points the error at the
 * smallest h is not below 0.8 times the error at the largest, or the slope
 * over the asymptotic range is below 1/2; order, lo, hi and residual are
 * still set in the second case. */
vi_fit vi_fit_order(int n, const double *h, const double *e, double floor,
                    double plateau_factor);

/* "4.02", "d", "plateau" or "-" for a fit, into buf. */
const char *vi_fit_label(const vi_fit *f, char *buf, int len);

#ifdef __cplusplus
}
#endif
#endif
