/* trend.h — tables/: where along the thread counts a comparison's verdict
 * appears, shrinks or changes sign, one line for people (summary.c: each paired
 * A/B comparison's metric, each family table's strategy against its reference).
 * Only the verdicts given are read (stats/interval.c's, a paired interval's):
 * none is drawn here, and a point without one is said as such. */
#ifndef STRATBENCH_TREND_H
#define STRATBENCH_TREND_H

#include <stddef.h>

#include "stats/stats.h"

/* One point of a comparison: B against A at threads and place. */
struct sb_trend_pt {
	int threads;
	const char *place;		/* named in the line only where the points' differ */
	double change;			/* %Change of B over A */
	enum sb_iv_verdict verdict;	/* CHANGED or SAME; FEW, NONE (and a preempted
					 * point, the caller's): "no verdict" there */
};

/* p[0..n) by threads, then place */
void sb_trend_sort(struct sb_trend_pt *p, int n);
/* how many thread counts p[0..n) (sorted) has */
int sb_trend_nthreads(const struct sb_trend_pt *p, int n);

/* Into buf (cut at len), for p[0..n) sorted, the runs of one verdict in order:
 * "WHAT: changed at 1-2 threads (-2.4 %, -2.9 %); within the noise from 4 threads
 * (4, 8, 16)" ("no verdict at 8 threads" for the others; "from" for the last run
 * when it does not start at the first point), then "; changes sign between X and Y
 * threads" where two changed points, with only unchanged or unknown ones between,
 * have opposite signs, and "; shrinks from A % at X to B % at Y threads" where
 * among changed points of one sign the largest effect is followed by one under
 * half of it (the smallest after it).  A point's label is "16", or "16 spread"
 * where the places differ. */
void sb_trend_line(char *buf, size_t len, const char *what, const struct sb_trend_pt *p, int n);

#endif
