/* cmd_plot.c — `stratbench plot DIR...` and `stratbench plot --compare OLD
 * NEW`: the figures of figures/plot.h, drawn by gnuplot from the templates
 * installed with the binary (<prefix>/share/stratbench/plots, found
 * relative to the executable, so a relocated install works), or, for a
 * binary in a build tree, the source checkout's plots/; SB_PLOTS names
 * another directory (a test's broken copy, a user's own).  One line per
 * error: exit 2 for usage (or a DIR with no results), 1 for a failure. */
#include "cmd/cmd.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "figures/plot.h"
#include "html/html.h"

#ifndef SB_DATADIR_REL
#define SB_DATADIR_REL "../share/stratbench"
#endif

/* dir holds the templates: then made absolute, without ../ (the plot
 * lines name it) */
static bool has_templates(char *dir)
{
	char path[PATH_MAX + 128], real[SB_PATH];

	snprintf(path, sizeof(path), "%s/common.gp", dir);
	if (access(path, R_OK))
		return false;
	if (realpath(dir, real))
		snprintf(dir, SB_PATH, "%s", real);
	return true;
}

/* Fills dir with the templates' directory; 0, or -1 when none is found.
 * The source checkout is used only by a binary still in its build tree
 * (CMakeCache.txt beside it): an installed one never falls back to it. */
