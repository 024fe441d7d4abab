/* topo.c — hwloc topology, the placement plans of DESIGN.md §6, binding checks. */
#include "core/util.h"
#include "machine/topo.h"

#include <ctype.h>
#include <hwloc.h>
#include <stdlib.h>
#include <string.h>

struct sb_pu {
	int os;		/* OS CPU number: what binding uses */
	int core;	/* logical index of its core (its own index if no cores) */
	int smt;	/* rank among the PUs of its core */
	int pkg;	/* logical index of its package, 0 if none */
	int node;	/* logical index of its NUMA node, 0 if none */
	int node_os;	/* OS index of that node, -1 if none */
	int llc;	/* logical index of its L3 (core complex), -1 if none */
	int l2;		/* logical index of its L2, -1 if none (shared by cores on
			 * some machines: POWER9's core pairs, Atom modules) */
};

struct sb_topo {
	hwloc_topology_t h;
	bool native;
	int npus, ncores, npkgs, nnodes;
	struct sb_pu *pu;	/* in logical (tree) order */
};

const char *const sb_topo_placements[] = { "compact", "cores", "scatter", NULL };

static int depth_index(hwloc_topology_t h, hwloc_obj_t pu, hwloc_obj_type_t type, int none)
{
	hwloc_obj_t a = hwloc_get_ancestor_obj_by_type(h, type, pu);

	return a ? (int)a->logical_index : none;
}

static void fill_pus(struct sb_topo *t)
{
	hwloc_topology_t h = t->h;
	int i;

	t->npus = hwloc_get_nbobjs_by_type(h, HWLOC_OBJ_PU);
	t->ncores = hwloc_get_nbobjs_by_type(h, HWLOC_OBJ_CORE);
	t->npkgs = hwloc_get_nbobjs_by_type(h, HWLOC_OBJ_PACKAGE);
	t->nnodes = hwloc_get_nbobjs_by_type(h, HWLOC_OBJ_NUMANODE);
	t->pu = calloc(t->npus, sizeof(*t->pu));
	for (i = 0; i < t->npus; i++) {
		hwloc_obj_t o = hwloc_get_obj_by_type(h, HWLOC_OBJ_PU, i);
		hwloc_obj_t core = hwloc_get_ancestor_obj_by_type(h, HWLOC_OBJ_CORE, o);
		/* the first NUMA node (logical order) whose CPUs include it */
		hwloc_obj_t n = hwloc_get_next_obj_covering_cpuset_by_type(h, o->cpuset,
									   HWLOC_OBJ_NUMANODE, NULL);
		struct sb_pu *p = &t->pu[i];

		p->os = (int)o->os_index;
		p->core = core ? (int)core->logical_index : i;
		/* rank among the core's PUs (SMT sibling number): a core's PUs are consecutive in
		 * tree order, so linear, not a per-PU search (quadratic at 8704 synthetic PUs) */
		p->smt = core && i > 0 && t->pu[i - 1].core == p->core ? t->pu[i - 1].smt + 1 : 0;
		p->pkg = depth_index(h, o, HWLOC_OBJ_PACKAGE, 0);
		p->llc = depth_index(h, o, HWLOC_OBJ_L3CACHE, -1);
		p->l2 = depth_index(h, o, HWLOC_OBJ_L2CACHE, -1);
		p->node = n ? (int)n->logical_index : 0;
		p->node_os = n ? (int)n->os_index : -1;
	}
	if (t->ncores == 0)
		t->ncores = t->npus;
	if (t->npkgs == 0)
		t->npkgs = 1;
	if (t->nnodes == 0)
		t->nnodes = 1;
}

/* A synthetic description hwloc is given only if we can read it whole: words "type:N" (N
 * decimal, optionally followed by one "(attributes)" with no parenthesis inside) or a bare "N",
 * and the product of the N — the PUs hwloc would build, every object before we could count them
 * — at most SB_SYNTHETIC_MAX_PUS.  hwloc's own parser takes more (hex, unclosed attributes,
 * glued words) and fuzzing found forms of each that made it build tens of thousands of PUs: a
 * whitelist, not a guess at its grammar. */
