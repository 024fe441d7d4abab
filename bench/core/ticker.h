/* ticker.h — a jiffies-like clock for the window benchmark (--clock=jiffies).
 *
 * Contract: sb_ticker_start() starts a thread that sleeps on clock_nanosleep (absolute
 * CLOCK_MONOTONIC deadlines) and, at every period, stores the number of periods elapsed since
 * the start, plus `initial`, into `jiffies` — one shared word on its own cache line that
 * members read with a relaxed load, so the line is invalidated once per tick, as the kernel's
 * global jiffies.  A late wake-up catches up (the word is derived from the time, not counted),
 * so the word never runs slow.  sb_ticker_stop() returns within one period and joins the
 * thread.  Like the timer interrupt that updates jiffies, the ticker needs no CPU of its own.
 */
#ifndef STRATBENCH_TICKER_H
#define STRATBENCH_TICKER_H

#include <pthread.h>
#include <stdint.h>

#include <stratbench/arch.h>

struct sb_ticker {
	SB_CACHE_ALIGNED uint64_t jiffies;	/* read by members, written by the ticker */
	SB_CACHE_ALIGNED int stop;
	uint64_t period_ns;
	uint64_t initial;
	uint64_t start_ns;
	pthread_t thread;
};

/* The kernel starts jiffies 5 minutes before it wraps (INITIAL_JIFFIES), so
 * wrap-around bugs show early; so does the ticker, at HZ = 1e9 / period. */
static inline uint64_t sb_ticker_initial(uint64_t period_ns)
{
	return (uint64_t)0 - 300u * (1000000000u / period_ns);
}

/* 0, or an errno from pthread_create. */
int sb_ticker_start(struct sb_ticker *t, uint64_t period_ns);
void sb_ticker_stop(struct sb_ticker *t);

#endif
