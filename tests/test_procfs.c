/* test_procfs — the /proc/interrupts and /proc/vmstat parsers on recorded
 * text: x86 (with TLB and CAL rows), POWER (no TLB row), offline CPUs
 * (missing columns), malformed lines, and this machine's own files. */
#include <stdlib.h>
#include <string.h>

#include "machine/procfs.h"

#include "check.h"

#define EXPECT(cond) CHECK(cond, "%s", "")

static const char x86[] =
	"           CPU0       CPU1       CPU2       CPU3       \n"
	"  0:         44          0          0          0   IO-APIC   2-edge      timer\n"
	"NMI:          0          0          0          0   Non-maskable interrupts\n"
	"LOC:    2468391    2390120    2377011    2401232   Local timer interrupts\n"
	"CAL:      26951      28105       3311       4002   Function call interrupts\n"
	"TLB:       2220       1943         17    9999999   TLB shootdowns\n"
	"ERR:          0\n"
	"MIS:          0\n";

/* POWER9 (ppc64le): no TLB row — tlbie is broadcast in hardware */
static const char power[] =
	"           CPU0       CPU8       \n"
	" 16:       1202        986  XIVE-IPI   0 Edge      IPI\n"
	"LOC:     123456     234567   Local timer interrupts for timer event device\n"
	"BCT:          0          0   Broadcast timer interrupts for timer event device\n"
	"LOC:          9          9   (a second LOC row is never read: the first wins)\n"
	"CAL:        333        444   Function call interrupts\n";

int main(void)
{
	int cpus[8];
	uint64_t counts[8], v;
	char err[256];
	char *text;

	EXPECT(sb_irq_parse(x86, "TLB", cpus, counts, 8, err, sizeof(err)) == 4);
	EXPECT(cpus[0] == 0 && cpus[3] == 3);
	EXPECT(counts[0] == 2220 && counts[1] == 1943 && counts[2] == 17 && counts[3] == 9999999);
	EXPECT(sb_irq_parse(x86, "CAL", cpus, counts, 8, err, sizeof(err)) == 4 &&
	      counts[1] == 28105);
	EXPECT(sb_irq_parse(x86, "0", cpus, counts, 8, err, sizeof(err)) == 4 && counts[0] == 44);
	/* a row prefix is not the row: "TL" is absent, not TLB */
	EXPECT(sb_irq_parse(x86, "TL", cpus, counts, 8, err, sizeof(err)) == 0);
	/* ERR has one count for the machine, not one per CPU: malformed for us */
	EXPECT(sb_irq_parse(x86, "ERR", cpus, counts, 8, err, sizeof(err)) == -1);
	EXPECT(strstr(err, "ERR") != NULL);
	EXPECT(sb_irq_parse(x86, "TLB", cpus, counts, 2, err, sizeof(err)) == -1);

	EXPECT(sb_irq_parse(power, "TLB", cpus, counts, 8, err, sizeof(err)) == 0);
	EXPECT(sb_irq_parse(power, "CAL", cpus, counts, 8, err, sizeof(err)) == 2);
	EXPECT(cpus[0] == 0 && cpus[1] == 8 && counts[1] == 444);
	EXPECT(sb_irq_parse(power, "LOC", cpus, counts, 8, err, sizeof(err)) == 2 &&
	      counts[0] == 123456);

	EXPECT(sb_irq_parse("", "TLB", cpus, counts, 8, err, sizeof(err)) == -1);
	EXPECT(sb_irq_parse("CPU0 CPUx\n", "TLB", cpus, counts, 8, err, sizeof(err)) == -1);
	EXPECT(sb_irq_parse("  CPU0\nTLB: 12x TLB\n", "TLB", cpus, counts, 8, err,
			   sizeof(err)) == -1);
	EXPECT(sb_irq_parse("  CPU0\nTLB: -1 TLB\n", "TLB", cpus, counts, 8, err,
			   sizeof(err)) == -1);

	EXPECT(sb_vmstat_parse("nr_free_pages 5\nnuma_hit 2986749\nnuma_miss 0\n", "numa_hit", &v,
			      err, sizeof(err)) == 1 && v == 2986749);
	EXPECT(sb_vmstat_parse("numa_hit 1\nnuma_miss 0", "numa_miss", &v, err, sizeof(err)) == 1 &&
	      v == 0);
	EXPECT(sb_vmstat_parse("numa_hit_x 1\n", "numa_hit", &v, err, sizeof(err)) == 0);
	EXPECT(sb_vmstat_parse("numa_hit -1\n", "numa_hit", &v, err, sizeof(err)) == -1);
	EXPECT(sb_vmstat_parse("numa_hit 12 13\n", "numa_hit", &v, err, sizeof(err)) == -1);

	/* this machine: the files parse; a row either parses or is absent */
	text = sb_proc_slurp("/proc/interrupts", err, sizeof(err));
	EXPECT(text != NULL);
	EXPECT(sb_irq_parse(text, "LOC", cpus, counts, 8, err, sizeof(err)) >= 0);
	free(text);
	text = sb_proc_slurp("/proc/vmstat", err, sizeof(err));
	EXPECT(text != NULL);
	EXPECT(sb_vmstat_parse(text, "pgfault", &v, err, sizeof(err)) == 1 && v > 0);
	free(text);
	EXPECT(sb_proc_slurp("/proc/no-such-file", err, sizeof(err)) == NULL);
	EXPECT(strstr(err, "no-such-file") != NULL);
	return check_done("test_procfs");
}
