/* cmd_order.c: `vistudy order`: an order study (vi_api.order) printed as a
 * table with the fitted orders, and written as JSON with --json. */
#include "cli.h"
#include "progress.h"
#include "outfile.h"
#include "report.h"
#include "spec.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Split the --h list in place: no empty element, no step size twice
 * (compared as numbers), at least two, at most VI_ORDER_MAXH. */
static int parse_h_list(char *list, const char **h, int *nh, char *err, size_t errlen) {
  *nh = 0;
  double val[VI_ORDER_MAXH];
  for (char *tok = list;; tok++) {
    char *comma = strchr(tok, ',');
    if (comma) {
      *comma = '\0';
    }
    if (!*tok) {
      snprintf(err, errlen, "--h: empty step size in the list (element %d); give h1,h2,... or "
               "'auto'", *nh + 1);
      return -1;
    }
    if (*nh == VI_ORDER_MAXH) {
      snprintf(err, errlen, "--h: at most %d step sizes", VI_ORDER_MAXH);
      return -1;
    }
    char *end = NULL;
    double v = strtod(tok, &end);
    for (int i = 0; end && *end == '\0' && i < *nh; i++) {
      if (val[i] == v) {
        snprintf(err, errlen, "--h: step size %s given twice (as '%s' and '%s')", tok, h[i],
                 tok);
        return -1;
      }
    }
    val[*nh] = end && *end == '\0' ? v : NAN;
    h[(*nh)++] = tok;
    if (!comma) {
      break;
    }
    tok = comma;
  }
  if (*nh < 2) {
    snprintf(err, errlen, "--h needs at least two step sizes, or 'auto'");
    return -1;
  }
  return 0;
}

/* Progress on stderr (progress.h): on a terminal every run as it ends; in
 * a log a run's line at most every few seconds. */
static void progress(void *ctx, const vi_order_result *r, int i) {
  vi_progress *p = ctx;
  char line[512];
  if (i == -2) {
    vi_progress_break(p);
    fprintf(stderr, "order study: double precision limits a quantity (its floor); rerunning "
            "in quad\n");
    return;
  }
  if (i < 0) {
    if (p->mode == VI_PROGRESS_TTY) {
      fprintf(stderr, "order study: %s on %s, %s precision, T = %g\n", r->method, r->system,
              r->precision, r->T);
    }
    return;
  }
  snprintf(line, sizeof line, "%s  h = %-12.6g e_q = %-10.3e e_p = %-10.3e e_lambda = %-10.3e %s",
           p->mode == VI_PROGRESS_LOG ? "order study:" : "", r->h[i], r->err[VI_Q][i],
           r->err[VI_P][i], r->err[VI_LAMBDA][i],
           r->status[i] == VI_OK ? "" : vi_strerror(r->status[i]));
  vi_progress_line(p, line);
}

const char vi_order_help[] =
    "usage: vistudy order --system S [--set name=v1,v2 ...] --method SPEC\n"
    "                     [--T T] [--h h1,h2,...|auto] [--precision auto|double|quad]\n"
    "                     [--solver auto|newton|chord|simplified|fixed-point|kinsol] [--lu auto|working|double]\n"
    "                     [--rtol R] [--max-iter K]\n"
    "                     [--measure state|energy [--no-reference]] [--errors-at nodes|final]\n"
    "                     [--lambda-at end|mid]\n"
    "                     [--json FILE] [--force] [--no-progress] [--progress-every S]\n"
    "                     [--cache DIR | --no-cache]\n"
    "\n"
    "Runs the method for each step size h (T a whole multiple of each; default\n"
    "T = 1) and measures e_x = max_k |x_k - x_ref(t_k)|_inf for q, p and lambda\n"
    "(lambda over the nodes k >= 1; the start value lambda_0 apart) and the\n"
    "relative energy error |H_k - H_0| / |H_0| (its root mean square over the\n"
    "nodes; its maximum, man2020 (46)-(47), beside it), and fits the order of each.\n"
    "\n"
    "Verdict: a quantity is ok when four consecutive errors above the floor (100\n"
    "eps x its size, or the reference's accuracy), the ones at the smallest h,\n"
    "lie on a line (rms residual <= 0.05 decades) whose slope has a standard\n"
    "error <= 0.1, every local slope lies within 0.3 of the finest one and\n"
    "they do not move one way by more than 0.15, and the Newton iterations per\n"
    "step do not grow by more than 2x over them; it prints as 'order +-\n"
    "standard error'. Otherwise it is unresolved, with the reason (at the\n"
    "floor, too few errors, not converging 'd', pre-asymptotic, scattered),\n"
    "and no number is printed.\n"
    "\n"
    "--h auto (the default): the first h is half the time scale of the motion\n"
    "(the time in which q moves by its size, from its initial velocity and\n"
    "acceleration), at most T/8; four runs halve h; then, per quantity without\n"
    "an ok verdict: halve h further while its finest error is above the floor\n"
    "and has not grown over the last two halvings (round-off amplified by 1/h);\n"
    "at the floor with fewer than four errors above it, add coarser runs; at the\n"
    "floor with four or more, add a run between the two finest (up to 2^18\n"
    "steps in double, 2^15 in quad). --measure energy makes the energy error\n"
    "the study's measure; --no-reference skips the\n"
    "reference (the energy error needs none; no q, p, lambda errors then).\n"
    "--errors-at final measures q, p, lambda at t = T only, |x_N - x_ref(T)|\n"
    "(tyranowski2014's measure); nodes (the default): the maximum over t_k.\n"
    "--lambda-at mid compares the multipliers of node k with the reference at\n"
    "t_k - h/2, the middle of the step that produced them (betsch-ggl's EM:\n"
    "its lambda^{n+1} approximates lambda(t^{n+1/2})); end (the default): t_k.\n"
    "--precision auto (the default): double, rerun in quad when a quantity has\n"
    "fewer than four errors above the floor of double; said in the output.\n"
    "The reference is the exact solution where the system has one, else an\n"
    "independent integration of the form's equations (cached in DIR, default\n"
    "$VI_CACHE_DIR or ~/.cache/vistudy).\n"
    "A study whose explicit --h list sums to more than 1e8 steps (T/h over the\n"
    "list) is refused unless --force, as a run of more than 1e8 steps is.\n"
    "Progress (each run's errors) goes to standard error: every run on a\n"
    "terminal, a line at most every S seconds (default 5) in a log;\n"
    "--no-progress silences it.\n"
    "Exit 0 when the study ran, 1 when it could not, 2 on bad usage.";

