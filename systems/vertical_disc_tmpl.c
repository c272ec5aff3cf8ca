/* vertical_disc_tmpl.c: the vertical disc ("unicycle", a knife edge) with an
 * elastic spring on SE(2) of demartin2018 §7.4 (Fig. 7), in the Lie-group
 * form: g = (x, y, theta) in SE(2), body velocity xi = (v1, v2, omega)
 * (v1 forward, v2 sideways), the trivialised Lagrangian
 *   l(g, xi) = 1/2 (m v1^2 + m v2^2 + Iz omega^2) - k/2 (x^2 + y^2)
 * and the nonholonomic constraint phi = v2 = 0 (no sideways slip;
 * Phi = v_y cos theta - v_x sin theta). The paper has m = Iz = k = 1 and
 * gives no initial data; the defaults are those of the reading notes
 * (../shared/papers/notes/demartin2018.md §2.4). There is no rolling
 * angle: odelab's VerticalRollingDisk is another system.
 *
 * SE(2) and its Cayley maps (notes §1.6; g stored as (x, y, theta), theta
 * not wrapped): g h = (t_g + R(theta) t_h, theta_g + theta_h); cay(xi)
 * rotates by 2 atan(omega/2). With s = x cos theta + y sin theta and
 * r = -x sin theta + y cos theta the trivialised force is F = (-k s, -k r,
 * 0); the equations are m (v1dot - omega v2) = -k s, m (v2dot + omega v1)
 * = -k r - mu, Iz omegadot = 0 (constraint force -A' mu, A = (0, 1, 0)),
 * so with v2 = 0: mu = -(m omega v1 + k r) (minus the paper's lambda).
 * Exact solution (notes §2.4, generalised to any k): theta = theta0 +
 * omega t, and (s, r, v1) solve sdot = v1 + omega r, rdot = -omega s,
 * v1dot = -k s / m, so s'' = -(k/m + omega^2) s: oscillatory, exponential
 * (a repelling spring, k < -m omega^2) or linear. Compiled once per
 * precision. */
#include <stddef.h>

#include "prec.h"
#include "numerics_tmpl.h"
#include "api_tmpl.h"

enum { VD_N = 3 };

typedef struct vd_state {
  VI_REAL m, Iz, k;
  VI_REAL q0[VD_N], xi0[VD_N];
} vd_state;

static const vi_param vd_params[] = {
    {"m", 1, "1", "mass", VI_PARAM_POSITIVE},
    {"Iz", 1, "1", "moment of inertia about the vertical axis", VI_PARAM_POSITIVE},
    {"k", 1, "1", "spring stiffness, potential k/2 (x^2 + y^2)", VI_PARAM_ANY},
    {"q0", VD_N, "1,0.5,0.3", "initial (x, y, theta)", VI_PARAM_ANY},
    {"eta0", VD_N, "0.2,0,0.7",
     "initial body velocity (v1, v2, omega); v2 must be 0 (no sideways slip)",
     VI_PARAM_ANY},
    {NULL, 0, NULL, NULL, VI_PARAM_ANY},
};

static const vi_system_info vd_info = {
    .name = "vertical-disc",
    .summary = "vertical disc (knife edge) with a spring on SE(2), no sideways slip",
    .cite = "demartin2018 §7.4",
    .n = VD_N,
    .m = 0,
    .m_nh = 1,
    .params = vd_params,
};

/* m, Iz > 0 are their parameters' domains (a regular Lagrangian), eta0
 * on the constraint is checked by vi_system_alloc: no rule of its own. */
static int vd_setup(void *state, const VI_REAL *par, char *err, size_t errlen) {
  (void)err;
  (void)errlen;
  vd_state *s = state;
  s->m = par[0];
  s->Iz = par[1];
  s->k = par[2];
  for (int i = 0; i < VD_N; i++) {
    s->q0[i] = par[3 + i];
    s->xi0[i] = par[3 + VD_N + i];
  }
  return 0;
}

