/* method_tmpl.c: the method registry (from core/methods/methods.def) and the
 * stepper object: a method type, its parsed options and its private state
 * in one allocation (GSL odeiv2 / dav1d style). Compiled once per
 * precision (prec.h). */
#include "prec.h"
#include "numerics_tmpl.h"
#include "api_tmpl.h"
#include "spec.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The test-only families are registered in the test configuration only
 * (meson option test_families). */
#ifdef VI_WITH_TEST_FAMILIES
#define VI_TEST_METHOD(id) VI_METHOD(id)
#else
#define VI_TEST_METHOD(id)
#endif

#define VI_METHOD(id) extern const VI_X(vi_method_type) VI_X(vi_method_##id);
#include "methods/methods.def"
#undef VI_METHOD

const VI_X(vi_method_type) *const VI_X(vi_method_types)[] = {
#define VI_METHOD(id) &VI_X(vi_method_##id),
#include "methods/methods.def"
#undef VI_METHOD
    NULL};
#undef VI_TEST_METHOD

struct VI_X(vi_stepper) {
  const VI_X(vi_method_type) *type;
  const VI_X(vi_system) *sys;
  VI_X(vi_stats) stats;
  vi_dims dims; /* the system's and the method's extra block */
  char extra_name[VI_EXTRA_NAME_MAX + 1]; /* the extra block's name (a copy: the
                                             hook's string need not outlive it)
                                             and reference */
  int extra_ref;
  void *opts;
  void *state;
  int acquired; /* init ran: fini must release what it acquired */
  int ready;    /* init succeeded: step may run */
  char err[256]; /* why init last failed (vi_stepper_error) */
};

#define ALIGN16(x) (((x) + 15) / 16 * 16)

VI_X(vi_node) *VI_X(vi_node_alloc)(const vi_dims *d) {
  const size_t head = ALIGN16(sizeof(VI_X(vi_node)));
  const size_t nr = vi_node_size(d);
  char *mem = calloc(1, head + (nr > 0 ? nr : 1) * sizeof(VI_REAL));
  if (!mem) {
    return NULL;
  }
  VI_X(vi_node) *nd = (VI_X(vi_node) *)(void *)mem;
  VI_X(vi_node_bind)(nd, (VI_REAL *)(void *)(mem + head), d);
  return nd;
}

/* Whether a system with n constraints of a kind is acceptable to a family
 * that requires (need) or handles (opt) that kind. */
int VI_X(vi_method_compatible)(const VI_X(vi_method_type) *type,
                               const VI_X(vi_system_type) *sty, char *why, size_t len) {
  /* The form bits of needs are alternatives (a family written for more
   * than one configuration space, e.g. nhprk on R^n and on a Lie group,
   * takes a system of any of its forms); the constraint bits are each
   * required. */
  const unsigned forms = type->needs & (VI_NEED_MECH | VI_NEED_DEGEN | VI_NEED_LIE);
  const int has_form = forms == 0 || ((forms & VI_NEED_MECH) && sty->mech != NULL) ||
                       ((forms & VI_NEED_DEGEN) && sty->degen != NULL) ||
                       ((forms & VI_NEED_LIE) && sty->lie != NULL);
  const char *lacks = !has_form && forms == (VI_NEED_MECH | VI_NEED_LIE)
                          ? "the mechanical form L = 1/2 v'M(q)v - V(q) or the Lie-group form "
                            "l(g, xi)"
                      : !has_form && (forms & VI_NEED_MECH)
                          ? "the mechanical form L = 1/2 v'M(q)v - V(q)"
                      : !has_form && (forms & VI_NEED_DEGEN)
                          ? "the degenerate form L = alpha(q).v - H(q)"
                      : !has_form && (forms & VI_NEED_LIE)
                          ? "the Lie-group form l(g, xi)"
                      : (type->needs & VI_NEED_HOLO) && (sty->holo == NULL || sty->info->m < 1)
                          ? "holonomic constraints g(q) = 0"
                      : (type->needs & VI_NEED_NH) && (sty->nh == NULL || sty->info->m_nh < 1)
                          ? "nonholonomic constraints A(q) v + a(q) = 0"
                          : NULL;
  /* A family handles exactly the constraint kinds it needs or declares
   * optional: a system with another kind too would have it silently
   * ignored. */
  const unsigned handled = type->needs | type->optional;
  const char *extra = lacks                                                 ? NULL
                      : !(handled & VI_NEED_HOLO) && sty->info->m > 0       ? "holonomic"
                      : !(handled & VI_NEED_NH) && sty->info->m_nh > 0      ? "nonholonomic"
                                                                            : NULL;
  if (extra && why) {
    snprintf(why, len, "method %s does not handle %s constraints, and %s has %d of them", type->name,
             extra, sty->info->name, extra[0] == 'h' ? sty->info->m : sty->info->m_nh);
  }
  if (lacks && why) {
    snprintf(why, len, "method %s needs a system with %s; %s is %s%s", type->name, lacks,
             sty->info->name, VI_X(vi_type_form)(sty),
             sty->holo != NULL ? " with holonomic constraints"
             : sty->nh != NULL ? " with nonholonomic constraints"
                               : " without constraints");
  }
  return lacks == NULL && extra == NULL;
}

