/* plot.h — internal to bench/: the figures `stratbench plot` draws from
 * typed results (report.h's sb_results, point.h's fields), and the HTML
 * report that shows them (html.c).
 *
 * Each figure is shaped here in C from the points' fields and the shared
 * median (sb_median, sb_bm_stat): DIR/plots/NAME.dat holds its data,
 * DIR/plots/NAME.gp the gnuplot script (the variables, then the template
 * plots/TEMPLATE.gp), and gnuplot writes NAME.png and NAME.svg.  Any gnuplot
 * output is a failure.  A figure whose data is absent is not drawn. */
#ifndef STRATBENCH_PLOT_H
#define STRATBENCH_PLOT_H

#include <stdbool.h>
#include <stddef.h>

#include "report/report.h"

struct sb_fig {
	char name[128];		/* DIR/plots/<name>.{png,svg,dat,gp} */
	char title[512];	/* as drawn */
	char caption[2][400];	/* what it shows; how to read it */
	char svg[4200];		/* the SVG's path */
	char tpl[64];		/* the template it was drawn with (NAME.gp) */
	int nnoisy;		/* noisy points marked on it */
};

struct sb_figs {
	struct sb_fig *v;
	int n;
};
void sb_figs_free(struct sb_figs *f);

/* Draws every figure dir's results have data for into dir/plots (tpldir:
 * the gnuplot templates), adding each to figs; 0, or -1 with one line in err. */
int sb_plot_results(const char *dir, const struct sb_results *r, const char *tpldir,
		    struct sb_figs *figs, char *err, size_t errlen);

/* fig_merge.c: one figure per benchmark group measured on two or more
 * machines of dir/machines.csv (stratbench merge), a line per machine;
 * 0, or -1 with one line in err. */
int sb_plot_machines(const char *dir, const char *tpldir, struct sb_figs *figs, char *err,
		     size_t errlen);

/* fig_compare.c: %Change bars of the points both OLD and NEW have (the
 * same typed point: stratbench compare's matching) into NEW/plots (NEW's
 * directory's when NEW is a file); noisy points outlined, not solid. */
int sb_plot_compare(const char *old, const char *new, const char *tpldir, struct sb_figs *figs,
		    char *err, size_t errlen);

/* html.c: DIR/index.html — one static file, no external assets: the
 * fingerprint, command line and quietness, a summary table per family,
 * every figure as inline SVG with its caption, and the noisy points.
 * Written as path.partial, renamed when complete. */
int sb_html_write(const char *path, const struct sb_results *r, const struct sb_figs *figs,
		  char *err, size_t errlen);

/* html_compare.c: `stratbench compare OLD NEW --html=FILE` — the same kind
 * of page for a comparison: both fingerprints side by side, a changelog
 * table per group (Prev, CV, Current, CV, %Change with its noise verdict,
 * p(U); a side whose CV of metric is above its run's threshold marked
 * noisy), the points on one side only, and the %Change figure inline when
 * `stratbench plot --compare OLD NEW` drew it (NEW/plots/compare-vs-OLD.svg),
 * else one line saying so.  rows: the points both have, sorted by group
 * then threads, judged by compare (the fields after old and new). */
struct sb_cmp_row {
	char *group;			/* "window/trylock/queued place:compact k=v" */
	long threads;			/* -1: none (plain Google Benchmark JSON) */
	const struct sb_bm *old, *new;
	double change;			/* %Change of the medians; NaN: none */
	double p;			/* two-sided Mann-Whitney U; NaN: a side has < 2 reps */
	double cv[2];			/* CV (%) of the metric over OLD's, NEW's reps; NaN: none */
	bool noisy[2];			/* cv above that side's run's threshold */
	bool noise;			/* within the noise: p >= 0.05, or without p
					 * |change| at most the larger CV */
	const char *verdict;		/* "better", "worse" (or "up", "down" where
					 * the metric's direction is unknown), "noise",
					 * "n/a" (no %Change) */
};
/* Before any work: can a page be written at path (html.c)?  Refuses a path
 * that is not a regular file where one exists (a directory, a device: the
 * page replaces it by a rename) and one whose path.partial cannot be
 * created; nothing is left behind.  0, or -1 with "cannot write PATH: why"
 * in err, naming path as given. */
int sb_html_check(const char *path, char *err, size_t errlen);
/* arg: OLD and NEW as given (directories or files), r: their results */
int sb_html_compare(const char *path, const char *const arg[2], const struct sb_results r[2],
		    const char *metric, const struct sb_cmp_row *rows, int nrows, char *err,
		    size_t errlen);

#endif
