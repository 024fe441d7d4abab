/* html.c — DIR/index.html (html.h's sb_html_write), no script, and what every page shares
 * (html.h): the checked writer, escaping, the head and style, and the inline SVG. */
#include "html/html.h"

#include "core/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void note_err(struct sb_html *h, int ok)
{
	if (!ok && !h->err)
		h->err = errno ? errno : EIO;
}

void sb_html_raw(struct sb_html *h, const char *markup)
{
	note_err(h, fputs(markup, h->f) >= 0);
}

static __attribute__((format(printf, 2, 3))) void rawf(struct sb_html *h, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	note_err(h, vfprintf(h->f, fmt, ap) >= 0);
	va_end(ap);
}

void sb_html_text(struct sb_html *h, const char *s, bool br)
{
	for (; s && *s; s++) {
		const char *e = *s == '&' ? "&amp;" : *s == '<' ? "&lt;" : *s == '>' ? "&gt;" :
				*s == '"' ? "&quot;" : *s == '\'' ? "&#39;" :
				*s == '\n' && br ? "<br>" : NULL;

		if (e)
			sb_html_raw(h, e);
		else
			note_err(h, fputc(*s, h->f) != EOF);
	}
}

void sb_html_textf(struct sb_html *h, const char *fmt, ...)
{
	char buf[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	sb_html_text(h, buf, false);
}

static void el(struct sb_html *h, const char *tag, const char *cls, const char *text, bool br)
{
	rawf(h, "<%s", tag);
	if (cls)
		rawf(h, " class=\"%s\"", cls);
	sb_html_raw(h, ">");
	sb_html_text(h, text, br);
	rawf(h, "</%s>", tag);
}

void sb_html_el(struct sb_html *h, const char *tag, const char *cls, const char *text)
{
	el(h, tag, cls, text, true);
}

void sb_html_linef(struct sb_html *h, const char *tag, const char *cls, const char *fmt, ...)
{
	char buf[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	el(h, tag, cls, buf, false);
	sb_html_raw(h, "\n");
}

static const char style[] =
	"body{font:15px/1.45 \"DejaVu Sans\",system-ui,sans-serif;color:#1b1b1b;background:#fff;"
	"max-width:1340px;margin:0 auto;padding:0 20px 40px}\n"
	"h1{font-size:1.55em;margin:.9em 0 .1em}h2{font-size:1.3em;border-bottom:2px solid #d0d0d0;"
	"padding-bottom:.15em;margin:1.8em 0 .6em}h3{font-size:1.1em;margin:1.4em 0 .3em}\n"
	".sub{color:#555;margin:0 0 .8em}nav{font-size:.92em}nav ul{margin:.2em 0;"
	"padding-left:1.3em}code,pre{font-family:\"DejaVu Sans Mono\",monospace;font-size:.9em}\n"
	"pre{background:#f4f4f4;border:1px solid #ddd;padding:6px 10px;white-space:pre-wrap;"
	"word-break:break-all}pre.summary-text{white-space:pre;word-break:normal;overflow-x:auto;"
	"font-size:.8em;line-height:1.3}\n"
	".tbl{overflow-x:auto}table{border-collapse:collapse;margin:.4em 0 1em;"
	"font-variant-numeric:tabular-nums}th,td{border:1px solid #c8c8c8;padding:3px 8px;"
	"text-align:left;vertical-align:top}thead th{background:#ececec}\n"
	"td.n{text-align:right;white-space:nowrap}table.kv th{background:#f6f6f6;font-weight:600;"
	"white-space:nowrap}table.kv td{word-break:break-word}\n"
	"tr.noisy td{background:#fff1cc}tr.noisy td:first-child{border-left:4px solid #b26a00}"
	"td.noisy{background:#fff1cc}.flag{font-weight:bold;color:#7a4400;white-space:nowrap}\n"
	"tr.failed td{background:#fde0e0}tr.differs th{border-left:4px solid #555}\n"
	"tr.changed td.verdict{font-weight:bold}ul.files li{margin:.2em 0;word-break:break-word}\n"
	".warn{border-left:5px solid #b26a00;background:#fff6e0;padding:5px 10px;margin:.4em 0}\n"
	".ok{border-left:5px solid #2e7d32;background:#eef7ee;padding:5px 10px;margin:.4em 0}\n"
	"figure{margin:1.2em 0 2em;border:1px solid #d8d8d8;padding:10px 12px}figure h3{margin:0 0"
	" .4em}figure svg{display:block;width:100%;height:auto}\n"
	"figcaption p{margin:.3em 0}figcaption .how{color:#444}.muted{color:#666}\n"
	"details{margin:.6em 0}summary{cursor:pointer;font-weight:600}\n";

static const char *not_regular(mode_t m)
{
	return S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a FIFO" :
	       S_ISCHR(m) ? "a character device" : S_ISBLK(m) ? "a block device" :
	       S_ISSOCK(m) ? "a socket" : "not a regular file";
}

int sb_html_check(const char *path, char *err, size_t errlen)
{
	char partial[SB_PATH];
	struct stat st;
	int fd = -1;

	*err = '\0';
	if (!*path)
		snprintf(err, errlen, "cannot write '': no file named");
	else if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		snprintf(err, errlen, "cannot write %s: %s, not a regular file", path,
			 not_regular(st.st_mode));
	else if (sb_pathf(partial, "%s.partial", path) ||
		 (lstat(partial, &st) != 0 &&
		  (fd = open(partial, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666)) < 0))
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
	else if (fd < 0) {	/* partial is a killed writer's: written over later */
		if (!S_ISREG(st.st_mode) || access(partial, W_OK))
			snprintf(err, errlen, "cannot write %s: %s is in the way", path, partial);
	} else {
		close(fd);
		unlink(partial);
	}
	sb_err_oneline(err);	/* path is the user's */
	return *err ? -1 : 0;
}

int sb_html_open(struct sb_html *h, const char *path, const char *title, char *err,
		 size_t errlen)
{
	memset(h, 0, sizeof(*h));
	if (sb_pathf(h->partial, "%s.partial", path) || !(h->f = fopen(h->partial, "w"))) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	sb_html_raw(h, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		    "<title>");
	sb_html_text(h, title, false);
	rawf(h, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", style);
	return 0;
}

void sb_html_abort(struct sb_html *h)
{
	if (h->f)
		fclose(h->f);
	h->f = NULL;
	unlink(h->partial);
}

int sb_html_close(struct sb_html *h, const char *path, char *err, size_t errlen)
{
	int e;

	sb_html_raw(h, "</body>\n</html>\n");
	if (!h->err && fflush(h->f))
		h->err = errno;
	e = h->err;
	if (fclose(h->f) && !e)
		e = errno;
	h->f = NULL;
	if (!e && rename(h->partial, path))
		e = errno;
	if (!e)
		return 0;
	snprintf(err, errlen, "cannot write %s: %s", path, strerror(e));
	unlink(h->partial);
	return -1;
}

/* characters of s before a name that gets the prefix (an id, url(#…), href to #…); 0: none */
static size_t ref_at(const char *s, bool in_tag, char quote)
{
	static const char *const in_tags[] = { " id='", " id=\"", "\tid='", "\tid=\"", "\nid='",
					       "\nid=\"", "href='#", "href=\"#", NULL };

	if (!strncmp(s, "url(#", 5))
		return 5;
	if (!in_tag || quote)
		return 0;
	for (int i = 0; in_tags[i]; i++)
		if (!strncmp(s, in_tags[i], strlen(in_tags[i])))
			return strlen(in_tags[i]);
	return 0;
}

/* s from its <svg> on, every id and reference prefixed; gnuplot's <title>Gnuplot</title>
 * becomes the figure's title */
static void svg_body(struct sb_html *h, const char *s, const char *prefix, const char *title)
{
	bool in_tag = false;
	char quote = 0;
	size_t k;

	for (; *s; s++) {
		if (!in_tag && !strncmp(s, "<title>Gnuplot</title>", 22)) {
			sb_html_raw(h, "<title>");	/* no <br> in SVG: it would end it */
			sb_html_text(h, title, false);
			sb_html_raw(h, "</title>");
			s += 21;
			continue;
		}
		if ((k = ref_at(s, in_tag, quote))) {
			rawf(h, "%.*s%s", (int)k, s, prefix);
			if (s[k - 1] == '#' && s[k - 2] != '(')
				quote = s[k - 2];	/* href='#: inside the value now */
			else if (s[k - 1] == '\'' || s[k - 1] == '"')
				quote = s[k - 1];
			s += k - 1;
			continue;
		}
		if (in_tag && quote && *s == quote)
			quote = 0;
		else if (in_tag && !quote && (*s == '\'' || *s == '"'))
			quote = *s;
		else if (in_tag && !quote && *s == '>')
			in_tag = false;
		else if (!in_tag && *s == '<')
			in_tag = true;
		note_err(h, fputc(*s, h->f) != EOF);
	}
}

/* the SVG file inline, from <svg> on, ids and their references prefixed (unique per page);
 * 0, or -1 with one line in err naming the file */
static int inline_svg(struct sb_html *h, const char *path, const char *prefix,
		      const char *title, char *err, size_t errlen)
{
	size_t len;	/* a figure has no size limit */
	char *text = sb_input_read(path, "figure", LLONG_MAX, &len, err, errlen), *svg;
	struct stat st;
	int e = errno;

	if (!text) {
		if (e == EINVAL && !stat(path, &st) && S_ISDIR(st.st_mode))
			e = EISDIR;	/* what reading it says */
		snprintf(err, errlen, "cannot read %s: %s", path, e == ENOMEM ? "out of memory" :
			 strerror(e ? e : EIO));
		return -1;
	}
	svg = strstr(text, "<svg");	/* drops <?xml …?>, <!DOCTYPE …> and comments */
	if (!svg) {
		snprintf(err, errlen, "%s: no <svg> element in it", path);
		free(text);
		return -1;
	}
	svg_body(h, svg, prefix, title);
	sb_html_raw(h, "\n");
	free(text);
	return 0;
}

int sb_html_figure(struct sb_html *h, const struct sb_fig *fig, const char *stage, int i,
		   char *err, size_t errlen)
{
	char prefix[32];

	snprintf(prefix, sizeof(prefix), "f%d-", i);
	sb_html_raw(h, "<figure id=\"fig-");
	if (stage)
		rawf(h, "%s-", stage);
	sb_html_text(h, fig->name, false);
	sb_html_raw(h, "\">\n");
	sb_html_el(h, "h3", NULL, fig->title);
	sb_html_raw(h, "\n");
	if (fig->nnoisy > 0)
		sb_html_linef(h, "p", "flag", "⚠ %d noisy point%s circled on this figure",
			      fig->nnoisy, fig->nnoisy > 1 ? "s" : "");
	if (inline_svg(h, fig->svg, prefix, fig->title, err, errlen))
		return -1;
	sb_html_raw(h, "<figcaption>");
	sb_html_el(h, "p", "what", fig->caption[0]);
	sb_html_el(h, "p", "how", fig->caption[1]);
	sb_html_raw(h, "</figcaption>\n</figure>\n");
	return 0;
}

static void fig_links(struct sb_html *h, const struct sb_figs *figs, const char *stage)
{
	for (int i = 0; i < figs->n; i++) {
		sb_html_raw(h, "<li><a href=\"#fig-");
		if (stage)
			rawf(h, "%s-", stage);
		sb_html_text(h, figs->v[i].name, false);
		sb_html_raw(h, "\">");
		sb_html_text(h, figs->v[i].name, false);
		sb_html_raw(h, "</a></li>\n");
	}
}

static void contents(struct sb_html *h, const struct sb_html_run *run)
{
	sb_html_raw(h, "<nav><strong>Contents</strong><ul>\n<li><a href=\"#verdicts\">Verdicts"
		    "</a><ul>\n<li><a href=\"#summary\">Summary tables</a></li>\n"
		    "<li><a href=\"#ab\">Paired A/B comparisons</a></li></ul></li>\n"
		    "<li><a href=\"#figures\">Figures</a><ul>\n");
	fig_links(h, run->figs, NULL);
	if (run->kfigs)
		sb_html_raw(h, "<li><a href=\"#kernel-stage\">Kernel stage</a><ul>\n");
	if (run->kfigs)
		fig_links(h, run->kfigs, "kernel");
	sb_html_raw(h, run->kfigs ? "</ul></li>\n</ul></li>\n" : "</ul></li>\n");
	sb_html_raw(h, "<li><a href=\"#families\">Medians per family</a></li>\n"
		    "<li><a href=\"#noisy\">Noisy points</a></li>\n"
		    "<li><a href=\"#machine\">Machine and run</a></li>\n"
		    "<li><a href=\"#files\">Files</a></li>\n</ul></nav>\n");
}

/* the figures of one stage (stage NULL: the run's own) */
static int figures(struct sb_html *h, const struct sb_figs *figs, const char *stage, int first,
		   char *err, size_t errlen)
{
	if (!figs->n)
		sb_html_el(h, "p", "muted", "No figure: no family of these results has data "
			   "for one.");
	for (int i = 0; i < figs->n; i++)
		if (sb_html_figure(h, &figs->v[i], stage, first + i, err, errlen))
			return -1;
	return 0;
}

/* the kernel stage (DIR/kernel): its own page, then its figures inline */
static int kernel_stage(struct sb_html *h, const struct sb_html_run *run, char *err,
			size_t errlen)
{
	sb_html_raw(h, "<h3 id=\"kernel-stage\">Kernel stage: real TLB shootdowns (kernel/)</h3>\n"
		    "<p>Its own page: <a href=\"kernel/index.html\">kernel/index.html</a> (written "
		    "by <code>stratbench plot DIR/kernel</code>, as the suite does); its figures:"
		    "</p>\n");
	return figures(h, run->kfigs, "kernel", run->figs->n, err, errlen);
}

static void head(struct sb_html *h, const struct sb_html_run *run, const char *title)
{
	char cmd[2048];

	sb_html_el(h, "h1", NULL, title);
	sb_html_linef(h, "p", "sub", "Results: %s — %d benchmarks, %d figures%s.", run->r->path,
		      run->r->n, run->figs->n + (run->kfigs ? run->kfigs->n : 0),
		      run->kfigs ? ", the kernel stage's included" : "");
	if (sb_html_ctx(run->r->context, "sb_command_line", cmd, sizeof(cmd))) {
		sb_html_raw(h, "<pre><code>stratbench ");
		sb_html_text(h, cmd, false);
		sb_html_raw(h, "</code></pre>\n");
	}
	contents(h, run);
}

int sb_html_write(const char *path, const struct sb_html_run *run, char *err, size_t errlen)
{
	const struct sb_results *r = run->r;
	char title[1200], kdir[SB_PATH];
	const char *dirs[2] = { run->dir, kdir };
	struct sb_html h;

	/* "stratbench: HOST (CPU), run LABEL" */
	snprintf(title, sizeof(title), "stratbench: %s%s%s%s%s%s", r->host ? r->host : r->path,
		 r->cpu_model ? " (" : "", r->cpu_model ? r->cpu_model : "",
		 r->cpu_model ? ")" : "", r->label ? ", run " : "", r->label ? r->label : "");
	if (sb_pathf(kdir, "%s/kernel", run->dir)) {
		snprintf(err, errlen, "cannot write %s: %s/kernel: path too long", path, run->dir);
		return -1;
	}
	if (sb_html_open(&h, path, title, err, errlen))
		return -1;
	head(&h, run, title);
	sb_html_raw(&h, "<h2 id=\"verdicts\">Verdicts</h2>\n<h3 id=\"summary\">Summary tables</h3>\n");
	sb_html_verdicts(&h, dirs, run->kfigs ? 2 : 1);
	sb_html_raw(&h, "<h3 id=\"ab\">Paired A/B comparisons</h3>\n");
	sb_html_ab(&h, run->dir);
	sb_html_raw(&h, "<h2 id=\"figures\">Figures</h2>\n");
	if (figures(&h, run->figs, NULL, 0, err, errlen) ||
	    (run->kfigs && kernel_stage(&h, run, err, errlen))) {
		sb_html_abort(&h);
		return -1;
	}
	sb_html_raw(&h, "<h2 id=\"families\">Medians per family</h2>\n");
	sb_html_summary(&h, r);
	sb_html_raw(&h, "<h2 id=\"noisy\">Noisy points</h2>\n");
	sb_html_noisy(&h, r);
	sb_html_raw(&h, "<h2 id=\"machine\">Machine and run</h2>\n");
	sb_html_quiet(&h, r, NULL);
	sb_html_fingerprint(&h, &r->context, NULL, 1);
	sb_html_raw(&h, "<h2 id=\"files\">Files</h2>\n");
	sb_html_files(&h, run->dir);
	return sb_html_close(&h, path, err, errlen);
}
