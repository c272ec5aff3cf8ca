/* triple_pendulum_tmpl.c: the triple pendulum of man2020 §4.3, eqs (54)-(56),
 * the one system of the papers whose mass matrix depends on q.
 *
 * q1, q2 are the angles of rods 1 and 2 from the downward vertical, (q3,
 * q4) the Cartesian position of bob 3 (q4 pointing down); bob 3 hangs from
 * bob 2 on a third rod of length l, the single constraint (55). With
 * a = m2 l^2, b = (m1 + m2) l^2, c = cos(q1 - q2), s = sin(q1 - q2), (54) is
 * L = 1/2 v'M(q)v - V(q) with
 *   M(q) = [b, a c; a c, a] (+) m3 I_2,
 *   V = -(m1 + m2) gravity l cos q1 - m2 gravity l cos q2 - m3 gravity q4,
 * and (55) g = X^2 + Y^2 - l^2 with X = q3 - l (sin q1 + sin q2),
 * Y = q4 - l (cos q1 + cos q2) (no factor 1/2, so lambda is the paper's).
 * det of the 2 x 2 block is m2 l^4 (m1 + m2 s^2) > 0: M(q) is regular for
 * every q. The derivation of every formula, its finite-difference checks
 * and a check of the motion against a Cartesian model are in
 * NOTES-triple-pendulum.md. The Hamiltonian is the only invariant.
 * Compiled once per precision. */
#include <stddef.h>

#include "prec.h"
#include "numerics_tmpl.h"
#include "api_tmpl.h"

enum { TP_N = 4, TP_M = 1 };

typedef struct tp_state {
  VI_REAL m1, m2, m3, l, gravity;
  VI_REAL a, b; /* m2 l^2, (m1 + m2) l^2 */
  VI_REAL q0[TP_N], v0[TP_N];
} tp_state;

/* Defaults: man2020 §4.3, m1 = m2 = m3 = L = g = 1; q0 is (56),
 * (0, 0, sqrt2/2, 2 + sqrt2/2) to 36 digits (rods 1 and 2 hanging, rod 3
 * at 45 degrees), at rest. For another l the consistent q0 is
 * (0, 0, l sqrt2/2, 2l + l sqrt2/2). */
static const vi_param tp_params[] = {
    {"m1", 1, "1", "mass of bob 1", VI_PARAM_POSITIVE},
    {"m2", 1, "1", "mass of bob 2", VI_PARAM_POSITIVE},
    {"m3", 1, "1", "mass of bob 3", VI_PARAM_POSITIVE},
    {"l", 1, "1", "length of each of the three rods (the paper's L)", VI_PARAM_POSITIVE},
    {"gravity", 1, "1", "gravitational acceleration along +q4 (down)", VI_PARAM_ANY},
    {"q0", TP_N,
     "0,0,"
     "0.707106781186547524400844362104849039,"
     "2.70710678118654752440084436210484904",
     "initial q1, q2 (angles), q3, q4 (bob 3; must satisfy g = 0)", VI_PARAM_ANY},
    {"v0", TP_N, "0,0,0,0", "initial velocities (must satisfy G(q0) v0 = 0)", VI_PARAM_ANY},
    {NULL, 0, NULL, NULL, VI_PARAM_ANY},
};

static const vi_system_info tp_info = {
    .name = "triple-pendulum",
    .summary = "planar triple pendulum, two angles + Cartesian third bob; "
               "configuration-dependent mass matrix",
    .cite = "man2020 §4.3, (54)-(56)",
    .n = TP_N,
    .m = TP_M,
    .n_momenta = 0,
    .momentum_names = NULL,
    .params = tp_params,
};

/* Masses and the length > 0 are their parameters' domains (they make M(q)
 * regular for every q, file comment), q0 and v0 on the constraint is
 * checked by vi_system_alloc: no rule of its own. */
