/* figures.c: the figures of wenger2017 §4.2 as reproduce studies.
 *
 *   wenger2017-fig2  planar pendulum, energy error E(t) - E(0) over a long
 *                    run for the two combinations §4.2 names:
 *                    [s=5, Gauss r=5 (ordL 10), w=4] at step 10h and
 *                    [s=5, Lobatto r=5 (ordL 8), w=3] at step h.
 *   wenger2017-fig3  3D double pendulum, error Jz(t) - Jz(0) of the z
 *                    angular momentum (71) for some combinations.
 *   wenger2017-fig4  planar pendulum, run time vs global q error for
 *                    s = w = r = 1..6, L_d by Gauss, g_d by Lobatto.
 *   wenger2017-fig5  the same for s = w = 2 and 5, Gauss r = s against
 *                    Lobatto r = s+1.
 *
 * and the figures of man2020 §4.2 and §4.4 (algorithms of Table 2,
 * method family man2020):
 *
 *   man2020-fig3     spring pendulum (50)-(52), global error (47) of the
 *                    Hamiltonian, e = max_k |H_k - H_0| / |H_0| (46), of
 *                    LLL, LGL, LLG, LGG against m = 2..6 at eta = 0.1 over
 *                    0..400 s; a run whose double error is too close to
 *                    double round-off is rerun in quad.
 *   man2020-fig8     six balls (57)-(59), relative energy error (46) of LGG
 *                    and LLL for m = 2..6 over 0..400 s, one panel per m.
 *   man2020-fig9     six balls, error of the angular momentum (60), LGG,
 *                    eta = 1, m = 2, with a quad rerun.
 *   man2020-fig11    six balls, the antisymmetry quantities (61)
 *                    x1 + x6 - C1 and y1 + y6 - C2, LGG, m = 2, eta = 0.1,
 *                    with a quad rerun.
 *
 * The paper gives neither step sizes nor final times for its figures; the
 * choices are in the spec table below and in every output. Long traces are
 * stored as an envelope: the minimum and maximum of the signed error over
 * each window of steps, so no peak is lost however many steps a window has.
 * Run times (the timing service, timing.h): the CPU time of the calling
 * thread, pinned to one core with hwloc; each point is the minimum over
 * several back-to-back repetitions of init + all steps (the error is
 * measured in a separate, untimed pass), and the machine is described in
 * the outputs.
 *
 * Figures have no published numbers; what the paper's text claims about
 * each figure is checked instead and reported as claims (held or not);
 * --strict turns a claim that does not hold into exit 1.
 *
 * Outputs (atomic): results/ID.json (everything), ID.csv (long format),
 * ID.md (summary and claims), ID.dat (gnuplot data blocks), ID.gp, ID.svg,
 * ID.png. Each finished series is kept in ID.partial.json, so an
 * interrupted run resumes (--fresh starts over). */
#include "cells.h"
#include "machine.h"
#include "outfile.h"
#include "plot.h"
#include "report.h"
#include "reproduce.h"
#include "study.h"
#include "vistudy.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- figure specifications ----------------------------------------------- */

/* FIG_TRACE: the error of an invariant along one long run per curve;
 * FIG_WORK: run time against global error over a sweep of steps;
 * FIG_MSWEEP: one number per run, the global error (47) of man2020, for
 * each number of points m of a curve's method. */
enum fig_kind { FIG_TRACE = 0, FIG_WORK = 1, FIG_MSWEEP = 2 };

#define FIG_MAXCURVES 12
#define FIG_MAXCOLS 8

typedef struct curve_spec {
  const char *label;
  const char *method; /* msweep: without m, which the sweep appends */
  double h;           /* trace, msweep: the step; work: unused (swept) */
  const char *quantity; /* trace: the curve's own invariant, NULL: the figure's */
  int panel;            /* trace: the panel it is drawn in (fig_spec.panels) */
} curve_spec;

typedef struct series series;
typedef struct claim claim;
typedef struct fig_spec fig_spec;

/* What the paper's text says about a figure, checked on the computed
 * series: fills cl and returns the number of claims, or -1 with err. */
typedef int (*claims_fn)(const fig_spec *f, series *ss, int ns, int quick, claim *cl, char *err,
                         size_t errlen);
static int claims_fig2(const fig_spec *f, series *ss, int ns, int quick, claim *cl, char *err,
                       size_t errlen);
static int claims_fig3(const fig_spec *f, series *ss, int ns, int quick, claim *cl, char *err,
                       size_t errlen);
static int claims_fig4(const fig_spec *f, series *ss, int ns, int quick, claim *cl, char *err,
                       size_t errlen);
static int claims_fig5(const fig_spec *f, series *ss, int ns, int quick, claim *cl, char *err,
                       size_t errlen);
static int claims_man_fig3(const fig_spec *f, series *ss, int ns, int quick, claim *cl,
                           char *err, size_t errlen);
static int claims_man_fig8(const fig_spec *f, series *ss, int ns, int quick, claim *cl,
                           char *err, size_t errlen);
static int claims_man_fig9(const fig_spec *f, series *ss, int ns, int quick, claim *cl,
                           char *err, size_t errlen);
static int claims_man_fig11(const fig_spec *f, series *ss, int ns, int quick, claim *cl,
                            char *err, size_t errlen);

struct fig_spec {
  const char *id;
  int kind;
  const char *system;
  const char *quantity; /* trace: "energy" or a momentum name */
  double T, T_quick;
  double zoom; /* trace: > 0 adds a panel with every step of [0, zoom] and
                  draws the whole run as the window maxima of |error| */
  const char *ylabel;
  const char *why; /* the choices the paper leaves open */
  claims_fn claims;
  curve_spec curves[FIG_MAXCURVES];
  /* Added for man2020; zero (the wenger2017 behaviour) when absent. */
  const char *precision; /* what the outputs say of the precision; NULL: double */
  int relative;          /* trace, msweep: (I - I0) / |I0|, man2020 (46) */
  int tenths;            /* md: the max over the first and last tenth per curve */
  double quad_T, quad_T_quick; /* span of the claims' quad rerun */
  int m_lo, m_hi, m_hi_quick;  /* msweep: the points per step */
  const char *panels[6];       /* trace: panel titles; NULL: one panel */
};

