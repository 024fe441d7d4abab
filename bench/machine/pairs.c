/* pairs.c — which CPU pairs the core-to-core latency matrix measures
 * (topo.h): every pair on small machines, an O(PUs) sample covering every
 * relation on big ones. */
#include <stratbench/topo.h>

#include <stdlib.h>

static int cmp_pair(const void *a, const void *b)
{
	const int *x = a, *y = b;

	return x[0] != y[0] ? (x[0] > y[0]) - (x[0] < y[0]) : (x[1] > y[1]) - (x[1] < y[1]);
}

/* Appends (a, b) as (min, max); a == b is skipped. */
static void put(int *v, int *n, int a, int b)
{
	if (a == b)
		return;
	v[2 * (size_t)*n] = a < b ? a : b;
	v[2 * (size_t)*n + 1] = a < b ? b : a;
	(*n)++;
}

int sb_topo_pairs(const struct sb_topo *t, bool all, int **pairs)
{
	int npus = sb_topo_npus(t), npk = sb_topo_npackages(t), n = 0, first0 = -1, i, j, k;
	size_t cap = all ? (size_t)npus * (npus - 1) / 2 : (size_t)2 * npus + (size_t)npk * npk;
	int *v = malloc(sizeof(int) * 2 * (cap ? cap : 1));
	int *first = malloc(sizeof(int) * npk);	/* first PU (OS number) of each package */

	*pairs = NULL;
	if (!v || !first) {
		free(v);
		free(first);
		return -1;
	}
	if (all) {
		for (i = 0; i < npus; i++)
			for (j = i + 1; j < npus; j++)
				put(v, &n, sb_topo_pu_os(t, i), sb_topo_pu_os(t, j));
	} else {
		for (k = 0; k < npk; k++)
			first[k] = -1;
		for (i = 0; i < npus; i++) {
			int os = sb_topo_pu_os(t, i), pkg = -1, core, node;

			sb_topo_cpu_where(t, os, &pkg, &core, &node);
			if (pkg >= 0 && pkg < npk && first[pkg] < 0)
				first[pkg] = os;
			if (pkg == 0 && first0 < 0)
				first0 = os;	/* the machine's first PU (package 0) */
		}
		for (i = 0; i < npus; i++) {
			int os = sb_topo_pu_os(t, i), pkg = -1, core, node;

			sb_topo_cpu_where(t, os, &pkg, &core, &node);
			if (pkg < 0 || pkg >= npk)
				continue;
			put(v, &n, first[pkg], os);		/* within its package */
			if (pkg != 0 && first0 >= 0)
				put(v, &n, first0, os);		/* from the first PU across packages */
		}
		for (j = 1; j < npk; j++)		/* between the other packages */
			for (k = j + 1; k < npk; k++)
				if (first[j] >= 0 && first[k] >= 0)
					put(v, &n, first[j], first[k]);
	}
	qsort(v, n, sizeof(int) * 2, cmp_pair);
	for (i = 0, j = 0; i < n; i++)		/* drop repeats */
		if (!j || cmp_pair(&v[2 * (size_t)i], &v[2 * ((size_t)j - 1)])) {
			v[2 * (size_t)j] = v[2 * (size_t)i];
			v[2 * (size_t)j + 1] = v[2 * (size_t)i + 1];
			j++;
		}
	n = j;
	free(first);
	*pairs = v;
	return n;
}
