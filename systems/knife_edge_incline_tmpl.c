/* knife_edge_incline_tmpl.c: a knife edge (a skate) sliding on an inclined
 * plane, Bloch, Nonholonomic Mechanics and Control (2003), §1.6, written in
 * the redundant coordinates q = (x, y, z, phi) of R^3 x S^1 so that it has a
 * holonomic and a nonholonomic constraint at once (no system of
 * ../shared/papers has both; this one proves that the interface carries
 * them together):
 *   L = m/2 |v|^2 + J/2 phidot^2 - m gravity z,
 *   g(q) = z cos(alpha) - x sin(alpha) = 0          (the plane),
 *   Phi(q, v) = A(q) v = 0, A = (-sin phi cos alpha, cos phi,
 *                                -sin phi sin alpha, 0)
 * (no velocity across the blade). With the unit vectors of the plane
 * u1 = (cos alpha, 0, sin alpha) (up the slope) and u2 = (0, 1, 0), the
 * blade points along e = cos phi u1 + sin phi u2 and A' = e_perp =
 * -sin phi u1 + cos phi u2; G' = (-sin alpha, 0, cos alpha, 0) is the unit
 * normal of the plane. In the harness's sign convention (forces -G' lambda
 * and -A' mu):
 *   phidot = omega constant, u = e . v: udot = -gravity sin(alpha) cos phi,
 *   lambda = -m gravity cos(alpha), mu = m gravity sin(alpha) sin phi - m u omega
 * (Bloch (1.6.1)-(1.6.4) in the plane's coordinates). The energy is a first
 * integral (the constraint is linear in v) and so is p_phi = J omega.
 * Exact solution (own derivation, checked against an independent
 * integration in tests/ref_systems.py): with position s u1 + r u2 and
 * Ic = int_0^t cos phi, Is = int_0^t sin phi,
 *   u = u0 - gs Ic,  s = s0 + u0 Ic - gs Ic^2 / 2,
 *   r = r0 + u0 Is - gs (Ic Is / 2 + (omega t - sin(omega t)) / (2 omega^2)),
 * gs = gravity sin(alpha); Ic, Is = t (cos, sin)(phi0 + omega t / 2)
 * sinc(omega t / 2) and the last term by its series for small omega t, so
 * that omega = 0 (straight sliding, s and r quadratic in t) needs no
 * special case. Compiled once per precision. */
#include <stddef.h>

#include "prec.h"
#include "numerics_tmpl.h"
#include "api_tmpl.h"

enum { KE_N = 4 };

typedef struct ke_state {
  VI_REAL m, J, gravity, alpha, ca, sa;
  VI_REAL q0[KE_N], v0[KE_N];
} ke_state;

/* Defaults: a 0.3 rad slope, the blade at phi0 = 0.4 (neither along nor
 * across the slope), s0 = 0.5, r0 = -0.2 on the plane, forward speed
 * u0 = 1.5 and omega = 2 (so u, s, r all oscillate, and r drifts sideways
 * by -gs t / (2 omega)); q0 = s0 u1 + r0 u2, v0 = u0 e + omega d/dphi
 * correctly rounded to 17 digits, within the consistency tolerance in
 * either precision (the harness projects them onto both constraints in
 * the working precision, which leaves s0, r0, u0 and omega unchanged). */
static const vi_param ke_params[] = {
    {"m", 1, "1", "mass", VI_PARAM_POSITIVE},
    {"J", 1, "0.25", "moment of inertia about the plane's normal", VI_PARAM_POSITIVE},
    {"gravity", 1, "9.81", "gravitational acceleration along -z", VI_PARAM_ANY},
    {"alpha", 1, "0.3", "slope of the plane z cos(alpha) = x sin(alpha) (rad)", VI_PARAM_ANY},
    {"q0", KE_N, "0.47766824456280301,-0.2,0.14776010333066979,0.4",
     "initial (x, y, z, phi); on the plane", VI_PARAM_ANY},
    {"v0", KE_N, "1.3198847644218856,0.58412751346297574,0.40828820294314718,2",
     "initial velocity; must be in the plane and along the blade (A(q0) v0 = 0)",
     VI_PARAM_ANY},
    {NULL, 0, NULL, NULL, VI_PARAM_ANY},
};

static const char *const ke_momentum_names[] = {"p_phi"};

