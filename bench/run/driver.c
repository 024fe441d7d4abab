/* driver.c — run a point's rounds on a pinned team, report common counters. */
#include "console/console.h"
#include "machine/procfs.h"
#include "results/settings.h"
#include "run/run.h"
#include "stats/stats.h"

#include <math.h>
#include <signal.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bounds a round (and the stop-flag overshoot), the barrier cost per op negligible. */
#define SB_ROUND_MAX (1 << 22)

/* The deadline of a round, as a multiple of the time Google Benchmark
 * planned for it: GB sizes a batch of iterations to last about 1.4 x
 * min_time at the rate its previous batch showed (at most 1 x min_time
 * while it still grows it tenfold), so a batch that passes 4 x min_time ran
 * at under a third of the rate GB planned with: a convoy (docs/lock.md,
 * "Rounds and their deadline").  A batch of several rounds gives each its
 * share, in iterations, so the batch as a whole keeps the bound; never
 * under SB_DEADLINE_MIN_NS, a few scheduler ticks (the watcher's wake-up
 * and a preempted member's return are of that order). */
#define SB_DEADLINE_MIN_TIMES 4.0
#define SB_DEADLINE_MIN_NS 1000000.0

static uint64_t round_limit_ns(sb_state *st, int64_t k)
{
	double min_time = sb_state_min_time(st), batch = (double)sb_state_max_iterations(st), ns;

	if (min_time <= 0 || batch < 1)
		return 0;	/* a fixed iteration count: no time was planned */
	ns = SB_DEADLINE_MIN_TIMES * min_time * 1e9 * (double)k / batch;
	return (uint64_t)(ns > SB_DEADLINE_MIN_NS ? ns : SB_DEADLINE_MIN_NS);
}

static const struct sb_counters_spec *drive_counters;
static bool noted;

void sb_drive_set_counters(const struct sb_counters_spec *s)
{
	drive_counters = s;
	noted = false;
}

void *sb_drive_alloc(sb_state *st, const struct sb_point *pt, size_t size)
{
	char err[256], msg[300];
	bool bound;
	void *p;

	sb_settings_warn(stderr);	/* once, now that a benchmark runs */
	p = sb_topo_alloc_on_node(pt->topo, size, pt->home_node, &bound, err, sizeof(err));
	if (!p) {
		snprintf(msg, sizeof(msg), "home node: %s", err);
		sb_state_skip_with_error(st, msg);
		return NULL;
	}
	if (!bound) {	/* no home_node counter: it would claim a placement */
		static int warned;

		if (!warned++)
			fprintf(stderr, "stratbench: note: memory binding to node %d unavailable "
				"here; shared state is allocated without a node policy\n",
				pt->home_node);
	} else {	/* the NUMA node (OS index) the shared state is bound to */
		sb_state_counter(st, "home_node", pt->home_node, SB_COUNTER_DEFAULT);
	}
	return p;
}

void sb_drive_free(const struct sb_point *pt, void *p, size_t size)
{
	sb_topo_free(pt->topo, p, size);
}

/* The run's counters (none when off) opened on team's n members, on cpus, and
 * read around each member's part of every round; NULL: none */
static struct sb_counters *counters_attach(struct sb_team *team, int n, const int *cpus, bool off)
{
	/* opened untimed on each member's thread, read around its part of each round;
	 * the machine-wide files around the whole timed region */
	struct sb_counters *cnt = sb_counters_open(off ? NULL : drive_counters, n, cpus);

	if (cnt) {
		struct sb_team_hooks h = {
			sb_counters_member_enter, sb_counters_member_leave, cnt,
		};

		sb_team_each(team, sb_counters_member_open, cnt);
		sb_team_set_hooks(team, &h);
		sb_counters_begin(cnt);
	}
	return cnt;
}

static void counters_detach(struct sb_team *team, struct sb_counters *cnt)
{
	sb_counters_end(cnt);
	if (team)
		sb_team_set_hooks(team, NULL);
}

static void counters_open(struct sb_drive *d, const struct sb_point *pt, const int *cpus)
{
	sb_settings_warn(stderr);
	if (!noted) {	/* once per run, when the first benchmark runs */
		noted = true;
		if (!sb_console_owns())	/* else its context line said it */
			sb_counters_note_unavailable(drive_counters, stderr);
	}
	d->cnt = counters_attach(d->team, d->n, cpus, pt->counters_off);
}

static void counters_close(struct sb_drive *d)
{
	counters_detach(d->team, d->cnt);
}

int sb_drive_run(sb_state *st, const struct sb_point *pt, sb_team_fn fn, void *arg,
		 struct sb_drive *d)
{
	/* every member has a quota or may leave at any moment: a deadline */
	const struct sb_drive_team t = { pt->threads, pt->cpus, fn, arg, NULL, true };

	return sb_drive_run_team(st, pt, &t, d);
}

/* The steal on the members' CPUs (the machine's, unpinned) over the rounds:
 * before (into d->stat0) and after (then d->steal_pct); unreadable: NaN. */
