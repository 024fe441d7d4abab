/* summary.c — summary.h.  A table is a spec: its points (family, kernel or not, a
 * parameter they must not have), the reference (a strategy, or a parameter value of
 * the row's), the %Change's metric, and a few value metrics (from a twin when said:
 * the window's fidelity counters from a throughput point's mode=fidelity twin).
 * Rows match by typed fields only: family, threads, placement, parameters. */
#include "tables/summary.h"
#include "tables/trend.h"
#include "results/preempt.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results/results.h"
#include "results/ab.h"

#define NEXTRA 3

struct spec {
	const char *title;		/* "window policies": "against REF" follows */
	const char *family;
	int kernel;			/* 1: kernel-* strategies only, 0: none of them */
	const char *ref_strategy;	/* the reference's strategy, NULL: the row's own */
	const char *ref_key, *ref_val;	/* ... with this parameter value */
	const char *skip_key, *skip_val;/* points with this parameter value are no row */
	const char *metric, *metric_label;
	const char *extra[NEXTRA], *extra_label[NEXTRA];
	const char *twin_key, *twin_val;/* extras from the twin with this value */
	bool no_remote_out;		/* sb_cmp_no_remote points: no row, said once */
};

static const struct spec specs[] = {
	{ "window policies", "window", 0, "spinlock", NULL, NULL,
	  "mode", "fidelity", "ops_per_s", "ops/s",
	  { "stretch", "double_resets", "lost_pages" }, { "stretch", "double resets", "lost pages" },
	  "mode", "fidelity", false },
	{ "locks", "lock", 0, "pthread_spin", NULL, NULL, NULL, NULL,
	  "ops_per_s", "ops/s", { "ns_per_op", "jain" }, { "ns/op", "fairness" }, NULL, NULL, false },
	{ "simulated shootdown", "shootdown", 0, "immediate", NULL, NULL, NULL,
	  NULL, "ns_per_page", "ns/page", { "flushes_per_page", "acks_per_page" },
	  { "flushes/page", "acks/page" }, NULL, NULL, true },
	{ "kernel shootdown: batched calls", "shootdown", 1, NULL, "mode",
	  "immediate", NULL, NULL, "tlb_irqs_per_page", "TLB IPIs/page",
	  { "us_per_page", "cal_irqs_per_page" }, { "us/page", "call IPIs/page" }, NULL, NULL,
	  false },
};

static bool has_param(const struct sb_point_fields *f, const char *key, const char *val)
{
	const char *v = key ? sb_params_get(&f->params, key) : NULL;

	return v && !strcmp(v, val);
}

static bool takes(const struct spec *s, const struct sb_bm *b)
{
	return b->has_point && !strcmp(b->pt.family, s->family) &&
	       (strncmp(b->pt.strategy, "kernel-", 7) == 0) == s->kernel &&
	       !(s->skip_key && has_param(&b->pt, s->skip_key, s->skip_val));
}

static bool is_ref(const struct spec *s, const struct sb_point_fields *f)
{
	return s->ref_strategy ? !strcmp(f->strategy, s->ref_strategy) :
				 has_param(f, s->ref_key, s->ref_val);
}

/* a and b are one point but for strategy, lock and parameter key (NULL: none) */
static bool same_but(const struct sb_point_fields *a, const struct sb_point_fields *b,
		     const char *key)
{
	const char *const skip[] = { key, NULL };
	char pa[1024], pb[1024];

	if (strcmp(a->family, b->family) || a->threads != b->threads ||
	    strcmp(a->placement, b->placement))
		return false;
	sb_params_str(&a->params, key ? skip : NULL, pa, sizeof(pa));
	sb_params_str(&b->params, key ? skip : NULL, pb, sizeof(pb));
	return !strcmp(pa, pb);
}

/* a and b have the same values (or both none) of keys[0..n) */
static bool same_params(const struct sb_point_fields *a, const struct sb_point_fields *b,
			const char *const *keys, int n)
{
	for (int k = 0; k < n; k++) {
		const char *x = sb_params_get(&a->params, keys[k]), *y = sb_params_get(&b->params, keys[k]);

		if (x != y && (!x || !y || strcmp(x, y)))
			return false;
	}
	return true;
}

/* b's reference: the reference strategy's point (b's lock if it has it, else the
 * first found), or b's strategy with the reference's parameter value. */
static const struct sb_bm *ref_of(const struct spec *s, const struct sb_results *r,
				  const struct sb_bm *b)
{
	const struct sb_bm *any = NULL;

	for (int i = 0; i < r->n; i++) {
		const struct sb_bm *c = &r->bm[i];

		if (!takes(s, c) || !is_ref(s, &c->pt))
			continue;
		if (s->ref_strategy ? !same_but(&c->pt, &b->pt, NULL) :
				      strcmp(c->pt.strategy, b->pt.strategy) ||
					      strcmp(c->pt.lock, b->pt.lock) ||
					      !same_but(&c->pt, &b->pt, s->ref_key))
			continue;
		if (!strcmp(c->pt.lock, b->pt.lock))
			return c;
		if (!any)
			any = c;
	}
	return any;
}

