/* test_calibrate.c — the latency-matrix planner on the lab machines'
 * topologies (synthetic), the calibration table and the limit arithmetic
 * on fixtures, with broken pair sets and records that the checks must catch. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "machine/topo.h"

#include "check.h"
#include "run/limits.h"

static struct sb_topo *load(const char *spec)
{
	struct sb_topo *t = NULL;
	char err[256];

	CHECK(sb_topo_load(&t, spec, err, sizeof(err)) == 0, "load %s: %s", spec, err);
	return t;
}

/* Relations present among all pairs that the pair set lacks: a bit mask. */
static unsigned missing_relations(const struct sb_topo *t, const int *pairs, int n)
{
	unsigned all = 0, got = 0;
	int npus = sb_topo_npus(t), i, j;

	for (i = 0; i < npus; i++)
		for (j = i + 1; j < npus; j++)
			all |= 1u << sb_topo_relation(t, sb_topo_pu_os(t, i), sb_topo_pu_os(t, j));
	for (i = 0; i < n; i++)
		got |= 1u << sb_topo_relation(t, pairs[2 * (size_t)i], pairs[2 * (size_t)i + 1]);
	return all & ~got;
}

/* Sorted, a < b, no repeats, no diagonal. */
static bool well_formed(const int *p, int n)
{
	for (int i = 0; i < n; i++) {
		if (p[2 * (size_t)i] >= p[2 * (size_t)i + 1])
			return false;
		if (i && (p[2 * (size_t)i - 2] > p[2 * (size_t)i] ||
			  (p[2 * (size_t)i - 2] == p[2 * (size_t)i] && p[2 * (size_t)i - 1] >= p[2 * (size_t)i + 1])))
			return false;
	}
	return true;
}

static void planner(const char *spec, int want_classes)
{
	struct sb_topo *t = load(spec);
	int npus = sb_topo_npus(t), npk = sb_topo_npackages(t), *s = NULL, *s2 = NULL, *all = NULL;
	int ns = sb_topo_pairs(t, SB_PAIRS_SAMPLE, &s), ns2 = sb_topo_pairs(t, SB_PAIRS_SAMPLE, &s2);
	int na = sb_topo_pairs(t, SB_PAIRS_ALL, &all), classes = 0;
	unsigned miss;

	CHECK(na == npus * (npus - 1) / 2, "%s: all pairs %d, want %d", spec, na, npus * (npus - 1) / 2);
	CHECK(well_formed(all, na) && well_formed(s, ns), "%s: pairs sorted, a < b, no repeats", spec);
	CHECK(ns > 0 && ns <= 2 * npus + npk * npk, "%s: sample of %d pairs is not O(PUs) (%d PUs)",
	      spec, ns, npus);
	CHECK(ns2 == ns && !memcmp(s, s2, sizeof(int) * 2 * ns), "%s: sample deterministic", spec);
	miss = missing_relations(t, s, ns);
	CHECK(miss == 0, "%s: sample misses relations 0x%x", spec, miss);
	/* the fixture has the relations we think it has */
	miss = missing_relations(t, NULL, 0);
	for (int r = 0; r < SB_REL_COUNT; r++)
		classes += (miss >> r) & 1;
	CHECK(classes == want_classes, "%s: %d relations, want %d", spec, classes, want_classes);
	/* broken fixture: the sample without its cross-package pairs must be caught */
	if (npk > 1) {
		int k = 0, pkg = -1, core, node, pkg2 = -2;

		for (int i = 0; i < ns; i++) {
			sb_topo_cpu_where(t, s[2 * (size_t)i], &pkg, &core, &node);
			sb_topo_cpu_where(t, s[2 * (size_t)i + 1], &pkg2, &core, &node);
			if (pkg == pkg2) {
				s2[2 * (size_t)k] = s[2 * (size_t)i];
				s2[2 * (size_t)k + 1] = s[2 * (size_t)i + 1];
				k++;
			}
		}
		CHECK(missing_relations(t, s2, k) == 1u << SB_REL_REMOTE,
		      "%s: a sample without other-package pairs is caught", spec);
	}
	free(s);
	free(s2);
	free(all);
	sb_topo_destroy(t);
}

