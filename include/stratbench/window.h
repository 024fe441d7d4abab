/* window.h — the window-update (rate-limit) contract (DESIGN.md §4).
 *
 * Model: numamigrate_update_ratelimit(pgdat, nr_pages).  One shared window
 * per node: next_window, nr_pages, and a lock for policies that use one.
 * update(w, now, nr_pages, st) returns true when the caller is rate-limited
 * (must not migrate), else accounts nr_pages and returns false.  The harness
 * owns the clock: `now` is passed in (a scripted clock in tests, the cycle
 * clock or a jiffies-like ticker in benchmarks), in ticks; interval is in
 * the same ticks.  Every policy keeps next_window as the end of the current
 * window (lock-free ones compare-and-swap it: the window start is
 * next_window - interval).  Policies write only `w` and their own `st`
 * (never shared), except that a policy declaring `per_member` gets one
 * cache line per member in w->slots[] (st->member is the caller's), which
 * any member may read or swap at a reset (percpu's sharded counts).
 * A reset zeroes the count with sb_window_zero() and reports itself with
 * sb_window_reset_done(), so the harness knows what each window accounted.
 * Declared: `stretches` — a reset sets next_window = now + interval (the
 * window restarts at the resetting call) rather than keeping its phase;
 * `exact` — page accounting never loses updates (else it is racy like the
 * kernel's plain `+=`, modelled with relaxed load + store).
 * One file per policy under strategies/window/, registered with
 * SB_WINDOW_POLICY(name, ...), which emits the policy's timed loops in its
 * own translation unit so update() inlines there.
 */
#ifndef STRATBENCH_WINDOW_H
#define STRATBENCH_WINDOW_H

#include <stdbool.h>
#include <stdint.h>

#include <stratbench/arch.h>
#include <stratbench/lock.h>
#include <stratbench/registry.h>
#include <stratbench/team.h>

typedef uint64_t sb_ticks;

/* The kernel's time_after(a, b): a is after b, wrap-safe. */
static inline bool sb_time_after(sb_ticks a, sb_ticks b)
{
	return (int64_t)(b - a) < 0;
}

/* READ_ONCE/WRITE_ONCE: single-copy atomic, no ordering (relaxed). */
#define sb_read_once(p)		__atomic_load_n((p), __ATOMIC_RELAXED)
#define sb_write_once(p, v)	__atomic_store_n((p), (v), __ATOMIC_RELAXED)

struct sb_window_params {
	sb_ticks interval;		/* ticks per window (kernel: 100 ms) */
	unsigned long limit;		/* pages per window (kernel: 32768) */
	bool exact;			/* account with fetch-add instead of racy += */
	int members;			/* callers; sizes w->slots (per_member policies) */
};

/* A per-member shard of a shared window (per_member policies). */
struct sb_window_slot {
	SB_CACHE_ALIGNED unsigned long pages;
};

struct sb_window {
	/* read-only after init */
	sb_ticks interval;
	unsigned long limit;
	bool exact;
	unsigned long batch;		/* pages a member may hold unfolded (percpu), else 0 */
	struct sb_window_slot *slots;	/* per_member policies: members entries */
	int nslots;
	struct sb_lock lock;		/* ops NULL for lock-free policies */
	/* One shared line (64 B, the smallest SB_CACHELINE), as pglist_data's
	 * numabalancing_migrate_{lock,next_window,nr_pages} share one: */
	SB_CACHE_ALIGNED sb_ticks next_window;
	unsigned long nr_pages;
	/* for policies that keep a window start / base instead (cmpxchg) */
	sb_ticks window_start;
	unsigned long base;
	/* lock.state points here when the lock's words fit (else lock_mem) */
	_Alignas(8) unsigned char lock_words[32];
};

/* Per thread, never shared; the harness sums them. */
struct sb_window_stats {
	uint64_t resets;		/* windows this thread reset */
	uint64_t contended;		/* lost trylock/cmpxchg, waited for a lock */
	uint64_t limited;		/* calls refused */
	uint64_t admitted;		/* pages admitted */
	uint64_t harvested;		/* pages the windows this thread reset had accounted */
	void *lock_node;		/* the thread's queue node for w->lock */
	int member;			/* index of the caller's slot in w->slots */
	struct sb_window_log *log;	/* fidelity mode, else NULL */
};

/* Fidelity mode: one member's events, preallocated, appended only by the
 * member (no shared write), merged after the run (sb_window_fidelity). */
struct sb_window_admit {
	sb_ticks t;			/* the caller's now */
	uint64_t pages;			/* admitted at t (consecutive calls at one t merge) */
};

struct sb_window_reset_ev {
	sb_ticks t;			/* the resetter's now */
	sb_ticks next;			/* the next_window it published */
	uint64_t harvested;		/* pages the count held when it was zeroed */
};

