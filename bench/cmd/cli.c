/* cli.c — parsing a command's options from its tables (its own, every
 * family's, Google Benchmark's); the options every family shares.  The help
 * (help.c) prints the same tables, so it lists everything accepted. */
#include "cmd/cmd.h"

#include "core/util.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* Google Benchmark 1.7.1's flags that we pass through: the checker below
 * and the help read this one table, so the help lists every flag accepted.
 * It aborts, prints its whole usage or exits 0 on some bad values; the
 * kinds say what we check before it sees them. */
enum gb_kind { GB_BOOL, GB_COUNT, GB_SECONDS, GB_FORMAT, GB_UNIT, GB_FILE, GB_CONTEXT, GB_ANY };

static const struct gb_flag {
	const char *name;		/* without the dashes */
	enum gb_kind kind;
	const char *arg, *help;
} gb_flags[] = {
	{ "benchmark_filter", GB_ANY, "REGEX",
	  "run only the benchmarks whose name matches (default: all)" },
	{ "benchmark_list_tests", GB_BOOL, "BOOL",
	  "print the benchmark names, run nothing (default: false)" },
	{ "benchmark_repetitions", GB_COUNT, "N",
	  "repetitions of each benchmark; above 1 adds mean, median, stddev, cv rows (default: 1)" },
	{ "benchmark_min_time", GB_SECONDS, "S",
	  "minimum measured time per repetition, in seconds (default: 0.5)" },
	{ "benchmark_min_warmup_time", GB_SECONDS, "S",
	  "warm-up before measuring, in seconds (default: 0)" },
	{ "benchmark_enable_random_interleaving", GB_BOOL, "BOOL",
	  "run repetitions in random order (default: false)" },
	{ "benchmark_report_aggregates_only", GB_BOOL, "BOOL",
	  "report only the aggregates of repetitions (default: false; the CSV keeps every repetition)" },
	{ "benchmark_display_aggregates_only", GB_BOOL, "BOOL",
	  "display only the aggregates (default: false)" },
	{ "benchmark_format", GB_FORMAT, "console|json",
	  "console output format (default: console)" },
	{ "benchmark_out", GB_FILE, "FILE",
	  "also write results to FILE (default: none; with --out, set by stratbench)" },
	{ "benchmark_out_format", GB_FORMAT, "json|console",
	  "format of --benchmark_out (default: json)" },
	{ "benchmark_counters_tabular", GB_BOOL, "BOOL",
	  "counters as columns on the console (default: false)" },
	{ "benchmark_time_unit", GB_UNIT, "ns|us|ms|s",
	  "unit of the time columns (default: per benchmark)" },
	{ "benchmark_context", GB_CONTEXT, "K=V,...",
	  "extra key=value pairs for the JSON context (default: none)" },
	{ "benchmark_perf_counters", GB_ANY, "EVENTS",
	  "libpfm events per benchmark (default: none; needs a PMU)" },
	{ "benchmark_color", GB_ANY, "auto|true|false",
	  "colour the console output (default: auto)" },
	{ "v", GB_COUNT, "N",
	  "Google Benchmark's log verbosity (default: 0)" },
};

static const struct gb_flag *gb_flag_find(const char *a)
{
	const char *eq = strchr(a, '=');
	size_t n = eq ? (size_t)(eq - a) : strlen(a);

	for (size_t i = 0; n > 2 && i < sizeof(gb_flags) / sizeof(gb_flags[0]); i++)
		if (strlen(gb_flags[i].name) == n - 2 && !strncmp(a + 2, gb_flags[i].name, n - 2))
			return &gb_flags[i];
	return NULL;
}

const char *sb_gb_flag_at(int i)
{
	return i >= 0 && (size_t)i < sizeof(gb_flags) / sizeof(gb_flags[0]) ? gb_flags[i].name : NULL;
}

static bool gb_flag_like(const char *a)
{
	return strncmp(a, "--benchmark_", 12) == 0 || strncmp(a, "--v=", 4) == 0;
}

void sb_gb_flags_usage(struct sb_doc *d)
{
	for (size_t i = 0; i < sizeof(gb_flags) / sizeof(gb_flags[0]); i++) {
		char lhs[96];

		snprintf(lhs, sizeof(lhs), "--%s=%s", gb_flags[i].name, gb_flags[i].arg);
		sb_doc_option(d, lhs, gb_flags[i].help);
	}
}

