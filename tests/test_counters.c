/* test_counters MODE — the counters around a team's rounds, on workloads
 * with a known effect.  One mode per CTest entry, so a mode that cannot run
 * here exits 77 (CTest "skipped") and says why, and the others still run:
 *   parse        names: perf's spelling, bad names refused with one line
 *   faults       page-faults >= N after touching N fresh pages in a round,
 *                and pages touched outside the rounds are not counted
 *   cs           context-switches of two members yielding on one CPU: at
 *                least the switches the kernel's rusage counted, and many
 *   tlb          irq:TLB@team rises during a madvise loop while a second
 *                pinned member touches the mapping (x86: a TLB row); judged
 *                where tlb_control.h saw this kernel send TLB IPIs, on a run
 *                with the member on its CPU for most zaps, else skipped (77)
 *   tracepoint   tlb:tlb_flush rises on the same loop (root and tracefs),
 *                judged as tlb
 *   unavailable  made-up and unopenable counters are named with a reason,
 *                never reported as values; a per-run failure is labelled
 * Each property check is also run on a deliberately broken fixture (the
 * workload without the effect) and must fail there. */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "machine/counters.h"
#include <stratbench/team.h>

#include "check.h"
#include "tlb_control.h"

#define SKIP 77

static int cpus2[2];
static int ncpus;		/* usable CPUs, at most 2 */

static void pick_cpus(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		return;
	for (int c = 0; c < CPU_SETSIZE && ncpus < 2; c++)
		if (CPU_ISSET(c, &set))
			cpus2[ncpus++] = c;
}

static struct sb_counters_spec *spec_of(const char *list)
{
	struct sb_counters_spec *s = NULL;
	char err[512];

	if (sb_counters_parse(list, &s, err, sizeof(err))) {
		fprintf(stderr, "parse '%s': %s\n", list, err);
		exit(1);
	}
	return s;
}

/* why the counter named (as requested) is unavailable, or NULL */
static const char *why_of(const struct sb_counters_spec *s, const char *name)
{
	for (int i = 0; i < sb_counters_count(s); i++)
		if (!strcmp(sb_counters_name(s, i), name))
			return sb_counters_why(s, i);
	return "not in the spec";
}

/* A result by reported-name prefix ("cnt:page-faults" also finds
 * "cnt:page-faults:u"); 1 if found. */
static int result(struct sb_counters *c, const char *prefix, double *v)
{
	const char *name;
	double x;

	for (int i = 0; sb_counters_result(c, i, &name, &x); i++)
		if (!strncmp(name, prefix, strlen(prefix)) &&
		    (!name[strlen(prefix)] || !strcmp(name + strlen(prefix), ":u"))) {
			*v = x;
			return 1;
		}
	return 0;
}

/* Runs `rounds` rounds of fn on a team with the counters, as sb_drive_run
 * does; pre (if any) runs on every member after the counters are open and
 * before the first round, outside the rounds. */
static struct sb_counters *measure(const struct sb_counters_spec *s, int n, const int *cpus,
				   sb_team_fn fn, void *arg, void (*pre)(int, void *), int rounds)
{
	struct sb_team_result res;
	char err[256];
	struct sb_team *t = sb_team_create(n, cpus, fn, arg, err, sizeof(err));
	struct sb_counters *c;
	struct sb_team_hooks h;

	if (!t) {
		fprintf(stderr, "team: %s\n", err);
		exit(1);
	}
	c = sb_counters_open(s, n, cpus);
	h = (struct sb_team_hooks){ sb_counters_member_enter, sb_counters_member_leave, c };
	sb_team_each(t, sb_counters_member_open, c);
	sb_team_set_hooks(t, &h);
	sb_counters_begin(c);
	if (pre)
		sb_team_each(t, pre, arg);
	for (int r = 0; r < rounds; r++)
		sb_team_run(t, 1u << 30, &res);
	sb_counters_end(c);
	sb_team_destroy(t);
	return c;
}

/* ---- parse ---------------------------------------------------------------- */

