/* four_particle_tmpl.c: the four-particle system of betsch-ggl §6.3 (after
 * Gonzalez [14]), eqs (115)-(127): four particles in space, q = (q1, q2,
 * q3, q4) in R^12, M = diag(m1 I3, ..., m4 I3) (115), no gravity; particles
 * 1-3 and 2-4 joined by springs with the potential of the invariants
 * pi1 = |q3 - q1|^2, pi2 = |q4 - q2|^2 (the paper's (122b) prints q3 for q2:
 * a typo, reading notes §2.3),
 *   V = k13/2 (pi1 - l13^2)^2 + k24/2 (pi2 - l24^2)^2            (116),
 * and 1-2, 3-4 by rigid rods (117), g1 = (|q2 - q1|^2 / l12^2 - 1) / 2,
 * g2 = (|q4 - q3|^2 / l34^2 - 1) / 2. Initial data (127): the unit square
 * in the plane z = 0, at rest but for v4 = (0, 0, 2/1.7), consistent (rods
 * orthogonal to the velocities, springs at rest length). Invariants: the
 * Hamiltonian, the total linear momentum L = sum p_i (118) and the total
 * angular momentum J = sum q_i x p_i (121), all six Noether momenta
 * (V and g are invariant under translations and rotations). No exact
 * solution. Compiled once per precision. */
#include <stddef.h>

#include "prec.h"
#include "numerics_tmpl.h"
#include "api_tmpl.h"

enum { FP_PARTS = 4, FP_N = 12, FP_M = 2 };

typedef struct fp_state {
  VI_REAL mass[FP_PARTS];
  VI_REAL k13, k24, l13, l24, l12, l34;
  VI_REAL q0[FP_N], v0[FP_N];
} fp_state;

/* Defaults: betsch-ggl (115)-(127): masses (1, 3, 2.3, 1.7), k13 = 50,
 * k24 = 500, every length 1 (the authors' code derives them from q0, where
 * each is 1), q0 the unit square, v4 = (0, 0, 2/1.7) (the paper's; the
 * authors' error-analysis input has (0, 3/1.7, 2/1.7), reading notes §2.3).
 * 2/1.7 is printed to 36 digits for quad. */
static const vi_param fp_params[] = {
    {"k13", 1, "50", "stiffness of the spring between particles 1 and 3 (116)",
     VI_PARAM_ANY},
    {"k24", 1, "500", "stiffness of the spring between particles 2 and 4 (116)",
     VI_PARAM_ANY},
    {"l13", 1, "1", "rest length of the spring 1-3 (116)", VI_PARAM_POSITIVE},
    {"l24", 1, "1", "rest length of the spring 2-4 (116)", VI_PARAM_POSITIVE},
    {"l12", 1, "1", "length of the rod 1-2 (117)", VI_PARAM_POSITIVE},
    {"l34", 1, "1", "length of the rod 3-4 (117)", VI_PARAM_POSITIVE},
    {"m1", 1, "1", "mass of particle 1 (115)", VI_PARAM_POSITIVE},
    {"m2", 1, "3", "mass of particle 2 (115)", VI_PARAM_POSITIVE},
    {"m3", 1, "2.3", "mass of particle 3 (115)", VI_PARAM_POSITIVE},
    {"m4", 1, "1.7", "mass of particle 4 (115)", VI_PARAM_POSITIVE},
    {"q0", FP_N, "0,0,0,1,0,0,0,1,0,1,1,0",
     "initial positions q1, q2, q3, q4 (127) (must satisfy g = 0)", VI_PARAM_ANY},
    {"v0", FP_N, "0,0,0,0,0,0,0,0,0,0,0,1.17647058823529411764705882352941176",
     "initial velocities (127) (must satisfy G(q0) v0 = 0)", VI_PARAM_ANY},
    {NULL, 0, NULL, NULL, VI_PARAM_ANY},
};

/* (118) and (121). */
static const char *const fp_momentum_names[] = {"Lx", "Ly", "Lz", "Jx", "Jy", "Jz"};

