/* paired.c — paired.h's statistics (why these: docs/precision.md) */
#include "stats/paired.h"
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The null distribution of T for n pairs as probabilities f[0..n(n+1)/2]:
 * each rank i is positive with probability 1/2, independently, so
 * f_i(s) = (f_{i-1}(s) + f_{i-1}(s - i)) / 2.  Doubles, not counts: 2^n
 * overflows any integer for n > 63.  NULL when out of memory. */
static double *signrank_pmf(int n)
{
	int m = n * (n + 1) / 2;
	double *f = calloc((size_t)m + 1, sizeof(*f));

	if (!f)
		return NULL;
	f[0] = 1;
	for (int i = 1; i <= n; i++) {
		int top = i * (i + 1) / 2;

		for (int s = top; s >= 0; s--)	/* downwards: f[s - i] is still f_{i-1} */
			f[s] = 0.5 * (f[s] + (s >= i ? f[s - i] : 0));
	}
	return f;
}

double sb_signrank_cdf(int n, int x)
{
	int m = n * (n + 1) / 2;
	double *f, c = 0;

	if (x < 0)
		return 0;
	if (x >= m)
		return 1;
	f = signrank_pmf(n);
	if (!f)
		return NAN;
	for (int s = 0; s <= x; s++)
		c += f[s];
	free(f);
	return c > 1 ? 1 : c;
}

/* z with 0.5 erfc(z / sqrt 2) = alpha / 2, by bisection (erfc is monotone;
 * 200 halvings of [0, 40] reach the double's resolution). */
static double z_upper(double alpha)
{
	double lo = 0, hi = 40;

	for (int i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2;

		if (0.5 * erfc(mid / sqrt(2)) > alpha / 2)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

int sb_signrank_k(int n, double alpha, bool *exact)
{
	double m = n * (n + 1) / 2.0;
	double *f = n <= SB_SIGNRANK_EXACT_MAX ? signrank_pmf(n) : NULL, c = 0;
	int k;

	*exact = f != NULL;
	if (f) {
		/* smallest x with P(T <= x) >= alpha/2; the relative slack keeps
		 * an exact tie on the right side of the rounding of the sum */
		for (k = 0; k <= (int)m; k++) {
			c += f[k];
			if (c >= alpha / 2 * (1 - 1e-12))
				break;
		}
		free(f);
	} else {
		/* P(T <= x) ~ Phi((x + 0.5 - m/2) / sd), continuity-corrected */
		k = (int)ceil(m / 2 - 0.5 - z_upper(alpha) *
			      sqrt(n * (n + 1.0) * (2 * n + 1) / 24));
	}
	return k < 1 ? 1 : k;
}

static int cmp_abs(const void *a, const void *b)
{
	double x = fabs(*(const double *)a), y = fabs(*(const double *)b);

	return (x > y) - (x < y);
}

/* The signed-rank p of d[0..n) (paired.h), ties of |d| at average ranks */
static double signrank_p(const double *d, int n)
{
	double *ad = malloc(sizeof(*ad) * (size_t)(n ? n : 1));
	double v = 0, ties = 0, mean, var, z;
	int nz = 0;
	bool tied = false;

	if (!ad)
		return NAN;
	for (int i = 0; i < n; i++)
		if (d[i] != 0)
			ad[nz++] = d[i];
	if (!nz) {
		free(ad);
		return 1;
	}
	qsort(ad, (size_t)nz, sizeof(*ad), cmp_abs);
	for (int i = 0, j; i < nz; i = j) {	/* tie groups of |d|: ranks i+1 .. j */
		double t;

		for (j = i + 1; j < nz && fabs(ad[j]) == fabs(ad[i]); j++)
			;
		t = j - i;
		for (int k = i; k < j; k++)
			if (ad[k] > 0)
				v += (i + 1 + j) / 2.0;	/* the group's average rank */
		tied |= t > 1;
		ties += t * t * t - t;
	}
	free(ad);
	if (!tied && nz <= SB_SIGNRANK_EXACT_MAX) {
		int x = (int)lround(v);
		double lower = sb_signrank_cdf(nz, x), upper = 1 - sb_signrank_cdf(nz, x - 1);
		double p = 2 * (lower < upper ? lower : upper);

		return p > 1 ? 1 : p;
	}
	mean = nz * (nz + 1) / 4.0;
	var = nz * (nz + 1.0) * (2 * nz + 1) / 24 - ties / 48;
	if (var <= 0)
		return 1;
	z = (fabs(v - mean) - 0.5) / sqrt(var);
	if (z < 0)
		z = 0;
	return erfc(z / sqrt(2));
}

int sb_paired_ratio(const double *a, const double *b, int n, double conf, struct sb_paired *out)
{
	size_t m = (size_t)n * (size_t)(n + 1) / 2, w = 0;
	double *d, *walsh, hl;
	int k;

	memset(out, 0, sizeof(*out));
	if (n < 1 || !(conf > 0 && conf < 1))
		return -1;
	for (int i = 0; i < n; i++)
		if (!(a[i] > 0 && b[i] > 0 && isfinite(a[i]) && isfinite(b[i])))
			return -1;
	d = malloc(sizeof(*d) * (size_t)n);
	walsh = malloc(sizeof(*walsh) * m);
	if (!d || !walsh) {
		free(d);
		free(walsh);
		return -1;
	}
	for (int i = 0; i < n; i++)
		d[i] = log(b[i] / a[i]);
	for (int i = 0; i < n; i++)
		for (int j = i; j < n; j++)
			walsh[w++] = (d[i] + d[j]) / 2;
	hl = sb_median(walsh, (int)m);	/* sorts walsh */
	k = sb_signrank_k(n, 1 - conf, &out->exact);
	if ((size_t)k > (m + 1) / 2)
		k = (int)((m + 1) / 2);	/* tiny n: the whole range */
	out->n = n;
	out->k = k;
	out->conf = conf;
	out->ratio = exp(hl);
	out->lo = exp(walsh[k - 1]);
	out->hi = exp(walsh[m - (size_t)k]);
	out->coverage = out->exact ? 1 - 2 * sb_signrank_cdf(n, k - 1) : conf;
	out->p = signrank_p(d, n);
	free(d);
	free(walsh);
	return 0;
}

double sb_paired_half_pct(const struct sb_paired *p)
{
	return p->ratio > 0 ? 100 * (p->hi - p->lo) / (2 * p->ratio) : NAN;
}
