/* cmd.h — internal to bench/cmd/: the commands, their common options and
 * the plan.  The top of the flow: it may include every lower layer
 * (run/, report/, machine/, core/); nothing includes it but cmd/.
 */
#ifndef STRATBENCH_CMD_H
#define STRATBENCH_CMD_H

#include <stdbool.h>
#include <stdio.h>

#include "report/report.h"
#include "run/run.h"

/* The options every family shares; a family's own live in its driver's
 * option table (run/run.h). */
struct sb_opts {
	const char *family;		/* NULL: every family */
	const char *strategy;		/* comma list, NULL: all registered */
	const char *lock;		/* comma list or "all"; default per family */
	const char *threads;		/* comma list or "auto" */
	const char *placement;		/* comma list or "auto" */
	const char *out;		/* results directory, NULL: none */
	const char *topology;		/* NULL: this machine */
	int home_node;			/* -1: node of thread 0's CPU */
	const char *counters;		/* --counters list; "default" unless given */
	bool counters_ab;		/* --counters-ab: each point without and with them */
	/* what is left for Google Benchmark */
	int gb_argc;
	char **gb_argv;
};

/* Every family, in listing and run order (plan.c). */
extern const struct sb_family_driver sb_window_driver, sb_lock_driver, sb_baseline_driver;
extern const struct sb_family_driver *const sb_drivers[];

/* plan.c */
int sb_plan_register(const struct sb_opts *o, const struct sb_topo *t, char *err, size_t errlen);
void sb_plan_free(void);

/* cli.c */
int sb_opts_parse(struct sb_opts *o, int argc, char **argv, char *err, size_t errlen);
void sb_opts_free(struct sb_opts *o);
void sb_opts_usage(FILE *f);	/* every family's option table */
/* 0 if a --benchmark_* (or --v=) flag is known and its value well formed */
int sb_gb_flag_check(const char *arg, char *err, size_t errlen);
bool sb_gb_truthy(const char *value);	/* as GB reads a bool flag's value */

int sb_cmd_list(int argc, char **argv);
int sb_cmd_topo(int argc, char **argv);
int sb_cmd_run(int argc, char **argv);
int sb_cmd_selftest(int argc, char **argv);
int sb_cmd_counters(int argc, char **argv);

/* cmd_counters.c: the run's counters into the JSON context */
void sb_counters_context(const struct sb_counters_spec *s);

#endif
