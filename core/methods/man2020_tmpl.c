/* man2020_tmpl.c: the Galerkin variational integrators for holonomic constraints
 * of man2020 (Man, Gao, Zhong 2020), method family "man2020", with its
 * eight named algorithms ELL, EGL, ELG, EGG, LLL, LGL, LLG, LGG (Table 2).
 *
 * On each interval [t_k, t_k + h] (the paper's eta), q and lambda are both
 * polynomials of degree n = m - 1 on the same m control points d_0 = 0 <
 * ... < d_n = 1, equidistant (E) or Lobatto (L) (man2020 (20)-(21)). The
 * action (22)-(23) splits into the unconstrained term, integrated by an
 * m-point Gauss (G) or Lobatto (L) rule (nodes c_i, weights b_i), and the
 * constrained term g(q).lambda, integrated by its own m-point rule (nodes
 * f_j, weights e_j): algorithm XYZ = control points X, rule Y for the
 * unconstrained and Z for the constrained term.
 *
 * One step solves, for the unknowns q^1..q^n, lambda^0..lambda^n and the
 * end momentum p^n ((n+1)(d+c) in all, (32)), the equations
 *   R_i = [i=0] p^0 - [i=n] p^n + h sum_j b_j (N_i(c_j)(-grad V(Q_j))
 *         + N_i'(c_j)/h M Qdot_j) - h sum_j e_j N_i(f_j) G(Z_j)' Lambda_j
 *       = 0,  i = 0..n                                           (26), (35)
 *   g(q^i) = 0, i = 1..n    (constraints at the control points)  (30)
 *   G(q^n) M^-1 p^n = 0     (velocity constraint at the step end)  (31)
 * (with a configuration-dependent mass: L_q = dT/dq - grad V and L_v =
 * M(Q_j) Qdot_j at the nodes, M = M(q^n) in (31); vi_system_lagr)
 * with Q_j, Qdot_j = q, qdot at c_j h, Z_j = q(f_j h), Lambda_j =
 * lambda(f_j h); its Jacobian is (36)-(45). lambda is not continuous across
 * steps: each interval has its own lambda^0..lambda^n. Reported at node
 * k+1: q^n, p^n (which satisfies the hidden constraint by (31)) and
 * lambda^n of the interval just solved; node 0 reports lambda from
 * wenger2017 (70).
 *
 * Compiled once per precision (prec.h). */
#include "methods/kit_tmpl.h"
#include "methods/man2020.h"

#define MAN_MAX 16 /* m limit (quadrature tables) */

typedef vi_man2020_opts man_opts;


/* man2020 Table 2: the eight algorithms as names for three keys: control
 * points (E equidistant, L Lobatto), then the rule of the unconstrained and
 * of the constrained term (G Gauss, L Lobatto). */
static const vi_opt_preset man_algs[] = {
    {"ELL", "ctrl=equidistant,quadU=lobatto,quadC=lobatto", NULL},
    {"EGL", "ctrl=equidistant,quadU=gauss,quadC=lobatto", NULL},
    {"ELG", "ctrl=equidistant,quadU=lobatto,quadC=gauss", NULL},
    {"EGG", "ctrl=equidistant,quadU=gauss,quadC=gauss", NULL},
    {"LLL", "ctrl=lobatto,quadU=lobatto,quadC=lobatto", NULL},
    {"LGL", "ctrl=lobatto,quadU=gauss,quadC=lobatto", NULL},
    {"LLG", "ctrl=lobatto,quadU=lobatto,quadC=gauss", NULL},
    {"LGG", "ctrl=lobatto,quadU=gauss,quadC=gauss", NULL},
    {NULL, NULL, NULL}};