static int vd_initial(const void *state, VI_REAL *q0, VI_REAL *xi0) {
  const vd_state *s = state;
  for (int i = 0; i < VD_N; i++) {
    q0[i] = s->q0[i];
    xi0[i] = s->xi0[i];
  }
  return 0;
}

/* ---- SE(2) ----------------------------------------------------------------- */

static int se2_compose(const void *st, const VI_REAL *g, const VI_REAL *h, VI_REAL *gh) {
  (void)st;
  VI_REAL c = vi_cos(g[2]), s = vi_sin(g[2]);
  VI_REAL x = g[0] + c * h[0] - s * h[1], y = g[1] + s * h[0] + c * h[1];
  gh[0] = x;
  gh[1] = y;
  gh[2] = g[2] + h[2];
  return 0;
}

static int se2_inverse(const void *st, const VI_REAL *g, VI_REAL *gi) {
  (void)st;
  VI_REAL c = vi_cos(g[2]), s = vi_sin(g[2]);
  VI_REAL x = -(c * g[0] + s * g[1]), y = -(-s * g[0] + c * g[1]);
  gi[0] = x;
  gi[1] = y;
  gi[2] = -g[2];
  return 0;
}

static int se2_cay(const void *st, const VI_REAL *xi, VI_REAL *g) {
  (void)st;
  const VI_REAL v1 = xi[0], v2 = xi[1], w = xi[2], den = 4 + w * w;
  g[0] = 2 * (2 * v1 - w * v2) / den;
  g[1] = 2 * (2 * v2 + w * v1) / den;
  g[2] = 2 * vi_atan2(w, VI_C(2.0));
  return 0;
}

/* xi = cay^-1(g^-1 h); needs the relative rotation inside (-pi, pi). */
static int se2_local(const void *st, const VI_REAL *g, const VI_REAL *h, VI_REAL *xi) {
  VI_REAL gi[3], k[3];
  se2_inverse(st, g, gi);
  se2_compose(st, gi, h, k);
  VI_REAL th = vi_atan2(vi_sin(k[2]), vi_cos(k[2]));
  if (!(vi_fabs(th) < VI_PI)) {
    return 1;
  }
  VI_REAL w = 2 * vi_sin(th / 2) / vi_cos(th / 2);
  xi[0] = k[0] + w * k[1] / 2;
  xi[1] = k[1] - w * k[0] / 2;
  xi[2] = w;
  return 0;
}

static int se2_dcay(const void *st, const VI_REAL *xi, VI_REAL *D) {
  (void)st;
  const VI_REAL v1 = xi[0], v2 = xi[1], w = xi[2], f = 2 / (4 + w * w);
  D[0] = 2 * f;
  D[1] = w * f;
  D[2] = -v2 * f;
  D[3] = -w * f;
  D[4] = 2 * f;
  D[5] = v1 * f;
  D[6] = 0;
  D[7] = 0;
  D[8] = 2 * f;
  return 0;
}

static int se2_dcayinv(const void *st, const VI_REAL *xi, VI_REAL *D) {
  (void)st;
  const VI_REAL v1 = xi[0], v2 = xi[1], w = xi[2];
  D[0] = 1;
  D[1] = -w / 2;
  D[2] = v2 / 2 + w * v1 / 4;
  D[3] = w / 2;
  D[4] = 1;
  D[5] = -v1 / 2 + w * v2 / 4;
  D[6] = 0;
  D[7] = 0;
  D[8] = 1 + w * w / 4;
  return 0;
}

/* ad_xi eta = [xi, eta] = (-omega u2 + w v2, omega u1 - w v1, 0) for
 * eta = (u1, u2, w). */
static int se2_ad(const void *st, const VI_REAL *xi, VI_REAL *A) {
  (void)st;
  const VI_REAL v1 = xi[0], v2 = xi[1], w = xi[2];
  A[0] = 0;
  A[1] = -w;
  A[2] = v2;
  A[3] = w;
  A[4] = 0;
  A[5] = -v1;
  A[6] = 0;
  A[7] = 0;
  A[8] = 0;
  return 0;
}

