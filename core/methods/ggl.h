/* ggl.h: the typed options of the family ggl (betsch-ggl §4; core/methods/ggl_tmpl.c)
 * for the typed constructor vi_stepper_alloc_opts, beside the spec strings
 * ggl:key=value,... */
#ifndef VI_METHOD_GGL_H
#define VI_METHOD_GGL_H

/* Relative to this file: found from core/ and from an installed vistudy/. */
#include "../numerics.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The discrete constraint of a scheme: VI-S's (52)-(55), option A (77) or
 * option B (80). */
enum { VI_GGL_S = 0, VI_GGL_A = 1, VI_GGL_B = 2 };
/* The Newton guess of a step (betsch-ggl Table 2): the previous step's
 * unknowns, or those with q extrapolated by h times the last velocity. */
enum { VI_GUESS_SIMPLE = 0, VI_GUESS_ADVANCED = 1 };

typedef struct vi_ggl_opts {
  int option;   /* VI_GGL_S, VI_GGL_A, VI_GGL_B */
  int theta4;   /* theta in quarters: 0..4 (theta = theta4 / 4) */
  int vartheta4; /* vartheta in quarters: 1..4 */
  int guess;    /* VI_GUESS_SIMPLE or VI_GUESS_ADVANCED */
} vi_ggl_opts;

#ifdef __cplusplus
}
#endif
#endif