static int tp_setup(void *state, const VI_REAL *par, char *err, size_t errlen) {
  (void)err;
  (void)errlen;
  tp_state *s = state;
  s->m1 = par[0];
  s->m2 = par[1];
  s->m3 = par[2];
  s->l = par[3];
  s->gravity = par[4];
  for (int i = 0; i < TP_N; i++) {
    s->q0[i] = par[5 + i];
    s->v0[i] = par[5 + TP_N + i];
  }
  s->a = s->m2 * s->l * s->l;
  s->b = (s->m1 + s->m2) * s->l * s->l;
  return 0;
}

static void tp_zero(VI_REAL *A) {
  for (int i = 0; i < TP_N * TP_N; i++) {
    A[i] = 0;
  }
}

/* (54): the kinetic energy of the three bobs. */
static int tp_mass_q(const void *state, const VI_REAL *q, VI_REAL *M) {
  const tp_state *s = state;
  VI_REAL ac = s->a * vi_cos(q[0] - q[1]);
  tp_zero(M);
  M[0 * TP_N + 0] = s->b;
  M[0 * TP_N + 1] = ac;
  M[1 * TP_N + 0] = ac;
  M[1 * TP_N + 1] = s->a;
  M[2 * TP_N + 2] = s->m3;
  M[3 * TP_N + 3] = s->m3;
  return 0;
}

/* Only M12 = M21 = a cos(q1 - q2) depends on q: dT/dq = a s v1 v2 (-1, 1,
 * 0, 0); D_q(Mv) has rows (-a s v2, a s v2) and (-a s v1, a s v1) in the
 * (q1, q2) block; d^2T/dq^2 = a c v1 v2 [-1 1; 1 -1] there. */
static int tp_kinetic(const void *state, const VI_REAL *q, const VI_REAL *v,
                      VI_REAL *dTdq, VI_REAL *DqMv, VI_REAL *Tqq) {
  const tp_state *s = state;
  VI_REAL d = q[0] - q[1];
  VI_REAL as = s->a * vi_sin(d), ac = s->a * vi_cos(d);
  VI_REAL w = as * v[0] * v[1];
  dTdq[0] = -w;
  dTdq[1] = w;
  dTdq[2] = 0;
  dTdq[3] = 0;
  if (DqMv != NULL) {
    tp_zero(DqMv);
    DqMv[0 * TP_N + 0] = -as * v[1];
    DqMv[0 * TP_N + 1] = as * v[1];
    DqMv[1 * TP_N + 0] = -as * v[0];
    DqMv[1 * TP_N + 1] = as * v[0];
  }
  if (Tqq != NULL) {
    VI_REAL t = ac * v[0] * v[1];
    tp_zero(Tqq);
    Tqq[0 * TP_N + 0] = -t;
    Tqq[0 * TP_N + 1] = t;
    Tqq[1 * TP_N + 0] = t;
    Tqq[1 * TP_N + 1] = -t;
  }
  return 0;
}

/* (54): V = -gravity (m1 y1 + m2 y2 + m3 q4), y_i the depth of bob i. */
static int tp_potential(const void *state, const VI_REAL *q, VI_REAL *V) {
  const tp_state *s = state;
  VI_REAL gl = s->gravity * s->l;
  *V = -(s->m1 + s->m2) * gl * vi_cos(q[0]) - s->m2 * gl * vi_cos(q[1]) -
       s->m3 * s->gravity * q[3];
  return 0;
}

static int tp_grad_potential(const void *state, const VI_REAL *q,
                             VI_REAL *dV) {
  const tp_state *s = state;
  VI_REAL gl = s->gravity * s->l;
  dV[0] = (s->m1 + s->m2) * gl * vi_sin(q[0]);
  dV[1] = s->m2 * gl * vi_sin(q[1]);
  dV[2] = 0;
  dV[3] = -s->m3 * s->gravity;
  return 0;
}

static int tp_hess_potential(const void *state, const VI_REAL *q, VI_REAL *H) {
  const tp_state *s = state;
  VI_REAL gl = s->gravity * s->l;
  tp_zero(H);
  H[0 * TP_N + 0] = (s->m1 + s->m2) * gl * vi_cos(q[0]);
  H[1 * TP_N + 1] = s->m2 * gl * vi_cos(q[1]);
  return 0;
}

