/* symplectic_euler.c: a method family of one's own, checked against the
 * method-system contract (docs/architecture.md) by the library's
 * conformance checks, without registering it anywhere.
 *
 * The family is the symplectic Euler method for the mechanical form
 * L = 1/2 v'M v - V(q) with a constant mass matrix and no constraints:
 *   p_{k+1} = p_k - h grad V(q_k),
 *   q_{k+1} = q_k + h M^-1 p_{k+1}.
 * It is explicit (no nonlinear solve) and variational: the discrete
 * Lagrangian L_d(q0, q1) = h [1/2 ((q1 - q0)/h)' M (q1 - q0)/h - V(q0)]
 * gives p_k = -D1 L_d and p_{k+1} = D2 L_d. Hence what it declares:
 *   - q and p of order 1;
 *   - the energy error of order 1 (bounded, O(h), over long times: the
 *     method is symplectic, not energy-conserving);
 *   - the momentum maps of linear symmetries exact (discrete Noether: L_d
 *     keeps every symmetry of L that acts linearly on q, since M and V do);
 *   - no multipliers (it takes no constraints) and no extra block.
 * A system with a configuration-dependent mass matrix M(q) is refused,
 * with a reason that names it.
 *
 * No registered system is both mechanical and unconstrained (kepler is
 * written in the degenerate form), so the program also defines a system of
 * its own, the Kepler problem in the mechanical form, and hands the checks
 * that system followed by the registry's (which the family's tables
 * refuse: counted as skipped).
 *
 * Everything here is public API: <vistudy/vistudy.h> and nothing else of
 * vistudy. Built against an installed vistudy (docs/library.md):
 *   cc -std=c11 symplectic_euler.c $(pkg-config --cflags --libs vistudy) -lm
 * Run: it prints every line of the checks and a summary; exit status 0
 * when every check held. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <vistudy/vistudy.h>

/* The stepper's private state, allocated by the library with the stepper
 * (state_size bytes, before init): what a step needs, then the node
 * (q_k, p_k) and scratch for grad V in a flexible array. */
typedef struct se_state {
  const vi_system_d *sys;
  const double *Minv; /* the system's cached constant M^-1 (n x n, row-major) */
  double h, t0;
  long k; /* the node's index */
  int n;
  double w[]; /* q (n), p (n), grad V (n) */
} se_state;

static size_t se_state_size(const void *opts, const vi_dims *d) {
  (void)opts;
  return sizeof(se_state) + 3 * (size_t)d->n * sizeof(double);
}

/* The tables (needs = VI_NEED_MECH, no constraint kind optional) let
 * through every unconstrained mechanical system; M(q) is refused here. */
static int se_accepts(const void *opts, const vi_system_type_d *sys, char *why,
                      size_t len) {
  (void)opts;
  if (vi_type_config_mass_d(sys)) {
    snprintf(why, len, "symplectic-euler needs a constant mass matrix; %s has M(q)",
             sys->info->name);
    return VI_EUNSUPPORTED;
  }
  return VI_OK;
}

/* Node 0 is the initial data itself: nothing is solved (lookahead 0), so
 * the solver options are not used. */
static int se_init(void *state, const void *opts, const vi_system_d *sys,
                   const vi_dims *d, const vi_solver_opts_d *solver, double h, double t0,
                   const double *q0, const double *p0, vi_node_d *node0,
                   vi_stats_d *stats, char *err, size_t errlen) {
  se_state *s = state;
  (void)opts;
  (void)solver;
  (void)stats;
  s->sys = sys;
  s->h = h;
  s->t0 = t0;
  s->k = 0;
  s->n = d->n;
  int rc = vi_system_minv_at_d(sys, q0, NULL, &s->Minv);
  if (rc != VI_OK) {
    snprintf(err, errlen, "symplectic-euler: no constant M^-1 (%s)", vi_strerror(rc));
    return rc;
  }
  memcpy(s->w, q0, (size_t)s->n * sizeof *q0);
  memcpy(s->w + s->n, p0, (size_t)s->n * sizeof *p0);
  node0->t = t0;
  memcpy(node0->q, q0, (size_t)s->n * sizeof *q0);
  memcpy(node0->p, p0, (size_t)s->n * sizeof *p0);
  return VI_OK;
}