#define MOPT(f) offsetof(man_opts, f)
static const vi_opt man_options[] = {
    {"alg", VI_OPT_PRESET, VI_OPT_NOFIELD, 0, 0, NULL, NULL, man_algs, 0, VI_PRESET_IN_SPEC,
     NULL, "LGG",
     "man2020 Table 2: control points (E equidistant, L Lobatto), then the rule of "
     "the unconstrained and of the constrained term (G Gauss, L Lobatto)"},
    {"m", VI_OPT_INT, MOPT(m), 2, MAN_MAX, NULL, NULL, NULL, 3, 0, NULL, NULL,
     "points per step: q and lambda of degree m-1, m-point rules"},
    {"ctrl", VI_OPT_CHOICE, MOPT(ctrl), 0, 0, vi_kit_ctrl_names, vi_kit_ctrl_values, NULL,
     VI_CTRL_LOBATTO, 0, NULL, "from alg", "control points (overrides alg)"},
    {"quadU", VI_OPT_CHOICE, MOPT(quadU), 0, 0, vi_kit_rule_names, vi_kit_rule_values, NULL,
     VI_RULE_GAUSS, 0, NULL, "from alg", "rule of the unconstrained term (overrides alg)"},
    {"quadC", VI_OPT_CHOICE, MOPT(quadC), 0, 0, vi_kit_rule_names, vi_kit_rule_values, NULL,
     VI_RULE_GAUSS, 0, NULL, "from alg", "rule of the constrained term (overrides alg)"},
    {NULL, 0, 0, 0, 0, NULL, NULL, NULL, 0, 0, NULL, NULL, NULL}};
#undef MOPT

/* ---- state -------------------------------------------------------------- */

typedef struct man_state {
  man_opts o;
  const VI_X(vi_system) *sys;
  VI_X(vi_solver) *solver;
  int n, m, deg, N;
  int loff, poff; /* offsets of lambda^0 and p^n in the unknowns */
  int have_prev;
  VI_REAL h, t0;
  long k;
  /* Control points; unconstrained rule c_i, b_i with N_k(c_i), N_k'(c_i);
   * constrained rule f_j, e_j with N_k(f_j); extrapolation N_k(1 + d_i)
   * and N_k'(2) for the next guess. */
  VI_REAL d[MAN_MAX], c[MAN_MAX], b[MAN_MAX], f[MAN_MAX], e[MAN_MAX];
  VI_REAL lU[MAN_MAX * MAN_MAX], dlU[MAN_MAX * MAN_MAX], lC[MAN_MAX * MAN_MAX];
  VI_REAL lX[MAN_MAX * MAN_MAX], dlX[MAN_MAX];
  /* Step data and work arrays (carved from the stepper block). */
  VI_REAL *q0, *p0, *x, *xprev, *qprev0;
  vi_kit_work w; /* a quadrature node of the Lagrangian integral */
  VI_REAL *g, *G, *HG, *L, *v;
  /* Configuration-dependent mass only: M(q^n)^-1 and G M(q^n)^-1. */
  VI_REAL *Minvq, *GMi;
} man_state;

static size_t man_layout(man_state *st, char *base, int n, int m, int N) {
  man_state dummy;
  man_state *t = st ? st : &dummy;
  size_t off = 0;
  const size_t nn = (size_t)n * (size_t)n;
  t->q0 = vi_carve(base, &off, (size_t)n);
  t->p0 = vi_carve(base, &off, (size_t)n);
  t->x = vi_carve(base, &off, (size_t)N);
  t->xprev = vi_carve(base, &off, (size_t)N);
  t->qprev0 = vi_carve(base, &off, (size_t)n);
  vi_kit_work_carve(&t->w, base, &off, n);
  t->g = vi_carve(base, &off, (size_t)m);
  t->G = vi_carve(base, &off, (size_t)m * n);
  t->HG = vi_carve(base, &off, nn);
  t->L = vi_carve(base, &off, (size_t)m);
  t->v = vi_carve(base, &off, (size_t)n);
  t->Minvq = vi_carve(base, &off, nn);
  t->GMi = vi_carve(base, &off, (size_t)m * n);
  return off;
}

