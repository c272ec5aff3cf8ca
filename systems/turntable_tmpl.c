/* turntable_tmpl.c: a ball rolling without slipping on a turntable that turns
 * with constant angular velocity Omega, on the direct product SO(3) x R^2
 * (demartin2018 §7.5, Fig. 8; reading notes
 * ../shared/papers/notes/demartin2018.md §2.5). g = (R, x, y): the
 * attitude R and the contact point (x, y); the body velocity is
 * xi = (omega1, omega2, omega3, v_x, v_y), omega the left-trivialised
 * angular velocity (R'Rdot = hat(omega)). Unit mass, radius r, principal
 * moments r^2 (a, b, c):
 *   l(g, xi) = 1/2 (v_x^2 + v_y^2) + r^2/2 (a w1^2 + b w2^2 + c w3^2),
 * no potential, and the two rolling constraints, affine in xi,
 *   phi1 = v_x + Omega y - r w2 = 0,  phi2 = v_y - Omega x + r w1 = 0.
 * phi uses the body omega literally, as the paper writes it (notes §2.5
 * "Reading"): for a = b = c it is the physical ball in (x, y, v, omega,
 * lambda) (only R(t) differs); for unequal moments it is another system.
 *
 * The group is stored in an embedding (info.nq = 11 reals > n = 5): R
 * row-major, then x, y. SO(3) x R^2 is a direct product (not SE(3)), so
 * every group map is block diagonal, and on R^2 cay is the identity
 * (notes §1.6): compose (R1 R2, t1 + t2); cay(w) = I + 4/(4+|w|^2)
 * (hat w + hat w^2/2); dcay_w = 2/(4+|w|^2) (2I - hat w); dcay_w^-1 =
 * I + hat w/2 + w w'/4; ad_w = hat w; Ad_R = R.
 *
 * Sign of the multiplier (api_tmpl.h): the constraint force is -A' mu, so
 * the equations are
 *   I_w wdot = (I_w w) x w - (r mu2, -r mu1, 0),  vdot = -mu,
 * and mu = -lambda of the paper (for a = b = c: mu = -kappa (-v_y, v_x),
 * kappa = Omega a/(1 + a); mu0 = (8/35, -1/35) at the defaults). There is
 * no closed form for R(t), so no exact solution table: the core's
 * reference integrates the equations. Compiled once per precision. */
#include <stddef.h>

#include "prec.h"
#include "numerics_tmpl.h"
#include "api_tmpl.h"

enum { TT_N = 5, TT_NQ = 11, TT_M = 2 };

typedef struct tt_state {
  VI_REAL r, a, b, c, Om;
  VI_REAL I[TT_N]; /* the locked inertia diag(r^2 a, r^2 b, r^2 c, 1, 1) */
  VI_REAL q0[TT_NQ], xi0[TT_N];
} tt_state;

static const vi_param tt_params[] = {
    {"r", 1, "1", "radius of the ball (unit mass)", VI_PARAM_POSITIVE},
    {"abc", 3, "0.4,0.4,0.4",
     "principal moments of inertia over r^2 (a, b, c); 0.4 = 2/5 is a solid ball; "
     "the momentum maps are first integrals only for a = b = c",
     VI_PARAM_POSITIVE},
    {"Omega", 1, "1", "angular velocity of the turntable", VI_PARAM_ANY},
    {"R0", 9, "1,0,0,0,1,0,0,0,1", "initial attitude R (row-major), a rotation",
     VI_PARAM_ROTATION},
    {"xy0", 2, "1,0", "initial contact point (x, y)", VI_PARAM_ANY},
    {"eta0", TT_N, "0.2,0.1,0.5,0.1,0.8",
     "initial body velocity (omega1, omega2, omega3, v_x, v_y); must satisfy "
     "v_x = r omega2 - Omega y and v_y = Omega x - r omega1",
     VI_PARAM_ANY},
    {NULL, 0, NULL, NULL, VI_PARAM_ANY},
};

/* The paper's first integrals for a = b = c (demartin2018 §7.5, notes
 * §2.5); for unequal moments they are the same functions, not conserved. */
