/* demartin2018.c: the table study demartin2018-orders as data (study.h):
 * the global convergence orders of the s-stage nonholonomic Lobatto
 * IIIA-IIIB partitioned Runge-Kutta method (14) of demartin2018 (Martín de
 * Diego, Sato Martín de Almagro), Corollary 5.2.1: q and p of order 2s-2,
 * lambda of order s for even s and s-1 for odd s (Thm 5.2: O(h^q) when
 * R(inf) = -1, O(h^{q-1}) when R(inf) = +1). Published values:
 * ../shared/published/demartin2018_orders.csv (Fig. 3, the nonholonomic
 * particle §7.1, s = 2..5; Fig. 7, the vertical disc on SE(2) with the
 * Cayley retraction §6.4, §7.4, s = 2..4), read only to compare; no
 * published number is ever written into a measured column.
 *
 * Each published row is a cell: an order study of nhprk:s=S (the family
 * is one for both labels, lobatto-iiia-iiib and lobatto-iiia-iiib-cay: the
 * configuration space comes from the system, core/methods/nhprk_tmpl.c)
 * judged against the row. Beyond the paper, the study adds cells of its
 * own (vi_table_spec.extra), judged against the orders the family declares
 * (vi_stepper_expected_order, which is Cor. 5.2.1) and counted apart: the
 * disc at s = 5 (the CSV stops at 4), the turntable on SO(3) x R^2 (§7.5,
 * a = b = c; the paper shows only its first integrals, Fig. 8) at s =
 * 2..5, and the knife edge on an incline (holonomic and nonholonomic
 * constraints), which nhprk refuses: the family's reason is that cell's
 * outcome, no order is made up for it.
 *
 * Choices the paper leaves open (notes demartin2018.md §4.1-4.2; stated in
 * every output): every system with its default data (notes §2.1, §2.4,
 * §2.5), T = 2, h = T/N for N = 5, 10, 20, 40, 80, 160 for every s (the
 * union of the notes' grids, so that each s keeps four errors above the
 * floor where its order settles), errors e_x = max_k |x_k - x_ref(t_k)|_inf
 * of q (the group in its embedding), p and lambda (nodes k >= 1), the
 * harness's measure; the reference is what `vistudy order` takes for each
 * system: the exact solution of the disc (notes §2.4), elsewhere an
 * independent integration of the index-1 equations (GSL rk8pd in double, a
 * Gauss IRK in quad); not the method itself at h = 1e-4, the paper's
 * reference. Precision VI_PRECISION_AUTO: double, rerun in quad when a
 * quantity cannot get four errors above the floor of double (s >= 4 in q
 * and p, notes P6). Beside the judged orders, not judged: the paper's
 * likely measure (notes §4.1), the relative error at the final time
 * |x_N - x_ref(T)|_inf / |x_ref(T)|_inf, from a second order study with
 * errors at t = T in the precision the first one chose. Match: every
 * published (declared) order equals the measured one rounded to the
 * nearest integer (vi_published_order_match); a quantity without an ok
 * fit has no order and does not match.
 *
 * Outputs beside ID.{json,md,csv}: the convergence figures as the paper
 * drew them (Fig. 3, particle; Fig. 7, disc): error against h in log-log,
 * one curve per s, panels q, p, lambda, each fitted order (or why there is
 * none) in the legend: ID-fig3.{gp,svg,png,dat}, ID-fig7.{...}. */
#include "specs.h"
#include "cells.h"
#include "emit.h"
#include "plot.h"
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

#define DM_NH 6
#define DM_T 2.0
static const long dm_N[DM_NH] = {5, 10, 20, 40, 80, 160};
#define DM_H_TEXT "0.4, 0.2, 0.1, 0.05, 0.025, 0.0125"

enum { DM_PARTICLE, DM_DISC, DM_TURNTABLE, DM_KNIFE, DM_NSYS };
static const char *const dm_system[DM_NSYS] = {"nonholonomic-particle", "vertical-disc",
                                               "turntable", "knife-edge-incline"};
/* The paper's figure of each system (NULL: none). */
static const char *const dm_figure[DM_NSYS] = {"3", "7", NULL, NULL};

static const char *const dm_quantity[VI_NQUANT] = {"q", "p", "lambda"};

typedef struct dm_cell {
  int sys, s;
  char label[32];      /* the published method label; "-" beyond the paper */
  char spec[32];       /* nhprk:s=S */
  int beyond;          /* a cell of the study's own, not a published row */
  int pub[VI_NQUANT];  /* published orders (-1 beyond the paper) */
  int decl[VI_NQUANT]; /* declared by the family (-1: none, or refused) */
  /* the measurement */
  int refused;
  char refusal[400];
  char method[256], precision[8], reference[256], precision_note[240];
  vi_cell_fit fit[VI_NQUANT];
  double err[VI_NQUANT][DM_NH];
  vi_cell_fit rfit[VI_NQUANT]; /* the relative errors at t = T (not judged) */
  double rel[VI_NQUANT][DM_NH];
  /* the verdict, recomputed on every run */
  int match[VI_NQUANT];
  int matched;
  int done;
} dm_cell;

static const double *dm_h(void) {
  static const double h[DM_NH] = {DM_T / 5,  DM_T / 10, DM_T / 20,
                                  DM_T / 40, DM_T / 80, DM_T / 160};
  return h;
}

/* ---- the cells ----------------------------------------------------------- */

