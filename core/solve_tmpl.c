/* solve_tmpl.c: nonlinear solves F(x) = 0 of a fixed size N behind one small
 * interface (api_tmpl.h), with its backends behind an ops table
 * (solve_impl_tmpl.h):
 *
 * - the built-in dense Newton, here, every precision: exact Newton (a
 *   fresh analytic Jacobian and LU at every iterate), the chord method (one
 *   Jacobian and LU per solve, at the initial guess, kept through its
 *   iterations) or simplified Newton (one Jacobian and LU kept across
 *   iterations and solves, Hairer-Wanner II §IV.8 and RADAU5), each with
 *   its LU in the working precision or in double (mixed precision: the LU
 *   only steers the iteration, whose residual and update stay in the
 *   working precision, so the converged x is as accurate; the contraction
 *   rate grows by about cond(J) eps_d);
 * - KINSOL (SUNDIALS 6.x), in solve_kinsol.c in the double library; the
 *   quad library's slot (solve_nokinsol.c) says why it is refused.
 *
 * An LU in double that is singular, or whose fresh Jacobian does not
 * contract (theta > 1/2: cond(J) eps_d near 1) where the working
 * precision's LU does on trial, is given up for the working precision's
 * for the rest of the solver's life.
 *
 * Convergence, with the weighted norm |dx|_w = max_i |dx_i| / (rtol (|x_i|
 * + u_i)) and the absolute scale u_i of each unknown (1 unless the caller
 * sets it, see vi_solver_set_unit): the built-in Newton stops when the
 * error estimate of the updated iterate, |dx|_w or theta/(1-theta) |dx|_w
 * with the contraction rate theta
 * (Hairer-Wanner II §IV.8), is at most 1; it also accepts a stalled
 * iteration at round-off level (increments that stop contracting, theta >
 * 1/2, while already within |dx|_w <= 1e3), which an ill-conditioned
 * Jacobian (e.g. s = 12 on equidistant control points) would otherwise
 * turn into a spurious failure.
 *
 * The chord method and simplified Newton keep a Jacobian while its
 * contraction rate theta stays at most jac_rate (default 0.05, measured:
 * docs/benchmarks.md): a slower contraction, or one predicted not to
 * converge within max_iter (theta^(max_iter - k) / (1 - theta) |dx|_w > 1,
 * RADAU5), evaluates a fresh Jacobian at the current iterate, and
 * simplified Newton evaluates a fresh one at the next solve after a solve
 * that contracted slower (RADAU5's THET). A divergence (theta >= 1, a
 * non-finite iterate, a recoverable callback failure) restarts the solve
 * once from the initial guess as exact Newton. A stall is accepted as a
 * round-off floor only with a Jacobian one iterate old, so a slow
 * contraction of a stale one is never taken for convergence. Their steps
 * converge linearly, so they stop when the error estimate is within
 * rtol / 100 (1 eps at the default rtol), about where exact Newton's last
 * quadratic step leaves the root; the first step after a Newton step is
 * judged by jac_rate, not by its ratio to that step. Simplified Newton's
 * kept Jacobian is its only state from solve to solve; the chord method
 * and exact Newton carry none (beyond a fall-back to the working LU).
 *
 * KINSOL stops on its scaled-step test at 1e3 rtol (see solve_kinsol.c).
 * Non-convergence is the recoverable status VI_NEWTON_NOCONV, never a
 * silently wrong step. */
#include "solve_impl_tmpl.h"

#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether an LU in double differs from the working precision's. */
static int lu_narrower(void) {
  return VI_EPS < DBL_EPSILON;
}

/* The defaults, measured (docs/benchmarks.md, results/bench/summary.md):
 * in quad the LU in double (2x faster than the quad LU, geometric mean per
 * family) and the solver each family's quad_solver names (the chord method
 * unless it names another: galerkin, man2020 and nhprk gain 15-30% more
 * with it, dla, em and ggl least with exact Newton; simplified Newton,
 * faster still on nhprk's Lie groups, is no default because it carries
 * its Jacobian from step to step, so a step's result would depend on the
 * solves before it, a resumed or hooked run's on more than its data); in
 * double exact Newton, whose last quadratic step leaves the root at
 * round-off whatever rtol, where the chord method gains little
 * (0.5-2.3x) and would cost results that rest on round-off (a multiplier
 * at its 1/h^2 floor moves by 0.2 rtol/h^2: betsch-ggl's EM-G lambda at
 * h = 1e-4). */
