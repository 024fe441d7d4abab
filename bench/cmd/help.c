/* help.c — `stratbench help [CMD]`, `CMD --help`, `--version` and the man
 * page, all printed from the tables the parser reads (the command entries,
 * the shared and per-family option tables, Google Benchmark's flags), so
 * the help cannot miss an option the parser accepts.  One renderer, two
 * forms: plain text, or roff for stratbench(1) (generated at build time by
 * `stratbench help --man`). */
#include "cmd/cmd.h"

#include <ctype.h>
#include <string.h>

#include "sb_gitrev.h"	/* generated at build time: the revision built */

#ifndef STRATBENCH_VERSION
#define STRATBENCH_VERSION "unknown"
#endif

#define EXIT_USAGE_TEXT "2 usage error (one line on stderr naming the problem, nothing run)"

/* The exit statuses, per command: what 1 means differs (a benchmark that
 * failed, a file that could not be written), and only run stops on a
 * signal with 130/143.  A command not listed exits 0 or 2. */
static const struct {
	const char *cmd, *text;
} exit_statuses[] = {
	{ "run", "0 ok; 1 a benchmark failed at run time (the others' results are kept); "
		 EXIT_USAGE_TEXT "; 130 or 143 stopped by SIGINT or SIGTERM after the benchmark "
		 "in flight (the files written so far are complete; --resume=DIR runs the rest)." },
	{ "calibrate", "0 ok; 1 a calibration benchmark failed at run time; " EXIT_USAGE_TEXT "." },
	{ "selftest", "0 ok; 1 a self-test benchmark failed; " EXIT_USAGE_TEXT "." },
	{ "compare", "0 ok; 1 a file could not be written; 2 usage error, results that cannot "
		     "be read, or nothing in common (one line on stderr naming the problem); "
		     "3 --fail-above=PCT found a significant regression beyond PCT." },
	{ "merge", "0 ok; 1 a file could not be written; 2 usage error, or results that cannot "
		   "be read (one line on stderr naming the problem)." },
	{ "plot", "0 ok; 1 nothing could be plotted, or a file could not be written; 2 usage "
		  "error, or results that cannot be read (one line on stderr naming the problem)." },
};

static const char exit_status_other[] = "0 ok; " EXIT_USAGE_TEXT ".";

/* all of them, for the overview */
static const char exit_status[] =
	"0 ok; 1 run, calibrate, selftest: a benchmark failed at run time (the others' results "
	"are kept); compare, merge, plot: a file could not be written or plotted; "
	EXIT_USAGE_TEXT ", or (compare, merge, plot) results that cannot be read, or (compare) "
	"nothing in common; 3 compare --fail-above found a regression; 130 or 143 run was stopped by SIGINT or SIGTERM (the files written "
	"so far are complete).";

/* "calibrate, window, lock, shootdown, baseline": each family once (two
 * drivers may share one) */
static const char *family_list(void)
{
	static char buf[256];
	size_t n = 0;

	for (int f = 0; sb_drivers[f] && n < sizeof(buf); f++) {
		bool seen = false;

		for (int g = 0; g < f; g++)
			seen |= !strcmp(sb_drivers[g]->family, sb_drivers[f]->family);
		if (!seen)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s", n ? ", " : "",
					      sb_drivers[f]->family);
	}
	return buf;
}

/* roff: a leading . or ' would be a request; \ is the escape; - in option
 * names must be \- to survive as a minus sign (copy-paste). */
static void roff_puts(FILE *f, const char *s)
{
	bool bol = true;

	for (; *s; s++) {
		if (bol && (*s == '.' || *s == '\''))
			fputs("\\&", f);
		if (*s == '\\')
			fputs("\\e", f);
		else if (*s == '-')
			fputs("\\-", f);
		else
			fputc(*s, f);
		bol = *s == '\n';
	}
}

static void doc_heading(struct sb_doc *d, const char *title)
{
	if (d->man) {	/* inside a command's .SS: a bold paragraph */
		fputs(".PP\n.B \"", d->f);
		roff_puts(d->f, title);
		fputs(":\"\n", d->f);
	} else {
		fprintf(d->f, "\n%s:\n", title);
	}
}

/* paragraph text, lines ending in \n */
static void doc_text(struct sb_doc *d, const char *text)
{
	if (d->man) {
		fputs(".PP\n", d->f);
		roff_puts(d->f, text);
	} else {
		fprintf(d->f, "\n%s", text);
	}
}

/* command lines, kept as they are */
static void doc_example(struct sb_doc *d, const char *lines)
{
	if (d->man) {
		fputs(".PP\nExample:\n.PP\n.nf\n.RS 4\n", d->f);
		roff_puts(d->f, lines);
		fputs(".RE\n.fi\n", d->f);
		return;
	}
	fputs("\nExample:\n", d->f);
	for (const char *p = lines; *p;) {
		size_t n = strcspn(p, "\n");

		fprintf(d->f, "  %.*s\n", (int)n, p);
		p += n + (p[n] == '\n');
	}
}