static void expect_refused(const char *list, const char *needle)
{
	struct sb_counters_spec *s = NULL;
	char err[512] = "";
	int rc = sb_counters_parse(list, &s, err, sizeof(err));

	CHECK(rc == -1 && strstr(err, needle) && !strchr(err, '\n'),
	      "'%s' refused naming '%s' (rc %d, '%s')", list, needle, rc, err);
	if (!rc)
		sb_counters_spec_free(s);
}

static int mode_parse(void)
{
	struct sb_counters_spec *s = spec_of("cs,faults,migrations,cycles:u,rusage,r1a8,"
					     "vmstat:numa_hint_faults,irq:TLB,page-faults");

	/* aliases become perf's canonical names; repeats count once */
	CHECK(sb_counters_count(s) == 9, "count %d", sb_counters_count(s));
	CHECK(!strcmp(sb_counters_name(s, 0), "context-switches"), "cs");
	CHECK(!strcmp(sb_counters_name(s, 1), "page-faults"), "faults");
	CHECK(!strcmp(sb_counters_name(s, 2), "cpu-migrations"), "migrations");
	CHECK(!strcmp(sb_counters_name(s, 3), "cycles:u"), "cycles:u");
	CHECK(!strcmp(sb_counters_name(s, 4), "rusage:user_s") &&
	      !strcmp(sb_counters_name(s, 5), "rusage:sys_s"), "rusage: user and system seconds");
	CHECK(!strcmp(sb_counters_name(s, 6), "r1a8"), "raw hex config");
	sb_counters_spec_free(s);
	s = spec_of("none");
	CHECK(sb_counters_count(s) == 0, "none is empty");
	CHECK(sb_counters_open(s, 1, cpus2) == NULL, "an empty spec opens nothing");
	sb_counters_spec_free(s);
	s = spec_of("default");
	CHECK(sb_counters_count(s) >= 20, "default set: %d counters", sb_counters_count(s));
	CHECK(why_of(s, "rusage:user_s") == NULL, "rusage always available");
	sb_counters_spec_free(s);

	expect_refused("cyclez", "unknown counter 'cyclez'");
	expect_refused("tlb:", "malformed tracepoint 'tlb:'");
	expect_refused("tlb:tlb_flush:x", "malformed tracepoint");
	expect_refused("vmstat:", "malformed counter 'vmstat:'");
	expect_refused("vmstat:Numa", "malformed counter");
	expect_refused("irq:", "malformed counter 'irq:'");
	expect_refused("rusage:cpu", "unknown counter 'rusage:cpu'");
	expect_refused("none,cycles", "cannot be combined");
	expect_refused("cycles,,page-faults", "empty counter name");
	expect_refused("page=faults", "bad counter name");
	expect_refused("context-switches:u", "kernel only");
	if (!*sb_counters_raw_support())
		expect_refused("DTLB_LOAD_MISSES:WALK_COMPLETED", "needs libpfm4");
	else	/* with libpfm4 a name this PMU lacks is unavailable, not an error */
		printf("libpfm4 build: raw names resolve through it (%s)\n",
		       sb_counters_raw_support());
	/* tlb:tlb_flush exists on every kernel, fires only on x86: elsewhere
	 * unavailable with the reason, never a 0 */
	CHECK(sb_counters_silent("tlb:tlb_flush", "ppc64le") &&
	      strstr(sb_counters_silent("tlb:tlb_flush", "ppc64le"), "tlbie"), "ppc64le: silent");
	CHECK(sb_counters_silent("tlb:tlb_flush", "aarch64") != NULL, "aarch64: silent");
	CHECK(!sb_counters_silent("tlb:tlb_flush", "x86_64"), "x86_64: counted");
	CHECK(!sb_counters_silent("tlb:tlb_flush", "i686"), "i686: counted");
	CHECK(!sb_counters_silent("migrate:mm_migrate_pages", "ppc64le"), "other tracepoints counted");
	return check_done("test_counters parse");
}

/* ---- faults --------------------------------------------------------------- */

#define NPAGES 512
#define PRE_PAGES (4 * NPAGES)

