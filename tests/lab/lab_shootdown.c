/* lab_shootdown.c — the kernel's TLB-shootdown paths, exercised for real in
 * the lab: responders pinned on every other CPU keep reading a set of pages
 * (their TLBs hold the translations) while the initiator
 *
 *   lab_shootdown move_pages [PAGES]  moves the pages to another NUMA node one
 *                                     call per page (immediate), back in one
 *                                     call (batched), then once more with no
 *                                     responders (control)
 *   lab_shootdown madvise [PAGES]     zaps them with MADV_DONTNEED one page per
 *                                     call (immediate), the whole range in one
 *                                     call (batched), and with no responders
 *
 * and counts the TLB-shootdown IPIs each CPU received (the TLB row of
 * /proc/interrupts) and each responder's context switches during the call:
 * a responder with no IPI that switched (slept on a migration entry, or was
 * preempted) was off the mm, its CPU lazy or idle, and x86 rightly skipped
 * it (it is flushed at its next switch); one with neither was missed.  It
 * checks: every page ends on the node asked for and keeps its data; with
 * responders, every responder CPU (on every package) receives IPIs, up to
 * one per page when the initiator flushes page by page; batching sends
 * fewer (madvise; move_pages from Linux 6.3, which flushes a batched
 * migration once per call, where 6.1 still flushes every page) and misses
 * no responder; without responders the other CPUs receive almost none
 * (the control that shows the counts come from the responders).
 * LAB_SHOOTDOWN_BREAK=uncounted is the broken fixture: every IPI count
 * reads 0, as if the TLB row missed flushes, and the checks must fail.
 * Exit 0 pass, 1 fail, 77 skipped (prints "skipped: REASON"), 2 usage.
 */
#include <errno.h>
#include <linux/mempolicy.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#define MAXCPU 256

static int ncpu, cpus[MAXCPU];		/* online CPUs we may run on */
static int init_cpu;			/* the initiator's CPU: cpus[0] */
static char *area;
static long psz;
static int npages;

struct responder {
	pthread_t thread;
	int cpu;
	pid_t tid;			/* written by the responder before `ready` */
	uint64_t reads;			/* written by the responder, read after join */
	uint64_t bad;			/* reads that found another page's data */
};
static struct responder resp[MAXCPU];
static int nresp;
static int stop, ready;
static bool check_data;		/* move_pages keeps data: responders verify it */
static bool uncounted;		/* broken fixture: the TLB row counts no IPI */
static int failed;

#define FAIL(...) do { printf("  FAILED: " __VA_ARGS__); putchar('\n'); failed++; } while (0)
#define PASS(...) do { printf("  ok: " __VA_ARGS__); putchar('\n'); } while (0)

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

static int node_of_cpu(int cpu)
{
	char path[128];
	int n;

	for (n = 0; n < 1024; n++) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/node%d", cpu, n);
		if (access(path, F_OK) == 0)
			return n;
	}
	return -1;
}

static int package_of_cpu(int cpu)
{
	char path[128];
	FILE *f;
	int p = -1;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/physical_package_id",
		 cpu);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%d", &p) != 1)
			p = -1;
		fclose(f);
	}
	return p;
}

/* The TLB row of /proc/interrupts into tlb[cpu]; false if there is none. */
static bool read_tlb(uint64_t *tlb)
{
	char line[8192], *s, *end;
	int col[MAXCPU], ncol = 0, i;
	FILE *f = fopen("/proc/interrupts", "r");
	bool found = false;

	if (!f)
		return false;
	memset(tlb, 0, sizeof(*tlb) * MAXCPU);
	if (fgets(line, sizeof(line), f))	/* header: CPU0 CPU1 ... (online CPUs) */
		for (s = strstr(line, "CPU"); s && ncol < MAXCPU; s = strstr(s, "CPU")) {
			col[ncol++] = (int)strtol(s + 3, &end, 10);
			s = end;
		}
	while (fgets(line, sizeof(line), f)) {
		s = line + strspn(line, " ");
		if (strncmp(s, "TLB:", 4))
			continue;
		s += 4;
		for (i = 0; i < ncol; i++) {
			unsigned long long v = strtoull(s, &end, 10);

			if (end == s)
				break;
			if (col[i] >= 0 && col[i] < MAXCPU)
				tlb[col[i]] = v;
			s = end;
		}
		found = i == ncol;
	}
	fclose(f);
	return found;
}