/* b's twin for the extras (same point, twin_key=twin_val), or b */
static const struct sb_bm *twin_of(const struct spec *s, const struct sb_results *r,
				   const struct sb_bm *b)
{
	if (!s->twin_key)
		return b;
	for (int i = 0; i < r->n; i++) {
		const struct sb_bm *c = &r->bm[i];

		if (c->has_point && has_param(&c->pt, s->twin_key, s->twin_val) &&
		    !strcmp(c->pt.strategy, b->pt.strategy) && !strcmp(c->pt.lock, b->pt.lock) &&
		    same_but(&c->pt, &b->pt, s->twin_key))
			return c;
	}
	return NULL;
}

struct row {
	const struct sb_bm *b, *twin;
	struct sb_cmp_row w;	/* w.old: the reference; w.new == NULL: b is one */
};

static int row_order(const void *x, const void *y)
{
	const struct row *a = x, *b = y;
	const struct sb_point_fields *p = &a->b->pt, *q = &b->b->pt;
	char pa[1024], pb[1024];
	int c;

	if ((c = (a->w.new != NULL) - (b->w.new != NULL)))	/* references first */
		return c;
	if ((c = strcmp(p->strategy, q->strategy)) || (c = strcmp(p->lock, q->lock)))
		return c;
	sb_params_str(&p->params, NULL, pa, sizeof(pa));
	sb_params_str(&q->params, NULL, pb, sizeof(pb));
	if ((c = strcmp(pa, pb)) || (c = strcmp(p->placement, q->placement)))
		return c;
	return (p->threads > q->threads) - (p->threads < q->threads);
}

/* Parameters differing between rows are columns (vary[nvary]), the others the title. */
static int varying(const struct row *rows, int n, const struct spec *s, const char **vary,
		   int max, char *constant, size_t clen)
{
	const struct sb_params *p0 = &rows[0].b->pt.params;
	int nv = 0;

	*constant = '\0';
	for (int k = 0; k < p0->n; k++) {
		const char *key = p0->p[k].key;
		bool differs = false;

		if (s->skip_key && !strcmp(key, s->skip_key))
			continue;
		for (int i = 1; i < n && !differs; i++) {
			const char *v = sb_params_get(&rows[i].b->pt.params, key);

			differs = !v || strcmp(v, p0->p[k].val);
		}
		if (differs && nv < max)
			vary[nv++] = key;
		else if (strlen(constant) + strlen(key) + strlen(p0->p[k].val) + 3 < clen)
			sprintf(constant + strlen(constant), " %s=%s", key, p0->p[k].val);
	}
	return nv;
}

static void add_value(struct sb_cmp_cells *c, double v)
{
	char buf[64];

	sb_fmt_value(buf, sizeof(buf), v);
	sb_cmp_add(c, buf);
}

static double value_of(const struct sb_bm *b, const char *metric)
{
	struct sb_stat st;

	if (!b)
		return NAN;
	sb_bm_stat(b, metric, &st);
	return st.median;
}

/* window/null under the workload model (--migrate-ns): no rate limit, every page
 * admitted and its copy paid, not the harness's own cost (model_notes says so) */
static bool null_in_model(const struct sb_point_fields *f)
{
	const char *m = sb_params_get(&f->params, "migrate");

	return !strcmp(f->family, "window") && !strcmp(f->strategy, "null") && m && atof(m) > 0;
}

/* the CV cell: 0 % where every repetition is 0 (sb_stat's CV is 0/0 there) */
static void add_cv(struct sb_cmp_cells *c, const struct sb_bm *b, const char *metric,
		   double cv, bool noisy)
{
	char buf[64];

	sb_cmp_fmt_cv(buf, sizeof(buf), isnan(cv) && sb_cmp_all_zero(b, metric) ? 0 : cv, noisy);
	sb_cmp_add(c, buf);
}

/* a row whose sides are both measured zeros: 0, 0 %, no change, no interval to draw */
static void zero_cells(struct sb_cmp_cells *c, const struct spec *s, const struct row *w,
		       bool sig)
{
	sb_cmp_add(c, "0");
	add_cv(c, w->w.old, s->metric, w->w.cv[0], false);
	sb_cmp_add(c, "0");
	add_cv(c, w->w.new, s->metric, w->w.cv[1], false);
	sb_cmp_add(c, "0");
	sb_cmp_add(c, "both 0");
	if (sig)
		sb_cmp_add(c, "");
}

