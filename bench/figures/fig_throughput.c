/* fig_throughput.c — <family>-throughput-<placement>: ops_per_s against threads, a line per
 * series (none for calibrate: it measures the machine).  Window fidelity mode logs every window,
 * which costs time: not throughput, its points stay out (window-fidelity has them).
 *
 * The window family's policies differ by a few percent, which absolute lines hide (they lie on
 * top of each other): its figure gets a first panel, each policy's ratio to the spinlock policy
 * of the same fields (lock, threads, placement, parameters; for a lock-free policy, spinlock
 * under the first lock by name),
 * the median ratio with the 95 % bootstrap interval of the ratio of the medians
 * (stats/interval.c) as its bar; the absolute ops/s stay in the second panel. */
#include "figures/figure.h"

#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define REF_POLICY "spinlock"

static bool in_figure(const struct sb_bm *b, const struct sb_bm *like)
{
	const char *mode = b->has_point ? sb_params_get(&b->pt.params, "mode") : NULL;

	return b->has_point && strcmp(b->pt.family, "calibrate") &&
	       !(mode && !strcmp(mode, "fidelity")) &&
	       (!like || (!strcmp(b->pt.family, like->pt.family) &&
			  !strcmp(b->pt.placement, like->pt.placement)));
}

/* ref is b's point but for the strategy (and the lock, when b takes none: a lock-free policy
 * is compared with spinlock under whichever lock it ran) */
static bool same_but_strategy(const struct sb_point_fields *ref, const struct sb_point_fields *b)
{
	const struct sb_point_fields *a = ref;

	if (strcmp(a->family, b->family) || (*b->lock && strcmp(a->lock, b->lock)) ||
	    a->threads != b->threads ||
	    strcmp(a->placement, b->placement) || a->params.n != b->params.n)
		return false;
	for (int i = 0; i < a->params.n; i++)
		if (strcmp(a->params.p[i].key, b->params.p[i].key) ||
		    strcmp(a->params.p[i].val, b->params.p[i].val))
			return false;
	return true;
}

/* the spinlock point b is compared with, or NULL; for a lock-free policy with
 * spinlock under several locks, the first lock by name: not the file's order,
 * which an interleaved run makes random */
static const struct sb_bm *reference_of(const struct sb_plot *p, const struct sb_bm *b)
{
	const struct sb_bm *best = NULL;

	for (int i = 0; i < p->r->n; i++) {
		const struct sb_bm *r = &p->r->bm[i];

		if (in_figure(r, b) && !strcmp(r->pt.strategy, REF_POLICY) &&
		    same_but_strategy(&r->pt, &b->pt) &&
		    (!best || strcmp(r->pt.lock, best->pt.lock) < 0))
			best = r;
	}
	return best;
}

/* b's ops_per_s per repetition into v (b->nruns long); how many */
static int reps_of(const struct sb_bm *b, double *v)
{
	int n = 0;

	for (int i = 0; i < b->nruns; i++) {
		double x = sb_entry_value(b->runs[i], "ops_per_s");

		if (!isnan(x))
			v[n++] = x;
	}
	return n;
}

/* b ÷ ref into panel 0: the ratio of the medians, its bar the 95 % interval (none: the ratio
 * alone); 1 put, 0 not (no value), -1 out of memory */
static int put_ratio(struct sb_plot *p, struct sb_lines *ls, const struct sb_bm *b,
		     const struct sb_bm *ref)
{
	double *x = malloc(sizeof(double) * (size_t)(ref->nruns + 1));
	double *y = malloc(sizeof(double) * (size_t)(b->nruns + 1));
	struct sb_stat s = { .median = NAN }, sb, sr;
	struct sb_interval iv = { .lo = NAN, .hi = NAN };
	struct sb_line *l;
	int m = 0, n = 0, rc = -1;

	if (x && y) {
		m = reps_of(ref, x);
		n = reps_of(b, y);
		rc = 0;
	}
	if (m && n && sb_interval_unpaired(x, m, y, n, &iv))
		rc = -1;
	if (!rc && m && n && sb_median(x, m) > 0) {
		sb_bm_stat(b, "ops_per_s", &sb);
		sb_bm_stat(ref, "ops_per_s", &sr);
		s.median = sb_median(y, n) / sb_median(x, m);
		s.min = isnan(iv.lo) ? s.median : 1 + iv.lo / 100;
		s.max = isnan(iv.hi) ? s.median : 1 + iv.hi / 100;
		s.cv = fmax(isnan(sb.cv) ? 0 : sb.cv, isnan(sr.cv) ? 0 : sr.cv);
		s.n = m < n ? m : n;
		l = sb_lines_get(ls, &b->pt, 0);
		if (!l)
			rc = -1;
		else
			sb_line_put(ls, l, b->pt.threads, 0, &s, p->cv_threshold);
		rc = rc ? rc : 1;
	}
	free(x);
	free(y);
	return rc;
}

