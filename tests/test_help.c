/* test_help.c STRATBENCH MANPAGE README [DOC.md...] — the help documents every option
 * the parser accepts, the parser accepts every option the help documents,
 * and the README names every stratbench option (so it cannot drift).
 *
 * Walks the tables sb_cmd_parse() reads (each command's own, every family
 * driver's for a command that takes them, Google Benchmark's flags) and
 * looks for each name as an option line in the real binary's
 * `stratbench CMD --help` and in the generated man page; then feeds every
 * option line of the help back to the parser.  No list of names here: a new
 * command, family or option is checked as soon as it is in a table.
 * Negative controls: a help text doctored to lose --limit, and a test-only
 * table row that no help prints, must both be reported missing.
 */
#include "cmd/cmd.h"

#include <stdlib.h>
#include <string.h>

#include "check.h"

static char *slurp(FILE *f)
{
	size_t cap = 1 << 16, n = 0, r;
	char *buf = malloc(cap);

	while (buf && (r = fread(buf + n, 1, cap - n - 1, f)) > 0) {
		char *more;

		n += r;
		if (n + 1 < cap)
			continue;
		more = realloc(buf, cap *= 2);
		if (!more)
			free(buf);
		buf = more;
	}
	if (buf)
		buf[n] = '\0';
	return buf;
}

static char *help_of(const char *sb, const char *cmd)
{
	char line[4200];
	FILE *p;
	char *text;

	snprintf(line, sizeof(line), "'%s' %s --help", sb, cmd);
	p = popen(line, "r");
	if (!p)
		return NULL;
	text = slurp(p);
	if (pclose(p) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

/* Is --name an option line of text: after blanks at a line start (help),
 * or as ".B \-\-name" (roff, where every - is \-)?  Followed by '=', a
 * blank or the line end, so --crit is not found in --crit-lines. */
static bool documented(const char *text, const char *name, bool man)
{
	char needle[256];
	size_t n = 0;

	n += (size_t)snprintf(needle, sizeof(needle), "%s", man ? ".B \\-\\-" : "--");
	for (const char *s = name; *s && n < sizeof(needle) - 3; s++)
		n += (size_t)snprintf(needle + n, sizeof(needle) - n, "%s",
				      man && *s == '-' ? "\\-" : (char[]){ *s, 0 });
	for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle)) {
		const char *b = p;
		char after = p[n];

		if (after != '=' && after != ' ' && after != '\n' && after != '\0')
			continue;
		while (b > text && b[-1] == ' ')
			b--;
		if (b == text || b[-1] == '\n')
			return true;
	}
	return false;
}

/* Does text name --name anywhere (not as the start of a longer name)? */
static bool mentioned(const char *text, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = strstr(text, "--"); p; p = strstr(p + 2, "--"))
		if (!strncmp(p + 2, name, n) && !strchr("abcdefghijklmnopqrstuvwxyz0123456789-_", p[2 + n]))
			return true;
	return false;
}

/* Reports each row of t that the README does not name; returns how many. */
static int unmentioned_rows(const struct sb_option *t, const char *readme, const char *cmd)
{
	int miss = 0;

	for (const struct sb_option *op = t; op && op->name; op++)
		if (!mentioned(readme, op->name)) {
			fprintf(stderr, "  README.md: %s --%s is not described\n", cmd, op->name);
			miss++;
		}
	return miss;
}

/* Reports each row of t that text lacks; returns how many. */
static int missing_rows(const struct sb_option *t, const char *text, bool man, const char *where)
{
	int miss = 0;

	for (const struct sb_option *op = t; op && op->name; op++)
		if (!documented(text, op->name, man)) {
			fprintf(stderr, "  %s: --%s is accepted but not documented\n", where, op->name);
			miss++;
		}
	return miss;
}

/* Every option c's parser accepts, looked for in text. */
static int missing_for(const struct sb_command *c, const char *text, bool man, const char *where)
{
	int miss = missing_rows(c->options, text, man, where);

	for (int f = 0; c->family_options && sb_drivers[f]; f++)
		miss += missing_rows(sb_drivers[f]->options, text, man, where);
	for (int i = 0; c->gbench_flags && sb_gb_flag_at(i); i++)
		if (!documented(text, sb_gb_flag_at(i), man)) {
			fprintf(stderr, "  %s: --%s is accepted but not documented\n", where,
				sb_gb_flag_at(i));
			miss++;
		}
	return miss;
}

