/* fig_merge.c — machines-<group>: a benchmark group (a point less its threads) measured on two
 * or more machines, a line per machine ("machine" field), from `stratbench merge`'s
 * DIR/machines.csv (a row per machine and point: typed fields, the metric's median, min, max,
 * CV, repetitions; quoted: list:0,1 placements) and merge.json (each machine's CPU and noisy
 * threshold).  Rows without a typed point (plain Google Benchmark) are left out, counted. */
#include "figures/figure.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum col { C_MACHINE, C_FAMILY, C_STRATEGY, C_LOCK, C_THREADS, C_PLACEMENT, C_PARAMS,
	   C_METRIC, C_MEDIAN, C_MIN, C_MAX, C_CV, C_REPS, C_N };
static const char *const col_name[C_N] = {
	"machine", "family", "strategy", "lock", "threads", "placement", "params", "metric",
	"median", "min", "max", "cv_pct", "repetitions",
};

struct mrow {
	struct sb_point_fields f;	/* with "machine" among its parameters */
	struct sb_stat s;
};

struct merged {
	struct mrow *row;
	int n, cap, untyped;
	char metric[64], path[SB_PATH];
	double cv_threshold;
	int line;			/* of path, being read */
	char *err;			/* one line on failure */
	size_t errlen;
};

/* Splits one CSV record in place: quoted fields may hold commas and "". */
static int csv_split(char *s, char **f, int max)
{
	int n = 0;

	while (n < max) {
		char *o = s;

		f[n++] = s;
		if (*s == '"') {
			for (s++; *s && !(*s == '"' && s[1] != '"'); s++)
				*o++ = *s == '"' ? *++s : *s;
			s += *s == '"';
		}
		while (*s && *s != ',' && *s != '\n' && *s != '\r')
			*o++ = *s++;
		if (*s != ',') {
			*o = '\0';
			break;
		}
		*o = '\0';
		s++;
	}
	return n;
}

static int header(char *line, int *idx, struct merged *m)
{
	char *f[64];
	int n = csv_split(line, f, 64);

	for (int c = 0; c < C_N; c++) {
		idx[c] = -1;
		for (int k = 0; k < n; k++)
			if (!strcmp(f[k], col_name[c]))
				idx[c] = k;
		if (idx[c] < 0 && c != C_CV && c != C_REPS && c != C_MIN && c != C_MAX) {
			snprintf(m->err, m->errlen, "%s: no column \"%s\" (not stratbench merge output)",
				 m->path, col_name[c]);
			return -1;
		}
	}
	return 0;
}

static double field_num(char **f, int n, int i)
{
	char *end;
	double v;

	if (i < 0 || i >= n || !*f[i])
		return NAN;
	v = strtod(f[i], &end);
	return *end ? NAN : v;
}

static int bad_field(const struct merged *m, const char *field, const char *val)
{
	snprintf(m->err, m->errlen, "%s line %d: field \"%s\" is \"%s\"", m->path, m->line, field,
		 val);
	return -1;
}

static int copy_field(const struct merged *m, char *dst, size_t n, const char *val,
		      const char *field)
{
	if (strlen(val) >= n)
		return bad_field(m, field, "too long");
	snprintf(dst, n, "%s", val);
	return 0;
}

/* "k=v;k=v" (merge's params column) into the point's parameters */
static int parse_params(char *s, struct sb_params *p, const struct merged *m)
{
	for (char *kv = strtok(s, ";"); kv; kv = strtok(NULL, ";")) {
		char *eq = strchr(kv, '=');

		if (!eq || eq == kv)
			return bad_field(m, "params", kv);
		*eq = '\0';
		if (sb_params_set(p, kv, "%s", eq + 1))
			return bad_field(m, "params", "too long (or too many)");
	}
	return 0;
}

