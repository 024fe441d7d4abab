/* calibrate_bench.c — the machine's limits, measured in the same run as the
 * strategies (run/limits.h records them; window and lock points report
 * limit_ops and of_limit against them):
 *   calibrate/c2c/op:store|op:cas/threads:2/place:list:A+B — members on A
 *     and B bounce one line, each waiting for the other's value then writing
 *     the next (store: spin on loads, store-release; cas: spin on CAS).  An
 *     iteration is a timed batch of SB_C2C_BATCH round trips: one-way ns =
 *     batch time / (2 × round trips), median, min and max over batches (a
 *     round's first round trip waits for the partner: untimed).  Pairs: all,
 *     or an O(PUs) sample covering every relation (machine/pairs.c), --pairs.
 *   calibrate/uncontended/op:X/threads:1 — one op per call on a line nobody
 *     else touches: cas, fetch_add, xchg, pthread_spin and pthread_mutex
 *     lock+unlock, the cycle counter, a shared jiffies-like word.  ns_per_op
 *     includes the loop (about 0.3 ns here: compare window/null).
 *   calibrate/flush/toucher:none|remote — one page written (faulted in) then
 *     madvise(MADV_DONTNEED): the real zap and TLB flush, alone or with a
 *     thread pinned on another core touching its own page, so the flush needs
 *     a shootdown IPI there; the us_per_call difference is the round trip.
 *   calibrate/flush/transport:poll|signal — the simulated machine's (bench/
 *     sim/) round trip: sb_flush_tlb_pages() of one page from the first CPU
 *     to a responder on another core running the shootdown family's default
 *     access loop (1024 hot pages, write ratio 0.5), polled or signalled.
 *     One op is a request + ack; us_per_call is the median over batches of
 *     SB_RTT_BATCH of batch time / batch, with min and max.
 */
#include "run/run.h"
#include "stats/stats.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <stratbench/shootdown.h>

#define SB_C2C_BATCH 64			/* round trips per timed sample */
#define SB_C2C_SAMPLES (1 << 16)	/* samples kept per call */
#define SB_C2C_ALL_MAX 512		/* PUs: beyond, --pairs=all measures the sample */
/* Inside run --limits a round stops early after SB_BRIEF_ROUND_NS and at
 * least SB_BRIEF_MIN_SAMPLES timed batches: on a loaded VM (vCPUs
 * descheduled while their partner spins) 2000 batches of a pair took 1 s
 * where their median says 25 ms, and median and minimum need far fewer.
 * Google Benchmark's time is then scaled to the count it asked for. */
#define SB_BRIEF_ROUND_NS 50000000ULL
#define SB_BRIEF_MIN_SAMPLES 200

/* A brief round's member 0, every 16 ops past the minimum: past its time,
 * it raises stop (its partner, serving, watches it) and says so. */
static inline bool brief_over(bool brief, const struct sb_round *r, uint64_t ops,
			      uint64_t deadline_ns)
{
	if (!brief || ops < SB_BRIEF_MIN_SAMPLES || (ops & 15) || sb_now_ns() < deadline_ns)
		return false;
	__atomic_store_n(r->stop, 1, __ATOMIC_RELAXED);	/* as sb_round_over() */
	return true;
}

static const char *pairs_mode = "auto";
static const char *const pairs_choices[] = { "auto", "all", "sample", NULL };

static const struct sb_option calibrate_options[] = {
	{ "pairs", SB_OPT_STRING, &pairs_mode, 0, 0, pairs_choices, "auto|all|sample",
	  "latency matrix CPU pairs (default auto: up to 3 per distance class; all: every "
	  "pair, the heatmap; sample: O(PUs) pairs covering every relation)" },
	{ 0 },
};

static const char *const calibrations[] = { "c2c", "uncontended", "flush", NULL };

/* uncontended's ops, in enum unc_op's order */
static const char *const unc_ops[] = { "cas", "fetch_add", "xchg", "spin", "mutex", "cycles",
	"jiffies", NULL };

/* Each variant is one parameter: key, value. */
static int calibrate_variants(const char *strategy, struct sb_params *sets, int max)
{
	static const char *const c2c[] = { "op", "store", "op", "cas", NULL };
	static const char *const flush[] = { "toucher", "none", "toucher", "remote", "transport",
		"poll", "transport", "signal", NULL };
	const char *const *v = !strcmp(strategy, "c2c") ? c2c : flush;
	int n = 0;

	if (!strcmp(strategy, "uncontended")) {
		for (; n < max && unc_ops[n]; n++)
			sb_params_set(&sets[n], "op", "%s", unc_ops[n]);
		return n;
	}
	for (; n < max && v[2 * (size_t)n]; n++)
		sb_params_set(&sets[n], v[2 * (size_t)n], "%s", v[2 * (size_t)n + 1]);
	return n;
}