static const fig_spec figs[] = {
    {.id = "wenger2017-fig2",
     .kind = FIG_TRACE,
     .system = "planar-pendulum",
     .quantity = "energy",
     .T = 1000,
     .T_quick = 50,
     .zoom = 10,
     .ylabel = "E(t) - E(0)",
     .why = "planar pendulum with its default parameters; T = 1000 (about 480 periods); "
            "the paper's step sizes are not given: h = 0.1 for the order-8 combination "
            "and h = 0.01 for the order-4 one (the paper's ratio of ten)",
     .claims = claims_fig2,
     .curves = {{"s=5, w=4, Gauss r=5 (ordL 10), h=0.1",
                 "galerkin:s=5,w=4,quadL=gauss,r=5", 0.1, NULL, 0},
                {"s=5, w=3, Lobatto r=5 (ordL 8), h=0.01",
                 "galerkin:s=5,w=3,quadL=lobatto,r=5", 0.01, NULL, 0}}},
    {.id = "wenger2017-fig3",
     .kind = FIG_TRACE,
     .system = "double-pendulum-3d",
     .quantity = "Jz",
     .T = 100,
     .T_quick = 5,
     .zoom = 0,
     .ylabel = "Jz(t) - Jz(0)",
     .why = "3D double pendulum with its default parameters; T = 100, h = 0.01; the "
            "paper's combinations are not listed: SHAKE (s=w=1, Lobatto r=2), the shaded "
            "s=w and s=w+1 cells with Gauss quadrature, and one Lobatto cell",
     .claims = claims_fig3,
     .curves = {{"s=w=1, Lobatto r=2 (SHAKE)", "galerkin:s=1,w=1,quadL=lobatto,r=2", 0.01,
                 NULL, 0},
                {"s=w=2, Gauss r=2", "galerkin:s=2,w=2,quadL=gauss,r=2", 0.01, NULL, 0},
                {"s=w=3, Gauss r=3", "galerkin:s=3,w=3,quadL=gauss,r=3", 0.01, NULL, 0},
                {"s=5, w=4, Gauss r=5", "galerkin:s=5,w=4,quadL=gauss,r=5", 0.01, NULL,
                 0},
                {"s=w=4, Lobatto r=5", "galerkin:s=4,w=4,quadL=lobatto,r=5", 0.01, NULL,
                 0}}},
    {.id = "wenger2017-fig4",
     .kind = FIG_WORK,
     .system = "planar-pendulum",
     .quantity = NULL,
     .T = 20,
     .T_quick = 2,
     .zoom = 0,
     .ylabel = "global error of q",
     .why = "planar pendulum with its default parameters, T = 20 (about 9.6 periods), "
            "errors against the exact solution at every node; h = T/N swept in "
            "half-octaves from h = 1 until e_q < 1e-12, e_q stops decreasing below 1e-8 "
            "(round-off), N > 40000 or h < 1e-3; steps the Newton solve cannot take, and "
            "runs with e_q > 0.1 (a different solution branch), are left out",
     .claims = claims_fig4,
     .curves = {{"s=w=r=1", "galerkin:s=1,w=1,quadL=gauss,r=1", 0, NULL, 0},
                {"s=w=r=2", "galerkin:s=2,w=2,quadL=gauss,r=2", 0, NULL, 0},
                {"s=w=r=3", "galerkin:s=3,w=3,quadL=gauss,r=3", 0, NULL, 0},
                {"s=w=r=4", "galerkin:s=4,w=4,quadL=gauss,r=4", 0, NULL, 0},
                {"s=w=r=5", "galerkin:s=5,w=5,quadL=gauss,r=5", 0, NULL, 0},
                {"s=w=r=6", "galerkin:s=6,w=6,quadL=gauss,r=6", 0, NULL, 0}}},
    {.id = "wenger2017-fig5",
     .kind = FIG_WORK,
     .system = "planar-pendulum",
     .quantity = NULL,
     .T = 20,
     .T_quick = 2,
     .zoom = 0,
     .ylabel = "global error of q",
     .why = "as wenger2017-fig4: planar pendulum, T = 20, the same step sizes for Gauss "
            "and Lobatto",
     .claims = claims_fig5,
     .curves = {{"s=w=2, Gauss r=2", "galerkin:s=2,w=2,quadL=gauss,r=2", 0, NULL, 0},
                {"s=w=2, Lobatto r=3", "galerkin:s=2,w=2,quadL=lobatto,r=3", 0, NULL, 0},
                {"s=w=5, Gauss r=5", "galerkin:s=5,w=5,quadL=gauss,r=5", 0, NULL, 0},
                {"s=w=5, Lobatto r=6", "galerkin:s=5,w=5,quadL=lobatto,r=6", 0, NULL,
                 0}}},
    {.id = "man2020-fig3",
     .kind = FIG_MSWEEP,
     .system = "spring-pendulum",
     .quantity = "energy",
     .T = 400,
     .T_quick = 20,
     .ylabel = "global error of the Hamiltonian e = max |H_k - H_0| / |H_0|",
     .why = "spring pendulum (50)-(52) with the paper's parameters (m1 = m2 = l = g = 1, "
            "q(0) from (52), at rest); eta = h = 0.1 and 0..400 s as in the paper. "
            "'Global error of Hamiltonian' is read as (47): e = max_k |e_H| with e_H = "
            "(H_k - H_0) / H_0 (46), one number per run, so the figure is e against m = "
            "2..6 for each algorithm (Fig. 2 plots the same measure against eta)",
     .claims = claims_man_fig3,
     .curves = {{"LLL", "man2020:alg=LLL", 0.1, NULL, 0},
                {"LGL", "man2020:alg=LGL", 0.1, NULL, 0},
                {"LLG", "man2020:alg=LLG", 0.1, NULL, 0},
                {"LGG", "man2020:alg=LGG", 0.1, NULL, 0}},
     .precision = "double, except that a run whose double error e is below 1e-11 is "
                  "rerun in quad (column quad = 1): over 4000 steps double round-off "
                  "alone gives e of about 4e-13",
     .relative = 1,
     .m_lo = 2,
     .m_hi = 6,
     .m_hi_quick = 5},
    {.id = "man2020-fig8",
     .kind = FIG_TRACE,
     .system = "six-balls",
     .quantity = "energy",
     .T = 400,
     .T_quick = 100,
     .ylabel = "(H - H0) / |H0|",
     .why = "six balls (57)-(59) with the paper's parameters (unit masses, spring "
            "stiffness 1, springs and bars of length 1, (59) at rest), 0..400 s as in "
            "the paper, the relative energy error (46); the paper does not give the step "
            "of Fig. 8: h = 1 (the step of Fig. 9), where every error, from about 1e-1 "
            "(m = 2) to 1e-7 (m = 6), stays far above double round-off; at h = 0.1 the "
            "errors for m >= 5 are about 1e-13, where the round-off of 4000 double steps "
            "(about 1e-12) would hide the bounded behaviour, and quad would take minutes",
     .claims = claims_man_fig8,
     .curves = {{"LLL, m=2", "man2020:alg=LLL,m=2", 1, NULL, 0},
                {"LGG, m=2", "man2020:alg=LGG,m=2", 1, NULL, 0},
                {"LLL, m=3", "man2020:alg=LLL,m=3", 1, NULL, 1},
                {"LGG, m=3", "man2020:alg=LGG,m=3", 1, NULL, 1},
                {"LLL, m=4", "man2020:alg=LLL,m=4", 1, NULL, 2},
                {"LGG, m=4", "man2020:alg=LGG,m=4", 1, NULL, 2},
                {"LLL, m=5", "man2020:alg=LLL,m=5", 1, NULL, 3},
                {"LGG, m=5", "man2020:alg=LGG,m=5", 1, NULL, 3},
                {"LLL, m=6", "man2020:alg=LLL,m=6", 1, NULL, 4},
                {"LGG, m=6", "man2020:alg=LGG,m=6", 1, NULL, 4}},
     .relative = 1,
     .tenths = 1,
     .panels = {"(a) m = 2", "(b) m = 3", "(c) m = 4", "(d) m = 5", "(e) m = 6"}},
    {.id = "man2020-fig9",
     .kind = FIG_TRACE,
     .system = "six-balls",
     .quantity = "Jz",
     .T = 400,
     .T_quick = 40,
     .ylabel = "I(t) - I(0), angular momentum (60)",
     .why = "six balls (57)-(59) with the paper's parameters, LGG with eta = h = 1 and "
            "m = 2 as in the paper, 0..400 s (the span of Figs. 8 and 11); I(0) = 0 "
            "since (59) starts at rest",
     .claims = claims_man_fig9,
     .curves = {{"LGG, m=2, h=1", "man2020:alg=LGG,m=2", 1, NULL, 0}},
     .precision = "double; the claim reruns the same steps in quad over the whole run",
     .quad_T = 400,
     .quad_T_quick = 40},
    {.id = "man2020-fig11",
     .kind = FIG_TRACE,
     .system = "six-balls",
     .T = 400,
     .T_quick = 10,
     .ylabel = "value of (61)",
     .why = "six balls (57)-(59) with the paper's parameters, LGG over 0..400 s as in "
            "the paper; m = 2 and eta = h = 0.1 are those of Fig. 10 (the paper does not "
            "repeat them for Fig. 11); C1 and C2 are x1 + x6 and y1 + y6 at q(0) (5/2 "
            "and sqrt3/2 for (59)), so both quantities start at 0 up to the rounding of "
            "q(0)",
     .claims = claims_man_fig11,
     .curves = {{"x1 + x6 - C1", "man2020:alg=LGG,m=2", 0.1, "antisym_x", 0},
                {"y1 + y6 - C2", "man2020:alg=LGG,m=2", 0.1, "antisym_y", 0}},
     .precision = "double; the claims rerun the same steps in quad over the first "
                  "40 s (quick: 10 s)",
     .quad_T = 40,
     .quad_T_quick = 10},
};
#define NFIGS (int)(sizeof figs / sizeof figs[0])

/* Sweep of fig4/fig5: h_k = 1 * 2^(-k/2), N = round(T / h_k), until the
 * error is below WORK_EMIN or stops decreasing below WORK_EPLATEAU (the
 * round-off plateau, where a smaller h only costs time). */
#define WORK_H0 1.0
#define WORK_EPLATEAU 1e-8
#define WORK_EMAX 0.1
#define WORK_EMIN 1e-12
#define WORK_NMAX 40000
#define WORK_HMIN 1e-3
#define WORK_REPS 5
#define TRACE_WINDOWS 2000

/* ---- series: a named table of numbers ------------------------------------ */

struct series {
  char label[96];
  char method[256]; /* canonical spec */
  double h;         /* trace step; 0 for a sweep */
  int ncol;
  const char *const *cols;
  int rows, cap;
  double *v; /* rows x ncol, row-major */
  int status;       /* VI_OK, or the status that ended the sweep/run */
  char quantity[32]; /* the curve's own invariant ("": the figure's) */
  double extra[5];  /* trace: I(0), max |err|, max over the first and the last
                       tenth, max |err| of the quad check (NaN: none) */
  int done;
};

static const char *const trace_cols[] = {"t", "min", "max"};
/* msweep: per m the global error (47) and its maximum over the first and
 * the last tenth of the run, and whether the run was done in quad. */
static const char *const msweep_cols[] = {"m", "h", "err", "err_first_tenth",
                                          "err_last_tenth", "quad"};
enum { M_M, M_H, M_ERR, M_FIRST, M_LAST, M_QUAD, M_NCOL };
static const char *const work_cols[] = {"h", "steps", "seconds", "err_q", "err_p",
                                        "err_lambda", "newton_per_step", "fevals"};
enum { W_H, W_STEPS, W_SEC, W_EQ, W_EP, W_EL, W_NEWTON, W_FEVALS };

static int series_push(series *s, const double *row) {
  if (s->rows == s->cap) {
    int cap = s->cap ? 2 * s->cap : 64;
    double *v = realloc(s->v, (size_t)cap * (size_t)s->ncol * sizeof *v);
    if (!v) {
      return -1;
    }
    s->v = v;
    s->cap = cap;
  }
  memcpy(s->v + (size_t)s->rows * (size_t)s->ncol, row, (size_t)s->ncol * sizeof *row);
  s->rows++;
  return 0;
}

static double at(const series *s, int row, int col) {
  return s->v[(size_t)row * (size_t)s->ncol + (size_t)col];
}

/* ---- runs ------------------------------------------------------------------ */

static int open_system(const char *name, vi_system_d **sys, char *err, size_t errlen) {
  const vi_system_type_d *type = vi_system_find_d(name, err, errlen);
  if (!type) {
    return VI_EINVAL;
  }
  return vi_system_alloc_d(type, 0, NULL, sys, err, errlen);
}

/* Index of a momentum map by name, -1 if the system has none of that name. */
static int momentum_index(const vi_system_d *sys, const char *name) {
  const vi_system_info *in = sys->type->info;
  for (int i = 0; i < in->n_momenta; i++) {
    if (strcmp(in->momentum_names[i], name) == 0) {
      return i;
    }
  }
  return -1;
}

static int invariant(const vi_system_d *sys, int mom, const double *q, const double *p,
                     double *val) {
  if (mom < 0) {
    return vi_system_energy_d(sys, q, p, val);
  }
  double J[16];
  int rc = vi_callback_status(sys->type->obs->momenta(sys->state, q, p, J));
  *val = J[mom];
  return rc;
}

/* A long run storing the envelope of the invariant's signed error
 * I(t_k) - I(0) (relative: divided by |I(0)|, man2020 (46)) per window of
 * steps into s, and every step of [0, zoom] into zs (NULL: none). */
/* The observer of a trace: the invariant's (relative) error at every node,
 * its envelope over windows of per steps into s, every step of [0, zoom]
 * into zs, and the summary numbers. */
typedef struct trace_obs {
  const vi_system_d *sys;
  int mom, relative;
  double h, zoom;
  long N, per;
  series *s, *zs;
  double I0, scale, lo, hi, amax, first, last;
} trace_obs;