struct sb_window_log {
	struct sb_window_admit *admit;
	struct sb_window_reset_ev *reset;
	size_t nadmit, cap_admit, nreset, cap_reset;
	bool full;			/* an event was dropped: analyse only up to full_at */
	sb_ticks full_at;		/* now of the first dropped event */
};

static inline void sb_window_log_full(struct sb_window_log *l, sb_ticks t)
{
	if (!l->full) {
		l->full = true;
		l->full_at = t;
	}
}

static inline void sb_window_log_admit(struct sb_window_log *l, sb_ticks t, unsigned long pages)
{
	if (l->nadmit && l->admit[l->nadmit - 1].t == t)
		l->admit[l->nadmit - 1].pages += pages;
	else if (l->nadmit < l->cap_admit)
		l->admit[l->nadmit++] = (struct sb_window_admit){ t, pages };
	else
		sb_window_log_full(l, t);
}

/* Zero the count at a reset and return what it held: the pages the ending
 * window accounted.  Exact accounting swaps, so a concurrent fetch-add lands
 * in one window or the next and is never lost; racy accounting stores 0 as
 * the kernel does (`nr_pages = 0`), and what is added between the load and
 * the store is lost — and counted as lost.  Relaxed: the lock (or the
 * winning cmpxchg) orders the reset, as in the kernel. */
static inline unsigned long sb_window_zero(struct sb_window *w)
{
	unsigned long held;

	if (w->exact)
		return __atomic_exchange_n(&w->nr_pages, 0, __ATOMIC_RELAXED);
	held = sb_read_once(&w->nr_pages);
	sb_write_once(&w->nr_pages, 0);
	return held;
}

/* Every reset reports itself: the window it opened (next) and what the
 * window it closed had accounted.  Nothing shared is written. */
static inline void sb_window_reset_done(struct sb_window_stats *st, sb_ticks now, sb_ticks next,
					unsigned long harvested)
{
	st->resets++;
	st->harvested += harvested;
	if (st->log) {
		struct sb_window_log *l = st->log;

		if (l->nreset < l->cap_reset)
			l->reset[l->nreset++] = (struct sb_window_reset_ev){ now, next, harvested };
		else
			sb_window_log_full(l, now);
	}
}

/* The common tail of every kernel version: refuse once the window's budget is
 * spent, else account the pages (racy, as the kernel's unlocked `+=`). */
static inline bool sb_window_account(struct sb_window *w, unsigned long nr_pages,
				     struct sb_window_stats *st)
{
	if (sb_read_once(&w->nr_pages) > w->limit) {
		st->limited++;
		return true;
	}
	if (w->exact)
		__atomic_fetch_add(&w->nr_pages, nr_pages, __ATOMIC_RELAXED);
	else	/* the kernel's plain += : concurrent adds may be lost */
		sb_write_once(&w->nr_pages, sb_read_once(&w->nr_pages) + nr_pages);
	st->admitted += nr_pages;
	return false;
}

/* One member's view of the window benchmark (bench/drivers/window_bench.c). */
struct sb_window_loop {
	struct sb_window *w;
	unsigned long nr_pages;		/* pages per call */
	double ticks_per_cycle;		/* clock scale: cycles → ticks */
	/* workload model (loop_model/loop_logged only) */
	const sb_ticks *jiffies;	/* --clock=jiffies|calls: the jiffies word, else NULL */
	uint64_t migrate_iters;		/* sb_work() after each admitted call */
	uint64_t fault_iters;		/* sb_work() after every call */
	/* --clock=calls: jiffies points at a virtual jiffies word that only
	 * member 0 writes (vclock, NULL for the others): it adds 1 before its
	 * call whenever tick_calls of its calls have seen the current value;
	 * tick_left (calls until then) carries over from round to round. */
	sb_ticks *vclock;
	uint64_t tick_calls, tick_left;
	/* the update's own cost: the first call of every chunk is timed with
	 * sb_read_cycles() around update() alone (model loops only) */
	uint64_t upd_ticks, upd_samples;
	struct sb_window_stats st;	/* results */
};

