/* run_tmpl.c: the typed drivers behind `vistudy run` and `vistudy check`, in
 * the working precision (prec.h), and this precision's vi_api table (how
 * untemplated code reaches the library, as dav1d reaches its bit depths).
 * A trajectory integrates with a constant step and hands every K-th node,
 * as the values of its named columns, to the caller's sink; the program
 * decides how they are written. Returns vi_status only; never prints. */
#include "prec.h"
#include "numerics_tmpl.h"
#include "api_tmpl.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>


int VI_X(vi_format_real)(char *buf, size_t len, VI_REAL x) {
#if defined(VI_PREC_Q)
  return quadmath_snprintf(buf, len, "%.36Qg", x);
#else
  return snprintf(buf, len, "%.17g", x);
#endif
}

/* vi_api.parse_real: a finite number in the working precision. */
static int parse_real(const char *text, vi_wide *out) {
  char *end = NULL;
  if (!text || !*text) {
    return VI_EINVAL;
  }
  VI_REAL v = vi_strtor(text, &end);
  if (end == text || *end != '\0' || !vi_isfinite(v)) {
    return VI_EINVAL;
  }
  *out = (vi_wide)v;
  return VI_OK;
}

static int format_wide(char *buf, size_t len, vi_wide x) {
  return VI_X(vi_format_real)(buf, len, (VI_REAL)x);
}

static int steps_of(vi_wide Tw, vi_wide hw, long *N, double *ratio_out) {
  const VI_REAL T = (VI_REAL)Tw, h = (VI_REAL)hw;
  VI_REAL ratio = T / h;
  *ratio_out = (double)ratio;
  if (!(T > 0) || !(h > 0) || !(ratio < VI_C(9.0e18))) {
    return VI_EINVAL;
  }
  long k = (long)vi_floor(ratio + VI_C(0.5));
  if (k < 1 || vi_fabs(ratio - (VI_REAL)k) > VI_C(1e-9) * ratio) {
    return VI_EINVAL;
  }
  *N = k;
  return VI_OK;
}

/* ---- trajectories ---------------------------------------------------------- */

struct traj {
  VI_X(vi_system) *sys;
  VI_X(vi_stepper) *st; /* NULL: the reference */
  VI_X(vi_solver_opts) so;
  VI_REAL T, h;
  long N, every;
  int ncol;
  vi_measure *cols; /* the columns: every measure of the node (measures.h) */
  const char **colptr;
  vi_dims d;        /* the nodes' dimensions (the stepper's extra block) */
  VI_REAL *buf;     /* a node (vi_node_size), the measures' work, a row */
  VI_X(vi_node) nd; /* bound to buf */
  VI_REAL *work, *vals;
  vi_wide *row;
};

static void traj_free(vi_traj *tr) {
  struct traj *t = (struct traj *)tr;
  if (!t) {
    return;
  }
  VI_X(vi_stepper_free)(t->st);
  VI_X(vi_system_free)(t->sys);
  free(t->cols);
  free(t->colptr);
  free(t->buf);
  free(t->row);
  free(t);
}

/* Make the system (VI_EINVAL or VI_EINCONSISTENT for bad data, with the
 * reason) by registry name and overrides. */
static int make_system(const char *name, int nset, const char *const *set,
                       VI_X(vi_system) **sys, char *err, size_t errlen) {
  const VI_X(vi_system_type) *type = VI_X(vi_system_find)(name, err, errlen);
  if (!type) {
    return VI_EINVAL;
  }
  return VI_X(vi_system_alloc)(type, nset, set, sys, err, errlen);
}

