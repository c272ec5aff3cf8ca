/* system_tmpl.c: system instances in the working precision (prec.h): parameter
 * handling (defaults, then "name=v1,v2,..." overrides), one allocation per
 * instance, consistency of the initial data (g(q0) = 0, G(q0) v0 = 0), the
 * cached mass matrix and its inverse, and the quantities every method and
 * study derives from a system type: total energy, the hidden constraint
 * G M^-1 p, the projection (4) of wenger2017 onto it, the Lagrange
 * multiplier (70) of wenger2017 for the mechanical Hamiltonian, and the
 * finite-difference check of every hand-written derivative. Sign convention
 * (api_tmpl.h): Lbar = L - g(q) . lambda, so M qdd = -grad V - G' lambda.
 * Compiled once per precision. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prec.h"
#include "numerics_tmpl.h"
#include "api_tmpl.h"

/* Every block handed out by malloc is aligned for max_align_t; the real
 * arrays carved from it need no more than that (__float128 needs 16 bytes,
 * as max_align_t does on x86-64 and aarch64). */
_Static_assert(_Alignof(VI_REAL) <= _Alignof(max_align_t),
               "VI_REAL needs more alignment than malloc guarantees");
#define VI_SYS_ALIGN _Alignof(max_align_t)

static size_t round_up(size_t x) {
  return (x + VI_SYS_ALIGN - 1) / VI_SYS_ALIGN * VI_SYS_ALIGN;
}

/* ---- scratch space of the kernels ---------------------------------------- */

/* The kernels (energy, hidden, project_p, lambda) are called inside steps,
 * where nothing may allocate: their scratch lives on the stack up to these
 * sizes and only larger systems fall back to the heap. vi_system_lambda,
 * the largest, needs 2 ml n + ml^2 + m_nh n + n^2 + 3n + m reals (ml = m +
 * m_nh multipliers; a configuration-dependent M adds 2n^2 + n, its force
 * term more): 512 covers n = 12 with ml <= 9 and every system so far
 * (n <= 6, ml <= 5). */
#define VI_SYS_STACK_REALS 512
#define VI_SYS_STACK_INTS 64

typedef struct scratch {
  VI_REAL *w;
  int *piv;
  VI_REAL wbuf[VI_SYS_STACK_REALS];
  int pbuf[VI_SYS_STACK_INTS];
} scratch;

