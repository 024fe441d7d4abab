/* ab.c — `stratbench run --ab=A,B[;A,B...]`: paired comparisons
 * (docs/precision.md).  Each side A, B is strategy[+key:value...]; both
 * are planned as usual (plan.c) and every (thread count, placement) the
 * options give is one comparison of the A point and the B point there.  A
 * comparison runs alternating short trials, one Google Benchmark run of one
 * point each (gbench.h's trials), in pairs whose order is drawn at random,
 * and reports the ratio B/A with its interval (report/paired.h); with
 * --precision it adds pairs until the interval is narrow enough or
 * --max-time runs out.  --out=DIR writes DIR/ab.json (report/ab.h) once
 * every comparison is done, beside whatever DIR holds (a run's results:
 * the suite adds its comparisons to its run's directory). */
#include "cmd/cmd.h"
#include "report/ab.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define AB_MAX_SIDES 16
#define AB_MAX_SEL 8
#define AB_MAX_CMPS 64
#define AB_DEFAULT_PAIRS 20
#define AB_DEFAULT_TRIAL_S 0.05
#define AB_DEFAULT_MAX_TIME_S 120
#define AB_CONF 0.95
#define AB_SEED 0x5eed5eedu	/* the order of each pair: drawn, reproducible */

/* One side as given: strategy[+key:value...]; "lock" selects at planning. */
struct side {
	char spec[128];
	char strategy[64];
	char lock[64];			/* "" : --lock or the family's default */
	int nsel;
	char key[AB_MAX_SEL][24], val[AB_MAX_SEL][64];
	const struct sb_point *first, *stop;	/* its points: first .. before stop */
};

struct pairspec {
	int a, b;			/* sides */
};

static volatile sig_atomic_t ab_signal;

