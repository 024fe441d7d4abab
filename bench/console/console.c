/* console.c — console.h.  Point columns come from the typed points (point.h: the
 * parameters varying within the family too), never the name; metrics: metrics[]. */
#include "console/console.h"
#include "results/point.h"
#include "results/preempt.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static struct sb_console_cfg cfg;
static bool owned;

int sb_console_mode_parse(const char *s, enum sb_console_mode *m)
{
	static const char *const names[] = { "table", "gbench", "counters" };

	for (int i = 0; i < 3; i++)
		if (!strcmp(s, names[i])) {
			*m = (enum sb_console_mode)i;
			return 0;
		}
	return -1;
}

bool sb_console_owns(void) { return owned; }

/* --- values ---------------------------------------------------------------- */

enum fmt {
	F_SI,		/* 12.3M */
	F_NS,		/* 4.56, 1234 */
	F_G3,		/* 3 significant digits */
	F_PCT,		/* a fraction as 12.3% */
	F_FIX3,		/* 0.998 */
	F_INT,		/* 0, 12 */
};

/* x with 3 significant digits and no exponent down to 0.001 */
static void fmt_g3(char *buf, size_t n, double x)
{
	double a = fabs(x);

	/* the bounds as printf rounds: 9.996 is "10.0", not "10.00" */
	if (a >= 99.95 || a == 0)
		snprintf(buf, n, "%.0f", x);
	else if (a >= 9.995)
		snprintf(buf, n, "%.1f", x);
	else if (a >= 0.9995)
		snprintf(buf, n, "%.2f", x);
	else if (a >= 0.001)	/* '#': 0.870, not 0.87 */
		snprintf(buf, n, "%#.3g", x);
	else
		snprintf(buf, n, "%.2e", x);
}

static void fmt_si(char *buf, size_t n, double x)
{
	static const char suffix[] = " kMGTP";
	double a = fabs(x);
	int k = 0;

	while (a >= 999.5 && k < 5) {
		a /= 1000;
		x /= 1000;
		k++;
	}
	fmt_g3(buf, n, x);
	if (k)
		snprintf(buf + strlen(buf), n - strlen(buf), "%c", suffix[k]);
}

static void fmt_value(char *buf, size_t n, enum fmt f, double x)
{
	if (!isfinite(x)) {
		snprintf(buf, n, "-");
		return;
	}
	switch (f) {
	case F_SI:
		fmt_si(buf, n, x);
		break;
	case F_NS:
		if (fabs(x) < 999.5)
			fmt_g3(buf, n, x);
		else if (fabs(x) < 1e9)
			snprintf(buf, n, "%.0f", x);
		else
			fmt_si(buf, n, x);
		break;
	case F_PCT:
		fmt_g3(buf, n, 100 * x);
		snprintf(buf + strlen(buf), n - strlen(buf), "%%");
		break;
	case F_FIX3:
	case F_INT:
		snprintf(buf, n, "%.*f", f == F_FIX3 ? 3 : 0, x);
		break;
	default:
		fmt_g3(buf, n, x);
	}
}

/* --- the family's columns ------------------------------------------------- */

struct metric {
	const char *family;	/* NULL: every family */
	bool fidelity;		/* only when the family has a window fidelity point */
	const char *title;
	int width;
	enum fmt fmt;
	const char *key[2];	/* the counter, else one the other driver reports */
	double scale[2];
};

/* docs/results.md "Counters"; the kernel shootdown's pages_per_s, us_per_page and
 * tlb_irqs_per_page stand for the simulated one's ops_per_s, ns_per_page, acks_per_page */
static const struct metric metrics[] = {
	{ NULL, false, "ops/s", 7, F_SI, { "ops_per_s", "pages_per_s" }, { 1, 1 } },
	{ NULL, false, "ns/op", 7, F_NS, { "ns_per_op" }, { 1 } },
	{ NULL, false, "fair", 5, F_FIX3, { "jain" }, { 1 } },
	{ "window", false, "limited", 7, F_PCT, { "limited" }, { 1 } },
	{ "window", true, "stretch", 7, F_G3, { "stretch" }, { 1 } },
	{ "window", true, "admit", 6, F_G3, { "admit_ratio" }, { 1 } },
	{ "shootdown", false, "ns/page", 7, F_NS, { "ns_per_page", "us_per_page" }, { 1, 1000 } },
	{ "shootdown", false, "flush/pg", 8, F_G3, { "flushes_per_page" }, { 1 } },
	{ "shootdown", false, "IPIs/pg", 7, F_G3, { "acks_per_page", "tlb_irqs_per_page" },
	  { 1, 1 } },
	{ "shootdown", false, "viol", 5, F_INT, { "violations" }, { 1 } },
	{ "calibrate", false, "1-way ns", 8, F_NS, { "one_way_ns" }, { 1 } },
	{ "calibrate", false, "us/call", 7, F_G3, { "us_per_call" }, { 1 } },
};
#define NMETRICS (sizeof(metrics) / sizeof(metrics[0]))

