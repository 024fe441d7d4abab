/* fig_throughput.c — <family>-throughput-<placement>: ops_per_s against threads, a line per
 * series (none for calibrate: it measures the machine).  Window fidelity mode logs every window,
 * which costs time: not throughput, its points stay out (window-fidelity has them). */
#include "figures/figure.h"

#include <string.h>

static bool in_figure(const struct sb_bm *b, const struct sb_bm *like)
{
	const char *mode = b->has_point ? sb_params_get(&b->pt.params, "mode") : NULL;

	return b->has_point && strcmp(b->pt.family, "calibrate") &&
	       !(mode && !strcmp(mode, "fidelity")) &&
	       (!like || (!strcmp(b->pt.family, like->pt.family) &&
			  !strcmp(b->pt.placement, like->pt.placement)));
}

static int draw(struct sb_plot *p, const struct sb_bm *like)
{
	static const char *const skip[] = { "mode", NULL };
	const char *family = like->pt.family;
	struct sb_lines ls = { .xkey = "threads", .skip = skip, .npanels = 1,
			       .xlabel = "threads (log2 scale)", .yfmt = { "%.1s%c" } };
	char name[300], what[300], how[300];

	ls.ylabel[0] = sb_plot_ops_label(family);
	for (int i = 0; i < p->r->n; i++)
		if (in_figure(&p->r->bm[i], like))
			sb_lines_add(&ls, &p->r->bm[i], 0, 0, "ops_per_s", p->cv_threshold);
	snprintf(name, sizeof(name), "%s-throughput-%s", family, like->pt.placement);
	snprintf(what, sizeof(what), "%s throughput against threads", family);
	snprintf(how, sizeof(how), "Each point is the median of the repetitions, its bar the "
		 "min–max; a red circle marks a point whose CV exceeds %g %%.", p->cv_threshold);
	return sb_lines_draw(p, &ls, name, what, NULL, how);
}
SB_FIGURE_EACH(in_figure, draw, SB_FIG_RESULTS, 10)