enum { DM_F_SYSTEM, DM_F_METHOD, DM_F_S, DM_F_OQ, DM_F_OP, DM_F_OL, DM_F_SOURCE };
static const vi_field dm_fields[] = {
    {"system", VI_FIELD_CHOICE, 0, 0, "nonholonomic-particle|vertical-disc"},
    {"method", VI_FIELD_CHOICE, 0, 0, "lobatto-iiia-iiib|lobatto-iiia-iiib-cay"},
    {"s", VI_FIELD_INT, 2, 16, NULL},
    {"order_q", VI_FIELD_INT, 1, 99, NULL},
    {"order_p", VI_FIELD_INT, 1, 99, NULL},
    {"order_lambda", VI_FIELD_INT, 1, 99, NULL},
    {"source", VI_FIELD_TEXT, 0, 0, NULL},
    {NULL, 0, 0, 0, NULL},
};

static void dm_unmeasured(dm_cell *c) {
  for (int x = 0; x < VI_NQUANT; x++) {
    vi_cell_fit_none(&c->fit[x]);
    vi_cell_fit_none(&c->rfit[x]);
    for (int i = 0; i < DM_NH; i++) {
      c->err[x][i] = c->rel[x][i] = NAN;
    }
  }
}

/* The orders the family declares for the cell's method on its system with
 * the default data (vi_stepper_expected_order: Cor. 5.2.1); -1 each when
 * the family refuses the system (the measurement records why). 0, or -1
 * with the reason in err for any other failure. */
static int dm_declared(dm_cell *c, char *err, size_t errlen) {
  const vi_system_type_d *t = vi_system_find_d(dm_system[c->sys], err, errlen);
  vi_system_d *sys = NULL;
  vi_stepper_d *st = NULL;
  for (int x = 0; x < VI_NQUANT; x++) {
    c->decl[x] = -1;
  }
  if (!t || vi_system_alloc_d(t, 0, NULL, &sys, err, errlen) != VI_OK) {
    return -1;
  }
  char why[512];
  const int rc = vi_stepper_alloc_d(c->spec, sys, &st, why, sizeof why);
  if (rc == VI_OK) {
    for (int x = 0; x < VI_NQUANT; x++) {
      c->decl[x] = vi_stepper_expected_order_d(st, x);
    }
  }
  vi_stepper_free_d(st);
  vi_system_free_d(sys);
  if (rc != VI_OK && rc != VI_EUNSUPPORTED) {
    snprintf(err, errlen, "%s on %s: %s", c->spec, dm_system[c->sys], why);
    return -1;
  }
  return 0;
}

static int dm_read_cell(const vi_table_spec *t, void *c_, const vi_table *tab, int row,
                        const char *path, char *err, size_t errlen) {
  (void)t;
  dm_cell *c = c_;
  const char *sys = vi_table_at(tab, row, DM_F_SYSTEM);
  const char *lab = vi_table_at(tab, row, DM_F_METHOD);
  c->sys = strcmp(sys, dm_system[DM_PARTICLE]) == 0 ? DM_PARTICLE : DM_DISC;
  /* The -cay label is the Lie-group version (§6.4): on the disc only. */
  if ((c->sys == DM_DISC) != (strcmp(lab, "lobatto-iiia-iiib-cay") == 0)) {
    snprintf(err, errlen,
             "%s:%d: method '%s' on %s: the Cayley label belongs to the "
             "SE(2) disc, the plain one to the particle",
             path, tab->line[row], lab, sys);
    return -1;
  }
  c->s = vi_table_int(tab, row, DM_F_S);
  snprintf(c->label, sizeof c->label, "%s", lab);
  snprintf(c->spec, sizeof c->spec, "nhprk:s=%d", c->s);
  for (int x = 0; x < VI_NQUANT; x++) {
    c->pub[x] = vi_table_int(tab, row, DM_F_OQ + x);
  }
  dm_unmeasured(c);
  if (vi_table_row_method(path, tab->line[row], c->spec, err, errlen) != 0 ||
      dm_declared(c, err, errlen) != 0) {
    return -1;
  }
  return 1;
}

/* The cells beyond the paper: the disc at s = 5, the turntable at s =
 * 2..5, the knife edge on an incline at s = 3 (refused by the family). */
static int dm_extra(const vi_table_spec *t, void *cells, int max, char *err,
                    size_t errlen) {
  (void)t;
  static const int rows[][2] = {{DM_DISC, 5},      {DM_TURNTABLE, 2}, {DM_TURNTABLE, 3},
                                {DM_TURNTABLE, 4}, {DM_TURNTABLE, 5}, {DM_KNIFE, 3}};
  const int n = (int)(sizeof rows / sizeof rows[0]);
  if (n > max) {
    snprintf(err, errlen, "%d cells beyond the paper, room for %d", n, max);
    return -1;
  }
  dm_cell *c = cells;
  for (int k = 0; k < n; k++) {
    c[k].sys = rows[k][0];
    c[k].s = rows[k][1];
    c[k].beyond = 1;
    snprintf(c[k].label, sizeof c[k].label, "-");
    snprintf(c[k].spec, sizeof c[k].spec, "nhprk:s=%d", c[k].s);
    for (int x = 0; x < VI_NQUANT; x++) {
      c[k].pub[x] = -1;
    }
    dm_unmeasured(&c[k]);
    if (dm_declared(&c[k], err, errlen) != 0) {
      return -1;
    }
  }
  return n;
}

/* The order a cell is judged against: published, or declared beyond the
 * paper. */
static int dm_target(const dm_cell *c, int x) {
  return c->beyond ? c->decl[x] : c->pub[x];
}

/* The match rule: every target order equals the measured one rounded to
 * the nearest integer; a refused cell matches nothing (it is not run). */
static void judge(dm_cell *c) {
  c->matched = !c->refused;
  for (int x = 0; x < VI_NQUANT; x++) {
    const int want = dm_target(c, x);
    c->match[x] =
        !c->refused && want >= 0 && vi_published_order_match(c->fit[x].order, want, 0);
    c->matched &= c->match[x];
  }
}

/* ---- the measurement ----------------------------------------------------- */

