/* galerkin_tmpl.c: the constrained Galerkin variational integrators of
 * wenger2017 (Wenger, Ober-Blöbaum, Leyendecker 2017), method family
 * "galerkin".
 *
 * On each interval [t_k, t_k + h], q is a polynomial q_d of degree s through
 * control points d_0 = 0 < ... < d_s = 1 (wenger2017 (11)) and lambda a
 * polynomial lambda_d of degree w whose control points are the nodes of the
 * constraint quadrature (Theorem 1, condition 1). The discrete augmented
 * Lagrangian (13) = (18)-(20) uses an r-node Gauss or Lobatto rule for the
 * Lagrangian integral L_d (19) and a z-node rule for the constraint integral
 * g_d: Lobatto with z = w + 1 (20), stiffly accurate, or Gauss with
 * z = w - 1 (24), which is not.
 *
 * One step solves the discrete Euler-Lagrange equations (22) for the
 * unknowns q^1..q^s and the multipliers at the constraint nodes, written in
 * momentum form (67): with Q_i, V_i = q_d, qdot_d at the Lagrangian nodes
 * c_i and Z_j = q_d(f_j h),
 *
 *   R_nu = [nu = 0] p_known + h sum_i b_i (l_nu(c_i) (-grad V(Q_i))
 *          + l'_nu(c_i)/h M V_i) - h sum_j e_j c_j l_nu(f_j) G(Z_j)' Lambda_j
 *          = 0,                                    nu = 0..s-1   (22)
 *   g(Z_j) = 0 at every constraint node with f_j > 0.            (22)
 * For a configuration-dependent mass (triple pendulum) -grad V(Q_i)
 * becomes L_q = dT/dq - grad V and M V_i becomes L_v = M(Q_i) V_i, and the
 * Jacobian gains the mixed blocks L_qv, L_vq (vi_system_lagr).
 *
 * With Lobatto constraint nodes lambda is continuous, lambda_k^w =
 * lambda_{k+1}^0, so the endpoint multiplier of interval k is the first
 * unknown of interval k+1 and enters its first equation twice (from
 * D_{s+1} Lbar_d of interval k and D_1 Lbar_d of interval k+1, weights
 * e_z = e_1): the carried momentum p_known is then the partial momentum
 * D_{s+1} L_d minus the interior constraint forces, and c_0 = 2; on the very
 * first interval p_known = p_0 is given and c_0 = 1. This is why the family
 * runs one interval ahead: step() solves interval k+1 and reports node k+1
 * with lambda_{k+1} = Lambda_0 and p_{k+1} = p_known - h e_1 G(q_{k+1})'
 * Lambda_0 = -D_1 Lbar_d (17), the unique node momentum of §3.2.
 *
 * Post-processing (§4.1): project=p reports P p_k with the projection (4)
 * onto the hidden constraint; lambda=recompute reports lambda from (70) at
 * (q_k, P p_k). Both act on the output only; the recursion is unchanged.
 *
 * Special cases (§3.5): s = w = 1, Lobatto r = 2 is SHAKE; w = s - 1 with
 * Lobatto r = s is the constrained s-stage Lobatto IIIA-IIIB method; both
 * are checked against direct implementations in tests/test_galerkin.c.
 * Compiled once per precision (prec.h). */
#include "methods/kit_tmpl.h"
#include "methods/galerkin.h"

#define GAL_MAX 16 /* s, r, z limits (VI_TAB_MAX-sized stack tables) */

enum { PROJ_NONE = 0, PROJ_P = 1 };
enum { LAM_NODE = 0, LAM_RECOMPUTE = 1 };

typedef vi_galerkin_opts galerkin_opts;

static const char *const proj_names[] = {"none", "p", NULL};
static const char *const lam_names[] = {"node", "recompute", NULL};

/* Named schemes as data (PETSc's type vs scheme), in the order of
 * vi_galerkin_scheme: the keys each one sets; lobatto3ab also derives w =
 * s-1 and r = s (galerkin_check). The special cases are verified in
 * tests/test_galerkin.c: s = w = 1 with Lobatto r = 2 is SHAKE (wenger2017
 * §2.2, (10)), its projected momenta RATTLE's; w = s - 1 with Lobatto r = s
 * the constrained s-stage Lobatto IIIA-IIIB method. */
static const vi_opt_preset galerkin_schemes[] = {
    {"shake", "s=1,w=1,quadL=lobatto,r=2", NULL},
    {"rattle", "s=1,w=1,quadL=lobatto,r=2,project=p", NULL},
    {"lobatto3ab", "quadL=lobatto", "w=s-1, r=s"},
    {NULL, NULL, NULL}};

