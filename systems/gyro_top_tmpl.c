/* gyro_top_tmpl.c: the heavy (gyroscopic) top of betsch-ggl §6.2, eqs
 * (100)-(112), in the director formulation (Betsch and Leyendecker): a
 * rigid body with its tip fixed at the origin, q = (phi, d1, d2, d3) in
 * R^12 (100), phi the centre of mass and d_i the body-fixed directors along
 * the principal axes. Mass matrix (101) M = diag(m I3, E1 I3, E2 I3, E3 I3)
 * with the Euler tensor E_i = 1/2 (I_j + I_k - I_i) ((i, j, k) cyclic; I_i
 * the principal moments about the centre of mass, NOT E_i = I_i);
 * V = -m b.phi with b = -gravity e3 (gravity acts on phi only). Nine
 * constraints (102)-(104), in this order:
 *   g1..g3 = 1/2 (d_i.d_i - 1),  g4 = d1.d2, g5 = d1.d3, g6 = d2.d3  (103)
 *   (the paper's form without 1/2; the authors' code has 1/2 d_i.d_j, which
 *   rescales lambda4..6 by 2 and nothing else: reading notes §0),
 *   g7..g9 = phi / l - d3  (104, linear: the tip at the origin).
 * Every g is at most quadratic, so sum mu_k Hess g_k is constant.
 * Symmetry (105)-(107): rotations about e3 of all four blocks; the momentum
 * map J3 = e3.(phi x p_phi + sum_i d_i x p_di) (107) is a first integral
 * with the energy (phi x p_phi alone is not).
 *
 * Initial data (108)-(112) are derived, not given: R(alpha0) the rotation
 * about e1 by alpha0 (108), d_i^0 = R e_i (109), phi^0 = l d3^0 (110),
 * omega0 = omega_p e3 + omega_s d3^0 (111) with the spin omega_s of steady
 * precession (112),
 *   omega_s = m gravity l / (I3 omega_p) + (I1 + m l^2 - I3) / I3 omega_p cos(alpha0),
 * computed here in the working precision (135.6 with the defaults; a
 * rounded omega_s leaves a nutation, reading notes §5 pitfall 9), and
 * v_i^0 = omega0 x q_i^0 for all four blocks, p0 = M v0. So the top has no
 * q0/v0 parameters: its data are alpha0 and omega_p.
 *
 * Exact solution (obs->exact, reading notes §2.2) for a symmetric top,
 * I1 = I2 (VI_EUNSUPPORTED otherwise): the steady precession
 * Lambda(t) = exp(t omega_p e3^) R(alpha0) exp(t omega_s e3^), i.e.
 * d3(t) = Rz(omega_p t) d3^0, phi = l d3,
 * d1(t) = Rz(omega_p t)(cos(omega_s t) d1^0 + sin(omega_s t) d2^0),
 * d2(t) = Rz(omega_p t)(-sin(omega_s t) d1^0 + cos(omega_s t) d2^0),
 * velocities omega x q_i with omega = omega_p e3 + omega_s d3(t), p = M v,
 * and the multipliers from the index-1 formula along it. The same
 * condition makes the initial data a relative equilibrium (obs->steady):
 * the motion is the orbit of the torus of symmetries, rotations about e3
 * (precession) and, for I1 = I2 only, about the body axis d3 (spin), so
 * the nutation, phi3 = l cos(alpha0), V and T stay constant along it; an
 * asymmetric top nutates from the same data. Compiled once per
 * precision. */
#include <stddef.h>

#include "prec.h"
#include "numerics_tmpl.h"
#include "api_tmpl.h"

enum { GT_N = 12, GT_M = 9 };

typedef struct gt_state {
  VI_REAL m, I[3], E[3], l, gravity, alpha0, omega_p;
  VI_REAL omega_s;              /* (112) */
  VI_REAL q0[GT_N], v0[GT_N];   /* (108)-(111) */
} gt_state;

