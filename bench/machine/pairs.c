/* pairs.c — which CPU pairs the core-to-core latency matrix measures (topo.h). */
#include "machine/topo.h"

#include <stdlib.h>
#include <string.h>

const char *const sb_pairs_mode_names[] = { "classes", "all", "sample", NULL };

int sb_pairs_mode_parse(const char *s)
{
	if (!s || !strcmp(s, "auto"))
		return SB_PAIRS_CLASS;
	if (!strcmp(s, "all"))
		return SB_PAIRS_ALL;
	if (!strcmp(s, "sample"))
		return SB_PAIRS_SAMPLE;
	return -1;
}

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

/* Up to SB_PAIRS_PER_CLASS pairs of each relation, spread: the m-th of a class takes the PU at
 * fraction f = (2m+1)/(2K) of the PUs that have a partner of the class (tree order), and its
 * partner at the same fraction of its partners of the class.  O(PUs^2) relation look-ups,
 * constant each; -1 when out of memory. */
static int by_class(const struct sb_topo *t, int *v)
{
	int npus = sb_topo_npus(t), n = 0;
	int *cnt = calloc((size_t)npus * SB_REL_COUNT + 1, sizeof(int));	/* partners per class */
	int *has = malloc(sizeof(int) * (npus ? npus : 1));

	if (!cnt || !has) {
		free(cnt);
		free(has);
		return -1;
	}
	for (int i = 0; i < npus; i++)
		for (int j = i + 1; j < npus; j++) {
			int r = sb_topo_relation_at(t, i, j);

			if (r >= 0) {
				cnt[(size_t)i * SB_REL_COUNT + r]++;
				cnt[(size_t)j * SB_REL_COUNT + r]++;
			}
		}
	for (int r = 0; r < SB_REL_COUNT; r++) {
		int nh = 0, k;

		for (int i = 0; i < npus; i++)
			if (cnt[(size_t)i * SB_REL_COUNT + r])
				has[nh++] = i;
		k = nh < SB_PAIRS_PER_CLASS ? nh : SB_PAIRS_PER_CLASS;
		for (int m = 0; m < k; m++) {
			int i = has[(size_t)(2 * m + 1) * nh / (2 * (size_t)k)];
			int want = (int)((size_t)(2 * m + 1) * cnt[(size_t)i * SB_REL_COUNT + r] /
					 (2 * (size_t)k));

			for (int j = 0; j < npus; j++)
				if (j != i && sb_topo_relation_at(t, i, j) == r && want-- == 0) {
					put(v, &n, sb_topo_pu_os(t, i), sb_topo_pu_os(t, j));
					break;
				}
		}
	}
	free(cnt);
	free(has);
	return n;
}

int sb_topo_pairs(const struct sb_topo *t, enum sb_pairs_mode mode, int **pairs)
{
	int npus = sb_topo_npus(t), npk = sb_topo_npackages(t), n = 0, first0 = -1, i, j, k;
	bool all = mode == SB_PAIRS_ALL;
	size_t cap = all ? (size_t)npus * (npus - 1) / 2 :
		     mode == SB_PAIRS_CLASS ? (size_t)SB_REL_COUNT * SB_PAIRS_PER_CLASS :
		     (size_t)2 * npus + (size_t)npk * npk;
	int *v = malloc(sizeof(int) * 2 * (cap ? cap : 1));
	int *first = malloc(sizeof(int) * npk);	/* first PU (OS number) of each package */

	*pairs = NULL;
	if (!v || !first || (mode == SB_PAIRS_CLASS && (n = by_class(t, v)) < 0)) {
		free(v);
		free(first);
		return -1;
	}
	if (all) {
		for (i = 0; i < npus; i++)
			for (j = i + 1; j < npus; j++)
				put(v, &n, sb_topo_pu_os(t, i), sb_topo_pu_os(t, j));
	} else if (mode == SB_PAIRS_SAMPLE) {
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
				put(v, &n, first0, os);		/* from the first PU, across */
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
