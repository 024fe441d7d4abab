/* window.c — window state set-up shared by the benchmark and the tests. */
#include <stratbench/window.h>

#include <stdlib.h>
#include <string.h>

int sb_window_init(struct sb_window *w, const struct sb_window_policy *p,
		   const struct sb_lock_ops *lock, void *lock_mem,
		   const struct sb_window_params *params, sb_ticks now)
{
	memset(w, 0, sizeof(*w));
	w->interval = params->interval;
	w->limit = params->limit;
	w->exact = params->exact;
	if (p->per_member) {
		w->nslots = params->members > 0 ? params->members : 1;
		/* one line per member: a member's adds never bounce another's line */
		w->slots = aligned_alloc(SB_CACHELINE, sizeof(*w->slots) * (size_t)w->nslots);
		if (!w->slots)
			return -1;
		memset(w->slots, 0, sizeof(*w->slots) * (size_t)w->nslots);
	}
	if (p->uses_lock && lock) {
		w->lock.ops = lock;
		/* the lock word shares the window's line, as in pglist_data */
		w->lock.state = lock->state_size <= sizeof(w->lock_words) &&
				lock->state_align <= 8 ? w->lock_words : lock_mem;
		if (!w->lock.state)
			goto fail;
		memset(w->lock.state, 0, lock->state_size);
		if (lock->init && lock->init(w->lock.state)) {
			w->lock.ops = NULL;
			goto fail;
		}
	}
	if (p->init) {
		p->init(w, now);
	} else {
		w->next_window = now + w->interval;
		w->window_start = now;
	}
	return 0;
fail:
	free(w->slots);
	w->slots = NULL;
	return -1;
}

void sb_window_fini(struct sb_window *w)
{
	if (w->lock.ops && w->lock.ops->fini)
		w->lock.ops->fini(w->lock.state);
	free(w->slots);
	w->slots = NULL;
}

unsigned long sb_window_count(const struct sb_window_policy *p, const struct sb_window *w)
{
	return p->count ? p->count(w) : w->nr_pages;
}
