/* migrate.c — the migrating member: the no-migration phase, unmap, move,
 * and the flush primitives strategies call. */
#include "sim/sim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Responders' no-migration phase each round: 1/4 of the last round's migrating time, bounded: */
#define SB_BASE_MIN_NS	200000ull
#define SB_BASE_MAX_NS	25000000ull

struct sb_shootdown *sb_shootdown_create(struct sb_sim *s, const struct sb_shootdown_ops *ops,
					 unsigned batch_size, unsigned ceiling,
					 char *err, size_t errlen)
{
	struct sb_shootdown *sd;

	if (batch_size < 1 || batch_size > s->p.pages || batch_size > SB_SIM_MAX_BATCH) {
		snprintf(err, errlen, "batch %u: want 1..%lu (the pages of the working set)",
			 batch_size, s->p.pages < SB_SIM_MAX_BATCH ? s->p.pages :
			 (unsigned long)SB_SIM_MAX_BATCH);
		return NULL;
	}
	sd = calloc(1, sizeof(*sd));
	if (!sd)
		goto nomem;
	sd->sim = s;
	sd->ops = ops;
	sd->batch_size = batch_size;
	sd->ceiling = ceiling;
	sd->base_ns = SB_BASE_MIN_NS;
	sd->batch.pages = calloc(batch_size, sizeof(*sd->batch.pages));
	sd->cur_pages = calloc(batch_size, sizeof(*sd->cur_pages));
	sd->old_pte = calloc(batch_size, sizeof(*sd->old_pte));
	sd->priv = ops && ops->state_size ? calloc(1, ops->state_size) : NULL;
	if (!sd->batch.pages || !sd->cur_pages || !sd->old_pte || (ops && ops->state_size && !sd->priv))
		goto nomem;
	return sd;
nomem:
	sb_shootdown_destroy(sd);
	snprintf(err, errlen, "out of memory for a batch of %u pages", batch_size);
	return NULL;
}

void sb_shootdown_destroy(struct sb_shootdown *sd)
{
	if (!sd)
		return;
	free(sd->batch.pages);
	free(sd->cur_pages);
	free(sd->old_pte);
	free(sd->priv);
	free(sd);
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000u),
			       .tv_nsec = (long)(ns % 1000000000u) };

	while (nanosleep(&ts, &ts))
		;
}

void sb_sim_migrate_begin(struct sb_shootdown *sd)
{
	struct sb_sim *s = sd->sim;
	unsigned spins = 0;
	uint64_t seq;

	/* acquire: pairs with each responder's release: its thread id */
	while (__atomic_load_n(&s->attached, __ATOMIC_ACQUIRE) < s->p.nresp)
		sb_sim_spin(s, &spins);
	__atomic_store_n(&s->phase, 0, __ATOMIC_RELAXED);
	/* release: responders that see the new round see the phase reset */
	seq = __atomic_add_fetch(&s->round_seq, 1, __ATOMIC_RELEASE);
	/* every responder is in the round before either phase starts */
	while (__atomic_load_n(&s->entered, __ATOMIC_RELAXED) < seq * s->p.nresp)
		sb_sim_spin(s, &spins);
	if (s->p.nresp)		/* sleep: under --initiator=shared the CPU is theirs */
		sleep_ns(sd->base_ns);
	__atomic_store_n(&s->phase, 1, __ATOMIC_RELAXED);
	sd->t_start = sb_now_ns();
}

void sb_sim_migrate_end(struct sb_shootdown *sd, uint64_t pages, uint64_t quota)
{
	struct sb_sim *s = sd->sim;
	uint64_t t = sb_now_ns() - sd->t_start;

	sd->round_migrate_ns = t;
	sd->round_pages = pages;
	sd->round_quota = quota;
	s->migrate_ns += t;
	s->pages_moved += pages;
	t /= 4;
	sd->base_ns = t < SB_BASE_MIN_NS ? SB_BASE_MIN_NS : t > SB_BASE_MAX_NS ? SB_BASE_MAX_NS : t;
}

unsigned long sb_sim_unmap(struct sb_shootdown *sd, unsigned i, struct sb_cpumask *mm,
			   struct sb_cpumask *cached)
{
	struct sb_sim *s = sd->sim;
	unsigned long page = sd->cursor;
	const uint64_t *pc = &s->page_cpus[page * s->mask_words];

	sd->cursor = page + 1 == s->p.pages ? 0 : page + 1;
	sd->cur_pages[i] = page;
	/* seq_cst: the PTE is cleared before the masks are read; a responder
	 * sets its bits before it reads the PTE (sb_sim_respond's walk) */
	sd->old_pte[i] = __atomic_exchange_n(&s->pte[page], SB_PTE_MIGRATION, __ATOMIC_SEQ_CST);
	sb_cpumask_clear(mm);
	sb_cpumask_clear(cached);
	for (unsigned w = 0; w < s->mask_words; w++) {
		mm->bits[w] = __atomic_load_n(&s->mm_cpumask[w], __ATOMIC_SEQ_CST);
		cached->bits[w] = __atomic_load_n(&pc[w], __ATOMIC_SEQ_CST);
	}
	return page;
}