static const vi_system_info fp_info = {
    .name = "four-particle",
    .summary = "four particles in space: 2 rigid rods, 2 springs (Gonzalez)",
    .cite = "betsch-ggl §6.3, (115)-(127)",
    .n = FP_N,
    .m = FP_M,
    .n_momenta = 6,
    .momenta_noether = 0x3fu, /* translations and rotations: all six */
    .momentum_names = fp_momentum_names,
    .quadratic = VI_QUADRATIC_G,
    .params = fp_params,
};

/* The masses and lengths > 0 are their parameters' domains; q0 and v0 on
 * the rods' constraints is checked by vi_system_alloc. V and g are
 * polynomials: no datum is singular. */
static int fp_setup(void *state, const VI_REAL *par, char *err, size_t errlen) {
  (void)err;
  (void)errlen;
  fp_state *s = state;
  int k = 0;
  s->k13 = par[k++];
  s->k24 = par[k++];
  s->l13 = par[k++];
  s->l24 = par[k++];
  s->l12 = par[k++];
  s->l34 = par[k++];
  for (int i = 0; i < FP_PARTS; i++) {
    s->mass[i] = par[k++];
  }
  for (int i = 0; i < FP_N; i++) {
    s->q0[i] = par[k + i];
    s->v0[i] = par[k + FP_N + i];
  }
  return 0;
}

static int fp_mass(const void *state, VI_REAL *M) {
  const fp_state *s = state;
  for (int i = 0; i < FP_N * FP_N; i++) {
    M[i] = 0;
  }
  for (int i = 0; i < FP_N; i++) {
    M[i * FP_N + i] = s->mass[i / 3];
  }
  return 0;
}

/* The two springs: particles (a, b) = (0, 2) and (1, 3), stiffness and
 * squared rest length. */
static void fp_spring(const fp_state *s, int j, int *a, int *b, VI_REAL *k, VI_REAL *l2) {
  *a = j;
  *b = j + 2;
  *k = j == 0 ? s->k13 : s->k24;
  *l2 = j == 0 ? s->l13 * s->l13 : s->l24 * s->l24;
}

/* d = q_b - q_a and pi = |d|^2. */
static VI_REAL fp_diff(const VI_REAL *q, int a, int b, VI_REAL d[3]) {
  VI_REAL pi = 0;
  for (int c = 0; c < 3; c++) {
    d[c] = q[3 * b + c] - q[3 * a + c];
    pi += d[c] * d[c];
  }
  return pi;
}

/* (116). */
static int fp_potential(const void *state, const VI_REAL *q, VI_REAL *V) {
  const fp_state *s = state;
  VI_REAL sum = 0;
  for (int j = 0; j < 2; j++) {
    int a, b;
    VI_REAL k, l2, d[3];
    fp_spring(s, j, &a, &b, &k, &l2);
    VI_REAL e = fp_diff(q, a, b, d) - l2;
    sum += k * e * e / 2;
  }
  *V = sum;
  return 0;
}

/* grad V = sum_j k_j (pi_j - l_j^2) grad pi_j, grad pi = 2 d on q_b, -2 d
 * on q_a (reading notes §2.3). */
static int fp_grad_potential(const void *state, const VI_REAL *q, VI_REAL *dV) {
  const fp_state *s = state;
  for (int i = 0; i < FP_N; i++) {
    dV[i] = 0;
  }
  for (int j = 0; j < 2; j++) {
    int a, b;
    VI_REAL k, l2, d[3];
    fp_spring(s, j, &a, &b, &k, &l2);
    VI_REAL f = 2 * k * (fp_diff(q, a, b, d) - l2);
    for (int c = 0; c < 3; c++) {
      dV[3 * b + c] += f * d[c];
      dV[3 * a + c] -= f * d[c];
    }
  }
  return 0;
}

