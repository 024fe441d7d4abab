/* sweep.c — the thread counts of a sweep (--threads=auto|all|1,2,...).
 *
 * auto: powers of two from 1 while below #PUs, plus the boundaries where the machine changes
 * character, so that SMT and cross-socket cliffs show: cores per package (the last count that fits
 * in one package under `cores`/`scatter`), cores per package + 1 (the first that crosses), all
 * cores (the last without SMT siblings) and all PUs.  Counts above #PUs are dropped, the rest
 * sorted and unique: O(log #PUs) counts (1,2 on a 2-PU VM; 1,2,4,8,12,13,16,24,32,48 on a 2-socket
 * 12-core SMT2 Haswell).
 * all: every count from 1 to #PUs.  A list: counts and ranges (1-4,8, as hwloc's CPU lists), as
 * given, repeats dropped.  out must hold #PUs + 4 counts for auto (fewer are cut, smallest kept).
 */
#include "machine/topo.h"

#include <stdlib.h>
#include <string.h>

/* Appends v unless present or out of 1..npus; never beyond max. */
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

int sb_topo_thread_counts(const struct sb_topo *t, const char *spec, int *out, int max,
			  char *err, size_t errlen)
{
	int npus = sb_topo_npus(t), k = 0, v;

	if (strcmp(spec, "auto") == 0) {
		int cpp = sb_topo_ncores(t) / sb_topo_npackages(t);
		int bounds[] = { cpp, cpp + 1, sb_topo_ncores(t), npus };

		for (v = 1; v < npus; v *= 2)
			k = add(out, k, max, v, npus);
		for (size_t i = 0; i < sizeof(bounds) / sizeof(bounds[0]); i++)
			k = add(out, k, max, bounds[i], npus);
		qsort(out, k, sizeof(int), cmp_int);
		return k;
	}
	if (strcmp(spec, "all") == 0) {
		if (npus > max) {
			snprintf(err, errlen, "--threads=all: %d counts, at most %d", npus, max);
			return -1;
		}
		for (v = 1; v <= npus; v++)
			out[k++] = v;
		return k;
	}
	for (const char *p = spec; *p;) {
		char *end;
		long n, hi;

		/* strtol would take a sign or blanks: a count starts with a digit */
		n = *p >= '0' && *p <= '9' ? strtol(p, &end, 10) : (end = (char *)p, 0);
		hi = n;
		if (end != p && *end == '-') {	/* a range, N-M */
			const char *q = end + 1;

			hi = *q >= '0' && *q <= '9' ? strtol(q, &end, 10) : (end = (char *)q, 0);
			if (end == q || hi < n) {
				snprintf(err, errlen, "bad thread count range in '%s' (want N-M with "
					 "1 <= N <= M, e.g. 1-4,8)", spec);
				return -1;
			}
		}
		if (end == p || (*end && *end != ',') || (*end == ',' && !end[1]) || n < 1) {
			snprintf(err, errlen, "bad thread count list '%s' (want e.g. 1,2,4, 1-4,8, "
				 "auto or all)", spec);
			return -1;
		}
		if (hi > npus) {
			snprintf(err, errlen, "%ld threads but this machine has %d CPUs", hi, npus);
			return -1;
		}
		for (long v2 = n; v2 <= hi; v2++) {
			if (k == max) {
				snprintf(err, errlen, "too many thread counts in '%s'", spec);
				return -1;
			}
			k = add(out, k, max, (int)v2, npus);	/* a repeat would register twice */
		}
		p = *end ? end + 1 : end;
	}
	return k;
}

int sb_topo_key_counts(const struct sb_topo *t, int *out, int max)
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
