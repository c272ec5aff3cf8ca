/* options.c: method options as data (options.h, vi_opt): one table per
 * family generates its spec parser, canonical spec, typed range checks,
 * `list methods` and the messages that name the valid choices. Untemplated
 * (options are integers and names in either precision). */
#include "common.h"
#include "spec.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

static int *field(const vi_opt *o, void *opts) {
  return o->offset == VI_OPT_NOFIELD ? NULL : (int *)((char *)opts + o->offset);
}

static int get(const vi_opt *o, const void *opts) {
  return *(const int *)((const char *)opts + o->offset);
}

static const vi_opt *find(const vi_opt *table, const char *key) {
  for (const vi_opt *o = table; o->key; o++) {
    if (strcmp(o->key, key) == 0) {
      return o;
    }
  }
  return NULL;
}

void vi_opts_defaults(const vi_opt *table, void *opts) {
  for (const vi_opt *o = table; o->key; o++) {
    int *f = field(o, opts);
    if (f) {
      *f = o->kind == VI_OPT_PRESET ? 0 : o->def;
    }
  }
}

/* "a, b, c" of the keys of the table, or of the names of a choice/preset. */
static void join_keys(const vi_opt *table, char *buf, size_t len) {
  size_t k = 0;
  buf[0] = '\0';
  for (const vi_opt *o = table; o->key && k < len; o++) {
    k += (size_t)snprintf(buf + k, len - k, "%s%s", o == table ? "" : ", ", o->key);
  }
}

static void join_presets(const vi_opt_preset *p, const char *sep, char *buf, size_t len) {
  size_t k = 0;
  buf[0] = '\0';
  for (const vi_opt_preset *q = p; q->name && k < len; q++) {
    k += (size_t)snprintf(buf + k, len - k, "%s%s", q == p ? "" : sep, q->name);
  }
}

/* The stored value of text for an INT or CHOICE option. */
static int value_of(const vi_opt *o, const char *val, int *out, char *err, size_t errlen) {
  if (o->kind == VI_OPT_INT) {
    return vi_parse_int(o->key, val, o->lo, o->hi, out, err, errlen);
  }
  int i = 0;
  if (vi_parse_choice(o->key, val, o->names, &i, err, errlen)) {
    return -1;
  }
  *out = o->values ? o->values[i] : i;
  return 0;
}

/* 1 when key is one a preset sets: a key of its fragment or of derived. */
static int preset_sets(const vi_opt_preset *p, const char *key) {
  const char *texts[2] = {p->fragment, p->derived ? p->derived : ""};
  size_t kl = strlen(key);
  for (int t = 0; t < 2; t++) {
    for (const char *c = texts[t]; *c;) {
      while (*c == ' ' || *c == ',') {
        c++;
      }
      const char *eq = strchr(c, '=');
      if (!eq) {
        break;
      }
      if ((size_t)(eq - c) == kl && strncmp(c, key, kl) == 0) {
        return 1;
      }
      c = strchr(eq, ',');
      if (!c) {
        break;
      }
    }
  }
  return 0;
}

/* An integer out of the table's range for an option whose valid range
 * depends on the others (range_doc set, e.g. galerkin's w in 1..s): it is
 * reported once the others are known, with the values valid for them. */
typedef struct deferred_int {
  const vi_opt *o;
  int value;
} deferred_int;

/* Set the plain (INT, CHOICE) keys of kv; an out-of-range integer is
 * recorded in late (when not NULL) instead of refused, as said above. */
static int parse_plain(const char *family, const vi_opt *table, void *opts, const char *kv,
                       const vi_opt *excl, const vi_opt_preset *excl_p, deferred_int *late,
                       char *err, size_t errlen) {
  char key[32], val[64];
  int rc;
  for (const char *cur = kv;
       (rc = vi_kv_next(&cur, key, sizeof key, val, sizeof val, err, errlen)) > 0;) {
    const vi_opt *o = find(table, key);
    if (!o || o->kind == VI_OPT_PRESET) {
      continue;
    }
    if (excl_p && preset_sets(excl_p, key)) {
      snprintf(err, errlen, "key '%s' is set by %s=%s (%s%s%s); give either the %s or the key",
               key, excl->key, excl_p->name, excl_p->fragment, excl_p->derived ? ", " : "",
               excl_p->derived ? excl_p->derived : "", excl->key);
      return VI_EINVAL;
    }
    int v = 0;
    if (late && !late->o && o->kind == VI_OPT_INT && o->range_doc &&
        vi_parse_int(key, val, INT_MIN, INT_MAX, &v, err, errlen) == 0 &&
        (v < o->lo || v > o->hi)) {
      late->o = o;
      late->value = v;
      continue;
    }
    if (value_of(o, val, &v, err, errlen)) {
      return VI_EINVAL;
    }
    *field(o, opts) = v;
  }
  return rc < 0 ? VI_EINVAL : VI_OK;
}

/* The values of the INT option o that the family's check accepts with the
 * other options as they are, as "1..3" or "2, 4..5" ("" when none). */
