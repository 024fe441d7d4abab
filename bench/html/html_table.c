/* html_table.c — a summary table per family (html.h), and the noisy points.  A row is one
 * benchmark: its fields (strategy, lock, threads, placement, the parameters that differ; those
 * all share go above), the median over repetitions of each metric the family has (ops/s, ns/op,
 * window stretch and admit_ratio, shootdown ns and flushes per page, calibrate's one-way ns and
 * µs per call) and the CV of ops/s.  A CV above the run's threshold is noisy: shaded, "⚠ noisy"
 * in its note. */
#include "html/html.h"
#include "results/preempt.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* b's CV % of ops_per_s over its repetitions (NaN: none) and how many */
static double bm_cv(const struct sb_bm *b, int *nreps)
{
	struct sb_stat s;

	sb_bm_stat(b, "ops_per_s", &s);
	*nreps = s.n;
	return isnan(s.cv) ? b->cv : s.cv;	/* aggregates only: Google Benchmark's */
}

/* the metrics a row may show; a column only where the family has data */
static const struct metric {
	const char *key, *head;
	bool si;
} metrics[] = {
	{ "ops_per_s", "ops/s (median)", true },   { "ns_per_op", "ns/op (median)", false },
	{ "stretch", "stretch (median)", false },  { "admit_ratio", "admit_ratio (median)", false },
	{ "ns_per_page", "ns/page (median)", false },
	{ "flushes_per_page", "flushes/page (median)", false },
	/* calibrate: c2c's one-way latency (the heatmap's value) and flush's round trip */
	{ "one_way_ns", "one-way ns (median)", false },
	{ "us_per_call", "µs/call (median)", false },
};
#define NMETRICS (sizeof(metrics) / sizeof(metrics[0]))

static const char *family_of(const struct sb_bm *b)
{
	return b->has_point ? b->pt.family : "other (no typed point)";
}

/* one family's rows, in the order of their fields */
struct fam {
	const char *name;
	const struct sb_bm **b;
	int n;
	bool lock, metric[NMETRICS];
	struct sb_params common, differ;	/* differ: keys only */
};

static int cmp_bm(const void *x, const void *y)
{
	const struct sb_bm *a = *(const struct sb_bm *const *)x, *b = *(const struct sb_bm *const *)y;
	char pa[1024], pb[1024];
	int c;

	if (!a->has_point || !b->has_point)
		return strcmp(a->name, b->name);
	if ((c = strcmp(a->pt.strategy, b->pt.strategy)) || (c = strcmp(a->pt.lock, b->pt.lock)) ||
	    (c = strcmp(a->pt.placement, b->pt.placement)))
		return c;
	sb_params_str(&a->pt.params, NULL, pa, sizeof(pa));
	sb_params_str(&b->pt.params, NULL, pb, sizeof(pb));
	if ((c = strcmp(pa, pb)))
		return c;
	return (a->pt.threads > b->pt.threads) - (a->pt.threads < b->pt.threads);
}

/* which parameters every row shares (common) and which differ */
static void fam_params(struct fam *f)
{
	for (int i = 0; i < f->n; i++) {
		const struct sb_params *p = &f->b[i]->pt.params;

		for (int k = 0; f->b[i]->has_point && k < p->n; k++) {
			bool same = true;

			for (int j = 0; j < f->n && same; j++) {
				const char *v = f->b[j]->has_point ?
					sb_params_get(&f->b[j]->pt.params, p->p[k].key) : NULL;

				same = v && !strcmp(v, p->p[k].val);
			}
			if (same && !sb_params_get(&f->common, p->p[k].key))
				sb_params_set(&f->common, p->p[k].key, "%s", p->p[k].val);
			else if (!same && !sb_params_get(&f->differ, p->p[k].key))
				sb_params_set(&f->differ, p->p[k].key, "%s", "");
		}
	}
}

