/* test_preempt.c — preemption is measured and named (issue 28).
 *
 * Forced: two members of a team bound to one CPU (the first this process
 * may use), each doing busy ops of a fixed count through run/driver.c over
 * Google Benchmark.  The CPU is shared, so the member that finishes first
 * ran at most about half the round: the reported on_cpu_pct is at most
 * 60 % and the guest switched the members (ctx_involuntary > 0) — whatever
 * the load, which only lowers it.  Its counters as a GB entry must get the
 * mark from results/preempt.c; recorded entries check the rule's cases and
 * the exact text.  The broken fixture is preempt.c with its thresholds off
 * (SB_TEST_NO_PREEMPT_MARK): then the mark checks must fail, and the test
 * passes only if they did.
 */
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/drivers.h"
#include "results/preempt.h"
#include "run/gbench.h"
#include "run/run.h"

#include "check.h"

#ifdef SB_TEST_NO_PREEMPT_MARK
static const bool broken = true;
#else
static const bool broken = false;
#endif

#ifdef SB_TEST_NO_KERNEL_USE
static const bool broken_kernel = true;
#else
static const bool broken_kernel = false;
#endif

static int mark_failed;		/* the checks the broken fixtures must fail */
static int kernel_failed;

/* counted (failed) where the broken fixture (broke) must fail them, checked otherwise */
#define BROKEN_CHECK(broke, failed, cond, ...)					\
	do {									\
		if (broke)							\
			failed += !(cond);					\
		else								\
			CHECK(cond, __VA_ARGS__);				\
	} while (0)
#define MARK_CHECK(cond, ...) BROKEN_CHECK(broken, mark_failed, cond, __VA_ARGS__)
#define KERNEL_CHECK(cond, ...) BROKEN_CHECK(broken_kernel, kernel_failed, cond, __VA_ARGS__)

#define OPS (SLOW ? 300 : 2000)

/* one op: some microseconds of work that only the CPU can do */
static uint64_t member(int tid, const struct sb_round *r, void *arg)
{
	volatile uint64_t x = 0;
	uint64_t ops = 0;

	(void)tid;
	(void)arg;
	do {
		for (int i = 0; i < 20000; i++)
			x += (uint64_t)i;
		ops++;
	} while (!sb_round_over(r, ops));
	(void)x;	/* the work's result, read once: clang sees it used */
	return ops;
}

static int shared_cpu[2];
static struct sb_point pt;

static void body(sb_state *st, void *arg)
{
	const struct sb_drive_team t = { 2, shared_cpu, member, NULL, NULL, false };
	struct sb_drive d;

	(void)arg;
	if (sb_drive_run_team(st, &pt, &t, &d) == 0)
		sb_drive_report(st, &d);
}

/* the kernel shootdown's point: initiator and responder on the same CPU */
static struct sb_point kpt;
static struct sb_topo *ktopo;

static json_t *seen, *kseen;	/* the reported runs' counters, as GB entries */
static char kerror[256];	/* the kernel run's error, if it failed */

static void hook(const struct sb_run_report *r, void *arg)
{
	json_t **e = strstr(r->name, "kernel") ? &kseen : &seen;

	(void)arg;
	if (r->error && e == &kseen)
		snprintf(kerror, sizeof(kerror), "%s", r->error);
	if (*r->aggregate || r->error)
		return;
	json_decref(*e);
	*e = json_object();
	json_object_set_new(*e, "run_type", json_string("iteration"));
	for (int i = 0; i < r->ncounters; i++)
		json_object_set_new(*e, r->counter_names[i], json_real(r->counter_values[i]));
}

