/* order_policy.c: the precision policy of order studies (drivers.h,
 * vi_order_run): untemplated, it reaches both precisions through vi_api. */
#include "fit.h"
#include "vistudy.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

vi_fit vi_order_fit(const vi_order_result *r, int x) {
  double fl = 0;
  const double *e = vi_order_errors(r, x, &fl);
  vi_fit f = vi_fit_order(r->nh, r->h, e, fl, 10.0);
  vi_fit_solver_check(&f, r->newton_per_step);
  return f;
}

int vi_order_drives(const vi_order_result *r, int x) {
  if (r->measure == VI_MEASURE_ENERGY) {
    return x == VI_ENERGY && !r->energy_exact;
  }
  return x == VI_Q || x == VI_P || (x == VI_LAMBDA && r->nmult > 0) ||
         (x == VI_EXTRA && r->nextra > 0 && r->extra_zero && !r->extra_exact);
}

double vi_order_exact_bound_of(const vi_order_result *r, int x, long N) {
  const double fl = x == VI_EXTRA ? r->extra_floor : r->energy_floor;
  return fl * sqrt(N > 1 ? (double)N : 1.0);
}

double vi_order_exact_bound(const vi_order_result *r, long N) {
  return vi_order_exact_bound_of(r, VI_ENERGY, N);
}

int vi_order_exact(const vi_order_result *r, double *worst, int *at) {
  return vi_order_exact_of(r, VI_ENERGY, worst, at);
}

int vi_order_exact_of(const vi_order_result *r, int x, double *worst, int *at) {
  const double *e = x == VI_EXTRA ? r->extra_err : r->energy_err;
  double w = 0;
  int k = -1, any = 0;
  for (int i = 0; i < r->nh; i++) {
    /* A failed run measured nothing; one that ran but measured NaN or Inf
     * broke the claim. */
    if (!isfinite(e[i]) && r->status[i] != VI_OK) {
      continue;
    }
    any = 1;
    const double ratio =
        isfinite(e[i]) ? e[i] / vi_order_exact_bound_of(r, x, r->steps[i]) : INFINITY;
    if (k < 0 || ratio > w) {
      w = ratio;
      k = i;
    }
  }
  if (worst) {
    *worst = w;
  }
  if (at) {
    *at = k;
  }
  return any ? w <= 1 : -1;
}

/* The first quantity the study is about whose measurement double precision
 * limits, or -1: fewer than four errors above the floor, or errors at the
 * floor with no ok fit, or an ok fit that stops short of the finest error
 * above the floor (round-off bent the line there). */
static int floor_limited(const vi_order_result *r, double hq, vi_fit *fit, int *grew,
                         int *unreachable, double *h_unreachable) {
  /* The quantities that drive the study (as the automatic step sizes,
   * core/order_tmpl.c): q, p, lambda, or the energy's root mean square. */
  for (int x = 0; x <= VI_EXTRA; x++) {
    if (!vi_order_drives(r, x)) {
      continue;
    }
    double fl = 0;
    const double *e = vi_order_errors(r, x, &fl);
    vi_fit f = vi_fit_order(r->nh, r->h, e, fl, 10.0);
    int last = -1;
    for (int i = 0; i < r->nh; i++) {
      last = isfinite(e[i]) && e[i] > 10.0 * fl ? i : last;
    }
    /* Only what the floor of double causes: quad cannot add points to a
     * study that simply has too few. */
    /* An ok window within four decades of the floor, when the floor
     * stopped the refinement, may be pre-asymptotic: quad confirms it. */
    /* Errors that grow over the two finest halvings (vi_fit_tail_slopes:
     * round-off amplified by 1/h) are limited by double too, wherever
     * they sit against the fixed floor. */
    double ts[2];
    const int grows = vi_fit_tail_slopes(r->nh, r->h, e, ts) == 0 && ts[0] < VI_FIT_GROWTH &&
                      ts[1] < VI_FIT_GROWTH;
    int limited =
        f.verdict != VI_VERDICT_OK
            ? f.why == VI_WHY_FLOOR || (f.n_plateau > 0 && f.why != VI_WHY_NO_DATA) || grows
            : f.n_plateau > 0 && (f.hi < last || e[f.hi] < 1e4 * fl);
    /* Confirming an ok window in quad needs a quad study that reaches its
     * finest step. Where the quad step budget (VI_ORDER_AUTO_*_QUAD) stops
     * coarser, the rerun measures only coarser steps than the window, and
     * its verdicts, which replace double's, are read further from the
     * asymptotic range. The validation's case 152 (seed 20261123,
     * em:variant=ggl on a random four-particle, T = 0.7, 32 unknowns a
     * step): in double every quantity was ok (q, p, gamma 2.00, lambda
     * 1.05 down to h = 3.4e-6), gamma's window ending within four decades
     * of the floor that the reference's accuracy set; the quad rerun
     * stopped at 6400 steps (h = 1.1e-4), left q and p pre-asymptotic and
     * read lambda 1.96 where its h/2 lambda' term (betsch-ggl notes §1.4)
     * is still below the O(h^2) one. */
    if (limited && f.verdict == VI_VERDICT_OK && hq > r->h[f.hi] * (1 + 1e-9)) {
      if (*unreachable < 0) {
        *unreachable = x;
        *h_unreachable = r->h[f.hi];
      }
      limited = 0;
    }
    if (limited) {
      *fit = f;
      *grew = f.verdict != VI_VERDICT_OK && grows;
      return x;
    }
  }
  return -1;
}