static int scratch_get(scratch *s, size_t nreal, size_t nint) {
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

static void scratch_put(scratch *s) {
  if (s->w != s->wbuf) {
    free(s->w);
  }
  if (s->piv != s->pbuf) {
    free(s->piv);
  }
}

/* y = A x for the r x c row-major A. */
static void matvec(int r, int c, const VI_REAL *A, const VI_REAL *x,
                   VI_REAL *y) {
  for (int i = 0; i < r; i++) {
    VI_REAL s = 0;
    for (int j = 0; j < c; j++) {
      s += A[i * c + j] * x[j];
    }
    y[i] = s;
  }
}

/* Scratch reals minv_at needs (none for a constant mass matrix). */
static size_t minv_work(const VI_X(vi_system) *sys) {
  size_t n = (size_t)sys->n;
  return sys->config_mass ? 2 * n * n + n : 0;
}

/* Invert the n x n matrix A (destroyed: its LU) column by column into Ainv;
 * col holds n reals. */
static int invert(int n, VI_REAL *A, VI_REAL *Ainv, VI_REAL *col, int *piv) {
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

/* M(q)^-1: sys->Minv for a constant mass matrix, otherwise computed into
 * work (minv_work reals; piv n ints). *out points at the result. */
static int minv_at(const VI_X(vi_system) *sys, const VI_REAL *q, VI_REAL *work,
                   int *piv, const VI_REAL **out) {
  if (!sys->config_mass) {
    *out = sys->Minv;
    return VI_OK;
  }
  const int n = sys->n;
  VI_REAL *A = work, *Ainv = A + n * n, *col = Ainv + n * n;
  int rc = vi_callback_status(sys->type->mech->mass_q(sys->state, q, A));
  if (rc == VI_OK) {
    rc = invert(n, A, Ainv, col, piv);
  }
  *out = Ainv;
  return rc;
}

/* B = G M^-1 (m x n) and S = G M^-1 G' = B G' (m x m), factored in place,
 * for the m rows of G (the holonomic G, or the nonholonomic A).
 * M^-1 is symmetric, so S is symmetric positive definite whenever G has
 * full rank; a singular S means the constraints are dependent at q. */
static int schur_rows(int n, int m, const VI_REAL *Minv, const VI_REAL *G, VI_REAL *B,
                      VI_REAL *S, int *piv) {
  for (int k = 0; k < m; k++) {
    for (int j = 0; j < n; j++) {
      VI_REAL s = 0;
      for (int i = 0; i < n; i++) {
        s += G[k * n + i] * Minv[i * n + j];
      }
      B[k * n + j] = s;
    }
  }
  for (int k = 0; k < m; k++) {
    for (int l = 0; l < m; l++) {
      VI_REAL s = 0;
      for (int j = 0; j < n; j++) {
        s += B[k * n + j] * G[l * n + j];
      }
      S[k * m + l] = s;
    }
  }
  return VI_X(vi_lu_factor)(m, S, piv);
}

/* The M-orthogonal projection of p onto C M^-1 p + c = 0 (C: k x n rows,
 * c: k offsets or NULL for zeros), given B = C M^-1 and the factored
 * S = C M^-1 C' (schur_rows): p <- p - C' S^-1 (B p + c); y: k reals. Used
 * for the hidden constraint (wenger2017 (4), C = G, c = 0) and the
 * nonholonomic one (C = A, c = a). */
static void project_affine(int n, int k, const VI_REAL *C, const VI_REAL *c, const VI_REAL *B,
                           const VI_REAL *S, const int *piv, VI_REAL *y, VI_REAL *p) {
  for (int i = 0; i < k; i++) {
    VI_REAL t = c != NULL ? c[i] : 0;
    for (int j = 0; j < n; j++) {
      t += B[i * n + j] * p[j];
    }
    y[i] = t;
  }
  VI_X(vi_lu_solve)(k, S, piv, y);
  for (int j = 0; j < n; j++) {
    VI_REAL t = 0;
    for (int i = 0; i < k; i++) {
      t += C[i * n + j] * y[i];
    }
    p[j] -= t;
  }
}

/* Move q0 onto g(q) = 0 along M^-1 G' (the M-orthogonal direction):
 * q <- q - M^-1 G'(G M^-1 G')^-1 g(q), a few Newton steps from data that is
 * already consistent to VI_CONSISTENCY_TOL. Returns VI_OK, VI_SINGULAR
 * (dependent rows of G) or a mapped callback status. */
static int project_q(VI_X(vi_system) *sys) {
  int n = sys->n, m = sys->m;
  scratch s;
  int rc = scratch_get(&s, 2 * (size_t)m * (size_t)n + (size_t)m * (size_t)m +
                               (size_t)m + minv_work(sys),
                       (size_t)(m + n));
  if (rc != VI_OK) {
    return rc;
  }
  VI_REAL *G = s.w, *B = G + m * n, *S = B + m * n, *y = S + m * m;
  VI_REAL *mw = y + m;
  const VI_REAL *Minv = NULL;
  for (int it = 0; it < 4 && rc == VI_OK; it++) {
    rc = vi_callback_status(sys->type->holo->constraint(sys->state, sys->q0, y));
    if (rc == VI_OK) {
      rc = vi_callback_status(sys->type->holo->constraint_jac(sys->state, sys->q0, G));
    }
    if (rc == VI_OK) {
      rc = minv_at(sys, sys->q0, mw, s.piv, &Minv);
    }
    if (rc == 0) {
      rc = schur_rows(n, m, Minv, G, B, S, s.piv);
    }
    if (rc == VI_OK) {
      VI_X(vi_lu_solve)(m, S, s.piv, y);
      for (int j = 0; j < n; j++) {
        VI_REAL t = 0;
        for (int k = 0; k < m; k++) {
          t += B[k * n + j] * y[k]; /* (M^-1 G')_jk = B_kj, M symmetric */
        }
        sys->q0[j] -= t;
      }
    }
  }
  scratch_put(&s);
  return rc;
}

/* ---- parameters ------------------------------------------------------------ */

/* Parse exactly count comma-separated reals of text (of length len) into
 * out. Returns 0, or -1 for a wrong count (*got set), or -2 for a bad
 * token (copied to bad, which has badlen bytes). */
static int parse_values(const char *text, size_t len, int count, VI_REAL *out,
                        int *got, char *bad, size_t badlen) {
  int k = 0;
  if (len > 0) {
    k = 1;
    for (size_t i = 0; i < len; i++) {
      k += text[i] == ',';
    }
  }
  *got = k;
  if (k != count) {
    return -1;
  }
  const char *s = text, *end = text + len;
  for (int i = 0; i < count; i++) {
    const char *comma = memchr(s, ',', (size_t)(end - s));
    const char *tok_end = comma != NULL ? comma : end;
    size_t tl = (size_t)(tok_end - s);
    /* Copy the token so that strtod cannot read past it (text is not
     * necessarily NUL terminated at tok_end). */
    char tok[128];
    int ok = tl < sizeof tok;
    VI_REAL v = 0;
    if (ok) {
      memcpy(tok, s, tl);
      tok[tl] = '\0';
      char *e = NULL;
      v = vi_strtor(tok, &e);
      while (e != NULL && (*e == ' ' || *e == '\t')) {
        e++;
      }
      ok = e != NULL && e != tok && *e == '\0' && vi_isfinite(v);
    }
    if (!ok) {
      size_t bl = tl < badlen - 1 ? tl : badlen - 1;
      memcpy(bad, s, bl);
      bad[bl] = '\0';
      return -2;
    }
    out[i] = v;
    s = tok_end + 1;
  }
  return 0;
}

static void list_params(const vi_system_info *info, char *buf, size_t len) {
  size_t used = 0;
  buf[0] = '\0';
  for (const vi_param *p = info->params; p != NULL && p->name != NULL; p++) {
    int w = snprintf(buf + used, len - used, "%s%s",
                     p == info->params ? "" : ", ", p->name);
    if (w < 0 || (size_t)w >= len - used) {
      return;
    }
    used += (size_t)w;
  }
}

/* Fill par from the defaults, then apply the overrides in order. */
/* More parameters than any system has: the repeated-setting check. */
#define VI_MAX_PARAMS 64

static int set_params(const vi_system_info *info, VI_REAL *par, int nset,
                      const char *const *set, char *err, size_t errlen) {
  char bad[64];
  int got;
  int off = 0;
  for (const vi_param *p = info->params; p != NULL && p->name != NULL; p++) {
    const char *d = p->defaults != NULL ? p->defaults : "";
    int rc = parse_values(d, strlen(d), p->count, par + off, &got, bad,
                          sizeof bad);
    if (rc != 0) {
      vi_set_err(err, errlen,
              "default of parameter %s of %s is malformed ('%s'): a bug in "
              "the system type",
              p->name, info->name, d);
      return VI_EINVAL;
    }
    off += p->count;
  }
  unsigned char seen[VI_MAX_PARAMS] = {0};
  for (int i = 0; i < nset; i++) {
    const char *s = set[i];
    const char *eq = s != NULL ? strchr(s, '=') : NULL;
    if (eq == NULL) {
      vi_set_err(err, errlen, "parameter setting '%s' for %s is not name=value",
              s != NULL ? s : "(null)", info->name);
      return VI_EINVAL;
    }
    size_t nl = (size_t)(eq - s);
    const vi_param *p = info->params;
    off = 0;
    int pi = 0;
    for (; p != NULL && p->name != NULL; p++, pi++) {
      if (strlen(p->name) == nl && strncmp(p->name, s, nl) == 0) {
        break;
      }
      off += p->count;
    }
    if (p == NULL || p->name == NULL) {
      char valid[256];
      list_params(info, valid, sizeof valid);
      vi_set_err(err, errlen, "unknown parameter '%.*s' for system %s; valid: %s",
              (int)nl, s, info->name, valid);
      return VI_EINVAL;
    }
    if (pi < VI_MAX_PARAMS && seen[pi]++) {
      vi_set_err(err, errlen, "parameter %s of %s is set twice; set each parameter once",
                 p->name, info->name);
      return VI_EINVAL;
    }
    int rc = parse_values(eq + 1, strlen(eq + 1), p->count, par + off, &got,
                          bad, sizeof bad);
    if (rc == -1) {
      vi_set_err(err, errlen, "parameter %s of %s takes %d value%s, got %d",
              p->name, info->name, p->count, p->count == 1 ? "" : "s", got);
      return VI_EINVAL;
    }
    if (rc != 0) {
      vi_set_err(err, errlen,
              "parameter %s of %s: '%s' is not a finite number", p->name,
              info->name, bad);
      return VI_EINVAL;
    }
  }
  /* Every value inside its parameter's domain (defaults included). */
  off = 0;
  for (const vi_param *p = info->params; p != NULL && p->name != NULL; p++) {
    for (int c = 0; c < p->count; c++) {
      VI_REAL v = par[off + c];
      int ok = p->domain == VI_PARAM_POSITIVE ? v > 0
               : p->domain == VI_PARAM_NONNEG ? v >= 0
                                              : 1;
      if (!ok) {
        char idx[16] = "";
        if (p->count > 1) {
          snprintf(idx, sizeof idx, "[%d]", c + 1);
        }
        vi_set_err(err, errlen, "parameter %s%s of %s must be %s, got %.17g", p->name, idx,
                   info->name, vi_param_domain_text(p->domain), (double)v);
        return VI_EINVAL;
      }
    }
    off += p->count;
  }
  return VI_OK;
}

/* ---- instance ------------------------------------------------------------- */

void VI_X(vi_system_free)(VI_X(vi_system) *sys) {
  free(sys);
}

static int lie_setup(VI_X(vi_system) *sys, char *err, size_t errlen);
/* Which velocity constraints project_kind (below) projects onto. */
enum { PK_HOLO = 1, PK_NH = 2 };
static int project_kind(const VI_X(vi_system) *sys, const VI_REAL *q, VI_REAL *p,
                              int mask);
static int lie_dynamics(const VI_X(vi_system) *sys, const VI_REAL *g, const VI_REAL *xi,
                              VI_REAL *lambda, VI_REAL *xidot);
static int lie_nh_residual(const VI_X(vi_system) *sys, const VI_REAL *g, const VI_REAL *xi,
                           VI_REAL *r);

int VI_X(vi_system_alloc)(const VI_X(vi_system_type) *type, int nset,
                          const char *const *set, VI_X(vi_system) **out,
                          char *err, size_t errlen) {
  if (out == NULL) {
    vi_set_err(err, errlen, "vi_system_alloc: out is NULL");
    return VI_EINVAL;
  }
  *out = NULL;
  if (type == NULL || type->info == NULL || (nset > 0 && set == NULL) ||
      nset < 0) {
    vi_set_err(err, errlen, "vi_system_alloc: %s",
            type == NULL || type->info == NULL ? "no system type"
                                               : "bad parameter list");
    return VI_EINVAL;
  }
  const vi_system_info *info = type->info;
  int n = info->n, m = info->m, nq = info->nq > 0 ? info->nq : n;
  if (n <= 0 || m < 0 || m > n || info->m_nh < 0 || m + info->m_nh > n || nq < n ||
      (nq > n && type->lie == NULL)) {
    vi_set_err(err, errlen,
               "system %s has bad sizes n = %d, nq = %d, m = %d (nq > n only for a group "
               "in an embedding)",
               info->name, n, nq, m);
    return VI_EINVAL;
  }
  /* The tables a type must have (api_tmpl.h): exactly one Lagrangian
   * form with its required callbacks, the holonomic table exactly when
   * m > 0, and initial data. */
  const VI_X(vi_mech_ops) *mech = type->mech;
  const VI_X(vi_degen_ops) *dg = type->degen;
  const VI_X(vi_lie_ops) *lie = type->lie;
  const VI_X(vi_space_ops) *sp = type->space;
  const int config_mass = VI_X(vi_type_config_mass)(type);
  const char *missing =
      (mech != NULL) + (dg != NULL) + (lie != NULL) != 1
          ? "exactly one Lagrangian form (mech, degen or lie)"
      : (lie != NULL) != (sp != NULL) ? "a group table (space) exactly with the Lie form"
      : sp && (sp->compose == NULL || sp->inverse == NULL || sp->cay == NULL ||
               sp->local == NULL || sp->dcay == NULL || sp->ad == NULL || sp->tangent == NULL)
          ? "compose, inverse, cay, local, dcay, ad and tangent of the group"
      : lie && (lie->lagrangian == NULL || lie->dxi == NULL || lie->force == NULL ||
                lie->dxi2 == NULL)
          ? "lagrangian, dxi, force and dxi2 of the Lie form"
      : sp && nq > n && sp->project == NULL
          ? "project of the group (its elements are stored in an embedding, nq > n)"
      : lie && m > 0 ? "holonomic constraints only with the mechanical form"
      : mech && !(config_mass ? mech->kinetic != NULL && mech->mass == NULL
                              : mech->mass != NULL)
          ? "either mass, or mass_q and kinetic"
      : mech && (mech->potential == NULL || mech->grad_potential == NULL)
          ? "potential and grad_potential"
      : dg && (dg->alpha == NULL || dg->dalpha == NULL || dg->hamiltonian == NULL ||
               dg->grad_hamiltonian == NULL)
          ? "alpha, dalpha, hamiltonian and grad_hamiltonian"
      : (m > 0) != (type->holo != NULL) ? "a holonomic table exactly when m > 0"
      : m > 0 && (type->holo->constraint == NULL || type->holo->constraint_jac == NULL)
          ? "constraint and constraint_jac"
      : m > 0 && dg ? "holonomic constraints only with the mechanical form"
      : (info->m_nh > 0) != (type->nh != NULL) ? "a nonholonomic table exactly when m_nh > 0"
      : type->nh && (type->nh->matrix == NULL || type->nh->dphi_dq == NULL)
          ? "matrix and dphi_dq of the nonholonomic table"
      : type->nh && dg ? "nonholonomic constraints only with the mechanical or Lie form"
      : type->initial == NULL ? "initial data"
                              : NULL;
  if (missing) {
    vi_set_err(err, errlen, "system type %s is incomplete: it needs %s", info->name,
               missing);
    return VI_EUNSUPPORTED;
  }
  int nval = 0;
  for (const vi_param *p = info->params; p != NULL && p->name != NULL; p++) {
    nval += p->count;
  }

  /* One block: the header, the real arrays (par, M, Minv, q0, p0; M and
   * Minv for the mechanical form only) and the private state of the type,
   * each starting on a max_align_t boundary. */
  const size_t nmass = mech ? 2 * (size_t)n * (size_t)n : 0;
  size_t nreal = (size_t)nval + nmass + 3 * (size_t)n + (size_t)(nq - n);
  size_t off_real = round_up(sizeof(VI_X(vi_system)));
  size_t off_state = round_up(off_real + nreal * sizeof(VI_REAL));
  size_t total = off_state + round_up(type->state_size);
  unsigned char *block = calloc(1, total);
  if (block == NULL) {
    vi_set_err(err, errlen, "out of memory allocating system %s", info->name);
    return VI_ENOMEM;
  }
  VI_X(vi_system) *sys = (VI_X(vi_system) *)(void *)block;
  VI_REAL *r = (VI_REAL *)(void *)(block + off_real);
  sys->type = type;
  sys->n = n;
  sys->nq = nq;
  sys->m = m;
  sys->m_nh = info->m_nh;
  sys->ml = m + info->m_nh;
  sys->config_mass = config_mass;
  sys->par = r;
  sys->M = mech ? sys->par + nval : NULL;
  sys->Minv = mech ? sys->M + n * n : NULL;
  sys->q0 = sys->par + nval + nmass;
  sys->p0 = sys->q0 + nq;
  sys->v0 = sys->p0 + n;
  sys->state = type->state_size > 0 ? block + off_state : NULL;

  /* Scratch of the set-up: LU of M and a column (n^2 + n), v0 (n), g (m),
   * G (m x n), G v0 (m); pivots (n). */
  scratch w;
  if (scratch_get(&w, (size_t)n * (size_t)n + 2 * (size_t)n + 2 * (size_t)m +
                          (size_t)m * (size_t)n,
                  (size_t)n) != VI_OK) {
    free(block);
    vi_set_err(err, errlen, "out of memory allocating system %s", info->name);
    return VI_ENOMEM;
  }
  VI_REAL *LU = w.w, *col = LU + n * n, *v0 = col + n, *g = v0 + n;
  VI_REAL *G = g + m, *gv = G + m * n;
  /* The callback that failed, for the message at callback_fail. */
  const char *what = "mass";
  int crc = 0;

  int rc = set_params(info, sys->par, nset, set, err, errlen);
  if (rc != VI_OK) {
    goto fail;
  }
  if (type->setup != NULL) {
    int src = type->setup(sys->state, sys->par);
    if (src != 0) {
      vi_set_err(err, errlen,
              "system %s rejected its parameters (setup returned %d); see "
              "'vistudy list systems' for their meaning and ranges",
              info->name, src);
      rc = VI_EINVAL;
      goto fail;
    }
  }
  /* Initial data, then the mass matrix (at q0 when it depends on q), then
   * the consistency of the data. The degenerate form has p0 = alpha(q0)
   * and nothing else to check (tyranowski2014 §4: no special first step). */
  what = "initial";
  memset(v0, 0, (size_t)n * sizeof *v0);
  crc = type->initial(sys->state, sys->q0, dg ? NULL : v0);
  if (crc != 0) {
    goto callback_fail;
  }
  if (dg) {
    what = "alpha";
    crc = dg->alpha(sys->state, sys->q0, sys->p0);
    if (crc != 0) {
      goto callback_fail;
    }
  }
  for (int i = 0; i < nq; i++) {
    if (!vi_isfinite(sys->q0[i]) || (i < n && (!vi_isfinite(v0[i]) || !vi_isfinite(sys->p0[i])))) {
      vi_set_err(err, errlen, "initial data of system %s is not finite",
              info->name);
      rc = VI_EINVAL;
      goto fail;
    }
  }
  if (dg) {
    scratch_put(&w);
    *out = sys;
    return VI_OK;
  }
  if (lie) {
    /* Lie form: xi0 projected onto the nonholonomic constraints (in the
     * metric of D2 D2 l), then mu0 = D2 l(g0, xi0). */
    memcpy(sys->v0, v0, (size_t)n * sizeof *v0);
    rc = lie_setup(sys, err, errlen);
    scratch_put(&w);
    if (rc != VI_OK) {
      free(block);
      return rc;
    }
    *out = sys;
    return VI_OK;
  }
  what = config_mass ? "mass_q" : "mass";
  crc = config_mass ? type->mech->mass_q(sys->state, sys->q0, sys->M)
                    : type->mech->mass(sys->state, sys->M);
  if (crc != 0) {
    goto callback_fail;
  }
  memcpy(LU, sys->M, (size_t)n * (size_t)n * sizeof *LU);
  if (invert(n, LU, sys->Minv, col, w.piv) != VI_OK) {
    vi_set_err(err, errlen, "mass matrix of system %s is singular%s",
               info->name, config_mass ? " at q0" : "");
    rc = VI_EINVAL;
    goto fail;
  }
  if (crc == 0 && m > 0) {
    what = "constraint";
    crc = type->holo->constraint(sys->state, sys->q0, g);
  }
  if (crc == 0 && m > 0) {
    what = "constraint_jac";
    crc = type->holo->constraint_jac(sys->state, sys->q0, G);
  }
  if (crc != 0) {
    goto callback_fail;
  }
  /* Consistency of the initial data with every constraint: all residuals
   * are computed before any is refused, so that a system with both kinds
   * names each one that fails. Scales: g is quadratic in lengths (g = 1/2
   * (|x|^2 - l^2) for most systems), so its rounding error grows like
   * |q0|^2; G v0 and A v0 + a are linear in q and in v. Both are floored
   * at 1 so that small coordinates do not ask for more than the absolute
   * tolerance. */
  matvec(n, n, sys->M, v0, sys->p0);
  {
    VI_REAL qs = VI_X(vi_norm_inf)(n, sys->q0);
    VI_REAL vs = VI_X(vi_norm_inf)(n, v0);
    qs = qs > 1 ? qs : 1;
    vs = vs > 1 ? vs : 1;
    const VI_REAL tol_g = (VI_REAL)VI_CONSISTENCY_TOL * qs * qs;
    const VI_REAL tol_v = (VI_REAL)VI_CONSISTENCY_TOL * qs * vs;
    VI_REAL rg = 0, rgv = 0, rr = 0;
    if (m > 0) {
      matvec(m, n, G, v0, gv);
      rg = VI_X(vi_norm_inf)(m, g);
      rgv = VI_X(vi_norm_inf)(m, gv);
    }
    if (sys->m_nh > 0) {
      VI_REAL res[64];
      what = "nonholonomic constraint";
      crc = sys->m_nh <= 64 ? VI_X(vi_system_nh_residual)(sys, sys->q0, sys->p0, res) : VI_ENOMEM;
      if (crc != 0) {
        goto callback_fail;
      }
      rr = VI_X(vi_norm_inf)(sys->m_nh, res);
    }
    const int bad_h = m > 0 && !(rg <= tol_g && rgv <= tol_v);
    const int bad_nh = sys->m_nh > 0 && !(rr <= tol_v);
    if (bad_h || bad_nh) {
      char hmsg[160] = "", nmsg[96] = "";
      if (m > 0) {
        snprintf(hmsg, sizeof hmsg,
                 "|g(q0)| = %.1e (tolerance %.1e), |G(q0) v0| = %.1e (tolerance %.1e)",
                 (double)rg, (double)tol_g, (double)rgv, (double)tol_v);
      }
      if (sys->m_nh > 0) {
        snprintf(nmsg, sizeof nmsg, "|A(q0) v0 + a(q0)| = %.1e (tolerance %.1e)", (double)rr,
                 (double)tol_v);
      }
      vi_set_err(err, errlen, "inconsistent initial data for system %s: %s%s%s", info->name,
                 hmsg, hmsg[0] && nmsg[0] ? ", " : "", nmsg);
      rc = VI_EINCONSISTENT;
      goto fail;
    }
  }
  if (sys->m_nh > 0 && m == 0) {
    /* Nonholonomic only: v0 projected M-orthogonally onto the constraint
     * (with holonomic constraints too, onto both jointly once q0 is
     * projected, below). */
    crc = VI_X(vi_system_project_nh)(sys, sys->q0, sys->p0);
    if (crc == VI_SINGULAR) {
      goto dependent;
    }
    if (crc != 0) {
      goto callback_fail;
    }
  }
  /* Data within the tolerance is made consistent in the working precision:
   * a quad run from 17-digit data must not carry a 1e-17 constraint
   * residual at t = 0. */
  if (m > 0) {
    what = "constraint";
    crc = project_q(sys);
    if (crc == 0 && config_mass) {
      /* sys->M documents M(q0) at the projected q0. */
      what = "mass_q";
      crc = type->mech->mass_q(sys->state, sys->q0, sys->M);
      memcpy(LU, sys->M, (size_t)n * (size_t)n * sizeof *LU);
      if (crc == 0 && invert(n, LU, sys->Minv, col, w.piv) != VI_OK) {
        vi_set_err(err, errlen, "mass matrix of system %s is singular at q0",
                   info->name);
        rc = VI_EINVAL;
        goto fail;
      }
    }
    if (crc == 0) {
      what = "constraint";
      crc = project_kind(sys, sys->q0, sys->p0, PK_HOLO | (sys->m_nh > 0 ? PK_NH : 0));
    }
    if (crc == VI_SINGULAR) {
      goto dependent;
    }
    if (crc != 0) {
      goto callback_fail;
    }
  }
  /* The velocity that goes with the (projected) p0. */
  what = config_mass ? "mass_q" : "mass";
  crc = VI_X(vi_system_mass_inv)(sys, sys->q0, LU);
  if (crc != 0) {
    goto callback_fail;
  }
  matvec(n, n, LU, sys->p0, sys->v0);
  scratch_put(&w);
  *out = sys;
  return VI_OK;

callback_fail:
  vi_set_err(err, errlen,
          "callback %s of system %s failed with status %d while allocating",
          what, info->name, crc);
  rc = vi_callback_status(crc);
  goto fail;
dependent:
  /* The projections solve with C M(q)^-1 C', C the stacked constraint
   * rows: singular means the rows are linearly dependent at q0. */
  vi_set_err(err, errlen,
             "the constraints of system %s are linearly dependent at q0: C M(q0)^-1 C' is "
             "singular for C = %s",
             info->name,
             m > 0 && sys->m_nh > 0 ? "[G(q0); A(q0)]" : m > 0 ? "G(q0)" : "A(q0)");
  rc = VI_EINCONSISTENT;
fail:
  scratch_put(&w);
  free(block);
  return rc;
}

/* ---- derived quantities ----------------------------------------------------- */

int VI_X(vi_system_energy)(const VI_X(vi_system) *sys, const VI_REAL *q,
                           const VI_REAL *p, VI_REAL *E) {
  int n = sys->n;
  if (sys->type->degen) {
    return vi_callback_status(sys->type->degen->hamiltonian(sys->state, q, E));
  }
  if (sys->type->lie) {
    /* E = <mu, xi> - l(g, xi) with xi from mu = D2 l(g, xi). */
    scratch w;
    int rc = scratch_get(&w, (size_t)n, 0);
    VI_REAL l = 0;
    if (rc == VI_OK) {
      rc = VI_X(vi_system_lie_xi)(sys, q, p, w.w);
    }
    if (rc == VI_OK) {
      rc = vi_callback_status(sys->type->lie->lagrangian(sys->state, q, w.w, &l));
    }
    if (rc == VI_OK) {
      VI_REAL t = 0;
      for (int i = 0; i < n; i++) {
        t += p[i] * w.w[i];
      }
      *E = t - l;
    }
    scratch_put(&w);
    return rc;
  }
  VI_REAL V = 0;
  int rc = sys->type->mech->potential(sys->state, q, &V);
  if (rc != 0) {
    return vi_callback_status(rc);
  }
  scratch w;
  const VI_REAL *Minv = NULL;
  rc = scratch_get(&w, minv_work(sys), (size_t)n);
  if (rc == VI_OK) {
    rc = minv_at(sys, q, w.w, w.piv, &Minv);
  }
  if (rc == VI_OK) {
    /* 1/2 p'M^-1 p without a temporary vector. */
    VI_REAL T = 0;
    for (int i = 0; i < n; i++) {
      VI_REAL s = 0;
      for (int j = 0; j < n; j++) {
        s += Minv[i * n + j] * p[j];
      }
      T += p[i] * s;
    }
    *E = T / 2 + V;
  }
  scratch_put(&w);
  return rc;
}

int VI_X(vi_system_defect)(const VI_X(vi_system) *sys, const VI_REAL *q,
                           const VI_REAL *p, VI_REAL *d) {
  const VI_X(vi_degen_ops) *dg = sys->type->degen;
  *d = 0;
  if (dg == NULL) {
    return VI_EUNSUPPORTED;
  }
  scratch s;
  int rc = scratch_get(&s, (size_t)sys->n, 0);
  if (rc == VI_OK) {
    rc = vi_callback_status(dg->alpha(sys->state, q, s.w));
  }
  for (int i = 0; rc == VI_OK && i < sys->n; i++) {
    VI_REAL e = vi_fabs(p[i] - s.w[i]);
    *d = e > *d || e != e ? e : *d;
  }
  scratch_put(&s);
  return rc;
}

int VI_X(vi_system_degen_velocity)(const VI_X(vi_system) *sys, const VI_REAL *q,
                                   VI_REAL *qdot) {
  const VI_X(vi_degen_ops) *dg = sys->type->degen;
  if (dg == NULL) {
    return VI_EUNSUPPORTED;
  }
  const int n = sys->n;
  scratch s;
  int rc = scratch_get(&s, (size_t)(2 * n * n), (size_t)n);
  if (rc != VI_OK) {
    return rc;
  }
  VI_REAL *Da = s.w, *A = s.w + n * n;
  rc = vi_callback_status(dg->dalpha(sys->state, q, Da));
  if (rc == VI_OK) {
    rc = vi_callback_status(dg->grad_hamiltonian(sys->state, q, qdot));
  }
  if (rc == VI_OK) {
    /* tyranowski2014 (2.8): (Dalpha' - Dalpha) qdot = grad H. */
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        A[i * n + j] = Da[j * n + i] - Da[i * n + j];
      }
    }
    rc = VI_X(vi_lu_factor)(n, A, s.piv);
  }
  if (rc == VI_OK) {
    VI_X(vi_lu_solve)(n, A, s.piv, qdot);
  }
  scratch_put(&s);
  return rc;
}