static int man_unknowns_of(const man_opts *o, int n, int m) {
  return (o->m - 1) * n + o->m * m + n;
}

static size_t man_state_size(const void *opts_, const vi_dims *d) {
  const man_opts *o = opts_;
  size_t head = (sizeof(man_state) + 15) / 16 * 16;
  return head + man_layout(NULL, NULL, d->n, d->m, man_unknowns_of(o, d->n, d->m));
}

/* q (and qdot when dl) at a node from the basis values l, dl (kit). */
static void man_eval(const man_state *st, const VI_REAL *x, const VI_REAL *l,
                     const VI_REAL *dl, VI_REAL *Q, VI_REAL *V) {
  vi_kit_eval(st->n, st->deg, st->q0, x, l, dl, st->h, Q, V);
}

/* Residual and Jacobian of one step (file comment; man2020 (35)-(45)).
 * Rows: R_0..R_n (n blocks of d), g(q^1..q^n), the velocity constraint.
 * Columns: q^1..q^n, lambda^0..lambda^n, p^n. */
static int man_resjac(void *ctx, const VI_REAL *x, VI_REAL *F, VI_REAL *J) {
  man_state *st = ctx;
  const VI_X(vi_system) *sys = st->sys;
  const VI_X(vi_system_type) *ty = sys->type;
  const int n = st->n, m = st->m, deg = st->deg, N = st->N;
  const int loff = st->loff, poff = st->poff;
  const VI_REAL h = st->h;
  const VI_REAL *pn = x + poff;
  int rc;
  if (F) {
    memset(F, 0, (size_t)N * sizeof *F);
    for (int a = 0; a < n; a++) {
      F[a] = st->p0[a];
      F[deg * n + a] = -pn[a];
    }
  }
  if (J) {
    memset(J, 0, (size_t)N * N * sizeof *J);
    for (int a = 0; a < n; a++) {
      J[(size_t)(deg * n + a) * N + poff + a] = -1; /* (39) */
    }
  }
  /* Unconstrained term: h sum_j b_j L(Q_j, Qdot_j), (35)-(36). */
  for (int j = 0; j < st->o.m; j++) {
    if ((rc = vi_kit_lagr_node(sys, &st->w, deg, deg + 1, st->q0, x,
                                     st->lU + j * (deg + 1), st->dlU + j * (deg + 1), h,
                                     h * st->b[j], F, J, N)) != VI_OK) {
      return rc;
    }
  }
  /* Constrained term: h sum_j e_j g(Z_j) . Lambda_j, its derivative in
   * every R_i, (38) and the lambda-weighted Hessian of (37). */
  for (int j = 0; j < st->o.m; j++) {
    const VI_REAL *l = st->lC + j * (deg + 1);
    man_eval(st, x, l, NULL, st->w.Q, NULL);
    for (int k = 0; k < m; k++) {
      VI_REAL acc = 0;
      for (int mu = 0; mu <= deg; mu++) {
        acc += l[mu] * x[loff + mu * m + k];
      }
      st->L[k] = acc;
    }
    if ((rc = vi_callback_status(ty->holo->constraint_jac(sys->state, st->w.Q, st->G))) != 0) {
      return rc;
    }
    const VI_REAL he = h * st->e[j];
    if (F) {
      for (int a = 0; a < n; a++) {
        VI_REAL gl = 0;
        for (int k = 0; k < m; k++) {
          gl += st->G[k * n + a] * st->L[k];
        }
        for (int i = 0; i <= deg; i++) {
          F[i * n + a] -= he * l[i] * gl;
        }
      }
    }
    if (J) {
      if ((rc = vi_callback_status(ty->holo->constraint_hess(sys->state, st->w.Q, st->L, st->HG))) != 0) {
        return rc;
      }
      for (int i = 0; i <= deg; i++) {
        if (l[i] == 0) {
          continue;
        }
        for (int a = 0; a < n; a++) {
          VI_REAL *row = J + (size_t)(i * n + a) * N;
          for (int mu = 1; mu <= deg; mu++) {
            const VI_REAL k2 = he * l[i] * l[mu];
            for (int c = 0; c < n; c++) {
              row[(mu - 1) * n + c] -= k2 * st->HG[a * n + c];
            }
          }
          for (int mu = 0; mu <= deg; mu++) {
            const VI_REAL k3 = he * l[i] * l[mu];
            for (int k = 0; k < m; k++) {
              row[loff + mu * m + k] -= k3 * st->G[k * n + a];
            }
          }
        }
      }
    }
  }
  /* Constraints at the control points (30) and their Jacobian (40). */
  const int crow = (deg + 1) * n;
  for (int mu = 1; mu <= deg; mu++) {
    const VI_REAL *qm = x + (size_t)(mu - 1) * n;
    if (F) {
      if ((rc = vi_callback_status(ty->holo->constraint(sys->state, qm, st->g))) != 0) {
        return rc;
      }
      for (int k = 0; k < m; k++) {
        F[crow + (mu - 1) * m + k] = st->g[k];
      }
    }
    if (J) {
      if ((rc = vi_callback_status(ty->holo->constraint_jac(sys->state, qm, st->G))) != 0) {
        return rc;
      }
      for (int k = 0; k < m; k++) {
        VI_REAL *row = J + (size_t)(crow + (mu - 1) * m + k) * N + (mu - 1) * n;
        for (int c = 0; c < n; c++) {
          row[c] = st->G[k * n + c];
        }
      }
    }
  }
  /* Velocity constraint at the step end (31): G(q^n) v, v = M^-1 p^n;
   * Jacobian (43) d/dq^n = (Hess g_k v)', (45) d/dp^n = G M^-1. With M(q)
   * (M = M(q^n)), d/dq^n also has d(M^-1 p)/dq = -M^-1 D_q(M v). */
  const int vrow = crow + deg * m;
  const VI_REAL *qn = x + (size_t)(deg - 1) * n;
  const int cm = !VI_X(vi_system_mass_constant)(sys);
  const VI_REAL *Minv = NULL;
  if ((rc = VI_X(vi_system_minv_at)(sys, qn, st->Minvq, &Minv)) != VI_OK) {
    return rc;
  }
  for (int a = 0; a < n; a++) {
    VI_REAL acc = 0;
    for (int c = 0; c < n; c++) {
      acc += Minv[a * n + c] * pn[c];
    }
    st->v[a] = acc;
  }
  if ((rc = vi_callback_status(ty->holo->constraint_jac(sys->state, qn, st->G))) != 0) {
    return rc;
  }
  /* (43): D_q(G(q^n) v) into HG (m x n <= n x n). */
  if (J && (rc = VI_X(vi_system_dGv)(sys, qn, st->v, st->HG)) != VI_OK) {
    return rc;
  }
  if (J && cm) {
    /* GMi = G M^-1, and Dq = D_q(M v) at (q^n, v) for the extra term. */
    for (int k = 0; k < m; k++) {
      for (int c = 0; c < n; c++) {
        VI_REAL acc = 0;
        for (int a = 0; a < n; a++) {
          acc += st->G[k * n + a] * Minv[a * n + c];
        }
        st->GMi[k * n + c] = acc;
      }
    }
    if ((rc = VI_X(vi_system_kinetic)(sys, qn, st->v, st->w.kw, st->w.Dq, NULL)) != VI_OK) {
      return rc;
    }
  }
  for (int k = 0; k < m; k++) {
    if (F) {
      VI_REAL acc = 0;
      for (int a = 0; a < n; a++) {
        acc += st->G[k * n + a] * st->v[a];
      }
      F[vrow + k] = acc;
    }
    if (J) {
      VI_REAL *row = J + (size_t)(vrow + k) * N;
      for (int c = 0; c < n; c++) {
        VI_REAL acc = 0;
        for (int a = 0; a < n; a++) {
          acc += st->G[k * n + a] * Minv[a * n + c];
        }
        row[poff + c] = acc;
      }
      for (int c = 0; c < n; c++) {
        VI_REAL acc = st->HG[k * n + c];
        if (cm) {
          for (int a = 0; a < n; a++) {
            acc -= st->GMi[k * n + a] * st->w.Dq[a * n + c];
          }
        }
        row[(deg - 1) * n + c] = acc;
      }
    }
  }
  return VI_OK;
}