static int traj_open(const vi_traj_config *c, vi_traj **out, vi_traj_info *info,
                     char *err, size_t errlen) {
  *out = NULL;
  struct traj *t = calloc(1, sizeof *t);
  if (!t) {
    snprintf(err, errlen, "out of memory");
    return VI_ENOMEM;
  }
  int rc = make_system(c->system, c->nset, c->set, &t->sys, err, errlen);
  if (rc != VI_OK) {
    goto fail;
  }
  t->T = (VI_REAL)c->T;
  t->N = c->N;
  t->every = c->every > 1 ? c->every : 1;
  if (!(t->T > 0) || t->N < 1) {
    snprintf(err, errlen, "a trajectory needs T > 0 and at least one step");
    rc = VI_EINVAL;
    goto fail;
  }
  t->h = t->T / (VI_REAL)t->N;
  if ((rc = VI_X(vi_solver_opts_from)(&c->solver, &t->so, err, errlen)) != VI_OK) {
    goto fail;
  }
  const int is_ref = c->method && strcmp(c->method, "reference") == 0;
  if (is_ref && t->N + 1 > VI_TRAJ_MAX_REF_NODES) {
    snprintf(err, errlen,
             "the reference is computed in memory: at most %ld nodes (%ld steps give %ld)",
             VI_TRAJ_MAX_REF_NODES, t->N, t->N + 1);
    rc = VI_EINVAL;
    goto fail;
  }
  if (!is_ref &&
      ((rc = VI_X(vi_stepper_alloc)(c->method, t->sys, &t->st, err, errlen)) != VI_OK ||
       (rc = VI_X(vi_stepper_solver_check)(t->st, t->so.kind, err, errlen)) != VI_OK)) {
    goto fail;
  }
  t->d = t->st ? *VI_X(vi_stepper_dims)(t->st) : VI_X(vi_system_dims)(t->sys);
  /* The columns: every measure of the node, by name (measures.h). */
  t->ncol = VI_X(vi_measures)(t->sys, t->st, NULL, 0);
  const size_t nwork = VI_X(vi_measure_work)(t->sys);
  t->cols = calloc((size_t)t->ncol, sizeof *t->cols);
  t->colptr = calloc((size_t)t->ncol, sizeof *t->colptr);
  t->buf = calloc(vi_node_size(&t->d) + nwork + (size_t)t->ncol, sizeof *t->buf);
  t->row = calloc((size_t)t->ncol, sizeof *t->row);
  if (!t->cols || !t->colptr || !t->buf || !t->row) {
    snprintf(err, errlen, "out of memory");
    rc = VI_ENOMEM;
    goto fail;
  }
  VI_X(vi_measures)(t->sys, t->st, t->cols, t->ncol);
  for (int i = 0; i < t->ncol; i++) {
    t->colptr[i] = t->cols[i].name;
  }
  VI_X(vi_node_bind)(&t->nd, t->buf, &t->d);
  t->work = t->buf + vi_node_size(&t->d);
  t->vals = t->work + nwork;
  memset(info, 0, sizeof *info);
  snprintf(info->system, sizeof info->system, "%s", t->sys->type->info->name);
  if (t->st) {
    VI_X(vi_stepper_spec)(t->st, info->method, sizeof info->method);
  } else {
    snprintf(info->method, sizeof info->method, "reference");
  }
  info->ncol = t->ncol;
  info->colnames = t->colptr;
  *out = (vi_traj *)t;
  return VI_OK;
fail:
  traj_free((vi_traj *)t);
  return rc;
}

/* The driver's observer: every K-th node and the last go to the sink. */
typedef struct traj_obs {
  struct traj *t;
  vi_row_sink sink;
  void *ctx;
  vi_traj_result *res;
  int eval_rc; /* a failure evaluating a row (not of the method) */
} traj_obs;

static int traj_deliver(traj_obs *o, long k, const VI_X(vi_node) *nd) {
  struct traj *t = o->t;
  int rc = VI_X(vi_measure_eval)(t->sys, t->cols, t->ncol, nd, t->d.n_extra, t->work, t->vals);
  for (int i = 0; rc == VI_OK && i < t->ncol; i++) {
    t->row[i] = (vi_wide)t->vals[i];
  }
  if (rc != VI_OK) {
    o->eval_rc = vi_callback_status(rc);
    o->res->eval_failed = 1;
    return o->eval_rc;
  }
  if ((rc = o->sink(o->ctx, k, t->ncol, t->row)) != VI_OK) {
    o->res->sink_status = rc;
    return rc;
  }
  o->res->rows++;
  return VI_OK;
}

