/* kit_tmpl.h: the private kit of the Galerkin-type families (galerkin_tmpl.c,
 * man2020_tmpl.c; design.md "a private kit shared by related families"): the
 * headers a family needs, how it lays out its state block, evaluates the
 * polynomial q_d at a quadrature node, adds the node's share of the
 * Lagrangian integral to the residual and Jacobian, builds the Taylor and
 * extrapolated guesses, retries a failed solve and counts it. Not part of
 * the public API. Every function keeps the order of the floating-point
 * operations the families had, so trajectories are unchanged to the bit.
 *
 * No include guard: included once per family file, which includes nothing
 * else of vistudy but its own options header (core/methods/NAME.h). */
#include "prec.h"
#include "numerics_tmpl.h"
#include "api_tmpl.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* The option values the families share (their option tables, vi_opt). */
static const char *const vi_kit_rule_names[] = {"gauss", "lobatto", NULL};
static const int vi_kit_rule_values[] = {VI_RULE_GAUSS, VI_RULE_LOBATTO};
static const char *const vi_kit_ctrl_names[] = {"equidistant", "lobatto", NULL};
static const int vi_kit_ctrl_values[] = {VI_CTRL_EQUIDISTANT, VI_CTRL_LOBATTO};

/* Add the counts of one solve (as vi_solve reports them, a retry
 * included) to stats (may be NULL): the total, the maximum and the number
 * of solves count the same solves. */
static inline void vi_stats_add_solve(VI_X(vi_stats) *stats, const vi_solve_counts *c) {
  if (stats == NULL) {
    return;
  }
  stats->newton_iters += c->iters;
  stats->solves++;
  if (c->iters > stats->newton_iters_max) {
    stats->newton_iters_max = c->iters;
  }
  stats->fevals += c->fevals;
  stats->jevals += c->jevals;
  stats->factorizations += c->factorizations;
}

/* How a family lays out its state block: carve count reals at *off bytes
 * into base, 16-byte aligned; base NULL only measures. */
static inline VI_REAL *vi_carve(char *base, size_t *off, size_t count) {
  VI_REAL *r = base ? (VI_REAL *)(void *)(base + *off) : NULL;
  *off += (count * sizeof(VI_REAL) + 15) / 16 * 16;
  return r;
}

/* How a Galerkin-type family adds one quadrature node's share of the
 * Jacobian: the n x n block B (row stride ld) of d/dq^mu of
 * hb (l_nu L_q + dl_nu/h L_v) at the node gets
 *   kv (-L_qq) + km L_vv [+ kqv L_qv + kvq L_vq],
 * with kv = -hb l_nu l_mu, km = hb dl_nu dl_mu / h^2, kqv = hb l_nu dl_mu / h,
 * kvq = hb dl_nu l_mu / h; mLqq = -L_qq, Lvv = M, and Dq = L_vq =
 * D_q(M(q)v) (L_qv = Dq') or NULL for a constant mass matrix. */
static inline void vi_lagr_block(VI_REAL *B, int ld, int n, VI_REAL kv,
                                 VI_REAL km, VI_REAL kqv, VI_REAL kvq,
                                 const VI_REAL *mLqq, const VI_REAL *Lvv,
                                 const VI_REAL *Dq) {
  for (int a = 0; a < n; a++) {
    VI_REAL *row = B + (size_t)a * (size_t)ld;
    if (Dq == NULL) {
      for (int c = 0; c < n; c++) {
        row[c] += kv * mLqq[a * n + c] + km * Lvv[a * n + c];
      }
    } else {
      for (int c = 0; c < n; c++) {
        row[c] += kv * mLqq[a * n + c] + km * Lvv[a * n + c] +
                  kqv * Dq[c * n + a] + kvq * Dq[a * n + c];
      }
    }
  }
}


/* The work of one quadrature node of the Lagrangian integral: Q, V = q_d,
 * qdot_d there; dV = -L_q, MV = L_v, HV = -L_qq; Mq = L_vv, Dq = L_vq for a
 * configuration-dependent mass (see vi_system_lagr) and its work kw. */
typedef struct vi_kit_work {
  VI_REAL *Q, *V, *MV, *dV, *HV, *Mq, *Dq, *kw;
} vi_kit_work;

static inline void vi_kit_work_carve(vi_kit_work *w, char *base, size_t *off,
                                     int n) {
  const size_t nn = (size_t)n * (size_t)n;
  w->Q = vi_carve(base, off, (size_t)n);
  w->V = vi_carve(base, off, (size_t)n);
  w->MV = vi_carve(base, off, (size_t)n);
  w->dV = vi_carve(base, off, (size_t)n);
  w->HV = vi_carve(base, off, nn);
  w->Mq = vi_carve(base, off, nn);
  w->Dq = vi_carve(base, off, nn);
  w->kw = vi_carve(base, off, nn + (size_t)n);
}

/* Control value mu of a step's polynomial: q^0 is known, q^mu (mu >= 1) is
 * block mu - 1 of the unknowns x. */