int VI_X(vi_solver_default_kind)(int quad_solver) {
  if (!lu_narrower()) {
    return VI_SOLVER_NEWTON;
  }
  return quad_solver != VI_SOLVER_AUTO ? quad_solver : VI_SOLVER_CHORD;
}
#define VI_SOLVER_DEFAULT_LU VI_LU_DOUBLE

/* The chord and simplified iterations converge to rtol / this (see
 * newton). */
#define VI_SOLVER_CHORD_MARGIN VI_C(100.0)

void VI_X(vi_solver_opts_default)(VI_X(vi_solver_opts) *opts) {
  /* In quad the kind stays VI_SOLVER_AUTO until a stepper resolves it
   * with its family's choice (vi_stepper_init), or vi_solver_alloc with
   * the chord method. */
  opts->kind = lu_narrower() ? VI_SOLVER_AUTO : VI_SOLVER_NEWTON;
  opts->lu = VI_SOLVER_DEFAULT_LU;
  opts->rtol = 100 * VI_EPS;
  opts->max_iter = 50;
  opts->jac_rate = VI_C(0.05);
}

/* Weighted max-norm of dx; the iterate is finite when the result is. */
static VI_REAL wnorm(const VI_X(vi_solver) *s, const VI_REAL *x,
                           const VI_REAL *dx) {
  VI_REAL r = 0;
  for (int i = 0; i < s->N; i++) {
    VI_REAL a = vi_fabs(dx[i]) / (s->opts.rtol * (vi_fabs(x[i]) + s->unit[i]));
    if (!(a <= r)) {
      r = a; /* also propagates NaN */
    }
  }
  return r;
}

/* Factor the Jacobian just assembled in s->J, in place or into the double
 * copy Jd. */
static int factor(VI_X(vi_solver) *s, vi_solve_counts *c) {
  const int N = s->N;
  c->factorizations++;
  if (s->Jd == NULL || s->lu_working) {
    return VI_X(vi_lu_factor)(N, s->J, s->piv);
  }
  for (size_t i = 0; i < (size_t)N * N; i++) {
    s->Jd[i] = (double)s->J[i];
  }
  int st = vi_lu_factor_d(N, s->Jd, s->piv);
  if (st == VI_SINGULAR) {
    /* singular in double only, perhaps: the working precision decides,
     * and its LU is kept only if it is not singular too */
    c->factorizations++;
    st = VI_X(vi_lu_factor)(N, s->J, s->piv);
    s->lu_working = st == VI_OK;
  }
  return st;
}

/* dx = LU \ dx with the factors of factor(). */
static void lsolve(const VI_X(vi_solver) *s, VI_REAL *dx) {
  const int N = s->N;
  if (s->Jd == NULL || s->lu_working) {
    VI_X(vi_lu_solve)(N, s->J, s->piv, dx);
    return;
  }
  for (int i = 0; i < N; i++) {
    s->bd[i] = (double)dx[i];
  }
  vi_lu_solve_d(N, s->Jd, s->piv, s->bd);
  for (int i = 0; i < N; i++) {
    dx[i] = (VI_REAL)s->bd[i];
  }
}

static VI_REAL powi(VI_REAL x, int k) {
  VI_REAL r = 1;
  for (int i = 0; i < k; i++) {
    r *= x;
  }
  return r;
}

/* newton() goes on as exact Newton from iteration it, after a divergence
 * (restart, from the initial guess) or a fixed-point iteration given up
 * (from the current iterate): no Jacobian kept from here on (simplified),
 * no rate since the last J (prev), no step with a fresh J since the
 * restart (jprev), and the iteration of the restart (base) is it. */
static void to_exact_newton(int it, int *simplified, VI_REAL *prev, VI_REAL *jprev,
                            int *base) {
  *simplified = 0;
  *prev = 0;
  *jprev = 0;
  *base = it;
}

