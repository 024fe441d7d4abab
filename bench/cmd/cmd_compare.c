/* cmd_compare.c — `stratbench compare OLD NEW`: the changelog tables of
 * DESIGN.md §7.  Per benchmark group (the name less threads:N, placement
 * and parameters after it):
 *
 *   window/trylock place:scatter
 *   threads  Prev      Current   %Change
 *   4        205332    198512    -3.32145
 *
 * with each side's CV (and its noisy mark) where a side has repetitions, a
 * p(U) column (two-sided Mann-Whitney U, as Google Benchmark's compare.py)
 * where both sides have at least two, and " ~" after a %Change within the
 * noise; then one counter table per family (compare_tables.c), then the
 * benchmarks present on one side only.  Values are medians over
 * repetitions.  %Change = (new - old) / old * 100, 6 significant digits.
 * --fail-above=PCT exits 3 on a significant regression beyond PCT.
 * --html=FILE also writes the rows as one static page (html/html.h's
 * sb_html_compare). */
#include "cmd/cmd.h"
#include "results/ab.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "html/html.h"
#include "tables/compare.h"

/* a row (struct sb_cmp_row): group (e.g. "window/trylock place:scatter"),
 * threads (-1: the name has no threads:N), the benchmark on each side */

/* A benchmark's group and threads from its typed point: "family/strategy
 * [/lock] place:P k=v..."; without a point (plain Google Benchmark JSON)
 * the name is its own group, one row. */
static char *group_of(const struct sb_bm *b, long *threads)
{
	const struct sb_point_fields *f = &b->pt;
	char params[1024], g[1400];

	*threads = -1;
	if (!b->has_point)
		return strdup(b->name);
	*threads = f->threads;
	sb_params_human(&f->params, NULL, params, sizeof(params));
	snprintf(g, sizeof(g), "%s/%s%s%s place:%s%s", f->family, f->strategy, *f->lock ? "/" : "",
		 f->lock, f->placement, params);
	return strdup(g);
}

/* The same point on both sides: by the typed fields when both have them
 * (the names are only keys for people), else by name. */
static bool same_point(const struct sb_bm *a, const struct sb_bm *b)
{
	char ga[1400], gb[1400];

	if (!a->has_point || !b->has_point)
		return !strcmp(a->name, b->name);
	sb_point_group(&a->pt, NULL, ga, sizeof(ga));
	sb_point_group(&b->pt, NULL, gb, sizeof(gb));
	return !strcmp(ga, gb) && a->pt.threads == b->pt.threads &&
	       !strcmp(a->pt.placement, b->pt.placement);
}

static int cmp_row(const void *a, const void *b)
{
	const struct sb_cmp_row *x = a, *y = b;
	int c = strcmp(x->group, y->group);	/* groups by name: stable output */

	return c ? c : (x->threads > y->threads) - (x->threads < y->threads);
}

static bool in_rows(const struct sb_bm *b, const struct sb_cmp_row *rows, int nrows)
{
	for (int i = 0; i < nrows; i++)
		if (rows[i].old == b || rows[i].new == b)
			return true;
	return false;
}

static void csv_rows(const struct sb_cmp_row *rows, int nrows)
{
	for (int k = 0; k < nrows; k++) {
		const struct sb_cmp_row *w = &rows[k];
		char o[64], n[64], c[64], om[64], oM[64], nm[64], nM[64];

		sb_fmt_value(o, sizeof(o), w->old->median);
		sb_fmt_value(n, sizeof(n), w->new->median);
		sb_cmp_fmt_change(c, sizeof(c), w->change);
		sb_fmt_value(om, sizeof(om), w->old->nreps ? w->old->min : NAN);
		sb_fmt_value(oM, sizeof(oM), w->old->nreps ? w->old->max : NAN);
		sb_fmt_value(nm, sizeof(nm), w->new->nreps ? w->new->min : NAN);
		sb_fmt_value(nM, sizeof(nM), w->new->nreps ? w->new->max : NAN);
		printf("%s,%s,%ld,%s,%s,%s,", w->old->name, w->group, w->threads, o, n, c);
		if (isnan(w->p))
			printf("n/a");
		else
			printf("%.4g", w->p);
		printf(",%d,%d,%s,%s,%s,%s,", w->old->nreps, w->new->nreps, om, oM, nm, nM);
		for (int s = 0; s < 2; s++)
			if (isnan(w->cv[s]))
				printf("n/a,");
			else
				printf("%.4g,", w->cv[s]);
		printf("%d,%d,%s\n", w->noisy[0], w->noisy[1], w->verdict);
	}
}

