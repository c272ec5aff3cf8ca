/* vprk.h: the typed options of the family vprk (tyranowski2014; core/methods/vprk_tmpl.c)
 * for the typed constructor vi_stepper_alloc_opts, beside the spec strings
 * vprk:key=value,... */
#ifndef VI_METHOD_VPRK_H
#define VI_METHOD_VPRK_H

/* Relative to this file: found from core/ and from an installed vistudy/. */
#include "../numerics.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The tableau pairs of vprk (tyranowski2014 §4, §5): a for Q, abar for P,
 * common weights b. Gauss (abar = a, its own symplectic conjugate), Radau
 * IIA (abar = a; not variational, stiffly accurate), Lobatto IIIA-IIIB
 * (a = IIIA, abar = IIIB, the symplectic conjugate of IIIA). */
typedef enum vi_vprk_tableau {
  VI_VPRK_GAUSS = 0,
  VI_VPRK_RADAU_IIA = 1,
  VI_VPRK_LOBATTO_IIIA_IIIB = 2
} vi_vprk_tableau;

typedef struct vi_vprk_opts {
  int tableau; /* vi_vprk_tableau */
  int s;       /* stages */
} vi_vprk_opts;

#ifdef __cplusplus
}
#endif
#endif
