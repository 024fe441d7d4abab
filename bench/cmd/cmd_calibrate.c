/* cmd_calibrate.c — `stratbench calibrate [--pairs=auto|all|sample] [--out=DIR]
 * [--benchmark_*]`: the calibrate family alone, at the length the Google
 * Benchmark flags ask for (inside `run --limits` it is brief). */
#include "cmd/cmd.h"

#include <stdlib.h>
#include <string.h>

/* parsed here to refuse anything else; run parses them again for real */
static const char *out, *pairs;
static const char *const pairs_choices[] = { "auto", "all", "sample", NULL };

static const struct sb_option calibrate_options[] = {
	{ "pairs", SB_OPT_STRING, &pairs, 0, 0, pairs_choices, "auto|all|sample",
	  "latency matrix CPU pairs (default auto: up to 3 per distance class; all: every "
	  "pair, the heatmap; sample: O(PUs) pairs covering every relation)" },
	{ "out", SB_OPT_STRING, &out, 0, 0, NULL, "DIR",
	  "write DIR/gbench.json and DIR/results.csv; refuses a DIR holding results (default: none)" },
	{ 0 },
};

static int calibrate_main(int argc, char **argv)
{
	struct sb_args args = { .npos = 0 };
	char **av;
	int i, rc;

	if (sb_cmd_args(&sb_cmd_calibrate, argc, argv, &args))
		return SB_EXIT_USAGE;
	sb_args_free(&args);
	av = calloc((size_t)argc + 2, sizeof(*av));
	if (!av)
		return 1;
	av[0] = "run";
	av[1] = "--family=calibrate";
	for (i = 1; i < argc; i++)
		av[i + 1] = argv[i];
	rc = sb_cmd_run.run(argc + 1, av);
	free(av);
	return rc;
}

const struct sb_command sb_cmd_calibrate = {
	.name = "calibrate",
	.summary = "the machine's limits alone: core-to-core latency matrix, uncontended op "
		   "costs, flush round trip",
	.usage = "[--pairs=auto|all|sample] [--out=DIR] [--benchmark_*...]",
	.description = "Runs the calibrate family (run --family=calibrate) at the length the\n"
		       "--benchmark_* flags ask for; run --limits runs it briefly before the\n"
		       "strategies so their results carry limit_ops and of_limit.\n",
	.options = calibrate_options,
	.gbench_flags = true,
	.example = "stratbench calibrate --benchmark_min_time=0.5 --out=results/cal\n",
	.run = calibrate_main,
};
