/* batched — "migrate_pages: batch flushing TLB" (Huang Ying, v6.3), with the
 * reclaim side's try_to_unmap_flush() (Mel Gorman, 4.3): unmapping records
 * the page and ORs the mm's cpumask into the batch; before the first copy one
 * flush covers the whole batch.  Above tlb_single_page_flush_ceiling pages
 * (x86: 33) the flush is of everything, as flush_tlb_mm_range() does. */
#include <stratbench/shootdown.h>

static void batched_unmapped(struct sb_shootdown *sd, unsigned long page,
			     const struct sb_cpumask *mm_cpumask,
			     const struct sb_cpumask *page_cpus)
{
	struct sb_tlb_batch *b = &sd->batch;

	(void)page_cpus;
	sb_cpumask_or(&b->cpumask, mm_cpumask);
	b->pages[b->nr_pages++] = page;
}

/* try_to_unmap_flush(): before any copy, so no CPU writes the old frame
 * after it was read. */
static void batched_before_copy(struct sb_shootdown *sd)
{
	struct sb_tlb_batch *b = &sd->batch;

	if (b->nr_pages > sd->ceiling)
		sb_flush_tlb_all(sd, &b->cpumask);
	else
		sb_flush_tlb_pages(sd, &b->cpumask, b->pages, b->nr_pages);
	sb_cpumask_clear(&b->cpumask);
	b->nr_pages = 0;
}

SB_SHOOTDOWN(batched,
	.summary     = "one flush per batch before the copy; all above --ceiling (v6.3)",
	.unmapped    = batched_unmapped,
	.before_copy = batched_before_copy);