static int find_templates(char *dir, size_t len, char *looked, size_t looklen)
{
	const char *env = getenv("SB_PLOTS");
	char exe[SB_PATH], *d;
	ssize_t n;

	if (env && *env) {
		snprintf(dir, len, "%s", env);
		snprintf(looked, looklen, "%s (SB_PLOTS)", env);
		return has_templates(dir) ? 0 : -1;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return -1;
	exe[n] = '\0';
	d = dirname(exe);
	snprintf(dir, len, "%s/%s/plots", d, SB_DATADIR_REL);
	snprintf(looked, looklen, "%s", dir);
	if (has_templates(dir))
		return 0;
#ifdef SB_SOURCE_DIR
	snprintf(dir, len, "%s/CMakeCache.txt", d);
	if (access(dir, R_OK) == 0) {
		snprintf(dir, len, "%s/plots", SB_SOURCE_DIR);
		if (has_templates(dir))
			return 0;
	}
#endif
	return -1;
}

/* the figures drawn, one line each; then freed */
static void show_figs(struct sb_figs *figs, const char *tpldir)
{
	for (int i = 0; i < figs->n; i++) {
		size_t n = strlen(figs->v[i].svg);

		printf("plot: %.*s.png (template %s/%s)\n", (int)(n > 4 ? n - 4 : n),
		       figs->v[i].svg, tpldir, figs->v[i].tpl);
	}
	fflush(stdout);
	sb_figs_free(figs);
}

/* DIR/index.html of r and figs; a suite's kernel stage (DIR/kernel, with
 * results) drawn first, into DIR/kernel/plots, for its figures inline */
static int write_page(const char *dir, const struct sb_results *r, const struct sb_figs *figs,
		      const char *tpldir, char *err, size_t errlen)
{
	char page[PATH_MAX + 16], kdir[PATH_MAX + 16];
	struct sb_figs kfigs = { 0 };
	struct sb_results kr;
	struct sb_html_run run = { dir, r, figs, NULL };
	int rc = 0;

	snprintf(kdir, sizeof(kdir), "%s/kernel", dir);
	if (sb_dir_has(kdir, "results.csv") && sb_dir_has(kdir, "gbench.json")) {
		if (sb_results_load(kdir, "ops_per_s", &kr, err, errlen))
			return SB_EXIT_USAGE;
		rc = sb_plot_results(kdir, &kr, tpldir, &kfigs, err, errlen) ? 1 : 0;
		sb_results_free(&kr);
		run.kfigs = &kfigs;
	}
	snprintf(page, sizeof(page), "%s/index.html", dir);
	if (!rc)
		rc = sb_html_write(page, &run, err, errlen) ? 1 : 0;
	sb_figs_free(&kfigs);
	return rc;
}

/* DIR's figures; 0, 1 (failure) or SB_EXIT_USAGE (no results in it, or
 * results that cannot be read) */
static int plot_dir(const char *dir, const char *tpldir, int *drawn)
{
	struct sb_figs figs = { 0 };
	struct sb_results r;
	char err[8192];
	bool machines = sb_dir_has(dir, "machines.csv");
	bool results = sb_dir_has(dir, "gbench.json") || sb_dir_has(dir, "runs.jsonl") ||
		       sb_dir_has(dir, "runs.jsonl.partial");
	int rc = 0;

	if (!machines && !results)
		return sb_cmd_error(SB_EXIT_USAGE, "%s: no results in it (gbench.json, runs.jsonl "
				    "or machines.csv)", dir);
	if (machines && sb_plot_machines(dir, tpldir, &figs, err, sizeof(err)))
		rc = 1;
	if (!rc && results) {
		if (sb_results_load(dir, "ops_per_s", &r, err, sizeof(err))) {
			rc = SB_EXIT_USAGE;	/* bad input, as compare says it */
		} else {
			rc = sb_plot_results(dir, &r, tpldir, &figs, err, sizeof(err)) ? 1 : 0;
			if (!rc)	/* DIR/index.html: the figures inline (html.c) */
				rc = write_page(dir, &r, &figs, tpldir, err, sizeof(err));
			sb_results_free(&r);
		}
	}
	*drawn += figs.n;
	show_figs(&figs, tpldir);
	return rc ? sb_cmd_error(rc, "%s", err) : 0;
}

static bool compare;

static const struct sb_option plot_options[] = {
	{ "compare", SB_OPT_FLAG, &compare, 0, 0, NULL, NULL,
	  "plot --compare OLD NEW: %Change bars of `stratbench compare OLD NEW` into NEW/plots/" },
	{ 0 },
};

static int plot_main(int argc, char **argv)
{
	struct sb_args args = { .npos = 16 };
	struct sb_figs figs = { 0 };
	char tpldir[SB_PATH], looked[PATH_MAX + 16], err[8192];
	int drawn = 0, rc = 0;

	compare = false;
	if (sb_cmd_args(&sb_cmd_plot, argc, argv, &args))
		return SB_EXIT_USAGE;
	if (!args.npos || (compare && args.npos != 2))
		return sb_cmd_error(SB_EXIT_USAGE, "plot needs %s", compare ?
				    "two results, OLD and NEW (stratbench plot --compare OLD NEW)" :
				    "a results directory (stratbench plot DIR...)");
	if (find_templates(tpldir, sizeof(tpldir), looked, sizeof(looked)))
		return sb_cmd_error(1, "no gnuplot templates (common.gp) in %s: reinstall "
				    "stratbench, or set SB_PLOTS to the templates' directory", looked);
	if (compare) {
		rc = sb_plot_compare(args.pos[0], args.pos[1], tpldir, &figs, err, sizeof(err));
		show_figs(&figs, tpldir);
		return rc ? sb_cmd_error(1, "%s", err) : 0;
	}
	for (int i = 0; i < args.npos && !rc; i++)
		rc = plot_dir(args.pos[i], tpldir, &drawn);
	if (!rc && !drawn)
		return sb_cmd_error(1, "nothing plotted: no figure applies to %s%s", args.pos[0],
				    args.npos > 1 ? " and the others" : "");
	return rc;
}

const struct sb_command sb_cmd_plot = {
	.name = "plot",
	.summary = "draw every figure a results directory has data for, with gnuplot",
	.usage = "DIR... | --compare OLD NEW",
	.description = "Writes DIR/plots/NAME.png and .svg, with NAME.dat (the numbers) and\n"
		       "NAME.gp (the script that drew them): throughput against threads per\n"
		       "family and placement, the lock family's wait percentiles, of_limit,\n"
		       "the core-to-core latency matrix, the window family's fidelity bars and\n"
		       "timeline (windows.jsonl), the shootdown family against the batch size,\n"
		       "and one figure per benchmark group and machine for a `stratbench merge`\n"
		       "directory (machines.csv).  Every series comes from the results' typed\n"
		       "points and every value is the median over repetitions; points whose CV\n"
		       "is above the run's threshold are circled.  A family without results gets\n"
		       "no figure.  DIR/index.html is the run as one page, the answer first:\n"
		       "the summary (as `stratbench summary` prints it) and ab.json's paired\n"
		       "comparisons, every figure inline (a suite's DIR/kernel stage's too,\n"
		       "drawn first), the medians per family, the noisy points, the machine\n"
		       "and run, and a link to every file: one file, no external assets.\n"
		       "--compare OLD NEW draws %Change bars into\n"
		       "NEW/plots/ (and `stratbench compare OLD NEW --html=FILE` the page).\n"
		       "Needs gnuplot (Debian: gnuplot-nox); any gnuplot warning is a failure.\n"
		       "The templates are <prefix>/share/stratbench/plots/*.gp (a checkout's\n"
		       "plots/ for a binary in its build tree; SB_PLOTS=DIR for others).\n",
	.options = plot_options,
	.example = "stratbench run --threads=1,2 --out=results/mine\n"
		   "stratbench plot results/mine\n"
		   "stratbench plot --compare results/prev results/mine\n",
	.run = plot_main,
};