void sb_sim_move(struct sb_shootdown *sd, unsigned i)
{
	struct sb_sim *s = sd->sim;
	unsigned long page = sd->cur_pages[i];
	uint32_t a = sb_pte_frame(sd->old_pte[i]), b = s->free_ring[s->free_head];
	uint64_t *fa = sb_frame(s, a), *fb = sb_frame(s, b), gen;
	unsigned n = s->p.nresp, w;

	s->free_head = s->free_head + 1 == s->nframes ? 0 : s->free_head + 1;
	s->free_count--;
	/* only we write generations; responders read them (relaxed) to catch a freed frame's use */
	gen = __atomic_load_n(&fb[0], __ATOMIC_RELAXED) + 1;	/* even: allocated */
	__atomic_store_n(&fb[0], gen, __ATOMIC_RELAXED);
	/* relaxed: every CPU that could write the old frame acked its flush
	 * (acquire) before we got here, unless the strategy is broken */
	for (w = 1; w <= n; w++)
		__atomic_store_n(&fb[w], __atomic_load_n(&fa[w], __ATOMIC_RELAXED), __ATOMIC_RELAXED);
	memcpy(fb + 1 + n, fa + 1 + n, (SB_FRAME_WORDS - 1 - n) * sizeof(*fb));	/* payload */
	for (w = 0; w < s->mask_words; w++)	/* no CPU has filled the new PTE yet */
		__atomic_store_n(&s->page_cpus[page * s->mask_words + w], 0, __ATOMIC_RELAXED);
	/* release: the copy and the mask reset happen before any fill of it */
	__atomic_store_n(&s->pte[page], sb_pte_make(b, gen), __ATOMIC_RELEASE);
	__atomic_store_n(&fa[0], __atomic_load_n(&fa[0], __ATOMIC_RELAXED) + 1, __ATOMIC_RELAXED);
	s->free_ring[(s->free_head + s->free_count) % s->nframes] = a;
	s->free_count++;
}

static void flush(struct sb_shootdown *sd, const struct sb_cpumask *mask, int kind,
		  const unsigned long *pages, unsigned nr)
{
	struct sb_sim *s = sd->sim;
	uint64_t targets = 0;
	unsigned cpu;

	for (cpu = 0; cpu < s->p.nresp; cpu++) {
		struct sb_mailbox *mb = &s->cpu[cpu].mbox;

		if (!sb_cpumask_test(mask, cpu))
			continue;
		/* plain: the responder read the last payload before its ack */
		mb->kind = kind;
		mb->nr = nr;
		mb->pages = pages;
		/* release: the payload before the request */
		__atomic_store_n(&mb->req, ++mb->sent, __ATOMIC_RELEASE);
		if (s->p.ipi == SB_IPI_SIGNAL) {
			pthread_kill(s->cpu[cpu].thread, SB_SIM_SIGNAL);
			s->signals++;
		}
		targets++;
	}
	if (!targets)
		return;
	for (cpu = 0; cpu < s->p.nresp; cpu++) {
		struct sb_mailbox *mb = &s->cpu[cpu].mbox;
		unsigned spins = 0;

		if (!sb_cpumask_test(mask, cpu))
			continue;
		/* acquire: pairs with the responder's release of ack: its writes
		 * through the flushed translations happen before our copy */
		while (__atomic_load_n(&mb->ack, __ATOMIC_ACQUIRE) != mb->sent)
			sb_sim_spin(s, &spins);
	}
	s->flushes++;
	s->full_flushes += kind == SB_REQ_ALL;
	s->acks += targets;
}

void sb_flush_tlb_pages(struct sb_shootdown *sd, const struct sb_cpumask *mask,
			const unsigned long *pages, unsigned nr)
{
	if (nr)
		flush(sd, mask, SB_REQ_PAGES, pages, nr);
}

void sb_flush_tlb_all(struct sb_shootdown *sd, const struct sb_cpumask *mask)
{
	flush(sd, mask, SB_REQ_ALL, NULL, 0);
}

void sb_sim_wait_accesses(struct sb_shootdown *sd, unsigned n)
{
	struct sb_sim *s = sd->sim;
	uint64_t deadline = sb_now_ns() + 1000000000ull;

	for (unsigned cpu = 0; cpu < s->p.nresp; cpu++) {
		uint64_t *p = &s->cpu[cpu].progress;
		/* relaxed: a count, no data */
		uint64_t target = __atomic_load_n(p, __ATOMIC_RELAXED) + n;
		unsigned spins = 0;

		while (__atomic_load_n(p, __ATOMIC_RELAXED) < target && sb_now_ns() < deadline)
			sb_sim_spin(s, &spins);
	}
}