int VI_X(vi_system_hidden)(const VI_X(vi_system) *sys, const VI_REAL *q,
                           const VI_REAL *p, VI_REAL *gv) {
  int n = sys->n, m = sys->m;
  if (m == 0) {
    return VI_OK;
  }
  scratch s;
  int rc = scratch_get(&s, (size_t)m * (size_t)n + (size_t)n + minv_work(sys),
                       (size_t)n);
  if (rc != VI_OK) {
    return rc;
  }
  VI_REAL *G = s.w, *v = G + m * n, *mw = v + n;
  const VI_REAL *Minv = NULL;
  rc = vi_callback_status(sys->type->holo->constraint_jac(sys->state, q, G));
  if (rc == VI_OK) {
    rc = minv_at(sys, q, mw, s.piv, &Minv);
  }
  if (rc == VI_OK) {
    matvec(n, n, Minv, p, v);
    matvec(m, n, G, v, gv);
  }
  scratch_put(&s);
  return rc;
}

static int nh_at(const VI_X(vi_system) *sys, const VI_REAL *q, VI_REAL *A, VI_REAL *a);

/* The M-orthogonal projection of p onto the velocity constraints of the
 * kinds in mask, their rows stacked: the hidden holonomic constraint
 * (PK_HOLO: C = G, c = 0, wenger2017 (4)) and the nonholonomic one (PK_NH:
 * C = A, c = a), jointly when a system has both: the rows at q, M(q)^-1,
 * the factored Schur complement, then project_affine. */
static int project_kind(const VI_X(vi_system) *sys, const VI_REAL *q, VI_REAL *p,
                              int mask) {
  const int n = sys->n, kh = mask & PK_HOLO ? sys->m : 0, kn = mask & PK_NH ? sys->m_nh : 0;
  const int k = kh + kn;
  if (k == 0) {
    return VI_OK;
  }
  scratch s;
  int rc = scratch_get(&s, 2 * (size_t)k * (size_t)n + (size_t)k * (size_t)k + (size_t)k +
                               minv_work(sys),
                       (size_t)(k + n));
  if (rc != VI_OK) {
    return rc;
  }
  VI_REAL *C = s.w, *B = C + (size_t)k * n, *S = B + (size_t)k * n, *y = S + k * k;
  VI_REAL *mw = y + k;
  const VI_REAL *Minv = NULL;
  /* The offsets a(q) of the nonholonomic rows go to y after the zeros of
   * the holonomic ones (project_affine reads each before writing it). */
  if (kh > 0) {
    rc = vi_callback_status(sys->type->holo->constraint_jac(sys->state, q, C));
    memset(y, 0, (size_t)kh * sizeof *y);
  }
  if (rc == VI_OK && kn > 0) {
    rc = nh_at(sys, q, C + (size_t)kh * n, y + kh);
  }
  if (rc == VI_OK) {
    rc = minv_at(sys, q, mw, s.piv, &Minv);
  }
  if (rc == VI_OK) {
    rc = schur_rows(n, k, Minv, C, B, S, s.piv);
  }
  if (rc == VI_OK) {
    project_affine(n, k, C, kn > 0 ? y : NULL, B, S, s.piv, y, p);
  }
  scratch_put(&s);
  return rc;
}

