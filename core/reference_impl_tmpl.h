/* reference_impl_tmpl.h: the inside of the reference solutions (vi_reference,
 * reference_tmpl.c) as its integrators see it: the right-hand side of the
 * equations of motion with its scratch and failure record, the services on
 * the nodes of a reference (multipliers, differences, scales), and the
 * small ops table an integrator is (design.md, "Numbers": precision-specific
 * algorithms in their own files behind an ops table, not in #if islands).
 * Each precision's library holds one integrator, vi_ref_integrator:
 * GSL's rk8pd in double (reference_rk8pd.c), the s = 8 Gauss-Legendre
 * IRK in quad (reference_irk.c). Not part of the public API.
 *
 * No include guard: included once by a translation unit of the reference. */
#include "prec.h"
#include "numerics_tmpl.h"
#include "api_tmpl.h"

#include <stddef.h>

static inline VI_REAL rmax(VI_REAL a, VI_REAL b) {
  return a > b ? a : b;
}

/* Scratch and failure record of the right-hand side. The first failure is
 * kept (status and a message naming the callback) so that the driver can
 * report it after the integrator gives up. */
typedef struct vi_ref_rhs {
  const VI_X(vi_system) *sys;
  VI_REAL *dV;  /* n */
  VI_REAL *G;   /* m x n */
  VI_REAL *lam; /* m */
  VI_REAL *Minv, *v, *dT; /* n x n, n, n: M(q)^-1, M^-1 p, dT/dq (M(q)) */
  VI_REAL *Da;  /* degenerate form: Dalpha (n x n); Minv holds Dalpha' - Dalpha */
  int *piv;     /* n pivots (degenerate form) */
  const char *form; /* the equations integrated, for the method text */
  const VI_REAL *y0p; /* second half of the initial state: p0, or xi0 (Lie form) */
  int status;
  char msg[200];
} vi_ref_rhs;

/* dy = f(y) at y = (q, p) (or (g, xi) in the Lie form), the equations of
 * the system's form (reference_tmpl.c). Returns VI_OK or a status, the
 * first failure recorded in c. */
int VI_X(vi_ref_rhs_eval)(vi_ref_rhs *c, const VI_REAL *y, VI_REAL *dy);
/* Record a failure in c unless one is recorded already. */
void VI_X(vi_ref_fail)(vi_ref_rhs *c, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Rows 0..K of P hold xi (Lie form): replace each by mu = D2 l(g, xi); a
 * no-op for the other forms. */
int VI_X(vi_ref_lie_to_mu)(vi_ref_rhs *c, long K, const VI_REAL *Q, VI_REAL *P);
/* The multipliers (70) at the nodes 0..K of a reference (Q, P) into L. */
int VI_X(vi_ref_node_lambdas)(vi_ref_rhs *c, long K, const VI_REAL *Q, const VI_REAL *P,
                              VI_REAL *L);
/* Max abs differences per block (q, p, lambda) of two references over the
 * nodes k = 0, stride, 2 stride, ... of (Q, P, L) against the consecutive
 * nodes 0, 1, 2, ... of (Q2, P2, L2), nk of them. */
void VI_X(vi_ref_diff)(int nq, int n, int m, long nk, long stride, const VI_REAL *Q,
                       const VI_REAL *P, const VI_REAL *L, const VI_REAL *Q2,
                       const VI_REAL *P2, const VI_REAL *L2, VI_REAL d[3]);
/* Largest magnitudes of q, p and lambda over the nodes 0..K. */
void VI_X(vi_ref_scale)(int nq, int n, int m, long K, const VI_REAL *Q, const VI_REAL *P,
                        const VI_REAL *L, VI_REAL s[3]);

/* An integrator of the reference: work is the number of reals of scratch
 * W that integrate needs besides Q, P, L for K nodes (m: all multipliers);
 * integrate fills the nodes 0..K of (Q, P, L) from the system's initial
 * data with the right-hand side c, the accuracy and method text into info,
 * and on failure a message into err. */
typedef struct vi_ref_ops {
  size_t (*work)(int nq, int n, int m, long K);
  int (*integrate)(vi_ref_rhs *c, VI_REAL h, long K, VI_REAL *Q, VI_REAL *P, VI_REAL *L,
                   VI_REAL *W, VI_X(vi_reference_info) *info, char *err, size_t errlen);
} vi_ref_ops;

/* The integrator of this precision (reference_rk8pd.c in double,
 * reference_irk.c in quad). */
extern const vi_ref_ops VI_X(vi_ref_integrator);
