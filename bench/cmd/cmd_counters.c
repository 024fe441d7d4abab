/* cmd_counters.c — `stratbench counters`: every counter the suite knows,
 * available on this machine or why not; and a run's counters in the JSON
 * context (the stderr note comes from the first benchmark that runs). */
#include "cmd/cmd.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *list;

static const struct sb_option counters_options[] = {
	{ "counters", SB_OPT_STRING, &list, 0, 0, NULL, "LIST",
	  "check one list as `stratbench run --counters=LIST` reads it (default: every "
	  "counter known)" },
	{ 0 },
};

static void print_spec(const struct sb_counters_spec *s)
{
	for (int i = 0; i < sb_counters_count(s); i++) {
		const char *why = sb_counters_why(s, i);

		if (why)
			printf("%-36s unavailable: %s\n", sb_counters_name(s, i), why);
		else if (strcmp(sb_counters_name(s, i), sb_counters_shown(s, i)))
			printf("%-36s available, user space only (perf_event_paranoid): reported "
			       "as %s\n", sb_counters_name(s, i), sb_counters_shown(s, i));
		else
			printf("%-36s available\n", sb_counters_name(s, i));
	}
}

static int counters_main(int argc, char **argv)
{
	const char *const *k = sb_counters_known();
	const char *raw = sb_counters_raw_support();
	struct sb_args args = { .npos = 0 };
	struct sb_counters_spec *s;
	char err[1024];

	list = NULL;
	if (sb_cmd_args(&sb_cmd_counters, argc, argv, &args))
		return SB_EXIT_USAGE;
	if (list) {	/* check one list as run would read it */
		if (sb_counters_parse(list, &s, err, sizeof(err)))
			return sb_cmd_error(SB_EXIT_USAGE, "%s", err);
		print_spec(s);
		sb_counters_spec_free(s);
		return 0;
	}
	for (; *k; k++) {
		if (sb_counters_parse(*k, &s, err, sizeof(err))) {
			printf("%-36s unavailable: %s\n", *k, err);
			continue;
		}
		print_spec(s);
		sb_counters_spec_free(s);
	}
	printf("%-36s %s\n", "raw PMU events (NAME[:UMASK])",
	       *raw ? raw : "unavailable: built without libpfm4 (apt-get install libpfm4-dev "
			    "and rebuild); rHEX raw configs still work");
	printf("default set (--counters=default):\n  %s%s\n", sb_counters_default,
	       geteuid() == 0 ? ",\n  and as root the tracepoints tlb:tlb_flush, "
	       "migrate:mm_migrate_pages, sched:sched_move_numa, sched:sched_stick_numa, "
	       "sched:sched_swap_numa" : " (not root: no tracepoints)");
	return 0;
}

const struct sb_command sb_cmd_counters = {
	.name = "counters",
	.summary = "every counter known, available here or why not",
	.usage = "[--counters=LIST]",
	.description = "One line per counter: `available`, or `unavailable: reason` (no PMU,\n"
		       "perf_event_paranoid, not root for tracepoints, ...); then the default set.\n"
		       "`stratbench run --counters=LIST` reads the same names.\n",
	.options = counters_options,
	.example = "stratbench counters --counters=default,dTLB-load-misses\n",
	.run = counters_main,
};

void sb_counters_context(const struct sb_counters_spec *s)
{
	char *on = NULL, *off = NULL;
	size_t non = 0, noff = 0;
	FILE *fon = open_memstream(&on, &non), *foff = open_memstream(&off, &noff);
	int n = sb_counters_count(s), nunav = 0;

	for (int i = 0; i < n; i++) {
		const char *why = sb_counters_why(s, i);

		if (why) {
			fprintf(foff, "%s%s: %s", nunav ? "; " : "", sb_counters_name(s, i), why);
			nunav++;
		} else {
			fprintf(fon, "%s%s", ftell(fon) ? "," : "", sb_counters_shown(s, i));
		}
	}
	fclose(fon);
	fclose(foff);
	sb_context_add("sb_counters", *on ? on : "none");
	sb_context_add("sb_counters_unavailable", nunav ? off : "none");
	if (*sb_counters_note(s))
		sb_context_add("sb_counters_note", sb_counters_note(s));
	free(on);
	free(off);
}