int sb_calibrate_pairs_mode(const struct sb_topo *t)
{
	/* pairs_choices are the parser's three: never -1 */
	int mode = sb_pairs_mode_parse(pairs_mode);

	if (mode == SB_PAIRS_ALL && sb_topo_npus(t) > SB_C2C_ALL_MAX)
		mode = SB_PAIRS_SAMPLE;		/* npus² Google Benchmark points */
	return mode;
}

static int calibrate_cpu_sets(const struct sb_topo *t, const char *strategy,
			      const struct sb_params *variant, struct sb_cpu_set **sets)
{
	int npus = sb_topo_npus(t), cpus[2], *pairs = NULL, n, i;
	const char *toucher, *transport;
	char err[256];

	if (!strcmp(strategy, "c2c")) {
		int mode = sb_calibrate_pairs_mode(t);

		if (mode == SB_PAIRS_SAMPLE && !strcmp(pairs_mode, "all"))
			fprintf(stderr, "stratbench: note: calibrate/c2c: every pair of %d PUs is "
				"too many; measuring the sample (--pairs=sample)\n", npus);
		n = npus < 2 ? 0 : sb_topo_pairs(t, (enum sb_pairs_mode)mode, &pairs);
		if (n <= 0) {
			fprintf(stderr, "stratbench: note: calibrate/c2c skipped: %s\n",
				npus < 2 ? "one CPU, no pair to measure" : "out of memory");
			free(pairs);
			return 0;
		}
		*sets = calloc(n, sizeof(**sets));
		for (i = 0; i < n; i++) {
			(*sets)[i].n = 2;
			memcpy((*sets)[i].cpu, &pairs[2 * (size_t)i], sizeof(int) * 2);
		}
		free(pairs);
		return n;
	}
	toucher = sb_params_get(variant, "toucher");
	transport = sb_params_get(variant, "transport");
	n = !strcmp(strategy, "flush") && !(toucher && !strcmp(toucher, "none")) ? 2 : 1;
	/* a remote toucher on another core when there is one */
	if (n == 2 && sb_topo_plan(t, sb_topo_ncores(t) > 1 ? "cores" : "compact", 2, cpus,
				   err, sizeof(err))) {
		fprintf(stderr, "stratbench: note: calibrate/flush/%s:%s skipped: %s\n",
			toucher ? "toucher" : "transport", toucher ? toucher : transport, err);
		return 0;
	}
	if (n == 1)
		sb_topo_plan(t, "compact", 1, cpus, err, sizeof(err));
	*sets = calloc(1, sizeof(**sets));
	(*sets)[0].n = n;
	memcpy((*sets)[0].cpu, cpus, sizeof(int) * n);
	return 1;
}

/* ---- c2c: the line bounce --------------------------------------------- */

struct c2c_member {
	SB_CACHE_ALIGNED uint64_t seq;	/* next value this member waits for */
};

struct c2c_run {
	uint64_t *line;			/* the bounced line, on the home node */
	bool cas, brief;		/* brief: a round may end early */
	uint64_t batches, quota;	/* the round's batches and quota (member 0) */
	double *samples;		/* one-way ns per batch, member 0 only */
	double cycles_per_ns;
	int nsamples;			/* member 0 writes it every batch: not last's line */
	/* the round's last batch (UINT64_MAX: the quota's); alone on its line:
	 * written twice a round, read by member 1 without a transfer */
	SB_CACHE_ALIGNED uint64_t last;
	struct c2c_member m[2];
};