static void small_exact(void)
{
	/* 2 packages × 2 cores × SMT2: OS CPUs 0..7 */
	struct sb_topo *t = load("synthetic:pack:2 core:2 pu:2");
	const int want[] = { 0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 4, 5, 4, 6, 4, 7 };
	int *p = NULL, n = sb_topo_pairs(t, SB_PAIRS_SAMPLE, &p);

	CHECK(n == 10 && !memcmp(p, want, sizeof(want)), "pack:2 core:2 pu:2 sample: %d pairs", n);
	CHECK(sb_topo_relation(t, 0, 1) == SB_REL_SMT, "0-1 smt");
	CHECK(sb_topo_relation(t, 0, 2) == SB_REL_NODE, "0-2 same node");
	CHECK(sb_topo_relation(t, 3, 4) == SB_REL_REMOTE, "3-4 other package");
	CHECK(sb_topo_relation(t, 2, 2) == -1 && sb_topo_relation(t, 0, 99) == -1,
	      "no diagonal, unknown CPU");
	free(p);
	sb_topo_destroy(t);
	t = load("synthetic:pack:1 l3:2 core:2 pu:1");
	CHECK(sb_topo_relation(t, 0, 1) == SB_REL_CACHE && sb_topo_relation(t, 0, 2) == SB_REL_NODE,
	      "core complexes: same L3, then same node");
	sb_topo_destroy(t);
}

/* Pairs per relation of a pair set. */
static void per_class(const struct sb_topo *t, const int *p, int n, int count[SB_REL_COUNT])
{
	memset(count, 0, sizeof(int) * SB_REL_COUNT);
	for (int i = 0; i < n; i++) {
		int r = sb_topo_relation(t, p[2 * (size_t)i], p[2 * (size_t)i + 1]);

		if (r >= 0)
			count[r]++;
	}
}

/* The default pairs (by distance class) on a lab machine's shape: every
 * relation the machine has, at most SB_PAIRS_PER_CLASS of each, pairs
 * well-formed and deterministic, spread (no CPU in every pair of a class
 * that has more than one), and want: the relations, as a mask. */
static void classes(const char *spec, unsigned want, int npus_want)
{
	struct sb_topo *t = load(spec);
	int *p = NULL, *p2 = NULL, n = sb_topo_pairs(t, SB_PAIRS_CLASS, &p);
	int n2 = sb_topo_pairs(t, SB_PAIRS_CLASS, &p2), count[SB_REL_COUNT], k = 0;
	unsigned got = 0;

	CHECK(sb_topo_npus(t) == npus_want, "%s: %d PUs, want %d", spec, sb_topo_npus(t), npus_want);
	CHECK(n >= 0 && well_formed(p, n), "%s: class pairs sorted, a < b, no repeats", spec);
	CHECK(n2 == n && !memcmp(p, p2, sizeof(int) * 2 * (size_t)n), "%s: deterministic", spec);
	CHECK(n <= SB_REL_COUNT * SB_PAIRS_PER_CLASS, "%s: %d pairs: bounded", spec, n);
	per_class(t, p, n, count);
	for (int r = 0; r < SB_REL_COUNT; r++) {
		if (count[r])
			got |= 1u << r;
		CHECK(count[r] <= SB_PAIRS_PER_CLASS, "%s: %d %s pairs", spec, count[r],
		      sb_rel_names[r]);
	}
	CHECK(got == want, "%s: classes 0x%x, want 0x%x", spec, got, want);
	CHECK(n < 2 || missing_relations(t, p, n) == 0, "%s: every relation present", spec);
	/* a class of 3 pairs does not reuse one CPU in all of them */
	for (int r = 0; r < SB_REL_COUNT; r++) {
		int a = -1, common = 0, m = 0;

		for (int i = 0; i < n; i++)
			if (sb_topo_relation(t, p[2 * (size_t)i], p[2 * (size_t)i + 1]) == r) {
				if (!m++)
					a = p[2 * (size_t)i];
				common += p[2 * (size_t)i] == a || p[2 * (size_t)i + 1] == a;
			}
		CHECK(m < 3 || common < m, "%s: %s pairs spread", spec, sb_rel_names[r]);
		k += m;
	}
	CHECK(k == n, "%s: every pair has a relation", spec);
	/* broken fixture: the set without its last class must be caught */
	if (n > 1) {
		int last = sb_topo_relation(t, p[2 * (size_t)n - 2], p[2 * (size_t)n - 1]), j = 0;

		for (int i = 0; i < n; i++)
			if (sb_topo_relation(t, p[2 * (size_t)i], p[2 * (size_t)i + 1]) != last) {
				p2[2 * (size_t)j] = p[2 * (size_t)i];
				p2[2 * (size_t)j + 1] = p[2 * (size_t)i + 1];
				j++;
			}
		CHECK(missing_relations(t, p2, j) == 1u << last,
		      "%s: a set without its %s pairs is caught", spec, sb_rel_names[last]);
	}
	free(p);
	free(p2);
	sb_topo_destroy(t);
}

