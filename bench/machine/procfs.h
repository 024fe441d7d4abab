/* procfs.h — parsers for the text of /proc/interrupts, /proc/vmstat and /proc/stat.
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

#include <stdbool.h>
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

/* One /proc/stat CPU row ("cpu": the machine, "cpu3"), in jiffies: total of its first eight
 * fields (user nice system idle iowait irq softirq steal; guest time is inside user), and
 * steal, the time the hypervisor ran something else on this vCPU.  A row of fewer than 8
 * fields (a kernel before 2.6.11, a broken fixture) has no steal: has_steal false. */
struct sb_cpu_ticks {
	uint64_t total;
	uint64_t steal;
	bool has_steal;
};

/* row's ticks: 1, 0 if the row is absent, -1 if its numbers cannot be read. */
int sb_stat_parse(const char *text, const char *row, struct sb_cpu_ticks *t, char *err,
		  size_t errlen);

/* The ticks of the CPUs cpus[0..n) summed (a CPU listed twice counts once), or of the
 * "cpu" row when n is 0, read from path (NULL: /proc/stat; tests give a fixture).
 * 0, or -1 with err (unreadable, a row absent or malformed). */
int sb_stat_read(const char *path, const int *cpus, int n, struct sb_cpu_ticks *t, char *err,
		 size_t errlen);

/* Steal in % of the ticks between two reads; NaN when either has no steal or no tick
 * passed (a point shorter than a jiffy says nothing). */
double sb_steal_pct(const struct sb_cpu_ticks *before, const struct sb_cpu_ticks *after);

#endif
