/* measure_tmpl.c: the measures of a node in the working precision
 * (measures.h): which a system and a stepper have, by name, their values
 * at a node, and the errors of a node against a reference node. One
 * vocabulary for run's columns, the figure traces, the sweeps and the
 * order studies. Compiled once per precision (prec.h). */
#include "prec.h"
#include "numerics_tmpl.h"
#include "api_tmpl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int embedded(const VI_X(vi_system) *sys) {
  return sys->type->space != NULL && sys->type->space->project != NULL;
}

/* Append measure (kind, index, reference, name) to out (cap entries) at
 * *k; the count grows whether or not there is room. */
static void put(vi_measure *out, int cap, int *k, int kind, int index, int ref,
                const char *name) {
  if (out && *k < cap) {
    out[*k].kind = kind;
    out[*k].index = index;
    out[*k].reference = ref;
    snprintf(out[*k].name, sizeof out[*k].name, "%s", name);
  }
  (*k)++;
}

static void put_block(vi_measure *out, int cap, int *k, int kind, int count, int ref,
                      const char *base) {
  for (int i = 0; i < count; i++) {
    char name[32];
    snprintf(name, sizeof name, "%s%d", base, i + 1);
    put(out, cap, k, kind, i, ref, name);
  }
}

int VI_X(vi_measures)(const VI_X(vi_system) *sys, const VI_X(vi_stepper) *st, vi_measure *out,
                      int cap) {
  const vi_system_info *info = sys->type->info;
  int k = 0;
  put(out, cap, &k, VI_MK_T, 0, VI_MR_FREE, "t");
  put_block(out, cap, &k, VI_MK_Q, sys->nq, VI_MR_FREE, "q");
  put_block(out, cap, &k, VI_MK_P, sys->n, VI_MR_FREE, "p");
  put_block(out, cap, &k, VI_MK_LAMBDA, sys->m, VI_MR_FREE, "lambda");
  put_block(out, cap, &k, VI_MK_MU, sys->m_nh, VI_MR_FREE, "mu");
  const int nx = st ? VI_X(vi_stepper_dims)(st)->n_extra : 0;
  for (int i = 0; i < nx; i++) {
    char name[32];
    VI_X(vi_stepper_extra_name)(st, i, name, sizeof name);
    put(out, cap, &k, VI_MK_EXTRA, i,
        VI_X(vi_stepper_extra_ref)(st) == VI_EXTRA_ZERO ? VI_MR_ZERO : VI_MR_FREE, name);
  }
  /* The method's own velocity (betsch-ggl's VI-S, VI-A, VI-B), and the
   * measures that read it. */
  const int nv = st ? VI_X(vi_stepper_dims)(st)->n_vel : 0;
  put_block(out, cap, &k, VI_MK_V, nv, VI_MR_FREE, "v");
  const int econ = VI_X(vi_type_energy_conserved)(sys->type);
  const int mech = sys->type->mech != NULL;
  put(out, cap, &k, VI_MK_ENERGY, 0, econ ? VI_MR_CONSTANT : VI_MR_FREE, "energy");
  /* The energy's two parts (betsch-ggl Fig 7: T, V and H = T + V). */
  if (mech) {
    put(out, cap, &k, VI_MK_KINETIC, 0, VI_MR_FREE, "kinetic");
    put(out, cap, &k, VI_MK_POTENTIAL, 0, VI_MR_FREE, "potential");
  }
  if (nv > 0) {
    put(out, cap, &k, VI_MK_ENERGY_V, 0, econ ? VI_MR_CONSTANT : VI_MR_FREE, "energy_v");
    put(out, cap, &k, VI_MK_KINETIC_V, 0, VI_MR_FREE, "kinetic_v");
  }
  if (sys->type->degen) {
    put(out, cap, &k, VI_MK_ALPHA_DEFECT, 0, VI_MR_ZERO, "alpha_defect");
  } else if (!sys->type->lie && sys->m > 0) {
    put(out, cap, &k, VI_MK_G_NORM, 0, VI_MR_ZERO, "g_norm");
    put(out, cap, &k, VI_MK_GV_NORM, 0, VI_MR_ZERO, "gv_norm");
    if (nv > 0) {
      put(out, cap, &k, VI_MK_GVV_NORM, 0, VI_MR_ZERO, "gvv_norm");
    }
  }
  if (sys->m_nh > 0) {
    put(out, cap, &k, VI_MK_PHI_NORM, 0, VI_MR_ZERO, "phi_norm");
  }
  if (embedded(sys)) {
    put(out, cap, &k, VI_MK_GROUP_DEFECT, 0, VI_MR_ZERO, "group_defect");
  }
  /* A momentum map is a first integral where the system marks it one
   * (a Noether quantity, or momenta_conserved: cvt's E_d, E_p); any other
   * (pendulum-3d's Jx and Jy, six-balls' antisymmetry quantities,
   * invariants of special data only) is followed as a value, never as a
   * change that should stay zero. */
  for (int i = 0; VI_X(vi_type_has_momenta)(sys->type) && i < info->n_momenta; i++) {
    put(out, cap, &k, VI_MK_MOMENTUM, i,
        (info->momenta_noether | info->momenta_conserved) & (1u << i) ? VI_MR_CONSTANT
                                                                      : VI_MR_FREE,
        info->momentum_names[i]);
  }
  return k;
}

