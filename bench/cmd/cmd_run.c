/* cmd_run.c — `stratbench run`: plan, register, run, write DIR/gbench.json
 * (Google Benchmark JSON with our context), DIR/results.csv, DIR/runs.jsonl
 * (one line per finished benchmark), DIR/windows.jsonl (one line per
 * finished window fidelity benchmark, when there is one) and DIR/run.json
 * (what --resume needs).
 * SIGINT/SIGTERM stop after the benchmark run in flight: the files are
 * finished and renamed, the exit status is 130/143; a second signal kills.
 * Every write is checked: a file gets its final name only once it is
 * complete and synced (NAME.partial, fsync, rename, fsync of DIR); a failed
 * write stops the run, keeps every file under its .partial name (what
 * --resume reads) and is one line, exit 1.  DIR/.lock is flock()ed for the
 * whole run or resume: a second one of DIR is refused, naming the pid. */
#include "cmd/cmd.h"
#include "cmd/suite.h"
#include "console/console.h"
#include "run/limits.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
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

/* DIR/NAME.partial to DIR/NAME, synced (report.h); an absent partial is
 * no error (no fidelity benchmark: no windows.jsonl) */
static int commit_partial(const char *dir, const char *name, char *err, size_t errlen)
{
	char from[4300], to[4200];

	path_of(to, sizeof(to), dir, name);
	snprintf(from, sizeof(from), "%s.partial", to);
	if (access(from, F_OK) && errno == ENOENT)
		return 0;
	return sb_file_commit(from, to, err, errlen);
}

static void remove_out(const char *dir, const char *name)
{
	char p[4200];

	path_of(p, sizeof(p), dir, name);
	if (unlink(p) && errno != ENOENT)
		fprintf(stderr, "stratbench: cannot remove %s: %s\n", p, strerror(errno));
}

/* The directories prepare_out created, outermost first: removed again
 * when the run turns out to have nothing to run. */
static char *created[64];
static int ncreated;

static void remove_created(void)
{
	while (ncreated > 0) {
		rmdir(created[--ncreated]);
		free(created[ncreated]);
	}
}

/* The pid in DIR/.lock if a live process holds its lock (another run or
 * resume writing DIR), else false.  fd: the lock file, open. */
static bool lock_held(int fd, char *pid, size_t n)
{
	int k;

	if (flock(fd, LOCK_SH | LOCK_NB) == 0) {
		flock(fd, LOCK_UN);
		return false;
	}
	/* the holder writes its pid just after it took the lock: until
	 * then the file is empty or names a dead one (a killed run's) */
	for (int tries = 0; tries < 100; tries++) {
		k = (int)pread(fd, pid, n - 1, 0);
		pid[k > 0 ? k : 0] = '\0';
		pid[strcspn(pid, "\n")] = '\0';
		if (*pid && (kill((pid_t)atol(pid), 0) == 0 || errno == EPERM))
			return true;
		usleep(10000);
	}
	snprintf(pid, n, "?");
	return true;
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
	for (p = path + 1;; p++) {
		bool last = !*p;

		if (*p && *p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0777) == 0) {
			if (ncreated < 64)
				created[ncreated++] = strdup(path);
		} else if (errno != EEXIST) {
			goto fail;
		}
		if (last)
			break;
		*p = '/';
	}
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
		char pid[32];
		int fd;

		snprintf(path, sizeof(path), "%s/%s", dir, *f);
		if (access(path, F_OK))
			continue;
		snprintf(path, sizeof(path), "%s/.lock", dir);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd >= 0 && lock_held(fd, pid, sizeof(pid)))
			snprintf(err, errlen, "'%s' is in use: stratbench pid %s is writing it "
				 "(a run or --resume holds %s); choose a new --out", dir, pid, path);
		else
			snprintf(err, errlen, "'%s' already holds results (%s): choose a new --out, "
				 "or --resume=%s to finish an interrupted run", dir, *f, dir);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return 0;
fail:
	snprintf(err, errlen, "cannot create output directory '%s': %s", path, strerror(errno));
	return -1;
}

