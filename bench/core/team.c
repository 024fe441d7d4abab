/* team.c — pinned members, a generation-counter start barrier, a done count,
 * a watcher thread that raises stop at a round's deadline, and each member's
 * CPU time and context switches over its part of a round. */
#include <stratbench/team.h>

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

/* The deadline watcher (sb_team_run_until): a thread that sleeps on a
 * CLOCK_MONOTONIC condition variable and, if the armed round is still in
 * flight at its due time, raises stop as a member reaching its quota would.
 * Everything here is under mu; member 0 takes it twice per round with a
 * deadline (arm, disarm), outside the timed region, and the members' loops
 * never see it: they watch stop as they always did. */
struct sb_deadline {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	pthread_t thread;
	bool started;			/* member 0 only: the thread exists */
	bool armed;			/* a round with a deadline is in flight */
	bool exit;			/* sb_team_destroy: the watcher returns */
	bool raised;			/* the watcher raised stop in the armed round */
	uint64_t due_ns;		/* sb_now_ns() at which the armed round is cut */
	uint64_t wait_ns;		/* the watcher sleeps until this; UINT64_MAX: untimed */
};

struct sb_member {
	SB_CACHE_ALIGNED uint64_t ops;	/* written by the member, read after done */
	uint64_t end_ns;
	struct sb_member_use use;	/* its thread over its part, this round */
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
	struct sb_member_use *use;	/* result snapshot */
	struct sb_member *m;		/* n members, cache-line padded */
	/* the watcher's line(s): member 0 and the watcher, between rounds */
	SB_CACHE_ALIGNED struct sb_deadline dl;
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

/* This thread's CPU time (what the scheduler, and with paravirtual steal
 * accounting the hypervisor, let it run) and context switches so far into
 * u; false where either cannot be read. */
static bool thread_use(struct sb_member_use *u)
{
	struct timespec ts;
	struct rusage ru;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) || getrusage(RUSAGE_THREAD, &ru))
		return false;
	u->cpu_ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	u->csw_vol = (uint64_t)ru.ru_nvcsw;
	u->csw_inv = (uint64_t)ru.ru_nivcsw;
	return true;
}

