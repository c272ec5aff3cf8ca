/* cmd_run.c: `vistudy run`: one trajectory (vi_api.traj_*) written as CSV
 * with every value at the full precision of the working type, by the rules
 * of outfile.h; a run that fails keeps the nodes computed so far. */
#include "cli.h"
#include "outfile.h"
#include "spec.h"
#include "timing.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Runs that cannot finish (VI_CLI_MAX_STEPS) or would fill the disk are
 * refused unless --force (docs/usage.md, "Outputs"). */
#define RUN_MAX_BYTES (1024.0 * 1024 * 1024)   /* 1 GiB of CSV in a regular file */

typedef struct csv_sink {
  FILE *f;
  const vi_api *api;
} csv_sink;

static int write_csv_row(void *ctx, long k, int ncol, const vi_wide *v) {
  csv_sink *s = ctx;
  char buf[64];
  for (int i = 0; i < ncol; i++) {
    s->api->format_real(buf, sizeof buf, v[i]);
    if (i > 0) {
      fputc(',', s->f);
    }
    fputs(buf, s->f);
  }
  fputc('\n', s->f);
  return ferror(s->f) ? VI_EIO : VI_OK;
}

const char vi_run_help[] =
    "usage: vistudy run --system S [--set name=v1,v2 ...] --method SPEC --h H --T T\n"
    "                   [--precision double|quad]\n"
    "                   [--solver auto|newton|chord|simplified|fixed-point|kinsol] [--lu auto|working|double]\n"
    "                   [--rtol R] [--max-iter K] [--every K] [--force] [--quiet]\n"
    "                   --out FILE|-\n"
    "\n"
    "Integrates from t = 0 to T (a whole multiple of H) and writes the CSV\n"
    "  t,q1..q{nq},p1..pn,lambda1..lambdam,mu1..mu{m_nh},energy,g_norm,gv_norm,\n"
    "  phi_norm,group_defect,momenta\n"
    "with the columns a system has: q in the embedding of a group (nq >= n\n"
    "reals), lambda holonomic and mu nonholonomic multipliers, g_norm =\n"
    "|g(q)|_inf and gv_norm = |G(q) M^-1 p|_inf (holonomic), phi_norm =\n"
    "|A(q) v + a(q)|_inf (nonholonomic), group_defect (a group stored in an\n"
    "embedding), the momentum maps by name; degenerate form:\n"
    "t,q1..qn,p1..pn,energy,alpha_defect with |p - alpha(q)|_inf. Every value\n"
    "at full precision (17 digits double, 36 quad). --method reference writes\n"
    "the reference solution of order studies (exact, or an independent\n"
    "integration) in the same layout.\n"
    "Newton: converged when |dx_i| <= rtol (|x_i| + u_i), u_i = 1 for positions\n"
    "and 1/h^2 for multipliers; default rtol = 100 eps, max-iter 50 per solve.\n"
    "--solver newton: a fresh Jacobian and LU at every iterate; chord: one per\n"
    "solve, at the initial guess; simplified: one Jacobian kept across\n"
    "iterations and steps while the contraction rate stays small (RADAU5);\n"
    "fixed-point (vprk only): no Jacobian, the h -> 0 part of it factored once,\n"
    "extrapolated starts (Hairer's GNI codes);\n"
    "kinsol: SUNDIALS KINSOL, exact Newton, double only; auto: newton in\n"
    "double, the family's choice in quad (docs/usage.md). --lu double factors the\n"
    "Jacobian in double below quad (mixed precision: the residual and the\n"
    "solution stay in quad, to the same rtol); working: in the working precision.\n"
    "A summary goes to stderr unless --quiet.\n"
    "--out: '-' is standard output; a device or FIFO is written through; a\n"
    "regular file is written to a temporary file and renamed into place (a\n"
    "symbolic link is followed); a directory is refused. --every K writes\n"
    "every K-th node and the last. A run of more than 1e8 steps, or one that\n"
    "would write more than 1 GiB to a regular file, is refused unless --force.\n"
    "Systems and method keys: 'vistudy list'.";

