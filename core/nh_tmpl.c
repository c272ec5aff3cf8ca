/* nh_tmpl.c: the nonholonomic rows of a system, Phi(q, w) = A(q) w + a(q)
 * = 0 (demartin2018 (1)-(2); vi_nh_ops in api_tmpl.h): the rows A and
 * offsets a, the residual A w + a for a given velocity (the mechanical v =
 * M^-1 p, or the Lie form's xi: each form computes its own w), and the
 * derivative pairs of the table, D_q Phi(q, w) against Phi at fixed w and
 * D_q(A(q)' mu) against A' mu at fixed mu. The pairs are taken along the
 * configuration's directions: the coordinates of q in R^n, the
 * left-trivialised g cay(eps e_b) on a Lie group (api_tmpl.h, vi_nh_ops),
 * as the checker's driver of each form does. Used by the mechanical and
 * the Lie form; depends on system_impl.h only. Compiled once per
 * precision. */
#include "system_impl.h"

int VI_X(vi_nh_rows)(const sys_impl *s, const VI_REAL *q, VI_REAL *A, VI_REAL *a) {
  const VI_X(vi_nh_ops) *nh = s->pub.type->nh;
  int rc = vi_callback_status(nh->matrix(s->pub.state, q, A));
  if (rc == VI_OK && a != NULL) {
    if (nh->affine != NULL) {
      rc = vi_callback_status(nh->affine(s->pub.state, q, a));
    } else {
      memset(a, 0, (size_t)s->pub.m_nh * sizeof *a);
    }
  }
  return rc;
}

int VI_X(vi_nh_phi)(const sys_impl *s, const VI_REAL *q, const VI_REAL *w, VI_REAL *r,
                    VI_REAL *work) {
  const int n = s->pub.n, k = s->pub.m_nh;
  int rc = VI_X(vi_nh_rows)(s, q, work, r);
  for (int i = 0; rc == VI_OK && i < k; i++) {
    VI_REAL t = r[i];
    for (int j = 0; j < n; j++) {
      t += work[i * n + j] * w[j];
    }
    r[i] = t;
  }
  return rc;
}

/* ---- derivative pairs --------------------------------------------------------- */

static int nh_applies(const sys_impl *s) {
  return s->pub.m_nh > 0;
}

/* Phi(q, w) at the point's fixed w (the rows' status mapped, as the
 * checker has always reported it for this pair). */
static int nh_phi_f(const sys_impl *s, const fd_point *pt, const VI_REAL *q, const VI_REAL *x,
                    VI_REAL *out, VI_REAL *tmp) {
  (void)x;
  return VI_X(vi_nh_phi)(s, q, pt->w, out, tmp);
}

static int nh_phi_df(const sys_impl *s, const fd_point *pt, VI_REAL *J, int *have,
                     VI_REAL *tmp) {
  (void)tmp;
  *have = 1;
  return s->pub.type->nh->dphi_dq(s->pub.state, pt->q, pt->w, J);
}

/* A(q)' mu at the point's fixed mu. */
static int nh_atmu_f(const sys_impl *s, const fd_point *pt, const VI_REAL *q, const VI_REAL *x,
                     VI_REAL *out, VI_REAL *tmp) {
  (void)x;
  const int n = s->pub.n, k = s->pub.m_nh;
  int rc = VI_X(vi_nh_rows)(s, q, tmp, NULL);
  for (int j = 0; rc == 0 && j < n; j++) {
    VI_REAL t = 0;
    for (int i = 0; i < k; i++) {
      t += tmp[i * n + j] * pt->mu[i];
    }
    out[j] = t;
  }
  return rc;
}

static int nh_atmu_df(const sys_impl *s, const fd_point *pt, VI_REAL *J, int *have,
                      VI_REAL *tmp) {
  (void)tmp;
  const VI_X(vi_nh_ops) *nh = s->pub.type->nh;
  *have = nh->datmu != NULL;
  return *have ? nh->datmu(s->pub.state, pt->q, pt->mu, J) : 0;
}

const vi_fd_pair VI_X(vi_nh_pairs)[] = {
    {"nonholonomic dphi_dq", FD_CONFIG, FD_ROWS_MNH, nh_applies, nh_phi_f, nh_phi_df},
    {"nonholonomic datmu", FD_CONFIG, FD_ROWS_N, nh_applies, nh_atmu_f, nh_atmu_df},
    {NULL, 0, 0, NULL, NULL, NULL}};
