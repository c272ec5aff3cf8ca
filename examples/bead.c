/* bead.c: a bead of mass m on the ellipse (x/a)^2 + (y/b)^2 = 1 in a
 * vertical plane, gravity along -y: L = m/2 |v|^2 - m gravity y with one
 * holonomic constraint g(q) = (x/a)^2 + (y/b)^2 - 1. Everything a
 * constrained family needs: M, V and its derivatives, g and its
 * derivatives (core/api_tmpl.h, vi_mech_ops and vi_holo_ops). */
#include "bead.h"

typedef struct bead {
  double m, a, b, gravity, q0[2], v0[2];
} bead;

/* Parameters, their defaults and domains: `set` strings "a=1.5" override
 * them, vi_system_alloc checks them and that (q0, v0) lies on g = 0 and
 * G v = 0. */
static const vi_param params[] = {
    {"m", 1, "1", "mass of the bead", VI_PARAM_POSITIVE},
    {"a", 1, "2", "half axis along x", VI_PARAM_POSITIVE},
    {"b", 1, "1", "half axis along y", VI_PARAM_POSITIVE},
    {"gravity", 1, "1", "gravitational acceleration along -y", VI_PARAM_ANY},
    {"q0", 2, "2,0", "initial position, on the ellipse", VI_PARAM_ANY},
    {"v0", 2, "0,1", "initial velocity, tangent to it", VI_PARAM_ANY},
    {NULL, 0, NULL, NULL, VI_PARAM_ANY},
};

static const vi_system_info info = {
    .name = "bead-on-ellipse",
    .summary = "a bead on an ellipse in a vertical plane",
    .cite = "examples/bead.c",
    .n = 2,
    .m = 1,
    .quadratic = VI_QUADRATIC_V | VI_QUADRATIC_G,
    .params = params,
};

static int setup(void *state, const double *par, char *err, size_t errlen) {
  (void)err, (void)errlen;
  bead *s = state;
  *s = (bead){par[0], par[1], par[2], par[3], {par[4], par[5]}, {par[6], par[7]}};
  return 0;
}

static int initial(const void *state, double *q0, double *v0) {
  const bead *s = state;
  q0[0] = s->q0[0], q0[1] = s->q0[1], v0[0] = s->v0[0], v0[1] = s->v0[1];
  return 0;
}

static int mass(const void *state, double *M) { /* 2 x 2, row-major */
  const bead *s = state;
  M[0] = M[3] = s->m, M[1] = M[2] = 0;
  return 0;
}

static int potential(const void *state, const double *q, double *V) {
  const bead *s = state;
  *V = s->m * s->gravity * q[1];
  return 0;
}

static int grad_potential(const void *state, const double *q, double *dV) {
  const bead *s = state;
  (void)q;
  dV[0] = 0, dV[1] = s->m * s->gravity;
  return 0;
}

static int hess_potential(const void *state, const double *q, double *H) {
  (void)state, (void)q;
  H[0] = H[1] = H[2] = H[3] = 0;
  return 0;
}

static int constraint(const void *state, const double *q, double *g) {
  const bead *s = state;
  g[0] = q[0] * q[0] / (s->a * s->a) + q[1] * q[1] / (s->b * s->b) - 1;
  return 0;
}

static int constraint_jac(const void *state, const double *q, double *G) { /* 1 x 2 */
  const bead *s = state;
  G[0] = 2 * q[0] / (s->a * s->a), G[1] = 2 * q[1] / (s->b * s->b);
  return 0;
}

/* sum_k mu_k Hess g_k (2 x 2) */
static int constraint_hess(const void *state, const double *q, const double *mu, double *H) {
  const bead *s = state;
  (void)q;
  H[0] = 2 * mu[0] / (s->a * s->a), H[1] = H[2] = 0, H[3] = 2 * mu[0] / (s->b * s->b);
  return 0;
}

static const vi_mech_ops_d mech = {.mass = mass, .potential = potential,
                                   .grad_potential = grad_potential,
                                   .hess_potential = hess_potential};
static const vi_holo_ops_d holo = {.constraint = constraint, .constraint_jac = constraint_jac,
                                   .constraint_hess = constraint_hess};

const vi_system_type_d bead_on_ellipse = {
    .info = &info,
    .state_size = sizeof(bead),
    .setup = setup,
    .initial = initial,
    .mech = &mech,
    .holo = &holo,
};