/* |x_ref(T)|_inf of q, p and lambda, from the reference in double (one
 * interval, K = 1): the scale of the paper's relative error. */
static int dm_ref_norms(const dm_cell *c, const reproduce_opts *o, double norm[VI_NQUANT],
                        char *err, size_t errlen) {
  const vi_system_type_d *t = vi_system_find_d(dm_system[c->sys], err, errlen);
  vi_system_d *sys = NULL;
  vi_stepper_d *st = NULL;
  if (!t || vi_system_alloc_d(t, 0, NULL, &sys, err, errlen) != VI_OK ||
      vi_stepper_alloc_d(c->spec, sys, &st, err, errlen) != VI_OK) {
    vi_system_free_d(sys);
    return -1;
  }
  const vi_dims d = *vi_stepper_dims_d(st);
  vi_stepper_free_d(st);
  vi_system_free_d(sys);
  double *Q = malloc(2 * (size_t)(d.nq + d.n + d.ml + 1) * sizeof *Q);
  if (!Q) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  double *P = Q + 2 * (size_t)d.nq, *L = P + 2 * (size_t)d.n;
  vi_reference_config rc = {0};
  rc.system = dm_system[c->sys];
  rc.T = DM_T;
  rc.K = 1;
  rc.cache_dir = o->cache_dir;
  vi_reference_result ri;
  if (vi_api_of(VI_DOUBLE)->reference(&rc, Q, P, L, &ri, err, errlen) != VI_OK) {
    free(Q);
    return -1;
  }
  const double *blk[VI_NQUANT] = {Q + d.nq, P + d.n, L + d.ml};
  const int len[VI_NQUANT] = {d.nq, d.n, d.ml};
  for (int x = 0; x < VI_NQUANT; x++) {
    norm[x] = 0;
    for (int i = 0; i < len[x]; i++) {
      norm[x] = fmax(norm[x], fabs(blk[x][i]));
    }
  }
  free(Q);
  return 0;
}

/* One order study of the cell on the study's grid (errors over the nodes,
 * or at_final); NULL with the reason in err. */
static vi_order_result *dm_study(const dm_cell *c, int at_final, int precision,
                                 const reproduce_opts *o, char *err, size_t errlen) {
  vi_order_config a = {.system = dm_system[c->sys], .method = c->spec, .T = DM_T};
  a.at_final = at_final;
  a.nN = DM_NH;
  for (int i = 0; i < DM_NH; i++) {
    a.N[i] = dm_N[i];
  }
  vi_order_result *r = vi_table_order(&a, precision, o, err, errlen);
  if (r && r->nh != DM_NH) {
    snprintf(err, errlen, "%s on %s: %d runs, not the %d asked", c->spec,
             dm_system[c->sys], r->nh, DM_NH);
    free(r);
    return NULL;
  }
  return r;
}

static int run_cell(void *c_, const reproduce_opts *o, char *err, size_t errlen) {
  dm_cell *c = c_;
  /* The family's refusal is the outcome of a cell it does not take (the
   * knife edge on an incline: holonomic and nonholonomic constraints). */
  {
    const vi_system_type_d *t = vi_system_find_d(dm_system[c->sys], err, errlen);
    vi_system_d *sys = NULL;
    vi_stepper_d *st = NULL;
    if (!t || vi_system_alloc_d(t, 0, NULL, &sys, err, errlen) != VI_OK) {
      return -1;
    }
    const int rc = vi_stepper_alloc_d(c->spec, sys, &st, c->refusal, sizeof c->refusal);
    vi_stepper_free_d(st);
    vi_system_free_d(sys);
    if (rc == VI_EUNSUPPORTED) {
      c->refused = 1;
      snprintf(c->method, sizeof c->method, "%s", c->spec);
      judge(c);
      c->done = 1;
      return 0;
    }
    if (rc != VI_OK) {
      snprintf(err, errlen, "%s on %s: %s", c->spec, dm_system[c->sys], c->refusal);
      return -1;
    }
    c->refusal[0] = '\0';
  }
  vi_order_result *r = dm_study(c, 0, VI_PRECISION_AUTO, o, err, errlen);
  if (!r) {
    return -1;
  }
  vi_fit fits[VI_NQUANT];
  vi_order_fits(r, fits);
  for (int x = 0; x < VI_NQUANT; x++) {
    for (int i = 0; i < DM_NH; i++) {
      c->err[x][i] = r->err[x][i];
    }
    vi_cell_fit_set(&c->fit[x], r, &fits[x], c->err[x]);
  }
  snprintf(c->method, sizeof c->method, "%s", r->method);
  snprintf(c->precision, sizeof c->precision, "%s", r->precision);
  snprintf(c->reference, sizeof c->reference, "%s", r->reference);
  snprintf(c->precision_note, sizeof c->precision_note, "%s", r->precision_note);
  const int prec = strcmp(r->precision, "quad") == 0 ? VI_QUAD : VI_DOUBLE;
  free(r);
  /* The paper's likely measure, not judged: the relative error at T, in
   * the precision the first study chose. */
  double norm[VI_NQUANT];
  if (dm_ref_norms(c, o, norm, err, errlen) != 0) {
    return -1;
  }
  r = dm_study(c, 1, prec, o, err, errlen);
  if (!r) {
    return -1;
  }
  vi_order_fits(r, fits);
  for (int x = 0; x < VI_NQUANT; x++) {
    for (int i = 0; i < DM_NH; i++) {
      c->rel[x][i] = norm[x] > 0 ? r->err[x][i] / norm[x] : NAN;
    }
    /* A constant factor moves no slope: the fit of the absolute errors is
     * that of the relative ones (its range given in relative terms). */
    vi_cell_fit_set(&c->rfit[x], r, &fits[x], c->rel[x]);
    c->rfit[x].seconds += c->fit[x].seconds;
  }
  for (int x = 0; x < VI_NQUANT; x++) {
    c->fit[x].seconds = c->rfit[x].seconds; /* both studies */
  }
  free(r);
  judge(c);
  c->done = 1;
  return 0;
}

