/* cmd_merge.c — `stratbench merge DIR... --out=DIR`: several machines'
 * results side by side for the multi-machine plot.  Writes
 * OUT/machines.csv (one row per machine and benchmark: the metric's median,
 * min and max over repetitions, CV) and OUT/merge.json (the sources and
 * their fingerprints).  A machine is named by its run's --label, else its
 * host name; two inputs with one name are refused. */
#include "cmd/cmd.h"

#include <stdlib.h>
#include <string.h>

static const char *opt_out, *opt_metric;

static const struct sb_option merge_options[] = {
	{ "out", SB_OPT_STRING, &opt_out, 0, 0, NULL, "DIR",
	  "where machines.csv and merge.json go (required; refuses a DIR holding them)" },
	{ "metric", SB_OPT_STRING, &opt_metric, 0, 0, NULL, "NAME",
	  "a counter, real_time or cpu_time (ns) (default: ops_per_s)" },
	{ 0 },
};

/* The inputs into r[0..n) (*n counts those loaded, to free), each named
 * in names[] by its label, else its host, else the input's last part:
 * 0, or -1 with err (unreadable, a name twice, no metric). */
static int load_inputs(const struct sb_args *args, const char *metric, struct sb_results *r,
		       char **names, int *n, char *err, size_t errlen)
{
	for (int i = 0; i < args->npos; i++) {
		const char *base, *in = args->pos[i];

		if (sb_results_load(in, metric, &r[*n], err, errlen))
			return -1;
		++*n;
		base = strrchr(in, '/');
		base = base && base[1] ? base + 1 : in;
		names[i] = strdup(r[i].label ? r[i].label : r[i].host ? r[i].host : base);
		for (int j = 0; j < i; j++)
			if (!strcmp(names[j], names[i]))
				return sb_cmd_err(err, errlen, "%s and %s are both machine '%s': "
						  "give the runs distinct --label", r[j].path,
						  r[i].path, names[j]);
		if (!sb_results_has_metric(&r[i], metric))
			return sb_cmd_err(err, errlen, "%s: no benchmark reports '%s'", r[i].path,
					  metric);
	}
	return 0;
}

static int merge_main(int argc, char **argv)
{
	struct sb_args args = { .npos = 16 };
	struct sb_results *r;
	char **names, err[8192];
	int n = 0, rc = SB_EXIT_USAGE;

	opt_out = NULL;
	opt_metric = "ops_per_s";
	if (sb_cmd_args(&sb_cmd_merge, argc, argv, &args))
		return SB_EXIT_USAGE;
	r = calloc(args.npos + 1, sizeof(*r));
	names = calloc(args.npos + 1, sizeof(char *));
	if (!r || !names)
		snprintf(err, sizeof(err), "out of memory");
	else if (!opt_out || !args.npos)
		snprintf(err, sizeof(err), "merge needs results directories and --out=DIR "
			 "(stratbench merge DIR... --out=DIR)");
	else if (!load_inputs(&args, opt_metric, r, names, &n, err, sizeof(err)))
		rc = sb_merge_write(opt_out, opt_metric, r, (const char *const *)names, n, err,
				    sizeof(err));
	if (rc < 0)
		rc = SB_EXIT_USAGE;
	if (rc)
		sb_cmd_error(rc, "%s", err);
	else
		sb_cmd_error(0, "%d machines merged into %s/machines.csv", n, opt_out);
	for (int i = 0; i < n; i++)
		sb_results_free(&r[i]);
	for (int i = 0; names && i < n; i++)
		free(names[i]);
	free(names);
	free(r);
	return rc;
}

const struct sb_command sb_cmd_merge = {
	.name = "merge",
	.summary = "several machines' results side by side, for the multi-machine plot",
	.usage = "DIR... --out=DIR [--metric=NAME]",
	.description = "Reads each results directory (or Google Benchmark JSON file) and writes\n"
		       "OUT/machines.csv (per machine and benchmark: median, min and max of the\n"
		       "metric over repetitions, CV) and OUT/merge.json (the sources and their\n"
		       "fingerprints).  A machine is named by its run's --label, else its host;\n"
		       "two inputs with one name are refused.  Up to 16 inputs.  Then\n"
		       "`stratbench plot OUT` draws one figure per benchmark group, a line per\n"
		       "machine.\n",
	.options = merge_options,
	.example = "stratbench merge results/haswell results/power9 --out=results/lab\n"
		   "stratbench plot results/lab\n",
	.run = merge_main,
};
