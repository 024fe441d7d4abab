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
	bool limits;			/* --limits: run the calibration families too */
	const char *label;		/* --label: names the run in the JSON context */
	const char *resume;		/* --resume=DIR */
	bool quiet;			/* no progress line */
	const char *console;		/* --console: table, gbench or counters */
	double cv_threshold;		/* flag benchmarks whose CV exceeds it (%) */
	const char *suite;		/* --suite=NAME (suite.h), NULL: none */
	bool dry_run;			/* list the plan and its time estimate only */
	/* --ab (cmd/ab.c); 0: not given */
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

/* Every family, in listing and run order (plan.c). */
extern const struct sb_family_driver sb_window_driver, sb_lock_driver, sb_shootdown_driver,
	sb_baseline_driver;
extern const struct sb_family_driver sb_calibrate_driver;
/* calibrate_bench.c: the enum sb_pairs_mode --pairs (auto, all, sample)
 * means here (all on more than 512 PUs: the sample) */
int sb_calibrate_pairs_mode(const struct sb_topo *t);
extern const struct sb_family_driver sb_shootdown_kernel_driver;
extern const struct sb_family_driver *const sb_drivers[];

/* One command.  Its entry is everything the help, the man page and the
 * bash completion know of it, and its parser accepts exactly the options
 * its tables list: a new command is its file (handler + entry) and one line
 * in commands.c; a new option is a table row, and the help follows. */
struct sb_command {
	const char *name;
	const char *summary;		/* one line */
	const char *usage;		/* synopsis after "stratbench NAME" */
	const char *description;	/* NULL or paragraphs, lines ending in \n */
	const struct sb_option *options;	/* its own options; NULL: none */
	bool family_options;		/* also every family's table (run) */
	bool gbench_flags;		/* --benchmark_* pass to Google Benchmark */
	const char *example;		/* NULL or command lines, one per line */
	int (*run)(int argc, char **argv);	/* argv[0] is the command name */
};

/* commands.c: every command, in help order; NULL-terminated. */
extern const struct sb_command *const sb_commands[];
extern const struct sb_command sb_cmd_list, sb_cmd_topo, sb_cmd_run, sb_cmd_counters,
	sb_cmd_compare, sb_cmd_summary, sb_cmd_merge,
	sb_cmd_selftest, sb_cmd_plot, sb_cmd_help, sb_cmd_calibrate;
const struct sb_command *sb_command_find(const char *name);

/* cli.c: what sb_cmd_parse leaves.  Set npos to the most positional
 * arguments the command takes (0: none) before the call. */
struct sb_args {
	int gb_argc;			/* argv[0] and the --benchmark_* flags */
	char **gb_argv;
	int npos;
	const char *pos[16];		/* at most 16 */
};
int sb_cmd_parse(const struct sb_command *c, int argc, char **argv, struct sb_args *args,
		 char *err, size_t errlen);
/* sb_cmd_parse, and on a usage error its one line on stderr (args freed):
 * the handler then returns SB_EXIT_USAGE. */
int sb_cmd_args(const struct sb_command *c, int argc, char **argv, struct sb_args *args);
void sb_args_free(struct sb_args *args);
extern const struct sb_option sb_run_options[];	/* the options every family shares */

/* help.c: the help, as text or as roff (the man page), from the tables. */
struct sb_doc {
	FILE *f;
	bool man;
};
void sb_doc_option(struct sb_doc *d, const char *lhs, const char *help);
void sb_help_command(struct sb_doc *d, const struct sb_command *c);
void sb_help_overview(FILE *f);
void sb_help_man(FILE *f);
void sb_version_print(FILE *f);

/* plan.c: 0 registered; 1 nothing to run because every selected strategy
 * was skipped on this machine (each said why on stderr; err says so too);
 * -1 and err */
int sb_plan_register(const struct sb_opts *o, const struct sb_topo *t, char *err, size_t errlen);
void sb_plan_free(void);
/* every planned point, the latest first (->next); registered unless --resume skipped it */
const struct sb_point *sb_plan_points(void);

/* the lines of strategies skipped by the plan (kept until every usage check passed) */
void sb_plan_say_skipped(void);

/* cli.c */
/* SIGINT and SIGTERM to handler (NULL: the default action), restarting
 * interrupted calls: run, the suite and --ab stop on them */
void sb_catch_stop_signals(void (*handler)(int));
int sb_opts_parse(struct sb_opts *o, int argc, char **argv, char *err, size_t errlen);
void sb_opts_free(struct sb_opts *o);
/* 0 if a --benchmark_* (or --v=) flag is known and its value well formed */
int sb_gb_flag_check(const char *arg, char *err, size_t errlen);
bool sb_gb_flag_like(const char *arg);	/* --benchmark_* or --v= */
const char *sb_gb_flag_at(int i);	/* i-th known flag's name, no dashes; NULL past the end */
void sb_gb_flags_usage(struct sb_doc *d);	/* every flag sb_gb_flag_check knows */
bool sb_gb_truthy(const char *value);	/* as GB reads a bool flag's value */

/* ab.c: `run --ab`, after the options parsed (o->ab set): plans, runs
 * and reports the paired comparisons; the exit status */
int sb_ab_main(struct sb_opts *o, int argc, char **argv);

/* cmd_counters.c: the run's counters into the JSON context */
void sb_counters_context(const struct sb_counters_spec *s);

/* resume.c: DIR/run.json and what --resume needs; *complete only when
 * run.json says so and the files the readers take are whole (no
 * runs.jsonl.partial; gbench.json, or a runs.jsonl with no cut line) */
int sb_resume_record(const char *dir, int argc, char **argv, const char *label, bool complete,
		     char *err, size_t errlen);
int sb_resume_load(const char *dir, int *argc, char ***argv, bool *complete, char *err,
		   size_t errlen);
void sb_resume_free_argv(int argc, char **argv);

#endif
