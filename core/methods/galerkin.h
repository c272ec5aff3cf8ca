/* galerkin.h: the typed options of the family galerkin (wenger2017; core/methods/galerkin_tmpl.c)
 * for the typed constructor vi_stepper_alloc_opts, beside the spec strings
 * galerkin:key=value,.... A 0 in w or r means its default (w = s; r = s for
 * Gauss, s + 1 for Lobatto). */
#ifndef VI_METHOD_GALERKIN_H
#define VI_METHOD_GALERKIN_H

/* Relative to this file: found from core/ and from an installed vistudy/. */
#include "../numerics.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vi_galerkin_opts {
  int s, w, r;
  int quadL;   /* vi_rule: gauss or lobatto */
  int quadZ;   /* vi_rule: lobatto or gauss */
  int ctrl;    /* vi_ctrl */
  int project; /* 0: none, 1: P p (projection (4)) */
  int lambda;  /* 0: lambda_k^0, 1: recomputed from (70) */
  int scheme;  /* vi_galerkin_scheme: a named scheme sets its keys (where
                  they hold 0) */
} vi_galerkin_opts;
/* The named schemes of galerkin (wenger2017 §2.2; the constrained Lobatto
 * IIIA-IIIB pair: w = s-1, r = s with Lobatto rules). */
typedef enum vi_galerkin_scheme {
  VI_GALERKIN_NO_SCHEME = 0,
  VI_GALERKIN_SHAKE = 1,
  VI_GALERKIN_RATTLE = 2,
  VI_GALERKIN_LOBATTO3AB = 3
} vi_galerkin_scheme;

#ifdef __cplusplus
}
#endif
#endif
