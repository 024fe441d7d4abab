/* test_paired.c — the paired A/B statistics of bench/stats/paired.c
 * (docs/precision.md) against answers computed independently of it by
 * tests/fixtures/paired_fixture.py (Python's standard library only: the
 * signed-rank null distribution by enumerating all 2^n sign patterns, the
 * Walsh averages listed and sorted; its output is pasted below), and
 * against the published critical values of the signed-rank test (n = 10:
 * 8, n = 20: 52 at two-sided 0.05).  Each check is shown to fail on a
 * broken fixture: the interval read one rank off (k-1, k+1), at the wrong
 * quantile (90 %), the p-value of the other method, the critical value
 * one off. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results/ab.h"
#include "stats/paired.h"

#include "check.h"

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

static bool close_to(double got, double want, double rel)
{
	return fabs(got - want) <= rel * fabs(want) + 1e-15;
}

/* --- the known answers (paired_fixture.py's output) ----------------------- */

/* critical k = qsignrank(0.025, n), n = 6..20 */
static const int k_table[] = { 1, 3, 4, 6, 9, 11, 14, 18, 22, 26, 30, 35, 41, 47, 53 };
/* P(T <= x): n=5,x=0; n=10,x=8; n=10,x=9; n=20,x=52 */
static const double cdf_5_0 = 0.03125, cdf_10_8 = 0.0244140625, cdf_10_9 = 0.0322265625,
		    cdf_20_52 = 0.024220466613769531;
/* the fixture: 10 pairs, ratios r over a, no ties, no zeros; k = 9, M = 55 */
static const double fx_r[] = { 1.02, 0.99, 1.05, 1.01, 1.03, 0.975, 1.04, 1.005, 1.06, 1.015 };
static const double fx_a[] = { 100, 102, 98, 101, 99, 100, 103, 97, 100, 101 };
struct answer {
	const char *what;
	double ratio, lo, hi;
};
static const struct answer fx_right = { "right", 1.0195587280779856, 0.99994999874993751,
					1.0398076745244766 };
/* broken fixtures: one rank off, the 90 % interval (the wrong quantile) */
static const struct answer fx_broken[] = {
	{ "k-1", 1.0195587280779856, 0.9974718041127778, 1.0399519219656264 },
	{ "k+1", 1.0195587280779856, 1.002122746972645, 1.0372559954032563 },
	{ "90 %", 1.0195587280779856, 1.0024220667962174, 1.0349879226348488 },
};
static const double fx_coverage = 0.951171875, fx_p = 0.064453125;
/* log ratios with ties and a zero: normal approximation, V = 56 over 11 */
static const double ties_d[] = { 0.01, 0.01, -0.02, 0.03, 0.01, 0.0, 0.02, -0.01, 0.02, 0.03,
				 0.01, 0.04 };
static const double ties_p = 0.042798498630346259;

/* the result matches the answer: ratio and both bounds to 1e-12 */
static bool matches(const struct sb_paired *s, const struct answer *a)
{
	return close_to(s->ratio, a->ratio, 1e-12) && close_to(s->lo, a->lo, 1e-12) &&
	       close_to(s->hi, a->hi, 1e-12);
}