/* DIR/.lock, flock()ed exclusively for the life of the process (the
 * descriptor is never closed: the kernel drops the lock at exit, however
 * it ends); it holds the holder's pid.  Readers take it shared
 * (results_read.c).  -1 with err naming the holder if another has it. */
static int lock_out(const char *dir, char *err, size_t errlen)
{
	char path[4200], pid[32];
	int fd, n;

	path_of(path, sizeof(path), dir, ".lock");
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno));
		return -1;
	}
	/* a reader's shared lock is only tried and dropped at once (see
	 * results_read.c): wait that out, never a writer's */
	for (int tries = 0; flock(fd, LOCK_EX | LOCK_NB); tries++) {
		int e = errno;

		if (e == EWOULDBLOCK && !lock_held(fd, pid, sizeof(pid)) && tries < 100) {
			usleep(10000);
			continue;
		}
		if (e == EWOULDBLOCK)
			snprintf(err, errlen, "'%s' is in use: stratbench pid %s is writing it "
				 "(a run or --resume holds %s); wait for it to end", dir,
				 tries < 100 ? pid : "?", path);
		else
			snprintf(err, errlen, "cannot lock %s: %s", path, strerror(e));
		close(fd);
		return -1;
	}
	n = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) || pwrite(fd, pid, (size_t)n, 0) != n) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
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
	json_array_foreach(v, i, e) {
		json_array_append(d->benchmarks, e);
	}
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
 * partial) to DIR/results.csv.partial, atomically and synced.  -2 (err
 * names the line) when src is not a results.csv, -1 when it cannot be
 * written. */
