/* man2020.h: the typed options of the family man2020 (man2020; core/methods/man2020_tmpl.c)
 * for the typed constructor vi_stepper_alloc_opts, beside the spec strings
 * man2020:key=value,... */
#ifndef VI_METHOD_MAN2020_H
#define VI_METHOD_MAN2020_H

/* Relative to this file: found from core/ and from an installed vistudy/. */
#include "../numerics.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vi_man2020_opts {
  int m;     /* points per step */
  int ctrl;  /* vi_ctrl */
  int quadU; /* vi_rule of the unconstrained term */
  int quadC; /* vi_rule of the constrained term */
} vi_man2020_opts;

#ifdef __cplusplus
}
#endif
#endif
