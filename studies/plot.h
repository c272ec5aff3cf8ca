/* plot.h: figures drawn by gnuplot from generated scripts (design.md).
 *
 * A study writes its data files and the body of a gnuplot script (labels,
 * scales, the plot command, referring to data files by path); vi_plot
 * keeps the script as NAME.gp (so a user can restyle and rerun it) and
 * renders NAME.svg, NAME.png and NAME.pdf, each written to a temporary name
 * and renamed, so a failed rendering never leaves a half-written figure. */
#ifndef VI_PLOT_H
#define VI_PLOT_H

#include "outfile.h"

#include <stddef.h>

/* The gnuplot builder: one shared palette, data as inline datablocks (the
 * kept script is self-contained), panels of curves on log or linear axes.
 *   vi_gp *g = vi_gp_new("title");
 *   vi_gp_panel(g, "panel title", "x label", "y label", VI_GP_LOGX | VI_GP_LOGY);
 *   vi_gp_curve(g, "Gauss s=2", x, y, n, color, dash);
 *   char *body = vi_gp_body(g, rows, cols);  then vi_plot(dir, name, body, ...)
 * Points with a non-finite coordinate, or a non-positive one on a log axis,
 * are left out; a curve left with no point is not drawn. Every range and
 * scale is set in each panel: vi_plot runs the body once per terminal and
 * gnuplot keeps settings between the runs.
 * The builder places every key (plot.c, gp_key): outside the plotting
 * area, below the panel; none when the panel has no labelled entry (an
 * empty label) or one whose label its title already holds. Axis titles
 * name the quantity and its unit ("time t [s]", "CPU time [s]"). */
enum { VI_GP_LOGX = 1, VI_GP_LOGY = 2, VI_GP_YEXP = 4 /* linear y labelled 1.0e-3 */ };
/* How a curve is drawn. */
enum { VI_GP_LINESPOINTS = 0, VI_GP_LINES = 1, VI_GP_POINTS = 2 /* open circles */ };
typedef struct vi_gp vi_gp;
/* The n-th colour of the palette (cycles). */
const char *vi_gp_color(int i);
vi_gp *vi_gp_new(const char *title);
/* A new panel; title NULL: the figure's title (a single-panel figure). */
void vi_gp_panel(vi_gp *g, const char *title, const char *xlabel, const char *ylabel,
                 unsigned flags);
/* A line of gnuplot added before the plot command of the current panel
 * (e.g. "set xrange [0:18]"); not the key, which the builder places. */
void vi_gp_set(vi_gp *g, const char *line);
/* A line in small print at the bottom right of the canvas, below every
 * panel and key: the machine line of a timed figure (machine.h). */
void vi_gp_note(vi_gp *g, const char *note);
void vi_gp_curve(vi_gp *g, const char *label, const double *x, const double *y, int n,
                 int color, int dash);
/* The same with a style (VI_GP_LINES, VI_GP_POINTS, ...). */
void vi_gp_curve_style(vi_gp *g, const char *label, const double *x, const double *y, int n,
                       int color, int dash, int style);
/* A band between lo and hi over x (filled, its edges drawn): the envelope
 * of a quantity over windows of steps. */
void vi_gp_band(vi_gp *g, const char *label, const double *x, const double *lo,
                const double *hi, int n, int color);
/* The script body (datablocks, then the panels in a rows x cols
 * multiplot when there is more than one); malloc'd, NULL when out of
 * memory (also after a failed allocation in an earlier call). */
char *vi_gp_body(vi_gp *g, int rows, int cols);
void vi_gp_free(vi_gp *g);

/* Stage DIR/NAME.gp (the script, drawing to NAME.svg, NAME.png and
 * NAME.pdf, so that `cd DIR && gnuplot NAME.gp` reruns in place), and render
 * body with gnuplot (width x height pixels; the pdf page the same at 128 pixels
 * per inch) into the temporaries of DIR/NAME.svg, DIR/NAME.png and
 * DIR/NAME.pdf: four members of set, replaced when the set is committed
 * (outfile.h). The body holds its data (datablocks) and names no file.
 * Returns 0, or -1 with the reason in err (gnuplot missing or failing); the
 * owner then aborts the set. */
int vi_plot_stage(vi_outset *set, const char *dir, const char *name, const char *body,
                  int width, int height, char *err, size_t errlen);

#endif
