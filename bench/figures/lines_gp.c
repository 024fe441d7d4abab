/* lines_gp.c — a finished sb_lines as lines.gp's data and variables: a block per line, keys,
 * styles, axis ranges (gnuplot's autoscaling warns on a single point), and the key at the right
 * when its widest entry fits in a quarter of the width, else below. */
#include "figures/figure.h"

#include <math.h>
#include <string.h>

#define WIDTH 1200		/* one panel; two get WIDTH2 */
#define WIDTH2 1400
#define HEIGHT 620
#define KEY_MAX_FRAC 0.25	/* the key takes at most a quarter of the width */
#define ZERO_NOTE "not drawn: <= 0 on a log axis"

static void write_data(const struct sb_lines *ls, FILE *f)
{
	for (int i = 0; i < ls->n; i++) {
		const struct sb_line *l = &ls->l[i];

		fprintf(f, "%s# %s%s%s\n", i ? "\n\n" : "", l->key[0] ? l->key : "(same key as above)",
			ls->parts ? ": " : "", ls->parts ? ls->parts[l->part] : "");
		for (int j = 0; j < l->n; j++) {
			fprintf(f, "%.9g", ls->bycat ? l->group + 1 : l->v[j].x);
			for (int p = 0; p < ls->npanels; p++) {
				sb_gp_dat_num(f, l->v[j].y[p]);
				sb_gp_dat_num(f, l->v[j].lo[p]);
				sb_gp_dat_num(f, l->v[j].hi[p]);
				fprintf(f, " %d", l->v[j].noisy[p]);
			}
			fputc('\n', f);
		}
	}
}

static void write_series(const struct sb_lines *ls, struct sb_gp *g)
{
	sb_gp_num(g, "nseries", ls->n);
	sb_gp_num(g, "haserr", ls->reps > 1);
	sb_gp_array(g, "KEY", ls->n, true);
	sb_gp_array(g, "LT", ls->n, false);
	sb_gp_array(g, "DT", ls->n, false);
	for (int i = 0; i < ls->n; i++) {
		const struct sb_line *l = &ls->l[i];

		sb_gp_str_at(g, "KEY", i + 1, l->key);
		sb_gp_num_at(g, "LT", i + 1, l->style);
		/* a group's parts differ by dash: solid, dashed, dotted */
		sb_gp_num_at(g, "DT", i + 1, ls->parts ? (l->part == 0 ? 1 : l->part == 1 ? 2 : 3) :
			     l->style);
	}
}

/* One x value: a column per series (its group), on a linear axis, each named under it; a log
 * axis around one value stacked every marker in one column. */
static void write_cats(const struct sb_lines *ls, struct sb_gp *g, double x)
{
	char lbl[300];
	int ng = ls->n ? ls->l[ls->n - 1].group + 1 : 1, widest = 0;

	sb_gp_num(g, "logx", 0);
	sb_gp_num(g, "xmin", 0.4);
	sb_gp_num(g, "xmax", ng + 0.6);
	sb_gp_array(g, "XT", ng, false);
	sb_gp_array(g, "XTL", ng, true);
	for (int i = 0, k = 0; i < ls->n; i++) {
		const char *key = ls->l[i].key;
		int w = 0;

		if (i && ls->l[i].group == ls->l[i - 1].group)
			continue;
		k++;
		sb_gp_num_at(g, "XT", k, k);
		snprintf(lbl, sizeof(lbl), "%.*s", (int)strcspn(key, "("), key);
		sb_gp_str_at(g, "XTL", k, lbl);
		for (const char *c = lbl; *c; c++)
			w += ((unsigned char)*c & 0xc0) != 0x80;
		widest = w > widest ? w : widest;
	}
	sb_gp_num(g, "xtlpx", 24 + 4 * widest);	/* rotated 30°: half of 7-8 px a char */
	snprintf(lbl, sizeof(lbl), "%s %g (the only value): a column per series",
		 !strcmp(ls->xkey, "threads") ? "threads" : ls->xkey, x);
	sb_gp_str(g, "xlabel", lbl);
}