/* One step, node k -> node k+1, into next; no allocation. A failing grad V
 * is returned with its sign (vi_callback_status) and leaves node k as it
 * was, so the caller may retry with a smaller step. */
static int se_step(void *state, vi_node_d *next, vi_stats_d *stats) {
  se_state *s = state;
  const int n = s->n;
  double *q = s->w, *p = q + n, *dV = p + n;
  const vi_mech_ops_d *mech = s->sys->type->mech;
  int rc = vi_callback_status(mech->grad_potential(s->sys->state, q, dV));
  if (rc != VI_OK) {
    return rc;
  }
  for (int i = 0; i < n; i++) {
    p[i] -= s->h * dV[i];
  }
  for (int i = 0; i < n; i++) {
    double v = 0;
    for (int j = 0; j < n; j++) {
      v += s->Minv[i * n + j] * p[j];
    }
    q[i] += s->h * v;
  }
  s->k++;
  next->t = s->t0 + (double)s->k * s->h;
  memcpy(next->q, q, (size_t)n * sizeof *q);
  memcpy(next->p, p, (size_t)n * sizeof *p);
  stats->steps++;
  return VI_OK;
}

/* The orders it declares (file comment); -1: nothing declared. */
static int se_expected_order(const void *opts, const vi_system_type_d *sys,
                             int quantity) {
  (void)opts;
  (void)sys;
  switch (quantity) {
  case VI_Q:
  case VI_P:
  case VI_ENERGY:
    return 1;
  case VI_MOMENTA:
    return VI_ORDER_EXACT;
  default:
    return -1;
  }
}

/* No options: the table is its terminator alone. */
static const vi_opt se_options[] = {
    {NULL, 0, 0, 0, 0, NULL, NULL, NULL, 0, 0, NULL, NULL, NULL}};
static const char *const se_examples[] = {"symplectic-euler", NULL};

static const vi_method_type_d se_type = {
    .name = "symplectic-euler",
    .summary = "symplectic Euler: p_{k+1} = p_k - h grad V(q_k), q_{k+1} = q_k + h M^-1 "
               "p_{k+1}",
    .cite = "Hairer, Lubich & Wanner, Geometric Numerical Integration, VI.3",
    .options = se_options,
    .opts_size = 0,
    .needs = VI_NEED_MECH,
    .accepts = se_accepts,
    .state_size = se_state_size,
    .init = se_init,
    .step = se_step,
    .expected_order = se_expected_order,
    .examples = se_examples,
};

/* ---- the user's own system: a body in the plane around a fixed centre ----
 * L = 1/2 |v|^2 + mu/|q| (M = I, V = -mu/|q|), n = 2, no constraints; the
 * angular momentum x p_y - y p_x is the Noether quantity of the rotations
 * about the centre, which act linearly on q. Default data: the pericenter
 * of the orbit with e = 0.5, a = 1 (period 2 pi). */
enum { KM_N = 2 };
typedef struct km_state {
  double mu, q0[KM_N], v0[KM_N];
} km_state;

static const vi_param km_params[] = {
    {"mu", 1, "1", "gravitational parameter G M", VI_PARAM_POSITIVE},
    {"q0", KM_N, "0.5,0", "initial position", VI_PARAM_ANY},
    {"v0", KM_N, "0,1.7320508075688772935274463415058724", "initial velocity",
     VI_PARAM_ANY},
    {NULL, 0, NULL, NULL, VI_PARAM_ANY}};
