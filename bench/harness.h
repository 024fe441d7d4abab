/* harness.h — internal to bench/: run options, plan points, family drivers.
 *
 * A plan point is one benchmark: family × strategy [× lock] × threads ×
 * placement.  plan.c expands options into points and registers each with
 * its family driver's body; driver.c runs a body's rounds on a pinned team
 * and reports the common counters.  Strategies never see this header.
 */
#ifndef STRATBENCH_HARNESS_H
#define STRATBENCH_HARNESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <stratbench/gbench.h>
#include <stratbench/registry.h>
#include <stratbench/team.h>
#include <stratbench/topo.h>

#define SB_EXIT_USAGE 2		/* run-time failures return Google Benchmark's 1 */

struct sb_opts {
	const char *family;		/* NULL: every family */
	const char *strategy;		/* comma list, NULL: all registered */
	const char *lock;		/* comma list or "all"; default per family */
	const char *threads;		/* comma list or "auto" */
	const char *placement;		/* comma list or "auto" */
	const char *out;		/* results directory, NULL: none */
	const char *topology;		/* NULL: this machine */
	int home_node;			/* -1: node of thread 0's CPU */
	/* window family */
	double interval_ms;
	unsigned long limit;
	unsigned long nr_pages;
	bool exact;
	/* lock family */
	double crit_ns, par_ns;
	unsigned crit_lines;
	bool trylock;
	/* what is left for Google Benchmark */
	int gb_argc;
	char **gb_argv;
};

struct sb_point {
	char name[256];
	const char *family;
	const char *strategy;
	const char *lock;		/* NULL when the strategy takes none, else lock_name */
	char lock_name[64];
	int threads;
	char placement[128];
	int *cpus;			/* threads OS CPU numbers */
	int home_node;
	const struct sb_opts *opts;
	const struct sb_topo *topo;
	struct sb_point *next;		/* every registered point, freed by sb_plan_free */
};

/* One family's benchmark body; arg is the struct sb_point. */
struct sb_family_driver {
	const char *family;
	enum sb_family reg;			/* its registry, or SB_FAMILY_MAX ... */
	const char *const *names;		/* ... and a fixed NULL-terminated list */
	bool (*takes_lock)(const char *strategy);	/* NULL: none does */
	const char *default_lock;
	void (*body)(sb_state *st, void *point);
};

extern const struct sb_family_driver sb_window_driver, sb_lock_driver, sb_baseline_driver;
extern const struct sb_family_driver *const sb_drivers[];

/* driver.c: shared memory on the point's home node, the team, the rounds. */
struct sb_drive {
	struct sb_team *team;
	uint64_t elapsed_ns;
	uint64_t total_ops;
	uint64_t *ops;			/* per member, summed over rounds */
	int n;
};
void *sb_drive_alloc(sb_state *st, const struct sb_point *pt, size_t size);
void sb_drive_free(const struct sb_point *pt, void *p, size_t size);
/* Runs rounds until Google Benchmark has its iterations; 0, or -1 after
 * reporting the error to the state. */
int sb_drive_run(sb_state *st, const struct sb_point *pt, sb_team_fn fn, void *arg,
		 struct sb_drive *d);
/* ops_per_s, ns_per_op, ops_min, ops_max, jain; frees d. */
void sb_drive_report(sb_state *st, struct sb_drive *d);

/* plan.c */
int sb_plan_register(const struct sb_opts *o, const struct sb_topo *t, char *err, size_t errlen);
void sb_plan_free(void);

/* context.c */
void sb_context_fingerprint(const struct sb_topo *t, int argc, char **argv);

/* csv.c */
int sb_csv_open(const char *path, char *err, size_t errlen);
void sb_csv_close(void);

/* cli.c */
int sb_opts_parse(struct sb_opts *o, int argc, char **argv, char *err, size_t errlen);
void sb_opts_free(struct sb_opts *o);
/* 0 if a --benchmark_* (or --v=) flag is known and its value well formed */
int sb_gb_flag_check(const char *arg, char *err, size_t errlen);
bool sb_gb_truthy(const char *value);	/* as GB reads a bool flag's value */

int sb_cmd_list(int argc, char **argv);
int sb_cmd_topo(int argc, char **argv);
int sb_cmd_run(int argc, char **argv);
int sb_cmd_selftest(int argc, char **argv);

#endif