/* The iteration from x. Exact Newton evaluates and factors J at every
 * iterate. The chord method and simplified Newton evaluate J only when
 * they keep none or when the contraction is slow (theta > jac_rate, or too
 * slow to converge within max_iter), then at the current iterate; when
 * they diverge (theta >= 1, a non-finite iterate, a recoverable callback
 * failure), they restart once from the initial guess as exact Newton. */
static int newton(VI_X(vi_solver) *s, VI_REAL *x, vi_solve_counts *c) {
  const int N = s->N;
  /* fixed-point iteration: the leading part M in place of J, kept while
   * the solves converge with it (see the fp branch below) */
  const int fp = s->opts.kind == VI_SOLVER_FIXED_POINT;
  int simplified =
      s->opts.kind == VI_SOLVER_SIMPLIFIED || s->opts.kind == VI_SOLVER_CHORD || fp;
  const int keeps_lu = simplified; /* an LU outlives its iteration */
  if (fp && s->lead == NULL) {
    return VI_EUNSUPPORTED; /* the family gave no leading part */
  }
  if (s->opts.kind == VI_SOLVER_CHORD) {
    s->lu_valid = 0; /* the chord method: a Jacobian at every initial guess */
  }
  int need = !simplified || !s->lu_valid; /* evaluate J at this iterate */
  int since = 0;                          /* iterations since J was evaluated */
  int base = 0;                           /* the iteration of the last restart */
  int probing = 0, probed = 0;            /* the working LU on trial (see below) */
  VI_REAL prev = 0, theta_max = 0;        /* prev = 0: no rate since the last J */
  VI_REAL jprev = 0; /* |dx|_w of the last step with a fresh J since the restart */
  VI_REAL theta_fast = 1; /* the best trusted rate of this solve (fixed point) */
  if (simplified) {
    memcpy(s->x0, x, (size_t)N * sizeof *x);
  }
  for (int it = 1; it <= s->opts.max_iter; it++) {
    const int jac = !simplified || need;   /* a fresh matrix at this iterate */
    const int lead = jac && fp && simplified; /* ... the leading part M */
    const int exact = jac && !lead;           /* ... the Jacobian: a Newton step */
    int st = s->fn(s->ctx, x, s->F, exact ? s->J : NULL);
    c->fevals++;
    if (exact) {
      c->jevals++;
    }
    if (st == 0 && lead) {
      st = s->lead(s->ctx, x, s->J); /* no Jacobian: not counted as one */
    }
    if (st > 0 && simplified && it > 1) {
      goto restart; /* the simplified iterate left the residual's domain */
    }
    if (st != 0) {
      s->lu_valid = 0;
      return st;
    }
    if (jac) {
      s->lu_valid = 0;
      st = factor(s, c);
      if (st != VI_OK && lead) {
        simplified = 0; /* a singular M: exact Newton from here */
        continue;
      }
      if (st != VI_OK) {
        return st;
      }
      /* a Newton step's J, after a fixed-point iteration gave up, is no M */
      s->lu_valid = keeps_lu && !(fp && exact);
      need = 0;
      since = 0;
      if (simplified) {
        prev = 0; /* the rate of the new Jacobian is yet to be seen */
      }
    } else {
      since++;
    }
    for (int i = 0; i < N; i++) {
      s->dx[i] = -s->F[i];
    }
    lsolve(s, s->dx);
    for (int i = 0; i < N; i++) {
      x[i] += s->dx[i];
    }
    c->iters++;
    VI_REAL nrm = wnorm(s, x, s->dx);
    if (!vi_isfinite(nrm)) {
      if (simplified) {
        goto restart;
      }
      s->lu_valid = 0;
      return VI_NEWTON_NOCONV;
    }
    /* A Newton step (J at this iterate) within rtol has converged: what
     * it leaves is quadratically small. A step with an older Jacobian
     * converges linearly and is accepted when its error estimate is
     * within rtol / VI_SOLVER_CHORD_MARGIN. */
    const VI_REAL bound = exact || !simplified ? 1 : 1 / VI_SOLVER_CHORD_MARGIN;
    if (nrm == 0 || (exact && nrm <= 1)) {
      goto converged;
    }
    if (simplified && exact) {
      /* Two steps with fresh Jacobians, the later not even halving the
       * increment, within the stall bound: the round-off floor of the
       * residual (above rtol where F is scaled by 1/h at small h: vprk
       * s = 2 on kepler at h = 1.4e-3 in double, where the chord steps
       * between them contract at 0.3-0.5 and would otherwise ask for
       * fresh Jacobians until max_iter). Exact Newton's stall test below
       * is the same for its consecutive steps. */
      if (jprev > 0 && !probing && nrm <= VI_SOLVER_STALL_FACTOR &&
          nrm > VI_C(0.5) * jprev) {
        goto converged;
      }
      jprev = nrm;
    }
    if (!jac && !fp && prev == 0 && s->opts.jac_rate < 1 &&
        s->opts.jac_rate / (1 - s->opts.jac_rate) * nrm <= bound) {
      goto converged; /* a kept Jacobian's first step: its rate is at most jac_rate */
    }
    if (prev > 0) {
      /* Error estimate of the updated iterate from the contraction rate
       * (Hairer-Wanner II §IV.8): theta/(1-theta) |dx|. */
      VI_REAL theta = nrm / prev;
      if (theta > theta_max) {
        theta_max = theta;
      }
      /* The ratio of the first chord step to the Newton step before it
       * is no linear rate (the Newton step removed the bulk of the error,
       * and the ratio can be 1e-16 where the chord contracts at 4e-4:
       * ggl VI-B on six-balls, quad), nor is the ratio of a solve's first
       * two steps with a Jacobian kept from an earlier solve (the first
       * removes the part of the error the residual is linear in, the
       * multipliers': 1e-13 where the rate is 3e-4, galerkin s = 1 on
       * four-particle at h = 1e-4, quad): such a step is judged by the
       * largest rate a kept Jacobian may have, jac_rate; later ones by
       * their own.
       * Nothing carries from solve to solve, so a solve's result depends
       * on its own data only. */
      VI_REAL theta_est = theta;
      const int untrusted = since == 1 || it - base == 2; /* see above */
      if (simplified && !jac && untrusted && theta_est < s->opts.jac_rate) {
        theta_est = s->opts.jac_rate;
      }
      if (!untrusted && theta < theta_fast) {
        theta_fast = theta;
      }
      if (probing) {
        /* The trial of the working LU: if it contracts where the double LU
         * did not, the double LU was the limit and the working one stays
         * for the solver's life; if not, the iteration sits at its
         * round-off floor, and the double LU comes back (its factors are
         * gone: a fresh Jacobian at the next factorization). */
        probing = 0;
        if (theta > VI_C(0.5)) {
          s->lu_working = 0;
          s->lu_valid = 0;
          need = 1;
        }
      }
      if (theta_est < 1 && theta_est / (1 - theta_est) * nrm <= bound) {
        goto converged;
      }
      /* increments at round-off level that stopped contracting */
      const int stalled =
          it - base >= 3 && nrm <= VI_SOLVER_STALL_FACTOR && theta > VI_C(0.5);
      if (theta > VI_C(0.5) && !(fp && simplified) && s->Jd != NULL && !s->lu_working &&
          !probed && (!simplified || since == 1) && nrm > VI_SOLVER_STALL_FACTOR &&
          nrm * s->opts.rtol <= VI_C(1e-8)) {
        /* A Jacobian just evaluated does not contract an increment so
         * small (relative 1e-8) that the nonlinearity cannot be the cause,
         * and above the stall bound: the LU in double may be the limit
         * (cond(J) eps_d near 1), or the iteration its round-off floor.
         * One trial of the working LU per solve tells them apart. (Below
         * the stall bound the question does not arise: a J whose double LU
         * contracts at more than 1/2 has cond(J) >= 1e15, and the quad
         * problem's own round-off, cond(J) eps_q, is far above 1e3 rtol.) */
        s->lu_working = 1;
        probing = probed = 1;
        need = 1;
        prev = 0;
        continue;
      }
      if (!simplified) {
        if (stalled) {
          goto converged; /* round-off floor reached: no further contraction */
        }
      } else if (fp) {
        /* M's rate is the problem's (about h |df/dy|), no fresher M
         * improves it: a fixed-point iteration too slow to converge
         * within max_iter, or one that stops contracting (theta > 1/2:
         * slow, or at its round-off floor, which in double lies above
         * rtol / 100 where F is scaled by 1/h, vprk s = 4 on kepler at
         * h = 0.011), goes on as exact Newton from this iterate, whose
         * own tests then tell the floor from a slow rate; one that
         * diverges far from the floor restarts from the initial guess as
         * exact Newton. The next solve evaluates a fresh M. A stall is
         * accepted only where exact Newton would accept its step, within
         * rtol (|dx|_w <= 1), not diverging, after the iteration showed
         * a trusted rate of 1/4 or better: a stall above rtol could be a
         * slow linear rate passing for round-off. */
        if (theta >= 1 && nrm > VI_SOLVER_STALL_FACTOR) {
          goto restart;
        }
        if (theta > VI_C(0.5) && theta < 1 && nrm <= 1 && theta_fast <= VI_C(0.25)) {
          goto converged;
        }
        if (theta > VI_C(0.5) ||
            powi(theta, s->opts.max_iter - it) / (1 - theta) * nrm > 1) {
          to_exact_newton(it, &simplified, &prev, &jprev, &base);
          continue;
        }
      } else if (stalled && theta < 1 && since == 1) {
        goto converged; /* the same, right after a fresh Jacobian */
      } else if (theta >= 1) {
        goto restart;
      } else if (theta > s->opts.jac_rate ||
                 powi(theta, s->opts.max_iter - it) / (1 - theta) * nrm > 1) {
        need = 1; /* slow: a fresh Jacobian at this iterate */
        prev = 0;
        continue;
      }
    }
    prev = nrm;
    continue;
  restart:
    memcpy(x, s->x0, (size_t)N * sizeof *x);
    to_exact_newton(it, &simplified, &prev, &jprev, &base);
  }
  s->lu_valid = 0;
  return VI_NEWTON_NOCONV;
converged:
  if (simplified && !fp && theta_max > s->opts.jac_rate) {
    s->lu_valid = 0; /* contracted slowly: a fresh Jacobian next solve */
  }
  return VI_OK;
}