static const char *const km_momenta[] = {"L"};
static const vi_system_info km_info = {
    .name = "kepler-mech",
    .summary = "the Kepler problem in the mechanical form (examples/symplectic_euler.c)",
    .cite = "-",
    .n = KM_N,
    .n_momenta = 1,
    .momentum_names = km_momenta,
    .momenta_noether = 1u << 0, /* L: rotations about the centre */
    .params = km_params,
};

/* The parameters in the order of km_params; the centre is no place to
 * start (V is singular there). */
static int km_setup(void *state, const double *par, char *err, size_t errlen) {
  km_state *s = state;
  s->mu = par[0];
  memcpy(s->q0, par + 1, sizeof s->q0);
  memcpy(s->v0, par + 3, sizeof s->v0);
  return vi_data_apart_d("q0", "the initial position and the centre", KM_N, s->q0, NULL,
                         "where V = -mu/|q| is singular", err, errlen);
}
static int km_initial(const void *state, double *q0, double *v0) {
  const km_state *s = state;
  memcpy(q0, s->q0, sizeof s->q0);
  memcpy(v0, s->v0, sizeof s->v0);
  return 0;
}
static int km_mass(const void *state, double *M) {
  (void)state;
  M[0] = M[3] = 1;
  M[1] = M[2] = 0;
  return 0;
}
/* At the centre a callback refuses recoverably (> 0): a smaller step may
 * miss it. */
static int km_potential(const void *state, const double *q, double *V) {
  const double r = sqrt(q[0] * q[0] + q[1] * q[1]);
  *V = -((const km_state *)state)->mu / r;
  return r > 0 ? 0 : 1;
}
static int km_grad_potential(const void *state, const double *q, double *dV) {
  const double r2 = q[0] * q[0] + q[1] * q[1], r3 = r2 * sqrt(r2);
  const double mu = ((const km_state *)state)->mu;
  dV[0] = mu * q[0] / r3;
  dV[1] = mu * q[1] / r3;
  return r2 > 0 ? 0 : 1;
}
static int km_angular_momentum(const void *state, const double *q, const double *p,
                               double *J) {
  (void)state;
  J[0] = q[0] * p[1] - q[1] * p[0];
  return 0;
}
static const vi_mech_ops_d km_mech = {
    .mass = km_mass, .potential = km_potential, .grad_potential = km_grad_potential};
static const vi_obs_ops_d km_obs = {.momenta = km_angular_momentum};
static const vi_system_type_d km_type = {.info = &km_info,
                                         .state_size = sizeof(km_state),
                                         .setup = km_setup,
                                         .initial = km_initial,
                                         .mech = &km_mech,
                                         .obs = &km_obs};

/* Every line the checks report: a check that held, one that failed, or a
 * note (a measured order, a refused system). */
static void report(void *ctx, int kind, const char *line) {
  (void)ctx;
  printf("%s %s\n",
         kind == VI_CONFORMANCE_PASSED   ? "ok  "
         : kind == VI_CONFORMANCE_FAILED ? "FAIL"
                                         : "    ",
         line);
}

int main(void) {
  /* The systems to check it on, NULL-terminated: our own, then the
   * registry's (passing NULL instead means the registry alone). */
  const vi_system_type_d *systems[64] = {&km_type};
  int ns = 1;
  for (int i = 0; vi_system_types_d[i] && ns < 63; i++) {
    systems[ns++] = vi_system_types_d[i];
  }
  systems[ns] = NULL;
  vi_conformance_counts n;
  int failed = vi_conformance_d(&se_type, systems, report, NULL, &n);
  /* deferred: orders whose errors reached the floor of double, which a
   * quad pass would check; this family exists in double only. */
  printf("%s: %d (example, system) pairs run, %d skipped, %d checks, %d failed, %d orders "
         "left unchecked at the floor of double\n",
         se_type.name, n.pairs, n.skipped, n.checks, n.failed, n.deferred);
  return failed == 0 && n.pairs > 0 ? 0 : 1;
}