/* ---- the cell store ------------------------------------------------------ */

/* The measurement as the store keeps it, no verdicts: a refusal, or per
 * quantity the fit with its range and the errors, and the same for the
 * relative errors at T. */
static json_t *cell_measurement(const void *c_) {
  const dm_cell *c = c_;
  if (c->refused) {
    return json_pack("{s:s, s:s}", "method", c->method, "refused", c->refusal);
  }
  json_t *j =
      json_pack("{s:s, s:s, s:s, s:s}", "method", c->method, "precision", c->precision,
                "reference", c->reference, "precision_note", c->precision_note);
  for (int x = 0; j && x < VI_NQUANT; x++) {
    json_t *q = vi_cell_fit_stored(
        json_pack("{s:o}", "errors", vi_cells_errors_json(c->err[x], DM_NH)), "fit",
        &c->fit[x]);
    json_t *rq = vi_cell_fit_stored(
        json_pack("{s:o}", "errors", vi_cells_errors_json(c->rel[x], DM_NH)), "fit",
        &c->rfit[x]);
    char key[32];
    snprintf(key, sizeof key, "%s_relative_at_T", dm_quantity[x]);
    if (!q || !rq || json_object_set_new(j, dm_quantity[x], q) != 0 ||
        json_object_set_new(j, key, rq) != 0) {
      json_decref(j);
      return NULL;
    }
  }
  return j;
}

/* Restore a cell from the store, every field checked against the cell it
 * claims to be; -1 with the reason in why, the cell untouched, when it is
 * not a valid measurement of this cell. */
static int cell_restore(void *c_, json_t *v, char *why, size_t whylen) {
  dm_cell x = *(dm_cell *)c_;
  char canon[256];
  const char *method = json_string_value(json_object_get(v, "method"));
  json_t *refused = json_object_get(v, "refused");
  if (!method) {
    snprintf(why, whylen, "no method");
    return -1;
  }
  if (refused) {
    if (!json_is_string(refused) || json_object_size(v) != 2 ||
        strcmp(method, x.spec) != 0 ||
        strlen(json_string_value(refused)) >= sizeof x.refusal) {
      snprintf(why, whylen,
               "a refusal is {method: this cell's spec, refused: the reason}");
      return -1;
    }
    x.refused = 1;
    snprintf(x.method, sizeof x.method, "%s", method);
    snprintf(x.refusal, sizeof x.refusal, "%s", json_string_value(refused));
    judge(&x);
    x.done = 1;
    *(dm_cell *)c_ = x;
    return 0;
  }
  const char *prec = NULL, *ref = NULL, *pnote = NULL;
  json_t *f[VI_NQUANT], *rf[VI_NQUANT];
  json_error_t je;
  if (json_unpack_ex(
          v, &je, JSON_STRICT, "{s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:o}",
          "method", &method, "precision", &prec, "reference", &ref, "precision_note",
          &pnote, "q", &f[0], "p", &f[1], "lambda", &f[2], "q_relative_at_T", &rf[0],
          "p_relative_at_T", &rf[1], "lambda_relative_at_T", &rf[2]) != 0) {
    snprintf(why, whylen, "%s", je.text);
    return -1;
  }
  if (vi_study_method(x.spec, canon, sizeof canon, why, whylen) != 0) {
    return -1;
  }
  if (strcmp(method, canon) != 0 ||
      (strcmp(prec, "double") != 0 && strcmp(prec, "quad") != 0)) {
    snprintf(why, whylen,
             "method '%.120s' in '%.8s' precision is not this cell's (%s in "
             "double or quad)",
             method, prec, canon);
    return -1;
  }
  if (strlen(ref) >= sizeof x.reference || strlen(pnote) >= sizeof x.precision_note) {
    snprintf(why, whylen, "reference or precision note too long");
    return -1;
  }
  for (int q = 0; q < VI_NQUANT; q++) {
    if (vi_cell_fit_restore(f[q], "fit", 1, &x.fit[q], why, whylen) != 0 ||
        vi_cells_errors_read(json_object_get(f[q], "errors"), dm_quantity[q], x.err[q],
                             DM_NH, why, whylen) != 0 ||
        vi_cell_fit_restore(rf[q], "fit", 1, &x.rfit[q], why, whylen) != 0 ||
        vi_cells_errors_read(json_object_get(rf[q], "errors"), dm_quantity[q], x.rel[q],
                             DM_NH, why, whylen) != 0) {
      return -1;
    }
  }
  x.refused = 0;
  x.refusal[0] = '\0';
  snprintf(x.method, sizeof x.method, "%s", method);
  snprintf(x.precision, sizeof x.precision, "%s", prec);
  snprintf(x.reference, sizeof x.reference, "%s", ref);
  snprintf(x.precision_note, sizeof x.precision_note, "%s", pnote);
  judge(&x);
  x.done = 1;
  *(dm_cell *)c_ = x;
  return 0;
}

/* ---- the layout (study.h): one row per cell ------------------------------ */

