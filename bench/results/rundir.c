/* rundir.c — rundir.h's DIR.  Every write is checked: a file gets its final
 * name only once complete and synced (NAME.partial, fsync, rename, fsync DIR). */
#include "results/results.h"
#include "results/rundir.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* what a run writes in DIR: its final names, then the partials */
static const char *const out_files[] = {
	"gbench.json", "results.csv", "runs.jsonl", "windows.jsonl", "gbench.json.partial",
	"results.csv.partial", "runs.jsonl.partial", "windows.jsonl.partial", "run.json", NULL,
};

/* -1 (ENAMETOOLONG): a path the kernel would refuse */
static int path_of(char *buf, const char *dir, const char *name)
{
	return sb_pathf(buf, "%s/%s", dir, name);
}

/* DIR/NAME.partial to DIR/NAME; none is no error (no fidelity: no windows.jsonl) */
static int commit_partial(const char *dir, const char *name, char *err, size_t errlen)
{
	char from[SB_PATH], to[SB_PATH];

	path_of(to, dir, name);
	if (sb_pathf(from, "%s.partial", to) == 0 && access(from, F_OK) && errno == ENOENT)
		return 0;
	return sb_file_commit(from, to, err, errlen);
}

void sb_rundir_remove(const char *dir, const char *name)
{
	char p[SB_PATH];

	if (path_of(p, dir, name) == 0 && unlink(p) && errno != ENOENT)
		fprintf(stderr, "stratbench: cannot remove %s: %s\n", p, strerror(errno));
}

void sb_rundir_clear(const char *dir)
{
	for (const char *const *f = out_files + 4; *f; f++)
		sb_rundir_remove(dir, *f);
	sb_rundir_remove(dir, ".lock");
}

/* what sb_rundir_prepare created, outermost first (nothing to run: removed) */
static char *created[64];
static int ncreated;

void sb_rundir_remove_created(void)
{
	while (ncreated > 0) {
		rmdir(created[--ncreated]);
		free(created[ncreated]);
	}
}

void sb_rundir_forget_created(void)
{
	for (int i = 0; i < ncreated; i++)
		free(created[i]);
	ncreated = 0;
}

/* fd (DIR/.lock) locked by a live process, its pid in pid (a run or resume) */
static bool lock_held(int fd, char *pid, size_t n)
{
	int k;

	if (flock(fd, LOCK_SH | LOCK_NB) == 0) {
		flock(fd, LOCK_UN);
		return false;
	}
	/* the holder writes its pid just after it took the lock: until
	 * then the file is empty or names a dead one (a killed run's) */
	for (int tries = 0; tries < 100; tries++) {
		k = (int)pread(fd, pid, n - 1, 0);
		pid[k > 0 ? k : 0] = '\0';
		pid[strcspn(pid, "\n")] = '\0';
		if (*pid && (kill((pid_t)atol(pid), 0) == 0 || errno == EPERM))
			return true;
		usleep(10000);
	}
	snprintf(pid, n, "?");
	return true;
}

/* mkdir -p path; 0, or -1 with errno and path cut at the one that failed;
 * record: each directory made is kept for sb_rundir_remove_created */
static int mkdirs(char *path, bool record)
{
	for (char *p = path + 1;; p++) {
		bool last = !*p;

		if (*p && *p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0777) == 0) {
			if (record && ncreated < 64)
				created[ncreated++] = strdup(path);
		} else if (errno != EEXIST) {
			return -1;
		}
		if (last)
			return 0;
		*p = '/';
	}
}

int sb_mkdirs(const char *dir, char *err, size_t errlen)
{
	char path[SB_PATH];

	if (sb_pathf(path, "%s", dir) || !*dir) {
		snprintf(err, errlen, "bad output directory '%.1000s'", dir);
		return -1;
	}
	if (mkdirs(path, false)) {
		snprintf(err, errlen, "cannot create output directory '%.2000s': %s", path,
			 strerror(errno));
		return -1;
	}
	return 0;
}

