/* test_lock_conformance.c — every registered lock, test_only fixtures too:
 * mutual exclusion (lock and trylock), trylock semantics, progress, FIFO for
 * locks that declare `fair`, the benchmark's timed loop, and cache-line
 * padding.  test_only locks are broken fixtures (tests/broken_locks.c): for
 * them the mutual exclusion check must FAIL, which shows it can.
 *
 * Threads are unpinned and may outnumber CPUs (CI has 2), so every waiting
 * loop of the test's own yields; the locks themselves only sb_cpu_relax().
 * Shared test data are relaxed atomics, so a broken lock's race is a counted
 * failure, never a TSan report — except `plain`: real locks also protect a
 * plain (non-atomic) counter, so under TSan a lock whose lock/trylock lacks
 * acquire or whose unlock lacks release is a reported data race (x86 and
 * qemu-user run strongly ordered: nothing else would see it).  The broken
 * fixtures, whose mutual exclusion fails on purpose, never touch it. */
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <stratbench/lock.h>
#include <stratbench/window.h>

#include "check.h"

#define NTHREADS	4			/* > CPUs on CI: spinning oversubscribed */
#define NNODES		(NTHREADS + 2)
#define ME_ITERS	(SLOW == 2 ? 2000u : SLOW ? 10000u : 20000u)	/* per thread */
#define ME_CAP_NS	(SLOW ? 8000000000ull : 4000000000ull)	/* per run */
#define BROKEN_TRIES	12			/* rounds to catch a broken lock, */
#define BROKEN_SECONDS	(SLOW ? 120u : 30u)		/* and more while time is left */
#define PROG_ITERS	(SLOW ? 100u : 500u)
#define PROG_BOUND_NS	(SLOW ? 20000000000ull : 2000000000ull)	/* one acquisition */
#define FIFO_WAITERS	4
#define FIFO_SETTLE_NS	(SLOW ? 20000000ull : 2000000ull)	/* after it is queued */
#define FIFO_QUEUE_NS	(SLOW ? 10000000000ull : 2000000000ull)	/* to see it queue */
#define LOOP_QUOTA	(SLOW == 2 ? 2000u : SLOW ? 10000u : 20000u)
#define CRIT_WORK	20u			/* widens a broken lock's overlap */
#define PAR_WORK	20u
#define YIELD_EVERY	(SLOW ? 1u : 4u)		/* acquisitions between yields */
#define WATCHDOG_S	(SLOW ? 600u : 120u)		/* per phase */

/* A lock that hangs names itself (check.h's watchdog). */
static void set_phase(const char *lock, const char *what)
{
	check_phase("lock/%s: %s", lock, what);
}

/* ---- helpers */

static size_t round_up(size_t n, size_t a)
{
	return (n + a - 1) / a * a;
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000u),
			       .tv_nsec = (long)(ns % 1000000000u) };

	while (nanosleep(&ts, &ts))
		;
}

/* A lock instance with its per-thread nodes, allocated as the harness does. */
struct inst {
	const struct sb_lock_ops *ops;
	void *state;
	void *nodes[NNODES];
};

static bool inst_new(struct inst *in, const struct sb_lock_ops *ops)
{
	size_t align = ops->state_align > SB_CACHELINE ? ops->state_align : SB_CACHELINE;
	int i;

	memset(in, 0, sizeof(*in));
	in->ops = ops;
	in->state = aligned_alloc(align, round_up(ops->state_size, align));
	memset(in->state, 0, ops->state_size);
	for (i = 0; i < NNODES && ops->node_size; i++) {
		in->nodes[i] = aligned_alloc(SB_CACHELINE, round_up(ops->node_size, SB_CACHELINE));
		memset(in->nodes[i], 0, ops->node_size);
	}
	if (ops->init && ops->init(in->state)) {
		CHECK(false, "%s: init failed", ops->name);
		return false;
	}
	return true;
}

/* Nodes and state go together, after fini (CLH nodes migrate between them). */
static void inst_free(struct inst *in)
{
	int i;

	if (in->ops->fini)
		in->ops->fini(in->state);
	for (i = 0; i < NNODES; i++)
		free(in->nodes[i]);
	free(in->state);
}