struct fault_arg {
	char *fresh[2];		/* NPAGES per member, touched in the round */
	char *pre[2];		/* PRE_PAGES per member, touched outside it */
	bool pre_in_round;	/* broken fixture: the pre-touch inside the round */
};

static void touch(char *p, int pages)
{
	long pg = sysconf(_SC_PAGESIZE);

	for (int i = 0; i < pages; i++)
		((volatile char *)p)[(long)i * pg] = 1;
}

static uint64_t fault_member(int tid, const struct sb_round *r, void *arg)
{
	struct fault_arg *a = arg;

	(void)r;
	touch(a->fresh[tid], NPAGES);
	if (a->pre_in_round)
		touch(a->pre[tid], PRE_PAGES);
	return NPAGES;
}

static void fault_pre(int tid, void *arg)
{
	struct fault_arg *a = arg;

	if (!a->pre_in_round)
		touch(a->pre[tid], PRE_PAGES);
}

/* Faults per touched page at most: sanitizers fault in their shadow too. */
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define FAULTS_PER_PAGE_MAX 4.0
#else
#define FAULTS_PER_PAGE_MAX 1.5
#endif

/* The property: at least N faults per member, and not the pre-touched
 * ones (4N per member, so the bound stays below 5N). */
static bool faults_ok(double pf, int members)
{
	return pf >= (double)NPAGES * members &&
	       pf < (double)NPAGES * members * FAULTS_PER_PAGE_MAX;
}

