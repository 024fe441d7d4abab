/* dry_run.c — `run --dry-run`: each planned benchmark listed with its
 * repetitions, and the time the run would take by a model of each
 * benchmark's wall time, with a call's fixed cost measured on this machine
 * (on another machine's topology, modelled).  No benchmark is run and
 * nothing is written; on this machine a few empty calls are timed. */
#include "cmd/cmd.h"

#include <stdlib.h>
#include <string.h>

/* The time a run takes, modelled per benchmark from what Google Benchmark
 * 1.7.1 and the harness do (docs/running.md, "The estimate"):
 *  - every call of a benchmark's body starts a team of N pinned threads,
 *    opens the counters and reads /proc around its region: on this machine
 *    that is measured (call_cost: from 1 ms at 1 thread on a quiet VM to
 *    about 1 s at 8 threads in a TCG guest); for another machine's topology,
 *    or where a team cannot be made, it is modelled, EST_CALL_S plus
 *    EST_THREAD_S a member;
 *  - the first repetition searches the iteration count: about EST_PROBES
 *    short calls, and runs that end up about EST_SEARCH x min_time in all
 *    (a run that came out short of min_time is run again, longer); every
 *    repetition's reported run is about EST_GROWTH x min_time (GB aims at
 *    1.4 x; rates that move between runs overshoot);
 *  - untimed work inside a call: the kernel drivers' handshakes, re-faults
 *    and mincore make their wall time EST_KERNEL_WALL x their timed
 *    (manual) time (fits the TCG guests to within 25 %; a quiet VM takes
 *    nearer 8 x: an upper bound there); the simulated machine's
 *    no-migration phase adds a quarter (EST_SIM_WALL) and building it
 *    EST_SIM_CALL_S a call;
 *  - a fixed count (--limits' calibration) is one call: a line bounce or a
 *    flush round ends after 50 ms (calibrate_bench.c), 5 M uncontended ops
 *    take tens of ms: EST_FIXED_S;
 *  - the process: start, the 200 ms quiet check, the context: EST_PROCESS_S.
 * Fitted to the default and quick suites' stages on this project's 2-vCPU
 * VM and in the emulated lab guests: measured / estimated in
 * docs/running.md. */
#define EST_CALL_S 0.018
#define EST_THREAD_S 0.001
#define EST_PROBES 3
#define EST_SEARCH 1.9
#define EST_GROWTH 1.8
#define EST_KERNEL_WALL 26.0
#define EST_SIM_WALL 1.25
#define EST_SIM_CALL_S 0.05
#define EST_FIXED_S 0.12
#define EST_PROCESS_S 0.5
/* a call's fixed cost on this machine, per thread count */
#define EST_MEASURED_MAX 64

struct estimate {
	double min_time, secs, c2c_secs;
	int reps, n, runs, c2c;
	const struct sb_topo *t;	/* measured on when native, else modelled */
	int ncalls;
	struct {
		int threads;
		double secs;
		bool measured;		/* false: no team could be made, the model's */
	} call[EST_MEASURED_MAX];
};

/* A call's fixed cost at f's thread count: on this machine, measured once
 * per thread count on the first such point's CPUs (sb_drive_call_s); for
 * another machine's topology, or where no team can be made there (a
 * taskset narrower than the plan), the model's. */
static double call_cost(struct estimate *e, const struct sb_point_fields *f, int threads)
{
	double model = EST_CALL_S + EST_THREAD_S * threads, secs = 0;
	char err[256];
	int *cpus, i;

	for (i = 0; i < e->ncalls; i++)
		if (e->call[i].threads == threads)
			return e->call[i].secs;
	if (!f || !sb_topo_is_native(e->t) || e->ncalls == EST_MEASURED_MAX)
		return model;
	cpus = calloc((size_t)threads, sizeof(*cpus));
	if (cpus && !sb_topo_plan(e->t, f->placement, threads, cpus, err, sizeof(err)))
		secs = sb_drive_call_s(threads, cpus);
	free(cpus);
	for (i = e->ncalls++; i > 0 && e->call[i - 1].threads > threads; i--)
		e->call[i] = e->call[i - 1];	/* kept in order of threads, to print */
	e->call[i].threads = threads;
	e->call[i].measured = secs > 0;
	e->call[i].secs = secs > 0 ? secs : model;
	return e->call[i].secs;
}

