/* team.c — pinned members, a generation-counter start barrier, a done count. */
#include <stratbench/team.h>

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sb_member {
	SB_CACHE_ALIGNED uint64_t ops;	/* written by the member, read after done */
	uint64_t end_ns;
	int bind_status;		/* 0 ok, else errno-like; -2 wrong CPU */
	int seen_cpu;
	pthread_t thread;
	struct sb_team *team;
	int tid;
};

struct sb_team {
	/* control line: written by member 0 once per round, read by all */
	SB_CACHE_ALIGNED unsigned gen;	/* bumped to start a round */
	int exit;			/* set with a gen bump to end the workers */
	uint64_t quota;
	struct sb_team_hooks hooks;	/* optional, around each member's fn */
	void (*each)(int tid, void *arg);	/* non-NULL: this "round" runs each */
	void *each_arg;
	/* stop line: raised by the first member to reach its quota */
	SB_CACHE_ALIGNED int stop;
	/* done line: workers check in here */
	SB_CACHE_ALIGNED unsigned done;
	unsigned ready;
	int n;
	sb_team_fn fn;
	void *arg;
	const int *cpus;
	cpu_set_t saved;		/* caller's affinity, restored on destroy */
	bool restore;
	uint64_t *ops;			/* result snapshot */
	struct sb_member *m;		/* n members, cache-line padded */
};

static int bind_self(struct sb_member *m)
{
	cpu_set_t set;
	int cpu = m->team->cpus[m->tid], rc;

	if (cpu < 0 || cpu >= CPU_SETSIZE)
		return EINVAL;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	rc = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (rc)
		return rc;
	m->seen_cpu = sched_getcpu();
	return m->seen_cpu == cpu ? 0 : -2;
}

/* Why member i is not bound as planned (rc: bind_self's). */
static void bind_error(const struct sb_team *t, int i, int rc, char *err, size_t errlen)
{
	if (rc == -2)
		snprintf(err, errlen, "thread %d bound to CPU %d but runs on CPU %d", i, t->cpus[i],
			 t->m[i].seen_cpu);
	else
		snprintf(err, errlen, "cannot bind thread %d to CPU %d: %s", i, t->cpus[i],
			 strerror(rc));
}

static void run_member(struct sb_team *t, struct sb_member *m)
{
	struct sb_round r = { .quota = t->quota, .stop = &t->stop };

	if (t->each) {
		t->each(m->tid, t->each_arg);
		return;
	}
	if (t->hooks.enter)
		t->hooks.enter(m->tid, t->hooks.arg);
	m->ops = t->fn(m->tid, &r, t->arg);
	m->end_ns = sb_now_ns();
	if (t->hooks.leave)
		t->hooks.leave(m->tid, t->hooks.arg);
}

static void *worker(void *p)
{
	struct sb_member *m = p;
	struct sb_team *t = m->team;
	unsigned gen = 0;

	m->bind_status = t->cpus ? bind_self(m) : 0;
	/* release: publishes bind_status to the creator */
	__atomic_fetch_add(&t->ready, 1, __ATOMIC_RELEASE);
	for (;;) {
		/* acquire: pairs with the release bump, so quota/stop/exit are seen */
		while (__atomic_load_n(&t->gen, __ATOMIC_ACQUIRE) == gen)
			sb_cpu_relax();
		gen++;
		if (__atomic_load_n(&t->exit, __ATOMIC_RELAXED))
			return NULL;
		run_member(t, m);
		/* release: publishes ops/end_ns (and the fn's own results) to member 0 */
		__atomic_fetch_add(&t->done, 1, __ATOMIC_RELEASE);
	}
}

static void stop_workers(struct sb_team *t, int started)
{
	__atomic_store_n(&t->exit, 1, __ATOMIC_RELAXED);
	/* release: orders the exit flag before the bump the workers wait on */
	__atomic_fetch_add(&t->gen, 1, __ATOMIC_RELEASE);
	for (int i = 1; i <= started; i++)
		pthread_join(t->m[i].thread, NULL);
}

static void team_free(struct sb_team *t)
{
	if (t->restore)
		pthread_setaffinity_np(pthread_self(), sizeof(t->saved), &t->saved);
	free(t->ops);
	free(t->m);
	free(t);
}

