/* stats/ — the statistics every reader shares: the median, Mann-Whitney U
 * (stats.c), the paired trials' intervals (paired.c), the unpaired interval of
 * a %Change and its verdict (interval.c), how a value is shown.
 * uses: core */
#ifndef STRATBENCH_STATS_H
#define STRATBENCH_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* fmt.c: a value as compare shows it (6 significant digits, a million or
 * more in full, n/a for NaN); a results path's short name ("prev" of
 * results/prev/ or prev.json) */
void sb_fmt_value(char *buf, size_t n, double v);
/* fmt.c: v to digits significant digits ("%.*g"), n/a for NaN; a p-value
 * the same with " *" below 0.05 (compare and HTML: 4 digits, summary: 3) */
void sb_fmt_g(char *buf, size_t n, double v, int digits);
void sb_fmt_p(char *buf, size_t n, double p, int digits);
void sb_results_base(const char *path, char *buf, size_t n);
/* stats.c: qsort's order of doubles, ascending */
int sb_cmp_double(const void *a, const void *b);
/* stats.c: the median of v[0..n) (sorts v; NaN when n < 1) */
double sb_median(double *v, int n);
/* stats.c: Mann-Whitney U p as GB's compare.py gets it; NaN when no test */
double sb_mann_whitney_p(const double *x, int nx, const double *y, int ny);
/* the normal approximation always (scipy's method='asymptotic') */
double sb_mann_whitney_p_asymptotic(const double *x, int nx, const double *y, int ny);
/* The smallest two-sided exact p any m and n repetitions can give: 2 / C(m + n, m). */
double sb_mann_whitney_min_p(int m, int n);

/* interval.c: the 95 % interval of after/before medians of two unpaired samples, as
 * %Change, by a percentile bootstrap seeded from the data (same input, any order:
 * same bytes; why a bootstrap: interval.c).  The verdict follows it: changed when
 * it excludes 0 %, ~ when it holds 0 %; FEW when a side has under SB_IV_MIN_REPS
 * repetitions (a median of 1 or 2 resampled values has no spread worth a verdict:
 * 2 vs 2 samples of one distribution do not overlap 1 time in 3); NONE when a
 * value is not finite or negative, or before's median is 0 (no %Change). */
#define SB_IV_MIN_REPS 3
#define SB_IV_MIN_REPS_STR "3"
enum sb_iv_verdict { SB_IV_NONE, SB_IV_FEW, SB_IV_SAME, SB_IV_CHANGED };
struct sb_interval {
	double lo, hi;			/* %Change bounds; NaN: none */
	enum sb_iv_verdict verdict;
	int need;			/* FEW: the repetitions a side it needs */
};
/* before[0..m), after[0..n): 0 with iv filled (its verdict may be FEW or NONE),
 * -1 out of memory */
int sb_interval_unpaired(const double *before, int m, const double *after, int n,
			 struct sb_interval *iv);
/* "changed", "~", "n too small: need 3", "n/a" */
const char *sb_interval_word(const struct sb_interval *iv);
/* "[-99.9, -99.6] changed" (3 significant digits, signed), or the word alone */
void sb_interval_fmt(char *buf, size_t len, const struct sb_interval *iv);

#endif
