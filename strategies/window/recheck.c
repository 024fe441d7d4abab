/* recheck — the 2018 trylock reset with next_window re-read under the lock,
 * which the merged patch does not do: a CPU that read the window before
 * another CPU's reset and wins the trylock after it sees the new window and
 * leaves it alone, so a window is never reset twice.  Otherwise as trylock.c
 * (whole intervals, racy accounting).  No kernel shipped it. */
#include <stratbench/window.h>

static bool recheck_update(struct sb_window *w, sb_ticks now, unsigned long nr_pages,
			   struct sb_window_stats *st)
{
	sb_ticks next = sb_read_once(&w->next_window);

	if (sb_time_after(now, next)) {
		if (sb_lock_trylock(&w->lock, st->lock_node)) {
			/* under the lock: the trylock's acquire orders this load
			 * after the previous holder's publish */
			next = sb_read_once(&w->next_window);
			if (sb_time_after(now, next)) {
				unsigned long held = sb_window_zero(w);

				do
					next += w->interval;
				while (sb_time_after(now, next));
				sb_write_once(&w->next_window, next);
				sb_lock_unlock(&w->lock, st->lock_node);
				sb_window_reset_done(st, now, next, held);
			} else {
				sb_lock_unlock(&w->lock, st->lock_node);
			}
		} else {
			st->contended++;
		}
	}
	return sb_window_account(w, nr_pages, st);
}

SB_WINDOW_POLICY(recheck,
	.summary   = "trylock reset, expiry re-checked under the lock: no double reset",
	.update    = recheck_update,
	.uses_lock = true,
	.stretches = false,
	.exact     = false);
