/* machine.c — the simulated machine: page table, frames, CPUs; the checker. */
#include "sim/sim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SB_SIM_MAX_PAGES 65536		/* 256 MiB of frames */
#define SB_SIM_SPARE_FRAMES 64		/* free frames beyond the working set */

static void *zalloc_aligned(size_t align, size_t size)
{
	void *p;

	size = (size + align - 1) / align * align;
	if (posix_memalign(&p, align, size ? size : align))
		return NULL;
	memset(p, 0, size);
	return p;
}

void sb_sim_destroy(struct sb_sim *s)
{
	if (!s)
		return;
	for (unsigned i = 0; s->cpu && i < s->p.nresp; i++)
		free(s->cpu[i].writes);
	free(s->cpu);
	free(s->page_cpus);
	free(s->free_ring);
	free(s->frames);
	free(s->pte);
	free(s);
}

struct sb_sim *sb_sim_create(const struct sb_sim_params *p, char *err, size_t errlen)
{
	struct sb_sim *s;
	uint32_t f;
	unsigned i;

	if (p->nresp > SB_SIM_MAX_CPUS) {
		snprintf(err, errlen, "%u responders: the simulated machine has at most %d CPUs",
			 p->nresp, SB_SIM_MAX_CPUS);
		return NULL;
	}
	if (p->pages < 1 || p->pages > SB_SIM_MAX_PAGES) {
		snprintf(err, errlen, "%lu pages: want 1..%d", p->pages, SB_SIM_MAX_PAGES);
		return NULL;
	}
	if (!(p->write_ratio >= 0 && p->write_ratio <= 1)) {
		snprintf(err, errlen, "write ratio %g: want 0..1", p->write_ratio);
		return NULL;
	}
	if (p->ipi == SB_IPI_SIGNAL && sb_sim_signal_install(err, errlen))
		return NULL;
	s = zalloc_aligned(SB_CACHELINE, sizeof(*s));
	if (!s)
		goto nomem;
	s->p = *p;
	s->hot_pages = p->pages / 32 ? p->pages / 32 : 1;
	s->write_thresh = p->write_ratio >= 1 ? UINT64_MAX :
			  (uint64_t)(p->write_ratio * 18446744073709551616.0);
	s->mask_words = (p->nresp + 63) / 64 ? (p->nresp + 63) / 64 : 1;
	s->nframes = (uint32_t)(p->pages + SB_SIM_SPARE_FRAMES);
	s->pte = zalloc_aligned(SB_CACHELINE, sizeof(*s->pte) * p->pages);
	s->frames = zalloc_aligned(SB_SIM_PAGE_BYTES, (size_t)s->nframes * SB_SIM_PAGE_BYTES);
	s->free_ring = zalloc_aligned(SB_CACHELINE, sizeof(*s->free_ring) * s->nframes);
	s->page_cpus = zalloc_aligned(SB_CACHELINE, sizeof(uint64_t) * s->mask_words * p->pages);
	s->cpu = zalloc_aligned(SB_CACHELINE, sizeof(*s->cpu) * (p->nresp ? p->nresp : 1));
	if (!s->pte || !s->frames || !s->free_ring || !s->page_cpus || !s->cpu)
		goto nomem;
	for (f = 0; f < s->nframes; f++) {
		uint64_t *fr = sb_frame(s, f);

		/* payload: something to copy, never touched by responders */
		for (i = 1 + p->nresp; i < SB_FRAME_WORDS; i++)
			fr[i] = (uint64_t)f * SB_FRAME_WORDS + i;
		if (f < p->pages) {
			s->pte[f] = sb_pte_make(f, 0);	/* page f in frame f, generation 0 */
		} else {
			fr[0] = 1;			/* free */
			s->free_ring[s->free_count++] = f;
		}
	}
	for (i = 0; i < p->nresp; i++) {
		struct sb_sim_cpu *c = &s->cpu[i];

		c->id = i;
		c->rng = (p->seed ^ 0x9e3779b97f4a7c15ull * (i + 1)) | 1;
		memset(c->tlb, 0xff, sizeof(c->tlb));	/* every tag ~0: invalid */
		if (p->check && !(c->writes = calloc(p->pages, sizeof(*c->writes))))
			goto nomem;
	}
	return s;
nomem:
	sb_sim_destroy(s);
	snprintf(err, errlen, "out of memory for a simulated machine of %lu pages", p->pages);
	return NULL;
}

void sb_sim_report(const struct sb_sim *s, struct sb_sim_report *o)
{
	memset(o, 0, sizeof(*o));
	o->pages = s->pages_moved;
	o->migrate_ns = s->migrate_ns;
	o->flushes = s->flushes;
	o->full_flushes = s->full_flushes;
	o->acks = s->acks;
	o->signals = s->signals;
	for (unsigned i = 0; i < s->p.nresp; i++) {
		const struct sb_sim_cpu *c = &s->cpu[i];

		o->base_accesses += c->base_accesses;
		o->base_ns += c->base_ns;
		o->mig_accesses += c->mig_accesses;
		o->mig_ns += c->mig_ns;
		o->migration_waits += c->migration_waits;
		o->writes += c->nwrites;
		o->freed_frame_accesses += c->freed_frame_accesses;
		o->stale_reads += c->stale_reads;
	}
}

/* The final state: each page on its own allocated frame, each responder's slot = its writes */
uint64_t sb_sim_check(const struct sb_sim *s, struct sb_sim_report *o)
{
	unsigned char *used = calloc(s->nframes, 1);
	uint64_t mapped = 0, freed = 0;
	unsigned long pg;
	uint32_t f;

	o->lost_writes = 0;
	o->bad_frames = 0;
	if (!used) {		/* cannot check: say so as a harness failure */
		o->bad_frames = 1;
		return o->violations = 0;
	}
	for (pg = 0; pg < s->p.pages; pg++) {
		uint64_t pte = __atomic_load_n(&s->pte[pg], __ATOMIC_RELAXED);
		const uint64_t *fr;

		f = sb_pte_frame(pte);
		if (!(pte & SB_PTE_PRESENT) || f >= s->nframes || used[f]) {
			o->bad_frames++;
			continue;
		}
		used[f] = 1;
		mapped++;
		fr = sb_frame(s, f);
		if ((__atomic_load_n(&fr[0], __ATOMIC_RELAXED) & SB_PTE_GEN_MASK) != sb_pte_gen(pte) ||
		    (sb_pte_gen(pte) & 1))
			o->bad_frames++;
		for (unsigned r = 0; s->p.check && r < s->p.nresp; r++) {
			uint64_t found = __atomic_load_n(&fr[1 + r], __ATOMIC_RELAXED);
			uint64_t made = s->cpu[r].writes[pg];

			o->lost_writes += made > found ? made - found : found - made;
		}
	}
	for (f = 0; f < s->nframes; f++)
		if (!used[f])
			freed += __atomic_load_n(&sb_frame(s, f)[0], __ATOMIC_RELAXED) & 1;
	if (mapped + freed != s->nframes || freed != s->free_count)
		o->bad_frames++;
	free(used);
	o->violations = s->p.check ? o->lost_writes + o->freed_frame_accesses + o->stale_reads : 0;
	return o->violations;
}
