/* test_window.c — window policies driven by a scripted clock (the harness
 * owns `now`), and the declared properties of every registered policy. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <stratbench/window.h>

#include "check.h"

static struct sb_window *new_window(const char *policy, const char *lock, sb_ticks interval,
				    unsigned long limit, bool exact, sb_ticks now)
{
	struct sb_window *w = aligned_alloc(SB_CACHELINE, 4096);
	struct sb_window_params p = { .interval = interval, .limit = limit, .exact = exact };
	int rc = sb_window_init(w, sb_window_find(policy), lock ? sb_lock_find(lock) : NULL,
				(char *)w + sizeof(*w), &p, now);

	CHECK(rc == 0, "init %s", policy);
	return w;
}

static void test_spinlock_script(bool exact)
{
	const struct sb_window_policy *p = sb_window_find("spinlock");
	struct sb_window_stats st = { 0 };
	struct sb_window *w = new_window("spinlock", "ttas", 100, 10, exact, 1000);

	CHECK(p && p->uses_lock && p->stretches && !p->exact, "spinlock declares lock, stretch, racy");
	CHECK(w->next_window == 1100, "first window ends at now + interval: %llu",
	      (unsigned long long)w->next_window);
	/* 4 + 4 + 4 pages: the third call still sees 8 <= 10 and is admitted */
	CHECK(!p->update(w, 1050, 4, &st), "4 pages admitted");
	CHECK(!p->update(w, 1060, 4, &st), "8 pages admitted");
	CHECK(!p->update(w, 1070, 4, &st), "12: admitted on 8 <= limit");
	CHECK(w->nr_pages == 12, "nr_pages %lu", w->nr_pages);
	CHECK(p->update(w, 1080, 1, &st), "over the limit: refused");
	CHECK(p->update(w, 1100, 1, &st), "now == next_window is not after: still refused");
	CHECK(w->nr_pages == 12 && st.resets == 0 && st.limited == 2, "nothing accounted when refused");
	/* one tick past the window: reset, and the new window starts at now */
	CHECK(!p->update(w, 1101, 3, &st), "admitted after reset");
	CHECK(st.resets == 1, "one reset, got %llu", (unsigned long long)st.resets);
	CHECK(w->next_window == 1201, "stretch: next_window = now + interval = 1201, got %llu",
	      (unsigned long long)w->next_window);
	CHECK(w->nr_pages == 3, "pages restart from 0: %lu", w->nr_pages);
	/* long idle: one reset, window restarts at now (no catching up) */
	CHECK(!p->update(w, 5000, 1, &st), "admitted after idle");
	CHECK(st.resets == 2 && w->next_window == 5100, "next_window %llu",
	      (unsigned long long)w->next_window);
	/* wrap-safe time_after across the 64-bit boundary */
	w->next_window = UINT64_MAX - 5;
	CHECK(!p->update(w, UINT64_MAX - 10, 1, &st) && st.resets == 2, "before wrap: no reset");
	CHECK(!p->update(w, 4, 1, &st) && st.resets == 3, "after wrap: reset");
	CHECK(st.admitted == 4 + 4 + 4 + 3 + 1 + 1 + 1, "admitted pages %llu",
	      (unsigned long long)st.admitted);
	sb_window_fini(w);
	free(w);
}

/* A reset that finds the lock held counts as contended, then waits for it. */
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
	struct held_arg a = { .w = new_window("spinlock", "ticket", 100, 10, false, 0) };
	/* the ticket lock's first word is `next`: a waiter shows as next == 2 */
	const uint32_t *next_ticket = a.w->lock.state;
	pthread_t th;

	sb_lock_lock(&a.w->lock, NULL);		/* ticket takes no node */
	pthread_create(&th, NULL, reset_behind_holder, &a);
	while (__atomic_load_n(next_ticket, __ATOMIC_RELAXED) != 2)
		usleep(1000);			/* the resetter is queued behind us */
	CHECK(sb_read_once(&a.w->next_window) == 100, "no reset while the lock is held");
	sb_lock_unlock(&a.w->lock, NULL);
	pthread_join(th, NULL);
	CHECK(a.st.contended == 1 && a.st.resets == 1 && !a.limited,
	      "contended %llu resets %llu", (unsigned long long)a.st.contended,
	      (unsigned long long)a.st.resets);
	CHECK(a.w->next_window == 600, "reset after the holder let go: %llu",
	      (unsigned long long)a.w->next_window);
	sb_window_fini(a.w);
	free(a.w);
}

/* Every registered policy: a reset puts next_window where `stretches` says. */
static void test_declared_phase(void)
{
	int i;

	for (i = 0; i < sb_registry_count(SB_FAMILY_window, true); i++) {
		const struct sb_window_policy *p = sb_registry_at(SB_FAMILY_window, i, true)->desc;
		struct sb_window_stats st = { 0 };
		struct sb_window *w = new_window(p->name, "ttas", 100, 1000, false, 0);

		p->update(w, 50, 1, &st);
		p->update(w, 250, 1, &st);	/* 2.5 intervals in */
		if (st.resets == 0) {
			printf("window/%s: never resets, phase check not applicable\n", p->name);
			CHECK(strcmp(p->name, "null") == 0, "%s: only null may never reset", p->name);
		} else if (p->stretches) {
			CHECK(w->next_window == 350, "%s stretches: next_window %llu != 350", p->name,
			      (unsigned long long)w->next_window);
		} else {
			CHECK(w->next_window == 300, "%s keeps phase: next_window %llu != 300", p->name,
			      (unsigned long long)w->next_window);
		}
		sb_window_fini(w);
		free(w);
	}
}

