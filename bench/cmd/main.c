/* main.c — `stratbench COMMAND ...`: dispatch only, from the command table
 * (commands.c); one file per command.  --help/-h anywhere after the command
 * prints that command's help, before its options are parsed (so the help
 * shows the defaults).  No command, or an unknown one, is a usage error:
 * one line naming the commands, exit 2; `stratbench help` is the overview. */
#include "cmd/cmd.h"

#include <string.h>

static bool is_help(const char *a)
{
	return !strcmp(a, "--help") || !strcmp(a, "-h");
}

/* The command names, comma-separated, for a usage error. */
static const char *command_names(void)
{
	static char names[256];
	size_t n = 0;

	for (int i = 0; sb_commands[i] && n < sizeof(names); i++)
		n += (size_t)snprintf(names + n, sizeof(names) - n, "%s%s", i ? ", " : "",
				      sb_commands[i]->name);
	return names;
}

int main(int argc, char **argv)
{
	const struct sb_command *c;

	sb_gbench_serve_results();
	if (argc < 2)	/* a usage error: one line, as any other */
		return sb_cmd_error(SB_EXIT_USAGE, "no command (want %s; see stratbench help)",
				    command_names());
	if (is_help(argv[1])) {
		sb_help_overview(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		sb_version_print(stdout);
		return 0;
	}
	c = sb_command_find(argv[1]);
	if (!c)
		return sb_cmd_error(SB_EXIT_USAGE, "unknown command '%s' (want %s)", argv[1],
				    command_names());
	for (int i = 2; i < argc; i++)
		if (is_help(argv[i])) {
			sb_help_command(&(struct sb_doc){ .f = stdout }, c);
			return 0;
		}
	return c->run(argc - 1, argv + 1);
}
