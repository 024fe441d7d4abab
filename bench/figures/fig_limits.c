/* fig_limits.c — <family>-of-limit (-of-scaling): throughput as a fraction of the point's limit_ops
 * (docs/calibrate.md, bench/run/limits.h) against threads, the reference at 1 named.
 *
 * A point's limit follows from its family and strategy, as the drivers report it
 * (sb_limits_report): a lock writes its line every call, a window policy declares shared_write
 * in its table.  A shared write is bounded by the cheapest uncontended atomic RMW at 1 thread.
 * At 2 or more the drivers' limit is 1 / the mean one-way line transfer, a "fair-handoff bound"
 * that counts one transfer per handoff; a lock's handoff makes several (the releaser takes the
 * line back from the spinning waiters, the waiter reads it, the next ticket or tail moves on:
 * the default suite's FIFO locks ran 2.5-7.3x below it).  No point knows how many its lock
 * makes, so no bound is drawn there: those points are left out, said once in the key.
 * Anything else has its scaling reference, T x its 1-thread rate: no hardware bound (no
 * of_limit at 1 thread); a figure of those alone is <family>-of-scaling, as its title says. */
#include "figures/figure.h"

#include <stratbench/window.h>

#include <string.h>

enum kind { K_RMW = 1, K_HANDOFF = 2, K_SCALING = 4, K_UNKNOWN = 8 };

static enum kind kind_of(const struct sb_point_fields *f)
{
	const struct sb_window_policy *w;

	if (!strcmp(f->family, "lock"))
		return f->threads == 1 ? K_RMW : K_HANDOFF;
	if (strcmp(f->family, "window") || !(w = sb_window_find(f->strategy)))
		return K_UNKNOWN;
	if (w->shared_write)
		return f->threads == 1 ? K_RMW : K_HANDOFF;
	return K_SCALING;
}

/* the axis, the key and the line's label say which limit 1 is */
static void name_reference(struct sb_lines *ls, unsigned kinds)
{
	ls->nref = 1;
	ls->refy[0] = 1;
	if (kinds == K_SCALING) {
		ls->ylabel[0] = "ops/s ÷ scaling reference (T × its 1-thread ops/s)";
		snprintf(ls->refkey[0], sizeof(ls->refkey[0]), "1 = scaling reference");
		snprintf(ls->reflabel[0], sizeof(ls->reflabel[0]), "scaling reference: T × the same "
			 "benchmark's 1-thread ops/s in this run (not a hardware bound)");
	} else if (kinds == K_RMW) {
		ls->ylabel[0] = "of_limit = ops/s ÷ limit_ops";
		snprintf(ls->refkey[0], sizeof(ls->refkey[0]), "1 = limit_ops: uncontended rmw");
		snprintf(ls->reflabel[0], sizeof(ls->reflabel[0]), "1 thread: 1 ÷ the cheapest "
			 "uncontended atomic RMW");
	} else {
		ls->ylabel[0] = "of_limit = ops/s ÷ limit_ops (see docs/calibrate.md)";
		snprintf(ls->refkey[0], sizeof(ls->refkey[0]), "1 = limit_ops");
		snprintf(ls->reflabel[0], sizeof(ls->reflabel[0]), "limit_ops: rmw or scaling "
			 "reference by point (see docs/calibrate.md)");
	}
}

static bool in_figure(const struct sb_bm *b, const struct sb_bm *like)
{
	return b->has_point && strcmp(b->pt.family, "calibrate") &&
	       (!like || !strcmp(b->pt.family, like->pt.family));
}

static int draw(struct sb_plot *p, const struct sb_bm *like)
{
	static const char *const skip[] = { "mode", NULL };
	const char *family = like->pt.family;
	struct sb_lines ls = { .xkey = "threads", .skip = skip, .npanels = 1,
			       .xlabel = "threads (log2 scale)", .yfmt = { "%g" } };
	char name[200], what[200], how[400];
	unsigned kinds = 0;

	bool handoff = false;

	for (int i = 0; i < p->r->n; i++) {
		const struct sb_bm *b = &p->r->bm[i];

		if (!in_figure(b, like))
			continue;
		if (kind_of(&b->pt) == K_HANDOFF) {	/* no bound we can stand by */
			struct sb_stat s;

			sb_bm_stat(b, "of_limit", &s);
			handoff |= s.n > 0;
		} else if (sb_lines_add(&ls, b, 0, 0, "of_limit", p->cv_threshold) > 0) {
			kinds |= kind_of(&b->pt);
		}
	}
	if (handoff) {
		ls.note[ls.nnote] = ">= 2 threads: no bound, not drawn";
		ls.notedt[ls.nnote++] = 0;
	}
	name_reference(&ls, kinds);
	/* the name says what 1 is, as the title does */
	snprintf(name, sizeof(name), "%s-of-%s", family, kinds == K_SCALING ? "scaling" : "limit");
	snprintf(what, sizeof(what), "%s: throughput as a fraction of %s", family,
		 kinds == K_SCALING ? "its scaling reference" : "limit_ops");
	snprintf(how, sizeof(how), "1 is the reference named in the key and under the plot; "
		 "medians of the repetitions, bars min–max; red circles: CV above %g %%.%s",
		 p->cv_threshold, handoff ? " Shared writes at 2 or more threads are left out: "
		 "one line transfer per handoff is no bound (docs/plots.md)." : "");
	return sb_lines_draw(p, &ls, name, what, NULL, how);
}
SB_FIGURE_EACH(in_figure, draw, SB_FIG_RESULTS, 30)
