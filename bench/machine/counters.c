/* counters.c — the --counters list, its probe on this machine, and one
 * benchmark's set: per-member perf groups read around each round, the
 * machine-wide /proc files read around the timed region (counters.h). */
#include "machine/counters.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <stratbench/arch.h>

#include "machine/perf.h"
#include "machine/procfs.h"

#define SB_MAX_COUNTERS 96

/* Reported names: "cnt:" + the counter (+ "@team"/"@all" for irq rows). */
#define SB_CNT_PREFIX "cnt:"

const char sb_counters_default[] =
	"task-clock,page-faults,context-switches,cpu-migrations,cycles,instructions,cache-misses,"
	"rusage,"
	"vmstat:numa_hint_faults,vmstat:numa_hint_faults_local,vmstat:numa_pages_migrated,"
	"vmstat:numa_pte_updates,vmstat:numa_huge_pte_updates,vmstat:numa_hit,vmstat:numa_local,"
	"vmstat:numa_other,vmstat:numa_interleave,vmstat:pgmigrate_success,vmstat:pgmigrate_fail,"
	"vmstat:nr_tlb_remote_flush,vmstat:nr_tlb_remote_flush_received,"
	"vmstat:nr_tlb_local_flush_all,vmstat:nr_tlb_local_flush_one,"
	"irq:TLB,irq:CAL";
/* added to the default set as root: tracefs and tracepoints need it here */
static const char default_root[] =
	"tlb:tlb_flush,migrate:mm_migrate_pages,sched:sched_move_numa,sched:sched_stick_numa,"
	"sched:sched_swap_numa";

enum kind { K_PERF, K_VMSTAT, K_IRQ, K_RUSAGE };

static const char *const ru_names[] = { "user_s", "sys_s", "minflt", "majflt", "nvcsw",
					"nivcsw", NULL };
enum { RU_N = 6 };

struct cnt {
	char name[128];		/* canonical, as requested */
	char shown[136];	/* as reported: name, or name:u */
	enum kind kind;
	struct sb_perf_ev ev;
	int ru;			/* K_RUSAGE: index in ru_names */
	char field[64];		/* K_VMSTAT field, K_IRQ row */
	char *why;		/* NULL: available here */
};

struct sb_counters_spec {
	int n;
	struct cnt c[SB_MAX_COUNTERS];
	char note[160];
};

/* ---- parsing ------------------------------------------------------------ */

static bool all_of(const char *s, const char *set_extra, bool upper, bool lower)
{
	if (!*s)
		return false;
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (isdigit(ch) || (upper && isupper(ch)) || (lower && islower(ch)) ||
		    strchr(set_extra, ch))
			continue;
		return false;
	}
	return true;
}

static bool has_upper(const char *s)
{
	return strpbrk(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != NULL;
}

static int add(struct sb_counters_spec *s, const char *name, char *err, size_t errlen,
	       struct cnt **out)
{
	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->c[i].name, name)) {
			*out = NULL;	/* a repeat: counted once */
			return 0;
		}
	if (s->n == SB_MAX_COUNTERS) {
		snprintf(err, errlen, "too many counters (at most %d)", SB_MAX_COUNTERS);
		return -1;
	}
	*out = &s->c[s->n++];
	memset(*out, 0, sizeof(**out));
	snprintf((*out)->name, sizeof((*out)->name), "%s", name);
	snprintf((*out)->shown, sizeof((*out)->shown), "%s", name);
	return 0;
}

static void unavailable(struct cnt *c, const char *why)
{
	free(c->why);
	c->why = strdup(why);
}

/* Probes a perf event: available (shown gets :u when only user space counts) or the reason. */
static void probe_perf(struct cnt *c)
{
	char why[320];
	int fd = sb_perf_open_probe(&c->ev);

	if (fd >= 0) {
		close(fd);
		if (c->ev.user_only && c->ev.mode == SB_PERF_USER_PART &&
		    !strstr(c->name, ":u"))
			snprintf(c->shown, sizeof(c->shown), "%s:u", c->name);
		return;
	}
	sb_perf_why(-fd, &c->ev, why, sizeof(why));
	unavailable(c, why);
}

