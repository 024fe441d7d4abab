/* kmm.c — IRQ snapshots of /proc/interrupts, move_pages(2) and its errors. */
#include "machine/kmm.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "machine/procfs.h"

static const char *const row_names[SB_IRQ_NROWS] = { "TLB", "CAL" };

const char *sb_irq_row_name(enum sb_irq_row row)
{
	return row_names[row];
}

struct sb_irq_snap *sb_irq_snap_new(void)
{
	struct sb_irq_snap *s = calloc(1, sizeof(*s));
	long conf = sysconf(_SC_NPROCESSORS_CONF);
	int r;

	if (!s)
		return NULL;
	/* columns are online CPUs: never more than the configured ones (and
	 * room for a recorded text from a bigger machine) */
	s->max = conf > 1024 ? (int)conf : 1024;
	s->cpu = calloc((size_t)s->max, sizeof(*s->cpu));
	for (r = 0; r < SB_IRQ_NROWS; r++)
		s->count[r] = calloc((size_t)s->max, sizeof(*s->count[r]));
	if (!s->cpu || !s->count[SB_IRQ_TLB] || !s->count[SB_IRQ_CAL]) {
		sb_irq_snap_free(s);
		return NULL;
	}
	return s;
}

void sb_irq_snap_free(struct sb_irq_snap *s)
{
	if (!s)
		return;
	free(s->cpu);
	for (int r = 0; r < SB_IRQ_NROWS; r++)
		free(s->count[r]);
	free(s);
}

int sb_irq_snap_parse(struct sb_irq_snap *s, const char *text, char *err, size_t errlen)
{
	int r, n;

	s->n = 0;
	for (r = 0; r < SB_IRQ_NROWS; r++) {
		n = sb_irq_parse(text, row_names[r], s->cpu, s->count[r], s->max, err, errlen);
		if (n < 0)
			return -1;
		s->has[r] = n > 0;	/* absent: 0 columns, never a count of 0 */
		if (n > 0)
			s->n = n;
	}
	return 0;
}

int sb_irq_snap_read(struct sb_irq_snap *s, char *err, size_t errlen)
{
	char *text = sb_proc_slurp("/proc/interrupts", err, errlen);
	int rc;

	if (!text)
		return -1;
	rc = sb_irq_snap_parse(s, text, err, errlen);
	free(text);
	return rc;
}

static bool wanted(int cpu, const int *cpus, int ncpus)
{
	if (!cpus)
		return true;
	for (int i = 0; i < ncpus; i++)
		if (cpus[i] == cpu)
			return true;
	return false;
}

uint64_t sb_irq_snap_delta(const struct sb_irq_snap *a, const struct sb_irq_snap *b,
			   enum sb_irq_row row, const int *cpus, int ncpus)
{
	uint64_t sum = 0;
	int i, j;

	for (j = 0; j < b->n; j++) {
		if (!wanted(b->cpu[j], cpus, ncpus))
			continue;
		for (i = 0; i < a->n && a->cpu[i] != b->cpu[j]; i++)
			;
		/* a CPU that came online in between has no "before": leave it out */
		if (i < a->n && b->count[row][j] >= a->count[row][i])
			sum += b->count[row][j] - a->count[row][i];
	}
	return sum;
}

long sb_move_pages(unsigned long count, void **pages, const int *nodes, int *status, int flags)
{
	/* pid 0: this process; no libnuma needed for one system call */
	return syscall(SYS_move_pages, 0, count, pages, nodes, status, flags);
}

const char *sb_move_pages_strerror(int err)
{
	switch (err) {
	case ENODEV:
		return "target node does not exist, is offline or has no memory (ENODEV)";
	case EACCES:
		return "target node is not allowed by this task's cpuset (EACCES)";
	case EPERM:
		return "not permitted: moving shared pages needs CAP_SYS_NICE (EPERM)";
	case EINVAL:
		return "invalid flags or node argument (EINVAL)";
	case ENOSYS:
		return "move_pages is not available: kernel without NUMA support (ENOSYS)";
	case EFAULT:
		return "page or array address not accessible (EFAULT)";
	case E2BIG:
		return "too many pages in one call (E2BIG)";
	case ENOMEM:
		return "out of kernel memory (ENOMEM)";
	case ESRCH:
		return "no such process (ESRCH)";
	default:
		return "unexpected error from move_pages";
	}
}

const char *sb_page_status_str(int status)
{
	if (status >= 0)
		return "on a node";
	switch (-status) {
	case EACCES:
		return "page is mapped by several processes (EACCES)";
	case EBUSY:
		return "page is busy, try again (EBUSY)";
	case EFAULT:
		return "address is not mapped (EFAULT)";
	case EIO:
		return "page cannot be written back (EIO)";
	case EINVAL:
		return "dirty page cannot be moved (EINVAL)";
	case ENOENT:
		return "page is not present (ENOENT)";
	case ENOMEM:
		return "no memory on the target node (ENOMEM)";
	default:
		return "unexpected page status";
	}
}

int sb_move_target(const struct sb_topo *t, int home)
{
	for (int i = 0; i < sb_topo_nnodes(t); i++) {
		int node = sb_topo_node_os(t, i);

		if (node >= 0 && node != home)
			return node;
	}
	return -1;
}

const char *sb_move_pages_unavailable(const struct sb_topo *t, char *buf, size_t len)
{
	int n = sb_topo_nnodes(t);

	if (n >= 2)
		return NULL;
	snprintf(buf, len, "this machine has %d NUMA node%s, needs 2", n, n == 1 ? "" : "s");
	return buf;
}
