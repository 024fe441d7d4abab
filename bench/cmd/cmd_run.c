/* cmd_run.c — `stratbench run`: plan, register, run, write DIR/gbench.json
 * (Google Benchmark JSON with our context), DIR/results.csv, DIR/runs.jsonl
 * (one line per finished benchmark), DIR/windows.jsonl (one line per
 * finished window fidelity benchmark, when there is one) and DIR/run.json
 * (what --resume needs); a finished run ends with its summary (summary.txt),
 * as does a `run --ab` that wrote DIR/ab.json (ab_end).
 * SIGINT/SIGTERM stop after the benchmark run in flight: the files are
 * finished and renamed, the exit status is 130/143; a second signal kills.
 * Every write is checked: a file gets its final name only once it is
 * complete and synced (NAME.partial, fsync, rename, fsync of DIR); a failed
 * write stops the run, keeps every file under its .partial name (what
 * --resume reads) and is one line, exit 1.  The directory's files, its
 * lock and what a resume keeps: results/rundir.h. */
#include "cmd/cmd.h"
#include "cmd/suite.h"
#include "console/console.h"
#include "results/rundir.h"
#include "run/limits.h"
#include "tables/summary.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	static const char msg[] = "\nstratbench: interrupted: finishing the benchmark in "
				  "flight (again to abort)\n";

	got_signal = sig;
	sb_gbench_stop();
	signal(sig, SIG_DFL);	/* a second one kills */
	if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0)
		return;
}

/* The limits table (run/limits.h) as the finished runs left it: each
 * repetition of the log handed to the run hook as it was reported. */
static void replay_limits(json_t *benchmarks)
{
	json_t *e, *v;
	size_t i;

	json_array_foreach(benchmarks, i, e) {
		const char *rn = json_string_value(json_object_get(e, "run_name"));
		const char *agg = json_string_value(json_object_get(e, "aggregate_name"));
		size_t n = json_object_size(e);	/* every member: no cap to cut a counter */
		const char **names = malloc(sizeof(*names) * (n ? n : 1)), *key;
		double *values = malloc(sizeof(*values) * (n ? n : 1));
		char name[256];
		struct sb_run_report r = { .name = name, .label = "", .counter_names = names,
					   .counter_values = values };

		if (!rn || !names || !values) {
			free(names);
			free(values);
			continue;
		}
		/* the name as the live hook gets it: less /manual_time only */
		snprintf(name, sizeof(name), "%s", rn);
		if (strstr(name, "/manual_time"))
			*strstr(name, "/manual_time") = '\0';
		r.registered = sb_points_registered(name);
		r.aggregate = agg ? agg : "";
		r.repetition_index = json_integer_value(json_object_get(e, "repetition_index"));
		if (json_is_true(json_object_get(e, "error_occurred")))
			r.error = "error";
		json_object_foreach(e, key, v)
			if (json_is_number(v)) {
				names[r.ncounters] = key;
				values[r.ncounters++] = json_number_value(v);
			}
		sb_limits_on_run(&r, NULL);
		free(names);
		free(values);
	}
}

/* --- one session's hooks ------------------------------------------------ */

/* arg: non-NULL when runs.jsonl is written (--out) */
static void on_context(const char *json, void *arg)
{
	json_t *j = sb_json_loads_gb(json, NULL);

	sb_console_context(json_object_get(j, "context"));
	if (arg)
		sb_runlog_add("context", json_incref(json_object_get(j, "context")));
	json_decref(j);
}

/* A benchmark finished: its CSV rows, its log line, the progress count and
 * its console row (or noisy mark: console/console.h). */
static void on_group(const struct sb_run_report *runs, int n, const char *json, void *arg)
{
	json_t *arr = sb_json_loads_gb(json, NULL), *e;
	double cv = -1;
	int reps = 0;
	size_t i;

	(void)arg;
	json_array_foreach(arr, i, e) {
		const char *agg = json_string_value(json_object_get(e, "aggregate_name"));
		json_t *ops = json_object_get(e, "ops_per_s");

		if (agg && strcmp(agg, "cv") == 0 && json_is_number(ops))
			cv = 100 * json_number_value(ops);
	}
	for (int k = 0; k < n; k++)
		reps += runs[k].aggregate[0] == '\0';
	sb_csv_group(cv);
	sb_timeline_flush(n ? runs[0].registered : NULL);	/* before: see sb_rundir_resume */
	sb_console_group(runs, n, arr);	/* before the log takes arr */
	sb_runlog_add_bench(n ? runs[0].registered : NULL, arr);
	sb_progress_group(reps);
}

