/* run_figure.c: the figure runner (figure.h): the figures of the papers
 * (specs and claim predicates in studies/papers/) as reproduce studies,
 * in three phases: the curves restored from the cell store
 * (results/ID.partial.json, so an interrupted run resumes; --fresh starts
 * over), the others run (the timed work-precision curves serially through
 * the sweep core, every other curve in a pool of threads), then the claims
 * and the outputs. The curves by kind are figure_runs.c (traces, residual
 * traces, m-sweeps, convergence curves, work-precision), the files
 * figure_out.c.
 *
 * Figures have no published numbers; what the paper's text claims about
 * each figure is checked instead and reported as claims (held or not);
 * --strict turns a claim that does not hold into exit 1. */
#include "cells.h"
#include "dist.h"
#include "figure_impl.h"
#include "machine.h"
#include "outfile.h"
#include "progress.h"
#include "report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* ---- driver: a figure in three phases, curves in a pool of threads -------- */

/* One figure being run: its system, series, store and outcome. */
typedef struct fig_run {
  const vi_fig_spec *f;
  const char *cols[VI_FIG_MAXCOLS]; /* the series' columns (vi_fig_cols) */
  int ncol;
  vi_series ss[2 * VI_FIG_MAXCURVES];
  int ns, nz, ntot;
  vi_cells store;
  int store_open;
  vi_timing tg;
  double T;
  int status; /* VI_EXIT_* */
  vi_claim cl[16];
  int nc;
} fig_run;

static void fig_report(const fig_run *R, const reproduce_opts *o, const char *what) {
  /* A terminal's progress line is ended first. */
  fprintf(stderr, "%svistudy reproduce: %s: %s\n", o->progress == VI_PROGRESS_TTY ? "\n" : "",
          R->f->id, what);
}

