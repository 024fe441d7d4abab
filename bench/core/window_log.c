/* window_log.c — fidelity logs: allocation, and the merge after a run that
 * turns every member's (time, pages) and reset events into per-window
 * figures (definitions in docs/window.md, "Fidelity mode"). */
#include <stratbench/window.h>

#include <stdlib.h>
#include <string.h>

int sb_window_log_init(struct sb_window_log *l, size_t cap_admit, size_t cap_reset)
{
	memset(l, 0, sizeof(*l));
	l->admit = malloc(sizeof(*l->admit) * (cap_admit ? cap_admit : 1));
	l->reset = malloc(sizeof(*l->reset) * (cap_reset ? cap_reset : 1));
	if (!l->admit || !l->reset) {
		sb_window_log_free(l);
		return -1;
	}
	l->cap_admit = cap_admit;
	l->cap_reset = cap_reset;
	return 0;
}

void sb_window_log_free(struct sb_window_log *l)
{
	free(l->admit);
	free(l->reset);
	memset(l, 0, sizeof(*l));
}

/* Times are taken relative to t0 (wrap-safe, as time_after). */
struct rel_reset {
	uint64_t t, next;
};

static int cmp_reset(const void *a, const void *b)
{
	const struct rel_reset *x = a, *y = b;

	return (x->t > y->t) - (x->t < y->t);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The last of start[lo..hi) at or before t, given start[lo] <= t < start[hi]. */
static uint64_t window_of(const uint64_t *start, uint64_t lo, uint64_t hi, uint64_t t)
{
	while (hi - lo > 1) {
		uint64_t mid = (lo + hi) / 2;

		if (start[mid] <= t)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* The merge both analyses share: the resets sorted, the cut (where the first log filled, else
 * end, relative to t0), out's truncated, cut_fraction, max_harvest and double_resets, and the
 * starting resets (*start, nwin of them, relative to t0) with their windows' idle marks (*idle:
 * 1, the closing reset came >= interval late; 2, follows such a window).  Returns nwin; *start
 * and *idle are malloc'd (nres + 1 entries). */
static uint64_t merge_resets(const struct sb_window_run *r, struct sb_window_fidelity *out,
			     uint64_t **startp, unsigned char **idlep)
{
	struct sb_window_log *const *logs = r->logs;
	const sb_ticks t0 = r->t0, end = r->end;
	uint64_t cut = end - t0, nres = 0, nwin = 0, cur_next = r->next0 - t0, k;
	struct rel_reset *res;
	uint64_t *start;		/* proper resets: window starts */
	unsigned char *idle;
	int i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < r->n; i++) {
		nres += logs[i]->nreset;
		if (logs[i]->full && logs[i]->full_at - t0 < cut) {
			cut = logs[i]->full_at - t0;
			out->truncated = true;
		}
	}
	out->cut_fraction = end - t0 ? (double)cut / (double)(end - t0) : 1;
	res = malloc(sizeof(*res) * (nres + 1));
	start = calloc(nres + 1, sizeof(*start));
	idle = calloc(nres + 1, sizeof(*idle));
	nres = 0;
	for (i = 0; i < r->n; i++)
		for (size_t j = 0; j < logs[i]->nreset; j++) {
			const struct sb_window_reset_ev *e = &logs[i]->reset[j];

			if (e->harvested > out->max_harvest)
				out->max_harvest = e->harvested;
			if (e->t - t0 <= cut)
				res[nres++] = (struct rel_reset){ e->t - t0, e->next - t0 };
		}
	qsort(res, nres, sizeof(*res), cmp_reset);
	/* a reset at or before the previous reset's end hits an unexpired window: double reset */
	for (k = 0; k < nres; k++) {
		if (res[k].t > cur_next) {
			/* nobody called for a whole interval after expiry: the
			 * members were not running (descheduled, between rounds) */
			if (nwin)
				idle[nwin - 1] = res[k].t - cur_next >= r->interval;
			start[nwin++] = res[k].t;
		} else {
			out->double_resets++;
		}
		cur_next = res[k].next;
	}
	/* the window after an idle one starts at a late reset: a policy that
	 * keeps the phase makes it short by the lateness, which is the
	 * idleness again, not the policy; it is left out with the idle one */
	for (k = nwin; k-- > 1;)
		if (idle[k - 1] == 1)
			idle[k] = idle[k] ? idle[k] : 2;
	free(res);
	*startp = start;
	*idlep = idle;
	return nwin;
}

void sb_window_fidelity(const struct sb_window_run *r, unsigned long limit,
			struct sb_window_fidelity *out)
{
	const double interval = (double)r->interval;
	uint64_t nwin, k;
	uint64_t *start;		/* proper resets: window starts */
	unsigned char *idle;		/* 1: window k's closing reset came >= interval
					 * late; 2: k follows such a window */
	double *ratio = NULL, *pages = NULL;
	int i;

	nwin = merge_resets(r, out, &start, &idle);
	/* complete windows: [start[k], start[k+1]) for k < nwin - 1 */
	for (k = 0; k + 1 < nwin; k++)
		if (idle[k])
			out->idle_windows++;
		else
			out->windows++;
	if (!out->windows)
		goto out;
	pages = calloc(nwin + 1, sizeof(*pages));
	ratio = malloc(sizeof(*ratio) * (nwin + 1));
	/* each admitted event goes to the last window start at or before it */
	for (i = 0; i < r->n; i++)
		for (size_t j = 0; j < r->logs[i]->nadmit; j++) {
			const struct sb_window_admit *e = &r->logs[i]->admit[j];
			uint64_t t = e->t - r->t0;

			if (t < start[0] || t >= start[nwin - 1])
				continue;	/* before the first or in the open last window */
			pages[window_of(start, 0, nwin - 1, t)] += (double)e->pages;
		}
	for (i = 0, k = 0; k + 1 < nwin; k++) {
		double s = (double)(start[k + 1] - start[k]) / interval;

		if (idle[k])
			continue;
		out->stretch_mean += s / (double)out->windows;
		if (s > out->stretch_max)
			out->stretch_max = s;
		ratio[i] = pages[k] / (double)limit;
		out->admit_mean += ratio[i++] / (double)out->windows;
	}
	qsort(ratio, out->windows, sizeof(*ratio), cmp_double);
	/* nearest rank */
	out->admit_p99 = ratio[(out->windows * 99 + 99) / 100 - 1];
	out->admit_max = ratio[out->windows - 1];
out:
	free(pages);
	free(ratio);
	free(start);
	free(idle);
}

size_t sb_window_timeline(const struct sb_window_run *r, struct sb_window_span *out,
			  uint64_t *member_pages, size_t max, uint64_t *total)
{
	struct sb_window_log *const *logs = r->logs;
	const int n = r->n;
	struct sb_window_fidelity f;
	uint64_t *start, nwin, k, m;
	unsigned char *idle;
	int i;

	nwin = merge_resets(r, &f, &start, &idle);
	*total = nwin;
	m = nwin < max ? nwin : max;
	/* window 0 is the set-up's, from t0 to the first starting reset */
	for (k = 0; k < m; k++)
		out[k] = (struct sb_window_span){
			.start = k ? start[k - 1] : 0,
			.end = start[k],
			.idle = k && idle[k - 1],
		};
	if (member_pages)
		memset(member_pages, 0, sizeof(*member_pages) * (size_t)m * (size_t)n);
	for (i = 0; m && i < n; i++)
		for (size_t j = 0; j < logs[i]->nadmit; j++) {
			uint64_t t = logs[i]->admit[j].t - r->t0, lo;

			if (t >= out[m - 1].end)
				continue;	/* in an open or unlisted window */
			/* span k > 0 starts at start[k - 1] */
			lo = t < start[0] ? 0 : 1 + window_of(start, 0, m - 1, t);
			out[lo].pages += logs[i]->admit[j].pages;
			if (member_pages)
				member_pages[lo * (uint64_t)n + (uint64_t)i] += logs[i]->admit[j].pages;
		}
	free(start);
	free(idle);
	return (size_t)m;
}