static const char *const tt_momentum_names[] = {"omega_zeta", "C1", "C2", "E_mov"};

static const vi_system_info tt_info = {
    .name = "turntable",
    .summary = "ball rolling on a rotating turntable on SO(3) x R^2 (group stored as R, x, y); "
               "the momentum maps are invariants for a = b = c only",
    .cite = "demartin2018 §7.5 (Fig. 8)",
    .n = TT_N,
    .nq = TT_NQ,
    .m = 0,
    .m_nh = TT_M,
    .n_momenta = 4,
    .momentum_names = tt_momentum_names,
    .params = tt_params,
};

/* r and a, b, c > 0 are their parameters' domains (a positive inertia);
 * R0 in SO(3) (through project) and eta0 on the rolling constraints are
 * checked by vi_system_alloc: no rule of its own. */
static int tt_setup(void *state, const VI_REAL *par, char *err, size_t errlen) {
  (void)err;
  (void)errlen;
  tt_state *s = state;
  s->r = par[0];
  s->a = par[1];
  s->b = par[2];
  s->c = par[3];
  s->Om = par[4];
  const VI_REAL r2 = s->r * s->r;
  s->I[0] = r2 * s->a;
  s->I[1] = r2 * s->b;
  s->I[2] = r2 * s->c;
  s->I[3] = 1;
  s->I[4] = 1;
  for (int i = 0; i < TT_NQ; i++) {
    s->q0[i] = par[5 + i];
  }
  for (int i = 0; i < TT_N; i++) {
    s->xi0[i] = par[5 + TT_NQ + i];
  }
  return 0;
}

static int tt_initial(const void *state, VI_REAL *q0, VI_REAL *xi0) {
  const tt_state *s = state;
  for (int i = 0; i < TT_NQ; i++) {
    q0[i] = s->q0[i];
  }
  for (int i = 0; i < TT_N; i++) {
    xi0[i] = s->xi0[i];
  }
  return 0;
}

/* ---- SO(3) x R^2 --------------------------------------------------------------- */

static void mat3_mul(const VI_REAL *A, const VI_REAL *B, VI_REAL *C) {
  VI_REAL t[9];
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      t[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
    }
  }
  for (int i = 0; i < 9; i++) {
    C[i] = t[i];
  }
}

static VI_REAL mat3_det(const VI_REAL *R) {
  return R[0] * (R[4] * R[8] - R[5] * R[7]) - R[1] * (R[3] * R[8] - R[5] * R[6]) +
         R[2] * (R[3] * R[7] - R[4] * R[6]);
}

static int so3_compose(const void *st, const VI_REAL *g, const VI_REAL *h, VI_REAL *gh) {
  (void)st;
  VI_REAL x = g[9] + h[9], y = g[10] + h[10]; /* gh may alias g or h */
  mat3_mul(g, h, gh);
  gh[9] = x;
  gh[10] = y;
  return 0;
}

static int so3_inverse(const void *st, const VI_REAL *g, VI_REAL *gi) {
  (void)st;
  VI_REAL t[9];
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      t[3 * i + j] = g[3 * j + i];
    }
  }
  for (int i = 0; i < 9; i++) {
    gi[i] = t[i];
  }
  gi[9] = -g[9];
  gi[10] = -g[10];
  return 0;
}

/* cay(w) = I + 4/(4+|w|^2) (hat w + hat w^2/2), hat w^2 = w w' - |w|^2 I
 * (notes §1.6): a rotation by 2 atan(|w|/2); cay(v) = v on R^2. */
static int so3_cay(const void *st, const VI_REAL *xi, VI_REAL *g) {
  (void)st;
  const VI_REAL w1 = xi[0], w2 = xi[1], w3 = xi[2];
  const VI_REAL ww = w1 * w1 + w2 * w2 + w3 * w3, f = 4 / (4 + ww), h = f / 2;
  g[0] = 1 + h * (w1 * w1 - ww);
  g[1] = h * w1 * w2 - f * w3;
  g[2] = h * w1 * w3 + f * w2;
  g[3] = h * w2 * w1 + f * w3;
  g[4] = 1 + h * (w2 * w2 - ww);
  g[5] = h * w2 * w3 - f * w1;
  g[6] = h * w3 * w1 - f * w2;
  g[7] = h * w3 * w2 + f * w1;
  g[8] = 1 + h * (w3 * w3 - ww);
  g[9] = xi[3];
  g[10] = xi[4];
  return 0;
}

