/* compare_counters.c — compare.h: the counter tables, the seed changelog's
 * `Event Before After %Change` with the %Change's interval, per op by default.
 * Why per op: a microbenchmark's run has no fixed length (Google Benchmark picks
 * the iterations), so two runs' totals differ by their lengths, not their costs;
 * per op (cnt:NAME/op, the driver's total / all members' ops) is comparable, per
 * second (per op x ops_per_s) reads better for what accrues with time (ticks,
 * switches), and the totals stay on request.  An event absent from a side is
 * n/a there (not measured), a measured 0 is 0; events 0 on both sides are
 * dropped, and a benchmark with no event left. */
#include "tables/compare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* as perf stat: whole numbers with thousands separators (14,285,708); below 1000
 * and fractional: 6 significant digits, never e-notation (0.00000104872) */
static void fmt_count(char *buf, size_t n, double v)
{
	char digits[64];
	size_t len, o = 0;

	if (isnan(v) || fabs(v) >= 1e18) {
		sb_fmt_value(buf, n, v);
		return;
	}
	if (fabs(v) < 1000 && v != floor(v)) {
		int dec = 5 - (int)floor(log10(fabs(v)));

		snprintf(buf, n, "%.*f", dec < 0 ? 0 : dec > 15 ? 15 : dec, v);
		for (len = strlen(buf); len > 1 && buf[len - 1] == '0'; len--)
			buf[len - 1] = '\0';
		if (len > 1 && buf[len - 1] == '.')
			buf[len - 1] = '\0';
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

enum { EV_PERF, EV_VMSTAT, EV_IRQ };

static int ev_kind(const char *key)
{
	return !strncmp(key, "cnt:vmstat:", 11) ? EV_VMSTAT :
	       !strncmp(key, "cnt:irq:", 8) ? EV_IRQ : EV_PERF;
}

static int cmp_key(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	int c = ev_kind(x) - ev_kind(y);

	return c ? c : strcmp(x, y);
}

/* "cnt:NAME" of a key cnt:NAME or cnt:NAME/op into buf, false: not an event */
static bool event_name(const char *key, json_t *v, char *buf, size_t n)
{
	size_t len = strlen(key);

	if (strncmp(key, "cnt:", 4) || len <= 4 || !json_is_number(v) || len >= n)
		return false;
	if (len > 7 && !strcmp(key + len - 3, "/op"))
		len -= 3;
	snprintf(buf, n, "%.*s", (int)len, key);
	return true;
}

static void add_name(char ***names, int *n, int *cap, const char *name)
{
	char *d;

	for (int i = 0; i < *n; i++)
		if (!strcmp((*names)[i], name))
			return;
	d = strdup(name);
	if (d && !SB_GROW(*names, *cap, *n + 1))
		(*names)[(*n)++] = d;
	else
		free(d);
}

/* the events either side reports, perf events first, then vmstat, interrupts */
static int event_names(const struct sb_cmp_row *w, char ***names)
{
	const struct sb_bm *side[2] = { w->old, w->new };
	int n = 0, cap = 0;

	*names = NULL;
	for (int s = 0; s < 2; s++) {
		const char *key;
		json_t *v;
		char name[256];

		if (!side[s]->entry)
			continue;
		json_object_foreach(side[s]->entry, key, v)
			if (event_name(key, v, name, sizeof(name)))
				add_name(names, &n, &cap, name);
	}
	if (n)
		qsort(*names, n, sizeof(**names), cmp_key);
	return n;
}

static void free_names(char **names, int n)
{
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* an entry's value of event name (cnt:NAME) in unit u; NaN: not measured */
static double unit_value(json_t *e, const char *name, enum sb_cmp_unit u)
{
	char key[300];

	if (u == SB_CMP_PER_RUN)
		return sb_entry_value(e, name);
	snprintf(key, sizeof(key), "%s/op", name);
	return u == SB_CMP_PER_OP ? sb_entry_value(e, key) :
	       sb_entry_value(e, key) * sb_entry_value(e, "ops_per_s");
}

/* name's values in u over b's repetitions into v (b->nruns + 1 of room): the
 * median aggregate's alone where the file has no repetition; how many */
static int rep_values(const struct sb_bm *b, const char *name, enum sb_cmp_unit u, double *v)
{
	int n = 0;

	for (int r = 0; r < b->nruns; r++) {
		double x = unit_value(b->runs[r], name, u);

		if (!isnan(x))
			v[n++] = x;
	}
	if (!b->nruns && b->entry && !isnan(unit_value(b->entry, name, u)))
		v[n++] = unit_value(b->entry, name, u);
	return n;
}

/* the median of v[0..n) (left in order: the interval reads it after); NaN: none */
static double median_of(const double *v, int n)
{
	double *c = n ? malloc(sizeof(double) * (size_t)n) : NULL, m;

	if (!c)
		return NAN;
	memcpy(c, v, sizeof(double) * (size_t)n);
	m = sb_median(c, n);
	free(c);
	return m;
}

static const char *family_of(const struct sb_cmp_row *w)
{
	return w->old->has_point ? w->old->pt.family : "benchmarks";
}

/* name counted in b's run total, not 0 (whatever the unit shown) */
static bool has_total(const struct sb_bm *b, const char *name)
{
	for (int r = 0; r < b->nruns; r++) {
		double x = unit_value(b->runs[r], name, SB_CMP_PER_RUN);

		if (!isnan(x) && x != 0)
			return true;
	}
	return b->entry && unit_value(b->entry, name, SB_CMP_PER_RUN) > 0;
}

/* one event's cells, or nothing when it is 0 (or unmeasured) on both sides; an
 * event with a run total but no value in u is a row of n/a saying so, never
 * dropped (a total only: --totals shows it) */
static bool event_cells(struct sb_cmp_cells *c, const struct sb_cmp_row *w, const char *name,
			enum sb_cmp_unit u)
{
	double *x = malloc(sizeof(double) * (size_t)(w->old->nruns + 1));
	double *y = malloc(sizeof(double) * (size_t)(w->new->nruns + 1));
	struct sb_interval iv = { NAN, NAN, SB_IV_NONE, SB_IV_MIN_REPS };
	char vb[64], va[64], ch[80], label[300];
	int m = x ? rep_values(w->old, name, u, x) : 0, n = y ? rep_values(w->new, name, u, y) : 0;
	double b = median_of(x, m), a = median_of(y, n);
	bool total_only = isnan(b) && isnan(a) && u != SB_CMP_PER_RUN &&
			  (has_total(w->old, name) || has_total(w->new, name));
	bool shown = total_only || !((isnan(b) || b == 0) && (isnan(a) || a == 0));

	if (shown) {
		fmt_count(vb, sizeof(vb), b);
		fmt_count(va, sizeof(va), a);
		snprintf(label, sizeof(label), "  %s", name + 4);
		sb_cmp_add(c, label);
		sb_cmp_add(c, vb);
		sb_cmp_add(c, va);
		sb_cmp_fmt_delta(ch, sizeof(ch), b, a);
		sb_cmp_add(c, ch);
		if (sb_interval_unpaired(x, m, y, n, &iv))
			iv.verdict = SB_IV_NONE;
		/* a preempted point's counters get no verdict either (results/preempt.h) */
		if (total_only)
			snprintf(ch, sizeof(ch), "n/a: a total only (--totals)");
		else if (*w->preempt)
			snprintf(ch, sizeof(ch), "preempted");
		else
			sb_cmp_fmt_interval(ch, sizeof(ch), &iv, b, a);
		sb_cmp_add(c, ch);
	}
	free(x);
	free(y);
	return shown;
}

/* the rows of family fam (left-out ones skipped), each %Change with its interval
 * and verdict ("n too small: need 3" where a side has no repetitions) */
static void family_table(enum sb_cmp_fmt f, const char *fam, const struct sb_cmp_row *rows,
			 int nrows, enum sb_cmp_unit u)
{
	static const char *const title_of[] = { "per op (median over repetitions; an op is the "
						"family's: docs/output.md)",
						"per second (per op x ops/s, median over "
						"repetitions)",
						"totals per run (median over repetitions; runs "
						"differ in length: see per op)" };
	static const char *const head_of[] = { "Event (per op)", "Event (per s)",
					       "Event (per run)" };
	const char *head[] = { head_of[u], "Before", "After", "%Change", "95 % interval" };
	struct sb_cmp_cells c = { 0 };
	char title[600];
	int events = 0, ncols = 5;	/* the interval always: "n too small" for single runs */
	for (int k = 0; k < ncols; k++)
		sb_cmp_add(&c, head[k]);
	for (int i = 0; i < nrows; i++) {
		char **names = NULL;
		int nk = rows[i].no_subject || strcmp(family_of(&rows[i]), fam) ? 0 :
			 event_names(&rows[i], &names);
		int sub = c.n;	/* the benchmark's sub-header, kept if an event follows */

		for (int e = 0; nk && e < ncols; e++)
			sb_cmp_add(&c, e ? "" : rows[i].old->name);
		for (int k = 0; k < nk; k++)
			events += event_cells(&c, &rows[i], names[k], u);
		if (nk && c.n == sub + ncols) {	/* no event shown: no sub-header */
			for (int e = sub; e < c.n; e++)
				free(c.v[e]);
			c.n = sub;
		}
		free_names(names, nk);
	}
	if (events) {
		snprintf(title, sizeof(title), "%s counters %s", fam, title_of[u]);
		sb_cmp_fprint_table(stdout, f, title, ncols, &c);
	}
	sb_cmp_cells_free(&c);
}

void sb_cmp_counter_tables(enum sb_cmp_fmt f, const struct sb_cmp_row *rows, int nrows,
			   enum sb_cmp_unit u)
{
	/* families in the order of their first row (rows are sorted by group) */
	for (int i = 0; i < nrows; i++) {
		bool first = !rows[i].no_subject;

		for (int j = 0; j < i && first; j++)
			first = rows[j].no_subject ||
				strcmp(family_of(&rows[j]), family_of(&rows[i])) != 0;
		if (first)
			family_table(f, family_of(&rows[i]), rows + i, nrows - i, u);
	}
}
