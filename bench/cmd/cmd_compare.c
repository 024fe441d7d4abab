/* cmd_compare.c — `stratbench compare OLD NEW`: the changelog tables of
 * DESIGN.md §7.  Per benchmark group (the name less threads:N, placement
 * and parameters after it):
 *
 *   window/trylock place:scatter
 *   threads  Prev      Current   %Change
 *   4        205332    198512    -3.32145
 *
 * with a p(U) column (two-sided Mann-Whitney U, as Google Benchmark's
 * compare.py) where both sides have at least two repetitions, then
 * `Event Before After` tables of the counters (cnt:…/op), then the
 * benchmarks present on one side only.  Values are medians over
 * repetitions.  %Change = (new - old) / old * 100, 6 significant digits.
 * --html=FILE also writes the rows as one static page (report/plot.h's
 * sb_html_compare). */
#include "cmd/cmd.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/plot.h"

enum fmt { TEXT, MARKDOWN, CSV };

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

/* values: 6 significant digits as the seed; large ones in full */
static void fmt_val(char *buf, size_t n, double v)
{
	if (isnan(v))
		snprintf(buf, n, "n/a");
	else if (fabs(v) >= 1e6 && fabs(v) < 1e18)
		snprintf(buf, n, "%.0f", v);
	else
		snprintf(buf, n, "%.6g", v);
}

static void fmt_change(char *buf, size_t n, double old, double new)
{
	if (isnan(old) || isnan(new) || old == 0)
		snprintf(buf, n, "n/a");
	else
		snprintf(buf, n, "%.6g", (new - old) / old * 100);
}

static double pvalue(const struct sb_bm *o, const struct sb_bm *n)
{
	if (o->nreps < 2 || n->nreps < 2)
		return NAN;
	return sb_mann_whitney_p(o->reps, o->nreps, n->reps, n->nreps);
}

/* One table: ncols columns, rows of cells; text pads to the widest cell. */
static void print_table(enum fmt f, const char *title, int ncols, char **cells, int nrows)
{
	int w[8] = { 0 }, r, c;

	if (f == TEXT) {
		for (r = 0; r < nrows; r++)
			for (c = 0; c < ncols; c++)
				if ((int)strlen(cells[r * ncols + c]) > w[c])
					w[c] = (int)strlen(cells[r * ncols + c]);
		printf("%s\n", title);
		for (r = 0; r < nrows; r++) {
			for (c = 0; c < ncols; c++)
				if (c < ncols - 1)
					printf("%-*s  ", w[c], cells[r * ncols + c]);
				else
					printf("%s", cells[r * ncols + c]);
			putchar('\n');
		}
	} else {
		printf("**%s**\n\n", title);
		for (r = 0; r < nrows; r++) {
			printf("|");
			for (c = 0; c < ncols; c++)
				printf(" %s |", cells[r * ncols + c]);
			putchar('\n');
			if (r == 0) {
				printf("|");
				for (c = 0; c < ncols; c++)
					printf(c ? "---:|" : ":---|");
				putchar('\n');
			}
		}
	}
	putchar('\n');
}

/* The counters family's names (README "Counters"): cnt:NAME totals and
 * cnt:NAME/op per op; vmstat:FIELD and irq:ROW among them.  Tables show
 * the per-op values (comparable whatever iterations GB chose), split as
 * the seed changelog splits them: perf events and tracepoints, vmstat,
 * interrupts. */
enum ev_kind { EV_PERF, EV_VMSTAT, EV_IRQ, EV_KINDS };

static bool event_of(const char *key, enum ev_kind kind, char *name, size_t n)
{
	size_t len = strlen(key);
	enum ev_kind k;

	if (strncmp(key, "cnt:", 4) || len < 8 || strcmp(key + len - 3, "/op"))
		return false;
	k = !strncmp(key + 4, "vmstat:", 7) ? EV_VMSTAT :
	    !strncmp(key + 4, "irq:", 4) ? EV_IRQ : EV_PERF;
	if (k != kind)
		return false;
	/* the table says vmstat or interrupts: the rows drop the prefix */
	key += 4 + (k == EV_VMSTAT ? 7 : k == EV_IRQ ? 4 : 0);
	snprintf(name, n, "%.*s", (int)(strlen(key) - 3), key);
	return true;
}

