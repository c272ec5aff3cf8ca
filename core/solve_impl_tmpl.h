/* solve_impl_tmpl.h: the inside of a nonlinear solver (vi_solver, api_tmpl.h)
 * as its backends see it: the solver object and the small ops table each
 * backend is (design.md, "Numbers": precision-specific algorithms sit in
 * their own files behind an ops table, not in #if islands). The built-in
 * dense Newton (solve_tmpl.c) serves every precision; KINSOL
 * (solve_kinsol.c) is built into the double library only, and the quad
 * library's KINSOL slot (solve_nokinsol.c) holds only the reason it is
 * refused. Not part of the public API.
 *
 * No include guard: included once by a translation unit of the solver. */
#include "prec.h"
#include "numerics_tmpl.h"
#include "api_tmpl.h"

/* A backend: run once per solver at alloc (init, may be NULL), at every
 * solve (solve), and at free (fini, may be NULL; also after a failed init).
 * state_size bytes of private state are allocated with the solver (s->impl,
 * zeroed, 16-byte aligned), so that solving allocates nothing. A backend
 * the working precision cannot offer has unavailable set (why, with what
 * to use instead) and no functions. */
typedef struct vi_solver_backend {
  const char *unavailable;
  size_t state_size;
  int (*init)(VI_X(vi_solver) *s);
  int (*solve)(VI_X(vi_solver) *s, VI_REAL *x, vi_solve_counts *c);
  void (*fini)(VI_X(vi_solver) *s);
} vi_solver_backend;

/* The solver object: the problem, the options and the scratch every
 * backend shares (F, J, dx, unit and x0 are N, N x N, N, N and N reals;
 * with the LU in double below a working precision wider than double, Jd
 * and bd are N x N and N doubles after them, else NULL; then piv, N
 * pivots), then the backend's own state. */
struct VI_X(vi_solver) {
  VI_X(vi_solver_opts) opts;
  int N;
  VI_X(vi_resjac_fn) fn;
  VI_X(vi_lead_fn) lead; /* the leading part (fixed-point iteration) */
  void *ctx;
  VI_REAL *F, *J, *dx;
  VI_REAL *unit; /* absolute scale of each unknown (default 1) */
  VI_REAL *x0;   /* simplified Newton: the initial guess, for a restart */
  int *piv;
  double *Jd, *bd; /* the double LU and right-hand side (VI_LU_DOUBLE) */
  int lu_valid;     /* simplified Newton: the LU of a kept Jacobian is in
                       J (or Jd) */
  int lu_working;     /* the LU in double did not contract: factor in the
                         working precision from now on */
  const vi_solver_backend *backend;
  void *impl; /* backend->state_size bytes, NULL when 0 */
};

/* The converged-step bound of a round-off floor (|dx|_w <= STALL_FACTOR):
 * the built-in Newton accepts a stalled iteration below it, and KINSOL's
 * scaled-step test stops at STALL_FACTOR rtol. */
#define VI_SOLVER_STALL_FACTOR VI_C(1e3)

/* The KINSOL backend of this precision: solve_kinsol.c in double,
 * solve_nokinsol.c (unavailable) in quad. */
extern const vi_solver_backend VI_X(vi_solver_kinsol);

/* The double LU (linalg_tmpl.c built in double), which the LU in double of
 * a wider working precision calls (in the double library these repeat
 * numerics_tmpl.h's declarations). */
int vi_lu_factor_d(int n, double *A, int *piv);
void vi_lu_solve_d(int n, const double *LU, const int *piv, double *x);
