/* kshoot.c — the real-kernel shootdown engine (kshoot.h). */
#include "drivers/kshoot.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/mempolicy.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <stratbench/team.h>

#include "machine/procfs.h"

static const char *const row_names[SB_IRQ_NROWS] = { "TLB", "CAL" };

/* Counts of one /proc/interrupts read: team CPUs and all CPUs per row. */
struct irq_snap {
	int has[SB_IRQ_NROWS];		/* 1 present, 0 absent, -1 unreadable */
	uint64_t team[SB_IRQ_NROWS], all[SB_IRQ_NROWS];
};

#define SB_KSHOOT_MAX_BATCH 512

struct kshoot_resp {
	SB_CACHE_ALIGNED uint64_t ack;	/* last gen this responder touched for */
	uint64_t preempted;		/* its involuntary context switches, this round */
	uint64_t switched;		/* context switches from its ack to the next gen */
	uint64_t switched_final;	/* the same to the round's stop (the last call) */
};

/* Per-batch TLB IPIs: /proc/interrupts held open, buffers allocated once. */
#define SB_KSHOOT_IRQ_BUF (1 << 18)
struct kshoot_ipis {
	int fd;				/* -1: no per-batch count (no row, unreadable) */
	char *buf;
	int *col, max;
	uint64_t *cnt, *before, *after;	/* before/after: per team member */
	uint64_t *pending;		/* the last call's IPIs per member, unclassified */
	bool has_pending;
};

struct sb_kshoot {
	/* request line: written by the initiator once per batch */
	SB_CACHE_ALIGNED uint64_t gen;
	/* the initiator's own state (member 0 runs on the calling thread) */
	SB_CACHE_ALIGNED struct sb_kshoot_cfg cfg;
	char *region;
	size_t pg;
	uint64_t nbatch;		/* batches done: move_pages direction */
	uint64_t calls, timed_cycles, not_present, not_moved;
	int err, bad_status;
	unsigned char *vec;		/* mincore */
	void **pages;			/* move_pages arrays */
	int *nodes, *status;
	int *cpus;
	struct kshoot_resp *resp;	/* threads entries; [0] unused */
	struct kshoot_ipis ipi;
	uint64_t by_ipi, off_mm, missed;	/* responder-batches, this round */
	struct sb_team *team;
	struct sb_team_result last;	/* the last round's (sb_kshoot_last) */
};

size_t sb_kshoot_page_size(void)
{
	long pg = sysconf(_SC_PAGESIZE);

	return pg > 0 ? (size_t)pg : 4096;
}

/* Every page once: a write (faults it back in after MADV_DONTNEED), or a
 * read (mprotect: a write to a read-only page faults). */
static uint64_t touch(const struct sb_kshoot *k)
{
	char *p = k->region;
	uint64_t sum = 0;
	size_t off, len = (size_t)k->cfg.batch * k->pg;

	/* relaxed atomics: several responders touch the same bytes; the
	 * handshake, not these accesses, orders them against the calls */
	if (k->cfg.op == SB_KSHOOT_MADVISE)
		for (off = 0; off < len; off += k->pg)
			__atomic_store_n(&p[off], 1, __ATOMIC_RELAXED);
	else
		for (off = 0; off < len; off += k->pg)
			sum += (unsigned char)__atomic_load_n(&p[off], __ATOMIC_RELAXED);
	return sum;
}

/* The calling thread's context switches: involuntary (preempted: our mm is
 * not loaded there, rightly no shootdown), with all the voluntary ones too
 * (asleep on a migration entry, a fault: its CPU went lazy or idle, and x86
 * flushes it at its next switch instead of by IPI). */
static uint64_t switches(bool all)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru))
		return 0;
	return (uint64_t)ru.ru_nivcsw + (all ? (uint64_t)ru.ru_nvcsw : 0);
}