/* Phase 1: the system, the series, the cell store with what it holds. */
static int fig_prepare(fig_run *R, const vi_fig_spec *f, const reproduce_opts *o) {
  char err[1024] = "";
  memset(R, 0, sizeof *R);
  R->f = f;
  R->status = VI_EXIT_OK;
  R->tg.core = -1;
  /* The system is made by every run (vi_api); here only its name. */
  if (!vi_system_find_d(f->system, err, sizeof err)) {
    fig_report(R, o, err);
    return R->status = VI_EXIT_FAIL;
  }
  vi_series *ss = R->ss;
  R->ncol = vi_fig_cols(f, R->cols);
  int ns = 0;
  for (; ns < VI_FIG_MAXCURVES && f->curves[ns].method; ns++) {
    snprintf(ss[ns].label, sizeof ss[ns].label, "%s", f->curves[ns].label);
    if (f->curves[ns].measure) {
      snprintf(ss[ns].measure, sizeof ss[ns].measure, "%s", f->curves[ns].measure);
    }
    if (f->kind == VI_FIG_PATH && vi_fig_path_x(f, ns)) {
      snprintf(ss[ns].xmeasure, sizeof ss[ns].xmeasure, "%s", vi_fig_path_x(f, ns));
    }
    ss[ns].cols = R->cols;
    ss[ns].ncol = R->ncol;
    ss[ns].quad = NAN;
    ss[ns].event_t = NAN;
    ss[ns].seconds = NAN;
    ss[ns].order = ss[ns].uncertainty = NAN;
  }
  const int trace = f->kind == VI_FIG_TRACE || f->kind == VI_FIG_RESIDUAL;
  const double zoom = o->quick ? f->trace.zoom / 5 : f->trace.zoom;
  const int nz = trace && f->trace.zoom > 0 ? ns : 0;
  for (int i = 0; i < nz; i++) {
    vi_series *z = &ss[ns + i];
    snprintf(z->label, sizeof z->label, "%.60s, every step of [0, %g]", f->curves[i].label,
             zoom);
    z->cols = R->cols;
    z->ncol = R->ncol;
    z->quad = NAN;
    z->event_t = NAN;
    z->seconds = NAN;
    z->order = z->uncertainty = NAN;
  }
  R->ns = ns;
  R->nz = nz;
  R->ntot = ns + nz;
  R->T = o->quick ? f->T_quick : f->T;
  /* The cell store: one cell per curve (quick runs neither resume nor
   * store). What determines a curve besides the code: the figure and T.
   * Timed curves (work-precision) belong to the machine they were timed
   * on: a store from another CPU is not resumed. */
  char config[900], note[VI_PATH_MAX + 256], mline[200] = "";
  if (f->kind == VI_FIG_WORK) {
    vi_machine mm;
    vi_machine_describe(&mm);
    snprintf(mline, sizeof mline, "; timed on %s", mm.cpu);
  }
  /* What a trace follows changes its rows (a store of changes is no store
   * of increments); the default adds nothing, so earlier stores resume. */
  static const char *const follow[] = {"", "; follows the change", "; follows the value",
                                       "; follows the increments"};
  const int fw = trace && f->trace.follow > 0 && f->trace.follow <= VI_TRACE_INCREMENT
                     ? f->trace.follow
                     : 0;
  /* The system's settings and the curves' Newton tolerances change the
   * curves; none adds nothing, so earlier stores resume. */
  char extra[400] = "";
  for (int j = 0; j < VI_FIG_MAXSET && f->set[j]; j++) {
    const size_t off = strlen(extra);
    snprintf(extra + off, sizeof extra - off, "%s%s", j ? ", " : "; set ", f->set[j]);
  }
  for (int i = 0; i < ns; i++) {
    const size_t off = strlen(extra);
    if (f->curves[i].rtol > 0 && off + 1 < sizeof extra) {
      snprintf(extra + off, sizeof extra - off, "; %s: rtol %.3g", f->curves[i].label,
               f->curves[i].rtol);
    }
  }
  snprintf(config, sizeof config, "%s; T = %.17g; every-step close-up of [0, %.17g]%s%s%s",
           f->id, R->T, zoom, mline, follow[fw], extra);
  if (vi_cells_open(&R->store, o->results_dir, f->id, config, o->fresh || o->quick, note,
                    sizeof note, err, sizeof err) != 0) {
    fig_report(R, o, err);
    return R->status = VI_EXIT_FAIL;
  }
  R->store_open = 1;
  R->store.memory_only = o->quick; /* a quick run stores nothing */
  if (note[0]) {
    fig_report(R, o, note);
  }
  for (int i = 0; i < ns; i++) {
    char why[512], msg[VI_PATH_MAX + 1024];
    json_t *v = vi_cells_get(&R->store, ss[i].label);
    if (v && vi_fig_curve_restore(f, i, R->T, zoom, o->quick, &ss[i],
                                  nz ? &ss[ns + i] : NULL, v, why, sizeof why) != 0) {
      snprintf(msg, sizeof msg, "stored curve '%s' in %s is invalid (%s); recomputing it",
               ss[i].label, R->store.path, why);
      fig_report(R, o, msg);
    }
  }
  return VI_EXIT_OK;
}

/* One untimed curve (trace, residual, m-sweep, convergence) of a figure:
 * independent of the others (its own system and stepper), so curves run in
 * parallel. */
static int fig_curve(fig_run *R, int i, const reproduce_opts *o, char *err, size_t errlen) {
  const vi_fig_spec *f = R->f;
  vi_series *s = &R->ss[i], *z = R->nz ? &R->ss[R->ns + i] : NULL;
  s->rows = 0;
  if (z) {
    z->rows = 0;
  }
  const double zoom = o->quick ? f->trace.zoom / 5 : f->trace.zoom;
  return vi_fig_curve_run(f, i, R->T, zoom, o->quick, s, z, err, errlen);
}