static void write_x(const struct sb_lines *ls, struct sb_gp *g)
{
	double xs[64], lo = INFINITY, hi = -INFINITY;
	char lbl[32];
	int nx = sb_lines_xs(ls, xs, 64);

	sb_gp_num(g, "bycat", ls->bycat);
	if (ls->bycat) {
		write_cats(ls, g, xs[0]);
		return;
	}
	for (int i = 0; i < ls->n; i++)
		for (int j = 0; j < ls->l[i].n; j++) {
			lo = fmin(lo, ls->l[i].v[j].x);
			hi = fmax(hi, ls->l[i].v[j].x);
		}
	if (!nx)
		lo = hi = 1;
	sb_gp_num(g, "logx", lo > 0 ? 2 : 0);
	sb_gp_num(g, "xmin", lo > 0 ? lo / (lo == hi ? 2 : 1.3) : lo - 1);
	sb_gp_num(g, "xmax", lo > 0 ? hi * (lo == hi ? 2 : 1.3) : hi + 1);
	sb_gp_array(g, "XT", nx, false);
	sb_gp_array(g, "XTL", nx, true);
	for (int i = 0; i < nx; i++) {
		sb_gp_num_at(g, "XT", i + 1, xs[i]);
		snprintf(lbl, sizeof(lbl), "%g", xs[i]);
		sb_gp_str_at(g, "XTL", i + 1, lbl);
	}
	sb_gp_num(g, "xtlpx", 0);
	sb_gp_str(g, "xlabel", ls->xlabel ? ls->xlabel : ls->xkey);
}

/* panel p's y range: every drawn value, bar and reference in view */
static void y_range(const struct sb_lines *ls, int p, double *ymin, double *ymax)
{
	double lo = INFINITY, hi = -INFINITY;

	for (int i = 0; i < ls->n; i++)
		for (int j = 0; j < ls->l[i].n; j++) {
			const struct sb_xy *v = &ls->l[i].v[j];

			if (isnan(v->y[p]))
				continue;
			lo = fmin(lo, fmin(v->y[p], isnan(v->lo[p]) ? v->y[p] : v->lo[p]));
			hi = fmax(hi, fmax(v->y[p], isnan(v->hi[p]) ? v->y[p] : v->hi[p]));
		}
	for (int k = 0; p == 0 && k < ls->nref; k++) {
		lo = fmin(lo, ls->refy[k]);
		hi = fmax(hi, ls->refy[k]);
	}
	if (ls->logy[p]) {
		*ymin = isfinite(lo) ? lo / 1.8 : 0.1;
		*ymax = isfinite(hi) ? hi * 1.8 : 10;
		return;
	}
	if (ls->fity[p] && isfinite(lo) && isfinite(hi)) {
		double pad = fmax(hi - lo, 0.01 * fabs(hi)) * 0.1;

		*ymin = lo - pad;
		*ymax = hi + pad;
		return;
	}
	*ymin = isfinite(lo) && lo < 0 ? lo * 1.08 : 0;
	*ymax = isfinite(hi) && hi > 0 ? hi * 1.08 : 1;
}

static void write_y(const struct sb_lines *ls, struct sb_gp *g)
{
	static const char *const arrays[] = { "YLABEL", "PTITLE", "YFMT", "LOGY", "YMIN", "YMAX" };

	sb_gp_num(g, "npanels", ls->npanels);
	for (int a = 0; a < 6; a++)
		sb_gp_array(g, arrays[a], ls->npanels, a < 3);
	for (int p = 0; p < ls->npanels; p++) {
		double lo, hi;

		y_range(ls, p, &lo, &hi);
		sb_gp_str_at(g, "YLABEL", p + 1, ls->ylabel[p] ? ls->ylabel[p] : "");
		sb_gp_str_at(g, "PTITLE", p + 1, ls->ptitle[p] ? ls->ptitle[p] : "");
		sb_gp_str_at(g, "YFMT", p + 1, ls->yfmt[p] ? ls->yfmt[p] : "%g");
		sb_gp_num_at(g, "LOGY", p + 1, ls->logy[p] ? 10 : 0);
		sb_gp_num_at(g, "YMIN", p + 1, lo);
		sb_gp_num_at(g, "YMAX", p + 1, hi);
	}
}

