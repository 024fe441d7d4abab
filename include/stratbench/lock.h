/* lock.h — the lock contract (DESIGN.md §3).
 *
 * A lock is a descriptor of functions over caller-allocated lock words
 * (state_size bytes, state_align aligned, zeroed before init) and an optional
 * per-thread queue node (node_size bytes, SB_CACHELINE aligned, zeroed, owned
 * by the calling thread for as long as it may hold or wait for the lock;
 * every node stays allocated until the lock's fini, because CLH-style locks
 * hand nodes from thread to thread).
 * lock() returns with the lock held and acquire ordering; trylock() returns
 * true with the lock held (acquire) or false without side effects visible to
 * others, and does not wait for a holder (clh may, in a rare race its file
 * documents); unlock() releases with release ordering; the optional
 * is_locked() is a relaxed look, as the kernel's spin_is_locked().  `fair` promises FIFO
 * service, `sleeps` that waiters may block in the kernel.  One file per lock
 * under strategies/lock/, registered with SB_LOCK(name, ...), which also
 * emits the lock benchmark's timed loop in the lock's own translation unit
 * so lock/unlock inline into it.
 */
#ifndef STRATBENCH_LOCK_H
#define STRATBENCH_LOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <stratbench/arch.h>
#include <stratbench/registry.h>
#include <stratbench/team.h>
#include <stratbench/work.h>

/* Log-linear histogram of cycle counts: 4 buckets per power of two (within
 * 12 % of the value), cheap enough to update on the sampled path. */
#define SB_WAIT_BUCKETS 256

static inline unsigned sb_wait_bucket(uint64_t c)
{
	unsigned lg;

	if (c < 4)
		return (unsigned)c;
	lg = 63 - (unsigned)__builtin_clzll(c);
	return (lg - 1) * 4 + (unsigned)((c >> (lg - 2)) & 3);
}

/* Midpoint of bucket b, in cycles. */
static inline double sb_wait_bucket_mid(unsigned b)
{
	unsigned lg = b / 4 + 1;

	if (b < 4)
		return b;
	return (double)((4ull + b % 4) << (lg - 2)) + (double)(1ull << (lg - 2)) / 2;
}

/* One member's view of the lock benchmark (drivers/lock_bench.c fills it). */
struct sb_lock_loop {
	void *lock;
	void *node;
	uint64_t crit_iters;		/* calibrated sb_work() inside the lock */
	uint64_t par_iters;		/* ... and outside it */
	unsigned crit_lines;		/* shared cache lines written inside */
	uint64_t *crit_data;		/* crit_lines * SB_CACHELINE bytes */
	bool use_trylock;		/* acquire by spinning on trylock */
	unsigned sample_shift;		/* time one acquisition in 2^shift ... */
	unsigned sample_phase;		/* ... the one at this offset, in [1, 2^shift):
					 * never the first op after the start barrier */
	/* results, per member */
	uint64_t try_attempts;
	uint64_t try_fails;
	uint64_t max_wait_cycles;	/* longest sampled acquisition */
	uint32_t wait_hist[SB_WAIT_BUCKETS];	/* sampled acquisitions, sb_wait_bucket() */
};

struct sb_lock_ops {
	const char *name;
	const char *summary;
	bool test_only;			/* broken fixtures for the conformance tests */
	bool fair;			/* FIFO service */
	bool sleeps;			/* waiters may block in the kernel */
	size_t state_size, state_align;
	size_t node_size;		/* 0: no per-thread node */
	int (*init)(void *lock);	/* optional; 0 on success */
	void (*fini)(void *lock);	/* optional */
	void (*lock)(void *lock, void *node);
	bool (*trylock)(void *lock, void *node);
	void (*unlock)(void *lock, void *node);
	/* optional, as the kernel's spin_is_locked(): one relaxed look at the
	 * words, true if held or waited for; no write, no ordering */
	bool (*is_locked)(const void *lock);
	uint64_t (*loop)(struct sb_lock_loop *lp, const struct sb_round *r);
};

/* A lock instance as another strategy holds it. */
struct sb_lock {
	const struct sb_lock_ops *ops;
	void *state;
};