static void steal_mark(struct sb_drive *d, const int *cpus, bool after)
{
	struct sb_cpu_ticks now;
	char err[128];
	int n = cpus ? d->n : 0;

	if (!after) {
		if (sb_stat_read(NULL, cpus, n, &d->stat0, err, sizeof(err)))
			d->stat0.has_steal = false;
		return;
	}
	d->steal_pct = NAN;
	if (!sb_stat_read(NULL, cpus, n, &now, err, sizeof(err)))
		d->steal_pct = sb_steal_pct(&d->stat0, &now);
}

/* The per-member use, all readings good so far; false: out of memory. */
static bool use_open(struct sb_drive *d)
{
	d->use = calloc(d->n, sizeof(*d->use));
	for (int i = 0; d->use && i < d->n; i++)
		d->use[i].ok = true;
	return d->use != NULL;
}

void sb_drive_add_use(struct sb_drive *d, const struct sb_team_result *r)
{
	if (!d->use || !r->use)	/* no round (an engine's before its first) */
		return;
	d->team_ns += r->elapsed_ns;
	for (int i = 0; i < d->n; i++) {
		d->use[i].cpu_ns += r->use[i].cpu_ns;
		d->use[i].csw_vol += r->use[i].csw_vol;
		d->use[i].csw_inv += r->use[i].csw_inv;
		d->use[i].ok = d->use[i].ok && r->use[i].ok;
	}
}

/* A driver running its own rounds (run.h). */
void sb_drive_counters_open(struct sb_drive *d, const struct sb_point *pt)
{
	counters_open(d, pt, pt->cpus);
	/* no use array (out of memory): no preemption counters, the run goes on */
	if (use_open(d)) {
		d->steal_cpus = pt->cpus;
		steal_mark(d, pt->cpus, false);
	}
}

void sb_drive_counters_close(struct sb_drive *d)
{
	counters_close(d);
	if (d->use)
		steal_mark(d, d->steal_cpus, true);
}

/* the counters and the per-member arrays of a point, once its rounds are over */
static void drive_release(struct sb_drive *d)
{
	sb_counters_close(d->cnt);
	d->cnt = NULL;
	free(d->ops);
	d->ops = NULL;
	free(d->use);
	d->use = NULL;
}


int sb_drive_run_team(sb_state *st, const struct sb_point *pt, const struct sb_drive_team *t,
		      struct sb_drive *d)
{
	char err[256];
	bool failed = false;
	int64_t k;
	int i;

	memset(d, 0, sizeof(*d));
	d->n = t->n;
	d->ops = calloc(d->n, sizeof(*d->ops));
	d->team = d->ops && use_open(d) ? sb_team_create(t->n, t->cpus, t->fn, t->arg, err,
							  sizeof(err)) : NULL;
	if (!d->team) {
		sb_state_skip_with_error(st, d->ops && d->use ? err : "out of memory");
		drive_release(d);
		return -1;
	}
	counters_open(d, pt, t->cpus);
	steal_mark(d, t->cpus, false);
	while ((k = sb_state_keep_running_batch(st, SB_ROUND_MAX)) > 0) {
		struct sb_team_result r;
		uint64_t ns, limit = t->deadline ? round_limit_ns(st, k) : 0;
		double gb_ns;
		int rc;

		rc = sb_team_run_until(d->team, (uint64_t)k, limit, &r);
		if (rc) {
			snprintf(err, sizeof(err), "cannot start the round deadline's thread: %s",
				 strerror(rc));
			sb_state_skip_with_error(st, err);
			failed = true;
			break;
		}
		d->deadline = d->deadline || limit;
		d->rounds_cut += r.cut;
		ns = t->round_ns ? t->round_ns(&r, t->arg) : r.elapsed_ns;
		/* Google Benchmark counts k iterations (one op of the fastest
		 * member each) whatever the round did: a round cut short reports
		 * the time its k ops would take at the rate it ran, so GB's time
		 * per iteration stays the fastest member's time per op; the
		 * counters below (ops_per_s, ns_per_op) take the ops done in the
		 * time they took.  round_ns drivers scale to their quota already. */
		gb_ns = (double)ns;
		if (!t->round_ns && r.max_ops < (uint64_t)k)
			gb_ns *= (double)k / (double)(r.max_ops ? r.max_ops : 1);
		sb_state_set_iteration_time(st, gb_ns * 1e-9);
		d->elapsed_ns += ns;
		d->total_ops += r.total_ops;
		for (i = 0; i < d->n; i++)
			d->ops[i] += r.ops[i];
		sb_drive_add_use(d, &r);
	}
	steal_mark(d, t->cpus, true);
	counters_close(d);
	sb_team_destroy(d->team);
	d->team = NULL;
	if (failed) {
		drive_release(d);
		return -1;
	}
	return 0;
}

/* How long the members were off their CPUs (docs/results.md "Preemption"):
 * the least on-CPU member, since one descheduled member stalls a FIFO lock's
 * whole queue, with its own context switches (whether it was switched out or
 * blocked); absent where a driver running its own rounds gave none of them
 * (sb_drive_add_use), or where a member's thread clock or getrusage failed. */
