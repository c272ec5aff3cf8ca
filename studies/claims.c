/* claims.c: the claims record (claims.h). */
#include "claims.h"

#include <stdarg.h>
#include <string.h>

void vi_claim_set(vi_claim *c, int holds, const char *text, const char *fmt, ...) {
  snprintf(c->text, sizeof c->text, "%s", text);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(c->measured, sizeof c->measured, fmt, ap);
  va_end(ap);
  c->holds = holds != 0;
}

void vi_claim_cat(char *buf, size_t len, const char *fmt, ...) {
  const size_t off = strlen(buf);
  if (off + 1 >= len) {
    return;
  }
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf + off, len - off, fmt, ap);
  va_end(ap);
}

int vi_claims_held(const vi_claim *cl, int n) {
  int held = 0;
  for (int i = 0; i < n; i++) {
    held += cl[i].holds;
  }
  return held;
}

void vi_claims_json(json_t *j, const vi_claim *cl, int n) {
  json_t *ca = json_array();
  for (int i = 0; i < n; i++) {
    json_t *c = json_object();
    json_object_set_new(c, "claim", json_string(cl[i].text));
    json_object_set_new(c, "measured", json_string(cl[i].measured));
    json_object_set_new(c, "holds", json_boolean(cl[i].holds));
    json_array_append_new(ca, c);
  }
  json_object_set_new(j, "claims", ca);
  json_object_set_new(j, "claims_held", json_integer(vi_claims_held(cl, n)));
  json_object_set_new(j, "claims_total", json_integer(n));
}

void vi_md_cell(const char *s, char *out, size_t len) {
  size_t k = 0;
  for (; *s && k + 2 < len; s++) {
    if (*s == '|') {
      out[k++] = '\\';
    }
    out[k++] = *s == '\n' ? ' ' : *s;
  }
  out[k] = 0;
}

void vi_claims_md(FILE *f, const char *heading, const vi_claim *cl, int n) {
  fprintf(f, "## %s\n\n%d/%d hold.\n\n| claim | measured | holds |\n|---|---|---|\n", heading,
          vi_claims_held(cl, n), n);
  for (int i = 0; i < n; i++) {
    char a[1100], b[2100];
    vi_md_cell(cl[i].text, a, sizeof a);
    vi_md_cell(cl[i].measured, b, sizeof b);
    fprintf(f, "| %s | %s | %s |\n", a, b, cl[i].holds ? "yes" : "**no**");
  }
  fputc('\n', f);
}

void vi_claims_print(FILE *f, const char *id, const char *whose, const vi_claim *cl, int n) {
  fprintf(f, "%s: %d/%d claims%s%s hold\n", id, vi_claims_held(cl, n), n, whose ? " " : "",
          whose ? whose : "");
  for (int i = 0; i < n; i++) {
    if (!cl[i].holds) {
      fprintf(f, "  does not hold: %s (%s)\n", cl[i].text, cl[i].measured);
    }
  }
}

int vi_claims_status(const vi_claim *cl, int n, int strict) {
  return strict && vi_claims_held(cl, n) < n ? 1 : 0;
}
