/* check.h — minimal assertions for the CTest programs: each CHECK counts,
 * a failure prints file:line and the condition, and check_done() exits
 * non-zero if any failed. */
#ifndef STRATBENCH_TEST_CHECK_H
#define STRATBENCH_TEST_CHECK_H

#include <stdio.h>
#include <stdlib.h>

static int check_failed, check_passed;

#define CHECK(cond, ...)							\
	do {									\
		if (cond) {							\
			check_passed++;						\
		} else {							\
			check_failed++;						\
			fprintf(stderr, "%s:%d: FAILED: %s: ", __FILE__, __LINE__, #cond); \
			fprintf(stderr, __VA_ARGS__);				\
			fputc('\n', stderr);					\
		}								\
	} while (0)

static inline int check_done(const char *name)
{
	printf("%s: %d checks passed, %d failed\n", name, check_passed, check_failed);
	return check_failed ? 1 : 0;
}

#endif
