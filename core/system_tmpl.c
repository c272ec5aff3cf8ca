/* system_tmpl.c: system instances in the working precision (prec.h): parameter
 * handling (defaults, then "name=v1,v2,..." overrides), the check of a
 * type's tables, one allocation per instance (the public struct, its
 * private part and the type's state), the initial data, and the public
 * services of api_tmpl.h. Each service dispatches once through the form
 * table chosen at allocation (system_impl.h): the mechanical, degenerate
 * and Lie-group forms live in form_mech_tmpl.c, form_degen_tmpl.c and
 * form_lie_tmpl.c, the nonholonomic rows in nh_tmpl.c and the derivative
 * checker in system_check_tmpl.c. Compiled once per precision. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "system_impl.h"

/* Every block handed out by malloc is aligned for max_align_t; the real
 * arrays carved from it need no more than that (__float128 needs 16 bytes,
 * as max_align_t does on x86-64 and aarch64). */
_Static_assert(_Alignof(VI_REAL) <= _Alignof(max_align_t),
               "VI_REAL needs more alignment than malloc guarantees");
#define VI_SYS_ALIGN _Alignof(max_align_t)

static size_t round_up(size_t x) {
  return (x + VI_SYS_ALIGN - 1) / VI_SYS_ALIGN * VI_SYS_ALIGN;
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

/* More parameters than any system has: the repeated-setting check. */
#define VI_MAX_PARAMS 64

/* The values of parameter p from text (len bytes) into out: exactly count
 * of them, or for a parameter per coordinate (VI_PARAM_COORDS) 1..count,
 * the rest NaN (their number is checked against the instance's dimension
 * once setup has fixed it: check_coords). Returns parse_values' codes. */
static int parse_param(const vi_param *p, const char *text, size_t len, VI_REAL *out,
                       int *got, char *bad, size_t badlen) {
  if (p->domain != VI_PARAM_COORDS) {
    return parse_values(text, len, p->count, out, got, bad, badlen);
  }
  int k = len > 0 ? 1 : 0;
  for (size_t i = 0; i < len; i++) {
    k += text[i] == ',';
  }
  *got = k;
  if (k < 1 || k > p->count) {
    return -1;
  }
  for (int i = k; i < p->count; i++) {
    out[i] = (VI_REAL)NAN;
  }
  return parse_values(text, len, k, out, got, bad, badlen);
}

/* One setting "name=values" (len bytes, not necessarily NUL terminated)
 * into par; seen counts the settings of each parameter (NULL for the
 * settings of a data set, which the user's may override). */
static int apply_setting(const vi_system_info *info, VI_REAL *par, const char *s, size_t len,
                         unsigned char *seen, char *err, size_t errlen) {
  char bad[64];
  int got;
  const char *eq = s != NULL ? memchr(s, '=', len) : NULL;
  if (eq == NULL) {
    vi_set_err(err, errlen, "parameter setting '%.*s' for %s is not name=value",
               s != NULL ? (int)len : 6, s != NULL ? s : "(null)", info->name);
    return VI_EINVAL;
  }
  size_t nl = (size_t)(eq - s);
  const vi_param *p = info->params;
  int off = 0;
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
    vi_set_err(err, errlen, "unknown parameter '%.*s' for system %s; valid: %s%s", (int)nl, s,
               info->name, valid, info->data != NULL ? ", data" : "");
    return VI_EINVAL;
  }
  if (seen != NULL && pi < VI_MAX_PARAMS && seen[pi]++) {
    vi_set_err(err, errlen, "parameter %s of %s is set twice; set each parameter once",
               p->name, info->name);
    return VI_EINVAL;
  }
  const size_t vl = len - nl - 1;
  int rc = parse_param(p, eq + 1, vl, par + off, &got, bad, sizeof bad);
  if (rc == -1 && p->domain == VI_PARAM_COORDS) {
    vi_set_err(err, errlen,
               "parameter %s of %s takes one value per coordinate (at most %d), got %d",
               p->name, info->name, p->count, got);
    return VI_EINVAL;
  }
  if (rc == -1) {
    vi_set_err(err, errlen, "parameter %s of %s takes %d value%s, got %d", p->name,
               info->name, p->count, p->count == 1 ? "" : "s", got);
    return VI_EINVAL;
  }
  if (rc != 0) {
    vi_set_err(err, errlen, "parameter %s of %s: '%s' is not a finite number", p->name,
               info->name, bad);
    return VI_EINVAL;
  }
  return VI_OK;
}

