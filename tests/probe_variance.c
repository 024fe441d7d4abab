/* probe_variance.c — measurements behind docs/precision-sources.md, not a
 * test (built, never registered with CTest).  Each mode prints one line per
 * repetition and a summary with the CV, so a variance source shows as a
 * number:
 *   probe_variance spin REPS MS      the calibrated loop sb_work() for MS ms
 *                                    per repetition: wall ns/iter (TSC) and
 *                                    CPU ns/iter (thread CPU clock); CPU
 *                                    time excludes preemption, so its spread
 *                                    is the core's speed changing
 *   probe_variance work REPS NS      sb_work_iters(NS) (calibrated once per
 *                                    process) called 20000 times per
 *                                    repetition: the ns it really takes
 *   probe_variance ticker US SECS    the jiffies ticker (ticker.h) at US,
 *                                    polled by a spinning reader as a window
 *                                    member reads it: the period between
 *                                    changes, how many were catch-up jumps
 *                                    (a late wake-up), and 10-tick windows
 *                                    (the default suite's 1 ms at 100 us)
 *   probe_variance tsc REPS          ticks of an empty pair of
 *                                    sb_read_cycles(), the overhead
 *                                    update_ns subtracts
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <math.h>

#include <stratbench/arch.h>
#include "core/ticker.h"
#include <stratbench/work.h>

static uint64_t cpu_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* "name: n N mean M cv C% min .. p50 .. p99 .. max .." over v[0..n) (sorts v) */
static void summary(const char *name, double *v, size_t n)
{
	double sum = 0, sq = 0, mean, sd;
	size_t i;

	if (!n)
		return;
	for (i = 0; i < n; i++)
		sum += v[i];
	mean = sum / (double)n;
	for (i = 0; i < n; i++)
		sq += (v[i] - mean) * (v[i] - mean);
	sd = n > 1 ? sqrt(sq / (double)(n - 1)) : 0;
	qsort(v, n, sizeof(*v), cmp_double);
	printf("%s: n %zu mean %.4g cv %.3g%% min %.4g p50 %.4g p99 %.4g max %.4g\n", name, n,
	       mean, mean ? 100 * sd / mean : 0, v[0], v[n / 2], v[(size_t)((double)(n - 1) * 0.99)],
	       v[n - 1]);
}

static int spin(int reps, double ms)
{
	const uint64_t iters = sb_work_iters(ms * 1e6);
	const double cpn = sb_cycles_per_ns();
	double *wall = calloc((size_t)reps, sizeof(double)), *cpu = calloc((size_t)reps, sizeof(double));
	int r;

	printf("# spin: %llu iterations per repetition (calibrated %.4g ns/iter)\n",
	       (unsigned long long)iters, sb_work_ns_per_iter());
	for (r = 0; r < reps; r++) {
		uint64_t c0 = sb_read_cycles(), t0 = cpu_now_ns();

		sb_work(iters);
		cpu[r] = (double)(cpu_now_ns() - t0) / (double)iters;
		wall[r] = (double)(sb_read_cycles() - c0) / cpn / (double)iters;
		printf("rep %d wall_ns_per_iter %.5f cpu_ns_per_iter %.5f\n", r, wall[r], cpu[r]);
	}
	summary("wall_ns_per_iter", wall, (size_t)reps);
	summary("cpu_ns_per_iter", cpu, (size_t)reps);
	free(wall);
	free(cpu);
	return 0;
}

static int work(int reps, double ns)
{
	const uint64_t iters = sb_work_iters(ns), calls = 20000;
	const double cpn = sb_cycles_per_ns();
	double *v = calloc((size_t)reps, sizeof(double)), *c = calloc((size_t)reps, sizeof(double));
	int r;

	printf("# work: sb_work_iters(%g) = %llu iterations (calibrated once: %.4g ns/iter)\n", ns,
	       (unsigned long long)iters, sb_work_ns_per_iter());
	for (r = 0; r < reps; r++) {
		uint64_t c0 = sb_read_cycles(), t0 = cpu_now_ns(), k;

		for (k = 0; k < calls; k++) {
			sb_work(iters);
			sb_barrier();
		}
		v[r] = (double)(sb_read_cycles() - c0) / cpn / (double)calls;
		c[r] = (double)(cpu_now_ns() - t0) / (double)calls;
		printf("rep %d wall_ns_per_call %.2f cpu_ns_per_call %.2f (asked %g)\n", r, v[r], c[r], ns);
	}
	summary("wall_ns_per_call", v, (size_t)reps);
	summary("cpu_ns_per_call", c, (size_t)reps);
	free(v);
	free(c);
	return 0;
}

