/* test_system_services.c: the system services added with the split of the
 * system code by form (issue 21 item 2), in both precisions:
 *   - no allocation inside the kernels (lambda, hidden, project_p, energy,
 *     accel, nh_residual, dGv, the mass services, the Lie form's) for
 *     systems of the size the coming families bring, n = 12 with ml = m +
 *     m_nh = 12 multipliers (a 12-coordinate test system with M(q), and a
 *     Lie-form one on the abelian group R^12), counted by wrapping malloc,
 *     calloc and realloc at link time (-Wl,--wrap, as bench/ does);
 *   - vi_holo_ops.dGv: checked by vi_system_check when supplied (a correct
 *     and a wrong one), and used by vi_system_dGv;
 *   - the meaning of vi_nh_ops.dphi_dq for the Lie form (left trivialised,
 *     api_tmpl.h): a constraint of SE(2) depending on the position, with
 *     the derivative written in the coordinates (x, y, theta) instead, is
 *     caught by the checker, and only the left-trivialised one keeps
 *     d/dt Phi = 0 along the Euler-Poincare flow (vi_system_lie_rhs);
 *   - vi_system_project and vi_system_alloc_projected: data far off the
 *     constraints of every form is made consistent, data already
 *     consistent barely moves, and vi_system_alloc accepts the result;
 *   - vi_obs_ops.steady: every system that declares its initial data a
 *     relative equilibrium moves steadily from them (V constant along its
 *     exact solution and, in double, along an independent integration), and
 *     the heavy top declares it for I1 = I2 only, nutating otherwise
 *     (test_steady);
 *   - constructed and deliberately broken systems: failing callbacks
 *     reported by vi_system_alloc, vi_system_lambda and vi_system_check,
 *     wrong and missing derivatives caught (mechanical, degenerate,
 *     nonholonomic tables), incomplete tables refused, dependent rows
 *     named, and a system of 24 coordinates past the kernels' stack
 *     scratch.
 * The precision-generic part is this file included twice with
 * VI_TEST_TMPL (as test_systems.c). */
#ifndef VI_TEST_TMPL

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "vistudy.h"

/* Allocations made by the library, through the link-time wrappers; the
 * test's only global state (the linker gives no other way in). */
static long g_allocs;
void *__real_malloc(size_t n);
void *__real_calloc(size_t k, size_t n);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t k, size_t n);
void *__wrap_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n) {
  g_allocs++;
  return __real_malloc(n);
}
void *__wrap_calloc(size_t k, size_t n) {
  g_allocs++;
  return __real_calloc(k, n);
}
void *__wrap_realloc(void *p, size_t n) {
  g_allocs++;
  return __real_realloc(p, n);
}

/* The test systems' sizes and constants (below; BIGN: past the kernels'
 * stack scratch; ST_K: the nodes of test_steady's references). */
enum { BN = 12, BIGN = 24, ST_K = 120 };
#define B12_S VI_C(0.3)
#define B12_T VI_C(0.25)
#define B12_AF VI_C(0.2)
#define LD_C VI_C(0.37)

static int contains(const char *s, const char *sub) {
  return s != NULL && sub != NULL && strstr(s, sub) != NULL;
}

#define VI_TEST_TMPL
#include "prec.h"
#include "test_system_services.c"
#include "prec_undef.h"

#define VI_PREC_Q
#include "prec.h"
#include "test_system_services.c"
#include "prec_undef.h"
#undef VI_PREC_Q
#undef VI_TEST_TMPL

int main(void) {
  vi_check_ctx ctx = {0, 0};
  vi_check_ctx *c = &ctx;
  test_alloc_counter_d(c);
  test_scratch_d(c);
  test_scratch_q(c);
  test_dgv_callback_d(c);
  test_dgv_callback_q(c);
  test_lie_dphi_d(c);
  test_lie_dphi_q(c);
  test_project_d(c);
  test_project_q(c);
  test_broken_d(c);
  test_broken_q(c);
  test_declared_d(c);
  test_declared_q(c);
  test_degen_toy_d(c);
  test_degen_toy_q(c);
  test_domain_edge_d(c);
  test_domain_edge_q(c);
  test_setup_text_d(c);
  test_setup_text_q(c);
  test_nh_wrong_d(c);
  test_nh_wrong_q(c);
  test_big_d(c);
  test_big_q(c);
  test_steady_d(c);
  test_steady_q(c);
  return vi_check_done(c, "system_services");
}

#else /* VI_TEST_TMPL: compiled once per precision */

/* ---- a mechanical test system: n = 12, M(q), m + k rows --------------------
 * M = diag(1 + cm_i q_i^2) plus a constant 0.1 on the first off-diagonals
 * (symmetric positive definite), V = sum (1 + i/5) q_i^2 / 2; holonomic
 * g_r = q_r + S q_r'^2 / 2 - c_r (r < m, r' = r + 1 mod 12, c_r making q0
 * consistent), nonholonomic Phi_j = v_c + T q_c' v_c' + AF q_c (c = m + j,
 * c' = c + 1 mod 12): with m + k = 12 the rows are a cyclic bidiagonal
 * matrix, regular for |S q|, |T q| < 1. */
typedef struct VI_X(b12) {
  int m, k;
  VI_REAL c[BN], q0[BN], v0[BN];
} VI_X(b12);

static VI_REAL VI_X(b12_cm)(int i) {
  return VI_C(0.1) * (1 + i / VI_C(12.0));
}

static int VI_X(b12_setup)(void *st, const VI_REAL *par, char *err, size_t errlen) {
  (void)err;
  (void)errlen;
  VI_X(b12) *s = st;
  s->m = (int)par[0];
  s->k = (int)par[1];
  for (int i = 0; i < BN; i++) {
    s->q0[i] = par[2 + i];
    s->v0[i] = par[2 + BN + i];
  }
  for (int r = 0; r < BN; r++) {
    const VI_REAL y = s->q0[(r + 1) % BN];
    s->c[r] = s->q0[r] + B12_S * y * y / 2;
  }
  return 0;
}
static int VI_X(b12_initial)(const void *st, VI_REAL *q0, VI_REAL *v0) {
  const VI_X(b12) *s = st;
  memcpy(q0, s->q0, sizeof s->q0);
  memcpy(v0, s->v0, sizeof s->v0);
  return 0;
}
static int VI_X(b12_mass_q)(const void *st, const VI_REAL *q, VI_REAL *M) {
  for (int i = 0; i < BN * BN; i++) {
    M[i] = 0;
  }
  for (int i = 0; i < BN; i++) {
    M[i * BN + i] = 1 + VI_X(b12_cm)(i) * q[i] * q[i];
    if (i + 1 < BN) {
      M[i * BN + i + 1] = M[(i + 1) * BN + i] = VI_C(0.1);
    }
  }
  return 0;
}
static int VI_X(b12_kinetic)(const void *st, const VI_REAL *q, const VI_REAL *v, VI_REAL *dT,
                             VI_REAL *DqMv, VI_REAL *Tqq) {
  for (int i = 0; i < BN * BN; i++) {
    if (DqMv) {
      DqMv[i] = 0;
    }
    if (Tqq) {
      Tqq[i] = 0;
    }
  }
  for (int i = 0; i < BN; i++) {
    const VI_REAL a = VI_X(b12_cm)(i);
    dT[i] = a * q[i] * v[i] * v[i];
    if (DqMv) {
      DqMv[i * BN + i] = 2 * a * q[i] * v[i];
    }
    if (Tqq) {
      Tqq[i * BN + i] = a * v[i] * v[i];
    }
  }
  return 0;
}
static int VI_X(b12_V)(const void *st, const VI_REAL *q, VI_REAL *V) {
  VI_REAL t = 0;
  for (int i = 0; i < BN; i++) {
    t += (1 + i / VI_C(5.0)) * q[i] * q[i] / 2;
  }
  *V = t;
  return 0;
}
static int VI_X(b12_dV)(const void *st, const VI_REAL *q, VI_REAL *dV) {
  for (int i = 0; i < BN; i++) {
    dV[i] = (1 + i / VI_C(5.0)) * q[i];
  }
  return 0;
}
static int VI_X(b12_HV)(const void *st, const VI_REAL *q, VI_REAL *H) {
  for (int i = 0; i < BN * BN; i++) {
    H[i] = i % (BN + 1) == 0 ? 1 + (i / BN) / VI_C(5.0) : 0;
  }
  return 0;
}
static int VI_X(b12_g)(const void *st, const VI_REAL *q, VI_REAL *g) {
  const VI_X(b12) *s = st;
  for (int r = 0; r < s->m; r++) {
    const VI_REAL y = q[(r + 1) % BN];
    g[r] = q[r] + B12_S * y * y / 2 - s->c[r];
  }
  return 0;
}
static int VI_X(b12_G)(const void *st, const VI_REAL *q, VI_REAL *G) {
  const VI_X(b12) *s = st;
  for (int r = 0; r < s->m; r++) {
    for (int j = 0; j < BN; j++) {
      G[r * BN + j] = 0;
    }
    G[r * BN + r] = 1;
    G[r * BN + (r + 1) % BN] = B12_S * q[(r + 1) % BN];
  }
  return 0;
}
static int VI_X(b12_Hg)(const void *st, const VI_REAL *q, const VI_REAL *mu, VI_REAL *H) {
  const VI_X(b12) *s = st;
  for (int i = 0; i < BN * BN; i++) {
    H[i] = 0;
  }
  for (int r = 0; r < s->m; r++) {
    const int y = (r + 1) % BN;
    H[y * BN + y] += mu[r] * B12_S;
  }
  return 0;
}
/* D_q(G(q)v): row r holds S v_r' at r'. */
static int VI_X(b12_dGv)(const void *st, const VI_REAL *q, const VI_REAL *v, VI_REAL *J) {
  const VI_X(b12) *s = st;
  for (int r = 0; r < s->m; r++) {
    for (int j = 0; j < BN; j++) {
      J[r * BN + j] = 0;
    }
    J[r * BN + (r + 1) % BN] = B12_S * v[(r + 1) % BN];
  }
  return 0;
}
/* A wrong one (the factor 2 of a Hessian of 1/2 S y^2 taken as S y^2). */
static int VI_X(b12_dGv_wrong)(const void *st, const VI_REAL *q, const VI_REAL *v, VI_REAL *J) {
  int rc = VI_X(b12_dGv)(st, q, v, J);
  for (int i = 0; i < ((const VI_X(b12) *)st)->m * BN; i++) {
    J[i] *= 2;
  }
  return rc;
}
static int VI_X(b12_A)(const void *st, const VI_REAL *q, VI_REAL *A) {
  const VI_X(b12) *s = st;
  for (int j = 0; j < s->k; j++) {
    const int cc = s->m + j, c1 = (cc + 1) % BN;
    for (int i = 0; i < BN; i++) {
      A[j * BN + i] = 0;
    }
    A[j * BN + cc] = 1;
    A[j * BN + c1] = B12_T * q[c1];
  }
  return 0;
}
static int VI_X(b12_a)(const void *st, const VI_REAL *q, VI_REAL *a) {
  const VI_X(b12) *s = st;
  for (int j = 0; j < s->k; j++) {
    a[j] = B12_AF * q[s->m + j];
  }
  return 0;
}
static int VI_X(b12_dphi)(const void *st, const VI_REAL *q, const VI_REAL *w, VI_REAL *D) {
  const VI_X(b12) *s = st;
  for (int j = 0; j < s->k; j++) {
    const int cc = s->m + j, c1 = (cc + 1) % BN;
    for (int i = 0; i < BN; i++) {
      D[j * BN + i] = 0;
    }
    D[j * BN + c1] = B12_T * w[c1];
    D[j * BN + cc] += B12_AF;
  }
  return 0;
}
static int VI_X(b12_datmu)(const void *st, const VI_REAL *q, const VI_REAL *mu, VI_REAL *D) {
  const VI_X(b12) *s = st;
  for (int i = 0; i < BN * BN; i++) {
    D[i] = 0;
  }
  for (int j = 0; j < s->k; j++) {
    const int c1 = (s->m + j + 1) % BN;
    D[c1 * BN + c1] += B12_T * mu[j];
  }
  return 0;
}