struct sb_window_policy {
	const char *name;
	const char *summary;
	bool test_only;
	bool uses_lock;			/* takes --lock=NAME */
	bool stretches;
	bool exact;
	/* every call writes the shared window line (an unconditional RMW or
	 * store), so calls are serialised by line transfers and the handoff
	 * bound applies (bench/run/limits.h); false (the default, safe: the
	 * higher, scaling bound) when most calls only read it */
	bool shared_write;
	bool per_member;		/* needs w->slots (one line per member) */
	bool peeks_lock;		/* counts contention with the lock's is_locked() */
	/* optional: default starts the first window at now, nr_pages 0 */
	void (*init)(struct sb_window *w, sb_ticks now);
	bool (*update)(struct sb_window *w, sb_ticks now, unsigned long nr_pages,
		       struct sb_window_stats *st);
	/* optional, at quiescence: pages the current window has accounted
	 * (default w->nr_pages) */
	unsigned long (*count)(const struct sb_window *w);
	/* the timed loops: the default (coarse cycle clock, nothing else), the
	 * workload model (clock per call, --clock, --migrate-ns, --fault-ns),
	 * and the model with fidelity logging */
	uint64_t (*loop)(struct sb_window_loop *lp, const struct sb_round *r);
	uint64_t (*loop_model)(struct sb_window_loop *lp, const struct sb_round *r);
	uint64_t (*loop_logged)(struct sb_window_loop *lp, const struct sb_round *r);
};

/* Ops between clock reads and stop checks.  Like jiffies, `now` is coarse:
 * one counter read per chunk keeps the harness well under 1 ns/op. */
#define SB_WINDOW_CHUNK 32

static inline __attribute__((always_inline)) uint64_t
sb_window_loop_run(struct sb_window_loop *lp, const struct sb_round *r,
		   bool (*update)(struct sb_window *, sb_ticks, unsigned long,
				  struct sb_window_stats *))
{
	struct sb_window *w = lp->w;
	unsigned long n = lp->nr_pages;
	double scale = lp->ticks_per_cycle;
	uint64_t ops = 0;

	do {
		sb_ticks now = (sb_ticks)((double)sb_read_cycles() * scale);
		int i;

		for (i = 0; i < SB_WINDOW_CHUNK; i++) {
			update(w, now, n, &lp->st);
			sb_barrier();	/* one call per op, even for `null` */
		}
		ops += SB_WINDOW_CHUNK;
	} while (!sb_round_over(r, ops));
	return ops;
}

/* The workload model: `now` read on every call (the cycle clock, or the
 * ticker's or the calls clock's jiffies word with one relaxed load, as the
 * kernel reads jiffies), --migrate-ns of work after each admitted call (the
 * copy), --fault-ns after every call (the hinting fault); with `logged`,
 * each admitted call is appended to the member's own log (fidelity mode).
 * One call per chunk is timed apart (upd_ticks): two counter reads per 32
 * calls, a few ns per chunk against the model's hundreds of ns per call. */
static inline __attribute__((always_inline)) uint64_t
sb_window_loop_model_run(struct sb_window_loop *lp, const struct sb_round *r,
			 bool (*update)(struct sb_window *, sb_ticks, unsigned long,
					struct sb_window_stats *), const bool logged)
{
	struct sb_window *w = lp->w;
	const unsigned long n = lp->nr_pages;
	const double scale = lp->ticks_per_cycle;
	const sb_ticks *jiffies = lp->jiffies;
	const uint64_t migrate = lp->migrate_iters, fault = lp->fault_iters;
	sb_ticks *const vclock = lp->vclock;
	const uint64_t tick_calls = lp->tick_calls;
	uint64_t ops = 0, left = lp->tick_left, upd = 0, samples = 0;

	do {
		int i;

		for (i = 0; i < SB_WINDOW_CHUNK; i++) {
			sb_ticks now;
			bool limited;

			if (vclock) {
				if (left == 0) {
					/* relaxed: one writer (this member); readers
					 * take only the value, as they take jiffies */
					sb_write_once(vclock, sb_read_once(vclock) + 1);
					left = tick_calls;
				}
				left--;
			}
			/* relaxed: jiffies carries no data, only the time */
			now = jiffies ? sb_read_once(jiffies) :
			      (sb_ticks)((double)sb_read_cycles() * scale);
			if (i == 0) {
				uint64_t c0 = sb_read_cycles();

				limited = update(w, now, n, &lp->st);
				upd += sb_read_cycles() - c0;
				samples++;
			} else {
				limited = update(w, now, n, &lp->st);
			}
			if (!limited) {
				if (logged)
					sb_window_log_admit(lp->st.log, now, n);
				sb_work(migrate);
			}
			sb_work(fault);
		}
		ops += SB_WINDOW_CHUNK;
	} while (!sb_round_over(r, ops));
	lp->tick_left = left;
	lp->upd_ticks += upd;
	lp->upd_samples += samples;
	return ops;
}

/* flatten: GCC kept a policy's update() out of line when three loops call
 * it (a call per op that `null`, inlined, did not pay); flatten inlines it
 * into each loop, as this header promises.  Lock calls stay indirect. */
