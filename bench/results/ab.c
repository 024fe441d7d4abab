/* ab.c — DIR/ab.json's writer, reader and lines for people (ab.h). */
#include "results/ab.h"
#include "results/results.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const stop_names[] = {
	[SB_AB_PAIRS] = "pairs", [SB_AB_PRECISION] = "precision",
	[SB_AB_MAX_TIME] = "max-time", [SB_AB_INTERRUPTED] = "interrupted",
};

/* a number, or null for NAN (JSON has no NaN) */
static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *side_json(const char *spec, const char *name, const struct sb_point_fields *f,
			 long long iterations)
{
	json_t *j = json_object();

	json_object_set_new(j, "spec", json_string(spec));
	json_object_set_new(j, "name", json_string(name));
	json_object_set_new(j, "point", sb_point_to_json(f));
	json_object_set_new(j, "iterations", json_integer(iterations));
	return j;
}

static json_t *metric_json(const struct sb_ab_metric *m)
{
	const struct sb_paired *s = &m->st;
	json_t *j = json_object();

	json_object_set_new(j, "metric", json_string(m->name));
	json_object_set_new(j, "ratio", num(s->ratio));
	json_object_set_new(j, "ratio_lo", num(s->lo));
	json_object_set_new(j, "ratio_hi", num(s->hi));
	json_object_set_new(j, "change_pct", num(sb_pct_change(s->ratio)));
	json_object_set_new(j, "change_lo_pct", num(sb_pct_change(s->lo)));
	json_object_set_new(j, "change_hi_pct", num(sb_pct_change(s->hi)));
	json_object_set_new(j, "half_width_pct", num(sb_paired_half_pct(s)));
	json_object_set_new(j, "confidence", json_real(s->conf));
	json_object_set_new(j, "coverage", num(s->coverage));
	json_object_set_new(j, "interval", json_string(s->exact ? "exact" : "normal"));
	json_object_set_new(j, "k", json_integer(s->k));
	json_object_set_new(j, "p_value", num(s->p));
	return j;
}

json_t *sb_ab_to_json(const struct sb_ab_cmp *c, const struct sb_ab_trial *t, int n)
{
	json_t *j = json_object(), *res = json_array(), *tr = json_array();

	json_object_set_new(j, "a", side_json(c->a_spec, c->a_name, &c->a, c->a_iterations));
	json_object_set_new(j, "b", side_json(c->b_spec, c->b_name, &c->b, c->b_iterations));
	json_object_set_new(j, "method", json_string("hodges-lehmann, wilcoxon signed-rank"));
	json_object_set_new(j, "trial_time_s", json_real(c->trial_time_s));
	json_object_set_new(j, "pairs", json_integer(c->pairs));
	json_object_set_new(j, "elapsed_s", json_real(c->elapsed_s));
	json_object_set_new(j, "precision_pct",
			    c->precision_pct > 0 ? json_real(c->precision_pct) : json_null());
	json_object_set_new(j, "max_time_s", c->max_time_s > 0 ? json_real(c->max_time_s) :
			    json_null());
	json_object_set_new(j, "precision_reached", c->precision_pct > 0 ?
			    json_boolean(c->stop == SB_AB_PRECISION) : json_null());
	json_object_set_new(j, "stop", json_string(c->stop <= SB_AB_INTERRUPTED ?
						   stop_names[c->stop] : "?"));
	for (int k = 0; k < c->nmetrics; k++)
		json_array_append_new(res, metric_json(&c->m[k]));
	json_object_set_new(j, "results", res);
	for (int i = 0; i < n; i++) {
		json_t *p = json_object(), *a = json_object(), *b = json_object();

		for (int k = 0; k < c->nmetrics; k++) {
			json_object_set_new(a, c->m[k].name, num(t[i].a[k]));
			json_object_set_new(b, c->m[k].name, num(t[i].b[k]));
		}
		json_object_set_new(p, "first", json_string(t[i].b_first ? "b" : "a"));
		json_object_set_new(p, "a", a);
		json_object_set_new(p, "b", b);
		json_array_append_new(tr, p);
	}
	json_object_set_new(j, "trials", tr);
	return j;
}

/* --- reading ------------------------------------------------------------- */