/* xi = cay^-1(g^-1 h): w = 2/(1 + tr R) vee(R - R') on SO(3) (notes §1.6),
 * the translation on R^2. cay^-1 blows up at relative rotations by pi
 * (1 + tr R = 2(1 + cos angle) -> 0): refused before it loses accuracy. */
static int so3_local(const void *st, const VI_REAL *g, const VI_REAL *h, VI_REAL *xi) {
  VI_REAL gi[TT_NQ], k[TT_NQ];
  so3_inverse(st, g, gi);
  so3_compose(st, gi, h, k);
  const VI_REAL den = 1 + k[0] + k[4] + k[8];
  if (!(den > vi_sqrt(VI_EPS))) {
    return 1;
  }
  const VI_REAL f = 2 / den;
  xi[0] = f * (k[7] - k[5]);
  xi[1] = f * (k[2] - k[6]);
  xi[2] = f * (k[3] - k[1]);
  xi[3] = k[9];
  xi[4] = k[10];
  return 0;
}

static void zero55(VI_REAL *D) {
  for (int i = 0; i < TT_N * TT_N; i++) {
    D[i] = 0;
  }
}

/* Writes f M into the SO(3) block of the 5 x 5 matrix D, M 3 x 3 row-major. */
static void block3(VI_REAL *D, const VI_REAL *M, VI_REAL f) {
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      D[TT_N * i + j] = f * M[3 * i + j];
    }
  }
}

/* dcay_w = 2/(4+|w|^2) (2I - hat w), left-trivialised (notes §1.6). */
static int so3_dcay(const void *st, const VI_REAL *xi, VI_REAL *D) {
  (void)st;
  const VI_REAL w1 = xi[0], w2 = xi[1], w3 = xi[2];
  const VI_REAL M[9] = {2, w3, -w2, -w3, 2, w1, w2, -w1, 2};
  zero55(D);
  block3(D, M, 2 / (4 + w1 * w1 + w2 * w2 + w3 * w3));
  D[18] = 1;
  D[24] = 1;
  return 0;
}

/* dcay_w^-1 = I + hat w/2 + w w'/4. */
static int so3_dcayinv(const void *st, const VI_REAL *xi, VI_REAL *D) {
  (void)st;
  const VI_REAL w1 = xi[0], w2 = xi[1], w3 = xi[2];
  const VI_REAL M[9] = {1 + w1 * w1 / 4, -w3 / 2 + w1 * w2 / 4, w2 / 2 + w1 * w3 / 4,
                        w3 / 2 + w2 * w1 / 4, 1 + w2 * w2 / 4, -w1 / 2 + w2 * w3 / 4,
                        -w2 / 2 + w3 * w1 / 4, w1 / 2 + w3 * w2 / 4, 1 + w3 * w3 / 4};
  zero55(D);
  block3(D, M, 1);
  D[18] = 1;
  D[24] = 1;
  return 0;
}

/* ad_xi eta = [xi, eta] = (w x u, 0) for eta = (u, s): hat w on SO(3), 0 on
 * the abelian R^2 (the same convention as SE(2)'s ad in vertical_disc_tmpl.c:
 * d/deps Ad_{cay(eps xi)} eta = ad_xi eta; so ad*_xi mu = -w x mu_w, and
 * d/dt I_w w = (I_w w) x w in the core's Euler-Poincare equations). */
static int so3_ad(const void *st, const VI_REAL *xi, VI_REAL *A) {
  (void)st;
  const VI_REAL w1 = xi[0], w2 = xi[1], w3 = xi[2];
  const VI_REAL M[9] = {0, -w3, w2, w3, 0, -w1, -w2, w1, 0};
  zero55(A);
  block3(A, M, 1);
  return 0;
}

static int so3_Ad(const void *st, const VI_REAL *g, VI_REAL *A) {
  (void)st;
  zero55(A);
  block3(A, g, 1);
  A[18] = 1;
  A[24] = 1;
  return 0;
}

