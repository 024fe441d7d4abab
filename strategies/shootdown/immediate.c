/* immediate — migration before batching (and x86's flush_tlb_page()): each
 * page is flushed, on every CPU in the mm's cpumask, as soon as its PTE is
 * cleared; one flush (and one request per CPU) per page. */
#include <stratbench/shootdown.h>

static void immediate_unmapped(struct sb_shootdown *sd, unsigned long page,
			       const struct sb_cpumask *mm_cpumask,
			       const struct sb_cpumask *page_cpus)
{
	(void)page_cpus;
	sb_flush_tlb_pages(sd, mm_cpumask, &page, 1);
}

SB_SHOOTDOWN(immediate,
	.summary  = "flush each page as it is unmapped (one flush per page)",
	.unmapped = immediate_unmapped);