static const vi_param VI_X(b12_params)[] = {
    {"rows", 2, "6,6", "holonomic and nonholonomic rows", VI_PARAM_NONNEG},
    {"q0", BN, "0.3,-0.2,0.5,0.1,-0.4,0.25,0.6,-0.1,0.35,0.05,-0.3,0.2", "", VI_PARAM_ANY},
    {"v0", BN, "0.7,0.1,-0.3,0.45,0.2,-0.6,0.15,0.3,-0.25,0.5,0.05,-0.35", "", VI_PARAM_ANY},
    {NULL, 0, NULL, NULL, VI_PARAM_ANY}};

static const VI_X(vi_mech_ops) VI_X(b12_mech) = {.mass_q = VI_X(b12_mass_q),
                                                 .kinetic = VI_X(b12_kinetic),
                                                 .potential = VI_X(b12_V),
                                                 .grad_potential = VI_X(b12_dV),
                                                 .hess_potential = VI_X(b12_HV)};
static const VI_X(vi_nh_ops) VI_X(b12_nh) = {.matrix = VI_X(b12_A),
                                             .affine = VI_X(b12_a),
                                             .dphi_dq = VI_X(b12_dphi),
                                             .datmu = VI_X(b12_datmu)};

/* The type with m holonomic and k nonholonomic rows (info, holo and the
 * type are the caller's storage). */
static void VI_X(b12_type)(int m, int k, vi_system_info *info, VI_X(vi_holo_ops) *holo,
                           VI_X(vi_system_type) *t) {
  *info = (vi_system_info){.name = "test-12", .summary = "", .cite = "", .n = BN, .m = m,
                           .m_nh = k, .params = VI_X(b12_params)};
  *holo = (VI_X(vi_holo_ops)){.constraint = VI_X(b12_g),
                              .constraint_jac = VI_X(b12_G),
                              .constraint_hess = VI_X(b12_Hg)};
  *t = (VI_X(vi_system_type)){.info = info,
                              .state_size = sizeof(VI_X(b12)),
                              .setup = VI_X(b12_setup),
                              .initial = VI_X(b12_initial),
                              .mech = &VI_X(b12_mech),
                              .holo = m > 0 ? holo : NULL,
                              .nh = k > 0 ? &VI_X(b12_nh) : NULL};
}

static VI_X(vi_system) *VI_X(b12_alloc)(vi_check_ctx *c, const VI_X(vi_system_type) *t) {
  char rows[64], err[512] = "";
  snprintf(rows, sizeof rows, "rows=%d,%d", t->info->m, t->info->m_nh);
  const char *set[] = {rows};
  VI_X(vi_system) *sys = NULL;
  int rc = VI_X(vi_system_alloc_projected)(t, 1, set, &sys, err, sizeof err);
  VI_CHECK(c, rc == VI_OK, "test-12 m=%d k=%d (%s): alloc %d %s", t->info->m, t->info->m_nh,
           VI_PREC_NAME, rc, err);
  return sys;
}

/* ---- a Lie-form test system on the abelian group R^12 ----------------------
 * l = 1/2 sum I_i xi_i^2 - 1/2 sum K_i g_i^2, Phi_j = xi_j + T g_j' xi_j'
 * (j < k). On R^n the left-trivialised derivatives are the coordinate
 * ones. */
static int VI_X(r12_compose)(const void *st, const VI_REAL *g, const VI_REAL *h, VI_REAL *gh) {
  for (int i = 0; i < BN; i++) {
    gh[i] = g[i] + h[i];
  }
  return 0;
}
static int VI_X(r12_inverse)(const void *st, const VI_REAL *g, VI_REAL *gi) {
  for (int i = 0; i < BN; i++) {
    gi[i] = -g[i];
  }
  return 0;
}
static int VI_X(r12_cay)(const void *st, const VI_REAL *xi, VI_REAL *g) {
  memcpy(g, xi, BN * sizeof *g);
  return 0;
}
static int VI_X(r12_local)(const void *st, const VI_REAL *g, const VI_REAL *h, VI_REAL *xi) {
  for (int i = 0; i < BN; i++) {
    xi[i] = h[i] - g[i];
  }
  return 0;
}
static int VI_X(r12_eye)(const void *st, const VI_REAL *xi, VI_REAL *D) {
  for (int i = 0; i < BN * BN; i++) {
    D[i] = i % (BN + 1) == 0;
  }
  return 0;
}
static int VI_X(r12_zero)(const void *st, const VI_REAL *xi, VI_REAL *D) {
  for (int i = 0; i < BN * BN; i++) {
    D[i] = 0;
  }
  return 0;
}
static int VI_X(r12_tangent)(const void *st, const VI_REAL *g, const VI_REAL *xi,
                             VI_REAL *gd) {
  memcpy(gd, xi, BN * sizeof *gd);
  return 0;
}
static int VI_X(r12_l)(const void *st, const VI_REAL *g, const VI_REAL *xi, VI_REAL *l) {
  VI_REAL t = 0;
  for (int i = 0; i < BN; i++) {
    t += ((1 + i / VI_C(4.0)) * xi[i] * xi[i] - (1 + i / VI_C(6.0)) * g[i] * g[i]) / 2;
  }
  *l = t;
  return 0;
}
static int VI_X(r12_dxi)(const void *st, const VI_REAL *g, const VI_REAL *xi, VI_REAL *mu) {
  for (int i = 0; i < BN; i++) {
    mu[i] = (1 + i / VI_C(4.0)) * xi[i];
  }
  return 0;
}
static int VI_X(r12_force)(const void *st, const VI_REAL *g, const VI_REAL *xi, VI_REAL *F) {
  for (int i = 0; i < BN; i++) {
    F[i] = -(1 + i / VI_C(6.0)) * g[i];
  }
  return 0;
}
static int VI_X(r12_dxi2)(const void *st, const VI_REAL *g, const VI_REAL *xi, VI_REAL *H) {
  for (int i = 0; i < BN * BN; i++) {
    H[i] = i % (BN + 1) == 0 ? 1 + (i / BN) / VI_C(4.0) : 0;
  }
  return 0;
}
static int VI_X(r12_zero2)(const void *st, const VI_REAL *g, const VI_REAL *xi, VI_REAL *D) {
  return VI_X(r12_zero)(st, xi, D);
}
static int VI_X(r12_dfdg)(const void *st, const VI_REAL *g, const VI_REAL *xi, VI_REAL *D) {
  for (int i = 0; i < BN * BN; i++) {
    D[i] = i % (BN + 1) == 0 ? -(1 + (i / BN) / VI_C(6.0)) : 0;
  }
  return 0;
}
static int VI_X(r12_initial)(const void *st, VI_REAL *q0, VI_REAL *v0) {
  for (int i = 0; i < BN; i++) {
    q0[i] = VI_C(0.1) * (i % 5) - VI_C(0.15);
    v0[i] = VI_C(0.3) - VI_C(0.07) * i;
  }
  return 0;
}
/* The rows read k from the state (b12's layout: m = 0). */
static const VI_X(vi_space_ops) VI_X(r12_space) = {
    .compose = VI_X(r12_compose), .inverse = VI_X(r12_inverse), .cay = VI_X(r12_cay),
    .local = VI_X(r12_local),     .dcay = VI_X(r12_eye),        .dcayinv = VI_X(r12_eye),
    .ad = VI_X(r12_zero),         .Ad = VI_X(r12_eye),          .tangent = VI_X(r12_tangent)};
static const VI_X(vi_lie_ops) VI_X(r12_lie) = {
    .lagrangian = VI_X(r12_l),  .dxi = VI_X(r12_dxi),        .force = VI_X(r12_force),
    .dxi2 = VI_X(r12_dxi2),     .dxi_dg = VI_X(r12_zero2),   .dforce_dg = VI_X(r12_dfdg),
    .dforce_dxi = VI_X(r12_zero2)};
static const VI_X(vi_nh_ops) VI_X(r12_nh) = {
    .matrix = VI_X(b12_A), .dphi_dq = VI_X(b12_dphi), .datmu = VI_X(b12_datmu)};
static int VI_X(r12_dphi)(const void *st, const VI_REAL *q, const VI_REAL *w, VI_REAL *D) {
  /* b12_dphi without the affine term (r12 has none). */
  int rc = VI_X(b12_dphi)(st, q, w, D);
  const VI_X(b12) *s = st;
  for (int j = 0; j < s->k; j++) {
    D[j * BN + s->m + j] -= B12_AF;
  }
  return rc;
}

