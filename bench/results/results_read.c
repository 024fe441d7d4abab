/* results_read.c — reads back, for compare and merge, a results directory
 * (DIR/gbench.json) or any Google Benchmark JSON file, with jansson.  GB
 * writes NaN and Infinity (a CV of all-zero counters), which is not JSON:
 * outside strings they are read as null.  Every problem: one line naming
 * the file. */
#include "results/results.h"

#include "core/util.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* A copy of s with NaN, -NaN, Infinity, -Infinity outside strings as null. */
static char *nan_to_null(const char *s)
{
	static const char *const tok[] = { "-Infinity", "Infinity", "-NaN", "NaN" };
	char *out = malloc(2 * strlen(s) + 1), *o = out;	/* null is at most 2x NaN */
	bool in_str = false;

	while (*s) {
		size_t i, n = 0;

		if (in_str) {
			if (*s == '\\' && s[1])
				*o++ = *s++;
			else if (*s == '"')
				in_str = false;
			*o++ = *s++;
			continue;
		}
		if (*s == '"')
			in_str = true;
		for (i = 0; i < sizeof(tok) / sizeof(tok[0]) && !n; i++)
			if (!strncmp(s, tok[i], strlen(tok[i])))
				n = strlen(tok[i]);
		if (n) {
			memcpy(o, "null", 4);
			o += 4;
			s += n;
		} else {
			*o++ = *s++;
		}
	}
	*o = '\0';
	return out;
}

json_t *sb_json_loads_gb(const char *text, json_error_t *e)
{
	char *dup = nan_to_null(text);
	json_t *j = json_loads(dup, 0, e);

	free(dup);
	return j;
}

/* A whole input file: regular, at most SB_INPUT_MAX bytes (results.h). */
static char *slurp(const char *path, size_t *len, char *err, size_t errlen)
{
	char *buf = sb_input_read(path, "results file", SB_INPUT_MAX, len, err, errlen), *nul;

	if (!buf)
		return NULL;
	nul = memchr(buf, '\0', *len);
	if (nul) {	/* jansson would stop there: say so */
		snprintf(err, errlen, "%s: not valid JSON (a NUL byte at offset %zu)", path,
			 (size_t)(nul - buf));
		free(buf);
		return NULL;
	}
	return buf;
}

double sb_entry_value(json_t *e, const char *metric)
{
	json_t *v = json_object_get(e, metric);
	const char *unit = json_string_value(json_object_get(e, "time_unit"));
	const char *au = json_string_value(json_object_get(e, "aggregate_unit"));
	double mult = 1;

	if (!json_is_number(v))
		return NAN;
	if (strcmp(metric, "real_time") && strcmp(metric, "cpu_time"))
		return json_number_value(v);	/* a counter */
	if (au && !strcmp(au, "percentage"))	/* a cv: a fraction, no unit */
		return json_number_value(v);
	if (unit && !strcmp(unit, "us"))
		mult = 1e3;
	else if (unit && !strcmp(unit, "ms"))
		mult = 1e6;
	else if (unit && !strcmp(unit, "s"))
		mult = 1e9;
	return json_number_value(v) * mult;
}

/* The plain benchmark name: run_name (or name) without /manual_time. */
static char *plain_name(json_t *e)
{
	const char *rn = json_string_value(json_object_get(e, "run_name"));
	const char *name = json_string_value(json_object_get(e, "name"));
	const char *agg = json_string_value(json_object_get(e, "aggregate_name"));
	char *s, *mt;

	if (rn) {
		s = strdup(rn);
	} else {
		s = strdup(name);
		if (agg && *agg) {	/* older GB: name_AGG, no run_name */
			size_t n = strlen(s), k = strlen(agg);

			if (n > k + 1 && s[n - k - 1] == '_' && !strcmp(s + n - k, agg))
				s[n - k - 1] = '\0';
		}
	}
	mt = strstr(s, "/manual_time");
	if (mt)
		memmove(mt, mt + 12, strlen(mt + 12) + 1);
	return s;
}

static struct sb_bm *find_or_add(struct sb_results *r, const char *name)
{
	for (int i = 0; i < r->n; i++)
		if (!strcmp(r->bm[i].name, name))
			return &r->bm[i];
	if (SB_GROW(r->bm, r->cap, r->n + 1))
		return NULL;
	r->bm[r->n] = (struct sb_bm){ .name = strdup(name), .median = NAN, .cv = NAN };
	return &r->bm[r->n++];
}