/* First guess: q^mu = q0 + t v0 + t^2/2 a0 at t = d_mu h with a0 from the
 * index-1 form, lambda^mu = lambda(q0, p0) of wenger2017 (70), p^n =
 * M (v0 + h a0). */
static int man_guess_start(man_state *st, const VI_REAL *lam0) {
  const int n = st->n, m = st->m, deg = st->deg;
  const VI_X(vi_system) *sys = st->sys;
  VI_REAL *v = st->w.V, *a = st->w.MV;
  int rc = VI_X(vi_system_accel)(sys, st->q0, st->p0, lam0, v, a);
  if (rc != VI_OK) {
    return rc;
  }
  vi_kit_taylor(n, deg, st->d, st->h, st->q0, v, a, st->x);
  for (int mu = 0; mu <= deg; mu++) {
    memcpy(st->x + st->loff + mu * m, lam0, (size_t)m * sizeof *lam0);
  }
  /* M at the guessed q^n (a guess only: M(q0) would do as well). */
  const VI_REAL *M = NULL;
  if ((rc = VI_X(vi_system_mass_at)(sys, st->x + (size_t)(deg - 1) * n, st->w.Mq, &M)) !=
      VI_OK) {
    return rc;
  }
  for (int i = 0; i < n; i++) {
    VI_REAL acc = 0;
    for (int c = 0; c < n; c++) {
      acc += M[i * n + c] * (v[c] + st->h * a[c]);
    }
    st->x[st->poff + i] = acc;
  }
  return VI_OK;
}

