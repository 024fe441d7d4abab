/* test_interval.c — stats/interval.c, the unpaired interval of a %Change and its
 * verdict, against answers known without it.  At 3 repetitions a side every
 * extreme of a resampled median of 3 has probability 7/27, so the pair
 * (lowest new, highest old) has (7/27)^2 = 6.7 % > 2.5 % and the percentile
 * interval is exactly [min new / max old - 1, max new / min old - 1]: its bounds
 * are checked to 1e-9.  Then: clearly separated samples are changed, overlapping
 * ones ~, fewer than 3 a side "n too small: need 3" (never ~), an old median of
 * 0 no interval, an old 0 in one repetition an unbounded one; the same input gives the same bytes, in any order.
 *
 * Built twice: test_interval, which must pass, and test_interval_one_sided
 * (SB_TEST_ONE_SIDED: interval.c ignoring old's spread), the broken fixture,
 * which must fail (CTest WILL_FAIL): the overlapping case reads changed there. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "stats/stats.h"

#include "check.h"

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

static struct sb_interval iv_of(const double *x, int m, const double *y, int n)
{
	struct sb_interval iv;

	CHECK(sb_interval_unpaired(x, m, y, n, &iv) == 0, "interval: out of memory");
	return iv;
}

static void known_bounds(void)
{
	const double old[] = { 1.00, 1.005, 0.995 }, new[] = { 0.002, 0.00201, 0.00199 };
	const double a[] = { 99, 100, 101 }, b[] = { 109, 110, 111 };
	struct sb_interval iv = iv_of(old, 3, new, 3);
	char buf[96];

	CHECK(fabs(iv.lo - 100 * (0.00199 / 1.005 - 1)) < 1e-9, "separated: lo %.12g", iv.lo);
	CHECK(fabs(iv.hi - 100 * (0.00201 / 0.995 - 1)) < 1e-9, "separated: hi %.12g", iv.hi);
	CHECK(iv.verdict == SB_IV_CHANGED, "1.00 +-0.5 %% vs 0.002: changed, got %d", iv.verdict);
	sb_interval_fmt(buf, sizeof(buf), &iv);
	CHECK(!strcmp(buf, "[-99.8, -99.8] changed"), "separated: '%s'", buf);
	iv = iv_of(a, 3, b, 3);
	CHECK(fabs(iv.lo - 100 * (109.0 / 101 - 1)) < 1e-9 &&
	      fabs(iv.hi - 100 * (111.0 / 99 - 1)) < 1e-9, "+10 %%: [%g, %g]", iv.lo, iv.hi);
	sb_interval_fmt(buf, sizeof(buf), &iv);
	CHECK(!strcmp(buf, "[+7.92, +12.1] changed"), "+10 %%: '%s'", buf);
	iv = iv_of(b, 3, a, 3);	/* the other way: the reciprocal ratios */
	CHECK(fabs(iv.lo - 100 * (99.0 / 111 - 1)) < 1e-9 && iv.verdict == SB_IV_CHANGED,
	      "-9 %%: [%g, %g]", iv.lo, iv.hi);
}