static int keep_done_rows(const char *src, const char *dir, const struct done *d, char *err,
			  size_t errlen)
{
	char dst[4200], tmp[4300], *line = NULL;
	size_t cap = 0, total = 0;
	ssize_t n;
	FILE *in = sb_input_open(src, err, errlen);
	int row = 0, fd = -1, e = 0, lineno = 0;
	bool bad = false;

	if (!in)
		return -2;
	path_of(dst, sizeof(dst), dir, "results.csv.partial");
	snprintf(tmp, sizeof(tmp), "%s.tmp", dst);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0) {
		snprintf(err, errlen, "cannot rewrite %s: %s", src, strerror(errno));
		fclose(in);
		return -1;
	}
	while ((n = getline(&line, &cap, in)) > 0 && (total += (size_t)n) <= SB_INPUT_MAX) {
		char *comma = strchr(line, ','), why[128];

		lineno++;
		if (line[n - 1] != '\n')
			continue;	/* the last, cut by a kill */
		if (row++ == 0) {
			if (!sb_csv_header_ok(line)) {
				snprintf(err, errlen, "%s:1: not results.csv's header", src);
				bad = true;
				break;
			}
		} else if (sb_csv_check_row(line, why, sizeof(why)) || !comma) {
			snprintf(err, errlen, "%s:%d: not a results.csv row (%s)", src, lineno,
				 comma ? why : "no field");
			bad = true;
			break;
		} else {
			*comma = '\0';
			if (!done_has_run(line, d))
				continue;
			*comma = ',';
		}
		if (sb_write_all(fd, line, (size_t)n)) {
			e = errno;
			break;
		}
	}
	free(line);
	fclose(in);
	if (!e && !bad && fsync(fd))
		e = errno;
	if (close(fd) && !e)
		e = errno;
	if (bad) {
		unlink(tmp);
		return -2;	/* not a results.csv: a usage error (err names the line) */
	}
	if (e || row == 0) {
		snprintf(err, errlen, "cannot rewrite %s: %s", src, e ? strerror(e) : "empty");
		unlink(tmp);
		return -1;
	}
	if (sb_file_commit(tmp, dst, err, errlen)) {
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
static int write_json_from_log(const char *dir, const struct done *d, char *err,
			       size_t errlen)
{
	char path[4200];
	json_t *j = json_object();
	int rc;

	path_of(path, sizeof(path), dir, "gbench.json");
	json_object_set_new(j, "context", d->context ? json_incref(d->context) : json_object());
	json_object_set(j, "benchmarks", d->benchmarks);
	rc = sb_json_write_file(path, j, JSON_INDENT(2) | JSON_PRESERVE_ORDER, err, errlen);
	json_decref(j);
	return rc;
}

/* An absent file, or one resume may read (report.h's bounds); false with
 * err saying why not. */
static bool input_ok(const char *dir, const char *path, char *err, size_t errlen)
{
	char why[4400];
	FILE *f;

	if (access(path, F_OK) && errno == ENOENT)
		return true;
	f = sb_input_open(path, why, sizeof(why));
	if (f) {
		fclose(f);
		return true;
	}
	snprintf(err, errlen, "cannot resume '%s': %s", dir, why);
	return false;
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
	if (!input_ok(dir, src, err, errlen))
		return -2;
	if (access(src, F_OK)) {
		d->benchmarks = json_array();	/* killed before any benchmark finished */
	} else if ((dropped = sb_runlog_compact(src, logp, done_line, d)) < 0) {
		snprintf(err, errlen, "cannot resume '%s': cannot rewrite %s: %s", dir, src,
			 strerror(errno));
		return -1;
	} else if (dropped) {
		fprintf(stderr, "stratbench: resume: %d unfinished line%s of %s dropped (%s "
			"again)\n", dropped, dropped > 1 ? "s" : "", src,
			dropped > 1 ? "their benchmarks run" : "its benchmark runs");
	}
	if (src == log)
		unlink(log);
	src = access(csvp, F_OK) == 0 ? csvp : csv;
	if (access(src, F_OK) == 0) {
		int k = keep_done_rows(src, dir, d, err, errlen);

		if (k)
			return k;
		if (src == csv)
			unlink(csv);
	}
	/* windows.jsonl: the lines of finished benchmarks (a line is written
	 * before its benchmark's runs.jsonl line, so a kill in between leaves
	 * one of a benchmark that runs again: dropped here, not doubled) */
	path_of(log, sizeof(log), dir, "windows.jsonl");
	path_of(logp, sizeof(logp), dir, "windows.jsonl.partial");
	src = access(logp, F_OK) == 0 ? logp : log;
	if (!input_ok(dir, src, err, errlen))
		return -2;
	if (sb_timeline_keep(src, logp, done_has, d) < 0) {
		snprintf(err, errlen, "cannot resume '%s': cannot rewrite %s: %s", dir, src,
			 strerror(errno));
		return -1;
	}
	if (src == log)
		unlink(log);
	path_of(path, sizeof(path), dir, "gbench.json.partial");
	unlink(path);	/* GB's, cut short: runs.jsonl has its finished benchmarks */
	/* and the last session's gbench.json: from now on runs.jsonl.partial
	 * holds more, and a resume killed before its end must not leave a
	 * stale gbench.json beside it (the next one writes it from the log) */
	path_of(path, sizeof(path), dir, "gbench.json");
	if (unlink(path) && errno != ENOENT) {
		snprintf(err, errlen, "cannot resume '%s': cannot remove %s: %s", dir, path,
			 strerror(errno));
		return -1;
	}
	sb_fsync_dir_of(path);
	return 0;
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
	sb_timeline_flush(n ? runs[0].registered : NULL);	/* before: see resume_prepare */
	sb_console_group(runs, n, arr);	/* before the log takes arr */
	sb_runlog_add_bench(n ? runs[0].registered : NULL, arr);
	sb_progress_group(reps);
}

/* --console=MODE given on the command line (a resume's display, not the run's) */
static bool console_given(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strncmp(argv[i], "--console=", 10))
			return true;
	return false;
}

/* --- --dry-run ------------------------------------------------------------ */

