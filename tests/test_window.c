/* test_window.c — conformance of every registered window policy, with no
 * edit per policy, and the fixtures (tests/test_policies.c) that show each
 * check can fail:
 *   script   one member, scripted clock: exact reset instants, the new
 *            next_window per the declared `stretches`, refusal past the
 *            limit, now jumping several intervals, time wrap-around;
 *   stress   many members, real clock, every policy × lock × accounting,
 *            each in a child process watched for progress: no deadlock
 *            (no call completes while the child spins for STALL_NS of
 *            CPU time or its members sleep for STALL_NS: the child is
 *            killed), every member makes every call and gets pages
 *            admitted, declared or requested exactness holds (0 lost
 *            pages), and no window's count exceeds limit + members ×
 *            (pages per call + batch);
 * plus the fidelity merge on synthetic logs, the jiffies ticker, the calls
 * clock (--clock=calls), the timed loops and the spinlock specifics.  Work is scaled down under sanitizers
 * and qemu (SLOW, and in the emulated lab guest, see slow()), never
 * skipped. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/ticker.h"
#include <stratbench/window.h>

#include "check.h"

#define MAXM		4

/* The lab guest (scripts/lab.sh: qemu TCG, its vCPUs threads on the host's
 * cores, SB_LAB_SHAPE set) runs native x86 code an order of magnitude
 * slower and is scaled as qemu-user is: 2 µs windows and a 1 s stall bound
 * are native-speed settings, and time there means nothing (docs/lab.md). */
static int slow(void)
{
	static int s = -1;	/* once: the macros below sit in hot loops */

	if (s < 0)
		s = SLOW ? SLOW : getenv("SB_LAB_SHAPE") != NULL;
	return s;
}

#define STRESS_CALLS	(slow() == 2 ? 2000u : slow() ? 4000u : 20000u)	/* per member */
#define STRESS_INTERVAL	(slow() ? 20000u : 2000u)	/* ns of real time per window */
/* Each member also calls for at least this many windows of its own time, so
 * that every member meets fresh windows: with a few windows only (a slow
 * sanitizer build), a faster member can legally take every window's budget
 * and "every member gets pages" would fail by chance, not by a bug. */
#define STRESS_MIN_WINDOWS 64u
#define STRESS_LIMIT	16ul
#define STRESS_PAGES	2ul
/* Deadlock: no call completes while the child spins for STALL_NS of its
 * own CPU time (a spinning lock), or while every member of it sleeps for
 * STALL_NS (a sleeping one), seen at STALL_POLLS polls in a row.  Never
 * wall time alone: on a loaded machine a runnable child (or this watcher)
 * can wait for a CPU for over a second, and that is no deadlock. */
#define STALL_NS	(slow() ? 20000000000ull : 1000000000ull)
#define STALL_POLLS	50
/* A member that has no page yet calls on for up to this long: in the lab a
 * lock holder's vCPU can be off its host core for all of another member's
 * 4000 calls, and a trylock policy then refuses that member throughout (one
 * of 96 cases did so once, percpu/pthread_spin); starvation is a member
 * with no page after this bound. */
#define STARVE_NS	(slow() ? 5000000000ull : 200000000ull)
#define FIXTURE_TRIES	12	/* for a timing-dependent catch */
#define WATCHDOG_S	(slow() ? 900u : 300u)

/* the test's own watchdog (check.h); a child's hang is caught by STALL_NS */
static void set_phase(const char *what, const char *policy, const char *lock)
{
	check_phase("%s window/%s%s%s", what, policy, lock ? "/lock:" : "", lock ? lock : "");
}

static struct sb_window *new_window(const struct sb_window_policy *p, const char *lock,
				    sb_ticks interval, unsigned long limit, bool exact,
				    int members, sb_ticks now)
{
	struct sb_window *w = aligned_alloc(SB_CACHELINE, 4096);
	struct sb_window_params prm = { .interval = interval, .limit = limit, .exact = exact,
					.members = members };
	int rc = sb_window_init(w, p, p->uses_lock && lock ? sb_lock_find(lock) : NULL,
				(char *)w + sizeof(*w), &prm, now);

	CHECK(rc == 0, "init %s", p->name);
	return w;
}

static void free_window(struct sb_window *w)
{
	sb_window_fini(w);
	free(w);
}

/* ---- script: one member, scripted clock.  Returns the failed expectations;
 * quiet for fixtures, which must fail at least one. */

#define EXPECT(cond, ...)							\
	do {									\
		if (!(cond)) {							\
			fails++;						\
			if (!quiet) {						\
				fprintf(stderr, "window/%s%s: script: ", p->name, \
					exact ? " (exact)" : "");		\
				fprintf(stderr, __VA_ARGS__);			\
				fputc('\n', stderr);				\
			}							\
		}								\
	} while (0)