/* Hess V = sum_j k_j [grad pi_j grad pi_j' + (pi_j - l_j^2) Hess pi_j],
 * Hess pi = 2 [I -I; -I I] on (q_a, q_b): on those blocks
 * +-(4 k d d' + 2 k (pi - l^2) I). */
static int fp_hess_potential(const void *state, const VI_REAL *q, VI_REAL *H) {
  const fp_state *s = state;
  for (int i = 0; i < FP_N * FP_N; i++) {
    H[i] = 0;
  }
  for (int j = 0; j < 2; j++) {
    int a, b;
    VI_REAL k, l2, d[3];
    fp_spring(s, j, &a, &b, &k, &l2);
    VI_REAL e = fp_diff(q, a, b, d) - l2;
    for (int c = 0; c < 3; c++) {
      for (int f = 0; f < 3; f++) {
        VI_REAL K = 4 * k * d[c] * d[f] + (c == f ? 2 * k * e : 0);
        H[(3 * a + c) * FP_N + 3 * a + f] += K;
        H[(3 * b + c) * FP_N + 3 * b + f] += K;
        H[(3 * a + c) * FP_N + 3 * b + f] -= K;
        H[(3 * b + c) * FP_N + 3 * a + f] -= K;
      }
    }
  }
  return 0;
}

/* The discrete gradient (126) for the energy-momentum schemes: Greenspan's
 * quotient on the invariants pi_j, exactly k_j ((pi_j(q0) + pi_j(q1))/2 -
 * l_j^2) since V is quadratic in pi_j (no singular case: reading notes
 * item 11), times grad pi_j at the midpoint, which is linear in q. Its
 * q1-Jacobian: sum_j k_j [1/2 grad pi_j(q_m) grad pi_j(q1)' + (pibar_j -
 * l_j^2) Hess pi_j / 2]. */
static int fp_dgrad_potential(const void *state, const VI_REAL *q0, const VI_REAL *q1,
                              VI_REAL *dV, VI_REAL *J1) {
  const fp_state *s = state;
  for (int i = 0; i < FP_N; i++) {
    dV[i] = 0;
  }
  for (int i = 0; J1 && i < FP_N * FP_N; i++) {
    J1[i] = 0;
  }
  for (int j = 0; j < 2; j++) {
    int a, b;
    VI_REAL k, l2, d0[3], d1[3], dm[3];
    fp_spring(s, j, &a, &b, &k, &l2);
    VI_REAL coef = k * ((fp_diff(q0, a, b, d0) + fp_diff(q1, a, b, d1)) / 2 - l2);
    for (int c = 0; c < 3; c++) {
      dm[c] = (d0[c] + d1[c]) / 2;
      dV[3 * b + c] += 2 * coef * dm[c];
      dV[3 * a + c] -= 2 * coef * dm[c];
    }
    for (int c = 0; J1 && c < 3; c++) {
      for (int f = 0; f < 3; f++) {
        VI_REAL K = 2 * k * dm[c] * d1[f] + (c == f ? coef : 0);
        J1[(3 * a + c) * FP_N + 3 * a + f] += K;
        J1[(3 * b + c) * FP_N + 3 * b + f] += K;
        J1[(3 * a + c) * FP_N + 3 * b + f] -= K;
        J1[(3 * b + c) * FP_N + 3 * a + f] -= K;
      }
    }
  }
  return 0;
}

/* The rods: particles (a, b) = (0, 1) and (2, 3), squared length. */
static void fp_rod(const fp_state *s, int i, int *a, int *b, VI_REAL *l2) {
  *a = 2 * i;
  *b = 2 * i + 1;
  *l2 = i == 0 ? s->l12 * s->l12 : s->l34 * s->l34;
}

/* (117): g_i = (|d|^2 / l^2 - 1) / 2. */
static int fp_constraint(const void *state, const VI_REAL *q, VI_REAL *g) {
  const fp_state *s = state;
  for (int i = 0; i < FP_M; i++) {
    int a, b;
    VI_REAL l2, d[3];
    fp_rod(s, i, &a, &b, &l2);
    g[i] = (fp_diff(q, a, b, d) / l2 - 1) / 2;
  }
  return 0;
}

