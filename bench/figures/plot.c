/* plot.c — every figure a results directory has data for (plot.h), and what the figures share:
 * the machine for titles, the noisy key, one figure per set of points. */
#include "figures/figure.h"

#include "core/util.h"

#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void sb_figs_free(struct sb_figs *f)
{
	free(f->v);
	f->v = NULL;
	f->n = f->cap = 0;
}

/* every registered figure, by kind then order (constructors run in link order: no order) */
static const struct sb_figure *figures[32];
static int nfigures;

void sb_figure_add(const struct sb_figure *f)
{
	int i = nfigures++;

	if (nfigures > (int)(sizeof(figures) / sizeof(figures[0])))
		abort();	/* a new figure: make the table larger */
	for (; i && (figures[i - 1]->kind > f->kind ||
		     (figures[i - 1]->kind == f->kind && figures[i - 1]->order > f->order)); i--)
		figures[i] = figures[i - 1];
	figures[i] = f;
}

static int each(struct sb_plot *p, const struct sb_figure *f)
{
	const struct sb_results *r = p->r;	/* none in a compare or merge plot */

	for (int i = 0; r && i < r->n; i++) {
		bool seen = false;

		if (!f->in(&r->bm[i], NULL))
			continue;
		for (int j = 0; j < i && !seen; j++)
			seen = f->in(&r->bm[j], &r->bm[i]);
		if (!seen && f->each(p, &r->bm[i]))
			return -1;
	}
	return 0;
}

static int draw_kind(struct sb_plot *p, enum sb_fig_kind kind)
{
	for (int i = 0; i < nfigures; i++)
		if (figures[i]->kind == kind &&
		    (figures[i]->in ? each(p, figures[i]) : figures[i]->draw(p)))
			return -1;
	return 0;
}

void sb_plot_machine(const struct sb_results *r, const char *dir, char *buf, size_t n)
{
	const char *host = r && r->host && *r->host ? r->host : NULL, *base;

	if (!host) {		/* no fingerprint: the directory's name */
		base = strrchr(dir, '/');
		host = base && base[1] ? base + 1 : dir;
	}
	snprintf(buf, n, "%s%s%s%s%s%s", host, r && r->cpu_model ? " (" : "",
		 r && r->cpu_model ? r->cpu_model : "", r && r->cpu_model ? ")" : "",
		 r && r->label ? ", run " : "", r && r->label ? r->label : "");
}

/* what one op is: the y axis names its unit */
const char *sb_plot_ops_label(const char *family)
{
	if (!strcmp(family, "window"))
		return "window calls/s, all threads (median)";
	if (!strcmp(family, "lock"))
		return "lock acquisitions/s, all threads (median)";
	if (!strcmp(family, "shootdown"))
		return "pages migrated/s, all threads (median)";
	if (!strcmp(family, "baseline"))
		return "lock+unlock pairs/s, all threads (median)";
	return "operations/s, all threads (median)";
}

void sb_plot_noisy_key(const struct sb_plot *p, char *buf, size_t n)
{
	snprintf(buf, n, "CV > %g %% (noisy)", p->cv_threshold);
}

void sb_plot_slug(char *name)
{
	for (char *c = name; *c; c++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", *c))
			*c = '_';
}

int sb_plot_compare_dir(const char *new, char *dir)
{
	char copy[SB_PATH];
	struct stat st;
	int rc;

	if (stat(new, &st) == 0 && S_ISDIR(st.st_mode))
		return sb_pathf(dir, "%s", new);
	rc = sb_pathf(copy, "%s", new);
	return sb_pathf(dir, "%s", dirname(copy)) | rc;	/* dir set, even cut */
}

int sb_plot_compare_svg(const char *old, const char *new, char *svg)
{
	char dir[SB_PATH], ob[200];

	sb_results_base(old, ob, sizeof(ob));
	sb_plot_slug(ob);
	if (sb_plot_compare_dir(new, dir))
		return -1;
	return sb_pathf(svg, "%s/plots/compare-vs-%s.svg", dir, ob);
}

int sb_plot_mkdir(const char *dir, char *err, size_t errlen)
{
	char path[SB_PATH];

	if (sb_pathf(path, "%s/plots", dir) || (mkdir(path, 0777) && errno != EEXIST)) {
		snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

int sb_plot_results(const char *dir, const struct sb_results *r, const char *tpldir,
		    struct sb_figs *figs, char *err, size_t errlen)
{
	struct sb_plot p = {
		.dir = dir, .tpldir = tpldir, .r = r, .figs = figs,
		.cv_threshold = r->cv_threshold, .err = err, .errlen = errlen,
	};

	/* every key comes from the typed fields: without them, nothing */
	if (!r->schema) {
		snprintf(err, errlen, "%s: no typed points (no sb_schema in its context): not "
			 "written by stratbench run, nothing to plot", r->path);
		return -1;
	}
	if (sb_plot_mkdir(dir, err, errlen))
		return -1;
	sb_plot_machine(r, dir, p.machine, sizeof(p.machine));
	return draw_kind(&p, SB_FIG_RESULTS);
}

int sb_plot_compare(const char *old, const char *new, const char *tpldir, struct sb_figs *figs,
		    char *err, size_t errlen)
{
	return draw_kind(&(struct sb_plot){ .old = old, .new = new, .tpldir = tpldir, .figs = figs,
					    .err = err, .errlen = errlen }, SB_FIG_COMPARE);
}

int sb_plot_machines(const char *dir, const char *tpldir, struct sb_figs *figs, char *err,
		     size_t errlen)
{
	return draw_kind(&(struct sb_plot){ .dir = dir, .tpldir = tpldir, .figs = figs, .err = err,
					    .errlen = errlen }, SB_FIG_MERGE);
}
