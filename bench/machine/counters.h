/* counters.h — perf events, tracepoints, /proc/vmstat and /proc/interrupts deltas and rusage, read
 * around a benchmark's timed region (bench/machine/).
 *
 * Contract: sb_counters_parse() turns a --counters list (perf's spelling: "cycles", "page-faults",
 * "tlb:tlb_flush", "vmstat:numa_hint_faults", "irq:TLB", "rusage", "default", "none") into a spec;
 * a name that cannot be a counter on any machine is a usage error (-1, one line).  Parsing also
 * probes each counter on this machine: one that cannot be opened here stays in the spec as
 * unavailable, with the reason and the fix, and is never reported as a value (not as 0 either).
 * Per benchmark, sb_counters_open() makes a set for a team of n members; each member opens its own
 * perf events on its own thread (sb_counters_member_open: pid 0, any CPU, inherit off, grouped
 * where the kernel allows) and reads them at the start and end of each round on that thread
 * (enter/leave: one read per group, never per op); begin/end read the machine-wide files around the
 * whole timed region.  Deltas are summed over members and rounds, scaled by time enabled/running
 * when the kernel multiplexed them.  sb_counters_result() hands out what was measured, by the name
 * reported ("cnt:" prefix, see docs/counters.md).
 */
#ifndef STRATBENCH_COUNTERS_H
#define STRATBENCH_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct sb_counters_spec;
struct sb_counters;

/* The default set: software events, cycles/instructions/cache-misses, rusage, NUMA and migration
 * vmstat fields, irq:TLB and irq:CAL, and (as root) the NUMA/migration/TLB tracepoints. */
extern const char sb_counters_default[];

/* 0 and *out (free with sb_counters_spec_free), or -1 and err (one line). */
int sb_counters_parse(const char *list, struct sb_counters_spec **out, char *err, size_t errlen);
void sb_counters_spec_free(struct sb_counters_spec *s);

/* The spec's counters in order: name as requested (canonical spelling), name as reported (perf's
 * ":u" when only user space may be counted), and NULL if available or the reason it is not. */
int sb_counters_count(const struct sb_counters_spec *s);
const char *sb_counters_name(const struct sb_counters_spec *s, int i);
const char *sb_counters_shown(const struct sb_counters_spec *s, int i);
const char *sb_counters_why(const struct sb_counters_spec *s, int i);
/* One line on f naming the unavailable counters (nothing if none). */
void sb_counters_note_unavailable(const struct sb_counters_spec *s, FILE *f);
/* "" or a note on how the default set was chosen (e.g. no tracepoints: not root) */
const char *sb_counters_note(const struct sb_counters_spec *s);

/* Every counter name the suite knows (NULL-terminated), for `stratbench counters`. */
const char *const *sb_counters_known(void);
/* "" or what raw PMU event names go through (libpfm4 and its PMU) */
const char *sb_counters_raw_support(void);
/* Why counting a tracepoint on architecture arch (uname -m) would give a 0
 * that is no measurement: the kernel defines tlb:tlb_flush everywhere but
 * only x86 fires it.  NULL when the count means what it says. */
const char *sb_counters_silent(const char *tracepoint, const char *arch);

/* One benchmark's set for n members on cpus (irq:ROW@team); NULL if the spec measures nothing. */
struct sb_counters *sb_counters_open(const struct sb_counters_spec *s, int n, const int *cpus);
void sb_counters_member_open(int tid, void *c);		/* on member tid's thread */
void sb_counters_member_enter(int tid, void *c);	/* on member tid's thread */
void sb_counters_member_leave(int tid, void *c);	/* on member tid's thread */
void sb_counters_begin(struct sb_counters *c);		/* before the first round */
void sb_counters_end(struct sb_counters *c);		/* after the last round */
/* The i-th result: 1 with its reported name ("cnt:page-faults") and total; 0 when no more.  A
 * result not measurable in this benchmark is skipped and named in sb_counters_label. */
int sb_counters_result(struct sb_counters *c, int i, const char **name, double *total);
const char *sb_counters_label(const struct sb_counters *c);	/* "" if none */
void sb_counters_close(struct sb_counters *c);

#endif