static int fam_collect(const struct sb_results *r, const char *name, struct fam *f)
{
	memset(f, 0, sizeof(*f));
	f->name = name;
	/* pointers: sizeof a pointer is meant (NOLINT: clang-tidy's sizeof-expression objects) */
	f->b = calloc((size_t)r->n + 1, sizeof(const struct sb_bm *));	/* NOLINT */
	if (!f->b)
		return -1;
	for (int i = 0; i < r->n; i++)
		if (!strcmp(family_of(&r->bm[i]), name))
			f->b[f->n++] = &r->bm[i];
	qsort(f->b, (size_t)f->n, sizeof(const struct sb_bm *), cmp_bm);	/* NOLINT */
	for (int i = 0; i < f->n; i++) {
		struct sb_stat s;

		f->lock |= f->b[i]->has_point && *f->b[i]->pt.lock;
		for (size_t m = 0; m < NMETRICS; m++) {
			sb_bm_stat(f->b[i], metrics[m].key, &s);
			f->metric[m] |= !isnan(s.median);
		}
	}
	fam_params(f);
	return 0;
}

static void head_row(struct sb_html *h, const struct fam *f)
{
	sb_html_raw(h, "<thead><tr>");
	if (strcmp(f->name, "other (no typed point)")) {
		sb_html_raw(h, "<th>strategy</th>");
		if (f->lock)
			sb_html_raw(h, "<th>lock</th>");
		sb_html_raw(h, "<th>threads</th><th>placement</th>");
		for (int k = 0; k < f->differ.n; k++)
			sb_html_el(h, "th", NULL, f->differ.p[k].key);
	} else {
		sb_html_raw(h, "<th>benchmark</th>");
	}
	for (size_t m = 0; m < NMETRICS; m++) {
		if (f->metric[m])
			sb_html_el(h, "th", NULL, metrics[m].head);
		if (m == 0)
			sb_html_raw(h, "<th>CV of ops/s, %</th><th>reps</th>");
	}
	sb_html_raw(h, "<th>note</th></tr></thead>\n");
}

/* "n/a" for NaN; with si, large rates in k, M, G, T */
static void num_cell(struct sb_html *h, double v, bool si)
{
	static const char *const pre[] = { "", " k", " M", " G", " T" };
	char buf[64];
	int k = 0;

	while (si && k < 4 && fabs(v) >= 1000) {
		v /= 1000;
		k++;
	}
	snprintf(buf, sizeof(buf), "%.4g%s", v, pre[k]);
	sb_html_el(h, "td", "n", isnan(v) ? "n/a" : buf);
}

static void fields_cells(struct sb_html *h, const struct fam *f, const struct sb_bm *b)
{
	char buf[32];
	const char *v;

	sb_html_raw(h, "<td title=\"");	/* the full name, as a tooltip */
	sb_html_text(h, b->name, false);
	sb_html_raw(h, "\">");
	sb_html_text(h, b->has_point ? b->pt.strategy : b->name, false);
	sb_html_raw(h, "</td>");
	if (!b->has_point)
		return;
	if (f->lock)
		sb_html_el(h, "td", NULL, b->pt.lock);
	snprintf(buf, sizeof(buf), "%d", b->pt.threads);
	sb_html_el(h, "td", "n", buf);
	sb_html_el(h, "td", NULL, b->pt.placement);
	for (int k = 0; k < f->differ.n; k++) {
		v = sb_params_get(&b->pt.params, f->differ.p[k].key);
		sb_html_el(h, "td", NULL, v ? v : "–");
	}
}

