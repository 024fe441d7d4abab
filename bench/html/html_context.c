/* html_context.c — a run's JSON context in the pages (html.h): values as text, the fingerprint
 * and the run's record (command line, quietness, CV threshold) as a table (two contexts side by
 * side, differing rows marked), and the quietness warnings `stratbench run` printed (quiet.c). */
#include "html/html.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

bool sb_html_ctx(json_t *context, const char *key, char *buf, size_t n)
{
	json_t *v = json_object_get(context, key);
	size_t len = 0, i;
	json_t *x;

	buf[0] = '\0';
	if (json_is_string(v))
		snprintf(buf, n, "%s", json_string_value(v));
	else if (json_is_number(v))
		snprintf(buf, n, "%g", json_number_value(v));
	else if (json_is_boolean(v))
		snprintf(buf, n, "%s", json_is_true(v) ? "true" : "false");
	else if (json_is_array(v))
		json_array_foreach(v, i, x)
			if (json_is_number(x) && len + 1 < n)
				len += (size_t)snprintf(buf + len, n - len, "%s%.2f", i ? " " : "",
							json_number_value(x));
	return v != NULL;
}

struct ctx_key {
	const char *key, *what;
};

static const struct ctx_key machine_keys[] = {
	{ "sb_host", "host" }, { "sb_cpu_model", "CPU model" }, { "sb_arch", "architecture" },
	{ "sb_kernel", "kernel" }, { "sb_packages", "packages (sockets)" },
	{ "sb_numa_nodes", "NUMA nodes" }, { "sb_cores", "cores" },
	{ "sb_pus", "PUs (hardware threads)" }, { "num_cpus", "CPUs (Google Benchmark)" },
	{ "mhz_per_cpu", "MHz per CPU (Google Benchmark)" },
	{ "sb_cycles_per_ns", "cycle counter per ns" }, { "sb_cacheline_os", "cache line (OS), B" },
	{ "sb_cacheline_padding", "cache-line padding, B" }, { "sb_compiler", "compiler" },
	{ "sb_git_revision", "stratbench git revision" },
	{ "library_build_type", "Google Benchmark build" }, { NULL, NULL },
};

static const struct ctx_key run_keys[] = {
	{ "sb_label", "label" }, { "date", "date" }, { "sb_command_line", "command line" },
	{ "sb_resumed", "resumed from" }, { "sb_cv_threshold", "CV threshold, %" },
	{ "sb_loadavg", "load average (/proc/loadavg)" },
	{ "load_avg", "load average (Google Benchmark)" },
	{ "sb_busy_cpus", "CPUs busy before the run" },
	{ "sb_steal", "steal, of the host (/proc/stat)" }, { NULL, NULL },
};

/* with every sb_setting_* key (settings.c) */
static const struct ctx_key counter_keys[] = {
	{ "sb_counters", "counters" }, { "sb_counters_unavailable", "counters unavailable" },
	{ "sb_counters_note", "counters note" }, { NULL, NULL },
};

/* one row: what, then each context's value; marked when they differ; whether they do (h NULL:
 * only that) */
static bool kv_row(struct sb_html *h, const char *key, const char *what, json_t *const *ctx,
		   int nctx)
{
	char v[2][2048];
	bool any = false, differs = false;

	for (int i = 0; i < nctx && i < 2; i++) {
		any |= sb_html_ctx(ctx[i], key, v[i], sizeof(v[i]));
		differs |= i && strcmp(v[i], v[0]);
	}
	if (!any || !h)
		return differs;
	sb_html_raw(h, differs ? "<tr class=\"differs\"><th>" : "<tr><th>");
	sb_html_text(h, what, false);
	sb_html_raw(h, "</th>");
	for (int i = 0; i < nctx && i < 2; i++)
		sb_html_el(h, "td", NULL, v[i]);
	if (nctx > 1)
		sb_html_el(h, "td", "flag", differs ? "≠ differs" : "");
	sb_html_raw(h, "</tr>\n");
	return differs;
}

/* the rows of keys, then (settings) of every setting either side recorded (settings.c:
 * sb_setting_KEY); how many differ (h NULL: only counted) */
