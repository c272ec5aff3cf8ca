/* betsch_ggl.c: the table study betsch-ggl-orders as data (study.h): the
 * convergence orders §6 of betsch-ggl (Kinon, Betsch, Schneider) states for
 * its schemes (published values: ../shared/published/betsch_ggl_orders.csv,
 * read only to compare; no published number is ever written into a
 * measured column):
 *
 *   gyroscopic top (§6.2, Figs 18-19): VI-S, VI-B, BS99 first order, VI-A
 *   and EM second order, in q (e_q (113)) and p (e_p (114));
 *   four-particle system (§6.3, Figs 28-30): EM and EM-G second order in q
 *   and p, first order in lambda (e of q4, p4, lambda (128)).
 *
 * Each published row is a cell: an order study of the row's scheme
 * (labels as in the reading notes §1.0: VI-S = ggl:scheme=VI-S (55), VI-A =
 * ggl:scheme=VI-A (79), VI-B = ggl:scheme=VI-B (83), EM = em:variant=ggl
 * (84), EM-G = em:variant=gonzalez, BS99 = bs99, the Bobenko-Suris
 * Lagrange top of notes §1.6, whose d1, d2 come from its attitude
 * reconstruction (core/methods/bs99_tmpl.c)) with the errors at t = T (at_final, as
 * the paper measured them), judged: every published order (q, p, and
 * lambda where the row has one) equals the measured one rounded to the
 * nearest integer; a quantity without an ok fit has no measured order and
 * does not match.
 *
 * Choices the paper leaves open (notes §4 items 5-8; stated in every
 * output): the top with its default (metis) parameters, T = 0.001, h in
 * {1e-4, 5e-5, 2.5e-5, 1e-5, 5e-6, 2.5e-6, 1e-6} (metis's grid extended
 * down: VI-S's and VI-B's max-norm errors are still second-order dominated
 * above h = 2.5e-5, the fit takes the four finest errors above the floor),
 * reference the
 * exact steady precession (§2.2, the system's exact solution); the
 * four-particle system with the data (127) (its defaults), T = 0.1, h in
 * {1e-2, 5e-3, ..., 1e-4} (metis's grid with the halvings between),
 * reference the harness's integrated index-1
 * solution (rk8pd on (70); not a method under test; the paper used EM at
 * h = 1e-5). Our error is the max norm of the whole of q (p, lambda) at
 * t = T; the paper's e_q on the top is the relative error of phi3 only
 * (113) and e_p that of p_phi (114), and on the four-particle system those
 * of q4 and p4 (128). The orders are what is compared. Beside the judged
 * orders each cell reports, not judged: the orders of the paper's own
 * quantities ((113)-(114), (128)) from the same runs, and for EM and EM-G
 * the order of lambda^N against lambda(T - h/2) (notes §1.4 and item 12:
 * lambda^{n+1} approximates lambda(t^{n+1/2}) to second order; the paper's
 * first order is that of the comparison with lambda(t^{n+1})).
 *
 * Precision: VI_PRECISION_AUTO (double, rerun in quad only when a quantity
 * cannot get four errors above the floor of double; every error here is
 * far above it). The extra quantities are measured in double.
 *
 * Each finished cell goes to the cell store results/ID.partial.json
 * (cells.h); a rerun resumes from it unless --fresh, recomputing every
 * verdict from the stored measurement and the published table as it is. */
#include "specs.h"
#include "cells.h"
#include "emit.h"
#include "published.h"
#include "report.h"
#include "study.h"
#include "vistudy.h"

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BG_NH 7
#define BG_TOP "gyro-top"
#define BG_4P "four-particle"

/* The runs of each system (choices stated in the outputs). */
typedef struct bg_setup {
  const char *system;
  double T;
  const char *T_text;
  double h[BG_NH];
  const char *h_text;
  const char *reference;  /* what the reference is meant to be */
  const char *paper_q, *paper_p; /* the paper's quantities */
} bg_setup;

static const bg_setup bg_setups[2] = {
    {BG_TOP, 0.001, "0.001", {1e-4, 5e-5, 2.5e-5, 1e-5, 5e-6, 2.5e-6, 1e-6},
     "1e-4, 5e-5, 2.5e-5, 1e-5, 5e-6, 2.5e-6, 1e-6",
     "exact", "phi3 (113)", "p_phi (114)"},
    {BG_4P, 0.1, "0.1", {1e-2, 5e-3, 2.5e-3, 1e-3, 5e-4, 2.5e-4, 1e-4},
     "1e-2, 5e-3, 2.5e-3, 1e-3, 5e-4, 2.5e-4, 1e-4",
     "integrated index-1", "q4 (128)", "p4 (128)"},
};

static const char *const bg_quantity[VI_NQUANT] = {"q", "p", "lambda"};
/* The extra (not judged) quantities. */
enum { BG_XQ, BG_XP, BG_XLH, BG_NX };
static const char *const bg_xname[BG_NX] = {"paper_q", "paper_p", "lambda_half"};

