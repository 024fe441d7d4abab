/* arch.c — calibrate sb_read_cycles() against CLOCK_MONOTONIC once. */
#include <stratbench/arch.h>

#include <pthread.h>

static double cycles_per_ns;
static pthread_once_t calibrate_once = PTHREAD_ONCE_INIT;

static void calibrate(void)
{
	uint64_t t0 = sb_now_ns(), c0 = sb_read_cycles(), t1, c1;

	/* 20 ms is enough for < 0.1 % error with a µs-resolution-or-better clock. */
	do {
		t1 = sb_now_ns();
		c1 = sb_read_cycles();
	} while (t1 - t0 < 20000000u);
	cycles_per_ns = (double)(c1 - c0) / (double)(t1 - t0);
	if (cycles_per_ns <= 0)
		cycles_per_ns = 1.0;
}

double sb_cycles_per_ns(void)
{
	pthread_once(&calibrate_once, calibrate);
	return cycles_per_ns;
}