static void on_signal(int sig)
{
	ab_signal = sig;
	sb_gbench_stop();
	signal(sig, SIG_DFL);	/* a second one kills */
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* strategy[+key:value...] into *s; -1 with err. */
static int parse_side(const char *text, size_t len, struct side *s, const char *all, char *err,
		      size_t errlen)
{
	char buf[128], *save = NULL, *tok;

	memset(s, 0, sizeof(*s));
	if (len == 0 || len >= sizeof(buf)) {
		snprintf(err, errlen, "bad value in '--ab=%s': want A,B[;A,B...], each "
			 "strategy[+key:value...]", all);
		return -1;
	}
	memcpy(buf, text, len);
	buf[len] = '\0';
	snprintf(s->spec, sizeof(s->spec), "%s", buf);
	tok = strtok_r(buf, "+", &save);
	if (!tok || snprintf(s->strategy, sizeof(s->strategy), "%s", tok) >= (int)sizeof(s->strategy))
		goto bad;
	while ((tok = strtok_r(NULL, "+", &save))) {
		char *colon = strchr(tok, ':');

		if (!colon || colon == tok || !colon[1] || s->nsel == AB_MAX_SEL)
			goto bad;
		*colon = '\0';
		if (!strcmp(tok, "lock")) {
			snprintf(s->lock, sizeof(s->lock), "%s", colon + 1);
			continue;
		}
		snprintf(s->key[s->nsel], sizeof(s->key[0]), "%s", tok);
		snprintf(s->val[s->nsel++], sizeof(s->val[0]), "%s", colon + 1);
	}
	return 0;
bad:
	snprintf(err, errlen, "bad value in '--ab=%s': '%s' is not strategy[+key:value...]", all,
		 s->spec);
	return -1;
}

/* --ab's text into sides (repeats shared) and pairs. */
static int parse_ab(const char *ab, struct side *sides, int *nsides, struct pairspec *pairs,
		    int *npairs, char *err, size_t errlen)
{
	const char *p = ab;

	*nsides = *npairs = 0;
	while (*p) {
		size_t n = strcspn(p, ";"), comma;
		struct side s[2];
		int idx[2];

		comma = strcspn(p, ",");
		if (comma >= n || memchr(p + comma + 1, ',', n - comma - 1)) {
			snprintf(err, errlen, "bad value in '--ab=%s': a comparison is two sides, "
				 "A,B (got '%.*s')", ab, (int)n, p);
			return -1;
		}
		if (parse_side(p, comma, &s[0], ab, err, errlen) ||
		    parse_side(p + comma + 1, n - comma - 1, &s[1], ab, err, errlen))
			return -1;
		for (int k = 0; k < 2; k++) {
			int i;

			for (i = 0; i < *nsides && strcmp(sides[i].spec, s[k].spec); i++)
				;
			if (i == *nsides) {
				if (*nsides == AB_MAX_SIDES) {
					snprintf(err, errlen, "--ab names more than %d sides", AB_MAX_SIDES);
					return -1;
				}
				sides[(*nsides)++] = s[k];
			}
			idx[k] = i;
		}
		if (idx[0] == idx[1]) {
			snprintf(err, errlen, "bad value in '--ab=%s': A and B are both '%s'", ab,
				 s[0].spec);
			return -1;
		}
		if (*npairs == AB_MAX_CMPS) {
			snprintf(err, errlen, "--ab names more than %d comparisons", AB_MAX_CMPS);
			return -1;
		}
		pairs[*npairs].a = idx[0];
		pairs[(*npairs)++].b = idx[1];
		p += n;
		if (*p && !*++p) {
			snprintf(err, errlen, "bad value in '--ab=%s': a trailing ';'", ab);
			return -1;
		}
	}
	if (!*npairs) {
		snprintf(err, errlen, "bad value in '--ab=': want A,B");
		return -1;
	}
	return 0;
}

/* The options that make no sense with --ab, or without it. */
static int check_opts(const struct sb_opts *o, char *err, size_t errlen)
{
	if (!o->ab) {
		const char *lone = o->ab_pairs ? "--min-pairs" : o->trial_time > 0 ? "--trial-time" :
				   o->precision > 0 ? "--precision" : o->max_time > 0 ? "--max-time" :
				   NULL;

		if (lone)
			snprintf(err, errlen, "%s is an option of the paired comparison: add "
				 "--ab=A,B", lone);
		return lone ? -1 : 0;
	}
	if (o->max_time > 0 && !(o->precision > 0)) {
		snprintf(err, errlen, "--max-time bounds --precision: add --precision=PCT");
		return -1;
	}
	if (o->strategy || o->resume || o->counters_ab || o->limits) {
		snprintf(err, errlen, "--ab runs its own plan: drop %s", o->strategy ? "--strategy "
			 "(--ab names the strategies)" : o->resume ? "--resume" : o->counters_ab ?
			 "--counters-ab" : "--limits");
		return -1;
	}
	for (int i = 1; i < o->gb_argc; i++) {
		snprintf(err, errlen, "--ab runs its own trials (--trial-time, --min-pairs): drop %s",
			 o->gb_argv[i]);
		return -1;
	}
	return 0;
}

/* Plans side s (its strategy, its lock or --lock); its points are those
 * added meanwhile. */
static int plan_side(const struct sb_opts *o, const struct sb_topo *t, struct side *s, char *err,
		     size_t errlen)
{
	struct sb_opts so = *o;
	int rc;

	so.strategy = s->strategy;
	if (s->lock[0])
		so.lock = s->lock;
	s->stop = sb_plan_points();
	rc = sb_plan_register(&so, t, err, errlen);
	s->first = sb_plan_points();
	if (rc == 1) {
		snprintf(err, errlen, "--ab side '%s' cannot run on this machine (see above)",
			 s->spec);
		sb_plan_say_skipped();
	}
	return rc ? -1 : 0;
}

static bool side_matches(const struct side *s, const struct sb_point *p)
{
	if (strcmp(p->f.strategy, s->strategy))
		return false;
	if (s->lock[0] && strcmp(p->f.lock, s->lock))
		return false;	/* a strategy that takes no lock has no +lock: */
	for (int k = 0; k < s->nsel; k++) {
		const char *v = sb_params_get(&p->f.params, s->key[k]);

		if (!v || strcmp(v, s->val[k]))
			return false;
	}
	return true;
}

/* The one point of side s at threads and placement, else NULL and err. */
static const struct sb_point *side_point(const struct side *s, int threads, const char *place,
					 char *err, size_t errlen)
{
	const struct sb_point *hit = NULL;

	for (const struct sb_point *p = s->first; p && p != s->stop; p = p->next) {
		if (p->f.threads != threads || strcmp(p->f.placement, place) || !side_matches(s, p))
			continue;
		if (hit) {
			snprintf(err, errlen, "--ab side '%s' is two points at threads:%d place:%s "
				 "(%s and %s): add +key:value to choose one", s->spec, threads, place,
				 hit->name, p->name);
			return NULL;
		}
		hit = p;
	}
	if (!hit)
		snprintf(err, errlen, "--ab side '%s' has no point at threads:%d place:%s%s",
			 s->spec, threads, place, s->nsel ? " (check its +key:value)" : "");
	return hit;
}

/* --- trials ------------------------------------------------------------- */

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

struct trial_out {
	double ops, limited, real_ns;
	long long iterations;
	bool error;
	char why[256];
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

/* One trial of p: its metrics into v[] (NAN where none); -1 with err. */
static int trial(const struct sb_point *p, long long iterations, double min_time, double *v,
		 long long *iters, double *real_ns, char *err, size_t errlen)
{
	struct trial_out t = { .ops = NAN, .limited = NAN };
	int rc = sb_gbench_trial(p->name, iterations, min_time, on_trial, &t);

	if (rc || t.error || !(t.ops > 0)) {
		snprintf(err, errlen, "trial of %s failed: %s", p->name, rc < 0 ? "not registered" :
			 t.error ? t.why : "no ops_per_s");
		return -1;
	}
	v[0] = t.ops;
	/* every call that is not limited admits nr-pages pages
	 * (sb_window_account): admitted pages/s without another counter */
	v[1] = strcmp(p->f.family, "window") || !isfinite(t.limited) ? NAN :
	       t.ops * (1 - t.limited) * family_option("window", "nr-pages", 1);
	if (iters)
		*iters = t.iterations;
	if (real_ns)
		*real_ns = t.real_ns * (double)t.iterations;
	return 0;
}

static uint32_t rng_next(uint32_t *s)	/* xorshift32 */
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* Iterations that make a trial of p about trial_s long, from a warm-up
 * trial of at least trial_s (Google Benchmark's own estimate); the same
 * count for every trial, so trials of a side do the same work. */
static int calibrate(const struct sb_point *p, double trial_s, long long *iters, char *err,
		     size_t errlen)
{
	double v[SB_AB_METRICS], ns;
	long long n;

	if (trial(p, 0, trial_s, v, &n, &ns, err, errlen))
		return -1;
	*iters = ns > 0 ? llround((double)n * trial_s * 1e9 / ns) : n;
	if (*iters < 1)
		*iters = 1;
	return 0;
}

/* One warm-up trial may be far from typical (issue 19: a trial can run
 * twice as fast as the next): after the first RETUNE_PAIRS pairs each
 * side's count is set once more, from the median length of its trials,
 * so that trials last about trial_s.  Ratios are of rates, so pairs of
 * either count compare alike. */
#define RETUNE_PAIRS 5

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void retune(long long *iters, const double *ns, double trial_s)
{
	double v[RETUNE_PAIRS];

	memcpy(v, ns, sizeof(v));
	qsort(v, RETUNE_PAIRS, sizeof(v[0]), cmp_dbl);
	if (v[RETUNE_PAIRS / 2] > 0)
		*iters = llround((double)*iters * trial_s * 1e9 / v[RETUNE_PAIRS / 2]);
	if (*iters < 1)
		*iters = 1;
}

static bool all_finite(const double *v, int n)
{
	for (int i = 0; i < n; i++)
		if (!isfinite(v[i]) || v[i] <= 0)
			return false;
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

/* Runs one comparison; its trials in *tp (malloc'd).  0, or -1 with err
 * when a trial failed (c->stop says interrupted, with what was done). */
static int compare(const struct sb_opts *o, const struct sb_point *pa, const struct sb_point *pb,
		   struct sb_ab_cmp *c, struct sb_ab_trial **tp, char *err, size_t errlen)
{
	int min_pairs = o->ab_pairs ? o->ab_pairs : AB_DEFAULT_PAIRS, cap = 64, rc = 0;
	double trial_s = o->trial_time > 0 ? o->trial_time : AB_DEFAULT_TRIAL_S;
	double t0 = now_s(), *a = NULL, *b = NULL;
	struct sb_ab_trial *t = malloc(sizeof(*t) * (size_t)cap);
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

		if (ab_signal)
			break;
		if (c->pairs == cap) {
			cap *= 2;
			t = realloc(t, sizeof(*t) * (size_t)cap);
		}
		x = &t[c->pairs];
		x->b_first = rng_next(&seed) & 1;
		for (int k = 0; k < 2; k++) {
			bool do_b = (k == 0) == x->b_first;

			if (trial(do_b ? pb : pa, do_b ? c->b_iterations : c->a_iterations, 0,
				  do_b ? x->b : x->a, NULL, &ns_of[do_b][c->pairs % RETUNE_PAIRS],
				  err, errlen)) {
				rc = ab_signal ? 0 : -1;	/* a signal skips the trial */
				goto out;
			}
		}
		if (ab_signal)	/* the pair in flight may be cut: not kept */
			break;
		c->pairs++;
		c->elapsed_s = now_s() - t0;
		if (c->pairs == RETUNE_PAIRS) {	/* once: see retune() */
			retune(&c->a_iterations, ns_of[0], trial_s);
			retune(&c->b_iterations, ns_of[1], trial_s);
		}
		if (c->pairs < min_pairs) {
			if (c->pairs % 5 == 0) {
				a = realloc(a, sizeof(*a) * (size_t)cap);
				b = realloc(b, sizeof(*b) * (size_t)cap);
				summarize(c, t, c->pairs, a, b);
				progress(c, o->quiet);
			}
			continue;
		}
		a = realloc(a, sizeof(*a) * (size_t)cap);
		b = realloc(b, sizeof(*b) * (size_t)cap);
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
	c->elapsed_s = now_s() - t0;
	if (c->pairs > 0) {
		a = realloc(a, sizeof(*a) * (size_t)c->pairs);
		b = realloc(b, sizeof(*b) * (size_t)c->pairs);
		summarize(c, t, c->pairs, a, b);
	}
	if (!o->quiet && isatty(STDERR_FILENO))
		fputc('\n', stderr);
	free(a);
	free(b);
	*tp = t;
	return rc;
}

/* --- output ------------------------------------------------------------- */

static json_t *loadavg(void)
{
	double l[3];

	if (getloadavg(l, 3) != 3)
		return json_null();
	return json_pack("[fff]", l[0], l[1], l[2]);
}

/* mkdir -p DIR; refuses a DIR that holds an ab.json.  Nothing is created
 * when the refusal comes. */
static int prepare_dir(const char *dir, char *err, size_t errlen)
{
	char path[4096];
	struct stat sb;

	if (!*dir || snprintf(path, sizeof(path), "%s/%s", dir, SB_AB_FILE) >= (int)sizeof(path)) {
		snprintf(err, errlen, "bad output directory '%s'", dir);
		return -1;
	}
	if (access(path, F_OK) == 0) {
		snprintf(err, errlen, "'%s' already holds results (%s): choose a new --out", dir,
			 SB_AB_FILE);
		return -1;
	}
	if (stat(dir, &sb) == 0 && !S_ISDIR(sb.st_mode)) {
		snprintf(err, errlen, "output '%s' is not a directory", dir);
		return -1;
	}
	return 0;
}

static int make_dirs(const char *dir, char *err, size_t errlen)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s", dir);
	for (char *p = path + 1;; p++) {
		bool last = !*p;

		if (*p && *p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0777) && errno != EEXIST) {
			snprintf(err, errlen, "cannot create output directory '%s': %s", path,
				 strerror(errno));
			return -1;
		}
		if (last)
			break;
		*p = '/';
	}
	return 0;
}

/* --- the command -------------------------------------------------------- */

struct plan_cmp {
	const struct sb_point *a, *b;
	int pair;
};

int sb_ab_main(struct sb_opts *o, int argc, char **argv)
{
	struct side sides[AB_MAX_SIDES];
	struct pairspec specs[AB_MAX_CMPS];
	struct plan_cmp *plan = NULL;
	struct sb_counters_spec *cnt = NULL;
	struct sb_topo *t = NULL;
	json_t *doc = NULL, *cmps;
	char err[8192];
	int nsides, nspecs, nplan = 0, rc = SB_EXIT_USAGE;

	(void)argc;
	if (check_opts(o, err, sizeof(err)) ||
	    parse_ab(o->ab, sides, &nsides, specs, &nspecs, err, sizeof(err)) ||
	    sb_counters_parse(o->counters, &cnt, err, sizeof(err)) ||
	    sb_topo_load(&t, o->topology, err, sizeof(err)) ||
	    sb_topo_check_bindable(t, err, sizeof(err)))
		goto usage;
	for (int i = 0; i < nsides; i++)
		if (plan_side(o, t, &sides[i], err, sizeof(err)))
			goto usage;
	/* one comparison per point of A (its thread count and placement) */
	plan = calloc((size_t)nspecs * 256, sizeof(*plan));
	for (int s = 0; s < nspecs; s++) {
		const struct side *sa = &sides[specs[s].a], *sb = &sides[specs[s].b];
		int first = nplan;

		for (const struct sb_point *p = sa->first; p && p != sa->stop; p = p->next) {
			const struct sb_point *pa, *pb;
			bool seen = false;

			if (!side_matches(sa, p))
				continue;
			for (int k = first; k < nplan; k++)
				seen |= plan[k].a->f.threads == p->f.threads &&
					!strcmp(plan[k].a->f.placement, p->f.placement);
			if (seen)
				continue;
			pa = side_point(sa, p->f.threads, p->f.placement, err, sizeof(err));
			pb = pa ? side_point(sb, p->f.threads, p->f.placement, err, sizeof(err)) : NULL;
			if (!pa || !pb)
				goto usage;
			if (nplan == nspecs * 256) {
				snprintf(err, sizeof(err), "--ab: too many thread counts x placements");
				goto usage;
			}
			plan[nplan++] = (struct plan_cmp){ pa, pb, s };
		}
		if (nplan == first) {
			snprintf(err, sizeof(err), "--ab side '%s' matches no planned point%s",
				 sa->spec, sa->nsel ? " (check its +key:value)" : "");
			goto usage;
		}
		/* planned latest first: run in the order the options give */
		for (int i = first, j = nplan - 1; i < j; i++, j--) {
			struct plan_cmp x = plan[i];

			plan[i] = plan[j];
			plan[j] = x;
		}
	}
	if (o->out && prepare_dir(o->out, err, sizeof(err)))
		goto usage;
	/* the last usage check is GB's own; then the directory */
	if ((rc = sb_gbench_trials_begin(o->gb_argc, o->gb_argv)))
		goto out;
	if (o->out && make_dirs(o->out, err, sizeof(err))) {
		fprintf(stderr, "stratbench: %s\n", err);
		rc = 1;
		goto fail;
	}
	sb_plan_say_skipped();
	sb_quiet_check();
	doc = json_object();
	cmps = json_array();
	json_object_set_new(doc, "schema", json_integer(SB_SCHEMA_VERSION));
	json_object_set_new(doc, "label", o->label ? json_string(o->label) : json_null());
	json_object_set_new(doc, "loadavg_start", loadavg());
	json_object_set_new(doc, "comparisons", cmps);
	{
		struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESTART };

		sigemptyset(&sa.sa_mask);
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
	}
	sb_drive_set_counters(cnt);
	rc = 0;
	for (int i = 0; i < nplan && !ab_signal; i++) {
		const struct side *sa = &sides[specs[plan[i].pair].a], *sb = &sides[specs[plan[i].pair].b];
		struct sb_ab_cmp c = { 0 };
		struct sb_ab_trial *tr = NULL;
		char line[1024];
		int k;

		snprintf(c.a_spec, sizeof(c.a_spec), "%s", sa->spec);
		snprintf(c.b_spec, sizeof(c.b_spec), "%s", sb->spec);
		snprintf(c.a_name, sizeof(c.a_name), "%s", plan[i].a->name);
		snprintf(c.b_name, sizeof(c.b_name), "%s", plan[i].b->name);
		c.a = plan[i].a->f;
		c.b = plan[i].b->f;
		k = compare(o, plan[i].a, plan[i].b, &c, &tr, err, sizeof(err));
		if (k) {
			fprintf(stderr, "stratbench: %s\n", err);
			rc = 1;
		}
		if (c.pairs > 0 && c.nmetrics > 0) {
			sb_ab_format_line(&c, line, sizeof(line));
			printf("ab: %s\n", line);
			sb_ab_format_stop(&c, line, sizeof(line));
			printf("ab:   %s\n", line);
			fflush(stdout);
			json_array_append_new(cmps, sb_ab_to_json(&c, tr, c.pairs));
		}
		free(tr);
		if (k)
			break;
	}
	sb_drive_set_counters(NULL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	json_object_set_new(doc, "loadavg_end", loadavg());
	if (o->out && json_array_size(cmps)) {
		char path[4200];

		snprintf(path, sizeof(path), "%s/%s", o->out, SB_AB_FILE);
		if (sb_json_write_file(path, doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER, err,
				       sizeof(err))) {
			fprintf(stderr, "stratbench: %s\n", err);
			rc = 1;
		} else {
			fprintf(stderr, "stratbench: paired comparisons in %s\n", path);
		}
	}
	if (ab_signal)
		rc = 128 + ab_signal;
fail:
	sb_gbench_trials_end();
	goto out;
usage:
	fprintf(stderr, "stratbench: %s\n", err);
	rc = SB_EXIT_USAGE;
out:
	(void)argv;
	json_decref(doc);
	free(plan);
	sb_plan_free();
	sb_counters_spec_free(cnt);
	sb_topo_destroy(t);
	return rc;
}
