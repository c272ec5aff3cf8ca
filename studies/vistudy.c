/* vistudy.c: the command line (design.md): `vistudy list`, `vistudy check`,
 * `vistudy run`. Non-templated: it parses the options with getopt_long and
 * dispatches on --precision to the _d or _q drivers of the library.
 * Exit status 0 on success, 1 on a failed check or run, 2 on bad usage. */
#include "vistudy.h"
#include "spec.h"

#include <getopt.h>
#include <gsl/gsl_errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SET 64

/* Split one --set argument into assignments: "phi0=2.1,omega0=0.7" is two,
 * "q0=1,2,3,4,5,6" one (a comma-separated item that contains '=' starts a
 * new assignment). The pieces are written into buf; returns -1 when there
 * are too many. */
static int split_set(const char *arg, char *buf, size_t buflen, const char **set,
                     int *nset) {
  size_t len = strlen(arg);
  if (len + 1 > buflen) {
    return -1;
  }
  memcpy(buf, arg, len + 1);
  char *start = buf;
  for (char *c = buf; *c; c++) {
    if (*c != ',') {
      continue;
    }
    char *next = c + 1, *eq = strchr(next, '='), *comma = strchr(next, ',');
    if (eq && (!comma || eq < comma)) {
      *c = '\0';
      if (*nset == MAX_SET) {
        return -1;
      }
      set[(*nset)++] = start;
      start = next;
    }
  }
  if (*nset == MAX_SET) {
    return -1;
  }
  set[(*nset)++] = start;
  return 0;
}

static int usage_error(const char *cmd, const char *msg) {
  fprintf(stderr, "vistudy %s: %s\n", cmd, msg);
  fprintf(stderr, "Try 'vistudy %s --help'.\n", cmd);
  return VI_EXIT_USAGE;
}

static void print_main_help(FILE *f) {
  fputs("usage: vistudy COMMAND [OPTIONS]\n"
        "\n"
        "commands:\n"
        "  list [systems|methods]   document every system (parameters, defaults)\n"
        "                           and every method (keys, valid values)\n"
        "  check SYSTEM             verify the system's derivatives against\n"
        "                           finite differences, in both precisions\n"
        "  run                      integrate one trajectory to CSV\n"
        "\n"
        "'vistudy COMMAND --help' describes the options of a command.\n",
        f);
}

/* ---- list ----------------------------------------------------------------- */

static void list_systems(void) {
  printf("systems (override any parameter with --set name=v1,v2,...):\n");
  for (int i = 0; vi_system_types_d[i]; i++) {
    const vi_system_info *in = vi_system_types_d[i]->info;
    printf("\n%s  (n = %d, m = %d; %s)\n  %s\n", in->name, in->n, in->m, in->cite,
           in->summary);
    printf("  invariants: energy");
    for (int k = 0; k < in->n_momenta; k++) {
      printf(", %s", in->momentum_names[k]);
    }
    printf("%s\n", (in->caps & VI_CAP_EXACT) ? "; exact solution available (double)" : "");
    for (const vi_param *p = in->params; p->name; p++) {
      if (p->count > 1) {
        printf("  %-10s %s (%d values; default %s)\n", p->name, p->doc, p->count,
               p->defaults);
      } else {
        printf("  %-10s %s (default %s)\n", p->name, p->doc, p->defaults);
      }
    }
  }
}

static void list_methods(void) {
  printf("methods (spec NAME[:key=value,...]):\n");
  for (int i = 0; vi_method_types_d[i]; i++) {
    const vi_method_type_d *mt = vi_method_types_d[i];
    printf("\n%s  (%s)\n  %s\n", mt->name, mt->cite, mt->summary);
    for (const vi_key_doc *k = mt->keys; k->key; k++) {
      printf("  %-8s %s\n           values: %s; default: %s\n", k->key, k->doc,
             k->values, k->def);
    }
  }
}

