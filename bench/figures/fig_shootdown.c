/* fig_shootdown.c — the shootdown family against the batch size (its point's "batch"
 * parameter), a line per strategy, threads and placement:
 *   shootdown-cost      ns per migrated page (simulated machine)
 *   shootdown-flushes   TLB flushes (solid) and flush requests acked (dashed) per page,
 *                       one figure: with one responder they coincide, and the key says
 *                       "(acks = flushes)" instead of a dashed line hidden under the solid
 *   shootdown-slowdown  the responders' slowdown (1: unaffected)
 *   shootdown-kernel    the real kernel (us_per_page): initiator µs, TLB IRQs per page
 * The simulated points are those with ns_per_page, the kernel drivers' those with us_per_page:
 * their counters say which, not their names. */
#include "figures/figure.h"

#include <stdlib.h>
#include <string.h>

struct fig {
	const char *name, *what, *ylabel;
	const char *metric[2];		/* a group's parts: [1] NULL for one */
	bool logy;
};

static const struct fig figs[] = {
	{ "shootdown-cost", "shootdown: initiator time per migrated page against the batch size",
	  "ns per migrated page (initiator; log scale)", { "ns_per_page" }, true },
	{ "shootdown-flushes", "shootdown: TLB flushes and flush requests per page against the "
	  "batch size", "per migrated page (log scale)", { "flushes_per_page", "acks_per_page" },
	  true },
	{ "shootdown-slowdown", "shootdown: responder slowdown against the batch size",
	  "responder slowdown, × (1 = unaffected)", { "responder_slowdown" }, false },
};

static const char *const flush_parts[] = { "flushes", "acks", NULL };

static bool is_shootdown(const struct sb_bm *b, const char *counter)
{
	struct sb_stat s;

	if (!b->has_point || strcmp(b->pt.family, "shootdown"))
		return false;
	sb_bm_stat(b, counter, &s);
	return s.n > 0;
}

/* every point's metric(s) at its batch size; ls freed when one lacks it */
static int add_all(struct sb_plot *p, struct sb_lines *ls, const char *kind, const char *name,
		   const char *const metric[2], int panels)
{
	for (int i = 0; i < p->r->n; i++) {
		const struct sb_bm *b = &p->r->bm[i];

		if (!is_shootdown(b, kind))
			continue;
		for (int k = 0; k < 2 && metric[k]; k++)
			if (sb_lines_add(ls, b, panels > 1 ? 0 : k, panels > 1 ? k : 0, metric[k],
					 p->cv_threshold) < 0) {
				sb_lines_free(ls);
				snprintf(p->err, p->errlen, "%s: %s: point has no parameter "
					 "\"batch\" (figure %s needs it)", p->r->path, b->name, name);
				return -1;
			}
	}
	return 0;
}

static bool all_zero(const struct sb_line *l)
{
	for (int j = 0; j < l->n; j++)
		if (l->v[j].y[0] != 0)
			return false;
	return true;
}

static bool same_values(const struct sb_line *a, const struct sb_line *b)
{
	if (a->n != b->n)
		return false;
	for (int j = 0; j < a->n; j++)	/* both in the order their points came */
		if (a->v[j].x != b->v[j].x || a->v[j].y[0] != b->v[j].y[0])
			return false;
	return true;
}

static void drop_line(struct sb_lines *ls, int i)
{
	free(ls->l[i].v);
	memmove(&ls->l[i], &ls->l[i + 1], (size_t)(ls->n - i - 1) * sizeof(*ls->l));
	ls->n--;
}

/* shootdown-flushes: a series whose flushes and acks are all 0 (1 thread: no responder, nothing
 * to flush) is left out, said once in the key; acks equal to flushes everywhere (one responder)
 * are not drawn under them, invisible, but said in the flushes' key: "(acks = flushes)" */
