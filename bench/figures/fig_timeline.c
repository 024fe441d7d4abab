/* fig_timeline.c — window-timeline: pages admitted per window over time, one panel per policy,
 * at 2 threads (else the fewest above 1, else 1), from one run of the body: DIR/windows.jsonl,
 *   {"name", "point": {typed fields}, "interval_ns", "limit",
 *    "windows": [[start_ns, end_ns, pages], ...], "idle": [k, ...], ...}
 * a line per fidelity benchmark.  A window is a box from its starting reset to the next, as
 * high as its pages: a stretched window is wide, an overshoot rises above the limit line; the
 * x grid marks every interval, where a phase-keeping policy's boundaries fall.  The first SHOWN
 * intervals only: at 200 windows across the page a box is a few pixels. */
#include "figures/figure.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SHOWN 30		/* intervals drawn */

struct tl {
	struct sb_point_fields f;
	double interval_ms, limit;
	double (*w)[4];		/* start_ms end_ms pages idle */
	int nw;
	long total;		/* windows in the run (windows_total), else nw */
};

struct tls {
	struct tl *v;
	int n, cap;
	char path[SB_PATH];
};

static int bad(struct sb_plot *p, const struct tls *t, int line, const char *what)
{
	snprintf(p->err, p->errlen, "%s line %d: %s (window-timeline needs it)", t->path, line,
		 what);
	return -1;
}

static double num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* The windows after window 0 (set-up to the first reset: no window the figures count), in ms
 * from window 1's start: the grid of intervals from 0 is where a phase-keeping policy resets. */
static int read_windows(struct sb_plot *p, const struct tls *t, int line, json_t *arr,
			json_t *idle, struct tl *e)
{
	size_t k;
	json_t *w, *ix;
	double t0 = 0;

	if (!json_is_array(arr))
		return bad(p, t, line, "no \"windows\" array");
	e->w = calloc(json_array_size(arr) + 1, sizeof(*e->w));
	if (!e->w)
		return bad(p, t, line, "out of memory");
	json_array_foreach(arr, k, w) {
		if (json_array_size(w) != 3 || !json_is_number(json_array_get(w, 0)) ||
		    !json_is_number(json_array_get(w, 1)) || !json_is_number(json_array_get(w, 2)))
			return bad(p, t, line, "a \"windows\" entry is not [start_ns, end_ns, pages]");
		if (k == 1)
			t0 = json_number_value(json_array_get(w, 0));
		if (k == 0)
			continue;
		e->w[k - 1][0] = (json_number_value(json_array_get(w, 0)) - t0) / 1e6;
		e->w[k - 1][1] = (json_number_value(json_array_get(w, 1)) - t0) / 1e6;
		e->w[k - 1][2] = json_number_value(json_array_get(w, 2));
	}
	e->nw = json_array_size(arr) ? (int)json_array_size(arr) - 1 : 0;
	json_array_foreach(idle, k, ix)	/* optional: idle windows' indices */
		if (json_is_integer(ix) && json_integer_value(ix) >= 1 &&
		    json_integer_value(ix) <= e->nw)
			e->w[json_integer_value(ix) - 1][3] = 1;
	return 0;
}

static int parse_line(struct sb_plot *p, struct tls *t, int line, const char *text)
{
	char why[300];
	json_error_t je;
	json_t *j = json_loads(text, 0, &je);
	struct tl *e;
	int rc;

	if (!json_is_object(j)) {
		json_decref(j);
		snprintf(why, sizeof(why), "not a JSON object (%s)", j ? "other JSON" : je.text);
		return bad(p, t, line, why);
	}
	e = &t->v[t->n];
	memset(e, 0, sizeof(*e));
	rc = sb_point_from_json(json_object_get(j, "point"), &e->f, why, sizeof(why));
	if (rc)
		bad(p, t, line, why);
	e->interval_ms = num(j, "interval_ns") / 1e6;
	e->limit = num(j, "limit");
	if (!rc && !(e->interval_ms > 0))
		rc = bad(p, t, line, "no positive \"interval_ns\"");
	if (!rc && !(e->limit > 0))
		rc = bad(p, t, line, "no positive \"limit\"");
	if (!rc)
		rc = read_windows(p, t, line, json_object_get(j, "windows"),
				  json_object_get(j, "idle"), e);
	e->total = json_is_integer(json_object_get(j, "windows_total")) ?
		   (long)json_integer_value(json_object_get(j, "windows_total")) : e->nw;
	t->n++;			/* freed with the rest, even when bad */
	json_decref(j);
	return rc;
}

/* every line of dir/windows.jsonl; 0 and t->n == 0 when there is none */
static int read_file(struct sb_plot *p, struct tls *t)
{
	FILE *f = NULL;
	char *text = NULL;
	size_t cap = 0;
	int line = 0, rc = 0;

	if (!sb_pathf(t->path, "%s/windows.jsonl", p->dir))
		f = fopen(t->path, "r");
	if (!f && !sb_pathf(t->path, "%s/windows.jsonl.partial", p->dir))
		f = fopen(t->path, "r");	/* an interrupted run's */
	if (!f)
		return 0;
	while (!rc && getline(&text, &cap, f) > 0) {
		line++;
		if (strspn(text, " \t\r\n") == strlen(text))
			continue;
		if (SB_GROW(t->v, t->cap, t->n + 1)) {
			rc = bad(p, t, line, "out of memory");
			break;
		}
		rc = parse_line(p, t, line, text);
	}
	free(text);
	fclose(f);
	return rc;
}

