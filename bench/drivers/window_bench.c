/* window_bench.c — window/<policy>[/lock:L][/mode:fidelity]/threads:N/place:P:
 * every member calls the policy's update() in its own timed loop on one
 * shared window on the home node.  Clocks: the cycle counter in ns (default;
 * read once per chunk when nothing else is asked, like a coarse jiffies), a
 * ticker thread's jiffies (--clock=jiffies), or jiffies member 0 advances
 * every --tick-calls calls (--clock=calls: ticks follow work, not a sleeping
 * thread's wake-ups).  Model: --migrate-ns after each admitted call,
 * --fault-ns after every call; update_ns is sampled apart from that work.
 * Fidelity mode logs every admitted call and reset per member, merged after. */
#include "results/results.h"
#include "run/limits.h"
#include "run/run.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/ticker.h"
#include <stratbench/window.h>

/* Options (kernel defaults): migrate_interval_millisecs, ratelimit_pages
 * (4 KiB pages), one small page per call, racy accounting, HZ=1000. */
static double interval_ms = 100;
static unsigned long limit = 32768;
static unsigned long nr_pages = 1;
static bool exact;
static const char *clock_name = "cycles";
static double tick_us;		/* 0: not given (1000 with --clock=jiffies|calls) */
static unsigned long tick_calls;	/* 0: not given (500 with --clock=calls) */
static double migrate_ns, fault_ns;
static const char *mode = "throughput";

static const char *const clocks[] = { "cycles", "jiffies", "calls", NULL };
static const char *const modes[] = { "throughput", "fidelity", "both", NULL };

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
	{ "clock", SB_OPT_STRING, &clock_name, 0, 0, clocks, "cycles|jiffies|calls",
	  "window clock: cycle counter (default), a ticker thread's jiffies word, "
	  "or jiffies advanced by member 0's calls" },
	{ "tick-us", SB_OPT_DOUBLE, &tick_us, 10, 1e6, NULL, "US",
	  "jiffies period in us (default 1000, HZ=1000; --clock=jiffies|calls: "
	  "calls counts --interval-ms in ticks of this nominal length)" },
	{ "tick-calls", SB_OPT_ULONG, &tick_calls, 1, 1e12, NULL, "N",
	  "--clock=calls: member 0 advances jiffies every N of its calls (default 500)" },
	{ "migrate-ns", SB_OPT_DOUBLE, &migrate_ns, 0, 1e9, NULL, "NS",
	  "calibrated work after each admitted call: the copy (default 0)" },
	{ "fault-ns", SB_OPT_DOUBLE, &fault_ns, 0, 1e9, NULL, "NS",
	  "calibrated work after every call: the hinting fault (default 0)" },
	{ "mode", SB_OPT_STRING, &mode, 0, 0, modes, "throughput|fidelity|both",
	  "fidelity: per-window admit_ratio, stretch, double resets, lost pages" },
	{ 0 },
};

static bool calls_clock(void)
{
	return strcmp(clock_name, "calls") == 0;
}

/* A jiffies word in ticks of --tick-us: the ticker's, or the calls clock's. */
static bool jiffies_clock(void)
{
	return strcmp(clock_name, "jiffies") == 0 || calls_clock();
}

static unsigned long tick_call_count(void)
{
	return tick_calls ? tick_calls : 500;
}

static double tick_period_us(void)
{
	return tick_us > 0 ? tick_us : 1000;
}

/* The window's interval in the clock's ticks (msecs_to_jiffies rounds up). */
static sb_ticks interval_ticks(void)
{
	if (jiffies_clock())
		return (sb_ticks)ceil(interval_ms * 1000 / tick_period_us() - 1e-9);
	return (sb_ticks)(interval_ms * 1e6);	/* ticks are ns */
}

static int window_check(char *err, size_t errlen)
{
	if (tick_us > 0 && !jiffies_clock()) {
		snprintf(err, errlen, "--tick-us applies to --clock=jiffies or calls only");
		return -1;
	}
	if (tick_calls > 0 && !calls_clock()) {
		snprintf(err, errlen, "--tick-calls applies to --clock=calls only");
		return -1;
	}
	if (jiffies_clock() && interval_ms * 1000 < tick_period_us()) {
		snprintf(err, errlen, "--interval-ms=%g is shorter than one jiffies tick "
			 "(--tick-us=%g)", interval_ms, tick_period_us());
		return -1;
	}
	if (!jiffies_clock() && interval_ms * 1e6 < 1) {
		snprintf(err, errlen, "--interval-ms=%g is shorter than 1 ns", interval_ms);
		return -1;
	}
	return 0;
}