/* DIR's first file of a run, said as in use (a live writer) or as results */
static int holds_results(const char *dir, char *err, size_t errlen)
{
	char path[SB_PATH], pid[32];
	int fd;

	for (const char *const *f = out_files; *f; f++) {
		if (!sb_dir_has(dir, *f))
			continue;
		path_of(path, dir, ".lock");
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd >= 0 && lock_held(fd, pid, sizeof(pid)))
			snprintf(err, errlen, "'%s' is in use: stratbench pid %s is writing it "
				 "(a run or --resume holds %s); choose a new --out", dir, pid, path);
		else
			snprintf(err, errlen, "'%s' already holds results (%s): choose a new --out, "
				 "or --resume=%s to finish an interrupted run", dir, *f, dir);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return 0;
}

int sb_rundir_prepare(const char *dir, char *err, size_t errlen)
{
	char path[SB_PATH];
	struct stat sb;

	if (sb_pathf(path, "%s", dir) || !*dir) {
		snprintf(err, errlen, "bad output directory '%s'", dir);
		return -1;
	}
	if (mkdirs(path, true)) {
		snprintf(err, errlen, "cannot create output directory '%s': %s", path,
			 strerror(errno));
		return -1;
	}
	if (stat(path, &sb) || !S_ISDIR(sb.st_mode)) {
		snprintf(err, errlen, "output '%s' is not a directory", dir);
		return -1;
	}
	if (access(path, W_OK)) {
		snprintf(err, errlen, "cannot write to output directory '%s': %s", dir,
			 strerror(errno));
		return -1;
	}
	return holds_results(dir, err, errlen);
}

/* Readers take DIR/.lock shared (results_read.c); it holds the pid. */
int sb_rundir_lock(const char *dir, char *err, size_t errlen)
{
	char path[SB_PATH], pid[32];
	int fd = -1, n;

	if (path_of(path, dir, ".lock") == 0)
		fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno));
		return -1;
	}
	/* a reader's shared lock is only tried and dropped: wait that out, never a writer's */
	for (int tries = 0; flock(fd, LOCK_EX | LOCK_NB); tries++) {
		int e = errno;

		if (e == EWOULDBLOCK && !lock_held(fd, pid, sizeof(pid)) && tries < 100) {
			usleep(10000);
			continue;
		}
		if (e == EWOULDBLOCK)
			snprintf(err, errlen, "'%s' is in use: stratbench pid %s is writing it "
				 "(a run or --resume holds %s); wait for it to end", dir,
				 tries < 100 ? pid : "?", path);
		else
			snprintf(err, errlen, "cannot lock %s: %s", path, strerror(e));
		close(fd);
		return -1;
	}
	n = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) || pwrite(fd, pid, (size_t)n, 0) != n) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

/* --- what --resume finds done ------------------------------------------- */

bool sb_done_has(const char *name, void *arg)
{
	const struct sb_done *d = arg;

	for (int i = 0; i < d->n; i++)
		if (strcmp(d->names[i], name) == 0)
			return true;
	return false;
}

static void done_line(const char *key, json_t *v, void *arg)
{
	struct sb_done *d = arg;

	if (strcmp(key, "context") == 0 && json_is_object(v)) {
		json_decref(d->context);
		d->context = json_incref(v);
	} else if (strcmp(key, "name") == 0 && json_is_string(v)) {	/* as registered */
		if (SB_GROW(d->names, d->cap, d->n + 1) == 0)
			d->names[d->n++] = strdup(json_string_value(v));
	} else if (strcmp(key, "benchmarks") == 0 && json_is_array(v)) {
		json_array_extend(d->benchmarks, v);
	}
}

void sb_done_free(struct sb_done *d)
{
	for (int i = 0; i < d->n; i++)
		free(d->names[i]);
	free(d->names);
	json_decref(d->context);
	json_decref(d->benchmarks);
	memset(d, 0, sizeof(*d));
}