static inline const VI_REAL *vi_kit_q(int n, const VI_REAL *q0, const VI_REAL *x,
                                      int mu) {
  return mu == 0 ? q0 : x + (size_t)(mu - 1) * (size_t)n;
}

/* q_d and qdot_d at a node from the basis values l and derivatives dl (may
 * be NULL, then V is not touched): Q = sum_mu l_mu q^mu, V = (1/h) sum_mu
 * dl_mu q^mu, mu = 0..deg (wenger2017 (11), man2020 (20)). */
static inline void vi_kit_eval(int n, int deg, const VI_REAL *q0, const VI_REAL *x,
                               const VI_REAL *l, const VI_REAL *dl, VI_REAL h,
                               VI_REAL *Q, VI_REAL *V) {
  for (int a = 0; a < n; a++) {
    Q[a] = 0;
    if (dl) {
      V[a] = 0;
    }
  }
  for (int mu = 0; mu <= deg; mu++) {
    const VI_REAL *qm = vi_kit_q(n, q0, x, mu);
    for (int a = 0; a < n; a++) {
      Q[a] += l[mu] * qm[a];
      if (dl) {
        V[a] += dl[mu] * qm[a];
      }
    }
  }
  if (dl) {
    for (int a = 0; a < n; a++) {
      V[a] /= h;
    }
  }
}

/* One node of the Lagrangian integral h sum_i b_i L(Q_i, V_i) (wenger2017
 * (19), man2020 (35)-(36)), hb = h b_i: evaluates q_d, the Lagrangian's
 * derivatives, adds hb (l_nu L_q + dl_nu/h L_v) to the rows nu = 0..nrows-1
 * of F (blocks of n; may be NULL) and their derivatives in q^mu, mu =
 * 1..deg, to J (row stride N; may be NULL). */
static inline int vi_kit_lagr_node(const VI_X(vi_system) *sys, vi_kit_work *w,
                                   int deg, int nrows, const VI_REAL *q0,
                                   const VI_REAL *x, const VI_REAL *l, const VI_REAL *dl,
                                   VI_REAL h, VI_REAL hb, VI_REAL *F, VI_REAL *J, int N) {
  const int n = sys->n;
  vi_kit_eval(n, deg, q0, x, l, dl, h, w->Q, w->V);
  int rc = VI_X(vi_system_lagr)(sys, w->Q, w->V, w->dV, w->MV, J ? w->HV : NULL, w->Mq, w->Dq,
                                w->kw);
  if (rc != VI_OK) {
    return rc;
  }
  if (F) {
    for (int nu = 0; nu < nrows; nu++) {
      VI_REAL *Fn = F + nu * n;
      for (int a = 0; a < n; a++) {
        Fn[a] += hb * (-l[nu] * w->dV[a] + dl[nu] / h * w->MV[a]);
      }
    }
  }
  if (J) {
    /* d/dq^mu, dQ/dq^mu = l_mu, dV/dq^mu = dl_mu/h; M(q) adds the mixed
     * L_qv, L_vq blocks. */
    const VI_REAL *Lvv = w->Mq, *Dq = w->Dq;
    if (VI_X(vi_system_mass_constant)(sys)) {
      VI_X(vi_system_mass_at)(sys, w->Q, NULL, &Lvv); /* the cached M: cannot fail */
      Dq = NULL;
    }
    for (int nu = 0; nu < nrows; nu++) {
      for (int mu = 1; mu <= deg; mu++) {
        vi_lagr_block(J + (size_t)(nu * n) * N + (mu - 1) * n, N, n,
                            -hb * l[nu] * l[mu], hb * dl[nu] * dl[mu] / (h * h),
                            hb * l[nu] * dl[mu] / h, hb * dl[nu] * l[mu] / h, w->HV, Lvv, Dq);
      }
    }
  }
  return VI_OK;
}

/* The Taylor guess of a first step: q^mu = q0 + t v0 + t^2/2 a0 at t = d_mu
 * h, mu = 1..deg, into the first deg blocks of x. */
static inline void vi_kit_taylor(int n, int deg, const VI_REAL *d, VI_REAL h,
                                 const VI_REAL *q0, const VI_REAL *v, const VI_REAL *a,
                                 VI_REAL *x) {
  for (int mu = 1; mu <= deg; mu++) {
    VI_REAL t = d[mu] * h;
    VI_REAL *qm = x + (size_t)(mu - 1) * n;
    for (int i = 0; i < n; i++) {
      qm[i] = q0[i] + t * v[i] + t * t / 2 * a[i];
    }
  }
}

/* The guess of a later step: the previous step's polynomial (q^0 = qp0,
 * q^nu = block nu - 1 of xp) extrapolated to the new control points, lX
 * holding the basis values there (row mu, deg + 1 values). */
