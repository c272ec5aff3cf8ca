/* trace_tmpl.c: traces in the working precision (drivers.h,
 * vi_api.trace): one run of a method through the fixed-step driver, a
 * measure of every node (measures.h) reduced to windows (the smallest and
 * largest value of each window, so that no peak is lost however many
 * steps a window holds), the every-step rows of a close-up and the
 * summary numbers the figure claims read. The figure runner reaches both
 * precisions through it (a quad rerun of a curve is the same trace in
 * quad). Compiled once per precision (prec.h). */
#include "prec.h"
#include "numerics_tmpl.h"
#include "api_tmpl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The observer's status for a run stopped at the breakdown threshold. */
#define TRACE_BREAK 77

typedef struct trace_obs {
  const vi_trace_config *c;
  const VI_X(vi_system) *sys;
  const VI_X(vi_stepper) *st; /* its statistics: the Newton iterations of a step */
  long newton_prev;
  vi_measure m[1 + VI_TRACE_MAXALSO];
  int nm, follow, n_extra;
  long k0; /* the first node with a d: 1 for increments, else 0 */
  VI_REAL *work, *val;
  VI_REAL I0, scale, prev;
  /* The window in progress: min and max of d, the maxima of the others. */
  double lo, hi, amax, first, last;
  double wmax[VI_TRACE_MAXALSO];
  long k;
  int broke;
} trace_obs;

/* The row of the window in progress at node k. */
/* A window's extreme (dir -1: minimum, 1: maximum) with v: v itself at the
 * window's start; a NaN makes it NaN for the rest of the window (a claim
 * must not hold over a node it could not evaluate). */
static double win_ext(double cur, double v, int start, int dir) {
  if (start || v != v || cur != cur) {
    return start || v != v ? v : cur;
  }
  return dir * v > dir * cur ? v : cur;
}

static int deliver_window(trace_obs *o, long k) {
  double row[3 + VI_TRACE_MAXALSO];
  row[0] = (double)k * o->c->h;
  row[1] = o->lo;
  row[2] = o->hi;
  for (int j = 0; j < o->nm - 1; j++) {
    row[3 + j] = o->wmax[j];
  }
  return o->c->window ? o->c->window(o->c->ctx, row, 2 + o->nm) : VI_OK;
}

static int trace_observe(void *ctx, long k, const VI_X(vi_node) *nd) {
  trace_obs *o = ctx;
  const vi_trace_config *c = o->c;
  int rc = VI_X(vi_measure_eval)(o->sys, o->m, o->nm, nd, o->n_extra, o->work, o->val);
  if (rc != VI_OK) {
    return rc;
  }
  /* A measure of the run: the Newton iterations since the previous node
   * (node 0: those of init, the look-ahead's solves). */
  const long it = VI_X(vi_stepper_stats)(o->st)->newton_iters;
  for (int j = 0; j < o->nm; j++) {
    if (o->m[j].kind == VI_MK_NEWTON) {
      o->val[j] = (VI_REAL)(it - o->newton_prev);
    }
  }
  o->newton_prev = it;
  const VI_REAL I = o->val[0];
  if (k == 0) {
    /* A first integral that starts at 0 has no relative change: absolute
     * then. */
    o->I0 = I;
    o->prev = I;
    o->scale = c->relative && vi_fabs(I) > VI_ENERGY_ABS_BELOW ? 1 / vi_fabs(I) : 1;
  }
  /* The increment is taken in the working precision, before rounding to
   * double, as the change is. */
  const VI_REAL dI = o->follow == VI_TRACE_CHANGE      ? (I - o->I0) * o->scale
                     : o->follow == VI_TRACE_INCREMENT ? (I - o->prev) * o->scale
                                                       : I;
  const double d = (double)dI;
  o->prev = I;
  o->k = k;
  if (k < o->k0) {
    return VI_OK; /* node 0 has no increment */
  }
  if (c->zoom > 0 && c->every && (double)k * c->h <= c->zoom * (1 + 1e-12)) {
    double row[3 + VI_TRACE_MAXALSO] = {(double)k * c->h, d, d};
    for (int j = 1; j < o->nm; j++) {
      row[2 + j] = (double)o->val[j];
    }
    if ((rc = c->every(c->ctx, row, 2 + o->nm)) != VI_OK) {
      return rc;
    }
  }
  const long per = c->per > 0 ? c->per : c->N + 1;
  const int start = (k - o->k0) % per == 0;
  o->lo = win_ext(o->lo, d, start, -1);
  o->hi = win_ext(o->hi, d, start, 1);
  for (int j = 1; j < o->nm; j++) {
    o->wmax[j - 1] = win_ext(o->wmax[j - 1], (double)o->val[j], start, 1);
  }
  /* Past the breakdown threshold the orbit is destroyed (tyranowski2014
   * notes §4): the window so far is kept and the run ends. */
  const int brk = c->breakdown > 0 && !(fabs(d) <= c->breakdown);
  /* The maxima of |d|: a NaN makes them NaN and stays (a claim must not
   * hold over a node it could not evaluate). */
  o->amax = fabs(d) > o->amax || d != d ? fabs(d) : o->amax;
  if (k <= c->N / 10 && (fabs(d) > o->first || d != d)) {
    o->first = fabs(d);
  }
  if (k >= c->N - c->N / 10 && (fabs(d) > o->last || d != d)) {
    o->last = fabs(d);
  }
  if (c->per > 0 && ((k - o->k0 + 1) % per == 0 || k == c->N || brk) &&
      (rc = deliver_window(o, k)) != VI_OK) {
    return rc;
  }
  if (brk) {
    o->broke = 1;
    return TRACE_BREAK;
  }
  return VI_OK;
}

