/* six_balls_tmpl.c: the six balls of man2020 §4.4 (after Leimkuhler & Skeel
 * [16]), eqs (57)-(61): six balls in the plane, q = (x1, y1, ..., x6, y6),
 * neighbours i, i+1 joined by rigid bars of length l (constraints (58),
 * g_i = |b_{i+1} - b_i|^2 - l^2, i = 1..5, kept without a factor 1/2 so
 * lambda is the paper's multiplier) and balls i, i+2 by linear springs of
 * natural length s0 and stiffness k, so by (57) M = diag(m_i, m_i) and
 * V = k/2 sum_{i=1..4} (|b_{i+2} - b_i| - s0)^2 (the paper: unit masses,
 * k = s0 = l = 1). Initial data (59): a zigzag at rest. Invariants: the
 * Hamiltonian, the angular momentum about the origin (60) (rotations;
 * translations also act, but the paper tracks only (60)), and the
 * antisymmetry quantities (61) x1 + x6 - C1, y1 + y6 - C2, with C1, C2 the
 * values of x1 + x6, y1 + y6 in q0: they vanish along the flow when q0 and
 * v0 are point-symmetric (b_{7-i} = c - b_i, v_{7-i} = -v_i), which (59)
 * is, because the Lagrangian is invariant under i -> 7-i with b -> c - b.
 * No exact solution. Compiled once per precision. */
#include <stddef.h>
#include <stdio.h>

#include "prec.h"
#include "numerics_tmpl.h"
#include "api_tmpl.h"

enum { SB_BALLS = 6, SB_N = 12, SB_M = 5, SB_SPRINGS = 4 };

typedef struct sb_state {
  VI_REAL k, s0, l;
  VI_REAL mass[SB_BALLS];
  VI_REAL q0[SB_N], v0[SB_N];
  VI_REAL C1, C2; /* x1 + x6 and y1 + y6 at q0, for (61) */
} sb_state;

/* Defaults: man2020 (57)-(59): unit masses, spring stiffness 1, natural
 * spring length and bar length 1 ("the natural lengths of the springs and
 * the lengths of the rigid bars are 1"). q0 is (59),
 * ((1 - sqrt2)/2, (sqrt3 - sqrt2)/2, 1/2, sqrt3/2, 1, 0, 3/2, sqrt3/2, 2, 0,
 * 2 + sqrt2/2, sqrt2/2), printed to 36 significant digits so g(q0) vanishes
 * to quad rounding. The text of (59) is intact; we checked it: every bar
 * has length 1, springs 2 and 3 are at rest length, springs 1 and 4 are
 * stretched to sqrt(2 + (sqrt2 - sqrt6)/2) = 1.2175, and b_i + b_{7-i} =
 * (5/2, sqrt3/2) for every i (point symmetry, so C1 = 5/2, C2 = sqrt3/2). */
static const vi_param sb_params[] = {
    {"k", 1, "1", "stiffness of the springs between balls i and i+2", VI_PARAM_ANY},
    {"s0", 1, "1", "natural length of the springs", VI_PARAM_POSITIVE},
    {"l", 1, "1", "length of the rigid bars between balls i and i+1", VI_PARAM_POSITIVE},
    {"mass", SB_BALLS, "1,1,1,1,1,1",
     "masses m1..m6 (m_i = m_{7-i} keeps the antisymmetry (61))", VI_PARAM_POSITIVE},
    {"q0", SB_N,
     "-0.207106781186547524400844362104849039,"
     "0.158918622597891122362878808648087144,"
     "0.5,0.866025403784438646763723170752936183,"
     "1,0,"
     "1.5,0.866025403784438646763723170752936183,"
     "2,0,"
     "2.70710678118654752440084436210484904,"
     "0.707106781186547524400844362104849039",
     "initial positions x1, y1, ..., x6, y6 (must satisfy g = 0)", VI_PARAM_ANY},
    {"v0", SB_N, "0,0,0,0,0,0,0,0,0,0,0,0",
     "initial velocities (must satisfy G(q0) v0 = 0)", VI_PARAM_ANY},
    {NULL, 0, NULL, NULL, VI_PARAM_ANY},
};

/* Jz: the angular momentum (60); antisym_x, antisym_y: (61). */
static const char *const sb_momentum_names[] = {"Jz", "antisym_x",
                                                "antisym_y"};

static const vi_system_info sb_info = {
    .name = "six-balls",
    .summary = "six balls in the plane: 5 rigid bars, 4 springs",
    .cite = "man2020 §4.4, (57)-(61)",
    .n = SB_N,
    .m = SB_M,
    .n_momenta = 3,
    .momenta_noether = 1u << 0, /* Jz (rotations); the antisymmetry quantities (61)
                                   are invariants of symmetric data only */
    .momentum_names = sb_momentum_names,
    .quadratic = VI_QUADRATIC_G,
    .params = sb_params,
};