#define SB_SYNTHETIC_MAX_PUS 4096	/* 8 sockets of 512 PUs: past every lab machine */
/* An lstopo export takes about 1 KB per PU with its caches and PCI devices:
 * a few MB at SB_SYNTHETIC_MAX_PUS.  Past this, xml:FILE is not one. */
#define SB_TOPO_XML_MAX (64LL << 20)

static const char *synthetic_refusal(const char *desc)
{
	unsigned long long prod = 1;
	const char *p = desc;

	while (*p) {
		unsigned long long n;
		char *end;

		while (*p == ' ')
			p++;
		if (!*p)
			break;
		if (isalpha((unsigned char)*p)) {	/* type:N */
			while (isalnum((unsigned char)*p))
				p++;
			if (*p++ != ':')
				return "bad";
		}
		if (!isdigit((unsigned char)*p))
			return "bad";
		n = strtoull(p, &end, 10);
		p = end;
		if (*p == '(') {			/* attributes */
			p += strcspn(p + 1, "()") + 1;
			if (*p++ != ')')
				return "bad";
		}
		if (*p && *p != ' ')
			return "bad";
		if (n > 1 && (prod *= n > SB_SYNTHETIC_MAX_PUS ? SB_SYNTHETIC_MAX_PUS + 1 : n) >
				     SB_SYNTHETIC_MAX_PUS)
			return "big";
	}
	return NULL;
}

/* Errors echo user input: keep them one line (err.h). */
int sb_topo_load(struct sb_topo **out, const char *spec, char *err, size_t errlen)
{
	struct sb_topo *t = calloc(1, sizeof(*t));
	char *xml = NULL;	/* xml:FILE's text, until hwloc has loaded it */
	int rc;

	*out = NULL;
	if (!t || hwloc_topology_init(&t->h)) {
		snprintf(err, errlen, "cannot initialise hwloc");
		free(t);
		return -1;
	}
	if (spec && strncmp(spec, "synthetic:", 10) == 0) {
		const char *why = synthetic_refusal(spec + 10);

		if (why && strcmp(why, "big") == 0) {
			snprintf(err, errlen, "synthetic topology '%s' is too large (more than %d "
				 "PUs)", spec + 10, SB_SYNTHETIC_MAX_PUS);
			goto fail;
		}
		if (why) {
			snprintf(err, errlen, "bad synthetic topology '%s' (want words type:N, "
				 "e.g. pack:2 numa:2 core:9 pu:2)", spec + 10);
			goto fail;
		}
		if (hwloc_topology_set_synthetic(t->h, spec + 10)) {
			snprintf(err, errlen, "bad synthetic topology '%s'", spec + 10);
			goto fail;
		}
	} else if (spec && strncmp(spec, "xml:", 4) == 0) {
		/* read bounded here, not by hwloc: a device, FIFO or huge file errs, not hangs */
		size_t len;

		xml = sb_input_read(spec + 4, "topology file", SB_TOPO_XML_MAX, &len, err, errlen);
		if (!xml)
			goto fail;
		if (hwloc_topology_set_xmlbuffer(t->h, xml, (int)len + 1)) {
			snprintf(err, errlen, "bad topology XML '%s'", spec + 4);
			goto fail;
		}
	} else if (spec && *spec && strcmp(spec, "native") != 0) {
		snprintf(err, errlen, "unknown topology '%s' (want synthetic:DESC or xml:FILE)", spec);
		goto fail;
	}
	rc = hwloc_topology_load(t->h);
	free(xml);	/* hwloc keeps no pointer into it once loaded */
	xml = NULL;
	if (rc) {
		snprintf(err, errlen, "hwloc cannot load topology '%s'", spec ? spec : "native");
		goto fail;
	}
	t->native = hwloc_topology_is_thissystem(t->h);
	if (hwloc_get_nbobjs_by_type(t->h, HWLOC_OBJ_PU) > SB_SYNTHETIC_MAX_PUS) {
		/* the arity product above is a rough guard; this is the rule */
		snprintf(err, errlen, "topology '%s' has more than %d PUs", spec ? spec : "native",
			 SB_SYNTHETIC_MAX_PUS);
		goto fail;
	}
	fill_pus(t);
	if (t->npus == 0) {
		snprintf(err, errlen, "topology '%s' has no PUs", spec ? spec : "native");
		goto fail;
	}
	*out = t;
	return 0;
fail:
	sb_err_oneline(err);
	hwloc_topology_destroy(t->h);
	free(t->pu);
	free(t);
	free(xml);
	return -1;
}

