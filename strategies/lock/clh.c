/* clh — Craig/Landin-Hagersten queue lock: the lock word is the queue tail;
 * a thread enqueues a node marked locked and spins on its predecessor's
 * node until the predecessor clears it.  FIFO; the queue is implicit.
 *
 * Node ownership: CLH nodes migrate.  On unlock a thread leaves its node to
 * its successor (who is still reading it) and takes its predecessor's node,
 * which nobody references any more.  With caller-owned nodes this works as:
 * the lock state holds one extra node (the initial dummy); each thread's node
 * slot holds its own qnode plus a pointer `mine` to the qnode it currently
 * owns (NULL: its own), and unlock sets mine = pred.  So the set of qnodes is
 * {dummy} + one per slot, each owned by exactly one slot or by the tail, but
 * a slot's own qnode may end up used by another thread, and the lock's dummy
 * by a slot.  Hence a stricter lifetime than lock.h's: every slot and the
 * lock state must stay allocated until the lock is finished with (fini), and
 * freed together; the harness and the tests do that.
 *
 * trylock enqueues only if the tail node looked released, with a cmpxchg on
 * the tail.  Between the check and the cmpxchg the tail node can be handed
 * on, recycled by its new owner and enqueued again (ABA); the cmpxchg then
 * succeeds although that node is locked.  We are queued by then and cannot
 * back out, so trylock waits for it as lock() would: it never succeeds while
 * the lock is held, and a failing trylock writes only the caller's own node,
 * but in that rare race it waits instead of failing. */
#include <stratbench/lock.h>

struct clh_qnode {
	int locked;			/* 1 while its owner holds or waits */
};

struct clh_lock {
	struct clh_qnode *tail;
	/* spun on by the first waiter, later by others: not on the tail's line */
	SB_CACHE_ALIGNED struct clh_qnode dummy;
};

struct clh_slot {
	struct clh_qnode *mine;		/* the qnode we own; NULL: &own */
	struct clh_qnode *pred;		/* predecessor, while we hold the lock */
	/* spun on by our successor: keep it off the line we write */
	SB_CACHE_ALIGNED struct clh_qnode own;
};

static int clh_init(void *l)
{
	struct clh_lock *c = l;

	/* relaxed: the lock is published to other threads after init */
	__atomic_store_n(&c->dummy.locked, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&c->tail, &c->dummy, __ATOMIC_RELAXED);
	return 0;
}

static inline struct clh_qnode *clh_mine(struct clh_slot *s)
{
	return s->mine ? s->mine : &s->own;
}

static inline void clh_wait(struct clh_slot *s, struct clh_qnode *pred)
{
	/* acquire: pairs with the predecessor's release in clh_unlock() */
	while (__atomic_load_n(&pred->locked, __ATOMIC_ACQUIRE))
		sb_cpu_relax();
	s->pred = pred;			/* ours to take at unlock */
}

/* always_inline: the timed loop (SB_LOCK) is to inline lock(), but GCC left
 * this one out of line (a call per acquisition; at 1 thread 0.8x
 * lockhammer's CPU ns per lock, inlined 1.25x: docs/precision-sources.md) */
static inline __attribute__((always_inline)) void clh_lock(void *l, void *node)
{
	struct clh_lock *c = l;
	struct clh_slot *s = node;
	struct clh_qnode *q = clh_mine(s);

	/* relaxed: published by the release half of the exchange */
	__atomic_store_n(&q->locked, 1, __ATOMIC_RELAXED);
	/* release: a successor finding q sees it locked; acquire: pred's state */
	clh_wait(s, __atomic_exchange_n(&c->tail, q, __ATOMIC_ACQ_REL));
}

static inline __attribute__((always_inline)) bool clh_trylock(void *l, void *node)
{
	struct clh_lock *c = l;
	struct clh_slot *s = node;
	struct clh_qnode *q = clh_mine(s), *t, *expect;

	/* acquire: t's locked flag is read after t was published */
	t = __atomic_load_n(&c->tail, __ATOMIC_ACQUIRE);
	if (__atomic_load_n(&t->locked, __ATOMIC_RELAXED))
		return false;
	/* our own qnode, invisible to others unless the cmpxchg wins */
	__atomic_store_n(&q->locked, 1, __ATOMIC_RELAXED);
	expect = t;
	/* acq_rel as the exchange in clh_lock() */
	if (!__atomic_compare_exchange_n(&c->tail, &expect, q, false,
					 __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
		return false;
	clh_wait(s, t);			/* returns at once unless t was recycled (ABA) */
	return true;
}

static void clh_unlock(void *l, void *node)
{
	struct clh_slot *s = node;
	struct clh_qnode *q = clh_mine(s);

	(void)l;
	s->mine = s->pred;		/* nobody references pred's qnode any more */
	/* release: the critical section is visible before the successor proceeds */
	__atomic_store_n(&q->locked, 0, __ATOMIC_RELEASE);
}

static bool clh_is_locked(const void *l)
{
	const struct clh_lock *c = l;
	/* the tail's node is locked while its owner holds or waits; nodes
	 * outlive the lock's use, so the read is safe if racy */
	/* acquire: see the tail node's init, as clh_trylock() does */
	const struct clh_qnode *tail = __atomic_load_n(&c->tail, __ATOMIC_ACQUIRE);

	return __atomic_load_n(&tail->locked, __ATOMIC_RELAXED) != 0;
}

SB_LOCK(clh,
	.summary     = "CLH queue lock: spin on the predecessor's node (FIFO)",
	.fair        = true,
	.sleeps      = false,
	.state_size  = sizeof(struct clh_lock),
	.state_align = _Alignof(struct clh_lock),
	.node_size   = sizeof(struct clh_slot),
	.init        = clh_init,
	.lock        = clh_lock,
	.trylock     = clh_trylock,
	.unlock      = clh_unlock,
	.is_locked   = clh_is_locked);
