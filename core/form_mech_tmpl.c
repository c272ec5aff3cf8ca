/* form_mech_tmpl.c: the mechanical form L = 1/2 v'M(q)v - V(q) with
 * holonomic constraints g(q) = 0 and nonholonomic ones A(q)v + a(q) = 0
 * (api_tmpl.h; wenger2017 (1)-(3), man2020 (54), demartin2018 (1)-(2)):
 * the mass matrix and its inverse (cached at allocation when constant),
 * the consistency and projection of initial data (q onto g = 0 along
 * M^-1 G', then p M-orthogonally onto G v = 0 and A v + a = 0 jointly,
 * wenger2017 (4) with the rows stacked), the total energy, the hidden
 * constraint G M^-1 p, the Lagrangian's derivatives for variational
 * integrators, the acceleration and the multipliers of the index-1 form
 * (wenger2017 (70), demartin2018 (4)), the velocity-constraint Jacobian
 * D_q(G(q)v), and the derivative pairs of vi_mech_ops and vi_holo_ops.
 * Sign convention (api_tmpl.h): Lbar = L - g(q) . lambda, so
 * M qdd = -grad V - G' lambda. Compiled once per precision. */
#include <stdio.h>

#include "system_impl.h"

/* ---- the mass matrix ---------------------------------------------------------- */

/* Scratch reals minv_at needs (none for a constant mass matrix). */
static size_t minv_work(const sys_impl *s) {
  return (size_t)VI_MINV_WORK((size_t)s->pub.n, s->config_mass);
}

/* M(q)^-1: the cached inverse for a constant mass matrix, otherwise
 * computed into work (minv_work reals; piv n ints). *out points at the
 * result. */
static int minv_at(const sys_impl *s, const VI_REAL *q, VI_REAL *work, int *piv,
                   const VI_REAL **out) {
  if (!s->config_mass) {
    *out = s->Minv;
    return VI_OK;
  }
  const int n = s->pub.n;
  VI_REAL *A = work, *Ainv = A + n * n, *col = Ainv + n * n;
  int rc = vi_callback_status(s->pub.type->mech->mass_q(s->pub.state, q, A));
  if (rc == VI_OK) {
    rc = invert(n, A, Ainv, col, piv);
  }
  *out = Ainv;
  return rc;
}

static int mech_mass_at(const sys_impl *s, const VI_REAL *q, VI_REAL *work, const VI_REAL **M) {
  if (!s->config_mass) {
    *M = s->M;
    return VI_OK;
  }
  *M = work;
  return vi_callback_status(s->pub.type->mech->mass_q(s->pub.state, q, work));
}

/* The public minv_at: the inverse into the caller's work (n^2), the LU on
 * the stack. */
static int mech_minv_at(const sys_impl *s, const VI_REAL *q, VI_REAL *work,
                        const VI_REAL **Minv) {
  if (!s->config_mass) {
    *Minv = s->Minv;
    return VI_OK;
  }
  const int n = s->pub.n;
  scratch w;
  int rc = scratch_get(&w, (size_t)n * (size_t)n + (size_t)n, (size_t)n);
  if (rc != VI_OK) {
    return rc;
  }
  *Minv = work;
  rc = vi_callback_status(s->pub.type->mech->mass_q(s->pub.state, q, w.w));
  if (rc == VI_OK) {
    rc = invert(n, w.w, work, w.w + n * n, w.piv);
  }
  scratch_put(&w);
  return rc;
}

static int mech_minv_apply(const sys_impl *s, const VI_REAL *q, const VI_REAL *p, VI_REAL *v) {
  const int n = s->pub.n;
  scratch w;
  const VI_REAL *Minv = NULL;
  int rc = scratch_get(&w, minv_work(s), (size_t)n);
  if (rc == VI_OK) {
    rc = minv_at(s, q, w.w, w.piv, &Minv);
  }
  if (rc == VI_OK) {
    matvec(n, n, Minv, p, v);
  }
  scratch_put(&w);
  return rc;
}

/* ---- projections ------------------------------------------------------------------ */

/* B = C M^-1 (k x n) and S = C M^-1 C' = B C' (k x k), factored in place,
 * for the k rows of C (the holonomic G, the nonholonomic A, or both).
 * M^-1 is symmetric, so S is symmetric positive definite whenever C has
 * full rank; a singular S means the rows are dependent at q. */
static int schur_rows(int n, int k, const VI_REAL *Minv, const VI_REAL *C, VI_REAL *B,
                      VI_REAL *S, int *piv) {
  for (int r = 0; r < k; r++) {
    for (int j = 0; j < n; j++) {
      VI_REAL t = 0;
      for (int i = 0; i < n; i++) {
        t += C[r * n + i] * Minv[i * n + j];
      }
      B[r * n + j] = t;
    }
  }
  for (int r = 0; r < k; r++) {
    for (int l = 0; l < k; l++) {
      VI_REAL t = 0;
      for (int j = 0; j < n; j++) {
        t += B[r * n + j] * C[l * n + j];
      }
      S[r * k + l] = t;
    }
  }
  return VI_X(vi_lu_factor)(k, S, piv);
}

/* The M-orthogonal projection of p onto C M^-1 p + c = 0 (C: k x n rows,
 * c: k offsets or NULL for zeros), given B = C M^-1 and the factored
 * S = C M^-1 C' (schur_rows): p <- p - C' S^-1 (B p + c); y: k reals. */
static void project_affine(int n, int k, const VI_REAL *C, const VI_REAL *c, const VI_REAL *B,
                           const VI_REAL *S, const int *piv, VI_REAL *y, VI_REAL *p) {
  for (int i = 0; i < k; i++) {
    VI_REAL t = c != NULL ? c[i] : 0;
    for (int j = 0; j < n; j++) {
      t += B[i * n + j] * p[j];
    }
    y[i] = t;
  }
  VI_X(vi_lu_solve)(k, S, piv, y);
  for (int j = 0; j < n; j++) {
    VI_REAL t = 0;
    for (int i = 0; i < k; i++) {
      t += C[i * n + j] * y[i];
    }
    p[j] -= t;
  }
}

/* The M-orthogonal projection of p onto the velocity constraints of the
 * kinds in mask, their rows stacked: the hidden holonomic constraint
 * (PK_HOLO: C = G, c = 0, wenger2017 (4)) and the nonholonomic one (PK_NH:
 * C = A, c = a), jointly when a system has both: the rows at q, M(q)^-1,
 * the factored Schur complement, then project_affine. */
