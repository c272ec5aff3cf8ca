/* nh_curved_tmpl.c: a test-only system, "test-nh-curved": a particle in
 * R^4, q = (x, y, z, w), with a curved holonomic constraint, a
 * nonholonomic one that depends on the configuration and a potential that
 * is not quadratic, so that nothing of a method's energy identity or of
 * its Newton Jacobian is exact by accident (on the registered
 * nonholonomic systems, with linear constraints and quadratic or linear
 * potentials, the plain midpoint rule conserves the energy too). No
 * paper's system: built into the test configuration only (meson option
 * test_families, VI_TEST_SYSTEM in systems.def), where the conformance
 * suite, the derivative checks and the order validation run it.
 *   L = m/2 |v|^2 - V(q),
 *   V = a (x^4 + y^4 + w^4) / 4 + b (x y z + z w),
 *   g(q) = (x^2 + 2 y^2 + x y) / 2 + kappa x^3 / 3 - c = 0,
 *   Phi(q, v) = A(q) v = v_z - y v_x - x v_w = 0,  A = (-y, 0, 1, -x).
 * The constraint manifold is the curve g(x, y) = 0 (arc length s) times
 * R^2 (z, w); the allowed velocities are spanned by X1 = d_s + y x'(s) d_z
 * and X2 = d_w + x d_z, with [X1, X2] = x'(s) d_z outside their span
 * wherever x'(s) != 0: the constraint is not integrable (with one
 * direction of motion fewer it would be, and the system a bead on a space
 * curve, where Lagrange-d'Alembert and vakonomic dynamics coincide). V is
 * symmetric under (x, y) -> (-x, -y) only, a symmetry the kappa term of g
 * breaks. c = g's polynomial at the start point x0, so q0 = x0 is on the
 * surface whatever its value (the parameter is not called q0, whose
 * convention is initial data that may violate g), and v0 = s1 T1 + s2 T2
 * with T1 = (G_y, -G_x, y G_y, 0), T2 = (0, 0, x, 1) (G T = A T = 0). The
 * energy is a first integral (A has no affine part). Compiled once per
 * precision. */
#include <stddef.h>

#include "prec.h"
#include "numerics_tmpl.h"
#include "api_tmpl.h"

enum { NC_N = 4 };

typedef struct nc_state {
  VI_REAL m, a, b, kappa, c, s1, s2;
  VI_REAL x0[NC_N];
} nc_state;

static const vi_param nc_params[] = {
    {"m", 1, "1.3", "mass", VI_PARAM_POSITIVE},
    {"a", 1, "0.7", "coefficient of (x^4 + y^4 + w^4) / 4 in V", VI_PARAM_ANY},
    {"b", 1, "0.45", "coefficient of x y z + z w in V", VI_PARAM_ANY},
    {"kappa", 1, "0.3", "coefficient of x^3 / 3 in g (the curvature)", VI_PARAM_ANY},
    {"x0", NC_N, "0.9,0.4,0.1,-0.3",
     "initial (x, y, z, w), on the surface whatever its value (the surface is drawn through "
     "it)",
     VI_PARAM_ANY},
    {"s1", 1, "0.8", "v0 along T1 = (G_y, -G_x, y G_y, 0)", VI_PARAM_ANY},
    {"s2", 1, "-0.5", "v0 along T2 = (0, 0, x, 1)", VI_PARAM_ANY},
    {NULL, 0, NULL, NULL, VI_PARAM_ANY},
};

static const vi_system_info nc_info = {
    .name = "test-nh-curved",
    .summary = "test-only: a particle in R^4 on a curved constraint with v_z = y v_x + x v_w "
               "and a quartic potential",
    .cite = "tests/systems/nh_curved_tmpl.c",
    .n = NC_N,
    .m = 1,
    .m_nh = 1,
    .params = nc_params,
    .test_only = 1,
};

/* g's polynomial without c. */
static VI_REAL nc_poly(const nc_state *s, const VI_REAL *q) {
  return (q[0] * q[0] + 2 * q[1] * q[1] + q[0] * q[1]) / 2 + s->kappa * q[0] * q[0] * q[0] / 3;
}

static void nc_grad_g(const nc_state *s, const VI_REAL *q, VI_REAL *G) {
  G[0] = q[0] + q[1] / 2 + s->kappa * q[0] * q[0];
  G[1] = 2 * q[1] + q[0] / 2;
  G[2] = 0;
  G[3] = 0;
}

/* m > 0 is its parameter's domain; x0 is on the surface by construction,
 * and a point where grad g = 0 (the origin) is refused by vi_system_alloc
 * as dependent constraint rows: no rule of its own. */
static int nc_setup(void *state, const VI_REAL *par, char *err, size_t errlen) {
  (void)err;
  (void)errlen;
  nc_state *s = state;
  s->m = par[0];
  s->a = par[1];
  s->b = par[2];
  s->kappa = par[3];
  for (int i = 0; i < NC_N; i++) {
    s->x0[i] = par[4 + i];
  }
  s->s1 = par[4 + NC_N];
  s->s2 = par[5 + NC_N];
  s->c = nc_poly(s, s->x0);
  return 0;
}

/* v0 = s1 T1 + s2 T2, both in the kernels of G and A. */
static int nc_initial(const void *state, VI_REAL *q0, VI_REAL *v0) {
  const nc_state *s = state;
  VI_REAL G[NC_N];
  nc_grad_g(s, s->x0, G);
  const VI_REAL x = s->x0[0], y = s->x0[1];
  v0[0] = s->s1 * G[1];
  v0[1] = -s->s1 * G[0];
  v0[2] = s->s1 * y * G[1] + s->s2 * x;
  v0[3] = s->s2;
  for (int i = 0; i < NC_N; i++) {
    q0[i] = s->x0[i];
  }
  return 0;
}

