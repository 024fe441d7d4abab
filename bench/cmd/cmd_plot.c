/* cmd_plot.c — `stratbench plot DIR`: draws DIR/results.csv with the plot
 * script and gnuplot templates installed with the binary
 * (<prefix>/share/stratbench, found relative to the executable, so a
 * relocated install works), or, for a binary in a build tree, the source
 * checkout's scripts/plot.sh. */
#include "cmd/cmd.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
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

static bool compare;

static const struct sb_option plot_options[] = {
	{ "compare", SB_OPT_FLAG, &compare, 0, 0, NULL, NULL,
	  "plot --compare OLD NEW: %Change bars of `stratbench compare OLD NEW` into NEW/plots/" },
	{ NULL },
};

static int plot_main(int argc, char **argv)
{
	struct sb_args args = { .npos = 16 };
	char script[PATH_MAX + 64];
	const char *av[20];
	int n = 0;

	compare = false;
	if (sb_cmd_args(&sb_cmd_plot, argc, argv, &args))
		return SB_EXIT_USAGE;
	sb_args_free(&args);
	if (!args.npos || (compare && args.npos != 2)) {
		fprintf(stderr, "stratbench: plot needs %s\n", compare ?
			"two results, OLD and NEW (stratbench plot --compare OLD NEW)" :
			"a results directory (stratbench plot DIR...)");
		return SB_EXIT_USAGE;
	}
	if (find_plot_script(script, sizeof(script))) {
		fprintf(stderr, "stratbench: cannot find plot.sh (looked in %s next to the "
			"executable): reinstall stratbench\n", SB_DATADIR_REL);
		return 1;
	}
	fflush(stdout);
	{	/* --compare runs this binary's compare */
		char exe[PATH_MAX];
		ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

		if (len > 0) {
			exe[len] = '\0';
			setenv("SB_STRATBENCH", exe, 1);
		}
	}
	av[n++] = "bash";
	av[n++] = script;
	if (compare)
		av[n++] = "--compare";
	for (int i = 0; i < args.npos; i++)
		av[n++] = args.pos[i];
	av[n] = NULL;
	execvp("bash", (char *const *)av);
	fprintf(stderr, "stratbench: cannot run bash %s: %s\n", script, strerror(errno));
	return 1;
}

const struct sb_command sb_cmd_plot = {
	.name = "plot",
	.summary = "draw every figure a results directory has data for, with gnuplot",
	.usage = "DIR... | --compare OLD NEW",
	.description = "Writes DIR/plots/*.png and .svg: throughput against threads per family\n"
		       "and placement (medians, min-max bars, CV flags), the lock family's wait\n"
		       "percentiles, and one figure per benchmark group and machine for a\n"
		       "`stratbench merge` directory; the figures of a family without results\n"
		       "are not drawn.  --compare OLD NEW draws %Change bars into NEW/plots/.\n"
		       "Needs gnuplot (Debian: gnuplot-nox).  The templates are\n"
		       "<prefix>/share/stratbench/plots/*.gp; in a source checkout,\n"
		       "scripts/plot.sh does the same with plots/*.gp.\n",
	.options = plot_options,
	.example = "stratbench run --threads=1,2 --out=results/mine\n"
		   "stratbench plot results/mine\n"
		   "stratbench plot --compare results/prev results/mine\n",
	.run = plot_main,
};
