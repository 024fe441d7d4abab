/* preempt.h — was a point's team preempted?  One place decides it, from the
 * counters run/driver.c reports (docs/results.md "Preemption"); the console,
 * summary, compare and HTML only show the text it gives and keep such a
 * point out of their verdicts.
 *
 * A point is preempted when, in a repetition, its least on-CPU member ran
 * under SB_PREEMPT_ON_CPU_MIN % of the rounds' time and the guest either
 * switched members out (an involuntary switch) or switched nothing at all
 * (the host took the vCPU: no switch is seen inside the guest), or when the
 * steal on the members' CPUs passed SB_PREEMPT_STEAL_MAX % (a kernel without
 * paravirtual steal accounting counts stolen time as the thread's CPU time).
 * Off-CPU time with voluntary switches only is a member blocking by design
 * (a sleeping lock), not preemption.  Why 5 %: the run's default noise
 * threshold (--cv-threshold) is 5 %; a member away longer than that moves
 * ops/s more than the noise we accept, and a FIFO lock stalls its whole
 * queue behind it.  The measurement costs about a microsecond per round of
 * milliseconds, far below it.
 */
#ifndef STRATBENCH_PREEMPT_H
#define STRATBENCH_PREEMPT_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "results/results.h"

#define SB_PREEMPT_ON_CPU_MIN 95.0	/* %: members off CPU more than 5 % */
#define SB_PREEMPT_STEAL_MAX 5.0	/* %: steal on the members' CPUs */

/* A GB run entry: true and buf = "preempted: on CPU 50 %;
 * steal 12 %" (steal where measured and >= 0.5 %) when preempted, else false and buf "". */
bool sb_preempt_entry(json_t *entry, char *buf, size_t n);
/* b's repetitions: the worst one's text (the least on CPU), as above. */
bool sb_preempt_bm(const struct sb_bm *b, char *buf, size_t n);
/* b's mark appended to note ("; " after what note holds), "⚠ preempted: ...";
 * nothing when b was not preempted. */
void sb_preempt_note(const struct sb_bm *b, char *note, size_t n);
/* The same over a benchmark's GB entries (aggregates skipped): the console's group. */
bool sb_preempt_array(json_t *arr, char *buf, size_t n);

#endif
