/* test_team.c — the start barrier releases every member into the same round,
 * rounds do not overlap, op counts add up, elapsed runs to the last finish. */
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include <stratbench/team.h>

#include "check.h"

#define N 4

static unsigned entered;		/* members inside the current round */
static unsigned finished;		/* member-rounds completed */
static int round_no;			/* written by the test between rounds */
static int bad_overlap, bad_together;

static uint64_t member(int tid, const struct sb_round *r, void *arg)
{
	uint64_t spins = 0, ops = 0;

	(void)arg;
	/* no member may start round k before all finished round k-1 */
	if (__atomic_load_n(&finished, __ATOMIC_ACQUIRE) != (unsigned)(round_no * N))
		__atomic_fetch_add(&bad_overlap, 1, __ATOMIC_RELAXED);
	/* all members must be inside together: wait (bounded) for the others */
	__atomic_fetch_add(&entered, 1, __ATOMIC_ACQ_REL);
	while (__atomic_load_n(&entered, __ATOMIC_ACQUIRE) < (unsigned)(round_no + 1) * N &&
	       ++spins < 2000000000ull)
		sb_cpu_relax();
	if (spins >= 2000000000ull)
		__atomic_fetch_add(&bad_together, 1, __ATOMIC_RELAXED);
	if (tid == N - 1)
		usleep(30000);	/* the last finisher defines elapsed */
	/* member tid does tid+1 ops, ignoring stop: counts must add up exactly */
	ops = (uint64_t)tid + 1;
	(void)r;
	__atomic_fetch_add(&finished, 1, __ATOMIC_RELEASE);
	return ops;
}

static uint64_t quota_member(int tid, const struct sb_round *r, void *arg)
{
	uint64_t ops = 0;

	(void)arg;
	do {
		ops++;
		if (tid != 0)
			usleep(100);	/* slow members: member 0 reaches the quota */
	} while (!sb_round_over(r, ops));
	return ops;
}

/* Hooks: enter and leave once per member per round, on the member's own
 * thread, enter before fn and leave after; each once per member. */
#define HN 3
static pthread_t hook_thread[HN], each_thread[HN], fn_thread[HN];
static int enters[HN], leaves[HN], eaches[HN], order_bad;
static int in_round[HN];	/* 1 between enter and leave */
static int hooks_on;		/* written between rounds */

static void hook_enter(int tid, void *arg)
{
	(void)arg;
	if (in_round[tid])
		order_bad++;
	in_round[tid] = 1;
	enters[tid]++;
	hook_thread[tid] = pthread_self();
}

static void hook_leave(int tid, void *arg)
{
	(void)arg;
	if (!in_round[tid] || !pthread_equal(hook_thread[tid], pthread_self()))
		order_bad++;
	in_round[tid] = 0;
	leaves[tid]++;
}

static void each_fn(int tid, void *arg)
{
	(void)arg;
	eaches[tid]++;
	each_thread[tid] = pthread_self();
}

static uint64_t hooked_member(int tid, const struct sb_round *r, void *arg)
{
	(void)r;
	(void)arg;
	if (in_round[tid] != hooks_on)	/* fn runs between enter and leave */
		order_bad++;
	fn_thread[tid] = pthread_self();
	return 1;
}

static void test_hooks(void)
{
	struct sb_team_hooks h = { hook_enter, hook_leave, NULL };
	struct sb_team_result res;
	char err[256];
	struct sb_team *t = sb_team_create(HN, NULL, hooked_member, NULL, err, sizeof(err));
	int i;

	CHECK(t != NULL, "create: %s", err);
	if (!t)
		return;
	sb_team_each(t, each_fn, NULL);
	for (i = 0; i < HN; i++)
		CHECK(eaches[i] == 1, "each ran once on member %d (%d)", i, eaches[i]);
	sb_team_run(t, 10, &res);	/* no hooks yet */
	CHECK(enters[0] == 0, "no hooks before they are set");
	sb_team_set_hooks(t, &h);
	hooks_on = 1;
	for (int k = 0; k < 5; k++)
		sb_team_run(t, 10, &res);
	sb_team_set_hooks(t, NULL);
	hooks_on = 0;
	sb_team_run(t, 10, &res);
	for (i = 0; i < HN; i++) {
		CHECK(enters[i] == 5 && leaves[i] == 5, "member %d: %d enters, %d leaves", i,
		      enters[i], leaves[i]);
		CHECK(pthread_equal(hook_thread[i], fn_thread[i]) &&
		      pthread_equal(each_thread[i], fn_thread[i]),
		      "member %d: hooks and each on the member's thread", i);
	}
	CHECK(!pthread_equal(fn_thread[1], fn_thread[2]), "members are distinct threads");
	CHECK(order_bad == 0, "enter/fn/leave out of order %d times", order_bad);
	CHECK(res.total_ops == HN, "each does not disturb the rounds");
	sb_team_destroy(t);
}

/* Member 0 has the quota; the others serve until stop and return their own
 * count (polls), which the team reports but which never ends the round.
 * Member 0 finishes an op only after the servers have polled many times
 * (bounded wait), so their counts pass the quota whatever the scheduling. */
static unsigned long served;		/* polls of all servers, ever */

