/* galerkin.c: the constrained Galerkin variational integrators of
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
#include "prec.h"
#include "numerics_tmpl.h"
#include "api_tmpl.h"
#include "methods/kit_tmpl.h"
#include "spec.h"

#include <stdio.h>
#include <string.h>

#define GAL_MAX 16 /* s, r, z limits (VI_TAB_MAX-sized stack tables) */

enum { PROJ_NONE = 0, PROJ_P = 1 };
enum { LAM_NODE = 0, LAM_RECOMPUTE = 1 };

typedef vi_galerkin_opts galerkin_opts;

static const char *const rule_names[] = {"gauss", "lobatto", NULL};
static const char *const ctrl_names[] = {"equidistant", "lobatto", NULL};
static const char *const proj_names[] = {"none", "p", NULL};
static const char *const lam_names[] = {"node", "recompute", NULL};

static const vi_key_doc galerkin_keys[] = {
    {"s", "1..12", "2", "degree of q_d (11); s+1 control points"},
    {"w", "1..s (quadZ=lobatto), 2..s+1 (quadZ=gauss)", "s",
     "degree of lambda_d (12); Theorem 1 condition 2"},
    {"quadL", "gauss|lobatto", "gauss", "quadrature of the Lagrangian integral (19)"},
    {"r", "s..16 (at least 2 for lobatto)", "s (gauss), s+1 (lobatto)",
     "nodes of the Lagrangian quadrature; ordL = 2r (gauss), 2r-2 (lobatto)"},
    {"quadZ", "lobatto|gauss", "lobatto",
     "quadrature of the constraint integral: lobatto z = w+1 (20), ordZ = 2w, "
     "stiffly accurate; gauss z = w-1 (24), not stiffly accurate"},
    {"ctrl", "lobatto|equidistant", "lobatto", "control points d_j of q_d"},
    {"project", "none|p", "none", "report P p, projection (4) onto the hidden constraint"},
    {"lambda", "node|recompute", "node",
     "report lambda_k^0, or lambda from (70) at (q_k, P p_k)"},
    {"scheme", "shake|rattle|lobatto3ab", "none",
     "a named scheme: its keys are set (giving one of them too is refused); "
     "shake = s=1,w=1,quadL=lobatto,r=2; rattle = shake with project=p; "
     "lobatto3ab = w=s-1,quadL=lobatto,r=s (the constrained s-stage Lobatto IIIA-IIIB)"},
    {NULL, NULL, NULL, NULL}};

/* Named schemes as data (PETSc's type vs scheme): the keys each one sets,
 * and whether w and r follow s (lobatto3ab: w = s - 1, r = s). The special
 * cases are verified in tests/test_galerkin.c: s = w = 1 with Lobatto r = 2
 * is SHAKE (wenger2017 §2.2, (10)), its projected momenta RATTLE's; w = s - 1
 * with Lobatto r = s the constrained s-stage Lobatto IIIA-IIIB method. */
typedef struct galerkin_scheme {
  const char *name;
  const char *keys;  /* the keys it sets, as a spec fragment */
  int w_r_follow_s;  /* w = s - 1, r = s */
  const char *sets;  /* the keys the user may not give beside it */
} galerkin_scheme;

static const galerkin_scheme galerkin_schemes[] = {
    {"shake", "s=1,w=1,quadL=lobatto,r=2", 0, "s w quadL r"},
    {"rattle", "s=1,w=1,quadL=lobatto,r=2,project=p", 0, "s w quadL r project"},
    {"lobatto3ab", "quadL=lobatto", 1, "w quadL r"},
    {NULL, NULL, 0, NULL}};

/* Map a choice index of rule_names to vi_rule. */
static int rule_of(int i) { return i == 0 ? VI_RULE_GAUSS : VI_RULE_LOBATTO; }

static int VI_X(galerkin_check)(void *opts_, char *err, size_t errlen);

