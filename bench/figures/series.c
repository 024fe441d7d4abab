/* series.c — lines against x for lines.gp (figure.h); a value a log axis cannot draw is named
 * in its key, never left to vanish without a word. */
#include "figures/figure.h"

#include "core/util.h"
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static bool skipped(const struct sb_lines *ls, const char *key)
{
	if (!strcmp(key, ls->xkey))
		return true;
	for (int i = 0; ls->skip && ls->skip[i]; i++)
		if (!strcmp(ls->skip[i], key))
			return true;
	return false;
}

/* f less x and the fixed parameters: what a line is keyed by */
static void line_fields(const struct sb_lines *ls, const struct sb_point_fields *f,
			struct sb_point_fields *out)
{
	*out = *f;
	out->params.n = 0;
	if (!strcmp(ls->xkey, "threads"))
		out->threads = 0;
	for (int i = 0; i < f->params.n; i++)
		if (!skipped(ls, f->params.p[i].key))
			out->params.p[out->params.n++] = f->params.p[i];
}

/* numbers as numbers ("4" < "16"), anything else as text */
static int cmp_val(const char *a, const char *b)
{
	char *ea, *eb;
	double x = strtod(a, &ea), y = strtod(b, &eb);

	if (*a && *b && !*ea && !*eb && x != y)
		return x < y ? -1 : 1;
	return strcmp(a, b);
}

static int cmp_fields(const struct sb_point_fields *a, const struct sb_point_fields *b)
{
	int c;

	if ((c = strcmp(a->family, b->family)) || (c = strcmp(a->strategy, b->strategy)) ||
	    (c = strcmp(a->lock, b->lock)) || (c = strcmp(a->placement, b->placement)) ||
	    (c = (a->threads > b->threads) - (a->threads < b->threads)))
		return c;
	for (int i = 0; !c && i < a->params.n && i < b->params.n; i++) {
		c = strcmp(a->params.p[i].key, b->params.p[i].key);
		if (!c)
			c = cmp_val(a->params.p[i].val, b->params.p[i].val);
	}
	return c ? c : a->params.n - b->params.n;
}

static int cmp_line(const void *x, const void *y)
{
	const struct sb_line *a = x, *b = y;
	int c = cmp_fields(&a->f, &b->f);

	return c ? c : a->part - b->part;
}

struct sb_line *sb_lines_get(struct sb_lines *ls, const struct sb_point_fields *f, int part)
{
	struct sb_point_fields lf;
	struct sb_line *l;

	line_fields(ls, f, &lf);
	for (int i = 0; i < ls->n; i++)
		if (ls->l[i].part == part && !cmp_fields(&ls->l[i].f, &lf))
			return &ls->l[i];
	if (SB_GROW(ls->l, ls->cap, ls->n + 1))
		return NULL;
	l = &ls->l[ls->n++];
	memset(l, 0, sizeof(*l));
	l->f = lf;
	l->part = part;
	return l;
}

/* x of f: its threads, or the parameter xkey as a number (NAN: absent) */
static double lines_x(const struct sb_lines *ls, const struct sb_point_fields *f)
{
	const char *v;
	char *end;
	double x;

	if (!strcmp(ls->xkey, "threads"))
		return f->threads;
	v = sb_params_get(&f->params, ls->xkey);
	if (!v)
		return NAN;
	x = strtod(v, &end);
	return *end || end == v ? NAN : x;
}

static struct sb_xy *xy_at(struct sb_line *l, double x)
{
	struct sb_xy *p;

	for (int i = 0; i < l->n; i++)
		if (l->v[i].x == x)
			return &l->v[i];
	if (SB_GROW(l->v, l->cap, l->n + 1))
		return NULL;
	p = &l->v[l->n++];
	memset(p, 0, sizeof(*p));
	p->x = x;
	for (int k = 0; k < 2; k++)
		p->y[k] = p->lo[k] = p->hi[k] = NAN;
	return p;
}

void sb_line_put(struct sb_lines *ls, struct sb_line *l, double x, int panel,
		 const struct sb_stat *s, double cv_threshold)
{
	struct sb_xy *p;

	if (!s->n || isnan(s->median) || isnan(x) || !(p = xy_at(l, x)))
		return;
	p->y[panel] = s->median;
	p->lo[panel] = s->min;
	p->hi[panel] = s->max;
	p->noisy[panel] = !isnan(s->cv) && s->cv > cv_threshold;
	if (s->n > ls->reps)
		ls->reps = s->n;
}

/* The attributes a key or title may name: 0 family, 1 strategy[/lock], 2 placement, 3 threads
 * (when x is not threads), 4.. each parameter. */
#define ATTR_PARAMS 4
#define ATTR_MAX (ATTR_PARAMS + 2 * SB_PARAMS_MAX)

struct attrs {
	const char *pkey[2 * SB_PARAMS_MAX];
	int n;				/* ATTR_PARAMS + parameters */
	bool differs[ATTR_MAX];
	bool bare[ATTR_MAX];		/* a parameter shown as its value alone */
};