/* The console: its mode, and whether stdout is Google Benchmark's JSON
 * (--benchmark_format=json, one value only: cli.c). */
static void console_begin(const struct sb_opts *o, const struct sb_counters_spec *cnt)
{
	struct sb_console_cfg c = { .cv_threshold = o->cv_threshold, .out = o->out };

	if (sb_console_mode_parse(o->console, &c.mode))
		c.mode = SB_CONSOLE_TABLE;	/* cli.c allows only the three */
	for (int i = 1; i < o->gb_argc; i++)
		if (!strcmp(o->gb_argv[i], "--benchmark_format=json"))
			c.json_stdout = true;
	sb_console_begin(&c);
	sb_console_context_counters(cnt);
	sb_gbench_display_quiet(sb_console_owns());
}

/* --- the command ---------------------------------------------------------- */

/* One `run` from its options to its files.  Each step returns STEP_OK to go
 * on, STEP_DONE (rc set) to stop there, or STEP_USAGE (err set; rc, unless
 * set, the usage error's) to say err and leave nothing behind. */
enum { STEP_USAGE = -1, STEP_OK, STEP_DONE };	/* STEP_USAGE: sb_cmd_err's -1 */

struct run {
	struct sb_opts o;
	struct sb_counters_spec *cnt;
	struct sb_topo *t;
	struct sb_done done;
	const char *resume;	/* --resume's DIR, or NULL */
	int argc, rargc;	/* argv: the command line run (for a resume, DIR's) */
	char **argv, **rargv;
	int rc, total;
	bool list_only, fresh;	/* fresh: DIR/.lock and run.json are ours */
	char err[8192];
};

/* --resume=DIR: the command line DIR recorded, with --quiet and --console
 * as given now; DIR locked unless it is complete. */
static int resume_args(struct run *r)
{
	struct sb_opts *o = &r->o;
	const char *resume = o->resume, *console = NULL;
	bool quiet = o->quiet, complete;

	for (int i = 1; i < r->argc; i++) {
		const char *a = r->argv[i];

		if (!strncmp(a, "--console=", 10)) {	/* a resume's display, not the run's */
			console = o->console;
		} else if (strncmp(a, "--resume=", 9) && strcmp(a, "--quiet")) {
			return sb_cmd_err(r->err, sizeof(r->err), "--resume=DIR reruns the command "
					  "line recorded in DIR: drop '%s'", a);
		}
	}
	if (!sb_suite_stage() && sb_dir_has(resume, "suite.json")) {
		r->rc = sb_suite_resume(resume, quiet);
		return STEP_DONE;
	}
	if (sb_resume_load(resume, &r->rargc, &r->rargv, &complete, r->err, sizeof(r->err)))
		return STEP_USAGE;
	if (!complete) {
		/* one writer: held until exit, before anything in DIR is read
		 * for the resume or changed (a complete DIR is left as it is,
		 * .lock included) */
		if (sb_rundir_lock(resume, r->err, sizeof(r->err)) < 0)
			return STEP_USAGE;
		/* another resume may have finished it while we waited */
		sb_resume_free_argv(r->rargc, r->rargv);
		r->rargv = NULL;
		if (sb_resume_load(resume, &r->rargc, &r->rargv, &complete, r->err,
				   sizeof(r->err)))
			return STEP_USAGE;
	}
	if (complete) {
		r->rc = sb_cmd_error(0, "nothing to resume: '%s' is complete", resume);
		return STEP_DONE;
	}
	sb_opts_free(o);
	if (sb_opts_parse(o, r->rargc, r->rargv, r->err, sizeof(r->err)) || o->resume || !o->out)
		return sb_cmd_err(r->err, sizeof(r->err), "cannot resume '%s': its recorded "
				  "command line no longer parses", resume);
	o->out = r->resume = resume;
	o->quiet |= quiet;
	if (console)
		o->console = console;
	r->argc = r->rargc;
	r->argv = r->rargv;
	return STEP_OK;
}