/* in's rows of finished benchmarks to fd: 0, errno (fd failed), -2 with err
 * naming the line that is not results.csv's; *rows: the lines read */
static int copy_done_rows(FILE *in, const char *src, int fd, const struct sb_done *d,
			  int *rows, char *err, size_t errlen)
{
	char *line = NULL;
	size_t cap = 0, total = 0;
	ssize_t n;
	int lineno = 0, rc = 0;

	while (!rc && (n = getline(&line, &cap, in)) > 0 && (total += (size_t)n) <= SB_INPUT_MAX) {
		char *comma = strchr(line, ','), why[128];
		bool keep = false;

		lineno++;
		if (line[n - 1] != '\n')
			continue;	/* the last, cut by a kill */
		if ((*rows)++ == 0) {
			keep = sb_csv_header_ok(line);
			if (!keep) {
				snprintf(err, errlen, "%s:1: not results.csv's header", src);
				rc = -2;
			}
		} else if (sb_csv_check_row(line, why, sizeof(why)) || !comma) {
			snprintf(err, errlen, "%s:%d: not a results.csv row (%s)", src, lineno,
				 comma ? why : "no field");
			rc = -2;
		} else {
			/* the run name, a finished benchmark's (point.h's rule) */
			*comma = '\0';
			for (int i = 0; i < d->n && !keep; i++)
				keep = sb_name_belongs(line, d->names[i]);
			*comma = ',';
		}
		if (keep && sb_write_all(fd, line, (size_t)n))
			rc = errno;
	}
	free(line);
	return rc;
}

/* src (results.csv or its partial) to DIR/results.csv.partial, atomically
 * and synced: -2 (err names the line) src is not a results.csv, -1 unwritten */
static int keep_done_rows(const char *src, const char *dir, const struct sb_done *d, char *err,
			  size_t errlen)
{
	char dst[SB_PATH], tmp[SB_PATH];
	FILE *in = sb_input_open(src, err, errlen);
	int rows = 0, fd = -1, e = 0, rc;

	if (!in)
		return -2;
	if (path_of(dst, dir, "results.csv.partial") == 0 && sb_pathf(tmp, "%s.tmp", dst) == 0)
		fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0) {
		snprintf(err, errlen, "cannot rewrite %s: %s", src, strerror(errno));
		fclose(in);
		return -1;
	}
	rc = copy_done_rows(in, src, fd, d, &rows, err, errlen);
	fclose(in);
	e = rc > 0 ? rc : 0;
	if (!rc && fsync(fd))
		e = errno;
	if (close(fd) && !e)
		e = errno;
	if (rc != -2 && (e || rows == 0))
		snprintf(err, errlen, "cannot rewrite %s: %s", src, e ? strerror(e) : "empty");
	else if (rc != -2 && sb_file_commit(tmp, dst, err, errlen) == 0)
		return 0;
	unlink(tmp);
	return rc == -2 ? -2 : -1;	/* -2: not a results.csv, a usage error */
}

/* src: DIR/NAME.partial if it exists (its path in partial), else DIR/NAME */
static void resume_source(const char *dir, const char *name, char *src, char *partial)
{
	path_of(src, dir, name);
	sb_pathf(partial, "%s.partial", src);
	if (access(partial, F_OK) == 0)
		strcpy(src, partial);
}

