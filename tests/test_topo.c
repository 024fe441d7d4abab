/* test_topo.c — placement plans on the lab machines' topologies (synthetic,
 * so they run here), this machine, and bad input. */
#include <stdlib.h>
#include <string.h>

#include <hwloc.h>
#include <unistd.h>

#include "machine/topo.h"

#include "check.h"

static struct sb_topo *load(const char *spec)
{
	struct sb_topo *t = NULL;
	char err[256];
	int rc = sb_topo_load(&t, spec, err, sizeof(err));

	CHECK(rc == 0, "load %s: %s", spec ? spec : "native", err);
	return t;
}

static void expect_plan(struct sb_topo *t, const char *name, const char *placement, int n,
			const int *want)
{
	int *got = calloc(n, sizeof(int)), i;
	char err[256] = "";
	int rc = sb_topo_plan(t, placement, n, got, err, sizeof(err));

	CHECK(rc == 0, "%s %s x%d: %s", name, placement, n, err);
	for (i = 0; rc == 0 && i < n; i++)
		if (got[i] != want[i]) {
			CHECK(got[i] == want[i], "%s %s x%d: thread %d on CPU %d, want %d", name,
			      placement, n, i, got[i], want[i]);
			break;
		}
	free(got);
}

static void expect_reject(struct sb_topo *t, const char *placement, int n, const char *needle)
{
	int cpus[512];
	char err[256] = "";
	int rc = sb_topo_plan(t, placement, n, cpus, err, sizeof(err));

	CHECK(rc != 0, "'%s' x%d must be rejected", placement, n);
	CHECK(strstr(err, needle) != NULL, "'%s': error '%s' lacks '%s'", placement, err, needle);
	CHECK(strchr(err, '\n') == NULL, "one-line error");
}

static void haswell_cod(void)
{
	/* 2 sockets, cluster-on-die: 2 NUMA nodes of 9 cores per socket, SMT2 */
	struct sb_topo *t = load("synthetic:pack:2 numa:2 core:9 pu:2");
	const int compact[] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	const int cores[] = { 0, 2, 4, 6, 8, 10, 12, 14 };
	/* package 0 node 0, package 1 node 2, package 0 node 1, package 1 node 3, ... */
	const int scatter[] = { 0, 36, 18, 54, 2, 38, 20, 56, 4, 40 };
	int all[72], i, seen[72] = { 0 };

	CHECK(sb_topo_npus(t) == 72 && sb_topo_ncores(t) == 36 && sb_topo_npackages(t) == 2 &&
	      sb_topo_nnodes(t) == 4, "haswell shape %d/%d/%d/%d", sb_topo_npus(t),
	      sb_topo_ncores(t), sb_topo_npackages(t), sb_topo_nnodes(t));
	CHECK(!sb_topo_is_native(t), "synthetic is not this system");
	expect_plan(t, "haswell", "compact", 8, compact);
	expect_plan(t, "haswell", "cores", 8, cores);
	expect_plan(t, "haswell", "scatter", 10, scatter);
	/* scatter over all 72: a permutation, every core's first PU (even) before any sibling */
	CHECK(sb_topo_plan(t, "scatter", 72, all, NULL, 0) == 0, "scatter 72");
	for (i = 0; i < 72; i++)
		seen[all[i]]++;
	for (i = 0; i < 72; i++)
		CHECK(seen[i] == 1, "scatter covers CPU %d once", i);
	for (i = 0; i < 36; i++)
		CHECK(all[i] % 2 == 0 && all[36 + i] % 2 == 1, "cores before siblings at %d", i);
	CHECK(sb_topo_node_of_cpu(t, 20) == 1 && sb_topo_node_of_cpu(t, 54) == 3, "node of CPU");
	expect_reject(t, "cores", 37, "has 36 CPUs");
	expect_reject(t, "compact", 73, "has 72 CPUs");
	sb_topo_destroy(t);
}

