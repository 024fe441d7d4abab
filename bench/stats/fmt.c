/* fmt.c — how a value and a results path are shown, the same in compare's
 * tables, its figure and its HTML page. */
#include "stats/stats.h"

#include <libgen.h>
#include <math.h>
#include <string.h>

void sb_fmt_value(char *buf, size_t n, double v)
{
	if (isnan(v))
		snprintf(buf, n, "n/a");
	else if (fabs(v) >= 1e6 && fabs(v) < 1e18)
		snprintf(buf, n, "%.0f", v);	/* large values in full, as the seed */
	else
		snprintf(buf, n, "%.6g", v);
}

void sb_results_base(const char *path, char *buf, size_t n)
{
	char copy[4200], *b, *dot;

	snprintf(copy, sizeof(copy), "%s", path);
	for (size_t len = strlen(copy); len > 1 && copy[len - 1] == '/'; len--)
		copy[len - 1] = '\0';
	b = basename(copy);
	dot = strrchr(b, '.');
	if (dot && !strcmp(dot, ".json"))
		*dot = '\0';
	snprintf(buf, n, "%s", b);
}
