/* trend.c — trend.h: a comparison's verdicts along the thread counts, in words.
 * A run is a stretch of consecutive points of one class (changed up, changed
 * down, ~, no verdict); the notes look only at the changed points, so a sign
 * change or a shrink is never read from points within the noise. */
#include "tables/trend.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum cls { UNKNOWN, SAME, UP, DOWN };

static enum cls cls_of(const struct sb_trend_pt *p)
{
	if (p->verdict == SB_IV_SAME)
		return SAME;
	if (p->verdict != SB_IV_CHANGED || isnan(p->change))
		return UNKNOWN;
	return p->change > 0 ? UP : DOWN;
}

/* two changed effects of opposite signs */
static bool opposite(const struct sb_trend_pt *a, const struct sb_trend_pt *b)
{
#ifndef SB_TEST_TREND_BROKEN	/* tests/test_trend.c's broken fixture: the test flipped */
	return (a->change > 0) != (b->change > 0);
#else
	return (a->change > 0) == (b->change > 0);
#endif
}

static int by_threads(const void *x, const void *y)
{
	const struct sb_trend_pt *a = x, *b = y;

	if (a->threads != b->threads)
		return (a->threads > b->threads) - (a->threads < b->threads);
	return strcmp(a->place ? a->place : "", b->place ? b->place : "");
}

void sb_trend_sort(struct sb_trend_pt *p, int n)
{
	qsort(p, n, sizeof(*p), by_threads);
}

int sb_trend_nthreads(const struct sb_trend_pt *p, int n)
{
	int k = n > 0;

	for (int i = 1; i < n; i++)
		k += p[i].threads != p[i - 1].threads;
	return k;
}

/* the line being written: buf[0..k) of len */
struct out {
	char *buf;
	size_t len, k;
};

/* o->buf[k..len) gets the format; k stays below len (a cut line, never an overrun) */
static void put(struct out *o, const char *fmt, ...)
{
	size_t room = o->k + 1 < o->len ? o->len - o->k : 0;
	va_list ap;
	int r;

	va_start(ap, fmt);
	/* NOLINT: clang-tidy 14's valist checker loses the va_start above */
	r = room ? vsnprintf(o->buf + o->k, room, fmt, ap) : 0;	/* NOLINT */
	va_end(ap);
	if (r > 0)
		o->k = o->k + (size_t)r < o->len ? o->k + (size_t)r : o->len - 1;
}

/* "16", or "16 spread" where the places differ */
static void label(char *b, size_t n, const struct sb_trend_pt *p, bool places)
{
	snprintf(b, n, "%d%s%s", p->threads, places && p->place ? " " : "",
		 places && p->place ? p->place : "");
}

/* the run p[i..j] of class c: its words, range and, where needed, its points */
static void put_run(struct out *o, const struct sb_trend_pt *p, int n,
		    int i, int j, bool places)
{
	enum cls c = cls_of(&p[i]);
	bool list = c == UP || c == DOWN || j > i || places;
	char l[160];

	put(o, "%s", c == SAME ? "within the noise" : c == UNKNOWN ? "no verdict" :
	    "changed");
	if (p[i].threads == p[j].threads)
		put(o, " at %d thread%s", p[i].threads, p[i].threads == 1 ? "" : "s");
	else if (j == n - 1 && i > 0)
		put(o, " from %d threads", p[i].threads);
	else
		put(o, " at %d-%d threads", p[i].threads, p[j].threads);
	for (int m = i; list && m <= j; m++) {
		label(l, sizeof(l), &p[m], places);
		put(o, "%s", m == i ? " (" : ", ");
		if (c == UP || c == DOWN)
			put(o, "%s%s%+.1f %%", places ? l : "", places ? ": " : "",
			    p[m].change);
		else
			put(o, "%s", l);
	}
	if (list)
		put(o, ")");
}

/* among the changed points p[c[a..b]] (one sign), the largest then the smallest
 * after it: "; shrinks ..." where that is under half the largest */
static void put_shrink(struct out *o, const struct sb_trend_pt *p,
		       const int *c, int a, int b, bool places)
{
	int x = a, y;
	char lx[160], ly[160];

	for (int m = a + 1; m <= b; m++)
		if (fabs(p[c[m]].change) > fabs(p[c[x]].change))
			x = m;
	y = x;
	for (int m = x + 1; m <= b; m++)
		if (fabs(p[c[m]].change) < fabs(p[c[y]].change))
			y = m;
	if (y == x || !(fabs(p[c[y]].change) < fabs(p[c[x]].change) / 2))
		return;
	label(lx, sizeof(lx), &p[c[x]], places);
	label(ly, sizeof(ly), &p[c[y]], places);
	put(o, "; shrinks from %+.1f %% at %s to %+.1f %% at %s threads",
	    p[c[x]].change, lx, p[c[y]].change, ly);
}

/* the notes: sign changes between consecutive changed points, shrinks within
 * each stretch of changed points between them */
static void put_notes(struct out *o, const struct sb_trend_pt *p, int n,
		      bool places)
{
	int *c = malloc((size_t)(n > 0 ? n : 1) * sizeof(*c)), nc = 0, from = 0;
	char l1[160], l2[160];

	if (!c)
		return;
	for (int i = 0; i < n; i++)
		if (cls_of(&p[i]) == UP || cls_of(&p[i]) == DOWN)
			c[nc++] = i;
	for (int m = 1; m <= nc; m++) {
		if (m < nc && !opposite(&p[c[m - 1]], &p[c[m]]))
			continue;
		put_shrink(o, p, c, from, m - 1, places);
		if (m == nc)
			break;
		label(l1, sizeof(l1), &p[c[m - 1]], places);
		label(l2, sizeof(l2), &p[c[m]], places);
		put(o, "; changes sign between %s and %s threads", l1, l2);
		from = m;
	}
	free(c);
}

void sb_trend_line(char *buf, size_t len, const char *what, const struct sb_trend_pt *p, int n)
{
	struct out o = { buf, len, 0 };
	bool places = false;

	if (!len)
		return;
	buf[0] = '\0';
	for (int i = 1; i < n; i++)
		places |= strcmp(p[i].place ? p[i].place : "", p[0].place ? p[0].place : "") != 0;
	put(&o, "%s:", what);
	for (int i = 0, j; i < n; i = j + 1) {
		for (j = i; j + 1 < n && cls_of(&p[j + 1]) == cls_of(&p[i]); j++)
			;
		put(&o, "%s", i ? "; " : " ");
		put_run(&o, p, n, i, j, places);
	}
	put_notes(&o, p, n, places);
}
