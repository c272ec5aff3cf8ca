/* precision.h: the two working precisions (double, __float128) as seen by
 * untemplated code, and the real type that carries a number between them */
#ifndef VI_PRECISION_H
#define VI_PRECISION_H


#ifdef __cplusplus
extern "C" {
#endif

/* Precisions a numeric object can be built in. */
typedef enum vi_precision { VI_DOUBLE = 0, VI_QUAD = 1 } vi_precision;

/* Parse "double" or "quad"; returns 0 and sets *p, or -1. */
int vi_precision_parse(const char *s, vi_precision *p);
const char *vi_precision_name(vi_precision p);

/* A real number passed between untemplated code and the drivers of either
 * precision: __float128 holds every double exactly, so a number parsed in
 * the working precision (vi_api.parse_real) reaches the driver unchanged. */
typedef __float128 vi_wide;

#ifdef __cplusplus
}
#endif
#endif
