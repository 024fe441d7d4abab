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
	sb_baseline_driver, sb_calibrate_driver, sb_shootdown_kernel_driver;
/* calibrate_bench.c: the enum sb_pairs_mode --pairs (auto, all, sample)
 * means here (all on more than 512 PUs: the sample) */
int sb_calibrate_pairs_mode(const struct sb_topo *t);

/* A driver's counters as a table: a row whose name is NULL is left out. */
struct sb_counter_row {
	const char *name;
	double v;
};

static inline void sb_counter_rows(sb_state *st, const struct sb_counter_row *c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (c[i].name)
			sb_state_counter(st, c[i].name, c[i].v, SB_COUNTER_DEFAULT);
}

#define SB_COUNTER_ROWS(st, rows) sb_counter_rows(st, rows, sizeof(rows) / sizeof((rows)[0]))

#endif
