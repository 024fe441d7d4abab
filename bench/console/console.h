/* console/ — what `stratbench run` shows a person while it runs: the
 * tables (console.c, console_context.c) and the progress line (progress.c).
 * uses: core machine stats results
 *
 * console.h — (docs/console.md) --console=table (default): at most 5 context lines,
 * then one aligned table per family, a row per benchmark as its repetitions finish
 * (while another family's table is open, its rows wait for it to complete or the
 * run to end: one table per family, interleaved or not), from the typed point
 * (point.h) and the family's few metrics, sorted by strategy and threads
 * (sb_console_rank: a row waits for those before it, an interleaved run's too); noisy rows marked, an unreported value
 * "-".  counters: also each row's non-zero counters under it.  gbench: GB's own.
 * With --benchmark_format=json stdout is GB's JSON only (noisy marks to stderr).
 * No line exceeds SB_CONSOLE_WIDTH.  The files never depend on the console mode.
 */
#ifndef STRATBENCH_CONSOLE_H
#define STRATBENCH_CONSOLE_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "machine/counters.h"
#include "results/report.h"

#define SB_CONSOLE_WIDTH 160

enum sb_console_mode { SB_CONSOLE_TABLE, SB_CONSOLE_GBENCH, SB_CONSOLE_COUNTERS };

struct sb_console_cfg {
	enum sb_console_mode mode;
	bool json_stdout;	/* --benchmark_format=json: stdout is GB's JSON */
	double cv_threshold;	/* %: a row whose CV of ops_per_s is above is noisy */
	const char *out;	/* --out=DIR, NULL: nothing written */
};

/* "table", "gbench", "counters": 0, or -1 for anything else. */
int sb_console_mode_parse(const char *s, enum sb_console_mode *m);
/* Before anything is reported. */
void sb_console_begin(const struct sb_console_cfg *c);
/* Ours (table or counters, console-format stdout): GB's display prints nothing, and
 * quiet.c's, the settings' and the counters' warnings join the context lines. */
bool sb_console_owns(void);
/* The JSON context (GB's and sb_* keys), once before any result: lines if owned. */
void sb_console_context(json_t *context);
/* One benchmark finished (group hook's runs, arr: GB's JSON of them): a row
 * (owned), or the noisy mark alone (gbench: "^ noisy: ..." on stdout; json: stderr). */
void sb_console_group(const struct sb_run_report *runs, int n, json_t *arr);

/* After the last benchmark: the tables of families whose rows waited (interleaved). */
void sb_console_end(void);

/* console_order.c: f's row's place in its family's table, 0 first (f: a planned
 * point, sb_points_at's): by strategy (and lock) in the plan's order, then threads,
 * then the plan's order; each planned point of a family has its own rank. */
struct sb_point_fields;
int sb_console_rank(const struct sb_point_fields *f);

/* console_context.c: the run's --counters, for the context's counters line */
void sb_console_context_counters(const struct sb_counters_spec *s);
/* console_context.c: the context lines (at most 5, each fitting the width). */
void sb_console_context_lines(FILE *f, json_t *context, const char *out);
/* The text of a value in n characters at most, with ellipsis when cut. */
void sb_console_fit(char *s, size_t width);

/* progress.c: [k/N] name … ETA on a terminal's stderr */
void sb_progress_format(char *buf, size_t n, int done, int total, const char *name,
			double elapsed_s);
/* true when shown (a terminal, not quiet): then hook on_start and clear */
bool sb_progress_begin(int total, bool quiet);
void sb_progress_on_start(const char *name, void *arg);
void sb_progress_clear(void *arg);
void sb_progress_group(int nruns);
void sb_progress_end(void);

#endif
