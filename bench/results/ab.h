/* ab.h — internal to bench/: DIR/ab.json, the paired A/B comparisons of
 * `stratbench run --ab` (docs/results.md "ab.json", docs/precision.md): one
 * writer (the run), one reader (compare, the summary) and one formatter for
 * people, so that every place says a comparison the same way. */
#ifndef STRATBENCH_AB_H
#define STRATBENCH_AB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "stats/paired.h"
#include "results/point.h"

#define SB_AB_FILE "ab.json"
#define SB_AB_METRICS 2		/* ops_per_s, admitted_pages_per_s (window only) */

/* One metric's result: the statistics of paired.h. */
struct sb_ab_metric {
	char name[32];			/* "ops_per_s", "admitted_pages_per_s" */
	struct sb_paired st;
};

/* How a comparison ended. */
enum sb_ab_stop {
	SB_AB_PAIRS,		/* --min-pairs done, no --precision */
	SB_AB_PRECISION,	/* the half-width reached --precision */
	SB_AB_MAX_TIME,		/* --max-time ran out first */
	SB_AB_INTERRUPTED,	/* SIGINT/SIGTERM or a failed trial */
};

/* One A/B comparison: A and B at one thread count and placement. */
struct sb_ab_cmp {
	char a_spec[128], b_spec[128];	/* as given in --ab */
	char a_name[256], b_name[256];	/* the registered names */
	struct sb_point_fields a, b;
	int pairs;
	double elapsed_s;
	double trial_time_s;
	long long a_iterations, b_iterations;	/* per trial */
	double precision_pct;		/* 0: no --precision */
	double max_time_s;		/* 0: none */
	enum sb_ab_stop stop;
	int nmetrics;
	struct sb_ab_metric m[SB_AB_METRICS];
};

/* One pair of trials: which ran first, each side's metrics (NAN: not reported) */
struct sb_ab_trial {
	bool b_first;
	double a[SB_AB_METRICS], b[SB_AB_METRICS];
};

/* The JSON object of one comparison, its pairs included (new reference). */
json_t *sb_ab_to_json(const struct sb_ab_cmp *c, const struct sb_ab_trial *t, int n);

/* DIR/ab.json or the file path into *out (malloc'd) and *n: 0; 1: no such
 * file (nothing to say); -1 with err: not an ab.json this version reads. */
int sb_ab_read(const char *path, struct sb_ab_cmp **out, int *n, char *err, size_t errlen);

/* "spinlock -> trylock (window, threads:1, place:compact), 40 pairs:
 * ops_per_s +1.2 % [-0.3, +2.8] 95 % CI, p=0.041" — one comparison, each
 * metric after the first on a line of its own ("\n    admitted_pages_per_s
 * ..."), no final newline. */
void sb_ab_format_line(const struct sb_ab_cmp *c, char *buf, size_t len);
/* How it ended, one line without newline: "reached ±1.4 % after 46 pairs in
 * 38 s", "stopped at --max-time=120 s with ±3.1 % after 210 pairs in 121 s: ...". */
void sb_ab_format_stop(const struct sb_ab_cmp *c, char *buf, size_t len);
/* compare's and the summary's section: a heading (naming where, e.g. "NEW
 * results/current", unless NULL), each comparison's line and stop line. */
void sb_ab_print_section(FILE *f, const char *where, const struct sb_ab_cmp *c, int n);

#endif
