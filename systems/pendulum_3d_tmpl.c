/* pendulum_3d_tmpl.c: the mathematical pendulum in three dimensions of
 * betsch-ggl §6.1, eqs (92)-(99): a point mass m on a massless rod of
 * length l, q in R^3, M = m I, gravity b = -gravity e3, so the Lagrangian
 * (92) is L = 1/2 m v.v + m b.q and V = -m b.q = m gravity q3; one
 * holonomic constraint in the paper's scaling (93),
 *   g = 1/2 (q.q / l^2 - 1),
 * with the hidden constraint (94) q.p / (m l^2) = 0. The Lagrangian and g
 * are invariant under rotations about e3 (95)-(96); the momentum map (98)
 * is J3 = e3.(q x p), a first integral with the energy. The angular
 * momentum's other components J1, J2 (Fig 10) are listed too, as Jx and
 * Jy, but not marked Noether quantities (momenta_noether): gravity exerts
 * a torque about horizontal axes, so they vary, and every consumer of the
 * maps (the measures' reference, the conformance traces, the tests of
 * tests/test_systems.c) treats an unmarked map as not conserved. Gravity is the scalar along -e3, as in the
 * other pendulums: a tilted b would leave no momentum map at all. No exact
 * solution. Compiled once per precision. */
#include <stddef.h>

#include "prec.h"
#include "numerics_tmpl.h"
#include "api_tmpl.h"

enum { P3_N = 3, P3_M = 1 };

typedef struct p3_state {
  VI_REAL m, l, gravity;
  VI_REAL q0[P3_N], v0[P3_N];
} p3_state;

/* Defaults: betsch-ggl §6.1: m = l = 1, b = -9.81 e3, q0 = (1, 0, 0),
 * v0 = (0, 1, 0) (consistent: |q0| = l, q0.v0 = 0). */
static const vi_param p3_params[] = {
    {"m", 1, "1", "mass of the bob (92)", VI_PARAM_POSITIVE},
    {"l", 1, "1", "rod length (93)", VI_PARAM_POSITIVE},
    {"gravity", 1, "9.81", "gravitational acceleration along -z (b = -gravity e3)",
     VI_PARAM_ANY},
    {"q0", P3_N, "1,0,0", "initial position (must satisfy |q0| = l)", VI_PARAM_ANY},
    {"v0", P3_N, "0,1,0", "initial velocity (must satisfy q0.v0 = 0)", VI_PARAM_ANY},
    {NULL, 0, NULL, NULL, VI_PARAM_ANY},
};

/* q x p (Fig 10): J1, J2, J3 = (98); only J3 is conserved. */
static const char *const p3_momentum_names[] = {"Jx", "Jy", "Jz"};

static const vi_system_info p3_info = {
    .name = "pendulum-3d",
    .summary = "mathematical pendulum in 3D, Cartesian coordinates, one constraint",
    .cite = "betsch-ggl §6.1, (92)-(99)",
    .n = P3_N,
    .m = P3_M,
    .n_momenta = 3,
    .momenta_noether = 1u << 2, /* Jz: rotations about e3 (95)-(98); not Jx, Jy */
    .momentum_names = p3_momentum_names,
    .quadratic = VI_QUADRATIC_V | VI_QUADRATIC_G, /* V linear (gravity), g quadratic */
    .params = p3_params,
};

/* m, l > 0 are their parameters' domains and q0, v0 on the constraint is
 * checked by vi_system_alloc: no rule of its own. */
static int p3_setup(void *state, const VI_REAL *par, char *err, size_t errlen) {
  (void)err;
  (void)errlen;
  p3_state *s = state;
  s->m = par[0];
  s->l = par[1];
  s->gravity = par[2];
  for (int i = 0; i < P3_N; i++) {
    s->q0[i] = par[3 + i];
    s->v0[i] = par[3 + P3_N + i];
  }
  return 0;
}

static int p3_mass(const void *state, VI_REAL *M) {
  const p3_state *s = state;
  for (int i = 0; i < P3_N * P3_N; i++) {
    M[i] = 0;
  }
  for (int i = 0; i < P3_N; i++) {
    M[i * P3_N + i] = s->m;
  }
  return 0;
}