#define R(x) (1u << SB_REL_##x)

static void class_pairs(void)
{
	/* the three lab shapes of docs/running.md */
	classes("synthetic:pack:2 numa:1 l3:1 core:12 pu:2", R(SMT) | R(CACHE) | R(REMOTE), 48);
	classes("synthetic:pack:2 numa:2 core:5 pu:8", R(SMT) | R(NODE) | R(PACKAGE) | R(REMOTE),
		160);
	classes("synthetic:pack:2 numa:1 l3:11 core:2 pu:4",
		R(SMT) | R(CACHE) | R(NODE) | R(REMOTE), 176);
	/* POWER9's core pairs as a shared L2 (no L3 level) */
	classes("synthetic:pack:2 l2:11 core:2 pu:4", R(SMT) | R(CACHE) | R(NODE) | R(REMOTE), 176);
	classes("synthetic:pack:4 numa:2 l3:2 core:4 pu:2", R(SMT) | R(CACHE) | R(NODE) |
		R(PACKAGE) | R(REMOTE), 128);
	classes("synthetic:pack:1 core:16 pu:1", R(NODE), 16);	/* the 16-core KVM guest */
	classes("synthetic:pack:1 core:2 pu:1", R(NODE), 2);
	classes("synthetic:pack:1 core:1 pu:2", R(SMT), 2);
	classes("synthetic:pack:1 core:1 pu:1", 0, 1);
	{	/* exactly: 2 CPUs is their pair; 4 SMT2 cores, spread */
		struct sb_topo *t = load("synthetic:pack:1 core:2 pu:1");
		int *p = NULL, n = sb_topo_pairs(t, SB_PAIRS_CLASS, &p);

		CHECK(n == 1 && p[0] == 0 && p[1] == 1, "2 CPUs: the pair 0,1 (%d pairs)", n);
		free(p);
		sb_topo_destroy(t);
		t = load("synthetic:pack:1 core:4 pu:2");
		n = sb_topo_pairs(t, SB_PAIRS_CLASS, &p);
		{
			int c[SB_REL_COUNT];

			per_class(t, p, n, c);
			CHECK(c[SB_REL_SMT] == 3 && c[SB_REL_NODE] == 3 && n == 6,
			      "core:4 pu:2: 3 smt + 3 node, got %d pairs", n);
		}
		free(p);
		sb_topo_destroy(t);
	}
}

static bool near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fabs(b);
}

/* A typed point: family, strategy, lock ("" none), threads, placement and
 * up to two parameters (NULL: none), as plan/plan.c fills it. */
static struct sb_point_fields fields(const char *fam, const char *strat, const char *lock,
				     int threads, const char *place, const char *k1,
				     const char *v1, const char *k2, const char *v2)
{
	struct sb_point_fields f;

	memset(&f, 0, sizeof(f));
	snprintf(f.family, sizeof(f.family), "%s", fam);
	snprintf(f.strategy, sizeof(f.strategy), "%s", strat);
	snprintf(f.lock, sizeof(f.lock), "%s", lock);
	f.threads = threads;
	snprintf(f.placement, sizeof(f.placement), "%s", place);
	if (k1)
		sb_params_set(&f.params, k1, "%s", v1);
	if (k2)
		sb_params_set(&f.params, k2, "%s", v2);
	return f;
}

static struct sb_point point(struct sb_point_fields f, const struct sb_topo *t, int *cpus)
{
	struct sb_point pt;

	memset(&pt, 0, sizeof(pt));
	pt.f = f;
	sb_point_name(&f, 0, pt.name, sizeof(pt.name));
	pt.threads = f.threads;
	pt.cpus = cpus;
	pt.topo = t;
	return pt;
}

/* Registers f in the run's table (as the plan does); its registered name. */
static const char *reg(struct sb_point_fields f)
{
	static char names[16][256];
	static int k;
	char *n = names[k++ % 16];

	sb_point_name(&f, 1, n, 256);
	sb_points_add(n, &f);
	return n;
}

