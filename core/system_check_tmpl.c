/* system_check_tmpl.c: the finite-difference check of every hand-written
 * derivative of a system (vi_system_check, `vistudy check`). The pairs
 * (a function, its derivative, the sizes and the argument perturbed) are
 * data declared next to each ops table (vi_fd_pair: form_mech_tmpl.c,
 * form_degen_tmpl.c, form_lie_tmpl.c, nh_tmpl.c); the form table lists them
 * in report order with the form's own checks at each probe. Two drivers
 * evaluate them:
 *   coordinates (mechanical, degenerate form): probe points q0 + offsets
 *   that leave the constraint manifold on purpose, central differences at
 *   h and h/2 combined by Richardson extrapolation;
 *   group (Lie form): g0 cay(x), central differences along the directions
 *   the pair names: coordinates of xi, left-trivialised g cay(eps e_b), the
 *   chart of a group map.
 * Each check is one line "SYSTEM NAME at WHERE: ... ok|FAIL", or "not
 * checked" when no step of the differences stays in the domain of the
 * callback or lets them settle (fd_compare halves the step first: a probe
 * near the edge of Lotka-Volterra's u, v > 0). Compiled once per
 * precision. */
#include <stdio.h>

#include "system_impl.h"

void VI_X(vi_fd_line)(fd_run *r, const char *line) {
  if (r->report != NULL) {
    r->report(r->ctx, line);
  }
}

static int rows_of(const sys_impl *s, int rows) {
  switch (rows) {
  case FD_ROWS_1:
    return 1;
  case FD_ROWS_N:
    return s->pub.n;
  case FD_ROWS_M:
    return s->pub.m;
  case FD_ROWS_MNH:
    return s->pub.m_nh;
  default:
    return s->pub.nq;
  }
}

static VI_REAL frac(VI_REAL x) {
  return x - vi_floor(x);
}

/* The golden ratio's fractional parts k*phi mod 1 are a fixed,
 * well-spread sequence: deterministic probes without rand(). */
static const VI_REAL golden = VI_C(0.618033988749894848204586834365638118);

/* The ratio of the largest difference between J and D (nf x n) to the
 * largest of |J|, |D| and scale, so exact zeros in J do not divide by
 * zero; NaN anywhere makes it NaN. */
static VI_REAL rel_err(int nf, int n, const VI_REAL *J, const VI_REAL *D, VI_REAL scale) {
  VI_REAL sj = VI_X(vi_norm_inf)(nf * n, J);
  VI_REAL sd = VI_X(vi_norm_inf)(nf * n, D);
  /* A derivative that vanishes where the function does (a spring at its
   * rest length: betsch-ggl's four-particle data (127)) has no size to be
   * relative to: the differences' rounding over themselves is always 1.
   * The error is then absolute, as col_err's is with the same scale. */
  if (sj == 0 && scale == 0) {
    sd = 0;
  }
  scale = sj > scale ? sj : scale;
  scale = sd > scale ? sd : scale;
  VI_REAL e = 0;
  for (int i = 0; i < nf * n; i++) {
    VI_REAL d = vi_fabs(D[i] - J[i]);
    if (d > e || d != d) {
      e = d;
    }
  }
  return scale > 0 ? e / scale : e;
}

/* The pair's derivative at the point into r->J: 1, or 0 when the table
 * lacks it (a failure, said so). *rc: the callback's status. */
static int pair_df(fd_run *r, const vi_fd_pair *pr, const fd_point *pt, const char *where,
                   int *rc) {
  int have = 0;
  *rc = pr->df(r->s, pt, r->J, &have, r->tmp);
  if (!have) {
    char line[256];
    r->failures++;
    snprintf(line, sizeof line, "%s %s at %s: callback missing FAIL", r->name, pr->name, where);
    VI_X(vi_fd_line)(r, line);
  }
  return have;
}

/* The line of a callback that failed while checking the pair. A
 * recoverable refusal at the point itself is not a wrong derivative: the
 * point is outside the callback's domain, or its values are not finite in
 * this precision (lotka-volterra's 1/u^2 at u = 1e-300 in double), so
 * nothing can be integrated from it either; said so. */
