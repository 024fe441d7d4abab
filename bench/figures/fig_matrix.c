/* fig_matrix.c — latency-matrix-<op>: the calibrate family's core-to-core one-way latency, CPU
 * x CPU by package, NUMA node and number, packages and nodes outlined.  A pair's CPUs are its
 * placement (list:A,B); where they sit, its pkg_a/pkg_b/node_a/node_b counters.  Each pair
 * runs once (repeats:1): no CV to flag. */
#include "figures/figure.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct cpu {
	int id, pkg, node;
};

struct pair {
	int a, b;		/* the measured pair's CPUs */
	double ns;
};

struct matrix {
	struct cpu *cpu;
	int ncpu;
	struct pair *pair;
	int npair;
};

static int cmp_cpu(const void *x, const void *y)
{
	const struct cpu *a = x, *b = y;

	if (a->pkg != b->pkg)
		return a->pkg - b->pkg;
	return a->node != b->node ? a->node - b->node : a->id - b->id;
}

static int pos_of(const struct matrix *m, int id)
{
	for (int i = 0; i < m->ncpu; i++)
		if (m->cpu[i].id == id)
			return i;
	return -1;
}

static void add_cpu(struct matrix *m, int id, double pkg, double node)
{
	if (pos_of(m, id) >= 0)
		return;
	m->cpu[m->ncpu].id = id;
	m->cpu[m->ncpu].pkg = isnan(pkg) ? 0 : (int)pkg;
	m->cpu[m->ncpu++].node = isnan(node) ? 0 : (int)node;
}

static bool is_pair(const struct sb_bm *b, const struct sb_bm *like)
{
	const char *o = b->has_point ? sb_params_get(&b->pt.params, "op") : NULL;

	return o && !strcmp(b->pt.family, "calibrate") && !strcmp(b->pt.strategy, "c2c") &&
	       (!like || !strcmp(o, sb_params_get(&like->pt.params, "op")));
}

static int add_pair(struct sb_plot *p, struct matrix *m, const struct sb_bm *b)
{
	struct sb_stat s;
	int a, c, k;

	if (sscanf(b->pt.placement, "list:%d,%d%n", &a, &c, &k) != 2 || b->pt.placement[k]) {
		snprintf(p->err, p->errlen, "%s: %s: point field \"placement\" is \"%s\", not "
			 "list:A,B (latency-matrix needs the pair)", p->r->path, b->name,
			 b->pt.placement);
		return -1;
	}
	sb_bm_stat(b, "one_way_ns", &s);
	if (!s.n || !(s.median > 0) || !b->entry)
		return 0;
	add_cpu(m, a, sb_entry_value(b->entry, "pkg_a"), sb_entry_value(b->entry, "node_a"));
	add_cpu(m, c, sb_entry_value(b->entry, "pkg_b"), sb_entry_value(b->entry, "node_b"));
	m->pair[m->npair++] = (struct pair){ a, c, s.median };
	return 0;
}

static void write_cells(const struct matrix *m, FILE *f)
{
	fputs("# i j one_way_ns (both orders of each measured pair)\n", f);
	for (int k = 0; k < m->npair; k++) {
		int i = pos_of(m, m->pair[k].a), j = pos_of(m, m->pair[k].b);

		fprintf(f, "%d %d %.6g\n%d %d %.6g\n", i, j, m->pair[k].ns, j, i, m->pair[k].ns);
	}
	/* the outlines: x0 y0 x1 y1 kind (1 package, 2 NUMA node) */
	fputs("\n\n# x0 y0 x1 y1 kind (1: package boundary, 2: NUMA node boundary)\n", f);
	fputs("NaN NaN NaN NaN 0\n", f);	/* one row when there is no boundary */
	for (int i = 1; i < m->ncpu; i++) {
		int kind = m->cpu[i].pkg != m->cpu[i - 1].pkg ? 1 :
			   m->cpu[i].node != m->cpu[i - 1].node ? 2 : 0;

		if (kind)
			fprintf(f, "%g %g %g %g %d\n%g %g %g %g %d\n", i - 0.5, -0.5, i - 0.5,
				m->ncpu - 0.5, kind, -0.5, i - 0.5, m->ncpu - 0.5, i - 0.5, kind);
	}
}

static int collect(struct sb_plot *p, const struct sb_bm *like, struct matrix *m)
{
	int n = p->r->n;

	m->cpu = calloc(2 * (size_t)n + 1, sizeof(*m->cpu));
	m->pair = calloc((size_t)n + 1, sizeof(*m->pair));
	if (!m->cpu || !m->pair) {
		snprintf(p->err, p->errlen, "out of memory");
		return -1;
	}
	for (int i = 0; i < n; i++)
		if (is_pair(&p->r->bm[i], like) && add_pair(p, m, &p->r->bm[i]))
			return -1;
	qsort(m->cpu, (size_t)m->ncpu, sizeof(*m->cpu), cmp_cpu);	/* m->cpu: never NULL */
	return 0;
}

static int draw(struct sb_plot *p, const struct sb_bm *like)
{
	const char *op = sb_params_get(&like->pt.params, "op");
	struct matrix m = { 0 };
	char name[200], title[1000], what[200];
	struct sb_gp *g = NULL;
	int rc = collect(p, like, &m);

	if (!rc && m.npair) {
		snprintf(name, sizeof(name), "latency-matrix-%s", op);
		g = sb_gp_new(p, name, "latency-matrix");
		rc = g ? 0 : -1;
	}
	if (g) {
		write_cells(&m, sb_gp_dat(g));
		sb_gp_num(g, "n", m.ncpu);
		sb_gp_array(g, "CPU", m.ncpu, true);
		for (int i = 0; i < m.ncpu; i++) {
			char id[16];

			snprintf(id, sizeof(id), "%d", m.cpu[i].id);
			sb_gp_str_at(g, "CPU", i + 1, id);
		}
		snprintf(what, sizeof(what), "core-to-core one-way latency, op=%s", op);
		snprintf(title, sizeof(title), "%s, ns — %s\nmedian of the timed batches of each "
			 "pair (calibrate, run once: no CV); %d CPUs, %d pair%s", what, p->machine,
			 m.ncpu, m.npair, m.npair > 1 ? "s" : "");
		sb_gp_wrap(title);
		rc = sb_gp_draw(g, title, what, "Darker is slower; packages are outlined solid, "
				"NUMA nodes dashed; hatched cells were not measured.", 0);
	}
	free(m.cpu);
	free(m.pair);
	return rc;
}
SB_FIGURE_EACH(is_pair, draw, SB_FIG_RESULTS, 40)
