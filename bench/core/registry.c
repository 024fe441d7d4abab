/* registry.c — sorted per-family tables filled by strategy constructors. */
#include <stratbench/registry.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SB_REGISTRY_MAX 128

static struct sb_registry_entry table[SB_FAMILY_MAX][SB_REGISTRY_MAX];
static int count[SB_FAMILY_MAX];

static const char *const family_names[SB_FAMILY_MAX] = {
	[SB_FAMILY_lock] = "lock",
	[SB_FAMILY_window] = "window",
	[SB_FAMILY_shootdown] = "shootdown",
};

/* Runs from constructors, before main and before any thread: no locking. */
void sb_registry_add(enum sb_family fam, const char *name, const char *summary,
		     bool test_only, const void *desc)
{
	int i;

	if (count[fam] == SB_REGISTRY_MAX || sb_registry_find(fam, name)) {
		fprintf(stderr, "stratbench: cannot register %s/%s (duplicate or table full)\n",
			family_names[fam], name);
		abort();
	}
	for (i = count[fam]; i > 0 && strcmp(table[fam][i - 1].name, name) > 0; i--)
		table[fam][i] = table[fam][i - 1];
	table[fam][i] = (struct sb_registry_entry){ name, summary, test_only, desc };
	count[fam]++;
}

int sb_registry_count(enum sb_family fam, bool with_hidden)
{
	int n = 0;

	for (int i = 0; i < count[fam]; i++)
		n += with_hidden || !table[fam][i].test_only;
	return n;
}

const struct sb_registry_entry *sb_registry_at(enum sb_family fam, int idx, bool with_hidden)
{
	for (int i = 0; i < count[fam]; i++) {
		if (!with_hidden && table[fam][i].test_only)
			continue;
		if (idx-- == 0)
			return &table[fam][i];
	}
	return NULL;
}

const void *sb_registry_find(enum sb_family fam, const char *name)
{
	for (int i = 0; i < count[fam]; i++)
		if (strcmp(table[fam][i].name, name) == 0)
			return table[fam][i].desc;
	return NULL;
}