/* Relaxed byte-wise copy of the lock words (other threads write them atomically). */
static void snapshot(const struct inst *in, unsigned char *buf)
{
	size_t i;

	for (i = 0; i < in->ops->state_size; i++)
		buf[i] = __atomic_load_n((unsigned char *)in->state + i, __ATOMIC_RELAXED);
}

static bool state_equals(const struct inst *in, const unsigned char *buf)
{
	size_t i;

	for (i = 0; i < in->ops->state_size; i++)
		if (buf[i] != __atomic_load_n((unsigned char *)in->state + i, __ATOMIC_RELAXED))
			return false;
	return true;
}

static void start_gate(int *ready, const int *go)
{
	__atomic_fetch_add(ready, 1, __ATOMIC_RELAXED);
	while (!__atomic_load_n(go, __ATOMIC_ACQUIRE))
		sched_yield();
}

static void open_gate(int *ready, int *go, int n)
{
	while (__atomic_load_n(ready, __ATOMIC_RELAXED) < n)
		sched_yield();
	__atomic_store_n(go, 1, __ATOMIC_RELEASE);
}

/* Spin on trylock as the benchmark's --trylock does, yielding now and then. */
static void trylock_spin(const struct inst *in, void *node)
{
	unsigned n = 0;

	while (!in->ops->trylock(in->state, node)) {
		sb_cpu_relax();
		if (++n % 64 == 0)
			sched_yield();
	}
}

/* ---- per-lock checks report into a context: counted CHECKs for real locks,
 * silently tallied for broken fixtures (whose failures are the point). */

struct ctx {
	const struct sb_lock_ops *ops;
	bool broken;
	int fails;
};

#define LCHECK(c, cond, ...)							\
	do {									\
		if ((c)->broken) {						\
			if (!(cond))						\
				(c)->fails++;					\
		} else {							\
			CHECK(cond, __VA_ARGS__);				\
		}								\
	} while (0)

/* ---- mutual exclusion: a relaxed load+store counter and an `inside` flag */

struct me_shared {
	struct inst *in;
	bool mixed;			/* odd iterations acquire by trylock */
	uint64_t deadline;
	SB_CACHE_ALIGNED int ready, go;
	SB_CACHE_ALIGNED uint64_t counter;
	uint64_t plain;			/* non-atomic: only the lock orders it */
	int inside;
	SB_CACHE_ALIGNED uint64_t overlaps;
	uint64_t handoffs;		/* acquisitions after another thread's */
	int last;			/* last holder */
};

struct me_worker {
	SB_CACHE_ALIGNED pthread_t th;
	struct me_shared *sh;
	void *node;
	int id;
	uint64_t done;
	bool capped;
};

static void *me_thread(void *arg)
{
	struct me_worker *w = arg;
	struct me_shared *sh = w->sh;
	const struct inst *in = sh->in;
	unsigned i;

	start_gate(&sh->ready, &sh->go);
	for (i = 0; i < ME_ITERS; i++) {
		uint64_t c;

		if (i % 256 == 0 && sb_now_ns() > sh->deadline) {
			w->capped = true;
			break;
		}
		if (sh->mixed && (i & 1))
			trylock_spin(in, w->node);
		else
			in->ops->lock(in->state, w->node);
		if (__atomic_exchange_n(&sh->inside, 1, __ATOMIC_RELAXED))
			__atomic_fetch_add(&sh->overlaps, 1, __ATOMIC_RELAXED);
		/* relaxed load + store: a lost update if two are inside at once */
		if (__atomic_exchange_n(&sh->last, w->id, __ATOMIC_RELAXED) != w->id)
			__atomic_fetch_add(&sh->handoffs, 1, __ATOMIC_RELAXED);
		c = __atomic_load_n(&sh->counter, __ATOMIC_RELAXED);
		if (!in->ops->test_only)
			sh->plain++;
		sb_work(CRIT_WORK);
		__atomic_store_n(&sh->counter, c + 1, __ATOMIC_RELAXED);
		__atomic_store_n(&sh->inside, 0, __ATOMIC_RELAXED);
		in->ops->unlock(in->state, w->node);
		sb_work(PAR_WORK);
		w->done++;
		/*
		 * Yield outside the lock: with more threads than CPUs, a fair
		 * spin lock handed to a preempted waiter stalls everyone for a
		 * time slice; threads that give up the CPU here are not queued.
		 */
		if (i % YIELD_EVERY == 0 && !in->ops->test_only)	/* broken: keep overlapping */
			sched_yield();
	}
	return NULL;
}

