/* cmd_summary.c — `stratbench summary DIR...`: the end-of-run summary
 * (summary.h) of results directories, as `run --suite` prints it at its
 * end: per family the changelog table against the family's reference. */
#include "cmd/cmd.h"

#include <string.h>

#include "tables/summary.h"

static const char *opt_format;
static const char *const formats[] = { "text", "markdown", NULL };

static const struct sb_option summary_options[] = {
	{ "format", SB_OPT_STRING, &opt_format, 0, 0, formats, "text|markdown",
	  "aligned text, or markdown tables for a posting (default: text)" },
	{ NULL },
};

static int summary_main(int argc, char **argv)
{
	struct sb_args args = { .npos = 16 };
	char err[8192];

	opt_format = NULL;
	if (sb_cmd_args(&sb_cmd_summary, argc, argv, &args))
		return SB_EXIT_USAGE;
	if (args.npos < 1)
		return sb_cmd_error(SB_EXIT_USAGE, "summary needs a results directory (see "
				    "stratbench summary --help)");
	if (sb_summary_print(stdout, opt_format && !strcmp(opt_format, "markdown") ?
			     SB_CMP_MARKDOWN : SB_CMP_TEXT, args.pos, args.npos, err, sizeof(err)))
		return sb_cmd_error(SB_EXIT_USAGE, "%s", err);
	return 0;
}

const struct sb_command sb_cmd_summary = {
	.name = "summary",
	.summary = "per family, each strategy against the family's reference, with its noise",
	.usage = "DIR... [--format=text|markdown]",
	.description = "The end-of-run summary that `run --suite` prints and saves as\n"
		       "DIR/summary.txt and DIR/summary.md, for any results directories: per\n"
		       "family a changelog table against a reference in the same run: every\n"
		       "window policy against spinlock (ops/s, with stretch, double resets and\n"
		       "lost pages of its fidelity twin), every lock against pthread_spin, the\n"
		       "simulated batched and targeted shootdowns against immediate (ns/page),\n"
		       "the kernel drivers' batched calls against immediate (TLB IPIs/page).\n"
		       "Each %Change carries both sides' CV, its 95 % interval and verdict\n"
		       "(changed, ~ within the noise, or n too small under 3 repetitions a\n"
		       "side) and, with 2+ repetitions, p(U).  Then the noisy points.\n"
		       "A directory that cannot be read: one line, exit 2.\n",
	.options = summary_options,
	.example = "stratbench summary results/mine results/mine/kernel\n",
	.run = summary_main,
};
