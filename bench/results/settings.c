/* settings.c — read (never write) the settings that distort results. */
#include "results/results.h"
#include "results/settings.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sb_settings_line(const char *root, const char *path, char *buf, size_t len)
{
	char full[512];
	FILE *f;

	snprintf(full, sizeof(full), "%s%s", strcmp(root, "/") ? root : "", path);
	f = fopen(full, "r");
	if (!f) {
		snprintf(buf, len, "%s", strerror(errno));
		return -1;
	}
	if (!fgets(buf, (int)len, f)) {
		snprintf(buf, len, "empty");
		fclose(f);
		return -1;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static struct sb_setting *next(struct sb_setting *out, int *n, int max, const char *key)
{
	struct sb_setting *s;

	if (*n >= max)
		return NULL;
	s = &out[(*n)++];
	*s = (struct sb_setting){ .key = key };
	return s;
}

/* A setting from one file; hint says what would make it readable. */
static struct sb_setting *file_setting(const char *root, struct sb_setting *out, int *n, int max,
				       const char *key, const char *path, const char *hint)
{
	struct sb_setting *s = next(out, n, max, key);
	char buf[128];

	if (!s)
		return NULL;
	if (sb_settings_line(root, path, buf, sizeof(buf)) == 0) {
		s->available = true;
		snprintf(s->value, sizeof(s->value), "%s", buf);
	} else {
		snprintf(s->value, sizeof(s->value), "unavailable (%s: %s%s%s)", path, buf,
			 hint ? "; " : "", hint ? hint : "");
	}
	return s;
}

/* "always [madvise] never" -> "madvise" */
static void bracketed(char *v)
{
	char *a = strchr(v, '['), *b = a ? strchr(a, ']') : NULL;

	if (a && b) {
		memmove(v, a + 1, (size_t)(b - a - 1));
		v[b - a - 1] = '\0';
	}
}

/* Runs under a hypervisor: x86's cpuinfo flag, or /sys/hypervisor (Xen,
 * POWER LPARs report theirs in the device tree). */
static void vm_setting(const char *root, struct sb_setting *s)
{
	char path[512], line[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/cpuinfo", strcmp(root, "/") ? root : "");
	f = fopen(path, "r");
	if (!f) {
		snprintf(s->value, sizeof(s->value), "unavailable (/proc/cpuinfo: %s)",
			 strerror(errno));
		return;
	}
	s->available = true;
	snprintf(s->value, sizeof(s->value), "no hypervisor flag");
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "flags", 5) && strstr(line, " hypervisor")) {
			/* on record, not warned: every CI run is a VM */
			snprintf(s->value, sizeof(s->value), "yes (cpuinfo hypervisor flag)");
			break;
		}
	fclose(f);
}

int sb_settings_read(const char *root, int nnodes, struct sb_setting *out, int max)
{
	struct sb_setting *s;
	int n = 0;

	s = file_setting(root, out, &n, max, "numa_balancing", "/proc/sys/kernel/numa_balancing",
			 NULL);
	if (s && s->available && strcmp(s->value, "0") && nnodes > 1)
		snprintf(s->warning, sizeof(s->warning), "kernel.numa_balancing=%.64s: hinting faults "
			 "and page migrations run during the benchmarks", s->value);
	s = file_setting(root, out, &n, max, "tlb_single_page_flush_ceiling",
			 "/sys/kernel/debug/x86/tlb_single_page_flush_ceiling",
			 "debugfs is root-only and may be unmounted; x86 only");
	if (s && s->available && strcmp(s->value, "33"))
		snprintf(s->warning, sizeof(s->warning), "tlb_single_page_flush_ceiling is %.64s, not "
			 "the kernel's default 33 that --ceiling models", s->value);
	s = file_setting(root, out, &n, max, "governor",
			 "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
			 "no cpufreq driver (common in VMs)");
	if (s && s->available && strcmp(s->value, "performance"))
		snprintf(s->warning, sizeof(s->warning), "cpufreq governor '%.64s': frequency follows "
			 "load, so results depend on what ran before", s->value);
	s = file_setting(root, out, &n, max, "boost", "/sys/devices/system/cpu/cpufreq/boost",
			 NULL);
	if (s && !s->available) {	/* intel_pstate says it the other way round */
		char buf[64];

		if (sb_settings_line(root, "/sys/devices/system/cpu/intel_pstate/no_turbo", buf,
				     sizeof(buf)) == 0) {
			s->available = true;
			snprintf(s->value, sizeof(s->value), "%s (intel_pstate no_turbo=%s)",
				 strcmp(buf, "0") ? "0" : "1", buf);
		}
	}
	if (s && s->available && s->value[0] == '1')
		snprintf(s->warning, sizeof(s->warning), "turbo/boost is on: clock rates vary with "
			 "load and temperature");
	file_setting(root, out, &n, max, "smt_active", "/sys/devices/system/cpu/smt/active", NULL);
	s = file_setting(root, out, &n, max, "transparent_hugepage",
			 "/sys/kernel/mm/transparent_hugepage/enabled", NULL);
	if (s && s->available)
		bracketed(s->value);
	file_setting(root, out, &n, max, "perf_event_paranoid",
		     "/proc/sys/kernel/perf_event_paranoid", NULL);
	s = next(out, &n, max, "virtual_machine");
	if (s)
		vm_setting(root, s);
	return n;
}

/* Warnings wait for the first benchmark: a usage error found later (a
 * --benchmark_filter that matches nothing) stays one line on stderr. */
static char pending[SB_SETTINGS_MAX][sizeof(((struct sb_setting *)0)->warning)];
static int npending;

void sb_settings_record(int nnodes)
{
	struct sb_setting set[SB_SETTINGS_MAX];
	int n = sb_settings_read("/", nnodes, set, SB_SETTINGS_MAX);

	for (int i = 0; i < n; i++) {
		char key[64];

		snprintf(key, sizeof(key), "sb_setting_%s", set[i].key);
		sb_context_put(key, set[i].value);
		if (set[i].warning[0] && npending < SB_SETTINGS_MAX)
			memcpy(pending[npending++], set[i].warning, sizeof(pending[0]));
	}
}

void sb_settings_add_warning(const char *msg)
{
	if (npending < SB_SETTINGS_MAX)
		snprintf(pending[npending++], sizeof(pending[0]), "%s", msg);
}

void sb_settings_warn(FILE *f)
{
	for (int i = 0; i < npending; i++)
		fprintf(f, "stratbench: warning: %s\n", pending[i]);
	npending = 0;	/* once per run */
}

int sb_settings_take_warnings(char *buf, size_t n)
{
	int k = npending;
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < npending && len < n; i++)
		len += (size_t)snprintf(buf + len, n - len, "%s%s", i ? "; " : "", pending[i]);
	npending = 0;
	return k;
}