/* The options, parsed: a suite or a paired comparison runs apart (*ab:
 * sb_ab_main ran, its status in rc), a resume takes DIR's. */
static int run_begin(struct run *r, bool *ab)
{
	struct sb_opts *o = &r->o;

	if (sb_opts_parse(o, r->argc, r->argv, r->err, sizeof(r->err)))
		return STEP_USAGE;
	if (o->suite) {
		r->rc = sb_suite_main(o->suite, o->out, o->dry_run, r->argc, r->argv);
		return STEP_DONE;
	}
	if (o->ab || o->ab_pairs || o->trial_time > 0 || o->precision > 0 || o->max_time > 0) {
		if (o->dry_run)		/* it adds pairs as it goes: nothing to list */
			return sb_cmd_err(r->err, sizeof(r->err), "--dry-run and --ab do not "
					  "combine: a paired comparison plans its pairs as it runs "
					  "(its bound: --max-time)");
		*ab = true;
		r->rc = sb_ab_main(o, r->argc, r->argv);	/* paired comparisons: ab.c */
		return STEP_DONE;
	}
	return o->resume ? resume_args(r) : STEP_OK;
}

/* The checks that need no plan: GB's flags, the counters, the machine. */
static int run_check(struct run *r)
{
	struct sb_opts *o = &r->o;
	char *err = r->err;
	size_t errlen = sizeof(r->err);

	for (int i = 1; i < o->gb_argc; i++)
		if (o->out && strncmp(o->gb_argv[i], "--benchmark_out", 15) == 0)
			return sb_cmd_err(err, errlen, "--out=DIR writes DIR/gbench.json itself: "
					  "drop %s", o->gb_argv[i]);
	if (sb_counters_parse(o->counters, &r->cnt, err, errlen))
		return STEP_USAGE;
	if (o->counters_ab && !sb_counters_count(r->cnt))
		return sb_cmd_err(err, errlen, "--counters-ab compares no counters with some: "
				  "drop --counters=none");
	/* --dry-run may plan for a lab machine's shape: no bindable check (it
	 * times its calls only on this machine's own topology) */
	if (sb_topo_load(&r->t, o->topology, err, errlen) ||
	    (!o->dry_run && sb_topo_check_bindable(r->t, err, errlen)))
		return STEP_USAGE;
	if (o->home_node >= 0 && !sb_topo_has_node(r->t, o->home_node))
		return sb_cmd_err(err, errlen, "NUMA node %d does not exist here (%d node%s)",
				  o->home_node, sb_topo_nnodes(r->t),
				  sb_topo_nnodes(r->t) > 1 ? "s" : "");
	if (sb_gbench_filter_check(o->gb_argc, o->gb_argv, err, errlen))
		return STEP_USAGE;
	for (int i = 1; i < o->gb_argc; i++) {	/* one value only (cli.c) */
		const char *a = o->gb_argv[i];

		if (strncmp(a, "--benchmark_list_tests", 22) == 0 && (!a[22] || a[22] == '='))
			r->list_only = sb_gb_truthy(a[22] ? a + 23 : "");
	}
	if (o->out && r->list_only) {
		sb_cmd_error(0, "note: --benchmark_list_tests runs nothing; --out ignored");
		o->out = NULL;
	}
	return STEP_OK;
}

/* "--benchmark_filter='F' matches none": a fresh run with nothing to run */
static int filter_none(struct run *r)
{
	const char *flt = NULL;

	for (int i = 1; i < r->o.gb_argc; i++)
		if (!strncmp(r->o.gb_argv[i], "--benchmark_filter=", 19))
			flt = r->o.gb_argv[i] + 19;
	return sb_cmd_err(r->err, sizeof(r->err), "--benchmark_filter='%s' matches none of the "
			  "%d benchmarks planned (see --benchmark_list_tests)", flt ? flt : "",
			  sb_gbench_count(1, r->argv));
}

/* A resume's DIR rewritten to what finished, the plan registered, less
 * what finished; --dry-run lists it. */
