/* stats/ — the statistics every reader shares: the median, Mann-Whitney U
 * (stats.c), the paired trials' intervals (paired.c), how a value is shown.
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

#endif
