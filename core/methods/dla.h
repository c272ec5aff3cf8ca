/* dla.h: the typed options of the family dla (core/methods/dla_tmpl.c:
 * McLachlan & Perlmutter's second-order discrete Lagrange-d'Alembert
 * integrator, J. Nonlinear Sci. 16 (2006) eq. (4.18)) for the typed
 * constructor vi_stepper_alloc_opts, beside the spec strings
 * dla:key=value,... */
#ifndef VI_METHOD_DLA_H
#define VI_METHOD_DLA_H

#ifdef __cplusplus
extern "C" {
#endif

/* The point qbar of a step where the potential force and the constraint
 * force act: the leapfrog point q_k + h/2 M^-1 p_k (McLachlan-Perlmutter
 * (4.18), as odelab's McLachlan scheme reads it), or the midpoint
 * (q_k + q_{k+1})/2 of the midpoint discrete Lagrangian h L((q_k +
 * q_{k+1})/2, (q_{k+1} - q_k)/h). Both are symmetric and of order 2. */
typedef enum vi_dla_point { VI_DLA_LEAPFROG = 0, VI_DLA_MIDPOINT = 1 } vi_dla_point;

typedef struct vi_dla_opts {
  int point; /* vi_dla_point */
} vi_dla_opts;

#ifdef __cplusplus
}
#endif
#endif