int VI_X(vi_method_accepts)(const VI_X(vi_method_type) *type, const void *opts,
                            const VI_X(vi_system_type) *sty, char *why, size_t len) {
  if (!VI_X(vi_method_compatible)(type, sty, why, len)) {
    return VI_EUNSUPPORTED;
  }
  if (type->accepts != NULL) {
    char msg[256] = "";
    int rc = type->accepts(opts, sty, msg, sizeof msg);
    if (rc != VI_OK) {
      vi_set_err(why, len, "%s", msg[0] ? msg : "the method refuses this system");
      return VI_EUNSUPPORTED;
    }
  }
  return VI_OK;
}

const VI_X(vi_method_type) *VI_X(vi_method_find)(const char *name, char *err, size_t errlen) {
  for (int i = 0; VI_X(vi_method_types)[i]; i++) {
    if (name && strcmp(VI_X(vi_method_types)[i]->name, name) == 0) {
      return VI_X(vi_method_types)[i];
    }
  }
  int k = snprintf(err, errlen, "unknown method '%s'; valid:", name ? name : "");
  for (int i = 0; VI_X(vi_method_types)[i] && k > 0 && (size_t)k < errlen; i++) {
    k += snprintf(err + k, errlen - (size_t)k, " %s", VI_X(vi_method_types)[i]->name);
  }
  return NULL;
}

static int stepper_make(const VI_X(vi_method_type) *type, void *optbuf,
                        const VI_X(vi_system) *sys, VI_X(vi_stepper) **out, char *err,
                        size_t errlen);

/* The options of a family are parsed or copied into a stack block first
 * (the state size depends on them): it must be large enough. */
#define OPTBUF_SIZE 256
static int optbuf_fits(const VI_X(vi_method_type) *type, char *err, size_t errlen) {
  if (type->opts_size > OPTBUF_SIZE) {
    snprintf(err, errlen, "options of method %s exceed %d bytes", type->name, OPTBUF_SIZE);
    return 0;
  }
  return 1;
}

int VI_X(vi_stepper_alloc)(const char *spec, const VI_X(vi_system) *sys,
                           VI_X(vi_stepper) **out, char *err, size_t errlen) {
  *out = NULL;
  if (!spec || !sys) {
    snprintf(err, errlen, "no method spec given");
    return VI_EINVAL;
  }
  char name[64];
  (void)vi_spec_split(spec, name, sizeof name);
  const VI_X(vi_method_type) *type = VI_X(vi_method_find)(name, err, errlen);
  if (!type) {
    return VI_EINVAL;
  }
  return VI_X(vi_stepper_alloc_type)(type, spec, sys, out, err, errlen);
}

