/* fuzz_procfs — the /proc/interrupts, /proc/vmstat and /proc/stat parsers on any text:
 * a lab machine's or a future kernel's files must never crash them, and a
 * row that parses gives exactly as many counts as the header has CPUs; a
 * CPU set's sum never exceeds the sum over all CPUs. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "machine/procfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const rows[] = { "TLB", "CAL", "LOC", "0", "NMI" };
	char *text = malloc(size + 1), err[256];
	uint64_t counts[64], v;
	int cpus[64];

	memcpy(text, data, size);
	text[size] = '\0';
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		int n = sb_irq_parse(text, rows[i], cpus, counts, 64, err, sizeof(err));

		if (n > 64 || n < -1)
			abort();
	}
	{	/* the per-CPU-set sum the counters take deltas of */
		static const int set[] = { 0, 1, 8 };
		uint64_t team = 0, all = 0;
		int r = sb_irq_sum(text, &(struct sb_irq_query){ "TLB", set, 3 }, &team, &all, err,
				   sizeof(err));

		if (r < -1 || r > 1 || (r == 1 && team > all))
			abort();
	}
	(void)sb_vmstat_parse(text, "numa_hint_faults", &v, err, sizeof(err));
	(void)sb_vmstat_parse(text, "pgmigrate_success", &v, err, sizeof(err));
	{	/* /proc/stat: steal is part of the total it is a share of */
		struct sb_cpu_ticks t;
		int r = sb_stat_parse(text, "cpu", &t, err, sizeof(err));

		if (r < -1 || r > 1 || (r == 1 && t.steal > t.total && t.has_steal))
			abort();
	}
	free(text);
	return 0;
}
