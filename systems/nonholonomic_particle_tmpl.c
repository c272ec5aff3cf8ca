/* nonholonomic_particle_tmpl.c: the nonholonomic particle in a harmonic
 * potential of demartin2018 §7.1 (Fig. 3): q = (x, y, z) in R^3,
 *   L = m/2 |v|^2 - k/2 (x^2 + y^2),
 *   Phi(q, v) = v_z - y v_x = 0,   A(q) = (-y, 0, 1), a = 0
 * (the paper has m = k = 1). In the harness's sign convention (vi_nh_ops)
 * the constraint force is -A' mu, so
 *   m xdd = -k x + y mu,  m ydd = -k y,  m zdd = -mu,
 *   mu = (k x y - m v_x v_y) / (1 + y^2)
 * (the paper's lambda is -mu). y is a decoupled harmonic oscillator, so
 * E_y = m v_y^2 / 2 + k y^2 / 2 is a first integral besides the energy.
 * The paper gives no initial data; the defaults are those of the reading
 * notes (../shared/papers/notes/demartin2018.md §2.1), consistent with
 * Phi = 0. The reference is numerical. Compiled once per precision. */
#include <stddef.h>

#include "prec.h"
#include "numerics_tmpl.h"
#include "api_tmpl.h"

enum { NP_N = 3 };

typedef struct np_state {
  VI_REAL m, k;
  VI_REAL q0[NP_N], v0[NP_N];
} np_state;

static const vi_param np_params[] = {
    {"m", 1, "1", "mass", VI_PARAM_POSITIVE},
    {"k", 1, "1", "stiffness of the potential k/2 (x^2 + y^2)", VI_PARAM_ANY},
    {"q0", NP_N, "1,0.5,0", "initial (x, y, z)", VI_PARAM_ANY},
    {"v0", NP_N, "0.3,0.8,0.15", "initial velocity (must satisfy v_z = y v_x)",
     VI_PARAM_ANY},
    {NULL, 0, NULL, NULL, VI_PARAM_ANY},
};

static const char *const np_momentum_names[] = {"E_y"};

static const vi_system_info np_info = {
    .name = "nonholonomic-particle",
    .summary = "particle in a harmonic potential with the constraint v_z = y v_x",
    .cite = "demartin2018 §7.1",
    .n = NP_N,
    .m = 0,
    .m_nh = 1,
    .n_momenta = 1,
    .momentum_names = np_momentum_names,
    .momenta_conserved = 1u, /* E_y: y is decoupled (A has no y entry) */
    .params = np_params,
};

/* m > 0 is its parameter's domain, A = (-y, 0, 1) is never zero and v0
 * on the constraint is checked by vi_system_alloc: no rule of its own. */
static int np_setup(void *state, const VI_REAL *par, char *err, size_t errlen) {
  (void)err;
  (void)errlen;
  np_state *s = state;
  s->m = par[0];
  s->k = par[1];
  for (int i = 0; i < NP_N; i++) {
    s->q0[i] = par[2 + i];
    s->v0[i] = par[2 + NP_N + i];
  }
  return 0;
}

static int np_initial(const void *state, VI_REAL *q0, VI_REAL *v0) {
  const np_state *s = state;
  for (int i = 0; i < NP_N; i++) {
    q0[i] = s->q0[i];
    v0[i] = s->v0[i];
  }
  return 0;
}

static int np_mass(const void *state, VI_REAL *M) {
  const np_state *s = state;
  for (int i = 0; i < NP_N * NP_N; i++) {
    M[i] = 0;
  }
  for (int i = 0; i < NP_N; i++) {
    M[i * NP_N + i] = s->m;
  }
  return 0;
}

static int np_potential(const void *state, const VI_REAL *q, VI_REAL *V) {
  const np_state *s = state;
  *V = s->k * (q[0] * q[0] + q[1] * q[1]) / 2;
  return 0;
}

static int np_grad_potential(const void *state, const VI_REAL *q, VI_REAL *dV) {
  const np_state *s = state;
  dV[0] = s->k * q[0];
  dV[1] = s->k * q[1];
  dV[2] = 0;
  return 0;
}

static int np_hess_potential(const void *state, const VI_REAL *q, VI_REAL *H) {
  const np_state *s = state;
  (void)q;
  for (int i = 0; i < NP_N * NP_N; i++) {
    H[i] = 0;
  }
  H[0] = s->k;
  H[4] = s->k;
  return 0;
}

/* A(q) = (-y, 0, 1). */
static int np_matrix(const void *state, const VI_REAL *q, VI_REAL *A) {
  (void)state;
  A[0] = -q[1];
  A[1] = 0;
  A[2] = 1;
  return 0;
}

/* D_q (A(q) w) = (0, -w_x, 0). */
static int np_dphi_dq(const void *state, const VI_REAL *q, const VI_REAL *w, VI_REAL *D) {
  (void)state;
  (void)q;
  D[0] = 0;
  D[1] = -w[0];
  D[2] = 0;
  return 0;
}

/* D_q (A(q)' mu) with A' mu = (-y mu, 0, mu): one entry, row x, column y. */
static int np_datmu(const void *state, const VI_REAL *q, const VI_REAL *mu, VI_REAL *D) {
  (void)state;
  (void)q;
  for (int i = 0; i < NP_N * NP_N; i++) {
    D[i] = 0;
  }
  D[1] = -mu[0];
  return 0;
}

/* E_y = p_y^2 / (2 m) + k y^2 / 2. */
static int np_momenta(const void *state, const VI_REAL *q, const VI_REAL *p, VI_REAL *J) {
  const np_state *s = state;
  J[0] = p[1] * p[1] / (2 * s->m) + s->k * q[1] * q[1] / 2;
  return 0;
}

/* The registry's declarations (systems.def), so that this definition is
 * checked against its entry there. */
#define VI_SYSTEM(id) extern const VI_X(vi_system_type) VI_X(vi_sys_##id);
#include "systems.def"
#undef VI_SYSTEM

static const VI_X(vi_mech_ops) nonholonomic_particle_mech = {
    .mass = np_mass,
    .potential = np_potential,
    .grad_potential = np_grad_potential,
    .hess_potential = np_hess_potential,
};

static const VI_X(vi_nh_ops) nonholonomic_particle_nh = {
    .matrix = np_matrix,
    .dphi_dq = np_dphi_dq,
    .datmu = np_datmu,
};

static const VI_X(vi_obs_ops) nonholonomic_particle_obs = {
    .momenta = np_momenta,
};

const VI_X(vi_system_type) VI_X(vi_sys_nonholonomic_particle) = {
    .info = &np_info,
    .state_size = sizeof(np_state),
    .setup = np_setup,
    .initial = np_initial,
    .mech = &nonholonomic_particle_mech,
    .nh = &nonholonomic_particle_nh,
    .obs = &nonholonomic_particle_obs,
};
