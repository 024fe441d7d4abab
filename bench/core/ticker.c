/* ticker.c — the jiffies thread behind --clock=jiffies (ticker.h). */
#include "core/ticker.h"

#include <errno.h>
#include <string.h>
#include <time.h>

static void *tick(void *arg)
{
	struct sb_ticker *t = arg;
	uint64_t k = 0;

	/* relaxed: stop carries no data; sb_ticker_stop() joins afterwards */
	while (!__atomic_load_n(&t->stop, __ATOMIC_RELAXED)) {
		uint64_t deadline = t->start_ns + (k + 1) * t->period_ns, now;
		struct timespec ts = { .tv_sec = (time_t)(deadline / 1000000000u),
				       .tv_nsec = (long)(deadline % 1000000000u) };

		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
		now = sb_now_ns();
		k = (now - t->start_ns) / t->period_ns;	/* catch up after a late wake-up */
		/* relaxed: jiffies publishes nothing but itself; single writer */
		__atomic_store_n(&t->jiffies, t->initial + k, __ATOMIC_RELAXED);
	}
	return NULL;
}

int sb_ticker_start(struct sb_ticker *t, uint64_t period_ns)
{
	memset(t, 0, sizeof(*t));
	t->period_ns = period_ns ? period_ns : 1;
	t->initial = sb_ticker_initial(t->period_ns);
	t->jiffies = t->initial;
	t->start_ns = sb_now_ns();
	/* pthread_create orders everything above before the thread starts */
	return pthread_create(&t->thread, NULL, tick, t);
}

void sb_ticker_stop(struct sb_ticker *t)
{
	__atomic_store_n(&t->stop, 1, __ATOMIC_RELAXED);
	pthread_join(t->thread, NULL);	/* the ticker sees stop within one period */
}
