/* html_compare.c — `stratbench compare OLD NEW --html=FILE` (html.h's sb_html_compare): one
 * static page, as DIR/index.html is; the changelog cells formatted as compare's text tables. */
#include "html/html.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* one side's median, marked when its CV is above its run's threshold, then its CV when cvs */
static void side_cells(struct sb_html *h, const struct sb_results *r, const struct sb_bm *b,
		       double cv, bool noisy, bool cvs)
{
	char v[64];

	sb_fmt_value(v, sizeof(v), b->median);
	sb_html_raw(h, noisy ? "<td class=\"n noisy\">" : "<td class=\"n\">");
	sb_html_text(h, v, false);
	if (noisy) {
		sb_html_raw(h, " <span class=\"flag\">");
		sb_html_textf(h, "⚠ noisy (CV %.3g %% > %g %%)", cv, r->cv_threshold);
		sb_html_raw(h, "</span>");
	}
	sb_html_raw(h, "</td>");
	if (!cvs)
		return;
	sb_cmp_fmt_cv(v, sizeof(v), cv, false);
	sb_html_el(h, "td", "n", v);
}

static void group_row(struct sb_html *h, const struct sb_results r[2],
		      const struct sb_cmp_row *w, bool sig, bool cvs, bool failed)
{
	char buf[80];

	sb_html_raw(h, w->old->failed || w->new->failed ? "<tr class=\"failed\">" : "<tr>");
	snprintf(buf, sizeof(buf), "%ld", w->threads);
	if (w->threads < 0)
		sb_html_el(h, "td", NULL, w->old->name);
	else
		sb_html_el(h, "td", "n", buf);
	side_cells(h, &r[0], w->old, w->cv[0], w->noisy[0], cvs);
	side_cells(h, &r[1], w->new, w->cv[1], w->noisy[1], cvs);
	sb_cmp_fmt_delta(buf, sizeof(buf), w->old->median, w->new->median);
	sb_html_raw(h, "<td class=\"n\" title=\"");
	sb_html_text(h, w->verdict ? w->verdict : "", false);
	sb_html_raw(h, "\">");
	sb_html_text(h, buf, false);
	sb_html_raw(h, "</td>");
	sb_cmp_fmt_row_interval(buf, sizeof(buf), w);
	sb_html_el(h, "td", "n", buf);
	if (sig) {
		sb_fmt_p(buf, sizeof(buf), w->p, 4);
		sb_html_el(h, "td", "n", buf);
	}
	if (failed)
		sb_html_el(h, "td", "flag", w->old->failed || w->new->failed ? "✖ failed runs" : "");
	sb_html_raw(h, "</tr>\n");
}

/* rows[i..end) share a group: its changelog table; returns end */
static int group_table(struct sb_html *h, const struct sb_results r[2],
		       const struct sb_cmp_row *rows, int nrows, int i)
{
	int end = i, kept = 0;
	bool sig = false, cvs = false, failed = false;

	while (end < nrows && !strcmp(rows[end].group, rows[i].group))
		end++;
	for (int k = i; k < end; k++) {
		if (rows[k].no_subject)		/* left out, as in the text (said below) */
			continue;
		kept++;
		sig |= !isnan(rows[k].p) || (rows[k].old->nreps >= 2 && rows[k].new->nreps >= 2);
		cvs |= !isnan(rows[k].cv[0]) || !isnan(rows[k].cv[1]);
		failed |= rows[k].old->failed || rows[k].new->failed;
	}
	if (!kept)
		return end;
	sb_html_el(h, "h3", NULL, rows[i].group);
	sb_html_raw(h, "<div class=\"tbl\"><table class=\"changelog\"><thead><tr>");
	sb_html_el(h, "th", NULL, rows[i].threads < 0 ? "benchmark" : "threads");
	sb_html_raw(h, cvs ? "<th>Prev</th><th>CV</th><th>Current</th><th>CV</th><th>%Change</th>" :
		       "<th>Prev</th><th>Current</th><th>%Change</th>");
	sb_html_raw(h, "<th>95 % interval</th>");
	if (sig)
		sb_html_raw(h, "<th>p(U)</th>");
	sb_html_raw(h, failed ? "<th>note</th></tr></thead><tbody>\n" : "</tr></thead><tbody>\n");
	for (int k = i; k < end; k++)
		if (!rows[k].no_subject)
			group_row(h, r, &rows[k], sig, cvs, failed);
	sb_html_raw(h, "</tbody></table></div>\n");
	return end;
}

/* the comparisons with no subject, once with their reason, as the text says */
static void left_out(struct sb_html *h, const struct sb_cmp_row *rows, int nrows)
{
	const char *why = NULL;
	int n = 0;

	for (int i = 0; i < nrows; i++)
		if (rows[i].no_subject) {
			why = rows[i].no_subject;
			n++;
		}
	if (n)
		sb_html_linef(h, "p", "sub", "Left out: %d comparison%s: %s.", n, n == 1 ? "" : "s",
			      why);
}

