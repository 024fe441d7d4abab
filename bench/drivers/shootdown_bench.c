/* shootdown_bench.c — shootdown/<strategy>/batch:B/threads:N/place:P: the
 * simulated machine (bench/sim/), one migrating member and responders on
 * the plan's N CPUs.  --initiator=own: member 0 migrates on CPU 0, N-1
 * responders on CPUs 1..N-1 (threads:1: the migration cost alone); shared:
 * N responders, the migrating member sharing CPU 0 with responder 0.  One op
 * is one migrated page; responders run until the migrator's quota.  Every
 * round starts with a no-migration phase (the migrator sleeps) measuring the
 * responders' access rate for responder_slowdown; Google Benchmark's time
 * is the migrating time only. */
#include "run/limits.h"
#include "drivers/drivers.h"

#include <stdlib.h>
#include <string.h>

#include <stratbench/shootdown.h>

static struct sb_ulist batch = { 3, { 1, 32, 512 } };
static unsigned long pages = 1024;
static double write_ratio = 0.5;
static const char *access_mode = "hot";
static const char *ipi = "poll";
static const char *initiator = "own";
static unsigned long ceiling = 33;
static bool check;

static const char *const access_modes[] = { "uniform", "hot", NULL };
static const char *const ipis[] = { "poll", "signal", NULL };
static const char *const initiators[] = { "own", "shared", NULL };

static const struct sb_option shootdown_options[] = {
	{ "batch", SB_OPT_ULIST, &batch, 1, SB_SIM_MAX_BATCH, NULL, "LIST",
	  "pages migrated per batch, comma list, each a benchmark (default 1,32,512)" },
	{ "pages", SB_OPT_ULONG, &pages, 1, 65536, NULL, "N",
	  "simulated: working set in 4 KiB pages, all migrated in turn (default 1024)" },
	{ "write-ratio", SB_OPT_DOUBLE, &write_ratio, 0, 1, NULL, "R",
	  "simulated: share of responder accesses that write (default 0.5)" },
	{ "access", SB_OPT_STRING, &access_mode, 0, 0, access_modes, "uniform|hot",
	  "simulated: hot = 90% of accesses on pages/32 pages (default hot)" },
	{ "ipi", SB_OPT_STRING, &ipi, 0, 0, ipis, "poll|signal",
	  "simulated: flush requests polled in a mailbox, or by pthread_kill (default poll)" },
	{ "initiator", SB_OPT_STRING, &initiator, 0, 0, initiators, "own|shared",
	  "simulated: the migrating member's CPU: its own, or responder 0's (default own)" },
	{ "ceiling", SB_OPT_ULONG, &ceiling, 1, SB_SIM_MAX_BATCH, NULL, "PAGES",
	  "simulated: flush everything above this many pages (default 33, as x86)" },
	{ "check", SB_OPT_FLAG, &check, 0, 0, NULL, NULL,
	  "simulated: run the checker (costs per access); reports violations" },
	{ 0 },
};

static int shootdown_check_options(char *err, size_t errlen)
{
	for (int i = 0; i < batch.n; i++)
		if (batch.v[i] > pages) {
			snprintf(err, errlen, "--batch=%lu is above --pages=%lu: a batch migrates "
				 "distinct pages of the working set", batch.v[i], pages);
			return -1;
		}
	return 0;
}

static int shootdown_variants(const char *strategy, struct sb_params *sets, int max)
{
	int i;

	(void)strategy;
	for (i = 0; i < batch.n && i < max; i++)
		sb_params_set(&sets[i], "batch", "%lu", batch.v[i]);
	return i;
}

static void shootdown_params(struct sb_params *p)
{
	if (pages != 1024)
		sb_params_set(p, "pages", "%lu", pages);
	if (write_ratio != 0.5)
		sb_params_set(p, "write", "%g", write_ratio);
	if (strcmp(access_mode, "hot"))
		sb_params_set(p, "access", "%s", access_mode);
	if (strcmp(ipi, "poll"))
		sb_params_set(p, "ipi", "%s", ipi);
	if (strcmp(initiator, "own"))
		sb_params_set(p, "initiator", "%s", initiator);
	if (ceiling != 33)
		sb_params_set(p, "ceiling", "%lu", ceiling);
	if (check)
		sb_params_set(p, "check", "on");
}

struct shootdown_run {
	struct sb_sim *sim;
	struct sb_shootdown *sd;
};

static uint64_t shootdown_member(int tid, const struct sb_round *r, void *arg)
{
	struct shootdown_run *run = arg;

	if (tid == 0)
		return run->sd->ops->loop(run->sd, r);
	return sb_sim_respond(run->sim, (unsigned)tid - 1, r);
}

/* A round's time: the migrating member's, scaled to the quota (a round
 * migrates whole batches, maybe more pages): time per iteration is per page. */
static uint64_t shootdown_round_ns(const struct sb_team_result *r, void *arg)
{
	const struct sb_shootdown *sd = ((const struct shootdown_run *)arg)->sd;

	(void)r;
	return sd->round_pages ? (uint64_t)((double)sd->round_migrate_ns *
					    (double)sd->round_quota / (double)sd->round_pages) : 0;
}

