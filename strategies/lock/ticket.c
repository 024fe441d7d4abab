/* ticket — the pre-4.2 x86 ticket spinlock: take a ticket from `next`, spin
 * until `owner` reaches it; unlock serves the next ticket.  FIFO by
 * construction.  Both words share one line, as head/tail of arch_spinlock_t
 * did; two 32-bit words instead of two halves of one keep every access the
 * same size (the kernel's trylock cmpxchg'ed the whole word; ours takes the
 * ticket only if it is the one being served, which is equivalent). */
#include <stratbench/lock.h>

struct ticket_lock {
	uint32_t next;		/* next ticket to hand out */
	uint32_t owner;		/* ticket being served */
};

static void ticket_lock(void *l, void *node)
{
	struct ticket_lock *t = l;
	uint32_t me;

	(void)node;
	/* relaxed: the ticket only fixes our place; acquire is on owner below */
	me = __atomic_fetch_add(&t->next, 1, __ATOMIC_RELAXED);
	/* acquire: pairs with the previous holder's release of owner */
	while (__atomic_load_n(&t->owner, __ATOMIC_ACQUIRE) != me)
		sb_cpu_relax();
}

static bool ticket_trylock(void *l, void *node)
{
	struct ticket_lock *t = l;
	uint32_t owner, expect;

	(void)node;
	/* acquire: if the lock is free, this reads the last holder's release */
	owner = __atomic_load_n(&t->owner, __ATOMIC_ACQUIRE);
	expect = owner;
	/*
	 * owner <= next always and owner only grows, so next == the owner we
	 * read means nobody holds or waits: take that ticket.  A failed
	 * cmpxchg writes nothing.
	 */
	return __atomic_compare_exchange_n(&t->next, &expect, owner + 1, false,
					   __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}

static void ticket_unlock(void *l, void *node)
{
	struct ticket_lock *t = l;
	/* relaxed: only the holder writes owner */
	uint32_t owner = __atomic_load_n(&t->owner, __ATOMIC_RELAXED);

	(void)node;
	/* release: the critical section is visible before the next ticket is served */
	__atomic_store_n(&t->owner, owner + 1, __ATOMIC_RELEASE);
}

static bool ticket_is_locked(const void *l)
{
	const struct ticket_lock *t = l;

	return __atomic_load_n(&t->next, __ATOMIC_RELAXED) !=
	       __atomic_load_n(&t->owner, __ATOMIC_RELAXED);
}

SB_LOCK(ticket,
	.summary     = "ticket lock: fetch-add next, spin on owner (FIFO)",
	.fair        = true,
	.sleeps      = false,
	.state_size  = sizeof(struct ticket_lock),
	.state_align = _Alignof(struct ticket_lock),
	.lock        = ticket_lock,
	.trylock     = ticket_trylock,
	.unlock      = ticket_unlock,
	.is_locked   = ticket_is_locked);