/* never dropped silently: what only one side has */
static void one_side(struct sb_html *h, const struct sb_results r[2],
		     const struct sb_cmp_row *rows, int nrows)
{
	int n = 0;

	for (int s = 0; s < 2; s++)
		for (int i = 0; i < r[s].n; i++) {
			bool in = false;

			for (int k = 0; k < nrows && !in; k++)
				in = rows[k].old == &r[s].bm[i] || rows[k].new == &r[s].bm[i];
			if (in)
				continue;
			if (!n++)
				sb_html_raw(h, "<ul>\n");
			sb_html_linef(h, "li", NULL, "only in %s (%s): %s", s ? "NEW" : "OLD",
				      r[s].path, r[s].bm[i].name);
		}
	if (n)
		sb_html_raw(h, "</ul>\n");
	else
		sb_html_el(h, "p", "muted", "None: every benchmark is on both sides.");
}

static int changefig(struct sb_html *h, const char *const arg[2], const char *metric,
		     char *err, size_t errlen)
{
	struct sb_fig fig = { .nnoisy = 0 };

	if (sb_plot_compare_svg(arg[0], arg[1], fig.svg) || access(fig.svg, R_OK)) {
		sb_html_linef(h, "p", "muted", "No %%Change figure: %s is absent (stratbench plot "
			      "--compare %s %s draws it; then run this compare again).", fig.svg,
			      arg[0], arg[1]);
		return 0;
	}
	snprintf(fig.name, sizeof(fig.name), "compare");
	snprintf(fig.title, sizeof(fig.title), "%%Change of %s (median) from OLD to NEW", metric);
	snprintf(fig.caption[0], sizeof(fig.caption[0]), "%%Change per point between the two "
		 "runs, drawn by stratbench plot --compare (%.250s)", fig.svg);
	snprintf(fig.caption[1], sizeof(fig.caption[1]), "%s", SB_PLOT_COMPARE_FILLS);
	return sb_html_figure(h, &fig, NULL, 0, err, errlen);
}

static const char *const heads[2] = { "OLD (Prev)", "NEW (Current)" };

int sb_html_compare(const char *path, const struct sb_html_cmp *c, char *err, size_t errlen)
{
	const struct sb_results *r = c->r;
	json_t *ctx[2] = { r[0].context, r[1].context };
	struct sb_html h;
	char title[1200], ob[200], nb[200];

	sb_results_base(c->arg[0], ob, sizeof(ob));
	sb_results_base(c->arg[1], nb, sizeof(nb));
	snprintf(title, sizeof(title), "stratbench compare: %s → %s", r[0].label ? r[0].label : ob,
		 r[1].label ? r[1].label : nb);
	if (sb_html_open(&h, path, title, err, errlen))
		return -1;
	sb_html_el(&h, "h1", NULL, title);
	sb_html_linef(&h, "p", "sub", "%s: the median over repetitions; OLD %s, NEW %s.",
		      c->metric, r[0].path, r[1].path);
	sb_html_raw(&h, "<nav><strong>Contents</strong><ul><li><a href=\"#changelog\">"
		    "Changelog tables</a></li><li><a href=\"#figure\">%Change figure</a></li>"
		    "<li><a href=\"#one-side\">On one side only</a></li><li><a href=\"#machines\">"
		    "Machines and runs</a></li></ul></nav>\n");
	for (int s = 0; s < 2; s++)
		sb_html_quiet(&h, &r[s], heads[s]);
	sb_html_raw(&h, "<h2 id=\"changelog\">Changelog tables</h2>\n<p>");
	sb_html_text(&h, "%Change = (new − old) / old × 100 of the medians; 95 % interval: of the "
		     "%Change, a bootstrap of each side's median (docs/compare.md): changed when it "
		     "excludes 0 %, ~ (within the noise) when it holds 0 %, n too small when a side "
		     "has under " SB_IV_MIN_REPS_STR " repetitions (no interval). p(U): two-sided "
		     "Mann-Whitney U over the repetitions where both sides have two or more "
		     "(* below 0.05). CV: of each side's repetitions; ⚠ marks a side whose CV is above "
		     "its run's threshold.", false);
	sb_html_raw(&h, "</p>\n");
	if (!c->nrows)
		sb_html_el(&h, "p", "warn", "No benchmark in both OLD and NEW.");
	for (int i = 0; i < c->nrows;)
		i = group_table(&h, r, c->rows, c->nrows, i);
	left_out(&h, c->rows, c->nrows);
	sb_html_raw(&h, "<h2 id=\"figure\">%Change figure</h2>\n");
	if (changefig(&h, c->arg, c->metric, err, errlen)) {
		sb_html_abort(&h);
		return -1;
	}
	sb_html_raw(&h, "<h2 id=\"one-side\">On one side only</h2>\n");
	one_side(&h, r, c->rows, c->nrows);
	sb_html_raw(&h, "<h2 id=\"machines\">Machines and runs</h2>\n");
	sb_html_fingerprint(&h, ctx, heads, 2);
	return sb_html_close(&h, path, err, errlen);
}