/* A row: point columns, reference, CV, value, CV, %Change, its interval, p(U), extras. */
static void row_cells(struct sb_cmp_cells *c, const struct spec *s, const struct row *w,
		      const char **vary, int nvary, bool sig, double threshold)
{
	const struct sb_point_fields *f = &w->b->pt;
	char buf[160];

	snprintf(buf, sizeof(buf), "%s%s%s%s", f->strategy, null_in_model(f) ? " (no limit)" : "",
		 *f->lock ? "/" : "", f->lock);
	sb_cmp_add(c, buf);
	for (int v = 0; v < nvary; v++) {
		const char *val = sb_params_get(&f->params, vary[v]);

		sb_cmp_add(c, val ? val : "-");
	}
	snprintf(buf, sizeof(buf), "%d", f->threads);
	sb_cmp_add(c, buf);
	sb_cmp_add(c, f->placement);
	if (!w->w.new) {	/* the reference itself */
		struct sb_stat st;

		sb_bm_stat(w->b, s->metric, &st);
		sb_cmp_add(c, "");
		sb_cmp_add(c, "");
		add_value(c, w->b->median);
		add_cv(c, w->b, s->metric, st.cv, !isnan(st.cv) && st.cv > threshold);
		sb_cmp_add(c, "reference");
		sb_cmp_add(c, "");	/* no interval */
		if (sig)
			sb_cmp_add(c, "");
	} else if (sb_cmp_all_zero(w->w.old, s->metric) && sb_cmp_all_zero(w->w.new, s->metric)) {
		zero_cells(c, s, w, sig);
	} else {
		sb_cmp_row_cells(c, &w->w, true, sig, 3);
	}
	for (int e = 0; e < NEXTRA && s->extra[e]; e++)
		add_value(c, value_of(w->twin, s->extra[e]));
}

static void print_spec_table(FILE *o, enum sb_cmp_fmt f, const struct spec *s, struct row *rows,
			     int n, const char *where, double threshold)
{
	static const char *const head[] = { "threads", "place", "reference", "CV", NULL, "CV",
					    "%Change", "95 % interval" };
	struct sb_cmp_cells c = { 0 };
	const char *vary[4];
	char constant[512], title[1024];
	int nvary, ncols, k, nex = 0, reps = 0;
	bool sig = false;

	qsort(rows, n, sizeof(*rows), row_order);
	nvary = varying(rows, n, s, vary, 4, constant, sizeof(constant));
	for (k = 0; k < n; k++) {
		sig |= rows[k].w.new && rows[k].w.old->nreps >= 2 && rows[k].w.new->nreps >= 2;
		if (rows[k].b->nreps > reps)
			reps = rows[k].b->nreps;
	}
	while (nex < NEXTRA && s->extra[nex])
		nex++;
	ncols = 1 + nvary + 2 + 6 + (sig ? 1 : 0) + nex;	/* at most 17: SB_CMP_MAXCOLS */
	sb_cmp_add(&c, !strcmp(s->family, "window") ? "policy" : s->kernel ? "call" :
		       !strcmp(s->family, "lock") ? "lock" : "strategy");
	for (int v = 0; v < nvary; v++)
		sb_cmp_add(&c, vary[v]);
	for (k = 0; k < 8; k++)
		sb_cmp_add(&c, head[k] ? head[k] : s->metric_label);
	if (sig)
		sb_cmp_add(&c, "p(U)");
	for (int e = 0; e < nex; e++)
		sb_cmp_add(&c, s->extra_label[e]);
	for (int i = 0; i < n; i++)
		row_cells(&c, s, &rows[i], vary, nvary, sig, threshold);
	snprintf(title, sizeof(title), "%s against %s: %s, medians of %d repetition%s (%s)%s%s",
		 s->title, s->ref_strategy ? s->ref_strategy : s->ref_val, s->metric_label, reps,
		 reps == 1 ? "" : "s", where, *constant ? ";" : "", constant);
	sb_cmp_fprint_table(o, f, title, ncols, &c);
	sb_cmp_cells_free(&c);
}

/* a window point that never exercised the reset: no reset at all, or over 99 % of
 * its calls limited (the budget spent at once, the window seldom reopened); null
 * has no window to reset */
static bool no_reset(const struct sb_bm *b)
{
	if (!strcmp(b->pt.strategy, "null"))
		return false;	/* no window at all */
	return value_of(b, "resets") == 0 || value_of(b, "limited") > 0.99;
}

/* What a window table's rows cannot say by themselves, under the table: null under
 * the workload model, and the points whose run never exercised the reset. */
static void window_notes(FILE *o, const struct row *rows, int n)
{
	int nnull = 0, nbad = 0;

	for (int i = 0; i < n; i++)
		nnull += null_in_model(&rows[i].b->pt);
	if (nnull)
		fprintf(o, "null (no limit): no rate limit under the workload model: it admits every "
			"page and pays its copy (--migrate-ns),\nso it is the slowest row; it is not the "
			"harness's own cost (docs/window.md, the default suite's window workload).\n");
	for (int i = 0; i < n; i++) {
		const struct sb_point_fields *p = &rows[i].b->pt;

		if (!no_reset(rows[i].b))
			continue;
		if (!nbad++)
			fprintf(o, "No window reset, or over 99 %% of calls limited: the budget was spent "
				"and the window seldom or never reopened,\nso these runs measured the "
				"limited path, not the reset the policies differ in (stretch, double "
				"resets, lost pages: n/a\nor from a few windows).  A workload that resets: "
				"docs/window.md, the default suite's window workload.\n");
		fprintf(o, "  %s%s%s, %d thread%s: %.6g resets, limited %.3g %%\n", p->strategy,
			*p->lock ? "/" : "", p->lock, p->threads, p->threads == 1 ? "" : "s",
			value_of(rows[i].b, "resets"), value_of(rows[i].b, "limited") * 100);
	}
	if (nnull || nbad)
		fprintf(o, "\n");
}

