/* compare_report.c — compare.h: what `stratbench compare` prints (cmd_compare.c
 * keeps the options). */
#include "tables/compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "results/ab.h"

/* Group "family/strategy[/lock] place:P k=v..." and threads from the typed point;
 * without one (plain GB JSON) the name is its own group, one row. */
static char *group_of(const struct sb_bm *b, long *threads)
{
	const struct sb_point_fields *f = &b->pt;
	char params[1024], g[1400];

	*threads = -1;
	if (!b->has_point)
		return strdup(b->name);
	*threads = f->threads;
	sb_params_human(&f->params, NULL, params, sizeof(params));
	snprintf(g, sizeof(g), "%s/%s%s%s place:%s%s", f->family, f->strategy, *f->lock ? "/" : "",
		 f->lock, f->placement, params);
	return strdup(g);
}

/* The same point: by typed fields when both have them (names are for people). */
static bool same_point(const struct sb_bm *a, const struct sb_bm *b)
{
	char ga[1400], gb[1400];

	if (!a->has_point || !b->has_point)
		return !strcmp(a->name, b->name);
	sb_point_group(&a->pt, NULL, ga, sizeof(ga));
	sb_point_group(&b->pt, NULL, gb, sizeof(gb));
	return !strcmp(ga, gb) && a->pt.threads == b->pt.threads &&
	       !strcmp(a->pt.placement, b->pt.placement);
}

static int cmp_row(const void *a, const void *b)
{
	const struct sb_cmp_row *x = a, *y = b;
	int c = strcmp(x->group, y->group);	/* groups by name: stable output */
	return c ? c : (x->threads > y->threads) - (x->threads < y->threads);
}

/* Why w compares nothing, NULL when it compares something (sb_cmp_no_remote). */
static const char *no_subject(const struct sb_cmp_row *w)
{
	if (sb_cmp_no_remote(w->old) && sb_cmp_no_remote(w->new))
		return "no remote CPU to flush (0 flushes and 0 acks on both sides)";
	return NULL;
}

int sb_cmp_rows(const struct sb_results r[2], const char *metric, int worse,
		struct sb_cmp_row **rows, int *nrows, char *err, size_t errlen)
{
	const double thr[2] = { r[0].cv_threshold, r[1].cv_threshold };
	struct sb_cmp_row *w;
	int cap = 0;

	*rows = NULL;
	*nrows = 0;
	for (int i = 0; i < r[0].n; i++)
		for (int j = 0; j < r[1].n; j++) {
			if (!same_point(&r[0].bm[i], &r[1].bm[j]))
				continue;
			if (SB_GROW(*rows, cap, *nrows + 1)) {
				snprintf(err, errlen, "out of memory");
				return -1;
			}
			w = &(*rows)[(*nrows)++];
			memset(w, 0, sizeof(*w));
			w->group = group_of(&r[0].bm[i], &w->threads);
			w->old = &r[0].bm[i];
			w->new = &r[1].bm[j];
			sb_cmp_judge(w, thr, metric, worse);
			w->no_subject = no_subject(w);
		}
	if (!*nrows) {
		snprintf(err, errlen, "compare: nothing in common: none of OLD's %d benchmarks "
			 "(%s) is in NEW (%s, %d)", r[0].n, r[0].path, r[1].path, r[1].n);
		return -1;
	}
	qsort(*rows, *nrows, sizeof(**rows), cmp_row);
	return 0;
}


void sb_cmp_rows_free(struct sb_cmp_row *rows, int nrows)
{
	for (int i = 0; i < nrows; i++)
		free(rows[i].group);
	free(rows);
}

