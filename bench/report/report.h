/* report.h — internal to bench/: what a run writes besides Google
 * Benchmark's own reporters.  The JSON context gets the machine fingerprint;
 * results.csv gets one flushed row per reported run. */
#ifndef STRATBENCH_REPORT_H
#define STRATBENCH_REPORT_H

#include <stddef.h>

#include <stratbench/gbench.h>
#include <stratbench/topo.h>

/* context.c: the fingerprint (DESIGN.md §6) into the JSON context */
void sb_context_fingerprint(const struct sb_topo *t, int argc, char **argv);

/* csv.c: results.csv rows from Google Benchmark's run hook */
int sb_csv_open(const char *path, char *err, size_t errlen);
void sb_csv_close(void);

#endif
