/* lab_hold.c — keeps the guest kernel's perf static keys set, for the lab
 * guest under QEMU's multi-threaded TCG.
 *
 * Opening the first perf event of a kind (a software event, a tracepoint, any
 * per-task event) and closing the last one flips a static key: the kernel
 * patches its text with an int3 (text_poke_bp).  QEMU 7.2's MTTCG lets
 * another vCPU go on running its old translation of the patched bytes: it
 * takes the int3 after the kernel has put the original instruction back,
 * the kernel sees no int3 there and returns to retry, and the vCPU runs the
 * stale int3 again, forever, with interrupts off — the whole guest wedges
 * (the lab saw all four vCPUs cycling between finish_task_switch's
 * cpu-migrations site, asm_exc_int3 and exc_int3, the site holding a nopl).
 * Every stratbench run opens and closes its counters, so the regular suite
 * wedged the guest now and then.
 *
 *   lab_hold             opens one of each perf event the suite can count
 *                        (what `stratbench counters` lists, as stratbench
 *                        opens them: sb_counters_*) in a child that reads
 *                        each once (held means counted) and keeps them open
 *                        for the guest's life, and returns once they are
 *                        open: no key the suite touches flips again.
 *   lab_hold flip SECS   the stress that wedges a guest without the holder:
 *                        opens and closes those events over and over for
 *                        SECS seconds while two yielding threads per CPU
 *                        keep every CPU in finish_task_switch.
 * Prints one line of what it did (and a line for each event that did not
 * count); exit 0, 1 if nothing could be held or an open in flip did not
 * count, 2 for bad usage.
 */
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "machine/counters.h"

#define MAXSPEC 160

static struct sb_counters_spec *spec[MAXSPEC];
static const char *name[MAXSPEC];
static int nspec;

/* tracepoints the lab tests count beyond the known set, where they exist:
 * the POWER drivers' tests count tlbie (tests/lab/driver.sh) */
static const char *const lab_extra[] = { "powerpc:tlbie", NULL };

static void parse_list(const char *const *list);

/* every known counter that is a perf event and is available here, one spec
 * each, and lab_extra's that are available here */
static void parse_known(void)
{
	parse_list(sb_counters_known());
	parse_list(lab_extra);
}

static void parse_list(const char *const *list)
{
	for (const char *const *k = list; *k && nspec < MAXSPEC; k++) {
		struct sb_counters_spec *s;
		char err[256];

		/* vmstat, irq and rusage are read from files: no key */
		if (!strncmp(*k, "vmstat:", 7) || !strncmp(*k, "irq:", 4) || !strncmp(*k, "rusage", 6))
			continue;
		if (sb_counters_parse(*k, &s, err, sizeof(err)))
			continue;
		if (sb_counters_why(s, 0)) {	/* unavailable here (no PMU, ...) */
			sb_counters_spec_free(s);
			continue;
		}
		spec[nspec] = s;
		name[nspec++] = *k;
	}
}

/* Opens spec i on this thread as a benchmark does and reads it once: the set,
 * still open, if the event counted (the kernel took it), else NULL. */
static struct sb_counters *open_counting(int i)
{
	static const int cpu0[1] = { 0 };
	struct sb_counters *c = sb_counters_open(spec[i], 1, cpu0);
	const char *n;
	double v;

	sb_counters_begin(c);
	sb_counters_member_open(0, c);
	sb_counters_member_enter(0, c);
	sb_counters_member_leave(0, c);
	sb_counters_end(c);
	if (sb_counters_result(c, 0, &n, &v))
		return c;
	fprintf(stderr, "lab_hold: %s did not count: %s\n", name[i], sb_counters_label(c));
	sb_counters_close(c);
	return NULL;
}

static void *yielder(void *arg)
{
	for (;;)
		sched_yield();
	return arg;
}

static int flip(int secs)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned long cycles = 0, failed = 0;
	time_t end;

	for (long cpu = 0; cpu < ncpu; cpu++) {
		for (int k = 0; k < 2; k++) {
			pthread_attr_t at;
			pthread_t t;
			cpu_set_t set;

			CPU_ZERO(&set);
			CPU_SET((int)cpu, &set);
			pthread_attr_init(&at);
			pthread_attr_setaffinity_np(&at, sizeof(set), &set);
			if (pthread_create(&t, &at, yielder, NULL)) {
				fprintf(stderr, "lab_hold: cannot start a yielding thread\n");
				return 1;
			}
			pthread_attr_destroy(&at);
		}
	}
	end = time(NULL) + secs;
	while (time(NULL) < end) {
		for (int i = 0; i < nspec; i++) {
			struct sb_counters *c = open_counting(i);

			if (!c)
				failed++;
			sb_counters_close(c);
		}
		cycles++;
	}
	printf("lab_hold: flip: %lu rounds of opening and closing %d perf events in %d s, "
	       "2 yielding threads on each of %ld CPUs; %lu opens did not count\n", cycles, nspec,
	       secs, ncpu, failed);
	return failed ? 1 : 0;
}

static int hold(void)
{
	char held[MAXSPEC];
	int ready[2], n = 0;
	pid_t pid;

	if (pipe(ready))
		return 1;
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		/* the events are attached to this task: it must outlive the command */
		close(ready[0]);
		setsid();
		for (int i = 0; i < nspec; i++)
			held[i] = open_counting(i) != NULL;	/* kept open: never closed */
		if (write(ready[1], held, (size_t)nspec) != nspec)
			_exit(1);
		close(ready[1]);
		for (;;)
			pause();
	}
	close(ready[1]);
	if (read(ready[0], held, (size_t)nspec) != nspec) {
		fprintf(stderr, "lab_hold: the holder died before holding its events\n");
		return 1;
	}
	for (int i = 0; i < nspec; i++)
		n += held[i];
	printf("lab_hold: %d perf events held open for the guest's life by pid %d "
	       "(their static keys stay set):", n, (int)pid);
	for (int i = 0; i < nspec; i++)
		if (held[i])
			printf(" %s", name[i]);
	printf("%s\n", n < nspec ? " (the others did not count, above)" : "");
	return n ? 0 : 1;
}

int main(int argc, char **argv)
{
	int secs = 0;

	if (argc == 3 && !strcmp(argv[1], "flip"))
		secs = atoi(argv[2]);
	if (argc != 1 && secs <= 0) {
		fprintf(stderr, "usage: lab_hold | lab_hold flip SECONDS\n");
		return 2;
	}
	parse_known();
	if (!nspec) {
		fprintf(stderr, "lab_hold: no perf event opens here (not root, or no perf?)\n");
		return 1;
	}
	fflush(stdout);
	return secs ? flip(secs) : hold();
}
