/* cmd_list.c: `vistudy list [systems|methods|studies] [--markdown]`: the
 * three registries (systems/systems.def, core/methods/methods.def,
 * studies/studies.def) as text for the terminal, or as Markdown. The
 * Markdown is what docs/systems.md, docs/methods.md and
 * docs/studies-list.md hold: tools/run regenerates them and
 * tests/test_docs.py fails when they differ from this output, so the
 * reference of the systems, families and studies is never written by hand
 * and cannot go stale. Everything printed comes from the registries. */
#include "cli.h"
#include "reproduce.h"

#include <stdio.h>
#include <string.h>

/* ---- text ------------------------------------------------------------------ */

/* What an instance of the defaults says beyond the type's tables: its
 * dimension n (info->n, or the one the default parameters set,
 * vi_system_type.dim; -1 when they are refused) and the name of the steady
 * motion its data are (vi_obs_ops.steady; NULL when they are not a
 * relative equilibrium). One instance serves both. */
typedef struct defaults_info {
  int n;
  const char *steady;
} defaults_info;

static defaults_info defaults_of(const vi_system_type_d *t) {
  defaults_info d = {-1, NULL};
  vi_system_d *sys = NULL;
  char err[256] = "";
  if (vi_system_alloc_d(t, 0, NULL, &sys, err, sizeof err) == VI_OK) {
    d.n = sys->n;
    if (vi_system_steady_d(sys, &d.steady) != VI_OK) {
      d.steady = NULL;
    }
  }
  vi_system_free_d(sys);
  return d;
}

/* The momentum maps of a system after its energy: the first integrals
 * (momenta_noether: conserved exactly by a family that keeps the symmetry;
 * momenta_conserved: other first integrals, e.g. cvt's E_d, E_p) as
 * invariants, the others apart, since the measures follow them as values
 * (core/measures.h; pendulum-3d's Jx, Jy vary). */
static void list_maps(const vi_system_info *in, int markdown) {
  const char *q = markdown ? "`" : "";
  const unsigned kept = in->momenta_noether | in->momenta_conserved;
  for (int k = 0; k < in->n_momenta; k++) {
    if (kept & (1u << k)) {
      printf(", %s%s%s%s", q, in->momentum_names[k], q,
             in->momenta_conserved & (1u << k) ? " (not Noether)" : "");
    }
  }
  for (int k = 0, first = 1; k < in->n_momenta; k++) {
    if (!(kept & (1u << k))) {
      printf("%s%s%s%s", first ? "; momentum maps conserved for special data at most: " : ", ",
             q, in->momentum_names[k], q);
      first = 0;
    }
  }
}

/* n as text: "3", or for a dimension set by a parameter "2 m_c + 1 (7 with
 * the defaults, at most 15)". */
static void n_text(const vi_system_type_d *t, const defaults_info *d, char *buf, size_t len) {
  const vi_system_info *in = t->info;
  if (in->dim_doc != NULL) {
    snprintf(buf, len, "%s (%d with the defaults, at most %d)", in->dim_doc, d->n, in->n);
  } else {
    snprintf(buf, len, "%d", in->n);
  }
}

/* A parameter's values as text: "3 values", or "n values (one per
 * coordinate)". */
static void count_text(const vi_param *p, char *buf, size_t len) {
  if (p->domain == VI_PARAM_COORDS) {
    snprintf(buf, len, "n");
  } else {
    snprintf(buf, len, "%d", p->count);
  }
}