/* One op is one batch, timed by member 0: one iteration yields a sample. */
static uint64_t c2c_member_fn(int tid, const struct sb_round *r, void *arg)
{
	struct c2c_run *c = arg;
	uint64_t *line = c->line, q = r->quota, b, v = c->m[tid].seq, t0 = 0, t1;
	uint64_t deadline = 0;
	const bool cas = c->cas, brief = c->brief;	/* not re-read from c in the loop */

	if (tid == 0) {
		/* relaxed: published to member 1 by this round's first write
		 * (release), before which member 1 cannot finish a batch */
		__atomic_store_n(&c->last, UINT64_MAX, __ATOMIC_RELAXED);
		deadline = sb_read_cycles() + (uint64_t)(SB_BRIEF_ROUND_NS * c->cycles_per_ns);
	}
	for (b = 0; b < q; b++) {
		for (int j = 0; j < SB_C2C_BATCH; j++, v += 2) {
			if (cas) {
				uint64_t e;

				/* acq_rel, as a lock's RMW; no pause: the bare transfer */
				do
					e = v;
				while (!__atomic_compare_exchange_n(line, &e, v + 1, false,
								    __ATOMIC_ACQ_REL,
								    __ATOMIC_RELAXED));
			} else {
				/* acquire/release, as a lock hand-over; no pause */
				while (__atomic_load_n(line, __ATOMIC_ACQUIRE) != v)
					;
				__atomic_store_n(line, v + 1, __ATOMIC_RELEASE);
			}
			/* member 0's clock: from its first write of the batch, or of
			 * the round's second round trip */
			if (tid == 0 && j == (b == 0))
				t0 = sb_read_cycles();
		}
		if (tid == 0) {
			t1 = sb_read_cycles();
			if (c->nsamples < SB_C2C_SAMPLES)
				c->samples[c->nsamples++] = (double)(t1 - t0) /
					(2.0 * (SB_C2C_BATCH - (b == 0)) * c->cycles_per_ns);
			/* brief, long enough: one more batch, which member 1 ends
			 * after this store (its acquire of the batch), then stop */
			if (brief && b + 1 >= SB_BRIEF_MIN_SAMPLES && b + 1 < q && t1 > deadline &&
			    __atomic_load_n(&c->last, __ATOMIC_RELAXED) == UINT64_MAX)
				__atomic_store_n(&c->last, b + 1, __ATOMIC_RELAXED);
		}
		/* relaxed: ordered by the line's acquire (member 1) or program
		 * order (member 0); a full-count round never looks */
		if (brief && b >= __atomic_load_n(&c->last, __ATOMIC_RELAXED)) {
			b++;
			break;
		}
	}
	if (tid == 0) {
		c->batches = b;
		c->quota = q;
	}
	c->m[tid].seq = v;
	return b;
}

/* A round's time scaled to the quota when it ended early (brief). */
static uint64_t brief_scaled(const struct sb_team_result *r, uint64_t done, uint64_t quota)
{
	if (!done || done >= quota)
		return r->elapsed_ns;
	return (uint64_t)((double)r->elapsed_ns * (double)quota / (double)done);
}

static uint64_t c2c_round_ns(const struct sb_team_result *r, void *arg)
{
	const struct c2c_run *c = arg;

	return brief_scaled(r, c->batches, c->quota);
}

/* The n samples' median, min and max / unit as name[0..2], and their count. */
static void report_samples(sb_state *st, double *s, int n, double unit,
			   const char *const name[3])
{
	qsort(s, n, sizeof(double), sb_cmp_double);
	sb_state_counter(st, name[0], s[n / 2] / unit, SB_COUNTER_DEFAULT);
	sb_state_counter(st, name[1], s[0] / unit, SB_COUNTER_DEFAULT);
	sb_state_counter(st, name[2], s[n - 1] / unit, SB_COUNTER_DEFAULT);
	sb_state_counter(st, "samples", n, SB_COUNTER_DEFAULT);
}

static void c2c_body(sb_state *st, const struct sb_point *pt, bool cas)
{
	struct c2c_run *c = aligned_alloc(SB_CACHELINE, sizeof(*c));
	int a = pt->cpus[0], b = pt->cpus[1], rel = sb_topo_relation(pt->topo, a, b);
	/* a deadline: the members ignore stop (a round ends at its quota), never cut */
	const struct sb_drive_team team = { pt->threads, pt->cpus, c2c_member_fn, c, c2c_round_ns,
					    true };
	int pkg[2], core[2], node[2];
	struct sb_drive d;

	memset(c, 0, sizeof(*c));
	c->cas = cas;
	c->brief = pt->brief;
	c->m[1].seq = 1;
	c->samples = malloc(sizeof(double) * SB_C2C_SAMPLES);
	c->cycles_per_ns = sb_cycles_per_ns();
	c->line = sb_drive_alloc(st, pt, SB_CACHELINE);
	if (!c->line)
		goto out;
	if (sb_drive_run_team(st, pt, &team, &d) == 0) {
		static const char *const names[3] = {
			"one_way_ns", "one_way_min_ns", "one_way_max_ns",
		};

		sb_drive_report_counters(st, &d);	/* and frees d */
		if (c->nsamples)	/* every iteration is a sample */
			report_samples(st, c->samples, c->nsamples, 1, names);
		/* for the heatmap: where the two CPUs are */
		sb_state_counter(st, "rel", rel, SB_COUNTER_DEFAULT);
		for (int i = 0; i < 2; i++)
			if (sb_topo_cpu_where(pt->topo, pt->cpus[i], &pkg[i], &core[i], &node[i]))
				pkg[i] = node[i] = -1;
		sb_state_counter(st, "pkg_a", pkg[0], SB_COUNTER_DEFAULT);
		sb_state_counter(st, "pkg_b", pkg[1], SB_COUNTER_DEFAULT);
		sb_state_counter(st, "node_a", node[0], SB_COUNTER_DEFAULT);
		sb_state_counter(st, "node_b", node[1], SB_COUNTER_DEFAULT);
	}
	sb_drive_free(pt, c->line, SB_CACHELINE);
out:
	free(c->samples);
	free(c);
}

