/* test_lock_ordering — under ThreadSanitizer, a lock that is missing one
 * acquire or release is a reported data race on the plain data it protects.
 *
 * The parent runs itself once per lock as a child that hammers the lock from
 * NTHREADS threads around a plain (non-atomic) counter, with TSan set to stop
 * at the first report (exit 66).  Every real lock must run clean (exit 0);
 * every fixture of ordering_locks.c (relaxed unlock; relaxed acquire in lock;
 * in trylock) must be reported (exit 66, "data race" on stderr).  Without
 * TSan the property cannot be observed on x86 — the test says so and exits
 * 77 (skipped); CI's TSan pass runs it. */
#include <pthread.h>
#include <sched.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stratbench/lock.h>

#include "check.h"

#if defined(__SANITIZE_THREAD__)
#define HAVE_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define HAVE_TSAN 1
#endif
#endif

#define NTHREADS 4
#define ITERS 2000		/* per thread; TSan needs handoffs, not volume */
#define TSAN_EXIT 66

extern char **environ;

struct child {
	const struct sb_lock_ops *ops;
	void *state;
	uint64_t plain;		/* the data the lock orders: never atomic */
	int go;
};

static void *child_thread(void *arg)
{
	struct child *c = arg;
	void *node = NULL;

	if (c->ops->node_size) {
		node = aligned_alloc(SB_CACHELINE,
				     (c->ops->node_size + SB_CACHELINE - 1) / SB_CACHELINE *
				     SB_CACHELINE);
		memset(node, 0, c->ops->node_size);
	}
	while (!__atomic_load_n(&c->go, __ATOMIC_ACQUIRE))
		sched_yield();
	for (int i = 0; i < ITERS; i++) {
		if (i & 1) {	/* odd: trylock, so its order is exercised too */
			while (!c->ops->trylock(c->state, node))
				sched_yield();
		} else {
			c->ops->lock(c->state, node);
		}
		c->plain++;
		c->ops->unlock(c->state, node);
		if (i % 4 == 0)
			sched_yield();	/* hand the lock around */
	}
	return node;	/* freed after the lock's fini (CLH nodes migrate) */
}

static int run_child(const char *name)
{
	const struct sb_lock_ops *ops = sb_lock_find(name);
	struct child c = { .ops = ops };
	pthread_t th[NTHREADS];
	void *nodes[NTHREADS];

	if (!ops)
		return 2;
	c.state = aligned_alloc(SB_CACHELINE, (ops->state_size + SB_CACHELINE - 1) /
					      SB_CACHELINE * SB_CACHELINE);
	memset(c.state, 0, ops->state_size);
	if (ops->init && ops->init(c.state))
		return 2;
	for (int i = 0; i < NTHREADS; i++)
		pthread_create(&th[i], NULL, child_thread, &c);
	__atomic_store_n(&c.go, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(th[i], &nodes[i]);
	if (ops->fini)
		ops->fini(c.state);
	for (int i = 0; i < NTHREADS; i++)
		free(nodes[i]);
	free(c.state);
	/* mutual exclusion holds for every lock here: only the order is wrong */
	return c.plain == (uint64_t)NTHREADS * ITERS ? 0 : 1;
}

#ifdef HAVE_TSAN
/* Runs `self --child NAME` with TSan stopping at the first report; returns
 * its exit status and whether its stderr named a data race. */
static int spawn_child(const char *self, const char *name, bool *race)
{
	char log[] = "/tmp/test_lock_ordering.XXXXXX", line[512];
	char *argv[] = { (char *)self, "--child", (char *)name, NULL };
	posix_spawn_file_actions_t fa;
	int fd = mkstemp(log), status = -1;
	pid_t pid;
	FILE *f;

	*race = false;
	if (fd < 0)
		return -1;
	setenv("TSAN_OPTIONS", "halt_on_error=1:exitcode=66", 1);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fd, 2);
	if (posix_spawn(&pid, self, &fa, NULL, argv, environ) == 0)
		waitpid(pid, &status, 0);
	posix_spawn_file_actions_destroy(&fa);
	f = fdopen(fd, "r");
	rewind(f);
	while (fgets(line, sizeof(line), f))
		*race |= strstr(line, "WARNING: ThreadSanitizer: data race") != NULL;
	fclose(f);
	unlink(log);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
#endif

int main(int argc, char **argv)
{
	int n = sb_registry_count(SB_FAMILY_lock, true), real = 0, fixtures = 0;

	if (argc == 3 && strcmp(argv[1], "--child") == 0)
		return run_child(argv[2]);
#ifndef HAVE_TSAN
	(void)n, (void)real, (void)fixtures;
	printf("test_lock_ordering: skipped: only a ThreadSanitizer build can see a missing "
	       "acquire/release on x86 (scripts/test.sh --sanitize=thread runs it)\n");
	return 77;
#else
	for (int i = 0; i < n; i++) {
		const struct sb_registry_entry *e = sb_registry_at(SB_FAMILY_lock, i, true);
		const struct sb_lock_ops *ops = e->desc;
		bool race;
		int rc = spawn_child("/proc/self/exe", ops->name, &race);

		if (ops->test_only) {
			fixtures++;
			CHECK(rc == TSAN_EXIT && race, "%s: a missing order must be a TSan report "
			      "(exit %d, race %s)", ops->name, rc, race ? "reported" : "not reported");
		} else {
			real++;
			CHECK(rc == 0 && !race, "%s: must run clean under TSan (exit %d%s)", ops->name,
			      rc, race ? ", data race reported" : "");
		}
		printf("lock/%s: %s: exit %d, %s\n", ops->name,
		       ops->test_only ? "ordering fixture" : "real lock", rc,
		       race ? "data race reported" : "no report");
	}
	CHECK(fixtures == 3 && real >= 1, "%d fixtures, %d real locks", fixtures, real);
	return check_done("test_lock_ordering");
#endif
}
