/* compare_tables.c — compare.h: the value cells, the table printer, the verdict
 * (the counter tables are compare_counters.c's). */
#include "tables/compare.h"
#include "results/preempt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* (new - old) / old * 100; 0 from 0 to 0 (measured, unchanged); NaN: no ratio */
static double change_of(double old, double new)
{
	if (isnan(old) || isnan(new) || (old == 0 && new != 0))
		return NAN;
	return old == 0 ? 0 : (new - old) / old * 100;
}

void sb_cmp_fmt_delta(char *buf, size_t n, double old, double new)
{
	if (old == 0 && !isnan(new) && new != 0)
		snprintf(buf, n, "from 0");
	else
		sb_cmp_fmt_change(buf, n, change_of(old, new));
}

void sb_cmp_fmt_interval(char *buf, size_t n, const struct sb_interval *iv, double old,
			 double new)
{
	if (iv->verdict == SB_IV_NONE && old == 0 && new == 0)
		snprintf(buf, n, "[+0, +0] ~");
	else if (iv->verdict == SB_IV_NONE && old == 0 && !isnan(new))
		snprintf(buf, n, "none: from 0");
	else
		sb_interval_fmt(buf, n, iv);
}

void sb_cmp_fmt_change(char *buf, size_t n, double change)
{
	sb_fmt_g(buf, n, change, 6);
}

void sb_cmp_fmt_row_interval(char *buf, size_t n, const struct sb_cmp_row *w)
{
	if (*w->preempt)
		snprintf(buf, n, "%s", w->preempt);
	else
		sb_cmp_fmt_interval(buf, n, &w->iv, w->old->median, w->new->median);
}

void sb_cmp_fmt_cv(char *buf, size_t n, double cv, bool noisy)
{
	if (isnan(cv))
		snprintf(buf, n, "n/a");
	else
		snprintf(buf, n, "%.3g%%%s", cv, noisy ? " noisy" : "");
}

bool sb_cmp_all_zero(const struct sb_bm *b, const char *metric)
{
	struct sb_stat st;

	sb_bm_stat(b, metric, &st);
	return st.n > 0 && st.min == 0 && st.max == 0;
}

bool sb_cmp_no_remote(const struct sb_bm *b)
{
	return sb_cmp_all_zero(b, "flushes_per_page") && sb_cmp_all_zero(b, "acks_per_page");
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
	sb_cmp_fmt_delta(buf, sizeof(buf), w->old->median, w->new->median);
	sb_cmp_add(c, buf);
	sb_cmp_fmt_row_interval(buf, sizeof(buf), w);
	sb_cmp_add(c, buf);
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