static void arithmetic(void)
{
	const double two[] = { 50, 150 }, bad[] = { 80, 0 };
	double v;

	CHECK(near(sb_limit_handoff(two, 2), 1e7), "handoff: 1e9 / mean one-way (100 ns)");
	CHECK(isnan(sb_limit_handoff(bad, 2)) && isnan(sb_limit_handoff(two, 0)),
	      "handoff refuses 0 ns and no pairs");
	CHECK(near(sb_limit_rmw(8), 1.25e8) && isnan(sb_limit_rmw(-1)), "rmw: 1e9 / ns");
	CHECK(near(sb_limit_scaling(3e6, 4), 1.2e7) && isnan(sb_limit_scaling(0, 2)),
	      "scaling: threads x 1-thread rate");
	CHECK(near(sb_of_limit(6e6, 1.2e7), 0.5) && isnan(sb_of_limit(1, 0)), "of_limit");

	/* the table: light (warm-up) records do not count; the median of the rest */
	sb_calib_reset();
	sb_calib_record("k", -1, 999, 10);
	sb_calib_record("k", -1, 50, 1000);
	sb_calib_record("k", -1, 70, 900);
	sb_calib_record("k", -1, 60, 1000);
	CHECK(sb_calib_lookup("k", &v) == 0 && v == 60, "weighted median 60, got %g", v);
	sb_calib_record("k", -1, 1e6, 1e6);	/* broken: one heavy outlier now rules */
	CHECK(sb_calib_lookup("k", &v) == 0 && v == 1e6, "a heavier record dominates: %g", v);
	sb_calib_record("z", -1, 0, 10);
	sb_calib_record("z", -1, NAN, 10);
	CHECK(sb_calib_lookup("z", &v) != 0, "0 and NaN are never recorded");
	CHECK(sb_calib_lookup("nosuch", &v) != 0, "unknown key");
	sb_calib_reset();
}

static void limits_for_points(void)
{
	struct sb_topo *t = load("synthetic:pack:2 core:2 pu:1");	/* 0,1 | 2,3 */
	int c01[] = { 0, 1 }, c023[] = { 0, 2, 3 }, c1[] = { 1 };
	struct sb_point p;
	double lim;
	char why[256];

	sb_calib_reset();
	p = point(fields("lock", "ticket", "", 2, "compact", NULL, NULL, NULL, NULL), t, c01);
	CHECK(sb_limit_for(&p, SB_LIMIT_SHARED_WRITE, &lim, why, sizeof(why)) != 0 &&
	      strstr(why, "unavailable"), "no calibration: unavailable (%s)", why);
	sb_calib_record("c2c:store:list:0,1", SB_REL_NODE, 80, 100);
	why[0] = '\0';
	CHECK(sb_limit_for(&p, SB_LIMIT_SHARED_WRITE, &lim, why, sizeof(why)) == 0 &&
	      near(lim, 12.5e6) && !why[0], "2 threads on 0,1: 1e9/80 ns, got %g", lim);
	/* 3 threads: (0,2) measured, (0,3) and (2,3) not: (0,3) from remote's median,
	 * (2,3) has no measured node pair but (0,1): node median 80 */
	sb_calib_record("c2c:store:list:0,2", SB_REL_REMOTE, 200, 100);
	p = point(fields("lock", "ticket", "", 3, "list:0,2,3", NULL, NULL, NULL, NULL), t, c023);
	CHECK(sb_limit_for(&p, SB_LIMIT_SHARED_WRITE, &lim, why, sizeof(why)) == 0 &&
	      near(lim, 1e9 / ((200 + 200 + 80) / 3.0)) && strstr(why, "2 of 3"),
	      "relation fallback: %g (%s)", lim, why);
	/* 1 thread: the cheapest uncontended RMW */
	p = point(fields("lock", "ticket", "", 1, "list:1", NULL, NULL, NULL, NULL), t, c1);
	CHECK(sb_limit_for(&p, SB_LIMIT_SHARED_WRITE, &lim, why, sizeof(why)) != 0, "no RMW cost yet");
	sb_calib_record("op:cas", -1, 10, 1e6);
	sb_calib_record("op:xchg", -1, 8, 1e6);
	sb_calib_record("op:mutex", -1, 2, 1e6);	/* not an RMW bound */
	CHECK(sb_limit_for(&p, SB_LIMIT_SHARED_WRITE, &lim, why, sizeof(why)) == 0 &&
	      near(lim, 1.25e8), "1 thread: 1e9 / cheapest RMW (8 ns), got %g", lim);
	/* scaling: the same benchmark's 1-thread rate, whatever its placement */
	p = point(fields("window", "null", "q", 2, "scatter", "acct", "exact", NULL, NULL), t, c01);
	CHECK(sb_limit_for(&p, SB_LIMIT_SCALING, &lim, why, sizeof(why)) != 0 &&
	      strstr(why, "1-thread"), "no 1-thread run: %s", why);
	sb_calib_record("solo:window/null/q/acct=exact", -1, 3e8, 1e6);
	sb_calib_record("solo:window/null/q/", -1, 1e3, 1e6);	/* another benchmark */
	CHECK(sb_limit_for(&p, SB_LIMIT_SCALING, &lim, why, sizeof(why)) == 0 && near(lim, 6e8),
	      "scaling: 2 x 3e8, got %g", lim);
	sb_calib_reset();
	sb_topo_destroy(t);
}

