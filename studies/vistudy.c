/* vistudy.c: the command line (design.md): `vistudy list`, `vistudy check`,
 * `vistudy run`. Non-templated: it parses the options with getopt_long and
 * dispatches on --precision to the _d or _q drivers of the library.
 * Exit status 0 on success, 1 on a failed check or run, 2 on bad usage. */
#include "machine.h"
#include "outfile.h"
#include "report.h"
#include "reproduce.h"
#include "spec.h"
#include "vistudy.h"

#include <getopt.h>
#include <math.h>
#include <gsl/gsl_errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
        "  list [systems|methods|studies]  document every system (parameters,\n"
        "                           defaults), method (keys, valid values) and study\n"
        "  check [--system] SYSTEM  verify the system's derivatives against\n"
        "                           finite differences, in both precisions\n"
        "  run                      integrate one trajectory to CSV\n"
        "  order                    order study: global errors of q, p, lambda for a\n"
        "                           list of step sizes against a reference, fitted orders\n"
        "  reproduce ID|--all|--list  regenerate a paper's table, compare cell by cell\n"
        "\n"
        "'vistudy COMMAND --help' (or -h) describes the options of a command;\n"
        "'vistudy --version' prints the version.\n",
        f);
}

/* ---- list ----------------------------------------------------------------- */

