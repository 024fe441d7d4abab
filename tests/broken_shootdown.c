/* broken_shootdown.c — deliberately wrong shootdown strategies the checker
 * must catch (test_shootdown).  test_only: hidden from listings and sweeps,
 * linked only into the test.  Both wait for every responder to make a few
 * accesses while their bug is exposed (sb_sim_wait_accesses), so the race
 * window is hit on every run, under sanitizers and qemu too, not by luck. */
#include <stratbench/shootdown.h>

#define EXPOSE_ACCESSES 64

static void record_unmapped(struct sb_shootdown *sd, unsigned long page,
			    const struct sb_cpumask *mm_cpumask,
			    const struct sb_cpumask *page_cpus)
{
	struct sb_tlb_batch *b = &sd->batch;

	(void)page_cpus;
	sb_cpumask_or(&b->cpumask, mm_cpumask);
	b->pages[b->nr_pages++] = page;
}

static void flush_batch(struct sb_shootdown *sd, struct sb_tlb_batch *b)
{
	if (b->nr_pages > sd->ceiling)
		sb_flush_tlb_all(sd, &b->cpumask);
	else
		sb_flush_tlb_pages(sd, &b->cpumask, b->pages, b->nr_pages);
	sb_cpumask_clear(&b->cpumask);
	b->nr_pages = 0;
}

/* broken_after_remap: the seed patch's order (004_…: try_to_unmap_flush()
 * at the end of migrate_pages()): the flush comes after the copy and the
 * free, so CPUs keep writing the old frame through stale translations. */
static void late_after_remap(struct sb_shootdown *sd)
{
	sb_sim_wait_accesses(sd, EXPOSE_ACCESSES);	/* stale accesses happen here */
	flush_batch(sd, &sd->batch);
	sb_sim_wait_accesses(sd, EXPOSE_ACCESSES);	/* refill before the next batch */
}

SB_SHOOTDOWN(broken_after_remap,
	.summary     = "BROKEN: flushes after the copy (the seed patch's order)",
	.test_only   = true,
	.unmapped    = record_unmapped,
	.after_remap = late_after_remap);

/* broken_mask: flushes before the copy, but leaves the first CPU of the
 * mask out, so that CPU keeps using the old frame. */
static void short_before_copy(struct sb_shootdown *sd)
{
	struct sb_tlb_batch *b = &sd->batch;
	int first = sb_cpumask_first(&b->cpumask);

	if (first >= 0)
		sb_cpumask_unset(&b->cpumask, (unsigned)first);
	flush_batch(sd, b);
}

static void short_after_remap(struct sb_shootdown *sd)
{
	sb_sim_wait_accesses(sd, EXPOSE_ACCESSES);
}

SB_SHOOTDOWN(broken_mask,
	.summary     = "BROKEN: leaves a CPU out of the flush mask",
	.test_only   = true,
	.unmapped    = record_unmapped,
	.before_copy = short_before_copy,
	.after_remap = short_after_remap);