/* The time a run takes, modelled per benchmark from what Google Benchmark
 * 1.7.1 and the harness do (docs/running.md, "The estimate"):
 *  - every call of a benchmark's body starts a team of N pinned threads,
 *    opens the counters and reads /proc around its region: EST_CALL_S, plus
 *    EST_THREAD_S a member;
 *  - the first repetition searches the iteration count: about EST_PROBES
 *    short calls, and runs that end up about EST_SEARCH x min_time in all
 *    (a run that came out short of min_time is run again, longer); every
 *    repetition's reported run is about EST_GROWTH x min_time (GB aims at
 *    1.4 x; rates that move between runs overshoot);
 *  - untimed work inside a call: the kernel drivers' handshakes, re-faults
 *    and mincore make their wall time EST_KERNEL_WALL x their timed
 *    (manual) time; the simulated machine's no-migration phase adds a
 *    quarter (EST_SIM_WALL) and building it EST_SIM_CALL_S a call;
 *  - a fixed count (--limits' calibration) is one call: a line bounce or a
 *    flush round ends after 50 ms (calibrate_bench.c), 5 M uncontended ops
 *    take tens of ms: EST_FIXED_S;
 *  - the process: start, the 200 ms quiet check, the context: EST_PROCESS_S.
 * Fitted to the default and quick suites' stages on this project's 2-vCPU
 * VM under its usual load (load average 10-13): measured / estimated in
 * docs/running.md.  A quiet machine takes less per call. */
#define EST_CALL_S 0.018
#define EST_THREAD_S 0.001
#define EST_PROBES 3
#define EST_SEARCH 1.9
#define EST_GROWTH 1.8
#define EST_KERNEL_WALL 26.0
#define EST_SIM_WALL 1.25
#define EST_SIM_CALL_S 0.05
#define EST_FIXED_S 0.12
#define EST_PROCESS_S 0.5

struct estimate {
	double min_time, secs, c2c_secs;
	int reps, n, runs, c2c;
};

/* One benchmark of threads members: min_time m, reps repetitions, or a
 * fixed count of iterations (> 0). */
static double estimate_one(const struct sb_point_fields *f, double m, int64_t iterations,
			   int reps)
{
	int threads = f && f->threads > 0 ? f->threads : 1;
	double call = EST_CALL_S + EST_THREAD_S * threads, timed;

	if (iterations > 0)
		return reps * (EST_FIXED_S + EST_THREAD_S * threads);
	timed = (EST_SEARCH + EST_GROWTH * reps) * m;
	if (f && !strncmp(f->strategy, "kernel-", 7)) {
		timed *= EST_KERNEL_WALL;
	} else if (f && !strcmp(f->family, "shootdown")) {
		timed *= EST_SIM_WALL;
		call += EST_SIM_CALL_S;
	}
	return timed + (EST_PROBES + reps) * call;
}

static void dry_run_one(const char *name, double min_time, int64_t iterations, int reps,
			void *arg)
{
	struct estimate *e = arg;
	const struct sb_point_fields *f = sb_points_find(name);
	double m = min_time > 0 ? min_time : e->min_time, secs;
	int r = reps > 0 ? reps : e->reps;

	if (iterations > 0)
		printf("  %s  (%d x %lld iterations)\n", name, r, (long long)iterations);
	else
		printf("  %s  (%d x %g s)\n", name, r, m);
	secs = estimate_one(f, m, iterations, r);
	if (f && !strcmp(f->family, "calibrate") && !strcmp(f->strategy, "c2c")) {
		e->c2c++;
		e->c2c_secs += secs;
	}
	e->secs += secs;
	e->runs += r;
	e->n++;
}

static void dry_run_list(int argc, char **argv, const struct sb_topo *t)
{
	struct estimate e = { .min_time = 0.5, .reps = 1 };

	for (int i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "--benchmark_min_time=", 21))
			e.min_time = strtod(argv[i] + 21, NULL);
		if (!strncmp(argv[i], "--benchmark_repetitions=", 24))
			e.reps = atoi(argv[i] + 24);
	}
	sb_gbench_each(argc, argv, dry_run_one, &e);
	e.secs += EST_PROCESS_S;
	if (e.c2c && sb_calibrate_pairs_mode(t) != SB_PAIRS_ALL &&
	    (long)sb_topo_npus(t) * (sb_topo_npus(t) - 1) > e.c2c) {
		/* what the heatmap would cost: every pair, both ops, at this
		 * run's cost per pair */
		int npus = sb_topo_npus(t), all = npus * (npus - 1) / 2;

		printf("calibrate: %d c2c points (%s); --pairs=all (the heatmap) would "
		       "measure %d pairs: %d points, about %.0f s instead of %.0f s\n", e.c2c,
		       sb_pairs_mode_names[sb_calibrate_pairs_mode(t)], all, 2 * all,
		       e.c2c_secs / e.c2c * 2 * all, e.c2c_secs);
	}
	/* suite.c reads this line back: keep its form */
	printf("estimate: %d benchmarks, %d runs, about %.0f s (nothing was run)\n", e.n, e.runs,
	       e.secs);
}

