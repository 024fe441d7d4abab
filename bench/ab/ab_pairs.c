/* ab_pairs.c — one paired comparison's trials (ab/ab.h): each one Google
 * Benchmark run of a point, in pairs of random order, with stats/paired.h
 * after every pair once --min-pairs are done (docs/precision.md). */
#include "ab/ab.h"
#include "core/util.h"
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define AB_DEFAULT_PAIRS 20
#define AB_DEFAULT_TRIAL_S 0.05
#define AB_DEFAULT_MAX_TIME_S 120
#define AB_CONF 0.95
#define AB_SEED 0x5eed5eedu	/* the order of each pair: drawn, reproducible */

volatile sig_atomic_t sb_ab_signal;

/* A family option's value as a number (nr-pages of the window family). */
static double family_option(const char *family, const char *name, double dflt)
{
	for (int f = 0; sb_drivers[f]; f++) {
		const struct sb_option *op = sb_drivers[f]->options;

		if (strcmp(sb_drivers[f]->family, family))
			continue;
		for (; op && op->name; op++)
			if (!strcmp(op->name, name) && op->type == SB_OPT_ULONG)
				return (double)*(unsigned long *)op->value;
	}
	return dflt;
}

/* One trial's report, and what trial() makes of it. */
struct trial_out {
	double ops, limited, real_ns;
	long long iterations;
	bool error;
	char why[256];
	double v[SB_AB_METRICS];	/* the metrics (NAN where none) */
	double ns;			/* the whole trial's */
};

static void on_trial(const struct sb_run_report *r, void *arg)
{
	struct trial_out *t = arg;

	if (r->aggregate[0])
		return;
	t->iterations = r->iterations;
	t->real_ns = r->real_ns;
	if (r->error) {
		t->error = true;
		snprintf(t->why, sizeof(t->why), "%s", r->error);
	}
	for (int i = 0; i < r->ncounters; i++) {
		if (!strcmp(r->counter_names[i], "ops_per_s"))
			t->ops = r->counter_values[i];
		if (!strcmp(r->counter_names[i], "limited"))
			t->limited = r->counter_values[i];
	}
}

/* One trial of p into *t; -1 with err. */
static int trial(const struct sb_point *p, long long iterations, double min_time,
		 struct trial_out *t, char *err, size_t errlen)
{
	int rc;

	*t = (struct trial_out){ .ops = NAN, .limited = NAN };
	rc = sb_gbench_trial(p->name, iterations, min_time, on_trial, t);
	if (rc || t->error || !(t->ops > 0)) {
		snprintf(err, errlen, "trial of %s failed: %s", p->name, rc < 0 ? "not registered" :
			 t->error ? t->why : "no ops_per_s");
		return -1;
	}
	t->v[0] = t->ops;
	/* a call not limited admits nr-pages pages (sb_window_account): no other counter */
	t->v[1] = strcmp(p->f.family, "window") || !isfinite(t->limited) ? NAN :
		  t->ops * (1 - t->limited) * family_option("window", "nr-pages", 1);
	t->ns = t->real_ns * (double)t->iterations;
	return 0;
}

static uint32_t rng_next(uint32_t *s)	/* xorshift32 */
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* iters, that made a trial ns long, scaled to a trial of trial_s; at least 1 */
static long long scaled(long long iters, double ns, double trial_s)
{
	long long n = ns > 0 ? llround((double)iters * trial_s * 1e9 / ns) : iters;

	return n < 1 ? 1 : n;
}

/* Trials of about trial_s from a warm-up one: one count for all, so equal work each. */
static int calibrate(const struct sb_point *p, double trial_s, long long *iters, char *err,
		     size_t errlen)
{
	struct trial_out t;

	if (trial(p, 0, trial_s, &t, err, errlen))
		return -1;
	*iters = scaled(t.iterations, t.ns, trial_s);
	return 0;
}

/* A warm-up trial may be atypical (issue 19: twice as fast as the next):
 * after RETUNE_PAIRS pairs each side's count is set once more from its
 * trials' median length.  Ratios are of rates: either count compares alike. */
#define RETUNE_PAIRS 5

static void retune(long long *iters, const double *ns, double trial_s)
{
	double v[RETUNE_PAIRS];	/* sb_median sorts: a copy */

	memcpy(v, ns, sizeof(v));
	*iters = scaled(*iters, sb_median(v, RETUNE_PAIRS), trial_s);
}

static bool all_finite(const double *v, int n)
{
	for (int i = 0; i < n; i++)
		if (!isfinite(v[i]) || v[i] <= 0)
			return false;
	return true;
}

/* *p resized to n doubles; false, *p kept, when out of memory */
static bool resize(double **p, int n)
{
	double *q = realloc(*p, sizeof(*q) * (size_t)n);

	if (!q)
		return false;
	*p = q;
	return true;
}