/* A reported run of the registered benchmark reg; gb: Google Benchmark's
 * own parts of the run name ("/iterations:2000/repeats:1" or ""). */
static void report(const char *reg, const char *gb, const char *agg, const char *error,
		   const char *c1, double v1, const char *c2, double v2)
{
	const char *names[] = { c1, c2 };
	const double values[] = { v1, v2 };
	char name[400];
	struct sb_run_report r = {
		.name = name, .registered = reg, .aggregate = agg, .error = error, .label = "",
		.ncounters = c2 ? 2 : 1, .counter_names = names, .counter_values = values,
	};

	snprintf(name, sizeof(name), "%s%s", reg, gb);
	sb_limits_on_run(&r, NULL);
}

/* The table is fed from reported runs: repetitions count, aggregates and
 * failed runs do not; keys match what sb_limit_for() looks up. */
static void fed_from_reports(void)
{
	const char *c2c = reg(fields("calibrate", "c2c", "", 2, "list:0,1", "op", "store", NULL,
				    NULL));
	const char *cas = reg(fields("calibrate", "c2c", "", 2, "list:0,1", "op", "cas", NULL, NULL));
	const char *xchg = reg(fields("calibrate", "uncontended", "", 1, "list:0", "op", "xchg", NULL,
				     NULL));
	const char *remote = reg(fields("calibrate", "flush", "", 2, "list:0,1", "toucher", "remote",
				       NULL, NULL));
	const char *w1 = reg(fields("window", "null", "", 1, "compact", "acct", "exact", NULL, NULL));
	const char *w2 = reg(fields("window", "null", "", 2, "compact", "acct", "exact", NULL, NULL));
	double v;

	sb_calib_reset();
	report(c2c, "/iterations:2000/repeats:1", "", NULL, "one_way_min_ns", 80, "rel", SB_REL_NODE);
	report(c2c, "/iterations:2000/repeats:1", "", NULL, "one_way_min_ns", 90, "rel", SB_REL_NODE);
	report(c2c, "/iterations:2000/repeats:1", "", NULL, "one_way_min_ns", 70, "rel", SB_REL_NODE);
	/* broken fixtures: an aggregate and a failed run must not move the median */
	report(c2c, "", "mean", NULL, "one_way_min_ns", 1e6, "rel", SB_REL_NODE);
	report(c2c, "", "", "boom", "one_way_min_ns", 1e6, "rel", SB_REL_NODE);
	CHECK(sb_calib_lookup("c2c:store:list:0,1", &v) == 0 && v == 80, "c2c median of 3 reps: %g",
	      v);
	CHECK(sb_calib_lookup_rel("c2c:store:", SB_REL_NODE, &v) == 0 && v == 80, "relation kept");
	report(cas, "", "", NULL, "one_way_min_ns", 60, NULL, 0);
	CHECK(sb_calib_lookup("c2c:cas:list:0,1", &v) == 0 && v == 60, "cas kept apart");
	report(xchg, "", "", NULL, "ns_per_op", 7, "ops_per_s", 1.4e8);
	CHECK(sb_calib_lookup("op:xchg", &v) == 0 && v == 7, "uncontended ns_per_op");
	CHECK(sb_calib_lookup("solo:calibrate/uncontended//op=xchg", &v) != 0,
	      "calibration points are no strategy's 1-thread reference");
	report(remote, "", "", NULL, "us_per_call", 9, NULL, 0);
	CHECK(sb_calib_lookup("flush:remote", &v) == 0 && v == 9, "flush round trip");
	report(w1, "", "", NULL, "ops_per_s", 3e8, NULL, 0);
	report(w2, "", "", NULL, "ops_per_s", 1, NULL, 0);
	CHECK(sb_calib_lookup("solo:window/null//acct=exact", &v) == 0 && v == 3e8,
	      "1-thread rate keyed without threads and place; 2 threads not recorded: %g", v);
	/* broken fixture: a run whose registered name is no planned point feeds nothing */
	sb_calib_reset();
	report("window/null/acct:exact/threads:1/place:compact/unplanned", "", "", NULL, "ops_per_s",
	       3e8, NULL, 0);
	CHECK(sb_calib_lookup("solo:window/null//acct=exact", &v) != 0,
	      "a run without a typed point is not keyed by its name");
	sb_calib_reset();
}