static int parse_one(struct sb_counters_spec *s, const char *a, char *err, size_t errlen);

/* "rusage" (user and system seconds) or "rusage:FIELD" */
static int parse_rusage(struct sb_counters_spec *s, const char *a, char *err, size_t errlen)
{
	struct cnt *c;
	int r;

	if (!strcmp(a, "rusage"))
		return parse_one(s, "rusage:user_s", err, errlen) ||
		       parse_one(s, "rusage:sys_s", err, errlen) ? -1 : 0;
	for (r = 0; ru_names[r] && strcmp(ru_names[r], a + 7); r++)
		;
	if (!ru_names[r]) {
		snprintf(err, errlen, "unknown counter '%s' (rusage:user_s, sys_s, minflt, majflt, "
			 "nvcsw or nivcsw)", a);
		return -1;
	}
	if (add(s, a, err, errlen, &c))
		return -1;
	if (c) {
		c->kind = K_RUSAGE;
		c->ru = r;
	}
	return 0;
}

/* "vmstat:FIELD" or "irq:ROW": present in this machine's file, or why not */
static int parse_proc(struct sb_counters_spec *s, const char *a, char *err, size_t errlen)
{
	bool vm = a[0] == 'v';
	const char *f = a + (vm ? 7 : 4), *hint = "";
	char why[320], *text;
	struct cnt *c;
	uint64_t v;
	int cpu = 0, r;

	/* irq rows may be upper case (TLB), vmstat fields are not */
	if (!all_of(f, "_", !vm, true) || strlen(f) >= sizeof(c->field)) {
		snprintf(err, errlen, "malformed counter '%s' (want %s)", a,
			 vm ? "vmstat:FIELD, a /proc/vmstat field such as numa_hint_faults" :
			      "irq:ROW, a /proc/interrupts row such as TLB or CAL");
		return -1;
	}
	if (add(s, a, err, errlen, &c))
		return -1;
	if (!c)
		return 0;	/* a repeat */
	c->kind = vm ? K_VMSTAT : K_IRQ;
	snprintf(c->field, sizeof(c->field), "%s", f);
	text = sb_proc_slurp(vm ? "/proc/vmstat" : "/proc/interrupts", why, sizeof(why));
	if (!text) {
		unavailable(c, why);
		return 0;
	}
	r = vm ? sb_vmstat_parse(text, f, &v, why, sizeof(why)) :
		 sb_irq_sum(text, &(struct sb_irq_query){ f, &cpu, 0 }, &v, &v, why,
			    sizeof(why));
	free(text);
	if (r == 0) {
		if (!vm && !strcmp(f, "TLB"))
			hint = " (POWER and arm64 broadcast TLB invalidations: no IPIs)";
		else if (vm && !strncmp(f, "nr_tlb_", 7))
			hint = " (needs CONFIG_DEBUG_TLBFLUSH)";
		else if (vm && !strncmp(f, "numa_", 5))
			hint = " (needs CONFIG_NUMA / NUMA balancing)";
		snprintf(why, sizeof(why), vm ? "no field %s in /proc/vmstat on this kernel%s" :
			 "no %s row in /proc/interrupts here%s", f, hint);
	}
	if (r <= 0)
		unavailable(c, why);
	return 0;
}

const char *sb_counters_silent(const char *tracepoint, const char *arch)
{
	if (!strcmp(tracepoint, "tlb:tlb_flush") && strcmp(arch, "x86_64") &&
	    !(arch[0] == 'i' && !strcmp(arch + 2, "86")))
		return "the kernel defines it on every architecture, only x86 fires it (POWER "
		       "radix invalidates remote TLBs with tlbie broadcasts, arm64 with TLBI "
		       "broadcasts: no event, no IPI)";
	return NULL;
}

/* the architecture this binary runs on, as uname -m names it */
static const char *this_arch(void)
{
	static struct utsname u;

	if (!u.machine[0] && uname(&u))
		return "";
	return u.machine;
}

