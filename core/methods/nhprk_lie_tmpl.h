/* nhprk_lie_tmpl.h: the Lie-group branch of the family nhprk, included by
 * nhprk_tmpl.c (and by nothing else): the nonholonomic Lobatto IIIA-IIIB
 * partitioned Runge-Kutta method on a Lie group G with the Cayley
 * retraction tau = cay, demartin2018 §6.4 and App. F (Theorem 6.1, (24)-
 * (27) for the unconstrained part; reading notes
 * ../shared/papers/notes/demartin2018.md §1.6-1.9), for the Lie form: a
 * trivialised Lagrangian l(g, xi) on G x g and the nonholonomic
 * constraints phi(g, xi) = A(g) xi + a(g) = 0 (vi_lie_ops, vi_space_ops,
 * vi_nh_ops; everything left-trivialised).
 *
 * Sign convention: the harness's (as the vector branch): the constraint
 * force is -A(g)' mu, so every Lambda^i below is the paper's -lambda.
 *
 * One step from (g_k, mu_k, lambda_k), mu_k = D2 l(g_k, eta_k), with (a,
 * b) Lobatto IIIA and w_ij = b_j a_ji / b_i, solves for x = (H^1..H^s in
 * g = R^d, Lambda^2..Lambda^s), s d + (s - 1) m_nh unknowns, Lambda^1 :=
 * lambda_k carried (notes §1.9):
 *   Xi^i = h sum_j a_ij H^j,  xi = Xi^s = h sum_j b_j H^j       (24), (25)
 *   G^i = g_k cay(Xi^i)                          (G^1 = g_k, G^s = g_{k+1})
 *   etat^i = dcay_{Xi^i} H^i          the stage trivialised velocity (App. C)
 *   F^i = L*_{G^i} D1 l(G^i, etat^i) - A(G^i)' Lambda^i      (§6.4, T_nh)
 *   N^i = dcay_{Xi^i}' F^i,  Pi^i = dcay_{Xi^i}' D2 l(G^i, etat^i)
 *   K^i = (ddcay_{Xi^i})*(H^i, Pi^i)       the second-tangent term of (26)
 *   Fbar^i = (dcay^-1_{-Xi^i})' N^i  (= Ad_{cay(Xi^i)^-1}' F^i, notes P12)
 *   mu_{k+1} = Ad_{cay xi}' (mu_k + h sum_j b_j Fbar^j)                (27)
 *   mu^i = Ad_{cay Xi^i}' (mu_k + h sum_j a_ij Fbar^j)   IIIA weights (§6.4)
 *   eta^i: D2 l(G^i, eta^i) = mu^i     (the Lie form's inverse Legendre map)
 * residuals
 *   R^M_i = Pi^i + h sum_j w_ij (N^j + K^j) - dcay_xi' mu_{k+1},  i = 1..s
 *                                                    ((30) with (29) inserted)
 *   R^phi_i = A(G^i) eta^i + a(G^i),  i = 2..s: the constraint on eta^i
 *            from mu^i, not on the stage velocity etat^i (notes P11);
 * update g_{k+1} = G^s, mu_{k+1} = mu^s (a_sj = b_j), lambda_{k+1} =
 * Lambda^s. With ddcay=off K^i is left out (notes P10: order 1; a
 * demonstration, not the paper's method).
 *
 * Start (init): g_0 onto its group and xi_0 = eta_0 onto A xi + a = 0 in
 * the metric of D2 D2 l, mu_0 = D2 l(g_0, eta_0) (vi_system_project, the
 * Lie form's own projection: allocation has done it for the system's data,
 * so it moves them by round-off only; the stage-1 constraint is never
 * imposed, notes P4); lambda_0 the exact multiplier of the continuous
 * equations (vi_system_lambda, the Lie form's d/dt phi = 0 along gdot =
 * g xi), or zero with lambda0=zero.
 *
 * Jacobian: central finite differences of the residual (the paper's
 * authors used fsolve, a difference Jacobian; notes §1.9 recommend it),
 * 2N evaluations per Newton iteration, step eps^(1/3) max(|x_c|, u_c) in
 * each precision (about 6e-6 in double, 6e-12 in quad), u_c the unknown's
 * scale (1 + |eta_0| for H, 1 + |mu_0| for Lambda): truncation and
 * round-off then both stay near eps^(2/3) relative, and Newton, whose
 * contraction is then about eps^(2/3) per iteration, still converges to
 * the solver's tolerance. The solver's units: H 1 + |eta_0|, Lambda
 * (1 + |mu_0|) / h (as the vector branch: Lambda acts on mu through h). */

