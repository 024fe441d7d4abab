/* cmd/ — the commands: one file each (listed in commands.c), options in
 * (cli.c, from tables), calls out to the rooms below, the help and the
 * man page (help.c), the suites (suite.c).
 * The top of the flow: nothing includes cmd.h but cmd/.
 * uses: core sim machine stats results console tables figures html run drivers plan ab
 */
#ifndef STRATBENCH_CMD_H
#define STRATBENCH_CMD_H

#include <stdbool.h>
#include <stdio.h>

#include "ab/ab.h"
#include "plan/plan.h"

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
/* sb_cmd_parse, and on a usage error its one line on stderr: the handler
 * then returns SB_EXIT_USAGE.  args are freed but for a command that takes
 * Google Benchmark's flags (it frees them). */
int sb_cmd_args(const struct sb_command *c, int argc, char **argv, struct sb_args *args);
void sb_args_free(struct sb_args *args);
/* printf into err[errlen]; returns -1 */
int sb_cmd_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* "stratbench: MESSAGE\n" on stderr; returns rc */
int sb_cmd_error(int rc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
extern const struct sb_option sb_run_options[];	/* the options every family shares */

/* help.c: the help, as text or as roff (the man page), from the tables. */
struct sb_doc {
	FILE *f;
	bool man;
};
void sb_doc_option(struct sb_doc *d, const char *lhs, const char *help);
void sb_help_command(struct sb_doc *d, const struct sb_command *c);
void sb_help_overview(FILE *f);
void sb_version_print(FILE *f);

/* cli.c */
int sb_opts_parse(struct sb_opts *o, int argc, char **argv, char *err, size_t errlen);
void sb_opts_free(struct sb_opts *o);
const char *sb_gb_flag_at(int i);	/* i-th known flag's name, no dashes; NULL past the end */
void sb_gb_flags_usage(struct sb_doc *d);	/* every flag the parser passes to GB */
bool sb_gb_truthy(const char *value);	/* as GB reads a bool flag's value */
/* true when a ("--name[=value]") is an option only other families' drivers
 * take, not family fam's (--lock: a family whose driver takes a lock);
 * then who[len] names those families ("window") */
bool sb_option_foreign(const char *fam, const char *a, char *who, size_t len);

/* cmd_counters.c: the run's counters into the JSON context */
void sb_counters_context(const struct sb_counters_spec *s);

/* dry_run.c: the registered plan listed, with the run's time estimate
 * (docs/running.md, "The estimate"), the calls' cost measured on t when it
 * is this machine, with the run's counters cnt (NULL: none) */
void sb_dry_run_list(int argc, char **argv, const struct sb_topo *t,
		     const struct sb_counters_spec *cnt);

#endif
