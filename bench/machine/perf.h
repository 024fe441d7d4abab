/* perf.h — internal to bench/machine/: perf_event_open for the counters.
 *
 * Resolves a name to an event (perf's generic names, tracepoints through tracefs, raw PMU events
 * through libpfm4 when built with it), opens it for the calling thread (pid 0, any CPU, inherit
 * off, counting from open, read as a group with time enabled/running), and turns an open's errno
 * into a reason with its fix.  Nothing here changes perf_event_paranoid or mounts anything.
 */
#ifndef STRATBENCH_PERF_H
#define STRATBENCH_PERF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What exclude_kernel does to an event (perf_event_paranoid 2 unprivileged: user space only). */
enum sb_perf_mode {
	SB_PERF_USER_PART,	/* counts the user-space part: reported as NAME:u */
	SB_PERF_KERNEL_ONLY,	/* happens in the kernel (context switches): would read 0 */
	SB_PERF_ANY_MODE,	/* exclusion ignored by the kernel (task-clock) */
};

struct sb_perf_ev {
	uint32_t type;
	uint64_t config, config1, config2;
	enum sb_perf_mode mode;
	bool pmu;		/* needs the hardware PMU: grouped apart from software events */
	bool user_only;		/* open with exclude_kernel and exclude_hv */
};

/* perf's generic names ("cycles", "page-faults", "dTLB-load-misses") and
 * their aliases ("cs", "faults"): 1 and the event and canonical name, or 0. */
int sb_perf_generic(const char *name, struct sb_perf_ev *ev, const char **canon);
const char *const *sb_perf_generic_names(void);
/* "rHEX": a raw config for the CPU's PMU; 1, or 0 if not of that form */
int sb_perf_rawhex(const char *name, struct sb_perf_ev *ev);
/* subsys:event through tracefs (or debugfs's tracing/): 1, or 0 and why */
int sb_perf_tracepoint(const char *subsys, const char *event, struct sb_perf_ev *ev, char *why,
		       size_t whylen);
/* A raw PMU event name through libpfm4 (pfm.c): 1, 0 unavailable here (why),
 * -1 when built without libpfm4 (why: how to get it). */
int sb_perf_pfm(const char *name, struct sb_perf_ev *ev, char *why, size_t whylen);
const char *sb_perf_pfm_support(void);

/* Opens ev for the calling thread; group_fd -1 makes a leader.  fd, or -errno. */
int sb_perf_open(const struct sb_perf_ev *ev, int group_fd);
/* Opens as the probe does: on EACCES falls back to user space only where that still counts (sets
 * ev->user_only).  fd, or -errno of the last try (the fallback's: what blocks even user space). */
int sb_perf_open_probe(struct sb_perf_ev *ev);
/* The reason an open failed with err, with its fix. */
void sb_perf_why(int err, const struct sb_perf_ev *ev, char *why, size_t whylen);

#endif