/* V = -m b.q with b = -gravity e3 (92). */
static int p3_potential(const void *state, const VI_REAL *q, VI_REAL *V) {
  const p3_state *s = state;
  *V = s->m * s->gravity * q[2];
  return 0;
}

/* grad V = -m b; (99a) is its negative. */
static int p3_grad_potential(const void *state, const VI_REAL *q, VI_REAL *dV) {
  (void)q;
  const p3_state *s = state;
  dV[0] = 0;
  dV[1] = 0;
  dV[2] = s->m * s->gravity;
  return 0;
}

static int p3_hess_potential(const void *state, const VI_REAL *q, VI_REAL *H) {
  (void)state;
  (void)q;
  for (int i = 0; i < P3_N * P3_N; i++) {
    H[i] = 0;
  }
  return 0;
}

/* (93): g = 1/2 (q.q / l^2 - 1). */
static int p3_constraint(const void *state, const VI_REAL *q, VI_REAL *g) {
  const p3_state *s = state;
  VI_REAL qq = q[0] * q[0] + q[1] * q[1] + q[2] * q[2];
  g[0] = (qq / (s->l * s->l) - 1) / 2;
  return 0;
}

/* G = q' / l^2 (cf. (99e)). */
static int p3_constraint_jac(const void *state, const VI_REAL *q, VI_REAL *G) {
  const p3_state *s = state;
  const VI_REAL l2 = s->l * s->l;
  for (int i = 0; i < P3_N; i++) {
    G[i] = q[i] / l2;
  }
  return 0;
}

/* mu Hess g = mu I / l^2. */
static int p3_constraint_hess(const void *state, const VI_REAL *q, const VI_REAL *mu,
                              VI_REAL *H) {
  (void)q;
  const p3_state *s = state;
  const VI_REAL w = mu[0] / (s->l * s->l);
  for (int i = 0; i < P3_N * P3_N; i++) {
    H[i] = 0;
  }
  for (int i = 0; i < P3_N; i++) {
    H[i * P3_N + i] = w;
  }
  return 0;
}

static int p3_initial(const void *state, VI_REAL *q0, VI_REAL *v0) {
  const p3_state *s = state;
  for (int i = 0; i < P3_N; i++) {
    q0[i] = s->q0[i];
    v0[i] = s->v0[i];
  }
  return 0;
}

/* J = q x p (Fig 10); J3 = e3.(q x p) is (98). */
static int p3_momenta(const void *state, const VI_REAL *q, const VI_REAL *p, VI_REAL *J) {
  (void)state;
  J[0] = q[1] * p[2] - q[2] * p[1];
  J[1] = q[2] * p[0] - q[0] * p[2];
  J[2] = q[0] * p[1] - q[1] * p[0];
  return 0;
}

/* The registry's declarations (systems.def), so that this definition is
 * checked against its entry there. */
#define VI_SYSTEM(id) extern const VI_X(vi_system_type) VI_X(vi_sys_##id);
#include "systems.def"
#undef VI_SYSTEM

static const VI_X(vi_mech_ops) pendulum_3d_mech = {
    .mass = p3_mass,
    .potential = p3_potential,
    .grad_potential = p3_grad_potential,
    .hess_potential = p3_hess_potential,
};

static const VI_X(vi_holo_ops) pendulum_3d_holo = {
    .constraint = p3_constraint,
    .constraint_jac = p3_constraint_jac,
    .constraint_hess = p3_constraint_hess,
};

static const VI_X(vi_obs_ops) pendulum_3d_obs = {
    .momenta = p3_momenta,
};

const VI_X(vi_system_type) VI_X(vi_sys_pendulum_3d) = {
    .info = &p3_info,
    .state_size = sizeof(p3_state),
    .setup = p3_setup,
    .initial = p3_initial,
    .mech = &pendulum_3d_mech,
    .holo = &pendulum_3d_holo,
    .obs = &pendulum_3d_obs,
};