static double fault_run(const struct sb_counters_spec *s, int n, bool broken, double *minflt)
{
	long pg = sysconf(_SC_PAGESIZE);
	struct fault_arg a = { .pre_in_round = broken };
	struct sb_counters *c;
	double pf = -1;

	for (int i = 0; i < n; i++) {
		a.fresh[i] = mmap(NULL, (size_t)NPAGES * pg, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		a.pre[i] = mmap(NULL, (size_t)PRE_PAGES * pg, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (a.fresh[i] == MAP_FAILED || a.pre[i] == MAP_FAILED)
			exit(1);
		/* no transparent huge pages: one fault per 4 KiB page */
		madvise(a.fresh[i], (size_t)NPAGES * pg, MADV_NOHUGEPAGE);
		madvise(a.pre[i], (size_t)PRE_PAGES * pg, MADV_NOHUGEPAGE);
	}
	c = measure(s, n, cpus2, fault_member, &a, fault_pre, 1);
	CHECK(result(c, "cnt:page-faults", &pf), "page-faults reported (label '%s')",
	      sb_counters_label(c));
	CHECK(result(c, "cnt:rusage:minflt", minflt), "rusage:minflt reported");
	sb_counters_close(c);
	for (int i = 0; i < n; i++) {
		munmap(a.fresh[i], (size_t)NPAGES * pg);
		munmap(a.pre[i], (size_t)PRE_PAGES * pg);
	}
	return pf;
}

static int mode_faults(void)
{
	struct sb_counters_spec *s = spec_of("page-faults,rusage:minflt");
	const char *why = why_of(s, "page-faults");
	double pf, minflt = -1;
	int n = ncpus;

	if (why) {
		printf("skipped: page-faults unavailable here: %s\n", why);
		sb_counters_spec_free(s);
		return SKIP;
	}
	pf = fault_run(s, n, false, &minflt);
	CHECK(faults_ok(pf, n), "%d members x %d fresh pages: %g page faults", n, NPAGES, pf);
	CHECK(faults_ok(minflt, n), "rusage:minflt %g", minflt);
	/* broken fixture: the pre-touched pages inside the round must fail the check */
	pf = fault_run(s, n, true, &minflt);
	CHECK(!faults_ok(pf, n), "broken fixture (pre-touch inside the round) caught: %g", pf);
	sb_counters_spec_free(s);
	return check_done("test_counters faults");
}

/* ---- cs ------------------------------------------------------------------- */

#define YIELDS 2000
/* A yield switches only when the scheduler picks the other member (CFS's
 * skip buddy and EEVDF's eligibility may keep the yielder): the counter is
 * held to the kernel's own per-thread count, and there must be many. */
#define MANY_SWITCHES (YIELDS / 20)

#define SPIN_NS 2000000ull	/* the broken fixture: a slice or so, no yield */
static long kernel_cs[2];	/* each member's rusage switches over its part */

static long rusage_switches(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_THREAD, &ru) ? -1 : ru.ru_nvcsw + ru.ru_nivcsw;
}

static uint64_t yield_member(int tid, const struct sb_round *r, void *arg)
{
	uint64_t t0 = sb_now_ns();
	long k0 = rusage_switches();

	(void)r;
	if (arg) {	/* broken fixture: a counter that saw no yields */
		while (sb_now_ns() - t0 < SPIN_NS)
			sb_cpu_relax();
		kernel_cs[tid] = rusage_switches() - k0;
		return 1;
	}
	for (int i = 0; i < YIELDS; i++)
		sched_yield();
	kernel_cs[tid] = rusage_switches() - k0;
	return YIELDS;
}

static int mode_cs(void)
{
	struct sb_counters_spec *s = spec_of("context-switches");
	const char *why = why_of(s, "context-switches");
	int same[2] = { cpus2[0], cpus2[0] };	/* two members share one CPU: yields switch */
	struct sb_counters *c;
	double cs = -1, cs_spin = -1;
	long k;

	if (why) {
		printf("skipped: context-switches unavailable here: %s\n", why);
		sb_counters_spec_free(s);
		return SKIP;
	}
	c = measure(s, 2, same, yield_member, NULL, NULL, 1);
	CHECK(result(c, "cnt:context-switches", &cs), "context-switches reported");
	sb_counters_close(c);
	k = kernel_cs[0] + kernel_cs[1];
	c = measure(s, 2, same, yield_member, (void *)1, NULL, 1);
	CHECK(result(c, "cnt:context-switches", &cs_spin), "context-switches reported");
	sb_counters_close(c);
	/* the property: at least what the kernel counted in the members' own
	 * parts (the counter also sees the round's start and end), and many;
	 * the broken fixture, a count blind to the yields (the spinning
	 * round's), must fail it */
	CHECK(cs >= (double)k && k >= MANY_SWITCHES, "2 members x %d sched_yield on one CPU: "
	      "%g switches counted, %ld by rusage (want >= %d)", YIELDS, cs, k, MANY_SWITCHES);
	CHECK(!(cs_spin >= (double)k && k >= MANY_SWITCHES),
	      "broken fixture (a count blind to the yields: %g) caught", cs_spin);
	printf("context-switches: %g counted, %ld by rusage over %d yields; %g spinning %llu ms\n",
	       cs, k, 2 * YIELDS, cs_spin, SPIN_NS / 1000000);
	sb_counters_spec_free(s);
	return check_done("test_counters cs");
}

/* ---- tlb / tracepoint ----------------------------------------------------- */

#define FLUSHES 3000

struct tlb_arg {
	char *page;
	bool toucher;		/* member 1 keeps the mapping in its TLB */
	unsigned seq, ack;	/* ping-pong: member 1 has touched after flush seq */
	uint64_t switched;	/* member 1's context switches in its last window
				 * (from its ack to the next seq), published by the ack */
	unsigned on_cpu;	/* zaps whose window member 1 spent on its CPU */
};

/* All the calling thread's context switches: either way its CPU left our
 * mm, and a CPU running another mm is rightly sent no IPI. */
static uint64_t thread_switches(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_THREAD, &ru) ? 0 : (uint64_t)(ru.ru_nvcsw + ru.ru_nivcsw);
}

/* Member 0 zaps the page and touches it again; member 1, pinned to another
 * CPU, touches it after every zap and acknowledges, so it is running this
 * mm when the next zap flushes, unless it was switched out in between (on a
 * loaded machine it often is): it counts its switches in each window, and
 * member 0 counts the zaps it spent on its CPU.  Member 0 waits for every
 * ack, however long (no wall-clock bound a loaded machine could miss). */
