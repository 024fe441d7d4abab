/* work.h — calibrated busy work for critical and parallel sections.
 *
 * Contract: sb_work(n) spins n iterations of a loop the compiler cannot
 * remove or merge (as lockhammer's blackhole); sb_work_ns_per_iter() measures
 * its cost once per process so benchmarks take lengths in ns and report the
 * calibration they used.
 */
#ifndef STRATBENCH_WORK_H
#define STRATBENCH_WORK_H

#include <stdint.h>

static inline void sb_work(uint64_t n)
{
	while (n--)
		__asm__ __volatile__("" : "+r"(n));	/* one dependent op per iteration */
}

double sb_work_ns_per_iter(void);
/* iterations for ns of work with the process-wide calibration */
uint64_t sb_work_iters(double ns);

#endif
