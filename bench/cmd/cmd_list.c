/* cmd_list.c — `stratbench list`: families and strategies, one line each. */
#include "cmd/cmd.h"

#include <stratbench/lock.h>
#include <stratbench/window.h>

int sb_cmd_list(int argc, char **argv)
{
	int i;

	(void)argv;
	if (argc > 1) {
		fprintf(stderr, "stratbench: list takes no options\n");
		return SB_EXIT_USAGE;
	}
	printf("window — rate-limit window policies: window/<policy>[/lock:<lock>]/threads:N/place:P\n");
	for (i = 0; i < sb_registry_count(SB_FAMILY_window, false); i++) {
		const struct sb_registry_entry *e = sb_registry_at(SB_FAMILY_window, i, false);
		const struct sb_window_policy *p = e->desc;

		printf("  %-14s %s [%s, %s, %s]\n", e->name, e->summary,
		       p->uses_lock ? "takes --lock" : "lock-free",
		       p->stretches ? "stretches" : "keeps phase",
		       p->exact ? "exact" : "racy accounting; --exact: fetch-add");
	}
	printf("lock — locks, alone and inside lock-based policies: lock/<name>/threads:N/place:P\n");
	for (i = 0; i < sb_registry_count(SB_FAMILY_lock, false); i++) {
		const struct sb_registry_entry *e = sb_registry_at(SB_FAMILY_lock, i, false);
		const struct sb_lock_ops *l = e->desc;

		printf("  %-14s %s [%s, %s]\n", e->name, e->summary, l->fair ? "fair" : "unfair",
		       l->sleeps ? "sleeps" : "spins");
	}
	printf("baseline — references measured in the same run\n");
	printf("  %-14s %s\n", "pthread_spin", "glibc pthread_spin_lock/unlock pair, nothing inside");
	return 0;
}
