/* plan.c — the run options into points, each registered as a Google Benchmark. */
#include "plan/plan.h"
#include "results/settings.h"

#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include <stratbench/lock.h>

/* Calibration families first: their results are the limits the others
 * report against (run/limits.h); Google Benchmark runs in this order. */
const struct sb_family_driver *const sb_drivers[] = {
	&sb_calibrate_driver, &sb_window_driver, &sb_lock_driver, &sb_shootdown_driver,
	&sb_shootdown_kernel_driver, &sb_baseline_driver, NULL,
};

#define SB_MAX_VARIANTS 64
#define SB_BRIEF_MIN_TIME 0.05	/* s per calibration point inside a run */

static struct sb_point *points;	/* every registered point */

/* A family's listed strategies: its registry, or the driver's fixed list. */
static int drv_count(const struct sb_family_driver *d)
{
	int n = 0;

	if (d->reg != SB_FAMILY_MAX)
		return sb_registry_count(d->reg, false);
	while (d->names[n])
		n++;
	return n;
}

static const char *drv_at(const struct sb_family_driver *d, int i)
{
	return d->reg != SB_FAMILY_MAX ? sb_registry_at(d->reg, i, false)->name : d->names[i];
}

static bool drv_has(const struct sb_family_driver *d, const char *name)
{
	if (d->reg != SB_FAMILY_MAX)
		return sb_registry_find(d->reg, name) != NULL;
	for (int i = 0; d->names[i]; i++)
		if (strcmp(d->names[i], name) == 0)
			return true;
	return false;
}

static const char *family_names(void)
{
	static char buf[256];
	size_t n = 0;

	for (int f = 0; sb_drivers[f]; f++) {
		bool seen = false;	/* two drivers may share a family (shootdown) */

		for (int g = 0; g < f; g++)
			seen |= strcmp(sb_drivers[g]->family, sb_drivers[f]->family) == 0;
		if (!seen)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s", n ? ", " : "",
					      sb_drivers[f]->family);
	}
	return buf;
}

