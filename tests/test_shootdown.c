/* test_shootdown.c — every registered shootdown strategy, test_only fixtures
 * too, on the simulated machine with the checker on: for real strategies no
 * violation (every write found in the page's final frame, no access through
 * a freed frame, no read that missed its own write) and a consistent
 * machine; for the broken fixtures (tests/broken_shootdown.c) the checker
 * must report violations, which shows it can.  Both transports (poll,
 * signal), batches below and above the ceiling, TLB-resident and
 * TLB-thrashing working sets, uniform and hot access.
 *
 * Threads are unpinned and outnumber CPUs on CI (2): the machine's own
 * waits yield after a while.  A per-phase watchdog names a hang. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <stratbench/shootdown.h>

#include "check.h"

#define ROUNDS		3
#define QUOTA		(SLOW ? 96u : 400u)	/* pages migrated per round */
#define BROKEN_TRIES	5
#define BROKEN_QUOTA	8u		/* batches per try */
#define WATCHDOG_S	(SLOW ? 600u : 120u)	/* per phase */

struct config {
	const char *what;
	unsigned nresp;
	unsigned long pages;
	unsigned batch;
	double write_ratio;
	enum sb_sim_access access;
	enum sb_sim_ipi ipi;
};

static const struct config configs[] = {
	{ "poll, batch 1, TLB-resident", 2, 16, 1, 1.0, SB_ACCESS_UNIFORM, SB_IPI_POLL },
	{ "poll, batch 8, hot", 3, 64, 8, 0.5, SB_ACCESS_HOT, SB_IPI_POLL },
	{ "poll, batch 48 > ceiling", 2, 64, 48, 0.5, SB_ACCESS_UNIFORM, SB_IPI_POLL },
	{ "poll, batch 40, TLB-thrashing", 2, 256, 40, 0.3, SB_ACCESS_UNIFORM, SB_IPI_POLL },
	{ "signal, batch 4, TLB-resident", 2, 16, 4, 0.5, SB_ACCESS_UNIFORM, SB_IPI_SIGNAL },
	{ "signal, batch 40, hot, TLB-thrashing", 2, 256, 40, 0.5, SB_ACCESS_HOT, SB_IPI_SIGNAL },
	{ "no responders", 0, 16, 4, 0.5, SB_ACCESS_UNIFORM, SB_IPI_POLL },
};

/* The broken fixtures' configurations: TLB-resident, written, below the ceiling. */
static const struct config broken_configs[] = {
	{ "poll", 2, 16, 8, 0.5, SB_ACCESS_UNIFORM, SB_IPI_POLL },
	{ "signal", 3, 16, 4, 0.5, SB_ACCESS_UNIFORM, SB_IPI_SIGNAL },
};

struct run {
	struct sb_sim *sim;
	struct sb_shootdown *sd;
};

static uint64_t member(int tid, const struct sb_round *r, void *arg)
{
	struct run *run = arg;

	if (tid == 0)
		return run->sd->ops->loop(run->sd, r);
	return sb_sim_respond(run->sim, (unsigned)tid - 1, r);
}

/* One run of ROUNDS rounds; fills rep (checker included).  False on set-up failure. */
static bool run_one(const struct sb_shootdown_ops *ops, const struct config *c, int rounds,
		    unsigned quota, struct sb_sim_report *rep, uint64_t *team_ops)
{
	struct sb_sim_params p = {
		.nresp = c->nresp, .pages = c->pages, .write_ratio = c->write_ratio,
		.access = c->access, .ipi = c->ipi, .check = true, .seed = 42,
		.yield_after = 256,	/* unpinned, more threads than CPUs */
	};
	struct sb_team_result res;
	struct sb_team *team;
	struct run run;
	char err[256];

	*team_ops = 0;
	check_phase("shootdown/%s: %s", ops->name, c->what);
	run.sim = sb_sim_create(&p, err, sizeof(err));
	CHECK(run.sim, "%s: %s", ops->name, err);
	if (!run.sim)
		return false;
	run.sd = sb_shootdown_create(run.sim, ops, c->batch, 33, err, sizeof(err));
	CHECK(run.sd, "%s: %s", ops->name, err);
	team = run.sd ? sb_team_create((int)c->nresp + 1, NULL, member, &run, err, sizeof(err)) :
			NULL;
	CHECK(!run.sd || team, "%s: team: %s", ops->name, err);
	if (team) {
		for (int k = 0; k < rounds; k++) {
			sb_team_run(team, quota, &res);
			*team_ops += res.total_ops;
		}
		sb_team_destroy(team);
	}
	sb_sim_report(run.sim, rep);
	sb_sim_check(run.sim, rep);
	sb_shootdown_destroy(run.sd);
	sb_sim_destroy(run.sim);
	return team != NULL;
}

