/* fmt.c — values, p-values and results paths, shown alike by every reader */
#include "stats/stats.h"

#include "core/util.h"

#include <libgen.h>
#include <limits.h>
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

void sb_fmt_g(char *buf, size_t n, double v, int digits)
{
	if (isnan(v))
		snprintf(buf, n, "n/a");
	else
		snprintf(buf, n, "%.*g", digits, v);
}

/* A known difference, kept until it is decided (outputs stay as they
 * were): compare and its HTML page show p(U) to 4 digits, the summary to 3. */
void sb_fmt_p(char *buf, size_t n, double p, int digits)
{
	sb_fmt_g(buf, n, p, digits);
	if (p < 0.05)
		snprintf(buf + strlen(buf), n - strlen(buf), " *");
}

void sb_results_base(const char *path, char *buf, size_t n)
{
	char copy[SB_PATH], *b, *dot;

	snprintf(copy, sizeof(copy), "%s", path);
	for (size_t len = strlen(copy); len > 1 && copy[len - 1] == '/'; len--)
		copy[len - 1] = '\0';
	b = basename(copy);
	dot = strrchr(b, '.');
	if (dot && !strcmp(dot, ".json"))
		*dot = '\0';
	snprintf(buf, n, "%s", b);
}