/* One run; returns true if it saw mutual exclusion hold. */
static bool me_run(struct ctx *c, bool mixed)
{
	struct me_shared *sh = aligned_alloc(SB_CACHELINE, sizeof(*sh));
	struct me_worker *w = aligned_alloc(SB_CACHELINE, sizeof(*w) * NTHREADS);
	struct inst in;
	uint64_t total = 0, t0;
	bool capped = false, ok;
	int i;

	memset(sh, 0, sizeof(*sh));
	memset(w, 0, sizeof(*w) * NTHREADS);
	if (!inst_new(&in, c->ops)) {
		free(w);
		free(sh);
		return false;
	}
	sh->in = &in;
	sh->mixed = mixed;
	sh->last = -1;
	t0 = sb_now_ns();
	sh->deadline = t0 + ME_CAP_NS;
	for (i = 0; i < NTHREADS; i++) {
		w[i].sh = sh;
		w[i].node = in.nodes[i];
		w[i].id = i;
		CHECK(pthread_create(&w[i].th, NULL, me_thread, &w[i]) == 0, "pthread_create");
	}
	open_gate(&sh->ready, &sh->go, NTHREADS);
	for (i = 0; i < NTHREADS; i++) {
		pthread_join(w[i].th, NULL);
		total += w[i].done;
		capped |= w[i].capped;
	}
	ok = sh->overlaps == 0 && sh->counter == total;
	LCHECK(c, sh->overlaps == 0, "%s%s: %llu acquisitions found another holder inside",
	       c->ops->name, mixed ? " (trylock)" : "", (unsigned long long)sh->overlaps);
	LCHECK(c, sh->counter == total, "%s%s: counter %llu != %llu acquisitions (lost updates)",
	       c->ops->name, mixed ? " (trylock)" : "", (unsigned long long)sh->counter,
	       (unsigned long long)total);
	if (!c->broken)
		CHECK(sh->plain == total, "%s%s: plain counter %llu != %llu acquisitions",
		      c->ops->name, mixed ? " (trylock)" : "", (unsigned long long)sh->plain,
		      (unsigned long long)total);
	for (i = 0; i < NTHREADS; i++)
		LCHECK(c, w[i].done > 0, "%s: thread %d never acquired", c->ops->name, i);
	if (!c->broken)
		printf("lock/%s: mutual exclusion%s: %llu acquisitions by %d threads "
		       "(%.0f%% after another holder) in %.0f ms%s\n",
		       c->ops->name, mixed ? " (lock+trylock)" : "", (unsigned long long)total,
		       NTHREADS, total ? 100.0 * (double)sh->handoffs / (double)total : 0.0,
		       (double)(sb_now_ns() - t0) / 1e6,
		       capped ? " (time cap reached)" : "");
	inst_free(&in);
	free(w);
	free(sh);
	return ok;
}

/* ---- trylock semantics, with an agent thread obeying main */

enum { AG_NONE, AG_LOCK, AG_TRYLOCK, AG_UNLOCK, AG_EXIT };

struct agent {
	struct inst *in;
	void *node;
	pthread_t th;
	SB_CACHE_ALIGNED int cmd, seq, done_seq, result;
};

static void *agent_thread(void *arg)
{
	struct agent *a = arg;
	int seen = 0;

	for (;;) {
		int seq, cmd, r = 0;

		while ((seq = __atomic_load_n(&a->seq, __ATOMIC_ACQUIRE)) == seen)
			sched_yield();
		seen = seq;
		cmd = __atomic_load_n(&a->cmd, __ATOMIC_RELAXED);
		if (cmd == AG_EXIT)
			return NULL;
		if (cmd == AG_LOCK)
			a->in->ops->lock(a->in->state, a->node);
		else if (cmd == AG_TRYLOCK)
			r = a->in->ops->trylock(a->in->state, a->node);
		else if (cmd == AG_UNLOCK)
			a->in->ops->unlock(a->in->state, a->node);
		__atomic_store_n(&a->result, r, __ATOMIC_RELAXED);
		/* release: what the lock call wrote happens before main reads it */
		__atomic_store_n(&a->done_seq, seq, __ATOMIC_RELEASE);
	}
}

