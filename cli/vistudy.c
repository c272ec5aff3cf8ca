/* vistudy.c: the program (design.md, "Command line"): main, the help, `list`
 * and the dispatch to the subcommands (cli/cmd_*.c). Untemplated: the
 * subcommands reach either precision through vi_api_of (core/common.h).
 * Exit status 0 on success, 1 on a failed check or run, 2 on bad usage. */
#include "cli.h"
#include "machine.h"
#include "outfile.h"
#include "reproduce.h"

#include <gsl/gsl_errno.h>
#include <stdio.h>
#include <string.h>

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
    char nh[32] = "", nq[64] = "";
    if (in->m_nh > 0) {
      snprintf(nh, sizeof nh, ", m_nh = %d", in->m_nh);
    }
    if (in->nq > in->n) {
      snprintf(nq, sizeof nq, " (stored in %d reals)", in->nq);
    }
    printf("\n%s  (%s form, n = %d%s, m = %d%s; %s)\n  %s\n", in->name,
           vi_type_form_d(vi_system_types_d[i]), in->n, nq, in->m, nh, in->cite, in->summary);
    printf("  invariants: %s", vi_type_energy_conserved_d(vi_system_types_d[i])
                                    ? "energy"
                                    : "(not the energy: an affine constraint does work)");
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
    for (const vi_opt *k = mt->options; k->key; k++) {
      char range[256], def[64];
      vi_opt_describe(k, range, sizeof range, def, sizeof def);
      printf("  %-8s %s\n           values: %s; default: %s\n", k->key, k->doc, range, def);
    }
  }
}

int vi_cmd_list(int argc, char **argv) {
  if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
    puts("usage: vistudy list [systems|methods|studies]\n"
         "Without an argument: systems and methods.");
    return VI_EXIT_OK;
  }
  if (argc > 2) {
    return vi_cli_usage("list", "too many arguments");
  }
  const char *what = argc > 1 ? argv[1] : "all";
  int all = strcmp(what, "all") == 0;
  if (strcmp(what, "studies") == 0) {
    return vi_reproduce_list(stdout);
  }
  if (!all && strcmp(what, "systems") != 0 && strcmp(what, "methods") != 0) {
    char msg[256];
    snprintf(msg, sizeof msg, "unknown list '%s'; valid: systems, methods, studies", what);
    return vi_cli_usage("list", msg);
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
    return vi_cmd_list(argc - 1, argv + 1);
  }
  if (strcmp(cmd, "check") == 0) {
    return vi_cmd_check(argc - 1, argv + 1);
  }
  if (strcmp(cmd, "run") == 0) {
    return vi_cmd_run(argc - 1, argv + 1);
  }
  if (strcmp(cmd, "order") == 0) {
    return vi_cmd_order(argc - 1, argv + 1);
  }
  if (strcmp(cmd, "reproduce") == 0) {
    return vi_cmd_reproduce(argc - 1, argv + 1);
  }
  fprintf(stderr, "vistudy: unknown command '%s'; valid: list, check, run, order, reproduce\n",
          cmd);
  return VI_EXIT_USAGE;
}