static const vi_solver_backend newton_backend = {
    .solve = newton,
};

/* The backend of a vi_solver_kind, or NULL for an unknown kind. */
static const vi_solver_backend *backend_of(int kind) {
  switch (kind) {
  case VI_SOLVER_AUTO: /* quad's default before a stepper resolves it */
  case VI_SOLVER_NEWTON:
  case VI_SOLVER_SIMPLIFIED:
  case VI_SOLVER_CHORD:
  case VI_SOLVER_FIXED_POINT:
    return &newton_backend;
  case VI_SOLVER_KINSOL:
    return &VI_X(vi_solver_kinsol);
  default:
    return NULL;
  }
}

int VI_X(vi_solver_alloc)(const VI_X(vi_solver_opts) *opts, int N,
                          VI_X(vi_resjac_fn) fn, void *ctx,
                          VI_X(vi_solver) **out) {
  *out = NULL;
  if (N <= 0 || !fn || !opts || opts->max_iter <= 0 || !(opts->rtol > 0) ||
      !(opts->jac_rate > 0) ||
      (opts->lu != VI_LU_WORKING && opts->lu != VI_LU_DOUBLE)) {
    return VI_EINVAL;
  }
  /* AUTO without a family (vi_stepper_init resolves a family's): chord */
  const int kind =
      opts->kind == VI_SOLVER_AUTO ? VI_X(vi_solver_default_kind)(0) : opts->kind;
  const vi_solver_backend *be = backend_of(kind);
  if (be == NULL) {
    return VI_EINVAL;
  }
  if (be->unavailable != NULL) {
    return VI_EUNSUPPORTED; /* e.g. KINSOL in quad */
  }
  /* One allocation: the struct, the backend's state, then F, J, dx, unit,
   * x0, then Jd and bd (an LU in double below the working precision), then
   * piv. */
  const int use_jd = opts->lu == VI_LU_DOUBLE && lu_narrower() && be == &newton_backend;
  size_t head = (sizeof(VI_X(vi_solver)) + 15) / 16 * 16;
  size_t impl = (be->state_size + 15) / 16 * 16;
  size_t nreal = (size_t)N * (size_t)(N + 4);
  size_t ndbl = use_jd ? (size_t)N * (size_t)(N + 1) : 0;
  size_t bytes = head + impl + nreal * sizeof(VI_REAL) + ndbl * sizeof(double) +
                 (size_t)N * sizeof(int);
  char *mem = calloc(1, bytes);
  if (!mem) {
    return VI_ENOMEM;
  }
  VI_X(vi_solver) *s = (VI_X(vi_solver) *)mem;
  s->opts = *opts;
  s->opts.kind = kind;
  s->N = N;
  s->fn = fn;
  s->ctx = ctx;
  s->backend = be;
  s->impl = impl > 0 ? mem + head : NULL;
  s->F = (VI_REAL *)(mem + head + impl);
  s->J = s->F + N;
  s->dx = s->J + (size_t)N * N;
  s->unit = s->dx + N;
  for (int i = 0; i < N; i++) {
    s->unit[i] = 1;
  }
  s->x0 = s->unit + N;
  double *dmem = (double *)(s->x0 + N);
  if (use_jd) {
    s->Jd = dmem;
    s->bd = dmem + (size_t)N * N;
  }
  s->piv = (int *)(dmem + ndbl);
  if (be->init != NULL) {
    int st = be->init(s);
    if (st != VI_OK) {
      VI_X(vi_solver_free)(s);
      return st;
    }
  }
  *out = s;
  return VI_OK;
}