static uint64_t respond(struct sb_kshoot *k, int tid, const struct sb_round *r)
{
	struct kshoot_resp *me = &k->resp[tid];
	uint64_t seen = me->ack, g, touched = 0, csw = switches(false);
	uint64_t acked = switches(true);

	for (;;) {
		/* acquire: pairs with the initiator's release bump, so its last
		 * invalidation is complete before our touches */
		while ((g = __atomic_load_n(&k->gen, __ATOMIC_ACQUIRE)) == seen) {
			if (sb_round_stopped(r)) {
				/* published by the team's release of our results */
				me->preempted = switches(false) - csw;
				/* its own field: the initiator may still be
				 * classifying the previous call by `switched` */
				me->switched_final = switches(true) - acked;
				return touched;
			}
			sb_cpu_relax();
		}
		/* the window that held the initiator's last call is over */
		me->switched = switches(true) - acked;
		if (!k->cfg.broken_no_touch)
			(void)touch(k);	/* atomic loads: never optimised away */
		touched += k->cfg.batch;
		seen = g;
		acked = switches(true);
		/* release: our touches (and faults) and `switched` happen before
		 * the initiator reads the ack and invalidates */
		__atomic_store_n(&me->ack, g, __ATOMIC_RELEASE);
	}
}

/* Every member's TLB IPIs into dst; false (counting off) when the row is unreadable. */
static bool read_ipis(struct sb_kshoot *k, uint64_t *dst)
{
	struct sb_irq_file f = { k->ipi.fd, k->ipi.buf, SB_KSHOOT_IRQ_BUF, k->ipi.col, k->ipi.cnt,
				 k->ipi.max };
	struct sb_irq_query tlb = { "TLB", k->cpus, k->cfg.threads };
	char err[160];

	if (k->ipi.fd < 0)
		return false;
	if (sb_irq_pread(&f, &tlb, dst, err, sizeof(err)) == 1)
		return true;
	close(k->ipi.fd);
	k->ipi.fd = -1;
	k->ipi.has_pending = false;
	return false;
}

/* The last call, per responder (kshoot.h): by IPI, off the mm, or missed
 * (a flush the TLB row does not count, or none needed). */
static void classify(struct sb_kshoot *k, bool final)
{
	if (!k->ipi.has_pending)
		return;
	for (int i = 1; i < k->cfg.threads; i++) {
		if (k->ipi.pending[i])
			k->by_ipi++;
		else if (final ? k->resp[i].switched_final : k->resp[i].switched)
			k->off_mm++;
		else
			k->missed++;
	}
	k->ipi.has_pending = false;
}

/* Step 1: every responder has used every page since the last invalidation. */
static void request_touch(struct sb_kshoot *k)
{
	uint64_t g;
	int i;

	if (k->cfg.threads == 1) {
		(void)touch(k);
		return;
	}
	g = k->gen + 1;		/* only the initiator writes gen */
	/* release: the previous batch's calls are done before any touch */
	__atomic_store_n(&k->gen, g, __ATOMIC_RELEASE);
	for (i = 1; i < k->cfg.threads; i++)
		/* acquire: pairs with the responder's release of its ack (and
		 * of `switched`, its window over the last call) */
		while (__atomic_load_n(&k->resp[i].ack, __ATOMIC_ACQUIRE) != g)
			sb_cpu_relax();
	classify(k, false);
}

static uint64_t count_absent(struct sb_kshoot *k)
{
	uint64_t absent = 0;

	if (mincore(k->region, (size_t)k->cfg.batch * k->pg, k->vec))
		return k->cfg.batch;
	for (unsigned i = 0; i < k->cfg.batch; i++)
		absent += !(k->vec[i] & 1);
	return absent;
}

static int move_batch(struct sb_kshoot *k)
{
	const unsigned b = k->cfg.batch, step = k->cfg.batched ? b : 1;
	int node = k->nbatch % 2 == 0 ? k->cfg.target : k->cfg.home;
	unsigned i;

	for (i = 0; i < b; i++)
		k->nodes[i] = node;
	for (i = 0; i < b; i += step) {
		k->calls++;
		if (sb_move_pages(step, &k->pages[i], &k->nodes[i], &k->status[i],
				  MPOL_MF_MOVE) < 0)
			return errno;
	}
	return 0;
}