static void pair_failed(fd_run *r, const vi_fd_pair *pr, const char *where, int rc) {
  char line[384];
  if (rc > 0) {
    snprintf(line, sizeof line,
             "%s %s at %s: callback refused the point itself (status %d: outside its domain, "
             "or not finite in " VI_PREC_NAME " precision); a run from it cannot start either",
             r->name, pr->name, where, rc);
  } else {
    snprintf(line, sizeof line, "%s %s at %s: callback failed with status %d", r->name,
             pr->name, where, rc);
  }
  VI_X(vi_fd_line)(r, line);
}

/* The verdict of a pair: its error e against the tolerance. */
/* The tolerance of a pair's verdict: about eps^(2/3) (the accuracy of a
 * central difference) with room. */
static VI_REAL pair_tol(void) {
  return 100 * vi_pow(VI_EPS, 2 / VI_C(3.0));
}

static void pair_verdict(fd_run *r, const vi_fd_pair *pr, const char *where, VI_REAL e) {
  const VI_REAL tol = pair_tol();
  char line[256];
  int ok = e <= tol;
  r->failures += !ok;
  snprintf(line, sizeof line, "%s %s at %s: max rel err %.1e (tol %.1e) %s", r->name, pr->name,
           where, (double)e, (double)tol, ok ? "ok" : "FAIL");
  VI_X(vi_fd_line)(r, line);
}

/* ---- coordinates of R^n -------------------------------------------------------- */

/* Whether f's values are finite: a value that is not is a point outside
 * the callback's domain as much as a refusal is (a callback may compute
 * log 0 = -inf instead of refusing). */
static int all_finite(int nf, const VI_REAL *f) {
  for (int i = 0; i < nf; i++) {
    if (!vi_isfinite(f[i])) {
      return 0;
    }
  }
  return 1;
}

/* f at x into out: the callback's status, or 1 (outside the domain) for
 * values that are not finite. */
static int fd_eval(const sys_impl *s, const vi_fd_pair *pr, const fd_point *pt,
                   const VI_REAL *x, int nf, VI_REAL *out, VI_REAL *tmp) {
  int rc = pr->f(s, pt, x, pt->v, out, tmp);
  return rc == 0 && !all_finite(nf, out) ? 1 : rc;
}

/* Column j of the central differences at the steps h and h/2, combined by
 * Richardson extrapolation (4 D(h/2) - D(h)) / 3 into D: 0, the status of
 * a callback that failed, or > 0 when a point x +- h or x +- h/2 is
 * outside the callback's domain. */
static int fd_column(const sys_impl *s, const vi_fd_pair *pr, const fd_point *pt, int nf, int j,
                     VI_REAL h, VI_REAL *x, VI_REAL *fp, VI_REAL *fm, VI_REAL *D,
                     VI_REAL *tmp) {
  const int n = s->pub.n;
  const VI_REAL xj = pt->q[j];
  int rc = 0;
  for (int half = 0; rc == 0 && half < 2; half++) {
    const VI_REAL hh = half ? h / 2 : h;
    const VI_REAL xp = xj + hh, xm = xj - hh;
    x[j] = xp;
    rc = fd_eval(s, pr, pt, x, nf, fp, tmp);
    if (rc == 0) {
      x[j] = xm;
      rc = fd_eval(s, pr, pt, x, nf, fm, tmp);
    }
    /* Divide by the step actually taken (xp - xm is exact here). */
    for (int i = 0; rc == 0 && i < nf; i++) {
      VI_REAL d = (fp[i] - fm[i]) / (xp - xm);
      D[i * n + j] = half ? (4 * d - D[i * n + j]) / 3 : d;
    }
  }
  x[j] = xj;
  return rc;
}

/* The largest difference between column j of D and of J (nf x n) over
 * scale. */
static VI_REAL col_err(int nf, int n, int j, const VI_REAL *J, const VI_REAL *D, VI_REAL scale) {
  VI_REAL e = 0;
  for (int i = 0; i < nf; i++) {
    VI_REAL d = vi_fabs(D[i * n + j] - J[i * n + j]);
    e = d > e || d != d ? d : e;
  }
  return scale > 0 ? e / scale : e;
}

/* Max relative error of the analytic nf x n Jacobian J of the pair's f at
 * the point against central differences in the coordinates of q. The
 * error is relative to the largest of |J|, the differences and |f(q)| /
 * max(1, |q|) (the size of the rounding error of a difference quotient).
 * 0 or the status of a callback that failed; *jout is -1, or the
 * coordinate j along which no difference could be trusted (then 0 is
 * returned, *err_out is not set and *outside says whether the differences
 * left the callback's domain or did not settle). */
