/* form_lie_tmpl.c: the Lie-group form, a trivialised Lagrangian l(g, xi) on
 * G x g with nonholonomic constraints A(g) xi + a(g) = 0 (demartin2018
 * §5-6; vi_lie_ops and vi_space_ops in api_tmpl.h, formulas in
 * ../shared/papers/notes/demartin2018.md §1.6): the inverse Legendre map
 * xi(g, mu), the continuous Euler-Poincare equations with the constraint
 * force -A' lambda along gdot = g xi and their multipliers, the energy
 * <mu, xi> - l, the set-up and projection of initial data (g0 onto its
 * group, xi0 onto the constraints in the metric of D2 D2 l), and the
 * derivative pairs of the Lie and group tables with the group's own
 * checks (project, dcayinv). Every derivative along the group, of these
 * tables and of the nonholonomic one (dphi_dq, datmu), is left
 * trivialised: taken along g cay(eps e_b). Compiled once per precision. */
#include <stdio.h>

#include "system_impl.h"

/* H = D2 D2 l(g, xi) factored (d x d, LU in place). */
static int lie_hess(const sys_impl *s, const VI_REAL *g, const VI_REAL *xi, VI_REAL *H,
                    int *piv) {
  int rc = vi_callback_status(s->pub.type->lie->dxi2(s->pub.state, g, xi, H));
  if (rc == VI_OK && VI_X(vi_lu_factor)(s->pub.n, H, piv) != VI_OK) {
    rc = VI_SINGULAR;
  }
  return rc;
}

/* The Lie form's Schur complement: B = A H^-1 (k x n, each row solved
 * against the factored symmetric H = D2 D2 l) and S = B A' (k x k),
 * factored with pivots pk. Serves the multipliers (lie_dynamics) and the
 * projection of xi (lie_project_xi). */
static int lie_schur(int n, int k, const VI_REAL *H, const int *hpiv, const VI_REAL *A,
                     VI_REAL *B, VI_REAL *S, int *pk) {
  for (int i = 0; i < k; i++) {
    memcpy(B + (size_t)i * n, A + (size_t)i * n, (size_t)n * sizeof *B);
    VI_X(vi_lu_solve)(n, H, hpiv, B + (size_t)i * n);
  }
  for (int i = 0; i < k; i++) {
    for (int l = 0; l < k; l++) {
      VI_REAL u = 0;
      for (int j = 0; j < n; j++) {
        u += B[i * n + j] * A[l * n + j];
      }
      S[i * k + l] = u;
    }
  }
  return VI_X(vi_lu_factor)(k, S, pk) != VI_OK ? VI_SINGULAR : VI_OK;
}

/* The inverse Legendre map: xi with D2 l(g, xi) = mu, by Newton from
 * xi = 0 (one step for a Lagrangian quadratic in xi). */
static int lie_xi(const sys_impl *s, const VI_REAL *g, const VI_REAL *mu, VI_REAL *xi) {
  const int n = s->pub.n;
  scratch w;
  int rc = scratch_get(&w, (size_t)n * (size_t)n + (size_t)n, (size_t)n);
  if (rc != VI_OK) {
    return rc;
  }
  VI_REAL *H = w.w, *r = H + n * n;
  memset(xi, 0, (size_t)n * sizeof *xi);
  VI_REAL scale = VI_X(vi_norm_inf)(n, mu);
  scale = scale > 1 ? scale : 1;
  rc = VI_NEWTON_NOCONV;
  for (int it = 0; it < 30; it++) {
    int crc = vi_callback_status(s->pub.type->lie->dxi(s->pub.state, g, xi, r));
    if (crc != VI_OK) {
      rc = crc;
      break;
    }
    for (int i = 0; i < n; i++) {
      r[i] = mu[i] - r[i];
    }
    if (VI_X(vi_norm_inf)(n, r) <= 4 * VI_EPS * scale && it > 0) {
      rc = VI_OK;
      break;
    }
    if ((crc = lie_hess(s, g, xi, H, w.piv)) != VI_OK) {
      rc = crc;
      break;
    }
    VI_X(vi_lu_solve)(n, H, w.piv, r);
    for (int i = 0; i < n; i++) {
      xi[i] += r[i];
    }
  }
  scratch_put(&w);
  return rc;
}

