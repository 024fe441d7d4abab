/* runlog.c — DIR/runs.jsonl: the durable record of a sweep, one line per
 * finished benchmark ({"name": registered name, "point": its typed point
 * (point.h), "benchmarks": [...]: its repetitions and aggregates exactly as
 * Google Benchmark's JSON reporter writes them}), after one
 * {"context": {...}} line per session.  Each line is one write(2) on an
 * O_APPEND descriptor after the benchmark's CSV rows are flushed, so a
 * SIGKILL loses at most the benchmark in flight: a line that does not
 * parse (cut by the kill) is ignored and that benchmark is run again by
 * --resume.  Google Benchmark writes gbench.json itself only at the end.
 * Every write is checked (sb_write_all): the first that fails is recorded
 * (sb_out_fail) and stops the run; the file keeps its .partial name. */
#include "results/point.h"
#include "results/results.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

static int log_fd = -1;
static char log_path[SB_PATH];
static char out_failure[SB_ERR_MAX];
static void (*out_stop)(void);

void sb_out_fail_set_stop(void (*stop)(void))
{
	out_stop = stop;
}

void sb_out_fail(const char *path, int errnum)
{
	if (out_failure[0])
		return;		/* the first one is the cause */
	snprintf(out_failure, sizeof(out_failure), "cannot write %s: %s", path,
		 strerror(errnum));
	if (out_stop)
		out_stop();
}

const char *sb_out_failure(void)
{
	return out_failure[0] ? out_failure : NULL;
}

int sb_write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		if (w == 0) {
			errno = ENOSPC;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int sb_fsync_dir_of(const char *path)
{
	char *copy = strdup(path);
	int fd, rc = -1, e;

	if (!copy)
		return -1;
	fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(copy);
	if (fd < 0)
		return -1;
	/* some file systems cannot sync a directory: that is no lost data */
	rc = fsync(fd) && errno != EINVAL && errno != EROFS ? -1 : 0;
	e = errno;
	close(fd);
	errno = e;
	return rc;
}

int sb_mkdirs(const char *dir, char *err, size_t errlen)
{
	char path[SB_PATH];

	if (sb_pathf(path, "%s", dir) || !*dir) {
		snprintf(err, errlen, "bad output directory '%.1000s'", dir);
		return -1;
	}
	for (char *p = path + 1;; p++) {
		bool last = !*p;

		if (*p && *p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0777) && errno != EEXIST) {
			snprintf(err, errlen, "cannot create output directory '%.2000s': %s", path,
				 strerror(errno));
			return -1;
		}
		if (last)
			return 0;
		*p = '/';
	}
}

