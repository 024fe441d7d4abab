/* input.h — a file the user names, read with a bound (DESIGN.md §6): it is
 * opened only when it is a regular file of at most max bytes, so a device
 * (/dev/zero), a FIFO, a socket, a directory or a huge file is refused in
 * one line naming it, never read without end and never waited on (the open
 * does not block on a FIFO).  The results readers (report/, cmd/) and the
 * topology (machine/topo.c) read every file they are given through it.
 * what names the kind of file in the error ("results file", "topology
 * file"); err is "PATH: why", one line once the caller passes it through
 * sb_err_oneline(). */
#ifndef STRATBENCH_INPUT_H
#define STRATBENCH_INPUT_H

#include <stddef.h>
#include <stdio.h>

/* path open for reading, or NULL with err set (errno: EINVAL not a regular
 * file, EFBIG over max, else open's) */
FILE *sb_input_open_max(const char *path, const char *what, long long max, char *err,
			size_t errlen);
/* The whole file, NUL-terminated, its length in *len (malloc'd; a file that
 * grows past max while it is read is refused too); NULL with err set. */
char *sb_input_read(const char *path, const char *what, long long max, size_t *len, char *err,
		    size_t errlen);

#endif
