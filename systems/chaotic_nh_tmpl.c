/* chaotic_nh_tmpl.c: the fully chaotic nonholonomic system of McLachlan &
 * Perlmutter, demartin2018 §7.3 (Fig. 6; notes §2.3): q in R^n,
 * n = 2 m_c + 1 for any m_c >= 2 (the paper's m; a parameter, so the
 * dimension is the instance's: vi_system_type.dim),
 *   L = m/2 |v|^2 - U,
 *   U = 1/2 (|q|^2 + q_{m_c+2}^2 q_{m_c+3}^2 + sum_{i=1}^{m_c} q_{1+i}^2 q_{m_c+1+i}^2),
 *   Phi(q, v) = v_1 + sum_{i=m_c+2}^{n} q_i v_i = 0,
 *   A(q) = (1, 0, ..., 0, q_{m_c+2}, ..., q_n), a = 0
 * (1-based indices as the paper's; the paper has M = I, m = 1). In the
 * harness's sign convention (the constraint force -A' mu, the paper's
 * lambda is -mu) the index-1 multiplier is
 *   mu = -(A . grad U - m sum_{i>=m_c+2} v_i^2) / |A|^2,
 *   |A|^2 = 1 + sum_{i>=m_c+2} q_i^2
 * (notes §2.3 at m = 1). The constraint is linear in v, so the energy is
 * the only invariant. Initial data (§7.3): member j = 0..J of the paper's
 * ensemble on the energy sheet E_0 = 3.06 (m_c = 3),
 *   q0 = (alpha, 0.6, 0.4, 0.2, 1, 1, 1), v0 = (0, beta, 0, 0, 0, 0, 0),
 *   alpha = cos(j pi / (2J)), beta = sin(j pi / (2J));
 * for other m_c this file's generalisation: q0 = (alpha, m_c/5, (m_c-1)/5,
 * ..., 1/5, 1, ..., 1) (the paper's ramp down to 0.2 in steps of 0.2, then
 * m_c ones), v0 = beta e_2, consistent for every j since v_1 = 0 and
 * v_i = 0 for i >= m_c + 2. q0 and v0 set with --set (n values each)
 * replace the ensemble's. The reference is numerical. Compiled once per
 * precision. */
#include <stddef.h>
#include <stdio.h>

#include "prec.h"
#include "numerics_tmpl.h"
#include "api_tmpl.h"

/* The largest m_c: the instance's arrays are sized for n = 2 CH_MC_MAX + 1
 * = 15 (info.n); raising it raises the parameters' storage (2 n + 4
 * values, under the order validation's 64) and systems beyond n = 12 take
 * their kernels' scratch from the heap (VI_SYS_STACK_REALS). */
enum { CH_MC_MAX = 7, CH_NMAX = 2 * CH_MC_MAX + 1 };

typedef struct ch_state {
  int mc, n;
  VI_REAL m;
  VI_REAL q0[CH_NMAX], v0[CH_NMAX];
} ch_state;

static const vi_param ch_params[] = {
    {"m", 1, "1", "mass of every coordinate (M = m I)", VI_PARAM_POSITIVE},
    {"m_c", 1, "3", "size parameter (the paper's m): n = 2 m_c + 1, 2 <= m_c <= 7",
     VI_PARAM_NATURAL},
    {"J", 1, "9", "ensemble size: members j = 0..J (q0, v0 unless set)", VI_PARAM_NATURAL},
    {"j", 1, "0", "ensemble member, 0 <= j <= J: alpha = cos(j pi/(2J)), beta = sin(j pi/(2J))",
     VI_PARAM_NATURAL},
    {"q0", CH_NMAX, "",
     "initial position; unset: the ensemble's (alpha, m_c/5, ..., 1/5, 1, ..., 1)",
     VI_PARAM_COORDS},
    {"v0", CH_NMAX, "",
     "initial velocity (must satisfy Phi = 0); unset: the ensemble's beta e_2",
     VI_PARAM_COORDS},
    {NULL, 0, NULL, NULL, VI_PARAM_ANY},
};