#define GOPT(f) offsetof(galerkin_opts, f)
static const vi_opt galerkin_options[] = {
    {"s", VI_OPT_INT, GOPT(s), 1, 12, NULL, NULL, NULL, 2, 0, NULL, NULL,
     "degree of q_d (11); s+1 control points"},
    {"w", VI_OPT_INT, GOPT(w), 1, 13, NULL, NULL, NULL, 0, 0,
     "1..s (quadZ=lobatto), 2..s+1 (quadZ=gauss)", "s",
     "degree of lambda_d (12); Theorem 1 condition 2"},
    {"quadL", VI_OPT_CHOICE, GOPT(quadL), 0, 0, vi_kit_rule_names, vi_kit_rule_values, NULL,
     VI_RULE_GAUSS, 0, NULL, NULL, "quadrature of the Lagrangian integral (19)"},
    {"r", VI_OPT_INT, GOPT(r), 1, GAL_MAX, NULL, NULL, NULL, 0, 0,
     "s..16 (at least 2 for lobatto)", "s (gauss), s+1 (lobatto)",
     "nodes of the Lagrangian quadrature; ordL = 2r (gauss), 2r-2 (lobatto)"},
    {"quadZ", VI_OPT_CHOICE, GOPT(quadZ), 0, 0, vi_kit_rule_names, vi_kit_rule_values, NULL,
     VI_RULE_LOBATTO, 0, "lobatto|gauss", NULL,
     "quadrature of the constraint integral: lobatto z = w+1 (20), ordZ = 2w, "
     "stiffly accurate; gauss z = w-1 (24), not stiffly accurate"},
    {"ctrl", VI_OPT_CHOICE, GOPT(ctrl), 0, 0, vi_kit_ctrl_names, vi_kit_ctrl_values, NULL,
     VI_CTRL_LOBATTO, 0, "lobatto|equidistant", NULL, "control points d_j of q_d"},
    {"project", VI_OPT_CHOICE, GOPT(project), 0, 0, proj_names, NULL, NULL, PROJ_NONE, 0,
     NULL, NULL, "report P p, projection (4) onto the hidden constraint"},
    {"lambda", VI_OPT_CHOICE, GOPT(lambda), 0, 0, lam_names, NULL, NULL, LAM_NODE, 0, NULL,
     NULL, "report lambda_k^0, or lambda from (70) at (q_k, P p_k)"},
    {"scheme", VI_OPT_PRESET, GOPT(scheme), 0, 0, NULL, NULL, galerkin_schemes, 0,
     VI_PRESET_EXCLUSIVE, NULL, NULL,
     "a named scheme: its keys are set (giving one of them too is refused); "
     "shake = s=1,w=1,quadL=lobatto,r=2; rattle = shake with project=p; "
     "lobatto3ab = w=s-1,quadL=lobatto,r=s (the constrained s-stage Lobatto IIIA-IIIB)"},
    {NULL, 0, 0, 0, 0, NULL, NULL, NULL, 0, 0, NULL, NULL, NULL}};
#undef GOPT

/* What the table cannot say: the defaults of w and r and what wenger2017
 * rules out, for the spec parser and the typed constructor alike. */