int VI_X(vi_measure_find)(const VI_X(vi_system) *sys, const VI_X(vi_stepper) *st,
                          const char *name, vi_measure *m, char *err, size_t errlen) {
  vi_measure all[256];
  const int n = VI_X(vi_measures)(sys, st, all, 256);
  for (int i = 0; name && i < n && i < 256; i++) {
    if (strcmp(all[i].name, name) == 0) {
      *m = all[i];
      return VI_OK;
    }
  }
  /* The Newton iterations of a step: a measure of a run (its stepper). */
  if (st && name && strcmp(name, "newton_iters") == 0) {
    m->kind = VI_MK_NEWTON;
    m->index = 0;
    m->reference = VI_MR_FREE;
    snprintf(m->name, sizeof m->name, "%s", name);
    return VI_OK;
  }
  /* The measures of a method's own velocity, for a method without one
   * too (v = M^-1 p): a figure compares them across families. */
  if (name && sys->type->mech && (strcmp(name, "energy_v") == 0 ||
                                  strcmp(name, "kinetic_v") == 0 ||
                                  (sys->m > 0 && strcmp(name, "gvv_norm") == 0))) {
    m->kind = name[0] == 'e'   ? VI_MK_ENERGY_V
              : name[0] == 'k' ? VI_MK_KINETIC_V
                               : VI_MK_GVV_NORM;
    m->index = 0;
    m->reference = name[0] == 'g'                                   ? VI_MR_ZERO
                   : name[0] == 'k'                                 ? VI_MR_FREE
                   : VI_X(vi_type_energy_conserved)(sys->type) ? VI_MR_CONSTANT
                                                                   : VI_MR_FREE;
    snprintf(m->name, sizeof m->name, "%s", name);
    return VI_OK;
  }
  /* Each constraint on its own (betsch-ggl Fig 20: the top's internal
   * k = 1..6 and external k = 7..9 behave differently under VI-S): g<k>,
   * gv<k>, gvv<k> for k = 1..m, found by name only. They are no columns
   * of vi_measures (run's): 3m more columns would take the top's VI-S run
   * past the 64 a reader of run's rows (the betsch-ggl orders study)
   * keeps. gvv<k> with v = M^-1 p for a method without a velocity. */
  static const struct {
    const char *base;
    int kind;
  } per[] = {{"gvv", VI_MK_GVV}, {"gv", VI_MK_GV}, {"g", VI_MK_G}};
  for (size_t b = 0; name && sys->type->mech && sys->m > 0 && b < sizeof per / sizeof per[0];
       b++) {
    const size_t nb = strlen(per[b].base);
    if (strncmp(name, per[b].base, nb) != 0 || name[nb] < '1' || name[nb] > '9') {
      continue;
    }
    char *end = NULL;
    const long i = strtol(name + nb, &end, 10);
    if (*end == '\0' && i >= 1 && i <= sys->m) {
      m->kind = per[b].kind;
      m->index = (int)i - 1;
      m->reference = VI_MR_ZERO;
      snprintf(m->name, sizeof m->name, "%s", name);
      return VI_OK;
    }
  }
  /* A whole block by its name: its max norm. */
  char xname[32] = "";
  if (st && VI_X(vi_stepper_dims)(st)->n_extra > 0) {
    VI_X(vi_stepper_extra_name)(st, -1, xname, sizeof xname);
  }
  const struct {
    const char *name;
    int kind, count, ref;
  } blocks[] = {
      {"q", VI_MK_Q, sys->nq, VI_MR_FREE},
      {"p", VI_MK_P, sys->n, VI_MR_FREE},
      {"lambda", VI_MK_LAMBDA, sys->m, VI_MR_FREE},
      {"mu", VI_MK_MU, sys->m_nh, VI_MR_FREE},
      {"v", VI_MK_V, st ? VI_X(vi_stepper_dims)(st)->n_vel : 0, VI_MR_FREE},
      {xname, VI_MK_EXTRA, st ? VI_X(vi_stepper_dims)(st)->n_extra : 0,
       st && VI_X(vi_stepper_extra_ref)(st) == VI_EXTRA_ZERO ? VI_MR_ZERO : VI_MR_FREE},
  };
  for (size_t b = 0; name && b < sizeof blocks / sizeof blocks[0]; b++) {
    if (blocks[b].count > 0 && blocks[b].name[0] && strcmp(blocks[b].name, name) == 0) {
      m->kind = blocks[b].kind;
      m->index = -1;
      m->reference = blocks[b].ref;
      snprintf(m->name, sizeof m->name, "%s", name);
      return VI_OK;
    }
  }
  int k = snprintf(err, errlen, "%s has no measure '%s'; valid: ", sys->type->info->name,
                   name ? name : "");
  for (int i = 0; i < n && i < 256 && k > 0 && (size_t)k < errlen; i++) {
    if (all[i].kind >= VI_MK_EXTRA && all[i].kind != VI_MK_V) {
      k += snprintf(err + k, errlen - (size_t)k, "%s%s", i ? ", " : "", all[i].name);
    }
  }
  for (size_t b = 0; b < sizeof blocks / sizeof blocks[0] && k > 0 && (size_t)k < errlen; b++) {
    if (blocks[b].count > 0 && blocks[b].name[0]) {
      k += snprintf(err + k, errlen - (size_t)k, ", %s (max norm of the block)",
                    blocks[b].name);
    }
  }
  if (st && k > 0 && (size_t)k < errlen) {
    k += snprintf(err + k, errlen - (size_t)k, ", newton_iters (of each step, in a trace)");
  }
  if (sys->type->mech && sys->m > 0 && k > 0 && (size_t)k < errlen) {
    k += snprintf(err + k, errlen - (size_t)k, ", g1..g%d, gv1..gv%d, gvv1..gvv%d (each "
                  "constraint)", sys->m, sys->m, sys->m);
  }
  if (sys->type->mech && (!st || VI_X(vi_stepper_dims)(st)->n_vel == 0) && k > 0 &&
      (size_t)k < errlen) {
    snprintf(err + k, errlen - (size_t)k, ", energy_v, kinetic_v%s (v = M^-1 p)",
             sys->m > 0 ? ", gvv_norm" : "");
  }
  return VI_EINVAL;
}