static void run_member(struct sb_team *t, struct sb_member *m)
{
	struct sb_round r = { .quota = t->quota, .stop = &t->stop };
	struct sb_member_use u0, u1;
	bool ok;

	if (t->each) {
		t->each(m->tid, t->each_arg);
		return;
	}
	/* around the hooks, so that their counters do not see these two system
	 * calls (a few microseconds each end, against rounds of milliseconds) */
	ok = thread_use(&u0);
	if (t->hooks.enter)
		t->hooks.enter(m->tid, t->hooks.arg);
	m->ops = t->fn(m->tid, &r, t->arg);
	m->end_ns = sb_now_ns();
	if (t->hooks.leave)
		t->hooks.leave(m->tid, t->hooks.arg);
	ok = thread_use(&u1) && ok;
	m->use.ok = ok;
	m->use.cpu_ns = ok ? u1.cpu_ns - u0.cpu_ns : 0;
	m->use.csw_vol = ok ? u1.csw_vol - u0.csw_vol : 0;
	m->use.csw_inv = ok ? u1.csw_inv - u0.csw_inv : 0;
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

static void *watch(void *p)
{
	struct sb_team *t = p;
	struct sb_deadline *w = &t->dl;

	pthread_mutex_lock(&w->mu);
	while (!w->exit) {
		uint64_t now;

		if (!w->armed) {
			w->wait_ns = UINT64_MAX;	/* sb_team_run_until signals */
			pthread_cond_wait(&w->cv, &w->mu);
			continue;
		}
		now = sb_now_ns();
		if (now < w->due_ns) {
			struct timespec ts = { .tv_sec = (time_t)(w->due_ns / 1000000000u),
					       .tv_nsec = (long)(w->due_ns % 1000000000u) };

			/* a later round's due is later unless its limit is
			 * shorter: then arming signals (wait_ns) */
			w->wait_ns = w->due_ns;
			pthread_cond_timedwait(&w->cv, &w->mu, &ts);
			continue;
		}
#ifndef SB_TEST_NO_DEADLINE	/* tests/test_deadline.c's broken fixture */
		{
			int zero = 0;

			/* relaxed: stop carries no data, as a member's raise in
			 * sb_round_over(); a member's raise first wins and the round is
			 * not cut.  Results are published by the team's done count. */
			w->raised = __atomic_compare_exchange_n(&t->stop, &zero, 1, false,
								__ATOMIC_RELAXED, __ATOMIC_RELAXED);
		}
#endif
		w->armed = false;	/* one raise per round */
	}
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

/* 0, or an errno: the watcher is started once, the first time a round has a
 * deadline, on the CPUs the caller had before binding (not member 0's: a
 * convoy must not keep it off its CPU). */
static int watcher_start(struct sb_team *t)
{
	struct sb_deadline *w = &t->dl;
	pthread_condattr_t ca;
	pthread_attr_t a;
	int rc;

	if (w->started)
		return 0;
	rc = pthread_condattr_init(&ca);
	if (rc)
		return rc;
	rc = pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);	/* sb_now_ns()'s clock */
	if (!rc)
		rc = pthread_cond_init(&w->cv, &ca);
	pthread_condattr_destroy(&ca);
	if (rc)
		return rc;
	pthread_mutex_init(&w->mu, NULL);
	w->wait_ns = 0;		/* not waiting yet: it reads the state when it starts */
	rc = pthread_attr_init(&a);
	if (!rc && t->restore)
		rc = pthread_attr_setaffinity_np(&a, sizeof(t->saved), &t->saved);
	if (!rc)
		rc = pthread_create(&w->thread, &a, watch, t);
	pthread_attr_destroy(&a);
	if (rc) {
		pthread_cond_destroy(&w->cv);
		pthread_mutex_destroy(&w->mu);
		return rc;
	}
	w->started = true;
	return 0;
}

static void watcher_stop(struct sb_team *t)
{
	struct sb_deadline *w = &t->dl;

	if (!w->started)
		return;
	pthread_mutex_lock(&w->mu);
	w->exit = true;
	pthread_cond_signal(&w->cv);
	pthread_mutex_unlock(&w->mu);
	pthread_join(w->thread, NULL);
	pthread_cond_destroy(&w->cv);
	pthread_mutex_destroy(&w->mu);
	w->started = false;
}

static void team_free(struct sb_team *t)
{
	if (t->restore)
		pthread_setaffinity_np(pthread_self(), sizeof(t->saved), &t->saved);
	free(t->ops);
	free(t->use);
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
	t->use = calloc(n, sizeof(*t->use));
	if (!t->ops || !t->use) {
		free(t->ops);
		free(t->use);
		free(t->m);
		free(t);
		goto nomem;
	}
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

int sb_team_run_until(struct sb_team *t, uint64_t quota, uint64_t limit_ns,
		      struct sb_team_result *res)
{
	struct sb_deadline *w = &t->dl;
	uint64_t start, last;
	bool raised = false;
	int i, rc;

	if (limit_ns) {
		rc = watcher_start(t);
		if (rc)
			return rc;
	}
	t->quota = quota ? quota : 1;
	__atomic_store_n(&t->stop, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&t->done, 0, __ATOMIC_RELAXED);
	if (limit_ns) {
		/* armed before the clock starts: its cost is not the round's.
		 * The mutex orders the stop reset above before the watcher's
		 * compare-and-swap, so it can only cut this round. */
		pthread_mutex_lock(&w->mu);
		w->due_ns = sb_now_ns() + limit_ns;
		w->armed = true;
		w->raised = false;
		if (w->due_ns < w->wait_ns)	/* idle, or asleep past this due */
			pthread_cond_signal(&w->cv);
		pthread_mutex_unlock(&w->mu);
	}
	start = sb_now_ns();
	round_trip(t);
	if (limit_ns) {
		/* after this, the watcher cannot touch stop until the next arm */
		pthread_mutex_lock(&w->mu);
		raised = w->raised;
		w->armed = false;
		pthread_mutex_unlock(&w->mu);
	}
	last = start;
	res->total_ops = 0;
	res->max_ops = 0;
	for (i = 0; i < t->n; i++) {
		if (t->m[i].end_ns > last)
			last = t->m[i].end_ns;
		t->ops[i] = t->m[i].ops;
		t->use[i] = t->m[i].use;
		res->total_ops += t->m[i].ops;
		if (t->m[i].ops > res->max_ops)
			res->max_ops = t->m[i].ops;
	}
	res->elapsed_ns = last - start;
	res->ops = t->ops;
	res->use = t->use;
	/* a member that ignores stop (calibrate/c2c) finishes its quota anyway:
	 * then the deadline cut nothing */
	res->cut = raised && res->max_ops < t->quota;
	return 0;
}

void sb_team_run(struct sb_team *t, uint64_t quota, struct sb_team_result *res)
{
	(void)sb_team_run_until(t, quota, 0, res);	/* no deadline: cannot fail */
}

void sb_team_destroy(struct sb_team *t)
{
	if (!t)
		return;
	watcher_stop(t);
	stop_workers(t, t->n - 1);
	team_free(t);
}

int sb_team_size(const struct sb_team *t)
{
	return t->n;
}