static int mech_project_rows(const sys_impl *s, const VI_REAL *q, VI_REAL *p, int mask) {
  const int n = s->pub.n, kh = mask & PK_HOLO ? s->pub.m : 0;
  const int kn = mask & PK_NH ? s->pub.m_nh : 0, k = kh + kn;
  if (k == 0) {
    return VI_OK;
  }
  scratch w;
  int rc = scratch_get(&w, 2 * (size_t)k * (size_t)n + (size_t)k * (size_t)k + (size_t)k +
                               minv_work(s),
                       (size_t)(k + n));
  if (rc != VI_OK) {
    return rc;
  }
  VI_REAL *C = w.w, *B = C + (size_t)k * n, *S = B + (size_t)k * n, *y = S + k * k;
  VI_REAL *mw = y + k;
  const VI_REAL *Minv = NULL;
  /* The offsets a(q) of the nonholonomic rows go to y after the zeros of
   * the holonomic ones (project_affine reads each before writing it). */
  if (kh > 0) {
    rc = vi_callback_status(s->pub.type->holo->constraint_jac(s->pub.state, q, C));
    memset(y, 0, (size_t)kh * sizeof *y);
  }
  if (rc == VI_OK && kn > 0) {
    rc = VI_X(vi_nh_rows)(s, q, C + (size_t)kh * n, y + kh);
  }
  if (rc == VI_OK) {
    rc = minv_at(s, q, mw, w.piv, &Minv);
  }
  if (rc == VI_OK) {
    rc = schur_rows(n, k, Minv, C, B, S, w.piv);
  }
  if (rc == VI_OK) {
    project_affine(n, k, C, kn > 0 ? y : NULL, B, S, w.piv, y, p);
  }
  scratch_put(&w);
  return rc;
}

/* One Newton step of q onto g(q) = 0 along M^-1 G' (the M-orthogonal
 * direction): q <- q - M^-1 G'(G M^-1 G')^-1 g(q), with y = g(q) given. */
static int project_q_step(const sys_impl *s, VI_REAL *q, VI_REAL *G, VI_REAL *B, VI_REAL *S,
                          VI_REAL *y, VI_REAL *mw, int *piv) {
  const int n = s->pub.n, m = s->pub.m;
  const VI_REAL *Minv = NULL;
  int rc = vi_callback_status(s->pub.type->holo->constraint_jac(s->pub.state, q, G));
  if (rc == VI_OK) {
    rc = minv_at(s, q, mw, piv, &Minv);
  }
  if (rc == 0) {
    rc = schur_rows(n, m, Minv, G, B, S, piv);
  }
  if (rc == VI_OK) {
    VI_X(vi_lu_solve)(m, S, piv, y);
    for (int j = 0; j < n; j++) {
      VI_REAL t = 0;
      for (int k = 0; k < m; k++) {
        t += B[k * n + j] * y[k]; /* (M^-1 G')_jk = B_kj, M symmetric */
      }
      q[j] -= t;
    }
  }
  return rc;
}

/* q onto g(q) = 0 (m > 0): Newton steps along M^-1 G' until g is within
 * the consistency tolerance VI_CONSISTENCY_TOL max(1, |q|)^2 (none for data
 * the allocation accepted; at most 50), then 4 more to round-off in the
 * working precision. VI_OK, VI_NEWTON_NOCONV, VI_SINGULAR (dependent rows
 * of G) or a mapped callback status. */
static int project_q(const sys_impl *s, VI_REAL *q) {
  const int n = s->pub.n, m = s->pub.m;
  scratch w;
  int rc = scratch_get(&w, 2 * (size_t)m * (size_t)n + (size_t)m * (size_t)m + (size_t)m +
                               minv_work(s),
                       (size_t)(m + n));
  if (rc != VI_OK) {
    return rc;
  }
  VI_REAL *G = w.w, *B = G + m * n, *S = B + m * n, *y = S + m * m, *mw = y + m;
  VI_REAL qs = VI_X(vi_norm_inf)(n, q);
  qs = qs > 1 ? qs : 1;
  const VI_REAL tol = (VI_REAL)VI_CONSISTENCY_TOL * qs * qs;
  for (int it = 0; rc == VI_OK; it++) {
    rc = vi_callback_status(s->pub.type->holo->constraint(s->pub.state, q, y));
    if (rc != VI_OK || VI_X(vi_norm_inf)(m, y) <= tol) {
      break;
    }
    rc = it < 50 ? project_q_step(s, q, G, B, S, y, mw, w.piv) : VI_NEWTON_NOCONV;
  }
  for (int it = 0; it < 4 && rc == VI_OK; it++) {
    rc = vi_callback_status(s->pub.type->holo->constraint(s->pub.state, q, y));
    if (rc == VI_OK) {
      rc = project_q_step(s, q, G, B, S, y, mw, w.piv);
    }
  }
  scratch_put(&w);
  return rc;
}

/* vi_system_project: p = M(q) v at the given q; q onto g = 0; p onto the
 * velocity constraints at the projected q; v = M(q)^-1 p. */
static int mech_project(const sys_impl *s, VI_REAL *q, VI_REAL *v, VI_REAL *p) {
  const int n = s->pub.n;
  scratch w;
  const VI_REAL *M = NULL;
  int rc = scratch_get(&w, (size_t)n * (size_t)n, 0);
  if (rc == VI_OK) {
    rc = mech_mass_at(s, q, w.w, &M);
  }
  if (rc == VI_OK) {
    matvec(n, n, M, v, p);
  }
  scratch_put(&w);
  if (rc == VI_OK && s->pub.m > 0) {
    rc = project_q(s, q);
  }
  if (rc == VI_OK) {
    rc = mech_project_rows(s, q, p, PK_HOLO | PK_NH);
  }
  if (rc == VI_OK) {
    rc = mech_minv_apply(s, q, p, v);
  }
  return rc;
}

/* ---- allocation -------------------------------------------------------------------- */

/* The residuals of the initial data against every constraint: all are
 * computed before any is refused, so that a system with both kinds names
 * each one that fails. Scales: g is quadratic in lengths (g = 1/2 (|x|^2 -
 * l^2) for most systems), so its rounding error grows like |q0|^2; G v0
 * and A v0 + a are linear in q and in v. Both are floored at 1 so that
 * small coordinates do not ask for more than the absolute tolerance.
 * Returns VI_OK, VI_EINCONSISTENT with the message, or a callback failure
 * (*what). */