static int galerkin_check(void *opts_, char *err, size_t errlen) {
  galerkin_opts *o = opts_;
  if (o->scheme == VI_GALERKIN_LOBATTO3AB) {
    if (o->s < 2) {
      snprintf(err, errlen, "scheme=lobatto3ab needs s >= 2 (w = s-1 >= 1)");
      return VI_EINVAL;
    }
    if ((o->w != 0 && o->w != o->s - 1) || (o->r != 0 && o->r != o->s)) {
      snprintf(err, errlen, "scheme=lobatto3ab sets w = s-1 = %d and r = s = %d; the options "
               "have w = %d, r = %d", o->s - 1, o->s, o->w, o->r);
      return VI_EINVAL;
    }
    o->w = o->s - 1;
    o->r = o->s;
  }
  if (o->w == 0) {
    o->w = o->s;
  }
  if (o->r == 0) {
    o->r = o->quadL == VI_RULE_GAUSS ? o->s : o->s + 1;
  }
  const char *ql = o->quadL == VI_RULE_GAUSS ? "gauss" : "lobatto";
  /* Theorem 1 of wenger2017, condition 2 (solvability). */
  if (o->quadZ == VI_RULE_LOBATTO && o->w > o->s) {
    snprintf(err, errlen,
             "w = %d > s = %d with quadZ=lobatto: Theorem 1 (condition 2) of "
             "wenger2017 requires w <= s for the discrete Euler-Lagrange "
             "equations to be solvable; choose w in 1..%d",
             o->w, o->s, o->s);
    return VI_EINVAL;
  }
  if (o->quadZ == VI_RULE_GAUSS && (o->w < 2 || o->w > o->s + 1)) {
    snprintf(err, errlen,
             "w = %d with quadZ=gauss: z = w-1 Gauss nodes need w >= 2, and "
             "Theorem 1 (condition 2) of wenger2017 requires s >= w-1; choose "
             "w in 2..%d",
             o->w, o->s + 1);
    return VI_EINVAL;
  }
  if (o->quadL == VI_RULE_LOBATTO && o->r < 2) {
    snprintf(err, errlen, "r = %d with quadL=lobatto: a Lobatto rule has at least 2 nodes",
             o->r);
    return VI_EINVAL;
  }
  /* Quadrature order rule of wenger2017 §4.1: with fewer than s nodes
   * (ordL < 2s Gauss, < 2s-2 Lobatto) no convergent integrator was found,
   * and the discrete Lagrangian flow need not be well defined. */
  if (o->r < o->s) {
    snprintf(err, errlen,
             "r = %d < s = %d with quadL=%s: wenger2017 §4.1 requires r >= s "
             "nodes for the Lagrangian integral (ordL >= %d); choose r in %d..%d",
             o->r, o->s, ql, o->quadL == VI_RULE_GAUSS ? 2 * o->s : 2 * o->s - 2,
             o->s > 1 || o->quadL == VI_RULE_GAUSS ? o->s : 2, GAL_MAX);
    return VI_EINVAL;
  }
  return VI_OK;
}

/* ---- state -------------------------------------------------------------- */

typedef struct gal_state {
  galerkin_opts o;
  const VI_X(vi_system) *sys;
  VI_X(vi_solver) *solver;
  int n, m, s, r, z;
  int nlam;     /* multiplier nodes that are unknowns of an interval */
  int lobatto;  /* constraint quadrature is Lobatto (stiffly accurate) */
  int N;        /* unknowns per step */
  int first;    /* solving the first interval (c_0 = 1) */
  int have_prev;
  VI_REAL h, t0;
  long k; /* index of the interval being solved: t = t0 + k h */
  /* Tables (wenger2017 (11)-(13)): Lagrangian nodes/weights and basis
   * values l_nu(c_i), l'_nu(c_i); constraint nodes/weights and l_nu(f_j);
   * extrapolation l_nu(1 + d_mu) and lambda extrapolation. */
  VI_REAL d[GAL_MAX + 1], cL[GAL_MAX], bL[GAL_MAX], f[GAL_MAX + 1], e[GAL_MAX + 1];
  VI_REAL lL[GAL_MAX * (GAL_MAX + 1)], dlL[GAL_MAX * (GAL_MAX + 1)];
  VI_REAL lZ[(GAL_MAX + 1) * (GAL_MAX + 1)];
  VI_REAL lX[(GAL_MAX + 1) * (GAL_MAX + 1)];
  VI_REAL lamX[(GAL_MAX + 1) * (GAL_MAX + 1)]; /* next Lambda_j from previous */
  VI_REAL lam0[GAL_MAX + 1]; /* Gauss: weights of Lambda_j for lambda at t_k */
  /* Interval data and work arrays (carved from the stepper block). */
  VI_REAL *q0, *pk, *x, *xprev, *ptil, *lam_node, *pnode;
  vi_kit_work w; /* a quadrature node of the Lagrangian integral */
  VI_REAL *g, *G, *HG;
  VI_REAL *Zg;  /* G(Z_j), z blocks of m x n, kept for the momentum update */
  VI_REAL *Zq;  /* Z_j, z blocks of n */
} gal_state;

