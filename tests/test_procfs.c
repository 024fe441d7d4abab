/* test_procfs — the /proc/interrupts and /proc/vmstat parsers on recorded
 * text: x86 (with TLB and CAL rows), POWER (no TLB row), offline CPUs
 * (missing columns), malformed lines, and this machine's own files; the
 * recorded files in tests/fixtures/ (x86 with CONFIG_DEBUG_TLBFLUSH, a
 * POWER9 with CPUs 0,4,8,12 online, truncated and malformed copies), and
 * the per-CPU-set sums the counters and the shootdown drivers take deltas of;
 * /proc/stat's steal (stat-*.txt). */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

static char *fixture(const char *name)
{
	char path[512], err[256];
	char *text;

	snprintf(path, sizeof(path), "%s/%s", SB_FIXTURES, name);
	text = sb_proc_slurp(path, err, sizeof(err));
	if (!text) {
		fprintf(stderr, "%s\n", err);
		exit(1);
	}
	return text;
}

static int irq_sum(const char *text, const char *row, const int *cpus, int ncpus,
		   uint64_t *team, uint64_t *all, char *err, size_t errlen)
{
	return sb_irq_sum(text, &(struct sb_irq_query){ row, cpus, ncpus }, team, all, err, errlen);
}

static void test_fixtures(void)
{
	static const int team13[] = { 1, 3 }, p9team[] = { 4, 12 }, offline[] = { 0, 1 };
	char *x86 = fixture("interrupts-x86.txt"), *p9 = fixture("interrupts-power9.txt");
	char *trunc = fixture("interrupts-x86-truncated.txt");
	char *vx = fixture("vmstat-x86.txt"), *vp = fixture("vmstat-power9.txt");
	char *vbad = fixture("vmstat-x86-malformed.txt");
	uint64_t team = 0, all = 0, v = 0;
	char err[256];

	/* x86: the TLB row summed over CPUs 1 and 3, and over all four */
	EXPECT(irq_sum(x86, "TLB", team13, 2, &team, &all, err, sizeof(err)) == 1);
	EXPECT(team == 498001 + 489876 && all == 512331ull + 498001 + 530112 + 489876);
	EXPECT(irq_sum(x86, "CAL", team13, 1, &team, &all, err, sizeof(err)) == 1 &&
	      team == 801122);
	EXPECT(irq_sum(x86, "RES", team13, 0, &team, &all, err, sizeof(err)) == 1 &&
	      team == 0 && all == 4012233ull + 3988121 + 4101101 + 3877321);
	/* a single-count row (ERR) is malformed for a per-CPU sum; PIN parses */
	EXPECT(irq_sum(x86, "ERR", team13, 2, &team, &all, err, sizeof(err)) == -1);
	EXPECT(irq_sum(x86, "PIN", team13, 2, &team, &all, err, sizeof(err)) == 1 && all == 0);
	/* the truncated copy: TLB is malformed (3 of 4 counts), CAL still reads */
	EXPECT(irq_sum(trunc, "TLB", team13, 2, &team, &all, err, sizeof(err)) == -1);
	EXPECT(strstr(err, "TLB") && strstr(err, "3 of 4"));
	EXPECT(irq_sum(trunc, "CAL", team13, 2, &team, &all, err, sizeof(err)) == 1);

	/* POWER9: no TLB row (absent, not 0); CPUs 0,4,8,12 online */
	team = all = 12345;
	EXPECT(irq_sum(p9, "TLB", p9team, 2, &team, &all, err, sizeof(err)) == 0);
	EXPECT(team == 12345 && all == 12345);	/* untouched when absent */
	EXPECT(irq_sum(p9, "CAL", p9team, 2, &team, &all, err, sizeof(err)) == 1 &&
	      team == 30122 + 31002 && all == 31199ull + 30122 + 29988 + 31002);
	EXPECT(irq_sum(p9, "16", p9team, 2, &team, &all, err, sizeof(err)) == 1 &&
	      team == 2987 + 2899);
	/* CPU 1 is offline there: no column, an error naming it */
	EXPECT(irq_sum(p9, "CAL", offline, 2, &team, &all, err, sizeof(err)) == -1);
	EXPECT(strstr(err, "CPU 1") != NULL);
	/* the first of two LOC rows counts */
	EXPECT(irq_sum(p9, "LOC", p9team, 1, &team, &all, err, sizeof(err)) == 1 &&
	      team == 11111111);

	/* vmstat: x86 with CONFIG_DEBUG_TLBFLUSH; POWER9 without nr_tlb_* */
	EXPECT(sb_vmstat_parse(vx, "nr_tlb_remote_flush_received", &v, err, sizeof(err)) == 1 &&
	      v == 26411987);
	EXPECT(sb_vmstat_parse(vx, "nr_tlb_remote_flush", &v, err, sizeof(err)) == 1 &&
	      v == 8812213);
	EXPECT(sb_vmstat_parse(vx, "numa_hint_faults_local", &v, err, sizeof(err)) == 1 &&
	      v == 62270);
	EXPECT(sb_vmstat_parse(vx, "numa_hint_faults", &v, err, sizeof(err)) == 1 && v == 72692);
	EXPECT(sb_vmstat_parse(vp, "nr_tlb_remote_flush", &v, err, sizeof(err)) == 0);
	EXPECT(sb_vmstat_parse(vp, "numa_pages_migrated", &v, err, sizeof(err)) == 1 && v == 92);
	EXPECT(sb_vmstat_parse(vp, "swap_ra", &v, err, sizeof(err)) == 1 && v == 0);
	/* malformed copy: a cut value and a unit suffix are errors naming the field */
	EXPECT(sb_vmstat_parse(vbad, "numa_hint_faults", &v, err, sizeof(err)) == -1 &&
	      strstr(err, "numa_hint_faults"));
	EXPECT(sb_vmstat_parse(vbad, "numa_pages_migrated", &v, err, sizeof(err)) == -1);
	EXPECT(sb_vmstat_parse(vbad, "numa_hint_faults_local", &v, err, sizeof(err)) == 1 &&
	      v == 62270);
	free(x86);
	free(p9);
	free(trunc);
	free(vx);
	free(vp);
	free(vbad);
}

