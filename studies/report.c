/* report.c: text and JSON reports of studies (report.h). */
#include "report.h"
#include "outfile.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const quant_names[VI_NQUANT] = {"q", "p", "lambda"};

/* Every fit of an order study also checks the solves behind its window
 * (vi_fit_solver_check). */
static vi_fit fit_of(const vi_order_result *r, const double *e, double floor) {
  vi_fit f = vi_fit_order(r->nh, r->h, e, floor, 10.0);
  vi_fit_solver_check(&f, r->newton_per_step);
  return f;
}

void vi_order_fits(const vi_order_result *r, vi_fit fits[VI_NQUANT]) {
  for (int x = 0; x < VI_NQUANT; x++) {
    fits[x] = vi_order_fit(r, x);
  }
}

vi_fit vi_order_energy_fit(const vi_order_result *r) {
  return fit_of(r, r->energy_err, r->energy_floor);
}

vi_fit vi_order_energy_rms_fit(const vi_order_result *r) {
  return vi_order_fit(r, VI_ENERGY);
}

/* One "order X ..." line of the printed study: an ok verdict as the order
 * with its uncertainty and the window it rests on; anything else as
 * "unresolved" (or "d", "plateau") with the reason, never a plain number. */
static void print_fit(FILE *f, const vi_order_result *r, const char *name, const vi_fit *fit,
                      double floor) {
  if (fit->verdict == VI_VERDICT_OK) {
    fprintf(f, "order %-6s %5.2f +- %.2f  ok (h = %.4g .. %.4g, %d points, local slopes "
            "%.2f .. %.2f, rms residual %.3f in log10 e)",
            name, fit->order, fit->uncertainty, r->h[fit->lo], r->h[fit->hi],
            fit->hi - fit->lo + 1, fit->slope_min, fit->slope_max, fit->residual);
  } else {
    const char *lab = fit->why == VI_WHY_NOT_CONVERGING ? "d"
                      : fit->why == VI_WHY_FLOOR        ? "plateau"
                                                        : "unresolved";
    fprintf(f, "order %-6s %-13s (%s", name, lab, vi_fit_why(fit->why));
    if (fit->why == VI_WHY_FLOOR) {
      fprintf(f, " %.1e", floor);
    } else if (fit->why == VI_WHY_TOO_FEW) {
      fprintf(f, ": %d%s of the %d needed", fit->n_above,
              fit->n_plateau > 0 ? " above the floor" : "", VI_FIT_MIN_POINTS);
    } else if (fit->why == VI_WHY_PREASYMPTOTIC || fit->why == VI_WHY_SCATTERED) {
      fprintf(f, ": local slopes %.2f .. %.2f over the last %d errors", fit->slope_min,
              fit->slope_max, VI_FIT_MIN_POINTS);
    }
    fputc(')', f);
    if (strcmp(r->precision, "double") == 0 && fit->n_plateau > 0 &&
        (fit->why == VI_WHY_FLOOR || fit->why == VI_WHY_TOO_FEW)) {
      fprintf(f, "; rerun with --precision quad (or auto)");
    } else if (fit->why == VI_WHY_TOO_FEW) {
      fprintf(f, "; give more step sizes, or --h auto");
    } else if (fit->why == VI_WHY_PREASYMPTOTIC) {
      fprintf(f, "; smaller steps needed");
    }
  }
  if (fit->n_plateau > 0 && fit->why != VI_WHY_FLOOR) {
    fprintf(f, "; %d point%s at the floor %.1e left out", fit->n_plateau,
            fit->n_plateau == 1 ? "" : "s", floor);
  }
  fputc('\n', f);
}

vi_fit vi_order_extra_fit(const vi_order_result *r) {
  return vi_order_fit(r, VI_EXTRA);
}

/* A quantity the method declares exact (VI_ORDER_EXACT: the energy, the
 * extra block): whether every run stayed within round-off
 * (vi_order_exact_of). */
static void print_exact(FILE *f, const vi_order_result *r, int x, const char *name) {
  double worst = 0;
  int at = -1;
  const int held = vi_order_exact_of(r, x, &worst, &at);
  const double *e = x == VI_EXTRA ? r->extra_err : r->energy_err;
  if (held < 0) {
    fprintf(f, "order %-6s exact (declared by the method; no run measured it)\n", name);
  } else {
    fprintf(f, "order %-6s %s (declared exact by the method: its maximum over the nodes %s "
            "the round-off bound (%.1e sqrt(N)) in every run; largest %.1e at h = %.4g, %.2g "
            "of its bound)\n",
            name, held ? "exact      " : "NOT exact  ", held ? "within" : "NOT within",
            x == VI_EXTRA ? r->extra_floor : r->energy_floor, e[at], r->h[at], worst);
  }
}

