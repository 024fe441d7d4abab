/* fuzz_synthetic — `--topology=synthetic:DESC` with any DESC: hwloc's
 * synthetic parser plus ours (load, summary, every named plan).  A
 * topology either loads and plans consistently or fails with one line. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine/topo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sb_topo *t = NULL;
	char err[256], *spec;
	int cpus[64];

	if (size > 512)
		return 0;
	spec = malloc(size + 11);
	memcpy(spec, "synthetic:", 10);
	memcpy(spec + 10, data, size);
	spec[size + 10] = '\0';
	err[0] = '\0';
	if (sb_topo_load(&t, spec, err, sizeof(err)) == 0) {
		int n = sb_topo_npus(t);

		if (n < 1 || sb_topo_ncores(t) < 1 || sb_topo_ncores(t) > n)
			abort();
		/* very large synthetic machines only get checked up to 64 threads */
		for (const char *const *p = sb_topo_placements; *p; p++)
			(void)sb_topo_plan(t, *p, n < 64 ? n : 64, cpus, err, sizeof(err));
		sb_topo_destroy(t);
	} else if (!err[0] || strchr(err, '\n')) {
		abort();
	}
	free(spec);
	return 0;
}
