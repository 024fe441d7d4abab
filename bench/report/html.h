/* html.h — internal to the HTML pages (html.c, html_context.c,
 * html_table.c, html_compare.c): one static file each, no external
 * assets, written as PATH.partial and renamed when complete (plot.h's
 * sb_html_write and sb_html_compare).
 *
 * Every write goes through struct sb_html, which keeps the first failure
 * (its errno); sb_html_close checks it, fflush and fclose, then renames.
 * Text from results (names, context values, titles) is always escaped:
 * sb_html_text; sb_html_raw is for the page's own markup only. */
#ifndef STRATBENCH_HTML_H
#define STRATBENCH_HTML_H

#include <stdbool.h>
#include <stdio.h>

#include "report/plot.h"

struct sb_html {
	FILE *f;
	int err;		/* errno of the first failed write, 0: none */
	char partial[4200];	/* PATH.partial */
};

/* Opens path.partial and writes the document's head (title escaped) and
 * style; 0, or -1 with one line in err. */
int sb_html_open(struct sb_html *h, const char *path, const char *title, char *err,
		 size_t errlen);
/* Ends the document, checks every write, flushes, closes and renames
 * path.partial to path; 0, or -1 with one line in err (the partial file
 * removed). */
int sb_html_close(struct sb_html *h, const char *path, char *err, size_t errlen);
/* Closes and removes path.partial (after a failure of the caller's). */
void sb_html_abort(struct sb_html *h);

void sb_html_raw(struct sb_html *h, const char *markup);
void sb_html_rawf(struct sb_html *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* s escaped for text and attribute values (& < > " '); a newline is <br>
 * when br, else kept */
void sb_html_text(struct sb_html *h, const char *s, bool br);
void sb_html_textf(struct sb_html *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* <tag class="cls">text</tag> (cls NULL: none), text escaped */
void sb_html_el(struct sb_html *h, const char *tag, const char *cls, const char *text);

/* html_context.c: a context value as text: a string as is, a number or
 * an array (GB's load_avg) printed; false when absent. */
bool sb_html_ctx(json_t *context, const char *key, char *buf, size_t n);
/* Numbers for tables: "n/a" for NaN; SI (k, M, G) for large rates. */
void sb_html_num(char *buf, size_t n, double v);
void sb_html_si(char *buf, size_t n, double v);

/* html_context.c: the machine and run tables of one context, or of two
 * side by side (the compare page: heads name the columns, a row that
 * differs is marked); the quietness warnings and CV threshold of a run */
void sb_html_fingerprint(struct sb_html *h, json_t *const *ctx, const char *const *heads,
			 int nctx);
void sb_html_quiet(struct sb_html *h, const struct sb_results *r, const char *side);
/* html.c: the SVG file inline: without its XML declaration or DOCTYPE, every id
 * and reference to one prefixed with prefix (ids stay unique per page);
 * 0, or -1 with one line in err naming the file. */
int sb_html_svg(struct sb_html *h, const char *path, const char *prefix, const char *title,
		char *err, size_t errlen);
/* <figure>: its title, the SVG inline and its two-line caption */
int sb_html_figure(struct sb_html *h, const struct sb_fig *fig, int i, char *err, size_t errlen);

/* html_table.c: a summary table per family, and the noisy points */
void sb_html_summary(struct sb_html *h, const struct sb_results *r);
void sb_html_noisy(struct sb_html *h, const struct sb_results *r);
/* b's CV % of ops_per_s over its repetitions (NaN: none) and how many */
double sb_html_cv(const struct sb_bm *b, int *nreps);

#endif
