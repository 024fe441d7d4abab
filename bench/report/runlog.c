/* runlog.c — DIR/runs.jsonl: the durable record of a sweep, one line per
 * finished benchmark ({"name": registered name, "point": its typed point
 * (point.h), "benchmarks": [...]: its repetitions and aggregates exactly as
 * Google Benchmark's JSON reporter writes them}), after one
 * {"context": {...}} line per session.  Each line is one write(2) on an
 * O_APPEND descriptor after the benchmark's CSV rows are flushed, so a
 * SIGKILL loses at most the benchmark in flight: a line that does not
 * parse (cut by the kill) is ignored and that benchmark is run again by
 * --resume.  Google Benchmark writes gbench.json itself only at the end. */
#include "report/point.h"
#include "report/report.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

static int log_fd = -1;

int sb_jsonl_write(int fd, json_t *j)
{
	char *s = j ? json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
	size_t n;
	int rc = -1;

	if (!s)
		return -1;
	n = strlen(s);
	s[n] = '\n';	/* json_dumps leaves room for its NUL: replace it */
	if (fd >= 0 && write(fd, s, n + 1) == (ssize_t)(n + 1))
		rc = 0;
	free(s);
	return rc;
}

static int write_line(json_t *j)
{
	return sb_jsonl_write(log_fd, j);
}

int sb_runlog_open(const char *path, char *err, size_t errlen)
{
	log_fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
	if (log_fd < 0) {
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

static int add_line(json_t *line)
{
	int rc;

	if (log_fd < 0) {
		json_decref(line);
		return 0;
	}
	rc = write_line(line);
	json_decref(line);
	if (rc)
		fprintf(stderr, "stratbench: runs.jsonl: write failed: %s\n", strerror(errno));
	return rc;
}

/* {key: v} as one line; takes the reference to v. */
int sb_runlog_add(const char *key, json_t *v)
{
	json_t *line;

	if (!v)
		return 0;
	line = json_object();
	json_object_set_new(line, key, v);
	return add_line(line);
}

int sb_runlog_add_bench(const char *registered, json_t *benchmarks)
{
	const struct sb_point_fields *f = registered ? sb_points_find(registered) : NULL;
	json_t *line;

	if (!benchmarks)
		return 0;
	line = json_object();
	if (registered)
		json_object_set_new(line, "name", json_string(registered));
	if (f)
		json_object_set_new(line, "point", sb_point_to_json(f));
	json_object_set_new(line, "benchmarks", benchmarks);
	return add_line(line);
}

void sb_runlog_close(void)
{
	if (log_fd >= 0)
		close(log_fd);
	log_fd = -1;
}

static int read_lines(const char *path, void (*line_fn)(json_t *line, void *arg),
		      void (*fn)(const char *key, json_t *v, void *arg), void *arg);

/* Reads a log: fn(key, value, arg) for each member of each line that
 * parses, in order; a line that does not (the tail a SIGKILL cut) is
 * skipped.  Returns the number of lines skipped, or -1 if the file cannot
 * be read. */
int sb_runlog_read(const char *path, void (*fn)(const char *key, json_t *v, void *arg),
		   void *arg)
{
	return read_lines(path, NULL, fn, arg);
}

static int read_lines(const char *path, void (*line_fn)(json_t *line, void *arg),
		      void (*fn)(const char *key, json_t *v, void *arg), void *arg)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int skipped = 0;

	if (!f)
		return -1;
	while ((n = getline(&line, &cap, f)) > 0) {
		json_t *j = line[n - 1] == '\n' ? json_loads(line, 0, NULL) : NULL;
		const char *key;
		json_t *v;

		if (!j || !json_is_object(j) || !json_object_size(j)) {
			skipped++;
			json_decref(j);
			continue;
		}
		if (line_fn)
			line_fn(j, arg);
		for (void *it = json_object_iter(j); it; it = json_object_iter_next(j, it)) {
			key = json_object_iter_key(it);
			v = json_object_iter_value(it);
			fn(key, v, arg);
		}
		json_decref(j);
	}
	free(line);
	fclose(f);
	return skipped;
}

struct compact {
	int fd;
	int written;
	void (*fn)(const char *key, json_t *v, void *arg);
	void *arg;
};

/* a whole line as it was read, then each member to the caller's fn */
static void compact_line(json_t *line, void *arg)
{
	struct compact *c = arg;
	int saved = log_fd;

	log_fd = c->fd;
	if (write_line(line) == 0)
		c->written++;
	log_fd = saved;
}

static void compact_member(const char *key, json_t *v, void *arg)
{
	struct compact *c = arg;

	if (c->fn)
		c->fn(key, v, c->arg);
}

int sb_runlog_compact(const char *src, const char *dst,
		      void (*fn)(const char *key, json_t *v, void *arg), void *arg)
{
	char tmp[4300];
	struct compact c = { -1, 0, fn, arg };
	int skipped;

	snprintf(tmp, sizeof(tmp), "%s.tmp", dst);
	c.fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (c.fd < 0)
		return -1;
	skipped = read_lines(src, compact_line, compact_member, &c);
	if (close(c.fd) || skipped < 0 || rename(tmp, dst)) {
		unlink(tmp);
		return -1;
	}
	return skipped;
}
