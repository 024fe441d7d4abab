/* respond.c — a responder CPU: accesses through its TLB, page walks, flush requests from its
 * mailbox (polled between accesses, or taken in a signal handler: the "IPI").
 *
 * Signal transport: an access (TLB lookup, walk, fill, use) is atomic with respect to flush
 * handling, as an instruction is with respect to an interrupt.  The thread masks "interrupts"
 * with irq_off (a relaxed flag plus compiler-only signal fences: handler and thread are the
 * same CPU); a signal that arrives while they are masked only sets irq_pending, and the thread
 * handles the mailbox when it unmasks.  The handler touches only this CPU's TLB, counters and
 * atomics: async-signal-safe.
 */
#include "sim/sim.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static _Thread_local struct sb_sim *this_sim;
static _Thread_local struct sb_sim_cpu *this_cpu;

/* ---- the TLB */

static struct sb_tlb_entry *tlb_lookup(struct sb_sim_cpu *c, unsigned long page)
{
	struct sb_tlb_entry *set = c->tlb[page % SB_TLB_SETS];

	for (int w = 0; w < SB_TLB_WAYS; w++)
		if (set[w].page == page)
			return &set[w];
	return NULL;
}

static struct sb_tlb_entry *tlb_fill(struct sb_sim_cpu *c, unsigned long page, uint64_t pte)
{
	unsigned set = (unsigned)(page % SB_TLB_SETS), w = c->fifo[set];
	struct sb_tlb_entry *e = &c->tlb[set][w];

	c->fifo[set] = (unsigned char)((w + 1) % SB_TLB_WAYS);
	e->page = page;
	e->frame = sb_pte_frame(pte);
	e->gen = sb_pte_gen(pte);
	return e;
}

/* ---- the mailbox */

static void handle_mailbox(struct sb_sim *s, struct sb_sim_cpu *c)
{
	struct sb_mailbox *mb = &c->mbox;
	/* acquire: pairs with the initiator's release of req: the payload */
	uint64_t seq = __atomic_load_n(&mb->req, __ATOMIC_ACQUIRE);

	if (seq == c->seen)
		return;
	if (mb->kind == SB_REQ_ALL) {
		for (int set = 0; set < SB_TLB_SETS; set++)	/* the whole TLB */
			for (int w = 0; w < SB_TLB_WAYS; w++)
				c->tlb[set][w].page = ~0ul;
		if (c->in_mm) {
			/* relaxed: our TLB is empty; a later fill sets the bit again
			 * (seq_cst) before it reads a PTE */
			__atomic_fetch_and(&s->mm_cpumask[c->id / 64], ~(1ull << (c->id % 64)),
					   __ATOMIC_RELAXED);
			c->in_mm = false;
		}
	} else {
		for (unsigned i = 0; i < mb->nr; i++) {
			struct sb_tlb_entry *e = tlb_lookup(c, mb->pages[i]);

			if (e)
				e->page = ~0ul;
		}
	}
	c->seen = seq;
	/* relaxed: read back by this same thread outside the handler */
	__atomic_store_n(&c->requests, c->requests + 1, __ATOMIC_RELAXED);
	/* release: our accesses through the flushed entries (frame writes)
	 * happen before the initiator's copy, which follows its acquire of ack */
	__atomic_store_n(&mb->ack, seq, __ATOMIC_RELEASE);
}

static void irq_disable(struct sb_sim_cpu *c)
{
	__atomic_store_n(&c->irq_off, 1, __ATOMIC_RELAXED);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);	/* same thread: compiler order only */
}

/* Unmasks, then handles what a signal deferred meanwhile, masked again. */
static void irq_enable(struct sb_sim *s, struct sb_sim_cpu *c)
{
	for (;;) {
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		__atomic_store_n(&c->irq_off, 0, __ATOMIC_RELAXED);
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		if (!__atomic_load_n(&c->irq_pending, __ATOMIC_RELAXED))
			return;
		irq_disable(c);
		__atomic_store_n(&c->irq_pending, 0, __ATOMIC_RELAXED);
		handle_mailbox(s, c);
	}
}