/* rows[i..end) share a group: its changelog table; returns end.  The CV
 * columns where a row of the group has a CV, p(U) where one has a test. */
static int group_table(enum sb_cmp_fmt f, const struct sb_cmp_row *rows, int nrows, int i,
		       bool *shown_cv)
{
	int end = i, ncols = 4, k, col;
	bool sig = false, cvs = false;
	char **cells;

	while (end < nrows && !strcmp(rows[end].group, rows[i].group))
		end++;
	for (k = i; k < end; k++) {
		sig |= !isnan(rows[k].p) || (rows[k].old->nreps >= 2 && rows[k].new->nreps >= 2);
		cvs |= !isnan(rows[k].cv[0]) || !isnan(rows[k].cv[1]);
	}
	*shown_cv |= cvs;
	ncols += (cvs ? 2 : 0) + (sig ? 1 : 0);
	cells = calloc((size_t)ncols * (end - i + 1), sizeof(char *));
	if (!cells)
		return end;
	col = 0;
	cells[col++] = strdup(rows[i].threads < 0 ? "benchmark" : "threads");
	cells[col++] = strdup("Prev");
	if (cvs)
		cells[col++] = strdup("CV");
	cells[col++] = strdup("Current");
	if (cvs)
		cells[col++] = strdup("CV");
	cells[col++] = strdup("%Change");
	if (sig)
		cells[col++] = strdup("p(U)");
	for (k = i; k < end; k++) {
		const struct sb_cmp_row *w = &rows[k];
		char **c = cells + (size_t)ncols * (k - i + 1), buf[80];

		col = 0;
		if (w->threads < 0)
			c[col++] = strdup("-");
		else {
			snprintf(buf, sizeof(buf), "%ld", w->threads);
			c[col++] = strdup(buf);
		}
		for (int s = 0; s < 2; s++) {
			sb_fmt_value(buf, sizeof(buf), s ? w->new->median : w->old->median);
			c[col++] = strdup(buf);
			if (cvs) {
				sb_cmp_fmt_cv(buf, sizeof(buf), w->cv[s], w->noisy[s]);
				c[col++] = strdup(buf);
			}
		}
		sb_cmp_fmt_change(buf, sizeof(buf), w->change);
		if (w->noise)
			strcat(buf, " ~");
		c[col++] = strdup(buf);
		if (sig) {
			if (isnan(w->p))
				snprintf(buf, sizeof(buf), "n/a");
			else
				snprintf(buf, sizeof(buf), "%.4g%s", w->p, w->p < 0.05 ? " *" : "");
			c[col++] = strdup(buf);
		}
	}
	sb_cmp_print_table(f, rows[i].group, ncols, cells, end - i + 1);
	for (k = 0; k < ncols * (end - i + 1); k++)
		free(cells[k]);
	free(cells);
	return end;
}

/* what the marks mean, once, under the tables */
static void legend(const struct sb_results r[2], const struct sb_cmp_row *rows, int nrows,
		   bool shown_cv)
{
	bool bare = false;

	for (int i = 0; i < nrows; i++)
		bare |= !isnan(rows[i].change) && isnan(rows[i].p) && isnan(rows[i].cv[0]) &&
			isnan(rows[i].cv[1]);
	if (shown_cv)
		printf("CV: of the repetitions, \"noisy\" above the run's threshold (OLD %g %%, NEW "
		       "%g %%).  ~ after %%Change: within the noise, not a change (p(U) >= 0.05; "
		       "without p(U), |%%Change| at most the larger CV)\n\n", r[0].cv_threshold,
		       r[1].cv_threshold);
	if (bare)
		printf("A %%Change without CV or p(U) (single runs) has no noise estimate: run "
		       "with --benchmark_repetitions=5 or more to know what to trust\n\n");
	for (int i = 0; i < nrows; i++)
		if (rows[i].old->nreps >= 2 && rows[i].new->nreps >= 2 &&
		    (rows[i].old->nreps <= 8 || rows[i].new->nreps <= 8)) {
			int m = rows[i].old->nreps, n = rows[i].new->nreps;

			printf("p(U): two-sided Mann-Whitney U over repetitions (* below 0.05); "
			       "with %d and %d repetitions it cannot go below %.3g: 9 or more "
			       "give a verdict\n\n", m, n, sb_mann_whitney_min_p(m, n));
			break;
		}
}