/* One benchmark of threads members: min_time m, reps repetitions, or a
 * fixed count of iterations (> 0). */
static double estimate_one(struct estimate *e, const struct sb_point_fields *f, double m,
			   int64_t iterations, int reps)
{
	int threads = f && f->threads > 0 ? f->threads : 1;
	double call, timed;

	if (iterations > 0)	/* one call, bounded in time: no search */
		return reps * (EST_FIXED_S + EST_THREAD_S * threads);
	call = call_cost(e, f, threads);
	timed = (EST_SEARCH + EST_GROWTH * reps) * m;
	if (f && !strncmp(f->strategy, "kernel-", 7)) {
		timed *= EST_KERNEL_WALL;
	} else if (f && !strcmp(f->family, "shootdown")) {
		timed *= EST_SIM_WALL;
		call += EST_SIM_CALL_S;
	}
	return timed + (EST_PROBES + reps) * call;
}

static void dry_run_one(const char *name, double min_time, int64_t iterations, int reps,
			void *arg)
{
	struct estimate *e = arg;
	const struct sb_point_fields *f = sb_points_find(name);
	double m = min_time > 0 ? min_time : e->min_time, secs;
	int r = reps > 0 ? reps : e->reps;

	if (iterations > 0)
		printf("  %s  (%d x %lld iterations)\n", name, r, (long long)iterations);
	else
		printf("  %s  (%d x %g s)\n", name, r, m);
	secs = estimate_one(e, f, m, iterations, r);
	if (f && !strcmp(f->family, "calibrate") && !strcmp(f->strategy, "c2c")) {
		e->c2c++;
		e->c2c_secs += secs;
	}
	e->secs += secs;
	e->runs += r;
	e->n++;
}

/* "calls: measured here, …: 1 thread 1.25 ms, 2 threads 4.01 ms"; where no
 * team could be made for a count, its cost is the model's and says so */
static void say_calls(const struct estimate *e)
{
	int measured = 0;

	if (!e->ncalls)
		return;
	for (int i = 0; i < e->ncalls; i++)
		measured += e->call[i].measured;
	printf("calls: %s, what a call costs besides its timed ops:",
	       measured == e->ncalls ? "measured here" :
	       measured ? "measured here where a team could be made" : "modelled, none measured here");
	for (int i = 0; i < e->ncalls; i++)
		printf("%s %d thread%s %.2f ms%s", i ? "," : "", e->call[i].threads,
		       e->call[i].threads == 1 ? "" : "s", e->call[i].secs * 1e3,
		       e->call[i].measured ? "" : " (modelled: no team could be made)");
	printf("\n");
}

void sb_dry_run_list(int argc, char **argv, const struct sb_topo *t,
		     const struct sb_counters_spec *cnt)
{
	struct estimate e = { .min_time = 0.5, .reps = 1, .t = t };

	for (int i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "--benchmark_min_time=", 21))
			e.min_time = strtod(argv[i] + 21, NULL);
		if (!strncmp(argv[i], "--benchmark_repetitions=", 24))
			e.reps = atoi(argv[i] + 24);
	}
	sb_drive_set_counters(cnt);	/* the calls timed open the run's */
	sb_gbench_each(argc, argv, dry_run_one, &e);
	sb_drive_set_counters(NULL);
	e.secs += EST_PROCESS_S;
	say_calls(&e);
	if (e.c2c && sb_calibrate_pairs_mode(t) != SB_PAIRS_ALL &&
	    (long)sb_topo_npus(t) * (sb_topo_npus(t) - 1) > e.c2c) {
		/* what the heatmap would cost: every pair, both ops, at this
		 * run's cost per pair */
		int npus = sb_topo_npus(t), all = npus * (npus - 1) / 2;

		printf("calibrate: %d c2c points (%s); --pairs=all (the heatmap) would "
		       "measure %d pairs: %d points, about %.0f s instead of %.0f s\n", e.c2c,
		       sb_pairs_mode_names[sb_calibrate_pairs_mode(t)], all, 2 * all,
		       e.c2c_secs / e.c2c * 2 * all, e.c2c_secs);
	}
	/* suite.c reads this line back: keep its form */
	printf("estimate: %d benchmarks, %d runs, about %.0f s (no benchmark was run)\n", e.n,
	       e.runs, e.secs);
}
