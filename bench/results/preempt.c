/* preempt.c — a point's preemption mark from its counters (preempt.h). */
#include "results/preempt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The threshold the mark compares against; the broken fixture of
 * tests/test_preempt.c turns it off, and its checks must then fail. */
#ifdef SB_TEST_NO_PREEMPT_MARK
#define ON_CPU_MIN 0.0
#define STEAL_MAX INFINITY
#else
#define ON_CPU_MIN SB_PREEMPT_ON_CPU_MIN
#define STEAL_MAX SB_PREEMPT_STEAL_MAX
#endif

/* How preempted an entry was: its members' on-CPU %, steal %; true if marked. */
static bool preempted(json_t *e, double *on, double *steal)
{
	double csw = sb_entry_value(e, "ctx_switches");
	double inv = sb_entry_value(e, "ctx_involuntary");
	bool off;

	*on = sb_entry_value(e, "on_cpu_pct");
	*steal = sb_entry_value(e, "steal_pct");
	/* NaN compares false: a run without the counters is never marked */
	off = *on < ON_CPU_MIN && (inv > 0 || csw == 0 || isnan(csw));
	return off || *steal > STEAL_MAX;
}

static void mark_text(double on, double steal, char *buf, size_t n)
{
	int len = isnan(on) ? snprintf(buf, n, "preempted")
			    : snprintf(buf, n, "preempted: on CPU %.0f %%", on);

	/* steal under 0.5 % rounds to 0: it would only widen the tables' cell */
	if (!isnan(steal) && steal >= 0.5 && len > 0 && (size_t)len < n)
		snprintf(buf + len, n - (size_t)len, "%s steal %.0f %%", isnan(on) ? ":" : ";",
			 steal);
}

bool sb_preempt_entry(json_t *entry, char *buf, size_t n)
{
	double on, steal;

	if (n)
		buf[0] = '\0';
	if (!entry || !preempted(entry, &on, &steal))
		return false;
	mark_text(on, steal, buf, n);
	return true;
}

/* The worst of entries (the least on CPU; the most steal where on CPU is unknown). */
struct worst {
	double on, steal;
	bool any;
};

static void worst_add(struct worst *w, json_t *e)
{
	double on, steal;

	if (!preempted(e, &on, &steal))
		return;
	if (!w->any || on < w->on || (isnan(w->on) && steal > w->steal)) {
		w->on = on;
		w->steal = steal;
	}
	w->any = true;
}

static bool worst_text(const struct worst *w, char *buf, size_t n)
{
	if (n)
		buf[0] = '\0';
	if (w->any)
		mark_text(w->on, w->steal, buf, n);
	return w->any;
}

bool sb_preempt_bm(const struct sb_bm *b, char *buf, size_t n)
{
	struct worst w = { 0 };

	for (int i = 0; i < b->nruns; i++)
		worst_add(&w, b->runs[i]);
	return worst_text(&w, buf, n);
}

bool sb_preempt_array(json_t *arr, char *buf, size_t n)
{
	struct worst w = { 0 };
	json_t *e;
	size_t i;

	json_array_foreach(arr, i, e) {
		const char *type = json_string_value(json_object_get(e, "run_type"));

		if (!type || strcmp(type, "aggregate"))
			worst_add(&w, e);
	}
	return worst_text(&w, buf, n);
}

void sb_preempt_note(const struct sb_bm *b, char *note, size_t n)
{
	char mark[96];
	size_t len = strlen(note);

	if (sb_preempt_bm(b, mark, sizeof(mark)) && len < n)
		snprintf(note + len, n - len, "%s⚠ %s", len ? "; " : "", mark);
}
