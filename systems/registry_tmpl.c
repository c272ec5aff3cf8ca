/* registry_tmpl.c: the NULL-terminated list of system types in the working
 * precision, built from systems/systems.def so that the list is kept in one
 * place (no runtime registration, no mutable state; dav1d and GSL odeiv2
 * export their tables the same way). The double and quad lists are
 * parallel because both are built from the same .def; lookup by name.
 * Compiled once per precision. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "prec.h"
#include "numerics_tmpl.h"
#include "api_tmpl.h"

/* The test-only systems are registered in the test configuration only
 * (meson option test_families). */
#ifdef VI_WITH_TEST_FAMILIES
#define VI_TEST_SYSTEM(id) VI_SYSTEM(id)
#endif

#define VI_SYSTEM(id) extern const VI_X(vi_system_type) VI_X(vi_sys_##id);
#include "systems.def"
#undef VI_SYSTEM

const VI_X(vi_system_type) *const VI_X(vi_system_types)[] = {
#define VI_SYSTEM(id) &VI_X(vi_sys_##id),
#include "systems.def"
#undef VI_SYSTEM
    NULL,
};
#ifdef VI_WITH_TEST_FAMILIES
#undef VI_TEST_SYSTEM
#endif

const VI_X(vi_system_type) *VI_X(vi_system_find)(const char *name, char *err,
                                                 size_t errlen) {
  for (int i = 0; VI_X(vi_system_types)[i]; i++) {
    if (name && strcmp(VI_X(vi_system_types)[i]->info->name, name) == 0) {
      return VI_X(vi_system_types)[i];
    }
  }
  int k = snprintf(err, errlen, "unknown system '%s'; valid:", name ? name : "");
  for (int i = 0; VI_X(vi_system_types)[i] && k > 0 && (size_t)k < errlen; i++) {
    k += snprintf(err + k, errlen - (size_t)k, " %s",
                  VI_X(vi_system_types)[i]->info->name);
  }
  return NULL;
}