static const char *ctx_str(const struct sb_results *r, const char *key)
{
	return json_string_value(json_object_get(r->context, key));
}

/* sb_schema and sb_points of the context (docs/results.md "Versions"):
 * none is plain Google Benchmark JSON (no points); a version above ours
 * is refused, since its fields may mean something else. */
static int read_schema(struct sb_results *r, char *err, size_t errlen)
{
	const char *ver = ctx_str(r, "sb_schema"), *pts = ctx_str(r, "sb_points");
	const char *thr = ctx_str(r, "sb_cv_threshold");
	json_error_t e;
	char *end;
	long v;

	r->cv_threshold = thr && strtod(thr, NULL) > 0 ? strtod(thr, NULL) : 5;
	if (!ver)
		return 0;
	v = strtol(ver, &end, 10);
	if (*end || v < 1) {
		snprintf(err, errlen, "%s: sb_schema \"%s\" is not a version number", r->path, ver);
		return -1;
	}
	if (v > SB_SCHEMA_VERSION) {
		snprintf(err, errlen, "%s: written with results schema %ld; this stratbench reads "
			 "up to %d: use a newer stratbench", r->path, v, SB_SCHEMA_VERSION);
		return -1;
	}
	r->schema = (int)v;
	r->points = pts ? json_loads(pts, 0, &e) : NULL;
	if (!json_is_object(r->points)) {
		snprintf(err, errlen, "%s: schema %ld but sb_points is %s", r->path, v,
			 pts ? "not a JSON object" : "missing");
		return -1;
	}
	return 0;
}

/* b's typed point: the table's entry its run name belongs to (point.h). */
static int attach_point(const struct sb_results *r, struct sb_bm *b, json_t *points,
			json_t *ent, char *err, size_t errlen)
{
	const char *rn = json_string_value(json_object_get(ent, "run_name"));
	const char *key = sb_points_match(points, rn ? rn : b->name);
	char why[256];

	if (!key) {
		snprintf(err, errlen, "%s: benchmark %s has no entry in sb_points", r->path, b->name);
		return -1;
	}
	if (sb_point_from_json(json_object_get(points, key), &b->pt, why, sizeof(why))) {
		snprintf(err, errlen, "%s: sb_points[\"%s\"]: %s", r->path, key, why);
		return -1;
	}
	b->has_point = true;
	return 0;
}

static void log_line(const char *key, json_t *v, void *arg)
{
	json_t *root = arg;

	if (!strcmp(key, "context"))
		json_object_set(root, "context", v);
	else if (!strcmp(key, "benchmarks") && json_is_array(v))
		json_array_extend(json_object_get(root, "benchmarks"), v);
}

/* DIR's runs.jsonl[.partial] as GB JSON text (what a run killed, failed or
 * in progress finished), cut lines skipped and said; NULL with err, or with
 * err empty and *path DIR/gbench.json when there is none. */
static char *from_log(const char *dir, char *path, char *err, size_t errlen)
{
	static const char *const names[] = { "runs.jsonl.partial", "runs.jsonl" };
	json_t *root;
	char *text = NULL;
	int skipped;

	for (int i = 0; i < 2; i++) {
		sb_pathf(path, "%s/%s", dir, names[i]);
		if (access(path, F_OK))
			continue;
		root = json_object();
		json_object_set_new(root, "benchmarks", json_array());
		skipped = sb_runlog_read(path, log_line, root, err, errlen);
		if (skipped >= 0)
			text = json_dumps(root, 0);
		if (skipped > 0)
			fprintf(stderr, "stratbench: note: %s: %d unfinished line%s skipped (a "
				"benchmark cut short: --resume runs it again)\n", path, skipped,
				skipped > 1 ? "s" : "");
		json_decref(root);
		return text;
	}
	sb_pathf(path, "%s/gbench.json", dir);
	return NULL;
}

/* A run or resume writing DIR holds DIR/.lock flock()ed (rundir.c): say so
 * (its pid).  The shared lock is only tried, never waited for or held: a
 * reader never holds up a run. */
