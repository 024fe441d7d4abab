/* plan/ — the plan: the options every family shares, turned into typed
 * points (family × strategy [× lock] [× variant] × threads × placement),
 * each named once and registered with the run, with its stage.
 * uses: core machine stats results run drivers */
#ifndef STRATBENCH_PLAN_H
#define STRATBENCH_PLAN_H

#include <stdbool.h>

#include "results/results.h"
#include "drivers/drivers.h"
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
	bool limits;			/* --limits: run the calibration families too */
	const char *label;		/* --label: names the run in the JSON context */
	const char *resume;		/* --resume=DIR */
	bool quiet;			/* no progress line */
	const char *console;		/* --console: table, gbench or counters */
	double cv_threshold;		/* flag benchmarks whose CV exceeds it (%) */
	const char *suite;		/* --suite=NAME (suite.h), NULL: none */
	bool dry_run;			/* list the plan and its time estimate only */
	/* --ab (ab/ab.c); 0: not given */
	const char *ab;			/* "A,B[;A,B...]" */
	int ab_pairs;			/* --pairs */
	double trial_time, precision, max_time;	/* s, %, s */
	/* plan: leave out the benchmarks this says are done (--resume) */
	bool (*skip)(const char *name, void *arg);
	void *skip_arg;
	/* what is left for Google Benchmark */
	int gb_argc;
	char **gb_argv;
};

/* Every family, in listing and run order. */
extern const struct sb_family_driver *const sb_drivers[];

/* 0 registered; 1 nothing to run, every selected strategy skipped here
 * (each said why on stderr; err says so too); -1 and err */
int sb_plan_register(const struct sb_opts *o, const struct sb_topo *t, char *err, size_t errlen);
void sb_plan_free(void);
/* every planned point, the latest first (->next); registered unless --resume skipped it */
const struct sb_point *sb_plan_points(void);

/* counts.c (the thread counts themselves: sb_topo_key_counts, machine/topo.h) */
/* the placements --placement=auto keeps at threads: compact, cores and
 * scatter less those that land on the same set of CPUs, in whatever order
 * (0: none plans); _same_cpus: whether two plans of n are one set */
bool sb_plan_same_cpus(const int *a, const int *b, int n);
int sb_plan_auto_places(const struct sb_topo *t, int threads);

/* the lines of strategies skipped by the plan (kept until every usage check passed) */
void sb_plan_say_skipped(void);

#endif
