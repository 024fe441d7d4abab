/* ttas — test-and-test-and-set: spin reading the word (shared line, no
 * traffic) and try the atomic exchange only when it looks free. */
#include <stratbench/lock.h>

static void ttas_lock(void *l, void *node)
{
	int *word = l;

	(void)node;
	for (;;) {
		/* acquire: the critical section cannot start before we own the word */
		if (!__atomic_exchange_n(word, 1, __ATOMIC_ACQUIRE))
			return;
		while (__atomic_load_n(word, __ATOMIC_RELAXED))
			sb_cpu_relax();
	}
}

static bool ttas_trylock(void *l, void *node)
{
	int *word = l;

	(void)node;
	/* relaxed pre-check: a failing trylock must not write the line */
	return !__atomic_load_n(word, __ATOMIC_RELAXED) &&
	       !__atomic_exchange_n(word, 1, __ATOMIC_ACQUIRE);
}

static void ttas_unlock(void *l, void *node)
{
	(void)node;
	/* release: the critical section's stores are visible before the word clears */
	__atomic_store_n((int *)l, 0, __ATOMIC_RELEASE);
}

static bool ttas_is_locked(const void *l)
{
	return __atomic_load_n((const int *)l, __ATOMIC_RELAXED) != 0;
}

SB_LOCK(ttas,
	.summary     = "test-and-test-and-set with cpu_relax()",
	.fair        = false,
	.sleeps      = false,
	.state_size  = sizeof(int),
	.state_align = sizeof(int),
	.lock        = ttas_lock,
	.trylock     = ttas_trylock,
	.unlock      = ttas_unlock,
	.is_locked   = ttas_is_locked);