int vi_order_run(const vi_order_config *c, int precision, vi_order_result *r, char *err,
                 size_t errlen) {
  const char *names[VI_EXTRA + 1] = {"q", "p", "lambda", "energy", r->extra_name};
  if (precision != VI_PRECISION_AUTO) {
    int rc = vi_api_of((vi_precision)precision)->order(c, r, err, errlen);
    snprintf(r->precision_note, sizeof r->precision_note, "%s (as asked)",
             vi_precision_name((vi_precision)precision));
    return rc;
  }
  int rc = vi_api_of(VI_DOUBLE)->order(c, r, err, errlen);
  if (rc != VI_OK) {
    return rc;
  }
  /* The caller's own system or family without a quad type: double only. */
  if ((c->system_d && !c->system_q) || (c->method_d && !c->method_q)) {
    snprintf(r->precision_note, sizeof r->precision_note,
             "double (auto: the %s given by type has no quad type)",
             c->system_d && !c->system_q ? "system" : "family");
    return VI_OK;
  }
  vi_fit f;
  int grew = 0, unreachable = -1;
  double h_unreachable = 0;
  /* The finest step a quad rerun can take: an explicit list runs as given;
   * an automatic study stops at the quad budget. */
  double hq = 0;
  if (c->nN == 0) {
    const long unk = r->unknowns > 0 ? r->unknowns : 1;
    const long nq = VI_ORDER_AUTO_WORK_QUAD / unk < VI_ORDER_AUTO_NMAX_QUAD
                        ? VI_ORDER_AUTO_WORK_QUAD / unk
                        : VI_ORDER_AUTO_NMAX_QUAD;
    hq = r->T / (double)(nq > 1 ? nq : 1);
  }
  int x = floor_limited(r, hq, &f, &grew, &unreachable, &h_unreachable);
  if (x < 0) {
    if (unreachable >= 0) {
      snprintf(r->precision_note, sizeof r->precision_note,
               "double (auto: the ok window of %s ends within four decades of its floor, but "
               "a quad study's step budget stops at h = %.4g, coarser than the window's "
               "%.4g: quad could not confirm it)",
               names[unreachable], hq, h_unreachable);
    } else {
      snprintf(r->precision_note, sizeof r->precision_note,
               "double (auto: the floor of double limits no quantity of the study)");
    }
    return VI_OK;
  }
  char why[200];
  double fl = 0;
  vi_order_errors(r, x, &fl);
  if (grew) {
    snprintf(why, sizeof why,
             "quad (auto: in double, the errors of %s grew as h shrank: round-off amplified "
             "by 1/h)", names[x]);
  } else if (f.why == VI_WHY_FLOOR) {
    snprintf(why, sizeof why, "quad (auto: in double, every error of %s was at its floor %.1e)",
             names[x], fl);
  } else if (f.n_above < VI_FIT_MIN_POINTS) {
    snprintf(why, sizeof why,
             "quad (auto: in double, %s had %d error%s above its floor %.1e, four are needed)",
             names[x], f.n_above, f.n_above == 1 ? "" : "s", fl);
  } else {
    snprintf(why, sizeof why,
             "quad (auto: in double, the errors of %s reached the floor %.1e before they "
             "settled)", names[x], fl);
  }
  vi_order_result *q = calloc(1, sizeof *q);
  if (!q) {
    snprintf(err, errlen, "out of memory");
    return VI_ENOMEM;
  }
  if (c->progress) {
    c->progress(c->progress_ctx, r, -2); /* -2: escalating to quad */
  }
  rc = vi_api_of(VI_QUAD)->order(c, q, err, errlen);
  if (rc == VI_OK) {
    *r = *q;
    snprintf(r->precision_note, sizeof r->precision_note, "%s", why);
  }
  free(q);
  return rc;
}
