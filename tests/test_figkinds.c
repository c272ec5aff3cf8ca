/* test_figkinds.c: the figure runner's kinds that no paper's spec uses yet
 * (e2e suite), on specs written here and run into a temporary results
 * directory like any study:
 *   - VI_FIG_CONVERGENCE: galerkin s = 1, 2 on the planar pendulum with
 *     explicit step sizes; each curve's fitted order of q (2s, wenger2017
 *     Table 1) with an ok verdict, the rows of the order study, the files;
 *   - VI_FIG_RESIDUAL: the hidden constraint |G M^-1 p| along galerkin
 *     s = 1 (SHAKE: of the size of its truncation error) and its projected
 *     variant (RATTLE, project=p: at round-off), and, in the test
 *     configuration, the extra block of nhmid by its name (phi_end, O(h^2));
 *   - a trace through vi_api in both precisions: the same run in double
 *     and in quad keeps a momentum map that galerkin conserves (Jz of the
 *     3D double pendulum, wenger2017 §3.4.2) at the round-off of each
 *     precision (each run on its own; they are not compared);
 *   - what a trace follows (trace.follow): the value, the change and the
 *     increments of one run agree (the change at node k is the sum of the
 *     increments up to k, the value minus the value at node 0), and a
 *     momentum map without a Noether symmetry is no first integral in the
 *     measures (pendulum-3d's Jx: followed as a value, Jz as a change);
 *   - VI_FIG_PATH: q2 against q1 of the planar pendulum along galerkin,
 *     every node on the circle |q| = l, the first at q0, the files, and the
 *     store's checks of a path (its abscissa, its rows).
 * The claim predicates below are the checks; a claim that does not hold
 * fails the test. */
#include "check.h"

#include "figure.h"
#include "figure_impl.h"
#include "reproduce.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CHECK(...) VI_CHECK(T, __VA_ARGS__)

static int conv_claims(const vi_fig_spec *f, vi_series *ss, int ns, int quick, vi_claim *cl,
                       char *err, size_t errlen) {
  (void)f;
  (void)quick;
  (void)err;
  (void)errlen;
  for (int i = 0; i < ns; i++) {
    const int want = 2 * (i + 1); /* s = 1, 2: order 2s in q */
    const int ok = ss[i].fit_ok && fabs(ss[i].order - want) < 0.3 && ss[i].rows == 4;
    vi_claim_set(&cl[i], ok, "the fitted order of q is 2s", "%s: order %.2f (%s), %d rows",
                 ss[i].label, ss[i].order, ss[i].fit_why, ss[i].rows);
  }
  return ns;
}

static const vi_fig_spec conv_spec = {
    .id = "test-convergence",
    .kind = VI_FIG_CONVERGENCE,
    .system = "planar-pendulum",
    .T = 1,
    .T_quick = 1,
    .ylabel = "global error of q",
    .why = "a test of the runner kind",
    .claims = conv_claims,
    .curves = {{"s=w=1", "galerkin:s=1,w=1,quadL=gauss,r=1", 0, NULL, 0},
               {"s=w=2", "galerkin:s=2,w=2,quadL=gauss,r=2", 0, NULL, 0}},
    .conv = {.quantity = VI_Q, .nN = 4, .N = {16, 32, 64, 128}, .precision = VI_DOUBLE},
};

/* SHAKE's hidden constraint residual is of its truncation error's size,
 * RATTLE's at round-off; nhmid's node residual is O(h^2). */
static int res_claims(const vi_fig_spec *f, vi_series *ss, int ns, int quick, vi_claim *cl,
                      char *err, size_t errlen) {
  (void)f;
  (void)quick;
  (void)err;
  (void)errlen;
  int k = 0;
  for (int i = 0; i < ns; i++) {
    const char *lab = ss[i].label;
    int ok = ss[i].rows > 10 && isfinite(ss[i].amax);
    if (strcmp(lab, "shake") == 0) {
      ok &= ss[i].amax > 1e-6 && ss[i].amax < 1;
    } else if (strcmp(lab, "rattle") == 0) {
      ok &= ss[i].amax < 1e-12;
    } else {
      ok &= ss[i].amax > 1e-8 && ss[i].amax < 1e-1;
    }
    vi_claim_set(&cl[k++], ok, "the residual's size", "%s: max %.3e over %d windows", lab,
                 ss[i].amax, ss[i].rows);
  }
  return k;
}