static const vi_system_info ch_info = {
    .name = "chaotic-nh",
    .summary = "McLachlan-Perlmutter's fully chaotic nonholonomic system in R^(2 m_c + 1)",
    .cite = "demartin2018 §7.3 (33); McLachlan & Perlmutter",
    .n = CH_NMAX,
    .m = 0,
    .m_nh = 1,
    .params = ch_params,
    .dim_doc = "2 m_c + 1",
};

/* The rules of the data beyond the domains (m_c, J, j whole numbers >= 0,
 * m > 0): m_c >= 2 (the coupling q_{m_c+2}^2 q_{m_c+3}^2 needs
 * m_c + 3 <= n) and at most CH_MC_MAX (the type's storage); J >= 1 and
 * j <= J (the ensemble angle j pi / (2J) in [0, pi/2]). A is never zero
 * (A_1 = 1), U is a polynomial: nothing else. */
static int ch_setup(void *state, const VI_REAL *par, char *err, size_t errlen) {
  ch_state *s = state;
  s->m = par[0];
  const VI_REAL mc = par[1], J = par[2], j = par[3];
  if (mc < 2 || mc > CH_MC_MAX) {
    snprintf(err, errlen,
             "m_c: must be 2..%d (the coupling q_{m_c+2}^2 q_{m_c+3}^2 needs m_c >= 2; "
             "%d is the largest the type stores), got %g",
             CH_MC_MAX, CH_MC_MAX, (double)mc);
    return -1;
  }
  if (J < 1) {
    snprintf(err, errlen, "J: must be >= 1 (the ensemble angle is j pi / (2J)), got 0");
    return -1;
  }
  if (j > J) {
    snprintf(err, errlen, "j: must be <= J = %g (the ensemble members are j = 0..J), got %g",
             (double)J, (double)j);
    return -1;
  }
  s->mc = (int)mc;
  s->n = 2 * s->mc + 1;
  const VI_REAL th = j * VI_PI / (2 * J);
  const VI_REAL *q0 = par + 4, *v0 = par + 4 + CH_NMAX;
  for (int i = 0; i < s->n; i++) {
    /* q_1 = alpha, q_{1+i} = (m_c + 1 - i)/5 (i = 1..m_c), then ones. */
    VI_REAL qe = i == 0 ? vi_cos(th) : i <= s->mc ? (VI_REAL)(s->mc + 1 - i) / 5 : 1;
    VI_REAL ve = i == 1 ? vi_sin(th) : 0;
    /* Unset (NaN, VI_PARAM_COORDS): the ensemble member; set: n values
     * (their number is checked by vi_system_alloc). */
    s->q0[i] = vi_isfinite(q0[0]) ? q0[i] : qe;
    s->v0[i] = vi_isfinite(v0[0]) ? v0[i] : ve;
  }
  return 0;
}

static int ch_dim(const void *state) {
  const ch_state *s = state;
  return s->n;
}

static int ch_initial(const void *state, VI_REAL *q0, VI_REAL *v0) {
  const ch_state *s = state;
  for (int i = 0; i < s->n; i++) {
    q0[i] = s->q0[i];
    v0[i] = s->v0[i];
  }
  return 0;
}

static int ch_mass(const void *state, VI_REAL *M) {
  const ch_state *s = state;
  const int n = s->n;
  for (int i = 0; i < n * n; i++) {
    M[i] = 0;
  }
  for (int i = 0; i < n; i++) {
    M[i * n + i] = s->m;
  }
  return 0;
}

/* The quartic couplings 1/2 q_a^2 q_b^2 of U, 0-based: (m_c+1, m_c+2) and
 * (i, m_c+i) for i = 1..m_c; their number is m_c + 1. */
static void ch_pair(const ch_state *s, int k, int *a, int *b) {
  if (k == 0) {
    *a = s->mc + 1;
    *b = s->mc + 2;
  } else {
    *a = k;
    *b = s->mc + k;
  }
}

