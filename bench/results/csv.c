/* csv.c — results.csv (columns: docs/results.md).  A benchmark's rows are
 * flushed together when it ends, so a partial sweep keeps each finished one;
 * the first failed write is recorded (sb_out_fail stops the run), no more. */
#include "results/point.h"
#include "results/results.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static FILE *csv;
static char csv_path[SB_PATH];
static FILE *rows;		/* the benchmark in progress (open_memstream) */
static char *rows_buf;
static size_t rows_len;
static double cv_threshold = 5;	/* percent */

/* Counters with their own column; any other goes to `extra` as k=v;k=v. */
static const char *const counter_cols[] = {
	"ops_per_s", "ns_per_op", "ops_min", "ops_max", "jain", "resets", "contended",
	"limited", "resets_per_interval", "wait_p50_ns", "wait_p99_ns", "max_wait_ns",
	"trylock_success",			/* columns 13..25 */
	"admit_ratio", "admit_ratio_p99", "admit_ratio_max", "stretch", "stretch_max",
	"double_resets", "lost_pages",		/* 26..32: window fidelity mode */
	"limit_ops", "of_limit", "one_way_ns", "one_way_min_ns", "one_way_max_ns",
	"us_per_call",				/* 33..38: limits and calibration */
	"ns_per_page", "flushes_per_page", "acks_per_page", "full_flushes",
	"responder_slowdown", "violations",	/* 39..44: simulated shootdown */
	/* the kernel shootdown drivers, columns 45..55 */
	"us_per_page", "pages_per_s", "calls_per_page", "tlb_irqs_per_page",
	"tlb_irqs_per_page_all", "cal_irqs_per_page", "user_s", "sys_s", "elapsed_s",
	"not_moved_per_page", "responder_csw_per_batch",
	"flush_rtt_ns", "of_flush_rtt",		/* 56..57: flush cost (shootdown) */
	NULL,
};

void sb_csv_field(FILE *f, const char *s)
{
	/* names never hold quotes or commas, errors may: quote those */
	if (strpbrk(s, ",\"\n")) {
		fputc('"', f);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', f);
			fputc(*s == '\n' ? ' ' : *s, f);
		}
		fputc('"', f);
	} else {
		fputs(s, f);
	}
}

void sb_csv_point(FILE *o, const struct sb_point_fields *f)
{
	char params[1200], place[sizeof(f->placement)];

	if (!f) {
		fputs(",,,,,", o);
		return;
	}
	sb_params_str(&f->params, NULL, params, sizeof(params));
	/* list:0,1 as list:0+1, as in the name: every field stays comma-free
	 * for awk and cut (the JSON files hold the placement as given) */
	sb_point_place(f, place, sizeof(place));
	fprintf(o, "%s,%s,%s,%d,%s,", f->family, f->strategy, f->lock, f->threads, place);
	sb_csv_field(o, params);
}

static void put_num(double v)
{
	if (!isnan(v))
		fprintf(rows, "%.6g", v);
	fputc(',', rows);
}

void sb_csv_on_run(const struct sb_run_report *r, void *arg)
{
	char *extra = NULL;
	size_t extra_len = 0;
	FILE *ex = open_memstream(&extra, &extra_len);	/* any length: the counters add many */
	int c, k;

	(void)arg;
	sb_csv_field(rows, r->name);
	fputc(',', rows);
	sb_csv_point(rows, r->registered ? sb_points_find(r->registered) : NULL);
	fprintf(rows, ",%s,%lld,%lld,", r->aggregate, (long long)r->repetition_index,
		(long long)r->iterations);
	put_num(r->real_ns);	/* empty on cv rows: a fraction is no time */
	put_num(r->cpu_ns);
	for (c = 0; counter_cols[c]; c++) {
		for (k = 0; k < r->ncounters; k++)
			if (strcmp(r->counter_names[k], counter_cols[c]) == 0)
				break;
		if (k < r->ncounters && !r->error)
			fprintf(rows, "%.9g", r->counter_values[k]);
		fputc(',', rows);
	}
	for (k = 0; k < r->ncounters && !r->error; k++) {
		for (c = 0; counter_cols[c]; c++)
			if (strcmp(r->counter_names[k], counter_cols[c]) == 0)
				break;
		if (!counter_cols[c])
			fprintf(ex, "%s%s=%.9g", ftell(ex) ? ";" : "", r->counter_names[k],
				r->counter_values[k]);
	}
	fclose(ex);
	fputs("\001,", rows);		/* cv_pct, noisy: filled in when the group ends */
	sb_csv_field(rows, extra ? extra : "");
	free(extra);
	fputc(',', rows);
	sb_csv_field(rows, r->label);
	fputc(',', rows);
	sb_csv_field(rows, r->error ? r->error : "");
	fputc('\n', rows);
}

/* 0, or -1 after recording the failure */
static int csv_check(void)
{
	if (fflush(csv) == 0 && !ferror(csv))
		return 0;
	sb_out_fail(csv_path, errno ? errno : EIO);
	return -1;
}