enum field { P_STRATEGY, P_LOCK, P_THREADS, P_PLACE, P_PARAM };
static const char *const titles[] = { "strategy", "lock", "threads", "place" };

#define MAX_PCOLS 10
#define MAX_PARAM_WIDTH 16

static struct table {
	char family[32];
	struct {
		enum field field;
		char key[24];	/* P_PARAM's */
		int width;
	} pcol[MAX_PCOLS];
	int npcols;
	const struct metric *m[NMETRICS];
	int nm;
	bool cv;		/* repetitions > 1: a cv column after ops/s */
} tb;

static const char *field_text(const struct sb_point_fields *f, enum field which,
			      const char *key, char *buf, size_t n)
{
	const char *v;

	switch (which) {
	case P_STRATEGY:
		return f->strategy;
	case P_LOCK:
		return f->lock[0] ? f->lock : "-";
	case P_THREADS:
		snprintf(buf, n, "%d", f->threads);
		return buf;
	case P_PLACE:
		return f->placement;
	default:
		v = sb_params_get(&f->params, key);
		return v ? v : "-";
	}
}

/* a column as wide as its title: titles[which], a parameter's key */
static void add_pcol(enum field which, const char *key)
{
	if (tb.npcols == MAX_PCOLS)
		return;
	tb.pcol[tb.npcols].field = which;
	snprintf(tb.pcol[tb.npcols].key, sizeof(tb.pcol[0].key), "%s", key ? key : "");
	tb.pcol[tb.npcols++].width = (int)strlen(key ? key : titles[which]);
}

/* the i-th planned point if it belongs to the table's family, else NULL */
static const struct sb_point_fields *family_point(int i)
{
	const struct sb_point_fields *f = sb_points_at(i);

	return f && !strcmp(f->family, tb.family) ? f : NULL;
}

/* two points of the family differ in the parameter (absent is a value) */
static bool param_varies(const char *key)
{
	const char *first = NULL;

	for (int i = 0; i < sb_points_count(); i++) {
		const struct sb_point_fields *f = family_point(i);
		const char *v = f ? sb_params_get(&f->params, key) : NULL;

		if (!f)
			continue;
		v = v ? v : "";
		if (first && strcmp(v, first))
			return true;
		first = v;
	}
	return false;
}

static bool has_param_col(const char *key)
{
	for (int i = 0; i < tb.npcols; i++)
		if (tb.pcol[i].field == P_PARAM && !strcmp(tb.pcol[i].key, key))
			return true;
	return false;
}

/* the varying parameters, in the order the points show them */
static void param_columns(void)
{
	for (int i = 0; i < sb_points_count(); i++) {
		const struct sb_point_fields *f = family_point(i);

		for (int k = 0; f && k < f->params.n; k++) {
			const char *key = f->params.p[k].key;

			if (!has_param_col(key) && param_varies(key))
				add_pcol(P_PARAM, key);
		}
	}
}

/* each point column as wide as its widest value (a parameter's capped) */
static void column_widths(void)
{
	char buf[32];

	for (int i = 0; i < sb_points_count(); i++) {
		const struct sb_point_fields *f = family_point(i);

		for (int c = 0; f && c < tb.npcols; c++) {
			const char *t = field_text(f, tb.pcol[c].field, tb.pcol[c].key, buf,
						   sizeof(buf));
			int w = (int)strlen(t);

			if (tb.pcol[c].field == P_PARAM && w > MAX_PARAM_WIDTH)
				w = MAX_PARAM_WIDTH;
			if (w > tb.pcol[c].width)
				tb.pcol[c].width = w;
		}
	}
}