static void say_if_written(const char *dir)
{
	char path[SB_PATH], pid[32];
	int fd, k;

	sb_pathf(path, "%s/.lock", dir);
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return;
	if (flock(fd, LOCK_SH | LOCK_NB) == 0) {
		flock(fd, LOCK_UN);
		close(fd);
		return;
	}
	k = (int)read(fd, pid, sizeof(pid) - 1);
	pid[k > 0 ? k : 0] = '\0';
	pid[strcspn(pid, "\n")] = '\0';
	close(fd);
	if (atol(pid) == (long)getpid())
		return;	/* this process: a run reading its own finished files (its summary) */
	fprintf(stderr, "stratbench: note: %s is being written (stratbench pid %s): reading the "
		"benchmarks finished so far\n", dir, *pid ? pid : "?");
}

/* The text of arg, NUL-terminated (*len long): DIR's gbench.json or the
 * finished part of its runs.jsonl[.partial], or the file arg.  r->path
 * names what was read, on success or not; NULL with err. */
static char *read_text(const char *arg, struct sb_results *r, size_t *len, char *err,
		       size_t errlen)
{
	char path[SB_PATH], *text = NULL;
	struct stat st;

	if (stat(arg, &st) || !S_ISDIR(st.st_mode)) {
		r->path = strdup(arg);	/* a file: read by the name given */
		return slurp(arg, len, err, errlen);
	}
	say_if_written(arg);
	err[0] = '\0';
	/* runs.jsonl.partial is newer than a gbench.json beside it (a resume in
	 * progress or killed), and without gbench.json runs.jsonl is all there is */
	if (sb_dir_has(arg, "runs.jsonl.partial") || !sb_dir_has(arg, "gbench.json"))
		text = from_log(arg, path, err, errlen);
	else
		sb_pathf(path, "%s/gbench.json", arg);
	r->path = strdup(path);
	if (!text && !err[0])
		return slurp(path, len, err, errlen);
	*len = text ? strlen(text) : 0;
	return text;
}

/* text into r->root, r->context and the schema: its benchmarks, or NULL */
static json_t *parse(struct sb_results *r, const char *text, size_t len, char *err,
		     size_t errlen)
{
	const char *path = r->path;
	char *clean;
	json_error_t e;
	json_t *bms;

	if (strspn(text, " \t\r\n") == len) {
		snprintf(err, errlen, "%s: empty file", path);
		return NULL;
	}
	clean = nan_to_null(text);
	len = strlen(clean);
	r->root = json_loads(clean, 0, &e);
	free(clean);
	if (!r->root) {
		snprintf(err, errlen, "%s: not valid JSON (%s at line %d, column %d)%s", path,
			 e.text, e.line, e.column,
			 e.position >= (int)len - 1 ? ": truncated?" : "");
		return NULL;
	}
	bms = json_object_get(r->root, "benchmarks");
	if (!json_is_object(r->root) || !json_is_array(bms)) {
		snprintf(err, errlen, "%s: not Google Benchmark JSON (no \"benchmarks\" array)", path);
		return NULL;
	}
	r->context = json_object_get(r->root, "context");
	if (!json_is_object(r->context))
		r->context = NULL;
	if (read_schema(r, err, errlen))
		return NULL;
	if (!json_array_size(bms)) {
		snprintf(err, errlen, "%s: no benchmarks in it", path);
		return NULL;
	}
	return bms;
}

/* Entry i (from 0) into its sb_bm: a repetition, median, cv, or failure */
static int add_entry(struct sb_results *r, json_t *ent, size_t i, const char *metric, char *err,
		     size_t errlen)
{
	const char *name = json_string_value(json_object_get(ent, "name"));
	const char *type = json_string_value(json_object_get(ent, "run_type"));
	const char *agg = json_string_value(json_object_get(ent, "aggregate_name"));
	bool error = json_is_true(json_object_get(ent, "error_occurred"));
	struct sb_bm *b;
	char *pn;
	double v;

	if (!json_is_object(ent) || !name || (!error && !json_is_number(json_object_get(
							ent, "real_time")))) {
		snprintf(err, errlen, "%s: benchmark entry %zu is not Google Benchmark's "
			 "(needs \"name\" and \"real_time\")", r->path, i + 1);
		return -1;
	}
	pn = plain_name(ent);
	b = find_or_add(r, pn);
	free(pn);
	if (!b) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (error) {
		b->failed = true;
		return 0;
	}
	if (!b->entry)
		b->entry = ent;
	if (!b->has_point && r->points && attach_point(r, b, r->points, ent, err, errlen))
		return -1;
	v = sb_entry_value(ent, metric);
	if (type && !strcmp(type, "aggregate")) {
		if (agg && !strcmp(agg, "median")) {
			b->median = v;
			b->entry = ent;	/* counters of the median run */
		} else if (agg && !strcmp(agg, "cv")) {
			b->cv = 100 * v;
		}
		return 0;
	}
	/* NOLINTNEXTLINE(bugprone-sizeof-expression): an array of json_t pointers */
	if (SB_GROW(b->runs, b->runs_cap, b->nruns + 1) ||
	    (!isnan(v) && SB_GROW(b->reps, b->reps_cap, b->nreps + 1))) {
		snprintf(err, errlen, "out of memory");	/* never a median of fewer reps */
		return -1;
	}
	b->runs[b->nruns++] = ent;
	if (!isnan(v))
		b->reps[b->nreps++] = v;
	return 0;
}

