/* api.c: the per-precision tables of entry points (vi_api_d, vi_api_q,
 * defined by each precision's run_tmpl.c) for untemplated callers, as
 * dav1d reaches its bit depths through function tables. */
#include "vistudy.h"

const vi_api *vi_api_of(vi_precision p) {
  return p == VI_QUAD ? &vi_api_q : &vi_api_d;
}