/* ---- uncontended single-op costs ---------------------------------------- */

enum unc_op { UNC_CAS, UNC_FETCH_ADD, UNC_XCHG, UNC_SPIN, UNC_MUTEX, UNC_CYCLES, UNC_JIFFIES };

struct unc_run {
	enum unc_op op;
	uint64_t *word;			/* its own line on the home node */
	pthread_spinlock_t spin;
	pthread_mutex_t mutex;
	uint64_t sink;
};

static uint64_t unc_member_fn(int tid, const struct sb_round *r, void *arg)
{
	struct unc_run *u = arg;
	uint64_t *w = u->word, q = r->quota, i, acc = 0, e = __atomic_load_n(w, __ATOMIC_RELAXED);

	(void)tid;
	switch (u->op) {	/* one loop per op: nothing but the op inside */
	case UNC_CAS:
		for (i = 0; i < q; i++)	/* acq_rel, as a lock's RMW; always succeeds */
			if (__atomic_compare_exchange_n(w, &e, e + 1, false, __ATOMIC_ACQ_REL,
							__ATOMIC_RELAXED))
				e++;
		break;
	case UNC_FETCH_ADD:
		for (i = 0; i < q; i++)
			__atomic_fetch_add(w, 1, __ATOMIC_ACQ_REL);
		break;
	case UNC_XCHG:
		for (i = 0; i < q; i++)
			acc += __atomic_exchange_n(w, i, __ATOMIC_ACQ_REL);
		break;
	case UNC_SPIN:
		for (i = 0; i < q; i++) {
			pthread_spin_lock(&u->spin);
			pthread_spin_unlock(&u->spin);
		}
		break;
	case UNC_MUTEX:
		for (i = 0; i < q; i++) {
			pthread_mutex_lock(&u->mutex);
			pthread_mutex_unlock(&u->mutex);
		}
		break;
	case UNC_CYCLES:
		for (i = 0; i < q; i++)
			acc += sb_read_cycles();
		break;
	case UNC_JIFFIES:
		/* READ_ONCE(jiffies): a relaxed load the compiler must repeat */
		for (i = 0; i < q; i++) {
			acc += __atomic_load_n(w, __ATOMIC_RELAXED);
			sb_barrier();
		}
		break;
	}
	u->sink = acc;
	return q;
}

static void unc_body(sb_state *st, const struct sb_point *pt, const char *op)
{
	struct unc_run u = { .op = UNC_CAS };
	struct sb_drive d;
	int i;

	for (i = 0; unc_ops[i] && strcmp(unc_ops[i], op); i++)
		;
	u.op = (enum unc_op)i;
	u.word = sb_drive_alloc(st, pt, SB_CACHELINE);
	if (!u.word)
		return;
	pthread_spin_init(&u.spin, PTHREAD_PROCESS_PRIVATE);
	pthread_mutex_init(&u.mutex, NULL);
	if (sb_drive_run(st, pt, unc_member_fn, &u, &d) == 0)
		sb_drive_report(st, &d);
	pthread_mutex_destroy(&u.mutex);
	pthread_spin_destroy(&u.spin);
	sb_drive_free(pt, u.word, SB_CACHELINE);
}

/* ---- flush: a one-page madvise, with and without a remote toucher --------- */

