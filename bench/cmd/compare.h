/* compare.h — internal to `stratbench compare` (cmd_compare.c): the table
 * printer, the number formats and the counter tables (compare_tables.c),
 * and which way a metric gets worse (for --fail-above and the verdicts). */
#ifndef STRATBENCH_COMPARE_H
#define STRATBENCH_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "report/plot.h"

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