typedef struct bg_cell {
  int sys;           /* index into bg_setups */
  char scheme[8];    /* the paper's label */
  char spec[64];     /* the method spec */
  int pub[VI_NQUANT]; /* published order, -1 where the paper states none */
  /* the measurement */
  char method[256], precision[8], reference[256];
  double order[VI_NQUANT], residual[VI_NQUANT];
  char meas[VI_NQUANT][16];
  double err[VI_NQUANT][BG_NH];
  double xorder[BG_NX], xresidual[BG_NX];
  char xmeas[BG_NX][16];
  double xerr[BG_NX][BG_NH];
  double seconds;
  /* the verdict, recomputed on every run */
  int match[VI_NQUANT];
  int matched;
  int done;
} bg_cell;

/* ---- the published table ------------------------------------------------ */

enum { BG_SYSTEM, BG_SCHEME, BG_OQ, BG_OP, BG_OL, BG_SOURCE };
static const vi_field bg_fields[] = {
    {"system", VI_FIELD_CHOICE, 0, 0, BG_TOP "|" BG_4P},
    {"scheme", VI_FIELD_CHOICE, 0, 0, "VI-S|VI-A|VI-B|EM|EM-G|BS99"},
    {"order_q", VI_FIELD_INT | VI_FIELD_OPTIONAL, 1, 99, NULL},
    {"order_p", VI_FIELD_INT | VI_FIELD_OPTIONAL, 1, 99, NULL},
    {"order_lambda", VI_FIELD_INT | VI_FIELD_OPTIONAL, 1, 99, NULL},
    {"source", VI_FIELD_TEXT, 0, 0, NULL},
    {NULL, 0, 0, 0, NULL},
};

/* The method of a label (notes §1.0), or NULL for an unknown label. */
static const char *bg_method_of(const char *scheme) {
  static const char *const map[][2] = {{"VI-S", "ggl:scheme=VI-S"},
                                       {"VI-A", "ggl:scheme=VI-A"},
                                       {"VI-B", "ggl:scheme=VI-B"},
                                       {"EM", "em:variant=ggl"},
                                       {"EM-G", "em:variant=gonzalez"},
                                       {"BS99", "bs99"}};
  for (size_t i = 0; i < sizeof map / sizeof map[0]; i++) {
    if (strcmp(scheme, map[i][0]) == 0) {
      return map[i][1];
    }
  }
  return NULL;
}

static void bg_unmeasured(bg_cell *c) {
  for (int x = 0; x < VI_NQUANT; x++) {
    c->order[x] = c->residual[x] = NAN;
    snprintf(c->meas[x], sizeof c->meas[x], "-");
    for (int i = 0; i < BG_NH; i++) {
      c->err[x][i] = NAN;
    }
  }
  for (int x = 0; x < BG_NX; x++) {
    c->xorder[x] = c->xresidual[x] = NAN;
    snprintf(c->xmeas[x], sizeof c->xmeas[x], "-");
    for (int i = 0; i < BG_NH; i++) {
      c->xerr[x][i] = NAN;
    }
  }
  c->seconds = NAN;
}

static int bg_read_cell(const vi_table_spec *t, void *c_, const vi_table *tab, int row,
                        const char *path, char *err, size_t errlen) {
  (void)t;
  bg_cell *c = c_;
  c->sys = strcmp(vi_table_at(tab, row, BG_SYSTEM), BG_TOP) == 0 ? 0 : 1;
  snprintf(c->scheme, sizeof c->scheme, "%s", vi_table_at(tab, row, BG_SCHEME));
  for (int x = 0; x < VI_NQUANT; x++) {
    c->pub[x] = vi_table_int(tab, row, BG_OQ + x); /* -1 when empty */
  }
  if (c->pub[VI_Q] < 0 && c->pub[VI_P] < 0 && c->pub[VI_LAMBDA] < 0) {
    snprintf(err, errlen, "%s:%d: the row states no order (order_q, order_p, order_lambda "
             "all empty)", path, tab->line[row]);
    return -1;
  }
  bg_unmeasured(c);
  const char *m = bg_method_of(c->scheme);
  if (!m) {
    snprintf(err, errlen, "%s:%d: unknown scheme '%s' (valid: VI-S, VI-A, VI-B, EM, EM-G, BS99)",
             path, tab->line[row], c->scheme);
    return -1;
  }
  snprintf(c->spec, sizeof c->spec, "%s", m);
  if (vi_table_row_method(path, tab->line[row], c->spec, err, errlen) != 0) {
    return -1;
  }
  return 1;
}

/* The match rule: every published order equals the measured one rounded
 * to the nearest integer. */
