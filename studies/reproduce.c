/* reproduce.c: the study driver (design.md "Studies are data"): the
 * registry of studies (studies.def), their selection (an ID, --all,
 * --skip), the checks of every destination and published table before any
 * work, and the loop that runs the selected studies with their runners.
 * Where the published tables are found. */
#include "machine.h"
#include "outfile.h"
#include "progress.h"
#include "report.h"
#include "reproduce.h"
#include "dist.h"
#include "specs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The published tables: $VI_PUBLISHED_DIR, else the team's shared copy
 * beside the source tree, else the vendored copy in it, else the installed
 * copy (PREFIX/share/vistudy/published); the source tree is
 * found from the build (VI_SOURCE_ROOT) or from the executable (build/ is
 * one level below it), never from the current directory. */
const char *vi_published_dir(char *buf, size_t len) {
  const char *d = getenv("VI_PUBLISHED_DIR");
  if (d && *d) {
    return d;
  }
  char exe[VI_PATH_MAX] = "", exedir[VI_PATH_MAX] = ".";
  ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (k > 0) {
    exe[k] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash) {
      *slash = '\0';
      snprintf(exedir, sizeof exedir, "%s", exe);
    }
  }
  const char *roots[2] = {VI_SOURCE_ROOT, exedir};
  const char *sub[2][2] = {{"/../shared/published", "/studies/published"},
                           {"/../../shared/published", "/../studies/published"}};
  for (int i = 0; i < 2; i++) {
    for (int j = 0; j < 2; j++) {
      char probe[VI_PATH_MAX + 64];
      snprintf(buf, len, "%s%s", roots[j], sub[j][i]);
      snprintf(probe, sizeof probe, "%s/wenger2017_table1_gauss.csv", buf);
      if (access(probe, R_OK) == 0) {
        return buf;
      }
    }
  }
  /* An installed program whose source tree is gone: meson install's copy. */
  char probe[VI_PATH_MAX + 64];
  snprintf(probe, sizeof probe, "%s/published/wenger2017_table1_gauss.csv", VI_DATA_DIR);
  if (access(probe, R_OK) == 0) {
    snprintf(buf, len, "%s/published", VI_DATA_DIR);
    return buf;
  }
  snprintf(buf, len, "%s/studies/published", VI_SOURCE_ROOT);
  return buf;
}

