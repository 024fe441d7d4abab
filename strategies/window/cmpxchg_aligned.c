/* cmpxchg_aligned — lock-free like cmpxchg.c, but the winner advances the
 * window by whole intervals past now, as the 2018 trylock does, so it keeps
 * its phase.  No kernel shipped this combination: it separates the cost of
 * the lock (trylock vs cmpxchg_aligned: same window, different
 * synchronisation) from the effect of stretching (cmpxchg vs
 * cmpxchg_aligned: same synchronisation, different window).  A late CPU's
 * cmpxchg fails because the window moved, so no window is reset twice. */
#include <stratbench/window.h>

static bool cmpxchg_aligned_update(struct sb_window *w, sb_ticks now, unsigned long nr_pages,
				   struct sb_window_stats *st)
{
	sb_ticks next = sb_read_once(&w->next_window);

	if (sb_time_after(now, next)) {
		sb_ticks new = next;

		do
			new += w->interval;
		while (sb_time_after(now, new));
		/* acq_rel on success: the reset of the count stays after the win */
		if (__atomic_compare_exchange_n(&w->next_window, &next, new, false,
						__ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
			sb_window_reset_done(st, now, new, sb_window_zero(w));
		else
			st->contended++;
	}
	return sb_window_account(w, nr_pages, st);
}

SB_WINDOW_POLICY(cmpxchg_aligned,
	.summary   = "lock-free cmpxchg, advance by whole intervals (no kernel: isolates stretch)",
	.update    = cmpxchg_aligned_update,
	.uses_lock = false,
	.stretches = false,
	.exact     = false);
