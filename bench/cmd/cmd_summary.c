/* cmd_summary.c — `stratbench summary DIR...`: the end-of-run summary
 * (summary.h) of results directories, as `run --suite` prints it at its
 * end: per family the changelog table against the family's reference.
 * A suite's DIR stands for its stages (DIR/suite.json), so `summary DIR`
 * prints what the suite saved; a `run --ab` directory gives its pairs. */
#include "cmd/cmd.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include <stratbench/registry.h>

#include "tables/summary.h"

static const char *opt_format, *opt_reference;
static const char *const formats[] = { "text", "markdown", NULL };

static const struct sb_option summary_options[] = {
	{ "format", SB_OPT_STRING, &opt_format, 0, 0, formats, "text|markdown",
	  "aligned text, or markdown tables for a posting (default: text)" },
	{ "reference", SB_OPT_STRING, &opt_reference, 0, 0, NULL, "[FAMILY:]STRATEGY[,...]",
	  "each family's reference in place of its default (window spinlock, lock "
	  "pthread_spin, shootdown immediate): --reference=tas, --reference=lock:tas,window:trylock" },
	{ 0 },
};

static const char *const family_names[SB_FAMILY_MAX] = {
	[SB_FAMILY_lock] = "lock", [SB_FAMILY_window] = "window", [SB_FAMILY_shootdown] = "shootdown",
};

/* strategy is one of family fam's (lock: pthread_spin too, the baseline) */
static bool family_has(int fam, const char *strategy)
{
	if (fam == SB_FAMILY_lock && !strcmp(strategy, "pthread_spin"))
		return true;
	return strncmp(strategy, "kernel-", 7) && sb_registry_find(fam, strategy);
}

/* one "[FAMILY:]STRATEGY" into *ref (pointing into item); 0, or -1 with err */
static int parse_ref(char *item, struct sb_summary_ref *ref, char *err, size_t errlen)
{
	char *colon = strchr(item, ':');
	const char *strategy = colon ? colon + 1 : item;
	int fam = -1, nfam = 0;

	if (colon)
		*colon = '\0';
	for (int k = 0; k < SB_FAMILY_MAX; k++) {
		if (colon ? strcmp(item, family_names[k]) : !family_has(k, strategy))
			continue;
		fam = k;
		nfam++;
	}
	if (colon && fam < 0)
		return sb_cmd_err(err, errlen, "--reference: unknown family '%s' (want window, lock "
				  "or shootdown)", item);
	if (!*strategy || (fam >= 0 && !family_has(fam, strategy)) || (!colon && !nfam))
		return sb_cmd_err(err, errlen, "--reference: unknown %s%sstrategy '%s' (stratbench "
				  "list)", colon ? item : "", colon ? " " : "", strategy);
	if (nfam > 1)
		return sb_cmd_err(err, errlen, "--reference: '%s' is a strategy of several "
				  "families: say which (lock:%s, window:%s)", strategy, strategy,
				  strategy);
	ref->family = family_names[fam];
	ref->strategy = strategy;
	return 0;
}

/* --reference's list into refs[max] (the last: family NULL), in buf */
static int parse_refs(char *buf, struct sb_summary_ref *refs, int max, char *err, size_t errlen)
{
	int n = 0;
	size_t len = strlen(buf);
	char *save = NULL;

	if (!len || *buf == ',' || buf[len - 1] == ',' || strstr(buf, ",,"))
		return sb_cmd_err(err, errlen, "--reference: an empty item in '%s'", buf);
	memset(refs, 0, sizeof(*refs) * (size_t)max);
	for (char *it = strtok_r(buf, ",", &save); it; it = strtok_r(NULL, ",", &save)) {
		if (n == max - 1)
			return sb_cmd_err(err, errlen, "--reference: at most %d", max - 1);
		if (parse_ref(it, &refs[n], err, errlen))
			return -1;
		for (int i = 0; i < n; i++)
			if (refs[i].family == refs[n].family)	/* both from family_names[] */
				return sb_cmd_err(err, errlen, "--reference: two references for %s",
						  refs[n].family);
		n++;
	}
	refs[n].family = NULL;
	return 0;
}

/* dir once in v[*n] (at most 16) */
static void add_dir(const char **v, int *n, const char *dir)
{
	for (int i = 0; i < *n; i++)
		if (!strcmp(v[i], dir))
			return;
	if (*n < 16)
		v[(*n)++] = dir;
}