/* "0.05s", "2x": Google Benchmark 1.8's syntax, not 1.7.1's: 0, or -1
 * with err saying so */
static int gb_seconds_1_8(const struct gb_flag *g, const char *a, const char *v, char *err,
			  size_t errlen)
{
	size_t n = strlen(v);

	if (n < 2 || !strchr("sx", v[n - 1]) || !isdigit((unsigned char)v[n - 2]))
		return 0;
	if (v[n - 1] == 's')
		return sb_cmd_err(err, errlen, "bad value in '%s': Google Benchmark 1.7.1 wants a "
				  "plain number of seconds, e.g. --%s=%.*s ('s' is 1.8's "
				  "syntax)", a, g->name, (int)(n - 1), v);
	return sb_cmd_err(err, errlen, "bad value in '%s': an iteration count ('x') is Google "
			  "Benchmark 1.8's syntax; 1.7.1 wants a plain number of seconds", a);
}

/* --benchmark_out=FILE: a file its directory lets GB create */
static int gb_file_check(const char *v, char *err, size_t errlen)
{
	char dir[SB_PATH];
	char *slash;
	struct stat st;

	snprintf(dir, sizeof(dir), "%s", v);
	slash = strrchr(dir, '/');
	if (slash)
		*(slash == dir ? slash + 1 : slash) = '\0';
	if (access(slash ? dir : ".", W_OK))
		return sb_cmd_err(err, errlen, "cannot write '%s': its directory is missing or "
				  "read-only", v);
	if (stat(v, &st) == 0 && S_ISDIR(st.st_mode))
		return sb_cmd_err(err, errlen, "cannot write '%s': not a regular file (a "
				  "directory)", v);
	return 0;
}

/* key=value[,key=value...] */
static bool gb_context_ok(const char *v)
{
	for (const char *p = v; *p;) {
		const char *end = strchr(p, ','), *e = strchr(p, '=');

		if (!end)
			end = p + strlen(p);
		if (!e || e >= end || e == p)
			return false;
		p = *end ? end + 1 : end;
	}
	return *v;
}

/* v, the value of flag g: 1 well formed, 0 bad, -1 refused with err set */
static int gb_value_ok(const struct gb_flag *g, const char *a, const char *v, char *err,
		       size_t errlen)
{
	static const char *const formats[] = { "console", "json", NULL };
	static const char *const units[] = { "ns", "us", "ms", "s", NULL };
	unsigned long ul;
	double d;

	switch (g->kind) {
	case GB_BOOL:	/* GB reads any word as true: only these two mean what they say */
	case GB_ANY:	/* GB reads any value of these; nothing to check */
		return 1;
	case GB_COUNT:
		return !parse_ulong(v, &ul, g->name[0] == 'v' ? 0 : 1) && ul <= 1000000;
	case GB_SECONDS:
		if (!parse_double(v, &d, 0, 1e6))
			return 1;
		return gb_seconds_1_8(g, a, v, err, errlen);
	case GB_FORMAT:
		/* its check aborts the process (SIGABRT) at the first run with a
		 * counter the first run lacked, as ours do */
		if (!strcmp(v, "csv"))
			return sb_cmd_err(err, errlen, "'%s': Google Benchmark's CSV reporter "
					  "aborts when benchmarks report different counters; "
					  "--out=DIR writes DIR/results.csv", a);
		return one_of(v, formats);
	case GB_UNIT:
		return one_of(v, units);
	case GB_FILE:
		return *v ? gb_file_check(v, err, errlen) ? -1 : 1 : 0;
	case GB_CONTEXT:
		return gb_context_ok(v);
	}
	return 1;
}

/* 0 if a --benchmark_* (or --v=) flag is known and its value well formed */
static int gb_flag_check(const char *a, char *err, size_t errlen)
{
	const struct gb_flag *g = gb_flag_find(a);
	const char *eq = strchr(a, '='), *v = eq ? eq + 1 : "";
	int ok;

	if (!g || !gb_flag_like(a))
		return sb_cmd_err(err, errlen, "unknown option '%s'", a);
	if (g->kind == GB_BOOL && eq && strcmp(v, "true") && strcmp(v, "false"))
		return sb_cmd_err(err, errlen, "bad value in '%s': want true or false", a);
	ok = eq || g->kind == GB_BOOL ? gb_value_ok(g, a, v, err, errlen) : 0;
	if (ok == 0)
		snprintf(err, errlen, "bad value in '%s'", a);
	return ok > 0 ? 0 : -1;
}