static void power9(void)
{
	struct sb_topo *t = load("synthetic:pack:2 core:20 pu:4");
	const int cores[] = { 0, 4, 8, 12, 16, 20 };
	const int scatter[] = { 0, 80, 4, 84, 8, 88, 12, 92 };
	const int compact[] = { 0, 1, 2, 3, 4, 5 };
	int all[160];

	CHECK(sb_topo_npus(t) == 160 && sb_topo_ncores(t) == 40, "power9 shape");
	expect_plan(t, "power9", "compact", 6, compact);
	expect_plan(t, "power9", "cores", 6, cores);
	expect_plan(t, "power9", "scatter", 8, scatter);
	/* after all 40 cores have a thread, the second SMT thread of each */
	CHECK(sb_topo_plan(t, "scatter", 160, all, NULL, 0) == 0, "scatter 160");
	CHECK(all[39] == 156 && all[40] == 1 && all[41] == 81, "scatter SMT wrap: %d %d %d",
	      all[39], all[40], all[41]);
	{
		const int l[] = { 0, 2, 4 }, l2[] = { 1, 8, 9 };

		expect_plan(t, "power9", "list:0,2,4", 3, l);
		expect_plan(t, "power9", "list:8-9,1", 3, l2);
	}
	sb_topo_destroy(t);
}

static void power8(void)
{
	struct sb_topo *t = load("synthetic:pack:2 numa:2 core:5 pu:8");
	const int scatter[] = { 0, 80, 40, 120, 8, 88, 48, 128, 16 };
	const int cores[] = { 0, 8, 16, 24, 32, 40 };

	CHECK(sb_topo_npus(t) == 160 && sb_topo_nnodes(t) == 4, "power8 shape");
	expect_plan(t, "power8", "scatter", 9, scatter);
	expect_plan(t, "power8", "cores", 6, cores);
	sb_topo_destroy(t);
}

static void power7(void)
{
	struct sb_topo *t = load("synthetic:pack:4 core:8 pu:4");
	const int scatter[] = { 0, 32, 64, 96, 4, 36, 68, 100, 8 };
	const int cores[] = { 0, 4, 8, 12 };

	CHECK(sb_topo_npus(t) == 128 && sb_topo_npackages(t) == 4, "power7 shape");
	expect_plan(t, "power7", "scatter", 9, scatter);
	expect_plan(t, "power7", "cores", 4, cores);
	sb_topo_destroy(t);
}

static void bad_input(void)
{
	struct sb_topo *t = load("synthetic:pack:1 core:4 pu:1");
	struct sb_topo *bad = NULL;
	char err[256];

	expect_reject(t, "list:abc", 1, "bad CPU list");
	expect_reject(t, "list:3-1", 1, "bad CPU list");
	expect_reject(t, "list:0-", 1, "bad CPU list");
	expect_reject(t, "list:", 1, "bad CPU list");
	expect_reject(t, "list:0,,1", 1, "bad CPU list");
	expect_reject(t, "list:1,", 1, "bad CPU list");
	expect_reject(t, "list:7", 1, "CPU 7 does not exist");
	expect_reject(t, "list:0-1", 3, "has 2 CPUs");
	expect_reject(t, "bogus", 1, "unknown placement");
	expect_reject(t, "compact", 0, "at least 1");
	CHECK(sb_topo_check_bindable(t, err, sizeof(err)) != 0 && strstr(err, "not this machine"),
	      "synthetic refused for binding: %s", err);
	CHECK(sb_topo_load(&bad, "synthetic:pack:x", err, sizeof(err)) != 0 && !bad,
	      "bad synthetic rejected");
	CHECK(sb_topo_load(&bad, "xml:/nonexistent.xml", err, sizeof(err)) != 0 &&
	      strstr(err, "/nonexistent.xml"), "missing XML rejected: %s", err);
	CHECK(sb_topo_load(&bad, "lstopo", err, sizeof(err)) != 0, "unknown spec rejected");
	sb_topo_destroy(t);
}

