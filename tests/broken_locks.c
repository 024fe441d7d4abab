/* broken_locks.c — deliberately wrong locks the conformance test must catch.
 * test_only: hidden from listings and sweeps, and linked only into
 * test_lock_conformance.  Their words are atomics (relaxed or acquire/
 * release) so the bugs are logic bugs, not data races TSan would flag. */
#include <stratbench/lock.h>

static void racy_gap(void);

/* broken_nowait: lock() never waits, it just marks the word (and dawdles,
 * so two holders overlap on every run, not by luck). */
static void nowait_lock(void *l, void *node)
{
	(void)node;
	__atomic_store_n((int *)l, 1, __ATOMIC_RELAXED);
	racy_gap();
}

static bool nowait_trylock(void *l, void *node)
{
	nowait_lock(l, node);
	return true;
}

static void nowait_unlock(void *l, void *node)
{
	(void)node;
	__atomic_store_n((int *)l, 0, __ATOMIC_RELEASE);
}

SB_LOCK(broken_nowait,
	.summary     = "BROKEN: lock() never waits",
	.test_only   = true,
	.state_size  = sizeof(int),
	.state_align = sizeof(int),
	.lock        = nowait_lock,
	.trylock     = nowait_trylock,
	.unlock      = nowait_unlock);

/* broken_racy: test, then set with a plain store instead of an atomic RMW:
 * two waiters that both see the word clear both enter.  The gap between
 * test and set is widened (a few spin hints) so the conformance test sees
 * the bug on every run, under sanitizers and qemu too, not by luck. */
static void racy_gap(void)
{
	for (int i = 0; i < 64; i++)
		sb_cpu_relax();
}

static void racy_lock(void *l, void *node)
{
	int *word = l;

	(void)node;
	while (__atomic_load_n(word, __ATOMIC_ACQUIRE))
		sb_cpu_relax();
	racy_gap();
	__atomic_store_n(word, 1, __ATOMIC_RELAXED);	/* the bug: not atomic with the load */
}

static bool racy_trylock(void *l, void *node)
{
	int *word = l;

	(void)node;
	if (__atomic_load_n(word, __ATOMIC_ACQUIRE))
		return false;
	racy_gap();
	__atomic_store_n(word, 1, __ATOMIC_RELAXED);
	return true;
}

static void racy_unlock(void *l, void *node)
{
	(void)node;
	__atomic_store_n((int *)l, 0, __ATOMIC_RELEASE);
}

SB_LOCK(broken_racy,
	.summary     = "BROKEN: load-then-store test-and-set",
	.test_only   = true,
	.state_size  = sizeof(int),
	.state_align = sizeof(int),
	.lock        = racy_lock,
	.trylock     = racy_trylock,
	.unlock      = racy_unlock);
