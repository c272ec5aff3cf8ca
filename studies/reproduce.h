/* reproduce.h: the study driver (reproduce.c): options, selection, checks,
 * runs. The registry and the runners: study.h. */
#ifndef VI_REPRODUCE_H
#define VI_REPRODUCE_H

#include "study.h"

#include <stddef.h>
#include <stdio.h>



/* Where the published tables are (see reproduce.c); buf holds the path
 * when it is not $VI_PUBLISHED_DIR. */
const char *vi_published_dir(char *buf, size_t len);

/* Number of registered studies: the length of a selection. */
int vi_reproduce_nstudies(void);
/* Select one study (id) or all (id NULL) less the comma-separated skip
 * list; -1 with the valid IDs in err for an unknown ID. */
int vi_reproduce_select(const char *id, const char *skip, int selected[], char *err,
                        size_t errlen);
/* Before any work: the results directory (created if missing), every file
 * the selected studies write, the published tables they read. 0, or -1
 * with the path and the reason in err. */
int vi_reproduce_check(const int selected[], const reproduce_opts *o, char *err,
                       size_t errlen);
/* Run the selected studies; the worst VI_EXIT_* status. */
int vi_reproduce(const int selected[], const reproduce_opts *o);
int vi_reproduce_list(FILE *f);
/* A worker rank of an MPI run (dist.h): measure the units rank 0 hands
 * out, study by study, until it says stop; VI_EXIT_OK, or VI_EXIT_FAIL
 * when MPI fails. */
int vi_reproduce_worker(const reproduce_opts *o);

#endif