static void list_systems(void) {
  printf("systems (override any parameter with --set name=v1,v2,...):\n");
  for (int i = 0; vi_system_types_d[i]; i++) {
    const vi_system_info *in = vi_system_types_d[i]->info;
    char nh[32] = "", nq[64] = "";
    if (in->m_nh > 0) {
      snprintf(nh, sizeof nh, ", m_nh = %d", in->m_nh);
    }
    if (in->nq > in->n) {
      snprintf(nq, sizeof nq, " (stored in %d reals)", in->nq);
    }
    char nt[96];
    const defaults_info def = defaults_of(vi_system_types_d[i]);
    n_text(vi_system_types_d[i], &def, nt, sizeof nt);
    printf("\n%s  (%s form, n = %s%s, m = %d%s; %s)%s\n  %s\n", in->name,
           vi_type_form_d(vi_system_types_d[i]), nt, nq, in->m, nh, in->cite,
           in->test_only ? " [test-only: built by tools/test]" : "", in->summary);
    printf("  invariants: %s", vi_type_energy_conserved_d(vi_system_types_d[i])
                                   ? "energy"
                                   : "(not the energy: an affine constraint does work)");
    list_maps(in, 0);
    printf("%s%s\n",
           vi_type_has_exact_d(vi_system_types_d[i]) ? "; exact solution available" : "",
           vi_type_config_mass_d(vi_system_types_d[i]) ? "; mass matrix depends on q"
                                                       : "");
    if (def.steady != NULL) {
      printf("  initial data: a relative equilibrium (%s)\n", def.steady);
    }
    for (const vi_param *p = in->params; p->name; p++) {
      char dom[64] = "";
      if (p->domain == VI_PARAM_ROTATION) {
        snprintf(dom, sizeof dom, "; %s", vi_param_domain_text(p->domain));
      } else if (p->domain != VI_PARAM_ANY && p->domain != VI_PARAM_COORDS) {
        snprintf(dom, sizeof dom, "; %s %s", p->count > 1 ? "each" : "must be",
                 vi_param_domain_text(p->domain));
      }
      if (p->domain == VI_PARAM_COORDS) {
        printf("  %-10s %s (n values, one per coordinate; default %s)\n", p->name, p->doc,
               p->defaults[0] ? p->defaults : "derived from the other parameters");
      } else if (p->count > 1) {
        printf("  %-10s %s (%d values; default %s%s)\n", p->name, p->doc, p->count,
               p->defaults, dom);
      } else {
        printf("  %-10s %s (default %s%s)\n", p->name, p->doc, p->defaults, dom);
      }
    }
    for (const vi_data_set *d = in->data; d != NULL && d->name; d++) {
      printf("  data set %s (--set data=%s): %s; sets %s\n", d->name, d->name, d->doc,
             d->sets);
    }
  }
}

static void list_methods(void) {
  printf("methods (spec NAME[:key=value,...]):\n");
  for (int i = 0; vi_method_types_d[i]; i++) {
    const vi_method_type_d *mt = vi_method_types_d[i];
    printf("\n%s  (%s)%s\n  %s\n", mt->name, mt->cite,
           mt->test_only ? " [test-only: built by tools/test]" : "", mt->summary);
    for (const vi_opt *k = mt->options; k->key; k++) {
      char range[256], def[64];
      vi_opt_describe(k, range, sizeof range, def, sizeof def);
      printf("  %-8s %s\n           values: %s; default: %s\n", k->key, k->doc, range,
             def);
    }
  }
}

/* ---- Markdown --------------------------------------------------------------- */

/* Text in a table cell: '|' would end the cell. */
static void md_cell(const char *s) {
  for (; *s; s++) {
    if (*s == '|') {
      putchar('\\');
    }
    putchar(*s);
  }
}

static void md_generated(const char *what) {
  printf("<!-- Generated by `vistudy list %s --markdown` (cli/cmd_list.c); do not edit:\n"
         "     tools/run regenerates it and tests/test_docs.py checks it. -->\n",
         what);
}

/* The invariants of a system as list systems states them. */
static void md_invariants(const vi_system_type_d *t) {
  const vi_system_info *in = t->info;
  printf("%s", vi_type_energy_conserved_d(t) ? "energy"
                                             : "not the energy (an affine "
                                               "constraint does work)");
  list_maps(in, 1);
}

/* The registry name with hyphens is the file name with underscores
 * (systems/systems.def: VI_SYSTEM(id) is systems/ID_tmpl.c). */
static void md_system_file(const char *name) {
  printf("`systems/");
  for (const char *c = name; *c; c++) {
    putchar(*c == '-' ? '_' : *c);
  }
  printf("_tmpl.c`");
}