/* s0, l and the masses > 0 are their parameters' domains, q0 and v0 on
 * the bars' constraints (58) is checked by vi_system_alloc. The rule of
 * its own: the two ends of each spring apart in q0, since the spring's
 * force k (r - s0) d / r (the gradient of (57)) has no direction at
 * r = 0 (the bars allow it: balls i and i+2 meet when bars i and i+1
 * fold onto each other). */
static int sb_setup(void *state, const VI_REAL *par, char *err, size_t errlen) {
  sb_state *s = state;
  s->k = par[0];
  s->s0 = par[1];
  s->l = par[2];
  for (int i = 0; i < SB_BALLS; i++) {
    s->mass[i] = par[3 + i];
  }
  for (int i = 0; i < SB_N; i++) {
    s->q0[i] = par[3 + SB_BALLS + i];
    s->v0[i] = par[3 + SB_BALLS + SB_N + i];
  }
  s->C1 = s->q0[0] + s->q0[10];
  s->C2 = s->q0[1] + s->q0[11];
  for (int j = 0; j < SB_SPRINGS; j++) {
    char what[64];
    snprintf(what, sizeof what, "balls %d and %d (the ends of spring %d)", j + 1, j + 3, j + 1);
    if (VI_X(vi_data_apart)("q0", what, 2, s->q0 + 2 * j, s->q0 + 2 * (j + 2),
                            "where the spring's force (the gradient of V, man2020 (57)) has "
                            "no direction",
                            err, errlen) != 0) {
      return -1;
    }
  }
  return 0;
}

static int sb_mass(const void *state, VI_REAL *M) {
  const sb_state *s = state;
  for (int i = 0; i < SB_N * SB_N; i++) {
    M[i] = 0;
  }
  for (int i = 0; i < SB_N; i++) {
    M[i * SB_N + i] = s->mass[i / 2];
  }
  return 0;
}

/* Spring j (0-based) joins balls j and j+2: d = b_{j+2} - b_j, r = |d|.
 * r = 0 (two balls on top of each other) has no gradient: recoverable, so
 * a step that gets there is refused rather than producing NaN. */
static int sb_spring(const VI_REAL *q, int j, VI_REAL d[2], VI_REAL *r) {
  d[0] = q[2 * (j + 2)] - q[2 * j];
  d[1] = q[2 * (j + 2) + 1] - q[2 * j + 1];
  *r = vi_sqrt(d[0] * d[0] + d[1] * d[1]);
  return *r > 0 ? 0 : 1;
}

/* (57): V = k/2 sum_j (r_j - s0)^2. */
static int sb_potential(const void *state, const VI_REAL *q, VI_REAL *V) {
  const sb_state *s = state;
  VI_REAL sum = 0;
  for (int j = 0; j < SB_SPRINGS; j++) {
    VI_REAL d[2], r;
    sb_spring(q, j, d, &r);
    sum += (r - s->s0) * (r - s->s0);
  }
  *V = s->k * sum / 2;
  return 0;
}

/* dV/db_{j+2} = -dV/db_j = k (r - s0) d / r. */
static int sb_grad_potential(const void *state, const VI_REAL *q,
                             VI_REAL *dV) {
  const sb_state *s = state;
  for (int i = 0; i < SB_N; i++) {
    dV[i] = 0;
  }
  for (int j = 0; j < SB_SPRINGS; j++) {
    VI_REAL d[2], r;
    if (sb_spring(q, j, d, &r) != 0) {
      return 1;
    }
    VI_REAL f = s->k * (r - s->s0) / r;
    for (int c = 0; c < 2; c++) {
      dV[2 * (j + 2) + c] += f * d[c];
      dV[2 * j + c] -= f * d[c];
    }
  }
  return 0;
}

/* Spring j contributes [K -K; -K K] on (b_j, b_{j+2}) with the 2 x 2 block
 * K = k ((1 - s0/r) I + (s0/r) d d'/r^2). */