void sb_topo_destroy(struct sb_topo *t)
{
	if (!t)
		return;
	hwloc_topology_destroy(t->h);
	free(t->pu);
	free(t);
}

int sb_topo_npus(const struct sb_topo *t) { return t->npus; }
int sb_topo_ncores(const struct sb_topo *t) { return t->ncores; }
int sb_topo_npackages(const struct sb_topo *t) { return t->npkgs; }
int sb_topo_nnodes(const struct sb_topo *t) { return t->nnodes; }
bool sb_topo_is_native(const struct sb_topo *t) { return t->native; }

static const struct sb_pu *pu_by_os(const struct sb_topo *t, int os)
{
	for (int i = 0; i < t->npus; i++)
		if (t->pu[i].os == os)
			return &t->pu[i];
	return NULL;
}

bool sb_topo_has_node(const struct sb_topo *t, int node)
{
	return node >= 0 && hwloc_get_numanode_obj_by_os_index(t->h, (unsigned)node) != NULL;
}

int sb_topo_node_os(const struct sb_topo *t, int i)
{
	hwloc_obj_t n = i >= 0 ? hwloc_get_obj_by_type(t->h, HWLOC_OBJ_NUMANODE, (unsigned)i) : NULL;

	return n ? (int)n->os_index : -1;
}

int sb_topo_node_of_cpu(const struct sb_topo *t, int cpu)
{
	const struct sb_pu *p = pu_by_os(t, cpu);

	return p ? p->node_os : -1;
}

/* Package, then NUMA node (groups become runs); in a group each core's first PU before siblings. */
static int cmp_scatter(const void *a, const void *b)
{
	const struct sb_pu *x = *(const struct sb_pu *const *)a, *y = *(const struct sb_pu *const *)b;

	if (x->pkg != y->pkg)
		return x->pkg - y->pkg;
	if (x->node != y->node)
		return x->node - y->node;
	if (x->smt != y->smt)
		return x->smt - y->smt;
	return x->core - y->core;
}

/* Round-robin over the runs of in[0..n), of one package (by_pkg) or of one
 * NUMA node: one from each run in turn, into out.  run: room for n + 1. */
static void interleave(const struct sb_pu **in, int n, bool by_pkg, int *run,
		       const struct sb_pu **out)
{
	int nr = 0, taken = 0;

	for (int i = 0; i < n; i++)
		if (!i || (by_pkg ? in[i]->pkg != in[i - 1]->pkg : in[i]->node != in[i - 1]->node))
			run[nr++] = i;
	run[nr] = n;
	for (int round = 0; taken < n; round++)
		for (int r = 0; r < nr; r++)
			if (run[r] + round < run[r + 1])
				out[taken++] = in[run[r] + round];
}

/* One sort, then runs: O(PUs log PUs), not a pass over every PU per
 * (package, node) pair (cubic on a synthetic machine of 4000 packages). */
static void plan_scatter(const struct sb_topo *t, int *cpus, int n)
{
	/* arrays of pointers: sizeof a pointer is meant (NOLINT: clang-tidy's
	 * sizeof-expression takes it for sizeof(struct *) by mistake) */
	size_t np = (size_t)t->npus, psz = sizeof(const struct sb_pu *);	/* NOLINT */
	/* three arrays of np in one block: sorted, pkg_seq (each package's NUMA
	 * nodes interleaved), order (the packages interleaved) */
	const struct sb_pu **sorted = calloc(3 * np, psz), **pkg_seq = sorted + np;
	const struct sb_pu **order = pkg_seq + np;
	int *run = malloc(sizeof(int) * (np + 1));
	int i, j;

	if (n > t->npus)	/* the caller checked; keeps order[] in bounds below */
		n = t->npus;
	for (i = 0; i < t->npus; i++)
		sorted[i] = &t->pu[i];
	qsort(sorted, np, psz, cmp_scatter);
	for (i = 0; i < t->npus; i = j) {
		for (j = i; j < t->npus && sorted[j]->pkg == sorted[i]->pkg; j++)
			;
		interleave(sorted + i, j - i, false, run, pkg_seq + i);
	}
	interleave(pkg_seq, t->npus, true, run, order);
	for (i = 0; i < n; i++)
		cpus[i] = order[i]->os;	/* NOLINT(clang-analyzer-core.NullDereference) */
	free(sorted);
	free(run);
}