/* dir, or a suite's DIR as the suite's summary reads it: its stages' directories
 * that hold results (DIR/suite.json's order), once each; paths kept in keep */
static void expand(const char *dir, const char **v, int *n, char **keep, int *nkeep)
{
	char path[SB_PATH];
	json_t *j = NULL, *g;
	size_t i;

	if (!sb_pathf(path, "%s/suite.json", dir))
		j = json_load_file(path, 0, NULL);
	if (!j || !json_is_array(json_object_get(j, "stages"))) {
		json_decref(j);
		add_dir(v, n, dir);
		return;
	}
	json_array_foreach(json_object_get(j, "stages"), i, g) {
		const char *sub = json_string_value(json_object_get(g, "dir"));

		if (!sub || *nkeep >= 16 || sb_pathf(path, "%s%s%s", dir, *sub ? "/" : "", sub) ||
		    !sb_dir_has(path, "results.csv"))
			continue;
		keep[*nkeep] = strdup(*sub ? path : dir);
		if (keep[*nkeep])
			add_dir(v, n, keep[(*nkeep)++]);
	}
	json_decref(j);
	if (!*n)
		add_dir(v, n, dir);	/* no stage finished: the reader says what is missing */
}

static int summary_main(int argc, char **argv)
{
	struct sb_args args = { .npos = 16 };
	struct sb_summary_ref refs[4];
	const char *dirs[16];
	char err[8192], *keep[16], *rbuf = NULL;
	int n = 0, nkeep = 0, rc = 0;

	opt_format = opt_reference = NULL;
	if (sb_cmd_args(&sb_cmd_summary, argc, argv, &args))
		return SB_EXIT_USAGE;
	if (args.npos < 1)
		return sb_cmd_error(SB_EXIT_USAGE, "summary needs a results directory (see "
				    "stratbench summary --help)");
	if (opt_reference && (!(rbuf = strdup(opt_reference)) ||
			      parse_refs(rbuf, refs, 4, err, sizeof(err)))) {
		free(rbuf);
		return sb_cmd_error(SB_EXIT_USAGE, "%s", rbuf ? err : "out of memory");
	}
	for (int i = 0; i < args.npos; i++)
		expand(args.pos[i], dirs, &n, keep, &nkeep);
	if (sb_summary_print(stdout, opt_format && !strcmp(opt_format, "markdown") ?
			     SB_CMP_MARKDOWN : SB_CMP_TEXT, dirs, n, opt_reference ? refs : NULL,
			     err, sizeof(err)))
		rc = sb_cmd_error(SB_EXIT_USAGE, "%s", err);
	while (nkeep > 0)
		free(keep[--nkeep]);
	free(rbuf);
	return rc;
}

const struct sb_command sb_cmd_summary = {
	.name = "summary",
	.summary = "per family, each strategy against the family's reference, with its noise",
	.usage = "DIR... [--format=text|markdown] [--reference=[FAMILY:]STRATEGY[,...]]",
	.description = "The end-of-run summary that every `run --out=DIR` and `run --suite` save\n"
		       "as DIR/summary.txt and DIR/summary.md (and print, but for `run --ab`,\n"
		       "whose console has the pairs), for any results directories (a suite's\n"
		       "DIR: all its stages, as the suite saved it; a `run --ab` directory: its\n"
		       "paired section): per family a changelog table\n"
		       "against a reference in the same run: every window policy against\n"
		       "spinlock (ops/s, with stretch, double resets and lost pages of its\n"
		       "fidelity twin), every lock against pthread_spin, the simulated batched\n"
		       "and targeted shootdowns against immediate (ns/page; 1 thread left out:\n"
		       "no remote CPU), the kernel drivers' batched calls against immediate\n"
		       "(TLB IPIs/page); --reference names another strategy of a family.\n"
		       "Each %Change carries both sides' CV, its 95 % interval and verdict\n"
		       "(changed, ~ within the noise, or n too small under 3 repetitions a\n"
		       "side) and, with 2+ repetitions, p(U).  Then the noisy points.\n"
		       "A directory that cannot be read: one line, exit 2.\n",
	.options = summary_options,
	.example = "stratbench summary results/mine\n"
		   "stratbench summary results/newlock --reference=lock:tas\n",
	.run = summary_main,
};