/* DIR/NAME's whole lines (keep: finished ones) to fn and DIR/NAME.partial */
static int resume_jsonl(const char *dir, const char *name, bool (*keep)(const char *, void *),
			void (*fn)(const char *, json_t *, void *), struct sb_done *d, char *err,
			size_t errlen)
{
	char src[SB_PATH], partial[SB_PATH], why[PATH_MAX + 256];
	FILE *f;
	int dropped;

	resume_source(dir, name, src, partial);
	if (access(src, F_OK) && errno == ENOENT)
		return 0;	/* killed before any benchmark finished */
	f = sb_input_open(src, why, sizeof(why));	/* results.h's bounds */
	if (!f) {
		snprintf(err, errlen, "cannot resume '%s': %s", dir, why);
		return -2;
	}
	fclose(f);
	dropped = sb_runlog_compact(src, partial, keep, fn, d);
	if (dropped < 0) {
		snprintf(err, errlen, "cannot resume '%s': cannot rewrite %s: %s", dir, src,
			 strerror(errno));
		return -1;
	}
	if (dropped && !keep)
		fprintf(stderr, "stratbench: resume: %d unfinished line%s of %s dropped (%s "
			"again)\n", dropped, dropped > 1 ? "s" : "", src,
			dropped > 1 ? "their benchmarks run" : "its benchmark runs");
	if (strcmp(src, partial))
		unlink(src);
	return 0;
}

int sb_rundir_resume(const char *dir, struct sb_done *d, char *err, size_t errlen)
{
	char src[SB_PATH], partial[SB_PATH], path[SB_PATH];
	int rc;

	d->benchmarks = json_array();
	if ((rc = resume_jsonl(dir, "runs.jsonl", NULL, done_line, d, err, errlen)))
		return rc;
	resume_source(dir, "results.csv", src, partial);
	if (access(src, F_OK) == 0) {
		if ((rc = keep_done_rows(src, dir, d, err, errlen)))
			return rc;
		if (strcmp(src, partial))
			unlink(src);
	}
	/* windows.jsonl: finished benchmarks' lines (written before runs.jsonl's:
	 * a kill between leaves one whose benchmark runs again, not doubled) */
	if ((rc = resume_jsonl(dir, "windows.jsonl", sb_done_has, NULL, d, err, errlen)))
		return rc;
	path_of(path, dir, "gbench.json.partial");
	unlink(path);	/* GB's, cut short: runs.jsonl has its finished benchmarks */
	/* and the last gbench.json: runs.jsonl.partial now holds more, and a
	 * resume killed must not leave it stale (the next writes it from the log) */
	path_of(path, dir, "gbench.json");
	if (unlink(path) && errno != ENOENT) {
		snprintf(err, errlen, "cannot resume '%s': cannot remove %s: %s", dir, path,
			 strerror(errno));
		return -1;
	}
	sb_fsync_dir_of(path);
	return 0;
}

/* gbench.json from runs.jsonl.partial: latest context, finished benchmarks */
static int write_json_from_log(const char *dir, char *err, size_t errlen)
{
	struct sb_done all = { 0 };
	char path[SB_PATH];
	json_t *j = json_object();
	int rc = -1;

	all.benchmarks = json_array();
	path_of(path, dir, "runs.jsonl.partial");
	if (sb_runlog_read(path, done_line, &all, err, errlen) < 0) {
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
	} else {
		path_of(path, dir, "gbench.json");
		json_object_set_new(j, "context", all.context ? json_incref(all.context) :
				    json_object());
		json_object_set(j, "benchmarks", all.benchmarks);
		rc = sb_json_write_file(path, j, JSON_INDENT(2) | JSON_PRESERVE_ORDER, err, errlen);
	}
	json_decref(j);
	sb_done_free(&all);
	return rc;
}

int sb_rundir_finish(const char *dir, bool resume, char *err, size_t errlen)
{
	if (commit_partial(dir, "results.csv", err, errlen))
		return -1;
	if (resume) {
		if (write_json_from_log(dir, err, errlen))
			return -1;
		sb_rundir_remove(dir, "gbench.json.partial");
	} else if (commit_partial(dir, "gbench.json", err, errlen)) {
		return -1;
	}
	if (commit_partial(dir, "windows.jsonl", err, errlen) ||
	    commit_partial(dir, "runs.jsonl", err, errlen))
		return -1;
	return 0;
}