/* The branch's layout in the state block. */
static size_t nhprk_lie_layout(nhprk_state *st, char *base, int n, int nq, int k, int s) {
  nhprk_state dummy;
  nhprk_state *t = st ? st : &dummy;
  size_t off = 0;
  const size_t sn = (size_t)s * (size_t)n, nn = (size_t)n * (size_t)n;
  const size_t N = sn + (size_t)(s - 1) * (size_t)k;
  t->q = vi_carve(base, &off, (size_t)nq);
  t->p = vi_carve(base, &off, (size_t)n);
  t->eta = vi_carve(base, &off, (size_t)n);
  t->lam = vi_carve(base, &off, (size_t)k);
  t->x = vi_carve(base, &off, N);
  t->xs = vi_carve(base, &off, N);
  t->Xi = vi_carve(base, &off, sn);
  t->C = vi_carve(base, &off, (size_t)s * (size_t)nq);
  t->G = vi_carve(base, &off, (size_t)s * (size_t)nq);
  t->D = vi_carve(base, &off, (size_t)s * nn);
  t->F = vi_carve(base, &off, sn);
  t->Nf = vi_carve(base, &off, sn);
  t->Kt = vi_carve(base, &off, sn);
  t->Pi = vi_carve(base, &off, sn);
  t->Fb = vi_carve(base, &off, sn);
  t->MU = vi_carve(base, &off, sn);
  t->ET = vi_carve(base, &off, sn);
  t->Aq = vi_carve(base, &off, (size_t)s * (size_t)k * (size_t)n);
  t->wv = vi_carve(base, &off, 3 * (size_t)n + (size_t)k);
  t->wm = vi_carve(base, &off, nn);
  t->FDp = vi_carve(base, &off, N);
  t->FDm = vi_carve(base, &off, N);
  t->xp = vi_carve(base, &off, N);
  t->fdu = vi_carve(base, &off, N);
  return off;
}

/* y = M' x for the n x n row-major M. */
static void nhprk_mtv_n(int n, const VI_REAL *M, const VI_REAL *x, VI_REAL *y) {
  for (int j = 0; j < n; j++) {
    VI_REAL acc = 0;
    for (int i = 0; i < n; i++) {
      acc += M[i * n + j] * x[i];
    }
    y[j] = acc;
  }
}

/* The stages of x into the state (file comment: Xi^i, cay(Xi^i), G^i,
 * dcay_{Xi^i}, F^i, N^i, Pi^i, K^i, Fbar^i, mu^i and, for i = 2..s,
 * eta^i), and the residual into R when R is not NULL. */
