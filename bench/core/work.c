/* work.c — calibrate sb_work() against CLOCK_MONOTONIC, median of 5. */
#include <stratbench/arch.h>
#include <stratbench/work.h>

#include <pthread.h>
#include <stdlib.h>

static double ns_per_iter;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void calibrate(void)
{
	const uint64_t iters = 2000000;	/* ~1 ms per sample on a 2 GHz core */
	double s[5];
	int i;

	sb_work(iters);	/* warm up: frequency ramp, page faults */
	for (i = 0; i < 5; i++) {
		uint64_t t0 = sb_now_ns();

		sb_work(iters);
		s[i] = (double)(sb_now_ns() - t0) / (double)iters;
	}
	qsort(s, 5, sizeof(s[0]), cmp_double);
	ns_per_iter = s[2] > 0 ? s[2] : 1.0;
}

double sb_work_ns_per_iter(void)
{
	pthread_once(&once, calibrate);
	return ns_per_iter;
}

uint64_t sb_work_iters(double ns)
{
	if (ns <= 0)
		return 0;
	return (uint64_t)(ns / sb_work_ns_per_iter() + 0.5);
}
