/* test_gbench_stop.c — a failed run among finished repetitions of the same
 * benchmark, under random interleaving (gbench.h): Google Benchmark 1.7.1
 * aborts the process (ComputeStats: run_iterations == run.iterations) if
 * such a run counts 0 iterations, as it did when a Ctrl-C skipped the rest
 * of an interleaved, repeated run.  Each mode runs in a child process:
 *   stop:  6 benchmarks × 4 repetitions; a body calls sb_gbench_stop() as
 *          soon as another benchmark has finished 2 or 3 of its 4.  The run
 *          ends; the part-done benchmark is dropped whole, the one in
 *          flight finishes its repetitions, the finished ones are reported.
 *   error: 3 × 3; benchmark 0 reports an error before its loop on its third
 *          repetition.  The run ends; benchmark 0 is reported with its
 *          error, the others whole.
 * Built twice: test_gbench_stop expects each child to exit 0, and the
 * broken fixture test_gbench_stop_unpadded (gbench.cc without
 * count_planned) expects each to die of SIGABRT: the harm the test guards
 * against, shown to be real. */
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run/gbench.h"

#include "check.h"

#define MAXB 6

static int nbench, reps, error_mode;
static int done[MAXB];		/* finished repetitions, per benchmark */
static int hazard = -1;		/* part-done benchmark when stop was raised */
static int stopper = -1;	/* the benchmark in flight then */
static int reported_ok[MAXB], reported_err[MAXB], reported_agg[MAXB];

static int index_of(const char *name)
{
	int i;

	return sscanf(name, "b/%d", &i) == 1 && i >= 0 && i < nbench ? i : -1;
}

static void body(sb_state *st, void *arg)
{
	int i = (int)(intptr_t)arg;

	if (error_mode && i == 0 && done[0] == 2) {
		sb_state_skip_with_error(st, "test: an error before the loop");
		return;
	}
	if (!error_mode && stopper < 0) {
		for (int j = 0; j < nbench; j++) {
			if (j != i && done[j] >= 2 && done[j] < reps) {
				hazard = j;
				stopper = i;
				sb_gbench_stop();
				break;
			}
		}
	}
	while (sb_state_keep_running_batch(st, 1000) > 0)
		;
	done[i]++;
}

static void hook(const struct sb_run_report *r, void *arg)
{
	int i = index_of(r->name);

	(void)arg;
	if (i < 0)
		return;
	if (r->aggregate[0])
		reported_agg[i]++;
	else if (r->error)
		reported_err[i]++;
	else
		reported_ok[i]++;
}

static int child(void)
{
	char n_reps[48];
	char *gb[] = { "test_gbench_stop", n_reps, "--benchmark_enable_random_interleaving=true",
		       "--benchmark_format=json", NULL };
	int rc, keep, null;

	snprintf(n_reps, sizeof(n_reps), "--benchmark_repetitions=%d", reps);
	for (int i = 0; i < nbench; i++) {
		char name[16];

		snprintf(name, sizeof(name), "b/%d", i);
		sb_bench_iterations(sb_bench_register(name, body, (void *)(intptr_t)i), 100);
	}
	sb_gbench_on_run(hook, NULL);
	/* GB's JSON display to /dev/null, the checks' lines to stdout */
	fflush(stdout);
	keep = dup(1);
	null = open("/dev/null", O_WRONLY);
	if (keep < 0 || null < 0 || dup2(null, 1) < 0)
		return 1;
	rc = sb_gbench_main(4, gb);
	fflush(stdout);
	dup2(keep, 1);
	CHECK(rc == 0 || rc == 1, "sb_gbench_main: %d", rc);
	if (error_mode) {
		CHECK(reported_ok[0] == reps - 1 && reported_err[0] == 1,
		      "b/0: %d ok, %d error runs reported, want %d and 1", reported_ok[0],
		      reported_err[0], reps - 1);
		for (int i = 1; i < nbench; i++)
			CHECK(reported_ok[i] == reps && !reported_err[i],
			      "b/%d: %d ok, %d error runs reported", i, reported_ok[i], reported_err[i]);
		return check_done("test_gbench_stop error");
	}
	/* the stop is raised when the shuffle first leaves a benchmark part-done:
	 * in every order but those that run each benchmark's last 3 back to back */
	CHECK(hazard >= 0, "no benchmark was part-done at any run: the shuffle never interleaved");
	if (hazard < 0)
		return check_done("test_gbench_stop stop");
	CHECK(!reported_ok[hazard] && !reported_err[hazard] && !reported_agg[hazard],
	      "b/%d, part-done at the stop, is not reported (%d ok, %d error runs)", hazard,
	      reported_ok[hazard], reported_err[hazard]);
	CHECK(done[stopper] == reps && reported_ok[stopper] == reps,
	      "b/%d, in flight at the stop, finished its %d repetitions (%d run, %d reported)",
	      stopper, reps, done[stopper], reported_ok[stopper]);
	for (int i = 0; i < nbench; i++) {
		if (done[i] == reps)
			CHECK(reported_ok[i] == reps && reported_agg[i] > 0,
			      "b/%d, finished, is reported whole (%d runs, %d aggregates)", i,
			      reported_ok[i], reported_agg[i]);
		else
			CHECK(!reported_ok[i] && !reported_err[i],
			      "b/%d, not finished, is not reported", i);
	}
	return check_done("test_gbench_stop stop");
}

/* Runs one mode in a child; returns its wait status. */
static int run_mode(int err, int nb, int r)
{
	pid_t pid;
	int status = -1;

	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		error_mode = err;
		nbench = nb;
		reps = r;
		int rc = child();

		fflush(NULL);
		_exit(rc);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return status;
}

int main(void)
{
	static const struct { const char *name; int err, nb, reps; } modes[] = {
		{ "stop", 0, 6, 4 },
		{ "error", 1, 3, 3 },
	};
#ifdef SB_TEST_UNPADDED
	const int broken = 1;
#else
	const int broken = 0;
#endif

	for (size_t k = 0; k < sizeof(modes) / sizeof(modes[0]); k++) {
		int st = run_mode(modes[k].err, modes[k].nb, modes[k].reps);

		if (broken)
			CHECK(st != -1 && WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT,
			      "%s, broken fixture: Google Benchmark aborts (status %#x)", modes[k].name,
			      st);
		else
			CHECK(st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0,
			      "%s: the child exits 0 (status %#x%s)", modes[k].name, st,
			      st != -1 && WIFSIGNALED(st) ? ", killed by a signal" : "");
	}
	return check_done(broken ? "test_gbench_stop_unpadded" : "test_gbench_stop");
}