/* A(g) xi + a(g): the nonholonomic residual at the Lie form's velocity. */
static int lie_phi(const sys_impl *s, const VI_REAL *g, const VI_REAL *xi, VI_REAL *r) {
  scratch w;
  int rc = scratch_get(&w, (size_t)s->pub.m_nh * (size_t)s->pub.n, 0);
  if (rc == VI_OK) {
    rc = VI_X(vi_nh_phi)(s, g, xi, r, w.w);
  }
  scratch_put(&w);
  return rc;
}

/* The Lie form's r = ad*_xi mu + F - dxi_dg xi (n) at (g, xi), and H =
 * D2 D2 l factored: H xidot = r - A' lambda (lie_dynamics). Dd: n^2. */
static int lie_rate(const sys_impl *s, const VI_REAL *g, const VI_REAL *xi, VI_REAL *H,
                    int *piv, VI_REAL *Dd, VI_REAL *mu, VI_REAL *F, VI_REAL *r) {
  const int n = s->pub.n;
  const VI_X(vi_lie_ops) *lie = s->pub.type->lie;
  int rc = vi_callback_status(lie->dxi(s->pub.state, g, xi, mu));
  if (rc == VI_OK) {
    rc = vi_callback_status(lie->force(s->pub.state, g, xi, F));
  }
  if (rc == VI_OK) {
    rc = vi_callback_status(s->pub.type->space->ad(s->pub.state, xi, Dd));
  }
  if (rc != VI_OK) {
    return rc;
  }
  for (int i = 0; i < n; i++) {
    VI_REAL t = F[i];
    for (int j = 0; j < n; j++) {
      t += Dd[j * n + i] * mu[j]; /* ad*_xi mu = ad_xi' mu */
    }
    r[i] = t;
  }
  if (lie->dxi_dg != NULL) {
    if ((rc = vi_callback_status(lie->dxi_dg(s->pub.state, g, xi, Dd))) != VI_OK) {
      return rc;
    }
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        r[i] -= Dd[i * n + j] * xi[j];
      }
    }
  }
  return lie_hess(s, g, xi, H, piv);
}

/* The multipliers of the Lie form with nonholonomic constraints
 * (demartin2018 §6.4 in continuous time): along gdot = g xi,
 *   d/dt mu = ad*_xi mu + F - A' lambda,  mu = D2 l(g, xi),
 * so H xidot = r - A' lambda with r = ad*_xi mu + F - dxi_dg xi, and
 * d/dt (A xi + a) = A xidot + D_g Phi(g, xi) xi = 0, D_g Phi the
 * left-trivialised derivative dphi_dq (the derivative of Phi(g(t), w)
 * along gdot = g xi is D_g Phi(g, w) xi), gives
 *   (A H^-1 A') lambda = A H^-1 r + D_g Phi(g, xi) xi.
 * Also returns xidot when wanted (xidot may be NULL). */