static const vi_fig_spec res_spec = {
    .id = "test-residual",
    .kind = VI_FIG_RESIDUAL,
    .system = "planar-pendulum",
    .measure = "gv_norm",
    .T = 5,
    .T_quick = 5,
    .ylabel = "|G M^-1 p|",
    .why = "a test of the runner kind",
    .claims = res_claims,
    .curves = {{"shake", "galerkin:scheme=shake", 0.05, NULL, 0},
               {"rattle", "galerkin:scheme=rattle", 0.05, NULL, 0}},
};

static const vi_fig_spec res_nh_spec = {
    .id = "test-residual-nh",
    .kind = VI_FIG_RESIDUAL,
    .system = "knife-edge-incline",
    .measure = "phi_end",
    .T = 5,
    .T_quick = 5,
    .ylabel = "|phi_end|",
    .why = "a test of the runner kind on a method's extra block",
    .claims = res_claims,
    .curves = {{"nhmid", "nhmid", 0.05, NULL, 0}},
};

/* A path: q2 against q1 of the planar pendulum (l = 1 by default), every
 * node (N = 40 < VI_FIG_TRACE_WINDOWS) on the circle. */
static int path_claims(const vi_fig_spec *f, vi_series *ss, int ns, int quick, vi_claim *cl,
                       char *err, size_t errlen) {
  (void)quick;
  (void)err;
  (void)errlen;
  const vi_series *s = &ss[0];
  double dev = 0;
  for (int r = 0; r < s->rows; r++) {
    const double x = vi_fig_at(s, r, 1), y = vi_fig_at(s, r, 2);
    dev = fmax(dev, fabs(sqrt(x * x + y * y) - 1));
  }
  const int last = s->rows - 1;
  const int ok = ns == 1 && s->rows == 41 && vi_fig_at(s, 0, 0) == 0 &&
                 fabs(vi_fig_at(s, last, 0) - f->T) < 1e-12 && dev < 1e-13 &&
                 strcmp(s->xmeasure, "q1") == 0 && vi_fig_at(s, last, 1) != vi_fig_at(s, 0, 1);
  vi_claim_set(&cl[0], ok, "the path: every node, on the circle", "%d rows, |q| - 1 up to %.1e",
               s->rows, dev);
  return 1;
}

static const vi_fig_spec path_spec = {
    .id = "test-path",
    .kind = VI_FIG_PATH,
    .system = "planar-pendulum",
    .T = 2,
    .T_quick = 2,
    .ylabel = "q2 against q1",
    .why = "a test of the runner kind",
    .claims = path_claims,
    .path = {.x = "q1", .rod = 1},
    .curves = {{"galerkin", "galerkin:s=2,w=2", 0.05, "q2", 0}},
};

/* A trace that breaks down at once (|H - H(0)| > 1e-12): its event. */
static const vi_fig_spec brk_spec = {
    .id = "test-breakdown",
    .kind = VI_FIG_TRACE,
    .system = "planar-pendulum",
    .measure = "energy",
    .T = 5,
    .T_quick = 5,
    .ylabel = "H",
    .why = "a test of the store's checks",
    .claims = res_claims,
    .trace = {.breakdown = 1e-12},
    .curves = {{"shake", "galerkin:scheme=shake", 0.05, NULL, 0}},
};

/* A series of curve i of f as the runner prepares it (fig_prepare). */
static void series_init(vi_series *s, const vi_fig_spec *f, int i, const char **cols) {
  memset(s, 0, sizeof *s);
  snprintf(s->label, sizeof s->label, "%s", f->curves[i].label);
  s->ncol = vi_fig_cols(f, cols);
  s->cols = cols;
  s->quad = s->event_t = s->order = s->uncertainty = s->seconds = NAN;
  if (f->kind == VI_FIG_PATH) {
    snprintf(s->xmeasure, sizeof s->xmeasure, "%s", vi_fig_path_x(f, i));
  }
}

/* The stored curve v with one field of its series set by a JSON path
 * (key or key.key) to x (stolen), restored into a series holding one
 * sentinel row: refused, the series untouched. */
