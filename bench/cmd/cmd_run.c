/* cmd_run.c — `stratbench run`: plan, register, run, write DIR/gbench.json
 * (Google Benchmark JSON with our context), DIR/results.csv, DIR/runs.jsonl
 * (one line per finished benchmark), DIR/windows.jsonl (one line per
 * finished window fidelity benchmark, when there is one) and DIR/run.json
 * (what --resume needs).
 * SIGINT/SIGTERM stop after the benchmark run in flight: the files are
 * finished and renamed, the exit status is 130/143; a second signal kills. */
#include "cmd/cmd.h"
#include "run/limits.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Results are written under .partial names and renamed when the run ends,
 * so a crash leaves the finished results in *.partial and never a file
 * that looks complete. */
static const char *const out_files[] = {
	"gbench.json", "results.csv", "runs.jsonl", "windows.jsonl", "gbench.json.partial",
	"results.csv.partial", "runs.jsonl.partial", "windows.jsonl.partial", "run.json", NULL,
};

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

static int path_of(char *buf, size_t n, const char *dir, const char *name)
{
	return snprintf(buf, n, "%s/%s", dir, name) >= (int)n ? -1 : 0;
}

static void rename_partial(const char *dir, const char *name)
{
	char from[4300], to[4200];

	path_of(to, sizeof(to), dir, name);
	snprintf(from, sizeof(from), "%s.partial", to);
	if (rename(from, to) && errno != ENOENT)
		fprintf(stderr, "stratbench: cannot rename %s: %s\n", from, strerror(errno));
}

static void remove_out(const char *dir, const char *name)
{
	char p[4200];

	path_of(p, sizeof(p), dir, name);
	if (unlink(p) && errno != ENOENT)
		fprintf(stderr, "stratbench: cannot remove %s: %s\n", p, strerror(errno));
}

/* mkdir -p; refuses a directory that already holds results. */
static int prepare_out(const char *dir, char *err, size_t errlen)
{
	char path[4096], *p;
	struct stat sb;

	if (snprintf(path, sizeof(path), "%s", dir) >= (int)sizeof(path) || !*dir) {
		snprintf(err, errlen, "bad output directory '%s'", dir);
		return -1;
	}
	for (p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0777) && errno != EEXIST)
			goto fail;
		*p = '/';
	}
	if (mkdir(path, 0777) && errno != EEXIST)
		goto fail;
	if (stat(path, &sb) || !S_ISDIR(sb.st_mode)) {
		snprintf(err, errlen, "output '%s' is not a directory", dir);
		return -1;
	}
	if (access(path, W_OK)) {
		snprintf(err, errlen, "cannot write to output directory '%s': %s", dir,
			 strerror(errno));
		return -1;
	}
	for (const char *const *f = out_files; *f; f++) {
		snprintf(path, sizeof(path), "%s/%s", dir, *f);
		if (access(path, F_OK) == 0) {
			snprintf(err, errlen, "'%s' already holds results (%s): choose a new --out, "
				 "or --resume=%s to finish an interrupted run", dir, *f, dir);
			return -1;
		}
	}
	return 0;
fail:
	snprintf(err, errlen, "cannot create output directory '%s': %s", path, strerror(errno));
	return -1;
}

/* --- what --resume finds done ------------------------------------------- */

struct done {
	char **names;
	int n, cap;
	json_t *context;	/* the latest session's */
	json_t *benchmarks;	/* every finished benchmark's entries, in order */
};

static bool done_has(const char *name, void *arg)
{
	const struct done *d = arg;

	for (int i = 0; i < d->n; i++)
		if (strcmp(d->names[i], name) == 0)
			return true;
	return false;
}