static int mech_consistency(sys_impl *s, const VI_REAL *g, const VI_REAL *G, VI_REAL *gv,
                            const char **what, int *crc, char *err, size_t errlen) {
  VI_X(vi_system) *sys = &s->pub;
  const int n = sys->n, m = sys->m;
  const char *name = sys->type->info->name;
  VI_REAL qs = VI_X(vi_norm_inf)(n, sys->q0);
  VI_REAL vs = VI_X(vi_norm_inf)(n, sys->v0);
  qs = qs > 1 ? qs : 1;
  vs = vs > 1 ? vs : 1;
  const VI_REAL tol_g = (VI_REAL)VI_CONSISTENCY_TOL * qs * qs;
  const VI_REAL tol_v = (VI_REAL)VI_CONSISTENCY_TOL * qs * vs;
  VI_REAL rg = 0, rgv = 0, rr = 0;
  if (m > 0) {
    matvec(m, n, G, sys->v0, gv);
    rg = VI_X(vi_norm_inf)(m, g);
    rgv = VI_X(vi_norm_inf)(m, gv);
  }
  if (sys->m_nh > 0) {
    VI_REAL res[64];
    *what = "nonholonomic constraint";
    *crc = sys->m_nh <= 64 ? s->form->nh_residual(s, sys->q0, sys->p0, res) : VI_ENOMEM;
    if (*crc != 0) {
      return *crc;
    }
    rr = VI_X(vi_norm_inf)(sys->m_nh, res);
  }
  const int bad_h = m > 0 && !(rg <= tol_g && rgv <= tol_v);
  const int bad_nh = sys->m_nh > 0 && !(rr <= tol_v);
  if (!bad_h && !bad_nh) {
    return VI_OK;
  }
  char hmsg[160] = "", nmsg[96] = "";
  if (m > 0) {
    snprintf(hmsg, sizeof hmsg,
             "|g(q0)| = %.1e (tolerance %.1e), |G(q0) v0| = %.1e (tolerance %.1e)", (double)rg,
             (double)tol_g, (double)rgv, (double)tol_v);
  }
  if (sys->m_nh > 0) {
    snprintf(nmsg, sizeof nmsg, "|A(q0) v0 + a(q0)| = %.1e (tolerance %.1e)", (double)rr,
             (double)tol_v);
  }
  vi_set_err(err, errlen, "inconsistent initial data for system %s: %s%s%s", name, hmsg,
             hmsg[0] && nmsg[0] ? ", " : "", nmsg);
  return VI_EINCONSISTENT;
}

/* M and M^-1 at q0 into the instance (LU: n^2 + n reals, piv n). */
static int mech_store_mass(sys_impl *s, VI_REAL *LU, int *piv, char *err, size_t errlen,
                           int *crc) {
  const int n = s->pub.n;
  const VI_X(vi_mech_ops) *mech = s->pub.type->mech;
  *crc = s->config_mass ? mech->mass_q(s->pub.state, s->pub.q0, s->M)
                        : mech->mass(s->pub.state, s->M);
  if (*crc != 0) {
    return vi_callback_status(*crc);
  }
  memcpy(LU, s->M, (size_t)n * (size_t)n * sizeof *LU);
  if (invert(n, LU, s->Minv, LU + n * n, piv) != VI_OK) {
    vi_set_err(err, errlen, "mass matrix of system %s is singular%s", s->pub.type->info->name,
               s->config_mass ? " at q0" : "");
    return VI_EINVAL;
  }
  return VI_OK;
}

/* Allocation: the mass matrix (at q0 when it depends on q), the
 * consistency of the data, its projection in the working precision (a quad
 * run from 17-digit data must not carry a 1e-17 constraint residual at
 * t = 0), and v0 from the projected p0. */
static int mech_setup(sys_impl *s, int project_any, char *err, size_t errlen) {
  VI_X(vi_system) *sys = &s->pub;
  const int n = sys->n, m = sys->m;
  const char *name = sys->type->info->name;
  scratch w;
  if (scratch_get(&w, (size_t)n * (size_t)n + (size_t)n + 2 * (size_t)m + (size_t)m * (size_t)n,
                  (size_t)n) != VI_OK) {
    vi_set_err(err, errlen, "out of memory allocating system %s", name);
    return VI_ENOMEM;
  }
  VI_REAL *LU = w.w, *g = LU + n * n + n, *G = g + m, *gv = G + m * n;
  /* The callback that failed, for the message at callback_fail. */
  const char *what = s->config_mass ? "mass_q" : "mass";
  int crc = 0;
  int rc = mech_store_mass(s, LU, w.piv, err, errlen, &crc);
  if (crc != 0) {
    goto callback_fail;
  }
  if (rc != VI_OK) {
    goto done;
  }
  if (m > 0) {
    what = "constraint";
    crc = sys->type->holo->constraint(sys->state, sys->q0, g);
  }
  if (crc == 0 && m > 0) {
    what = "constraint_jac";
    crc = sys->type->holo->constraint_jac(sys->state, sys->q0, G);
  }
  if (crc != 0) {
    goto callback_fail;
  }
  matvec(n, n, s->M, sys->v0, sys->p0);
  rc = mech_consistency(s, g, G, gv, &what, &crc, err, errlen);
  if (crc != 0) {
    goto callback_fail;
  }
  if (rc != VI_OK && !project_any) {
    goto done;
  }
  /* Data within the tolerance (or any, with project_any) is made
   * consistent: q0 first, then p0 at the projected q0 against every
   * velocity constraint jointly (vi_system_project). */
  crc = VI_OK;
  if (m > 0) {
    what = "constraint";
    crc = project_q(s, sys->q0);
    if (crc == 0 && s->config_mass) {
      /* The private M documents M(q0) at the projected q0. */
      what = "mass_q";
      rc = mech_store_mass(s, LU, w.piv, err, errlen, &crc);
      if (crc == 0 && rc != VI_OK) {
        goto done;
      }
    }
  }
  if (crc == 0) {
    what = m > 0 ? "constraint" : "nonholonomic constraint";
    crc = mech_project_rows(s, sys->q0, sys->p0, PK_HOLO | PK_NH);
  }
  if (crc == VI_SINGULAR) {
    /* The projections solve with C M(q)^-1 C', C the stacked constraint
     * rows: singular means the rows are linearly dependent at q0. */
    vi_set_err(err, errlen,
               "the constraints of system %s are linearly dependent at q0: C M(q0)^-1 C' is "
               "singular for C = %s",
               name, m > 0 && sys->m_nh > 0 ? "[G(q0); A(q0)]" : m > 0 ? "G(q0)" : "A(q0)");
    rc = VI_EINCONSISTENT;
    goto done;
  }
  if (crc == VI_NEWTON_NOCONV) {
    vi_set_err(err, errlen,
               "the initial configuration of system %s could not be projected onto g(q) = 0 "
               "(Newton did not converge in 50 steps)",
               name);
    rc = VI_EINCONSISTENT;
    goto done;
  }
  if (crc != 0) {
    goto callback_fail;
  }
  /* The velocity that goes with the (projected) p0. */
  what = s->config_mass ? "mass_q" : "mass";
  crc = mech_minv_apply(s, sys->q0, sys->p0, sys->v0);
  if (crc != 0) {
    goto callback_fail;
  }
  rc = VI_OK;
  goto done;
callback_fail:
  vi_set_err(err, errlen, "callback %s of system %s failed with status %d while allocating",
             what, name, crc);
  rc = vi_callback_status(crc);
done:
  scratch_put(&w);
  return rc;
}

/* ---- derived quantities ---------------------------------------------------------------- */