/* The scratch of vi_measure_eval: one residual vector or configuration,
 * or G (m x n) or M (n x n) and a vector of n; then the momentum maps. */
static size_t mom_offset(const VI_X(vi_system) *sys) {
  const size_t a = (size_t)(sys->nq > sys->ml ? sys->nq : sys->ml);
  const size_t b = (size_t)sys->m * (size_t)sys->n + (size_t)sys->n;
  const size_t c = (size_t)sys->n * (size_t)sys->n + (size_t)sys->n;
  return (a > b ? a : b) > c ? (a > b ? a : b) + 1 : c + 1;
}

/* Then g, G M^-1 p and G v (m each), evaluated once for all their
 * per-constraint columns. */
static size_t con_offset(const VI_X(vi_system) *sys) {
  return mom_offset(sys) + (size_t)sys->type->info->n_momenta + 1;
}

size_t VI_X(vi_measure_work)(const VI_X(vi_system) *sys) {
  return con_offset(sys) + 3 * (size_t)sys->m;
}

/* The max norm of a block (NaN sticks). */
static VI_REAL block_norm(int n, const VI_REAL *x) {
  VI_REAL e = 0;
  for (int i = 0; i < n; i++) {
    VI_REAL d = vi_fabs(x[i]);
    e = d > e || d != d ? d : e;
  }
  return e;
}

