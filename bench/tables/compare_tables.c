/* compare_tables.c — compare.h.  Counter tables: the seed changelog's with a %Change
 * column; an absent event counts as zero, a benchmark with no event left is dropped. */
#include "tables/compare.h"
#include "results/preempt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* as perf stat: whole numbers with thousands separators (14,285,708); below 1000
 * and fractional: 6 significant digits */
static void fmt_count(char *buf, size_t n, double v)
{
	char digits[64];
	size_t len, o = 0;

	if (isnan(v) || fabs(v) >= 1e18) {
		sb_fmt_value(buf, n, v);
		return;
	}
	if (fabs(v) < 1000 && v != floor(v)) {	/* seconds: 0.000072, never e-notation */
		snprintf(buf, n, "%.6f", v);
		for (len = strlen(buf); len > 1 && buf[len - 1] == '0'; len--)
			buf[len - 1] = '\0';
		if (len > 1 && buf[len - 1] == '.')
			buf[len - 1] = '\0';
		if (fabs(v) < 5e-7)	/* below %.6f: not a zero, 6 digits */
			snprintf(buf, n, "%.6g", v);
		return;
	}
	snprintf(digits, sizeof(digits), "%.0f", fabs(v));
	len = strlen(digits);
	if (v <= -0.5 && o + 1 < n)
		buf[o++] = '-';
	for (size_t i = 0; i < len && o + 2 < n; i++) {
		if (i && (len - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
}

static double change_of(double old, double new)
{
	if (isnan(old) || isnan(new) || old == 0)
		return NAN;
	return (new - old) / old * 100;
}

void sb_cmp_fmt_change(char *buf, size_t n, double change)
{
	sb_fmt_g(buf, n, change, 6);
}

void sb_cmp_fmt_interval(char *buf, size_t n, const struct sb_cmp_row *w)
{
	if (*w->preempt)
		snprintf(buf, n, "%s", w->preempt);
	else
		sb_interval_fmt(buf, n, &w->iv);
}

void sb_cmp_fmt_cv(char *buf, size_t n, double cv, bool noisy)
{
	if (isnan(cv))
		snprintf(buf, n, "n/a");
	else
		snprintf(buf, n, "%.3g%%%s", cv, noisy ? " noisy" : "");
}

void sb_cmp_add(struct sb_cmp_cells *c, const char *s)
{
	char *d = strdup(s);

	if (d && !SB_GROW(c->v, c->cap, c->n + 1))
		c->v[c->n++] = d;
	else {
		free(d);
		c->lost = true;
	}
}

void sb_cmp_cells_free(struct sb_cmp_cells *c)
{
	for (int i = 0; i < c->n; i++)
		free(c->v[i]);
	free(c->v);
}

void sb_cmp_row_cells(struct sb_cmp_cells *c, const struct sb_cmp_row *w, bool cvs, bool sig,
		      int p_digits)
{
	char buf[80];

	for (int s = 0; s < 2; s++) {
		sb_fmt_value(buf, sizeof(buf), s ? w->new->median : w->old->median);
		sb_cmp_add(c, buf);
		if (cvs) {
			sb_cmp_fmt_cv(buf, sizeof(buf), w->cv[s], w->noisy[s]);
			sb_cmp_add(c, buf);
		}
	}
	sb_cmp_fmt_change(buf, sizeof(buf), w->change);
	sb_cmp_add(c, buf);
	if (cvs || sig) {
		sb_cmp_fmt_interval(buf, sizeof(buf), w);
		sb_cmp_add(c, buf);
	}
	if (sig) {
		sb_fmt_p(buf, sizeof(buf), w->p, p_digits);
		sb_cmp_add(c, buf);
	}
}

static bool subheader(char **row, int ncols)
{
	for (int c = 1; c < ncols; c++)
		if (*row[c])
			return false;
	return ncols > 1;
}

void sb_cmp_fprint_table(FILE *o, enum sb_cmp_fmt f, const char *title, int ncols,
			 struct sb_cmp_cells *t)
{
	int w[SB_CMP_MAXCOLS] = { 0 }, nrows = t->n / ncols, r, c;
	char **cells = t->v;

	if (t->lost || t->n % ncols)
		return;
	if (f == SB_CMP_TEXT) {
		for (r = 0; r < nrows; r++) {
			if (r && subheader(cells + (size_t)r * ncols, ncols))
				continue;
			for (c = 0; c < ncols; c++)
				if ((int)strlen(cells[r * ncols + c]) > w[c])
					w[c] = (int)strlen(cells[r * ncols + c]);
		}
		fprintf(o, "%s\n", title);
		for (r = 0; r < nrows; r++) {
			if (r && subheader(cells + (size_t)r * ncols, ncols)) {
				fprintf(o, "%s\n", cells[(size_t)r * ncols]);
				continue;
			}
			for (c = 0; c < ncols; c++)
				if (c < ncols - 1)
					fprintf(o, "%-*s  ", w[c], cells[r * ncols + c]);
				else
					fprintf(o, "%s", cells[r * ncols + c]);
			fputc('\n', o);
		}
	} else {
		fprintf(o, "**%s**\n\n", title);
		for (r = 0; r < nrows; r++) {
			bool sub = r && subheader(cells + (size_t)r * ncols, ncols);

			fprintf(o, "|");
			for (c = 0; c < ncols; c++)
				fprintf(o, sub && !c ? " **%s** |" : " %s |", cells[r * ncols + c]);
			fputc('\n', o);
			if (r == 0) {
				fprintf(o, "|");
				for (c = 0; c < ncols; c++)
					fprintf(o, c ? "---:|" : ":---|");
				fputc('\n', o);
			}
		}
	}
	fputc('\n', o);
}

/* The verdict follows the interval; without one (a side under SB_IV_MIN_REPS
 * repetitions, a value with no ratio) the change is taken as is, never as noise:
 * the tables say "n too small" beside it.  p(U) stays as a column. */
void sb_cmp_judge(struct sb_cmp_row *w, const double threshold[2], const char *metric, int worse)
{
	const struct sb_bm *side[2] = { w->old, w->new };

	w->change = change_of(w->old->median, w->new->median);
	w->p = w->old->nreps >= 2 && w->new->nreps >= 2 ?
	       sb_mann_whitney_p(w->old->reps, w->old->nreps, w->new->reps, w->new->nreps) : NAN;
	if (sb_interval_unpaired(w->old->reps, w->old->nreps, w->new->reps, w->new->nreps,
				 &w->iv))
		w->iv.verdict = SB_IV_NONE;	/* out of memory: no interval, said n/a */
	for (int s = 0; s < 2; s++) {
		struct sb_stat st;

		sb_bm_stat(side[s], metric, &st);
		w->cv[s] = isnan(st.cv) ? side[s]->cv : st.cv;	/* aggregates only: GB's */
		w->noisy[s] = !isnan(w->cv[s]) && w->cv[s] > threshold[s];
	}
	w->noise = !isnan(w->change) && w->iv.verdict == SB_IV_SAME;
	if (isnan(w->change))
		w->verdict = "n/a";
	else if (w->noise || w->change == 0)
		w->verdict = "noise";
	else if (!worse)
		w->verdict = w->change > 0 ? "up" : "down";
	else
		w->verdict = (w->change > 0) == (worse > 0) ? "worse" : "better";
	/* a side whose members were off their CPUs measured the host: no verdict */
	if (sb_preempt_bm(w->new, w->preempt, sizeof(w->preempt)) ||
	    sb_preempt_bm(w->old, w->preempt, sizeof(w->preempt)))
		w->verdict = "preempted";
}

int sb_cmp_worse(const char *m)
{
	size_t len = strlen(m);

#define ENDS(s) (len >= sizeof(s) - 1 && !strcmp(m + len - (sizeof(s) - 1), s))
	if (!strncmp(m, "cnt:", 4))
		return 0;	/* events: a count says nothing of better */
	if (!strcmp(m, "real_time") || !strcmp(m, "cpu_time") || !strncmp(m, "ns_", 3) ||
	    !strncmp(m, "us_", 3) || !strncmp(m, "ms_", 3) || ENDS("_per_page"))
		return 1;	/* time, and what a page costs */
	if (ENDS("_per_s") || ENDS("_per_second"))
		return -1;	/* rates */
#undef ENDS
	return 0;
}

/* --- counter tables */

enum { EV_PERF, EV_VMSTAT, EV_IRQ };

static int ev_kind(const char *key)
{
	return !strncmp(key, "cnt:vmstat:", 11) ? EV_VMSTAT :
	       !strncmp(key, "cnt:irq:", 8) ? EV_IRQ : EV_PERF;
}

/* a total: cnt:NAME, not its /op twin */
static bool is_total(const char *key, json_t *v)
{
	size_t len = strlen(key);

	return !strncmp(key, "cnt:", 4) && len > 4 && json_is_number(v) &&
	       !(len >= 3 && !strcmp(key + len - 3, "/op"));
}

static int cmp_key(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	int c = ev_kind(x) - ev_kind(y);

	return c ? c : strcmp(x, y);
}

/* the totals either side has, perf events first, then vmstat, interrupts */
static int event_keys(const struct sb_cmp_row *w, const char ***keys)
{
	const struct sb_bm *side[2] = { w->old, w->new };
	int n = 0, cap = 0;

	*keys = NULL;
	for (int s = 0; s < 2; s++) {
		const char *key;
		json_t *v;

		if (!side[s]->entry)
			continue;
		json_object_foreach(side[s]->entry, key, v) {
			bool dup = false;

			if (!is_total(key, v))
				continue;
			for (int i = 0; i < n && !dup; i++)
				dup = !strcmp((*keys)[i], key);
			if (!dup && !SB_GROW(*keys, cap, n + 1))
				(*keys)[n++] = key;
		}
	}
	if (n)
		qsort(*keys, n, sizeof(**keys), cmp_key);
	return n;
}

static double total(const struct sb_bm *b, const char *key)
{
	struct sb_stat s;

	sb_bm_stat(b, key, &s);
	return s.median;
}

static const char *family_of(const struct sb_cmp_row *w)
{
	return w->old->has_point ? w->old->pt.family : "benchmarks";
}

/* key's values over b's repetitions into v (b->nruns of room), how many */
static int rep_values(const struct sb_bm *b, const char *key, double *v)
{
	int n = 0;

	for (int r = 0; r < b->nruns; r++) {
		double x = sb_entry_value(b->runs[r], key);

		if (!isnan(x))
			v[n++] = x;
	}
	return n;
}

/* the %Change's interval of key's totals, as the value tables' (sb_interval_fmt) */
static void event_interval(char *buf, size_t len, const struct sb_cmp_row *w, const char *key)
{
	double *x = malloc(sizeof(double) * (w->old->nruns + 1));
	double *y = malloc(sizeof(double) * (w->new->nruns + 1));
	struct sb_interval iv = { NAN, NAN, SB_IV_NONE, SB_IV_MIN_REPS };

	if (x && y && sb_interval_unpaired(x, rep_values(w->old, key, x), y,
					   rep_values(w->new, key, y), &iv))
		iv.verdict = SB_IV_NONE;
	sb_interval_fmt(buf, len, &iv);
	free(x);
	free(y);
}

/* the rows of family fam: events zero on both sides dropped; the interval column
 * where a benchmark has repetitions on both sides (single runs: the seed's table) */
static void family_table(enum sb_cmp_fmt f, const char *fam, const struct sb_cmp_row *rows,
			 int nrows)
{
	static const char *const head[] = { "Event", "Before", "After", "%Change",
					    "95 % interval" };
	struct sb_cmp_cells c = { 0 };
	char title[600];
	int events = 0, ncols = 4;

	for (int i = 0; i < nrows; i++)
		if (!strcmp(family_of(&rows[i]), fam) && rows[i].old->nruns >= 2 &&
		    rows[i].new->nruns >= 2)
			ncols = 5;
	for (int k = 0; k < ncols; k++)
		sb_cmp_add(&c, head[k]);
	for (int i = 0; i < nrows; i++) {
		const char **keys = NULL;
		int nk = strcmp(family_of(&rows[i]), fam) ? 0 : event_keys(&rows[i], &keys);
		bool sub = false;	/* the benchmark's sub-header */

		for (int k = 0; k < nk; k++) {
			double b = total(rows[i].old, keys[k]), a = total(rows[i].new, keys[k]);
			char vb[64], va[64], ch[64], name[300];

			if ((isnan(b) || b == 0) && (isnan(a) || a == 0))
				continue;
			for (int e = 0; !sub && e < ncols; e++)
				sb_cmp_add(&c, e ? "" : rows[i].old->name);
			sub = true;
			fmt_count(vb, sizeof(vb), b);
			fmt_count(va, sizeof(va), a);
			sb_cmp_fmt_change(ch, sizeof(ch), change_of(b, a));
			snprintf(name, sizeof(name), "  %s", keys[k] + 4);
			sb_cmp_add(&c, name);
			sb_cmp_add(&c, vb);
			sb_cmp_add(&c, va);
			sb_cmp_add(&c, ch);
			if (ncols == 5) {
				event_interval(ch, sizeof(ch), &rows[i], keys[k]);
				sb_cmp_add(&c, ch);
			}
			events++;
		}
		free(keys);
	}
	if (events) {
		snprintf(title, sizeof(title), "%s counters: totals per run (median over repetitions)",
			 fam);
		sb_cmp_fprint_table(stdout, f, title, ncols, &c);
	}
	sb_cmp_cells_free(&c);
}

void sb_cmp_counter_tables(enum sb_cmp_fmt f, const struct sb_cmp_row *rows, int nrows)
{
	/* families in the order of their first row (rows are sorted by group) */
	for (int i = 0; i < nrows; i++) {
		bool first = true;

		for (int j = 0; j < i && first; j++)
			first = strcmp(family_of(&rows[j]), family_of(&rows[i])) != 0;
		if (first)
			family_table(f, family_of(&rows[i]), rows + i, nrows - i);
	}
}