/* Strict hwloc list syntax: N or N-M, comma separated, ascending use. */
static int parse_cpu_list(const struct sb_topo *t, const char *s, int *cpus, int max, int *count,
			  char *err, size_t errlen)
{
	char *mark = calloc(1, 65536);
	const char *p = s;
	int n = 0, c;

	do {	/* "" is bad too: not a digit */
		char *end;
		long a, b;

		if (!isdigit((unsigned char)*p))
			goto bad;
		a = strtol(p, &end, 10);
		b = a;
		p = end;
		if (*p == '-') {
			if (!isdigit((unsigned char)p[1]))
				goto bad;
			b = strtol(p + 1, &end, 10);
			p = end;
		}
		if (a > b || b >= 65536)
			goto bad;
		for (c = (int)a; c <= b; c++) {
			if (!pu_by_os(t, c)) {
				snprintf(err, errlen, "bad CPU list '%s': CPU %d does not exist here", s, c);
				free(mark);
				return -1;
			}
			mark[c] = 1;
		}
		if (*p == ',' && p[1])
			p++;
		else if (*p)
			goto bad;
	} while (*p);
	for (c = 0; c < 65536; c++)
		if (mark[c]) {
			if (n < max)
				cpus[n] = c;
			n++;
		}
	*count = n;
	free(mark);
	return 0;
bad:
	snprintf(err, errlen, "bad CPU list '%s' (want e.g. 0-3,8)", s);
	free(mark);
	return -1;
}

/* Errors echo user input: keep them one line (err.h). */
int sb_topo_plan(const struct sb_topo *t, const char *placement, int n, int *cpus,
		 char *err, size_t errlen)
{
	int i, avail, k, rc;

	if (n < 1) {
		snprintf(err, errlen, "thread count must be at least 1 (got %d)", n);
		return -1;
	}
	if (strncmp(placement, "list:", 5) == 0) {
		/* the first n of the list, in ascending order */
		rc = parse_cpu_list(t, placement + 5, cpus, n, &avail, err, errlen);
		if (!rc && n > avail) {
			snprintf(err, errlen, "%d threads but the list '%s' has %d CPUs", n,
				 placement + 5, avail);
			rc = -1;
		}
		if (rc)
			sb_err_oneline(err);
		return rc;
	}
	if (strcmp(placement, "compact") == 0 || strcmp(placement, "scatter") == 0) {
		avail = t->npus;
	} else if (strcmp(placement, "cores") == 0) {
		avail = t->ncores;
	} else {
		snprintf(err, errlen, "unknown placement '%s' (want compact, cores, scatter or list:CPUS)",
			 placement);
		sb_err_oneline(err);
		return -1;
	}
	if (n > avail) {
		snprintf(err, errlen, "%d threads but placement %s has %d CPUs here", n, placement,
			 avail);
		return -1;
	}
	if (strcmp(placement, "compact") == 0) {
		for (i = 0; i < n; i++)
			cpus[i] = t->pu[i].os;
	} else if (strcmp(placement, "cores") == 0) {
		for (i = 0, k = 0; i < t->npus && k < n; i++)
			if (t->pu[i].smt == 0)
				cpus[k++] = t->pu[i].os;
	} else {
		plan_scatter(t, cpus, n);
	}
	return 0;
}

int sb_topo_check_bindable(const struct sb_topo *t, char *err, size_t errlen)
{
	const char *vars[] = { "HWLOC_XMLFILE", "HWLOC_SYNTHETIC", "HWLOC_FSROOT" };

	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
		if (getenv(vars[i])) {
			snprintf(err, errlen, "%s is set: refusing to bind threads on a topology "
				 "that may not be this machine (unset it)", vars[i]);
			return -1;
		}
	if (!t->native) {
		snprintf(err, errlen, "the topology is not this machine (synthetic or XML): "
			 "threads can be planned but not bound");
		return -1;
	}
	return 0;
}