static int cmd_list(int argc, char **argv) {
  if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
    puts("usage: vistudy list [systems|methods]");
    return VI_EXIT_OK;
  }
  if (argc > 2) {
    return usage_error("list", "too many arguments");
  }
  const char *what = argc > 1 ? argv[1] : "all";
  int all = strcmp(what, "all") == 0;
  if (!all && strcmp(what, "systems") != 0 && strcmp(what, "methods") != 0) {
    char msg[256];
    snprintf(msg, sizeof msg, "unknown list '%s'; valid: systems, methods", what);
    return usage_error("list", msg);
  }
  if (all || strcmp(what, "systems") == 0) {
    list_systems();
  }
  if (all) {
    putchar('\n');
  }
  if (all || strcmp(what, "methods") == 0) {
    list_methods();
  }
  return VI_EXIT_OK;
}

/* ---- options shared by check and run ---------------------------------------- */

static int parse_precision(const char *cmd, const char *s, vi_precision *p) {
  if (vi_precision_parse(s, p) != 0) {
    char msg[256];
    snprintf(msg, sizeof msg, "invalid --precision '%s'; valid: double, quad", s);
    return usage_error(cmd, msg);
  }
  return 0;
}

/* ---- check ---------------------------------------------------------------- */

static int cmd_check(int argc, char **argv) {
  static const struct option opts[] = {{"set", required_argument, NULL, 's'},
                                       {"precision", required_argument, NULL, 'p'},
                                       {"help", no_argument, NULL, 'h'},
                                       {NULL, 0, NULL, 0}};
  const char *set[MAX_SET];
  char setbuf[8192];
  size_t setused = 0;
  int nset = 0, both = 1, c;
  vi_precision prec = VI_DOUBLE;
  optind = 1;
  while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
    switch (c) {
    case 's':
      if (split_set(optarg, setbuf + setused, sizeof setbuf - setused, set, &nset)) {
        return usage_error("check", "too many --set values");
      }
      setused += strlen(optarg) + 1;
      break;
    case 'p':
      if (parse_precision("check", optarg, &prec)) {
        return VI_EXIT_USAGE;
      }
      both = 0;
      break;
    case 'h':
      puts("usage: vistudy check SYSTEM [--set name=v1,v2 ...] [--precision double|quad]\n"
           "Checks grad V, Hess V, G and sum mu_k Hess g_k against central finite\n"
           "differences at the initial data and at perturbed points; both\n"
           "precisions unless --precision is given. Exit 1 if any check fails.");
      return VI_EXIT_OK;
    default:
      return usage_error("check", "invalid option");
    }
  }
  if (optind != argc - 1) {
    return usage_error("check", "expected exactly one SYSTEM (see 'vistudy list systems')");
  }
  const char *name = argv[optind];
  char err[1024] = "";
  int worst = VI_EXIT_OK;
  for (int p = 0; p < 2; p++) {
    if (!both && p != (int)prec) {
      continue;
    }
    printf("# %s, %s precision\n", name, p ? "quad" : "double");
    int st = p ? vi_check_q(name, nset, set, err, sizeof err)
               : vi_check_d(name, nset, set, err, sizeof err);
    if (st == VI_EXIT_USAGE) {
      return usage_error("check", err);
    }
    if (st != VI_EXIT_OK) {
      fprintf(stderr, "vistudy check: %s\n", err);
      worst = st;
    }
  }
  return worst;
}

/* ---- run ------------------------------------------------------------------ */

