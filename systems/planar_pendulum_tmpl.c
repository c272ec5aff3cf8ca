/* planar_pendulum_tmpl.c: the planar pendulum in redundant coordinates,
 * wenger2017 §4 and (69): q = (x, y), one holonomic constraint
 * g = 1/2 (x^2 + y^2 - l^2), M = m I, gravity along -y, so V = m gravity y
 * (L = 1/2 qdot'M qdot + (M gvec)' q with gvec = (0, -gravity)). The exact
 * solution of the libration regime uses Jacobi elliptic functions (DLMF
 * §22.19(i), the pendulum):
 * sin(phi/2) = k sn(w t + u0, k), phidot = 2 k w cn(w t + u0, k) with
 * w = sqrt(gravity / l). In double they come from GSL (gsl_sf_elljac_e,
 * gsl_sf_ellint_F, gsl_sf_ellint_Kcomp); in quad from the descending Landen
 * transformation / arithmetic-geometric mean of Abramowitz & Stegun 16.4
 * (amplitude am, hence sn, cn, dn) and 17.6 (K(k) = pi / (2 AGM(1, k'))),
 * written here in the working precision, with u0 from a safeguarded Newton
 * iteration on am(u0) = theta0. Compiled once per precision. */
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

/* Regimes of the exact solution. */
enum { PP_RESTING = 0, PP_LIBRATION = 1, PP_ROTATION = 2 };

#ifdef VI_PREC_Q
/* Levels of the arithmetic-geometric mean kept for the Landen recursion.
 * The AGM converges quadratically: c_n / a_n < 1e-34 after 7 levels even
 * for k = 1 - 1e-12, so 24 is never reached for k < 1. */
enum { PP_AGM_MAX = 24 };
#endif

typedef struct pp_state {
  VI_REAL m, l, gravity, phi0, omega0;
  int regime;
  VI_REAL w;  /* sqrt(gravity / l) */
  VI_REAL k;  /* modulus, k^2 = sin^2(phi0/2) + (omega0 / (2 w))^2 */
  VI_REAL u0; /* sn(u0) = sin(phi0/2) / k, cn(u0) = omega0 / (2 k w) */
  VI_REAL K4; /* the period 4 K(k) of sn and cn */
#ifdef VI_PREC_Q
  VI_REAL kp2; /* k'^2 = 1 - k^2, computed without cancellation */
  int nagm;    /* levels N of the AGM: c_N / a_N below eps */
  VI_REAL aN;  /* a_N = AGM(1, k') */
  VI_REAL r[PP_AGM_MAX + 1]; /* r_n = c_n / a_n, n = 1..N */
#endif
} pp_state;

/* Defaults: m = l = 1 and gravity = 9.81 as in wenger2017 §4; phi0 = 0.9
 * rather than a round angle so that sin and cos of it are both far from 0
 * and 1 (no symmetric special case hides a sign error), and large enough
 * (k = sin 0.45 = 0.43) that the motion is clearly nonlinear. */
static const vi_param pp_params[] = {
    {"m", 1, "1", "mass", VI_PARAM_POSITIVE},
    {"l", 1, "1", "rod length", VI_PARAM_POSITIVE},
    {"gravity", 1, "9.81", "gravitational acceleration along -y", VI_PARAM_ANY},
    {"phi0", 1, "0.9", "initial angle from the downward vertical (rad)", VI_PARAM_ANY},
    {"omega0", 1, "0", "initial angular velocity (rad/s)", VI_PARAM_ANY},
    {NULL, 0, NULL, NULL, VI_PARAM_ANY},
};

static const vi_system_info pp_info = {
    .name = "planar-pendulum",
    .summary = "planar pendulum in Cartesian coordinates, one constraint",
    .cite = "wenger2017 (69)",
    .n = PP_N,
    .m = PP_M,
    /* Exact in both precisions: GSL in double, A&S 16.4 in quad. */
    .n_momenta = 0,
    .momentum_names = NULL,
    .quadratic = VI_QUADRATIC_V | VI_QUADRATIC_G,
    .params = pp_params,
};

