/* trylock — "mm/migrate: Use spin_trylock() while resetting rate limit"
 * (Srikar Dronamraju, 2018; the seed patch is its v2).  next_window is read
 * once; if it expired and the trylock wins, zero nr_pages and advance
 * next_window by whole intervals until it is past now (the window keeps its
 * phase: no stretching), publish it, unlock.  A CPU that loses the trylock
 * skips the reset and goes on to the limit check and the racy accounting.
 * Nothing re-checks next_window after a winning trylock, so a CPU that read
 * it before another's reset and wins the trylock after it resets the same
 * window twice (recheck.c closes that). */
#include <stratbench/window.h>

static bool trylock_update(struct sb_window *w, sb_ticks now, unsigned long nr_pages,
			   struct sb_window_stats *st)
{
	sb_ticks next = sb_read_once(&w->next_window);	/* READ_ONCE */

	if (sb_time_after(now, next)) {
		if (sb_lock_trylock(&w->lock, st->lock_node)) {
			unsigned long held = sb_window_zero(w);	/* nr_pages = 0 */

			do
				next += w->interval;
			while (sb_time_after(now, next));
			sb_write_once(&w->next_window, next);	/* WRITE_ONCE */
			sb_lock_unlock(&w->lock, st->lock_node);
			sb_window_reset_done(st, now, next, held);
		} else {
			st->contended++;	/* lost the trylock: skip the reset */
		}
	}
	return sb_window_account(w, nr_pages, st);
}

SB_WINDOW_POLICY(trylock,
	.summary   = "reset under trylock, advance by whole intervals (2018, the seed)",
	.update    = trylock_update,
	.uses_lock = true,
	.stretches = false,
	.exact     = false);
