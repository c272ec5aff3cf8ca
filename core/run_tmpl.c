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

/* The columns of a system's trajectory rows: t, q, p, the multipliers
 * (lambda, then mu), the energy, the residuals of the constraints it has
 * (g and the hidden constraint with holonomic constraints, |A M^-1 p + a|
 * with nonholonomic ones, the defect |p - alpha(q)| for the degenerate
 * form) and the momentum maps. Returns the count; names NULL: count only. */
static int columns(const VI_X(vi_system) *sys, const VI_X(vi_stepper) *st, char *names,
                   size_t len, const char **ptr) {
  const vi_system_info *info = sys->type->info;
  int k = 0;
  size_t used = 0;
#define COL(...)                                                              \
  do {                                                                        \
    if (names && used < len) {                                                \
      ptr[k] = names + used;                                                  \
      used += (size_t)snprintf(names + used, len - used, __VA_ARGS__) + 1;    \
    }                                                                         \
    k++;                                                                      \
  } while (0)
  COL("t");
  for (int i = 1; i <= sys->nq; i++) {
    COL("q%d", i);
  }
  for (int i = 1; i <= sys->n; i++) {
    COL("p%d", i);
  }
  for (int i = 1; i <= sys->m; i++) {
    COL("lambda%d", i);
  }
  for (int i = 1; i <= sys->m_nh; i++) {
    COL("mu%d", i);
  }
  for (int i = 0; st != NULL && i < VI_X(vi_stepper_dims)(st)->n_extra; i++) {
    char xn[32];
    VI_X(vi_stepper_extra_name)(st, i, xn, sizeof xn);
    COL("%s", xn);
  }
  COL("energy");
  if (sys->type->degen) {
    COL("alpha_defect");
  } else if (!sys->type->lie && sys->m > 0) {
    COL("g_norm");
    COL("gv_norm");
  }
  if (sys->m_nh > 0) {
    COL("phi_norm");
  }
  if (sys->type->space != NULL && sys->type->space->project != NULL) {
    COL("group_defect");
  }
  for (int i = 0; VI_X(vi_type_has_momenta)(sys->type) && i < info->n_momenta; i++) {
    COL("%s", info->momentum_names[i]);
  }
#undef COL
  return k;
}

/* The values of one row (columns above) at a node; work holds nq + ml + 8
 * reals. */
