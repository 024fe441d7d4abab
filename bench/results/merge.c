/* merge.c — OUT/machines.csv (machine x benchmark), OUT/merge.json (sources) */
#include "results/results.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void put_num(FILE *f, double v)
{
	if (isnan(v))
		fputc(',', f);
	else
		fprintf(f, ",%.9g", v);
}

static void put_rows(FILE *f, const char *metric, const struct sb_results *r,
		     const char *const *names, int n)
{
	fprintf(f, "machine,name,family,strategy,lock,threads,placement,params,metric,median,"
		"min,max,cv_pct,repetitions\n");
	for (int i = 0; i < n; i++)
		for (int j = 0; j < r[i].n; j++) {
			const struct sb_bm *b = &r[i].bm[j];

			if (isnan(b->median))
				continue;	/* failed: no value */
			fprintf(f, "%s,", names[i]);
			sb_csv_field(f, b->name);
			fputc(',', f);
			sb_csv_point(f, b->has_point ? &b->pt : NULL);
			fprintf(f, ",%s", metric);
			put_num(f, b->median);
			put_num(f, b->nreps ? b->min : NAN);
			put_num(f, b->nreps ? b->max : NAN);
			put_num(f, b->cv);
			fprintf(f, ",%d\n", b->nreps);
		}
}

/* path through path.partial (results.h); with err and neither left: -1
 * when path.partial cannot be created, 1 when it cannot be written */
static int write_csv(const char *path, const char *metric, const struct sb_results *r,
		     const char *const *names, int n, char *err, size_t errlen)
{
	char tmp[SB_PATH];
	FILE *f;
	int e;

	sb_pathf(tmp, "%s.partial", path);
	f = fopen(tmp, "w");
	if (!f) {
		snprintf(err, errlen, "cannot write %s: %s", tmp, strerror(errno));
		return -1;
	}
	put_rows(f, metric, r, names, n);
	errno = 0;
	e = fflush(f) || ferror(f) || fsync(fileno(f)) ? (errno ? errno : EIO) : 0;
	if (fclose(f) && !e)
		e = errno ? errno : EIO;
	if (e)
		snprintf(err, errlen, "cannot write %s: %s", tmp, strerror(e));
	else if (sb_file_commit(tmp, path, err, errlen) == 0)
		return 0;
	unlink(tmp);
	return 1;
}

static int write_meta(const char *out, const char *metric, const struct sb_results *r,
		      const char *const *names, int n, char *err, size_t errlen)
{
	json_t *meta = json_object(), *src = json_array();
	char path[SB_PATH];
	int rc;

	for (int i = 0; i < n; i++) {
		json_t *s = json_object();

		json_object_set_new(s, "machine", json_string(names[i]));
		json_object_set_new(s, "path", json_string(r[i].path));
		json_object_set_new(s, "cpu_model", r[i].cpu_model ? json_string(r[i].cpu_model) :
								     json_null());
		json_object_set_new(s, "host", r[i].host ? json_string(r[i].host) : json_null());
		json_object_set(s, "context", r[i].context ? r[i].context : json_null());
		json_array_append_new(src, s);
	}
	json_object_set_new(meta, "metric", json_string(metric));
	json_object_set_new(meta, "sources", src);
	sb_pathf(path, "%s/merge.json", out);
	rc = sb_json_write_file(path, meta, JSON_INDENT(2) | JSON_PRESERVE_ORDER, err, errlen);
	json_decref(meta);
	return rc;
}

int sb_merge_write(const char *out, const char *metric, const struct sb_results *r,
		   const char *const *names, int n, char *err, size_t errlen)
{
	char path[SB_PATH];
	int rc;

	if (mkdir(out, 0777) && errno != EEXIST) {
		snprintf(err, errlen, "cannot create '%s': %s", out, strerror(errno));
		return -1;
	}
	sb_pathf(path, "%s/machines.csv", out);
	if (access(path, F_OK) == 0) {
		snprintf(err, errlen, "'%s' already holds merged results: choose a new --out", out);
		return -1;
	}
	rc = write_csv(path, metric, r, names, n, err, errlen);
	if (rc)
		return rc;
	return write_meta(out, metric, r, names, n, err, errlen) ? 1 : 0;
}