/* xml:FILE — an lstopo-style export of the POWER8 layout plans the same. */
static void xml_file(void)
{
	char path[] = "/tmp/sb_topo_XXXXXX.xml", spec[64];
	hwloc_topology_t h;
	struct sb_topo *t;
	const int scatter[] = { 0, 80, 40, 120, 8, 88 };
	int fd = mkstemps(path, 4);

	CHECK(fd >= 0, "tmp file");
	close(fd);
	hwloc_topology_init(&h);
	hwloc_topology_set_synthetic(h, "pack:2 numa:2 core:5 pu:8");
	hwloc_topology_load(h);
	CHECK(hwloc_topology_export_xml(h, path, 0) == 0, "export xml");
	hwloc_topology_destroy(h);
	snprintf(spec, sizeof(spec), "xml:%s", path);
	t = load(spec);
	if (t) {
		CHECK(!sb_topo_is_native(t), "xml is not this system");
		expect_plan(t, "xml power8", "scatter", 6, scatter);
		sb_topo_destroy(t);
	}
	unlink(path);
}

static void this_machine(void)
{
	struct sb_topo *t = load(NULL);
	char err[256];
	int n = sb_topo_npus(t), i, *cpus = calloc(n, sizeof(int));

	CHECK(sb_topo_is_native(t), "native topology is this system");
	unsetenv("HWLOC_XMLFILE");
	CHECK(sb_topo_check_bindable(t, err, sizeof(err)) == 0, "native bindable: %s", err);
	setenv("HWLOC_XMLFILE", "/tmp/x.xml", 1);
	CHECK(sb_topo_check_bindable(t, err, sizeof(err)) != 0 && strstr(err, "HWLOC_XMLFILE"),
	      "leaked HWLOC_XMLFILE refused");
	unsetenv("HWLOC_XMLFILE");
	/* compact is tree order; every plan places all PUs exactly once */
	CHECK(sb_topo_plan(t, "compact", n, cpus, err, sizeof(err)) == 0, "compact: %s", err);
	for (i = 1; i < n; i++)
		CHECK(cpus[i] != cpus[0], "distinct CPUs");
	CHECK(sb_topo_plan(t, "scatter", n, cpus, err, sizeof(err)) == 0, "scatter: %s", err);
	free(cpus);
	sb_topo_destroy(t);
}

/* --threads=auto on the lab machines: powers of two plus the package, core
 * and PU boundaries; all: every count; this 2-PU VM stays at 1,2. */
static void expect_counts(const char *spec, const char *mode, const char *want)
{
	struct sb_topo *t = load(spec);
	int *c = calloc(1024, sizeof(int)), n, i;
	char got[4096] = "", err[256] = "";
	size_t len = 0;

	n = sb_topo_thread_counts(t, mode, c, 1024, err, sizeof(err));
	CHECK(n > 0, "%s %s: %s", spec ? spec : "native", mode, err);
	for (i = 0; i < n && len < sizeof(got) - 16; i++)
		len += (size_t)snprintf(got + len, sizeof(got) - len, "%s%d", i ? "," : "", c[i]);
	CHECK(strcmp(got, want) == 0, "%s --threads=%s: got %s, want %s", spec ? spec : "native",
	      mode, got, want);
	free(c);
	sb_topo_destroy(t);
}

