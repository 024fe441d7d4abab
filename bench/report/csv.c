/* csv.c — results.csv: one row per reported run (repetitions and aggregates
 * included), written and flushed as each finishes so a partial sweep keeps
 * every finished result.  Columns are documented in README.md. */
#include "report/report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static FILE *csv;

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
	"not_moved_per_page", "responder_csw_per_batch", NULL,
};

static void put_field(const char *s)
{
	/* names never hold quotes or commas, errors may: quote those */
	if (strpbrk(s, ",\"\n")) {
		fputc('"', csv);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', csv);
			fputc(*s == '\n' ? ' ' : *s, csv);
		}
		fputc('"', csv);
	} else {
		fputs(s, csv);
	}
}

/* family/strategy[/key:value]... → family, strategy, lock, threads, place, params */
static void put_name_fields(const char *name)
{
	char buf[512], *save = NULL, *tok, params[512] = "";
	const char *family = "", *strategy = "", *lock = "", *threads = "", *place = "";
	int seg = 0;

	snprintf(buf, sizeof(buf), "%s", name);
	for (tok = strtok_r(buf, "/", &save); tok; tok = strtok_r(NULL, "/", &save), seg++) {
		char *colon = strchr(tok, ':');

		if (seg == 0) {
			family = tok;
		} else if (seg == 1) {
			strategy = tok;
		} else if (!colon) {	/* a bare part: the kernel drivers' immediate|batched */
			snprintf(params + strlen(params), sizeof(params) - strlen(params),
				 "%smode=%s", params[0] ? ";" : "", tok);
		} else {
			*colon = '\0';
			if (strcmp(tok, "lock") == 0)
				lock = colon + 1;
			else if (strcmp(tok, "threads") == 0)
				threads = colon + 1;
			else if (strcmp(tok, "place") == 0)
				place = colon + 1;
			else
				snprintf(params + strlen(params), sizeof(params) - strlen(params),
					 "%s%s=%s", params[0] ? ";" : "", tok, colon + 1);
		}
	}
	fprintf(csv, "%s,%s,%s,%s,", family, strategy, lock, threads);
	put_field(place);
	fputc(',', csv);
	put_field(params);
}

static void csv_row(const struct sb_run_report *r, void *arg)
{
	char *extra = NULL;
	size_t extra_len = 0;
	FILE *ex = open_memstream(&extra, &extra_len);	/* any length: the counters add many */
	int c, k;

	(void)arg;
	put_field(r->name);
	fputc(',', csv);
	put_name_fields(r->name);
	fprintf(csv, ",%s,%lld,%lld,%.6g,%.6g,", r->aggregate,
		(long long)r->repetition_index, (long long)r->iterations, r->real_ns, r->cpu_ns);
	for (c = 0; counter_cols[c]; c++) {
		for (k = 0; k < r->ncounters; k++)
			if (strcmp(r->counter_names[k], counter_cols[c]) == 0)
				break;
		if (k < r->ncounters && !r->error)
			fprintf(csv, "%.9g", r->counter_values[k]);
		fputc(',', csv);
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
	put_field(extra ? extra : "");
	free(extra);
	fputc(',', csv);
	put_field(r->label);
	fputc(',', csv);
	put_field(r->error ? r->error : "");
	fputc('\n', csv);
	fflush(csv);
}

int sb_csv_open(const char *path, char *err, size_t errlen)
{
	int c;

	csv = fopen(path, "wx");	/* never overwrite earlier results */
	if (!csv) {
		snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno));
		return -1;
	}
	fputs("name,family,strategy,lock,threads,placement,params,aggregate,repetition,"
	      "iterations,real_ns,cpu_ns", csv);
	for (c = 0; counter_cols[c]; c++)
		fprintf(csv, ",%s", counter_cols[c]);
	fputs(",extra,label,error\n", csv);
	fflush(csv);
	sb_gbench_on_run(csv_row, NULL);
	return 0;
}

void sb_csv_close(void)
{
	if (csv)
		fclose(csv);
	csv = NULL;
}
