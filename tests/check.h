/* check.h — minimal assertions for the CTest programs: each CHECK counts,
 * a failure prints file:line and the condition, and check_done() exits
 * non-zero if any failed. */
#ifndef STRATBENCH_TEST_CHECK_H
#define STRATBENCH_TEST_CHECK_H

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Scale work down under sanitizers (SLOW 2: oversubscribed spinning under
 * TSan crawls) and for non-x86 builds, which CI runs under qemu-user (1). */
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define SLOW 2
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#define SLOW 2
#endif
#endif
#if !defined(SLOW) && !defined(__x86_64__)
#define SLOW 1
#endif
#ifndef SLOW
#define SLOW 0
#endif

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

/* Watchdog: a test that hangs names the phase it hung in instead of
 * stalling CTest.  Each phase gets its own budget: a loaded machine slows
 * every phase, but only a hang makes one exceed it. */
static char check_phase_name[192] = "start";
static const char *check_prog = "test";
static unsigned check_watchdog_s;

static void check_on_alarm(int sig)
{
	(void)sig;
	if (write(2, check_prog, strlen(check_prog)) < 0 ||
	    write(2, ": watchdog: stuck in ", 21) < 0 ||
	    write(2, check_phase_name, strlen(check_phase_name)) < 0 || write(2, "\n", 1) < 0)
		_exit(3);
	_exit(2);
}

static inline void check_watchdog(const char *prog, unsigned seconds)
{
	check_prog = prog;
	check_watchdog_s = seconds;
	signal(SIGALRM, check_on_alarm);
	alarm(seconds);
}

__attribute__((format(printf, 1, 2)))
static inline void check_phase(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(check_phase_name, sizeof(check_phase_name), fmt, ap);
	va_end(ap);
	alarm(check_watchdog_s);
}

static inline int check_done(const char *name)
{
	printf("%s: %d checks passed, %d failed\n", name, check_passed, check_failed);
	return check_failed ? 1 : 0;
}

#endif
