/* commands.c — every command, in the order of the help.  A command is its
 * own file (handler and `struct sb_command` entry) plus one line here; the
 * dispatch (main.c), the help, the man page and the bash completion all
 * read this list. */
#include "cmd/cmd.h"

#include <string.h>

const struct sb_command *const sb_commands[] = {
	&sb_cmd_list, &sb_cmd_topo, &sb_cmd_run, &sb_cmd_calibrate, &sb_cmd_compare, &sb_cmd_summary, &sb_cmd_merge,
	&sb_cmd_plot, &sb_cmd_counters, &sb_cmd_selftest,
	&sb_cmd_help,
	NULL,
};

const struct sb_command *sb_command_find(const char *name)
{
	for (int i = 0; sb_commands[i]; i++)
		if (strcmp(sb_commands[i]->name, name) == 0)
			return sb_commands[i];
	return NULL;
}
