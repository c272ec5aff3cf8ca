/* point_vortices_tmpl.c: two point vortices in the plane as a degenerate
 * Lagrangian, tyranowski2014 §5.2, eqs (5.4)-(5.6): q = (x1, y1, x2, y2),
 *   L = 1/2 sum_i G_i (x_i ydot_i - y_i xdot_i) - H,
 *   alpha(q) = 1/2 (-G1 y1, G1 x1, -G2 y2, G2 x2)                   (5.4)
 *   H = G1 G2 / (4 pi) log((x1 - x2)^2 + (y1 - y2)^2) - H0          (5.5)
 * (the sum over i < j with K = 2 vortices of strengths G1, G2). alpha is
 * linear (alpha_affine), Dalpha' - Dalpha = blockdiag(G1 J, G2 J) with
 * J = [[0, 1], [-1, 0]], so xdot_i = -dH/dy_i / G_i, ydot_i = dH/dx_i / G_i.
 *
 * Exact solution (5.6), for any initial data with G1 + G2 != 0: the pair
 * turns rigidly about the centre of vorticity c = (G1 z1 + G2 z2) /
 * (G1 + G2) with angular velocity w = (G1 + G2) / (2 pi D^2), D = |z1 - z2|
 * (counter-clockwise for w > 0). Defaults: the paper's G1 = 4, G2 = 2,
 * D = 1, c = 0: q0 = (1/3, 0, -2/3, 0), w = 3/pi, period 2 pi^2/3; H0 = 0
 * gives H = 0 on it. Invariants: H, the angular impulse G1|z1|^2 + G2|z2|^2
 * (quadratic) and the centre of vorticity sum G_i z_i (linear); H is a
 * function of them (notes §2.2), so Gauss VPRK keeps H to round-off. The
 * vortices must not meet (r > 0). Compiled once per precision. */
#include <stddef.h>

#include "prec.h"
#include "numerics_tmpl.h"
#include "api_tmpl.h"

enum { PV_N = 4 };

typedef struct pv_state {
  VI_REAL G1, G2, H0;
  VI_REAL q0[PV_N];
} pv_state;

static const vi_param pv_params[] = {
    {"G1", 1, "4", "strength of vortex 1 (nonzero)", VI_PARAM_ANY},
    {"G2", 1, "2", "strength of vortex 2 (nonzero)", VI_PARAM_ANY},
    {"H0", 1, "0", "constant subtracted from H (0: H = 0 on the default orbit)", VI_PARAM_ANY},
    {"q0", PV_N,
     "0.333333333333333333333333333333333333333,0,-0.666666666666666666666666666666666666667,0",
     "initial (x1, y1, x2, y2); default distance 1 about the centre of vorticity 0",
     VI_PARAM_ANY},
    {NULL, 0, NULL, NULL, VI_PARAM_ANY},
};

static const char *const pv_momenta[] = {"I", "Px", "Py"};

static const vi_system_info pv_info = {
    .name = "point-vortices",
    .summary = "two point vortices as a degenerate Lagrangian (Lagrangian linear in "
               "velocities)",
    .cite = "tyranowski2014 (5.4)-(5.6)",
    .n = PV_N,
    .m = 0,
    .n_momenta = 3,
    .momenta_noether = 7u, /* I (rotations), Px, Py (translations) */
    .momentum_names = pv_momenta,
    .alpha_affine = 1,
    .params = pv_params,
};

/* The domain of (5.4)-(5.5): nonzero strengths (Dalpha' - Dalpha =
 * blockdiag(G1 J, G2 J) is inverted: xdot_i = -dH/dy_i / G_i) and
 * vortices apart (log r^2 in H). */
static int pv_setup(void *state, const VI_REAL *par, char *err, size_t errlen) {
  pv_state *s = state;
  s->G1 = par[0];
  s->G2 = par[1];
  s->H0 = par[2];
  for (int i = 0; i < PV_N; i++) {
    s->q0[i] = par[3 + i];
  }
  return VI_X(vi_data_nonzero)("G1", s->G1,
                               "the equations divide by it (xdot_1 = -dH/dy_1 / G1, "
                               "tyranowski2014 (5.4)-(5.5))",
                               err, errlen) ||
                 VI_X(vi_data_nonzero)("G2", s->G2,
                                       "the equations divide by it (xdot_2 = -dH/dy_2 / G2, "
                                       "tyranowski2014 (5.4)-(5.5))",
                                       err, errlen) ||
                 VI_X(vi_data_apart)("q0", "vortices 1 and 2", 2, s->q0, s->q0 + 2,
                                     "where H = G1 G2/(4 pi) log r^2 (tyranowski2014 (5.5)) "
                                     "is singular",
                                     err, errlen)
             ? -1
             : 0;
}

static int pv_initial(const void *state, VI_REAL *q0, VI_REAL *v0) {
  const pv_state *s = state;
  (void)v0; /* degenerate: p0 = alpha(q0) */
  for (int i = 0; i < PV_N; i++) {
    q0[i] = s->q0[i];
  }
  return 0;
}

static int pv_alpha(const void *state, const VI_REAL *q, VI_REAL *a) {
  const pv_state *s = state;
  a[0] = -s->G1 * q[1] / 2;
  a[1] = s->G1 * q[0] / 2;
  a[2] = -s->G2 * q[3] / 2;
  a[3] = s->G2 * q[2] / 2;
  return 0;
}