int VI_X(vi_stepper_alloc_type)(const VI_X(vi_method_type) *type, const char *spec,
                                const VI_X(vi_system) *sys, VI_X(vi_stepper) **out,
                                char *err, size_t errlen) {
  *out = NULL;
  if (!type || !spec || !sys) {
    snprintf(err, errlen, "vi_stepper_alloc_type: no %s",
             !type ? "method type" : !spec ? "method spec" : "system");
    return VI_EINVAL;
  }
  char name[64];
  const char *kv = vi_spec_split(spec, name, sizeof name);
  if (strcmp(name, type->name) != 0) {
    snprintf(err, errlen, "method spec '%s' names '%s', not the family given (%s)", spec,
             name, type->name);
    return VI_EINVAL;
  }
  if (!VI_X(vi_method_compatible)(type, sys->type, err, errlen)) {
    return VI_EUNSUPPORTED;
  }
  if (vi_kv_unique(kv, err, errlen) != 0) {
    char msg[512];
    snprintf(msg, sizeof msg, "%s", err);
    snprintf(err, errlen, "method %s: %s", spec, msg);
    return VI_EINVAL;
  }
  _Alignas(16) char optbuf[OPTBUF_SIZE];
  if (!optbuf_fits(type, err, errlen)) {
    return VI_ENOMEM;
  }
  vi_opts_defaults(type->options, optbuf);
  const vi_opts_family fam = {type->check, type->opts_size};
  int rc = vi_opts_parse(type->name, type->options, optbuf, kv, &fam, err, errlen);
  if (rc != VI_OK) {
    return rc;
  }
  return stepper_make(type, optbuf, sys, out, err, errlen);
}

int VI_X(vi_stepper_alloc_opts)(const VI_X(vi_method_type) *type, const void *opts,
                                const VI_X(vi_system) *sys, VI_X(vi_stepper) **out,
                                char *err, size_t errlen) {
  *out = NULL;
  if (!type || !opts || !sys) {
    snprintf(err, errlen, "vi_stepper_alloc_opts: no %s", !type ? "method type"
                                                            : !opts ? "options" : "system");
    return VI_EINVAL;
  }
  if (!VI_X(vi_method_compatible)(type, sys->type, err, errlen)) {
    return VI_EUNSUPPORTED;
  }
  _Alignas(16) char optbuf[OPTBUF_SIZE];
  if (!optbuf_fits(type, err, errlen)) {
    return VI_ENOMEM;
  }
  memcpy(optbuf, opts, type->opts_size);
  return stepper_make(type, optbuf, sys, out, err, errlen);
}

/* The names a method's extra block may not take: the node's own blocks
 * and the order results' quantities (their JSON keys). */
/* The node's blocks and the bases of the per-constraint measures (g1..gm,
 * gv1.., gvv1..: a block named "g" would make the columns g1.. twice). */
static const char *const reserved_names[] = {"t",      "q",          "p",  "v",
                                             "lambda", "mu",         "energy",
                                             "energy_max", "lambda_start", "g",
                                             "gv",     "gvv",        NULL};

/* 1 when name is an identifier ([A-Za-z_][A-Za-z0-9_]*) that does not end
 * in a digit: its columns NAME1..NAMEK then cannot be another column (q11
 * of "q1"), a CSV header stays one field per column, and a measure found
 * by name is found by this one. */
static int extra_name_ok(const char *name) {
  const size_t len = name ? strlen(name) : 0;
  if (len == 0 || len > VI_EXTRA_NAME_MAX || isdigit((unsigned char)name[0]) ||
      isdigit((unsigned char)name[len - 1])) {
    return 0;
  }
  for (size_t i = 0; i < len; i++) {
    if (!(isalnum((unsigned char)name[i]) || name[i] == '_')) {
      return 0;
    }
  }
  return 1;
}

/* A declared extra block: a size, a short name that is no other measure's
 * (the run columns, the traces and the order results name it), a known
 * reference. */
static int extra_valid(const VI_X(vi_method_type) *type, const VI_X(vi_system) *sys,
                       const vi_dims *d, const char *name, int ref, char *err,
                       size_t errlen) {
  if (d->n_extra < 0) {
    snprintf(err, errlen, "method %s declares a negative extra block", type->name);
    return VI_EINVAL;
  }
  if (d->n_extra == 0) {
    return VI_OK;
  }
  if (ref != VI_EXTRA_ZERO && ref != VI_EXTRA_UNREFERENCED) {
    snprintf(err, errlen,
             "method %s declares its extra block's reference as %d: VI_EXTRA_ZERO or "
             "VI_EXTRA_UNREFERENCED is needed",
             type->name, ref);
    return VI_EINVAL;
  }
  const char *clash = NULL;
  for (int i = 0; name && reserved_names[i]; i++) {
    clash = strcmp(name, reserved_names[i]) == 0 ? reserved_names[i] : clash;
  }
  for (const vi_measure_doc *m = vi_measure_docs; name && m->name; m++) {
    clash = strcmp(name, m->name) == 0 ? m->name : clash;
  }
  const vi_system_info *info = sys->type->info;
  for (int i = 0; name && i < info->n_momenta; i++) {
    clash = strcmp(name, info->momentum_names[i]) == 0 ? info->momentum_names[i] : clash;
  }
  if (!extra_name_ok(name) || clash) {
    snprintf(err, errlen,
             "method %s names its extra block '%s': an identifier of 1..%d characters, not "
             "ending in a digit, that is no other measure's is needed%s%s",
             type->name, name ? name : "(null)", VI_EXTRA_NAME_MAX,
             clash ? "; it is taken by " : "", clash ? clash : "");
    return VI_EINVAL;
  }
  return VI_OK;
}

