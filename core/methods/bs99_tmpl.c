/* bs99_tmpl.c: the Bobenko-Suris discrete Lagrange top (BS99; betsch-ggl
 * §6.2 compares it, its App. A.8 with the scheme is lost: the form is the
 * one of the authors' code, reading notes §1.6), method family "bs99". It
 * integrates a heavy symmetric top about a fixed point in its own
 * variables, the symmetry axis d3 and the spatial angular momentum about
 * the fixed point J, with I1' the moment about the point perpendicular to
 * the axis and c the torque constant (m gravity l):
 *
 *   J^{n+1} = J^n + h c e3 x d3^n                                (explicit)
 *   d3^{n+1} - d3^n = (h / I1') J^{n+1} x (d3^n + d3^{n+1}) / 2
 *
 * The second equation is linear in d3^{n+1}: d3^{n+1} = cay(h w) d3^n with
 * w = J^{n+1} / I1' and the Cayley map cay(a) = (I - a^/2)^-1 (I + a^/2), a
 * rotation, so |d3| = 1 stays exact and no Newton is needed. e3.J is
 * conserved exactly (the torque is horizontal), and so is J.d3 (the
 * rotation is about J^{n+1}, the torque is normal to d3^n). First order.
 *
 * The nodes are in the system's own coordinates (vi_top_ops: the director
 * top gyro-top), which need the whole attitude R = [d1 d2 d3], not d3
 * alone. BS99 says nothing about d1 and d2; here they are carried along by
 * the same rotation and the body's spin about its axis: the symmetric
 * top's angular velocity is J / I1' + s d3 with s = (1/I3 - 1/I1') J.d3
 * constant, and its exact flow factors as R(t) = Phi(t) R0 exp(s t e3^)
 * with Phi' = (J / I1')^ Phi, so
 *
 *   R^{n+1} = cay(h w) R^n exp(h s e3^)
 *
 * takes BS99's Cayley step for Phi and the exact body factor, which turns
 * the body about its own axis and leaves d3 = R e3 as BS99 has it (a
 * Cayley body factor would add a second-order spin error, large for a
 * fast top, of the reconstruction's own). So the paper's quantities (phi3 = l d3_3 (113), p_phi =
 * m l (J x d3) / I1' (114)) are BS99's; d1, d2 and their momenta come from
 * this reconstruction (first order as well). The node's p is the system's
 * p of (R, J) (vi_top_ops.node), and its multipliers, which BS99 does not
 * have, are the index-1 multipliers at the node's (q, p)
 * (vi_system_lambda): a derived output, not a quantity of the scheme.
 *
 * Systems: a rigid body about a fixed point that is a Lagrange top, i.e.
 * equal moments perpendicular to the axis and the centre of mass on the
 * axis (accepts, accepts_data). Compiled once per precision (prec.h). */
#include "prec.h"
#include "numerics_tmpl.h"
#include "api_tmpl.h"
#include "methods/bs99.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

static const vi_opt bs99_options[] = {
    {NULL, 0, 0, 0, 0, NULL, NULL, NULL, 0, 0, NULL, NULL, NULL}};

typedef struct bs99_state {
  const VI_X(vi_system) *sys;
  VI_REAL h, t0, I1, I3, c;
  VI_REAL R[9], J[3];
  long k;
} bs99_state;

static size_t bs99_state_size(const void *opts, const vi_dims *d) {
  (void)opts;
  (void)d;
  return sizeof(bs99_state);
}

/* The type has the rigid body's table (vi_top_ops). */
static int bs99_accepts(const void *opts, const VI_X(vi_system_type) *sty, char *why,
                        size_t len) {
  (void)opts;
  if (sty->top == NULL) {
    snprintf(why, len,
             "bs99 integrates a heavy top about a fixed point in its own variables (axis and "
             "angular momentum), which a system provides by its rigid-body table (vi_top_ops); "
             "%s has none (gyro-top has)",
             sty->info->name);
    return VI_EUNSUPPORTED;
  }
  return VI_OK;
}

/* A Lagrange top: I1' = I2' about the fixed point and the centre of mass
 * on the axis d3 (mgc along the body's e3). */
static int bs99_accepts_data(const void *opts, const VI_X(vi_system) *sys, char *why,
                             size_t len) {
  (void)opts;
  VI_REAL I[3], mgc[3];
  int rc = VI_X(vi_system_top_data)(sys, I, mgc);
  if (rc != VI_OK) {
    snprintf(why, len, "bs99: the rigid-body data of %s are not available", sys->type->info->name);
    return VI_EUNSUPPORTED;
  }
  const VI_REAL tol = 4 * VI_EPS * (vi_fabs(I[0]) + vi_fabs(I[1]));
  if (vi_fabs(I[0] - I[1]) > tol) {
    snprintf(why, len,
             "bs99 needs a Lagrange top, equal moments of inertia perpendicular to the axis "
             "(notes §1.6); %s has %.17g and %.17g about the fixed point (gyro-top: set I1 = I2)",
             sys->type->info->name, (double)I[0], (double)I[1]);
    return VI_EUNSUPPORTED;
  }
  if (mgc[0] != 0 || mgc[1] != 0) {
    snprintf(why, len,
             "bs99 needs a Lagrange top, its centre of mass on the symmetry axis; %s has it off "
             "the axis",
             sys->type->info->name);
    return VI_EUNSUPPORTED;
  }
  return VI_OK;
}