static void write_extras(const struct sb_lines *ls, struct sb_gp *g, const char *noisykey)
{
	int nnote = ls->nnote + ls->zeros;	/* the notes, then "not drawn"'s */

	sb_gp_num(g, "nnoisy", ls->nnoisy);
	sb_gp_str(g, "noisykey", noisykey);
	sb_gp_num(g, "nref", ls->nref);
	sb_gp_array(g, "REFY", ls->nref, false);
	sb_gp_array(g, "REFKEY", ls->nref, true);
	sb_gp_array(g, "REFLABEL", ls->nref, true);
	sb_gp_array(g, "REFDT", ls->nref, false);
	for (int k = 0; k < ls->nref; k++) {
		sb_gp_num_at(g, "REFY", k + 1, ls->refy[k]);
		sb_gp_str_at(g, "REFKEY", k + 1, ls->refkey[k]);
		sb_gp_str_at(g, "REFLABEL", k + 1, ls->reflabel[k]);
		sb_gp_num_at(g, "REFDT", k + 1, k ? 3 : 6);
	}
	sb_gp_num(g, "nnote", nnote);
	sb_gp_array(g, "NOTE", nnote, true);
	sb_gp_array(g, "NOTEDT", nnote, false);
	sb_gp_array(g, "NOTELC", nnote ? nnote : 1, true);
	sb_gp_str_at(g, "NOTELC", 1, "black");	/* parsed even when there is none */
	for (int k = 0; k < ls->nnote; k++) {	/* dash 0: text alone */
		sb_gp_str_at(g, "NOTE", k + 1, ls->note[k]);
		sb_gp_num_at(g, "NOTEDT", k + 1, ls->notedt[k] ? ls->notedt[k] : 1);
		sb_gp_str_at(g, "NOTELC", k + 1, ls->notedt[k] ? "black" : "white");
	}
	if (ls->zeros) {	/* text alone: what "not drawn" means */
		sb_gp_str_at(g, "NOTE", ls->nnote + 1, ZERO_NOTE);
		sb_gp_num_at(g, "NOTEDT", ls->nnote + 1, 1);
		sb_gp_str_at(g, "NOTELC", ls->nnote + 1, "white");
	}
}

static void key_entry(const char *s, int *n, int *widest)
{
	int w = 0;

	if (!*s)
		return;
	for (const char *c = s; *c; c++)	/* characters, not bytes: the key's width */
		w += ((unsigned char)*c & 0xc0) != 0x80;
	(*n)++;
	if (w > *widest)
		*widest = w;
}

static void write_keybox(const struct sb_lines *ls, struct sb_gp *g, const char *noisykey)
{
	int n = 0, widest = 0, w = ls->npanels > 1 ? WIDTH2 : WIDTH, h = HEIGHT, rows = 1;
	double px, frac;

	for (int i = 0; i < ls->n; i++)
		key_entry(ls->l[i].key, &n, &widest);
	if (ls->nnoisy)
		key_entry(noisykey, &n, &widest);
	for (int k = 0; k < ls->nref; k++)
		key_entry(ls->refkey[k], &n, &widest);
	for (int k = 0; k < ls->nnote; k++)
		key_entry(ls->note[k], &n, &widest);
	if (ls->zeros)
		key_entry(ZERO_NOTE, &n, &widest);
	px = 55 + 7.2 * widest;		/* sample, gap, 10-point text */
	frac = px / w;
	if (frac <= KEY_MAX_FRAC) {
		frac = frac < 0.12 ? 0.12 : frac;
		if (n * 18 > 0.7 * h)	/* a long key: a taller canvas */
			h = (int)(n * 18 / 0.7);
	} else {
		int cols = (int)(0.94 * w / px) > 0 ? (int)(0.94 * w / px) : 1;

		rows = (n + cols - 1) / cols;
		h += rows > 2 ? (rows - 2) * 21 : 0;
	}
	sb_gp_num(g, "W", w);
	sb_gp_num(g, "H", h);
	sb_gp_num(g, "keyright", frac <= KEY_MAX_FRAC);
	sb_gp_num(g, "keyw", frac);
	sb_gp_num(g, "keyrows", rows > 0 ? rows : 1);
}

int sb_lines_draw(struct sb_plot *p, struct sb_lines *ls, const char *name, const char *what,
		  const char *stat, const char *caption_how)
{
	char title[1400], st[120], noisy[64];
	struct sb_gp *g;

	double xs[2];

	sb_lines_finish(ls);
	if (!ls->n)
		return 0;
	ls->bycat = sb_lines_xs(ls, xs, 2) == 1 && ls->l[ls->n - 1].group > 0;
	if (!stat) {
		if (ls->reps > 1)
			snprintf(st, sizeof(st), "median of %d repetitions, bars min–max", ls->reps);
		else
			snprintf(st, sizeof(st), "one repetition");
		stat = st;
	}
	snprintf(title, sizeof(title), "%s — %s\n%s%s%s", what, p->machine, ls->common,
		 *ls->common ? "; " : "", stat);
	sb_gp_wrap(title);
	g = sb_gp_new(p, name, "lines");
	if (g) {
		sb_plot_noisy_key(p, noisy, sizeof(noisy));
		write_data(ls, sb_gp_dat(g));
		write_series(ls, g);
		write_x(ls, g);
		write_y(ls, g);
		write_extras(ls, g, noisy);
		write_keybox(ls, g, noisy);
	}
	sb_lines_free(ls);
	return g ? sb_gp_draw(g, title, what, caption_how, ls->nnoisy) : -1;
}