static int ticker(double us, double secs)
{
	struct sb_ticker *t = aligned_alloc(SB_CACHELINE, sizeof(*t));
	const double cpn = sb_cycles_per_ns();
	const size_t max = (size_t)(secs * 1e6 / us * 2) + 16;
	double *per = calloc(max, sizeof(double)), *win = calloc(max, sizeof(double));
	uint64_t *at = calloc(max, sizeof(uint64_t)), *val = calloc(max, sizeof(uint64_t)), end, last;
	size_t n = 0, i, k = 0, nw = 0, jumps = 0;

	if (!t || !per || !win || !at || !val || sb_ticker_start(t, (uint64_t)(us * 1000))) {
		fprintf(stderr, "probe_variance: cannot allocate or start the ticker\n");
		free(t);
		free(per);
		free(win);
		free(at);
		free(val);
		return 1;
	}
	last = __atomic_load_n(&t->jiffies, __ATOMIC_RELAXED);
	end = sb_read_cycles() + (uint64_t)(secs * 1e9 * cpn);
	while (n < max) {
		uint64_t now = sb_read_cycles();
		/* relaxed: as a window member reads jiffies */
		uint64_t j = __atomic_load_n(&t->jiffies, __ATOMIC_RELAXED);

		if (j != last) {
			val[n] = j;
			at[n++] = now;
			last = j;
		}
		if (now > end)
			break;
	}
	sb_ticker_stop(t);
	free(t);
	for (i = 1; i < n; i++)
		per[i - 1] = (double)(at[i] - at[i - 1]) / cpn / 1000;
	/* a window of 10 ticks as a member sees it: from a change to the
	 * first change at least 10 ticks later (the ticker catches up, so a
	 * change may be a jump of several ticks: a late wake-up) */
	for (i = 0; i < n; i = k) {
		for (k = i + 1; k < n && val[k] - val[i] < 10; k++)
			;
		if (k < n)
			win[nw++] = (double)(at[k] - at[i]) / cpn / 1000;
	}
	for (i = 1; i < n; i++)
		jumps += val[i] - val[i - 1] > 1;
	printf("# ticker: --tick-us=%g for %g s: %zu changes seen, %zu of them jumps of 2+ ticks "
	       "(%.0f ticks expected)\n", us, secs, n, jumps, secs * 1e6 / us);
	summary("tick_period_us", per, n ? n - 1 : 0);
	summary("ten_tick_window_us", win, nw);
	free(per);
	free(win);
	free(at);
	free(val);
	return 0;
}

static int tsc(int reps)
{
	double *v = calloc((size_t)reps, sizeof(double));
	int r;

	for (r = 0; r < reps; r++) {
		uint64_t c0 = sb_read_cycles();

		v[r] = (double)(sb_read_cycles() - c0);
	}
	printf("# tsc: counter %.4g ticks/ns\n", sb_cycles_per_ns());
	summary("empty_pair_ticks", v, (size_t)reps);
	free(v);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "tsc"))
		return tsc(atoi(argv[2]));
	if (argc == 4 && !strcmp(argv[1], "spin"))
		return spin(atoi(argv[2]), atof(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "work"))
		return work(atoi(argv[2]), atof(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "ticker"))
		return ticker(atof(argv[2]), atof(argv[3]));
	fprintf(stderr, "usage: probe_variance spin REPS MS | work REPS NS | ticker US SECS | tsc REPS\n");
	return 2;
}