static void md_systems(void) {
  md_generated("systems");
  printf(
      "# Systems\n\n"
      "Every registered system (`systems/systems.def`), in the order of the registry. "
      "Override a parameter with `--set name=v1,v2,...`; `vistudy check SYSTEM` verifies "
      "its derivatives. How each system is modelled and checked: "
      "[system-notes.md](system-notes.md); how to add one: "
      "[extending.md](extending.md#adding-a-system).\n\n");
  printf("| system | form | n | m | m_nh | invariants | exact solution | from |\n"
         "|---|---|---:|---:|---:|---|---|---|\n");
  /* The test-only systems (tests/systems/) are no part of the reference, as
   * the test-only families are not (md_methods). */
  for (int i = 0; vi_system_types_d[i]; i++) {
    const vi_system_type_d *t = vi_system_types_d[i];
    const vi_system_info *in = t->info;
    if (in->test_only) {
      continue;
    }
    char nt[96];
    const defaults_info def = defaults_of(t);
    n_text(t, &def, nt, sizeof nt);
    printf("| [`%s`](#%s) | %s | %s | %d | %d | ", in->name, in->name, vi_type_form_d(t),
           nt, in->m, in->m_nh);
    md_invariants(t);
    printf(" | %s | ", vi_type_has_exact_d(t) ? "yes" : "no");
    md_cell(in->cite);
    printf(" |\n");
  }
  for (int i = 0; vi_system_types_d[i]; i++) {
    const vi_system_type_d *t = vi_system_types_d[i];
    const vi_system_info *in = t->info;
    if (in->test_only) {
      continue;
    }
    printf("\n## %s\n\n%s.\n\n", in->name, in->summary);
    char nt[96];
    const defaults_info def = defaults_of(t);
    n_text(t, &def, nt, sizeof nt);
    printf("- form: %s; n = %s", vi_type_form_d(t), nt);
    if (in->nq > in->n) {
      printf(", stored in nq = %d reals", in->nq);
    }
    printf("; m = %d holonomic, m_nh = %d nonholonomic constraints\n", in->m, in->m_nh);
    printf("- from: %s\n- invariants: ", in->cite);
    md_invariants(t);
    printf("\n");
    if (vi_type_has_exact_d(t)) {
      printf("- exact solution available (the reference of order studies)\n");
    }
    if (def.steady != NULL) {
      printf("- initial data: a relative equilibrium (%s) with the defaults; a scheme's "
             "errors may converge there faster than its declared order\n",
             def.steady);
    }
    if (vi_type_config_mass_d(t)) {
      printf("- the mass matrix depends on q\n");
    }
    if (in->alpha_affine) {
      printf("- alpha(q) is affine (`alpha_affine`, verified by `vistudy check`)\n");
    }
    printf("- file: ");
    md_system_file(in->name);
    printf("\n\n| parameter | values | default | meaning |\n|---|---:|---|---|\n");
    for (const vi_param *p = in->params; p->name; p++) {
      char ct[16];
      count_text(p, ct, sizeof ct);
      if (p->defaults[0]) {
        printf("| `%s` | %s | `%s` | ", p->name, ct, p->defaults);
      } else {
        printf("| `%s` | %s | derived | ", p->name, ct);
      }
      md_cell(p->doc);
      if (p->domain == VI_PARAM_COORDS) {
        printf("; one per coordinate");
      } else if (p->domain == VI_PARAM_ROTATION) {
        printf("; %s", vi_param_domain_text(p->domain));
      } else if (p->domain != VI_PARAM_ANY) {
        printf("; %s %s", p->count > 1 ? "each" : "must be",
               vi_param_domain_text(p->domain));
      }
      printf(" |\n");
    }
    if (in->data != NULL && in->data->name != NULL) {
      printf("\nNamed data sets (`--set data=NAME`, then any other setting over it):\n\n"
             "| data set | sets | what |\n|---|---|---|\n");
      for (const vi_data_set *d = in->data; d->name; d++) {
        printf("| `%s` | `%s` | ", d->name, d->sets);
        md_cell(d->doc);
        printf(" |\n");
      }
    }
  }
}