static int lie_dynamics(const sys_impl *s, const VI_REAL *g, const VI_REAL *xi,
                        VI_REAL *lambda, VI_REAL *xidot) {
  const int n = s->pub.n, k = s->pub.m_nh;
  scratch w;
  int rc = scratch_get(&w, (size_t)VI_LIE_LAMBDA_WORK((size_t)n, (size_t)k), (size_t)(n + k));
  if (rc != VI_OK) {
    return rc;
  }
  VI_REAL *H = w.w, *Dd = H + n * n, *mu = Dd + n * n, *F = mu + n, *r = F + n, *y = r + n;
  VI_REAL *A = y + n, *B = A + (size_t)k * n, *D = B + (size_t)k * n, *S = D + (size_t)k * n;
  if ((rc = lie_rate(s, g, xi, H, w.piv, Dd, mu, F, r)) != VI_OK) {
    goto done;
  }
  if (k > 0) {
    rc = VI_X(vi_nh_rows)(s, g, A, NULL);
    if (rc == VI_OK) {
      rc = vi_callback_status(s->pub.type->nh->dphi_dq(s->pub.state, g, xi, D));
    }
    if (rc != VI_OK) {
      goto done;
    }
    int *piv2 = w.piv + n;
    if ((rc = lie_schur(n, k, H, w.piv, A, B, S, piv2)) != VI_OK) {
      goto done;
    }
    memcpy(y, r, (size_t)n * sizeof *y);
    VI_X(vi_lu_solve)(n, H, w.piv, y);
    for (int i = 0; i < k; i++) {
      VI_REAL t = 0;
      for (int j = 0; j < n; j++) {
        t += A[i * n + j] * y[j] + D[i * n + j] * xi[j];
      }
      lambda[i] = t;
    }
    VI_X(vi_lu_solve)(k, S, piv2, lambda);
    for (int j = 0; j < n; j++) {
      for (int i = 0; i < k; i++) {
        r[j] -= A[i * n + j] * lambda[i];
      }
    }
  }
  if (xidot != NULL) {
    memcpy(xidot, r, (size_t)n * sizeof *xidot);
    VI_X(vi_lu_solve)(n, H, w.piv, xidot);
  }
done:
  scratch_put(&w);
  return rc;
}

static int lie_rhs(const sys_impl *s, const VI_REAL *g, const VI_REAL *xi, VI_REAL *gdot,
                   VI_REAL *xidot, VI_REAL *lambda) {
  int rc = vi_callback_status(s->pub.type->space->tangent(s->pub.state, g, xi, gdot));
  if (rc == VI_OK) {
    rc = lie_dynamics(s, g, xi, lambda, xidot);
  }
  return rc;
}

/* The services of a state (g, mu): xi from the Legendre map, then f. */
static int lie_lambda(const sys_impl *s, const VI_REAL *q, const VI_REAL *p, VI_REAL *lambda) {
  scratch w;
  int rc = scratch_get(&w, (size_t)s->pub.n, 0);
  if (rc == VI_OK) {
    rc = lie_xi(s, q, p, w.w);
  }
  if (rc == VI_OK) {
    rc = lie_dynamics(s, q, w.w, lambda + s->pub.m, NULL);
  }
  scratch_put(&w);
  return rc;
}

static int lie_nh_residual(const sys_impl *s, const VI_REAL *q, const VI_REAL *p, VI_REAL *r) {
  scratch w;
  int rc = scratch_get(&w, (size_t)s->pub.n, 0);
  if (rc == VI_OK) {
    rc = lie_xi(s, q, p, w.w);
  }
  if (rc == VI_OK) {
    rc = lie_phi(s, q, w.w, r);
  }
  scratch_put(&w);
  return rc;
}

/* E = <mu, xi> - l(g, xi) with xi from mu = D2 l(g, xi). */
static int lie_energy(const sys_impl *s, const VI_REAL *q, const VI_REAL *p, VI_REAL *E) {
  const int n = s->pub.n;
  scratch w;
  int rc = scratch_get(&w, (size_t)n, 0);
  VI_REAL l = 0;
  if (rc == VI_OK) {
    rc = lie_xi(s, q, p, w.w);
  }
  if (rc == VI_OK) {
    rc = vi_callback_status(s->pub.type->lie->lagrangian(s->pub.state, q, w.w, &l));
  }
  if (rc == VI_OK) {
    VI_REAL t = 0;
    for (int i = 0; i < n; i++) {
      t += p[i] * w.w[i];
    }
    *E = t - l;
  }
  scratch_put(&w);
  return rc;
}

