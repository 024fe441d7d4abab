/* procfs.c — /proc/interrupts, /proc/vmstat and /proc/stat text parsers (procfs.h). */
#include "machine/procfs.h"

#include "core/util.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char *sb_proc_slurp(const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t len;
	int r;

	if (!f) {
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
		return NULL;
	}
	r = sb_read_all(f, LLONG_MAX, &text, &len);
	if (r)
		snprintf(err, errlen, "cannot read %s: %s", path,
			 r == SB_READ_NOMEM ? "out of memory" : "read error");
	fclose(f);
	return text;
}

/* Length of the line starting at p, without its newline. */
static size_t line_len(const char *p)
{
	const char *nl = strchr(p, '\n');

	return nl ? (size_t)(nl - p) : strlen(p);
}

/* Parses the header "  CPU0  CPU1 ..." into cpus; returns the column count. */
static int irq_header(const char *p, size_t len, int *cpus, int max)
{
	const char *end = p + len;
	int n = 0;

	while (p < end) {
		char *next;
		long cpu;

		while (p < end && isspace((unsigned char)*p))
			p++;
		if (p == end)
			break;
		if (end - p < 4 || strncmp(p, "CPU", 3) || !isdigit((unsigned char)p[3]))
			return -1;
		cpu = strtol(p + 3, &next, 10);
		if (next > end || (next < end && !isspace((unsigned char)*next)) || cpu < 0)
			return -1;
		if (n < max)
			cpus[n] = (int)cpu;
		n++;
		p = next;
	}
	return n;
}

int sb_irq_parse(const char *text, const char *row, int *cpus, uint64_t *counts, int max,
		 char *err, size_t errlen)
{
	const char *p = text;
	size_t len = line_len(p), rlen = strlen(row);
	int ncols = irq_header(p, len, cpus, max), i;

	if (ncols <= 0) {
		snprintf(err, errlen, "/proc/interrupts: no CPU header line");
		return -1;
	}
	if (ncols > max) {
		snprintf(err, errlen, "/proc/interrupts: %d CPU columns, room for %d", ncols, max);
		return -1;
	}
	for (p += len; *p; p += line_len(p)) {
		const char *q;

		if (*p == '\n')
			p++;
		q = p + strspn(p, " ");
		if (strncmp(q, row, rlen) || q[rlen] != ':')
			continue;
		q += rlen + 1;
		for (i = 0; i < ncols; i++) {
			char *next;

			while (*q == ' ' || *q == '\t')
				q++;
			if (!isdigit((unsigned char)*q)) {
				snprintf(err, errlen, "/proc/interrupts: row %s has %d of %d CPU "
					 "counts", row, i, ncols);
				return -1;
			}
			errno = 0;
			counts[i] = strtoull(q, &next, 10);
			if (errno || (*next && !isspace((unsigned char)*next))) {
				snprintf(err, errlen, "/proc/interrupts: row %s: bad count", row);
				return -1;
			}
			q = next;
		}
		return ncols;
	}
	return 0;
}

/* Column of cpu among col[0..ncol), or -1 with err (offline). */
static int column(const int *col, int ncol, int cpu, char *err, size_t errlen)
{
	for (int j = 0; j < ncol; j++)
		if (col[j] == cpu)
			return j;
	snprintf(err, errlen, "/proc/interrupts: no column for CPU %d (offline?)", cpu);
	return -1;
}

int sb_irq_sum(const char *text, const struct sb_irq_query *q, uint64_t *team,
	       uint64_t *all, char *err, size_t errlen)
{
	enum { MAXCOL = 8192 };
	int *col = malloc(sizeof(*col) * MAXCOL);
	uint64_t *cnt = malloc(sizeof(*cnt) * MAXCOL);
	int n = col && cnt ? sb_irq_parse(text, q->name, col, cnt, MAXCOL, err, errlen) : -1;
	int i, j;

	if (!col || !cnt)
		snprintf(err, errlen, "/proc/interrupts: out of memory");
	if (n > 0) {
		*team = *all = 0;
		for (j = 0; j < n; j++)
			*all += cnt[j];
		for (i = 0; i < q->ncpus; i++) {
			j = column(col, n, q->cpus[i], err, errlen);
			if (j < 0) {
				n = -1;
				break;
			}
			*team += cnt[j];
		}
	}
	free(col);
	free(cnt);
	return n > 0 ? 1 : n;
}

int sb_irq_read(const char *row, const int *cpus, int ncpus, uint64_t *team, uint64_t *all,
		char *err, size_t errlen)
{
	struct sb_irq_query q = { row, cpus, ncpus };
	char *text = sb_proc_slurp("/proc/interrupts", err, errlen);
	int r;

	if (!text)
		return -1;
	r = sb_irq_sum(text, &q, team, all, err, errlen);
	free(text);
	return r;
}