/* Step 3, the timed calls: 0 or the failed call's errno. */
static int invalidate(struct sb_kshoot *k)
{
	const size_t len = (size_t)k->cfg.batch * k->pg, pg = k->cfg.batched ? len : k->pg;
	char *p = k->region;
	size_t off;

	switch (k->cfg.op) {
	case SB_KSHOOT_MADVISE:
		for (off = 0; off < len; off += pg) {
			k->calls++;
			if (madvise(p + off, pg, MADV_DONTNEED))
				return errno;
		}
		return 0;
	case SB_KSHOOT_MPROTECT:
		for (off = 0; off < len; off += pg) {
			k->calls += 2;
			if (mprotect(p + off, pg, PROT_READ) ||
			    mprotect(p + off, pg, PROT_READ | PROT_WRITE))
				return errno;
		}
		return 0;
	case SB_KSHOOT_MOVE_PAGES:
		return move_batch(k);
	}
	return EINVAL;
}

static void check_moved(struct sb_kshoot *k)
{
	int node = k->nbatch % 2 == 0 ? k->cfg.target : k->cfg.home;

	for (unsigned i = 0; i < k->cfg.batch; i++)
		if (k->status[i] != node) {
			k->not_moved++;
			if (k->status[i] < 0)
				k->bad_status = k->status[i];
		}
	k->nbatch++;
}

static uint64_t initiate(struct sb_kshoot *k, const struct sb_round *r)
{
	uint64_t pages = 0, t0;
	int rc;

	do {
		request_touch(k);
		k->not_present += count_absent(k);
		bool counted = k->cfg.threads > 1 && read_ipis(k, k->ipi.before);
		t0 = sb_read_cycles();
		rc = invalidate(k);
		k->timed_cycles += sb_read_cycles() - t0;
		if (counted && read_ipis(k, k->ipi.after)) {
			for (int i = 1; i < k->cfg.threads; i++)
				k->ipi.pending[i] = k->ipi.after[i] - k->ipi.before[i];
			k->ipi.has_pending = true;
		}
		if (rc) {
			k->err = rc;
			sb_round_over(r, r->quota);	/* raises stop: the responders return */
			break;
		}
		if (k->cfg.op == SB_KSHOOT_MOVE_PAGES)
			check_moved(k);
		pages += k->cfg.batch;
	} while (!sb_round_over(r, pages));
	return pages;
}

static uint64_t kshoot_member(int tid, const struct sb_round *r, void *arg)
{
	return tid ? respond(arg, tid, r) : initiate(arg, r);
}

/* Small pages (a one-page call would split a THP), all present; move_pages: at home. */
static int prepare_region(struct sb_kshoot *k, char *err, size_t errlen)
{
	const size_t len = (size_t)k->cfg.batch * k->pg;
	unsigned i;
	long rc;

	madvise(k->region, len, MADV_NOHUGEPAGE);	/* EINVAL without THP: fine */
	if (madvise(k->region, len, MADV_DONTNEED)) {
		snprintf(err, errlen, "madvise(MADV_DONTNEED) on the region: %s", strerror(errno));
		return -1;
	}
	memset(k->region, 1, len);
	if (k->cfg.op != SB_KSHOOT_MOVE_PAGES)
		return 0;
	for (i = 0; i < k->cfg.batch; i++) {
		k->pages[i] = k->region + (size_t)i * k->pg;
		k->nodes[i] = k->cfg.home;
	}
	rc = sb_move_pages(k->cfg.batch, k->pages, k->nodes, k->status, MPOL_MF_MOVE);
	if (rc < 0) {
		snprintf(err, errlen, "move_pages to home node %d: %s", k->cfg.home,
			 sb_move_pages_strerror(errno));
		return -1;
	}
	for (i = 0; i < k->cfg.batch; i++)
		if (k->status[i] != k->cfg.home) {
			snprintf(err, errlen, "move_pages to home node %d: page %u: %s",
				 k->cfg.home, i, sb_page_status_str(k->status[i]));
			return -1;
		}
	return 0;
}