int VI_X(vi_system_project_p)(const VI_X(vi_system) *sys, const VI_REAL *q,
                              VI_REAL *p) {
  return project_kind(sys, q, p, PK_HOLO);
}

int VI_X(vi_system_mass)(const VI_X(vi_system) *sys, const VI_REAL *q,
                         VI_REAL *M) {
  if (sys->type->mech == NULL) {
    return VI_EUNSUPPORTED;
  }
  if (sys->config_mass) {
    return vi_callback_status(sys->type->mech->mass_q(sys->state, q, M));
  }
  memcpy(M, sys->M, (size_t)sys->n * (size_t)sys->n * sizeof *M);
  return VI_OK;
}

int VI_X(vi_system_kinetic)(const VI_X(vi_system) *sys, const VI_REAL *q,
                            const VI_REAL *v, VI_REAL *dTdq, VI_REAL *DqMv,
                            VI_REAL *Tqq) {
  if (sys->type->mech == NULL) {
    return VI_EUNSUPPORTED;
  }
  const size_t n = (size_t)sys->n;
  if (sys->config_mass) {
    return vi_callback_status(
        sys->type->mech->kinetic(sys->state, q, v, dTdq, DqMv, Tqq));
  }
  memset(dTdq, 0, n * sizeof *dTdq);
  if (DqMv != NULL) {
    memset(DqMv, 0, n * n * sizeof *DqMv);
  }
  if (Tqq != NULL) {
    memset(Tqq, 0, n * n * sizeof *Tqq);
  }
  return VI_OK;
}

int VI_X(vi_system_mass_inv)(const VI_X(vi_system) *sys, const VI_REAL *q,
                             VI_REAL *Minv) {
  if (sys->type->mech == NULL) {
    return VI_EUNSUPPORTED;
  }
  const size_t nn = (size_t)sys->n * (size_t)sys->n;
  scratch w;
  const VI_REAL *src = NULL;
  int rc = scratch_get(&w, minv_work(sys), (size_t)sys->n);
  if (rc == VI_OK) {
    rc = minv_at(sys, q, w.w, w.piv, &src);
  }
  if (rc == VI_OK) {
    memcpy(Minv, src, nn * sizeof *Minv);
  }
  scratch_put(&w);
  return rc;
}

int VI_X(vi_system_lagr)(const VI_X(vi_system) *sys, const VI_REAL *q,
                         const VI_REAL *v, VI_REAL *mLq, VI_REAL *Lv,
                         VI_REAL *mLqq, VI_REAL *Mq, VI_REAL *Dq,
                         VI_REAL *work) {
  if (sys->type->mech == NULL) {
    return VI_EUNSUPPORTED;
  }
  const VI_X(vi_system_type) *ty = sys->type;
  const int n = sys->n;
  int rc = vi_callback_status(ty->mech->grad_potential(sys->state, q, mLq));
  if (rc == VI_OK && mLqq != NULL) {
    rc = vi_callback_status(ty->mech->hess_potential(sys->state, q, mLqq));
  }
  if (rc != VI_OK) {
    return rc;
  }
  const VI_REAL *M = sys->M;
  if (sys->config_mass) {
    VI_REAL *Tqq = work, *dT = work + n * n;
    rc = vi_callback_status(ty->mech->mass_q(sys->state, q, Mq));
    if (rc == VI_OK) {
      rc = vi_callback_status(ty->mech->kinetic(sys->state, q, v, dT,
                                          mLqq != NULL ? Dq : NULL,
                                          mLqq != NULL ? Tqq : NULL));
    }
    if (rc != VI_OK) {
      return rc;
    }
    M = Mq;
    for (int a = 0; a < n; a++) {
      mLq[a] -= dT[a];
    }
    if (mLqq != NULL) {
      for (int a = 0; a < n * n; a++) {
        mLqq[a] -= Tqq[a];
      }
    }
  }
  matvec(n, n, M, v, Lv);
  return VI_OK;
}

/* Scratch reals force_at needs. */
static size_t force_work(const VI_X(vi_system) *sys) {
  size_t n = (size_t)sys->n;
  return sys->config_mass ? n + n * n : 0;
}

/* The applied and inertial force f = -grad V + dT/dq - D_q(Mv) v of
 * M(q) qdd = f - G' lambda (from d/dt L_v - L_q = -G' lambda with
 * L_v = M(q) v; systems/NOTES-triple-pendulum.md); f = -grad V for a
 * constant mass matrix. work: force_work reals. */
static int force_at(const VI_X(vi_system) *sys, const VI_REAL *q,
                    const VI_REAL *v, VI_REAL *f, VI_REAL *work) {
  const int n = sys->n;
  int rc = vi_callback_status(sys->type->mech->grad_potential(sys->state, q, f));
  if (rc != VI_OK) {
    return rc;
  }
  for (int i = 0; i < n; i++) {
    f[i] = -f[i];
  }
  if (!sys->config_mass) {
    return VI_OK;
  }
  VI_REAL *dT = work, *D = dT + n;
  rc = vi_callback_status(sys->type->mech->kinetic(sys->state, q, v, dT, D, NULL));
  if (rc != VI_OK) {
    return rc;
  }
  for (int i = 0; i < n; i++) {
    VI_REAL t = dT[i];
    for (int j = 0; j < n; j++) {
      t -= D[i * n + j] * v[j];
    }
    f[i] += t;
  }
  return VI_OK;
}

/* Differentiating g(q) = 0 twice along M qdd = f - G' lambda:
 *   G v = 0,  G qdd + [v' Hess g_k v]_k = 0,
 *   G M^-1 (f - G' lambda) + [v' Hess g_k v]_k = 0,
 * hence (G M^-1 G') lambda = [v' Hess g_k v]_k + G M^-1 f, which is
 * wenger2017 (70) for H = 1/2 p'M^-1 p + V(q) (H_pp = M^-1, H_pq = 0,
 * f = -grad V), and its generalisation to M(q) (NOTES-triple-pendulum.md). */
int VI_X(vi_system_accel)(const VI_X(vi_system) *sys, const VI_REAL *q,
                          const VI_REAL *p, const VI_REAL *lambda, VI_REAL *v,
                          VI_REAL *a) {
  if (sys->type->mech == NULL) {
    return VI_EUNSUPPORTED;
  }
  const int n = sys->n, m = sys->m, k = sys->m_nh;
  scratch s;
  /* G, then A in the same rows (each used before the next is read), and
   * the force. */
  const int rows = m > k ? m : k;
  int rc = scratch_get(&s, (size_t)rows * (size_t)n + (size_t)n + minv_work(sys) +
                               force_work(sys),
                       (size_t)n);
  if (rc != VI_OK) {
    return rc;
  }
  VI_REAL *G = s.w, *force = G + (size_t)rows * n, *mw = force + n;
  VI_REAL *fw = mw + minv_work(sys);
  const VI_REAL *Minv = NULL;
  rc = minv_at(sys, q, mw, s.piv, &Minv);
  if (rc == VI_OK) {
    matvec(n, n, Minv, p, v);
    rc = force_at(sys, q, v, force, fw);
  }
  if (rc == VI_OK && m > 0) {
    rc = vi_callback_status(sys->type->holo->constraint_jac(sys->state, q, G));
  }
  if (rc == VI_OK) {
    for (int i = 0; i < n; i++) {
      for (int r = 0; r < m; r++) {
        force[i] -= G[r * n + i] * lambda[r];
      }
    }
  }
  if (rc == VI_OK && k > 0) {
    rc = nh_at(sys, q, G, NULL);
    for (int i = 0; rc == VI_OK && i < n; i++) {
      for (int r = 0; r < k; r++) {
        force[i] -= G[r * n + i] * lambda[m + r];
      }
    }
  }
  if (rc == VI_OK) {
    matvec(n, n, Minv, force, a);
  }
  scratch_put(&s);
  return rc;
}

int VI_X(vi_system_lambda)(const VI_X(vi_system) *sys, const VI_REAL *q,
                           const VI_REAL *p, VI_REAL *lambda) {
  int n = sys->n, m = sys->m;
  if (sys->m_nh > 0 && sys->type->lie != NULL) {
    scratch w;
    int rc = scratch_get(&w, (size_t)n, 0);
    if (rc == VI_OK) {
      rc = VI_X(vi_system_lie_xi)(sys, q, p, w.w);
    }
    if (rc == VI_OK) {
      rc = lie_dynamics(sys, q, w.w, lambda + m, NULL);
    }
    scratch_put(&w);
    return rc;
  }
  if (sys->type->mech == NULL) {
    return sys->ml > 0 ? VI_EUNSUPPORTED : VI_OK;
  }
  const int k = sys->m_nh, ml = m + k;
  if (ml == 0) {
    return VI_OK;
  }
  if (m > 0 && sys->type->holo->constraint_hess == NULL) {
    return VI_EUNSUPPORTED;
  }
  /* Differentiating Phi = A(q) v + a(q) = 0 along M vdot = f - A' mu gives
   * A M^-1 (f - A' mu) + D_q Phi(q, v) v = 0, as g(q) = 0 twice gives the
   * holonomic rows above. The rows C = [G; A] stacked (ml x n), B = C M^-1
   * and S = C M^-1 C':
   *   S (lambda; mu) = B f + (v' Hess g_j v; D_q Phi(q, v) v)
   * (wenger2017 (70) for the holonomic rows, demartin2018 (4) for the
   * nonholonomic ones), each row summed as for one kind alone. */
  scratch s;
  int rc = scratch_get(&s, 2 * (size_t)ml * (size_t)n + (size_t)ml * (size_t)ml +
                               (size_t)k * (size_t)n + (size_t)n * (size_t)n + 3 * (size_t)n +
                               (size_t)m + minv_work(sys) + force_work(sys),
                       (size_t)(ml + n));
  if (rc != VI_OK) {
    return rc;
  }
  VI_REAL *C = s.w, *B = C + (size_t)ml * n, *S = B + (size_t)ml * n, *D = S + ml * ml;
  VI_REAL *H = D + (size_t)k * n, *v = H + n * n, *f = v + n, *Hv = f + n, *mu = Hv + n;
  VI_REAL *mw = mu + m, *fw = mw + minv_work(sys);
  const VI_REAL *Minv = NULL;
  if (m > 0) {
    rc = vi_callback_status(sys->type->holo->constraint_jac(sys->state, q, C));
  }
  if (rc == VI_OK && k > 0) {
    rc = nh_at(sys, q, C + (size_t)m * n, NULL);
  }
  if (rc == VI_OK) {
    rc = minv_at(sys, q, mw, s.piv, &Minv);
  }
  if (rc == VI_OK) {
    matvec(n, n, Minv, p, v);
    rc = force_at(sys, q, v, f, fw);
  }
  if (rc == VI_OK && k > 0) {
    rc = vi_callback_status(sys->type->nh->dphi_dq(sys->state, q, v, D));
  }
  if (rc == VI_OK) {
    rc = schur_rows(n, ml, Minv, C, B, S, s.piv);
  }
  if (rc != VI_OK) {
    goto done;
  }
  matvec(m, n, B, f, lambda);
  /* v' Hess g_j v from the contracted Hessian with mu = e_j. */
  for (int j = 0; j < m; j++) {
    for (int l = 0; l < m; l++) {
      mu[l] = l == j;
    }
    int hrc = sys->type->holo->constraint_hess(sys->state, q, mu, H);
    if (hrc != 0) {
      rc = vi_callback_status(hrc);
      goto done;
    }
    matvec(n, n, H, v, Hv);
    VI_REAL t = 0;
    for (int i = 0; i < n; i++) {
      t += v[i] * Hv[i];
    }
    lambda[j] += t;
  }
  for (int i = 0; i < k; i++) {
    VI_REAL t = 0;
    for (int j = 0; j < n; j++) {
      t += B[(m + i) * n + j] * f[j] + D[i * n + j] * v[j];
    }
    lambda[m + i] = t;
  }
  VI_X(vi_lu_solve)(ml, S, s.piv, lambda);
done:
  scratch_put(&s);
  return rc;
}