static int fd_compare(const sys_impl *s, const vi_fd_pair *pr, const fd_point *pt, int nf,
                      const VI_REAL *J, VI_REAL tol, VI_REAL *work, VI_REAL *err_out,
                      int *jout, int *outside) {
  const int n = s->pub.n;
  const VI_REAL *x0 = pt->q;
  VI_REAL *x = work, *f0 = x + n, *fp = f0 + nf, *fm = fp + nf, *prev = fm + nf;
  VI_REAL *D = prev + nf, *tmp = D + nf * n;
  memcpy(x, x0, (size_t)n * sizeof *x);
  *jout = -1;
  int rc = fd_eval(s, pr, pt, x, nf, f0, tmp);
  if (rc != 0) {
    return rc;
  }
  VI_REAL one = 1;
  VI_REAL xs = VI_X(vi_norm_inf)(n, x0);
  xs = xs > one ? xs : one;
  /* The scale of a column's error: at most rel_err's, so a column that
   * passes here passes there. */
  VI_REAL scale = VI_X(vi_norm_inf)(nf * n, J);
  const VI_REAL fs = VI_X(vi_norm_inf)(nf, f0) / xs;
  scale = fs > scale ? fs : scale;
  /* Step eps^(1/3) balances the O(h^2) truncation against the O(eps / h)
   * rounding error of a central difference; the differences at h and h/2
   * are combined by Richardson extrapolation (4 D(h/2) - D(h)) / 3, whose
   * truncation error is O(h^4). Near a singularity of the callback (log u
   * at small u, the edge of its domain) that step may still be too long:
   * a column that does not match J is recomputed at half the step, and
   * again, until it matches (a correct derivative), or until the
   * extrapolated difference has settled, moving by less than an eighth of
   * its distance from J between two steps (a wrong derivative: the
   * verdict fails), or until the step reaches sqrt(eps) |x_j|, below which
   * rounding swamps it (not checked: the differences do not settle). A
   * step whose points leave the callback's domain (a recoverable refusal
   * or values that are not finite) is halved likewise (not checked when no
   * step stays inside: the probe leaves the domain). A column that
   * matches at the first step is computed exactly as without any of
   * this. */
  const VI_REAL h0 = vi_pow(VI_EPS, 1 / VI_C(3.0));
  for (int j = 0; j < n; j++) {
    const VI_REAL a = vi_fabs(x0[j]);
    const VI_REAL floor = vi_sqrt(VI_EPS) * a;
    VI_REAL h = h0 * (a > one ? a : one);
    int have_prev = 0, done = 0;
    *outside = 0;
    for (int it = 0; !done && it < 200 && h > floor && h > 0; it++, h /= 2) {
      rc = fd_column(s, pr, pt, nf, j, h, x, fp, fm, D, tmp);
      if (rc < 0) {
        return rc;
      }
      if (rc > 0) {
        *outside = 1;
        have_prev = 0;
        continue;
      }
      *outside = 0;
      VI_REAL e = col_err(nf, n, j, J, D, scale), moved = 0;
      for (int i = 0; have_prev && i < nf; i++) {
        VI_REAL d = vi_fabs(D[i * n + j] - prev[i]) / (scale > 0 ? scale : 1);
        moved = d > moved || d != d ? d : moved;
      }
      done = e <= tol || e != e || (have_prev && moved <= e / 8);
      for (int i = 0; i < nf; i++) {
        prev[i] = D[i * n + j];
      }
      have_prev = 1;
    }
    if (!done) {
      *jout = j;
      return 0;
    }
  }
  *err_out = rel_err(nf, n, J, D, VI_X(vi_norm_inf)(nf, f0) / xs);
  return 0;
}

/* The line of a pair whose differences along q_j cannot be trusted at the
 * point (they leave the domain of its callback, or do not settle):
 * neither a pass nor a failure. */
