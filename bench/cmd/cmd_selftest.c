/* cmd_selftest.c — `stratbench selftest`: what the C API costs.  Runs the
 * same empty work item as a native C++ loop and through the C batched loop
 * (batches of 1, 64, 1024); compare their ns/iteration in one run. */
#include "cmd/cmd.h"

static int selftest_main(int argc, char **argv)
{
	struct sb_args args = { .npos = 0 };
	int rc;

	if (sb_cmd_args(&sb_cmd_selftest, argc, argv, &args))
		return SB_EXIT_USAGE;
	sb_gbench_register_selftest();
	rc = sb_gbench_main(args.gb_argc, args.gb_argv);
	sb_args_free(&args);
	return rc;
}

const struct sb_command sb_cmd_selftest = {
	.name = "selftest",
	.summary = "what the C API over Google Benchmark costs per iteration",
	.usage = "[--benchmark_*...]",
	.description = "Runs one empty work item as a native C++ loop and through the C API's\n"
		       "batched loop (batches of 1, 64, 1024): compare their ns/iteration.\n",
	.gbench_flags = true,
	.example = "stratbench selftest --benchmark_min_time=0.1\n",
	.run = selftest_main,
};