static void print_report(const char *name, const struct config *c, const struct sb_sim_report *r)
{
	printf("shootdown/%s [%s]: %llu pages, %.3f flushes/page (%llu full), %.3f acks/page, "
	       "%llu accesses (%llu writes), %llu migration waits; violations %llu "
	       "(lost writes %llu, freed-frame accesses %llu, stale reads %llu)\n",
	       name, c->what, (unsigned long long)r->pages,
	       r->pages ? (double)r->flushes / (double)r->pages : 0.0,
	       (unsigned long long)r->full_flushes,
	       r->pages ? (double)r->acks / (double)r->pages : 0.0,
	       (unsigned long long)r->base_accesses + (unsigned long long)r->mig_accesses,
	       (unsigned long long)r->writes, (unsigned long long)r->migration_waits,
	       (unsigned long long)r->violations, (unsigned long long)r->lost_writes,
	       (unsigned long long)r->freed_frame_accesses, (unsigned long long)r->stale_reads);
}

static void check_real(const struct sb_shootdown_ops *ops)
{
	const char *n = ops->name;

	for (size_t i = 0; i < sizeof(configs) / sizeof(configs[0]); i++) {
		const struct config *c = &configs[i];
		uint64_t batches = (uint64_t)((QUOTA + c->batch - 1) / c->batch) * ROUNDS, team_ops;
		struct sb_sim_report r;

		if (!run_one(ops, c, ROUNDS, QUOTA, &r, &team_ops))
			continue;
		print_report(n, c, &r);
		CHECK(r.violations == 0, "%s [%s]: %llu violations", n, c->what,
		      (unsigned long long)r.violations);
		CHECK(r.bad_frames == 0, "%s [%s]: page table/frames inconsistent (%llu)", n,
		      c->what, (unsigned long long)r.bad_frames);
		CHECK(r.pages == team_ops && r.pages >= (uint64_t)QUOTA * ROUNDS &&
		      r.pages == batches * c->batch, "%s [%s]: %llu pages migrated, team counted "
		      "%llu, want %llu", n, c->what, (unsigned long long)r.pages,
		      (unsigned long long)team_ops, (unsigned long long)(batches * c->batch));
		CHECK(r.acks <= r.flushes * c->nresp && r.full_flushes <= r.flushes,
		      "%s [%s]: %llu acks for %llu flushes of %u CPUs", n, c->what,
		      (unsigned long long)r.acks, (unsigned long long)r.flushes, c->nresp);
		if (c->nresp) {
			CHECK(r.base_accesses + r.mig_accesses > 0, "%s [%s]: responders idle", n,
			      c->what);
			CHECK(r.writes > 0, "%s [%s]: no write counted", n, c->what);
		} else {
			CHECK(r.flushes == 0 && r.acks == 0, "%s [%s]: flushed with no CPU", n,
			      c->what);
		}
		/* the shipped strategies' own promises */
		if (!strcmp(n, "batched")) {
			CHECK(r.flushes <= batches, "batched [%s]: %llu flushes for %llu batches",
			      c->what, (unsigned long long)r.flushes, (unsigned long long)batches);
			CHECK(c->batch > 33 ? r.full_flushes == r.flushes : r.full_flushes == 0,
			      "batched [%s]: %llu full flushes of %llu", c->what,
			      (unsigned long long)r.full_flushes, (unsigned long long)r.flushes);
		} else if (!strcmp(n, "immediate") || !strcmp(n, "targeted")) {
			CHECK(r.flushes <= r.pages && r.full_flushes == 0,
			      "%s [%s]: %llu flushes (%llu full) for %llu pages", n, c->what,
			      (unsigned long long)r.flushes, (unsigned long long)r.full_flushes,
			      (unsigned long long)r.pages);
		}
	}
}

static uint64_t seen_lost, seen_freed;