static void attr_val(const struct sb_line *l, const struct attrs *A, int a, bool title,
		     char *buf, size_t n)
{
	const char *v;

	*buf = '\0';
	if (a == 0)
		snprintf(buf, n, "%s", l->f.family);
	else if (a == 1)
		snprintf(buf, n, "%s%s%s", l->f.strategy, *l->f.lock ? "/" : "", l->f.lock);
	else if (a == 2)
		snprintf(buf, n, title ? "placement %s" : "place=%s", l->f.placement);
	else if (a == 3 && l->f.threads)
		snprintf(buf, n, "%d thread%s", l->f.threads, l->f.threads > 1 ? "s" : "");
	else if (a >= ATTR_PARAMS && (v = sb_params_get(&l->f.params, A->pkey[a - ATTR_PARAMS])))
		snprintf(buf, n, "%s%s%s", A->bare[a] ? "" : A->pkey[a - ATTR_PARAMS],
			 A->bare[a] ? "" : "=", v);
}

static void find_attrs(const struct sb_lines *ls, struct attrs *A)
{
	char a0[300], ai[300];

	memset(A, 0, sizeof(*A));
	for (int i = 0; i < ls->n; i++)
		for (int k = 0; k < ls->l[i].f.params.n; k++) {
			const char *key = ls->l[i].f.params.p[k].key;
			int j = 0;

			while (j < A->n && strcmp(A->pkey[j], key))
				j++;
			if (j == A->n && A->n < 2 * SB_PARAMS_MAX)
				A->pkey[A->n++] = key;
		}
	for (int j = 0; j < A->n; j++)
		for (int k = 0; ls->bare && ls->bare[k]; k++)
			A->bare[ATTR_PARAMS + j] |= !strcmp(ls->bare[k], A->pkey[j]);
	A->n += ATTR_PARAMS;
	for (int a = 0; a < A->n; a++)
		for (int i = 1; i < ls->n && !A->differs[a]; i++) {
			attr_val(&ls->l[0], A, a, false, a0, sizeof(a0));
			attr_val(&ls->l[i], A, a, false, ai, sizeof(ai));
			A->differs[a] = strcmp(a0, ai) != 0;
		}
}

/* appends sep (when buf is not empty) and s, truncating at n */
static void join(char *buf, size_t n, const char *sep, const char *s)
{
	size_t len = strlen(buf);

	if (!*s)
		return;
	for (const char *c = len ? sep : ""; *c && len + 1 < n; c++)
		buf[len++] = *c;
	for (; *s && len + 1 < n; s++)
		buf[len++] = *s;
	buf[len] = '\0';
}

/* l's attributes that differ between lines (a key), or the common ones (the title), ", "-joined */
static void attr_list(const struct sb_line *l, const struct attrs *A, bool common, char *buf,
		      size_t n)
{
	char v[300];

	*buf = '\0';
	for (int a = common; a < A->n; a++)
		if (A->differs[a] != common) {
			attr_val(l, A, a, common, v, sizeof(v));
			join(buf, n, ", ", v);
		}
}

struct zero {
	int npos, nbad, neg;	/* values > 0, <= 0, < 0 */
};

/* l's values <= 0 on panel p, blanked: a log axis cannot draw them */
static void blank_nonpositive(struct sb_line *l, int p, struct zero *z)
{
	memset(z, 0, sizeof(*z));
	for (int j = 0; j < l->n; j++) {
		double *y = &l->v[j].y[p];

		if (isnan(*y))
			continue;
		z->npos += *y > 0;
		z->nbad += *y <= 0;
		z->neg += *y < 0;
		if (*y <= 0)
			*y = l->v[j].lo[p] = l->v[j].hi[p] = NAN;
		else if (!(l->v[j].lo[p] > 0))
			l->v[j].lo[p] = *y;
	}
}

/* the key of lines [first, last) (one group) says what was not drawn: "(all 0: not drawn)",
 * "(acks all 0: not drawn)", "(2 of 3 at 0: …)" */
static void group_note(struct sb_lines *ls, int first, int last, int p, const struct zero *z)
{
	char note[200] = "", one[120], *key = ls->l[first].key;
	const char *pname = ls->npanels > 1 ? ls->pname[p] : NULL;
	size_t len = strlen(key);
	bool all = true, any = false;

	for (int i = first; i < last; i++) {
		all &= z[i].nbad && !z[i].npos;
		any |= z[i].nbad > 0;
	}
	if (!any)
		return;
	for (int i = first; i < last && !all; i++) {
		const char *part = last - first > 1 && ls->parts ? ls->parts[ls->l[i].part] : "";

		if (!z[i].nbad)
			continue;
		if (z[i].npos)
			snprintf(one, sizeof(one), "%s%s%d of %d %s", part, *part ? " " : "",
				 z[i].nbad, z[i].npos + z[i].nbad, z[i].neg ? "<= 0" : "at 0");
		else
			snprintf(one, sizeof(one), "%s%sall %s", part, *part ? " " : "",
				 z[i].neg ? "<= 0" : "0");
		join(note, sizeof(note), ", ", one);
	}
	snprintf(key + len, sizeof(ls->l[first].key) - len, "%s(%s%s%s: not drawn)", len ? " " : "",
		 pname ? pname : "", pname ? " " : "", all ? "all 0" : note);
	ls->zeros = true;
}