static int cmd_run(int argc, char **argv) {
  static const struct option opts[] = {
      {"system", required_argument, NULL, 'S'}, {"set", required_argument, NULL, 's'},
      {"method", required_argument, NULL, 'm'}, {"h", required_argument, NULL, 'H'},
      {"T", required_argument, NULL, 'T'},      {"precision", required_argument, NULL, 'p'},
      {"solver", required_argument, NULL, 'v'}, {"rtol", required_argument, NULL, 'r'},
      {"max-iter", required_argument, NULL, 'i'}, {"out", required_argument, NULL, 'o'},
      {"quiet", no_argument, NULL, 'q'},        {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};
  const char *set[MAX_SET];
  char setbuf[8192];
  size_t setused = 0;
  vi_run_args a = {0};
  a.set = set;
  a.solver = VI_SOLVER_NEWTON;
  vi_precision prec = VI_DOUBLE;
  char err[2048] = "";
  int c;
  optind = 1;
  while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
    switch (c) {
    case 'S':
      a.system = optarg;
      break;
    case 's':
      if (split_set(optarg, setbuf + setused, sizeof setbuf - setused, set, &a.nset)) {
        return usage_error("run", "too many --set values");
      }
      setused += strlen(optarg) + 1;
      break;
    case 'm':
      a.method = optarg;
      break;
    case 'H':
      a.h = optarg;
      break;
    case 'T':
      a.T = optarg;
      break;
    case 'p':
      if (parse_precision("run", optarg, &prec)) {
        return VI_EXIT_USAGE;
      }
      break;
    case 'v':
      if (strcmp(optarg, "newton") == 0) {
        a.solver = VI_SOLVER_NEWTON;
      } else if (strcmp(optarg, "kinsol") == 0) {
        a.solver = VI_SOLVER_KINSOL;
      } else {
        snprintf(err, sizeof err, "invalid --solver '%s'; valid: newton, kinsol", optarg);
        return usage_error("run", err);
      }
      break;
    case 'r':
      a.rtol = optarg;
      break;
    case 'i':
      if (vi_parse_int("--max-iter", optarg, 1, 100000, &a.max_iter, err, sizeof err)) {
        return usage_error("run", err);
      }
      break;
    case 'o':
      a.out = optarg;
      break;
    case 'q':
      a.quiet = 1;
      break;
    case 'h':
      puts("usage: vistudy run --system S [--set name=v1,v2 ...] --method SPEC --h H --T T\n"
           "                   [--precision double|quad] [--solver newton|kinsol]\n"
           "                   [--rtol R] [--max-iter K] [--quiet] --out FILE|-\n"
           "\n"
           "Integrates from t = 0 to T (a whole multiple of H) and writes the CSV\n"
           "  t,q1..qn,p1..pn,lambda1..lambdam,energy,g_norm,gv_norm[,momenta]\n"
           "with every value at full precision (17 digits double, 36 quad);\n"
           "g_norm = |g(q)|_inf, gv_norm = |G(q) M^-1 p|_inf (hidden constraint).\n"
           "Newton: converged when |dx_i| <= rtol (|x_i| + 1), default rtol = 100 eps,\n"
           "max-iter 50. A summary goes to stderr unless --quiet.\n"
           "Systems and method keys: 'vistudy list'.");
      return VI_EXIT_OK;
    default:
      return usage_error("run", "invalid option");
    }
  }
  if (optind != argc) {
    snprintf(err, sizeof err, "unexpected argument '%s'", argv[optind]);
    return usage_error("run", err);
  }
  const char *missing = !a.system ? "--system" : !a.method ? "--method" : !a.h ? "--h"
                        : !a.T   ? "--T"      : !a.out  ? "--out"     : NULL;
  if (missing) {
    snprintf(err, sizeof err, "missing %s", missing);
    return usage_error("run", err);
  }
  int st = prec == VI_QUAD ? vi_run_q(&a, err, sizeof err) : vi_run_d(&a, err, sizeof err);
  if (st == VI_EXIT_USAGE) {
    return usage_error("run", err);
  }
  if (st != VI_EXIT_OK) {
    fprintf(stderr, "vistudy run: %s\n", err);
  }
  return st;
}

int main(int argc, char **argv) {
  /* GSL's default handler aborts the process; the library reports its own
   * statuses instead (process-wide, so set here and not in the library). */
  gsl_set_error_handler_off();
  if (argc < 2) {
    print_main_help(stderr);
    return VI_EXIT_USAGE;
  }
  const char *cmd = argv[1];
  if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
    print_main_help(stdout);
    return VI_EXIT_OK;
  }
  if (strcmp(cmd, "list") == 0) {
    return cmd_list(argc - 1, argv + 1);
  }
  if (strcmp(cmd, "check") == 0) {
    return cmd_check(argc - 1, argv + 1);
  }
  if (strcmp(cmd, "run") == 0) {
    return cmd_run(argc - 1, argv + 1);
  }
  fprintf(stderr, "vistudy: unknown command '%s'; valid: list, check, run\n", cmd);
  return VI_EXIT_USAGE;
}