static void *responder(void *arg)
{
	struct responder *r = arg;
	uint64_t reads = 0, bad = 0;
	int i;

	if (pin(r->cpu))
		return NULL;
	r->tid = (pid_t)syscall(SYS_gettid);
	/* release: the creator sees this thread pinned before it starts a phase */
	__atomic_fetch_add(&ready, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		for (i = 0; i < npages; i++) {
			int v = *(volatile int *)(area + (size_t)i * psz);

			if (check_data && v != i + 1)
				bad++;
			reads++;
		}
	}
	r->reads = reads;
	r->bad = bad;
	return NULL;
}

static void start_responders(void)
{
	int i;

	__atomic_store_n(&stop, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&ready, 0, __ATOMIC_RELAXED);
	for (i = 0; i < nresp; i++)
		pthread_create(&resp[i].thread, NULL, responder, &resp[i]);
	/* acquire: pairs with each responder's release once pinned */
	while (__atomic_load_n(&ready, __ATOMIC_ACQUIRE) != nresp)
		sched_yield();
	usleep(20000);		/* let every responder map every page */
}

static void stop_responders(const char *phase)
{
	int i;

	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < nresp; i++) {
		pthread_join(resp[i].thread, NULL);
		if (!resp[i].reads)
			FAIL("%s: responder on CPU %d made no progress", phase, resp[i].cpu);
		if (resp[i].bad)
			FAIL("%s: responder on CPU %d read wrong data %llu times", phase, resp[i].cpu,
			     (unsigned long long)resp[i].bad);
	}
}

static long move_pages(unsigned long count, void **pages, const int *nodes, int *status)
{
	return syscall(SYS_move_pages, 0, count, pages, nodes, status, MPOL_MF_MOVE);
}

/* Every page on node `want`, asked with move_pages(nodes=NULL). */
static bool pages_on(int want, const char *phase)
{
	void *pages[4096];
	int status[4096], i, off = 0;

	for (i = 0; i < npages; i++)
		pages[i] = area + (size_t)i * psz;
	if (syscall(SYS_move_pages, 0, npages, pages, NULL, status, 0)) {
		FAIL("%s: move_pages query: %s", phase, strerror(errno));
		return false;
	}
	for (i = 0; i < npages; i++)
		if (status[i] != want)
			off++;
	if (off)
		FAIL("%s: %d of %d pages not on node %d (first: %d)", phase, off, npages, want,
		     status[0]);
	return off == 0;
}

/* moves pages to node: one call per page, or all in one call.  A page the
 * kernel could not move this time (busy: a responder faulting on it holds a
 * reference) is retried on its own; what still fails is reported. */
static void do_move(int node, bool per_page, const char *phase)
{
	void *pages[4096];
	int nodes[4096], status[4096], i, try, bad = 0, retried = 0, last = 0;

	for (i = 0; i < npages; i++) {
		pages[i] = area + (size_t)i * psz;
		nodes[i] = node;
		status[i] = -1;
	}
	if (per_page) {
		for (i = 0; i < npages; i++)
			move_pages(1, &pages[i], &nodes[i], &status[i]);
	} else {
		move_pages(npages, pages, nodes, status);	/* > 0: pages not moved */
	}
	for (i = 0; i < npages; i++) {
		for (try = 0; status[i] != node && try < 10; try++) {
			retried++;
			usleep(1000);
			move_pages(1, &pages[i], &nodes[i], &status[i]);
		}
		if (status[i] != node) {
			bad++;
			last = status[i];
		}
	}
	if (retried)
		printf("  note: %s: %d page moves retried (busy)\n", phase, retried);
	if (bad)
		FAIL("%s: %d pages could not be moved to node %d (last status %d: %s)", phase, bad,
		     node, last, last < 0 ? strerror(-last) : "other node");
}

/* Something to zap: present, dirty pages.  Done before the responders start:
 * with them running, replacing each zero-page mapping they read would itself
 * send an IPI per page and blur the batched count. */
static void populate(void)
{
	int i;

	for (i = 0; i < npages; i++)
		area[(size_t)i * psz] = 1;
}

static void do_zap(bool per_page, const char *phase)
{
	int i;

	if (per_page) {
		for (i = 0; i < npages; i++)
			if (madvise(area + (size_t)i * psz, psz, MADV_DONTNEED))
				FAIL("%s: madvise: %s", phase, strerror(errno));
	} else if (madvise(area, (size_t)npages * psz, MADV_DONTNEED)) {
		FAIL("%s: madvise: %s", phase, strerror(errno));
	}
}

struct phase {
	const char *name;
	bool responders;
	uint64_t ipis[MAXCPU];		/* TLB IPIs received during the phase, per CPU */
	uint64_t csw[MAXCPU];		/* per responder: its context switches in it */
};

