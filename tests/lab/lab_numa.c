/* lab_numa.c — where memory really is, asked of the kernel, for the lab tests.
 *
 *   lab_numa pages PID ADDR        node of the page at hex ADDR in process PID
 *                                  (move_pages(2) with nodes=NULL): "ADDR NODE"
 *   lab_numa alloc NODE [CPU]      sb_topo_alloc_on_node() on NODE, from a thread
 *                                  pinned to CPU (default 0): "bound=B policy=P
 *                                  pages: N N ..." (move_pages and get_mempolicy)
 *   lab_numa unbound [CPU]         the deliberately broken fixture: plain
 *                                  memory first touched on CPU, no node policy
 *
 * It only reports; the shell tests decide.  Exit 0 when it could ask, 1 when
 * the kernel could not answer, 2 for bad usage.  No libnuma: the two system
 * calls are made directly.
 */
#include <errno.h>
#include <linux/mempolicy.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "machine/topo.h"

#define NPAGES 16

static long move_pages(int pid, unsigned long count, void **pages, const int *nodes, int *status,
		       int flags)
{
	return syscall(SYS_move_pages, pid, count, pages, nodes, status, flags);
}

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "lab_numa: cannot pin to CPU %d: %s\n", cpu, strerror(errno));
		return -1;
	}
	return 0;
}

/* "bound=B policy=P pages: N ..." for n pages at p; the policy node is
 * get_mempolicy()'s node of the first page, -1 when it cannot tell. */
static int report(void *p, size_t n, int bound)
{
	long psz = sysconf(_SC_PAGESIZE);
	void *pages[NPAGES];
	int status[NPAGES], mode = -1;
	size_t i;

	for (i = 0; i < n; i++)
		pages[i] = (char *)p + i * psz;
	if (move_pages(0, n, pages, NULL, status, 0)) {
		fprintf(stderr, "lab_numa: move_pages: %s\n", strerror(errno));
		return 1;
	}
	if (syscall(SYS_get_mempolicy, &mode, NULL, 0, p, MPOL_F_NODE | MPOL_F_ADDR))
		mode = -1;
	printf("bound=%d policy=%d pages:", bound, mode);
	for (i = 0; i < n; i++)
		printf(" %d", status[i]);
	printf("\n");
	return 0;
}

static int cmd_pages(const char *pid_s, const char *addr_s)
{
	char *end;
	long pid = strtol(pid_s, &end, 10);
	uintptr_t addr;
	void *page;
	int status = -1;

	if (*end || pid <= 0) {
		fprintf(stderr, "lab_numa: bad PID '%s'\n", pid_s);
		return 2;
	}
	addr = (uintptr_t)strtoull(addr_s, &end, 16);
	if (*end || end == addr_s) {
		fprintf(stderr, "lab_numa: bad address '%s' (want hex)\n", addr_s);
		return 2;
	}
	page = (void *)addr;
	if (move_pages((int)pid, 1, &page, NULL, &status, 0)) {
		fprintf(stderr, "lab_numa: move_pages(pid %ld): %s\n", pid, strerror(errno));
		return 1;
	}
	if (status < 0) {
		fprintf(stderr, "lab_numa: page %s of pid %ld: %s\n", addr_s, pid, strerror(-status));
		return 1;
	}
	printf("%s %d\n", addr_s, status);
	return 0;
}

static int cmd_alloc(int node, int cpu)
{
	long psz = sysconf(_SC_PAGESIZE);
	struct sb_topo *t;
	char err[256];
	bool bound;
	void *p;
	int rc;

	if (pin(cpu))
		return 1;
	if (sb_topo_load(&t, NULL, err, sizeof(err))) {
		fprintf(stderr, "lab_numa: %s\n", err);
		return 1;
	}
	p = sb_topo_alloc_on_node(t, NPAGES * psz, node, &bound, err, sizeof(err));
	if (!p) {
		fprintf(stderr, "lab_numa: %s\n", err);
		sb_topo_destroy(t);
		return 1;
	}
	rc = report(p, NPAGES, bound);
	sb_topo_free(t, p, NPAGES * psz);
	sb_topo_destroy(t);
	return rc;
}

static int cmd_unbound(int cpu)
{
	long psz = sysconf(_SC_PAGESIZE);
	char *p;
	int rc;

	if (pin(cpu))
		return 1;
	p = mmap(NULL, NPAGES * psz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	memset(p, 1, NPAGES * psz);	/* first touch: the local node of cpu */
	rc = report(p, NPAGES, 0);
	munmap(p, NPAGES * psz);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "pages") == 0)
		return cmd_pages(argv[2], argv[3]);
	if ((argc == 3 || argc == 4) && strcmp(argv[1], "alloc") == 0)
		return cmd_alloc(atoi(argv[2]), argc == 4 ? atoi(argv[3]) : 0);
	if ((argc == 2 || argc == 3) && strcmp(argv[1], "unbound") == 0)
		return cmd_unbound(argc == 3 ? atoi(argv[2]) : 0);
	fprintf(stderr, "usage: lab_numa pages PID ADDR | alloc NODE [CPU] | unbound [CPU]\n");
	return 2;
}