static const vi_col dm_cols[] = {
    {"system", .type = VI_COL_TEXT},
    {"s", .type = VI_COL_INT},
    {"label", .type = VI_COL_TEXT}, /* the published method label, "-" beyond */
    {"method", .type = VI_COL_TEXT},
    {"beyond_paper", .type = VI_COL_BOOL},
    {"refused", .type = VI_COL_BOOL},
    {"outcome", .type = VI_COL_TEXT, .flags = VI_COL_QUOTED},
    {"T", .type = VI_COL_REAL, .csv_fmt = "%g"},
    {"h", .type = VI_COL_TEXT, .flags = VI_COL_QUOTED},
    {"published_q", .type = VI_COL_ANY},
    {"published_p", .type = VI_COL_ANY},
    {"published_lambda", .type = VI_COL_ANY},
    {"declared_q", .type = VI_COL_ANY},
    {"declared_p", .type = VI_COL_ANY},
    {"declared_lambda", .type = VI_COL_ANY},
    {"measured_q", .type = VI_COL_ANY, .flags = VI_COL_NOCSV},
    {"measured_q_label", .type = VI_COL_TEXT, .csv = "measured_q",
     .flags = VI_COL_NOJSON},
    {"measured_p", .type = VI_COL_ANY, .flags = VI_COL_NOCSV},
    {"measured_p_label", .type = VI_COL_TEXT, .csv = "measured_p",
     .flags = VI_COL_NOJSON},
    {"measured_lambda", .type = VI_COL_ANY, .flags = VI_COL_NOCSV},
    {"measured_lambda_label", .type = VI_COL_TEXT, .csv = "measured_lambda",
     .flags = VI_COL_NOJSON},
    {"residual_q", .type = VI_COL_REAL, .csv_fmt = "%.3g"},
    {"residual_p", .type = VI_COL_REAL, .csv_fmt = "%.3g"},
    {"residual_lambda", .type = VI_COL_REAL, .csv_fmt = "%.3g"},
    {"fit_range", .type = VI_COL_TEXT, .flags = VI_COL_QUOTED}, /* per quantity */
    {"match", .type = VI_COL_BOOL},
    {"mismatched", .type = VI_COL_TEXT}, /* the quantities that do not match */
    /* not judged: the relative errors at t = T */
    {"relative_at_T_q", .type = VI_COL_TEXT},
    {"relative_at_T_p", .type = VI_COL_TEXT},
    {"relative_at_T_lambda", .type = VI_COL_TEXT},
    {"precision", .type = VI_COL_TEXT},
    {"reference", .type = VI_COL_TEXT, .flags = VI_COL_QUOTED},
    {"errors", .type = VI_COL_JSON}, /* per quantity, at each h */
    {"local_slopes", .type = VI_COL_TEXT, .flags = VI_COL_QUOTED},
    {"seconds", .type = VI_COL_REAL, .fmt = "%.3f", .flags = VI_COL_NOCSV},
};

/* "a, b, c": the local slopes log(e_i/e_{i+1}) / log(h_i/h_{i+1}). */
static void dm_slopes(const double *e, char *buf, size_t len) {
  const double *h = dm_h();
  size_t off = 0;
  buf[0] = '\0';
  for (int i = 0; i + 1 < DM_NH && off < len; i++) {
    const double s = log(e[i] / e[i + 1]) / log(h[i] / h[i + 1]);
    off += (size_t)snprintf(buf + off, len - off, isfinite(s) ? "%s%.2f" : "%s-",
                            i ? ", " : "", s);
  }
}

/* "h = 0.1 .. 0.0125, 4 points, rms residual 0.001" of an ok fit, else
 * its label. */
static void dm_range(const vi_cell_fit *f, char *buf, size_t len) {
  if (isfinite(f->order)) {
    snprintf(buf, len, "h = %g .. %g, %d points, rms residual %.2g", f->hmax, f->hmin,
             f->npoints, f->residual);
  } else {
    snprintf(buf, len, "%s", f->label);
  }
}

/* The fit ranges of q, p, lambda: "q, p, lambda: R" when the three are
 * the same, else "q: R; p: R; lambda: R". */
static void dm_ranges(const dm_cell *c, char *buf, size_t len) {
  char r[VI_NQUANT][96];
  for (int x = 0; x < VI_NQUANT; x++) {
    dm_range(&c->fit[x], r[x], sizeof r[x]);
  }
  if (strcmp(r[0], r[1]) == 0 && strcmp(r[0], r[2]) == 0) {
    snprintf(buf, len, "q, p, lambda: %s", r[0]);
    return;
  }
  snprintf(buf, len, "q: %s; p: %s; lambda: %s", r[0], r[1], r[2]);
}

static int dm_int_or_dash(vi_rows *R, int r, const char *col, int v) {
  if (v >= 0) {
    vi_rows_int(R, r, col, v);
    return 0;
  }
  return vi_rows_text(R, r, col, "-");
}

