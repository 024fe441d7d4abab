/* quiet.c — is the machine quiet enough to measure?  The load average, the
 * CPUs another process keeps busy and the steal (/proc/stat over 200 ms before
 * anything runs), absent files recorded as such; settings (governor...): settings.c. */
#include "machine/procfs.h"
#include "results/preempt.h"
#include "results/results.h"
#include "results/settings.h"

#include <math.h>

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* busy and total jiffies per CPU from /proc/stat; returns the CPU count */
static int cpu_times(unsigned long long *busy, unsigned long long *total, int max)
{
	FILE *f = fopen("/proc/stat", "r");
	char line[512];
	int n = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f) && n < max) {
		unsigned long long v[8] = { 0 };

		if (strncmp(line, "cpu", 3) || line[3] < '0' || line[3] > '9')
			continue;
		if (sscanf(line + 3, "%*d %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1],
			   &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) < 4)
			continue;
		total[n] = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
		busy[n] = total[n] - v[3] - v[4];	/* less idle and iowait */
		n++;
	}
	fclose(f);
	return n;
}

static int busy_cpus(char *list, size_t n)
{
	enum { MAX = 1024 };
	static unsigned long long b0[MAX], t0[MAX], b1[MAX], t1[MAX];
	struct timespec ts = { 0, 200L * 1000 * 1000 };
	int n0 = cpu_times(b0, t0, MAX), n1, busy = 0;
	size_t len = 0;

	nanosleep(&ts, NULL);
	n1 = cpu_times(b1, t1, MAX);
	list[0] = '\0';
	for (int i = 0; i < n0 && i < n1; i++)
		if (t1[i] > t0[i] && (b1[i] - b0[i]) * 2 > t1[i] - t0[i]) {	/* > 50 % */
			busy++;
			if (len < n - 8)
				len += (size_t)snprintf(list + len, n - len, "%s%d", len ? "," : "", i);
		}
	return busy;
}

/* The steal of the whole machine over the busy check (before, after) and since
 * boot, as "sb_steal" says it: the host running other guests on our vCPUs. */
static double steal_text(const struct sb_cpu_ticks *t0, const struct sb_cpu_ticks *t1,
			 char *buf, size_t n)
{
	static const struct sb_cpu_ticks boot = { 0, 0, true };
	double now = sb_steal_pct(t0, t1), ever = sb_steal_pct(&boot, t1);

	if (!t1->has_steal)
		snprintf(buf, n, "unavailable (no steal column in /proc/stat)");
	else if (isnan(now))
		snprintf(buf, n, "n/a before the run (no tick passed), %.2g %% since boot", ever);
	else
		snprintf(buf, n, "%.2g %% before the run, %.2g %% since boot", now, ever);
	return now;
}

/* record: into the JSON context too; warn: the warnings on stderr */
static void quiet(bool record, bool warn)
{
	char buf[256], list[256], err[128];
	struct sb_cpu_ticks t0, t1;
	double load = -1, steal;
	int busy;

	if (sb_settings_line("/", "/proc/loadavg", buf, sizeof(buf)) == 0) {
		if (record)
			sb_context_put("sb_loadavg", buf);
		load = strtod(buf, NULL);
		if (load > 0.5 && warn)
			fprintf(stderr, "stratbench: warning: machine not quiet: load average %.2f\n",
				load);
	} else if (record) {
		sb_context_put("sb_loadavg", "unavailable (/proc/loadavg)");
	}
	if (sb_stat_read(NULL, NULL, 0, &t0, err, sizeof(err)))
		t0.has_steal = false;
	busy = busy_cpus(list, sizeof(list));
	if (sb_stat_read(NULL, NULL, 0, &t1, err, sizeof(err)))
		t1.has_steal = false;
	steal = steal_text(&t0, &t1, buf, sizeof(buf));
	if (record)
		sb_context_put("sb_steal", buf);
	if (steal > SB_PREEMPT_STEAL_MAX && warn)
		fprintf(stderr, "stratbench: warning: machine not quiet: steal %.2g %% before the "
			"run (the host runs something else on these vCPUs)\n", steal);
	snprintf(buf, sizeof(buf), "%d%s%s", busy, busy ? ": " : "", list);
	if (record)
		sb_context_put("sb_busy_cpus", buf);
	if (busy && warn)
		fprintf(stderr, "stratbench: warning: machine not quiet: %d CPU%s busy before "
			"the run (%s)\n", busy, busy > 1 ? "s" : "", list);
}

void sb_quiet_check(bool warn)
{
	quiet(true, warn);
}

void sb_quiet_warn(void)
{
	quiet(false, true);
}