/* The energy line: the fit of its root mean square, or, where the method
 * declares exact conservation, whether every run stayed within round-off. */
static void print_energy(FILE *f, const vi_order_result *r, const vi_fit *fe) {
  if (!r->energy_exact) {
    print_fit(f, r, "energy", fe, r->energy_floor);
    return;
  }
  print_exact(f, r, VI_ENERGY, "energy");
}

void vi_order_print(FILE *f, const vi_order_result *r, const vi_fit fits[VI_NQUANT]) {
  fprintf(f, "order study: %s on %s, %s precision, T = %g\n", r->method, r->system,
          r->precision, r->T);
  fprintf(f, "reference: %s (estimated accuracy %.1e)\n", r->reference, r->ref_accuracy);
  if (r->lambda_mid) {
    fprintf(f, "lambda: node k against the reference at t_k - h/2 (--lambda-at mid)\n");
  }
  if (r->precision_note[0]) {
    fprintf(f, "precision: %s\n", r->precision_note);
  }
  if (isfinite(r->time_scale)) {
    fprintf(f, "step sizes: automatic from the time scale of the motion %.3g (first h = %.4g)\n",
            r->time_scale, r->h_first);
    if (r->h_first > r->time_scale) {
      fprintf(f, "note: the step budget of one run put the first h above the time scale (T = "
              "%g is %.3g time scales): every verdict may be pre-asymptotic; a shorter T "
              "measures the order\n", r->T, r->T / r->time_scale);
    }
  }
  /* The method's extra block, when it has one, as a column after lambda:
   * its max |.| over the nodes (its error when the exact flow has it 0). */
  char xcol[32] = "";
  if (r->nextra > 0) {
    snprintf(xcol, sizeof xcol, "e_%s", r->extra_name);
  }
  fprintf(f, "%12s %7s %11s %11s %11s", "h", "steps", "e_q", "e_p", "e_lambda");
  if (r->nextra > 0) {
    fprintf(f, " %11s", xcol);
  }
  fprintf(f, " %11s %11s %8s %9s\n", "e_E_rms", "e_E_max", "newton", "seconds");
  for (int i = 0; i < r->nh; i++) {
    fprintf(f, "%12.6g %7ld %11.3e %11.3e %11.3e", r->h[i], r->steps[i], r->err[VI_Q][i],
            r->err[VI_P][i], r->err[VI_LAMBDA][i]);
    if (r->nextra > 0) {
      fprintf(f, " %11.3e", r->extra_err[i]);
    }
    fprintf(f, " %11.3e %11.3e %8.2f %9.4f%s%s\n", r->energy_rms[i], r->energy_err[i],
            r->newton_per_step[i], r->seconds[i], r->status[i] ? "  " : "",
            r->status[i] ? vi_strerror(r->status[i]) : "");
  }
  double cpu = 0;
  for (int i = 0; i < r->nh; i++) {
    cpu += isfinite(r->seconds[i]) ? r->seconds[i] : 0;
  }
  fprintf(f, "%d runs, %.3f s of CPU time in the runs (references and fits apart)\n", r->nh,
          cpu);
  vi_fit fe = vi_order_energy_rms_fit(r), fm = vi_order_energy_fit(r);
  if (r->measure == VI_MEASURE_ENERGY) {
    print_energy(f, r, &fe);
  }
  for (int x = 0; x < VI_NQUANT; x++) {
    int measured = 0;
    for (int i = 0; i < r->nh && (x != VI_LAMBDA || r->nmult > 0); i++) {
      measured |= !isnan(r->err[x][i]);
    }
    if (measured) {
      print_fit(f, r, quant_names[x], &fits[x], r->floor[x]);
    }
  }
  if (r->nextra > 0 && r->extra_zero && r->extra_exact) {
    print_exact(f, r, VI_EXTRA, r->extra_name);
  } else if (r->nextra > 0 && r->extra_zero) {
    vi_fit fx = vi_order_extra_fit(r);
    print_fit(f, r, r->extra_name, &fx, r->extra_floor);
  }
  if (r->measure != VI_MEASURE_ENERGY) {
    print_energy(f, r, &fe);
  }
  if (!r->energy_exact) {
    fprintf(f, "energy above is the root mean square over the nodes of |E_k - E_0| / |E_0|; "
            "its maximum (man2020 (46)-(47)), which samples an oscillation at h-dependent "
            "phases:\n");
    print_fit(f, r, "E_max", &fm, r->energy_floor);
  }
  if (r->nextra > 0 && !r->extra_zero) {
    fprintf(f, "%s (the method's extra block, %d per node) has no reference: its maximum "
            "over the nodes is the column e_%s\n", r->extra_name, r->nextra, r->extra_name);
  }
  vi_fit f0 = vi_fit_order(r->nh, r->h, r->lambda0_err, r->floor[VI_LAMBDA], 10.0);
  int any0 = 0;
  for (int i = 0; i < r->nh; i++) {
    any0 |= isfinite(r->lambda0_err[i]) && isfinite(r->err[VI_LAMBDA][i]);
  }
  if (r->nmult > 0 && any0 && f0.why != VI_WHY_FLOOR) {
    fprintf(f, "lambda above is measured over the nodes k >= 1; the start value lambda_0 "
            "(node 0, one-sided):\n");
    print_fit(f, r, "lam_0", &f0, r->floor[VI_LAMBDA]);
  }
}