/* "subsys:event", lowercase: its id from tracefs, or why not */
static int parse_tracepoint(struct sb_counters_spec *s, const char *a, char *err, size_t errlen)
{
	const char *colon = strchr(a, ':');
	char subsys[64], why[320];
	struct cnt *c;

	/* a name is under 120 bytes (parse_one): the cast cannot overflow */
	snprintf(subsys, sizeof(subsys), "%.*s", (int)(colon - a), a);
	if (colon == a || (size_t)(colon - a) >= sizeof(subsys) ||
	    !all_of(subsys, "_", false, true) || !all_of(colon + 1, "_", false, true)) {
		snprintf(err, errlen, "malformed tracepoint '%s' (want subsys:event, e.g. "
			 "tlb:tlb_flush)", a);
		return -1;
	}
	if (add(s, a, err, errlen, &c))
		return -1;
	if (c && sb_counters_silent(a, this_arch()))
		unavailable(c, sb_counters_silent(a, this_arch()));
	else if (c && !sb_perf_tracepoint(subsys, colon + 1, &c->ev, why, sizeof(why)))
		unavailable(c, why);
	else if (c)
		probe_perf(c);
	return 0;
}

/* perf's generic names (with :u), rHEX and raw PMU names */
static int parse_perf(struct sb_counters_spec *s, const char *a, char *err, size_t errlen)
{
	const char *canon, *colon = strchr(a, ':');
	char name[128], base[128], why[320];
	struct sb_perf_ev ev;
	struct cnt *c;
	int r = 1;

	snprintf(base, sizeof(base), "%s", a);
	snprintf(name, sizeof(name), "%s", a);	/* as given, but a generic name's */
	if (colon && !strcmp(colon, ":u"))	/* perf's user-space-only modifier */
		base[colon - a] = '\0';
	if (sb_perf_generic(base, &ev, &canon)) {
		ev.user_only = strcmp(base, a) != 0;
		if (ev.user_only && ev.mode == SB_PERF_KERNEL_ONLY) {
			snprintf(err, errlen, "'%s' happens in the kernel only: '%s' would read 0",
				 canon, a);
			return -1;
		}
		snprintf(name, sizeof(name), "%s%s", canon, ev.user_only ? ":u" : "");
	} else if (has_upper(a)) {	/* DTLB_LOAD_MISSES:WALK_COMPLETED, PM_RUN_CYC */
		r = sb_perf_pfm(a, &ev, why, sizeof(why));
		if (r < 0) {
			snprintf(err, errlen, "%s", why);
			return -1;
		}
	} else if (!sb_perf_rawhex(a, &ev)) {	/* rHEX is lower case */
		snprintf(err, errlen, "unknown counter '%s' (see stratbench counters)", a);
		return -1;
	}
	if (add(s, name, err, errlen, &c))
		return -1;
	if (c && r == 0) {
		unavailable(c, why);
	} else if (c) {
		c->ev = ev;
		probe_perf(c);
	}
	return 0;
}

static int parse_one(struct sb_counters_spec *s, const char *a, char *err, size_t errlen)
{
	const char *colon = strchr(a, ':');

	if (!*a) {
		snprintf(err, errlen, "empty counter name in --counters");
		return -1;
	}
	if (strlen(a) >= 120) {
		snprintf(err, errlen, "counter name too long: '%.40s...'", a);
		return -1;
	}
	if (!all_of(a, "_:.-", true, true)) {
		snprintf(err, errlen, "bad counter name '%s' (letters, digits, _ : . - only)", a);
		return -1;
	}
	if (!strcmp(a, "rusage") || !strncmp(a, "rusage:", 7))
		return parse_rusage(s, a, err, errlen);
	if (!strncmp(a, "vmstat:", 7) || !strncmp(a, "irq:", 4))
		return parse_proc(s, a, err, errlen);
	if (colon && strcmp(colon, ":u") && !has_upper(a))
		return parse_tracepoint(s, a, err, errlen);
	return parse_perf(s, a, err, errlen);
}

