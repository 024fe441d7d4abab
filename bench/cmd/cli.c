/* cli.c — `stratbench run|topo` options; --benchmark_* pass through untouched. */
#include "cmd/cmd.h"

#include <stratbench/err.h>

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *value_of(const char *arg, const char *key)
{
	size_t n = strlen(key);

	return strncmp(arg, key, n) == 0 && arg[n] == '=' ? arg + n + 1 : NULL;
}

static int parse_double(const char *s, double *out, double min, double max)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end || !isfinite(v) || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

static int parse_ulong(const char *s, unsigned long *out, unsigned long min)
{
	char *end;
	unsigned long v;

	if (*s == '-')
		return -1;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (end == s || *end || errno || v < min)
		return -1;
	*out = v;
	return 0;
}

static bool one_of(const char *v, const char *const *set)
{
	for (; *set; set++)
		if (strcmp(v, *set) == 0)
			return true;
	return false;
}

/* Google Benchmark 1.7.1's IsTruthyFlagValue(): how it reads a bool flag. */
bool sb_gb_truthy(const char *v)
{
	static const char *const no[] = { "false", "no", "off", NULL };
	char lower[16];
	size_t i;

	if (!*v)
		return true;
	if (!v[1])
		return isalnum((unsigned char)*v) && !strchr("0fFnN", *v);
	for (i = 0; i < sizeof(lower) - 1 && v[i]; i++)
		lower[i] = (char)tolower((unsigned char)v[i]);
	lower[i] = '\0';
	return v[i] || !one_of(lower, no);
}

/* Google Benchmark 1.7.1 aborts, prints its whole usage or exits 0 on some
 * bad flag values; check the ones we know before it sees them. */
int sb_gb_flag_check(const char *a, char *err, size_t errlen)
{
	static const char *const bools[] = { "list_tests", "enable_random_interleaving",
		"report_aggregates_only", "display_aggregates_only", "counters_tabular", NULL };
	static const char *const formats[] = { "console", "json", "csv", NULL };
	static const char *const units[] = { "ns", "us", "ms", "s", NULL };
	/* GB reads any value of these (truthy or not); nothing to check */
	static const char *const free_form[] = { "filter", "perf_counters", "color", NULL };
	char name[64];
	const char *eq = strchr(a, '='), *v = eq ? eq + 1 : "";
	size_t n = eq ? (size_t)(eq - a) : strlen(a);
	double d;
	unsigned long ul;

	if (strncmp(a, "--v=", 4) == 0) {
		if (parse_ulong(a + 4, &ul, 0))
			goto bad;
		return 0;
	}
	if (n - 12 >= sizeof(name))
		goto unknown;
	memcpy(name, a + 12, n - 12);
	name[n - 12] = '\0';
	if (one_of(name, bools)) {
		/* any value: GB's IsTruthyFlagValue() reads it (sb_gb_truthy) */
	} else if (!strcmp(name, "repetitions")) {
		if (parse_ulong(v, &ul, 1) || ul > 1000000)
			goto bad;
	} else if (!strcmp(name, "min_time") || !strcmp(name, "min_warmup_time")) {
		if (parse_double(v, &d, 0, 1e6))
			goto bad;
	} else if (!strcmp(name, "format") || !strcmp(name, "out_format")) {
		if (!one_of(v, formats))
			goto bad;
	} else if (!strcmp(name, "time_unit")) {
		if (!one_of(v, units))
			goto bad;
	} else if (!strcmp(name, "out")) {
		char dir[4096];
		char *slash;

		snprintf(dir, sizeof(dir), "%s", v);
		slash = strrchr(dir, '/');
		if (!*v)
			goto bad;
		if (slash)
			*(slash == dir ? slash + 1 : slash) = '\0';
		if (access(slash ? dir : ".", W_OK)) {
			snprintf(err, errlen, "cannot write '%s': its directory is missing or read-only",
				 v);
			return -1;
		}
	} else if (!strcmp(name, "context")) {	/* key=value[,key=value...] */
		for (const char *p = v; *p;) {
			const char *end = strchr(p, ','), *e = strchr(p, '=');

			if (!end)
				end = p + strlen(p);
			if (!e || e >= end || e == p)
				goto bad;
			p = *end ? end + 1 : end;
		}
		if (!*v)
			goto bad;
	} else if (!one_of(name, free_form)) {
		goto unknown;
	}
	if (!eq && !one_of(name, bools))
		goto bad;
	return 0;
bad:
	snprintf(err, errlen, "bad value in '%s'", a);
	return -1;
unknown:
	snprintf(err, errlen, "unknown option '%s'", a);
	return -1;
}