/* A node's own value (t, q, p, the multipliers, the extra block). */
static VI_REAL node_value(const VI_X(vi_system) *sys, const vi_measure *m,
                          const VI_X(vi_node) *nd, int n_extra) {
  switch (m->kind) {
  case VI_MK_T:
    return nd->t;
  case VI_MK_Q:
    return m->index < 0 ? block_norm(sys->nq, nd->q) : nd->q[m->index];
  case VI_MK_P:
    return m->index < 0 ? block_norm(sys->n, nd->p) : nd->p[m->index];
  case VI_MK_LAMBDA:
    return m->index < 0 ? block_norm(sys->m, nd->lambda) : nd->lambda[m->index];
  case VI_MK_MU:
    return m->index < 0 ? block_norm(sys->m_nh, nd->lambda + sys->m)
                        : nd->lambda[sys->m + m->index];
  case VI_MK_V:
    return nd->v == NULL ? (VI_REAL)NAN
           : m->index < 0 ? block_norm(sys->n, nd->v)
                          : nd->v[m->index];
  default: /* VI_MK_EXTRA */
    return m->index < 0 ? block_norm(n_extra, nd->extra) : nd->extra[m->index];
  }
}

/* The node's velocity into v (n): its own, or M^-1 p. */
static int node_velocity(const VI_X(vi_system) *sys, const VI_X(vi_node) *nd, VI_REAL *v) {
  if (nd->v != NULL) {
    memcpy(v, nd->v, (size_t)sys->n * sizeof *v);
    return VI_OK;
  }
  return VI_X(vi_system_minv_apply)(sys, nd->q, nd->p, v);
}

/* G(q) v (betsch-ggl (79e), (83)) with the node's velocity into gv (m);
 * work holds G and v. */
static int gvv_vec(const VI_X(vi_system) *sys, const VI_X(vi_node) *nd, VI_REAL *work,
                   VI_REAL *gv) {
  const int n = sys->n, m = sys->m;
  VI_REAL *G = work, *v = G + (size_t)m * n;
  int rc = node_velocity(sys, nd, v);
  if (rc == VI_OK) {
    rc = vi_callback_status(sys->type->holo->constraint_jac(sys->state, nd->q, G));
  }
  for (int k = 0; rc == VI_OK && k < m; k++) {
    VI_REAL s = 0;
    for (int j = 0; j < n; j++) {
      s += G[k * n + j] * v[j];
    }
    gv[k] = s;
  }
  return rc;
}

/* The kinetic energy of betsch-ggl Fig 7: 1/2 p'M(q)^-1 p from the
 * momenta (own_v 0: kinetic, so that energy = kinetic + potential), or
 * 1/2 v'M(q) v from the method's own velocity (own_v 1: kinetic_v, metis's
 * T, with v = M^-1 p for a method without one). */
