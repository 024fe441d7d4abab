/* ppc_simple — POWER's pre-qspinlock arch_spin_lock
 * (arch/powerpc/include/asm/spinlock.h, later simple_spinlock.h):
 *
 *   __arch_spin_trylock: lwarx; if non-zero give up without storing;
 *                        stwcx. the CPU's lock token; isync (acquire)
 *   arch_spin_lock:      loop { trylock; do HMT_low while (slock != 0);
 *                        HMT_medium }
 *   arch_spin_unlock:    lwsync (release); slock = 0
 *
 * Portably: the lwarx/stwcx. sequence is a strong cmpxchg 0 -> token (on
 * POWER gcc emits that very loop), isync/lwsync are acquire/release, and
 * HMT_low/HMT_medium is sb_cpu_relax() ("or 1,1,1; or 2,2,2" on POWER).
 *
 * How it differs from its neighbours, and why it is its own lock: unlike tas
 * a failed attempt does not store (lwarx only reads), and the spin reads the
 * word rather than writing it; unlike ttas it has no plain-load pre-check
 * before the atomic, and it stores a non-zero token naming the holder (the
 * kernel's paca lock_token 0x8000 with the paca index, which the shared-
 * processor yield uses to confer cycles to the holder's vCPU) instead of 1.
 * So it is a TTAS-style lock with a cmpxchg and an SMT-priority hint.  Not
 * modelled: splpar_spin_yield() on shared LPARs, the EH=1 lwarx hint, and
 * the kernel holding HMT_low across the whole spin (sb_cpu_relax() drops and
 * restores priority on each iteration). */
#include <stratbench/lock.h>

#define PPC_LOCK_TOKEN	0x80000000u	/* lock_token 0x8000 in the high half */

static uint32_t ppc_lock_token(void)
{
	static uint32_t next_index;
	static _Thread_local uint32_t token;

	/* relaxed: only uniqueness matters; the paca index stands for the CPU */
	if (!token)
		token = PPC_LOCK_TOKEN |
			(__atomic_fetch_add(&next_index, 1, __ATOMIC_RELAXED) & 0xffffu);
	return token;
}

/* __arch_spin_trylock(): true when we stored our token */
static inline bool ppc_simple_try(uint32_t *slock, uint32_t token)
{
	uint32_t old = 0;

	/* acquire (the kernel's isync); relaxed on failure: nothing was stored */
	return __atomic_compare_exchange_n(slock, &old, token, false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

static void ppc_simple_lock(void *l, void *node)
{
	uint32_t *slock = l, token = ppc_lock_token();

	(void)node;
	for (;;) {
		if (ppc_simple_try(slock, token))
			return;
		/* spin reading, at low SMT priority, until it looks free */
		do
			sb_cpu_relax();
		while (__atomic_load_n(slock, __ATOMIC_RELAXED));
	}
}

static bool ppc_simple_trylock(void *l, void *node)
{
	(void)node;
	return ppc_simple_try(l, ppc_lock_token());
}

static void ppc_simple_unlock(void *l, void *node)
{
	(void)node;
	/* release (the kernel's lwsync before the store) */
	__atomic_store_n((uint32_t *)l, 0, __ATOMIC_RELEASE);
}

static bool ppc_simple_is_locked(const void *l)
{
	return __atomic_load_n((const uint32_t *)l, __ATOMIC_RELAXED) != 0;
}

SB_LOCK(ppc_simple,
	.summary     = "POWER pre-qspinlock: lwarx/stwcx. token, spin reading with HMT_low",
	.fair        = false,
	.sleeps      = false,
	.state_size  = sizeof(uint32_t),
	.state_align = sizeof(uint32_t),
	.lock        = ppc_simple_lock,
	.trylock     = ppc_simple_trylock,
	.unlock      = ppc_simple_unlock,
	.is_locked   = ppc_simple_is_locked);
