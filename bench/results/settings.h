/* settings.h — the machine settings that distort results, read and put on
 * record (JSON context), never written.  sb_settings_read() reads each under
 * root ("/": this machine; a fake tree in tests) into out[]: the value as the
 * kernel prints it, or "unavailable (why)" (never an invented 0), and a
 * warning when it will distort a run (frequency scaling, boost, NUMA
 * balancing on a multi-node machine, a flush ceiling other than the model's
 * 33).  sb_settings_record() adds sb_setting_<key> to the context for this
 * machine; sb_settings_warn() prints the warnings once, when the first
 * benchmark runs (so a usage error found before stays one line). */
#ifndef STRATBENCH_SETTINGS_H
#define STRATBENCH_SETTINGS_H

#include <stdbool.h>
#include <stdio.h>

struct sb_setting {
	const char *key;		/* numa_balancing, governor, ... */
	bool available;
	char value[160];		/* as read, or "unavailable (reason)" */
	char warning[320];		/* "" or why this distorts results */
};

#define SB_SETTINGS_MAX 16

/* root/path's first line, no newline, into buf: 0, or -1 with why in buf */
int sb_settings_line(const char *root, const char *path, char *buf, size_t len);
/* Returns how many settings were filled (each known one, available or not). */
int sb_settings_read(const char *root, int nnodes, struct sb_setting *out, int max);
void sb_settings_record(int nnodes);
void sb_settings_warn(FILE *f);
/* another warning about the machine or the plan, printed with the others */
void sb_settings_add_warning(const char *msg);
/* The pending warnings joined by "; " into buf and taken (for a console that
 * says them in its own line); returns how many there were. */
int sb_settings_take_warnings(char *buf, size_t n);

#endif