int vi_cmd_order(int argc, char **argv) {
  static const struct option opts[] = {VI_CLI_COMMON_LONG_OPTS,
                                       {"h", required_argument, NULL, 'H'},
                                       {"json", required_argument, NULL, 'j'},
                                       {"measure", required_argument, NULL, 'M'},
                                       {"errors-at", required_argument, NULL, 'E'},
                                       {"lambda-at", required_argument, NULL, 'L'},
                                       {"cache", required_argument, NULL, 'c'},
                                       {"no-cache", no_argument, NULL, 'n'},
                                       {"no-reference", no_argument, NULL, 'N'},
                                       {"force", no_argument, NULL, 'F'},
                                       {"no-progress", no_argument, NULL, 'Q'},
                                       {"progress-every", required_argument, NULL, 'G'},
                                       {"help", no_argument, NULL, 'h'},
                                       {NULL, 0, NULL, 0}};
  vi_cli_common co = {0};
  co.allow_auto = 1;
  co.prec_auto = 1; /* the default of order */
  char hbuf[4096];
  const char *htext[VI_ORDER_MAXH];
  int nh = 0;
  vi_order_config a = {0};
  char cachebuf[VI_PATH_MAX];
  a.cache_dir = vi_cli_default_cache(cachebuf, sizeof cachebuf);
  vi_progress prog;
  vi_progress_begin(&prog, vi_progress_mode_auto(0), VI_PROGRESS_EVERY, "order study", "run", 0);
  a.progress = progress;
  a.progress_ctx = &prog;
  const char *json_path = NULL;
  char err[2048] = "";
  int c, cache_given = 0, force = 0;
  vi_cli_seen seen = {{0}};
  optind = 1;
  while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
    if (vi_cli_once("order", opts, c, optarg, "s", &seen)) {
      return VI_EXIT_USAGE;
    }
    int k = vi_cli_common_opt("order", c, optarg, &co);
    if (k < 0) {
      return -k;
    }
    if (k > 0) {
      continue;
    }
    switch (c) {
    case 'H':
      if (strcmp(optarg, "auto") == 0) {
        nh = 0;
        break;
      }
      if (strlen(optarg) >= sizeof hbuf) {
        return vi_cli_usage("order", "--h list too long");
      }
      strcpy(hbuf, optarg);
      if (parse_h_list(hbuf, htext, &nh, err, sizeof err) != 0) {
        return vi_cli_usage("order", err);
      }
      break;
    case 'Q':
      prog.mode = VI_PROGRESS_NONE;
      break;
    case 'G':
      if (vi_cli_progress_every("order", optarg, &prog.every)) {
        return VI_EXIT_USAGE;
      }
      break;
    case 'j':
      json_path = optarg;
      break;
    case 'L': {
      static const char *const at[] = {"end", "mid", NULL};
      if (vi_parse_choice("--lambda-at", optarg, at, &a.lambda_mid, err, sizeof err)) {
        return vi_cli_usage("order", err);
      }
      break;
    }
    case 'E': {
      static const char *const where[] = {"nodes", "final", NULL};
      if (vi_parse_choice("--errors-at", optarg, where, &a.at_final, err, sizeof err)) {
        return vi_cli_usage("order", err);
      }
      break;
    }
    case 'M': {
      static const char *const measures[] = {"state", "energy", NULL};
      if (vi_parse_choice("--measure", optarg, measures, &a.measure, err, sizeof err)) {
        return vi_cli_usage("order", err);
      }
      break;
    }
    case 'c':
      a.cache_dir = optarg;
      cache_given = 1;
      break;
    case 'n':
      a.cache_dir = NULL;
      break;
    case 'N':
      a.energy_only = 1;
      break;
    case 'F':
      force = 1;
      break;
    case 'h':
      puts(vi_order_help);
      return VI_EXIT_OK;
    default:
      return vi_cli_usage("order", "invalid option");
    }
  }
  if (optind != argc) {
    snprintf(err, sizeof err, "unexpected argument '%s'", argv[optind]);
    return vi_cli_usage("order", err);
  }
  if (!co.system || !co.method) {
    return vi_cli_usage("order", !co.system ? "missing --system" : "missing --method");
  }
  if (a.energy_only && a.measure != VI_MEASURE_ENERGY) {
    return vi_cli_usage("order", "--no-reference measures the energy error only: give it with "
                                 "--measure energy");
  }
  /* Numbers are parsed in quad when the study may run in quad: exact in
   * both precisions. */
  const vi_api *api = vi_api_of(co.prec_auto ? VI_QUAD : co.prec);
  if (co.prec_auto && co.solver == VI_SOLVER_KINSOL) {
    return vi_cli_usage("order", "--solver kinsol works in double precision only; give "
                                 "--precision double with it (the default, auto, may switch "
                                 "to quad)");
  }
  a.system = co.system;
  a.nset = co.nset;
  a.set = co.set;
  a.method = co.method;
  a.T = 1;
  a.clock = vi_cpu_clock;
  const char *Ttext = co.T ? co.T : "1";
  if ((co.T && vi_cli_positive("order", api, "final time T", co.T, &a.T)) ||
      vi_cli_solver("order", api, &co, &a.solver)) {
    return VI_EXIT_USAGE;
  }
  double steps = 0;
  for (int i = 0; i < nh; i++) {
    vi_wide h = 0;
    if (vi_cli_positive("order", api, "step size h", htext[i], &h) ||
        vi_cli_steps("order", api, a.T, Ttext, h, htext[i], &a.N[i])) {
      return VI_EXIT_USAGE;
    }
    steps += (double)a.N[i];
  }
  if (vi_cli_step_limit("order", "T/h summed over the --h list", steps, force)) {
    return VI_EXIT_USAGE;
  }
  a.nN = nh;
  /* Destinations before the work: the JSON file, and the reference cache. */
  if (json_path) {
    vi_dest d;
    if (vi_dest_check(json_path, &d, err, sizeof err) != 0) {
      char msg[sizeof err + 16];
      snprintf(msg, sizeof msg, "--json: %s", err);
      return vi_cli_usage("order", msg);
    }
  }
  if (vi_cli_prepare_cache("order", &a.cache_dir, cache_given) != 0) {
    return VI_EXIT_USAGE;
  }
  vi_order_result *res = calloc(1, sizeof *res);
  if (!res) {
    fprintf(stderr, "vistudy order: out of memory\n");
    return VI_EXIT_FAIL;
  }
  int rc = vi_order_run(&a, co.prec_auto ? VI_PRECISION_AUTO : (int)co.prec, res, err,
                        sizeof err);
  if (rc != VI_OK) {
    int st = vi_cli_exit_of(rc, !res->started);
    free(res);
    if (st == VI_EXIT_USAGE) {
      return vi_cli_usage("order", err);
    }
    fprintf(stderr, "vistudy order: %s\n", err);
    return st;
  }
  if (res->note[0]) {
    fprintf(stderr, "vistudy order: warning: %s\n", res->note);
  }
  vi_fit fits[VI_NQUANT];
  vi_order_fits(res, fits);
  vi_order_print(stdout, res, fits);
  int st = VI_EXIT_OK;
  if (json_path) {
    json_t *j = vi_order_json(res, fits);
    if (vi_json_write(j, json_path, err, sizeof err) != 0) {
      fprintf(stderr, "vistudy order: %s\n", err);
      st = VI_EXIT_FAIL;
    }
    json_decref(j);
  }
  free(res);
  return st;
}
