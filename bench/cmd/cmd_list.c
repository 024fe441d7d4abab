/* cmd_list.c — `stratbench list`: families and strategies, one line each. */
#include "cmd/cmd.h"

#include <stratbench/lock.h>
#include <stratbench/shootdown.h>
#include <stratbench/window.h>

static int list_main(int argc, char **argv)
{
	struct sb_args args = { .npos = 0 };
	int i;

	if (sb_cmd_args(&sb_cmd_list, argc, argv, &args))
		return SB_EXIT_USAGE;
	printf("calibrate — the machine's limits, measured first in the same run (stratbench calibrate)\n");
	printf("  %-14s %s\n", "c2c", "core-to-core line bounce, one-way ns per CPU pair [op:store, op:cas]");
	printf("  %-14s %s\n", "uncontended", "one op on one core: cas, fetch_add, xchg, spin, mutex, cycles, jiffies");
	printf("  %-14s %s\n", "flush", "one-page madvise(MADV_DONTNEED), without and with a remote toucher; "
	       "the simulated machine's flush round trip, poll and signal");
	printf("window — rate-limit window policies: window/<policy>[/lock:<lock>]/threads:N/place:P\n");
	for (i = 0; i < sb_registry_count(SB_FAMILY_window, false); i++) {
		const struct sb_registry_entry *e = sb_registry_at(SB_FAMILY_window, i, false);
		const struct sb_window_policy *p = e->desc;

		printf("  %-16s %s [%s, %s, %s%s]\n", e->name, e->summary,
		       p->uses_lock ? "takes --lock" : "lock-free",
		       p->stretches ? "stretches" : "keeps phase",
		       p->exact ? "exact" : "racy accounting; --exact: fetch-add",
		       p->per_member ? ", per-member slots" : "");
	}
	printf("lock — locks, alone and inside lock-based policies: lock/<name>/threads:N/place:P\n");
	for (i = 0; i < sb_registry_count(SB_FAMILY_lock, false); i++) {
		const struct sb_registry_entry *e = sb_registry_at(SB_FAMILY_lock, i, false);
		const struct sb_lock_ops *l = e->desc;

		printf("  %-16s %s [%s, %s]\n", e->name, e->summary, l->fair ? "fair" : "unfair",
		       l->sleeps ? "sleeps" : "spins");
	}
	printf("shootdown — TLB shootdown on a simulated machine: "
	       "shootdown/<strategy>/batch:B/threads:N/place:P\n");
	for (i = 0; i < sb_registry_count(SB_FAMILY_shootdown, false); i++) {
		const struct sb_registry_entry *e = sb_registry_at(SB_FAMILY_shootdown, i, false);

		printf("  %-14s %s\n", e->name, e->summary);
	}
	printf("baseline — references measured in the same run\n");
	printf("  %-16s %s\n", "pthread_spin", "glibc pthread_spin_lock/unlock pair, nothing inside");
	printf("shootdown — the real kernel's TLB shootdowns: "
	       "shootdown/kernel-<call>/<immediate|batched>/batch:B/threads:N/place:P\n");
	printf("  %-17s %s\n", "kernel-madvise",
	       "MADV_DONTNEED of pages the responders hold in their TLBs [--batch]");
	printf("  %-17s %s\n", "kernel-mprotect",
	       "write-protect and restore those pages (two calls) [--batch]");
	printf("  %-17s %s\n", "kernel-move_pages",
	       "move_pages() them to another NUMA node and back [--batch; needs 2 nodes]");
	return 0;
}

const struct sb_command sb_cmd_list = {
	.name = "list",
	.summary = "families and their strategies, one line each",
	.usage = "",
	.description = "Prints each family (a header line naming its benchmarks) and its\n"
		       "registered strategies, indented, with their declared properties.\n",
	.example = "stratbench list\n",
	.run = list_main,
};
