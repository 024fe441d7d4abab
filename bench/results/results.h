/* results/ — what a run writes and every reader reads back: the typed point
 * (point.h), the JSON context and fingerprint, results.csv, runs.jsonl,
 * windows.jsonl, settings and quietness, ab.json (ab.h), merge's files, DIR
 * itself (rundir.h) and the reader of a results directory (results_read.c).
 * uses: core machine stats
 * What it needs of the run (GB's context, stopping the run on a failed
 * write) it gets as callbacks the run registers. */
#ifndef STRATBENCH_RESULTS_H
#define STRATBENCH_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "core/util.h"
#include "machine/topo.h"

#include "results/point.h"
#include "results/report.h"
#include "stats/stats.h"

/* context.c: a key and value of the JSON context, to the run's sink (report.h) */
void sb_context_put(const char *key, const char *value);
/* context.c: the fingerprint (DESIGN.md §6) into the JSON context */
void sb_context_fingerprint(const struct sb_topo *t, int argc, char **argv);

/* context.c: this machine, for the fingerprint and --resume's check */
void sb_context_cpu_model(char *buf, size_t n);
void sb_context_host(char *buf, size_t n);

/* quiet.c: load average and busy CPUs before the run to the context, the
 * warnings on stderr when warn (else the console's context says it) */
void sb_quiet_check(bool warn);
/* quiet.c: the warnings alone, for what writes no Google Benchmark context (run --ab) */
void sb_quiet_warn(void);

/* csv.c: results.csv rows from Google Benchmark's run hook, a benchmark's
 * rows written together by sb_csv_group(cv) with the CV in % of its
 * ops_per_s over repetitions (< 0: none); append keeps the header */
int sb_csv_open(const char *path, char *err, size_t errlen);
int sb_csv_append(const char *path, char *err, size_t errlen);
void sb_csv_cv_threshold(double pct);
void sb_csv_group(double cv_pct);
/* the run hook that takes the rows (the run is given it after an open) */
void sb_csv_on_run(const struct sb_run_report *r, void *arg);
int sb_csv_close(void);		/* flushed, synced and closed: 0, or -1 (said) */
/* One CSV field: quoted when it holds a comma, quote or newline (as a space) */
void sb_csv_field(FILE *f, const char *s);
/* A point as family,strategy,lock,threads,placement,params (results.csv's and
 * machines.csv's); NULL (no point: self-benchmarks, plain GB JSON): all empty */
void sb_csv_point(FILE *o, const struct sb_point_fields *f);
/* csv.c: is line (newline or not) results.csv's header; is a row whole (the
 * header's field count, numbers where numbers go): 0, or -1 with why */
bool sb_csv_header_ok(const char *line);
int sb_csv_check_row(const char *line, char *why, size_t n);

/* runlog.c: j as one line to fd, one write(2) unless the kernel writes it
 * short (the rest follows); 0, or -1 with errno */
int sb_jsonl_write(int fd, json_t *j);
/* runlog.c: all of buf to fd (short writes, EINTR retried; 0 is ENOSPC) */
int sb_write_all(int fd, const void *buf, size_t n);
/* fsync the directory that holds path: 0, or -1 with errno */
int sb_fsync_dir_of(const char *path);
/* tmp (complete, closed) gets its final name: fsync tmp, rename, fsync the
 * directory; on failure err says which file and why and tmp stays */
int sb_file_commit(const char *tmp, const char *final, char *err, size_t errlen);
/* rundir.c: mkdir -p dir: 0, or -1 with one line in err */
int sb_mkdirs(const char *dir, char *err, size_t errlen);
/* path written whole through path.tmp and sb_file_commit (json_dumps flags) */
int sb_json_write_file(const char *path, json_t *j, size_t flags, char *err, size_t errlen);
/* A run's first failed write: recorded (said at the end by whoever finishes
 * the run), the run stopped after the benchmark in flight; NULL: none */
void sb_out_fail(const char *path, int errnum);
const char *sb_out_failure(void);
/* runlog.c: an input results file, opened only if regular and at most
 * SB_INPUT_MAX (never blocks on a FIFO), else NULL with err.  256 MiB: a default
 * suite's gbench.json is ~1 MB, --threads=all of 256 PUs, all counters < 100 MB */