static inline void sb_lock_lock(const struct sb_lock *l, void *node)
{
	l->ops->lock(l->state, node);
}

static inline bool sb_lock_trylock(const struct sb_lock *l, void *node)
{
	return l->ops->trylock(l->state, node);
}

static inline void sb_lock_unlock(const struct sb_lock *l, void *node)
{
	l->ops->unlock(l->state, node);
}

/* 1 held, 0 free, -1 this lock cannot tell (no is_locked). */
static inline int sb_lock_is_locked(const struct sb_lock *l)
{
	return l->ops->is_locked ? l->ops->is_locked(l->state) : -1;
}

static inline const struct sb_lock_ops *sb_lock_find(const char *name)
{
	return (const struct sb_lock_ops *)sb_registry_find(SB_FAMILY_lock, name);
}

/* The timed loop, expanded once per lock with its own functions inlined. */
static inline __attribute__((always_inline)) uint64_t
sb_lock_loop_run(struct sb_lock_loop *lp, const struct sb_round *r,
		 void (*lock)(void *, void *), bool (*trylock)(void *, void *),
		 void (*unlock)(void *, void *))
{
	/* parameters in registers: lock()/unlock() are compiler barriers, so
	 * fields read through lp would be reloaded on every op */
	void *l = lp->lock, *node = lp->node;
	const uint64_t mask = (1ull << lp->sample_shift) - 1, phase = lp->sample_phase;
	const uint64_t crit_iters = lp->crit_iters, par_iters = lp->par_iters;
	const unsigned crit_lines = lp->crit_lines;
	uint64_t *const crit_data = lp->crit_data;
	const bool use_trylock = lp->use_trylock;
	/* the round's quota and stop flag too (sb_round_over() would reload
	 * them through r after every lock/unlock) */
	const uint64_t quota = r->quota;
	int *const stop = r->stop;
	uint64_t ops = 0, attempts = 0, fails = 0;

	do {
		uint64_t t0 = 0;
		bool sample = (ops & mask) == phase;
		unsigned i;

		if (sample)
			t0 = sb_read_cycles();
		if (use_trylock) {
			attempts++;
			while (!trylock(l, node)) {
				fails++;
				attempts++;
				sb_cpu_relax();
			}
		} else {
			lock(l, node);
		}
		if (sample) {
			uint64_t w = sb_read_cycles() - t0;

			if (w > lp->max_wait_cycles)
				lp->max_wait_cycles = w;
			lp->wait_hist[sb_wait_bucket(w)]++;
		}
		/* relaxed: the lock orders these; atomics keep TSan quiet if it fails */
		for (i = 0; i < crit_lines; i++) {
			uint64_t *p = &crit_data[(size_t)i * (SB_CACHELINE / 8)];

			__atomic_store_n(p, __atomic_load_n(p, __ATOMIC_RELAXED) + 1, __ATOMIC_RELAXED);
		}
		sb_work(crit_iters);
		unlock(l, node);
		sb_work(par_iters);
		ops++;
		if (ops >= quota) {
			/* relaxed: stop carries no data, as in sb_round_over() */
			__atomic_store_n(stop, 1, __ATOMIC_RELAXED);
			break;
		}
	} while (!__atomic_load_n(stop, __ATOMIC_RELAXED));
	lp->try_attempts += attempts;
	lp->try_fails += fails;
	return ops;
}

#define SB_LOCK(lname, ...)							\
	static uint64_t lname##_bench_loop(struct sb_lock_loop *, const struct sb_round *); \
	static const struct sb_lock_ops sb_lock_##lname = {			\
		.name = #lname,							\
		.loop = lname##_bench_loop,					\
		__VA_ARGS__							\
	};									\
	static uint64_t lname##_bench_loop(struct sb_lock_loop *lp, const struct sb_round *r) \
	{									\
		return sb_lock_loop_run(lp, r, sb_lock_##lname.lock,		\
					sb_lock_##lname.trylock, sb_lock_##lname.unlock); \
	}									\
	SB_REGISTER(lock, sb_lock_##lname)

#endif
