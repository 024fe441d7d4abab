/* fig_throughput.c — <family>-throughput-<placement>: ops_per_s against
 * threads, a line per series, one figure per family and placement
 * (the calibrate family measures the machine, not a strategy: none).
 * The window family's fidelity mode logs every window, which costs time:
 * its points are not throughput and stay out (window-fidelity has them). */
#include "figures/figure.h"

#include <string.h>

static bool is_fidelity(const struct sb_point_fields *f)
{
	const char *mode = sb_params_get(&f->params, "mode");

	return mode && !strcmp(mode, "fidelity");
}

static bool in_figure(const struct sb_bm *b, const char *family, const char *place)
{
	return b->has_point && strcmp(b->pt.family, "calibrate") && !is_fidelity(&b->pt) &&
	       (!family || (!strcmp(b->pt.family, family) && !strcmp(b->pt.placement, place)));
}

static int draw(struct sb_plot *p, const char *family, const char *place)
{
	static const char *const skip[] = { "mode", NULL };
	struct sb_lines ls = { .xkey = "threads", .skip = skip, .npanels = 1,
			       .xlabel = "threads (log2 scale)", .yfmt = { "%.1s%c" } };
	char name[300], what[300], how[300];
	int rc;

	ls.ylabel[0] = sb_plot_ops_label(family);
	for (int i = 0; i < p->r->n; i++)
		if (in_figure(&p->r->bm[i], family, place))
			sb_lines_add(&ls, &p->r->bm[i], 0, 0, "ops_per_s", p->cv_threshold);
	snprintf(name, sizeof(name), "%s-throughput-%s", family, place);
	sb_plot_slug(name);	/* list:0,1 placements */
	snprintf(what, sizeof(what), "%s throughput against threads", family);
	snprintf(how, sizeof(how), "Each point is the median of the repetitions, its bar the "
		 "min–max; a red circle marks a point whose CV exceeds %g %%.", p->cv_threshold);
	rc = sb_lines_draw(p, &ls, name, what, NULL, how);
	sb_lines_free(&ls);
	return rc;
}

static int fig_throughput(struct sb_plot *p)
{
	const struct sb_results *r = p->r;

	/* each (family, placement) once, in the order the results have them */
	for (int i = 0; i < r->n; i++) {
		const struct sb_bm *b = &r->bm[i];
		bool seen = false;

		if (!in_figure(b, NULL, NULL))
			continue;
		for (int j = 0; j < i && !seen; j++)
			seen = in_figure(&r->bm[j], b->pt.family, b->pt.placement);
		if (!seen && draw(p, b->pt.family, b->pt.placement))
			return -1;
	}
	return 0;
}
SB_FIGURE(fig_throughput, SB_FIG_RESULTS, 10)