static const vi_system_info ke_info = {
    .name = "knife-edge-incline",
    .summary = "knife edge on an inclined plane: one holonomic and one nonholonomic constraint",
    .cite = "Bloch, Nonholonomic Mechanics and Control, §1.6",
    .n = KE_N,
    .m = 1,
    .m_nh = 1,
    .n_momenta = 1,
    .momentum_names = ke_momentum_names,
    .momenta_conserved = 1u, /* p_phi: no force has a phi component */
    .params = ke_params,
};

/* m, J > 0 are their parameters' domains; G and A are independent for
 * every alpha and phi (the plane's normal and a vector in the plane), and
 * q0, v0 on both constraints is checked by vi_system_alloc: no rule of
 * its own. */
static int ke_setup(void *state, const VI_REAL *par, char *err, size_t errlen) {
  (void)err;
  (void)errlen;
  ke_state *s = state;
  s->m = par[0];
  s->J = par[1];
  s->gravity = par[2];
  s->alpha = par[3];
  s->ca = vi_cos(s->alpha);
  s->sa = vi_sin(s->alpha);
  for (int i = 0; i < KE_N; i++) {
    s->q0[i] = par[4 + i];
    s->v0[i] = par[4 + KE_N + i];
  }
  return 0;
}

static int ke_initial(const void *state, VI_REAL *q0, VI_REAL *v0) {
  const ke_state *s = state;
  for (int i = 0; i < KE_N; i++) {
    q0[i] = s->q0[i];
    v0[i] = s->v0[i];
  }
  return 0;
}

static int ke_mass(const void *state, VI_REAL *M) {
  const ke_state *s = state;
  for (int i = 0; i < KE_N * KE_N; i++) {
    M[i] = 0;
  }
  M[0] = M[5] = M[10] = s->m;
  M[15] = s->J;
  return 0;
}

static int ke_potential(const void *state, const VI_REAL *q, VI_REAL *V) {
  const ke_state *s = state;
  *V = s->m * s->gravity * q[2];
  return 0;
}

static int ke_grad_potential(const void *state, const VI_REAL *q, VI_REAL *dV) {
  const ke_state *s = state;
  (void)q;
  dV[0] = dV[1] = dV[3] = 0;
  dV[2] = s->m * s->gravity;
  return 0;
}

static int ke_zero44(const void *state, const VI_REAL *q, VI_REAL *H) {
  (void)state;
  (void)q;
  for (int i = 0; i < KE_N * KE_N; i++) {
    H[i] = 0;
  }
  return 0;
}

/* The plane: g = z cos(alpha) - x sin(alpha), linear, so its Hessian is 0. */
static int ke_constraint(const void *state, const VI_REAL *q, VI_REAL *g) {
  const ke_state *s = state;
  g[0] = q[2] * s->ca - q[0] * s->sa;
  return 0;
}

static int ke_constraint_jac(const void *state, const VI_REAL *q, VI_REAL *G) {
  const ke_state *s = state;
  (void)q;
  G[0] = -s->sa;
  G[1] = 0;
  G[2] = s->ca;
  G[3] = 0;
  return 0;
}

static int ke_constraint_hess(const void *state, const VI_REAL *q, const VI_REAL *lam,
                              VI_REAL *H) {
  (void)lam;
  return ke_zero44(state, q, H);
}

/* A(q) = e_perp(phi) (file comment). */
static int ke_matrix(const void *state, const VI_REAL *q, VI_REAL *A) {
  const ke_state *s = state;
  const VI_REAL sp = vi_sin(q[3]), cp = vi_cos(q[3]);
  A[0] = -sp * s->ca;
  A[1] = cp;
  A[2] = -sp * s->sa;
  A[3] = 0;
  return 0;
}

/* D_q (A(q) w): only phi enters A. */
static int ke_dphi_dq(const void *state, const VI_REAL *q, const VI_REAL *w, VI_REAL *D) {
  const ke_state *s = state;
  const VI_REAL sp = vi_sin(q[3]), cp = vi_cos(q[3]);
  D[0] = D[1] = D[2] = 0;
  D[3] = -cp * s->ca * w[0] - sp * w[1] - cp * s->sa * w[2];
  return 0;
}

/* D_q (A(q)' mu): column phi only, A' mu = mu (-sin phi ca, cos phi,
 * -sin phi sa, 0). */
static int ke_datmu(const void *state, const VI_REAL *q, const VI_REAL *mu, VI_REAL *D) {
  const ke_state *s = state;
  const VI_REAL sp = vi_sin(q[3]), cp = vi_cos(q[3]);
  ke_zero44(state, q, D);
  D[0 * KE_N + 3] = -cp * s->ca * mu[0];
  D[1 * KE_N + 3] = -sp * mu[0];
  D[2 * KE_N + 3] = -cp * s->sa * mu[0];
  return 0;
}