/* The statistics of every metric that all pairs have. */
static void summarize(struct sb_ab_cmp *c, const struct sb_ab_trial *t, int n, double *a,
		      double *b)
{
	static const char *const names[SB_AB_METRICS] = { "ops_per_s", "admitted_pages_per_s" };

	c->nmetrics = 0;
	for (int k = 0; k < SB_AB_METRICS; k++) {
		for (int i = 0; i < n; i++) {
			/* NOLINTNEXTLINE(clang-analyzer-core.NullDereference): t has n (SB_GROW) */
			a[i] = t[i].a[k];
			b[i] = t[i].b[k];
		}
		if (!all_finite(a, n) || !all_finite(b, n))
			continue;
		snprintf(c->m[c->nmetrics].name, sizeof(c->m[0].name), "%s", names[k]);
		if (sb_paired_ratio(a, b, n, AB_CONF, &c->m[c->nmetrics].st) == 0)
			c->nmetrics++;
	}
}

static void progress(const struct sb_ab_cmp *c, bool quiet)
{
	if (quiet || !isatty(STDERR_FILENO))
		return;
	fprintf(stderr, "\r%s -> %s threads:%d: %d pairs, %.0f s, ±%.2g %%   ", c->a_spec,
		c->b_spec, c->a.threads, c->pairs, c->elapsed_s,
		c->nmetrics ? sb_paired_half_pct(&c->m[0].st) : NAN);
}

int sb_ab_compare(const struct sb_opts *o, const struct sb_point *pa, const struct sb_point *pb,
		   struct sb_ab_cmp *c, struct sb_ab_trial **tp, char *err, size_t errlen)
{
	int min_pairs = o->ab_pairs ? o->ab_pairs : AB_DEFAULT_PAIRS, cap = 0, rc = 0;
	double trial_s = o->trial_time > 0 ? o->trial_time : AB_DEFAULT_TRIAL_S;
	double *a = NULL, *b = NULL;
	uint64_t t0 = sb_now_ns();
	struct sb_ab_trial *t = NULL;
	uint32_t seed = AB_SEED;
	double ns_of[2][RETUNE_PAIRS];	/* the first pairs' trial lengths (ns), per side */

	c->trial_time_s = trial_s;
	c->precision_pct = o->precision;
	c->max_time_s = o->precision > 0 ? (o->max_time > 0 ? o->max_time : AB_DEFAULT_MAX_TIME_S) : 0;
	c->stop = SB_AB_INTERRUPTED;
	/* warm-up and length: one trial of each, not recorded */
	if (calibrate(pa, trial_s, &c->a_iterations, err, errlen) ||
	    calibrate(pb, trial_s, &c->b_iterations, err, errlen)) {
		rc = -1;
		goto out;
	}
	for (;;) {
		struct sb_ab_trial *x;

		if (sb_ab_signal)
			break;
		if (SB_GROW(t, cap, c->pairs + 1))
			goto oom;
		x = &t[c->pairs];
		x->b_first = rng_next(&seed) & 1;
		for (int k = 0; k < 2; k++) {
			bool do_b = (k == 0) == x->b_first;
			struct trial_out r;

			if (trial(do_b ? pb : pa, do_b ? c->b_iterations : c->a_iterations, 0, &r,
				  err, errlen)) {
				rc = sb_ab_signal ? 0 : -1;	/* a signal skips the trial */
				goto out;
			}
			memcpy(do_b ? x->b : x->a, r.v, sizeof(r.v));
			ns_of[do_b][c->pairs % RETUNE_PAIRS] = r.ns;
		}
		if (sb_ab_signal)	/* the pair in flight may be cut: not kept */
			break;
		c->pairs++;
		c->elapsed_s = (double)(sb_now_ns() - t0) * 1e-9;
		if (c->pairs == RETUNE_PAIRS) {	/* once: see retune() */
			retune(&c->a_iterations, ns_of[0], trial_s);
			retune(&c->b_iterations, ns_of[1], trial_s);
		}
		if (c->pairs < min_pairs) {
			if (c->pairs % 5 == 0 && resize(&a, cap) && resize(&b, cap)) {
				summarize(c, t, c->pairs, a, b);
				progress(c, o->quiet);
			}
			continue;
		}
		if (!resize(&a, cap) || !resize(&b, cap))
			goto oom;
		summarize(c, t, c->pairs, a, b);
		progress(c, o->quiet);
		if (!(o->precision > 0)) {
			c->stop = SB_AB_PAIRS;
			break;
		}
		if (c->nmetrics && sb_paired_half_pct(&c->m[0].st) <= o->precision) {
			c->stop = SB_AB_PRECISION;
			break;
		}
		if (c->elapsed_s >= c->max_time_s) {
			c->stop = SB_AB_MAX_TIME;
			break;
		}
	}
out:
	c->elapsed_s = (double)(sb_now_ns() - t0) * 1e-9;
	if (c->pairs > 0 && resize(&a, c->pairs) && resize(&b, c->pairs))
		summarize(c, t, c->pairs, a, b);
	if (!o->quiet && isatty(STDERR_FILENO))
		fputc('\n', stderr);
	free(a);
	free(b);
	*tp = t;
	return rc;
oom:
	snprintf(err, errlen, "out of memory after %d pairs", c->pairs);
	rc = -1;
	goto out;
}
