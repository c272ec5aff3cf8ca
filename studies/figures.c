/* figures.c: the figures of wenger2017 (placeholder while written). */
#include "reproduce.h"
#include "vistudy.h"

int vi_figures_run(const char *id, const reproduce_opts *o) {
  (void)o;
  fprintf(stderr, "vistudy reproduce: %s is not implemented yet\n", id);
  return VI_EXIT_FAIL;
}
