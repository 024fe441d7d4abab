/* tlb_control.h — does this kernel interrupt a CPU to shoot down its TLB,
 * and was the machine quiet enough to tell?  The real-TLB tests
 * (test_shootdown_kernel, test_counters tlb and tracepoint) run this
 * control before judging their own counts.  It shares no code with what
 * they test (kshoot.c's engine, the counters): two plain threads, pinned.
 * The responder, on cpus[1], touches a page after each request and
 * acknowledges; the initiator, on cpus[0], checks the page is present
 * (mincore: the responder faulted it back in) and zaps it with
 * madvise(MADV_DONTNEED).  The responder counts its context switches from
 * its ack to the next request, the window that holds the zap: with none it
 * was running our mm, and x86 Linux sends its CPU a TLB shootdown IPI (the
 * TLB row of /proc/interrupts).  A kernel that flushes remote TLBs another
 * way sends none at all: a PVM guest's flush is a hypercall, and its TLB
 * row stays 0 from boot (seen: 2000 such zaps, 0 TLB and 0 CAL interrupts).
 *
 *   TLB_IPIS   the row moved on the responder's CPU: the tests judge
 *   TLB_NONE   not one IPI in the zaps, most with the responder on its CPU:
 *              the kernel flushes without them; the tests skip (exit 77)
 *   TLB_BUSY   no IPI, but the responder was switched out in most windows
 *              in every attempt: too busy to tell; the tests skip (77)
 *
 * Counted by zaps and attempts, never by wall time. */
#ifndef STRATBENCH_TEST_TLB_CONTROL_H
#define STRATBENCH_TEST_TLB_CONTROL_H

#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <stratbench/arch.h>

#include "machine/procfs.h"

#define TLB_CONTROL_ZAPS	512u
#define TLB_CONTROL_ATTEMPTS 5

enum tlb_verdict { TLB_IPIS, TLB_NONE, TLB_BUSY, TLB_BROKEN };

struct tlb_control {
	int cpus[2];			/* initiator, responder */
	char *page;
	unsigned seq, ack;		/* request, acknowledgement */
	uint64_t switched;		/* responder's switches in its last window,
					 * published by the ack */
	unsigned on_cpu;		/* zaps with no switch in their window */
	unsigned not_present;		/* zaps that found the page unmapped */
	int stop;
	bool broken;			/* fixture: the responder acks without touching */
};

/* All the calling thread's context switches, voluntary or not: either way
 * its CPU left our mm for a while. */
static inline uint64_t tlb_control_switches(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_THREAD, &ru) ? 0 : (uint64_t)(ru.ru_nvcsw + ru.ru_nivcsw);
}

static inline void tlb_control_pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

static inline void *tlb_control_responder(void *arg)
{
	struct tlb_control *c = arg;
	unsigned seen = 0, s;
	uint64_t acked = tlb_control_switches();

	tlb_control_pin(c->cpus[1]);
	/* relaxed stop: a flag only; acquire seq: the zap is done before the touch */
	while (!__atomic_load_n(&c->stop, __ATOMIC_RELAXED)) {
		s = __atomic_load_n(&c->seq, __ATOMIC_ACQUIRE);
		if (s == seen) {
			sb_cpu_relax();
			continue;
		}
		c->switched = tlb_control_switches() - acked;
		if (!c->broken)
			__atomic_store_n(&c->page[0], 1, __ATOMIC_RELAXED);	/* fault it back in */
		seen = s;
		acked = tlb_control_switches();
		/* release: the touch and `switched` precede the next zap */
		__atomic_store_n(&c->ack, s, __ATOMIC_RELEASE);
	}
	return NULL;
}

static inline void *tlb_control_initiator(void *arg)
{
	struct tlb_control *c = arg;
	long pg = sysconf(_SC_PAGESIZE);
	unsigned char vec;

	tlb_control_pin(c->cpus[0]);
	for (unsigned i = 1; i <= TLB_CONTROL_ZAPS + 1; i++) {
		/* release/acquire: the ack carries the touch after the last zap
		 * and the switches of the window that held it */
		__atomic_store_n(&c->seq, i, __ATOMIC_RELEASE);
		while (__atomic_load_n(&c->ack, __ATOMIC_ACQUIRE) != i)
			sb_cpu_relax();
		if (i > 1 && c->switched == 0)
			c->on_cpu++;		/* the window of zap i-1 */
		if (i > TLB_CONTROL_ZAPS)
			break;
		if (mincore(c->page, (size_t)pg, &vec) || !(vec & 1))
			c->not_present++;
		madvise(c->page, (size_t)pg, MADV_DONTNEED);
	}
	__atomic_store_n(&c->stop, 1, __ATOMIC_RELAXED);
	return NULL;
}