/* --fail-above=PCT: each significant change the worse way beyond pct, one
 * line on stderr; how many */
static int regressions(const struct sb_cmp_row *rows, int nrows, const char *metric,
		       int worse, double pct)
{
	int n = 0;

	for (int i = 0; i < nrows; i++) {
		const struct sb_cmp_row *w = &rows[i];
		char p[64] = "no p(U)";

		if (isnan(w->change) || w->noise || worse * w->change <= pct)
			continue;
		if (!isnan(w->p))
			snprintf(p, sizeof(p), "p(U) %.4g", w->p);
		else if (!isnan(w->cv[0]) || !isnan(w->cv[1]))
			snprintf(p, sizeof(p), "above the CVs %.3g %% and %.3g %%", w->cv[0],
				 w->cv[1]);
		else
			snprintf(p, sizeof(p), "single runs: no noise estimate");
		fprintf(stderr, "stratbench: compare: regression beyond %g %%: %s: %s %.6g %% "
			"(%s)\n", pct, w->old->name, metric, w->change, p);
		n++;
	}
	return n;
}

static const char *opt_metric, *opt_format, *opt_html, *opt_worse;
static double opt_fail_above;
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
	{ NULL },
};

/* The paired comparisons of a side's ab.json (run --ab), when it has one:
 * within-run intervals, which say more than medians of separate runs. */
