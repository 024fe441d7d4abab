/* suite.c — suite.h: the suites' stages, run one after another as child
 * `stratbench run`s, then their plots and the summary.
 *
 * A stage is a child process, not a call: each gets a fresh Google
 * Benchmark, its own options and its own run.json, exactly as a person
 * typing its command line would, so any stage can be rerun or resumed by
 * hand.  The child runs in a process group of its own, and the suite
 * forwards SIGINT/SIGTERM to it: one Ctrl-C stops the benchmark in flight
 * with every file complete (the child's own rule), a second one aborts. */
#include "cmd/suite.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "cmd/cmd.h"
#include "machine/topo.h"
#include "results/rundir.h"
#include "tables/summary.h"

extern char **environ;

struct stage {
	const char *name;	/* "main" */
	const char *subdir;	/* "": DIR itself */
	const char *what;	/* one line for the listing */
	const char *const *args;
	double ab_max_s;	/* a run --ab stage: its longest time, for --dry-run
				 * (with AB_EACH: its budget, shared among its
				 * comparisons); done when DIR/ab.json exists; 0: a run */
};

struct suite {
	const char *name;
	const char *what;
	const struct stage *stages;
};

/* The default suite's window workload: a migration storm at a node.
 * HZ=10000 jiffies, 1 ms windows (10 ticks: a reset that restarts at now
 * stretches a window by a visible tick), 256 pages per window, 200 ns of
 * hinting fault per call and 1 us of copy per admitted page: one thread
 * alone could admit ~800 pages per window, so at every thread count the
 * budget is spent, most calls take the limited path, and each ~0.1 s run
 * sees ~100 windows and their resets (docs/window.md). */
#define WORKLOAD "--clock=jiffies", "--tick-us=100", "--interval-ms=1", "--limit=256", \
		 "--fault-ns=200", "--migrate-ns=1000"
#define WINDOW_MODEL WORKLOAD, "--mode=both"
/* The thread counts where the answer can change, chosen from the machine
 * (sb_topo_key_counts: 1, 2, a package's cores, all cores, all PUs), each on the placements that differ there (auto): stage_argv
 * puts the list in place of KEY_THREADS.  SB_SUITE_THREADS=LIST replaces
 * it (tests: "auto" restores the old sweep, which must break the bound). */
#define KEY_THREADS "--threads=@machine"
#define KEY_PLACES "--placement=auto"
/* The seed's question, paired (docs/precision.md): spinlock -> trylock and
 * trylock -> cmpxchg under the workload, as alternating trials; each
 * comparison adds pairs until its 95 % interval is +-2 % or its time is up,
 * and says which.  AB_EACH: the stage's budget shared among its
 * comparisons, at most SEED_EACH_MAX s each. */
#define SEED_PAIRS 2
#define SEED_PRECISION 2.0
#define SEED_EACH_MAX 20
#define SEED_BUDGET_S 200
#define AB_EACH "--max-time=@each"
#define SEED_AB "--family=window", "--ab=spinlock,trylock;trylock,cmpxchg", WORKLOAD, \
		"--precision=2"
/* the kernel drivers run apart, short: their time per page is a small
 * part of their wall time (handshakes, re-faults) */
#define NO_KERNEL "--benchmark_filter=-^shootdown/kernel-"
#define INTERLEAVE "--benchmark_enable_random_interleaving=true"