/* The second-tangent term (ddcay_xi)*(y, pi) of demartin2018 (26) in
 * closed form (notes §1.6): on SO(3), with d = dcay_w y_w,
 *   K_w = 1/2 pi_w x d - 1/4 (w.d) pi_w - 1/4 (w.pi_w) d,
 * and 0 on R^2 (cay is the identity there, its second tangent vanishes);
 * vistudy check compares it with differences of dcay. */
static int so3_ddcay_star(const void *st, const VI_REAL *xi, const VI_REAL *y,
                          const VI_REAL *pi, VI_REAL *K) {
  (void)st;
  const VI_REAL w1 = xi[0], w2 = xi[1], w3 = xi[2];
  const VI_REAL f = 2 / (4 + w1 * w1 + w2 * w2 + w3 * w3);
  /* d = f (2 y - w x y). */
  const VI_REAL d[3] = {f * (2 * y[0] - (w2 * y[2] - w3 * y[1])),
                        f * (2 * y[1] - (w3 * y[0] - w1 * y[2])),
                        f * (2 * y[2] - (w1 * y[1] - w2 * y[0]))};
  const VI_REAL wd = w1 * d[0] + w2 * d[1] + w3 * d[2];
  const VI_REAL wp = w1 * pi[0] + w2 * pi[1] + w3 * pi[2];
  K[0] = (pi[1] * d[2] - pi[2] * d[1]) / 2 - wd * pi[0] / 4 - wp * d[0] / 4;
  K[1] = (pi[2] * d[0] - pi[0] * d[2]) / 2 - wd * pi[1] / 4 - wp * d[1] / 4;
  K[2] = (pi[0] * d[1] - pi[1] * d[0]) / 2 - wd * pi[2] / 4 - wp * d[2] / 4;
  K[3] = 0;
  K[4] = 0;
  return 0;
}

/* d/dt of the stored reals along gdot = g xi: Rdot = R hat w, (x, y)dot =
 * (v_x, v_y) (the translations of a direct product are not rotated). */
static int so3_tangent(const void *st, const VI_REAL *g, const VI_REAL *xi, VI_REAL *gd) {
  (void)st;
  const VI_REAL w1 = xi[0], w2 = xi[1], w3 = xi[2];
  const VI_REAL W[9] = {0, -w3, w2, w3, 0, -w1, -w2, w1, 0};
  mat3_mul(g, W, gd);
  gd[9] = xi[3];
  gd[10] = xi[4];
  return 0;
}

/* The distance of the stored reals from the group, max(|R'R - I|_max,
 * |det R - 1|), and R replaced by its orthogonal polar factor, the nearest
 * rotation (Frobenius), by Newton's iteration R <- (R + R^-T)/2 (global
 * for det R > 0, quadratic near SO(3)); x, y are unchanged. det R <= 0 is
 * no rotation: refused. */
static int so3_project(const void *st, VI_REAL *g, VI_REAL *res) {
  (void)st;
  VI_REAL d = 0;
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      VI_REAL t = -(VI_REAL)(i == j);
      for (int k = 0; k < 3; k++) {
        t += g[3 * k + i] * g[3 * k + j];
      }
      t = vi_fabs(t);
      d = t > d || t != t ? t : d;
    }
  }
  VI_REAL det = mat3_det(g), e = vi_fabs(det - 1);
  *res = e > d || e != e ? e : d;
  if (!(det > 0) || !vi_isfinite(*res)) {
    return 1;
  }
  for (int it = 0; it < 100; it++) {
    /* R^-T = cof(R)/det R, the cofactor columns being the cross products
     * of R's columns. */
    VI_REAL C[9];
    const VI_REAL *R = g;
    C[0] = R[4] * R[8] - R[7] * R[5];
    C[3] = R[7] * R[2] - R[1] * R[8];
    C[6] = R[1] * R[5] - R[4] * R[2];
    C[1] = R[5] * R[6] - R[8] * R[3];
    C[4] = R[8] * R[0] - R[2] * R[6];
    C[7] = R[2] * R[3] - R[5] * R[0];
    C[2] = R[3] * R[7] - R[6] * R[4];
    C[5] = R[6] * R[1] - R[0] * R[7];
    C[8] = R[0] * R[4] - R[3] * R[1];
    det = mat3_det(R);
    if (!(det > 0)) {
      return 1;
    }
    VI_REAL step = 0;
    for (int i = 0; i < 9; i++) {
      VI_REAL u = (g[i] + C[i] / det) / 2, du = vi_fabs(u - g[i]);
      step = du > step ? du : step;
      g[i] = u;
    }
    /* Quadratic convergence: a step of a few ulp leaves an error far below
     * it; the round-off of the iteration itself is a few ulp. */
    if (step <= 16 * VI_EPS) {
      return 0;
    }
  }
  return 1;
}