static void refused(vi_check_ctx *T, const vi_fig_spec *f, json_t *v, const char *k1,
                    const char *k2, json_t *x, const char *what) {
  json_t *c = json_deep_copy(v);
  json_t *m = json_object_get(c, "series");
  json_object_set_new(k2 ? json_object_get(m, k1) : m, k2 ? k2 : k1, x);
  const char *cols[VI_FIG_MAXCOLS];
  vi_series t;
  series_init(&t, f, 0, cols);
  const double row[VI_FIG_MAXCOLS] = {42};
  vi_fig_push(&t, row);
  char why[512] = "";
  const int rc = vi_fig_curve_restore(f, 0, f->T, 0, 0, &t, NULL, c, why, sizeof why);
  CHECK(rc != 0 && t.rows == 1 && vi_fig_at(&t, 0, 0) == 42 && !t.done &&
            t.method[0] == 0 && isnan(t.event_t) && isnan(t.order),
        "%s: a stored %s is refused (%s), the series untouched", f->id, what, why);
  printf("  %s: %s: %s\n", f->id, what, why);
  free(t.v);
  json_decref(c);
}

/* The cell store's checks of a stored curve on a convergence curve (its
 * fit), a trace with a breakdown (its event) and a path (its abscissa,
 * its rows): the stored curve as run is restored, each spoiled field
 * refused. */
static void test_store_checks(vi_check_ctx *T) {
  const vi_fig_spec *fs[3] = {&conv_spec, &brk_spec, &path_spec};
  for (int k = 0; k < 3; k++) {
    const vi_fig_spec *f = fs[k];
    const char *cols[VI_FIG_MAXCOLS];
    vi_series s, r;
    series_init(&s, f, 0, cols);
    char err[512] = "";
    int rc = vi_fig_curve_run(f, 0, f->T, 0, 0, &s, NULL, err, sizeof err);
    CHECK(f->kind != VI_FIG_PATH || strcmp(s.xmeasure, "q1") == 0,
          "%s: the path's abscissa as the runner sets it", f->id);
    CHECK(rc == VI_OK, "%s: the curve ran (%s)", f->id, err);
    json_t *v = vi_fig_curve_stored(&s, NULL);
    series_init(&r, f, 0, cols);
    rc = vi_fig_curve_restore(f, 0, f->T, 0, 0, &r, NULL, v, err, sizeof err);
    CHECK(rc == 0 && r.done && r.rows == s.rows && r.rows > 0 &&
              memcmp(r.v, s.v, (size_t)(s.rows * s.ncol) * sizeof *s.v) == 0 &&
              strcmp(r.method, s.method) == 0,
          "%s: the curve as stored is restored (%s)", f->id, rc ? err : "");
    refused(T, f, v, "method", NULL, json_string("galerkin:s=1,w=1"), "method");
    refused(T, f, v, "status_code", NULL, json_integer(99), "status_code 99");
    if (f->kind == VI_FIG_CONVERGENCE) {
      CHECK(s.fit_ok && r.fit_ok && r.order == s.order && r.fit_lo == s.fit_lo &&
                r.fit_hi == s.fit_hi && strcmp(r.precision, s.precision) == 0,
            "%s: the fit restored", f->id);
      refused(T, f, v, "fit", "order", json_real(1.2e10), "order 1.2e10");
      refused(T, f, v, "fit", "order", json_null(), "ok fit without an order");
      refused(T, f, v, "fit", "uncertainty", json_real(-1), "uncertainty -1");
      refused(T, f, v, "fit", "hi", json_integer(s.rows), "fit window past the rows");
      refused(T, f, v, "fit", "lo", json_integer(s.fit_hi), "fit window lo = hi");
      refused(T, f, v, "fit", "precision", json_string("banana"), "precision");
      refused(T, f, v, "fit", "precision", json_string("quad (as asked)"),
              "other precision");
      refused(T, f, v, "fit", "reason", json_string("banana"), "reason");
      refused(T, f, v, "h", NULL, json_real(0.1), "h on a sweep of steps");
      json_t *rows =
          json_deep_copy(json_object_get(json_object_get(v, "series"), "rows"));
      json_array_set_new(json_array_get(rows, 0), 0, json_real(2));
      refused(T, f, v, "rows", NULL, rows, "h = 2 > T in a row");
    } else if (f->kind == VI_FIG_PATH) {
      CHECK(strcmp(r.xmeasure, "q1") == 0 && isnan(r.event_t), "%s: the path restored", f->id);
      refused(T, f, v, "xquantity", NULL, json_string("q2"), "other abscissa");
      json_t *rows =
          json_deep_copy(json_object_get(json_object_get(v, "series"), "rows"));
      json_array_set_new(json_array_get(rows, 1), 0, json_real(0));
      refused(T, f, v, "rows", NULL, rows, "a time that does not increase");
      refused(T, f, v, "event", NULL, json_pack("{s:f, s:s}", "t", 1.0, "what", "x"),
              "event on a path");
    } else {
      CHECK(isfinite(s.event_t) && r.event_t == s.event_t &&
                strcmp(r.event, s.event) == 0,
            "%s: the event (%s at %g) restored", f->id, s.event, s.event_t);
      refused(T, f, v, "event", "t", json_real(-1), "event at t = -1");
      refused(T, f, v, "event", "t", json_real(6), "event after T");
      refused(T, f, v, "event", "what", json_string("banana"), "event 'banana'");
      refused(T, f, v, "h", NULL, json_real(1e300), "h = 1e300");
      refused(T, f, v, "fit", NULL, json_pack("{s:f}", "order", 2.0), "fit on a trace");
    }
    json_decref(v);
    free(s.v);
    free(r.v);
  }
}