static int mech_energy(const sys_impl *s, const VI_REAL *q, const VI_REAL *p, VI_REAL *E) {
  const int n = s->pub.n;
  VI_REAL V = 0;
  int rc = s->pub.type->mech->potential(s->pub.state, q, &V);
  if (rc != 0) {
    return vi_callback_status(rc);
  }
  scratch w;
  const VI_REAL *Minv = NULL;
  rc = scratch_get(&w, minv_work(s), (size_t)n);
  if (rc == VI_OK) {
    rc = minv_at(s, q, w.w, w.piv, &Minv);
  }
  if (rc == VI_OK) {
    /* 1/2 p'M^-1 p without a temporary vector. */
    VI_REAL T = 0;
    for (int i = 0; i < n; i++) {
      VI_REAL t = 0;
      for (int j = 0; j < n; j++) {
        t += Minv[i * n + j] * p[j];
      }
      T += p[i] * t;
    }
    *E = T / 2 + V;
  }
  scratch_put(&w);
  return rc;
}

static int mech_hidden(const sys_impl *s, const VI_REAL *q, const VI_REAL *p, VI_REAL *gv) {
  const int n = s->pub.n, m = s->pub.m;
  scratch w;
  int rc = scratch_get(&w, (size_t)m * (size_t)n + (size_t)n + minv_work(s), (size_t)n);
  if (rc != VI_OK) {
    return rc;
  }
  VI_REAL *G = w.w, *v = G + m * n, *mw = v + n;
  const VI_REAL *Minv = NULL;
  rc = vi_callback_status(s->pub.type->holo->constraint_jac(s->pub.state, q, G));
  if (rc == VI_OK) {
    rc = minv_at(s, q, mw, w.piv, &Minv);
  }
  if (rc == VI_OK) {
    matvec(n, n, Minv, p, v);
    matvec(m, n, G, v, gv);
  }
  scratch_put(&w);
  return rc;
}

static int mech_nh_residual(const sys_impl *s, const VI_REAL *q, const VI_REAL *p, VI_REAL *r) {
  const int n = s->pub.n, k = s->pub.m_nh;
  scratch w;
  int rc = scratch_get(&w, (size_t)k * (size_t)n + (size_t)n + minv_work(s), (size_t)n);
  if (rc != VI_OK) {
    return rc;
  }
  VI_REAL *A = w.w, *v = A + (size_t)k * n, *mw = v + n;
  const VI_REAL *Minv = NULL;
  rc = minv_at(s, q, mw, w.piv, &Minv);
  if (rc == VI_OK) {
    matvec(n, n, Minv, p, v);
    rc = VI_X(vi_nh_phi)(s, q, v, r, A);
  }
  scratch_put(&w);
  return rc;
}

static int mech_kinetic(const sys_impl *s, const VI_REAL *q, const VI_REAL *v, VI_REAL *dTdq,
                        VI_REAL *DqMv, VI_REAL *Tqq) {
  const size_t n = (size_t)s->pub.n;
  if (s->config_mass) {
    return vi_callback_status(
        s->pub.type->mech->kinetic(s->pub.state, q, v, dTdq, DqMv, Tqq));
  }
  memset(dTdq, 0, n * sizeof *dTdq);
  if (DqMv != NULL) {
    memset(DqMv, 0, n * n * sizeof *DqMv);
  }
  if (Tqq != NULL) {
    memset(Tqq, 0, n * n * sizeof *Tqq);
  }
  return VI_OK;
}

static int mech_lagr(const sys_impl *s, const VI_REAL *q, const VI_REAL *v, VI_REAL *mLq,
                     VI_REAL *Lv, VI_REAL *mLqq, VI_REAL *Mq, VI_REAL *Dq, VI_REAL *work) {
  const VI_X(vi_mech_ops) *mech = s->pub.type->mech;
  const void *st = s->pub.state;
  const int n = s->pub.n;
  int rc = vi_callback_status(mech->grad_potential(st, q, mLq));
  if (rc == VI_OK && mLqq != NULL) {
    rc = vi_callback_status(mech->hess_potential(st, q, mLqq));
  }
  if (rc != VI_OK) {
    return rc;
  }
  const VI_REAL *M = s->M;
  if (s->config_mass) {
    VI_REAL *Tqq = work, *dT = work + n * n;
    rc = vi_callback_status(mech->mass_q(st, q, Mq));
    if (rc == VI_OK) {
      rc = vi_callback_status(mech->kinetic(st, q, v, dT, mLqq != NULL ? Dq : NULL,
                                            mLqq != NULL ? Tqq : NULL));
    }
    if (rc != VI_OK) {
      return rc;
    }
    M = Mq;
    for (int a = 0; a < n; a++) {
      mLq[a] -= dT[a];
    }
    if (mLqq != NULL) {
      for (int a = 0; a < n * n; a++) {
        mLqq[a] -= Tqq[a];
      }
    }
  }
  matvec(n, n, M, v, Lv);
  return VI_OK;
}

/* Scratch reals force_at needs. */
static size_t force_work(const sys_impl *s) {
  return (size_t)VI_FORCE_WORK((size_t)s->pub.n, s->config_mass);
}

/* The applied and inertial force f = -grad V + dT/dq - D_q(Mv) v of
 * M(q) qdd = f - G' lambda (from d/dt L_v - L_q = -G' lambda with
 * L_v = M(q) v; systems/NOTES-triple-pendulum.md); f = -grad V for a
 * constant mass matrix. work: force_work reals. */
static int force_at(const sys_impl *s, const VI_REAL *q, const VI_REAL *v, VI_REAL *f,
                    VI_REAL *work) {
  const int n = s->pub.n;
  int rc = vi_callback_status(s->pub.type->mech->grad_potential(s->pub.state, q, f));
  if (rc != VI_OK) {
    return rc;
  }
  for (int i = 0; i < n; i++) {
    f[i] = -f[i];
  }
  if (!s->config_mass) {
    return VI_OK;
  }
  VI_REAL *dT = work, *D = dT + n;
  rc = vi_callback_status(s->pub.type->mech->kinetic(s->pub.state, q, v, dT, D, NULL));
  if (rc != VI_OK) {
    return rc;
  }
  for (int i = 0; i < n; i++) {
    VI_REAL t = dT[i];
    for (int j = 0; j < n; j++) {
      t -= D[i * n + j] * v[j];
    }
    f[i] += t;
  }
  return VI_OK;
}

/* Differentiating g(q) = 0 twice along M qdd = f - G' lambda:
 *   G v = 0,  G qdd + [v' Hess g_k v]_k = 0,
 *   G M^-1 (f - G' lambda) + [v' Hess g_k v]_k = 0,
 * hence (G M^-1 G') lambda = [v' Hess g_k v]_k + G M^-1 f, which is
 * wenger2017 (70) for H = 1/2 p'M^-1 p + V(q) (H_pp = M^-1, H_pq = 0,
 * f = -grad V), and its generalisation to M(q) (NOTES-triple-pendulum.md). */
