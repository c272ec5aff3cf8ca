/* fit.h: convergence-order fits of global errors against step sizes
 * (design.md "Studies and results"). Non-templated: errors are reported in
 * double whatever the working precision (their exponent range suffices). */
#ifndef VI_FIT_H
#define VI_FIT_H

#include "drivers.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum vi_fit_status {
  VI_FIT_OK = 0,        /* an order was fitted */
  VI_FIT_DIVERGENT = 1, /* 'd': the error does not decrease when h does */
  VI_FIT_PLATEAU = 2,   /* every error sits at the round-off/reference floor */
  VI_FIT_TOO_FEW = 3    /* fewer than two usable points */
} vi_fit_status;

/* The verdict on a fit (docs/orders.md): ok when VI_FIT_MIN_POINTS
 * consecutive errors above the floor, the ones at the smallest h that
 * qualify, lie on a line (rms residual <= VI_FIT_MAX_RESIDUAL in log10 e)
 * whose slope has a standard error <= VI_FIT_MAX_SE, and their local slopes
 * all lie within VI_FIT_SETTLE of the finest one without a one-way trend of
 * more than VI_FIT_SETTLE / 2; the order is then that
 * slope, with its standard error as the uncertainty. Otherwise unresolved,
 * with the reason. */
#define VI_FIT_MIN_POINTS 4
#define VI_FIT_SETTLE 0.3
#define VI_FIT_MAX_SE 0.1
#define VI_FIT_MAX_RESIDUAL 0.05
typedef enum vi_verdict { VI_VERDICT_OK = 0, VI_VERDICT_UNRESOLVED = 1 } vi_verdict;
typedef enum vi_unresolved {
  VI_WHY_NONE = 0,
  VI_WHY_FLOOR = 1,         /* every error at the round-off/reference floor */
  VI_WHY_TOO_FEW = 2,       /* fewer than VI_FIT_MIN_POINTS errors above the floor */
  VI_WHY_NOT_CONVERGING = 3, /* 'd': the error does not decrease with h */
  VI_WHY_PREASYMPTOTIC = 4, /* the local slopes still drift one way */
  VI_WHY_SCATTERED = 5,     /* the local slopes disagree without a trend */
  VI_WHY_NO_DATA = 6,       /* no run gave a finite error */
  VI_WHY_SOLVER = 7         /* the Newton iterations per step grow over the
                               window: the solves, not the method's order,
                               set the errors (vi_fit_solver_check) */
} vi_unresolved;

typedef struct vi_fit {
  int status;      /* vi_fit_status */
  double order;    /* least-squares slope of log e against log h */
  int lo, hi;      /* index range [lo, hi] of the points used (h sorted descending) */
  double residual; /* RMS of the fit residuals in log10 e */
  int n_plateau;   /* points excluded as being at the floor */
  int verdict;        /* vi_verdict */
  int why;            /* vi_unresolved: the reason of an unresolved verdict */
  double uncertainty; /* of an ok order: the slope's standard error */
  int n_above;        /* usable errors above the floor */
  double slope_min, slope_max; /* local slopes over [lo, hi] (NaN: none) */
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
 * still set in the second case. Failed runs (non-finite errors) at the
 * coarse end are skipped; one after a finite error ends the usable range.
 * The verdict (above) is set in every case; an ok verdict replaces order,
 * lo, hi and residual by those of its settled window. */
vi_fit vi_fit_order(int n, const double *h, const double *e, double floor,
                    double plateau_factor);

/* The two finest local slopes of errors e at step sizes h (n points, h
 * decreasing), log(e[i-1]/e[i]) / log(h[i-1]/h[i]) over the last three
 * points, into s[0] (the coarser) and s[1]: 0, or -1 when the last three
 * errors are not all finite and positive. A slope below 0 means the error
 * grows as h shrinks; both finest slopes below VI_FIT_GROWTH is the
 * signature of round-off amplified by 1/h (demartin2018's multipliers,
 * notes P16: the momentum balance divided by h), which finer steps only
 * make worse and a wider precision removes. */
#define VI_FIT_GROWTH (-0.5)
int vi_fit_tail_slopes(int n, const double *h, const double *e, double s[2]);

/* The reason of an unresolved verdict as text ("" for none). */
const char *vi_fit_why(int why);

/* "4.02", "d", "plateau" or "-" for a fit, into buf. */
const char *vi_fit_label(const vi_fit *f, char *buf, int len);

#ifdef __cplusplus
}
#endif
/* The solves behind an ok window: in the asymptotic range the Newton
 * iterations per step stay level or fall as h falls (the guesses improve);
 * when they grow by more than VI_FIT_SOLVER_GROWTH from the coarsest to the
 * finest run of the window (newton per run, in the order of h), the errors
 * are set by solves that no longer converge cleanly and the verdict
 * becomes unresolved (VI_WHY_SOLVER). A no-op for other verdicts or
 * newton NULL. */
#define VI_FIT_SOLVER_GROWTH 2.0
void vi_fit_solver_check(vi_fit *f, const double *newton);

/* The fit of quantity x of an order study (VI_Q, VI_P, VI_LAMBDA, VI_ENERGY:
 * the energy error's root mean square, VI_EXTRA) by the rules every
 * vistudy report uses (docs/orders.md): vi_fit_order above 10 floors, then
 * vi_fit_solver_check on the study's Newton iterations per step. */
vi_fit vi_order_fit(const vi_order_result *r, int x);

#endif