/* p_phi = J phidot, conserved: neither constraint force has a phi
 * component. */
static int ke_momenta(const void *state, const VI_REAL *q, const VI_REAL *p, VI_REAL *I) {
  (void)state;
  (void)q;
  I[0] = p[3];
  return 0;
}

/* (x - sin x) / x^2: its series x/6 - x^3/120 + ... below |x| = 2, where
 * the difference would cancel (x^3/6 against x), the closed form beyond. */
static VI_REAL ke_xsin(VI_REAL x) {
  if (vi_fabs(x) >= 2) {
    return (x - vi_sin(x)) / (x * x);
  }
  VI_REAL term = x / 6, sum = 0;
  for (int k = 1; k < 40 && term != 0; k++) {
    sum += term;
    /* The term of iteration k is +-x^(2k-1) / (2k+1)!; the next one. */
    term *= -x * x / (VI_REAL)((2 * k + 2) * (2 * k + 3));
    if (vi_fabs(term) <= VI_EPS * vi_fabs(sum) / 4) {
      break;
    }
  }
  return sum;
}

/* The exact solution (file comment) from the initial data: s0, r0 the
 * coordinates of q0 in the plane, u0 = e(phi0) . v0. */
static int ke_exact(const void *state, VI_REAL t, VI_REAL *q, VI_REAL *p,
                    VI_REAL *lambda) {
  const ke_state *s = state;
  const VI_REAL ca = s->ca, sa = s->sa;
  const VI_REAL phi0 = s->q0[3], w = s->v0[3];
  const VI_REAL s0 = s->q0[0] * ca + s->q0[2] * sa, r0 = s->q0[1];
  const VI_REAL u0 = vi_cos(phi0) * (s->v0[0] * ca + s->v0[2] * sa) + vi_sin(phi0) * s->v0[1];
  const VI_REAL gs = s->gravity * sa;
  const VI_REAL half = w * t / 2, mid = phi0 + half;
  const VI_REAL sinc = half == 0 ? 1 : vi_sin(half) / half;
  const VI_REAL Ic = t * vi_cos(mid) * sinc, Is = t * vi_sin(mid) * sinc;
  const VI_REAL u = u0 - gs * Ic;
  const VI_REAL sp = s0 + u0 * Ic - gs * Ic * Ic / 2;
  const VI_REAL rp = r0 + u0 * Is - gs * (Ic * Is + t * t * ke_xsin(w * t)) / 2;
  const VI_REAL phi = phi0 + w * t, cp = vi_cos(phi), snp = vi_sin(phi);
  q[0] = sp * ca;
  q[1] = rp;
  q[2] = sp * sa;
  q[3] = phi;
  p[0] = s->m * u * cp * ca;
  p[1] = s->m * u * snp;
  p[2] = s->m * u * cp * sa;
  p[3] = s->J * w;
  lambda[0] = -s->m * s->gravity * ca;
  lambda[1] = s->m * (gs * snp - u * w);
  return 0;
}

/* The registry's declarations (systems.def), so that this definition is
 * checked against its entry there. */
#define VI_SYSTEM(id) extern const VI_X(vi_system_type) VI_X(vi_sys_##id);
#include "systems.def"
#undef VI_SYSTEM

static const VI_X(vi_mech_ops) knife_edge_incline_mech = {
    .mass = ke_mass,
    .potential = ke_potential,
    .grad_potential = ke_grad_potential,
    .hess_potential = ke_zero44,
};

static const VI_X(vi_holo_ops) knife_edge_incline_holo = {
    .constraint = ke_constraint,
    .constraint_jac = ke_constraint_jac,
    .constraint_hess = ke_constraint_hess,
};

static const VI_X(vi_nh_ops) knife_edge_incline_nh = {
    .matrix = ke_matrix,
    .dphi_dq = ke_dphi_dq,
    .datmu = ke_datmu,
};

static const VI_X(vi_obs_ops) knife_edge_incline_obs = {
    .momenta = ke_momenta,
    .exact = ke_exact,
};

const VI_X(vi_system_type) VI_X(vi_sys_knife_edge_incline) = {
    .info = &ke_info,
    .state_size = sizeof(ke_state),
    .setup = ke_setup,
    .initial = ke_initial,
    .mech = &knife_edge_incline_mech,
    .holo = &knife_edge_incline_holo,
    .nh = &knife_edge_incline_nh,
    .obs = &knife_edge_incline_obs,
};
