/* spec.c: parsing helpers for method specs and overrides (spec.h). */
#include "spec.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int vi_kv_next(const char **cursor, char *key, size_t klen, char *val,
               size_t vlen, char *err, size_t errlen) {
  const char *c = *cursor;
  while (*c == ',') {
    c++;
  }
  if (*c == '\0') {
    *cursor = c;
    return 0;
  }
  const char *end = strchr(c, ',');
  if (!end) {
    end = c + strlen(c);
  }
  const char *eq = memchr(c, '=', (size_t)(end - c));
  if (!eq || eq == c || eq + 1 == end) {
    snprintf(err, errlen, "malformed option '%.*s': expected key=value",
             (int)(end - c), c);
    return -1;
  }
  size_t kl = (size_t)(eq - c), vl = (size_t)(end - eq - 1);
  if (kl >= klen || vl >= vlen) {
    snprintf(err, errlen, "option '%.*s' is too long", (int)(end - c), c);
    return -1;
  }
  memcpy(key, c, kl);
  key[kl] = '\0';
  memcpy(val, eq + 1, vl);
  val[vl] = '\0';
  *cursor = end;
  return 1;
}

int vi_kv_unique(const char *kv, char *err, size_t errlen) {
  char key[64], val[256], other[64], oval[256];
  const char *cur = kv;
  int rc;
  while ((rc = vi_kv_next(&cur, key, sizeof key, val, sizeof val, err, errlen)) > 0) {
    const char *later = cur;
    int r2;
    while ((r2 = vi_kv_next(&later, other, sizeof other, oval, sizeof oval, err, errlen)) > 0) {
      if (strcmp(key, other) == 0) {
        snprintf(err, errlen, "key '%s' given twice ('%s=%s' and '%s=%s'); give each key once",
                 key, key, val, other, oval);
        return -1;
      }
    }
    if (r2 < 0) {
      return -1;
    }
  }
  return rc;
}

int vi_parse_int(const char *key, const char *val, int lo, int hi, int *out,
                 char *err, size_t errlen) {
  char *end = NULL;
  errno = 0;
  long v = strtol(val, &end, 10);
  if (errno || end == val || *end != '\0' || v < lo || v > hi) {
    snprintf(err, errlen, "invalid value '%s' for %s: expected an integer in %d..%d",
             val, key, lo, hi);
    return -1;
  }
  *out = (int)v;
  return 0;
}

int vi_parse_choice(const char *key, const char *val,
                    const char *const *choices, int *out, char *err,
                    size_t errlen) {
  for (int i = 0; choices[i]; i++) {
    if (strcmp(val, choices[i]) == 0) {
      *out = i;
      return 0;
    }
  }
  int k = snprintf(err, errlen, "invalid value '%s' for %s: valid: ", val, key);
  for (int i = 0; choices[i] && k > 0 && (size_t)k < errlen; i++) {
    k += snprintf(err + k, errlen - (size_t)k, "%s%s", i ? "|" : "", choices[i]);
  }
  return -1;
}

const char *vi_spec_split(const char *spec, char *name, size_t nlen) {
  const char *colon = strchr(spec, ':');
  size_t l = colon ? (size_t)(colon - spec) : strlen(spec);
  if (l >= nlen) {
    l = nlen - 1;
  }
  memcpy(name, spec, l);
  name[l] = '\0';
  return colon ? colon + 1 : "";
}