static void window_params(struct sb_params *p)
{
	if (exact)
		sb_params_set(p, "acct", "exact");
	if (jiffies_clock()) {
		sb_params_set(p, "clock", "%s", clock_name);
		sb_params_set(p, "tick", "%g", tick_period_us());
	}
	if (calls_clock())
		sb_params_set(p, "tick_calls", "%lu", tick_call_count());
	if (migrate_ns > 0 || fault_ns > 0) {
		sb_params_set(p, "migrate", "%g", migrate_ns);
		sb_params_set(p, "fault", "%g", fault_ns);
	}
}

/* --mode=fidelity|both: fidelity is a variant, so one run holds both; throughput: plain name. */
static int window_variants(const char *strategy, struct sb_params *sets, int max)
{
	(void)strategy;
	if (max < 2 || strcmp(mode, "throughput") == 0)
		return 0;
	if (strcmp(mode, "fidelity") == 0) {
		sb_params_set(&sets[0], "mode", "fidelity");
		return 1;
	}
	sb_params_set(&sets[0], "mode", "throughput");
	sb_params_set(&sets[1], "mode", "fidelity");
	return 2;
}

/* Fidelity logs: at most this much memory per run, split over the members. */
#define LOG_BYTES	(256ul << 20)
#define LOG_RESETS	(1ul << 16)	/* per member */

struct window_member {
	SB_CACHE_ALIGNED struct sb_window_loop lp;
	struct sb_window_log log;
};

struct window_run {
	uint64_t (*loop)(struct sb_window_loop *, const struct sb_round *);
	struct window_member *m;
	const struct sb_window_policy *p;
	const struct sb_lock_ops *lk;	/* NULL: the policy takes none */
	bool fidelity;
	void **nodes;			/* the members' lock nodes */
	struct sb_ticker *tk;		/* --clock=jiffies */
	sb_ticks *vclock;		/* --clock=calls: the word, alone on its line */
	const sb_ticks *jword;		/* the jiffies word members read, if any */
	double ticks_per_cycle;
	sb_ticks t0, next0;		/* the run's start, the first window's end */
};

static uint64_t window_member_fn(int tid, const struct sb_round *r, void *arg)
{
	struct window_run *run = arg;

	return run->loop(&run->m[tid].lp, r);
}

/* Now in the window's ticks: the jiffies word's, or the cycle counter's. */
static sb_ticks window_now(const struct window_run *run)
{
	return run->jword ? __atomic_load_n(run->jword, __ATOMIC_RELAXED) :
			    (sb_ticks)((double)sb_read_cycles() * run->ticks_per_cycle);
}

static void report_fidelity(sb_state *st, const struct sb_window_run *wr, unsigned long limit,
			    int64_t lost)
{
	struct sb_window_fidelity f;
	char label[200];
	uint64_t resets = 0;	/* logged by all members */

	for (int i = 0; i < wr->n; i++)
		resets += wr->logs[i]->nreset;
	sb_window_fidelity(wr, limit, &f);
	/* lost pages come from the members' totals, not the logs: complete */
	sb_state_counter(st, "lost_pages", (double)lost, SB_COUNTER_DEFAULT);
	sb_state_counter(st, "double_resets", (double)f.double_resets, SB_COUNTER_DEFAULT);
	sb_state_counter(st, "windows", (double)f.windows, SB_COUNTER_DEFAULT);
	sb_state_counter(st, "idle_windows", (double)f.idle_windows, SB_COUNTER_DEFAULT);
	if (f.windows == 0 && f.idle_windows) {
		/* every window closed an interval late: members or ticker
		 * descheduled that long.  No "; " (the console's note splits
		 * there) nor comma (results.csv is read with awk -F,) in a label */
		snprintf(label, sizeof(label), "fidelity: all %llu windows idle (each closed "
			 "an interval or more late as the members or the ticker were "
			 "descheduled: lengthen --interval-ms): admit_ratio and stretch unavailable",
			 (unsigned long long)f.idle_windows);
		sb_state_set_label(st, label);
		return;
	}
	if (f.windows == 0) {
		sb_state_set_label(st, resets == 0 ?
				   "fidelity: no window reset in the run (a policy that never "
				   "resets or too short a run): admit_ratio and stretch unavailable" :
				   "fidelity: no complete window (run longer or shorten "
				   "--interval-ms): admit_ratio and stretch unavailable");
		return;
	}
	sb_state_counter(st, "admit_ratio", f.admit_mean, SB_COUNTER_DEFAULT);
	sb_state_counter(st, "admit_ratio_p99", f.admit_p99, SB_COUNTER_DEFAULT);
	sb_state_counter(st, "admit_ratio_max", f.admit_max, SB_COUNTER_DEFAULT);
	sb_state_counter(st, "stretch", f.stretch_mean, SB_COUNTER_DEFAULT);
	sb_state_counter(st, "stretch_max", f.stretch_max, SB_COUNTER_DEFAULT);
	if (f.truncated) {
		snprintf(label, sizeof(label), "fidelity: a member's log filled up: windows "
			 "analysed over the first %.0f%% of the run only", f.cut_fraction * 100);
		sb_state_set_label(st, label);
	}
}