static int irq_pread(int fd, char *buf, size_t cap, const char *row, const int *cpus,
		     int ncpus, uint64_t *counts, int *col, uint64_t *cnt, int max, char *err,
		     size_t errlen)
{
	struct sb_irq_file f = { fd, buf, cap, col, cnt, max };

	return sb_irq_pread(&f, &(struct sb_irq_query){ row, cpus, ncpus }, counts, err, errlen);
}

/* sb_irq_pread: the per-batch reader of the kernel drivers, on the x86
 * text in a file held open (read twice: it reads from offset 0 each time) */
static void test_pread(void)
{
	char path[] = "/tmp/sb_procfs.XXXXXX", buf[4096], small[64], err[256];
	int fd = mkstemp(path), col[8], team[2] = { 3, 1 }, off[2] = { 1, 7 };
	uint64_t cnt[8], c[2];

	EXPECT(fd >= 0 && write(fd, x86, strlen(x86)) == (ssize_t)strlen(x86));
	for (int round = 0; round < 2; round++)
		EXPECT(irq_pread(fd, buf, sizeof(buf), "TLB", team, 2, c, col, cnt, 8, err,
				    sizeof(err)) == 1 && c[0] == 9999999 && c[1] == 1943);
	EXPECT(irq_pread(fd, buf, sizeof(buf), "XYZ", team, 2, c, col, cnt, 8, err,
			    sizeof(err)) == 0);
	EXPECT(irq_pread(fd, buf, sizeof(buf), "TLB", off, 2, c, col, cnt, 8, err,
			    sizeof(err)) == -1 && strstr(err, "CPU 7"));
	/* broken: a buffer too small for the file is an error, never a cut row */
	EXPECT(irq_pread(fd, small, sizeof(small), "TLB", team, 2, c, col, cnt, 8, err,
			    sizeof(err)) == -1 && strstr(err, "larger than"));
	close(fd);
	unlink(path);
}

/* /proc/stat's steal: recorded before/after files where CPU 0 had 24 of its
 * 200 ticks stolen (12 %), CPU 1 none (the machine: 24 of 400, 6 %); a CPU
 * listed twice counts once; a kernel without the steal column (the broken
 * fixture) gives no steal at all, never 0 %; this machine's own file reads. */
