/* cmd_calibrate.c — `stratbench calibrate [--pairs=all|sample] [--out=DIR]
 * [--benchmark_*]`: the calibrate family alone, at the length the Google
 * Benchmark flags ask for (inside `run` it is brief). */
#include "cmd/cmd.h"

#include <stdlib.h>
#include <string.h>

int sb_cmd_calibrate(int argc, char **argv)
{
	char **av = calloc(argc + 2, sizeof(*av));
	int i, rc;

	for (i = 1; i < argc; i++)
		if (!strncmp(argv[i], "--family", 8) || !strncmp(argv[i], "--limits", 8)) {
			fprintf(stderr, "stratbench: calibrate runs the calibrate family only "
				"(drop '%s')\n", argv[i]);
			free(av);
			return SB_EXIT_USAGE;
		}
	av[0] = argv[0];
	av[1] = "--family=calibrate";
	for (i = 1; i < argc; i++)
		av[i + 1] = argv[i];
	rc = sb_cmd_run(argc + 1, av);
	free(av);
	return rc;
}