/* The pool's units: every pending (figure, curve) of a set of figures, a
 * unit of the cell pool (cells.h) stored in its figure's store (in memory
 * only in a quick run); a failed curve fails its figure, the others go
 * on. */
typedef struct fig_job {
  fig_run *R;
  int i;
  const reproduce_opts *o;
} fig_job;

static vi_series *job_zoom(const fig_job *J) {
  return J->R->nz ? &J->R->ss[J->R->ns + J->i] : NULL;
}

static void job_key(const void *u, char *buf, size_t len) {
  const fig_job *J = u;
  snprintf(buf, len, "%s", J->R->ss[J->i].label);
}

static void job_label(const void *u, char *buf, size_t len) {
  const fig_job *J = u;
  snprintf(buf, len, "%s: %s", J->R->f->id, J->R->ss[J->i].label);
}

static int job_restore(void *u, json_t *v, char *why, size_t whylen) {
  fig_job *J = u;
  const vi_fig_spec *f = J->R->f;
  const double zoom = J->o->quick ? f->trace.zoom / 5 : f->trace.zoom;
  return vi_fig_curve_restore(f, J->i, J->R->T, zoom, J->o->quick, &J->R->ss[J->i],
                              job_zoom(J), v, why, whylen);
}

static int job_done(const void *u) {
  const fig_job *J = u;
  const vi_series *z = job_zoom(J);
  return J->R->ss[J->i].done && (!z || z->done);
}

static int job_measure(void *u, const void *ctx, char *err, size_t errlen) {
  fig_job *J = u;
  (void)ctx;
  if (fig_curve(J->R, J->i, J->o, err, errlen) != VI_OK) {
    return -1;
  }
  vi_series *z = job_zoom(J);
  J->R->ss[J->i].done = 1;
  if (z) {
    z->done = 1;
  }
  return 0;
}

static json_t *job_stored(const void *u) {
  const fig_job *J = u;
  return vi_fig_curve_stored(&J->R->ss[J->i], job_zoom(J));
}

static vi_cells *job_cells(void *u) {
  fig_job *J = u;
  return &J->R->store;
}

static void job_fail(void *u, const void *ctx, const char *err) {
  fig_job *J = u;
  char msg[1200];
  (void)ctx;
  snprintf(msg, sizeof msg, "%s: %s", J->R->ss[J->i].label, err);
  fig_report(J->R, J->o, msg);
  J->R->status = VI_EXIT_FAIL;
}

static const vi_cells_unit fig_unit = {"curve",    sizeof(fig_job), job_key,     job_label,
                                       job_restore, job_done,        job_measure, job_stored,
                                       job_cells,   job_fail};

/* Phase 2: the curves not restored. Timed ones (work-precision) serially
 * through the sweep core (by rank 0 alone: a worker rank never times); the
 * others in the pool, measured by its threads and the other ranks. */
