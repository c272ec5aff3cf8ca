/* check.h: the few assertion helpers the test programs share. A test
 * program counts its failures in a local vi_check_ctx and exits non-zero
 * when any check failed; meson collects the programs into suites. */
#ifndef VI_TEST_CHECK_H
#define VI_TEST_CHECK_H

#include <stdio.h>
#include <string.h>

typedef struct vi_check_ctx {
  int checks;
  int failures;
} vi_check_ctx;

#define VI_CHECK(ctx, cond, ...)                                          \
  do {                                                                    \
    (ctx)->checks++;                                                      \
    if (!(cond)) {                                                        \
      (ctx)->failures++;                                                  \
      fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                \
      fprintf(stderr, __VA_ARGS__);                                       \
      fputc('\n', stderr);                                                \
    }                                                                     \
  } while (0)

/* A report callback of vi_system_check: counts the lines and the failed
 * ones, and prints them unless quiet. */
typedef struct vi_report_ctx {
  int lines;
  int failed_lines;
  int quiet;
} vi_report_ctx;

static inline void vi_report_line(void *ctx, const char *line) {
  vi_report_ctx *r = (vi_report_ctx *)ctx;
  r->lines++;
  if (strstr(line, "ok") == NULL || strstr(line, "FAIL") != NULL) {
    r->failed_lines++;
  }
  if (!r->quiet) {
    printf("  %s\n", line);
  }
}

static inline int vi_check_done(const vi_check_ctx *ctx, const char *name) {
  printf("%s: %d checks, %d failed\n", name, ctx->checks, ctx->failures);
  return ctx->failures ? 1 : 0;
}

#endif