static int row_values(const VI_X(vi_system) *sys, int n_extra, const VI_X(vi_node) *nd,
                      VI_REAL *work, vi_wide *out) {
  const int n = sys->n, m = sys->m;
  VI_REAL E = 0, res[3] = {0, 0, 0}, gdef = 0;
  int nres = sys->type->degen ? 1 : sys->type->lie ? sys->m_nh > 0 : 0;
  const int embedded = sys->type->space != NULL && sys->type->space->project != NULL;
  int rc = VI_X(vi_system_energy)(sys, nd->q, nd->p, &E);
  if (sys->type->lie) {
    /* Lie form: no holonomic constraints; |A xi + a| when it has some; an
     * embedded group element's distance from the group (a copy is
     * projected). */
    if (rc == 0 && sys->m_nh > 0) {
      rc = VI_X(vi_system_nh_residual)(sys, nd->q, nd->p, work);
      res[0] = VI_X(vi_norm_inf)(sys->m_nh, work);
    }
    if (rc == 0 && embedded) {
      /* A point that project refuses (e.g. det R <= 0) is a result to
       * show, not a failure to write: its distance, or NaN. */
      memcpy(work, nd->q, (size_t)sys->nq * sizeof *work);
      gdef = (VI_REAL)NAN;
      int prc = sys->type->space->project(sys->state, work, &gdef);
      gdef = prc > 0 && !(gdef > 0) ? (VI_REAL)NAN : gdef;
      rc = prc > 0 ? 0 : prc;
    }
  } else if (sys->type->degen) {
    if (rc == 0) {
      rc = VI_X(vi_system_defect)(sys, nd->q, nd->p, &res[0]);
    }
  } else {
    /* Mechanical form: |g| and the hidden constraint with holonomic
     * constraints, |A v + a| with nonholonomic ones (the columns above). */
    if (rc == 0 && m > 0) {
      rc = sys->type->holo->constraint(sys->state, nd->q, work);
      res[nres++] = VI_X(vi_norm_inf)(m, work);
      if (rc == 0) {
        rc = VI_X(vi_system_hidden)(sys, nd->q, nd->p, work);
      }
      res[nres++] = VI_X(vi_norm_inf)(m, work);
    }
    if (rc == 0 && sys->m_nh > 0) {
      rc = VI_X(vi_system_nh_residual)(sys, nd->q, nd->p, work);
      res[nres++] = VI_X(vi_norm_inf)(sys->m_nh, work);
    }
  }
  if (rc != 0) {
    return rc;
  }
  int k = 0;
  out[k++] = (vi_wide)nd->t;
  for (int i = 0; i < sys->nq; i++) {
    out[k++] = (vi_wide)nd->q[i];
  }
  for (int i = 0; i < n; i++) {
    out[k++] = (vi_wide)nd->p[i];
  }
  for (int i = 0; i < sys->ml; i++) {
    out[k++] = (vi_wide)nd->lambda[i];
  }
  for (int i = 0; i < n_extra; i++) {
    out[k++] = (vi_wide)nd->extra[i];
  }
  out[k++] = (vi_wide)E;
  for (int i = 0; i < nres; i++) {
    out[k++] = (vi_wide)res[i];
  }
  if (embedded) {
    out[k++] = (vi_wide)gdef;
  }
  if (VI_X(vi_type_has_momenta)(sys->type)) {
    if ((rc = sys->type->obs->momenta(sys->state, nd->q, nd->p, work)) != 0) {
      return rc;
    }
    for (int i = 0; i < sys->type->info->n_momenta; i++) {
      out[k++] = (vi_wide)work[i];
    }
  }
  return VI_OK;
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
  const char **colptr;
  char *colnames;
  vi_dims d;        /* the nodes' dimensions (the stepper's extra block) */
  VI_REAL *buf;     /* a node (vi_node_size) and the rows' work */
  VI_X(vi_node) nd; /* bound to buf */
  vi_wide *row;
};

static void traj_free(vi_traj *tr) {
  struct traj *t = (struct traj *)tr;
  if (!t) {
    return;
  }
  VI_X(vi_stepper_free)(t->st);
  VI_X(vi_system_free)(t->sys);
  free(t->colptr);
  free(t->colnames);
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
      (rc = VI_X(vi_stepper_alloc)(c->method, t->sys, &t->st, err, errlen)) != VI_OK) {
    goto fail;
  }
  t->d = t->st ? *VI_X(vi_stepper_dims)(t->st) : VI_X(vi_system_dims)(t->sys);
  const int n = t->d.n, nq = t->d.nq, m = t->d.ml;
  const size_t nwork = (size_t)(nq + 8 + (m > n ? m : n)); /* row_values' work */
  t->ncol = columns(t->sys, t->st, NULL, 0, NULL);
  const size_t namelen = (size_t)t->ncol * 24;
  t->colnames = malloc(namelen);
  t->colptr = calloc((size_t)t->ncol, sizeof *t->colptr);
  t->buf = calloc(vi_node_size(&t->d) + nwork, sizeof *t->buf);
  t->row = calloc((size_t)t->ncol, sizeof *t->row);
  if (!t->colnames || !t->colptr || !t->buf || !t->row) {
    snprintf(err, errlen, "out of memory");
    rc = VI_ENOMEM;
    goto fail;
  }
  VI_X(vi_node_bind)(&t->nd, t->buf, &t->d);
  columns(t->sys, t->st, t->colnames, namelen, t->colptr);
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
  int rc = row_values(t->sys, t->d.n_extra, nd, t->buf + vi_node_size(&t->d), t->row);
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
                          P + (size_t)k * (size_t)n, L + (size_t)k * (size_t)m, NULL};
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
    node->t = 0;
    traj_deliver(&o, 0, node);
    k = 0;
  }
  const VI_X(vi_stats) *stt = VI_X(vi_stepper_stats)(t->st);
  res->steps = stt->steps;
  res->newton_iters = stt->newton_iters;
  res->newton_iters_max = stt->newton_iters_max;
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
};