static void fig_run_all(const char *id, fig_run *Rs, int nR, const reproduce_opts *o) {
  const int worker = vi_dist_rank(o->dist) > 0;
  fig_job *jobs = calloc((size_t)(nR * VI_FIG_MAXCURVES + 1), sizeof *jobs);
  int *pending = calloc((size_t)(nR * VI_FIG_MAXCURVES + 1), sizeof *pending);
  int nj = 0, np = 0;
  for (int r = 0; r < nR; r++) {
    fig_run *R = &Rs[r];
    if (R->status != VI_EXIT_OK) {
      continue;
    }
    if (R->f->kind == VI_FIG_WORK && worker) {
      R->status = VI_EXIT_FAIL;
      continue;
    }
    if (R->f->kind == VI_FIG_WORK) {
      char err[1024] = "";
      vi_timing_begin(&R->tg);
      if (R->tg.pin_note[0]) {
        fig_report(R, o, R->tg.pin_note);
      }
      if (vi_fig_work_sweeps(R->f, R->ss, R->ns, R->T, o, err, sizeof err) != 0) {
        fig_report(R, o, err);
        R->status = VI_EXIT_FAIL;
      }
      vi_timing_end(&R->tg);
      for (int i = 0; R->status == VI_EXIT_OK && i < R->ns; i++) {
        if (R->ss[i].done) {
          continue;
        }
        R->ss[i].done = 1;
        if (!o->quick && vi_cells_put(&R->store, R->ss[i].label, vi_fig_curve_stored(&R->ss[i], NULL),
                                      err, sizeof err) != 0) {
          fig_report(R, o, err);
          R->status = VI_EXIT_FAIL;
        }
      }
      continue;
    }
    vi_machine_describe(&R->tg.machine);
    vi_machine_line(&R->tg.machine, R->tg.line, sizeof R->tg.line);
    /* Every curve is a unit (the same on every rank); the pending ones go
     * to the pool. */
    for (int i = 0; jobs && pending && i < R->ns; i++) {
      jobs[nj] = (fig_job){R, i, o};
      if (!job_done(&jobs[nj])) {
        pending[np++] = nj;
      }
      nj++;
    }
  }
  const vi_pool_opts po = vi_pool_of(o);
  if (!jobs || !pending ||
      vi_cells_pool(NULL, &fig_unit, jobs, nj, pending, np, NULL, id, &po) != 0) {
    /* Out of memory, or the pool stopped (MPI failed, or this is a worker
     * rank whose part is over): no figure of the set is finished. */
    for (int r = 0; r < nR; r++) {
      Rs[r].status = VI_EXIT_FAIL;
    }
  }
  free(jobs);
  free(pending);
}

/* Phase 3: the claims, the outputs staged in set (replaced only when every
 * figure of the study finished), the claims printed. */
static void fig_finish(fig_run *R, const reproduce_opts *o, vi_outset *set) {
  const vi_fig_spec *f = R->f;
  char err[1024] = "";
  if (R->status != VI_EXIT_OK) {
    return;
  }
  memset(R->cl, 0, sizeof R->cl);
  R->nc = f->claims(f, R->ss, R->ns, o->quick, R->cl, err, sizeof err);
  if (R->nc < 0) {
    fig_report(R, o, err);
    R->status = VI_EXIT_FAIL;
    R->nc = 0;
    return;
  }
  err[0] = 0;
  if (vi_fig_stage_outputs(set, f, R->ss, R->ns, R->ntot, R->cl, R->nc, &R->tg, o, err,
                           sizeof err) != 0) {
    fig_report(R, o, err);
    R->status = VI_EXIT_FAIL;
    return;
  }
  vi_claims_print(stdout, f->id, "of the text", R->cl, R->nc);
  for (int i = 0; i < R->ns; i++) {
    if (isfinite(R->ss[i].event_t)) {
      printf("  event: %s: %s at t = %.6g\n", R->ss[i].label, R->ss[i].event, R->ss[i].event_t);
    }
  }
}

/* After the set: the store finished when the results were written (kept
 * otherwise, so that a rerun resumes), the --strict verdict, the memory. */
static void fig_close(fig_run *R, const reproduce_opts *o, int written) {
  if (written) {
    printf("  results: %s/%s.{md,csv,json,svg,png,pdf}\n", o->results_dir, R->f->id);
    vi_cells_finish(&R->store);
    if (vi_claims_status(R->cl, R->nc, o->strict)) {
      R->status = VI_EXIT_FAIL;
    }
  }
  if (R->store_open) {
    vi_cells_close(&R->store);
  }
  for (int i = 0; i < R->ntot; i++) {
    free(R->ss[i].v);
  }
}

/* The figures' runs and outputs staged in set; VI_EXIT_OK when every one
 * finished (the set may then be committed). */
