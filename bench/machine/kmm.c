/* kmm.c — move_pages(2) and its errors. */
#include "machine/kmm.h"

#include <errno.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

struct reason {
	int err;
	const char *text;
};

/* The text of err in the table, which ends with the default's { 0, text }. */
static const char *reason(const struct reason *r, int err)
{
	while (r->err && r->err != err)
		r++;
	return r->text;
}

long sb_move_pages(unsigned long count, void **pages, const int *nodes, int *status, int flags)
{
	/* pid 0: this process; no libnuma needed for one system call */
	return syscall(SYS_move_pages, 0, count, pages, nodes, status, flags);
}

const char *sb_move_pages_strerror(int err)
{
	static const struct reason r[] = {
		{ ENODEV, "target node does not exist, is offline or has no memory (ENODEV)" },
		{ EACCES, "target node is not allowed by this task's cpuset (EACCES)" },
		{ EPERM, "not permitted: moving shared pages needs CAP_SYS_NICE (EPERM)" },
		{ EINVAL, "invalid flags or node argument (EINVAL)" },
		{ ENOSYS, "move_pages is not available: kernel without NUMA support (ENOSYS)" },
		{ EFAULT, "page or array address not accessible (EFAULT)" },
		{ E2BIG, "too many pages in one call (E2BIG)" },
		{ ENOMEM, "out of kernel memory (ENOMEM)" },
		{ ESRCH, "no such process (ESRCH)" },
		{ 0, "unexpected error from move_pages" },
	};

	return reason(r, err);
}

const char *sb_page_status_str(int status)
{
	static const struct reason r[] = {
		{ EACCES, "page is mapped by several processes (EACCES)" },
		{ EBUSY, "page is busy, try again (EBUSY)" },
		/* 6.1 (follow_page with FOLL_DUMP) for a hole too; later: ENOENT */
		{ EFAULT, "address is not mapped, or (older kernels) the page was never touched "
			  "(EFAULT)" },
		{ EIO, "page cannot be written back (EIO)" },
		{ EINVAL, "dirty page cannot be moved (EINVAL)" },
		{ ENOENT, "page is not present (ENOENT)" },
		{ ENOMEM, "no memory on the target node (ENOMEM)" },
		{ 0, "unexpected page status" },
	};

	return status >= 0 ? "on a node" : reason(r, -status);
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
