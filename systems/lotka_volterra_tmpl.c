/* lotka_volterra_tmpl.c: the Lotka-Volterra model of tyranowski2014 §5.3 as a
 * degenerate Lagrangian, eqs (5.7)-(5.10): q = (u, v) = (q1, q2),
 *   L(q, qdot) = alpha(q) . qdot - H(q),
 *   alpha(q) = (log(v)/u + v, u)     ((5.10): "log q^2" is log of q2),
 *   H(q) = a1 u + a2 v + b1 log u + b2 log v - H0.
 * The paper's H (5.9) is u - log u + v - 2 log v - H0: a1 = a2 = 1,
 * b1 = -1, b2 = -2. Dalpha' - Dalpha = [[0, -1/(uv)], [1/(uv), 0]], so the
 * Euler-Lagrange equations (Dalpha' - Dalpha) qdot = grad H are
 *   udot = u (a2 v + b2),  vdot = -v (a1 u + b1),
 * the paper's (5.7) u' = u(v - 2), v' = v(1 - u) at its values. The gauge
 * (5.10) is the paper's, chosen so that Theorem 4.2 applies; other gauges
 * give the same ODE but another VPRK map. The domain is u, v > 0: every
 * callback refuses a point outside it as a recoverable failure (a trial
 * step that left the domain). No exact solution: the reference is
 * numerical. Compiled once per precision. */
#include <stddef.h>

#include "prec.h"
#include "numerics_tmpl.h"
#include "api_tmpl.h"

enum { LV_N = 2 };

typedef struct lv_state {
  VI_REAL a1, a2, b1, b2, H0;
  VI_REAL q0[LV_N];
} lv_state;

/* Defaults: the paper's problem, q0 = (1, 1) (its equilibrium is (1, 2))
 * and H0 = 2, which makes H = 0 on that orbit (the long-time figures plot
 * H itself). */
static const vi_param lv_params[] = {
    {"a1", 1, "1", "coefficient of u in H", VI_PARAM_ANY},
    {"a2", 1, "1", "coefficient of v in H", VI_PARAM_ANY},
    {"b1", 1, "-1", "coefficient of log u in H", VI_PARAM_ANY},
    {"b2", 1, "-2", "coefficient of log v in H", VI_PARAM_ANY},
    {"H0", 1, "2", "constant subtracted from H (2: H = 0 on the default orbit)",
     VI_PARAM_ANY},
    {"q0", LV_N, "1,1", "initial (u, v), both in the domain u, v > 0", VI_PARAM_POSITIVE},
    {NULL, 0, NULL, NULL, VI_PARAM_ANY},
};

static const vi_system_info lv_info = {
    .name = "lotka-volterra",
    .summary = "Lotka-Volterra model as a degenerate Lagrangian (Lagrangian linear in "
               "velocities)",
    .cite = "tyranowski2014 (5.7)-(5.10)",
    .n = LV_N,
    .m = 0,
    .n_momenta = 0,
    .momentum_names = NULL,
    .params = lv_params,
};

/* The domain u, v > 0 of (5.9)-(5.10) is q0's parameter domain
 * (VI_PARAM_POSITIVE), enforced before setup; the coefficients may take
 * any value. */
static int lv_setup(void *state, const VI_REAL *par, char *err, size_t errlen) {
  (void)err;
  (void)errlen;
  lv_state *s = state;
  s->a1 = par[0];
  s->a2 = par[1];
  s->b1 = par[2];
  s->b2 = par[3];
  s->H0 = par[4];
  s->q0[0] = par[5];
  s->q0[1] = par[6];
  return 0;
}

static int lv_initial(const void *state, VI_REAL *q0, VI_REAL *v0) {
  const lv_state *s = state;
  (void)v0; /* degenerate: p0 = alpha(q0) */
  q0[0] = s->q0[0];
  q0[1] = s->q0[1];
  return 0;
}

/* Outside u, v > 0 the logarithms are undefined. */
static int lv_out(const VI_REAL *q) {
  return !(q[0] > 0) || !(q[1] > 0);
}

static int lv_alpha(const void *state, const VI_REAL *q, VI_REAL *a) {
  (void)state;
  if (lv_out(q)) {
    return 1;
  }
  a[0] = vi_log(q[1]) / q[0] + q[1];
  a[1] = q[0];
  return 0;
}

/* Dalpha[i][j] = d alpha_i / d q_j. */
static int lv_dalpha(const void *state, const VI_REAL *q, VI_REAL *D) {
  (void)state;
  if (lv_out(q)) {
    return 1;
  }
  const VI_REAL u = q[0], v = q[1];
  D[0] = -vi_log(v) / (u * u);
  D[1] = 1 / (u * v) + 1;
  D[2] = 1;
  D[3] = 0;
  return 0;
}

/* sum_b w^b Hess alpha_b: only alpha_1 is nonlinear. */
static int lv_d2alpha(const void *state, const VI_REAL *q, const VI_REAL *w, VI_REAL *S) {
  (void)state;
  if (lv_out(q)) {
    return 1;
  }
  const VI_REAL u = q[0], v = q[1];
  S[0] = w[0] * 2 * vi_log(v) / (u * u * u);
  S[1] = -w[0] / (u * u * v);
  S[2] = S[1];
  S[3] = -w[0] / (u * v * v);
  return 0;
}

static int lv_hamiltonian(const void *state, const VI_REAL *q, VI_REAL *H) {
  const lv_state *s = state;
  if (lv_out(q)) {
    return 1;
  }
  *H = s->a1 * q[0] + s->a2 * q[1] + s->b1 * vi_log(q[0]) + s->b2 * vi_log(q[1]) - s->H0;
  return 0;
}

static int lv_grad_hamiltonian(const void *state, const VI_REAL *q, VI_REAL *dH) {
  const lv_state *s = state;
  if (lv_out(q)) {
    return 1;
  }
  dH[0] = s->a1 + s->b1 / q[0];
  dH[1] = s->a2 + s->b2 / q[1];
  return 0;
}

static int lv_hess_hamiltonian(const void *state, const VI_REAL *q, VI_REAL *HH) {
  const lv_state *s = state;
  if (lv_out(q)) {
    return 1;
  }
  HH[0] = -s->b1 / (q[0] * q[0]);
  HH[1] = 0;
  HH[2] = 0;
  HH[3] = -s->b2 / (q[1] * q[1]);
  return 0;
}

/* The registry's declarations (systems.def), so that this definition is
 * checked against its entry there. */
#define VI_SYSTEM(id) extern const VI_X(vi_system_type) VI_X(vi_sys_##id);
#include "systems.def"
#undef VI_SYSTEM

static const VI_X(vi_degen_ops) lotka_volterra_degen = {
    .alpha = lv_alpha,
    .dalpha = lv_dalpha,
    .d2alpha = lv_d2alpha,
    .hamiltonian = lv_hamiltonian,
    .grad_hamiltonian = lv_grad_hamiltonian,
    .hess_hamiltonian = lv_hess_hamiltonian,
};

const VI_X(vi_system_type) VI_X(vi_sys_lotka_volterra) = {
    .info = &lv_info,
    .state_size = sizeof(lv_state),
    .setup = lv_setup,
    .initial = lv_initial,
    .degen = &lotka_volterra_degen,
};