int sb_irq_pread(const struct sb_irq_file *f, const struct sb_irq_query *q,
		 uint64_t *counts, char *err, size_t errlen)
{
	size_t len = 0, cap = f->cap;
	ssize_t n;
	int ncol, i, j;

	/* procfs hands the file out in pieces: read to EOF */
	while ((n = pread(f->fd, f->buf + len, cap - 1 - len, (off_t)len)) > 0 &&
	       len + (size_t)n < cap - 1)
		len += (size_t)n;
	if (n < 0) {
		snprintf(err, errlen, "cannot read /proc/interrupts: %s", strerror(errno));
		return -1;
	}
	if (n > 0) {
		snprintf(err, errlen, "/proc/interrupts: larger than %zu bytes", cap);
		return -1;
	}
	f->buf[len] = '\0';
	ncol = sb_irq_parse(f->buf, q->name, f->col, f->cnt, f->max, err, errlen);
	if (ncol <= 0)
		return ncol;
	for (i = 0; i < q->ncpus; i++) {
		j = column(f->col, ncol, q->cpus[i], err, errlen);
		if (j < 0)
			return -1;
		counts[i] = f->cnt[j];
	}
	return 1;
}

int sb_vmstat_parse(const char *text, const char *field, uint64_t *value, char *err,
		    size_t errlen)
{
	size_t flen = strlen(field);

	for (const char *p = text; *p; p += line_len(p), p += *p == '\n') {
		char *next;
		unsigned long long v;

		if (strncmp(p, field, flen) || p[flen] != ' ')
			continue;
		errno = 0;
		v = strtoull(p + flen + 1, &next, 10);
		if (!isdigit((unsigned char)p[flen + 1]) || errno || (*next && *next != '\n')) {
			snprintf(err, errlen, "/proc/vmstat: field %s: bad value", field);
			return -1;
		}
		*value = v;
		return 1;
	}
	return 0;
}

int sb_stat_parse(const char *text, const char *row, struct sb_cpu_ticks *t, char *err,
		  size_t errlen)
{
	size_t rlen = strlen(row);

	for (const char *p = text; *p; p += line_len(p), p += *p == '\n') {
		const char *q = p + rlen;
		int i;

		if (strncmp(p, row, rlen) || *q != ' ')
			continue;
		memset(t, 0, sizeof(*t));
		for (i = 0; i < 8; i++) {
			char *next;
			unsigned long long v;

			while (*q == ' ')
				q++;
			if (*q == '\n' || !*q)
				break;
			errno = 0;
			v = strtoull(q, &next, 10);
			if (!isdigit((unsigned char)*q) || errno || t->total + v < t->total ||
			    (*next && *next != ' ' && *next != '\n')) {
				snprintf(err, errlen, "/proc/stat: row %s: bad value", row);
				return -1;
			}
			t->total += v;
			if (i == 7)
				t->steal = v;
			q = next;
		}
		if (i < 4) {	/* user nice system idle: every kernel has them */
			snprintf(err, errlen, "/proc/stat: row %s: %d fields, want at least 4", row, i);
			return -1;
		}
		t->has_steal = i == 8;
		return 1;
	}
	return 0;
}

int sb_stat_read(const char *path, const int *cpus, int n, struct sb_cpu_ticks *t, char *err,
		 size_t errlen)
{
	char *text = sb_proc_slurp(path ? path : "/proc/stat", err, errlen), row[32];
	int i, j, rc = 0;

	if (!text)
		return -1;
	memset(t, 0, sizeof(*t));
	t->has_steal = true;
	for (i = 0; i < (n ? n : 1) && rc == 0; i++) {
		struct sb_cpu_ticks c;

		for (j = 0; j < i && cpus[j] != cpus[i]; j++)
			;
		if (n && j < i)
			continue;	/* counted already */
		if (n)
			snprintf(row, sizeof(row), "cpu%d", cpus[i]);
		else
			snprintf(row, sizeof(row), "cpu");
		rc = sb_stat_parse(text, row, &c, err, errlen);
		if (rc == 0) {
			snprintf(err, errlen, "/proc/stat: no row %s", row);
			rc = -1;
		} else if (rc > 0) {
			t->total += c.total;
			t->steal += c.steal;
			t->has_steal = t->has_steal && c.has_steal;
			rc = 0;
		}
	}
	free(text);
	return rc;
}

double sb_steal_pct(const struct sb_cpu_ticks *before, const struct sb_cpu_ticks *after)
{
	if (!before->has_steal || !after->has_steal || after->total <= before->total ||
	    after->steal < before->steal)
		return NAN;
	return 100.0 * (double)(after->steal - before->steal) /
	       (double)(after->total - before->total);
}
