/* point.c — typed points (point.h): parameters, name, JSON, the run's table */
#include "results/point.h"

#include "core/util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct sb_param *find(const struct sb_params *p, const char *key)
{
	for (int i = 0; p && i < p->n; i++)
		if (!strcmp(p->p[i].key, key))
			return (struct sb_param *)&p->p[i];
	return NULL;
}

static int set(struct sb_params *p, const char *key, const char *val, bool bare)
{
	struct sb_param *e = find(p, key);

	if (strlen(key) >= sizeof(e->key) || strlen(val) >= sizeof(e->val))
		return -1;
	if (!e) {
		if (p->n == SB_PARAMS_MAX)
			return -1;
		e = &p->p[p->n++];
		snprintf(e->key, sizeof(e->key), "%s", key);
	}
	snprintf(e->val, sizeof(e->val), "%s", val);
	e->bare = bare;
	return 0;
}

int sb_params_set(struct sb_params *p, const char *key, const char *fmt, ...)
{
	char val[128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(val, sizeof(val), fmt, ap);
	va_end(ap);
	return set(p, key, val, false);
}

int sb_params_set_bare(struct sb_params *p, const char *key, const char *val)
{
	return set(p, key, val, true);
}

const char *sb_params_get(const struct sb_params *p, const char *key)
{
	const struct sb_param *e = find(p, key);

	return e ? e->val : NULL;
}

void sb_params_add_all(struct sb_params *dst, const struct sb_params *src)
{
	for (int i = 0; i < src->n; i++)
		set(dst, src->p[i].key, src->p[i].val, src->p[i].bare);
}

static bool skipped(const char *key, const char *const *skip)
{
	for (int i = 0; skip && skip[i]; i++)
		if (!strcmp(skip[i], key))
			return true;
	return false;
}

static void params_join(const struct sb_params *p, const char *const *skip, const char *sep,
			const char *lead, char *buf, size_t n)
{
	size_t len = 0;

	*buf = '\0';
	for (int i = 0; i < p->n && len < n; i++) {
		if (skipped(p->p[i].key, skip))
			continue;
		len += (size_t)snprintf(buf + len, n - len, "%s%s=%s", len ? sep : lead,
					p->p[i].key, p->p[i].val);
	}
}

void sb_params_str(const struct sb_params *p, const char *const *skip, char *buf, size_t n)
{
	params_join(p, skip, ";", "", buf, n);
}

void sb_params_human(const struct sb_params *p, const char *const *skip, char *buf, size_t n)
{
	params_join(p, skip, " ", " ", buf, n);
}

static size_t put_params(const struct sb_params *p, int from, int to, char *buf, size_t n,
			 size_t len)
{
	for (int i = from; i < to && len < n; i++)
		len += (size_t)snprintf(buf + len, n - len, p->p[i].bare ? "/%s%s" : "/%s:%s",
					p->p[i].bare ? "" : p->p[i].key, p->p[i].val);
	return len;
}

void sb_point_place(const struct sb_point_fields *f, char *buf, size_t n)
{
	snprintf(buf, n, "%s", f->placement);
	for (char *c = buf; *c; c++)
		if (*c == ',')
			*c = '+';
}

void sb_point_name(const struct sb_point_fields *f, int nfirst, char *buf, size_t n)
{
	char place[sizeof(f->placement)];
	size_t len;

	sb_point_place(f, place, sizeof(place));
	len = (size_t)snprintf(buf, n, "%s/%s%s%s", f->family, f->strategy, *f->lock ? "/lock:" : "",
			       f->lock);
	nfirst = nfirst < f->params.n ? nfirst : f->params.n;
	len = put_params(&f->params, 0, nfirst, buf, n, len);
	if (len < n)
		len += (size_t)snprintf(buf + len, n - len, "/threads:%d/place:%s", f->threads, place);
	put_params(&f->params, nfirst, f->params.n, buf, n, len);
}

void sb_point_group(const struct sb_point_fields *f, const char *const *skip, char *buf, size_t n)
{
	char params[1024];

	sb_params_str(&f->params, skip, params, sizeof(params));
	snprintf(buf, n, "%s/%s/%s/%s", f->family, f->strategy, f->lock, params);
}

json_t *sb_point_to_json(const struct sb_point_fields *f)
{
	json_t *j = json_object(), *pm = json_object();

	json_object_set_new(j, "family", json_string(f->family));
	json_object_set_new(j, "strategy", json_string(f->strategy));
	json_object_set_new(j, "lock", *f->lock ? json_string(f->lock) : json_null());
	json_object_set_new(j, "threads", json_integer(f->threads));
	json_object_set_new(j, "placement", json_string(f->placement));
	for (int i = 0; i < f->params.n; i++)
		json_object_set_new(pm, f->params.p[i].key, json_string(f->params.p[i].val));
	json_object_set_new(j, "params", pm);
	return j;
}

static int copy_str(json_t *j, const char *key, char *dst, size_t n, bool null_ok, char *err,
		    size_t errlen)
{
	json_t *v = json_object_get(j, key);

	if (null_ok && json_is_null(v)) {
		*dst = '\0';
		return 0;
	}
	if (!json_is_string(v) || strlen(json_string_value(v)) >= n) {
		snprintf(err, errlen, "point field \"%s\" is %s", key,
			 !v ? "missing" : json_is_string(v) ? "too long" : "not a string");
		return -1;
	}
	snprintf(dst, n, "%s", json_string_value(v));
	return 0;
}

int sb_point_from_json(json_t *j, struct sb_point_fields *f, char *err, size_t errlen)
{
	json_t *th = json_object_get(j, "threads"), *pm = json_object_get(j, "params"), *v;
	const char *key;

	memset(f, 0, sizeof(*f));
	if (!json_is_object(j)) {
		snprintf(err, errlen, "point is not an object");
		return -1;
	}
	if (copy_str(j, "family", f->family, sizeof(f->family), false, err, errlen) ||
	    copy_str(j, "strategy", f->strategy, sizeof(f->strategy), false, err, errlen) ||
	    copy_str(j, "lock", f->lock, sizeof(f->lock), true, err, errlen) ||
	    copy_str(j, "placement", f->placement, sizeof(f->placement), false, err, errlen))
		return -1;
	if (!json_is_integer(th) || json_integer_value(th) < 1) {
		snprintf(err, errlen, "point field \"threads\" is %s",
			 th ? "not a positive integer" : "missing");
		return -1;
	}
	f->threads = (int)json_integer_value(th);
	if (!json_is_object(pm)) {
		snprintf(err, errlen, "point field \"params\" is %s", pm ? "not an object" : "missing");
		return -1;
	}
	json_object_foreach(pm, key, v)
		if (!json_is_string(v) || set(&f->params, key, json_string_value(v), false)) {
			snprintf(err, errlen, "point parameter \"%s\" is %s", key,
				 json_is_string(v) ? "too long (or too many)" : "not a string");
			return -1;
		}
	return 0;
}

struct entry {
	char *name;
	struct sb_point_fields f;
	bool done;		/* done before (--resume): planned, not run now */
};
static struct entry *table;
static int ntable, captable;

const struct sb_point_fields *sb_points_find(const char *name)
{
	for (int i = 0; i < ntable; i++)
		if (!strcmp(table[i].name, name))
			return &table[i].f;
	return NULL;
}

void sb_points_add(const char *name, const struct sb_point_fields *f)
{
	struct sb_point_fields *had = (struct sb_point_fields *)sb_points_find(name);

	if (had) {
		*had = *f;
	} else if (SB_GROW(table, captable, ntable + 1) == 0) {
		table[ntable].name = strdup(name);
		table[ntable].done = false;
		table[ntable++].f = *f;
	}
}

void sb_points_set_done(const char *name)
{
	for (int i = 0; i < ntable; i++)
		if (!strcmp(table[i].name, name))
			table[i].done = true;
}

bool sb_points_done_at(int i)
{
	return i >= 0 && i < ntable && table[i].done;
}

const char *sb_points_registered(const char *run_name)
{
	const char *best = NULL;

	for (int i = 0; i < ntable; i++)
		if ((!best || strlen(table[i].name) > strlen(best)) &&
		    sb_name_belongs(run_name, table[i].name))
			best = table[i].name;
	return best;
}

int sb_points_count(void) { return ntable; }

const struct sb_point_fields *sb_points_at(int i)
{
	return i >= 0 && i < ntable ? &table[i].f : NULL;
}

void sb_points_clear(void)
{
	for (int i = 0; i < ntable; i++)
		free(table[i].name);
	free(table);
	table = NULL;
	ntable = captable = 0;
}

char *sb_points_json(void)
{
	json_t *j = json_object();
	char *s;

	for (int i = 0; i < ntable; i++)
		json_object_set_new(j, table[i].name, sb_point_to_json(&table[i].f));
	s = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(j);
	return s;
}

bool sb_name_belongs(const char *run_name, const char *registered)
{
	size_t k = strlen(registered);

	return !strncmp(run_name, registered, k) && (run_name[k] == '\0' || run_name[k] == '/');
}

const char *sb_points_match(json_t *table_j, const char *run_name)
{
	const char *key, *best = NULL;
	size_t blen = 0;
	json_t *v;

	json_object_foreach(table_j, key, v)
		if (strlen(key) > blen && sb_name_belongs(run_name, key)) {
			best = key;
			blen = strlen(key);
		}
	return best;
}