static int mech_accel(const sys_impl *s, const VI_REAL *q, const VI_REAL *p,
                      const VI_REAL *lambda, VI_REAL *v, VI_REAL *a) {
  const int n = s->pub.n, m = s->pub.m, k = s->pub.m_nh;
  scratch w;
  /* G, then A in the same rows (each used before the next is read), and
   * the force. */
  const int rows = m > k ? m : k;
  int rc = scratch_get(&w, (size_t)rows * (size_t)n + (size_t)n + minv_work(s) + force_work(s),
                       (size_t)n);
  if (rc != VI_OK) {
    return rc;
  }
  VI_REAL *G = w.w, *force = G + (size_t)rows * n, *mw = force + n, *fw = mw + minv_work(s);
  const VI_REAL *Minv = NULL;
  rc = minv_at(s, q, mw, w.piv, &Minv);
  if (rc == VI_OK) {
    matvec(n, n, Minv, p, v);
    rc = force_at(s, q, v, force, fw);
  }
  if (rc == VI_OK && m > 0) {
    rc = vi_callback_status(s->pub.type->holo->constraint_jac(s->pub.state, q, G));
  }
  if (rc == VI_OK) {
    for (int i = 0; i < n; i++) {
      for (int r = 0; r < m; r++) {
        force[i] -= G[r * n + i] * lambda[r];
      }
    }
  }
  if (rc == VI_OK && k > 0) {
    rc = VI_X(vi_nh_rows)(s, q, G, NULL);
    for (int i = 0; rc == VI_OK && i < n; i++) {
      for (int r = 0; r < k; r++) {
        force[i] -= G[r * n + i] * lambda[m + r];
      }
    }
  }
  if (rc == VI_OK) {
    matvec(n, n, Minv, force, a);
  }
  scratch_put(&w);
  return rc;
}

/* D_q(G(q)v) (m x n) into J: the type's dGv, or m contracted Hessians with
 * unit mu, J[k][j] = (Hess g_k v)_j (work: n^2 + m reals). */
static int dgv_into(const sys_impl *s, const VI_REAL *q, const VI_REAL *v, VI_REAL *J,
                    VI_REAL *work) {
  const VI_X(vi_holo_ops) *holo = s->pub.type->holo;
  const int n = s->pub.n, m = s->pub.m;
  if (holo->dGv != NULL) {
    return vi_callback_status(holo->dGv(s->pub.state, q, v, J));
  }
  if (holo->constraint_hess == NULL) {
    return VI_EUNSUPPORTED;
  }
  VI_REAL *H = work, *mu = H + n * n;
  for (int k = 0; k < m; k++) {
    for (int l = 0; l < m; l++) {
      mu[l] = l == k ? 1 : 0;
    }
    int rc = vi_callback_status(holo->constraint_hess(s->pub.state, q, mu, H));
    if (rc != VI_OK) {
      return rc;
    }
    for (int c = 0; c < n; c++) {
      VI_REAL acc = 0;
      for (int a = 0; a < n; a++) {
        acc += H[c * n + a] * v[a];
      }
      J[k * n + c] = acc;
    }
  }
  return VI_OK;
}

static int mech_dGv(const sys_impl *s, const VI_REAL *q, const VI_REAL *v, VI_REAL *J) {
  const size_t n = (size_t)s->pub.n;
  scratch w;
  int rc = scratch_get(&w, s->pub.type->holo->dGv != NULL ? 0 : n * n + (size_t)s->pub.m, 0);
  if (rc == VI_OK) {
    rc = dgv_into(s, q, v, J, w.w);
  }
  scratch_put(&w);
  return rc;
}

/* The multipliers of the index-1 form (vi_system_lambda). Differentiating
 * Phi = A(q) v + a(q) = 0 along M vdot = f - A' mu gives A M^-1 (f - A' mu)
 * + D_q Phi(q, v) v = 0, as g(q) = 0 twice gives the holonomic rows
 * (mech_accel). The rows C = [G; A] stacked (ml x n), B = C M^-1 and
 * S = C M^-1 C':
 *   S (lambda; mu) = B f + (v' Hess g_j v; D_q Phi(q, v) v)
 * (wenger2017 (70) for the holonomic rows, demartin2018 (4) for the
 * nonholonomic ones), each row summed as for one kind alone; v' Hess g_j v
 * = v . D_q(G(q)v)_j. */
static int mech_lambda(const sys_impl *s, const VI_REAL *q, const VI_REAL *p, VI_REAL *lambda) {
  const VI_X(vi_system_type) *ty = s->pub.type;
  const int n = s->pub.n, m = s->pub.m, k = s->pub.m_nh, ml = m + k;
  if (m > 0 && ty->holo->constraint_hess == NULL && ty->holo->dGv == NULL) {
    return VI_EUNSUPPORTED;
  }
  scratch w;
  int rc = scratch_get(&w, (size_t)VI_MECH_LAMBDA_WORK((size_t)n, (size_t)m, (size_t)k, 0) +
                               minv_work(s) + force_work(s),
                       (size_t)(ml + n));
  if (rc != VI_OK) {
    return rc;
  }
  VI_REAL *C = w.w, *B = C + (size_t)ml * n, *S = B + (size_t)ml * n, *D = S + ml * ml;
  VI_REAL *Jg = D + (size_t)k * n, *v = Jg + (size_t)m * n, *f = v + n, *gw = f + n;
  VI_REAL *mw = gw + n * n + m, *fw = mw + minv_work(s);
  const VI_REAL *Minv = NULL;
  if (m > 0) {
    rc = vi_callback_status(ty->holo->constraint_jac(s->pub.state, q, C));
  }
  if (rc == VI_OK && k > 0) {
    rc = VI_X(vi_nh_rows)(s, q, C + (size_t)m * n, NULL);
  }
  if (rc == VI_OK) {
    rc = minv_at(s, q, mw, w.piv, &Minv);
  }
  if (rc == VI_OK) {
    matvec(n, n, Minv, p, v);
    rc = force_at(s, q, v, f, fw);
  }
  if (rc == VI_OK && k > 0) {
    rc = vi_callback_status(ty->nh->dphi_dq(s->pub.state, q, v, D));
  }
  if (rc == VI_OK) {
    rc = schur_rows(n, ml, Minv, C, B, S, w.piv);
  }
  if (rc == VI_OK && m > 0) {
    rc = dgv_into(s, q, v, Jg, gw);
  }
  if (rc != VI_OK) {
    scratch_put(&w);
    return rc;
  }
  matvec(m, n, B, f, lambda);
  for (int j = 0; j < m; j++) {
    VI_REAL t = 0;
    for (int i = 0; i < n; i++) {
      t += v[i] * Jg[j * n + i];
    }
    lambda[j] += t;
  }
  for (int i = 0; i < k; i++) {
    VI_REAL t = 0;
    for (int j = 0; j < n; j++) {
      t += B[(m + i) * n + j] * f[j] + D[i * n + j] * v[j];
    }
    lambda[m + i] = t;
  }
  VI_X(vi_lu_solve)(ml, S, w.piv, lambda);
  scratch_put(&w);
  return VI_OK;
}

/* ---- derivative pairs of vi_mech_ops and vi_holo_ops ------------------------------------
 * f returns the callback's raw status (the checker reports it). */