#define SB_INPUT_MAX (256 << 20)
FILE *sb_input_open(const char *path, char *err, size_t errlen);
/* runlog.c: DIR/runs.jsonl, one line per finished benchmark (and context) */
int sb_runlog_open(const char *path, char *err, size_t errlen);
int sb_runlog_add(const char *key, json_t *v);	/* takes v's reference */
/* {"name", "point" (from point.h's table), "benchmarks"}: takes benchmarks' reference */
int sb_runlog_add_bench(const char *registered, json_t *benchmarks);
int sb_runlog_close(void);	/* synced and closed: 0, or -1 (recorded) */
/* fn(key, value, arg) (unless NULL) for each member of each line that parses,
 * in order; one that does not (cut by a SIGKILL) is skipped.  Returns how many
 * were skipped, or -1 with err ("PATH: why") if the file cannot be read. */
int sb_runlog_read(const char *path, void (*fn)(const char *key, json_t *v, void *arg),
		   void *arg, char *err, size_t errlen);
/* src's lines that parse (with keep: those whose "name" it takes), to dst
 * (atomically, synced; src may be dst), each also to fn; returns the
 * number of lines dropped or -1 (errno set) */
int sb_runlog_compact(const char *src, const char *dst, bool (*keep)(const char *name, void *arg),
		      void (*fn)(const char *key, json_t *v, void *arg), void *arg);

/* results_read.c: a results directory or a Google Benchmark JSON file */
struct sb_bm {
	char *name;		/* without /manual_time */
	bool has_point;		/* pt is set: the results carry typed points */
	struct sb_point_fields pt;
	json_t **runs;		/* every repetition's entry (any metric) */
	int nruns, runs_cap;
	double *reps;		/* the metric of each repetition */
	int nreps, reps_cap;
	double median, min, max;/* median: GB's aggregate, else of reps; NaN: none */
	double cv;		/* % from GB's cv aggregate, NaN: none */
	bool failed;		/* a run reported an error */
	json_t *entry;		/* the median aggregate, else the first run */
};
struct sb_results {
	char *path;
	json_t *root, *context;
	struct sb_bm *bm;
	int n, cap;
	const char *label, *host, *cpu_model;	/* from the context; NULL: absent */
	int schema;		/* sb_schema of the context, 0: none (plain GB JSON) */
	json_t *points;		/* sb_points parsed: registered name -> point */
	double cv_threshold;	/* sb_cv_threshold, 5 when absent */
};
/* The median, min, max and CV (%, sample stddev / mean) of metric over b's
 * repetitions (b->median's metric or any other); n = how many had it. */
struct sb_stat {
	double median, min, max, cv;
	int n;
};
void sb_bm_stat(const struct sb_bm *b, const char *metric, struct sb_stat *s);
int sb_results_load(const char *path_or_dir, const char *metric, struct sb_results *r,
		    char *err, size_t errlen);
bool sb_results_has_metric(const struct sb_results *r, const char *metric);
void sb_results_free(struct sb_results *r);
/* merge.c: `stratbench merge`'s out/machines.csv (metric of machine r[i],
 * named names[i]) and out/merge.json; 0, or with err -1 before anything is
 * written (out cannot be made or holds a merge), 1: a file unwritten */
int sb_merge_write(const char *out, const char *metric, const struct sb_results *r,
		   const char *const *names, int n, char *err, size_t errlen);
/* a counter, or real_time/cpu_time in ns; NaN when absent */
double sb_entry_value(json_t *entry, const char *metric);
json_t *sb_json_loads_gb(const char *text, json_error_t *e);

/* timeline.c: DIR/windows.jsonl; open appends, close removes an empty file */
int sb_timeline_open(const char *path, char *err, size_t errlen);
bool sb_timeline_on(void);		/* open: a body builds its line */
/* a body run's line ({"name": registered, ...}) held, replacing the last (taken) */
int sb_timeline_add(json_t *line);
/* the benchmark finished: writes the line held if it is registered's */
int sb_timeline_flush(const char *registered);
int sb_timeline_close(void);	/* synced and closed: 0, or -1 (recorded) */

#endif
