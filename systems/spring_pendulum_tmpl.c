/* spring_pendulum_tmpl.c: the nonlinear spring pendulum of man2020 §4.2,
 * eqs (50)-(52): a particle A (mass m1, coordinates q1, q2) slides on a
 * horizontal line held by a nonlinear spring, and a pendulum bob B (mass
 * m2, coordinates q3, q4) hangs from A on a rigid rod of length l; q4
 * points down, gravity acts along +q4. By (50) M = diag(m1, m1, m2, m2)
 * and, with our L = 1/2 v'Mv - V(q), V = k2/2 q1^2 + k4/2 q1^4
 * - m2 gravity q4 (the paper has k2 = k4 = 1). Constraints (51), kept
 * without a factor 1/2 so lambda is the paper's multiplier: g1 = q2,
 * g2 = (q3 - q1)^2 + (q4 - q2)^2 - l^2. Initial data (52): the rod at 45
 * degrees, at rest. No symmetry (the spring fixes A, gravity fixes the
 * vertical), so the Hamiltonian is the only invariant; no exact solution.
 * Compiled once per precision. */
#include <stddef.h>

#include "prec.h"
#include "numerics_tmpl.h"
#include "api_tmpl.h"

enum { SP_N = 4, SP_M = 2 };

typedef struct sp_state {
  VI_REAL m1, m2, l, gravity, k2, k4;
  VI_REAL q0[SP_N], v0[SP_N];
} sp_state;

/* Defaults: man2020 §4.2 uses m1 = m2 = l = g = 1 ("dimensionless
 * quantities") and the spring terms 1/2 q1^2 + 1/2 q1^4 of (50); k2 and k4
 * are our names for those two coefficients, so held-out stiffnesses can be
 * set. q0 is (52), (0, 0, sqrt(2)/2, sqrt(2)/2), printed to 36 significant
 * digits so g(q0) vanishes to quad rounding; v0 = 0 as in (52). */
static const vi_param sp_params[] = {
    {"m1", 1, "1", "mass of the sliding particle A", VI_PARAM_POSITIVE},
    {"m2", 1, "1", "mass of the pendulum bob B", VI_PARAM_POSITIVE},
    {"l", 1, "1", "rod length from A to B", VI_PARAM_POSITIVE},
    {"gravity", 1, "1", "gravitational acceleration along +q4 (down)", VI_PARAM_ANY},
    {"k2", 1, "1", "spring: coefficient of q1^2/2 in V", VI_PARAM_ANY},
    {"k4", 1, "1", "spring: coefficient of q1^4/2 in V", VI_PARAM_ANY},
    {"q0", SP_N,
     "0,0,"
     "0.707106781186547524400844362104849039,"
     "0.707106781186547524400844362104849039",
     "initial positions q1..q4 (must satisfy g = 0)", VI_PARAM_ANY},
    {"v0", SP_N, "0,0,0,0", "initial velocities (must satisfy G(q0) v0 = 0)", VI_PARAM_ANY},
    {NULL, 0, NULL, NULL, VI_PARAM_ANY},
};

static const vi_system_info sp_info = {
    .name = "spring-pendulum",
    .summary = "nonlinear spring pendulum: sliding mass on a spring + pendulum",
    .cite = "man2020 §4.2, (50)-(52)",
    .n = SP_N,
    .m = SP_M,
    .n_momenta = 0,
    .momentum_names = NULL,
    .quadratic = VI_QUADRATIC_G,
    .params = sp_params,
};

/* Masses and the length > 0 are their parameters' domains, q0 and v0 on
 * the constraints is checked by vi_system_alloc: no rule of its own. */
static int sp_setup(void *state, const VI_REAL *par, char *err, size_t errlen) {
  (void)err;
  (void)errlen;
  sp_state *s = state;
  s->m1 = par[0];
  s->m2 = par[1];
  s->l = par[2];
  s->gravity = par[3];
  s->k2 = par[4];
  s->k4 = par[5];
  for (int i = 0; i < SP_N; i++) {
    s->q0[i] = par[6 + i];
    s->v0[i] = par[6 + SP_N + i];
  }
  return 0;
}

