/* test_gbench.c — the C API over Google Benchmark: registration, argument
 * bounds, manual time, counters and context in the JSON, skip-with-error,
 * setup/teardown with user data, the run hook. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/single_threaded.h>
#include <unistd.h>

#include "run/gbench.h"

#include "check.h"

static int setups, teardowns, bodies;
static int hook_runs, hook_errors, hook_manual_ok, hook_counter_ok;
static int hook_fixed_iters, hook_fixed_aggs;

static void args_body(sb_state *st, void *arg)
{
	int64_t a = -1, b = -1, c = 42;

	(void)arg;
	CHECK(sb_state_range(st, 0, &a) == 0 && a == 3, "range 0 = %lld", (long long)a);
	CHECK(sb_state_range(st, 1, &b) == 0 && b == 7, "range 1 = %lld", (long long)b);
	CHECK(sb_state_range(st, 2, &c) == -1 && c == 42, "range 2 out of bounds");
	CHECK(sb_state_range(st, -1, &c) == -1, "range -1 out of bounds");
	while (sb_state_keep_running_batch(st, 64))
		;
	sb_state_counter(st, "seen_args", (double)(a * 10 + b), SB_COUNTER_DEFAULT);
}

/* Range(8, 64) gives the runs 8 and 64 (GB's multiplier 8); one argument each */
static int range_seen;

static void range_body(sb_state *st, void *arg)
{
	int64_t a = 0, b = 0;

	(void)arg;
	CHECK(sb_state_range(st, 0, &a) == 0 && (a == 8 || a == 64), "range arg %lld",
	      (long long)a);
	CHECK(sb_state_range(st, 1, &b) == -1, "a range has one argument");
	range_seen |= a == 8 ? 1 : a == 64 ? 2 : 4;
	while (sb_state_keep_running(st))
		;
}

static void manual_body(sb_state *st, void *arg)
{
	int64_t n;

	(void)arg;
	bodies++;
	/* each iteration "takes" exactly 1 ms of manual time */
	while ((n = sb_state_keep_running_batch(st, 1000)) > 0)
		sb_state_set_iteration_time(st, (double)n * 1e-3);
	sb_state_counter(st, "c_plain", 5, SB_COUNTER_DEFAULT);
	sb_state_counter(st, "c_per_iter", (double)sb_state_iterations(st) * 2,
			 SB_COUNTER_AVG_ITERATIONS);
}

static void setup(sb_state *st, void *arg)
{
	(void)st;
	CHECK(arg == (void *)&setups, "setup gets the user pointer");
	setups++;
}

static void teardown(sb_state *st, void *arg)
{
	(void)st;
	CHECK(arg == (void *)&setups, "teardown gets the user pointer");
	teardowns++;
}

/* glibc's single-threaded shortcuts: a body must never run with them, even
 * when nothing before it created a thread (sb_gbench_main sees to it) */
static int mt_runs, mt_single;

static void mt_body(sb_state *st, void *arg)
{
	(void)arg;
	mt_runs++;
	mt_single += __libc_single_threaded;
	while (sb_state_keep_running(st))
		;
}

static void skip_body(sb_state *st, void *arg)
{
	(void)arg;
	sb_state_skip_with_error(st, "deliberate failure");
	CHECK(sb_state_error_occurred(st), "error flag set");
}

static void hook(const struct sb_run_report *r, void *arg)
{
	int k;

	(void)arg;
	hook_runs++;
	if (r->error) {
		hook_errors++;
		CHECK(strcmp(r->name, "t/skip") == 0 && strcmp(r->error, "deliberate failure") == 0,
		      "error run %s: %s", r->name, r->error);
	}
	if (strncmp(r->name, "t/fixed", 7) == 0) {
		if (*r->aggregate)
			hook_fixed_aggs++;
		else
			hook_fixed_iters += r->iterations == 7 && r->repetition_index >= 0;
	}
	if (strcmp(r->name, "t/manual") == 0) {
		/* name without /manual_time; 1 ms per iteration, as set */
		hook_manual_ok = r->real_ns > 0.999e6 && r->real_ns < 1.001e6;
		for (k = 0; k < r->ncounters; k++) {
			if (!strcmp(r->counter_names[k], "c_plain"))
				hook_counter_ok += r->counter_values[k] == 5;
			if (!strcmp(r->counter_names[k], "c_per_iter"))
				hook_counter_ok += r->counter_values[k] == 2;
		}
	}
}