static int dm_rows(const void *c_, vi_rows *R) {
  const dm_cell *c = c_;
  const int r = vi_rows_add(R);
  if (r < 0) {
    return -1;
  }
  static const char *const pubcol[] = {"published_q", "published_p", "published_lambda"};
  static const char *const declcol[] = {"declared_q", "declared_p", "declared_lambda"};
  static const char *const meascol[] = {"measured_q", "measured_p", "measured_lambda"};
  static const char *const labcol[] = {"measured_q_label", "measured_p_label",
                                       "measured_lambda_label"};
  static const char *const rescol[] = {"residual_q", "residual_p", "residual_lambda"};
  static const char *const relcol[] = {"relative_at_T_q", "relative_at_T_p",
                                       "relative_at_T_lambda"};
  char mism[32] = "", slopes[400] = "", range[300] = "", one[96];
  size_t off = 0;
  json_t *errs = json_object();
  for (int x = 0; x < VI_NQUANT; x++) {
    if (dm_int_or_dash(R, r, pubcol[x], c->pub[x]) != 0 ||
        dm_int_or_dash(R, r, declcol[x], c->decl[x]) != 0 ||
        vi_rows_real_or_text(R, r, meascol[x], c->fit[x].order, c->fit[x].label) != 0 ||
        vi_rows_text(R, r, labcol[x], c->fit[x].label) != 0 ||
        vi_rows_text(R, r, relcol[x], c->rfit[x].label) != 0) {
      json_decref(errs);
      return -1;
    }
    vi_rows_real(R, r, rescol[x], c->fit[x].residual);
    if (!c->refused && !c->match[x]) {
      off += (size_t)snprintf(mism + off, sizeof mism - off, "%s%s", off ? " " : "",
                              dm_quantity[x]);
    }
    dm_slopes(c->err[x], one, sizeof one);
    snprintf(slopes + strlen(slopes), sizeof slopes - strlen(slopes), "%s%s: %s",
             x ? "; " : "", dm_quantity[x], one);
    json_t *e =
        json_pack("{s:o, s:o}", "max_over_nodes", vi_cells_errors_json(c->err[x], DM_NH),
                  "relative_at_T", vi_cells_errors_json(c->rel[x], DM_NH));
    json_object_set_new(errs, dm_quantity[x], e);
  }
  dm_ranges(c, range, sizeof range);
  char outcome[480];
  if (c->refused) {
    snprintf(outcome, sizeof outcome, "refused by the family: %s", c->refusal);
  } else {
    snprintf(outcome, sizeof outcome, "measured");
  }
  if (vi_rows_text(R, r, "system", dm_system[c->sys]) ||
      vi_rows_text(R, r, "label", c->label) || vi_rows_text(R, r, "method", c->method) ||
      vi_rows_text(R, r, "outcome", outcome) || vi_rows_text(R, r, "h", DM_H_TEXT) ||
      vi_rows_text(R, r, "mismatched", mism) ||
      vi_rows_text(R, r, "fit_range", c->refused ? "" : range) ||
      vi_rows_text(R, r, "precision", c->precision) ||
      vi_rows_text(R, r, "reference", c->reference) ||
      vi_rows_text(R, r, "local_slopes", c->refused ? "" : slopes) ||
      vi_rows_json_value(R, r, "errors", errs) != 0) {
    return -1;
  }
  vi_rows_int(R, r, "s", c->s);
  vi_rows_bool(R, r, "beyond_paper", c->beyond);
  vi_rows_bool(R, r, "refused", c->refused);
  vi_rows_real(R, r, "T", DM_T);
  vi_rows_bool(R, r, "match", c->matched);
  vi_rows_real(R, r, "seconds", c->refused ? NAN : c->fit[0].seconds);
  return 0;
}

#define DM_CHOICES                                                                       \
  "nhprk:s=S for both published labels (lobatto-iiia-iiib on the particle, "             \
  "lobatto-iiia-iiib-cay on the disc: one family, the configuration space comes from "   \
  "the "                                                                                 \
  "system; lambda0 exact, ddcay on). Every system with its default data (notes §2.1, "  \
  "§2.4, §2.5; the paper gives none), T = 2, h = T/N for N = 5, 10, 20, 40, 80, 160 "  \
  "for "                                                                                 \
  "every s (the union of the notes' §4.2 grids). Errors max_k |x_k - x_ref(t_k)|_inf "  \
  "of q "                                                                                \
  "(a group in its embedding), p and lambda (nodes k >= 1), the harness's measure, "     \
  "against the reference `vistudy order` takes: the exact solution of the disc (notes "  \
  "§2.4), elsewhere an independent integration of the index-1 equations (not the "      \
  "method "                                                                              \
  "itself at h = 1e-4, the paper's reference). Precision: double, rerun in quad when a " \
  "quantity cannot get four errors above the floor of double (notes P6). Not judged, "   \
  "beside: the paper's likely measure (notes §4.1), the relative error at T, |x_N - "   \
  "x_ref(T)|_inf / |x_ref(T)|_inf, from a second study with errors at t = T in the "     \
  "same "                                                                                \
  "precision. Match: every published order equals the measured one rounded to the "      \
  "nearest integer; a quantity without an ok fit has no order and does not match. "      \
  "Beyond "                                                                              \
  "the paper (not in the published table, counted apart, judged the same way against "   \
  "the family's declared orders, vi_stepper_expected_order = Cor. 5.2.1): the disc at "  \
  "s "                                                                                   \
  "= 5, the turntable (SO(3) x R^2, a = b = c) at s = 2..5, and the knife edge on an "   \
  "incline, which nhprk refuses (its reason is the outcome; no order is measured)."

static json_t *dm_head(const vi_study *s) {
  json_t *h = json_array();
  for (int k = 0; k < DM_NH; k++) {
    json_array_append_new(h, json_real(dm_h()[k]));
  }
  json_t *sys = json_array();
  for (int k = 0; k < DM_NSYS; k++) {
    json_array_append_new(sys, json_string(dm_system[k]));
  }
  return json_pack(
      "{s:s, s:f, s:o, s:o, s:s, s:s}", "title", vi_table_caption(s), "T", DM_T, "h", h,
      "systems", sys, "match_rule",
      "the measured order rounded to the nearest integer equals the published "
      "(beyond the paper: the declared) one",
      "choices", DM_CHOICES);
}

/* "4.01 (4)" with a mismatch in bold, or the label. */
static void dm_md_entry(FILE *f, const dm_cell *c, int x) {
  const int want = dm_target(c, x);
  char w[16];
  snprintf(w, sizeof w, want >= 0 ? "%d" : "-", want);
  fprintf(f, c->match[x] ? " %s (%s) |" : " **%s (%s)** |", c->fit[x].label, w);
}