static int nc_mass(const void *state, VI_REAL *M) {
  const nc_state *s = state;
  for (int i = 0; i < NC_N * NC_N; i++) {
    M[i] = i % (NC_N + 1) == 0 ? s->m : 0;
  }
  return 0;
}

static int nc_potential(const void *state, const VI_REAL *q, VI_REAL *V) {
  const nc_state *s = state;
  const VI_REAL x = q[0], y = q[1], z = q[2], w = q[3];
  *V = s->a * (x * x * x * x + y * y * y * y + w * w * w * w) / 4 + s->b * (x * y * z + z * w);
  return 0;
}

static int nc_grad_potential(const void *state, const VI_REAL *q, VI_REAL *dV) {
  const nc_state *s = state;
  const VI_REAL x = q[0], y = q[1], z = q[2], w = q[3];
  dV[0] = s->a * x * x * x + s->b * y * z;
  dV[1] = s->a * y * y * y + s->b * x * z;
  dV[2] = s->b * (x * y + w);
  dV[3] = s->a * w * w * w + s->b * z;
  return 0;
}

static int nc_hess_potential(const void *state, const VI_REAL *q, VI_REAL *H) {
  const nc_state *s = state;
  const VI_REAL x = q[0], y = q[1], z = q[2], w = q[3];
  for (int i = 0; i < NC_N * NC_N; i++) {
    H[i] = 0;
  }
  H[0 * NC_N + 0] = 3 * s->a * x * x;
  H[0 * NC_N + 1] = H[1 * NC_N + 0] = s->b * z;
  H[0 * NC_N + 2] = H[2 * NC_N + 0] = s->b * y;
  H[1 * NC_N + 1] = 3 * s->a * y * y;
  H[1 * NC_N + 2] = H[2 * NC_N + 1] = s->b * x;
  H[2 * NC_N + 3] = H[3 * NC_N + 2] = s->b;
  H[3 * NC_N + 3] = 3 * s->a * w * w;
  return 0;
}

static int nc_constraint(const void *state, const VI_REAL *q, VI_REAL *g) {
  const nc_state *s = state;
  g[0] = nc_poly(s, q) - s->c;
  return 0;
}

static int nc_constraint_jac(const void *state, const VI_REAL *q, VI_REAL *G) {
  nc_grad_g(state, q, G);
  return 0;
}

/* mu Hess g. */
static int nc_constraint_hess(const void *state, const VI_REAL *q, const VI_REAL *mu,
                              VI_REAL *H) {
  const nc_state *s = state;
  for (int i = 0; i < NC_N * NC_N; i++) {
    H[i] = 0;
  }
  H[0 * NC_N + 0] = mu[0] * (1 + 2 * s->kappa * q[0]);
  H[0 * NC_N + 1] = H[1 * NC_N + 0] = mu[0] / 2;
  H[1 * NC_N + 1] = 2 * mu[0];
  return 0;
}

/* A(q) = (-y, 0, 1, -x). */
static int nc_matrix(const void *state, const VI_REAL *q, VI_REAL *A) {
  (void)state;
  A[0] = -q[1];
  A[1] = 0;
  A[2] = 1;
  A[3] = -q[0];
  return 0;
}

/* D_q (A(q) u) = D_q (u_z - y u_x - x u_w) = (-u_w, -u_x, 0, 0). */
static int nc_dphi_dq(const void *state, const VI_REAL *q, const VI_REAL *u, VI_REAL *D) {
  (void)state;
  (void)q;
  D[0] = -u[3];
  D[1] = -u[0];
  D[2] = 0;
  D[3] = 0;
  return 0;
}

/* D_q (A(q)' mu), A' mu = (-y mu, 0, mu, -x mu): [x][y] = -mu, [w][x] = -mu. */
static int nc_datmu(const void *state, const VI_REAL *q, const VI_REAL *mu, VI_REAL *D) {
  (void)state;
  (void)q;
  for (int i = 0; i < NC_N * NC_N; i++) {
    D[i] = 0;
  }
  D[0 * NC_N + 1] = -mu[0];
  D[3 * NC_N + 0] = -mu[0];
  return 0;
}

/* The registry's declarations (systems.def), so that this definition is
 * checked against its entry there. */
#define VI_SYSTEM(id) extern const VI_X(vi_system_type) VI_X(vi_sys_##id);
#define VI_TEST_SYSTEM(id) VI_SYSTEM(id)
#include "systems.def"
#undef VI_TEST_SYSTEM
#undef VI_SYSTEM

static const VI_X(vi_mech_ops) nh_curved_mech = {
    .mass = nc_mass,
    .potential = nc_potential,
    .grad_potential = nc_grad_potential,
    .hess_potential = nc_hess_potential,
};

static const VI_X(vi_holo_ops) nh_curved_holo = {
    .constraint = nc_constraint,
    .constraint_jac = nc_constraint_jac,
    .constraint_hess = nc_constraint_hess,
};

static const VI_X(vi_nh_ops) nh_curved_nh = {
    .matrix = nc_matrix,
    .dphi_dq = nc_dphi_dq,
    .datmu = nc_datmu,
};

const VI_X(vi_system_type) VI_X(vi_sys_nh_curved) = {
    .info = &nc_info,
    .state_size = sizeof(nc_state),
    .setup = nc_setup,
    .initial = nc_initial,
    .mech = &nh_curved_mech,
    .holo = &nh_curved_holo,
    .nh = &nh_curved_nh,
};