#ifdef VI_PREC_Q
/* ---- Jacobi elliptic functions in quad precision ------------------------
 *
 * Why hand-written: GSL's special functions are double only, and Debian 12
 * packages no quad-precision special-function library (libquadmath has no
 * elliptic functions; Boost.Math's are C++ templates and MPFR/Arb would add
 * a dependency for three functions). The descending Landen transformation
 * is short, needs only sin and asin, and is accurate to a few ulp.
 *
 * A&S 16.4 (the AGM scale, 17.6.1-17.6.2): a_0 = 1, b_0 = k', c_0 = k,
 *   a_n = (a_{n-1} + b_{n-1}) / 2, b_n = sqrt(a_{n-1} b_{n-1}),
 *   c_n = (a_{n-1} - b_{n-1}) / 2 = c_{n-1}^2 / (4 a_n),
 * the last form free of the cancellation a_{n-1} - b_{n-1} suffers once the
 * AGM has converged. With c_N / a_N below eps, A&S 16.4.3:
 *   phi_N = 2^N a_N u,
 *   phi_{n-1} = (phi_n + asin((c_n / a_n) sin phi_n)) / 2, n = N..1,
 * and am(u) = phi_0, sn u = sin phi_0, cn u = cos phi_0. Each backward step
 * halves the error of phi_n (d/dphi asin(r sin phi) <= r < 1), so the
 * absolute error of am(u) stays at a few ulp of u. The same AGM gives
 * K(k) = pi / (2 a_N) (A&S 17.6.3-17.6.4). dn is taken as
 * sqrt(cn^2 + k'^2 sn^2) rather than A&S's cos phi_0 / cos(phi_1 - phi_0),
 * which is 0 / 0 at u = K; the sum of squares has no cancellation. */

/* The AGM scale of the modulus k (k'^2 = kp2 given, 0 <= k < 1). */
static void pp_agm(pp_state *s) {
  VI_REAL a = 1, b = vi_sqrt(s->kp2), c = s->k;
  int n = 0;
  while (n < PP_AGM_MAX && c > VI_EPS * a / 4) {
    VI_REAL an = (a + b) / 2;
    VI_REAL bn = vi_sqrt(a * b);
    c = c * c / (4 * an);
    a = an;
    b = bn;
    n++;
    s->r[n] = c / a;
  }
  s->nagm = n;
  s->aN = a;
}

/* The amplitude am(u, k) by A&S 16.4.3; continuous and increasing in u,
 * am(u + 2K) = am(u) + pi. */
static VI_REAL pp_am(const pp_state *s, VI_REAL u) {
  VI_REAL phi = vi_ldexp(s->aN, s->nagm) * u;
  for (int n = s->nagm; n >= 1; n--) {
    phi = (phi + vi_asin(s->r[n] * vi_sin(phi))) / 2;
  }
  return phi;
}

/* sn, cn, dn at u from the amplitude. */
static void pp_elljac(const pp_state *s, VI_REAL u, VI_REAL *sn, VI_REAL *cn,
                      VI_REAL *dn) {
  VI_REAL phi = pp_am(s, u);
  *sn = vi_sin(phi);
  *cn = vi_cos(phi);
  *dn = vi_sqrt(*cn * *cn + s->kp2 * *sn * *sn);
}

/* The initial phase: am(u0) = theta0 in (-pi, pi], i.e. sn(u0) = sin
 * theta0, cn(u0) = cos theta0 with the branch fixed by both. am is
 * increasing with am(+-2K) = +-pi, so the root lies in [-2K, 2K]; Newton
 * with d am / du = dn >= k' > 0, safeguarded by bisection of that bracket
 * (Numerical Recipes' rtsafe idea), converges from the linear guess
 * theta0 2K / pi, which is exact at 0 and +-pi. */
static VI_REAL pp_phase(const pp_state *s, VI_REAL theta0) {
  VI_REAL K2 = s->K4 / 2;
  VI_REAL lo = -K2, hi = K2;
  VI_REAL u = theta0 * K2 / VI_PI;
  for (int it = 0; it < 200; it++) {
    VI_REAL phi = pp_am(s, u);
    VI_REAL f = phi - theta0;
    if (f == 0) {
      break;
    }
    if (f < 0) {
      lo = u;
    } else {
      hi = u;
    }
    VI_REAL sn = vi_sin(phi), cn = vi_cos(phi);
    VI_REAL dn = vi_sqrt(cn * cn + s->kp2 * sn * sn);
    VI_REAL un = u - f / dn;
    if (!(un > lo && un < hi)) {
      un = (lo + hi) / 2;
    }
    VI_REAL du = vi_fabs(un - u);
    u = un;
    if (du <= VI_EPS * (K2 > 1 ? K2 : 1) / 4 || !(hi > lo)) {
      break;
    }
  }
  return u;
}
#endif

/* m, l > 0 are their parameters' domains; q0, v0 are made from the angle,
 * on the constraint for every phi0 and omega0: no rule of its own. */
