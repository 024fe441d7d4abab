/* report.h — one reported run, as the run (run/gbench.h) hands it to the
 * hooks of results/, console/ and the commands; the hooks' types.  The run
 * calls them; they never call the run. */
#ifndef STRATBENCH_RESULTS_REPORT_H
#define STRATBENCH_RESULTS_REPORT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One reported run, as the reporters see it (aggregates included). */
struct sb_run_report {
	const char *name;		/* benchmark name, without /manual_time */
	const char *registered;		/* as registered (no /iterations:N...) */
	const char *aggregate;		/* "" for an iteration, else mean/median/... */
	int64_t iterations;
	int64_t repetition_index;	/* -1 for aggregates */
	double real_ns, cpu_ns;		/* per iteration */
	const char *label;		/* "" unless the benchmark set one */
	const char *error;		/* NULL unless skipped with an error */
	int ncounters;
	const char *const *counter_names;
	const double *counter_values;	/* final values, flags applied */
};
/* A hook that gets every run, as soon as all repetitions of its benchmark are done. */
typedef void (*sb_run_hook)(const struct sb_run_report *r, void *arg);

/* One benchmark's repetitions and aggregates, after the run hook saw each:
 * runs[] sets only name, aggregate, repetition_index and error; json is what
 * GB's JSON reporter writes for them, as an array. */
typedef void (*sb_group_hook)(const struct sb_run_report *runs, int n, const char *json,
			      void *arg);

/* What results/ needs of the run, registered by it (gbench.cc
 * sb_gbench_serve_results, called first): where a JSON context entry goes
 * (none: dropped), what stops the run when an output file cannot be written. */
void sb_context_set_sink(void (*add)(const char *key, const char *value));
void sb_out_fail_set_stop(void (*stop)(void));

#ifdef __cplusplus
}
#endif

#endif
