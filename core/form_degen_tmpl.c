/* form_degen_tmpl.c: the degenerate form L = alpha(q) . v - H(q)
 * (tyranowski2014 (2.1); vi_degen_ops in api_tmpl.h): p0 = alpha(q0) at
 * allocation (no constraints and no special first step, tyranowski2014
 * §4), the energy H(q), the defect |p - alpha(q)| of discrete momenta, the
 * velocity of the flow (Dalpha' - Dalpha)^-1 grad H (tyranowski2014
 * (2.5), (2.8)-(2.9)), the derivative pairs of the table and the check of
 * a declared affine alpha. Compiled once per precision. */
#include <stdio.h>

#include "system_impl.h"

static int degen_setup(sys_impl *s, int project_any, char *err, size_t errlen) {
  (void)project_any;
  VI_X(vi_system) *sys = &s->pub;
  const char *name = sys->type->info->name;
  int crc = sys->type->degen->alpha(sys->state, sys->q0, sys->p0);
  if (crc != 0) {
    vi_set_err(err, errlen, "callback alpha of system %s failed with status %d while allocating",
               name, crc);
    return vi_callback_status(crc);
  }
  for (int i = 0; i < sys->n; i++) {
    if (!vi_isfinite(sys->p0[i])) {
      vi_set_err(err, errlen, "initial data of system %s is not finite", name);
      return VI_EINVAL;
    }
  }
  return VI_OK;
}

/* Nothing to project: p = alpha(q), v untouched. */
static int degen_project(const sys_impl *s, VI_REAL *q, VI_REAL *v, VI_REAL *p) {
  (void)v;
  return vi_callback_status(s->pub.type->degen->alpha(s->pub.state, q, p));
}

static int degen_energy(const sys_impl *s, const VI_REAL *q, const VI_REAL *p, VI_REAL *E) {
  (void)p;
  return vi_callback_status(s->pub.type->degen->hamiltonian(s->pub.state, q, E));
}

static int degen_defect(const sys_impl *s, const VI_REAL *q, const VI_REAL *p, VI_REAL *d) {
  scratch w;
  int rc = scratch_get(&w, (size_t)s->pub.n, 0);
  if (rc == VI_OK) {
    rc = vi_callback_status(s->pub.type->degen->alpha(s->pub.state, q, w.w));
  }
  for (int i = 0; rc == VI_OK && i < s->pub.n; i++) {
    VI_REAL e = vi_fabs(p[i] - w.w[i]);
    *d = e > *d || e != e ? e : *d;
  }
  scratch_put(&w);
  return rc;
}

static int degen_velocity(const sys_impl *s, const VI_REAL *q, VI_REAL *qdot) {
  const VI_X(vi_degen_ops) *dg = s->pub.type->degen;
  const int n = s->pub.n;
  scratch w;
  int rc = scratch_get(&w, (size_t)(2 * n * n), (size_t)n);
  if (rc != VI_OK) {
    return rc;
  }
  VI_REAL *Da = w.w, *A = w.w + n * n;
  rc = vi_callback_status(dg->dalpha(s->pub.state, q, Da));
  if (rc == VI_OK) {
    rc = vi_callback_status(dg->grad_hamiltonian(s->pub.state, q, qdot));
  }
  if (rc == VI_OK) {
    /* tyranowski2014 (2.8): (Dalpha' - Dalpha) qdot = grad H. */
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        A[i * n + j] = Da[j * n + i] - Da[i * n + j];
      }
    }
    rc = VI_X(vi_lu_factor)(n, A, w.piv);
  }
  if (rc == VI_OK) {
    VI_X(vi_lu_solve)(n, A, w.piv, qdot);
  }
  scratch_put(&w);
  return rc;
}

/* ---- derivative pairs of vi_degen_ops -----------------------------------------------
 * Dalpha against alpha, the contracted Hessian of alpha against Dalpha' w
 * (w = the point's v), grad H against H, Hess H against grad H. */

