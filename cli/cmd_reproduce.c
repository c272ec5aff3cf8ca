/* cmd_reproduce.c: `vistudy reproduce ID|--all|--list`: the options of the
 * study driver (studies/reproduce.c), every destination checked before any
 * work. */
#include "cli.h"
#include "dist.h"
#include "outfile.h"
#include "progress.h"
#include "reproduce.h"
#include "spec.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char vi_reproduce_help[] =
    "usage: vistudy reproduce ID|--all|--list [--fresh] [--strict] [--quick]\n"
    "                         [--published DIR] [--results DIR] [--cache DIR|--no-cache]\n"
    "                         [--max-cells N] [--skip ID,...]\n"
    "                         [--no-progress] [--progress-every S] [-j N]\n"
    "                         [--costs FILE]\n"
    "       mpirun -n N vistudy reproduce ...\n"
    "\n"
    "Regenerates a paper table or figure (see --list). A table study writes\n"
    "results/ID.{md,csv,json}, compares every cell with the published values\n"
    "(DIR, default $VI_PUBLISHED_DIR or ../shared/published) and prints\n"
    "'matched N/M cells' and every mismatch. A figure study also draws\n"
    "results/ID.{svg,png,pdf} with gnuplot (script kept as results/ID.gp) and\n"
    "checks the claims the paper's text makes about the figure.\n"
    "An interrupted run resumes from results/ID.partial.json unless --fresh;\n"
    "a stored cell is used only when the same build of vistudy computed it for\n"
    "the same configuration, and every verdict is recomputed against the\n"
    "published values as they are now.\n"
    "--max-cells N runs only the first N rows of a table; --quick runs a\n"
    "figure on a reduced grid (tests); both are reduced runs and write to\n"
    "DIR/quick/ (DIR: --results, default results), never over the full\n"
    "results. --skip leaves studies out of --all.\n"
    "Progress goes to standard error: on a terminal one line rewritten in\n"
    "place; otherwise (a log) a line at most every S seconds (default 5) with\n"
    "the cells done, the time elapsed and an estimate of what remains;\n"
    "--no-progress silences it.\n"
    "-j N (--jobs N) measures the untimed cells of a study (table cells,\n"
    "validation cases, figure curves, ensemble members) on N threads; the\n"
    "default is one per CPU this process may run on. Results are the same\n"
    "whatever N, but for the CPU time each cell reports; timed cells\n"
    "(work-precision, efficiency; [timed] in --list) always run one at a time\n"
    "on a pinned core, with no other cell measured meanwhile.\n"
    "Under mpirun (or srun) the other ranks measure the untimed cells too:\n"
    "rank 0 runs the studies, hands each idle rank one cell at a time and is\n"
    "the only one to write; one rank per core (-j then sets rank 0's threads,\n"
    "default 1). Results are the same as a serial run's; a rank that dies\n"
    "stops the run, and a rerun resumes from every cell stored.\n"
    "--costs FILE appends every measured cell's wall time to FILE (JSON\n"
    "lines) and, when FILE holds costs from an earlier run, hands out the\n"
    "longest cells first.\n"
    "Every destination is checked before any work: a results directory that\n"
    "cannot be created or written, or a result name that is a directory, is\n"
    "refused (exit 2).\n"
    "Exit 0 when the study ran; with --strict, 1 on any mismatch or claim\n"
    "that does not hold.";

/* 1 when path names something (a directory the checks would not create). */
static int exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 || errno != ENOENT;
}

/* The cost log can be appended to (created if missing, never truncated).
 * 0, or -1 with the reason in err. */
static int costs_check(const char *path, char *err, size_t errlen) {
  struct stat st;
  if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
    snprintf(err, errlen, "--costs %s: not a regular file", path);
    return -1;
  }
  FILE *f = fopen(path, "a");
  if (!f) {
    snprintf(err, errlen, "--costs %s: cannot append to it (%s)", path, strerror(errno));
    return -1;
  }
  fclose(f);
  return 0;
}

/* A worker rank: silent (rank 0 reports every failure of a unit it was
 * handed) and writing nothing; the reference cache it shares if it can. */
static int worker(reproduce_opts *o, int cache_given) {
  const int saved = dup(STDERR_FILENO);
  if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr)) {
    return VI_EXIT_FAIL;
  }
  if (vi_cli_prepare_cache("reproduce", &o->cache_dir, cache_given) != 0) {
    o->cache_dir = NULL;
  }
  const int st = vi_reproduce_worker(o);
  if (st != VI_EXIT_OK && saved >= 0) {
    dprintf(saved, "vistudy reproduce: rank %d: MPI failed; this rank stops\n",
            vi_dist_rank(o->dist));
  }
  vi_dist_finish(o->dist);
  return st;
}

/* VI_EXIT_USAGE after the usage error in err when rc is nonzero, else 0. */
static int refused(int rc, const char *err) {
  return rc != 0 ? vi_cli_usage("reproduce", err) : 0;
}

