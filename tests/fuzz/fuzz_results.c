/* fuzz_results — the result-file readers of `stratbench compare`, `merge`,
 * `plot` and `run --resume`: Google Benchmark JSON (with its NaN/Infinity,
 * rewritten before jansson parses it), our runs.jsonl log (as a file and as
 * a results directory's runs.jsonl.partial), and results.csv's header and
 * row checks (each line of the input).  Any input either loads or is
 * refused with one line; nothing crashes, leaks or reads out of bounds. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "results/results.h"

static void count_line(const char *key, json_t *v, void *arg)
{
	(void)key, (void)v;
	(*(int *)arg)++;
}

/* every line of text as a results.csv header and row: a refusal is one line */
static void csv_lines(char *text)
{
	char why[128];

	for (char *line = text, *nl; line && *line; line = nl ? nl + 1 : NULL) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		(void)sb_csv_header_ok(line);
		why[0] = '\0';
		if (sb_csv_check_row(line, why, sizeof(why)) && (!why[0] || strchr(why, '\n')))
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char dir[64];
	char path[64], err[4400], *text;
	struct sb_results r;
	json_error_t je;
	json_t *j;
	int lines = 0;

	if (fd < 0 && (fd = memfd_create("fuzz_results", 0)) < 0)
		abort();
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (!dir[0]) {	/* a results directory whose log is the input */
		char link[128];

		snprintf(dir, sizeof(dir), "/tmp/fuzz_results.%d", (int)getpid());
		snprintf(link, sizeof(link), "%s/runs.jsonl.partial", dir);
		if ((mkdir(dir, 0700) && errno != EEXIST) || (symlink(path, link) && errno != EEXIST))
			abort();
	}

	text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	j = sb_json_loads_gb(text, &je);
	json_decref(j);
	csv_lines(text);
	free(text);

	memset(&r, 0, sizeof(r));
	err[0] = '\0';
	if (sb_results_load(path, "ops_per_s", &r, err, sizeof(err)) == 0)
		sb_results_free(&r);
	else if (!err[0] || strchr(err, '\n'))
		abort();	/* a refusal is one line */
	(void)sb_runlog_read(path, count_line, &lines, err, sizeof(err));
	memset(&r, 0, sizeof(r));
	err[0] = '\0';
	if (sb_results_load(dir, "ops_per_s", &r, err, sizeof(err)) == 0)
		sb_results_free(&r);
	else if (!err[0] || strchr(err, '\n'))
		abort();
	return 0;
}
