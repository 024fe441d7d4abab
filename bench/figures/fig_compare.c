/* fig_compare.c — compare-vs-<old>: %Change of the median from OLD to NEW, a bar per point
 * both have (matched as `stratbench compare` does: group, threads, placement; by name for plain
 * Google Benchmark JSON), filled by the verdict of the 95 % bootstrap interval of the change
 * (stats/interval.c, its whisker): changed up, changed down, ~ (the interval holds 0), or no
 * verdict (n too small, or a side preempted: results/preempt.h).  A noisy bar (CV above its
 * run's threshold on either side) keeps its fill and gets a red dashed border: a noisy
 * outline instead of the fill hid every verdict.
 * The metric: ops_per_s where both have it, else real_time, as compare's default. */
#include "figures/figure.h"
#include "results/preempt.h"

#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct bar {
	const struct sb_bm *old, *new;
	double change, p;
	bool noisy;
	bool preempted;			/* a side's members were off their CPUs: no verdict */
	struct sb_interval iv;		/* the 95 % interval of the %Change, its verdict */
};

struct cmp {
	struct sb_results r[2];
	const char *metric;
	struct bar *bar;
	int n, cap;
};

static bool same_point(const struct sb_bm *a, const struct sb_bm *b)
{
	char ga[1400], gb[1400];

	if (!a->has_point || !b->has_point)
		return !a->has_point && !b->has_point && !strcmp(a->name, b->name);
	sb_point_group(&a->pt, NULL, ga, sizeof(ga));
	sb_point_group(&b->pt, NULL, gb, sizeof(gb));
	return !strcmp(ga, gb) && a->pt.threads == b->pt.threads &&
	       !strcmp(a->pt.placement, b->pt.placement);
}

static bool noisy(const struct sb_results *r, const struct sb_bm *b, const char *metric)
{
	struct sb_stat s;

	sb_bm_stat(b, metric, &s);
	return !isnan(s.cv) && s.cv > r->cv_threshold;
}

static int load(struct cmp *c, const char *old, const char *new, char *err, size_t errlen)
{
	const char *path[2] = { old, new };

	c->metric = "ops_per_s";
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < 2; i++)
			if (sb_results_load(path[i], c->metric, &c->r[i], err, errlen)) {
				if (i)
					sb_results_free(&c->r[0]);
				return -1;
			}
		if (pass || (sb_results_has_metric(&c->r[0], c->metric) &&
			     sb_results_has_metric(&c->r[1], c->metric)))
			return 0;
		sb_results_free(&c->r[0]);	/* as compare: GB's time otherwise */
		sb_results_free(&c->r[1]);
		c->metric = "real_time";
	}
	return 0;
}

static int match(struct cmp *c)
{
	for (int i = 0; i < c->r[0].n; i++)
		for (int j = 0; j < c->r[1].n; j++) {
			const struct sb_bm *o = &c->r[0].bm[i], *n = &c->r[1].bm[j];
			char mark[96];
			struct bar *b;

			if (!same_point(o, n) || isnan(o->median) || isnan(n->median) ||
			    o->median == 0)
				continue;
			if (SB_GROW(c->bar, c->cap, c->n + 1))
				return -1;
			b = &c->bar[c->n++];
			b->old = o;
			b->new = n;
			b->change = (n->median - o->median) / o->median * 100;
			b->p = o->nreps >= 2 && n->nreps >= 2 ?
			       sb_mann_whitney_p(o->reps, o->nreps, n->reps, n->nreps) : NAN;
			b->noisy = noisy(&c->r[0], o, c->metric) || noisy(&c->r[1], n, c->metric);
			b->preempted = sb_preempt_bm(o, mark, sizeof(mark)) ||
				       sb_preempt_bm(n, mark, sizeof(mark));
			if (sb_interval_unpaired(o->reps, o->nreps, n->reps, n->nreps, &b->iv))
				return -1;
		}
	return 0;
}

/* A row of the chart: a bar, or a family's header line. */
struct row {
	int bar;			/* -1: the header */
	char label[600];
};

/* a family's header (what its points share), then its bars, sorted and keyed by sb_lines */
static int family_rows(const struct cmp *c, const char *fam, struct row *rows)
{
	struct sb_lines ls = { .xkey = "", .npanels = 1 };
	int k = 1;

	for (int i = 0; i < c->n; i++)
		if (c->bar[i].old->has_point && !strcmp(c->bar[i].old->pt.family, fam))
			sb_lines_get(&ls, &c->bar[i].old->pt, 0);
	sb_lines_finish(&ls);
	rows[0].bar = -1;
	snprintf(rows[0].label, sizeof(rows[0].label), "%.60s%s%.500s", fam,
		 *ls.common ? ": " : "", ls.common);
	for (int l = 0; l < ls.n; l++)
		for (int i = 0; i < c->n; i++)
			if (c->bar[i].old->has_point &&
			    sb_lines_match(&ls, &ls.l[l], &c->bar[i].old->pt, 0)) {
				rows[k].bar = i;
				snprintf(rows[k++].label, sizeof(rows[0].label), "%s", ls.l[l].key);
				break;
			}
	sb_lines_free(&ls);
	return k;
}