static int pot_f(const sys_impl *s, const fd_point *pt, const VI_REAL *q, const VI_REAL *x,
                 VI_REAL *out, VI_REAL *tmp) {
  return s->pub.type->mech->potential(s->pub.state, q, out);
}
static int pot_df(const sys_impl *s, const fd_point *pt, VI_REAL *J, int *have, VI_REAL *tmp) {
  const VI_X(vi_mech_ops) *mech = s->pub.type->mech;
  *have = mech->grad_potential != NULL;
  return *have ? mech->grad_potential(s->pub.state, pt->q, J) : 0;
}
static int gradpot_f(const sys_impl *s, const fd_point *pt, const VI_REAL *q, const VI_REAL *x,
                     VI_REAL *out, VI_REAL *tmp) {
  return s->pub.type->mech->grad_potential(s->pub.state, q, out);
}
static int gradpot_df(const sys_impl *s, const fd_point *pt, VI_REAL *J, int *have,
                      VI_REAL *tmp) {
  const VI_X(vi_mech_ops) *mech = s->pub.type->mech;
  *have = mech->hess_potential != NULL;
  return *have ? mech->hess_potential(s->pub.state, pt->q, J) : 0;
}

/* A discrete gradient of V (vi_mech_ops.dgrad_potential) in its second
 * point q1, the first held at q0 = q - v/10 (the point's velocity), whose
 * Jacobian the type returns as J1. */
static int dgrad_applies(const sys_impl *s) {
  return s->pub.type->mech->dgrad_potential != NULL;
}
static void dgrad_q0(const sys_impl *s, const fd_point *pt, VI_REAL *q0) {
  for (int i = 0; i < s->pub.n; i++) {
    q0[i] = pt->q[i] - pt->v[i] / 10;
  }
}
static int dgrad_f(const sys_impl *s, const fd_point *pt, const VI_REAL *q, const VI_REAL *x,
                   VI_REAL *out, VI_REAL *tmp) {
  dgrad_q0(s, pt, tmp);
  return s->pub.type->mech->dgrad_potential(s->pub.state, tmp, q, out, NULL);
}
static int dgrad_df(const sys_impl *s, const fd_point *pt, VI_REAL *J, int *have,
                    VI_REAL *tmp) {
  const int n = s->pub.n;
  *have = 1;
  dgrad_q0(s, pt, tmp);
  return s->pub.type->mech->dgrad_potential(s->pub.state, tmp, pt->q, tmp + n, J);
}

static const vi_fd_pair mech_pairs[] = {
    {"grad_potential", FD_CONFIG, FD_ROWS_1, NULL, pot_f, pot_df},
    {"hess_potential", FD_CONFIG, FD_ROWS_N, NULL, gradpot_f, gradpot_df},
    {"dgrad_potential J1", FD_CONFIG, FD_ROWS_N, dgrad_applies, dgrad_f, dgrad_df},
    {NULL, 0, 0, NULL, NULL, NULL}};

static int holo_applies(const sys_impl *s) {
  return s->pub.m > 0;
}
static int g_f(const sys_impl *s, const fd_point *pt, const VI_REAL *q, const VI_REAL *x,
               VI_REAL *out, VI_REAL *tmp) {
  return s->pub.type->holo->constraint(s->pub.state, q, out);
}
static int g_df(const sys_impl *s, const fd_point *pt, VI_REAL *J, int *have, VI_REAL *tmp) {
  const VI_X(vi_holo_ops) *holo = s->pub.type->holo;
  *have = holo->constraint_jac != NULL && holo->constraint != NULL;
  return *have ? holo->constraint_jac(s->pub.state, pt->q, J) : 0;
}
/* G(q)' mu, whose Jacobian is sum_k mu_k Hess g_k. */
static int gtmu_f(const sys_impl *s, const fd_point *pt, const VI_REAL *q, const VI_REAL *x,
                  VI_REAL *out, VI_REAL *tmp) {
  const int n = s->pub.n, m = s->pub.m;
  int rc = s->pub.type->holo->constraint_jac(s->pub.state, q, tmp);
  for (int j = 0; rc == 0 && j < n; j++) {
    VI_REAL t = 0;
    for (int k = 0; k < m; k++) {
      t += tmp[k * n + j] * pt->mu[k];
    }
    out[j] = t;
  }
  return rc;
}
static int gtmu_df(const sys_impl *s, const fd_point *pt, VI_REAL *J, int *have, VI_REAL *tmp) {
  const VI_X(vi_holo_ops) *holo = s->pub.type->holo;
  *have = holo->constraint_hess != NULL && holo->constraint_jac != NULL;
  return *have ? holo->constraint_hess(s->pub.state, pt->q, pt->mu, J) : 0;
}
/* G(q) v at the point's v, whose Jacobian is D_q(G(q)v): checked when the
 * type supplies dGv (the fallback is the contracted Hessian, checked
 * above). */
static int dgv_applies(const sys_impl *s) {
  return s->pub.m > 0 && s->pub.type->holo->dGv != NULL;
}
static int gv_f(const sys_impl *s, const fd_point *pt, const VI_REAL *q, const VI_REAL *x,
                VI_REAL *out, VI_REAL *tmp) {
  int rc = s->pub.type->holo->constraint_jac(s->pub.state, q, tmp);
  if (rc == 0) {
    matvec(s->pub.m, s->pub.n, tmp, pt->v, out);
  }
  return rc;
}
static int gv_df(const sys_impl *s, const fd_point *pt, VI_REAL *J, int *have, VI_REAL *tmp) {
  *have = 1;
  return s->pub.type->holo->dGv(s->pub.state, pt->q, pt->v, J);
}

static const vi_fd_pair holo_pairs[] = {
    {"constraint_jac", FD_CONFIG, FD_ROWS_M, holo_applies, g_f, g_df},
    {"constraint_hess", FD_CONFIG, FD_ROWS_N, holo_applies, gtmu_f, gtmu_df},
    {"constraint dGv", FD_CONFIG, FD_ROWS_M, dgv_applies, gv_f, gv_df},
    {NULL, 0, 0, NULL, NULL, NULL}};

/* The kinetic derivatives of a configuration-dependent M, v = the point's
 * velocity held fixed: dT/dq against T = 1/2 v'M(q)v, D_q(Mv) against
 * M(q)v, d^2T/dq^2 against dT/dq. */
