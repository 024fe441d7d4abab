/* cmd_run.c — `stratbench run`: plan, register, run, write DIR/gbench.json
 * (Google Benchmark JSON with our context) and DIR/results.csv. */
#include "cmd/cmd.h"
#include "run/limits.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Results are written under .partial names and renamed when the run ends,
 * so a crash leaves the finished rows in *.partial and never a file that
 * looks complete. */
static const char *const out_files[] = {
	"gbench.json", "results.csv", "gbench.json.partial", "results.csv.partial", NULL,
};

/* Renames DIR/NAME.partial to DIR/NAME (keep) or removes it. */
static void finish_out(const char *dir, bool keep)
{
	char from[4300], to[4200];

	for (int i = 0; i < 2; i++) {
		snprintf(to, sizeof(to), "%s/%s", dir, out_files[i]);
		snprintf(from, sizeof(from), "%s.partial", to);
		if ((keep ? rename(from, to) : unlink(from)) && (keep || errno != ENOENT))
			fprintf(stderr, "stratbench: cannot %s %s: %s\n", keep ? "rename" : "remove",
				from, strerror(errno));
	}
}

/* mkdir -p; refuses a directory that already holds results. */
static int prepare_out(const char *dir, char *err, size_t errlen)
{
	char path[4096], *p;
	struct stat sb;

	if (snprintf(path, sizeof(path), "%s", dir) >= (int)sizeof(path) || !*dir) {
		snprintf(err, errlen, "bad output directory '%s'", dir);
		return -1;
	}
	for (p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0777) && errno != EEXIST)
			goto fail;
		*p = '/';
	}
	if (mkdir(path, 0777) && errno != EEXIST)
		goto fail;
	if (stat(path, &sb) || !S_ISDIR(sb.st_mode)) {
		snprintf(err, errlen, "output '%s' is not a directory", dir);
		return -1;
	}
	if (access(path, W_OK)) {
		snprintf(err, errlen, "cannot write to output directory '%s': %s", dir,
			 strerror(errno));
		return -1;
	}
	for (const char *const *f = out_files; *f; f++) {
		snprintf(path, sizeof(path), "%s/%s", dir, *f);
		if (access(path, F_OK) == 0) {
			snprintf(err, errlen, "'%s' already holds results (%s): choose a new --out",
				 dir, *f);
			return -1;
		}
	}
	return 0;
fail:
	snprintf(err, errlen, "cannot create output directory '%s': %s", path, strerror(errno));
	return -1;
}

static int run_main(int argc, char **argv)
{
	static char out_json[4200];
	struct sb_counters_spec *cnt = NULL;
	struct sb_topo *t = NULL;
	struct sb_opts o;
	char err[8192], path[4200];
	int i, rc = SB_EXIT_USAGE;
	bool list_only = false;

	if (sb_opts_parse(&o, argc, argv, err, sizeof(err)))
		goto usage;
	for (i = 1; i < o.gb_argc; i++)
		if (o.out && strncmp(o.gb_argv[i], "--benchmark_out", 15) == 0) {
			snprintf(err, sizeof(err), "--out=DIR writes DIR/gbench.json itself: "
				 "drop %s", o.gb_argv[i]);
			goto usage;
		}
	if (sb_counters_parse(o.counters, &cnt, err, sizeof(err)))
		goto usage;
	if (o.counters_ab && !sb_counters_count(cnt)) {
		snprintf(err, sizeof(err), "--counters-ab compares no counters with some: "
			 "drop --counters=none");
		goto usage;
	}
	if (sb_topo_load(&t, o.topology, err, sizeof(err)) ||
	    sb_topo_check_bindable(t, err, sizeof(err)))
		goto usage;
	if (o.home_node >= 0) {
		if (!sb_topo_has_node(t, o.home_node)) {
			snprintf(err, sizeof(err), "NUMA node %d does not exist here (%d node%s)",
				 o.home_node, sb_topo_nnodes(t), sb_topo_nnodes(t) > 1 ? "s" : "");
			goto usage;
		}
	}
	switch (sb_plan_register(&o, t, err, sizeof(err))) {
	case 0:
		break;
	case 1:		/* everything asked for cannot run here, and said so */
		rc = 0;
		goto out;
	default:
		goto usage;
	}
	for (i = 1; i < o.gb_argc; i++) {	/* the last one counts, as in GB */
		const char *a = o.gb_argv[i];

		if (strncmp(a, "--benchmark_list_tests", 22) == 0 && (!a[22] || a[22] == '='))
			list_only = sb_gb_truthy(a[22] ? a + 23 : "");
	}
	if (o.out && list_only) {
		fprintf(stderr, "stratbench: note: --benchmark_list_tests runs nothing; "
			"--out ignored\n");
		o.out = NULL;
	}
	if (o.out) {
		if (prepare_out(o.out, err, sizeof(err)))
			goto usage;
		snprintf(path, sizeof(path), "%s/results.csv.partial", o.out);
		if (sb_csv_open(path, err, sizeof(err)))
			goto usage;
		snprintf(out_json, sizeof(out_json), "--benchmark_out=%s/gbench.json.partial", o.out);
		o.gb_argv[o.gb_argc++] = out_json;
		o.gb_argv[o.gb_argc++] = "--benchmark_out_format=json";
		o.gb_argv[o.gb_argc] = NULL;
	}
	/* the limits table is fed from what is reported (run/limits.h) */
	sb_gbench_on_run(sb_limits_on_run, NULL);
	sb_context_fingerprint(t, argc, argv);
	if (!list_only)
		sb_counters_context(cnt);
	sb_drive_set_counters(cnt);
	rc = sb_gbench_main(o.gb_argc, o.gb_argv);
	sb_drive_set_counters(NULL);
	sb_csv_close();
	if (o.out) {
		/* rc 2: nothing ran (no benchmark matched); 1 keeps the failed rows */
		finish_out(o.out, rc != SB_EXIT_USAGE);
		if (rc != SB_EXIT_USAGE)
			fprintf(stderr, "stratbench: results in %s/ (gbench.json, results.csv)\n",
				o.out);
	}
	goto out;
usage:
	fprintf(stderr, "stratbench: %s\n", err);
out:
	sb_plan_free();
	sb_counters_spec_free(cnt);
	sb_topo_destroy(t);
	sb_opts_free(&o);
	return rc;
}

const struct sb_command sb_cmd_run = {
	.name = "run",
	.summary = "run benchmarks: strategies x threads x placements, on pinned threads",
	.usage = "[options] [family options] [--benchmark_*...]",
	.description = "Registers one Google Benchmark per strategy [x lock] x thread count x\n"
		       "placement, runs them on hwloc-pinned threads and reports ops/s, ns/op and\n"
		       "the family's counters; with --out, also Google Benchmark JSON (with the\n"
		       "machine fingerprint) and a flat CSV.  Names are\n"
		       "family/strategy[/lock:L]/threads:N/place:P[/param:V].  Draw a results\n"
		       "directory with `stratbench plot DIR`.\n",
	.options = sb_run_options,
	.family_options = true,
	.gbench_flags = true,
	.example = "stratbench run --strategy=spinlock --lock=ticket,mcs --threads=1,2 "
		   "--out=results/mine\n"
		   "stratbench plot results/mine\n",
	.run = run_main,
};