/* Run cmd on the agent and wait for it (the watchdog bounds a hang). */
static int agent_do(struct agent *a, int cmd)
{
	int seq = __atomic_load_n(&a->seq, __ATOMIC_RELAXED) + 1;

	__atomic_store_n(&a->cmd, cmd, __ATOMIC_RELAXED);
	__atomic_store_n(&a->seq, seq, __ATOMIC_RELEASE);
	if (cmd == AG_EXIT)
		return 0;
	while (__atomic_load_n(&a->done_seq, __ATOMIC_ACQUIRE) != seq)
		sched_yield();
	return __atomic_load_n(&a->result, __ATOMIC_RELAXED);
}

static void check_trylock(struct ctx *c)
{
	const char *n = c->ops->name;
	unsigned char *before = malloc(c->ops->state_size);
	struct agent *a = aligned_alloc(SB_CACHELINE, sizeof(*a));
	struct inst in;
	void *st, *m0, *m1;
	bool r;

	memset(a, 0, sizeof(*a));
	if (!inst_new(&in, c->ops)) {
		free(a);
		free(before);
		return;
	}
	st = in.state;
	m0 = in.nodes[0];
	m1 = in.nodes[1];	/* main's second node: m0 is busy while main holds */
	a->in = &in;
	a->node = in.nodes[2];
	CHECK(pthread_create(&a->th, NULL, agent_thread, a) == 0, "pthread_create");

	/* free: trylock succeeds; held by trylock: another's trylock fails */
	r = c->ops->trylock(st, m0);
	LCHECK(c, r, "%s: trylock on a free lock failed", n);
	LCHECK(c, !agent_do(a, AG_TRYLOCK), "%s: trylock succeeded while main held it (trylock)", n);
	c->ops->unlock(st, m0);

	/* held by another thread: trylock fails and leaves the words unchanged */
	LCHECK(c, agent_do(a, AG_TRYLOCK), "%s: agent's trylock on a free lock failed", n);
	snapshot(&in, before);
	r = c->ops->trylock(st, m0);
	LCHECK(c, !r, "%s: trylock succeeded while another thread held it", n);
	LCHECK(c, state_equals(&in, before), "%s: a failing trylock changed the lock words", n);
	agent_do(a, AG_UNLOCK);
	if (r)
		c->ops->unlock(st, m0);

	/* held by main itself (lock): trylock fails, also from another thread */
	c->ops->lock(st, m0);
	snapshot(&in, before);
	r = c->ops->trylock(st, m1);
	LCHECK(c, !r, "%s: trylock succeeded while this thread held it", n);
	LCHECK(c, state_equals(&in, before), "%s: a failing trylock changed the lock words", n);
	LCHECK(c, !agent_do(a, AG_TRYLOCK), "%s: agent's trylock succeeded while main held it", n);
	LCHECK(c, state_equals(&in, before), "%s: another's failing trylock changed the words", n);
	if (r)
		c->ops->unlock(st, m1);
	c->ops->unlock(st, m0);

	/* after failed trylocks, lock and trylock still work on both sides */
	agent_do(a, AG_LOCK);
	LCHECK(c, !c->ops->trylock(st, m0), "%s: trylock succeeded while agent held it (lock)", n);
	agent_do(a, AG_UNLOCK);
	c->ops->lock(st, m0);
	c->ops->unlock(st, m0);
	r = c->ops->trylock(st, m0);
	LCHECK(c, r, "%s: trylock after lock/unlock failed", n);
	if (r)
		c->ops->unlock(st, m0);
	LCHECK(c, agent_do(a, AG_TRYLOCK), "%s: agent's trylock after main's unlock failed", n);
	agent_do(a, AG_UNLOCK);
	agent_do(a, AG_LOCK);
	agent_do(a, AG_UNLOCK);

	agent_do(a, AG_EXIT);
	pthread_join(a->th, NULL);
	inst_free(&in);
	free(a);
	free(before);
}

/* ---- progress: every thread acquires within a bound */

struct prog_shared {
	struct inst *in;
	SB_CACHE_ALIGNED int ready, go;
};

struct prog_worker {
	SB_CACHE_ALIGNED pthread_t th;
	struct prog_shared *sh;
	void *node;
	uint64_t done, max_wait_ns;
};

