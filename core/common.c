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

static const char *const solver_kind_names[VI_SOLVER_NKINDS] = {
    [VI_SOLVER_AUTO] = "auto",
    [VI_SOLVER_NEWTON] = "newton",
    [VI_SOLVER_KINSOL] = "kinsol",
    [VI_SOLVER_SIMPLIFIED] = "simplified",
    [VI_SOLVER_CHORD] = "chord",
    [VI_SOLVER_FIXED_POINT] = "fixed-point"};
static const char *const lu_precision_names[] = {
    [VI_LU_AUTO] = "auto", [VI_LU_WORKING] = "working", [VI_LU_DOUBLE] = "double"};

static int name_index(const char *const *names, int n, const char *s) {
  for (int i = 0; s && i < n; i++) {
    if (strcmp(s, names[i]) == 0) {
      return i;
    }
  }
  return -1;
}

const char *vi_solver_kind_name(int kind) {
  return kind >= 0 && kind < VI_SOLVER_NKINDS ? solver_kind_names[kind] : "unknown";
}

int vi_solver_kind_parse(const char *s, int *kind) {
  int i = name_index(solver_kind_names, VI_SOLVER_NKINDS, s);
  if (i < 0) {
    return -1;
  }
  *kind = i;
  return 0;
}

const char *vi_lu_precision_name(int lu) {
  return lu >= 0 && lu <= VI_LU_DOUBLE ? lu_precision_names[lu] : "unknown";
}

int vi_lu_precision_parse(const char *s, int *lu) {
  int i = name_index(lu_precision_names, VI_LU_DOUBLE + 1, s);
  if (i < 0) {
    return -1;
  }
  *lu = i;
  return 0;
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