/* The items of a comma list in order: 0, or -1 and err. */
static int parse_list(struct sb_counters_spec *s, const char *list, char *err, size_t errlen)
{
	char *dup = strdup(list), *p = dup, *tok;
	int rc = 0;

	/* strsep keeps empty items, so "a,,b" is refused rather than read as "a,b" */
	while (!rc && (tok = strsep(&p, ",")) != NULL) {
		if (!strcmp(tok, "none")) {
			snprintf(err, errlen, "--counters=none cannot be combined with other counters");
			rc = -1;
		} else if (!strcmp(tok, "default")) {
			if (geteuid() != 0)
				snprintf(s->note, sizeof(s->note), "tracepoints (%s) left out of the "
					 "default set: not root", default_root);
			rc = parse_list(s, sb_counters_default, err, errlen);
			if (!rc && geteuid() == 0)
				rc = parse_list(s, default_root, err, errlen);
		} else {
			rc = parse_one(s, tok, err, errlen);
		}
	}
	free(dup);
	return rc;
}

int sb_counters_parse(const char *list, struct sb_counters_spec **out, char *err, size_t errlen)
{
	struct sb_counters_spec *s = calloc(1, sizeof(*s));

	if (strcmp(list, "none") && parse_list(s, list, err, errlen)) {
		sb_counters_spec_free(s);
		return -1;
	}
	*out = s;
	return 0;
}

void sb_counters_spec_free(struct sb_counters_spec *s)
{
	for (int i = 0; s && i < s->n; i++)
		free(s->c[i].why);
	free(s);
}

int sb_counters_count(const struct sb_counters_spec *s) { return s ? s->n : 0; }
const char *sb_counters_name(const struct sb_counters_spec *s, int i) { return s->c[i].name; }
const char *sb_counters_shown(const struct sb_counters_spec *s, int i) { return s->c[i].shown; }
const char *sb_counters_why(const struct sb_counters_spec *s, int i) { return s->c[i].why; }
const char *sb_counters_note(const struct sb_counters_spec *s) { return s ? s->note : ""; }
const char *sb_counters_raw_support(void) { return sb_perf_pfm_support(); }

void sb_counters_note_unavailable(const struct sb_counters_spec *s, FILE *f)
{
	int n = 0;

	for (int i = 0; s && i < s->n; i++)
		n += s->c[i].why != NULL;
	if (!n)
		return;
	fprintf(f, "stratbench: note: %d counter%s unavailable here, not reported:", n,
		n > 1 ? "s" : "");
	for (int i = 0, k = 0; i < s->n; i++)
		if (s->c[i].why)
			fprintf(f, "%s %s", k++ ? "," : "", s->c[i].name);
	fprintf(f, " (why: stratbench counters, or the JSON context's sb_counters_unavailable)\n");
}

const char *const *sb_counters_known(void)
{
	static const char *known[160];
	static char buf[4096];

	if (!known[0]) {
		const char *const *g = sb_perf_generic_names();
		char *p = buf, *t;
		int k = 0;

		for (; *g; g++)
			known[k++] = *g;
		snprintf(buf, sizeof(buf), "%s,%s,ipi:ipi_send_cpu,ipi:ipi_send_cpumask,irq:RES,"
			 "irq:LOC,rusage:minflt,rusage:majflt,rusage:nvcsw,rusage:nivcsw",
			 default_root, sb_counters_default);
		while ((t = strsep(&p, ",")) != NULL && k < 159) {
			if (!strcmp(t, "rusage")) {
				known[k++] = "rusage:user_s";
				known[k++] = "rusage:sys_s";
			} else if (!sb_perf_generic(t, &(struct sb_perf_ev){ 0 }, &(const char *){ 0 })) {
				known[k++] = t;
			}
		}
		known[k] = NULL;
	}
	return known;
}

/* ---- one benchmark's set ------------------------------------------------ */

struct group {
	int fd;			/* leader */
	int nr;
	int idx[SB_MAX_COUNTERS];	/* counter of each value, in read order */
};

/* A member's part (cache-line padded): written by its thread only, read by member 0 after done. */
struct member {
	int ng;
	struct group *g;
	uint64_t *before;		/* per group: the read at enter */
	int fds[SB_MAX_COUNTERS], nfds;
	/* per counter: sums of deltas; could not open on this thread */
	uint64_t raw[SB_MAX_COUNTERS], en[SB_MAX_COUNTERS], run[SB_MAX_COUNTERS];
	bool failed[SB_MAX_COUNTERS];
	int fail_err;			/* the first errno of those */
	int read_errno;			/* a read failed: the benchmark's perf values are void */
	struct rusage ru0;
	double ru[RU_N];
	bool ru_err;
};

