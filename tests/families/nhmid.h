/* nhmid.h: the typed options of the test family nhmid
 * (tests/families/nhmid_tmpl.c), built into the test configuration only
 * (meson option test_families, set by tools/test). */
#ifndef VI_METHOD_NHMID_H
#define VI_METHOD_NHMID_H

#ifdef __cplusplus
extern "C" {
#endif

/* The gradient of V (and of each g_k) in the momentum update: at the
 * midpoint, or Gonzalez's discrete gradient, which makes the energy change
 * of a step vanish exactly (nhmid_tmpl.c). */
typedef enum vi_nhmid_gradient {
  VI_NHMID_MIDPOINT = 0,
  VI_NHMID_GONZALEZ = 1
} vi_nhmid_gradient;

/* The extra block: the nonholonomic residual A(q_k) v_k + a(q_k) at the
 * nodes (phi_end, O(h^2): the constraint is enforced at the midpoints) or
 * the holonomic residual g(q_k) (g_end, m reals: enforced at the nodes,
 * so at round-off, declared exact; none on a system without g). */
typedef enum vi_nhmid_extra {
  VI_NHMID_EXTRA_PHI = 0,
  VI_NHMID_EXTRA_G = 1
} vi_nhmid_extra;

typedef struct vi_nhmid_opts {
  int gradient; /* vi_nhmid_gradient */
  int extra;    /* vi_nhmid_extra */
} vi_nhmid_opts;

#ifdef __cplusplus
}
#endif
#endif