static int trace_observe(void *ctx, long k, const vi_node_d *nd) {
  trace_obs *o = ctx;
  double I = 0;
  int rc = invariant(o->sys, o->mom, nd->q, nd->p, &I);
  if (rc != VI_OK) {
    return rc;
  }
  if (k == 0) {
    /* An invariant that starts at 0 has no relative error: absolute then. */
    o->I0 = I;
    o->scale = o->relative && I != 0 ? 1 / fabs(I) : 1;
  }
  double d = (I - o->I0) * o->scale;
  if (o->zs && (double)k * o->h <= o->zoom * (1 + 1e-12)) {
    double row[3] = {(double)k * o->h, d, d};
    if (series_push(o->zs, row) != 0) {
      return VI_ENOMEM;
    }
  }
  o->lo = k % o->per == 0 || d < o->lo ? d : o->lo;
  o->hi = k % o->per == 0 || d > o->hi ? d : o->hi;
  o->amax = fabs(d) > o->amax ? fabs(d) : o->amax;
  if (k <= o->N / 10 && fabs(d) > o->first) {
    o->first = fabs(d);
  }
  if (k >= o->N - o->N / 10 && fabs(d) > o->last) {
    o->last = fabs(d);
  }
  if ((k + 1) % o->per == 0 || k == o->N) {
    double row[3] = {(double)k * o->h, o->lo, o->hi};
    if (series_push(o->s, row) != 0) {
      return VI_ENOMEM;
    }
  }
  return VI_OK;
}

static int trace_run(const vi_system_d *sys, const char *quantity, int relative,
                     const curve_spec *c, double T, double zoom, series *s, series *zs, char *err,
                     size_t errlen) {
  const int n = sys->n, m = sys->m;
  int mom = strcmp(quantity, "energy") == 0 ? -1 : momentum_index(sys, quantity);
  if (mom < 0 && strcmp(quantity, "energy") != 0) {
    snprintf(err, errlen, "%s has no invariant '%s'", sys->type->info->name, quantity);
    return VI_EINVAL;
  }
  long N = lround(T / c->h);
  long per = N / TRACE_WINDOWS > 0 ? N / TRACE_WINDOWS : 1;
  vi_stepper_d *st = NULL;
  double *buf = malloc((size_t)(2 * n + m) * sizeof *buf);
  int rc = buf ? vi_stepper_alloc_d(c->method, sys, &st, err, errlen) : VI_ENOMEM;
  if (rc != VI_OK) {
    free(buf);
    return rc;
  }
  vi_stepper_spec_d(st, s->method, sizeof s->method);
  vi_node_d nd = {0, buf, buf + n, buf + 2 * n};
  trace_obs to = {sys, mom, relative, c->h, zoom, N, per, s, zs, 0, 1, 0, 0, 0, 0, 0};
  rc = vi_integrate_d(st, NULL, c->h, N, sys->q0, sys->p0, &nd, trace_observe, &to, NULL);
  const double I0 = to.I0, amax = to.amax, first = to.first, last = to.last;
  if (rc != VI_OK && !*err) {
    snprintf(err, errlen, "%s, h = %g: %s at t = %g", c->method, c->h, vi_strerror(rc),
             (double)nd.t);
  }
  s->h = c->h;
  if (zs) {
    zs->h = c->h;
    memcpy(zs->method, s->method, sizeof zs->method);
  }
  s->extra[0] = I0;
  s->extra[1] = amax;
  s->extra[2] = first;
  s->extra[3] = last;
  s->status = rc;
  vi_stepper_free_d(st);
  free(buf);
  return rc;
}

/* One point of a sweep: global errors against the reference in one pass,
 * then the minimum time of reps timed passes (init + N steps, nothing
 * else). A failing run returns its status (recoverable: the sweep ends). */
static int work_point(const vi_system_d *sys, const char *method, double T, long N, int reps,
                      const char *cache, double *row, char *method_out, size_t mlen, char *err,
                      size_t errlen) {
  const int n = sys->n, m = sys->m;
  const double h = T / (double)N;
  size_t rowlen = (size_t)(2 * n + m);
  double *ref = malloc((size_t)(N + 1) * rowlen * sizeof *ref);
  double *buf = malloc(rowlen * sizeof *buf);
  vi_stepper_d *st = NULL;
  int rc = ref && buf ? VI_OK : VI_ENOMEM;
  vi_reference_info_d info;
  double *Q = ref, *P = ref + (size_t)(N + 1) * n, *L = P + (size_t)(N + 1) * n;
  if (rc == VI_OK) {
    rc = vi_reference_d(sys, h, N, Q, P, L, cache, &info, err, errlen);
  }
  if (rc == VI_OK) {
    rc = vi_stepper_alloc_d(method, sys, &st, err, errlen);
  }
  if (rc != VI_OK) {
    free(ref);
    free(buf);
    return rc < 0 ? rc : VI_EINVAL;
  }
  vi_stepper_spec_d(st, method_out, mlen);
  vi_node_d nd = {0, buf, buf + n, buf + 2 * n};
  vi_err_obs_d eo;
  vi_err_obs_init_d(&eo, sys, Q, P, L, 0);
  rc = vi_integrate_d(st, NULL, h, N, sys->q0, sys->p0, &nd, vi_err_observe_d, &eo, NULL);
  const double *e = eo.e;
  const vi_stats_d *stt = vi_stepper_stats_d(st);
  row[W_H] = h;
  row[W_STEPS] = (double)N;
  row[W_EQ] = e[0];
  row[W_EP] = e[1];
  row[W_EL] = e[2];
  row[W_NEWTON] = stt->steps ? (double)stt->newton_iters / (double)stt->steps : 0;
  row[W_FEVALS] = stt->steps ? (double)stt->fevals / (double)stt->steps : 0;
  vi_timed best = {INFINITY, INFINITY, 0};
  for (int r = 0; rc == VI_OK && r < reps; r++) {
    vi_time t;
    vi_time_start(&t);
    rc = vi_integrate_d(st, NULL, h, N, sys->q0, sys->p0, &nd, NULL, NULL, NULL);
    vi_time_stop(&t);
    vi_timed_more(&best, &t);
  }
  row[W_SEC] = best.seconds;
  if (rc != VI_OK) {
    snprintf(err, errlen, "%s, h = %g: %s", method, h, vi_strerror(rc));
  }
  vi_stepper_free_d(st);
  free(ref);
  free(buf);
  return rc;
}

static int work_sweep(const vi_system_d *sys, const curve_spec *c, double T, int quick,
                      const char *cache, series *s, char *err, size_t errlen) {
  long prevN = 0;
  int reps = quick ? 1 : WORK_REPS;
  for (int k = 0;; k++) {
    double hk = WORK_H0 * pow(2.0, -0.5 * k);
    long N = lround(T / hk);
    if (N <= prevN) {
      continue;
    }
    if (N > (quick ? 400 : WORK_NMAX) || T / (double)N < WORK_HMIN) {
      break;
    }
    prevN = N;
    double row[FIG_MAXCOLS];
    char e2[512] = "";
    int rc = work_point(sys, c->method, T, N, reps, cache, row, s->method, sizeof s->method,
                        e2, sizeof e2);
    if (rc < 0) {
      snprintf(err, errlen, "%s", e2);
      return rc;
    }
    if (rc > 0) {
      /* A coarse step the Newton solve cannot take: not a point of the
       * curve; finer steps may still work. */
      s->status = rc;
      continue;
    }
    /* An error of the size of the motion itself (the pendulum swings
     * through about 1.6 length units) is a run that converged to another
     * solution branch, not a point of the work-precision curve. */
    if (row[W_EQ] > WORK_EMAX) {
      continue;
    }
    if (series_push(s, row) != 0) {
      return VI_ENOMEM;
    }
    int n = s->rows;
    if (row[W_EQ] < WORK_EMIN ||
        (n >= 2 && row[W_EQ] < WORK_EPLATEAU && row[W_EQ] > 0.7 * at(s, n - 2, W_EQ))) {
      break;
    }
    /* Long runs need fewer repetitions for a stable minimum. */
    if (row[W_SEC] > 0.5 && reps > 3) {
      reps = 3;
    }
  }
  return VI_OK;
}

/* The error of an invariant over the first N steps in quad precision:
 * out[0] = max_k |I_k - I_0| (relative: divided by |I_0|, man2020 (46)),
 * out[1], out[2] its maximum over the first and the last tenth of the
 * steps. A scheme that conserves a momentum map exactly (wenger2017
 * §3.4.2, man2020 (60)) shows an error at the quad round-off level, where
 * a non-conserving one would show its truncation error; an energy error
 * that double cannot resolve (man2020-fig3) is measured here. */
/* The observer of quad_invariant_error (mom < 0: the energy). */
typedef struct qinv_obs {
  const vi_system_q *sys;
  int mom, relative;
  long N;
  __float128 *J;
  __float128 I0, scale, emax, first, last;
} qinv_obs;

static int qinv_observe(void *ctx, long k, const vi_node_q *nd) {
  qinv_obs *o = ctx;
  __float128 I = 0;
  int rc = o->mom < 0 ? vi_system_energy_q(o->sys, nd->q, nd->p, &I)
                      : vi_callback_status(o->sys->type->obs->momenta(o->sys->state, nd->q,
                                                                      nd->p, o->J));
  if (rc != VI_OK) {
    return rc;
  }
  if (o->mom >= 0) {
    I = o->J[o->mom];
  }
  if (k == 0) {
    o->I0 = I;
    o->scale = o->relative && I != 0 ? 1 / (I < 0 ? -I : I) : 1;
  }
  __float128 d = (I - o->I0) * o->scale;
  d = d < 0 ? -d : d;
  o->emax = d > o->emax ? d : o->emax;
  o->first = k <= o->N / 10 && d > o->first ? d : o->first;
  o->last = k >= o->N - o->N / 10 && d > o->last ? d : o->last;
  return VI_OK;
}

static int quad_invariant_error(const char *system, const char *method, double h, long N,
                                const char *quantity, int relative, double *out, char *err,
                                size_t errlen) {
  const vi_system_type_q *type = vi_system_find_q(system, err, errlen);
  vi_system_q *sys = NULL;
  vi_stepper_q *st = NULL;
  int rc = type ? vi_system_alloc_q(type, 0, NULL, &sys, err, errlen) : VI_EINVAL;
  if (rc != VI_OK) {
    return rc;
  }
  const int n = sys->n, m = sys->m, nm = type->info->n_momenta;
  const int energy = strcmp(quantity, "energy") == 0;
  int mom = -1;
  for (int i = 0; i < nm; i++) {
    mom = strcmp(type->info->momentum_names[i], quantity) == 0 ? i : mom;
  }
  __float128 *buf = malloc((size_t)(2 * n + m + nm + 1) * sizeof *buf);
  if (!energy && mom < 0) {
    snprintf(err, errlen, "%s has no invariant '%s'", system, quantity);
  }
  rc = !buf || (!energy && mom < 0) ? VI_EINVAL : vi_stepper_alloc_q(method, sys, &st, err, errlen);
  if (rc == VI_OK) {
    vi_node_q nd = {0, buf, buf + n, buf + 2 * n};
    qinv_obs o = {sys, energy ? -1 : mom, relative, N, buf + 2 * n + m, 0, 1, 0, 0, 0};
    rc = vi_integrate_q(st, NULL, (__float128)h, N, sys->q0, sys->p0, &nd, qinv_observe, &o,
                        NULL);
    out[0] = (double)o.emax;
    out[1] = (double)o.first;
    out[2] = (double)o.last;
    if (rc != VI_OK) {
      snprintf(err, errlen, "%s in quad: %s", method, vi_strerror(rc));
    }
  }
  vi_stepper_free_q(st);
  vi_system_free_q(sys);
  free(buf);
  return rc;
}