static const char *const default_main[] = {
	"--limits", "--benchmark_min_time=0.1", "--benchmark_repetitions=3", INTERLEAVE,
	KEY_THREADS, KEY_PLACES, WINDOW_MODEL, NO_KERNEL, NULL,
};
static const char *const default_kernel[] = {
	"--family=shootdown", "--strategy=kernel-madvise", KEY_THREADS, KEY_PLACES,
	"--batch=1,32,512", "--benchmark_min_time=0.005", "--benchmark_repetitions=3", NULL,
};
static const char *const default_seed[] = { SEED_AB, KEY_THREADS, KEY_PLACES, AB_EACH, NULL };
static const char *const quick_seed[] = {
	SEED_AB, "--threads=1,2", "--placement=compact", "--max-time=2", "--trial-time=0.01", NULL,
};
static const char *const quick_main[] = {
	"--limits", "--benchmark_min_time=0.01", "--benchmark_repetitions=2", INTERLEAVE,
	"--threads=1,2", "--placement=compact", WINDOW_MODEL, NO_KERNEL, NULL,
};
static const char *const quick_kernel[] = {
	"--family=shootdown", "--strategy=kernel-madvise", "--threads=1,2", "--placement=compact",
	"--batch=1,512", "--benchmark_min_time=0.005", "--benchmark_repetitions=2", NULL,
};

static const struct stage default_stages[] = {
	{ "main", "", "every family but the kernel drivers: calibration (--limits), the window "
	  "model in both modes, at the machine's thread counts, 3 interleaved repetitions of "
	  "0.1 s", default_main, 0 },
	{ "kernel", "kernel", "real TLB shootdowns: madvise, batch 1, 32, 512, at the machine's "
	  "thread counts", default_kernel, 0 },
	{ "seed", "", "the seed's question, paired: spinlock -> trylock, trylock -> cmpxchg, "
	  "at the machine's thread counts, to +-2 % or its share of 200 s each (DIR/ab.json)",
	  default_seed, SEED_BUDGET_S },
	{ 0 },
};
static const struct stage quick_stages[] = {
	{ "main", "", "a smoke run of every family: 1 and 2 threads, compact, 2 repetitions "
	  "of 0.01 s", quick_main, 0 },
	{ "kernel", "kernel", "real TLB shootdowns: madvise, batch 1 and 512", quick_kernel, 0 },
	{ "seed", "", "the seed's question, paired, briefly: 2 s a comparison (DIR/ab.json)",
	  quick_seed, 4 * 2 },
	{ 0 },
};

static const struct suite suites[] = {
	{ "default", "what scripts/run.sh runs: every family, the window model, the kernel "
	  "drivers, at the thread counts where the answer can change; at most 15 minutes on "
	  "a 2-socket 176-CPU machine", default_stages },
	{ "quick", "the same stages, briefly: a smoke test of about a minute", quick_stages },
	{ 0 },
};

/* --- one child `stratbench run` ----------------------------------------- */

static volatile sig_atomic_t child_pid, got_signal;

static void forward(int sig)
{
	int saved = errno;	/* kill() may set it under the interrupted code */

	got_signal = sig;
	if (child_pid > 0)
		kill((pid_t)child_pid, sig);
	errno = saved;
}

/* Starts `stratbench ARGV...` (argv[0] "run" or "plot") in a process group
 * of its own, marked as a suite's stage (SB_SUITE_STAGE=1: its --resume is
 * a run's, never the suite's); out_fd >= 0: its stdout; mute: its stderr
 * to /dev/null.  The pid, or -1 (said). */
static pid_t spawn_start(char *const *argv, int out_fd, bool mute)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	char *args[256], *env[512];
	int n = 0, e = 0, rc;
	pid_t pid;

	args[n++] = "stratbench";
	while (*argv && n < 255)
		args[n++] = *argv++;
	args[n] = NULL;
	for (char **p = environ; *p && e < 510; p++)
		if (strncmp(*p, "SB_SUITE_STAGE=", 15))
			env[e++] = *p;
	env[e++] = "SB_SUITE_STAGE=1";
	env[e] = NULL;
	posix_spawn_file_actions_init(&fa);
	if (out_fd >= 0)
		posix_spawn_file_actions_adddup2(&fa, out_fd, STDOUT_FILENO);
	if (mute)
		posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
	posix_spawnattr_init(&at);
	posix_spawnattr_setpgroup(&at, 0);	/* signals reach it through forward() only */
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
	fflush(NULL);
	rc = posix_spawn(&pid, "/proc/self/exe", &fa, &at, args, env);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	if (rc)
		return sb_cmd_error(-1, "cannot start stratbench %s: %s", args[1], strerror(rc));
	return pid;
}

