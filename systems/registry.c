/* registry.c: the NULL-terminated list of system types in the working
 * precision, built from systems/systems.def so that the list is kept in one
 * place (no runtime registration, no mutable state; dav1d and GSL odeiv2
 * export their tables the same way). The double and quad lists are
 * parallel because both are built from the same .def. Compiled once per
 * precision. */
#include <stddef.h>

#include "prec.h"
#include "numerics_tmpl.h"
#include "api_tmpl.h"

#define VI_SYSTEM(id) extern const VI_X(vi_system_type) VI_X(vi_sys_##id);
#include "systems.def"
#undef VI_SYSTEM

const VI_X(vi_system_type) *const VI_X(vi_system_types)[] = {
#define VI_SYSTEM(id) &VI_X(vi_sys_##id),
#include "systems.def"
#undef VI_SYSTEM
    NULL,
};
