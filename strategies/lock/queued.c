/* queued — the kernel's qspinlock (kernel/locking/qspinlock.c, generic
 * parts, no paravirt): one word holding a locked byte, a pending bit and an
 * MCS queue tail.  Uncontended lock is one cmpxchg 0 -> locked; the first
 * waiter sets pending and spins on the word; later waiters queue MCS-style
 * on their own node, and the queue head spins on the word for owner and
 * pending to go away.  FIFO for lock() (trylock barges only when the word is
 * entirely clear, as the kernel's).
 *
 * Simplifications, because nodes are caller-owned pointers, not per-CPU
 * arrays:
 *  - The word is 64-bit, not 32: the tail is the node's address >> 6 (nodes
 *    are at least 64-byte aligned) in bits 16..63 instead of (cpu + 1,
 *    nesting idx) in 16 bits; the layout of the low half is the kernel's.
 *    Addresses must be below 2^54 (all 64-bit Linux user space is).
 *  - One node per caller per lock, so no nesting index (the kernel's four
 *    per-CPU nodes are for task/softirq/hardirq/NMI nesting).
 *  - Sub-word stores are the kernel's for _Q_PENDING_BITS == 8 (x86 with
 *    NR_CPUS < 16K): unlock is a store-release of 0 to the locked byte
 *    (queued_spin_unlock()), set_locked a byte store, clear_pending a byte
 *    store to the pending byte (bits 8-15, of which only bit 8 is used),
 *    clear_pending_set_locked a 16-bit store to locked_pending; they sit
 *    beside RMWs of the whole word by waiters, which the hardware keeps
 *    atomic as the kernel relies on.  xchg_tail stays the cmpxchg loop (the
 *    kernel's 16-bit xchg of the tail has no counterpart for a 48-bit tail;
 *    the kernel's own loop for NR_CPUS >= 16K, _Q_PENDING_BITS == 1),
 *    seeded with the word the queue path's trylock read (docs/lock.md).
 *  - _Q_PENDING_LOOPS is the generic 1 (x86 uses 512). */
#include <stdlib.h>

#include <stratbench/lock.h>

#define Q_LOCKED_VAL		1ull		/* bits 0-7: the locked byte */
#define Q_LOCKED_MASK		0xffull
#define Q_PENDING_VAL		(1ull << 8)	/* bit 8: pending */
#define Q_LOCKED_PENDING_MASK	(Q_LOCKED_MASK | Q_PENDING_VAL)
#define Q_TAIL_SHIFT		16		/* bits 16..63: node address >> 6 */
#define Q_TAIL_MASK		(~0ull << Q_TAIL_SHIFT)
#define Q_NODE_SHIFT		6
#define Q_PENDING_LOOPS		1
/* byte offsets in the word of the locked byte (bits 0-7), the pending byte
 * (bits 8-15) and the locked_pending half-word (bits 0-15) */
#define Q_LE			(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
#define Q_LOCKED_BYTE		(Q_LE ? 0 : 7)
#define Q_PENDING_BYTE		(Q_LE ? 1 : 6)
#define Q_LOCKED_PENDING_HALF	(Q_LE ? 0 : 6)

static inline uint8_t *q_locked(uint64_t *lock) { return (uint8_t *)lock + Q_LOCKED_BYTE; }
static inline uint8_t *q_pending(uint64_t *lock) { return (uint8_t *)lock + Q_PENDING_BYTE; }
static inline uint16_t *q_locked_pending(uint64_t *lock)
{
	return (uint16_t *)((uint8_t *)lock + Q_LOCKED_PENDING_HALF);
}

struct qnode {
	struct qnode *next;
	int locked;			/* set by the predecessor: we are the queue head */
};

static inline uint64_t encode_tail(struct qnode *node)
{
	return (uint64_t)(uintptr_t)node >> Q_NODE_SHIFT << Q_TAIL_SHIFT;
}

static inline struct qnode *decode_tail(uint64_t val)
{
	return (struct qnode *)(uintptr_t)((val & Q_TAIL_MASK) >> Q_TAIL_SHIFT << Q_NODE_SHIFT);
}