static void *prog_thread(void *arg)
{
	struct prog_worker *w = arg;
	const struct inst *in = w->sh->in;
	unsigned i;

	start_gate(&w->sh->ready, &w->sh->go);
	for (i = 0; i < PROG_ITERS; i++) {
		uint64_t t0 = sb_now_ns(), dt;

		in->ops->lock(in->state, w->node);
		dt = sb_now_ns() - t0;
		if (dt > w->max_wait_ns)
			w->max_wait_ns = dt;
		sb_work(200);		/* hold briefly */
		in->ops->unlock(in->state, w->node);
		w->done++;
		sched_yield();		/* let preempted waiters run on few CPUs */
	}
	return NULL;
}

static void check_progress(struct ctx *c)
{
	struct prog_shared *sh = aligned_alloc(SB_CACHELINE, sizeof(*sh));
	struct prog_worker *w = aligned_alloc(SB_CACHELINE, sizeof(*w) * NTHREADS);
	uint64_t worst = 0;
	struct inst in;
	int i;

	memset(sh, 0, sizeof(*sh));
	memset(w, 0, sizeof(*w) * NTHREADS);
	if (!inst_new(&in, c->ops)) {
		free(w);
		free(sh);
		return;
	}
	sh->in = &in;
	for (i = 0; i < NTHREADS; i++) {
		w[i].sh = sh;
		w[i].node = in.nodes[i];
		CHECK(pthread_create(&w[i].th, NULL, prog_thread, &w[i]) == 0, "pthread_create");
	}
	open_gate(&sh->ready, &sh->go, NTHREADS);
	for (i = 0; i < NTHREADS; i++) {
		pthread_join(w[i].th, NULL);
		LCHECK(c, w[i].done == PROG_ITERS, "%s: thread %d acquired %llu of %u times",
		       c->ops->name, i, (unsigned long long)w[i].done, PROG_ITERS);
		LCHECK(c, w[i].max_wait_ns < PROG_BOUND_NS, "%s: thread %d waited %.3f s > %.3f s",
		       c->ops->name, i, (double)w[i].max_wait_ns / 1e9, (double)PROG_BOUND_NS / 1e9);
		if (w[i].max_wait_ns > worst)
			worst = w[i].max_wait_ns;
	}
	printf("lock/%s: progress: %d threads x %u acquisitions, longest wait %.3f ms\n",
	       c->ops->name, NTHREADS, PROG_ITERS, (double)worst / 1e6);
	inst_free(&in);
	free(w);
	free(sh);
}

/* ---- FIFO: waiters queue one at a time behind main; they must be served in
 * that order.  "Queued" is observed, not assumed: a fair lock must record an
 * arrival in its shared words (a ticket, a tail), so main waits for the words
 * to change after each start, then a little longer. */

struct fifo_shared {
	struct inst *in;
	SB_CACHE_ALIGNED int seq;
	int order[FIFO_WAITERS];
};

struct fifo_waiter {
	SB_CACHE_ALIGNED pthread_t th;
	struct fifo_shared *sh;
	void *node;
	int idx, arrived;
};

static void *fifo_thread(void *arg)
{
	struct fifo_waiter *w = arg;
	const struct inst *in = w->sh->in;
	int pos;

	__atomic_store_n(&w->arrived, 1, __ATOMIC_RELEASE);
	in->ops->lock(in->state, w->node);
	pos = __atomic_fetch_add(&w->sh->seq, 1, __ATOMIC_RELAXED);
	if (pos < FIFO_WAITERS)
		__atomic_store_n(&w->sh->order[pos], w->idx, __ATOMIC_RELAXED);
	sb_work(100);
	in->ops->unlock(in->state, w->node);
	return NULL;
}