static void tidy_flushes(struct sb_lines *ls, char *zeros, size_t n)
{
	int nzero = 0, nacks = 0, one = 0;

	for (int i = 0; i < ls->n; i++) {
		int k = 0;

		if (ls->l[i].part != 0)
			continue;
		while (k < ls->n && (k == i || !sb_lines_match(ls, &ls->l[k], &ls->l[i].f, 1)))
			k++;
		if (k < ls->n && all_zero(&ls->l[i]) && all_zero(&ls->l[k])) {
			nzero++;
			one += ls->l[i].f.threads == 1;
			drop_line(ls, k > i ? k : i);
			drop_line(ls, k > i ? i : k);
			i = -1;		/* start over: the lines moved */
		} else if (k < ls->n && same_values(&ls->l[i], &ls->l[k])) {
			snprintf(ls->l[i].tag, sizeof(ls->l[i].tag), "(acks = flushes)");
			drop_line(ls, k);
			i = -1;
		}
	}
	for (int i = 0; i < ls->n; i++)
		nacks += ls->l[i].part == 1;
	if (!nacks)		/* no dashed line left: its note goes */
		ls->nnote = 1;
	if (nzero) {
		snprintf(zeros, n, "%d series all 0, not drawn%s", nzero,
			 one == nzero ? " (1 thread: no responder)" : "");
		ls->note[ls->nnote] = zeros;
		ls->notedt[ls->nnote++] = 0;
	}
}

static int draw_sim(struct sb_plot *p, const struct fig *f)
{
	struct sb_lines ls = { .xkey = "batch", .npanels = 1, .logy = { f->logy },
			       .xlabel = "pages per batch (log2 scale)", .ylabel = { f->ylabel } };
	char how[300], zeros[80];

	if (f->metric[1]) {
		ls.parts = flush_parts;
		ls.nnote = 2;
		ls.note[0] = "solid: TLB flushes per page";
		ls.note[1] = "dashed: flush requests acked per page";
		ls.notedt[0] = 1;
		ls.notedt[1] = 2;
	} else if (!f->logy) {
		ls.nref = 1;
		ls.refy[0] = 1;
		snprintf(ls.refkey[0], sizeof(ls.refkey[0]), "1 = unaffected");
		snprintf(ls.reflabel[0], sizeof(ls.reflabel[0]), "1: responders run as fast as "
			 "without shootdowns");
	}
	if (add_all(p, &ls, "ns_per_page", f->name, f->metric, 1))
		return -1;
	if (f->metric[1])
		tidy_flushes(&ls, zeros, sizeof(zeros));
	snprintf(how, sizeof(how), "Simulated machine; medians of the repetitions, bars "
		 "min–max; red circles: CV above %g %%; log axes name the series they cannot "
		 "draw (all 0).", p->cv_threshold);
	return sb_lines_draw(p, &ls, f->name, f->what, NULL, how);
}

static int fig_shootdown(struct sb_plot *p)
{
	for (size_t i = 0; i < sizeof(figs) / sizeof(figs[0]); i++)
		if (draw_sim(p, &figs[i]))
			return -1;
	return 0;
}
SB_FIGURE(fig_shootdown, SB_FIG_RESULTS, 70)

static int fig_shootdown_kernel(struct sb_plot *p)
{
	static const char *const metric[2] = { "us_per_page", "tlb_irqs_per_page" };
	struct sb_lines ls = {
		.xkey = "batch", .npanels = 2, .logy = { true, true },
		.xlabel = "pages per batch (log2 scale)",
		.ylabel = { "initiator µs per page (log scale)",
			    "TLB IRQs per page, team CPUs (log scale)" },
		.ptitle = { "cost per page", "real shootdown IPIs per page" },
		.pname = { "µs", "TLB IRQs" },
	};
	char how[300];

	if (add_all(p, &ls, "us_per_page", "shootdown-kernel", metric, 2))
		return -1;
	snprintf(how, sizeof(how), "The real kernel's TLB shootdowns (madvise/mprotect); IRQs "
		 "from /proc/interrupts over the team's CPUs; red circles: CV above %g %%.",
		 p->cv_threshold);
	return sb_lines_draw(p, &ls, "shootdown-kernel", "shootdown, real kernel: cost and "
			     "TLB IPIs per page against the batch size", NULL, how);
}
SB_FIGURE(fig_shootdown_kernel, SB_FIG_RESULTS, 80)
