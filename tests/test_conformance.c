/* test_conformance.c: every method family x every compatible system x both
 * precisions, from the registries (a family or system added later is
 * covered without anyone remembering to add it; conformance suite; the test
 * configuration also registers the test-only families of tests/families/).
 * The checks themselves are the library's, vi_conformance_d / _q
 * (core/conformance_tmpl.c, which lists them), so that a family of a
 * user's own program, not registered, gets the same ones
 * (examples/symplectic_euler.c); this program runs them on every
 * registered family against the registered systems, prints the notes to
 * stdout and the failed checks to stderr, and counts the cases. */
#include <gsl/gsl_errno.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "vistudy.h"

/* Whether family name is among the nf names of the command line (every
 * family when none is given: meson runs them all; a name narrows a run by
 * hand, e.g. `build-test/tests/test_conformance dla`). */
static int cf_selected(const char *name, int nf, char **families) {
  for (int i = 0; i < nf; i++) {
    if (strcmp(name, families[i]) == 0) {
      return 1;
    }
  }
  return nf == 0;
}

/* The library's lines: a failed check to stderr, a note to stdout (as the
 * suite printed them before the checks moved into the library), a check
 * that held nowhere. */
static void cf_report(void *ctx, int kind, const char *line) {
  (void)ctx;
  if (kind == VI_CONFORMANCE_FAILED) {
    fprintf(stderr, "FAIL conformance: %s\n", line);
  } else if (kind == VI_CONFORMANCE_NOTE) {
    printf("  %s\n", line);
  }
}

static void cf_add(vi_check_ctx *c, vi_conformance_counts *sum, int rc,
                   const vi_conformance_counts *n, const char *family, const char *prec) {
  sum->pairs += n->pairs;
  sum->skipped += n->skipped;
  c->checks += n->checks;
  c->failures += n->failed;
  /* The return value is the count of failed checks: the two must agree. */
  VI_CHECK(c, rc == n->failed, "%s (%s): vi_conformance returned %d, %d checks failed",
           family, prec, rc, n->failed);
  /* Only the double pass leaves orders to the quad pass. */
  VI_CHECK(c, strcmp(prec, "quad") != 0 || n->deferred == 0,
           "%s (quad): %d orders deferred", family, n->deferred);
}

int main(int argc, char **argv) {
  vi_check_ctx ctx = {0, 0};
  gsl_set_error_handler_off();
  vi_conformance_counts sum = {0}, n;
  const int nf = argc - 1;
  char **families = argv + 1;
  /* Every family in double, then every family in quad (the order of the
   * lines before the checks moved). */
  for (int f = 0; vi_method_types_d[f]; f++) {
    if (cf_selected(vi_method_types_d[f]->name, nf, families)) {
      int rc = vi_conformance_d(vi_method_types_d[f], NULL, cf_report, NULL, &n);
      cf_add(&ctx, &sum, rc, &n, vi_method_types_d[f]->name, "double");
    }
  }
  for (int f = 0; vi_method_types_q[f]; f++) {
    if (cf_selected(vi_method_types_q[f]->name, nf, families)) {
      int rc = vi_conformance_q(vi_method_types_q[f], NULL, cf_report, NULL, &n);
      cf_add(&ctx, &sum, rc, &n, vi_method_types_q[f]->name, "quad");
    }
  }
  printf(
      "conformance: %d (family example, system, precision) cases, %d incompatible pairs "
      "skipped\n",
      sum.pairs, sum.skipped);
  VI_CHECK(&ctx, sum.pairs > 0, "no compatible pair at all");
  /* A family given by type goes through that type only: NULL is refused. */
  VI_CHECK(&ctx,
           vi_conformance_d(NULL, NULL, NULL, NULL, &n) == VI_EINVAL && n.checks == 0,
           "vi_conformance_d(NULL) did not refuse");
  return vi_check_done(&ctx, "conformance");
}