/* the table's columns for tb.family, from every planned point of it */
static void table_columns(void)
{
	bool lock = false, fidelity = false;

	/* what the family's points hold: a lock, a window fidelity point */
	for (int i = 0; i < sb_points_count(); i++) {
		const struct sb_point_fields *f = family_point(i);
		const char *mode = f ? sb_params_get(&f->params, "mode") : NULL;

		lock |= f && f->lock[0] != '\0';
		fidelity |= f && !strcmp(f->family, "window") && mode && !strcmp(mode, "fidelity");
	}
	tb.npcols = 0;
	for (int c = P_STRATEGY; c < P_PARAM; c++)
		if (c != P_LOCK || lock)
			add_pcol((enum field)c, NULL);
	param_columns();
	column_widths();
	tb.nm = 0;
	for (size_t i = 0; i < NMETRICS; i++)
		if ((!metrics[i].family || !strcmp(metrics[i].family, tb.family)) &&
		    (!metrics[i].fidelity || fidelity))
			tb.m[tb.nm++] = &metrics[i];
}

/* --- one benchmark's reports ---------------------------------------------- */

struct group {
	json_t *row;		/* the median aggregate, else the first good run */
	json_t *cv;		/* the cv aggregate, NULL: none */
	const char *error;	/* the first run's error, NULL: none */
	const char *label;	/* why a value is missing ("" or NULL: nothing) */
	int reps;
	char preempt[96];	/* results/preempt.h's mark, "": none */
};

static const char *str_or(json_t *e, const char *key, const char *dflt)
{
	const char *v = json_string_value(json_object_get(e, key));

	return v ? v : dflt;
}

static void read_group(json_t *arr, struct group *g)
{
	json_t *e, *first = NULL, *median = NULL;
	size_t i;

	memset(g, 0, sizeof(*g));
	json_array_foreach(arr, i, e) {
		const char *agg = str_or(e, "aggregate_name", "");
		bool is_agg = !strcmp(str_or(e, "run_type", ""), "aggregate");

		if (json_is_true(json_object_get(e, "error_occurred")) && !g->error)
			g->error = str_or(e, "error_message", "error");
		if (!is_agg) {
			g->reps++;
			if (!first && !json_is_true(json_object_get(e, "error_occurred")))
				first = e;
		} else if (!strcmp(agg, "median")) {
			median = e;
		} else if (!strcmp(agg, "cv")) {
			g->cv = e;
		}
	}
	g->row = median ? median : first;
	sb_preempt_array(arr, g->preempt, sizeof(g->preempt));
	/* the first run's label ("unavailable (why)"): an aggregate may lack it */
	g->label = str_or(g->row, "label", "");
	if (!*g->label && first)
		g->label = str_or(first, "label", "");
}

static double metric_value(json_t *e, const struct metric *m)
{
	for (int k = 0; k < 2 && m->key[k]; k++) {
		json_t *v = json_object_get(e, m->key[k]);

		if (json_is_number(v))
			return json_number_value(v) * m->scale[k];
	}
	return NAN;
}

/* --- printing ------------------------------------------------------------- */

static size_t cell(char *line, size_t len, size_t n, int width, bool left, const char *text)
{
	if (len >= n)
		return len;
	/* width 0: the last column, as long as it is (the line is cut) */
	len += (size_t)snprintf(line + len, n - len, "%s%*.*s", len ? "  " : "",
				left ? -width : width, width ? width : (int)strlen(text), text);
	return len < n ? len : n - 1;
}

/* where the table's lines go: stdout, or a family's buffer (below) */
static FILE *sink;

static void print_line(char *line)
{
	size_t n = strlen(line);

	while (n && line[n - 1] == ' ')
		line[--n] = '\0';
	sb_console_fit(line, SB_CONSOLE_WIDTH);
	fprintf(sink ? sink : stdout, "%s\n", line);
}