static void judge(bg_cell *c) {
  c->matched = 1;
  for (int x = 0; x < VI_NQUANT; x++) {
    c->match[x] = c->pub[x] < 0 || vi_published_order_match(c->order[x], c->pub[x], 0);
    c->matched &= c->match[x];
  }
}

/* ---- the measurement ----------------------------------------------------- */

/* The last row of a trajectory, in double (v holds cap columns, as many
 * as the run has: a system or family with more columns needs no change). */
typedef struct bg_last {
  int ncol, cap;
  double *v;
} bg_last;

static int bg_sink(void *ctx, long k, int ncol, const vi_wide *values) {
  (void)k;
  bg_last *l = ctx;
  l->ncol = ncol < l->cap ? ncol : l->cap;
  for (int i = 0; i < l->ncol; i++) {
    l->v[i] = (double)values[i];
  }
  return VI_OK;
}

static int bg_col(const vi_traj_info *info, const char *name) {
  for (int i = 0; i < info->ncol; i++) {
    if (strcmp(info->colnames[i], name) == 0) {
      return i;
    }
  }
  return -1;
}

static double bg_rel(const double *a, const double *b, int n) {
  double d = 0, s = 0;
  for (int i = 0; i < n; i++) {
    d += (a[i] - b[i]) * (a[i] - b[i]);
    s += b[i] * b[i];
  }
  return sqrt(d) / sqrt(s);
}

/* The extra quantities of one run of N steps, in double: the paper's
 * relative errors at t = T ((113)-(114) on the top: phi3 = q_3, p_phi =
 * p_1..3; (128) on the four-particle system: q4 = q_10..12, p4 =
 * p_10..12), and for EM/EM-G max_k |lambda^N_k - lambda_k(T - h/2)|, from
 * the reference on the grid of h/2 (K = 2N: node 2N-1 is T - h/2). Their
 * floors (relative: 100 eps or the reference's accuracy). */
