/* test_drive_deadline.c — a round cut by its deadline keeps the numbers
 * honest (run/driver.c over Google Benchmark).
 *
 * One member does 50 fast ops, then ops of 100 ms: the shape of a convoy
 * that starts once a batch outlasts a time slice.  With min_time 0.01 s
 * Google Benchmark grows the batch 1, 10, 100; the batch of 100 passes its
 * deadline (4 x min_time, 40 ms) in its 51st op and is cut after it.  The
 * reported run must say so (rounds_cut 1), count the ops done (ops_max 51
 * of GB's 100 iterations), and give GB's time per iteration as the time
 * per op actually measured: with one member, real_time per iteration equals
 * ns_per_op (elapsed ÷ ops).  A driver that reported the cut round's own
 * time for GB's 100 iterations would halve it.  A batch of 50 x 100 ms
 * (5 s) cut at 40 ms also shows in the body's wall time; the bound below
 * (4 s, whatever the load) is loose.  A benchmark with a fixed iteration
 * count has no planned time: no deadline, no rounds_cut counter.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/gbench.h"
#include "run/run.h"

#include "check.h"

#define FAST 50
#define SLOW_US 100000

static uint64_t member(int tid, const struct sb_round *r, void *arg)
{
	uint64_t ops = 0;

	(void)tid;
	(void)arg;
	do {
		ops++;
		if (ops > FAST)
			usleep(SLOW_US);	/* the convoy: each op waits a descheduled holder */
	} while (!sb_round_over(r, ops));
	return ops;
}

static struct sb_point convoy_pt, fixed_pt;
static uint64_t convoy_body_ns;	/* the longest call of the convoy's body */

static void body(sb_state *st, void *arg)
{
	struct sb_point *pt = arg;
	const struct sb_drive_team t = { 1, NULL, member, NULL, NULL, true };
	struct sb_drive d;
	uint64_t t0 = sb_now_ns(), ns;

	if (sb_drive_run_team(st, pt, &t, &d) == 0)
		sb_drive_report(st, &d);
	ns = sb_now_ns() - t0;
	if (pt == &convoy_pt && ns > convoy_body_ns)
		convoy_body_ns = ns;
}

struct seen {
	int runs;
	int64_t iterations;
	double real_ns, ns_per_op, ops_max, rounds_cut;
	bool has_cut;
};

static struct seen timed, fixed;

static void hook(const struct sb_run_report *r, void *arg)
{
	struct seen *s = strstr(r->name, "fixed") ? &fixed : &timed;

	(void)arg;
	if (*r->aggregate || r->error)
		return;
	s->runs++;
	s->iterations = r->iterations;
	s->real_ns = r->real_ns;
	for (int i = 0; i < r->ncounters; i++) {
		if (!strcmp(r->counter_names[i], "ns_per_op"))
			s->ns_per_op = r->counter_values[i];
		if (!strcmp(r->counter_names[i], "ops_max"))
			s->ops_max = r->counter_values[i];
		if (!strcmp(r->counter_names[i], "rounds_cut")) {
			s->rounds_cut = r->counter_values[i];
			s->has_cut = true;
		}
	}
}

int main(void)
{
	char *argv[] = { "test_drive_deadline", "--benchmark_min_time=0.01", NULL };
	sb_bench *b;
	int rc;

	convoy_pt.threads = fixed_pt.threads = 1;
	b = sb_bench_register("t/convoy", body, &convoy_pt);
	sb_bench_use_manual_time(b);
	b = sb_bench_register("t/fixed", body, &fixed_pt);
	sb_bench_use_manual_time(b);
	sb_bench_iterations(b, 3);
	sb_gbench_on_run(hook, NULL);
	sb_gbench_display_quiet(true);
	rc = sb_gbench_main(2, argv);
	CHECK(rc == 0, "runs without error: %d", rc);
	printf("test_drive_deadline: %lld iterations, ops_max %.0f, rounds_cut %.0f, "
	       "real_time %.0f ns/iteration, ns_per_op %.0f, longest batch %.1f ms\n",
	       (long long)timed.iterations, timed.ops_max, timed.rounds_cut, timed.real_ns,
	       timed.ns_per_op, (double)convoy_body_ns / 1e6);
	CHECK(timed.runs == 1 && timed.has_cut && timed.rounds_cut == 1,
	      "the reported batch was cut once: rounds_cut %g", timed.rounds_cut);
	CHECK(timed.ops_max > FAST && timed.ops_max < (double)timed.iterations,
	      "it counts the ops done: %g of GB's %lld iterations", timed.ops_max,
	      (long long)timed.iterations);
	CHECK(timed.ns_per_op > 0 && timed.real_ns > timed.ns_per_op * 0.999 &&
	      timed.real_ns < timed.ns_per_op * 1.001,
	      "GB's time per iteration is the time per op measured: %g ns against %g",
	      timed.real_ns, timed.ns_per_op);
	CHECK(convoy_body_ns < 4000000000ull, "no batch ran its 5 s of slow ops: %.1f ms",
	      (double)convoy_body_ns / 1e6);
	CHECK(fixed.runs == 1 && !fixed.has_cut && fixed.iterations == 3,
	      "a fixed iteration count has no deadline, no rounds_cut (%d)", fixed.has_cut);
	return check_done("test_drive_deadline");
}