static void test_steal(void)
{
	char before[512], after[512], nosteal[512], err[256];
	struct sb_cpu_ticks a, b, c;
	const int cpu0[] = { 0 }, both[] = { 0, 1 }, twice[] = { 0, 0 }, absent[] = { 9 };

	snprintf(before, sizeof(before), "%s/stat-steal-before.txt", SB_FIXTURES);
	snprintf(after, sizeof(after), "%s/stat-steal-after.txt", SB_FIXTURES);
	snprintf(nosteal, sizeof(nosteal), "%s/stat-nosteal.txt", SB_FIXTURES);
	EXPECT(sb_stat_read(before, cpu0, 1, &b, err, sizeof(err)) == 0 && b.has_steal);
	EXPECT(sb_stat_read(after, cpu0, 1, &a, err, sizeof(err)) == 0);
	CHECK(sb_steal_pct(&b, &a) > 11.999 && sb_steal_pct(&b, &a) < 12.001,
	      "CPU 0's steal: %g %%, want 12", sb_steal_pct(&b, &a));
	EXPECT(sb_stat_read(before, twice, 2, &b, err, sizeof(err)) == 0 &&
	       sb_stat_read(after, twice, 2, &a, err, sizeof(err)) == 0);
	CHECK(fabs(sb_steal_pct(&b, &a) - 12) < 0.001, "CPU 0 twice: %g %%, want 12",
	      sb_steal_pct(&b, &a));
	EXPECT(sb_stat_read(before, both, 2, &b, err, sizeof(err)) == 0 &&
	       sb_stat_read(after, both, 2, &a, err, sizeof(err)) == 0);
	CHECK(fabs(sb_steal_pct(&b, &a) - 6) < 0.001, "CPUs 0,1: %g %%, want 6",
	      sb_steal_pct(&b, &a));
	EXPECT(sb_stat_read(before, NULL, 0, &b, err, sizeof(err)) == 0 &&
	       sb_stat_read(after, NULL, 0, &a, err, sizeof(err)) == 0);
	CHECK(fabs(sb_steal_pct(&b, &a) - 6) < 0.001, "the cpu row: %g %%, want 6",
	      sb_steal_pct(&b, &a));
	/* no tick passed: unknown, not 0 % */
	EXPECT(isnan(sb_steal_pct(&a, &a)));
	/* broken fixture: the same CPU without a steal column must not pass as measured */
	EXPECT(sb_stat_read(nosteal, cpu0, 1, &c, err, sizeof(err)) == 0 && !c.has_steal);
	CHECK(isnan(sb_steal_pct(&b, &c)), "no steal column: %g %%, want none",
	      sb_steal_pct(&b, &c));
	EXPECT(sb_stat_read(after, absent, 1, &c, err, sizeof(err)) == -1 && strstr(err, "cpu9"));
	EXPECT(sb_stat_parse("cpu0 1 2 x 4\n", "cpu0", &c, err, sizeof(err)) == -1);
	EXPECT(sb_stat_parse("cpu0 1 2\n", "cpu0", &c, err, sizeof(err)) == -1);
	/* a total past 64 bits is malformed, never wrapped below its steal */
	EXPECT(sb_stat_parse("cpu0 18446744073709551615 0 0 1 0 0 0 5\n", "cpu0", &c, err,
			     sizeof(err)) == -1);
	EXPECT(sb_stat_parse("cpu10 1 2 3 4\n", "cpu1", &c, err, sizeof(err)) == 0);
	CHECK(sb_stat_read(NULL, NULL, 0, &c, err, sizeof(err)) == 0 && c.total > 0,
	      "this machine's /proc/stat: %s", err);
}

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
	{	/* this machine, read now: LOC is per CPU everywhere (absent is 0) */
		int cpu0 = cpus[0];
		uint64_t team = 0, all = 0;

		EXPECT(sb_irq_read("LOC", &cpu0, 0, &team, &all, err, sizeof(err)) >= 0);
		EXPECT(sb_irq_read("NOSUCHROW", &cpu0, 0, &team, &all, err, sizeof(err)) == 0);
	}
	EXPECT(sb_proc_slurp("/proc/no-such-file", err, sizeof(err)) == NULL);
	EXPECT(strstr(err, "no-such-file") != NULL);
	test_fixtures();
	test_pread();
	test_steal();
	return check_done("test_procfs");
}
