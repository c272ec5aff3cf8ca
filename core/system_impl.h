/* system_impl.h: the private side of system instances, shared by the files
 * that implement them and by nobody else: system_tmpl.c (the instance and
 * the public services, which dispatch once through the form table),
 * form_mech_tmpl.c, form_degen_tmpl.c and form_lie_tmpl.c (one per
 * Lagrangian form), nh_tmpl.c (the nonholonomic rows) and
 * system_check_tmpl.c (the derivative checker). It holds
 *   - the private part of an instance (sys_impl: the public struct, the form
 *     table chosen at allocation, the mass matrix and its inverse),
 *   - the form table (vi_form_impl): what each public service does in one
 *     form, NULL where the form has no such service (VI_EUNSUPPORTED),
 *   - the derivative pairs the checker iterates (vi_fd_pair: a function and
 *     its hand-written derivative, declared as data next to each ops table),
 *   - the kernels' stack scratch and the small linear algebra the forms
 *     share.
 * The dependencies between the implementation files are acyclic: the forms
 * use this header, nh_tmpl.c (the rows A, a) and the checker's drivers;
 * nh_tmpl.c and system_check_tmpl.c use this header only; system_tmpl.c
 * uses the three form tables.
 *
 * Included once by templated translation units (prec.h first); it brings
 * the numerics and the public API of the working precision. */
#ifndef VI_SYSTEM_IMPL_H
#define VI_SYSTEM_IMPL_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "prec.h"
#include "numerics_tmpl.h"
#include "api_tmpl.h"

/* ---- scratch space of the kernels ------------------------------------------
 *
 * The kernels (energy, hidden, project_p, accel, lambda, nh_residual, dGv,
 * minv_apply) are called inside steps, where nothing may allocate: their
 * scratch lives on the stack up to these sizes and only larger systems fall
 * back to the heap. The largest need, with n coordinates, m holonomic and k
 * nonholonomic rows (ml = m + k) and a configuration-dependent M (cm):
 *   vi_system_lambda, mechanical: 2 ml n + ml^2 + k n + m n + n^2 + 2n + m
 *     + VI_MINV_WORK + VI_FORCE_WORK (VI_MECH_LAMBDA_WORK: the rows, B, S,
 *     D_q Phi, D_q(G v), v, f, the contracted Hessian and its unit mu);
 *   vi_system_lambda, Lie form: n (xi), then n^2 + n (the Legendre map) or
 *     2n^2 + 4n + 3kn + k^2 (the dynamics; VI_LIE_LAMBDA_WORK);
 *   vi_system_accel: max(m, k) n + n + VI_MINV_WORK + VI_FORCE_WORK.
 * The stack size covers every system with n <= 12 and ml <= 12 (the
 * gyroscopic top in director form: n = 12, ml up to 12), checked below at
 * compile time and by tests/test_system_services.c (test_scratch: it counts
 * allocations). */
#define VI_MINV_WORK(n, cm) ((cm) ? 2 * (n) * (n) + (n) : 0)
#define VI_FORCE_WORK(n, cm) ((cm) ? (n) + (n) * (n) : 0)
#define VI_MECH_LAMBDA_WORK(n, m, k, cm)                                                      \
  (2 * ((m) + (k)) * (n) + ((m) + (k)) * ((m) + (k)) + (k) * (n) + (m) * (n) + (n) * (n) +    \
   2 * (n) + (m) + VI_MINV_WORK(n, cm) + VI_FORCE_WORK(n, cm))
#define VI_LIE_LAMBDA_WORK(n, k) (2 * (n) * (n) + 4 * (n) + 3 * (k) * (n) + (k) * (k))
#define VI_SYS_STACK_REALS 1280
#define VI_SYS_STACK_INTS 64
_Static_assert(VI_MECH_LAMBDA_WORK(12, 0, 12, 1) <= VI_SYS_STACK_REALS &&
                   VI_MECH_LAMBDA_WORK(12, 12, 0, 1) <= VI_SYS_STACK_REALS &&
                   VI_MECH_LAMBDA_WORK(12, 6, 6, 1) <= VI_SYS_STACK_REALS &&
                   VI_LIE_LAMBDA_WORK(12, 12) <= VI_SYS_STACK_REALS &&
                   2 * 12 + 12 <= VI_SYS_STACK_INTS,
               "the kernels' stack scratch must cover n = 12, ml = 12");