/* windows.jsonl (results/timeline.c): the first TIMELINE_MAX windows as
 * [start_ns, end_ns, pages] from the first window's start, pages per member,
 * the idle ones' indices (docs/window.md "Fidelity mode"). */
#define TIMELINE_MAX	200

static void add_timeline(const struct sb_point *pt, const struct sb_window_run *wr,
			 double ns_per_tick, uint64_t admitted)
{
	const int n = wr->n;
	struct sb_window_span *win = calloc(TIMELINE_MAX, sizeof(*win));
	uint64_t *mp = calloc((size_t)TIMELINE_MAX * (size_t)n, sizeof(*mp)), total = 0;
	json_t *wj, *mj, *ij;
	size_t k, nw;

	if (!win || !mp) {
		free(win);
		free(mp);
		sb_timeline_add(NULL);	/* none for this run */
		return;
	}
	nw = sb_window_timeline(wr, win, mp, TIMELINE_MAX, &total);
	wj = json_array();
	mj = json_array();
	ij = json_array();
	for (k = 0; k < nw; k++) {
		json_t *mk = json_array();

		json_array_append_new(wj, json_pack("[III]",
			(json_int_t)llround((double)win[k].start * ns_per_tick),
			(json_int_t)llround((double)win[k].end * ns_per_tick),
			(json_int_t)win[k].pages));
		for (int i = 0; i < n; i++)
			json_array_append_new(mk, json_integer((json_int_t)mp[k * (size_t)n + (size_t)i]));
		json_array_append_new(mj, mk);
		if (win[k].idle)
			json_array_append_new(ij, json_integer((json_int_t)k));
	}
	sb_timeline_add(json_pack("{s:s, s:o, s:I, s:I, s:s, s:I, s:I, s:o, s:o, s:o}",
		"name", pt->name, "point", sb_point_to_json(&pt->f),
		"interval_ns", (json_int_t)llround((double)wr->interval * ns_per_tick),
		"limit", (json_int_t)limit, "clock", clock_name,
		"admitted", (json_int_t)admitted, "windows_total", (json_int_t)total,
		"windows", wj, "members", mj, "idle", ij));
	free(win);
	free(mp);
}

/* Fidelity mode's figures, from the logs and the members' totals. */
static void window_report_fidelity(sb_state *st, const struct sb_point *pt,
				   const struct window_run *run, struct sb_window *w,
				   const struct sb_window_stats *sum, sb_ticks end)
{
	struct sb_window_log **logs = calloc((size_t)pt->threads, sizeof(void *));
	struct sb_window_run wr = {
		.logs = logs, .n = pt->threads, .t0 = run->t0, .next0 = run->next0,
		.end = end, .interval = w->interval,
	};

	if (!logs) {
		sb_state_skip_with_error(st, "out of memory");
		return;
	}
	for (int i = 0; i < pt->threads; i++)
		logs[i] = &run->m[i].log;
	/* lost = admitted - what the windows' counts held at their resets and
	 * now (< 0: a stale += resurrected pages over a reset) */
	report_fidelity(st, &wr, limit,
			(int64_t)(sum->admitted - sum->harvested - sb_window_count(run->p, w)));
	if (sb_timeline_on())
		add_timeline(pt, &wr, jiffies_clock() ? tick_period_us() * 1000 : 1, sum->admitted);
	free(logs);
}

/* Ticks of an empty sb_read_cycles() pair (median of 101, once), less from each sample. */
static double read_pair_ticks(void)
{
	static double pair = -1;
	double s[101];

	if (pair >= 0)
		return pair;
	for (int i = 0; i < 101; i++) {
		uint64_t c0 = sb_read_cycles();

		s[i] = (double)(sb_read_cycles() - c0);
	}
	pair = sb_median(s, 101);
	return pair;
}