static int file_has(const char *path, const char *needle)
{
	static char buf[1 << 20];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return strstr(buf, needle) != NULL;
}

int main(void)
{
	char out[] = "/tmp/sb_test_gbench_XXXXXX", outflag[128], path[64];
	int64_t args[] = { 3, 7 };
	char *argv[6];
	sb_bench *b;
	int rc;

	CHECK(mkdtemp(out) != NULL, "tmpdir");
	snprintf(path, sizeof(path), "%s/out.json", out);
	snprintf(outflag, sizeof(outflag), "--benchmark_out=%s", path);
	argv[0] = "test_gbench";
	argv[1] = "--benchmark_min_time=0.01";
	argv[2] = outflag;
	argv[3] = "--benchmark_out_format=json";
	argv[4] = NULL;

	b = sb_bench_register("t/args", args_body, NULL);
	sb_bench_args(b, args, 2);
	b = sb_bench_register("t/manual", manual_body, &setups);
	sb_bench_use_manual_time(b);
	sb_bench_setup(b, setup);
	sb_bench_teardown(b, teardown);
	sb_bench_register("t/skip", skip_body, NULL);
	sb_bench_range(sb_bench_register("t/range", range_body, NULL), 8, 64);
	b = sb_bench_register("t/fixed", args_body, NULL);
	sb_bench_args(b, args, 2);
	sb_bench_iterations(b, 7);
	sb_bench_repetitions(b, 2);
	sb_bench_iterations(sb_bench_register("t/multithreaded", mt_body, NULL), 1);
	sb_context_add("sb_test_key", "sb_test_value");
	sb_gbench_on_run(hook, NULL);

	/* this process has created no thread yet (unless a sanitizer runtime
	 * did): the check below is only meaningful from a single-threaded start */
	bool single_at_start = __libc_single_threaded;

	if (!single_at_start)
		printf("test_gbench: process already multi-threaded at start (sanitizer "
		       "runtime?): the harness's own thread is not what the check sees\n");
	rc = sb_gbench_main(4, argv);
	CHECK(mt_runs == 1 && mt_single == 0,
	      "benchmark bodies run multi-threaded (%d runs, %d saw glibc single-threaded)",
	      mt_runs, mt_single);
	CHECK(rc == 1, "a skipped-with-error benchmark makes main return 1, got %d", rc);
	CHECK(setups > 0 && setups == teardowns && setups == bodies,
	      "setup %d / body %d / teardown %d pair up", setups, bodies, teardowns);
	/* args, manual, skip, range x2, fixed: 2 repetitions + mean/median/stddev/cv */
	CHECK(hook_runs == 3 + 2 + 2 + 4 + 1, "hook saw %d runs", hook_runs);
	CHECK(range_seen == 3, "range ran 8 and 64 only: %d", range_seen);
	CHECK(hook_fixed_iters == 2, "fixed iterations: %d repetitions of 7", hook_fixed_iters);
	CHECK(hook_fixed_aggs == 4, "aggregates of the repetitions: %d", hook_fixed_aggs);
	CHECK(hook_errors == 1, "one error run");
	CHECK(hook_manual_ok, "manual time reported as set");
	CHECK(hook_counter_ok == 2, "counters with flags applied");
	CHECK(file_has(path, "\"seen_args\": 3.7"), "args counter in JSON");
	CHECK(file_has(path, "\"c_plain\": 5"), "counter in JSON");
	CHECK(file_has(path, "\"sb_test_key\": \"sb_test_value\""), "context in JSON");
	CHECK(file_has(path, "\"t/args/3/7\""), "args in the run name");
	CHECK(file_has(path, "\"error_message\": \"deliberate failure\""), "error in JSON");
	unlink(path);
	rmdir(out);
	return check_done("test_gbench");
}
