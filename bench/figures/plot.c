/* plot.c — every figure a results directory has data for (plot.h), and
 * what the figures share: the machine for titles, the noisy key, the
 * one-line error for a point that lacks what a figure needs. */
#include "figures/figure.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void sb_figs_free(struct sb_figs *f)
{
	free(f->v);
	f->v = NULL;
	f->n = 0;
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

int sb_plot_need(struct sb_plot *p, const struct sb_bm *b, const char *key, const char *fig)
{
	snprintf(p->err, p->errlen, "%s: %s: point has no parameter \"%s\" (figure %s needs it)",
		 p->r ? p->r->path : p->dir, b->name, key, fig);
	return -1;
}

void sb_plot_slug(char *name)
{
	for (char *c = name; *c; c++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", *c))
			*c = '_';
}

int sb_plot_mkdir(const char *dir, char *err, size_t errlen)
{
	char path[4200];

	snprintf(path, sizeof(path), "%s/plots", dir);
	if (mkdir(path, 0777) && errno != EEXIST) {
		snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

int sb_plot_results(const char *dir, const struct sb_results *r, const char *tpldir,
		    struct sb_figs *figs, char *err, size_t errlen)
{
	static int (*const fig[])(struct sb_plot *) = {
		sb_fig_throughput, sb_fig_lock_latency, sb_fig_of_limit, sb_fig_latency_matrix,
		sb_fig_fidelity, sb_fig_timeline, sb_fig_shootdown, sb_fig_shootdown_kernel,
	};
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
	for (size_t i = 0; i < sizeof(fig) / sizeof(fig[0]); i++)
		if (fig[i](&p))
			return -1;
	return 0;
}