static int traj_observe(void *ctx, long k, const VI_X(vi_node) *nd) {
  traj_obs *o = ctx;
  if (k % o->t->every != 0 && k != o->t->N) {
    return VI_OK;
  }
  return traj_deliver(o, k, nd);
}

/* The reference solution of order studies (vi_reference: the exact
 * solution, or the independent integration of the form's equations) at
 * the nodes k h. */
static int traj_reference(traj_obs *o, char *err, size_t errlen) {
  struct traj *t = o->t;
  const int n = t->sys->n, nq = t->sys->nq, m = t->sys->ml;
  const size_t rows = (size_t)t->N + 1;
  VI_REAL *Q = malloc(rows * (size_t)(nq + n + m) * sizeof *Q);
  if (!Q) {
    snprintf(err, errlen, "out of memory for %ld reference nodes", t->N + 1);
    return VI_ENOMEM;
  }
  VI_REAL *P = Q + rows * (size_t)nq, *L = P + rows * (size_t)n;
  VI_X(vi_reference_info) info;
  int rc = VI_X(vi_reference)(t->sys, t->h, t->N, Q, P, L, NULL, &info, err, errlen);
  if (rc == VI_OK) {
    snprintf(o->res->ref_method, sizeof o->res->ref_method, "%s", info.method);
    o->res->ref_accuracy = info.accuracy;
    for (long k = 0; rc == VI_OK && k <= t->N; k++) {
      VI_X(vi_node) nd = {(VI_REAL)k * t->h, Q + (size_t)k * (size_t)nq,
                          P + (size_t)k * (size_t)n, L + (size_t)k * (size_t)m, NULL, NULL};
      rc = traj_observe(o, k, &nd);
    }
    if (rc != VI_OK && o->res->eval_failed) {
      snprintf(err, errlen, "%s evaluating the reference's energy or residuals",
               vi_strerror(rc));
    }
  }
  free(Q);
  return rc;
}

static int traj_run(vi_traj *tr, vi_row_sink sink, void *ctx, vi_traj_result *res,
                    char *err, size_t errlen) {
  struct traj *t = (struct traj *)tr;
  memset(res, 0, sizeof *res);
  traj_obs o = {t, sink, ctx, res, VI_OK};
  if (!t->st) {
    return traj_reference(&o, err, errlen);
  }
  const int n = t->d.n, nq = t->d.nq, m = t->d.ml;
  VI_X(vi_node) *node = &t->nd;
  long k = -1;
  int rc = VI_X(vi_integrate)(t->st, &t->so, t->h, t->N, t->sys->q0, t->sys->p0, node,
                              traj_observe, &o, &k);
  const int init_failed = k < 0;
  if (init_failed) {
    /* The method's lambda_0 comes from its first solve, which failed: node
     * 0 is delivered with the initial data, lambda and the extra block
     * NaN. */
    memcpy(node->q, t->sys->q0, (size_t)nq * sizeof *node->q);
    memcpy(node->p, t->sys->p0, (size_t)n * sizeof *node->p);
    for (int i = 0; i < m; i++) {
      node->lambda[i] = (VI_REAL)NAN;
    }
    for (int i = 0; i < t->d.n_extra; i++) {
      node->extra[i] = (VI_REAL)NAN;
    }
    for (int i = 0; i < t->d.n_vel; i++) {
      node->v[i] = (VI_REAL)NAN;
    }
    node->t = 0;
    traj_deliver(&o, 0, node);
    k = 0;
  }
  const VI_X(vi_stats) *stt = VI_X(vi_stepper_stats)(t->st);
  res->steps = stt->steps;
  res->newton_iters = stt->newton_iters;
  res->newton_iters_max = stt->newton_iters_max;
  res->solves = stt->solves;
  res->jevals = stt->jevals;
  res->factorizations = stt->factorizations;
  res->solver_kind = stt->solver_kind;
  res->solver_lu = stt->solver_lu;
  res->unknowns = stt->unknowns;
  /* The method's failure first (init's too, whatever node 0's row did). */
  if (rc != VI_OK && (init_failed || (!res->eval_failed && res->sink_status == VI_OK))) {
    res->failed_step = k + 1;
    const char *why = init_failed ? VI_X(vi_stepper_error)(t->st) : "";
    snprintf(err, errlen, "%s computing step %ld (t = %.17g)%s%s",
             rc > 0 ? "recoverable failure" : "failure", k + 1,
             (double)((VI_REAL)k * t->h), why[0] ? ": " : "", why);
  } else if (rc != VI_OK && res->eval_failed) {
    snprintf(err, errlen, "%s evaluating the energy or residuals of node %ld",
             vi_strerror(o.eval_rc), k);
  }
  return rc;
}

