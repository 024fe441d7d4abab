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

static const struct generic {
	const char *name, *alias;
	uint32_t type;
	uint64_t config;
	enum sb_perf_mode mode;
} generic[] = {
	/* hardware */
	{ "cycles", "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, SB_PERF_USER_PART },
	{ "instructions", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, SB_PERF_USER_PART },
	{ "cache-references", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES,
	  SB_PERF_USER_PART },
	{ "cache-misses", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES, SB_PERF_USER_PART },
	{ "branch-instructions", "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS,
	  SB_PERF_USER_PART },
	{ "branch-misses", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, SB_PERF_USER_PART },
	{ "bus-cycles", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES, SB_PERF_USER_PART },
	{ "stalled-cycles-frontend", NULL, PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, SB_PERF_USER_PART },
	{ "stalled-cycles-backend", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND,
	  SB_PERF_USER_PART },
	{ "ref-cycles", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES, SB_PERF_USER_PART },
	/* software: context switches and migrations happen in the kernel only;
	 * the clocks ignore exclude_kernel */
	{ "task-clock", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, SB_PERF_ANY_MODE },
	{ "cpu-clock", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, SB_PERF_ANY_MODE },
	{ "page-faults", "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, SB_PERF_USER_PART },
	{ "minor-faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN, SB_PERF_USER_PART },
	{ "major-faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ, SB_PERF_USER_PART },
	{ "context-switches", "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES,
	  SB_PERF_KERNEL_ONLY },
	{ "cpu-migrations", "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS,
	  SB_PERF_KERNEL_ONLY },
	{ "alignment-faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS,
	  SB_PERF_USER_PART },
	{ "emulation-faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS,
	  SB_PERF_USER_PART },
	/* hardware caches, perf's spelling */
	{ "L1-dcache-loads", NULL, PERF_TYPE_HW_CACHE, CACHE(L1D, READ, ACCESS), SB_PERF_USER_PART },
	{ "L1-dcache-load-misses", NULL, PERF_TYPE_HW_CACHE, CACHE(L1D, READ, MISS),
	  SB_PERF_USER_PART },
	{ "L1-icache-load-misses", NULL, PERF_TYPE_HW_CACHE, CACHE(L1I, READ, MISS),
	  SB_PERF_USER_PART },
	{ "LLC-loads", NULL, PERF_TYPE_HW_CACHE, CACHE(LL, READ, ACCESS), SB_PERF_USER_PART },
	{ "LLC-load-misses", NULL, PERF_TYPE_HW_CACHE, CACHE(LL, READ, MISS), SB_PERF_USER_PART },
	{ "LLC-stores", NULL, PERF_TYPE_HW_CACHE, CACHE(LL, WRITE, ACCESS), SB_PERF_USER_PART },
	{ "LLC-store-misses", NULL, PERF_TYPE_HW_CACHE, CACHE(LL, WRITE, MISS), SB_PERF_USER_PART },
	{ "dTLB-loads", NULL, PERF_TYPE_HW_CACHE, CACHE(DTLB, READ, ACCESS), SB_PERF_USER_PART },
	{ "dTLB-load-misses", NULL, PERF_TYPE_HW_CACHE, CACHE(DTLB, READ, MISS), SB_PERF_USER_PART },
	{ "dTLB-stores", NULL, PERF_TYPE_HW_CACHE, CACHE(DTLB, WRITE, ACCESS), SB_PERF_USER_PART },
	{ "dTLB-store-misses", NULL, PERF_TYPE_HW_CACHE, CACHE(DTLB, WRITE, MISS), SB_PERF_USER_PART },
	{ "iTLB-loads", NULL, PERF_TYPE_HW_CACHE, CACHE(ITLB, READ, ACCESS), SB_PERF_USER_PART },
	{ "iTLB-load-misses", NULL, PERF_TYPE_HW_CACHE, CACHE(ITLB, READ, MISS), SB_PERF_USER_PART },
	{ "branch-loads", NULL, PERF_TYPE_HW_CACHE, CACHE(BPU, READ, ACCESS), SB_PERF_USER_PART },
	{ "branch-load-misses", NULL, PERF_TYPE_HW_CACHE, CACHE(BPU, READ, MISS), SB_PERF_USER_PART },
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
	char *end;
	unsigned long long v;

	if (name[0] != 'r' || !name[1] || strspn(name + 1, "0123456789abcdef") != strlen(name + 1) ||
	    strlen(name + 1) > 16)
		return 0;
	v = strtoull(name + 1, &end, 16);
	memset(ev, 0, sizeof(*ev));
	ev->type = PERF_TYPE_RAW;
	ev->config = v;
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
		int fd;

		snprintf(path, sizeof(path), "%s/events", tracefs_roots[r]);
		if (stat(path, &sb)) {
			if (errno == EACCES)
				denied = denied ? denied : r + 1;
			continue;
		}
		if (mounted < 0)
			mounted = r;
		snprintf(path, sizeof(path), "%s/events/%s/%s/id", tracefs_roots[r], subsys, event);
		fd = open(path, O_RDONLY);
		if (fd < 0) {
			if (errno == EACCES)
				denied = denied ? denied : r + 1;
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
	int fd = sb_perf_open(ev, -1), fd2;

	if ((fd == -EACCES || fd == -EPERM) && !ev->user_only && ev->mode != SB_PERF_KERNEL_ONLY) {
		ev->user_only = true;
		fd2 = sb_perf_open(ev, -1);
		if (fd2 >= 0)
			return fd2;
		ev->user_only = false;
		return fd2;	/* what blocks even user-space counting (ENOENT: no PMU) */
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