static int nhprk_lie_eval(nhprk_state *st, const VI_REAL *x, VI_REAL *R) {
  const VI_X(vi_system) *sys = st->sys;
  const VI_X(vi_space_ops) *sp = sys->type->space;
  const VI_X(vi_lie_ops) *lie = sys->type->lie;
  const VI_X(vi_nh_ops) *nh = sys->type->nh;
  const void *ss = sys->state;
  const int n = st->n, nq = st->nq, k = st->k, s = st->s, sn = s * n;
  const size_t nn = (size_t)n * (size_t)n, kn = (size_t)k * (size_t)n;
  const VI_REAL h = st->h;
  VI_REAL *et = st->wv, *f = et + n, *u = f + n, *ak = u + n;
  int rc;
  for (int i = 0; i < s; i++) {
    const VI_REAL *Hi = x + i * n;
    VI_REAL *Xi = st->Xi + i * n, *Ci = st->C + (size_t)i * nq, *Gi = st->G + (size_t)i * nq;
    VI_REAL *Di = st->D + (size_t)i * nn, *Ai = st->Aq + (size_t)i * kn;
    VI_REAL *Fi = st->F + i * n, *Ni = st->Nf + i * n, *Pii = st->Pi + i * n;
    /* Xi^i = h sum_j a_ij H^j (24). */
    for (int a = 0; a < n; a++) {
      VI_REAL acc = 0;
      for (int j = 0; j < s; j++) {
        acc += st->A[i * s + j] * x[j * n + a];
      }
      Xi[a] = h * acc;
    }
    /* G^i = g_k cay(Xi^i); etat^i = dcay_{Xi^i} H^i. */
    if ((rc = cb(sp->cay(ss, Xi, Ci))) != VI_OK || (rc = cb(sp->compose(ss, st->q, Ci, Gi))) != VI_OK ||
        (rc = cb(sp->dcay(ss, Xi, Di))) != VI_OK) {
      return rc;
    }
    vi_kit_mv(n, n, Di, Hi, et);
    /* F^i = L*_G D1 l - A' Lambda^i (the harness's sign of the force). */
    if ((rc = cb(lie->force(ss, Gi, et, f))) != VI_OK ||
        (rc = cb(nh->matrix(ss, Gi, Ai))) != VI_OK) {
      return rc;
    }
    vi_kit_mtv(k, n, Ai, nhprk_lam_of(st, x, i), Fi, 0);
    for (int a = 0; a < n; a++) {
      Fi[a] = f[a] - Fi[a];
    }
    /* N^i = dcay' F^i, Pi^i = dcay' D2 l(G^i, etat^i). */
    nhprk_mtv_n(n, Di, Fi, Ni);
    if ((rc = cb(lie->dxi(ss, Gi, et, u))) != VI_OK) {
      return rc;
    }
    nhprk_mtv_n(n, Di, u, Pii);
    /* K^i = (ddcay_{Xi^i})*(H^i, Pi^i), the second-tangent term of (26). */
    VI_REAL *Ki = st->Kt + i * n;
    if (st->o.ddcay == VI_NHPRK_DDCAY_ON) {
      if ((rc = cb(sp->ddcay_star(ss, Xi, Hi, Pii, Ki))) != VI_OK) {
        return rc;
      }
    } else {
      memset(Ki, 0, (size_t)n * sizeof *Ki);
    }
    /* Fbar^i = (dcay^-1_{-Xi^i})' N^i (notes §1.6 identity, P12). */
    for (int a = 0; a < n; a++) {
      u[a] = -Xi[a];
    }
    if ((rc = cb(sp->dcayinv(ss, u, st->wm))) != VI_OK) {
      return rc;
    }
    nhprk_mtv_n(n, st->wm, Ni, st->Fb + i * n);
  }
  /* mu^i = Ad_{cay Xi^i}' (mu_k + h sum_j a_ij Fbar^j) (§6.4; i = s is
   * (27)), and eta^i from mu^i for the constraint rows (i = 2..s). */
  for (int i = 0; i < s; i++) {
    for (int a = 0; a < n; a++) {
      VI_REAL acc = 0;
      for (int j = 0; j < s; j++) {
        acc += st->A[i * s + j] * st->Fb[j * n + a];
      }
      u[a] = st->p[a] + h * acc;
    }
    if ((rc = cb(sp->Ad(ss, st->C + (size_t)i * nq, st->wm))) != VI_OK) {
      return rc;
    }
    nhprk_mtv_n(n, st->wm, u, st->MU + i * n);
    if (i > 0 &&
        (rc = VI_X(vi_system_lie_xi)(sys, st->G + (size_t)i * nq, st->MU + i * n,
                                     st->ET + i * n)) != VI_OK) {
      return rc;
    }
  }
  if (R == NULL) {
    return VI_OK;
  }
  /* R^M_i = Pi^i + h sum_j w_ij (N^j + K^j) - dcay_xi' mu_{k+1}, w_ij =
   * b_j a_ji / b_i; dcay_xi is stage s's, mu_{k+1} = mu^s. */
  nhprk_mtv_n(n, st->D + (size_t)(s - 1) * nn, st->MU + (s - 1) * n, u);
  for (int i = 0; i < s; i++) {
    for (int a = 0; a < n; a++) {
      VI_REAL acc = 0;
      for (int j = 0; j < s; j++) {
        const VI_REAL w = st->b[j] * st->A[j * s + i] / st->b[i];
        acc += w * (st->Nf[j * n + a] + st->Kt[j * n + a]);
      }
      R[i * n + a] = st->Pi[i * n + a] + h * acc - u[a];
    }
  }
  /* R^phi_i = A(G^i) eta^i + a(G^i), i = 2..s. */
  for (int i = 1; i < s; i++) {
    VI_REAL *Ri = R + sn + (i - 1) * k;
    vi_kit_mv(k, n, st->Aq + (size_t)i * kn, st->ET + i * n, Ri);
    if (nh->affine != NULL) {
      if ((rc = cb(nh->affine(ss, st->G + (size_t)i * nq, ak))) != VI_OK) {
        return rc;
      }
      for (int r = 0; r < k; r++) {
        Ri[r] += ak[r];
      }
    }
  }
  return VI_OK;
}