static VI_X(vi_system) *VI_X(r12_alloc)(vi_check_ctx *c, int k, vi_system_info *info,
                                        VI_X(vi_nh_ops) *nh, VI_X(vi_system_type) *t) {
  *info = (vi_system_info){.name = "test-lie-12", .summary = "", .cite = "", .n = BN,
                           .m_nh = k, .params = VI_X(b12_params)};
  *nh = VI_X(r12_nh);
  nh->dphi_dq = VI_X(r12_dphi);
  *t = (VI_X(vi_system_type)){.info = info,
                              .state_size = sizeof(VI_X(b12)),
                              .setup = VI_X(b12_setup),
                              .initial = VI_X(r12_initial),
                              .lie = &VI_X(r12_lie),
                              .space = &VI_X(r12_space),
                              .nh = nh};
  char rows[64], err[512] = "";
  snprintf(rows, sizeof rows, "rows=0,%d", k);
  const char *set[] = {rows};
  VI_X(vi_system) *sys = NULL;
  int rc = VI_X(vi_system_alloc_projected)(t, 1, set, &sys, err, sizeof err);
  VI_CHECK(c, rc == VI_OK, "test-lie-12 k=%d (%s): alloc %d %s", k, VI_PREC_NAME, rc, err);
  return sys;
}

/* vi_system_check passes on a test system (its callbacks are right, so
 * what the kernels compute is worth counting). */
static void VI_X(check_clean)(vi_check_ctx *c, const VI_X(vi_system) *sys, const char *what) {
  vi_report_ctx r = {0, 0, 1};
  int nf = VI_X(vi_system_check)(sys, 2, vi_report_line, &r);
  VI_CHECK(c, nf == 0 && r.failed_lines == 0 && r.lines > 0,
           "%s (%s): vi_system_check %d failures in %d lines", what, VI_PREC_NAME, nf, r.lines);
}

/* The mechanical kernels at a generic (q, p): no allocation, finite. */
static void VI_X(count_mech)(vi_check_ctx *c, const VI_X(vi_system) *sys, const char *what) {
  VI_REAL q[BN], p[BN], v[BN], a[BN], lam[BN], r[BN], E = 0, J[BN * BN], W[BN * BN + BN];
  VI_REAL mLq[BN], Lv[BN], mLqq[BN * BN], Mq[BN * BN], Dq[BN * BN];
  const VI_REAL *P = NULL;
  for (int i = 0; i < BN; i++) {
    q[i] = sys->q0[i] + VI_C(0.01) * (i % 3);
    p[i] = sys->p0[i] + VI_C(0.2) - VI_C(0.03) * i;
  }
  const long before = g_allocs;
  int rc = VI_X(vi_system_lambda)(sys, q, p, lam);
  rc = rc ? rc : VI_X(vi_system_accel)(sys, q, p, lam, v, a);
  rc = rc ? rc : VI_X(vi_system_energy)(sys, q, p, &E);
  rc = rc ? rc : VI_X(vi_system_hidden)(sys, q, p, r);
  rc = rc ? rc : VI_X(vi_system_nh_residual)(sys, q, p, r);
  rc = rc ? rc : VI_X(vi_system_dGv)(sys, q, v, J);
  rc = rc ? rc : VI_X(vi_system_minv_apply)(sys, q, p, v);
  rc = rc ? rc : VI_X(vi_system_minv_at)(sys, q, J, &P);
  rc = rc ? rc : VI_X(vi_system_mass_at)(sys, q, J, &P);
  rc = rc ? rc : VI_X(vi_system_mass_inv)(sys, q, J);
  rc = rc ? rc : VI_X(vi_system_kinetic)(sys, q, v, r, J, Dq);
  rc = rc ? rc : VI_X(vi_system_lagr)(sys, q, v, mLq, Lv, mLqq, Mq, Dq, W);
  rc = rc ? rc : VI_X(vi_system_project_p)(sys, q, p);
  rc = rc ? rc : VI_X(vi_system_project_nh)(sys, q, p);
  const long n_alloc = g_allocs - before;
  VI_CHECK(c, rc == VI_OK && vi_isfinite(E) && vi_isfinite(lam[0]),
           "%s (%s): kernels gave %d", what, VI_PREC_NAME, rc);
  VI_CHECK(c, n_alloc == 0, "%s (%s): %ld allocations inside the kernels", what, VI_PREC_NAME,
           n_alloc);
}

static void VI_X(test_scratch)(vi_check_ctx *c) {
  static const int rows[][2] = {{12, 0}, {0, 12}, {6, 6}, {11, 1}};
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    vi_system_info info;
    VI_X(vi_holo_ops) holo;
    VI_X(vi_system_type) t;
    VI_X(b12_type)(rows[i][0], rows[i][1], &info, &holo, &t);
    VI_X(vi_system) *sys = VI_X(b12_alloc)(c, &t);
    if (sys == NULL) {
      continue;
    }
    char what[64];
    snprintf(what, sizeof what, "test-12 m=%d k=%d", rows[i][0], rows[i][1]);
    VI_X(check_clean)(c, sys, what);
    VI_X(count_mech)(c, sys, what);
    VI_X(vi_system_free)(sys);
  }
  for (int k = 6; k <= 12; k += 6) {
    vi_system_info info;
    VI_X(vi_nh_ops) nh;
    VI_X(vi_system_type) t;
    VI_X(vi_system) *sys = VI_X(r12_alloc)(c, k, &info, &nh, &t);
    if (sys == NULL) {
      continue;
    }
    char what[64];
    snprintf(what, sizeof what, "test-lie-12 k=%d", k);
    VI_X(check_clean)(c, sys, what);
    VI_REAL lam[BN], r[BN], E = 0, xi[BN], gd[BN], xd[BN];
    const long before = g_allocs;
    int rc = VI_X(vi_system_lambda)(sys, sys->q0, sys->p0, lam);
    rc = rc ? rc : VI_X(vi_system_energy)(sys, sys->q0, sys->p0, &E);
    rc = rc ? rc : VI_X(vi_system_nh_residual)(sys, sys->q0, sys->p0, r);
    rc = rc ? rc : VI_X(vi_system_lie_xi)(sys, sys->q0, sys->p0, xi);
    rc = rc ? rc : VI_X(vi_system_lie_rhs)(sys, sys->q0, xi, gd, xd, lam);
    const long n_alloc = g_allocs - before;
    VI_CHECK(c, rc == VI_OK && vi_isfinite(E) && VI_X(vi_norm_inf)(k, r) <= 100 * VI_EPS,
             "%s (%s): kernels gave %d, |Phi| %.1e", what, VI_PREC_NAME, rc,
             (double)VI_X(vi_norm_inf)(k, r));
    VI_CHECK(c, n_alloc == 0, "%s (%s): %ld allocations inside the kernels", what, VI_PREC_NAME,
             n_alloc);
    VI_X(vi_system_free)(sys);
  }
}

/* ---- vi_holo_ops.dGv ------------------------------------------------------ */

static void VI_X(test_dgv_callback)(vi_check_ctx *c) {
  vi_system_info info, info0;
  VI_X(vi_holo_ops) holo, holo0;
  VI_X(vi_system_type) t, t0;
  VI_X(b12_type)(6, 6, &info0, &holo0, &t0);
  VI_X(vi_system) *plain = VI_X(b12_alloc)(c, &t0);
  VI_X(b12_type)(6, 6, &info, &holo, &t);
  holo.dGv = VI_X(b12_dGv);
  VI_X(vi_system) *sys = VI_X(b12_alloc)(c, &t);
  if (sys == NULL || plain == NULL) {
    VI_X(vi_system_free)(plain);
    VI_X(vi_system_free)(sys);
    return;
  }
  /* The callback and the fallback (6 contracted Hessians) agree; the
   * checker verifies the supplied one: a line per probe more. */
  VI_REAL v[BN], J1[BN * BN], J2[BN * BN];
  for (int i = 0; i < BN; i++) {
    v[i] = VI_C(0.4) - VI_C(0.09) * i;
  }
  int rc = VI_X(vi_system_dGv)(sys, sys->q0, v, J1);
  rc = rc ? rc : VI_X(vi_system_dGv)(plain, sys->q0, v, J2);
  VI_REAL d = 0;
  for (int i = 0; i < 6 * BN; i++) {
    d = vi_fabs(J1[i] - J2[i]) > d ? vi_fabs(J1[i] - J2[i]) : d;
  }
  VI_CHECK(c, rc == VI_OK && d <= 4 * VI_EPS, "dGv (%s): callback vs fallback %d %.1e",
           VI_PREC_NAME, rc, (double)d);
  vi_report_ctx r1 = {0, 0, 1}, r2 = {0, 0, 1};
  int nf1 = VI_X(vi_system_check)(plain, 2, vi_report_line, &r1);
  int nf2 = VI_X(vi_system_check)(sys, 2, vi_report_line, &r2);
  VI_CHECK(c, nf1 == 0 && nf2 == 0 && r2.lines == r1.lines + 3,
           "dGv (%s): check without %d failures in %d lines, with %d in %d", VI_PREC_NAME, nf1,
           r1.lines, nf2, r2.lines);
  VI_X(vi_system_free)(sys);
  /* A wrong dGv fails at each of the 3 points, and nothing else does. */
  holo.dGv = VI_X(b12_dGv_wrong);
  sys = VI_X(b12_alloc)(c, &t);
  if (sys != NULL) {
    vi_report_ctx r = {0, 0, 0};
    int nf = VI_X(vi_system_check)(sys, 2, vi_report_line, &r);
    VI_CHECK(c, nf == 3 && r.failed_lines == 3, "dGv (%s): a wrong dGv gave %d failures",
             VI_PREC_NAME, nf);
  }
  VI_X(vi_system_free)(sys);
  VI_X(vi_system_free)(plain);
}

/* ---- the Lie form's dphi_dq is left trivialised ------------------------------
 * The vertical disc's SE(2) and Lagrangian with the constraint
 * Phi = v2 + C x omega (A(g) = (0, 1, C x)), which depends on the position:
 * along g cay(eps e_b) x moves by cos theta (b = 1), -sin theta (b = 2),
 * 0 (b = 3), so the left-trivialised D_g Phi(g, w) = C w3 (cos theta,
 * -sin theta, 0) differs from the coordinate derivative C w3 (1, 0, 0). */