/* ---- initial data ------------------------------------------------------------------ */

/* xi <- xi - H^-1 A' (A H^-1 A')^-1 (A xi + a): three Newton steps on the
 * (affine) constraint, exact in the first for a Lagrangian quadratic in
 * xi. The projection of xi in the metric of H = D2 D2 l at g. */
static int lie_project_xi(const sys_impl *s, const VI_REAL *g, VI_REAL *xi) {
  const int n = s->pub.n, k = s->pub.m_nh;
  if (k > 64 || n > 64) {
    return VI_EINVAL;
  }
  VI_REAL r[64], H[64 * 64], y[64], A[64 * 64], B[64 * 64], S[64 * 64];
  int piv[64], pk[64];
  int rc = VI_OK;
  for (int it = 0; it < 3 && rc == VI_OK; it++) {
    rc = lie_phi(s, g, xi, r);
    if (rc == VI_OK) {
      rc = VI_X(vi_nh_rows)(s, g, A, NULL);
    }
    if (rc == VI_OK) {
      rc = lie_hess(s, g, xi, H, piv);
    }
    if (rc == VI_OK) {
      rc = lie_schur(n, k, H, piv, A, B, S, pk);
    }
    if (rc != VI_OK) {
      break;
    }
    memcpy(y, r, (size_t)k * sizeof *y);
    VI_X(vi_lu_solve)(k, S, pk, y);
    for (int j = 0; j < n; j++) {
      for (int i = 0; i < k; i++) {
        xi[j] -= B[i * n + j] * y[i];
      }
    }
  }
  return rc;
}

/* vi_system_project: g onto its group (space->project, for a group in an
 * embedding), xi onto the constraints, mu = D2 l(g, xi). */
static int lie_project(const sys_impl *s, VI_REAL *q, VI_REAL *v, VI_REAL *p) {
  int rc = VI_OK;
  if (s->pub.type->space->project != NULL) {
    VI_REAL res = 0;
    rc = vi_callback_status(s->pub.type->space->project(s->pub.state, q, &res));
  }
  if (rc == VI_OK && s->pub.m_nh > 0) {
    rc = lie_project_xi(s, q, v);
  }
  if (rc == VI_OK) {
    rc = vi_callback_status(s->pub.type->lie->dxi(s->pub.state, q, v, p));
  }
  return rc;
}

/* A group element in an embedding (nq > n): g0 must lie on the group to
 * the tolerance (unless project_any), and is projected onto it in the
 * working precision, like constrained initial data. */
static int lie_setup_group(sys_impl *s, int project_any, char *err, size_t errlen) {
  const char *name = s->pub.type->info->name;
  VI_REAL res = 0;
  int rc = vi_callback_status(s->pub.type->space->project(s->pub.state, s->pub.q0, &res));
  if (rc != VI_OK) {
    vi_set_err(err, errlen,
               "inconsistent initial data for system %s: the initial configuration is not "
               "an element of its group (distance %.1e; project refused it: %s)",
               name, (double)res, vi_strerror(rc));
    return rc > 0 ? VI_EINCONSISTENT : rc;
  }
  if (!(res <= (VI_REAL)VI_CONSISTENCY_TOL) && !project_any) {
    vi_set_err(err, errlen,
               "inconsistent initial data for system %s: the initial configuration is %.1e "
               "away from the group (tolerance %.1e)",
               name, (double)res, VI_CONSISTENCY_TOL);
    return VI_EINCONSISTENT;
  }
  return VI_OK;
}

/* Allocation: g0 on its group, xi0 consistent with the nonholonomic
 * constraints and projected onto them in the metric of H = D2 D2 l, then
 * mu0 = D2 l(g0, xi0). */