/* Residual and central-difference Jacobian (file comment). The residual
 * is evaluated last, so the state's stages are those of x. */
static int nhprk_lie_resjac(void *ctx, const VI_REAL *x, VI_REAL *F, VI_REAL *J) {
  nhprk_state *st = ctx;
  const int N = st->N;
  int rc;
  if (J != NULL) {
    memcpy(st->xp, x, (size_t)N * sizeof *st->xp);
    for (int c = 0; c < N; c++) {
      const VI_REAL ax = vi_fabs(x[c]);
      const VI_REAL del = st->fd_rel * (ax > st->fdu[c] ? ax : st->fdu[c]);
      st->xp[c] = x[c] + del;
      const VI_REAL dp = st->xp[c] - x[c]; /* the step as represented */
      if ((rc = nhprk_lie_eval(st, st->xp, st->FDp)) != VI_OK) {
        return rc;
      }
      st->xp[c] = x[c] - del;
      const VI_REAL dm = x[c] - st->xp[c];
      if ((rc = nhprk_lie_eval(st, st->xp, st->FDm)) != VI_OK) {
        return rc;
      }
      st->xp[c] = x[c];
      for (int r = 0; r < N; r++) {
        J[(size_t)r * N + c] = (st->FDp[r] - st->FDm[r]) / (dp + dm);
      }
    }
  }
  return F != NULL ? nhprk_lie_eval(st, x, F) : VI_OK;
}

/* The start guess of a step from the node: every H^i = eta_k, every
 * Lambda^i = lambda_k. */
static int nhprk_lie_guess_start(void *ctx) {
  nhprk_state *st = ctx;
  const int n = st->n, k = st->k, s = st->s;
  for (int i = 0; i < s; i++) {
    memcpy(st->x + i * n, st->eta, (size_t)n * sizeof *st->x);
    if (i > 0) {
      memcpy(st->x + s * n + (i - 1) * k, st->lam, (size_t)k * sizeof *st->x);
    }
  }
  return VI_OK;
}

/* init of the branch: the state's common part (o, sys, n, k, s, N, h, t0,
 * the tableaux) is set by nhprk_init. */