/* 1,32,512: each in [min, max], repeats dropped, at most SB_ULIST_MAX. */
static int parse_ulist(const char *s, struct sb_ulist *out, double min, double max)
{
	struct sb_ulist l = { 0 };
	char buf[32];

	while (*s) {
		size_t n = strcspn(s, ",");
		unsigned long v;
		int i;

		if (n == 0 || n >= sizeof(buf))
			return -1;
		memcpy(buf, s, n);
		buf[n] = '\0';
		if (parse_ulong(buf, &v, (unsigned long)min) || (double)v > max)
			return -1;
		for (i = 0; i < l.n && l.v[i] != v; i++)
			;
		if (i == l.n) {
			if (l.n == SB_ULIST_MAX)
				return -1;
			l.v[l.n++] = v;
		}
		s += n;
		if (*s && !*++s)	/* a trailing comma */
			return -1;
	}
	if (!l.n)
		return -1;
	*out = l;
	return 0;
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
	case SB_OPT_ULIST:
		return v && !parse_ulist(v, op->value, op->min, op->max) ? 1 : -1;
	}
	return 0;
}

/* An option of table t: 1 consumed, 0 not there, -1 bad value (*bad says
 * which).  Drivers of one family may share an option name (each keeps its
 * own copy). */
static int parse_table(const struct sb_option *t, const char *a, const struct sb_option **bad)
{
	int found = 0;

	for (const struct sb_option *op = t; op && op->name; op++) {
		int r = parse_one(op, a);

		if (r < 0) {
			*bad = op;
			return -1;
		}
		found |= r;
	}
	return found;
}

/* "bad value in '--x=v': want ..." — what the option would have accepted. */
static void bad_value(const struct sb_option *op, const char *a, char *err, size_t errlen)
{
	char want[512];
	size_t n = 0;

	switch (op->type) {
	case SB_OPT_FLAG:
		snprintf(err, errlen, "'--%s' is a flag and takes no value (got '%s')", op->name, a);
		return;
	case SB_OPT_DOUBLE:
		snprintf(want, sizeof(want), "a number from %g to %g%s%s", op->min, op->max,
			 op->arg ? " " : "", op->arg ? op->arg : "");
		break;
	case SB_OPT_ULONG:
		snprintf(want, sizeof(want), "a whole number from %.0f to %.0f", op->min, op->max);
		break;
	case SB_OPT_ULIST:
		snprintf(want, sizeof(want), "a comma list of at most %d whole numbers from %.0f "
			 "to %.0f", SB_ULIST_MAX, op->min, op->max);
		break;
	case SB_OPT_STRING:
		if (!op->choices) {
			snprintf(want, sizeof(want), "a non-empty %s", op->arg ? op->arg : "value");
			break;
		}
		n = (size_t)snprintf(want, sizeof(want), "one of ");
		for (const char *const *c = op->choices; *c && n < sizeof(want); c++)
			n += (size_t)snprintf(want + n, sizeof(want) - n, "%s%s", *c, c[1] ? ", " : "");
		break;
	}
	snprintf(err, errlen, "bad value in '%s': want %s", a, want);
}

/* argv[i] repeats an earlier option with another value: the last one would
 * win silently, so it is refused (the same value twice passes). */
static int repeated(char **argv, int i, char *err, size_t errlen)
{
	const char *a = argv[i];
	size_t k = strcspn(a, "=");

	if (strncmp(a, "--", 2) || k <= 2)
		return 0;
	for (int j = 1; j < i; j++)
		if (!strncmp(argv[j], a, k) && (argv[j][k] == '=' || !argv[j][k]) &&
		    strcmp(argv[j], a))
			return sb_cmd_err(err, errlen, "'%s' repeats '%s' with another value: give "
					  "%.*s once", a, argv[j], (int)k, a);
	return 0;
}

/* A positional argument: kept in args->pos, or -1 with err. */
static int positional(const struct sb_command *c, int maxpos, const char *a, struct sb_args *args,
		      char *err, size_t errlen)
{
	if (args->npos < maxpos) {
		args->pos[args->npos++] = a;
		return 0;
	}
	if (maxpos > 0)
		return sb_cmd_err(err, errlen, "too many arguments: stratbench %s takes at most %d "
				  "(got '%s' as number %d)", c->name, maxpos, a, maxpos + 1);
	return sb_cmd_err(err, errlen, "unexpected argument '%s' (see stratbench %s --help)", a,
			  c->name);
}

