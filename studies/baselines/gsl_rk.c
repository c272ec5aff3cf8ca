/* gsl_rk.c: GSL rk8pd on the ODE of a degenerate Lagrangian (gsl_rk.h). */
#include "gsl_rk.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_odeiv2.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct vi_gsl_rk {
  const vi_system_d *sys;
  int n;
  long fevals;
  int cb; /* the first failing callback's status */
  double *y, *p, *lam;
};

/* qdot = (Dalpha' - Dalpha)^-1 grad H, the system's own velocity. */
static int rk_rhs(double t, const double *y, double *f, void *ctx) {
  vi_gsl_rk *R = ctx;
  (void)t;
  R->fevals++;
  int rc = vi_system_degen_velocity_d(R->sys, y, f);
  if (rc != VI_OK) {
    R->cb = rc;
    return GSL_EBADFUNC;
  }
  return GSL_SUCCESS;
}

int vi_gsl_rk_alloc(const vi_system_d *sys, vi_gsl_rk **out, char *err, size_t errlen) {
  *out = NULL;
  if (sys->type->degen == NULL) {
    snprintf(err, errlen, "the rk8pd baseline needs the degenerate form; %s is %s",
             sys->type->info->name, vi_type_form_d(sys->type));
    return VI_EUNSUPPORTED;
  }
  vi_gsl_rk *R = calloc(1, sizeof *R);
  const int n = sys->n;
  if (R) {
    R->y = malloc((size_t)(3 * n + 1) * sizeof *R->y);
  }
  if (!R || !R->y) {
    free(R);
    snprintf(err, errlen, "out of memory");
    return VI_ENOMEM;
  }
  R->sys = sys;
  R->n = n;
  R->p = R->y + n;
  R->lam = R->p + n;
  *out = R;
  return VI_OK;
}

void vi_gsl_rk_free(vi_gsl_rk *R) {
  if (R) {
    free(R->y);
    free(R);
  }
}

int vi_gsl_rk_run(vi_gsl_rk *R, double tol, double T, long N, vi_observer_d obs, void *ctx,
                  vi_gsl_rk_stats *st, char *err, size_t errlen) {
  const int n = R->n;
  gsl_odeiv2_system ode = {rk_rhs, NULL, (size_t)n, R};
  /* The first step a tenth of the output spacing; the control adapts it. */
  gsl_odeiv2_driver *d =
      gsl_odeiv2_driver_alloc_y_new(&ode, gsl_odeiv2_step_rk8pd, T / (double)N / 10, tol, tol);
  memset(st, 0, sizeof *st);
  if (!d) {
    snprintf(err, errlen, "out of memory");
    return VI_ENOMEM;
  }
  gsl_set_error_handler_off();
  R->fevals = 0;
  R->cb = 0;
  memcpy(R->y, R->sys->q0, (size_t)n * sizeof *R->y);
  double t = 0;
  int rc = 0;
  vi_node_d nd = {0, R->y, R->p, R->lam, NULL, NULL};
  for (long k = 0; k <= N && rc == 0; k++) {
    const double tk = T * (double)k / (double)N;
    if (k > 0) {
      int g = gsl_odeiv2_driver_apply(d, &t, tk, R->y);
      if (g != GSL_SUCCESS) {
        snprintf(err, errlen, "rk8pd failed at t = %g: %s", t,
                 R->cb ? vi_strerror(R->cb) : gsl_strerror(g));
        rc = R->cb ? R->cb : VI_ESOLVER;
        break;
      }
    }
    nd.t = tk;
    if ((rc = R->sys->type->degen->alpha(R->sys->state, R->y, R->p)) != 0) {
      rc = vi_callback_status(rc);
      snprintf(err, errlen, "alpha failed at t = %g", tk);
      break;
    }
    if (obs && (rc = obs(ctx, k, &nd)) != VI_OK) {
      snprintf(err, errlen, "observer stopped at node %ld", k);
    }
  }
  st->steps = (long)d->e->count;
  st->fevals = R->fevals;
  st->fails = (long)d->e->failed_steps;
  gsl_odeiv2_driver_free(d);
  return rc;
}