static void check_broken(const struct sb_shootdown_ops *ops)
{
	for (size_t i = 0; i < sizeof(broken_configs) / sizeof(broken_configs[0]); i++) {
		const struct config *c = &broken_configs[i];
		struct sb_sim_report r = { 0 };
		uint64_t team_ops;
		int tries = 0;

		while (tries++ < BROKEN_TRIES) {
			if (!run_one(ops, c, 1, BROKEN_QUOTA * c->batch, &r, &team_ops) ||
			    r.violations)
				break;
		}
		print_report(ops->name, c, &r);
		CHECK(r.violations > 0, "%s [%s]: broken fixture passed the checker %d times",
		      ops->name, c->what, tries);
		CHECK(r.bad_frames == 0, "%s [%s]: page table/frames inconsistent", ops->name,
		      c->what);
		printf("shootdown/%s [%s]: broken fixture: %s (run %d)\n", ops->name, c->what,
		       r.violations ? "violations found as required" : "passed (BAD)", tries);
		seen_lost += r.lost_writes;
		seen_freed += r.freed_frame_accesses;
	}
}

static void check_declared(const struct sb_registry_entry *e, const struct sb_shootdown_ops *ops)
{
	CHECK(strcmp(e->name, ops->name) == 0 && e->test_only == ops->test_only,
	      "%s: registry entry", ops->name);
	CHECK(ops->summary && *ops->summary, "%s: summary", ops->name);
	CHECK(ops->unmapped && ops->loop, "%s: unmapped and loop", ops->name);
}

/* Bad parameters are refused with a message, not run. */
static void check_params(void)
{
	struct sb_sim_params p = { .nresp = 1, .pages = 8, .write_ratio = 0.5 };
	const struct sb_shootdown_ops *imm = sb_shootdown_find("immediate");
	struct sb_sim *s;
	char err[256] = "";

	p.nresp = SB_SIM_MAX_CPUS + 1;
	CHECK(!sb_sim_create(&p, err, sizeof(err)) && strstr(err, "responders"), "nresp: %s", err);
	p.nresp = 1;
	p.pages = 0;
	CHECK(!sb_sim_create(&p, err, sizeof(err)) && strstr(err, "pages"), "pages: %s", err);
	p.pages = 8;
	p.write_ratio = 1.5;
	CHECK(!sb_sim_create(&p, err, sizeof(err)) && strstr(err, "write ratio"), "ratio: %s", err);
	p.write_ratio = 0.5;
	s = sb_sim_create(&p, err, sizeof(err));
	CHECK(s && imm, "create: %s", err);
	if (s && imm) {
		CHECK(!sb_shootdown_create(s, imm, 9, 33, err, sizeof(err)) && strstr(err, "batch 9"),
		      "batch above pages: %s", err);
		CHECK(!sb_shootdown_create(s, imm, 0, 33, err, sizeof(err)), "batch 0");
	}
	sb_sim_destroy(s);
}

int main(int argc, char **argv)
{
	const char *only = argc > 1 ? argv[1] : NULL;	/* a developer's filter */
	int i, n = sb_registry_count(SB_FAMILY_shootdown, true), real = 0, broken = 0;
	uint64_t t0 = sb_now_ns();

	check_watchdog("test_shootdown", WATCHDOG_S);
	setvbuf(stdout, NULL, _IOLBF, 0);
	check_params();
	for (i = 0; i < n; i++) {
		const struct sb_registry_entry *e = sb_registry_at(SB_FAMILY_shootdown, i, true);
		const struct sb_shootdown_ops *ops = e->desc;
		uint64_t t = sb_now_ns();

		if (only && strcmp(only, ops->name)) {
			real += !ops->test_only;
			broken += ops->test_only;
			continue;
		}
		check_declared(e, ops);
		if (ops->test_only) {
			check_broken(ops);
			broken++;
		} else {
			check_real(ops);
			real++;
		}
		printf("shootdown/%s: done in %.2f s\n", ops->name, (double)(sb_now_ns() - t) / 1e9);
	}
	CHECK(real >= 3 && broken >= 2, "%d real strategies, %d broken fixtures", real, broken);
	CHECK(sb_registry_count(SB_FAMILY_shootdown, false) == real,
	      "listings hide exactly the test_only strategies");
	/* each kind of evidence was produced by some fixture: each check can fire */
	CHECK(seen_lost > 0, "no broken fixture lost a write");
	CHECK(seen_freed > 0, "no broken fixture accessed a freed frame");
	printf("%d strategies, %d broken fixtures, %.1f s%s\n", real, broken,
	       (double)(sb_now_ns() - t0) / 1e9,
	       SLOW == 2 ? " (scaled down: sanitizer)" : SLOW ? " (scaled down: not x86)" : "");
	return check_done("test_shootdown");
}
