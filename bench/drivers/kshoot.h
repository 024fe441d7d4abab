/* kshoot.h — the real-kernel shootdown engine behind shootdown/kernel-*.
 *
 * A pinned team over a region of `batch` pages: member 0 initiates, members
 * 1..N-1 respond until stop (team.h).  One op is one page invalidated (or
 * migrated).  Per batch: 1. the initiator bumps `gen`; every responder
 * touches every page (writes for madvise, which faults them back in; reads
 * for mprotect and move_pages) and acks that gen (no responder: the
 * initiator touches them).  Responders then spin in this mm untouched, so
 * their TLBs still hold every page and the kernel must shoot it down there.
 * 2. mincore(): not_present counts missing pages (a broken protocol).
 * 3. timed, one call per page (immediate) or per batch (batched):
 * madvise(MADV_DONTNEED); mprotect(PROT_READ) and back to RW (both timed);
 * move_pages() to the other node, the next batch back home.
 * A round reads /proc/interrupts and getrusage(RUSAGE_SELF) around itself
 * only; nothing in it but step 3 sends TLB flushes.  Around each step 3 the
 * initiator reads every responder CPU's TLB row (untimed, no allocation)
 * and each responder counts its context switches from its ack to the next
 * gen: each responder-batch is flushed by IPI, off the mm (it switched:
 * x86 skipped its lazy CPU and flushes it at its next switch), or missed
 * (on the mm and no TLB-row IPI).
 */
#ifndef STRATBENCH_KSHOOT_H
#define STRATBENCH_KSHOOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "machine/kmm.h"

/* The /proc/interrupts rows a round reads (procfs.h's sb_irq_read). */
enum sb_irq_row { SB_IRQ_TLB, SB_IRQ_CAL, SB_IRQ_NROWS };

enum sb_kshoot_op { SB_KSHOOT_MADVISE, SB_KSHOOT_MPROTECT, SB_KSHOOT_MOVE_PAGES };

struct sb_kshoot_cfg {
	enum sb_kshoot_op op;
	bool batched;		/* one call per batch, else one per page */
	unsigned batch;		/* pages per batch, 1..512 */
	int threads;		/* initiator + responders */
	const int *cpus;	/* threads OS CPUs, or NULL: unpinned */
	int home, target;	/* move_pages: home node and the other one */
	bool broken_no_touch;	/* test fixture: responders ack without touching */
};

struct sb_kshoot_result {
	uint64_t rounds;
	uint64_t pages;			/* ops of the initiator */
	uint64_t calls;			/* system calls timed */
	uint64_t timed_ns;		/* initiator time inside the timed calls */
	uint64_t elapsed_ns;		/* the rounds' wall time, handshakes included */
	uint64_t touches;		/* responder page touches */
	uint64_t responder_csw;		/* their involuntary context switches */
	uint64_t not_present;		/* pages found unmapped before invalidation */
	uint64_t not_moved;		/* move_pages: pages left where they were */
	uint64_t resp_by_ipi;		/* responder-batches flushed by a TLB-row IPI */
	uint64_t resp_off_mm;		/* ... with none, the responder having switched */
	uint64_t resp_missed;		/* ... with none, the responder on the mm */
	uint64_t irq[SB_IRQ_NROWS];	/* over the team's CPUs */
	uint64_t irq_all[SB_IRQ_NROWS];	/* over every CPU */
	bool has_irq[SB_IRQ_NROWS];	/* false: the row is absent on this kernel */
	char irq_err[160];		/* "" or why /proc/interrupts was unreadable */
	uint64_t user_ns, sys_ns;	/* getrusage(RUSAGE_SELF): the whole process */
	int err;			/* errno of a failed call (the round stopped) */
	int bad_status;			/* move_pages: a page's last negative status */
};

struct sb_kshoot;
struct sb_team_result;

/* region: batch pages, page aligned, owned by the caller.  NULL and err on
 * failure (bad arguments, team creation, move_pages to home). */
struct sb_kshoot *sb_kshoot_open(const struct sb_kshoot_cfg *cfg, void *region, char *err,
				 size_t errlen);
/* One team round of at least `pages` pages (whole batches); adds to *res. */
void sb_kshoot_round(struct sb_kshoot *k, uint64_t pages, struct sb_kshoot_result *res);
void sb_kshoot_close(struct sb_kshoot *k);
/* The engine's team (for the --counters hooks of run/driver.c). */
struct sb_team *sb_kshoot_team(struct sb_kshoot *k);
/* The last round's team result: its time and each member's CPU time and
 * switches (run/driver.c's preemption counters); valid until the next round. */
const struct sb_team_result *sb_kshoot_last(const struct sb_kshoot *k);
/* The run's label: which IRQ counts are unavailable and why ("" if none). */
void sb_kshoot_unavailable(const struct sb_kshoot_result *res, char *buf, size_t len);
size_t sb_kshoot_page_size(void);

#endif
