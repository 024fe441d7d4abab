/* progress.c — `[12/48] window/trylock/threads:8/place:scatter … ETA 3m10s` on a
 * terminal's stderr (not --quiet), rewritten in place and cleared before GB prints
 * a result, so the two never mix.  It counts runs (benchmarks × repetitions). */
#include "console/console.h"

#include <string.h>
#include <time.h>
#include <unistd.h>

static struct {
	bool on;
	int total, done;
	double t0;
	char last[256];
	bool shown;
} pg;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

void sb_progress_format(char *buf, size_t n, int done, int total, const char *name,
			double elapsed_s)
{
	char eta[32] = "";

	if (done > 0 && total > done) {
		long s = (long)(elapsed_s / done * (total - done) + 0.5);

		if (s >= 3600)
			snprintf(eta, sizeof(eta), " ETA %ldh%02ldm", s / 3600, s / 60 % 60);
		else if (s >= 60)
			snprintf(eta, sizeof(eta), " ETA %ldm%02lds", s / 60, s % 60);
		else
			snprintf(eta, sizeof(eta), " ETA %lds", s);
	}
	snprintf(buf, n, "[%d/%d] %s …%s", done + 1 > total ? total : done + 1, total, name, eta);
}

void sb_progress_clear(void *arg)
{
	(void)arg;
	if (pg.shown)
		fputs("\r\033[K", stderr);
	pg.shown = false;
}

void sb_progress_on_start(const char *name, void *arg)
{
	char line[512];

	(void)arg;
	if (pg.shown && strcmp(name, pg.last) == 0)
		return;		/* the same repetition, calibrating */
	snprintf(pg.last, sizeof(pg.last), "%s", name);
	sb_progress_format(line, sizeof(line), pg.done, pg.total, name, now_s() - pg.t0);
	fprintf(stderr, "\r\033[K%s", line);
	fflush(stderr);
	pg.shown = true;
}

bool sb_progress_begin(int total, bool quiet)
{
	pg.on = !quiet && isatty(STDERR_FILENO) && total > 0;
	pg.total = total;
	pg.done = 0;
	pg.t0 = now_s();
	return pg.on;
}

void sb_progress_group(int nruns)
{
	pg.done += nruns;
	pg.last[0] = '\0';	/* the next repetition shows, even of the same name */
}

void sb_progress_end(void)
{
	if (pg.on)
		sb_progress_clear(NULL);
}
