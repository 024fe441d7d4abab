/* ab.h — internal to bench/cmd/: one paired comparison's trials (ab_pairs.c)
 * for `run --ab` (ab.c).  sb_ab_compare runs the warm-up trial of each
 * side, then pairs of trials in random order until the options say stop,
 * filling c (its specs, names and points set by the caller) and *trials
 * (malloc'd, c->pairs of them).  0, or -1 with err when a trial failed
 * (c keeps the pairs done, stop "interrupted").  sb_ab_signal, set by the
 * caller's signal handler, ends it after the pair in flight. */
#ifndef STRATBENCH_CMD_AB_H
#define STRATBENCH_CMD_AB_H

#include <signal.h>

#include "cmd/cmd.h"
#include "report/ab.h"

extern volatile sig_atomic_t sb_ab_signal;

int sb_ab_compare(const struct sb_opts *o, const struct sb_point *pa, const struct sb_point *pb,
		  struct sb_ab_cmp *c, struct sb_ab_trial **trials, char *err, size_t errlen);

#endif