/* Lay out the work arrays after the struct (st NULL only measures). */
static size_t gal_layout(gal_state *st, char *base, int n, int m,
                         int s, int z, int N) {
  gal_state dummy;
  gal_state *t = st ? st : &dummy;
  size_t off = 0;
  t->q0 = vi_carve(base, &off, (size_t)n);
  t->pk = vi_carve(base, &off, (size_t)n);
  t->x = vi_carve(base, &off, (size_t)N);
  t->xprev = vi_carve(base, &off, (size_t)N + (size_t)n);
  t->ptil = vi_carve(base, &off, (size_t)n);
  t->lam_node = vi_carve(base, &off, (size_t)m);
  t->pnode = vi_carve(base, &off, (size_t)n);
  vi_kit_work_carve(&t->w, base, &off, n);
  t->g = vi_carve(base, &off, (size_t)m);
  t->G = vi_carve(base, &off, (size_t)m * n);
  t->HG = vi_carve(base, &off, (size_t)n * n);
  t->Zg = vi_carve(base, &off, (size_t)z * m * n);
  t->Zq = vi_carve(base, &off, (size_t)z * n);
  (void)s;
  return off;
}

static size_t galerkin_state_size(const void *opts_, const vi_dims *d) {
  const galerkin_opts *o = opts_;
  int lob = o->quadZ == VI_RULE_LOBATTO;
  int z = lob ? o->w + 1 : o->w - 1;
  int N = o->s * d->n + (lob ? o->w : o->w - 1) * d->m;
  size_t head = (sizeof(gal_state) + 15) / 16 * 16;
  return head + gal_layout(NULL, NULL, d->n, d->m, o->s, z, N);
}

/* Unknown vector layout: q^1..q^s (s blocks of n), then Lambda_j for the
 * nlam unknown multiplier nodes (blocks of m). */

/* Index of the first unknown multiplier node j, and the weight factor c_j
 * of Lambda_j in the q equations (2 for the shared node of continuous
 * lambda after the first interval, wenger2017 (21)-(22)). */
static VI_REAL cfac(const gal_state *st, int j) {
  return (st->lobatto && j == 0 && !st->first) ? VI_C(2.0) : VI_C(1.0);
}

/* q_d and qdot_d at a node (kit: vi_kit_eval). */
static void eval_qd(const gal_state *st, const VI_REAL *x, const VI_REAL *l,
                    const VI_REAL *dl, VI_REAL *Q, VI_REAL *V) {
  vi_kit_eval(st->n, st->s, st->q0, x, l, dl, st->h, Q, V);
}

/* The Lagrangian's derivatives at a quadrature node (Q, V) into dV =
 * -L_q, MV = L_v and, with jac, HV = -L_qq, Mq = L_vv, Dq = L_vq (the last
 * two only for a configuration-dependent mass; see vi_system_lagr). */
static int node_lagr(gal_state *st, int jac) {
  return VI_X(vi_system_lagr)(st->sys, st->w.Q, st->w.V, st->w.dV, st->w.MV,
                              jac ? st->w.HV : NULL, st->w.Mq, st->w.Dq, st->w.kw);
}