static void check_fifo(struct ctx *c)
{
	struct fifo_shared *sh = aligned_alloc(SB_CACHELINE, sizeof(*sh));
	struct fifo_waiter *w = aligned_alloc(SB_CACHELINE, sizeof(*w) * FIFO_WAITERS);
	unsigned char *before = malloc(c->ops->state_size);
	int i, unobserved = 0, in_order = 0;
	struct inst in;

	memset(sh, 0, sizeof(*sh));
	memset(w, 0, sizeof(*w) * FIFO_WAITERS);
	if (!inst_new(&in, c->ops)) {
		free(before);
		free(w);
		free(sh);
		return;
	}
	sh->in = &in;
	for (i = 0; i < FIFO_WAITERS; i++)
		sh->order[i] = -1;
	c->ops->lock(in.state, in.nodes[FIFO_WAITERS]);
	for (i = 0; i < FIFO_WAITERS; i++) {
		uint64_t t0;

		w[i].sh = sh;
		w[i].node = in.nodes[i];
		w[i].idx = i;
		snapshot(&in, before);
		CHECK(pthread_create(&w[i].th, NULL, fifo_thread, &w[i]) == 0, "pthread_create");
		while (!__atomic_load_n(&w[i].arrived, __ATOMIC_ACQUIRE))
			sched_yield();
		t0 = sb_now_ns();
		while (state_equals(&in, before) && sb_now_ns() - t0 < FIFO_QUEUE_NS)
			sched_yield();
		unobserved += state_equals(&in, before);
		sleep_ns(FIFO_SETTLE_NS);
	}
	c->ops->unlock(in.state, in.nodes[FIFO_WAITERS]);
	for (i = 0; i < FIFO_WAITERS; i++)
		pthread_join(w[i].th, NULL);
	LCHECK(c, unobserved == 0, "%s: %d waiters never showed in the lock words", c->ops->name,
	       unobserved);
	for (i = 0; i < FIFO_WAITERS; i++)
		in_order += sh->order[i] == i;
	LCHECK(c, in_order == FIFO_WAITERS, "%s: FIFO: served %d,%d,%d,%d for arrivals 0,1,2,3",
	       c->ops->name, sh->order[0], sh->order[1], sh->order[2], sh->order[3]);
	printf("lock/%s: FIFO: %d waiters served in arrival order: %s\n", c->ops->name,
	       FIFO_WAITERS, in_order == FIFO_WAITERS ? "yes" : "NO");
	inst_free(&in);
	free(before);
	free(w);
	free(sh);
}

/* ---- the benchmark's timed loop (SB_LOCK's, lock inlined): one shared
 * line incremented under the lock must count every op exactly */

struct loop_arg {
	const struct sb_lock_ops *ops;
	struct lp_member {
		SB_CACHE_ALIGNED struct sb_lock_loop lp;
	} m[2];
};

static uint64_t loop_member(int tid, const struct sb_round *r, void *arg)
{
	struct loop_arg *a = arg;

	return a->ops->loop(&a->m[tid].lp, r);
}

static void check_loop(struct ctx *c, bool use_trylock)
{
	struct loop_arg *a = aligned_alloc(SB_CACHELINE, sizeof(*a));
	uint64_t *data = aligned_alloc(SB_CACHELINE, SB_CACHELINE);
	struct sb_team_result res;
	struct sb_team *team;
	struct inst in;
	char err[256];
	int i;

	memset(a, 0, sizeof(*a));
	memset(data, 0, SB_CACHELINE);
	if (!inst_new(&in, c->ops)) {
		free(data);
		free(a);
		return;
	}
	a->ops = c->ops;
	for (i = 0; i < 2; i++) {
		struct sb_lock_loop *lp = &a->m[i].lp;

		lp->lock = in.state;
		lp->node = in.nodes[i];
		lp->crit_iters = CRIT_WORK;
		lp->par_iters = PAR_WORK;
		lp->crit_lines = 1;
		lp->crit_data = data;
		lp->use_trylock = use_trylock;
		lp->sample_shift = 6;
	}
	team = sb_team_create(2, NULL, loop_member, a, err, sizeof(err));
	CHECK(team, "team: %s", err);
	if (team) {
		sb_team_run(team, LOOP_QUOTA, &res);
		LCHECK(c, __atomic_load_n(data, __ATOMIC_RELAXED) == res.total_ops,
		       "%s: timed loop%s: line counted %llu of %llu ops", c->ops->name,
		       use_trylock ? " (trylock)" : "",
		       (unsigned long long)__atomic_load_n(data, __ATOMIC_RELAXED),
		       (unsigned long long)res.total_ops);
		LCHECK(c, res.total_ops >= LOOP_QUOTA, "%s: timed loop ran %llu ops", c->ops->name,
		       (unsigned long long)res.total_ops);
		for (i = 0; i < 2 && use_trylock; i++)
			LCHECK(c, a->m[i].lp.try_attempts == res.ops[i] + a->m[i].lp.try_fails,
			       "%s: trylock attempts %llu != ops %llu + fails %llu", c->ops->name,
			       (unsigned long long)a->m[i].lp.try_attempts,
			       (unsigned long long)res.ops[i],
			       (unsigned long long)a->m[i].lp.try_fails);
		sb_team_destroy(team);	/* res.ops lives until then */
	}
	inst_free(&in);
	free(data);
	free(a);
}

