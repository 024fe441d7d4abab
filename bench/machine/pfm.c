/* pfm.c — raw PMU event names ("DTLB_LOAD_MISSES:WALK_COMPLETED" on
 * Haswell, "PM_RUN_CYC" on POWER) through libpfm4, an optional dependency
 * (SB_HAVE_LIBPFM, found by CMake).  Without it such a name is refused. */
#include "machine/perf.h"

#include <stdio.h>
#include <string.h>

#ifdef SB_HAVE_LIBPFM
#include <perfmon/pfmlib_perf_event.h>

static int pfm_ready(char *why, size_t whylen)
{
	static int rc = 1;	/* 1: not tried yet */

	if (rc == 1)
		rc = pfm_initialize();
	if (rc != PFM_SUCCESS)
		snprintf(why, whylen, "libpfm4 cannot initialise: %s", pfm_strerror(rc));
	return rc == PFM_SUCCESS;
}

int sb_perf_pfm(const char *name, struct sb_perf_ev *ev, char *why, size_t whylen)
{
	struct perf_event_attr a = { 0 };
	pfm_perf_encode_arg_t arg = { .attr = &a, .size = sizeof(arg) };
	int rc;

	if (!pfm_ready(why, whylen))
		return 0;
	/* user and kernel; the open falls back to user only (NAME:u) like perf */
	rc = pfm_get_os_event_encoding(name, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT, &arg);
	if (rc != PFM_SUCCESS) {
		snprintf(why, whylen, "libpfm4 cannot encode it for this CPU's PMU: %s",
			 pfm_strerror(rc));
		return 0;
	}
	memset(ev, 0, sizeof(*ev));
	ev->type = a.type;
	ev->config = a.config;
	ev->config1 = a.config1;
	ev->config2 = a.config2;
	ev->mode = SB_PERF_USER_PART;
	ev->pmu = true;
	return 1;
}

const char *sb_perf_pfm_support(void)
{
	static char buf[256];
	pfm_pmu_info_t pi;
	char why[128];
	size_t n;

	if (!pfm_ready(why, sizeof(why)))
		return "libpfm4 (cannot initialise: raw names are unavailable)";
	n = (size_t)snprintf(buf, sizeof(buf), "libpfm4, PMU:");
	for (int p = 0; p < PFM_PMU_MAX; p++) {
		pi = (pfm_pmu_info_t){ .size = sizeof(pi) };
		if (pfm_get_pmu_info(p, &pi) == PFM_SUCCESS && pi.is_present &&
		    pi.type != PFM_PMU_TYPE_OS_GENERIC && n < sizeof(buf))
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, " %s", pi.name);
	}
	if (n == strlen("libpfm4, PMU:"))
		snprintf(buf + n, sizeof(buf) - n, " none detected");
	return buf;
}
#else
int sb_perf_pfm(const char *name, struct sb_perf_ev *ev, char *why, size_t whylen)
{
	(void)ev;
	snprintf(why, whylen, "raw PMU event '%s' needs libpfm4 (apt-get install libpfm4-dev) "
		 "and a rebuild", name);
	return -1;
}

const char *sb_perf_pfm_support(void)
{
	return "";
}
#endif
