/* console_order.c — console.h's row order: within a family's table, by strategy
 * (and lock) in the plan's order, then threads, then the plan's order (placement,
 * parameters).  Why not the arrival order: an interleaved run
 * (--benchmark_enable_random_interleaving) finishes its benchmarks at random, and
 * a table read in that order hides what it compares. */
#include "console/console.h"
#include "results/point.h"

#include <string.h>

/* the plan index of the first point of f's family with f's strategy and lock */
static int strategy_index(const struct sb_point_fields *f)
{
	for (int i = 0; i < sb_points_count(); i++) {
		const struct sb_point_fields *p = sb_points_at(i);

		if (!strcmp(p->family, f->family) && !strcmp(p->strategy, f->strategy) &&
		    !strcmp(p->lock, f->lock))
			return i;
	}
	return sb_points_count();
}

static int plan_index(const struct sb_point_fields *f)
{
	for (int i = 0; i < sb_points_count(); i++)
		if (sb_points_at(i) == f)
			return i;
	return sb_points_count();
}

/* p before q: strategy, threads, plan order */
static bool before(const struct sb_point_fields *p, const struct sb_point_fields *q)
{
	int sp = strategy_index(p), sq = strategy_index(q);

	if (sp != sq)
		return sp < sq;
	if (p->threads != q->threads)
		return p->threads < q->threads;
	return plan_index(p) < plan_index(q);
}

int sb_console_rank(const struct sb_point_fields *f)
{
	int rank = 0;

	for (int i = 0; i < sb_points_count(); i++) {
		const struct sb_point_fields *p = sb_points_at(i);

		rank += p != f && !sb_points_done_at(i) && !strcmp(p->family, f->family) &&
			before(p, f);
	}
	return rank;
}