/* ---- declared properties and padding */

static void check_declared(const struct sb_registry_entry *e, const struct sb_lock_ops *ops)
{
	const char *n = ops->name;

	CHECK(strcmp(e->name, n) == 0 && e->test_only == ops->test_only, "%s: registry entry", n);
	CHECK(ops->summary && *ops->summary, "%s: summary", n);
	CHECK(ops->lock && ops->trylock && ops->unlock && ops->loop, "%s: lock/trylock/unlock/loop", n);
	CHECK(ops->state_size > 0, "%s: state_size", n);
	CHECK(ops->state_align && !(ops->state_align & (ops->state_align - 1)) &&
	      ops->state_align <= SB_CACHELINE, "%s: state_align %zu: a power of 2 <= %d", n,
	      ops->state_align, SB_CACHELINE);
	if (ops->state_align)
		CHECK(ops->state_size % ops->state_align == 0, "%s: state_size %zu vs align %zu",
		      n, ops->state_size, ops->state_align);
	CHECK(!(ops->fini && !ops->init), "%s: fini without init", n);
}

struct padded_member {
	SB_CACHE_ALIGNED struct sb_lock_loop lp;	/* as bench/drivers/lock_bench.c */
};

static void check_padding(void)
{
	struct padded_member two[2];
	ptrdiff_t stride = (char *)&two[1] - (char *)&two[0];

#if defined(__powerpc64__)
	CHECK(SB_CACHELINE == 128, "POWER: SB_CACHELINE %d != 128", SB_CACHELINE);
#elif defined(__x86_64__)
	CHECK(SB_CACHELINE == 64, "x86_64: SB_CACHELINE %d != 64", SB_CACHELINE);
#elif defined(__aarch64__)
	CHECK(SB_CACHELINE == 128, "aarch64: SB_CACHELINE %d != 128", SB_CACHELINE);
#endif
	CHECK(_Alignof(struct padded_member) == SB_CACHELINE, "per-member loop aligned: %zu",
	      _Alignof(struct padded_member));
	CHECK(sizeof(struct padded_member) % SB_CACHELINE == 0, "per-member loop padded: %zu",
	      sizeof(struct padded_member));
	CHECK(stride >= SB_CACHELINE && stride % SB_CACHELINE == 0, "members %td bytes apart",
	      stride);
	CHECK(_Alignof(struct sb_window) == SB_CACHELINE && sizeof(struct sb_window) % SB_CACHELINE == 0,
	      "struct sb_window: align %zu size %zu", _Alignof(struct sb_window),
	      sizeof(struct sb_window));
	/* lock words, next_window and nr_pages share one 64-byte line */
	CHECK(offsetof(struct sb_window, next_window) % SB_CACHELINE == 0 &&
	      offsetof(struct sb_window, lock_words) + sizeof(((struct sb_window *)0)->lock_words) -
	      offsetof(struct sb_window, next_window) <= 64,
	      "window line: next_window at %zu, lock words end at %zu",
	      offsetof(struct sb_window, next_window),
	      offsetof(struct sb_window, lock_words) + sizeof(((struct sb_window *)0)->lock_words));
	CHECK(sizeof(struct me_worker) % SB_CACHELINE == 0 &&
	      sizeof(struct prog_worker) % SB_CACHELINE == 0 &&
	      sizeof(struct fifo_waiter) % SB_CACHELINE == 0 &&
	      offsetof(struct me_shared, counter) % SB_CACHELINE == 0,
	      "test's own per-thread data padded");
	printf("padding: SB_CACHELINE %d (%s), per-member stride %td\n", SB_CACHELINE,
	       SB_ARCH_NAME, stride);
}

/* ---- per lock */