static int pv_dalpha(const void *state, const VI_REAL *q, VI_REAL *D) {
  const pv_state *s = state;
  (void)q;
  for (int i = 0; i < PV_N * PV_N; i++) {
    D[i] = 0;
  }
  D[0 * PV_N + 1] = -s->G1 / 2;
  D[1 * PV_N + 0] = s->G1 / 2;
  D[2 * PV_N + 3] = -s->G2 / 2;
  D[3 * PV_N + 2] = s->G2 / 2;
  return 0;
}

static int pv_d2alpha(const void *state, const VI_REAL *q, const VI_REAL *w, VI_REAL *S) {
  (void)state;
  (void)q;
  (void)w;
  for (int i = 0; i < PV_N * PV_N; i++) {
    S[i] = 0;
  }
  return 0;
}

static int pv_hamiltonian(const void *state, const VI_REAL *q, VI_REAL *H) {
  const pv_state *s = state;
  const VI_REAL dx = q[0] - q[2], dy = q[1] - q[3], r2 = dx * dx + dy * dy;
  if (!(r2 > 0)) {
    return 1;
  }
  *H = s->G1 * s->G2 / (4 * VI_PI) * vi_log(r2) - s->H0;
  return 0;
}

static int pv_grad_hamiltonian(const void *state, const VI_REAL *q, VI_REAL *dH) {
  const pv_state *s = state;
  const VI_REAL dx = q[0] - q[2], dy = q[1] - q[3], r2 = dx * dx + dy * dy;
  if (!(r2 > 0)) {
    return 1;
  }
  const VI_REAL k = s->G1 * s->G2 / (2 * VI_PI * r2);
  dH[0] = k * dx;
  dH[1] = k * dy;
  dH[2] = -k * dx;
  dH[3] = -k * dy;
  return 0;
}

/* Hess H = k P' (2 I / r^2 - 4 u u' / r^4) P, k = G1 G2 / (4 pi),
 * u = (dx, dy), P = [I, -I]. */
static int pv_hess_hamiltonian(const void *state, const VI_REAL *q, VI_REAL *HH) {
  const pv_state *s = state;
  const VI_REAL u[2] = {q[0] - q[2], q[1] - q[3]}, r2 = u[0] * u[0] + u[1] * u[1];
  if (!(r2 > 0)) {
    return 1;
  }
  const VI_REAL k = s->G1 * s->G2 / (4 * VI_PI);
  for (int a = 0; a < 2; a++) {
    for (int b = 0; b < 2; b++) {
      const VI_REAL v = k * ((a == b ? 2 / r2 : 0) - 4 * u[a] * u[b] / (r2 * r2));
      HH[a * PV_N + b] = v;
      HH[(a + 2) * PV_N + b + 2] = v;
      HH[a * PV_N + b + 2] = -v;
      HH[(a + 2) * PV_N + b] = -v;
    }
  }
  return 0;
}

/* The angular impulse and the centre of vorticity (times G1 + G2). */
static int pv_momenta_fn(const void *state, const VI_REAL *q, const VI_REAL *p, VI_REAL *J) {
  const pv_state *s = state;
  (void)p;
  J[0] = s->G1 * (q[0] * q[0] + q[1] * q[1]) + s->G2 * (q[2] * q[2] + q[3] * q[3]);
  J[1] = s->G1 * q[0] + s->G2 * q[2];
  J[2] = s->G1 * q[1] + s->G2 * q[3];
  return 0;
}

/* (5.6) for any initial data: rigid rotation about the centre of
 * vorticity (file comment). */
static int pv_exact(const void *state, VI_REAL t, VI_REAL *q, VI_REAL *p, VI_REAL *lambda) {
  const pv_state *s = state;
  (void)lambda;
  const VI_REAL G = s->G1 + s->G2;
  const VI_REAL dx = s->q0[0] - s->q0[2], dy = s->q0[1] - s->q0[3], D2 = dx * dx + dy * dy;
  if (!(vi_fabs(G) > 0) || !(D2 > 0)) {
    return VI_EUNSUPPORTED; /* G1 + G2 = 0: the pair translates instead */
  }
  const VI_REAL cx = (s->G1 * s->q0[0] + s->G2 * s->q0[2]) / G;
  const VI_REAL cy = (s->G1 * s->q0[1] + s->G2 * s->q0[3]) / G;
  const VI_REAL w = G / (2 * VI_PI * D2), co = vi_cos(w * t), si = vi_sin(w * t);
  for (int i = 0; i < 2; i++) {
    const VI_REAL rx = s->q0[2 * i] - cx, ry = s->q0[2 * i + 1] - cy;
    q[2 * i] = cx + co * rx - si * ry;
    q[2 * i + 1] = cy + si * rx + co * ry;
  }
  return pv_alpha(state, q, p);
}

/* The registry's declarations (systems.def), so that this definition is
 * checked against its entry there. */
#define VI_SYSTEM(id) extern const VI_X(vi_system_type) VI_X(vi_sys_##id);
#include "systems.def"
#undef VI_SYSTEM

static const VI_X(vi_degen_ops) point_vortices_degen = {
    .alpha = pv_alpha,
    .dalpha = pv_dalpha,
    .d2alpha = pv_d2alpha,
    .hamiltonian = pv_hamiltonian,
    .grad_hamiltonian = pv_grad_hamiltonian,
    .hess_hamiltonian = pv_hess_hamiltonian,
};

static const VI_X(vi_obs_ops) point_vortices_obs = {
    .momenta = pv_momenta_fn,
    .exact = pv_exact,
};

const VI_X(vi_system_type) VI_X(vi_sys_point_vortices) = {
    .info = &pv_info,
    .state_size = sizeof(pv_state),
    .setup = pv_setup,
    .initial = pv_initial,
    .degen = &point_vortices_degen,
    .obs = &point_vortices_obs,
};