static int lie_setup(sys_impl *s, int project_any, char *err, size_t errlen) {
  VI_X(vi_system) *sys = &s->pub;
  const int n = sys->n, k = sys->m_nh;
  const char *name = sys->type->info->name;
  int rc = VI_OK;
  if (sys->type->space->project != NULL &&
      (rc = lie_setup_group(s, project_any, err, errlen)) != VI_OK) {
    return rc;
  }
  if (k > 0) {
    VI_REAL r[64];
    if (k > 64 || n > 64) {
      vi_set_err(err, errlen, "system %s is too large for the Lie form's set-up", name);
      return VI_EINVAL;
    }
    rc = lie_phi(s, sys->q0, sys->v0, r);
    if (rc != VI_OK) {
      vi_set_err(err, errlen, "callback of system %s failed (%s) at the initial data", name,
                 vi_strerror(rc));
      return rc;
    }
    VI_REAL vs = VI_X(vi_norm_inf)(n, sys->v0);
    vs = vs > 1 ? vs : 1;
    VI_REAL tol = (VI_REAL)VI_CONSISTENCY_TOL * vs, rr = VI_X(vi_norm_inf)(k, r);
    if (!(rr <= tol) && !project_any) {
      vi_set_err(err, errlen,
                 "inconsistent initial data for system %s: |A(g0) xi0 + a(g0)| = %.1e "
                 "(tolerance %.1e)",
                 name, (double)rr, (double)tol);
      return VI_EINCONSISTENT;
    }
    if ((rc = lie_project_xi(s, sys->q0, sys->v0)) != VI_OK) {
      vi_set_err(err, errlen, "projection of xi0 of system %s failed (%s)", name,
                 vi_strerror(rc));
      return rc;
    }
  }
  rc = vi_callback_status(sys->type->lie->dxi(sys->state, sys->q0, sys->v0, sys->p0));
  if (rc != VI_OK) {
    vi_set_err(err, errlen, "callback dxi of system %s failed at the initial data", name);
  }
  return rc;
}

/* ---- derivative pairs of vi_lie_ops ---------------------------------------------------
 * Along the coordinates of xi (FD_VEL) or the left-trivialised group
 * directions g cay(eps e_b) (FD_CONFIG); f returns the raw status. */

static int l_f(const sys_impl *s, const fd_point *pt, const VI_REAL *g, const VI_REAL *x,
               VI_REAL *out, VI_REAL *tmp) {
  return s->pub.type->lie->lagrangian(s->pub.state, g, x, out);
}
static int dxi_f(const sys_impl *s, const fd_point *pt, const VI_REAL *g, const VI_REAL *x,
                 VI_REAL *out, VI_REAL *tmp) {
  return s->pub.type->lie->dxi(s->pub.state, g, x, out);
}
static int force_f(const sys_impl *s, const fd_point *pt, const VI_REAL *g, const VI_REAL *x,
                   VI_REAL *out, VI_REAL *tmp) {
  return s->pub.type->lie->force(s->pub.state, g, x, out);
}
/* The table's derivative callbacks at the point (g, xi). */
#define LIE_DF(fn, field, required)                                                           \
  static int fn(const sys_impl *s, const fd_point *pt, VI_REAL *J, int *have, VI_REAL *tmp) { \
    const VI_X(vi_lie_ops) *lie = s->pub.type->lie;                                           \
    *have = (required) || lie->field != NULL;                                                 \
    return *have ? lie->field(s->pub.state, pt->q, pt->v, J) : 0;                             \
  }
LIE_DF(dxi_df, dxi, 1)
LIE_DF(force_df, force, 1)
LIE_DF(dxi2_df, dxi2, 1)
LIE_DF(dxidg_df, dxi_dg, 0)
LIE_DF(dfdg_df, dforce_dg, 0)
LIE_DF(dfdxi_df, dforce_dxi, 0)
#undef LIE_DF