/* Defaults: the authors' exact values (reading notes §2.2, §4 item 4): a
 * cone of density 2700, height a = 0.1, radius r = a/2, so m = 0.225 pi
 * and I1 = I2 = I3 = 0.3 m r^2 = 1.6875e-4 pi (the paper prints the
 * rounded 0.7069 and 5.3014e-4, with which (112) gives 135.60895 instead
 * of 135.6), l = 3a/4 = 0.075, gravity 9.81, alpha0 = pi/3, omega_p = 10.
 * The irrational ones are printed to 36 significant digits, so quad reads
 * them to its own rounding. */
static const vi_param gt_params[] = {
    {"m", 1, "0.706858347057703478654094761237888149", "total mass (101) (default 0.225 pi)",
     VI_PARAM_POSITIVE},
    {"I1", 1, "5.30143760293277608990571070928416112e-4",
     "principal moment of inertia about the centre of mass along d1 (101)",
     VI_PARAM_POSITIVE},
    {"I2", 1, "5.30143760293277608990571070928416112e-4",
     "principal moment of inertia about the centre of mass along d2 (101)",
     VI_PARAM_POSITIVE},
    {"I3", 1, "5.30143760293277608990571070928416112e-4",
     "principal moment of inertia about the centre of mass along the axis d3 (101)",
     VI_PARAM_POSITIVE},
    {"l", 1, "0.075", "distance of the centre of mass from the tip along d3 (104)",
     VI_PARAM_POSITIVE},
    {"gravity", 1, "9.81", "gravitational acceleration along -z (b = -gravity e3)",
     VI_PARAM_ANY},
    {"alpha0", 1, "1.04719755119659774615421446109316763",
     "initial nutation angle, rotation about e1 (108) (default pi/3)", VI_PARAM_ANY},
    {"omega_p", 1, "10", "precession rate (111) (nonzero; the spin follows from (112))",
     VI_PARAM_ANY},
    {NULL, 0, NULL, NULL, VI_PARAM_ANY},
};

/* (107). */
static const char *const gt_momentum_names[] = {"Jz"};

static const vi_system_info gt_info = {
    .name = "gyro-top",
    .summary = "heavy top, director form (12 coordinates, 9 constraints); exact if I1 = I2",
    .cite = "betsch-ggl §6.2, (100)-(112)",
    .n = GT_N,
    .m = GT_M,
    .n_momenta = 1,
    .momenta_noether = 1u << 0, /* Jz: rotations about e3 (105)-(107) */
    .momentum_names = gt_momentum_names,
    .quadratic = VI_QUADRATIC_V | VI_QUADRATIC_G, /* V linear (gravity), g quadratic */
    .params = gt_params,
};

/* a x b. */
static void gt_cross(const VI_REAL *a, const VI_REAL *b, VI_REAL *c) {
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}