/* Prints text from column indent (the cursor is there), wrapped at 79. */
static void wrap(FILE *f, const char *text, int indent)
{
	int col = indent;

	while (*text) {
		size_t n = strcspn(text, " ");

		if (col > indent && col + 1 + (int)n > 79) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%.*s", (int)n, text);
		col += (int)n;
		text += n + strspn(text + n, " ");
	}
	fputc('\n', f);
}

void sb_doc_option(struct sb_doc *d, const char *lhs, const char *help)
{
	if (d->man) {
		fputs(".TP\n.B ", d->f);
		roff_puts(d->f, lhs);
		fputs("\n", d->f);
		roff_puts(d->f, help);
		fputs("\n", d->f);
	} else {
		if (strlen(lhs) <= 22)
			fprintf(d->f, "  %-22s ", lhs);
		else
			fprintf(d->f, "  %s\n%25s", lhs, "");
		wrap(d->f, help, 25);
	}
}

/* One table row: --name[=ARG], its help, its choices and, unless the help
 * states it, its default read from the value before any parsing. */
static void doc_table_option(struct sb_doc *d, const struct sb_option *op)
{
	char lhs[96], help[640];
	size_t n;

	snprintf(lhs, sizeof(lhs), "--%s%s%s", op->name, op->type == SB_OPT_FLAG ? "" : "=",
		 op->type == SB_OPT_FLAG ? "" : op->arg ? op->arg : "VALUE");
	n = (size_t)snprintf(help, sizeof(help), "%s", op->help ? op->help : "");
	if (op->choices) {
		n += (size_t)snprintf(help + n, sizeof(help) - n, "; one of:");
		for (const char *const *c = op->choices; *c && n < sizeof(help); c++)
			n += (size_t)snprintf(help + n, sizeof(help) - n, " %s", *c);
	}
	if (!strstr(help, "default") && n < sizeof(help)) {
		switch (op->type) {
		case SB_OPT_FLAG:
			snprintf(help + n, sizeof(help) - n, " (default: off)");
			break;
		case SB_OPT_DOUBLE:
			snprintf(help + n, sizeof(help) - n, " (default: %g)", *(double *)op->value);
			break;
		case SB_OPT_ULONG:
			snprintf(help + n, sizeof(help) - n, " (default: %lu)",
				 *(unsigned long *)op->value);
			break;
		case SB_OPT_STRING:
			snprintf(help + n, sizeof(help) - n, " (default: %s)",
				 *(const char **)op->value ? *(const char **)op->value : "none");
			break;
		case SB_OPT_ULIST: {
			const struct sb_ulist *l = op->value;

			n += (size_t)snprintf(help + n, sizeof(help) - n, " (default: ");
			for (int i = 0; i < l->n && n < sizeof(help); i++)
				n += (size_t)snprintf(help + n, sizeof(help) - n, "%s%lu",
						      i ? "," : "", l->v[i]);
			if (n < sizeof(help))
				snprintf(help + n, sizeof(help) - n, ")");
			break;
		}
		}
	}
	sb_doc_option(d, lhs, help);
}

static void doc_usage(struct sb_doc *d, const struct sb_command *c)
{
	if (d->man) {
		fputs(".B stratbench ", d->f);
		roff_puts(d->f, c->name);
		fputs("\n", d->f);
		if (*c->usage) {
			roff_puts(d->f, c->usage);
			fputs("\n", d->f);
		}
	} else {
		fprintf(d->f, "usage: stratbench %s%s%s\n", c->name, *c->usage ? " " : "",
			c->usage);
	}
}

/* A later driver's strategies, for its options' help: kernel-madvise,
 * kernel-mprotect: "kernel-*"; else its first name. */
static void driver_names(const struct sb_family_driver *drv, char *buf, size_t len)
{
	const char *first = drv->names && drv->names[0] ? drv->names[0] : drv->family;
	size_t k = strcspn(first, "-") + 1;

	for (int i = 1; drv->names && drv->names[0] && drv->names[i]; i++)
		if (strncmp(drv->names[i], first, k))
			k = 0;
	if (k > strlen(first))
		k = 0;
	snprintf(buf, len, "%.*s%s", (int)k, first, k ? "*" : first);
}

static const struct sb_option *option_of(const struct sb_family_driver *drv, const char *name)
{
	for (const struct sb_option *op = drv->options; op && op->name; op++)
		if (!strcmp(op->name, name))
			return op;
	return NULL;
}