int VI_X(vi_trace)(const vi_trace_config *c, vi_trace_result *r, char *err, size_t errlen) {
  memset(r, 0, sizeof *r);
  r->last_node = -1;
  if (!(c->h > 0) || c->N < 1 || c->nalso < 0 || c->nalso > VI_TRACE_MAXALSO ||
      c->follow < VI_TRACE_AUTO || c->follow > VI_TRACE_INCREMENT) {
    vi_set_err(err, errlen, "a trace needs h > 0, at least one step, at most %d more "
               "measures and a follow mode of VI_TRACE_*", VI_TRACE_MAXALSO);
    return VI_EINVAL;
  }
  /* The caller's own system or family in this precision (refused in the
   * words of vi_order_study when only the other precision's is given). */
  if ((c->system_d || c->system_q) && !c->VI_X(system)) {
    vi_set_err(err, errlen,
               "the system given by type has no %s type (vi_trace_config.%s)",
               VI_PREC_NAME, VI_PREC_NAME[0] == 'd' ? "system_d" : "system_q");
    return VI_EUNSUPPORTED;
  }
  if ((c->method_d || c->method_q) && !c->VI_X(method)) {
    vi_set_err(err, errlen,
               "the family given by type has no %s type (vi_trace_config.%s)",
               VI_PREC_NAME, VI_PREC_NAME[0] == 'd' ? "method_d" : "method_q");
    return VI_EUNSUPPORTED;
  }
  const VI_X(vi_system_type) *type = c->VI_X(system)
                                         ? (const VI_X(vi_system_type) *)c->VI_X(system)
                                         : VI_X(vi_system_find)(c->system, err, errlen);
  VI_X(vi_system) *sys = NULL;
  VI_X(vi_stepper) *st = NULL;
  VI_X(vi_node) *nd = NULL;
  VI_REAL *work = NULL;
  VI_X(vi_solver_opts) so;
  int rc = type ? VI_X(vi_system_alloc)(type, c->nset, c->set, &sys, err, errlen) : VI_EINVAL;
  if (rc == VI_OK) {
    rc = VI_X(vi_solver_opts_from)(&c->solver, &so, err, errlen);
  }
  if (rc == VI_OK) {
    const VI_X(vi_method_type) *mt = (const VI_X(vi_method_type) *)c->VI_X(method);
    rc = mt ? VI_X(vi_stepper_alloc_type)(mt, c->method, sys, &st, err, errlen)
            : VI_X(vi_stepper_alloc)(c->method, sys, &st, err, errlen);
  }
  trace_obs o;
  memset(&o, 0, sizeof o);
  o.c = c;
  o.sys = sys;
  o.st = st;
  o.nm = 1 + c->nalso;
  for (int j = 0; rc == VI_OK && j < o.nm; j++) {
    rc = VI_X(vi_measure_find)(sys, st, j == 0 ? c->measure : c->also[j - 1], &o.m[j], err,
                               errlen);
  }
  if (rc == VI_OK) {
    VI_X(vi_stepper_spec)(st, r->method, sizeof r->method);
    o.follow = c->follow != VI_TRACE_AUTO ? c->follow
               : o.m[0].reference == VI_MR_CONSTANT ? VI_TRACE_CHANGE
                                                    : VI_TRACE_VALUE;
    o.k0 = o.follow == VI_TRACE_INCREMENT;
    o.n_extra = VI_X(vi_stepper_dims)(st)->n_extra;
    nd = VI_X(vi_node_alloc)(VI_X(vi_stepper_dims)(st));
    work = malloc((VI_X(vi_measure_work)(sys) + (size_t)o.nm) * sizeof *work);
    rc = nd && work ? VI_OK : VI_ENOMEM;
  }
  if (rc == VI_OK) {
    o.work = work;
    o.val = work + VI_X(vi_measure_work)(sys);
    o.k = -1;
    o.scale = 1;
    rc = VI_X(vi_integrate)(st, &so, (VI_REAL)c->h, c->N, sys->q0, sys->p0, nd,
                            trace_observe, &o, NULL);
    r->I0 = (double)o.I0;
    r->amax = o.amax;
    r->first = o.first;
    r->last = o.last;
    r->last_node = o.k;
    r->broke = o.broke;
    if (c->breakdown > 0 && (o.broke || (rc > 0 && o.k >= 0))) {
      /* A breakdown is an event of the run: the threshold crossed, or the
       * method failing recoverably (Newton, a stage outside the domain of
       * alpha or H) after node o.k, whose window in progress is kept. */
      const long per = c->per > 0 ? c->per : c->N + 1;
      r->status = o.broke ? VI_OK : rc;
      rc = VI_OK;
      if (!o.broke && c->per > 0 && o.k >= o.k0 && (o.k - o.k0) % per != per - 1) {
        rc = deliver_window(&o, o.k);
      }
    } else if (rc != VI_OK && err && !err[0]) {
      const char *why = VI_X(vi_stepper_error)(st);
      vi_set_err(err, errlen, "%s, h = %g: %s at t = %g%s%s", c->method, c->h, vi_strerror(rc),
                 (double)nd->t, why[0] ? ": " : "", why);
    }
  } else if (rc == VI_ENOMEM && err && !err[0]) {
    vi_set_err(err, errlen, "out of memory");
  }
  free(work);
  free(nd);
  VI_X(vi_stepper_free)(st);
  VI_X(vi_system_free)(sys);
  return rc;
}
