/* planar_pendulum.c: the planar pendulum in redundant coordinates,
 * wenger2017 §4 and (69): q = (x, y), one holonomic constraint
 * g = 1/2 (x^2 + y^2 - l^2), M = m I, gravity along -y, so V = m gravity y
 * (L = 1/2 qdot'M qdot + (M gvec)' q with gvec = (0, -gravity)). The exact
 * solution of the libration regime uses Jacobi elliptic functions (DLMF
 * §22.19(i), the pendulum):
 * sin(phi/2) = k sn(w t + u0, k), phidot = 2 k w cn(w t + u0, k) with
 * w = sqrt(gravity / l), evaluated with GSL (gsl_sf_elljac_e,
 * gsl_sf_ellint_F, gsl_sf_ellint_Kcomp). Compiled once per precision. */
#include <stddef.h>

#include "prec.h"
#include "numerics_tmpl.h"
#include "api_tmpl.h"

#ifndef VI_PREC_Q
#include <gsl/gsl_mode.h>
#include <gsl/gsl_sf_ellint.h>
#include <gsl/gsl_sf_elljac.h>
#endif

enum { PP_N = 2, PP_M = 1 };

/* Regimes of the exact solution (double only). */
enum { PP_RESTING = 0, PP_LIBRATION = 1, PP_ROTATION = 2 };

typedef struct pp_state {
  VI_REAL m, l, gravity, phi0, omega0;
#ifndef VI_PREC_Q
  int regime;
  double w;  /* sqrt(gravity / l) */
  double k;  /* modulus, k^2 = sin^2(phi0/2) + (omega0 / (2 w))^2 */
  double u0; /* sn(u0) = sin(phi0/2) / k, cn(u0) = omega0 / (2 k w) */
  double K4; /* the period 4 K(k) of sn and cn */
#endif
} pp_state;

/* Defaults: m = l = 1 and gravity = 9.81 as in wenger2017 §4; phi0 = 0.9
 * rather than a round angle so that sin and cos of it are both far from 0
 * and 1 (no symmetric special case hides a sign error), and large enough
 * (k = sin 0.45 = 0.43) that the motion is clearly nonlinear. */
static const vi_param pp_params[] = {
    {"m", 1, "1", "mass"},
    {"l", 1, "1", "rod length"},
    {"gravity", 1, "9.81", "gravitational acceleration along -y"},
    {"phi0", 1, "0.9", "initial angle from the downward vertical (rad)"},
    {"omega0", 1, "0", "initial angular velocity (rad/s)"},
    {NULL, 0, NULL, NULL},
};

static const vi_system_info pp_info = {
    .name = "planar-pendulum",
    .summary = "planar pendulum in Cartesian coordinates, one constraint",
    .cite = "wenger2017 (69)",
    .n = PP_N,
    .m = PP_M,
    /* The exact solution is double only: GSL's elliptic functions are. The
     * quad variant therefore does not advertise it (intentional for now). */
#ifndef VI_PREC_Q
    .caps = VI_CAP_MECHANICAL | VI_CAP_HOLONOMIC | VI_CAP_EXACT,
#else
    .caps = VI_CAP_MECHANICAL | VI_CAP_HOLONOMIC,
#endif
    .n_momenta = 0,
    .momentum_names = NULL,
    .params = pp_params,
};

static int pp_setup(void *state, const VI_REAL *par) {
  pp_state *s = state;
  s->m = par[0];
  s->l = par[1];
  s->gravity = par[2];
  s->phi0 = par[3];
  s->omega0 = par[4];
  if (!(s->m > 0) || !(s->l > 0)) {
    return -1;
  }
#ifndef VI_PREC_Q
  s->regime = PP_ROTATION;
  s->w = s->k = s->u0 = s->K4 = 0;
  if (!(s->gravity > 0)) {
    /* No restoring force: the exact solution below does not apply. */
    return 0;
  }
  s->w = sqrt(s->gravity / s->l);
  /* The half-angle formulas need phi0 in (-pi, pi] (cos(phi/2) = dn > 0). */
  double phr = atan2(sin(s->phi0), cos(s->phi0));
  double sa = sin(phr / 2), ca = s->omega0 / (2 * s->w);
  s->k = hypot(sa, ca);
  if (s->k == 0) {
    s->regime = PP_RESTING;
  } else if (s->k < 1) {
    s->regime = PP_LIBRATION;
    /* The amplitude am(u0) has sin = sa / k and cos = ca / k; GSL's
     * ellint_F takes the modulus k and reduces any amplitude to
     * [-pi/2, pi/2] plus multiples of 2K, so the branch is right for all
     * four quadrants. */
    s->u0 = gsl_sf_ellint_F(atan2(sa, ca), s->k, GSL_PREC_DOUBLE);
    s->K4 = 4 * gsl_sf_ellint_Kcomp(s->k, GSL_PREC_DOUBLE);
    /* Past pi/2 GSL adds multiples of 2K to the reduced integral and loses
     * a few ulp of u0 (1.7e-15 measured for k = 0.965), a phase error
     * that persists for all t. Two Newton steps on sn(u0) = sa / k (or on
     * cn(u0) = ca / k near a turning point, where d sn / du = cn dn is
     * small) bring it to the accuracy of elljac. */
    for (int it = 0; it < 2; it++) {
      double sn, cn, dn;
      if (gsl_sf_elljac_e(s->u0, s->k * s->k, &sn, &cn, &dn) != 0 ||
          dn == 0) {
        break;
      }
      if (fabs(cn) >= fabs(sn)) {
        s->u0 -= (sn - sa / s->k) / (cn * dn);
      } else {
        s->u0 += (cn - ca / s->k) / (sn * dn);
      }
    }
  }
  /* k >= 1: rotation (or the separatrix), where sin(phi/2) = sn(k w t, 1/k)
   * would be needed instead; not implemented, exact reports it. */
#endif
  return 0;
}