/* Option op of driver g, family f's: one row per name.  A name later
 * drivers of the family share (shootdown's --batch: simulated and kernel)
 * is one option each parses, so one row, each later driver's help after
 * its strategies ("; kernel-*: ..."); a later driver's own option names
 * its strategies too. */
static void doc_family_option(struct sb_doc *d, int f, int g, const struct sb_option *op)
{
	const char *fam = sb_drivers[f]->family;
	struct sb_option o = *op;
	char help[1024], names[64];
	size_t n = 0;

	for (int h = f; h < g; h++)
		if (!strcmp(sb_drivers[h]->family, fam) && option_of(sb_drivers[h], op->name))
			return;		/* its row is h's */
	if (g > f) {
		driver_names(sb_drivers[g], names, sizeof(names));
		n = (size_t)snprintf(help, sizeof(help), "%s: ", names);
	}
	n += (size_t)snprintf(help + n, sizeof(help) - n, "%s", op->help ? op->help : "");
	for (int h = g + 1; sb_drivers[h] && n < sizeof(help); h++) {
		const struct sb_option *same = option_of(sb_drivers[h], op->name);

		if (strcmp(sb_drivers[h]->family, fam) || !same)
			continue;
		driver_names(sb_drivers[h], names, sizeof(names));
		n += (size_t)snprintf(help + n, sizeof(help) - n, "; %s: %s", names,
				      same->help ? same->help : "");
	}
	o.help = help;
	doc_table_option(d, &o);
}

/* One section per family, with the options of every driver of it
 * (shootdown: simulated and kernel). */
static void doc_family_options(struct sb_doc *d, int f)
{
	const char *fam = sb_drivers[f]->family;
	bool titled = false;
	char title[128];

	for (int g = 0; g < f; g++)
		if (!strcmp(sb_drivers[g]->family, fam))
			return;
	snprintf(title, sizeof(title), "Options of the %s family", fam);
	for (int g = f; sb_drivers[g]; g++) {
		const struct sb_family_driver *drv = sb_drivers[g];

		if (strcmp(drv->family, fam) || !drv->options)
			continue;
		for (const struct sb_option *op = drv->options; op->name; op++) {
			if (!titled)
				doc_heading(d, title);
			titled = true;
			doc_family_option(d, f, g, op);
		}
	}
}

static void doc_exit_status(struct sb_doc *d, const struct sb_command *c)
{
	const char *text = exit_status_other;

	for (size_t i = 0; i < sizeof(exit_statuses) / sizeof(exit_statuses[0]); i++)
		if (!strcmp(exit_statuses[i].cmd, c->name))
			text = exit_statuses[i].text;
	if (d->man) {
		doc_heading(d, "Exit status");
		fputs(".PP\n", d->f);
		roff_puts(d->f, text);
		fputs("\n", d->f);
	} else {
		fputs("\nExit status: ", d->f);
		wrap(d->f, text, 13);
	}
}

void sb_help_command(struct sb_doc *d, const struct sb_command *c)
{
	if (d->man) {
		fputs(".SS \"", d->f);
		roff_puts(d->f, c->name);
		fputs("\"\n", d->f);
		doc_usage(d, c);
		fputs(".PP\n", d->f);
		roff_puts(d->f, c->summary);
		fputs(".\n", d->f);
	} else {
		doc_usage(d, c);
		fprintf(d->f, "\n%c%s.\n", toupper((unsigned char)c->summary[0]), c->summary + 1);
	}
	if (c->description)
		doc_text(d, c->description);
	if (c->options && c->options->name) {
		doc_heading(d, "Options");
		for (const struct sb_option *op = c->options; op->name; op++)
			doc_table_option(d, op);
	}
	for (int f = 0; c->family_options && sb_drivers[f]; f++)
		doc_family_options(d, f);
	if (c->gbench_flags) {
		doc_heading(d, "Google Benchmark 1.7.1 flags (passed through, values checked first)");
		sb_gb_flags_usage(d);
	}
	if (c->example)
		doc_example(d, c->example);
	doc_exit_status(d, c);
}

void sb_version_print(FILE *f)
{
	fprintf(f, "stratbench %s (git %s)\n", STRATBENCH_VERSION, STRATBENCH_GIT_REV);
}

void sb_help_overview(FILE *f)
{
	fputs("usage: stratbench COMMAND [options]\n"
	      "       stratbench help [COMMAND] | COMMAND --help | --version\n"
	      "\nMicrobenchmarks of the synchronization strategies of Linux memory management\n"
	      "(rate-limit window policies, locks, TLB shootdown), on hwloc-pinned threads\n"
	      "under Google Benchmark.\n", f);
	fputs("\nFamilies: ", f);
	wrap(f, family_list(), 10);
	fputs("\nCommands:\n", f);
	for (int i = 0; sb_commands[i]; i++)
		fprintf(f, "  %-10s %s\n", sb_commands[i]->name, sb_commands[i]->summary);
	fputs("\nExit status: ", f);
	wrap(f, exit_status, 13);
}

