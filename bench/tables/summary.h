/* summary.h — tables/: the end-of-run summary (docs/running.md "The summary").
 * Per family, in the changelog format, against a named reference: window policies
 * against spinlock (ops/s; stretch, double resets and lost pages from the fidelity
 * twin), locks against pthread_spin, simulated batched and targeted shootdowns
 * against immediate (ns/page, flushes/page), the kernel's batched calls against
 * immediate (real IPIs/page).  Each %Change has both CVs, its 95 % interval and
 * verdict (changed, ~, n too small: stats.h) and, at 2+ repetitions a side, p(U);
 * points with no subject (simulated shootdowns at 1 thread: no remote CPU) left out
 * once with the reason; window notes (null under the workload model, points with no
 * reset); then ab.json's pairs (a `run --ab` directory: those alone), under the
 * pairs and the tables where along the thread counts a verdict appears, shrinks or
 * changes sign (tables/trend.h), the noisy points one a line, and each directory's
 * files.  The directories are only read.
 */
#ifndef STRATBENCH_SUMMARY_H
#define STRATBENCH_SUMMARY_H

#include <stdbool.h>
#include <stdio.h>

#include "tables/compare.h"

/* A family's reference strategy in place of its default (window spinlock, lock
 * pthread_spin, simulated shootdown immediate); arrays of them end at family NULL.
 * The strategy is taken as given: the caller checks it is the family's. */
struct sb_summary_ref {
	const char *family, *strategy;
};

/* dirs[0..n) (a suite's stages, or one run; a `run --ab` directory: its pairs) to o,
 * text or markdown, refs (NULL: the defaults) for the references; 0, or -1 with a
 * line in err (an unreadable directory: o untouched).  Unknown families add nothing. */
int sb_summary_print(FILE *o, enum sb_cmp_fmt f, const char *const *dirs, int n,
		     const struct sb_summary_ref *refs, char *err, size_t errlen);

/* To stdout (text) and dir/summary.txt and .md (each .partial, synced, renamed);
 * 0, or -1 with err (no final name is left for one that failed). */
int sb_summary_write(const char *dir, const char *const *dirs, int n, char *err,
		     size_t errlen);

/* The same, refs for the references; on stdout only when print. */
int sb_summary_write_ref(const char *dir, const char *const *dirs, int n,
			 const struct sb_summary_ref *refs, bool print, char *err, size_t errlen);

/* dir/summary.txt alone, as sb_summary_write_ref writes it (a suite's, before its
 * plots: the page they write links what is there); 0, or -1 with err. */
int sb_summary_write_text(const char *dir, const char *const *dirs, int n, char *err,
			  size_t errlen);

#endif