static const vi_fd_pair lie_pairs[] = {
    {"lie dxi", FD_VEL, FD_ROWS_1, NULL, l_f, dxi_df},
    {"lie force", FD_CONFIG, FD_ROWS_1, NULL, l_f, force_df},
    {"lie dxi2", FD_VEL, FD_ROWS_N, NULL, dxi_f, dxi2_df},
    {"lie dxi_dg", FD_CONFIG, FD_ROWS_N, NULL, dxi_f, dxidg_df},
    {"lie dforce_dg", FD_CONFIG, FD_ROWS_N, NULL, force_f, dfdg_df},
    {"lie dforce_dxi", FD_VEL, FD_ROWS_N, NULL, force_f, dfdxi_df},
    {NULL, 0, 0, NULL, NULL, NULL}};

/* ---- derivative pairs of vi_space_ops: the group maps against cay and the
 * chart ---------------------------------------------------------------------------------- */

/* dcay_X against local(cay(X), cay(x)) in the coordinates of x around X. */
static int cay_f(const sys_impl *s, const fd_point *pt, const VI_REAL *g, const VI_REAL *x,
                 VI_REAL *out, VI_REAL *tmp) {
  const VI_X(vi_space_ops) *sp = s->pub.type->space;
  VI_REAL *a = tmp, *b = tmp + s->pub.nq;
  int rc = sp->cay(s->pub.state, pt->X, a);
  if (rc == 0) {
    rc = sp->cay(s->pub.state, x, b);
  }
  return rc == 0 ? sp->local(s->pub.state, a, b, out) : rc;
}
static int cay_df(const sys_impl *s, const fd_point *pt, VI_REAL *J, int *have, VI_REAL *tmp) {
  *have = 1;
  return s->pub.type->space->dcay(s->pub.state, pt->X, J);
}
/* tangent(g, e_b) (nq x n) against the coordinates of g cay(x). */
static int tan_f(const sys_impl *s, const fd_point *pt, const VI_REAL *g, const VI_REAL *x,
                 VI_REAL *out, VI_REAL *tmp) {
  const VI_X(vi_space_ops) *sp = s->pub.type->space;
  int rc = sp->cay(s->pub.state, x, tmp);
  return rc == 0 ? sp->compose(s->pub.state, g, tmp, out) : rc;
}
static int tan_df(const sys_impl *s, const fd_point *pt, VI_REAL *J, int *have, VI_REAL *tmp) {
  const int n = s->pub.n, nq = s->pub.nq;
  VI_REAL *e = tmp, *col = tmp + n;
  *have = 1;
  for (int b = 0; b < n; b++) {
    for (int j = 0; j < n; j++) {
      e[j] = j == b;
    }
    int rc = s->pub.type->space->tangent(s->pub.state, pt->q, e, col);
    if (rc != 0) {
      return rc;
    }
    for (int i = 0; i < nq; i++) {
      J[i * n + b] = col[i];
    }
  }
  return 0;
}
/* Ad_g against local(e, g cay(x) g^-1). */
static int Ad_f(const sys_impl *s, const fd_point *pt, const VI_REAL *g, const VI_REAL *x,
                VI_REAL *out, VI_REAL *tmp) {
  const VI_X(vi_space_ops) *sp = s->pub.type->space;
  const void *st = s->pub.state;
  const int nq = s->pub.nq;
  VI_REAL *e = tmp, *a = tmp + nq, *b = tmp + 2 * nq, *gi = tmp + 3 * nq;
  VI_REAL zero[64] = {0};
  int rc = sp->cay(st, zero, e);
  if (rc == 0) {
    rc = sp->cay(st, x, a);
  }
  if (rc == 0) {
    rc = sp->compose(st, g, a, b);
  }
  if (rc == 0) {
    rc = sp->inverse(st, g, gi);
  }
  if (rc == 0) {
    rc = sp->compose(st, b, gi, a);
  }
  return rc == 0 ? sp->local(st, e, a, out) : rc;
}
static int Ad_df(const sys_impl *s, const fd_point *pt, VI_REAL *J, int *have, VI_REAL *tmp) {
  const VI_X(vi_space_ops) *sp = s->pub.type->space;
  *have = sp->Ad != NULL;
  return *have ? sp->Ad(s->pub.state, pt->q, J) : 0;
}
/* -ad_eta against Ad_{cay(x)} eta: d/deps Ad_{cay(eps e_b)} eta = ad_{e_b}
 * eta = -ad_eta e_b. */