/* Flush cost against the calibrated round trip: the simulated machine's
 * transports and the real kernel's remote flush, each under its own key;
 * absent (with why) when the run did not calibrate it. */
static void flush_rtt(void)
{
	const char *poll, *sig, *remote;
	double rtt = -1;
	char why[256] = "";

	CHECK(near(sb_of_flush_rtt(300, 150), 2), "of_flush_rtt: 300 ns per request / 150 ns");
	CHECK(isnan(sb_of_flush_rtt(300, 0)) && isnan(sb_of_flush_rtt(0, 150)) &&
	      isnan(sb_of_flush_rtt(NAN, 150)) && isnan(sb_of_flush_rtt(300, INFINITY)),
	      "of_flush_rtt refuses 0, NaN and inf");
	sb_calib_reset();
	CHECK(sb_flush_rtt_for("flush:poll", &rtt, why, sizeof(why)) != 0 && rtt == -1 &&
	      strstr(why, "of_flush_rtt: unavailable") && strstr(why, "calibrate/flush/transport:poll"),
	      "no calibration: absent, says which point (%s)", why);
	CHECK(sb_flush_rtt_for("flush:remote", &rtt, why, sizeof(why)) != 0 &&
	      strstr(why, "calibrate/flush/toucher:remote"), "kernel key names its point (%s)", why);
	poll = reg(fields("calibrate", "flush", "", 2, "list:0,1", "transport", "poll", NULL, NULL));
	sig = reg(fields("calibrate", "flush", "", 2, "list:0,1", "transport", "signal", NULL, NULL));
	remote = reg(fields("calibrate", "flush", "", 2, "list:0,1", "toucher", "remote", NULL, NULL));
	report(poll, "/iterations:5000/repeats:1", "", NULL, "us_per_call", 0.15, "ops_per_s", 1);
	report(sig, "", "", NULL, "us_per_call", 12, NULL, 0);
	report(remote, "", "", NULL, "us_per_call", 9, NULL, 0);
	/* broken fixtures: an aggregate and a failed run must not count */
	report(poll, "", "median", NULL, "us_per_call", 1e3, NULL, 0);
	report(poll, "", "", "boom", "us_per_call", 1e3, NULL, 0);
	CHECK(sb_flush_rtt_for("flush:poll", &rtt, why, sizeof(why)) == 0 && near(rtt, 150),
	      "poll round trip 0.15 us = 150 ns, got %g", rtt);
	CHECK(sb_flush_rtt_for("flush:signal", &rtt, why, sizeof(why)) == 0 && near(rtt, 12e3),
	      "signal kept apart: %g", rtt);
	CHECK(sb_flush_rtt_for("flush:remote", &rtt, why, sizeof(why)) == 0 && near(rtt, 9e3),
	      "kernel remote round trip: %g", rtt);
	CHECK(near(sb_of_flush_rtt(600, rtt), 600 / 9e3), "a point's ratio uses its own key");
	sb_calib_reset();
	CHECK(sb_flush_rtt_for("flush:signal", &rtt, why, sizeof(why)) != 0,
	      "nothing carries over a reset");
}

int main(void)
{
	small_exact();
	planner("synthetic:pack:2 numa:2 core:9 pu:2", 4);	/* 2-socket Haswell, COD */
	planner("synthetic:pack:2 numa:2 core:5 pu:8", 4);	/* POWER8 SMT8 */
	planner("synthetic:pack:2 core:20 pu:4", 3);		/* POWER9 SMT4 */
	planner("synthetic:pack:2 l3:4 core:4 pu:2", 4);	/* core complexes */
	planner("synthetic:pack:4 numa:2 l3:2 core:4 pu:2", 5);	/* every relation */
	class_pairs();
	arithmetic();
	limits_for_points();
	fed_from_reports();
	flush_rtt();
	return check_done("test_calibrate");
}