/* Run a spec as a study into dir; the runner's exit status. */
static int run(const vi_fig_spec *f, const char *dir) {
  const vi_study st = {f->id, "a test figure", vi_run_figure, f, "", NULL, 0, 0};
  reproduce_opts o = {0};
  o.results_dir = dir;
  o.fresh = 1;
  o.strict = 1;
  return vi_run_figure(&st, &o);
}

static int exists(const char *dir, const char *id, const char *ext) {
  char p[512];
  snprintf(p, sizeof p, "%s/%s.%s", dir, id, ext);
  return access(p, R_OK) == 0;
}

/* The window rows of a trace into a series. */
static int collect(void *ctx, const double *row, int ncol) {
  vi_series *const *sz = ctx;
  (void)ncol;
  vi_series *s = sz[0];
  if (s->rows == s->cap) {
    const int cap = s->cap ? 2 * s->cap : 64;
    double *v = realloc(s->v, (size_t)cap * (size_t)s->ncol * sizeof *v);
    if (!v) {
      return VI_ENOMEM;
    }
    s->v = v;
    s->cap = cap;
  }
  memcpy(s->v + (size_t)s->rows * (size_t)s->ncol, row, (size_t)s->ncol * sizeof *row);
  s->rows++;
  return VI_OK;
}

/* What a trace follows: the value, the change and the increments of the
 * energy along one run of SHAKE (not conserved: every row differs), each
 * into its own series with one window per node; and the reference of a
 * momentum map without a Noether symmetry. */