int vi_cmd_reproduce(int argc, char **argv) {
  static const struct option opts[] = {
      {"all", no_argument, NULL, 'a'},          {"list", no_argument, NULL, 'l'},
      {"fresh", no_argument, NULL, 'f'},        {"strict", no_argument, NULL, 's'},
      {"published", required_argument, NULL, 'P'}, {"results", required_argument, NULL, 'R'},
      {"cache", required_argument, NULL, 'c'},  {"no-cache", no_argument, NULL, 'n'},
      {"max-cells", required_argument, NULL, 'm'}, {"help", no_argument, NULL, 'h'},
      {"quick", no_argument, NULL, 'q'},        {"skip", required_argument, NULL, 'k'},
      {"no-progress", no_argument, NULL, 'Q'},  {"progress-every", required_argument, NULL, 'E'},
      {"jobs", required_argument, NULL, 'j'},   {"costs", required_argument, NULL, 'C'},
      {NULL, 0, NULL, 0}};
  char pubbuf[VI_PATH_MAX], resbuf[VI_PATH_MAX + 16], cachebuf[VI_PATH_MAX];
  reproduce_opts o = {.published_dir = vi_published_dir(pubbuf, sizeof pubbuf),
                      .results_dir = "results",
                      .cache_dir = vi_cli_default_cache(cachebuf, sizeof cachebuf),
                      .progress = vi_progress_mode_auto(0),
                      .progress_every = VI_PROGRESS_EVERY};
  int all = 0, list = 0, c, cache_given = 0;
  char err[VI_PATH_MAX + 512];
  vi_cli_seen seen = {{0}};
  optind = 1;
  while ((c = getopt_long(argc, argv, "hj:", opts, NULL)) != -1) {
    if (vi_cli_once("reproduce", opts, c, optarg, NULL, &seen)) {
      return VI_EXIT_USAGE;
    }
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
    case 'Q':
      o.progress = VI_PROGRESS_NONE;
      break;
    case 'E':
      if (vi_cli_progress_every("reproduce", optarg, &o.progress_every)) {
        return VI_EXIT_USAGE;
      }
      break;
    case 'C':
      o.costs = optarg;
      break;
    case 'j':
      if (vi_parse_int("-j", optarg, 1, 64, &o.jobs, err, sizeof err)) {
        return vi_cli_usage("reproduce", err);
      }
      break;
    case 'm':
      if (vi_parse_int("--max-cells", optarg, 1, 100000, &o.max_cells, err, sizeof err)) {
        return vi_cli_usage("reproduce", err);
      }
      break;
    case 'h':
      puts(vi_reproduce_help);
      return VI_EXIT_OK;
    default:
      return vi_cli_usage("reproduce", "invalid option");
    }
  }
  if (list) {
    return vi_reproduce_list(stdout);
  }
  if (all == (optind < argc) || argc - optind > 1) {
    return vi_cli_usage("reproduce", "give exactly one study ID, or --all (see --list)");
  }
  int selected[64];
  if (vi_reproduce_nstudies() > 64) {
    return vi_cli_usage("reproduce", "too many studies (a bug)");
  }
  if (o.skip && !all) {
    return vi_cli_usage("reproduce", "--skip goes with --all");
  }
  if (vi_reproduce_select(all ? NULL : argv[optind], o.skip, selected, err, sizeof err) != 0) {
    return vi_cli_usage("reproduce", err);
  }
  /* Reduced runs never overwrite the full results: they go to DIR/quick. */
  const char *dirs[2] = {o.results_dir, NULL};
  if (o.quick || o.max_cells > 0) {
    snprintf(resbuf, sizeof resbuf, "%s/quick", o.results_dir);
    dirs[1] = o.results_dir = resbuf;
  }
  /* Every rank parsed the same arguments; from here rank 0 runs the
   * studies and the others measure what it hands them (dist.h). */
  if (vi_dist_init(NULL, NULL, &o.dist, err, sizeof err) != 0) {
    fprintf(stderr, "vistudy reproduce: %s\n", err);
    return VI_EXIT_FAIL;
  }
  if (vi_dist_rank(o.dist) > 0) {
    return worker(&o, cache_given);
  }
  int made[2] = {!exists(dirs[0]), dirs[1] && !exists(dirs[1])};
  int st = refused(dirs[1] ? vi_dir_prepare(dirs[0], 0, err, sizeof err) : 0, err);
  if (st == 0) {
    st = refused(vi_reproduce_check(selected, &o, err, sizeof err), err);
  }
  if (st == 0 && vi_cli_prepare_cache("reproduce", &o.cache_dir, cache_given) != 0) {
    st = VI_EXIT_USAGE;
  }
  /* Last: a refused command creates no cost log either. */
  if (st == 0 && o.costs) {
    st = refused(costs_check(o.costs, err, sizeof err), err);
  }
  if (st != 0) {
    /* A refused command leaves nothing behind: the directories the checks
     * created are removed again (rmdir: only while they are empty). */
    for (int i = 1; i >= 0; i--) {
      if (dirs[i] && made[i]) {
        rmdir(dirs[i]);
      }
    }
    vi_dist_finish(o.dist);
    return st;
  }
  st = vi_reproduce(selected, &o);
  vi_dist_finish(o.dist);
  return st;
}