/* min and max over the repetitions; the median where GB wrote none (as GB) */
static void finish(struct sb_results *r, const char *metric)
{
	for (int k = 0; k < r->n; k++) {
		struct sb_bm *b = &r->bm[k];
		struct sb_stat s;

		if (!b->nreps)
			continue;
		sb_bm_stat(b, metric, &s);	/* over the same runs as reps */
		if (isnan(b->median))
			b->median = s.median;
		b->min = s.min;
		b->max = s.max;
	}
	r->label = ctx_str(r, "sb_label");
	if (r->label && !*r->label)
		r->label = NULL;
	r->host = ctx_str(r, "sb_host") ? ctx_str(r, "sb_host") : ctx_str(r, "host_name");
	r->cpu_model = ctx_str(r, "sb_cpu_model");
}

int sb_results_load(const char *arg, const char *metric, struct sb_results *r, char *err,
		    size_t errlen)
{
	json_t *bms = NULL, *ent;
	size_t len, i;
	char *text;

	memset(r, 0, sizeof(*r));
	text = read_text(arg, r, &len, err, errlen);
	if (text)
		bms = parse(r, text, len, err, errlen);
	free(text);
	json_array_foreach(bms, i, ent)
		if (add_entry(r, ent, i, metric, err, errlen)) {
			bms = NULL;
			break;
		}
	if (!bms) {
		sb_results_free(r);
		sb_err_oneline(err);	/* jansson's messages quote the input */
		return -1;
	}
	finish(r, metric);
	return 0;
}

bool sb_results_has_metric(const struct sb_results *r, const char *metric)
{
	for (int i = 0; i < r->n; i++)
		if (r->bm[i].entry && !isnan(sb_entry_value(r->bm[i].entry, metric)))
			return true;
	return false;
}

void sb_bm_stat(const struct sb_bm *b, const char *metric, struct sb_stat *s)
{
	double *v = malloc(sizeof(double) * (b->nruns ? b->nruns : 1)), sum = 0, ss = 0;
	int n = 0;

	for (int i = 0; v && i < b->nruns; i++) {
		double x = sb_entry_value(b->runs[i], metric);

		if (!isnan(x))
			v[n++] = x;
	}
	s->n = n;
	s->median = s->min = s->max = s->cv = NAN;
	if (n) {
		s->median = sb_median(v, n);
		s->min = v[0];
		s->max = v[n - 1];
		for (int i = 0; i < n; i++)
			sum += v[i];
		for (int i = 0; i < n; i++)
			ss += (v[i] - sum / n) * (v[i] - sum / n);
		if (n > 1 && sum != 0)
			s->cv = 100 * sqrt(ss / (n - 1)) / fabs(sum / n);
	} else if (b->entry) {	/* aggregates only: the median entry's value */
		s->median = s->min = s->max = sb_entry_value(b->entry, metric);
		s->n = isnan(s->median) ? 0 : 1;
	}
	free(v);
}

void sb_results_free(struct sb_results *r)
{
	for (int i = 0; i < r->n; i++) {
		free(r->bm[i].name);
		free(r->bm[i].reps);
		free(r->bm[i].runs);
	}
	json_decref(r->points);
	free(r->bm);
	free(r->path);
	json_decref(r->root);
	memset(r, 0, sizeof(*r));
}
