/* lock_bench.c — the lock/<name>/threads:N/place:P benchmark, as lockhammer:
 * acquire → --crit ns of work writing --crit-lines shared lines → release →
 * --par ns of work.  One op is one acquisition.  Work lengths are calibrated
 * once per process (sb_work_ns_per_iter, reported as a counter). */
#include "run/limits.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <stratbench/lock.h>

/* Options: lockhammer's -c and -p in ns, shared lines written inside. */
static double crit_ns, par_ns;
static unsigned long crit_lines;
static bool trylock;

static const struct sb_option lock_options[] = {
	{ "crit", SB_OPT_DOUBLE, &crit_ns, 0, 1e9, NULL, "NS",
	  "ns of calibrated work inside the lock (default 0)" },
	{ "par", SB_OPT_DOUBLE, &par_ns, 0, 1e9, NULL, "NS",
	  "ns of calibrated work after each release (default 0)" },
	{ "crit-lines", SB_OPT_ULONG, &crit_lines, 0, 4096, NULL, "N",
	  "shared cache lines written inside the lock (default 0)" },
	{ "trylock", SB_OPT_FLAG, &trylock, 0, 0, NULL, NULL,
	  "acquire by spinning on trylock; reports trylock_success" },
	{ 0 },
};

static void lock_params(struct sb_params *p)
{
	if (!(crit_ns > 0 || par_ns > 0 || crit_lines || trylock))
		return;
	sb_params_set(p, "crit", "%g", crit_ns);
	sb_params_set(p, "par", "%g", par_ns);
	sb_params_set(p, "lines", "%lu", crit_lines);
	if (trylock)
		sb_params_set(p, "acquire", "trylock");
}

struct lock_member {
	SB_CACHE_ALIGNED struct sb_lock_loop lp;
};

struct lock_run {
	const struct sb_lock_ops *ops;
	struct lock_member *m;
};

static uint64_t lock_member_fn(int tid, const struct sb_round *r, void *arg)
{
	struct lock_run *run = arg;

	return run->ops->loop(&run->m[tid].lp, r);
}

/* Sampled acquisition times: median, p99 (histogram midpoints) and max. */
static void report_waits(sb_state *st, const uint64_t *hist, uint64_t max_wait)
{
	const double cpn = sb_cycles_per_ns();
	uint64_t n = 0, seen = 0;
	double p50 = -1, p99 = -1;
	int b;

	for (b = 0; b < SB_WAIT_BUCKETS; b++)
		n += hist[b];
	if (!n) {
		sb_state_set_label(st, "waits: unavailable (no acquisition sampled)");
		return;
	}
	for (b = 0; b < SB_WAIT_BUCKETS; b++) {
		seen += hist[b];
		/* a bucket's midpoint may pass the largest sample: cap it */
		if (p50 < 0 && seen * 2 >= n)
			p50 = fmin(sb_wait_bucket_mid(b), (double)max_wait) / cpn;
		if (p99 < 0 && seen * 100 >= n * 99)
			p99 = fmin(sb_wait_bucket_mid(b), (double)max_wait) / cpn;
	}
	sb_state_counter(st, "wait_p50_ns", p50, SB_COUNTER_DEFAULT);
	sb_state_counter(st, "wait_p99_ns", p99, SB_COUNTER_DEFAULT);
	sb_state_counter(st, "max_wait_ns", (double)max_wait / cpn, SB_COUNTER_DEFAULT);
}

static size_t round_line(size_t n)
{
	return (n + SB_CACHELINE - 1) / SB_CACHELINE * SB_CACHELINE;
}

static void lock_body(sb_state *st, void *arg)
{
	const struct sb_point *pt = arg;
	const struct sb_lock_ops *ops = sb_lock_find(pt->strategy);
	/* lock words on their own line(s), then the critical section's lines */
	size_t lock_bytes = round_line(ops->state_size);
	size_t size = lock_bytes + (size_t)crit_lines * SB_CACHELINE + SB_CACHELINE;
	struct lock_run run = { .ops = ops };
	uint64_t attempts = 0, fails = 0, max_wait = 0, hist[SB_WAIT_BUCKETS] = { 0 };
	struct sb_drive d;
	char *shared;
	int i;

	shared = sb_drive_alloc(st, pt, size);
	if (!shared)
		return;
	if (ops->init && ops->init(shared)) {
		sb_state_skip_with_error(st, "lock init failed");
		sb_drive_free(pt, shared, size);
		return;
	}
	run.m = aligned_alloc(SB_CACHELINE, sizeof(*run.m) * pt->threads);
	memset(run.m, 0, sizeof(*run.m) * pt->threads);
	for (i = 0; i < pt->threads; i++) {
		struct sb_lock_loop *lp = &run.m[i].lp;

		lp->lock = shared;
		if (ops->node_size) {
			lp->node = aligned_alloc(SB_CACHELINE, round_line(ops->node_size));
			memset(lp->node, 0, ops->node_size);
		}
		lp->crit_iters = sb_work_iters(crit_ns);
		lp->par_iters = sb_work_iters(par_ns);
		lp->crit_lines = (unsigned)crit_lines;
		lp->crit_data = (uint64_t *)(shared + lock_bytes);
		lp->use_trylock = trylock;
		lp->sample_shift = 8;	/* time one acquisition in 256, at a per-thread offset:
					 * two counter reads (~10 ns here) per 256 ops */
		lp->sample_phase = 1 + (unsigned)(i * 37) % 255;
	}
	if (sb_drive_run(st, pt, lock_member_fn, &run, &d) == 0) {
		for (i = 0; i < pt->threads; i++) {
			attempts += run.m[i].lp.try_attempts;
			fails += run.m[i].lp.try_fails;
			if (run.m[i].lp.max_wait_cycles > max_wait)
				max_wait = run.m[i].lp.max_wait_cycles;
			for (int b = 0; b < SB_WAIT_BUCKETS; b++)
				hist[b] += run.m[i].lp.wait_hist[b];
		}
		report_waits(st, hist, max_wait);
		if (trylock && attempts)
			sb_state_counter(st, "trylock_success", 1.0 - (double)fails / attempts,
					 SB_COUNTER_DEFAULT);
		sb_state_counter(st, "work_ns_per_iter", sb_work_ns_per_iter(), SB_COUNTER_DEFAULT);
		/* every acquisition writes the lock line */
		if (d.elapsed_ns)
			sb_limits_report(st, pt, SB_LIMIT_SHARED_WRITE,
					 (double)d.total_ops * 1e9 / (double)d.elapsed_ns);
		sb_drive_report(st, &d);
	}
	if (ops->fini)
		ops->fini(shared);
	for (i = 0; i < pt->threads; i++)
		free(run.m[i].lp.node);
	free(run.m);
	sb_drive_free(pt, shared, size);
}

const struct sb_family_driver sb_lock_driver = {
	.family = "lock",
	.summary = "locks, alone and inside lock-based policies: lock/<name>/threads:N/place:P",
	.reg = SB_FAMILY_lock,
	.options = lock_options,
	.params = lock_params,
	.body = lock_body,
};