static void help_man(FILE *f)
{
	struct sb_doc d = { .f = f, .man = true };

	fprintf(f, ".TH STRATBENCH 1 \"\" \"stratbench %s\" \"User Commands\"\n", STRATBENCH_VERSION);
	fputs(".SH NAME\nstratbench \\- microbenchmarks of Linux mm synchronization strategies\n"
	      ".SH SYNOPSIS\n", f);
	for (int i = 0; sb_commands[i]; i++) {
		doc_usage(&d, sb_commands[i]);
		fputs(".br\n", f);
	}
	fputs(".B stratbench\n\\-\\-version\n"
	      ".SH DESCRIPTION\n"
	      "Runs the synchronization strategies that Linux memory management argues about\n"
	      "(the NUMA\\-migration rate\\-limit window, the locks it takes, the TLB\n"
	      "shootdowns that follow a migration, simulated and the kernel's) on\n"
	      "hwloc\\-pinned threads under Google Benchmark, and writes Google Benchmark\n"
	      "JSON, a flat CSV and gnuplot plots.\n"
	      ".PP\nFamilies: ", f);
	roff_puts(f, family_list());
	fputs(".\n.SH COMMANDS\n", f);
	for (int i = 0; sb_commands[i]; i++)
		sb_help_command(&d, sb_commands[i]);
	fputs(".SH EXIT STATUS\n"
	      ".TP\n.B 0\nok.\n"
	      ".TP\n.B 1\nrun, calibrate, selftest: a benchmark failed at run time (the others'\n"
	      "results are kept); compare, merge, plot: a file could not be written, or\n"
	      "nothing could be plotted.\n"
	      ".TP\n.B 2\nusage error, or results that cannot be read (compare: or nothing in\n"
	      "common): one line on stderr naming the problem, nothing run.\n"
	      ".TP\n.B 3\ncompare \\fB\\-\\-fail\\-above\\fR=\\fIPCT\\fR found a significant "
	      "regression\nbeyond \\fIPCT\\fR %.\n"
	      ".TP\n.B 130\nrun was stopped by SIGINT after the benchmark in flight; the files\n"
	      "written so far are complete (\\fB\\-\\-resume\\fR runs the rest).\n"
	      ".TP\n.B 143\nthe same, stopped by SIGTERM.\n"
	      ".PP\nEach command's section above states its own.\n.SH FILES\n.TP\n.I <prefix>/share/stratbench/plots/*.gp\n"
	      "gnuplot templates used by \\fBstratbench plot\\fR.\n"
	      ".TP\n.I <prefix>/share/doc/stratbench/README.md.gz\n"
	      "the quickstart and the contents of the pages beside it: \\fIdocs/\\fR\n"
	      "(every option, the counters, a page per family; results.md: every file\n"
	      "and column) and the figures in \\fIplots/examples/\\fR.\n"
	      ".SH SEE ALSO\n.BR gnuplot (1),\n.BR lstopo (1)\n", f);
}

static bool want_man;

static const struct sb_option help_options[] = {
	{ "man", SB_OPT_FLAG, &want_man, 0, 0, NULL, NULL,
	  "print the whole manual page, stratbench(1), as roff" },
	{ 0 },
};

static int help_main(int argc, char **argv)
{
	struct sb_args args = { .npos = 1 };
	const struct sb_command *c;

	want_man = false;
	if (sb_cmd_args(&sb_cmd_help, argc, argv, &args))
		return SB_EXIT_USAGE;
	if (want_man) {
		if (args.npos)
			return sb_cmd_error(SB_EXIT_USAGE, "help --man takes no command");
		help_man(stdout);
		return 0;
	}
	if (!args.npos) {
		sb_help_overview(stdout);
		return 0;
	}
	c = sb_command_find(args.pos[0]);
	if (!c)
		return sb_cmd_error(SB_EXIT_USAGE, "no command '%s' (see stratbench help)",
				    args.pos[0]);
	sb_help_command(&(struct sb_doc){ .f = stdout }, c);
	return 0;
}

const struct sb_command sb_cmd_help = {
	.name = "help",
	.summary = "this overview, or one command's usage, options and example",
	.usage = "[COMMAND] [--man]",
	.description = "`stratbench COMMAND --help` (or -h) prints the same as\n"
		       "`stratbench help COMMAND`.  `stratbench --version` prints the version\n"
		       "and the git revision built.\n",
	.options = help_options,
	.example = "stratbench help run\n",
	.run = help_main,
};