/* update_ns (update_cycles with a hardware counter): the mean time inside
 * update() over the sampled calls (fault and copy work outside), less an
 * empty pair of reads; a mean below that is no measurement: said, not 0. */
static void report_update_cost(sb_state *st, uint64_t ticks, uint64_t samples)
{
	double per = (double)ticks / (double)samples - read_pair_ticks();

	if (per <= 0) {
		sb_state_append_label(st, "update_ns: unavailable (below the cost of the two "
				      "timing reads around it)");
		return;
	}
	sb_state_counter(st, "update_ns", per / sb_cycles_per_ns(), SB_COUNTER_DEFAULT);
	if (SB_HAVE_CYCLE_COUNTER)
		sb_state_counter(st, "update_cycles", per, SB_COUNTER_DEFAULT);
}

/* The counters of a run that did operations. */
static void window_report(sb_state *st, const struct sb_point *pt, const struct window_run *run,
			  struct sb_window *w, const struct sb_drive *d)
{
	const sb_ticks end = window_now(run);
	const double interval_ns = jiffies_clock() ?
		(double)w->interval * tick_period_us() * 1000 : (double)w->interval;
	struct sb_window_stats sum = { 0 };
	uint64_t upd_ticks = 0, upd_samples = 0;

	for (int i = 0; i < pt->threads; i++) {
		const struct sb_window_loop *lp = &run->m[i].lp;

		sum.resets += lp->st.resets;
		sum.contended += lp->st.contended;
		sum.limited += lp->st.limited;
		sum.admitted += lp->st.admitted;
		sum.harvested += lp->st.harvested;
		upd_ticks += lp->upd_ticks;
		upd_samples += lp->upd_samples;
	}
	if (!d->total_ops || !d->elapsed_ns)
		return;
	sb_state_counter(st, "resets", (double)sum.resets, SB_COUNTER_DEFAULT);
	/* 1: every window reset once; > 1: repeated resets (spinlock's
	 * unlocked re-check); < 1: stretched.  The calls clock: in the ticks
	 * member 0's calls made (at least one, or no window ended) */
	sb_state_counter(st, "resets_per_interval", calls_clock() ?
			 (double)sum.resets * (double)w->interval /
			 (double)(end - run->t0 ? end - run->t0 : 1) :
			 (double)sum.resets * interval_ns / (double)d->elapsed_ns, SB_COUNTER_DEFAULT);
	if (upd_samples)
		report_update_cost(st, upd_ticks, upd_samples);
	if (migrate_ns > 0 || fault_ns > 0)	/* the model's calibration */
		sb_state_counter(st, "work_ns_per_iter", sb_work_ns_per_iter(), SB_COUNTER_DEFAULT);
	if (run->p->peeks_lock && run->lk && !run->lk->is_locked)	/* unavailable, not 0 */
		sb_state_set_label(st, "contended: unavailable (this lock cannot "
				   "tell whether it is held)");
	else
		sb_state_counter(st, "contended", (double)sum.contended / d->total_ops,
				 SB_COUNTER_DEFAULT);
	sb_state_counter(st, "limited", (double)sum.limited / d->total_ops, SB_COUNTER_DEFAULT);
	/* a run that never exercised the reset measured the limited path only: said
	 * (a "limited" note: the console shows it once under the table, the summary
	 * again); one text for all, so it is one line.  null has no window. */
	if (!run->fidelity && strcmp(run->p->name, "null") &&
	    (!sum.resets || (double)sum.limited > 0.99 * (double)d->total_ops))
		sb_state_append_label(st, "limited: no window reset or over 99 % of calls "
				      "limited: the reset was not exercised (the workload "
				      "model: docs/window.md)");
	if (!run->fidelity)	/* logging costs time: no bound to compare */
		sb_limits_report(st, pt, run->p->shared_write ? SB_LIMIT_SHARED_WRITE :
				 SB_LIMIT_SCALING, (double)d->total_ops * 1e9 / (double)d->elapsed_ns);
	else
		window_report_fidelity(st, pt, run, w, &sum, end);
}

/* The jiffies word members read (calls clock or ticker), if any; 0, or -1 said to st. */
static int window_clock_start(sb_state *st, struct window_run *run)
{
	if (calls_clock()) {
		run->vclock = aligned_alloc(SB_CACHELINE, SB_CACHELINE);
		*run->vclock = sb_ticker_initial((uint64_t)(tick_period_us() * 1000));
		run->jword = run->vclock;
	} else if (jiffies_clock()) {
		run->tk = aligned_alloc(SB_CACHELINE, sizeof(*run->tk));
		if (sb_ticker_start(run->tk, (uint64_t)(tick_period_us() * 1000))) {
			free(run->tk);
			run->tk = NULL;
			sb_state_skip_with_error(st, "cannot start the jiffies ticker thread");
			return -1;
		}
		run->jword = &run->tk->jiffies;
	}
	return 0;
}