static void done_line(const char *key, json_t *v, void *arg)
{
	struct done *d = arg;
	json_t *e;
	size_t i;

	if (strcmp(key, "context") == 0 && json_is_object(v)) {
		json_decref(d->context);
		d->context = json_incref(v);
		return;
	}
	if (strcmp(key, "name") == 0 && json_is_string(v)) {	/* as registered */
		if (d->n == d->cap) {
			d->cap = d->cap ? 2 * d->cap : 64;
			d->names = realloc(d->names, sizeof(char *) * d->cap);
		}
		d->names[d->n++] = strdup(json_string_value(v));
		return;
	}
	if (strcmp(key, "benchmarks") || !json_is_array(v))
		return;
	json_array_foreach(v, i, e)
		json_array_append(d->benchmarks, e);
}

/* A CSV row's run name belongs to a finished benchmark (point.h's rule:
 * the registered name, or it followed by Google Benchmark's own parts). */
static bool done_has_run(const char *run_name, const struct done *d)
{
	for (int i = 0; i < d->n; i++)
		if (sb_name_belongs(run_name, d->names[i]))
			return true;
	return false;
}

static void done_free(struct done *d)
{
	for (int i = 0; i < d->n; i++)
		free(d->names[i]);
	free(d->names);
	json_decref(d->context);
	json_decref(d->benchmarks);
	memset(d, 0, sizeof(*d));
}

/* Keeps the CSV rows of finished benchmarks: src (results.csv or its
 * partial) to DIR/results.csv.partial, atomically. */
static int keep_done_rows(const char *src, const char *dir, const struct done *d, char *err,
			  size_t errlen)
{
	char dst[4200], tmp[4300], *line = NULL;
	size_t cap = 0;
	ssize_t n;
	FILE *in = fopen(src, "r"), *out;
	int row = 0;

	path_of(dst, sizeof(dst), dir, "results.csv.partial");
	snprintf(tmp, sizeof(tmp), "%s.tmp", dst);
	out = in ? fopen(tmp, "w") : NULL;
	if (!out) {
		snprintf(err, errlen, "cannot rewrite %s: %s", src, strerror(errno));
		if (in)
			fclose(in);
		return -1;
	}
	while ((n = getline(&line, &cap, in)) > 0) {
		char *comma = strchr(line, ',');

		if (line[n - 1] != '\n' || !comma)
			continue;	/* cut by a kill */
		if (row++ == 0) {
			if (strncmp(line, "name,", 5))
				break;
			fputs(line, out);
			continue;
		}
		*comma = '\0';
		if (done_has_run(line, d)) {
			*comma = ',';
			fputs(line, out);
		}
	}
	free(line);
	fclose(in);
	if (fclose(out) || row == 0 || rename(tmp, dst)) {
		snprintf(err, errlen, "cannot rewrite %s%s", src, row ? "" : " (empty)");
		unlink(tmp);
		return -1;
	}
	return 0;
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
		struct sb_run_report r = { 0 };

		if (!rn || !names || !values) {
			free(names);
			free(values);
			continue;
		}
		/* the name as the live hook gets it: less /manual_time only */
		snprintf(name, sizeof(name), "%s", rn);
		if (strstr(name, "/manual_time"))
			*strstr(name, "/manual_time") = '\0';
		r.name = name;
		r.registered = sb_points_registered(name);
		r.aggregate = agg ? agg : "";
		r.repetition_index = json_integer_value(json_object_get(e, "repetition_index"));
		r.label = "";
		if (json_is_true(json_object_get(e, "error_occurred")))
			r.error = "error";
		json_object_foreach(e, key, v)
			if (json_is_number(v)) {
				names[r.ncounters] = key;
				values[r.ncounters++] = json_number_value(v);
			}
		r.counter_names = names;
		r.counter_values = values;
		sb_limits_on_run(&r, NULL);
		free(names);
		free(values);
	}
}