static int se2_Ad(const void *st, const VI_REAL *g, VI_REAL *A) {
  (void)st;
  VI_REAL c = vi_cos(g[2]), s = vi_sin(g[2]);
  A[0] = c;
  A[1] = -s;
  A[2] = g[1];
  A[3] = s;
  A[4] = c;
  A[5] = -g[0];
  A[6] = 0;
  A[7] = 0;
  A[8] = 1;
  return 0;
}

/* The second-tangent term (ddcay_xi)*(y, pi) of demartin2018 (26) in
 * closed form (notes §1.6, SE(2)): with d = dcay_xi y = (d_v, d_w), pi =
 * (pi_v, pi_w), v = (v1, v2), J = [[0, -1], [1, 0]]:
 *   K_v = -1/2 d_w J pi_v - 1/4 omega d_w pi_v,
 *   K_w = -1/2 (J d_v).pi_v - 1/4 d_w (v.pi_v) - 1/2 omega d_w pi_w;
 * vistudy check compares it with differences of dcay. */
static int se2_ddcay_star(const void *st, const VI_REAL *xi, const VI_REAL *y,
                          const VI_REAL *pi, VI_REAL *K) {
  VI_REAL D[9], d[3];
  se2_dcay(st, xi, D);
  for (int i = 0; i < 3; i++) {
    d[i] = D[3 * i] * y[0] + D[3 * i + 1] * y[1] + D[3 * i + 2] * y[2];
  }
  const VI_REAL w = xi[2], dw = d[2];
  const VI_REAL Jd_pi = -d[1] * pi[0] + d[0] * pi[1], v_pi = xi[0] * pi[0] + xi[1] * pi[1];
  K[0] = -dw * (-pi[1]) / 2 - w * dw * pi[0] / 4;
  K[1] = -dw * pi[0] / 2 - w * dw * pi[1] / 4;
  K[2] = -Jd_pi / 2 - dw * v_pi / 4 - w * dw * pi[2] / 2;
  return 0;
}

/* d/dt (x, y, theta) along gdot = g xi. */
static int se2_tangent(const void *st, const VI_REAL *g, const VI_REAL *xi, VI_REAL *gd) {
  (void)st;
  VI_REAL c = vi_cos(g[2]), s = vi_sin(g[2]);
  gd[0] = c * xi[0] - s * xi[1];
  gd[1] = s * xi[0] + c * xi[1];
  gd[2] = xi[2];
  return 0;
}

/* ---- the trivialised Lagrangian ------------------------------------------------ */

static int vd_lagrangian(const void *state, const VI_REAL *g, const VI_REAL *xi,
                         VI_REAL *l) {
  const vd_state *s = state;
  *l = (s->m * (xi[0] * xi[0] + xi[1] * xi[1]) + s->Iz * xi[2] * xi[2]) / 2 -
       s->k * (g[0] * g[0] + g[1] * g[1]) / 2;
  return 0;
}

static int vd_dxi(const void *state, const VI_REAL *g, const VI_REAL *xi, VI_REAL *mu) {
  const vd_state *s = state;
  (void)g;
  mu[0] = s->m * xi[0];
  mu[1] = s->m * xi[1];
  mu[2] = s->Iz * xi[2];
  return 0;
}

/* F = L*_g D1 l = (-k s, -k r, 0). */
static int vd_force(const void *state, const VI_REAL *g, const VI_REAL *xi, VI_REAL *F) {
  const vd_state *s = state;
  (void)xi;
  VI_REAL c = vi_cos(g[2]), sn = vi_sin(g[2]);
  F[0] = -s->k * (g[0] * c + g[1] * sn);
  F[1] = -s->k * (-g[0] * sn + g[1] * c);
  F[2] = 0;
  return 0;
}

