/* kmm.h — what the kernel shootdown drivers read of the machine around their
 * timed calls, and the one call that needs care: move_pages(2).
 *
 * Contract: an IRQ snapshot keeps the TLB and CAL rows of /proc/interrupts
 * per CPU, read with procfs.h's parser (one parser, not two).  A row this
 * kernel does not have (POWER has no TLB row: tlbie is broadcast in
 * hardware) is marked absent and its deltas must be reported as
 * unavailable, never as 0.  Deltas sum b - a over the CPUs named (matched by
 * CPU number, so a column that moved is still the same CPU) or over every
 * CPU.  sb_move_pages() is the system call for this process (no libnuma);
 * sb_move_pages_strerror() and sb_page_status_str() name its errors in one
 * line; sb_move_target() picks the node pages go to and back from, and
 * sb_move_pages_unavailable() says why a machine cannot run it.
 */
#ifndef STRATBENCH_KMM_H
#define STRATBENCH_KMM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <stratbench/topo.h>

enum sb_irq_row { SB_IRQ_TLB, SB_IRQ_CAL, SB_IRQ_NROWS };

struct sb_irq_snap {
	int n;				/* CPU columns */
	int max;			/* room in the arrays */
	bool has[SB_IRQ_NROWS];		/* false: the row is absent here */
	int *cpu;			/* column -> CPU number */
	uint64_t *count[SB_IRQ_NROWS];	/* column -> count */
};

/* Room for every CPU column this machine can show; NULL if out of memory. */
struct sb_irq_snap *sb_irq_snap_new(void);
void sb_irq_snap_free(struct sb_irq_snap *s);
/* From /proc/interrupts text (tests pass recorded text): 0, or -1 and err. */
int sb_irq_snap_parse(struct sb_irq_snap *s, const char *text, char *err, size_t errlen);
/* Reads this machine's /proc/interrupts: 0, or -1 and err. */
int sb_irq_snap_read(struct sb_irq_snap *s, char *err, size_t errlen);
/* b - a of one row over cpus[0..ncpus) (cpus NULL: every CPU); a CPU
 * missing from either snapshot counts 0.  Only meaningful when both have
 * the row. */
uint64_t sb_irq_snap_delta(const struct sb_irq_snap *a, const struct sb_irq_snap *b,
			   enum sb_irq_row row, const int *cpus, int ncpus);
/* "TLB", "CAL" */
const char *sb_irq_row_name(enum sb_irq_row row);

/* move_pages(2) on this process: count pages, nodes NULL to query where
 * they are; status[i] gets the node or -errno.  Returns what the kernel
 * returns (0, the number of pages not migrated, or -1 with errno). */
long sb_move_pages(unsigned long count, void **pages, const int *nodes, int *status,
		   int flags);
/* One line for a failed call's errno ("target node has no memory or is
 * offline (ENODEV)"), and for a page's negative status. */
const char *sb_move_pages_strerror(int err);
const char *sb_page_status_str(int status);
/* The node pages move to from home: the first other NUMA node of t (OS
 * index), or -1 when t has only one. */
int sb_move_target(const struct sb_topo *t, int home);
/* NULL when t has the two nodes move_pages needs, else buf with why. */
const char *sb_move_pages_unavailable(const struct sb_topo *t, char *buf, size_t len);

#endif