/* One point per m of the curve's method (man2020 §4.2 Fig. 3): the global
 * error (47) of a run over [0, T] at the curve's step, in double, rerun in
 * quad when double round-off would be a visible part of it. */
#define MSWEEP_QUAD_BELOW 1e-11

static int msweep_run(const fig_spec *f, const vi_system_d *sys, const curve_spec *c, double T,
                      int m_hi, series *s, char *err, size_t errlen) {
  const long N = lround(T / c->h);
  for (int m = f->m_lo; m <= m_hi; m++) {
    char spec[256];
    snprintf(spec, sizeof spec, "%s,m=%d", c->method, m);
    curve_spec cm = *c;
    cm.method = spec;
    series tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.cols = trace_cols;
    tmp.ncol = 3;
    int rc = trace_run(sys, f->quantity, f->relative, &cm, T, 0, &tmp, NULL, err, errlen);
    double e[3] = {tmp.extra[1], tmp.extra[2], tmp.extra[3]};
    free(tmp.v);
    if (rc != VI_OK) {
      return rc;
    }
    int quad = e[0] < MSWEEP_QUAD_BELOW;
    if (quad) {
      rc = quad_invariant_error(f->system, spec, c->h, N, f->quantity, f->relative, e, err,
                                errlen);
      if (rc != VI_OK) {
        return rc;
      }
    }
    double row[M_NCOL] = {m, c->h, e[0], e[1], e[2], quad};
    if (series_push(s, row) != 0) {
      return VI_ENOMEM;
    }
  }
  snprintf(s->method, sizeof s->method, "%s,m=%d..%d", c->method, f->m_lo, m_hi);
  s->h = c->h;
  s->status = VI_OK;
  return VI_OK;
}

/* ---- JSON of series (results and the partial file) ----------------------- */

static json_t *series_json(const series *s) {
  json_t *j = json_object();
  json_object_set_new(j, "label", json_string(s->label));
  json_object_set_new(j, "method", json_string(s->method));
  if (s->quantity[0]) {
    json_object_set_new(j, "quantity", json_string(s->quantity));
  }
  if (s->h > 0) {
    json_object_set_new(j, "h", json_real(s->h));
  }
  json_t *cols = json_array();
  for (int c = 0; c < s->ncol; c++) {
    json_array_append_new(cols, json_string(s->cols[c]));
  }
  json_object_set_new(j, "columns", cols);
  json_t *rows = json_array();
  for (int r = 0; r < s->rows; r++) {
    json_t *row = json_array();
    for (int c = 0; c < s->ncol; c++) {
      double x = at(s, r, c);
      json_array_append_new(row, isfinite(x) ? json_real(x) : json_null());
    }
    json_array_append_new(rows, row);
  }
  json_object_set_new(j, "rows", rows);
  json_object_set_new(j, "status", json_string(vi_strerror(s->status)));
  json_t *ex = json_array();
  for (int i = 0; i < 4; i++) {
    json_array_append_new(ex, json_real(s->extra[i]));
  }
  json_object_set_new(j, "extra", ex);
  if (!isnan(s->extra[4])) {
    json_object_set_new(j, "quad_check_error", json_real(s->extra[4]));
  }
  return j;
}

/* A finished curve as the cell store keeps it: its series, the status
 * that ended it, and its every-step close-up when the figure has one. */
static json_t *curve_measurement(const series *s, const series *zoom) {
  json_t *j = json_object();
  json_t *m = series_json(s);
  json_object_set_new(m, "status_code", json_integer(s->status));
  json_object_set_new(j, "series", m);
  if (zoom) {
    json_object_set_new(j, "zoom", series_json(zoom));
  }
  return j;
}

/* Restore one series from the store into s (label, columns and the shape
 * of every row checked); -1 with the reason in why. */
static int series_restore(series *s, json_t *v, char *why, size_t whylen) {
  const char *label = NULL, *method = NULL;
  json_t *cols = NULL, *rows = NULL, *extra = NULL;
  json_error_t je;
  if (json_unpack_ex(v, &je, 0, "{s:s, s:s, s:o, s:o, s:o}", "label", &label, "method",
                     &method, "columns", &cols, "rows", &rows, "extra", &extra) != 0) {
    snprintf(why, whylen, "%s", je.text);
    return -1;
  }
  if (strcmp(label, s->label) != 0 || strlen(method) >= sizeof s->method) {
    snprintf(why, whylen, "series '%.60s' does not belong here", label);
    return -1;
  }
  if (!json_is_array(cols) || json_array_size(cols) != (size_t)s->ncol) {
    snprintf(why, whylen, "series '%.60s' has other columns", label);
    return -1;
  }
  for (int c = 0; c < s->ncol; c++) {
    const char *name = json_string_value(json_array_get(cols, (size_t)c));
    if (!name || strcmp(name, s->cols[c]) != 0) {
      snprintf(why, whylen, "series '%.60s' has other columns", label);
      return -1;
    }
  }
  if (!json_is_array(rows) || !json_is_array(extra) || json_array_size(extra) != 4) {
    snprintf(why, whylen, "series '%.60s': rows or extra malformed", label);
    return -1;
  }
  json_t *h = json_object_get(v, "h"), *qc = json_object_get(v, "quad_check_error");
  json_t *sc = json_object_get(v, "status_code");
  if ((h && !json_is_number(h)) || (qc && !json_is_number(qc)) || (sc && !json_is_integer(sc))) {
    snprintf(why, whylen, "series '%.60s': h, quad_check_error or status malformed", label);
    return -1;
  }
  s->rows = 0;
  size_t r;
  json_t *row;
  json_array_foreach(rows, r, row) {
    double x[FIG_MAXCOLS];
    if (!json_is_array(row) || json_array_size(row) != (size_t)s->ncol) {
      snprintf(why, whylen, "series '%.60s': row %zu malformed", label, r);
      return -1;
    }
    for (int c = 0; c < s->ncol; c++) {
      json_t *e = json_array_get(row, (size_t)c);
      if (!json_is_number(e) && !json_is_null(e)) {
        snprintf(why, whylen, "series '%.60s': row %zu malformed", label, r);
        return -1;
      }
      x[c] = json_is_number(e) ? json_number_value(e) : NAN;
    }
    if (series_push(s, x) != 0) {
      snprintf(why, whylen, "out of memory");
      return -1;
    }
  }
  for (int e = 0; e < 4; e++) {
    json_t *x = json_array_get(extra, (size_t)e);
    s->extra[e] = json_is_number(x) ? json_number_value(x) : NAN;
  }
  s->extra[4] = qc ? json_number_value(qc) : NAN;
  s->h = h ? json_number_value(h) : 0;
  s->status = sc ? (int)json_integer_value(sc) : VI_OK;
  snprintf(s->method, sizeof s->method, "%s", method);
  return 0;
}

/* Restore a finished curve (and its close-up); -1 with the reason. */
static int curve_restore(series *s, series *zoom, json_t *v, char *why, size_t whylen) {
  json_t *m = json_object_get(v, "series"), *z = json_object_get(v, "zoom");
  if (!m || (zoom != NULL) != (z != NULL)) {
    snprintf(why, whylen, "%s", !m ? "no series" : "close-up missing or unexpected");
    return -1;
  }
  if (series_restore(s, m, why, whylen) != 0 || (zoom && series_restore(zoom, z, why, whylen) != 0)) {
    return -1;
  }
  s->done = 1;
  if (zoom) {
    zoom->done = 1;
  }
  return 0;
}

/* ---- claims ------------------------------------------------------------------ */

struct claim {
  char text[512];      /* what the paper says */
  char measured[1024]; /* what we measured */
  int holds;
};

/* log-log interpolation of seconds at error level e along a sweep (errors
 * decreasing with the row index); NaN when the curve does not reach it. */
static double time_at_error(const series *s, double e) {
  for (int r = 1; r < s->rows; r++) {
    double e0 = at(s, r - 1, W_EQ), e1 = at(s, r, W_EQ);
    if (e0 >= e && e1 <= e && e0 > e1 && e1 > 0) {
      double t0 = at(s, r - 1, W_SEC), t1 = at(s, r, W_SEC);
      double w = log(e / e0) / log(e1 / e0);
      return exp(log(t0) + w * (log(t1) - log(t0)));
    }
  }
  return NAN;
}

static int claims_fig2(const fig_spec *f, series *ss, int ns, int quick, claim *cl, char *err,
                       size_t errlen) {
  const series *a = &ss[0], *b = &ss[1];
  snprintf(cl[0].text, sizeof cl[0].text,
           "with a ten times larger step, the order-8 combination has the smaller energy "
           "error");
  snprintf(cl[0].measured, sizeof cl[0].measured,
           "max |E - E0|: %.3e (h = %g) vs %.3e (h = %g)", a->extra[1], a->h, b->extra[1], b->h);
  cl[0].holds = a->extra[1] < b->extra[1];
  int k = 1;
  for (int i = 0; i < 2; i++, k++) {
    const series *s = &ss[i];
    snprintf(cl[k].text, sizeof cl[k].text,
             "%.90s: the energy error oscillates but stays bounded (no drift)", s->label);
    double ratio = s->extra[3] / (s->extra[2] > 0 ? s->extra[2] : 1e-300);
    snprintf(cl[k].measured, sizeof cl[k].measured,
             "max |E - E0| over the last tenth / over the first tenth = %.3f (bounded: <= 2)",
             ratio);
    cl[k].holds = ratio <= 2;
  }
  return k;
}

/* Quad check of fig3: the first FIG3_QUAD_T seconds of every curve. */
#define FIG3_QUAD_T 10.0
#define FIG3_QUAD_BOUND 1e-25

