/* cli.h: the program's own declarations (design.md, "Command line"): the
 * subcommands and the option handling they share. Only cli/ prints to the
 * terminal, parses arguments and chooses exit codes; the library returns
 * vi_status and the studies their outcome. */
#ifndef VI_CLI_H
#define VI_CLI_H

#include "outcome.h"
#include "vistudy.h"

#include <getopt.h>
#include <stddef.h>

#define VI_CLI_MAX_SET 64

/* Print "vistudy CMD: MSG" and the --help hint; returns VI_EXIT_USAGE. */
int vi_cli_usage(const char *cmd, const char *msg);

/* The exit status of a library failure: 2 for what the user can fix in the
 * arguments (an invalid argument, inconsistent data, an unsupported
 * combination) when it happened while setting up, else 1. */
int vi_cli_exit_of(int status, int setup);

/* Options that `run` and `order` share: --system, --set, --method, --T,
 * --precision, --solver, --lu, --rtol, --max-iter; numbers stay text until the
 * precision is known. */
typedef struct vi_cli_common {
  const char *system, *method, *T, *rtol;
  int nset;
  const char *set[VI_CLI_MAX_SET];
  char setbuf[8192];
  size_t setused;
  vi_precision prec;
  int allow_auto; /* --precision auto is valid (order) */
  int prec_auto;  /* --precision auto chosen (the default of order) */
  int solver; /* vi_solver_kind; VI_SOLVER_AUTO: the precision's default */
  int lu;     /* vi_lu_precision; VI_LU_AUTO: the precision's default */
  int max_iter;
} vi_cli_common;

#define VI_CLI_COMMON_LONG_OPTS                                                      \
  {"system", required_argument, NULL, 'S'}, {"set", required_argument, NULL, 's'},   \
      {"method", required_argument, NULL, 'm'}, {"T", required_argument, NULL, 'T'}, \
      {"precision", required_argument, NULL, 'p'},                                   \
      {"solver", required_argument, NULL, 'v'}, {"rtol", required_argument, NULL, 'r'}, \
      {"max-iter", required_argument, NULL, 'i'}, {"lu", required_argument, NULL, 'U'}

/* 1 when getopt's c was a common option (stored), 0 when it is not one,
 * -VI_EXIT_USAGE after printing the usage error. */
int vi_cli_common_opt(const char *cmd, int c, const char *arg, vi_cli_common *co);

/* The values of a command's options seen so far, by getopt code: a
 * single-valued option given twice is refused instead of the last one
 * silently winning. */
typedef struct vi_cli_seen {
  const char *value[256];
} vi_cli_seen;
/* 0, or VI_EXIT_USAGE after the usage error when getopt's c is an option
 * of opts that takes a value, is not in multi (codes that may repeat, as
 * --set) and was given before. */
int vi_cli_once(const char *cmd, const struct option *opts, int c, const char *arg,
                const char *multi, vi_cli_seen *seen);
/* Append one --set argument ("phi0=2.1,omega0=0.7" is two assignments,
 * "q0=1,2,3" one) to set/nset in buf; -1 when there are too many. */
int vi_cli_split_set(const char *arg, char *buf, size_t buflen, const char **set, int *nset);
/* Parse --precision; usage error (returns VI_EXIT_USAGE) when invalid. */
int vi_cli_precision(const char *cmd, const char *s, vi_precision *p);

/* A positive finite number in the precision of api; usage error printed
 * and VI_EXIT_USAGE returned otherwise ("invalid WHAT 'TEXT'...", out of
 * range when it overflows or underflows the precision). */
int vi_cli_positive(const char *cmd, const vi_api *api, const char *what, const char *text,
                    vi_wide *out);
/* Solver options of the common options in api's precision (KINSOL only in
 * double, rtol at least the precision's epsilon); VI_EXIT_USAGE after the
 * usage error. */
int vi_cli_solver(const char *cmd, const vi_api *api, const vi_cli_common *co,
                  vi_solver_config *sc);
/* N with N h = T; usage error naming both texts otherwise. */
int vi_cli_steps(const char *cmd, const vi_api *api, vi_wide T, const char *Ttext, vi_wide h,
                 const char *htext, long *N);
/* The most steps a command integrates (run: T/h; order: T/h summed over
 * its step sizes) unless --force: more cannot finish in reasonable time
 * or memory. */
#define VI_CLI_MAX_STEPS 100000000L
/* 0 when steps is within VI_CLI_MAX_STEPS or force; else VI_EXIT_USAGE
 * after a usage error naming what (e.g. "T/h") and the way out. */
int vi_cli_step_limit(const char *cmd, const char *what, double steps, int force);

/* The default reference cache ($VI_CACHE_DIR, $XDG_CACHE_HOME/vistudy,
 * ~/.cache/vistudy; NULL when none is known), and the check of the cache
 * before any work: a directory given with --cache must be usable (usage
 * error, -1), the default one is dropped with a warning. */
const char *vi_cli_default_cache(char *buf, size_t len);
/* --progress-every S: seconds between two progress lines in a log, in
 * [0.1, 3600]. 0, or VI_EXIT_USAGE after the message. */
int vi_cli_progress_every(const char *cmd, const char *text, double *out);

int vi_cli_prepare_cache(const char *cmd, const char **dir, int given);

/* The help of each command (printed by --help or -h anywhere among its
 * arguments, and by 'vistudy help CMD'). */
extern const char vi_list_help[], vi_check_help[], vi_run_help[], vi_order_help[],
    vi_reproduce_help[];

int vi_cmd_list(int argc, char **argv);
int vi_cmd_check(int argc, char **argv);
int vi_cmd_run(int argc, char **argv);
int vi_cmd_order(int argc, char **argv);
int vi_cmd_reproduce(int argc, char **argv);

#endif