static int VI_X(galerkin_parse)(void *opts_, const char *kv, char *err,
                                size_t errlen) {
  galerkin_opts *o = opts_;
  memset(o, 0, sizeof *o);
  o->s = 2;
  o->quadL = VI_RULE_GAUSS;
  o->quadZ = VI_RULE_LOBATTO;
  o->ctrl = VI_CTRL_LOBATTO;
  char key[32], val[64];
  int rc, choice;
  /* A named scheme first: its keys become the values, and giving one of
   * them as well is refused (no silent precedence). */
  const galerkin_scheme *sch = NULL;
  for (const char *c0 = kv; (rc = vi_kv_next(&c0, key, sizeof key, val, sizeof val, err,
                                             errlen)) > 0;) {
    if (strcmp(key, "scheme") != 0) {
      continue;
    }
    for (const galerkin_scheme *g = galerkin_schemes; g->name; g++) {
      sch = strcmp(g->name, val) == 0 ? g : sch;
    }
    if (!sch) {
      snprintf(err, errlen,
               "invalid value '%s' for key 'scheme' of method galerkin; valid: shake, rattle, "
               "lobatto3ab",
               val);
      return VI_EINVAL;
    }
  }
  if (rc < 0) {
    return VI_EINVAL;
  }
  const char *parts[2] = {sch ? sch->keys : "", kv};
  for (int part = 0; part < 2; part++) {
    const char *cur = parts[part];
    while ((rc = vi_kv_next(&cur, key, sizeof key, val, sizeof val, err, errlen)) > 0) {
      if (strcmp(key, "scheme") == 0) {
        continue;
      }
      if (part == 1 && sch) {
        char pad[48];
        snprintf(pad, sizeof pad, " %s ", key);
        char sets[64];
        snprintf(sets, sizeof sets, " %s ", sch->sets);
        if (strstr(sets, pad)) {
          snprintf(err, errlen,
                   "key '%s' is set by scheme=%s (%s%s); give either the scheme or the key",
                   key, sch->name, sch->keys, sch->w_r_follow_s ? ", w=s-1, r=s" : "");
          return VI_EINVAL;
        }
      }
      if (strcmp(key, "s") == 0) {
        if (vi_parse_int(key, val, 1, 12, &o->s, err, errlen)) {
          return VI_EINVAL;
        }
      } else if (strcmp(key, "w") == 0) {
        if (vi_parse_int(key, val, 1, 13, &o->w, err, errlen)) {
          return VI_EINVAL;
        }
      } else if (strcmp(key, "r") == 0) {
        if (vi_parse_int(key, val, 1, GAL_MAX, &o->r, err, errlen)) {
          return VI_EINVAL;
        }
      } else if (strcmp(key, "quadL") == 0 || strcmp(key, "quadZ") == 0) {
        if (vi_parse_choice(key, val, rule_names, &choice, err, errlen)) {
          return VI_EINVAL;
        }
        *(key[4] == 'L' ? &o->quadL : &o->quadZ) = rule_of(choice);
      } else if (strcmp(key, "ctrl") == 0) {
        if (vi_parse_choice(key, val, ctrl_names, &choice, err, errlen)) {
          return VI_EINVAL;
        }
        o->ctrl = choice == 0 ? VI_CTRL_EQUIDISTANT : VI_CTRL_LOBATTO;
      } else if (strcmp(key, "project") == 0) {
        if (vi_parse_choice(key, val, proj_names, &o->project, err, errlen)) {
          return VI_EINVAL;
        }
      } else if (strcmp(key, "lambda") == 0) {
        if (vi_parse_choice(key, val, lam_names, &o->lambda, err, errlen)) {
          return VI_EINVAL;
        }
      } else {
        snprintf(err, errlen,
                 "unknown key '%s' for method galerkin; valid: s, w, quadL, r, "
                 "quadZ, ctrl, project, lambda, scheme",
                 key);
        return VI_EINVAL;
      }
    }
    if (rc < 0) {
      return VI_EINVAL;
    }
  }
  if (sch && sch->w_r_follow_s) {
    if (o->s < 2) {
      snprintf(err, errlen, "scheme=%s needs s >= 2 (w = s-1 >= 1)", sch->name);
      return VI_EINVAL;
    }
    o->w = o->s - 1;
    o->r = o->s;
  }
  return VI_X(galerkin_check)(o, err, errlen);
}

/* Defaults of w and r, then what wenger2017 rules out (shared by the spec
 * parser and the typed constructor, which also checks the ranges). */
