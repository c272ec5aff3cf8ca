/* claims.h: the claims record (design.md "Studies are data"). A study
 * without published numbers checks what the paper's text says instead:
 * each claim is the text, what was measured and whether it holds, decided
 * by a predicate on computed values only. One record format for every
 * figure and sweep: the same JSON block, Markdown table, summary line and
 * --strict rule (a claim that does not hold is exit 1 under --strict). */
#ifndef VI_CLAIMS_H
#define VI_CLAIMS_H

#include <jansson.h>
#include <stdio.h>

typedef struct vi_claim {
  char text[512];      /* what the paper says */
  char measured[1024]; /* what we measured */
  int holds;
} vi_claim;

/* Fill a claim: the text, the measured value by printf format. */
void vi_claim_set(vi_claim *c, int holds, const char *text, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Number of claims that hold. */
int vi_claims_held(const vi_claim *cl, int n);
/* Append printf-formatted text to buf (a claim's measured text being
 * built), truncating at len. */
void vi_claim_cat(char *buf, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Into j: "claims": [{claim, measured, holds}], "claims_held",
 * "claims_total". */
void vi_claims_json(json_t *j, const vi_claim *cl, int n);
/* "## HEADING\n\nH/N hold.\n\n| claim | measured | holds |" ... */
void vi_claims_md(FILE *f, const char *heading, const vi_claim *cl, int n);
/* "ID: H/N claims WHOSE hold" (whose: "of the text" for a paper's claims,
 * NULL for none) and one line per claim that does not. */
void vi_claims_print(FILE *f, const char *id, const char *whose, const vi_claim *cl, int n);
/* The exit status the claims add: 1 under strict when one does not hold. */
int vi_claims_status(const vi_claim *cl, int n, int strict);

/* A string made safe for one Markdown table cell ('|' escaped, line breaks
 * as blanks), into out. */
void vi_md_cell(const char *s, char *out, size_t len);

#endif