static void report_preemption(sb_state *st, const struct sb_drive *d)
{
	int least = 0;

	if (!d->use || !d->team_ns)
		return;
	for (int i = 0; i < d->n; i++) {
		if (!d->use[i].ok)
			goto steal;
		if (d->use[i].cpu_ns < d->use[least].cpu_ns)
			least = i;
	}
	sb_state_counter(st, "on_cpu_pct", 100.0 * (double)d->use[least].cpu_ns /
			 (double)d->team_ns, SB_COUNTER_DEFAULT);
	sb_state_counter(st, "ctx_switches", (double)(d->use[least].csw_vol +
			 d->use[least].csw_inv), SB_COUNTER_DEFAULT);
	sb_state_counter(st, "ctx_involuntary", (double)d->use[least].csw_inv,
			 SB_COUNTER_DEFAULT);
steal:
	if (!isnan(d->steal_pct))
		sb_state_counter(st, "steal_pct", d->steal_pct, SB_COUNTER_DEFAULT);
}

/* cnt:NAME (timed region's total), cnt:NAME/op; the unmeasurable in the label. */
void sb_drive_report_counters(sb_state *st, struct sb_drive *d)
{
	const char *name;
	char per_op[192];
	double v;

	report_preemption(st, d);

	/* the rounds of the reported run that their deadline ended early;
	 * absent where no round had one (a fixed iteration count) */
	if (d->deadline)
		sb_state_counter(st, "rounds_cut", (double)d->rounds_cut, SB_COUNTER_DEFAULT);

	for (int i = 0; sb_counters_result(d->cnt, i, &name, &v); i++) {
		sb_state_counter(st, name, v, SB_COUNTER_DEFAULT);
		if (d->total_ops) {
			snprintf(per_op, sizeof(per_op), "%s/op", name);
			sb_state_counter(st, per_op, v / (double)d->total_ops, SB_COUNTER_DEFAULT);
		}
	}
	if (*sb_counters_label(d->cnt))
		sb_state_append_label(st, sb_counters_label(d->cnt));
	drive_release(d);
}

void sb_drive_report(sb_state *st, struct sb_drive *d)
{
	uint64_t mn = UINT64_MAX, mx = 0;
	double sum = 0, sumsq = 0;
	int i;

	for (i = 0; i < d->n; i++) {
		double x = (double)d->ops[i];

		mn = d->ops[i] < mn ? d->ops[i] : mn;
		mx = d->ops[i] > mx ? d->ops[i] : mx;
		sum += x;
		sumsq += x * x;
	}
	if (d->elapsed_ns && d->total_ops) {
		double sec = (double)d->elapsed_ns * 1e-9;

		sb_state_counter(st, "ops_per_s", (double)d->total_ops / sec, SB_COUNTER_DEFAULT);
		/* wall time per op of one thread: elapsed / (ops per thread) */
		sb_state_counter(st, "ns_per_op",
				 (double)d->elapsed_ns * d->n / (double)d->total_ops,
				 SB_COUNTER_DEFAULT);
		sb_state_counter(st, "ops_min", (double)mn, SB_COUNTER_DEFAULT);
		sb_state_counter(st, "ops_max", (double)mx, SB_COUNTER_DEFAULT);
		/* Jain's index: 1 when every thread did the same work, 1/n at worst */
		sb_state_counter(st, "jain", sumsq > 0 ? sum * sum / (d->n * sumsq) : 0,
				 SB_COUNTER_DEFAULT);
	}
	sb_drive_report_counters(st, d);
}

/* --- a call's fixed cost, for --dry-run's estimate ---------------------- */

static uint64_t probe_fn(int tid, const struct sb_round *r, void *arg)
{
	(void)tid;
	(void)r;
	(void)arg;
	return 1;
}

/* One call's work outside the timed ops, through sb_drive_run_team's own
 * steps (team, counters, steal readings); ns, 0 when it cannot run. */
static uint64_t call_once(int n, const int *cpus)
{
	uint64_t t0 = sb_now_ns();
	struct sb_drive d = { .n = n };
	struct sb_team_result r;
	char err[256];
	int rc;

	d.team = sb_team_create(n, cpus, probe_fn, NULL, err, sizeof(err));
	if (!d.team)
		return 0;
	d.cnt = counters_attach(d.team, n, cpus, false);
	steal_mark(&d, cpus, false);
	/* with a deadline, as a min_time call's rounds: its watcher thread too */
	rc = sb_team_run_until(d.team, 1, (uint64_t)SB_DEADLINE_MIN_NS, &r);
	steal_mark(&d, cpus, true);
	counters_close(&d);
	sb_counters_close(d.cnt);
	sb_team_destroy(d.team);
	return rc ? 0 : sb_now_ns() - t0;
}

double sb_drive_call_s(int n, const int *cpus)
{
	double s[3];

	for (int i = 0; i < 3; i++) {
		s[i] = (double)call_once(n, cpus) * 1e-9;
		if (s[i] <= 0)
			return 0;
	}
	return sb_median(s, 3);	/* a first call pays for page faults and loading */
}

void sb_catch_stop_signals(void (*handler)(int))
{
	struct sigaction sa = { .sa_handler = handler ? handler : SIG_DFL, .sa_flags = SA_RESTART };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}