/* ---- nonholonomic constraints --------------------------------------------- */

/* A(q) (m_nh x n) and, with a non-NULL, a(q) (zeros when the type has
 * none); defined below. */

/* A(q) (m_nh x n) and, with a non-NULL, a(q) (zeros when the type has
 * none). */
static int nh_at(const VI_X(vi_system) *sys, const VI_REAL *q, VI_REAL *A, VI_REAL *a) {
  const VI_X(vi_nh_ops) *nh = sys->type->nh;
  int rc = vi_callback_status(nh->matrix(sys->state, q, A));
  if (rc == VI_OK && a != NULL) {
    if (nh->affine != NULL) {
      rc = vi_callback_status(nh->affine(sys->state, q, a));
    } else {
      memset(a, 0, (size_t)sys->m_nh * sizeof *a);
    }
  }
  return rc;
}

int VI_X(vi_system_nh_residual)(const VI_X(vi_system) *sys, const VI_REAL *q,
                                const VI_REAL *p, VI_REAL *r) {
  const int n = sys->n, k = sys->m_nh;
  if (k == 0) {
    return VI_OK;
  }
  if (sys->type->lie) {
    scratch w;
    int rc = scratch_get(&w, (size_t)n, 0);
    if (rc == VI_OK) {
      rc = VI_X(vi_system_lie_xi)(sys, q, p, w.w);
    }
    if (rc == VI_OK) {
      rc = lie_nh_residual(sys, q, w.w, r);
    }
    scratch_put(&w);
    return rc;
  }
  scratch s;
  int rc = scratch_get(&s, (size_t)k * (size_t)n + (size_t)n + minv_work(sys), (size_t)n);
  if (rc != VI_OK) {
    return rc;
  }
  VI_REAL *A = s.w, *v = A + (size_t)k * n, *mw = v + n;
  const VI_REAL *Minv = NULL;
  rc = nh_at(sys, q, A, r);
  if (rc == VI_OK) {
    rc = minv_at(sys, q, mw, s.piv, &Minv);
  }
  if (rc == VI_OK) {
    matvec(n, n, Minv, p, v);
    for (int i = 0; i < k; i++) {
      VI_REAL t = r[i];
      for (int j = 0; j < n; j++) {
        t += A[i * n + j] * v[j];
      }
      r[i] = t;
    }
  }
  scratch_put(&s);
  return rc;
}

int VI_X(vi_system_project_nh)(const VI_X(vi_system) *sys, const VI_REAL *q, VI_REAL *p) {
  if (sys->m_nh > 0 && sys->type->mech == NULL) {
    return VI_EUNSUPPORTED; /* the Lie form projects xi in its own metric (lie_setup) */
  }
  return project_kind(sys, q, p, PK_NH);
}

/* ---- Lie-group form ------------------------------------------------------- */

/* H = D2 D2 l(g, xi) factored (d x d, LU in place). */
static int lie_hess(const VI_X(vi_system) *sys, const VI_REAL *g, const VI_REAL *xi, VI_REAL *H,
                    int *piv) {
  int rc = vi_callback_status(sys->type->lie->dxi2(sys->state, g, xi, H));
  if (rc == VI_OK && VI_X(vi_lu_factor)(sys->n, H, piv) != VI_OK) {
    rc = VI_SINGULAR;
  }
  return rc;
}

/* The Lie form's Schur complement: B = A H^-1 (k x n, each row solved
 * against the factored symmetric H = D2 D2 l) and S = B A' (k x k),
 * factored with pivots pk. Serves the multipliers (lie_dynamics) and the
 * projection of xi0 (lie_setup). */
static int lie_schur(int n, int k, const VI_REAL *H, const int *hpiv, const VI_REAL *A,
                     VI_REAL *B, VI_REAL *S, int *pk) {
  for (int i = 0; i < k; i++) {
    memcpy(B + (size_t)i * n, A + (size_t)i * n, (size_t)n * sizeof *B);
    VI_X(vi_lu_solve)(n, H, hpiv, B + (size_t)i * n);
  }
  for (int i = 0; i < k; i++) {
    for (int l = 0; l < k; l++) {
      VI_REAL u = 0;
      for (int j = 0; j < n; j++) {
        u += B[i * n + j] * A[l * n + j];
      }
      S[i * k + l] = u;
    }
  }
  return VI_X(vi_lu_factor)(k, S, pk) != VI_OK ? VI_SINGULAR : VI_OK;
}

/* The inverse Legendre map: xi with D2 l(g, xi) = mu, by Newton from
 * xi = 0 (one step for a Lagrangian quadratic in xi). */
int VI_X(vi_system_lie_xi)(const VI_X(vi_system) *sys, const VI_REAL *g, const VI_REAL *mu,
                           VI_REAL *xi) {
  const int n = sys->n;
  if (sys->type->lie == NULL) {
    return VI_EUNSUPPORTED;
  }
  scratch s;
  int rc = scratch_get(&s, (size_t)n * (size_t)n + (size_t)n, (size_t)n);
  if (rc != VI_OK) {
    return rc;
  }
  VI_REAL *H = s.w, *r = H + n * n;
  memset(xi, 0, (size_t)n * sizeof *xi);
  VI_REAL scale = VI_X(vi_norm_inf)(n, mu);
  scale = scale > 1 ? scale : 1;
  rc = VI_NEWTON_NOCONV;
  for (int it = 0; it < 30; it++) {
    int crc = vi_callback_status(sys->type->lie->dxi(sys->state, g, xi, r));
    if (crc != VI_OK) {
      rc = crc;
      break;
    }
    for (int i = 0; i < n; i++) {
      r[i] = mu[i] - r[i];
    }
    if (VI_X(vi_norm_inf)(n, r) <= 4 * VI_EPS * scale && it > 0) {
      rc = VI_OK;
      break;
    }
    if ((crc = lie_hess(sys, g, xi, H, s.piv)) != VI_OK) {
      rc = crc;
      break;
    }
    VI_X(vi_lu_solve)(n, H, s.piv, r);
    for (int i = 0; i < n; i++) {
      xi[i] += r[i];
    }
  }
  scratch_put(&s);
  return rc;
}

/* A(g) (m_nh x n) and a(g) for the Lie form's xi: the same table. */
static int lie_nh_residual(const VI_X(vi_system) *sys, const VI_REAL *g, const VI_REAL *xi,
                           VI_REAL *r) {
  const int n = sys->n, k = sys->m_nh;
  scratch s;
  int rc = scratch_get(&s, (size_t)k * (size_t)n, 0);
  if (rc == VI_OK) {
    rc = nh_at(sys, g, s.w, r);
  }
  for (int i = 0; rc == VI_OK && i < k; i++) {
    for (int j = 0; j < n; j++) {
      r[i] += s.w[i * n + j] * xi[j];
    }
  }
  scratch_put(&s);
  return rc;
}

/* The multipliers of the Lie form with nonholonomic constraints
 * (demartin2018 §6.4 in continuous time): along gdot = g xi,
 *   d/dt mu = ad*_xi mu + F - A' lambda,  mu = D2 l(g, xi),
 * so H xidot = r - A' lambda with r = ad*_xi mu + F - dxi_dg xi, and
 * d/dt (A xi + a) = A xidot + D_g Phi(g, xi) xi = 0 gives
 *   (A H^-1 A') lambda = A H^-1 r + D_g Phi(g, xi) xi.
 * Also returns xidot when wanted (xidot may be NULL). */
static int lie_dynamics(const VI_X(vi_system) *sys, const VI_REAL *g, const VI_REAL *xi,
                              VI_REAL *lambda, VI_REAL *xidot) {
  const int n = sys->n, k = sys->m_nh;
  const VI_X(vi_lie_ops) *lie = sys->type->lie;
  scratch s;
  int rc = scratch_get(&s, 2 * (size_t)n * (size_t)n + 4 * (size_t)n +
                               3 * (size_t)k * (size_t)n + (size_t)k * (size_t)k,
                       (size_t)(n + k));
  if (rc != VI_OK) {
    return rc;
  }
  VI_REAL *H = s.w, *Dd = H + n * n, *mu = Dd + n * n, *F = mu + n, *r = F + n, *y = r + n;
  VI_REAL *A = y + n, *B = A + (size_t)k * n, *D = B + (size_t)k * n, *S = D + (size_t)k * n;
  rc = vi_callback_status(lie->dxi(sys->state, g, xi, mu));
  if (rc == VI_OK) {
    rc = vi_callback_status(lie->force(sys->state, g, xi, F));
  }
  if (rc == VI_OK) {
    rc = vi_callback_status(sys->type->space->ad(sys->state, xi, Dd));
  }
  if (rc != VI_OK) {
    goto done;
  }
  for (int i = 0; i < n; i++) {
    VI_REAL t = F[i];
    for (int j = 0; j < n; j++) {
      t += Dd[j * n + i] * mu[j]; /* ad*_xi mu = ad_xi' mu */
    }
    r[i] = t;
  }
  if (lie->dxi_dg != NULL) {
    if ((rc = vi_callback_status(lie->dxi_dg(sys->state, g, xi, Dd))) != VI_OK) {
      goto done;
    }
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        r[i] -= Dd[i * n + j] * xi[j];
      }
    }
  }
  if ((rc = lie_hess(sys, g, xi, H, s.piv)) != VI_OK) {
    goto done;
  }
  if (k > 0) {
    rc = nh_at(sys, g, A, NULL);
    if (rc == VI_OK) {
      rc = vi_callback_status(sys->type->nh->dphi_dq(sys->state, g, xi, D));
    }
    if (rc != VI_OK) {
      goto done;
    }
    int *piv2 = s.piv + n;
    if ((rc = lie_schur(n, k, H, s.piv, A, B, S, piv2)) != VI_OK) {
      goto done;
    }
    memcpy(y, r, (size_t)n * sizeof *y);
    VI_X(vi_lu_solve)(n, H, s.piv, y);
    for (int i = 0; i < k; i++) {
      VI_REAL t = 0;
      for (int j = 0; j < n; j++) {
        t += A[i * n + j] * y[j] + D[i * n + j] * xi[j];
      }
      lambda[i] = t;
    }
    VI_X(vi_lu_solve)(k, S, piv2, lambda);
    for (int j = 0; j < n; j++) {
      for (int i = 0; i < k; i++) {
        r[j] -= A[i * n + j] * lambda[i];
      }
    }
  }
  if (xidot != NULL) {
    memcpy(xidot, r, (size_t)n * sizeof *xidot);
    VI_X(vi_lu_solve)(n, H, s.piv, xidot);
  }
done:
  scratch_put(&s);
  return rc;
}

int VI_X(vi_system_lie_rhs)(const VI_X(vi_system) *sys, const VI_REAL *g, const VI_REAL *xi,
                            VI_REAL *gdot, VI_REAL *xidot, VI_REAL *lambda) {
  if (sys->type->lie == NULL) {
    return VI_EUNSUPPORTED;
  }
  int rc = vi_callback_status(sys->type->space->tangent(sys->state, g, xi, gdot));
  if (rc == VI_OK) {
    rc = lie_dynamics(sys, g, xi, lambda, xidot);
  }
  return rc;
}

/* Allocation of a Lie-form system (vi_system_alloc): consistency of
 * xi0 with the nonholonomic constraints, its projection in the metric of
 * H = D2 D2 l, mu0 = D2 l(g0, xi0). */