/* Residual and Jacobian of one interval (see the file comment). */
static int gal_resjac(void *ctx, const VI_REAL *x, VI_REAL *F,
                      VI_REAL *J) {
  gal_state *st = ctx;
  const VI_X(vi_system) *sys = st->sys;
  const VI_X(vi_system_type) *ty = sys->type;
  const int n = st->n, m = st->m, s = st->s, N = st->N;
  const VI_REAL h = st->h;
  const int lam_off = s * n;
  int rc;
  if (F) {
    memset(F, 0, (size_t)N * sizeof *F);
    for (int a = 0; a < n; a++) {
      F[a] = st->pk[a];
    }
  }
  if (J) {
    memset(J, 0, (size_t)N * N * sizeof *J);
  }
  /* Lagrangian integral (19): h sum_i b_i L(Q_i, V_i). */
  for (int i = 0; i < st->r; i++) {
    if ((rc = vi_kit_lagr_node(sys, &st->w, s, s, st->q0, x, st->lL + i * (s + 1),
                                     st->dlL + i * (s + 1), h, h * st->bL[i], F, J, N)) !=
        VI_OK) {
      return rc;
    }
  }
  /* Constraint integral (20)/(24) and the constraints themselves. */
  int crow = s * n; /* next constraint row */
  for (int j = 0; j < st->z; j++) {
    const VI_REAL *lz = st->lZ + j * (s + 1);
    const int unknown = j < st->nlam || !st->lobatto;
    const int constrained = !st->lobatto || j > 0;
    VI_REAL *Z = st->Zq + (size_t)j * n;
    VI_REAL *GZ = st->Zg + (size_t)j * m * n;
    eval_qd(st, x, lz, NULL, Z, NULL);
    if ((rc = vi_callback_status(ty->holo->constraint_jac(sys->state, Z, GZ))) != 0) {
      return rc;
    }
    if (unknown) {
      const VI_REAL *Lj = x + lam_off + (size_t)j * m;
      const VI_REAL he = h * st->e[j] * cfac(st, j);
      if (F) {
        for (int nu = 0; nu < s; nu++) {
          if (lz[nu] == 0) {
            continue;
          }
          for (int a = 0; a < n; a++) {
            VI_REAL gl = 0;
            for (int k = 0; k < m; k++) {
              gl += GZ[k * n + a] * Lj[k];
            }
            F[nu * n + a] -= he * lz[nu] * gl;
          }
        }
      }
      if (J) {
        if ((rc = vi_callback_status(ty->holo->constraint_hess(sys->state, Z, Lj, st->HG))) != 0) {
          return rc;
        }
        for (int nu = 0; nu < s; nu++) {
          if (lz[nu] == 0) {
            continue;
          }
          for (int a = 0; a < n; a++) {
            VI_REAL *row = J + (size_t)(nu * n + a) * N;
            for (int mu = 1; mu <= s; mu++) {
              const VI_REAL k2 = he * lz[nu] * lz[mu];
              if (k2 == 0) {
                continue;
              }
              for (int c = 0; c < n; c++) {
                row[(mu - 1) * n + c] -= k2 * st->HG[a * n + c];
              }
            }
            for (int k = 0; k < m; k++) {
              row[lam_off + j * m + k] -= he * lz[nu] * GZ[k * n + a];
            }
          }
        }
      }
    }
    if (constrained) {
      if (F) {
        if ((rc = vi_callback_status(ty->holo->constraint(sys->state, Z, st->g))) != 0) {
          return rc;
        }
        for (int k = 0; k < m; k++) {
          F[crow + k] = st->g[k];
        }
      }
      if (J) {
        for (int k = 0; k < m; k++) {
          VI_REAL *row = J + (size_t)(crow + k) * N;
          for (int mu = 1; mu <= s; mu++) {
            for (int c = 0; c < n; c++) {
              row[(mu - 1) * n + c] = lz[mu] * GZ[k * n + c];
            }
          }
        }
      }
      crow += m;
    }
  }
  return VI_OK;
}

/* Guess for the first interval: q^mu = q0 + t v0 + t^2/2 a0 at t = d_mu h
 * with a0 from the index-1 form, Lambda_j = lambda(q0, p0) of (70). */
static int guess_start(gal_state *st, const VI_REAL *lam0) {
  const int n = st->n, m = st->m;
  VI_REAL *v = st->w.V, *a = st->w.MV;
  int rc = VI_X(vi_system_accel)(st->sys, st->q0, st->pk, lam0, v, a);
  if (rc != VI_OK) {
    return rc;
  }
  vi_kit_taylor(n, st->s, st->d, st->h, st->q0, v, a, st->x);
  for (int j = 0; j < st->nlam; j++) {
    memcpy(st->x + st->s * n + (size_t)j * m, lam0, (size_t)m * sizeof *lam0);
  }
  return VI_OK;
}

/* Guess for a later interval: extrapolate the previous interval's q_d and
 * the polynomial through its unknown multipliers. xprev holds the previous
 * unknowns followed by its q^0. */
static void guess_extrapolate(gal_state *st) {
  const int n = st->n, m = st->m, s = st->s;
  const VI_REAL *xp = st->xprev;
  vi_kit_extrapolate(n, s, st->lX, st->xprev + st->N, xp, st->x);
  for (int j = 0; j < st->nlam; j++) {
    VI_REAL *Lj = st->x + s * n + (size_t)j * m;
    const VI_REAL *l = st->lamX + j * st->nlam;
    for (int k = 0; k < m; k++) {
      VI_REAL acc = 0;
      for (int i = 0; i < st->nlam; i++) {
        acc += l[i] * xp[s * n + (size_t)i * m + k];
      }
      Lj[k] = acc;
    }
  }
}

/* The Taylor guess from the last node multiplier (the retry of a failed
 * solve from an extrapolated guess). */
static int restart(void *ctx) {
  gal_state *st = ctx;
  return guess_start(st, st->lam_node);
}

/* Solve the current interval from the prepared guess; on a recoverable
 * failure of an extrapolated guess retry once from the Taylor guess. */
static int solve_interval(gal_state *st, VI_X(vi_stats) *stats,
                          int extrapolated) {
  return vi_kit_solve(st->solver, st->x, extrapolated, restart, st, stats);
}

/* After solving: node multiplier and momentum at t_k, the partial momentum
 * carried to t_{k+1}, and the next interval's q^0. */