static int VI_X(ld_A)(const void *st, const VI_REAL *g, VI_REAL *A) {
  A[0] = 0;
  A[1] = 1;
  A[2] = LD_C * g[0];
  return 0;
}
static int VI_X(ld_dphi_left)(const void *st, const VI_REAL *g, const VI_REAL *w, VI_REAL *D) {
  D[0] = LD_C * w[2] * vi_cos(g[2]);
  D[1] = -LD_C * w[2] * vi_sin(g[2]);
  D[2] = 0;
  return 0;
}
/* The other meaning: d/d(x, y, theta). */
static int VI_X(ld_dphi_coord)(const void *st, const VI_REAL *g, const VI_REAL *w, VI_REAL *D) {
  D[0] = LD_C * w[2];
  D[1] = 0;
  D[2] = 0;
  return 0;
}
static int VI_X(ld_datmu)(const void *st, const VI_REAL *g, const VI_REAL *mu, VI_REAL *D) {
  for (int i = 0; i < 9; i++) {
    D[i] = 0;
  }
  D[6] = LD_C * mu[0] * vi_cos(g[2]);
  D[7] = -LD_C * mu[0] * vi_sin(g[2]);
  return 0;
}

/* d/dt Phi(g(t), xi(t)) at t = 0 along the flow of vi_system_lie_rhs
 * (central differences of g0 + t gdot, xi0 + t xidot: exact to O(t^2)). */
static VI_REAL VI_X(ld_dphidt)(const VI_X(vi_system) *sys, int *rc) {
  VI_REAL gd[3], xd[3], lam[1];
  const VI_REAL *g = sys->q0, *xi = sys->v0;
  *rc = VI_X(vi_system_lie_rhs)(sys, g, xi, gd, xd, lam);
  const VI_REAL dt = vi_pow(VI_EPS, 1 / VI_C(3.0));
  VI_REAL ph[2];
  for (int s = 0; s < 2; s++) {
    const VI_REAL t = s ? -dt : dt;
    ph[s] = xi[1] + t * xd[1] + LD_C * (g[0] + t * gd[0]) * (xi[2] + t * xd[2]);
  }
  return (ph[0] - ph[1]) / (2 * dt);
}

static void VI_X(test_lie_dphi)(vi_check_ctx *c) {
  char err[512] = "";
  const VI_X(vi_system_type) *vd = VI_X(vi_system_find)("vertical-disc", err, sizeof err);
  VI_CHECK(c, vd != NULL, "vertical-disc not registered: %s", err);
  if (vd == NULL) {
    return;
  }
  VI_X(vi_nh_ops) nh = {.matrix = VI_X(ld_A), .dphi_dq = VI_X(ld_dphi_left),
                        .datmu = VI_X(ld_datmu)};
  VI_X(vi_system_type) t = *vd;
  t.nh = &nh;
  t.obs = NULL; /* the exact solution is the disc's with Phi = v2 */
  for (int meaning = 0; meaning < 2; meaning++) {
    nh.dphi_dq = meaning == 0 ? VI_X(ld_dphi_left) : VI_X(ld_dphi_coord);
    VI_X(vi_system) *sys = NULL;
    int rc = VI_X(vi_system_alloc_projected)(&t, 0, NULL, &sys, err, sizeof err);
    VI_CHECK(c, rc == VI_OK, "Lie dphi_dq (%s): alloc %d %s", VI_PREC_NAME, rc, err);
    if (sys == NULL) {
      continue;
    }
    vi_report_ctx r = {0, 0, meaning == 0};
    int nf = VI_X(vi_system_check)(sys, 2, vi_report_line, &r);
    VI_REAL d = VI_X(ld_dphidt)(sys, &rc);
    const VI_REAL tol = 1000 * vi_pow(VI_EPS, 2 / VI_C(3.0));
    if (meaning == 0) {
      VI_CHECK(c, nf == 0 && rc == VI_OK && vi_fabs(d) <= tol,
               "Lie dphi_dq (%s): the left-trivialised derivative gave %d failures, d/dt Phi "
               "= %.1e along the flow",
               VI_PREC_NAME, nf, (double)d);
    } else {
      /* Caught at each of the 3 probes, and the multiplier it gives does
       * not keep the constraint. */
      VI_CHECK(c, nf == 3 && r.failed_lines == 3 && rc == VI_OK && vi_fabs(d) > 1e-3,
               "Lie dphi_dq (%s): the coordinate derivative gave %d failures, d/dt Phi = %.1e",
               VI_PREC_NAME, nf, (double)d);
    }
    VI_X(vi_system_free)(sys);
  }
}

/* ---- vi_system_project, vi_system_alloc_projected ------------------------------ */

/* Allocate with sets that violate the constraints: vi_system_alloc
 * refuses, vi_system_alloc_projected makes them consistent, and
 * vi_system_alloc accepts the result written back as q0 and v0 (17
 * digits). */
static void VI_X(project_case)(vi_check_ctx *c, const char *name, const char *qset,
                               const char *vset, const char *qname, const char *vname) {
  char err[512] = "";
  const VI_X(vi_system_type) *t = VI_X(vi_system_find)(name, err, sizeof err);
  VI_CHECK(c, t != NULL, "%s not registered: %s", name, err);
  if (t == NULL) {
    return;
  }
  const char *set[] = {qset, vset};
  VI_X(vi_system) *sys = NULL;
  int rc = VI_X(vi_system_alloc)(t, 2, set, &sys, err, sizeof err);
  VI_CHECK(c, rc == VI_EINCONSISTENT && sys == NULL, "%s (%s): off data allocated: %d", name,
           VI_PREC_NAME, rc);
  rc = VI_X(vi_system_alloc_projected)(t, 2, set, &sys, err, sizeof err);
  VI_CHECK(c, rc == VI_OK, "%s (%s): alloc_projected %d %s", name, VI_PREC_NAME, rc, err);
  if (sys == NULL) {
    return;
  }
  char sets[2][1024];
  const VI_REAL *src[2] = {sys->q0, sys->v0};
  const char *names[2] = {qname, vname};
  for (int k = 0; k < 2; k++) {
    int len = snprintf(sets[k], sizeof sets[k], "%s=", names[k]);
    for (int i = 0; i < sys->n && len < (int)sizeof sets[k]; i++) {
      len += snprintf(sets[k] + len, sizeof sets[k] - (size_t)len, "%s%.17g", i ? "," : "",
                      (double)src[k][i]);
    }
  }
  const char *set2[] = {sets[0], sets[1]};
  VI_X(vi_system) *again = NULL;
  rc = VI_X(vi_system_alloc)(t, 2, set2, &again, err, sizeof err);
  VI_CHECK(c, rc == VI_OK, "%s (%s): the projected data is refused: %s", name, VI_PREC_NAME,
           err);
  /* vi_system_project on consistent data moves it by round-off only. */
  if (again != NULL) {
    const int n = again->n;
    VI_REAL q[64], v[64], p[64], dq = 0, dv = 0;
    memcpy(q, again->q0, (size_t)again->nq * sizeof *q);
    memcpy(v, again->v0, (size_t)n * sizeof *v);
    rc = VI_X(vi_system_project)(again, q, v, p);
    for (int i = 0; i < n; i++) {
      dq = vi_fabs(q[i] - again->q0[i]) > dq ? vi_fabs(q[i] - again->q0[i]) : dq;
      dv = vi_fabs(v[i] - again->v0[i]) > dv ? vi_fabs(v[i] - again->v0[i]) : dv;
    }
    VI_CHECK(c, rc == VI_OK && dq <= 100 * VI_EPS && dv <= 100 * VI_EPS,
             "%s (%s): project of consistent data %d moved q by %.1e, v by %.1e", name,
             VI_PREC_NAME, rc, (double)dq, (double)dv);
  }
  VI_X(vi_system_free)(again);
  VI_X(vi_system_free)(sys);
}

static void VI_X(test_project)(vi_check_ctx *c) {
  /* The planar pendulum's q0 is computed from phi0; the six-ball chain
   * and the triple pendulum (M(q)) take q0 and v0 directly. */
  VI_X(project_case)(c, "double-pendulum-3d", "q0=0.8,0.1,-0.5,0.5,0.9,-1.2",
                     "v0=0.3,-0.2,0.4,1,0.5,-0.3", "q0", "v0");
  VI_X(project_case)(c, "triple-pendulum", "q0=0.1,-0.2,0.9,2.6", "v0=0.3,0.1,-0.2,0.4", "q0",
                     "v0");
  VI_X(project_case)(c, "knife-edge-incline", "q0=0.5,-0.2,0.25,0.4", "v0=1.2,0.7,0.4,2", "q0",
                     "v0");
  VI_X(project_case)(c, "vertical-disc", "q0=1,0.5,0.3", "eta0=0.2,0.3,0.7", "q0", "eta0");
  /* A group element off its group (the turntable's R0 sheared by 1e-3),
   * projected by space->project. */
  char err[512] = "";
  const VI_X(vi_system_type) *t = VI_X(vi_system_find)("turntable", err, sizeof err);
  const char *set[] = {"R0=1,1e-3,0,0,1,0,0,0,1"};
  VI_X(vi_system) *sys = NULL;
  int rc = t ? VI_X(vi_system_alloc_projected)(t, 1, set, &sys, err, sizeof err) : VI_EINVAL;
  VI_REAL e = 1;
  if (rc == VI_OK) {
    const VI_REAL *R = sys->q0;
    e = 0;
    for (int i = 0; i < 3; i++) {
      for (int j = 0; j < 3; j++) {
        VI_REAL s = -(VI_REAL)(i == j);
        for (int k = 0; k < 3; k++) {
          s += R[k * 3 + i] * R[k * 3 + j];
        }
        e = vi_fabs(s) > e ? vi_fabs(s) : e;
      }
    }
  }
  VI_CHECK(c, rc == VI_OK && e <= 100 * VI_EPS, "turntable (%s): projected %d, |R'R - I| %.1e",
           VI_PREC_NAME, rc, (double)e);
  VI_X(vi_system_free)(sys);
  /* The degenerate form has nothing to project: p = alpha(q). */
  t = VI_X(vi_system_find)("kepler", err, sizeof err);
  sys = NULL;
  rc = t ? VI_X(vi_system_alloc)(t, 0, NULL, &sys, err, sizeof err) : VI_EINVAL;
  if (rc == VI_OK) {
    VI_REAL q[16], v[16] = {0}, p[16];
    memcpy(q, sys->q0, (size_t)sys->n * sizeof *q);
    rc = VI_X(vi_system_project)(sys, q, v, p);
    VI_CHECK(c, rc == VI_OK && memcmp(p, sys->p0, (size_t)sys->n * sizeof *p) == 0,
             "kepler (%s): project %d", VI_PREC_NAME, rc);
  }
  VI_X(vi_system_free)(sys);
}