static void critical_values(void)
{
	bool exact;

	check_phase("critical values");
	for (int n = 6; n <= 20; n++) {
		int k = sb_signrank_k(n, 0.05, &exact);

		CHECK(k == k_table[n - 6] && exact, "n=%d: k=%d, want %d", n, k, k_table[n - 6]);
	}
	/* the published tables: critical T = k - 1 */
	CHECK(sb_signrank_k(10, 0.05, &exact) - 1 == 8, "n=10: critical 8");
	CHECK(sb_signrank_k(20, 0.05, &exact) - 1 == 52, "n=20: critical 52");
	CHECK(close_to(sb_signrank_cdf(5, 0), cdf_5_0, 1e-12), "cdf(5,0)");
	CHECK(close_to(sb_signrank_cdf(10, 8), cdf_10_8, 1e-12), "cdf(10,8)");
	CHECK(close_to(sb_signrank_cdf(10, 9), cdf_10_9, 1e-12), "cdf(10,9)");
	CHECK(close_to(sb_signrank_cdf(20, 52), cdf_20_52, 1e-12), "cdf(20,52)");
	CHECK(sb_signrank_cdf(20, -1) == 0 && sb_signrank_cdf(20, 210) == 1, "cdf ends");
	/* broken fixture: a table one off must not match */
	CHECK(sb_signrank_k(20, 0.05, &exact) != k_table[14] - 1 &&
	      sb_signrank_k(20, 0.05, &exact) != k_table[14] + 1, "k one off passes");
	/* normal approximation (n = 401): within one rank of the exact k, 35750,
	 * which paired_fixture.py's author computed with Python's exact
	 * integer recursion (2^401 patterns cannot be enumerated) */
	{
		int kn = sb_signrank_k(SB_SIGNRANK_EXACT_MAX + 1, 0.05, &exact);

		CHECK(!exact && abs(kn - 35750) <= 1, "n=401 normal: k=%d, exact 35750", kn);
	}
}

static void known_interval(void)
{
	double b[N(fx_r)];
	struct sb_paired s;

	check_phase("known interval");
	for (int i = 0; i < N(fx_r); i++)
		b[i] = fx_a[i] * fx_r[i];
	CHECK(sb_paired_ratio(fx_a, b, N(fx_r), 0.95, &s) == 0, "computed");
	CHECK(matches(&s, &fx_right), "ratio %.17g [%.17g, %.17g], want %.17g [%.17g, %.17g]",
	      s.ratio, s.lo, s.hi, fx_right.ratio, fx_right.lo, fx_right.hi);
	CHECK(s.k == 9 && s.exact && s.n == 10, "k=%d", s.k);
	CHECK(close_to(s.coverage, fx_coverage, 1e-12), "coverage %.17g", s.coverage);
	CHECK(close_to(s.p, fx_p, 1e-12), "p %.17g, want %.17g", s.p, fx_p);
	/* the broken fixtures: each must fail the same check */
	for (int i = 0; i < N(fx_broken); i++)
		CHECK(!matches(&s, &fx_broken[i]), "broken fixture %s passes", fx_broken[i].what);
	CHECK(!close_to(s.p, ties_p, 1e-12), "the other method's p passes");
	/* the interval at 90 % is the 90 % fixture */
	CHECK(sb_paired_ratio(fx_a, b, N(fx_r), 0.90, &s) == 0 && s.k == 11 &&
	      close_to(s.lo, fx_broken[2].lo, 1e-12) && close_to(s.hi, fx_broken[2].hi, 1e-12),
	      "90 %%: k=%d [%.17g, %.17g]", s.k, s.lo, s.hi);
	/* B/A reversed: the interval of 1/r is the reciprocal one */
	CHECK(sb_paired_ratio(b, fx_a, N(fx_r), 0.95, &s) == 0 &&
	      close_to(s.ratio, 1 / fx_right.ratio, 1e-12) && close_to(s.lo, 1 / fx_right.hi, 1e-12) &&
	      close_to(s.hi, 1 / fx_right.lo, 1e-12), "reversed");
}