static void csv_rows(const struct sb_cmp_row *rows, int nrows)
{
	for (int k = 0; k < nrows; k++) {
		const struct sb_cmp_row *w = &rows[k];
		char o[64], n[64], c[64], p[64], om[64], oM[64], nm[64], nM[64], cv[2][64];
		char lo[64], hi[64];

		sb_fmt_value(o, sizeof(o), w->old->median);
		sb_fmt_value(n, sizeof(n), w->new->median);
		sb_cmp_fmt_change(c, sizeof(c), w->change);
		sb_fmt_g(p, sizeof(p), w->p, 4);
		sb_fmt_value(om, sizeof(om), w->old->nreps ? w->old->min : NAN);
		sb_fmt_value(oM, sizeof(oM), w->old->nreps ? w->old->max : NAN);
		sb_fmt_value(nm, sizeof(nm), w->new->nreps ? w->new->min : NAN);
		sb_fmt_value(nM, sizeof(nM), w->new->nreps ? w->new->max : NAN);
		sb_fmt_g(cv[0], sizeof(cv[0]), w->cv[0], 4);
		sb_fmt_g(cv[1], sizeof(cv[1]), w->cv[1], 4);
		/* a preempted point has no verdict: no bounds, its mark for the word */
		sb_fmt_g(lo, sizeof(lo), *w->preempt ? NAN : w->iv.lo, 4);
		sb_fmt_g(hi, sizeof(hi), *w->preempt ? NAN : w->iv.hi, 4);
		if (w->no_subject) {	/* no numbers: the verdict says why */
			printf("%s,%s,%ld,,,,,,,%d,%d,,,,,,,,,left out,%s\n", w->old->name,
			       w->group, w->threads, w->old->nreps, w->new->nreps, w->no_subject);
			continue;
		}
		printf("%s,%s,%ld,%s,%s,%s,%s,%s,%s,%d,%d,%s,%s,%s,%s,%s,%s,%d,%d,%s,%s\n",
		       w->old->name, w->group, w->threads, o, n, c, lo, hi, p, w->old->nreps,
		       w->new->nreps, om, oM, nm, nM, cv[0], cv[1], w->noisy[0], w->noisy[1],
		       w->verdict, *w->preempt ? w->preempt : sb_interval_word(&w->iv));
	}
}

/* The table of group rows[i..end), returning end; CV and p(U) columns if any has one. */
static int group_table(enum sb_cmp_fmt f, const struct sb_cmp_row *rows, int nrows, int i,
		       bool *shown_cv)
{
	static const char *const head[] = { "Prev", "CV", "Current", "CV", "%Change",
					    "95 % interval", "p(U)" };
	struct sb_cmp_cells c = { 0 };
	int end = i, ncols = 4, k;
	bool sig = false, cvs = false;

	while (end < nrows && !strcmp(rows[end].group, rows[i].group))
		end++;
	for (k = i; k < end && rows[k].no_subject; k++)
		;
	if (k == end)	/* every row left out: no table (left_out says why) */
		return end;
	for (k = i; k < end; k++) {
		if (rows[k].no_subject)
			continue;
		sig |= !isnan(rows[k].p) || (rows[k].old->nreps >= 2 && rows[k].new->nreps >= 2);
		cvs |= !isnan(rows[k].cv[0]) || !isnan(rows[k].cv[1]);
	}
	*shown_cv |= cvs;
	/* the interval column always: a %Change without a verdict is what it replaces */
	ncols += (cvs ? 2 : 0) + 1 + (sig ? 1 : 0);
	sb_cmp_add(&c, rows[i].threads < 0 ? "benchmark" : "threads");
	for (k = 0; k < 7; k++)
		if ((cvs || (k != 1 && k != 3)) && (sig || k != 6))
			sb_cmp_add(&c, head[k]);
	for (k = i; k < end; k++) {
		char buf[32];

		if (rows[k].no_subject)
			continue;
		snprintf(buf, sizeof(buf), "%ld", rows[k].threads);
		sb_cmp_add(&c, rows[k].threads < 0 ? "-" : buf);
		sb_cmp_row_cells(&c, &rows[k], cvs, sig, 4);
	}
	sb_cmp_fprint_table(stdout, f, rows[i].group, ncols, &c);
	sb_cmp_cells_free(&c);
	return end;
}