static uint64_t serving_member(int tid, const struct sb_round *r, void *arg)
{
	uint64_t ops = 0, spins, start;

	(void)arg;
	if (tid == 0) {
		start = __atomic_load_n(&served, __ATOMIC_RELAXED);
		do {
			ops++;
			/* a server that raised stop would end this wait early */
			for (spins = 0; __atomic_load_n(&served, __ATOMIC_RELAXED) <
					start + ops * 100 && !sb_round_stopped(r) &&
					spins < 4000000000ull; spins++)
				sb_cpu_relax();
		} while (!sb_round_over(r, ops));
		return ops;
	}
	while (!sb_round_stopped(r)) {
		ops++;
		__atomic_fetch_add(&served, 1, __ATOMIC_RELAXED);
	}
	return ops;
}

/* Broken fixture: servers that count against the quota end the round
 * before member 0's third op — what the serving checks must catch. */
static uint64_t broken_serving_member(int tid, const struct sb_round *r, void *arg)
{
	uint64_t ops = 0;

	if (tid == 0)
		return serving_member(tid, r, arg);
	while (!sb_round_over(r, ops)) {
		ops++;
		__atomic_fetch_add(&served, 1, __ATOMIC_RELAXED);
	}
	return ops;
}

/* Members 1.. only watch stop (the shootdown family's responders): they do
 * not count toward the quota; member 0 alone ends the round. */
static int saw_stop[N];

static uint64_t watcher_member(int tid, const struct sb_round *r, void *arg)
{
	uint64_t ops = 0;

	(void)arg;
	if (tid == 0) {
		do {
			ops++;
			usleep(50);	/* slower than the watchers */
		} while (!sb_round_over(r, ops));
		return ops;
	}
	while (!__atomic_load_n(r->stop, __ATOMIC_RELAXED))
		sb_cpu_relax();
	saw_stop[tid]++;	/* published by the team's done count */
	return 0;
}

int main(void)
{
	struct sb_team_result res;
	char err[256];
	struct sb_team *t = sb_team_create(N, NULL, member, NULL, err, sizeof(err));
	int k, i;

	CHECK(t != NULL, "create: %s", err);
	if (!t)
		return check_done("test_team");
	CHECK(sb_team_size(t) == N, "size");
	for (k = 0; k < 3; k++) {
		round_no = k;
		sb_team_run(t, 1000, &res);
		CHECK(res.total_ops == 1 + 2 + 3 + 4, "round %d total %llu", k,
		      (unsigned long long)res.total_ops);
		for (i = 0; i < N; i++)
			CHECK(res.ops[i] == (uint64_t)i + 1, "member %d ops", i);
		CHECK(res.elapsed_ns >= 30000000, "elapsed %llu ns covers the last finisher",
		      (unsigned long long)res.elapsed_ns);
	}
	CHECK(bad_overlap == 0, "rounds overlapped %d times", bad_overlap);
	CHECK(bad_together == 0, "members not released together %d times", bad_together);
	sb_team_destroy(t);

	t = sb_team_create(3, NULL, quota_member, NULL, err, sizeof(err));
	CHECK(t != NULL, "create: %s", err);
	sb_team_run(t, 2000, &res);
	CHECK(res.ops[0] == 2000, "member 0 stops at its quota: %llu",
	      (unsigned long long)res.ops[0]);
	CHECK(res.ops[1] < 2000 && res.ops[2] < 2000 && res.ops[1] >= 1,
	      "stop ends the slow members early: %llu %llu", (unsigned long long)res.ops[1],
	      (unsigned long long)res.ops[2]);
	CHECK(res.total_ops == res.ops[0] + res.ops[1] + res.ops[2], "sum");
	sb_team_destroy(t);

	/* servers: a quota of 3 ends the round after member 0's third op even
	 * though the servers' counts pass it many times over */
	t = sb_team_create(3, NULL, serving_member, NULL, err, sizeof(err));
	CHECK(t != NULL, "create: %s", err);
	for (k = 0; t && k < 2; k++) {
		sb_team_run(t, 3, &res);
		CHECK(res.ops[0] == 3, "quota member stops at 3: %llu",
		      (unsigned long long)res.ops[0]);
		CHECK(res.ops[1] + res.ops[2] >= 300,
		      "servers ran past the quota without ending the round: %llu %llu",
		      (unsigned long long)res.ops[1], (unsigned long long)res.ops[2]);
	}
	sb_team_destroy(t);
	t = sb_team_create(3, NULL, broken_serving_member, NULL, err, sizeof(err));
	CHECK(t != NULL, "create: %s", err);
	if (t) {
		sb_team_run(t, 3, &res);
		CHECK(res.ops[0] < 3, "broken servers end the round early: member 0 did %llu",
		      (unsigned long long)res.ops[0]);
	}
	sb_team_destroy(t);

	t = sb_team_create(3, NULL, watcher_member, NULL, err, sizeof(err));
	CHECK(t != NULL, "create: %s", err);
	for (k = 0; t && k < 2; k++) {
		sb_team_run(t, 200, &res);
		CHECK(res.ops[0] == 200 && res.total_ops == 200,
		      "round %d: the counting member ran its quota (%llu of %llu ops)", k,
		      (unsigned long long)res.ops[0], (unsigned long long)res.total_ops);
		CHECK(saw_stop[1] == k + 1 && saw_stop[2] == k + 1, "watchers ran until stop");
	}
	sb_team_destroy(t);

	CHECK(sb_team_create(0, NULL, member, NULL, err, sizeof(err)) == NULL &&
	      strstr(err, "at least one"), "zero members refused");
	test_hooks();
	return check_done("test_team");
}