static void pair_unchecked(fd_run *r, const vi_fd_pair *pr, const fd_point *pt,
                           const char *where, int j, int outside) {
  char line[512], at[320] = "";
  size_t used = 0;
  const int n = r->s->pub.n;
  for (int i = 0; i < n && used < sizeof at; i++) {
    int w = snprintf(at + used, sizeof at - used, "%s%.17g", i ? ", " : "", (double)pt->q[i]);
    used += w > 0 ? (size_t)w : 0;
  }
  if (outside) {
    snprintf(line, sizeof line,
             "%s %s at %s: not checked: the probe leaves the domain at q = (%s) (no step "
             "along q%d stays in the callback's domain)",
             r->name, pr->name, where, at, j + 1);
  } else {
    snprintf(line, sizeof line,
             "%s %s at %s: not checked: the differences along q%d do not settle at q = (%s) "
             "(a singularity within rounding distance)",
             r->name, pr->name, where, j + 1, at);
  }
  VI_X(vi_fd_line)(r, line);
  r->unchecked++;
}

/* One pair at one probe: 0, 1 when the callback refused the point (the
 * rest of the probe is skipped), or VI_ECALLBACK. */
static int coords_pair(fd_run *r, const vi_fd_pair *pr, const fd_point *pt, int probe,
                       const char *where, VI_REAL *fdw) {
  int rc = 0;
  if (!pair_df(r, pr, pt, where, &rc)) {
    return 0;
  }
  VI_REAL e = 0;
  int j = -1, outside = 0;
  if (rc == 0) {
    rc = fd_compare(r->s, pr, pt, rows_of(r->s, pr->rows), r->J, pair_tol(), fdw, &e, &j,
                    &outside);
  }
  if (rc == 0 && j >= 0) {
    pair_unchecked(r, pr, pt, where, j, outside);
    return 0;
  }
  if (rc > 0 && probe > 0) {
    /* A perturbed point outside the domain of a callback (a recoverable
     * refusal, e.g. log of a negative coordinate): the probe is skipped,
     * said so, and not counted either way. */
    char line[256];
    snprintf(line, sizeof line,
             "%s %s at %s: callback refused the point (status %d, outside its "
             "domain): probe skipped",
             r->name, pr->name, where, rc);
    VI_X(vi_fd_line)(r, line);
    return 1;
  }
  if (rc != 0) {
    pair_failed(r, pr, where, rc);
    /* Always < 0 here, whatever the callback's sign: a check that cannot
     * run is not a pass. */
    return VI_ECALLBACK;
  }
  pair_verdict(r, pr, where, e);
  return 0;
}

/* Every pair that applies, in the form's order: 0 or VI_ECALLBACK. */
static int coords_probe(fd_run *r, const fd_point *pt, int probe, const char *where,
                        VI_REAL *fdw) {
  for (const vi_fd_pair *const *t = r->s->form->pairs; *t != NULL; t++) {
    for (const vi_fd_pair *pr = *t; pr->name != NULL; pr++) {
      if (pr->applies != NULL && !pr->applies(r->s)) {
        continue;
      }
      int rc = coords_pair(r, pr, pt, probe, where, fdw);
      if (rc != 0) {
        return rc > 0 ? 0 : rc;
      }
    }
  }
  return 0;
}

int VI_X(vi_check_coords)(const sys_impl *s, int nprobe, void (*report)(void *, const char *),
                          void *ctx) {
  /* m counts every multiplier (the probes' mu serve G and A alike). */
  const int n = s->pub.n, m = s->pub.ml;
  /* J, D (n x n), q, v, mu, then fd_compare's x, f0, f+, f-, the previous
   * column, its D and the pairs' temporary. */
  const size_t nn = (size_t)n * (size_t)n, ntmp = VI_FD_TMP((size_t)n, (size_t)n, (size_t)m);
  size_t nwork = 3 * nn + 7 * (size_t)n + (size_t)m + 2 * ntmp;
  VI_REAL *work = malloc(nwork * sizeof *work);
  if (work == NULL) {
    return VI_ENOMEM;
  }
  fd_run r = {s, s->pub.type->info->name, report, ctx, 0, work, work + nn, work + 2 * nn, 0};
  VI_REAL *q = r.tmp + ntmp, *v = q + n, *mu = v + n, *fdw = mu + m;
  int status = 0;
  VI_REAL qs = VI_X(vi_norm_inf)(n, s->pub.q0);
  qs = qs > 1 ? qs : 1;
  for (int probe = 0; probe <= nprobe && status == 0; probe++) {
    /* Probe 0 is q0; the others perturb every coordinate by up to
     * 0.25 max(1, |q0|), which leaves the constraint manifold on purpose. */
    for (int i = 0; i < n; i++) {
      VI_REAL u = frac((probe * (n + m) + i + 1) * golden) - VI_C(0.5);
      q[i] = s->pub.q0[i] + (probe == 0 ? 0 : u * qs / 2);
    }
    for (int k = 0; k < m; k++) {
      mu[k] = VI_C(0.5) + frac((probe * (n + m) + n + k + 1) * golden);
    }
    /* A velocity in [-1, 1)^n: the kinetic derivatives vanish at v = 0,
     * where most initial data start. */
    for (int i = 0; i < n; i++) {
      v[i] = 2 * frac((probe * (n + m) + i + VI_C(0.5)) * golden * golden) - 1;
    }
    char where[32];
    if (probe == 0) {
      snprintf(where, sizeof where, "q0");
    } else {
      snprintf(where, sizeof where, "probe %d", probe);
    }
    const fd_point pt = {q, v, v, mu, NULL, NULL};
    if (s->form->probe_pre != NULL) {
      status = s->form->probe_pre(&r, &pt, probe, where);
    }
    if (status == 0) {
      status = coords_probe(&r, &pt, probe, where, fdw);
    }
    if (status == 0 && s->form->probe_post != NULL) {
      status = s->form->probe_post(&r, &pt, probe, where);
    }
  }
  if (r.unchecked > 0) {
    char line[256];
    snprintf(line, sizeof line,
             "%s: %d derivative check%s not checked: no finite difference could be trusted "
             "(neither passed nor failed)",
             r.name, r.unchecked, r.unchecked == 1 ? "" : "s");
    VI_X(vi_fd_line)(&r, line);
  }
  free(work);
  return status != 0 ? status : r.failures;
}

