/* test_gbench_stages.c — stages under random interleaving (gbench.h):
 * 4 "ref" benchmarks of stage 0 and 5 "dep" of stage 1, 3 repetitions
 * each.  `staged`: every ref repetition runs, and is reported, before any
 * dep one; within stage 1 the repetitions are still interleaved; one JSON
 * document holds every run of both stages.  `flat` is the broken fixture:
 * the same benchmarks in one stage, where interleaving puts a dep before a
 * ref (the order check would fail; by chance it does not with probability
 * 1/C(27,12), about 6e-8). */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/gbench.h"

#include "check.h"

#define NREF 4
#define NDEP 5
#define REPS 3
#define NRUNS ((NREF + NDEP) * REPS)

static int order[NRUNS + 8], norder;		/* 0 ref, 1 dep + 10 × index */
static int reported[(NREF + NDEP) * (REPS + 4) + 8], nreported;

static void body(sb_state *st, void *arg)
{
	if (norder < NRUNS + 8)
		order[norder++] = (int)(intptr_t)arg;
	while (sb_state_keep_running_batch(st, 1) > 0)
		;
}

static void hook(const struct sb_run_report *r, void *arg)
{
	(void)arg;
	if (nreported < (int)(sizeof(reported) / sizeof(reported[0])))
		reported[nreported++] = strncmp(r->name, "dep/", 4) == 0;
}

/* The last position of a ref run and the first of a dep run. */
static void bounds(const int *v, int n, int *last_ref, int *first_dep)
{
	*last_ref = -1;
	*first_dep = n;
	for (int i = 0; i < n; i++) {
		if (v[i] % 10 == 0)
			*last_ref = i;
		else if (i < *first_dep)
			*first_dep = i;
	}
}

/* Within the deps: not every benchmark's repetitions back to back. */
static int interleaved(void)
{
	int runs = 0, prev = -1;

	for (int i = 0; i < norder; i++)
		if (order[i] % 10 == 1 && order[i] != prev) {
			runs++;
			prev = order[i];
		}
	return runs > NDEP;
}

int main(int argc, char **argv)
{
	char dir[] = "/tmp/sb_test_stages_XXXXXX", path[64], outflag[128];
	char *gb[] = { "test_gbench_stages", "--benchmark_repetitions=3",
		       "--benchmark_enable_random_interleaving=true", outflag,
		       "--benchmark_out_format=json", NULL };
	int staged, last_ref, first_dep, rc;
	json_t *j;

	if (argc != 2 || (strcmp(argv[1], "staged") && strcmp(argv[1], "flat"))) {
		fprintf(stderr, "usage: test_gbench_stages staged|flat\n");
		return 2;
	}
	staged = !strcmp(argv[1], "staged");
	CHECK(mkdtemp(dir) != NULL, "tmpdir");
	snprintf(path, sizeof(path), "%s/out.json", dir);
	snprintf(outflag, sizeof(outflag), "--benchmark_out=%s", path);
	/* registered deps first: the stage, not the order, puts refs first */
	for (int i = 0; i < NDEP; i++) {
		char name[32];
		sb_bench *b;

		snprintf(name, sizeof(name), "dep/%d", i);
		b = sb_bench_register(name, body, (void *)(intptr_t)(1 + 10 * i));
		sb_bench_iterations(b, 1);
		sb_bench_stage(b, staged ? 1 : 0);
	}
	for (int i = 0; i < NREF; i++) {
		char name[32];

		snprintf(name, sizeof(name), "ref/%d", i);
		sb_bench_iterations(sb_bench_register(name, body, (void *)(intptr_t)(10 * i)), 1);
	}
	sb_gbench_on_run(hook, NULL);
	rc = sb_gbench_main(5, gb);
	CHECK(rc == 0, "sb_gbench_main: %d", rc);
	CHECK(norder == NRUNS, "%d bodies run, want %d", norder, NRUNS);

	bounds(order, norder, &last_ref, &first_dep);
	if (!staged) {
		/* the broken fixture: what the staged checks below must catch */
		CHECK(first_dep < last_ref, "flat: a dep ran before the last ref (dep at %d, "
		      "ref at %d)", first_dep, last_ref);
		unlink(path);
		rmdir(dir);
		return check_done("test_gbench_stages flat");
	}
	CHECK(last_ref < first_dep, "every ref ran before any dep (last ref at %d, first dep "
	      "at %d)", last_ref, first_dep);
	CHECK(interleaved(), "stage 1's repetitions are interleaved");
	bounds(reported, nreported, &last_ref, &first_dep);
	CHECK(nreported == (NREF + NDEP) * (REPS + 4), "%d runs reported", nreported);
	CHECK(last_ref < first_dep, "every ref reported before any dep");

	/* one document: one context, every run of both stages */
	j = json_load_file(path, 0, NULL);
	CHECK(j && json_is_object(json_object_get(j, "context")), "%s: one JSON document", path);
	CHECK(json_array_size(json_object_get(j, "benchmarks")) == (size_t)nreported,
	      "%zu runs in the file, %d reported", json_array_size(json_object_get(j, "benchmarks")),
	      nreported);
	json_decref(j);
	unlink(path);
	rmdir(dir);
	return check_done("test_gbench_stages staged");
}