static void thread_counts(void)
{
	struct sb_topo *t;
	int c[64], n;
	char err[256] = "";

	expect_counts("synthetic:pack:2 core:12 pu:2", "auto", "1,2,4,8,12,13,16,24,32,48");
	expect_counts("synthetic:pack:2 numa:2 core:5 pu:8", "auto",	/* POWER8 SMT8 */
		      "1,2,4,8,10,11,16,20,32,64,128,160");
	expect_counts("synthetic:pack:2 core:20 pu:4", "auto",		/* POWER9 SMT4 */
		      "1,2,4,8,16,20,21,32,40,64,128,160");
	expect_counts("synthetic:pack:2 core:12 pu:8", "auto",		/* POWER9 SMT8 */
		      "1,2,4,8,12,13,16,24,32,64,128,192");
	expect_counts("synthetic:pack:1 core:4 pu:2", "auto", "1,2,4,5,8");
	expect_counts("synthetic:pack:1 core:2 pu:1", "auto", "1,2");
	expect_counts("synthetic:pack:1 core:1 pu:1", "auto", "1");
	expect_counts("synthetic:pack:1 core:3 pu:1", "all", "1,2,3");
	expect_counts("synthetic:pack:1 core:8 pu:1", "4,1,4,2", "4,1,2");
	expect_counts("synthetic:pack:1 core:8 pu:1", "1-4", "1,2,3,4");	/* hwloc's list syntax */
	expect_counts("synthetic:pack:1 core:8 pu:1", "1-4,8", "1,2,3,4,8");
	expect_counts("synthetic:pack:1 core:8 pu:1", "6,2-3,3-3", "6,2,3");
	t = load("synthetic:pack:1 core:8 pu:1");
	for (const char *const *b = (const char *const[]){ "4-1", "1-", "-4", "1-2-3", "0-2", "1--2",
							   "1-+3", "1- 3", "a-b", "2-4,", NULL };
	     *b; b++) {
		err[0] = '\0';
		CHECK(sb_topo_thread_counts(t, *b, c, 8, err, sizeof(err)) < 0 &&
		      strstr(err, "bad thread count") && !strchr(err, '\n'),
		      "bad range '%s' refused in one line: %s", *b, err);
	}
	CHECK(sb_topo_thread_counts(t, "1-9", c, 16, err, sizeof(err)) < 0 &&
	      strstr(err, "9 threads but this machine has 8 CPUs"), "range above #PUs: %s", err);
	CHECK(sb_topo_thread_counts(t, "1-8", c, 4, err, sizeof(err)) < 0 &&
	      strstr(err, "too many"), "range beyond the buffer: %s", err);
	sb_topo_destroy(t);
	t = load("synthetic:pack:2 core:48 pu:2");
	n = sb_topo_thread_counts(t, "auto", (int[64]){ 0 }, 64, err, sizeof(err));
	CHECK(n > 0 && n <= 16, "192 PUs: auto stays O(log N), got %d counts", n);
	CHECK(sb_topo_thread_counts(t, "all", c, 8, err, sizeof(err)) < 0 &&
	      strstr(err, "at most"), "all beyond the buffer refused: %s", err);
	CHECK(sb_topo_thread_counts(t, "1,,2", c, 8, err, sizeof(err)) < 0 &&
	      strstr(err, "bad thread count"), "bad list refused: %s", err);
	CHECK(sb_topo_thread_counts(t, "2,", c, 8, err, sizeof(err)) < 0, "trailing comma refused");
	CHECK(sb_topo_thread_counts(t, "193", c, 8, err, sizeof(err)) < 0 &&
	      strstr(err, "has 192 CPUs"), "too many threads refused: %s", err);
	sb_topo_destroy(t);
	/* the buffer the plan gives (#PUs + 4) holds every auto sweep */
	t = load("synthetic:pack:1 core:2 pu:1");
	n = sb_topo_thread_counts(t, "auto", c, 2 + 4, err, sizeof(err));
	CHECK(n == 2 && c[0] == 1 && c[1] == 2, "2 PUs, buffer of 6: auto is 1,2 (got %d counts)", n);
	sb_topo_destroy(t);
	t = load("synthetic:pack:2 core:1 pu:1");
	n = sb_topo_thread_counts(t, "auto", c, 2 + 4, err, sizeof(err));
	CHECK(n == 2 && c[0] == 1 && c[1] == 2, "2 packages of 1 core: auto is 1,2 (got %d)", n);
	sb_topo_destroy(t);
	/* this machine: never above its PUs, ends at all PUs */
	t = load(NULL);
	n = sb_topo_thread_counts(t, "auto", c, 64, err, sizeof(err));
	CHECK(n > 0 && c[0] == 1 && c[n - 1] == sb_topo_npus(t), "native auto: 1 .. #PUs");
	sb_topo_destroy(t);
}

int main(void)
{
	thread_counts();
	haswell_cod();
	power9();
	power8();
	power7();
	bad_input();
	xml_file();
	this_machine();
	return check_done("test_topo");
}