/* Waits for pid, forwarding SIGINT/SIGTERM to it (forward(), set by
 * run_stages); its exit status, 128+signal when killed, 1 when pid is -1. */
static int spawn_finish(pid_t pid)
{
	int status = 0;

	if (pid < 0)
		return 1;
	child_pid = pid;
	if (got_signal)		/* one that came before the child could get it */
		kill(pid, got_signal);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	child_pid = 0;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

bool sb_suite_stage(void)
{
	const char *e = getenv("SB_SUITE_STAGE");

	return e && !strcmp(e, "1");
}

/* --- the stages' command lines ------------------------------------------ */

static bool same_option(const char *a, const char *b)
{
	size_t na = strcspn(a, "="), nb = strcspn(b, "=");

	return na == nb && !strncmp(a, b, na);
}

/* options that apply to every stage, not only the first */
static bool every_stage(const char *a)
{
	static const char *const all[] = { "--label", "--quiet", "--cv-threshold", "--console",
					   "--counters", "--topology", NULL };

	for (const char *const *p = all; *p; p++)
		if (same_option(a, *p))
			return true;
	return false;
}

/* The user's options besides --suite, --dry-run and --out.  Options for
 * the first stage only narrow the run: the later stages are left out (the
 * old scripts/run.sh's rule), said once. */
struct user {
	char *v[128];
	int n;
	bool narrow;
	char threads[1024];	/* --threads=LIST, KEY_THREADS's value */
	char each[48];		/* --max-time=S, AB_EACH's value */
	int ncmp;		/* the seed stage's comparisons */
	double each_s;		/* S */
};

static void user_args(int argc, char **argv, struct user *u)
{
	u->n = 0;
	u->narrow = false;
	for (int i = 1; i < argc && u->n < 128; i++)
		if (strncmp(argv[i], "--suite=", 8) && strcmp(argv[i], "--dry-run") &&
		    strncmp(argv[i], "--out=", 6))
			u->v[u->n++] = argv[i];
	for (int i = 0; i < u->n; i++)
		u->narrow |= !every_stage(u->v[i]);
}

/* The machine's thread counts (KEY_THREADS, or SB_SUITE_THREADS) and the
 * seed stage's share of its budget (AB_EACH): from --topology, else this
 * machine.  -1 and err. */
static int machine_plan(struct user *u, double budget, char *err, size_t errlen)
{
	const char *spec = NULL, *env = getenv("SB_SUITE_THREADS");
	struct sb_topo *t;
	size_t k;
	int *c, n;

	for (int i = 0; i < u->n; i++)
		if (!strncmp(u->v[i], "--topology=", 11))
			spec = u->v[i] + 11;
	if (sb_topo_load(&t, spec, err, errlen))
		return -1;
	c = malloc(sizeof(int) * (size_t)(sb_topo_npus(t) + 4));
	if (!c)
		n = -1, sb_cmd_err(err, errlen, "out of memory for the thread counts");
	else if (env && *env)
		n = sb_topo_thread_counts(t, env, c, sb_topo_npus(t) + 4, err, errlen);
	else
		n = sb_topo_key_counts(t, c, sb_topo_npus(t) + 4);
	k = (size_t)snprintf(u->threads, sizeof(u->threads), "--threads=");
	u->ncmp = 0;
	for (int i = 0; i < n && k < sizeof(u->threads); i++) {
		k += (size_t)snprintf(u->threads + k, sizeof(u->threads) - k, "%s%d", i ? "," : "",
				      c[i]);
		u->ncmp += SEED_PAIRS * sb_plan_auto_places(t, c[i]);
	}
	if (n >= 0 && k >= sizeof(u->threads))
		n = sb_cmd_err(err, errlen, "SB_SUITE_THREADS: too many thread counts");
	u->each_s = u->ncmp ? (int)(budget / u->ncmp) : SEED_EACH_MAX;
	u->each_s = u->each_s < 1 ? 1 : u->each_s > SEED_EACH_MAX ? SEED_EACH_MAX : u->each_s;
	snprintf(u->each, sizeof(u->each), "--max-time=%g", u->each_s);
	free(c);
	sb_topo_destroy(t);
	return n < 0 ? -1 : 0;
}

/* --out=DIR[/subdir]: DIR is a path, so it always fits */
#define OUTARG_LEN (PATH_MAX + 16)

/* Stage k's argv: "run", --out=DIR[/subdir] (in outarg, OUTARG_LEN bytes),
 * the stage's options less those the user gave, then the user's (all of
 * them for the first stage, those of every_stage for the others).
 * NULL-terminated in v[max]. */
static int stage_argv(const struct stage *st, bool first, const char *dir, const struct user *u,
		      char **v, int max, char *outarg)
{
	const char *fam = NULL;
	char who[128];
	int n = 0;

	/* the user's --family narrows the first stage: its model options of
	 * other families (the window workload for --family=lock) are dropped,
	 * as run refuses them there */
	for (int i = 0; first && i < u->n; i++)
		if (!strncmp(u->v[i], "--family=", 9))
			fam = u->v[i] + 9;
	v[n++] = "run";
	snprintf(outarg, OUTARG_LEN, "--out=%s%s%s", dir, *st->subdir ? "/" : "", st->subdir);
	v[n++] = outarg;
	for (const char *const *a = st->args; *a && n < max - 1; a++) {
		bool given = false;

		for (int i = 0; i < u->n; i++)
			given |= (first || every_stage(u->v[i])) && same_option(*a, u->v[i]);
		/* a machine with one CPU runs the kernel drivers at 1 thread */
		if (!strcmp(*a, "--threads=1,2") && sysconf(_SC_NPROCESSORS_ONLN) < 2)
			v[n++] = "--threads=1";
		else if (!given && !strcmp(*a, KEY_THREADS))
			v[n++] = (char *)u->threads;
		else if (!given && !strcmp(*a, AB_EACH))
			v[n++] = (char *)u->each;
		else if (!given && !(fam && sb_option_foreign(fam, *a, who, sizeof(who))))
			v[n++] = (char *)*a;
	}
	for (int i = 0; i < u->n && n < max - 1; i++)
		if (first || every_stage(u->v[i]))
			v[n++] = u->v[i];
	v[n] = NULL;
	return n;
}

/* --- suite.json ---------------------------------------------------------- */

static double stage_estimate(const struct stage *g, bool first, const char *dir,
			     const struct user *u, bool echo, int *rc);

static int record(const char *dir, const struct suite *s, const struct user *u, char *err,
		  size_t errlen)
{
	json_t *j = json_object(), *st = json_array();
	char path[SB_PATH], outarg[OUTARG_LEN], *v[256];
	int rc = -1, rc_dry = 0;

	for (const struct stage *g = s->stages; g->name; g++) {
		json_t *o = json_object(), *a = json_array();
		int n = stage_argv(g, g == s->stages, dir, u, v, 256, outarg);

		for (int i = 0; i < n; i++)
			json_array_append_new(a, json_string(v[i]));
		json_object_set_new(o, "name", json_string(g->name));
		json_object_set_new(o, "dir", json_string(g->subdir));
		json_object_set_new(o, "argv", a);
		/* its estimate, said when it starts (a resume too) */
		json_object_set_new(o, "estimate_s", json_real(stage_estimate(g, g == s->stages,
						dir, u, false, &rc_dry)));
		json_array_append_new(st, o);
		if (u->narrow)
			break;
	}
	json_object_set_new(j, "stratbench_suite", json_integer(1));
	json_object_set_new(j, "suite", json_string(s->name));
	json_object_set_new(j, "stages", st);
	if (sb_pathf(path, "%s/suite.json", dir))
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
	else
		rc = sb_json_write_file(path, j, JSON_INDENT(2) | JSON_PRESERVE_ORDER, err, errlen);
	json_decref(j);
	return rc;
}

/* --- after the stages ---------------------------------------------------- */

/* plots, then the summary, of the stage directories that hold results.  DIR's
 * summary.txt is written before the plots too, for DIR/index.html to link it (the
 * page lists the files there), then again with the plots' files in its list;
 * summary.md, the last file (suite_end), only after them.  Stopped in the plots:
 * no summary, as an interrupted run. */
static void finish(const char *dir, char **dirs, int n)
{
	const char *have[16];
	char err[8192];
	int k = 0;

	for (int i = 0; i < n && k < 16; i++)
		if (sb_dir_has(dirs[i], "results.csv"))
			have[k++] = dirs[i];
	if (!k)
		return;
	sb_summary_write_text(dir, have, k, err, sizeof(err));	/* if not: said below */
	for (int i = 0; i < k; i++) {
		char *pv[] = { "plot", (char *)have[i], NULL };

		if (spawn_finish(spawn_start(pv, -1, false)))
			sb_cmd_error(0, "suite: the plots of %s were not all drawn (see above); the "
				     "results are complete", have[i]);
		if (got_signal) {
			sb_rundir_remove(dir, "summary.txt");
			return;
		}
	}
	printf("\n");
	if (sb_summary_write(dir, have, k, err, sizeof(err)))
		sb_cmd_error(0, "suite: summary not written: %s", err);
	else
		sb_cmd_error(0, "summary in %s/summary.txt and %s/summary.md", dir, dir);
}

/* a stage's exit status into the suite's: a failure is kept, a signal or a
 * usage error stops the suite */
static bool stage_done(const char *name, int st, int *rc)
{
	if (st == 0)
		return true;
	if (st >= 128) {
		*rc = st;
		return false;
	}
	sb_cmd_error(0, "suite: stage %s exited %d%s", name, st,
		     st == SB_EXIT_USAGE ? " (its options were refused: the suite stops)" : "");
	if (st == SB_EXIT_USAGE) {
		*rc = *rc ? *rc : SB_EXIT_USAGE;
		return false;
	}
	*rc = 1;
	return true;
}

/* --- --dry-run: each stage's points and the total estimate --------------- */

/* a stage's option value ("--benchmark_repetitions=" -> "3"), else NULL */
static const char *stage_value(const struct stage *g, const char *opt)
{
	for (const char *const *a = g->args; *a; a++)
		if (!strncmp(*a, opt, strlen(opt)))
			return *a + strlen(opt);
	return NULL;
}

/* a run --ab stage's longest time: its comparisons at their --max-time */
static double ab_bound(const struct stage *g, const struct user *u)
{
	return stage_value(g, AB_EACH) ? u->ncmp * u->each_s : g->ab_max_s;
}

/* Stage g's estimate (s) by its own `run --dry-run`; echo: its listing on
 * stdout too.  *rc: the child's exit status when it failed. */
static double stage_estimate(const struct stage *g, bool first, const char *dir,
			     const struct user *u, bool echo, int *rc)
{
	char outarg[OUTARG_LEN], *v[256], line[512];
	double total = 0;
	int fds[2], n, st;
	FILE *in;
	pid_t pid;

	if (g->ab_max_s > 0)	/* run --ab plans as it goes: its bound */
		return ab_bound(g, u);
	n = stage_argv(g, first, dir, u, v, 255, outarg);
	v[n++] = "--dry-run";
	v[n] = NULL;
	fflush(stdout);
	if (pipe2(fds, O_CLOEXEC))
		return 0;
	pid = spawn_start(v, fds[1], !echo);
	close(fds[1]);
	if ((in = fdopen(fds[0], "r"))) {
		while (fgets(line, sizeof(line), in)) {
			double secs;

			if (echo)
				fputs(line, stdout);
			if (sscanf(line, "estimate: %*d benchmarks, %*d runs, about %lf s",
				   &secs) == 1)
				total += secs;
		}
		fclose(in);
	} else {
		close(fds[0]);
	}
	st = spawn_finish(pid);
	if (st)
		*rc = st > 0 ? st : 1;
	return total;
}

/* What the suite's verdicts can resolve (docs/precision.md): a change seen
 * 8 times in 10.  At 3 repetitions a side "changed" needs them not to
 * overlap: a shift of 2.6 CVs (simulated, normal noise); at n >= 4 the
 * normal approximation 2.8 sqrt(2/n) CVs.  Paired to +-P %: 1.43 P. */
static void say_resolution(const struct suite *s, const struct user *u)
{
	const char *r = stage_value(s->stages, "--benchmark_repetitions=");
	int reps;
	double k;

	for (int i = 0; i < u->n; i++)	/* the user's, for the first stage */
		if (!strncmp(u->v[i], "--benchmark_repetitions=", 24))
			r = u->v[i] + 24;
	reps = r ? atoi(r) : 1;
	k = reps == 3 ? 2.6 : 2.8 * sqrt(2.0 / reps);

	if (reps < 3)
		printf("resolves: %d repetitions a side give no interval (need 3): the main "
		       "stage's %%Changes are bare\n", reps);
	else
		printf("resolves: the main stage's %d repetitions a side, changes of about "
		       "%.1f %% at CV 1 %%, 5 %% at CV %.1f %% (8 times in 10)\n", reps, k,
		       5.0 / k);
	for (const struct stage *g = s->stages; g->name && !u->narrow; g++)
		if (g->ab_max_s > 0)
			printf("resolves: the %s stage's paired trials to +-%g %%, changes of "
			       "about %.1f %% at any CV, where a comparison gets there in its "
			       "%g s\n", g->name, SEED_PRECISION, 1.43 * SEED_PRECISION,
			       stage_value(g, AB_EACH) ? u->each_s :
			       atof(stage_value(g, "--max-time=") ? stage_value(g, "--max-time=") : "0"));
}

static int dry_run(const struct suite *s, const char *dir, const struct user *u)
{
	double total = 0;
	int rc = 0;

	printf("suite %s: %s\n", s->name, s->what);
	if (stage_value(s->stages, KEY_THREADS))
		printf("thread counts: %s (placements: those that differ at each)%s\n",
		       u->threads + 10, u->narrow ? "; options given replace the first stage's" : "");
	for (const struct stage *g = s->stages; g->name; g++) {
		printf("\nstage %s (%s%s%s): %s\n", g->name, dir, *g->subdir ? "/" : "", g->subdir,
		       g->what);
		if (g->ab_max_s > 0) {
			char cmd[OUTARG_LEN], *v[256];
			int n = stage_argv(g, g == s->stages, dir, u, v, 255, cmd);

			printf(" ");
			for (int i = 0; i < n; i++)
				printf(" %s", v[i]);
			printf("\nestimate: at most %.0f s (run --ab stops each comparison at "
			       "--max-time)\n", ab_bound(g, u));
		}
		total += stage_estimate(g, g == s->stages, dir, u, true, &rc);
		if (u->narrow) {
			printf("\n(the later stages are left out: options were given for the first "
			       "stage only)\n");
			break;
		}
	}
	printf("\n");
	say_resolution(s, u);
	printf("\nsuite %s: about %.0f s in all, plus the plots (no benchmark was run)\n", s->name,
	       total);
	return rc;
}

/* --- the suite ----------------------------------------------------------- */

/* a recorded stage's argv runs paired comparisons (run --ab) */
static bool is_ab(json_t *argv)
{
	size_t i;
	json_t *a;

	json_array_foreach(argv, i, a)
		if (json_is_string(a) && !strncmp(json_string_value(a), "--ab=", 5))
			return true;
	return false;
}

/* --resume=DIR of a stage's directory, or sb_resume_load's err */
#define RESUME_LEN (PATH_MAX + 256)

/* The command line of the stage whose recorded argv is a, in v[256]
 * (NULL-terminated): --resume of its directory sdir when its run started,
 * else a.  false: nothing to run (a complete run, a run --ab that ended). */
static bool stage_command(json_t *a, const char *sdir, bool quiet, char **v, char *resume)
{
	bool ab = is_ab(a), complete = false;
	int k = 0;

	if (sb_dir_has(sdir, ab ? "ab.json" : "run.json")) {
		int ac;
		char **av;

		if (ab)
			return false;	/* its comparisons are kept as they ended */
		/* a resume: finished, or to finish */
		if (!sb_resume_load(sdir, &ac, &av, &complete, resume, RESUME_LEN))
			sb_resume_free_argv(ac, av);
		if (complete)
			return false;
		snprintf(resume, RESUME_LEN, "--resume=%s", sdir);
		v[k++] = "run";
		v[k++] = resume;
		if (quiet)
			v[k++] = "--quiet";
	} else {
		for (size_t j = 0; j < json_array_size(a) && k < 255; j++)
			v[k++] = (char *)json_string_value(json_array_get(a, j));
	}
	v[k] = NULL;
	return true;
}

/* After the stages (ran of them run now): the plots and the summary of
 * the n stage directories, unless the suite was complete or stopped. */
static int suite_end(const char *dir, char **dirs, int n, int ran, int rc)
{
	if (!ran && !got_signal && sb_dir_has(dir, "summary.md")) {
		/* a finished suite (the summary is finish()'s last file):
		 * nothing is redrawn or rewritten */
		sb_cmd_error(0, "nothing to resume: '%s' is complete", dir);
	} else if (rc < 128 && rc != SB_EXIT_USAGE) {
		finish(dir, dirs, n);
	}
	if (rc >= 128 || got_signal) {
		sb_cmd_error(0, "suite interrupted: finished results kept in %s/; 'stratbench run "
			     "--resume=%s' runs the rest", dir, dir);
		rc = rc >= 128 ? rc : 128 + got_signal;
	}
	return rc;
}

/* the suite's estimate at its start: the stages' recorded ones */
static void say_estimate(json_t *stages)
{
	double total = 0;
	size_t i;
	json_t *g;

	json_array_foreach(stages, i, g)
		total += json_number_value(json_object_get(g, "estimate_s"));
	if (total > 0)
		sb_cmd_error(0, "suite: about %.0f s by its estimate, plus the plots (a seed stage "
			     "counted at its bound)", total);
}

static int run_stages(const char *dir, json_t *stages, bool quiet)
{
	char *dirs[16] = { NULL };
	int rc = 0, n = 0, ran = 0;
	size_t i;
	json_t *g;

	/* forward() for the whole suite, between stages too: a signal there
	 * stops the suite after the step in hand, no file is cut */
	sb_catch_stop_signals(forward);
	say_estimate(stages);
	json_array_foreach(stages, i, g) {
		const char *name = json_string_value(json_object_get(g, "name"));
		const char *sub = json_string_value(json_object_get(g, "dir"));
		json_t *a = json_object_get(g, "argv");
		char sdir[SB_PATH], *v[256], resume[RESUME_LEN], said[64];
		double est;
		int k;

		if (!name || !sub || !json_is_array(a) || n >= 16)
			continue;
		sb_pathf(sdir, "%s%s%s", dir, *sub ? "/" : "", sub);
		for (k = 0; k < n && strcmp(dirs[k], sdir); k++)
			;
		if (k == n)	/* a stage beside another's results: once */
			dirs[n++] = strdup(sdir);
		if (!stage_command(a, sdir, quiet, v, resume))
			continue;
		if (got_signal)
			break;
		est = json_number_value(json_object_get(g, "estimate_s"));	/* 0: none recorded */
		snprintf(said, sizeof(said), " (estimate: about %.0f s)", est);
		sb_cmd_error(0, "suite stage %zu/%zu: %s -> %s/%s", i + 1, json_array_size(stages),
			     name, sdir, est > 0 ? said : "");
		ran++;
		if (!stage_done(name, spawn_finish(spawn_start(v, -1, false)), &rc))
			break;
	}
	rc = suite_end(dir, dirs, n, ran, rc);
	sb_catch_stop_signals(NULL);
	while (n > 0)
		free(dirs[--n]);
	return rc;
}

/* DIR must be new for a suite: no suite.json, no run's files */
static int check_new(const char *dir, char *err, size_t errlen)
{
	static const char *const files[] = { "suite.json", "run.json", "gbench.json",
					     "results.csv", "runs.jsonl.partial", NULL };
	for (const char *const *f = files; *f; f++) {
		if (sb_dir_has(dir, *f))
			return sb_cmd_err(err, errlen, "'%.1500s' already holds results (%s): "
					  "choose a new --out, or --resume=%.1500s to finish an "
					  "interrupted suite", dir, *f, dir);
	}
	return 0;
}

/* the seed stage's budget (AB_EACH), 0: none */
static double seed_budget(const struct suite *s)
{
	for (const struct stage *g = s->stages; g->name; g++)
		if (stage_value(g, AB_EACH))
			return g->ab_max_s;
	return 0;
}

int sb_suite_main(const char *name, const char *out, bool dry_run_only, int argc, char **argv)
{
	const struct suite *s = suites;
	char dir[SB_PATH], err[8192];
	struct user u;
	json_t *j;
	int rc;

	while (s->name && strcmp(s->name, name))
		s++;
	if (!s->name)
		return sb_cmd_error(SB_EXIT_USAGE, "unknown suite '%s' (want default or quick)",
				    name);
	user_args(argc, argv, &u);
	if (machine_plan(&u, seed_budget(s), err, sizeof(err)))
		return sb_cmd_error(SB_EXIT_USAGE, "%s", err);
	for (int i = 0; i < u.n; i++)
		if (!strncmp(u.v[i], "--resume", 8))
			return sb_cmd_error(SB_EXIT_USAGE, "--suite and --resume do not combine: "
					    "--resume=DIR alone finishes a suite");
	if (out) {
		snprintf(dir, sizeof(dir), "%s", out);
	} else {
		char host[256], stamp[32];
		time_t now = time(NULL);

		sb_context_host(host, sizeof(host));
		strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", localtime(&now));
		snprintf(dir, sizeof(dir), "results/%s-%s", host, stamp);
	}
	if (dry_run_only)
		return dry_run(s, dir, &u);
	if (check_new(dir, err, sizeof(err)) || sb_mkdirs(dir, err, sizeof(err)) ||
	    record(dir, s, &u, err, sizeof(err)))
		return sb_cmd_error(SB_EXIT_USAGE, "%s", err);
	if (u.narrow)
		sb_cmd_error(0, "suite %s: options for the first stage given: the later stages are "
			     "left out", s->name);
	snprintf(err, sizeof(err), "%s/suite.json", dir);
	if (!(j = json_load_file(err, 0, NULL)))
		return sb_cmd_error(1, "cannot read back %s", err);
	rc = run_stages(dir, json_object_get(j, "stages"), false);
	json_decref(j);
	return rc;
}

int sb_suite_resume(const char *dir, bool quiet)
{
	char path[SB_PATH];
	json_error_t e;
	json_t *j;
	int rc;

	sb_pathf(path, "%s/suite.json", dir);	/* it fits: cmd_run.c found it there */
	j = json_load_file(path, 0, &e);
	if (!j || !json_is_array(json_object_get(j, "stages"))) {
		fprintf(stderr, "stratbench: cannot resume '%s': %s is not a suite's record (%s)\n",
			dir, path, j ? "no stages" : e.text);
		json_decref(j);
		return SB_EXIT_USAGE;
	}
	rc = run_stages(dir, json_object_get(j, "stages"), quiet);
	json_decref(j);
	return rc;
}
