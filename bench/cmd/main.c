/* main.c — `stratbench list|topo|run`: dispatch only; one file per verb. */
#include "cmd/cmd.h"

#include <string.h>

static void usage(FILE *f)
{
	fputs("usage: stratbench list\n"
	      "       stratbench topo [--topology=synthetic:DESC|xml:FILE] [--placement=P --threads=N]\n"
	      "       stratbench run [--family=F] [--strategy=a,b] [--lock=L,..|all]\n"
	      "                      [--threads=1,2,..|auto] [--placement=compact,cores,scatter,list:CPUS|auto]\n"
	      "                      [--out=DIR] [--home-node=N] [--topology=T] [--counters=LIST|none]\n"
	      "                      [--counters-ab]  (each benchmark twice: /counters:none, /counters:on)\n"
	      "                      [family options]\n"
	      "                      [--benchmark_*...]\n"
	      "       stratbench selftest [--benchmark_*...]   (cost of the C API over Google Benchmark)\n"
	      "       stratbench counters                    (every counter known, available here or why not)\n"
	      "Family options of run:\n", f);
	sb_opts_usage(f);
	fputs("Exit status: 0 ok, 1 a benchmark failed at run time, 2 usage error.\n", f);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return SB_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "list"))
		return sb_cmd_list(argc - 1, argv + 1);
	if (!strcmp(argv[1], "topo"))
		return sb_cmd_topo(argc - 1, argv + 1);
	if (!strcmp(argv[1], "run"))
		return sb_cmd_run(argc - 1, argv + 1);
	if (!strcmp(argv[1], "counters"))
		return sb_cmd_counters(argc - 1, argv + 1);
	if (!strcmp(argv[1], "selftest"))
		return sb_cmd_selftest(argc - 1, argv + 1);
	fprintf(stderr, "stratbench: unknown command '%s' (want list, topo, run, counters or selftest)\n", argv[1]);
	return SB_EXIT_USAGE;
}