typedef struct scratch {
  VI_REAL *w;
  int *piv;
  VI_REAL wbuf[VI_SYS_STACK_REALS];
  int pbuf[VI_SYS_STACK_INTS];
} scratch;

static inline int scratch_get(scratch *s, size_t nreal, size_t nint) {
  s->w = nreal <= VI_SYS_STACK_REALS ? s->wbuf : malloc(nreal * sizeof *s->w);
  s->piv = nint <= VI_SYS_STACK_INTS ? s->pbuf : malloc(nint * sizeof *s->piv);
  if (s->w == NULL || s->piv == NULL) {
    if (s->w != s->wbuf) {
      free(s->w);
    }
    if (s->piv != s->pbuf) {
      free(s->piv);
    }
    return VI_ENOMEM;
  }
  return VI_OK;
}

static inline void scratch_put(scratch *s) {
  if (s->w != s->wbuf) {
    free(s->w);
  }
  if (s->piv != s->pbuf) {
    free(s->piv);
  }
}

/* ---- small linear algebra shared by the forms ------------------------------ */

/* y = A x for the r x c row-major A. */
static inline void matvec(int r, int c, const VI_REAL *A, const VI_REAL *x, VI_REAL *y) {
  for (int i = 0; i < r; i++) {
    VI_REAL s = 0;
    for (int j = 0; j < c; j++) {
      s += A[i * c + j] * x[j];
    }
    y[i] = s;
  }
}

/* Invert the n x n matrix A (destroyed: its LU) column by column into Ainv;
 * col holds n reals. */
static inline int invert(int n, VI_REAL *A, VI_REAL *Ainv, VI_REAL *col, int *piv) {
  if (VI_X(vi_lu_factor)(n, A, piv) != VI_OK) {
    return VI_SINGULAR;
  }
  for (int j = 0; j < n; j++) {
    for (int i = 0; i < n; i++) {
      col[i] = i == j;
    }
    VI_X(vi_lu_solve)(n, A, piv, col);
    for (int i = 0; i < n; i++) {
      Ainv[i * n + j] = col[i];
    }
  }
  return VI_OK;
}

/* ---- the private part of an instance ------------------------------------- */

typedef struct vi_form_impl vi_form_impl;

/* One allocation: this struct (the public one first, so a vi_system
 * pointer is a sys_impl pointer), the real arrays and the type's state. */
typedef struct sys_impl {
  VI_X(vi_system) pub;
  const vi_form_impl *form; /* chosen once, at allocation */
  /* Mechanical form: M (n x n; M(q0) when it depends on q) and its
   * inverse, NULL for the other forms. Read through the mass services
   * (vi_system_mass_at, vi_system_minv_at, ...), never directly. */
  VI_REAL *M, *Minv;
  int config_mass; /* M depends on q */
} sys_impl;

static inline const sys_impl *impl_of(const VI_X(vi_system) *sys) {
  return (const sys_impl *)(const void *)sys;
}

/* ---- derivative pairs (the checker's data) --------------------------------
 *
 * A pair is a function f and the hand-written derivative of one of its
 * arguments, declared next to the ops table it checks (form_*_tmpl.c,
 * nh_tmpl.c). The checker's drivers (system_check_tmpl.c) evaluate both at
 * probe points and compare against central differences along the
 * directions the pair names. */

/* The fixed arguments of a probe point. */
typedef struct fd_point {
  const VI_REAL *q;   /* configuration (nq reals; a group element for the Lie form) */
  const VI_REAL *v;   /* velocity (mechanical v, Lie xi; n) */
  const VI_REAL *w;   /* the velocity argument of D_q Phi(q, w) (n) */
  const VI_REAL *mu;  /* multipliers of contracted derivatives (ml, or n) */
  const VI_REAL *X;   /* Lie form: the base point of dcay (n) */
  const VI_REAL *eta; /* Lie form: the algebra element moved by Ad (n) */
} fd_point;

