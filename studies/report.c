/* report.c: text and JSON reports of studies (report.h). */
#include "report.h"
#include "outfile.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const quant_names[VI_NQUANT] = {"q", "p", "lambda"};

void vi_order_fits(const vi_order_result *r, vi_fit fits[VI_NQUANT]) {
  for (int x = 0; x < VI_NQUANT; x++) {
    fits[x] = vi_fit_order(r->nh, r->h, r->err[x], r->floor[x], 10.0);
  }
}

vi_fit vi_order_energy_fit(const vi_order_result *r) {
  return vi_fit_order(r->nh, r->h, r->energy_err, r->energy_floor, 10.0);
}

/* One "order X ..." line of the printed study. */
static void print_fit(FILE *f, const vi_order_result *r, const char *name, const vi_fit *fit,
                      double floor) {
  char lab[32];
  vi_fit_label(fit, lab, sizeof lab);
  fprintf(f, "order %-6s %-8s", name, lab);
  if (fit->status == VI_FIT_OK) {
    fprintf(f, " (least squares over h = %.4g .. %.4g, %d points, rms residual %.3f in log10 e)",
            r->h[fit->lo], r->h[fit->hi], fit->hi - fit->lo + 1, fit->residual);
  } else if (fit->status == VI_FIT_DIVERGENT) {
    fprintf(f, " (the error does not decrease with h)");
  } else if (fit->status == VI_FIT_PLATEAU) {
    fprintf(f, " (every error is at the round-off/reference floor %.1e)", floor);
  }
  if (strcmp(r->precision, "double") == 0 &&
      (fit->status == VI_FIT_PLATEAU || fit->status == VI_FIT_TOO_FEW ||
       (fit->status == VI_FIT_OK && fit->hi - fit->lo < 2))) {
    fprintf(f, "; too few errors above double round-off: rerun with --precision quad");
  }
  if (fit->n_plateau > 0 && fit->status != VI_FIT_PLATEAU) {
    fprintf(f, "; %d point%s at the floor %.1e left out", fit->n_plateau,
            fit->n_plateau == 1 ? "" : "s", floor);
  }
  fputc('\n', f);
}

void vi_order_print(FILE *f, const vi_order_result *r, const vi_fit fits[VI_NQUANT]) {
  fprintf(f, "order study: %s on %s, %s precision, T = %g\n", r->method, r->system,
          r->precision, r->T);
  fprintf(f, "reference: %s (estimated accuracy %.1e)\n", r->reference, r->ref_accuracy);
  fprintf(f, "%12s %7s %11s %11s %11s %11s %8s %9s\n", "h", "steps", "e_q", "e_p",
          "e_lambda", "e_energy", "newton", "seconds");
  for (int i = 0; i < r->nh; i++) {
    fprintf(f, "%12.6g %7ld %11.3e %11.3e %11.3e %11.3e %8.2f %9.4f%s%s\n", r->h[i],
            r->steps[i], r->err[VI_Q][i], r->err[VI_P][i], r->err[VI_LAMBDA][i],
            r->energy_err[i], r->newton_per_step[i], r->seconds[i],
            r->status[i] ? "  " : "", r->status[i] ? vi_strerror(r->status[i]) : "");
  }
  vi_fit fe = vi_order_energy_fit(r);
  if (r->measure == VI_MEASURE_ENERGY) {
    print_fit(f, r, "energy", &fe, r->energy_floor);
  }
  for (int x = 0; x < VI_NQUANT; x++) {
    int measured = 0;
    for (int i = 0; i < r->nh; i++) {
      measured |= !isnan(r->err[x][i]);
    }
    if (measured) {
      print_fit(f, r, quant_names[x], &fits[x], r->floor[x]);
    }
  }
  if (r->measure != VI_MEASURE_ENERGY) {
    print_fit(f, r, "energy", &fe, r->energy_floor);
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
  vi_fit fe = vi_order_energy_fit(r);
  for (int x = 0; x <= VI_NQUANT; x++) {
    const char *name = x < VI_NQUANT ? quant_names[x] : "energy";
    const vi_fit *f = x < VI_NQUANT ? &fits[x] : &fe;
    json_object_set_new(err, name, array_of(x < VI_NQUANT ? r->err[x] : r->energy_err, r->nh));
    json_object_set_new(floor, name, json_real(x < VI_NQUANT ? r->floor[x] : r->energy_floor));
    json_object_set_new(orders, name,
                        f->status == VI_FIT_OK         ? json_real(f->order)
                        : f->status == VI_FIT_DIVERGENT ? json_string("d")
                        : f->status == VI_FIT_PLATEAU   ? json_string("plateau")
                                                        : json_null());
    json_t *fo = json_object();
    static const char *const st_names[] = {"ok", "divergent", "plateau", "too-few-points"};
    json_object_set_new(fo, "status", json_string(st_names[f->status]));
    json_object_set_new(fo, "lo", json_integer(f->lo));
    json_object_set_new(fo, "hi", json_integer(f->hi));
    json_object_set_new(fo, "residual", num_or_null(f->residual));
    json_object_set_new(fo, "n_plateau", json_integer(f->n_plateau));
    json_object_set_new(fit, name, fo);
  }
  json_object_set_new(j, "err", err);
  json_object_set_new(j, "energy_err", array_of(r->energy_err, r->nh));
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

int vi_json_write(const json_t *j, const char *path, char *err, size_t errlen) {
  vi_out o;
  if (vi_out_open(&o, path, err, errlen) != 0) {
    return -1;
  }
  if (json_dumpf(j, o.f, JSON_INDENT(2) | JSON_REAL_PRECISION(17)) != 0) {
    snprintf(err, errlen, "cannot write %s: %s", o.d.path, strerror(errno));
    vi_out_abort(&o);
    return -1;
  }
  return vi_out_commit(&o, err, errlen);
}

int vi_study_write(const char *dir, const char *id, const json_t *j, const char *md,
                   const char *csv, char *err, size_t errlen) {
  static const char *const ext[3] = {"json", "md", "csv"};
  const char *text[3] = {NULL, md, csv};
  char path[4096], e[5000];
  int bad = 0;
  for (int i = 0; i < 3; i++) {
    snprintf(path, sizeof path, "%s/%s.%s", dir, id, ext[i]);
    int rc;
    rc = i == 0 ? vi_json_write(j, path, e, sizeof e) : vi_write_text(path, text[i], e, sizeof e);
    if (rc != 0 && !bad) {
      snprintf(err, errlen, "%s", e);
      bad = 1;
    }
  }
  return bad ? -1 : 0;
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
    if (d->count == 1) {
      json_object_set_new(p, d->name, json_real(sys->par[k++]));
    } else {
      json_t *a = json_array();
      for (int c = 0; c < d->count; c++) {
        json_array_append_new(a, json_real(sys->par[k++]));
      }
      json_object_set_new(p, d->name, a);
    }
  }
  return p;
}