static int sb_hess_potential(const void *state, const VI_REAL *q, VI_REAL *H) {
  const sb_state *s = state;
  for (int i = 0; i < SB_N * SB_N; i++) {
    H[i] = 0;
  }
  for (int j = 0; j < SB_SPRINGS; j++) {
    VI_REAL d[2], r;
    if (sb_spring(q, j, d, &r) != 0) {
      return 1;
    }
    VI_REAL a = s->k * (1 - s->s0 / r), b = s->k * s->s0 / (r * r * r);
    int ia = 2 * j, ib = 2 * (j + 2);
    for (int c = 0; c < 2; c++) {
      for (int e = 0; e < 2; e++) {
        VI_REAL K = b * d[c] * d[e] + (c == e ? a : 0);
        H[(ia + c) * SB_N + ia + e] += K;
        H[(ib + c) * SB_N + ib + e] += K;
        H[(ia + c) * SB_N + ib + e] -= K;
        H[(ib + c) * SB_N + ia + e] -= K;
      }
    }
  }
  return 0;
}

/* (58): g_i = |b_{i+1} - b_i|^2 - l^2. */
static int sb_constraint(const void *state, const VI_REAL *q, VI_REAL *g) {
  const sb_state *s = state;
  for (int i = 0; i < SB_M; i++) {
    VI_REAL dx = q[2 * (i + 1)] - q[2 * i];
    VI_REAL dy = q[2 * (i + 1) + 1] - q[2 * i + 1];
    g[i] = dx * dx + dy * dy - s->l * s->l;
  }
  return 0;
}

/* Row i: -2 d on b_i, +2 d on b_{i+1}, d = b_{i+1} - b_i. */
static int sb_constraint_jac(const void *state, const VI_REAL *q, VI_REAL *G) {
  for (int i = 0; i < SB_M * SB_N; i++) {
    G[i] = 0;
  }
  for (int i = 0; i < SB_M; i++) {
    for (int c = 0; c < 2; c++) {
      VI_REAL d = q[2 * (i + 1) + c] - q[2 * i + c];
      G[i * SB_N + 2 * i + c] = -2 * d;
      G[i * SB_N + 2 * (i + 1) + c] = 2 * d;
    }
  }
  return 0;
}

/* sum_i mu_i Hess g_i: 2 mu_i [I -I; -I I] on (b_i, b_{i+1}). */
static int sb_constraint_hess(const void *state, const VI_REAL *q,
                              const VI_REAL *mu, VI_REAL *H) {
  for (int i = 0; i < SB_N * SB_N; i++) {
    H[i] = 0;
  }
  for (int i = 0; i < SB_M; i++) {
    VI_REAL c2 = 2 * mu[i];
    for (int c = 0; c < 2; c++) {
      int a = 2 * i + c, b = 2 * (i + 1) + c;
      H[a * SB_N + a] += c2;
      H[b * SB_N + b] += c2;
      H[a * SB_N + b] -= c2;
      H[b * SB_N + a] -= c2;
    }
  }
  return 0;
}

static int sb_initial(const void *state, VI_REAL *q0, VI_REAL *v0) {
  const sb_state *s = state;
  for (int i = 0; i < SB_N; i++) {
    q0[i] = s->q0[i];
    v0[i] = s->v0[i];
  }
  return 0;
}

/* (60) Jz = sum_i (x_i p_iy - y_i p_ix); (61) x1 + x6 - C1, y1 + y6 - C2. */
static int sb_momenta(const void *state, const VI_REAL *q, const VI_REAL *p,
                      VI_REAL *J) {
  const sb_state *s = state;
  VI_REAL jz = 0;
  for (int i = 0; i < SB_BALLS; i++) {
    jz += q[2 * i] * p[2 * i + 1] - q[2 * i + 1] * p[2 * i];
  }
  J[0] = jz;
  J[1] = q[0] + q[10] - s->C1;
  J[2] = q[1] + q[11] - s->C2;
  return 0;
}

/* The registry's declarations (systems.def), so that this definition is
 * checked against its entry there. */
#define VI_SYSTEM(id) extern const VI_X(vi_system_type) VI_X(vi_sys_##id);
#include "systems.def"
#undef VI_SYSTEM

static const VI_X(vi_mech_ops) six_balls_mech = {
    .mass = sb_mass,
    .potential = sb_potential,
    .grad_potential = sb_grad_potential,
    .hess_potential = sb_hess_potential,
};

static const VI_X(vi_holo_ops) six_balls_holo = {
    .constraint = sb_constraint,
    .constraint_jac = sb_constraint_jac,
    .constraint_hess = sb_constraint_hess,
};

static const VI_X(vi_obs_ops) six_balls_obs = {
    .momenta = sb_momenta,
};

const VI_X(vi_system_type) VI_X(vi_sys_six_balls) = {
    .info = &sb_info,
    .state_size = sizeof(sb_state),
    .setup = sb_setup,
    .initial = sb_initial,
    .mech = &six_balls_mech,
    .holo = &six_balls_holo,
    .obs = &six_balls_obs,
};