static int script(const struct sb_window_policy *p, const char *lock, bool exact, bool quiet)
{
	struct sb_window_stats st = { 0 };
	struct sb_window *w = new_window(p, lock, 100, 10, exact, 1, 1000);
	sb_ticks next;
	int fails = 0;

	EXPECT(w->next_window == 1100, "first window ends at now + interval: %llu",
	       (unsigned long long)w->next_window);
	/* 4 + 4 + 4 pages: the third call still sees 8 <= 10 and is admitted */
	EXPECT(!p->update(w, 1050, 4, &st), "4 pages admitted");
	EXPECT(!p->update(w, 1060, 4, &st), "8 pages admitted");
	EXPECT(!p->update(w, 1070, 4, &st), "12: admitted on 8 <= limit");
	EXPECT(sb_window_count(p, w) == 12, "count %lu != 12", sb_window_count(p, w));
	EXPECT(p->update(w, 1080, 1, &st), "over the limit: refused");
	EXPECT(p->update(w, 1100, 1, &st), "now == next_window is not after: still refused");
	EXPECT(st.resets == 0 && st.limited == 2, "no reset before expiry (resets %llu, limited %llu)",
	       (unsigned long long)st.resets, (unsigned long long)st.limited);
	/* one tick past the window: reset */
	EXPECT(!p->update(w, 1101, 3, &st), "admitted after the reset");
	next = p->stretches ? 1201 : 1200;
	EXPECT(st.resets == 1 && w->next_window == next, "reset at 1101: resets %llu, next_window "
	       "%llu, want %llu (%s)", (unsigned long long)st.resets,
	       (unsigned long long)w->next_window, (unsigned long long)next,
	       p->stretches ? "stretches: now + interval" : "keeps phase");
	EXPECT(st.harvested == 12 && sb_window_count(p, w) == 3,
	       "the reset harvested %llu (want 12), count %lu (want 3)",
	       (unsigned long long)st.harvested, sb_window_count(p, w));
	/* idle for 5.5 intervals: one reset, next_window past now */
	EXPECT(!p->update(w, 1651, 1, &st), "admitted after the jump");
	next = p->stretches ? 1751 : 1700;
	EXPECT(st.resets == 2 && w->next_window == next, "jump to 1651: resets %llu, next_window "
	       "%llu, want %llu", (unsigned long long)st.resets,
	       (unsigned long long)w->next_window, (unsigned long long)next);
	EXPECT(st.admitted == 4 + 4 + 4 + 3 + 1, "admitted pages %llu",
	       (unsigned long long)st.admitted);
	free_window(w);

	/* across the 64-bit wrap (time_after is wrap-safe) */
	memset(&st, 0, sizeof(st));
	w = new_window(p, lock, 100, 10, exact, 1, UINT64_MAX - 150);
	EXPECT(!p->update(w, UINT64_MAX - 60, 1, &st) && st.resets == 0, "before the wrap: no reset");
	EXPECT(!p->update(w, UINT64_MAX - 50, 1, &st) && st.resets == 0, "at next_window: no reset");
	EXPECT(!p->update(w, 60, 1, &st) && st.resets == 1, "after the wrap: one reset (%llu)",
	       (unsigned long long)st.resets);
	next = p->stretches ? 160 : UINT64_MAX - 50 + 200;
	EXPECT(w->next_window == next, "after the wrap: next_window %llu, want %llu",
	       (unsigned long long)w->next_window, (unsigned long long)next);
	free_window(w);
	return fails;
}

/* ---- stress: many members, real clock, in a child process */

/* F_ASLEEP comes with F_STALL when the child's members all slept (else it spun) */
enum { F_STALL = 1, F_PROGRESS = 2, F_LOST = 4, F_BOUND = 8, F_IDLE = 16, F_CRASH = 32,
       F_STATS = 64, F_ASLEEP = 128 };

struct stress_shm {
	struct {
		SB_CACHE_ALIGNED uint64_t calls;	/* done so far, every call */
	} beat[MAXM];			/* a line each: the beat does not share */
	uint64_t calls[MAXM], admitted[MAXM];	/* admitted: the policy's own count */
	uint64_t returned[MAXM];		/* pages of calls that returned admitted */
	uint64_t resets, harvested, count, max_harvest, bound, batch;
	int tid[MAXM];		/* each member's thread id, 0 until it runs */
	int done;
};

/* members start their calls together, so that they overlap even when the
 * whole run is shorter than a thread's wake-up */
static unsigned arrived;

struct stress_arg {
	const struct sb_window_policy *p;
	struct sb_window *w;
	struct stress_shm *shm;
	struct sb_window_stats st[MAXM];
	struct sb_window_log log[MAXM];
	double scale;
	int members;
};

static uint64_t stress_member(int tid, const struct sb_round *r, void *arg)
{
	struct stress_arg *a = arg;
	struct sb_window_stats *st = &a->st[tid];
	uint64_t i, pages = 0;
	sb_ticks now, t0;

	(void)r;	/* every member makes all its calls: progress is checked */
	/* relaxed: the watcher only names the thread whose state it reads */
	__atomic_store_n(&a->shm->tid[tid], (int)syscall(SYS_gettid), __ATOMIC_RELAXED);
	__atomic_fetch_add(&arrived, 1, __ATOMIC_RELAXED);
	while (__atomic_load_n(&arrived, __ATOMIC_RELAXED) < (unsigned)a->members)
		sched_yield();
	t0 = now = (sb_ticks)((double)sb_read_cycles() * a->scale);
	for (i = 1; i <= STRESS_CALLS || now - t0 < (sb_ticks)STRESS_MIN_WINDOWS * STRESS_INTERVAL ||
		    (!pages && now - t0 < (sb_ticks)STARVE_NS);
	     i++) {
		now = (sb_ticks)((double)sb_read_cycles() * a->scale);
		if (!a->p->update(a->w, now, STRESS_PAGES, st))
			pages += STRESS_PAGES;
		/* relaxed: a heartbeat, every call: the stall bound means "no
		 * call completed", not "no 64 calls completed" */
		__atomic_store_n(&a->shm->beat[tid].calls, i, __ATOMIC_RELAXED);
	}
	a->shm->calls[tid] = i - 1;
	a->shm->returned[tid] = pages;
	return i - 1;
}