/* Which argument the derivative is taken in. */
enum {
  FD_CONFIG, /* q: its coordinates, or on a group the left-trivialised
              * directions g cay(eps e_b) */
  FD_VEL,    /* the coordinates of the velocity argument x (Lie xi) */
  FD_ALG,    /* the coordinates of x around the point's X (dcay) */
  FD_CHART   /* x around 0 in the chart g cay(x) (the group maps) */
};

/* The number of values of f. */
enum { FD_ROWS_1, FD_ROWS_N, FD_ROWS_M, FD_ROWS_MNH, FD_ROWS_NQ };

typedef struct vi_fd_pair {
  const char *name; /* in the report ("grad_potential", "lie dxi", ...) */
  int dir;          /* FD_CONFIG, FD_VEL, FD_ALG or FD_CHART */
  int rows;         /* FD_ROWS_*: the values of f */
  /* Whether the pair applies to this system (NULL: always); a pair that
   * applies and whose derivative is missing fails the check. */
  int (*applies)(const sys_impl *s);
  /* f at the configuration q and the vector argument x: for FD_CONFIG
   * pairs q is the moved configuration and x the point's velocity; for the
   * others q is the point's configuration and x the moved argument. tmp
   * holds VI_FD_TMP reals. Returns the callback's status. */
  int (*f)(const sys_impl *s, const fd_point *pt, const VI_REAL *q, const VI_REAL *x,
           VI_REAL *out, VI_REAL *tmp);
  /* The derivative at the point into J (rows x n, row-major); *have = 0
   * (and nothing called) when the system's table does not supply it. */
  int (*df)(const sys_impl *s, const fd_point *pt, VI_REAL *J, int *have, VI_REAL *tmp);
} vi_fd_pair;

/* The temporary of a pair's functions: n^2 + n reals (M(q) and M(q) v),
 * the rows of G or A (ml n), or 4 group elements (4 nq). */
#define VI_FD_TMP(n, nq, ml) ((n) * (n) + (n) + (ml) * (n) + 4 * (nq))

/* A run of the checker: what each line is written to and the failures. */
typedef struct fd_run {
  const sys_impl *s;
  const char *name; /* the system's */
  void (*report)(void *ctx, const char *line);
  void *ctx;
  int failures;
  VI_REAL *J, *D, *tmp; /* n_max x n, twice, and the pairs' temporary */
  int unchecked; /* pairs whose differences could not stay in the domain */
} fd_run;

/* A check of its own at every probe (e.g. the declared affine alpha): 0 or
 * a status < 0 (the check cannot run). where names the probe. */
typedef int (*fd_hook)(fd_run *r, const fd_point *pt, int probe, const char *where);

void VI_X(vi_fd_line)(fd_run *r, const char *line);

/* The two drivers of the checker (system_check_tmpl.c): coordinates of R^n
 * with Richardson-extrapolated differences (mechanical and degenerate
 * forms), and a Lie group with central differences along its directions. */
int VI_X(vi_check_coords)(const sys_impl *s, int nprobe, void (*report)(void *, const char *),
                          void *ctx);
int VI_X(vi_check_group)(const sys_impl *s, int nprobe, void (*report)(void *, const char *),
                         void *ctx);

/* ---- the form table ---------------------------------------------------- */