/* One allocation of header, options and state from parsed or typed
 * options, checked here for both paths: the presets a typed caller stored,
 * the table's ranges, the family's own rules, then whether it accepts this
 * system with these options. */
static int stepper_make(const VI_X(vi_method_type) *type, void *optbuf,
                        const VI_X(vi_system) *sys, VI_X(vi_stepper) **out, char *err,
                        size_t errlen) {
  int rc = vi_opts_apply_presets(type->name, type->options, optbuf, err, errlen);
  if (rc == VI_OK) {
    rc = vi_opts_check(type->name, type->options, optbuf, err, errlen);
  }
  if (rc == VI_OK && type->check) {
    rc = type->check(optbuf, err, errlen);
  }
  if (rc == VI_OK) {
    rc = VI_X(vi_method_accepts)(type, optbuf, sys->type, err, errlen);
  }
  if (rc == VI_OK && type->accepts_data != NULL) {
    char msg[256] = "";
    if (type->accepts_data(optbuf, sys, msg, sizeof msg) != VI_OK) {
      vi_set_err(err, errlen, "%s", msg[0] ? msg : "the method refuses the system's data");
      rc = VI_EUNSUPPORTED;
    }
  }
  if (rc != VI_OK) {
    return rc;
  }
  vi_dims d = VI_X(vi_system_dims)(sys);
  const char *xname = NULL;
  int xref = VI_EXTRA_UNREFERENCED;
  d.n_extra = type->extra ? type->extra(optbuf, &d, &xname, &xref) : 0;
  d.n_vel = type->velocity ? d.n : 0;
  if ((rc = extra_valid(type, sys, &d, xname, xref, err, errlen)) != VI_OK) {
    return rc;
  }
  size_t head = ALIGN16(sizeof(VI_X(vi_stepper)));
  size_t obytes = ALIGN16(type->opts_size);
  size_t sbytes = type->state_size(optbuf, &d);
  char *mem = calloc(1, head + obytes + sbytes);
  if (!mem) {
    snprintf(err, errlen, "out of memory");
    return VI_ENOMEM;
  }
  VI_X(vi_stepper) *st = (VI_X(vi_stepper) *)mem;
  st->type = type;
  st->sys = sys;
  st->dims = d;
  if (d.n_extra > 0) {
    snprintf(st->extra_name, sizeof st->extra_name, "%s", xname);
  }
  st->extra_ref = d.n_extra > 0 ? xref : VI_EXTRA_UNREFERENCED;
  st->opts = mem + head;
  st->state = mem + head + obytes;
  memcpy(st->opts, optbuf, type->opts_size);
  *out = st;
  return VI_OK;
}

void VI_X(vi_stepper_free)(VI_X(vi_stepper) *st) {
  if (!st) {
    return;
  }
  if (st->acquired && st->type->fini) {
    st->type->fini(st->state);
  }
  free(st);
}

int VI_X(vi_stepper_solver_check)(const VI_X(vi_stepper) *st, int kind, char *err,
                                  size_t errlen) {
  if (kind != VI_SOLVER_FIXED_POINT || st->type->fixed_point) {
    return VI_OK;
  }
  /* the iteration needs the family's leading part of its Jacobian */
  char fams[256] = "";
  size_t len = 0;
  for (int f = 0; VI_X(vi_method_types)[f] && len < sizeof fams; f++) {
    if (VI_X(vi_method_types)[f]->fixed_point) {
      len += (size_t)snprintf(fams + len, sizeof fams - len, "%s%s", len ? ", " : "",
                              VI_X(vi_method_types)[f]->name);
    }
  }
  snprintf(err, errlen,
           "the fixed-point solver needs the family's leading part of its Jacobian, which "
           "%s does not give (families that do: %s); use newton, chord or simplified",
           st->type->name, fams[0] ? fams : "none");
  return VI_EUNSUPPORTED;
}

