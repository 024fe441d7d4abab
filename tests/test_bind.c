/* test_bind.c — on this machine, binding puts every member on the CPU its
 * plan names; an impossible CPU fails creation with one line. */
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include <stratbench/team.h>
#include "machine/topo.h"

#include "check.h"

static int seen[1024];

static uint64_t where(int tid, const struct sb_round *r, void *arg)
{
	(void)r, (void)arg;
	seen[tid] = sched_getcpu();
	return 1;
}

int main(void)
{
	static const char *const plans[] = { "compact", "cores", "scatter" };
	struct sb_team_result res;
	struct sb_topo *topo;
	char err[256];
	int n, p, i, cpus[1024], bad[2];

	CHECK(sb_topo_load(&topo, NULL, err, sizeof(err)) == 0, "load: %s", err);
	n = sb_topo_npus(topo);
	if (n > 1024)
		n = 1024;
	for (p = 0; p < 3; p++) {
		struct sb_team *t;
		int k = strcmp(plans[p], "cores") == 0 ? sb_topo_ncores(topo) : n;

		CHECK(sb_topo_plan(topo, plans[p], k, cpus, err, sizeof(err)) == 0, "%s", err);
		t = sb_team_create(k, cpus, where, NULL, err, sizeof(err));
		CHECK(t != NULL, "%s: %s", plans[p], err);
		if (!t)
			continue;
		for (i = 0; i < 3; i++) {	/* and it stays there, round after round */
			memset(seen, -1, sizeof(seen));
			sb_team_run(t, 1, &res);
			for (int m = 0; m < k; m++)
				CHECK(seen[m] == cpus[m], "%s: member %d on CPU %d, plan says %d",
				      plans[p], m, seen[m], cpus[m]);
		}
		sb_team_destroy(t);
	}
	bad[0] = cpus[0];
	bad[1] = 100000;	/* no such CPU */
	CHECK(sb_team_create(2, bad, where, NULL, err, sizeof(err)) == NULL &&
	      strstr(err, "CPU 100000") && !strchr(err, '\n'), "bad CPU: %s", err);
	/* a process restricted to one CPU (taskset) must not be widened: the
	 * team refuses a plan that needs another CPU, names it, and leaves the
	 * caller's affinity as it was */
	if (n >= 2) {
		cpu_set_t one, saved, after;

		sched_getaffinity(0, sizeof(saved), &saved);
		CPU_ZERO(&one);
		CPU_SET(cpus[0], &one);
		CHECK(sched_setaffinity(0, sizeof(one), &one) == 0, "restrict to CPU %d", cpus[0]);
		bad[0] = cpus[0];
		bad[1] = cpus[0] == 0 ? 1 : 0;
		CHECK(sb_team_create(2, bad, where, NULL, err, sizeof(err)) == NULL &&
		      strstr(err, "affinity") && !strchr(err, '\n'), "outside affinity: %s", err);
		sched_getaffinity(0, sizeof(after), &after);
		CHECK(CPU_EQUAL(&after, &one), "caller's affinity unchanged after refusal");
		sched_setaffinity(0, sizeof(saved), &saved);
	} else {
		printf("test_bind: affinity check skipped: needs 2 CPUs, this machine has %d\n", n);
	}
	sb_topo_destroy(topo);
	return check_done("test_bind");
}
