/* percpu — the "convert it to a per-cpu counter" that the 2013 kernel comment
 * suggests for the racy nr_pages += (never merged).  Each member adds to its
 * own shard (one cache line each, w->slots[st->member]) and folds it into
 * nr_pages once it holds `batch` pages, as percpu_counter_add_batch() does;
 * the limit check reads the folded count plus the caller's own shard, so up
 * to (members - 1) × batch pages are unseen (batch = limit / (4 × members),
 * at least 1).  The reset is the 2018 trylock's (whole intervals); its
 * winner folds every shard by swapping it to 0, so no page is ever lost:
 * exact under any accounting mode.  The owner's add is a fetch-add, not the
 * kernel's this_cpu_add(), because a resetter may swap the shard
 * concurrently; the line stays in the owner's cache between resets. */
#include <stratbench/window.h>

static void percpu_init(struct sb_window *w, sb_ticks now)
{
	unsigned long batch = w->limit / (4ul * (unsigned long)w->nslots);

	w->batch = batch ? batch : 1;
	w->next_window = now + w->interval;
	w->window_start = now;
}

static unsigned long percpu_count(const struct sb_window *w)
{
	unsigned long sum = w->nr_pages;
	int i;

	for (i = 0; i < w->nslots; i++)
		sum += w->slots[i].pages;
	return sum;
}

static bool percpu_update(struct sb_window *w, sb_ticks now, unsigned long nr_pages,
			  struct sb_window_stats *st)
{
	unsigned long *mine = &w->slots[st->member].pages, local;
	sb_ticks next = sb_read_once(&w->next_window);

	if (sb_time_after(now, next)) {
		if (sb_lock_trylock(&w->lock, st->lock_node)) {
			/* relaxed swaps: every page is in exactly one place, and
			 * the lock orders the reset as the trylock policy's */
			unsigned long held = __atomic_exchange_n(&w->nr_pages, 0, __ATOMIC_RELAXED);
			int i;

			for (i = 0; i < w->nslots; i++)
				held += __atomic_exchange_n(&w->slots[i].pages, 0, __ATOMIC_RELAXED);
			do
				next += w->interval;
			while (sb_time_after(now, next));
			sb_write_once(&w->next_window, next);
			sb_lock_unlock(&w->lock, st->lock_node);
			sb_window_reset_done(st, now, next, held);
		} else {
			st->contended++;
		}
	}
	if (sb_read_once(&w->nr_pages) + sb_read_once(mine) > w->limit) {
		st->limited++;
		return true;
	}
	local = __atomic_add_fetch(mine, nr_pages, __ATOMIC_RELAXED);
	if (local >= w->batch)		/* fold: percpu_counter's batch */
		__atomic_fetch_add(&w->nr_pages, __atomic_exchange_n(mine, 0, __ATOMIC_RELAXED),
				   __ATOMIC_RELAXED);
	st->admitted += nr_pages;
	return false;
}

SB_WINDOW_POLICY(percpu,
	.summary    = "trylock reset, per-member page shards folded in batches and at reset",
	.init       = percpu_init,
	.update     = percpu_update,
	.count      = percpu_count,
	.uses_lock  = true,
	.per_member = true,
	.stretches  = false,
	.exact      = true);