/* the columns' titles (g NULL), else the cells of a benchmark's row */
static void print_cells(const struct sb_point_fields *f, const char *name, const struct group *g)
{
	char line[2048], v[128];
	size_t len = 0;
	/* the cv of ops/s (metrics[0]) in %, NaN: none */
	double cv = g && g->cv ? 100 * metric_value(g->cv, &metrics[0]) : NAN;

	for (int c = 0; c < tb.npcols; c++) {
		const char *t = f ? field_text(f, tb.pcol[c].field, tb.pcol[c].key, v, sizeof(v))
				  : c ? "" : name;

		if (!g)
			t = tb.pcol[c].field == P_PARAM ? tb.pcol[c].key : titles[tb.pcol[c].field];
		len = cell(line, len, sizeof(line), tb.pcol[c].width,
			   tb.pcol[c].field != P_THREADS, t);
	}
	for (int i = 0; i < tb.nm; i++) {
		fmt_value(v, sizeof(v), tb.m[i]->fmt,
			  g && g->row && !g->error ? metric_value(g->row, tb.m[i]) : NAN);
		len = cell(line, len, sizeof(line), tb.m[i]->width, false, g ? v : tb.m[i]->title);
		if (i == 0 && tb.cv) {
			/* 6 columns: 0.0745% would lose its %, and read as 7 % */
			if (!isfinite(cv)) {
				fmt_value(v, sizeof(v), F_G3, cv);
			} else if (cv < 0.1) {
				snprintf(v, sizeof(v), "<0.1%%");
			} else {
				fmt_value(v, sizeof(v), F_G3, cv);
				strcat(v, "%");
			}
			len = cell(line, len, sizeof(line), 6, false, g ? v : "cv");
		}
	}
	/* results/preempt.h's mark first: it says why a row may be noisy */
	snprintf(v, sizeof(v), "%s%s%s", g ? g->preempt : "", g && *g->preempt &&
		 cv > cfg.cv_threshold ? "; " : "", cv > cfg.cv_threshold ? "noisy" : "");
	cell(line, len, sizeof(line), 0, true, !g ? "note" : g->error ? "error" : v);
	print_line(line);
}

static void print_header(int reps)
{
	char line[1024];

	if (reps > 1)
		snprintf(line, sizeof(line), "\n%s: medians of %d repetitions; cv: spread of ops/s, "
			 "noisy above %g%% (--cv-threshold)", tb.family, reps, cfg.cv_threshold);
	else
		snprintf(line, sizeof(line), "\n%s: one repetition each (--benchmark_repetitions=3 "
			 "for a cv)", tb.family);
	print_line(line);
	print_cells(NULL, NULL, NULL);
}

/* a label part ("key: why") explains a cell: a shown metric's key, or "fidelity" */
static bool part_shown(const char *part, size_t keylen)
{
	if (keylen == 8 && !strncmp(part, "fidelity", 8))
		return true;
	for (int i = 0; i < tb.nm; i++)
		for (int k = 0; k < 2 && tb.m[i]->key[k]; k++)
			if (strlen(tb.m[i]->key[k]) == keylen && !strncmp(part, tb.m[i]->key[k], keylen))
				return true;
	return false;
}

/* "    note: ..." into line: the label's parts saying why a shown cell is "-" (all
 * of them with --console=counters, which shows every counter); false: none. */
static bool note_text(const char *label, char *line, size_t n)
{
	size_t len = (size_t)snprintf(line, n, "    note: "), start = len;

	for (const char *p = label ? label : ""; *p;) {
		const char *end = strstr(p, "; ");
		size_t plen = end ? (size_t)(end - p) : strlen(p);
		const char *colon = memchr(p, ':', plen);

		if ((cfg.mode == SB_CONSOLE_COUNTERS || (colon && part_shown(p, (size_t)(colon - p)))) &&
		    len + 2 < n)
			len += (size_t)snprintf(line + len, n - len, "%s%.*s", len > start ? "; " : "",
						(int)plen, p);
		p += plen + (end ? 2 : 0);
	}
	return len > start;
}

/* a note already under a row of this family's one table ("violations: unavailable
 * (run with --check)" on every shootdown row) is not repeated; else recorded. */
#define MAX_NOTES 32
static struct { char family[32]; char text[SB_CONSOLE_WIDTH + 1]; } notes[MAX_NOTES];
static int nnotes;

static bool note_seen(const char *family, const char *text)
{
	for (int i = 0; i < nnotes; i++)
		if (!strcmp(notes[i].family, family) && !strncmp(notes[i].text, text, SB_CONSOLE_WIDTH))
			return true;
	if (nnotes < MAX_NOTES) {
		snprintf(notes[nnotes].family, sizeof(notes[nnotes].family), "%s", family);
		snprintf(notes[nnotes].text, sizeof(notes[nnotes].text), "%.*s", SB_CONSOLE_WIDTH,
			 text);
		nnotes++;
	}
	return false;
}

/* a non-zero number, not GB's own field (jansson holds no NaN or infinity) */
static bool counter_shown(const char *key, json_t *v)
{
	static const char *const skip[] = {
		"family_index", "per_family_instance_index", "repetitions", "repetition_index",
		"threads", "iterations", "real_time", "cpu_time", NULL,
	};

	for (const char *const *s = skip; *s; s++)
		if (!strcmp(key, *s))
			return false;
	return json_is_number(v) && json_number_value(v) != 0;
}

