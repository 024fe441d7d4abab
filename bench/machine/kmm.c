/* kmm.c — move_pages(2) and its errors. */
#include "machine/kmm.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

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
	case EFAULT:	/* 6.1 (follow_page with FOLL_DUMP) for a hole too; later: ENOENT */
		return "address is not mapped, or (older kernels) the page was never touched "
		       "(EFAULT)";
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