static int claims_fig3(const fig_spec *f, series *ss, int ns, int quick, claim *cl, char *err,
                       size_t errlen) {
  double worst = 0, qworst = 0, Tq = quick ? f->T_quick : FIG3_QUAD_T;
  const char *wl = "", *ql = "";
  for (int i = 0; i < ns; i++) {
    if (ss[i].extra[1] >= worst) {
      worst = ss[i].extra[1];
      wl = ss[i].label;
    }
    double qe[3];
    int rc = quad_invariant_error(f->system, ss[i].method, ss[i].h, lround(Tq / ss[i].h),
                                  f->quantity, 0, qe, err, errlen);
    ss[i].extra[4] = qe[0];
    if (rc != VI_OK) {
      return -1;
    }
    if (ss[i].extra[4] >= qworst) {
      qworst = ss[i].extra[4];
      ql = ss[i].label;
    }
  }
  snprintf(cl[0].text, sizeof cl[0].text,
           "the z angular momentum is preserved up to numerical accuracy (checked by "
           "rerunning the first %g s in quad precision: an exactly conserving scheme drops "
           "to quad round-off, a non-conserving one keeps its truncation error)",
           Tq);
  snprintf(cl[0].measured, sizeof cl[0].measured,
           "largest max |Jz - Jz0| in double over T = %g: %.2e (%.90s); in quad over %g s: "
           "%.2e (%.90s); holds when the quad error is below %.0e",
           quick ? f->T_quick : f->T, worst, wl, Tq, qworst, ql, FIG3_QUAD_BOUND);
  cl[0].holds = qworst < FIG3_QUAD_BOUND;
  return 1;
}

static int claims_fig4(const fig_spec *f, series *ss, int ns, int quick, claim *cl, char *err,
                       size_t errlen) {
  int k = 0;
  static const double levels[] = {1e-6, 1e-10};
  for (int l = 0; l < 2; l++) {
    char *m = cl[k].measured;
    size_t len = sizeof cl[k].measured, off = 0;
    int mono = 1, have = 0;
    double prev = NAN, first = NAN, last = NAN;
    const char *fl = "", *ll = "";
    off += (size_t)snprintf(m + off, len - off, "run time at e_q = %.0e:", levels[l]);
    for (int i = 0; i < ns && off < len; i++) {
      double t = time_at_error(&ss[i], levels[l]);
      if (isnan(t)) {
        off += (size_t)snprintf(m + off, len - off, " %.40s not reached;", ss[i].label);
        continue;
      }
      off += (size_t)snprintf(m + off, len - off, " %.40s %.2e s;", ss[i].label, t);
      mono &= isnan(prev) || t < prev;
      prev = t;
      if (!have++) {
        first = t;
        fl = ss[i].label;
      }
      last = t;
      ll = ss[i].label;
    }
    snprintf(cl[k].text, sizeof cl[k].text,
             "higher order: higher accuracy at lower run time (at e_q = %.0e the highest "
             "order is at least twice as fast as the lowest that reaches it)",
             levels[l]);
    cl[k].holds = have >= 2 && last < 0.5 * first;
    k++;
    snprintf(cl[k].text, sizeof cl[k].text,
             "run time decreases with every increase of s (at e_q = %.0e)", levels[l]);
    snprintf(cl[k].measured, sizeof cl[k].measured,
             "%.60s: %.2e s ... %.60s: %.2e s; strictly decreasing over all %d curves that "
             "reach it: %s",
             fl, first, ll, last, have, mono ? "yes" : "no");
    cl[k].holds = have >= 2 && mono;
    k++;
  }
  return k;
}

#define FIG5_EFLOOR 1e-10

static int claims_fig5(const fig_spec *f, series *ss, int ns, int quick, claim *cl, char *err,
                       size_t errlen) {
  int k = 0;
  for (int i = 0; i + 1 < ns; i += 2) {
    const series *g = &ss[i], *lo = &ss[i + 1];
    double maxrel = 0, ratios[64];
    int nr = 0, n = 0;
    /* Compare at equal steps; accuracy only above the round-off plateau. */
    for (int r = 0; r < g->rows && nr < 64; r++) {
      for (int q = 0; q < lo->rows; q++) {
        if (at(lo, q, W_STEPS) != at(g, r, W_STEPS)) {
          continue;
        }
        double eg = at(g, r, W_EQ), el = at(lo, q, W_EQ);
        if (eg > FIG5_EFLOOR && el > FIG5_EFLOOR) {
          double rel = fabs(eg - el) / (eg > el ? eg : el);
          maxrel = rel > maxrel ? rel : maxrel;
          n++;
        }
        ratios[nr++] = at(lo, q, W_SEC) / at(g, r, W_SEC);
      }
    }
    /* Median of the time ratios: robust to a noisy point. */
    for (int a = 1; a < nr; a++) {
      for (int b = a; b > 0 && ratios[b - 1] > ratios[b]; b--) {
        double t = ratios[b];
        ratios[b] = ratios[b - 1];
        ratios[b - 1] = t;
      }
    }
    double med = nr ? (nr % 2 ? ratios[nr / 2] : 0.5 * (ratios[nr / 2 - 1] + ratios[nr / 2])) : NAN;
    snprintf(cl[k].text, sizeof cl[k].text, "%.90s vs %.90s: the same accuracy at the same step",
             g->label, lo->label);
    snprintf(cl[k].measured, sizeof cl[k].measured,
             "max relative difference of e_q over the %d common steps with both errors above "
             "%.0e = %.2e (same: <= 0.1)",
             n, FIG5_EFLOOR, maxrel);
    cl[k].holds = n > 0 && maxrel <= 0.1;
    k++;
    snprintf(cl[k].text, sizeof cl[k].text, "%.90s vs %.90s: Gauss is slightly faster", g->label,
             lo->label);
    snprintf(cl[k].measured, sizeof cl[k].measured,
             "median run-time ratio Lobatto / Gauss over %d steps = %.3f", nr, med);
    cl[k].holds = med > 1;
    k++;
  }
  return k;
}

/* The invariant a trace series follows: its curve's own, else the figure's. */
static const char *series_quantity(const fig_spec *f, const series *s) {
  return s->quantity[0] ? s->quantity : f->quantity;
}

/* The quad rerun of the claims of man2020 Figs. 9 and 11: each curve's
 * steps over the first quad_T seconds, its max |I - I0| into extra[4]. */
static int quad_check(const fig_spec *f, series *ss, int ns, int quick, char *err,
                      size_t errlen) {
  const double Tq = quick ? f->quad_T_quick : f->quad_T;
  for (int i = 0; i < ns; i++) {
    double qe[3];
    int rc = quad_invariant_error(f->system, ss[i].method, ss[i].h, lround(Tq / ss[i].h),
                                  series_quantity(f, &ss[i]), 0, qe, err, errlen);
    if (rc != VI_OK) {
      return -1;
    }
    ss[i].extra[4] = qe[0];
  }
  return 0;
}

/* man2020 §4.2 on Fig. 3: "the global error of LGG is always better than
 * LLL" and "the global errors of LLL and LGL are basically the same, as
 * are the global errors of LLG and LGG". On a plot spanning twelve decades
 * "basically the same" is read as: within a factor MAN_SAME (0.3 decades)
 * at every m. */
#define MAN_SAME 2.0

static const series *series_by_label(const series *ss, int ns, const char *label) {
  for (int i = 0; i < ns; i++) {
    if (strcmp(ss[i].label, label) == 0) {
      return &ss[i];
    }
  }
  return NULL;
}

static int claims_man_fig3(const fig_spec *f, series *ss, int ns, int quick, claim *cl,
                           char *err, size_t errlen) {
  static const char *const pairs[3][2] = {{"LGG", "LLL"}, {"LLL", "LGL"}, {"LLG", "LGG"}};
  for (int k = 0; k < 3; k++) {
    const series *a = series_by_label(ss, ns, pairs[k][0]);
    const series *b = series_by_label(ss, ns, pairs[k][1]);
    if (!a || !b) {
      snprintf(err, errlen, "%s: no series %s or %s", f->id, pairs[k][0], pairs[k][1]);
      return -1;
    }
    char *m = cl[k].measured;
    size_t len = sizeof cl[k].measured, off = 0;
    int holds = a->rows > 0 && a->rows == b->rows;
    double worst = 0;
    off += (size_t)snprintf(m + off, len - off, "e(%s) / e(%s):", pairs[k][0], pairs[k][1]);
    for (int r = 0; r < a->rows && r < b->rows && off < len; r++) {
      double ea = at(a, r, M_ERR), eb = at(b, r, M_ERR), q = ea / eb;
      off += (size_t)snprintf(m + off, len - off, "%s m=%.0f %.3g", r ? ";" : "",
                              at(a, r, M_M), q);
      if (k == 0) {
        holds &= ea < eb;
      } else {
        double spread = q > 1 ? q : 1 / q;
        worst = spread > worst ? spread : worst;
        holds &= spread <= MAN_SAME;
      }
    }
    if (k == 0) {
      snprintf(cl[k].text, sizeof cl[k].text,
               "the global error of LGG is always better than LLL (e(LGG) < e(LLL) at every m)");
    } else {
      snprintf(cl[k].text, sizeof cl[k].text,
               "the global errors of %s and %s are basically the same (within a factor %g at "
               "every m)",
               pairs[k][0], pairs[k][1], MAN_SAME);
      if (off < len) {
        snprintf(m + off, len - off, "; largest factor %.3g", worst);
      }
    }
    cl[k].holds = holds;
  }
  return 3;
}

static int claims_man_fig8(const fig_spec *f, series *ss, int ns, int quick, claim *cl,
                           char *err, size_t errlen) {
  for (int i = 0; i < ns; i++) {
    const series *s = &ss[i];
    double ratio = s->extra[3] / (s->extra[2] > 0 ? s->extra[2] : 1e-300);
    snprintf(cl[i].text, sizeof cl[i].text,
             "%.90s: the energy error has definite upper and lower bounds and does not grow "
             "over the run",
             s->label);
    snprintf(cl[i].measured, sizeof cl[i].measured,
             "max |e_H| = %.3e; over the last tenth / over the first tenth = %.3f (bounded: "
             "<= 2)",
             s->extra[1], ratio);
    cl[i].holds = ratio <= 2;
  }
  return ns;
}

/* Round-off bounds of man2020 Figs. 9 and 11 in double: Jz (60) sums terms
 * x_i p_iy of size about 1 (about 20 eps after 400 steps as a random walk)
 * and (61) adds coordinates of size about 2.7 over 4000 steps; the bounds
 * leave a margin of 100 over what was measured, and a scheme that did not
 * conserve them would show its truncation error (relative energy error
 * 0.1 for LGG m = 2 at h = 1). In quad, as wenger2017-fig3. */