static int finish_interval(gal_state *st) {
  const int n = st->n, m = st->m, s = st->s;
  const VI_REAL h = st->h;
  const VI_REAL *lam = st->x + s * n;
  const VI_X(vi_system) *sys = st->sys;
  int rc;
  /* G(Z_j) at the converged unknowns (the solver's last evaluation was at
   * the iterate before its final update). */
  for (int j = 0; j < st->nlam; j++) {
    VI_REAL *Z = st->Zq + (size_t)j * n;
    eval_qd(st, st->x, st->lZ + j * (s + 1), NULL, Z, NULL);
    if ((rc = vi_callback_status(sys->type->holo->constraint_jac(sys->state, Z, st->Zg + (size_t)j * m * n))) != 0) {
      return rc;
    }
  }
  /* Node multiplier: Lambda_0 (Lobatto), or the polynomial through the
   * Gauss-node multipliers evaluated at t_k (Gauss; not stiffly accurate,
   * lambda_d has no value of its own at the nodes). */
  for (int k = 0; k < m; k++) {
    VI_REAL acc = 0;
    if (st->lobatto) {
      acc = lam[k];
    } else {
      for (int j = 0; j < st->nlam; j++) {
        acc += st->lam0[j] * lam[(size_t)j * m + k];
      }
    }
    st->lam_node[k] = acc;
  }
  /* Node momentum p_k = -D_1 Lbar_d (17). */
  memcpy(st->pnode, st->pk, (size_t)n * sizeof *st->pk);
  if (st->lobatto && !st->first) {
    const VI_REAL *G0 = st->Zg; /* G(Z_0) = G(q_k) */
    for (int a = 0; a < n; a++) {
      VI_REAL gl = 0;
      for (int k = 0; k < m; k++) {
        gl += G0[k * n + a] * lam[k];
      }
      st->pnode[a] -= h * st->e[0] * gl;
    }
  }
  /* Partial momentum D_{s+1} L_d - interior constraint forces (67); the
   * endpoint multiplier of a Lobatto rule is added by the next interval. */
  for (int a = 0; a < n; a++) {
    st->ptil[a] = 0;
  }
  for (int i = 0; i < st->r; i++) {
    const VI_REAL *l = st->lL + i * (s + 1), *dl = st->dlL + i * (s + 1);
    eval_qd(st, st->x, l, dl, st->w.Q, st->w.V);
    if ((rc = node_lagr(st, 0)) != VI_OK) {
      return rc;
    }
    const VI_REAL hb = h * st->bL[i];
    for (int a = 0; a < n; a++) {
      st->ptil[a] += hb * (l[s] * (-st->w.dV[a]) + dl[s] / h * st->w.MV[a]);
    }
  }
  for (int j = 0; j < st->nlam; j++) {
    const VI_REAL ls = st->lZ[j * (s + 1) + s];
    if (ls == 0) {
      continue;
    }
    const VI_REAL *GZ = st->Zg + (size_t)j * m * n;
    const VI_REAL *Lj = lam + (size_t)j * m;
    for (int a = 0; a < n; a++) {
      VI_REAL gl = 0;
      for (int k = 0; k < m; k++) {
        gl += GZ[k * n + a] * Lj[k];
      }
      st->ptil[a] -= h * st->e[j] * ls * gl;
    }
  }
  return VI_OK;
}

/* Write node output (post-processing of §4.1 applied here only). */
static int emit_node(gal_state *st, VI_X(vi_node) *node) {
  const int n = st->n, m = st->m;
  node->t = st->t0 + (VI_REAL)st->k * st->h;
  memcpy(node->q, st->q0, (size_t)n * sizeof *node->q);
  memcpy(node->p, st->pnode, (size_t)n * sizeof *node->p);
  memcpy(node->lambda, st->lam_node, (size_t)m * sizeof *node->lambda);
  int rc = VI_OK;
  if (st->o.project == PROJ_P || st->o.lambda == LAM_RECOMPUTE) {
    VI_REAL *pp = st->w.V;
    memcpy(pp, st->pnode, (size_t)n * sizeof *pp);
    rc = VI_X(vi_system_project_p)(st->sys, node->q, pp);
    if (rc == VI_OK && st->o.project == PROJ_P) {
      memcpy(node->p, pp, (size_t)n * sizeof *pp);
    }
    if (rc == VI_OK && st->o.lambda == LAM_RECOMPUTE) {
      rc = VI_X(vi_system_lambda)(st->sys, node->q, pp, node->lambda);
    }
  }
  return rc;
}

