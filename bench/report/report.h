/* report.h — internal to bench/: what a run writes besides Google
 * Benchmark's own reporters.  The JSON context gets the machine fingerprint;
 * results.csv gets one flushed row per reported run. */
#ifndef STRATBENCH_REPORT_H
#define STRATBENCH_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include <stratbench/gbench.h>
#include <stratbench/topo.h>

/* context.c: the fingerprint (DESIGN.md §6) into the JSON context */
void sb_context_fingerprint(const struct sb_topo *t, int argc, char **argv);

/* context.c: this machine, for the fingerprint and --resume's check */
void sb_context_cpu_model(char *buf, size_t n);
void sb_context_host(char *buf, size_t n);

/* quiet.c: load average and busy CPUs before the run: context + warnings */
void sb_quiet_check(void);

/* csv.c: results.csv rows from Google Benchmark's run hook, a benchmark's
 * rows written together by sb_csv_group(cv) with the CV in % of its
 * ops_per_s over repetitions (< 0: none); append keeps the header */
struct sb_name_parts {		/* a benchmark name's parts, "" when absent */
	char buf[512];
	const char *family, *strategy, *lock, *threads, *place;
	char params[512];	/* other key:value parts as key=value;... */
};
void sb_name_split(const char *name, struct sb_name_parts *p);
int sb_csv_open(const char *path, char *err, size_t errlen);
int sb_csv_append(const char *path, char *err, size_t errlen);
void sb_csv_cv_threshold(double pct);
void sb_csv_group(double cv_pct);
void sb_csv_close(void);

/* runlog.c: DIR/runs.jsonl, one line per finished benchmark (and context) */
int sb_runlog_open(const char *path, char *err, size_t errlen);
int sb_runlog_add(const char *key, json_t *v);	/* takes v's reference */
void sb_runlog_close(void);
int sb_runlog_read(const char *path, void (*fn)(const char *key, json_t *v, void *arg),
		   void *arg);
/* src's lines that parse, to dst (atomically), each also to fn; returns the
 * number of lines dropped or -1 */
int sb_runlog_compact(const char *src, const char *dst,
		      void (*fn)(const char *key, json_t *v, void *arg), void *arg);

/* results_read.c: a results directory or a Google Benchmark JSON file */
struct sb_bm {
	char *name;		/* without /manual_time */
	double *reps;		/* the metric of each repetition */
	int nreps;
	double median, min, max;/* median: GB's aggregate, else of reps; NaN: none */
	double cv;		/* % from GB's cv aggregate, NaN: none */
	bool failed;		/* a run reported an error */
	json_t *entry;		/* the median aggregate, else the first run */
};
struct sb_results {
	char *path;
	json_t *root, *context;
	struct sb_bm *bm;
	int n;
	const char *label, *host, *cpu_model;	/* from the context; NULL: absent */
};
int sb_results_load(const char *path_or_dir, const char *metric, struct sb_results *r,
		    char *err, size_t errlen);
bool sb_results_has_metric(const struct sb_results *r, const char *metric);
void sb_results_free(struct sb_results *r);
/* a counter, or real_time/cpu_time in ns; NaN when absent */
double sb_entry_value(json_t *entry, const char *metric);
json_t *sb_json_loads_gb(const char *text, json_error_t *e);

/* stats.c: two-sided Mann-Whitney U p-value as GB's compare.py gets it from
 * scipy (exact without ties for small samples, else normal approximation
 * with tie and continuity correction); NaN when there is no test */
double sb_mann_whitney_p(const double *x, int nx, const double *y, int ny);
/* the normal approximation always (scipy's method='asymptotic') */
double sb_mann_whitney_p_asymptotic(const double *x, int nx, const double *y, int ny);

/* progress.c: [k/N] name … ETA on a terminal's stderr */
void sb_progress_format(char *buf, size_t n, int done, int total, const char *name,
			double elapsed_s);
void sb_progress_begin(int total, bool quiet);
void sb_progress_group(int nruns);
void sb_progress_end(void);

#endif