static int alpha_f(const sys_impl *s, const fd_point *pt, const VI_REAL *q, const VI_REAL *x,
                   VI_REAL *out, VI_REAL *tmp) {
  return s->pub.type->degen->alpha(s->pub.state, q, out);
}
static int alpha_df(const sys_impl *s, const fd_point *pt, VI_REAL *J, int *have, VI_REAL *tmp) {
  const VI_X(vi_degen_ops) *dg = s->pub.type->degen;
  *have = dg->dalpha != NULL;
  return *have ? dg->dalpha(s->pub.state, pt->q, J) : 0;
}
static int daw_f(const sys_impl *s, const fd_point *pt, const VI_REAL *q, const VI_REAL *x,
                 VI_REAL *out, VI_REAL *tmp) {
  const int n = s->pub.n;
  int rc = s->pub.type->degen->dalpha(s->pub.state, q, tmp);
  for (int j = 0; rc == 0 && j < n; j++) {
    VI_REAL t = 0;
    for (int b = 0; b < n; b++) {
      t += tmp[b * n + j] * pt->v[b];
    }
    out[j] = t;
  }
  return rc;
}
static int daw_df(const sys_impl *s, const fd_point *pt, VI_REAL *J, int *have, VI_REAL *tmp) {
  const VI_X(vi_degen_ops) *dg = s->pub.type->degen;
  *have = dg->d2alpha != NULL;
  return *have ? dg->d2alpha(s->pub.state, pt->q, pt->v, J) : 0;
}
static int ham_f(const sys_impl *s, const fd_point *pt, const VI_REAL *q, const VI_REAL *x,
                 VI_REAL *out, VI_REAL *tmp) {
  return s->pub.type->degen->hamiltonian(s->pub.state, q, out);
}
static int ham_df(const sys_impl *s, const fd_point *pt, VI_REAL *J, int *have, VI_REAL *tmp) {
  *have = 1;
  return s->pub.type->degen->grad_hamiltonian(s->pub.state, pt->q, J);
}
static int dham_f(const sys_impl *s, const fd_point *pt, const VI_REAL *q, const VI_REAL *x,
                  VI_REAL *out, VI_REAL *tmp) {
  return s->pub.type->degen->grad_hamiltonian(s->pub.state, q, out);
}
static int dham_df(const sys_impl *s, const fd_point *pt, VI_REAL *J, int *have, VI_REAL *tmp) {
  const VI_X(vi_degen_ops) *dg = s->pub.type->degen;
  *have = dg->hess_hamiltonian != NULL;
  return *have ? dg->hess_hamiltonian(s->pub.state, pt->q, J) : 0;
}

static const vi_fd_pair degen_pairs[] = {
    {"dalpha", FD_CONFIG, FD_ROWS_N, NULL, alpha_f, alpha_df},
    {"d2alpha", FD_CONFIG, FD_ROWS_N, NULL, daw_f, daw_df},
    {"grad_hamiltonian", FD_CONFIG, FD_ROWS_1, NULL, ham_f, ham_df},
    {"hess_hamiltonian", FD_CONFIG, FD_ROWS_N, NULL, dham_f, dham_df},
    {NULL, 0, 0, NULL, NULL, NULL}};

static const vi_fd_pair *const degen_check_tables[] = {degen_pairs, NULL};

/* A system that declares alpha affine (the orders of vprk depend on it,
 * tyranowski2014 §4.2): Dalpha the same as at q0 and the contracted Hess
 * alpha zero, to round-off, at every probe. */
static int degen_affine_check(fd_run *r, const fd_point *pt, int probe, const char *where) {
  (void)where;
  const sys_impl *s = r->s;
  const VI_X(vi_system_type) *t = s->pub.type;
  if (!t->info->alpha_affine) {
    return VI_OK;
  }
  const int n = s->pub.n;
  const char *name = r->name;
  VI_REAL *J = r->J, *D0 = r->D;
  int rc = t->degen->dalpha(s->pub.state, s->pub.q0, D0);
  if (rc == 0) {
    rc = t->degen->dalpha(s->pub.state, pt->q, J);
  }
  VI_REAL dev = 0, scale = 0;
  for (int i = 0; rc == 0 && i < n * n; i++) {
    VI_REAL d = vi_fabs(J[i] - D0[i]);
    dev = d > dev || d != d ? d : dev;
    scale = vi_fabs(D0[i]) > scale ? vi_fabs(D0[i]) : scale;
  }
  if (rc == 0) {
    rc = t->degen->d2alpha(s->pub.state, pt->q, pt->v, J);
  }
  for (int i = 0; rc == 0 && i < n * n; i++) {
    VI_REAL d = vi_fabs(J[i]);
    dev = d > dev || d != d ? d : dev;
  }
  char line[256];
  if (rc != 0) {
    snprintf(line, sizeof line, "%s alpha affine at probe %d: callback failed with status %d",
             name, probe, rc);
    VI_X(vi_fd_line)(r, line);
    return VI_ECALLBACK;
  }
  const VI_REAL lim = 10 * VI_EPS * (scale > 1 ? scale : 1);
  const int ok = dev <= lim;
  r->failures += !ok;
  if (probe == 0) {
    snprintf(line, sizeof line,
             "%s alpha affine (declared) at q0: contracted Hess alpha at most %.1e "
             "(tol %.1e) %s",
             name, (double)dev, (double)lim, ok ? "ok" : "FAIL");
  } else {
    snprintf(line, sizeof line,
             "%s alpha affine (declared) at probe %d: Dalpha - Dalpha(q0) and the contracted "
             "Hess alpha at most %.1e (tol %.1e) %s",
             name, probe, (double)dev, (double)lim, ok ? "ok" : "FAIL");
  }
  VI_X(vi_fd_line)(r, line);
  return VI_OK;
}

const vi_form_impl VI_X(vi_form_degen) = {
    .name = "degenerate",
    .has_velocity = 0,
    .setup = degen_setup,
    .project = degen_project,
    .energy = degen_energy,
    .defect = degen_defect,
    .velocity = degen_velocity,
    .check = VI_X(vi_check_coords),
    .pairs = degen_check_tables,
    .probe_post = degen_affine_check,
};