/* Later guesses: extrapolate the previous interval's polynomials of q and
 * lambda one interval ahead, and p^n = M qdot at its end. */
static void man_guess_extrapolate(man_state *st) {
  const int n = st->n, m = st->m, deg = st->deg;
  const VI_REAL *xp = st->xprev;
  vi_kit_extrapolate(n, deg, st->lX, st->qprev0, xp, st->x);
  for (int mu = 0; mu <= deg; mu++) {
    const VI_REAL *l = st->lX + mu * (deg + 1);
    for (int k = 0; k < m; k++) {
      VI_REAL acc = 0;
      for (int nu = 0; nu <= deg; nu++) {
        acc += l[nu] * xp[st->loff + nu * m + k];
      }
      st->x[st->loff + mu * m + k] = acc;
    }
  }
  for (int a = 0; a < n; a++) {
    VI_REAL acc = st->dlX[0] * st->qprev0[a];
    for (int nu = 1; nu <= deg; nu++) {
      acc += st->dlX[nu] * xp[(size_t)(nu - 1) * n + a];
    }
    st->w.V[a] = acc / st->h;
  }
  /* M at the extrapolated q^n; a failing mass callback leaves M(q0): this
   * is only the starting guess. */
  const VI_REAL *M = NULL;
  if (VI_X(vi_system_mass_at)(st->sys, st->x + (size_t)(deg - 1) * n, st->w.Mq, &M) != VI_OK) {
    VI_X(vi_system_mass)(st->sys, st->sys->q0, st->w.Mq);
    M = st->w.Mq;
  }
  for (int a = 0; a < n; a++) {
    VI_REAL acc = 0;
    for (int c = 0; c < n; c++) {
      acc += M[a * n + c] * st->w.V[c];
    }
    st->x[st->poff + a] = acc;
  }
}

