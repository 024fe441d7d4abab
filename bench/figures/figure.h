/* figure.h — internal to the figures (plot.c, gnuplot.c, series.c, a fig_*.c per family).
 * Every grouping and series key is a field of the point, never a part of its name. */
#ifndef STRATBENCH_FIGURE_H
#define STRATBENCH_FIGURE_H

#include <stdbool.h>
#include <stdio.h>

#include "figures/plot.h"

/* What every figure of one directory shares. */
struct sb_plot {
	const char *dir;		/* results directory: figures go to dir/plots */
	const char *old, *new;		/* SB_FIG_COMPARE: the two runs (dir: set by it) */
	const char *tpldir;		/* the gnuplot templates */
	const struct sb_results *r;	/* NULL for a merge directory */
	struct sb_figs *figs;		/* each drawn figure is added */
	char machine[400];		/* "host (CPU model), run LABEL" for titles */
	double cv_threshold;		/* CV % above which a point is noisy */
	char *err;			/* one line on failure */
	size_t errlen;
};

/* plot.c */
void sb_plot_machine(const struct sb_results *r, const char *dir, char *buf, size_t n);
/* "CV > 5 % (noisy)": the key of the noisy marker */
void sb_plot_noisy_key(const struct sb_plot *p, char *buf, size_t n);
/* the y label of ops_per_s for a family: what one op is */
const char *sb_plot_ops_label(const char *family);
/* a figure's file name: anything but [A-Za-z0-9._-] becomes '_' */
void sb_plot_slug(char *name);
/* dir/plots, created when absent; 0, or -1 with err */
int sb_plot_mkdir(const char *dir, char *err, size_t errlen);

/* gnuplot.c: a figure being written, NAME slugged; variables are gnuplot assignments (strings
 * escaped), arrays declared with their size, then filled.  sb_gp_draw closes the data, writes
 * NAME.gp, runs gnuplot (any output or a nonzero exit fails, naming the figure), checks NAME.png
 * and .svg, adds the figure and its caption (what, how to read it) to p->figs and frees g. */
struct sb_gp;
struct sb_gp *sb_gp_new(struct sb_plot *p, const char *name, const char *tpl);
FILE *sb_gp_dat(struct sb_gp *g);
/* " %.9g", or " NaN": a number of a figure's data */
void sb_gp_dat_num(FILE *f, double v);
void sb_gp_num(struct sb_gp *g, const char *var, double v);
void sb_gp_str(struct sb_gp *g, const char *var, const char *s);
/* n elements (0: one, "" or 0 as str says: gnuplot parses an empty iteration's expressions too) */
void sb_gp_array(struct sb_gp *g, const char *var, int n, bool str);
void sb_gp_num_at(struct sb_gp *g, const char *var, int i, double v);
void sb_gp_str_at(struct sb_gp *g, const char *var, int i, const char *s);
int sb_gp_draw(struct sb_gp *g, const char *title, const char *what, const char *how,
	       int nnoisy);
/* title: wraps at "; " past about 110 characters a line */
void sb_gp_wrap(char *title);

/* series.c: lines against x for lines.gp: the points equal in their fields less x (threads or a
 * parameter) and the fixed parameters.  A group's lines (a different `part`: p50, p99) share
 * colour and point, differ by dash.  A key names what differs between the lines; what all share
 * goes to the title (sb_lines_common). */
struct sb_xy {
	double x;
	double y[2], lo[2], hi[2];	/* per panel: median, min, max; NaN: none */
	bool noisy[2];
};

struct sb_line {
	struct sb_point_fields f;	/* the line's fields (x's field cleared) */
	int part;			/* index in the figure's parts (0: the only) */
	int group, style;		/* set by sb_lines_finish */
	char key[240];
	char tag[40];			/* appended to the key by sb_lines_finish ("(acks = flushes)") */
	struct sb_xy *v;
	int n, cap;
};