/* ---- constructed and deliberately broken systems ----------------------------- */

/* A toy degenerate system for the failure paths: alpha = (q1 q2, sin q1),
 * H = q1^2 + q2^2 / 2, initial q0 = (0.7, 1.3); alpha fails (fatal) for
 * q1 > 5. Sum_b w^b Hess alpha_b = w1 [[0, 1], [1, 0]] + w2 [[-sin q1, 0],
 * [0, 0]]; the wrong variant flips the sign of the second term. */
static int VI_X(toy_init)(const void *st, VI_REAL *q0, VI_REAL *v0) {
  (void)st;
  (void)v0;
  q0[0] = VI_C(0.7);
  q0[1] = VI_C(1.3);
  return 0;
}
static int VI_X(toy_alpha)(const void *st, const VI_REAL *q, VI_REAL *a) {
  (void)st;
  a[0] = q[0] * q[1];
  a[1] = vi_sin(q[0]);
  return q[0] > 5 ? -4 : 0;
}
static int VI_X(toy_dalpha)(const void *st, const VI_REAL *q, VI_REAL *D) {
  (void)st;
  D[0] = q[1];
  D[1] = q[0];
  D[2] = vi_cos(q[0]);
  D[3] = 0;
  return 0;
}
static int VI_X(toy_d2alpha_sign)(const VI_REAL *q, const VI_REAL *w, VI_REAL *S,
                                  VI_REAL sign) {
  S[0] = -sign * w[1] * vi_sin(q[0]);
  S[1] = w[0];
  S[2] = w[0];
  S[3] = 0;
  return 0;
}
static int VI_X(toy_d2alpha)(const void *st, const VI_REAL *q, const VI_REAL *w, VI_REAL *S) {
  (void)st;
  return VI_X(toy_d2alpha_sign)(q, w, S, 1);
}
static int VI_X(toy_d2alpha_wrong)(const void *st, const VI_REAL *q, const VI_REAL *w,
                                   VI_REAL *S) {
  (void)st;
  return VI_X(toy_d2alpha_sign)(q, w, S, -1);
}
static int VI_X(toy_H)(const void *st, const VI_REAL *q, VI_REAL *H) {
  (void)st;
  *H = q[0] * q[0] + q[1] * q[1] / 2;
  return 0;
}
static int VI_X(toy_dH)(const void *st, const VI_REAL *q, VI_REAL *dH) {
  (void)st;
  dH[0] = 2 * q[0];
  dH[1] = q[1];
  return 0;
}
static int VI_X(toy_HH)(const void *st, const VI_REAL *q, VI_REAL *HH) {
  (void)st;
  (void)q;
  HH[0] = 2;
  HH[1] = HH[2] = 0;
  HH[3] = 1;
  return 0;
}

/* A D_q(A'mu) that forgets its only entry: the nonholonomic particle's is
 * -mu at (x, y), so this stub is wrong at every probe. */
static int VI_X(np_datmu_zero)(const void *st, const VI_REAL *q, const VI_REAL *mu,
                               VI_REAL *D) {
  (void)st;
  (void)q;
  (void)mu;
  for (int i = 0; i < 9; i++) {
    D[i] = 0;
  }
  return 0;
}

/* The nonholonomic table's derivatives are checked: a wrong datmu on a
 * copy of nonholonomic-particle fails at each of the 3 points. */
static void VI_X(test_nh_wrong)(vi_check_ctx *c) {
  char err[512] = "";
  const VI_X(vi_system_type) *t = VI_X(vi_system_find)("nonholonomic-particle", err, sizeof err);
  VI_CHECK(c, t != NULL && t->nh != NULL, "nonholonomic-particle not registered: %s", err);
  if (t == NULL || t->nh == NULL) {
    return;
  }
  VI_X(vi_nh_ops) nh = *t->nh;
  VI_X(vi_system_type) wt = *t;
  nh.datmu = VI_X(np_datmu_zero);
  wt.nh = &nh;
  VI_X(vi_system) *sys = NULL;
  int rc = VI_X(vi_system_alloc)(&wt, 0, NULL, &sys, err, sizeof err);
  if (sys != NULL) {
    vi_report_ctx r = {0, 0, 0};
    int nf = VI_X(vi_system_check)(sys, 2, vi_report_line, &r);
    VI_CHECK(c, nf == 3 && r.failed_lines == 3, "nh (%s): a wrong datmu gave %d failures",
             VI_PREC_NAME, nf);
    VI_X(vi_system_free)(sys);
  }
  VI_CHECK(c, rc == VI_OK, "nh (%s): alloc %d %s", VI_PREC_NAME, rc, err);
}

/* Lotka-Volterra's grad H at its defaults (a1 = a2 = 1, b1 = -1, b2 = -2)
 * with the coefficient of 1/v off by 1e-3: wrong at every point. */
static int VI_X(lv_dH_wrong)(const void *st, const VI_REAL *q, VI_REAL *dH) {
  (void)st;
  if (!(q[0] > 0) || !(q[1] > 0)) {
    return 1;
  }
  dH[0] = 1 - 1 / q[0];
  dH[1] = 1 - VI_C(2.002) / q[1];
  return 0;
}

/* The checker next to the edge of a domain (issue 22): at Lotka-Volterra's
 * q0 = (1e-10, 1e-10) the default step of the differences leaves u, v > 0
 * in double and is too long for log u in quad; the step is shortened, so
 * every derivative there is checked and passes (none "not checked", none
 * failed), while a wrong grad H there still fails (the shortened
 * differences settle away from it). Far below rounding distance (1e-300)
 * no step fits: "not checked", not a failure. */
static void VI_X(test_domain_edge)(vi_check_ctx *c) {
  char err[512] = "";
  const VI_X(vi_system_type) *t = VI_X(vi_system_find)("lotka-volterra", err, sizeof err);
  VI_CHECK(c, t != NULL && t->degen != NULL, "lotka-volterra not registered: %s", err);
  if (t == NULL || t->degen == NULL) {
    return;
  }
  const char *edge[] = {"q0=1e-10,1e-10"};
  VI_X(vi_system) *sys = NULL;
  int rc = VI_X(vi_system_alloc)(t, 1, edge, &sys, err, sizeof err);
  VI_CHECK(c, rc == VI_OK, "edge (%s): alloc %d %s", VI_PREC_NAME, rc, err);
  if (sys != NULL) {
    vi_report_ctx r = {0, 0, 1};
    int nf = VI_X(vi_system_check)(sys, 0, vi_report_line, &r);
    VI_CHECK(c, nf == 0 && r.failed_lines == 0 && r.lines == 4,
             "edge (%s): correct derivatives at 1e-10 gave %d failures, %d of %d lines not ok",
             VI_PREC_NAME, nf, r.failed_lines, r.lines);
    VI_X(vi_system_free)(sys);
  }
  VI_X(vi_degen_ops) ops = *t->degen;
  VI_X(vi_system_type) wt = *t;
  ops.grad_hamiltonian = VI_X(lv_dH_wrong);
  wt.degen = &ops;
  sys = NULL;
  rc = VI_X(vi_system_alloc)(&wt, 1, edge, &sys, err, sizeof err);
  if (sys != NULL) {
    vi_report_ctx r = {0, 0, 1};
    int nf = VI_X(vi_system_check)(sys, 0, vi_report_line, &r);
    /* grad H itself, and Hess H against differences of the wrong grad H. */
    VI_CHECK(c, nf == 2 && r.failed_lines == 2,
             "edge (%s): a wrong grad H at 1e-10 gave %d failures, %d lines not ok",
             VI_PREC_NAME, nf, r.failed_lines);
    VI_X(vi_system_free)(sys);
  }
  const char *far[] = {"q0=1e-300,1e-300"};
  sys = NULL;
  rc = t->degen != NULL ? VI_X(vi_system_alloc)(t, 1, far, &sys, err, sizeof err) : VI_EINVAL;
  if (sys != NULL && VI_X(vi_system_check)(sys, 0, NULL, NULL) >= 0) {
    vi_report_ctx r = {0, 0, 1};
    int nf = VI_X(vi_system_check)(sys, 0, vi_report_line, &r);
    /* quad: every pair "not checked" (4 lines) and the summary line; in
     * double the point itself is beyond the range (1/u^2 overflows). */
    VI_CHECK(c, nf == 0 && r.lines == 5,
             "edge (%s): 1e-300 gave %d failures and %d lines (want 0 and 5)", VI_PREC_NAME,
             nf, r.lines);
  }
  VI_X(vi_system_free)(sys);
}

/* A setup's refusal reaches the caller with its text (issue 22): the
 * system, the datum and the rule; a refusal without a text still names the
 * system. */
static int VI_X(mute_setup)(void *st, const VI_REAL *par, char *err, size_t errlen) {
  (void)st;
  (void)par;
  (void)err;
  (void)errlen;
  return -1;
}

static void VI_X(test_setup_text)(vi_check_ctx *c) {
  char err[512] = "";
  const VI_X(vi_system_type) *t = VI_X(vi_system_find)("point-vortices", err, sizeof err);
  VI_CHECK(c, t != NULL, "point-vortices not registered: %s", err);
  if (t == NULL) {
    return;
  }
  const char *g1[] = {"G1=0"};
  VI_X(vi_system) *sys = NULL;
  int rc = VI_X(vi_system_alloc)(t, 1, g1, &sys, err, sizeof err);
  VI_CHECK(c, rc == VI_EINVAL && sys == NULL &&
                  contains(err, "point-vortices: G1 must be nonzero, got 0: the equations "
                                "divide by it"),
           "setup (%s): G1 = 0 gave %d '%s'", VI_PREC_NAME, rc, err);
  VI_X(vi_system_free)(sys);
  const char *meet[] = {"q0=0.25,1.5,0.25,1.5"};
  sys = NULL;
  rc = VI_X(vi_system_alloc)(t, 1, meet, &sys, err, sizeof err);
  VI_CHECK(c, rc == VI_EINVAL && contains(err, "q0: vortices 1 and 2 coincide at (0.25, 1.5)"),
           "setup (%s): coincident vortices gave %d '%s'", VI_PREC_NAME, rc, err);
  VI_X(vi_system_free)(sys);
  VI_X(vi_system_type) mt = *t;
  mt.setup = VI_X(mute_setup);
  sys = NULL;
  rc = VI_X(vi_system_alloc)(&mt, 0, NULL, &sys, err, sizeof err);
  VI_CHECK(c, rc == VI_EINVAL && contains(err, "point-vortices rejected its parameters"),
           "setup (%s): a refusal without a text gave %d '%s'", VI_PREC_NAME, rc, err);
  VI_X(vi_system_free)(sys);
}