static int kv_rows(struct sb_html *h, const struct ctx_key *keys, bool settings,
		   json_t *const *ctx, int nctx)
{
	const char *key;
	json_t *v;
	int n = 0;

	for (; keys->key; keys++)
		n += kv_row(h, keys->key, keys->what, ctx, nctx);
	for (int i = 0; settings && i < nctx && i < 2; i++)
		json_object_foreach(ctx[i], key, v) {
			if (strncmp(key, "sb_setting_", 11) ||
			    (i && json_object_get(ctx[0], key)))
				continue;
			char what[128];

			snprintf(what, sizeof(what), "setting: %s", key + 11);
			n += kv_row(h, key, what, ctx, nctx);
		}
	return n;
}

static void kv_table(struct sb_html *h, const struct ctx_key *keys, bool settings,
		     json_t *const *ctx, const char *const *heads, int nctx)
{
	sb_html_raw(h, "<div class=\"tbl\"><table class=\"kv\">\n");
	if (heads) {
		sb_html_raw(h, "<thead><tr><th></th>");
		for (int i = 0; i < nctx && i < 2; i++)
			sb_html_el(h, "th", NULL, heads[i]);
		sb_html_raw(h, nctx > 1 ? "<th></th></tr></thead>\n" : "</tr></thead>\n");
	}
	kv_rows(h, keys, settings, ctx, nctx);
	sb_html_raw(h, "</table></div>\n");
}

void sb_html_fingerprint(struct sb_html *h, json_t *const *ctx, const char *const *heads,
			 int nctx)
{
	int n = nctx > 1 ? kv_rows(NULL, counter_keys, true, ctx, nctx) : 0;

	sb_html_raw(h, "<h3>Machine</h3>\n");
	kv_table(h, machine_keys, false, ctx, heads, nctx);
	sb_html_raw(h, "<h3>Run</h3>\n");
	kv_table(h, run_keys, false, ctx, heads, nctx);
	/* long and rarely read: folded, open when the two runs' differ */
	sb_html_raw(h, n ? "<details open>" : "<details>");
	if (n)
		sb_html_linef(h, "summary", NULL, "Settings and counters (%d differ%s)", n,
			      n > 1 ? "" : "s");
	else
		sb_html_linef(h, "summary", NULL, "Settings and counters");
	kv_table(h, counter_keys, true, ctx, heads, nctx);
	sb_html_raw(h, "</details>\n");
}

/* the warnings `stratbench run` printed (quiet.c: load average above 0.5, a CPU more than half
 * busy in the 200 ms before the run), side: NULL, or which run of a comparison */
void sb_html_quiet(struct sb_html *h, const struct sb_results *r, const char *side)
{
	char load[256], busy[256], pre[64];
	bool have_load = sb_html_ctx(r->context, "sb_loadavg", load, sizeof(load));
	bool have_busy = sb_html_ctx(r->context, "sb_busy_cpus", busy, sizeof(busy));
	char *end = load;
	/* "unavailable (/proc/loadavg)" is no load of 0 */
	double l = have_load ? strtod(load, &end) : NAN;
	long b = have_busy ? strtol(busy, NULL, 10) : 0;

	if (end == load)
		l = NAN;
	snprintf(pre, sizeof(pre), "%s%s", side ? side : "", side ? ": " : "");
	if (!have_load && !have_busy)
		sb_html_linef(h, "p", "muted", "%sno quietness record (sb_loadavg, sb_busy_cpus): "
			      "not written by stratbench run.", pre);
	if (l > 0.5)
		sb_html_linef(h, "p", "warn", "⚠ %sNot quiet: load average %.2f before the run "
			      "(above 0.5); other work may have distorted the results.", pre, l);
	if (b > 0)
		sb_html_linef(h, "p", "warn", "⚠ %sNot quiet: CPUs busy (over 50 %%) with other "
			      "work in the 200 ms before the run: %s.", pre, busy);
	if ((have_load || have_busy) && !(l > 0.5) && b <= 0) {
		char lt[64] = "load average unavailable";

		if (!isnan(l))
			snprintf(lt, sizeof(lt), "load average %.2f", l);
		sb_html_linef(h, "p", "ok", "%sQuiet: %s, no CPU busy before the run.", pre, lt);
	}
	sb_html_linef(h, "p", NULL, "%sCV threshold %g %%: a point whose CV over its repetitions "
		      "is above it is marked noisy (⚠).", pre, r->cv_threshold);
}
