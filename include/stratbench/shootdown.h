/* shootdown.h — TLB-shootdown strategies and the simulated machine they run
 * on (DESIGN.md §5).
 *
 * The machine (bench/sim/): nresp responder "CPUs", each a thread with a
 * software TLB of SB_TLB_SETS x SB_TLB_WAYS entries, a shared page table of
 * `pages` PTEs and frames holding data.  A responder's TLB hit is used
 * without re-reading the PTE, as hardware does, until a flush removes it.
 * One migrating member (the initiator) moves pages in batches; a strategy
 * decides when and whom to flush through three hooks, called in this order
 * for each batch (the kernel's migrate_pages() of v6.3):
 *
 *   for each page: clear PTE (migration entry)   -> unmapped(sd, page, mm, cached)
 *   before_copy(sd)    must leave no CPU able to use a stale translation
 *   for each page: copy frame, install the new PTE, free the old frame
 *   after_remap(sd)
 *
 * unmapped() gets the mm's cpumask (CPUs that may hold a translation of the
 * mm: a CPU sets its bit before its first TLB fill and clears it only when
 * it takes a full flush, as mm_cpumask) and the page's tracked mask (CPUs
 * that filled this PTE since it was installed, a per-CPU accessed bit), both
 * read after the PTE was cleared.  Strategies flush only with
 * sb_flush_tlb_pages() / sb_flush_tlb_all(), which send one request per CPU
 * in the mask and return when every one has acked; they may keep state in
 * sd->batch (the kernel's tlbflush_unmap_batch) and sd->priv (state_size
 * bytes, zeroed per run).  One file per strategy under strategies/shootdown/,
 * registered with SB_SHOOTDOWN(name, ...), which emits the migrating loop in
 * the strategy's own translation unit so its hooks inline there.
 */
#ifndef STRATBENCH_SHOOTDOWN_H
#define STRATBENCH_SHOOTDOWN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <stratbench/arch.h>
#include <stratbench/registry.h>
#include <stratbench/team.h>

/* The software TLB of one simulated CPU: 64 entries, 4-way set associative,
 * set = page mod 16, FIFO (round-robin) replacement within a set: the shape
 * of the L1 dTLB for 4 KiB pages on Haswell and Skylake. */
#define SB_TLB_SETS	16
#define SB_TLB_WAYS	4
#define SB_SIM_MAX_CPUS	256		/* responders */
#define SB_SIM_MAX_BATCH 65536
#define SB_SIM_PAGE_BYTES 4096		/* a frame: write slots, then payload */

/* ---- cpumasks */

#define SB_CPUMASK_WORDS (SB_SIM_MAX_CPUS / 64)
struct sb_cpumask {
	uint64_t bits[SB_CPUMASK_WORDS];
};

static inline void sb_cpumask_clear(struct sb_cpumask *m)
{
	for (int i = 0; i < SB_CPUMASK_WORDS; i++)
		m->bits[i] = 0;
}

static inline void sb_cpumask_set(struct sb_cpumask *m, unsigned cpu)
{
	m->bits[cpu / 64] |= 1ull << (cpu % 64);
}

static inline void sb_cpumask_unset(struct sb_cpumask *m, unsigned cpu)
{
	m->bits[cpu / 64] &= ~(1ull << (cpu % 64));
}

static inline bool sb_cpumask_test(const struct sb_cpumask *m, unsigned cpu)
{
	return m->bits[cpu / 64] >> (cpu % 64) & 1;
}

static inline void sb_cpumask_or(struct sb_cpumask *d, const struct sb_cpumask *s)
{
	for (int i = 0; i < SB_CPUMASK_WORDS; i++)
		d->bits[i] |= s->bits[i];
}

static inline void sb_cpumask_and(struct sb_cpumask *d, const struct sb_cpumask *a,
				  const struct sb_cpumask *b)
{
	for (int i = 0; i < SB_CPUMASK_WORDS; i++)
		d->bits[i] = a->bits[i] & b->bits[i];
}

static inline bool sb_cpumask_empty(const struct sb_cpumask *m)
{
	for (int i = 0; i < SB_CPUMASK_WORDS; i++)
		if (m->bits[i])
			return false;
	return true;
}

/* first set CPU, or -1 */
static inline int sb_cpumask_first(const struct sb_cpumask *m)
{
	for (int i = 0; i < SB_CPUMASK_WORDS; i++)
		if (m->bits[i])
			return i * 64 + __builtin_ctzll(m->bits[i]);
	return -1;
}