/* The named data set of a setting "data=NAME" (vi_system_info.data) into
 * par, over the defaults. */
static int apply_data_set(const vi_system_info *info, VI_REAL *par, const char *name,
                          char *err, size_t errlen) {
  const vi_data_set *d = info->data;
  for (; d != NULL && d->name != NULL; d++) {
    if (strcmp(d->name, name) == 0) {
      break;
    }
  }
  if (d == NULL || d->name == NULL) {
    char valid[256] = "";
    size_t used = 0;
    for (const vi_data_set *e = info->data; e != NULL && e->name != NULL; e++) {
      int w = snprintf(valid + used, sizeof valid - used, "%s%s", used ? ", " : "", e->name);
      used += w > 0 && (size_t)w < sizeof valid - used ? (size_t)w : 0;
    }
    vi_set_err(err, errlen, "data set '%s' of %s: %s%s", name, info->name,
               info->data != NULL ? "unknown; valid: " : "the system has no named data sets",
               valid);
    return VI_EINVAL;
  }
  for (const char *c = d->sets; *c != '\0';) {
    const char *e = strchr(c, ';');
    size_t l = e != NULL ? (size_t)(e - c) : strlen(c);
    char why[384] = "";
    int rc = apply_setting(info, par, c, l, NULL, why, sizeof why);
    if (rc != VI_OK) {
      vi_set_err(err, errlen, "data set %s of %s is malformed (a bug in the system type): %s",
                 d->name, info->name, why);
      return rc;
    }
    c = e != NULL ? e + 1 : c + l;
  }
  return VI_OK;
}

/* Fill par from the defaults, then the named data set (a setting
 * data=NAME, at most one), then the other settings. */