/* ---- the trivialised Lagrangian -------------------------------------------------- */

static int tt_lagrangian(const void *state, const VI_REAL *g, const VI_REAL *xi,
                         VI_REAL *l) {
  const tt_state *s = state;
  (void)g;
  VI_REAL t = 0;
  for (int i = 0; i < TT_N; i++) {
    t += s->I[i] * xi[i] * xi[i];
  }
  *l = t / 2;
  return 0;
}

static int tt_dxi(const void *state, const VI_REAL *g, const VI_REAL *xi, VI_REAL *mu) {
  const tt_state *s = state;
  (void)g;
  for (int i = 0; i < TT_N; i++) {
    mu[i] = s->I[i] * xi[i];
  }
  return 0;
}

/* No potential: l does not depend on g, so F = L*_g D1 l = 0. */
static int tt_force(const void *state, const VI_REAL *g, const VI_REAL *xi, VI_REAL *F) {
  (void)state;
  (void)g;
  (void)xi;
  for (int i = 0; i < TT_N; i++) {
    F[i] = 0;
  }
  return 0;
}

static int tt_dxi2(const void *state, const VI_REAL *g, const VI_REAL *xi, VI_REAL *H) {
  const tt_state *s = state;
  (void)g;
  (void)xi;
  zero55(H);
  for (int i = 0; i < TT_N; i++) {
    H[(TT_N + 1) * i] = s->I[i];
  }
  return 0;
}

static int tt_zero55(const void *state, const VI_REAL *g, const VI_REAL *xi, VI_REAL *D) {
  (void)state;
  (void)g;
  (void)xi;
  zero55(D);
  return 0;
}

/* ---- the rolling constraints ------------------------------------------------------- */

/* A = D2 phi, constant (notes §2.5). */
static int tt_matrix(const void *state, const VI_REAL *g, VI_REAL *A) {
  const tt_state *s = state;
  (void)g;
  const VI_REAL r = s->r;
  const VI_REAL M[2 * TT_N] = {0, -r, 0, 1, 0, r, 0, 0, 0, 1};
  for (int i = 0; i < 2 * TT_N; i++) {
    A[i] = M[i];
  }
  return 0;
}

/* The turntable's velocity at the contact point enters as a(g) =
 * (Omega y, -Omega x). */
static int tt_affine(const void *state, const VI_REAL *g, VI_REAL *a) {
  const tt_state *s = state;
  a[0] = s->Om * g[10];
  a[1] = -s->Om * g[9];
  return 0;
}

/* D_g(A w + a) and D_g(A' mu), left trivialised as api_tmpl.h defines
 * them for the Lie form (vi_nh_ops): [i][b] = d/deps at g cay(eps e_b),
 * b = 1..5 the algebra's basis (2 x 5 and 5 x 5), the directions of dxi_dg
 * and dforce_dg, not derivatives in the 11 stored reals; along a motion
 * gdot = g xi, d/dt Phi(g, w) = dphi_dq(g, w) xi. A is constant and only
 * the translations e_4 = e_x, e_5 = e_y move (x, y) (direct product, cay
 * the identity on R^2), so only a(g) contributes. */