static void event_table(enum fmt f, const struct sb_cmp_row *r)
{
	static const char *const what[] = { "perf stats", "vmstat", "interrupts" };

	if (!r->old->entry || !r->new->entry)
		return;
	for (int kind = 0; kind < EV_KINDS; kind++) {
		const char *key;
		json_t *v;
		char **cells = NULL, title[600];
		int n = 0;

		json_object_foreach(r->old->entry, key, v) {
			char b[64], a[64], name[256];

			if (!event_of(key, kind, name, sizeof(name)) || !json_is_number(v))
				continue;
			if (!n) {
				cells = malloc(sizeof(char *) * 3);
				cells[0] = strdup("Event");
				cells[1] = strdup("Before");
				cells[2] = strdup("After");
				n = 1;
			}
			char **more = realloc(cells, sizeof(char *) * 3 * (size_t)(n + 1));

			if (!more)
				break;
			cells = more;
			fmt_val(b, sizeof(b), json_number_value(v));
			fmt_val(a, sizeof(a), sb_entry_value(r->new->entry, key));
			cells[(size_t)3 * n] = strdup(name);
			cells[(size_t)3 * n + 1] = strdup(b);
			cells[(size_t)3 * n + 2] = strdup(a);
			n++;
		}
		if (!n)
			continue;
		snprintf(title, sizeof(title), "%s per op, %s", what[kind], r->old->name);
		print_table(f, title, 3, cells, n);
		for (int i = 0; i < 3 * n; i++)
			free(cells[i]);
		free(cells);
	}
}

static const char *opt_metric, *opt_format, *opt_html;
static const char *const formats[] = { "text", "markdown", "csv", NULL };

static const struct sb_option compare_options[] = {
	{ "metric", SB_OPT_STRING, &opt_metric, 0, 0, NULL, "NAME",
	  "a counter, real_time or cpu_time (ns) (default: ops_per_s where both have it, "
	  "else real_time)" },
	{ "format", SB_OPT_STRING, &opt_format, 0, 0, formats, "text|markdown|csv",
	  "changelog text tables, markdown tables, or one CSV row per benchmark (default: text)" },
	{ "html", SB_OPT_STRING, &opt_html, 0, 0, NULL, "FILE",
	  "also write the comparison as one static HTML page (no external assets)" },
	{ NULL },
};