struct res {
	char name[160];
	double total;
};

/* The machine-wide files' values of one counter, read at a moment. */
struct proc_snap {
	uint64_t vm, team, all;
	signed char have;	/* 1 present, -1 absent, -2 unreadable, 0 not read */
};

struct sb_counters {
	const struct sb_counters_spec *s;
	int n;
	const int *cpus;
	bool perf, ru;
	struct member **m;
	/* machine-wide, read by member 0 only */
	struct proc_snap *at0;		/* per counter: at begin */
	struct res *res;
	int nres;
	char label[2048];
};

#define READ_WORDS(nr) (3 + (size_t)(nr))

/* Separate allocations per member: each member writes only its own. */
static void *member_alloc(size_t n, size_t size)
{
	size_t bytes = (n * size + SB_CACHELINE - 1) / SB_CACHELINE * SB_CACHELINE;
	void *p;

	if (posix_memalign(&p, SB_CACHELINE, bytes ? bytes : SB_CACHELINE))
		abort();
	memset(p, 0, bytes);
	return p;
}

struct sb_counters *sb_counters_open(const struct sb_counters_spec *s, int n, const int *cpus)
{
	struct sb_counters *c;
	int i;

	if (!s || !s->n)
		return NULL;
	c = calloc(1, sizeof(*c));
	c->s = s;
	c->n = n;
	c->cpus = cpus;
	for (i = 0; i < s->n; i++) {
		c->perf |= s->c[i].kind == K_PERF && !s->c[i].why;
		c->ru |= s->c[i].kind == K_RUSAGE;
	}
	c->m = calloc((size_t)n, sizeof(struct member *));
	for (i = 0; i < n; i++) {
		c->m[i] = member_alloc(1, sizeof(struct member));
		c->m[i]->g = member_alloc((size_t)s->n, sizeof(struct group));
		c->m[i]->before = member_alloc((size_t)s->n * READ_WORDS(s->n), sizeof(uint64_t));
	}
	c->at0 = calloc((size_t)s->n, sizeof(*c->at0));
	c->res = calloc((size_t)s->n * 2, sizeof(*c->res));
	return c;
}

void sb_counters_member_open(int tid, void *arg)
{
	struct sb_counters *c = arg;
	const struct sb_counters_spec *s = c->s;
	struct member *m = c->m[tid];
	int leader[2] = { -1, -1 }, gi[2] = { -1, -1 };

	if (!c->perf)
		return;
	/* Two groups: software events and tracepoints (never multiplexed), and
	 * the PMU's; an event the kernel will not add to its group gets its own. */
	for (int i = 0; i < s->n; i++) {
		const struct cnt *k = &s->c[i];
		int p, fd, g;

		if (k->kind != K_PERF || k->why)
			continue;
		p = k->ev.pmu;
		fd = sb_perf_open(&k->ev, leader[p]);
		if (fd < 0 && leader[p] >= 0) {
			fd = sb_perf_open(&k->ev, -1);
			g = -1;		/* its own group */
		} else {
			g = gi[p];
		}
		if (fd < 0) {
			m->failed[i] = true;
			if (!m->fail_err)
				m->fail_err = -fd;
			continue;
		}
		m->fds[m->nfds++] = fd;
		if (g < 0) {
			g = m->ng++;
			m->g[g].fd = fd;
			if (leader[p] < 0) {
				leader[p] = fd;
				gi[p] = g;
			}
		}
		m->g[g].idx[m->g[g].nr++] = i;
	}
}

/* Reads group g into buf: false, and the first error kept, if it failed. */
static bool read_group(struct member *m, int g, uint64_t *buf)
{
	ssize_t want = (ssize_t)(READ_WORDS(m->g[g].nr) * 8);

	if (read(m->g[g].fd, buf, (size_t)want) == want)
		return true;
	if (!m->read_errno)
		m->read_errno = errno ? errno : EIO;
	return false;
}

