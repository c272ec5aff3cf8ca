/* double_pendulum_3d_tmpl.c: the spherical double pendulum in Cartesian
 * coordinates, wenger2017 §4: q = (x1, y1, z1, x2, y2, z2), two holonomic
 * constraints g1 = 1/2 (|x1|^2 - l1^2), g2 = 1/2 (|x2 - x1|^2 - l2^2),
 * M = diag(m1, m1, m1, m2, m2, m2), gravity along -z, so by (69)
 * V = gravity (m1 z1 + m2 z2). The Lagrangian is invariant under rotations
 * about the z axis; the momentum map is the z component of the angular
 * momentum, wenger2017 (71). No exact solution. Compiled once per
 * precision. */
#include <stddef.h>

#include "prec.h"
#include "numerics_tmpl.h"
#include "api_tmpl.h"

enum { DP_N = 6, DP_M = 2 };

typedef struct dp_state {
  VI_REAL m1, m2, l1, l2, gravity;
  VI_REAL q0[DP_N], v0[DP_N];
} dp_state;

/* Defaults. wenger2017 gives gravity 9.81 but no masses or lengths; we take
 * unequal, non-round ones (m1 = 1.3, m2 = 0.85, l1 = 1.1, l2 = 0.75) so no
 * symmetry hides a swapped index. q0 puts rod 1 at polar angle 0.7 from
 * the downward vertical and azimuth 0.4, rod 2 at polar angle 1.3 and
 * azimuth 2.1, so the pendulum is bent out of any vertical plane; v0 is
 * v1 = (0.9, -1.7, 0.4) with its component along x1 removed and
 * v2 = v1 + (-1.1, 0.6, 1.4) with its component along x2 - x1 removed,
 * which gives G v0 = 0, a nonzero Jz (-2.339) and a genuinely 3D motion.
 * Computed with 60-digit arithmetic and printed to 36 significant digits,
 * so g(q0) and G(q0) v0 vanish to the rounding of the working precision
 * in quad as well (about 1e-35), not just to the consistency tolerance. */
static const vi_param dp_params[] = {
    {"m1", 1, "1.3", "mass of the first bob", VI_PARAM_POSITIVE},
    {"m2", 1, "0.85", "mass of the second bob", VI_PARAM_POSITIVE},
    {"l1", 1, "1.1", "length of the rod from the origin to bob 1", VI_PARAM_POSITIVE},
    {"l2", 1, "0.75", "length of the rod from bob 1 to bob 2", VI_PARAM_POSITIVE},
    {"gravity", 1, "9.81", "gravitational acceleration along -z", VI_PARAM_ANY},
    {"q0", DP_N,
     "0.652700161697526203281417827956202002,"
     "0.275957202235015747529017096680833577,"
     "-0.8413264060129372688814459892110514,"
     "0.287863714350143422952513937976780336,"
     "0.899771540457500660730123917208840641,"
     "-1.04195052748137782412993407118070492",
     "initial positions x1, y1, z1, x2, y2, z2 (must satisfy g = 0)", VI_PARAM_ANY},
    {"v0", DP_N,
     "1.0177167185212428499628704975435924,"
     "-1.65023016967710955374636996251893573,"
     "0.248263889710801064838262742127080908,"
     "0.238600865011919655172447840241618539,"
     "-1.59889281822705692119635489047426987,"
     "1.82471857358602556456089109686719774",
     "initial velocities (must satisfy G(q0) v0 = 0)", VI_PARAM_ANY},
    {NULL, 0, NULL, NULL, VI_PARAM_ANY},
};

static const char *const dp_momentum_names[] = {"Jz"};

static const vi_system_info dp_info = {
    .name = "double-pendulum-3d",
    .summary = "spherical double pendulum in Cartesian coordinates",
    .cite = "wenger2017 §4, (69), (71)",
    .n = DP_N,
    .m = DP_M,
    .n_momenta = 1,
    .momenta_noether = 1u << 0, /* Jz: rotations about the vertical */
    .momentum_names = dp_momentum_names,
    .quadratic = VI_QUADRATIC_V | VI_QUADRATIC_G,
    .params = dp_params,
};

/* Masses and lengths > 0 are their parameters' domains, q0 and v0 on the
 * constraints is checked by vi_system_alloc: no rule of its own. */
static int dp_setup(void *state, const VI_REAL *par, char *err, size_t errlen) {
  (void)err;
  (void)errlen;
  dp_state *s = state;
  s->m1 = par[0];
  s->m2 = par[1];
  s->l1 = par[2];
  s->l2 = par[3];
  s->gravity = par[4];
  for (int i = 0; i < DP_N; i++) {
    s->q0[i] = par[5 + i];
    s->v0[i] = par[5 + DP_N + i];
  }
  return 0;
}

