/* test_counters_nopfm — the counters built without libpfm4 (CI's builds
 * have it): a raw PMU event name is a usage error that says how to get it,
 * while perf's generic names and rHEX raw configs still parse. */
#include <string.h>

#include "machine/counters.h"

#include "check.h"

int main(void)
{
	struct sb_counters_spec *s = NULL;
	char err[512] = "";
	int rc = sb_counters_parse("page-faults,DTLB_LOAD_MISSES:WALK_COMPLETED", &s, err,
				   sizeof(err));

	CHECK(rc == -1, "raw name refused (rc %d)", rc);
	CHECK(strstr(err, "DTLB_LOAD_MISSES:WALK_COMPLETED") &&
	      strstr(err, "needs libpfm4 (apt-get install libpfm4-dev) and a rebuild"),
	      "message: '%s'", err);
	rc = sb_counters_parse("PM_RUN_CYC", &s, err, sizeof(err));
	CHECK(rc == -1 && strstr(err, "PM_RUN_CYC"), "POWER name refused: '%s'", err);
	CHECK(!*sb_counters_raw_support(), "no raw support claimed");
	rc = sb_counters_parse("page-faults,r1a8", &s, err, sizeof(err));
	CHECK(rc == 0 && sb_counters_count(s) == 2, "generic and rHEX parse: '%s'", err);
	if (!rc)
		sb_counters_spec_free(s);
	return check_done("test_counters_nopfm");
}
