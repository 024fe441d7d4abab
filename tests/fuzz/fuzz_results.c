/* fuzz_results — the result-file reader of `stratbench compare` and
 * `merge`: Google Benchmark JSON (with its NaN/Infinity, rewritten before
 * jansson parses it), our runs.jsonl log, and the schema checks on top.
 * Any input either loads or is refused with one line; nothing crashes,
 * leaks or reads out of bounds. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "report/report.h"

static void count_line(const char *key, json_t *v, void *arg)
{
	(void)key, (void)v;
	(*(int *)arg)++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	char path[64], err[512], *text;
	struct sb_results r;
	json_error_t je;
	json_t *j;
	int lines = 0;

	if (fd < 0 && (fd = memfd_create("fuzz_results", 0)) < 0)
		abort();
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);

	text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	j = sb_json_loads_gb(text, &je);
	json_decref(j);
	free(text);

	memset(&r, 0, sizeof(r));
	err[0] = '\0';
	if (sb_results_load(path, "ops_per_s", &r, err, sizeof(err)) == 0)
		sb_results_free(&r);
	else if (!err[0] || strchr(err, '\n'))
		abort();	/* a refusal is one line */
	(void)sb_runlog_read(path, count_line, &lines);
	return 0;
}
