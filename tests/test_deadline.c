/* test_deadline.c — a round's deadline (sb_team_run_until) ends a convoy.
 *
 * The convoy is forced, not hoped for: two members bound to ONE CPU take a
 * FIFO lock (ticket, through the lock family's benchmark loop) whose holder
 * sleeps 2 ms before releasing, as a holder whose vCPU the host
 * descheduled (docs/lab-power9.md): the waiter queued behind it cannot
 * pass, so every op costs 2 ms.  Without a deadline a round of 50 ops
 * takes 100 ms or more where one member alone takes microseconds; with a
 * 50 ms one, a round whose quota would take 70 years ends near 50 ms, cut.
 *
 * Nothing here can fail for being slow: the checks are on counts (the
 * quota reached, the cut flag, ops against the sleeps they contain), and
 * time is bounded only where load cannot reach it (serial sleeps give a
 * lower bound; a cut round did not end before half its deadline) or
 * loosely (it ended before 100 x the deadline, where the test's own
 * watchdog stops it).  The watchdog is what
 * lets the broken fixture end: test_deadline_disabled is this test over
 * team.c built with SB_TEST_NO_DEADLINE (the watcher never raises stop),
 * where every round with a deadline runs until the watchdog, and the test
 * passes only if it saw that.  Then: rounds that reach their quota are not
 * cut, a finished round's deadline does not cut the next round, and a
 * shorter deadline after a longer one is kept.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <stratbench/lock.h>
#include <stratbench/team.h>

#include "check.h"

#ifdef SB_TEST_NO_DEADLINE
static const bool broken = true;
#else
static const bool broken = false;
#endif

#define MS 1000000ull

/* The team's stop word, published by member 0 as each round starts: the
 * watchdog raises it if a round outlives its bound. */
static int *round_stop;

static void publish_stop(int tid, const struct sb_round *r)
{
	if (tid == 0)	/* release: pairs with the watchdog's acquire (a pointer) */
		__atomic_store_n(&round_stop, r->stop, __ATOMIC_RELEASE);
}

struct watchdog {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	uint64_t due_ns;
	bool done, fired;
};

static void *watchdog_fn(void *p)
{
	struct watchdog *w = p;

	pthread_mutex_lock(&w->mu);
	while (!w->done) {
		uint64_t due = w->due_ns;
		struct timespec ts = { .tv_sec = (time_t)(due / 1000000000u),
				       .tv_nsec = (long)(due % 1000000000u) };

		if (sb_now_ns() >= due) {
			/* acquire: pairs with member 0's publication */
			int *s = __atomic_load_n(&round_stop, __ATOMIC_ACQUIRE);

			if (s) {
				/* relaxed: as a member's raise of stop */
				__atomic_store_n(s, 1, __ATOMIC_RELAXED);
				w->fired = true;
				break;
			}
			w->due_ns = sb_now_ns() + 10 * MS;	/* member 0 not in yet */
			continue;
		}
		pthread_cond_timedwait(&w->cv, &w->mu, &ts);
	}
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

/* One round with a deadline of limit_ns (0: none), stopped by the
 * watchdog after bound_ns if still running; true if the watchdog fired. */
static bool watched_round(struct sb_team *t, uint64_t quota, uint64_t limit_ns,
			  uint64_t bound_ns, struct sb_team_result *res)
{
	struct watchdog w = { .due_ns = sb_now_ns() + bound_ns };
	pthread_condattr_t ca;
	pthread_t th;
	int rc;

	__atomic_store_n(&round_stop, NULL, __ATOMIC_RELAXED);
	pthread_mutex_init(&w.mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&w.cv, &ca);
	pthread_condattr_destroy(&ca);
	CHECK(pthread_create(&th, NULL, watchdog_fn, &w) == 0, "watchdog thread");
	rc = sb_team_run_until(t, quota, limit_ns, res);
	CHECK(rc == 0, "sb_team_run_until: %s", strerror(rc));
	pthread_mutex_lock(&w.mu);
	w.done = true;
	pthread_cond_signal(&w.cv);
	pthread_mutex_unlock(&w.mu);
	pthread_join(th, NULL);
	pthread_cond_destroy(&w.cv);
	pthread_mutex_destroy(&w.mu);
	return w.fired;
}

/* ---- the convoy: ticket, two members, one CPU, the holder descheduled -- */

/* ticket_held: the registered ticket lock whose holder sleeps HOLD before
 * releasing, as a holder whose CPU the host took away: the FIFO waiter
 * behind it (on the same CPU here) cannot pass it, so every op costs HOLD
 * whatever the load, and the round is a convoy by construction.  Its
 * benchmark loop is the lock family's own (SB_LOCK). */
static const struct sb_lock_ops *ticket_ops;	/* set before any round */
static unsigned hold_us;			/* written between rounds */

static void held_lock(void *l, void *node)
{
	ticket_ops->lock(l, node);
}

static bool held_trylock(void *l, void *node)
{
	return ticket_ops->trylock(l, node);
}

static void held_unlock(void *l, void *node)
{
	if (hold_us)
		usleep(hold_us);	/* lock-holder preemption */
	ticket_ops->unlock(l, node);
}

SB_LOCK(ticket_held,
	.summary     = "ticket whose holder sleeps before releasing (test_deadline)",
	.test_only   = true,
	.fair        = true,
	.state_size  = 8,
	.state_align = 8,
	.lock        = held_lock,
	.trylock     = held_trylock,
	.unlock      = held_unlock);

struct convoy_member {
	SB_CACHE_ALIGNED struct sb_lock_loop lp;
};

struct convoy {
	const struct sb_lock_ops *ops;
	struct convoy_member m[2];
};

static uint64_t convoy_fn(int tid, const struct sb_round *r, void *arg)
{
	struct convoy *c = arg;

	publish_stop(tid, r);
	return c->ops->loop(&c->m[tid].lp, r);	/* the lock family's timed loop */
}

static int first_cpu(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		return -1;
	for (int i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &set))
			return i;
	return -1;
}