static void ties_and_equal(void)
{
	double a[N(ties_d)], b[N(ties_d)], one[30], same[30];
	struct sb_paired s;

	check_phase("ties and equal ratios");
	for (int i = 0; i < N(ties_d); i++) {
		/* ratios 2^(100 d): the same ranks as d, and ties that stay
		 * exact through log() (log 2^-k = -log 2^k, correctly rounded) */
		a[i] = 1;
		b[i] = ldexp(1, (int)lround(ties_d[i] * 100));
	}
	CHECK(sb_paired_ratio(a, b, N(ties_d), 0.95, &s) == 0, "computed");
	CHECK(close_to(s.p, ties_p, 1e-9), "ties: p %.17g, want %.17g", s.p, ties_p);
	/* every ratio 1.05: a zero-width interval at 1.05 */
	for (int i = 0; i < 30; i++) {
		one[i] = 1000 + i;
		same[i] = 1.05 * one[i];
	}
	CHECK(sb_paired_ratio(one, same, 30, 0.95, &s) == 0, "computed");
	CHECK(close_to(s.ratio, 1.05, 1e-12) && close_to(s.lo, 1.05, 1e-12) &&
	      close_to(s.hi, 1.05, 1e-12) && sb_paired_half_pct(&s) < 1e-9,
	      "equal: %.17g [%.17g, %.17g]", s.ratio, s.lo, s.hi);
	CHECK(s.p < 1e-5, "equal 1.05: p %.3g", s.p);
	/* every ratio 1: no change, p = 1 */
	CHECK(sb_paired_ratio(one, one, 30, 0.95, &s) == 0 && s.ratio == 1 && s.lo == 1 &&
	      s.hi == 1 && s.p == 1, "no change: %g [%g, %g] p %g", s.ratio, s.lo, s.hi, s.p);
	CHECK(close_to(sb_pct_change(1.012), 1.2, 1e-9), "pct change");
	/* bad input */
	a[0] = 0;
	CHECK(sb_paired_ratio(a, b, N(ties_d), 0.95, &s) == -1, "a zero refused");
	a[0] = NAN;
	CHECK(sb_paired_ratio(a, b, N(ties_d), 0.95, &s) == -1, "NaN refused");
	CHECK(sb_paired_ratio(b, b, 0, 0.95, &s) == -1, "no pairs refused");
	CHECK(sb_paired_ratio(b, b, 3, 1.5, &s) == -1, "conf out of range refused");
}

/* The line people read: the percentages of the fixture, and the stop lines. */
static void format(void)
{
	struct sb_ab_cmp c = { 0 };
	char line[1024];

	check_phase("format");
	snprintf(c.a_spec, sizeof(c.a_spec), "spinlock");
	snprintf(c.b_spec, sizeof(c.b_spec), "trylock");
	snprintf(c.a.family, sizeof(c.a.family), "window");
	snprintf(c.a.placement, sizeof(c.a.placement), "compact");
	c.a.threads = 1;
	c.pairs = 46;
	c.elapsed_s = 38;
	c.nmetrics = 1;
	snprintf(c.m[0].name, sizeof(c.m[0].name), "ops_per_s");
	c.m[0].st = (struct sb_paired){ .n = 46, .ratio = 1.012, .lo = 0.997, .hi = 1.028,
					.conf = 0.95, .p = 0.041 };
	sb_ab_format_line(&c, line, sizeof(line));
	CHECK(!strcmp(line, "spinlock -> trylock (window, threads:1, place:compact), 46 pairs: "
		      "ops_per_s +1.2 % [-0.3, +2.8] 95 % CI, p=0.041"), "line: %s", line);
	c.stop = SB_AB_PRECISION;
	c.precision_pct = 2;
	sb_ab_format_stop(&c, line, sizeof(line));
	CHECK(!strncmp(line, "reached ±1.5 % after 46 pairs in 38 s", 37), "stop: %s", line);
	c.stop = SB_AB_MAX_TIME;
	c.max_time_s = 120;
	sb_ab_format_stop(&c, line, sizeof(line));
	CHECK(strstr(line, "stopped at --max-time=120 s with ±1.5 % after 46 pairs in 38 s: the "
		     "comparison cannot resolve effects below 1.5 % here") != NULL, "stop: %s", line);
}

int main(void)
{
	check_watchdog("test_paired", 60);
	critical_values();
	known_interval();
	ties_and_equal();
	format();
	return check_done("test_paired");
}