/* Retry of a failed solve: the Taylor guess with the last node multiplier. */
static int man_restart(void *ctx) {
  man_state *st = ctx;
  memcpy(st->L, st->xprev + st->loff + st->deg * st->m, (size_t)st->m * sizeof *st->L);
  return man_guess_start(st, st->L);
}

static int man_solve(man_state *st, VI_X(vi_stats) *stats) {
  return vi_kit_solve(st->solver, st->x, st->have_prev, man_restart, st, stats);
}

static int man_init(void *state, const void *opts_, const VI_X(vi_system) *sys,
                    const vi_dims *d, const VI_X(vi_solver_opts) *solver, VI_REAL h,
                    VI_REAL t0, const VI_REAL *q0, const VI_REAL *p0,
                    VI_X(vi_node) *node0, VI_X(vi_stats) *stats, char *err, size_t errlen) {
  man_state *st = state;
  const man_opts *o = opts_;
  const int n = sys->n, m = sys->m;
  int rc;
  memset(st, 0, sizeof *st); /* needs (mechanical, holonomic) checked at alloc */
  st->o = *o;
  st->sys = sys;
  st->n = n;
  st->m = m;
  st->deg = o->m - 1;
  st->N = man_unknowns_of(o, n, m);
  st->loff = st->deg * n;
  st->poff = st->loff + o->m * m;
  st->h = h;
  st->t0 = t0;
  size_t head = (sizeof *st + 15) / 16 * 16;
  man_layout(st, (char *)state + head, n, m, st->N);
  const int deg = st->deg;
  if ((rc = vi_kit_tables(o->ctrl, deg, st->d, o->quadU, o->m, st->c, st->b, st->lU,
                                 st->dlU, o->quadC, o->m, st->f, st->e, st->lC, st->lX)) !=
      VI_OK) {
    return rc;
  }
  VI_REAL scratch[MAN_MAX];
  VI_X(vi_lagrange_eval)(deg + 1, st->d, VI_C(2.0), scratch, st->dlX);
  if ((rc = VI_X(vi_solver_alloc)(solver, st->N, man_resjac, st, &st->solver)) != VI_OK) {
    return rc;
  }
  /* Multipliers act on the momentum balance through h G' Lambda: their
   * round-off floor is that of p divided by h. */
  for (int i = st->loff; i < st->poff; i++) {
    VI_X(vi_solver_set_unit)(st->solver, i, 1 / h);
  }
  memcpy(st->q0, q0, (size_t)n * sizeof *q0);
  memcpy(st->p0, p0, (size_t)n * sizeof *p0);
  node0->t = t0;
  memcpy(node0->q, q0, (size_t)n * sizeof *q0);
  memcpy(node0->p, p0, (size_t)n * sizeof *p0);
  if ((rc = VI_X(vi_system_lambda)(sys, q0, p0, node0->lambda)) != VI_OK) {
    return rc;
  }
  return man_guess_start(st, node0->lambda);
}

/* Prepare the next step's guess (the current x is the initial guess after
 * init; afterwards the extrapolation of the previous step). */
static void man_prepare(man_state *st) {
  if (st->have_prev) {
    man_guess_extrapolate(st);
  }
}

static int man_step(void *state, VI_X(vi_node) *next, VI_X(vi_stats) *stats) {
  man_state *st = state;
  const int n = st->n, m = st->m, deg = st->deg;
  man_prepare(st);
  int rc = man_solve(st, stats);
  if (rc != VI_OK) {
    return rc;
  }
  st->k++;
  next->t = st->t0 + (VI_REAL)st->k * st->h;
  memcpy(next->q, st->x + (size_t)(deg - 1) * n, (size_t)n * sizeof *next->q);
  memcpy(next->p, st->x + st->poff, (size_t)n * sizeof *next->p);
  memcpy(next->lambda, st->x + st->loff + deg * m, (size_t)m * sizeof *next->lambda);
  memcpy(st->xprev, st->x, (size_t)st->N * sizeof *st->x);
  memcpy(st->qprev0, st->q0, (size_t)n * sizeof *st->q0);
  memcpy(st->q0, next->q, (size_t)n * sizeof *st->q0);
  memcpy(st->p0, next->p, (size_t)n * sizeof *st->p0);
  st->have_prev = 1;
  stats->steps++;
  stats->unknowns = st->N;
  return VI_OK;
}

