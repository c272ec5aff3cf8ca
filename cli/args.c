/* args.c: option handling shared by the subcommands: usage errors, the
 * options of run and order, numbers parsed in the working precision, the
 * reference cache. */
#include "cli.h"
#include "outfile.h"
#include "spec.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int vi_cli_usage(const char *cmd, const char *msg) {
  fprintf(stderr, "vistudy %s: %s\n", cmd, msg);
  fprintf(stderr, "Try 'vistudy %s --help'.\n", cmd);
  return VI_EXIT_USAGE;
}

int vi_cli_exit_of(int status, int setup) {
  if (status == VI_OK) {
    return VI_EXIT_OK;
  }
  int fixable = status == VI_EINVAL || status == VI_EINCONSISTENT || status == VI_EUNSUPPORTED;
  return setup && fixable ? VI_EXIT_USAGE : VI_EXIT_FAIL;
}

int vi_cli_split_set(const char *arg, char *buf, size_t buflen, const char **set, int *nset) {
  size_t len = strlen(arg);
  if (len + 1 > buflen) {
    return -1;
  }
  memcpy(buf, arg, len + 1);
  char *start = buf;
  /* A comma-separated item that contains '=' starts a new assignment. */
  for (char *c = buf; *c; c++) {
    if (*c != ',') {
      continue;
    }
    char *next = c + 1, *eq = strchr(next, '='), *comma = strchr(next, ',');
    if (eq && (!comma || eq < comma)) {
      *c = '\0';
      if (*nset == VI_CLI_MAX_SET) {
        return -1;
      }
      set[(*nset)++] = start;
      start = next;
    }
  }
  if (*nset == VI_CLI_MAX_SET) {
    return -1;
  }
  set[(*nset)++] = start;
  return 0;
}

int vi_cli_precision(const char *cmd, const char *s, vi_precision *p) {
  if (vi_precision_parse(s, p) != 0) {
    char msg[256];
    snprintf(msg, sizeof msg, "invalid --precision '%s'; valid: double, quad", s);
    return vi_cli_usage(cmd, msg);
  }
  return 0;
}

int vi_cli_common_opt(const char *cmd, int c, const char *arg, vi_cli_common *co) {
  char err[512];
  switch (c) {
  case 'S':
    co->system = arg;
    return 1;
  case 's':
    if (vi_cli_split_set(arg, co->setbuf + co->setused, sizeof co->setbuf - co->setused,
                         co->set, &co->nset)) {
      return -vi_cli_usage(cmd, "too many --set values");
    }
    co->setused += strlen(arg) + 1;
    return 1;
  case 'm':
    co->method = arg;
    return 1;
  case 'T':
    co->T = arg;
    return 1;
  case 'p':
    if (co->allow_auto && strcmp(arg, "auto") == 0) {
      co->prec_auto = 1;
      return 1;
    }
    co->prec_auto = 0;
    if (co->allow_auto && vi_precision_parse(arg, &co->prec) != 0) {
      snprintf(err, sizeof err, "invalid --precision '%s'; valid: auto, double, quad", arg);
      return -vi_cli_usage(cmd, err);
    }
    return vi_cli_precision(cmd, arg, &co->prec) ? -VI_EXIT_USAGE : 1;
  case 'v':
    if (vi_solver_kind_parse(arg, &co->solver) != 0) {
      snprintf(err, sizeof err,
               "invalid --solver '%s'; valid: auto, newton, chord, simplified, fixed-point, kinsol", arg);
      return -vi_cli_usage(cmd, err);
    }
    return 1;
  case 'U':
    if (vi_lu_precision_parse(arg, &co->lu) != 0) {
      snprintf(err, sizeof err, "invalid --lu '%s'; valid: auto, working, double", arg);
      return -vi_cli_usage(cmd, err);
    }
    return 1;
  case 'r':
    co->rtol = arg;
    return 1;
  case 'i':
    if (vi_parse_int("--max-iter", arg, 1, 100000, &co->max_iter, err, sizeof err)) {
      return -vi_cli_usage(cmd, err);
    }
    return 1;
  default:
    return 0;
  }
}

int vi_cli_once(const char *cmd, const struct option *opts, int c, const char *arg,
                const char *multi, vi_cli_seen *seen) {
  const struct option *o = opts;
  while (o->name && o->val != c) {
    o++;
  }
  if (!o->name || o->has_arg == no_argument || c < 0 || c > 255 || (multi && strchr(multi, c))) {
    return 0;
  }
  if (seen->value[c]) {
    char msg[1024];
    snprintf(msg, sizeof msg, "--%s given twice ('%.400s' and '%.400s'); give it once", o->name,
             seen->value[c], arg);
    return vi_cli_usage(cmd, msg);
  }
  seen->value[c] = arg;
  return 0;
}

/* "overflow" or "underflow" when text is a number that the precision of
 * api cannot hold (its magnitude is too large, or a nonzero value reads as
 * zero), else NULL: long double has quad's exponent range, so it reads
 * what either precision rejects. */