static int run_plan(struct run *r)
{
	/* from before the first file is changed to the last renamed: a signal
	 * stops the run (every body skipped, if none started yet) and the
	 * files are finished; a second one kills */
	sb_catch_stop_signals(on_signal);
	if (r->resume) {
		/* -2: DIR holds what is not results (exit 2); -1: it could
		 * not be rewritten (exit 1); either way DIR is as it was */
		int k = sb_rundir_resume(r->resume, &r->done, r->err, sizeof(r->err));

		if (k) {
			r->rc = k == -2 ? SB_EXIT_USAGE : 1;
			return STEP_USAGE;
		}
		r->o.skip = sb_done_has;
		r->o.skip_arg = &r->done;
	}
	/* the plan keeps its "skipped" lines until every usage check passed */
	switch (sb_plan_register(&r->o, r->t, r->err, sizeof(r->err))) {
	case 0:
		break;
	case 1:		/* everything asked for cannot run here: each skip says why */
		sb_plan_say_skipped();
		r->rc = 0;
		return STEP_DONE;
	default:
		return STEP_USAGE;
	}
	if (r->resume)	/* after the plan: its typed points key the table */
		replay_limits(r->done.benchmarks);
	r->total = sb_gbench_count(r->o.gb_argc, r->o.gb_argv);
	if (r->total == 0 && !r->resume)
		return filter_none(r);
	if (r->o.dry_run) {	/* the plan and its estimate; nothing created */
		sb_plan_say_skipped();
		sb_dry_run_list(r->o.gb_argc, r->o.gb_argv, r->t, r->cnt);
		r->rc = 0;
		return STEP_DONE;
	}
	return STEP_OK;
}

/* DIR/NAME opened for writing by open_fn; a path too long fails as
 * open_fn's own open would, in its words (verb). */
static int open_out(int (*open_fn)(const char *, char *, size_t), const char *verb,
		    const char *dir, const char *name, char *err, size_t errlen)
{
	char path[SB_PATH];

	if (sb_pathf(path, "%s/%s", dir, name))
		return sb_cmd_err(err, errlen, "cannot %s %s/%s: %s", verb, dir, name,
				  strerror(errno));
	return open_fn(path, err, errlen);
}

/* A fresh DIR made, locked and recorded (the last usage check: nothing
 * is created before it), then the .partial files opened (exit 1 if not). */
static int run_open(struct run *r)
{
	static char out_json[PATH_MAX + 32];
	struct sb_opts *o = &r->o;
	char path[SB_PATH];
	bool append;

	if (o->out && !r->resume) {
		if (sb_rundir_prepare(o->out, r->err, sizeof(r->err)) ||
		    sb_rundir_lock(o->out, r->err, sizeof(r->err)) < 0 ||
		    sb_rundir_prepare(o->out, r->err, sizeof(r->err)))	/* a run that started meanwhile */
			return STEP_USAGE;
		r->fresh = true;
		r->rc = 1;	/* from here a failure is no usage error */
		if (sb_resume_record(o->out, r->argc, r->argv, o->label, false, r->err,
				     sizeof(r->err)))
			return STEP_USAGE;
	}
	sb_plan_say_skipped();
	if (!o->out)
		return STEP_OK;
	r->rc = 1;
	append = r->resume && sb_pathf(path, "%s/results.csv.partial", o->out) == 0 &&
		 access(path, F_OK) == 0;
	if (open_out(append ? sb_csv_append : sb_csv_open, append ? "append to" : "create",
		     o->out, "results.csv.partial", r->err, sizeof(r->err)))
		return STEP_USAGE;
	sb_gbench_on_run(sb_csv_on_run, NULL);
	sb_csv_cv_threshold(o->cv_threshold);
	if (open_out(sb_runlog_open, "open", o->out, "runs.jsonl.partial", r->err, sizeof(r->err)) ||
	    open_out(sb_timeline_open, "open", o->out, "windows.jsonl.partial", r->err,
		     sizeof(r->err)))
		return STEP_USAGE;
	snprintf(out_json, sizeof(out_json), "--benchmark_out=%s/gbench.json.partial", o->out);
	o->gb_argv[o->gb_argc++] = out_json;
	o->gb_argv[o->gb_argc++] = "--benchmark_out_format=json";
	o->gb_argv[o->gb_argc] = NULL;
	return STEP_OK;
}