static int kin_applies(const sys_impl *s) {
  return s->config_mass;
}
static int kin_have(const sys_impl *s) {
  const VI_X(vi_mech_ops) *mech = s->pub.type->mech;
  return mech->kinetic != NULL && mech->mass_q != NULL;
}
static int T_f(const sys_impl *s, const fd_point *pt, const VI_REAL *q, const VI_REAL *x,
               VI_REAL *out, VI_REAL *tmp) {
  const int n = s->pub.n;
  int rc = s->pub.type->mech->mass_q(s->pub.state, q, tmp);
  if (rc != 0) {
    return rc;
  }
  VI_REAL *Mv = tmp + n * n, T = 0;
  matvec(n, n, tmp, pt->v, Mv);
  for (int j = 0; j < n; j++) {
    T += pt->v[j] * Mv[j];
  }
  out[0] = T / 2;
  return 0;
}
static int T_df(const sys_impl *s, const fd_point *pt, VI_REAL *J, int *have, VI_REAL *tmp) {
  *have = kin_have(s);
  return *have ? s->pub.type->mech->kinetic(s->pub.state, pt->q, pt->v, J, NULL, NULL) : 0;
}
static int Mv_f(const sys_impl *s, const fd_point *pt, const VI_REAL *q, const VI_REAL *x,
                VI_REAL *out, VI_REAL *tmp) {
  int rc = s->pub.type->mech->mass_q(s->pub.state, q, tmp);
  if (rc == 0) {
    matvec(s->pub.n, s->pub.n, tmp, pt->v, out);
  }
  return rc;
}
static int Mv_df(const sys_impl *s, const fd_point *pt, VI_REAL *J, int *have, VI_REAL *tmp) {
  *have = kin_have(s);
  return *have ? s->pub.type->mech->kinetic(s->pub.state, pt->q, pt->v, tmp, J, NULL) : 0;
}
static int dT_f(const sys_impl *s, const fd_point *pt, const VI_REAL *q, const VI_REAL *x,
                VI_REAL *out, VI_REAL *tmp) {
  return s->pub.type->mech->kinetic(s->pub.state, q, pt->v, out, NULL, NULL);
}
static int dT_df(const sys_impl *s, const fd_point *pt, VI_REAL *J, int *have, VI_REAL *tmp) {
  *have = kin_have(s);
  return *have ? s->pub.type->mech->kinetic(s->pub.state, pt->q, pt->v, tmp, NULL, J) : 0;
}

static const vi_fd_pair kinetic_pairs[] = {
    {"kinetic dT/dq", FD_CONFIG, FD_ROWS_1, kin_applies, T_f, T_df},
    {"kinetic D_q(Mv)", FD_CONFIG, FD_ROWS_N, kin_applies, Mv_f, Mv_df},
    {"kinetic d2T/dq2", FD_CONFIG, FD_ROWS_N, kin_applies, dT_f, dT_df},
    {NULL, 0, 0, NULL, NULL, NULL}};

/* The rigid-body table (vi_top_ops) against the system's own M, V and g,
 * at a rotation R = cay(a) R0 (a from the probe's velocity, R0 the initial
 * attitude) and J from the probe's velocity: the node of (R, J) reads back
 * as (R, J), lies on g = 0 and G M^-1 p = 0, its kinetic energy 1/2 p'M^-1 p
 * is 1/2 J'(R diag(I) R')^-1 J, and V(q) - V(q_R0) = e3.(R - R0) mgc. */
static int mech_top_check(fd_run *r, const fd_point *pt, int probe) {
  const sys_impl *s = r->s;
  const VI_X(vi_system) *sys = &s->pub;
  const int n = sys->n, m = sys->m;
  VI_REAL I[3], mgc[3], R0[9], J0[3], R[9], J[3], R1[9], J1[3], C[9], a[3];
  VI_REAL *q = r->tmp, *p = q + n, *q0 = p + n, *p0 = q0 + n, *g = r->J;
  char line[320];
  int rc = VI_X(vi_system_top_data)(sys, I, mgc);
  if (rc == VI_OK) {
    rc = VI_X(vi_system_top_attitude)(sys, sys->q0, sys->p0, R0, J0);
  }
  VI_REAL js = vi_fabs(J0[0]) + vi_fabs(J0[1]) + vi_fabs(J0[2]);
  js = js > 0 ? js : 1;
  for (int i = 0; i < 3; i++) {
    a[i] = pt->v[i % n] / (1 + vi_fabs(pt->v[i % n])); /* |a_i| < 1 */
    J[i] = js * (pt->v[(i + 3) % n] / (1 + vi_fabs(pt->v[(i + 3) % n])) + (VI_REAL)(i + 1) / 4);
  }
  VI_X(vi_cayley3)(a, C);
  VI_X(vi_matmul3)(C, R0, R);
  if (rc == VI_OK) {
    rc = VI_X(vi_system_top_node)(sys, R, J, q, p);
  }
  if (rc == VI_OK) {
    rc = VI_X(vi_system_top_node)(sys, R0, J, q0, p0);
  }
  if (rc == VI_OK) {
    rc = VI_X(vi_system_top_attitude)(sys, q, p, R1, J1);
  }
  VI_REAL E = 0, V = 0, V0 = 0;
  if (rc == VI_OK) {
    rc = VI_X(vi_system_energy)(sys, q, p, &E);
  }
  if (rc == VI_OK) {
    rc = vi_callback_status(s->pub.type->mech->potential(sys->state, q, &V));
  }
  if (rc == VI_OK) {
    rc = vi_callback_status(s->pub.type->mech->potential(sys->state, q0, &V0));
  }
  VI_REAL dRJ = 0, res = 0;
  for (int i = 0; i < 9; i++) {
    dRJ = vi_fabs(R1[i] - R[i]) > dRJ ? vi_fabs(R1[i] - R[i]) : dRJ;
  }
  for (int i = 0; i < 3; i++) {
    const VI_REAL d = vi_fabs(J1[i] - J[i]) / js;
    dRJ = d > dRJ || d != d ? d : dRJ;
  }
  if (rc == VI_OK && m > 0) {
    rc = vi_callback_status(sys->type->holo->constraint(sys->state, q, g));
    for (int k = 0; rc == VI_OK && k < m; k++) {
      res = vi_fabs(g[k]) > res || g[k] != g[k] ? vi_fabs(g[k]) : res;
    }
    if (rc == VI_OK) {
      rc = VI_X(vi_system_hidden)(sys, q, p, g);
    }
    VI_REAL ps = VI_X(vi_norm_inf)(n, p);
    ps = ps > 1 ? ps : 1;
    for (int k = 0; rc == VI_OK && k < m; k++) {
      res = vi_fabs(g[k]) / ps > res || g[k] != g[k] ? vi_fabs(g[k]) / ps : res;
    }
  }
  if (rc != VI_OK) {
    snprintf(line, sizeof line, "%s top table at probe %d: a callback failed with status %d",
             r->name, probe, rc);
    VI_X(vi_fd_line)(r, line);
    return VI_ECALLBACK;
  }
  /* 1/2 J'(R diag(I) R')^-1 J = 1/2 sum_i (R'J)_i^2 / I_i */
  VI_REAL T = 0, dV = 0;
  for (int i = 0; i < 3; i++) {
    const VI_REAL b = R[i] * J[0] + R[3 + i] * J[1] + R[6 + i] * J[2];
    T += b * b / I[i] / 2;
    dV += (R[6 + i] - R0[6 + i]) * mgc[i];
  }
  const VI_REAL eT = vi_fabs(E - V - T) / (vi_fabs(T) + 1e-300);
  const VI_REAL eV = vi_fabs((V - V0) - dV) / (vi_fabs(mgc[0]) + vi_fabs(mgc[1]) + vi_fabs(mgc[2]) + 1e-300);
  const VI_REAL lim = 1000 * VI_EPS;
  const int ok = dRJ <= lim && res <= lim && eT <= lim && eV <= lim;
  r->failures += !ok;
  snprintf(line, sizeof line,
           "%s top table at probe %d: (R, J) read back %.1e, |g|, |G M^-1 p| %.1e, kinetic "
           "%.1e, potential %.1e (rel, tol %.1e) %s",
           r->name, probe, (double)dRJ, (double)res, (double)eT, (double)eV, (double)lim,
           ok ? "ok" : "FAIL");
  VI_X(vi_fd_line)(r, line);
  return VI_OK;
}

