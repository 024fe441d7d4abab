/* stats.c — the two-sided Mann-Whitney U p-value as GB's tools/compare.py
 * reports it: scipy.stats.mannwhitneyu(a, b, alternative='two-sided') with
 * scipy's defaults (use_continuity=True, method='auto': scipy >= 1.7's
 * _mwu_choose_method), which takes
 *   - the exact null distribution of U when a sample has at most 8 values
 *     and none is tied: p = 2 P(U >= max(U1, U2)), clipped to 1;
 *   - else normal with tie and continuity correction (_get_mwu_z): mu = n1 n2 / 2,
 *     s = sqrt(n1 n2 / 12 * ((n + 1) - sum(t^3 - t) / (n (n - 1)))) over tie
 *     group sizes t, z = (|U1 - mu| - 1/2) / s, p = erfc(z / sqrt 2), clipped to 1.
 * U1 = R1 - n1 (n1 + 1) / 2, R1 the first sample's mid-rank sum; all tied: NaN. */
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct val {
	double v;	/* first: sorted by sb_cmp_double */
	int side;
};

/* P(U >= k) under the null for samples of sizes m, n: the number of
 * arrangements with U = u, N(m, n, u) = N(m - 1, n, u - n) + N(m, n - 1, u),
 * over C(m + n, m). */
static double exact_sf(int m, int n, double k)
{
	size_t umax = (size_t)m * n, w = umax + 1, i, j, u;
	/* cnt[j][u] for the current i, rolling over i */
	double *prev = calloc((size_t)(n + 1) * w, sizeof(double));
	double *cur = calloc((size_t)(n + 1) * w, sizeof(double));
	double total = 0, tail = 0;

	if (!prev || !cur) {
		free(prev);
		free(cur);
		return NAN;
	}
	for (j = 0; j <= (size_t)n; j++)
		prev[j * w] = 1;	/* i = 0: U = 0 */
	for (i = 1; i <= (size_t)m; i++) {
		double *t;

		memset(cur, 0, sizeof(double) * (n + 1) * w);
		cur[0] = 1;		/* j = 0: U = 0 */
		for (j = 1; j <= (size_t)n; j++)
			for (u = 0; u <= umax; u++)
				cur[j * w + u] = (u >= j ? prev[j * w + u - j] : 0) + cur[(j - 1) * w + u];
		t = prev;
		prev = cur;
		cur = t;
	}
	for (u = 0; u <= umax; u++) {
		double c = prev[(size_t)n * w + u];

		total += c;
		if ((double)u >= k - 1e-9)
			tail += c;
	}
	free(prev);
	free(cur);
	return tail / total;
}

static double mwu(const double *x, int nx, const double *y, int ny, int method)
{
	int n = nx + ny, i, j;
	struct val *a;
	double r1 = 0, tie_term = 0, u1, u2, mu, s, z, p;
	bool ties = false;

	if (nx < 1 || ny < 1)
		return NAN;
	a = malloc(sizeof(*a) * n);
	for (i = 0; i < nx; i++)
		a[i] = (struct val){ x[i], 0 };
	for (i = 0; i < ny; i++)
		a[nx + i] = (struct val){ y[i], 1 };
	qsort(a, n, sizeof(*a), sb_cmp_double);
	for (i = 0; i < n; i = j) {
		double rank;

		for (j = i + 1; j < n && a[j].v == a[i].v; j++)
			;
		rank = (i + 1 + j) / 2.0;	/* mid-rank of positions i+1 .. j */
		if (j - i > 1) {
			double t = j - i;

			ties = true;
			tie_term += t * t * t - t;
		}
		for (int k = i; k < j; k++)
			if (a[k].side == 0)
				r1 += rank;
	}
	free(a);
	u1 = r1 - nx * (nx + 1) / 2.0;
	u2 = (double)nx * ny - u1;
	mu = nx * ny / 2.0;
	if (method == 1 || (method == 0 && (nx <= 8 || ny <= 8) && !ties)) {
		p = 2 * exact_sf(nx < ny ? nx : ny, nx < ny ? ny : nx, u1 > u2 ? u1 : u2);
	} else {
		s = sqrt(nx * ny / 12.0 * ((n + 1) - tie_term / ((double)n * (n - 1))));
		if (!(s > 0))
			return NAN;
		z = (fabs(u1 - mu) - 0.5) / s;
		p = erfc(z / sqrt(2.0));
	}
	return p > 1 ? 1 : p;
}

double sb_mann_whitney_p(const double *x, int nx, const double *y, int ny)
{
	return mwu(x, nx, y, ny, 0);
}

double sb_mann_whitney_p_asymptotic(const double *x, int nx, const double *y, int ny)
{
	return mwu(x, nx, y, ny, 2);
}

int sb_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* As GB's median aggregate (of an even count: the mean of the middle two) */
double sb_median(double *v, int n)
{
	if (n < 1)
		return NAN;
	qsort(v, n, sizeof(*v), sb_cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double sb_mann_whitney_min_p(int m, int n)
{
	double binom = 1;

	for (int k = 1; k <= m; k++)	/* C(m + n, m) */
		binom = binom * (n + k) / k;
	return 2 / binom;
}