void VI_X(vi_solver_free)(VI_X(vi_solver) *s) {
  if (!s) {
    return;
  }
  if (s->backend->fini != NULL) {
    s->backend->fini(s);
  }
  free(s);
}

void VI_X(vi_solver_set_unit)(VI_X(vi_solver) *s, int i, VI_REAL unit) {
  s->unit[i] = unit;
}

void VI_X(vi_solver_set_leading)(VI_X(vi_solver) *s, VI_X(vi_lead_fn) lead) {
  s->lead = lead;
}

int VI_X(vi_solve)(VI_X(vi_solver) *s, VI_REAL *x, vi_solve_counts *counts) {
  vi_solve_counts scratch = {0, 0, 0, 0};
  return s->backend->solve(s, x, counts != NULL ? counts : &scratch);
}

void VI_X(vi_solver_reset)(VI_X(vi_solver) *s) {
  s->lu_valid = 0;
  s->lu_working = 0;
}

/* Solver options of a typed configuration (vi_solver_config). */
int VI_X(vi_solver_opts_from)(const vi_solver_config *c, VI_X(vi_solver_opts) *so,
                              char *err, size_t errlen) {
  VI_X(vi_solver_opts_default)(so);
  if (c->kind != VI_SOLVER_AUTO) {
    so->kind = c->kind;
  }
  if (c->lu != VI_LU_AUTO) {
    so->lu = c->lu;
  }
  if (so->lu != VI_LU_WORKING && so->lu != VI_LU_DOUBLE) {
    snprintf(err, errlen, "invalid LU precision %d; valid: working, double", c->lu);
    return VI_EINVAL;
  }
  const vi_solver_backend *be = backend_of(so->kind);
  if (be == NULL) {
    snprintf(err, errlen,
             "invalid solver kind %d; valid: newton, chord, simplified, "
             "fixed-point, kinsol",
             c->kind);
    return VI_EINVAL;
  }
  if (be != NULL && be->unavailable != NULL) {
    snprintf(err, errlen, "%s", be->unavailable);
    return VI_EUNSUPPORTED;
  }
  if (c->rtol != 0) {
    if (!(c->rtol > 0) || !vi_isfinite((VI_REAL)c->rtol)) {
      snprintf(err, errlen, "invalid solver rtol %.3g: must be a positive number",
               (double)c->rtol);
      return VI_EINVAL;
    }
    so->rtol = (VI_REAL)c->rtol;
  }
  if (so->rtol < VI_EPS) {
    snprintf(err, errlen, "rtol %.3g is below the %s precision's epsilon %.3g and "
             "cannot be met; use quad precision or a larger rtol",
             (double)so->rtol, VI_PREC_NAME, (double)VI_EPS);
    return VI_EINVAL;
  }
  if (c->max_iter > 0) {
    so->max_iter = c->max_iter;
  }
  return VI_OK;
}