static int pp_setup(void *state, const VI_REAL *par, char *err, size_t errlen) {
  (void)err;
  (void)errlen;
  pp_state *s = state;
  s->m = par[0];
  s->l = par[1];
  s->gravity = par[2];
  s->phi0 = par[3];
  s->omega0 = par[4];
  s->regime = PP_ROTATION;
  s->w = s->k = s->u0 = s->K4 = 0;
#ifdef VI_PREC_Q
  s->kp2 = 1;
  s->nagm = 0;
  s->aN = 1;
  if (!(s->gravity > 0)) {
    return 0;
  }
  s->w = vi_sqrt(s->gravity / s->l);
  /* As in double: phi0 reduced to (-pi, pi] for the half-angle formulas. */
  VI_REAL phr = vi_atan2(vi_sin(s->phi0), vi_cos(s->phi0));
  VI_REAL sa = vi_sin(phr / 2), chalf = vi_cos(phr / 2);
  VI_REAL ca = s->omega0 / (2 * s->w);
  s->k = vi_sqrt(sa * sa + ca * ca);
  /* k'^2 = 1 - sin^2(phi0/2) - ca^2 = (cos(phi0/2) - |ca|)(cos(phi0/2) +
   * |ca|): no cancellation against 1 near the separatrix, where the phase
   * (through K(k) ~ log(4 / k')) is most sensitive to k'. */
  s->kp2 = (chalf - vi_fabs(ca)) * (chalf + vi_fabs(ca));
  if (s->k == 0) {
    s->regime = PP_RESTING;
  } else if (s->kp2 > 0) {
    s->regime = PP_LIBRATION;
    pp_agm(s);
    s->K4 = 2 * VI_PI / s->aN; /* 4 K, K = pi / (2 a_N) */
    s->u0 = pp_phase(s, vi_atan2(sa, ca));
  }
  /* kp2 <= 0: rotation or the separatrix, as in double. */
#else
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

/* With sin(phi/2) = k sn and cos(phi/2) = dn (libration keeps
 * |phi| < pi): sin phi = 2 k sn dn, cos phi = dn^2 - k^2 sn^2, and
 * phidot = 2 k w cn. The multiplier follows from the radial component of
 * m qdd = -grad V - lambda q (G' = q): -m l phidot^2 = m gravity cos phi -
 * lambda l, so lambda = m (l phidot^2 + gravity cos phi) / l. */
static int pp_exact(const void *state, VI_REAL t, VI_REAL *q, VI_REAL *p,
                    VI_REAL *lambda) {
  const pp_state *s = state;
  VI_REAL sphi, cphi, phidot;
  if (s->regime == PP_RESTING) {
    sphi = 0;
    cphi = 1;
    phidot = 0;
  } else if (s->regime == PP_LIBRATION) {
#ifdef VI_PREC_Q
    /* The same reduction to [-2K, 2K) as in double (below); the amplitude
     * of A&S 16.4 is then within [-pi, pi). */
    VI_REAL u = s->w * t + s->u0;
    u -= s->K4 * vi_floor(u / s->K4 + VI_C(0.5));
    VI_REAL sn, cn, dn;
    pp_elljac(s, u, &sn, &cn, &dn);
#else
    double u = s->w * t + s->u0;
    /* Reduce to one period, [-2K, 2K), so that elljac works on a small
     * argument; symmetric so that u = u0 in (-2K, 2K] at t = 0 is left
     * alone (adding 4K to a negative u0 costs an ulp of 4K). */
    u -= s->K4 * floor(u / s->K4 + 0.5);
    double sn, cn, dn;
    if (gsl_sf_elljac_e(u, s->k * s->k, &sn, &cn, &dn) != 0) {
      return VI_ECALLBACK;
    }
#endif
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

/* The registry's declarations (systems.def), so that this definition is
 * checked against its entry there. */
#define VI_SYSTEM(id) extern const VI_X(vi_system_type) VI_X(vi_sys_##id);
#include "systems.def"
#undef VI_SYSTEM

static const VI_X(vi_mech_ops) planar_pendulum_mech = {
    .mass = pp_mass,
    .potential = pp_potential,
    .grad_potential = pp_grad_potential,
    .hess_potential = pp_hess_potential,
};

static const VI_X(vi_holo_ops) planar_pendulum_holo = {
    .constraint = pp_constraint,
    .constraint_jac = pp_constraint_jac,
    .constraint_hess = pp_constraint_hess,
};

static const VI_X(vi_obs_ops) planar_pendulum_obs = {
    .exact = pp_exact,
};

const VI_X(vi_system_type) VI_X(vi_sys_planar_pendulum) = {
    .info = &pp_info,
    .state_size = sizeof(pp_state),
    .setup = pp_setup,
    .initial = pp_initial,
    .mech = &planar_pendulum_mech,
    .holo = &planar_pendulum_holo,
    .obs = &planar_pendulum_obs,
};
