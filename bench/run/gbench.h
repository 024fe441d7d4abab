/* gbench.h — a C API over Google Benchmark (run/gbench.cc).  Handles are opaque.
 * A benchmark's body is fn(state, arg); setup/teardown run around every call of
 * it with the same arg (GB 1.7.1's own take no user data).  sb_state_range()
 * checks the index (1.7.1's State::range() only asserts).  The hot loop is
 * sb_state_keep_running_batch(): iterations to run now (0: done), one call a batch.
 * Stages: every run of stage s is reported before a later stage starts (random
 * interleaving shuffles within a stage), so what others are computed against
 * (calibration, 1-thread references) goes first; one context and file for all.
 */
#ifndef STRATBENCH_GBENCH_H
#define STRATBENCH_GBENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "results/report.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sb_state sb_state;
typedef struct sb_bench sb_bench;
typedef void (*sb_bench_fn)(sb_state *st, void *arg);

/* Counter flags: the values of benchmark::Counter::Flags. */
enum {
	SB_COUNTER_DEFAULT = 0,
	SB_COUNTER_RATE = 1 << 0,		/* divided by the run's time */
	SB_COUNTER_AVG_THREADS = 1 << 1,	/* divided by GB's thread count */
	SB_COUNTER_ITER_INVARIANT = 1 << 2,	/* multiplied by iterations */
	SB_COUNTER_AVG_ITERATIONS = 1 << 3,	/* divided by iterations */
	SB_COUNTER_INVERT = 1u << 31,		/* 1/x, last */
};

sb_bench *sb_bench_register(const char *name, sb_bench_fn fn, void *arg);
/* Forgets every registered benchmark (their args may be freed after). */
void sb_bench_clear_all(void);
void sb_bench_setup(sb_bench *b, sb_bench_fn setup);
void sb_bench_teardown(sb_bench *b, sb_bench_fn teardown);
void sb_bench_args(sb_bench *b, const int64_t *v, int n);/* one argument set of n */
void sb_bench_range(sb_bench *b, int64_t lo, int64_t hi);
void sb_bench_use_manual_time(sb_bench *b);
void sb_bench_iterations(sb_bench *b, int64_t n);
void sb_bench_min_time(sb_bench *b, double seconds);
void sb_bench_repetitions(sb_bench *b, int n);
void sb_bench_stage(sb_bench *b, int stage);		/* default 0; see Stages */

/* 0 and *out set, or -1 if i is not an argument of this run. */
int sb_state_range(sb_state *st, int i, int64_t *out);
bool sb_state_keep_running(sb_state *st);
int64_t sb_state_keep_running_batch(sb_state *st, int64_t max_batch);
int64_t sb_state_iterations(const sb_state *st);
/* The iterations Google Benchmark asked of this call of the body (its batch). */
int64_t sb_state_max_iterations(const sb_state *st);
/* The min_time (s) Google Benchmark sized that batch by: the benchmark's
 * own, a trial's, else --benchmark_min_time's; 0 when the iteration count
 * is fixed (sb_bench_iterations, a trial's): then no time was planned. */
double sb_state_min_time(const sb_state *st);
void sb_state_set_iteration_time(sb_state *st, double seconds);
void sb_state_counter(sb_state *st, const char *name, double value, unsigned flags);
void sb_state_set_label(sb_state *st, const char *label);
/* Adds to the label ("; " between parts): several reporters of one run. */
void sb_state_append_label(sb_state *st, const char *label);
void sb_state_skip_with_error(sb_state *st, const char *msg);
bool sb_state_error_occurred(const sb_state *st);

/* Hands results/ sb_context_add, sb_gbench_stop (report.h); main(): once, before any context. */
void sb_gbench_serve_results(void);
/* JSON "context" entries; call before sb_gbench_main(). */
void sb_context_add(const char *key, const char *value);

/* Adds a hook (up to 4; -1 when full): each gets every run, in the order
 * added, once all repetitions of its benchmark are done (results/report.h). */
int sb_gbench_on_run(sb_run_hook hook, void *arg);
/* One benchmark's reports together, after the run hook saw each (results/report.h). */
void sb_gbench_on_group(sb_group_hook hook, void *arg);
/* Called with the registered name as a body is entered (calibration: often). */
typedef void (*sb_start_hook)(const char *name, void *arg);
void sb_gbench_on_start(sb_start_hook hook, void *arg);
/* Called once before anything runs with GB's JSON {"context": {...}, "benchmarks": []}. */
void sb_gbench_on_context(void (*hook)(const char *json, void *arg), void *arg);
/* Called before the console shows a benchmark's results. */
void sb_gbench_on_display(void (*hook)(void *arg), void *arg);
/* quiet: the display prints neither context nor runs (the caller's console
 * shows them from the hooks); hooks, file and GB's filter messages unchanged. */
void sb_gbench_display_quiet(bool quiet);
/* Async-signal-safe: every body but the benchmark in flight's (its other
 * repetitions) is skipped from now on; a benchmark with a skipped repetition
 * is reported to nobody (console, file, hooks), so a resumed run redoes it. */
void sb_gbench_stop(void);
/* Runs (benchmarks × repetitions) argv's --benchmark_filter and _repetitions select. */
int sb_gbench_count(int argc, char *const *argv);

/* Initialise with argv (consumes --benchmark_*), run what is registered, shut
 * down: 0, 1 if a benchmark failed, 2 (said) on an argument GB left over. */
int sb_gbench_main(int argc, char **argv);
/* After sb_gbench_main(): 0 if --benchmark_out was written whole, flushed and
 * synced, else the errno of the first failed write (the run stopped there). */
int sb_gbench_out_errno(void);
/* 0 if argv's --benchmark_filter is valid (GB 1.7.1's rules), else -1 and err why. */
int sb_gbench_filter_check(int argc, char *const *argv, char *err, size_t errlen);
/* fn for each benchmark argv's --benchmark_filter selects, with its own min_time,
 * iterations and repetitions (0: the flags' or GB's); returns how many. */
typedef void (*sb_each_fn)(const char *name, double min_time, int64_t iterations,
			   int repetitions, void *arg);
int sb_gbench_each(int argc, char *const *argv, sb_each_fn fn, void *arg);

/* Trials (`run --ab`, ab/ab.c): GB initialised once with argv (no --benchmark_*
 * flags but the display's), then one benchmark at a time alone: one repetition of
 * `iterations`, or (0) of at least min_time s, its reports to hook only.  A trial
 * returns 0, 1 on a reported error, -1 for no such name; trials_end restores the
 * registration.  Trials may precede a sb_gbench_main() in a process, not follow it:
 * its benchmark::Shutdown() leaves GB 1.7.1's context map dangling, and adding to
 * the context (as a run does) then writes freed memory. */
int sb_gbench_trials_begin(int argc, char **argv);	/* 0, or 2 on an unknown flag */
int sb_gbench_trial(const char *name, int64_t iterations, double min_time, sb_run_hook hook,
		    void *arg);
void sb_gbench_trials_end(void);

/* harness/...: a native C++ loop and the C batched loop, for the overhead ratio. */
void sb_gbench_register_selftest(void);

#ifdef __cplusplus
}
#endif

#endif
