/* counts.c — the placements where a suite's answer can change (plan.h; the
 * thread counts are sb_topo_key_counts's), chosen from the machine. */
#include "plan/plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine/topo.h"

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
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
