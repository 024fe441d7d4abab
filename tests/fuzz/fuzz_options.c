/* fuzz_options — `stratbench run`'s option parser and the plan it expands,
 * on a synthetic 2-socket topology: any argv (NUL- or newline-separated
 * input, at most 16 words) either plans benchmarks or is refused with one
 * line; nothing crashes, leaks or overflows.  Google Benchmark flags are
 * checked but nothing runs. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"

static struct sb_topo *topo;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* static: family options keep pointers into argv, as in a real run */
	static char buf[2049];
	char *argv[18], err[8192];
	int argc = 0;
	struct sb_opts o;

	if (!topo && sb_topo_load(&topo, "synthetic:pack:2 numa:1 core:2 pu:2", err, sizeof(err)))
		abort();
	if (size > 2048)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	argv[argc++] = "run";
	for (char *p = buf, *end = buf + size; p <= end && argc < 17;) {
		char *q = p + strcspn(p, "\n");

		*q = '\0';
		argv[argc++] = p;
		p = q + 1;
	}
	argv[argc] = NULL;
	err[0] = '\0';
	if (sb_opts_parse(&o, argc, argv, err, sizeof(err)) == 0) {
		if (sb_plan_register(&o, topo, err, sizeof(err)) && (!err[0] || strchr(err, '\n')))
			abort();
		sb_plan_free();
	} else if (!err[0] || strchr(err, '\n')) {
		abort();
	}
	sb_opts_free(&o);
	return 0;
}