/* gbench.json from the log: the latest context, every finished benchmark. */
static int write_json_from_log(const char *dir, const struct done *d)
{
	char path[4200], tmp[4300];
	json_t *j = json_object();
	int rc;

	path_of(path, sizeof(path), dir, "gbench.json");
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	json_object_set(j, "context", d->context ? d->context : json_object());
	json_object_set(j, "benchmarks", d->benchmarks);
	rc = json_dump_file(j, tmp, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(j);
	if (rc || rename(tmp, path)) {
		fprintf(stderr, "stratbench: cannot write %s: %s\n", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

/* Reads what DIR holds, leaves DIR/runs.jsonl.partial and
 * DIR/results.csv.partial with exactly the finished benchmarks. */
static int resume_prepare(const char *dir, struct done *d, char *err, size_t errlen)
{
	char log[4200], logp[4200], csv[4200], csvp[4200], path[4200];
	const char *src;
	int dropped;

	path_of(log, sizeof(log), dir, "runs.jsonl");
	path_of(logp, sizeof(logp), dir, "runs.jsonl.partial");
	path_of(csv, sizeof(csv), dir, "results.csv");
	path_of(csvp, sizeof(csvp), dir, "results.csv.partial");
	d->benchmarks = json_array();
	src = access(logp, F_OK) == 0 ? logp : log;
	if (access(src, F_OK)) {
		d->benchmarks = json_array();	/* killed before any benchmark finished */
	} else if ((dropped = sb_runlog_compact(src, logp, done_line, d)) < 0) {
		snprintf(err, errlen, "cannot resume '%s': cannot rewrite %s", dir, src);
		return -1;
	} else if (dropped) {
		fprintf(stderr, "stratbench: resume: %d unfinished line%s of %s dropped\n",
			dropped, dropped > 1 ? "s" : "", src);
	}
	if (src == log)
		unlink(log);
	src = access(csvp, F_OK) == 0 ? csvp : csv;
	if (access(src, F_OK) == 0) {
		if (keep_done_rows(src, dir, d, err, errlen))
			return -1;
		if (src == csv)
			unlink(csv);
	}
	/* windows.jsonl: the lines of finished benchmarks (a line is written
	 * before its benchmark's runs.jsonl line, so a kill in between leaves
	 * one of a benchmark that runs again: dropped here, not doubled) */
	path_of(log, sizeof(log), dir, "windows.jsonl");
	path_of(logp, sizeof(logp), dir, "windows.jsonl.partial");
	src = access(logp, F_OK) == 0 ? logp : log;
	if (sb_timeline_keep(src, logp, done_has, d) < 0) {
		snprintf(err, errlen, "cannot resume '%s': cannot rewrite %s", dir, src);
		return -1;
	}
	if (src == log)
		unlink(log);
	path_of(path, sizeof(path), dir, "gbench.json.partial");
	unlink(path);	/* GB's, cut short: runs.jsonl has its finished benchmarks */
	return 0;
}

/* --- one session's hooks ------------------------------------------------ */

static double cv_threshold;

static void on_context(const char *json, void *arg)
{
	json_t *j = sb_json_loads_gb(json, NULL);

	(void)arg;
	sb_runlog_add("context", json_incref(json_object_get(j, "context")));
	json_decref(j);
}

/* A benchmark finished: its CSV rows, its log line, the progress count and
 * a console flag when its repetitions vary more than the threshold. */
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
	sb_timeline_flush(n ? runs[0].registered : NULL);	/* before: see resume_prepare */
	sb_runlog_add_bench(n ? runs[0].registered : NULL, arr);
	sb_progress_group(reps);
	if (cv > cv_threshold)
		printf("^ noisy: %s: CV %.3g %% of ops_per_s over %d repetitions > %g %%\n",
		       runs[0].name, cv, reps, cv_threshold);
}

static int run_args_only(int argc, char **argv, char *err, size_t errlen)
{
	for (int i = 1; i < argc; i++)
		if (strncmp(argv[i], "--resume=", 9) && strcmp(argv[i], "--quiet")) {
			snprintf(err, errlen, "--resume=DIR reruns the command line recorded in DIR: "
				 "drop '%s'", argv[i]);
			return -1;
		}
	return 0;
}

static int run_main(int argc, char **argv)
{
	static char out_json[4200];
	struct sb_counters_spec *cnt = NULL;
	struct sb_topo *t = NULL;
	struct done done = { 0 };
	struct sb_opts o;
	char err[8192], path[4200], **rargv = NULL;
	const char *resume = NULL;
	int i, rc = SB_EXIT_USAGE, rargc = 0, total;
	bool list_only = false, quiet = false, complete;

	if (sb_opts_parse(&o, argc, argv, err, sizeof(err)))
		goto usage;
	if (o.resume) {
		resume = o.resume;
		quiet = o.quiet;
		if (run_args_only(argc, argv, err, sizeof(err)) ||
		    sb_resume_load(resume, &rargc, &rargv, &complete, err, sizeof(err)))
			goto usage;
		if (complete) {
			fprintf(stderr, "stratbench: nothing to resume: '%s' is complete\n", resume);
			rc = 0;
			goto out;
		}
		sb_opts_free(&o);
		if (sb_opts_parse(&o, rargc, rargv, err, sizeof(err)) || o.resume || !o.out) {
			snprintf(err, sizeof(err), "cannot resume '%s': its recorded command line "
				 "no longer parses", resume);
			goto usage;
		}
		o.out = resume;
		o.quiet |= quiet;
		argc = rargc;
		argv = rargv;
	}
	for (i = 1; i < o.gb_argc; i++)
		if (o.out && strncmp(o.gb_argv[i], "--benchmark_out", 15) == 0) {
			snprintf(err, sizeof(err), "--out=DIR writes DIR/gbench.json itself: "
				 "drop %s", o.gb_argv[i]);
			goto usage;
		}
	if (sb_counters_parse(o.counters, &cnt, err, sizeof(err)))
		goto usage;
	if (o.counters_ab && !sb_counters_count(cnt)) {
		snprintf(err, sizeof(err), "--counters-ab compares no counters with some: "
			 "drop --counters=none");
		goto usage;
	}
	if (sb_topo_load(&t, o.topology, err, sizeof(err)) ||
	    sb_topo_check_bindable(t, err, sizeof(err)))
		goto usage;
	if (o.home_node >= 0) {
		if (!sb_topo_has_node(t, o.home_node)) {
			snprintf(err, sizeof(err), "NUMA node %d does not exist here (%d node%s)",
				 o.home_node, sb_topo_nnodes(t), sb_topo_nnodes(t) > 1 ? "s" : "");
			goto usage;
		}
	}
	for (i = 1; i < o.gb_argc; i++) {	/* the last one counts, as in GB */
		const char *a = o.gb_argv[i];

		if (strncmp(a, "--benchmark_list_tests", 22) == 0 && (!a[22] || a[22] == '='))
			list_only = sb_gb_truthy(a[22] ? a + 23 : "");
	}
	if (o.out && list_only) {
		fprintf(stderr, "stratbench: note: --benchmark_list_tests runs nothing; "
			"--out ignored\n");
		o.out = NULL;
	}
	if (resume) {
		if (resume_prepare(resume, &done, err, sizeof(err)))
			goto usage;
		o.skip = done_has;
		o.skip_arg = &done;
	}
	switch (sb_plan_register(&o, t, err, sizeof(err))) {
	case 0:
		break;
	case 1:		/* everything asked for cannot run here, and said so */
		rc = 0;
		goto out;
	default:
		goto usage;
	}
	if (resume)	/* after the plan: its typed points key the table */
		replay_limits(done.benchmarks);
	total = sb_gbench_count(o.gb_argc, o.gb_argv);
	if (o.out && !resume) {
		if (prepare_out(o.out, err, sizeof(err)) ||
		    sb_resume_record(o.out, argc, argv, o.label, false, err, sizeof(err)))
			goto usage;
	}
	if (o.out) {
		path_of(path, sizeof(path), o.out, "results.csv.partial");
		if ((resume && access(path, F_OK) == 0 ? sb_csv_append : sb_csv_open)(
			    path, err, sizeof(err)))
			goto usage;
		sb_csv_cv_threshold(o.cv_threshold);
		path_of(path, sizeof(path), o.out, "runs.jsonl.partial");
		if (sb_runlog_open(path, err, sizeof(err)))
			goto usage;
		path_of(path, sizeof(path), o.out, "windows.jsonl.partial");
		if (sb_timeline_open(path, err, sizeof(err)))
			goto usage;
		sb_gbench_on_context(on_context, NULL);
		snprintf(out_json, sizeof(out_json), "--benchmark_out=%s/gbench.json.partial", o.out);
		o.gb_argv[o.gb_argc++] = out_json;
		o.gb_argv[o.gb_argc++] = "--benchmark_out_format=json";
		o.gb_argv[o.gb_argc] = NULL;
	}
	/* the limits table is fed from what is reported (run/limits.h) */
	sb_gbench_on_run(sb_limits_on_run, NULL);
	cv_threshold = o.cv_threshold;
	sb_gbench_on_group(on_group, NULL);
	sb_context_fingerprint(t, argc, argv);
	if (!list_only)
		sb_counters_context(cnt);
	sb_context_add("sb_label", o.label ? o.label : "");
	{	/* every planned point as typed fields (report/point.h) */
		char *pts = sb_points_json();

		snprintf(path, sizeof(path), "%d", SB_SCHEMA_VERSION);
		sb_context_add("sb_schema", path);
		sb_context_add("sb_points", pts ? pts : "{}");
		free(pts);
	}
	snprintf(path, sizeof(path), "%g", o.cv_threshold);
	sb_context_add("sb_cv_threshold", path);
	if (resume) {
		snprintf(path, sizeof(path), "%d benchmarks finished before this session", done.n);
		sb_context_add("sb_resumed", path);
	}
	if (!list_only && total > 0)	/* else GB says nothing matched */
		sb_quiet_check();
	if (resume && total == 0) {
		rc = 0;		/* everything had finished: only the files to complete */
	} else {
		struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESTART };

		sigemptyset(&sa.sa_mask);
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		sb_progress_begin(total, o.quiet || list_only);
		sb_drive_set_counters(cnt);
		rc = sb_gbench_main(o.gb_argc, o.gb_argv);
		sb_drive_set_counters(NULL);
		sb_progress_end();
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
	}
	sb_csv_close();
	sb_runlog_close();
	sb_timeline_close();	/* an empty file is removed: no fidelity benchmark */
	if (o.out && rc == SB_EXIT_USAGE && !resume) {
		/* nothing ran (no benchmark matched): leave the directory reusable */
		for (const char *const *f = out_files + 4; *f; f++)
			remove_out(o.out, *f);
	} else if (o.out) {
		rename_partial(o.out, "results.csv");
		if (resume) {
			struct done all = { 0 };

			all.benchmarks = json_array();
			path_of(path, sizeof(path), o.out, "runs.jsonl.partial");
			sb_runlog_read(path, done_line, &all);
			if (write_json_from_log(o.out, &all) == 0)
				remove_out(o.out, "gbench.json.partial");
			done_free(&all);
		} else {
			rename_partial(o.out, "gbench.json");
		}
		rename_partial(o.out, "runs.jsonl");
		rename_partial(o.out, "windows.jsonl");
		if (sb_resume_record(o.out, argc, argv, o.label, !got_signal, err, sizeof(err)))
			fprintf(stderr, "stratbench: %s\n", err);
		if (got_signal)
			fprintf(stderr, "stratbench: interrupted: finished results kept in %s/; "
				"'stratbench run --resume=%s' runs the rest\n", o.out, o.out);
		else
			fprintf(stderr, "stratbench: results in %s/ (gbench.json, results.csv)\n",
				o.out);
	}
	if (got_signal)
		rc = 128 + got_signal;
	goto out;
usage:
	fprintf(stderr, "stratbench: %s\n", err);
out:
	done_free(&done);
	sb_plan_free();
	sb_counters_spec_free(cnt);
	sb_topo_destroy(t);
	sb_opts_free(&o);
	if (rargv)
		sb_resume_free_argv(rargc, rargv);
	return rc;
}

const struct sb_command sb_cmd_run = {
	.name = "run",
	.summary = "run benchmarks: strategies x threads x placements, on pinned threads",
	.usage = "[options] [family options] [--benchmark_*...] | --resume=DIR [--quiet]",
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