static void stress_child(const struct sb_window_policy *p, const char *lock, bool exact,
			 int members, struct stress_shm *shm, pid_t watcher)
{
	static struct stress_arg a;
	struct sb_team_result res;
	struct sb_team *team;
	char err[256];
	int i;

	/* a watcher that dies (its own watchdog) takes a hung child with it */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != watcher)
		_exit(6);
	memset(&a, 0, sizeof(a));
	a.p = p;
	a.shm = shm;
	a.scale = 1.0 / sb_cycles_per_ns();
	a.members = members;
	a.w = new_window(p, lock, STRESS_INTERVAL, STRESS_LIMIT, exact, members,
			 (sb_ticks)((double)sb_read_cycles() * a.scale));
	for (i = 0; i < members; i++) {
		const struct sb_lock_ops *lk = a.w->lock.ops;

		a.st[i].member = i;
		if (lk && lk->node_size) {
			a.st[i].lock_node = aligned_alloc(SB_CACHELINE, 4096);
			memset(a.st[i].lock_node, 0, 4096);
		}
		if (sb_window_log_init(&a.log[i], 0, 1 << 16))
			_exit(4);
		a.st[i].log = &a.log[i];	/* reset events only: what each window held */
	}
	team = sb_team_create(members, NULL, stress_member, &a, err, sizeof(err));
	if (!team)
		_exit(5);
	sb_team_run(team, STRESS_CALLS, &res);
	sb_team_destroy(team);
	for (i = 0; i < members; i++) {
		shm->admitted[i] = a.st[i].admitted;
		shm->resets += a.st[i].resets;
		shm->harvested += a.st[i].harvested;
		for (size_t j = 0; j < a.log[i].nreset; j++)
			if (a.log[i].reset[j].harvested > shm->max_harvest)
				shm->max_harvest = a.log[i].reset[j].harvested;
	}
	shm->count = sb_window_count(p, a.w);
	shm->batch = a.w->batch;
	shm->bound = STRESS_LIMIT + (uint64_t)members * (STRESS_PAGES + a.w->batch);
	shm->done = 1;
	_exit(0);
}

