/* fig_lock.c — lock-latency-<placement>: the lock family's sampled acquisition wait against
 * threads, p50 (solid) and p99 (dashed) of each lock in one colour, log y.
 *
 * One acquisition in 256 is timed by two cycle-counter reads around lock() into a histogram of
 * 4 buckets per power of two (drivers/lock_bench.c, stratbench/lock.h); p50 and p99 are bucket
 * midpoints.  So no wait reads below the counter reads plus an uncontended acquire: a p50 there
 * (tas, ttas, pthread_spin at 2 threads on a small machine) says "not resolved", not "10 ns".
 * The figure draws that floor, the run's smallest p50, and names it. */
#include "figures/figure.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const parts[] = { "p50", "p99", NULL };

static bool in_figure(const struct sb_bm *b, const struct sb_bm *like)
{
	return b->has_point && !strcmp(b->pt.family, "lock") &&
	       (!like || !strcmp(b->pt.placement, like->pt.placement));
}

/* the smallest p50 of the run's lock points: the timing floor */
static double floor_ns(const struct sb_results *r)
{
	double lo = INFINITY;

	for (int i = 0; i < r->n; i++) {
		struct sb_stat s;

		if (!in_figure(&r->bm[i], NULL))
			continue;
		sb_bm_stat(&r->bm[i], "wait_p50_ns", &s);
		if (s.n && s.median > 0)
			lo = fmin(lo, s.median);
	}
	return lo;
}

/* the cycle counter's own cost, when the run calibrated it */
static double counter_read_ns(const struct sb_results *r)
{
	for (int i = 0; i < r->n; i++) {
		const struct sb_bm *b = &r->bm[i];
		const char *op = b->has_point ? sb_params_get(&b->pt.params, "op") : NULL;
		struct sb_stat s;

		if (!op || strcmp(b->pt.family, "calibrate") || strcmp(b->pt.strategy, "uncontended") ||
		    strcmp(op, "cycles"))
			continue;
		sb_bm_stat(b, "ns_per_op", &s);
		return s.n ? s.median : NAN;
	}
	return NAN;
}

static int draw(struct sb_plot *p, const struct sb_bm *like)
{
	struct sb_lines ls = {
		.xkey = "threads", .parts = parts, .npanels = 1, .logy = { true },
		.xlabel = "threads (log2 scale)",
		.ylabel = { "wait to acquire, ns (sampled 1 in 256; log scale)" },
		.nnote = 2, .note = { "solid: p50 (median wait)", "dashed: p99" },
		.notedt = { 1, 2 },
	};
	char name[300], how[600], one[100] = "";
	double cyc = counter_read_ns(p->r), fl = floor_ns(p->r);

	for (int i = 0; i < p->r->n; i++)
		if (in_figure(&p->r->bm[i], like)) {
			sb_lines_add(&ls, &p->r->bm[i], 0, 0, "wait_p50_ns", p->cv_threshold);
			sb_lines_add(&ls, &p->r->bm[i], 1, 0, "wait_p99_ns", p->cv_threshold);
		}
	if (isfinite(fl)) {
		ls.nref = 1;
		ls.refy[0] = fl;
		snprintf(ls.refkey[0], sizeof(ls.refkey[0]), "timing floor %.3g ns", fl);
		snprintf(ls.reflabel[0], sizeof(ls.reflabel[0]), "timing floor %.3g ns = the "
			 "smallest p50: a wait is timed by two cycle-counter reads, none reads "
			 "below it", fl);
	}
	snprintf(name, sizeof(name), "lock-latency-%s", like->pt.placement);
	if (isfinite(cyc))
		snprintf(one, sizeof(one), " (one read: %.3g ns, calibrate/uncontended op=cycles)",
			 cyc);
	snprintf(how, sizeof(how), "p50 and p99 are histogram buckets (4 per power of two) of "
		 "sampled acquisitions; the dashed horizontal line is the timing floor, the "
		 "smallest p50 of the run: a p50 on it is the cost of the cycle-counter reads%s "
		 "around an uncontended acquire, not resolved; a red circle marks a CV above "
		 "%g %%.", one, p->cv_threshold);
	return sb_lines_draw(p, &ls, name, "lock: sampled acquisition wait against threads",
			     NULL, how);
}
SB_FIGURE_EACH(in_figure, draw, SB_FIG_RESULTS, 20)
