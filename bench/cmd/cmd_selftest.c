/* cmd_selftest.c — `stratbench selftest`: what the C API costs.  Runs the
 * same empty work item as a native C++ loop and through the C batched loop
 * (batches of 1, 64, 1024); compare their ns/iteration in one run. */
#include "cmd/cmd.h"

#include <string.h>

int sb_cmd_selftest(int argc, char **argv)
{
	char err[4200];
	int i;

	for (i = 1; i < argc; i++) {
		if (strncmp(argv[i], "--benchmark_", 12) != 0) {
			fprintf(stderr, "stratbench: selftest takes only --benchmark_* flags (got '%s')\n",
				argv[i]);
			return SB_EXIT_USAGE;
		}
		if (sb_gb_flag_check(argv[i], err, sizeof(err))) {
			fprintf(stderr, "stratbench: %s\n", err);
			return SB_EXIT_USAGE;
		}
	}
	sb_gbench_register_selftest();
	return sb_gbench_main(argc, argv);
}