/* A thread's context switches so far (voluntary + involuntary), from
 * /proc/self/task/TID/status; 0 if unreadable. */
static uint64_t switches_of(pid_t tid)
{
	char path[64], line[128];
	unsigned long long v, sum = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/status", (int)tid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "voluntary_ctxt_switches: %llu", &v) == 1 ||
		    sscanf(line, "nonvoluntary_ctxt_switches: %llu", &v) == 1)
			sum += v;
	fclose(f);
	return sum;
}

/* How a responder was flushed in the phase: by IPI; or, with none, off the
 * mm (it switched: asleep or preempted) or missed (on the mm all along). */
static const char *flushed_how(const struct phase *p, int r)
{
	if (p->ipis[resp[r].cpu])
		return "ipi";
	return p->csw[r] ? "off-mm" : "missed";
}

static void print_phase(const struct phase *p)
{
	int i;

	printf("  %-10s %-10s TLB IPIs:", p->name, p->responders ? "responders" : "alone");
	for (i = 0; i < ncpu; i++)
		printf(" cpu%d=%llu", cpus[i], (unsigned long long)p->ipis[cpus[i]]);
	printf("\n");
	if (!p->responders)
		return;
	printf("  %-10s %-10s flushed:", p->name, "responders");
	for (i = 0; i < nresp; i++)
		printf(" cpu%d=%s(%llu csw)", resp[i].cpu, flushed_how(p, i),
		       (unsigned long long)p->csw[i]);
	printf("\n");
}

/* "lab_shootdown: PHASE begin|end" into the trace (tracefs' trace_marker,
 * when mounted and writable), so a trace of the run (tests/lab/ipi-trace.sh)
 * splits by phase */
static void mark(const char *phase, const char *what)
{
	FILE *f = fopen("/sys/kernel/tracing/trace_marker", "w");

	if (f) {
		fprintf(f, "lab_shootdown: %s %s\n", phase, what);
		fclose(f);
	}
}

/* runs op with or without responders, recording each CPU's TLB IPIs; prep
 * (if any) runs first, alone */
static void run_phase(struct phase *p, void (*prep)(void), void (*op)(const char *, void *),
		      void *arg)
{
	uint64_t before[MAXCPU], after[MAXCPU], csw0[MAXCPU] = { 0 };
	int i;

	if (prep)
		prep();
	if (p->responders)
		start_responders();
	for (i = 0; p->responders && i < nresp; i++)
		csw0[i] = switches_of(resp[i].tid);
	read_tlb(before);
	mark(p->name, "begin");
	op(p->name, arg);
	mark(p->name, "end");
	read_tlb(after);
	for (i = 0; p->responders && i < nresp; i++)
		p->csw[i] = switches_of(resp[i].tid) - csw0[i];
	if (p->responders)
		stop_responders(p->name);
	for (i = 0; i < MAXCPU; i++)
		p->ipis[i] = uncounted ? 0 : after[i] - before[i];
	print_phase(p);
}

static int src_node, dst_node;

static void op_move_immediate(const char *phase, void *arg)
{
	do_move(*(int *)arg, true, phase);
}

static void op_move_batched(const char *phase, void *arg)
{
	do_move(*(int *)arg, false, phase);
}

static void op_zap_immediate(const char *phase, void *arg)
{
	(void)arg;
	do_zap(true, phase);
}

static void op_zap_batched(const char *phase, void *arg)
{
	(void)arg;
	do_zap(false, phase);
}

/* Each responder CPU got at least min IPIs; names the packages they cover. */
static void expect_each_responder(const struct phase *p, uint64_t min)
{
	char pk[64] = "";
	int i, seen[MAXCPU] = { 0 }, was = failed;

	for (i = 0; i < nresp; i++) {
		int c = resp[i].cpu, k = package_of_cpu(c);

		if (p->ipis[c] < min)
			FAIL("%s: responder CPU %d (package %d) received %llu TLB IPIs, want >= %llu",
			     p->name, c, k, (unsigned long long)p->ipis[c], (unsigned long long)min);
		if (k >= 0 && k < MAXCPU && !seen[k]++)
			snprintf(pk + strlen(pk), sizeof(pk) - strlen(pk), "%s%d", *pk ? "," : "", k);
	}
	if (failed == was)
		PASS("%s: each of %d responder CPUs (packages %s) received >= %llu TLB IPIs",
		     p->name, nresp, pk, (unsigned long long)min);
}