/* Per-batch IPIs, on where /proc/interrupts opens (row checked at first read); -1: oom. */
static int ipis_open(struct kshoot_ipis *p, int threads)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);

	p->max = ncpu > 0 && ncpu < 8192 ? (int)ncpu : 8192;
	p->buf = malloc(SB_KSHOOT_IRQ_BUF);
	p->col = calloc((size_t)p->max, sizeof(*p->col));
	p->cnt = calloc((size_t)p->max, sizeof(*p->cnt));
	p->before = calloc((size_t)threads, sizeof(*p->before));
	p->after = calloc((size_t)threads, sizeof(*p->after));
	p->pending = calloc((size_t)threads, sizeof(*p->pending));
	if (!p->buf || !p->col || !p->cnt || !p->before || !p->after || !p->pending)
		return -1;
	p->fd = open("/proc/interrupts", O_RDONLY | O_CLOEXEC);
	return 0;
}

struct sb_kshoot *sb_kshoot_open(const struct sb_kshoot_cfg *cfg, void *region, char *err,
				 size_t errlen)
{
	struct sb_kshoot *k;

	if (cfg->batch < 1 || cfg->batch > SB_KSHOOT_MAX_BATCH || cfg->threads < 1 ||
	    (unsigned)cfg->op > SB_KSHOOT_MOVE_PAGES) {
		snprintf(err, errlen, "kernel shootdown: bad batch %u or threads %d", cfg->batch,
			 cfg->threads);
		return NULL;
	}
	if (posix_memalign((void **)&k, SB_CACHELINE, sizeof(*k))) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	memset(k, 0, sizeof(*k));
	k->cfg = *cfg;
	k->region = region;
	k->pg = sb_kshoot_page_size();
	k->vec = calloc(cfg->batch, 1);
	k->pages = calloc(cfg->batch, sizeof(*k->pages));
	k->nodes = calloc(cfg->batch, sizeof(*k->nodes));
	k->status = calloc(cfg->batch, sizeof(*k->status));
	/* a whole number of lines: SB_CACHE_ALIGNED */
	k->resp = aligned_alloc(SB_CACHELINE, sizeof(*k->resp) * cfg->threads);
	k->cpus = cfg->cpus ? malloc(sizeof(int) * cfg->threads) : NULL;
	k->ipi.fd = -1;
	if (!k->vec || !k->pages || !k->nodes || !k->status || !k->resp ||
	    (cfg->cpus && !k->cpus) ||
	    (k->cpus && cfg->threads > 1 && ipis_open(&k->ipi, cfg->threads))) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	memset(k->resp, 0, sizeof(*k->resp) * cfg->threads);
	if (k->cpus)
		memcpy(k->cpus, cfg->cpus, sizeof(int) * cfg->threads);
	k->cfg.cpus = k->cpus;
	if (prepare_region(k, err, errlen))
		goto fail;
	k->team = sb_team_create(cfg->threads, k->cpus, kshoot_member, k, err, errlen);
	if (!k->team)
		goto fail;
	return k;
fail:
	sb_kshoot_close(k);
	return NULL;
}

static uint64_t tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000u + (uint64_t)tv->tv_usec * 1000u;
}

static void irq_snap_read(const struct sb_kshoot *k, struct irq_snap *s, char *err,
			  size_t errlen)
{
	for (int row = 0; row < SB_IRQ_NROWS; row++)
		s->has[row] = sb_irq_read(row_names[row], k->cpus, k->cpus ? k->cfg.threads : 0,
					  &s->team[row], &s->all[row], err, errlen);
}