/* Integrate and write; the output is open (o), the trajectory prepared. */
static int run_traj(const vi_api *api, vi_traj *tr, const vi_traj_info *info, vi_out *o,
                    const char *fname, const char *htext, const char *Ttext,
                    const vi_cli_common *co, int quiet) {
  FILE *f = o->f;
  for (int i = 0; i < info->ncol; i++) {
    fprintf(f, i ? ",%s" : "%s", info->colnames[i]);
  }
  fputc('\n', f);
  csv_sink sink = {f, api};
  vi_traj_result r;
  char err[1024] = "";
  /* CPU time of the run (the one timing service, as order reports it). */
  double t0 = vi_cpu_clock();
  int rc = api->traj_run(tr, write_csv_row, &sink, &r, err, sizeof err);
  double elapsed = vi_cpu_clock() - t0;
  const long w = r.rows;
  const char *are = w == 1 ? "is" : "are", *s = w == 1 ? "" : "s";
  /* Standard output is flushed, checked and reported by main, as for
   * every command (a flush here would lose its errno). */
  if ((f != stdout && fflush(f) != 0) || ferror(f) || r.sink_status == VI_EIO) {
    if (f != stdout) {
      fprintf(stderr, "vistudy run: write error on %s: %s\n", fname, strerror(errno));
    }
    return VI_EXIT_FAIL;
  }
  if (rc != VI_OK) {
    if (r.failed_step > 0) {
      fprintf(stderr, "vistudy run: %s with %s on %s: %s; the %ld node%s written so far %s "
              "in %s%s\n", err, info->method, info->system, vi_strerror(rc), w, s, are,
              fname, rc > 0 ? "; try another h, a looser --rtol or a larger --max-iter" : "");
    } else {
      fprintf(stderr, "vistudy run: %s; the %ld node%s written so far %s in %s\n", err, w,
              s, are, fname);
    }
    return VI_EXIT_FAIL;
  }
  if (quiet) {
    return VI_EXIT_OK;
  }
  if (strcmp(info->method, "reference") == 0) {
    fprintf(stderr, "vistudy run: reference of %s, %s precision: %s (estimated accuracy "
            "%.1e)\n", info->system, api->name, r.ref_method, r.ref_accuracy);
  } else {
    fprintf(stderr,
            "vistudy run: %s on %s, %s precision, %s solver (LU in %s): %ld steps of h = "
            "%s to T = %s, %d unknowns/step, %.2f Newton iterations per solve (max %ld; %ld "
            "solves, the start-up's included), %.2f Jacobians and %.2f factorizations per "
            "solve, %.3f s of CPU time\n",
            info->method, info->system, api->name, vi_solver_kind_name(r.solver_kind),
            r.solver_lu == VI_LU_DOUBLE ? "double" : api->name, r.steps, htext, Ttext,
            r.unknowns, r.solves ? (double)r.newton_iters / (double)r.solves : 0.0,
            r.newton_iters_max, r.solves,
            r.solves ? (double)r.jevals / (double)r.solves : 0.0,
            r.solves ? (double)r.factorizations / (double)r.solves : 0.0, elapsed);
  }
  return VI_EXIT_OK;
}

