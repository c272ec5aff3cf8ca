/* cvt_tmpl.c: the pendulum-driven continuously variable transmission of
 * demartin2018 §7.2 (Figs 4-5; the system of Modin & Verdier, the paper's
 * [51]): q = (x, y, z) in R^3, a driver pendulum y that sets the gear
 * ratio sin(y) between the two coordinates x, z of a passenger oscillator,
 *   L = m/2 (v_x^2 + v_z^2) + J/2 v_y^2 - U,
 *   U = 1/2 (x^2 + z^2) - cos y + (eps/2) sin 2y     (demartin2018 §7.2),
 *   Phi(q, v) = v_z + sin(y) v_x = 0,  A(q) = (sin y, 0, 1), a = 0
 * (the paper has M = I, m = J = 1; a passenger mass m and a driver moment
 * of inertia J are this file's generalisation). In the harness's sign
 * convention (vi_nh_ops: the constraint force is -A' mu, the paper's
 * lambda is -mu)
 *   m xdd = -x - sin(y) mu,  J ydd = -sin y - eps cos 2y,  m zdd = -z - mu,
 *   mu = -(x sin y + z - m cos(y) v_x v_y) / (1 + sin^2 y)
 * (notes §2.2: lambda = (x sin y + z - cos y v_x v_y) / (1 + sin^2 y) at
 * m = J = 1). The driver is decoupled (dPhi/dv_y = 0), so the driver
 * energy E_d = J/2 v_y^2 - cos y + (eps/2) sin 2y and the passenger
 * energy E_p = m/2 (v_x^2 + v_z^2) + 1/2 (x^2 + z^2) are first integrals
 * besides E = E_d + E_p (dE_p/dt = -mu Phi = 0). They are not the Noether
 * quantities of a symmetry: momenta_conserved, not momenta_noether. The
 * paper's two regimes are the named data sets low (E = 9/5: E_d = 4/5, the driver oscillates)
 * and high (E = 4: E_d = 3, the driver rotates), both from q0 = (1, 0, 1)
 * with eps = 1/2; the defaults are the low one. The reference is
 * numerical. Compiled once per precision. */
#include <stddef.h>

#include "prec.h"
#include "numerics_tmpl.h"
#include "api_tmpl.h"

enum { CVT_N = 3 };

typedef struct cvt_state {
  VI_REAL m, J, eps;
  VI_REAL q0[CVT_N], v0[CVT_N];
} cvt_state;

static const vi_param cvt_params[] = {
    {"m", 1, "1", "mass of the passenger (x, z)", VI_PARAM_POSITIVE},
    {"J", 1, "1", "moment of inertia of the driver pendulum (y)", VI_PARAM_POSITIVE},
    {"eps", 1, "0.5", "epsilon of the driver's potential -cos y + (eps/2) sin 2y",
     VI_PARAM_ANY},
    {"q0", CVT_N, "1,0,1", "initial (x, y, z)", VI_PARAM_ANY},
    {"v0", CVT_N, "0,1.8973665961010275991993361266596341,0",
     "initial velocity (must satisfy v_z + sin(y) v_x = 0)", VI_PARAM_ANY},
    {NULL, 0, NULL, NULL, VI_PARAM_ANY},
};

/* demartin2018 §7.2 (notes §2.2): q0 = (1, 0, 1), v0 = (0, v, 0) with
 * v = 3 sqrt(10)/5 (E = 9/5) or sqrt(8) (E = 4), eps = 1/2, M = I; the
 * values to 35 digits, read in the working precision. */
static const vi_data_set cvt_data[] = {
    {"low", "demartin2018 §7.2, Fig. 4: E = 9/5 (E_d = 4/5, E_p = 1), the driver oscillates",
     "m=1;J=1;eps=0.5;q0=1,0,1;v0=0,1.8973665961010275991993361266596341,0"},
    {"high", "demartin2018 §7.2, Fig. 5: E = 4 (E_d = 3, E_p = 1), the driver rotates",
     "m=1;J=1;eps=0.5;q0=1,0,1;v0=0,2.8284271247461900976033774484193962,0"},
    {NULL, NULL, NULL},
};

static const char *const cvt_momentum_names[] = {"E_d", "E_p"};

static const vi_system_info cvt_info = {
    .name = "cvt",
    .summary = "pendulum-driven continuously variable transmission: a driver pendulum y "
               "and a passenger oscillator (x, z) with v_z + sin(y) v_x = 0",
    .cite = "demartin2018 §7.2 (Modin & Verdier)",
    .n = CVT_N,
    .m = 0,
    .m_nh = 1,
    .n_momenta = 2,
    .momentum_names = cvt_momentum_names,
    .momenta_conserved = 3u, /* E_d, E_p (not Noether: see above) */
    .params = cvt_params,
    .data = cvt_data,
};

/* m, J > 0 are their parameters' domains, A = (sin y, 0, 1) is never zero
 * (so A M^-1 A' = (1 + sin^2 y) / m > 0 and the multiplier is defined
 * everywhere), U is smooth on R^3 and v0 on the constraint is checked by
 * vi_system_alloc: no rule of its own. */