/* An option of c's tables: 0 parsed, or -1 with err. */
static int table_option(const struct sb_command *c, const char *a, char *err, size_t errlen)
{
	const struct sb_option *bad = NULL;
	int r = parse_table(c->options, a, &bad);

	/* every driver that has the option parses it: drivers of one
	 * family may share a name (shootdown's --batch), each with its
	 * own copy and bounds */
	for (int f = 0; r >= 0 && c->family_options && sb_drivers[f]; f++) {
		int rf = parse_table(sb_drivers[f]->options, a, &bad);

		r = rf < 0 ? rf : r | rf;
	}
	if (r < 0) {
		bad_value(bad, a, err, errlen);
		return -1;
	}
	if (!r)
		return sb_cmd_err(err, errlen, "unknown option '%s' (see stratbench %s --help)", a,
				  c->name);
	return 0;
}

/* Does table t name the option name[0..n)? */
static bool table_has(const struct sb_option *t, const char *name, size_t n)
{
	for (const struct sb_option *op = t; op && op->name; op++)
		if (strlen(op->name) == n && !strncmp(op->name, name, n))
			return true;
	return false;
}

/* Does some driver of family fam take the option name[0..n)?  --lock is
 * parsed by the common table, but only a family whose driver takes a lock
 * (window's policies) uses it: the lock family's locks are its strategies. */
static bool family_takes(const char *fam, const char *name, size_t n)
{
	bool lock = n == 4 && !strncmp(name, "lock", 4);

	for (int f = 0; sb_drivers[f]; f++)
		if (!strcmp(sb_drivers[f]->family, fam) &&
		    (lock ? sb_drivers[f]->takes_lock != NULL :
			    table_has(sb_drivers[f]->options, name, n)))
			return true;
	return false;
}

/* "window" or "window/shootdown": the families that take name[0..n) */
static void owners(const char *name, size_t n, char *buf, size_t len)
{
	size_t k = 0;

	buf[0] = '\0';
	for (int f = 0; sb_drivers[f] && k < len; f++) {
		bool seen = false;	/* two drivers may share a family (shootdown) */

		for (int g = 0; g < f; g++)
			seen |= !strcmp(sb_drivers[g]->family, sb_drivers[f]->family);
		if (!seen && family_takes(sb_drivers[f]->family, name, n))
			k += (size_t)snprintf(buf + k, len - k, "%s%s", k ? "/" : "",
					      sb_drivers[f]->family);
	}
}

/* With one family chosen (--family=F), an option only other families'
 * drivers take would be parsed and then ignored: the run would look like
 * it honoured it.  who[len]: the families that take it. */
bool sb_option_foreign(const char *fam, const char *a, char *who, size_t len)
{
	size_t n = strcspn(a, "=");

	if (strncmp(a, "--", 2) || family_takes(fam, a + 2, n - 2))
		return false;
	owners(a + 2, n - 2, who, len);
	return *who;	/* none: every family's, or Google Benchmark's */
}

/* Checked after every option is parsed, so their order does not matter;
 * an unknown F is the plan's error. */
static int foreign_options(int argc, char **argv, char *err, size_t errlen)
{
	const char *fam = NULL;
	bool known = false;
	char who[128];

	for (int i = 1; i < argc; i++)
		if (!strncmp(argv[i], "--family=", 9))
			fam = argv[i] + 9;
	for (int f = 0; fam && sb_drivers[f]; f++)
		known |= !strcmp(sb_drivers[f]->family, fam);
	for (int i = 1; known && i < argc; i++)
		if (sb_option_foreign(fam, argv[i], who, sizeof(who)))
			return sb_cmd_err(err, errlen, "%.*s is a %s option; --family=%s does not "
					  "take it", (int)strcspn(argv[i], "="), argv[i], who, fam);
	return 0;
}

