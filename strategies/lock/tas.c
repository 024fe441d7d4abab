/* tas — test-and-set: spin on the atomic exchange itself.  Every attempt
 * writes the line, so waiters keep pulling it away from the holder: the
 * baseline that ttas and the queued locks improve on. */
#include <stratbench/lock.h>

static void tas_lock(void *l, void *node)
{
	int *word = l;

	(void)node;
	/* acquire: the critical section cannot start before we own the word */
	while (__atomic_exchange_n(word, 1, __ATOMIC_ACQUIRE))
		sb_cpu_relax();
}

static bool tas_trylock(void *l, void *node)
{
	(void)node;
	/* one exchange: storing 1 over 1 changes nothing another CPU can read */
	return !__atomic_exchange_n((int *)l, 1, __ATOMIC_ACQUIRE);
}

static void tas_unlock(void *l, void *node)
{
	(void)node;
	/* release: the critical section's stores are visible before the word clears */
	__atomic_store_n((int *)l, 0, __ATOMIC_RELEASE);
}

static bool tas_is_locked(const void *l)
{
	return __atomic_load_n((const int *)l, __ATOMIC_RELAXED) != 0;
}

SB_LOCK(tas,
	.summary     = "test-and-set: spin on the atomic exchange",
	.fair        = false,
	.sleeps      = false,
	.state_size  = sizeof(int),
	.state_align = sizeof(int),
	.lock        = tas_lock,
	.trylock     = tas_trylock,
	.unlock      = tas_unlock,
	.is_locked   = tas_is_locked);
