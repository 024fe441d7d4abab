/* test_shootdown_kernel — the real-kernel shootdown engine and its helpers.
 * Everywhere: the label (an absent TLB row is unavailable, never 0),
 * move_pages(2) argument handling and error
 * lines, the target node on synthetic 2- and 4-node topologies, the engine
 * running move_pages on one node and refusing bad arguments.  With 2 CPUs:
 * real TLB shootdowns counted in /proc/interrupts — immediate madvise and
 * mprotect with a pinned responder send them, batched sends fewer per page,
 * no responder sends none, and a responder that acknowledges without
 * touching (broken fixture) leaves pages unmapped and sends none: the
 * checks above can fail.  The IRQ checks are judged only where a control
 * (tlb_control.h, with its own broken fixture) saw this kernel send TLB
 * IPIs, and only on rounds whose responder stayed on its CPU (retried, a
 * bounded number of rounds); otherwise they are skipped and the test exits
 * 77 with the reason: a kernel that flushes without IPIs (a PVM guest), or
 * a machine too busy to show them.  With 1 CPU the IRQ part is skipped (77). */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <linux/mempolicy.h>

#include "drivers/kshoot.h"
#include "machine/kmm.h"
#include "machine/procfs.h"

#include "check.h"
#include "tlb_control.h"

/* The label: an absent row is unavailable, never 0 (the parser itself,
 * sb_irq_sum on x86 and POWER text, is test_procfs's). */
static void test_label(void)
{
	struct sb_kshoot_result res;
	char label[512];

	memset(&res, 0, sizeof(res));
	res.has_irq[SB_IRQ_CAL] = true;		/* as on POWER */
	sb_kshoot_unavailable(&res, label, sizeof(label));
	CHECK(strcmp(label, "tlb_irqs: unavailable (no TLB row in /proc/interrupts on this "
		     "architecture)") == 0, "label: %s", label);
	res.has_irq[SB_IRQ_TLB] = true;
	sb_kshoot_unavailable(&res, label, sizeof(label));
	CHECK(!*label, "no label when both rows exist: %s", label);
	snprintf(res.irq_err, sizeof(res.irq_err), "cannot read /proc/interrupts: EACCES");
	sb_kshoot_unavailable(&res, label, sizeof(label));
	CHECK(strstr(label, "irqs: unavailable (cannot read") == label, "label: %s", label);
}