/* 2 threads, else the fewest above 1, else 1: what the policies race at */
static int pick_threads(const struct tls *t)
{
	int best = 0;

	for (int i = 0; i < t->n; i++) {
		int n = t->v[i].f.threads;

		if (n == 2)
			return 2;
		if (!best || (n > 1 && (best == 1 || n < best)))
			best = n;
	}
	return best;
}

static const struct tl *entry_of(const struct tls *t, const struct sb_lines *ls,
				 const struct sb_line *l, int threads)
{
	for (int i = 0; i < t->n; i++)
		if (t->v[i].f.threads == threads && sb_lines_match(ls, l, &t->v[i].f, 0))
			return &t->v[i];
	return NULL;
}

/* A window as "start end pages idle".  An idle window longer than the interval had no call
 * after it expired (a call would have reset it), so its pages came in its first interval: that
 * box, then the rest as an idle span (idle 2: pages 0, drawn as a hatched band), not a box
 * of all its pages across the whole idle time. */
static void write_window(FILE *f, const double *w, double interval_ms)
{
	double cut = w[0] + interval_ms;

	if (w[3] > 0 && w[1] > cut) {
		fprintf(f, "%.6f %.6f %.9g 1\n", w[0], cut, w[2]);
		fprintf(f, "%.6f %.6f 0 2\n", cut, w[1]);
		return;
	}
	fprintf(f, "%.6f %.6f %.9g %g\n", w[0], w[1], w[2], w[3]);
}

static void write_panels(const struct tls *t, const struct sb_lines *ls, int threads,
			 struct sb_gp *g, double xmax)
{
	FILE *f = sb_gp_dat(g);
	double ymax = 0;

	sb_gp_num(g, "npanel", ls->n);
	sb_gp_array(g, "KEY", ls->n, true);
	sb_gp_array(g, "LT", ls->n, false);
	sb_gp_array(g, "LIMIT", ls->n, false);
	for (int i = 0; i < ls->n; i++) {
		const struct tl *e = entry_of(t, ls, &ls->l[i], threads);
		char key[300];

		/* the null policy never resets */
		snprintf(key, sizeof(key), "%s%s", ls->l[i].key,
			 e->nw ? "" : " (no window: no reset logged)");
		sb_gp_str_at(g, "KEY", i + 1, key);
		sb_gp_num_at(g, "LT", i + 1, ls->l[i].style);
		sb_gp_num_at(g, "LIMIT", i + 1, e->limit);
		ymax = fmax(ymax, e->limit);
		fprintf(f, "%s# %s: start_ms end_ms pages idle (2: the idle span)\n", i ? "\n\n" : "",
			ls->l[i].key);
		fputs("NaN NaN NaN 0\n", f);	/* a block even without windows */
		for (int k = 0; k < e->nw && e->w[k][0] < xmax; k++) {
			write_window(f, e->w[k], e->interval_ms);
			ymax = fmax(ymax, e->w[k][2]);
		}
	}
	sb_gp_num(g, "xmax", xmax);
	sb_gp_num(g, "ymax", ymax * 1.15);
}

static int draw(struct sb_plot *p, const struct tls *t, struct sb_lines *ls, int threads)
{
	const struct tl *e = entry_of(t, ls, &ls->l[0], threads);
	char title[1400];
	struct sb_gp *g = sb_gp_new(p, "window-timeline", "timeline");

	if (!g)
		return -1;
	write_panels(t, ls, threads, g, SHOWN * e->interval_ms);
	sb_gp_num(g, "interval_ms", e->interval_ms);
	snprintf(title, sizeof(title), "window timeline: pages admitted per window, %d thread%s "
		 "— %s\n%s%sone repetition, the first %d intervals of %ld windows; interval %g ms, "
		 "limit %g pages", threads, threads > 1 ? "s" : "", p->machine, ls->common,
		 *ls->common ? "; " : "", SHOWN, e->total, e->interval_ms, e->limit);
	sb_gp_wrap(title);
	return sb_gp_draw(g, title, "Pages admitted per window over time, one panel per policy",
			  "A box is a window, from its starting reset to the next, as high as the "
			  "pages admitted in it; the grid marks every interval; the dashed line is "
			  "the limit; hatched boxes are idle windows, a hatched band along the axis "
			  "the time after an idle window expired, with no call.", 0);
}

static int fig_timeline(struct sb_plot *p)
{
	static const char *const skip[] = { "mode", NULL };
	struct sb_lines ls = { .xkey = "threads", .skip = skip, .npanels = 1 };
	struct tls t = { 0 };
	int rc = read_file(p, &t), threads = pick_threads(&t);

	for (int i = 0; !rc && i < t.n; i++)
		if (t.v[i].f.threads == threads && !sb_lines_get(&ls, &t.v[i].f, 0))
			rc = bad(p, &t, 0, "out of memory");
	if (!rc && ls.n) {
		sb_lines_finish(&ls);
		rc = draw(p, &t, &ls, threads);
	}
	sb_lines_free(&ls);
	for (int i = 0; i < t.n; i++)
		free(t.v[i].w);
	free(t.v);
	return rc;
}
SB_FIGURE(fig_timeline, SB_FIG_RESULTS, 60)
