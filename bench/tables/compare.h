/* tables/ — the changelog tables: compare's rows and verdicts, the table
 * printer and counter tables (compare_tables.c), the summary of a suite
 * or of results directories (summary.c).
 * uses: core machine stats results
 *
 * compare.h — for `stratbench compare` (cmd_compare.c) and summary.c: the table
 * printer, the number formats and the counter tables (compare_tables.c),
 * and which way a metric gets worse (for --fail-above and the verdicts). */
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

/* counter totals as perf stat prints them: whole numbers with thousands
 * separators (14,285,708); below 1000 and fractional: 6 significant digits */
void sb_cmp_fmt_count(char *buf, size_t n, double v);
/* %Change = (new - old) / old * 100, 6 significant digits; NaN: n/a */
void sb_cmp_fmt_change(char *buf, size_t n, double change);
double sb_cmp_change(double old, double new);
/* a CV as the tables show it: "3.2%", "7.5% noisy", n/a for NaN */
void sb_cmp_fmt_cv(char *buf, size_t n, double cv, bool noisy);

/* One table of ncols columns (at most SB_CMP_MAXCOLS) and nrows rows of
 * cells, the first the header: text pads to the widest cell, markdown is a
 * pipe table.  A row whose cells after the first are all "" is a
 * sub-header: printed whole, not padded, not widening the first column. */
#define SB_CMP_MAXCOLS 20
void sb_cmp_print_table(enum sb_cmp_fmt f, const char *title, int ncols, char **cells,
			int nrows);
void sb_cmp_fprint_table(FILE *o, enum sb_cmp_fmt f, const char *title, int ncols, char **cells,
			 int nrows);

/* The counter tables: one per family, `Event Before After %Change`, the
 * cnt:NAME totals per run (median over repetitions) with thousands
 * separators, a sub-header per benchmark, rows zero on both sides dropped. */
void sb_cmp_counter_tables(enum sb_cmp_fmt f, const struct sb_cmp_row *rows, int nrows);

/* Which way metric gets worse: +1 up (times, costs per page or op), -1 down
 * (rates: *_per_s), 0 unknown */
int sb_cmp_worse(const char *metric);

/* The row's %Change of the medians, p(U) over the repetitions, each side's
 * CV of metric and noisy mark (above threshold[side] %), and the verdict:
 * within the noise when p(U) >= 0.05, or without p(U) when |%Change| is at
 * most the larger CV (w->old and w->new set; worse as sb_cmp_worse). */
void sb_cmp_judge(struct sb_cmp_row *w, const double threshold[2], const char *metric, int worse);

#endif
