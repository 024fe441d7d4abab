/* window_bench.c — the window/<policy>[/lock:L]/threads:N/place:P benchmark:
 * every member calls the policy's update() in its own timed loop against one
 * shared window on the home node; the clock is the cycle counter scaled to ns
 * and read once per chunk (coarse, like jiffies). */
#include "run/limits.h"

#include <stdlib.h>
#include <string.h>

#include <stratbench/window.h>

/* Options (kernel defaults): migrate_interval_millisecs, ratelimit_pages of
 * 4 KiB pages, one small page per call, racy accounting. */
static double interval_ms = 100;
static unsigned long limit = 32768;
static unsigned long nr_pages = 1;
static bool exact;

static const struct sb_option window_options[] = {
	/* up to ~11 days: ticks (ns) stay far below 2^62 */
	{ "interval-ms", SB_OPT_DOUBLE, &interval_ms, 1e-6, 1e9, NULL, "MS",
	  "window length in ms (default 100, migrate_interval_millisecs)" },
	{ "limit", SB_OPT_ULONG, &limit, 1, 1e18, NULL, "PAGES",
	  "pages admitted per window (default 32768: 128 MB of 4 KiB pages)" },
	{ "nr-pages", SB_OPT_ULONG, &nr_pages, 1, 1e18, NULL, "N",
	  "pages per call (default 1; 512 for a THP)" },
	{ "exact", SB_OPT_FLAG, &exact, 0, 0, NULL, NULL,
	  "account pages with fetch-add instead of the kernel's racy +=" },
	{ NULL },
};

static void window_name_extra(char *buf, size_t len)
{
	snprintf(buf, len, "%s", exact ? "/acct:exact" : "");
}

struct window_member {
	SB_CACHE_ALIGNED struct sb_window_loop lp;
};

struct window_run {
	const struct sb_window_policy *p;
	struct window_member *m;
};

static uint64_t window_member_fn(int tid, const struct sb_round *r, void *arg)
{
	struct window_run *run = arg;

	return run->p->loop(&run->m[tid].lp, r);
}

static void window_body(sb_state *st, void *arg)
{
	const struct sb_point *pt = arg;
	const struct sb_window_policy *p = sb_window_find(pt->strategy);
	const struct sb_lock_ops *lk = pt->lock ? sb_lock_find(pt->lock) : NULL;
	struct sb_window_params params = {
		.interval = (sb_ticks)(interval_ms * 1e6),	/* ticks are ns */
		.limit = limit,
		.exact = exact,
	};
	size_t lock_extra = lk ? lk->state_size : 0;
	size_t size = sizeof(struct sb_window) + lock_extra;
	double ticks_per_cycle = 1.0 / sb_cycles_per_ns();
	struct window_run run = { .p = p };
	struct sb_window_stats sum = { 0 };
	struct sb_drive d;
	struct sb_window *w;
	void **nodes;
	int i;

	w = sb_drive_alloc(st, pt, size);
	if (!w)
		return;
	run.m = aligned_alloc(SB_CACHELINE, sizeof(*run.m) * pt->threads);
	nodes = calloc(pt->threads, sizeof(*nodes));
	memset(run.m, 0, sizeof(*run.m) * pt->threads);
	if (sb_window_init(w, p, lk, (char *)w + sizeof(*w), &params,
			   (sb_ticks)((double)sb_read_cycles() * ticks_per_cycle))) {
		sb_state_skip_with_error(st, "lock init failed");
		goto out;
	}
	for (i = 0; i < pt->threads; i++) {
		struct sb_window_loop *lp = &run.m[i].lp;

		lp->w = w;
		lp->nr_pages = nr_pages;
		lp->ticks_per_cycle = ticks_per_cycle;
		if (lk && lk->node_size) {
			nodes[i] = aligned_alloc(SB_CACHELINE,
						 (lk->node_size + SB_CACHELINE - 1) / SB_CACHELINE *
						 SB_CACHELINE);
			memset(nodes[i], 0, lk->node_size);
		}
		lp->st.lock_node = nodes[i];
	}
	if (sb_drive_run(st, pt, window_member_fn, &run, &d) == 0) {
		for (i = 0; i < pt->threads; i++) {
			sum.resets += run.m[i].lp.st.resets;
			sum.contended += run.m[i].lp.st.contended;
			sum.limited += run.m[i].lp.st.limited;
			sum.admitted += run.m[i].lp.st.admitted;
		}
		if (d.total_ops && d.elapsed_ns) {
			sb_state_counter(st, "resets", (double)sum.resets, SB_COUNTER_DEFAULT);
			/* 1 when every window is reset once; > 1: repeated resets
			 * (spinlock's unlocked re-check); < 1: stretched windows */
			sb_state_counter(st, "resets_per_interval",
					 (double)sum.resets * (double)params.interval /
					 (double)d.elapsed_ns, SB_COUNTER_DEFAULT);
			if (lk && !lk->is_locked)	/* unavailable, not 0 */
				sb_state_set_label(st, "contended: unavailable (this lock cannot "
						   "tell whether it is held)");
			else
				sb_state_counter(st, "contended",
						 (double)sum.contended / d.total_ops,
						 SB_COUNTER_DEFAULT);
			sb_state_counter(st, "limited", (double)sum.limited / d.total_ops,
					 SB_COUNTER_DEFAULT);
			sb_limits_report(st, pt, p->shared_write ? SB_LIMIT_SHARED_WRITE :
					 SB_LIMIT_SCALING, (double)d.total_ops * 1e9 /
					 (double)d.elapsed_ns);
		}
		sb_drive_report(st, &d);
	}
	sb_window_fini(w);
out:
	for (i = 0; i < pt->threads; i++)
		free(nodes[i]);
	free(nodes);
	free(run.m);
	sb_drive_free(pt, w, size);
}

static bool window_takes_lock(const char *name)
{
	const struct sb_window_policy *p = sb_window_find(name);

	return p && p->uses_lock;
}

const struct sb_family_driver sb_window_driver = {
	.family = "window",
	.summary = "rate-limit window policies: window/<policy>[/lock:<lock>]/threads:N/place:P",
	.reg = SB_FAMILY_window,
	.options = window_options,
	.name_extra = window_name_extra,
	.takes_lock = window_takes_lock,
	.default_lock = "queued",
	.body = window_body,
};