static int run_figures(const char *id, const vi_fig_spec *const *figs, int n, fig_run *Rs,
                       const reproduce_opts *o, vi_outset *set) {
  for (int r = 0; r < n; r++) {
    fig_prepare(&Rs[r], figs[r], o);
  }
  fig_run_all(id, Rs, n, o);
  int worst = VI_EXIT_OK;
  for (int r = 0; r < n; r++) {
    fig_finish(&Rs[r], o, set);
    worst = Rs[r].status > worst ? Rs[r].status : worst;
  }
  return worst;
}

/* Commit set when every figure finished (st OK), abort it otherwise: a
 * study's files are replaced together or not at all. Then each figure
 * closed; the worst status. */
static int figures_commit(const char *id, fig_run *Rs, int n, int st, vi_outset *set,
                          const reproduce_opts *o, int *was_written) {
  char err[VI_PATH_MAX + 512] = "";
  int written = 0;
  if (st == VI_EXIT_OK) {
    written = vi_outset_commit(set, err, sizeof err) == 0;
    if (!written) {
      fprintf(stderr, "vistudy reproduce: %s: %s\n", id, err);
      st = VI_EXIT_FAIL;
    }
  } else {
    vi_outset_abort(set);
    vi_study_stopped(id, o->quick ? NULL : "finished curves");
  }
  for (int r = 0; r < n; r++) {
    fig_close(&Rs[r], o, written);
    st = Rs[r].status > st ? Rs[r].status : st;
  }
  if (was_written) {
    *was_written = written;
  }
  return st;
}

int vi_run_figure(const vi_study *s, const reproduce_opts *o) {
  const vi_fig_spec *f = s->spec;
  fig_run *R = calloc(1, sizeof *R);
  if (!R) {
    fprintf(stderr, "vistudy reproduce: %s: out of memory\n", s->id);
    return VI_EXIT_FAIL;
  }
  vi_outset set;
  vi_outset_init(&set);
  int st = figures_commit(s->id, R, 1, run_figures(s->id, &f, 1, R, o, &set), &set, o, NULL);
  free(R);
  return st;
}

