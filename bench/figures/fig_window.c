/* fig_window.c — window-fidelity: what each policy does to the window (fidelity mode,
 * docs/window.md), a bar per policy at each thread count: from 1 (exactly one interval, the
 * limit admitted) to the median over repetitions of the run's mean over windows, a whisker from
 * min to max of those means, a triangle at the worst window (max of stretch_max/admit_ratio_max).
 * Bars: seven policies at one or two thread counts stack up as lines.  The y range holds all. */
#include "figures/figure.h"

#include <math.h>
#include <string.h>

static const char *const parts[] = { "mean", "max", NULL };
static const char *const metric[2][2] = { { "stretch", "admit_ratio" },
					  { "stretch_max", "admit_ratio_max" } };

static bool is_fidelity(const struct sb_bm *b)
{
	const char *mode = b->has_point ? sb_params_get(&b->pt.params, "mode") : NULL;

	return mode && !strcmp(b->pt.family, "window") && !strcmp(mode, "fidelity");
}

static const struct sb_xy *at_x(const struct sb_line *l, double x)
{
	for (int j = 0; l && j < l->n; j++)
		if (l->v[j].x == x)
			return &l->v[j];
	return NULL;
}

/* a block per policy: pos, then per panel: median lo hi noisy worst */
static void write_bars(const struct sb_lines *ls, FILE *f, const double *xs, int nx,
		       int ngroups, double range[2][2])
{
	for (int i = 0, g = 0; i < ls->n; i++) {
		const struct sb_line *mean = &ls->l[i], *max = NULL;

		if (mean->part != 0)
			continue;
		if (i + 1 < ls->n && ls->l[i + 1].group == mean->group)
			max = &ls->l[i + 1];
		fprintf(f, "%s# %s\n", g ? "\n\n" : "", mean->key);
		for (int k = 0; k < nx; k++) {
			const struct sb_xy *v = at_x(mean, xs[k]), *w = at_x(max, xs[k]);

			if (!v)
				continue;
			fprintf(f, "%.6g", k + (g - (ngroups - 1) / 2.0) * 0.8 / ngroups);
			for (int p = 0; p < 2; p++) {
				double top = w ? w->hi[p] : NAN;

				sb_gp_dat_num(f, v->y[p]);
				sb_gp_dat_num(f, v->lo[p]);
				sb_gp_dat_num(f, v->hi[p]);
				fprintf(f, " %d", v->noisy[p] && !isnan(v->y[p]));
				sb_gp_dat_num(f, top);
				range[p][0] = fmin(range[p][0], fmin(v->y[p], v->lo[p]));
				range[p][1] = fmax(range[p][1], fmax(fmax(v->y[p], v->hi[p]),
								isnan(top) ? v->y[p] : top));
			}
			fputc('\n', f);
		}
		g++;
	}
}

static void write_vars(struct sb_plot *p, const struct sb_lines *ls, struct sb_gp *g,
		       const double *xs, int nx, int ngroups, double range[2][2])
{
	char noisy[64], lbl[32];
	int widest = 22;	/* the template's own entries */

	sb_gp_num(g, "ngroups", ngroups);
	sb_gp_num(g, "bw", 0.8 / ngroups);
	sb_gp_array(g, "KEY", ngroups, true);
	sb_gp_array(g, "LT", ngroups, false);
	for (int i = 0, k = 0; i < ls->n; i++)
		if (ls->l[i].part == 0) {
			sb_gp_str_at(g, "KEY", ++k, ls->l[i].key);
			sb_gp_num_at(g, "LT", k, ls->l[i].style);
			if ((int)strlen(ls->l[i].key) > widest)
				widest = (int)strlen(ls->l[i].key);
		}
	sb_gp_num(g, "nx", nx);
	sb_gp_array(g, "XTL", nx, true);
	for (int k = 0; k < nx; k++) {
		snprintf(lbl, sizeof(lbl), "%g thread%s", xs[k], xs[k] > 1 ? "s" : "");
		sb_gp_str_at(g, "XTL", k + 1, lbl);
	}
	sb_gp_array(g, "YMIN", 2, false);
	sb_gp_array(g, "YMAX", 2, false);
	for (int q = 0; q < 2; q++) {
		double pad = fmax(0.05, range[q][1] - range[q][0]) * 0.08;

		sb_gp_num_at(g, "YMIN", q + 1, range[q][0] - pad);
		sb_gp_num_at(g, "YMAX", q + 1, range[q][1] + pad);
	}
	sb_plot_noisy_key(p, noisy, sizeof(noisy));
	sb_gp_num(g, "nnoisy", ls->nnoisy);
	sb_gp_str(g, "noisykey", noisy);
	/* the key at the right, at most a quarter of the width */
	sb_gp_num(g, "keyw", fmin(0.25, fmax(0.2, (80 + 6.3 * widest) / 1100)));
}

static int draw(struct sb_plot *p, struct sb_lines *ls)
{
	double xs[32], range[2][2] = { { 1, 1 }, { 1, 1 } };
	int nx = sb_lines_xs(ls, xs, 32), ngroups = 0;	/* the bar groups */
	char title[1400];
	struct sb_gp *g;

	for (int i = 0; i < ls->n; i++)
		ngroups += ls->l[i].part == 0;
	if (!ngroups)
		return 0;
	g = sb_gp_new(p, "window-fidelity", "fidelity");
	if (!g)
		return -1;
	write_bars(ls, sb_gp_dat(g), xs, nx, ngroups, range);
	write_vars(p, ls, g, xs, nx, ngroups, range);
	snprintf(title, sizeof(title), "window fidelity per policy — %s\n%s%sbars: median over "
		 "%d repetition%s of the mean over windows, whiskers min–max, ▲ the worst window",
		 p->machine, ls->common, *ls->common ? "; " : "", ls->reps, ls->reps > 1 ? "s" : "");
	sb_gp_wrap(title);
	return sb_gp_draw(g, title, "Window fidelity per policy: stretch (window length ÷ "
			  "interval) and admit_ratio (pages admitted per window ÷ limit) at each "
			  "thread count", "Bars start at 1 (the ideal); the triangle is the worst "
			  "single window, the whisker the spread of the repetitions' means; a red "
			  "circle marks a noisy mean.", ls->nnoisy);
}

static int fig_fidelity(struct sb_plot *p)
{
	static const char *const skip[] = { "mode", NULL };
	struct sb_lines ls = { .xkey = "threads", .skip = skip, .parts = parts, .npanels = 2 };
	int rc;

	for (int i = 0; i < p->r->n; i++)
		for (int part = 0; part < 2; part++)
			for (int q = 0; q < 2 && is_fidelity(&p->r->bm[i]); q++)
				sb_lines_add(&ls, &p->r->bm[i], part, q, metric[part][q],
					     p->cv_threshold);
	sb_lines_finish(&ls);
	ls.nnoisy = 0;		/* the means' noise: the bars */
	for (int i = 0; i < ls.n; i++)
		for (int j = 0; j < ls.l[i].n && ls.l[i].part == 0; j++)
			ls.nnoisy += ls.l[i].v[j].noisy[0] + ls.l[i].v[j].noisy[1];
	rc = draw(p, &ls);
	sb_lines_free(&ls);
	return rc;
}
SB_FIGURE(fig_fidelity, SB_FIG_RESULTS, 50)
