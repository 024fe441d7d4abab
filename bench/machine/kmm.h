/* kmm.h — the kernel call of the shootdown drivers that needs care: move_pages(2).  (Their IRQ
 * counts come from procfs.h's sb_irq_read: one parser, not two.) */
#ifndef STRATBENCH_KMM_H
#define STRATBENCH_KMM_H

#include <stddef.h>

#include "machine/topo.h"

/* move_pages(2) on this process (nodes NULL: query where pages are); status[i] gets the node or
 * -errno.  Returns the kernel's: 0, the number of pages not migrated, or -1 with errno. */
long sb_move_pages(unsigned long count, void **pages, const int *nodes, int *status,
		   int flags);
/* One line for a failed call's errno ("target node has no memory or is
 * offline (ENODEV)"), and for a page's negative status. */
const char *sb_move_pages_strerror(int err);
const char *sb_page_status_str(int status);
/* The node pages move to from home: t's first other NUMA node (OS index), -1 if t has only one. */
int sb_move_target(const struct sb_topo *t, int home);
/* NULL when t has the two nodes move_pages needs, else buf with why. */
const char *sb_move_pages_unavailable(const struct sb_topo *t, char *buf, size_t len);

#endif