/* The hooks, the JSON context, then Google Benchmark (unless a resume
 * finds nothing left to run): rc its status. */
static void run_session(struct run *r)
{
	struct sb_opts *o = &r->o;
	char *pts, v[64];

	/* the limits table is fed from what is reported (run/limits.h) */
	sb_gbench_on_run(sb_limits_on_run, NULL);
	sb_gbench_on_group(on_group, NULL);
	console_begin(o, r->cnt);
	sb_gbench_on_context(on_context, o->out ? (void *)o->out : NULL);
	sb_context_fingerprint(r->t, r->argc, r->argv);
	if (!r->list_only)
		sb_counters_context(r->cnt);
	sb_context_add("sb_label", o->label ? o->label : "");
	/* every planned point as typed fields (results/point.h) */
	pts = sb_points_json();
	snprintf(v, sizeof(v), "%d", SB_SCHEMA_VERSION);
	sb_context_add("sb_schema", v);
	sb_context_add("sb_points", pts ? pts : "{}");
	free(pts);
	snprintf(v, sizeof(v), "%g", o->cv_threshold);
	sb_context_add("sb_cv_threshold", v);
	if (r->resume) {
		snprintf(v, sizeof(v), "%d benchmarks finished before this session", r->done.n);
		sb_context_add("sb_resumed", v);
	}
	if (!r->list_only && r->total > 0)
		sb_quiet_check(!sb_console_owns());
	if (r->resume && r->total == 0) {
		r->rc = 0;	/* everything had finished: only the files to complete */
		return;
	}
	if (sb_progress_begin(r->total, o->quiet || r->list_only)) {
		sb_gbench_on_start(sb_progress_on_start, NULL);
		sb_gbench_on_display(sb_progress_clear, NULL);
	}
	sb_drive_set_counters(r->cnt);
	r->rc = sb_gbench_main(o->gb_argc, o->gb_argv);
	sb_drive_set_counters(NULL);
	sb_progress_end();
	sb_console_end();
}

/* --benchmark_format=json or csv: stdout is Google Benchmark's file, no table */
static bool stdout_is_data(const struct sb_opts *o)
{
	for (int i = 1; i < o->gb_argc; i++)
		if (!strncmp(o->gb_argv[i], "--benchmark_format=", 19) &&
		    strcmp(o->gb_argv[i] + 19, "console"))
			return true;
	return false;
}

/* A finished run's summary (tables/summary.h) in out/summary.txt and .md, as a
 * suite's, and on stdout when print; a suite's stage leaves it to the suite.
 * Not written: one line, the results stay complete. */
static void run_summary(const char *out, bool print)
{
	const char *dirs[1] = { out };
	char err[8192];

	if (sb_suite_stage())
		return;
	if (print)
		printf("\n");
	if (sb_summary_write_ref(out, dirs, 1, NULL, print, err, sizeof(err)))
		sb_cmd_error(0, "summary not written: %s", err);
	else
		sb_cmd_error(0, "summary in %s/summary.txt and %s/summary.md", out, out);
}

/* The files closed and given their final names, or, when nothing ran, DIR
 * left as it was; what became of them said on stderr. */
