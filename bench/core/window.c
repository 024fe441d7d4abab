/* window.c — window state set-up shared by the benchmark and the tests. */
#include <stratbench/window.h>

#include <string.h>

int sb_window_init(struct sb_window *w, const struct sb_window_policy *p,
		   const struct sb_lock_ops *lock, void *lock_mem,
		   const struct sb_window_params *params, sb_ticks now)
{
	memset(w, 0, sizeof(*w));
	w->interval = params->interval;
	w->limit = params->limit;
	w->exact = params->exact;
	if (p->uses_lock && lock) {
		w->lock.ops = lock;
		/* the lock word shares the window's line, as in pglist_data */
		w->lock.state = lock->state_size <= sizeof(w->lock_words) &&
				lock->state_align <= 8 ? w->lock_words : lock_mem;
		if (!w->lock.state)
			return -1;
		memset(w->lock.state, 0, lock->state_size);
		if (lock->init && lock->init(w->lock.state))
			return -1;
	}
	if (p->init) {
		p->init(w, now);
	} else {
		w->next_window = now + w->interval;
		w->window_start = now;
	}
	return 0;
}

void sb_window_fini(struct sb_window *w)
{
	if (w->lock.ops && w->lock.ops->fini)
		w->lock.ops->fini(w->lock.state);
}
