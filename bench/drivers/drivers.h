/* drivers/ — one benchmark body per family (its option table, its
 * counters, its name parts), run on a pinned team through run/; the
 * real-kernel shootdown engine (kshoot.c).
 * uses: core sim machine stats results run
 */
#ifndef STRATBENCH_DRIVERS_H
#define STRATBENCH_DRIVERS_H

#include "run/run.h"

/* Every family (plan/plan.h lists them in listing and run order). */
extern const struct sb_family_driver sb_window_driver, sb_lock_driver, sb_shootdown_driver,
	sb_baseline_driver;
extern const struct sb_family_driver sb_calibrate_driver;
/* calibrate_bench.c: the enum sb_pairs_mode --pairs (auto, all, sample)
 * means here (all on more than 512 PUs: the sample) */
int sb_calibrate_pairs_mode(const struct sb_topo *t);
extern const struct sb_family_driver sb_shootdown_kernel_driver;

#endif