static int lie_setup(VI_X(vi_system) *sys, char *err, size_t errlen) {
  const int n = sys->n, k = sys->m_nh;
  const char *name = sys->type->info->name;
  int rc = VI_OK;
  if (sys->type->space->project != NULL) {
    /* A group element in an embedding (nq > n): g0 must lie on the group
     * to the tolerance, and is then projected onto it in the working
     * precision, like constrained initial data. */
    VI_REAL res = 0;
    rc = vi_callback_status(sys->type->space->project(sys->state, sys->q0, &res));
    if (rc != VI_OK) {
      vi_set_err(err, errlen,
                 "inconsistent initial data for system %s: the initial configuration is not "
                 "an element of its group (distance %.1e; project refused it: %s)",
                 name, (double)res, vi_strerror(rc));
      return rc > 0 ? VI_EINCONSISTENT : rc;
    }
    if (!(res <= (VI_REAL)VI_CONSISTENCY_TOL)) {
      vi_set_err(err, errlen,
                 "inconsistent initial data for system %s: the initial configuration is %.1e "
                 "away from the group (tolerance %.1e)",
                 name, (double)res, VI_CONSISTENCY_TOL);
      return VI_EINCONSISTENT;
    }
  }
  if (k > 0) {
    VI_REAL r[64], H[64 * 64], y[64];
    int piv[64];
    if (k > 64 || n > 64) {
      vi_set_err(err, errlen, "system %s is too large for the Lie form's set-up", name);
      return VI_EINVAL;
    }
    rc = lie_nh_residual(sys, sys->q0, sys->v0, r);
    if (rc != VI_OK) {
      vi_set_err(err, errlen, "callback of system %s failed (%s) at the initial data", name,
                 vi_strerror(rc));
      return rc;
    }
    VI_REAL vs = VI_X(vi_norm_inf)(n, sys->v0);
    vs = vs > 1 ? vs : 1;
    VI_REAL tol = (VI_REAL)VI_CONSISTENCY_TOL * vs, rr = VI_X(vi_norm_inf)(k, r);
    if (!(rr <= tol)) {
      vi_set_err(err, errlen,
                 "inconsistent initial data for system %s: |A(g0) xi0 + a(g0)| = %.1e "
                 "(tolerance %.1e)",
                 name, (double)rr, (double)tol);
      return VI_EINCONSISTENT;
    }
    /* xi <- xi - H^-1 A' (A H^-1 A')^-1 (A xi + a): Newton steps on the
     * (affine) constraint, exact in one for constant A. */
    VI_REAL A[64 * 64], B[64 * 64], S[64 * 64];
    for (int it = 0; it < 3 && rc == VI_OK; it++) {
      rc = lie_nh_residual(sys, sys->q0, sys->v0, r);
      if (rc == VI_OK) {
        rc = nh_at(sys, sys->q0, A, NULL);
      }
      if (rc == VI_OK) {
        rc = lie_hess(sys, sys->q0, sys->v0, H, piv);
      }
      if (rc != VI_OK) {
        break;
      }
      int pk[64];
      if ((rc = lie_schur(n, k, H, piv, A, B, S, pk)) != VI_OK) {
        break;
      }
      memcpy(y, r, (size_t)k * sizeof *y);
      VI_X(vi_lu_solve)(k, S, pk, y);
      for (int j = 0; j < n; j++) {
        for (int i = 0; i < k; i++) {
          sys->v0[j] -= B[i * n + j] * y[i];
        }
      }
    }
    if (rc != VI_OK) {
      vi_set_err(err, errlen, "projection of xi0 of system %s failed (%s)", name,
                 vi_strerror(rc));
      return rc;
    }
  }
  rc = vi_callback_status(sys->type->lie->dxi(sys->state, sys->q0, sys->v0, sys->p0));
  if (rc != VI_OK) {
    vi_set_err(err, errlen, "callback dxi of system %s failed at the initial data", name);
  }
  return rc;
}

/* ---- derivative check --------------------------------------------------------- */

/* The functions whose Jacobians are checked: f(x) with nf values. The
 * kinetic ones (configuration-dependent mass only) hold v = aux fixed:
 * dT/dq against T = 1/2 v'M(q)v, D_q(Mv) against M(q)v, d^2T/dq^2
 * against dT/dq. The degenerate ones: Dalpha against alpha, the contracted
 * Hessian of alpha against Dalpha' w (w = aux), grad H against H, Hess H
 * against grad H. */
enum { FD_V, FD_DV, FD_G, FD_GTMU, FD_ATMU, FD_T, FD_MV, FD_DT, FD_ALPHA, FD_DAW, FD_H, FD_DH,
       FD_PHI };

static int fd_eval(const VI_X(vi_system) *sys, int which, const VI_REAL *aux,
                   const VI_REAL *x, VI_REAL *f, VI_REAL *tmp) {
  const VI_X(vi_system_type) *t = sys->type;
  int n = sys->n, m = sys->m;
  const VI_REAL *mu = aux;
  switch (which) {
  case FD_V:
    return t->mech->potential(sys->state, x, f);
  case FD_DV:
    return t->mech->grad_potential(sys->state, x, f);
  case FD_G:
    return t->holo->constraint(sys->state, x, f);
  case FD_T:
  case FD_MV: {
    int rc = t->mech->mass_q(sys->state, x, tmp);
    if (rc != 0) {
      return rc;
    }
    VI_REAL *Mv = which == FD_T ? tmp + n * n : f;
    matvec(n, n, tmp, aux, Mv);
    if (which == FD_T) {
      VI_REAL T = 0;
      for (int j = 0; j < n; j++) {
        T += aux[j] * Mv[j];
      }
      f[0] = T / 2;
    }
    return 0;
  }
  case FD_DT:
    return t->mech->kinetic(sys->state, x, aux, f, NULL, NULL);
  case FD_ALPHA:
    return t->degen->alpha(sys->state, x, f);
  case FD_DAW: {
    int rc = t->degen->dalpha(sys->state, x, tmp);
    for (int j = 0; rc == 0 && j < n; j++) {
      VI_REAL s = 0;
      for (int b = 0; b < n; b++) {
        s += tmp[b * n + j] * aux[b];
      }
      f[j] = s;
    }
    return rc;
  }
  case FD_H:
    return t->degen->hamiltonian(sys->state, x, f);
  case FD_PHI: {
    /* Phi(q, w) = A(q) w + a(q) at fixed w = aux. */
    const int k = sys->m_nh;
    int rc = nh_at(sys, x, tmp, f);
    for (int i = 0; rc == 0 && i < k; i++) {
      for (int j = 0; j < n; j++) {
        f[i] += tmp[i * n + j] * aux[j];
      }
    }
    return rc;
  }
  case FD_ATMU: {
    /* A(q)' mu at fixed mu = aux. */
    const int k = sys->m_nh;
    int rc = nh_at(sys, x, tmp, NULL);
    for (int j = 0; rc == 0 && j < n; j++) {
      VI_REAL s = 0;
      for (int i = 0; i < k; i++) {
        s += tmp[i * n + j] * aux[i];
      }
      f[j] = s;
    }
    return rc;
  }
  case FD_DH:
    return t->degen->grad_hamiltonian(sys->state, x, f);
  default: {
    /* G' mu, whose Jacobian is sum_k mu_k Hess g_k. */
    int rc = t->holo->constraint_jac(sys->state, x, tmp);
    if (rc != 0) {
      return rc;
    }
    for (int j = 0; j < n; j++) {
      VI_REAL s = 0;
      for (int k = 0; k < m; k++) {
        s += tmp[k * n + j] * mu[k];
      }
      f[j] = s;
    }
    return 0;
  }
  }
}

/* Max relative error of the analytic nf x n Jacobian J of f at x against
 * central differences. The error is relative to the largest of |J|, the
 * differences and |f(x)| / max(1, |x|) (the size of the rounding error of
 * a difference quotient), so exact zeros in J do not divide by zero. */
static int fd_compare(const VI_X(vi_system) *sys, int which, const VI_REAL *mu,
                      const VI_REAL *x0, int nf, const VI_REAL *J,
                      VI_REAL *work, VI_REAL *err_out) {
  int n = sys->n, m = sys->m;
  VI_REAL *x = work, *f0 = x + n, *fp = f0 + nf, *fm = fp + nf;
  VI_REAL *D = fm + nf, *tmp = D + nf * n;
  (void)m;
  memcpy(x, x0, (size_t)n * sizeof *x);
  int rc = fd_eval(sys, which, mu, x, f0, tmp);
  if (rc != 0) {
    return rc;
  }
  /* Step eps^(1/3) balances the O(h^2) truncation against the O(eps / h)
   * rounding error of a central difference; the differences at h and h/2
   * are combined by Richardson extrapolation (4 D(h/2) - D(h)) / 3, whose
   * truncation error is O(h^4): a correct derivative near a singularity of
   * the callback (log u at small u) still passes, a wrong one differs by
   * O(1) as before. */
  VI_REAL h0 = vi_pow(VI_EPS, 1 / VI_C(3.0));
  VI_REAL one = 1;
  for (int j = 0; j < n; j++) {
    VI_REAL a = vi_fabs(x0[j]);
    for (int half = 0; half < 2; half++) {
      VI_REAL h = h0 * (a > one ? a : one) / (half ? 2 : 1);
      VI_REAL xp = x0[j] + h, xm = x0[j] - h;
      x[j] = xp;
      rc = fd_eval(sys, which, mu, x, fp, tmp);
      if (rc == 0) {
        x[j] = xm;
        rc = fd_eval(sys, which, mu, x, fm, tmp);
      }
      x[j] = x0[j];
      if (rc != 0) {
        return rc;
      }
      /* Divide by the step actually taken (xp - xm is exact here). */
      for (int i = 0; i < nf; i++) {
        VI_REAL d = (fp[i] - fm[i]) / (xp - xm);
        D[i * n + j] = half ? (4 * d - D[i * n + j]) / 3 : d;
      }
    }
  }
  VI_REAL xs = VI_X(vi_norm_inf)(n, x0);
  xs = xs > one ? xs : one;
  VI_REAL scale = VI_X(vi_norm_inf)(nf, f0) / xs;
  VI_REAL sj = VI_X(vi_norm_inf)(nf * n, J);
  VI_REAL sd = VI_X(vi_norm_inf)(nf * n, D);
  scale = sj > scale ? sj : scale;
  scale = sd > scale ? sd : scale;
  VI_REAL e = 0;
  for (int i = 0; i < nf * n; i++) {
    VI_REAL d = vi_fabs(D[i] - J[i]);
    if (d > e || d != d) {
      e = d;
    }
  }
  *err_out = scale > 0 ? e / scale : e;
  return 0;
}

static VI_REAL frac(VI_REAL x) {
  return x - vi_floor(x);
}

/* ---- derivative check of the Lie-group form ---------------------------------
 * Jacobians are compared with central differences along the directions
 * the tables define: coordinates of xi, or left-trivialised group
 * directions g cay(eps e_b); the group maps against cay and the chart. */
enum {
  LC_DXI,      /* D2 l against l (xi) */
  LC_FORCE,    /* F against l (g) */
  LC_DXI2,     /* D2 D2 l against D2 l (xi) */
  LC_DXIDG,    /* dxi_dg against D2 l (g) */
  LC_DFDG,     /* dforce_dg against F (g) */
  LC_DFDXI,    /* dforce_dxi against F (xi) */
  LC_PHI,      /* dphi_dq against A(g) w + a(g) (g) */
  LC_ATMU,     /* datmu against A(g)' mu (g) */
  LC_DCAY,     /* dcay_X against local(cay(X), cay(.)) (coordinates of X) */
  LC_TANGENT,  /* tangent(g, e_b) against the coordinates of g cay(.) */
  LC_AD,       /* Ad_g against local(e, g cay(.) g^-1) */
  LC_SMALLAD,  /* -ad_eta against Ad_{cay(.)} eta */
  LC_DCAYINV,  /* dcayinv_X dcay_X = I (algebraic) */
  LC_COUNT
};

static const char *const lc_names[LC_COUNT] = {
    "lie dxi", "lie force", "lie dxi2", "lie dxi_dg", "lie dforce_dg", "lie dforce_dxi",
    "nonholonomic dphi_dq", "nonholonomic datmu", "group dcay", "group tangent", "group Ad",
    "group ad", "group dcayinv"};

/* Whether check c uses group directions (else coordinates of its argument). */
static int lc_group_dir(int c) {
  return c == LC_FORCE || c == LC_DXIDG || c == LC_DFDG || c == LC_PHI || c == LC_ATMU;
}

/* The function of check c at (g, xi) (aux: w, mu or eta; X for dcay): nf
 * values in f. x is the perturbed argument (xi, X or the small chart
 * vector of the group maps). */
