/* suite.h — internal to bench/cmd/: `stratbench run --suite=NAME`, the
 * default suite wherever it runs (docs/running.md "The default suite").
 *
 * A suite is a list of stages, each one `stratbench run` of its own (this
 * binary, as a child process) into DIR or a directory under it, with its
 * own run.json: DIR/suite.json records every stage's command line, so
 * `run --resume=DIR` of a suite finishes each stage that is not complete.
 * After the stages: `stratbench plot` of each stage's directory, then the
 * summary (summary.h) on the console and in DIR/summary.{txt,md}.
 * --dry-run lists every stage's points and the time estimate, runs nothing.
 */
#ifndef STRATBENCH_SUITE_H
#define STRATBENCH_SUITE_H

#include <stdbool.h>

/* argv: `run`'s own arguments (argv[0] "run"); name: --suite's value;
 * out: --out's (NULL: results/HOST-YYYYmmdd-HHMMSS).  Returns run's exit
 * status: 0, 1 a stage failed, 2 usage (nothing run), 128+signal. */
int sb_suite_main(const char *name, const char *out, bool dry_run, int argc, char **argv);
/* `run --resume=DIR` of a suite: every stage not complete, then the plots
 * and the summary. */
int sb_suite_resume(const char *dir, bool quiet);
/* This process is a suite's stage (its --resume=DIR is a run's). */
bool sb_suite_stage(void);

#endif