static int kinetic_of(const VI_X(vi_system) *sys, const VI_X(vi_node) *nd, int own_v,
                      VI_REAL *work, VI_REAL *out) {
  const int n = sys->n;
  VI_REAL *v = work, *Mw = v + n;
  if (!own_v) {
    int rc = VI_X(vi_system_minv_apply)(sys, nd->q, nd->p, v);
    VI_REAL s = 0;
    for (int i = 0; rc == VI_OK && i < n; i++) {
      s += nd->p[i] * v[i];
    }
    *out = s / 2;
    return rc;
  }
  int rc = node_velocity(sys, nd, v);
  const VI_REAL *M = NULL;
  if (rc == VI_OK) {
    rc = VI_X(vi_system_mass_at)(sys, nd->q, Mw, &M);
  }
  VI_REAL vMv = 0;
  for (int i = 0; rc == VI_OK && i < n; i++) {
    VI_REAL Mvi = 0;
    for (int j = 0; j < n; j++) {
      Mvi += M[i * n + j] * v[j];
    }
    vMv += v[i] * Mvi;
  }
  *out = vMv / 2;
  return rc;
}

/* E = p.v - 1/2 v'Mv + V(q) (betsch-ggl (89); metis's post-processing)
 * with the node's velocity. */
static int energy_v(const VI_X(vi_system) *sys, const VI_X(vi_node) *nd, VI_REAL *work,
                    VI_REAL *out) {
  const int n = sys->n;
  VI_REAL *v = work, *Mw = v + n;
  VI_REAL V = 0;
  const VI_REAL *M = NULL;
  int rc = node_velocity(sys, nd, v);
  if (rc == VI_OK) {
    rc = vi_callback_status(sys->type->mech->potential(sys->state, nd->q, &V));
  }
  if (rc == VI_OK) {
    rc = VI_X(vi_system_mass_at)(sys, nd->q, Mw, &M);
  }
  VI_REAL pv = 0, vMv = 0;
  for (int i = 0; rc == VI_OK && i < n; i++) {
    VI_REAL Mvi = 0;
    for (int j = 0; j < n; j++) {
      Mvi += M[i * n + j] * v[j];
    }
    pv += nd->p[i] * v[i];
    vMv += v[i] * Mvi;
  }
  *out = pv - vMv / 2 + V;
  return rc;
}

/* The distance of a group element in an embedding from its group (a copy
 * is projected). A point that project refuses (e.g. det R <= 0) is a
 * result to show, not a failure: its distance, or NaN. */
static int group_defect(const VI_X(vi_system) *sys, const VI_REAL *q, VI_REAL *work,
                        VI_REAL *gdef) {
  memcpy(work, q, (size_t)sys->nq * sizeof *work);
  *gdef = (VI_REAL)NAN;
  int prc = sys->type->space->project(sys->state, work, gdef);
  *gdef = prc > 0 && !(*gdef > 0) ? (VI_REAL)NAN : *gdef;
  return prc > 0 ? VI_OK : vi_callback_status(prc);
}

