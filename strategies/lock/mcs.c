/* mcs — Mellor-Crummey/Scott queue lock, as kernel/locking/mcs_spinlock.h:
 * the lock word is the queue tail; each waiter spins on its own node (the
 * caller's per-thread node), and unlock hands the lock to the next node.
 * FIFO; one line of traffic per hand-over. */
#include <stratbench/lock.h>

struct mcs_node {
	struct mcs_node *next;
	int locked;			/* set by the predecessor on hand-over */
};

struct mcs_lock {
	struct mcs_node *tail;
};

static void mcs_lock(void *l, void *node)
{
	struct mcs_lock *m = l;
	struct mcs_node *me = node, *prev;

	/* relaxed: published by the release half of the exchange below */
	__atomic_store_n(&me->locked, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&me->next, NULL, __ATOMIC_RELAXED);
	/*
	 * release: our node's init precedes a successor's write to me->next;
	 * acquire: an empty queue means the last holder's release is ours.
	 */
	prev = __atomic_exchange_n(&m->tail, me, __ATOMIC_ACQ_REL);
	if (!prev)
		return;
	/* release: me->locked = 0 lands before prev's owner can set it to 1 */
	__atomic_store_n(&prev->next, me, __ATOMIC_RELEASE);
	/* acquire: pairs with the predecessor's hand-over */
	while (!__atomic_load_n(&me->locked, __ATOMIC_ACQUIRE))
		sb_cpu_relax();
}

static bool mcs_trylock(void *l, void *node)
{
	struct mcs_lock *m = l;
	struct mcs_node *me = node, *expect = NULL;

	/* relaxed pre-check: a failing trylock must not write the line */
	if (__atomic_load_n(&m->tail, __ATOMIC_RELAXED))
		return false;
	/* our own node: nobody else sees these stores unless the cmpxchg wins */
	__atomic_store_n(&me->locked, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&me->next, NULL, __ATOMIC_RELAXED);
	/* NULL -> me only; acq_rel as the exchange in mcs_lock() */
	return __atomic_compare_exchange_n(&m->tail, &expect, me, false,
					   __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
}

static void mcs_unlock(void *l, void *node)
{
	struct mcs_lock *m = l;
	struct mcs_node *me = node, *next, *expect = me;

	/* acquire: the successor's node init is visible before we write it */
	next = __atomic_load_n(&me->next, __ATOMIC_ACQUIRE);
	if (!next) {
		/* release: no successor, the critical section precedes the empty queue */
		if (__atomic_compare_exchange_n(&m->tail, &expect, NULL, false,
						__ATOMIC_RELEASE, __ATOMIC_RELAXED))
			return;
		/* a successor swapped the tail but has not linked itself yet */
		while (!(next = __atomic_load_n(&me->next, __ATOMIC_ACQUIRE)))
			sb_cpu_relax();
	}
	/* release: hand the lock and the critical section to the successor */
	__atomic_store_n(&next->locked, 1, __ATOMIC_RELEASE);
}

static bool mcs_is_locked(const void *l)
{
	const struct mcs_lock *m = l;

	return __atomic_load_n(&m->tail, __ATOMIC_RELAXED) != NULL;
}

SB_LOCK(mcs,
	.summary     = "MCS queue lock: spin on a per-thread node (FIFO)",
	.fair        = true,
	.sleeps      = false,
	.state_size  = sizeof(struct mcs_lock),
	.state_align = _Alignof(struct mcs_lock),
	.node_size   = sizeof(struct mcs_node),
	.lock        = mcs_lock,
	.trylock     = mcs_trylock,
	.unlock      = mcs_unlock,
	.is_locked   = mcs_is_locked);
