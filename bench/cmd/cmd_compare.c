/* cmd_compare.c — `stratbench compare OLD NEW`: the changelog tables of
 * DESIGN.md §7.  Per benchmark group (the name less threads:N, placement
 * and parameters after it):
 *
 *   window/trylock place:scatter
 *   threads  Prev      Current   %Change
 *   4        205332    198512    -3.32145
 *
 * with each side's CV (and its noisy mark) where a side has repetitions, the
 * %Change's 95 % interval and verdict (changed, ~ within the noise, n too
 * small: stats/interval.c), a p(U) column (two-sided Mann-Whitney U, as
 * Google Benchmark's compare.py) where both sides have at least two; then
 * one counter table per family, per op (compare_counters.c), then the
 * benchmarks present on one side only.  Values are medians over
 * repetitions.  %Change = (new - old) / old * 100, 6 significant digits.
 * --fail-above=PCT exits 3 on a regression beyond PCT not within the noise.
 * --html=FILE also writes the rows as one static page (html/html.h's
 * sb_html_compare). */
#include "cmd/cmd.h"

#include <string.h>

#include "html/html.h"
#include "tables/compare.h"

static const char *opt_metric, *opt_format, *opt_html, *opt_worse;
static double opt_fail_above;
static bool opt_totals, opt_per_second;
static const char *const formats[] = { "text", "markdown", "csv", NULL };
static const char *const directions[] = { "up", "down", NULL };

static const struct sb_option compare_options[] = {
	{ "metric", SB_OPT_STRING, &opt_metric, 0, 0, NULL, "NAME",
	  "a counter, real_time or cpu_time (ns) (default: ops_per_s where both have it, "
	  "else real_time)" },
	{ "format", SB_OPT_STRING, &opt_format, 0, 0, formats, "text|markdown|csv",
	  "changelog text tables, markdown tables, or one CSV row per benchmark (default: text)" },
	{ "html", SB_OPT_STRING, &opt_html, 0, 0, NULL, "FILE",
	  "also write the comparison as one static HTML page (no external assets)" },
	{ "fail-above", SB_OPT_DOUBLE, &opt_fail_above, 0, 1e9, NULL, "PCT",
	  "exit 3 when a change the worse way beyond PCT % is significant, for CI (default: "
	  "off)" },
	{ "worse", SB_OPT_STRING, &opt_worse, 0, 0, directions, "up|down",
	  "which way the metric gets worse, for --fail-above (default: known for times, "
	  "costs per page and rates)" },
	{ "per-second", SB_OPT_FLAG, &opt_per_second, 0, 0, NULL, NULL,
	  "counter tables per second of the run (per op x ops/s) instead of per op" },
	{ "totals", SB_OPT_FLAG, &opt_totals, 0, 0, NULL, NULL,
	  "counter tables as totals per run instead of per op (runs differ in length)" },
	{ 0 },
};

/* OLD and NEW, r[0] and r[1], loaded for *metric; without --metric, for
 * ops/s where both have it, else GB's time.  loaded[] says which to free. */
static int load_both(const char *const paths[2], const char **metric, struct sb_results r[2],
		     bool loaded[2], char *err, size_t errlen)
{
	const char *m = *metric ? *metric : "ops_per_s";

	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < 2; i++) {
			if (loaded[i])
				sb_results_free(&r[i]);
			loaded[i] = false;
			if (sb_results_load(paths[i], m, &r[i], err, errlen))
				return -1;
			loaded[i] = true;
		}
		if (*metric)
			break;
		*metric = sb_results_has_metric(&r[0], "ops_per_s") &&
			  sb_results_has_metric(&r[1], "ops_per_s") ? "ops_per_s" : "real_time";
		if (!strcmp(*metric, m))
			break;
		m = *metric;
	}
	for (int i = 0; i < 2; i++)
		if (!sb_results_has_metric(&r[i], *metric))
			return sb_cmd_err(err, errlen, "%s: no benchmark reports '%s' (see "
					  "--metric)", r[i].path, *metric);
	return 0;
}

/* the counter tables have one unit: --totals or --per-second, not both */
static bool unit_conflict(void)
{
	if (opt_totals && opt_per_second)
		sb_cmd_error(SB_EXIT_USAGE, "compare: --totals and --per-second: the counter "
			     "tables have one unit; choose one");
	return opt_totals && opt_per_second;
}