#define SB_WINDOW_POLICY(pname, ...)						\
	__attribute__((flatten)) static uint64_t pname##_window_loop(		\
		struct sb_window_loop *, const struct sb_round *);		\
	__attribute__((flatten)) static uint64_t pname##_window_model(		\
		struct sb_window_loop *, const struct sb_round *);		\
	__attribute__((flatten)) static uint64_t pname##_window_logged(	\
		struct sb_window_loop *, const struct sb_round *);		\
	static const struct sb_window_policy sb_window_##pname = {		\
		.name = #pname,							\
		.loop = pname##_window_loop,					\
		.loop_model = pname##_window_model,				\
		.loop_logged = pname##_window_logged,				\
		__VA_ARGS__							\
	};									\
	static uint64_t pname##_window_loop(struct sb_window_loop *lp,		\
					    const struct sb_round *r)		\
	{									\
		return sb_window_loop_run(lp, r, sb_window_##pname.update);	\
	}									\
	static uint64_t pname##_window_model(struct sb_window_loop *lp,		\
					     const struct sb_round *r)		\
	{									\
		return sb_window_loop_model_run(lp, r, sb_window_##pname.update, false); \
	}									\
	static uint64_t pname##_window_logged(struct sb_window_loop *lp,	\
					      const struct sb_round *r)		\
	{									\
		return sb_window_loop_model_run(lp, r, sb_window_##pname.update, true); \
	}									\
	SB_REGISTER(window, sb_window_##pname)

static inline const struct sb_window_policy *sb_window_find(const char *name)
{
	return (const struct sb_window_policy *)sb_registry_find(SB_FAMILY_window, name);
}

/* Set up w for policy p (lock may be NULL for lock-free policies): returns 0,
 * or -1 if the lock's init failed or slots cannot be allocated.  lock words
 * live inside w when they fit, else in lock_mem (lock_ops->state_size bytes,
 * caller-allocated); per_member policies get params->members slots. */
int sb_window_init(struct sb_window *w, const struct sb_window_policy *p,
		   const struct sb_lock_ops *lock, void *lock_mem,
		   const struct sb_window_params *params, sb_ticks now);
void sb_window_fini(struct sb_window *w);
/* At quiescence: pages the current window has accounted. */
unsigned long sb_window_count(const struct sb_window_policy *p, const struct sb_window *w);

/* Fidelity logs (window_log.c): allocate cap_admit/cap_reset events. */
int sb_window_log_init(struct sb_window_log *l, size_t cap_admit, size_t cap_reset);
void sb_window_log_free(struct sb_window_log *l);

/* What the merge reads: the n members' logs, the run's start t0 (when the
 * window was set up, next_window then next0), its end, and the window's
 * interval, all in the window's ticks. */
struct sb_window_run {
	struct sb_window_log *const *logs;
	int n;
	sb_ticks t0, next0, end, interval;
};

/* Merged over all members' logs; definitions in docs/window.md ("Fidelity mode").
 * Windows run from one reset to the next that is not a double reset (a
 * reset whose now is not after the next_window the previous one set); only
 * windows that both start and end at a logged reset, before any log filled
 * up, count; a window whose closing reset came a whole interval or more
 * after it expired is idle (no member called: descheduled, or between
 * rounds) and is counted apart, with the window after it (which starts
 * at that late reset).  Admitted pages go to the window in force
 * at the caller's now. */
struct sb_window_fidelity {
	uint64_t windows;		/* complete windows analysed */
	uint64_t idle_windows;		/* idle, or right after an idle one: left out */
	uint64_t double_resets;		/* resets of a window that had not expired */
	double admit_mean, admit_p99, admit_max;	/* pages admitted / limit */
	double stretch_mean, stretch_max;	/* window length / interval */
	uint64_t max_harvest;		/* largest count held at a reset */
	bool truncated;			/* a log filled: analysed up to cut */
	double cut_fraction;		/* analysed part of [t0, end] */
};
void sb_window_fidelity(const struct sb_window_run *r, unsigned long limit,
			struct sb_window_fidelity *out);

/* The same merge as a timeline (the raw picture of stretching): window 0
 * is the set-up's, [0, the first starting reset), and each starting reset
 * opens the next, which ends at the following one; only windows closed by
 * a logged reset before any log filled are listed (never the open last
 * one).  Times in ticks relative to t0; pages as in admit_ratio (by the
 * caller's now).  Fills the first min(max, total) windows of out in time
 * order and, unless member_pages is NULL, member_pages[k * n + i] with the
 * pages member i admitted in window k; *total = the complete windows in
 * all.  Returns how many it filled. */
struct sb_window_span {
	uint64_t start, end;		/* [start, end) */
	uint64_t pages;			/* admitted in it by all members */
	bool idle;			/* counted in idle_windows, not in the figures */
};
size_t sb_window_timeline(const struct sb_window_run *r, struct sb_window_span *out,
			  uint64_t *member_pages, size_t max, uint64_t *total);

#endif