static void md_methods(void) {
  md_generated("methods");
  printf(
      "# Method families\n\n"
      "Every registered family (`core/methods/methods.def`). A method is given as a spec "
      "`NAME[:key=value,...]`; the canonical spec (every key) is written into every "
      "result. What each family does where its paper leaves a choice: "
      "[family-notes.md](family-notes.md); how to add one: "
      "[extending.md](extending.md#adding-a-method-family).\n\n");
  printf("| family | from | what |\n|---|---|---|\n");
  /* The test-only families (tests/families/) are no part of the reference:
   * the page is the same from the release and the test configuration. */
  for (int i = 0; vi_method_types_d[i]; i++) {
    const vi_method_type_d *mt = vi_method_types_d[i];
    if (mt->test_only) {
      continue;
    }
    printf("| [`%s`](#%s) | ", mt->name, mt->name);
    md_cell(mt->cite);
    printf(" | ");
    md_cell(mt->summary);
    printf(" |\n");
  }
  for (int i = 0; vi_method_types_d[i]; i++) {
    const vi_method_type_d *mt = vi_method_types_d[i];
    if (mt->test_only) {
      continue;
    }
    printf("\n## %s\n\n%s.\n\n- from: %s\n", mt->name, mt->summary, mt->cite);
    /* The canonical spec of the defaults, as a run would write it. */
    _Alignas(16) char opts[256];
    char spec[512] = "", err[256];
    if (mt->opts_size <= sizeof opts) {
      vi_opts_defaults(mt->options, opts);
      if (mt->check == NULL || mt->check(opts, err, sizeof err) == 0) {
        vi_opts_format(mt->name, mt->options, opts, spec, sizeof spec);
      }
    }
    if (spec[0]) {
      printf("- `%s` is `%s`\n", mt->name, spec);
    }
    printf("- intervals solved ahead (look-ahead): %d%s\n- systems it accepts:",
           mt->lookahead_of && mt->opts_size <= sizeof opts ? mt->lookahead_of(opts)
                                                            : mt->lookahead,
           mt->lookahead_of ? " (with the defaults; it depends on the options)" : "");
    int any = 0;
    for (int j = 0; vi_system_types_d[j]; j++) {
      /* The family's own refusals (accepts) with the default options too:
       * nhprk's tables admit every nonholonomic system, its accepts
       * refuses the holonomic ones. */
      if (!vi_system_types_d[j]->info->test_only &&
          (spec[0] ? vi_method_accepts_d(mt, opts, vi_system_types_d[j], NULL, 0) == VI_OK
                   : vi_method_compatible_d(mt, vi_system_types_d[j], NULL, 0))) {
        printf("%s `%s`", any ? "," : "", vi_system_types_d[j]->info->name);
        any = 1;
      }
    }
    printf("%s%s\n- examples (their declared orders are checked by the conformance suite):",
           any ? "" : " none registered",
           any && mt->accepts_data ? " (with data it accepts: it also refuses some data)" : "");
    for (int k = 0; mt->examples && mt->examples[k]; k++) {
      printf("%s `%s`", k ? "," : "", mt->examples[k]);
    }
    if (!mt->options[0].key) {
      printf("\n\nNo options.\n");
      continue;
    }
    printf("\n\n| key | values | default | meaning |\n|---|---|---|---|\n");
    for (const vi_opt *k = mt->options; k->key; k++) {
      char range[256], def[64];
      vi_opt_describe(k, range, sizeof range, def, sizeof def);
      printf("| `%s` | ", k->key);
      md_cell(range);
      printf(" | ");
      md_cell(def);
      printf(" | ");
      md_cell(k->doc);
      printf(" |\n");
    }
  }
}

/* The studies with their runner and source file, from the registry itself
 * (the X-macro carries both; the program's copy of the entries stays in
 * studies/reproduce.c). */
typedef struct md_study {
  const char *id, *source, *kind, *title, *published;
  int tabular, timed;
} md_study;