/* Every option line of the help goes back to c's parser: none may be
 * refused as unknown (a bad placeholder value is fine). */
static int unknown_documented(const struct sb_command *c, const char *text)
{
	int bad = 0, n = 0;

	for (const char *l = text; *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] != 0)) {
		char arg[128], err[4200];
		size_t sp = strspn(l, " "), len;
		char *argv[3] = { (char *)c->name, arg, NULL };
		struct sb_args args = { .npos = 0 };

		if (sp == 0 || strncmp(l + sp, "--", 2))
			continue;
		len = strcspn(l + sp, " =\n");
		snprintf(arg, sizeof(arg), "%.*s%s", (int)len, l + sp, l[sp + len] == '=' ? "=1" : "");
		if (sb_cmd_parse(c, 2, argv, &args, err, sizeof(err)) &&
		    strstr(err, "unknown option")) {
			fprintf(stderr, "  %s --help documents %s, which its parser refuses: %s\n",
				c->name, arg, err);
			bad++;
		}
		sb_args_free(&args);
		n++;
	}
	CHECK(n > 0 || !c->options, "%s --help has option lines", c->name);
	return bad;
}

/* How often needle occurs in text. */
static int occurrences(const char *text, const char *needle)
{
	int n = 0;

	for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

/* Every family a driver runs is named in text (between from and to when
 * given); returns how many are not. */
static int families_missing(const char *text, const char *from, const char *to,
			    const char *where)
{
	const char *b = from ? strstr(text, from) : text;
	const char *e = b && to ? strstr(b, to) : NULL;
	size_t len = b ? e ? (size_t)(e - b) : strlen(b) : 0;
	int miss = 0;

	for (int f = 0; sb_drivers[f]; f++) {
		const char *fam = sb_drivers[f]->family;
		bool found = false;

		for (const char *p = b; p && (p = strstr(p, fam)) && p < b + len; p++)
			found = true;
		if (!found) {
			fprintf(stderr, "  %s: the %s family is not named\n", where, fam);
			miss++;
		}
	}
	return miss;
}

/* The overview and the man page name every family; each family's options
 * are one section; the exit statuses are each command's own, and the
 * man page's list has run's 130/143. */
static void check_overview(const char *sb, const char *man)
{
	char line[4200];
	FILE *p;
	char *text;

	snprintf(line, sizeof(line), "'%s' help", sb);
	p = popen(line, "r");
	text = p ? slurp(p) : NULL;
	if (p)
		pclose(p);
	CHECK(text != NULL, "stratbench help ran");
	if (!text)
		return;
	CHECK(families_missing(text, NULL, "Commands:", "overview") == 0,
	      "the overview names every family");
	CHECK(families_missing(man, ".SH DESCRIPTION", ".SH COMMANDS", "man DESCRIPTION") == 0,
	      "the man page's DESCRIPTION names every family");
	CHECK(families_missing("window, lock", NULL, NULL, "control") > 0,
	      "control: a text without shootdown is caught");
	free(text);
	text = strstr(man, ".SH EXIT STATUS");
	CHECK(text && strstr(text, ".B 130\n") && strstr(text, ".B 143\n") && strstr(text, ".B 3\n"),
	      "the man page's EXIT STATUS lists 3, 130 and 143");
	text = help_of(sb, "compare");
	CHECK(text && strstr(text, "Exit status:") && !strstr(strstr(text, "Exit status:"), "benchmark"),
	      "compare's exit status says nothing of a benchmark failing");
	CHECK(text && strstr(text, "Exit status:") && strstr(strstr(text, "Exit status:"), " 3 "),
	      "compare's exit status has --fail-above's 3");
	free(text);
	text = help_of(sb, "list");
	CHECK(text && strstr(text, "Exit status:") && !strstr(strstr(text, "Exit status:"), " 1 "),
	      "list's exit status has no 1");
	free(text);
	text = help_of(sb, "run");
	CHECK(text && strstr(text, "Exit status:") && strstr(strstr(text, "Exit status:"), "130") &&
	      strstr(strstr(text, "Exit status:"), "143"), "run's exit status has 130 and 143");
	for (int f = 0; text && sb_drivers[f]; f++) {
		char title[128];

		snprintf(title, sizeof(title), "Options of the %s family:", sb_drivers[f]->family);
		CHECK(occurrences(text, title) <= 1, "run --help has one '%s' (%d)", title,
		      occurrences(text, title));
	}
	free(text);
}

int main(int argc, char **argv)
{
	char *man, *readme, *run_help = NULL;
	FILE *f, *r;

	if (argc < 4) {
		fprintf(stderr, "usage: test_help STRATBENCH MANPAGE README [DOC.md...]\n");
		return 2;
	}
	f = fopen(argv[2], "r");
	r = fopen(argv[3], "r");
	CHECK(f && r, "cannot read %s or %s", argv[2], argv[3]);
	if (!f || !r)
		return check_done("test_help");
	man = slurp(f);
	readme = slurp(r);
	fclose(f);
	fclose(r);
	/* the docs pages after README describe options as well (docs/console.md) */
	for (int i = 4; readme && i < argc; i++) {
		FILE *d = fopen(argv[i], "r");
		char *doc = d ? slurp(d) : NULL, *both;

		CHECK(doc != NULL, "cannot read %s", argv[i]);
		if (d)
			fclose(d);
		if (!doc)
			continue;
		both = malloc(strlen(readme) + strlen(doc) + 2);
		if (both)
			sprintf(both, "%s\n%s", readme, doc);
		free(readme);
		free(doc);
		readme = both;
	}
	if (!readme)
		return check_done("test_help");

	for (int i = 0; sb_commands[i]; i++) {
		const struct sb_command *c = sb_commands[i];
		char *text = help_of(argv[1], c->name), where[64], title[64];

		CHECK(text != NULL, "%s --help failed", c->name);
		if (!text)
			continue;
		snprintf(where, sizeof(where), "%s --help", c->name);
		CHECK(missing_for(c, text, false, where) == 0, "%s documents every option", where);
		snprintf(where, sizeof(where), "man page, %s", c->name);
		CHECK(missing_for(c, man, true, where) == 0, "%s documents every option", where);
		CHECK(unknown_documented(c, text) == 0, "%s accepts what it documents", c->name);
		CHECK(strstr(text, "usage: stratbench ") == text, "%s --help starts with its usage",
		      c->name);
		CHECK(unmentioned_rows(c->options, readme, c->name) == 0,
		      "README describes every option of %s", c->name);
		for (int d = 0; c->family_options && sb_drivers[d]; d++)
			CHECK(unmentioned_rows(sb_drivers[d]->options, readme, c->name) == 0,
			      "README describes every %s family option", sb_drivers[d]->family);
		snprintf(title, sizeof(title), "stratbench %s", c->name);
		CHECK(strstr(readme, title) != NULL, "README shows '%s'", title);
		snprintf(title, sizeof(title), ".SS \"%s\"", c->name);
		CHECK(strstr(man, title) != NULL, "man page has a section for %s", c->name);
		if (!strcmp(c->name, "run"))
			run_help = text;
		else
			free(text);
	}

	check_overview(argv[1], man);

	/* negative controls: the checker must be able to fail */
	CHECK(run_help != NULL, "run --help captured");
	if (run_help) {
		const struct sb_command *run = sb_command_find("run");
		char *line = strstr(run_help, "  --limit=");
		static bool dummy;
		static const struct sb_option extra[] = {
			{ "test-only-undocumented", SB_OPT_FLAG, &dummy, 0, 0, NULL, NULL, "x" },
			{ 0 },
		};
		int miss;

		CHECK(line != NULL, "run --help documents --limit (the window family's option)");
		fprintf(stderr, "expected below: a test-only row reported missing\n");
		CHECK(missing_rows(extra, run_help, false, "control") == 1,
		      "a table row missing from the help is reported");
		fprintf(stderr, "expected below: the test-only row reported absent from the README\n");
		CHECK(unmentioned_rows(extra, readme, "control") == 1,
		      "a table row missing from the README is reported");
		CHECK(!mentioned("see --crit-lines", "crit"), "--crit is not named by --crit-lines");
		if (line) {	/* doctor the text: drop the --limit line */
			char *eol = strchr(line + 2, '\n');

			memmove(line, eol + 1, strlen(eol + 1) + 1);
			fprintf(stderr, "expected below: --limit reported missing\n");
			miss = missing_for(run, run_help, false, "doctored run --help");
			CHECK(miss == 1, "a help that lost --limit is caught (%d missing)", miss);
		}
		CHECK(!documented("  --crit-lines=N  x\n", "crit", false),
		      "--crit is not found in --crit-lines");
		free(run_help);
	}
	free(man);
	free(readme);
	return check_done("test_help");
}
