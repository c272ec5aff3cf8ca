/* common.c: the non-templated helpers of common.h: status messages from the
 * one X-macro list (status.def), precision names, parameter counts. */
#include "common.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *vi_strerror(int status) {
  switch (status) {
#define VI_STATUS(name, value, msg) \
  case value:                       \
    return msg;
#include "status.def"
#undef VI_STATUS
  default:
    return "unknown status";
  }
}

int vi_precision_parse(const char *s, vi_precision *p) {
  if (s && strcmp(s, "double") == 0) {
    *p = VI_DOUBLE;
    return 0;
  }
  if (s && strcmp(s, "quad") == 0) {
    *p = VI_QUAD;
    return 0;
  }
  return -1;
}

const char *vi_precision_name(vi_precision p) {
  return p == VI_QUAD ? "quad" : "double";
}

int vi_system_info_nvalues(const vi_system_info *info) {
  int k = 0;
  for (const vi_param *p = info->params; p->name; p++) {
    k += p->count;
  }
  return k;
}

void vi_set_err(char *err, size_t errlen, const char *fmt, ...) {
  if (err == NULL || errlen == 0) {
    return;
  }
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
}

const char *vi_param_domain_text(int domain) {
  switch (domain) {
  case VI_PARAM_POSITIVE:
    return "> 0";
  case VI_PARAM_NONNEG:
    return ">= 0";
  case VI_PARAM_NATURAL:
    return "a whole number >= 0";
  case VI_PARAM_COORDS:
    return "any finite number, one per coordinate";
  case VI_PARAM_ROTATION:
    return "a rotation matrix (row-major)";
  default:
    return "any finite number";
  }
}