static void test_convoy(void)
{
	const unsigned hold = 2000;			/* µs per op, in the lock */
	const uint64_t qa = 50, huge = 1ull << 40;	/* ops */
	const uint64_t limit = 50 * MS;			/* qa ops take at least 2x it */
	struct convoy c = { .ops = sb_lock_find("ticket_held") };
	struct sb_team_result res;
	struct sb_team *solo, *t;
	uint64_t planned;
	char err[256];
	int cpu = first_cpu(), cpus[2] = { cpu, cpu };
	void *lock = aligned_alloc(SB_CACHELINE, SB_CACHELINE);
	bool fired;

	ticket_ops = sb_lock_find("ticket");
	CHECK(c.ops && ticket_ops && ticket_ops->fair && ticket_ops->state_size <= 8 &&
	      !ticket_ops->node_size && !ticket_ops->init,
	      "ticket: registered, fair, one word pair, no node, no init");
	CHECK(cpu >= 0, "a CPU in this process's affinity");
	if (!c.ops || !ticket_ops || cpu < 0)
		return;
	memset(lock, 0, SB_CACHELINE);
	for (int i = 0; i < 2; i++) {
		c.m[i].lp.lock = lock;
		c.m[i].lp.sample_shift = 8;
		c.m[i].lp.sample_phase = 1 + (unsigned)(i * 37) % 255;
	}

	/* the plan: qa ops of one member alone, no holder descheduled */
	solo = sb_team_create(1, cpus, convoy_fn, &c, err, sizeof(err));
	CHECK(solo != NULL, "solo team: %s", err);
	if (!solo)
		return;
	hold_us = 0;
	sb_team_run(solo, qa, &res);
	planned = res.elapsed_ns ? res.elapsed_ns : 1;
	sb_team_destroy(solo);

	t = sb_team_create(2, cpus, convoy_fn, &c, err, sizeof(err));
	CHECK(t != NULL, "two members on CPU %d: %s", cpu, err);
	if (!t)
		return;
	hold_us = hold;

	/* A: no deadline.  The round runs until a member's quota, however
	 * long: every op waits for the descheduled holder */
	fired = watched_round(t, qa, 0, 120000 * MS, &res);
	printf("test_deadline: convoy without a deadline: %llu ops (quota %llu) in %.1f ms; "
	       "planned (one member, no convoy): %.3f ms; %.0fx\n",
	       (unsigned long long)res.total_ops, (unsigned long long)qa,
	       (double)res.elapsed_ns / 1e6, (double)planned / 1e6,
	       (double)res.elapsed_ns / (double)planned);
	CHECK(!fired && res.max_ops == qa && !res.cut,
	      "without a deadline the round runs to its quota: max %llu of %llu, cut %d",
	      (unsigned long long)res.max_ops, (unsigned long long)qa, res.cut);
	/* serial ops of at least hold each: a bound load can only lengthen */
	CHECK(res.elapsed_ns >= res.total_ops * hold * 1000ull && res.elapsed_ns >= 2 * limit,
	      "the convoy outlasts the deadline: %.1f ms for %llu ops",
	      (double)res.elapsed_ns / 1e6, (unsigned long long)res.total_ops);

	/* B: a deadline.  2^40 ops would take 70 years; the watcher raises
	 * stop at the deadline, each member leaves after the op it is in */
	fired = watched_round(t, huge, limit, 100 * limit, &res);
	printf("test_deadline: convoy with a %.0f ms deadline: %llu ops in %.1f ms (%.2fx the "
	       "deadline), cut %d%s\n", (double)limit / 1e6,
	       (unsigned long long)res.total_ops, (double)res.elapsed_ns / 1e6,
	       (double)res.elapsed_ns / (double)limit, res.cut,
	       fired ? "; stopped by the test's watchdog at 100x the deadline" : "");
	if (!broken) {
		CHECK(res.cut && !fired, "the deadline cut the convoy (cut %d, watchdog %d)",
		      res.cut, fired);
		CHECK(res.max_ops < huge && res.total_ops == res.ops[0] + res.ops[1],
		      "a cut round counts the ops it did: %llu", (unsigned long long)res.total_ops);
		/* the ops counted fit in the time counted: each held the lock hold */
		CHECK(res.total_ops * hold * 1000ull <= res.elapsed_ns,
		      "%llu ops in %.1f ms: the round's ops and time agree",
		      (unsigned long long)res.total_ops, (double)res.elapsed_ns / 1e6);
		CHECK(res.elapsed_ns >= limit / 2, "not ended before its deadline: %.1f ms",
		      (double)res.elapsed_ns / 1e6);
	} else {
		/* the fixture's watcher never raises stop: what the checks above
		 * must catch */
		CHECK(!res.cut && fired, "broken fixture caught: the deadline did not end the "
		      "convoy (cut %d, ended by the watchdog %d)", res.cut, fired);
	}
	hold_us = 0;
	sb_team_destroy(t);
	free(lock);
}