static uint64_t tlb_member(int tid, const struct sb_round *r, void *arg)
{
	struct tlb_arg *a = arg;
	long pg = sysconf(_SC_PAGESIZE);
	unsigned last = 0, s;
	uint64_t acked;

	if (tid == 0) {
		for (unsigned i = 1; i <= FLUSHES; i++) {
			madvise(a->page, (size_t)pg, MADV_DONTNEED);
			/* relaxed: only the page's presence matters, not the value */
			__atomic_store_n(&a->page[0], 1, __ATOMIC_RELAXED);
			/* release/acquire: the ack follows member 1's touch of this
			 * zap, and carries `switched`, its window over the zap */
			__atomic_store_n(&a->seq, i, __ATOMIC_RELEASE);
			if (!a->toucher)
				continue;
			while (__atomic_load_n(&a->ack, __ATOMIC_ACQUIRE) != i)
				sb_cpu_relax();
			a->on_cpu += a->switched == 0;
		}
		/* relaxed: a flag only, as sb_round_over */
		__atomic_store_n(r->stop, 1, __ATOMIC_RELAXED);
		return FLUSHES;
	}
	acked = thread_switches();
	while (!__atomic_load_n(r->stop, __ATOMIC_RELAXED)) {
		s = __atomic_load_n(&a->seq, __ATOMIC_ACQUIRE);
		(void)__atomic_load_n(&a->page[0], __ATOMIC_RELAXED);
		if (s != last) {
			a->switched = thread_switches() - acked;
			acked = thread_switches();
			__atomic_store_n(&a->ack, s, __ATOMIC_RELEASE);
			last = s;
		}
	}
	return 1;
}

/* One measurement of the loop; *on_cpu (if asked) the zaps whose window the
 * second member spent on its CPU. */