static int sp_mass(const void *state, VI_REAL *M) {
  const sp_state *s = state;
  for (int i = 0; i < SP_N * SP_N; i++) {
    M[i] = 0;
  }
  M[0 * SP_N + 0] = s->m1;
  M[1 * SP_N + 1] = s->m1;
  M[2 * SP_N + 2] = s->m2;
  M[3 * SP_N + 3] = s->m2;
  return 0;
}

/* (50): V = k2/2 q1^2 + k4/2 q1^4 - m2 gravity q4. */
static int sp_potential(const void *state, const VI_REAL *q, VI_REAL *V) {
  const sp_state *s = state;
  VI_REAL x2 = q[0] * q[0];
  *V = (s->k2 * x2 + s->k4 * x2 * x2) / 2 - s->m2 * s->gravity * q[3];
  return 0;
}

static int sp_grad_potential(const void *state, const VI_REAL *q,
                             VI_REAL *dV) {
  const sp_state *s = state;
  dV[0] = s->k2 * q[0] + 2 * s->k4 * q[0] * q[0] * q[0];
  dV[1] = 0;
  dV[2] = 0;
  dV[3] = -s->m2 * s->gravity;
  return 0;
}

static int sp_hess_potential(const void *state, const VI_REAL *q, VI_REAL *H) {
  const sp_state *s = state;
  for (int i = 0; i < SP_N * SP_N; i++) {
    H[i] = 0;
  }
  H[0] = s->k2 + 6 * s->k4 * q[0] * q[0];
  return 0;
}

/* (51). */
static int sp_constraint(const void *state, const VI_REAL *q, VI_REAL *g) {
  const sp_state *s = state;
  VI_REAL a = q[2] - q[0], b = q[3] - q[1];
  g[0] = q[1];
  g[1] = a * a + b * b - s->l * s->l;
  return 0;
}

/* G = [0 1 0 0; -2a -2b 2a 2b] with (a, b) = (q3 - q1, q4 - q2). */
static int sp_constraint_jac(const void *state, const VI_REAL *q, VI_REAL *G) {
  VI_REAL a = q[2] - q[0], b = q[3] - q[1];
  G[0] = 0;
  G[1] = 1;
  G[2] = 0;
  G[3] = 0;
  G[SP_N + 0] = -2 * a;
  G[SP_N + 1] = -2 * b;
  G[SP_N + 2] = 2 * a;
  G[SP_N + 3] = 2 * b;
  return 0;
}

/* g1 is linear; mu2 Hess g2 = 2 mu2 [I -I; -I I] on ((q1, q2), (q3, q4)). */
static int sp_constraint_hess(const void *state, const VI_REAL *q,
                              const VI_REAL *mu, VI_REAL *H) {
  for (int i = 0; i < SP_N * SP_N; i++) {
    H[i] = 0;
  }
  VI_REAL c = 2 * mu[1];
  for (int i = 0; i < 2; i++) {
    H[i * SP_N + i] = c;
    H[(i + 2) * SP_N + i + 2] = c;
    H[i * SP_N + i + 2] = -c;
    H[(i + 2) * SP_N + i] = -c;
  }
  return 0;
}

static int sp_initial(const void *state, VI_REAL *q0, VI_REAL *v0) {
  const sp_state *s = state;
  for (int i = 0; i < SP_N; i++) {
    q0[i] = s->q0[i];
    v0[i] = s->v0[i];
  }
  return 0;
}

/* The registry's declarations (systems.def), so that this definition is
 * checked against its entry there. */
#define VI_SYSTEM(id) extern const VI_X(vi_system_type) VI_X(vi_sys_##id);
#include "systems.def"
#undef VI_SYSTEM

static const VI_X(vi_mech_ops) spring_pendulum_mech = {
    .mass = sp_mass,
    .potential = sp_potential,
    .grad_potential = sp_grad_potential,
    .hess_potential = sp_hess_potential,
};

static const VI_X(vi_holo_ops) spring_pendulum_holo = {
    .constraint = sp_constraint,
    .constraint_jac = sp_constraint_jac,
    .constraint_hess = sp_constraint_hess,
};

const VI_X(vi_system_type) VI_X(vi_sys_spring_pendulum) = {
    .info = &sp_info,
    .state_size = sizeof(sp_state),
    .setup = sp_setup,
    .initial = sp_initial,
    .mech = &spring_pendulum_mech,
    .holo = &spring_pendulum_holo,
};
