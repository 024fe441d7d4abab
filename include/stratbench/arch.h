/* arch.h — the only place that knows which CPU we run on.
 *
 * Contract: sb_cpu_relax() is the spin-wait hint the kernel's cpu_relax()
 * uses (x86 pause, POWER SMT-priority low/medium, Arm yield);
 * SB_CACHELINE is the coherence granule to pad shared and per-thread data to
 * (128 B on POWER, 64 B elsewhere; 128 on aarch64 too because of adjacent-line
 * prefetch on Neoverse/A64FX); sb_read_cycles() is a cheap monotonic counter
 * (TSC, POWER timebase, CNTVCT_EL0, else CLOCK_MONOTONIC in ns) whose rate
 * sb_cycles_per_ns() calibrates once.  No #ifdef on architecture anywhere else.
 */
#ifndef STRATBENCH_ARCH_H
#define STRATBENCH_ARCH_H

#include <stdint.h>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__)
#define SB_ARCH_NAME "x86_64"
#define SB_CACHELINE 64
static inline void sb_cpu_relax(void) { __asm__ __volatile__("pause" ::: "memory"); }
static inline uint64_t sb_read_cycles(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}
#define SB_HAVE_CYCLE_COUNTER 1
#elif defined(__powerpc64__)
#define SB_ARCH_NAME "ppc64le"
#define SB_CACHELINE 128
/* The kernel's pre-POWER10 cpu_relax(): drop to low then back to medium SMT priority. */
static inline void sb_cpu_relax(void) { __asm__ __volatile__("or 1,1,1\n\tor 2,2,2" ::: "memory"); }
static inline uint64_t sb_read_cycles(void)
{
	uint64_t tb;

	__asm__ __volatile__("mfspr %0, 268" : "=r"(tb));  /* TBR: the timebase */
	return tb;
}
#define SB_HAVE_CYCLE_COUNTER 1
#elif defined(__aarch64__)
#define SB_ARCH_NAME "aarch64"
#define SB_CACHELINE 128
static inline void sb_cpu_relax(void) { __asm__ __volatile__("yield" ::: "memory"); }
static inline uint64_t sb_read_cycles(void)
{
	uint64_t v;

	__asm__ __volatile__("isb\n\tmrs %0, cntvct_el0" : "=r"(v) :: "memory");
	return v;
}
#define SB_HAVE_CYCLE_COUNTER 1
#else
#define SB_ARCH_NAME "generic"
#define SB_CACHELINE 128
static inline void sb_cpu_relax(void) { __asm__ __volatile__("" ::: "memory"); }
static inline uint64_t sb_read_cycles(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
#define SB_HAVE_CYCLE_COUNTER 0
#endif

/* Pad/align a structure member or object to the coherence granule. */
#define SB_CACHE_ALIGNED _Alignas(SB_CACHELINE)

/* Compiler-only barrier: keeps the optimiser from merging loop iterations. */
static inline void sb_barrier(void) { __asm__ __volatile__("" ::: "memory"); }

/* Monotonic wall clock in ns (vDSO; for round boundaries, not per op). */
static inline uint64_t sb_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Counter ticks per ns, measured once against CLOCK_MONOTONIC (arch.c). */
double sb_cycles_per_ns(void);

#endif
