/* ab.c — `stratbench run --ab=A,B[;A,B...]`: paired comparisons
 * (docs/precision.md).  Each side is strategy[+key:value...], planned as
 * usual; each (thread count, placement) is one comparison of A's and B's
 * points there, run by ab_pairs.c: two lines on stdout each, and with
 * --out=DIR, DIR/ab.json once all are done, beside whatever DIR holds (the
 * suite adds its comparisons to its run's directory). */
#include "ab/ab.h"
#include "core/util.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define AB_MAX_SIDES 16
#define AB_MAX_SEL 8
#define AB_MAX_CMPS 64

/* One side as given: strategy[+key:value...]; "lock" selects at planning. */
struct side {
	char spec[128];
	char strategy[64];
	char lock[64];			/* "" : --lock or the family's default */
	int nsel;
	char key[AB_MAX_SEL][24], val[AB_MAX_SEL][64];
	const struct sb_point *first, *stop;	/* its points: first .. before stop */
};

static void on_signal(int sig)
{
	sb_ab_signal = sig;
	sb_gbench_stop();
	signal(sig, SIG_DFL);	/* a second one kills */
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
static int parse_ab(const char *ab, struct side *sides, int *nsides, int (*pairs)[2],
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
		memcpy(pairs[(*npairs)++], idx, sizeof(idx));
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
	if (o->gb_argc > 1) {
		snprintf(err, errlen, "--ab runs its own trials (--trial-time, --min-pairs): drop %s",
			 o->gb_argv[1]);
		return -1;
	}
	return 0;
}

/* Plans side s (its strategy, its lock or --lock): the points added meanwhile. */
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

/* --- output ------------------------------------------------------------- */

static json_t *loadavg(void)
{
	double l[3];

	if (getloadavg(l, 3) != 3)
		return json_null();
	return json_pack("[fff]", l[0], l[1], l[2]);
}

/* Refuses a DIR that holds an ab.json or is no directory (nothing created). */
static int prepare_dir(const char *dir, char *err, size_t errlen)
{
	char path[SB_PATH];
	struct stat sb;

	if (!*dir || sb_pathf(path, "%s/%s", dir, SB_AB_FILE)) {
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

/* --- the command -------------------------------------------------------- */

struct plan_cmp {
	const struct sb_point *a, *b;
	int pair;
};

/* What --ab asks for: the sides, the pairs of sides, the comparisons. */
struct ab_plan {
	struct side sides[AB_MAX_SIDES];
	int specs[AB_MAX_CMPS][2];	/* sides A, B */
	int nsides, nspecs;
	struct plan_cmp cmp[AB_MAX_CMPS * 16];
	int n;
};

/* A pair of sides' comparisons: one per A point's threads and placement, in order. */
static int plan_spec(struct ab_plan *pl, int s, char *err, size_t errlen)
{
	const struct side *sa = &pl->sides[pl->specs[s][0]], *sb = &pl->sides[pl->specs[s][1]];
	int first = pl->n;

	for (const struct sb_point *p = sa->first; p && p != sa->stop; p = p->next) {
		const struct sb_point *pa, *pb;
		bool seen = false;

		if (!side_matches(sa, p))
			continue;
		for (int k = first; k < pl->n; k++)
			seen |= pl->cmp[k].a->f.threads == p->f.threads &&
				!strcmp(pl->cmp[k].a->f.placement, p->f.placement);
		if (seen)
			continue;
		pa = side_point(sa, p->f.threads, p->f.placement, err, errlen);
		pb = pa ? side_point(sb, p->f.threads, p->f.placement, err, errlen) : NULL;
		if (!pa || !pb)
			return -1;
		if (pl->n == (int)(sizeof(pl->cmp) / sizeof(pl->cmp[0]))) {
			snprintf(err, errlen, "--ab: too many comparisons (pairs x thread counts x "
				 "placements)");
			return -1;
		}
		pl->cmp[pl->n++] = (struct plan_cmp){ pa, pb, s };
	}
	if (pl->n == first) {
		snprintf(err, errlen, "--ab side '%s' matches no planned point%s", sa->spec,
			 sa->nsel ? " (check its +key:value)" : "");
		return -1;
	}
	/* planned latest first */
	for (int i = first, j = pl->n - 1; i < j; i++, j--) {
		struct plan_cmp x = pl->cmp[i];

		pl->cmp[i] = pl->cmp[j];
		pl->cmp[j] = x;
	}
	return 0;
}

/* All but Google Benchmark's flags checked, every side planned: 0, or -1 (usage error). */
static int plan_all(const struct sb_opts *o, struct sb_counters_spec **cnt, struct sb_topo **t,
		    struct ab_plan *pl, char *err, size_t errlen)
{
	if (check_opts(o, err, errlen) ||
	    parse_ab(o->ab, pl->sides, &pl->nsides, pl->specs, &pl->nspecs, err, errlen) ||
	    sb_counters_parse(o->counters, cnt, err, errlen) ||
	    sb_topo_load(t, o->topology, err, errlen) || sb_topo_check_bindable(*t, err, errlen))
		return -1;
	for (int i = 0; i < pl->nsides; i++)
		if (plan_side(o, *t, &pl->sides[i], err, errlen))
			return -1;
	for (int s = 0; s < pl->nspecs; s++)
		if (plan_spec(pl, s, err, errlen))
			return -1;
	if (o->out && prepare_dir(o->out, err, errlen))
		return -1;
	return 0;
}

/* Comparison i: two lines out, its object in cmps; 0, or -1 after a failed trial (said). */
static int run_one(const struct sb_opts *o, const struct ab_plan *pl, int i, json_t *cmps)
{
	const struct plan_cmp *p = &pl->cmp[i];
	struct sb_ab_cmp c = { 0 };
	struct sb_ab_trial *tr = NULL;
	char line[1024], err[4096];
	int rc;

	snprintf(c.a_spec, sizeof(c.a_spec), "%s", pl->sides[pl->specs[p->pair][0]].spec);
	snprintf(c.b_spec, sizeof(c.b_spec), "%s", pl->sides[pl->specs[p->pair][1]].spec);
	snprintf(c.a_name, sizeof(c.a_name), "%s", p->a->name);
	snprintf(c.b_name, sizeof(c.b_name), "%s", p->b->name);
	c.a = p->a->f;
	c.b = p->b->f;
	rc = sb_ab_compare(o, p->a, p->b, &c, &tr, err, sizeof(err));
	if (rc)
		fprintf(stderr, "stratbench: %s\n", err);
	if (c.pairs > 0 && c.nmetrics > 0) {	/* what was done, even cut short */
		sb_ab_format_line(&c, line, sizeof(line));
		printf("ab: %s\n", line);
		sb_ab_format_stop(&c, line, sizeof(line));
		printf("ab:   %s\n", line);
		fflush(stdout);
		json_array_append_new(cmps, sb_ab_to_json(&c, tr, c.pairs));
	}
	free(tr);
	return rc;
}

/* Every comparison, under the signal handler; the document of ab.json. */
static int run_all(const struct sb_opts *o, const struct ab_plan *pl, json_t *doc)
{
	json_t *cmps = json_array();
	int rc = 0;

	json_object_set_new(doc, "schema", json_integer(SB_SCHEMA_VERSION));
	json_object_set_new(doc, "label", o->label ? json_string(o->label) : json_null());
	json_object_set_new(doc, "loadavg_start", loadavg());
	json_object_set_new(doc, "comparisons", cmps);
	sb_catch_stop_signals(on_signal);
	/* no counters: ab.json holds none, and they cost ~8 ms a trial here
	 * (--counters is checked, not used) */
	sb_drive_set_counters(NULL);
	for (int i = 0; i < pl->n && !sb_ab_signal && !rc; i++)
		rc = run_one(o, pl, i, cmps) ? 1 : 0;
	sb_catch_stop_signals(NULL);
	json_object_set_new(doc, "loadavg_end", loadavg());
	return rc;
}

/* DIR/ab.json, when a comparison has pairs: 0, or 1 said on stderr. */
static int write_doc(const char *dir, json_t *doc)
{
	char path[SB_PATH], err[SB_ERR_MAX];

	if (!json_array_size(json_object_get(doc, "comparisons")))
		return 0;
	if (sb_pathf(path, "%s/%s", dir, SB_AB_FILE)) {
		fprintf(stderr, "stratbench: cannot write %s: path too long\n", path);
		return 1;
	}
	if (sb_json_write_file(path, doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER, err,
			       sizeof(err))) {
		fprintf(stderr, "stratbench: %s\n", err);
		return 1;
	}
	fprintf(stderr, "stratbench: paired comparisons in %s\n", path);
	return 0;
}

int sb_ab_main(struct sb_opts *o, int argc, char **argv)
{
	struct ab_plan *pl = calloc(1, sizeof(*pl));
	struct sb_counters_spec *cnt = NULL;
	struct sb_topo *t = NULL;
	json_t *doc = json_object();
	char err[8192];
	int rc;

	(void)argc;
	(void)argv;
	if (!pl || plan_all(o, &cnt, &t, pl, err, sizeof(err))) {
		fprintf(stderr, "stratbench: %s\n", pl ? err : "out of memory");
		rc = SB_EXIT_USAGE;
		goto out;
	}
	/* the last usage check is Google Benchmark's own; then the directory */
	if ((rc = sb_gbench_trials_begin(o->gb_argc, o->gb_argv)))
		goto out;
	if (o->out && sb_mkdirs(o->out, err, sizeof(err))) {
		fprintf(stderr, "stratbench: %s\n", err);
		rc = 1;
	} else {
		sb_plan_say_skipped();
		sb_quiet_warn();	/* ab.json records the load itself */
		rc = run_all(o, pl, doc);
		if (o->out)
			rc |= write_doc(o->out, doc);
		if (sb_ab_signal)
			rc = 128 + sb_ab_signal;
	}
	sb_gbench_trials_end();
out:
	json_decref(doc);
	free(pl);
	sb_plan_free();
	sb_counters_spec_free(cnt);
	sb_topo_destroy(t);
	return rc;
}
