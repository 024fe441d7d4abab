/* cli.c — `stratbench run|topo` options; --benchmark_* pass through untouched. */
#include "harness.h"

#include <stdlib.h>
#include <string.h>

static const char *value_of(const char *arg, const char *key)
{
	size_t n = strlen(key);

	return strncmp(arg, key, n) == 0 && arg[n] == '=' ? arg + n + 1 : NULL;
}

static int parse_double(const char *s, double *out, double min)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end || v < min)
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
	v = strtoul(s, &end, 10);
	if (end == s || *end || v < min)
		return -1;
	*out = v;
	return 0;
}

int sb_opts_parse(struct sb_opts *o, int argc, char **argv, char *err, size_t errlen)
{
	int i;

	memset(o, 0, sizeof(*o));
	o->threads = "auto";
	o->placement = "auto";
	o->home_node = -1;
	o->interval_ms = 100;		/* migrate_interval_millisecs */
	o->limit = 32768;		/* 128 MB of 4 KiB pages */
	o->nr_pages = 1;		/* one small page per call */
	o->gb_argv = calloc(argc + 4, sizeof(char *));
	o->gb_argv[o->gb_argc++] = argv[0];
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v;
		unsigned long ul;

		if (strncmp(a, "--benchmark_", 12) == 0 || strncmp(a, "--v=", 4) == 0) {
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
		} else if ((v = value_of(a, "--topology"))) {
			o->topology = v;
		} else if ((v = value_of(a, "--home-node"))) {
			if (parse_ulong(v, &ul, 0))
				goto bad;
			o->home_node = (int)ul;
		} else if ((v = value_of(a, "--interval-ms"))) {
			if (parse_double(v, &o->interval_ms, 1e-6))
				goto bad;
		} else if ((v = value_of(a, "--limit"))) {
			if (parse_ulong(v, &o->limit, 1))
				goto bad;
		} else if ((v = value_of(a, "--nr-pages"))) {
			if (parse_ulong(v, &o->nr_pages, 1))
				goto bad;
		} else if (strcmp(a, "--exact") == 0) {
			o->exact = true;
		} else if ((v = value_of(a, "--crit"))) {
			if (parse_double(v, &o->crit_ns, 0))
				goto bad;
		} else if ((v = value_of(a, "--par"))) {
			if (parse_double(v, &o->par_ns, 0))
				goto bad;
		} else if ((v = value_of(a, "--crit-lines"))) {
			if (parse_ulong(v, &ul, 0) || ul > 4096)
				goto bad;
			o->crit_lines = (unsigned)ul;
		} else if (strcmp(a, "--trylock") == 0) {
			o->trylock = true;
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
