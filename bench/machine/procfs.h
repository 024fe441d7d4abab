/* procfs.h — parsers for the text of /proc/interrupts and /proc/vmstat.
 *
 * Contract: parsers take the file's whole text (sb_proc_slurp(), or a recorded fixture in
 * tests) and never touch the file system themselves, so the same code reads this machine, a lab
 * guest and a POWER sample.  A row or field that does not exist (POWER has no TLB row; nr_tlb_*
 * needs CONFIG_DEBUG_TLBFLUSH) is "absent" (0), never a count of 0; text that cannot be read as
 * the kernel writes it is "malformed" (-1, with a reason).  Used by the counters (irq:ROW,
 * vmstat:NAME) and the kernel shootdown drivers: one parser, not two.
 */
#ifndef STRATBENCH_PROCFS_H
#define STRATBENCH_PROCFS_H

#include <stddef.h>
#include <stdint.h>

/* The whole file as a NUL-terminated malloc'd string; NULL and err on failure. */
char *sb_proc_slurp(const char *path, char *err, size_t errlen);

/* One /proc/interrupts row by its name before the colon ("TLB", "CAL", "LOC", or a number such
 * as "24").  The header line names the columns ("CPU0 CPU2 ..." — only online CPUs have one):
 * cpus[i] gets column i's CPU number, counts[i] its count, for at most max columns.  Returns
 * the number of columns, 0 if the row is absent, -1 if the text is malformed. */
int sb_irq_parse(const char *text, const char *row, int *cpus, uint64_t *counts, int max,
		 char *err, size_t errlen);

/* A /proc/interrupts row by name ("TLB", "CAL", "24") and the CPUs wanted (cpus[0..ncpus)). */
struct sb_irq_query {
	const char *name;
	const int *cpus;
	int ncpus;
};

/* Interrupt counts of one row summed over its CPUs (*team) and over every column (*all): what the
 * counters' irq:ROW and the kernel shootdown drivers take deltas of.  Returns 1, 0 if the row is
 * absent, -1 if the text is malformed or a CPU of the set has no column (offline), with err. */
int sb_irq_sum(const char *text, const struct sb_irq_query *q, uint64_t *team,
	       uint64_t *all, char *err, size_t errlen);

/* sb_irq_sum() over this machine's /proc/interrupts, read now. */
int sb_irq_read(const char *row, const int *cpus, int ncpus, uint64_t *team, uint64_t *all,
		char *err, size_t errlen);

/* /proc/interrupts open as fd, the caller's buffers: buf of cap bytes, col/cnt of max columns. */
struct sb_irq_file {
	int fd;
	char *buf;
	size_t cap;
	int *col;
	uint64_t *cnt;
	int max;
};

/* One row's counts on its CPUs into counts[], from f (pread from 0) parsed in f's buffers:
 * nothing allocated or freed, so reading it between timed calls maps and unmaps nothing (a heap
 * trim would itself send the TLB flushes being counted).  Returns as sb_irq_sum(); a file
 * larger than f->buf is malformed. */
int sb_irq_pread(const struct sb_irq_file *f, const struct sb_irq_query *q,
		 uint64_t *counts, char *err, size_t errlen);

/* One /proc/vmstat field ("numa_hint_faults"): 1 and *value, 0 if absent, -1 if malformed. */
int sb_vmstat_parse(const char *text, const char *field, uint64_t *value, char *err,
		    size_t errlen);

#endif