static void test_trace_follow(vi_check_ctx *T) {
  vi_series s[3];
  vi_trace_result tr[3];
  const long N = 30;
  for (int m = 0; m < 3; m++) {
    memset(&s[m], 0, sizeof s[m]);
    s[m].ncol = 3;
    vi_series *sz[2] = {&s[m], NULL};
    vi_trace_config tc = {0};
    tc.system = "planar-pendulum";
    tc.method = "galerkin:scheme=shake";
    tc.h = 0.05;
    tc.N = N;
    tc.measure = "energy";
    tc.follow = m == 0 ? VI_TRACE_VALUE : m == 1 ? VI_TRACE_AUTO : VI_TRACE_INCREMENT;
    tc.per = 1;
    tc.window = collect;
    tc.ctx = sz;
    char err[256] = "";
    CHECK(vi_api_of(VI_DOUBLE)->trace(&tc, &tr[m], err, sizeof err) == VI_OK, "trace %d: %s",
          m, err);
  }
  CHECK(s[0].rows == N + 1 && s[1].rows == N + 1 && s[2].rows == N &&
            vi_fig_at(&s[2], 0, 0) == 0.05 && vi_fig_at(&s[2], N - 1, 0) == N * 0.05,
        "rows: value %d, change %d (N + 1), increments %d (N, from t = h)", s[0].rows,
        s[1].rows, s[2].rows);
  double worst = 0, sum = 0, moved = 0, maxinc = 0;
  for (int k = 1; s[2].rows == N && k <= N; k++) {
    sum += vi_fig_at(&s[2], k - 1, 1);
    maxinc = fmax(maxinc, fabs(vi_fig_at(&s[2], k - 1, 1)));
    const double value = vi_fig_at(&s[0], k, 1), change = vi_fig_at(&s[1], k, 1);
    worst = fmax(worst, fmax(fabs(change - (value - vi_fig_at(&s[0], 0, 1))),
                             fabs(change - sum)));
    moved = fmax(moved, fabs(change));
  }
  CHECK(worst < 1e-13 && moved > 1e-8 && tr[0].I0 == tr[2].I0 && tr[2].amax == maxinc &&
            vi_fig_at(&s[1], 0, 1) == 0,
        "change = value - value(0) = sum of the increments (worst %.1e; the energy moved by "
        "%.1e)", worst, moved);
  for (int m = 0; m < 3; m++) {
    free(s[m].v);
  }
  /* pendulum-3d lists Jx, Jy, Jz; only Jz is marked a Noether quantity. */
  char err[256] = "";
  const vi_system_type_d *type = vi_system_find_d("pendulum-3d", err, sizeof err);
  vi_system_d *sys = NULL;
  vi_measure mx, mz, mk;
  int rc = type ? vi_system_alloc_d(type, 0, NULL, &sys, err, sizeof err) : VI_EINVAL;
  CHECK(rc == VI_OK && vi_measure_find_d(sys, NULL, "Jx", &mx, err, sizeof err) == VI_OK &&
            vi_measure_find_d(sys, NULL, "Jz", &mz, err, sizeof err) == VI_OK &&
            vi_measure_find_d(sys, NULL, "kinetic_v", &mk, err, sizeof err) == VI_OK &&
            mx.reference == VI_MR_FREE && mz.reference == VI_MR_CONSTANT &&
            mk.reference == VI_MR_FREE,
        "pendulum-3d: Jx free, Jz constant, kinetic_v free (%s)", err);
  CHECK(rc != VI_OK || vi_measure_find_d(sys, NULL, "gvv2", &mk, err, sizeof err) == VI_EINVAL,
        "gvv2 of a system with one constraint is refused");
  vi_system_free_d(sys);
  /* Each constraint on its own (found by name): along VI-S on the top
   * (betsch-ggl Fig 20), the largest |gv_k| of k = 1..9 at a node is
   * gv_norm there; |g_k| likewise with g_norm. One window per node. */
  double excess = 0, kmax[2][21] = {{0}}, nrm[2][21] = {{0}};
  int rows = 0;
  for (int k = 1; k <= 9; k++) {
    for (int g = 0; g < 2; g++) {
      vi_series t;
      memset(&t, 0, sizeof t);
      t.ncol = 4;
      vi_series *sz[2] = {&t, NULL};
      char name[8];
      snprintf(name, sizeof name, "%s%d", g ? "g" : "gv", k);
      vi_trace_config tc = {0};
      tc.system = "gyro-top";
      tc.method = "ggl:scheme=VI-S";
      tc.h = 0.002;
      tc.N = 20;
      tc.measure = name;
      tc.nalso = 1;
      tc.also[0] = g ? "g_norm" : "gv_norm";
      tc.per = 1;
      tc.window = collect;
      tc.ctx = sz;
      vi_trace_result kr;
      char terr[256] = "";
      CHECK(vi_api_of(VI_DOUBLE)->trace(&tc, &kr, terr, sizeof terr) == VI_OK &&
                t.rows == 21, "trace of %s: %s", name, terr);
      for (int r = 0; r < t.rows && r < 21; r++) {
        kmax[g][r] = fmax(kmax[g][r], fabs(vi_fig_at(&t, r, 1)));
        nrm[g][r] = vi_fig_at(&t, r, 3);
      }
      rows += t.rows;
      free(t.v);
    }
  }
  for (int g = 0; g < 2; g++) {
    for (int r = 0; r < 21; r++) {
      excess = fmax(excess, fabs(kmax[g][r] - nrm[g][r]));
    }
  }
  CHECK(excess == 0 && rows == 18 * 21 && kmax[0][20] > 1e-6,
        "max_k |gv_k| = gv_norm and max_k |g_k| = g_norm at every node (%d rows, difference "
        "%.1e; VI-S's gv at t = 0.04: %.2e)", rows, excess, kmax[0][20]);
}

/* A trace in double and in quad of the same run: Jz, which galerkin
 * conserves, changes at round-off in both; the Newton iterations of each
 * step, a measure of the run. */
