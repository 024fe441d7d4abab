/* limits.h — internal to bench/: the machine's limits measured in this run
 * (the calibrate family) and how a strategy benchmark reports against them.
 * Table: calibrate runs first, then the 1-thread points, then the rest (plan.c's
 * stages 0, 1, 2, each whole even when interleaved); a resumed run first feeds it
 * the runs it finished before (cmd_run.c).  sb_limits_on_run() records every run
 * GB reports (once all its repetitions are done, before the next benchmark) from
 * its typed point (results/point.h), under: "c2c:store:list:A,B" (one_way_min_ns
 * of CPU pair A < B: its fastest batch of 128-transfer means — the hardware's
 * bound, robust to a descheduled member; with its relation), "c2c:cas:list:A,B",
 * "op:cas" … (uncontended ns_per_op), "flush:none|remote" (us_per_call of the
 * real kernel's flush), "flush:poll|signal" (us_per_call: the simulated flush
 * round trip per transport), and for every other 1-thread run "solo:<group>"
 * (sb_point_group: less threads and placement; ops_per_s).  A key's value is the
 * median of its records, one a repetition (those lighter than a quarter of the
 * heaviest left out).  Main thread only (bodies and reporters run there).
 *
 * Limits (docs/calibrate.md): for a point of T threads on CPUs c[0..T)
 *   handoff (the strategy writes one shared line every call, T >= 2):
 *        limit_ops = 1e9 / mean over every pair {c[i], c[j]} of its fastest
 *        one-way ns (a pair not measured takes the median of measured pairs
 *        of the same relation, and the label says so)
 *   rmw     (every call is at least one atomic RMW, T == 1):
 *        limit_ops = 1e9 / the cheapest uncontended RMW (cas, fetch_add, xchg)
 *   scaling (otherwise, T >= 2): limit_ops = T × the same benchmark's
 *        1-thread ops/s from this run
 * of_limit = ops_per_s / limit_ops.  Without the calibration (or the 1-thread
 * point) the counters are absent — never 0 — and the label says what was missing.
 */
#ifndef STRATBENCH_LIMITS_H
#define STRATBENCH_LIMITS_H

#include <stdbool.h>

#include "run/run.h"

void sb_calib_record(const char *key, int rel, double value, double weight);
/* The run hook (gbench.h) that feeds the table from reported runs. */
void sb_limits_on_run(const struct sb_run_report *r, void *arg);
/* 0 and *value, or -1 when key was never recorded. */
int sb_calib_lookup(const char *key, double *value);
/* Median value of the keys starting with prefix recorded with relation rel. */
int sb_calib_lookup_rel(const char *prefix, int rel, double *value);
void sb_calib_reset(void);

/* Pure arithmetic (tested on fixtures): <= 0 inputs give NAN. */
double sb_limit_handoff(const double *one_way_ns, int npairs);
double sb_limit_rmw(double rmw_ns);
double sb_limit_scaling(double solo_ops_per_s, int threads);
double sb_of_limit(double ops_per_s, double limit_ops);

/* What a strategy declares about its calls. */
enum sb_limit_kind {
	SB_LIMIT_SHARED_WRITE,	/* every call writes one shared line: handoff; rmw at 1 thread */
	SB_LIMIT_SCALING,	/* anything else: T × its 1-thread rate */
};

/* limit_ops for pt (0, or -1 with why[] set); its 1-thread key: sb_point_group. */
int sb_limit_for(const struct sb_point *pt, enum sb_limit_kind kind, double *limit_ops,
		 char *why, size_t len);
/* limit_ops and of_limit (or a label saying why not) for a point's ops_per_s. */
void sb_limits_report(sb_state *st, const struct sb_point *pt, enum sb_limit_kind kind,
		      double ops_per_s);

/* Flush cost (docs/calibrate.md): a shootdown point's ns per request ÷ the round
 * trip under key ("flush:poll|signal": the simulated transports; "flush:remote":
 * the kernel's madvise, remote toucher).  _for: 0 and the ns, or -1 with why[].
 * _report: flush_rtt_ns and of_flush_rtt, or a label why not — never 0. */
double sb_of_flush_rtt(double ns_per_req, double rtt_ns);
int sb_flush_rtt_for(const char *key, double *rtt_ns, char *why, size_t len);
void sb_flush_rtt_report(sb_state *st, const char *key, double ns_per_req);

#endif