static int tt_dphi_dq(const void *state, const VI_REAL *g, const VI_REAL *w, VI_REAL *D) {
  const tt_state *s = state;
  (void)g;
  (void)w;
  for (int i = 0; i < 2 * TT_N; i++) {
    D[i] = 0;
  }
  D[4] = s->Om;           /* d phi1 / d e_y */
  D[TT_N + 3] = -s->Om;   /* d phi2 / d e_x */
  return 0;
}

static int tt_datmu(const void *state, const VI_REAL *g, const VI_REAL *mu, VI_REAL *D) {
  (void)mu;
  return tt_zero55(state, g, NULL, D);
}

/* ---- the paper's first integrals (a = b = c) -------------------------------------- */

/* With w = body omega, v = (v_x, v_y) from mu = I xi (demartin2018 §7.5,
 * notes §2.5):
 *   omega_zeta = w3,  C1 = r w1 - Omega x/(1+a),  C2 = r w2 - Omega y/(1+a),
 *   E_mov = 1/2 |v|^2 + (a r^2/2)|w|^2 + r Omega (x w1 + y w2)
 *           - Omega^2 (x^2 + y^2),
 * the notes' formula, verified (no typo): for a = b = c the constraints
 * give (C1, C2) = kappa c, kappa = Omega a/(1+a), c the centre of the
 * circle the contact point runs on with constant speed |v|, so
 * |x|^2 - 2 c.x is constant, and E_mov = 1/2|v|^2 + (a/2)(C1^2 + C2^2 +
 * r^2 w3^2) + Omega (1+2a)/(1+a) (C.x - kappa |x|^2/2) is. Checked along
 * DOP853 in tests/ref_systems.py selftest. For unequal moments none of
 * the four is conserved (the functions keep a). */
static int tt_momenta(const void *state, const VI_REAL *g, const VI_REAL *p, VI_REAL *J) {
  const tt_state *s = state;
  const VI_REAL r = s->r, a = s->a, Om = s->Om, x = g[9], y = g[10];
  const VI_REAL w1 = p[0] / s->I[0], w2 = p[1] / s->I[1], w3 = p[2] / s->I[2];
  const VI_REAL vx = p[3], vy = p[4];
  J[0] = w3;
  J[1] = r * w1 - Om * x / (1 + a);
  J[2] = r * w2 - Om * y / (1 + a);
  J[3] = (vx * vx + vy * vy) / 2 + a * r * r * (w1 * w1 + w2 * w2 + w3 * w3) / 2 +
         r * Om * (x * w1 + y * w2) - Om * Om * (x * x + y * y);
  return 0;
}

/* The registry's declarations (systems.def), so that this definition is
 * checked against its entry there. */
#define VI_SYSTEM(id) extern const VI_X(vi_system_type) VI_X(vi_sys_##id);
#include "systems.def"
#undef VI_SYSTEM

static const VI_X(vi_space_ops) turntable_space = {
    .compose = so3_compose,
    .inverse = so3_inverse,
    .cay = so3_cay,
    .local = so3_local,
    .dcay = so3_dcay,
    .dcayinv = so3_dcayinv,
    .ad = so3_ad,
    .Ad = so3_Ad,
    .tangent = so3_tangent,
    .project = so3_project,
    .ddcay_star = so3_ddcay_star,
};

static const VI_X(vi_lie_ops) turntable_lie = {
    .lagrangian = tt_lagrangian,
    .dxi = tt_dxi,
    .force = tt_force,
    .dxi2 = tt_dxi2,
    .dxi_dg = tt_zero55,
    .dforce_dg = tt_zero55,
    .dforce_dxi = tt_zero55,
};

static const VI_X(vi_nh_ops) turntable_nh = {
    .matrix = tt_matrix,
    .affine = tt_affine,
    .dphi_dq = tt_dphi_dq,
    .datmu = tt_datmu,
};

static const VI_X(vi_obs_ops) turntable_obs = {
    .momenta = tt_momenta,
};

const VI_X(vi_system_type) VI_X(vi_sys_turntable) = {
    .info = &tt_info,
    .state_size = sizeof(tt_state),
    .setup = tt_setup,
    .initial = tt_initial,
    .lie = &turntable_lie,
    .space = &turntable_space,
    .nh = &turntable_nh,
    .obs = &turntable_obs,
};