static int nhprk_lie_init(nhprk_state *st, const VI_X(vi_system) *sys,
                          const VI_X(vi_solver_opts) *solver, const VI_REAL *q0,
                          const VI_REAL *p0, VI_X(vi_node) *node0, char *err, size_t errlen) {
  const int n = st->n, k = st->k, nq = st->nq, s = st->s;
  int rc;
  memcpy(st->q, q0, (size_t)nq * sizeof *q0);
  memcpy(st->p, p0, (size_t)n * sizeof *p0);
  /* g_0 onto its group, eta_0 onto the constraints (notes P4), mu_0. */
  if ((rc = VI_X(vi_system_lie_xi)(sys, st->q, st->p, st->eta)) != VI_OK ||
      (rc = VI_X(vi_system_project)(sys, st->q, st->eta, st->p)) != VI_OK) {
    vi_set_err(err, errlen, "nhprk: projecting the initial data onto the group and the "
                            "nonholonomic constraints failed (%s)",
               vi_strerror(rc));
    return rc;
  }
  node0->t = st->t0;
  memcpy(node0->q, st->q, (size_t)nq * sizeof *q0);
  memcpy(node0->p, st->p, (size_t)n * sizeof *p0);
  if ((rc = VI_X(vi_system_lambda)(sys, st->q, st->p, node0->lambda)) != VI_OK) {
    vi_set_err(err, errlen, "nhprk: the multipliers of the initial data failed (%s)",
               vi_strerror(rc));
    return rc;
  }
  for (int r = 0; st->o.lambda0 == VI_NHPRK_LAMBDA0_ZERO && r < k; r++) {
    node0->lambda[r] = 0;
  }
  memcpy(st->lam, node0->lambda, (size_t)k * sizeof *st->lam);
  if ((rc = VI_X(vi_solver_alloc)(solver, st->N, nhprk_lie_resjac, st, &st->solver)) !=
      VI_OK) {
    return rc;
  }
  const VI_REAL eu = 1 + VI_X(vi_norm_inf)(n, st->eta);
  const VI_REAL mu = 1 + VI_X(vi_norm_inf)(n, st->p);
  st->fd_rel = vi_cbrt(VI_EPS);
  for (int i = 0; i < st->N; i++) {
    VI_X(vi_solver_set_unit)(st->solver, i, i < s * n ? eu : mu / st->h);
    st->fdu[i] = i < s * n ? eu : mu;
  }
  return nhprk_lie_guess_start(st);
}

static int nhprk_lie_step(nhprk_state *st, VI_X(vi_node) *next, VI_X(vi_stats) *stats) {
  const int n = st->n, k = st->k, nq = st->nq, s = st->s;
  memcpy(st->xs, st->x, (size_t)st->N * sizeof *st->xs);
  int rc = vi_kit_solve(st->solver, st->x, 1, nhprk_lie_guess_start, st, stats);
  /* The stages of the converged x (the solver's last evaluation may have
   * been a difference or the previous iterate). */
  if (rc == VI_OK) {
    rc = nhprk_lie_eval(st, st->x, NULL);
  }
  if (rc != VI_OK) {
    memcpy(st->x, st->xs, (size_t)st->N * sizeof *st->x); /* the node is unchanged */
    return rc;
  }
  /* g_{k+1} = G^s = g_k cay(xi), mu_{k+1} = mu^s (27), eta_{k+1} = eta^s,
   * lambda_{k+1} = Lambda^s. */
  memcpy(st->q, st->G + (size_t)(s - 1) * nq, (size_t)nq * sizeof *st->q);
  memcpy(st->p, st->MU + (s - 1) * n, (size_t)n * sizeof *st->p);
  memcpy(st->eta, st->ET + (s - 1) * n, (size_t)n * sizeof *st->eta);
  memcpy(st->lam, nhprk_lam_of(st, st->x, s - 1), (size_t)k * sizeof *st->lam);
  st->step++;
  next->t = st->t0 + (VI_REAL)st->step * st->h;
  memcpy(next->q, st->q, (size_t)nq * sizeof *next->q);
  memcpy(next->p, st->p, (size_t)n * sizeof *next->p);
  memcpy(next->lambda, st->lam, (size_t)k * sizeof *next->lambda);
  stats->steps++;
  stats->unknowns = st->N;
  return VI_OK;
}