/* One table entry: 1 consumed, 0 not this option, -1 bad value. */
static int parse_one(const struct sb_option *op, const char *a)
{
	size_t n = strlen(op->name);
	const char *v;
	unsigned long ul;

	if (strncmp(a, "--", 2) || strncmp(a + 2, op->name, n) || (a[2 + n] && a[2 + n] != '='))
		return 0;
	v = a[2 + n] ? a + 3 + n : NULL;
	switch (op->type) {
	case SB_OPT_FLAG:
		if (v)
			return -1;
		*(bool *)op->value = true;
		return 1;
	case SB_OPT_DOUBLE:
		return v && !parse_double(v, op->value, op->min, op->max) ? 1 : -1;
	case SB_OPT_ULONG:
		if (!v || parse_ulong(v, &ul, (unsigned long)op->min) || (double)ul > op->max)
			return -1;
		*(unsigned long *)op->value = ul;
		return 1;
	case SB_OPT_STRING:
		if (!v || !*v || (op->choices && !one_of(v, op->choices)))
			return -1;
		*(const char **)op->value = v;
		return 1;
	}
	return 0;
}

/* A family option: 1 consumed, 0 no family has it, -1 bad value.  Drivers
 * of one family may share an option name (each keeps its own copy). */
static int parse_family_opt(const char *a)
{
	int found = 0;

	for (int f = 0; sb_drivers[f]; f++)
		for (const struct sb_option *op = sb_drivers[f]->options; op && op->name; op++) {
			int r = parse_one(op, a);

			if (r < 0)
				return -1;
			found |= r;
		}
	return found;
}

void sb_opts_usage(FILE *f)
{
	for (int i = 0; sb_drivers[i]; i++) {
		const struct sb_option *op = sb_drivers[i]->options;

		if (!op || !op->name)
			continue;
		fprintf(f, "  %s family:\n", sb_drivers[i]->family);
		for (; op->name; op++) {
			char lhs[64];

			snprintf(lhs, sizeof(lhs), "--%s%s%s", op->name, op->arg ? "=" : "",
				 op->arg ? op->arg : "");
			fprintf(f, "    %-22s %s\n", lhs, op->help);
		}
	}
}

static int opts_parse_impl(struct sb_opts *o, int argc, char **argv, char *err, size_t errlen)
{
	int i, r;

	memset(o, 0, sizeof(*o));
	o->threads = "auto";
	o->placement = "auto";
	o->home_node = -1;
	o->counters = "default";
	o->gb_argv = calloc(argc + 4, sizeof(char *));
	o->gb_argv[o->gb_argc++] = argv[0];
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v;
		unsigned long ul;

		if (strncmp(a, "--benchmark_", 12) == 0 || strncmp(a, "--v=", 4) == 0) {
			if (sb_gb_flag_check(a, err, errlen))
				return -1;
			o->gb_argv[o->gb_argc++] = argv[i];
		} else if ((v = value_of(a, "--family"))) {
			o->family = v;
		} else if ((v = value_of(a, "--strategy"))) {
			o->strategy = v;
		} else if ((v = value_of(a, "--lock"))) {
			o->lock = v;
		} else if ((v = value_of(a, "--threads"))) {
			o->threads = v;
		} else if ((v = value_of(a, "--placement"))) {
			o->placement = v;
		} else if ((v = value_of(a, "--out"))) {
			o->out = v;
		} else if ((v = value_of(a, "--counters"))) {
			o->counters = v;
		} else if (!strcmp(a, "--counters-ab")) {
			o->counters_ab = true;
		} else if ((v = value_of(a, "--topology"))) {
			o->topology = v;
		} else if ((v = value_of(a, "--home-node"))) {
			if (parse_ulong(v, &ul, 0) || ul > INT_MAX)
				goto bad;
			o->home_node = (int)ul;
		} else if ((r = parse_family_opt(a)) != 0) {
			if (r < 0)
				goto bad;
		} else {
			snprintf(err, errlen, "unknown option '%s' (see stratbench --help)", a);
			return -1;
		}
		continue;
bad:
		snprintf(err, errlen, "bad value in '%s'", a);
		return -1;
	}
	o->gb_argv[o->gb_argc] = NULL;
	return 0;
}

void sb_opts_free(struct sb_opts *o)
{
	free(o->gb_argv);
	o->gb_argv = NULL;
}

/* Errors echo user input: keep them one line (err.h). */
int sb_opts_parse(struct sb_opts *o, int argc, char **argv, char *err, size_t errlen)
{
	int rc = opts_parse_impl(o, argc, argv, err, errlen);

	if (rc)
		sb_err_oneline(err);
	return rc;
}