static json_t *num_or_null(double v) {
  return isfinite(v) ? json_real(v) : json_null();
}

static json_t *array_of(const double *v, int n) {
  json_t *a = json_array();
  for (int i = 0; i < n; i++) {
    json_array_append_new(a, num_or_null(v[i]));
  }
  return a;
}

/* An order as JSON: the number for an ok verdict, else "d", "plateau" or
 * "unresolved". */
static json_t *order_label(const vi_fit *f) {
  return f->verdict == VI_VERDICT_OK         ? json_real(f->order)
         : f->why == VI_WHY_NOT_CONVERGING ? json_string("d")
         : f->why == VI_WHY_FLOOR          ? json_string("plateau")
                                           : json_string("unresolved");
}

/* A fit as JSON: its window, residual, verdict and reason. */
static json_t *fit_json(const vi_fit *f) {
  json_t *fo = json_object();
  static const char *const st_names[] = {"ok", "divergent", "plateau", "too-few-points"};
  json_object_set_new(fo, "status", json_string(st_names[f->status]));
  json_object_set_new(fo, "lo", json_integer(f->lo));
  json_object_set_new(fo, "hi", json_integer(f->hi));
  json_object_set_new(fo, "residual", num_or_null(f->residual));
  json_object_set_new(fo, "n_plateau", json_integer(f->n_plateau));
  json_object_set_new(fo, "verdict",
                      json_string(f->verdict == VI_VERDICT_OK ? "ok" : "unresolved"));
  json_object_set_new(fo, "reason", json_string(vi_fit_why(f->why)));
  json_object_set_new(fo, "order", num_or_null(f->verdict == VI_VERDICT_OK ? f->order : NAN));
  json_object_set_new(fo, "uncertainty", num_or_null(f->uncertainty));
  json_object_set_new(fo, "local_slopes",
                      json_pack("[o, o]", num_or_null(f->slope_min), num_or_null(f->slope_max)));
  json_object_set_new(fo, "points_above_floor", json_integer(f->n_above));
  return fo;
}