static int lc_eval(const VI_X(vi_system) *sys, int c, const VI_REAL *g,
                         const VI_REAL *xi, const VI_REAL *aux, VI_REAL *f, VI_REAL *tmp) {
  const VI_X(vi_lie_ops) *lie = sys->type->lie;
  const VI_X(vi_space_ops) *sp = sys->type->space;
  const void *st = sys->state;
  const int n = sys->n, nq = sys->nq, k = sys->m_nh;
  switch (c) {
  case LC_DXI:
  case LC_FORCE:
    return lie->lagrangian(st, g, xi, f);
  case LC_DXI2:
  case LC_DXIDG:
    return lie->dxi(st, g, xi, f);
  case LC_DFDG:
  case LC_DFDXI:
    return lie->force(st, g, xi, f);
  case LC_PHI: {
    int rc = nh_at(sys, g, tmp, f);
    for (int i = 0; rc == 0 && i < k; i++) {
      for (int j = 0; j < n; j++) {
        f[i] += tmp[i * n + j] * aux[j];
      }
    }
    return rc;
  }
  case LC_ATMU: {
    int rc = nh_at(sys, g, tmp, NULL);
    for (int j = 0; rc == 0 && j < n; j++) {
      VI_REAL t = 0;
      for (int i = 0; i < k; i++) {
        t += tmp[i * n + j] * aux[i];
      }
      f[j] = t;
    }
    return rc;
  }
  case LC_DCAY: { /* xi plays X' here, aux the base point X */
    VI_REAL *a = tmp, *b = tmp + nq;
    int rc = sp->cay(st, aux, a);
    if (rc == 0) {
      rc = sp->cay(st, xi, b);
    }
    return rc == 0 ? sp->local(st, a, b, f) : rc;
  }
  case LC_TANGENT: { /* coordinates of g cay(x), x = xi */
    int rc = sp->cay(st, xi, tmp);
    return rc == 0 ? sp->compose(st, g, tmp, f) : rc;
  }
  case LC_AD: { /* local(e, g cay(x) g^-1) */
    VI_REAL *e = tmp, *a = tmp + nq, *b = tmp + 2 * nq, *gi = tmp + 3 * nq;
    VI_REAL zero[64] = {0};
    int rc = sp->cay(st, zero, e);
    if (rc == 0) {
      rc = sp->cay(st, xi, a);
    }
    if (rc == 0) {
      rc = sp->compose(st, g, a, b);
    }
    if (rc == 0) {
      rc = sp->inverse(st, g, gi);
    }
    if (rc == 0) {
      rc = sp->compose(st, b, gi, a);
    }
    return rc == 0 ? sp->local(st, e, a, f) : rc;
  }
  case LC_SMALLAD: { /* Ad_{cay(x)} eta */
    VI_REAL *a = tmp, *A = tmp + nq;
    int rc = sp->cay(st, xi, a);
    if (rc == 0) {
      rc = sp->Ad(st, a, A);
    }
    for (int i = 0; rc == 0 && i < n; i++) {
      VI_REAL t = 0;
      for (int j = 0; j < n; j++) {
        t += A[i * n + j] * aux[j];
      }
      f[i] = t;
    }
    return rc;
  }
  default:
    return VI_EINVAL;
  }
}

/* The analytic Jacobian of check c (nf x n) into J, nf into *nf; 0 when the
 * table does not supply it (*have = 0). */
static int lc_analytic(const VI_X(vi_system) *sys, int c, const VI_REAL *g,
                             const VI_REAL *xi, const VI_REAL *aux, VI_REAL *J, int *nf,
                             int *have, VI_REAL *tmp) {
  const VI_X(vi_lie_ops) *lie = sys->type->lie;
  const VI_X(vi_space_ops) *sp = sys->type->space;
  const void *st = sys->state;
  const int n = sys->n, nq = sys->nq, k = sys->m_nh;
  *have = 1;
  switch (c) {
  case LC_DXI:
    *nf = 1;
    return lie->dxi(st, g, xi, J);
  case LC_FORCE:
    *nf = 1;
    return lie->force(st, g, xi, J);
  case LC_DXI2:
    *nf = n;
    return lie->dxi2(st, g, xi, J);
  case LC_DXIDG:
    *nf = n;
    *have = lie->dxi_dg != NULL;
    return *have ? lie->dxi_dg(st, g, xi, J) : 0;
  case LC_DFDG:
    *nf = n;
    *have = lie->dforce_dg != NULL;
    return *have ? lie->dforce_dg(st, g, xi, J) : 0;
  case LC_DFDXI:
    *nf = n;
    *have = lie->dforce_dxi != NULL;
    return *have ? lie->dforce_dxi(st, g, xi, J) : 0;
  case LC_PHI:
    *nf = k;
    return sys->type->nh->dphi_dq(st, g, aux, J);
  case LC_ATMU:
    *nf = n;
    *have = sys->type->nh->datmu != NULL;
    return *have ? sys->type->nh->datmu(st, g, aux, J) : 0;
  case LC_DCAY:
    *nf = n;
    return sp->dcay(st, aux, J);
  case LC_TANGENT: { /* nq x n: the stored coordinates of g along each e_b */
    *nf = nq;
    VI_REAL *e = tmp, *col = tmp + n;
    for (int b = 0; b < n; b++) {
      for (int j = 0; j < n; j++) {
        e[j] = j == b;
      }
      int rc = sp->tangent(st, g, e, col);
      if (rc != 0) {
        return rc;
      }
      for (int i = 0; i < nq; i++) {
        J[i * n + b] = col[i];
      }
    }
    return 0;
  }
  case LC_AD:
    *nf = n;
    *have = sp->Ad != NULL;
    return *have ? sp->Ad(st, g, J) : 0;
  case LC_SMALLAD: {
    *nf = n;
    *have = sp->Ad != NULL;
    if (!*have) {
      return 0;
    }
    /* d/deps Ad_{cay(eps e_b)} eta = ad_{e_b} eta = -ad_eta e_b. */
    int rc = sp->ad(st, aux, J);
    for (int i = 0; i < n * n; i++) {
      J[i] = -J[i];
    }
    return rc;
  }
  default:
    return VI_EINVAL;
  }
}

static int lie_check(const VI_X(vi_system) *sys, int nprobe,
                           void (*report)(void *ctx, const char *line), void *ctx) {
  const int n = sys->n, k = sys->m_nh;
  const char *name = sys->type->info->name;
  const VI_X(vi_space_ops) *sp = sys->type->space;
  if (n > 64 || sys->nq > 64) {
    return VI_EINVAL;
  }
  const VI_REAL golden = VI_C(0.618033988749894848204586834365638118);
  const VI_REAL tol = 100 * vi_pow(VI_EPS, 2 / VI_C(3.0));
  const VI_REAL h0 = vi_pow(VI_EPS, 1 / VI_C(3.0));
  VI_REAL g[64], xi[64], aux[64], X[64], J[64 * 64], D[64 * 64], f0[64], fp[64], fm[64];
  VI_REAL gp[64], dir[64], x[64], tmp[8 * 64 + 64 * 64];
  int failures = 0;
  for (int probe = 0; probe <= nprobe; probe++) {
    /* Probe 0: (g0, xi0); the others move g along the group and pick a
     * velocity and a small algebra element (for the group maps). */
    for (int i = 0; i < n; i++) {
      VI_REAL u = frac((probe * (n + 3) + i + 1) * golden) - VI_C(0.5);
      x[i] = probe == 0 ? 0 : u;
      xi[i] = probe == 0 ? sys->v0[i] : 2 * frac((probe * n + i + VI_C(0.5)) * golden * golden) - 1;
      aux[i] = VI_C(0.5) + frac((probe * (n + 5) + i + 2) * golden);
      X[i] = VI_C(0.3) * (frac((probe * 7 + i + 3) * golden) - VI_C(0.5));
    }
    int rc = sp->cay(sys->state, x, gp);
    if (rc == 0) {
      rc = sp->compose(sys->state, sys->q0, gp, g);
    }
    if (rc != 0) {
      return VI_ECALLBACK;
    }
    if (sp->project != NULL) {
      /* An embedded group: g = g0 cay(x) must lie on the group (compose
       * and cay keep to it) and project must leave it where it is. */
      VI_REAL gg[64], res = 0, d = 0;
      memcpy(gg, g, (size_t)sys->nq * sizeof *gg);
      if (sp->project(sys->state, gg, &res) != 0) {
        return VI_ECALLBACK;
      }
      for (int i = 0; i < sys->nq; i++) {
        d = vi_fabs(gg[i] - g[i]) > d ? vi_fabs(gg[i] - g[i]) : d;
      }
      const VI_REAL gs = VI_X(vi_norm_inf)(sys->nq, g);
      int ok = res <= 100 * VI_EPS && d <= 100 * VI_EPS * (gs > 1 ? gs : 1);
      failures += !ok;
      char line[256], where[32];
      snprintf(where, sizeof where, probe == 0 ? "g0" : "probe %d", probe);
      snprintf(line, sizeof line,
               "%s group project at %s: distance from the group %.1e, moved by %.1e %s", name,
               where, (double)res, (double)d, ok ? "ok" : "FAIL");
      if (report) {
        report(ctx, line);
      }
    }
    for (int c = 0; c < LC_COUNT; c++) {
      if ((c == LC_PHI || c == LC_ATMU) && k == 0) {
        continue;
      }
      char line[256], where[32];
      snprintf(where, sizeof where, probe == 0 ? "g0" : "probe %d", probe);
      if (c == LC_DCAYINV) {
        /* dcayinv_X dcay_X = I. */
        if (sp->dcayinv == NULL) {
          failures++;
          snprintf(line, sizeof line, "%s %s at %s: callback missing FAIL", name, lc_names[c],
                   where);
        } else {
          if (sp->dcay(sys->state, X, J) != 0 || sp->dcayinv(sys->state, X, D) != 0) {
            return VI_ECALLBACK;
          }
          VI_REAL e = 0;
          for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
              VI_REAL t = -(VI_REAL)(i == j);
              for (int l = 0; l < n; l++) {
                t += D[i * n + l] * J[l * n + j];
              }
              e = vi_fabs(t) > e ? vi_fabs(t) : e;
            }
          }
          int ok = e <= 100 * VI_EPS;
          failures += !ok;
          snprintf(line, sizeof line, "%s %s at %s: |dcayinv dcay - I| = %.1e %s", name,
                   lc_names[c], where, (double)e, ok ? "ok" : "FAIL");
        }
        if (report) {
          report(ctx, line);
        }
        continue;
      }
      int nf = 0, have = 0;
      rc = lc_analytic(sys, c, g, xi, c == LC_DCAY ? X : aux, J, &nf, &have, tmp);
      if (!have) {
        failures++;
        snprintf(line, sizeof line, "%s %s at %s: callback missing FAIL", name, lc_names[c], where);
        if (report) {
          report(ctx, line);
        }
        continue;
      }
      /* The base argument of the differences: xi, X (dcay) or the chart
       * origin (tangent, Ad, ad). */
      VI_REAL base[64];
      const int chart = c == LC_TANGENT || c == LC_AD || c == LC_SMALLAD;
      for (int i = 0; i < n; i++) {
        base[i] = c == LC_DCAY ? X[i] : chart ? 0 : xi[i];
      }
      const VI_REAL *A = c == LC_DCAY ? X : aux;
      if (rc == 0) {
        rc = lc_eval(sys, c, g, base, A, f0, tmp);
      }
      for (int b = 0; rc == 0 && b < n; b++) {
        VI_REAL hb = lc_group_dir(c) || chart ? h0 : h0 * (vi_fabs(base[b]) > 1 ? vi_fabs(base[b]) : 1);
        for (int sgn = 0; rc == 0 && sgn < 2; sgn++) {
          VI_REAL e = sgn ? -hb : hb;
          VI_REAL *out = sgn ? fm : fp;
          if (lc_group_dir(c)) {
            for (int j = 0; j < n; j++) {
              dir[j] = j == b ? e : 0;
            }
            rc = sp->cay(sys->state, dir, gp);
            if (rc == 0) {
              VI_REAL gg[64];
              rc = sp->compose(sys->state, g, gp, gg);
              if (rc == 0) {
                rc = lc_eval(sys, c, gg, base, A, out, tmp);
              }
            }
          } else {
            memcpy(dir, base, (size_t)n * sizeof *dir);
            dir[b] += e;
            rc = lc_eval(sys, c, g, dir, A, out, tmp);
          }
        }
        for (int i = 0; rc == 0 && i < nf; i++) {
          D[i * n + b] = (fp[i] - fm[i]) / (2 * hb);
        }
      }
      if (rc != 0) {
        snprintf(line, sizeof line, "%s %s at %s: callback failed with status %d", name,
                 lc_names[c], where, rc);
        if (report) {
          report(ctx, line);
        }
        return VI_ECALLBACK;
      }
      VI_REAL scale = VI_X(vi_norm_inf)(nf, f0), sj = VI_X(vi_norm_inf)(nf * n, J);
      VI_REAL sd = VI_X(vi_norm_inf)(nf * n, D), e = 0;
      scale = sj > scale ? sj : scale;
      scale = sd > scale ? sd : scale;
      for (int i = 0; i < nf * n; i++) {
        VI_REAL d = vi_fabs(D[i] - J[i]);
        e = d > e || d != d ? d : e;
      }
      e = scale > 0 ? e / scale : e;
      int ok = e <= tol;
      failures += !ok;
      snprintf(line, sizeof line, "%s %s at %s: max rel err %.1e (tol %.1e) %s", name,
               lc_names[c], where, (double)e, (double)tol, ok ? "ok" : "FAIL");
      if (report) {
        report(ctx, line);
      }
    }
  }
  return failures;
}

