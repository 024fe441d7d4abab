/* html_report.c — the sections of DIR/index.html that read the run directory beyond its
 * results (html.h): the summary exactly as `stratbench summary` prints it, ab.json's paired
 * comparisons as a table, and a link to every file of the directory. */
#include "html/html.h"

#include "core/util.h"
#include "results/ab.h"
#include "tables/summary.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void sb_html_verdicts(struct sb_html *h, const char *const *dirs, int n)
{
	char err[SB_ERR_MAX], *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	int rc = m ? sb_summary_print(m, SB_CMP_TEXT, dirs, n, NULL, err, sizeof(err)) : -1;

	if (!m)
		snprintf(err, sizeof(err), "out of memory");
	if (m && fclose(m) && !rc) {
		rc = -1;
		snprintf(err, sizeof(err), "out of memory");
	}
	sb_html_raw(h, "<p>The summary tables, as <code>stratbench summary");
	for (int i = 0; i < n; i++) {
		sb_html_raw(h, " ");
		sb_html_text(h, dirs[i], false);
	}
	sb_html_raw(h, "</code> prints them (and <code>run --suite</code> saves them as "
		    "summary.txt) up to its list of files (see Files below): each strategy "
		    "against its family's reference, with its 95 % interval and verdict.</p>\n");
	if (rc) {
		sb_html_linef(h, "p", "warn", "No summary: %s", err);
	} else {
		/* without its list of files: the page has its own, and the summary's
		 * (index.html, the figure count) would differ on a re-plot */
		char *files = strstr(text, "\nFiles:\n");

		if (files)
			files[1] = '\0';
		sb_html_raw(h, "<pre class=\"summary-text\"><code>");
		sb_html_text(h, text, false);
		sb_html_raw(h, "</code></pre>\n");
	}
	free(text);
}

static void ab_row(struct sb_html *h, const struct sb_ab_cmp *c, int k)
{
	const struct sb_paired *s = &c->m[k].st;
	char place[160], buf[160];

	sb_html_raw(h, sb_paired_changed(s) ? "<tr class=\"changed\">" : "<tr>");
	sb_point_place(&c->a, place, sizeof(place));
	sb_html_linef(h, "td", NULL, "%s → %s", c->a_spec, c->b_spec);
	sb_html_linef(h, "td", NULL, "%s, threads:%d, place:%s", c->a.family, c->a.threads, place);
	sb_html_el(h, "td", NULL, c->m[k].name);
	sb_html_linef(h, "td", "n", "%d", c->pairs);
	sb_html_linef(h, "td", "n", "%+.2f %%", sb_pct_change(s->ratio));
	sb_html_linef(h, "td", "n", "[%+.2f, %+.2f] %.0f %%", sb_pct_change(s->lo),
		      sb_pct_change(s->hi), 100 * s->conf);
	sb_html_el(h, "td", "verdict", sb_paired_changed(s) ? "changed" : "~");
	sb_html_linef(h, "td", "n", "%.2g", s->p);
	sb_ab_format_stop(c, buf, sizeof(buf));
	sb_html_el(h, "td", NULL, k ? "" : buf);
	sb_html_raw(h, "</tr>\n");
}

void sb_html_ab(struct sb_html *h, const char *dir)
{
	struct sb_ab_cmp *c = NULL;
	char err[SB_ERR_MAX];
	int n = 0, rc = sb_ab_read(dir, &c, &n, err, sizeof(err));

	if (rc == 1) {
		sb_html_el(h, "p", "muted", "No paired A/B comparison in this run (no ab.json: "
			   "`run --ab=A,B` and the suite's seed stage write one).");
		return;
	}
	if (rc) {
		sb_html_el(h, "p", "warn", err);
		return;
	}
	sb_html_raw(h, "<p>Alternating trials of A and B in the same run (ab.json): the %Change "
		    "of B over A with its 95 % interval (Wilcoxon signed-rank, docs/precision.md); "
		    "changed when the interval excludes 0 %, ~ when it holds it.</p>\n");
	sb_html_raw(h, "<div class=\"tbl\"><table class=\"ab\"><thead><tr><th>A → B</th>"
		    "<th>point</th><th>metric</th><th>pairs</th><th>%Change</th>"
		    "<th>95 % interval</th><th>verdict</th><th>p</th><th>how it ended</th></tr>"
		    "</thead><tbody>\n");
	for (int i = 0; i < n; i++)
		for (int k = 0; k < c[i].nmetrics; k++)
			ab_row(h, &c[i], k);
	sb_html_raw(h, "</tbody></table></div>\n");
	free(c);
}

