/* spinlock — "mm: numa: Limit scope of lock for NUMA migrate rate limiting"
 * (Mel Gorman, 2013), the original numamigrate_update_ratelimit().  Check the
 * window without the lock; if it expired, take the lock, zero nr_pages and
 * restart the window at now: next_window = now + interval, so windows
 * stretch.  The expiry is not re-checked under the lock: every CPU that saw
 * it expired resets in turn.  Page accounting stays racy and outside the lock. */
#include <stratbench/window.h>

static bool spinlock_update(struct sb_window *w, sb_ticks now, unsigned long nr_pages,
			    struct sb_window_stats *st)
{
	if (sb_time_after(now, sb_read_once(&w->next_window))) {
		/* contended: the lock was seen held just before spin_lock() — one
		 * relaxed read (spin_is_locked()), no extra atomic */
		if (sb_lock_is_locked(&w->lock) > 0)
			st->contended++;
		unsigned long held;

		sb_lock_lock(&w->lock, st->lock_node);	/* out of line, as spin_lock() */
		held = sb_window_zero(w);		/* nr_pages = 0 */
		sb_write_once(&w->next_window, now + w->interval);
		sb_lock_unlock(&w->lock, st->lock_node);
		sb_window_reset_done(st, now, now + w->interval, held);
	}
	return sb_window_account(w, nr_pages, st);
}

SB_WINDOW_POLICY(spinlock,
	.summary   = "lock, reset, next_window = now + interval (2013 original)",
	.update    = spinlock_update,
	.uses_lock = true,
	.stretches = true,
	.exact     = false,
	.peeks_lock = true);