void sb_counters_member_enter(int tid, void *arg)
{
	struct sb_counters *c = arg;
	struct member *m = c->m[tid];

	for (int g = 0; g < m->ng; g++)
		read_group(m, g, m->before + g * READ_WORDS(c->s->n));
	if (c->ru && getrusage(RUSAGE_THREAD, &m->ru0))
		m->ru_err = true;
}

static double tv_s(struct timeval t)
{
	return (double)t.tv_sec + (double)t.tv_usec * 1e-6;
}

void sb_counters_member_leave(int tid, void *arg)
{
	struct sb_counters *c = arg;
	struct member *m = c->m[tid];
	uint64_t now[READ_WORDS(SB_MAX_COUNTERS)];
	struct rusage ru;

	for (int g = 0; g < m->ng; g++) {
		const uint64_t *b = m->before + g * READ_WORDS(c->s->n);

		if (!read_group(m, g, now))
			continue;
		/* { nr, time_enabled, time_running, value[nr] } */
		for (int k = 0; k < m->g[g].nr; k++) {
			int i = m->g[g].idx[k];

			m->raw[i] += now[3 + k] - b[3 + k];
			m->en[i] += now[1] - b[1];
			m->run[i] += now[2] - b[2];
		}
	}
	if (c->ru && !m->ru_err && getrusage(RUSAGE_THREAD, &ru) == 0) {
		m->ru[0] += tv_s(ru.ru_utime) - tv_s(m->ru0.ru_utime);
		m->ru[1] += tv_s(ru.ru_stime) - tv_s(m->ru0.ru_stime);
		m->ru[2] += (double)(ru.ru_minflt - m->ru0.ru_minflt);
		m->ru[3] += (double)(ru.ru_majflt - m->ru0.ru_majflt);
		m->ru[4] += (double)(ru.ru_nvcsw - m->ru0.ru_nvcsw);
		m->ru[5] += (double)(ru.ru_nivcsw - m->ru0.ru_nivcsw);
	} else if (c->ru) {
		m->ru_err = true;
	}
}

static void label_add(struct sb_counters *c, const char *what, const char *why)
{
	size_t len = strlen(c->label);

	snprintf(c->label + len, sizeof(c->label) - len, "%s%s: %s",
		 len ? "; " : "counters unavailable in this run: ", what, why);
}

/* Reads the machine-wide files: vmstat fields and irq rows of the spec. */
static void read_proc(struct sb_counters *c, struct proc_snap *at, char *why, size_t whylen)
{
	static const char *const path[] = { [K_VMSTAT] = "/proc/vmstat",
					    [K_IRQ] = "/proc/interrupts" };
	const struct sb_counters_spec *s = c->s;
	char *text[K_RUSAGE + 1] = { NULL }, err[256];
	int i;

	for (int kind = K_VMSTAT; kind <= K_IRQ; kind++)
		for (i = 0; i < s->n; i++)
			if (s->c[i].kind == (enum kind)kind && !s->c[i].why) {
				text[kind] = sb_proc_slurp(path[kind], why, whylen);
				break;
			}
	for (i = 0; i < s->n; i++) {
		const struct cnt *k = &s->c[i];
		const char *t = text[k->kind];
		int r = -1;

		at[i].have = 0;
		if (k->why || (k->kind != K_VMSTAT && k->kind != K_IRQ))
			continue;
		if (t && k->kind == K_VMSTAT)
			r = sb_vmstat_parse(t, k->field, &at[i].vm, err, sizeof(err));
		else if (t)
			r = sb_irq_sum(t, &(struct sb_irq_query){ k->field, c->cpus, c->n },
				       &at[i].team, &at[i].all, err, sizeof(err));
		/* 1 present, 0 absent now, -1 unreadable */
		at[i].have = r == 1 ? 1 : r == 0 ? -1 : -2;
		if (r < 0 && t)
			snprintf(why, whylen, "%s", err);	/* else slurp's reason */
	}
	free(text[K_VMSTAT]);
	free(text[K_IRQ]);
}

void sb_counters_begin(struct sb_counters *c)
{
	char why[256] = "";

	if (c)
		read_proc(c, c->at0, why, sizeof(why));
}

static void add_res(struct sb_counters *c, const char *shown, const char *suffix, double v)
{
	struct res *r = &c->res[c->nres++];

	snprintf(r->name, sizeof(r->name), SB_CNT_PREFIX "%s%s", shown, suffix);
	r->total = v;
}