static void list_systems(void) {
  printf("systems (override any parameter with --set name=v1,v2,...):\n");
  for (int i = 0; vi_system_types_d[i]; i++) {
    const vi_system_info *in = vi_system_types_d[i]->info;
    char nh[32] = "";
    if (in->m_nh > 0) {
      snprintf(nh, sizeof nh, ", m_nh = %d", in->m_nh);
    }
    printf("\n%s  (%s form, n = %d, m = %d%s; %s)\n  %s\n", in->name,
           vi_type_form_d(vi_system_types_d[i]), in->n, in->m, nh, in->cite, in->summary);
    printf("  invariants: energy");
    for (int k = 0; k < in->n_momenta; k++) {
      printf(", %s", in->momentum_names[k]);
    }
    printf("%s%s\n", vi_type_has_exact_d(vi_system_types_d[i]) ? "; exact solution available" : "",
           vi_type_config_mass_d(vi_system_types_d[i]) ? "; mass matrix depends on q" : "");
    for (const vi_param *p = in->params; p->name; p++) {
      char dom[32] = "";
      if (p->domain != VI_PARAM_ANY) {
        snprintf(dom, sizeof dom, "; %s %s", p->count > 1 ? "each" : "must be",
                 vi_param_domain_text(p->domain));
      }
      if (p->count > 1) {
        printf("  %-10s %s (%d values; default %s%s)\n", p->name, p->doc, p->count,
               p->defaults, dom);
      } else {
        printf("  %-10s %s (default %s%s)\n", p->name, p->doc, p->defaults, dom);
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
    puts("usage: vistudy list [systems|methods|studies]\n"
         "Without an argument: systems and methods.");
    return VI_EXIT_OK;
  }
  if (argc > 2) {
    return usage_error("list", "too many arguments");
  }
  const char *what = argc > 1 ? argv[1] : "all";
  int all = strcmp(what, "all") == 0;
  if (strcmp(what, "studies") == 0) {
    return vi_reproduce_list(stdout);
  }
  if (!all && strcmp(what, "systems") != 0 && strcmp(what, "methods") != 0) {
    char msg[256];
    snprintf(msg, sizeof msg, "unknown list '%s'; valid: systems, methods, studies", what);
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
                                       {"system", required_argument, NULL, 'S'},
                                       {"help", no_argument, NULL, 'h'},
                                       {NULL, 0, NULL, 0}};
  const char *sysopt = NULL;
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
    case 'S':
      sysopt = optarg;
      break;
    case 'h':
      puts("usage: vistudy check [--system] SYSTEM [--set name=v1,v2 ...]\n"
           "                     [--precision double|quad]\n"
           "Checks every derivative the system's tables supply against central finite\n"
           "differences at the initial data and at perturbed points: grad V, Hess V\n"
           "and the kinetic terms of M(q) (mechanical form); Dalpha, the contracted\n"
           "Hessian of alpha, grad H, Hess H (degenerate form); G and sum mu_k Hess g_k\n"
           "(holonomic constraints). Both precisions unless --precision is given.\n"
           "Exit 1 if any check fails.");
      return VI_EXIT_OK;
    default:
      return usage_error("check", "invalid option");
    }
  }
  if (!(sysopt ? optind == argc : optind == argc - 1)) {
    return usage_error("check", "expected exactly one SYSTEM, as --system SYSTEM or positional "
                                "(see 'vistudy list systems')");
  }
  const char *name = sysopt ? sysopt : argv[optind];
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

/* Options that `run` and `order` share: --system, --set, --method, --T,
 * --precision, --solver, --rtol, --max-iter. */
typedef struct common_opts {
  vi_common_args a; /* a.set points into set[] */
  const char *set[MAX_SET];
  char setbuf[8192];
  size_t setused;
  vi_precision prec;
} common_opts;

#define COMMON_LONG_OPTS                                                      \
  {"system", required_argument, NULL, 'S'}, {"set", required_argument, NULL, 's'},   \
      {"method", required_argument, NULL, 'm'}, {"T", required_argument, NULL, 'T'},  \
      {"precision", required_argument, NULL, 'p'},                                  \
      {"solver", required_argument, NULL, 'v'}, {"rtol", required_argument, NULL, 'r'}, \
      {"max-iter", required_argument, NULL, 'i'}

/* 1 when c was a common option (stored), 0 when it is not one, or
 * VI_EXIT_USAGE (as -VI_EXIT_USAGE) after printing the usage error. */
static int common_opt(const char *cmd, int c, const char *arg, common_opts *co) {
  char err[512];
  switch (c) {
  case 'S':
    co->a.system = arg;
    return 1;
  case 's':
    if (split_set(arg, co->setbuf + co->setused, sizeof co->setbuf - co->setused, co->set,
                  &co->a.nset)) {
      return -usage_error(cmd, "too many --set values");
    }
    co->setused += strlen(arg) + 1;
    return 1;
  case 'm':
    co->a.method = arg;
    return 1;
  case 'T':
    co->a.T = arg;
    return 1;
  case 'p':
    return parse_precision(cmd, arg, &co->prec) ? -VI_EXIT_USAGE : 1;
  case 'v':
    if (strcmp(arg, "newton") == 0) {
      co->a.solver = VI_SOLVER_NEWTON;
    } else if (strcmp(arg, "kinsol") == 0) {
      co->a.solver = VI_SOLVER_KINSOL;
    } else {
      snprintf(err, sizeof err, "invalid --solver '%s'; valid: newton, kinsol", arg);
      return -usage_error(cmd, err);
    }
    return 1;
  case 'r':
    co->a.rtol = arg;
    return 1;
  case 'i':
    if (vi_parse_int("--max-iter", arg, 1, 100000, &co->a.max_iter, err, sizeof err)) {
      return -usage_error(cmd, err);
    }
    return 1;
  default:
    return 0;
  }
}

/* ---- run ------------------------------------------------------------------ */

static int cmd_run(int argc, char **argv) {
  static const struct option opts[] = {COMMON_LONG_OPTS,
                                       {"h", required_argument, NULL, 'H'},
                                       {"out", required_argument, NULL, 'o'},
                                       {"every", required_argument, NULL, 'e'},
                                       {"force", no_argument, NULL, 'F'},
                                       {"quiet", no_argument, NULL, 'q'},
                                       {"help", no_argument, NULL, 'h'},
                                       {NULL, 0, NULL, 0}};
  common_opts co = {0};
  co.a.solver = VI_SOLVER_NEWTON;
  vi_run_args a = {0};
  const char *out = NULL;
  char err[2048] = "";
  int c, every = 1;
  optind = 1;
  while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
    int k = common_opt("run", c, optarg, &co);
    if (k < 0) {
      return -k;
    }
    if (k > 0) {
      continue;
    }
    switch (c) {
    case 'H':
      a.h = optarg;
      break;
    case 'o':
      out = optarg;
      break;
    case 'e':
      if (vi_parse_int("--every", optarg, 1, 1000000000, &every, err, sizeof err)) {
        return usage_error("run", err);
      }
      break;
    case 'F':
      a.force = 1;
      break;
    case 'q':
      a.quiet = 1;
      break;
    case 'h':
      puts("usage: vistudy run --system S [--set name=v1,v2 ...] --method SPEC --h H --T T\n"
           "                   [--precision double|quad] [--solver newton|kinsol]\n"
           "                   [--rtol R] [--max-iter K] [--every K] [--force] [--quiet]\n"
           "                   --out FILE|-\n"
           "\n"
           "Integrates from t = 0 to T (a whole multiple of H) and writes the CSV\n"
           "  t,q1..qn,p1..pn,lambda1..lambdam,energy,g_norm,gv_norm[,momenta]\n"
           "(degenerate form: t,q1..qn,p1..pn,energy,alpha_defect with the defect\n"
           "|p - alpha(q)|_inf). --method reference writes the reference solution of\n"
           "order studies (exact, or an independent integration) in the same layout.\n"
           "with every value at full precision (17 digits double, 36 quad);\n"
           "g_norm = |g(q)|_inf, gv_norm = |G(q) M^-1 p|_inf (hidden constraint).\n"
           "Newton: converged when |dx_i| <= rtol (|x_i| + u_i), u_i = 1 for positions\n"
           "and 1/h^2 for multipliers; default rtol = 100 eps, max-iter 50 per solve.\n"
           "A summary goes to stderr unless --quiet.\n"
           "--out: '-' is standard output; a device or FIFO is written through; a\n"
           "regular file is written to a temporary file and renamed into place (a\n"
           "symbolic link is followed); a directory is refused. --every K writes\n"
           "every K-th node and the last. A run of more than 1e8 steps, or one that\n"
           "would write more than 1 GiB to a regular file, is refused unless --force.\n"
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
  a.c = co.a;
  a.c.set = co.set;
  vi_precision prec = co.prec;
  const char *missing = !a.c.system ? "--system" : !a.c.method ? "--method" : !a.h ? "--h"
                        : !a.c.T   ? "--T"        : !out      ? "--out"    : NULL;
  if (missing) {
    snprintf(err, sizeof err, "missing %s", missing);
    return usage_error("run", err);
  }
  /* The destination is checked (and its temporary created) before any work;
   * a usage error found by the driver removes it again. */
  vi_out o;
  if (vi_out_open(&o, out, err, sizeof err) != 0) {
    char msg[sizeof err + 16];
    snprintf(msg, sizeof msg, "--out: %s", err);
    return usage_error("run", msg);
  }
  a.out = o.f;
  a.out_name = o.d.kind == VI_DEST_STDOUT ? "standard output" : o.d.path;
  a.out_is_file = o.d.kind == VI_DEST_FILE;
  a.every = every;
  int st = prec == VI_QUAD ? vi_run_q(&a, err, sizeof err) : vi_run_d(&a, err, sizeof err);
  if (st == VI_EXIT_USAGE) {
    vi_out_abort(&o);
    return usage_error("run", err);
  }
  /* A failed run keeps the nodes computed so far: the file is committed,
   * unless the run failed before writing anything. */
  char cerr[VI_PATH_MAX + 256];
  if (st != VI_EXIT_OK && err[0]) {
    fprintf(stderr, "vistudy run: %s\n", err);
  }
  if (st != VI_EXIT_OK && o.d.kind == VI_DEST_FILE && ftell(o.f) == 0) {
    vi_out_abort(&o);
  } else if (vi_out_commit(&o, cerr, sizeof cerr) != 0) {
    /* A write error the run already reported is not repeated. */
    if (!(st != VI_EXIT_OK && strstr(err, "write error") != NULL)) {
      fprintf(stderr, "vistudy run: %s\n", cerr);
    }
    st = VI_EXIT_FAIL;
  }
  return st;
}

/* ---- order ---------------------------------------------------------------- */

/* Default cache of reference solutions: $VI_CACHE_DIR, else the user's
 * cache directory ($XDG_CACHE_HOME/vistudy, else ~/.cache/vistudy), never
 * the current directory; NULL (no cache) when none is known. */
static const char *default_cache(char *buf, size_t len) {
  const char *d = getenv("VI_CACHE_DIR");
  if (d && *d) {
    return d;
  }
  const char *x = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
  if (x && *x == '/') {
    snprintf(buf, len, "%s/vistudy", x);
  } else if (home && *home == '/') {
    snprintf(buf, len, "%s/.cache/vistudy", home);
  } else {
    return NULL;
  }
  return buf;
}

/* The reference cache before any work: a directory named with --cache
 * must be usable (usage error otherwise); the default one is dropped with a
 * warning when it cannot be made. 0, or -1 after the usage error. */
static int prepare_cache(const char *cmd, const char **dir, int given) {
  char err[VI_PATH_MAX + 256];
  if (*dir == NULL || vi_dir_prepare(*dir, 1, err, sizeof err) == 0) {
    return 0;
  }
  if (given) {
    char msg[sizeof err + 16];
    snprintf(msg, sizeof msg, "--cache: %s", err);
    usage_error(cmd, msg);
    return -1;
  }
  fprintf(stderr, "vistudy %s: warning: no reference cache: %s\n", cmd, err);
  *dir = NULL;
  return 0;
}

/* Split the --h list in place: no empty element, no step size twice
 * (compared as numbers), at least two, at most VI_ORDER_MAXH. */
static int parse_h_list(char *list, vi_order_args *a, char *err, size_t errlen) {
  a->nh = 0;
  double val[VI_ORDER_MAXH];
  for (char *tok = list;; tok++) {
    char *comma = strchr(tok, ',');
    if (comma) {
      *comma = '\0';
    }
    if (!*tok) {
      snprintf(err, errlen, "--h: empty step size in the list (element %d); give h1,h2,... or "
               "'auto'", a->nh + 1);
      return -1;
    }
    if (a->nh == VI_ORDER_MAXH) {
      snprintf(err, errlen, "--h: at most %d step sizes", VI_ORDER_MAXH);
      return -1;
    }
    char *end = NULL;
    double v = strtod(tok, &end);
    for (int i = 0; end && *end == '\0' && i < a->nh; i++) {
      if (val[i] == v) {
        snprintf(err, errlen, "--h: step size %s given twice (as '%s' and '%s')", tok,
                 a->h[i], tok);
        return -1;
      }
    }
    val[a->nh] = end && *end == '\0' ? v : NAN;
    a->h[a->nh++] = tok;
    if (!comma) {
      break;
    }
    tok = comma;
  }
  if (a->nh < 2) {
    snprintf(err, errlen, "--h needs at least two step sizes, or 'auto'");
    return -1;
  }
  return 0;
}

static int cmd_order(int argc, char **argv) {
  static const struct option opts[] = {COMMON_LONG_OPTS,
                                       {"h", required_argument, NULL, 'H'},
                                       {"json", required_argument, NULL, 'j'},
                                       {"measure", required_argument, NULL, 'M'},
                                       {"cache", required_argument, NULL, 'c'},
                                       {"no-cache", no_argument, NULL, 'n'},
                                       {"help", no_argument, NULL, 'h'},
                                       {NULL, 0, NULL, 0}};
  common_opts co = {0};
  co.a.solver = VI_SOLVER_NEWTON;
  char hbuf[4096];
  vi_order_args a = {0};
  char cachebuf[VI_PATH_MAX];
  a.cache_dir = default_cache(cachebuf, sizeof cachebuf);
  a.progress = isatty(2);
  const char *json_path = NULL;
  char err[2048] = "";
  int c, cache_given = 0;
  optind = 1;
  while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
    int k = common_opt("order", c, optarg, &co);
    if (k < 0) {
      return -k;
    }
    if (k > 0) {
      continue;
    }
    switch (c) {
    case 'H':
      if (strcmp(optarg, "auto") == 0) {
        a.nh = 0;
        break;
      }
      if (strlen(optarg) >= sizeof hbuf) {
        return usage_error("order", "--h list too long");
      }
      strcpy(hbuf, optarg);
      if (parse_h_list(hbuf, &a, err, sizeof err) != 0) {
        return usage_error("order", err);
      }
      break;
    case 'j':
      json_path = optarg;
      break;
    case 'M': {
      static const char *const measures[] = {"state", "energy", NULL};
      if (vi_parse_choice("--measure", optarg, measures, &a.measure, err, sizeof err)) {
        return usage_error("order", err);
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
    case 'h':
      puts("usage: vistudy order --system S [--set name=v1,v2 ...] --method SPEC\n"
           "                     [--T T] [--h h1,h2,...|auto] [--precision double|quad]\n"
           "                     [--solver newton|kinsol] [--rtol R] [--max-iter K]\n"
           "                     [--measure state|energy] [--json FILE]\n"
           "                     [--cache DIR | --no-cache]\n"
           "\n"
           "Runs the method for each step size h (T a whole multiple of each; default\n"
           "T = 1, --h auto: h = T/N with N doubling from T/0.1 while the q error is\n"
           "above the round-off floor, plus coarser steps until four q errors are) and\n"
           "measures e_x = max_k |x_k - x_ref(t_k)|_inf for q, p, lambda and the\n"
           "relative energy error max_k |H_k - H_0| / |H_0| (man2020 (46)-(47)), and\n"
           "fits the order of each. --measure energy makes the energy error the\n"
           "study's measure: it drives --h auto (N then grows by 3/2 and stops once\n"
           "four errors lie on a line) and is printed first. The reference is the\n"
           "exact solution where the system has one, else an independent integration\n"
           "of the index-1 form (cached in DIR, default $VI_CACHE_DIR or\n"
           "~/.cache/vistudy). Orders are\n"
           "least-squares slopes over the asymptotic range; 'd' marks an error that\n"
           "does not decrease, 'plateau' errors at the round-off/reference floor.\n"
           "Exit 0 when the study ran, 1 when it could not, 2 on bad usage.");
      return VI_EXIT_OK;
    default:
      return usage_error("order", "invalid option");
    }
  }
  if (optind != argc) {
    snprintf(err, sizeof err, "unexpected argument '%s'", argv[optind]);
    return usage_error("order", err);
  }
  a.c = co.a;
  a.c.set = co.set;
  vi_precision prec = co.prec;
  if (!a.c.system || !a.c.method) {
    return usage_error("order", !a.c.system ? "missing --system" : "missing --method");
  }
  /* Destinations before the work: the JSON file, and the reference cache
   * (one named with --cache must work; the default one is dropped with a
   * warning when it cannot be made). */
  if (json_path) {
    vi_dest d;
    if (vi_dest_check(json_path, &d, err, sizeof err) != 0) {
      char msg[sizeof err + 16];
      snprintf(msg, sizeof msg, "--json: %s", err);
      return usage_error("order", msg);
    }
  }
  if (prepare_cache("order", &a.cache_dir, cache_given) != 0) {
    return VI_EXIT_USAGE;
  }
  vi_order_result *res = calloc(1, sizeof *res);
  if (!res) {
    fprintf(stderr, "vistudy order: out of memory\n");
    return VI_EXIT_FAIL;
  }
  int st = prec == VI_QUAD ? vi_order_q(&a, res, err, sizeof err)
                           : vi_order_d(&a, res, err, sizeof err);
  if (st != VI_EXIT_OK) {
    free(res);
    if (st == VI_EXIT_USAGE) {
      return usage_error("order", err);
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

/* ---- reproduce ------------------------------------------------------------ */

static int cmd_reproduce(int argc, char **argv) {
  static const struct option opts[] = {
      {"all", no_argument, NULL, 'a'},          {"list", no_argument, NULL, 'l'},
      {"fresh", no_argument, NULL, 'f'},        {"strict", no_argument, NULL, 's'},
      {"published", required_argument, NULL, 'P'}, {"results", required_argument, NULL, 'R'},
      {"cache", required_argument, NULL, 'c'},  {"no-cache", no_argument, NULL, 'n'},
      {"max-cells", required_argument, NULL, 'm'}, {"help", no_argument, NULL, 'h'},
      {"quick", no_argument, NULL, 'q'},        {"skip", required_argument, NULL, 'k'},
      {NULL, 0, NULL, 0}};
  char pubbuf[VI_PATH_MAX], resbuf[VI_PATH_MAX + 16], cachebuf[VI_PATH_MAX];
  reproduce_opts o = {.published_dir = vi_published_dir(pubbuf, sizeof pubbuf),
                      .results_dir = "results",
                      .cache_dir = default_cache(cachebuf, sizeof cachebuf),
                      .progress = isatty(2)};
  int all = 0, list = 0, c, cache_given = 0;
  char err[VI_PATH_MAX + 512];
  optind = 1;
  while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
    switch (c) {
    case 'a':
      all = 1;
      break;
    case 'l':
      list = 1;
      break;
    case 'f':
      o.fresh = 1;
      break;
    case 's':
      o.strict = 1;
      break;
    case 'P':
      o.published_dir = optarg;
      break;
    case 'R':
      o.results_dir = optarg;
      break;
    case 'c':
      o.cache_dir = optarg;
      cache_given = 1;
      break;
    case 'n':
      o.cache_dir = NULL;
      break;
    case 'q':
      o.quick = 1;
      break;
    case 'k':
      o.skip = optarg;
      break;
    case 'm':
      if (vi_parse_int("--max-cells", optarg, 1, 100000, &o.max_cells, err, sizeof err)) {
        return usage_error("reproduce", err);
      }
      break;
    case 'h':
      puts("usage: vistudy reproduce ID|--all|--list [--fresh] [--strict] [--quick]\n"
           "                         [--published DIR] [--results DIR] [--cache DIR|--no-cache]\n"
           "                         [--max-cells N] [--skip ID,...]\n"
           "\n"
           "Regenerates a paper table or figure (see --list). A table study writes\n"
           "results/ID.{md,csv,json}, compares every cell with the published values\n"
           "(DIR, default $VI_PUBLISHED_DIR or ../shared/published) and prints\n"
           "'matched N/M cells' and every mismatch. A figure study also draws\n"
           "results/ID.{svg,png} with gnuplot (script kept as results/ID.gp) and\n"
           "checks the claims the paper's text makes about the figure.\n"
           "An interrupted run resumes from results/ID.partial.json unless --fresh;\n"
           "a stored cell is used only when the same build of vistudy computed it for\n"
           "the same configuration, and every verdict is recomputed against the\n"
           "published values as they are now.\n"
           "--max-cells N runs only the first N rows of a table; --quick runs a\n"
           "figure on a reduced grid (tests); both are reduced runs and write to\n"
           "DIR/quick/ (DIR: --results, default results), never over the full\n"
           "results. --skip leaves studies out of --all.\n"
           "Every destination is checked before any work: a results directory that\n"
           "cannot be created or written, or a result name that is a directory, is\n"
           "refused (exit 2).\n"
           "Exit 0 when the study ran; with --strict, 1 on any mismatch or claim\n"
           "that does not hold.");
      return VI_EXIT_OK;
    default:
      return usage_error("reproduce", "invalid option");
    }
  }
  if (list) {
    return vi_reproduce_list(stdout);
  }
  if (all == (optind < argc) || argc - optind > 1) {
    return usage_error("reproduce", "give exactly one study ID, or --all (see --list)");
  }
  int selected[64];
  if (vi_reproduce_nstudies() > 64) {
    return usage_error("reproduce", "too many studies (a bug)");
  }
  if (o.skip && !all) {
    return usage_error("reproduce", "--skip goes with --all");
  }
  if (vi_reproduce_select(all ? NULL : argv[optind], o.skip, selected, err, sizeof err) != 0) {
    return usage_error("reproduce", err);
  }
  /* Reduced runs never overwrite the full results: they go to DIR/quick. */
  if (o.quick || o.max_cells > 0) {
    if (vi_dir_prepare(o.results_dir, 0, err, sizeof err) != 0) {
      return usage_error("reproduce", err);
    }
    snprintf(resbuf, sizeof resbuf, "%s/quick", o.results_dir);
    o.results_dir = resbuf;
  }
  if (vi_reproduce_check(selected, &o, err, sizeof err) != 0) {
    return usage_error("reproduce", err);
  }
  if (prepare_cache("reproduce", &o.cache_dir, cache_given) != 0) {
    return VI_EXIT_USAGE;
  }
  return vi_reproduce(selected, &o);
}

int main(int argc, char **argv) {
  /* GSL's default handler aborts the process; the library reports its own
   * statuses instead (process-wide, so set here and not in the library). */
  gsl_set_error_handler_off();
  vi_out_cleanup_on_signals();
  if (argc < 2) {
    print_main_help(stderr);
    return VI_EXIT_USAGE;
  }
  const char *cmd = argv[1];
  if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
    print_main_help(stdout);
    return VI_EXIT_OK;
  }
  if (strcmp(cmd, "--version") == 0) {
    printf("vistudy %s\n", vi_version());
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
  if (strcmp(cmd, "order") == 0) {
    return cmd_order(argc - 1, argv + 1);
  }
  if (strcmp(cmd, "reproduce") == 0) {
    return cmd_reproduce(argc - 1, argv + 1);
  }
  fprintf(stderr, "vistudy: unknown command '%s'; valid: list, check, run, order, reproduce\n",
          cmd);
  return VI_EXIT_USAGE;
}