/* Every measured TLB IPI count 0 at 2 threads or more: a measurement of a
 * kernel that flushes remote TLBs without IPIs, which the table must not leave
 * a reader to take for a broken counter. */
static void kernel_notes(FILE *o, const struct row *rows, int n)
{
	int nmulti = 0;

	for (int i = 0; i < n; i++) {
		double v = value_of(rows[i].b, "tlb_irqs_per_page");

		if (rows[i].b->pt.threads < 2)
			continue;
		if (isnan(v) || v != 0)
			return;
		nmulti++;
	}
	if (nmulti)
		fprintf(o, "Every TLB IPI count at 2 threads or more is 0: this kernel flushed the "
			"other CPUs' TLBs without an IPI\n(broadcast invalidation, or a paravirtual "
			"flush as in a PVM or KVM guest: docs/shootdown.md); us/page still compares "
			"the calls.\n\n");
}

/* the heading over trend lines (tables/trend.h), once; each line's lead */
static const char *trend_head(FILE *o, enum sb_cmp_fmt f, const char *against, int *nlines)
{
	if (!(*nlines)++)
		fprintf(o, "%sBy thread count%s%s (where an effect appears, shrinks or changes "
			"sign)%s\n", f == SB_CMP_MARKDOWN ? "**" : "", against ? ", against " : "",
			against ? against : "", f == SB_CMP_MARKDOWN ? "**\n" : ":");
	return f == SB_CMP_MARKDOWN ? "- " : "  ";
}

/* a table row's point for the trend: a preempted side has no verdict, two
 * measured zeros are no change (as the table says) */
static struct sb_trend_pt trend_pt(const struct spec *s, const struct row *w)
{
	struct sb_trend_pt t = { w->b->pt.threads, w->b->pt.placement, w->w.change,
				 w->w.iv.verdict };

	if (*w->w.preempt)
		t.verdict = SB_IV_NONE;
	else if (sb_cmp_all_zero(w->w.old, s->metric) && sb_cmp_all_zero(w->w.new, s->metric))
		t.change = 0, t.verdict = SB_IV_SAME;
	return t;
}

/* Under a family table (rows sorted by row_order): each strategy, lock and varying
 * parameters against the reference, where it has 3 or more thread counts. */
static void table_trends(FILE *o, enum sb_cmp_fmt f, const struct spec *s, const struct row *rows,
			 int n)
{
	struct sb_trend_pt *t = calloc((size_t)n + 1, sizeof(*t));
	const char *vary[4];
	char constant[512], what[512], pv[256], line[2048];
	int nvary = varying(rows, n, s, vary, 4, constant, sizeof(constant)), nlines = 0;

	for (int i = 0, j; t && i < n; i = j) {
		const struct sb_point_fields *p = &rows[i].b->pt;
		int k = 0;

		for (j = i; j < n && !strcmp(rows[j].b->pt.strategy, p->strategy) &&
			    !strcmp(rows[j].b->pt.lock, p->lock) &&
			    same_params(&rows[j].b->pt, p, vary, nvary); j++)
			if (rows[j].w.new)
				t[k++] = trend_pt(s, &rows[j]);
		sb_trend_sort(t, k);
		if (sb_trend_nthreads(t, k) < 3)
			continue;
		*pv = '\0';
		for (int v = 0; v < nvary; v++) {
			const char *val = sb_params_get(&p->params, vary[v]);

			if (strlen(pv) + strlen(vary[v]) + 40 < sizeof(pv))
				snprintf(pv + strlen(pv), sizeof(pv) - strlen(pv), " %s=%.32s", vary[v],
					 val ? val : "-");
		}
		snprintf(what, sizeof(what), "%s%s%s%s, %s", p->strategy, *p->lock ? "/" : "", p->lock,
			 pv, s->metric_label);
		sb_trend_line(line, sizeof(line), what, t, k);
		fprintf(o, "%s%s\n", trend_head(o, f, s->ref_strategy ? s->ref_strategy : s->ref_val,
						&nlines), line);
	}
	if (nlines)
		fprintf(o, "\n");
	free(t);
}

/* A directory of `run --ab` alone: its ab.json, no gbench.json (no tables) */
static bool ab_only(const char *dir)
{
	return !sb_dir_has(dir, "gbench.json") && sb_dir_has(dir, SB_AB_FILE);
}