/* Perf counter i over the members: its total, scaled if multiplexed, or why not in the label. */
static void end_perf(struct sb_counters *c, int i, const struct cnt *k)
{
	double total = 0, minfrac = 1;
	int failed = -1, unscheduled = 0, rerr = 0;
	char buf[320];

	for (int t = 0; t < c->n; t++) {
		const struct member *m = c->m[t];

		if (m->failed[i])
			failed = t;
		else if (m->read_errno)
			rerr = m->read_errno;
		else if (m->run[i] == 0 && m->en[i] > 0)
			unscheduled++;
		else if (m->run[i] > 0) {
			double frac = (double)m->run[i] / (double)m->en[i];

			/* multiplexed: scaled by time enabled / running */
			total += (double)m->raw[i] / frac;
			minfrac = frac < minfrac ? frac : minfrac;
		}
	}
	if (failed >= 0) {
		sb_perf_why(c->m[failed]->fail_err, &k->ev, buf, sizeof(buf));
		label_add(c, k->shown, buf);
	} else if (rerr) {
		snprintf(buf, sizeof(buf), "read failed (%s)", strerror(rerr));
		label_add(c, k->shown, buf);
	} else if (unscheduled) {
		label_add(c, k->shown, "never scheduled on the PMU (too many events "
			  "at once): not counted");
	} else {
		if (minfrac < 0.999) {
			snprintf(buf, sizeof(buf), "multiplexed, counted %.0f%% of the "
				 "time at least, values scaled", minfrac * 100);
			label_add(c, k->shown, buf);
		}
		add_res(c, k->shown, "", total);
	}
}

void sb_counters_end(struct sb_counters *c)
{
	const struct sb_counters_spec *s;
	struct proc_snap *now;
	char why[256] = "";
	int i, t;

	if (!c)
		return;
	s = c->s;
	now = calloc((size_t)s->n, sizeof(*now));
	read_proc(c, now, why, sizeof(why));
	for (i = 0; i < s->n; i++) {
		const struct cnt *k = &s->c[i];

		if (k->why)
			continue;	/* named once per run, in the context */
		switch (k->kind) {
		case K_PERF:
			end_perf(c, i, k);
			break;
		case K_RUSAGE: {
			double total = 0;
			bool err = false;

			for (t = 0; t < c->n; t++) {
				total += c->m[t]->ru[k->ru];
				err |= c->m[t]->ru_err;
			}
			if (err)
				label_add(c, k->shown, "getrusage(RUSAGE_THREAD) failed");
			else
				add_res(c, k->shown, "", total);
			break;
		}
		case K_VMSTAT:
		case K_IRQ:
			if (c->at0[i].have != 1 || now[i].have != 1) {
				label_add(c, k->shown, c->at0[i].have == -1 || now[i].have == -1 ?
					  "absent from /proc at the time of this run" :
					  why[0] ? why : "cannot read /proc");
			} else if (k->kind == K_VMSTAT) {
				/* signed: a gauge may go down */
				add_res(c, k->shown, "", (double)(int64_t)(now[i].vm - c->at0[i].vm));
			} else {
				add_res(c, k->shown, "@team", (double)(now[i].team - c->at0[i].team));
				add_res(c, k->shown, "@all", (double)(now[i].all - c->at0[i].all));
			}
			break;
		}
	}
	free(now);
}

int sb_counters_result(struct sb_counters *c, int i, const char **name, double *total)
{
	if (!c || i < 0 || i >= c->nres)
		return 0;
	*name = c->res[i].name;
	*total = c->res[i].total;
	return 1;
}

const char *sb_counters_label(const struct sb_counters *c)
{
	return c ? c->label : "";
}

void sb_counters_close(struct sb_counters *c)
{
	if (!c)
		return;
	for (int t = 0; t < c->n; t++) {
		struct member *m = c->m[t];

		for (int f = 0; f < m->nfds; f++)
			close(m->fds[f]);
		free(m->g);
		free(m->before);
		free(m);
	}
	free(c->m);
	free(c->at0);
	free(c->res);
	free(c);
}
