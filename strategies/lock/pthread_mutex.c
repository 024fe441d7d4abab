/* pthread_mutex — glibc's default pthread_mutex_t: a futex lock that spins
 * not at all and sleeps in the kernel when contended; the sleeping
 * counterpart to the spin locks (the kernel side would be a mutex, not a
 * spinlock).  Not FIFO: a running thread can take it before a woken one. */
#include <pthread.h>

#include <stratbench/lock.h>

static int pthread_mutex_init_lock(void *l)
{
	return pthread_mutex_init(l, NULL);
}

static void pthread_mutex_fini_lock(void *l)
{
	pthread_mutex_destroy(l);
}

static void pthread_mutex_lock_lock(void *l, void *node)
{
	(void)node;
	pthread_mutex_lock(l);
}

static bool pthread_mutex_trylock_lock(void *l, void *node)
{
	(void)node;
	return pthread_mutex_trylock(l) == 0;
}

static void pthread_mutex_unlock_lock(void *l, void *node)
{
	(void)node;
	pthread_mutex_unlock(l);
}

SB_LOCK(pthread_mutex,
	.summary     = "glibc pthread_mutex_t, default type (futex; sleeps)",
	.fair        = false,
	.sleeps      = true,
	.state_size  = sizeof(pthread_mutex_t),
	.state_align = _Alignof(pthread_mutex_t),
	.init        = pthread_mutex_init_lock,
	.fini        = pthread_mutex_fini_lock,
	.lock        = pthread_mutex_lock_lock,
	.trylock     = pthread_mutex_trylock_lock,
	.unlock      = pthread_mutex_unlock_lock);
