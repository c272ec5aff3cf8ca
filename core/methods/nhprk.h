/* nhprk.h: the typed options of the family nhprk (demartin2018 (14), App. D;
 * core/methods/nhprk_tmpl.c) for the typed constructor vi_stepper_alloc_opts,
 * beside the spec strings nhprk:key=value,... */
#ifndef VI_METHOD_NHPRK_H
#define VI_METHOD_NHPRK_H

#ifdef __cplusplus
extern "C" {
#endif

/* The multiplier the first step carries (Lambda^1 of step 0): the exact
 * multiplier of the continuous equations at the initial data (the
 * paper's hypothesis of Thm 5.1-5.2), or zero, which is not the paper's
 * method: it shows that a lambda_0 error is never damped (|R(inf)| = 1)
 * and degrades the orders (reading notes, pitfall P3). */
typedef enum vi_nhprk_lambda0 {
  VI_NHPRK_LAMBDA0_EXACT = 0,
  VI_NHPRK_LAMBDA0_ZERO = 1
} vi_nhprk_lambda0;

typedef struct vi_nhprk_opts {
  int s;       /* Lobatto IIIA-IIIB stages, s >= 2 */
  int lambda0; /* vi_nhprk_lambda0 */
} vi_nhprk_opts;

#ifdef __cplusplus
}
#endif
#endif