static void valid_here(const vi_opt *o, const void *opts, const vi_opts_family *fam, char *buf,
                       size_t len) {
  _Alignas(16) char tmp[512];
  char e[256];
  size_t k = 0;
  int first = 0, in_run = 0;
  buf[0] = '\0';
  if (fam->opts_size > sizeof tmp) {
    return;
  }
  for (int v = o->lo; v <= o->hi + 1 && k < len; v++) {
    int ok = 0;
    if (v <= o->hi) {
      memcpy(tmp, opts, fam->opts_size);
      *field(o, tmp) = v;
      ok = fam->check(tmp, e, sizeof e) == 0;
    }
    if (ok && !in_run) {
      first = v;
      in_run = 1;
    } else if (!ok && in_run) {
      k += (size_t)snprintf(buf + k, len - k, v - 1 > first ? "%s%d..%d" : "%s%d",
                            k ? ", " : "", first, v - 1);
      in_run = 0;
    }
  }
}

/* Refuse an empty element of kv (",s=2", "s=2,,w=1", "s=2,"): a typo,
 * refused as an empty --h element is. */
static int empty_element(const char *family, const char *kv, char *err, size_t errlen) {
  int k = 1;
  for (const char *c = kv, *start = kv; *kv; c++) {
    if (*c != ',' && *c != '\0') {
      continue;
    }
    if (c == start) {
      snprintf(err, errlen, "method %s:%s: empty option (element %d); give key=value "
               "items separated by single commas", family, kv, k);
      return VI_EINVAL;
    }
    if (*c == '\0') {
      break;
    }
    start = c + 1;
    k++;
  }
  return VI_OK;
}

int vi_opts_parse(const char *family, const vi_opt *table, void *opts, const char *kv,
                  const vi_opts_family *fam, char *err, size_t errlen) {
  char key[32], val[64], list[512];
  int rc;
  if (empty_element(family, kv, err, errlen) != VI_OK) {
    return VI_EINVAL;
  }
  const vi_opt *excl = NULL;
  const vi_opt_preset *excl_p = NULL;
  /* Unknown keys first, then the presets (their keys become the values),
   * then the plain keys, which override a preset or are refused beside an
   * exclusive one (no silent precedence). */
  for (const char *cur = kv;
       (rc = vi_kv_next(&cur, key, sizeof key, val, sizeof val, err, errlen)) > 0;) {
    const vi_opt *o = find(table, key);
    if (!o) {
      join_keys(table, list, sizeof list);
      if (list[0]) {
        snprintf(err, errlen, "unknown key '%s' for method %s; valid: %s", key, family, list);
      } else {
        snprintf(err, errlen, "unknown key '%s' for method %s, which takes no options", key,
                 family);
      }
      return VI_EINVAL;
    }
    if (o->kind != VI_OPT_PRESET) {
      continue;
    }
    const vi_opt_preset *p = o->presets;
    while (p->name && strcmp(p->name, val) != 0) {
      p++;
    }
    if (!p->name) {
      join_presets(o->presets, ", ", list, sizeof list);
      snprintf(err, errlen, "invalid value '%s' for key '%s' of method %s; valid: %s", val,
               key, family, list);
      return VI_EINVAL;
    }
    if (parse_plain(family, table, opts, p->fragment, NULL, NULL, NULL, err, errlen) !=
        VI_OK) {
      return VI_EINVAL;
    }
    int *f = field(o, opts);
    if (f) {
      *f = 1 + (int)(p - o->presets);
    }
    if (o->preset_mode == VI_PRESET_EXCLUSIVE) {
      excl = o;
      excl_p = p;
    }
  }
  if (rc < 0) {
    return VI_EINVAL;
  }
  deferred_int late = {NULL, 0};
  rc = parse_plain(family, table, opts, kv, excl, excl_p, fam && fam->check ? &late : NULL,
                   err, errlen);
  if (rc != VI_OK || !late.o) {
    return rc;
  }
  valid_here(late.o, opts, fam, list, sizeof list);
  if (list[0]) {
    snprintf(err, errlen, "invalid value '%d' for %s of method %s:%s: valid with these options: "
             "%s (in general %s)", late.value, late.o->key, family, kv, list,
             late.o->range_doc);
  } else {
    snprintf(err, errlen, "invalid value '%d' for %s: expected %s", late.value, late.o->key,
             late.o->range_doc);
  }
  return VI_EINVAL;
}

static void describe_value(const vi_opt *o, int v, char *buf, size_t len) {
  if (o->kind == VI_OPT_INT) {
    snprintf(buf, len, "%d", v);
    return;
  }
  if (o->kind == VI_OPT_PRESET) {
    int n = 0;
    while (o->presets[n].name) {
      n++;
    }
    snprintf(buf, len, "%s", v >= 1 && v <= n ? o->presets[v - 1].name : "none");
    return;
  }
  for (int i = 0; o->names[i]; i++) {
    if ((o->values ? o->values[i] : i) == v) {
      snprintf(buf, len, "%s", o->names[i]);
      return;
    }
  }
  snprintf(buf, len, "%d", v);
}

