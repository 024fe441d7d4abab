/* test_trend.c — tables/trend.c, a comparison's verdicts along the thread counts
 * in one line, against lines known by hand: the issue's example (changed at 1 and
 * 2 threads, ~ from 4), an effect appearing at 8, a sign change (only where both
 * sides are changed: not across ~ alone), a shrink by more than half (not by
 * less), all ~, points with no verdict (n too small, n/a), places named where
 * they differ, the sort, a short buffer cut and terminated.
 *
 * Built twice: test_trend, which must pass, and test_trend_broken
 * (SB_TEST_TREND_BROKEN: the sign test flipped), the broken fixture, which must
 * fail (CTest WILL_FAIL): it finds no sign change where there is one, and one
 * where the signs agree. */
#include <math.h>
#include <string.h>

#include "tables/trend.h"

#include "check.h"

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define C SB_IV_CHANGED
#define S SB_IV_SAME
#define F SB_IV_FEW

static void expect(const char *name, const struct sb_trend_pt *p, int n, const char *want)
{
	char buf[1024];

	sb_trend_line(buf, sizeof(buf), "spinlock -> trylock, ops/s", p, n);
	CHECK(!strcmp(buf, want), "%s:\n  got  '%s'\n  want '%s'", name, buf, want);
}

static void known_lines(void)
{
	const struct sb_trend_pt issue[] = { { 1, "compact", -2.4, C }, { 2, "compact", -2.9, C },
		{ 4, "compact", 0.2, S }, { 8, "compact", -0.6, S }, { 16, "compact", 0.1, S } };
	const struct sb_trend_pt appears[] = { { 1, "compact", 0.3, S }, { 2, "compact", -0.1, S },
		{ 4, "compact", 0.5, S }, { 8, "compact", 6.0, C }, { 16, "compact", 7.5, C } };
	const struct sb_trend_pt sign[] = { { 1, "compact", -3.0, C }, { 2, "compact", 0.4, S },
		{ 4, "compact", 5.0, C } };
	const struct sb_trend_pt shrink[] = { { 4, "compact", 11.1, C }, { 8, "compact", 9.7, C },
		{ 16, "compact", 4.7, C } };
	const struct sb_trend_pt less[] = { { 4, "compact", 11.1, C }, { 8, "compact", 9.7, C },
		{ 16, "compact", 6.0, C } };
	const struct sb_trend_pt same[] = { { 1, "compact", 0.2, S }, { 2, "compact", -0.6, S },
		{ 4, "compact", 0.1, S } };
	const struct sb_trend_pt unknown[] = { { 1, "compact", -2.4, C }, { 2, "compact", NAN, F },
		{ 4, "compact", NAN, SB_IV_NONE }, { 8, "compact", 0.1, S } };

	expect("the issue's example", issue, N(issue), "spinlock -> trylock, ops/s: changed at "
	       "1-2 threads (-2.4 %, -2.9 %); within the noise from 4 threads (4, 8, 16)");
	expect("appears at 8", appears, N(appears), "spinlock -> trylock, ops/s: within the "
	       "noise at 1-4 threads (1, 2, 4); changed from 8 threads (+6.0 %, +7.5 %)");
	expect("changes sign across ~", sign, N(sign), "spinlock -> trylock, ops/s: changed at "
	       "1 thread (-3.0 %); within the noise at 2 threads; changed at 4 threads (+5.0 %); "
	       "changes sign between 1 and 4 threads");
	expect("shrinks by more than half", shrink, N(shrink), "spinlock -> trylock, ops/s: "
	       "changed at 4-16 threads (+11.1 %, +9.7 %, +4.7 %); shrinks from +11.1 % at 4 to "
	       "+4.7 % at 16 threads");
	expect("shrinks by less than half: no note", less, N(less), "spinlock -> trylock, ops/s: "
	       "changed at 4-16 threads (+11.1 %, +9.7 %, +6.0 %)");
	expect("all within the noise", same, N(same), "spinlock -> trylock, ops/s: within the "
	       "noise at 1-4 threads (1, 2, 4)");
	expect("unknowns", unknown, N(unknown), "spinlock -> trylock, ops/s: changed at 1 thread "
	       "(-2.4 %); no verdict at 2-4 threads (2, 4); within the noise at 8 threads");
}

/* a sign change between neighbours, places differing, the sort; same signs with ~
 * between them: no note (the broken build says one) */
static void places_and_sort(void)
{
	struct sb_trend_pt p[] = { { 4, "spread", 2.0, C }, { 2, "compact", -1.5, C },
		{ 4, "compact", -1.0, C } };
	const struct sb_trend_pt agree[] = { { 1, "compact", 2.0, C }, { 2, "compact", 0.1, S },
		{ 4, "compact", 1.8, C } };

	sb_trend_sort(p, N(p));
	CHECK(p[0].threads == 2 && !strcmp(p[1].place, "compact"), "sort: threads, then place");
	CHECK(sb_trend_nthreads(p, N(p)) == 2, "2 thread counts, got %d", sb_trend_nthreads(p, N(p)));
	expect("places differ", p, N(p), "spinlock -> trylock, ops/s: changed at 2-4 threads "
	       "(2 compact: -1.5 %, 4 compact: -1.0 %); changed at 4 threads (4 spread: +2.0 %); "
	       "changes sign between 4 compact and 4 spread threads");
	expect("same signs across ~: no sign note", agree, N(agree), "spinlock -> trylock, ops/s: "
	       "changed at 1 thread (+2.0 %); within the noise at 2 threads; changed at 4 threads "
	       "(+1.8 %)");
}

static void short_buffer(void)
{
	const struct sb_trend_pt p[] = { { 1, "compact", -2.4, C }, { 2, "compact", 0.1, S } };
	char buf[24];

	memset(buf, 'x', sizeof(buf));
	sb_trend_line(buf, sizeof(buf), "spinlock -> trylock, ops/s", p, N(p));
	CHECK(buf[sizeof(buf) - 1] == '\0' && strlen(buf) == sizeof(buf) - 1,
	      "cut at the buffer, terminated: '%.*s'", (int)sizeof(buf), buf);
}

int main(void)
{
	known_lines();
	places_and_sort();
	short_buffer();
	return check_done("test_trend");
}