/* Member i's loop over w: its clock, work, lock node and fidelity log. */
static int window_member_init(sb_state *st, const struct sb_point *pt, struct window_run *run,
			      struct sb_window *w, int i)
{
	struct sb_window_loop *lp = &run->m[i].lp;
	const struct sb_lock_ops *lk = run->lk;

	lp->w = w;
	lp->nr_pages = nr_pages;
	lp->ticks_per_cycle = run->ticks_per_cycle;
	lp->jiffies = run->jword;
	if (calls_clock() && i == 0) {	/* the one writer of the calls clock */
		lp->vclock = run->vclock;
		lp->tick_calls = lp->tick_left = tick_call_count();
	}
	lp->migrate_iters = sb_work_iters(migrate_ns);
	lp->fault_iters = sb_work_iters(fault_ns);
	lp->st.member = i;
	if (lk && lk->node_size) {
		run->nodes[i] = aligned_alloc(SB_CACHELINE,
					      (lk->node_size + SB_CACHELINE - 1) / SB_CACHELINE *
					      SB_CACHELINE);
		memset(run->nodes[i], 0, lk->node_size);
	}
	lp->st.lock_node = run->nodes[i];
	if (run->fidelity) {
		if (sb_window_log_init(&run->m[i].log, LOG_BYTES / sizeof(struct sb_window_admit) /
				       (size_t)pt->threads, LOG_RESETS)) {
			sb_state_skip_with_error(st, "cannot allocate the fidelity logs");
			return -1;
		}
		lp->st.log = &run->m[i].log;
	}
	return 0;
}

static void window_body(sb_state *st, void *arg)
{
	const struct sb_point *pt = arg;
	const char *vmode = sb_params_get(&pt->f.params, "mode");
	struct window_run run = {
		.p = sb_window_find(pt->strategy),
		.lk = pt->lock ? sb_lock_find(pt->lock) : NULL,
		.fidelity = vmode && strcmp(vmode, "fidelity") == 0,
		.ticks_per_cycle = 1.0 / sb_cycles_per_ns(),
	};
	struct sb_window_params params = {
		.interval = interval_ticks(),
		.limit = limit,
		.exact = exact,
		.members = pt->threads,
	};
	size_t size = sizeof(struct sb_window) + (run.lk ? run.lk->state_size : 0);
	struct sb_drive d;
	struct sb_window *w;
	int i;

	w = sb_drive_alloc(st, pt, size);
	if (!w)
		return;
	run.loop = run.p->loop;
	run.m = aligned_alloc(SB_CACHELINE, sizeof(*run.m) * pt->threads);
	run.nodes = calloc(pt->threads, sizeof(*run.nodes));
	memset(run.m, 0, sizeof(*run.m) * pt->threads);
	if (window_clock_start(st, &run))
		goto out;
	if (jiffies_clock() || migrate_ns > 0 || fault_ns > 0)
		run.loop = run.p->loop_model;
	if (run.fidelity)
		run.loop = run.p->loop_logged;
	run.t0 = window_now(&run);
	if (sb_window_init(w, run.p, run.lk, (char *)w + sizeof(*w), &params, run.t0)) {
		sb_state_skip_with_error(st, "window init failed (lock init or per-member slots)");
		goto out;
	}
	run.next0 = w->next_window;
	for (i = 0; i < pt->threads; i++)
		if (window_member_init(st, pt, &run, w, i))
			goto fini;
	if (sb_drive_run(st, pt, window_member_fn, &run, &d) == 0) {
		window_report(st, pt, &run, w, &d);
		sb_drive_report(st, &d);
	}
fini:
	sb_window_fini(w);
out:
	if (run.tk) {
		sb_ticker_stop(run.tk);
		free(run.tk);
	}
	free(run.vclock);
	for (i = 0; i < pt->threads; i++) {
		free(run.nodes[i]);
		sb_window_log_free(&run.m[i].log);
	}
	free(run.nodes);
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
	.check = window_check,
	.variants = window_variants,
	.params = window_params,
	.takes_lock = window_takes_lock,
	.default_lock = "queued",
	.body = window_body,
};
