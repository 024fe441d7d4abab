/* tables/ — the changelog tables: compare's rows and verdicts, the table
 * printer (compare_tables.c), the counter tables (compare_counters.c), the
 * summary of a suite or of results directories (summary.c) and its lines by
 * thread count (trend.c).
 * uses: core machine stats results
 *
 * compare.h — for `stratbench compare` (cmd_compare.c) and summary.c: the tables
 * (compare_tables.c), which way a metric gets worse, compare's report (_report.c). */
#ifndef STRATBENCH_COMPARE_H
#define STRATBENCH_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "results/results.h"
#include "stats/stats.h"

/* A point both OLD and NEW have, judged by sb_cmp_judge (fields after old, new). */
struct sb_cmp_row {
	char *group;			/* "window/trylock/queued place:compact k=v" */
	long threads;			/* -1: none (plain Google Benchmark JSON) */
	const struct sb_bm *old, *new;
	double change;			/* %Change of the medians; NaN: none */
	double p;			/* two-sided Mann-Whitney U; NaN: a side has < 2 reps */
	double cv[2];			/* CV (%) of the metric over OLD's, NEW's reps; NaN: none */
	bool noisy[2];			/* cv above that side's run's threshold */
	struct sb_interval iv;		/* the 95 % interval of change (stats.h) */
	bool noise;			/* the interval holds 0 % (its verdict "~") */
	const char *verdict;		/* better/worse (up/down: no direction), noise, n/a;
					 * without an interval the change taken as is;
					 * preempted: a side's team was (results/preempt.h) */
	const char *no_subject;		/* why the row compares nothing (left out), NULL */
	char preempt[80];		/* that side's mark, "": neither was */
};

enum sb_cmp_fmt { SB_CMP_TEXT, SB_CMP_MARKDOWN, SB_CMP_CSV };

/* %Change = (new - old) / old * 100, 6 significant digits; NaN: n/a */
void sb_cmp_fmt_change(char *buf, size_t n, double change);
/* the %Change of old to new as the tables show it: measured zeros are values,
 * so 0 -> 0 is "0" and 0 -> x "from 0" (no ratio); n/a only for the unmeasured */
void sb_cmp_fmt_delta(char *buf, size_t n, double old, double new);
/* iv as sb_interval_fmt, but "none: from 0" where old is a measured 0 and new not
 * ("n/a" is for what was not measured), "[+0, +0] ~" for 0 -> 0 */
void sb_cmp_fmt_interval(char *buf, size_t n, const struct sb_interval *iv, double old,
			 double new);
/* the row's interval cell: sb_cmp_fmt_interval, or w's preemption mark instead */
void sb_cmp_fmt_row_interval(char *buf, size_t n, const struct sb_cmp_row *w);
/* a CV as the tables show it: "3.2%", "7.5% noisy", n/a for NaN */
void sb_cmp_fmt_cv(char *buf, size_t n, double cv, bool noisy);

/* Every repetition of b measured metric, and it is 0: a value, not "not measured". */
bool sb_cmp_all_zero(const struct sb_bm *b, const char *metric);
/* A flush protocol with no remote CPU (a simulated shootdown at 1 thread with
 * --initiator=own): 0 flushes and 0 acks in every repetition.  Its time is the
 * migration alone, the same code for every strategy, so a comparison of it is
 * left out (compare and summary; SB_CMP_NO_REMOTE says why). */
bool sb_cmp_no_remote(const struct sb_bm *b);
#define SB_CMP_NO_REMOTE "no remote CPU to flush (0 flushes and 0 acks)"

/* A table's cells, row after row (the first: header), strdup'd (lost: one failed). */
struct sb_cmp_cells {
	char **v;
	int n, cap;
	bool lost;
};
void sb_cmp_add(struct sb_cmp_cells *c, const char *s);
void sb_cmp_cells_free(struct sb_cmp_cells *c);

/* Adds a row's value cells: OLD's median, its CV when cvs, NEW's, its CV, %Change,
 * its 95 % interval and verdict (sb_cmp_fmt_row_interval; "n too small" without
 * repetitions), p(U) to
 * p_digits digits when sig (sb_fmt_p). */
void sb_cmp_row_cells(struct sb_cmp_cells *c, const struct sb_cmp_row *w, bool cvs, bool sig,
		      int p_digits);

/* c as a table of ncols (<= SB_CMP_MAXCOLS): text padded, markdown piped; nothing
 * if a cell was lost.  A row whose later cells are all "" is a sub-header, printed
 * whole, unpadded, not widening the first column. */
#define SB_CMP_MAXCOLS 20
void sb_cmp_fprint_table(FILE *o, enum sb_cmp_fmt f, const char *title, int ncols,
			 struct sb_cmp_cells *c);

/* compare_counters.c: per family, `Event (per op) Before After %Change` (and its
 * interval where both sides have repetitions) of the cnt:NAME events in unit u
 * (repetitions' median, thousands separated), a sub-header per benchmark, no
 * rows zero on both sides, left-out rows (no_subject) skipped. */
enum sb_cmp_unit { SB_CMP_PER_OP, SB_CMP_PER_S, SB_CMP_PER_RUN };
void sb_cmp_counter_tables(enum sb_cmp_fmt f, const struct sb_cmp_row *rows, int nrows,
			   enum sb_cmp_unit u);

/* compare_report.c: the points OLD r[0] and NEW r[1] share, judged, sorted by group
 * then threads (sb_cmp_rows_free), no_subject set on a row that compares nothing
 * (a shootdown with no remote CPU: 0 flushes and 0 acks on both sides; the tables,
 * counters and regressions skip it); 0, or -1 with err (nothing in common, no
 * memory). */
int sb_cmp_rows(const struct sb_results r[2], const char *metric, int worse,
		struct sb_cmp_row **rows, int *nrows, char *err, size_t errlen);
void sb_cmp_rows_free(struct sb_cmp_row *rows, int nrows);
/* On stdout: CSV rows, or header, group tables, legend, what was left out and why
 * (once per family and reason), counter tables in u, paths[]/ab.json pairs; then
 * what one side only has and (not in CSV) the failed runs.  rows: sb_cmp_rows'. */
void sb_cmp_report(enum sb_cmp_fmt f, const char *const paths[2], const struct sb_results r[2],
		   const char *metric, const struct sb_cmp_row *rows, int nrows,
		   enum sb_cmp_unit u);
/* `compare DIR`: DIR's ab.json alone, on stdout; 0, or -1 with err. */
int sb_cmp_ab_only(const char *dir, char *err, size_t errlen);
/* --fail-above: each significant worse change beyond pct (rows with no subject
 * skipped), a line on stderr; count. */
int sb_cmp_regressions(const struct sb_cmp_row *rows, int nrows, const char *metric, int worse,
		       double pct);

/* metric gets worse +1 up (times, costs a page or op), -1 down (*_per_s), 0 unknown */
int sb_cmp_worse(const char *metric);

/* w's %Change, its interval, p(U), each side's CV and noisy mark (above
 * threshold[side] %) and verdict, w->old and w->new set (worse: sb_cmp_worse). */
void sb_cmp_judge(struct sb_cmp_row *w, const double threshold[2], const char *metric, int worse);

#endif
