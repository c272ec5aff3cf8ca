/* common.h: the untemplated part of the vistudy API, one header per
 * subject: status codes (status.h), precisions (precision.h), the kinds of
 * numerical building blocks (numerics.h), system metadata (system_info.h),
 * option tables (options.h), the typed drivers (drivers.h) and the
 * vocabulary of what is measured at a node (measures.h).
 *
 * Everything that depends on the working precision lives in the templated
 * headers (numerics_tmpl.h, api_tmpl.h), declared for both precisions by
 * vistudy.h; each method family's typed options in core/methods/NAME.h,
 * gathered by vistudy_methods.h (generated from methods.def). */
#ifndef VI_COMMON_H
#define VI_COMMON_H

#include "status.h"
#include "precision.h"
#include "numerics.h"
#include "system_info.h"
#include "options.h"
#include "drivers.h"
#include "measures.h"

#endif