static int fill_row(struct merged *m, char **f, int n, const int *idx, struct mrow *r)
{
#define GET(c) (idx[c] >= 0 && idx[c] < n ? f[idx[c]] : "")
	char *end;
	long t = strtol(GET(C_THREADS), &end, 10);

	memset(r, 0, sizeof(*r));
	if (copy_field(m, r->f.family, sizeof(r->f.family), GET(C_FAMILY), "family") ||
	    copy_field(m, r->f.strategy, sizeof(r->f.strategy), GET(C_STRATEGY), "strategy") ||
	    copy_field(m, r->f.lock, sizeof(r->f.lock), GET(C_LOCK), "lock") ||
	    copy_field(m, r->f.placement, sizeof(r->f.placement), GET(C_PLACEMENT), "placement"))
		return -1;
	if (*end || t < 1 || t > 1 << 20)
		return bad_field(m, "threads", GET(C_THREADS));
	r->f.threads = (int)t;
	if (parse_params(GET(C_PARAMS), &r->f.params, m))
		return -1;
	if (!*GET(C_MACHINE) || sb_params_set(&r->f.params, "machine", "%s", GET(C_MACHINE)))
		return bad_field(m, "machine", GET(C_MACHINE));
	r->s.median = field_num(f, n, idx[C_MEDIAN]);
	r->s.min = isnan(field_num(f, n, idx[C_MIN])) ? r->s.median : field_num(f, n, idx[C_MIN]);
	r->s.max = isnan(field_num(f, n, idx[C_MAX])) ? r->s.median : field_num(f, n, idx[C_MAX]);
	r->s.cv = field_num(f, n, idx[C_CV]);
	r->s.n = isnan(field_num(f, n, idx[C_REPS])) ? 1 : (int)field_num(f, n, idx[C_REPS]);
	if (!*m->metric)
		snprintf(m->metric, sizeof(m->metric), "%s", GET(C_METRIC));
	return 0;
#undef GET
}

static int read_csv(struct merged *m)
{
	FILE *fp = fopen(m->path, "r");
	char *line = NULL, *f[64];
	size_t cap = 0;
	int idx[C_N], rc = 0;

	if (!fp) {
		snprintf(m->err, m->errlen, "cannot read %s", m->path);
		return -1;
	}
	while (!rc && getline(&line, &cap, fp) > 0) {
		int n;

		if (++m->line == 1) {
			rc = header(line, idx, m);
			continue;
		}
		n = csv_split(line, f, 64);
		/* NOLINTNEXTLINE(clang-analyzer-core.UndefinedBinaryOperatorResult): line 1 set idx */
		if (idx[C_FAMILY] >= n || !*f[idx[C_FAMILY]]) {
			m->untyped++;	/* no typed point: nothing to group it by */
			continue;
		}
		if (SB_GROW(m->row, m->cap, m->n + 1)) {	/* m->row stays, freed by the caller */
			snprintf(m->err, m->errlen, "out of memory");
			rc = -1;
		} else {
			rc = fill_row(m, f, n, idx, &m->row[m->n]);
			m->n += !rc && m->row[m->n].s.n > 0 && !isnan(m->row[m->n].s.median);
		}
	}
	free(line);
	fclose(fp);
	return rc;
}

/* "A (CPU a), B (CPU b)" of merge.json, and the strictest noisy threshold */
static void read_sources(const char *dir, struct merged *m, char *who, size_t n)
{
	char path[SB_PATH];
	json_t *j, *src, *s;
	size_t i;

	j = sb_pathf(path, "%s/merge.json", dir) ? NULL : json_load_file(path, 0, NULL);
	src = json_object_get(j, "sources");
	*who = '\0';
	json_array_foreach(src, i, s) {
		const char *name = json_string_value(json_object_get(s, "machine"));
		const char *cpu = json_string_value(json_object_get(s, "cpu_model"));
		const char *thr = json_string_value(json_object_get(json_object_get(s, "context"),
								    "sb_cv_threshold"));
		size_t len = strlen(who);

		if (name && len < n)
			snprintf(who + len, n - len, "%s%s%s%s%s", len ? ", " : "", name,
				 cpu ? " (" : "", cpu ? cpu : "", cpu ? ")" : "");
		if (thr && strtod(thr, NULL) > 0 && strtod(thr, NULL) < m->cv_threshold)
			m->cv_threshold = strtod(thr, NULL);
	}
	json_decref(j);
}