static int bg_extras(const bg_cell *c, const bg_setup *S, long N, const reproduce_opts *o,
                     double x[BG_NX], double floor[BG_NX], char *err, size_t errlen) {
  const vi_api *api = vi_api_of(VI_DOUBLE);
  vi_traj_config tc = {0};
  tc.system = S->system;
  tc.method = c->spec;
  tc.T = S->T;
  tc.N = N;
  tc.every = N; /* the last node only (and node 0) */
  tc.solver.kind = VI_SOLVER_AUTO;
  vi_traj *tr = NULL;
  vi_traj_info info;
  if (api->traj_open(&tc, &tr, &info, err, errlen) != VI_OK) {
    return -1;
  }
  bg_last last = {0, info.ncol, calloc((size_t)(info.ncol > 0 ? info.ncol : 1), sizeof(double))};
  if (!last.v) {
    api->traj_free(tr);
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  vi_traj_result res;
  int rc = api->traj_run(tr, bg_sink, &last, &res, err, errlen);
  const int iq = bg_col(&info, "q1"), ip = bg_col(&info, "p1"), il = bg_col(&info, "lambda1");
  int nq = 0, n = 0, ml = 0;
  for (int i = 0; i < info.ncol; i++) {
    const char *s = info.colnames[i];
    nq += s[0] == 'q' && s[1] >= '1' && s[1] <= '9';
    n += s[0] == 'p' && s[1] >= '1' && s[1] <= '9';
    ml += strncmp(s, "lambda", 6) == 0 && s[6] >= '1' && s[6] <= '9';
  }
  api->traj_free(tr);
  if (rc != VI_OK) {
    free(last.v);
    return -1;
  }
  if (iq < 0 || ip < 0 || il < 0 || nq != 12 || n != 12 || res.failed_step ||
      last.ncol != info.ncol) {
    snprintf(err, errlen, "%s on %s: unexpected run columns or a failed step %ld",
             c->spec, S->system, res.failed_step);
    free(last.v);
    return -1;
  }
  const long K = 2 * N;
  const size_t rows = (size_t)(K + 1);
  double *Q = malloc(rows * (size_t)(nq + n + ml) * sizeof *Q);
  if (!Q) {
    snprintf(err, errlen, "out of memory");
    free(last.v);
    return -1;
  }
  double *P = Q + rows * (size_t)nq, *L = P + rows * (size_t)n;
  vi_reference_config rcfg = {0};
  rcfg.system = S->system;
  rcfg.T = S->T;
  rcfg.K = K;
  rcfg.cache_dir = o->cache_dir;
  vi_reference_result rinfo;
  if (api->reference(&rcfg, Q, P, L, &rinfo, err, errlen) != VI_OK) {
    free(Q);
    free(last.v);
    return -1;
  }
  const double *qT = Q + (size_t)K * nq, *pT = P + (size_t)K * n;
  const double *lh = L + (size_t)(K - 1) * ml;
  const double *q = last.v + iq, *p = last.v + ip, *lam = last.v + il;
  /* The top: phi3 = q_3 (113), p_phi = p_1..3 (114); four-particle: q4, p4 (128). */
  const int q0 = c->sys == 0 ? 2 : 9, nqx = c->sys == 0 ? 1 : 3, p0 = c->sys == 0 ? 0 : 9;
  x[BG_XQ] = bg_rel(q + q0, qT + q0, nqx);
  x[BG_XP] = bg_rel(p + p0, pT + p0, 3);
  /* The reference's accuracy is absolute over the whole state: relative to
   * the size of the block (q, p) the quantity belongs to. */
  double qs = 0, ps = 0;
  for (int i = 0; i < nq; i++) {
    qs = fmax(qs, fabs(qT[i]));
  }
  for (int i = 0; i < n; i++) {
    ps = fmax(ps, fabs(pT[i]));
  }
  const double rel_floor = 100 * DBL_EPSILON;
  floor[BG_XQ] = fmax(rel_floor, rinfo.accuracy / qs);
  floor[BG_XP] = fmax(rel_floor, rinfo.accuracy / ps);
  x[BG_XLH] = NAN;
  floor[BG_XLH] = NAN;
  if (strncmp(c->spec, "em:", 3) == 0) {
    double e = 0, s = 0;
    for (int k = 0; k < ml; k++) {
      e = fmax(e, fabs(lam[k] - lh[k]));
      s = fmax(s, fabs(lh[k]));
    }
    x[BG_XLH] = e;
    floor[BG_XLH] = fmax(rel_floor * fmax(1, s), rinfo.accuracy);
  }
  free(Q);
  free(last.v);
  return 0;
}

static void bg_fit_set(const vi_fit *f, double *order, double *residual, char *label,
                       size_t len) {
  vi_fit_label(f, label, (int)len);
  *order = f->verdict == VI_VERDICT_OK ? f->order : NAN;
  *residual = f->verdict == VI_VERDICT_OK ? f->residual : NAN;
}

static int run_cell(void *c_, const reproduce_opts *o, char *err, size_t errlen) {
  bg_cell *c = c_;
  const bg_setup *S = &bg_setups[c->sys];
  vi_order_config a = {.system = S->system, .method = c->spec, .T = S->T, .at_final = 1};
  const vi_api *api = vi_api_of(VI_DOUBLE);
  /* T a whole multiple of every h (the nodes land on T). */
  a.nN = BG_NH;
  for (int i = 0; i < BG_NH; i++) {
    double ratio;
    if (api->steps_of(S->T, S->h[i], &a.N[i], &ratio) != VI_OK) {
      snprintf(err, errlen, "%s: T = %g is not a whole multiple of h = %g (T/h = %.12g)",
               S->system, S->T, S->h[i], ratio);
      return -1;
    }
  }
  vi_order_result *r = vi_table_order(&a, VI_PRECISION_AUTO, o, err, errlen);
  if (!r) {
    return -1;
  }
  if (r->nh != BG_NH) {
    snprintf(err, errlen, "%s on %s: %d runs, not the %d asked", c->spec, S->system, r->nh,
             BG_NH);
    free(r);
    return -1;
  }
  vi_fit fits[VI_NQUANT];
  vi_order_fits(r, fits);
  c->seconds = 0;
  for (int x = 0; x < VI_NQUANT; x++) {
    bg_fit_set(&fits[x], &c->order[x], &c->residual[x], c->meas[x], sizeof c->meas[x]);
    for (int i = 0; i < BG_NH; i++) {
      c->err[x][i] = r->err[x][i];
    }
  }
  for (int i = 0; i < BG_NH; i++) {
    c->seconds += isfinite(r->seconds[i]) ? r->seconds[i] : 0;
  }
  snprintf(c->method, sizeof c->method, "%s", r->method);
  snprintf(c->precision, sizeof c->precision, "%s", r->precision);
  snprintf(c->reference, sizeof c->reference, "%s", r->reference);
  /* The extra quantities, from runs of the same steps in double. */
  double floor[BG_NX] = {0};
  for (int i = 0; i < BG_NH; i++) {
    double x[BG_NX];
    if (bg_extras(c, S, a.N[i], o, x, floor, err, errlen) != 0) {
      free(r);
      return -1;
    }
    for (int k = 0; k < BG_NX; k++) {
      c->xerr[k][i] = x[k];
    }
  }
  for (int k = 0; k < BG_NX; k++) {
    if (isnan(floor[k])) {
      continue; /* not measured for this scheme: "-" */
    }
    vi_fit f = vi_fit_order(BG_NH, S->h, c->xerr[k], floor[k], 10);
    bg_fit_set(&f, &c->xorder[k], &c->xresidual[k], c->xmeas[k], sizeof c->xmeas[k]);
  }
  free(r);
  judge(c);
  c->done = 1;
  return 0;
}

/* ---- the cell store ------------------------------------------------------ */

static json_t *num(double v) {
  return isfinite(v) ? json_real(v) : json_null();
}


/* The measurement as the store keeps it: no verdicts. */
static json_t *cell_measurement(const void *c_) {
  const bg_cell *c = c_;
  json_t *j = json_pack("{s:s, s:s, s:s, s:o}", "method", c->method, "precision",
                        c->precision, "reference", c->reference, "seconds", num(c->seconds));
  json_t *e = json_object();
  for (int x = 0; j && x < VI_NQUANT; x++) {
    json_object_set_new(j, bg_quantity[x],
                        vi_cells_fit_json(c->order[x], c->meas[x], c->residual[x]));
    json_object_set_new(e, bg_quantity[x], vi_cells_errors_json(c->err[x], BG_NH));
  }
  for (int x = 0; j && x < BG_NX; x++) {
    json_object_set_new(j, bg_xname[x],
                        vi_cells_fit_json(c->xorder[x], c->xmeas[x], c->xresidual[x]));
    json_object_set_new(e, bg_xname[x], vi_cells_errors_json(c->xerr[x], BG_NH));
  }
  json_object_set_new(j, "errors", e);
  return j;
}

/* Restore a cell from the store, every field checked against the cell it
 * claims to be (its method, a precision, the fits, the errors); -1 with
 * the reason in why, the cell untouched, when it is not a valid
 * measurement of this cell. */
static int cell_restore(void *c_, json_t *v, char *why, size_t whylen) {
  bg_cell x = *(bg_cell *)c_;
  const char *method = NULL, *prec = NULL, *ref = NULL;
  json_t *f[VI_NQUANT], *xf[BG_NX], *e = NULL, *sec = NULL;
  json_error_t je;
  if (json_unpack_ex(v, &je, JSON_STRICT,
                     "{s:s, s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "method",
                     &method, "precision", &prec, "reference", &ref, "seconds", &sec, "q",
                     &f[0], "p", &f[1], "lambda", &f[2], "paper_q", &xf[0], "paper_p",
                     &xf[1], "lambda_half", &xf[2], "errors", &e) != 0) {
    snprintf(why, whylen, "%s", je.text);
    return -1;
  }
  char canon[256];
  if (vi_study_method(x.spec, canon, sizeof canon, why, whylen) != 0) {
    return -1;
  }
  if (strcmp(method, canon) != 0 ||
      (strcmp(prec, "double") != 0 && strcmp(prec, "quad") != 0)) {
    snprintf(why, whylen, "method '%.120s' in '%.8s' precision is not this cell's (%s in "
             "double or quad)", method, prec, canon);
    return -1;
  }
  if (strlen(ref) >= sizeof x.reference) {
    snprintf(why, whylen, "reference text too long");
    return -1;
  }
  x.seconds = json_is_null(sec) ? NAN : json_number_value(sec);
  if (!json_is_null(sec) && (!json_is_number(sec) || !(x.seconds >= 0))) {
    snprintf(why, whylen, "seconds is not a time");
    return -1;
  }
  for (int q = 0; q < VI_NQUANT; q++) {
    if (vi_cells_fit_read(f[q], &x.order[q], x.meas[q], sizeof x.meas[q], &x.residual[q],
                          why, whylen) != 0 ||
        vi_cells_errors_read(json_object_get(e, bg_quantity[q]), bg_quantity[q], x.err[q],
                             BG_NH, why, whylen) != 0) {
      return -1;
    }
  }
  for (int q = 0; q < BG_NX; q++) {
    if (vi_cells_fit_read(xf[q], &x.xorder[q], x.xmeas[q], sizeof x.xmeas[q],
                          &x.xresidual[q], why, whylen) != 0 ||
        vi_cells_errors_read(json_object_get(e, bg_xname[q]), bg_xname[q], x.xerr[q],
                             BG_NH, why, whylen) != 0) {
      return -1;
    }
  }
  snprintf(x.method, sizeof x.method, "%s", method);
  snprintf(x.precision, sizeof x.precision, "%s", prec);
  snprintf(x.reference, sizeof x.reference, "%s", ref);
  judge(&x);
  x.done = 1;
  *(bg_cell *)c_ = x;
  return 0;
}

/* ---- the layout (study.h): one row per published row --------------------- */

static const vi_col bg_cols[] = {
    {"system", .type = VI_COL_TEXT},
    {"scheme", .type = VI_COL_TEXT},
    {"method", .type = VI_COL_TEXT, .flags = VI_COL_NOCSV},
    {"T", .type = VI_COL_REAL, .csv_fmt = "%g"},
    {"h", .type = VI_COL_TEXT, .flags = VI_COL_QUOTED},
    {"published_q", .type = VI_COL_ANY},
    {"measured_q", .type = VI_COL_ANY, .flags = VI_COL_NOCSV},
    {"measured_q_label", .type = VI_COL_TEXT, .csv = "measured_q", .flags = VI_COL_NOJSON},
    {"published_p", .type = VI_COL_ANY},
    {"measured_p", .type = VI_COL_ANY, .flags = VI_COL_NOCSV},
    {"measured_p_label", .type = VI_COL_TEXT, .csv = "measured_p", .flags = VI_COL_NOJSON},
    {"published_lambda", .type = VI_COL_ANY},
    {"measured_lambda", .type = VI_COL_ANY, .flags = VI_COL_NOCSV},
    {"measured_lambda_label", .type = VI_COL_TEXT, .csv = "measured_lambda",
     .flags = VI_COL_NOJSON},
    {"match", .type = VI_COL_BOOL},
    {"mismatched", .type = VI_COL_TEXT}, /* the quantities that do not match */
    /* not judged: the paper's own quantities, lambda at T - h/2 */
    {"paper_measure_q", .type = VI_COL_TEXT},
    {"paper_measure_p", .type = VI_COL_TEXT},
    {"lambda_half_step", .type = VI_COL_TEXT},
    {"precision", .type = VI_COL_TEXT},
    {"reference", .type = VI_COL_TEXT, .flags = VI_COL_QUOTED},
    {"errors", .type = VI_COL_JSON}, /* per quantity, at each h */
    {"local_slopes", .type = VI_COL_TEXT, .flags = VI_COL_QUOTED},
    {"seconds", .type = VI_COL_REAL, .fmt = "%.3f", .flags = VI_COL_NOCSV},
};

/* "a, b, c": the local slopes log(e_i/e_{i+1}) / log(h_i/h_{i+1}). */
static void bg_slopes(const double *h, const double *e, char *buf, size_t len) {
  size_t off = 0;
  buf[0] = '\0';
  for (int i = 0; i + 1 < BG_NH && off < len; i++) {
    const double s = log(e[i] / e[i + 1]) / log(h[i] / h[i + 1]);
    off += (size_t)snprintf(buf + off, len - off, isfinite(s) ? "%s%.2f" : "%s-",
                            i ? ", " : "", s);
  }
}

static int bg_rows(const void *c_, vi_rows *R) {
  const bg_cell *c = c_;
  const bg_setup *S = &bg_setups[c->sys];
  const int r = vi_rows_add(R);
  if (r < 0) {
    return -1;
  }
  char mism[32] = "", slopes[256] = "", one[64];
  size_t off = 0;
  static const char *const pubcol[] = {"published_q", "published_p", "published_lambda"};
  static const char *const meascol[] = {"measured_q", "measured_p", "measured_lambda"};
  static const char *const labcol[] = {"measured_q_label", "measured_p_label",
                                       "measured_lambda_label"};
  json_t *errs = json_object();
  for (int x = 0; x < VI_NQUANT; x++) {
    if (c->pub[x] >= 0) {
      vi_rows_int(R, r, pubcol[x], c->pub[x]);
    } else if (vi_rows_text(R, r, pubcol[x], "-") != 0) {
      return -1;
    }
    if (vi_rows_real_or_text(R, r, meascol[x], c->order[x], c->meas[x]) != 0 ||
        vi_rows_text(R, r, labcol[x], c->meas[x]) != 0) {
      return -1;
    }
    if (!c->match[x]) {
      off += (size_t)snprintf(mism + off, sizeof mism - off, "%s%s", off ? " " : "",
                              bg_quantity[x]);
    }
    bg_slopes(S->h, c->err[x], one, sizeof one);
    snprintf(slopes + strlen(slopes), sizeof slopes - strlen(slopes), "%s%s: %s",
             x ? "; " : "", bg_quantity[x], one);
    json_object_set_new(errs, bg_quantity[x], vi_cells_errors_json(c->err[x], BG_NH));
  }
  for (int x = 0; x < BG_NX; x++) {
    json_object_set_new(errs, bg_xname[x], vi_cells_errors_json(c->xerr[x], BG_NH));
  }
  if (vi_rows_text(R, r, "system", S->system) || vi_rows_text(R, r, "scheme", c->scheme) ||
      vi_rows_text(R, r, "method", c->method) || vi_rows_text(R, r, "h", S->h_text) ||
      vi_rows_text(R, r, "mismatched", mism) ||
      vi_rows_text(R, r, "paper_measure_q", c->xmeas[BG_XQ]) ||
      vi_rows_text(R, r, "paper_measure_p", c->xmeas[BG_XP]) ||
      vi_rows_text(R, r, "lambda_half_step", c->xmeas[BG_XLH]) ||
      vi_rows_text(R, r, "precision", c->precision) ||
      vi_rows_text(R, r, "reference", c->reference) ||
      vi_rows_text(R, r, "local_slopes", slopes) ||
      vi_rows_json_value(R, r, "errors", errs) != 0) {
    return -1;
  }
  vi_rows_real(R, r, "T", S->T);
  vi_rows_bool(R, r, "match", c->matched);
  vi_rows_real(R, r, "seconds", c->seconds);
  return 0;
}

#define BG_CHOICES                                                                       \
  "Errors at t = T (as the paper measured them), the max norm of the whole of q (p, "    \
  "lambda) against the reference; the paper's e_q on the top is the relative error of "  \
  "phi3 only (113) and e_p that of p_phi (114), on the four-particle system those of "   \
  "q4 and p4 (128): the orders are what is compared (the orders of the paper's own "     \
  "quantities from the same runs are reported beside, not judged). gyro-top: default "   \
  "(metis) parameters, T = 0.001, h in {1e-4, 5e-5, 2.5e-5, 1e-5, 5e-6, 2.5e-6, 1e-6} "  \
  "(metis's grid extended down, since VI-S's and VI-B's max-norm errors stay second-"    \
  "order dominated above h = 2.5e-5; the fit takes the four finest errors above the "    \
  "floor), reference: the exact steady precession (§2.2). four-particle: data (127) "    \
  "(the defaults), T = 0.1, h in {1e-2, 5e-3, 2.5e-3, 1e-3, 5e-4, 2.5e-4, 1e-4}, "        \
  "reference: the harness's "                                                            \
  "integrated index-1 solution (the paper: EM at h = 1e-5). Multipliers stored at the "  \
  "step end, as the paper compared them (lambda published order 1); beside it, not "     \
  "judged, EM's and EM-G's lambda^N against lambda(T - h/2), which lambda^{n+1} "        \
  "approximates to second order (notes §1.4). Precision: double, rerun in quad only "    \
  "where a quantity cannot get four errors above the floor of double (vistudy order "    \
  "--precision auto); the extra quantities in double. Match: every published order "     \
  "equals the measured one rounded to the nearest integer; a quantity without an ok fit " \
  "(unresolved, d) has no order and does not match. BS99 (bs99) evolves the axis and "   \
  "the angular momentum only; its d1, d2 (in the whole of q and p) come from its "       \
  "attitude reconstruction, the paper's phi3 and p_phi are BS99's own."

static json_t *bg_head(const vi_study *s) {
  json_t *sys = json_object();
  for (int i = 0; i < 2; i++) {
    const bg_setup *S = &bg_setups[i];
    json_t *h = json_array();
    for (int k = 0; k < BG_NH; k++) {
      json_array_append_new(h, json_real(S->h[k]));
    }
    json_object_set_new(sys, S->system,
                        json_pack("{s:f, s:o, s:s, s:s, s:s}", "T", S->T, "h", h,
                                  "reference", S->reference, "paper_q", S->paper_q,
                                  "paper_p", S->paper_p));
  }
  return json_pack("{s:s, s:o, s:s}", "title", vi_table_caption(s), "systems", sys,
                   "choices", BG_CHOICES);
}

static void bg_md(FILE *f, const vi_study *st, const void *cells_, int n, const vi_rows *R,
                  int matched, int total) {
  const bg_cell *cells = cells_;
  fprintf(f, "# %s\n\n%s\n\n%s\n\n", st->id, vi_table_caption(st), BG_CHOICES);
  fprintf(f, "Matched **%d/%d** rows.\n\n", matched, total);
  fprintf(f,
          "Each entry: measured (published); **bold** marks a mismatch, `-` a quantity the "
          "paper states nothing for. Columns `paper q`, `paper p`: the orders of the "
          "paper's own quantities (top: phi3 (113), p_phi (114); four-particle: q4, p4 "
          "(128)) from the same runs; `lambda(T-h/2)`: lambda^N against the reference at "
          "T - h/2 (EM, EM-G). Not judged.\n\n");
  fprintf(f, "| system | scheme | q | p | lambda | paper q | paper p | lambda(T-h/2) | "
             "precision |\n|---|---|---|---|---|---|---|---|---|\n");
  for (int k = 0; k < n; k++) {
    const bg_cell *c = &cells[k];
    fprintf(f, "| %s | %s |", bg_setups[c->sys].system, c->scheme);
    if (!c->done) {
      fprintf(f, " (not measured) | | | | | | |\n");
      continue;
    }
    for (int x = 0; x < VI_NQUANT; x++) {
      if (c->pub[x] < 0) {
        fprintf(f, " %s (-) |", c->meas[x]);
      } else {
        fprintf(f, c->match[x] ? " %s (%d) |" : " **%s (%d)** |", c->meas[x], c->pub[x]);
      }
    }
    fprintf(f, " %s | %s | %s | %s |\n", c->xmeas[BG_XQ], c->xmeas[BG_XP], c->xmeas[BG_XLH],
            c->precision);
  }
  fprintf(f, "\n## Errors at t = T\n\n");
  for (int k = 0; k < n; k++) {
    const bg_cell *c = &cells[k];
    const bg_setup *S = &bg_setups[c->sys];
    if (!c->done) {
      continue;
    }
    fprintf(f, "%s %s (`%s`, reference: %s):\n\n| h | e_q | e_p | e_lambda | paper e_q | "
               "paper e_p | lambda(T-h/2) |\n|---|---|---|---|---|---|---|\n",
            S->system, c->scheme, c->method, c->reference);
    for (int i = 0; i < BG_NH; i++) {
      fprintf(f, "| %g | %.3e | %.3e | %.3e | %.3e | %.3e |", S->h[i], c->err[VI_Q][i],
              c->err[VI_P][i], c->err[VI_LAMBDA][i], c->xerr[BG_XQ][i], c->xerr[BG_XP][i]);
      if (isfinite(c->xerr[BG_XLH][i])) {
        fprintf(f, " %.3e |\n", c->xerr[BG_XLH][i]);
      } else {
        fprintf(f, " - |\n");
      }
    }
    char sl[64];
    fprintf(f, "\nLocal slopes:");
    for (int x = 0; x < VI_NQUANT; x++) {
      bg_slopes(S->h, c->err[x], sl, sizeof sl);
      fprintf(f, "%s %s %s", x ? ";" : "", bg_quantity[x], sl);
    }
    for (int x = 0; x < BG_NX; x++) {
      if (isfinite(c->xerr[x][0])) {
        bg_slopes(S->h, c->xerr[x], sl, sizeof sl);
        fprintf(f, "; %s %s", bg_xname[x], sl);
      }
    }
    fprintf(f, ".\n\n");
  }
  (void)R;
}

static void bg_mismatch(FILE *f, const vi_rows *R, int r, int md) {
  fprintf(f, "%s %s: ", vi_rows_get_text(R, r, "system"), vi_rows_get_text(R, r, "scheme"));
  static const char *const pubcol[] = {"published_q", "published_p", "published_lambda"};
  static const char *const labcol[] = {"measured_q_label", "measured_p_label",
                                       "measured_lambda_label"};
  const char *mism = vi_rows_get_text(R, r, "mismatched");
  int first = 1;
  for (int x = 0; x < VI_NQUANT; x++) {
    char pub[16];
    const char *q = bg_quantity[x];
    /* the list holds whole words ("q p lambda") */
    int in = 0;
    for (const char *s = mism; s && *s;) {
      const size_t len = strcspn(s, " ");
      in |= len == strlen(q) && strncmp(s, q, len) == 0;
      s += len + (s[len] == ' ');
    }
    if (!in) {
      continue;
    }
    fprintf(f, "%s%s measured %s, published %s", first ? "" : "; ", q,
            vi_rows_get_text(R, r, labcol[x]), vi_rows_str(R, r, pubcol[x], pub, sizeof pub));
    first = 0;
  }
  fprintf(f, md ? " (local slopes %s; the paper's own quantities: q %s, p %s)"
                : " [local slopes %s; paper's quantities: q %s, p %s]",
          vi_rows_get_text(R, r, "local_slopes"), vi_rows_get_text(R, r, "paper_measure_q"),
          vi_rows_get_text(R, r, "paper_measure_p"));
}

static void cell_key(const void *c_, char *buf, size_t len) {
  const bg_cell *c = c_;
  snprintf(buf, len, "%s %s", bg_setups[c->sys].system, c->spec);
}

static void cell_label(const void *c_, char *buf, size_t len) {
  const bg_cell *c = c_;
  snprintf(buf, len, "%s %s", bg_setups[c->sys].system, c->scheme);
}

static int cell_done(const void *c) {
  return ((const bg_cell *)c)->done;
}

const vi_table_spec vi_betsch_ggl_orders = {
    .config = "gyro-top defaults, T = 0.001, h = 1e-4,5e-5,2.5e-5,1e-5,5e-6,2.5e-6,1e-6, "
              "exact reference; four-particle defaults (127), T = 0.1, h = "
              "1e-2,5e-3,2.5e-3,1e-3,5e-4,2.5e-4,1e-4, integrated "
              "reference; errors at t = T; precision auto; extras in double: the paper's "
              "quantities (113)-(114), (128), lambda at T - h/2",
    .cell_size = sizeof(bg_cell),
    .verdicts_per_cell = 1,
    .fields = bg_fields,
    .cell = bg_read_cell,
    .key = cell_key,
    .label = cell_label,
    .done = cell_done,
    .measure = run_cell,
    .stored = cell_measurement,
    .restore = cell_restore,
    .cols = bg_cols,
    .ncols = (int)(sizeof bg_cols / sizeof bg_cols[0]),
    .rows = bg_rows,
    .head = bg_head,
    .by = "system",
    .md = bg_md,
    .mismatch = bg_mismatch,
    .regenerate = 1,
};