static bool queued_trylock(void *l, void *node)
{
	uint64_t *lock = l, val = __atomic_load_n(lock, __ATOMIC_RELAXED);

	(void)node;
	if (val)			/* a failing trylock does not write the line */
		return false;
	/* acquire: pairs with the last holder's release */
	return __atomic_compare_exchange_n(lock, &val, Q_LOCKED_VAL, false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

/*
 * Publish our tail, keeping locked and pending: p,*,* -> n,*,*.  `val` is
 * the word the caller's trylock just read: no second load (a second miss
 * when the owner wrote the line in between); a stale `val` costs one
 * failed swap, which returns the word and leaves the line held exclusive
 * for the retry.
 */
static inline uint64_t xchg_tail(uint64_t *lock, uint64_t tail, uint64_t val)
{
	/*
	 * release (the kernel's smp_wmb): our node's init precedes the tail
	 * that publishes it; acquire: the previous tail's init precedes our
	 * write to its next.
	 */
	while (!__atomic_compare_exchange_n(lock, &val, (val & Q_LOCKED_PENDING_MASK) | tail,
					    true, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
		;
	return val;
}

static __attribute__((noinline)) void queued_lock_slowpath(uint64_t *lock, struct qnode *node,
							    uint64_t val)
{
	struct qnode *prev, *next;
	uint64_t tail;

	/* a pending -> locked hand-over in progress (0,1,0 -> 0,0,1): wait a little */
	if (val == Q_PENDING_VAL) {
		int cnt = Q_PENDING_LOOPS;

		for (;;) {
			val = __atomic_load_n(lock, __ATOMIC_RELAXED);
			if (val != Q_PENDING_VAL || !cnt--)
				break;
			sb_cpu_relax();
		}
	}
	/* any contention beyond the owner: queue */
	if (val & ~Q_LOCKED_MASK)
		goto queue;

	/* trylock || pending: 0,0,* -> 0,1,*; acquire as a lock attempt */
	val = __atomic_fetch_or(lock, Q_PENDING_VAL, __ATOMIC_ACQUIRE);
	if (val & ~Q_LOCKED_MASK) {
		/* a concurrent locker: undo pending if we set it, and queue */
		if (!(val & Q_PENDING_VAL))
			__atomic_store_n(q_pending(lock), 0, __ATOMIC_RELAXED);	/* clear_pending */
		goto queue;
	}
	/* we are pending: wait for the owner (0,1,1 -> 0,1,0); acquire pairs with unlock */
	if (val & Q_LOCKED_MASK)
		while (__atomic_load_n(lock, __ATOMIC_ACQUIRE) & Q_LOCKED_MASK)
			sb_cpu_relax();
	/* take it and clear pending: 0,1,0 -> 0,0,1; relaxed: acquired above */
	__atomic_store_n(q_locked_pending(lock), (uint16_t)Q_LOCKED_VAL, __ATOMIC_RELAXED);
	return;

queue:
	tail = encode_tail(node);
	if (decode_tail(tail) != node)
		abort();		/* node misaligned or above 2^54: lock.h contract broken */
	/* relaxed: published by xchg_tail()'s release */
	__atomic_store_n(&node->locked, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&node->next, NULL, __ATOMIC_RELAXED);
	/* we touched a possibly cold node: someone may have let go meanwhile
	 * (queued_trylock(), keeping the word it read for xchg_tail()) */
	val = __atomic_load_n(lock, __ATOMIC_RELAXED);
	/* acquire: pairs with the last holder's release */
	if (!val && __atomic_compare_exchange_n(lock, &val, Q_LOCKED_VAL, false,
						__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return;

	next = NULL;
	val = xchg_tail(lock, tail, val);
	if (val & Q_TAIL_MASK) {
		prev = decode_tail(val);
		/* release: our node->locked = 0 lands before prev's owner sets it */
		__atomic_store_n(&prev->next, node, __ATOMIC_RELEASE);
		/* acquire: pairs with the previous head's hand-over */
		while (!__atomic_load_n(&node->locked, __ATOMIC_ACQUIRE))
			sb_cpu_relax();
		/* a successor may have linked itself meanwhile: have it ready,
		 * its line fetched for the write that hands it the queue */
		next = __atomic_load_n(&node->next, __ATOMIC_ACQUIRE);
		if (next)
			__builtin_prefetch(next, 1);
	}

	/* queue head: wait for owner and pending to go away (*,x,y -> *,0,0);
	 * acquire pairs with the owner's release */
	while ((val = __atomic_load_n(lock, __ATOMIC_ACQUIRE)) & Q_LOCKED_PENDING_MASK)
		sb_cpu_relax();

	/* alone in the queue: n,0,0 -> 0,0,1 (relaxed: acquired above) */
	if ((val & Q_TAIL_MASK) == tail &&
	    __atomic_compare_exchange_n(lock, &val, Q_LOCKED_VAL, false,
					__ATOMIC_RELAXED, __ATOMIC_RELAXED))
		return;
	/*
	 * Someone queued behind us, or a pending bit appeared whose setter saw
	 * our tail and will undo it: *,*,0 -> *,*,1.  Nobody else can take the
	 * lock while a tail is set.
	 */
	__atomic_store_n(q_locked(lock), (uint8_t)Q_LOCKED_VAL, __ATOMIC_RELAXED);	/* set_locked */
	if (!next)
		while (!(next = __atomic_load_n(&node->next, __ATOMIC_ACQUIRE)))
			sb_cpu_relax();
	/* release: make next the queue head (it still waits for us on the word) */
	__atomic_store_n(&next->locked, 1, __ATOMIC_RELEASE);
}

static void queued_lock(void *l, void *node)
{
	uint64_t *lock = l, val = 0;

	/* acquire: uncontended, one cmpxchg 0 -> locked, as queued_spin_lock() */
	if (__atomic_compare_exchange_n(lock, &val, Q_LOCKED_VAL, false,
					__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return;
	queued_lock_slowpath(lock, node, val);
}

static void queued_unlock(void *l, void *node)
{
	(void)node;
	/* release: the critical section is visible before the locked byte
	 * clears; a byte store, not an RMW: the holder alone writes it */
	__atomic_store_n(q_locked(l), 0, __ATOMIC_RELEASE);
}

static bool queued_is_locked(const void *l)
{
	/* queued_spin_is_locked(): any of locked, pending, tail */
	return __atomic_load_n((const uint64_t *)l, __ATOMIC_RELAXED) != 0;
}

SB_LOCK(queued,
	.summary     = "qspinlock: locked byte, pending bit, MCS tail in one word",
	.fair        = true,
	.sleeps      = false,
	.state_size  = sizeof(uint64_t),
	.state_align = sizeof(uint64_t),
	.node_size   = sizeof(struct qnode),
	.lock        = queued_lock,
	.trylock     = queued_trylock,
	.unlock      = queued_unlock,
	.is_locked   = queued_is_locked);
