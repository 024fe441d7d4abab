/* test_settings — the machine settings are read from a fake sysfs/procfs
 * tree: values as the kernel prints them, warnings exactly when a setting
 * distorts a run, and "unavailable (reason)" — never 0 — when a file is
 * missing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "results/settings.h"

#include "check.h"

static char root[64];

static void put(const char *path, const char *text)
{
	char full[256], *slash;
	FILE *f;

	snprintf(full, sizeof(full), "%s%s", root, path);
	for (slash = full + strlen(root) + 1; (slash = strchr(slash, '/')); slash++) {
		*slash = '\0';
		mkdir(full, 0755);
		*slash = '/';
	}
	f = fopen(full, "w");
	fputs(text, f);
	fclose(f);
}

static const struct sb_setting *find(const struct sb_setting *s, int n, const char *key)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(s[i].key, key))
			return &s[i];
	return NULL;
}

static const char *value_of(const struct sb_setting *s, int n, const char *key)
{
	const struct sb_setting *f = find(s, n, key);

	return f ? f->value : "(missing)";
}

static bool warns(const struct sb_setting *s, int n, const char *key)
{
	const struct sb_setting *f = find(s, n, key);

	return f && f->warning[0];
}

#define VALUE(k) value_of(set, n, k)
#define WARNS(k) warns(set, n, k)

int main(void)
{
	struct sb_setting set[SB_SETTINGS_MAX];
	int n;

	snprintf(root, sizeof(root), "/tmp/test_settings.XXXXXX");
	if (!mkdtemp(root))
		return 1;

	/* an empty tree: everything unavailable, with a reason, nothing warned */
	n = sb_settings_read(root, 2, set, SB_SETTINGS_MAX);
	CHECK(n >= 8, "%d settings", n);
	for (int i = 0; i < n; i++) {
		CHECK(!set[i].available && !strncmp(set[i].value, "unavailable (", 13),
		      "%s: '%s' must say unavailable", set[i].key, set[i].value);
		CHECK(!set[i].warning[0], "%s: no warning without a value", set[i].key);
	}

	/* a tuned-badly lab machine */
	put("/proc/sys/kernel/numa_balancing", "1\n");
	put("/sys/kernel/debug/x86/tlb_single_page_flush_ceiling", "64\n");
	put("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "powersave\n");
	put("/sys/devices/system/cpu/intel_pstate/no_turbo", "0\n");
	put("/sys/devices/system/cpu/smt/active", "1\n");
	put("/sys/kernel/mm/transparent_hugepage/enabled", "[always] madvise never\n");
	put("/proc/sys/kernel/perf_event_paranoid", "-1\n");
	put("/proc/cpuinfo", "processor\t: 0\nflags\t\t: fpu vme sse2 hypervisor lahf_lm\n");
	n = sb_settings_read(root, 2, set, SB_SETTINGS_MAX);
	CHECK(!strcmp(VALUE("numa_balancing"), "1") && WARNS("numa_balancing"), "numa_balancing");
	CHECK(!strcmp(VALUE("tlb_single_page_flush_ceiling"), "64") &&
	      WARNS("tlb_single_page_flush_ceiling"), "ceiling: %s",
	      VALUE("tlb_single_page_flush_ceiling"));
	CHECK(!strcmp(VALUE("governor"), "powersave") && WARNS("governor"), "governor");
	CHECK(!strncmp(VALUE("boost"), "1 (intel_pstate no_turbo=0)", 27) && WARNS("boost"),
	      "boost from intel_pstate: %s", VALUE("boost"));
	CHECK(!strcmp(VALUE("smt_active"), "1"), "smt");
	CHECK(!strcmp(VALUE("transparent_hugepage"), "always"), "thp: %s",
	      VALUE("transparent_hugepage"));
	CHECK(!strcmp(VALUE("perf_event_paranoid"), "-1"), "paranoid");
	CHECK(!strncmp(VALUE("virtual_machine"), "yes", 3), "vm: %s", VALUE("virtual_machine"));

	/* NUMA balancing cannot act on one node: recorded, not warned */
	n = sb_settings_read(root, 1, set, SB_SETTINGS_MAX);
	CHECK(!WARNS("numa_balancing"), "numa_balancing on 1 node");

	/* a quiet lab machine: performance governor, no boost, default ceiling */
	put("/sys/kernel/debug/x86/tlb_single_page_flush_ceiling", "33\n");
	put("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "performance\n");
	put("/sys/devices/system/cpu/cpufreq/boost", "0\n");
	put("/proc/sys/kernel/numa_balancing", "0\n");
	put("/proc/cpuinfo", "processor\t: 0\nflags\t\t: fpu vme sse2 lahf_lm\n");
	n = sb_settings_read(root, 2, set, SB_SETTINGS_MAX);
	for (int i = 0; i < n; i++)
		CHECK(!set[i].warning[0], "%s: unexpected warning '%s'", set[i].key, set[i].warning);
	CHECK(!strcmp(VALUE("boost"), "0"), "cpufreq/boost wins over intel_pstate: %s",
	      VALUE("boost"));
	CHECK(!strncmp(VALUE("virtual_machine"), "no", 2), "bare metal: %s",
	      VALUE("virtual_machine"));

	/* this machine: every setting either has a value or says why not */
	n = sb_settings_read("/", 1, set, SB_SETTINGS_MAX);
	for (int i = 0; i < n; i++)
		CHECK(set[i].available || !strncmp(set[i].value, "unavailable (", 13), "%s: %s",
		      set[i].key, set[i].value);
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
		CHECK(system(cmd) == 0, "cleanup");
	}
	return check_done("test_settings");
}