static int cvt_setup(void *state, const VI_REAL *par, char *err, size_t errlen) {
  (void)err;
  (void)errlen;
  cvt_state *s = state;
  s->m = par[0];
  s->J = par[1];
  s->eps = par[2];
  for (int i = 0; i < CVT_N; i++) {
    s->q0[i] = par[3 + i];
    s->v0[i] = par[3 + CVT_N + i];
  }
  return 0;
}

static int cvt_initial(const void *state, VI_REAL *q0, VI_REAL *v0) {
  const cvt_state *s = state;
  for (int i = 0; i < CVT_N; i++) {
    q0[i] = s->q0[i];
    v0[i] = s->v0[i];
  }
  return 0;
}

/* M = diag(m, J, m). */
static int cvt_mass(const void *state, VI_REAL *M) {
  const cvt_state *s = state;
  for (int i = 0; i < CVT_N * CVT_N; i++) {
    M[i] = 0;
  }
  M[0] = s->m;
  M[4] = s->J;
  M[8] = s->m;
  return 0;
}

/* U = 1/2 (x^2 + z^2) - cos y + (eps/2) sin 2y: demartin2018 §7.2, L. */
static int cvt_potential(const void *state, const VI_REAL *q, VI_REAL *V) {
  const cvt_state *s = state;
  *V = (q[0] * q[0] + q[2] * q[2]) / 2 - vi_cos(q[1]) + s->eps / 2 * vi_sin(2 * q[1]);
  return 0;
}

/* grad U = (x, sin y + eps cos 2y, z). */
static int cvt_grad_potential(const void *state, const VI_REAL *q, VI_REAL *dV) {
  const cvt_state *s = state;
  dV[0] = q[0];
  dV[1] = vi_sin(q[1]) + s->eps * vi_cos(2 * q[1]);
  dV[2] = q[2];
  return 0;
}

/* Hess U = diag(1, cos y - 2 eps sin 2y, 1). */
static int cvt_hess_potential(const void *state, const VI_REAL *q, VI_REAL *H) {
  const cvt_state *s = state;
  for (int i = 0; i < CVT_N * CVT_N; i++) {
    H[i] = 0;
  }
  H[0] = 1;
  H[4] = vi_cos(q[1]) - 2 * s->eps * vi_sin(2 * q[1]);
  H[8] = 1;
  return 0;
}

/* A(q) = (sin y, 0, 1). */
static int cvt_matrix(const void *state, const VI_REAL *q, VI_REAL *A) {
  (void)state;
  A[0] = vi_sin(q[1]);
  A[1] = 0;
  A[2] = 1;
  return 0;
}

/* D_q (A(q) w) = (0, cos(y) w_x, 0). */
static int cvt_dphi_dq(const void *state, const VI_REAL *q, const VI_REAL *w, VI_REAL *D) {
  (void)state;
  D[0] = 0;
  D[1] = vi_cos(q[1]) * w[0];
  D[2] = 0;
  return 0;
}

/* D_q (A(q)' mu) with A' mu = (sin(y) mu, 0, mu): one entry, row x,
 * column y. */
static int cvt_datmu(const void *state, const VI_REAL *q, const VI_REAL *mu, VI_REAL *D) {
  (void)state;
  for (int i = 0; i < CVT_N * CVT_N; i++) {
    D[i] = 0;
  }
  D[1] = vi_cos(q[1]) * mu[0];
  return 0;
}

/* E_d = p_y^2 / (2 J) - cos y + (eps/2) sin 2y and E_p = (p_x^2 + p_z^2)
 * / (2 m) + (x^2 + z^2) / 2 (notes §2.2). */
static int cvt_momenta(const void *state, const VI_REAL *q, const VI_REAL *p, VI_REAL *E) {
  const cvt_state *s = state;
  E[0] = p[1] * p[1] / (2 * s->J) - vi_cos(q[1]) + s->eps / 2 * vi_sin(2 * q[1]);
  E[1] = (p[0] * p[0] + p[2] * p[2]) / (2 * s->m) + (q[0] * q[0] + q[2] * q[2]) / 2;
  return 0;
}

/* The registry's declarations (systems.def), so that this definition is
 * checked against its entry there. */
#define VI_SYSTEM(id) extern const VI_X(vi_system_type) VI_X(vi_sys_##id);
#include "systems.def"
#undef VI_SYSTEM

static const VI_X(vi_mech_ops) cvt_mech = {
    .mass = cvt_mass,
    .potential = cvt_potential,
    .grad_potential = cvt_grad_potential,
    .hess_potential = cvt_hess_potential,
};

static const VI_X(vi_nh_ops) cvt_nh = {
    .matrix = cvt_matrix,
    .dphi_dq = cvt_dphi_dq,
    .datmu = cvt_datmu,
};

static const VI_X(vi_obs_ops) cvt_obs = {
    .momenta = cvt_momenta,
};

const VI_X(vi_system_type) VI_X(vi_sys_cvt) = {
    .info = &cvt_info,
    .state_size = sizeof(cvt_state),
    .setup = cvt_setup,
    .initial = cvt_initial,
    .mech = &cvt_mech,
    .nh = &cvt_nh,
    .obs = &cvt_obs,
};
