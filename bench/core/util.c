/* util.c — the harness's small utilities (util.h): bounded reads of the
 * files a user names, a growable array, checked paths. */
#include "core/util.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What a path is, for a refusal. */
static const char *kind_of(mode_t m)
{
	return S_ISFIFO(m) ? "a FIFO" : S_ISCHR(m) ? "a character device" :
	       S_ISBLK(m) ? "a block device" : S_ISSOCK(m) ? "a socket" :
	       S_ISDIR(m) ? "a directory" : "not a regular file";
}

FILE *sb_input_open_max(const char *path, const char *what, long long max, char *err,
			size_t errlen)
{
	/* O_NONBLOCK: opening a FIFO with no writer must not wait */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), e;
	struct stat st;
	FILE *f;

	if (fd < 0) {
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		e = errno;
		snprintf(err, errlen, "%s: %s: a %s must be a regular file", path,
			 fstat(fd, &st) ? strerror(e) : kind_of(st.st_mode), what);
		close(fd);
		errno = EINVAL;
		return NULL;
	}
	if (st.st_size > max) {
		snprintf(err, errlen, "%s: %lld bytes: over the %lld MiB a %s may hold", path,
			 (long long)st.st_size, max >> 20, what);
		close(fd);
		errno = EFBIG;
		return NULL;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	f = fdopen(fd, "r");
	if (!f) {
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
		close(fd);
	}
	return f;
}

int sb_read_all(FILE *f, long long max, char **text, size_t *len)
{
	char *buf = NULL, *more;
	size_t cap = 0, n = 0, r;

	do {
		if (n + 65536 + 1 > cap) {
			more = realloc(buf, 2 * cap + 65536 + 1);
			if (!more) {
				free(buf);
				return SB_READ_NOMEM;
			}
			buf = more;
			cap = 2 * cap + 65536 + 1;
		}
		r = fread(buf + n, 1, cap - n - 1, f);
		n += r;
		if ((long long)n > max) {	/* grew while read */
			free(buf);
			return SB_READ_OVER;
		}
	} while (r > 0);
	if (ferror(f)) {
		int e = errno;

		free(buf);
		errno = e;
		return SB_READ_ERR;
	}
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return 0;
}

char *sb_input_read(const char *path, const char *what, long long max, size_t *len, char *err,
		    size_t errlen)
{
	FILE *f = sb_input_open_max(path, what, max, err, errlen);
	char *buf = NULL;

	if (!f)
		return NULL;
	switch (sb_read_all(f, max, &buf, len)) {
	case SB_READ_NOMEM:
		snprintf(err, errlen, "%s: out of memory", path);
		break;
	case SB_READ_OVER:
		snprintf(err, errlen, "%s: over the %lld MiB a %s may hold", path, max >> 20, what);
		break;
	case SB_READ_ERR:
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
		break;
	}
	fclose(f);
	return buf;
}

int sb_grow(void *vp, int *cap, int n, size_t elem)
{
	void **v = vp;
	int c = *cap ? *cap : 8;
	void *p;

	if (n <= *cap)
		return 0;
	while (c < n)
		c *= 2;
	p = realloc(*v, (size_t)c * elem);
	if (!p)
		return -1;
	*v = p;
	*cap = c;
	return 0;
}

int sb_pathf(char *buf, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, SB_PATH, fmt, ap);
	va_end(ap);
	if (n < 0 || n >= PATH_MAX) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

bool sb_dir_has(const char *dir, const char *name)
{
	char path[SB_PATH];

	return sb_pathf(path, "%s/%s", dir, name) == 0 && access(path, F_OK) == 0;
}