/* Every responder was flushed by IPI or was off the mm: none missed. */
static void expect_none_missed(const struct phase *p)
{
	int i, was = failed, nipi = 0, noff = 0;

	for (i = 0; i < nresp; i++) {
		const char *how = flushed_how(p, i);

		if (!strcmp(how, "missed"))
			FAIL("%s: responder CPU %d received no TLB IPI yet never left the mm (0 "
			     "context switches): a flush the TLB row does not count?", p->name,
			     resp[i].cpu);
		nipi += !strcmp(how, "ipi");
		noff += !strcmp(how, "off-mm");
	}
	if (failed == was)
		PASS("%s: every responder flushed by IPI (%d) or off the mm, flushed at its next "
		     "switch (%d)", p->name, nipi, noff);
}

/* The running kernel's version as major * 1000 + minor (6.12 -> 6012). */
static int kernel_version(void)
{
	struct utsname u;
	int maj = 0, min = 0;

	if (uname(&u) || sscanf(u.release, "%d.%d", &maj, &min) != 2)
		return 0;
	return maj * 1000 + min;
}

/* Without responders no other CPU runs this mm: at most a few stray IPIs. */
static void expect_quiet(const struct phase *p, uint64_t max)
{
	int i, was = failed;

	for (i = 1; i < ncpu; i++)
		if (p->ipis[cpus[i]] > max)
			FAIL("%s: CPU %d received %llu TLB IPIs with no responder, want <= %llu",
			     p->name, cpus[i], (unsigned long long)p->ipis[cpus[i]],
			     (unsigned long long)max);
	if (failed == was)
		PASS("%s: with no responders the other CPUs received <= %llu TLB IPIs", p->name,
		     (unsigned long long)max);
}

/* Batched move_pages by kernel: before 6.3 migration unmaps and flushes
 * page by page, so some responder gets IPIs for a quarter of the pages or
 * more; from 6.3 ("migrate_pages: batch flushing TLB") it unmaps the batch
 * and flushes once per call (a few more for pages retried when busy), and a
 * responder asleep on a migration entry by then gets none. */
static void batched_by_kernel(const struct phase *p, int kv)
{
	uint64_t most = 0;
	int i;

	for (i = 0; i < nresp; i++)
		if (p->ipis[resp[i].cpu] > most)
			most = p->ipis[resp[i].cpu];
	if (kv && kv < 6003) {
		if (most >= (uint64_t)npages / 4)
			PASS("%s: kernel %d.%d flushes page by page: up to %llu TLB IPIs on a "
			     "responder", p->name, kv / 1000, kv % 1000, (unsigned long long)most);
		else
			FAIL("%s: kernel %d.%d (before 6.3) should flush page by page, yet no "
			     "responder received %d TLB IPIs (most: %llu)", p->name, kv / 1000,
			     kv % 1000, npages / 4, (unsigned long long)most);
	} else if (most <= (uint64_t)npages / 8) {
		PASS("%s: kernel %d.%d flushes once per call: at most %llu TLB IPIs on a responder",
		     p->name, kv / 1000, kv % 1000, (unsigned long long)most);
	} else {
		FAIL("%s: kernel %d.%d (6.3 or later) should flush once per call, yet a responder "
		     "received %llu TLB IPIs (want <= %d)", p->name, kv / 1000, kv % 1000,
		     (unsigned long long)most, npages / 8);
	}
}

static int cmd_move_pages(void)
{
	struct phase imm = { .name = "immediate", .responders = true },
		     bat = { .name = "batched", .responders = true },
		     alone = { .name = "control", .responders = false };
	int i, n;

	src_node = node_of_cpu(init_cpu);
	dst_node = -1;
	for (n = 0; n < 1024 && dst_node < 0; n++) {
		char path[64];

		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d", n);
		if (n != src_node && access(path, F_OK) == 0)
			dst_node = n;
	}
	if (dst_node < 0) {
		printf("skipped: one NUMA node here: move_pages has nowhere to move pages\n");
		return 77;
	}
	for (i = 0; i < npages; i++)	/* first touch on the initiator's node */
		*(int *)(area + (size_t)i * psz) = i + 1;
	check_data = true;
	printf("move_pages: %d pages, initiator CPU %d (node %d), responders on %d CPUs, node %d <-> %d\n",
	       npages, init_cpu, src_node, nresp, src_node, dst_node);
	if (!pages_on(src_node, "first touch"))
		return 1;
	run_phase(&imm, NULL, op_move_immediate, &dst_node);
	if (pages_on(dst_node, imm.name))
		PASS("immediate: %d pages moved to node %d one call each", npages, dst_node);
	run_phase(&bat, NULL, op_move_batched, &src_node);
	if (pages_on(src_node, bat.name))
		PASS("batched: %d pages moved back to node %d in one call", npages, src_node);
	run_phase(&alone, NULL, op_move_immediate, &dst_node);
	pages_on(dst_node, alone.name);
	for (i = 0; i < npages; i++)
		if (*(int *)(area + (size_t)i * psz) != i + 1)
			FAIL("page %d lost its data in the moves", i);
	/* each page's unmap flushes every CPU running the mm (one IPI per page
	 * and responder, fewer when a responder sleeping on a migration entry
	 * leaves its CPU idle in lazy-TLB mode, which x86 skips) */
	expect_each_responder(&imm, (uint64_t)npages / 4);
	expect_none_missed(&bat);
	batched_by_kernel(&bat, kernel_version());
	expect_quiet(&alone, (uint64_t)npages / 16);
	return failed ? 1 : 0;
}

