/* vistudy.c: the program (design.md, "Command line"): main, the help and
 * the dispatch to the subcommands (cli/cmd_*.c). Untemplated: the
 * subcommands reach either precision through vi_api_of (core/drivers.h).
 * Exit status 0 on success, 1 on a failed check or run, 2 on bad usage. */
#include "cli.h"
#include "machine.h"
#include "outfile.h"

#include <gsl/gsl_errno.h>
#include <stdio.h>
#include <string.h>

static void print_main_help(FILE *f) {
  fputs("usage: vistudy COMMAND [OPTIONS]\n"
        "\n"
        "commands:\n"
        "  list [systems|methods|studies] [--markdown]  document every system\n"
        "                           (parameters, defaults), method (keys, valid values)\n"
        "                           and study\n"
        "  check [--system] SYSTEM  verify the system's derivatives against\n"
        "                           finite differences, in both precisions\n"
        "  run                      integrate one trajectory to CSV\n"
        "  order                    order study: global errors of q, p, lambda for a\n"
        "                           list of step sizes against a reference, fitted orders\n"
        "  reproduce ID|--all|--list  regenerate a paper's table, compare cell by cell\n"
        "\n"
        "'vistudy COMMAND --help' (or -h) describes the options of a command;\n"
        "'vistudy --version' prints the version.\n"
        "\n"
        "Documentation: docs/README.md (the index of docs/*.md) in the source tree.\n",
        f);
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