static inline void vi_kit_extrapolate(int n, int deg, const VI_REAL *lX,
                                      const VI_REAL *qp0, const VI_REAL *xp, VI_REAL *x) {
  for (int mu = 1; mu <= deg; mu++) {
    const VI_REAL *l = lX + mu * (deg + 1);
    VI_REAL *qm = x + (size_t)(mu - 1) * n;
    for (int i = 0; i < n; i++) {
      VI_REAL acc = l[0] * qp0[i];
      for (int nu = 1; nu <= deg; nu++) {
        acc += l[nu] * xp[(size_t)(nu - 1) * n + i];
      }
      qm[i] = acc;
    }
  }
}

/* Solve a step from the prepared guess in x; on a recoverable failure, and
 * when retry, rebuild the Taylor guess (restart(ctx)) and solve once more.
 * Both solves are counted in stats. */
static inline int vi_kit_solve(VI_X(vi_solver) *solver, VI_REAL *x, int retry,
                               int (*restart)(void *ctx), void *ctx,
                               VI_X(vi_stats) *stats) {
  vi_solve_counts c = {0, 0, 0, 0};
  int rc = VI_X(vi_solve)(solver, x, &c);
  if (rc > 0 && retry) {
    int g = restart(ctx);
    if (g != 0) {
      return g;
    }
    rc = VI_X(vi_solve)(solver, x, &c);
  }
  vi_stats_add_solve(stats, &c);
  return rc;
}

/* The tables of a step: control points d_0..d_deg of q_d (vi_ctrl);
 * the Lagrangian rule (nL nodes c, weights b) with the basis values lL and
 * derivatives dlL there; the constraint rule (nC nodes f, weights e) with
 * the basis values lC; the basis at 1 + d_mu (lX) for the extrapolated
 * guess. Rows of deg + 1 values. */
static inline int vi_kit_tables(int ctrl, int deg, VI_REAL *d, int ruleL, int nL,
                                VI_REAL *c, VI_REAL *b, VI_REAL *lL, VI_REAL *dlL,
                                int ruleC, int nC, VI_REAL *f, VI_REAL *e,
                                VI_REAL *lC, VI_REAL *lX) {
  int rc;
  if ((rc = VI_X(vi_ctrl_points)(ctrl, deg, d)) != VI_OK ||
      (rc = VI_X(vi_quad_rule)(ruleL, nL, c, b)) != VI_OK ||
      (rc = VI_X(vi_quad_rule)(ruleC, nC, f, e)) != VI_OK) {
    return rc;
  }
  const int w = deg + 1;
  for (int i = 0; i < nL; i++) {
    VI_X(vi_lagrange_eval)(w, d, c[i], lL + i * w, dlL + i * w);
  }
  for (int j = 0; j < nC; j++) {
    VI_X(vi_lagrange_eval)(w, d, f[j], lC + j * w, NULL);
  }
  for (int mu = 0; mu <= deg; mu++) {
    VI_X(vi_lagrange_eval)(w, d, 1 + d[mu], lX + mu * w, NULL);
  }
  return VI_OK;
}

/* Small dense pieces of the betsch-ggl families' residuals and Jacobians
 * (ggl_tmpl.c, em_tmpl.c): y (n) = A' x for A m x n (y += when acc); y
 * (rows) = A x for A rows x n; add s A (rows x cols) or s A' (A cols x
 * rows, trans) to the block of J (N x N) at (r, c); add s I (n) there. */
static inline void vi_kit_mtv(int m, int n, const VI_REAL *A, const VI_REAL *x, VI_REAL *y,
                              int acc) {
  for (int j = 0; j < n; j++) {
    y[j] = acc ? y[j] : 0;
  }
  for (int k = 0; k < m; k++) {
    for (int j = 0; j < n; j++) {
      y[j] += A[(size_t)k * n + j] * x[k];
    }
  }
}

static inline void vi_kit_mv(int rows, int n, const VI_REAL *A, const VI_REAL *x, VI_REAL *y) {
  for (int i = 0; i < rows; i++) {
    VI_REAL s = 0;
    for (int j = 0; j < n; j++) {
      s += A[(size_t)i * n + j] * x[j];
    }
    y[i] = s;
  }
}

static inline void vi_kit_jadd(VI_REAL *J, int N, int r, int c, int rows, int cols, VI_REAL s,
                               const VI_REAL *A, int trans) {
  for (int i = 0; i < rows; i++) {
    for (int j = 0; j < cols; j++) {
      J[(size_t)(r + i) * N + c + j] +=
          s * (trans ? A[(size_t)j * rows + i] : A[(size_t)i * cols + j]);
    }
  }
}

static inline void vi_kit_jeye(VI_REAL *J, int N, int r, int c, int n, VI_REAL s) {
  for (int i = 0; i < n; i++) {
    J[(size_t)(r + i) * N + c + i] += s;
  }
}

/* Release the solver a family's init made (vi_method_type.fini). */
static inline void vi_kit_fini(VI_X(vi_solver) **solver) {
  VI_X(vi_solver_free)(*solver);
  *solver = NULL;
}