void *sb_topo_alloc_on_node(const struct sb_topo *t, size_t size, int node, bool *bound,
			    char *err, size_t errlen)
{
	hwloc_obj_t n = hwloc_get_numanode_obj_by_os_index(t->h, (unsigned)node);
	void *p = NULL;

	*bound = false;
	if (!n) {
		snprintf(err, errlen, "NUMA node %d does not exist here", node);
		return NULL;
	}
	if (t->native)
		p = hwloc_alloc_membind(t->h, size, n->nodeset, HWLOC_MEMBIND_BIND,
					HWLOC_MEMBIND_BYNODESET | HWLOC_MEMBIND_STRICT);
	*bound = p != NULL;
	if (!p)
		p = hwloc_alloc(t->h, size);
	if (!p) {
		snprintf(err, errlen, "cannot allocate %zu bytes", size);
		return NULL;
	}
	memset(p, 0, size);	/* first touch, after the policy is set */
	return p;
}

void sb_topo_free(const struct sb_topo *t, void *p, size_t size)
{
	if (p)
		hwloc_free(t->h, p, size);
}

void sb_topo_print(const struct sb_topo *t, FILE *f)
{
	const char *model = NULL;
	int pk, nd, i;

	for (i = 0; !model && i < hwloc_get_nbobjs_by_type(t->h, HWLOC_OBJ_PACKAGE); i++)
		model = hwloc_obj_get_info_by_name(hwloc_get_obj_by_type(t->h, HWLOC_OBJ_PACKAGE, i),
						   "CPUModel");
	fprintf(f, "machine: %d packages, %d NUMA nodes, %d cores, %d PUs (%s)%s%s\n", t->npkgs,
		t->nnodes, t->ncores, t->npus, t->native ? "this system" : "not this system",
		model ? " — " : "", model ? model : "");
	for (pk = 0; pk < t->npkgs; pk++)
		for (nd = 0; nd < t->nnodes; nd++) {
			int first = 1;

			for (i = 0; i < t->npus; i++) {
				if (t->pu[i].pkg != pk || t->pu[i].node != nd)
					continue;
				if (first)
					fprintf(f, "  package %d node %d: CPUs", pk,
						t->pu[i].node_os);
				fprintf(f, "%s%d", first ? " " : ",", t->pu[i].os);
				first = 0;
			}
			if (!first)
				fputc('\n', f);
		}
}

int sb_topo_cpu_where(const struct sb_topo *t, int cpu, int *pkg, int *core, int *node)
{
	const struct sb_pu *p = pu_by_os(t, cpu);

	if (!p)
		return -1;
	*pkg = p->pkg;
	*core = p->core;
	*node = p->node_os;
	return 0;
}

const char *const sb_rel_names[SB_REL_COUNT] = { "smt", "cache", "node", "package", "remote" };

static int relation(const struct sb_pu *a, const struct sb_pu *b)
{
	if (!a || !b || a == b)
		return -1;
	if (a->core == b->core)
		return SB_REL_SMT;
	if ((a->llc >= 0 && a->llc == b->llc) || (a->l2 >= 0 && a->l2 == b->l2))
		return SB_REL_CACHE;
	if (a->pkg == b->pkg)
		return a->node == b->node ? SB_REL_NODE : SB_REL_PACKAGE;
	return SB_REL_REMOTE;
}

int sb_topo_relation(const struct sb_topo *t, int cpu_a, int cpu_b)
{
	return relation(pu_by_os(t, cpu_a), pu_by_os(t, cpu_b));
}

int sb_topo_relation_at(const struct sb_topo *t, int i, int j)
{
	if (i < 0 || j < 0 || i >= t->npus || j >= t->npus)
		return -1;
	return relation(&t->pu[i], &t->pu[j]);
}

int sb_topo_pu_os(const struct sb_topo *t, int i)
{
	return i >= 0 && i < t->npus ? t->pu[i].os : -1;
}
