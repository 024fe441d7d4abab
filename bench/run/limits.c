/* limits.c — the calibration table and the limits of limits.h. */
#include "run/limits.h"
#include "results/results.h"
#include "core/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SB_CALIB_RECORDS 32	/* per key; later records replace the oldest */

struct calib_entry {
	char key[160];
	int rel;
	int n, next;
	double value[SB_CALIB_RECORDS], weight[SB_CALIB_RECORDS];
};

static struct calib_entry *table;
static int ntable, captable;

static struct calib_entry *find(const char *key)
{
	for (int i = 0; i < ntable; i++)
		if (strcmp(table[i].key, key) == 0)
			return &table[i];
	return NULL;
}

void sb_calib_record(const char *key, int rel, double value, double weight)
{
	struct calib_entry *e = find(key);

	if (!isfinite(value) || !(value > 0) || !(weight > 0))
		return;
	if (!e) {
		if (SB_GROW(table, captable, ntable + 1))
			return;
		e = &table[ntable++];
		memset(e, 0, sizeof(*e));
		snprintf(e->key, sizeof(e->key), "%s", key);
	}
	e->rel = rel;
	e->value[e->next] = value;
	e->weight[e->next] = weight;
	e->next = (e->next + 1) % SB_CALIB_RECORDS;
	if (e->n < SB_CALIB_RECORDS)
		e->n++;
}

/* Median of the records weighing at least a quarter of the heaviest. */
static double entry_value(const struct calib_entry *e)
{
	double v[SB_CALIB_RECORDS] = { 0 }, wmax = 0;
	int i, k = 0;

	for (i = 0; i < e->n; i++)
		wmax = e->weight[i] > wmax ? e->weight[i] : wmax;
	for (i = 0; i < e->n; i++)
		if (e->weight[i] * 4 >= wmax)
			v[k++] = e->value[i];
	return sb_median(v, k);
}

int sb_calib_lookup(const char *key, double *value)
{
	const struct calib_entry *e = find(key);

	if (!e || !e->n)
		return -1;
	*value = entry_value(e);
	return 0;
}

int sb_calib_lookup_rel(const char *prefix, int rel, double *value)
{
	double *v = malloc(sizeof(double) * (ntable ? ntable : 1));
	size_t len = strlen(prefix);
	int i, k = 0;

	for (i = 0; v && i < ntable; i++)
		if (table[i].rel == rel && table[i].n && strncmp(table[i].key, prefix, len) == 0)
			v[k++] = entry_value(&table[i]);
	if (k)
		*value = sb_median(v, k);
	free(v);
	return k ? 0 : -1;
}

void sb_calib_reset(void)
{
	free(table);
	table = NULL;
	ntable = captable = 0;
}

double sb_limit_handoff(const double *one_way_ns, int npairs)
{
	double sum = 0;

	if (npairs < 1)
		return NAN;
	for (int i = 0; i < npairs; i++) {
		if (!(one_way_ns[i] > 0) || !isfinite(one_way_ns[i]))
			return NAN;
		sum += one_way_ns[i];
	}
	/* one line transfer per call, one call at a time: 1 / mean transfer */
	return 1e9 / (sum / npairs);
}

double sb_limit_rmw(double rmw_ns)
{
	return rmw_ns > 0 && isfinite(rmw_ns) ? 1e9 / rmw_ns : NAN;
}

double sb_limit_scaling(double solo_ops_per_s, int threads)
{
	return solo_ops_per_s > 0 && isfinite(solo_ops_per_s) && threads >= 1 ?
	       solo_ops_per_s * threads : NAN;
}

double sb_of_limit(double ops_per_s, double limit_ops)
{
	return limit_ops > 0 && isfinite(limit_ops) && ops_per_s >= 0 ? ops_per_s / limit_ops : NAN;
}

/* A point's 1-thread key: its group (point.h), never its name split apart. */
static void solo_key(const struct sb_point_fields *f, char *buf, size_t len)
{
	char g[400];

	sb_point_group(f, NULL, g, sizeof(g));
	snprintf(buf, len, "solo:%s", g);
}

static bool counter(const struct sb_run_report *r, const char *name, double *v)
{
	for (int k = 0; k < r->ncounters; k++)
		if (!strcmp(r->counter_names[k], name)) {
			*v = r->counter_values[k];
			return true;
		}
	return false;
}

void sb_limits_on_run(const struct sb_run_report *r, void *arg)
{
	const struct sb_point_fields *f = r->registered ? sb_points_find(r->registered) : NULL;
	const char *op, *toucher, *transport;
	char key[600];
	double v, rel = -1;

	(void)arg;
	if (!f || r->error || (r->aggregate && r->aggregate[0]))
		return;		/* repetitions only: aggregates would count twice */
	if (strcmp(f->family, "calibrate")) {
		if (f->threads == 1 && counter(r, "ops_per_s", &v)) {
			solo_key(f, key, sizeof(key));
			sb_calib_record(key, -1, v, 1);
		}
		return;
	}
	op = sb_params_get(&f->params, "op");
	toucher = sb_params_get(&f->params, "toucher");
	transport = sb_params_get(&f->params, "transport");
	/* the bound: the fastest 128-transfer batch, neither member descheduled */
	if (!strcmp(f->strategy, "c2c") && op && counter(r, "one_way_min_ns", &v)) {
		counter(r, "rel", &rel);
		snprintf(key, sizeof(key), "c2c:%s:%s", op, f->placement);
		sb_calib_record(key, (int)rel, v, 1);
	} else if (!strcmp(f->strategy, "uncontended") && op && counter(r, "ns_per_op", &v)) {
		snprintf(key, sizeof(key), "op:%s", op);
		sb_calib_record(key, -1, v, 1);
	} else if (!strcmp(f->strategy, "flush") && (toucher || transport) &&
		   counter(r, "us_per_call", &v)) {
		/* toucher:none|remote, transport:poll|signal -> flush:<value> */
		snprintf(key, sizeof(key), "flush:%s", toucher ? toucher : transport);
		sb_calib_record(key, -1, v, 1);
	}
}