int VI_X(vi_system_check)(const VI_X(vi_system) *sys, int nprobe,
                          void (*report)(void *ctx, const char *line),
                          void *ctx) {
  if (sys == NULL || nprobe < 0) {
    return VI_EINVAL;
  }
  if (sys->type->lie != NULL) {
    return lie_check(sys, nprobe, report, ctx);
  }
  const VI_X(vi_system_type) *t = sys->type;
  const char *name = t->info->name;
  /* m counts every multiplier (the probes' mu serve G and A alike). */
  int n = sys->n, m = sys->ml;
  /* The golden ratio's fractional parts k*phi mod 1 are a fixed,
   * well-spread sequence: deterministic probes without rand(). */
  const VI_REAL golden = VI_C(0.618033988749894848204586834365638118);
  /* About eps^(2/3) (the accuracy of a central difference) with room. */
  VI_REAL tol = 100 * vi_pow(VI_EPS, 2 / VI_C(3.0));
  /* J (n x n at most), q, v, mu, then fd_compare's x, f0, f+, f-, D and
   * its temporary (G, or M(q) and M(q)v). */
  size_t nwork = 3 * (size_t)n * (size_t)n + 7 * (size_t)n + (size_t)m +
                 (size_t)m * (size_t)n;
  VI_REAL *work = malloc(nwork * sizeof *work);
  if (work == NULL) {
    return VI_ENOMEM;
  }
  VI_REAL *J = work, *q = J + n * n, *v = q + n, *mu = v + n, *fdw = mu + m;
  int failures = 0;
  int status = 0;
  VI_REAL qs = VI_X(vi_norm_inf)(n, sys->q0);
  qs = qs > 1 ? qs : 1;
  static const char *const names[] = {
      "grad_potential", "hess_potential", "constraint_jac", "constraint_hess",
      "nonholonomic datmu", "kinetic dT/dq",  "kinetic D_q(Mv)", "kinetic d2T/dq2",
      "dalpha", "d2alpha", "grad_hamiltonian", "hess_hamiltonian", "nonholonomic dphi_dq"};
  /* What this system's tables supply, in order. */
  int list[16], nlist = 0;
  if (t->mech) {
    list[nlist++] = FD_V;
    list[nlist++] = FD_DV;
  } else {
    list[nlist++] = FD_ALPHA;
    list[nlist++] = FD_DAW;
    list[nlist++] = FD_H;
    list[nlist++] = FD_DH;
  }
  if (sys->m > 0) {
    list[nlist++] = FD_G;
    list[nlist++] = FD_GTMU;
  }
  if (sys->m_nh > 0) {
    list[nlist++] = FD_PHI;
    list[nlist++] = FD_ATMU;
  }
  if (sys->config_mass) {
    list[nlist++] = FD_T;
    list[nlist++] = FD_MV;
    list[nlist++] = FD_DT;
  }
  for (int probe = 0; probe <= nprobe && status == 0; probe++) {
    /* Probe 0 is q0; the others perturb every coordinate by up to
     * 0.25 max(1, |q0|), which leaves the constraint manifold on purpose. */
    for (int i = 0; i < n; i++) {
      VI_REAL u = frac((probe * (n + m) + i + 1) * golden) - VI_C(0.5);
      q[i] = sys->q0[i] + (probe == 0 ? 0 : u * qs / 2);
    }
    for (int k = 0; k < m; k++) {
      mu[k] = VI_C(0.5) + frac((probe * (n + m) + n + k + 1) * golden);
    }
    /* A velocity in [-1, 1)^n: the kinetic derivatives vanish at v = 0,
     * where most initial data start. */
    for (int i = 0; i < n; i++) {
      v[i] = 2 * frac((probe * (n + m) + i + VI_C(0.5)) * golden * golden) - 1;
    }
    for (int li = 0; li < nlist; li++) {
      const int which = list[li];
      int nf = 0;
      int have = 0, need = 0;
      int rc = 0;
      switch (which) {
      case FD_V:
        need = 1;
        have = t->mech->grad_potential != NULL;
        nf = 1;
        rc = have ? t->mech->grad_potential(sys->state, q, J) : 0;
        break;
      case FD_DV:
        need = 1;
        have = t->mech->hess_potential != NULL;
        nf = n;
        rc = have ? t->mech->hess_potential(sys->state, q, J) : 0;
        break;
      case FD_G:
        need = m > 0;
        have = t->holo->constraint_jac != NULL && t->holo->constraint != NULL;
        nf = sys->m;
        rc = have && need ? t->holo->constraint_jac(sys->state, q, J) : 0;
        break;
      case FD_GTMU:
        need = m > 0;
        have = t->holo->constraint_hess != NULL && t->holo->constraint_jac != NULL;
        nf = n;
        rc = have && need ? t->holo->constraint_hess(sys->state, q, mu, J) : 0;
        break;
      case FD_ALPHA:
        need = 1;
        have = t->degen->dalpha != NULL;
        nf = n;
        rc = have ? t->degen->dalpha(sys->state, q, J) : 0;
        break;
      case FD_DAW:
        need = 1;
        have = t->degen->d2alpha != NULL;
        nf = n;
        rc = have ? t->degen->d2alpha(sys->state, q, v, J) : 0;
        break;
      case FD_H:
        need = 1;
        have = 1;
        nf = 1;
        rc = t->degen->grad_hamiltonian(sys->state, q, J);
        break;
      case FD_PHI:
        need = 1;
        have = 1;
        nf = sys->m_nh;
        rc = t->nh->dphi_dq(sys->state, q, v, J);
        break;
      case FD_ATMU:
        need = 1;
        have = t->nh->datmu != NULL;
        nf = n;
        rc = have ? t->nh->datmu(sys->state, q, mu, J) : 0;
        break;
      case FD_DH:
        need = 1;
        have = t->degen->hess_hamiltonian != NULL;
        nf = n;
        rc = have ? t->degen->hess_hamiltonian(sys->state, q, J) : 0;
        break;
      default: /* kinetic derivatives of a configuration-dependent M */
        need = 1;
        have = t->mech->kinetic != NULL && t->mech->mass_q != NULL;
        nf = which == FD_T ? 1 : n;
        if (have) {
          VI_REAL *dT = which == FD_T ? J : fdw, *D = which == FD_MV ? J : NULL;
          VI_REAL *T2 = which == FD_DT ? J : NULL;
          rc = t->mech->kinetic(sys->state, q, v, dT, D, T2);
        }
        break;
      }
      if (!need) {
        continue;
      }
      char line[256];
      char where[32];
      if (probe == 0) {
        snprintf(where, sizeof where, "q0");
      } else {
        snprintf(where, sizeof where, "probe %d", probe);
      }
      if (!have) {
        failures++;
        snprintf(line, sizeof line, "%s %s at %s: callback missing FAIL",
                 name, names[which], where);
        if (report != NULL) {
          report(ctx, line);
        }
        continue;
      }
      VI_REAL e = 0;
      if (rc == 0) {
        rc = fd_compare(sys, which, which >= FD_T && which != FD_ATMU ? v : mu, q, nf, J, fdw,
                        &e);
      }
      if (rc > 0 && probe > 0) {
        /* A perturbed point outside the domain of a callback (a
         * recoverable refusal, e.g. log of a negative coordinate): the
         * probe is skipped, said so, and not counted either way. */
        snprintf(line, sizeof line,
                 "%s %s at %s: callback refused the point (status %d, outside its "
                 "domain): probe skipped",
                 name, names[which], where, rc);
        if (report != NULL) {
          report(ctx, line);
        }
        break;
      }
      if (rc != 0) {
        snprintf(line, sizeof line,
                 "%s %s at %s: callback failed with status %d", name,
                 names[which], where, rc);
        if (report != NULL) {
          report(ctx, line);
        }
        /* Always < 0 here, whatever the callback's sign: a check that
         * cannot run is not a pass. */
        status = VI_ECALLBACK;
        break;
      }
      int ok = e <= tol;
      failures += !ok;
      snprintf(line, sizeof line, "%s %s at %s: max rel err %.1e (tol %.1e) %s",
               name, names[which], where, (double)e, (double)tol,
               ok ? "ok" : "FAIL");
      if (report != NULL) {
        report(ctx, line);
      }
    }
    /* A system that declares alpha affine (the orders of vprk depend on
     * it, tyranowski2014 §4.2): Dalpha the same as at q0 and the
     * contracted Hess alpha zero, to round-off. */
    if (t->degen != NULL && t->info->alpha_affine && status == 0) {
      VI_REAL *D0 = fdw; /* n^2 reals of fd_compare's work, free here */
      int rc = t->degen->dalpha(sys->state, sys->q0, D0);
      if (rc == 0) {
        rc = t->degen->dalpha(sys->state, q, J);
      }
      VI_REAL dev = 0, scale = 0;
      for (int i = 0; rc == 0 && i < n * n; i++) {
        VI_REAL d = vi_fabs(J[i] - D0[i]);
        dev = d > dev || d != d ? d : dev;
        scale = vi_fabs(D0[i]) > scale ? vi_fabs(D0[i]) : scale;
      }
      if (rc == 0) {
        rc = t->degen->d2alpha(sys->state, q, v, J);
      }
      for (int i = 0; rc == 0 && i < n * n; i++) {
        VI_REAL d = vi_fabs(J[i]);
        dev = d > dev || d != d ? d : dev;
      }
      char line[256];
      if (rc != 0) {
        snprintf(line, sizeof line, "%s alpha affine at probe %d: callback failed with status %d",
                 name, probe, rc);
        status = VI_ECALLBACK;
      } else {
        const VI_REAL lim = 10 * VI_EPS * (scale > 1 ? scale : 1);
        const int ok = dev <= lim;
        failures += !ok;
        snprintf(line, sizeof line,
                 "%s alpha affine (declared) at %s%d: Dalpha - Dalpha(q0) and the contracted "
                 "Hess alpha at most %.1e (tol %.1e) %s",
                 name, probe ? "probe " : "q0", probe ? probe : 0, (double)dev, (double)lim,
                 ok ? "ok" : "FAIL");
        if (probe == 0) {
          snprintf(line, sizeof line,
                   "%s alpha affine (declared) at q0: contracted Hess alpha at most %.1e "
                   "(tol %.1e) %s",
                   name, (double)dev, (double)lim, ok ? "ok" : "FAIL");
        }
      }
      if (report != NULL) {
        report(ctx, line);
      }
    }
  }
  free(work);
  return status != 0 ? status : failures;
}