int VI_X(vi_stepper_init)(VI_X(vi_stepper) *st,
                          const VI_X(vi_solver_opts) *solver, VI_REAL h,
                          VI_REAL t0, const VI_REAL *q0, const VI_REAL *p0,
                          VI_X(vi_node) *node0) {
  st->err[0] = '\0';
  if (!(h > 0) || !vi_isfinite(h)) {
    snprintf(st->err, sizeof st->err, "the step h must be a positive number");
    return VI_EINVAL;
  }
  if (st->acquired && st->type->fini) {
    st->type->fini(st->state);
  }
  st->acquired = st->ready = 0;
  memset(&st->stats, 0, sizeof st->stats);
  VI_X(vi_solver_opts) def;
  if (!solver) {
    VI_X(vi_solver_opts_default)(&def);
  } else {
    def = *solver;
  }
  if (def.kind == VI_SOLVER_AUTO) {
    /* the precision's default, or in quad the family's (quad_solver) */
    def.kind = VI_X(vi_solver_default_kind)(st->type->quad_solver);
  }
  if (VI_X(vi_stepper_solver_check)(st, def.kind, st->err, sizeof st->err) != VI_OK) {
    return VI_EUNSUPPORTED;
  }
  solver = &def;
  st->stats.solver_kind = def.kind;
  st->stats.solver_lu = def.lu;
  int rc = st->type->init(st->state, st->opts, st->sys, &st->dims, solver, h, t0, q0, p0,
                          node0, &st->stats, st->err, sizeof st->err);
  st->acquired = 1; /* fini releases whatever init acquired */
  st->ready = rc == VI_OK;
  return rc;
}

int VI_X(vi_stepper_step)(VI_X(vi_stepper) *st, VI_X(vi_node) *next) {
  if (!st->ready) {
    return VI_EINVAL;
  }
  return st->type->step(st->state, next, &st->stats);
}

int VI_X(vi_stepper_assemble)(VI_X(vi_stepper) *st, VI_REAL *F, VI_REAL *J) {
  if (!st->ready) {
    return VI_EINVAL;
  }
  return st->type->assemble ? st->type->assemble(st->state, F, J) : VI_EUNSUPPORTED;
}

int VI_X(vi_stepper_solve)(VI_X(vi_stepper) *st) {
  if (!st->ready) {
    return VI_EINVAL;
  }
  return st->type->solve ? st->type->solve(st->state, &st->stats) : VI_EUNSUPPORTED;
}

int VI_X(vi_stepper_unknowns)(const VI_X(vi_stepper) *st) {
  return st->ready && st->type->unknowns ? st->type->unknowns(st->state) : 0;
}

const VI_X(vi_stats) *VI_X(vi_stepper_stats)(const VI_X(vi_stepper) *st) {
  return &st->stats;
}

const vi_dims *VI_X(vi_stepper_dims)(const VI_X(vi_stepper) *st) {
  return &st->dims;
}

unsigned VI_X(vi_stepper_keeps)(const VI_X(vi_stepper) *st) {
  return st->type->keeps ? st->type->keeps(st->opts) : VI_KEEPS_G;
}

int VI_X(vi_stepper_lookahead)(const VI_X(vi_stepper) *st) {
  return st->type->lookahead_of ? st->type->lookahead_of(st->opts) : st->type->lookahead;
}

void VI_X(vi_stepper_extra_name)(const VI_X(vi_stepper) *st, int i, char *buf, size_t len) {
  const char *base = st->extra_name[0] ? st->extra_name : "extra";
  if (i < 0) {
    snprintf(buf, len, "%s", base);
  } else {
    snprintf(buf, len, "%s%d", base, i + 1);
  }
}

int VI_X(vi_stepper_extra_ref)(const VI_X(vi_stepper) *st) {
  return st->extra_ref;
}

const char *VI_X(vi_stepper_error)(const VI_X(vi_stepper) *st) {
  return st->err;
}

int VI_X(vi_stepper_expected_order)(const VI_X(vi_stepper) *st, int quantity) {
  return st->type->expected_order
             ? st->type->expected_order(st->opts, st->sys->type, quantity)
             : -1;
}

void VI_X(vi_stepper_spec)(const VI_X(vi_stepper) *st, char *buf, size_t len) {
  vi_opts_format(st->type->name, st->type->options, st->opts, buf, len);
}