static void report(sb_state *st, const struct sb_sim *sim, unsigned nresp)
{
	struct sb_sim_report rep;
	char label[256] = "";
	double pg;

	sb_sim_report(sim, &rep);
	if (!rep.pages || !rep.migrate_ns)
		return;
	pg = (double)rep.pages;
	const struct sb_counter_row c[] = {
		{ "ops_per_s", pg * 1e9 / (double)rep.migrate_ns },
		{ "ns_per_page", (double)rep.migrate_ns / pg },
		{ "flushes_per_page", (double)rep.flushes / pg },
		{ "acks_per_page", (double)rep.acks / pg },
		{ "full_flushes", (double)rep.full_flushes },
		{ "waits_per_page", (double)rep.migration_waits / pg },
		{ rep.signals ? "signals_per_page" : NULL, (double)rep.signals / pg },
	};

	SB_COUNTER_ROWS(st, c);
	if (!nresp || !rep.base_ns || !rep.base_accesses || !rep.mig_ns || !rep.mig_accesses) {
		snprintf(label, sizeof(label), "responder_slowdown: unavailable (%s)", !nresp ?
			 "no responders: threads:1 with --initiator=own" :
			 "no responder ran in both phases");
	} else {
		double base = (double)rep.base_accesses * 1e9 / (double)rep.base_ns;
		double mig = (double)rep.mig_accesses * 1e9 / (double)rep.mig_ns;

		sb_state_counter(st, "responder_slowdown", base / mig, SB_COUNTER_DEFAULT);
		sb_state_counter(st, "resp_base_per_s", base, SB_COUNTER_DEFAULT);
		sb_state_counter(st, "resp_mig_per_s", mig, SB_COUNTER_DEFAULT);
	}
	if (check) {
		sb_sim_check(sim, &rep);
		sb_state_counter(st, "violations", (double)rep.violations, SB_COUNTER_DEFAULT);
		if (rep.bad_frames)
			sb_state_skip_with_error(st, "simulated machine inconsistent after the run "
						 "(page table and frames disagree)");
	} else {
		snprintf(label + strlen(label), sizeof(label) - strlen(label),
			 "%sviolations: unavailable (run with --check)", *label ? "; " : "");
	}
	if (*label)
		sb_state_set_label(st, label);
	/* time per request (one per CPU per flush) against this transport's round trip */
	sb_flush_rtt_report(st, strcmp(ipi, "signal") ? "flush:poll" : "flush:signal",
			    rep.acks ? (double)rep.migrate_ns / (double)rep.acks : 0);
}

static void shootdown_body(sb_state *st, void *arg)
{
	const struct sb_point *pt = arg;
	const struct sb_shootdown_ops *ops = sb_shootdown_find(pt->strategy);
	bool shared = strcmp(initiator, "shared") == 0;
	unsigned nresp = shared ? (unsigned)pt->threads : (unsigned)pt->threads - 1;
	struct sb_sim_params params = {
		.nresp = nresp, .pages = pages, .write_ratio = write_ratio,
		.access = strcmp(access_mode, "hot") ? SB_ACCESS_UNIFORM : SB_ACCESS_HOT,
		.ipi = strcmp(ipi, "signal") ? SB_IPI_POLL : SB_IPI_SIGNAL,
		.check = check, .seed = 1,
		/* own: each thread has its CPU, spins as one; shared: hand CPU 0 over */
		.yield_after = shared ? 64 : 0,
		.cpu0_shared = shared,
	};
	struct shootdown_run run = { 0 };
	unsigned long b = strtoul(sb_params_get(&pt->f.params, "batch"), NULL, 10);
	int n = (int)nresp + 1, *cpus = malloc(sizeof(int) * (size_t)n), i;
	const struct sb_drive_team team = { n, cpus, shootdown_member, &run, shootdown_round_ns,
					    false };
	struct sb_drive d;
	char err[256];

	/* member 0 migrates on the plan's first CPU; responders follow */
	cpus[0] = pt->cpus[0];
	for (i = 1; i < n; i++)
		cpus[i] = pt->cpus[shared ? i - 1 : i];
	run.sim = sb_sim_create(&params, err, sizeof(err));
	if (run.sim)
		run.sd = sb_shootdown_create(run.sim, ops, (unsigned)b, (unsigned)ceiling, err,
					     sizeof(err));
	/* rounds without a deadline (team's false): a responder leaving at
	 * one would never ack the flush the migrating member waits on */
	if (!run.sd) {
		sb_state_skip_with_error(st, err);
	} else if (sb_drive_run_team(st, pt, &team, &d) == 0) {
		report(st, run.sim, nresp);
		sb_drive_report_counters(st, &d);	/* --counters, per migrated page */
	}
	sb_shootdown_destroy(run.sd);
	sb_sim_destroy(run.sim);
	free(cpus);
}

const struct sb_family_driver sb_shootdown_driver = {
	.family = "shootdown",
	.summary = "TLB shootdown on a simulated machine: "
		   "shootdown/<strategy>/batch:B/threads:N/place:P",
	.reg = SB_FAMILY_shootdown,
	.options = shootdown_options,
	.check = shootdown_check_options,
	.variants = shootdown_variants,
	.params = shootdown_params,
	.body = shootdown_body,
};
