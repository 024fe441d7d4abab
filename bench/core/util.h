/* core/ — what strategies and their tests link against (sb_core): the
 * registry, the pinned team, calibrated work, the window set-up and its
 * fidelity logs, the ticker (their contracts in include/stratbench/), and
 * the harness's small utilities below.
 * uses: (nothing: libc only)
 *
 * util.h — what every room would otherwise write again:
 * - errors are one line (DESIGN.md §6): functions that fill an `err` buffer
 *   and echo user input in it pass it through sb_err_oneline();
 * - a file the user names is read with a bound: opened only when it is a
 *   regular file of at most max bytes, so a device (/dev/zero), a FIFO, a
 *   socket, a directory or a huge file is refused in one line naming it,
 *   never read without end and never waited on.  what names the kind of
 *   file in the error ("results file"); err is "PATH: why";
 * - a growable array; a path joined with its length checked. */
#ifndef STRATBENCH_UTIL_H
#define STRATBENCH_UTIL_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* path open to read, or NULL and err (errno: EINVAL not regular, EFBIG over max, else open's) */
FILE *sb_input_open_max(const char *path, const char *what, long long max, char *err,
			size_t errlen);
/* The whole file, NUL-terminated, its length in *len (malloc'd; a file that
 * grows past max while it is read is refused too); NULL with err set. */
char *sb_input_read(const char *path, const char *what, long long max, size_t *len, char *err,
		    size_t errlen);

/* The rest of f to its EOF (procfs files report size 0: only EOF ends them), NUL-terminated,
 * into *text (malloc'd), its length in *len: 0, or SB_READ_NOMEM, SB_READ_OVER (past max bytes)
 * or SB_READ_ERR (errno the read's) with nothing allocated. */
enum { SB_READ_NOMEM = -1, SB_READ_OVER = -2, SB_READ_ERR = -3 };
int sb_read_all(FILE *f, long long max, char **text, size_t *len);

/* Replaces control characters (newlines included) in err with '?'. */
static inline void sb_err_oneline(char *err)
{
	for (; *err; err++)
		if ((unsigned char)*err < 0x20 || *err == 0x7f)
			*err = '?';
}

/* Room for n elements of elem bytes in the array *vp of capacity *cap (doubled, at least 8): 0,
 * or -1 (ENOMEM) with both unchanged.  Use SB_GROW(v, cap, n) for an array v of any type. */
int sb_grow(void *vp, int *cap, int n, size_t elem);
#define SB_GROW(v, cap, n) sb_grow(&(v), &(cap), (n), sizeof(*(v)))

/* An error line that names a path: PATH_MAX and the words around it. */
#define SB_ERR_MAX (PATH_MAX + 304)

/* A path buffer: PATH_MAX, the longest path the kernel takes (its NUL included), and one byte more,
 * so a path cut to fit is still one byte too long and the kernel refuses it (ENAMETOOLONG) as it
 * would the whole one: a caller that misses sb_pathf's -1 never opens some other, shorter path.
 * sb_pathf: printf into buf (SB_PATH bytes): 0, or -1 with errno ENAMETOOLONG when the path is too
 * long for the kernel. */
#define SB_PATH (PATH_MAX + 1)
int sb_pathf(char *buf, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* DIR/NAME exists (a path too long for the kernel does not) */
bool sb_dir_has(const char *dir, const char *name);

#endif
