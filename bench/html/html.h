/* html/ — the HTML pages: DIR/index.html and compare's page.
 * uses: core stats results tables figures
 *
 * html.h — internal to the pages (html.c, html_context.c, html_table.c, html_compare.c,
 * html_report.c): one static file each, no external assets, written as PATH.partial and
 * renamed when complete.
 *
 * Every write goes through struct sb_html, which keeps the first failure (its errno); text from
 * results (names, context values, titles) is always escaped (sb_html_text), sb_html_raw is for
 * the page's own markup only. */
#ifndef STRATBENCH_HTML_H
#define STRATBENCH_HTML_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

#include "figures/plot.h"
#include "tables/compare.h"

struct sb_html {
	FILE *f;
	int err;		/* errno of the first failed write, 0: none */
	char partial[SB_PATH];	/* PATH.partial */
};

/* Opens path.partial, writes the head (title escaped) and style; 0, or -1 with one line in err */
int sb_html_open(struct sb_html *h, const char *path, const char *title, char *err,
		 size_t errlen);
/* Ends the document, checks every write, flushes, closes and renames path.partial to path; 0,
 * or -1 with one line in err (the partial file removed). */
int sb_html_close(struct sb_html *h, const char *path, char *err, size_t errlen);
/* Closes and removes path.partial (after a failure of the caller's). */
void sb_html_abort(struct sb_html *h);

void sb_html_raw(struct sb_html *h, const char *markup);
/* s escaped for text and attribute values (& < > " '); a newline is <br> when br, else kept */
void sb_html_text(struct sb_html *h, const char *s, bool br);
void sb_html_textf(struct sb_html *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* <tag class="cls">text</tag> (cls NULL: none), text escaped */
void sb_html_el(struct sb_html *h, const char *tag, const char *cls, const char *text);
/* the same, text printf'd (a newline kept), then a newline */
void sb_html_linef(struct sb_html *h, const char *tag, const char *cls, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* html_context.c: a context value as text (numbers, GB's load_avg array printed); false: absent */
bool sb_html_ctx(json_t *context, const char *key, char *buf, size_t n);

/* html_context.c: the machine and run tables of one context, or of two side by side (heads name
 * the columns, differing rows marked); a run's quietness warnings and CV threshold */
void sb_html_fingerprint(struct sb_html *h, json_t *const *ctx, const char *const *heads,
			 int nctx);
void sb_html_quiet(struct sb_html *h, const struct sb_results *r, const char *side);
/* <figure id="fig-[STAGE-]NAME"> (stage NULL: none): its title, the SVG inline (ids prefixed
 * with i, unique per page) and its two-line caption (html.c) */
int sb_html_figure(struct sb_html *h, const struct sb_fig *fig, const char *stage, int i,
		   char *err, size_t errlen);

/* html_table.c: a summary table per family, and the noisy points */
void sb_html_summary(struct sb_html *h, const struct sb_results *r);
void sb_html_noisy(struct sb_html *h, const struct sb_results *r);

/* html_report.c: the summary of dirs[0..n) exactly as `stratbench summary` prints it (a
 * line saying why where it cannot); DIR/ab.json's comparisons, a row per metric with its
 * interval and verdict (a line where there is none); a link to every file of DIR, and of its
 * subdirectories two levels deep, relative to DIR. */
void sb_html_verdicts(struct sb_html *h, const char *const *dirs, int n);
void sb_html_ab(struct sb_html *h, const char *dir);
void sb_html_files(struct sb_html *h, const char *dir);

/* html.c: DIR/index.html, the answer first — the summary and the paired A/B comparisons, every
 * figure inline (the kernel stage's, DIR/kernel, after the run's), a table per family and the
 * noisy points, the machine and run (fingerprint, command line, quietness), every file. */
struct sb_html_run {
	const char *dir;		/* the run directory: the page's links are relative to it */
	const struct sb_results *r;	/* its results */
	const struct sb_figs *figs;	/* its figures */
	const struct sb_figs *kfigs;	/* DIR/kernel's; NULL: no kernel stage */
};
int sb_html_write(const char *path, const struct sb_html_run *run, char *err, size_t errlen);

/* Before any work (html.c): refuses a path that exists but is no regular file (the page's rename
 * would replace a directory, a device) or whose path.partial cannot be created, leaving nothing
 * behind; 0, or -1 with "cannot write PATH: why" in err, PATH as given. */
int sb_html_check(const char *path, char *err, size_t errlen);
/* html_compare.c: `stratbench compare OLD NEW --html=FILE` — both fingerprints side by side,
 * a changelog table per group (Prev, CV, Current, CV, %Change, its interval and verdict, p(U); a
 * side whose CV is above its run's threshold marked noisy), the points on one side only, and
 * the %Change figure if `plot --compare OLD NEW` drew it (NEW/plots/compare-vs-OLD.svg), else a
 * line saying so.  rows: the shared points by group then threads, judged by tables/compare.h. */
struct sb_html_cmp {
	const char *const *arg;		/* OLD and NEW as given (directories or files) */
	const struct sb_results *r;	/* their results */
	const char *metric;
	const struct sb_cmp_row *rows;
	int nrows;
};
int sb_html_compare(const char *path, const struct sb_html_cmp *c, char *err, size_t errlen);

#endif
