/* api_tmpl.h: the two uniform APIs in the working precision (see prec.h):
 * mechanical systems (system type + instance) and steppers (method type +
 * instance), and the nonlinear-solver options they share.
 *
 * No include guard: included once per precision (vistudy.h) or once by a
 * templated translation unit after prec.h.
 *
 * Maths contract of the mechanical form (wenger2017 (1)-(3)): the augmented
 * Lagrangian is
 *   Lbar(q, v, lambda) = 1/2 v'Mv - V(q) - g(q) . lambda,
 * so the equations of motion are M qdd = -grad V(q) - G(q)' lambda, g(q) = 0,
 * with G = Dg the m x n row-major constraint Jacobian. Momenta p = M v.
 * The degenerate form L = alpha(q) . v - H(q) has p = alpha(q) and no
 * constraints (tyranowski2014).
 * Every callback returns 0 on success, > 0 for a recoverable failure (the
 * step is refused and may be retried with a smaller h), < 0 for a fatal one. */

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- system type: one static const struct per system (systems/X.c) ----
 *
 * A system provides one table per Lagrangian form it is written in (exactly
 * one form), one per kind of constraint it has, and optional observables:
 * what a system provides is which tables are present (design.md, "The
 * system interface"). Every callback returns 0, > 0 (recoverable) or < 0
 * (fatal). Matrices are row-major. */

/* Mechanical form L = 1/2 v'M v - V(q): a constant n x n mass matrix
 * (mass), or a configuration-dependent one (mass_q and kinetic instead of
 * mass): M(q) (n x n) and the derivatives of T = 1/2 v'M(q)v at (q, v) that
 * a variational integrator needs: dT/dq (n), D_q(M(q)v) (n x n, [i][j] =
 * d(Mv)_i/dq_j, which is L_vq; L_qv is its transpose) and d^2T/dq^2 (n x n);
 * either matrix may be NULL when not wanted (man2020 (54),
 * systems/NOTES-triple-pendulum.md). V, grad V (n), Hess V (n x n). */
typedef struct VI_X(vi_mech_ops) {
  /* Optional (constant mass only): a discrete gradient of V in Gonzalez's
   * sense (betsch-ggl (85)-(86), (126)), dV with dV.(q1 - q0) = V(q1) -
   * V(q0) that tends to grad V((q0 + q1)/2) as q1 -> q0, and its Jacobian
   * in q1 (n x n, may be NULL). For energy-momentum schemes; without it
   * they use grad V at the midpoint (exact for vi_system_info.quadratic's
   * VI_QUADRATIC_V) or Gonzalez's midpoint formula. */
  int (*dgrad_potential)(const void *state, const VI_REAL *q0, const VI_REAL *q1,
                         VI_REAL *dV, VI_REAL *J1);
  int (*mass)(const void *state, VI_REAL *M);
  int (*mass_q)(const void *state, const VI_REAL *q, VI_REAL *M);
  int (*kinetic)(const void *state, const VI_REAL *q, const VI_REAL *v,
                 VI_REAL *dTdq, VI_REAL *DqMv, VI_REAL *Tqq);
  int (*potential)(const void *state, const VI_REAL *q, VI_REAL *V);
  int (*grad_potential)(const void *state, const VI_REAL *q, VI_REAL *dV);
  int (*hess_potential)(const void *state, const VI_REAL *q, VI_REAL *H);
} VI_X(vi_mech_ops);

/* Degenerate form L = alpha(q) . v - H(q) (tyranowski2014 (2.1)): the
 * one-form alpha (n), its Jacobian Dalpha (n x n, [i][j] = d alpha_i /
 * d q_j), the contraction S = sum_b w^b Hess alpha_b (n x n, [i][j] =
 * sum_b w^b d^2 alpha_b / dq_i dq_j) for a given w (n), and H, grad H (n),
 * Hess H (n x n). The momenta are p = alpha(q); the equations of motion
 * are (Dalpha' - Dalpha) qdot = grad H (tyranowski2014 (2.5)). */
typedef struct VI_X(vi_degen_ops) {
  int (*alpha)(const void *state, const VI_REAL *q, VI_REAL *a);
  int (*dalpha)(const void *state, const VI_REAL *q, VI_REAL *D);
  int (*d2alpha)(const void *state, const VI_REAL *q, const VI_REAL *w,
                 VI_REAL *S);
  int (*hamiltonian)(const void *state, const VI_REAL *q, VI_REAL *H);
  int (*grad_hamiltonian)(const void *state, const VI_REAL *q, VI_REAL *dH);
  int (*hess_hamiltonian)(const void *state, const VI_REAL *q, VI_REAL *HH);
} VI_X(vi_degen_ops);

/* A configuration space that is a Lie group G of dimension d = info->n
 * (demartin2018 §5-6; formulas in ../shared/papers/notes/demartin2018.md
 * §1.6). Elements g are stored in nq = info->nq reals (0: d), either as
 * coordinates (SE(2): (x, y, theta), nq = d) or in an embedding (SO(3) x
 * R^2: the 3 x 3 matrix row-major and (x, y), nq = 11 > d = 5); algebra
 * elements xi in R^d in the system's basis. Every g argument below, of
 * this table, the Lie form and the constraint tables, has nq reals. Left
 * trivialisation throughout; tau = cay is the retraction:
 *   compose: g h;  inverse: g^-1;  cay: cay(xi) (cay(0) is the identity);
 *   local: the chart xi = cay^-1(g^-1 h) (errors, finite differences);
 *   dcay, dcayinv: d x d, the left-trivialised tangent of cay at xi and its
 *   inverse (T_xi cay . y = cay(xi) dcay_xi(y));
 *   ad: d x d matrix of ad_xi = [xi, .] (ad*_xi = ad_xi');
 *   Ad: d x d matrix of Ad_g;
 *   tangent: d/dt of the stored coordinates of g along gdot = g xi (nq);
 *   project: required when nq > d: *res = the distance of the stored reals
 *   from the group (e.g. max |R'R - I| and det R = 1), and g replaced by
 *   the nearest element (initial data are refused or projected by it);
 *   ddcay_star (optional; what Lie-group Runge-Kutta schemes need for the
 *   second-tangent term of demartin2018 (26), nhprk): K = (ddcay_xi)*(y,
 *   pi) (d), the adjoint in delta of the second tangent ddcay_xi(y, delta),
 *   defined by D_xi(dcay_xi y) . delta = dcay_xi(ddcay_xi(y, delta)) (notes
 *   §1.6); K = B' pi with B delta = ddcay_xi(y, delta). vistudy check
 *   compares pi' B with the differences of dcay_x y along x. */
typedef struct VI_X(vi_space_ops) {
  int (*compose)(const void *state, const VI_REAL *g, const VI_REAL *h, VI_REAL *gh);
  int (*inverse)(const void *state, const VI_REAL *g, VI_REAL *ginv);
  int (*cay)(const void *state, const VI_REAL *xi, VI_REAL *g);
  int (*local)(const void *state, const VI_REAL *g, const VI_REAL *h, VI_REAL *xi);
  int (*dcay)(const void *state, const VI_REAL *xi, VI_REAL *D);
  int (*dcayinv)(const void *state, const VI_REAL *xi, VI_REAL *D);
  int (*ad)(const void *state, const VI_REAL *xi, VI_REAL *A);
  int (*Ad)(const void *state, const VI_REAL *g, VI_REAL *A);
  int (*tangent)(const void *state, const VI_REAL *g, const VI_REAL *xi, VI_REAL *gdot);
  int (*project)(const void *state, VI_REAL *g, VI_REAL *res);
  int (*ddcay_star)(const void *state, const VI_REAL *xi, const VI_REAL *y, const VI_REAL *pi,
                    VI_REAL *K);
} VI_X(vi_space_ops);

/* Lie-group form: a trivialised Lagrangian l(g, xi) on G x g (demartin2018
 * §5.1). Derivatives along the group are left-trivialised, i.e. taken along
 * g cay(eps e_b): lagrangian l; dxi = D2 l (d); force = L*_g D1 l, the
 * trivialised group force, (F)_a = d/deps l(g cay(eps e_a), xi) (d);
 * dxi2 = D2 D2 l (d x d, invertible: a regular Lagrangian); dxi_dg[a][b] =
 * d/deps (D2 l)_a (g cay(eps e_b), xi); dforce_dg[a][b] likewise of F;
 * dforce_dxi[a][b] = dF_a / dxi_b. The momentum is mu = D2 l. */
typedef struct VI_X(vi_lie_ops) {
  int (*lagrangian)(const void *state, const VI_REAL *g, const VI_REAL *xi, VI_REAL *l);
  int (*dxi)(const void *state, const VI_REAL *g, const VI_REAL *xi, VI_REAL *mu);
  int (*force)(const void *state, const VI_REAL *g, const VI_REAL *xi, VI_REAL *F);
  int (*dxi2)(const void *state, const VI_REAL *g, const VI_REAL *xi, VI_REAL *H);
  int (*dxi_dg)(const void *state, const VI_REAL *g, const VI_REAL *xi, VI_REAL *D);
  int (*dforce_dg)(const void *state, const VI_REAL *g, const VI_REAL *xi, VI_REAL *D);
  int (*dforce_dxi)(const void *state, const VI_REAL *g, const VI_REAL *xi, VI_REAL *D);
} VI_X(vi_lie_ops);

/* Holonomic constraints g(q) = 0, info->m of them: g (m), G = Dg (m x n),
 * and H = sum_k mu_k Hess g_k (n x n) for given mu (m). Optionally dGv, the
 * velocity-constraint Jacobian D_q(G(q)v) (m x n, [k][j] = sum_i
 * dG_ki/dq_j v_i = (Hess g_k v)_j) for given v (n); without it
 * vi_system_dGv contracts constraint_hess with unit mu, m calls (supply it
 * when m is large or the Hessians are dense). Sign convention of the
 * multipliers: the augmented Lagrangian is L - g(q) . lambda. */
typedef struct VI_X(vi_holo_ops) {
  int (*constraint)(const void *state, const VI_REAL *q, VI_REAL *g);
  int (*constraint_jac)(const void *state, const VI_REAL *q, VI_REAL *G);
  int (*constraint_hess)(const void *state, const VI_REAL *q,
                         const VI_REAL *mu, VI_REAL *H);
  int (*dGv)(const void *state, const VI_REAL *q, const VI_REAL *v, VI_REAL *J);
} VI_X(vi_holo_ops);

/* Nonholonomic constraints Phi(q, v) = A(q) v + a(q) = 0, info->m_nh of
 * them (demartin2018 (1)-(2); affine in v): A(q) (m_nh x n), a(q) (m_nh;
 * NULL when a = 0), dphi_dq = D_q Phi(q, w) (m_nh x n, the derivative in q
 * at fixed w, including that of a), and datmu = D_q(A(q)' mu) (n x n) for
 * given mu (m_nh). The derivative in q is taken along the directions of
 * the configuration space, the same n for every form:
 *   mechanical form (q in R^n): the coordinates, [i][b] = d/dq_b;
 *   Lie-group form (q = g in G, stored in nq reals): left trivialised,
 *   [i][b] = d/deps Phi_i(g cay(eps e_b), w) at eps = 0 (e_b the basis of
 *   the algebra), like dxi_dg and dforce_dg of vi_lie_ops; NOT the
 *   derivative in the nq stored reals. Along a motion gdot = g xi this
 *   gives d/dt Phi(g(t), w) = dphi_dq(g, w) xi (what the multipliers of the
 *   Lie form use, demartin2018 §6.4), and datmu likewise: [a][b] = d/deps
 *   (A(g cay(eps e_b))' mu)_a. vistudy check compares both against
 *   differences along those directions.
 * Sign convention, as for g: the constraint force is -A(q)' mu, i.e.
 * M qdd = -grad V - A' mu (the paper's lambda is -mu). */
typedef struct VI_X(vi_nh_ops) {
  int (*matrix)(const void *state, const VI_REAL *q, VI_REAL *A);
  int (*affine)(const void *state, const VI_REAL *q, VI_REAL *a);
  int (*dphi_dq)(const void *state, const VI_REAL *q, const VI_REAL *w, VI_REAL *D);
  int (*datmu)(const void *state, const VI_REAL *q, const VI_REAL *mu, VI_REAL *D);
} VI_X(vi_nh_ops);

/* Observables: momentum maps I(q, p) (info->n_momenta values, named in
 * info->momentum_names), and the exact solution at time t for the initial
 * data of the parameters: q (nq), p (n), the multipliers (ml: lambda, then
 * mu of the nonholonomic constraints). exact may return
 * VI_EUNSUPPORTED for parameter values outside its range (e.g. a rotating
 * pendulum). steady says whether the initial data of the parameters are a
 * relative equilibrium: a steady motion q(t) = exp(t xi) . q0 along a
 * one-parameter group of symmetries of L and of the constraints, on which
 * everything those symmetries keep stays constant (V and T apart, the
 * multipliers' size, the heavy top's nutation: betsch-ggl (112), the
 * steady precession of a symmetric top). *motion is set to the system's
 * name for that motion (a static string, e.g. "steady precession") when
 * they are, to NULL when they are not; declared only where it holds
 * exactly, not approximately. On such data a scheme's errors may converge
 * faster than its declared order (the conformance suite then judges "at
 * least"). Any of the three may be NULL (steady NULL: never). */
typedef struct VI_X(vi_obs_ops) {
  int (*momenta)(const void *state, const VI_REAL *q, const VI_REAL *p,
                 VI_REAL *J);
  int (*exact)(const void *state, VI_REAL t, VI_REAL *q, VI_REAL *p,
               VI_REAL *lambda);
  int (*steady)(const void *state, const char **motion);
} VI_X(vi_obs_ops);

/* A rigid body about a fixed point (the origin) under gravity along -e3,
 * in the system's own coordinates (betsch-ggl §6.2, the director top;
 * what Lie-Poisson schemes of the top such as Bobenko-Suris's need,
 * notes §1.6). The attitude R (3 x 3 row-major, its columns the body axes
 * in space, R e_i) and the spatial angular momentum about the fixed point
 * J (3) are read from and written to a node:
 *   data: the principal moments of inertia about the fixed point along the
 *     body axes (I, 3) and mgc (3) = mass x gravity x the centre of mass in
 *     the body frame, so that V(q) = e3 . R mgc + const and the kinetic
 *     energy is 1/2 J' (R diag(I) R')^-1 J;
 *   attitude: (R, J) of a node (q, p);
 *   node: the node (q, p) of an attitude and angular momentum (q on the
 *     constraints and p on the hidden ones when R is a rotation).
 * vistudy check verifies the three against the system's own M, V and g. */
typedef struct VI_X(vi_top_ops) {
  int (*data)(const void *state, VI_REAL *I, VI_REAL *mgc);
  int (*attitude)(const void *state, const VI_REAL *q, const VI_REAL *p, VI_REAL *R,
                  VI_REAL *J);
  int (*node)(const void *state, const VI_REAL *R, const VI_REAL *J, VI_REAL *q, VI_REAL *p);
} VI_X(vi_top_ops);

typedef struct VI_X(vi_system_type) {
  const vi_system_info *info;
  /* Private derived constants, computed once by setup from the flattened
   * parameter values (in the order of info->params), which setup also
   * checks against the domain of the system's equations beyond the
   * parameters' own domains (vi_param.domain, enforced before setup): a
   * strength the equations divide by is nonzero, two bodies do not start
   * at one point, ... (vi_data_nonzero, vi_data_apart below). 0, or
   * nonzero with "DATUM: RULE" in err (errlen bytes, "" on entry; the
   * caller's buffer, as vi_method_type.init's), e.g. "q0: vortices 1 and 2
   * coincide at (0, 0), where H is singular"; vi_system_alloc then refuses
   * the data (VI_EINVAL) with "SYSTEM: DATUM: RULE". */
  size_t state_size;
  int (*setup)(void *state, const VI_REAL *par, char *err, size_t errlen);
  /* Initial data from the parameters: q0 (nq) and, for the mechanical form,
   * v0 (n; NULL is passed for the degenerate form, whose p0 = alpha(q0)).
   * Consistency with the constraints is checked by vi_system_alloc. */
  int (*initial)(const void *state, VI_REAL *q0, VI_REAL *v0);
  const VI_X(vi_mech_ops) *mech;   /* exactly one form is non-NULL */
  const VI_X(vi_degen_ops) *degen;
  const VI_X(vi_lie_ops) *lie;     /* needs space */
  const VI_X(vi_space_ops) *space; /* NULL: R^n; a Lie group for the lie form */
  const VI_X(vi_holo_ops) *holo;   /* NULL: no holonomic constraints (m = 0) */
  const VI_X(vi_nh_ops) *nh;       /* NULL: no nonholonomic constraints (m_nh = 0) */
  const VI_X(vi_obs_ops) *obs;     /* NULL: none */
  const VI_X(vi_top_ops) *top;     /* NULL: not a rigid body about a fixed point */
  /* A dimension set by a parameter (chaotic-nh: n = 2 m_c + 1): the
   * instance's n after setup, 1..info->n (info->n is then the largest,
   * what parameters of domain VI_PARAM_COORDS are stored in, and
   * info->dim_doc says how). NULL: n = info->n. m, m_nh and nq = n are
   * fixed by the type. */
  int (*dim)(const void *state);
} VI_X(vi_system_type);

/* What a type provides, read from its tables (the one source of truth). */
static inline int VI_X(vi_type_config_mass)(const VI_X(vi_system_type) *t) {
  return t->mech != NULL && t->mech->mass_q != NULL;
}
static inline int VI_X(vi_type_has_momenta)(const VI_X(vi_system_type) *t) {
  return t->obs != NULL && t->obs->momenta != NULL && t->info->n_momenta > 0;
}
static inline int VI_X(vi_type_has_exact)(const VI_X(vi_system_type) *t) {
  return t->obs != NULL && t->obs->exact != NULL;
}
/* Whether the energy is a first integral: not when a nonholonomic
 * constraint is affine (a(q) != 0, a moving surface such as the turntable
 * of demartin2018 §7.5, whose constraint force does work). */
static inline int VI_X(vi_type_energy_conserved)(const VI_X(vi_system_type) *t) {
  return t->nh == NULL || t->nh->affine == NULL;
}
/* The Lagrangian form's name ("mechanical", "degenerate"). */
static inline const char *VI_X(vi_type_form)(const VI_X(vi_system_type) *t) {
  return t->mech != NULL    ? "mechanical"
         : t->degen != NULL ? "degenerate"
         : t->lie != NULL   ? "Lie-group"
                            : "none";
}

/* The registry (systems/registry_tmpl.c, from systems/systems.def), NULL
 * terminated; the double and quad lists are parallel. */
extern const VI_X(vi_system_type) *const VI_X(vi_system_types)[];

/* ---- system instance ---------------------------------------------------- */

/* The public part of an instance. The mass matrix and its inverse are
 * private (core/system_impl.h): read them through vi_system_mass_at,
 * vi_system_minv_at, vi_system_minv_apply and vi_system_mass_constant. */
typedef struct VI_X(vi_system) {
  const VI_X(vi_system_type) *type;
  int n, m;
  int nq;        /* reals of a configuration q (info->nq, or n) */
  int m_nh;      /* nonholonomic constraints */
  int ml;        /* multipliers of a node: m holonomic, then m_nh nonholonomic */
  VI_REAL *par;  /* flattened parameter values */
  void *state;   /* type->state_size bytes */
  VI_REAL *q0, *p0; /* initial data, q0 nq reals, p0 n (p0 = M v0; Lie form:
                       p0 = D2 l(q0, xi0)) */
  VI_REAL *v0;      /* initial velocity (mechanical v0, Lie form xi0; zeros for
                       the degenerate form), consistent with p0 */
} VI_X(vi_system);

/* The system's dimensions (n_extra = 0: a node of the system alone, e.g.
 * a reference). */
static inline vi_dims VI_X(vi_system_dims)(const VI_X(vi_system) *sys) {
  vi_dims d = {sys->n, sys->nq, sys->m, sys->m_nh, sys->ml, 0, 0};
  return d;
}

/* Whether the initial data of the instance (its parameters) are a relative
 * equilibrium (vi_obs_ops.steady): *motion the system's name for the
 * steady motion, or NULL when they are not or the type does not say.
 * VI_OK, or the callback's status (vi_callback_status). */
int VI_X(vi_system_steady)(const VI_X(vi_system) *sys, const char **motion);

/* Allocate a system from its defaults with nset overrides "name=v1,v2,..".
 * Unknown names, a wrong number of values or an unparsable value give
 * VI_EINVAL; initial data violating g(q0) = 0, G(q0) v0 = 0 or A(q0) v0 +
 * a(q0) = 0 beyond the relative tolerance VI_CONSISTENCY_TOL, a group
 * element g0 off its group (nq > n) or constraint rows dependent at q0 give
 * VI_EINCONSISTENT. Accepted data is then projected in the working
 * precision: q0 onto g = 0 along M^-1 G', p0 M-orthogonally onto G v = 0
 * and A v + a = 0 jointly (wenger2017 (4) with the rows stacked), g0 onto
 * its group by space->project (vi_system_project, the one projection of
 * initial data), so sys->q0, sys->p0 are consistent to round-off. A
 * failing callback gives VI_ECALLBACK (< 0) or VI_CALLBACK_RECOVERABLE
 * (> 0). On error the message (naming the problem and the valid choices)
 * is written to err. The tables of a type may differ between precisions
 * (an exact solution may exist in one only). */
#define VI_CONSISTENCY_TOL 1e-10
int VI_X(vi_system_alloc)(const VI_X(vi_system_type) *type, int nset,
                          const char *const *set, VI_X(vi_system) **out,
                          char *err, size_t errlen);
/* As vi_system_alloc, but initial data off the constraints (beyond
 * VI_CONSISTENCY_TOL, or a group element off its group) is projected onto
 * them like consistent data instead of refused: for generators of random
 * initial data (studies/validation.c), which read the consistent data back
 * from sys->q0, sys->v0. Dependent constraint rows, a position projection
 * that does not converge (VI_EINCONSISTENT) and everything else are still
 * refused. */
int VI_X(vi_system_alloc_projected)(const VI_X(vi_system_type) *type, int nset,
                                    const char *const *set, VI_X(vi_system) **out,
                                    char *err, size_t errlen);
void VI_X(vi_system_free)(VI_X(vi_system) *sys);

/* The rules a system's setup checks its data against (vi_system_type.setup),
 * one helper per rule that several systems share, each with the message
 * setup returns: 0 when the rule holds, else -1 with "NAME ..." in err.
 * why says what goes wrong otherwise and where the rule comes from. */
/* x (the parameter NAME) is not zero: "G1 must be nonzero, got 0: WHY". */
int VI_X(vi_data_nonzero)(const char *name, VI_REAL x, const char *why, char *err,
                          size_t errlen);
/* The points a and b of R^dim (b NULL: the origin), named together by
 * what, are apart: "q0: WHAT coincide at (x, y), WHY". */
int VI_X(vi_data_apart)(const char *name, const char *what, int dim, const VI_REAL *a,
                        const VI_REAL *b, const char *why, char *err, size_t errlen);

/* Project data (q, v) onto the constraints, in place, with p (n) the
 * momentum that goes with the result. Mechanical form: p = M(q) v at the
 * given q; q onto g(q) = 0 along M(q)^-1 G(q)' (Newton steps until g is
 * within VI_CONSISTENCY_TOL max(1, |q|)^2, at most 50, then 4 more to
 * round-off; VI_NEWTON_NOCONV when it does not get there); p
 * M-orthogonally onto G v = 0 and A v + a = 0 jointly at the projected q;
 * v = M(q)^-1 p. Lie form: g onto its group (space->project), xi onto
 * A(g) xi + a(g) = 0 in the metric of D2 D2 l, p = D2 l(g, xi).
 * Degenerate form: p = alpha(q). VI_SINGULAR when constraint rows are
 * dependent. This is what vi_system_alloc does to the initial data. */
int VI_X(vi_system_project)(const VI_X(vi_system) *sys, VI_REAL *q, VI_REAL *v, VI_REAL *p);

/* The mass matrix of the mechanical form (the other forms have none:
 * VI_EUNSUPPORTED). vi_system_mass_constant: 1 when the system is
 * mechanical with a mass matrix that does not depend on q (then
 * vi_system_mass_at and _minv_at return a cached matrix and
 * vi_system_kinetic is zero), else 0. */
int VI_X(vi_system_mass_constant)(const VI_X(vi_system) *sys);
/* M(q) (n x n) as a pointer: the cached constant matrix (work untouched),
 * or M(q) computed into work (n^2 reals) when it depends on q. */
int VI_X(vi_system_mass_at)(const VI_X(vi_system) *sys, const VI_REAL *q, VI_REAL *work,
                            const VI_REAL **M);
/* M(q)^-1 (n x n) as a pointer: the cached inverse of a constant M (work
 * untouched), or M(q)^-1 computed into work (n^2 reals; its LU in the
 * kernels' stack scratch, allocation-free for n <= 35). */
int VI_X(vi_system_minv_at)(const VI_X(vi_system) *sys, const VI_REAL *q, VI_REAL *work,
                            const VI_REAL **Minv);
/* v = M(q)^-1 p (n), v_i = sum_j (M^-1)_ij p_j in the order of j. */
int VI_X(vi_system_minv_apply)(const VI_X(vi_system) *sys, const VI_REAL *q, const VI_REAL *p,
                               VI_REAL *v);
/* M(q) (n x n) into M: a copy of the cached matrix when it is constant. */
int VI_X(vi_system_mass)(const VI_X(vi_system) *sys, const VI_REAL *q,
                         VI_REAL *M);
/* The kinetic-energy derivatives of the type's kinetic callback at (q, v):
 * dT/dq (n), D_q(M(q)v) (n x n, may be NULL), d^2T/dq^2 (n x n, may be
 * NULL); zeros when the mass matrix is constant. */
int VI_X(vi_system_kinetic)(const VI_X(vi_system) *sys, const VI_REAL *q,
                            const VI_REAL *v, VI_REAL *dTdq, VI_REAL *DqMv,
                            VI_REAL *Tqq);

/* M(q)^-1 (n x n) into Minv: a copy of the cached inverse when M is
 * constant. */
int VI_X(vi_system_mass_inv)(const VI_X(vi_system) *sys, const VI_REAL *q,
                             VI_REAL *Minv);
/* What a variational integrator needs of L = 1/2 v'M(q)v - V(q) at a
 * quadrature node (q, v): mLq = -L_q = grad V - dT/dq (n) and Lv = L_v =
 * M(q) v (n); with mLqq non-NULL also -L_qq = Hess V - d^2T/dq^2 (n x n).
 * For a configuration-dependent mass (!vi_system_mass_constant) it also
 * writes Mq = L_vv = M(q) and, with mLqq, Dq = L_vq = D_q(M(q)v) (n x n;
 * L_qv is its transpose), using work (n^2 + n reals); for a constant mass
 * Mq, Dq and work are untouched (L_vv = the constant M of
 * vi_system_mass_at, L_vq = 0). */
int VI_X(vi_system_lagr)(const VI_X(vi_system) *sys, const VI_REAL *q,
                         const VI_REAL *v, VI_REAL *mLq, VI_REAL *Lv,
                         VI_REAL *mLqq, VI_REAL *Mq, VI_REAL *Dq,
                         VI_REAL *work);

/* In the functions below M = M(q) at the q they are given. Those that need
 * a mass matrix (mass, mass_at, minv_at, minv_apply, kinetic, mass_inv,
 * lagr, accel, hidden, project_p, dGv) return VI_EUNSUPPORTED for the
 * degenerate and Lie-group forms (hidden, project_p and dGv return VI_OK
 * when there are no holonomic constraints). Each service is one dispatch
 * on the Lagrangian form (core/system_impl.h). */

/* Total energy 1/2 p'M^-1 p + V(q) (mechanical), H(q) (degenerate),
 * <mu, xi> - l(g, xi) (Lie form). */
int VI_X(vi_system_energy)(const VI_X(vi_system) *sys, const VI_REAL *q,
                           const VI_REAL *p, VI_REAL *E);
/* The rigid body about a fixed point (vi_top_ops): its data (I, mgc),
 * (R, J) of a node, the node of (R, J); VI_EUNSUPPORTED when the type has
 * no such table. */
int VI_X(vi_system_top_data)(const VI_X(vi_system) *sys, VI_REAL *I, VI_REAL *mgc);
int VI_X(vi_system_top_attitude)(const VI_X(vi_system) *sys, const VI_REAL *q,
                                 const VI_REAL *p, VI_REAL *R, VI_REAL *J);
int VI_X(vi_system_top_node)(const VI_X(vi_system) *sys, const VI_REAL *R, const VI_REAL *J,
                             VI_REAL *q, VI_REAL *p);
/* Degenerate form: the velocity of the flow, qdot = (Dalpha' - Dalpha)^-1
 * grad H (tyranowski2014 (2.8)-(2.9)); VI_SINGULAR where Dalpha' - Dalpha
 * is singular, VI_EUNSUPPORTED for the other forms. Allocates nothing for
 * n <= 16. */
int VI_X(vi_system_degen_velocity)(const VI_X(vi_system) *sys, const VI_REAL *q,
                                   VI_REAL *qdot);
/* Degenerate form: the discrete constraint defect |p - alpha(q)|_inf
 * (tyranowski2014 §4: zero for the exact flow); VI_EUNSUPPORTED otherwise. */
int VI_X(vi_system_defect)(const VI_X(vi_system) *sys, const VI_REAL *q,
                           const VI_REAL *p, VI_REAL *d);
/* Nonholonomic constraints (m_nh > 0): the residual A(q) M^-1 p + a(q)
 * (m_nh values), and the M-orthogonal projection of p onto it,
 * p <- p - A'(A M^-1 A')^-1 (A M^-1 p + a) (in place; mechanical form
 * only, VI_EUNSUPPORTED for the Lie form, which projects xi0 itself). */
int VI_X(vi_system_nh_residual)(const VI_X(vi_system) *sys, const VI_REAL *q,
                                const VI_REAL *p, VI_REAL *r);
int VI_X(vi_system_project_nh)(const VI_X(vi_system) *sys, const VI_REAL *q, VI_REAL *p);
/* Lie-group form: xi with D2 l(g, xi) = mu (the inverse Legendre map), and
 * the continuous equations along gdot = g xi (demartin2018 §5-6, left
 * trivialised, Euler-Poincare with the constraint force -A' lambda):
 * gdot (the stored coordinates' derivative), xidot, and the m_nh
 * nonholonomic multipliers (lambda may be NULL without them). */
int VI_X(vi_system_lie_xi)(const VI_X(vi_system) *sys, const VI_REAL *g, const VI_REAL *mu,
                           VI_REAL *xi);
int VI_X(vi_system_lie_rhs)(const VI_X(vi_system) *sys, const VI_REAL *g, const VI_REAL *xi,
                            VI_REAL *gdot, VI_REAL *xidot, VI_REAL *lambda);
/* Hidden-constraint residual G(q) M^-1 p (m values). */
int VI_X(vi_system_hidden)(const VI_X(vi_system) *sys, const VI_REAL *q,
                           const VI_REAL *p, VI_REAL *gv);
/* Projection (4) of wenger2017 onto the hidden constraint:
 * p <- p - G'(G M^-1 G')^-1 G M^-1 p (in place). */
int VI_X(vi_system_project_p)(const VI_X(vi_system) *sys, const VI_REAL *q,
                              VI_REAL *p);
/* Velocity and acceleration of the equations of motion at (q, p) for
 * given multipliers (ml): v = M^-1 p, a = M^-1 (f - G(q)' lambda - A(q)' mu) with
 * f = -grad V + dT/dq - D_q(Mv) v (wenger2017 (3); f = -grad V for a
 * constant M); with lambda from vi_system_lambda this is the index-1 form.
 * Used for Taylor starting guesses and by the reference integrator. */
int VI_X(vi_system_accel)(const VI_X(vi_system) *sys, const VI_REAL *q,
                          const VI_REAL *p, const VI_REAL *lambda, VI_REAL *v,
                          VI_REAL *a);
/* Multipliers of the index-1 form, all ml of them (lambda, then mu), from
 * one stacked system with C = [G; A]: (C M^-1 C') (lambda; mu) =
 * (sum_k e_k v'Hess g_k v; D_q Phi(q, v) v) + C M^-1 f, v = M^-1 p, f as in
 * vi_system_accel (wenger2017 (70) for the holonomic rows, demartin2018 (4)
 * for the nonholonomic ones; a system with one kind solves only its rows).
 * VI_SINGULAR when the rows are dependent. */
int VI_X(vi_system_lambda)(const VI_X(vi_system) *sys, const VI_REAL *q,
                           const VI_REAL *p, VI_REAL *lambda);
/* The velocity-constraint Jacobian J = D_q(G(q)v) (m x n, row-major,
 * J[k][j] = sum_i dG_ki/dq_j v_i = (Hess g_k v)_j; betsch-ggl and EM
 * Newton Jacobians, man2020 (43)): the type's dGv, or else m calls of
 * constraint_hess with unit mu, J[k][j] = sum_i H_k[j][i] v_i in the order
 * of i. VI_EUNSUPPORTED without either; nothing for m = 0. */
int VI_X(vi_system_dGv)(const VI_X(vi_system) *sys, const VI_REAL *q, const VI_REAL *v,
                        VI_REAL *J);

/* Check every supplied derivative (of each table the type has: grad V,
 * Hess V, G, contracted Hess g, dGv when supplied, the kinetic terms of
 * M(q), D_q Phi and D_q(A' mu), the degenerate and Lie forms' derivatives
 * and the group maps) against central finite differences at the initial
 * data and at nprobe perturbed points, along the directions each
 * derivative is defined in (coordinates, or left-trivialised on a group).
 * Writes one line per check to report (may be NULL) and returns the number
 * of failed checks, or VI_ECALLBACK (< 0) when a callback fails, whatever
 * the sign of its status. */
int VI_X(vi_system_check)(const VI_X(vi_system) *sys, int nprobe,
                          void (*report)(void *ctx, const char *line),
                          void *ctx);

/* ---- nonlinear solver options (core/solve_tmpl.c) --------------------------- */

typedef struct VI_X(vi_solver_opts) {
  int kind;       /* vi_solver_kind: newton, chord, simplified,
                     fixed-point or kinsol (double only); VI_SOLVER_AUTO (quad's default) is
                     resolved by vi_stepper_init with the family's
                     quad_solver, or by vi_solver_alloc (chord) */
  int lu;         /* vi_lu_precision, resolved: VI_LU_WORKING or VI_LU_DOUBLE
                     (newton and simplified; KINSOL factors in double) */
  VI_REAL rtol;   /* converged when |dx_i| <= rtol (|x_i| + u_i) for all i
                     (see vi_solver_set_unit); default 100 eps */
  int max_iter;   /* default 50 */
  VI_REAL jac_rate; /* chord and simplified: a Jacobian whose contraction
                       rate exceeds this is refreshed at the current
                       iterate, and (simplified) at the next solve after
                       such a solve (RADAU5's THET); default 0.05 */
} VI_X(vi_solver_opts);

/* Residual and Jacobian of a nonlinear system of size N at x: F (N) and
 * J (N x N, row-major, J_ij = dF_i/dx_j); either may be NULL when not
 * wanted. Returns a status (> 0 recoverable, < 0 fatal). */
typedef int (*VI_X(vi_resjac_fn))(void *ctx, const VI_REAL *x, VI_REAL *F,
                                  VI_REAL *J);
/* The leading part of that Jacobian at x into M (N x N, row-major): its
 * limit as the step h -> 0, without the force's derivatives, which the
 * fixed-point iteration uses in place of J (vi_solver_set_leading). */
typedef int (*VI_X(vi_lead_fn))(void *ctx, const VI_REAL *x, VI_REAL *M);

/* A nonlinear solver for systems of a fixed size N with analytic
 * Jacobians. Everything is allocated by vi_solver_alloc; solving allocates
 * nothing. Backends: the built-in dense Newton (every precision; exact or
 * simplified, its LU in the working precision or in double) and KINSOL
 * (double only, exact Newton) with our dense LU plugged in as a custom
 * SUNLinearSolver and the KINSOL object reused across solves. The
 * simplified Newton keeps its Jacobian from one solve to the next: a
 * solver serves one sequence of related systems (the steps of a run). */
typedef struct VI_X(vi_solver) VI_X(vi_solver);

/* Fill defaults into opts (the working precision's default solver and LU,
 * rtol = 100 eps, max_iter = 50, jac_rate = 0.05). */
void VI_X(vi_solver_opts_default)(VI_X(vi_solver_opts) *opts);
/* The default solver kind of this precision for a family whose quad_solver
 * is given (0: none): exact Newton in double; in quad the family's choice,
 * else the chord method. */
int VI_X(vi_solver_default_kind)(int quad_solver);
int VI_X(vi_solver_alloc)(const VI_X(vi_solver_opts) *opts, int N,
                          VI_X(vi_resjac_fn) fn, void *ctx,
                          VI_X(vi_solver) **out);
void VI_X(vi_solver_free)(VI_X(vi_solver) *s);
/* Set the absolute scale u_i of unknown i (default 1): converged means
 * |dx_i| <= rtol (|x_i| + u_i). A quantity whose round-off floor is larger
 * than that of the others (multipliers, which act on q through h^2) needs
 * a larger unit. */
void VI_X(vi_solver_set_unit)(VI_X(vi_solver) *s, int i, VI_REAL unit);
/* The leading part of the Jacobian (same ctx as the residual's), which
 * the fixed-point iteration needs: without it a solve of that kind
 * returns VI_EUNSUPPORTED. */
void VI_X(vi_solver_set_leading)(VI_X(vi_solver) *s, VI_X(vi_lead_fn) lead);
/* Solve F(x) = 0 from the initial guess in x. Adds the work done to *counts
 * (may be NULL). Returns VI_OK, VI_NEWTON_NOCONV (recoverable: max_iter
 * reached or the iterate became non-finite), VI_SINGULAR, or a callback
 * status. */
int VI_X(vi_solve)(VI_X(vi_solver) *s, VI_REAL *x, vi_solve_counts *counts);
/* Forget what the solver learned about its system: the kept Jacobian
 * (simplified Newton: the next solve evaluates a fresh one) and a
 * fall-back from the LU in double to the working precision's. For a
 * caller that reuses a solver on a changed system (the steppers allocate
 * one per init, and need not). */
void VI_X(vi_solver_reset)(VI_X(vi_solver) *s);

/* ---- stepper ------------------------------------------------------------ */

/* Statistics a stepper accumulates. */
typedef struct VI_X(vi_stats) {
  long steps;
  long newton_iters;     /* total Newton iterations */
  long newton_iters_max; /* largest count of one solve */
  long solves;           /* solves counted in both: those of init (its
                            look-ahead) and one per step */
  long fevals, jevals;   /* residual and Jacobian assemblies */
  long factorizations;   /* LU factorizations of the Jacobian */
  int solver_kind, solver_lu; /* the solver of the run, defaults resolved */
  int unknowns;          /* size of the nonlinear system per step */
} VI_X(vi_stats);

/* The state at a time node: t, q (nq), p (n), lambda (ml: the m holonomic
 * multipliers, then the m_nh nonholonomic ones), the method's extra
 * block (n_extra reals, NULL when it has none) and the method's own
 * velocity v at t (n_vel = n reals, NULL when it has none: then v = M^-1 p).
 * One buffer of vi_node_size(dims) reals holds q, p, lambda, extra, v in
 * this order (vi_node_bind); no caller computes the offsets itself. */
typedef struct VI_X(vi_node) {
  VI_REAL t;
  VI_REAL *q, *p, *lambda, *extra, *v;
} VI_X(vi_node);

/* Point nd's arrays into buf (vi_node_size(d) reals) by the layout above;
 * t = 0. */
static inline void VI_X(vi_node_bind)(VI_X(vi_node) *nd, VI_REAL *buf, const vi_dims *d) {
  nd->t = 0;
  nd->q = buf;
  nd->p = buf + d->nq;
  nd->lambda = nd->p + d->n;
  nd->extra = d->n_extra > 0 ? nd->lambda + d->ml : NULL;
  nd->v = d->n_vel > 0 ? nd->lambda + d->ml + d->n_extra : NULL;
}

/* A node with its own storage, one allocation (free with free()); NULL
 * when out of memory. */
VI_X(vi_node) *VI_X(vi_node_alloc)(const vi_dims *d);

/* Method type: one family of integrators (core/methods/NAME_tmpl.c).
 * Options are parsed (non-templated) into an opaque block of opts_size
 * bytes. */
typedef struct VI_X(vi_method_type) {
  const char *name;
  const char *summary;
  const char *cite;
  /* 1 for a family of the tests only (tests/families/, VI_TEST_METHOD in
   * methods.def): registered in the test configuration, left out of the
   * generated reference pages (vistudy list methods --markdown). */
  int test_only;
  /* The solver of this family's steps in quad when the caller asks for the
   * default (VI_SOLVER_AUTO): what the benchmarks favour for it
   * (docs/benchmarks.md); 0: the chord method. Double always defaults to
   * exact Newton (docs/usage.md says why). */
  int quad_solver;
  /* 1 when the family gives its solver the leading part of its Jacobian
   * (vi_solver_set_leading) and extrapolates its starting values under
   * VI_SOLVER_FIXED_POINT; vi_stepper_init refuses that kind otherwise. */
  int fixed_point;
  /* The options as data (vi_opt, core/options.c): parsing of
   * "key=value,...", the canonical spec, list methods and the messages come
   * from this table; terminated by key == NULL. */
  const vi_opt *options;
  /* The systems it integrates: the form bits of needs (VI_NEED_MECH,
   * VI_NEED_DEGEN, VI_NEED_LIE) are alternatives, the system has one of
   * them (a family written for several configuration spaces, nhprk on R^n
   * and on a group, names each); every constraint bit of needs is
   * required; a constraint kind in optional is handled when the system has
   * it; any other constraint kind of a system is refused (it would be
   * silently ignored). */
  unsigned needs;
  unsigned optional;
  /* The refusals that depend on the system beyond its tables (may be
   * NULL): VI_OK, or VI_EUNSUPPORTED with the reason in why (e.g. "em
   * needs a constant mass matrix; triple-pendulum has M(q)"). Called when a
   * stepper is made, after the tables are checked. */
  int (*accepts)(const void *opts, const VI_X(vi_system_type) *sys, char *why, size_t len);
  /* The refusals that depend on the system's data, not only its type (may
   * be NULL): VI_OK, or VI_EUNSUPPORTED with the reason naming the datum
   * (e.g. "bs99 needs a Lagrange top, I1 = I2; gyro-top has I1 = 1e-3, I2 =
   * 2e-3"). Called when a stepper is made for this instance, after
   * accepts; `vistudy list` and the registries' compatibility tables, which
   * know types only, do not see it. */
  int (*accepts_data)(const void *opts, const VI_X(vi_system) *sys, char *why,
                      size_t len);
  size_t opts_size;
  /* The family's own rules after the table's range checks, for both the
   * spec parser and the typed constructor: derive the defaults that depend
   * on other options and refuse what the family's paper rules out (e.g.
   * Theorem 1 of wenger2017), with the reason. */
  int (*check)(void *opts, char *err, size_t errlen);
  /* The extra block of every node for these options and dimensions (may
   * be NULL: none; d->n_extra is 0 when it is called): its reals (0:
   * none), its name (columns name1..nameK: an identifier of at most
   * VI_EXTRA_NAME_MAX characters that does not end in a digit and is not
   * the name of another measure, else vi_stepper_alloc refuses it; the
   * stepper keeps a copy) and what the exact flow says of it (VI_EXTRA_*),
   * so that the
   * schemes of one family may differ (GGL's gamma of VI-A and VI-B). */
  int (*extra)(const void *opts, const vi_dims *d, const char **name, int *ref);
  /* 1 when the family has a velocity of its own, not M^-1 p (betsch-ggl's
   * VI-S, VI-A, VI-B solve for v beside p): every node then carries it
   * (vi_node.v, the run columns v1..vn) and the measures gvv_norm = |G(q)
   * v|_inf and energy_v = p.v - 1/2 v'Mv + V(q) read it; 0: v = M^-1 p. */
  int velocity;
  /* The constraint residuals kept at round-off at every node for these
   * options (VI_KEEPS_* bits: holonomic, and VI_KEEPS_NH for A v + a; may
   * be NULL: VI_KEEPS_G, g(q) alone). The conformance suite checks exactly
   * these. */
  unsigned (*keeps)(const void *opts);
  /* Bytes of private state for a system of these dimensions (n_extra
   * included); the state is allocated with the stepper, before init. */
  size_t (*state_size)(const void *opts, const vi_dims *d);
  /* Intervals solved ahead: init solves that many (galerkin: 1, its
   * node 0 multiplier comes from interval 0) and each step the next one;
   * 0 when init solves nothing (man2020). The solves of init are counted
   * in the statistics like those of the steps (stats->steps counts steps
   * only), so Newton iterations per step include the start-up. */
  int lookahead;
  /* The look-ahead for these options when it depends on them (may be NULL:
   * lookahead; betsch-ggl's VI-S solves one step ahead for its v^n, VI-A
   * does not). vi_stepper_lookahead reads the one that applies. */
  int (*lookahead_of)(const void *opts);
  /* Prepare a run from (q0, p0) at t0 with step h; fills node 0 (its
   * multipliers and extra block included) and counts its solves in stats.
   * Everything a step needs is passed here. A failure may say why in err
   * (errlen bytes; vi_stepper_error). */
  int (*init)(void *state, const void *opts, const VI_X(vi_system) *sys, const vi_dims *d,
              const VI_X(vi_solver_opts) *solver, VI_REAL h, VI_REAL t0,
              const VI_REAL *q0, const VI_REAL *p0, VI_X(vi_node) *node0,
              VI_X(vi_stats) *stats, char *err, size_t errlen);
  /* Advance one step: node k -> node k+1; no allocation. */
  int (*step)(void *state, VI_X(vi_node) *next, VI_X(vi_stats) *stats);
  /* Release what init acquired outside the state block (e.g. KINSOL). */
  void (*fini)(void *state);
  /* The order of each quantity as the family's paper predicts it for these
   * options on a system of this type (e.g. vprk's orders depend on whether
   * alpha is affine, info->alpha_affine; a scheme's exact energy needs an
   * energy that is a first integral, vi_type_energy_conserved): quantity
   * VI_Q, VI_P, VI_LAMBDA, VI_ENERGY (the relative energy error), VI_EXTRA
   * (the extra block, when the exact flow has it zero) or VI_MOMENTA (the
   * momentum maps the system declares first integrals,
   * vi_system_info.momenta_noether; only VI_ORDER_EXACT is meaningful);
   * -1 where the family declares nothing, VI_ORDER_NONE where the paper
   * says the method does not converge, VI_ORDER_EXACT where it conserves
   * the quantity to round-off (the energy of an energy-momentum scheme, the
   * momentum maps of a variational one). Used by the conformance tests,
   * the validation and the order studies' verdicts, never written into a
   * measured column. */
  int (*expected_order)(const void *opts, const VI_X(vi_system_type) *sys, int quantity);
  /* Specs that exercise the family (the conformance tests loop them),
   * NULL-terminated. */
  const char *const *examples;
  /* The configurations whose orders the family declares, for the
   * randomized order validation (studies/validation.c draws from them;
   * NULL: the examples), NULL-terminated. */
  const char *const *validation;
  /* Kernel hooks for benchmarks (bench/); neither changes the trajectory.
   * assemble: residual F (N) and Jacobian J (N x N, row-major; either may
   * be NULL) of the next step's nonlinear system at its initial guess.
   * solve: one solve of the next step's system from its initial guess,
   * counted in stats, result discarded. unknowns: N, the size of one
   * step's nonlinear system. */
  int (*assemble)(void *state, VI_REAL *F, VI_REAL *J);
  int (*solve)(void *state, VI_X(vi_stats) *stats);
  int (*unknowns)(const void *state);
} VI_X(vi_method_type);

extern const VI_X(vi_method_type) *const VI_X(vi_method_types)[];

/* A stepper: method type + options + state, one allocation. */
typedef struct VI_X(vi_stepper) VI_X(vi_stepper);

/* 1 when the system type has every table the method type needs
 * (type->needs) and no constraint kind the family does not handle (needs
 * and optional), else 0 with the reason in why (may be NULL). */
int VI_X(vi_method_compatible)(const VI_X(vi_method_type) *type,
                               const VI_X(vi_system_type) *sty, char *why, size_t len);
/* vi_method_compatible, then the family's own refusals for these options
 * (type->accepts): VI_OK, or VI_EUNSUPPORTED with the reason in why. */
int VI_X(vi_method_accepts)(const VI_X(vi_method_type) *type, const void *opts,
                            const VI_X(vi_system_type) *sty, char *why, size_t len);
/* The method type of a registered family by name; NULL when unknown (err
 * lists the valid names). */
const VI_X(vi_method_type) *VI_X(vi_method_find)(const char *name, char *err, size_t errlen);

/* Parse a spec NAME[:key=value,...] against the registry; refuses a system
 * the family cannot integrate (vi_method_accepts) with the reason
 * (VI_EUNSUPPORTED). */
int VI_X(vi_stepper_alloc)(const char *spec, const VI_X(vi_system) *sys,
                           VI_X(vi_stepper) **out, char *err, size_t errlen);
/* vi_stepper_alloc for a family given by its type, registered or the
 * caller's own (examples/symplectic_euler.c): spec is NAME[:key=value,...]
 * with NAME the type's name, parsed against its option table; the same
 * checks. */
int VI_X(vi_stepper_alloc_type)(const VI_X(vi_method_type) *type, const char *spec,
                                const VI_X(vi_system) *sys, VI_X(vi_stepper) **out,
                                char *err, size_t errlen);
/* The typed constructor: the family's options struct (vi_galerkin_opts,
 * vi_man2020_opts, ...; core/methods/NAME.h) instead of a spec string; the
 * same checks. */
int VI_X(vi_stepper_alloc_opts)(const VI_X(vi_method_type) *type, const void *opts,
                                const VI_X(vi_system) *sys, VI_X(vi_stepper) **out,
                                char *err, size_t errlen);
void VI_X(vi_stepper_free)(VI_X(vi_stepper) *st);
/* node0 is bound to vi_node_size(vi_stepper_dims(st)) reals. */
int VI_X(vi_stepper_init)(VI_X(vi_stepper) *st,
                          const VI_X(vi_solver_opts) *solver, VI_REAL h,
                          VI_REAL t0, const VI_REAL *q0, const VI_REAL *p0,
                          VI_X(vi_node) *node0);
int VI_X(vi_stepper_step)(VI_X(vi_stepper) *st, VI_X(vi_node) *next);
/* Whether the stepper's family can run solver kind (vi_solver_kind): VI_OK,
 * or VI_EUNSUPPORTED with the reason and the families that can in err
 * (the fixed-point iteration needs a family's leading part,
 * vi_method_type.fixed_point). vi_stepper_init checks it too. */
int VI_X(vi_stepper_solver_check)(const VI_X(vi_stepper) *st, int kind, char *err,
                                  size_t errlen);
const VI_X(vi_stats) *VI_X(vi_stepper_stats)(const VI_X(vi_stepper) *st);
/* The dimensions of the stepper's nodes (the system's and the method's
 * extra block). */
const vi_dims *VI_X(vi_stepper_dims)(const VI_X(vi_stepper) *st);
/* The residuals it keeps at the nodes (vi_method_type.keeps). */
unsigned VI_X(vi_stepper_keeps)(const VI_X(vi_stepper) *st);
/* The intervals its init solves ahead (vi_method_type.lookahead, or
 * lookahead_of for its options). */
int VI_X(vi_stepper_lookahead)(const VI_X(vi_stepper) *st);
/* The column name of extra real i (0-based) into buf: extra_name1, ...;
 * i < 0: the block's name (extra_name). */
void VI_X(vi_stepper_extra_name)(const VI_X(vi_stepper) *st, int i, char *buf, size_t len);
/* What the exact flow says of the extra block (VI_EXTRA_*). */
int VI_X(vi_stepper_extra_ref)(const VI_X(vi_stepper) *st);
/* The reason init gave for its last failure, "" when none. */
const char *VI_X(vi_stepper_error)(const VI_X(vi_stepper) *st);
/* Benchmark kernels of the method type (after init; VI_EUNSUPPORTED when
 * the family has none): one assembly of the next step's residual and
 * Jacobian, one nonlinear solve of the next step (see vi_method_type). */
int VI_X(vi_stepper_assemble)(VI_X(vi_stepper) *st, VI_REAL *F, VI_REAL *J);
int VI_X(vi_stepper_solve)(VI_X(vi_stepper) *st);
/* The declared order of a quantity (see vi_method_type.expected_order);
 * -1 when the family declares none. */
int VI_X(vi_stepper_expected_order)(const VI_X(vi_stepper) *st, int quantity);
/* Unknowns per step of an initialised stepper (0 when unknown). */
int VI_X(vi_stepper_unknowns)(const VI_X(vi_stepper) *st);
void VI_X(vi_stepper_spec)(const VI_X(vi_stepper) *st, char *buf, size_t len);

/* ---- the fixed-step driver (core/integrate_tmpl.c) ---------------------------- */

/* Called at every node k = 0..N (node 0 right after init); VI_OK to go on,
 * any other value stops the driver, which returns it. */
typedef int (*VI_X(vi_observer))(void *ctx, long k, const VI_X(vi_node) *node);

/* Initialise st at (q0, p0), t = 0, with step h (solver options may be
 * NULL: defaults), then take N steps, calling obs (may be NULL) at every
 * node. node is the caller's storage, bound to vi_node_size(vi_stepper_dims(st))
 * reals by vi_node_bind (or made by vi_node_alloc): q, p, the multipliers
 * and the method's extra block. Returns
 * VI_OK, the first failing status of init or of a step, or the
 * observer's; *last (may be NULL) receives the index of the last node the
 * observer saw, -1 when init failed. */
int VI_X(vi_integrate)(VI_X(vi_stepper) *st, const VI_X(vi_solver_opts) *solver, VI_REAL h,
                       long N, const VI_REAL *q0, const VI_REAL *p0, VI_X(vi_node) *node,
                       VI_X(vi_observer) obs, void *ctx, long *last);

/* The observer of global errors (wenger2017 §4.1): at every node the max
 * abs errors e[0..2] of q, p and lambda (all ml multipliers) against the
 * reference rows (Q, P, L; Q NULL: none), and with energy set the max
 * relative energy error |E_k - E_0| / |E_0| (man2020 (46)) in eE and the
 * sum of its squares over the nodes in eE2 (nE nodes, the last term in
 * eElast: the trapezoidal mean over [0, t_k] is (eE2 - eElast/2) / (nE - 1),
 * the first term being 0; its root is the robust energy measure of
 * docs/orders.md). A NaN anywhere makes the error NaN. The energy error is
 * absolute when |E_0| <= VI_ENERGY_ABS_BELOW: a Hamiltonian shifted to
 * vanish on the orbit (tyranowski2014 §5 plots H itself) has no scale to be
 * relative to. The multiplier error e[2] is taken over the nodes k >= 1;
 * node 0's, the start value lambda_0 a method computes from its first step
 * alone (one-sided, so of lower order than the two-sided values at later
 * nodes when the initial velocity is not zero; docs/orders.md), goes to
 * eL0. With n_extra > 0 (the method's extra block, vi_stepper_dims) eX is
 * max_k |extra_k|_inf over the nodes k >= 1 (node 0's extra is a start
 * value, as lambda_0's). */
typedef struct VI_X(vi_err_obs) {
  const VI_X(vi_system) *sys;
  const VI_REAL *Q, *P, *L;
  VI_REAL e[3];
  VI_REAL eL0; /* |lambda_0 - lambda_ref(0)|: the start value */
  VI_REAL eE, E0;
  VI_REAL eE2; /* sum over the nodes of the squared relative energy error */
  VI_REAL eElast; /* its last term (the trapezoidal rule halves it) */
  long nE;     /* nodes in eE2 */
  int energy;
  int n_extra;
  VI_REAL eX; /* max |extra| over the nodes k >= 1 */
} VI_X(vi_err_obs);
/* n_extra: the reals of the extra block of the nodes observed (0: none). */
void VI_X(vi_err_obs_init)(VI_X(vi_err_obs) *o, const VI_X(vi_system) *sys, const VI_REAL *Q,
                           const VI_REAL *P, const VI_REAL *L, int energy, int n_extra);
int VI_X(vi_err_observe)(void *ctx, long k, const VI_X(vi_node) *nd);

/* ---- measures of a node (core/measure_tmpl.c, measures.h) ---------------- */

/* Every measure of a node of sys run by st (NULL: the system alone, no
 * extra block), in the order of run's columns: t, q1..q{nq}, p1..pn,
 * lambda1..lambda{m}, mu1..mu{m_nh}, the extra block, energy, alpha_defect
 * (degenerate) or g_norm, gv_norm (holonomic), phi_norm (nonholonomic),
 * group_defect (a group in an embedding), the momentum maps by name. The
 * count; out (cap entries) may be NULL. */
int VI_X(vi_measures)(const VI_X(vi_system) *sys, const VI_X(vi_stepper) *st, vi_measure *out,
                      int cap);
/* A measure by its name (a column of vi_measures, or a block "q", "p",
 * "lambda", "mu" or the extra block's name as its max norm); VI_EINVAL
 * naming the valid ones. */
int VI_X(vi_measure_find)(const VI_X(vi_system) *sys, const VI_X(vi_stepper) *st,
                          const char *name, vi_measure *m, char *err, size_t errlen);
/* Reals of scratch vi_measure_eval needs. */
size_t VI_X(vi_measure_work)(const VI_X(vi_system) *sys);
/* The values of nm measures at a node (n_extra: its extra block's reals)
 * into out; a status when a callback fails. */
int VI_X(vi_measure_eval)(const VI_X(vi_system) *sys, const vi_measure *m, int nm,
                          const VI_X(vi_node) *nd, int n_extra, VI_REAL *work, VI_REAL *out);
/* The errors of a node against a reference node, the max norms of the
 * blocks in blocks (VI_ERR_Q, VI_ERR_P, VI_ERR_LAMBDA: every multiplier),
 * folded into e[VI_Q], e[VI_P], e[VI_LAMBDA] as maxima (a NaN sticks): the
 * one definition of the global error (wenger2017 §4.1) the order studies,
 * the error observer and the sweeps use. */
void VI_X(vi_node_errors)(const vi_dims *d, const VI_X(vi_node) *nd,
                          const VI_X(vi_node) *ref, unsigned blocks, VI_REAL e[VI_NQUANT]);

/* ---- reference solutions (core/reference_tmpl.c) ------------------------------ */

/* What produced a reference and how accurate it is believed to be. */
typedef struct VI_X(vi_reference_info) {
  char method[256]; /* e.g. "exact (Jacobi elliptic, GSL)", "rk8pd index-1, tol 1e-14" */
  double accuracy;  /* estimated max abs error of q, p, lambda at the nodes */
  int cached;       /* 1 if read from the on-disk cache */
  char note[320];   /* "" or why the cache could not be written (the
                       reference itself is fine) */
} VI_X(vi_reference_info);

/* Reference values at the nodes t_k = k h, k = 0..K, for the system's own
 * initial data (sys->q0, sys->p0): Q is (K+1) x nq, P (K+1) x n, L (K+1) x ml,
 * row-major. Never from a method under test: the exact solution where the
 * system has one in this precision, otherwise an independent high-accuracy
 * integration of the index-1 form (lambda from wenger2017 (70)). cache_dir
 * (NULL: no cache) holds results keyed by system, parameters, precision, h
 * and K. Returns a status with a message in err. */
int VI_X(vi_reference)(const VI_X(vi_system) *sys, VI_REAL h, long K,
                       VI_REAL *Q, VI_REAL *P, VI_REAL *L,
                       const char *cache_dir, VI_X(vi_reference_info) *info,
                       char *err, size_t errlen);

/* The time scale of the motion at the initial data (core/reference_tmpl.c):
 * the time in which q moves by its own size (|q0|_inf, 1 when q0 = 0),
 * from the initial velocity and acceleration of the form's equations (the
 * reference's right-hand side): min(s / |qdot|, sqrt(s / |qddot|)). Infinite
 * for a system at rest in equilibrium. A status when the right-hand side
 * fails. Sets the first step size of automatic order studies. */
int VI_X(vi_system_time_scale)(const VI_X(vi_system) *sys, double *tau);

/* ---- drivers (core/run_tmpl.c, core/order_tmpl.c) ---------------------------------- */

/* Find a system type by name; NULL if unknown (err lists the valid ones). */
const VI_X(vi_system_type) *VI_X(vi_system_find)(const char *name, char *err,
                                                 size_t errlen);

/* Format x with the full precision of the working type (17 significant
 * digits in double, 36 in quad). */
int VI_X(vi_format_real)(char *buf, size_t len, VI_REAL x);

/* Solver options of a typed configuration: refuses KINSOL in quad
 * (VI_EUNSUPPORTED) and an rtol below the precision's epsilon (VI_EINVAL),
 * with the reason in err. */
int VI_X(vi_solver_opts_from)(const vi_solver_config *c, VI_X(vi_solver_opts) *so,
                              char *err, size_t errlen);

/* An order study: run the method for each N (h = T/N), measure the global
 * errors max_k |x_k - x_ref(t_k)|_inf of q, p and lambda against
 * vi_reference, and the relative energy error. Without explicit runs h =
 * T/N with N doubling, chosen so the q errors span the range above the
 * round-off floor. Fits are left to vi_fit_order. Returns a vi_status;
 * r->started tells a failure while setting up (bad system data, method
 * spec, T) from one while running. */
int VI_X(vi_order_study)(const vi_order_config *c, vi_order_result *r, char *err,
                         size_t errlen);

/* A trace (drivers.h, vi_trace_config): one run reduced to windows of a
 * measure (core/trace_tmpl.c). */
int VI_X(vi_trace)(const vi_trace_config *c, vi_trace_result *r, char *err, size_t errlen);

/* The conformance checks of one method family (docs/architecture.md, "The
 * method-system contract"), registered or the caller's own
 * (examples/symplectic_euler.c): each of its example specs on every system
 * of systems (NULL-terminated; NULL: the registry, vi_system_types) that
 * it is compatible with, in this precision. It runs, keeps the residuals
 * it declares kept (vi_method_type.keeps), a group element on its group,
 * its extra block finite and named apart from the other measures; its
 * look-ahead is the declared one; the benchmark hooks leave the
 * trajectory alone; every solver lands where exact Newton does (a family
 * without the fixed-point iteration refuses it); every declared order is
 * measured (q, p, lambda, energy, the extra block; exact energies, extra
 * blocks and momentum maps at round-off; an order whose errors reach the
 * floor of double is left to the quad pass, _q, with a note); a failing
 * force is reported with its sign. Everything goes through type, never the method registry
 * by name (vi_stepper_alloc_type, vi_order_config.method_d/_q,
 * vi_trace_config.method_d/_q). Every check's line and every note goes to
 * report (may be NULL) with ctx; counts (may be NULL) receives what was
 * run. Returns the number of failed checks (0: conforms), or VI_EINVAL
 * (< 0) when type is NULL. */
int VI_X(vi_conformance)(const VI_X(vi_method_type) *type,
                         const VI_X(vi_system_type) *const *systems,
                         vi_conformance_report report, void *ctx,
                         vi_conformance_counts *counts);

/* This precision's table of entry points for untemplated code. */
extern const vi_api VI_X(vi_api);

#ifdef __cplusplus
}
#endif