struct flush_run {
	char *page;			/* zapped and faulted in by member 0 */
	char *other;			/* the toucher's own page: keeps the mm live there */
	long pagesz;
	int failed;			/* errno of a failed madvise */
	bool brief;			/* a round may end early */
	uint64_t calls, quota;		/* the round's calls and quota (member 0) */
	uint64_t real_ns;		/* the rounds' time, unscaled */
};

static uint64_t flush_member_fn(int tid, const struct sb_round *r, void *arg)
{
	struct flush_run *f = arg;
	uint64_t ops = 0, deadline = sb_now_ns() + SB_BRIEF_ROUND_NS;

	if (tid == 1) {		/* toucher: runs this mm on its CPU until stop */
		while (!sb_round_over(r, 0))
			(void)__atomic_load_n((volatile char *)f->other, __ATOMIC_RELAXED);
		return 0;
	}
	do {
		__atomic_store_n(f->page, (char)ops, __ATOMIC_RELAXED);	/* fault it in */
		if (madvise(f->page, (size_t)f->pagesz, MADV_DONTNEED)) {
			f->failed = 1;
			__atomic_store_n(r->stop, 1, __ATOMIC_RELAXED);
			break;
		}
		ops++;
	} while (!sb_round_over(r, ops) && !brief_over(f->brief, r, ops, deadline));
	f->calls = ops;
	f->quota = r->quota;
	return ops;
}

/* scaled as c2c_round_ns, and the unscaled time kept */
static uint64_t flush_round_ns(const struct sb_team_result *r, void *arg)
{
	struct flush_run *f = arg;

	f->real_ns += r->elapsed_ns;
	return brief_scaled(r, f->calls, f->quota);
}