static void test_null(void)
{
	const struct sb_window_policy *p = sb_window_find("null");
	struct sb_window_stats st = { 0 };
	struct sb_window *w = new_window("null", NULL, 100, 1, false, 0);
	int i;

	for (i = 0; i < 1000; i++)
		CHECK(!p->update(w, (sb_ticks)i * 7, 512, &st), "null never limits");
	CHECK(st.resets == 0 && w->nr_pages == 0, "null touches nothing");
	free(w);
}

/* The timed loop, two unpinned threads, exact accounting, one long window:
 * every admitted page is in nr_pages, and nothing is admitted past the limit
 * by more than one call per thread. */
struct loop_arg {
	const struct sb_window_policy *p;
	struct sb_window_loop lp[2];
};

static uint64_t loop_member(int tid, const struct sb_round *r, void *arg)
{
	struct loop_arg *a = arg;

	return a->p->loop(&a->lp[tid], r);
}

static void test_loop_exact(void)
{
	struct loop_arg a = { .p = sb_window_find("spinlock") };
	struct sb_window *w = new_window("spinlock", "ttas", (sb_ticks)1 << 62, 100000, true, 0);
	struct sb_team_result res;
	struct sb_team *team;
	char err[256];
	int i;

	for (i = 0; i < 2; i++) {
		a.lp[i].w = w;
		a.lp[i].nr_pages = 3;
		a.lp[i].ticks_per_cycle = 0;	/* now is always 0: no reset */
	}
	team = sb_team_create(2, NULL, loop_member, &a, err, sizeof(err));
	CHECK(team, "team: %s", err);
	if (!team)
		return;
	sb_team_run(team, 200000, &res);
	CHECK(res.total_ops == res.ops[0] + res.ops[1], "ops sum");
	sb_team_destroy(team);
	CHECK(a.lp[0].st.admitted + a.lp[1].st.admitted == w->nr_pages,
	      "exact: admitted %llu == nr_pages %lu",
	      (unsigned long long)(a.lp[0].st.admitted + a.lp[1].st.admitted), w->nr_pages);
	CHECK(w->nr_pages <= 100000 + 2 * 3, "limit overshoot bounded: %lu", w->nr_pages);
	CHECK(a.lp[0].st.limited + a.lp[1].st.limited > 0, "limit reached");
	CHECK(a.lp[0].st.resets + a.lp[1].st.resets == 0, "no reset with a frozen clock");
	sb_window_fini(w);
	free(w);
}

/* Every policy declaring `exact` loses no page update under contention,
 * in the default (racy) accounting mode: what it admitted is in nr_pages. */
static void test_declared_exact(void)
{
	uint64_t accounted = 0;
	int i, k;

	for (i = 0; i < sb_registry_count(SB_FAMILY_window, true); i++) {
		const struct sb_window_policy *p = sb_registry_at(SB_FAMILY_window, i, true)->desc;
		struct loop_arg a = { .p = p };
		struct sb_window *w;
		struct sb_team_result res;
		struct sb_team *team;
		char err[256];

		if (!p->exact) {
			printf("window/%s: racy accounting declared: lost updates allowed\n", p->name);
			continue;
		}
		w = new_window(p->name, "ttas", (sb_ticks)1 << 62, 1ul << 40, false, 0);
		for (k = 0; k < 2; k++) {
			a.lp[k].w = w;
			a.lp[k].nr_pages = 1;
			a.lp[k].ticks_per_cycle = 0;
		}
		team = sb_team_create(2, NULL, loop_member, &a, err, sizeof(err));
		CHECK(team, "team: %s", err);
		if (!team)
			return;
		sb_team_run(team, 200000, &res);
		sb_team_destroy(team);
		accounted += a.lp[0].st.admitted + a.lp[1].st.admitted;
		CHECK(a.lp[0].st.admitted + a.lp[1].st.admitted ==
		      w->nr_pages - w->base,
		      "%s declares exact: admitted %llu, accounted %lu", p->name,
		      (unsigned long long)(a.lp[0].st.admitted + a.lp[1].st.admitted),
		      w->nr_pages - w->base);
		sb_window_fini(w);
		free(w);
	}
	/* exact_probe (tests/test_policies.c) makes this check bite */
	CHECK(accounted > 0, "no exact policy accounted any page");
}

int main(void)
{
	test_spinlock_script(false);
	test_spinlock_script(true);
	test_spinlock_contended();
	test_declared_phase();
	test_null();
	test_loop_exact();
	test_declared_exact();
	return check_done("test_window");
}
