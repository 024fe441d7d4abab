/* cmd_plot.c — `stratbench plot DIR`: draws DIR/results.csv with the plot
 * script and gnuplot templates installed with the binary
 * (<prefix>/share/stratbench, found relative to the executable, so a
 * relocated install works), or, for a binary in a build tree, the source
 * checkout's scripts/plot.sh. */
#include "cmd/cmd.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#ifndef SB_DATADIR_REL
#define SB_DATADIR_REL "../share/stratbench"
#endif

/* Fills path with the plot script to use; 0, or -1 when none is found.
 * The source checkout is used only by a binary still in its build tree
 * (CMakeCache.txt beside it): an installed one never falls back to it. */
static int find_plot_script(char *path, size_t len)
{
	char exe[PATH_MAX], *dir;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return -1;
	exe[n] = '\0';
	dir = dirname(exe);
	snprintf(path, len, "%s/%s/plot.sh", dir, SB_DATADIR_REL);
	if (access(path, R_OK) == 0)
		return 0;
#ifdef SB_SOURCE_DIR
	snprintf(path, len, "%s/CMakeCache.txt", dir);
	if (access(path, R_OK) == 0) {
		snprintf(path, len, "%s/scripts/plot.sh", SB_SOURCE_DIR);
		if (access(path, R_OK) == 0)
			return 0;
	}
#endif
	return -1;
}

static int plot_main(int argc, char **argv)
{
	struct sb_args args = { .npos = 1 };
	char script[PATH_MAX + 64];

	if (sb_cmd_args(&sb_cmd_plot, argc, argv, &args))
		return SB_EXIT_USAGE;
	sb_args_free(&args);
	if (!args.npos) {
		fprintf(stderr, "stratbench: plot needs a results directory (stratbench plot DIR)\n");
		return SB_EXIT_USAGE;
	}
	if (find_plot_script(script, sizeof(script))) {
		fprintf(stderr, "stratbench: cannot find plot.sh (looked in %s next to the "
			"executable): reinstall stratbench\n", SB_DATADIR_REL);
		return 1;
	}
	fflush(stdout);
	execlp("bash", "bash", script, args.pos[0], (char *)NULL);
	fprintf(stderr, "stratbench: cannot run bash %s: %s\n", script, strerror(errno));
	return 1;
}

const struct sb_command sb_cmd_plot = {
	.name = "plot",
	.summary = "draw a results directory's results.csv with gnuplot",
	.usage = "DIR",
	.description = "Writes DIR/plots/<family>-throughput.png and .svg: ops/s against threads,\n"
		       "one line per strategy[/lock] and placement, medians when the run had\n"
		       "repetitions.  Needs gnuplot (Debian: gnuplot-nox).  The templates are\n"
		       "<prefix>/share/stratbench/plots/*.gp; in a source checkout,\n"
		       "scripts/plot.sh DIR does the same with plots/*.gp.\n",
	.example = "stratbench run --threads=1,2 --out=results/mine\n"
		   "stratbench plot results/mine\n",
	.run = plot_main,
};