int vi_opts_check(const char *family, const vi_opt *table, const void *opts, char *err,
                  size_t errlen) {
  char range[256], dummy[8];
  for (const vi_opt *o = table; o->key; o++) {
    if (o->offset == VI_OPT_NOFIELD) {
      continue;
    }
    int v = get(o, opts), ok = 0;
    if (o->kind == VI_OPT_INT) {
      ok = (v >= o->lo && v <= o->hi) || (v == o->def && (o->def < o->lo || o->def > o->hi));
    } else if (o->kind == VI_OPT_CHOICE) {
      for (int i = 0; o->names[i]; i++) {
        ok |= (o->values ? o->values[i] : i) == v;
      }
    } else {
      int n = 0;
      while (o->presets[n].name) {
        n++;
      }
      ok = v >= 0 && v <= n;
    }
    if (!ok) {
      vi_opt_describe(o, range, sizeof range, dummy, sizeof dummy);
      snprintf(err, errlen, "%s option %s = %d out of range; valid: %s%s", family, o->key, v,
               range, o->kind == VI_OPT_INT && o->def != v && (o->def < o->lo || o->def > o->hi)
                   ? " (0: derived)" : o->kind == VI_OPT_PRESET ? " (0: none)" : "");
      return VI_EINVAL;
    }
  }
  return VI_OK;
}

/* 1 when the options hold every key=value of a fragment. */
static int holds(const vi_opt *table, const void *opts, const char *fragment) {
  char key[32], val[64], err[8];
  const char *cur = fragment;
  int v = 0;
  while (vi_kv_next(&cur, key, sizeof key, val, sizeof val, err, sizeof err) > 0) {
    const vi_opt *o = find(table, key);
    if (!o || value_of(o, val, &v, err, sizeof err) || get(o, opts) != v) {
      return 0;
    }
  }
  return 1;
}

void vi_opts_format(const char *family, const vi_opt *table, const void *opts, char *buf,
                    size_t len) {
  size_t k = (size_t)snprintf(buf, len, "%s:", family);
  const vi_opt_preset *named = NULL;
  char v[64];
  int first = 1;
  for (const vi_opt *o = table; o->key && k < len; o++) {
    if (o->kind == VI_OPT_PRESET) {
      if (o->preset_mode != VI_PRESET_IN_SPEC) {
        continue;
      }
      for (const vi_opt_preset *p = o->presets; p->name && !named; p++) {
        named = holds(table, opts, p->fragment) ? p : NULL;
      }
      if (!named) {
        continue;
      }
      snprintf(v, sizeof v, "%s", named->name);
    } else if (named && preset_sets(named, o->key)) {
      continue;
    } else {
      describe_value(o, get(o, opts), v, sizeof v);
    }
    k += (size_t)snprintf(buf + k, len - k, "%s%s=%s", first ? "" : ",", o->key, v);
    first = 0;
  }
  if (first && k < len) {
    buf[k - 1] = '\0'; /* a family without options: "NAME", not "NAME:" */
  }
}

void vi_opt_describe(const vi_opt *o, char *range, size_t rlen, char *def, size_t dlen) {
  if (o->range_doc) {
    snprintf(range, rlen, "%s", o->range_doc);
  } else if (o->kind == VI_OPT_INT) {
    snprintf(range, rlen, "%d..%d", o->lo, o->hi);
  } else if (o->kind == VI_OPT_CHOICE) {
    size_t k = 0;
    range[0] = '\0';
    for (int i = 0; o->names[i] && k < rlen; i++) {
      k += (size_t)snprintf(range + k, rlen - k, "%s%s", i ? "|" : "", o->names[i]);
    }
  } else {
    join_presets(o->presets, "|", range, rlen);
  }
  if (o->def_doc) {
    snprintf(def, dlen, "%s", o->def_doc);
  } else {
    describe_value(o, o->kind == VI_OPT_PRESET ? 0 : o->def, def, dlen);
  }
}

int vi_opts_apply_presets(const char *family, const vi_opt *table, void *opts, char *err,
                          size_t errlen) {
  char key[32], val[64], have[64];
  for (const vi_opt *o = table; o->key; o++) {
    int *f = o->kind == VI_OPT_PRESET ? field(o, opts) : NULL;
    int n = 0;
    while (f && o->presets[n].name) {
      n++;
    }
    if (!f || *f < 1 || *f > n) {
      continue;
    }
    const vi_opt_preset *p = &o->presets[*f - 1];
    const char *cur = p->fragment;
    while (vi_kv_next(&cur, key, sizeof key, val, sizeof val, err, errlen) > 0) {
      const vi_opt *k = find(table, key);
      int v = 0;
      if (!k || value_of(k, val, &v, err, errlen)) {
        return VI_EINVAL; /* a bad table */
      }
      int *kf = field(k, opts);
      if (*kf != 0 && *kf != v) {
        describe_value(k, *kf, have, sizeof have);
        snprintf(err, errlen, "%s option %s = %s conflicts with %s=%s (%s)", family, key, have,
                 o->key, p->name, p->fragment);
        return VI_EINVAL;
      }
      *kf = v;
    }
  }
  return VI_OK;
}