static int compare_main(int argc, char **argv)
{
	struct sb_args args = { .npos = 2 };
	const char *paths[2], *metric;
	struct sb_results r[2];
	enum fmt f = TEXT;
	struct sb_cmp_row *rows = NULL;
	char err[8192];
	int nrows = 0, i, j, rc = SB_EXIT_USAGE, only[2] = { 0, 0 };
	bool loaded[2] = { false, false };

	opt_metric = opt_format = opt_html = NULL;
	if (sb_cmd_args(&sb_cmd_compare, argc, argv, &args))
		return SB_EXIT_USAGE;
	sb_args_free(&args);
	metric = opt_metric;
	if (opt_format)
		f = !strcmp(opt_format, "markdown") ? MARKDOWN : !strcmp(opt_format, "csv") ? CSV : TEXT;
	if (args.npos != 2) {
		fprintf(stderr, "stratbench: compare needs two results, OLD and NEW (directories "
			"or Google Benchmark JSON files)\n");
		return SB_EXIT_USAGE;
	}
	paths[0] = args.pos[0];
	paths[1] = args.pos[1];
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
				rows[nrows].group = group_of(&r[0].bm[i], &rows[nrows].threads);
				rows[nrows].old = &r[0].bm[i];
				rows[nrows].new = &r[1].bm[j];
				nrows++;
			}
	if (nrows)
		qsort(rows, nrows, sizeof(*rows), cmp_row);
	if (f == CSV)
		printf("name,group,threads,old,new,change_pct,p_value,old_n,new_n,old_min,"
		       "old_max,new_min,new_max\n");
	else
		printf("%s: %s (%s) vs %s (%s)\n\n", metric, r[0].label ? r[0].label : "Prev",
		       r[0].path, r[1].label ? r[1].label : "Current", r[1].path);
	for (i = 0; i < nrows;) {
		int end = i, ncols, k;
		bool sig = false;
		char **cells;

		while (end < nrows && !strcmp(rows[end].group, rows[i].group))
			end++;
		for (k = i; k < end; k++)
			sig |= rows[k].old->nreps >= 2 && rows[k].new->nreps >= 2;
		if (f == CSV) {
			for (k = i; k < end; k++) {
				const struct sb_cmp_row *w = &rows[k];
				char o[64], n[64], c[64], om[64], oM[64], nm[64], nM[64];
				double p = pvalue(w->old, w->new);

				fmt_val(o, sizeof(o), w->old->median);
				fmt_val(n, sizeof(n), w->new->median);
				fmt_change(c, sizeof(c), w->old->median, w->new->median);
				fmt_val(om, sizeof(om), w->old->nreps ? w->old->min : NAN);
				fmt_val(oM, sizeof(oM), w->old->nreps ? w->old->max : NAN);
				fmt_val(nm, sizeof(nm), w->new->nreps ? w->new->min : NAN);
				fmt_val(nM, sizeof(nM), w->new->nreps ? w->new->max : NAN);
				printf("%s,%s,%ld,%s,%s,%s,", w->old->name, w->group, w->threads, o, n,
				       c);
				if (isnan(p))
					printf("n/a");
				else
					printf("%.4g", p);
				printf(",%d,%d,%s,%s,%s,%s\n", w->old->nreps, w->new->nreps, om, oM, nm,
				       nM);
			}
			i = end;
			continue;
		}
		ncols = sig ? 5 : 4;
		cells = calloc((size_t)ncols * (end - i + 1), sizeof(char *));
		cells[0] = strdup(rows[i].threads < 0 ? "benchmark" : "threads");
		cells[1] = strdup("Prev");
		cells[2] = strdup("Current");
		cells[3] = strdup("%Change");
		if (sig)
			cells[4] = strdup("p(U)");
		for (k = i; k < end; k++) {
			char **c = cells + (size_t)ncols * (k - i + 1), buf[64];
			double p = pvalue(rows[k].old, rows[k].new);

			if (rows[k].threads < 0)
				c[0] = strdup("-");
			else {
				snprintf(buf, sizeof(buf), "%ld", rows[k].threads);
				c[0] = strdup(buf);
			}
			fmt_val(buf, sizeof(buf), rows[k].old->median);
			c[1] = strdup(buf);
			fmt_val(buf, sizeof(buf), rows[k].new->median);
			c[2] = strdup(buf);
			fmt_change(buf, sizeof(buf), rows[k].old->median, rows[k].new->median);
			c[3] = strdup(buf);
			if (sig) {
				if (isnan(p))
					snprintf(buf, sizeof(buf), "n/a");
				else
					snprintf(buf, sizeof(buf), "%.4g%s", p, p < 0.05 ? " *" : "");
				c[4] = strdup(buf);
			}
		}
		print_table(f, rows[i].group, ncols, cells, end - i + 1);
		for (k = 0; k < ncols * (end - i + 1); k++)
			free(cells[k]);
		free(cells);
		i = end;
	}
	if (f != CSV) {
		for (i = 0; i < nrows; i++)
			event_table(f, &rows[i]);
		for (i = 0; i < nrows; i++)
			if (rows[i].old->nreps >= 2 && rows[i].new->nreps >= 2 &&
			    (rows[i].old->nreps <= 8 || rows[i].new->nreps <= 8)) {
				int m = rows[i].old->nreps, n = rows[i].new->nreps;
				double binom = 1;

				for (int k = 1; k <= m; k++)	/* C(m + n, m) */
					binom = binom * (n + k) / k;
				printf("p(U): two-sided Mann-Whitney U over repetitions (* below 0.05); "
				       "with %d and %d repetitions it cannot go below %.3g: 9 or more "
				       "give a verdict\n\n", m, n, 2 / binom);
				break;
			}
	}
	/* never dropped silently: what only one side has */
	for (int s = 0; s < 2; s++)
		for (i = 0; i < r[s].n; i++) {
			bool both = false;

			for (j = 0; j < r[!s].n && !both; j++)
				both = !strcmp(r[s].bm[i].name, r[!s].bm[j].name);
			if (both)
				continue;
			if (f == CSV)
				printf("%s,,,%s,%s,,,,,,,,\n", r[s].bm[i].name, s ? "" : "only",
				       s ? "only" : "");
			else
				printf("only in %s (%s): %s\n", s ? "NEW" : "OLD", r[s].path,
				       r[s].bm[i].name);
			only[s]++;
		}
	for (i = 0; i < nrows; i++)
		if ((rows[i].old->failed || rows[i].new->failed) && f != CSV)
			printf("failed runs in %s: %s\n", rows[i].old->failed ? "OLD" : "NEW",
			       rows[i].old->name);
	if (!nrows)
		fprintf(stderr, "stratbench: compare: no benchmark in both (%d only in OLD, %d "
			"only in NEW)\n", only[0], only[1]);
	if (opt_html && sb_html_compare(opt_html, paths, r, metric, rows, nrows, err,
					sizeof(err))) {
		rc = 1;
		goto fail;
	}
	rc = 0;
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
	.summary = "changelog tables: %Change per benchmark between two runs",
	.usage = "OLD NEW [--metric=NAME] [--format=text|markdown|csv] [--html=FILE]",
	.description = "OLD and NEW are results directories (DIR/gbench.json, or a killed run's\n"
		       "runs.jsonl) or Google Benchmark JSON files, ours or plain.  Per benchmark\n"
		       "group (the name less threads:N): threads, Prev, Current, %Change =\n"
		       "(new - old) / old x 100 of the medians over repetitions, and p(U), the\n"
		       "two-sided Mann-Whitney U p-value as Google Benchmark's compare.py reports\n"
		       "it, where both sides have 2+ repetitions; then Event Before After tables\n"
		       "of the counters (cnt:NAME/op), and the benchmarks on one side only.\n"
		       "--html=FILE also writes one static page: both fingerprints side by\n"
		       "side, these tables with each side's noisy medians marked (CV above its\n"
		       "run's threshold), and the %Change figure inline when `stratbench plot\n"
		       "--compare OLD NEW` drew it (NEW/plots/compare-vs-OLD.svg).\n"
		       "Malformed, truncated, empty or non-Google-Benchmark input: one line, exit 2.\n",
	.options = compare_options,
	.example = "stratbench compare results/prev results/current\n"
		   "stratbench compare old.json new.json --metric=real_time --format=markdown\n"
		   "stratbench compare results/prev results/current --html=compare.html\n",
	.run = compare_main,
};