static void sleep_ms(unsigned ms)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = (long)ms * 1000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* The child's CPU time, all its threads (0 once it cannot be read: exited). */
static uint64_t child_cpu_ns(clockid_t clk)
{
	struct timespec ts;

	if (clock_gettime(clk, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* True when every member of the child sleeps (S or D in /proc): none runs
 * or waits for a CPU, so none can make the others progress.  Members only:
 * a sanitizer's or qemu's own thread wakes now and then, and it calls
 * nothing.  A member not running yet, or gone, is not asleep. */
static bool members_asleep(pid_t pid, const struct stress_shm *shm, int members)
{
	char path[64], buf[512];
	int i;

	for (i = 0; i < members; i++) {
		int tid = __atomic_load_n(&shm->tid[i], __ATOMIC_RELAXED);
		const char *state = NULL;
		FILE *f;

		if (!tid)
			return false;
		snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", (int)pid, tid);
		f = fopen(path, "r");
		if (!f)
			return false;
		if (fgets(buf, sizeof(buf), f))
			state = strrchr(buf, ')');	/* the name may hold anything */
		fclose(f);
		if (!state || (state[2] != 'S' && state[2] != 'D'))
			return false;
	}
	return true;
}

/* Runs one case; returns the F_* properties that failed (printed unless quiet).
 * stop_ns > 0: the child is stopped (SIGSTOP) from its start for that long,
 * as a loaded machine can keep it off every CPU: that must be no deadlock. */
static int stress(const struct sb_window_policy *p, const char *lock, bool exact, int members,
		  uint64_t stop_ns, bool quiet)
{
	struct stress_shm *shm = mmap(NULL, sizeof(*shm), PROT_READ | PROT_WRITE,
				      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	uint64_t last = 0, admitted = 0, cpu0 = 0, spun = 0, slept = 0, asleep_since = 0;
	uint64_t last_change, started, waited = 0, waited_max = 0, spun_max = 0;
	unsigned asleep_polls = 0;
	int status = 0, failed = 0, i;
	bool have_clk = false;
	clockid_t clk;
	int64_t lost;
	pid_t pid, watcher;

	if (shm == MAP_FAILED) {
		CHECK(0, "mmap");
		return F_CRASH;
	}
	memset(shm, 0, sizeof(*shm));
	fflush(NULL);
	watcher = getpid();
	pid = fork();
	if (pid == 0)
		stress_child(p, lock, exact, members, shm, watcher);
	CHECK(pid > 0, "fork");
	if (pid > 0) {
		if (stop_ns)
			kill(pid, SIGSTOP);
		have_clk = clock_getcpuclockid(pid, &clk) == 0;
		CHECK(have_clk, "the child's CPU-time clock");
		cpu0 = have_clk ? child_cpu_ns(clk) : 0;
	}
	last_change = started = sb_now_ns();
	while (pid > 0) {
		uint64_t beats = 0, cpu, now;

		sleep_ms(2);
		if (stop_ns && sb_now_ns() - started > stop_ns) {
			kill(pid, SIGCONT);
			stop_ns = 0;
		}
		if (waitpid(pid, &status, WNOHANG) == pid)
			break;
		/* the CPU time before the beats: a call completed after it was
		 * read never counts as time spun without one */
		cpu = have_clk ? child_cpu_ns(clk) : 0;
		for (i = 0; i < members; i++)
			beats += __atomic_load_n(&shm->beat[i].calls, __ATOMIC_RELAXED);
		now = sb_now_ns();
		if (beats != last) {
			last = beats;
			cpu0 = cpu;
			last_change = now;
			asleep_polls = 0;
			continue;
		}
		/* no call since the last change: what the child did meanwhile */
		spun = cpu > cpu0 ? cpu - cpu0 : 0;
		waited = now - last_change;
		if (waited > waited_max) {
			waited_max = waited;
			spun_max = spun;
		}
		if (!members_asleep(pid, shm, members))
			asleep_polls = 0;
		else if (!asleep_polls++)
			asleep_since = now;
		slept = asleep_polls ? now - asleep_since : 0;
		if (spun > STALL_NS || (asleep_polls >= STALL_POLLS && slept > STALL_NS)) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			failed |= F_STALL | (spun > STALL_NS ? 0 : F_ASLEEP);
			break;
		}
	}
	if (getenv("SB_TEST_VERBOSE"))
		printf("window/%s%s%s%s: longest wait for a call %.3f s (the child spun %.3f s "
		       "of CPU in it)\n", p->name, lock ? "/lock:" : "", lock ? lock : "",
		       exact ? " (exact)" : "", (double)waited_max / 1e9, (double)spun_max / 1e9);
	if (!(failed & F_STALL) && (!WIFEXITED(status) || WEXITSTATUS(status) || !shm->done))
		failed |= F_CRASH;
	if (failed) {
		if (!quiet)
			fprintf(stderr, "window/%s%s%s%s: %s\n", p->name, lock ? "/lock:" : "",
				lock ? lock : "", exact ? " (exact)" : "",
				failed & F_STALL ? !(failed & F_ASLEEP) ?
				"deadlock: no call completed while the child spun for the stall "
				"bound (CPU time)" : "deadlock: no call completed while every "
				"member slept for the stall bound" :
				"the child failed");
		munmap(shm, sizeof(*shm));
		return failed;
	}
	for (i = 0; i < members; i++) {
		admitted += shm->admitted[i];
		if (shm->calls[i] < STRESS_CALLS || !shm->returned[i])
			failed |= F_PROGRESS;
		/* st->admitted is what the caller was told (null counts nothing) */
		if (shm->admitted[i] != (strcmp(p->name, "null") ? shm->returned[i] : 0))
			failed |= F_STATS;
	}
	lost = (int64_t)(admitted - shm->harvested - shm->count);
	if ((p->exact || exact) && lost != 0)
		failed |= F_LOST;
	if (getenv("SB_TEST_VERBOSE"))
		printf("window/%s%s%s%s: admitted %llu harvested %llu count %llu lost %lld resets %llu max %llu\n",
		       p->name, lock ? "/lock:" : "", lock ? lock : "", exact ? " (exact)" : "",
		       (unsigned long long)admitted, (unsigned long long)shm->harvested,
		       (unsigned long long)shm->count, (long long)lost,
		       (unsigned long long)shm->resets, (unsigned long long)shm->max_harvest);
	if (shm->max_harvest > shm->bound || shm->count > shm->bound)
		failed |= F_BOUND;
	if (!shm->resets && strcmp(p->name, "null") != 0)
		failed |= F_IDLE;	/* the case must exercise the reset */
	if (failed && !quiet) {
		char per[MAXM * 48];
		size_t o = 0;

		for (i = 0; i < members; i++)
			o += (size_t)snprintf(per + o, sizeof(per) - o, "%s%llu/%llu", i ? " " : "",
					      (unsigned long long)shm->calls[i],
					      (unsigned long long)shm->returned[i]);
		fprintf(stderr, "window/%s%s%s%s: %s%s%s%s%s (calls/pages per member: %s; "
			"lost %lld; largest window %llu, bound %llu; resets %llu)\n", p->name,
			lock ? "/lock:" : "", lock ? lock : "", exact ? " (exact)" : "",
			failed & F_PROGRESS ? "a member did not progress; " : "",
			failed & F_LOST ? "lost page updates; " : "",
			failed & F_BOUND ? "a window's count passed the bound; " : "",
			failed & F_IDLE ? "no reset happened; " : "",
			failed & F_STATS ? "st->admitted is not what update() returned; " : "",
			per, (long long)lost, (unsigned long long)shm->max_harvest,
			(unsigned long long)shm->bound, (unsigned long long)shm->resets);
	}
	munmap(shm, sizeof(*shm));
	return failed;
}

static int members(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 2 ? 2 : n > MAXM ? MAXM : (int)n;
}

/* every registered policy × every lock (lock-based) × racy and exact */
static void test_conformance(void)
{
	int nl = sb_registry_count(SB_FAMILY_lock, false), i, l, e, cases = 0;
	uint64_t t0 = sb_now_ns();

	for (i = 0; i < sb_registry_count(SB_FAMILY_window, false); i++) {
		const struct sb_window_policy *p = sb_registry_at(SB_FAMILY_window, i, false)->desc;

		if (strcmp(p->name, "null") != 0) {
			set_phase("script", p->name, NULL);
			for (e = 0; e < 2; e++)
				CHECK(script(p, "ttas", e, false) == 0, "window/%s passes the script",
				      p->name);
		}
		for (l = 0; l < (p->uses_lock ? nl : 1); l++) {
			const char *lock = p->uses_lock ?
					   sb_registry_at(SB_FAMILY_lock, l, false)->name : NULL;

			for (e = 0; e < 2; e++) {
				int f;

				set_phase("stress", p->name, lock);
				f = stress(p, lock, e, members(), 0, false);
				CHECK(f == 0, "window/%s%s%s%s conforms (failed: %#x)", p->name,
				      lock ? "/lock:" : "", lock ? lock : "", e ? " exact" : "", f);
				cases++;
			}
		}
	}
	printf("conformance: %d stress cases, %d members, %u calls each, %.1f s%s\n", cases,
	       members(), STRESS_CALLS, (double)(sb_now_ns() - t0) / 1e9,
	       SLOW == 2 ? " (scaled down: sanitizer)" : SLOW ? " (scaled down: not x86)" :
	       slow() ? " (scaled down: emulated lab)" : "");
	CHECK(sb_registry_count(SB_FAMILY_window, false) >= 8, "at least 8 window policies");
}

/* Each fixture breaks one property; its check must catch it (a few tries
 * for the racy one, whose loss is likely but timing-dependent). */
static void test_fixtures(void)
{
	static const struct {
		const char *name;
		int script_fails;	/* 1: the script must fail; -1: not run, it
					 * would hang this process (the stress
					 * watches a child for that) */
		int stress_bit;		/* the stress property that must fail, 0: none */
		int stress_not;		/* and one that must not (how it failed) */
		const char *lock;
	} fx[] = {
		{ "exact_probe", 0, 0, 0, "ttas" },	/* keeps its promises: must pass */
		{ "broken_phase", 1, 0, 0, "ttas" },
		{ "broken_instant", 1, 0, 0, "ttas" },
		{ "broken_overshoot", 1, F_BOUND, 0, "ttas" },
		{ "broken_racy", 0, F_LOST, 0, "ttas" },
		{ "broken_starve", 0, F_PROGRESS, 0, "ttas" },
		/* a deadlock on a spinning lock burns CPU time with no call... */
		{ "broken_deadlock", -1, F_STALL, F_ASLEEP, "ttas" },
		/* ...and on a sleeping one every member sleeps */
		{ "broken_deadlock", -1, F_STALL | F_ASLEEP, 0, "pthread_mutex" },
	};
	int f;

	for (size_t k = 0; k < sizeof(fx) / sizeof(fx[0]); k++) {
		const struct sb_window_policy *p = sb_window_find(fx[k].name);
		const char *lock = fx[k].lock;
		int got = 0, s;

		CHECK(p && p->test_only, "fixture %s registered, test_only", fx[k].name);
		if (!p)
			continue;
		set_phase("fixture", p->name, lock);
		s = fx[k].script_fails < 0 ? -1 : script(p, lock, false, true);
		if (s >= 0)
			CHECK(fx[k].script_fails ? s > 0 : s == 0, "window/%s: script %s (%d failed)",
			      p->name, fx[k].script_fails ? "must catch it" : "must pass", s);
		if (!strcmp(p->name, "broken_deadlock") || !strcmp(p->name, "broken_starve") ||
		    !strcmp(p->name, "broken_racy") || !strcmp(p->name, "broken_overshoot") ||
		    !strcmp(p->name, "exact_probe"))
			for (int t = 0; t < (fx[k].stress_bit ? FIXTURE_TRIES : 1); t++) {
				got |= stress(p, lock, false, members(), 0,
					      !getenv("SB_TEST_VERBOSE"));
				if ((got & fx[k].stress_bit) == fx[k].stress_bit)
					break;
			}
		if (fx[k].stress_bit)
			CHECK((got & fx[k].stress_bit) == fx[k].stress_bit && !(got & fx[k].stress_not),
			      "window/%s/lock:%s: stress must catch it (got %#x, want %#x without %#x)",
			      p->name, lock, got, fx[k].stress_bit, fx[k].stress_not);
		else if (!strcmp(p->name, "exact_probe"))
			CHECK(got == 0, "exact_probe passes the stress (failed: %#x)", got);
		printf("fixture window/%s/lock:%s: script %s%d, stress %#x: %s\n", p->name, lock,
		       s < 0 ? "not run (would hang in-process) " : "", s, got,
		       (fx[k].script_fails < 0 || (fx[k].script_fails ? s > 0 : s == 0)) &&
		       (!fx[k].stress_bit || ((got & fx[k].stress_bit) == fx[k].stress_bit &&
					      !(got & fx[k].stress_not))) ?
		       "as expected" : "NOT CAUGHT");
	}
	/* the other way round: a child kept off the CPUs for longer than the
	 * stall bound (stopped: no CPU time, not asleep) makes no call and is
	 * no deadlock; a wall-clock bound called such waits one under load */
	set_phase("stopped child", "trylock", "pthread_spin");
	f = stress(sb_window_find("trylock"), "pthread_spin", true, members(),
		   STALL_NS + STALL_NS / 4, false);
	CHECK(f == 0, "window/trylock/lock:pthread_spin (exact) stopped for 1.25 stall bounds: "
	      "no deadlock (failed: %#x)", f);
	printf("stopped child window/trylock/lock:pthread_spin (exact): stress %#x: %s\n", f,
	       f ? "CALLED A DEADLOCK" : "as expected");
}

/* ---- fidelity merge on synthetic logs with known answers */

static void test_fidelity_merge(sb_ticks base)
{
	struct sb_window_log a, b, *logs[2] = { &a, &b };
	const struct sb_window_run wr = { logs, 2, base, base + 100, base + 1100, 100 };
	struct sb_window_fidelity f;

	sb_window_log_init(&a, 16, 16);
	sb_window_log_init(&b, 16, 16);
	/* interval 100, limit 10; the first window ends at base + 100 */
	struct sb_window_stats sa = { .log = &a }, sb = { .log = &b };

	sb_window_reset_done(&sa, base + 101, base + 201, 5);	/* on time */
	sb_window_reset_done(&sb, base + 202, base + 302, 10);	/* on time */
	sb_window_reset_done(&sa, base + 250, base + 302, 7);	/* not expired: double */
	sb_window_reset_done(&sb, base + 303, base + 403, 3);
	sb_window_reset_done(&sa, base + 900, base + 1000, 0);	/* 497 late: closes an idle window */
	sb_window_reset_done(&sb, base + 1001, base + 1101, 2);
	sb_window_log_admit(&a, base + 150, 4);
	sb_window_log_admit(&b, base + 160, 3);
	sb_window_log_admit(&b, base + 160, 3);		/* same now: merged */
	sb_window_log_admit(&a, base + 210, 12);
	sb_window_log_admit(&a, base + 1050, 5);	/* open last window: not counted */
	CHECK(b.nadmit == 1 && b.admit[0].pages == 6, "same-now admits merge");
	sb_window_fidelity(&wr, 10, &f);
	/* [303,900) is idle and [900,1001) starts at its late reset: both out */
	CHECK(f.windows == 2 && f.idle_windows == 2, "windows %llu idle %llu (want 2, 2)",
	      (unsigned long long)f.windows, (unsigned long long)f.idle_windows);
	CHECK(f.double_resets == 1, "double resets %llu", (unsigned long long)f.double_resets);
	CHECK(f.stretch_mean > 1.0099 && f.stretch_mean < 1.0101 && f.stretch_max > 1.0099 &&
	      f.stretch_max < 1.0101, "stretch %g max %g (want 1.01)", f.stretch_mean,
	      f.stretch_max);
	/* windows [101,202) 10 pages, [202,303) 12 */
	CHECK(f.admit_max == 1.2 && f.admit_p99 == 1.2 && f.admit_mean > 1.0999 &&
	      f.admit_mean < 1.1001, "admit mean %g p99 %g max %g", f.admit_mean, f.admit_p99,
	      f.admit_max);
	CHECK(f.max_harvest == 10 && !f.truncated, "max harvest %llu", (unsigned long long)f.max_harvest);
	/* the same merge as a timeline (windows.jsonl): the set-up's window
	 * [0,101) first, the double reset at 250 starts none, [303,900) and
	 * [900,1001) are idle, the open window from 1001 is not listed */
	struct sb_window_span win[4];
	uint64_t mp[4 * 2], total;
	size_t nw = sb_window_timeline(&wr, win, mp, 4, &total);
	static const struct sb_window_span want[4] = {
		{ 0, 101, 0, false }, { 101, 202, 10, false }, { 202, 303, 12, false },
		{ 303, 900, 0, true },
	};
	static const uint64_t want_mp[4 * 2] = { 0, 0, 4, 6, 12, 0, 0, 0 };

	CHECK(nw == 4 && total == 5, "timeline: %zu windows of %llu (want 4 of 5)", nw,
	      (unsigned long long)total);
	for (size_t k = 0; k < nw && k < 4; k++)
		CHECK(win[k].start == want[k].start && win[k].end == want[k].end &&
		      win[k].pages == want[k].pages && win[k].idle == want[k].idle &&
		      mp[2 * k] == want_mp[2 * k] && mp[2 * k + 1] == want_mp[2 * k + 1],
		      "timeline window %zu: [%llu, %llu) %llu pages (%llu + %llu)%s", k,
		      (unsigned long long)win[k].start, (unsigned long long)win[k].end,
		      (unsigned long long)win[k].pages, (unsigned long long)mp[2 * k],
		      (unsigned long long)mp[2 * k + 1], win[k].idle ? " idle" : "");
	nw = sb_window_timeline(&wr, win, NULL, 2, &total);
	CHECK(nw == 2 && total == 5 && win[1].pages == 10, "timeline cut at 2: %zu of %llu", nw,
	      (unsigned long long)total);
	/* b's log fills at 500: only windows closed before it count */
	b.full = true;
	b.full_at = base + 500;
	sb_window_fidelity(&wr, 10, &f);
	CHECK(f.truncated && f.windows == 2 && f.cut_fraction > 0.45 && f.cut_fraction < 0.46,
	      "truncated: windows %llu, cut %g", (unsigned long long)f.windows, f.cut_fraction);
	nw = sb_window_timeline(&wr, win, mp, 4, &total);
	CHECK(nw == 3 && total == 3 && win[2].end == 303, "truncated timeline: %zu of %llu", nw,
	      (unsigned long long)total);
	/* a full log records when it filled, and drops, never overwrites */
	b.full = false;
	for (int i = 0; i < 40; i++)
		sb_window_log_admit(&b, base + 2000 + (sb_ticks)i, 1);
	CHECK(b.full && b.full_at == base + 2015 && b.nadmit == 16, "log full at %llu, %zu events",
	      (unsigned long long)(b.full_at - base), b.nadmit);
	sb_window_log_free(&a);
	sb_window_log_free(&b);
}

/* ---- the jiffies ticker: advances, starts 5 minutes before the wrap, stops */

static void test_ticker(void)
{
	struct sb_ticker *t = aligned_alloc(SB_CACHELINE, sizeof(*t));
	uint64_t t0, j;

	set_phase("ticker", "-", NULL);
	CHECK(sb_ticker_start(t, 1000000) == 0, "ticker starts");
	CHECK(sb_ticker_initial(1000000) == (uint64_t)0 - 300000, "INITIAL_JIFFIES at HZ=1000");
	t0 = sb_now_ns();
	while ((j = __atomic_load_n(&t->jiffies, __ATOMIC_RELAXED)) - t->initial < 5 &&
	       sb_now_ns() - t0 < 5000000000ull)
		sleep_ms(1);
	CHECK(j - t->initial >= 5, "5 ticks within 5 s: %llu", (unsigned long long)(j - t->initial));
	/* derived from the time, so it does not run slow */
	CHECK(j - t->initial <= (sb_now_ns() - t->start_ns) / 1000000 + 1, "no tick ahead of time");
	t0 = sb_now_ns();
	sb_ticker_stop(t);
	CHECK(sb_now_ns() - t0 < 500000000ull * (SLOW + 1), "stop within a period: %llu ns",
	      (unsigned long long)(sb_now_ns() - t0));
	free(t);
}

/* ---- the timed loops: the logged one records what the members admitted */

struct loop_arg {
	const struct sb_window_policy *p;
	struct sb_window_loop lp[2];
	bool logged;
};

static uint64_t loop_member(int tid, const struct sb_round *r, void *arg)
{
	struct loop_arg *a = arg;

	return a->logged ? a->p->loop_logged(&a->lp[tid], r) : a->p->loop(&a->lp[tid], r);
}

static void test_loops(void)
{
	const struct sb_window_policy *p = sb_window_find("trylock");
	struct loop_arg a = { .p = p, .logged = true };
	struct sb_window_log logs[2];
	double scale = 1.0 / sb_cycles_per_ns();
	struct sb_window *w = new_window(p, "ttas", 5000, 8, true, 2,
					 (sb_ticks)((double)sb_read_cycles() * scale));
	struct sb_team_result res;
	struct sb_team *team;
	uint64_t admitted = 0, logged = 0, resets = 0, nreset = 0;
	char err[256];
	int i;

	set_phase("loops", p->name, "ttas");
	for (i = 0; i < 2; i++) {
		sb_window_log_init(&logs[i], 1 << 20, 1 << 16);
		a.lp[i].w = w;
		a.lp[i].nr_pages = 1;
		a.lp[i].ticks_per_cycle = scale;
		a.lp[i].fault_iters = sb_work_iters(20);
		a.lp[i].st.member = i;
		a.lp[i].st.log = &logs[i];
	}
	team = sb_team_create(2, NULL, loop_member, &a, err, sizeof(err));
	CHECK(team, "team: %s", err);
	if (!team)
		return;
	sb_team_run(team, SLOW ? 20000 : 200000, &res);
	sb_team_destroy(team);
	for (i = 0; i < 2; i++) {
		admitted += a.lp[i].st.admitted;
		resets += a.lp[i].st.resets;
		nreset += logs[i].nreset;
		for (size_t j = 0; j < logs[i].nadmit; j++)
			logged += logs[i].admit[j].pages;
		CHECK(!logs[i].full, "log %d did not fill", i);
		sb_window_log_free(&logs[i]);
	}
	CHECK(admitted > 0 && logged == admitted, "logged admits %llu == admitted %llu",
	      (unsigned long long)logged, (unsigned long long)admitted);
	CHECK(resets > 0 && nreset == resets, "logged resets %llu == resets %llu",
	      (unsigned long long)nreset, (unsigned long long)resets);
	free_window(w);

	/* the default loop on a frozen clock: exact accounting, bounded overshoot */
	a.logged = false;
	w = new_window(sb_window_find("spinlock"), "ttas", (sb_ticks)1 << 62, 100000, true, 2, 0);
	a.p = sb_window_find("spinlock");
	for (i = 0; i < 2; i++) {
		memset(&a.lp[i], 0, sizeof(a.lp[i]));
		a.lp[i].w = w;
		a.lp[i].nr_pages = 3;
		a.lp[i].ticks_per_cycle = 0;	/* now is always 0: no reset */
	}
	team = sb_team_create(2, NULL, loop_member, &a, err, sizeof(err));
	CHECK(team, "team: %s", err);
	if (!team)
		return;
	sb_team_run(team, 200000, &res);
	sb_team_destroy(team);
	CHECK(a.lp[0].st.admitted + a.lp[1].st.admitted == w->nr_pages,
	      "exact: admitted %llu == nr_pages %lu",
	      (unsigned long long)(a.lp[0].st.admitted + a.lp[1].st.admitted), w->nr_pages);
	CHECK(w->nr_pages <= 100000 + 2 * 3, "limit overshoot bounded: %lu", w->nr_pages);
	CHECK(a.lp[0].st.limited + a.lp[1].st.limited > 0, "limit reached");
	free_window(w);
}

/* ---- the calls clock: member 0 advances jiffies exactly every N calls.
 * With `null` (admits every call) the logged loop's log merges consecutive
 * calls at one `now`, so entry k must be {t0 + k, N pages}: k ticks after k×N
 * calls.  Returns the number of entries that break it (0: the clock holds). */
static int calls_clock_errors(uint64_t n, uint64_t start_left, uint64_t quota,
			      uint64_t *entries, uint64_t *samples)
{
	const struct sb_window_policy *p = sb_window_find("null");
	struct sb_window *w = new_window(p, NULL, 100, 1, false, 1, 0);
	SB_CACHE_ALIGNED sb_ticks vclock = (sb_ticks)0 - 5;	/* across the wrap */
	const sb_ticks t0 = vclock;
	struct sb_window_log log;
	struct sb_window_loop lp = {
		.w = w, .nr_pages = 1, .jiffies = &vclock, .vclock = &vclock,
		.tick_calls = n, .tick_left = start_left,
	};
	int stop = 0, bad = 0;
	uint64_t calls = 0;
	struct sb_round r = { .quota = quota / 2, .stop = &stop };
	size_t k;

	sb_window_log_init(&log, quota, 16);
	lp.st.log = &log;
	calls += p->loop_logged(&lp, &r);	/* two rounds: tick_left carries over */
	stop = 0;
	calls += p->loop_logged(&lp, &r);
	for (k = 0; k < log.nadmit; k++) {
		uint64_t want = k + 1 < log.nadmit ? n : calls - k * n;

		bad += log.admit[k].t != t0 + k || log.admit[k].pages != want;
	}
	bad += log.nadmit != (calls + n - 1) / n || vclock != t0 + (calls - 1) / n;
	*entries = log.nadmit;
	*samples = lp.upd_samples;
	sb_window_log_free(&log);
	free_window(w);
	return bad;
}

static void test_calls_clock(void)
{
	const uint64_t quota = (uint64_t)64 * SB_WINDOW_CHUNK * 2;
	uint64_t entries, samples, n;

	set_phase("calls clock", "null", NULL);
	for (n = 1; n <= 97; n += 48) {		/* 1, 49 (odd against the chunk), 97 */
		int bad = calls_clock_errors(n, n, quota, &entries, &samples);

		CHECK(bad == 0, "tick every %llu calls: %d of %llu entries wrong",
		      (unsigned long long)n, bad, (unsigned long long)entries);
		CHECK(samples == quota / SB_WINDOW_CHUNK, "one timed call per chunk: %llu",
		      (unsigned long long)samples);
	}
	/* fixtures: a clock one call out of phase, and one that ticks at once */
	CHECK(calls_clock_errors(49, 48, quota, &entries, &samples) > 0,
	      "fixture: a tick one call early is caught");
	CHECK(calls_clock_errors(49, 0, quota, &entries, &samples) > 0,
	      "fixture: a tick before the first call is caught");
}

/* ---- spinlock specifics: a reset that finds the lock held is contended */

struct held_arg {
	struct sb_window *w;
	struct sb_window_stats st;
	bool limited;
};

static void *reset_behind_holder(void *p)
{
	struct held_arg *a = p;

	a->limited = sb_window_find("spinlock")->update(a->w, 500, 1, &a->st);
	return NULL;
}

static void test_spinlock_contended(void)
{
	struct held_arg a = { .w = new_window(sb_window_find("spinlock"), "ticket", 100, 10, false,
					      1, 0) };
	/* the ticket lock's first word is `next`: a waiter shows as next == 2 */
	const uint32_t *next_ticket = a.w->lock.state;
	pthread_t th;

	set_phase("contended", "spinlock", "ticket");
	sb_lock_lock(&a.w->lock, NULL);		/* ticket takes no node */
	pthread_create(&th, NULL, reset_behind_holder, &a);
	while (__atomic_load_n(next_ticket, __ATOMIC_RELAXED) != 2)
		sleep_ms(1);			/* the resetter is queued behind us */
	CHECK(sb_read_once(&a.w->next_window) == 100, "no reset while the lock is held");
	sb_lock_unlock(&a.w->lock, NULL);
	pthread_join(th, NULL);
	CHECK(a.st.contended == 1 && a.st.resets == 1 && !a.limited,
	      "contended %llu resets %llu", (unsigned long long)a.st.contended,
	      (unsigned long long)a.st.resets);
	CHECK(a.w->next_window == 600, "reset after the holder let go: %llu",
	      (unsigned long long)a.w->next_window);
	free_window(a.w);
}

static void test_null(void)
{
	const struct sb_window_policy *p = sb_window_find("null");
	struct sb_window_stats st = { 0 };
	struct sb_window *w = new_window(p, NULL, 100, 1, false, 1, 0);
	int i;

	for (i = 0; i < 1000; i++)
		CHECK(!p->update(w, (sb_ticks)i * 7, 512, &st), "null never limits");
	CHECK(st.resets == 0 && w->nr_pages == 0, "null touches nothing");
	free_window(w);
}

int main(void)
{
	uint64_t t0 = sb_now_ns();

	check_watchdog("test_window", WATCHDOG_S);
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_fidelity_merge(0);
	test_fidelity_merge(UINT64_MAX - 300);	/* across the wrap */
	test_ticker();
	test_calls_clock();
	test_null();
	test_spinlock_contended();
	test_loops();
	test_fixtures();
	test_conformance();
	printf("test_window: %.1f s\n", (double)(sb_now_ns() - t0) / 1e9);
	return check_done("test_window");
}