/* ---- check ------------------------------------------------------------------- */

static int check(const char *system, int nset, const char *const *set,
                 void (*line)(void *ctx, const char *text), void *ctx, int *failed,
                 char *err, size_t errlen) {
  VI_X(vi_system) *sys = NULL;
  *failed = 0;
  int rc = make_system(system, nset, set, &sys, err, errlen);
  if (rc != VI_OK) {
    return rc;
  }
  int f = VI_X(vi_system_check)(sys, 4, line, ctx);
  VI_X(vi_system_free)(sys);
  *failed = f < 0 ? 1 : f;
  return VI_OK;
}

/* ---- reference on a grid, rounded to double ------------------------------ */

/* vi_api.reference: the system (name, overrides) and its reference at
 * t_k = k T/K in the working precision, rounded to double. */
static int reference_rows(const vi_reference_config *c, double *Q, double *P, double *L,
                          vi_reference_result *r, char *err, size_t errlen) {
  memset(r, 0, sizeof *r);
  VI_X(vi_system) *sys = NULL;
  int rc = make_system(c->system, c->nset, c->set, &sys, err, errlen);
  if (rc != VI_OK) {
    return rc;
  }
  const VI_REAL T = (VI_REAL)c->T;
  if (!(T > 0) || c->K < 1) {
    snprintf(err, errlen, "a reference needs T > 0 and at least one step");
    VI_X(vi_system_free)(sys);
    return VI_EINVAL;
  }
  const size_t rows = (size_t)c->K + 1;
  const size_t nq = (size_t)sys->nq, n = (size_t)sys->n, ml = (size_t)sys->ml;
  VI_REAL *W = malloc(rows * (nq + n + ml) * sizeof *W);
  VI_X(vi_reference_info) info;
  if (!W) {
    snprintf(err, errlen, "out of memory for %ld reference nodes", c->K + 1);
    rc = VI_ENOMEM;
  } else {
    rc = VI_X(vi_reference)(sys, T / (VI_REAL)c->K, c->K, W, W + rows * nq,
                            W + rows * (nq + n), c->cache_dir, &info, err, errlen);
  }
  if (rc == VI_OK) {
    for (size_t i = 0; i < rows * nq; i++) {
      Q[i] = (double)W[i];
    }
    for (size_t i = 0; i < rows * n; i++) {
      P[i] = (double)W[rows * nq + i];
    }
    for (size_t i = 0; i < rows * ml; i++) {
      L[i] = (double)W[rows * (nq + n) + i];
    }
    snprintf(r->method, sizeof r->method, "%s", info.method);
    r->accuracy = info.accuracy;
    r->cached = info.cached;
    snprintf(r->note, sizeof r->note, "%s", info.note);
  }
  free(W);
  VI_X(vi_system_free)(sys);
  return rc;
}

const vi_api VI_X(vi_api) = {
#if defined(VI_PREC_Q)
    VI_QUAD,
#else
    VI_DOUBLE,
#endif
    VI_PREC_NAME,
    (double)VI_EPS,
    parse_real,
    format_wide,
    steps_of,
    check,
    VI_X(vi_order_study),
    traj_open,
    traj_run,
    traj_free,
    VI_X(vi_trace),
    reference_rows,
};