static void test_move_pages_args(void)
{
	const size_t pg = sb_kshoot_page_size();
	char *p = mmap(NULL, 3 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct sb_topo *t = NULL, *two = NULL, *four = NULL;
	int status[2] = { 99, 99 }, node, missing, i;
	void *pages[2];
	char err[256], why[128];
	long rc;

	CHECK(p != MAP_FAILED, "mmap");
	CHECK(sb_topo_load(&t, NULL, err, sizeof(err)) == 0, "%s", err);
	p[0] = 1;			/* page 0 present, page 1 never touched */
	munmap(p + 2 * pg, pg);		/* page 2 not mapped at all */
	pages[0] = p;

	/* query: where is the page? on a node of this machine */
	rc = sb_move_pages(1, pages, NULL, status, 0);
	CHECK(rc == 0 && status[0] >= 0 && sb_topo_has_node(t, status[0]),
	      "query: rc %ld status %d", rc, status[0]);
	/* moving it to the node it is on is legal, even with one node */
	node = status[0];
	rc = sb_move_pages(1, pages, &node, status, MPOL_MF_MOVE);
	CHECK(rc == 0 && status[0] == node, "move to its own node: rc %ld status %d", rc,
	      status[0]);
	/* a node the machine does not have: ENODEV, named in one line */
	for (missing = 0; sb_topo_has_node(t, missing); missing++)
		;
	errno = 0;
	rc = sb_move_pages(1, pages, &missing, status, MPOL_MF_MOVE);
	CHECK(rc == -1 && errno == ENODEV, "missing node %d: rc %ld errno %d", missing, rc, errno);
	CHECK(strstr(sb_move_pages_strerror(ENODEV), "(ENODEV)") != NULL, "ENODEV line");
	node = -1;
	errno = 0;
	rc = sb_move_pages(1, pages, &node, status, MPOL_MF_MOVE);
	CHECK(rc == -1 && errno == ENODEV, "node -1: rc %ld errno %d", rc, errno);
	CHECK(strstr(sb_move_pages_strerror(EACCES), "cpuset") != NULL, "EACCES line");
	CHECK(strstr(sb_move_pages_strerror(12345), "unexpected") != NULL, "unknown errno line");
	/* per-page statuses: never touched (ENOENT; EFAULT on kernels whose
	 * query used follow_page(FOLL_DUMP), Debian's 6.1 among them: seen in
	 * the lab guest), not mapped */
	pages[0] = p + pg;
	pages[1] = p + 2 * pg;
	status[0] = status[1] = 99;
	rc = sb_move_pages(2, pages, NULL, status, 0);
	CHECK(rc == 0 && (status[0] == -ENOENT || status[0] == -EFAULT) && status[1] == -EFAULT,
	      "statuses: rc %ld %d %d", rc, status[0], status[1]);
	CHECK(strstr(sb_page_status_str(-ENOENT), "not present") &&
	      strstr(sb_page_status_str(-EFAULT), "not mapped") &&
	      strstr(sb_page_status_str(-EBUSY), "busy"), "status lines");

	/* the target node: first other node; none on one node, said why */
	CHECK(sb_topo_load(&two, "synthetic:pack:2 numa:1 core:2 pu:1", err, sizeof(err)) == 0,
	      "%s", err);
	CHECK(sb_topo_load(&four, "synthetic:pack:2 numa:2 core:2 pu:1", err, sizeof(err)) == 0,
	      "%s", err);
	CHECK(sb_move_target(two, 0) == 1 && sb_move_target(two, 1) == 0, "2 nodes: 0<->1");
	CHECK(sb_move_target(four, 3) == 0 && sb_move_target(four, 0) == 1, "4 nodes");
	CHECK(sb_move_pages_unavailable(two, why, sizeof(why)) == NULL, "2 nodes suffice");
	if (sb_topo_nnodes(t) == 1) {
		CHECK(sb_move_target(t, sb_topo_node_os(t, 0)) == -1, "1 node: no target");
		CHECK(sb_move_pages_unavailable(t, why, sizeof(why)) &&
		      strcmp(why, "this machine has 1 NUMA node, needs 2") == 0, "why: %s", why);
	}
	for (i = 0; i < 2; i++)	/* the engine: move_pages to the node the pages are on */
	{
		struct sb_kshoot_cfg cfg = {
			.op = SB_KSHOOT_MOVE_PAGES, .batched = i, .batch = 8, .threads = 1,
			.home = sb_topo_node_os(t, 0), .target = sb_topo_node_os(t, 0),
		};
		char *r = mmap(NULL, 8 * pg, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		struct sb_kshoot_result res = { 0 };
		struct sb_kshoot *k = sb_kshoot_open(&cfg, r, err, sizeof(err));

		CHECK(k != NULL, "open move_pages engine: %s", err);
		if (k) {
			sb_kshoot_round(k, 20, &res);
			CHECK(res.pages == 24 && res.err == 0 && res.not_moved == 0,
			      "move_pages %s: pages %llu err %d not_moved %llu",
			      i ? "batched" : "immediate", (unsigned long long)res.pages, res.err,
			      (unsigned long long)res.not_moved);
			CHECK(res.calls == (i ? 3u : 24u), "calls %llu",
			      (unsigned long long)res.calls);
			sb_kshoot_close(k);
		}
		/* a missing target: the round stops with ENODEV */
		cfg.target = missing;
		memset(&res, 0, sizeof(res));
		k = sb_kshoot_open(&cfg, r, err, sizeof(err));
		if (k) {
			sb_kshoot_round(k, 20, &res);
			CHECK(res.err == ENODEV && res.pages == 0, "missing target: err %d", res.err);
			sb_kshoot_close(k);
		}
		munmap(r, 8 * pg);
	}
	{	/* bad arguments refused */
		struct sb_kshoot_cfg cfg = { .op = SB_KSHOOT_MADVISE, .batch = 513, .threads = 1 };

		CHECK(sb_kshoot_open(&cfg, p, err, sizeof(err)) == NULL && strstr(err, "batch"),
		      "batch 513 refused");
		cfg.batch = 0;
		CHECK(sb_kshoot_open(&cfg, p, err, sizeof(err)) == NULL, "batch 0 refused");
	}
	munmap(p, 2 * pg);
	sb_topo_destroy(t);
	sb_topo_destroy(two);
	sb_topo_destroy(four);
}

/* One round of one configuration on CPUs cpus[0..threads). */
struct meas {
	double per_page;	/* TLB IRQs per page */
	uint64_t not_present;	/* pages found unmapped before invalidation */
	uint64_t csw;		/* the responder's preemptions */
	uint64_t resp[3];	/* responder-batches by IPI, off the mm, missed */
	uint64_t batches;	/* responder-batches */
	bool on_cpu;		/* judged: the responder stayed on its CPU enough */
	int attempts;		/* rounds run to get it */
	uint64_t least_off;	/* fewest batches off the mm over those rounds */
};

static bool tlb_round(enum sb_kshoot_op op, bool batched, unsigned batch, int threads,
		      const int *cpus, bool broken, bool all_cpus, struct meas *m)
{
	const size_t pg = sb_kshoot_page_size();
	struct sb_kshoot_cfg cfg = {
		.op = op, .batched = batched, .batch = batch, .threads = threads, .cpus = cpus,
		.broken_no_touch = broken,
	};
	char *r = mmap(NULL, batch * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);
	struct sb_kshoot_result res = { 0 };
	struct sb_kshoot *k;
	char err[256];

	k = sb_kshoot_open(&cfg, r, err, sizeof(err));
	CHECK(k != NULL, "open: %s", err);
	if (!k)
		return false;
	sb_kshoot_round(k, 512, &res);
	sb_kshoot_close(k);
	munmap(r, batch * pg);
	CHECK(res.err == 0 && res.pages >= 512, "round: err %d pages %llu", res.err,
	      (unsigned long long)res.pages);
	CHECK(res.has_irq[SB_IRQ_TLB] || !res.irq_err[0], "IRQs readable: %s", res.irq_err);
	m->not_present = res.not_present;
	m->csw = res.responder_csw;
	m->resp[0] = res.resp_by_ipi;
	m->resp[1] = res.resp_off_mm;
	m->resp[2] = res.resp_missed;
	m->batches = res.pages / batch * (uint64_t)(threads - 1);
	m->per_page = (double)(all_cpus ? res.irq_all[SB_IRQ_TLB] : res.irq[SB_IRQ_TLB]) /
		      (double)res.pages;
	return true;
}

/* A preempted (or sleeping) responder's CPU runs another mm, and the kernel
 * rightly sends it no shootdown: on a loaded machine (ctest -j, other
 * builds) a whole round can fall in the responder's off-CPU slices (seen:
 * 0.004 per page at batch 32 with two pinned spinners).  So a round is
 * judged only when its responder was on its CPU, in our mm, for enough of
 * its responder-batches (kshoot counts those whose window held a switch,
 * "off the mm"): 3/4 where a check wants most pages flushed by IPI; 1/4 at
 * batch 32, whose comparison holds from there (immediate sends ~32 IPIs per
 * batch on the mm, batched ~1: it would take batched on 8 times as many
 * batches to fail it), and whose long windows (32 calls) a busy machine
 * rarely leaves whole.  The round is run again until one is judged, at most
 * SB_ATTEMPTS rounds; if none is, its IRQ checks are skipped and the test
 * exits 77 saying so, never passes.  Counted in rounds, never wall time. */
#define SB_ATTEMPTS 8

static const char *busy_what;	/* the first measurement never judged */
static struct meas busy_m;
static unsigned busy_quarters;

static bool tlb_measure(const char *what, enum sb_kshoot_op op, bool batched, unsigned batch,
			int threads, const int *cpus, bool broken, bool all_cpus, int attempts,
			unsigned on_quarters, struct meas *m)
{
	memset(m, 0, sizeof(*m));
	m->least_off = UINT64_MAX;
	for (int i = 1; i <= attempts; i++) {
		if (!tlb_round(op, batched, batch, threads, cpus, broken, all_cpus, m))
			return false;
		m->attempts = i;
		if (m->resp[1] < m->least_off)
			m->least_off = m->resp[1];
		if (getenv("SB_TEST_VERBOSE"))
			fprintf(stderr, "%s: attempt %d: off the mm %llu of %llu, preempted %llu, "
				"%.3f per page\n", what, i, (unsigned long long)m->resp[1],
				(unsigned long long)m->batches, (unsigned long long)m->csw,
				m->per_page);
		/* on_quarters/4 of the batches on the mm (none to judge without
		 * a responder) */
		m->on_cpu = (m->batches - m->resp[1]) * 4 >= m->batches * on_quarters;
		if (m->on_cpu)
			return true;
	}
	if (!busy_what) {
		busy_what = what;
		busy_m = *m;
		busy_quarters = on_quarters;
	}
	return true;
}

/* Under TSan the runtime's own background thread runs in this mm and its
 * shadow-memory calls flush TLBs: IRQ counts are not this test's to assert
 * there, but the handshake still runs (for races) and is checked. */
#if defined(__SANITIZE_THREAD__)
#define SB_IRQS_ASSERTED 0
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define SB_IRQS_ASSERTED 0
#endif
#endif
#ifndef SB_IRQS_ASSERTED
#define SB_IRQS_ASSERTED 1
#endif

/* The IRQ checks: asserted where the control saw this kernel send TLB IPIs
 * (tlb_control.h) and on rounds judged (tlb_measure); otherwise skipped,
 * and main's exit 77 says why. */
static bool irqs_judged;

#define CHECK_IRQS(m, cond, ...) CHECK(!SB_IRQS_ASSERTED || !irqs_judged || !(m).on_cpu || \
				       (cond), __VA_ARGS__)

static int test_real_irqs(void)
{
	int cpus[2], n = 0, c, tries;
	uint64_t team, all;
	struct meas imm, imm32, bat, alone, broken, mprot;
	enum tlb_verdict verdict;
	char err[256] = "", why[512];
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) == 0)
		for (c = 0; c < CPU_SETSIZE && n < 2; c++)
			if (CPU_ISSET(c, &set))
				cpus[n++] = c;
	if (n < 2) {
		printf("test_shootdown_kernel: real TLB IRQs skipped: needs 2 CPUs, has %d\n", n);
		return 77;
	}
	if (sb_irq_read("TLB", cpus, 2, &team, &all, err, sizeof(err)) != 1) {
		printf("test_shootdown_kernel: real TLB IRQs skipped: no TLB row in "
		       "/proc/interrupts here%s%s\n", *err ? ": " : "", err);
		return 77;
	}
	/* does this kernel send them, and can this machine show it? */
	verdict = tlb_control(cpus, false, why, sizeof(why));
	CHECK(verdict != TLB_BROKEN, "the TLB control: %s", why);
	{	/* its broken fixture (no touch) fails, never skips */
		char fwhy[512];
		enum tlb_verdict fv = tlb_control(cpus, true, fwhy, sizeof(fwhy));

		CHECK(fv == TLB_BROKEN, "the TLB control's broken fixture caught (verdict %d: %s)",
		      (int)fv, fwhy);
	}
	irqs_judged = verdict == TLB_IPIS;
	/* with nothing to judge, one round each: the other checks still hold */
	tries = irqs_judged && SB_IRQS_ASSERTED ? SB_ATTEMPTS : 1;
	/* batch 1: each call follows the responder's ack, so it is running in
	 * our mm; ~1 per page when quiet (a preempted responder's CPU is
	 * rightly skipped by the kernel): a low bar, far above 0 */
	if (!tlb_measure("immediate madvise", SB_KSHOOT_MADVISE, false, 1, 2, cpus, false, false,
			 tries, 3, &imm))
		return 1;
	CHECK(imm.not_present == 0, "immediate: %llu pages unmapped before invalidation",
	      (unsigned long long)imm.not_present);
	CHECK_IRQS(imm, imm.per_page > 0.5, "immediate madvise with a responder: %.3f TLB IRQs "
		   "per page (responder preempted %llu times, off the mm in %llu of %llu "
		   "batches)", imm.per_page, (unsigned long long)imm.csw,
		   (unsigned long long)imm.resp[1], (unsigned long long)imm.batches);
	/* every responder-batch classified once; mostly by IPI */
	CHECK_IRQS(imm, imm.resp[0] + imm.resp[1] + imm.resp[2] == imm.batches &&
		   imm.resp[0] * 2 > imm.batches, "immediate: responder-batches by IPI %llu, "
		   "off the mm %llu, missed %llu of %llu", (unsigned long long)imm.resp[0],
		   (unsigned long long)imm.resp[1], (unsigned long long)imm.resp[2],
		   (unsigned long long)imm.batches);
	if (!tlb_measure("immediate mprotect", SB_KSHOOT_MPROTECT, false, 1, 2, cpus, false, false,
			 tries, 3, &mprot))
		return 1;
	CHECK(mprot.not_present == 0, "mprotect: %llu pages unmapped",
	      (unsigned long long)mprot.not_present);
	CHECK_IRQS(mprot, mprot.per_page > 0.5, "immediate mprotect: %.3f per page (responder "
		   "preempted %llu times, off the mm in %llu of %llu batches)", mprot.per_page,
		   (unsigned long long)mprot.csw, (unsigned long long)mprot.resp[1],
		   (unsigned long long)mprot.batches);
	/* batch 32: one call per page vs one per batch (an IPI count, not time) */
	if (!tlb_measure("batch 32 immediate", SB_KSHOOT_MADVISE, false, 32, 2, cpus, false, false,
			 tries, 1, &imm32) ||
	    !tlb_measure("batch 32 batched", SB_KSHOOT_MADVISE, true, 32, 2, cpus, false, false,
			 tries, 1, &bat))
		return 1;
	CHECK(bat.not_present == 0, "batched: %llu pages unmapped",
	      (unsigned long long)bat.not_present);
	bat.on_cpu = bat.on_cpu && imm32.on_cpu;	/* a comparison: both judged */
	CHECK_IRQS(bat, bat.per_page > 0 && bat.per_page < imm32.per_page / 4, "batched %.4f vs "
		   "immediate %.4f TLB IRQs per page at batch 32 (responder preempted %llu and "
		   "%llu times)", bat.per_page, imm32.per_page, (unsigned long long)bat.csw,
		   (unsigned long long)imm32.csw);
	/* no responder: nothing remote to shoot down (all CPUs counted) */
	if (!tlb_measure("no responder", SB_KSHOOT_MADVISE, false, 1, 1, cpus, false, true, 1,
			 0, &alone))
		return 1;
	CHECK_IRQS(alone, alone.per_page < 0.05, "no responder: %.4f TLB IRQs per page",
		   alone.per_page);
	/* broken fixture: acks without touching, pages stay unmapped, no IPIs:
	 * what the checks above must catch, on a round judged as they are */
	if (!tlb_measure("broken responder", SB_KSHOOT_MADVISE, false, 1, 2, cpus, true, false,
			 tries, 3, &broken))
		return 1;
	CHECK(broken.not_present > 0, "broken responder: unmapped pages detected (%llu)",
	      (unsigned long long)broken.not_present);
	CHECK_IRQS(broken, broken.per_page <= 0.5, "broken responder fails the immediate check: "
		   "%.3f per page", broken.per_page);
	/* nothing mapped, nothing to flush: the classification says missed */
	CHECK_IRQS(broken, broken.resp[2] * 2 > broken.batches, "broken responder: missed %llu "
		   "of %llu responder-batches (by IPI %llu)", (unsigned long long)broken.resp[2],
		   (unsigned long long)broken.batches, (unsigned long long)broken.resp[0]);
	printf("test_shootdown_kernel: TLB IRQs per page: immediate %.3f, mprotect %.3f, "
	       "batch 32 immediate %.3f batched %.4f, no responder %.4f, broken responder "
	       "%.3f; rounds run to judge each: %d %d %d %d %d%s\n",
	       imm.per_page, mprot.per_page, imm32.per_page, bat.per_page, alone.per_page,
	       broken.per_page, imm.attempts, mprot.attempts, imm32.attempts, bat.attempts,
	       broken.attempts, SB_IRQS_ASSERTED ? "" : " (not asserted under TSan: its runtime "
	       "thread shares this mm)");
	if (verdict == TLB_NONE || verdict == TLB_BUSY) {
		printf("test_shootdown_kernel: real TLB IRQs skipped: %s\n", why);
		return 77;
	}
	if (SB_IRQS_ASSERTED && busy_what) {
		printf("test_shootdown_kernel: real TLB IRQs skipped: %s: the responder was off its "
		       "CPU in more than %u/4 of the %llu batches in each of %d rounds (fewest: "
		       "%llu): the machine is too busy to send IPIs\n", busy_what,
		       4 - busy_quarters, (unsigned long long)busy_m.batches, busy_m.attempts,
		       (unsigned long long)busy_m.least_off);
		return 77;
	}
	return 0;
}

int main(void)
{
	int rc;

	test_label();
	test_move_pages_args();
	rc = test_real_irqs();
	if (check_done("test_shootdown_kernel"))
		return 1;
	return rc;
}