static void free_list(char **v)
{
	for (int i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

/* The strategies this machine cannot run, a line each, kept until
 * sb_plan_say_skipped(): a usage error found later is the only line. */
static char *skip_buf;
static size_t skip_len;
static FILE *skip_note;

/* The lines kept, said or dropped. */
static void skipped_end(bool say)
{
	if (skip_note)
		fclose(skip_note);
	skip_note = NULL;
	if (say && skip_buf)
		fputs(skip_buf, stderr);
	free(skip_buf);
	skip_buf = NULL;
}

void sb_plan_say_skipped(void)
{
	skipped_end(true);
}

void sb_plan_free(void)
{
	skipped_end(false);
	sb_bench_clear_all();	/* the benchmarks point at the points */
	sb_points_clear();
	while (points) {
		struct sb_point *next = points->next;

		free(points->cpus);
		free(points);
		points = next;
	}
}

const struct sb_point *sb_plan_points(void)
{
	return points;
}

static bool in_list(char **v, int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (strcmp(v[i], s) == 0)
			return true;
	return false;
}

/* A comma list as a NULL-terminated array of fresh strings, less repeats
 * (which would register a benchmark twice).  cpu_lists: a part starting
 * with a digit continues the list:CPUS before it (hwloc's list:0-3,8). */
static char **split_list(const char *s, int *n, bool cpu_lists)
{
	char *dup = strdup(s), *save = NULL, *tok;
	char **v = calloc(strlen(s) + 2, sizeof(*v));
	int k = 0;

	for (tok = strtok_r(dup, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (cpu_lists && k && *tok >= '0' && *tok <= '9' &&
		    strncmp(v[k - 1], "list:", 5) == 0) {
			char *joined = malloc(strlen(v[k - 1]) + strlen(tok) + 2);

			sprintf(joined, "%s,%s", v[k - 1], tok);
			free(v[k - 1]);
			v[k - 1] = joined;
		} else {
			v[k++] = strdup(tok);
		}
	}
	for (int i = k - 1; i > 0; i--)		/* drop repeats, keep first */
		if (in_list(v, i, v[i])) {
			free(v[i]);
			memmove(&v[i], &v[i + 1], sizeof(*v) * (size_t)(k - i));
			k--;
		}
	*n = k;
	free(dup);
	return v;
}

/* The options parsed into lists, and what registering them counted. */
struct plan {
	const struct sb_opts *o;
	const struct sb_topo *t;
	char **strat;			/* NULL: every strategy */
	char **locks;			/* NULL: each driver's default lock */
	char **places;
	int *threads;
	int nstrat, nlocks, nplaces, nthreads;
	bool autop;			/* placement "auto" */
	int registered, skipped;
};

/* What one benchmark runs, less its threads and placement. */
struct sb_what {
	const struct sb_family_driver *drv;
	const char *strategy;		/* registry or driver strings: static */
	const char *lock;		/* NULL: takes none */
	const struct sb_params *variant;/* NULL: the driver has none */
	bool brief;			/* calibration for the limits: short, once */
};

/* One point; ab: "none" or "on" for the two of --counters-ab, else NULL. */
static void add_point_as(const struct plan *p, const struct sb_what *w, int threads,
			 const char *placement, const int *cpus, const char *ab)
{
	const struct sb_family_driver *drv = w->drv;
	const char *lock = w->lock;
	struct sb_point *pt = calloc(1, sizeof(*pt));
	struct sb_point_fields *f = &pt->f;
	int node, nfirst = 0;
	sb_bench *b;

	pt->family = drv->family;
	pt->strategy = w->strategy;
	if (lock) {
		snprintf(pt->lock_name, sizeof(pt->lock_name), "%s", lock);
		pt->lock = pt->lock_name;
	}
	pt->threads = threads;
	snprintf(pt->placement, sizeof(pt->placement), "%s", placement);
	/* the typed point; the name is built from it, once, here */
	snprintf(f->family, sizeof(f->family), "%s", drv->family);
	snprintf(f->strategy, sizeof(f->strategy), "%s", w->strategy);
	snprintf(f->lock, sizeof(f->lock), "%s", lock ? lock : "");
	f->threads = threads;
	snprintf(f->placement, sizeof(f->placement), "%s", placement);
	if (w->variant) {	/* the variant's parameters come before threads:N */
		sb_params_add_all(&f->params, w->variant);
		nfirst = f->params.n;
	}
	/* non-default options: parameters after place:P, so runs compare by them */
	if (drv->params)
		drv->params(&f->params);
	if (ab)
		sb_params_set(&f->params, "counters", "%s", ab);
	pt->next = points;
	points = pt;
	pt->cpus = malloc(sizeof(int) * threads);
	memcpy(pt->cpus, cpus, sizeof(int) * threads);
	pt->topo = p->t;
	node = p->o->home_node >= 0 ? p->o->home_node : sb_topo_node_of_cpu(p->t, cpus[0]);
	pt->home_node = node >= 0 ? node : 0;
	sb_point_name(f, nfirst, pt->name, sizeof(pt->name));
	pt->counters_off = ab && !strcmp(ab, "none");
	pt->brief = w->brief;
	sb_points_add(pt->name, f);
	if (p->o->skip && p->o->skip(pt->name, p->o->skip_arg)) {
		sb_points_set_done(pt->name);	/* done before (--resume): not registered */
		return;
	}
	b = sb_bench_register(pt->name, drv->body, pt);
	sb_bench_use_manual_time(b);
	/* what others' limits come from runs first, whole, even interleaved
	 * (run/limits.h): calibration, 1-thread points (scaling), the rest */
	sb_bench_stage(b, !strcmp(drv->family, "calibrate") ? 0 : threads == 1 ? 1 : 2);
	if (w->brief) {		/* seconds in all, whatever the strategies' flags */
		int64_t n = drv->brief_iterations ? drv->brief_iterations(w->strategy) : 0;

		if (n > 0)
			sb_bench_iterations(b, n);
		else
			sb_bench_min_time(b, SB_BRIEF_MIN_TIME);
		sb_bench_repetitions(b, 1);
	}
}

/* Once per run: a plan that puts two members on SMT siblings of one core
 * measures a shared pipeline, not two CPUs (compact does it on purpose). */
static void warn_smt_shared(const struct sb_topo *t, const char *placement, const int *cpus,
			    int n)
{
	static bool warned;
	char msg[256];
	int pi, ci, pj, cj, node;

	for (int i = 0; i < n && !warned; i++)
		for (int j = i + 1; j < n && !warned; j++) {
			if (sb_topo_cpu_where(t, cpus[i], &pi, &ci, &node) ||
			    sb_topo_cpu_where(t, cpus[j], &pj, &cj, &node) || pi != pj || ci != cj)
				continue;
			warned = true;
			snprintf(msg, sizeof(msg), "placement %s at %d threads puts CPUs %d and %d "
				 "on SMT siblings of one core: they share its pipeline", placement,
				 n, cpus[i], cpus[j]);
			sb_settings_add_warning(msg);	/* printed when a benchmark runs */
		}
}

/* The driver's own CPU sets: one point each, placement list:CPUS. */
static int add_cpu_sets(const struct plan *p, const struct sb_what *w)
{
	struct sb_cpu_set *sets = NULL;
	int n = w->drv->cpu_sets(p->t, w->strategy, w->variant, &sets), i, j;

	for (i = 0; i < n; i++) {
		char place[128];
		size_t len = (size_t)snprintf(place, sizeof(place), "list:");

		for (j = 0; j < sets[i].n; j++)
			len += (size_t)snprintf(place + len, sizeof(place) - len, "%s%d", j ? "," : "",
						sets[i].cpu[j]);
		/* calibration is not A/B'ed with --counters-ab: one point each */
		add_point_as(p, w, sets[i].n, place, sets[i].cpu, NULL);
	}
	free(sets);
	return n;
}

/* The placements for one thread count; "auto" keeps those with distinct
 * CPU sets here, whatever their order (compact, cores and scatter coincide
 * on 1 package, no SMT; cores and scatter at all cores). */
static int add_placements(const struct plan *p, const struct sb_what *w, int threads, char *err,
			  size_t errlen)
{
	int *plans = malloc(sizeof(int) * threads * (p->nplaces + 1));
	int kept = 0, i, j;

	for (i = 0; i < p->nplaces; i++) {
		int *cpus = plans + (size_t)kept * threads;
		bool dup = false;

		if (sb_topo_plan(p->t, p->places[i], threads, cpus, err, errlen)) {
			if (p->autop)
				continue;	/* e.g. cores with more threads than cores */
			free(plans);
			return -1;
		}
		for (j = 0; p->autop && j < kept; j++)
			dup |= sb_plan_same_cpus(plans + (size_t)j * threads, cpus, threads);
		if (dup)
			continue;
		/* --counters-ab: without and with counters, their cost as a same-run ratio */
		if (p->o->counters_ab)
			add_point_as(p, w, threads, p->places[i], cpus, "none");
		add_point_as(p, w, threads, p->places[i], cpus, p->o->counters_ab ? "on" : NULL);
		warn_smt_shared(p->t, p->places[i], cpus, threads);
		kept++;
	}
	free(plans);
	return 0;
}

/* --threads and --placement; explicit placements are validated once, at 1 thread. */
static int parse_threads_places(struct plan *p, char *err, size_t errlen)
{
	const struct sb_opts *o = p->o;
	int cpu;

	p->threads = calloc(sb_topo_npus(p->t) + 4, sizeof(int));
	p->nthreads = sb_topo_thread_counts(p->t, o->threads, p->threads, sb_topo_npus(p->t) + 4,
					    err, errlen);
	if (p->nthreads < 0)
		return -1;
	p->places = p->autop ? split_list("compact,cores,scatter", &p->nplaces, false) :
			       split_list(o->placement, &p->nplaces, true);
	for (int i = 0; i < p->nplaces; i++)
		if (!p->autop && sb_topo_plan(p->t, p->places[i], 1, &cpu, err, errlen))
			return -1;
	return 0;
}

/* --strategy: each name known to a selected family, and not only a calibration. */
static int parse_strategies(struct plan *p, char *err, size_t errlen)
{
	const struct sb_opts *o = p->o;

	if (!o->strategy)
		return 0;
	p->strat = split_list(o->strategy, &p->nstrat, false);
	for (int i = 0; i < p->nstrat; i++) {
		bool found = false, runs = false;
		const char *calib = NULL;

		for (int f = 0; sb_drivers[f]; f++)
			if ((!o->family || strcmp(o->family, sb_drivers[f]->family) == 0) &&
			    drv_has(sb_drivers[f], p->strat[i])) {
				found = true;
				runs |= o->family || !sb_drivers[f]->calibrates;
				if (sb_drivers[f]->calibrates)
					calib = sb_drivers[f]->family;
			}
		if (found && !runs) {	/* a calibration runs only when asked for */
			snprintf(err, errlen, "strategy '%s' is a calibration, run only when "
				 "its family is asked for: add --family=%s", p->strat[i], calib);
			return -1;
		}
		if (!found) {
			snprintf(err, errlen, "unknown strategy '%s'%s%s (see stratbench list)",
				 p->strat[i], o->family ? " in family " : "",
				 o->family ? o->family : "");
			return -1;
		}
	}
	return 0;
}

/* --lock: a list of known locks, or "all" of the registry's. */
static int parse_locks(struct plan *p, char *err, size_t errlen)
{
	const char *lock = p->o->lock;

	if (lock && strcmp(lock, "all") != 0) {
		p->locks = split_list(lock, &p->nlocks, false);
		for (int i = 0; i < p->nlocks; i++)
			if (!sb_lock_find(p->locks[i])) {
				snprintf(err, errlen, "unknown lock '%s' (see stratbench list)",
					 p->locks[i]);
				return -1;
			}
	} else if (lock) {
		p->nlocks = sb_registry_count(SB_FAMILY_lock, false);
		p->locks = calloc(p->nlocks + 1, sizeof(*p->locks));
		for (int i = 0; p->locks && i < p->nlocks; i++)
			if (!(p->locks[i] = strdup(sb_registry_at(SB_FAMILY_lock, i, false)->name)))
				break;
		if (!p->locks || (p->nlocks && !p->locks[p->nlocks - 1])) {
			snprintf(err, errlen, "out of memory");	/* never a lockless plan */
			return -1;
		}
	}
	return 0;
}

/* One strategy of a family: every lock × variant × thread count ×
 * placement, or the driver's own CPU sets.  limits: a brief calibration. */
static int add_strategy(struct plan *p, const struct sb_family_driver *drv, const char *name,
			bool limits, char *err, size_t errlen)
{
	static struct sb_params variants[SB_MAX_VARIANTS];
	const char *deflock[1];
	char **lk = p->locks;
	int nl = p->nlocks, nv, l, v, ti;
	char why[256];

	if (drv->unavailable && drv->unavailable(name, p->t, why, sizeof(why))) {
		/* said by sb_plan_say_skipped(), after every usage check */
		if (skip_note)
			fprintf(skip_note, "stratbench: %s: skipped: %s\n", name, why);
		p->skipped++;
		return 0;
	}
	if (!drv->takes_lock || !drv->takes_lock(name)) {
		nl = 1;
		lk = NULL;
	} else if (!p->locks) {
		deflock[0] = drv->default_lock && sb_lock_find(drv->default_lock) ?
			     drv->default_lock : "ttas";
		lk = (char **)deflock;
		nl = 1;
	}
	memset(variants, 0, sizeof(variants));
	nv = drv->variants ? drv->variants(name, variants, SB_MAX_VARIANTS) : 0;
	for (l = 0; l < nl; l++)
		for (v = 0; v < (nv ? nv : 1); v++) {
			struct sb_what w = {
				.drv = drv, .strategy = name, .lock = lk ? lk[l] : NULL,
				.variant = nv ? &variants[v] : NULL, .brief = limits,
			};

			/* the driver's own CPU sets, or threads × placements */
			if (drv->cpu_sets) {
				p->registered += add_cpu_sets(p, &w);
				continue;
			}
			for (ti = 0; ti < p->nthreads; ti++) {
				if (add_placements(p, &w, p->threads[ti], err, errlen))
					return -1;
				p->registered++;
			}
		}
	return 0;
}

/* Every selected family's strategies, after every option was checked. */
static int plan_register(struct plan *p, char *err, size_t errlen)
{
	const struct sb_opts *o = p->o;
	int f, s;

	if (o->family) {
		for (f = 0; sb_drivers[f] && strcmp(sb_drivers[f]->family, o->family); f++)
			;
		if (!sb_drivers[f]) {
			snprintf(err, errlen, "unknown family '%s' (want %s)",
				 o->family, family_names());
			return -1;
		}
	}
	if (parse_threads_places(p, err, errlen) || parse_strategies(p, err, errlen) ||
	    parse_locks(p, err, errlen))
		return -1;
	for (f = 0; sb_drivers[f]; f++) {	/* options checked together */
		const struct sb_family_driver *drv = sb_drivers[f];

		if ((!o->family || strcmp(o->family, drv->family) == 0) && drv->check &&
		    drv->check(err, errlen))
			return -1;
	}
	for (f = 0; sb_drivers[f]; f++) {
		const struct sb_family_driver *drv = sb_drivers[f];
		bool asked = o->family && strcmp(o->family, drv->family) == 0;
		/* calibration: asked for by --family, or the limits of a --limits run */
		bool limits = drv->calibrates && !asked && o->limits;

		if ((o->family && !asked && !limits) || (drv->calibrates && !asked && !limits))
			continue;
		for (s = 0; s < drv_count(drv); s++) {
			const char *name = drv_at(drv, s);

			if (p->strat && !limits && !in_list(p->strat, p->nstrat, name))
				continue;
			if (add_strategy(p, drv, name, limits, err, errlen))
				return -1;
		}
	}
	if (!p->registered && p->skipped) {	/* each skip has said why: not a usage error */
		snprintf(err, errlen, "nothing to run: every selected strategy was skipped here");
		return 1;
	}
	if (!p->registered) {
		snprintf(err, errlen, "nothing to run: no strategy of the chosen family matches");
		return -1;
	}
	return 0;
}

int sb_plan_register(const struct sb_opts *o, const struct sb_topo *t, char *err, size_t errlen)
{
	struct plan p = { .o = o, .t = t };
	int rc;

	if (!skip_note)
		skip_note = open_memstream(&skip_buf, &skip_len);
	p.autop = strcmp(o->placement, "auto") == 0;
	rc = plan_register(&p, err, errlen);
	if (rc)
		sb_err_oneline(err);	/* errors echo user input: one line (err.h) */
	free(p.threads);
	free_list(p.strat);
	free_list(p.places);
	free_list(p.locks);
	return rc;
}