void sb_kshoot_round(struct sb_kshoot *k, uint64_t pages, struct sb_kshoot_result *res)
{
	struct sb_team_result tr;
	struct rusage ru0, ru1;
	struct irq_snap before, after;
	char err[sizeof(res->irq_err)] = "";
	int i;

	k->calls = k->timed_cycles = k->not_present = k->not_moved = 0;
	k->by_ipi = k->off_mm = k->missed = 0;
	k->err = k->bad_status = 0;
	/* the IRQ reads and rusage bracket the round only, outside each other */
	irq_snap_read(k, &before, err, sizeof(err));
	getrusage(RUSAGE_SELF, &ru0);
	sb_team_run(k->team, pages, &tr);
#ifndef SB_TEST_NO_KERNEL_USE	/* tests/test_preempt.c's broken fixture: none kept */
	k->last = tr;
#endif
	classify(k, true);	/* the round's last call: the responders' final windows */
	getrusage(RUSAGE_SELF, &ru1);
	irq_snap_read(k, &after, err, sizeof(err));
	for (i = 0; i < SB_IRQ_NROWS; i++) {
		bool has = before.has[i] == 1 && after.has[i] == 1;

		if (before.has[i] < 0 || after.has[i] < 0)
			snprintf(res->irq_err, sizeof(res->irq_err), "%s", err);
		/* a row counts only if every round had it */
		res->has_irq[i] = has && (res->rounds == 0 || res->has_irq[i]);
		if (has) {
			res->irq[i] += after.team[i] - before.team[i];
			res->irq_all[i] += after.all[i] - before.all[i];
		}
	}
	res->user_ns += tv_ns(&ru1.ru_utime) - tv_ns(&ru0.ru_utime);
	res->sys_ns += tv_ns(&ru1.ru_stime) - tv_ns(&ru0.ru_stime);
	res->pages += tr.ops[0];
	res->calls += k->calls;
	res->timed_ns += (uint64_t)((double)k->timed_cycles / sb_cycles_per_ns());
	res->elapsed_ns += tr.elapsed_ns;
	res->rounds++;
	for (i = 1; i < k->cfg.threads; i++) {
		res->touches += tr.ops[i];	/* responders count their page touches */
		res->responder_csw += k->resp[i].preempted;
	}
	res->not_present += k->not_present;
	res->not_moved += k->not_moved;
	res->resp_by_ipi += k->by_ipi;
	res->resp_off_mm += k->off_mm;
	res->resp_missed += k->missed;
	if (k->err)
		res->err = k->err;
	if (k->bad_status)
		res->bad_status = k->bad_status;
}

void sb_kshoot_close(struct sb_kshoot *k)
{
	if (!k)
		return;
	sb_team_destroy(k->team);
	if (k->ipi.fd >= 0)
		close(k->ipi.fd);
	free(k->ipi.buf);
	free(k->ipi.col);
	free(k->ipi.cnt);
	free(k->ipi.before);
	free(k->ipi.after);
	free(k->ipi.pending);
	free(k->vec);
	free(k->pages);
	free(k->nodes);
	free(k->status);
	free(k->resp);
	free(k->cpus);
	free(k);
}

void sb_kshoot_unavailable(const struct sb_kshoot_result *res, char *buf, size_t len)
{
	*buf = '\0';
	if (res->irq_err[0]) {
		snprintf(buf, len, "irqs: unavailable (%s)", res->irq_err);
		return;
	}
	for (int row = 0; row < SB_IRQ_NROWS; row++)
		if (!res->has_irq[row])
			snprintf(buf + strlen(buf), len - strlen(buf),
				 "%s%s_irqs: unavailable (no %s row in /proc/interrupts on this "
				 "architecture)", *buf ? "; " : "", row == SB_IRQ_TLB ? "tlb" : "cal",
				 row_names[row]);
}

struct sb_team *sb_kshoot_team(struct sb_kshoot *k)
{
	return k->team;
}

const struct sb_team_result *sb_kshoot_last(const struct sb_kshoot *k)
{
	return &k->last;
}