/* The rows held dropped; with reopen, a buffer for the next benchmark's. */
static void rows_drop(bool reopen)
{
	if (rows)
		fclose(rows);
	free(rows_buf);
	rows_buf = NULL;
	rows = reopen ? open_memstream(&rows_buf, &rows_len) : NULL;
}

static int csv_start(const char *path)
{
	sb_pathf(csv_path, "%s", path);
	rows_drop(true);
	return rows ? 0 : -1;
}

/* The header line, without its newline. */
static void put_header(FILE *f)
{
	fputs("name,family,strategy,lock,threads,placement,params,aggregate,repetition,"
	      "iterations,real_ns,cpu_ns", f);
	for (int c = 0; counter_cols[c]; c++)
		fprintf(f, ",%s", counter_cols[c]);
	fputs(",cv_pct,noisy,extra,label,error", f);
}

bool sb_csv_header_ok(const char *line)
{
	char *h = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&h, &n);
	bool ok;

	if (!f)
		return false;
	put_header(f);
	fclose(f);
	ok = h && strncmp(line, h, n) == 0 && (line[n] == '\n' || line[n] == '\0' ||
					     (line[n] == '\r' && line[n + 1] == '\n'));
	free(h);
	return ok;
}

/* A number as %g or %lld writes it, or nothing. */
static bool numeric(const char *s, size_t n)
{
	char buf[64], *end;

	if (!n)
		return true;
	if (n >= sizeof(buf))
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	strtod(buf, &end);
	return *end == '\0';
}

int sb_csv_check_row(const char *line, char *why, size_t n)
{
	int want = 12 + (int)(sizeof(counter_cols) / sizeof(counter_cols[0]) - 1) + 5;
	int field = 0;
	const char *p = line, *start = line;
	bool quoted = false;

	for (;; p++) {
		if (quoted) {
			if (!*p)
				break;
			if (*p == '"' && p[1] == '"')
				p++;
			else if (*p == '"')
				quoted = false;
			continue;
		}
		if (*p == '"' && p == start) {
			quoted = true;
			continue;
		}
		if (*p == ',' || *p == '\n' || *p == '\r' || !*p) {
			/* numbers or nothing: threads (empty: the harness's own),
			 * repetition, iterations, real_ns, cpu_ns (empty: a cv row) */
			if ((field == 4 || (field >= 8 && field <= 11)) &&
			    !numeric(start, (size_t)(p - start))) {
				snprintf(why, n, "field %d is not a number", field + 1);
				return -1;
			}
			field++;
			start = p + 1;
			if (*p != ',')
				break;
		}
	}
	if (quoted) {
		snprintf(why, n, "an unterminated quote");
		return -1;
	}
	if (field != want) {
		snprintf(why, n, "%d fields, want %d", field, want);
		return -1;
	}
	return 0;
}

int sb_csv_open(const char *path, char *err, size_t errlen)
{
	csv = fopen(path, "wx");	/* never overwrite earlier results */
	if (!csv) {
		snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno));
		return -1;
	}
	put_header(csv);
	fputc('\n', csv);
	errno = 0;
	if (fflush(csv) || ferror(csv)) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno ? errno : EIO));
		fclose(csv);
		csv = NULL;
		unlink(path);
		return -1;
	}
	return csv_start(path);
}

int sb_csv_append(const char *path, char *err, size_t errlen)
{
	csv = fopen(path, "a");
	if (!csv) {
		snprintf(err, errlen, "cannot append to %s: %s", path, strerror(errno));
		return -1;
	}
	return csv_start(path);
}

void sb_csv_cv_threshold(double pct)
{
	cv_threshold = pct;
}

void sb_csv_group(double cv_pct)
{
	char cv[32] = "", noisy[4] = "";

	if (!csv || !rows)
		return;
	fflush(rows);
	if (sb_out_failure())
		goto next;	/* nothing after a failed write */
	errno = 0;
	if (cv_pct >= 0) {
		snprintf(cv, sizeof(cv), "%.3g", cv_pct);
		snprintf(noisy, sizeof(noisy), "%d", cv_pct > cv_threshold);
	}
	for (char *p = rows_buf, *m; p && *p; p = m + 1) {
		m = strchr(p, '\001');
		if (!m) {
			fputs(p, csv);
			break;
		}
		fwrite(p, 1, (size_t)(m - p), csv);
		fprintf(csv, "%s,%s", cv, noisy);
	}
	csv_check();	/* the benchmark's rows, together */
next:
	rows_drop(true);
}

int sb_csv_close(void)
{
	int rc = 0;

	rows_drop(false);
	if (!csv)
		return 0;
	errno = 0;
	if (csv_check() || fsync(fileno(csv))) {
		sb_out_fail(csv_path, errno ? errno : EIO);
		rc = -1;
	}
	if (fclose(csv) && !rc) {
		sb_out_fail(csv_path, errno ? errno : EIO);
		rc = -1;
	}
	csv = NULL;
	return rc;
}