/* what the marks mean, once, under the tables */
static void legend(const struct sb_results r[2], const struct sb_cmp_row *rows, int nrows,
		   bool shown_cv)
{
	bool bare = false;

	for (int i = 0; i < nrows; i++)
		bare |= !isnan(rows[i].change) && isnan(rows[i].p) && isnan(rows[i].cv[0]) &&
			isnan(rows[i].cv[1]);
	if (shown_cv)
		printf("CV: of the repetitions, \"noisy\" above the run's threshold (OLD %g %%, NEW "
		       "%g %%).\n", r[0].cv_threshold, r[1].cv_threshold);
	if (shown_cv)
		printf("95 %% interval: of the %%Change, a bootstrap of the medians (docs/compare.md)"
		       "; changed: it excludes 0 %%, ~: it holds 0 %% (within the noise),\nn too "
		       "small: a side has under %d repetitions, no interval; preempted: a side's "
		       "members were off their CPUs, no verdict (docs/results.md).\n\n",
		       SB_IV_MIN_REPS);
	if (bare)
		printf("A %%Change of single runs (\"n too small\") has no noise estimate: run "
		       "with --benchmark_repetitions=5 or more to know what to trust\n\n");
	for (int i = 0; i < nrows; i++)
		if (rows[i].old->nreps >= 2 && rows[i].new->nreps >= 2 &&
		    (rows[i].old->nreps <= 8 || rows[i].new->nreps <= 8)) {
			int m = rows[i].old->nreps, n = rows[i].new->nreps;

			printf("p(U): two-sided Mann-Whitney U over repetitions (* below 0.05); "
			       "with %d and %d repetitions it cannot go below %.3g; the verdict "
			       "follows the interval\n\n", m, n, sb_mann_whitney_min_p(m, n));
			break;
		}
}