/* every family in name order (sb_lines sorts by family first), then the untyped bars */
static int make_rows(const struct cmp *c, struct row *rows)
{
	struct sb_lines all = { .xkey = "", .npanels = 1 };
	int k = 0;

	for (int i = 0; i < c->n; i++)
		if (c->bar[i].old->has_point)
			sb_lines_get(&all, &c->bar[i].old->pt, 0);
	sb_lines_finish(&all);
	for (int l = 0; l < all.n; l++)
		if (!l || strcmp(all.l[l].f.family, all.l[l - 1].f.family))
			k += family_rows(c, all.l[l].f.family, rows + k);
	sb_lines_free(&all);
	for (int i = 0; i < c->n; i++)
		if (!c->bar[i].old->has_point) {
			rows[k].bar = i;
			snprintf(rows[k++].label, sizeof(rows[0].label), "%s", c->bar[i].old->name);
		}
	return k;
}

/* the bar's fill: 1 changed up, -1 changed down, 0 within the noise (~), 2 no
 * verdict (no interval, or preempted: results/preempt.h keeps it out of verdicts) */
static int verdict(const struct sb_interval *iv, double change, bool preempted)
{
	if (preempted)
		return 2;
	if (iv->verdict == SB_IV_CHANGED)
		return change >= 0 ? 1 : -1;
	return iv->verdict == SB_IV_SAME ? 0 : 2;
}

static void write_rows(const struct cmp *c, struct sb_gp *g, const struct row *rows, int n,
		       int *nnoisy)
{
	FILE *f = sb_gp_dat(g);
	double lo = 0, hi = 0;

	fputs("# point\t%change\tp(U) (-: none)\tnoisy (CV above the threshold on either "
	      "side)\tverdict (1 up, -1 down: changed; 0 ~; 2 no interval)\t95 % interval lo\thi"
	      "\tfamily header (-: none)\n", f);
	*nnoisy = 0;
	for (int k = 0; k < n; k++) {
		const struct bar *b = rows[k].bar < 0 ? NULL : &c->bar[rows[k].bar];

		if (!b) {
			fprintf(f, "\tNaN\t-\t0\t2\tNaN\tNaN\t%s\n", rows[k].label);
			continue;
		}
		fprintf(f, "%s\t%.6g\t", rows[k].label, b->change);
		fprintf(f, isnan(b->p) ? "-" : "%.4g", b->p);
		fprintf(f, "\t%d\t%d\t", b->noisy, verdict(&b->iv, b->change, b->preempted));
		fprintf(f, isnan(b->iv.lo) ? "NaN\tNaN\t-\n" : "%.6g\t%.6g\t-\n", b->iv.lo, b->iv.hi);
		*nnoisy += b->noisy;
		lo = fmin(lo, isnan(b->iv.lo) ? b->change : fmin(b->change, b->iv.lo));
		hi = fmax(hi, isnan(b->iv.hi) ? b->change : fmax(b->change, b->iv.hi));
	}
	if (lo == hi)
		hi = 1;
	sb_gp_num(g, "nbars", n);
	sb_gp_num(g, "xmin", lo - 0.1 * (hi - lo));
	sb_gp_num(g, "xmax", hi + 0.1 * (hi - lo));
	sb_gp_num(g, "nnoisy", *nnoisy);
	sb_gp_str(g, "metric", c->metric);
}


static int draw(struct sb_plot *p, struct cmp *c, const char *old, const char *new)
{
	struct row *rows = calloc(2 * (size_t)c->n + 1, sizeof(*rows));
	char name[300], ob[200], nb[200], om[400], title[2000], noisy_key[64];
	int nnoisy = 0;
	struct sb_gp *g;

	if (!rows) {
		snprintf(p->err, p->errlen, "out of memory");
		return -1;
	}
	sb_results_base(old, ob, sizeof(ob));
	sb_results_base(new, nb, sizeof(nb));
	snprintf(name, sizeof(name), "compare-vs-%s", ob);
	g = sb_gp_new(p, name, "compare");
	if (g)
		write_rows(c, g, rows, make_rows(c, rows), &nnoisy);
	free(rows);
	if (!g)
		return -1;
	snprintf(noisy_key, sizeof(noisy_key), "CV > %g %% on either side (noisy)",
		 p->cv_threshold);
	sb_gp_str(g, "noisykey", noisy_key);
	sb_plot_machine(&c->r[0], old, om, sizeof(om));
	snprintf(title, sizeof(title), "%%Change of %s (median) from %s to %s\nnew: %s\nold: %s",
		 c->metric, ob, nb, p->machine, om);
	return sb_gp_draw(g, title, "%Change per point between two runs", SB_PLOT_COMPARE_FILLS,
			  nnoisy);
}

static int fig_compare(struct sb_plot *p)
{
	struct cmp c = { 0 };
	char dir[SB_PATH];
	int rc;

	if (load(&c, p->old, p->new, p->err, p->errlen))
		return -1;
	sb_plot_compare_dir(p->new, dir);	/* too long: sb_plot_mkdir says so */
	p->dir = dir;
	p->r = &c.r[1];
	p->cv_threshold = fmin(c.r[0].cv_threshold, c.r[1].cv_threshold);
	sb_plot_machine(&c.r[1], p->new, p->machine, sizeof(p->machine));
	rc = match(&c);
	if (rc)
		snprintf(p->err, p->errlen, "out of memory");
	else if (!c.n) {
		snprintf(p->err, p->errlen, "compare: no point in both %s and %s", p->old, p->new);
		rc = -1;
	}
	if (!rc)
		rc = sb_plot_mkdir(dir, p->err, p->errlen);
	if (!rc)
		rc = draw(p, &c, p->old, p->new);
	free(c.bar);
	sb_results_free(&c.r[0]);
	sb_results_free(&c.r[1]);
	p->dir = NULL;		/* dir and c are gone */
	p->r = NULL;
	return rc;
}
SB_FIGURE(fig_compare, SB_FIG_COMPARE, 0)