static int run_args_only(int argc, char **argv, char *err, size_t errlen)
{
	for (int i = 1; i < argc; i++)
		if (strncmp(argv[i], "--resume=", 9) && strcmp(argv[i], "--quiet") &&
		    strncmp(argv[i], "--console=", 10)) {
			snprintf(err, errlen, "--resume=DIR reruns the command line recorded in DIR: "
				 "drop '%s'", argv[i]);
			return -1;
		}
	return 0;
}

/* The files of a finished session get their final names: results.csv,
 * gbench.json (GB's, or for a resume from the log), windows.jsonl, then
 * runs.jsonl last (a reader takes runs.jsonl.partial over gbench.json
 * while it exists), then run.json.  0, or -1 with err (nothing after the
 * first failure is renamed: every file keeps a complete .partial). */
static int finish_files(const char *dir, bool resume, bool complete, int argc, char **argv,
			const char *label, char *err, size_t errlen)
{
	char path[4200];

	if (commit_partial(dir, "results.csv", err, errlen))
		return -1;
	if (resume) {
		struct done all = { 0 };
		int rc;

		all.benchmarks = json_array();
		path_of(path, sizeof(path), dir, "runs.jsonl.partial");
		if (sb_runlog_read(path, done_line, &all) < 0) {
			snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
			done_free(&all);
			return -1;
		}
		rc = write_json_from_log(dir, &all, err, errlen);
		done_free(&all);
		if (rc)
			return -1;
		remove_out(dir, "gbench.json.partial");
	} else if (commit_partial(dir, "gbench.json", err, errlen)) {
		return -1;
	}
	if (commit_partial(dir, "windows.jsonl", err, errlen) ||
	    commit_partial(dir, "runs.jsonl", err, errlen))
		return -1;
	return sb_resume_record(dir, argc, argv, label, complete, err, errlen);
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

static int run_main(int argc, char **argv)
{
	static char out_json[4200];
	struct sb_counters_spec *cnt = NULL;
	struct sb_topo *t = NULL;
	struct done done = { 0 };
	struct sb_opts o;
	char err[8192], path[4200], **rargv = NULL;
	const char *resume = NULL, *console = NULL;
	int i, rc = SB_EXIT_USAGE, rargc = 0, total, lock_fd = -1;
	bool list_only = false, quiet = false, complete, fresh = false;

	if (sb_opts_parse(&o, argc, argv, err, sizeof(err)))
		goto usage;
	if (o.suite) {
		rc = sb_suite_main(o.suite, o.out, o.dry_run, argc, argv);
		goto out;
	}
	if (o.ab || o.ab_pairs || o.trial_time > 0 || o.precision > 0 || o.max_time > 0) {
		if (o.dry_run) {	/* it adds pairs as it goes: nothing to list */
			snprintf(err, sizeof(err), "--dry-run and --ab do not combine: a paired "
				 "comparison plans its pairs as it runs (its bound: --max-time)");
			goto usage;
		}
		rc = sb_ab_main(&o, argc, argv);	/* paired comparisons: ab.c */
		sb_opts_free(&o);
		return rc;
	}
	if (o.resume) {
		resume = o.resume;
		quiet = o.quiet;
		console = console_given(argc, argv) ? o.console : NULL;
		if (run_args_only(argc, argv, err, sizeof(err)))
			goto usage;
		if (!sb_suite_stage() && sb_suite_is(resume)) {
			rc = sb_suite_resume(resume, quiet);
			goto out;
		}
		if (sb_resume_load(resume, &rargc, &rargv, &complete, err, sizeof(err)))
			goto usage;
		if (!complete) {
			/* one writer: held until exit, before anything in DIR is
			 * read for the resume or changed (a complete DIR is left
			 * as it is, .lock included) */
			if ((lock_fd = lock_out(resume, err, sizeof(err))) < 0)
				goto usage;
			/* another resume may have finished it while we waited */
			sb_resume_free_argv(rargc, rargv);
			rargv = NULL;
			if (sb_resume_load(resume, &rargc, &rargv, &complete, err, sizeof(err)))
				goto usage;
		}
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
		if (console)
			o.console = console;
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
	/* --dry-run binds nothing: it may plan for a lab machine's shape */
	if (sb_topo_load(&t, o.topology, err, sizeof(err)) ||
	    (!o.dry_run && sb_topo_check_bindable(t, err, sizeof(err))))
		goto usage;
	if (o.home_node >= 0) {
		if (!sb_topo_has_node(t, o.home_node)) {
			snprintf(err, sizeof(err), "NUMA node %d does not exist here (%d node%s)",
				 o.home_node, sb_topo_nnodes(t), sb_topo_nnodes(t) > 1 ? "s" : "");
			goto usage;
		}
	}
	if (sb_gbench_filter_check(o.gb_argc, o.gb_argv, err, sizeof(err)))
		goto usage;
	for (i = 1; i < o.gb_argc; i++) {	/* one value only (cli.c) */
		const char *a = o.gb_argv[i];

		if (strncmp(a, "--benchmark_list_tests", 22) == 0 && (!a[22] || a[22] == '='))
			list_only = sb_gb_truthy(a[22] ? a + 23 : "");
	}
	if (o.out && list_only) {
		fprintf(stderr, "stratbench: note: --benchmark_list_tests runs nothing; "
			"--out ignored\n");
		o.out = NULL;
	}
	/* from before the first file is changed to the last renamed: a signal
	 * stops the run (every body skipped, if none started yet) and the
	 * files are finished; a second one kills */
	sb_catch_stop_signals(on_signal);
	if (resume) {
		/* -2: DIR holds what is not results (exit 2); -1: it could
		 * not be rewritten (exit 1); either way DIR is as it was */
		if ((i = resume_prepare(resume, &done, err, sizeof(err)))) {
			rc = i == -2 ? SB_EXIT_USAGE : 1;
			goto usage;
		}
		o.skip = done_has;
		o.skip_arg = &done;
	}
	/* the plan keeps its "skipped" lines until every usage check passed */
	switch (sb_plan_register(&o, t, err, sizeof(err))) {
	case 0:
		break;
	case 1:		/* everything asked for cannot run here: each skip says why */
		sb_plan_say_skipped();
		rc = 0;
		goto out;
	default:
		goto usage;
	}
	if (resume)	/* after the plan: its typed points key the table */
		replay_limits(done.benchmarks);
	total = sb_gbench_count(o.gb_argc, o.gb_argv);
	if (total == 0 && !resume) {
		const char *flt = NULL;

		for (i = 1; i < o.gb_argc; i++)
			if (!strncmp(o.gb_argv[i], "--benchmark_filter=", 19))
				flt = o.gb_argv[i] + 19;
		snprintf(err, sizeof(err), "--benchmark_filter='%s' matches none of the %d "
			 "benchmarks planned (see --benchmark_list_tests)", flt ? flt : "",
			 sb_gbench_count(1, argv));
		goto usage;
	}
	if (o.dry_run) {	/* the plan and its estimate; nothing created */
		sb_plan_say_skipped();
		dry_run_list(o.gb_argc, o.gb_argv, t);
		rc = 0;
		goto out;
	}
	if (o.out && !resume) {
		/* the last usage check: nothing is created before it */
		if (prepare_out(o.out, err, sizeof(err)) ||
		    (lock_fd = lock_out(o.out, err, sizeof(err))) < 0 ||
		    prepare_out(o.out, err, sizeof(err)))	/* a run that started meanwhile */
			goto usage;
		fresh = true;	/* DIR/.lock and run.json are ours */
		if (sb_resume_record(o.out, argc, argv, o.label, false, err, sizeof(err))) {
			rc = 1;
			goto usage;
		}
	}
	sb_plan_say_skipped();
	if (o.out) {
		path_of(path, sizeof(path), o.out, "results.csv.partial");
		if ((resume && access(path, F_OK) == 0 ? sb_csv_append : sb_csv_open)(
			    path, err, sizeof(err))) {
			rc = 1;
			goto usage;
		}
		sb_gbench_on_run(sb_csv_on_run, NULL);
		sb_csv_cv_threshold(o.cv_threshold);
		path_of(path, sizeof(path), o.out, "runs.jsonl.partial");
		if (sb_runlog_open(path, err, sizeof(err))) {
			rc = 1;
			goto usage;
		}
		path_of(path, sizeof(path), o.out, "windows.jsonl.partial");
		if (sb_timeline_open(path, err, sizeof(err))) {
			rc = 1;
			goto usage;
		}
		snprintf(out_json, sizeof(out_json), "--benchmark_out=%s/gbench.json.partial", o.out);
		o.gb_argv[o.gb_argc++] = out_json;
		o.gb_argv[o.gb_argc++] = "--benchmark_out_format=json";
		o.gb_argv[o.gb_argc] = NULL;
	}
	/* the limits table is fed from what is reported (run/limits.h) */
	sb_gbench_on_run(sb_limits_on_run, NULL);
	sb_gbench_on_group(on_group, NULL);
	console_begin(&o, cnt);
	sb_gbench_on_context(on_context, o.out ? (void *)o.out : NULL);
	sb_context_fingerprint(t, argc, argv);
	if (!list_only)
		sb_counters_context(cnt);
	sb_context_add("sb_label", o.label ? o.label : "");
	{	/* every planned point as typed fields (results/point.h) */
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
	if (!list_only && total > 0)
		sb_quiet_check(!sb_console_owns());
	if (resume && total == 0) {
		rc = 0;		/* everything had finished: only the files to complete */
	} else {
		if (sb_progress_begin(total, o.quiet || list_only)) {
			sb_gbench_on_start(sb_progress_on_start, NULL);
			sb_gbench_on_display(sb_progress_clear, NULL);
		}
		sb_drive_set_counters(cnt);
		rc = sb_gbench_main(o.gb_argc, o.gb_argv);
		sb_drive_set_counters(NULL);
		sb_progress_end();
		sb_console_end();
	}
	sb_csv_close();
	sb_runlog_close();
	sb_timeline_close();	/* an empty file is removed: no fidelity benchmark */
	if (o.out && sb_gbench_out_errno()) {
		path_of(path, sizeof(path), o.out, "gbench.json.partial");
		sb_out_fail(path, sb_gbench_out_errno());
	}
	if (o.out && rc == SB_EXIT_USAGE && !resume) {
		/* nothing ran (GB refused its flags): leave the directory as it was */
		for (const char *const *f = out_files + 4; *f; f++)
			remove_out(o.out, *f);
		remove_out(o.out, ".lock");
		remove_created();
	} else if (o.out && sb_out_failure()) {
		/* never a final name on a file that failed; GB's JSON, cut, goes
		 * (runs.jsonl.partial has every finished benchmark) */
		if (sb_gbench_out_errno())
			remove_out(o.out, "gbench.json.partial");
		fprintf(stderr, "stratbench: %s: results not complete (the finished ones stay in "
			"%s/*.partial; 'stratbench run --resume=%s' when it can write)\n",
			sb_out_failure(), o.out, o.out);
		rc = 1;
		goto out;
	} else if (o.out) {
		if (finish_files(o.out, resume, !got_signal, argc, argv, o.label, err,
				 sizeof(err))) {
			fprintf(stderr, "stratbench: %s: results not complete ('stratbench run "
				"--resume=%s' when it can write)\n", err, o.out);
			rc = 1;
			goto out;
		}
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
	if (fresh) {	/* ours: leave nothing behind */
		remove_out(o.out, "run.json");
		remove_out(o.out, ".lock");
	}
	remove_created();	/* the directories made here, if still empty */
out:
	sb_catch_stop_signals(NULL);
	for (i = 0; i < ncreated; i++)
		free(created[i]);
	ncreated = 0;
	done_free(&done);
	sb_plan_free();
	sb_counters_spec_free(cnt);
	sb_topo_destroy(t);
	sb_opts_free(&o);
	if (rargv)
		sb_resume_free_argv(rargc, rargv);
	(void)lock_fd;	/* held until exit */
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