static void VI_X(test_degen_toy)(vi_check_ctx *c) {
  static const vi_param params[] = {{NULL, 0, NULL, NULL, VI_PARAM_ANY}};
  static const vi_system_info info = {
      .name = "toy-degenerate", .summary = "", .cite = "", .n = 2, .m = 0, .params = params};
  VI_X(vi_degen_ops) ops = {VI_X(toy_alpha), VI_X(toy_dalpha), VI_X(toy_d2alpha),
                            VI_X(toy_H),     VI_X(toy_dH),     VI_X(toy_HH)};
  VI_X(vi_system_type) t = {.info = &info, .initial = VI_X(toy_init), .degen = &ops};
  char err[512] = "";
  VI_X(vi_system) *sys = NULL;
  int rc = VI_X(vi_system_alloc)(&t, 0, NULL, &sys, err, sizeof err);
  VI_CHECK(c, rc == VI_OK, "toy (%s): alloc %d %s", VI_PREC_NAME, rc, err);
  vi_report_ctx r = {0, 0, 0};
  if (sys != NULL) {
    int nf = VI_X(vi_system_check)(sys, 2, vi_report_line, &r);
    VI_CHECK(c, nf == 0 && r.lines == 3 * 4, "toy (%s): correct derivatives gave %d failures",
             VI_PREC_NAME, nf);
    VI_X(vi_system_free)(sys);
  }
  /* The check can fail: a wrong d2alpha at each of the 3 points. */
  ops.d2alpha = VI_X(toy_d2alpha_wrong);
  sys = NULL;
  rc = VI_X(vi_system_alloc)(&t, 0, NULL, &sys, err, sizeof err);
  if (sys != NULL) {
    vi_report_ctx r2 = {0, 0, 0};
    int nf = VI_X(vi_system_check)(sys, 2, vi_report_line, &r2);
    VI_CHECK(c, nf == 3 && r2.failed_lines == 3, "toy (%s): a wrong d2alpha gave %d failures",
             VI_PREC_NAME, nf);
    VI_X(vi_system_free)(sys);
  }
  /* Incomplete tables and a failing alpha are refused with a message. */
  ops.d2alpha = VI_X(toy_d2alpha);
  ops.grad_hamiltonian = NULL;
  sys = NULL;
  rc = VI_X(vi_system_alloc)(&t, 0, NULL, &sys, err, sizeof err);
  VI_CHECK(c, rc == VI_EUNSUPPORTED && sys == NULL && contains(err, "grad_hamiltonian"),
           "toy (%s): missing grad H gave %d '%s'", VI_PREC_NAME, rc, err);
  ops.grad_hamiltonian = VI_X(toy_dH);
  VI_X(vi_mech_ops) mech = {0};
  t.mech = &mech;
  rc = VI_X(vi_system_alloc)(&t, 0, NULL, &sys, err, sizeof err);
  VI_CHECK(c, rc == VI_EUNSUPPORTED && contains(err, "exactly one Lagrangian form"),
           "toy (%s): two forms gave %d '%s'", VI_PREC_NAME, rc, err);
}

/* Deliberately broken systems: a constraint that fails (fatally, -3) is
 * reported by vi_system_alloc; a contracted Hessian that fails recoverably
 * (2) is reported by vi_system_lambda and vi_system_check. */
static int VI_X(brk_mass)(const void *s, VI_REAL *M) {
  M[0] = VI_C(2.5);
  return 0;
}
static int VI_X(brk_V)(const void *s, const VI_REAL *q, VI_REAL *V) {
  *V = VI_C(1.5) * q[0];
  return 0;
}
static int VI_X(brk_dV)(const void *s, const VI_REAL *q, VI_REAL *dV) {
  dV[0] = VI_C(1.5);
  return 0;
}
static int VI_X(brk_g_fail)(const void *s, const VI_REAL *q, VI_REAL *g) {
  return -3;
}
static int VI_X(brk_g)(const void *s, const VI_REAL *q, VI_REAL *g) {
  g[0] = q[0] - VI_C(0.75);
  return 0;
}
static int VI_X(brk_G)(const void *s, const VI_REAL *q, VI_REAL *G) {
  G[0] = 1;
  return 0;
}
/* Placeholder D_q Phi and D_q(A' mu) (never called by vi_system_alloc). */
static int VI_X(brk_zero2)(const void *s, const VI_REAL *q, const VI_REAL *w, VI_REAL *D) {
  return -1;
}
static int VI_X(brk_Hg_fail)(const void *s, const VI_REAL *q,
                             const VI_REAL *mu, VI_REAL *H) {
  return 2;
}
/* Wrong on purpose: grad V off by 1e-6 relative, Hess g = mu although g is
 * linear. */
static int VI_X(brk_dV_wrong)(const void *s, const VI_REAL *q, VI_REAL *dV) {
  dV[0] = VI_C(1.5) * (1 + VI_C(1e-6));
  return 0;
}
static int VI_X(brk_Hg_wrong)(const void *s, const VI_REAL *q,
                              const VI_REAL *mu, VI_REAL *H) {
  H[0] = mu[0];
  return 0;
}
static int VI_X(brk_init)(const void *s, VI_REAL *q0, VI_REAL *v0) {
  q0[0] = VI_C(0.75);
  v0[0] = 0;
  return 0;
}

/* A sphere in R^BIGN with linear potential and a non-uniform diagonal mass:
 * big enough that the kernels' scratch leaves the stack for the heap. */
static int VI_X(big_mass)(const void *s, VI_REAL *M) {
  for (int i = 0; i < BIGN * BIGN; i++) {
    M[i] = 0;
  }
  for (int i = 0; i < BIGN; i++) {
    M[i * BIGN + i] = 1 + i / VI_C(7.0);
  }
  return 0;
}
static int VI_X(big_V)(const void *s, const VI_REAL *q, VI_REAL *V) {
  VI_REAL t = 0;
  for (int i = 0; i < BIGN; i++) {
    t += (i - VI_C(9.5)) * q[i];
  }
  *V = t;
  return 0;
}
static int VI_X(big_dV)(const void *s, const VI_REAL *q, VI_REAL *dV) {
  for (int i = 0; i < BIGN; i++) {
    dV[i] = i - VI_C(9.5);
  }
  return 0;
}
static int VI_X(big_HV)(const void *s, const VI_REAL *q, VI_REAL *H) {
  for (int i = 0; i < BIGN * BIGN; i++) {
    H[i] = 0;
  }
  return 0;
}
static int VI_X(big_g)(const void *s, const VI_REAL *q, VI_REAL *g) {
  VI_REAL t = 0;
  for (int i = 0; i < BIGN; i++) {
    t += q[i] * q[i];
  }
  g[0] = (t - VI_C(1.69)) / 2;
  return 0;
}
static int VI_X(big_G)(const void *s, const VI_REAL *q, VI_REAL *G) {
  for (int i = 0; i < BIGN; i++) {
    G[i] = q[i];
  }
  return 0;
}
static int VI_X(big_Hg)(const void *s, const VI_REAL *q, const VI_REAL *mu,
                        VI_REAL *H) {
  for (int i = 0; i < BIGN * BIGN; i++) {
    H[i] = (i % (BIGN + 1) == 0) ? mu[0] : 0;
  }
  return 0;
}
static int VI_X(big_init)(const void *s, VI_REAL *q0, VI_REAL *v0) {
  for (int i = 0; i < BIGN; i++) {
    q0[i] = 0;
    v0[i] = (i % 5) - VI_C(1.75);
  }
  q0[0] = VI_C(1.3);
  v0[0] = 0;
  return 0;
}

static void VI_X(test_big)(vi_check_ctx *c) {
  static const vi_param params[] = {{NULL, 0, NULL, NULL, VI_PARAM_ANY}};
  static const vi_system_info info = {
      .name = "big-sphere",
      .summary = "a particle on a sphere in R^24",
      .cite = "",
      .n = BIGN,
      .m = 1,
      .params = params,
  };
  const VI_X(vi_mech_ops) big_mech = {
      .mass = VI_X(big_mass),
      .potential = VI_X(big_V),
      .grad_potential = VI_X(big_dV),
      .hess_potential = VI_X(big_HV),
  };
  const VI_X(vi_holo_ops) big_holo = {
      .constraint = VI_X(big_g),
      .constraint_jac = VI_X(big_G),
      .constraint_hess = VI_X(big_Hg),
  };
  const VI_X(vi_system_type) big = {
      .info = &info,
      .initial = VI_X(big_init),
      .mech = &big_mech,
      .holo = &big_holo,
  };
  char err[512] = "";
  VI_X(vi_system) *sys = NULL;
  int rc = VI_X(vi_system_alloc)(&big, 0, NULL, &sys, err, sizeof err);
  VI_CHECK(c, rc == VI_OK, "big (%s): alloc %d '%s'", VI_PREC_NAME, rc, err);
  if (sys == NULL) {
    return;
  }
  vi_report_ctx r = {0, 0, 0};
  rc = VI_X(vi_system_check)(sys, 1, vi_report_line, &r);
  VI_CHECK(c, rc == 0, "big (%s): check %d", VI_PREC_NAME, rc);
  /* lambda (70) on the sphere: lambda = (|v|^2 - q' M^-1 grad V) /
   * (q' M^-1 q), by hand. */
  VI_REAL lam = 0, v[BIGN], num = 0, den = 0, p[BIGN], gv = 0;
  rc = VI_X(vi_system_lambda)(sys, sys->q0, sys->p0, &lam);
  for (int i = 0; i < BIGN; i++) {
    VI_REAL mi = 1 + i / VI_C(7.0); /* big_mass */
    v[i] = sys->p0[i] / mi;
    num += v[i] * v[i] - sys->q0[i] * (i - VI_C(9.5)) / mi;
    den += sys->q0[i] * sys->q0[i] / mi;
    p[i] = sys->p0[i] + i;
  }
  VI_CHECK(c, rc == VI_OK && vi_fabs(lam - num / den) <= 100 * VI_EPS *
                                                            vi_fabs(lam),
           "big (%s): lambda %d %g vs %g", VI_PREC_NAME, rc, (double)lam,
           (double)(num / den));
  rc = VI_X(vi_system_project_p)(sys, sys->q0, p);
  VI_CHECK(c, rc == VI_OK, "big (%s): project %d", VI_PREC_NAME, rc);
  rc = VI_X(vi_system_hidden)(sys, sys->q0, p, &gv);
  VI_CHECK(c, rc == VI_OK && vi_fabs(gv) <= 1000 * VI_EPS,
           "big (%s): hidden after projection %g", VI_PREC_NAME, (double)gv);
  VI_X(vi_system_free)(sys);
}

