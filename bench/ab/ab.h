/* ab/ — `run --ab`: paired A/B trials, planned as a run is, timed as
 * alternating short trials, written to DIR/ab.json (results/ab.h).
 * uses: core machine stats results run drivers plan
 *
 * sb_ab_compare (ab_pairs.c): a warm-up trial of each side, then pairs in
 * random order until the options say stop, filling c (specs, names, points
 * set by the caller) and *trials (malloc'd, c->pairs).  0, or -1 with err
 * when a trial failed (c keeps the pairs done, stop "interrupted").
 * sb_ab_signal, set by the caller's signal handler, stops it after the pair
 * in flight. */
#ifndef STRATBENCH_AB_AB_H
#define STRATBENCH_AB_AB_H

#include <signal.h>

#include "plan/plan.h"
#include "results/ab.h"

extern volatile sig_atomic_t sb_ab_signal;

/* ab.c: `run --ab`, after the options parsed (o->ab set): plans, runs
 * and reports the paired comparisons; the exit status */
int sb_ab_main(struct sb_opts *o, int argc, char **argv);

int sb_ab_compare(const struct sb_opts *o, const struct sb_point *pa, const struct sb_point *pb,
		  struct sb_ab_cmp *c, struct sb_ab_trial **trials, char *err, size_t errlen);

#endif