static int cmd_parse(const struct sb_command *c, int argc, char **argv, struct sb_args *args,
		     char *err, size_t errlen)
{
	int maxpos = args->npos;

	args->npos = 0;
	args->gb_argc = 0;
	args->gb_argv = calloc(argc + 4, sizeof(char *));
	if (!args->gb_argv)
		return sb_cmd_err(err, errlen, "out of memory");
	args->gb_argv[args->gb_argc++] = argv[0];
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (repeated(argv, i, err, errlen))
			return -1;
		if (c->gbench_flags && gb_flag_like(a)) {
			if (gb_flag_check(a, err, errlen))
				return -1;
			args->gb_argv[args->gb_argc++] = argv[i];
		} else if (a[0] != '-' ? positional(c, maxpos, a, args, err, errlen)
				       : table_option(c, a, err, errlen)) {
			return -1;
		}
	}
	args->gb_argv[args->gb_argc] = NULL;
	return c->family_options ? foreign_options(argc, argv, err, errlen) : 0;
}

/* Errors echo user input: keep them one line (err.h). */
int sb_cmd_parse(const struct sb_command *c, int argc, char **argv, struct sb_args *args,
		 char *err, size_t errlen)
{
	int rc = cmd_parse(c, argc, argv, args, err, errlen);

	if (rc)
		sb_err_oneline(err);
	return rc;
}

int sb_cmd_args(const struct sb_command *c, int argc, char **argv, struct sb_args *args)
{
	char err[4200];
	int rc = sb_cmd_parse(c, argc, argv, args, err, sizeof(err));

	if (rc || !c->gbench_flags)
		sb_args_free(args);
	return rc ? sb_cmd_error(-1, "%s", err) : 0;
}

int sb_cmd_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

int sb_cmd_error(int rc, const char *fmt, ...)
{
	va_list ap;

	fputs("stratbench: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return rc;
}

void sb_args_free(struct sb_args *args)
{
	free(args->gb_argv);
	args->gb_argv = NULL;
}

/* The options every family shares: parsed into cur, copied out by
 * sb_opts_parse.  The help prints the defaults from here.  --ab and its
 * options: unset 0 (each names its default in the help). */
#define RUN_DEFAULTS { .threads = "auto", .placement = "auto", .counters = "default", \
		       .console = "table", .cv_threshold = 5 }
static struct sb_opts cur = RUN_DEFAULTS;
static const char *const console_modes[] = { "table", "gbench", "counters", NULL };
static unsigned long home_node = ULONG_MAX;	/* unset: node of thread 0's CPU */
static const char *const suite_names[] = { "default", "quick", NULL };	/* suite.c's */
static unsigned long ab_pairs;

