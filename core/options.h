/* options.h: the options of a method family as data (design.md "The
 * method interface"): one table generates the parsing, the canonical spec,
 * the range checks of the typed constructor, `vistudy list methods` and
 * every message naming the valid choices (core/options.c) */
#ifndef VI_OPTIONS_H
#define VI_OPTIONS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The options of a method family as data (design.md, "The method
 * interface"): one table generates the parsing of NAME:key=value,..., the
 * canonical spec, the range checks of the typed constructor, `vistudy list
 * methods` and every message naming the valid choices (core/options.c). */
typedef enum vi_opt_kind {
  VI_OPT_INT = 0,    /* an integer in lo..hi */
  VI_OPT_CHOICE = 1, /* one of names[], stored as values[i] */
  VI_OPT_PRESET = 2  /* a name that stands for other keys (presets[]) */
} vi_opt_kind;

/* A named preset: a spec fragment of other keys, e.g. galerkin's
 * scheme=shake = "s=1,w=1,quadL=lobatto,r=2", man2020's alg=LGG =
 * "ctrl=lobatto,quadU=gauss,quadC=gauss". */
typedef struct vi_opt_preset {
  const char *name;
  const char *fragment;
  const char *derived; /* keys the family's check derives from it, as text
                          ("w=s-1, r=s"), or NULL */
} vi_opt_preset;

#define VI_OPT_NOFIELD ((size_t)-1)
typedef struct vi_opt {
  const char *key;
  int kind;                      /* vi_opt_kind */
  size_t offset;                 /* offsetof the int field; VI_OPT_NOFIELD: none
                                    (a preset that is not stored) */
  int lo, hi;                    /* VI_OPT_INT: the range */
  const char *const *names;      /* VI_OPT_CHOICE: NULL-terminated value names */
  const int *values;             /* VI_OPT_CHOICE: stored value of each name */
  const vi_opt_preset *presets;  /* VI_OPT_PRESET: terminated by name == NULL;
                                    stored as 1 + index (0: none) */
  int def;                       /* default stored value; for VI_OPT_INT a 0
                                    outside lo..hi means "derived by check" */
  int preset_mode;               /* VI_OPT_PRESET: VI_PRESET_EXCLUSIVE (a key it
                                    sets may not be given too) or
                                    VI_PRESET_IN_SPEC (later keys override it, and
                                    the canonical spec names it) */
  const char *range_doc;         /* NULL: generated ("1..12", "gauss|lobatto") */
  const char *def_doc;           /* NULL: generated from def */
  const char *doc;
} vi_opt;
enum { VI_PRESET_EXCLUSIVE = 0, VI_PRESET_IN_SPEC = 1 };

/* Defaults of every option into opts. */
void vi_opts_defaults(const vi_opt *table, void *opts);
/* What vi_opts_parse may ask of the family: its check (defaults derived,
 * combinations refused; 0 when the options are valid) and the size of its
 * options block. */
typedef struct vi_opts_family {
  int (*check)(void *opts, char *err, size_t errlen);
  size_t opts_size;
} vi_opts_family;

/* Parse "key=value,..." (after the defaults) for family; VI_EINVAL with a
 * message naming the key and the valid choices, or the empty element. With
 * fam (may be NULL), an integer out of range for an option whose range
 * depends on the others (range_doc) is reported with the values fam's
 * check accepts with the options given. */
int vi_opts_parse(const char *family, const vi_opt *table, void *opts, const char *kv,
                  const vi_opts_family *fam, char *err, size_t errlen);
/* The ranges of options filled directly (typed constructor); VI_EINVAL with
 * the option, its value and its range. */
int vi_opts_check(const char *family, const vi_opt *table, const void *opts, char *err,
                  size_t errlen);
/* Typed construction: a stored preset (e.g. vi_galerkin_opts.scheme) sets
 * its keys where the options hold 0 (unset); a nonzero value that differs is
 * refused. A no-op after vi_opts_parse. */
int vi_opts_apply_presets(const char *family, const vi_opt *table, void *opts, char *err,
                          size_t errlen);
/* The canonical spec "family:key=value,...". */
void vi_opts_format(const char *family, const vi_opt *table, const void *opts, char *buf,
                    size_t len);
/* The valid values and the default of option o as text (list methods). */
void vi_opt_describe(const vi_opt *o, char *range, size_t rlen, char *def, size_t dlen);

#ifdef __cplusplus
}
#endif
#endif