#define MAN_JZ_DOUBLE 1e-13
#define MAN_ANTISYM_DOUBLE 1e-12
#define MAN_QUAD_BOUND 1e-25

/* max |error| of a trace over the windows that end by t = Tq (the span of
 * the quad rerun), so double and quad are compared over the same steps. */
static double trace_max_until(const series *s, double Tq) {
  double e = 0;
  for (int r = 0; r < s->rows && at(s, r, 0) <= Tq * (1 + 1e-12); r++) {
    double a = fmax(fabs(at(s, r, 1)), fabs(at(s, r, 2)));
    e = a > e ? a : e;
  }
  return e;
}

static int claims_man_fig9(const fig_spec *f, series *ss, int ns, int quick, claim *cl,
                           char *err, size_t errlen) {
  if (quad_check(f, ss, ns, quick, err, errlen) != 0) {
    return -1;
  }
  const series *s = &ss[0];
  snprintf(cl[0].text, sizeof cl[0].text,
           "the angular momentum (60) attains numerical accuracy, even with a large step "
           "(eta = %g) and a low order (m = 2)",
           s->h);
  const double Tq = quick ? f->quad_T_quick : f->quad_T;
  snprintf(cl[0].measured, sizeof cl[0].measured,
           "max |I - I0| in double over %g s: %.2e (bound %.0e); over the first %g s: %.2e "
           "in double, %.2e in quad (bound %.0e): the error follows the precision",
           quick ? f->T_quick : f->T, s->extra[1], MAN_JZ_DOUBLE, Tq, trace_max_until(s, Tq),
           s->extra[4], MAN_QUAD_BOUND);
  cl[0].holds = s->extra[1] < MAN_JZ_DOUBLE && s->extra[4] < MAN_QUAD_BOUND;
  return 1;
}

static int claims_man_fig11(const fig_spec *f, series *ss, int ns, int quick, claim *cl,
                            char *err, size_t errlen) {
  if (quad_check(f, ss, ns, quick, err, errlen) != 0) {
    return -1;
  }
  for (int i = 0; i < ns; i++) {
    const series *s = &ss[i];
    snprintf(cl[i].text, sizeof cl[i].text,
             "%.60s (61): even after long-time simulations the antisymmetric property is "
             "perfectly conserved",
             s->label);
    const double Tq = quick ? f->quad_T_quick : f->quad_T;
    snprintf(cl[i].measured, sizeof cl[i].measured,
             "max deviation from the initial value in double over %g s: %.2e (bound %.0e); "
             "over the first %g s: %.2e in double, %.2e in quad (bound %.0e)",
             quick ? f->T_quick : f->T, s->extra[1], MAN_ANTISYM_DOUBLE, Tq,
             trace_max_until(s, Tq), s->extra[4], MAN_QUAD_BOUND);
    cl[i].holds = s->extra[1] < MAN_ANTISYM_DOUBLE && s->extra[4] < MAN_QUAD_BOUND;
  }
  return ns;
}

/* ---- outputs ------------------------------------------------------------------ */

static char *fig_dat(const fig_spec *f, const series *ss, int ns) {
  size_t cap = 1 << 16, len = 0;
  char *t = malloc(cap);
  for (int i = 0; t && i < ns; i++) {
    const series *s = &ss[i];
    for (int r = -1; r < s->rows; r++) {
      if (len + 512 > cap) {
        char *u = realloc(t, cap *= 2);
        if (!u) {
          free(t);
          return NULL;
        }
        t = u;
      }
      if (r < 0) {
        len += (size_t)snprintf(t + len, cap - len, "# %s: %s (%s)\n#", f->id, s->label,
                                s->method);
        for (int c = 0; c < s->ncol; c++) {
          len += (size_t)snprintf(t + len, cap - len, " %s", s->cols[c]);
        }
        len += (size_t)snprintf(t + len, cap - len, "\n");
        continue;
      }
      for (int c = 0; c < s->ncol; c++) {
        len += (size_t)snprintf(t + len, cap - len, "%s%.10e", c ? " " : "", at(s, r, c));
      }
      len += (size_t)snprintf(t + len, cap - len, "\n");
    }
    len += (size_t)snprintf(t + len, cap - len, "\n\n");
  }
  return t;
}

static char *fig_csv(const series *ss, int ns) {
  size_t cap = 1 << 16, len = 0;
  char *t = malloc(cap);
  if (!t) {
    return NULL;
  }
  len += (size_t)snprintf(t, cap, "series,method");
  for (int c = 0; c < ss[0].ncol; c++) {
    len += (size_t)snprintf(t + len, cap - len, ",%s", ss[0].cols[c]);
  }
  len += (size_t)snprintf(t + len, cap - len, "\n");
  for (int i = 0; i < ns; i++) {
    for (int r = 0; r < ss[i].rows; r++) {
      if (len + 1024 > cap) {
        char *u = realloc(t, cap *= 2);
        if (!u) {
          free(t);
          return NULL;
        }
        t = u;
      }
      len += (size_t)snprintf(t + len, cap - len, "\"%s\",\"%s\"", ss[i].label, ss[i].method);
      for (int c = 0; c < ss[i].ncol; c++) {
        len += (size_t)snprintf(t + len, cap - len, ",%.17g", at(&ss[i], r, c));
      }
      len += (size_t)snprintf(t + len, cap - len, "\n");
    }
  }
  return t;
}

/* The band between the smallest and largest error of each window of steps
 * (data block idx of dat), in one colour, labelled once. */
static size_t band_plot(char *b, size_t len, size_t cap, int first, const char *dat, int idx,
                        const char *color, const char *label) {
  return len + (size_t)snprintf(b + len, len < cap ? cap - len : 0,
                                "%s'%s' index %d using 1:2:3 with filledcurves lc rgb '%s' "
                                "title \"%s\" noenhanced, \\\n"
                                "     '' index %d using 1:2 with lines lw 1 lc rgb '%s' notitle, "
                                "'' index %d using 1:3 with lines lw 1 lc rgb '%s' notitle",
                                first ? "" : ", \\\n     ", dat, idx, color, label, idx,
                                color, idx, color);
}

static int panel_count(const fig_spec *f) {
  int np = 0;
  while (np < (int)(sizeof f->panels / sizeof f->panels[0]) && f->panels[np]) {
    np++;
  }
  return np;
}

