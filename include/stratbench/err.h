/* err.h — errors are one line (DESIGN.md §6): functions that fill an `err`
 * buffer and echo user input in it pass it through sb_err_oneline() before
 * returning, so a newline or control character typed (or fuzzed) into an
 * option can never split the message or reach the terminal raw. */
#ifndef STRATBENCH_ERR_H
#define STRATBENCH_ERR_H

/* Replaces control characters (newlines included) in err with '?'. */
static inline void sb_err_oneline(char *err)
{
	for (; *err; err++)
		if ((unsigned char)*err < 0x20 || *err == 0x7f)
			*err = '?';
}

#endif