static int vd_dxi2(const void *state, const VI_REAL *g, const VI_REAL *xi, VI_REAL *H) {
  const vd_state *s = state;
  (void)g;
  (void)xi;
  for (int i = 0; i < 9; i++) {
    H[i] = 0;
  }
  H[0] = s->m;
  H[4] = s->m;
  H[8] = s->Iz;
  return 0;
}

static int vd_zero33(const void *state, const VI_REAL *g, const VI_REAL *xi, VI_REAL *D) {
  (void)state;
  (void)g;
  (void)xi;
  for (int i = 0; i < 9; i++) {
    D[i] = 0;
  }
  return 0;
}

/* dF_a along g cay(eps e_b): translations move (s, r) by e_1, e_2; the
 * rotation turns them: ds/dtheta = r, dr/dtheta = -s. */
static int vd_dforce_dg(const void *state, const VI_REAL *g, const VI_REAL *xi,
                        VI_REAL *D) {
  const vd_state *s = state;
  (void)xi;
  VI_REAL c = vi_cos(g[2]), sn = vi_sin(g[2]);
  VI_REAL sx = g[0] * c + g[1] * sn, r = -g[0] * sn + g[1] * c;
  D[0] = -s->k;
  D[1] = 0;
  D[2] = -s->k * r;
  D[3] = 0;
  D[4] = -s->k;
  D[5] = s->k * sx;
  D[6] = 0;
  D[7] = 0;
  D[8] = 0;
  return 0;
}

/* ---- the constraint phi = v2 -------------------------------------------------- */

static int vd_matrix(const void *state, const VI_REAL *g, VI_REAL *A) {
  (void)state;
  (void)g;
  A[0] = 0;
  A[1] = 1;
  A[2] = 0;
  return 0;
}

/* D_g Phi(g, w) and D_g(A' mu), left trivialised as api_tmpl.h defines
 * them for the Lie form (vi_nh_ops): [i][b] = d/deps at g cay(eps e_b),
 * the directions of dxi_dg and dforce_dg, not d/d(x, y, theta). Along a
 * motion gdot = g xi, d/dt Phi(g, w) = dphi_dq(g, w) xi. A = (0, 1, 0) is
 * constant and a = 0, so both vanish. */
static int vd_dphi_dq(const void *state, const VI_REAL *g, const VI_REAL *w, VI_REAL *D) {
  (void)state;
  (void)g;
  (void)w;
  D[0] = D[1] = D[2] = 0;
  return 0;
}

static int vd_datmu(const void *state, const VI_REAL *g, const VI_REAL *mu, VI_REAL *D) {
  (void)mu;
  return vd_zero33(state, g, NULL, D);
}

/* ---- exact solution ------------------------------------------------------------ */

