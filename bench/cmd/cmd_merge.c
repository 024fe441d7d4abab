/* cmd_merge.c — `stratbench merge DIR... --out=DIR`: several machines'
 * results side by side for the multi-machine plot.  Writes
 * OUT/machines.csv (one row per machine and benchmark: the metric's median,
 * min and max over repetitions, CV) and OUT/merge.json (the sources and
 * their fingerprints).  A machine is named by its run's --label, else its
 * host name; two inputs with one name are refused. */
#include "cmd/cmd.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* name and the typed point as CSV fields (empty without a point) */
static void put_point(FILE *f, const struct sb_bm *b)
{
	char params[1200], place[sizeof(b->pt.placement)];

	sb_csv_field(f, b->name);
	if (!b->has_point) {
		fputs(",,,,,,", f);
		return;
	}
	sb_params_str(&b->pt.params, NULL, params, sizeof(params));
	fprintf(f, ",%s,%s,%s,%d,", b->pt.family, b->pt.strategy, b->pt.lock, b->pt.threads);
	sb_point_place(&b->pt, place, sizeof(place));	/* comma-free, as results.csv */
	fprintf(f, "%s,", place);
	sb_csv_field(f, params);
}

static void put_num(FILE *f, double v)
{
	if (isnan(v))
		fputc(',', f);
	else
		fprintf(f, ",%.9g", v);
}

static const char *opt_out, *opt_metric;

static const struct sb_option merge_options[] = {
	{ "out", SB_OPT_STRING, &opt_out, 0, 0, NULL, "DIR",
	  "where machines.csv and merge.json go (required; refuses a DIR holding them)" },
	{ "metric", SB_OPT_STRING, &opt_metric, 0, 0, NULL, "NAME",
	  "a counter, real_time or cpu_time (ns) (default: ops_per_s)" },
	{ NULL },
};

static int merge_main(int argc, char **argv)
{
	struct sb_args args = { .npos = 16 };
	const char *out, *metric;
	struct sb_results *r;
	char **names, err[8192], path[4200], tmp[4300];
	int n = 0, i, j, rc = SB_EXIT_USAGE;
	json_t *meta = NULL, *src;
	FILE *f;

	opt_out = NULL;
	opt_metric = "ops_per_s";
	if (sb_cmd_args(&sb_cmd_merge, argc, argv, &args))
		return SB_EXIT_USAGE;
	sb_args_free(&args);
	out = opt_out;
	metric = opt_metric;
	r = calloc(args.npos + 1, sizeof(*r));
	names = calloc(args.npos + 1, sizeof(char *));
	if (!r || !names) {
		snprintf(err, sizeof(err), "out of memory");
		goto fail;
	}
	if (!out || !args.npos) {
		snprintf(err, sizeof(err), "merge needs results directories and --out=DIR "
			 "(stratbench merge DIR... --out=DIR)");
		goto fail;
	}
	for (i = 0; i < args.npos; i++) {
		const char *base, *in = args.pos[i];

		if (sb_results_load(in, metric, &r[n], err, sizeof(err)))
			goto fail;
		n++;
		base = strrchr(in, '/');
		base = base && base[1] ? base + 1 : in;
		names[n - 1] = strdup(r[n - 1].label ? r[n - 1].label :
				      r[n - 1].host ? r[n - 1].host : base);
		for (j = 0; j < n - 1; j++)
			if (!strcmp(names[j], names[n - 1])) {
				snprintf(err, sizeof(err), "%s and %s are both machine '%s': give the "
					 "runs distinct --label", r[j].path, r[n - 1].path, names[j]);
				goto fail;
			}
		if (!sb_results_has_metric(&r[n - 1], metric)) {
			snprintf(err, sizeof(err), "%s: no benchmark reports '%s'", r[n - 1].path,
				 metric);
			goto fail;
		}
	}
	if (mkdir(out, 0777) && errno != EEXIST) {
		snprintf(err, sizeof(err), "cannot create '%s': %s", out, strerror(errno));
		goto fail;
	}
	snprintf(path, sizeof(path), "%s/machines.csv", out);
	if (access(path, F_OK) == 0) {
		snprintf(err, sizeof(err), "'%s' already holds merged results: choose a new --out",
			 out);
		goto fail;
	}
	snprintf(tmp, sizeof(tmp), "%s.partial", path);
	f = fopen(tmp, "w");
	if (!f) {
		snprintf(err, sizeof(err), "cannot write %s: %s", tmp, strerror(errno));
		goto fail;
	}
	rc = 1;		/* from here, a failure is the file system's */
	fprintf(f, "machine,name,family,strategy,lock,threads,placement,params,metric,median,"
		"min,max,cv_pct,repetitions\n");
	for (i = 0; i < n; i++)
		for (j = 0; j < r[i].n; j++) {
			const struct sb_bm *b = &r[i].bm[j];

			if (isnan(b->median))
				continue;	/* failed: no value */
			fprintf(f, "%s,", names[i]);
			put_point(f, b);
			fprintf(f, ",%s", metric);
			put_num(f, b->median);
			put_num(f, b->nreps ? b->min : NAN);
			put_num(f, b->nreps ? b->max : NAN);
			put_num(f, b->cv);
			fprintf(f, ",%d\n", b->nreps);
		}
	/* complete and synced before it gets its name (report.h) */
	errno = 0;
	if (fflush(f) || ferror(f) || fsync(fileno(f))) {
		snprintf(err, sizeof(err), "cannot write %s: %s", tmp, strerror(errno ? errno : EIO));
		fclose(f);
		unlink(tmp);
		goto fail;
	}
	if (fclose(f)) {
		snprintf(err, sizeof(err), "cannot write %s: %s", tmp, strerror(errno));
		unlink(tmp);
		goto fail;
	}
	if (sb_file_commit(tmp, path, err, sizeof(err))) {
		unlink(tmp);
		goto fail;
	}
	meta = json_object();
	src = json_array();
	for (i = 0; i < n; i++) {
		json_t *s = json_object();

		json_object_set_new(s, "machine", json_string(names[i]));
		json_object_set_new(s, "path", json_string(r[i].path));
		json_object_set_new(s, "cpu_model", r[i].cpu_model ? json_string(r[i].cpu_model) :
								     json_null());
		json_object_set_new(s, "host", r[i].host ? json_string(r[i].host) : json_null());
		json_object_set(s, "context", r[i].context ? r[i].context : json_null());
		json_array_append_new(src, s);
	}
	json_object_set_new(meta, "metric", json_string(metric));
	json_object_set_new(meta, "sources", src);
	snprintf(path, sizeof(path), "%s/merge.json", out);
	if (sb_json_write_file(path, meta, JSON_INDENT(2) | JSON_PRESERVE_ORDER, err, sizeof(err)))
		goto fail;
	fprintf(stderr, "stratbench: %d machines merged into %s/machines.csv\n", n, out);
	rc = 0;
	goto out;
fail:
	fprintf(stderr, "stratbench: %s\n", err);
out:
	json_decref(meta);
	for (i = 0; i < n; i++)
		sb_results_free(&r[i]);
	for (i = 0; names && i < n; i++)
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