int vi_run_figure_set(const vi_study *s, const reproduce_opts *o) {
  const vi_fig_set *set = s->spec;
  int n = 0;
  while (set->figs[n]) {
    n++;
  }
  fig_run *Rs = calloc((size_t)n, sizeof *Rs);
  if (!Rs) {
    fprintf(stderr, "vistudy reproduce: %s: out of memory\n", s->id);
    return VI_EXIT_FAIL;
  }
  const double t0 = vi_clock();
  vi_outset out;
  vi_outset_init(&out);
  int st = run_figures(s->id, set->figs, n, Rs, o, &out);
  const double wall = vi_clock() - t0;
  /* The summary of the set: every figure's claims and events. */
  json_t *j = json_object(), *figs = json_array();
  char *md = NULL;
  size_t mdlen = 0;
  FILE *mf = open_memstream(&md, &mdlen);
  json_object_set_new(j, "id", json_string(s->id));
  json_object_set_new(j, "title", json_string(s->title));
  json_object_set_new(j, "choices", json_string(set->why));
  json_object_set_new(j, "quick", json_boolean(o->quick));
  int held = 0, total = 0;
  if (mf) {
    fprintf(mf, "# %s\n\n%s%s\n\n%s\n\n", s->id, o->quick ? "**Quick run** (reduced T). " : "",
            s->title, set->why);
  }
  for (int r = 0; r < n; r++) {
    const fig_run *R = &Rs[r];
    json_t *x = json_object();
    json_object_set_new(x, "id", json_string(R->f->id));
    json_object_set_new(x, "system", json_string(R->f->system));
    json_object_set_new(x, "ok", json_boolean(R->status == VI_EXIT_OK));
    vi_claims_json(x, R->cl, R->nc);
    json_t *ev = json_array();
    for (int i = 0; i < R->ns; i++) {
      json_t *e = json_object();
      json_object_set_new(e, "curve", json_string(R->ss[i].label));
      json_object_set_new(e, "t", isfinite(R->ss[i].event_t) ? json_real(R->ss[i].event_t)
                                                              : json_null());
      json_object_set_new(e, "event", json_string(isfinite(R->ss[i].event_t) ? R->ss[i].event
                                                                              : "ran to T"));
      json_array_append_new(ev, e);
    }
    json_object_set_new(x, "events", ev);
    json_array_append_new(figs, x);
    held += vi_claims_held(R->cl, R->nc);
    total += R->nc;
    if (mf) {
      char head[256];
      snprintf(head, sizeof head, "%s (`%s`, [figure](%s.svg), [details](%s.md))", R->f->id,
               R->f->system, R->f->id, R->f->id);
      vi_claims_md(mf, head, R->cl, R->nc);
      for (int i = 0; i < R->ns; i++) {
        if (isfinite(R->ss[i].event_t)) {
          fprintf(mf, "- event: %s: %s at t = %.6g\n", R->ss[i].label, R->ss[i].event,
                  R->ss[i].event_t);
        }
      }
      fputc('\n', mf);
    }
  }
  json_object_set_new(j, "figures", figs);
  /* The claims across the figures, on the finished figures only. */
  vi_claim across[VI_FIG_SET_MAXCLAIMS];
  int na = 0;
  memset(across, 0, sizeof across);
  if (set->claims && st == VI_EXIT_OK) {
    vi_fig_done *done = calloc((size_t)n, sizeof *done);
    char err[1024] = "";
    for (int r = 0; done && r < n; r++) {
      done[r] = (vi_fig_done){Rs[r].f, Rs[r].ss, Rs[r].ns, Rs[r].cl, Rs[r].nc};
    }
    na = done ? set->claims(set, done, n, o->quick, across, err, sizeof err) : -1;
    free(done);
    if (na < 0 || na > VI_FIG_SET_MAXCLAIMS) {
      fprintf(stderr, "vistudy reproduce: %s: the claims across figures: %s\n", s->id,
              na < 0 ? (err[0] ? err : "out of memory") : "too many");
      st = VI_EXIT_FAIL;
      na = 0;
    }
  }
  if (na > 0) {
    json_t *x = json_object();
    vi_claims_json(x, across, na);
    json_object_set_new(j, "across", x);
    held += vi_claims_held(across, na);
    total += na;
    vi_claims_print(stdout, s->id, "of the text across its figures", across, na);
    if (mf) {
      vi_claims_md(mf, "Claims across the figures", across, na);
      fputc('\n', mf);
    }
  }
  json_object_set_new(j, "claims_held", json_integer(held));
  json_object_set_new(j, "claims_total", json_integer(total));
  json_object_set_new(j, "wall_seconds", json_real(wall));
  if (mf) {
    fprintf(mf, "%d/%d claims hold. Wall time %.1f s. Regenerate with `vistudy reproduce %s`.\n",
            held, total, wall, s->id);
    fclose(mf);
  }
  char err[1024] = "";
  if (st == VI_EXIT_OK &&
      vi_study_stage(&out, o->results_dir, s->id, md ? j : NULL, md, NULL, err, sizeof err) != 0) {
    fprintf(stderr, "vistudy reproduce: %s: %s\n", s->id, err[0] ? err : "out of memory");
    st = VI_EXIT_FAIL;
  }
  int written = 0;
  st = figures_commit(s->id, Rs, n, st, &out, o, &written);
  if (written && vi_claims_status(across, na, o->strict)) {
    st = VI_EXIT_FAIL;
  }
  printf("%s: %d/%d claims of the text hold over %d figures; wall time %.1f s\n", s->id, held,
         total, n, wall);
  if (written) {
    printf("  results: %s/%s.{md,json}\n", o->results_dir, s->id);
  }
  json_decref(j);
  free(md);
  free(Rs);
  return st;
}
