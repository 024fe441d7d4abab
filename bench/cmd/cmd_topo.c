/* cmd_topo.c — `stratbench topo`: the machine summary and, on request, a plan. */
#include "cmd/cmd.h"

#include <stdlib.h>
#include <string.h>

static const char *topology, *placement, *threads, *pairs = "auto";
static const char *const pairs_choices[] = { "auto", "all", "sample", NULL };

/* The latency matrix calibrate would measure here (--pairs). */
static void print_pairs(const struct sb_topo *t)
{
	int mode = sb_pairs_mode_parse(pairs), *p = NULL, count[SB_REL_COUNT] = { 0 }, i;
	int n = sb_topo_pairs(t, mode < 0 ? SB_PAIRS_CLASS : (enum sb_pairs_mode)mode, &p);

	for (i = 0; i < n; i++) {
		int r = sb_topo_relation(t, p[2 * (size_t)i], p[2 * (size_t)i + 1]);

		if (r >= 0)
			count[r]++;
	}
	printf("latency matrix (%s): %d pairs:", sb_pairs_mode_names[mode < 0 ? 0 : mode],
	       n > 0 ? n : 0);
	for (i = 0; i < SB_REL_COUNT; i++)
		if (count[i])
			printf(" %s %d", sb_rel_names[i], count[i]);
	printf("\n");
	free(p);
}

static const struct sb_option topo_options[] = {
	{ "topology", SB_OPT_STRING, &topology, 0, 0, NULL, "T",
	  "synthetic:DESC (hwloc synthetic) or xml:FILE (an lstopo export) (default: this machine)" },
	{ "placement", SB_OPT_STRING, &placement, 0, 0, NULL, "P",
	  "also print the plan: compact, cores, scatter or list:CPUS (default: none)" },
	{ "threads", SB_OPT_STRING, &threads, 0, 0, NULL, "N",
	  "thread count of the plan (default: the number of PUs)" },
	{ "pairs", SB_OPT_STRING, &pairs, 0, 0, pairs_choices, "auto|all|sample",
	  "count the latency matrix's CPU pairs per relation as calibrate would measure "
	  "them (default auto: up to 3 per distance class)" },
	{ 0 },
};

/* The plan: the CPU of each of n threads. */
static void print_plan(const struct sb_topo *t, const int *cpus, int n)
{
	printf("plan %s, %d threads:", placement, n);
	for (int i = 0; i < n; i++)
		printf("%s%d", i ? "," : " ", cpus[i]);
	printf("\n");
	for (int i = 0; i < n; i++) {
		int pkg, core, node;

		sb_topo_cpu_where(t, cpus[i], &pkg, &core, &node);
		printf("  thread %d -> CPU %d (package %d, core %d, node %d)\n", i, cpus[i], pkg,
		       core, node);
	}
}

static int topo_main(int argc, char **argv)
{
	struct sb_args args = { .npos = 0 };
	struct sb_topo *t;
	char err[256], *end = NULL;
	int n, *cpus, rc = SB_EXIT_USAGE;

	topology = placement = threads = NULL;
	pairs = "auto";
	if (sb_cmd_args(&sb_cmd_topo, argc, argv, &args))
		return SB_EXIT_USAGE;
	/* every usage check before anything is printed */
	if (threads && !placement)
		return sb_cmd_error(SB_EXIT_USAGE, "topo --threads needs --placement");
	if (sb_topo_load(&t, topology, err, sizeof(err)))
		return sb_cmd_error(SB_EXIT_USAGE, "%s", err);
	n = sb_topo_npus(t);
	if (threads) {
		long v = strtol(threads, &end, 10);

		if (*end || end == threads || v < 1 || v > 65536) {
			sb_topo_destroy(t);
			return sb_cmd_error(SB_EXIT_USAGE, "bad value in '--threads=%s': want one "
					    "thread count, a whole number from 1 to 65536", threads);
		}
		n = (int)v;
	}
	cpus = calloc(n > 0 ? n : 1, sizeof(int));
	if (placement && (!cpus || sb_topo_plan(t, placement, n, cpus, err, sizeof(err)))) {
		sb_cmd_error(rc, "%s", cpus ? err : "out of memory");
	} else {
		sb_topo_print(t, stdout);
		print_pairs(t);
		if (placement)
			print_plan(t, cpus, n);
		rc = 0;
	}
	free(cpus);
	sb_topo_destroy(t);
	return rc;
}

const struct sb_command sb_cmd_topo = {
	.name = "topo",
	.summary = "the machine's topology and, on request, a placement plan",
	.usage = "[--topology=T] [--placement=P [--threads=N]]",
	.description = "Prints packages, NUMA nodes, cores and PUs as hwloc sees them; with\n"
		       "--placement, the CPU each thread of a run would be pinned to.  Plan for a\n"
		       "lab machine without having it with a synthetic or XML topology.\n",
	.options = topo_options,
	.example = "stratbench topo --topology=\"synthetic:pack:2 numa:2 core:9 pu:2\" "
		   "--placement=scatter --threads=8\n",
	.run = topo_main,
};
