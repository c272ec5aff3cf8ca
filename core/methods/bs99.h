/* bs99.h: the typed options of the family bs99 (the Bobenko-Suris
 * discrete Lagrange top; core/methods/bs99_tmpl.c) for the typed
 * constructor vi_stepper_alloc_opts, beside the spec string "bs99". */
#ifndef VI_METHOD_BS99_H
#define VI_METHOD_BS99_H

#ifdef __cplusplus
extern "C" {
#endif

/* BS99 is one scheme without options; the member only makes the struct
 * valid C (pass a zeroed struct). */
typedef struct vi_bs99_opts {
  int reserved;
} vi_bs99_opts;

#ifdef __cplusplus
}
#endif
#endif