static void on_ipi(int sig)
{
	struct sb_sim_cpu *c = __atomic_load_n(&this_cpu, __ATOMIC_RELAXED);
	int saved = errno;

	(void)sig;
	if (!c)
		return;
	if (__atomic_load_n(&c->irq_off, __ATOMIC_RELAXED)) {
		__atomic_store_n(&c->irq_pending, 1, __ATOMIC_RELAXED);
	} else {
		irq_disable(c);
		handle_mailbox(__atomic_load_n(&this_sim, __ATOMIC_RELAXED), c);
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		__atomic_store_n(&c->irq_off, 0, __ATOMIC_RELAXED);
	}
	errno = saved;
}

static pthread_once_t ipi_once = PTHREAD_ONCE_INIT;
static int ipi_err;

static void ipi_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_ipi;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	if (sigaction(SB_SIM_SIGNAL, &sa, NULL))
		ipi_err = errno;
}

int sb_sim_signal_install(char *err, size_t errlen)
{
	pthread_once(&ipi_once, ipi_install);
	if (ipi_err)
		snprintf(err, errlen, "cannot install the IPI signal handler: %s", strerror(ipi_err));
	return ipi_err ? -1 : 0;
}

/* ---- accesses */

static uint64_t rng_next(struct sb_sim_cpu *c)
{
	uint64_t x = c->rng;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	c->rng = x;
	return x * 0x2545f4914f6cdd1dull;	/* xorshift64* */
}

static unsigned long pick_page(const struct sb_sim *s, uint64_t r)
{
	unsigned long range = s->p.pages;

	/* hot: 90 % (230/256) of accesses on the hot set */
	if (s->p.access == SB_ACCESS_HOT && (r & 0xff) < 230)
		range = s->hot_pages;
	return (unsigned long)(((r >> 32) * (uint64_t)range) >> 32);
}

/* A walk met a migration entry: wait (interrupts on, handling flush requests) for the new PTE. */
static void wait_migration(struct sb_sim *s, struct sb_sim_cpu *c, unsigned long page)
{
	unsigned spins = 0;

	c->migration_waits++;
	/* relaxed: the walk is redone with a seq_cst load */
	while (!(__atomic_load_n(&s->pte[page], __ATOMIC_RELAXED) & SB_PTE_PRESENT)) {
		if (s->p.ipi == SB_IPI_POLL)
			handle_mailbox(s, c);
		sb_sim_spin(s, &spins);
	}
}

/* A TLB miss: walk the page table and fill.  NULL, "interrupts" on again, when the access must
 * start over (a migration entry waited for, or the PTE changed as this CPU set its mask bits). */
static struct sb_tlb_entry *tlb_walk(struct sb_sim *s, struct sb_sim_cpu *c, unsigned long page)
{
	const uint64_t bit = 1ull << (c->id % 64);
	uint64_t *pc = &s->page_cpus[page * s->mask_words + c->id / 64];
	/* seq_cst: with the initiator's seq_cst PTE exchange and mask loads,
	 * either it sees our bits or we see its migration entry */
	uint64_t pte = __atomic_load_n(&s->pte[page], __ATOMIC_SEQ_CST);
	bool need_pc;

	if (!(pte & SB_PTE_PRESENT)) {
		irq_enable(s, c);
		wait_migration(s, c, page);
		return NULL;
	}
	/* relaxed: after the PTE load (acquire), which follows the reset of
	 * this mask made before the PTE was published */
	need_pc = !(__atomic_load_n(pc, __ATOMIC_RELAXED) & bit);
	if (!c->in_mm || need_pc) {
		/* seq_cst: our bits are set before the PTE is read again */
		if (!c->in_mm)
			__atomic_fetch_or(&s->mm_cpumask[c->id / 64], bit, __ATOMIC_SEQ_CST);
		c->in_mm = true;
		if (need_pc)
			__atomic_fetch_or(pc, bit, __ATOMIC_SEQ_CST);
		if (__atomic_load_n(&s->pte[page], __ATOMIC_SEQ_CST) != pte) {
			irq_enable(s, c);
			return NULL;
		}
	}
	return tlb_fill(c, page, pte);
}