int vi_cmd_run(int argc, char **argv) {
  static const struct option opts[] = {VI_CLI_COMMON_LONG_OPTS,
                                       {"h", required_argument, NULL, 'H'},
                                       {"out", required_argument, NULL, 'o'},
                                       {"every", required_argument, NULL, 'e'},
                                       {"force", no_argument, NULL, 'F'},
                                       {"quiet", no_argument, NULL, 'q'},
                                       {"help", no_argument, NULL, 'h'},
                                       {NULL, 0, NULL, 0}};
  vi_cli_common co = {0};
  const char *out = NULL, *htext = NULL;
  char err[VI_PATH_MAX + 2048] = "";
  int c, every = 1, force = 0, quiet = 0;
  vi_cli_seen seen = {{0}};
  optind = 1;
  while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
    if (vi_cli_once("run", opts, c, optarg, "s", &seen)) {
      return VI_EXIT_USAGE;
    }
    int k = vi_cli_common_opt("run", c, optarg, &co);
    if (k < 0) {
      return -k;
    }
    if (k > 0) {
      continue;
    }
    switch (c) {
    case 'H':
      htext = optarg;
      break;
    case 'o':
      out = optarg;
      break;
    case 'e':
      if (vi_parse_int("--every", optarg, 1, 1000000000, &every, err, sizeof err)) {
        return vi_cli_usage("run", err);
      }
      break;
    case 'F':
      force = 1;
      break;
    case 'q':
      quiet = 1;
      break;
    case 'h':
      puts(vi_run_help);
      return VI_EXIT_OK;
    default:
      return vi_cli_usage("run", "invalid option");
    }
  }
  if (optind != argc) {
    snprintf(err, sizeof err, "unexpected argument '%s'", argv[optind]);
    return vi_cli_usage("run", err);
  }
  const char *missing = !co.system ? "--system" : !co.method ? "--method" : !htext ? "--h"
                        : !co.T   ? "--T"       : !out       ? "--out"    : NULL;
  if (missing) {
    snprintf(err, sizeof err, "missing %s", missing);
    return vi_cli_usage("run", err);
  }
  const vi_api *api = vi_api_of(co.prec);
  vi_traj_config tc = {co.system, co.nset, co.set, co.method, 0, 0, every, {0}};
  vi_wide h = 0;
  if (vi_cli_positive("run", api, "step size h", htext, &h) ||
      vi_cli_positive("run", api, "final time T", co.T, &tc.T) ||
      vi_cli_steps("run", api, tc.T, co.T, h, htext, &tc.N) ||
      vi_cli_solver("run", api, &co, &tc.solver)) {
    return VI_EXIT_USAGE;
  }
  if (vi_cli_step_limit("run", "T/h", (double)tc.N, force)) {
    return VI_EXIT_USAGE;
  }
  /* The destination is checked (and its temporary created) before any work
   * and removed again when the run cannot start. */
  vi_out o;
  if (vi_out_open(&o, out, err, sizeof err) != 0) {
    char msg[sizeof err + 16];
    snprintf(msg, sizeof msg, "--out: %s", err);
    return vi_cli_usage("run", msg);
  }
  const char *fname = o.d.kind == VI_DEST_STDOUT ? "standard output" : o.d.path;
  vi_traj *tr = NULL;
  vi_traj_info info;
  int rc = api->traj_open(&tc, &tr, &info, err, sizeof err);
  if (rc != VI_OK) {
    vi_out_abort(&o);
    if (vi_cli_exit_of(rc, 1) == VI_EXIT_USAGE) {
      return vi_cli_usage("run", err);
    }
    fprintf(stderr, "vistudy run: %s\n", err);
    return VI_EXIT_FAIL;
  }
  const double rows = (double)(tc.N / every + 1 + (tc.N % every != 0));
  const double bytes = rows * info.ncol * (api->precision == VI_QUAD ? 44 : 25);
  if (!force && o.d.kind == VI_DEST_FILE && bytes > RUN_MAX_BYTES) {
    double k = ceil(bytes / RUN_MAX_BYTES * (double)every);
    snprintf(err, sizeof err,
             "the run would write about %.3g GB to %s (%.0f nodes), above the limit of "
             "%.3g GB; write every K-th node with --every K (K >= %.0f), or pass --force",
             bytes / 1e9, fname, rows, RUN_MAX_BYTES / 1e9, k);
    api->traj_free(tr);
    vi_out_abort(&o);
    return vi_cli_usage("run", err);
  }
  int st = run_traj(api, tr, &info, &o, fname, htext, co.T, &co, quiet);
  api->traj_free(tr);
  /* A failed run keeps the nodes computed so far: the file is committed,
   * unless the run failed before writing any node. */
  char cerr[VI_PATH_MAX + 256];
  if (o.d.kind == VI_DEST_STDOUT) {
    return st; /* main flushes and checks it */
  }
  if (st != VI_EXIT_OK && o.d.kind == VI_DEST_FILE && ftell(o.f) <= 0) {
    vi_out_abort(&o);
  } else if (vi_out_commit(&o, cerr, sizeof cerr) != 0) {
    if (st == VI_EXIT_OK) {
      fprintf(stderr, "vistudy run: %s\n", cerr);
    }
    st = VI_EXIT_FAIL;
  }
  return st;
}
