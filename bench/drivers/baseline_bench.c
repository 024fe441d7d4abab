/* baseline_bench.c — reference points measured in the same run as the
 * strategies, so results can be quoted as ratios on a noisy machine:
 * baseline/pthread_spin — glibc's pthread_spin_lock/unlock pair on one
 * shared lock, nothing inside, nothing outside. */
#include "run/run.h"

#include <pthread.h>

static uint64_t spin_member_fn(int tid, const struct sb_round *r, void *arg)
{
	pthread_spinlock_t *l = arg;
	uint64_t ops = 0;

	(void)tid;
	do {
		pthread_spin_lock(l);
		pthread_spin_unlock(l);
		ops++;
	} while (!sb_round_over(r, ops));
	return ops;
}

static void baseline_body(sb_state *st, void *arg)
{
	const struct sb_point *pt = arg;
	struct sb_drive d;
	pthread_spinlock_t *l = sb_drive_alloc(st, pt, SB_CACHELINE);

	if (!l)
		return;
	pthread_spin_init(l, PTHREAD_PROCESS_PRIVATE);
	if (sb_drive_run(st, pt, spin_member_fn, (void *)l, &d) == 0)
		sb_drive_report(st, &d);
	pthread_spin_destroy(l);
	sb_drive_free(pt, (void *)l, SB_CACHELINE);
}

static const char *const baselines[] = { "pthread_spin", NULL };

const struct sb_family_driver sb_baseline_driver = {
	.family = "baseline",
	.summary = "references measured in the same run",
	.reg = SB_FAMILY_MAX,
	.names = baselines,
	.body = baseline_body,
};