/* One spec over one directory's results (loaded with the spec's metric). */
static void spec_table(FILE *o, enum sb_cmp_fmt f, const struct spec *s, const struct sb_results *r,
		       int *ntables)
{
	struct row *rows = calloc((size_t)r->n + 1, sizeof(*rows));
	const double thr[2] = { r->cv_threshold, r->cv_threshold };
	int n = 0, nref = 0, nout = 0;

	if (!rows)
		return;
	for (int i = 0; i < r->n; i++) {
		const struct sb_bm *b = &r->bm[i];
		struct row *w = &rows[n];

		if (!takes(s, b) || b->failed)
			continue;
		if (s->no_remote_out && sb_cmp_no_remote(b)) {
			nout++;
			continue;
		}
		w->b = b;
		w->twin = twin_of(s, r, b);
		if (is_ref(s, &b->pt)) {
			nref++;
			n++;
			continue;
		}
		if (!(w->w.old = ref_of(s, r, b)))
			continue;	/* no reference point in this run: nothing to say */
		w->w.new = b;
		sb_cmp_judge(&w->w, thr, s->metric, sb_cmp_worse(s->metric));
		n++;
	}
	if (nref && n > nref) {
		print_spec_table(o, f, s, rows, n, r->path, r->cv_threshold);
		++*ntables;
		if (!strcmp(s->family, "window"))
			window_notes(o, rows, n);
		else if (s->kernel)
			kernel_notes(o, rows, n);
		table_trends(o, f, s, rows, n);
	}
	if (nout)
		fprintf(o, "%s: %d point%s left out: " SB_CMP_NO_REMOTE ".\n\n", s->title, nout,
			nout == 1 ? "" : "s");
	free(rows);
}

/* Core-to-core latency by distance class (docs/calibrate.md): per op and class (rel
 * counter), the pairs and the min, median, max of their one_way_ns medians, if any. */
static void c2c_classes(FILE *o, enum sb_cmp_fmt f, const struct sb_results *r)
{
	static const char *const ops[] = { "store", "cas" };
	static const char *const head[] = { "op", "class", "pairs", "min", "median", "max" };
	double *v = calloc((size_t)r->n + 1, sizeof(double));
	struct sb_cmp_cells c = { 0 };
	char title[PATH_MAX + 128];

	for (int k = 0; v && k < 6; k++)
		sb_cmp_add(&c, head[k]);
	for (int op = 0; v && op < 2; op++)
		for (int rel = 0; rel < SB_REL_COUNT; rel++) {
			int n = 0;
			char buf[32];
			double med;

			for (int i = 0; i < r->n; i++) {
				const struct sb_bm *b = &r->bm[i];
				const char *bop = b->has_point ? sb_params_get(&b->pt.params, "op") : NULL;
				double x = value_of(b, "one_way_ns"), cls = value_of(b, "rel");

				if (!bop || b->failed || strcmp(b->pt.family, "calibrate") ||
				    strcmp(b->pt.strategy, "c2c") || strcmp(bop, ops[op]) ||
				    !(x > 0) || cls != rel)
					continue;
				v[n++] = x;
			}
			if (!n)
				continue;
			med = sb_median(v, n);	/* sorts v: min and max follow */
			sb_cmp_add(&c, ops[op]);
			sb_cmp_add(&c, sb_rel_names[rel]);
			snprintf(buf, sizeof(buf), "%d", n);
			sb_cmp_add(&c, buf);
			add_value(&c, v[0]);
			add_value(&c, med);
			add_value(&c, v[n - 1]);
		}
	if (c.n > 6) {
		snprintf(title, sizeof(title), "core-to-core one-way ns by distance class (%s): "
			 "min, median and max over the pairs' medians (calibrate/c2c)", r->path);
		sb_cmp_fprint_table(o, f, title, 6, &c);
	}
	sb_cmp_cells_free(&c);
	free(v);
}

static int by_name(const void *a, const void *b)
{
	return strcmp((*(const struct sb_bm *const *)a)->name, (*(const struct sb_bm *const *)b)->name);
}

/* the points whose CV of ops/s is above their run's threshold, by name */
static void noisy_points(FILE *o, enum sb_cmp_fmt f, const struct sb_results *r, int *nnoisy)
{
	const struct sb_bm **v = calloc((size_t)r->n + 1, sizeof(const struct sb_bm *));
	int n = 0;

	if (!v)
		return;
	for (int i = 0; i < r->n; i++)
		if (!isnan(r->bm[i].cv) && r->bm[i].cv > r->cv_threshold)
			v[n++] = &r->bm[i];
	qsort(v, n, sizeof(const struct sb_bm *), by_name);
	for (int i = 0; i < n; i++) {
		if (!(*nnoisy)++)
			fprintf(o, "%s\n", f == SB_CMP_MARKDOWN ? "**Noisy points** (CV of ops/s above "
				"the run's threshold: their %Change is less certain)\n" :
				"Noisy points (CV of ops/s above the run's threshold: their %Change "
				"is less certain):");
		fprintf(o, "%s%s  CV %.3g %% > %g %%\n", f == SB_CMP_MARKDOWN ? "- " : "  ",
			v[i]->name, v[i]->cv, r->cv_threshold);
	}
	free(v);
}

