/* targeted — page-access tracking as in Amit, "Optimizing the TLB Shootdown
 * Algorithm with Page Access Tracking" (USENIX ATC '17): flush each page
 * immediately, but only on the CPUs that filled its PTE since it was
 * installed (the machine's per-CPU accessed bits) and that still may hold
 * translations of the mm; a page no CPU cached needs no flush at all.  The
 * tracked mask is conservative (an entry evicted since still counts). */
#include <stratbench/shootdown.h>

static void targeted_unmapped(struct sb_shootdown *sd, unsigned long page,
			      const struct sb_cpumask *mm_cpumask,
			      const struct sb_cpumask *page_cpus)
{
	struct sb_cpumask m;

	sb_cpumask_and(&m, mm_cpumask, page_cpus);
	sb_flush_tlb_pages(sd, &m, &page, 1);	/* an empty mask sends nothing */
}

SB_SHOOTDOWN(targeted,
	.summary  = "flush each page only where it was cached (access tracking, ATC'17)",
	.unmapped = targeted_unmapped);