static void verdicts(void)
{
	const double x[] = { 90, 100, 110 }, y[] = { 103, 104, 105 };
	const double p[] = { 10, 12, 11, 13, 9, 10.5, 11.5 }, q[] = { 11, 10, 12, 10.5, 11.5, 9.5 };
	const double one[] = { 1 }, tiny[] = { 0.002 }, two[] = { 1, 1.01 };
	const double zero[] = { 0, 0, 1 }, some0[] = { 0, 1, 1 }, nan3[] = { 1, NAN, 1 };
	struct sb_interval iv;
	char buf[96];

	/* +4 % by the medians, but old spans 90..110: the interval holds 0 */
	iv = iv_of(x, 3, y, 3);
	CHECK(iv.verdict == SB_IV_SAME && iv.lo < 0 && iv.hi > 0, "overlapping: ~, got %d [%g, %g]",
	      iv.verdict, iv.lo, iv.hi);
	CHECK(!strcmp(sb_interval_word(&iv), "~"), "overlapping: the word ~");
	iv = iv_of(p, N(p), q, N(q));	/* one distribution, interleaved */
	CHECK(iv.verdict == SB_IV_SAME, "interleaved 7 vs 6: ~, got %d [%g, %g]", iv.verdict,
	      iv.lo, iv.hi);
	iv = iv_of(one, 1, tiny, 1);
	sb_interval_fmt(buf, sizeof(buf), &iv);
	CHECK(iv.verdict == SB_IV_FEW && iv.need == 3 && isnan(iv.lo), "n = 1: too small");
	CHECK(!strcmp(buf, "n too small: need 3"), "n = 1: '%s'", buf);
	iv = iv_of(two, 2, x, 3);
	CHECK(iv.verdict == SB_IV_FEW, "2 vs 3: too small, got %d", iv.verdict);
	iv = iv_of(x, 3, one, 0);
	CHECK(iv.verdict == SB_IV_FEW, "3 vs none: too small, got %d", iv.verdict);
	iv = iv_of(zero, 3, x, 3);
	CHECK(iv.verdict == SB_IV_NONE && !strcmp(sb_interval_word(&iv), "n/a"),
	      "an old median of 0: no %%Change, n/a");
	/* a count 0 in one repetition of each side: 0/0 no change, 1/0 unbounded */
	iv = iv_of(some0, 3, some0, 3);
	sb_interval_fmt(buf, sizeof(buf), &iv);
	CHECK(iv.verdict == SB_IV_SAME && !strcmp(buf, "[-100, +inf] ~"), "0, 1, 1 twice: '%s'",
	      buf);
	iv = iv_of(x, 3, nan3, 3);
	CHECK(iv.verdict == SB_IV_NONE, "a NaN: n/a");
}

static bool same_bits(double a, double b)
{
	uint64_t x, y;

	memcpy(&x, &a, sizeof(x));
	memcpy(&y, &b, sizeof(y));
	return x == y;
}

/* same bytes twice, and in any order (5 and 7 values: not a 3-a-side closed form) */
static void determinism(void)
{
	const double a[] = { 5.1, 4.8, 5.3, 4.9, 5.6 }, b[] = { 5.9, 5.2, 6.4, 5.5, 6.1, 5.0, 6.0 };
	const double ra[] = { 5.6, 4.9, 5.3, 4.8, 5.1 }, rb[] = { 6.0, 5.0, 6.1, 5.5, 6.4, 5.2, 5.9 };
	struct sb_interval i1 = iv_of(a, N(a), b, N(b)), i2 = iv_of(a, N(a), b, N(b));
	struct sb_interval i3 = iv_of(ra, N(ra), rb, N(rb));
	char s1[96], s2[96], s3[96];

	sb_interval_fmt(s1, sizeof(s1), &i1);
	sb_interval_fmt(s2, sizeof(s2), &i2);
	sb_interval_fmt(s3, sizeof(s3), &i3);
	CHECK(same_bits(i1.lo, i2.lo) && same_bits(i1.hi, i2.hi),
	      "twice: %.17g %.17g vs %.17g %.17g", i1.lo, i1.hi, i2.lo, i2.hi);
	CHECK(!strcmp(s1, s2) && !strcmp(s1, s3), "twice, shuffled: '%s' '%s' '%s'", s1, s2, s3);
	CHECK(same_bits(i1.lo, i3.lo) && same_bits(i1.hi, i3.hi),
	      "shuffled: %.17g %.17g vs %.17g %.17g", i1.lo, i1.hi, i3.lo, i3.hi);
	CHECK(i1.lo < 100 * (5.9 / 5.1 - 1) && i1.hi > 100 * (5.9 / 5.1 - 1),
	      "the interval holds the estimate: [%g, %g]", i1.lo, i1.hi);
}

int main(void)
{
	known_bounds();
	verdicts();
	determinism();
	return check_done("test_interval");
}