/* ---- the machine */

enum sb_sim_access { SB_ACCESS_UNIFORM, SB_ACCESS_HOT };
enum sb_sim_ipi { SB_IPI_POLL, SB_IPI_SIGNAL };

struct sb_sim_params {
	unsigned nresp;			/* responder CPUs, 0..SB_SIM_MAX_CPUS */
	unsigned long pages;		/* working set, also the pages migrated */
	double write_ratio;		/* share of responder accesses that write */
	enum sb_sim_access access;	/* hot: 90 % on the first max(1, pages/32) pages */
	enum sb_sim_ipi ipi;		/* poll: mailbox checked between accesses;
					 * signal: pthread_kill + handler */
	bool check;			/* per-access checks and write counts */
	unsigned yield_after;		/* waits yield the CPU after this many spins
					 * (threads share CPUs); 0: they only spin */
	bool cpu0_shared;		/* responder 0 shares the initiator's CPU: it
					 * yields after handling a request, as a
					 * return from the interrupt would */
	uint64_t seed;
};

struct sb_sim;

/* NULL and one line in err on bad parameters or no memory. */
struct sb_sim *sb_sim_create(const struct sb_sim_params *p, char *err, size_t errlen);
void sb_sim_destroy(struct sb_sim *s);

/* A responder's round: runs accesses until r->stop is raised by the
 * initiator; returns 0 (responders do not count toward the round's quota). */
uint64_t sb_sim_respond(struct sb_sim *s, unsigned cpu, const struct sb_round *r);

/* What the machine saw, summed over the rounds so far (read between rounds). */
struct sb_sim_report {
	uint64_t pages;			/* migrated */
	uint64_t migrate_ns;		/* initiator time spent migrating */
	uint64_t flushes;		/* flush operations that sent a request */
	uint64_t full_flushes;		/* ... of them flush-everything */
	uint64_t acks;			/* per-CPU requests, each acked */
	uint64_t signals;		/* pthread_kill()s sent (--ipi=signal) */
	uint64_t base_accesses, base_ns;	/* responders, no-migration phase */
	uint64_t mig_accesses, mig_ns;		/* responders, while migrating */
	uint64_t migration_waits;	/* responder walks that met a migration entry */
	uint64_t writes;		/* responder writes counted by the checker */
	/* the checker (with params.check; sb_sim_check() fills these) */
	uint64_t lost_writes;		/* |writes made - writes in the page's frame| */
	uint64_t freed_frame_accesses;	/* accesses through a freed frame */
	uint64_t stale_reads;		/* a read of its own slot that missed its write */
	uint64_t violations;		/* the sum of the three */
	uint64_t bad_frames;		/* harness self-check: mapping not one-to-one */
};
void sb_sim_report(const struct sb_sim *s, struct sb_sim_report *out);
/* Runs the checker over the final state (between rounds): fills the checker
 * fields of out (after sb_sim_report) and returns out->violations. */
uint64_t sb_sim_check(const struct sb_sim *s, struct sb_sim_report *out);

/* ---- the initiator and the strategy hooks */

/* The kernel's tlbflush_unmap_batch: strategies may accumulate here. */
struct sb_tlb_batch {
	struct sb_cpumask cpumask;
	unsigned nr_pages;
	unsigned long *pages;		/* capacity: the batch size */
};

struct sb_shootdown_ops;

struct sb_shootdown {
	struct sb_sim *sim;
	const struct sb_shootdown_ops *ops;
	unsigned batch_size;		/* pages per batch (--batch) */
	unsigned ceiling;		/* tlb_single_page_flush_ceiling (--ceiling) */
	struct sb_tlb_batch batch;
	void *priv;			/* ops->state_size bytes, zeroed */
	/* harness-owned: the batch being migrated */
	unsigned long *cur_pages;
	uint64_t *old_pte;
	unsigned long cursor;		/* next page to migrate */
	uint64_t base_ns;		/* the next round's no-migration phase */
	uint64_t t_start;		/* this round's migrating phase began */
	uint64_t round_migrate_ns;	/* the last round's migrating time, */
	uint64_t round_pages, round_quota;	/* its pages and its quota */
};

typedef void (*sb_unmapped_fn)(struct sb_shootdown *sd, unsigned long page,
			       const struct sb_cpumask *mm_cpumask,
			       const struct sb_cpumask *page_cpus);