static int pp_mass(const void *state, VI_REAL *M) {
  const pp_state *s = state;
  M[0] = s->m;
  M[1] = 0;
  M[2] = 0;
  M[3] = s->m;
  return 0;
}

/* wenger2017 (69): V = -(M gvec)' q = m gravity y. */
static int pp_potential(const void *state, const VI_REAL *q, VI_REAL *V) {
  const pp_state *s = state;
  *V = s->m * s->gravity * q[1];
  return 0;
}

static int pp_grad_potential(const void *state, const VI_REAL *q,
                             VI_REAL *dV) {
  const pp_state *s = state;
  dV[0] = 0;
  dV[1] = s->m * s->gravity;
  return 0;
}

static int pp_hess_potential(const void *state, const VI_REAL *q, VI_REAL *H) {
  for (int i = 0; i < PP_N * PP_N; i++) {
    H[i] = 0;
  }
  return 0;
}

/* wenger2017 §4: g = 1/2 (x^2 + y^2 - l^2). */
static int pp_constraint(const void *state, const VI_REAL *q, VI_REAL *g) {
  const pp_state *s = state;
  g[0] = (q[0] * q[0] + q[1] * q[1] - s->l * s->l) / 2;
  return 0;
}

static int pp_constraint_jac(const void *state, const VI_REAL *q,
                             VI_REAL *G) {
  G[0] = q[0];
  G[1] = q[1];
  return 0;
}

static int pp_constraint_hess(const void *state, const VI_REAL *q,
                              const VI_REAL *mu, VI_REAL *H) {
  H[0] = mu[0];
  H[1] = 0;
  H[2] = 0;
  H[3] = mu[0];
  return 0;
}

/* q0 = l (sin phi0, -cos phi0), v0 = l omega0 (cos phi0, sin phi0). */
static int pp_initial(const void *state, VI_REAL *q0, VI_REAL *v0) {
  const pp_state *s = state;
  VI_REAL sp = vi_sin(s->phi0), cp = vi_cos(s->phi0);
  q0[0] = s->l * sp;
  q0[1] = -s->l * cp;
  v0[0] = s->l * s->omega0 * cp;
  v0[1] = s->l * s->omega0 * sp;
  return 0;
}

#ifndef VI_PREC_Q
/* With sin(phi/2) = k sn and cos(phi/2) = dn (libration keeps
 * |phi| < pi): sin phi = 2 k sn dn, cos phi = dn^2 - k^2 sn^2, and
 * phidot = 2 k w cn. The multiplier follows from the radial component of
 * m qdd = -grad V - lambda q (G' = q): -m l phidot^2 = m gravity cos phi -
 * lambda l, so lambda = m (l phidot^2 + gravity cos phi) / l. */
static int pp_exact(const void *state, double t, double *q, double *p,
                    double *lambda) {
  const pp_state *s = state;
  double sphi, cphi, phidot;
  if (s->regime == PP_RESTING) {
    sphi = 0;
    cphi = 1;
    phidot = 0;
  } else if (s->regime == PP_LIBRATION) {
    double u = s->w * t + s->u0;
    /* Reduce to one period, [-2K, 2K), so that elljac works on a small
     * argument; symmetric so that u = u0 in (-2K, 2K] at t = 0 is left
     * alone (adding 4K to a negative u0 costs an ulp of 4K). */
    u -= s->K4 * floor(u / s->K4 + 0.5);
    double sn, cn, dn;
    if (gsl_sf_elljac_e(u, s->k * s->k, &sn, &cn, &dn) != 0) {
      return VI_ECALLBACK;
    }
    sphi = 2 * s->k * sn * dn;
    cphi = dn * dn - s->k * s->k * sn * sn;
    phidot = 2 * s->k * s->w * cn;
  } else {
    return VI_EUNSUPPORTED;
  }
  q[0] = s->l * sphi;
  q[1] = -s->l * cphi;
  p[0] = s->m * s->l * phidot * cphi;
  p[1] = s->m * s->l * phidot * sphi;
  lambda[0] = s->m * (s->l * phidot * phidot + s->gravity * cphi) / s->l;
  return 0;
}
#endif

/* The registry's declarations (systems.def), so that this definition is
 * checked against its entry there. */
#define VI_SYSTEM(id) extern const VI_X(vi_system_type) VI_X(vi_sys_##id);
#include "systems.def"
#undef VI_SYSTEM

const VI_X(vi_system_type) VI_X(vi_sys_planar_pendulum) = {
    .info = &pp_info,
    .state_size = sizeof(pp_state),
    .setup = pp_setup,
    .mass = pp_mass,
    .potential = pp_potential,
    .grad_potential = pp_grad_potential,
    .hess_potential = pp_hess_potential,
    .constraint = pp_constraint,
    .constraint_jac = pp_constraint_jac,
    .constraint_hess = pp_constraint_hess,
    .initial = pp_initial,
    .momenta = NULL,
#ifndef VI_PREC_Q
    .exact = pp_exact,
#else
    /* GSL's elliptic functions are double only (see pp_info). */
    .exact = NULL,
#endif
};