struct vi_form_impl {
  const char *name;
  int has_velocity; /* the type's initial() fills v0 (not the degenerate form) */
  /* Allocation, after the type's initial data (q0, v0) was read and found
   * finite: check it against the constraints (refusing data off them
   * beyond VI_CONSISTENCY_TOL unless project_any), project it, and fill p0,
   * v0 and the private mass matrices. A message in err on failure. */
  int (*setup)(sys_impl *s, int project_any, char *err, size_t errlen);
  /* vi_system_project: (q, v) onto the constraints, p the momentum. */
  int (*project)(const sys_impl *s, VI_REAL *q, VI_REAL *v, VI_REAL *p);
  int (*energy)(const sys_impl *s, const VI_REAL *q, const VI_REAL *p, VI_REAL *E);
  int (*lambda)(const sys_impl *s, const VI_REAL *q, const VI_REAL *p, VI_REAL *lambda);
  int (*nh_residual)(const sys_impl *s, const VI_REAL *q, const VI_REAL *p, VI_REAL *r);
  /* Mechanical form. */
  int (*hidden)(const sys_impl *s, const VI_REAL *q, const VI_REAL *p, VI_REAL *gv);
  int (*project_rows)(const sys_impl *s, const VI_REAL *q, VI_REAL *p, int mask);
  int (*mass_at)(const sys_impl *s, const VI_REAL *q, VI_REAL *work, const VI_REAL **M);
  int (*minv_at)(const sys_impl *s, const VI_REAL *q, VI_REAL *work, const VI_REAL **Minv);
  int (*minv_apply)(const sys_impl *s, const VI_REAL *q, const VI_REAL *p, VI_REAL *v);
  int (*kinetic)(const sys_impl *s, const VI_REAL *q, const VI_REAL *v, VI_REAL *dTdq,
                 VI_REAL *DqMv, VI_REAL *Tqq);
  int (*lagr)(const sys_impl *s, const VI_REAL *q, const VI_REAL *v, VI_REAL *mLq,
              VI_REAL *Lv, VI_REAL *mLqq, VI_REAL *Mq, VI_REAL *Dq, VI_REAL *work);
  int (*accel)(const sys_impl *s, const VI_REAL *q, const VI_REAL *p, const VI_REAL *lambda,
               VI_REAL *v, VI_REAL *a);
  int (*dGv)(const sys_impl *s, const VI_REAL *q, const VI_REAL *v, VI_REAL *J);
  /* Degenerate form. */
  int (*defect)(const sys_impl *s, const VI_REAL *q, const VI_REAL *p, VI_REAL *d);
  int (*velocity)(const sys_impl *s, const VI_REAL *q, VI_REAL *qdot);
  /* Lie-group form. */
  int (*lie_xi)(const sys_impl *s, const VI_REAL *g, const VI_REAL *mu, VI_REAL *xi);
  int (*lie_rhs)(const sys_impl *s, const VI_REAL *g, const VI_REAL *xi, VI_REAL *gdot,
                 VI_REAL *xidot, VI_REAL *lambda);
  /* The derivative check: its driver, the pair tables in report order
   * (NULL terminated; each table ends with name == NULL) and the form's own
   * checks at each probe, before and after the pairs (may be NULL). */
  int (*check)(const sys_impl *s, int nprobe, void (*report)(void *, const char *), void *ctx);
  const vi_fd_pair *const *pairs;
  fd_hook probe_pre, probe_post;
};

extern const vi_form_impl VI_X(vi_form_mech);
extern const vi_form_impl VI_X(vi_form_degen);
extern const vi_form_impl VI_X(vi_form_lie);

/* Which velocity constraints vi_form_mech.project_rows projects onto. */
enum { PK_HOLO = 1, PK_NH = 2 };

/* ---- the nonholonomic rows (nh_tmpl.c) --------------------------------- */

/* A(q) (m_nh x n) and, with a non-NULL, a(q) (zeros when the type has
 * none). */
int VI_X(vi_nh_rows)(const sys_impl *s, const VI_REAL *q, VI_REAL *A, VI_REAL *a);
/* Phi(q, w) = A(q) w + a(q) (m_nh values), summed from a_i in the order of
 * w; work: m_nh n reals. */
int VI_X(vi_nh_phi)(const sys_impl *s, const VI_REAL *q, const VI_REAL *w, VI_REAL *r,
                    VI_REAL *work);
/* The pairs of vi_nh_ops: D_q Phi(q, w) and D_q(A(q)' mu). */
extern const vi_fd_pair VI_X(vi_nh_pairs)[];

#endif /* VI_SYSTEM_IMPL_H */
