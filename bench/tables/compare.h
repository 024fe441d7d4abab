/* tables/ — the changelog tables: compare's rows and verdicts, the table
 * printer and counter tables (compare_tables.c), the summary of a suite
 * or of results directories (summary.c).
 * uses: core machine stats results
 *
 * compare.h — for `stratbench compare` (cmd_compare.c) and summary.c: the table
 * printer, the number formats, the row cells and the counter tables
 * (compare_tables.c), which way a metric gets worse (for --fail-above and
 * the verdicts), and compare's report (compare_report.c). */
#ifndef STRATBENCH_COMPARE_H
#define STRATBENCH_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "results/results.h"

/* One row of a comparison: a point both OLD and NEW have, judged by
 * sb_cmp_judge (the fields after old and new). */
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

enum sb_cmp_fmt { SB_CMP_TEXT, SB_CMP_MARKDOWN, SB_CMP_CSV };

/* %Change = (new - old) / old * 100, 6 significant digits; NaN: n/a */
void sb_cmp_fmt_change(char *buf, size_t n, double change);
/* a CV as the tables show it: "3.2%", "7.5% noisy", n/a for NaN */
void sb_cmp_fmt_cv(char *buf, size_t n, double cv, bool noisy);

/* A table's cells, row after row, the first row the header, each added
 * strdup'd (lost: one could not be, and the table is not printed). */
struct sb_cmp_cells {
	char **v;
	int n, cap;
	bool lost;
};
void sb_cmp_add(struct sb_cmp_cells *c, const char *s);
void sb_cmp_cells_free(struct sb_cmp_cells *c);

/* A row's value cells as compare's and the summary's tables show them, added
 * to c: OLD's median, its CV when cvs, NEW's median, its CV when cvs,
 * %Change (" ~" within the noise), p(U) to p_digits digits when sig
 * (sb_fmt_p). */
void sb_cmp_row_cells(struct sb_cmp_cells *c, const struct sb_cmp_row *w, bool cvs, bool sig,
		      int p_digits);

/* c as one table of ncols columns (at most SB_CMP_MAXCOLS): text pads to
 * the widest cell, markdown is a pipe table; nothing when a cell was
 * lost.  A row whose cells after the first are all "" is a sub-header:
 * printed whole, not padded, not widening the first column. */
#define SB_CMP_MAXCOLS 20
void sb_cmp_fprint_table(FILE *o, enum sb_cmp_fmt f, const char *title, int ncols,
			 struct sb_cmp_cells *c);

/* The counter tables: one per family, `Event Before After %Change`, the
 * cnt:NAME totals per run (median over repetitions) with thousands
 * separators, a sub-header per benchmark, rows zero on both sides dropped. */
void sb_cmp_counter_tables(enum sb_cmp_fmt f, const struct sb_cmp_row *rows, int nrows);

/* compare_report.c: the rows of OLD r[0] and NEW r[1], the points both
 * have, judged and sorted by group, then threads: *rows (free with
 * sb_cmp_rows_free); 0, or -1 with err (nothing in common, no memory). */
int sb_cmp_rows(const struct sb_results r[2], const char *metric, int worse,
		struct sb_cmp_row **rows, int *nrows, char *err, size_t errlen);
void sb_cmp_rows_free(struct sb_cmp_row *rows, int nrows);
/* compare's report on stdout: one CSV row per row, or the header, a
 * changelog table per group, the legend, the counter tables and each
 * side's paired comparisons (paths[]/ab.json); then what one side only has
 * and (not in CSV) the failed runs. */
void sb_cmp_report(enum sb_cmp_fmt f, const char *const paths[2], const struct sb_results r[2],
		   const char *metric, const struct sb_cmp_row *rows, int nrows);
/* `compare DIR`: DIR's ab.json alone, on stdout; 0, or -1 with err. */
int sb_cmp_ab_only(const char *dir, char *err, size_t errlen);
/* --fail-above=PCT: each significant change the worse way beyond pct, one
 * line on stderr; how many. */
int sb_cmp_regressions(const struct sb_cmp_row *rows, int nrows, const char *metric, int worse,
		       double pct);

/* Which way metric gets worse: +1 up (times, costs per page or op), -1 down
 * (rates: *_per_s), 0 unknown */
int sb_cmp_worse(const char *metric);

/* The row's %Change of the medians, p(U) over the repetitions, each side's
 * CV of metric and noisy mark (above threshold[side] %), and the verdict:
 * within the noise when p(U) >= 0.05, or without p(U) when |%Change| is at
 * most the larger CV (w->old and w->new set; worse as sb_cmp_worse). */
void sb_cmp_judge(struct sb_cmp_row *w, const double threshold[2], const char *metric, int worse);

#endif
