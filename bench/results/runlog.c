/* runlog.c — DIR/runs.jsonl, the durable record of a sweep: a {"context"}
 * line per session, a line per finished benchmark ({"name" as registered,
 * "point" (point.h), "benchmarks": as GB's JSON reporter writes them}).  Each
 * line is one write(2) on an O_APPEND fd after the benchmark's CSV rows are
 * flushed, so a SIGKILL loses at most the benchmark in flight (its cut line
 * is skipped, --resume runs it again); GB writes gbench.json only at the end.
 * The first failed write is recorded (sb_out_fail) and stops the run; the
 * file keeps its .partial name. */
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
	int fd, rc = -1;

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
		if (fd >= 0)
			close(fd);
	} else if (close(fd)) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
	} else {
		rc = sb_file_commit(tmp, path, err, errlen);
	}
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
	int rc, e;

	if (!s) {
		errno = ENOMEM;
		return -1;
	}
	n = strlen(s);
	s[n] = '\n';	/* json_dumps leaves room for its NUL: replace it */
	rc = sb_write_all(fd, s, n + 1);
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
	int rc = 0;

	/* nothing after a failed write */
	if (log_fd >= 0 && !sb_out_failure() && (rc = sb_jsonl_write(log_fd, line)))
		sb_out_fail(log_path, errno);
	json_decref(line);
	return rc;
}

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
	rc = fsync(fd) ? errno : 0;
	if (close(fd) && !rc)
		rc = errno;
	if (rc)
		sb_out_fail(log_path, rc);
	return rc ? -1 : 0;
}

/* Each line that parses (with keep: if it takes its "name", else dropped):
 * to fd as read when open, each member to fn. */
struct lines {
	bool (*keep)(const char *name, void *arg);
	void (*fn)(const char *key, json_t *v, void *arg);
	void *arg;
	int fd, dropped, failed, err;
};

static void take_line(json_t *line, struct lines *l)
{
	const char *name = json_string_value(json_object_get(line, "name"));

	if (l->keep && (!name || !l->keep(name, l->arg))) {
		l->dropped++;
		return;
	}
	if (l->fd >= 0 && sb_jsonl_write(l->fd, line) && !l->failed++)
		l->err = errno;
	/* jansson's iterator, not json_object_foreach: cppcheck cannot expand it */
	for (void *it = json_object_iter(line); l->fn && it; it = json_object_iter_next(line, it))
		l->fn(json_object_iter_key(it), json_object_iter_value(it), l->arg);
}

static int read_lines(const char *path, struct lines *l, char *err, size_t errlen)
{
	FILE *f = sb_input_open(path, err, errlen);
	char *line = NULL;
	size_t cap = 0, total = 0;
	ssize_t n;
	int skipped = 0;

	if (!f)
		return -1;
	/* it may grow while read (a run writing it): what the cap allows */
	while ((n = getline(&line, &cap, f)) > 0 && (total += (size_t)n) <= SB_INPUT_MAX) {
		json_t *j = line[n - 1] == '\n' ? json_loads(line, 0, NULL) : NULL;

		if (json_is_object(j) && json_object_size(j))	/* NULL is no object */
			take_line(j, l);
		else
			skipped++;
		json_decref(j);
	}
	free(line);
	fclose(f);
	return skipped;
}

int sb_runlog_read(const char *path, void (*fn)(const char *key, json_t *v, void *arg),
		   void *arg, char *err, size_t errlen)
{
	struct lines l = { NULL, fn, arg, -1, 0, 0, 0 };

	return read_lines(path, &l, err, errlen);
}

int sb_runlog_compact(const char *src, const char *dst, bool (*keep)(const char *name, void *arg),
		      void (*fn)(const char *key, json_t *v, void *arg), void *arg)
{
	char tmp[SB_PATH], err[SB_ERR_MAX];
	struct lines l = { keep, fn, arg, -1, 0, 0, 0 };
	int skipped;

	sb_pathf(tmp, "%s.tmp", dst);
	l.fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (l.fd < 0)
		return -1;
	skipped = read_lines(src, &l, err, sizeof(err));
	if (skipped < 0 || (!l.failed && fsync(l.fd)))
		l.failed = 1, l.err = errno;
	if (close(l.fd) && !l.failed)
		l.failed = 1, l.err = errno;
	if (!l.failed && sb_file_commit(tmp, dst, err, sizeof(err)))
		l.failed = 1, l.err = errno;
	if (l.failed) {
		unlink(tmp);
		errno = l.err;
		return -1;
	}
	return skipped + l.dropped;
}