/* Prepare the next interval: q^0 = q^s, p_known = partial momentum. */
static void advance(gal_state *st) {
  const int n = st->n;
  memcpy(st->xprev, st->x, (size_t)st->N * sizeof *st->x);
  memcpy(st->xprev + st->N, st->q0, (size_t)n * sizeof *st->q0);
  memcpy(st->q0, st->x + (size_t)(st->s - 1) * n, (size_t)n * sizeof *st->q0);
  memcpy(st->pk, st->ptil, (size_t)n * sizeof *st->pk);
  st->k++;
  st->first = 0;
}

static int galerkin_init(void *state, const void *opts_, const VI_X(vi_system) *sys,
                         const vi_dims *d, const VI_X(vi_solver_opts) *solver, VI_REAL h,
                         VI_REAL t0, const VI_REAL *q0, const VI_REAL *p0,
                         VI_X(vi_node) *node0, VI_X(vi_stats) *stats, char *err,
                         size_t errlen) {
  gal_state *st = state;
  const galerkin_opts *o = opts_;
  const int n = sys->n, m = sys->m;
  int rc;
  memset(st, 0, sizeof *st); /* needs (mechanical, holonomic) checked at alloc */
  st->o = *o;
  st->sys = sys;
  st->n = n;
  st->m = m;
  st->s = o->s;
  st->r = o->r;
  st->lobatto = o->quadZ == VI_RULE_LOBATTO;
  st->z = st->lobatto ? o->w + 1 : o->w - 1;
  st->nlam = st->lobatto ? st->z - 1 : st->z;
  st->N = o->s * n + st->nlam * m;
  st->h = h;
  st->t0 = t0;
  st->k = 0;
  st->first = 1;
  size_t head = (sizeof *st + 15) / 16 * 16;
  gal_layout(st, (char *)state + head, n, m, st->s, st->z, st->N);
  /* Tables. */
  const int s = st->s;
  if ((rc = vi_kit_tables(o->ctrl, s, st->d, o->quadL, st->r, st->cL, st->bL, st->lL,
                                 st->dlL, o->quadZ, st->z, st->f, st->e, st->lZ, st->lX)) !=
      VI_OK) {
    return rc;
  }
  /* The unknown multipliers of the previous interval sit at f_0..f_{nlam-1};
   * extrapolate them to f_j + 1 (a constant for a single node). */
  for (int j = 0; j < st->nlam; j++) {
    VI_X(vi_lagrange_eval)(st->nlam, st->f, 1 + st->f[j], st->lamX + j * st->nlam, NULL);
  }
  if (!st->lobatto) {
    VI_X(vi_lagrange_eval)(st->nlam, st->f, 0, st->lam0, NULL);
  }
  if ((rc = VI_X(vi_solver_alloc)(solver, st->N, gal_resjac, st, &st->solver)) != VI_OK) {
    return rc;
  }
  /* The multipliers act on q through h^2 M^-1 G' Lambda (22), so their
   * round-off floor is that of q divided by h^2: give them that unit, or a
   * tight rtol cannot be met at small h. */
  for (int i = st->s * n; i < st->N; i++) {
    VI_X(vi_solver_set_unit)(st->solver, i, 1 / (h * h));
  }
  memcpy(st->q0, q0, (size_t)n * sizeof *q0);
  memcpy(st->pk, p0, (size_t)n * sizeof *p0);
  VI_REAL *lam0 = st->lam_node;
  if ((rc = VI_X(vi_system_lambda)(sys, q0, p0, lam0)) != VI_OK ||
      (rc = guess_start(st, lam0)) != VI_OK) {
    return rc;
  }
  if ((rc = solve_interval(st, stats, 0)) != VI_OK ||
      (rc = finish_interval(st)) != VI_OK ||
      (rc = emit_node(st, node0)) != VI_OK) {
    return rc;
  }
  advance(st);
  return VI_OK;
}

static int galerkin_step(void *state, VI_X(vi_node) *next,
                         VI_X(vi_stats) *stats) {
  gal_state *st = state;
  guess_extrapolate(st);
  int rc = solve_interval(st, stats, 1);
  if (rc == VI_OK) {
    rc = finish_interval(st);
  }
  if (rc == VI_OK) {
    rc = emit_node(st, next);
  }
  if (rc != VI_OK) {
    return rc;
  }
  advance(st);
  stats->steps++;
  stats->unknowns = st->N;
  return VI_OK;
}