/* The runner and the spec of each kind of registry entry (studies.def). */
#define VI_STUDY_RUN_TABLE(spec) vi_run_table, &spec
#define VI_STUDY_RUN_FIGURE(spec) vi_run_figure, &spec
#define VI_STUDY_RUN_FIGURE_SET(spec) vi_run_figure_set, &spec
#define VI_STUDY_RUN_SWEEP(spec) vi_run_sweep, &spec
#define VI_STUDY_RUN_PROGRAM(spec) spec, NULL
static const vi_study studies[] = {
#define STUDY(id, source, kind, spec, title, outputs, published, tabular, timed) \
  {id, title, VI_STUDY_RUN_##kind(spec), outputs, published, tabular, timed},
#include "studies.def"
#undef STUDY
};
#define NSTUDIES (int)(sizeof studies / sizeof studies[0])

int vi_reproduce_list(FILE *f) {
  for (int i = 0; i < NSTUDIES; i++) {
    fprintf(f, "%-25s %s%s\n", studies[i].id, studies[i].title,
            studies[i].timed ? " [timed]" : "");
  }
  return VI_EXIT_OK;
}

static int study_index(const char *id, size_t len) {
  for (int i = 0; i < NSTUDIES; i++) {
    if (strlen(studies[i].id) == len && strncmp(studies[i].id, id, len) == 0) {
      return i;
    }
  }
  return -1;
}

static void valid_ids(char *buf, size_t len) {
  size_t k = 0;
  buf[0] = '\0';
  for (int i = 0; i < NSTUDIES && k < len; i++) {
    k += (size_t)snprintf(buf + k, len - k, "%s%s", i ? " " : "", studies[i].id);
  }
}

int vi_reproduce_select(const char *id, const char *skip, int selected[], char *err,
                        size_t errlen) {
  char valid[2048];
  valid_ids(valid, sizeof valid);
  for (int i = 0; i < NSTUDIES; i++) {
    selected[i] = id == NULL;
  }
  if (id) {
    int i = study_index(id, strlen(id));
    if (i < 0) {
      snprintf(err, errlen, "unknown study '%s'; valid: %s (or --all)", id, valid);
      return -1;
    }
    selected[i] = 1;
  }
  for (const char *c = skip; c && *c;) {
    const char *end = strchr(c, ',');
    size_t len = end ? (size_t)(end - c) : strlen(c);
    int i = study_index(c, len);
    if (i < 0) {
      snprintf(err, errlen, "unknown study '%.*s' in --skip; valid: %s", (int)len, c, valid);
      return -1;
    }
    selected[i] = 0;
    c = end ? end + 1 : c + len;
  }
  int any = 0;
  for (int i = 0; i < NSTUDIES; i++) {
    any |= selected[i];
  }
  if (!any) {
    snprintf(err, errlen, "--skip leaves no study to run (it names all %d); skip fewer, or "
             "give one study ID", NSTUDIES);
    return -1;
  }
  return 0;
}

int vi_reproduce_nstudies(void) {
  return NSTUDIES;
}

/* The refusal of a reduction study s does not have: the option that does
 * not apply to it is named (also when both are given), with the way out
 * for this command (n studies selected). */
static void reduction_refused(const vi_study *s, const reproduce_opts *o, int n, char *err,
                              size_t errlen) {
  const int table = s->tabular, both = o->quick && o->max_cells > 0;
  const char *wrong = table ? "--quick" : "--max-cells N";
  const char *right = table ? "--max-cells N" : "--quick";
  char hint[128];
  if (both && n > 1) {
    snprintf(hint, sizeof hint, "they reduce different studies: give one, and leave out with "
             "--skip the studies it does not reduce");
  } else if (n > 1) {
    snprintf(hint, sizeof hint, "leave it out with --skip, or run it alone with %s", right);
  } else {
    snprintf(hint, sizeof hint, both ? "drop %s" : "give %s instead", both ? wrong : right);
  }
  snprintf(err, errlen, "%s reduces %s studies only; %s is a %s, reduced by %s (%s)", wrong,
           table ? "the figure and sweep" : "the table", s->id,
           table ? "table" : "figure or sweep", right, hint);
}

int vi_reproduce_check(const int selected[], const reproduce_opts *o, char *err,
                       size_t errlen) {
  if (vi_dir_prepare(o->results_dir, 0, err, errlen) != 0) {
    return -1;
  }
  int nselected = 0;
  for (int i = 0; i < NSTUDIES; i++) {
    nselected += selected[i] != 0;
  }
  for (int i = 0; i < NSTUDIES; i++) {
    if (!selected[i]) {
      continue;
    }
    const int table = studies[i].tabular;
    if (table ? o->quick : o->max_cells > 0) {
      reduction_refused(&studies[i], o, nselected, err, errlen);
      return -1;
    }
    if (vi_study_check(o->results_dir, studies[i].id, studies[i].outputs, err, errlen) != 0) {
      return -1;
    }
    if (studies[i].published) {
      char path[VI_PATH_MAX + 64];
      snprintf(path, sizeof path, "%s/%s", o->published_dir, studies[i].published);
      if (access(path, R_OK) != 0) {
        snprintf(err, errlen, "cannot read the published table %s of %s: %s (set --published "
                 "DIR or VI_PUBLISHED_DIR)", path, studies[i].id, strerror(errno));
        return -1;
      }
      /* A table that is not valid is refused like one that cannot be read:
       * before any study starts, so --all does no work on a bad input. */
      if (studies[i].run == vi_run_table &&
          vi_table_check(&studies[i], o->published_dir, err, errlen) != 0) {
        return -1;
      }
    }
  }
  return 0;
}

vi_pool_opts vi_pool_of(const reproduce_opts *o) {
  return (vi_pool_opts){.progress = o->progress, .every = o->progress_every,
                        .threads = o->jobs, .dist = o->dist, .costs = o->costs};
}

/* The cost log's line for a whole study: its wall time (tools/scaleout's
 * projection: what is not in its units is its serial part) and the
 * version that computed it (the results page names every study's commit,
 * also of studies whose JSON has no machine block). */
static void log_study(const reproduce_opts *o, const vi_study *s, double wall) {
  FILE *f = o->costs ? fopen(o->costs, "a") : NULL;
  if (f) {
    fprintf(f,
            "{\"study\":\"%s\",\"wall_seconds\":%.6f,\"timed\":%s,\"ranks\":%d,"
            "\"version\":\"%s\"}\n",
            s->id, wall, s->timed ? "true" : "false", vi_dist_size(o->dist), vi_version());
    fclose(f);
  }
}

int vi_reproduce(const int selected[], const reproduce_opts *o) {
  int worst = VI_EXIT_OK, n = 0, k = 0;
  for (int i = 0; i < NSTUDIES; i++) {
    n += selected[i] != 0;
  }
  const double t0 = vi_clock();
  for (int i = 0; i < NSTUDIES; i++) {
    if (selected[i]) {
      /* In a log, where each study begins (--all runs for many minutes). */
      if (o->progress == VI_PROGRESS_LOG && n > 1) {
        fprintf(stderr, "vistudy reproduce: study %d/%d: %s (%.0f s elapsed)\n", ++k, n,
                studies[i].id, vi_clock() - t0);
      }
      vi_dist_set_study(o->dist, studies[i].id);
      const double ts = vi_clock();
      int st = studies[i].run(&studies[i], o);
      log_study(o, &studies[i], vi_clock() - ts);
      worst = st > worst ? st : worst;
    }
  }
  return worst;
}

int vi_reproduce_worker(const reproduce_opts *o) {
  vi_dist *d = o->dist;
  vi_dist_task *t = vi_dist_held(d);
  /* A worker resumes nothing and writes nothing: its units come from rank
   * 0, which restores and stores them. */
  reproduce_opts w = *o;
  w.fresh = 1;
  w.progress = VI_PROGRESS_NONE;
  w.costs = NULL;
  w.jobs = 1;
  for (;;) {
    if (!t->valid && vi_dist_recv_task(d) != 0) {
      return VI_EXIT_FAIL;
    }
    if (t->stop) {
      return VI_EXIT_OK;
    }
    const int i = study_index(t->study, strlen(t->study));
    const long served = vi_dist_served(d);
    if (i >= 0) {
      /* The runner builds the study's units as rank 0 did and serves the
       * held task in its pool (cells.c), then stops at the first task of
       * another pool, leaving it held. */
      vi_dist_set_study(d, studies[i].id);
      studies[i].run(&studies[i], &w);
    }
    if (t->valid && vi_dist_served(d) == served) {
      /* Its runner never reached that pool: an error for rank 0, which
       * reports it as the unit's failure. */
      char err[256];
      snprintf(err, sizeof err, "rank %d could not build the units of %s (its runner "
               "stopped before its pool)", vi_dist_rank(d), t->study);
      if (vi_dist_send_result(d, -1, 0, err) != 0) {
        return VI_EXIT_FAIL;
      }
    }
  }
}