/* One attempt: TLB_CONTROL_ZAPS zaps; *ipis on the responder's CPU, *on_cpu
 * zaps whose window it spent there.  -1 if the row cannot be read or a
 * thread cannot start. */
static inline int tlb_control_once(const int cpus[2], bool broken, uint64_t *ipis,
				   unsigned *on_cpu, unsigned *not_present)
{
	long pg = sysconf(_SC_PAGESIZE);
	struct tlb_control c = { .cpus = { cpus[0], cpus[1] }, .broken = broken };
	uint64_t team0, team1, all;
	pthread_t ti, tr;
	char err[160];
	int rc = -1;

	c.page = mmap(NULL, (size_t)pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (c.page == MAP_FAILED)
		return -1;
	if (sb_irq_read("TLB", &cpus[1], 1, &team0, &all, err, sizeof(err)) != 1)
		goto out;
	if (pthread_create(&tr, NULL, tlb_control_responder, &c))
		goto out;
	if (pthread_create(&ti, NULL, tlb_control_initiator, &c)) {
		__atomic_store_n(&c.stop, 1, __ATOMIC_RELAXED);
		pthread_join(tr, NULL);
		goto out;
	}
	pthread_join(ti, NULL);
	pthread_join(tr, NULL);
	if (sb_irq_read("TLB", &cpus[1], 1, &team1, &all, err, sizeof(err)) != 1)
		goto out;
	*ipis = team1 - team0;
	*on_cpu = c.on_cpu;
	*not_present = c.not_present;
	rc = 0;
out:
	munmap(c.page, (size_t)pg);
	return rc;
}

/* Up to TLB_CONTROL_ATTEMPTS attempts until one tells; the verdict, and in
 * why[] the line a skip prints (or, for TLB_BROKEN, what went wrong: the
 * control itself failed, which the caller must fail on, never skip).
 * broken: the fixture whose responder never touches the page; it must come
 * out TLB_BROKEN, never TLB_NONE (test_shootdown_kernel checks it): a
 * control that lost its touch cannot turn the tests into skips. */
static inline enum tlb_verdict tlb_control(const int cpus[2], bool broken, char *why, size_t len)
{
	uint64_t ipis = 0, row = 0, all = 0;
	unsigned on_cpu = 0, np = 0, most_on = 0;
	char err[160];

	for (int a = 1; a <= TLB_CONTROL_ATTEMPTS; a++) {
		if (tlb_control_once(cpus, broken, &ipis, &on_cpu, &np)) {
			snprintf(why, len, "the control could not run (threads or /proc/interrupts)");
			return TLB_BROKEN;
		}
		if (np) {
			snprintf(why, len, "the control's responder left the page unmapped before "
				 "%u of %u zaps", np, TLB_CONTROL_ZAPS);
			return TLB_BROKEN;
		}
		if (ipis) {
			snprintf(why, len, "%llu TLB IPIs on CPU %d for %u zaps (responder on its "
				 "CPU for %u)", (unsigned long long)ipis, cpus[1], TLB_CONTROL_ZAPS,
				 on_cpu);
			return TLB_IPIS;
		}
		if (on_cpu * 2 >= TLB_CONTROL_ZAPS) {
			sb_irq_read("TLB", cpus, 2, &row, &all, err, sizeof(err));
			snprintf(why, len, "the kernel sent no TLB IPI for %u madvise zaps of a page "
				 "the responder had touched, %u of them with it running on its CPU "
				 "(TLB row since boot: %llu on all CPUs): it flushes remote TLBs "
				 "without an IPI (a paravirtual flush, as PVM guests do)",
				 TLB_CONTROL_ZAPS, on_cpu, (unsigned long long)all);
			return TLB_NONE;
		}
		if (on_cpu > most_on)
			most_on = on_cpu;
	}
	snprintf(why, len, "the responder was switched out in more than %u of %u zap windows in "
		 "each of %d attempts (at most %u on its CPU): the machine is too busy to "
		 "tell whether it sends TLB IPIs", TLB_CONTROL_ZAPS / 2, TLB_CONTROL_ZAPS,
		 TLB_CONTROL_ATTEMPTS, most_on);
	return TLB_BUSY;
}

#endif