static int set_params(const vi_system_info *info, VI_REAL *par, int nset,
                      const char *const *set, char *err, size_t errlen) {
  char bad[64];
  int got;
  int off = 0;
  for (const vi_param *p = info->params; p != NULL && p->name != NULL; p++) {
    const char *d = p->defaults != NULL ? p->defaults : "";
    int rc = 0;
    if (p->domain == VI_PARAM_COORDS && d[0] == '\0') {
      for (int i = 0; i < p->count; i++) {
        par[off + i] = (VI_REAL)NAN; /* unset: setup derives it */
      }
    } else {
      rc = parse_param(p, d, strlen(d), par + off, &got, bad, sizeof bad);
    }
    if (rc != 0) {
      vi_set_err(err, errlen,
              "default of parameter %s of %s is malformed ('%s'): a bug in "
              "the system type",
              p->name, info->name, d);
      return VI_EINVAL;
    }
    off += p->count;
  }
  int data = -1;
  for (int i = 0; i < nset; i++) {
    if (set[i] != NULL && strncmp(set[i], "data=", 5) == 0) {
      if (data >= 0) {
        vi_set_err(err, errlen, "data of %s is set twice; select one data set", info->name);
        return VI_EINVAL;
      }
      data = i;
    }
  }
  if (data >= 0) {
    int rc = apply_data_set(info, par, set[data] + 5, err, errlen);
    if (rc != VI_OK) {
      return rc;
    }
  }
  unsigned char seen[VI_MAX_PARAMS] = {0};
  for (int i = 0; i < nset; i++) {
    if (i == data) {
      continue;
    }
    int rc = apply_setting(info, par, set[i], set[i] != NULL ? strlen(set[i]) : 0, seen, err,
                           errlen);
    if (rc != VI_OK) {
      return rc;
    }
  }
  /* Every value inside its parameter's domain (defaults included; an
   * unset value per coordinate is NaN until setup derives it). */
  off = 0;
  for (const vi_param *p = info->params; p != NULL && p->name != NULL; p++) {
    for (int c = 0; c < p->count; c++) {
      VI_REAL v = par[off + c];
      int ok = p->domain == VI_PARAM_POSITIVE  ? v > 0
               : p->domain == VI_PARAM_NONNEG  ? v >= 0
               : p->domain == VI_PARAM_NATURAL ? v >= 0 && v == vi_floor(v)
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

/* The parameters per coordinate (VI_PARAM_COORDS) against the instance's
 * dimension n: each unset (every value NaN, derived by setup) or set with
 * exactly n values. */
static int check_coords(const vi_system_info *info, const VI_REAL *par, int n, char *err,
                        size_t errlen) {
  int off = 0;
  for (const vi_param *p = info->params; p != NULL && p->name != NULL; p++) {
    if (p->domain == VI_PARAM_COORDS) {
      int k = 0;
      while (k < p->count && vi_isfinite(par[off + k])) {
        k++;
      }
      if (k != 0 && k != n) {
        vi_set_err(err, errlen,
                   "parameter %s of %s takes n = %d values, one per coordinate%s%s%s, got %d",
                   p->name, info->name, n, info->dim_doc ? " (n = " : "",
                   info->dim_doc ? info->dim_doc : "", info->dim_doc ? ")" : "", k);
        return VI_EINVAL;
      }
    }
    off += p->count;
  }
  return VI_OK;
}

/* ---- rules of a system's data (its setup) ---------------------------------- */

int VI_X(vi_data_nonzero)(const char *name, VI_REAL x, const char *why, char *err,
                          size_t errlen) {
  if (x != 0) {
    return 0;
  }
  vi_set_err(err, errlen, "%s must be nonzero, got 0: %s", name, why);
  return -1;
}

int VI_X(vi_data_apart)(const char *name, const char *what, int dim, const VI_REAL *a,
                        const VI_REAL *b, const char *why, char *err, size_t errlen) {
  int same = 1;
  for (int i = 0; i < dim; i++) {
    same = same && a[i] == (b != NULL ? b[i] : 0);
  }
  if (!same) {
    return 0;
  }
  char at[160] = "";
  size_t used = 0;
  for (int i = 0; i < dim && used < sizeof at; i++) {
    int w = snprintf(at + used, sizeof at - used, "%s%.17g", i ? ", " : "", (double)a[i]);
    used += w > 0 ? (size_t)w : 0;
  }
  vi_set_err(err, errlen, "%s: %s coincide at (%s), %s", name, what, at, why);
  return -1;
}

/* ---- instance ------------------------------------------------------------- */

void VI_X(vi_system_free)(VI_X(vi_system) *sys) {
  free(sys);
}

/* What a type lacks of the tables it must have (api_tmpl.h), NULL when
 * complete: exactly one Lagrangian form with its required callbacks, the
 * holonomic table exactly when m > 0, the nonholonomic one exactly when
 * m_nh > 0, and initial data. */
static const char *type_missing(const VI_X(vi_system_type) *type, int nq) {
  const vi_system_info *info = type->info;
  const int n = info->n, m = info->m;
  const VI_X(vi_mech_ops) *mech = type->mech;
  const VI_X(vi_degen_ops) *dg = type->degen;
  const VI_X(vi_lie_ops) *lie = type->lie;
  const VI_X(vi_space_ops) *sp = type->space;
  const int config_mass = VI_X(vi_type_config_mass)(type);
  return (mech != NULL) + (dg != NULL) + (lie != NULL) != 1
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
}

/* The form table of a complete type: the one place the form is chosen. */
static const vi_form_impl *form_of(const VI_X(vi_system_type) *type) {
  return type->mech != NULL    ? &VI_X(vi_form_mech)
         : type->degen != NULL ? &VI_X(vi_form_degen)
                               : &VI_X(vi_form_lie);
}

/* The sizes and tables of a type, checked: VI_OK, or the status with the
 * message. */
static int type_check(const VI_X(vi_system_type) *type, int nset, const char *const *set,
                      char *err, size_t errlen) {
  if (type == NULL || type->info == NULL || (nset > 0 && set == NULL) || nset < 0) {
    vi_set_err(err, errlen, "vi_system_alloc: %s",
               type == NULL || type->info == NULL ? "no system type" : "bad parameter list");
    return VI_EINVAL;
  }
  const vi_system_info *info = type->info;
  int n = info->n, m = info->m, nq = info->nq > 0 ? info->nq : n;
  if (n <= 0 || m < 0 || m > n || info->m_nh < 0 || m + info->m_nh > n || nq < n ||
      (nq > n && type->lie == NULL) || (type->dim != NULL && info->nq > 0)) {
    vi_set_err(err, errlen,
               "system %s has bad sizes n = %d, nq = %d, m = %d (nq > n only for a group "
               "in an embedding)",
               info->name, n, nq, m);
    return VI_EINVAL;
  }
  const char *missing = type_missing(type, nq);
  if (missing) {
    vi_set_err(err, errlen, "system type %s is incomplete: it needs %s", info->name, missing);
    return VI_EUNSUPPORTED;
  }
  return VI_OK;
}

/* One block: the header (public and private part), the real arrays (par,
 * M and Minv for the mechanical form, q0, p0, v0) and the private state of
 * the type, each starting on a max_align_t boundary. The arrays are sized
 * for info->n, the largest dimension of a type whose dimension is set by a
 * parameter; place lays them out for the instance's n once setup has fixed
 * it. */
static sys_impl *alloc_block(const VI_X(vi_system_type) *type) {
  const vi_system_info *info = type->info;
  const int n = info->n, nq = info->nq > 0 ? info->nq : n;
  int nval = 0;
  for (const vi_param *p = info->params; p != NULL && p->name != NULL; p++) {
    nval += p->count;
  }
  const size_t nmass = type->mech ? 2 * (size_t)n * (size_t)n : 0;
  size_t nreal = (size_t)nval + nmass + 3 * (size_t)n + (size_t)(nq - n);
  size_t off_real = round_up(sizeof(sys_impl));
  size_t off_state = round_up(off_real + nreal * sizeof(VI_REAL));
  size_t total = off_state + round_up(type->state_size);
  unsigned char *block = calloc(1, total);
  if (block == NULL) {
    return NULL;
  }
  sys_impl *s = (sys_impl *)(void *)block;
  VI_X(vi_system) *sys = &s->pub;
  sys->type = type;
  sys->par = (VI_REAL *)(void *)(block + off_real);
  sys->state = type->state_size > 0 ? block + off_state : NULL;
  s->form = form_of(type);
  s->config_mass = VI_X(vi_type_config_mass)(type);
  return s;
}

/* The instance's sizes for dimension n (info->n unless the type sets it,
 * vi_system_type.dim) and its arrays after par: M, Minv (mechanical form),
 * q0, p0, v0. */
static void place(sys_impl *s, int n) {
  VI_X(vi_system) *sys = &s->pub;
  const VI_X(vi_system_type) *type = sys->type;
  const vi_system_info *info = type->info;
  const int nval = vi_system_info_nvalues(info);
  const int nq = info->nq > 0 ? info->nq : n;
  const size_t nmass = type->mech ? 2 * (size_t)n * (size_t)n : 0;
  sys->n = n;
  sys->nq = nq;
  sys->m = info->m;
  sys->m_nh = info->m_nh;
  sys->ml = info->m + info->m_nh;
  sys->q0 = sys->par + nval + nmass;
  sys->p0 = sys->q0 + nq;
  sys->v0 = sys->p0 + n;
  s->M = type->mech ? sys->par + nval : NULL;
  s->Minv = type->mech ? s->M + n * n : NULL;
}

/* The instance's dimension: the type's (info->n), or the one its
 * parameters set (vi_system_type.dim), checked against the type's sizes
 * and its parameters per coordinate. */
static int fix_dim(sys_impl *s, char *err, size_t errlen) {
  const VI_X(vi_system_type) *type = s->pub.type;
  const vi_system_info *info = type->info;
  int n = info->n;
  if (type->dim != NULL) {
    n = type->dim(s->pub.state);
    if (n < 1 || n > info->n || info->m + info->m_nh > n) {
      vi_set_err(err, errlen,
                 "system %s set the dimension n = %d from its parameters, outside 1..%d "
                 "(or below its %d constraints): a bug in the system type",
                 info->name, n, info->n, info->m + info->m_nh);
      return VI_EINVAL;
    }
  }
  place(s, n);
  return check_coords(info, s->pub.par, n, err, errlen);
}

/* The type's initial data into q0 and (except for the degenerate form) v0,
 * refused when not finite. */
static int read_initial(sys_impl *s, char *err, size_t errlen) {
  VI_X(vi_system) *sys = &s->pub;
  const char *name = sys->type->info->name;
  int crc = sys->type->initial(sys->state, sys->q0, s->form->has_velocity ? sys->v0 : NULL);
  if (crc != 0) {
    vi_set_err(err, errlen, "callback initial of system %s failed with status %d while allocating",
               name, crc);
    return vi_callback_status(crc);
  }
  for (int i = 0; i < sys->nq; i++) {
    if (!vi_isfinite(sys->q0[i]) || (i < sys->n && !vi_isfinite(sys->v0[i]))) {
      vi_set_err(err, errlen, "initial data of system %s is not finite", name);
      return VI_EINVAL;
    }
  }
  return VI_OK;
}

static int system_alloc(const VI_X(vi_system_type) *type, int nset, const char *const *set,
                        int project_any, VI_X(vi_system) **out, char *err, size_t errlen) {
  if (out == NULL) {
    vi_set_err(err, errlen, "vi_system_alloc: out is NULL");
    return VI_EINVAL;
  }
  *out = NULL;
  int rc = type_check(type, nset, set, err, errlen);
  if (rc != VI_OK) {
    return rc;
  }
  const vi_system_info *info = type->info;
  sys_impl *s = alloc_block(type);
  if (s == NULL) {
    vi_set_err(err, errlen, "out of memory allocating system %s", info->name);
    return VI_ENOMEM;
  }
  VI_X(vi_system) *sys = &s->pub;
  rc = set_params(info, sys->par, nset, set, err, errlen);
  if (rc == VI_OK && type->setup != NULL) {
    /* The system's own rules on its data (api_tmpl.h): the datum and the
     * rule it breaks, prefixed by the system's name. */
    char why[512] = "";
    int src = type->setup(sys->state, sys->par, why, sizeof why);
    if (src != 0 && why[0] != '\0') {
      vi_set_err(err, errlen, "%s: %s", info->name, why);
      rc = VI_EINVAL;
    } else if (src != 0) {
      vi_set_err(err, errlen,
                 "system %s rejected its parameters without saying why (setup returned %d); "
                 "see 'vistudy list systems' for their meaning and ranges",
                 info->name, src);
      rc = VI_EINVAL;
    }
  }
  if (rc == VI_OK) {
    rc = fix_dim(s, err, errlen);
  }
  if (rc == VI_OK) {
    rc = read_initial(s, err, errlen);
  }
  if (rc == VI_OK) {
    rc = s->form->setup(s, project_any, err, errlen);
  }
  if (rc != VI_OK) {
    free(s);
    return rc;
  }
  *out = sys;
  return VI_OK;
}

int VI_X(vi_system_alloc)(const VI_X(vi_system_type) *type, int nset, const char *const *set,
                          VI_X(vi_system) **out, char *err, size_t errlen) {
  return system_alloc(type, nset, set, 0, out, err, errlen);
}

int VI_X(vi_system_alloc_projected)(const VI_X(vi_system_type) *type, int nset,
                                    const char *const *set, VI_X(vi_system) **out, char *err,
                                    size_t errlen) {
  return system_alloc(type, nset, set, 1, out, err, errlen);
}

/* The type's steady callback (vi_obs_ops.steady); none: not steady. */
int VI_X(vi_system_steady)(const VI_X(vi_system) *sys, const char **motion) {
  *motion = NULL;
  const VI_X(vi_obs_ops) *obs = sys->type->obs;
  if (obs == NULL || obs->steady == NULL) {
    return VI_OK;
  }
  const int rc = vi_callback_status(obs->steady(sys->state, motion));
  if (rc != VI_OK) {
    *motion = NULL;
  }
  return rc;
}

/* ---- the public services: one dispatch through the form table ------------------
 * A form without the service (a NULL entry) gives VI_EUNSUPPORTED. */

#define FORM(sys) (impl_of(sys)->form)
#define DISPATCH(sys, fn, ...)                                                                 \
  (FORM(sys)->fn != NULL ? FORM(sys)->fn(impl_of(sys), __VA_ARGS__) : VI_EUNSUPPORTED)

int VI_X(vi_system_project)(const VI_X(vi_system) *sys, VI_REAL *q, VI_REAL *v, VI_REAL *p) {
  return DISPATCH(sys, project, q, v, p);
}

int VI_X(vi_system_energy)(const VI_X(vi_system) *sys, const VI_REAL *q, const VI_REAL *p,
                           VI_REAL *E) {
  return DISPATCH(sys, energy, q, p, E);
}

int VI_X(vi_system_top_data)(const VI_X(vi_system) *sys, VI_REAL *I, VI_REAL *mgc) {
  const VI_X(vi_top_ops) *t = sys->type->top;
  return t ? vi_callback_status(t->data(sys->state, I, mgc)) : VI_EUNSUPPORTED;
}

int VI_X(vi_system_top_attitude)(const VI_X(vi_system) *sys, const VI_REAL *q,
                                 const VI_REAL *p, VI_REAL *R, VI_REAL *J) {
  const VI_X(vi_top_ops) *t = sys->type->top;
  return t ? vi_callback_status(t->attitude(sys->state, q, p, R, J)) : VI_EUNSUPPORTED;
}

int VI_X(vi_system_top_node)(const VI_X(vi_system) *sys, const VI_REAL *R, const VI_REAL *J,
                             VI_REAL *q, VI_REAL *p) {
  const VI_X(vi_top_ops) *t = sys->type->top;
  return t ? vi_callback_status(t->node(sys->state, R, J, q, p)) : VI_EUNSUPPORTED;
}

int VI_X(vi_system_defect)(const VI_X(vi_system) *sys, const VI_REAL *q, const VI_REAL *p,
                           VI_REAL *d) {
  *d = 0;
  return DISPATCH(sys, defect, q, p, d);
}

int VI_X(vi_system_degen_velocity)(const VI_X(vi_system) *sys, const VI_REAL *q,
                                   VI_REAL *qdot) {
  return DISPATCH(sys, velocity, q, qdot);
}

int VI_X(vi_system_hidden)(const VI_X(vi_system) *sys, const VI_REAL *q, const VI_REAL *p,
                           VI_REAL *gv) {
  return sys->m == 0 ? VI_OK : DISPATCH(sys, hidden, q, p, gv);
}

int VI_X(vi_system_project_p)(const VI_X(vi_system) *sys, const VI_REAL *q, VI_REAL *p) {
  return sys->m == 0 ? VI_OK : DISPATCH(sys, project_rows, q, p, PK_HOLO);
}

int VI_X(vi_system_project_nh)(const VI_X(vi_system) *sys, const VI_REAL *q, VI_REAL *p) {
  /* The Lie form projects xi in its own metric (vi_system_project). */
  return sys->m_nh == 0 ? VI_OK : DISPATCH(sys, project_rows, q, p, PK_NH);
}

int VI_X(vi_system_nh_residual)(const VI_X(vi_system) *sys, const VI_REAL *q,
                                const VI_REAL *p, VI_REAL *r) {
  return sys->m_nh == 0 ? VI_OK : DISPATCH(sys, nh_residual, q, p, r);
}

int VI_X(vi_system_lambda)(const VI_X(vi_system) *sys, const VI_REAL *q, const VI_REAL *p,
                           VI_REAL *lambda) {
  return sys->ml == 0 ? VI_OK : DISPATCH(sys, lambda, q, p, lambda);
}

int VI_X(vi_system_accel)(const VI_X(vi_system) *sys, const VI_REAL *q, const VI_REAL *p,
                          const VI_REAL *lambda, VI_REAL *v, VI_REAL *a) {
  return DISPATCH(sys, accel, q, p, lambda, v, a);
}

int VI_X(vi_system_dGv)(const VI_X(vi_system) *sys, const VI_REAL *q, const VI_REAL *v,
                        VI_REAL *J) {
  return sys->m == 0 ? VI_OK : DISPATCH(sys, dGv, q, v, J);
}

int VI_X(vi_system_mass_constant)(const VI_X(vi_system) *sys) {
  return FORM(sys)->mass_at != NULL && !impl_of(sys)->config_mass;
}

int VI_X(vi_system_mass_at)(const VI_X(vi_system) *sys, const VI_REAL *q, VI_REAL *work,
                            const VI_REAL **M) {
  return DISPATCH(sys, mass_at, q, work, M);
}

int VI_X(vi_system_minv_at)(const VI_X(vi_system) *sys, const VI_REAL *q, VI_REAL *work,
                            const VI_REAL **Minv) {
  return DISPATCH(sys, minv_at, q, work, Minv);
}

int VI_X(vi_system_minv_apply)(const VI_X(vi_system) *sys, const VI_REAL *q, const VI_REAL *p,
                               VI_REAL *v) {
  return DISPATCH(sys, minv_apply, q, p, v);
}

int VI_X(vi_system_mass)(const VI_X(vi_system) *sys, const VI_REAL *q, VI_REAL *M) {
  const VI_REAL *src = NULL;
  int rc = VI_X(vi_system_mass_at)(sys, q, M, &src);
  if (rc == VI_OK && src != M) {
    memcpy(M, src, (size_t)sys->n * (size_t)sys->n * sizeof *M);
  }
  return rc;
}

int VI_X(vi_system_mass_inv)(const VI_X(vi_system) *sys, const VI_REAL *q, VI_REAL *Minv) {
  const VI_REAL *src = NULL;
  int rc = VI_X(vi_system_minv_at)(sys, q, Minv, &src);
  if (rc == VI_OK && src != Minv) {
    memcpy(Minv, src, (size_t)sys->n * (size_t)sys->n * sizeof *Minv);
  }
  return rc;
}

int VI_X(vi_system_kinetic)(const VI_X(vi_system) *sys, const VI_REAL *q, const VI_REAL *v,
                            VI_REAL *dTdq, VI_REAL *DqMv, VI_REAL *Tqq) {
  return DISPATCH(sys, kinetic, q, v, dTdq, DqMv, Tqq);
}

int VI_X(vi_system_lagr)(const VI_X(vi_system) *sys, const VI_REAL *q, const VI_REAL *v,
                         VI_REAL *mLq, VI_REAL *Lv, VI_REAL *mLqq, VI_REAL *Mq, VI_REAL *Dq,
                         VI_REAL *work) {
  return DISPATCH(sys, lagr, q, v, mLq, Lv, mLqq, Mq, Dq, work);
}

int VI_X(vi_system_lie_xi)(const VI_X(vi_system) *sys, const VI_REAL *g, const VI_REAL *mu,
                           VI_REAL *xi) {
  return DISPATCH(sys, lie_xi, g, mu, xi);
}

int VI_X(vi_system_lie_rhs)(const VI_X(vi_system) *sys, const VI_REAL *g, const VI_REAL *xi,
                            VI_REAL *gdot, VI_REAL *xidot, VI_REAL *lambda) {
  return DISPATCH(sys, lie_rhs, g, xi, gdot, xidot, lambda);
}

int VI_X(vi_system_check)(const VI_X(vi_system) *sys, int nprobe,
                          void (*report)(void *ctx, const char *line), void *ctx) {
  if (sys == NULL || nprobe < 0) {
    return VI_EINVAL;
  }
  return FORM(sys)->check(impl_of(sys), nprobe, report, ctx);
}
