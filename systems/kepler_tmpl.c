/* kepler_tmpl.c: the Kepler problem as a degenerate Lagrangian, tyranowski2014
 * §5.1, eqs (5.1)-(5.3): q = (x, y, p_x, p_y), n = 4,
 *   L(q, qdot) = alpha(q) . qdot - H(q),
 *   alpha(q) = 1/2 (q3, q4, -q1, -q2)                               (5.3)
 *   H(q) = 1/2 (q3^2 + q4^2) - mu / sqrt(q1^2 + q2^2) - H0          (5.1)
 * alpha is the antisymmetric part of the paper's Lambda (5.2) (the naive
 * alpha = (q3, q4, 0, 0) differs by an exact form but has a singular
 * Dalpha, and a gauge change changes the VPRK map); alpha is linear, so
 * Dalpha is constant and its contracted Hessian vanishes (alpha_affine).
 * Dalpha' - Dalpha = [[0, -I], [I, 0]]: the Euler-Lagrange equations are
 * the canonical xdot = p, pdot = -mu x / r^3.
 *
 * Defaults: the paper's orbit, e = 0.5, a = 1, mu = 1, from the pericenter:
 * q0 = (0.5, 0, 0, sqrt 3), period 2 pi; H0 = -0.5 makes H = 0 on it (the
 * long-time figures plot H itself). The exact solution holds for any bound
 * orbit (H + H0 < 0, nonzero angular momentum) from any initial point:
 * orbital elements from q0, Kepler's equation E - e sin E = M solved by
 * Newton to round-off in the working precision. Invariants: H and the
 * angular momentum x p_y - y p_x (quadratic: Gauss VPRK keeps it). The
 * domain is r > 0: setup refuses q0 at the origin, a callback at r = 0
 * refuses (recoverable). Compiled
 * once per precision. */
#include <stddef.h>

#include "prec.h"
#include "numerics_tmpl.h"
#include "api_tmpl.h"

enum { KE_N = 4 };

typedef struct ke_state {
  VI_REAL mu, H0;
  VI_REAL q0[KE_N];
} ke_state;

static const vi_param ke_params[] = {
    {"mu", 1, "1", "gravitational parameter G M", VI_PARAM_POSITIVE},
    {"H0", 1, "-0.5", "constant subtracted from H (-0.5: H = 0 on the default orbit)",
     VI_PARAM_ANY},
    {"q0", KE_N, "0.5,0,0,1.73205080756887729352744634150587236694",
     "initial (x, y, p_x, p_y); default the pericenter of e = 0.5, a = 1", VI_PARAM_ANY},
    {NULL, 0, NULL, NULL, VI_PARAM_ANY},
};

static const char *const ke_momenta[] = {"L"};

static const vi_system_info ke_info = {
    .name = "kepler",
    .summary = "Kepler problem as a degenerate Lagrangian (Lagrangian linear in velocities)",
    .cite = "tyranowski2014 (5.1)-(5.3)",
    .n = KE_N,
    .m = 0,
    .n_momenta = 1,
    .momenta_noether = 1u << 0, /* L: rotations of the plane */
    .momentum_names = ke_momenta,
    .alpha_affine = 1,
    .params = ke_params,
};

/* The domain of (5.1) is r > 0: q0 may not put the body at the origin. */
static int ke_setup(void *state, const VI_REAL *par, char *err, size_t errlen) {
  ke_state *s = state;
  s->mu = par[0];
  s->H0 = par[1];
  for (int i = 0; i < KE_N; i++) {
    s->q0[i] = par[2 + i];
  }
  return VI_X(vi_data_apart)("q0", "the initial position (x, y) and the attracting centre",
                             2, s->q0, NULL,
                             "where H = |p|^2/2 - mu/r (tyranowski2014 (5.1)) is singular",
                             err, errlen);
}

static int ke_initial(const void *state, VI_REAL *q0, VI_REAL *v0) {
  const ke_state *s = state;
  (void)v0; /* degenerate: p0 = alpha(q0) */
  for (int i = 0; i < KE_N; i++) {
    q0[i] = s->q0[i];
  }
  return 0;
}

static int ke_alpha(const void *state, const VI_REAL *q, VI_REAL *a) {
  (void)state;
  a[0] = q[2] / 2;
  a[1] = q[3] / 2;
  a[2] = -q[0] / 2;
  a[3] = -q[1] / 2;
  return 0;
}

