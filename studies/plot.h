/* plot.h: figures drawn by gnuplot from generated scripts (design.md).
 *
 * A study writes its data files and the body of a gnuplot script (labels,
 * scales, the plot command, referring to data files by path); vi_plot
 * keeps the script as BASE.gp (so a user can restyle and rerun it) and
 * renders BASE.svg and BASE.png, each written to a temporary name and
 * renamed, so a failed rendering never leaves a half-written figure. */
#ifndef VI_PLOT_H
#define VI_PLOT_H

#include <stddef.h>

/* Render body with gnuplot into BASE.svg and BASE.png (width x height
 * pixels). Returns 0, or -1 with the reason in err (gnuplot missing or
 * failing: the data files are kept either way). */
int vi_plot(const char *base, const char *body, int width, int height, char *err,
            size_t errlen);

#endif