/* ---- the mechanics, with sleeping members ------------------------------- */

static unsigned sleep_us;		/* per op, set between rounds */

static uint64_t sleepy_fn(int tid, const struct sb_round *r, void *arg)
{
	uint64_t ops = 0;

	(void)arg;
	publish_stop(tid, r);
	do {
		ops++;
		if (sleep_us)
			usleep(sleep_us);
	} while (!sb_round_over(r, ops));
	return ops;
}

static void test_mechanics(void)
{
	struct sb_team_result res;
	char err[256];
	struct sb_team *t = sb_team_create(2, NULL, sleepy_fn, NULL, err, sizeof(err));
	bool fired;

	CHECK(t != NULL, "create: %s", err);
	if (!t)
		return;
	/* a round that reaches its quota first is not cut */
	sleep_us = 0;
	for (int k = 0; k < 20; k++) {
		fired = watched_round(t, 1000, 60000 * MS, 120000 * MS, &res);
		CHECK(!fired && !res.cut && res.max_ops == 1000,
		      "round %d reached its quota: max %llu, cut %d", k,
		      (unsigned long long)res.max_ops, res.cut);
	}
	/* a finished round's deadline (20 ms) must not cut the next round,
	 * which has none and lasts longer (3 ops of 40 ms) */
	(void)watched_round(t, 1, 20 * MS, 120000 * MS, &res);
	sleep_us = 40000;
	fired = watched_round(t, 3, 0, 120000 * MS, &res);
	CHECK(!fired && !res.cut && res.max_ops == 3,
	      "no deadline: the round ran to its quota (max %llu, cut %d)",
	      (unsigned long long)res.max_ops, res.cut);
	/* a shorter deadline after a longer one: the watcher, asleep until
	 * the first (60 s away), must be woken for the second (20 ms) */
	sleep_us = 0;
	(void)watched_round(t, 1, 60000 * MS, 120000 * MS, &res);
	sleep_us = 1000;
	fired = watched_round(t, 1ull << 40, 20 * MS, 2000 * MS, &res);
	printf("test_deadline: 20 ms deadline after a 60 s one: %.1f ms, cut %d%s\n",
	       (double)res.elapsed_ns / 1e6, res.cut,
	       fired ? "; stopped by the test's watchdog at 100x the deadline" : "");
	CHECK(broken ? !res.cut && fired : res.cut && !fired,
	      "%s: the 20 ms deadline %s the round (cut %d, watchdog %d)",
	      broken ? "broken fixture caught" : "shorter deadline kept",
	      broken ? "did not end" : "ended", res.cut, fired);
	sb_team_destroy(t);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_convoy();
	test_mechanics();
	return check_done(broken ? "test_deadline_disabled" : "test_deadline");
}