/* ---- a Lie group -------------------------------------------------------------- */

/* Central differences of the pair's f along direction b of its argument:
 * the group direction g cay(eps e_b) (FD_CONFIG), else the coordinate b of
 * the vector argument around base. fp, fm: nf values each. */
static int group_diff(const sys_impl *s, const vi_fd_pair *pr, const fd_point *pt,
                      const VI_REAL *base, int b, VI_REAL hb, VI_REAL *fp, VI_REAL *fm,
                      VI_REAL *dir, VI_REAL *gp, VI_REAL *gg, VI_REAL *tmp) {
  const VI_X(vi_space_ops) *sp = s->pub.type->space;
  const int n = s->pub.n;
  int rc = 0;
  for (int sgn = 0; rc == 0 && sgn < 2; sgn++) {
    VI_REAL e = sgn ? -hb : hb;
    VI_REAL *out = sgn ? fm : fp;
    if (pr->dir == FD_CONFIG) {
      for (int j = 0; j < n; j++) {
        dir[j] = j == b ? e : 0;
      }
      rc = sp->cay(s->pub.state, dir, gp);
      if (rc == 0) {
        rc = sp->compose(s->pub.state, pt->q, gp, gg);
        if (rc == 0) {
          rc = pr->f(s, pt, gg, base, out, tmp);
        }
      }
    } else {
      memcpy(dir, base, (size_t)n * sizeof *dir);
      dir[b] += e;
      rc = pr->f(s, pt, pt->q, dir, out, tmp);
    }
  }
  return rc;
}

/* One pair at one probe of the group driver: 0 or VI_ECALLBACK. v: 2 n +
 * 5 nq reals of the driver (base, f0, f+, f-, direction, two group
 * elements). */
static int group_pair(fd_run *r, const vi_fd_pair *pr, const fd_point *pt, const char *where,
                      VI_REAL *v) {
  const sys_impl *s = r->s;
  const int n = s->pub.n, nq = s->pub.nq;
  const VI_REAL h0 = vi_pow(VI_EPS, 1 / VI_C(3.0));
  VI_REAL *base = v, *f0 = base + n, *fp = f0 + nq, *fm = fp + nq, *dir = fm + nq;
  VI_REAL *gp = dir + n, *gg = gp + nq;
  const int nf = rows_of(s, pr->rows);
  int rc = 0;
  if (!pair_df(r, pr, pt, where, &rc)) {
    return 0;
  }
  /* The base argument of the differences: xi, X (dcay) or the chart
   * origin (the group maps). */
  const int chart = pr->dir == FD_CHART;
  for (int i = 0; i < n; i++) {
    base[i] = pr->dir == FD_ALG ? pt->X[i] : chart ? 0 : pt->v[i];
  }
  if (rc == 0) {
    rc = pr->f(s, pt, pt->q, base, f0, r->tmp);
  }
  for (int b = 0; rc == 0 && b < n; b++) {
    VI_REAL hb = pr->dir == FD_CONFIG || chart
                     ? h0
                     : h0 * (vi_fabs(base[b]) > 1 ? vi_fabs(base[b]) : 1);
    rc = group_diff(s, pr, pt, base, b, hb, fp, fm, dir, gp, gg, r->tmp);
    for (int i = 0; rc == 0 && i < nf; i++) {
      r->D[i * n + b] = (fp[i] - fm[i]) / (2 * hb);
    }
  }
  if (rc != 0) {
    pair_failed(r, pr, where, rc);
    return VI_ECALLBACK;
  }
  pair_verdict(r, pr, where, rel_err(nf, n, r->J, r->D, VI_X(vi_norm_inf)(nf, f0)));
  return 0;
}