static int VI_X(galerkin_check)(void *opts_, char *err, size_t errlen) {
  galerkin_opts *o = opts_;
  if (o->s < 1 || o->s > 12 || o->w < 0 || o->w > 13 || o->r < 0 || o->r > GAL_MAX ||
      (o->quadL != VI_RULE_GAUSS && o->quadL != VI_RULE_LOBATTO) ||
      (o->quadZ != VI_RULE_GAUSS && o->quadZ != VI_RULE_LOBATTO) ||
      (o->ctrl != VI_CTRL_LOBATTO && o->ctrl != VI_CTRL_EQUIDISTANT) || o->project < 0 ||
      o->project > 1 || o->lambda < 0 || o->lambda > 1) {
    snprintf(err, errlen,
             "galerkin options out of range: s in 1..12, w in 0..13 (0: s), r in 0..%d "
             "(0: the default), quadL and quadZ gauss or lobatto, ctrl lobatto or "
             "equidistant, project and lambda 0 or 1",
             GAL_MAX);
    return VI_EINVAL;
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

static void VI_X(galerkin_format)(const void *opts_, char *buf, size_t len) {
  const galerkin_opts *o = opts_;
  snprintf(buf, len, "galerkin:s=%d,w=%d,quadL=%s,r=%d,quadZ=%s,ctrl=%s,project=%s,lambda=%s",
           o->s, o->w, o->quadL == VI_RULE_GAUSS ? "gauss" : "lobatto", o->r,
           o->quadZ == VI_RULE_GAUSS ? "gauss" : "lobatto",
           o->ctrl == VI_CTRL_LOBATTO ? "lobatto" : "equidistant",
           proj_names[o->project], lam_names[o->lambda]);
}

/* ---- state -------------------------------------------------------------- */

typedef struct VI_X(gal_state) {
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
  VI_REAL *Q, *V, *MV, *dV, *HV, *g, *G, *HG;
  VI_REAL *Mq, *Dq, *kw; /* M(Q), D_q(M V), vi_system_lagr work (M(q)) */
  VI_REAL *Zg;  /* G(Z_j), z blocks of m x n, kept for the momentum update */
  VI_REAL *Zq;  /* Z_j, z blocks of n */
} VI_X(gal_state);

/* Lay out the work arrays after the struct (st NULL only measures). */
static size_t VI_X(gal_layout)(VI_X(gal_state) *st, char *base, int n, int m,
                               int s, int z, int N) {
  VI_X(gal_state) dummy;
  VI_X(gal_state) *t = st ? st : &dummy;
  size_t off = 0;
  t->q0 = VI_X(vi_carve)(base, &off, (size_t)n);
  t->pk = VI_X(vi_carve)(base, &off, (size_t)n);
  t->x = VI_X(vi_carve)(base, &off, (size_t)N);
  t->xprev = VI_X(vi_carve)(base, &off, (size_t)N + (size_t)n);
  t->ptil = VI_X(vi_carve)(base, &off, (size_t)n);
  t->lam_node = VI_X(vi_carve)(base, &off, (size_t)m);
  t->pnode = VI_X(vi_carve)(base, &off, (size_t)n);
  t->Q = VI_X(vi_carve)(base, &off, (size_t)n);
  t->V = VI_X(vi_carve)(base, &off, (size_t)n);
  t->MV = VI_X(vi_carve)(base, &off, (size_t)n);
  t->dV = VI_X(vi_carve)(base, &off, (size_t)n);
  t->HV = VI_X(vi_carve)(base, &off, (size_t)n * n);
  t->g = VI_X(vi_carve)(base, &off, (size_t)m);
  t->G = VI_X(vi_carve)(base, &off, (size_t)m * n);
  t->HG = VI_X(vi_carve)(base, &off, (size_t)n * n);
  t->Mq = VI_X(vi_carve)(base, &off, (size_t)n * n);
  t->Dq = VI_X(vi_carve)(base, &off, (size_t)n * n);
  t->kw = VI_X(vi_carve)(base, &off, (size_t)n * n + n);
  t->Zg = VI_X(vi_carve)(base, &off, (size_t)z * m * n);
  t->Zq = VI_X(vi_carve)(base, &off, (size_t)z * n);
  (void)s;
  return off;
}

static size_t VI_X(galerkin_state_size)(const void *opts_, int n, int m) {
  const galerkin_opts *o = opts_;
  int lob = o->quadZ == VI_RULE_LOBATTO;
  int z = lob ? o->w + 1 : o->w - 1;
  int N = o->s * n + (lob ? o->w : o->w - 1) * m;
  size_t head = (sizeof(VI_X(gal_state)) + 15) / 16 * 16;
  return head + VI_X(gal_layout)(NULL, NULL, n, m, o->s, z, N);
}

/* Unknown vector layout: q^1..q^s (s blocks of n), then Lambda_j for the
 * nlam unknown multiplier nodes (blocks of m). */
static VI_REAL *VI_X(qblock)(VI_X(gal_state) *st, VI_REAL *x, int mu) {
  return mu == 0 ? st->q0 : x + (size_t)(mu - 1) * st->n;
}

/* Index of the first unknown multiplier node j, and the weight factor c_j
 * of Lambda_j in the q equations (2 for the shared node of continuous
 * lambda after the first interval, wenger2017 (21)-(22)). */
static VI_REAL VI_X(cfac)(const VI_X(gal_state) *st, int j) {
  return (st->lobatto && j == 0 && !st->first) ? VI_C(2.0) : VI_C(1.0);
}

/* q_d and qdot_d at a node from the tables l (values) and dl (derivatives,
 * may be NULL): Q = sum_mu l_mu q^mu, V = (1/h) sum_mu dl_mu q^mu. */
static void VI_X(eval_qd)(VI_X(gal_state) *st, const VI_REAL *x,
                          const VI_REAL *l, const VI_REAL *dl, VI_REAL *Q,
                          VI_REAL *V) {
  const int n = st->n;
  for (int a = 0; a < n; a++) {
    Q[a] = 0;
    if (V) {
      V[a] = 0;
    }
  }
  for (int mu = 0; mu <= st->s; mu++) {
    const VI_REAL *qm = VI_X(qblock)(st, (VI_REAL *)x, mu);
    for (int a = 0; a < n; a++) {
      Q[a] += l[mu] * qm[a];
      if (V) {
        V[a] += dl[mu] * qm[a];
      }
    }
  }
  if (V) {
    for (int a = 0; a < n; a++) {
      V[a] /= st->h;
    }
  }
}

/* The Lagrangian's derivatives at a quadrature node (Q, V) into dV =
 * -L_q, MV = L_v and, with jac, HV = -L_qq, Mq = L_vv, Dq = L_vq (the last
 * two only for a configuration-dependent mass; see vi_system_lagr). */
static int VI_X(node_lagr)(VI_X(gal_state) *st, int jac) {
  return VI_X(vi_system_lagr)(st->sys, st->Q, st->V, st->dV, st->MV,
                              jac ? st->HV : NULL, st->Mq, st->Dq, st->kw);
}

/* Residual and Jacobian of one interval (see the file comment). */
static int VI_X(gal_resjac)(void *ctx, const VI_REAL *x, VI_REAL *F,
                            VI_REAL *J) {
  VI_X(gal_state) *st = ctx;
  const VI_X(vi_system) *sys = st->sys;
  const VI_X(vi_system_type) *ty = sys->type;
  const int n = st->n, m = st->m, s = st->s, N = st->N;
  const VI_REAL h = st->h;
  const VI_REAL *M = sys->M;
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
    const VI_REAL *l = st->lL + i * (s + 1), *dl = st->dlL + i * (s + 1);
    VI_X(eval_qd)(st, x, l, dl, st->Q, st->V);
    if ((rc = VI_X(node_lagr)(st, J != NULL)) != VI_OK) {
      return rc;
    }
    const VI_REAL hb = h * st->bL[i];
    if (F) {
      for (int nu = 0; nu < s; nu++) {
        VI_REAL *Fn = F + nu * n;
        for (int a = 0; a < n; a++) {
          Fn[a] += hb * (-l[nu] * st->dV[a] + dl[nu] / h * st->MV[a]);
        }
      }
    }
    if (J) {
      /* d/dq^mu of hb (l_nu L_q + dl_nu/h L_v), dQ/dq^mu = l_mu,
       * dV/dq^mu = dl_mu/h; M(q) adds the mixed L_qv, L_vq blocks. */
      const VI_REAL *Lvv = sys->config_mass ? st->Mq : M;
      const VI_REAL *Dq = sys->config_mass ? st->Dq : NULL;
      for (int nu = 0; nu < s; nu++) {
        for (int mu = 1; mu <= s; mu++) {
          VI_X(vi_lagr_block)(J + (size_t)(nu * n) * N + (mu - 1) * n, N, n,
                              -hb * l[nu] * l[mu], hb * dl[nu] * dl[mu] / (h * h),
                              hb * l[nu] * dl[mu] / h, hb * dl[nu] * l[mu] / h,
                              st->HV, Lvv, Dq);
        }
      }
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
    VI_X(eval_qd)(st, x, lz, NULL, Z, NULL);
    if ((rc = vi_callback_status(ty->holo->constraint_jac(sys->state, Z, GZ))) != 0) {
      return rc;
    }
    if (unknown) {
      const VI_REAL *Lj = x + lam_off + (size_t)j * m;
      const VI_REAL he = h * st->e[j] * VI_X(cfac)(st, j);
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
static int VI_X(guess_start)(VI_X(gal_state) *st, const VI_REAL *lam0) {
  const int n = st->n, m = st->m;
  VI_REAL *v = st->V, *a = st->MV;
  int rc = VI_X(vi_system_accel)(st->sys, st->q0, st->pk, lam0, v, a);
  if (rc != VI_OK) {
    return rc;
  }
  for (int mu = 1; mu <= st->s; mu++) {
    VI_REAL t = st->d[mu] * st->h;
    VI_REAL *qm = st->x + (size_t)(mu - 1) * n;
    for (int i = 0; i < n; i++) {
      qm[i] = st->q0[i] + t * v[i] + t * t / 2 * a[i];
    }
  }
  for (int j = 0; j < st->nlam; j++) {
    memcpy(st->x + st->s * n + (size_t)j * m, lam0, (size_t)m * sizeof *lam0);
  }
  return VI_OK;
}

/* Guess for a later interval: extrapolate the previous interval's q_d and
 * the polynomial through its unknown multipliers. xprev holds the previous
 * unknowns followed by its q^0. */
static void VI_X(guess_extrapolate)(VI_X(gal_state) *st) {
  const int n = st->n, m = st->m, s = st->s;
  const VI_REAL *xp = st->xprev, *qp0 = st->xprev + st->N;
  for (int mu = 1; mu <= s; mu++) {
    VI_REAL *qm = st->x + (size_t)(mu - 1) * n;
    const VI_REAL *l = st->lX + mu * (s + 1);
    for (int i = 0; i < n; i++) {
      VI_REAL acc = l[0] * qp0[i];
      for (int nu = 1; nu <= s; nu++) {
        acc += l[nu] * xp[(size_t)(nu - 1) * n + i];
      }
      qm[i] = acc;
    }
  }
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

/* Solve the current interval from the prepared guess; on a recoverable
 * failure of an extrapolated guess retry once from the Taylor guess. */
static int VI_X(solve_interval)(VI_X(gal_state) *st, VI_X(vi_stats) *stats,
                                int extrapolated) {
  long it = 0, fe = 0, je = 0;
  int rc = VI_X(vi_solve)(st->solver, st->x, &it, &fe, &je);
  if (rc > 0 && extrapolated) {
    VI_REAL *lam_guess = st->lam_node; /* last node multiplier */
    int g = VI_X(guess_start)(st, lam_guess);
    if (g != 0) {
      return g;
    }
    rc = VI_X(vi_solve)(st->solver, st->x, &it, &fe, &je);
  }
  VI_X(vi_stats_add_solve)(stats, it, fe, je);
  return rc;
}

/* After solving: node multiplier and momentum at t_k, the partial momentum
 * carried to t_{k+1}, and the next interval's q^0. */
static int VI_X(finish_interval)(VI_X(gal_state) *st) {
  const int n = st->n, m = st->m, s = st->s;
  const VI_REAL h = st->h;
  const VI_REAL *lam = st->x + s * n;
  const VI_X(vi_system) *sys = st->sys;
  int rc;
  /* G(Z_j) at the converged unknowns (the solver's last evaluation was at
   * the iterate before its final update). */
  for (int j = 0; j < st->nlam; j++) {
    VI_REAL *Z = st->Zq + (size_t)j * n;
    VI_X(eval_qd)(st, st->x, st->lZ + j * (s + 1), NULL, Z, NULL);
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
    VI_X(eval_qd)(st, st->x, l, dl, st->Q, st->V);
    if ((rc = VI_X(node_lagr)(st, 0)) != VI_OK) {
      return rc;
    }
    const VI_REAL hb = h * st->bL[i];
    for (int a = 0; a < n; a++) {
      st->ptil[a] += hb * (l[s] * (-st->dV[a]) + dl[s] / h * st->MV[a]);
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
static int VI_X(emit_node)(VI_X(gal_state) *st, VI_X(vi_node) *node) {
  const int n = st->n, m = st->m;
  node->t = st->t0 + (VI_REAL)st->k * st->h;
  memcpy(node->q, st->q0, (size_t)n * sizeof *node->q);
  memcpy(node->p, st->pnode, (size_t)n * sizeof *node->p);
  memcpy(node->lambda, st->lam_node, (size_t)m * sizeof *node->lambda);
  int rc = VI_OK;
  if (st->o.project == PROJ_P || st->o.lambda == LAM_RECOMPUTE) {
    VI_REAL *pp = st->V;
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
static void VI_X(advance)(VI_X(gal_state) *st) {
  const int n = st->n;
  memcpy(st->xprev, st->x, (size_t)st->N * sizeof *st->x);
  memcpy(st->xprev + st->N, st->q0, (size_t)n * sizeof *st->q0);
  memcpy(st->q0, st->x + (size_t)(st->s - 1) * n, (size_t)n * sizeof *st->q0);
  memcpy(st->pk, st->ptil, (size_t)n * sizeof *st->pk);
  st->k++;
  st->first = 0;
}

static int VI_X(galerkin_init)(void *state, const void *opts_,
                               const VI_X(vi_system) *sys,
                               const VI_X(vi_solver_opts) *solver, VI_REAL h,
                               VI_REAL t0, const VI_REAL *q0,
                               const VI_REAL *p0, VI_X(vi_node) *node0,
                               VI_X(vi_stats) *stats) {
  VI_X(gal_state) *st = state;
  const galerkin_opts *o = opts_;
  const int n = sys->n, m = sys->m;
  int rc;
  if (sys->type->mech == NULL || sys->type->holo == NULL || m < 1) {
    return VI_EUNSUPPORTED;
  }
  memset(st, 0, sizeof *st);
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
  VI_X(gal_layout)(st, (char *)state + head, n, m, st->s, st->z, st->N);
  /* Tables. */
  const int s = st->s;
  if ((rc = VI_X(vi_ctrl_points)(o->ctrl, s, st->d)) != VI_OK ||
      (rc = VI_X(vi_quad_rule)(o->quadL, st->r, st->cL, st->bL)) != VI_OK ||
      (rc = VI_X(vi_quad_rule)(o->quadZ, st->z, st->f, st->e)) != VI_OK) {
    return rc;
  }
  for (int i = 0; i < st->r; i++) {
    VI_X(vi_lagrange_eval)(s + 1, st->d, st->cL[i], st->lL + i * (s + 1),
                           st->dlL + i * (s + 1));
  }
  for (int j = 0; j < st->z; j++) {
    VI_X(vi_lagrange_eval)(s + 1, st->d, st->f[j], st->lZ + j * (s + 1), NULL);
  }
  for (int mu = 0; mu <= s; mu++) {
    VI_X(vi_lagrange_eval)(s + 1, st->d, 1 + st->d[mu], st->lX + mu * (s + 1), NULL);
  }
  /* The unknown multipliers of the previous interval sit at f_0..f_{nlam-1};
   * extrapolate them to f_j + 1 (a constant for a single node). */
  for (int j = 0; j < st->nlam; j++) {
    VI_X(vi_lagrange_eval)(st->nlam, st->f, 1 + st->f[j], st->lamX + j * st->nlam, NULL);
  }
  if (!st->lobatto) {
    VI_X(vi_lagrange_eval)(st->nlam, st->f, 0, st->lam0, NULL);
  }
  if ((rc = VI_X(vi_solver_alloc)(solver, st->N, VI_X(gal_resjac), st, &st->solver)) != VI_OK) {
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
      (rc = VI_X(guess_start)(st, lam0)) != VI_OK) {
    return rc;
  }
  if ((rc = VI_X(solve_interval)(st, stats, 0)) != VI_OK ||
      (rc = VI_X(finish_interval)(st)) != VI_OK ||
      (rc = VI_X(emit_node)(st, node0)) != VI_OK) {
    return rc;
  }
  VI_X(advance)(st);
  return VI_OK;
}

static int VI_X(galerkin_step)(void *state, VI_X(vi_node) *next,
                               VI_X(vi_stats) *stats) {
  VI_X(gal_state) *st = state;
  VI_X(guess_extrapolate)(st);
  int rc = VI_X(solve_interval)(st, stats, 1);
  if (rc == VI_OK) {
    rc = VI_X(finish_interval)(st);
  }
  if (rc == VI_OK) {
    rc = VI_X(emit_node)(st, next);
  }
  if (rc != VI_OK) {
    return rc;
  }
  VI_X(advance)(st);
  stats->steps++;
  stats->unknowns = st->N;
  return VI_OK;
}

/* Benchmark hooks: the next interval's system at its extrapolated guess
 * (guess_extrapolate depends only on the previous interval, so the step
 * that follows is unchanged). */
static int VI_X(galerkin_assemble)(void *state, VI_REAL *F, VI_REAL *J) {
  VI_X(gal_state) *st = state;
  VI_X(guess_extrapolate)(st);
  return VI_X(gal_resjac)(st, st->x, F, J);
}

static int VI_X(galerkin_solve)(void *state, VI_X(vi_stats) *stats) {
  VI_X(gal_state) *st = state;
  VI_X(guess_extrapolate)(st);
  return VI_X(solve_interval)(st, stats, 1);
}

static int VI_X(galerkin_unknowns)(const void *state) {
  return ((const VI_X(gal_state) *)state)->N;
}

static void VI_X(galerkin_fini)(void *state) {
  VI_X(gal_state) *st = state;
  VI_X(vi_solver_free)(st->solver);
  st->solver = NULL;
}

/* wenger2017 Tables 1-2 on the diagonal w = s with the Lobatto constraint
 * quadrature (z = s + 1, ordZ = 2s), a Lagrangian quadrature of order at
 * least 2s, the default Lobatto control points and no projection: q
 * reaches 2s, p 2 floor(s/2) + 2, lambda 2 floor((s+1)/2) (every such row
 * of both tables). Elsewhere the tables show parity effects that no rule
 * of the paper states: nothing is declared. */
static int galerkin_expected_order(const void *opts_, int quantity) {
  const galerkin_opts *o = opts_;
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

static const char *const galerkin_examples[] = {"galerkin:s=1,w=1", "galerkin:s=2,w=2",
                                                "galerkin:s=2,w=2,quadL=lobatto,r=3", NULL};

const VI_X(vi_method_type) VI_X(vi_method_galerkin) = {
    .name = "galerkin",
    .summary = "constrained Galerkin variational integrator: q_d degree s, "
               "lambda_d degree w, separate quadratures for L and g.lambda",
    .cite = "wenger2017 (11)-(22), (4), (70)",
    .keys = galerkin_keys,
    .needs = VI_NEED_MECH | VI_NEED_HOLO,
    .lookahead = 1,
    .expected_order = galerkin_expected_order,
    .examples = galerkin_examples,
    .opts_size = sizeof(galerkin_opts),
    .parse = VI_X(galerkin_parse),
    .check = VI_X(galerkin_check),
    .format = VI_X(galerkin_format),
    .state_size = VI_X(galerkin_state_size),
    .init = VI_X(galerkin_init),
    .step = VI_X(galerkin_step),
    .fini = VI_X(galerkin_fini),
    .assemble = VI_X(galerkin_assemble),
    .solve = VI_X(galerkin_solve),
    .unknowns = VI_X(galerkin_unknowns),
};