static const md_study md_study_list[] = {
#define STUDY(id, source, kind, spec, title, outputs, published, tabular, timed)         \
  {id, #source, #kind, title, published, tabular, timed},
#include "studies.def"
#undef STUDY
};

static const char *md_kind(const char *kind) {
  return strcmp(kind, "TABLE") == 0        ? "table"
         : strcmp(kind, "FIGURE") == 0     ? "figure"
         : strcmp(kind, "FIGURE_SET") == 0 ? "figure set"
         : strcmp(kind, "SWEEP") == 0      ? "sweep"
                                           : "program";
}

static void md_studies(void) {
  md_generated("studies");
  printf(
      "# Studies\n\n"
      "Every study of `vistudy reproduce` (`studies/studies.def`), in the order of "
      "`--list` and `--all`. Each writes `results/ID.*`; the Markdown result is the one "
      "to "
      "read. What each study computes, the choices the paper leaves open and how to read "
      "its results: [studies.md](studies.md); how to add one: "
      "[extending.md](extending.md#adding-a-study).\n\n");
  printf("| study | runner | spec file | published table | reduced by | timed | what |\n"
         "|---|---|---|---|---|---|---|\n");
  for (size_t i = 0; i < sizeof md_study_list / sizeof md_study_list[0]; i++) {
    const md_study *s = &md_study_list[i];
    printf("| `%s` | %s | `studies/%s.c` | %s%s%s | `%s` | %s | ", s->id, md_kind(s->kind),
           s->source, s->published ? "`" : "", s->published ? s->published : "none",
           s->published ? "`" : "", s->tabular ? "--max-cells N" : "--quick",
           s->timed ? "yes" : "no");
    md_cell(s->title);
    printf(" |\n");
  }
}

/* The measure vocabulary (core/measures.h): the node's own values, then
 * the named functionals from vi_measure_docs, the one table
 * vi_measure_find's names are documented by. */
static const char *const ref_names[] = {"free", "constant", "zero"};

static void list_measures(int markdown) {
  static const char *const own[][2] = {
      {"t", "time"},
      {"q<k>", "configuration coordinates q1..q{nq} (a group in its embedding); q: their max norm"},
      {"p<k>", "momenta p1..pn; p: their max norm"},
      {"lambda<k>", "holonomic multipliers; lambda: their max norm"},
      {"mu<k>", "nonholonomic multipliers; mu: their max norm"},
      {"v<k>", "the method's own velocity (betsch-ggl's VI-S, VI-A, VI-B); v: its max norm"},
      {"NAME<k>", "the method's extra block under the name its family gives it (ggl: gamma); "
                  "NAME: its max norm"},
      {"<momentum map>", "each momentum map by the name its system gives it (vistudy list "
                         "systems): constant where the system marks it a Noether quantity, "
                         "free otherwise"}};
  if (markdown) {
    md_generated("measures");
    printf("\n# Measures\n\nWhat a `vistudy run` column, a figure trace and a sweep "
           "measure at a node (core/measures.h). Reference: what the exact flow does with "
           "it: constant (a trace follows its change), zero (a residual: its size), free "
           "(its value).\n\n| measure | reference | what it is |\n|---|---|---|\n");
  } else {
    printf("measures (run columns, figure traces; reference: what the exact flow does):\n\n");
  }
  for (size_t i = 0; i < sizeof own / sizeof own[0]; i++) {
    if (markdown) {
      printf("| `%s` | free | ", own[i][0]);
      md_cell(own[i][1]);
      printf(" |\n");
    } else {
      printf("  %-16s free      %s\n", own[i][0], own[i][1]);
    }
  }
  for (const vi_measure_doc *m = vi_measure_docs; m->name; m++) {
    const char *r = m->reference >= 0 && m->reference <= 2 ? ref_names[m->reference] : "?";
    if (markdown) {
      printf("| `%s` | %s | ", m->name, r);
      md_cell(m->doc);
      printf(" |\n");
    } else {
      printf("  %-16s %-9s %s\n", m->name, r, m->doc);
    }
  }
}

const char vi_list_help[] =
    "usage: vistudy list [systems|methods|studies|measures] [--markdown]\n"
    "Without an argument: systems and methods. --markdown prints the registry as\n"
    "Markdown (docs/systems.md, docs/methods.md, docs/studies-list.md and\n"
    "docs/measures.md are this output).";

/* --help is answered by main (cli/vistudy.c) wherever it stands. */
int vi_cmd_list(int argc, char **argv) {
  const char *what = NULL;
  int markdown = 0;
  /* The lists are reports of some 10 kB: buffered whole, they reach a
   * full or closed standard output in the one write of main's final
   * flush, which then reports that write's errno (cli/vistudy.c), however
   * long the registry's text grows (with the default 4 kB buffer, whether
   * the failing write is the last one depends on the text's length).
   * glibc ignores the size without a buffer, so one is given: it must
   * outlive the stream, which main closes after the command returns. */
  static char out[(size_t)1 << 16];
  setvbuf(stdout, out, _IOFBF, sizeof out);
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--markdown") == 0) {
      markdown = 1;
    } else if (argv[i][0] == '-') {
      char msg[256];
      snprintf(msg, sizeof msg, "unknown option '%s'; valid: --markdown", argv[i]);
      return vi_cli_usage("list", msg);
    } else if (what != NULL) {
      return vi_cli_usage("list", "too many arguments");
    } else {
      what = argv[i];
    }
  }
  if (what == NULL) {
    what = "all";
  }
  int all = strcmp(what, "all") == 0;
  if (strcmp(what, "studies") == 0) {
    if (markdown) {
      md_studies();
      return VI_EXIT_OK;
    }
    return vi_reproduce_list(stdout);
  }
  if (strcmp(what, "measures") == 0) {
    list_measures(markdown);
    return VI_EXIT_OK;
  }
  if (!all && strcmp(what, "systems") != 0 && strcmp(what, "methods") != 0) {
    char msg[256];
    snprintf(msg, sizeof msg, "unknown list '%s'; valid: systems, methods, studies, measures",
             what);
    return vi_cli_usage("list", msg);
  }
  if (all || strcmp(what, "systems") == 0) {
    if (markdown) {
      md_systems();
    } else {
      list_systems();
    }
  }
  if (all) {
    putchar('\n');
  }
  if (all || strcmp(what, "methods") == 0) {
    if (markdown) {
      md_methods();
    } else {
      list_methods();
    }
  }
  return VI_EXIT_OK;
}