static const char *const rmw_ops[] = { "op:cas", "op:fetch_add", "op:xchg", NULL };

int sb_limit_for(const struct sb_point *pt, enum sb_limit_kind kind, double *limit_ops,
		 char *why, size_t len)
{
	char key[600];
	double v;
	int i, j, k = 0, guessed = 0;

	if (kind == SB_LIMIT_SHARED_WRITE && pt->threads == 1) {
		double best = INFINITY;

		for (i = 0; rmw_ops[i]; i++)
			if (sb_calib_lookup(rmw_ops[i], &v) == 0 && v < best)
				best = v;
		if (!isfinite(best)) {
			snprintf(why, len, "limit: unavailable (no uncontended RMW cost "
				 "calibrated in this run)");
			return -1;
		}
		*limit_ops = sb_limit_rmw(best);
		return 0;
	}
	if (kind == SB_LIMIT_SHARED_WRITE) {
		int np = pt->threads * (pt->threads - 1) / 2;
		double *ow = malloc(sizeof(double) * np);

		for (i = 0; ow && i < pt->threads; i++)
			for (j = i + 1; j < pt->threads; j++) {
				int a = pt->cpus[i] < pt->cpus[j] ? pt->cpus[i] : pt->cpus[j];
				int b = pt->cpus[i] < pt->cpus[j] ? pt->cpus[j] : pt->cpus[i];
				int rel = sb_topo_relation(pt->topo, a, b);

				snprintf(key, sizeof(key), "c2c:store:list:%d,%d", a, b);
				if (sb_calib_lookup(key, &v) == 0) {
					ow[k++] = v;
				} else if (rel >= 0 && sb_calib_lookup_rel("c2c:store:", rel, &v) == 0) {
					ow[k++] = v;
					guessed++;
				} else {
					snprintf(why, len, "limit: unavailable (CPUs %d and %d: no "
						 "line transfer calibrated in this run)", a, b);
					free(ow);
					return -1;
				}
			}
		*limit_ops = sb_limit_handoff(ow, k);
		free(ow);
		if (guessed)
			snprintf(why, len, "limit: %d of %d CPU pairs from their relation's "
				 "median (not measured)", guessed, k);
		return isfinite(*limit_ops) ? 0 : -1;
	}
	solo_key(&pt->f, key, sizeof(key));
	if (sb_calib_lookup(key, &v)) {
		snprintf(why, len, "limit: unavailable (no 1-thread run of this benchmark "
			 "earlier in this run)");
		return -1;
	}
	*limit_ops = sb_limit_scaling(v, pt->threads);
	return isfinite(*limit_ops) ? 0 : -1;
}

void sb_limits_report(sb_state *st, const struct sb_point *pt, enum sb_limit_kind kind,
		      double ops_per_s)
{
	char why[256] = "";
	double limit;

	if (!(ops_per_s > 0))
		return;
	if (pt->threads == 1 && kind == SB_LIMIT_SCALING) {
		/* its own rate is its bound: nothing to report */
		sb_state_append_label(st, "limit: none at 1 thread (this run is the scaling "
				   "reference)");
		return;
	}
	if (sb_limit_for(pt, kind, &limit, why, sizeof(why))) {
		sb_state_append_label(st, why);
		return;
	}
	if (why[0])
		sb_state_append_label(st, why);
	sb_state_counter(st, "limit_ops", limit, SB_COUNTER_DEFAULT);
	sb_state_counter(st, "of_limit", sb_of_limit(ops_per_s, limit), SB_COUNTER_DEFAULT);
}

double sb_of_flush_rtt(double ns_per_req, double rtt_ns)
{
	return rtt_ns > 0 && isfinite(rtt_ns) && ns_per_req > 0 && isfinite(ns_per_req) ?
	       ns_per_req / rtt_ns : NAN;
}

int sb_flush_rtt_for(const char *key, double *rtt_ns, char *why, size_t len)
{
	double us;

	if (sb_calib_lookup(key, &us)) {
		snprintf(why, len, "of_flush_rtt: unavailable (no calibrate/flush/%s%s in this "
			 "run: run with --limits)", strcmp(key, "flush:remote") ? "transport:" :
			 "toucher:", strchr(key, ':') + 1);
		return -1;
	}
	*rtt_ns = us * 1e3;
	return 0;
}

void sb_flush_rtt_report(sb_state *st, const char *key, double ns_per_req)
{
	char why[256];
	double rtt;

	if (!(ns_per_req > 0) || !isfinite(ns_per_req)) {
		sb_state_append_label(st, "of_flush_rtt: unavailable (no flush request sent)");
		return;
	}
	if (sb_flush_rtt_for(key, &rtt, why, sizeof(why))) {
		sb_state_append_label(st, why);
		return;
	}
	sb_state_counter(st, "flush_rtt_ns", rtt, SB_COUNTER_DEFAULT);
	sb_state_counter(st, "of_flush_rtt", sb_of_flush_rtt(ns_per_req, rtt), SB_COUNTER_DEFAULT);
}
