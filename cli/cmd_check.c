/* cmd_check.c: `vistudy check [--system] SYSTEM`: the derivative and
 * consistency checks of a system (vi_system_check), in both precisions
 * unless --precision is given. */
#include "cli.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

/* The lines of one precision's check under its header, printed with the
 * first line: a system that cannot be set up is refused before any
 * output. */
typedef struct check_out {
  const char *system, *precision;
  int started;
} check_out;

static void print_line(void *ctx, const char *line) {
  check_out *o = ctx;
  if (!o->started) {
    printf("# %s, %s precision\n", o->system, o->precision);
    o->started = 1;
  }
  printf("%s\n", line);
}

const char vi_check_help[] =
    "usage: vistudy check [--system] SYSTEM [--set name=v1,v2 ...]\n"
    "                     [--precision double|quad]\n"
    "Checks every derivative the system's tables supply against central finite\n"
    "differences at the initial data and at perturbed points: grad V, Hess V\n"
    "and the kinetic terms of M(q) (mechanical form); Dalpha, the contracted\n"
    "Hessian of alpha, grad H, Hess H (degenerate form); G and sum mu_k Hess g_k\n"
    "(holonomic constraints). Both precisions unless --precision is given.\n"
    "Exit 1 if any check fails.";

int vi_cmd_check(int argc, char **argv) {
  static const struct option opts[] = {{"set", required_argument, NULL, 's'},
                                       {"precision", required_argument, NULL, 'p'},
                                       {"system", required_argument, NULL, 'S'},
                                       {"help", no_argument, NULL, 'h'},
                                       {NULL, 0, NULL, 0}};
  const char *sysopt = NULL;
  const char *set[VI_CLI_MAX_SET];
  char setbuf[8192];
  size_t setused = 0;
  int nset = 0, both = 1, c;
  vi_precision prec = VI_DOUBLE;
  vi_cli_seen seen = {{0}};
  optind = 1;
  while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
    if (vi_cli_once("check", opts, c, optarg, "s", &seen)) {
      return VI_EXIT_USAGE;
    }
    switch (c) {
    case 's':
      if (vi_cli_split_set(optarg, setbuf + setused, sizeof setbuf - setused, set, &nset)) {
        return vi_cli_usage("check", "too many --set values");
      }
      setused += strlen(optarg) + 1;
      break;
    case 'p':
      if (vi_cli_precision("check", optarg, &prec)) {
        return VI_EXIT_USAGE;
      }
      both = 0;
      break;
    case 'S':
      sysopt = optarg;
      break;
    case 'h':
      puts(vi_check_help);
      return VI_EXIT_OK;
    default:
      return vi_cli_usage("check", "invalid option");
    }
  }
  if (!(sysopt ? optind == argc : optind == argc - 1)) {
    return vi_cli_usage("check", "expected exactly one SYSTEM, as --system SYSTEM or "
                                 "positional (see 'vistudy list systems')");
  }
  const char *name = sysopt ? sysopt : argv[optind];
  char err[1024] = "";
  int worst = VI_EXIT_OK;
  for (int p = 0; p < 2; p++) {
    if (!both && p != (int)prec) {
      continue;
    }
    const vi_api *api = vi_api_of((vi_precision)p);
    check_out out = {name, api->name, 0};
    int failed = 0;
    int rc = api->check(name, nset, set, print_line, &out, &failed, err, sizeof err);
    if (rc != VI_OK) {
      if (vi_cli_exit_of(rc, 1) == VI_EXIT_USAGE) {
        return vi_cli_usage("check", err);
      }
      fprintf(stderr, "vistudy check: %s\n", err);
      worst = VI_EXIT_FAIL;
    } else if (failed > 0) {
      fprintf(stderr, "vistudy check: %s (%s): %d derivative check%s failed\n", name,
              api->name, failed, failed == 1 ? "" : "s");
      worst = VI_EXIT_FAIL;
    }
  }
  return worst;
}