int VI_X(vi_measure_eval)(const VI_X(vi_system) *sys, const vi_measure *m, int nm,
                          const VI_X(vi_node) *nd, int n_extra, VI_REAL *work, VI_REAL *out) {
  /* The momentum maps are evaluated once for all their columns, and so
   * are the constraint vectors of the per-constraint columns. */
  int have_mom = 0, have[3] = {0, 0, 0};
  VI_REAL *mom = work + mom_offset(sys);
  VI_REAL *con = work + con_offset(sys); /* g, G M^-1 p, G v */
  for (int i = 0; i < nm; i++) {
    int rc = VI_OK;
    VI_REAL v = 0;
    switch (m[i].kind) {
    case VI_MK_ENERGY:
      rc = VI_X(vi_system_energy)(sys, nd->q, nd->p, &v);
      break;
    case VI_MK_ALPHA_DEFECT:
      rc = VI_X(vi_system_defect)(sys, nd->q, nd->p, &v);
      break;
    case VI_MK_G_NORM:
      rc = vi_callback_status(sys->type->holo->constraint(sys->state, nd->q, work));
      v = VI_X(vi_norm_inf)(sys->m, work);
      break;
    case VI_MK_GV_NORM:
      rc = VI_X(vi_system_hidden)(sys, nd->q, nd->p, work);
      v = VI_X(vi_norm_inf)(sys->m, work);
      break;
    case VI_MK_GVV_NORM:
      if (!have[2]) {
        rc = gvv_vec(sys, nd, work, con + 2 * (size_t)sys->m);
        have[2] = rc == VI_OK;
      }
      v = VI_X(vi_norm_inf)(sys->m, con + 2 * (size_t)sys->m);
      break;
    case VI_MK_ENERGY_V:
      rc = energy_v(sys, nd, work, &v);
      break;
    case VI_MK_KINETIC:
    case VI_MK_KINETIC_V:
      rc = kinetic_of(sys, nd, m[i].kind == VI_MK_KINETIC_V, work, &v);
      break;
    case VI_MK_POTENTIAL:
      rc = vi_callback_status(sys->type->mech->potential(sys->state, nd->q, &v));
      break;
    case VI_MK_G:
    case VI_MK_GV:
    case VI_MK_GVV: {
      const int c = m[i].kind - VI_MK_G;
      VI_REAL *x = con + (size_t)c * sys->m;
      if (!have[c]) {
        rc = c == 0   ? vi_callback_status(sys->type->holo->constraint(sys->state, nd->q, x))
             : c == 1 ? VI_X(vi_system_hidden)(sys, nd->q, nd->p, x)
                      : gvv_vec(sys, nd, work, x);
        have[c] = rc == VI_OK;
      }
      v = x[m[i].index];
      break;
    }
    case VI_MK_PHI_NORM:
      rc = VI_X(vi_system_nh_residual)(sys, nd->q, nd->p, work);
      v = VI_X(vi_norm_inf)(sys->m_nh, work);
      break;
    case VI_MK_GROUP_DEFECT:
      rc = group_defect(sys, nd->q, work, &v);
      break;
    case VI_MK_NEWTON:
      v = (VI_REAL)NAN; /* the run's, not the node's: filled by a trace */
      break;
    case VI_MK_MOMENTUM:
      if (!have_mom) {
        rc = vi_callback_status(sys->type->obs->momenta(sys->state, nd->q, nd->p, mom));
        have_mom = rc == VI_OK;
      }
      v = mom[m[i].index];
      break;
    default:
      v = node_value(sys, &m[i], nd, n_extra);
      break;
    }
    if (rc != VI_OK) {
      return rc;
    }
    out[i] = v;
  }
  return VI_OK;
}

void VI_X(vi_node_errors)(const vi_dims *d, const VI_X(vi_node) *nd,
                          const VI_X(vi_node) *ref, unsigned blocks, VI_REAL e[VI_NQUANT]) {
  const VI_REAL *val[VI_NQUANT] = {nd->q, nd->p, nd->lambda};
  const VI_REAL *rv[VI_NQUANT] = {ref->q, ref->p, ref->lambda};
  const int len[VI_NQUANT] = {blocks & VI_ERR_Q ? d->nq : 0, blocks & VI_ERR_P ? d->n : 0,
                              blocks & VI_ERR_LAMBDA ? d->ml : 0};
  for (int x = 0; x < VI_NQUANT; x++) {
    for (int c = 0; c < len[x]; c++) {
      VI_REAL dd = vi_fabs(val[x][c] - rv[x][c]);
      if (e[x] == e[x] && !(dd <= e[x])) {
        e[x] = dd; /* a NaN difference makes e NaN, and a NaN e stays */
      }
    }
  }
}