static double get_num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* Side A (b false) or B of the comparison c. */
static int read_side(json_t *j, struct sb_ab_cmp *c, bool b, char *err, size_t errlen)
{
	const char *s = json_string_value(json_object_get(j, "spec"));
	const char *n = json_string_value(json_object_get(j, "name"));
	char why[256];

	if (!s || !n) {
		snprintf(err, errlen, "a comparison's side lacks spec or name");
		return -1;
	}
	snprintf(b ? c->b_spec : c->a_spec, sizeof(c->a_spec), "%s", s);
	snprintf(b ? c->b_name : c->a_name, sizeof(c->a_name), "%s", n);
	if (sb_point_from_json(json_object_get(j, "point"), b ? &c->b : &c->a, why, sizeof(why))) {
		snprintf(err, errlen, "side %s: %s", s, why);
		return -1;
	}
	*(b ? &c->b_iterations : &c->a_iterations) =
		json_integer_value(json_object_get(j, "iterations"));
	return 0;
}

static int read_cmp(json_t *j, struct sb_ab_cmp *c, char *err, size_t errlen)
{
	json_t *res = json_object_get(j, "results"), *m;
	const char *stop = json_string_value(json_object_get(j, "stop"));
	size_t i;

	memset(c, 0, sizeof(*c));
	if (!json_is_object(j) ||
	    read_side(json_object_get(j, "a"), c, false, err, errlen) ||
	    read_side(json_object_get(j, "b"), c, true, err, errlen))
		return -1;
	c->pairs = (int)json_integer_value(json_object_get(j, "pairs"));
	c->elapsed_s = get_num(j, "elapsed_s");
	c->trial_time_s = get_num(j, "trial_time_s");
	c->precision_pct = json_is_number(json_object_get(j, "precision_pct")) ?
			   get_num(j, "precision_pct") : 0;
	c->max_time_s = json_is_number(json_object_get(j, "max_time_s")) ?
			get_num(j, "max_time_s") : 0;
	c->stop = SB_AB_INTERRUPTED + 1;
	for (int s = 0; stop && s <= SB_AB_INTERRUPTED; s++)
		if (!strcmp(stop, stop_names[s]))
			c->stop = (enum sb_ab_stop)s;
	if (c->stop > SB_AB_INTERRUPTED || c->pairs < 1 || !json_is_array(res)) {
		snprintf(err, errlen, "comparison %s -> %s: bad stop, pairs or results", c->a_spec,
			 c->b_spec);
		return -1;
	}
	json_array_foreach(res, i, m) {
		struct sb_ab_metric *x = &c->m[c->nmetrics];
		const char *name = json_string_value(json_object_get(m, "metric"));
		const char *iv = json_string_value(json_object_get(m, "interval"));

		if (c->nmetrics == SB_AB_METRICS || !name)
			break;
		snprintf(x->name, sizeof(x->name), "%s", name);
		x->st.n = c->pairs;
		x->st.ratio = get_num(m, "ratio");
		x->st.lo = get_num(m, "ratio_lo");
		x->st.hi = get_num(m, "ratio_hi");
		x->st.conf = get_num(m, "confidence");
		x->st.coverage = get_num(m, "coverage");
		x->st.exact = iv && !strcmp(iv, "exact");
		x->st.k = (int)json_integer_value(json_object_get(m, "k"));
		x->st.p = get_num(m, "p_value");
		if (!isfinite(x->st.ratio) || !isfinite(x->st.lo) || !isfinite(x->st.hi)) {
			snprintf(err, errlen, "comparison %s -> %s: %s has no ratio or interval",
				 c->a_spec, c->b_spec, name);
			return -1;
		}
		c->nmetrics++;
	}
	return 0;
}