static void body_row(struct sb_html *h, const struct sb_results *r, const struct fam *f,
		     const struct sb_bm *b)
{
	struct sb_stat s;
	char note[192] = "";
	int n;
	double cv = bm_cv(b, &n);
	bool noisy = !isnan(cv) && cv > r->cv_threshold;

	sb_html_raw(h, b->failed ? "<tr class=\"failed\">" : noisy ? "<tr class=\"noisy\">" : "<tr>");
	fields_cells(h, f, b);
	for (size_t m = 0; m < NMETRICS; m++) {
		sb_bm_stat(b, metrics[m].key, &s);
		if (f->metric[m])
			num_cell(h, s.median, metrics[m].si);
		if (m)
			continue;
		num_cell(h, cv, false);
		num_cell(h, n ? n : NAN, false);	/* no repetition read: n/a, not 0 */
	}
	if (noisy)
		snprintf(note, sizeof(note), "⚠ noisy (CV %.3g %% > %g %%)", cv, r->cv_threshold);
	if (b->failed)
		snprintf(note + strlen(note), sizeof(note) - strlen(note), "%s✖ failed",
			 noisy ? "; " : "");
	sb_preempt_note(b, note, sizeof(note));
	sb_html_el(h, "td", "flag", note);
	sb_html_raw(h, "</tr>\n");
}

static void fam_table(struct sb_html *h, const struct sb_results *r, const struct fam *f)
{
	char common[1200];

	sb_html_raw(h, "<h3 id=\"family-");
	sb_html_text(h, f->name, false);
	sb_html_raw(h, "\">");
	sb_html_text(h, f->name, false);
	sb_html_raw(h, "</h3>\n");
	sb_params_human(&f->common, NULL, common, sizeof(common));
	sb_html_linef(h, "p", NULL, "%d benchmark%s; values are medians over repetitions.%s%s%s",
		      f->n, f->n > 1 ? "s" : "", *common ? " Every row has:" : "", common,
		      *common ? "." : "");
	sb_html_raw(h, "<div class=\"tbl\"><table class=\"summary\">\n");
	head_row(h, f);
	sb_html_raw(h, "<tbody>\n");
	for (int i = 0; i < f->n; i++)
		body_row(h, r, f, f->b[i]);
	sb_html_raw(h, "</tbody></table></div>\n");
}

void sb_html_summary(struct sb_html *h, const struct sb_results *r)
{
	struct fam f;

	if (!r->n)
		sb_html_el(h, "p", "muted", "No benchmark in these results.");
	for (int i = 0; i < r->n; i++) {
		const char *name = family_of(&r->bm[i]);
		bool seen = false;

		for (int j = 0; j < i && !seen; j++)	/* each family once, in run order */
			seen = !strcmp(family_of(&r->bm[j]), name);
		if (seen)
			continue;
		if (fam_collect(r, name, &f)) {
			sb_html_el(h, "p", "warn", "Out of memory: table left out.");
			return;
		}
		fam_table(h, r, &f);
		free(f.b);
	}
}

void sb_html_noisy(struct sb_html *h, const struct sb_results *r)
{
	int nnoisy = 0, single = 0, n;

	for (int i = 0; i < r->n; i++) {
		double cv = bm_cv(&r->bm[i], &n);

		single += isnan(cv);
		if (isnan(cv) || cv <= r->cv_threshold)
			continue;
		if (!nnoisy++)
			sb_html_raw(h, "<div class=\"tbl\"><table class=\"noisy-list\"><thead><tr>"
				    "<th>benchmark</th><th>CV of ops/s, %</th><th>repetitions</th>"
				    "</tr></thead><tbody>\n");
		sb_html_raw(h, "<tr class=\"noisy\">");
		sb_html_el(h, "td", NULL, r->bm[i].name);
		num_cell(h, cv, false);
		num_cell(h, n ? n : NAN, false);	/* no repetition read: n/a, not 0 */
		sb_html_raw(h, "</tr>\n");
	}
	if (nnoisy)
		sb_html_raw(h, "</tbody></table></div>\n");
	sb_html_raw(h, "<p>");
	if (nnoisy)
		sb_html_textf(h, "⚠ %d of %d points noisy: CV over repetitions above %g %%.", nnoisy,
			      r->n, r->cv_threshold);
	else
		sb_html_textf(h, "No noisy point: every CV is at most %g %%.", r->cv_threshold);
	if (single)
		sb_html_textf(h, " %d point%s no CV (a single repetition).", single,
			      single > 1 ? "s have" : " has");
	sb_html_raw(h, "</p>\n");
}
