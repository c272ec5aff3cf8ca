/* spec.h: parsing helpers for the text the user types: method specs
 * NAME[:key=value,...], system overrides name=v1,v2, integer ranges and
 * named choices. Non-templated; every failure writes a message that names
 * the problem and the valid choices. */
#ifndef VI_SPEC_H
#define VI_SPEC_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Split the next "key=value" item off *cursor (items separated by ','),
 * copying key and value (bounded). Returns 1 when an item was read, 0 at the
 * end, -1 on a malformed item (message in err). */
int vi_kv_next(const char **cursor, char *key, size_t klen, char *val,
               size_t vlen, char *err, size_t errlen);

/* 0 when every key of the "key=value,..." list kv appears once; -1 with a
 * message naming the repeated key (or a malformed item) otherwise. */
int vi_kv_unique(const char *kv, char *err, size_t errlen);

/* Parse a decimal integer in [lo, hi] for key; -1 with a message on error. */
int vi_parse_int(const char *key, const char *val, int lo, int hi, int *out,
                 char *err, size_t errlen);

/* Index of val in the NULL-terminated choices; -1 with a message listing
 * the choices on error. */
int vi_parse_choice(const char *key, const char *val,
                    const char *const *choices, int *out, char *err,
                    size_t errlen);

/* Split "NAME:rest" into name (bounded) and a pointer to rest ("" if none). */
const char *vi_spec_split(const char *spec, char *name, size_t nlen);

#ifdef __cplusplus
}
#endif
#endif
