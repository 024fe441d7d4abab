/* perf.c — perf_event_open for the counters (perf.h). */
#include "machine/perf.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define CACHE(c, op, res) \
	(PERF_COUNT_HW_CACHE_##c | PERF_COUNT_HW_CACHE_OP_##op << 8 | \
	 PERF_COUNT_HW_CACHE_RESULT_##res << 16)

#define HW(name, alias, cfg) \
	{ name, alias, PERF_TYPE_HARDWARE, PERF_COUNT_HW_##cfg, SB_PERF_USER_PART }
#define SW(name, alias, cfg, mode) \
	{ name, alias, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_##cfg, SB_PERF_##mode }
#define HWC(name, c, op, res) \
	{ name, NULL, PERF_TYPE_HW_CACHE, CACHE(c, op, res), SB_PERF_USER_PART }

static const struct generic {
	const char *name, *alias;
	uint32_t type;
	uint64_t config;
	enum sb_perf_mode mode;
} generic[] = {
	/* hardware */
	HW("cycles", "cpu-cycles", CPU_CYCLES),
	HW("instructions", NULL, INSTRUCTIONS),
	HW("cache-references", NULL, CACHE_REFERENCES),
	HW("cache-misses", NULL, CACHE_MISSES),
	HW("branch-instructions", "branches", BRANCH_INSTRUCTIONS),
	HW("branch-misses", NULL, BRANCH_MISSES),
	HW("bus-cycles", NULL, BUS_CYCLES),
	HW("stalled-cycles-frontend", NULL, STALLED_CYCLES_FRONTEND),
	HW("stalled-cycles-backend", NULL, STALLED_CYCLES_BACKEND),
	HW("ref-cycles", NULL, REF_CPU_CYCLES),
	/* software: context switches, migrations are kernel-only; clocks ignore exclude_kernel */
	SW("task-clock", NULL, TASK_CLOCK, ANY_MODE),
	SW("cpu-clock", NULL, CPU_CLOCK, ANY_MODE),
	SW("page-faults", "faults", PAGE_FAULTS, USER_PART),
	SW("minor-faults", NULL, PAGE_FAULTS_MIN, USER_PART),
	SW("major-faults", NULL, PAGE_FAULTS_MAJ, USER_PART),
	SW("context-switches", "cs", CONTEXT_SWITCHES, KERNEL_ONLY),
	SW("cpu-migrations", "migrations", CPU_MIGRATIONS, KERNEL_ONLY),
	SW("alignment-faults", NULL, ALIGNMENT_FAULTS, USER_PART),
	SW("emulation-faults", NULL, EMULATION_FAULTS, USER_PART),
	/* hardware caches, perf's spelling */
	HWC("L1-dcache-loads", L1D, READ, ACCESS),
	HWC("L1-dcache-load-misses", L1D, READ, MISS),
	HWC("L1-icache-load-misses", L1I, READ, MISS),
	HWC("LLC-loads", LL, READ, ACCESS),
	HWC("LLC-load-misses", LL, READ, MISS),
	HWC("LLC-stores", LL, WRITE, ACCESS),
	HWC("LLC-store-misses", LL, WRITE, MISS),
	HWC("dTLB-loads", DTLB, READ, ACCESS),
	HWC("dTLB-load-misses", DTLB, READ, MISS),
	HWC("dTLB-stores", DTLB, WRITE, ACCESS),
	HWC("dTLB-store-misses", DTLB, WRITE, MISS),
	HWC("iTLB-loads", ITLB, READ, ACCESS),
	HWC("iTLB-load-misses", ITLB, READ, MISS),
	HWC("branch-loads", BPU, READ, ACCESS),
	HWC("branch-load-misses", BPU, READ, MISS),
};

#define NGENERIC (sizeof(generic) / sizeof(generic[0]))

int sb_perf_generic(const char *name, struct sb_perf_ev *ev, const char **canon)
{
	for (size_t i = 0; i < NGENERIC; i++) {
		const struct generic *g = &generic[i];

		if (strcmp(name, g->name) && (!g->alias || strcmp(name, g->alias)))
			continue;
		memset(ev, 0, sizeof(*ev));
		ev->type = g->type;
		ev->config = g->config;
		ev->mode = g->mode;
		ev->pmu = g->type != PERF_TYPE_SOFTWARE;
		*canon = g->name;
		return 1;
	}
	return 0;
}

const char *const *sb_perf_generic_names(void)
{
	static const char *names[NGENERIC + 1];

	for (size_t i = 0; i < NGENERIC; i++)
		names[i] = generic[i].name;
	return names;
}

int sb_perf_rawhex(const char *name, struct sb_perf_ev *ev)
{
	if (name[0] != 'r' || !name[1] || strspn(name + 1, "0123456789abcdef") != strlen(name + 1) ||
	    strlen(name + 1) > 16)
		return 0;
	memset(ev, 0, sizeof(*ev));
	ev->type = PERF_TYPE_RAW;
	ev->config = strtoull(name + 1, NULL, 16);
	ev->mode = SB_PERF_USER_PART;
	ev->pmu = true;
	return 1;
}

static const char *const tracefs_roots[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

int sb_perf_tracepoint(const char *subsys, const char *event, struct sb_perf_ev *ev, char *why,
		       size_t whylen)
{
	char path[512], buf[32];
	int denied = 0, mounted = -1;

	for (int r = 0; r < 2; r++) {
		struct stat sb;
		ssize_t n;
		int fd = -1;

		snprintf(path, sizeof(path), "%s/events", tracefs_roots[r]);
		if (stat(path, &sb) == 0) {
			mounted = mounted < 0 ? r : mounted;
			snprintf(path, sizeof(path), "%s/events/%s/%s/id", tracefs_roots[r], subsys,
				 event);
			fd = open(path, O_RDONLY);
		}
		if (fd < 0) {	/* errno: the stat's or the open's */
			if (errno == EACCES && !denied)
				denied = r + 1;
			continue;
		}
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n <= 0)
			continue;
		buf[n] = '\0';
		memset(ev, 0, sizeof(*ev));
		ev->type = PERF_TYPE_TRACEPOINT;
		ev->config = strtoull(buf, NULL, 10);
		ev->mode = SB_PERF_KERNEL_ONLY;
		return 1;
	}
	if (denied)
		snprintf(why, whylen, "%s not readable (EACCES): run as root",
			 denied == 1 ? "tracefs (/sys/kernel/tracing)" :
				       "debugfs (/sys/kernel/debug/tracing)");
	else if (mounted >= 0)
		snprintf(why, whylen, "no tracepoint %s:%s on this kernel (%s/events has no %s/%s)",
			 subsys, event, tracefs_roots[mounted], subsys, event);
	else
		snprintf(why, whylen, "tracefs not mounted (no /sys/kernel/tracing/events nor "
			 "/sys/kernel/debug/tracing/events): as root, "
			 "mount -t tracefs nodev /sys/kernel/tracing");
	return 0;
}

int sb_perf_open(const struct sb_perf_ev *ev, int group_fd)
{
	struct perf_event_attr a;
	long fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = ev->type;
	a.config = ev->config;
	a.config1 = ev->config1;
	a.config2 = ev->config2;
	/* counting from open; deltas are read around each round */
	a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
			PERF_FORMAT_TOTAL_TIME_RUNNING;
	a.exclude_kernel = ev->user_only;
	a.exclude_hv = ev->user_only;
	a.inherit = 0;
	fd = syscall(SYS_perf_event_open, &a, 0, -1, group_fd, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : (int)fd;
}

int sb_perf_open_probe(struct sb_perf_ev *ev)
{
	int fd = sb_perf_open(ev, -1);

	if ((fd == -EACCES || fd == -EPERM) && !ev->user_only && ev->mode != SB_PERF_KERNEL_ONLY) {
		ev->user_only = true;
		fd = sb_perf_open(ev, -1);
		/* failed: what blocks even user-space counting (ENOENT: no PMU) */
		ev->user_only = fd >= 0;
	}
	return fd;
}

static int paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int v = 99;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = 99;
		fclose(f);
	}
	return v;
}

void sb_perf_why(int err, const struct sb_perf_ev *ev, char *why, size_t whylen)
{
	const char *name = strerrorname_np(err), *text = strerror(err);
	char lvl[32] = "";

	if (!name)
		name = "?";
	switch (err) {
	case ENOENT:
	case ENODEV:
	case EOPNOTSUPP:
		if (ev->pmu)
			snprintf(why, whylen, "no hardware PMU event here (%s: %s): a VM without a "
				 "virtual PMU, or a CPU without this event", name, text);
		else
			snprintf(why, whylen, "not supported by this kernel (%s: %s)", name, text);
		break;
	case EACCES:
	case EPERM:
		if (paranoid() != 99)
			snprintf(lvl, sizeof(lvl), " %d", paranoid());
		snprintf(why, whylen, "not permitted at perf_event_paranoid%s (%s: %s)%s: run as "
			 "root or lower kernel.perf_event_paranoid", lvl, name, text,
			 ev->type == PERF_TYPE_TRACEPOINT ? "" :
			 ev->mode == SB_PERF_KERNEL_ONLY ? "; counted in the kernel only, "
			 "so a user-space-only count would read 0" : "");
		break;
	case ENOSYS:
		snprintf(why, whylen, "perf_event_open unavailable (%s: %s): kernel without "
			 "CONFIG_PERF_EVENTS, or a seccomp filter", name, text);
		break;
	case EMFILE:
	case ENFILE:
		snprintf(why, whylen, "out of file descriptors (%s: %s): raise ulimit -n", name, text);
		break;
	default:
		snprintf(why, whylen, "perf_event_open failed (%s: %s)", name, text);
	}
}
