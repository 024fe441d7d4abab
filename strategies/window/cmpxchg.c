/* cmpxchg — the lock-free window of numa_promotion_rate_limit()
 * (kernel/sched/fair.c, "memory tiering: rate limit NUMA migration
 * throughput", Huang Ying, 2022).  Whoever wins a compare-and-swap of the
 * window moves it to start at now — the kernel swaps the window start from
 * `start` to `now`; here the window end, next_window = start + interval, is
 * swapped to now + interval, the same thing with a fixed interval — and the
 * winner resets the count (the kernel records the running count as the new
 * window's base instead; the effect is the same).  The window restarts at
 * the winner's now: it stretches.  Losers count in `contended` and go on to
 * the common tail.  Accounting: the kernel's node vmstat counter is a per-CPU
 * delta, not a racy +=; the default here is the 2018 racy tail, so that the
 * window policies differ only in their reset; --exact is the closer model. */
#include <stratbench/window.h>

static bool cmpxchg_update(struct sb_window *w, sb_ticks now, unsigned long nr_pages,
			   struct sb_window_stats *st)
{
	sb_ticks next = sb_read_once(&w->next_window);

	if (sb_time_after(now, next)) {
		/* acq_rel on success, as the kernel's fully ordered cmpxchg():
		 * the count's reset below cannot move above the win; relaxed on
		 * failure: the loser only goes on to the limit check */
		if (__atomic_compare_exchange_n(&w->next_window, &next, now + w->interval, false,
						__ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
			sb_window_reset_done(st, now, now + w->interval, sb_window_zero(w));
		else
			st->contended++;	/* lost the cmpxchg */
	}
	return sb_window_account(w, nr_pages, st);
}

SB_WINDOW_POLICY(cmpxchg,
	.summary   = "lock-free: cmpxchg the window to start at now, winner resets (2022)",
	.update    = cmpxchg_update,
	.uses_lock = false,
	.stretches = true,
	.exact     = false);