static void flush_body(sb_state *st, const struct sb_point *pt)
{
	struct flush_run f = { .pagesz = sysconf(_SC_PAGESIZE), .brief = pt->brief };
	/* a deadline: the toucher may leave at any moment; flush_round_ns scales */
	const struct sb_drive_team team = { pt->threads, pt->cpus, flush_member_fn, &f,
					    flush_round_ns, true };
	struct sb_drive d;
	char *mem = mmap(NULL, (size_t)f.pagesz * 2, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (mem == MAP_FAILED) {
		sb_state_skip_with_error(st, "mmap of two pages failed");
		return;
	}
	f.page = mem;
	f.other = mem + f.pagesz;
	memset(f.other, 1, (size_t)f.pagesz);
	if (sb_drive_run_team(st, pt, &team, &d) == 0) {
		if (f.failed) {
			sb_state_skip_with_error(st, "madvise(MADV_DONTNEED) failed");
		} else if (d.ops[0] && f.real_ns) {
			double us = (double)f.real_ns / (double)d.ops[0] / 1e3;

			sb_state_counter(st, "us_per_call", us, SB_COUNTER_DEFAULT);
			sb_state_counter(st, "ops_per_s", (double)d.ops[0] * 1e9 / (double)f.real_ns,
					 SB_COUNTER_DEFAULT);
		}
		sb_drive_report_counters(st, &d);
	}
	munmap(mem, (size_t)f.pagesz * 2);
}

/* ---- flush/transport: the simulated machine's round trip ----------------- */

#define SB_RTT_BATCH 16			/* round trips per timed sample */
#define SB_RTT_SAMPLES (1 << 16)	/* samples kept per call */

struct rtt_run {
	struct sb_sim *sim;
	struct sb_shootdown *sd;	/* flush-only: no strategy */
	double *samples;		/* ns per round trip, per batch */
	int nsamples;
	uint64_t trips;			/* requests sent, over the rounds */
	bool brief;			/* a round may end early */
};

/* Member 0 sends; member 1 is the machine's CPU 0, serving until stop.
 * sb_sim_migrate_begin() starts its round (untimed no-migration phase). */
static uint64_t rtt_member_fn(int tid, const struct sb_round *r, void *arg)
{
	static const unsigned long page;	/* page 0: in the hot set */
	struct rtt_run *x = arg;
	struct sb_cpumask one;
	uint64_t n = 0, t0, deadline = sb_now_ns() + SB_BRIEF_ROUND_NS;

	if (tid == 1)
		return sb_sim_respond(x->sim, 0, r);
	sb_cpumask_clear(&one);
	sb_cpumask_set(&one, 0);
	sb_sim_migrate_begin(x->sd);
	do {
		t0 = sb_now_ns();
		for (int j = 0; j < SB_RTT_BATCH; j++)
			sb_flush_tlb_pages(x->sd, &one, &page, 1);
		if (x->nsamples < SB_RTT_SAMPLES)
			x->samples[x->nsamples++] = (double)(sb_now_ns() - t0) / SB_RTT_BATCH;
		n += SB_RTT_BATCH;
	} while (!sb_round_over(r, n) && !brief_over(x->brief, r, n, deadline));
	/* the round's time: the requests only, as Google Benchmark's */
	sb_sim_migrate_end(x->sd, n, r->quota);
	x->trips += n;
	return n;
}

/* A round's time: first request to last ack, scaled to the quota (whole batches). */
static uint64_t rtt_round_ns(const struct sb_team_result *r, void *arg)
{
	const struct sb_shootdown *sd = ((const struct rtt_run *)arg)->sd;

	(void)r;
	return sd->round_pages ? (uint64_t)((double)sd->round_migrate_ns *
					    (double)sd->round_quota / (double)sd->round_pages) : 0;
}

static void rtt_body(sb_state *st, const struct sb_point *pt)
{
	struct sb_sim_params params = {
		.nresp = 1, .pages = 1024, .write_ratio = 0.5, .access = SB_ACCESS_HOT,
		.ipi = strcmp(sb_params_get(&pt->f.params, "transport"), "signal") ? SB_IPI_POLL :
		       SB_IPI_SIGNAL,
		.seed = 1,
	};
	struct rtt_run x = { .samples = malloc(sizeof(double) * SB_RTT_SAMPLES),
			     .brief = pt->brief };
	const struct sb_drive_team team = { 2, pt->cpus, rtt_member_fn, &x, rtt_round_ns, false };
	struct sb_sim_report rep;
	struct sb_drive d;
	char err[256];

	x.sim = x.samples ? sb_sim_create(&params, err, sizeof(err)) : NULL;
	if (x.sim)
		x.sd = sb_shootdown_create(x.sim, NULL, 1, 1, err, sizeof(err));
	/* rounds without a deadline (team's false): the responder must ack
	 * every request, and stop raised by one would leave one unacked */
	if (!x.sd) {
		sb_state_skip_with_error(st, x.samples ? err : "out of memory");
	} else if (sb_drive_run_team(st, pt, &team, &d) == 0) {
		sb_sim_report(x.sim, &rep);
		if (rep.acks != x.trips || rep.flushes != x.trips) {
			/* the machine's own count: one request, one ack per call */
			snprintf(err, sizeof(err), "flush round trip: %llu requests, %llu acks",
				 (unsigned long long)x.trips, (unsigned long long)rep.acks);
			sb_state_skip_with_error(st, err);
		} else if (x.nsamples) {
			static const char *const names[3] = {
				"us_per_call", "us_per_call_min", "us_per_call_max",
			};

			report_samples(st, x.samples, x.nsamples, 1e3, names);
		}
		sb_drive_report_counters(st, &d);
	}
	sb_shootdown_destroy(x.sd);
	sb_sim_destroy(x.sim);
	free(x.samples);
}

static void calibrate_body(sb_state *st, void *arg)
{
	const struct sb_point *pt = arg;
	const char *op = sb_params_get(&pt->f.params, "op");

	if (!strcmp(pt->strategy, "c2c"))
		c2c_body(st, pt, !strcmp(op, "cas"));
	else if (!strcmp(pt->strategy, "flush") && sb_params_get(&pt->f.params, "transport"))
		rtt_body(st, pt);
	else if (!strcmp(pt->strategy, "flush"))
		flush_body(st, pt);
	else
		unc_body(st, pt, op);
}

/* Inside a run: a fixed count, tens of ms each on an idle machine. */
static int64_t calibrate_brief_iterations(const char *strategy)
{
	if (!strcmp(strategy, "c2c"))
		return 2000;		/* batches: 256k line transfers */
	if (!strcmp(strategy, "flush"))
		return 5000;		/* madvise calls, or simulated round trips */
	return 5000000;			/* uncontended ops */
}

const struct sb_family_driver sb_calibrate_driver = {
	.family = "calibrate",
	.summary = "the machine's limits, measured first in the same run: "
		   "calibrate/<what>/<variant>/threads:N/place:list:CPUS",
	.reg = SB_FAMILY_MAX,
	.names = calibrations,
	.options = calibrate_options,
	.variants = calibrate_variants,
	.cpu_sets = calibrate_cpu_sets,
	.calibrates = true,
	.brief_iterations = calibrate_brief_iterations,
	.body = calibrate_body,
};
