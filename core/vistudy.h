/* vistudy.h: the public API in both precisions, for non-templated code
 * (CLI, studies, tests, the C++ bench shim). Templated functions carry the
 * suffix _d (double) or _q (__float128). */
#ifndef VI_VISTUDY_H
#define VI_VISTUDY_H

#include "common.h"
#include "vistudy_methods.h"

#include "prec.h"
#include "numerics_tmpl.h"
#include "api_tmpl.h"
#include "prec_undef.h"

#define VI_PREC_Q
#include "prec.h"
#include "numerics_tmpl.h"
#include "api_tmpl.h"
#include "prec_undef.h"

#endif