/* Dalpha[i][j] = d alpha_i / d q_j (constant). */
static int ke_dalpha(const void *state, const VI_REAL *q, VI_REAL *D) {
  (void)state;
  (void)q;
  for (int i = 0; i < KE_N * KE_N; i++) {
    D[i] = 0;
  }
  D[0 * KE_N + 2] = VI_C(0.5);
  D[1 * KE_N + 3] = VI_C(0.5);
  D[2 * KE_N + 0] = VI_C(-0.5);
  D[3 * KE_N + 1] = VI_C(-0.5);
  return 0;
}

static int ke_d2alpha(const void *state, const VI_REAL *q, const VI_REAL *w, VI_REAL *S) {
  (void)state;
  (void)q;
  (void)w;
  for (int i = 0; i < KE_N * KE_N; i++) {
    S[i] = 0;
  }
  return 0;
}

static int ke_hamiltonian(const void *state, const VI_REAL *q, VI_REAL *H) {
  const ke_state *s = state;
  const VI_REAL r = vi_sqrt(q[0] * q[0] + q[1] * q[1]);
  if (!(r > 0)) {
    return 1;
  }
  *H = (q[2] * q[2] + q[3] * q[3]) / 2 - s->mu / r - s->H0;
  return 0;
}

static int ke_grad_hamiltonian(const void *state, const VI_REAL *q, VI_REAL *dH) {
  const ke_state *s = state;
  const VI_REAL r2 = q[0] * q[0] + q[1] * q[1];
  if (!(r2 > 0)) {
    return 1;
  }
  const VI_REAL r3 = r2 * vi_sqrt(r2);
  dH[0] = s->mu * q[0] / r3;
  dH[1] = s->mu * q[1] / r3;
  dH[2] = q[2];
  dH[3] = q[3];
  return 0;
}

static int ke_hess_hamiltonian(const void *state, const VI_REAL *q, VI_REAL *HH) {
  const ke_state *s = state;
  const VI_REAL x = q[0], y = q[1], r2 = x * x + y * y;
  if (!(r2 > 0)) {
    return 1;
  }
  const VI_REAL r3 = r2 * vi_sqrt(r2), r5 = r3 * r2;
  for (int i = 0; i < KE_N * KE_N; i++) {
    HH[i] = 0;
  }
  HH[0] = s->mu * (1 / r3 - 3 * x * x / r5);
  HH[1] = HH[KE_N] = -3 * s->mu * x * y / r5;
  HH[KE_N + 1] = s->mu * (1 / r3 - 3 * y * y / r5);
  HH[2 * KE_N + 2] = 1;
  HH[3 * KE_N + 3] = 1;
  return 0;
}

/* The angular momentum x p_y - y p_x. */
static int ke_momenta_fn(const void *state, const VI_REAL *q, const VI_REAL *p, VI_REAL *J) {
  (void)state;
  (void)p;
  J[0] = q[0] * q[3] - q[1] * q[2];
  return 0;
}

/* The exact solution of the bound orbit through q0 (file comment). A
 * clockwise orbit (L < 0) is mirrored in y, solved and mirrored back. The
 * eccentric anomaly at t = 0 comes from the true anomaly, the angle of q0
 * from the pericenter direction omega, so that position and orientation
 * stay consistent however small e is (at e = 0 omega is arbitrary and
 * cancels). */