const struct sb_option sb_run_options[] = {
	{ "family", SB_OPT_STRING, &cur.family, 0, 0, NULL, "F",
	  "one family of `stratbench list` (default: every family)" },
	{ "strategy", SB_OPT_STRING, &cur.strategy, 0, 0, NULL, "a,b,...",
	  "strategies by name, see `stratbench list` (default: all registered)" },
	{ "lock", SB_OPT_STRING, &cur.lock, 0, 0, NULL, "L,...|all",
	  "lock(s) for lock-based policies (default: queued where registered, else ttas)" },
	{ "threads", SB_OPT_STRING, &cur.threads, 0, 0, NULL, "1,2,...|auto|all",
	  "thread counts, ranges allowed (1-4,8); auto = powers of two below #PUs plus cores per package, +1, all "
	  "cores and all PUs; all = 1 to #PUs" },
	{ "placement", SB_OPT_STRING, &cur.placement, 0, 0, NULL, "P,...|auto",
	  "compact, cores, scatter or list:CPUS (hwloc list, its CPUs taken in ascending "
	  "order: list:1,0 pins as list:0,1); auto = those that differ here" },
	{ "out", SB_OPT_STRING, &cur.out, 0, 0, NULL, "DIR",
	  "write DIR/gbench.json, results.csv, runs.jsonl, run.json; refuses a DIR holding "
	  "results (default: none)" },
	{ "label", SB_OPT_STRING, &cur.label, 0, 0, NULL, "NAME",
	  "names the run (prev, current, haswell-2s) in the JSON context, compare, plots "
	  "and merge; no / , \" \\ (default: none)" },
	{ "quiet", SB_OPT_FLAG, &cur.quiet, 0, 0, NULL, NULL,
	  "no progress line on the terminal" },
	{ "console", SB_OPT_STRING, &cur.console, 0, 0, console_modes, "table|gbench|counters",
	  "table: a few key metrics per family, a row per benchmark; counters: the table "
	  "and each row's non-zero counters; gbench: Google Benchmark's console "
	  "(docs/console.md; default: table)" },
	{ "cv-threshold", SB_OPT_DOUBLE, &cur.cv_threshold, 0, 1000, NULL, "%",
	  "flag benchmarks whose repetitions' CV of ops_per_s exceeds it (default: 5)" },
	{ "resume", SB_OPT_STRING, &cur.resume, 0, 0, NULL, "DIR",
	  "finish an interrupted run or suite: what DIR lacks, with DIR's recorded command "
	  "line (only --quiet and --console may be added)" },
	{ "home-node", SB_OPT_ULONG, &home_node, 0, INT_MAX, NULL, "N",
	  "NUMA node for the shared state (default: node of thread 0's CPU)" },
	{ "topology", SB_OPT_STRING, &cur.topology, 0, 0, NULL, "T",
	  "synthetic:DESC or xml:FILE: with --dry-run, the plan and its time for that machine; "
	  "a run refuses any but this machine (default: this machine)" },
	{ "counters", SB_OPT_STRING, &cur.counters, 0, 0, NULL, "LIST|none",
	  "counters around every benchmark's timed region (see `stratbench counters`); "
	  "default may be combined with others: default,dTLB-load-misses" },
	{ "counters-ab", SB_OPT_FLAG, &cur.counters_ab, 0, 0, NULL, NULL,
	  "every benchmark twice, .../counters:none and .../counters:on: the cost of "
	  "counting as a same-run ratio" },
	{ "limits", SB_OPT_FLAG, &cur.limits, 0, 0, NULL, NULL,
	  "first measure the machine's limits (the calibrate family, briefly) so window "
	  "and lock results carry limit_ops and of_limit" },
	{ "suite", SB_OPT_STRING, &cur.suite, 0, 0, suite_names, "default|quick",
	  "run a named suite: its stages (each a run into --out or a directory under it), "
	  "their plots and the summary; other options go to its first stage (default: none; "
	  "--out default: results/HOST-DATE)" },
	{ "dry-run", SB_OPT_FLAG, &cur.dry_run, 0, 0, NULL, NULL,
	  "list the benchmarks (every stage's, with --suite) and the time estimate (here "
	  "it times a few empty calls); run no benchmark, write nothing" },
	{ "ab", SB_OPT_STRING, &cur.ab, 0, 0, NULL, "A,B[;A,B...]",
	  "paired comparison: A and B as alternating short trials, the ratio B/A with its "
	  "95 % interval; A, B: strategy[+key:value...] (+lock:ticket, +batch:32); "
	  "one A/B per thread count and placement (docs/precision.md)" },
	{ "min-pairs", SB_OPT_ULONG, &ab_pairs, 20, 1000000, NULL, "N",
	  "--ab: pairs of trials per comparison before --precision may stop (default: 20)" },
	{ "trial-time", SB_OPT_DOUBLE, &cur.trial_time, 0.001, 60, NULL, "S",
	  "--ab: length of one trial in seconds (default: 0.05)" },
	{ "precision", SB_OPT_DOUBLE, &cur.precision, 0.01, 1000, NULL, "PCT",
	  "--ab: add pairs until the interval's half-width is at most PCT % of the ratio, "
	  "or --max-time (default: off)" },
	{ "max-time", SB_OPT_DOUBLE, &cur.max_time, 1, 1e6, NULL, "S",
	  "--precision: seconds per comparison before it stops short (default: 120)" },
	{ 0 },
};

int sb_opts_parse(struct sb_opts *o, int argc, char **argv, char *err, size_t errlen)
{
	struct sb_args args = { .npos = 0 };
	int rc;

	cur = (struct sb_opts)RUN_DEFAULTS;
	home_node = ULONG_MAX;
	ab_pairs = 0;
	rc = sb_cmd_parse(sb_command_find("run"), argc, argv, &args, err, errlen);
	*o = cur;
	o->home_node = home_node == ULONG_MAX ? -1 : (int)home_node;
	o->ab_pairs = (int)ab_pairs;
	o->gb_argc = args.gb_argc;
	o->gb_argv = args.gb_argv;
	/* a label names files and plot series: no path or CSV separators */
	if (!rc && o->label && strpbrk(o->label, "/\n\",\\")) {
		snprintf(err, errlen, "bad value in '--label=%s': want a name without / , \" \\",
			 o->label);
		sb_err_oneline(err);
		rc = -1;
	}
	return rc;
}

void sb_opts_free(struct sb_opts *o)
{
	free(o->gb_argv);
	o->gb_argv = NULL;
}

