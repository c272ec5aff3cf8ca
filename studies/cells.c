/* cells.c: the cell store of resumable studies (cells.h). */
#include "cells.h"
#include "machine.h"
#include "report.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define CELLS_SCHEMA "vistudy-cells/1"

void vi_code_id(char *buf, size_t len) {
  uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a 64 */
  FILE *f = fopen("/proc/self/exe", "rb");
  unsigned char chunk[1 << 16];
  size_t k;
  int ok = f != NULL;
  while (f && (k = fread(chunk, 1, sizeof chunk, f)) > 0) {
    for (size_t i = 0; i < k; i++) {
      h = (h ^ chunk[i]) * 0x100000001b3ull;
    }
  }
  if (f) {
    ok = !ferror(f);
    fclose(f);
  }
  if (ok) {
    snprintf(buf, len, "%s exe:%016llx", vi_version(), (unsigned long long)h);
  } else {
    snprintf(buf, len, "%s", vi_version());
  }
}

/* Why an earlier file does not belong to this run, or NULL if it does. */
static const char *mismatch(json_t *root, const char *id, const char *config,
                            const char *code) {
  const char *schema = NULL, *study = NULL, *cfg = NULL, *cd = NULL;
  json_t *cells = NULL;
  json_error_t je;
  if (json_unpack_ex(root, &je, 0, "{s:s, s:s, s:s, s:s, s:o}", "schema", &schema,
                     "study", &study, "config", &cfg, "code", &cd, "cells",
                     &cells) != 0 ||
      !json_is_object(cells)) {
    return "it is not a cell store of this program (unreadable header)";
  }
  if (strcmp(schema, CELLS_SCHEMA) != 0) {
    return "it was written with another schema";
  }
  if (strcmp(study, id) != 0) {
    return "it belongs to another study";
  }
  if (strcmp(cfg, config) != 0) {
    return "it was computed for another configuration";
  }
  if (strcmp(cd, code) != 0) {
    return "it was computed by another build of vistudy";
  }
  return NULL;
}

int vi_cells_open(vi_cells *cs, const char *dir, const char *id, const char *config,
                  int fresh, char *note, size_t notelen, char *err, size_t errlen) {
  memset(cs, 0, sizeof *cs);
  note[0] = '\0';
  snprintf(cs->path, sizeof cs->path, "%s/%s.partial.json", dir, id);
  char code[160];
  vi_code_id(code, sizeof code);
  if (!fresh && access(cs->path, F_OK) == 0) {
    json_error_t je;
    json_t *old = json_load_file(cs->path, 0, &je);
    char jerr[200];
    snprintf(jerr, sizeof jerr, "it cannot be read as JSON (%s)", je.text);
    const char *why = old ? mismatch(old, id, config, code) : jerr;
    if (why) {
      snprintf(note, notelen, "not resuming from %s: %s; every cell is recomputed",
               cs->path, why);
      json_decref(old);
    } else {
      cs->root = old;
      cs->loaded = (int)json_object_size(json_object_get(old, "cells"));
      snprintf(note, notelen, "resuming from %s (%d stored cell%s; --fresh starts over)",
               cs->path, cs->loaded, cs->loaded == 1 ? "" : "s");
      return 0;
    }
  }
  cs->root = json_pack("{s:s, s:s, s:s, s:s, s:{}}", "schema", CELLS_SCHEMA, "study", id,
                       "config", config, "code", code, "cells");
  if (!cs->root) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  return 0;
}

json_t *vi_cells_get(const vi_cells *cs, const char *key) {
  return json_object_get(json_object_get(cs->root, "cells"), key);
}

int vi_cells_put(vi_cells *cs, const char *key, json_t *value, char *err, size_t errlen) {
  if (!value ||
      json_object_set_new(json_object_get(cs->root, "cells"), key, value) != 0) {
    snprintf(err, errlen, "out of memory storing cell %s", key);
    return -1;
  }
  return vi_json_write(cs->root, cs->path, err, errlen);
}

void vi_cells_finish(vi_cells *cs) {
  unlink(cs->path);
}

void vi_cells_close(vi_cells *cs) {
  json_decref(cs->root);
  cs->root = NULL;
}

static json_t *num_or_null(double v) {
  return isfinite(v) ? json_real(v) : json_null();
}

json_t *vi_cells_fit_json(double order, const char *label, double residual) {
  return json_pack("{s:o, s:s, s:o}", "order", num_or_null(order), "label", label,
                   "residual", num_or_null(residual));
}

int vi_cells_fit_read(json_t *v, double *order, char *label, size_t labellen,
                      double *residual, char *why, size_t whylen) {
  json_t *o = NULL, *r = NULL;
  const char *lab = NULL;
  json_error_t je;
  if (json_unpack_ex(v, &je, JSON_STRICT, "{s:o, s:s, s:o}", "order", &o, "label", &lab,
                     "residual", &r) != 0) {
    snprintf(why, whylen, "%s", je.text);
    return -1;
  }
  if (!(json_is_number(o) || json_is_null(o)) ||
      !(json_is_number(r) || json_is_null(r))) {
    snprintf(why, whylen, "order and residual must be numbers or null");
    return -1;
  }
  *order = json_is_number(o) ? json_number_value(o) : NAN;
  *residual = json_is_number(r) ? json_number_value(r) : NAN;
  char expect[32];
  if (isfinite(*order)) {
    snprintf(expect, sizeof expect, "%.2f", *order);
    if (strcmp(lab, expect) != 0) {
      snprintf(why, whylen, "label '%s' does not match the order %s", lab, expect);
      return -1;
    }
  } else if (strcmp(lab, "d") != 0 && strcmp(lab, "plateau") != 0 &&
             strcmp(lab, "unresolved") != 0 &&
             strcmp(lab, "-") != 0) {
    snprintf(why, whylen, "label '%.20s' without an order", lab);
    return -1;
  }
  if (strlen(lab) >= labellen) {
    snprintf(why, whylen, "label too long");
    return -1;
  }
  snprintf(label, labellen, "%s", lab);
  return 0;
}