static void access_page(struct sb_sim *s, struct sb_sim_cpu *c)
{
	uint64_t r = rng_next(c);
	unsigned long page = pick_page(s, r);
	bool write = rng_next(c) < s->write_thresh || s->write_thresh == UINT64_MAX;
	struct sb_tlb_entry *e;
	uint64_t *fr, *slot, v;

	do {
		irq_disable(c);
		e = tlb_lookup(c, page);
	} while (!e && !(e = tlb_walk(s, c, page)));
	/* a hit is used as is: the PTE is not read again (hardware) */
	fr = sb_frame(s, e->frame);
	slot = &fr[1 + c->id];
	/* relaxed everywhere below: only this CPU writes its slot (and the
	 * initiator's copy, ordered by the flush protocol); a stale translation
	 * races by design and the checker counts what it did */
	if (s->p.check && (__atomic_load_n(&fr[0], __ATOMIC_RELAXED) & SB_PTE_GEN_MASK) != e->gen)
		c->freed_frame_accesses++;
	v = __atomic_load_n(slot, __ATOMIC_RELAXED);
	if (write) {
		__atomic_store_n(slot, v + 1, __ATOMIC_RELAXED);
		if (s->p.check) {
			c->writes[page]++;
			c->nwrites++;
		}
	} else if (s->p.check && v != c->writes[page]) {
		c->stale_reads++;
	}
	irq_enable(s, c);
}

uint64_t sb_sim_respond(struct sb_sim *s, unsigned id, const struct sb_round *r)
{
	struct sb_sim_cpu *c = &s->cpu[id];
	uint64_t seq, t0, t, n = 0, base = 0, progress = c->progress, handled = 0;
	bool give_back = s->p.cpu0_shared && id == 0;
	bool mig = false, poll = s->p.ipi == SB_IPI_POLL;
	unsigned spins = 0;

	if (!c->attached) {
		/* for the signal handler, for as long as the thread lives: a
		 * request may come before this thread enters the next round */
		__atomic_store_n(&this_sim, s, __ATOMIC_RELAXED);
		__atomic_store_n(&this_cpu, c, __ATOMIC_RELAXED);
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		c->thread = pthread_self();
		c->attached = true;
		/* release: the initiator reads c->thread after seeing the count */
		__atomic_fetch_add(&s->attached, 1, __ATOMIC_RELEASE);
	}
	/* acquire: the initiator reset the phase before it bumped round_seq */
	while ((seq = __atomic_load_n(&s->round_seq, __ATOMIC_ACQUIRE)) == c->round_seen)
		sb_sim_spin(s, &spins);
	c->round_seen = seq;
	/* relaxed: a count; the initiator starts the round when all are in */
	__atomic_fetch_add(&s->entered, 1, __ATOMIC_RELAXED);
	t0 = sb_now_ns();
	for (;;) {
		/* relaxed: phase and stop carry no data */
		if (!mig && __atomic_load_n(&s->phase, __ATOMIC_RELAXED)) {
			t = sb_now_ns();
			c->base_ns += t - t0;
			c->base_accesses += n;
			t0 = t;
			base = n;
			mig = true;
		}
		if (__atomic_load_n(r->stop, __ATOMIC_RELAXED))
			break;
		access_page(s, c);
		if (poll)
			handle_mailbox(s, c);
		if (give_back && __atomic_load_n(&c->requests, __ATOMIC_RELAXED) != handled) {
			/* the initiator waits on this CPU: hand it back */
			handled = __atomic_load_n(&c->requests, __ATOMIC_RELAXED);
			sched_yield();
		}
		n++;
		/* relaxed: a progress count for sb_sim_wait_accesses only */
		__atomic_store_n(&c->progress, ++progress, __ATOMIC_RELAXED);
	}
	if (mig) {	/* a round whose migration this CPU never saw is dropped */
		c->mig_ns += sb_now_ns() - t0;
		c->mig_accesses += n - base;
	}
	return 0;
}
