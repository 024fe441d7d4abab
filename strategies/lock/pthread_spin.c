/* pthread_spin — glibc's pthread_spinlock_t, the user-space spin lock most
 * programs would reach for (an exchange/cmpxchg loop with a read-only spin;
 * glibc's own memory orders: acquire on lock, release on unlock). */
#include <pthread.h>

#include <stratbench/lock.h>

static int pthread_spin_init_lock(void *l)
{
	return pthread_spin_init(l, PTHREAD_PROCESS_PRIVATE);
}

static void pthread_spin_fini_lock(void *l)
{
	pthread_spin_destroy(l);
}

static void pthread_spin_lock_lock(void *l, void *node)
{
	(void)node;
	pthread_spin_lock(l);
}

static bool pthread_spin_trylock_lock(void *l, void *node)
{
	(void)node;
	return pthread_spin_trylock(l) == 0;
}

static void pthread_spin_unlock_lock(void *l, void *node)
{
	(void)node;
	pthread_spin_unlock(l);
}

/* glibc's spinlock is an int whose free value is per arch (1 on x86-64,
 * where lock is `lock decl`; 0 elsewhere): compare with a fresh one. */
static bool pthread_spin_is_locked(const void *l)
{
	pthread_spinlock_t fresh;

	pthread_spin_init(&fresh, PTHREAD_PROCESS_PRIVATE);
	return __atomic_load_n((const int *)l, __ATOMIC_RELAXED) != *(volatile int *)&fresh;
}

SB_LOCK(pthread_spin,
	.summary     = "glibc pthread_spinlock_t",
	.fair        = false,
	.sleeps      = false,
	.state_size  = sizeof(pthread_spinlock_t),
	.state_align = _Alignof(pthread_spinlock_t),
	.init        = pthread_spin_init_lock,
	.fini        = pthread_spin_fini_lock,
	.lock        = pthread_spin_lock_lock,
	.trylock     = pthread_spin_trylock_lock,
	.unlock      = pthread_spin_unlock_lock,
	.is_locked   = pthread_spin_is_locked);
