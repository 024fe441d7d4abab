/* run/ — running benchmarks: the C API over Google Benchmark (gbench.cc,
 * the only C++), a point's rounds on a pinned team (driver.c), the limits
 * table (limits.c), the stop signals.  It registers with results/ the
 * callbacks results/ needs of it (results/report.h).
 * uses: core machine stats results console
 *
 * run.h — what a family driver is and how it runs.  A plan point is one benchmark:
 * family × strategy [× lock] [× variant] × threads × placement, which plan/plan.c
 * registers with its family's body; driver.c runs the rounds on a pinned team and
 * reports the common counters.  A driver owns its options (parsed by cmd/cli.c,
 * listed by the help) and the name parts they add.  Strategies never see this
 * header; nothing here includes anything from cmd/ or drivers/.
 */
#ifndef STRATBENCH_RUN_H
#define STRATBENCH_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "machine/counters.h"
#include "machine/procfs.h"
#include "run/gbench.h"
#include <stratbench/registry.h>
#include <stratbench/team.h>
#include "machine/topo.h"

#include "results/point.h"

#define SB_EXIT_USAGE 2		/* run-time failures return Google Benchmark's 1 */

struct sb_point {
	char name[256];			/* built from f (sb_point_name): a key, never split */
	struct sb_point_fields f;	/* the typed point every results file carries */
	const char *family;
	const char *strategy;
	const char *lock;		/* NULL when the strategy takes none, else lock_name */
	char lock_name[64];
	int threads;
	char placement[128];
	int *cpus;			/* threads OS CPU numbers */
	int home_node;
	const struct sb_topo *topo;
	bool counters_off;		/* --counters-ab's "/counters:none" twin */
	bool brief;			/* --limits' calibration: a fixed count, bounded in time */
	struct sb_point *next;		/* every registered point, freed by sb_plan_free */
};

/* A --name=VALUE (or bare --name) option of a family, parsed into *value. */
enum sb_opt_type {
	SB_OPT_FLAG,		/* bool; bare --name */
	SB_OPT_DOUBLE,		/* double in [min, max] */
	SB_OPT_ULONG,		/* unsigned long in [min, max] */
	SB_OPT_STRING,		/* const char *; one of choices if given */
	SB_OPT_ULIST,		/* struct sb_ulist: comma list, each in [min, max] */
};

/* SB_OPT_ULIST's value: distinct numbers in the order given. */
#define SB_ULIST_MAX 16
struct sb_ulist {
	int n;
	unsigned long v[SB_ULIST_MAX];
};

struct sb_option {
	const char *name;		/* without the dashes; NULL ends a table */
	enum sb_opt_type type;
	void *value;			/* bool, double, unsigned long, const char * or sb_ulist */
	double min, max;
	const char *const *choices;	/* SB_OPT_STRING: allowed values, NULL: any */
	const char *arg;		/* placeholder in the help: "MS", "PAGES" */
	const char *help;		/* one line: meaning, units, default */
};

/* CPUs of one point chosen by its driver (e.g. one CPU pair). */
#define SB_SET_MAX 4
struct sb_cpu_set {
	int n;
	int cpu[SB_SET_MAX];
};

/* One family's benchmark body; arg is the struct sb_point. */
struct sb_family_driver {
	const char *family;
	const char *summary;
	enum sb_family reg;			/* its registry, or SB_FAMILY_MAX ... */
	const char *const *names;		/* ... and a fixed NULL-terminated list */
	bool (*takes_lock)(const char *strategy);	/* NULL: none does */
	const char *default_lock;
	const struct sb_option *options;	/* NULL or a table ended by .name NULL */
	/* optional: a strategy's variants, each a point (batch sizes): fills
	 * sets[i] (named before threads:N), returns how many; 0 = none */
	int (*variants)(const char *strategy, struct sb_params *sets, int max);
	/* optional: non-default options' parameters (acct=exact), on every point */
	void (*params)(struct sb_params *p);
	/* optional: the CPUs of each point instead of --threads × --placement
	 * (variant NULL: none): *sets malloc'd, each a place:list:CPUS; count */
	int (*cpu_sets)(const struct sb_topo *t, const char *strategy,
			const struct sb_params *variant, struct sb_cpu_set **sets);
	/* a calibration family (limits.h): run only by --family, or by --limits:
	 * then first, once, of brief_iterations(strategy) (a fixed count: GB's
	 * estimate stops after one iteration when a member is descheduled) */
	bool calibrates;
	int64_t (*brief_iterations)(const char *strategy);
	/* optional: checks the options together: 0, or -1 with a usage line in err */
	int (*check)(char *err, size_t errlen);
	/* optional: why a strategy cannot run here ("this machine has 1 NUMA node,
	 * needs 2") or NULL; the plan says "<strategy>: skipped: <why>" on stderr */
	const char *(*unavailable)(const char *strategy, const struct sb_topo *t, char *buf,
				   size_t len);
	void (*body)(sb_state *st, void *point);
};