/* --console=counters: the row's non-zero counters under it, in aligned cells */
static void print_counters(json_t *row)
{
	const char *key;
	json_t *v;
	int namew = 0, per, k = 0;
	char line[1024];
	size_t len = 0;

	json_object_foreach(row, key, v)
		if (counter_shown(key, v) && (int)strlen(key) > namew)
			namew = (int)strlen(key);
	if (!namew)
		return;
	if (namew > 48)
		namew = 48;
	per = (SB_CONSOLE_WIDTH - 4) / (namew + 1 + 8 + 2);	/* 2 or more */
	json_object_foreach(row, key, v) {
		char val[32];
		double x = json_number_value(v);

		if (!counter_shown(key, v))
			continue;
		fmt_value(val, sizeof(val), fabs(x) >= 1e4 ? F_SI : F_G3, x);
		len += (size_t)snprintf(line + len, sizeof(line) - len, "%s%-*.*s %8s",
					len ? "  " : "    ", namew, namew, key, val);
		if (++k % per == 0) {
			print_line(line);
			len = 0;
		}
	}
	if (len)
		print_line(line);
}

/* a benchmark's row, and the lines under it */
static void print_row(const struct sb_point_fields *f, const char *name, const struct group *g)
{
	char line[2048];

	print_cells(f, name, g);
	if (g->error) {	/* under the row, where the most of it fits */
		snprintf(line, sizeof(line), "    error: %s", g->error);
		print_line(line);
	} else if (note_text(g->label, line, sizeof(line)) && !note_seen(tb.family, line)) {
		print_line(line);
	}
	if (cfg.mode == SB_CONSOLE_COUNTERS && g->row)
		print_counters(g->row);
}

/* --- the hooks ------------------------------------------------------------ */

static void fams_reset(void);	/* below: the tables' rows */

void sb_console_begin(const struct sb_console_cfg *c)
{
	cfg = *c;
	owned = !c->json_stdout && c->mode != SB_CONSOLE_GBENCH;
	memset(&tb, 0, sizeof(tb));
	fams_reset();
	nnotes = 0;
}

void sb_console_context(json_t *context)
{
	if (owned && context)
		sb_console_context_lines(stderr, context, cfg.out);
}

/* gbench and json: the noisy and preempted marks alone, as before the table existed */
static void noisy_mark(const char *name, const struct group *g)
{
	double cv = g->cv ? 100 * json_number_value(json_object_get(g->cv, "ops_per_s")) : NAN;

	if (cv > cfg.cv_threshold)
		fprintf(cfg.json_stdout ? stderr : stdout, "%s: %s: CV %.3g %% of ops_per_s over "
			"%d repetitions > %g %%\n", cfg.json_stdout ? "stratbench: noisy" : "^ noisy",
			name, cv, g->reps, cfg.cv_threshold);
	if (*g->preempt)	/* results/preempt.h */
		fprintf(cfg.json_stdout ? stderr : stdout, "%s%s: %s\n",
			cfg.json_stdout ? "stratbench: " : "^ ", name, g->preempt);
}

/* --- one table per family, its rows in order, whatever the order results arrive in
 * A row is written when its benchmark finishes, in its family's columns, into its
 * family's slot for its rank (sb_console_rank).  The open family's rows print once
 * every row ranked before them has: a run in the plan's order prints each at once,
 * an interleaved one holds a row until the gap before it fills.  Another family's
 * rows wait whole.  When every planned point of the open family has its row, what
 * it holds prints (gaps skipped), and the first family with rows opens; the end
 * prints what is left, in rank order. */

#define MAX_FAMS 8
static struct fam {
	char family[32];
	int reps;		/* its first row's: the cv column */
	char **row;		/* by rank, the row's text; NULL: not yet, or printed */
	int nslots, next;	/* next: the first rank not printed */
	int got, planned;
	bool opened, closed;
} fams[MAX_FAMS];
static int nfams, open_fam = -1;

static void fams_reset(void)
{
	for (int i = 0; i < nfams; i++) {
		for (int k = 0; k < fams[i].nslots; k++)
			free(fams[i].row[k]);
		free(fams[i].row);
	}
	memset(fams, 0, sizeof(fams));
	nfams = 0;
	open_fam = -1;
}