/* parameters a group leaves out, and a key shows as the value alone */
static const char *const machine[] = { "machine", NULL };

static void group_of(const struct sb_point_fields *f, char *buf, size_t n)
{
	char g[1400];

	sb_point_group(f, machine, g, sizeof(g));
	snprintf(buf, n, "%s|%s", g, f->placement);
}

static void fig_name(const struct sb_point_fields *f, char *name, size_t n)
{
	char params[1200];

	sb_params_str(&f->params, machine, params, sizeof(params));
	for (char *c = params; *c; c++)
		*c = *c == ';' ? '_' : *c == '=' ? '-' : *c;
	snprintf(name, n, "machines-%s_%s%s%s-%s%s%s", f->family, f->strategy, *f->lock ? "_lock-" :
		 "", f->lock, f->placement, *params ? "-" : "", params);
}

/* a line per machine: none unless two or more measured the group */
static int draw_group(struct sb_plot *p, const struct merged *m, const char *grp)
{
	struct sb_lines ls = { .xkey = "threads", .bare = machine, .npanels = 1,
			       .xlabel = "threads (log2 scale)", .yfmt = { "%.1s%c" } };
	char g[1600], name[1600], what[300], ylabel[200], how[300];
	struct sb_line *l;
	int first = -1;

	for (int i = 0; i < m->n; i++) {
		group_of(&m->row[i].f, g, sizeof(g));
		if (strcmp(g, grp))
			continue;
		first = first < 0 ? i : first;
		l = sb_lines_get(&ls, &m->row[i].f, 0);
		if (l)
			sb_line_put(&ls, l, m->row[i].f.threads, 0, &m->row[i].s, p->cv_threshold);
	}
	if (ls.n < 2) {		/* one machine: nothing to compare */
		sb_lines_free(&ls);
		return 0;
	}
	fig_name(&m->row[first].f, name, sizeof(name));
	if (!strcmp(m->metric, "ops_per_s"))
		snprintf(ylabel, sizeof(ylabel), "%s", sb_plot_ops_label(m->row[first].f.family));
	else
		snprintf(ylabel, sizeof(ylabel), "%s (median)", m->metric);
	ls.ylabel[0] = ylabel;
	snprintf(what, sizeof(what), "%s %s on %d machines against threads",
		 m->row[first].f.family, m->metric, ls.n);
	snprintf(how, sizeof(how), "A line per machine; medians of its repetitions, bars "
		 "min–max; red circles: CV above %g %%.", p->cv_threshold);
	return sb_lines_draw(p, &ls, name, what, NULL, how);
}

static int draw_all(struct sb_plot *p, const struct merged *m)
{
	char g[1600], h[1600];

	for (int i = 0; i < m->n; i++) {
		bool seen = false;

		group_of(&m->row[i].f, g, sizeof(g));
		for (int j = 0; j < i && !seen; j++) {
			group_of(&m->row[j].f, h, sizeof(h));
			seen = !strcmp(g, h);
		}
		if (!seen && draw_group(p, m, g))
			return -1;
	}
	return 0;
}

static int fig_merge(struct sb_plot *p)
{
	struct merged m = { .cv_threshold = 5, .err = p->err, .errlen = p->errlen };
	int rc;

	snprintf(m.path, sizeof(m.path), "%s/machines.csv", p->dir);
	rc = read_csv(&m);
	read_sources(p->dir, &m, p->machine, sizeof(p->machine));
	if (!*p->machine)
		snprintf(p->machine, sizeof(p->machine), "merged in %s", p->dir);
	p->cv_threshold = m.cv_threshold;
	if (!rc && !m.n && m.untyped) {
		snprintf(p->err, p->errlen, "%s: no row has a typed point (family, strategy, "
			 "threads...): merged from plain Google Benchmark JSON, nothing to group",
			 m.path);
		rc = -1;
	}
	if (!rc)
		rc = sb_plot_mkdir(p->dir, p->err, p->errlen);
	if (!rc)
		rc = draw_all(p, &m);
	free(m.row);
	return rc;
}
SB_FIGURE(fig_merge, SB_FIG_MERGE, 0)