static int ad_f(const sys_impl *s, const fd_point *pt, const VI_REAL *g, const VI_REAL *x,
                VI_REAL *out, VI_REAL *tmp) {
  const VI_X(vi_space_ops) *sp = s->pub.type->space;
  const int n = s->pub.n;
  VI_REAL *a = tmp, *A = tmp + s->pub.nq;
  int rc = sp->cay(s->pub.state, x, a);
  if (rc == 0) {
    rc = sp->Ad(s->pub.state, a, A);
  }
  for (int i = 0; rc == 0 && i < n; i++) {
    VI_REAL t = 0;
    for (int j = 0; j < n; j++) {
      t += A[i * n + j] * pt->eta[j];
    }
    out[i] = t;
  }
  return rc;
}
static int ad_df(const sys_impl *s, const fd_point *pt, VI_REAL *J, int *have, VI_REAL *tmp) {
  const VI_X(vi_space_ops) *sp = s->pub.type->space;
  *have = sp->Ad != NULL;
  if (!*have) {
    return 0;
  }
  int rc = sp->ad(s->pub.state, pt->eta, J);
  for (int i = 0; i < s->pub.n * s->pub.n; i++) {
    J[i] = -J[i];
  }
  return rc;
}

/* Whether the group table supplies the optional second tangent. */
static int has_ddcay(const sys_impl *s) {
  return s->pub.type->space->ddcay_star != NULL;
}

/* The second tangent (ddcay_X)*(y, pi) (notes §1.6) against the
 * differences of sigma . dcay_x y along x around X (y = the point's xi,
 * sigma its auxiliary vector): D_x(dcay_x y) = dcay_X B, B delta =
 * ddcay_X(y, delta), so the gradient is B' dcay_X' sigma = (ddcay_X)*(y,
 * pi) with pi = dcay_X' sigma. Checked where the group table has it
 * (has_ddcay; a family that needs it refuses a system without it). */
static int ddcay_f(const sys_impl *s, const fd_point *pt, const VI_REAL *g, const VI_REAL *x,
                   VI_REAL *out, VI_REAL *tmp) {
  const int n = s->pub.n;
  int rc = s->pub.type->space->dcay(s->pub.state, x, tmp);
  VI_REAL t = 0;
  for (int i = 0; rc == 0 && i < n; i++) {
    for (int j = 0; j < n; j++) {
      t += pt->eta[i] * tmp[i * n + j] * pt->v[j];
    }
  }
  out[0] = t;
  return rc;
}
static int ddcay_df(const sys_impl *s, const fd_point *pt, VI_REAL *J, int *have,
                    VI_REAL *tmp) {
  const VI_X(vi_space_ops) *sp = s->pub.type->space;
  const int n = s->pub.n;
  VI_REAL *D = tmp, *pi = tmp + n * n;
  *have = 1;
  int rc = sp->dcay(s->pub.state, pt->X, D);
  for (int j = 0; rc == 0 && j < n; j++) {
    VI_REAL t = 0;
    for (int i = 0; i < n; i++) {
      t += D[i * n + j] * pt->eta[i];
    }
    pi[j] = t;
  }
  return rc == 0 ? sp->ddcay_star(s->pub.state, pt->X, pt->v, pi, J) : rc;
}

static const vi_fd_pair space_pairs[] = {
    {"group dcay", FD_ALG, FD_ROWS_N, NULL, cay_f, cay_df},
    {"group ddcay_star", FD_ALG, FD_ROWS_1, has_ddcay, ddcay_f, ddcay_df},
    {"group tangent", FD_CHART, FD_ROWS_NQ, NULL, tan_f, tan_df},
    {"group Ad", FD_CHART, FD_ROWS_N, NULL, Ad_f, Ad_df},
    {"group ad", FD_CHART, FD_ROWS_N, NULL, ad_f, ad_df},
    {NULL, 0, 0, NULL, NULL, NULL}};

