/* locked — numamigrate_update_ratelimit() before 2013 ("mm: numa: Rate limit
 * the amount of memory that is migrated between nodes", Mel Gorman, 2012):
 * the whole function under spin_lock, the window restarted at now
 * (next_window = jiffies + interval: windows stretch).  Exact by
 * construction: the check and the += happen under the lock, so --exact
 * changes nothing here.  The cost is one lock round trip per call. */
#include <stratbench/window.h>

static bool locked_update(struct sb_window *w, sb_ticks now, unsigned long nr_pages,
			  struct sb_window_stats *st)
{
	bool limited = false;

	if (sb_lock_is_locked(&w->lock) > 0)	/* spin_is_locked(): one relaxed look */
		st->contended++;
	sb_lock_lock(&w->lock, st->lock_node);
	if (sb_time_after(now, sb_read_once(&w->next_window))) {
		unsigned long held = sb_read_once(&w->nr_pages);

		sb_write_once(&w->nr_pages, 0);
		sb_write_once(&w->next_window, now + w->interval);
		sb_window_reset_done(st, now, now + w->interval, held);
	}
	if (sb_read_once(&w->nr_pages) > w->limit) {
		limited = true;
		st->limited++;
	} else {
		/* under the lock: a plain += loses nothing (atomics for TSan) */
		sb_write_once(&w->nr_pages, sb_read_once(&w->nr_pages) + nr_pages);
		st->admitted += nr_pages;
	}
	sb_lock_unlock(&w->lock, st->lock_node);
	return limited;
}

SB_WINDOW_POLICY(locked,
	.summary   = "whole update under the lock, next_window = now + interval (2012)",
	.update    = locked_update,
	.uses_lock = true,
	.stretches = true,
	.exact     = true,
	.peeks_lock = true);
