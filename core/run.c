/* run.c: the drivers behind `vistudy run` and `vistudy check`, in the
 * working precision (prec.h): look up the system, apply overrides, build
 * the stepper, integrate with a constant step and write the trajectory as
 * CSV with every value at the full precision of the working type to a
 * stream the caller opened (the program's outfile.h decides how a file is
 * written); when a step fails, the nodes computed so far are kept and the
 * failure is reported. */
#include "prec.h"
#include "numerics_tmpl.h"
#include "api_tmpl.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const VI_X(vi_system_type) *VI_X(vi_system_find)(const char *name, char *err,
                                                 size_t errlen) {
  for (int i = 0; VI_X(vi_system_types)[i]; i++) {
    if (name && strcmp(VI_X(vi_system_types)[i]->info->name, name) == 0) {
      return VI_X(vi_system_types)[i];
    }
  }
  int k = snprintf(err, errlen, "unknown system '%s'; valid:", name ? name : "");
  for (int i = 0; VI_X(vi_system_types)[i] && k > 0 && (size_t)k < errlen; i++) {
    k += snprintf(err + k, errlen - (size_t)k, " %s",
                  VI_X(vi_system_types)[i]->info->name);
  }
  return NULL;
}

int VI_X(vi_format_real)(char *buf, size_t len, VI_REAL x) {
#if defined(VI_PREC_Q)
  return quadmath_snprintf(buf, len, "%.36Qg", x);
#else
  return snprintf(buf, len, "%.17g", x);
#endif
}

int VI_X(vi_parse_positive)(const char *what, const char *text, VI_REAL *out,
                            char *err, size_t errlen) {
  char *end = NULL;
  if (!text || !*text) {
    snprintf(err, errlen, "missing value for %s", what);
    return VI_EINVAL;
  }
  errno = 0;
  VI_REAL v = vi_strtor(text, &end);
  if (end == text || *end != '\0' || !vi_isfinite(v)) {
    snprintf(err, errlen, "invalid %s '%s': expected a positive number", what, text);
    return VI_EINVAL;
  }
  if (!(v > 0)) {
    snprintf(err, errlen, "invalid %s '%s': must be positive", what, text);
    return VI_EINVAL;
  }
  *out = v;
  return VI_OK;
}

/* Write one CSV row for a node. */
static int VI_X(write_row)(FILE *f, const VI_X(vi_system) *sys,
                           const VI_X(vi_node) *nd, VI_REAL *work) {
  const int n = sys->n, m = sys->m;
  char buf[64];
  /* The residual columns of the form: g and the hidden constraint
   * (mechanical), |A M^-1 p + a| with nonholonomic constraints, the defect
   * |p - alpha(q)| (degenerate). */
  VI_REAL E = 0, res[3] = {0, 0, 0};
  int nres = sys->type->degen ? 1 : sys->type->lie ? sys->m_nh > 0 : sys->m_nh > 0 ? 3 : 2;
  int rc = VI_X(vi_system_energy)(sys, nd->q, nd->p, &E);
  if (sys->type->lie) {
    /* Lie form: no holonomic constraints; |A xi + a| when it has some. */
    if (rc == 0 && sys->m_nh > 0) {
      rc = VI_X(vi_system_nh_residual)(sys, nd->q, nd->p, work);
      res[0] = VI_X(vi_norm_inf)(sys->m_nh, work);
    }
  } else if (sys->type->degen) {
    if (rc == 0) {
      rc = VI_X(vi_system_defect)(sys, nd->q, nd->p, &res[0]);
    }
  } else {
    if (rc == 0 && m > 0) {
      rc = sys->type->holo->constraint(sys->state, nd->q, work);
    }
    res[0] = VI_X(vi_norm_inf)(m, work);
    if (rc == 0) {
      rc = VI_X(vi_system_hidden)(sys, nd->q, nd->p, work);
    }
    res[1] = VI_X(vi_norm_inf)(m, work);
    if (rc == 0 && sys->m_nh > 0) {
      rc = VI_X(vi_system_nh_residual)(sys, nd->q, nd->p, work);
      res[2] = VI_X(vi_norm_inf)(sys->m_nh, work);
    }
  }
  if (rc != 0) {
    return rc;
  }
  VI_X(vi_format_real)(buf, sizeof buf, nd->t);
  fputs(buf, f);
  const VI_REAL *cols[3] = {nd->q, nd->p, nd->lambda};
  const int cnt[3] = {n, n, sys->ml};
  for (int c = 0; c < 3; c++) {
    for (int i = 0; i < cnt[c]; i++) {
      VI_X(vi_format_real)(buf, sizeof buf, cols[c][i]);
      fputc(',', f);
      fputs(buf, f);
    }
  }
  const VI_REAL tail[4] = {E, res[0], res[1], res[2]};
  for (int i = 0; i < 1 + nres; i++) {
    VI_X(vi_format_real)(buf, sizeof buf, tail[i]);
    fputc(',', f);
    fputs(buf, f);
  }
  if (VI_X(vi_type_has_momenta)(sys->type)) {
    if ((rc = sys->type->obs->momenta(sys->state, nd->q, nd->p, work)) != 0) {
      return rc;
    }
    for (int i = 0; i < sys->type->info->n_momenta; i++) {
      VI_X(vi_format_real)(buf, sizeof buf, work[i]);
      fputc(',', f);
      fputs(buf, f);
    }
  }
  fputc('\n', f);
  return VI_OK;
}