typedef void (*sb_batch_fn)(struct sb_shootdown *sd);

struct sb_shootdown_ops {
	const char *name;
	const char *summary;
	bool test_only;			/* broken fixtures: never listed or swept */
	size_t state_size;		/* sd->priv */
	sb_unmapped_fn unmapped;	/* required */
	sb_batch_fn before_copy;	/* optional */
	sb_batch_fn after_remap;	/* optional */
	uint64_t (*loop)(struct sb_shootdown *sd, const struct sb_round *r);
};

/* NULL with one line in err (batch 0 or above pages, no memory).  ops NULL
 * makes a flush-only initiator (the calibrate family's round trip): no
 * strategy and no loop; between sb_sim_migrate_begin() and _end() it calls
 * sb_flush_tlb_pages()/_all() directly, on pages it did not unmap (a flush
 * then only drops the responders' entries; they fill them again). */
struct sb_shootdown *sb_shootdown_create(struct sb_sim *s, const struct sb_shootdown_ops *ops,
					 unsigned batch_size, unsigned ceiling,
					 char *err, size_t errlen);
void sb_shootdown_destroy(struct sb_shootdown *sd);

/* Flush primitives: one request per CPU in mask, then wait for every ack.
 * An empty mask sends nothing and is not counted.  pages stays valid until
 * the call returns. */
void sb_flush_tlb_pages(struct sb_shootdown *sd, const struct sb_cpumask *mask,
			const unsigned long *pages, unsigned nr);
void sb_flush_tlb_all(struct sb_shootdown *sd, const struct sb_cpumask *mask);

/* Test fixtures only: wait until every responder made n more accesses (or
 * a second passed), to hit a broken strategy's race window on every run.
 * Call it only while no PTE is a migration entry (after_remap). */
void sb_sim_wait_accesses(struct sb_shootdown *sd, unsigned n);

/* The migrating member's steps (bench/sim/migrate.c). */
void sb_sim_migrate_begin(struct sb_shootdown *sd);	/* the no-migration phase */
unsigned long sb_sim_unmap(struct sb_shootdown *sd, unsigned i, struct sb_cpumask *mm_cpumask,
			   struct sb_cpumask *page_cpus);
void sb_sim_move(struct sb_shootdown *sd, unsigned i);
void sb_sim_migrate_end(struct sb_shootdown *sd, uint64_t pages, uint64_t quota);

/* The migrating loop, expanded once per strategy with its hooks inlined. */
static inline __attribute__((always_inline)) uint64_t
sb_shootdown_loop_run(struct sb_shootdown *sd, const struct sb_round *r,
		      sb_unmapped_fn unmapped, sb_batch_fn before_copy, sb_batch_fn after_remap)
{
	const unsigned n = sd->batch_size;
	uint64_t pages = 0;

	sb_sim_migrate_begin(sd);
	do {
		struct sb_cpumask mm, cached;
		unsigned i;

		for (i = 0; i < n; i++) {
			unsigned long page = sb_sim_unmap(sd, i, &mm, &cached);

			unmapped(sd, page, &mm, &cached);
		}
		if (before_copy)
			before_copy(sd);
		for (i = 0; i < n; i++)
			sb_sim_move(sd, i);
		if (after_remap)
			after_remap(sd);
		pages += n;
	} while (!sb_round_over(r, pages));
	sb_sim_migrate_end(sd, pages, r->quota);
	return pages;
}

#define SB_SHOOTDOWN(sname, ...)						\
	static uint64_t sname##_shootdown_loop(struct sb_shootdown *,		\
					       const struct sb_round *);	\
	static const struct sb_shootdown_ops sb_shootdown_##sname = {		\
		.name = #sname,							\
		.loop = sname##_shootdown_loop,					\
		__VA_ARGS__							\
	};									\
	static uint64_t sname##_shootdown_loop(struct sb_shootdown *sd,		\
					       const struct sb_round *r)	\
	{									\
		return sb_shootdown_loop_run(sd, r, sb_shootdown_##sname.unmapped, \
					     sb_shootdown_##sname.before_copy,	\
					     sb_shootdown_##sname.after_remap);	\
	}									\
	SB_REGISTER(shootdown, sb_shootdown_##sname)

static inline const struct sb_shootdown_ops *sb_shootdown_find(const char *name)
{
	return (const struct sb_shootdown_ops *)sb_registry_find(SB_FAMILY_shootdown, name);
}

#endif