/* Benchmark hooks: the next step's system at its initial guess. */
static int man_assemble(void *state, VI_REAL *F, VI_REAL *J) {
  man_state *st = state;
  man_prepare(st);
  return man_resjac(st, st->x, F, J);
}

static int man_solve_only(void *state, VI_X(vi_stats) *stats) {
  man_state *st = state;
  man_prepare(st);
  int rc = man_solve(st, stats);
  if (!st->have_prev) {
    /* The first step starts from the Taylor guess, which the solve has
     * overwritten: rebuild it so the trajectory is unchanged. */
    if (VI_X(vi_system_lambda)(st->sys, st->q0, st->p0, st->L) == VI_OK) {
      man_guess_start(st, st->L);
    }
  }
  return rc;
}

static int man_unknowns(const void *state) {
  return ((const man_state *)state)->N;
}

static void man_fini(void *state) {
  vi_kit_fini(&((man_state *)state)->solver);
}

/* man2020 Tables 1 and 3: the order of the relative energy error is
 * 2m - 2 on Lobatto control points and 2 ceil(m/2) on equidistant ones,
 * whatever the quadratures. The paper states no order of q, p, lambda. */
static int man_expected_order(const void *opts_, const VI_X(vi_system_type) *sys,
                              int quantity) {
  (void)sys;
  const man_opts *o = opts_;
  /* A variational integrator of a rotation-invariant L and g: the discrete
   * Noether theorem conserves the angular momentum exactly (man2020 (60),
   * Fig. 9). */
  if (quantity == VI_MOMENTA) {
    return VI_ORDER_EXACT;
  }
  if (quantity != VI_ENERGY) {
    return -1;
  }
  return o->ctrl == VI_CTRL_LOBATTO ? 2 * o->m - 2 : 2 * ((o->m + 1) / 2);
}

/* Every algorithm of Table 2 with m = 2..7 (man_expected_order: the energy). */
#define MAN_VAL(a) "man2020:alg=" a ",m=2", "man2020:alg=" a ",m=3", "man2020:alg=" a ",m=4", \
                   "man2020:alg=" a ",m=5", "man2020:alg=" a ",m=6", "man2020:alg=" a ",m=7"
static const char *const man_validation[] = {MAN_VAL("ELL"), MAN_VAL("EGL"), MAN_VAL("ELG"),
                                             MAN_VAL("EGG"), MAN_VAL("LLL"), MAN_VAL("LGL"),
                                             MAN_VAL("LLG"), MAN_VAL("LGG"), NULL};
#undef MAN_VAL

static const char *const man_examples[] = {"man2020:alg=LGG,m=2", "man2020:alg=LLL,m=3",
                                           "man2020:alg=EGG,m=3", NULL};

const VI_X(vi_method_type) VI_X(vi_method_man2020) = {
    .name = "man2020",
    .quad_solver = VI_SOLVER_CHORD, /* docs/benchmarks.md: the fastest quad step */
    .summary = "Galerkin VI of man2020: q and lambda of degree m-1 on the same control "
               "points, constraints at the control points and the velocity constraint at "
               "the step end; algorithms ELL..LGG",
    .cite = "man2020 (20)-(45), Table 2",
    .options = man_options,
    .needs = VI_NEED_MECH | VI_NEED_HOLO,
    .lookahead = 0,
    .expected_order = man_expected_order,
    .examples = man_examples,
    .validation = man_validation,
    .opts_size = sizeof(man_opts),
    .state_size = man_state_size,
    .init = man_init,
    .step = man_step,
    .fini = man_fini,
    .assemble = man_assemble,
    .solve = man_solve_only,
    .unknowns = man_unknowns,
};