/* the points whose members were off their CPUs (results/preempt.h), by name */
static void preempted_points(FILE *o, enum sb_cmp_fmt f, const struct sb_results *r)
{
	char mark[96];
	int n = 0;

	for (int i = 0; i < r->n; i++) {
		if (!sb_preempt_bm(&r->bm[i], mark, sizeof(mark)))
			continue;
		if (!n++)
			fprintf(o, "%s\n", f == SB_CMP_MARKDOWN ? "**Preempted points** (their "
				"members were off their CPUs: no verdict)\n" : "Preempted points "
				"(their members were off their CPUs: no verdict):");
		fprintf(o, "%s%s  %s\n", f == SB_CMP_MARKDOWN ? "- " : "  ", r->bm[i].name, mark);
	}
}

/* "ops/s" of "ops_per_s", "admitted pages/s" of "admitted_pages_per_s" */
static void metric_words(char *buf, size_t n, const char *name)
{
	size_t k = strlen(name);

	if (k > 6 && !strcmp(name + k - 6, "_per_s"))
		snprintf(buf, n, "%.*s/s", (int)(k - 6), name);
	else
		snprintf(buf, n, "%s", name);
	for (char *q = buf; *q; q++)
		if (*q == '_')
			*q = ' ';
}

/* c[i]'s metric name as a trend point: changed where the paired interval of B/A
 * excludes 1 (as its line says), ~ where it holds it; no interval: no verdict */
static struct sb_trend_pt ab_pt(const struct sb_ab_cmp *c, const char *name)
{
	struct sb_trend_pt t = { c->a.threads, c->a.placement, NAN, SB_IV_NONE };

	for (int m = 0; m < c->nmetrics; m++) {
		const struct sb_paired *st = &c->m[m].st;

		if (strcmp(c->m[m].name, name) || st->n < 1 || !isfinite(st->lo) || !isfinite(st->hi))
			continue;
		t.change = sb_pct_change(st->ratio);
		t.verdict = sb_paired_changed(st) ? SB_IV_CHANGED : SB_IV_SAME;
	}
	return t;
}

/* Under the pairs: each comparison (A -> B, family) measured at 2 or more thread
 * counts, a line per metric: where along them its verdict appears, shrinks or
 * changes sign (tables/trend.h).  A comparison is keyed by its first point. */
static void ab_trends(FILE *o, const struct sb_ab_cmp *c, int n)
{
	struct sb_trend_pt *t = calloc((size_t)n + 1, sizeof(*t));
	char what[512], words[64], line[2048];
	int nlines = 0;

	for (int i = 0; t && i < n; i++) {
		bool seen = false;

		for (int j = 0; j < i && !seen; j++)
			seen = !strcmp(c[j].a_spec, c[i].a_spec) && !strcmp(c[j].b_spec, c[i].b_spec) &&
			       !strcmp(c[j].a.family, c[i].a.family);
		for (int m = 0; !seen && m < c[i].nmetrics; m++) {
			int k = 0;

			for (int j = i; j < n; j++)
				if (!strcmp(c[j].a_spec, c[i].a_spec) &&
				    !strcmp(c[j].b_spec, c[i].b_spec) &&
				    !strcmp(c[j].a.family, c[i].a.family))
					t[k++] = ab_pt(&c[j], c[i].m[m].name);
			sb_trend_sort(t, k);
			if (sb_trend_nthreads(t, k) < 2)
				break;
			metric_words(words, sizeof(words), c[i].m[m].name);
			snprintf(what, sizeof(what), "%s -> %s, %s", c[i].a_spec, c[i].b_spec, words);
			sb_trend_line(line, sizeof(line), what, t, k);
			if (!nlines++)
				fprintf(o, "By thread count (where an effect appears, shrinks or changes "
					"sign):\n");
			fprintf(o, "  %s\n", line);
		}
	}
	free(t);
}

/* DIR/ab.json's pairs (run --ab), resolving what medians cannot, with 95 % intervals;
 * -1 with err only where the pairs are all DIR holds (ab_only) and cannot be read. */
static int ab_section(FILE *o, enum sb_cmp_fmt f, const char *dir, int *nab, char *err,
		      size_t errlen)
{
	struct sb_ab_cmp *c;
	char e[SB_ERR_MAX];
	int n;

	if (sb_ab_read(dir, &c, &n, e, sizeof(e))) {
		if (!ab_only(dir))
			return 0;	/* none, or one this version cannot read: compare says */
		snprintf(err, errlen, "%s", e);
		return -1;
	}
	if (f == SB_CMP_MARKDOWN)
		fprintf(o, "**Paired A/B** (alternating trials in the same run: the %%Change of B "
			"over A with its 95 %% interval)\n\n```\n");
	sb_ab_print_section(o, dir, c, n);
	ab_trends(o, c, n);
	if (f == SB_CMP_MARKDOWN)
		fprintf(o, "```\n");
	fprintf(o, "\n");
	free(c);
	++*nab;
	return 0;
}

/* What the verdicts are worth at this many repetitions: none under SB_IV_MIN_REPS;
 * at 3 a side "changed" is "the repetitions do not overlap" (1 time in 10 by chance). */