/* <a> to rel, every byte but [A-Za-z0-9._~/-] %-encoded (a file name is the user's), named
 * by its last component (its directory starts the line) */
static void href(struct sb_html *h, const char *rel)
{
	char b[8];

	sb_html_raw(h, "<a href=\"");
	for (const unsigned char *s = (const unsigned char *)rel; *s; s++) {
		if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
		    strchr("._~/-", *s))
			snprintf(b, sizeof(b), "%c", *s);
		else
			snprintf(b, sizeof(b), "%%%02X", *s);
		sb_html_raw(h, b);
	}
	sb_html_raw(h, "\">");
	sb_html_text(h, strrchr(rel, '/') ? strrchr(rel, '/') + 1 : rel, false);
	sb_html_raw(h, "</a>");
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* the names in dir (no dot files, no .partial), sorted, into *out (malloc'd); -1: unreadable */
static int names_of(const char *dir, char ***out, int *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **v = NULL, **nv;
	int k = 0;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);

		if (e->d_name[0] == '.' || (len > 8 && !strcmp(e->d_name + len - 8, ".partial")))
			continue;
		if (!(nv = realloc(v, sizeof(*v) * (size_t)(k + 1))) || !(nv[k] = strdup(e->d_name))) {
			v = nv ? nv : v;
			break;
		}
		v = nv;
		k++;
	}
	closedir(d);
	if (k)
		qsort(v, (size_t)k, sizeof(*v), by_name);
	*out = v;
	*n = k;
	return 0;
}

/* the files of dir/sub (sub "" for dir), a line of links; each subdirectory a line of its
 * own below, two levels deep */
static void files_of(struct sb_html *h, const char *dir, const char *sub, int depth)
{
	char path[SB_PATH], rel[SB_PATH], **v;
	struct stat st;
	int n, shown = 0;

	sb_pathf(path, "%s%s%s", dir, *sub ? "/" : "", sub);
	if (names_of(path, &v, &n))
		return;
	sb_html_raw(h, "<li>");
	sb_html_textf(h, "%s/: ", *sub ? sub : ".");
	for (int i = 0; i < n; i++) {
		sb_pathf(rel, "%s%s%s", sub, *sub ? "/" : "", v[i]);
		sb_pathf(path, "%s/%s", dir, rel);
		if (stat(path, &st) || !S_ISREG(st.st_mode))
			continue;
		sb_html_raw(h, shown++ ? " · " : "");
		href(h, rel);
	}
	if (!shown)
		sb_html_raw(h, "<span class=\"muted\">no file</span>");
	sb_html_raw(h, "</li>\n");
	for (int i = 0; i < n; i++) {
		sb_pathf(rel, "%s%s%s", sub, *sub ? "/" : "", v[i]);
		sb_pathf(path, "%s/%s", dir, rel);
		if (depth < 2 && !stat(path, &st) && S_ISDIR(st.st_mode))
			files_of(h, dir, rel, depth + 1);
		free(v[i]);
	}
	free(v);
}

void sb_html_files(struct sb_html *h, const char *dir)
{
	char path[SB_PATH];

	sb_html_raw(h, "<p>Every file of ");
	sb_html_text(h, dir, false);
	sb_html_raw(h, " when this page was written, linked relative to it.");
	sb_pathf(path, "%s/summary.txt", dir);
	if (access(path, F_OK))
		sb_html_raw(h, " No summary.txt: a run writes it when it finishes (a suite, in its "
			    "own directory, before the plots); the same tables are at the top of this "
			    "page.");
	sb_html_raw(h, "</p>\n<ul class=\"files\">\n");
	files_of(h, dir, "", 0);
	sb_html_raw(h, "</ul>\n");
}
