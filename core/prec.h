/* prec.h: the working precision of a templated translation unit.
 *
 * vistudy builds its numerics (quadrature, bases, tableaux, linear algebra,
 * systems, methods, the built-in Newton) once per precision from one source,
 * the way FFTW builds fftw/fftwq with its X(name) macro and dav1d its
 * *_tmpl.c files. A translation unit compiled with -DVI_PREC_Q works in
 * __float128 (libquadmath); otherwise in double. Every literal goes through
 * VI_C() so that 1/3 is computed in the working precision, not in double.
 *
 * This header has no include guard on purpose: core/vistudy.h includes it
 * once per precision (with prec_undef.h in between) to declare both sets of
 * templated functions for non-templated code (CLI, studies). */

#if defined(VI_PREC_Q)
#include <quadmath.h>
#define VI_REAL __float128
#define VI_X(name) name##_q
#define VI_C(x) x##Q
#define VI_EPS FLT128_EPSILON
#define VI_DIG 36
#define VI_PREC_NAME "quad"
#define vi_sqrt sqrtq
#define vi_fabs fabsq
#define vi_sin sinq
#define vi_cos cosq
#define vi_tan tanq
#define vi_asin asinq
#define vi_acos acosq
#define vi_atan2 atan2q
#define vi_exp expq
#define vi_log logq
#define vi_pow powq
#define vi_cbrt cbrtq
#define vi_floor floorq
#define vi_ldexp ldexpq
#define vi_isfinite(x) (!isinfq(x) && !isnanq(x))
#define vi_strtor(s, end) strtoflt128((s), (end))
#define VI_PI M_PIq
#else
#include <float.h>
#include <math.h>
#define VI_REAL double
#define VI_X(name) name##_d
#define VI_C(x) x
#define VI_EPS DBL_EPSILON
#define VI_DIG 17
#define VI_PREC_NAME "double"
#define vi_sqrt sqrt
#define vi_fabs fabs
#define vi_sin sin
#define vi_cos cos
#define vi_tan tan
#define vi_asin asin
#define vi_acos acos
#define vi_atan2 atan2
#define vi_exp exp
#define vi_log log
#define vi_pow pow
#define vi_cbrt cbrt
#define vi_floor floor
#define vi_ldexp ldexp
#define vi_isfinite(x) isfinite(x)
#define vi_strtor(s, end) strtod((s), (end))
#define VI_PI VI_C(3.14159265358979323846264338327950288)
#endif
