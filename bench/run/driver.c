/* driver.c — run a point's rounds on a pinned team, report common counters. */
#include "run/run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Largest round: bounds a round's length (and the stop-flag overshoot) while
 * keeping the barrier cost per op negligible. */
#define SB_ROUND_MAX (1 << 22)

void *sb_drive_alloc(sb_state *st, const struct sb_point *pt, size_t size)
{
	char err[256], msg[300];
	bool bound;
	void *p = sb_topo_alloc_on_node(pt->topo, size, pt->home_node, &bound, err, sizeof(err));

	if (!p) {
		snprintf(msg, sizeof(msg), "home node: %s", err);
		sb_state_skip_with_error(st, msg);
		return NULL;
	}
	if (!bound) {
		static int warned;

		if (!warned++)
			fprintf(stderr, "stratbench: note: memory binding to node %d unavailable "
				"here; shared state is allocated without a node policy\n",
				pt->home_node);
	}
	return p;
}

void sb_drive_free(const struct sb_point *pt, void *p, size_t size)
{
	sb_topo_free(pt->topo, p, size);
}

int sb_drive_run(sb_state *st, const struct sb_point *pt, sb_team_fn fn, void *arg,
		 struct sb_drive *d)
{
	char err[256];
	int64_t k;
	int i;

	memset(d, 0, sizeof(*d));
	d->n = pt->threads;
	d->ops = calloc(d->n, sizeof(*d->ops));
	d->team = sb_team_create(pt->threads, pt->cpus, fn, arg, err, sizeof(err));
	if (!d->team) {
		sb_state_skip_with_error(st, err);
		free(d->ops);
		d->ops = NULL;
		return -1;
	}
	while ((k = sb_state_keep_running_batch(st, SB_ROUND_MAX)) > 0) {
		struct sb_team_result r;

		sb_team_run(d->team, (uint64_t)k, &r);
		sb_state_set_iteration_time(st, (double)r.elapsed_ns * 1e-9);
		d->elapsed_ns += r.elapsed_ns;
		d->total_ops += r.total_ops;
		for (i = 0; i < d->n; i++)
			d->ops[i] += r.ops[i];
	}
	sb_team_destroy(d->team);
	d->team = NULL;
	return 0;
}

void sb_drive_report(sb_state *st, struct sb_drive *d)
{
	uint64_t mn = UINT64_MAX, mx = 0;
	double sum = 0, sumsq = 0;
	int i;

	for (i = 0; i < d->n; i++) {
		double x = (double)d->ops[i];

		mn = d->ops[i] < mn ? d->ops[i] : mn;
		mx = d->ops[i] > mx ? d->ops[i] : mx;
		sum += x;
		sumsq += x * x;
	}
	if (d->elapsed_ns && d->total_ops) {
		double sec = (double)d->elapsed_ns * 1e-9;

		sb_state_counter(st, "ops_per_s", (double)d->total_ops / sec, SB_COUNTER_DEFAULT);
		/* wall time per op of one thread: elapsed / (ops per thread) */
		sb_state_counter(st, "ns_per_op",
				 (double)d->elapsed_ns * d->n / (double)d->total_ops,
				 SB_COUNTER_DEFAULT);
		sb_state_counter(st, "ops_min", (double)mn, SB_COUNTER_DEFAULT);
		sb_state_counter(st, "ops_max", (double)mx, SB_COUNTER_DEFAULT);
		/* Jain's index: 1 when every thread did the same work, 1/n at worst */
		sb_state_counter(st, "jain", sumsq > 0 ? sum * sum / (d->n * sumsq) : 0,
				 SB_COUNTER_DEFAULT);
	}
	free(d->ops);
	d->ops = NULL;
}