static int compare_main(int argc, char **argv)
{
	struct sb_args args = { .npos = 2 };
	const char *metric;
	struct sb_results r[2];
	enum sb_cmp_fmt f;
	struct sb_cmp_row *rows = NULL;
	char err[8192];
	int nrows = 0, rc = SB_EXIT_USAGE, worse;
	bool loaded[2] = { false, false };

	opt_metric = opt_format = opt_html = opt_worse = NULL;
	opt_fail_above = -1;
	opt_totals = opt_per_second = false;
	if (sb_cmd_args(&sb_cmd_compare, argc, argv, &args) || unit_conflict())
		return SB_EXIT_USAGE;
	metric = opt_metric;
	f = !opt_format || !strcmp(opt_format, "text") ? SB_CMP_TEXT :
	    !strcmp(opt_format, "markdown") ? SB_CMP_MARKDOWN : SB_CMP_CSV;
	if (args.npos == 1 && sb_cmp_ab_only(args.pos[0], err, sizeof(err)))
		goto fail;	/* one run's paired comparisons */
	if (args.npos == 1)
		return 0;
	if (args.npos != 2)
		return sb_cmd_error(SB_EXIT_USAGE, "compare needs two results, OLD and NEW "
				    "(directories or Google Benchmark JSON files), or one directory "
				    "holding ab.json");
	/* the page is written last: whether it can be is known first, so a
	 * path that cannot take it is one line, before any table is printed */
	if ((opt_html && sb_html_check(opt_html, err, sizeof(err))) ||
	    load_both(args.pos, &metric, r, loaded, err, sizeof(err)))
		goto fail;
	worse = opt_worse ? (!strcmp(opt_worse, "up") ? 1 : -1) : sb_cmp_worse(metric);
	if (opt_fail_above >= 0 && !worse) {
		snprintf(err, sizeof(err), "compare: --fail-above: which way '%s' gets worse is not "
			 "known; say it with --worse=up or --worse=down", metric);
		goto fail;
	}
	if (sb_cmp_rows(r, metric, worse, &rows, &nrows, err, sizeof(err)))
		goto fail;
	sb_cmp_report(f, args.pos, r, metric, rows, nrows, opt_totals ? SB_CMP_PER_RUN :
			     opt_per_second ? SB_CMP_PER_S : SB_CMP_PER_OP);
	fflush(stdout);
	rc = 1;
	if (opt_html && sb_html_compare(opt_html, &(struct sb_html_cmp){ args.pos, r, metric, rows,
									 nrows }, err, sizeof(err)))
		goto fail;
	rc = opt_fail_above >= 0 && sb_cmp_regressions(rows, nrows, metric, worse,
						       opt_fail_above) ? 3 : 0;
	goto out;
fail:
	fprintf(stderr, "stratbench: %s\n", err);
out:
	sb_cmp_rows_free(rows, nrows);
	for (int i = 0; i < 2; i++)
		if (loaded[i])
			sb_results_free(&r[i]);
	return rc;
}

const struct sb_command sb_cmd_compare = {
	.name = "compare",
	.summary = "changelog tables: %Change per benchmark between two runs, with its noise",
	.usage = "OLD NEW [--metric=NAME] [--format=text|markdown|csv] [--html=FILE]\n"
		 "  [--fail-above=PCT [--worse=up|down]] [--per-second|--totals] | DIR",
	.description = "OLD and NEW are results directories (DIR/gbench.json, or a killed run's\n"
		       "runs.jsonl) or Google Benchmark JSON files, ours or plain.  Per benchmark\n"
		       "group (the name less threads:N): threads, Prev, CV, Current, CV, %Change =\n"
		       "(new - old) / old x 100 of the medians over repetitions, its 95 %\n"
		       "interval (a bootstrap of the medians) and verdict: changed when the\n"
		       "interval excludes 0 %, ~ (within the noise) when it holds 0 %, \"n too\n"
		       "small: need 3\" under 3 repetitions a side (no interval, never ~); and\n"
		       "p(U), the two-sided Mann-Whitney U p-value as Google Benchmark's\n"
		       "compare.py reports it, where both sides have 2+ repetitions (a column,\n"
		       "not the verdict).  CV: the coefficient of variation of a side's\n"
		       "repetitions, \"noisy\" above its run's threshold.  Single runs have no\n"
		       "noise estimate: their interval reads n too small.  A preempted point\n"
		       "(its members off their CPUs) gets no verdict: \"preempted\".  A comparison\n"
		       "with no subject (a shootdown with no remote CPU: 0 flushes and 0 acks\n"
		       "on both sides) is left out, said once with its reason.  Then one\n"
		       "counter table per family, Event (per op) Before After %Change and its\n"
		       "interval: each\n"
		       "cnt:NAME event per op (cnt:NAME/op; median over repetitions), as runs\n"
		       "differ in length; --per-second: per second (per op x ops/s); --totals:\n"
		       "the totals per run.  Thousands separated; a measured 0 is 0, 0 to x is\n"
		       "\"from 0\", n/a is not measured; events zero on both sides dropped.  Then\n"
		       "the benchmarks on one side only.\n"
		       "CSV adds change_lo_pct, change_hi_pct, old_cv_pct, new_cv_pct,\n"
		       "old_noisy, new_noisy, verdict (better, worse, noise, n/a; up or down\n"
		       "where the metric's direction is unknown; left out: no subject) and\n"
		       "interval (the verdict; for a row left out, why).\n"
		       "--fail-above=PCT: exit 3, one line on stderr per regression, when a change\n"
		       "the worse way beyond PCT % is not within the noise (its interval excludes\n"
		       "0 %, or it has none).  Worse is down for rates (ops_per_s, pages_per_s, *_per_s)\n"
		       "and up for times and costs (real_time, cpu_time, ns_*, us_*, *_per_page);\n"
		       "another metric needs --worse=up|down.\n"
		       "The header names both runs' kernels (sb_kernel) where they recorded them.\n"
		       "--html=FILE also writes one static page: both fingerprints side by\n"
		       "side, these tables with each side's noisy medians marked, and the\n"
		       "%Change figure inline when `stratbench plot --compare OLD NEW` drew it\n"
		       "(NEW/plots/compare-vs-OLD.svg).  A FILE that cannot be written is one\n"
		       "line and exit 2, before anything is printed.\n"
		       "A side with DIR/ab.json (run --ab) adds its paired comparisons: %Change\n"
		       "of B over A with its 95 % interval (docs/precision.md); `compare DIR`\n"
		       "shows only those.\n"
		       "Nothing in common between OLD and NEW, or malformed, truncated, empty\n"
		       "or non-Google-Benchmark input: one line, exit 2.\n",
	.options = compare_options,
	.example = "stratbench compare results/prev results/current\n"
		   "stratbench compare old.json new.json --metric=real_time --format=markdown\n"
		   "stratbench compare results/prev results/current --html=compare.html\n"
		   "stratbench compare results/prev results/current --fail-above=5   # CI gate\n"
		   "stratbench compare results/prev results/current --totals  # counters per run\n",
	.run = compare_main,
};