static const vi_fd_pair *const lie_check_tables[] = {lie_pairs, VI_X(vi_nh_pairs), space_pairs,
                                                     NULL};

/* ---- the group's own checks at each probe ----------------------------------------- */

/* An embedded group: g = g0 cay(x) must lie on the group (compose and cay
 * keep to it) and project must leave it where it is. */
static int group_project_check(fd_run *r, const fd_point *pt, int probe, const char *where) {
  (void)probe;
  const sys_impl *s = r->s;
  const VI_X(vi_space_ops) *sp = s->pub.type->space;
  const int nq = s->pub.nq;
  if (sp->project == NULL) {
    return VI_OK;
  }
  VI_REAL gg[64], res = 0, d = 0;
  memcpy(gg, pt->q, (size_t)nq * sizeof *gg);
  if (sp->project(s->pub.state, gg, &res) != 0) {
    return VI_ECALLBACK;
  }
  for (int i = 0; i < nq; i++) {
    d = vi_fabs(gg[i] - pt->q[i]) > d ? vi_fabs(gg[i] - pt->q[i]) : d;
  }
  const VI_REAL gs = VI_X(vi_norm_inf)(nq, pt->q);
  int ok = res <= 100 * VI_EPS && d <= 100 * VI_EPS * (gs > 1 ? gs : 1);
  r->failures += !ok;
  char line[256];
  snprintf(line, sizeof line,
           "%s group project at %s: distance from the group %.1e, moved by %.1e %s", r->name,
           where, (double)res, (double)d, ok ? "ok" : "FAIL");
  VI_X(vi_fd_line)(r, line);
  return VI_OK;
}

/* dcayinv_X dcay_X = I (algebraic). */
static int group_dcayinv_check(fd_run *r, const fd_point *pt, int probe, const char *where) {
  (void)probe;
  const sys_impl *s = r->s;
  const VI_X(vi_space_ops) *sp = s->pub.type->space;
  const int n = s->pub.n;
  char line[256];
  if (sp->dcayinv == NULL) {
    r->failures++;
    snprintf(line, sizeof line, "%s group dcayinv at %s: callback missing FAIL", r->name, where);
    VI_X(vi_fd_line)(r, line);
    return VI_OK;
  }
  VI_REAL *J = r->J, *D = r->D;
  if (sp->dcay(s->pub.state, pt->X, J) != 0 || sp->dcayinv(s->pub.state, pt->X, D) != 0) {
    return VI_ECALLBACK;
  }
  VI_REAL e = 0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) {
      VI_REAL t = -(VI_REAL)(i == j);
      for (int l = 0; l < n; l++) {
        t += D[i * n + l] * J[l * n + j];
      }
      e = vi_fabs(t) > e ? vi_fabs(t) : e;
    }
  }
  int ok = e <= 100 * VI_EPS;
  r->failures += !ok;
  snprintf(line, sizeof line, "%s group dcayinv at %s: |dcayinv dcay - I| = %.1e %s", r->name,
           where, (double)e, ok ? "ok" : "FAIL");
  VI_X(vi_fd_line)(r, line);
  return VI_OK;
}

const vi_form_impl VI_X(vi_form_lie) = {
    .name = "Lie-group",
    .has_velocity = 1,
    .setup = lie_setup,
    .project = lie_project,
    .energy = lie_energy,
    .lambda = lie_lambda,
    .nh_residual = lie_nh_residual,
    .lie_xi = lie_xi,
    .lie_rhs = lie_rhs,
    .check = VI_X(vi_check_group),
    .pairs = lie_check_tables,
    .probe_pre = group_project_check,
    .probe_post = group_dcayinv_check,
};
