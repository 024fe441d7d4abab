/* summary.h — tables/: the end-of-run summary of a results
 * directory (docs/running.md "The summary").
 *
 * Per family, the comparison the family exists for, in the changelog
 * format, against a reference the table names: every window policy
 * against spinlock (ops/s; stretch, double resets and lost pages from its
 * fidelity twin), every lock against pthread_spin, the simulated batched
 * and targeted shootdowns against immediate (ns/page, flushes/page), the
 * kernel drivers' batched calls against immediate (real IPIs/page).  Each
 * %Change carries both sides' CV and, with two or more repetitions a side,
 * p(U) (compare's judge: " ~" within the noise); the paired comparisons of
 * a directory's ab.json.  Then the noisy points, one a line, and the files
 * each directory holds.  Read-only: the directories are only read.
 */
#ifndef STRATBENCH_SUMMARY_H
#define STRATBENCH_SUMMARY_H

#include <stdio.h>

#include "tables/compare.h"

/* The summary of dirs[0..n) (a suite's stage directories, or one run's),
 * to o in format f (text or markdown); 0, or -1 with one line in err (a
 * directory that cannot be read: then nothing is printed to o).  A
 * directory without any family the summary knows adds nothing. */
int sb_summary_print(FILE *o, enum sb_cmp_fmt f, const char *const *dirs, int n, char *err,
		     size_t errlen);

/* The summary of dirs to stdout (text), and written whole as
 * dir/summary.txt and dir/summary.md (each .partial, synced, renamed);
 * 0, or -1 with err (nothing is left under a final name that failed). */
int sb_summary_write(const char *dir, const char *const *dirs, int n, char *err,
		     size_t errlen);

#endif