static const char *out_of_range(const vi_api *api, const char *text) {
  char *end = NULL;
  errno = 0;
  long double v = strtold(text, &end);
  if (end == text || *end != '\0') {
    return NULL;
  }
  const int erange = errno == ERANGE;
  vi_wide w = 0;
  if (api->parse_real(text, &w) != VI_OK) {
    return erange || isfinite(v) ? (erange && fabsl(v) < 1 ? "underflow" : "overflow") : NULL;
  }
  return w == 0 && (v != 0 || erange) ? "underflow" : NULL;
}

int vi_cli_positive(const char *cmd, const vi_api *api, const char *what, const char *text,
                    vi_wide *out) {
  char msg[512];
  if (!text || !*text) {
    snprintf(msg, sizeof msg, "missing value for %s", what);
    return vi_cli_usage(cmd, msg);
  }
  const char *range = out_of_range(api, text);
  if (range) {
    snprintf(msg, sizeof msg, "invalid %s '%s': out of range (%s in %s precision); give a "
             "positive finite number", what, text, range, api->name);
    return vi_cli_usage(cmd, msg);
  }
  if (api->parse_real(text, out) != VI_OK) {
    snprintf(msg, sizeof msg, "invalid %s '%s': expected a positive number", what, text);
    return vi_cli_usage(cmd, msg);
  }
  if (!(*out > 0)) {
    snprintf(msg, sizeof msg, "invalid %s '%s': must be positive", what, text);
    return vi_cli_usage(cmd, msg);
  }
  return 0;
}

int vi_cli_solver(const char *cmd, const vi_api *api, const vi_cli_common *co,
                  vi_solver_config *sc) {
  char msg[512];
  memset(sc, 0, sizeof *sc);
  sc->kind = co->solver;
  sc->lu = co->lu;
  sc->max_iter = co->max_iter;
  if (co->solver == VI_SOLVER_KINSOL && api->precision == VI_QUAD) {
    return vi_cli_usage(cmd, "--solver kinsol works in double precision only (Debian's "
                             "SUNDIALS is built for double); use --solver newton with "
                             "--precision quad");
  }
  if (co->rtol) {
    if (vi_cli_positive(cmd, api, "--rtol", co->rtol, &sc->rtol)) {
      return VI_EXIT_USAGE;
    }
    if (!((double)sc->rtol < 1)) {
      snprintf(msg, sizeof msg, "--rtol %s is out of range: valid %.3g <= rtol < 1 in %s "
               "precision (a relative tolerance of 1 or more accepts a Newton correction as "
               "large as the unknown itself)", co->rtol, api->eps, api->name);
      return vi_cli_usage(cmd, msg);
    }
    if ((double)sc->rtol < api->eps) {
      snprintf(msg, sizeof msg, "--rtol %s is below the %s precision's epsilon %.3g and "
               "cannot be met; use --precision quad or a larger --rtol",
               co->rtol, api->name, api->eps);
      return vi_cli_usage(cmd, msg);
    }
  }
  return 0;
}

int vi_cli_steps(const char *cmd, const vi_api *api, vi_wide T, const char *Ttext, vi_wide h,
                 const char *htext, long *N) {
  double ratio = 0;
  if (api->steps_of(T, h, N, &ratio) == VI_OK) {
    return 0;
  }
  char msg[512];
  if (!(ratio < 9.0e18)) {
    snprintf(msg, sizeof msg, "T/h = %.3g steps (T = %s, h = %s) is beyond any run; choose a "
             "larger h or a smaller T", ratio, Ttext, htext);
  } else {
    snprintf(msg, sizeof msg, "final time T = %s is not a whole multiple of h = %s "
             "(T/h = %.6g); choose h = T/N for an integer N", Ttext, htext, ratio);
  }
  return vi_cli_usage(cmd, msg);
}

int vi_cli_step_limit(const char *cmd, const char *what, double steps, int force) {
  if (force || steps <= (double)VI_CLI_MAX_STEPS) {
    return 0;
  }
  char msg[512];
  snprintf(msg, sizeof msg, "%s = %.0f steps is above the limit of %ld steps; choose a larger "
           "h or a smaller T, or pass --force to run it anyway", what, steps, VI_CLI_MAX_STEPS);
  return vi_cli_usage(cmd, msg);
}

const char *vi_cli_default_cache(char *buf, size_t len) {
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

int vi_cli_prepare_cache(const char *cmd, const char **dir, int given) {
  char err[VI_PATH_MAX + 256];
  if (*dir == NULL || vi_dir_prepare(*dir, 1, err, sizeof err) == 0) {
    return 0;
  }
  if (given) {
    char msg[sizeof err + 16];
    snprintf(msg, sizeof msg, "--cache: %s", err);
    vi_cli_usage(cmd, msg);
    return -1;
  }
  fprintf(stderr, "vistudy %s: warning: no reference cache: %s\n", cmd, err);
  *dir = NULL;
  return 0;
}

int vi_cli_progress_every(const char *cmd, const char *text, double *out) {
  char *end = NULL, msg[256];
  errno = 0;
  double v = strtod(text, &end);
  if (!*text || *end || errno || !(v >= 0.1 && v <= 3600)) {
    snprintf(msg, sizeof msg, "invalid --progress-every '%s': give the seconds between two "
             "progress lines, 0.1 to 3600", text);
    return vi_cli_usage(cmd, msg);
  }
  *out = v;
  return 0;
}
