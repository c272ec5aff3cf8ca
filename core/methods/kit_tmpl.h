/* kit_tmpl.h: the private kit of the Galerkin-type families (galerkin.c,
 * man2020.c; design.md "a private kit shared by related families"): how a
 * family lays out its state block, adds a quadrature node's Jacobian block
 * of the Lagrangian, and counts a solve. Not part of the public API.
 *
 * No include guard: included once per precision, after api_tmpl.h. */

/* Add the counts of one step's solve (as vi_solve reports them) to stats
 * (may be NULL). */
static inline void VI_X(vi_stats_add_solve)(VI_X(vi_stats) *stats, long iters,
                                            long fevals, long jevals) {
  if (stats == NULL) {
    return;
  }
  stats->newton_iters += iters;
  if (iters > stats->newton_iters_max) {
    stats->newton_iters_max = iters;
  }
  stats->fevals += fevals;
  stats->jevals += jevals;
}

/* How a family lays out its state block: carve count reals at *off bytes
 * into base, 16-byte aligned; base NULL only measures. */
static inline VI_REAL *VI_X(vi_carve)(char *base, size_t *off, size_t count) {
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
static inline void VI_X(vi_lagr_block)(VI_REAL *B, int ld, int n, VI_REAL kv,
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