static void VI_X(test_broken)(vi_check_ctx *c) {
  static const vi_param params[] = {{NULL, 0, NULL, NULL, VI_PARAM_ANY}};
  static const vi_system_info info = {
      .name = "broken",
      .summary = "a system whose callbacks fail",
      .cite = "",
      .n = 1,
      .m = 1,
      .params = params,
  };
  const VI_X(vi_mech_ops) bad_g_mech = {
      .mass = VI_X(brk_mass),
      .potential = VI_X(brk_V),
      .grad_potential = VI_X(brk_dV),
  };
  const VI_X(vi_holo_ops) bad_g_holo = {
      .constraint = VI_X(brk_g_fail),
      .constraint_jac = VI_X(brk_G),
      .constraint_hess = VI_X(brk_Hg_fail),
  };
  const VI_X(vi_system_type) bad_g = {
      .info = &info,
      .initial = VI_X(brk_init),
      .mech = &bad_g_mech,
      .holo = &bad_g_holo,
  };
  char err[512] = "";
  VI_X(vi_system) *sys = NULL;
  int rc = VI_X(vi_system_alloc)(&bad_g, 0, NULL, &sys, err, sizeof err);
  VI_CHECK(c, rc == VI_ECALLBACK && sys == NULL &&
                  contains(err, "constraint") && contains(err, "-3"),
           "broken (%s): failing constraint gave %d, '%s'", VI_PREC_NAME, rc,
           err);

  VI_X(vi_system_type) bad_h = bad_g;
  VI_X(vi_holo_ops) h_holo = bad_g_holo;
  h_holo.constraint = VI_X(brk_g);
  bad_h.holo = &h_holo;
  rc = VI_X(vi_system_alloc)(&bad_h, 0, NULL, &sys, err, sizeof err);
  VI_CHECK(c, rc == VI_OK, "broken (%s): alloc %d '%s'", VI_PREC_NAME, rc,
           err);
  if (sys != NULL) {
    VI_REAL lam[1] = {0};
    rc = VI_X(vi_system_lambda)(sys, sys->q0, sys->p0, lam);
    VI_CHECK(c, rc == VI_CALLBACK_RECOVERABLE,
             "broken (%s): lambda with a failing Hessian gave %d",
             VI_PREC_NAME, rc);
    vi_report_ctx r = {0, 0, 0};
    rc = VI_X(vi_system_check)(sys, 2, vi_report_line, &r);
    VI_CHECK(c, rc < 0, "broken (%s): check with a failing Hessian gave %d",
             VI_PREC_NAME, rc);
    VI_X(vi_system_free)(sys);
  }

  /* vi_system_check must catch wrong and missing derivatives: per point,
   * grad V (wrong), Hess V (missing) and sum mu_k Hess g_k (wrong) fail,
   * G passes. */
  VI_X(vi_system_type) wrong = bad_h;
  VI_X(vi_mech_ops) w_mech = bad_g_mech;
  VI_X(vi_holo_ops) w_holo = h_holo;
  w_mech.grad_potential = VI_X(brk_dV_wrong);
  w_holo.constraint_hess = VI_X(brk_Hg_wrong);
  wrong.mech = &w_mech;
  wrong.holo = &w_holo;
  sys = NULL;
  rc = VI_X(vi_system_alloc)(&wrong, 0, NULL, &sys, err, sizeof err);
  VI_CHECK(c, rc == VI_OK, "wrong (%s): alloc %d '%s'", VI_PREC_NAME, rc,
           err);
  if (sys != NULL) {
    vi_report_ctx r = {0, 0, 0};
    rc = VI_X(vi_system_check)(sys, 3, vi_report_line, &r);
    VI_CHECK(c, rc == 3 * 4 && r.lines == 4 * 4 && r.failed_lines == 3 * 4,
             "wrong (%s): check found %d failures in %d lines", VI_PREC_NAME,
             rc, r.lines);
    VI_X(vi_system_free)(sys);
  }

  /* A system without the mechanical form is refused, not crashed on. */
  VI_X(vi_system_type) no_mass = bad_h;
  VI_X(vi_mech_ops) nm_mech = bad_g_mech;
  nm_mech.mass = NULL;
  no_mass.mech = &nm_mech;
  sys = NULL;
  rc = VI_X(vi_system_alloc)(&no_mass, 0, NULL, &sys, err, sizeof err);
  VI_CHECK(c, rc == VI_EUNSUPPORTED && sys == NULL,
           "broken (%s): no mass matrix gave %d", VI_PREC_NAME, rc);
  rc = VI_X(vi_system_alloc)(NULL, 0, NULL, &sys, err, sizeof err);
  VI_CHECK(c, rc == VI_EINVAL, "NULL type gave %d", rc);

  /* Holonomic and nonholonomic rows that are dependent at q0 (the
   * planar pendulum with A(q) = G(q): C M^-1 C' = s (1 1; 1 1), an exact
   * zero pivot) are refused as such, not as a failing callback. */
  const VI_X(vi_system_type) *pt = VI_X(vi_system_find)("planar-pendulum", err, sizeof err);
  if (pt == NULL) {
    VI_CHECK(c, 0, "planar-pendulum is not registered: %s", err);
    return;
  }
  vi_system_info dep_info = *pt->info;
  dep_info.m_nh = 1;
  const VI_X(vi_nh_ops) dep_nh = {.matrix = pt->holo->constraint_jac,
                                  .dphi_dq = VI_X(brk_zero2),
                                  .datmu = VI_X(brk_zero2)};
  VI_X(vi_system_type) dep = *pt;
  dep.info = &dep_info;
  dep.nh = &dep_nh;
  sys = NULL;
  rc = VI_X(vi_system_alloc)(&dep, 0, NULL, &sys, err, sizeof err);
  VI_CHECK(c, rc == VI_EINCONSISTENT && sys == NULL && contains(err, "linearly dependent") &&
                  contains(err, "[G(q0); A(q0)]"),
           "dependent (%s): gave %d '%s'", VI_PREC_NAME, rc, err);
  VI_X(vi_system_free)(sys);
}

/* A discrete gradient that is no discrete gradient: grad V at the
 * midpoint (not directional for four-particle's quartic springs), with
 * Hess V / 2 there as its Jacobian. */
static int VI_X(fp_dgrad_mid_real)(const void *st, const VI_REAL *q0, const VI_REAL *q1,
                                   VI_REAL *dV, VI_REAL *J1) {
  const VI_X(vi_system_type) *fp = VI_X(vi_system_find)("four-particle", NULL, 0);
  VI_REAL qm[12];
  for (int i = 0; i < 12; i++) {
    qm[i] = (q0[i] + q1[i]) / 2;
  }
  int rc = fp->mech->grad_potential(st, qm, dV);
  if (rc == 0 && J1) {
    rc = fp->mech->hess_potential(st, qm, J1);
    for (int i = 0; rc == 0 && i < 144; i++) {
      J1[i] /= 2;
    }
  }
  return rc;
}

/* What a mechanical type declares beyond its derivatives is checked by
 * vi_system_check: four-particle's discrete gradient (126) passes, grad V
 * at the midpoint in its place fails directionality; a potential declared
 * quadratic that is not (six-balls' springs) fails. */
static void VI_X(test_declared)(vi_check_ctx *c) {
  char err[512] = "";
  const VI_X(vi_system_type) *fp = VI_X(vi_system_find)("four-particle", err, sizeof err);
  const VI_X(vi_system_type) *sb = VI_X(vi_system_find)("six-balls", err, sizeof err);
  if (fp == NULL || sb == NULL || fp->mech->dgrad_potential == NULL) {
    VI_CHECK(c, 0, "four-particle (with its discrete gradient) or six-balls missing: %s", err);
    return;
  }
  VI_X(vi_system) *sys = NULL;
  int rc = VI_X(vi_system_alloc)(fp, 0, NULL, &sys, err, sizeof err);
  vi_report_ctx r = {0, 0, 0};
  int fails = rc == VI_OK ? VI_X(vi_system_check)(sys, 2, vi_report_line, &r) : -1;
  VI_CHECK(c, fails == 0, "declared (%s): four-particle's check gave %d", VI_PREC_NAME, fails);
  VI_X(vi_system_free)(sys);

  VI_X(vi_mech_ops) mid = *fp->mech;
  mid.dgrad_potential = VI_X(fp_dgrad_mid_real);
  VI_X(vi_system_type) fpm = *fp;
  fpm.mech = &mid;
  sys = NULL;
  rc = VI_X(vi_system_alloc)(&fpm, 0, NULL, &sys, err, sizeof err);
  r = (vi_report_ctx){0, 0, 0};
  fails = rc == VI_OK ? VI_X(vi_system_check)(sys, 2, vi_report_line, &r) : -1;
  VI_CHECK(c, fails > 0, "declared (%s): grad V at the midpoint passed as a discrete gradient",
           VI_PREC_NAME);
  VI_X(vi_system_free)(sys);

  vi_system_info sbi = *sb->info;
  sbi.quadratic |= VI_QUADRATIC_V;
  VI_X(vi_system_type) sbq = *sb;
  sbq.info = &sbi;
  sys = NULL;
  rc = VI_X(vi_system_alloc)(&sbq, 0, NULL, &sys, err, sizeof err);
  r = (vi_report_ctx){0, 0, 0};
  fails = rc == VI_OK ? VI_X(vi_system_check)(sys, 2, vi_report_line, &r) : -1;
  VI_CHECK(c, fails > 0, "declared (%s): six-balls' springs passed as a quadratic potential",
           VI_PREC_NAME);
  VI_X(vi_system_free)(sys);
}

