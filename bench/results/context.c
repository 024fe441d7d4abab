/* context.c — the JSON context and the machine fingerprint (DESIGN.md §6). */
#include "results/results.h"
#include "results/settings.h"

#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <stratbench/arch.h>

#include "sb_gitrev.h"	/* generated at build time: the revision built */

static void (*context_sink)(const char *key, const char *value);

void sb_context_set_sink(void (*add)(const char *key, const char *value))
{
	context_sink = add;
}

void sb_context_put(const char *key, const char *value)
{
	if (context_sink)
		context_sink(key, value);
}

void sb_context_cpu_model(char *buf, size_t n)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512];

	snprintf(buf, n, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *v = strchr(line, ':');

		/* x86 "model name", POWER "cpu", Arm has neither: "CPU part" */
		if (v && (!strncmp(line, "model name", 10) || !strncmp(line, "cpu\t", 4) ||
			  !strncmp(line, "CPU part", 8))) {
			v += 1 + strspn(v + 1, " \t");
			v[strcspn(v, "\n")] = '\0';
			snprintf(buf, n, "%s", v);
			break;
		}
	}
	fclose(f);
}

void sb_context_host(char *buf, size_t n)
{
	if (gethostname(buf, n) || !*buf)
		snprintf(buf, n, "unknown");
	buf[n - 1] = '\0';
}

void sb_context_fingerprint(const struct sb_topo *t, int argc, char **argv)
{
	char buf[1024];
	struct utsname u;
	long line = sysconf(_SC_LEVEL1_DCACHE_LINESIZE);
	size_t len = 0;
	int i;

	sb_context_cpu_model(buf, sizeof(buf));
	sb_context_put("sb_cpu_model", buf);
	sb_context_host(buf, sizeof(buf));
	sb_context_put("sb_host", buf);
	snprintf(buf, sizeof(buf), "%d", sb_topo_npackages(t));
	sb_context_put("sb_packages", buf);
	snprintf(buf, sizeof(buf), "%d", sb_topo_nnodes(t));
	sb_context_put("sb_numa_nodes", buf);
	snprintf(buf, sizeof(buf), "%d", sb_topo_ncores(t));
	sb_context_put("sb_cores", buf);
	snprintf(buf, sizeof(buf), "%d", sb_topo_npus(t));
	sb_context_put("sb_pus", buf);
	snprintf(buf, sizeof(buf), "%ld", line > 0 ? line : 0);
	sb_context_put("sb_cacheline_os", line > 0 ? buf : "unavailable (sysconf)");
	snprintf(buf, sizeof(buf), "%d", SB_CACHELINE);
	sb_context_put("sb_cacheline_padding", buf);
	sb_context_put("sb_arch", SB_ARCH_NAME);
	sb_context_put("sb_kernel", uname(&u) == 0 ? u.release : "unknown");
	sb_context_put("sb_compiler", "gcc-compatible " __VERSION__);
	sb_context_put("sb_git_revision", STRATBENCH_GIT_REV);
	snprintf(buf, sizeof(buf), "%.4f", sb_cycles_per_ns());
	sb_context_put("sb_cycles_per_ns", buf);
	buf[0] = '\0';
	for (i = 0; i < argc && len < sizeof(buf) - 2; i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s", i ? " " : "", argv[i]);
	sb_context_put("sb_command_line", buf);
	sb_settings_record(sb_topo_nnodes(t));
}
