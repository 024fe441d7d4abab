/* paired.h — internal to bench/: the statistics of a paired A/B comparison
 * (docs/precision.md), pure computation.  Pair i measured a_i then b_i (or
 * b_i then a_i) close in time.  B/A is exp of the Hodges-Lehmann estimate of
 * the log ratios d_i (the median of the Walsh averages (d_i + d_j) / 2,
 * i <= j); its interval the Wilcoxon signed-rank one, [W_(k), W_(M-k+1)] of
 * the M = n(n+1)/2 sorted Walsh averages, k from the exact null distribution
 * (n <= SB_SIGNRANK_EXACT_MAX) or its normal approximation.  p: the two-sided
 * signed-rank test of "the median log ratio is 0" (zeros dropped; exact
 * without ties, else normal with tie and continuity corrections). */
#ifndef STRATBENCH_PAIRED_H
#define STRATBENCH_PAIRED_H

#include <stdbool.h>

#define SB_SIGNRANK_EXACT_MAX 400	/* above: normal approximation */

struct sb_paired {
	int n;			/* pairs */
	double ratio;		/* B/A: exp(Hodges-Lehmann of the log ratios) */
	double lo, hi;		/* its confidence interval, as ratios */
	double conf;		/* asked: 0.95 */
	double coverage;	/* achieved (exact: 1 - 2 P(T <= k-1)), else conf */
	int k;			/* the lower bound's rank among the Walsh averages (1-based) */
	bool exact;		/* k from the exact distribution */
	double p;		/* two-sided signed-rank p of ratio == 1; 1 when all are 1 */
};

/* P(T <= x) of the signed-rank statistic T of n untied pairs under the
 * null (T = sum of the ranks of the positive differences); 0 for x < 0. */
double sb_signrank_cdf(int n, int x);
/* The rank k of the interval's lower bound: the smallest x with
 * P(T <= x) >= alpha / 2 (R's qsignrank), at least 1; exact for n <=
 * SB_SIGNRANK_EXACT_MAX, else floor(M/2 - z sqrt(n(n+1)(2n+1)/24)).
 * *exact says which. */
int sb_signrank_k(int n, double alpha, bool *exact);
/* n pairs' statistics, conf in (0, 1): 0, or -1 if n < 1 or a value is not > 0 and finite */
int sb_paired_ratio(const double *a, const double *b, int n, double conf, struct sb_paired *out);
/* The interval's half-width in % of the ratio: 100 (hi - lo) / (2 ratio). */
double sb_paired_half_pct(const struct sb_paired *p);
/* The verdict: the interval of B/A excludes 1 (a change), else ~. */
static inline bool sb_paired_changed(const struct sb_paired *p) { return p->lo > 1 || p->hi < 1; }
/* %Change of a ratio: 100 (r - 1). */
static inline double sb_pct_change(double r) { return 100 * (r - 1); }

#endif
