/* sim/ — the shootdown family's simulated machine (portable C, built into sb_core for the
 * cross-built conformance tests).
 * uses: core
 *
 * sim.h — the simulated machine's state.
 *
 * PTE: bit 0 present, bit 1 migration entry, bits 2..33 frame, bits 34..63 the frame's
 * generation when it was mapped.  A frame's generation is even while allocated and odd while
 * free (bumped at both), so a TLB entry whose generation differs from its frame's was used
 * after the frame was freed.  A frame is SB_SIM_PAGE_BYTES: word 0 the generation, words
 * 1..nresp one write counter ("slot") per responder, the rest payload copied with it.  Includes
 * only include/stratbench/ (core must not include sim/).
 */
#ifndef STRATBENCH_SIM_H
#define STRATBENCH_SIM_H

#include <pthread.h>
#include <sched.h>
#include <signal.h>

#include <stratbench/shootdown.h>

#define SB_PTE_PRESENT		1ull
#define SB_PTE_MIGRATION	2ull
#define SB_PTE_FRAME_SHIFT	2
#define SB_PTE_FRAME_MASK	0xffffffffull
#define SB_PTE_GEN_SHIFT	34
#define SB_PTE_GEN_MASK		((1ull << 30) - 1)

#define SB_FRAME_WORDS		(SB_SIM_PAGE_BYTES / 8)
#define SB_SIM_SIGNAL		SIGUSR2

static inline uint64_t sb_pte_make(uint64_t frame, uint64_t gen)
{
	return SB_PTE_PRESENT | frame << SB_PTE_FRAME_SHIFT |
	       (gen & SB_PTE_GEN_MASK) << SB_PTE_GEN_SHIFT;
}

static inline uint32_t sb_pte_frame(uint64_t pte)
{
	return (uint32_t)(pte >> SB_PTE_FRAME_SHIFT & SB_PTE_FRAME_MASK);
}

static inline uint32_t sb_pte_gen(uint64_t pte)
{
	return (uint32_t)(pte >> SB_PTE_GEN_SHIFT);
}

enum { SB_REQ_PAGES, SB_REQ_ALL };

/* One CPU's mailbox, alone on its line: the initiator writes the payload and
 * then req; the responder acts, then writes ack = req. */
struct sb_mailbox {
	SB_CACHE_ALIGNED uint64_t req;	/* sequence of the latest request */
	uint64_t ack;			/* sequence of the latest handled one */
	int kind;			/* payload: plain, ordered by req/ack */
	unsigned nr;
	const unsigned long *pages;
	uint64_t sent;			/* initiator's own copy of req */
};

struct sb_tlb_entry {
	unsigned long page;		/* tag; ~0: invalid */
	uint32_t frame;
	uint32_t gen;
};

/* A responder CPU: its TLB and counters are its own (its signal handler
 * touches them only while the thread is outside an access: irq_off). */
struct sb_sim_cpu {
	struct sb_mailbox mbox;
	SB_CACHE_ALIGNED struct sb_tlb_entry tlb[SB_TLB_SETS][SB_TLB_WAYS];
	unsigned char fifo[SB_TLB_SETS];	/* next way to replace */
	int irq_off, irq_pending;	/* signal transport: "interrupts" masked, one deferred */
	bool in_mm;			/* our bit is set in mm_cpumask */
	bool attached;
	uint64_t seen;			/* last request handled */
	uint64_t rng;
	uint64_t round_seen;
	pthread_t thread;
	unsigned id;
	uint64_t *writes;		/* per page: writes this CPU made (checker) */
	/* counters */
	uint64_t base_accesses, base_ns, mig_accesses, mig_ns;
	uint64_t migration_waits, freed_frame_accesses, stale_reads, nwrites, requests;
	SB_CACHE_ALIGNED uint64_t progress;	/* accesses, for sb_sim_wait_accesses */
};

struct sb_sim {
	struct sb_sim_params p;
	unsigned long hot_pages;
	uint64_t write_thresh;		/* rng < thresh: write */
	unsigned mask_words;		/* words of a per-page mask */
	uint64_t *pte;			/* pages */
	uint64_t *frames;		/* nframes * SB_FRAME_WORDS */
	uint32_t nframes;
	uint32_t *free_ring;		/* FIFO of free frames (initiator only) */
	uint32_t free_head, free_count;
	uint64_t *page_cpus;		/* pages * mask_words: CPUs that filled the PTE */
	struct sb_sim_cpu *cpu;		/* nresp, cache-line aligned */
	/* initiator-side totals */
	uint64_t pages_moved, migrate_ns, flushes, full_flushes, acks, signals;
	/* shared lines */
	SB_CACHE_ALIGNED uint64_t mm_cpumask[SB_CPUMASK_WORDS];
	SB_CACHE_ALIGNED uint64_t round_seq;	/* bumped by the initiator at its start */
	int phase;				/* 0 no migration, 1 migrating */
	SB_CACHE_ALIGNED unsigned attached;	/* responders that published their thread */
	uint64_t entered;			/* responder-rounds begun */
};

static inline uint64_t *sb_frame(const struct sb_sim *s, uint32_t f)
{
	return s->frames + (size_t)f * SB_FRAME_WORDS;
}

/* Spin-loop wait: with p.yield_after, yield after that many spins (threads share CPUs) */
static inline void sb_sim_spin(const struct sb_sim *s, unsigned *spins)
{
	if (!s->p.yield_after || ++*spins < s->p.yield_after)
		sb_cpu_relax();
	else
		sched_yield();
}

/* respond.c */
int sb_sim_signal_install(char *err, size_t errlen);

#endif