int sb_file_commit(const char *tmp, const char *final, char *err, size_t errlen)
{
	int fd = open(tmp, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || (fsync(fd) && errno != EINVAL)) {
		snprintf(err, errlen, "cannot write %s: %s", tmp, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	if (rename(tmp, final)) {
		snprintf(err, errlen, "cannot rename %s to %s: %s", tmp, final, strerror(errno));
		return -1;
	}
	if (sb_fsync_dir_of(final)) {
		snprintf(err, errlen, "cannot sync the directory of %s: %s", final,
			 strerror(errno));
		return -1;
	}
	return 0;
}

int sb_json_write_file(const char *path, json_t *j, size_t flags, char *err, size_t errlen)
{
	char tmp[SB_PATH], *s = json_dumps(j, flags);
	int fd = -1, rc = -1;

	if (sb_pathf(tmp, "%s.tmp", path) || !s) {
		snprintf(err, errlen, "cannot write %s: %s", path, s ? "path too long" :
			 "out of memory");
		free(s);
		return -1;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0 || sb_write_all(fd, s, strlen(s)) || sb_write_all(fd, "\n", 1) ||
	    fsync(fd)) {
		snprintf(err, errlen, "cannot write %s: %s", fd < 0 ? tmp : path, strerror(errno));
		goto out;
	}
	if (close(fd)) {
		fd = -1;
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		goto out;
	}
	fd = -1;
	rc = sb_file_commit(tmp, path, err, errlen);
out:
	if (fd >= 0)
		close(fd);
	if (rc)
		unlink(tmp);
	free(s);
	return rc;
}

FILE *sb_input_open(const char *path, char *err, size_t errlen)
{
	return sb_input_open_max(path, "results file", SB_INPUT_MAX, err, errlen);
}

int sb_jsonl_write(int fd, json_t *j)
{
	char *s = j ? json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
	size_t n;
	int rc = -1, e;

	if (!s) {
		errno = ENOMEM;
		return -1;
	}
	n = strlen(s);
	s[n] = '\n';	/* json_dumps leaves room for its NUL: replace it */
	if (fd >= 0)
		rc = sb_write_all(fd, s, n + 1);
	else
		errno = EBADF;
	e = errno;
	free(s);
	errno = e;
	return rc;
}

int sb_runlog_open(const char *path, char *err, size_t errlen)
{
	sb_pathf(log_path, "%s", path);
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

	if (log_fd < 0 || sb_out_failure()) {	/* nothing after a failed write */
		json_decref(line);
		return 0;
	}
	rc = sb_jsonl_write(log_fd, line);
	if (rc)
		sb_out_fail(log_path, errno);
	json_decref(line);
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

int sb_runlog_close(void)
{
	int fd = log_fd, rc = 0;

	log_fd = -1;		/* closed once, whatever fails */
	if (fd < 0)
		return 0;
	if (fsync(fd)) {
		sb_out_fail(log_path, errno);
		rc = -1;
	}
	if (close(fd) && !rc) {
		sb_out_fail(log_path, errno);
		rc = -1;
	}
	return rc;
}

static int read_lines(const char *path, void (*line_fn)(json_t *line, void *arg),
		      void (*fn)(const char *key, json_t *v, void *arg), void *arg, char *err,
		      size_t errlen)
{
	FILE *f = sb_input_open(path, err, errlen);
	char *line = NULL;
	size_t cap = 0, total = 0;
	ssize_t n;
	int skipped = 0;

	if (!f)
		return -1;
	/* the file may grow while it is read (a run writing it): read what
	 * the cap allows */
	while ((n = getline(&line, &cap, f)) > 0 && (total += (size_t)n) <= SB_INPUT_MAX) {
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

/* Reads a log: fn(key, value, arg) for each member of each line that
 * parses, in order; a line that does not (the tail a SIGKILL cut) is
 * skipped.  Returns the number of lines skipped, or -1 if the file cannot
 * be read. */
int sb_runlog_read(const char *path, void (*fn)(const char *key, json_t *v, void *arg),
		   void *arg)
{
	char why[SB_ERR_MAX];

	return read_lines(path, NULL, fn, arg, why, sizeof(why));
}

int sb_runlog_read_err(const char *path, void (*fn)(const char *key, json_t *v, void *arg),
		       void *arg, char *err, size_t errlen)
{
	return read_lines(path, NULL, fn, arg, err, errlen);
}

struct compact {
	int fd;
	int written, failed, err;
	void (*fn)(const char *key, json_t *v, void *arg);
	void *arg;
};

/* a whole line as it was read, then each member to the caller's fn */
static void compact_line(json_t *line, void *arg)
{
	struct compact *c = arg;
	if (sb_jsonl_write(c->fd, line) == 0)
		c->written++;
	else if (!c->failed++)
		c->err = errno;
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
	char tmp[SB_PATH];
	struct compact c = { -1, 0, 0, 0, fn, arg };
	char err[SB_ERR_MAX];
	int skipped, e;

	sb_pathf(tmp, "%s.tmp", dst);
	c.fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (c.fd < 0)
		return -1;
	skipped = read_lines(src, compact_line, compact_member, &c, err, sizeof(err));
	e = skipped < 0 ? errno : c.err;
	if (!c.failed && skipped >= 0 && fsync(c.fd))
		c.failed = 1, e = errno;
	if (close(c.fd) && !c.failed && skipped >= 0)
		c.failed = 1, e = errno;
	if (!c.failed && skipped >= 0 && sb_file_commit(tmp, dst, err, sizeof(err)))
		c.failed = 1, e = errno;
	if (c.failed || skipped < 0) {
		unlink(tmp);
		errno = e;
		return -1;
	}
	return skipped;
}