/* Row i: d / l^2 on q_b, -d / l^2 on q_a. */
static int fp_constraint_jac(const void *state, const VI_REAL *q, VI_REAL *G) {
  const fp_state *s = state;
  for (int i = 0; i < FP_M * FP_N; i++) {
    G[i] = 0;
  }
  for (int i = 0; i < FP_M; i++) {
    int a, b;
    VI_REAL l2, d[3];
    fp_rod(s, i, &a, &b, &l2);
    fp_diff(q, a, b, d);
    for (int c = 0; c < 3; c++) {
      G[i * FP_N + 3 * b + c] = d[c] / l2;
      G[i * FP_N + 3 * a + c] = -d[c] / l2;
    }
  }
  return 0;
}

/* sum_i mu_i Hess g_i: mu_i / l_i^2 [I -I; -I I] on (q_a, q_b). */
static int fp_constraint_hess(const void *state, const VI_REAL *q, const VI_REAL *mu,
                              VI_REAL *H) {
  (void)q;
  const fp_state *s = state;
  for (int i = 0; i < FP_N * FP_N; i++) {
    H[i] = 0;
  }
  for (int i = 0; i < FP_M; i++) {
    int a, b;
    VI_REAL l2;
    fp_rod(s, i, &a, &b, &l2);
    VI_REAL w = mu[i] / l2;
    for (int c = 0; c < 3; c++) {
      H[(3 * a + c) * FP_N + 3 * a + c] += w;
      H[(3 * b + c) * FP_N + 3 * b + c] += w;
      H[(3 * a + c) * FP_N + 3 * b + c] -= w;
      H[(3 * b + c) * FP_N + 3 * a + c] -= w;
    }
  }
  return 0;
}

static int fp_initial(const void *state, VI_REAL *q0, VI_REAL *v0) {
  const fp_state *s = state;
  for (int i = 0; i < FP_N; i++) {
    q0[i] = s->q0[i];
    v0[i] = s->v0[i];
  }
  return 0;
}

/* (118) L = sum p_i; (121) J = sum q_i x p_i. */
static int fp_momenta(const void *state, const VI_REAL *q, const VI_REAL *p, VI_REAL *J) {
  (void)state;
  for (int c = 0; c < 6; c++) {
    J[c] = 0;
  }
  for (int i = 0; i < FP_PARTS; i++) {
    const VI_REAL *x = q + 3 * i, *y = p + 3 * i;
    for (int c = 0; c < 3; c++) {
      J[c] += y[c];
    }
    J[3] += x[1] * y[2] - x[2] * y[1];
    J[4] += x[2] * y[0] - x[0] * y[2];
    J[5] += x[0] * y[1] - x[1] * y[0];
  }
  return 0;
}

/* The registry's declarations (systems.def), so that this definition is
 * checked against its entry there. */
#define VI_SYSTEM(id) extern const VI_X(vi_system_type) VI_X(vi_sys_##id);
#include "systems.def"
#undef VI_SYSTEM

static const VI_X(vi_mech_ops) four_particle_mech = {
    .dgrad_potential = fp_dgrad_potential,
    .mass = fp_mass,
    .potential = fp_potential,
    .grad_potential = fp_grad_potential,
    .hess_potential = fp_hess_potential,
};

static const VI_X(vi_holo_ops) four_particle_holo = {
    .constraint = fp_constraint,
    .constraint_jac = fp_constraint_jac,
    .constraint_hess = fp_constraint_hess,
};

static const VI_X(vi_obs_ops) four_particle_obs = {
    .momenta = fp_momenta,
};

const VI_X(vi_system_type) VI_X(vi_sys_four_particle) = {
    .info = &fp_info,
    .state_size = sizeof(fp_state),
    .setup = fp_setup,
    .initial = fp_initial,
    .mech = &four_particle_mech,
    .holo = &four_particle_holo,
    .obs = &four_particle_obs,
};
