/* plot.h: figures drawn by gnuplot from generated scripts (design.md).
 *
 * A study writes its data files and the body of a gnuplot script (labels,
 * scales, the plot command, referring to data files by path); vi_plot
 * keeps the script as NAME.gp (so a user can restyle and rerun it) and
 * renders NAME.svg and NAME.png, each written to a temporary name and
 * renamed, so a failed rendering never leaves a half-written figure. */
#ifndef VI_PLOT_H
#define VI_PLOT_H

#include <stddef.h>

/* Render body with gnuplot into DIR/NAME.svg and DIR/NAME.png (width x
 * height pixels), keeping the script as DIR/NAME.gp. gnuplot runs in DIR,
 * so the body names its data files relative to DIR and the kept script
 * reruns in place (cd DIR && gnuplot NAME.gp). Returns 0, or -1 with the
 * reason in err (gnuplot missing or failing: data files are kept). */
int vi_plot(const char *dir, const char *name, const char *body, int width, int height,
            char *err, size_t errlen);

#endif
