/* vistudy.c: the program (design.md, "Command line"): main, the help and
 * the dispatch to the subcommands (cli/cmd_*.c). Untemplated: the
 * subcommands reach either precision through vi_api_of (core/drivers.h).
 * Exit status 0 on success, 1 on a failed check or run, 2 on bad usage. */
#include "cli.h"
#include "machine.h"
#include "outfile.h"

#include <errno.h>
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
        "'vistudy COMMAND --help' (or -h, anywhere among its arguments, or\n"
        "'vistudy help COMMAND') describes the options of a command;\n"
        "'vistudy --version' prints the version; each command has a man page,\n"
        "vistudy-COMMAND(1).\n"
        "\n"
        "Documentation: docs/README.md (the index of docs/*.md) in the source tree,\n"
        "installed in share/doc/vistudy.\n",
        f);
}

/* The commands, their entry points and their help. */
typedef struct vi_cli_command {
  const char *name;
  int (*run)(int argc, char **argv);
  const char *help;
} vi_cli_command;

static const vi_cli_command commands[] = {
    {"list", vi_cmd_list, vi_list_help},
    {"check", vi_cmd_check, vi_check_help},
    {"run", vi_cmd_run, vi_run_help},
    {"order", vi_cmd_order, vi_order_help},
    {"reproduce", vi_cmd_reproduce, vi_reproduce_help},
    {NULL, NULL, NULL}};

static const vi_cli_command *find_command(const char *name) {
  for (const vi_cli_command *c = commands; c->name; c++) {
    if (strcmp(c->name, name) == 0) {
      return c;
    }
  }
  return NULL;
}

static int unknown_command(const char *name) {
  fprintf(stderr, "vistudy: unknown command '%s'; valid:", name);
  for (const vi_cli_command *c = commands; c->name; c++) {
    fprintf(stderr, "%s %s", c == commands ? "" : ",", c->name);
  }
  fputc('\n', stderr);
  return VI_EXIT_USAGE;
}

/* 1 when --help (or -h) stands anywhere among a command's arguments (before
 * a "--"): the help is what was asked for, whatever else is there. */
static int wants_help(int argc, char **argv) {
  for (int i = 2; i < argc && strcmp(argv[i], "--") != 0; i++) {
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      return 1;
    }
  }
  return 0;
}

/* Standard output is checked once for every command: a write that failed
 * (a full disk, a closed pipe) lost the result, so the command fails. The
 * failing write's errno is gone when it was not the last one: the message
 * then says so. */
static int stdout_status(const char *cmd, int st) {
  errno = 0;
  int bad = ferror(stdout) != 0;
  int e = 0;
  if (fflush(stdout) != 0) {
    bad = 1;
    e = errno;
  }
  if (fclose(stdout) != 0 && errno != EBADF) {
    bad = 1;
    e = e ? e : errno;
  }
  if (!bad) {
    return st;
  }
  fprintf(stderr, "vistudy%s%s: write error on standard output: %s\n", cmd ? " " : "",
          cmd ? cmd : "", e ? strerror(e) : "an earlier write failed");
  return st > VI_EXIT_FAIL ? st : VI_EXIT_FAIL;
}

/* The command's status, standard output not yet checked. */
static int dispatch(int argc, char **argv) {
  if (argc < 2) {
    print_main_help(stderr);
    return VI_EXIT_USAGE;
  }
  const char *name = argv[1];
  if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 || strcmp(name, "help") == 0) {
    if (strcmp(name, "help") == 0 && argc > 2) {
      const vi_cli_command *c = argc == 3 ? find_command(argv[2]) : NULL;
      if (argc > 3) {
        return vi_cli_usage("help", "give one command: vistudy help COMMAND");
      }
      if (!c) {
        return unknown_command(argv[2]);
      }
      puts(c->help);
      return VI_EXIT_OK;
    }
    print_main_help(stdout);
    return VI_EXIT_OK;
  }
  if (strcmp(name, "--version") == 0) {
    /* The release and what git says of the tree it was built from. */
    if (strcmp(vi_version(), vi_release()) == 0) {
      printf("vistudy %s\n", vi_release());
    } else {
      printf("vistudy %s (git %s)\n", vi_release(), vi_version());
    }
    return VI_EXIT_OK;
  }
  const vi_cli_command *c = find_command(name);
  if (!c) {
    return unknown_command(name);
  }
  if (wants_help(argc, argv)) {
    puts(c->help);
    return VI_EXIT_OK;
  }
  return c->run(argc - 1, argv + 1);
}

int main(int argc, char **argv) {
  /* GSL's default handler aborts the process; the library reports its own
   * statuses instead (process-wide, so set here and not in the library). */
  gsl_set_error_handler_off();
  vi_out_cleanup_on_signals();
  const vi_cli_command *c = argc > 1 ? find_command(argv[1]) : NULL;
  return stdout_status(c ? c->name : NULL, dispatch(argc, argv));
}
