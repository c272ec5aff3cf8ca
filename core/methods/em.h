/* em.h: the typed options of the family em (betsch-ggl §5; core/methods/em_tmpl.c)
 * for the typed constructor vi_stepper_alloc_opts, beside the spec strings
 * em:key=value,... */
#ifndef VI_METHOD_EM_H
#define VI_METHOD_EM_H

/* Relative to this file: found from core/ and from an installed vistudy/. */
#include "../numerics.h"

#ifdef __cplusplus
extern "C" {
#endif

/* EM (84)-(86) with both constraint levels and gamma, or Gonzalez's
 * index-3 scheme EM-G (primary constraints only). */
enum { VI_EM_GGL = 0, VI_EM_GONZALEZ = 1 };

typedef struct vi_em_opts {
  int variant; /* VI_EM_GGL or VI_EM_GONZALEZ */
  int guess;   /* VI_GUESS_SIMPLE (0) or VI_GUESS_ADVANCED (1), as ggl's */
} vi_em_opts;

#ifdef __cplusplus
}
#endif
#endif