/* log axes: values <= 0 blanked, named in their group's key; no positive value: drawn linear */
static void log_notes(struct sb_lines *ls)
{
	struct zero *z = calloc((size_t)ls->n + 1, sizeof(*z));

	for (int p = 0; z && p < ls->npanels; p++) {
		bool anypos = false;

		for (int i = 0; ls->logy[p] && i < ls->n; i++)
			for (int j = 0; j < ls->l[i].n; j++)
				anypos |= ls->l[i].v[j].y[p] > 0;
		if (!anypos) {
			ls->logy[p] = false;
			continue;
		}
		for (int i = 0; i < ls->n; i++)
			blank_nonpositive(&ls->l[i], p, &z[i]);
		for (int i = 0, end; i < ls->n; i = end) {
			for (end = i + 1; end < ls->n && ls->l[end].group == ls->l[i].group; end++)
				;
			group_note(ls, i, end, p, z);
		}
	}
	free(z);
}

void sb_lines_finish(struct sb_lines *ls)
{
	struct attrs A;

	if (!ls->n)
		return;		/* no line: nothing to sort (qsort takes no NULL) */
	qsort(ls->l, (size_t)ls->n, sizeof(*ls->l), cmp_line);
	for (int i = 0; i < ls->n; i++) {
		struct sb_line *l = &ls->l[i];

		/* a line with no value has no array (qsort takes no NULL); an
		 * sb_xy sorts as a double: x is its first member */
		if (l->n)
			qsort(l->v, (size_t)l->n, sizeof(*l->v), sb_cmp_double);
		l->group = i && cmp_fields(&l->f, &ls->l[i - 1].f) ? ls->l[i - 1].group + 1 :
		    i ? ls->l[i - 1].group : 0;
		l->style = l->group % 12 + 1;
	}
	find_attrs(ls, &A);
	for (int i = 0; i < ls->n; i++) {
		struct sb_line *l = &ls->l[i];

		if (i && l[-1].group == l->group)
			continue;	/* a group's key is its first line's */
		attr_list(l, &A, false, l->key, sizeof(l->key));
		if (!l->key[0])		/* nothing differs: the strategy */
			attr_val(l, &A, 1, false, l->key, sizeof(l->key));
		join(l->key, sizeof(l->key), " ", l->tag);
	}
	attr_list(&ls->l[0], &A, true, ls->common, sizeof(ls->common));
	log_notes(ls);
	ls->nnoisy = 0;
	for (int i = 0; i < ls->n; i++)
		for (int j = 0; j < ls->l[i].n; j++)
			for (int p = 0; p < ls->npanels; p++)
				ls->nnoisy += ls->l[i].v[j].noisy[p] && !isnan(ls->l[i].v[j].y[p]);
}

void sb_lines_free(struct sb_lines *ls)
{
	for (int i = 0; i < ls->n; i++)
		free(ls->l[i].v);
	free(ls->l);
	ls->l = NULL;
	ls->n = ls->cap = 0;
}

int sb_lines_add(struct sb_lines *ls, const struct sb_bm *b, int part, int panel,
		 const char *metric, double cv_threshold)
{
	struct sb_stat s;
	struct sb_line *l;
	double x;

	if (!b->has_point)
		return 0;
	sb_bm_stat(b, metric, &s);
	if (!s.n || isnan(s.median))
		return 0;
	x = lines_x(ls, &b->pt);
	if (isnan(x))
		return -1;
	l = sb_lines_get(ls, &b->pt, part);
	if (l)
		sb_line_put(ls, l, x, panel, &s, cv_threshold);
	return 1;
}

int sb_lines_xs(const struct sb_lines *ls, double *xs, int max)
{
	int n = 0;

	for (int i = 0; i < ls->n; i++)
		for (int j = 0; j < ls->l[i].n; j++) {
			int k = 0;

			while (k < n && xs[k] != ls->l[i].v[j].x)
				k++;
			if (k == n && n < max)
				xs[n++] = ls->l[i].v[j].x;
		}
	qsort(xs, (size_t)n, sizeof(*xs), sb_cmp_double);
	return n;
}

bool sb_lines_match(const struct sb_lines *ls, const struct sb_line *l,
		    const struct sb_point_fields *f, int part)
{
	struct sb_point_fields lf;

	line_fields(ls, f, &lf);
	return l->part == part && !cmp_fields(&l->f, &lf);
}
