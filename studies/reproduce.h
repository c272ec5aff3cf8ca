/* reproduce.h: paper reproductions (reproduce.c). */
#ifndef VI_REPRODUCE_H
#define VI_REPRODUCE_H

#include <stdio.h>

typedef struct reproduce_opts {
  const char *published_dir; /* ../shared/published or $VI_PUBLISHED_DIR */
  const char *results_dir;   /* results */
  const char *cache_dir;     /* reference cache, NULL for none */
  int fresh;                 /* ignore a partial run */
  int strict;                /* exit 1 on any mismatch */
  int progress;              /* progress on stderr */
  int max_cells;             /* > 0: only the first rows (tests) */
  int quick;                 /* figures: a reduced run (tests) */
  const char *skip;          /* --all: comma-separated IDs to leave out */
} reproduce_opts;

const char *vi_published_dir(void);
/* Run one study (id) or all (id NULL); VI_EXIT_* status. */
int vi_reproduce(const char *id, const reproduce_opts *o);
int vi_reproduce_list(FILE *f);

/* The studies of other files, each run by its ID (VI_EXIT_* status). */
int vi_figures_run(const char *id, const reproduce_opts *o);  /* figures.c */
int vi_workprec_run(const char *id, const reproduce_opts *o); /* workprec.c */
int vi_man2020_run(const char *id, const reproduce_opts *o);  /* man2020.c */
int vi_man2020_eff_run(const char *id, const reproduce_opts *o); /* man2020_eff.c */

#endif
