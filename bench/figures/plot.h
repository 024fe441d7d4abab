/* figures/ — the figures of `stratbench plot`: one fig_*.c each, their data shaped in C
 * (series.c), drawn by gnuplot from plots/NAME.gp (gnuplot.c, lines_gp.c); plot.c draws every
 * figure a results directory has data for.
 * uses: core stats results
 *
 * plot.h — the figures drawn from typed results (sb_results, point.h's fields), shaped from the
 * fields and the shared median (sb_bm_stat): DIR/plots/NAME.dat holds the data, NAME.gp the
 * script (variables, then plots/TEMPLATE.gp), gnuplot writes NAME.png and NAME.svg; html/ shows
 * them.  Any gnuplot output is a failure.  A figure without data is not drawn. */
#ifndef STRATBENCH_PLOT_H
#define STRATBENCH_PLOT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "results/results.h"

struct sb_fig {
	char name[128];		/* DIR/plots/<name>.{png,svg,dat,gp} */
	char title[512];	/* as drawn */
	char caption[2][400];	/* what it shows; how to read it */
	char svg[SB_PATH];	/* the SVG's path */
	char tpl[64];		/* the template it was drawn with (NAME.gp) */
	int nnoisy;		/* noisy points marked on it */
};

struct sb_figs {
	struct sb_fig *v;
	int n, cap;
};
void sb_figs_free(struct sb_figs *f);

/* Draws every figure dir's results have data for into dir/plots (tpldir: the gnuplot
 * templates), adding each to figs; 0, or -1 with one line in err. */
int sb_plot_results(const char *dir, const struct sb_results *r, const char *tpldir,
		    struct sb_figs *figs, char *err, size_t errlen);

/* plot.c, through fig_merge.c: one figure per benchmark group measured on two or more machines
 * of dir/machines.csv (stratbench merge), a line per machine; 0, or -1 with one line in err. */
int sb_plot_machines(const char *dir, const char *tpldir, struct sb_figs *figs, char *err,
		     size_t errlen);

/* plot.c, through fig_compare.c: %Change bars of the points OLD and NEW share (compare's
 * matching) into NEW/plots (NEW's directory's when NEW is a file); noisy ones outlined. */
int sb_plot_compare(const char *old, const char *new, const char *tpldir, struct sb_figs *figs,
		    char *err, size_t errlen);
/* plot.c: where sb_plot_compare draws (dir: NEW, or a NEW file's directory) and its SVG
 * (.../plots/compare-vs-<OLD's base, slugged>.svg), SB_PATH bytes each; 0, or -1 (ENAMETOOLONG) */
int sb_plot_compare_dir(const char *new, char *dir);
int sb_plot_compare_svg(const char *old, const char *new, char *svg);
/* What the compare figure's fills mean (its caption, and the --html page's). */
#define SB_PLOT_COMPARE_FILLS "The fill follows the 95 % bootstrap interval of the change " \
	"(the whisker): solid green a change up, hatched red a change down, grey within the " \
	"noise (the interval holds 0), an empty outline where there is no verdict (n too " \
	"small, or a side preempted); a red dashed border marks a point noisy on either side."

#endif