static int bs99_init(void *state, const void *opts, const VI_X(vi_system) *sys,
                     const vi_dims *d, const VI_X(vi_solver_opts) *solver, VI_REAL h,
                     VI_REAL t0, const VI_REAL *q0, const VI_REAL *p0, VI_X(vi_node) *node0,
                     VI_X(vi_stats) *stats, char *err, size_t errlen) {
  bs99_state *st = state;
  VI_REAL I[3], mgc[3];
  (void)opts;
  (void)solver; /* explicit: no nonlinear solve */
  (void)stats;
  memset(st, 0, sizeof *st);
  st->sys = sys;
  st->h = h;
  st->t0 = t0;
  int rc = VI_X(vi_system_top_data)(sys, I, mgc);
  if (rc == VI_OK) {
    rc = VI_X(vi_system_top_attitude)(sys, q0, p0, st->R, st->J);
  }
  if (rc != VI_OK) {
    vi_set_err(err, errlen, "bs99: the rigid-body table of %s failed", sys->type->info->name);
    return rc;
  }
  st->I1 = I[0];
  st->I3 = I[2];
  st->c = mgc[2];
  node0->t = t0;
  memcpy(node0->q, q0, (size_t)d->nq * sizeof *q0);
  memcpy(node0->p, p0, (size_t)d->n * sizeof *p0);
  return d->ml > 0 ? VI_X(vi_system_lambda)(sys, q0, p0, node0->lambda) : VI_OK;
}

static int bs99_step(void *state, VI_X(vi_node) *next, VI_X(vi_stats) *stats) {
  bs99_state *st = state;
  const VI_REAL h = st->h, *R = st->R;
  const VI_REAL d3[3] = {R[2], R[5], R[8]};
  /* J^{n+1} = J^n + h c e3 x d3^n */
  st->J[0] -= h * st->c * d3[1];
  st->J[1] += h * st->c * d3[0];
  const VI_REAL w[3] = {h * st->J[0] / st->I1, h * st->J[1] / st->I1, h * st->J[2] / st->I1};
  const VI_REAL s = (1 / st->I3 - 1 / st->I1) * (st->J[0] * d3[0] + st->J[1] * d3[1] +
                                                 st->J[2] * d3[2]);
  const VI_REAL cs = vi_cos(h * s), sn = vi_sin(h * s);
  const VI_REAL Cs[9] = {cs, -sn, 0, sn, cs, 0, 0, 0, 1}; /* exp(h s e3^) */
  VI_REAL C[9], T[9];
  VI_X(vi_cayley3)(w, C);
  VI_X(vi_matmul3)(C, R, T);
  VI_X(vi_matmul3)(T, Cs, st->R);
  int rc = VI_X(vi_system_top_node)(st->sys, st->R, st->J, next->q, next->p);
  if (rc == VI_OK && st->sys->ml > 0) {
    rc = VI_X(vi_system_lambda)(st->sys, next->q, next->p, next->lambda);
  }
  if (rc != VI_OK) {
    return rc;
  }
  st->k++;
  next->t = st->t0 + (VI_REAL)st->k * h;
  stats->steps++;
  return VI_OK;
}

/* First order in q and p (betsch-ggl §6.2, Figs 18-19: "VI-S, BS99 and
 * VI-B are first order"); e3.J exact (the torque c e3 x d3 is horizontal),
 * which is the momentum map a heavy top under gravity along -e3 declares
 * (rotations about e3); the energy is not conserved; the multipliers are
 * derived, not the scheme's (no order declared). */
static int bs99_expected_order(const void *opts, const VI_X(vi_system_type) *sys,
                               int quantity) {
  (void)opts;
  (void)sys;
  switch (quantity) {
  case VI_Q:
  case VI_P:
    return 1;
  case VI_MOMENTA:
    return VI_ORDER_EXACT;
  default:
    return -1;
  }
}

/* R stays a rotation to round-off, so the node of (R, J) is on g = 0 and
 * G M^-1 p = 0 (vi_top_ops.node); v = M^-1 p. */
static unsigned bs99_keeps(const void *opts) {
  (void)opts;
  return VI_KEEPS_G | VI_KEEPS_GV | VI_KEEPS_GVV;
}

static const char *const bs99_examples[] = {"bs99", NULL};
/* Not drawn by the order validation: its random data break the top's
 * symmetry (I1 != I2), which bs99 refuses; its held-out checks are the
 * tests' (tests/test_bs99_reference.sh). */
static const char *const bs99_validation[] = {NULL};

const VI_X(vi_method_type) VI_X(vi_method_bs99) = {
    .name = "bs99",
    .quad_solver = VI_SOLVER_NEWTON, /* docs/benchmarks.md: the fastest quad step */
    .summary = "Bobenko-Suris discrete Lagrange top (BS99), explicit, in the axis and the "
               "angular momentum about the fixed point; first order",
    .cite = "betsch-ggl §6.2 (BS99, App. A.8 lost; reading notes §1.6)",
    .options = bs99_options,
    .needs = VI_NEED_MECH,
    .optional = VI_NEED_HOLO,
    .accepts = bs99_accepts,
    .accepts_data = bs99_accepts_data,
    .keeps = bs99_keeps,
    .lookahead = 0,
    .expected_order = bs99_expected_order,
    .examples = bs99_examples,
    .validation = bs99_validation,
    .opts_size = sizeof(vi_bs99_opts),
    .state_size = bs99_state_size,
    .init = bs99_init,
    .step = bs99_step,
};