/* ---- relative equilibria (vi_obs_ops.steady) ------------------------------
 * A system that declares its initial data a relative equilibrium must move
 * steadily along them. For the mechanical form the test is V: a point
 * symmetry of L keeps V (L(g q, g v) = L(q, v) at v = 0), so V is constant
 * on every orbit of a one-parameter group of symmetries, and so is T = E -
 * V; along any other motion energy moves between them. The heavy top's V =
 * m gravity phi3: a constant V is a constant nutation, phi3 = l
 * cos(alpha0). Measured two ways over 60 time scales
 * (vi_system_time_scale; 8.5 turns of the top's spin): along the system's
 * own exact solution where it has one (to round-off, in both precisions),
 * and along an independent integration (vi_reference of a copy of the type
 * without exact: to the integration's accuracy; in double, the quad
 * reference integrator taking a minute and a half per run under the
 * sanitizers), so that the declaration is not checked against the
 * system's own claim only. A system of another form
 * that declares it fails here until a test of its steadiness is added. */

/* max_k |V(q(t_k)) - V(q0)| over the reference of sys at t_k = k h (K =
 * ST_K), with the reference's accuracy and the scale |V0| + |E0| of the
 * energies. */
static int VI_X(st_swing)(const VI_X(vi_system) * sys, VI_REAL h, VI_REAL *dV, VI_REAL *scale,
                          double *acc, char *err, size_t errlen) {
  const size_t K1 = ST_K + 1;
  VI_REAL *Q = malloc(K1 * (size_t)sys->nq * sizeof *Q);
  VI_REAL *P = malloc(K1 * (size_t)sys->n * sizeof *P);
  VI_REAL *L = malloc(K1 * (size_t)(sys->ml > 0 ? sys->ml : 1) * sizeof *L);
  VI_X(vi_reference_info) info;
  int rc = Q && P && L ? VI_X(vi_reference)(sys, h, ST_K, Q, P, L, NULL, &info, err, errlen)
                       : VI_ENOMEM;
  VI_REAL V0 = 0, E0 = 0;
  *dV = (VI_REAL)NAN;
  if (rc == VI_OK) {
    rc = vi_callback_status(sys->type->mech->potential(sys->state, Q, &V0));
  }
  if (rc == VI_OK) {
    rc = VI_X(vi_system_energy)(sys, Q, P, &E0);
  }
  if (rc == VI_OK) {
    *dV = 0;
    *acc = info.accuracy;
    *scale = vi_fabs(V0) + vi_fabs(E0);
  }
  for (size_t k = 1; rc == VI_OK && k < K1; k++) {
    VI_REAL V = 0;
    rc = vi_callback_status(sys->type->mech->potential(sys->state, Q + k * (size_t)sys->nq, &V));
    const VI_REAL d = vi_fabs(V - V0);
    *dV = d > *dV || d != d ? d : *dV;
  }
  free(Q);
  free(P);
  free(L);
  return rc;
}

/* The step of st_swing for sys: 0.5 time scales. */
static VI_REAL VI_X(st_step)(const VI_X(vi_system) * sys) {
  double tau = INFINITY;
  return VI_X(vi_system_time_scale)(sys, &tau) == VI_OK && tau > 0 && tau < INFINITY
             ? (VI_REAL)(0.5 * tau)
             : VI_C(0.01);
}

/* The checks of one system with nset overrides set that declares its data
 * steady: V constant along the exact solution and along the integration. */
static void VI_X(st_check)(vi_check_ctx *c, const VI_X(vi_system_type) * t, int nset,
                           const char *const *set, const char *what) {
  const char *pn = VI_PREC_NAME, *name = t->info->name;
  char err[512] = "";
  if (t->mech == NULL) {
    VI_CHECK(c, 0, "%s (%s): declares a relative equilibrium, but this test checks one of "
             "the mechanical form only (%s form): add a check of its steadiness",
             name, pn, VI_X(vi_type_form)(t));
    return;
  }
  /* The integration: a copy of the type without its exact solution. */
  VI_X(vi_obs_ops) noexact = *t->obs;
  noexact.exact = NULL;
  VI_X(vi_system_type) ti = *t;
  ti.obs = &noexact;
#ifdef VI_PREC_Q
  const int runs = 1; /* the exact solution only (above) */
#else
  const int runs = 2;
#endif
  for (int integrated = 0; integrated < runs; integrated++) {
    if (!integrated && !VI_X(vi_type_has_exact)(t)) {
      continue;
    }
    VI_X(vi_system) *sys = NULL;
    int rc = VI_X(vi_system_alloc)(integrated ? &ti : t, nset, set, &sys, err, sizeof err);
    VI_REAL dV = 0, scale = 1;
    double acc = 0;
    if (rc == VI_OK) {
      rc = VI_X(st_swing)(sys, VI_X(st_step)(sys), &dV, &scale, &acc, err, sizeof err);
    }
    /* Round-off along the exact solution; along the integration its
     * accuracy (in q) times |grad V| ~ scale / |q|, with room. */
    const VI_REAL bound = integrated ? VI_C(1e3) * VI_EPS * scale + (VI_REAL)(100 * acc) * scale
                                     : VI_C(1e3) * VI_EPS * scale;
    VI_CHECK(c, rc == VI_OK && dV <= bound,
             "%s %s (%s): declared a relative equilibrium, but V moves by %.2e along the %s "
             "(bound %.2e) %s",
             name, what, pn, (double)dV, integrated ? "integration" : "exact solution",
             (double)bound, rc == VI_OK ? "" : err);
    printf("  %s %s (%s): steady, |V(t) - V(0)| <= %.2e along the %s (bound %.2e)\n", name,
           what, pn, (double)dV, integrated ? "integration" : "exact solution", (double)bound);
    VI_X(vi_system_free)(sys);
  }
}

static void VI_X(test_steady)(vi_check_ctx *c) {
  const char *pn = VI_PREC_NAME;
  char err[512] = "";
  int declared = 0;
  /* Every registered system that declares its default data steady. */
  for (int i = 0; VI_X(vi_system_types)[i]; i++) {
    const VI_X(vi_system_type) *t = VI_X(vi_system_types)[i];
    VI_X(vi_system) *sys = NULL;
    const char *motion = NULL;
    int rc = VI_X(vi_system_alloc)(t, 0, NULL, &sys, err, sizeof err);
    if (rc == VI_OK) {
      rc = VI_X(vi_system_steady)(sys, &motion);
    }
    VI_CHECK(c, rc == VI_OK, "%s (%s): steady: %s %s", t->info->name, pn, vi_strerror(rc),
             err);
    VI_X(vi_system_free)(sys);
    if (rc == VI_OK && motion != NULL) {
      declared++;
      VI_CHECK(c, motion[0] != '\0', "%s (%s): a relative equilibrium without a name",
               t->info->name, pn);
      VI_X(st_check)(c, t, 0, NULL, "(defaults)");
    }
  }
  /* The heavy top declares it exactly for a symmetric top (betsch-ggl
   * (112)): on other symmetric data too, and not once I1 != I2, from where
   * the same integration shows the nutation (the check can tell). */
  const VI_X(vi_system_type) *gt = VI_X(vi_system_find)("gyro-top", err, sizeof err);
  VI_CHECK(c, gt != NULL && declared >= 1, "(%s) gyro-top missing or not declared steady on "
           "its defaults (%d systems declare it): %s", pn, declared, err);
  if (gt == NULL) {
    return;
  }
  static const char *const sym[] = {"I1=6.137e-4", "I2=6.137e-4", "I3=4.385e-4",
                                    "alpha0=0.7318", "omega_p=-7.413"};
  static const char *const asym[] = {"I2=7.263e-4"};
  for (int k = 0; k < 2; k++) {
    VI_X(vi_system) *sys = NULL;
    const char *motion = NULL;
    int rc = VI_X(vi_system_alloc)(gt, k ? 1 : 5, k ? asym : sym, &sys, err, sizeof err);
    if (rc == VI_OK) {
      rc = VI_X(vi_system_steady)(sys, &motion);
    }
    VI_CHECK(c, rc == VI_OK && (motion != NULL) == !k,
             "gyro-top %s (%s): %s a relative equilibrium (%s) %s",
             k ? "I1 != I2" : "symmetric, other data", pn, motion ? "declared" : "not",
             vi_strerror(rc), err);
    VI_X(vi_system_free)(sys);
  }
  VI_X(st_check)(c, gt, 5, sym, "(I1 = I2, other data)");
#ifndef VI_PREC_Q
  VI_X(vi_system) *sys = NULL;
  VI_REAL dV = 0, scale = 1;
  double acc = 0;
  int rc = VI_X(vi_system_alloc)(gt, 1, asym, &sys, err, sizeof err);
  if (rc == VI_OK) {
    rc = VI_X(st_swing)(sys, VI_X(st_step)(sys), &dV, &scale, &acc, err, sizeof err);
  }
  const VI_REAL bound = VI_C(1e3) * VI_EPS * scale + (VI_REAL)(100 * acc) * scale;
  VI_CHECK(c, rc == VI_OK && dV > 100 * bound,
           "gyro-top I1 != I2 (%s): V moves by %.2e only (bound of a steady motion %.2e) %s",
           pn, (double)dV, (double)bound, rc == VI_OK ? "" : err);
  printf("  gyro-top I1 != I2 (%s): not steady, |V(t) - V(0)| up to %.2e (the bound of a "
         "steady motion %.2e)\n", pn, (double)dV, (double)bound);
  VI_X(vi_system_free)(sys);
#endif
}

#if !defined(VI_PREC_Q)
/* The counter sees the library's allocations at all (else the zero counts
 * above would prove nothing): allocating a system allocates. */
static void test_alloc_counter_d(vi_check_ctx *c) {
  char err[512] = "";
  const vi_system_type_d *t = vi_system_find_d("planar-pendulum", err, sizeof err);
  vi_system_d *sys = NULL;
  const long before = g_allocs;
  int rc = t ? vi_system_alloc_d(t, 0, NULL, &sys, err, sizeof err) : VI_EINVAL;
  VI_CHECK(c, rc == VI_OK && g_allocs > before, "the allocation counter sees nothing (%ld)",
           g_allocs - before);
  vi_system_free_d(sys);
}
#endif

#endif /* VI_TEST_TMPL */