static bool is_dir(const char *path)
{
	struct stat sb;

	return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

static void ab_section(const char *side, const char *path)
{
	struct sb_ab_cmp *c;
	char err[4400], where[4200];
	int n, rc = is_dir(path) ? sb_ab_read(path, &c, &n, err, sizeof(err)) : 1;

	if (rc < 0)
		fprintf(stderr, "stratbench: note: %s: its paired comparisons are not shown\n", err);
	if (rc)
		return;
	snprintf(where, sizeof(where), "%s %s", side, path);
	putchar('\n');
	sb_ab_print_section(stdout, where, c, n);
	free(c);
}

/* compare DIR: DIR's ab.json alone. */
static int ab_only(const char *dir)
{
	struct sb_ab_cmp *c;
	char err[4400];
	int n, rc = is_dir(dir) ? sb_ab_read(dir, &c, &n, err, sizeof(err)) : 1;

	if (rc > 0 && !is_dir(dir))
		snprintf(err, sizeof(err), "compare needs two results, OLD and NEW (directories "
			 "or Google Benchmark JSON files), or one directory holding ab.json");
	else if (rc > 0)
		snprintf(err, sizeof(err), "compare needs two results, OLD and NEW, or one "
			 "directory holding ab.json ('%s' holds none: see run --ab)", dir);
	if (rc) {
		fprintf(stderr, "stratbench: %s\n", err);
		return SB_EXIT_USAGE;
	}
	sb_ab_print_section(stdout, NULL, c, n);
	free(c);
	return 0;
}

/* "kernel: Prev's vs Current's", from the contexts' sb_kernel: a kernel A/B
 * (scripts/lab-ab.sh) is read by it */
static void print_kernels(const struct sb_results *r)
{
	const char *k[2];

	for (int i = 0; i < 2; i++) {
		json_t *v = r[i].context ? json_object_get(r[i].context, "sb_kernel") : NULL;

		k[i] = json_is_string(v) ? json_string_value(v) : NULL;
	}
	if (k[0] || k[1])
		printf("kernel: %s vs %s\n", k[0] ? k[0] : "unknown", k[1] ? k[1] : "unknown");
}

static int compare_main(int argc, char **argv)
{
	struct sb_args args = { .npos = 2 };
	const char *paths[2], *metric;
	struct sb_results r[2];
	enum sb_cmp_fmt f = SB_CMP_TEXT;
	struct sb_cmp_row *rows = NULL;
	char err[8192];
	int nrows = 0, i, j, rc = SB_EXIT_USAGE, worse;
	bool loaded[2] = { false, false }, shown_cv = false;

	opt_metric = opt_format = opt_html = opt_worse = NULL;
	opt_fail_above = -1;
	if (sb_cmd_args(&sb_cmd_compare, argc, argv, &args))
		return SB_EXIT_USAGE;
	sb_args_free(&args);
	metric = opt_metric;
	if (opt_format)
		f = !strcmp(opt_format, "markdown") ? SB_CMP_MARKDOWN :
		    !strcmp(opt_format, "csv") ? SB_CMP_CSV : SB_CMP_TEXT;
	if (args.npos == 1)	/* one run's paired comparisons */
		return ab_only(args.pos[0]);
	if (args.npos != 2) {
		fprintf(stderr, "stratbench: compare needs two results, OLD and NEW (directories "
			"or Google Benchmark JSON files), or one directory holding ab.json\n");
		return SB_EXIT_USAGE;
	}
	paths[0] = args.pos[0];
	paths[1] = args.pos[1];
	/* the page is written last: whether it can be is known first, so a
	 * path that cannot take it is one line, before any table is printed */
	if (opt_html && sb_html_check(opt_html, err, sizeof(err)))
		goto fail;
	for (i = 0; i < 2; i++) {
		if (sb_results_load(paths[i], metric ? metric : "ops_per_s", &r[i], err,
				    sizeof(err)))
			goto fail;
		loaded[i] = true;
	}
	if (!metric) {	/* ops/s where both have it, else GB's time */
		metric = sb_results_has_metric(&r[0], "ops_per_s") &&
			 sb_results_has_metric(&r[1], "ops_per_s") ? "ops_per_s" : "real_time";
		if (strcmp(metric, "ops_per_s")) {
			for (i = 0; i < 2; i++) {
				sb_results_free(&r[i]);
				loaded[i] = false;
				if (sb_results_load(paths[i], metric, &r[i], err, sizeof(err)))
					goto fail;
				loaded[i] = true;
			}
		}
	}
	for (i = 0; i < 2; i++)
		if (!sb_results_has_metric(&r[i], metric)) {
			snprintf(err, sizeof(err), "%s: no benchmark reports '%s' (see --metric)",
				 r[i].path, metric);
			goto fail;
		}
	worse = opt_worse ? (!strcmp(opt_worse, "up") ? 1 : -1) : sb_cmp_worse(metric);
	if (opt_fail_above >= 0 && !worse) {
		snprintf(err, sizeof(err), "compare: --fail-above: which way '%s' gets worse is not "
			 "known; say it with --worse=up or --worse=down", metric);
		goto fail;
	}
	/* rows: benchmarks on both sides, by group name, then threads */
	for (i = 0; i < r[0].n; i++)
		for (j = 0; j < r[1].n; j++)
			if (same_point(&r[0].bm[i], &r[1].bm[j])) {
				struct sb_cmp_row *more =
					realloc(rows, sizeof(*rows) * (size_t)(nrows + 1));

				if (!more) {
					snprintf(err, sizeof(err), "out of memory");
					goto fail;
				}
				rows = more;
				memset(&rows[nrows], 0, sizeof(rows[nrows]));
				rows[nrows].group = group_of(&r[0].bm[i], &rows[nrows].threads);
				rows[nrows].old = &r[0].bm[i];
				rows[nrows].new = &r[1].bm[j];
				sb_cmp_judge(&rows[nrows], (double[2]){ r[0].cv_threshold, r[1].cv_threshold },
					     metric, worse);
				nrows++;
			}
	if (!nrows) {
		snprintf(err, sizeof(err), "compare: nothing in common: none of OLD's %d benchmarks "
			 "(%s) is in NEW (%s, %d)", r[0].n, r[0].path, r[1].path, r[1].n);
		goto fail;
	}
	qsort(rows, nrows, sizeof(*rows), cmp_row);
	if (f == SB_CMP_CSV) {
		printf("name,group,threads,old,new,change_pct,p_value,old_n,new_n,old_min,"
		       "old_max,new_min,new_max,old_cv_pct,new_cv_pct,old_noisy,new_noisy,verdict\n");
		csv_rows(rows, nrows);
	} else {
		printf("%s: %s (%s) vs %s (%s)\n", metric, r[0].label ? r[0].label : "Prev",
		       r[0].path, r[1].label ? r[1].label : "Current", r[1].path);
		print_kernels(r);
		putchar('\n');
		for (i = 0; i < nrows;)
			i = group_table(f, rows, nrows, i, &shown_cv);
		legend(r, rows, nrows, shown_cv);
		sb_cmp_counter_tables(f, rows, nrows);
		for (i = 0; i < 2; i++)
			ab_section(i ? "NEW" : "OLD", paths[i]);
	}
	/* never dropped silently: what only one side has */
	for (int s = 0; s < 2; s++)
		for (i = 0; i < r[s].n; i++) {
			if (in_rows(&r[s].bm[i], rows, nrows))
				continue;
			if (f == SB_CMP_CSV)
				printf("%s,,,%s,%s,,,,,,,,,,,,,\n", r[s].bm[i].name, s ? "" : "only",
				       s ? "only" : "");
			else
				printf("only in %s (%s): %s\n", s ? "NEW" : "OLD", r[s].path,
				       r[s].bm[i].name);
		}
	for (i = 0; i < nrows; i++)
		if ((rows[i].old->failed || rows[i].new->failed) && f != SB_CMP_CSV)
			printf("failed runs in %s: %s\n", rows[i].old->failed ? "OLD" : "NEW",
			       rows[i].old->name);
	fflush(stdout);
	if (opt_html && sb_html_compare(opt_html, &(struct sb_html_cmp){ paths, r, metric, rows,
									 nrows }, err, sizeof(err))) {
		rc = 1;
		goto fail;
	}
	rc = 0;
	if (opt_fail_above >= 0 && regressions(rows, nrows, metric, worse, opt_fail_above))
		rc = 3;
	goto out;
fail:
	fprintf(stderr, "stratbench: %s\n", err);
out:
	for (i = 0; i < nrows; i++)
		free(rows[i].group);
	free(rows);
	for (i = 0; i < 2; i++)
		if (loaded[i])
			sb_results_free(&r[i]);
	return rc;
}

const struct sb_command sb_cmd_compare = {
	.name = "compare",
	.summary = "changelog tables: %Change per benchmark between two runs, with its noise",
	.usage = "OLD NEW [--metric=NAME] [--format=text|markdown|csv] [--html=FILE]\n"
		 "  [--fail-above=PCT [--worse=up|down]] | DIR",
	.description = "OLD and NEW are results directories (DIR/gbench.json, or a killed run's\n"
		       "runs.jsonl) or Google Benchmark JSON files, ours or plain.  Per benchmark\n"
		       "group (the name less threads:N): threads, Prev, CV, Current, CV, %Change =\n"
		       "(new - old) / old x 100 of the medians over repetitions, and p(U), the\n"
		       "two-sided Mann-Whitney U p-value as Google Benchmark's compare.py reports\n"
		       "it, where both sides have 2+ repetitions.  CV: the coefficient of\n"
		       "variation of a side's repetitions, \"noisy\" above its run's threshold.\n"
		       "A %Change followed by \" ~\" is within the noise, not a change: p(U) >=\n"
		       "0.05, or without p(U) |%Change| at most the larger CV (single runs have\n"
		       "no noise estimate: their %Change is bare).  Then one counter table per\n"
		       "family, Event Before After %Change: the cnt:NAME totals per run (median\n"
		       "over repetitions) with thousands separators, events zero on both sides\n"
		       "dropped; then the benchmarks on one side only.  CSV adds old_cv_pct,\n"
		       "new_cv_pct, old_noisy, new_noisy and verdict (better, worse, noise, n/a;\n"
		       "up or down where the metric's direction is unknown).\n"
		       "--fail-above=PCT: exit 3, one line on stderr per regression, when a change\n"
		       "the worse way beyond PCT % is significant (p(U) < 0.05, or without p(U)\n"
		       "above both CVs).  Worse is down for rates (ops_per_s, pages_per_s, *_per_s)\n"
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
		   "stratbench compare results/prev results/current --fail-above=5   # CI gate\n",
	.run = compare_main,
};