struct sb_lines {
	const char *xkey;		/* "threads" or a parameter ("batch") */
	const char *const *skip;	/* parameters the figure fixes (NULL: none) */
	const char *const *parts;	/* names of a group's parts (NULL: one) */
	const char *const *bare;	/* parameters a key shows as the value alone */
	int npanels;			/* 1 or 2 */
	bool logy[2];
	bool fity[2];			/* linear y fitted to the data, not from 0 (ratios) */
	struct sb_line *l;
	int n, cap;
	int reps;			/* most repetitions behind a point */
	int nnoisy;
	bool zeros;			/* a key says "not drawn" (log axis) */
	bool bycat;			/* one x value: a column per series (sb_lines_draw) */
	char common[600];		/* what every line shares (sb_lines_finish) */
	/* what lines.gp draws besides the lines: the figure sets them */
	const char *xlabel, *ylabel[2], *ptitle[2], *yfmt[2];
	const char *pname[2];		/* a panel in a key's note ("TLB IRQs") */
	int nref;			/* horizontal references on panel 1 */
	double refy[2];
	char refkey[2][240], reflabel[2][160];
	int nnote;			/* key lines saying what a dash means */
	const char *note[4];
	int notedt[4];			/* 0: the note is text alone */
};

/* The line of f (and part), created when new; NULL when out of memory. */
struct sb_line *sb_lines_get(struct sb_lines *ls, const struct sb_point_fields *f, int part);
/* s (a median, min, max, CV over s->n repetitions) at x to panel of l */
void sb_line_put(struct sb_lines *ls, struct sb_line *l, double x, int panel,
		 const struct sb_stat *s, double cv_threshold);
/* b's metric into its line (part, panel): 1 added, 0 no value, -1 no x (the caller says so) */
int sb_lines_add(struct sb_lines *ls, const struct sb_bm *b, int part, int panel,
		 const char *metric, double cv_threshold);
/* the lines' distinct x values, at most max, ascending; how many */
int sb_lines_xs(const struct sb_lines *ls, double *xs, int max);
/* l is the line of f (and part) */
bool sb_lines_match(const struct sb_lines *ls, const struct sb_line *l,
		    const struct sb_point_fields *f, int part);
/* Sorts, groups, keys and styles the lines; keys note non-positive values on log axes. */
void sb_lines_finish(struct sb_lines *ls);
void sb_lines_free(struct sb_lines *ls);
/* Finishes ls, draws it as NAME with lines.gp (title "WHAT — machine", the lines' common fields
 * and stat, NULL: "median of N repetitions, bars min–max"), none without lines; frees them. */
int sb_lines_draw(struct sb_plot *p, struct sb_lines *ls, const char *name, const char *what,
		  const char *stat, const char *caption_how);

/* A figure is one fig_*.c that registers itself, as a strategy does: SB_FIGURE(fn, kind, order)
 * names its static int fn(struct sb_plot *), which draws its figures from p (0, or -1 with
 * p->err set).  SB_FIGURE_EACH(in, each, kind, order) draws one figure per set of p->r's points:
 * each(p, b) for each b with in(b, NULL), in order, unless an earlier point shares its figure
 * (in(earlier, b)).  A kind's figures are drawn by ascending order (index.html lists them so). */
enum sb_fig_kind {
	SB_FIG_RESULTS,		/* from one results directory: sb_plot_results */
	SB_FIG_COMPARE,		/* from two runs, p->old and p->new: sb_plot_compare */
	SB_FIG_MERGE,		/* from dir/machines.csv: sb_plot_machines */
};

struct sb_figure {
	enum sb_fig_kind kind;
	int order;
	int (*draw)(struct sb_plot *p);
	bool (*in)(const struct sb_bm *b, const struct sb_bm *like);	/* SB_FIGURE_EACH */
	int (*each)(struct sb_plot *p, const struct sb_bm *like);
};

void sb_figure_add(const struct sb_figure *f);

/* linked as objects (CMakeLists.txt: sb_figures): each unreferenced constructor is kept */
#define SB_FIGURE_(id, kind_, order_, ...)					\
	static const struct sb_figure sb_figure_##id = {			\
		.kind = (kind_), .order = (order_), __VA_ARGS__,		\
	};									\
	__attribute__((constructor)) static void sb_figure_add_##id(void)	\
	{									\
		sb_figure_add(&sb_figure_##id);					\
	}
#define SB_FIGURE(fn, kind_, order_) SB_FIGURE_(fn, kind_, order_, .draw = (fn))
#define SB_FIGURE_EACH(in_, each_, kind_, order_)				\
	SB_FIGURE_(each_, kind_, order_, .in = (in_), .each = (each_))

#endif
