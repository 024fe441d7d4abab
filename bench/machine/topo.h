/* machine/ — what the harness reads of the machine: the topology, thread plans and CPU pairs
 * (hwloc: topo.c, sweep.c, pairs.c), counters (perf_event_open, tracefs, libpfm4, /proc:
 * counters.c, perf.c, pfm.c, procfs.c), move_pages (kmm.c).
 * uses: core
 *
 * topo.h — topology, placement plans, binding checks, home-node memory.
 *
 * Contract: sb_topo_load() loads this machine (spec NULL or ""), a synthetic topology
 * ("synthetic:pack:2 numa:2 core:9 pu:2") or an XML export ("xml:FILE") with hwloc.
 * sb_topo_plan() maps nthreads to OS CPU numbers (DESIGN.md §6): compact (PUs in tree order:
 * SMT siblings, then cores, then packages), cores (first PU of each core), scatter (round-robin
 * across packages, then NUMA nodes within a package, then cores; SMT siblings only after every
 * core has one thread), list:CPUS (hwloc list syntax of OS CPU numbers, used in ascending
 * order).  Threads beyond what the plan can place are an error.  sb_topo_check_bindable()
 * refuses topologies that are not this system (hwloc would silently not bind) and HWLOC_XMLFILE
 * / HWLOC_SYNTHETIC leaking in from the environment.  Errors are one line in err.
 */
#ifndef STRATBENCH_TOPO_H
#define STRATBENCH_TOPO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct sb_topo;

int sb_topo_load(struct sb_topo **t, const char *spec, char *err, size_t errlen);
void sb_topo_destroy(struct sb_topo *t);

int sb_topo_npus(const struct sb_topo *t);
int sb_topo_ncores(const struct sb_topo *t);
int sb_topo_npackages(const struct sb_topo *t);
int sb_topo_nnodes(const struct sb_topo *t);
bool sb_topo_is_native(const struct sb_topo *t);
bool sb_topo_has_node(const struct sb_topo *t, int node);	/* OS index */
/* OS index of the i-th NUMA node (0 <= i < sb_topo_nnodes), -1 if none. */
int sb_topo_node_os(const struct sb_topo *t, int i);
/* NUMA node (OS index) holding OS CPU cpu, -1 if unknown. */
int sb_topo_node_of_cpu(const struct sb_topo *t, int cpu);
/* Package, core (logical indexes) and NUMA node (OS index) of an OS CPU. */
int sb_topo_cpu_where(const struct sb_topo *t, int cpu, int *pkg, int *core, int *node);
void sb_topo_print(const struct sb_topo *t, FILE *f);
/* OS CPU number of the i-th PU in tree (logical) order, -1 out of range. */
int sb_topo_pu_os(const struct sb_topo *t, int i);

/* How two PUs share the machine, closest first: SMT siblings of one core, a cache shared by
 * their cores (the same L3: a core complex; or the same L2: POWER9's core pairs), the same NUMA
 * node, the same package on another node, another package. */
enum sb_cpu_rel { SB_REL_SMT, SB_REL_CACHE, SB_REL_NODE, SB_REL_PACKAGE, SB_REL_REMOTE,
		  SB_REL_COUNT };
extern const char *const sb_rel_names[SB_REL_COUNT];
/* enum sb_cpu_rel of two distinct OS CPUs, -1 if either is unknown or a == b. */
int sb_topo_relation(const struct sb_topo *t, int cpu_a, int cpu_b);
/* The same, of the i-th and j-th PUs in tree order (constant time). */
int sb_topo_relation_at(const struct sb_topo *t, int i, int j);

/* CPU pairs for the core-to-core latency matrix (pairs.c), as OS CPU numbers with a < b,
 * sorted, no repeats; *pairs is malloc'd (2 ints per pair).
 * SB_PAIRS_CLASS: by distance class (the default, --pairs=auto): for each relation the machine
 * has, up to SB_PAIRS_PER_CLASS pairs spread over it (the PU at 1/6, 1/2 and 5/6 of those that
 * have a partner of the class, each with its partner at the same fraction): at most 5 x 3
 * pairs, on any machine.  SB_PAIRS_ALL: every unordered pair (the heatmap).
 * SB_PAIRS_SAMPLE: O(PUs) pairs that cover every relation the machine has, deterministically:
 * the first PU of each package with every other PU of its package, the first PU of the machine
 * with every PU of the other packages, and the first PUs of every two packages.  Returns the
 * count, or -1 when out of memory. */
enum sb_pairs_mode { SB_PAIRS_CLASS, SB_PAIRS_ALL, SB_PAIRS_SAMPLE };
#define SB_PAIRS_PER_CLASS 3
int sb_topo_pairs(const struct sb_topo *t, enum sb_pairs_mode mode, int **pairs);
/* "auto" (classes), "all", "sample": the mode; -1 for anything else. */
int sb_pairs_mode_parse(const char *s);
extern const char *const sb_pairs_mode_names[];	/* indexed by the mode */

/* Fills cpus[0..nthreads) with OS CPU numbers.  0, or -1 with err set. */
int sb_topo_plan(const struct sb_topo *t, const char *placement, int nthreads, int *cpus,
		 char *err, size_t errlen);
/* Placement names sb_topo_plan() knows, besides list:CPUS. */
extern const char *const sb_topo_placements[];

/* The thread counts of a sweep (bench/machine/sweep.c): spec "auto" (powers of two plus cores
 * per package, +1, all cores, all PUs), "all" (1..#PUs) or a comma list.  Fills out[0..n),
 * returns n, or -1 with err; max >= #PUs + 4 holds every answer. */
int sb_topo_thread_counts(const struct sb_topo *t, const char *spec, int *out, int max,
			  char *err, size_t errlen);

/* The thread counts where a suite's answer can change (sweep.c): 1, 2, a package's
 * cores (a node's too where one package is split into nodes), all cores, all PUs, sorted,
 * repeats dropped (1,2,12,24,48 on a 2-socket 12-core SMT2 machine); at most max. */
int sb_topo_key_counts(const struct sb_topo *t, int *out, int max);

int sb_topo_check_bindable(const struct sb_topo *t, char *err, size_t errlen);

/* Memory bound to NUMA node `node` (page aligned, zeroed); NULL with err set.
 * *bound says whether the binding took (hwloc may not support it here). */
void *sb_topo_alloc_on_node(const struct sb_topo *t, size_t size, int node, bool *bound,
			    char *err, size_t errlen);
void sb_topo_free(const struct sb_topo *t, void *p, size_t size);

#endif