/* driver.c: shared memory on the point's home node, the team, the rounds. */
struct sb_drive {
	struct sb_team *team;
	uint64_t elapsed_ns;
	uint64_t total_ops;
	uint64_t *ops;			/* per member, summed over rounds */
	int n;
	struct sb_counters *cnt;	/* the run's --counters, NULL: none */
	bool deadline;			/* some round had a deadline (sb_drive_run_team) */
	uint64_t rounds_cut;		/* rounds their deadline ended early */
	/* preemption (sb_drive_run_team, or sb_drive_add_use after each round
	 * of a driver running its own): the team's time, what each member used
	 * of it over all rounds (ok: every round's reading was), the steal on
	 * their CPUs */
	uint64_t team_ns;
	struct sb_member_use *use;
	double steal_pct;		/* NaN: unknown (no steal column, < 1 jiffy) */
	struct sb_cpu_ticks stat0;	/* the steal's first reading */
	const int *steal_cpus;		/* its CPUs (sb_drive_counters_open's point's) */
};
/* The run's --counters (NULL: none): each member opens them on its own thread
 * before the first round and reads them around its part of every round. */
void sb_drive_set_counters(const struct sb_counters_spec *s);
void *sb_drive_alloc(sb_state *st, const struct sb_point *pt, size_t size);
void sb_drive_free(const struct sb_point *pt, void *p, size_t size);
/* Rounds until GB has its iterations; 0, or -1 with the error reported to st.
 * Each round has a deadline of its share of 4 x min_time (none with a fixed
 * iteration count; every member must have a quota or be free to leave at any
 * moment): a round cut by it counts its ops in its time, tells GB the time its
 * iterations would take at that rate, and is counted in rounds_cut. */
int sb_drive_run(sb_state *st, const struct sb_point *pt, sb_team_fn fn, void *arg,
		 struct sb_drive *d);
/* A driver running its own rounds, d->team and d->n set: opens the counters
 * before its first timed round (the team's hooks are theirs until close) and
 * closes them after the last, outside the timing; sb_drive_report reports them.
 * The two also read the steal on the point's CPUs, and the driver gives each
 * of its team's rounds to sb_drive_add_use: sb_drive_report then reports the
 * same preemption counters as after sb_drive_run_team. */
void sb_drive_counters_open(struct sb_drive *d, const struct sb_point *pt);
void sb_drive_counters_close(struct sb_drive *d);
/* A round's team time and its members' CPU time and switches, added to d's
 * (a result with no use array adds nothing). */
void sb_drive_add_use(struct sb_drive *d, const struct sb_team_result *r);
/* sb_drive_run with n members on cpus (may share a CPU) running fn(arg); round_ns,
 * if given, is each round's time for GB and d->elapsed_ns, not the team's.
 * deadline: whether rounds have one.  It raises stop at any moment, so false
 * where a serving member must outlive the quota member (a responder that acks
 * its flush requests: it would leave one unacked). */
struct sb_drive_team {
	int n;
	const int *cpus;
	sb_team_fn fn;
	void *arg;
	uint64_t (*round_ns)(const struct sb_team_result *r, void *arg);
	bool deadline;
};
int sb_drive_run_team(sb_state *st, const struct sb_point *pt, const struct sb_drive_team *t,
		      struct sb_drive *d);
/* Only the --counters (for a driver reporting its own op counters); frees d. */
void sb_drive_report_counters(sb_state *st, struct sb_drive *d);
/* ops_per_s, ns_per_op, ops_min, ops_max, jain, cnt:NAME and cnt:NAME/op, and
 * after sb_drive_run_team (or sb_drive_add_use) the preemption counters
 * (docs/results.md): on_cpu_pct (the least of the members' CPU time in % of
 * the rounds' time), that member's
 * ctx_switches and ctx_involuntary (all three absent where a thread clock or
 * getrusage failed: unavailable, never 0), steal_pct (where the kernel counts
 * steal); frees d. */
void sb_drive_report(sb_state *st, struct sb_drive *d);

/* What a call of a body costs on this machine besides its timed ops, for
 * --dry-run's estimate (s): a team of n members made on cpus, the run's
 * --counters opened on it, /proc/stat read around one round of one op each
 * (with a deadline, as a min_time call's), all closed; the median of 3
 * calls, 0 when no team can be made. */
double sb_drive_call_s(int n, const int *cpus);
/* SIGINT and SIGTERM to handler (NULL: default), SA_RESTART: run, suite, --ab stop */
void sb_catch_stop_signals(void (*handler)(int));

#endif