/* What a mechanical type declares beyond its derivatives, at each probe:
 * a discrete gradient of V is one (directionality dV.(q1 - q0) = V(q1) -
 * V(q0) with q0 = q - v/10, and dV(q, q) = grad V(q): betsch-ggl (86)),
 * and a potential or constraints declared of degree <= 2
 * (vi_system_info.quadratic) have the Hessians they had at q0. */
static int mech_declared_check(fd_run *r, const fd_point *pt, int probe, const char *where) {
  (void)where;
  const sys_impl *s = r->s;
  const VI_X(vi_system_type) *t = s->pub.type;
  const int n = s->pub.n;
  const unsigned qd = t->info->quadratic;
  char line[320];
  VI_REAL *A = r->J, *B = r->D, *tmp = r->tmp;
  int rc = 0;
  if (t->top && (rc = mech_top_check(r, pt, probe)) != VI_OK) {
    return rc;
  }
  if (t->mech->dgrad_potential) {
    VI_REAL *q0 = tmp, *gq = tmp + n, V0 = 0, V1 = 0, dir = 0, sc = 0, dev = 0;
    for (int i = 0; i < n; i++) {
      q0[i] = pt->q[i] - pt->v[i] / 10;
    }
    rc = t->mech->dgrad_potential(s->pub.state, q0, pt->q, A, NULL);
    if (rc == 0) {
      rc = t->mech->potential(s->pub.state, q0, &V0);
    }
    if (rc == 0) {
      rc = t->mech->potential(s->pub.state, pt->q, &V1);
    }
    for (int i = 0; rc == 0 && i < n; i++) {
      dir += A[i] * (pt->q[i] - q0[i]);
      sc += vi_fabs(A[i] * (pt->q[i] - q0[i]));
    }
    if (rc == 0) {
      rc = t->mech->dgrad_potential(s->pub.state, pt->q, pt->q, A, NULL);
    }
    if (rc == 0) {
      rc = t->mech->grad_potential(s->pub.state, pt->q, gq);
    }
    VI_REAL gs = 1;
    for (int i = 0; rc == 0 && i < n; i++) {
      VI_REAL d = vi_fabs(A[i] - gq[i]);
      dev = d > dev || d != d ? d : dev;
      gs = vi_fabs(gq[i]) > gs ? vi_fabs(gq[i]) : gs;
    }
    if (rc != 0) {
      snprintf(line, sizeof line, "%s dgrad_potential at probe %d: callback failed with status %d",
               r->name, probe, rc);
      VI_X(vi_fd_line)(r, line);
      return VI_ECALLBACK;
    }
    const VI_REAL ed = vi_fabs(dir - (V1 - V0)), lim_d = 100 * VI_EPS * (sc + vi_fabs(V1) + vi_fabs(V0) + 1);
    const VI_REAL lim_g = 100 * VI_EPS * gs;
    const int ok = ed <= lim_d && dev <= lim_g;
    r->failures += !ok;
    snprintf(line, sizeof line,
             "%s dgrad_potential at probe %d: |dV.(q1 - q0) - (V(q1) - V(q0))| %.1e (tol %.1e), "
             "|dV(q, q) - grad V(q)| %.1e (tol %.1e) %s",
             r->name, probe, (double)ed, (double)lim_d, (double)dev, (double)lim_g,
             ok ? "ok" : "FAIL");
    VI_X(vi_fd_line)(r, line);
  }
  for (int w = 0; w < 2; w++) {
    const unsigned bit = w == 0 ? VI_QUADRATIC_V : VI_QUADRATIC_G;
    if (!(qd & bit) || (w == 1 && s->pub.m == 0)) {
      continue;
    }
    /* The Hessian (of V, or sum_k mu_k Hess g_k at the point's mu) at the
     * probe against q0's. */
    if (w == 0) {
      rc = t->mech->hess_potential(s->pub.state, s->pub.q0, A);
      if (rc == 0) {
        rc = t->mech->hess_potential(s->pub.state, pt->q, B);
      }
    } else {
      rc = t->holo->constraint_hess(s->pub.state, s->pub.q0, pt->mu, A);
      if (rc == 0) {
        rc = t->holo->constraint_hess(s->pub.state, pt->q, pt->mu, B);
      }
    }
    VI_REAL dev = 0, sc = 1;
    for (int i = 0; rc == 0 && i < n * n; i++) {
      VI_REAL d = vi_fabs(A[i] - B[i]);
      dev = d > dev || d != d ? d : dev;
      sc = vi_fabs(A[i]) > sc ? vi_fabs(A[i]) : sc;
    }
    if (rc != 0) {
      snprintf(line, sizeof line, "%s %s at probe %d: callback failed with status %d", r->name,
               w == 0 ? "hess_potential" : "constraint_hess", probe, rc);
      VI_X(vi_fd_line)(r, line);
      return VI_ECALLBACK;
    }
    const VI_REAL lim = 100 * VI_EPS * sc;
    const int ok = dev <= lim;
    r->failures += !ok;
    snprintf(line, sizeof line,
             "%s %s of degree <= 2 (declared) at probe %d: its Hessian moved from q0's by %.1e "
             "(tol %.1e) %s",
             r->name, w == 0 ? "V" : "g", probe, (double)dev, (double)lim, ok ? "ok" : "FAIL");
    VI_X(vi_fd_line)(r, line);
  }
  return VI_OK;
}

/* In the order of the report: the form, the constraints, then M(q). */
static const vi_fd_pair *const mech_check_tables[] = {mech_pairs, holo_pairs,
                                                      VI_X(vi_nh_pairs), kinetic_pairs, NULL};

const vi_form_impl VI_X(vi_form_mech) = {
    .name = "mechanical",
    .has_velocity = 1,
    .setup = mech_setup,
    .project = mech_project,
    .energy = mech_energy,
    .lambda = mech_lambda,
    .nh_residual = mech_nh_residual,
    .hidden = mech_hidden,
    .project_rows = mech_project_rows,
    .mass_at = mech_mass_at,
    .minv_at = mech_minv_at,
    .minv_apply = mech_minv_apply,
    .kinetic = mech_kinetic,
    .lagr = mech_lagr,
    .accel = mech_accel,
    .dGv = mech_dGv,
    .check = VI_X(vi_check_coords),
    .pairs = mech_check_tables,
    .probe_post = mech_declared_check,
};