static void run_end(struct run *r)
{
	const char *out = r->o.out;
	char path[SB_PATH];

	sb_csv_close();
	sb_runlog_close();
	sb_timeline_close();	/* an empty file is removed: no fidelity benchmark */
	if (out && sb_gbench_out_errno()) {
		sb_pathf(path, "%s/gbench.json.partial", out);
		sb_out_fail(path, sb_gbench_out_errno());
	}
	if (out && r->rc == SB_EXIT_USAGE && !r->resume) {
		/* nothing ran (GB refused its flags): leave the directory as it was */
		sb_rundir_clear(out);
		sb_rundir_remove_created();
	} else if (out && sb_out_failure()) {
		/* never a final name on a file that failed; GB's JSON, cut, goes
		 * (runs.jsonl.partial has every finished benchmark) */
		if (sb_gbench_out_errno())
			sb_rundir_remove(out, "gbench.json.partial");
		r->rc = sb_cmd_error(1, "%s: results not complete (the finished ones stay in "
				     "%s/*.partial; 'stratbench run --resume=%s' when it can write)",
				     sb_out_failure(), out, out);
		return;
	} else if (out) {
		if (sb_rundir_finish(out, r->resume, r->err, sizeof(r->err)) ||
		    sb_resume_record(out, r->argc, r->argv, r->o.label, !got_signal, r->err,
				     sizeof(r->err))) {
			r->rc = sb_cmd_error(1, "%s: results not complete ('stratbench run "
					     "--resume=%s' when it can write)", r->err, out);
			return;
		}
		if (got_signal)
			sb_cmd_error(0, "interrupted: finished results kept in %s/; 'stratbench run "
				     "--resume=%s' runs the rest", out, out);
		else
			sb_cmd_error(0, "results in %s/ (gbench.json, results.csv)", out);
		if (!got_signal)
			run_summary(out, !stdout_is_data(&r->o));
	}
	if (got_signal)
		r->rc = 128 + got_signal;
}

/* A `run --ab --out=DIR` that wrote DIR/ab.json (ab.c refuses a DIR
 * that held one: it is this run's) and was not interrupted: its summary, as a
 * run's, saved only (its console has the ab: lines, the same pairs). */
static void ab_end(const struct run *r)
{
	if (r->o.out && r->rc != SB_EXIT_USAGE && r->rc < 128 && sb_dir_has(r->o.out, "ab.json"))
		run_summary(r->o.out, false);
}

static int run_main(int argc, char **argv)
{
	struct run r = { .argc = argc, .argv = argv, .rc = SB_EXIT_USAGE };
	bool ab = false;
	int step = run_begin(&r, &ab);

	if (ab) {
		ab_end(&r);
		sb_opts_free(&r.o);
		return r.rc;
	}
	if (step == STEP_OK)
		step = run_check(&r);
	if (step == STEP_OK)
		step = run_plan(&r);
	if (step == STEP_OK)
		step = run_open(&r);
	if (step == STEP_OK) {
		run_session(&r);
		run_end(&r);
	} else if (step == STEP_USAGE) {
		sb_cmd_error(0, "%s", r.err);
		if (r.fresh) {	/* ours: leave nothing behind */
			sb_rundir_remove(r.o.out, "run.json");
			sb_rundir_remove(r.o.out, ".lock");
		}
		sb_rundir_remove_created();	/* the directories made here, if still empty */
	}
	sb_catch_stop_signals(NULL);
	sb_rundir_forget_created();
	sb_done_free(&r.done);
	sb_plan_free();
	sb_counters_spec_free(r.cnt);
	sb_topo_destroy(r.t);
	sb_opts_free(&r.o);
	if (r.rargv)
		sb_resume_free_argv(r.rargc, r.rargv);
	return r.rc;	/* the lock (sb_rundir_lock) is held until exit */
}

const struct sb_command sb_cmd_run = {
	.name = "run",
	.summary = "run benchmarks: strategies x threads x placements, on pinned threads",
	.usage = "[options] [family options] [--benchmark_*...] | --resume=DIR [--quiet] [--console=M]",
	.description = "Registers one Google Benchmark per strategy [x lock] x thread count x\n"
		       "placement, runs them on hwloc-pinned threads and reports ops/s, ns/op and\n"
		       "the family's counters; with --out, also Google Benchmark JSON (with the\n"
		       "machine fingerprint), a flat CSV, runs.jsonl (one line per finished\n"
		       "benchmark) and run.json (what --resume needs).  Names are\n"
		       "family/strategy[/lock:L]/threads:N/place:P[/param:V].  SIGINT/SIGTERM\n"
		       "stop after the benchmark in flight with every file complete (exit\n"
		       "130/143); --resume=DIR runs what is missing.  Draw a results directory\n"
		       "with `stratbench plot DIR`; compare two with `stratbench compare`.\n",
	.options = sb_run_options,
	.family_options = true,
	.gbench_flags = true,
	.example = "stratbench run --strategy=spinlock --lock=ticket,mcs --threads=1,2 "
		   "--out=results/mine --label=mine\n"
		   "stratbench plot results/mine\n",
	.run = run_main,
};
