/* team.h — a pinned thread team that runs timed rounds.
 *
 * Contract: sb_team_create() starts nthreads-1 workers and makes the calling
 * thread member 0; with a CPU list each member is bound to cpus[i] and checks
 * sched_getcpu() is that CPU (creation fails otherwise), and the caller's old
 * affinity is restored by sb_team_destroy().  A CPU outside the caller's
 * affinity (a `taskset` on the process) fails creation: binding must not
 * widen what the user restricted.  sb_team_run() runs one round:
 * every member waits at the start barrier, the clock starts, each member runs
 * fn(tid, round, arg) which returns its op count, and the round ends when all
 * have returned.  A round has a per-member quota: the first member to reach it
 * raises `stop` and the others stop at their next check, so op counts differ
 * per member (fairness) while the round stays bounded.  A member may instead
 * serve the others until stop (the shootdown families' responders): it
 * watches *stop (sb_round_stopped()) and never calls sb_round_over(), so it
 * has no quota and never raises stop; it returns 0 ops, or a count in its own
 * unit that its driver reports apart.  A round needs at least one quota
 * member.  Elapsed time is from the common start to the last member's
 * finish.  sb_team_run_until() also gives the round a time limit: a
 * watcher thread (started on the first such round, sleeping on the clock,
 * on the CPUs the caller had before binding) raises stop limit_ns after the
 * start if no member has, so a round that convoys (a FIFO lock whose next
 * waiter's CPU is preempted) ends near its deadline instead of after its
 * quota; the members' loops are unchanged (they watch stop as for a quota),
 * and the result says the round was cut.  Since stop then comes at any
 * moment, a team whose serving member must outlive the quota members (a
 * responder that acks a request in flight) must not have one.  Workers spin
 * between rounds: more members than CPUs (or two on one
 * CPU) hand a CPU over only when the scheduler preempts them.  No hwloc here
 * (cross-arch tests use it).
 * Each member's thread CPU time and context switches (getrusage) are taken
 * around its fn, inside the timed region (about a microsecond), so a round
 * says how long its members were off their CPUs.
 * Optional hooks run on each member's own thread around its part of a round
 * (the counters read per-thread perf events there, never per op), and
 * sb_team_each() runs a function once on every member's thread, untimed
 * (e.g. to open those events with pid 0).
 */
#ifndef STRATBENCH_TEAM_H
#define STRATBENCH_TEAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <stratbench/arch.h>

struct sb_round {
	uint64_t quota;		/* ops per member at most */
	int *stop;		/* raised by the first member to reach quota */
};

/* Loop helper: call after each chunk of ops; true when the member must stop. */
static inline bool sb_round_over(const struct sb_round *r, uint64_t ops)
{
	if (ops >= r->quota) {
		/* relaxed: stop carries no data; results are published by the team */
		__atomic_store_n(r->stop, 1, __ATOMIC_RELAXED);
		return true;
	}
	return __atomic_load_n(r->stop, __ATOMIC_RELAXED);
}

/* Serving members (no quota): true once a quota member has raised stop. */
static inline bool sb_round_stopped(const struct sb_round *r)
{
	/* relaxed: as above; what the server must see is handed over by its own protocol */
	return __atomic_load_n(r->stop, __ATOMIC_RELAXED);
}

typedef uint64_t (*sb_team_fn)(int tid, const struct sb_round *round, void *arg);

struct sb_team;

/* A member's thread over its part of a round: CPU time (against elapsed_ns,
 * the time it was off its CPU: preempted by the guest, by the host, or
 * blocked) and context switches; ok false where the thread clock or
 * getrusage failed: then none of it is known. */
struct sb_member_use {
	uint64_t cpu_ns;
	uint64_t csw_vol;	/* voluntary context switches (it blocked) */
	uint64_t csw_inv;	/* involuntary ones (the guest preempted it) */
	bool ok;
};

struct sb_team_result {
	uint64_t elapsed_ns;	/* common start → last finish */
	uint64_t total_ops;
	uint64_t max_ops;	/* the most ops of one member: the fastest quota
				 * member's where serving members return 0 */
	const uint64_t *ops;	/* per member, valid until the next round */
	/* per member (valid as ops): what its thread used of its part of the
	 * round (struct sb_member_use) */
	const struct sb_member_use *use;
	bool cut;		/* the deadline raised stop and no member reached
				 * the quota: the round did fewer ops than asked */
};

/* cpus: nthreads OS CPU numbers, or NULL for unpinned threads.
 * Returns NULL and fills err (one line) on failure. */
struct sb_team *sb_team_create(int nthreads, const int *cpus, sb_team_fn fn, void *arg,
			       char *err, size_t errlen);
void sb_team_run(struct sb_team *t, uint64_t quota, struct sb_team_result *res);
/* sb_team_run with a deadline: stop is raised limit_ns after the round's
 * start (0: none, as sb_team_run).  A member blocked in an op notices it
 * when the op returns, so the round ends a few ops past the deadline.
 * 0, or an errno when the watcher thread cannot be started (no round run). */
int sb_team_run_until(struct sb_team *t, uint64_t quota, uint64_t limit_ns,
		      struct sb_team_result *res);
void sb_team_destroy(struct sb_team *t);
int sb_team_size(const struct sb_team *t);

/* Per-member hooks, called on the member's own thread in every round: enter
 * after the start barrier, just before fn (inside the timed region: keep it
 * to a syscall or two), leave just after the member's finish time is taken
 * (outside it).  Set between rounds; NULL hooks or h NULL: none. */
struct sb_team_hooks {
	void (*enter)(int tid, void *arg);
	void (*leave)(int tid, void *arg);
	void *arg;
};
void sb_team_set_hooks(struct sb_team *t, const struct sb_team_hooks *h);

/* Runs fn(tid, arg) once on every member's own thread, outside any round;
 * returns when all have returned (their writes are visible then). */
void sb_team_each(struct sb_team *t, void (*fn)(int tid, void *arg), void *arg);

#endif