static VI_REAL gt_dot(const VI_REAL *a, const VI_REAL *b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* The rules of the data beyond the parameters' domains: every E_i of the
 * Euler tensor (101) > 0, i.e. each principal moment below the sum of the
 * other two (else M is singular or indefinite), and omega_p nonzero, which
 * (112) divides by. Then the derived initial data (108)-(111). */
static int gt_setup(void *state, const VI_REAL *par, char *err, size_t errlen) {
  gt_state *s = state;
  s->m = par[0];
  for (int i = 0; i < 3; i++) {
    s->I[i] = par[1 + i];
  }
  s->l = par[4];
  s->gravity = par[5];
  s->alpha0 = par[6];
  s->omega_p = par[7];
  for (int i = 0; i < 3; i++) {
    const int j = (i + 1) % 3, k = (i + 2) % 3;
    s->E[i] = (s->I[j] + s->I[k] - s->I[i]) / 2; /* (101) */
    if (!(s->E[i] > 0)) {
      vi_set_err(err, errlen,
                 "I%d: must be less than I%d + I%d (got %.17g >= %.17g + %.17g): the Euler "
                 "tensor entry E%d = (I%d + I%d - I%d) / 2 of the mass matrix (101) must be > 0",
                 i + 1, j + 1, k + 1, (double)s->I[i], (double)s->I[j], (double)s->I[k], i + 1,
                 j + 1, k + 1, i + 1);
      return -1;
    }
  }
  if (VI_X(vi_data_nonzero)("omega_p", s->omega_p,
                            "the spin of steady precession (112) divides by it", err,
                            errlen) != 0) {
    return -1;
  }
  const VI_REAL c = vi_cos(s->alpha0), sn = vi_sin(s->alpha0);
  /* (112) */
  s->omega_s = s->m * s->gravity * s->l / (s->I[2] * s->omega_p) +
               (s->I[0] + s->m * s->l * s->l - s->I[2]) / s->I[2] * s->omega_p * c;
  /* (108)-(110): d_i = R(alpha0) e_i, the columns of R; phi = l d3. */
  VI_REAL *q = s->q0;
  const VI_REAL d[3][3] = {{1, 0, 0}, {0, c, sn}, {0, -sn, c}};
  for (int i = 0; i < 3; i++) {
    for (int a = 0; a < 3; a++) {
      q[3 * (i + 1) + a] = d[i][a];
    }
    q[i] = s->l * d[2][i];
  }
  /* (111): omega0 = omega_p e3 + omega_s d3^0, v_i = omega0 x q_i. */
  const VI_REAL w[3] = {s->omega_s * d[2][0], s->omega_s * d[2][1],
                        s->omega_p + s->omega_s * d[2][2]};
  for (int b = 0; b < 4; b++) {
    gt_cross(w, q + 3 * b, s->v0 + 3 * b);
  }
  return 0;
}

/* The diagonal of M (101). */
static VI_REAL gt_mdiag(const gt_state *s, int i) {
  return i < 3 ? s->m : s->E[i / 3 - 1];
}

static int gt_mass(const void *state, VI_REAL *M) {
  const gt_state *s = state;
  for (int i = 0; i < GT_N * GT_N; i++) {
    M[i] = 0;
  }
  for (int i = 0; i < GT_N; i++) {
    M[i * GT_N + i] = gt_mdiag(s, i);
  }
  return 0;
}

/* V = -m b.phi, b = -gravity e3. */
static int gt_potential(const void *state, const VI_REAL *q, VI_REAL *V) {
  const gt_state *s = state;
  *V = s->m * s->gravity * q[2];
  return 0;
}

static int gt_grad_potential(const void *state, const VI_REAL *q, VI_REAL *dV) {
  (void)q;
  const gt_state *s = state;
  for (int i = 0; i < GT_N; i++) {
    dV[i] = 0;
  }
  dV[2] = s->m * s->gravity;
  return 0;
}

static int gt_hess_potential(const void *state, const VI_REAL *q, VI_REAL *H) {
  (void)state;
  (void)q;
  for (int i = 0; i < GT_N * GT_N; i++) {
    H[i] = 0;
  }
  return 0;
}

/* The pairs (a, b) of directors (0-based) of g4..g6 (103). */
static const int gt_pair[3][2] = {{0, 1}, {0, 2}, {1, 2}};

/* (103), (104). */
static int gt_constraint(const void *state, const VI_REAL *q, VI_REAL *g) {
  const gt_state *s = state;
  const VI_REAL *d = q + 3;
  for (int i = 0; i < 3; i++) {
    g[i] = (gt_dot(d + 3 * i, d + 3 * i) - 1) / 2;
    g[3 + i] = gt_dot(d + 3 * gt_pair[i][0], d + 3 * gt_pair[i][1]);
    g[6 + i] = q[i] / s->l - d[6 + i];
  }
  return 0;
}

/* G (9 x 12), columns (phi | d1 | d2 | d3): row i < 3: d_i' on block d_i;
 * rows 4..6: d_b' on block d_a and d_a' on block d_b; rows 7..9: I / l on
 * phi and -I on d3. */
static int gt_constraint_jac(const void *state, const VI_REAL *q, VI_REAL *G) {
  const gt_state *s = state;
  for (int i = 0; i < GT_M * GT_N; i++) {
    G[i] = 0;
  }
  for (int i = 0; i < 3; i++) {
    const int a = gt_pair[i][0], b = gt_pair[i][1];
    for (int c = 0; c < 3; c++) {
      G[i * GT_N + 3 * (i + 1) + c] = q[3 * (i + 1) + c];
      G[(3 + i) * GT_N + 3 * (a + 1) + c] = q[3 * (b + 1) + c];
      G[(3 + i) * GT_N + 3 * (b + 1) + c] = q[3 * (a + 1) + c];
    }
    G[(6 + i) * GT_N + i] = 1 / s->l;
    G[(6 + i) * GT_N + 9 + i] = -1;
  }
  return 0;
}

/* sum_k mu_k Hess g_k: mu_i I on (d_i, d_i), mu_{4..6} I on both (d_a, d_b)
 * and (d_b, d_a); nothing from the linear g7..g9 nor in the phi block. */
static int gt_constraint_hess(const void *state, const VI_REAL *q, const VI_REAL *mu,
                              VI_REAL *H) {
  (void)state;
  (void)q;
  for (int i = 0; i < GT_N * GT_N; i++) {
    H[i] = 0;
  }
  for (int i = 0; i < 3; i++) {
    const int a = 3 * (gt_pair[i][0] + 1), b = 3 * (gt_pair[i][1] + 1), e = 3 * (i + 1);
    for (int c = 0; c < 3; c++) {
      H[(e + c) * GT_N + e + c] += mu[i];
      H[(a + c) * GT_N + b + c] += mu[3 + i];
      H[(b + c) * GT_N + a + c] += mu[3 + i];
    }
  }
  return 0;
}

/* D_q(G(q) v), row k = (Hess g_k v)': v_di on block d_i (k = i); v_db on
 * d_a and v_da on d_b (k = 4..6); zero rows for g7..g9. */
static int gt_dGv(const void *state, const VI_REAL *q, const VI_REAL *v, VI_REAL *J) {
  (void)state;
  (void)q;
  for (int i = 0; i < GT_M * GT_N; i++) {
    J[i] = 0;
  }
  for (int i = 0; i < 3; i++) {
    const int a = 3 * (gt_pair[i][0] + 1), b = 3 * (gt_pair[i][1] + 1), e = 3 * (i + 1);
    for (int c = 0; c < 3; c++) {
      J[i * GT_N + e + c] = v[e + c];
      J[(3 + i) * GT_N + a + c] = v[b + c];
      J[(3 + i) * GT_N + b + c] = v[a + c];
    }
  }
  return 0;
}

static int gt_initial(const void *state, VI_REAL *q0, VI_REAL *v0) {
  const gt_state *s = state;
  for (int i = 0; i < GT_N; i++) {
    q0[i] = s->q0[i];
    v0[i] = s->v0[i];
  }
  return 0;
}

/* (107): J3 = e3.(sum over the four blocks of q_i x p_i). */
static int gt_momenta(const void *state, const VI_REAL *q, const VI_REAL *p, VI_REAL *J) {
  (void)state;
  VI_REAL sum = 0;
  for (int b = 0; b < 4; b++) {
    sum += q[3 * b] * p[3 * b + 1] - q[3 * b + 1] * p[3 * b];
  }
  J[0] = sum;
  return 0;
}

/* The multipliers of the index-1 form at (q, v) (the formula of
 * vi_system_lambda, which needs an instance): differentiating G(q) v = 0
 * along M qdd = -grad V - G' lambda gives
 *   (G M^-1 G') lambda = (v' Hess g_k v)_k - G M^-1 grad V. */
static int gt_lambda(const gt_state *s, const VI_REAL *q, const VI_REAL *v, VI_REAL *lambda) {
  VI_REAL G[GT_M * GT_N], A[GT_M * GT_M], dV[GT_N], J[GT_M * GT_N];
  int piv[GT_M];
  gt_constraint_jac(s, q, G);
  gt_grad_potential(s, q, dV);
  gt_dGv(s, q, v, J);
  for (int k = 0; k < GT_M; k++) {
    VI_REAL r = 0;
    for (int j = 0; j < GT_N; j++) {
      r += J[k * GT_N + j] * v[j] - G[k * GT_N + j] * dV[j] / gt_mdiag(s, j);
    }
    lambda[k] = r;
    for (int i = 0; i < GT_M; i++) {
      VI_REAL a = 0;
      for (int j = 0; j < GT_N; j++) {
        a += G[k * GT_N + j] * G[i * GT_N + j] / gt_mdiag(s, j);
      }
      A[k * GT_M + i] = a;
    }
  }
  int rc = VI_X(vi_lu_factor)(GT_M, A, piv);
  if (rc != VI_OK) {
    return rc;
  }
  VI_X(vi_lu_solve)(GT_M, A, piv, lambda);
  return 0;
}

/* The steady precession (file comment); a symmetric top only. */
static int gt_exact(const void *state, VI_REAL t, VI_REAL *q, VI_REAL *p, VI_REAL *lambda) {
  const gt_state *s = state;
  if (s->I[0] != s->I[1]) {
    return VI_EUNSUPPORTED; /* steady precession needs I1 = I2 */
  }
  const VI_REAL cp = vi_cos(s->omega_p * t), sp = vi_sin(s->omega_p * t);
  const VI_REAL cs = vi_cos(s->omega_s * t), ss = vi_sin(s->omega_s * t);
  const VI_REAL *d1 = s->q0 + 3, *d2 = s->q0 + 6, *d3 = s->q0 + 9;
  /* The body-rotated directors exp(t omega_s e3^) in the frame R(alpha0). */
  VI_REAL b[3][3];
  for (int c = 0; c < 3; c++) {
    b[0][c] = cs * d1[c] + ss * d2[c];
    b[1][c] = -ss * d1[c] + cs * d2[c];
    b[2][c] = d3[c];
  }
  /* Rz(omega_p t) on each. */
  for (int i = 0; i < 3; i++) {
    VI_REAL *di = q + 3 * (i + 1);
    di[0] = cp * b[i][0] - sp * b[i][1];
    di[1] = sp * b[i][0] + cp * b[i][1];
    di[2] = b[i][2];
  }
  for (int c = 0; c < 3; c++) {
    q[c] = s->l * q[9 + c];
  }
  const VI_REAL w[3] = {s->omega_s * q[9], s->omega_s * q[10], s->omega_p + s->omega_s * q[11]};
  VI_REAL v[GT_N];
  for (int blk = 0; blk < 4; blk++) {
    gt_cross(w, q + 3 * blk, v + 3 * blk);
  }
  for (int i = 0; i < GT_N; i++) {
    p[i] = gt_mdiag(s, i) * v[i];
  }
  return gt_lambda(s, q, v, lambda);
}

/* ---- the rigid body about the tip (vi_top_ops) ------------------------------ */

/* The inertia about the tip along d1, d2, d3 (Steiner: I_i + m l^2 off the
 * axis, notes §1.6 I1' = J1 + m l^2) and mgc = m gravity l e3 (the centre of
 * mass l d3, so V = m gravity phi_3 = e3 . R mgc). */
static int gt_top_data(const void *state, VI_REAL *I, VI_REAL *mgc) {
  const gt_state *s = state;
  const VI_REAL ml2 = s->m * s->l * s->l;
  I[0] = s->I[0] + ml2;
  I[1] = s->I[1] + ml2;
  I[2] = s->I[2];
  mgc[0] = mgc[1] = 0;
  mgc[2] = s->m * s->gravity * s->l;
  return 0;
}

/* R = [d1 d2 d3] and J = the sum over the four blocks of q_i x p_i, the
 * momentum map of all rotations (107): for p = M v, v_i = omega x q_i, it
 * is the angular momentum about the tip (the Euler tensor gives the body
 * components (I_j + m l^2) omega_j, j = 1, 2, and I3 omega_3). */
static int gt_top_attitude(const void *state, const VI_REAL *q, const VI_REAL *p, VI_REAL *R,
                           VI_REAL *J) {
  (void)state;
  for (int i = 0; i < 3; i++) {
    for (int a = 0; a < 3; a++) {
      R[3 * a + i] = q[3 * (i + 1) + a];
    }
  }
  J[0] = J[1] = J[2] = 0;
  for (int b = 0; b < 4; b++) {
    VI_REAL c[3];
    gt_cross(q + 3 * b, p + 3 * b, c);
    for (int a = 0; a < 3; a++) {
      J[a] += c[a];
    }
  }
  return 0;
}

/* q = (l d3, d1, d2, d3) with d_i = R e_i; omega = R diag(I')^-1 R' J (the
 * spatial angular velocity), v_i = omega x q_i for the four blocks (so
 * G v = 0 for a rotation R), p = M v. */
static int gt_top_node(const void *state, const VI_REAL *R, const VI_REAL *J, VI_REAL *q,
                       VI_REAL *p) {
  const gt_state *s = state;
  VI_REAL I[3], mgc[3], b[3], w[3] = {0, 0, 0}, v[GT_N];
  gt_top_data(state, I, mgc);
  for (int i = 0; i < 3; i++) {
    b[i] = (R[i] * J[0] + R[3 + i] * J[1] + R[6 + i] * J[2]) / I[i]; /* body, over I' */
    for (int a = 0; a < 3; a++) {
      q[3 * (i + 1) + a] = R[3 * a + i];
    }
  }
  for (int a = 0; a < 3; a++) {
    w[a] = R[3 * a] * b[0] + R[3 * a + 1] * b[1] + R[3 * a + 2] * b[2];
    q[a] = s->l * q[9 + a];
  }
  for (int blk = 0; blk < 4; blk++) {
    gt_cross(w, q + 3 * blk, v + 3 * blk);
  }
  for (int i = 0; i < GT_N; i++) {
    p[i] = gt_mdiag(s, i) * v[i];
  }
  return 0;
}

/* The initial data are the steady precession (112) exactly when the top
 * is symmetric, I1 = I2 (file comment): a relative equilibrium. */
static int gt_steady(const void *state, const char **motion) {
  const gt_state *s = state;
  *motion = s->I[0] == s->I[1] ? "steady precession (112) of a symmetric top, I1 = I2" : NULL;
  return 0;
}

/* The registry's declarations (systems.def), so that this definition is
 * checked against its entry there. */
#define VI_SYSTEM(id) extern const VI_X(vi_system_type) VI_X(vi_sys_##id);
#include "systems.def"
#undef VI_SYSTEM

static const VI_X(vi_mech_ops) gyro_top_mech = {
    .mass = gt_mass,
    .potential = gt_potential,
    .grad_potential = gt_grad_potential,
    .hess_potential = gt_hess_potential,
};

static const VI_X(vi_holo_ops) gyro_top_holo = {
    .constraint = gt_constraint,
    .constraint_jac = gt_constraint_jac,
    .constraint_hess = gt_constraint_hess,
    .dGv = gt_dGv,
};

static const VI_X(vi_obs_ops) gyro_top_obs = {
    .momenta = gt_momenta,
    .exact = gt_exact,
    .steady = gt_steady,
};

static const VI_X(vi_top_ops) gyro_top_top = {
    .data = gt_top_data,
    .attitude = gt_top_attitude,
    .node = gt_top_node,
};

const VI_X(vi_system_type) VI_X(vi_sys_gyro_top) = {
    .info = &gt_info,
    .state_size = sizeof(gt_state),
    .setup = gt_setup,
    .initial = gt_initial,
    .mech = &gyro_top_mech,
    .holo = &gyro_top_holo,
    .obs = &gyro_top_obs,
    .top = &gyro_top_top,
};