static char *fig_gnuplot(const fig_spec *f, const series *ss, int ns, int ntot,
                         const char *dat, const char *machine, int quick) {
  size_t cap = 16384, len = 0;
  char *b = malloc(cap);
  if (!b) {
    return NULL;
  }
  static const char *const colors[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
                                       "#ff7f0e", "#8c564b", "#17becf", "#7f7f7f"};
  len += (size_t)snprintf(b + len, cap - len, "set grid\nset key outside top center horizontal maxrows 3 width 2\n");
  const double T = quick ? f->T_quick : f->T;
  const int np = panel_count(f);
  if (f->kind == FIG_MSWEEP) {
    /* man2020 Fig. 3: the global error (47) against m, one line per
     * algorithm (pairs that nearly coincide told apart by dash and point
     * type), open circles on the runs done in quad; below, each error
     * divided by the last curve's (LGG) at the same m, where the text's
     * comparisons (LGG < LLL, LLL ~ LGL, LLG ~ LGG) are visible, which
     * twelve decades on one axis hide. The ratios are a datablock of the
     * script, since gnuplot cannot divide across data blocks of a file.
     * Every range is set explicitly: vi_plot runs the body twice (svg,
     * png) and gnuplot keeps settings from the first pass. */
    const series *ref = &ss[ns - 1];
    len += (size_t)snprintf(b + len, cap - len, "$ratio << EOD\n");
    for (int r = 0; r < ref->rows && len + 512 < cap; r++) {
      len += (size_t)snprintf(b + len, cap - len, "%.0f", at(ref, r, M_M));
      for (int i = 0; i < ns; i++) {
        len += (size_t)snprintf(b + len, cap - len, " %.6e",
                                r < ss[i].rows ? at(&ss[i], r, M_ERR) / at(ref, r, M_ERR)
                                               : NAN);
      }
      len += (size_t)snprintf(b + len, cap - len, "\n");
    }
    len += (size_t)snprintf(b + len, cap - len,
                            "EOD\nset multiplot layout 2,1 title \"%s (%s, h = %g, T = %g)\" "
                            "noenhanced\nset key inside bottom left vertical maxrows 6\n"
                            "set logscale y\nset autoscale y\nset format y '10^{%%L}'\n"
                            "set xrange [1.7:%g]\n"
                            "set xlabel 'm (points per step)'\nset xtics 1\nset ylabel '%s'\n"
                            "set size 1, 0.58\nset origin 0, 0.38\nplot ",
                            f->id, f->system, ss[0].h, T, at(ref, ref->rows - 1, M_M) + 0.3,
                            f->ylabel);
    for (int i = 0; i < ns; i++) {
      len += (size_t)snprintf(b + len, cap - len,
                              "%s'%s' index %d using 1:3 with linespoints pt %d ps 1.3 lw 1.5 "
                              "dt %d lc rgb '%s' title \"%s\" noenhanced",
                              i ? ", \\\n     " : "", dat, i, 5 + 2 * (i % 4), 1 + i % 2,
                              colors[i % 8], ss[i].label);
    }
    len += (size_t)snprintf(b + len, cap - len,
                            ", \\\n     '%s' index 0:%d using 1:($6 > 0 ? $3 : 1/0) with points "
                            "pt 6 ps 2.6 lc rgb 'black' title 'run in quad precision'\n"
                            "unset logscale y\nset format y '%%g'\nset yrange [0:*]\n"
                            "set ylabel 'e / e(%s)'\nset key inside top right horizontal\n"
                            "set size 1, 0.38\nset origin 0, 0\nplot ",
                            dat, ns - 1, ref->label);
    for (int i = 0; i < ns; i++) {
      len += (size_t)snprintf(b + len, cap - len,
                              "%s$ratio using 1:%d with linespoints pt %d ps 1.3 lw 1.5 dt %d "
                              "lc rgb '%s' title \"%s\" noenhanced",
                              i ? ", \\\n     " : "", i + 2, 5 + 2 * (i % 4), 1 + i % 2,
                              colors[i % 8], ss[i].label);
    }
    len += (size_t)snprintf(b + len, cap - len, "\nunset multiplot");
  } else if (f->kind == FIG_TRACE && np > 0) {
    /* man2020 Fig. 8: one panel per m, the bands of its curves (LLL
     * first, so that the smaller LGG error is drawn on top of it). */
    len += (size_t)snprintf(b + len, cap - len,
                            "set multiplot layout %d,%d title \"%s (%s, T = %g)\" noenhanced\n"
                            "set key inside top right vertical opaque box\nset xlabel 't [s]'\n"
                            "set ylabel '%s'\nset format y '%%.1e'\n"
                            "set style fill transparent solid 0.35 noborder\n",
                            (np + 1) / 2, np > 1 ? 2 : 1, f->id, f->system, T, f->ylabel);
    for (int p = 0; p < np; p++) {
      len += (size_t)snprintf(b + len, cap - len, "set title '%s'\nplot ", f->panels[p]);
      for (int i = 0, k = 0; i < ns; i++) {
        if (f->curves[i].panel == p) {
          len = band_plot(b, len, cap, k == 0, dat, i, colors[k % 8], ss[i].label);
          k++;
        }
      }
      len += (size_t)snprintf(b + len, cap - len, "\n");
    }
    len += (size_t)snprintf(b + len, cap - len, "unset multiplot");
  } else if (f->kind == FIG_TRACE && ntot > ns) {
    /* Whole run: window maxima of |error| (log scale, so bounded curves of
     * different sizes stay apart); below, every step of the first seconds. */
    len += (size_t)snprintf(b + len, cap - len,
                            "set multiplot layout 2,1 title \"%s (%s, T = %g)\" noenhanced\n"
                            "set key inside top center horizontal maxrows 2\n"
                            "set xlabel 't [s]'\nset ylabel '|%s|, maximum per window'\n"
                            "set logscale y\nset format y '10^{%%L}'\nplot ",
                            f->id, f->system, quick ? f->T_quick : f->T, f->ylabel);
    for (int i = 0; i < ns; i++) {
      len += (size_t)snprintf(b + len, cap - len,
                              "%s'%s' index %d using 1:(abs($2) > abs($3) ? abs($2) : abs($3)) "
                              "with lines lw 1.5 lc rgb '%s' title \"%s\" noenhanced",
                              i ? ", \\\n     " : "", dat, i, colors[i % 8], ss[i].label);
    }
    len += (size_t)snprintf(b + len, cap - len,
                            "\nunset logscale y\nset format y '%%.1e'\nset ylabel '%s'\n"
                            "set key outside bottom center horizontal maxrows 3\nplot ",
                            f->ylabel);
    for (int i = 0; i < ns; i++) {
      len += (size_t)snprintf(b + len, cap - len,
                              "%s'%s' index %d using 1:2 with linespoints pt 7 ps 0.4 lw 1 "
                              "lc rgb '%s' title \"%s\" noenhanced",
                              i ? ", \\\n     " : "", dat, ns + i, colors[i % 8],
                              ss[ns + i].label);
    }
    len += (size_t)snprintf(b + len, cap - len, "\nunset multiplot");
  } else if (f->kind == FIG_TRACE) {
    /* The band between the smallest and largest error of each window. */
    len += (size_t)snprintf(b + len, cap - len,
                            "set title \"%s (%s, T = %g)\" noenhanced\nset xlabel 't [s]'\n"
                            "set ylabel '%s'\nset format y '%%.1e'\n"
                            "set style fill transparent solid 0.35 noborder\nplot ",
                            f->id, f->system, quick ? f->T_quick : f->T, f->ylabel);
    for (int i = 0; i < ns; i++) {
      len = band_plot(b, len, cap, i == 0, dat, i, colors[i % 8], ss[i].label);
    }
  } else {
    len += (size_t)snprintf(b + len, cap - len,
                            "set title \"%s (%s, T = %g)\\n%s\" noenhanced font ',10'\n"
                            "set logscale xy\nset xlabel 'run time [s] (pinned core, min of "
                            "%d repetitions)'\nset ylabel '%s'\nset format y '10^{%%L}'\n"
                            "plot ",
                            f->id, f->system, f->T, machine, WORK_REPS, f->ylabel);
    for (int i = 0; i < ns; i++) {
      len += (size_t)snprintf(b + len, cap - len,
                              "%s'%s' index %d using 3:4 with linespoints pt %d lc rgb '%s' "
                              "title \"%s\" noenhanced",
                              i ? ", \\\n     " : "", dat, i, 5 + 2 * (i % 4), colors[i % 8],
                              ss[i].label);
    }
  }
  snprintf(b + len, cap - len, "\n");
  return b;
}

/* A markdown table cell: '|' escaped. */
static void md_cell(const char *in, char *out, size_t len) {
  size_t k = 0;
  for (; *in && k + 2 < len; in++) {
    if (*in == '|') {
      out[k++] = '\\';
    }
    out[k++] = *in;
  }
  out[k] = 0;
}

static char *fig_md(const fig_spec *f, const series *ss, int ns, const claim *cl, int nc,
                    const char *machine, int quick) {
  size_t cap = 1 << 15, len = 0;
  char *t = malloc(cap);
  if (!t) {
    return NULL;
  }
#define MD(...) len += (size_t)snprintf(t + len, len < cap ? cap - len : 0, __VA_ARGS__)
  int held = 0;
  for (int i = 0; i < nc; i++) {
    held += cl[i].holds;
  }
  MD("# %s%s\n\n![%s](%s.svg)\n\n", f->id, quick ? " (quick run, reduced grid)" : "", f->id,
     f->id);
  if (f->precision) {
    MD("System `%s`, T = %g, built-in Newton (rtol = 100 eps). Precision: %s. Choices: "
       "%s.\n\n",
       f->system, quick ? f->T_quick : f->T, f->precision, f->why);
  } else {
    MD("System `%s`, T = %g, double precision, built-in Newton (rtol = 100 eps). Choices "
       "the paper leaves open: %s.\n\n",
       f->system, quick ? f->T_quick : f->T, f->why);
  }
  if (f->kind == FIG_MSWEEP) {
    MD("Global error e = max_k |H_k - H_0| / |H_0| (man2020 (46)-(47)) of one run over "
       "[0, %g] at h = %g for each algorithm and m; (quad): the run was done in quad "
       "precision.\n\n| m |",
       quick ? f->T_quick : f->T, ns ? ss[0].h : 0);
    for (int i = 0; i < ns; i++) {
      MD(" %s |", ss[i].label);
    }
    MD("\n|---|");
    for (int i = 0; i < ns; i++) {
      MD("---|");
    }
    MD("\n");
    for (int r = 0; ns && r < ss[0].rows; r++) {
      MD("| %.0f |", at(&ss[0], r, M_M));
      for (int i = 0; i < ns; i++) {
        if (r < ss[i].rows) {
          MD(" %.3e%s |", at(&ss[i], r, M_ERR), at(&ss[i], r, M_QUAD) > 0 ? " (quad)" : "");
        } else {
          MD(" - |");
        }
      }
      MD("\n");
    }
    MD("\nMethods: ");
    for (int i = 0; i < ns; i++) {
      MD("%s`%s`", i ? ", " : "", ss[i].method);
    }
    MD(". The JSON and CSV also give the maximum over the first and the last tenth of each "
       "run.\n\n");
  } else if (f->kind == FIG_WORK) {
    MD("Machine: %s. Each time is the minimum over %d repetitions (3 for runs over 0.5 s) of "
       "init + all steps on a thread pinned to one core; the errors come from a separate, "
       "untimed pass.\n\n",
       machine, quick ? 1 : WORK_REPS);
    for (int i = 0; i < ns; i++) {
      MD("## %s\n\n`%s`\n\n| h | steps | run time [s] | e_q | e_p | e_lambda | Newton/step |\n"
         "|---|---|---|---|---|---|---|\n",
         ss[i].label, ss[i].method);
      for (int r = 0; r < ss[i].rows; r++) {
        MD("| %.4g | %.0f | %.3e | %.3e | %.3e | %.3e | %.2f |\n", at(&ss[i], r, W_H),
           at(&ss[i], r, W_STEPS), at(&ss[i], r, W_SEC), at(&ss[i], r, W_EQ),
           at(&ss[i], r, W_EP), at(&ss[i], r, W_EL), at(&ss[i], r, W_NEWTON));
      }
      MD("\n");
    }
  } else {
    int quad = !isnan(ss[0].extra[4]), own = ss[0].quantity[0] != 0;
    const char *what = f->relative ? "max relative error" : "max abs error";
    MD("| combination |%s method | h | I(0) | %s |%s%s\n|---|%s---|---|---|---|%s%s\n",
       own ? " quantity |" : "", what, f->tenths ? " first tenth | last tenth |" : "",
       quad ? " max abs error, quad check |" : "", own ? "---|" : "",
       f->tenths ? "---|---|" : "", quad ? "---|" : "");
    for (int i = 0; i < ns; i++) {
      MD("| %s |", ss[i].label);
      if (own) {
        MD(" %s |", ss[i].quantity);
      }
      MD(" `%s` | %g | %.12g | %.3e |", ss[i].method, ss[i].h, ss[i].extra[0], ss[i].extra[1]);
      if (f->tenths) {
        MD(" %.3e | %.3e |", ss[i].extra[2], ss[i].extra[3]);
      }
      if (quad) {
        MD(" %.3e |", ss[i].extra[4]);
      }
      MD("\n");
    }
    MD("\nThe plot shows, per window of steps, the band between the smallest and largest "
       "signed error in the window.\n\n");
  }
  MD("## Claims of the paper's text\n\n%d/%d hold.\n\n| claim | measured | holds |\n"
     "|---|---|---|\n",
     held, nc);
  for (int i = 0; i < nc; i++) {
    char a[1100], b[2100];
    md_cell(cl[i].text, a, sizeof a);
    md_cell(cl[i].measured, b, sizeof b);
    MD("| %s | %s | %s |\n", a, b, cl[i].holds ? "yes" : "**no**");
  }
#undef MD
  return t;
}

/* ---- driver --------------------------------------------------------------- */

