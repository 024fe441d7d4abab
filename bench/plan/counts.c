/* counts.c — the thread counts and placements where a suite's answer can
 * change (plan.h), chosen from the machine instead of every count. */
#include "plan/plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine/topo.h"

static int add(int *out, int k, int max, int v, int npus)
{
	for (int i = 0; i < k; i++)
		if (out[i] == v)
			return k;
	if (v >= 1 && v <= npus && k < max)
		out[k++] = v;
	return k;
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

int sb_plan_key_counts(const struct sb_topo *t, int *out, int max)
{
	int npus = sb_topo_npus(t), ncores = sb_topo_ncores(t);
	int npkg = sb_topo_npackages(t) > 0 ? sb_topo_npackages(t) : 1;
	int nnodes = sb_topo_nnodes(t) > 0 ? sb_topo_nnodes(t) : 1;
	/* one package split into nodes (sub-NUMA clustering): a node's cores
	 * are where the answer can change; with 2 or more packages the
	 * package's cores (cores) and 2 threads (scatter) cross them already */
	int per_node = npkg == 1 && nnodes > 1 ? ncores / nnodes : 0;
	int v[] = { 1, 2, per_node, ncores / npkg, ncores, npus };
	int k = 0;

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		k = add(out, k, max, v[i], npus);
	qsort(out, (size_t)k, sizeof(int), cmp_int);
	return k;
}

bool sb_plan_same_cpus(const int *a, const int *b, int n)
{
	int *sa = malloc(sizeof(int) * (size_t)n * 2), *sb;
	bool same;

	if (!sa)
		return !memcmp(a, b, sizeof(int) * (size_t)n);
	sb = sa + n;
	memcpy(sa, a, sizeof(int) * (size_t)n);
	memcpy(sb, b, sizeof(int) * (size_t)n);
	qsort(sa, (size_t)n, sizeof(int), cmp_int);
	qsort(sb, (size_t)n, sizeof(int), cmp_int);
	same = !memcmp(sa, sb, sizeof(int) * (size_t)n);
	free(sa);
	return same;
}

int sb_plan_auto_places(const struct sb_topo *t, int threads)
{
	int *sets = malloc(sizeof(int) * (size_t)threads * 3);
	int kept = 0;
	char err[256];

	for (int i = 0; sets && i < 3; i++) {
		static const char *const places[] = { "compact", "cores", "scatter" };
		int *cpus = sets + (size_t)kept * threads;
		bool dup = false;

		if (sb_topo_plan(t, places[i], threads, cpus, err, sizeof(err)))
			continue;
		for (int j = 0; j < kept; j++)
			dup |= sb_plan_same_cpus(sets + (size_t)j * threads, cpus, threads);
		kept += !dup;
	}
	free(sets);
	return kept;
}
