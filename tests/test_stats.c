/* test_stats.c — the Mann-Whitney U p-value of `stratbench compare` and the
 * progress line.  Expected p-values were computed independently of
 * stats.c: the exact ones by enumerating every split of the pooled sample
 * (Python itertools.combinations), the asymptotic ones by the textbook
 * normal approximation with tie and continuity correction (Python
 * math.erfc); the first case is also scipy's documented mannwhitneyu
 * example (p = 0.1111111111111111 exact, 0.11134688653314041 asymptotic).
 * A p-value computed without the continuity correction, without the tie
 * correction, or by the wrong method for the case fails these. */
#include <math.h>
#include <string.h>

#include "console/console.h"
#include "results/results.h"

#include "check.h"

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

static void expect_p(const char *what, double got, double want)
{
	CHECK(fabs(got - want) < 1e-12 * (want > 1e-3 ? 1 : 1e3) + 1e-15,
	      "%s: p = %.17g, want %.17g", what, got, want);
}

static void mann_whitney(void)
{
	const double males[] = { 19, 22, 16, 29, 24 }, females[] = { 20, 11, 17, 12 };
	const double a[] = { 1, 2, 3 }, b[] = { 4, 5, 6 }, c[] = { 1, 3, 5 }, d[] = { 2, 4, 6 };
	const double e[] = { 10, 20, 30, 40 }, f[] = { 15, 25, 35, 45, 55 };
	const double g[] = { 1, 2, 2, 3 }, h[] = { 2, 3, 4, 5 };	/* ties */
	const double i[] = { 5, 5, 6 }, j[] = { 5, 7, 8 };		/* ties */
	const double k[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
	const double l[] = { 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5, 10.5, 11.5, 12.5 };
	const double same[] = { 7, 7, 7 };

	/* exact: no ties and a sample of at most 8 */
	expect_p("scipy docs example, exact", sb_mann_whitney_p(males, 5, females, 4),
		 0.1111111111111111);
	expect_p("scipy docs example, asymptotic",
		 sb_mann_whitney_p_asymptotic(males, 5, females, 4), 0.11134688653314041);
	expect_p("3 vs 3 separated", sb_mann_whitney_p(a, 3, b, 3), 0.1);
	expect_p("3 vs 3 separated, reversed", sb_mann_whitney_p(b, 3, a, 3), 0.1);
	expect_p("3 vs 3 interleaved", sb_mann_whitney_p(c, 3, d, 3), 0.7);
	expect_p("4 vs 5", sb_mann_whitney_p(e, N(e), f, N(f)), 0.41269841269841268);
	/* ties: asymptotic with tie correction */
	expect_p("4 vs 4 ties", sb_mann_whitney_p(g, 4, h, 4), 0.13665824773814753);
	expect_p("3 vs 3 ties", sb_mann_whitney_p(i, 3, j, 3), 0.35367851731846478);
	/* both above 8: asymptotic */
	expect_p("10 vs 10", sb_mann_whitney_p(k, 10, l, 10), 0.10410988966022679);
	CHECK(isnan(sb_mann_whitney_p(same, 3, same, 3)), "all tied: no test (NaN)");
	CHECK(isnan(sb_mann_whitney_p(a, 0, b, 3)), "empty sample: NaN");
}

static void progress_line(void)
{
	char buf[256];

	sb_progress_format(buf, sizeof(buf), 11, 48, "window/trylock/threads:8/place:scatter",
			   110.0);
	/* 11 done in 110 s: 37 left at 10 s each = 370 s */
	CHECK(strcmp(buf, "[12/48] window/trylock/threads:8/place:scatter … ETA 6m10s") == 0,
	      "progress: '%s'", buf);
	sb_progress_format(buf, sizeof(buf), 0, 3, "x", 0);
	CHECK(strcmp(buf, "[1/3] x …") == 0, "no ETA before the first result: '%s'", buf);
	sb_progress_format(buf, sizeof(buf), 1, 400, "x", 100);
	CHECK(strstr(buf, "ETA 11h05m") != NULL, "hours: '%s'", buf);
	sb_progress_format(buf, sizeof(buf), 2, 3, "x", 10);
	CHECK(strstr(buf, "ETA 5s") != NULL, "seconds: '%s'", buf);
}

int main(void)
{
	mann_whitney();
	progress_line();
	return check_done("test_stats");
}
