/* nhprk.h: the typed options of the family nhprk (demartin2018 (14), App. D;
 * its Lie-group branch §6.4, App. F;
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

/* The second-tangent term K^i = (ddcay_{Xi^i})*(H^i, Pi^i) of the
 * Lie-group branch (demartin2018 (26), App. F): on (the paper's method),
 * or off, which is not the paper's method: it shows that the term is
 * essential (reading notes, pitfall P10: q, p and lambda of order 1).
 * Only Lie-group systems take off (a vector space has no such term). */
typedef enum vi_nhprk_ddcay { VI_NHPRK_DDCAY_ON = 0, VI_NHPRK_DDCAY_OFF = 1 } vi_nhprk_ddcay;

typedef struct vi_nhprk_opts {
  int s;       /* Lobatto IIIA-IIIB stages, s >= 2 */
  int lambda0; /* vi_nhprk_lambda0 */
  int ddcay;   /* vi_nhprk_ddcay */
} vi_nhprk_opts;

#ifdef __cplusplus
}
#endif
#endif