static void test_trace_precisions(vi_check_ctx *T) {
  double amax[2] = {NAN, NAN};
  for (int p = 0; p < 2; p++) {
    vi_trace_config tc = {0};
    tc.system = "double-pendulum-3d";
    tc.method = "galerkin:s=2,w=2";
    tc.h = 0.05;
    tc.N = 40;
    tc.measure = "Jz";
    vi_trace_result tr;
    char err[256] = "";
    int rc = vi_api_of(p ? VI_QUAD : VI_DOUBLE)->trace(&tc, &tr, err, sizeof err);
    CHECK(rc == VI_OK, "trace %s: %s", p ? "quad" : "double", err);
    amax[p] = tr.amax;
  }
  CHECK(amax[0] < 1e-12 && amax[1] < 1e-28, "Jz conserved: max change %.2e (double), %.2e "
        "(quad)", amax[0], amax[1]);
  /* A measure of the run: the Newton iterations of each step, one window
   * per node; galerkin solves one interval ahead at init (lookahead 1). */
  vi_series s;
  memset(&s, 0, sizeof s);
  s.ncol = 3;
  vi_series *sz[2] = {&s, NULL};
  vi_trace_config nt = {0};
  nt.system = "planar-pendulum";
  nt.method = "galerkin:s=2,w=2";
  nt.h = 0.05;
  nt.N = 20;
  nt.measure = "newton_iters";
  nt.per = 1;
  nt.window = collect;
  nt.ctx = sz;
  vi_trace_result nr;
  char nerr[256] = "";
  int rc = vi_api_of(VI_DOUBLE)->trace(&nt, &nr, nerr, sizeof nerr);
  int sane = rc == VI_OK && s.rows == 21;
  for (int r = 0; sane && r < s.rows; r++) {
    const double it = vi_fig_at(&s, r, 1);
    sane = it == vi_fig_at(&s, r, 2) && it >= 1 && it <= 50 && it == floor(it);
  }
  CHECK(sane, "newton_iters per step: %d rows, first %g (%s)", s.rows,
        s.rows ? vi_fig_at(&s, 0, 1) : NAN, nerr);
  free(s.v);
  vi_trace_config bad = {0};
  bad.system = "planar-pendulum";
  bad.method = "galerkin";
  bad.h = 0.1;
  bad.N = 10;
  bad.measure = "Jz";
  vi_trace_result tr;
  char err[512] = "";
  CHECK(vi_api_of(VI_DOUBLE)->trace(&bad, &tr, err, sizeof err) == VI_EINVAL &&
            strstr(err, "no measure 'Jz'") && strstr(err, "energy"),
        "an unknown measure is refused naming the valid ones: '%s'", err);
}

int main(void) {
  vi_check_ctx ctx = {0, 0};
  vi_check_ctx *T = &ctx;
  /* $VI_FIGKINDS_DIR keeps the figures there (to look at them). */
  char dir[512] = "/tmp/vi_figkinds_XXXXXX";
  const char *keep = getenv("VI_FIGKINDS_DIR");
  if (keep && *keep) {
    snprintf(dir, sizeof dir, "%s", keep);
  } else {
    CHECK(mkdtemp(dir) != NULL, "temporary directory");
  }
  CHECK(run(&conv_spec, dir) == 0, "the convergence figure ran and its claims hold");
  CHECK(run(&res_spec, dir) == 0, "the residual figure ran and its claims hold");
  const char *exts[] = {"json", "md", "csv", "dat", "gp", "svg", "png", "pdf"};
  for (int i = 0; i < (int)(sizeof exts / sizeof exts[0]); i++) {
    CHECK(exists(dir, conv_spec.id, exts[i]) && exists(dir, res_spec.id, exts[i]),
          "the figures wrote their .%s", exts[i]);
  }
  CHECK(run(&path_spec, dir) == 0, "the path figure ran and its claims hold");
  for (int i = 0; i < (int)(sizeof exts / sizeof exts[0]); i++) {
    CHECK(exists(dir, path_spec.id, exts[i]), "the path wrote its .%s", exts[i]);
  }
  char err[256];
  if (vi_method_find_d("nhmid", err, sizeof err) != NULL) {
    CHECK(run(&res_nh_spec, dir) == 0, "the extra block's residual figure ran");
  }
  test_trace_precisions(T);
  test_trace_follow(T);
  test_store_checks(T);
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (!(keep && *keep) && system(cmd) != 0) {
    fprintf(stderr, "could not remove %s\n", dir);
  }
  return vi_check_done(&ctx, "figkinds");
}
