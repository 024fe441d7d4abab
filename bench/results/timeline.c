/* timeline.c — DIR/windows.jsonl, built by the window driver ({"name",
 * "point", "interval_ns", "limit", "clock", "windows": [[start_ns, end_ns,
 * pages], ...], ...}: docs/window.md "Fidelity mode").  Each fidelity run of
 * the body hands its line (sb_timeline_add), replacing the one held; when GB
 * reports the benchmark finished, the last run's is written as runs.jsonl's
 * are: one write(2), O_APPEND, whole lines (a SIGKILL leaves at most a cut
 * last line, which readers skip).  Main thread only (bodies run there). */
#include "results/results.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int tl_fd = -1;
static char tl_path[SB_PATH];
static json_t *held;		/* the latest run's line, not yet written */

int sb_timeline_open(const char *path, char *err, size_t errlen)
{
	if (sb_pathf(tl_path, "%s", path)) {
		snprintf(err, errlen, "path too long: %s", path);
		return -1;
	}
	tl_fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
	if (tl_fd < 0) {
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

bool sb_timeline_on(void)
{
	return tl_fd >= 0;
}

int sb_timeline_add(json_t *line)
{
	json_decref(held);
	held = tl_fd >= 0 ? line : NULL;
	if (tl_fd < 0)
		json_decref(line);
	return 0;
}

int sb_timeline_flush(const char *registered)
{
	const char *name = json_string_value(json_object_get(held, "name"));
	int rc = 0;

	if (held && tl_fd >= 0 && registered && name && strcmp(name, registered) == 0 &&
	    !sb_out_failure() && (rc = sb_jsonl_write(tl_fd, held)))
		sb_out_fail(tl_path, errno);	/* stops the run; said at its end */
	json_decref(held);	/* another benchmark's (its run was dropped): never written */
	held = NULL;
	return rc;
}

int sb_timeline_close(void)
{
	struct stat sb;
	int rc = 0;

	json_decref(held);
	held = NULL;
	if (tl_fd < 0)
		return 0;
	/* no fidelity benchmark: no file */
	if (fstat(tl_fd, &sb) == 0 && sb.st_size == 0)
		unlink(tl_path);
	else if (fsync(tl_fd))
		rc = -1;
	if (close(tl_fd))
		rc = -1;
	if (rc)
		sb_out_fail(tl_path, errno);
	tl_fd = -1;
	return rc;
}
