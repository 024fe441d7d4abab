/* registry.h — strategies register themselves; the harness iterates them.
 *
 * Contract: each strategy file defines one static const descriptor and names
 * it in its family's macro (SB_LOCK, SB_WINDOW_POLICY, SB_SHOOTDOWN), which
 * expands to a constructor calling sb_registry_add().  Nothing else lists strategies: the
 * build globs strategies/<family>/ *.c and links them as objects (never from a
 * static archive, which would drop unreferenced files).  Iteration is sorted
 * by name; test_only entries are found by name but hidden from listings.
 */
#ifndef STRATBENCH_REGISTRY_H
#define STRATBENCH_REGISTRY_H

#include <stdbool.h>

enum sb_family {
	SB_FAMILY_lock,
	SB_FAMILY_window,
	SB_FAMILY_shootdown,
	SB_FAMILY_MAX,
};

struct sb_registry_entry {
	const char *name;
	const char *summary;
	bool test_only;		/* verification fixtures: never listed or swept */
	const void *desc;	/* the family's descriptor */
};

void sb_registry_add(enum sb_family fam, const char *name, const char *summary,
		     bool test_only, const void *desc);
/* Entries of a family sorted by name; hidden (test_only) ones only if asked. */
int sb_registry_count(enum sb_family fam, bool with_hidden);
const struct sb_registry_entry *sb_registry_at(enum sb_family fam, int i, bool with_hidden);
const void *sb_registry_find(enum sb_family fam, const char *name);

#define SB_REGISTER(fam, obj)						\
	__attribute__((constructor)) static void sb_register_##obj(void)	\
	{								\
		sb_registry_add(SB_FAMILY_##fam, (obj).name, (obj).summary, \
				(obj).test_only, &(obj));		\
	}

#endif
