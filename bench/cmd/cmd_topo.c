/* cmd_topo.c — `stratbench topo`: the machine summary and, on request, a plan. */
#include "cmd/cmd.h"

#include <stdlib.h>
#include <string.h>

int sb_cmd_topo(int argc, char **argv)
{
	struct sb_opts o;
	struct sb_topo *t;
	char err[256], *end = NULL;
	int n, i, *cpus;

	if (sb_opts_parse(&o, argc, argv, err, sizeof(err))) {
		fprintf(stderr, "stratbench: %s\n", err);
		sb_opts_free(&o);
		return SB_EXIT_USAGE;
	}
	sb_opts_free(&o);	/* topo uses no Google Benchmark flags */
	if (sb_topo_load(&t, o.topology, err, sizeof(err))) {
		fprintf(stderr, "stratbench: %s\n", err);
		return SB_EXIT_USAGE;
	}
	sb_topo_print(t, stdout);
	if (strcmp(o.placement, "auto") == 0) {
		sb_topo_destroy(t);
		return 0;
	}
	if (strcmp(o.threads, "auto") == 0) {
		n = sb_topo_npus(t);
	} else {
		n = (int)strtol(o.threads, &end, 10);
		if (*end)
			n = 0;
	}
	if (n < 1) {
		fprintf(stderr, "stratbench: topo takes one thread count (got '%s')\n", o.threads);
		sb_topo_destroy(t);
		return SB_EXIT_USAGE;
	}
	cpus = calloc(n > 0 ? n : 1, sizeof(int));
	if (sb_topo_plan(t, o.placement, n, cpus, err, sizeof(err))) {
		fprintf(stderr, "stratbench: %s\n", err);
		free(cpus);
		sb_topo_destroy(t);
		return SB_EXIT_USAGE;
	}
	printf("plan %s, %d threads:", o.placement, n);
	for (i = 0; i < n; i++)
		printf("%s%d", i ? "," : " ", cpus[i]);
	printf("\n");
	for (i = 0; i < n; i++) {
		int pkg, core, node;

		sb_topo_cpu_where(t, cpus[i], &pkg, &core, &node);
		printf("  thread %d -> CPU %d (package %d, core %d, node %d)\n", i, cpus[i], pkg,
		       core, node);
	}
	free(cpus);
	sb_topo_destroy(t);
	return 0;
}