static void dm_md_table(FILE *f, const dm_cell *cells, int n, int beyond) {
  fprintf(f, "| system | s | q | p | lambda | fit ranges | relative error at T: q, p, "
             "lambda | precision |\n|---|---|---|---|---|---|---|---|\n");
  for (int k = 0; k < n; k++) {
    const dm_cell *c = &cells[k];
    if (c->beyond != beyond) {
      continue;
    }
    fprintf(f, "| %s | %d |", dm_system[c->sys], c->s);
    if (!c->done) {
      fprintf(f, " (not measured) | | | | | |\n");
      continue;
    }
    if (c->refused) {
      fprintf(f, " refused | refused | refused | - | - | - |\n");
      continue;
    }
    for (int x = 0; x < VI_NQUANT; x++) {
      dm_md_entry(f, c, x);
    }
    char ranges[320];
    dm_ranges(c, ranges, sizeof ranges);
    fprintf(f, " %s | %s, %s, %s | %s |\n", ranges, c->rfit[VI_Q].label,
            c->rfit[VI_P].label, c->rfit[VI_LAMBDA].label, c->precision);
  }
}

static void dm_md(FILE *f, const vi_study *st, const void *cells_, int n,
                  const vi_rows *R, int matched, int total) {
  (void)R;
  const dm_cell *cells = cells_;
  int bm = 0, bt = 0, refused = 0, nb = 0;
  for (int k = 0; k < n; k++) {
    const dm_cell *c = &cells[k];
    nb += c->beyond;
    if (c->beyond && c->done && !c->refused) {
      bt++;
      bm += c->matched;
    }
    refused += c->done && c->refused;
  }
  fprintf(f, "# %s\n\n%s\n\n%s\n\n", st->id, vi_table_caption(st), DM_CHOICES);
  fprintf(f,
          "Matched **%d/%d** published rows. Beyond the paper: **%d/%d** agree with Cor. "
          "5.2.1 (the family's declared orders)%s.\n\n",
          matched, total, bm, bt, refused ? ", one system refused by the family" : "");
  fprintf(f,
          "## The paper's rows (Figs 3 and 7)\n\n"
          "Each entry: measured order (published); **bold** marks a mismatch. Fit "
          "ranges: the step sizes of the fitted window. Relative error at T: the order "
          "of the paper's likely measure, not judged.\n\n");
  dm_md_table(f, cells, n, 0);
  if (nb > 0) {
    fprintf(f, "\n## Beyond the paper\n\nNot in the published table, not counted in the "
               "match above. Each entry: measured order (declared by the family, "
               "Cor. 5.2.1); **bold** marks a disagreement.\n\n");
    dm_md_table(f, cells, n, 1);
    for (int k = 0; k < n; k++) {
      if (cells[k].done && cells[k].refused) {
        fprintf(f, "\n%s, %s: refused by the family: %s\n", dm_system[cells[k].sys],
                cells[k].spec, cells[k].refusal);
      }
    }
  }
  fprintf(f,
          "\n## Figures\n\nAs the paper drew them (error against h, one curve per s, "
          "fitted order in the legend): Fig. 3 [%s-fig3.svg](%s-fig3.svg), Fig. 7 "
          "[%s-fig7.svg](%s-fig7.svg) (data: `.dat`, script: `.gp`).\n",
          st->id, st->id, st->id, st->id);
  fprintf(f, "\n## Errors\n\n");
  for (int k = 0; k < n; k++) {
    const dm_cell *c = &cells[k];
    if (!c->done || c->refused) {
      continue;
    }
    fprintf(
        f,
        "%s, `%s` (%s precision; reference: %s):\n\n| h | e_q | e_p | e_lambda | "
        "rel. e_q(T) | rel. e_p(T) | rel. e_lambda(T) |\n|---|---|---|---|---|---|---|\n",
        dm_system[c->sys], c->method, c->precision, c->reference);
    for (int i = 0; i < DM_NH; i++) {
      fprintf(f, "| %g | %.3e | %.3e | %.3e | %.3e | %.3e | %.3e |\n", dm_h()[i],
              c->err[VI_Q][i], c->err[VI_P][i], c->err[VI_LAMBDA][i], c->rel[VI_Q][i],
              c->rel[VI_P][i], c->rel[VI_LAMBDA][i]);
    }
    char sl[96];
    fprintf(f, "\nLocal slopes:");
    for (int x = 0; x < VI_NQUANT; x++) {
      dm_slopes(c->err[x], sl, sizeof sl);
      fprintf(f, "%s %s %s", x ? ";" : "", dm_quantity[x], sl);
    }
    fprintf(f, ".%s%s\n\n", c->precision_note[0] ? " Precision: " : "",
            c->precision_note);
  }
}

static void dm_mismatch(FILE *f, const vi_rows *R, int r, int md) {
  fprintf(f, "%s nhprk s = %ld", vi_rows_get_text(R, r, "system"),
          vi_rows_get_int(R, r, "s"));
  if (vi_rows_get_int(R, r, "refused")) {
    fprintf(f, ": %s", vi_rows_get_text(R, r, "outcome"));
    return;
  }
  fputs(": ", f);
  const int beyond = vi_rows_get_int(R, r, "beyond_paper") != 0;
  static const char *const pubcol[] = {"published_q", "published_p", "published_lambda"};
  static const char *const declcol[] = {"declared_q", "declared_p", "declared_lambda"};
  static const char *const labcol[] = {"measured_q_label", "measured_p_label",
                                       "measured_lambda_label"};
  const char *mism = vi_rows_get_text(R, r, "mismatched");
  int first = 1;
  for (int x = 0; x < VI_NQUANT; x++) {
    char want[16];
    const char *q = dm_quantity[x];
    int in = 0;
    for (const char *s = mism; s && *s;) {
      const size_t len = strcspn(s, " ");
      in |= len == strlen(q) && strncmp(s, q, len) == 0;
      s += len + (s[len] == ' ');
    }
    if (!in) {
      continue;
    }
    fprintf(f, "%s%s measured %s, %s %s", first ? "" : "; ", q,
            vi_rows_get_text(R, r, labcol[x]), beyond ? "declared" : "published",
            vi_rows_str(R, r, beyond ? declcol[x] : pubcol[x], want, sizeof want));
    first = 0;
  }
  fprintf(f, md ? " (local slopes %s)" : " [local slopes %s]",
          vi_rows_get_text(R, r, "local_slopes"));
}