static int write_outputs(const fig_spec *f, const series *ss, int ns, int ntot, const claim *cl,
                         int nc, const vi_timing *tg, const reproduce_opts *o, char *err,
                         size_t errlen) {
  char base[1024];
  const char *line = tg->line;
  snprintf(base, sizeof base, "%s/%s", o->results_dir, f->id);
  json_t *j = json_object();
  json_object_set_new(j, "id", json_string(f->id));
  json_object_set_new(j, "system", json_string(f->system));
  json_object_set_new(j, "T", json_real(o->quick ? f->T_quick : f->T));
  json_object_set_new(j, "precision", json_string(f->precision ? f->precision : "double"));
  if (f->relative) {
    json_object_set_new(j, "relative", json_true());
  }
  json_object_set_new(j, "choices", json_string(f->why));
  json_object_set_new(j, "quick", json_boolean(o->quick));
  if (f->quantity) {
    json_object_set_new(j, "quantity", json_string(f->quantity));
  }
  json_object_set_new(j, "machine", vi_timing_json(tg));
  json_t *arr = json_array();
  for (int i = 0; i < ntot; i++) {
    json_array_append_new(arr, series_json(&ss[i]));
  }
  json_object_set_new(j, "series", arr);
  json_t *ca = json_array();
  int held = 0;
  for (int i = 0; i < nc; i++) {
    json_t *c = json_object();
    json_object_set_new(c, "claim", json_string(cl[i].text));
    json_object_set_new(c, "measured", json_string(cl[i].measured));
    json_object_set_new(c, "holds", json_boolean(cl[i].holds));
    json_array_append_new(ca, c);
    held += cl[i].holds;
  }
  json_object_set_new(j, "claims", ca);
  json_object_set_new(j, "claims_held", json_integer(held));
  json_object_set_new(j, "claims_total", json_integer(nc));
  char dat[1100];
  snprintf(dat, sizeof dat, "%s.dat", base);
  char *d = fig_dat(f, ss, ntot), *c = fig_csv(ss, ntot);
  char *md = fig_md(f, ss, ns, cl, nc, line, o->quick);
  int bad = vi_study_write(o->results_dir, f->id, j, md, c, err, errlen) != 0;
  json_decref(j);
  /* The script refers to the data file by its name relative to results/,
   * and gnuplot runs there, so the kept .gp can be rerun in place. */
  char datname[300];
  snprintf(datname, sizeof datname, "%s.dat", f->id);
  char *gp = fig_gnuplot(f, ss, ns, ntot, datname, line, o->quick);
  if (!bad) {
    bad |= vi_write_text(dat, d, err, errlen) != 0;
  }
  if (!bad) {
    /* Two stacked panels (zoom), or the larger man2020 layouts. */
    const int big = panel_count(f) > 2 || f->kind == FIG_MSWEEP;
    bad |= !gp || vi_plot(o->results_dir, f->id, gp, big ? 1100 : 900,
                          big ? 950 : ntot > ns ? 900 : 600, err, errlen) != 0;
  }
  free(d);
  free(c);
  free(md);
  free(gp);
  return bad ? -1 : 0;
}

static int run_figure(const fig_spec *f, const reproduce_opts *o) {
  char err[1024] = "";
  vi_system_d *sys = NULL;
  int rc = open_system(f->system, &sys, err, sizeof err);
  if (rc != VI_OK) {
    fprintf(stderr, "vistudy reproduce: %s: %s\n", f->id, err);
    return VI_EXIT_FAIL;
  }
  /* Curves 0..ns-1, then (zoom) the every-step series of each curve. */
  series ss[2 * FIG_MAXCURVES];
  memset(ss, 0, sizeof ss);
  int ns = 0;
  for (; ns < FIG_MAXCURVES && f->curves[ns].method; ns++) {
    snprintf(ss[ns].label, sizeof ss[ns].label, "%s", f->curves[ns].label);
    if (f->curves[ns].quantity) {
      snprintf(ss[ns].quantity, sizeof ss[ns].quantity, "%s", f->curves[ns].quantity);
    }
    ss[ns].cols = f->kind == FIG_TRACE ? trace_cols : f->kind == FIG_WORK ? work_cols : msweep_cols;
    ss[ns].ncol = f->kind == FIG_TRACE ? 3 : f->kind == FIG_WORK ? 8 : M_NCOL;
    ss[ns].extra[4] = NAN;
  }
  const int nz = f->kind == FIG_TRACE && f->zoom > 0 ? ns : 0, ntot = ns + nz;
  for (int i = 0; i < nz; i++) {
    series *z = &ss[ns + i];
    snprintf(z->label, sizeof z->label, "%.60s, every step of [0, %g]", f->curves[i].label,
             o->quick ? f->zoom / 5 : f->zoom);
    z->cols = trace_cols;
    z->ncol = 3;
    z->extra[4] = NAN;
  }
  /* The cell store: one cell per curve (quick runs neither resume nor
   * store). What determines a curve besides the code: the figure and T. */
  char config[400], note[VI_PATH_MAX + 256];
  /* Timed curves (work-precision) belong to the machine they were timed on:
   * a store from another CPU is not resumed. */
  char mline[200] = "";
  if (f->kind == FIG_WORK) {
    vi_machine mm;
    vi_machine_describe(&mm);
    snprintf(mline, sizeof mline, "; timed on %s", mm.cpu);
  }
  snprintf(config, sizeof config, "%s; T = %.17g; every-step close-up of [0, %.17g]%s", f->id,
           o->quick ? f->T_quick : f->T, o->quick ? f->zoom / 5 : f->zoom, mline);
  vi_cells store;
  if (vi_cells_open(&store, o->results_dir, f->id, config, o->fresh || o->quick, note,
                    sizeof note, err, sizeof err) != 0) {
    fprintf(stderr, "vistudy reproduce: %s: %s\n", f->id, err);
    vi_system_free_d(sys);
    return VI_EXIT_FAIL;
  }
  if (note[0]) {
    fprintf(stderr, "vistudy reproduce: %s: %s\n", f->id, note);
  }
  for (int i = 0; i < ns; i++) {
    char why[512];
    json_t *v = vi_cells_get(&store, ss[i].label);
    if (v && curve_restore(&ss[i], nz ? &ss[ns + i] : NULL, v, why, sizeof why) != 0) {
      fprintf(stderr, "vistudy reproduce: %s: stored curve '%s' in %s is invalid (%s); "
              "recomputing it\n", f->id, ss[i].label, store.path, why);
    }
  }
  /* Timed figures pin the thread and record the machine (timing.h). */
  vi_timing tg = {.core = -1};
  if (f->kind == FIG_WORK) {
    vi_timing_begin(&tg);
    if (tg.pin_note[0]) {
      fprintf(stderr, "vistudy reproduce: %s: timing unpinned: %s\n", f->id, tg.pin_note);
    }
  } else {
    vi_machine_describe(&tg.machine);
    vi_machine_line(&tg.machine, tg.line, sizeof tg.line);
  }
  double T = o->quick ? f->T_quick : f->T;
  int status = VI_EXIT_OK;
  for (int i = 0; i < ns; i++) {
    if (ss[i].done && (nz == 0 || ss[ns + i].done)) {
      continue;
    }
    ss[i].rows = 0;
    if (nz) {
      ss[ns + i].rows = 0;
    }
    if (o->progress) {
      fprintf(stderr, "\r%s: %d/%d %s                    ", f->id, i + 1, ns, ss[i].label);
    }
    err[0] = 0;
    if (f->kind == FIG_TRACE) {
      const char *qty = f->curves[i].quantity ? f->curves[i].quantity : f->quantity;
      rc = trace_run(sys, qty, f->relative, &f->curves[i], T,
                     nz ? (o->quick ? f->zoom / 5 : f->zoom) : 0, &ss[i], nz ? &ss[ns + i] : NULL,
                     err, sizeof err);
    } else if (f->kind == FIG_WORK) {
      rc = work_sweep(sys, &f->curves[i], T, o->quick, o->cache_dir, &ss[i], err, sizeof err);
    } else {
      rc = msweep_run(f, sys, &f->curves[i], T, o->quick ? f->m_hi_quick : f->m_hi, &ss[i], err,
                      sizeof err);
    }
    if (rc != VI_OK) {
      fprintf(stderr, "%svistudy reproduce: %s: %s: %s\n", o->progress ? "\n" : "", f->id,
              ss[i].label, err);
      status = VI_EXIT_FAIL;
      break;
    }
    ss[i].done = 1;
    if (nz) {
      ss[ns + i].done = 1;
    }
    if (!o->quick && vi_cells_put(&store, ss[i].label,
                                  curve_measurement(&ss[i], nz ? &ss[ns + i] : NULL), err,
                                  sizeof err) != 0) {
      fprintf(stderr, "%svistudy reproduce: %s: %s\n", o->progress ? "\n" : "", f->id, err);
      status = VI_EXIT_FAIL;
      break;
    }
  }
  vi_timing_end(&tg);
  if (o->progress) {
    fputc('\n', stderr);
  }
  vi_system_free_d(sys);
  if (status != VI_EXIT_OK) {
    vi_cells_close(&store);
    for (int i = 0; i < ntot; i++) {
      free(ss[i].v);
    }
    return status;
  }
  claim cl[16];
  memset(cl, 0, sizeof cl);

  int nc = f->claims(f, ss, ns, o->quick, cl, err, sizeof err);
  if (nc < 0) {
    fprintf(stderr, "vistudy reproduce: %s: %s\n", f->id, err);
    status = VI_EXIT_FAIL;
    nc = 0;
  }
  err[0] = 0;
  int written = write_outputs(f, ss, ns, ntot, cl, nc, &tg, o, err, sizeof err) == 0;
  if (!written) {
    fprintf(stderr, "vistudy reproduce: %s: %s\n", f->id, err);
    status = VI_EXIT_FAIL;
  }
  int held = 0;
  for (int i = 0; i < nc; i++) {
    held += cl[i].holds;
  }
  printf("%s: %d/%d claims of the text hold\n", f->id, held, nc);
  for (int i = 0; i < nc; i++) {
    if (!cl[i].holds) {
      printf("  does not hold: %s (%s)\n", cl[i].text, cl[i].measured);
    }
  }
  if (written) {
    printf("  results: %s/%s.{md,csv,json,svg,png}\n", o->results_dir, f->id);
  }
  if (status == VI_EXIT_OK) {
    vi_cells_finish(&store);
  }
  vi_cells_close(&store);
  for (int i = 0; i < ntot; i++) {
    free(ss[i].v);
  }
  if (status == VI_EXIT_OK && o->strict && held < nc) {
    status = VI_EXIT_FAIL;
  }
  return status;
}

int vi_figures_run(const vi_study *s, const reproduce_opts *o) {
  const char *id = s->id;
  for (int i = 0; i < NFIGS; i++) {
    if (strcmp(id, figs[i].id) == 0) {
      return run_figure(&figs[i], o);
    }
  }
  fprintf(stderr, "vistudy reproduce: unknown figure '%s'\n", id);
  return VI_EXIT_USAGE;
}