static int dp_mass(const void *state, VI_REAL *M) {
  const dp_state *s = state;
  for (int i = 0; i < DP_N * DP_N; i++) {
    M[i] = 0;
  }
  for (int i = 0; i < 3; i++) {
    M[i * DP_N + i] = s->m1;
    M[(i + 3) * DP_N + i + 3] = s->m2;
  }
  return 0;
}

/* wenger2017 (69) with gvec = (0, 0, -gravity, 0, 0, -gravity). */
static int dp_potential(const void *state, const VI_REAL *q, VI_REAL *V) {
  const dp_state *s = state;
  *V = s->gravity * (s->m1 * q[2] + s->m2 * q[5]);
  return 0;
}

static int dp_grad_potential(const void *state, const VI_REAL *q,
                             VI_REAL *dV) {
  const dp_state *s = state;
  for (int i = 0; i < DP_N; i++) {
    dV[i] = 0;
  }
  dV[2] = s->gravity * s->m1;
  dV[5] = s->gravity * s->m2;
  return 0;
}

static int dp_hess_potential(const void *state, const VI_REAL *q, VI_REAL *H) {
  for (int i = 0; i < DP_N * DP_N; i++) {
    H[i] = 0;
  }
  return 0;
}

static int dp_constraint(const void *state, const VI_REAL *q, VI_REAL *g) {
  const dp_state *s = state;
  VI_REAL a = 0, b = 0;
  for (int i = 0; i < 3; i++) {
    VI_REAL d = q[3 + i] - q[i];
    a += q[i] * q[i];
    b += d * d;
  }
  g[0] = (a - s->l1 * s->l1) / 2;
  g[1] = (b - s->l2 * s->l2) / 2;
  return 0;
}

/* G = [x1' 0; -(x2 - x1)' (x2 - x1)'], 2 x 6 row-major. */
static int dp_constraint_jac(const void *state, const VI_REAL *q, VI_REAL *G) {
  for (int i = 0; i < 3; i++) {
    VI_REAL d = q[3 + i] - q[i];
    G[i] = q[i];
    G[3 + i] = 0;
    G[DP_N + i] = -d;
    G[DP_N + 3 + i] = d;
  }
  return 0;
}

/* mu1 Hess g1 + mu2 Hess g2 = [(mu1 + mu2) I, -mu2 I; -mu2 I, mu2 I]. */
static int dp_constraint_hess(const void *state, const VI_REAL *q,
                              const VI_REAL *mu, VI_REAL *H) {
  for (int i = 0; i < DP_N * DP_N; i++) {
    H[i] = 0;
  }
  for (int i = 0; i < 3; i++) {
    H[i * DP_N + i] = mu[0] + mu[1];
    H[i * DP_N + i + 3] = -mu[1];
    H[(i + 3) * DP_N + i] = -mu[1];
    H[(i + 3) * DP_N + i + 3] = mu[1];
  }
  return 0;
}

static int dp_initial(const void *state, VI_REAL *q0, VI_REAL *v0) {
  const dp_state *s = state;
  for (int i = 0; i < DP_N; i++) {
    q0[i] = s->q0[i];
    v0[i] = s->v0[i];
  }
  return 0;
}

/* wenger2017 (71): Jz = x1 p_y1 - y1 p_x1 + x2 p_y2 - y2 p_x2. */
static int dp_momenta(const void *state, const VI_REAL *q, const VI_REAL *p,
                      VI_REAL *J) {
  J[0] = q[0] * p[1] - q[1] * p[0] + q[3] * p[4] - q[4] * p[3];
  return 0;
}

/* The registry's declarations (systems.def), so that this definition is
 * checked against its entry there. */
#define VI_SYSTEM(id) extern const VI_X(vi_system_type) VI_X(vi_sys_##id);
#include "systems.def"
#undef VI_SYSTEM

static const VI_X(vi_mech_ops) double_pendulum_3d_mech = {
    .mass = dp_mass,
    .potential = dp_potential,
    .grad_potential = dp_grad_potential,
    .hess_potential = dp_hess_potential,
};

static const VI_X(vi_holo_ops) double_pendulum_3d_holo = {
    .constraint = dp_constraint,
    .constraint_jac = dp_constraint_jac,
    .constraint_hess = dp_constraint_hess,
};

static const VI_X(vi_obs_ops) double_pendulum_3d_obs = {
    .momenta = dp_momenta,
};

const VI_X(vi_system_type) VI_X(vi_sys_double_pendulum_3d) = {
    .info = &dp_info,
    .state_size = sizeof(dp_state),
    .setup = dp_setup,
    .initial = dp_initial,
    .mech = &double_pendulum_3d_mech,
    .holo = &double_pendulum_3d_holo,
    .obs = &double_pendulum_3d_obs,
};