/* the window family: ratio panel first; 0 when no point has a spinlock to compare with */
static int add_ratios(struct sb_plot *p, struct sb_lines *ls, const struct sb_bm *like)
{
	int any = 0;

	for (int i = 0; i < p->r->n; i++) {
		const struct sb_bm *b = &p->r->bm[i], *ref;
		int rc;

		if (!in_figure(b, like) || !(ref = reference_of(p, b)))
			continue;
		rc = put_ratio(p, ls, b, ref);
		if (rc < 0)
			return -1;
		any |= rc;
	}
	return any;
}

static void ratio_panel(struct sb_lines *ls)
{
	ls->npanels = 2;
	ls->fity[0] = true;	/* the differences are a few percent: not from 0 */
	ls->yfmt[0] = "%.3g";
	ls->yfmt[1] = "%.1s%c";
	ls->ylabel[1] = ls->ylabel[0];
	ls->ylabel[0] = "ops/s ÷ spinlock's (same lock, threads, placement)";
	ls->ptitle[0] = "each policy ÷ spinlock: median ratio, bars its 95 % interval";
	ls->ptitle[1] = "ops/s: median, bars min–max";
	ls->nref = 1;
	ls->refy[0] = 1;
	snprintf(ls->refkey[0], sizeof(ls->refkey[0]), "1 = spinlock (left panel)");
	/* the key is the right panel's: the line is named under the plot */
	snprintf(ls->reflabel[0], sizeof(ls->reflabel[0]),
		 "1 = spinlock's ops/s (left panel: above it faster, below slower)");
}

static int draw(struct sb_plot *p, const struct sb_bm *like)
{
	static const char *const skip[] = { "mode", NULL };
	const char *family = like->pt.family;
	struct sb_lines ls = { .xkey = "threads", .skip = skip, .npanels = 1,
			       .xlabel = "threads (log2 scale)", .yfmt = { "%.1s%c" } };
	char name[300], what[300], how[600], stat[200];
	int ratios = 0, panel = 0;

	ls.ylabel[0] = sb_plot_ops_label(family);
	if (!strcmp(family, "window"))
		ratios = add_ratios(p, &ls, like);
	if (ratios < 0) {
		sb_lines_free(&ls);
		snprintf(p->err, p->errlen, "out of memory");
		return -1;
	}
	if (ratios) {
		ratio_panel(&ls);
		panel = 1;
	}
	for (int i = 0; i < p->r->n; i++)
		if (in_figure(&p->r->bm[i], like))
			sb_lines_add(&ls, &p->r->bm[i], 0, panel, "ops_per_s", p->cv_threshold);
	snprintf(name, sizeof(name), "%s-throughput-%s", family, like->pt.placement);
	snprintf(what, sizeof(what), "%s throughput against threads", family);
	snprintf(stat, sizeof(stat), "left: ratio of medians to spinlock, bars its 95 %% "
		 "bootstrap interval; right: median of %d repetitions, bars min–max", ls.reps);
	snprintf(how, sizeof(how), "%sEach point is the median of the repetitions, its bar the "
		 "min–max; a red circle marks a point whose CV exceeds %g %%.", ratios ?
		 "Left: each policy's ops/s ÷ spinlock's at the same lock, threads and "
		 "placement, with the 95 % bootstrap interval of that ratio (n too small: no "
		 "bar); a policy whose bar holds 1 is not told apart from spinlock. Right: " : "",
		 p->cv_threshold);
	return sb_lines_draw(p, &ls, name, what, ratios ? stat : NULL, how);
}
SB_FIGURE_EACH(in_figure, draw, SB_FIG_RESULTS, 10)