int sb_ab_read(const char *path, struct sb_ab_cmp **out, int *n, char *err, size_t errlen)
{
	char file[SB_PATH], why[SB_ERR_MAX];
	struct stat sb;
	json_t *root, *cmps, *e;
	json_error_t je;
	FILE *f;
	size_t i;

	*out = NULL;
	*n = 0;
	if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
		sb_pathf(file, "%s/%s", path, SB_AB_FILE);
	else
		sb_pathf(file, "%s", path);
	if (access(file, F_OK) && errno == ENOENT)
		return 1;
	f = sb_input_open(file, why, sizeof(why));
	if (!f) {
		snprintf(err, errlen, "%s", why);
		return -1;
	}
	root = json_loadf(f, 0, &je);
	fclose(f);
	cmps = json_object_get(root, "comparisons");
	if (!root || json_integer_value(json_object_get(root, "schema")) != SB_SCHEMA_VERSION ||
	    !json_is_array(cmps)) {
		snprintf(err, errlen, "%s: not an ab.json of schema %d%s%s", file, SB_SCHEMA_VERSION,
			 root ? "" : ": ", root ? "" : je.text);
		json_decref(root);
		return -1;
	}
	*out = calloc(json_array_size(cmps) + 1, sizeof(**out));
	json_array_foreach(cmps, i, e) {
		if (read_cmp(e, &(*out)[*n], why, sizeof(why))) {
			snprintf(err, errlen, "%s: %s", file, why);
			json_decref(root);
			free(*out);
			*out = NULL;
			*n = 0;
			return -1;
		}
		(*n)++;
	}
	json_decref(root);
	return 0;
}

/* --- for people ---------------------------------------------------------- */

void sb_ab_format_line(const struct sb_ab_cmp *c, char *buf, size_t len)
{
	char place[160];
	size_t k;

	sb_point_place(&c->a, place, sizeof(place));
	k = (size_t)snprintf(buf, len, "%s -> %s (%s, threads:%d, place:%s), %d pairs:", c->a_spec,
			     c->b_spec, c->a.family, c->a.threads, place, c->pairs);
	/* a metric a line: two on one would pass the console's 160 columns */
	for (int i = 0; i < c->nmetrics && k < len; i++) {
		const struct sb_paired *s = &c->m[i].st;

		k += (size_t)snprintf(buf + k, len - k, "%s%s %+.1f %% [%+.1f, %+.1f] %.0f %% CI, "
				      "p=%.2g", i ? "\n    " : " ", c->m[i].name,
				      sb_pct_change(s->ratio), sb_pct_change(s->lo),
				      sb_pct_change(s->hi), 100 * s->conf, s->p);
	}
}

void sb_ab_format_stop(const struct sb_ab_cmp *c, char *buf, size_t len)
{
	char t[32], half[32];
	double h = c->nmetrics ? sb_paired_half_pct(&c->m[0].st) : NAN;

	/* for people: seconds 0.51, 38.2, 120; a half-width 0.35, 1.4, 27, 1400 */
	snprintf(t, sizeof(t), c->elapsed_s >= 100 ? "%.0f" : "%.3g", c->elapsed_s);
	snprintf(half, sizeof(half), h < 10 ? "%.2g" : "%.0f", h);
	switch (c->stop) {
	case SB_AB_PRECISION:
		snprintf(buf, len, "reached ±%s %% after %d pairs in %s s (--precision=%g)", half,
			 c->pairs, t, c->precision_pct);
		break;
	case SB_AB_MAX_TIME:
		snprintf(buf, len, "stopped at --max-time=%g s with ±%s %% after %d pairs in %s s: "
			 "the comparison cannot resolve effects below %s %% here", c->max_time_s,
			 half, c->pairs, t, half);
		break;
	case SB_AB_INTERRUPTED:
		snprintf(buf, len, "interrupted with ±%s %% after %d pairs in %s s", half,
			 c->pairs, t);
		break;
	default:
		snprintf(buf, len, "±%s %% after %d pairs in %s s (no --precision asked)", half,
			 c->pairs, t);
	}
}

void sb_ab_print_section(FILE *f, const char *where, const struct sb_ab_cmp *c, int n)
{
	char line[1024];

	if (n <= 0)
		return;
	fprintf(f, "Paired A/B (within run%s%s), %%Change of B over A [95 %% interval] "
		"(docs/precision.md):\n", where ? ", " : "", where ? where : "");
	for (int i = 0; i < n; i++) {
		sb_ab_format_line(&c[i], line, sizeof(line));
		fprintf(f, "  %s\n", line);
		sb_ab_format_stop(&c[i], line, sizeof(line));
		fprintf(f, "    %s\n", line);
	}
}
