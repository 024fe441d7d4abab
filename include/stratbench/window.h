/* window.h — the window-update (rate-limit) contract (DESIGN.md §4).
 *
 * Model: numamigrate_update_ratelimit(pgdat, nr_pages).  One shared window
 * per node: next_window, nr_pages, and a lock for policies that use one.
 * update(w, now, nr_pages, st) returns true when the caller is rate-limited
 * (must not migrate), else accounts nr_pages and returns false.  The harness
 * owns the clock: `now` is passed in (a scripted clock in tests, a coarse
 * cycle clock in benchmarks), in ticks; interval is in the same ticks.
 * Policies write only `w` and their own `st` (never shared).  Declared:
 * `stretches` — a reset sets next_window = now + interval (the window
 * restarts at the resetting call) rather than keeping its phase; `exact` —
 * page accounting never loses updates (else it is racy like the kernel's
 * plain `+=`, modelled with relaxed load + store).
 * One file per policy under strategies/window/, registered with
 * SB_WINDOW_POLICY(name, ...), which emits the policy's timed loop in its own
 * translation unit so update() inlines there.
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
};

struct sb_window {
	/* read-only after init */
	sb_ticks interval;
	unsigned long limit;
	bool exact;
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
	void *lock_node;		/* the thread's queue node for w->lock */
};

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

/* One member's view of the window benchmark (bench/window_bench.c). */
struct sb_window_loop {
	struct sb_window *w;
	unsigned long nr_pages;		/* pages per call */
	double ticks_per_cycle;		/* clock scale: cycles → ticks */
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
	/* optional: default starts the first window at now, nr_pages 0 */
	void (*init)(struct sb_window *w, sb_ticks now);
	bool (*update)(struct sb_window *w, sb_ticks now, unsigned long nr_pages,
		       struct sb_window_stats *st);
	uint64_t (*loop)(struct sb_window_loop *lp, const struct sb_round *r);
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

#define SB_WINDOW_POLICY(pname, ...)						\
	static uint64_t pname##_window_loop(struct sb_window_loop *,		\
					    const struct sb_round *);		\
	static const struct sb_window_policy sb_window_##pname = {		\
		.name = #pname,							\
		.loop = pname##_window_loop,					\
		__VA_ARGS__							\
	};									\
	static uint64_t pname##_window_loop(struct sb_window_loop *lp,		\
					    const struct sb_round *r)		\
	{									\
		return sb_window_loop_run(lp, r, sb_window_##pname.update);	\
	}									\
	SB_REGISTER(window, sb_window_##pname)

static inline const struct sb_window_policy *sb_window_find(const char *name)
{
	return (const struct sb_window_policy *)sb_registry_find(SB_FAMILY_window, name);
}

/* Set up w for policy p (lock may be NULL for lock-free policies): returns 0,
 * or -1 if the lock's init failed.  lock words live inside w when they fit,
 * else in lock_mem (lock_ops->state_size bytes, caller-allocated). */
int sb_window_init(struct sb_window *w, const struct sb_window_policy *p,
		   const struct sb_lock_ops *lock, void *lock_mem,
		   const struct sb_window_params *params, sb_ticks now);
void sb_window_fini(struct sb_window *w);

#endif
