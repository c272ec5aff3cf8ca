/* workprec.c: work-precision study against SUNDIALS IDA (issue 5).
 * Placeholder while the study is written; it refuses to run. */
#include "reproduce.h"
#include "vistudy.h"

int vi_workprec_run(const char *id, const reproduce_opts *o) {
  (void)o;
  fprintf(stderr, "vistudy reproduce: %s is not implemented yet\n", id);
  return VI_EXIT_FAIL;
}
