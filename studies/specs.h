/* specs.h: the declaration of every study's spec, generated from the
 * registry (studies.def) by the spec type of its runner, so that no
 * runner's header lists the specs of the papers by hand. */
#ifndef VI_SPECS_H
#define VI_SPECS_H

#include "figure.h"
#include "study.h"
#include "sweep.h"

#define VI_SPEC_DECL_TABLE(spec) extern const vi_table_spec spec;
#define VI_SPEC_DECL_FIGURE(spec) extern const vi_fig_spec spec;
#define VI_SPEC_DECL_FIGURE_SET(spec) extern const vi_fig_set spec;
#define VI_SPEC_DECL_SWEEP(spec) extern const vi_sweep_spec spec;
#define VI_SPEC_DECL_PROGRAM(spec) int spec(const vi_study *s, const reproduce_opts *o);
#define STUDY(id, source, kind, spec, title, outputs, published, tabular, timed) \
  VI_SPEC_DECL_##kind(spec)
#include "studies.def"
#undef STUDY

#endif