/* Bob 3 minus bob 2: X, Y of (55). */
static void tp_xy(const tp_state *s, const VI_REAL *q, VI_REAL *X, VI_REAL *Y) {
  *X = q[2] - s->l * (vi_sin(q[0]) + vi_sin(q[1]));
  *Y = q[3] - s->l * (vi_cos(q[0]) + vi_cos(q[1]));
}

/* (55). */
static int tp_constraint(const void *state, const VI_REAL *q, VI_REAL *g) {
  const tp_state *s = state;
  VI_REAL X, Y;
  tp_xy(s, q, &X, &Y);
  g[0] = X * X + Y * Y - s->l * s->l;
  return 0;
}

/* G = (2l (Y S1 - X C1), 2l (Y S2 - X C2), 2X, 2Y). */
static int tp_constraint_jac(const void *state, const VI_REAL *q, VI_REAL *G) {
  const tp_state *s = state;
  VI_REAL X, Y;
  tp_xy(s, q, &X, &Y);
  VI_REAL l2 = 2 * s->l;
  G[0] = l2 * (Y * vi_sin(q[0]) - X * vi_cos(q[0]));
  G[1] = l2 * (Y * vi_sin(q[1]) - X * vi_cos(q[1]));
  G[2] = 2 * X;
  G[3] = 2 * Y;
  return 0;
}

/* mu Hess g (NOTES-triple-pendulum.md, "Constraint (55)"). */
static int tp_constraint_hess(const void *state, const VI_REAL *q,
                              const VI_REAL *mu, VI_REAL *H) {
  const tp_state *s = state;
  VI_REAL X, Y;
  tp_xy(s, q, &X, &Y);
  const VI_REAL l = s->l, k = mu[0];
  VI_REAL S1 = vi_sin(q[0]), C1 = vi_cos(q[0]);
  VI_REAL S2 = vi_sin(q[1]), C2 = vi_cos(q[1]);
  VI_REAL h12 = 2 * l * l * vi_cos(q[0] - q[1]);
  H[0 * TP_N + 0] = k * 2 * l * (l + X * S1 + Y * C1);
  H[0 * TP_N + 1] = k * h12;
  H[0 * TP_N + 2] = k * -2 * l * C1;
  H[0 * TP_N + 3] = k * 2 * l * S1;
  H[1 * TP_N + 0] = k * h12;
  H[1 * TP_N + 1] = k * 2 * l * (l + X * S2 + Y * C2);
  H[1 * TP_N + 2] = k * -2 * l * C2;
  H[1 * TP_N + 3] = k * 2 * l * S2;
  H[2 * TP_N + 0] = k * -2 * l * C1;
  H[2 * TP_N + 1] = k * -2 * l * C2;
  H[2 * TP_N + 2] = k * 2;
  H[2 * TP_N + 3] = 0;
  H[3 * TP_N + 0] = k * 2 * l * S1;
  H[3 * TP_N + 1] = k * 2 * l * S2;
  H[3 * TP_N + 2] = 0;
  H[3 * TP_N + 3] = k * 2;
  return 0;
}

static int tp_initial(const void *state, VI_REAL *q0, VI_REAL *v0) {
  const tp_state *s = state;
  for (int i = 0; i < TP_N; i++) {
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

static const VI_X(vi_mech_ops) triple_pendulum_mech = {
    .mass_q = tp_mass_q,
    .kinetic = tp_kinetic,
    .potential = tp_potential,
    .grad_potential = tp_grad_potential,
    .hess_potential = tp_hess_potential,
};

static const VI_X(vi_holo_ops) triple_pendulum_holo = {
    .constraint = tp_constraint,
    .constraint_jac = tp_constraint_jac,
    .constraint_hess = tp_constraint_hess,
};

const VI_X(vi_system_type) VI_X(vi_sys_triple_pendulum) = {
    .info = &tp_info,
    .state_size = sizeof(tp_state),
    .setup = tp_setup,
    .initial = tp_initial,
    .mech = &triple_pendulum_mech,
    .holo = &triple_pendulum_holo,
};