static void precision_note(FILE *o, int reps)
{
	if (reps < 1 || reps > 8)
		return;
	if (reps < SB_IV_MIN_REPS)
		fprintf(o, "Precision: %d repetition%s a side: no interval (n too small: need %d); "
			"a %%Change here has no noise estimate.\n\n", reps, reps == 1 ? "" : "s",
			SB_IV_MIN_REPS);
	else if (reps == 3)
		fprintf(o, "Precision: with 3 repetitions a side the interval runs from the "
			"lowest to the highest ratio of a new to an old repetition: \"changed\" "
			"means they do not overlap,\nwhich no change at all also gives 1 time in "
			"10; p(U) cannot go below %.3g.  A few-percent effect takes paired trials "
			"(run --ab, docs/precision.md).\n\n", sb_mann_whitney_min_p(3, 3));
	else
		fprintf(o, "Precision: with %d repetitions a side a bootstrap interval is often "
			"narrower than its 95 %%: read a \"changed\" near 0 %% with care.\nA "
			"few-percent effect takes paired trials (run --ab, docs/precision.md).\n\n",
			reps);
}

static void legend(FILE *o)
{
	fprintf(o, "%%Change = (value - reference) / reference x 100 of the medians.  CV: of the "
		"repetitions, \"noisy\" above the run's threshold.\n95 %% interval: of the "
		"%%Change, a bootstrap of the medians (docs/compare.md); changed: it excludes 0 %%"
		", ~: it holds 0 %% (within the noise),\nn too small: a side has under %d "
		"repetitions, no interval.  p(U): two-sided Mann-Whitney U over repetitions "
		"(* below 0.05).\nn/a: not measured here; a measured 0 prints 0 (both 0: each "
		"repetition of both sides measured 0, no change).\n\n", SB_IV_MIN_REPS);
}

/* each directory's files, a line each, for the reader to go to next (the summary's
 * own are said by whoever writes them, once written) */
static void files_written(FILE *o, enum sb_cmp_fmt f, const char *const *dirs, int n)
{
	static const char *const names[] = { "gbench.json", "results.csv", "runs.jsonl",
					     "windows.jsonl", "run.json", "suite.json", "ab.json",
					     "index.html", NULL };

	fprintf(o, f == SB_CMP_MARKDOWN ? "**Files**\n\n" : "Files:\n");
	for (int d = 0; d < n; d++) {
		char path[SB_PATH];
		int figs = 0;
		DIR *pd;
		struct dirent *e;

		fprintf(o, "%s%s/:", f == SB_CMP_MARKDOWN ? "- " : "  ", dirs[d]);
		for (const char *const *m = names; *m; m++) {
			sb_pathf(path, "%s/%s", dirs[d], *m);
			if (!access(path, F_OK))
				fprintf(o, " %s", *m);
		}
		sb_pathf(path, "%s/plots", dirs[d]);
		if ((pd = opendir(path))) {
			while ((e = readdir(pd)))
				figs += strlen(e->d_name) > 4 &&
					!strcmp(e->d_name + strlen(e->d_name) - 4, ".svg");
			closedir(pd);
		}
		if (figs)
			fprintf(o, " plots/ (%d figure%s)", figs, figs == 1 ? "" : "s");
		fprintf(o, "\n");
	}
}

/* specs[k], its reference strategy replaced where refs names one for its family
 * (the kernel table's reference is a mode, not a strategy: never replaced) */
static struct spec spec_with(size_t k, const struct sb_summary_ref *refs)
{
	struct spec s = specs[k];

	for (const struct sb_summary_ref *r = refs; r && r->family; r++)
		if (!strcmp(r->family, s.family) && s.ref_strategy)
			s.ref_strategy = r->strategy;
	return s;
}

/* what tables() found: out[0] tables, out[1] the most repetitions, out[2] paired sections */
struct found {
	const struct sb_summary_ref *refs;
	int out[3];
};

/* each directory's tables, c2c classes, paired sections */
static int tables(FILE *o, enum sb_cmp_fmt f, const char *const *dirs, int n, struct found *fd,
		  char *err, size_t errlen)
{
	const struct sb_summary_ref *refs = fd->refs;
	int *out = fd->out;

	for (int d = 0; d < n; d++) {
		for (size_t k = 0; k < sizeof(specs) / sizeof(specs[0]) && !ab_only(dirs[d]); k++) {
			struct spec s = spec_with(k, refs);
			struct sb_results r;

			if (sb_results_load(dirs[d], s.metric, &r, err, errlen))
				return -1;
			spec_table(o, f, &s, &r, &out[0]);
			for (int i = 0; i < r.n; i++)
				if (r.bm[i].nreps > out[1])
					out[1] = r.bm[i].nreps;
			sb_results_free(&r);
		}
	}
	for (int d = 0; d < n; d++) {
		struct sb_results r;

		if (ab_only(dirs[d]))
			continue;
		if (sb_results_load(dirs[d], "one_way_ns", &r, err, errlen))
			return -1;
		c2c_classes(o, f, &r);
		sb_results_free(&r);
	}
	for (int d = 0; d < n; d++)
		if (ab_section(o, f, dirs[d], &out[2], err, errlen))
			return -1;
	return 0;
}