/* demartin2018 §7.3, L. */
static int ch_potential(const void *state, const VI_REAL *q, VI_REAL *V) {
  const ch_state *s = state;
  VI_REAL u = 0;
  for (int i = 0; i < s->n; i++) {
    u += q[i] * q[i];
  }
  for (int k = 0; k <= s->mc; k++) {
    int a, b;
    ch_pair(s, k, &a, &b);
    u += q[a] * q[a] * q[b] * q[b];
  }
  *V = u / 2;
  return 0;
}

/* grad U = q + sum over couplings (q_a q_b^2 e_a + q_a^2 q_b e_b). */
static int ch_grad_potential(const void *state, const VI_REAL *q, VI_REAL *dV) {
  const ch_state *s = state;
  for (int i = 0; i < s->n; i++) {
    dV[i] = q[i];
  }
  for (int k = 0; k <= s->mc; k++) {
    int a, b;
    ch_pair(s, k, &a, &b);
    dV[a] += q[a] * q[b] * q[b];
    dV[b] += q[a] * q[a] * q[b];
  }
  return 0;
}

/* Hess U = I + sum over couplings of [[q_b^2, 2 q_a q_b], [2 q_a q_b, q_a^2]]
 * in rows and columns (a, b). */
static int ch_hess_potential(const void *state, const VI_REAL *q, VI_REAL *H) {
  const ch_state *s = state;
  const int n = s->n;
  for (int i = 0; i < n * n; i++) {
    H[i] = 0;
  }
  for (int i = 0; i < n; i++) {
    H[i * n + i] = 1;
  }
  for (int k = 0; k <= s->mc; k++) {
    int a, b;
    ch_pair(s, k, &a, &b);
    H[a * n + a] += q[b] * q[b];
    H[b * n + b] += q[a] * q[a];
    H[a * n + b] += 2 * q[a] * q[b];
    H[b * n + a] += 2 * q[a] * q[b];
  }
  return 0;
}

/* A(q) = (1, 0, ..., 0, q_{m_c+2}, ..., q_n): 0-based entries m_c+1..n-1. */
static int ch_matrix(const void *state, const VI_REAL *q, VI_REAL *A) {
  const ch_state *s = state;
  for (int i = 0; i < s->n; i++) {
    A[i] = i == 0 ? 1 : i > s->mc ? q[i] : 0;
  }
  return 0;
}

/* D_q (A(q) w) = (0, ..., 0, w_{m_c+2}, ..., w_n). */
static int ch_dphi_dq(const void *state, const VI_REAL *q, const VI_REAL *w, VI_REAL *D) {
  const ch_state *s = state;
  (void)q;
  for (int i = 0; i < s->n; i++) {
    D[i] = i > s->mc ? w[i] : 0;
  }
  return 0;
}

/* D_q (A(q)' mu): A' mu = (mu, 0, ..., 0, q_{m_c+2} mu, ..., q_n mu), so
 * mu on the diagonal at m_c+2..n. */
static int ch_datmu(const void *state, const VI_REAL *q, const VI_REAL *mu, VI_REAL *D) {
  const ch_state *s = state;
  const int n = s->n;
  (void)q;
  for (int i = 0; i < n * n; i++) {
    D[i] = 0;
  }
  for (int i = s->mc + 1; i < n; i++) {
    D[i * n + i] = mu[0];
  }
  return 0;
}

/* The registry's declarations (systems.def), so that this definition is
 * checked against its entry there. */
#define VI_SYSTEM(id) extern const VI_X(vi_system_type) VI_X(vi_sys_##id);
#include "systems.def"
#undef VI_SYSTEM

static const VI_X(vi_mech_ops) ch_mech = {
    .mass = ch_mass,
    .potential = ch_potential,
    .grad_potential = ch_grad_potential,
    .hess_potential = ch_hess_potential,
};

static const VI_X(vi_nh_ops) ch_nh = {
    .matrix = ch_matrix,
    .dphi_dq = ch_dphi_dq,
    .datmu = ch_datmu,
};

const VI_X(vi_system_type) VI_X(vi_sys_chaotic_nh) = {
    .info = &ch_info,
    .state_size = sizeof(ch_state),
    .setup = ch_setup,
    .initial = ch_initial,
    .mech = &ch_mech,
    .nh = &ch_nh,
    .dim = ch_dim,
};