static const char *fam_of(const struct sb_cmp_row *w)
{
	return w->old->has_point ? w->old->pt.family : w->old->name;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

/* "left out: FAMILY/ANY at 1, 2 threads (N comparisons): REASON", once per
 * family and reason */
static void left_out(const struct sb_cmp_row *rows, int nrows)
{
	for (int i = 0; i < nrows; i++) {
		long t[64];
		int n = 0, nt = 0;
		bool seen = false;
		char at[400] = "";
		size_t len = 0;

		if (!rows[i].no_subject)
			continue;
		for (int j = 0; j < i && !seen; j++)
			seen = rows[j].no_subject == rows[i].no_subject &&
			       !strcmp(fam_of(&rows[j]), fam_of(&rows[i]));
		for (int j = i; j < nrows && !seen; j++) {
			bool dup = false;

			if (rows[j].no_subject != rows[i].no_subject ||
			    strcmp(fam_of(&rows[j]), fam_of(&rows[i])))
				continue;
			n++;
			for (int k = 0; k < nt && !dup; k++)
				dup = t[k] == rows[j].threads;
			if (!dup && nt < 64)
				t[nt++] = rows[j].threads;
		}
		if (seen)
			continue;
		qsort(t, nt, sizeof(*t), cmp_long);
		for (int k = 0; k < nt && len < sizeof(at); k++)
			len += (size_t)snprintf(at + len, sizeof(at) - len, "%s%ld", k ? ", " : "",
						t[k]);
		printf("left out: %s/* at %s thread%s (%d comparison%s): %s\n\n", fam_of(&rows[i]),
		       at, nt == 1 && t[0] == 1 ? "" : "s", n, n == 1 ? "" : "s",
		       rows[i].no_subject);
	}
}

static bool is_dir(const char *path)
{
	struct stat sb;

	return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

/* A side's ab.json (run --ab), if any: within-run intervals beat separate runs' medians. */
static void ab_section(const char *side, const char *path)
{
	struct sb_ab_cmp *c;
	char err[SB_ERR_MAX], where[PATH_MAX + 8];
	int n, rc = is_dir(path) ? sb_ab_read(path, &c, &n, err, sizeof(err)) : 1;

	if (rc < 0)
		fprintf(stderr, "stratbench: note: %s: its paired comparisons are not shown\n", err);
	if (rc)
		return;
	snprintf(where, sizeof(where), "%s %s", side, path);
	putchar('\n');
	sb_ab_print_section(stdout, where, c, n);
	free(c);
}

int sb_cmp_ab_only(const char *dir, char *err, size_t errlen)
{
	struct sb_ab_cmp *c;
	int n, rc = is_dir(dir) ? sb_ab_read(dir, &c, &n, err, errlen) : 1;

	if (rc > 0 && !is_dir(dir))
		snprintf(err, errlen, "compare needs two results, OLD and NEW (directories "
			 "or Google Benchmark JSON files), or one directory holding ab.json");
	else if (rc > 0)
		snprintf(err, errlen, "compare needs two results, OLD and NEW, or one "
			 "directory holding ab.json ('%s' holds none: see run --ab)", dir);
	if (rc)
		return -1;
	sb_ab_print_section(stdout, NULL, c, n);
	free(c);
	return 0;
}

/* "kernel: Prev's vs Current's" from sb_kernel: a kernel A/B (scripts/lab-ab.sh) reads it */
static void print_kernels(const struct sb_results *r)
{
	const char *k[2];

	/* NULL for a context absent, a key absent or not a string */
	for (int i = 0; i < 2; i++)
		k[i] = json_string_value(json_object_get(r[i].context, "sb_kernel"));
	if (k[0] || k[1])
		printf("kernel: %s vs %s\n", k[0] ? k[0] : "unknown", k[1] ? k[1] : "unknown");
}

static bool in_rows(const struct sb_bm *b, const struct sb_cmp_row *rows, int nrows)
{
	for (int i = 0; i < nrows; i++)
		if (rows[i].old == b || rows[i].new == b)
			return true;
	return false;
}

/* never dropped silently: what only one side has, and the failed runs */
static void print_rest(enum sb_cmp_fmt f, const struct sb_results r[2],
		       const struct sb_cmp_row *rows, int nrows)
{
	for (int s = 0; s < 2; s++)
		for (int i = 0; i < r[s].n; i++) {
			if (in_rows(&r[s].bm[i], rows, nrows))
				continue;
			if (f == SB_CMP_CSV)
				printf("%s,,,%s,%s,,,,,,,,,,,,,,,,\n", r[s].bm[i].name, s ? "" : "only",
				       s ? "only" : "");
			else
				printf("only in %s (%s): %s\n", s ? "NEW" : "OLD", r[s].path,
				       r[s].bm[i].name);
		}
	for (int i = 0; i < nrows; i++)
		if ((rows[i].old->failed || rows[i].new->failed) && f != SB_CMP_CSV)
			printf("failed runs in %s: %s\n", rows[i].old->failed ? "OLD" : "NEW",
			       rows[i].old->name);
}

void sb_cmp_report(enum sb_cmp_fmt f, const char *const paths[2], const struct sb_results r[2],
		   const char *metric, const struct sb_cmp_row *rows, int nrows,
		   enum sb_cmp_unit u)
{
	bool shown_cv = false;

	if (f == SB_CMP_CSV) {
		printf("name,group,threads,old,new,change_pct,change_lo_pct,change_hi_pct,p_value,"
		       "old_n,new_n,old_min,old_max,new_min,new_max,old_cv_pct,new_cv_pct,old_noisy,"
		       "new_noisy,verdict,interval\n");
		csv_rows(rows, nrows);
	} else {
		printf("%s: %s (%s) vs %s (%s)\n", metric, r[0].label ? r[0].label : "Prev",
		       r[0].path, r[1].label ? r[1].label : "Current", r[1].path);
		print_kernels(r);
		putchar('\n');
		for (int i = 0; i < nrows;)
			i = group_table(f, rows, nrows, i, &shown_cv);
		legend(r, rows, nrows, shown_cv);
		left_out(rows, nrows);
		sb_cmp_counter_tables(f, rows, nrows, u);
		for (int i = 0; i < 2; i++)
			ab_section(i ? "NEW" : "OLD", paths[i]);
	}
	print_rest(f, r, rows, nrows);
}

int sb_cmp_regressions(const struct sb_cmp_row *rows, int nrows, const char *metric, int worse,
		       double pct)
{
	int n = 0;

	for (int i = 0; i < nrows; i++) {
		const struct sb_cmp_row *w = &rows[i];
		char p[96];

		if (w->no_subject || isnan(w->change) || w->noise || worse * w->change <= pct)
			continue;
		if (*w->preempt) {	/* out of the verdicts (results/preempt.h): said, not counted */
			fprintf(stderr, "stratbench: compare: not judged: %s: %s\n", w->old->name,
				w->preempt);
			continue;
		}
		if (w->iv.verdict == SB_IV_CHANGED)
			sb_interval_fmt(p, sizeof(p), &w->iv);
		else if (w->iv.verdict == SB_IV_FEW)
			snprintf(p, sizeof(p), "n too small for an interval: need %d repetitions "
				 "a side", w->iv.need);
		else
			snprintf(p, sizeof(p), "no interval");
		fprintf(stderr, "stratbench: compare: regression beyond %g %%: %s: %s %.6g %% "
			"(%s)\n", pct, w->old->name, metric, w->change, p);
		n++;
	}
	return n;
}