static int cmd_madvise(void)
{
	struct phase imm = { .name = "immediate", .responders = true },
		     bat = { .name = "batched", .responders = true },
		     alone = { .name = "control", .responders = false };
	int i, pkgs[MAXCPU] = { 0 }, npk = 0, was;

	for (i = 0; i < ncpu; i++)
		if (package_of_cpu(cpus[i]) >= 0 && !pkgs[package_of_cpu(cpus[i])]++)
			npk++;
	printf("madvise: %d pages, initiator CPU %d, responders on %d CPUs, %d package(s)\n",
	       npages, init_cpu, nresp, npk);
	check_data = false;
	run_phase(&imm, populate, op_zap_immediate, NULL);
	run_phase(&bat, populate, op_zap_batched, NULL);
	run_phase(&alone, populate, op_zap_immediate, NULL);
	/* each page's zap flushes every responder: about one IPI per page */
	expect_each_responder(&imm, (uint64_t)npages / 4);
	/* one flush for the range: a responder switched out at that moment
	 * (preempted) is skipped and flushed at its next switch, rightly */
	expect_none_missed(&bat);
	was = failed;
	for (i = 0; i < nresp; i++) {
		int c = resp[i].cpu;

		if (bat.ipis[c] * 4 > imm.ipis[c])
			FAIL("CPU %d: batched zap sent %llu IPIs, immediate %llu: batching should send far fewer",
			     c, (unsigned long long)bat.ipis[c], (unsigned long long)imm.ipis[c]);
	}
	if (failed == was)
		PASS("batched zaps send under a quarter of the immediate zaps' IPIs on every responder");
	expect_quiet(&alone, (uint64_t)npages / 16);
	if (npk < 2) {
		printf("skipped: one package here: responders on both packages need a 2-socket machine\n");
		return failed ? 1 : 77;
	}
	return failed ? 1 : 0;
}

int main(int argc, char **argv)
{
	uint64_t tlb[MAXCPU];
	const char *brk;
	cpu_set_t set;
	int i, rc;

	if (argc < 2 || argc > 3 || (strcmp(argv[1], "move_pages") && strcmp(argv[1], "madvise"))) {
		fprintf(stderr, "usage: lab_shootdown move_pages|madvise [PAGES]\n");
		return 2;
	}
	npages = argc == 3 ? atoi(argv[2]) : 64;
	if (npages < 8 || npages > 4096) {
		fprintf(stderr, "lab_shootdown: PAGES must be 8..4096\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	brk = getenv("LAB_SHOOTDOWN_BREAK");
	uncounted = brk && !strcmp(brk, "uncounted");
	if (sched_getaffinity(0, sizeof(set), &set))
		return 1;
	for (i = 0; i < CPU_SETSIZE && ncpu < MAXCPU; i++)
		if (CPU_ISSET(i, &set))
			cpus[ncpu++] = i;
	if (ncpu < 2) {
		printf("skipped: one CPU here: no remote CPU to send IPIs to\n");
		return 77;
	}
	if (!read_tlb(tlb)) {
		printf("skipped: /proc/interrupts has no TLB row (not x86?)\n");
		return 77;
	}
	init_cpu = cpus[0];
	for (i = 1; i < ncpu; i++)
		resp[nresp++].cpu = cpus[i];
	if (pin(init_cpu)) {
		printf("  FAILED: cannot pin to CPU %d\n", init_cpu);
		return 1;
	}
	psz = sysconf(_SC_PAGESIZE);
	area = mmap(NULL, (size_t)npages * psz, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (area == MAP_FAILED)
		return 1;
	rc = strcmp(argv[1], "move_pages") == 0 ? cmd_move_pages() : cmd_madvise();
	munmap(area, (size_t)npages * psz);
	return rc;
}