static int planned(const char *family)
{
	int n = 0;

	for (int i = 0; i < sb_points_count(); i++)
		n += !sb_points_done_at(i) && !strcmp(sb_points_at(i)->family, family);
	return n;
}

static void open_table(const char *family, int reps, bool header)
{
	snprintf(tb.family, sizeof(tb.family), "%.31s", family);
	table_columns();
	tb.cv = reps > 1;
	if (header)
		print_header(reps);
}

/* family's slots (a row each), NULL when there is no room for another family */
static struct fam *fam_of(const char *family, int reps)
{
	struct fam *m;

	for (int i = 0; i < nfams; i++)
		if (!strcmp(fams[i].family, family))
			return &fams[i];
	if (nfams == MAX_FAMS)
		return NULL;
	m = &fams[nfams++];
	snprintf(m->family, sizeof(m->family), "%s", family);
	m->reps = reps;
	m->planned = planned(family);
	return m;
}

/* the row's text, in its family's columns (the open table's restored), or NULL */
static char *row_text(struct fam *m, const struct sb_point_fields *f, const char *name,
		      const struct group *g)
{
	struct table open = tb;
	char *text = NULL;
	size_t len = 0;

	sink = open_memstream(&text, &len);
	if (!sink)
		return NULL;
	open_table(m->family, m->reps, false);
	print_row(f, name, g);
	fclose(sink);
	sink = NULL;
	tb = open;
	return text;
}

/* text into m's slot rank (the slots grown to hold it); false: no memory */
static bool store(struct fam *m, int rank, char *text)
{
	if (rank >= m->nslots) {
		char **r = realloc(m->row, sizeof(*r) * (size_t)(rank + 1));

		if (!r)
			return false;
		memset(r + m->nslots, 0, sizeof(*r) * (size_t)(rank + 1 - m->nslots));
		m->row = r;
		m->nslots = rank + 1;
	}
	if (m->row[rank])	/* a rank taken (a point reported twice): after the rest */
		return store(m, m->nslots, text);
	m->row[rank] = text;
	return true;
}

/* m's rows from next on that are due (all: every one left, gaps skipped) */
static void flush(struct fam *m, bool all)
{
	for (; m->next < m->nslots && (all || m->row[m->next]); m->next++) {
		if (m->row[m->next])
			fputs(m->row[m->next], stdout);
		free(m->row[m->next]);
		m->row[m->next] = NULL;
	}
}

static void open_fam_at(int i)
{
	open_fam = i;
	fams[i].opened = true;
	open_table(fams[i].family, fams[i].reps, true);
	flush(&fams[i], false);
}

/* while the open family is complete (or at the end, ending): its rows, then the
 * next family with rows opens; false when none is left */
static void advance(bool ending)
{
	while (open_fam >= 0 && (ending || fams[open_fam].got >= fams[open_fam].planned)) {
		flush(&fams[open_fam], true);
		fams[open_fam].closed = true;
		open_fam = -1;
		for (int i = 0; i < nfams && open_fam < 0; i++)
			if (!fams[i].closed && fams[i].got)
				open_fam_at(i);
	}
}

/* a row that cannot wait (no room, no memory): under a header of its own */
static void print_alone(const char *family, const struct sb_point_fields *f,
			const char *name, const struct group *g)
{
	struct table open = tb;

	open_table(family, g->reps, true);
	print_row(f, name, g);
	tb = open;
}

void sb_console_group(const struct sb_run_report *runs, int n, json_t *arr)
{
	const struct sb_point_fields *f;
	const char *family;
	struct fam *m;
	struct group g;
	char *text;

	if (!n)
		return;
	read_group(arr, &g);
	if (!owned) {
		noisy_mark(runs[0].name, &g);
		fflush(stdout);
		return;
	}
	f = runs[0].registered ? sb_points_find(runs[0].registered) : NULL;
	family = f ? f->family : "?";
	m = fam_of(family, g.reps);
	text = m ? row_text(m, f, runs[0].name, &g) : NULL;
	if (!text || !store(m, f ? sb_console_rank(f) : m->planned + m->got, text)) {
		free(text);
		print_alone(family, f, runs[0].name, &g);
	} else {
		m->got++;
		if (open_fam < 0)
			open_fam_at((int)(m - fams));
		else if (&fams[open_fam] == m)
			flush(m, false);
		advance(false);
	}
	fflush(stdout);
}

void sb_console_end(void)
{
	advance(true);
	fams_reset();
	fflush(stdout);
}