/* Benchmark hooks: the next interval's system at its extrapolated guess
 * (guess_extrapolate depends only on the previous interval, so the step
 * that follows is unchanged). */
static int galerkin_assemble(void *state, VI_REAL *F, VI_REAL *J) {
  gal_state *st = state;
  guess_extrapolate(st);
  return gal_resjac(st, st->x, F, J);
}

static int galerkin_solve(void *state, VI_X(vi_stats) *stats) {
  gal_state *st = state;
  guess_extrapolate(st);
  return solve_interval(st, stats, 1);
}

static int galerkin_unknowns(const void *state) {
  return ((const gal_state *)state)->N;
}

static void galerkin_fini(void *state) {
  vi_kit_fini(&((gal_state *)state)->solver);
}

/* wenger2017 Tables 1-2 on the diagonal w = s with the Lobatto constraint
 * quadrature (z = s + 1, ordZ = 2s), a Lagrangian quadrature of order at
 * least 2s, the default Lobatto control points and no projection: q
 * reaches 2s, p 2 floor(s/2) + 2, lambda 2 floor((s+1)/2) (every such row
 * of both tables). Elsewhere the tables show parity effects that no rule
 * of the paper states: nothing is declared. */
static int galerkin_expected_order(const void *opts_, const VI_X(vi_system_type) *sys,
                                   int quantity) {
  (void)sys;
  const galerkin_opts *o = opts_;
  /* Every option keeps the symmetries of L and g that the quadratures
   * keep (rotations: any rule), so the discrete Noether theorem conserves
   * their momentum maps exactly (wenger2017 §3.4.2, Fig. 3); a projection
   * p <- P p along M^-1 G' leaves them too, the constraint forces of a
   * symmetric g carrying no momentum. */
  if (quantity == VI_MOMENTA) {
    return VI_ORDER_EXACT;
  }
  const int ordL = o->quadL == VI_RULE_GAUSS ? 2 * o->r : 2 * o->r - 2;
  if (o->w != o->s || o->quadZ != VI_RULE_LOBATTO || ordL < 2 * o->s ||
      o->ctrl != VI_CTRL_LOBATTO || o->project != 0 || o->lambda != 0) {
    return -1;
  }
  switch (quantity) {
  case VI_Q:
    return 2 * o->s;
  case VI_P:
    return 2 * (o->s / 2) + 2;
  case VI_LAMBDA:
    return 2 * ((o->s + 1) / 2);
  default:
    return -1;
  }
}

/* The declared diagonal (galerkin_expected_order): s = 1..5, Gauss r = s or
 * Lobatto r = s + 1. */
static const char *const galerkin_validation[] = {
    "galerkin:s=1,w=1,quadL=gauss,r=1",   "galerkin:s=1,w=1,quadL=lobatto,r=2",
    "galerkin:s=2,w=2,quadL=gauss,r=2",   "galerkin:s=2,w=2,quadL=lobatto,r=3",
    "galerkin:s=3,w=3,quadL=gauss,r=3",   "galerkin:s=3,w=3,quadL=lobatto,r=4",
    "galerkin:s=4,w=4,quadL=gauss,r=4",   "galerkin:s=4,w=4,quadL=lobatto,r=5",
    "galerkin:s=5,w=5,quadL=gauss,r=5",   "galerkin:s=5,w=5,quadL=lobatto,r=6",
    NULL};

static const char *const galerkin_examples[] = {"galerkin:s=1,w=1", "galerkin:s=2,w=2",
                                                "galerkin:s=2,w=2,quadL=lobatto,r=3", NULL};

const VI_X(vi_method_type) VI_X(vi_method_galerkin) = {
    .name = "galerkin",
    .quad_solver = VI_SOLVER_CHORD, /* docs/benchmarks.md: the fastest quad step */
    .summary = "constrained Galerkin variational integrator: q_d degree s, "
               "lambda_d degree w, separate quadratures for L and g.lambda",
    .cite = "wenger2017 (11)-(22), (4), (70)",
    .options = galerkin_options,
    .needs = VI_NEED_MECH | VI_NEED_HOLO,
    .lookahead = 1,
    .expected_order = galerkin_expected_order,
    .examples = galerkin_examples,
    .validation = galerkin_validation,
    .opts_size = sizeof(galerkin_opts),
    .check = galerkin_check,
    .state_size = galerkin_state_size,
    .init = galerkin_init,
    .step = galerkin_step,
    .fini = galerkin_fini,
    .assemble = galerkin_assemble,
    .solve = galerkin_solve,
    .unknowns = galerkin_unknowns,
};