/* "nothing to compare", naming the references looked for */
static void no_table(FILE *o, const struct sb_summary_ref *refs)
{
	fprintf(o, "No family here has its reference point in the same run (");
	for (size_t k = 0; k < sizeof(specs) / sizeof(specs[0]); k++) {
		struct spec s = spec_with(k, refs);

		if (s.ref_strategy)
			fprintf(o, "%s%s: %s", k ? ", " : "", s.family, s.ref_strategy);
	}
	fprintf(o, "): nothing to compare\n(stratbench summary --reference=FAMILY:STRATEGY "
		"names another reference).\n\n");
}

static int summary_text(FILE *o, enum sb_cmp_fmt f, const char *const *dirs, int n,
			const struct sb_summary_ref *refs, char *err, size_t errlen)
{
	struct found fd = { refs, { 0 } };
	int *got = fd.out, nnoisy = 0, nres = 0;

	fprintf(o, f == SB_CMP_MARKDOWN ? "## Summary\n\n" : "Summary\n\n");
	if (tables(o, f, dirs, n, &fd, err, errlen))
		return -1;
	for (int d = 0; d < n; d++)
		nres += !ab_only(dirs[d]);
	if (got[0]) {
		legend(o);
		precision_note(o, got[1]);
	} else if (nres || !got[2]) {
		no_table(o, refs);
	}
	for (int d = 0; d < n; d++) {
		struct sb_results r;

		if (ab_only(dirs[d]))
			continue;
		if (sb_results_load(dirs[d], "ops_per_s", &r, err, errlen))
			return -1;
		noisy_points(o, f, &r, &nnoisy);
		preempted_points(o, f, &r);
		sb_results_free(&r);
	}
	if (!nnoisy && nres)
		fprintf(o, "Noisy points: none (every CV of ops/s within its run's threshold, or "
			"single repetitions).\n");
	if (nres)
		fprintf(o, "\n");
	files_written(o, f, dirs, n);
	fprintf(o, "\n");
	return 0;
}

/* Printed only once every directory read: a failing input prints nothing, not half. */
int sb_summary_print(FILE *o, enum sb_cmp_fmt f, const char *const *dirs, int n,
		     const struct sb_summary_ref *refs, char *err, size_t errlen)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	int rc;

	if (!m) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	rc = summary_text(m, f, dirs, n, refs, err, errlen);
	if (fclose(m) && !rc) {
		snprintf(err, errlen, "out of memory");
		rc = -1;
	}
	if (!rc)
		fwrite(text, 1, len, o);
	free(text);
	return rc;
}

/* path.partial written by print, synced, renamed to path */
static int write_one(const char *path, enum sb_cmp_fmt f, const char *const *dirs, int n,
		     const struct sb_summary_ref *refs, char *err, size_t errlen)
{
	char tmp[SB_PATH];
	FILE *o;
	int rc;

	sb_pathf(tmp, "%s.partial", path);
	if (!(o = fopen(tmp, "w"))) {
		snprintf(err, errlen, "cannot write %s: %s", tmp, strerror(errno));
		return -1;
	}
	rc = sb_summary_print(o, f, dirs, n, refs, err, errlen);
	if (fflush(o) || ferror(o) || fsync(fileno(o))) {
		if (!rc)
			snprintf(err, errlen, "cannot write %s: %s", tmp, strerror(errno));
		rc = -1;
	}
	if (fclose(o) && !rc) {
		snprintf(err, errlen, "cannot write %s: %s", tmp, strerror(errno));
		rc = -1;
	}
	if (rc) {
		unlink(tmp);
		return -1;
	}
	return sb_file_commit(tmp, path, err, errlen);
}

int sb_summary_write_ref(const char *dir, const char *const *dirs, int n,
			 const struct sb_summary_ref *refs, bool print, char *err, size_t errlen)
{
	char path[SB_PATH];

	if (print && sb_summary_print(stdout, SB_CMP_TEXT, dirs, n, refs, err, errlen))
		return -1;
	fflush(stdout);
	sb_pathf(path, "%s/summary.txt", dir);
	if (write_one(path, SB_CMP_TEXT, dirs, n, refs, err, errlen))
		return -1;
	sb_pathf(path, "%s/summary.md", dir);
	return write_one(path, SB_CMP_MARKDOWN, dirs, n, refs, err, errlen);
}

int sb_summary_write_text(const char *dir, const char *const *dirs, int n, char *err,
			  size_t errlen)
{
	char path[SB_PATH];

	sb_pathf(path, "%s/summary.txt", dir);
	return write_one(path, SB_CMP_TEXT, dirs, n, NULL, err, errlen);
}

int sb_summary_write(const char *dir, const char *const *dirs, int n, char *err, size_t errlen)
{
	return sb_summary_write_ref(dir, dirs, n, NULL, true, err, errlen);
}