static void VI_X(write_header)(FILE *f, const VI_X(vi_system) *sys) {
  fputs("t", f);
  for (int i = 1; i <= sys->n; i++) {
    fprintf(f, ",q%d", i);
  }
  for (int i = 1; i <= sys->n; i++) {
    fprintf(f, ",p%d", i);
  }
  for (int i = 1; i <= sys->m; i++) {
    fprintf(f, ",lambda%d", i);
  }
  for (int i = 1; i <= sys->m_nh; i++) {
    fprintf(f, ",mu%d", i);
  }
  fputs(sys->type->degen ? ",energy,alpha_defect" : sys->type->lie ? ",energy" : ",energy,g_norm,gv_norm", f);
  if (sys->m_nh > 0) {
    fputs(",phi_norm", f);
  }
  const vi_system_info *info = sys->type->info;
  if (VI_X(vi_type_has_momenta)(sys->type)) {
    for (int i = 0; i < info->n_momenta; i++) {
      fprintf(f, ",%s", info->momentum_names[i]);
    }
  }
  fputc('\n', f);
}

static double VI_X(now)(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int VI_X(vi_solver_opts_parse)(const vi_common_args *a, VI_X(vi_solver_opts) *so,
                               char *err, size_t errlen) {
  VI_X(vi_solver_opts_default)(so);
  so->kind = a->solver;
#if defined(VI_PREC_Q)
  if (so->kind == VI_SOLVER_KINSOL) {
    snprintf(err, errlen,
             "--solver kinsol works in double precision only (Debian's SUNDIALS "
             "is built for double); use --solver newton with --precision quad");
    return VI_EINVAL;
  }
#endif
  if (a->rtol && VI_X(vi_parse_positive)("--rtol", a->rtol, &so->rtol, err, errlen)) {
    return VI_EINVAL;
  }
  if (so->rtol < VI_EPS) {
    snprintf(err, errlen, "--rtol %s is below the %s precision's epsilon %.3g and "
             "cannot be met; use --precision quad or a larger --rtol",
             a->rtol, VI_PREC_NAME, (double)VI_EPS);
    return VI_EINVAL;
  }
  if (a->max_iter > 0) {
    so->max_iter = a->max_iter;
  }
  return VI_OK;
}

int VI_X(vi_steps_of)(VI_REAL T, const char *Ttext, VI_REAL h, const char *htext,
                      long *N, char *err, size_t errlen) {
  VI_REAL ratio = T / h;
  if (!(ratio < VI_C(9.0e18))) {
    snprintf(err, errlen, "T/h = %.3g steps (T = %s, h = %s) is beyond any run; choose a larger "
             "h or a smaller T", (double)ratio, Ttext, htext);
    return VI_EINVAL;
  }
  long k = (long)vi_floor(ratio + VI_C(0.5));
  if (k < 1 || vi_fabs(ratio - (VI_REAL)k) > VI_C(1e-9) * ratio) {
    snprintf(err, errlen,
             "final time T = %s is not a whole multiple of h = %s (T/h = %.6g); "
             "choose h = T/N for an integer N",
             Ttext, htext, (double)ratio);
    return VI_EINVAL;
  }
  *N = k;
  return VI_OK;
}

/* Columns of the CSV of a system (t, q, p, lambda, energy, g_norm,
 * gv_norm, momenta). */
static int VI_X(csv_columns)(const VI_X(vi_system) *sys) {
  const vi_system_info *info = sys->type->info;
  return 1 + 2 * sys->n + sys->ml +
         (sys->type->degen ? 2 : (sys->type->lie ? 1 : 3) + (sys->m_nh > 0)) + (VI_X(vi_type_has_momenta)(sys->type) ? info->n_momenta : 0);
}

/* Nodes of a reference trajectory held in memory at once. */
#define VI_RUN_MAX_REF_NODES 10000000L

/* `run --method reference`: the reference solution of order studies
 * (vi_reference: the exact solution, or the independent integration of
 * the form's equations) at the nodes k h, in the layout of `run`. */
static int VI_X(run_reference)(const VI_X(vi_system) *sys, VI_REAL h, long nsteps, long every,
                               FILE *f, VI_REAL *work, int quiet, char *err, size_t errlen) {
  const int n = sys->n, m = sys->ml;
  const size_t rows = (size_t)nsteps + 1;
  VI_REAL *Q = malloc(rows * (size_t)(2 * n + m) * sizeof *Q);
  if (!Q) {
    snprintf(err, errlen, "out of memory for %ld reference nodes", nsteps + 1);
    return VI_ENOMEM;
  }
  VI_REAL *P = Q + rows * (size_t)n, *L = P + rows * (size_t)n;
  VI_X(vi_reference_info) info;
  int rc = VI_X(vi_reference)(sys, h, nsteps, Q, P, L, NULL, &info, err, errlen);
  if (rc == VI_OK) {
    VI_X(write_header)(f, sys);
    for (long k = 0; rc == VI_OK && k <= nsteps; k++) {
      if (k % every != 0 && k != nsteps) {
        continue;
      }
      VI_X(vi_node) nd = {(VI_REAL)k * h, Q + (size_t)k * (size_t)n, P + (size_t)k * (size_t)n,
                          L + (size_t)k * (size_t)m};
      rc = VI_X(write_row)(f, sys, &nd, work);
    }
    if (rc != VI_OK) {
      snprintf(err, errlen, "%s evaluating the reference's energy or residuals",
               vi_strerror(rc));
    } else if (!quiet) {
      fprintf(stderr, "vistudy run: reference of %s, %s precision: %s (estimated accuracy %.1e)\n",
              sys->type->info->name, VI_PREC_NAME, info.method, info.accuracy);
    }
  }
  free(Q);
  return rc;
}

/* The observer of `run`: every K-th node and the last go to the CSV. */
typedef struct VI_X(run_obs) {
  FILE *f;
  const VI_X(vi_system) *sys;
  VI_REAL *work;
  long every, N, written;
  int wrc; /* a failure of write_row (not of the method) */
} VI_X(run_obs);

static int VI_X(run_observe)(void *ctx, long k, const VI_X(vi_node) *nd) {
  VI_X(run_obs) *r = ctx;
  if (k % r->every != 0 && k != r->N) {
    return VI_OK;
  }
  int rc = VI_X(write_row)(r->f, r->sys, nd, r->work);
  if (rc != VI_OK) {
    r->wrc = rc;
    return rc;
  }
  r->written++;
  return VI_OK;
}

int VI_X(vi_run)(const vi_run_args *ra, char *err, size_t errlen) {
  const vi_common_args *a = &ra->c;
  int status = VI_EXIT_USAGE;
  VI_X(vi_system) *sys = NULL;
  VI_X(vi_stepper) *st = NULL;
  VI_REAL *buf = NULL;
  FILE *f = ra->out;
  const char *fname = ra->out_name ? ra->out_name : "the output";
  VI_REAL h = 0, T = 0;
  const VI_X(vi_system_type) *type = VI_X(vi_system_find)(a->system, err, errlen);
  if (!type) {
    goto fail;
  }
  int rc = VI_X(vi_system_alloc)(type, a->nset, a->set, &sys, err, errlen);
  if (rc != VI_OK) {
    if (rc != VI_EINVAL && rc != VI_EINCONSISTENT) {
      status = VI_EXIT_FAIL; /* out of memory, a failing callback */
    }
    goto fail;
  }
  long nsteps = 0;
  VI_X(vi_solver_opts) so;
  if (VI_X(vi_parse_positive)("step size h", ra->h, &h, err, errlen) ||
      VI_X(vi_parse_positive)("final time T", a->T, &T, err, errlen) ||
      VI_X(vi_steps_of)(T, a->T, h, ra->h, &nsteps, err, errlen) ||
      VI_X(vi_solver_opts_parse)(a, &so, err, errlen)) {
    goto fail;
  }
  /* A run that cannot finish, or would fill the disk, is refused before it
   * starts: the limits are stated in the README ("Outputs"). */
  const long every = ra->every > 1 ? ra->every : 1;
  const double rows = (double)(nsteps / every + 1 + (nsteps % every != 0));
  const double bytes = rows * VI_X(csv_columns)(sys) * (VI_DIG + 8);
  if (!ra->force && nsteps > VI_RUN_MAX_STEPS) {
    snprintf(err, errlen,
             "T/h = %ld steps is above the limit of %ld steps of one run; choose a larger "
             "h or a smaller T, or pass --force to run it anyway",
             nsteps, VI_RUN_MAX_STEPS);
    goto fail;
  }
  if (!ra->force && ra->out_is_file && bytes > VI_RUN_MAX_BYTES) {
    double k = ceil(bytes / VI_RUN_MAX_BYTES * (double)every);
    snprintf(err, errlen,
             "the run would write about %.3g GB to %s (%.0f nodes), above the limit of "
             "%.3g GB; write every K-th node with --every K (K >= %.0f), or pass --force",
             bytes / 1e9, fname, rows, VI_RUN_MAX_BYTES / 1e9, k);
    goto fail;
  }
  const int is_ref = a->method && strcmp(a->method, "reference") == 0;
  if (is_ref && nsteps + 1 > VI_RUN_MAX_REF_NODES) {
    snprintf(err, errlen,
             "the reference is computed in memory: at most %ld nodes (T/h = %ld steps "
             "give %ld); choose a larger h or a smaller T",
             VI_RUN_MAX_REF_NODES, nsteps, nsteps + 1);
    goto fail;
  }
  if (!is_ref && VI_X(vi_stepper_alloc)(a->method, sys, &st, err, errlen) != VI_OK) {
    goto fail;
  }
  const int n = sys->n, m = sys->ml;
  const int nwork = n + 8 + (m > n ? m : n);
  buf = calloc((size_t)(2 * n + m + nwork), sizeof *buf);
  if (!buf) {
    snprintf(err, errlen, "out of memory");
    status = VI_EXIT_FAIL;
    goto fail;
  }
  VI_X(vi_node) node = {0, buf, buf + n, buf + 2 * n};
  VI_REAL *work = buf + 2 * n + m;
  status = VI_EXIT_FAIL;
  if (is_ref) {
    if (VI_X(run_reference)(sys, h, nsteps, every, f, work, ra->quiet, err, errlen) == VI_OK) {
      status = VI_EXIT_OK;
    }
    goto fail;
  }
  double t_start = VI_X(now)();
  VI_X(write_header)(f, sys);
  VI_X(run_obs) ro = {f, sys, work, every, nsteps, 0, VI_OK};
  long k = -1;
  rc = VI_X(vi_integrate)(st, &so, h, nsteps, sys->q0, sys->p0, &node, VI_X(run_observe), &ro,
                          &k);
  long written = ro.written;
  if (k < 0) {
    /* The method's lambda_0 comes from its first solve, which failed: the
     * initial node is written with the initial data and lambda = NaN. */
    memcpy(node.q, sys->q0, (size_t)n * sizeof *node.q);
    memcpy(node.p, sys->p0, (size_t)n * sizeof *node.p);
    for (int i = 0; i < m; i++) {
      node.lambda[i] = (VI_REAL)NAN;
    }
    node.t = 0;
    if (VI_X(write_row)(f, sys, &node, work) == VI_OK) {
      written++;
    }
    k = 0;
  }
  double elapsed = VI_X(now)() - t_start;
  if (fflush(f) != 0 || ferror(f)) {
    snprintf(err, errlen, "write error on %s: %s", fname, strerror(errno));
    goto fail;
  }
  char spec[256];
  VI_X(vi_stepper_spec)(st, spec, sizeof spec);
  if (rc != VI_OK && ro.wrc != VI_OK) {
    snprintf(err, errlen, "%s evaluating the energy or residuals of node %ld; the %ld node%s "
             "written so far %s in %s", vi_strerror(rc), k, written, written == 1 ? "" : "s",
             written == 1 ? "is" : "are", fname);
    goto fail;
  }
  if (rc != VI_OK) {
    snprintf(err, errlen,
             "%s computing step %ld (t = %.17g) with %s on %s: %s; the %ld "
             "node%s written so far %s in %s%s",
             rc > 0 ? "recoverable failure" : "failure", k + 1, (double)((VI_REAL)k * h),
             spec, type->info->name, vi_strerror(rc), written, written == 1 ? "" : "s",
             written == 1 ? "is" : "are", fname,
             rc > 0 ? "; try another h, a looser --rtol or a larger --max-iter" : "");
    goto fail;
  }
  if (!ra->quiet) {
    const VI_X(vi_stats) *stt = VI_X(vi_stepper_stats)(st);
    fprintf(stderr,
            "vistudy run: %s on %s, %s precision, %s solver: %ld steps of h = %s "
            "to T = %s, %d unknowns/step, %.2f Newton iterations/step (max %ld), "
            "%.3f s\n",
            spec, type->info->name, VI_PREC_NAME,
            so.kind == VI_SOLVER_KINSOL ? "kinsol" : "newton", stt->steps, ra->h,
            a->T, stt->unknowns,
            stt->steps ? (double)stt->newton_iters / (double)stt->steps : 0.0,
            stt->newton_iters_max, elapsed);
  }
  status = VI_EXIT_OK;
fail:
  free(buf);
  VI_X(vi_stepper_free)(st);
  VI_X(vi_system_free)(sys);
  return status;
}

static void VI_X(print_line)(void *ctx, const char *line) {
  FILE *f = ctx;
  fprintf(f, "%s\n", line);
}

int VI_X(vi_check)(const char *system, int nset, const char *const *set,
                   char *err, size_t errlen) {
  const VI_X(vi_system_type) *type = VI_X(vi_system_find)(system, err, errlen);
  if (!type) {
    return VI_EXIT_USAGE;
  }
  VI_X(vi_system) *sys = NULL;
  if (VI_X(vi_system_alloc)(type, nset, set, &sys, err, errlen) != VI_OK) {
    return VI_EXIT_USAGE;
  }
  int failed = VI_X(vi_system_check)(sys, 4, VI_X(print_line), stdout);
  VI_X(vi_system_free)(sys);
  if (failed != 0) {
    snprintf(err, errlen, "%s (%s): %d derivative check%s failed", system,
             VI_PREC_NAME, failed < 0 ? 1 : failed, failed == 1 ? "" : "s");
    return VI_EXIT_FAIL;
  }
  return VI_EXIT_OK;
}
