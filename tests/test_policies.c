/* test_policies.c — test-only window policies, linked into test_window only
 * (hidden from listings): exact_probe declares `exact` and keeps it, so the
 * declared-exact check runs on a policy that really accounts pages. */
#include <stratbench/window.h>

static bool exact_probe_update(struct sb_window *w, sb_ticks now, unsigned long nr_pages,
			       struct sb_window_stats *st)
{
	sb_ticks next = sb_read_once(&w->next_window);

	if (sb_time_after(now, next) && sb_lock_trylock(&w->lock, st->lock_node)) {
		sb_write_once(&w->nr_pages, 0);
		do
			next += w->interval;
		while (sb_time_after(now, next));
		sb_write_once(&w->next_window, next);
		sb_lock_unlock(&w->lock, st->lock_node);
		st->resets++;
	}
	if (sb_read_once(&w->nr_pages) > w->limit) {
		st->limited++;
		return true;
	}
	__atomic_fetch_add(&w->nr_pages, nr_pages, __ATOMIC_RELAXED);	/* exact */
	st->admitted += nr_pages;
	return false;
}

SB_WINDOW_POLICY(exact_probe,
	.summary   = "TEST: trylock reset, whole intervals, fetch-add accounting",
	.test_only = true,
	.update    = exact_probe_update,
	.uses_lock = true,
	.stretches = false,
	.exact     = true);