/* The point of a probe: probe 0 is (g0, xi0); the others move g along the
 * group and pick a velocity, an auxiliary vector (w, mu, eta) and a small
 * algebra element X (for dcay). */
static int group_point(const sys_impl *s, int probe, VI_REAL *g, VI_REAL *xi, VI_REAL *aux,
                       VI_REAL *X, VI_REAL *x, VI_REAL *gp) {
  const int n = s->pub.n;
  const VI_X(vi_space_ops) *sp = s->pub.type->space;
  for (int i = 0; i < n; i++) {
    VI_REAL u = frac((probe * (n + 3) + i + 1) * golden) - VI_C(0.5);
    x[i] = probe == 0 ? 0 : u;
    xi[i] = probe == 0 ? s->pub.v0[i] : 2 * frac((probe * n + i + VI_C(0.5)) * golden * golden) - 1;
    aux[i] = VI_C(0.5) + frac((probe * (n + 5) + i + 2) * golden);
    X[i] = VI_C(0.3) * (frac((probe * 7 + i + 3) * golden) - VI_C(0.5));
  }
  int rc = sp->cay(s->pub.state, x, gp);
  if (rc == 0) {
    rc = sp->compose(s->pub.state, s->pub.q0, gp, g);
  }
  return rc != 0 ? VI_ECALLBACK : VI_OK;
}

int VI_X(vi_check_group)(const sys_impl *s, int nprobe, void (*report)(void *, const char *),
                         void *ctx) {
  const int n = s->pub.n, nq = s->pub.nq;
  if (n > 64 || nq > 64) {
    return VI_EINVAL;
  }
  /* J, D (nq x n), the pairs' temporary, the point (g: nq; xi, aux, X, x:
   * n) and group_pair's vectors (2 n + 5 nq). */
  const size_t jn = (size_t)nq * (size_t)n;
  const size_t ntmp = VI_FD_TMP((size_t)n, (size_t)nq, (size_t)s->pub.ml);
  VI_REAL *work = malloc((2 * jn + ntmp + 6 * (size_t)nq + 6 * (size_t)n) * sizeof *work);
  if (work == NULL) {
    return VI_ENOMEM;
  }
  fd_run r = {s, s->pub.type->info->name, report, ctx, 0, work, work + jn, work + 2 * jn, 0};
  VI_REAL *g = r.tmp + ntmp, *xi = g + nq, *aux = xi + n, *X = aux + n, *x = X + n;
  VI_REAL *pv = x + n;
  int status = VI_OK;
  for (int probe = 0; probe <= nprobe && status == VI_OK; probe++) {
    status = group_point(s, probe, g, xi, aux, X, x, pv);
    char where[32];
    snprintf(where, sizeof where, probe == 0 ? "g0" : "probe %d", probe);
    const fd_point pt = {g, xi, aux, aux, X, aux};
    if (status == VI_OK && s->form->probe_pre != NULL) {
      status = s->form->probe_pre(&r, &pt, probe, where);
    }
    for (const vi_fd_pair *const *t = s->form->pairs; status == VI_OK && *t != NULL; t++) {
      for (const vi_fd_pair *pr = *t; status == VI_OK && pr->name != NULL; pr++) {
        if (pr->applies == NULL || pr->applies(s)) {
          status = group_pair(&r, pr, &pt, where, pv);
        }
      }
    }
    if (status == VI_OK && s->form->probe_post != NULL) {
      status = s->form->probe_post(&r, &pt, probe, where);
    }
  }
  free(work);
  return status != VI_OK ? status : r.failures;
}
