/* lab_threads.c — where a running process's threads really are, for the lab
 * tests: `lab_threads PID` watches PID until it exits, every 10 ms stopping
 * it (SIGSTOP, so its spinning team cannot starve the watcher and the
 * snapshot is consistent: it reads only once every thread has stopped, since
 * kill returns before they do and a thread inside sched_setaffinity already
 * shows its new CPU list while /proc still gives its old CPU until the
 * migration is done), reading each thread's allowed CPUs and the CPU it
 * last ran on from /proc, and letting it go on (SIGCONT).  It prints the
 * snapshot with the most distinct single-CPU threads (a new thread inherits
 * its creator's CPU until it binds itself) and, of those, the one with the
 * fewest single-CPU threads: a thread given its CPUs by pthread_attr has its
 * creator's CPU until glibc sets them just after clone, so a snapshot in that
 * window shows a non-member (the deadline watcher) on member 0's CPU.  Lines
 * are "tid allowed last_cpu", in thread-id order, which is creation order.
 * It only reports; the shell test decides.  Exit 0, or 1 if PID never had a
 * readable thread.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAXT 1024

struct snap {
	int n;
	int tid[MAXT];
	char allowed[MAXT][64];
	int cpu[MAXT];
};

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* state letter of pid (or tid under pid), 0 if gone */
static char state_of(const char *path, int *cpu)
{
	char buf[1024], *s;
	FILE *f = fopen(path, "r");
	char st = 0;
	int i;

	if (!f)
		return 0;
	if (fgets(buf, sizeof(buf), f) && (s = strrchr(buf, ')')) && s[1] == ' ') {
		st = s[2];
		/* field 39 (processor) is 36 fields after the state (field 3) */
		for (i = 0, s += 2; s && i < 36; i++)
			s = strchr(s + 1, ' ');
		if (cpu)
			*cpu = s ? atoi(s + 1) : -1;
	}
	fclose(f);
	return st;
}

static void take(int pid, struct snap *sn)
{
	char path[128], line[256];
	int tids[MAXT], nt = 0, i;
	struct dirent *d;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	sn->n = 0;
	dir = opendir(path);
	if (!dir)
		return;
	while ((d = readdir(dir)) && nt < MAXT)
		if (d->d_name[0] >= '0' && d->d_name[0] <= '9')
			tids[nt++] = atoi(d->d_name);
	closedir(dir);
	qsort(tids, nt, sizeof(int), cmp_int);
	for (i = 0; i < nt; i++) {
		FILE *f;
		int k = sn->n;

		snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", pid, tids[i]);
		if (!state_of(path, &sn->cpu[k]))
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%d/status", pid, tids[i]);
		f = fopen(path, "r");
		if (!f)
			continue;
		sn->allowed[k][0] = 0;
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "Cpus_allowed_list: %63s", sn->allowed[k]) == 1)
				break;
		fclose(f);
		if (sn->allowed[k][0]) {
			sn->tid[k] = tids[i];
			sn->n++;
		}
	}
}

/* every thread of pid stopped (or gone); SIGSTOP reaches each thread on its
 * way back to user space, so a thread in a syscall finishes it first */
static bool all_stopped(int pid)
{
	char path[128];
	struct dirent *d;
	bool all = true;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	dir = opendir(path);
	if (!dir)
		return true;
	while (all && (d = readdir(dir))) {
		char st;

		if (d->d_name[0] < '0' || d->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", pid, atoi(d->d_name));
		st = state_of(path, NULL);
		all = !st || strchr("tTZX", st);
	}
	closedir(dir);
	return all;
}

static bool single_cpu(const char *allowed)
{
	return strspn(allowed, "0123456789") == strlen(allowed);
}

/* distinct single-CPU allowed lists; *threads: threads with one CPU */
static int pinned(const struct snap *sn, int *threads)
{
	int i, j, n = 0;

	*threads = 0;
	for (i = 0; i < sn->n; i++) {
		if (!single_cpu(sn->allowed[i]))
			continue;
		++*threads;
		for (j = 0; j < i; j++)
			if (strcmp(sn->allowed[i], sn->allowed[j]) == 0)
				break;
		if (j == i)
			n++;
	}
	return n;
}

int main(int argc, char **argv)
{
	static struct snap best, now;
	struct timespec tick = { 0, 10000000L };	/* 10 ms */
	char path[64];
	int pid, i, bestp = -1, bestt = 0;

	if (argc != 2 || (pid = atoi(argv[1])) <= 0) {
		fprintf(stderr, "usage: lab_threads PID\n");
		return 2;
	}
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	for (;;) {
		char st = state_of(path, NULL);

		if (!st || st == 'Z' || st == 'X')
			break;
		if (kill(pid, SIGSTOP))
			break;
		/* at most about 2 s: a TCG guest's vCPUs take turns */
		for (i = 0; i < 2000 && !all_stopped(pid); i++)
			nanosleep(&(struct timespec){ 0, 1000000L }, NULL);
		take(pid, &now);
		kill(pid, SIGCONT);
		if (now.n) {
			int t, p = pinned(&now, &t);

			if (p > bestp || (p == bestp && t < bestt)) {
				bestp = p;
				bestt = t;
				best = now;
			}
		}
		nanosleep(&tick, NULL);
	}
	for (i = 0; i < best.n; i++)
		printf("%d %s %d\n", best.tid[i], best.allowed[i], best.cpu[i]);
	return best.n ? 0 : 1;
}
