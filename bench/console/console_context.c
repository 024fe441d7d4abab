/* console_context.c — the context lines: machine, quietness, a settings warning,
 * unavailable counters, the results' place; from the JSON context's whole sb_* keys
 * (docs/results.md), each cut to SB_CONSOLE_WIDTH with an ellipsis. */
#include "console/console.h"
#include "results/settings.h"

#include <stdlib.h>
#include <string.h>

#include "machine/counters.h"

static const struct sb_counters_spec *spec;	/* the run's --counters */

void sb_console_context_counters(const struct sb_counters_spec *s) { spec = s; }

void sb_console_fit(char *s, size_t width)
{
	if (strlen(s) <= width || width < 4)
		return;
	strcpy(s + width - 3, "...");
}

static const char *ctx(json_t *c, const char *key)
{
	const char *v = json_string_value(json_object_get(c, key));

	return v ? v : "?";
}

/* a setting's value, "n/a" when the context says it is unavailable */
static const char *setting(json_t *c, const char *key)
{
	const char *v = ctx(c, key);

	return strncmp(v, "unavailable", 11) ? v : "n/a";
}

static void put(FILE *f, char *line)
{
	sb_console_fit(line, SB_CONSOLE_WIDTH);
	fprintf(f, "%s\n", line);
}

static void machine_line(FILE *f, json_t *c)
{
	char line[1024];

	snprintf(line, sizeof(line), "machine: %s, %s; %s PUs, %s cores, %s package(s), "
		 "%s NUMA node(s); Linux %s %s", ctx(c, "sb_host"),
		 ctx(c, "sb_cpu_model"), ctx(c, "sb_pus"), ctx(c, "sb_cores"),
		 ctx(c, "sb_packages"), ctx(c, "sb_numa_nodes"), ctx(c, "sb_kernel"),
		 ctx(c, "sb_arch"));
	put(f, line);
}

/* load, steal and busy CPUs by quiet.c (load > 0.5, a CPU over half busy), bad
 * settings; steal here, not on the machine line, which a long CPU model fills */
static void quiet_line(FILE *f, json_t *c)
{
	const char *load = ctx(c, "sb_loadavg"), *busy = ctx(c, "sb_busy_cpus");
	const char *list = strchr(busy, ':');	/* "2: 0,1" */
	char line[1024], ld[32] = "n/a", b[300] = "no busy CPU";
	double l = -1;
	int nbusy = atoi(busy);
	bool vm = !strncmp(ctx(c, "sb_setting_virtual_machine"), "yes", 3);

	if (strncmp(load, "unavailable", 11) && *load != '?') {
		l = strtod(load, NULL);
		snprintf(ld, sizeof(ld), "%.2f", l);
	}
	if (nbusy)
		snprintf(b, sizeof(b), "%d CPU%s busy before the run (%s)", nbusy,
			 nbusy > 1 ? "s" : "", list ? list + 1 + strspn(list + 1, " ") : "?");
	snprintf(line, sizeof(line), "quiet: %s; load average %s; steal %s; %s; governor %s, "
		 "boost %s, numa_balancing %s%s", l > 0.5 || nbusy ? "NO" : "yes", ld,
		 setting(c, "sb_steal"), b,
		 setting(c, "sb_setting_governor"),
		 setting(c, "sb_setting_boost"), setting(c, "sb_setting_numa_balancing"),
		 vm ? "; a VM" : "");
	put(f, line);
}

/* what settings.c would warn of at the first benchmark, now, once */
static void warning_line(FILE *f)
{
	char w[1024], line[1100];

	if (!sb_settings_take_warnings(w, sizeof(w)))
		return;
	snprintf(line, sizeof(line), "warning: %s", w);
	put(f, line);
}

/* "counters: 12 of 30 unavailable here (cycles, ...); why: `stratbench counters`" */
static void counters_line(FILE *f)
{
	static const char tail[] = "; why: `stratbench counters`";
	char line[4096], names[4096] = "";
	int n = sb_counters_count(spec), nun = 0;
	size_t len = 0, room;

	for (int i = 0; i < n; i++)
		if (sb_counters_why(spec, i)) {
			nun++;
			len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s",
						len ? ", " : "", sb_counters_name(spec, i));
			if (len >= sizeof(names))
				len = sizeof(names) - 1;
		}
	if (!n) {
		put(f, strcpy(line, "counters: none (--counters=none)"));
		return;
	}
	if (!nun) {
		snprintf(line, sizeof(line), "counters: all %d available (--console=counters shows "
			 "them; the files keep them)", n);
		put(f, line);
		return;
	}
	len = (size_t)snprintf(line, sizeof(line), "counters: %d of %d unavailable here (", nun, n);
	/* the names cut, so that the pointer to their reasons always shows */
	room = SB_CONSOLE_WIDTH - len - 1 - (sizeof(tail) - 1);
	if (room < 8)
		strcpy(names, "...");
	else if (strlen(names) > room) {
		names[room - 3] = '\0';
		strcat(names, "...");
	}
	snprintf(line + len, sizeof(line) - len, "%s)%s", names, tail);
	put(f, line);
}

static void results_line(FILE *f, const char *out)
{
	/* put() cuts the line to the width: a longer copy would be cut the same */
	char line[SB_CONSOLE_WIDTH + 2];

	if (out)
		snprintf(line, sizeof(line), "results: %s/ (gbench.json, results.csv, runs.jsonl); "
			 "`stratbench plot %s`", out, out);
	else
		snprintf(line, sizeof(line), "results: on this console only (--out=DIR writes "
			 "them)");
	put(f, line);
}

void sb_console_context_lines(FILE *f, json_t *c, const char *out)
{
	machine_line(f, c);
	quiet_line(f, c);
	warning_line(f);
	counters_line(f);
	results_line(f, out);
}