static int vd_exact(const void *state, VI_REAL t, VI_REAL *q, VI_REAL *p,
                    VI_REAL *lambda) {
  const vd_state *s = state;
  if (s->xi0[1] != 0) {
    return VI_EUNSUPPORTED; /* the data is projected; the formula needs v2 = 0 */
  }
  const VI_REAL w = s->xi0[2], th0 = s->q0[2];
  const VI_REAL c0 = vi_cos(th0), s0n = vi_sin(th0);
  const VI_REAL sx0 = s->q0[0] * c0 + s->q0[1] * s0n,
                r0 = -s->q0[0] * s0n + s->q0[1] * c0;
  const VI_REAL sd0 = s->xi0[0] + w * r0;
  /* s'' = -W2 s with W2 = k/m + omega^2 of either sign: s = s0 C + sd0 S,
   * sdot = -W2 S s0 + sd0 C, r = r0 - omega (s0 S + sd0 IS), with
   * z = W2 t^2 and C = sum (-z)^j/(2j)!, S = t sum (-z)^j/(2j+1)!,
   * IS = int S = t^2 sum (-z)^j/(2j+2)! (cos, sin/W, (1-cos)/W^2 for z > 0;
   * cosh, sinh/W for z < 0; 1, t, t^2/2 at z = 0). The series for |z| < 1,
   * where the closed forms cancel (W2 near 0), the closed forms beyond. */
  const VI_REAL W2 = s->k / s->m + w * w, z = W2 * t * t;
  VI_REAL C, S, IS;
  if (vi_fabs(z) < 1) {
    VI_REAL c = 1, sn = 1, is = VI_C(0.5), term = 1;
    C = 0;
    S = 0;
    IS = 0;
    for (int j = 0; j < 60; j++) {
      /* term = (-z)^j; the factorials enter through c, sn, is. */
      C += term * c;
      S += term * sn;
      IS += term * is;
      c /= (VI_REAL)((2 * j + 1) * (2 * j + 2));
      sn /= (VI_REAL)((2 * j + 2) * (2 * j + 3));
      is /= (VI_REAL)((2 * j + 3) * (2 * j + 4));
      term *= -z;
      if (vi_fabs(term * c) <= VI_EPS * VI_EPS) {
        break;
      }
    }
    S *= t;
    IS *= t * t;
  } else if (W2 > 0) {
    const VI_REAL W = vi_sqrt(W2), hs = vi_sin(W * t / 2);
    C = vi_cos(W * t);
    S = vi_sin(W * t) / W;
    IS = 2 * hs * hs / W2;
  } else {
    const VI_REAL W = vi_sqrt(-W2), e = vi_exp(W * t), ei = 1 / e;
    const VI_REAL hs = (vi_exp(W * t / 2) - vi_exp(-W * t / 2)) / 2;
    C = (e + ei) / 2;
    S = (e - ei) / 2 / W;
    IS = 2 * hs * hs / -W2;
  }
  const VI_REAL sx = sx0 * C + sd0 * S, sd = -W2 * S * sx0 + sd0 * C;
  const VI_REAL r = r0 - w * (sx0 * S + sd0 * IS);
  const VI_REAL v1 = sd - w * r, th = th0 + w * t, c = vi_cos(th), sn = vi_sin(th);
  q[0] = sx * c - r * sn;
  q[1] = sx * sn + r * c;
  q[2] = th;
  p[0] = s->m * v1;
  p[1] = 0;
  p[2] = s->Iz * w;
  lambda[0] = -(s->m * w * v1 + s->k * r);
  return 0;
}

/* The registry's declarations (systems.def), so that this definition is
 * checked against its entry there. */
#define VI_SYSTEM(id) extern const VI_X(vi_system_type) VI_X(vi_sys_##id);
#include "systems.def"
#undef VI_SYSTEM

static const VI_X(vi_space_ops) vertical_disc_space = {
    .compose = se2_compose,
    .inverse = se2_inverse,
    .cay = se2_cay,
    .local = se2_local,
    .dcay = se2_dcay,
    .dcayinv = se2_dcayinv,
    .ad = se2_ad,
    .Ad = se2_Ad,
    .tangent = se2_tangent,
    .ddcay_star = se2_ddcay_star,
};

static const VI_X(vi_lie_ops) vertical_disc_lie = {
    .lagrangian = vd_lagrangian,
    .dxi = vd_dxi,
    .force = vd_force,
    .dxi2 = vd_dxi2,
    .dxi_dg = vd_zero33,
    .dforce_dg = vd_dforce_dg,
    .dforce_dxi = vd_zero33,
};

static const VI_X(vi_nh_ops) vertical_disc_nh = {
    .matrix = vd_matrix,
    .dphi_dq = vd_dphi_dq,
    .datmu = vd_datmu,
};

static const VI_X(vi_obs_ops) vertical_disc_obs = {
    .exact = vd_exact,
};

const VI_X(vi_system_type) VI_X(vi_sys_vertical_disc) = {
    .info = &vd_info,
    .state_size = sizeof(vd_state),
    .setup = vd_setup,
    .initial = vd_initial,
    .lie = &vertical_disc_lie,
    .space = &vertical_disc_space,
    .nh = &vertical_disc_nh,
    .obs = &vertical_disc_obs,
};