static double num(json_t *e, const char *k)
{
	json_t *v = json_object_get(e, k);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* kernel-madvise, immediate, 16 batches of 32 pages: each handshake waits
 * for the other member's turn on the shared CPU (a scheduler slice); both
 * spin while they wait, so the least on-CPU member had at most about half */
static void kernel_point(int cpu)
{
	char err[256];
	sb_bench *b;

	CHECK(sb_topo_load(&ktopo, NULL, err, sizeof(err)) == 0, "%s", err);
	if (!ktopo)
		return;	/* no kernel point: its checks fail */
	kpt.topo = ktopo;
	kpt.strategy = "kernel-madvise";
	kpt.threads = 2;
	kpt.cpus = shared_cpu;
	kpt.home_node = sb_topo_node_of_cpu(kpt.topo, cpu);
	kpt.home_node = kpt.home_node < 0 ? 0 : kpt.home_node;
	sb_params_set_bare(&kpt.f.params, "mode", "immediate");
	sb_params_set(&kpt.f.params, "batch", "32");
	b = sb_bench_register("t/kernel-madvise-two-on-one-cpu", sb_shootdown_kernel_driver.body,
			      &kpt);
	sb_bench_use_manual_time(b);
	sb_bench_iterations(b, (int64_t)16 * 32);
}

static void forced_kernel(int cpu)
{
	char mark[96];
	double on = num(kseen, "on_cpu_pct");

	CHECK(kseen, "the kernel point runs without error: %s", kerror);
	printf("test_preempt: kernel-madvise initiator and responder on CPU %d: on_cpu_pct %.1f, "
	       "ctx_switches %.0f, ctx_involuntary %.0f, steal_pct %.1f\n", cpu, on,
	       num(kseen, "ctx_switches"), num(kseen, "ctx_involuntary"),
	       num(kseen, "steal_pct"));
	/* the same fields as the other families' (NaN: absent) */
	KERNEL_CHECK(on <= 60, "the kernel point's members shared a CPU: on CPU %g %%", on);
	KERNEL_CHECK(!isnan(num(kseen, "ctx_involuntary")) && !isnan(num(kseen, "ctx_switches")),
		     "the kernel point's least on-CPU member's switches counted: %g involuntary "
		     "of %g", num(kseen, "ctx_involuntary"), num(kseen, "ctx_switches"));
	/* its responders' own count is kept beside them */
	CHECK(!isnan(num(kseen, "responder_csw_per_batch")), "responder_csw_per_batch still "
	      "reported");
	if (!isnan(on))		/* absent: failed above (the blind fixture) */
		MARK_CHECK(sb_preempt_entry(kseen, mark, sizeof(mark)) &&
			   strstr(mark, "preempted: on CPU "),
			   "the forced kernel point is marked: \"%s\"", mark);
}

static void forced(void)
{
	char *argv[] = { "test_preempt", NULL };
	char mark[96];
	cpu_set_t set;
	sb_bench *b;
	int cpu = 0, rc;

	if (sched_getaffinity(0, sizeof(set), &set) == 0)
		while (cpu < CPU_SETSIZE - 1 && !CPU_ISSET(cpu, &set))
			cpu++;
	shared_cpu[0] = shared_cpu[1] = cpu;
	pt.threads = 2;
	b = sb_bench_register("t/two-on-one-cpu", body, &pt);
	sb_bench_use_manual_time(b);
	sb_bench_iterations(b, OPS);
	kernel_point(cpu);
	sb_gbench_on_run(hook, NULL);
	sb_gbench_display_quiet(true);
	rc = sb_gbench_main(1, argv);
	CHECK(rc == 0 && seen, "runs without error: %d", rc);
	forced_kernel(cpu);
	if (!seen)
		return;
	printf("test_preempt: two members on CPU %d: on_cpu_pct %.1f, ctx_switches %.0f, "
	       "ctx_involuntary %.0f, steal_pct %.1f\n", cpu, num(seen, "on_cpu_pct"),
	       num(seen, "ctx_switches"), num(seen, "ctx_involuntary"), num(seen, "steal_pct"));
	CHECK(num(seen, "on_cpu_pct") <= 60, "members shared a CPU: on CPU %g %%",
	      num(seen, "on_cpu_pct"));
	/* the switches are counted (NaN: absent); none at all is possible (a
	 * sanitizer's slow start can run the members one after the other, each
	 * off its CPU while the other ran: still under 60 % and marked below) */
	CHECK(!isnan(num(seen, "ctx_involuntary")) && !isnan(num(seen, "ctx_switches")),
	      "the least on-CPU member's switches counted: %g involuntary of %g",
	      num(seen, "ctx_involuntary"), num(seen, "ctx_switches"));
	MARK_CHECK(sb_preempt_entry(seen, mark, sizeof(mark)) &&
		   strstr(mark, "preempted: on CPU "),
		   "the forced point is marked: \"%s\"", mark);
}

/* a recorded entry: on CPU %, switches (all, involuntary), steal %; NaN: absent */
static json_t *entry(double on, double csw, double inv, double steal)
{
	json_t *e = json_object();

	if (!isnan(on))
		json_object_set_new(e, "on_cpu_pct", json_real(on));
	if (!isnan(csw))
		json_object_set_new(e, "ctx_switches", json_real(csw));
	if (!isnan(inv))
		json_object_set_new(e, "ctx_involuntary", json_real(inv));
	if (!isnan(steal))
		json_object_set_new(e, "steal_pct", json_real(steal));
	return e;
}

static bool marks(json_t *e, char *mark, size_t n)
{
	bool m = sb_preempt_entry(e, mark, n);

	json_decref(e);
	return m;
}

static void recorded(void)
{
	char mark[96];
	struct sb_bm b = { 0 };
	json_t *runs[3];

	/* the host took the vCPU: off CPU, no switch seen in the guest */
	MARK_CHECK(marks(entry(50, 0, 0, 12), mark, sizeof(mark)) &&
		   !strcmp(mark, "preempted: on CPU 50 %; steal 12 %"),
		   "host preemption's text: \"%s\"", mark);
	MARK_CHECK(marks(entry(80, 30, 5, NAN), mark, sizeof(mark)) &&
		   !strcmp(mark, "preempted: on CPU 80 %"),
		   "guest preemption, steal unknown: \"%s\"", mark);
	/* steal alone (no paravirtual steal accounting: the CPU time includes it) */
	MARK_CHECK(marks(entry(99, 0, 0, 12), mark, sizeof(mark)), "steal 12 %%: \"%s\"", mark);
	/* 94 % is more than 5 % off */
	MARK_CHECK(marks(entry(94, 2, 2, 0), mark, sizeof(mark)), "94 %% on CPU: \"%s\"", mark);
	/* not preempted: on CPU, a member that blocked by itself, no counters at all */
	CHECK(!marks(entry(99, 3, 3, 0), mark, sizeof(mark)) && !*mark, "99 %%: \"%s\"", mark);
	CHECK(!marks(entry(40, 900, 0, 0), mark, sizeof(mark)), "voluntary only: \"%s\"", mark);
	CHECK(!marks(entry(NAN, NAN, NAN, NAN), mark, sizeof(mark)), "no counters: \"%s\"", mark);
	/* a benchmark's repetitions: the worst one names it */
	runs[0] = entry(99, 1, 1, 0);
	runs[1] = entry(50, 0, 0, 1);
	runs[2] = entry(70, 9, 9, 2);
	b.runs = runs;
	b.nruns = 3;
	MARK_CHECK(sb_preempt_bm(&b, mark, sizeof(mark)) &&
		   !strcmp(mark, "preempted: on CPU 50 %; steal 1 %"),
		   "the worst repetition: \"%s\"", mark);
	b.nruns = 1;
	CHECK(!sb_preempt_bm(&b, mark, sizeof(mark)), "a quiet repetition alone: \"%s\"", mark);
	for (int i = 0; i < 3; i++)
		json_decref(runs[i]);
}

int main(void)
{
	check_watchdog("test_preempt", 300);
	check_phase("recorded entries");
	recorded();
	check_phase("two members on one CPU");
	forced();
	json_decref(seen);
	json_decref(kseen);
	sb_topo_destroy(ktopo);
	if (broken)
		CHECK(mark_failed > 0, "the thresholds off: %d mark checks failed, want some",
		      mark_failed);
	if (broken_kernel)
		CHECK(kernel_failed > 0, "the kernel driver's rounds not given: %d kernel checks "
		      "failed, want some", kernel_failed);
	return check_done(broken ? "test_preempt_disabled" : broken_kernel ?
			  "test_preempt_kernel_blind" : "test_preempt");
}