struct sb_team *sb_team_create(int n, const int *cpus, sb_team_fn fn, void *arg,
			       char *err, size_t errlen)
{
	struct sb_team *t;
	int i, rc;

	if (n < 1) {
		snprintf(err, errlen, "team needs at least one thread (got %d)", n);
		return NULL;
	}
	if (posix_memalign((void **)&t, SB_CACHELINE, sizeof(*t)))
		goto nomem;
	memset(t, 0, sizeof(*t));
	if (posix_memalign((void **)&t->m, SB_CACHELINE, sizeof(*t->m) * n)) {
		free(t);
		goto nomem;
	}
	memset(t->m, 0, sizeof(*t->m) * n);
	t->ops = calloc(n, sizeof(*t->ops));
	t->n = n;
	t->fn = fn;
	t->arg = arg;
	t->cpus = cpus;
	for (i = 0; i < n; i++) {
		t->m[i].team = t;
		t->m[i].tid = i;
	}
	if (cpus) {
		t->restore = pthread_getaffinity_np(pthread_self(), sizeof(t->saved), &t->saved) == 0;
		/* A thread may widen its own affinity, so binding would silently
		 * override a `taskset` given to the whole process: refuse instead. */
		for (i = 0; t->restore && i < n; i++)
			if (cpus[i] >= 0 && cpus[i] < CPU_SETSIZE && !CPU_ISSET(cpus[i], &t->saved)) {
				snprintf(err, errlen, "CPU %d (thread %d) is outside this process's "
					 "CPU affinity (taskset or cpuset): the plan needs it", cpus[i],
					 i);
				goto fail;
			}
		rc = bind_self(&t->m[0]);
		if (rc) {
			bind_error(t, 0, rc, err, errlen);
			goto fail;
		}
	}
	for (i = 1; i < n; i++) {
		rc = pthread_create(&t->m[i].thread, NULL, worker, &t->m[i]);
		if (rc) {
			snprintf(err, errlen, "cannot create thread %d: %s", i, strerror(rc));
			stop_workers(t, i - 1);
			goto fail;
		}
	}
	/* acquire: pairs with each worker's release after binding */
	while (__atomic_load_n(&t->ready, __ATOMIC_ACQUIRE) != (unsigned)(n - 1))
		sb_cpu_relax();
	for (i = 1; i < n; i++)
		if (t->m[i].bind_status) {	/* 0 for unpinned members (worker) */
			bind_error(t, i, t->m[i].bind_status, err, errlen);
			stop_workers(t, n - 1);
			goto fail;
		}
	return t;
fail:
	team_free(t);
	return NULL;
nomem:
	snprintf(err, errlen, "out of memory creating a team of %d", n);
	return NULL;
}

/* Releases every member into one round and waits until all are done. */
static void round_trip(struct sb_team *t)
{
	/* release: quota/stop/done resets (or each) are visible before any worker starts */
	__atomic_fetch_add(&t->gen, 1, __ATOMIC_RELEASE);
	run_member(t, &t->m[0]);
	/* acquire: pairs with each worker's release of its results */
	while (__atomic_load_n(&t->done, __ATOMIC_ACQUIRE) != (unsigned)(t->n - 1))
		sb_cpu_relax();
}

void sb_team_set_hooks(struct sb_team *t, const struct sb_team_hooks *h)
{
	static const struct sb_team_hooks none;

	/* published to the workers by the next round's release bump */
	t->hooks = h ? *h : none;
}

void sb_team_each(struct sb_team *t, void (*fn)(int tid, void *arg), void *arg)
{
	t->each = fn;
	t->each_arg = arg;
	__atomic_store_n(&t->done, 0, __ATOMIC_RELAXED);
	round_trip(t);
	t->each = NULL;
}

void sb_team_run(struct sb_team *t, uint64_t quota, struct sb_team_result *res)
{
	uint64_t start, last;
	int i;

	t->quota = quota ? quota : 1;
	__atomic_store_n(&t->stop, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&t->done, 0, __ATOMIC_RELAXED);
	start = sb_now_ns();
	round_trip(t);
	last = start;
	res->total_ops = 0;
	for (i = 0; i < t->n; i++) {
		if (t->m[i].end_ns > last)
			last = t->m[i].end_ns;
		t->ops[i] = t->m[i].ops;
		res->total_ops += t->m[i].ops;
	}
	res->elapsed_ns = last - start;
	res->ops = t->ops;
}

void sb_team_destroy(struct sb_team *t)
{
	if (!t)
		return;
	stop_workers(t, t->n - 1);
	team_free(t);
}

int sb_team_size(const struct sb_team *t)
{
	return t->n;
}