/* ---- the figures (Figs 3 and 7 as the paper drew them) -------------------- */

static char *dm_dat(const dm_cell *cells, int n, int sys) {
  vi_text t;
  FILE *f = vi_text_open(&t);
  if (!f) {
    return NULL;
  }
  fprintf(f,
          "# demartin2018-orders, Fig. %s: %s, errors max_k |x_k - x_ref(t_k)|_inf, T = "
          "%g\n",
          dm_figure[sys], dm_system[sys], DM_T);
  for (int k = 0; k < n; k++) {
    const dm_cell *c = &cells[k];
    if (c->sys != sys || !c->done || c->refused) {
      continue;
    }
    fprintf(f, "\n\n# %s (s = %d, %s precision%s)\n# h e_q e_p e_lambda\n", c->method,
            c->s, c->precision, c->beyond ? ", beyond the paper" : "");
    for (int i = 0; i < DM_NH; i++) {
      fprintf(f, "%.10e %.10e %.10e %.10e\n", dm_h()[i], c->err[VI_Q][i], c->err[VI_P][i],
              c->err[VI_LAMBDA][i]);
    }
  }
  return vi_text_close(&t);
}

static char *dm_gp(const dm_cell *cells, int n, int sys) {
  char title[256];
  snprintf(title, sizeof title, "demartin2018 Fig. %s: nhprk on %s, T = %g (measured)",
           dm_figure[sys], dm_system[sys], DM_T);
  vi_gp *g = vi_gp_new(title);
  static const char *const ylab[VI_NQUANT] = {
      "global q error max_k |q_k - q(t_k)|", "global p error max_k |p_k - p(t_k)|",
      "global lambda error max_k |lambda_k - lambda(t_k)|"};
  for (int x = 0; x < VI_NQUANT; x++) {
    char pt[64];
    snprintf(pt, sizeof pt, "%s", dm_quantity[x]);
    vi_gp_panel(g, pt, "step size h [time units]", ylab[x], VI_GP_LOGX | VI_GP_LOGY);
    int i = 0;
    for (int k = 0; k < n; k++) {
      const dm_cell *c = &cells[k];
      if (c->sys != sys || !c->done || c->refused) {
        continue;
      }
      char lab[128];
      const char *more = c->beyond ? " (beyond the paper)" : "";
      if (isfinite(c->fit[x].order)) {
        snprintf(lab, sizeof lab, "s = %d: order %.2f%s", c->s, c->fit[x].order, more);
      } else {
        snprintf(lab, sizeof lab, "s = %d: %s%s", c->s, c->fit[x].label, more);
      }
      vi_gp_curve(g, lab, dm_h(), c->err[x], DM_NH, i, 0);
      i++;
    }
  }
  char *body = vi_gp_body(g, 1, VI_NQUANT);
  vi_gp_free(g);
  return body;
}

static int dm_stage(const vi_study *s, const void *cells_, int n, vi_outset *set,
                    const char *dir, char *err, size_t errlen) {
  const dm_cell *cells = cells_;
  for (int sys = 0; sys < DM_NSYS; sys++) {
    if (!dm_figure[sys]) {
      continue;
    }
    char name[128], path[VI_PATH_MAX + 160];
    snprintf(name, sizeof name, "%s-fig%s", s->id, dm_figure[sys]);
    snprintf(path, sizeof path, "%s/%s.dat", dir, name);
    char *dat = dm_dat(cells, n, sys), *gp = dm_gp(cells, n, sys);
    int bad = !dat || !gp;
    if (bad) {
      snprintf(err, errlen, "out of memory");
    }
    bad = bad || vi_outset_text(set, path, dat, err, errlen) != 0 ||
          vi_plot_stage(set, dir, name, gp, 1500, 560, err, errlen) != 0;
    free(dat);
    free(gp);
    if (bad) {
      return -1;
    }
  }
  return 0;
}

/* ---- the spec ------------------------------------------------------------ */

static void cell_key(const void *c_, char *buf, size_t len) {
  const dm_cell *c = c_;
  snprintf(buf, len, "%s %s", dm_system[c->sys], c->spec);
}

static void cell_label(const void *c_, char *buf, size_t len) {
  const dm_cell *c = c_;
  snprintf(buf, len, "%s s=%d%s", dm_system[c->sys], c->s, c->beyond ? " (beyond)" : "");
}

static int cell_done(const void *c) {
  return ((const dm_cell *)c)->done;
}

const vi_table_spec vi_demartin2018_orders = {
    .config =
        "default data of nonholonomic-particle, vertical-disc, turntable, "
        "knife-edge-incline; nhprk:s=S; T = 2, N = 5,10,20,40,80,160; errors max over "
        "the nodes against the default reference; precision auto; the relative errors "
        "at T in the chosen precision; beyond the paper: disc s=5, turntable s=2..5, "
        "knife-edge-incline s=3",
    .cell_size = sizeof(dm_cell),
    .verdicts_per_cell = 1,
    .fields = dm_fields,
    .cell = dm_read_cell,
    .key = cell_key,
    .label = cell_label,
    .done = cell_done,
    .measure = run_cell,
    .stored = cell_measurement,
    .restore = cell_restore,
    .cols = dm_cols,
    .ncols = (int)(sizeof dm_cols / sizeof dm_cols[0]),
    .rows = dm_rows,
    .head = dm_head,
    .by = "system",
    .md = dm_md,
    .mismatch = dm_mismatch,
    .not_run = "refused",
    .regenerate = 1,
    .extra = dm_extra,
    .nextra = 8,
    .beyond = "beyond_paper",
    .beyond_words = "agree with Cor. 5.2.1 (the family's declared orders)",
    .stage = dm_stage,
};
