/* test_policies.c — test-only window policies, linked into test_window only
 * (test_only: hidden from listings and sweeps).  exact_probe keeps every
 * property it declares, so the conformance checks are seen to pass on a
 * policy that really accounts exactly; each broken_* fixture breaks one
 * declared or required property, and test_window.c requires its check to
 * catch it. */
#include <stratbench/window.h>

/* The 2018 trylock reset, with the fetch-add accounting it declares. */
static bool probe_reset(struct sb_window *w, sb_ticks now, struct sb_window_stats *st)
{
	sb_ticks next = sb_read_once(&w->next_window);

	if (sb_time_after(now, next) && sb_lock_trylock(&w->lock, st->lock_node)) {
		unsigned long held = __atomic_exchange_n(&w->nr_pages, 0, __ATOMIC_RELAXED);

		do
			next += w->interval;
		while (sb_time_after(now, next));
		sb_write_once(&w->next_window, next);
		sb_lock_unlock(&w->lock, st->lock_node);
		sb_window_reset_done(st, now, next, held);
		return true;
	}
	return false;
}

static bool exact_probe_update(struct sb_window *w, sb_ticks now, unsigned long nr_pages,
			       struct sb_window_stats *st)
{
	probe_reset(w, now, st);
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

/* Declares it keeps the phase, but restarts the window at now. */
static bool broken_phase_update(struct sb_window *w, sb_ticks now, unsigned long nr_pages,
				struct sb_window_stats *st)
{
	if (sb_time_after(now, sb_read_once(&w->next_window)) &&
	    sb_lock_trylock(&w->lock, st->lock_node)) {
		unsigned long held = sb_window_zero(w);

		sb_write_once(&w->next_window, now + w->interval);
		sb_lock_unlock(&w->lock, st->lock_node);
		sb_window_reset_done(st, now, now + w->interval, held);
	}
	return sb_window_account(w, nr_pages, st);
}

SB_WINDOW_POLICY(broken_phase,
	.summary   = "TEST: declares stretches=false but restarts at now",
	.test_only = true,
	.update    = broken_phase_update,
	.uses_lock = true,
	.stretches = false,
	.exact     = false);

/* Resets when now reaches next_window instead of passing it (time_after_eq). */
static bool broken_instant_update(struct sb_window *w, sb_ticks now, unsigned long nr_pages,
				  struct sb_window_stats *st)
{
	probe_reset(w, now + 1, st);	/* sees the window expire one tick early */
	return sb_window_account(w, nr_pages, st);
}

SB_WINDOW_POLICY(broken_instant,
	.summary   = "TEST: resets at now == next_window",
	.test_only = true,
	.update    = broken_instant_update,
	.uses_lock = true,
	.stretches = false,
	.exact     = false);

/* Never refuses: the budget means nothing. */
static bool broken_overshoot_update(struct sb_window *w, sb_ticks now, unsigned long nr_pages,
				    struct sb_window_stats *st)
{
	probe_reset(w, now, st);
	__atomic_fetch_add(&w->nr_pages, nr_pages, __ATOMIC_RELAXED);
	st->admitted += nr_pages;
	return false;
}

SB_WINDOW_POLICY(broken_overshoot,
	.summary   = "TEST: never rate-limits",
	.test_only = true,
	.update    = broken_overshoot_update,
	.uses_lock = true,
	.stretches = false,
	.exact     = true);

/* Declares exact, but adds with a racy load/store and a gap between them,
 * so concurrent callers lose updates; and, so that the catch does not hang
 * on two threads overlapping (TSan and qemu rarely let them), one add in 16
 * is dropped outright.  The check compares pages admitted with pages
 * accounted, so it is blind to how they were lost. */
static bool broken_racy_update(struct sb_window *w, sb_ticks now, unsigned long nr_pages,
			       struct sb_window_stats *st)
{
	unsigned long v;

	probe_reset(w, now, st);
	if (sb_read_once(&w->nr_pages) > w->limit) {
		st->limited++;
		return true;
	}
	v = sb_read_once(&w->nr_pages);
	sb_work(200);
	if ((st->admitted / nr_pages) % 16 != 15)
		sb_write_once(&w->nr_pages, v + nr_pages);
	st->admitted += nr_pages;
	return false;
}

SB_WINDOW_POLICY(broken_racy,
	.summary   = "TEST: declares exact, loses updates",
	.test_only = true,
	.update    = broken_racy_update,
	.uses_lock = true,
	.stretches = false,
	.exact     = true);

/* Takes the lock at a reset and never lets go: the next reset hangs. */
static bool broken_deadlock_update(struct sb_window *w, sb_ticks now, unsigned long nr_pages,
				   struct sb_window_stats *st)
{
	if (sb_time_after(now, sb_read_once(&w->next_window))) {
		sb_lock_lock(&w->lock, st->lock_node);
		sb_window_reset_done(st, now, now + w->interval, sb_window_zero(w));
		sb_write_once(&w->next_window, now + w->interval);
	}
	return sb_window_account(w, nr_pages, st);
}

SB_WINDOW_POLICY(broken_deadlock,
	.summary   = "TEST: never unlocks",
	.test_only = true,
	.update    = broken_deadlock_update,
	.uses_lock = true,
	.stretches = true,
	.exact     = false);

/* Refuses every member but the first: the others never get a page. */
static bool broken_starve_update(struct sb_window *w, sb_ticks now, unsigned long nr_pages,
				 struct sb_window_stats *st)
{
	if (st->member > 0) {
		st->limited++;
		return true;
	}
	return exact_probe_update(w, now, nr_pages, st);
}

SB_WINDOW_POLICY(broken_starve,
	.summary   = "TEST: starves every member but the first",
	.test_only = true,
	.update    = broken_starve_update,
	.uses_lock = true,
	.stretches = false,
	.exact     = true);