json_t *vi_order_json(const vi_order_result *r, const vi_fit fits[VI_NQUANT]) {
  json_t *j = json_object();
  json_object_set_new(j, "system", json_string(r->system));
  json_t *params = json_object();
  for (int i = 0, k = 0; i < r->nparams; i++) {
    if (r->param_count[i] == 1) {
      json_object_set_new(params, r->param_names[i], json_real(r->params[k]));
    } else {
      json_object_set_new(params, r->param_names[i], array_of(r->params + k, r->param_count[i]));
    }
    k += r->param_count[i];
  }
  json_object_set_new(j, "params", params);
  json_object_set_new(j, "method", json_string(r->method));
  json_object_set_new(j, "precision", json_string(r->precision));
  json_object_set_new(j, "T", json_real(r->T));
  json_object_set_new(j, "measure",
                      json_string(r->measure == VI_MEASURE_ENERGY ? "energy" : "state"));
  json_object_set_new(j, "errors_at",
                      json_string(r->at_final ? "final time: |x_N - x_ref(T)|_inf"
                                              : "every node: max_k |x_k - x_ref(t_k)|_inf"));
  json_object_set_new(j, "lambda_at",
                      json_string(r->lambda_mid ? "mid: t_k - h/2" : "end: t_k"));
  json_object_set_new(j, "h", array_of(r->h, r->nh));
  json_t *steps = json_array();
  json_t *st = json_array();
  for (int i = 0; i < r->nh; i++) {
    json_array_append_new(steps, json_integer(r->steps[i]));
    json_array_append_new(st, json_string(vi_strerror(r->status[i])));
  }
  json_object_set_new(j, "steps", steps);
  json_t *err = json_object(), *orders = json_object(), *fit = json_object(),
         *floor = json_object();
  vi_fit fe = vi_order_energy_rms_fit(r), fm = vi_order_energy_fit(r),
         f0 = vi_fit_order(r->nh, r->h, r->lambda0_err, r->floor[VI_LAMBDA], 10.0);
  /* The quantities of the JSON, in this order: q, p, lambda, then the
   * energy's root mean square, its maximum and lambda's start value (own
   * indices here, not VI_ENERGY or VI_EXTRA). */
  enum { J_RMS = VI_NQUANT, J_MAX, J_LAM0, J_COUNT };
  static const char *const extra[J_COUNT - VI_NQUANT] = {"energy", "energy_max",
                                                          "lambda_start"};
  for (int x = 0; x < J_COUNT; x++) {
    const char *name = x < VI_NQUANT ? quant_names[x] : extra[x - VI_NQUANT];
    const vi_fit *f = x < VI_NQUANT ? &fits[x] : x == J_RMS ? &fe : x == J_MAX ? &fm : &f0;
    const double *ev = x < VI_NQUANT ? r->err[x] : x == J_RMS ? r->energy_rms
                       : x == J_MAX  ? r->energy_err
                                     : r->lambda0_err;
    json_object_set_new(err, name, array_of(ev, r->nh));
    json_object_set_new(floor, name, json_real(x < VI_NQUANT ? r->floor[x]
                                               : x == J_LAM0 ? r->floor[VI_LAMBDA]
                                                             : r->energy_floor));
    json_object_set_new(orders, name, order_label(f));
    json_object_set_new(fit, name, fit_json(f));
  }
  if (r->nextra > 0) {
    /* The extra block under its own name; fitted where the exact flow has
     * it zero. */
    json_object_set_new(err, r->extra_name, array_of(r->extra_err, r->nh));
    json_object_set_new(floor, r->extra_name, json_real(r->extra_floor));
    if (r->extra_zero && r->extra_exact) {
      double worst = 0;
      int at = -1;
      const int held = vi_order_exact_of(r, VI_EXTRA, &worst, &at);
      json_object_set_new(orders, r->extra_name,
                          json_string(held < 0 ? "unresolved" : held ? "exact" : "not exact"));
      json_object_set_new(j, "extra_exact",
                          json_pack("{s:b, s:o, s:o, s:s}", "declared", 1, "holds",
                                    held < 0 ? json_null() : json_boolean(held), "worst_ratio",
                                    num_or_null(held < 0 ? NAN : worst), "bound",
                                    "the extra block's floor times sqrt(N) of each run's N "
                                    "steps"));
    } else if (r->extra_zero) {
      vi_fit fx = vi_order_extra_fit(r);
      json_object_set_new(orders, r->extra_name, order_label(&fx));
      json_object_set_new(fit, r->extra_name, fit_json(&fx));
    }
    json_object_set_new(j, "extra",
                        json_pack("{s:s, s:i, s:s}", "name", r->extra_name, "per_node",
                                  r->nextra, "reference",
                                  r->extra_zero ? "zero along the exact flow" : "none"));
  }
  if (r->energy_exact) {
    double worst = 0;
    int at = -1;
    const int held = vi_order_exact(r, &worst, &at);
    json_object_set_new(orders, "energy",
                        json_string(held < 0 ? "unresolved" : held ? "exact" : "not exact"));
    json_object_set_new(j, "energy_exact",
                        json_pack("{s:b, s:o, s:o, s:s}", "declared", 1, "holds",
                                  held < 0 ? json_null() : json_boolean(held), "worst_ratio",
                                  num_or_null(held < 0 ? NAN : worst), "bound",
                                  "100 eps sqrt(N) of each run's N steps"));
  }
  json_object_set_new(j, "err", err);
  json_object_set_new(j, "energy_err", array_of(r->energy_err, r->nh));
  json_object_set_new(j, "measures",
                      json_string("err.lambda over the nodes k >= 1, err.lambda_start at node 0; "
                                  "err.energy the root mean square over the nodes of "
                                  "|E_k - E_0| / |E_0|, err.energy_max its maximum "
                                  "(man2020 (46)-(47), also energy_err)"));
  json_object_set_new(j, "time_scale", num_or_null(r->time_scale));
  json_object_set_new(j, "precision_choice", json_string(r->precision_note));
  json_object_set_new(j, "orders", orders);
  json_object_set_new(j, "fit", fit);
  json_object_set_new(j, "floor", floor);
  json_object_set_new(j, "reference", json_string(r->reference));
  json_object_set_new(j, "reference_accuracy", json_real(r->ref_accuracy));
  json_object_set_new(j, "newton_per_step", array_of(r->newton_per_step, r->nh));
  json_object_set_new(j, "unknowns_per_step", json_integer(r->unknowns));
  json_object_set_new(j, "seconds", array_of(r->seconds, r->nh));
  json_object_set_new(j, "run_status", st);
  return j;
}