static double tlb_run(const struct sb_counters_spec *s, bool toucher, const char *name,
		      double *all, unsigned *on_cpu)
{
	long pg = sysconf(_SC_PAGESIZE);
	struct tlb_arg a = { .toucher = toucher };
	struct sb_counters *c;
	char all_name[96];
	double v = -1;

	a.page = mmap(NULL, (size_t)pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (a.page == MAP_FAILED)
		exit(1);
	a.page[0] = 1;
	c = measure(s, toucher ? 2 : 1, cpus2, tlb_member, &a, NULL, 1);
	CHECK(result(c, name, &v), "%s reported (label '%s')", name, sb_counters_label(c));
	if (all) {
		snprintf(all_name, sizeof(all_name), "%.*s@all", (int)(strlen(name) - 5), name);
		CHECK(result(c, all_name, all), "%s reported", all_name);
	}
	sb_counters_close(c);
	munmap(a.page, (size_t)pg);
	if (on_cpu)
		*on_cpu = a.on_cpu;
	return v;
}

/* With the second member: judged only on a measurement whose second member
 * was on its CPU for at least 3/4 of the zaps, run again until one is, at
 * most TLB_ATTEMPTS times (counted in runs, not time).  False if none was:
 * *why says so, and the mode skips (77), never passes. */
#define TLB_ATTEMPTS 5

static bool tlb_judged(const struct sb_counters_spec *s, const char *name, double *v,
		       double *all, char *why, size_t len)
{
	unsigned on_cpu, most = 0;

	for (int i = 0; i < TLB_ATTEMPTS; i++) {
		*v = tlb_run(s, true, name, all, &on_cpu);
		if (on_cpu * 4 >= FLUSHES * 3)
			return true;
		if (on_cpu > most)
			most = on_cpu;
	}
	snprintf(why, len, "the second member was switched out in more than 1/4 of the %d zap "
		 "windows in each of %d attempts (at most %u on its CPU): the machine is too "
		 "busy to send IPIs", FLUSHES, TLB_ATTEMPTS, most);
	return false;
}

/* At least one flush in ten (KVM's paravirt flush also skips a vCPU its
 * host preempted, which the guest cannot see); without the second member
 * only other processes' flushes reach the team's CPUs. */
static bool flushes_ok(double v)
{
	return v >= FLUSHES / 10.0;
}

/* Does this kernel send TLB IPIs at all, and could the machine show it
 * (tlb_control.h)?  If not, *why is the line the mode skips with. */
static bool tlb_ipis_here(char *why, size_t len)
{
	enum tlb_verdict verdict = tlb_control(cpus2, false, why, len);

	CHECK(verdict != TLB_BROKEN, "the TLB control: %s", why);
	return verdict == TLB_IPIS;
}

static int mode_tlb(void)
{
	struct sb_counters_spec *s = spec_of("irq:TLB");
	const char *why = why_of(s, "irq:TLB");
	double team = -1, all = -1, alone;
	char skip[512];
	bool judged;

	if (why || ncpus < 2) {
		printf("skipped: %s\n", why ? why : "needs two CPUs");
		sb_counters_spec_free(s);
		return SKIP;
	}
	judged = tlb_ipis_here(skip, sizeof(skip)) &&
		 tlb_judged(s, "cnt:irq:TLB@team", &team, &all, skip, sizeof(skip));
	if (!judged)	/* one run still checks what does not need IPIs */
		team = tlb_run(s, true, "cnt:irq:TLB@team", &all, NULL);
	CHECK(!judged || flushes_ok(team), "%d madvise(DONTNEED) with a second member touching: "
	      "%g TLB interrupts on the team's CPUs", FLUSHES, team);
	CHECK(all >= team, "all CPUs (%g) >= the team's (%g)", all, team);
	/* broken fixture: nobody else has the mapping, so no shootdown IPIs */
	alone = tlb_run(s, false, "cnt:irq:TLB@team", NULL, NULL);
	CHECK(!flushes_ok(alone), "broken fixture (no second member) caught: %g", alone);
	printf("%d zaps: irq:TLB@team %g (all CPUs %g) with a second member, %g alone\n",
	       FLUSHES, team, all, alone);
	sb_counters_spec_free(s);
	if (check_done("test_counters tlb"))
		return 1;
	if (!judged) {
		printf("skipped: %s\n", skip);
		return SKIP;
	}
	return 0;
}

static int mode_tracepoint(void)
{
	struct sb_counters_spec *s;
	const char *why;
	double v, alone;
	char skip[512];

	if (geteuid() != 0) {
		printf("skipped: not root (tracefs and tracepoints need root at "
		       "perf_event_paranoid > -1)\n");
		return SKIP;
	}
	s = spec_of("tlb:tlb_flush");
	why = why_of(s, "tlb:tlb_flush");
	if (why || ncpus < 2) {
		printf("skipped: tlb:tlb_flush: %s\n", why ? why : "needs two CPUs");
		sb_counters_spec_free(s);
		return SKIP;
	}
	/* the tracepoint fires for local flushes too: what the second member
	 * adds is the remote ones, which need IPIs and a member on its CPU */
	if (!tlb_ipis_here(skip, sizeof(skip)) ||
	    !tlb_judged(s, "cnt:tlb:tlb_flush", &v, NULL, skip, sizeof(skip))) {
		sb_counters_spec_free(s);
		if (check_done("test_counters tracepoint"))
			return 1;
		printf("skipped: %s\n", skip);
		return SKIP;
	}
	CHECK(flushes_ok(v), "%d madvise(DONTNEED) with a second member: %g tlb:tlb_flush",
	      FLUSHES, v);
	/* only the property, not 0 */
	alone = tlb_run(s, false, "cnt:tlb:tlb_flush", NULL, NULL);
	printf("%d zaps: tlb:tlb_flush %g with a second member, %g alone\n", FLUSHES, v, alone);
	CHECK(alone < v, "fewer flush events without the second member: %g < %g", alone, v);
	sb_counters_spec_free(s);
	return check_done("test_counters tracepoint");
}

/* ---- unavailable ---------------------------------------------------------- */

/* 20 ms of this thread's CPU time (not wall time: it may be preempted) */
static uint64_t busy_member(int tid, const struct sb_round *r, void *arg)
{
	struct timespec t0, t;

	(void)tid;
	(void)r;
	(void)arg;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	do
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	while ((t.tv_sec - t0.tv_sec) * 1000000000L + t.tv_nsec - t0.tv_nsec < 20000000L);
	return 1;
}

static int mode_unavailable(void)
{
	static const char *const madeup[] = { "sb_made_up:no_such_event",
		"vmstat:sb_no_such_field", "irq:NOSUCHROW", NULL };
	struct sb_counters_spec *s = spec_of("cycles,sb_made_up:no_such_event,"
					     "vmstat:sb_no_such_field,irq:NOSUCHROW,rusage");
	const char *why_cycles = why_of(s, "cycles"), *name;
	struct sb_counters *c;
	struct rlimit old, low;
	double v, sys = -1;
	int i, nfd;

	for (i = 0; madeup[i]; i++) {
		const char *why = why_of(s, madeup[i]);

		CHECK(why && *why, "%s unavailable with a reason", madeup[i]);
		printf("%s: %s\n", madeup[i], why ? why : "(available?)");
	}
	printf("cycles: %s\n", why_cycles ? why_cycles : "available");
	CHECK(!why_cycles || strstr(why_cycles, "(E"), "the reason names the errno: %s",
	      why_cycles ? why_cycles : "");
	c = measure(s, 1, cpus2, busy_member, NULL, NULL, 3);
	for (i = 0; sb_counters_result(c, i, &name, &v); i++) {
		for (int k = 0; madeup[k]; k++)
			CHECK(strncmp(name + 4, madeup[k], strlen(madeup[k])),
			      "unavailable %s never reported (as %g)", madeup[k], v);
		CHECK(strcmp(name, "cnt:cycles") || !why_cycles, "cycles reported though unavailable");
	}
	/* user and system add up to the CPU time (the split is tick-sampled) */
	CHECK(result(c, "cnt:rusage:user_s", &v) && result(c, "cnt:rusage:sys_s", &sys) &&
	      v + sys >= 0.05 && v + sys < 0.5, "rusage of 3 x 20 ms CPU: %g + %g s", v, sys);
	CHECK(!*sb_counters_label(c), "no per-run label: '%s'", sb_counters_label(c));
	sb_counters_close(c);
	sb_counters_spec_free(s);

	/* available at parse time, not when a member opens it (no descriptors
	 * left): left out of this run's results and named in its label */
	s = spec_of("page-faults,rusage:user_s");
	if (why_of(s, "page-faults")) {
		printf("skipped (per-run failure part): page-faults unavailable here\n");
	} else {
		getrlimit(RLIMIT_NOFILE, &old);
		nfd = dup(0);
		close(nfd);
		low = old;
		low.rlim_cur = (rlim_t)nfd;	/* the lowest free descriptor is the limit */
		setrlimit(RLIMIT_NOFILE, &low);
		c = measure(s, 1, cpus2, busy_member, NULL, NULL, 1);
		setrlimit(RLIMIT_NOFILE, &old);
		CHECK(!result(c, "cnt:page-faults", &v), "unopenable page-faults not reported (%g)",
		      v);
		CHECK(strstr(sb_counters_label(c), "page-faults") &&
		      strstr(sb_counters_label(c), "EMFILE"), "label names it: '%s'",
		      sb_counters_label(c));
		CHECK(result(c, "cnt:rusage:user_s", &v), "the other counters still reported");
		sb_counters_close(c);
	}
	sb_counters_spec_free(s);
	return check_done("test_counters unavailable");
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	pick_cpus();
	if (!ncpus)
		return 1;
	if (!strcmp(mode, "parse"))
		return mode_parse();
	if (!strcmp(mode, "faults"))
		return mode_faults();
	if (!strcmp(mode, "cs"))
		return mode_cs();
	if (!strcmp(mode, "tlb"))
		return mode_tlb();
	if (!strcmp(mode, "tracepoint"))
		return mode_tracepoint();
	if (!strcmp(mode, "unavailable"))
		return mode_unavailable();
	fprintf(stderr, "usage: test_counters parse|faults|cs|tlb|tracepoint|unavailable\n");
	return 2;
}