static int ke_exact(const void *state, VI_REAL t, VI_REAL *q, VI_REAL *p, VI_REAL *lambda) {
  const ke_state *s = state;
  (void)lambda;
  const VI_REAL mu = s->mu;
  const VI_REAL L0 = s->q0[0] * s->q0[3] - s->q0[1] * s->q0[2];
  const VI_REAL sg = L0 < 0 ? -1 : 1;
  const VI_REAL x0 = s->q0[0], y0 = sg * s->q0[1], u0 = s->q0[2], w0 = sg * s->q0[3];
  const VI_REAL r0 = vi_sqrt(x0 * x0 + y0 * y0), v2 = u0 * u0 + w0 * w0;
  const VI_REAL En = v2 / 2 - mu / r0;
  if (!(r0 > 0) || !(En < 0) || L0 == 0) {
    return VI_EUNSUPPORTED; /* unbound, radial or singular: no closed form here */
  }
  const VI_REAL a = -mu / (2 * En), rv = x0 * u0 + y0 * w0;
  /* Eccentricity vector ((v^2 - mu/r) r - (r.v) v) / mu. */
  const VI_REAL ex = ((v2 - mu / r0) * x0 - rv * u0) / mu;
  const VI_REAL ey = ((v2 - mu / r0) * y0 - rv * w0) / mu;
  const VI_REAL e = vi_sqrt(ex * ex + ey * ey);
  if (!(e < 1)) {
    return VI_EUNSUPPORTED;
  }
  const VI_REAL om = e > 0 ? vi_atan2(ey, ex) : 0;
  const VI_REAL nu0 = vi_atan2(y0, x0) - om;
  const VI_REAL E0 = 2 * vi_atan2(vi_sqrt(1 - e) * vi_sin(nu0 / 2), vi_sqrt(1 + e) * vi_cos(nu0 / 2));
  const VI_REAL n = vi_sqrt(mu / (a * a * a));
  /* Kepler's equation E - e sin E = M for the mean anomaly reduced to
   * [-pi, pi] (the turns added back after): f(E) = E - e sin E - M is
   * increasing with its root in [M - e, M + e]. Newton from Danby's start
   * M + 0.85 e sign(sin M), each step kept inside the bracket (bisection
   * when it leaves it): plain Newton from E = M cycles for e near 1 close
   * to the pericentre. */
  const VI_REAL Mall = E0 - e * vi_sin(E0) + n * t;
  const VI_REAL turns = vi_floor(Mall / (2 * VI_PI) + VI_C(0.5));
  const VI_REAL M = Mall - turns * 2 * VI_PI;
  VI_REAL lo = M - e, hi = M + e;
  VI_REAL E = M + VI_C(0.85) * e * (vi_sin(M) < 0 ? -1 : 1);
  E = E < lo ? lo : E > hi ? hi : E;
  for (int it = 0; it < 200; it++) {
    const VI_REAL f = E - e * vi_sin(E) - M;
    if (f > 0) {
      hi = E;
    } else {
      lo = E;
    }
    VI_REAL Enew = E - f / (1 - e * vi_cos(E));
    if (!(Enew > lo && Enew < hi)) {
      Enew = (lo + hi) / 2;
    }
    const VI_REAL d = Enew - E;
    E = Enew;
    if (!(vi_fabs(d) > 4 * VI_EPS * (1 + vi_fabs(E))) || hi - lo <= 4 * VI_EPS * (1 + vi_fabs(E))) {
      break;
    }
  }
  E += turns * 2 * VI_PI;
  const VI_REAL cE = vi_cos(E), sE = vi_sin(E), b = vi_sqrt(1 - e * e);
  const VI_REAL xp = a * (cE - e), yp = a * b * sE;
  const VI_REAL up = -a * n * sE / (1 - e * cE), wp = a * n * b * cE / (1 - e * cE);
  const VI_REAL co = vi_cos(om), so = vi_sin(om);
  q[0] = co * xp - so * yp;
  q[1] = sg * (so * xp + co * yp);
  q[2] = co * up - so * wp;
  q[3] = sg * (so * up + co * wp);
  return ke_alpha(state, q, p);
}

/* The registry's declarations (systems.def), so that this definition is
 * checked against its entry there. */
#define VI_SYSTEM(id) extern const VI_X(vi_system_type) VI_X(vi_sys_##id);
#include "systems.def"
#undef VI_SYSTEM

static const VI_X(vi_degen_ops) kepler_degen = {
    .alpha = ke_alpha,
    .dalpha = ke_dalpha,
    .d2alpha = ke_d2alpha,
    .hamiltonian = ke_hamiltonian,
    .grad_hamiltonian = ke_grad_hamiltonian,
    .hess_hamiltonian = ke_hess_hamiltonian,
};

static const VI_X(vi_obs_ops) kepler_obs = {
    .momenta = ke_momenta_fn,
    .exact = ke_exact,
};

const VI_X(vi_system_type) VI_X(vi_sys_kepler) = {
    .info = &ke_info,
    .state_size = sizeof(ke_state),
    .setup = ke_setup,
    .initial = ke_initial,
    .degen = &kepler_degen,
    .obs = &kepler_obs,
};