/* j into the open output o (indent 2, 17 digits); 0, or -1 with err. */
static int json_to(const json_t *j, const vi_out *o, char *err, size_t errlen) {
  if (json_dumpf(j, o->f, JSON_INDENT(2) | JSON_REAL_PRECISION(17)) != 0) {
    snprintf(err, errlen, "cannot write %s: %s", o->d.path, strerror(errno));
    return -1;
  }
  return 0;
}

int vi_json_write(const json_t *j, const char *path, char *err, size_t errlen) {
  vi_out o;
  if (vi_out_open(&o, path, err, errlen) != 0) {
    return -1;
  }
  if (json_to(j, &o, err, errlen) != 0) {
    vi_out_abort(&o);
    return -1;
  }
  return vi_out_commit(&o, err, errlen);
}

int vi_outset_json(vi_outset *set, const char *path, const json_t *j, char *err,
                   size_t errlen) {
  if (!j) {
    snprintf(err, errlen, "out of memory writing %s", path);
    return -1;
  }
  vi_out *o = vi_outset_add(set, path, err, errlen);
  return o ? json_to(j, o, err, errlen) : -1;
}

void vi_study_stopped(const char *id, const char *kept) {
  fprintf(stderr, "vistudy reproduce: %s: stopped early: no result file replaced%s%s%s\n", id,
          kept ? "; its " : "", kept ? kept : "", kept ? " are kept for a rerun to resume" : "");
}

int vi_study_stage(vi_outset *set, const char *dir, const char *id, const json_t *j,
                   const char *md, const char *csv, char *err, size_t errlen) {
  char path[VI_PATH_MAX + 64];
  snprintf(path, sizeof path, "%s/%s.json", dir, id);
  if (vi_outset_json(set, path, j, err, errlen) != 0) {
    return -1;
  }
  snprintf(path, sizeof path, "%s/%s.md", dir, id);
  if (vi_outset_text(set, path, md, err, errlen) != 0) {
    return -1;
  }
  snprintf(path, sizeof path, "%s/%s.csv", dir, id);
  return csv ? vi_outset_text(set, path, csv, err, errlen) : 0;
}

int vi_study_write(const char *dir, const char *id, const json_t *j, const char *md,
                   const char *csv, char *err, size_t errlen) {
  vi_outset set;
  vi_outset_init(&set);
  if (vi_study_stage(&set, dir, id, j, md, csv, err, errlen) != 0) {
    vi_outset_abort(&set);
    return -1;
  }
  return vi_outset_commit(&set, err, errlen);
}

int vi_study_check(const char *dir, const char *id, const char *suffixes, char *err,
                   size_t errlen) {
  char path[VI_PATH_MAX], suf[64];
  const char *c = suffixes;
  int k = 0;
  while (sscanf(c, "%63s%n", suf, &k) == 1) {
    c += k;
    snprintf(path, sizeof path, "%s/%s%s", dir, id, suf);
    vi_dest d;
    if (vi_dest_check(path, &d, err, errlen) != 0) {
      return -1;
    }
    if (d.kind != VI_DEST_FILE) {
      snprintf(err, errlen, "%s is not a regular file: a study writes regular files", path);
      return -1;
    }
  }
  return 0;
}

json_t *vi_params_json(const vi_system_d *sys) {
  json_t *p = json_object();
  int k = 0;
  for (const vi_param *d = sys->type->info->params; d->name; d++) {
    /* An unset parameter per coordinate (VI_PARAM_COORDS, derived by the
     * system) is NaN: null. */
    if (d->count == 1) {
      json_object_set_new(p, d->name, num_or_null(sys->par[k++]));
    } else {
      json_t *a = json_array();
      for (int c = 0; c < d->count; c++) {
        json_array_append_new(a, num_or_null(sys->par[k++]));
      }
      json_object_set_new(p, d->name, a);
    }
  }
  return p;
}