/* is_locked (optional, as spin_is_locked()): false free, true held. */
static void check_is_locked(struct ctx *c)
{
	const struct sb_lock_ops *ops = c->ops;
	struct inst in;
	bool free_ok, held_ok, after_ok;

	if (!ops->is_locked) {
		printf("lock/%s: is_locked: not provided (window policies report "
		       "contention as unavailable with it)\n", ops->name);
		return;
	}
	if (!inst_new(&in, ops))
		return;
	free_ok = !ops->is_locked(in.state);
	ops->lock(in.state, in.nodes[0]);
	held_ok = ops->is_locked(in.state);
	ops->unlock(in.state, in.nodes[0]);
	after_ok = !ops->is_locked(in.state);
	LCHECK(c, free_ok && held_ok && after_ok, "%s: is_locked free %d held %d after %d",
	       ops->name, !free_ok, held_ok, !after_ok);
	if (ops->trylock(in.state, in.nodes[1])) {
		LCHECK(c, ops->is_locked(in.state), "%s: is_locked after trylock", ops->name);
		ops->unlock(in.state, in.nodes[1]);
	}
	inst_free(&in);
}

static void check_real(const struct sb_lock_ops *ops)
{
	struct ctx c = { .ops = ops };

	set_phase(ops->name, "is_locked");
	check_is_locked(&c);
	set_phase(ops->name, "mutual exclusion");
	me_run(&c, false);
	set_phase(ops->name, "mutual exclusion with trylock");
	me_run(&c, true);
	set_phase(ops->name, "trylock");
	check_trylock(&c);
	set_phase(ops->name, "progress");
	check_progress(&c);
	if (ops->fair) {
		set_phase(ops->name, "FIFO");
		check_fifo(&c);
	} else {
		printf("lock/%s: FIFO: skipped, not declared fair%s\n", ops->name,
		       ops->sleeps ? " (sleeping lock: a woken waiter can lose to a running one)" : "");
	}
	set_phase(ops->name, "timed loop");
	check_loop(&c, false);
	set_phase(ops->name, "timed loop with trylock");
	check_loop(&c, true);
}

/* A broken fixture: mutual exclusion must be seen to fail within a few runs. */
static void check_broken(const struct sb_lock_ops *ops)
{
	struct ctx c = { .ops = ops, .broken = true };
	uint64_t t0 = sb_now_ns();
	int runs = 0, caught;

	set_phase(ops->name, "mutual exclusion (broken fixture)");
	while (runs < BROKEN_TRIES || (sb_now_ns() - t0 < BROKEN_SECONDS * 1000000000ull &&
					runs < 100 * BROKEN_TRIES)) {
		bool mixed = runs++ & 1;

		c.fails = 0;
		me_run(&c, mixed);
		if (c.fails)
			break;
	}
	caught = c.fails;
	CHECK(caught > 0, "%s: broken fixture passed mutual exclusion %d times", ops->name, runs);
	c.fails = 0;
	set_phase(ops->name, "trylock (broken fixture)");
	check_trylock(&c);
	printf("lock/%s: broken fixture: mutual exclusion %s (run %d), trylock checks %s\n",
	       ops->name, caught ? "FAILED as required" : "passed (BAD)", runs,
	       c.fails ? "failed" : "passed");
}

int main(void)
{
	int i, n = sb_registry_count(SB_FAMILY_lock, true), real = 0, broken = 0;
	uint64_t t0 = sb_now_ns();

	check_watchdog("test_lock_conformance", WATCHDOG_S);
	setvbuf(stdout, NULL, _IOLBF, 0);
	check_padding();
	for (i = 0; i < n; i++) {
		const struct sb_registry_entry *e = sb_registry_at(SB_FAMILY_lock, i, true);
		const struct sb_lock_ops *ops = e->desc;
		uint64_t t = sb_now_ns();

		check_declared(e, ops);
		if (ops->test_only) {
			check_broken(ops);
			broken++;
		} else {
			check_real(ops);
			real++;
		}
		printf("lock/%s: done in %.2f s\n", ops->name, (double)(sb_now_ns() - t) / 1e9);
	}
	CHECK(real >= 1 && broken >= 1, "%d real locks, %d broken fixtures", real, broken);
	CHECK(sb_registry_count(SB_FAMILY_lock, false) == real,
	      "listings hide exactly the test_only locks");
	printf("%d locks, %d broken fixtures, %.1f s%s\n", real, broken,
	       (double)(sb_now_ns() - t0) / 1e9,
	       SLOW == 2 ? " (scaled down: sanitizer)" : SLOW ? " (scaled down: not x86)" : "");
	return check_done("test_lock_conformance");
}
