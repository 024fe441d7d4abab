/* ordering_locks.c — locks whose only bug is a memory order, for
 * test_lock_ordering.  Their mutual exclusion holds (every word change is an
 * atomic RMW), so the logic checks pass on every machine; what is missing is
 * the acquire or release that orders the critical section's plain data.
 * x86 and qemu-user on x86 are strongly ordered and never show it; POWER and
 * Arm corrupt data; TSan reports it as a race on the plain data.  test_only:
 * never listed, linked only into test_lock_ordering. */
#include <stratbench/lock.h>

/* A correct test-and-test-and-set, with the order of each step a parameter. */
static inline void tas_lock(int *word, int rmw_order)
{
	for (;;) {
		if (!__atomic_exchange_n(word, 1, rmw_order))
			return;
		/* relaxed: a spin look orders nothing, the exchange must */
		while (__atomic_load_n(word, __ATOMIC_RELAXED))
			sb_cpu_relax();
	}
}

static inline bool tas_trylock(int *word, int rmw_order)
{
	return !__atomic_load_n(word, __ATOMIC_RELAXED) && !__atomic_exchange_n(word, 1, rmw_order);
}

/* order_unlock: unlock is a relaxed store — the critical section's stores
 * may become visible after the next holder's acquire. */
static void ou_lock(void *l, void *node)
{
	(void)node;
	tas_lock(l, __ATOMIC_ACQUIRE);
}

static bool ou_trylock(void *l, void *node)
{
	(void)node;
	return tas_trylock(l, __ATOMIC_ACQUIRE);
}

static void ou_unlock(void *l, void *node)
{
	(void)node;
	__atomic_store_n((int *)l, 0, __ATOMIC_RELAXED);	/* the bug: not release */
}

SB_LOCK(order_unlock,
	.summary     = "BROKEN ORDER: relaxed unlock",
	.test_only   = true,
	.state_size  = sizeof(int),
	.state_align = sizeof(int),
	.lock        = ou_lock,
	.trylock     = ou_trylock,
	.unlock      = ou_unlock);

/* order_lock: lock's exchange is relaxed — the critical section's loads may
 * be satisfied before the lock is owned.  trylock and unlock are right. */
static void ol_lock(void *l, void *node)
{
	(void)node;
	tas_lock(l, __ATOMIC_RELAXED);	/* the bug: not acquire */
}

static bool ol_trylock(void *l, void *node)
{
	(void)node;
	return tas_trylock(l, __ATOMIC_ACQUIRE);
}

static void ol_unlock(void *l, void *node)
{
	(void)node;
	__atomic_store_n((int *)l, 0, __ATOMIC_RELEASE);
}

SB_LOCK(order_lock,
	.summary     = "BROKEN ORDER: relaxed acquire in lock()",
	.test_only   = true,
	.state_size  = sizeof(int),
	.state_align = sizeof(int),
	.lock        = ol_lock,
	.trylock     = ol_trylock,
	.unlock      = ol_unlock);

/* order_trylock: trylock's exchange is relaxed; lock and unlock are right. */
static bool ot_trylock(void *l, void *node)
{
	(void)node;
	return tas_trylock(l, __ATOMIC_RELAXED);	/* the bug: not acquire */
}

SB_LOCK(order_trylock,
	.summary     = "BROKEN ORDER: relaxed acquire in trylock()",
	.test_only   = true,
	.state_size  = sizeof(int),
	.state_align = sizeof(int),
	.lock        = ou_lock,
	.trylock     = ot_trylock,
	.unlock      = ol_unlock);
