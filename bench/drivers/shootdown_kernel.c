/* shootdown_kernel.c — the real kernel's TLB shootdowns, beside the
 * simulated machine: shootdown/kernel-madvise/<immediate|batched>/batch:B/
 * threads:N/place:P, kernel-mprotect/…, kernel-move_pages/… (the engine:
 * kshoot.h).  Google Benchmark's time is the initiator's inside the calls,
 * per page; IPIs come from /proc/interrupts' TLB and CAL rows around rounds;
 * the preemption counters are run/driver.c's, as for every team. */
#include "run/limits.h"
#include "drivers/drivers.h"

#include <stdlib.h>
#include <string.h>

#include "drivers/kshoot.h"

/* Bounds one round (the stretch between two /proc/interrupts reads). */
#define SB_KSHOOT_ROUND_MAX (1 << 20)

static struct sb_ulist batches = { 3, { 1, 32, 512 } };

static const struct sb_option kshoot_options[] = {
	{ "batch", SB_OPT_ULIST, &batches, 1, 512, NULL, "LIST",
	  "pages per batch, comma list of 1..512 (default 1,32,512)" },
	{ .name = NULL },
};

/* in enum sb_kshoot_op's order; the call is the name past "kernel-" */
static const char *const kshoot_names[] = {
	"kernel-madvise", "kernel-mprotect", "kernel-move_pages", NULL,
};

/* mode (bare in the name: .../immediate/batch:32/...) and batch */
static int kshoot_variants(const char *strategy, struct sb_params *sets, int max)
{
	int n = 0;

	(void)strategy;
	for (int i = 0; i < batches.n && n + 2 <= max; i++)
		for (int b = 0; b < 2; b++, n++) {
			sb_params_set_bare(&sets[n], "mode", b ? "batched" : "immediate");
			sb_params_set(&sets[n], "batch", "%lu", batches.v[i]);
		}
	return n;
}

static const char *kshoot_unavailable(const char *strategy, const struct sb_topo *t, char *buf,
				      size_t len)
{
	return strcmp(strategy, "kernel-move_pages") ? NULL :
						       sb_move_pages_unavailable(t, buf, len);
}

static void report(sb_state *st, const struct sb_kshoot_result *r, enum sb_kshoot_op op,
		   unsigned batch)
{
	const double pages = (double)r->pages;
	/* per call, each responder by IPI, off the mm, or missed (kshoot.h) */
	const double rb = (double)(r->resp_by_ipi + r->resp_off_mm + r->resp_missed);
	const struct sb_counter_row c[] = {
		{ "us_per_page", (double)r->timed_ns * 1e-3 / pages },
		{ "pages_per_s", pages / ((double)r->timed_ns * 1e-9) },
		{ "calls_per_page", (double)r->calls / pages },
		{ r->has_irq[SB_IRQ_TLB] ? "tlb_irqs_per_page" : NULL,
		  (double)r->irq[SB_IRQ_TLB] / pages },
		{ r->has_irq[SB_IRQ_TLB] ? "tlb_irqs_per_page_all" : NULL,
		  (double)r->irq_all[SB_IRQ_TLB] / pages },
		{ r->has_irq[SB_IRQ_CAL] ? "cal_irqs_per_page" : NULL,
		  (double)r->irq[SB_IRQ_CAL] / pages },
		/* the seed's User / System / Elapsed: the whole process's calls, faults, spins */
		{ "user_s", (double)r->user_ns * 1e-9 },
		{ "sys_s", (double)r->sys_ns * 1e-9 },
		{ "elapsed_s", (double)r->elapsed_ns * 1e-9 },
		/* a preempted responder has our mm unloaded: no IPI is owed to it */
		{ r->touches ? "responder_csw_per_batch" : NULL,
		  (double)r->responder_csw * batch / pages },
		{ rb ? "resp_ipi_share" : NULL, (double)r->resp_by_ipi / rb },
		{ rb ? "resp_off_mm_share" : NULL, (double)r->resp_off_mm / rb },
		{ rb ? "resp_missed_share" : NULL, (double)r->resp_missed / rb },
		{ op == SB_KSHOOT_MOVE_PAGES ? "not_moved_per_page" : NULL,
		  (double)r->not_moved / pages },
	};
	char label[512];

	if (!r->pages || !r->timed_ns)
		return;
	SB_COUNTER_ROWS(st, c);
	/* a call's time against the real kernel's remote flush round trip */
	sb_flush_rtt_report(st, "flush:remote", r->calls ? (double)r->timed_ns /
			    (double)r->calls : 0);
	sb_kshoot_unavailable(r, label, sizeof(label));
	if (*label)
		sb_state_append_label(st, label);
}

static void kshoot_body(sb_state *st, void *arg)
{
	const struct sb_point *pt = arg;
	struct sb_kshoot_cfg cfg = {
		.batched = !strcmp(sb_params_get(&pt->f.params, "mode"), "batched"),
		.batch = (unsigned)strtoul(sb_params_get(&pt->f.params, "batch"), NULL, 10),
		.threads = pt->threads,
		.cpus = pt->cpus,
		.home = pt->home_node,
	};
	size_t size = (size_t)cfg.batch * sb_kshoot_page_size();
	struct sb_kshoot_result res = { 0 };
	struct sb_drive d = { 0 };
	struct sb_kshoot *k;
	char err[300], msg[400];
	int64_t n;
	void *region;

	while (kshoot_names[cfg.op + 1] && strcmp(kshoot_names[cfg.op], pt->strategy))
		cfg.op++;
	if (cfg.op == SB_KSHOOT_MOVE_PAGES) {
		cfg.target = sb_move_target(pt->topo, cfg.home);
		if (cfg.target < 0) {
			sb_state_skip_with_error(st, "move_pages needs a second NUMA node");
			return;
		}
	}
	region = sb_drive_alloc(st, pt, size);
	if (!region)
		return;
	k = sb_kshoot_open(&cfg, region, err, sizeof(err));
	if (!k) {
		sb_state_skip_with_error(st, err);
		goto out;
	}
	/* --counters: the team's hooks around every round, reported per page;
	 * the members' CPU time and switches against the rounds' */
	d.team = sb_kshoot_team(k);
	d.n = cfg.threads;
	d.ops = calloc((size_t)d.n, sizeof(*d.ops));
	sb_drive_counters_open(&d, pt);
	while ((n = sb_state_keep_running_batch(st, SB_KSHOOT_ROUND_MAX)) > 0) {
		uint64_t pages = res.pages, ns = res.timed_ns;

		sb_kshoot_round(k, (uint64_t)n, &res);
		/* the preemption counters, as the other families' (run.h) */
		sb_drive_add_use(&d, sb_kshoot_last(k));
		if (res.err) {
			snprintf(msg, sizeof(msg), "%s failed: %s",
				 kshoot_names[cfg.op] + strlen("kernel-"),
				 cfg.op == SB_KSHOOT_MOVE_PAGES ? sb_move_pages_strerror(res.err) :
				 strerror(res.err));
			sb_state_skip_with_error(st, msg);
			break;
		}
		if (res.not_present) {
			snprintf(msg, sizeof(msg), "%llu pages were not mapped when invalidated: "
				 "the responders' handshake is broken",
				 (unsigned long long)res.not_present);
			sb_state_skip_with_error(st, msg);
			break;
		}
		/* a round runs whole batches: time per page, n pages' worth */
		sb_state_set_iteration_time(st, (double)(res.timed_ns - ns) * 1e-9 * (double)n /
						(double)(res.pages - pages));
	}
	sb_drive_counters_close(&d);
	if (!sb_state_error_occurred(st)) {
		if (cfg.op == SB_KSHOOT_MOVE_PAGES && res.not_moved == res.pages)
			sb_state_skip_with_error(st, res.bad_status ?
						 sb_page_status_str(res.bad_status) :
						 "move_pages moved no page");
		else
			report(st, &res, cfg.op, cfg.batch);
	}
	/* counters only: elapsed 0 leaves out ops_per_s and fairness (responders
	 * have no quota); cnt:NAME/op is per page */
	d.elapsed_ns = 0;
	d.total_ops = res.pages;
	sb_drive_report(st, &d);
out:
	sb_kshoot_close(k);
	sb_drive_free(pt, region, size);
}

const struct sb_family_driver sb_shootdown_kernel_driver = {
	.family = "shootdown",
	.summary = "the real kernel's TLB shootdowns: shootdown/kernel-<call>/<immediate|batched>/"
		   "batch:B/threads:N/place:P",
	.reg = SB_FAMILY_MAX,
	.names = kshoot_names,
	.options = kshoot_options,
	.variants = kshoot_variants,
	.unavailable = kshoot_unavailable,
	.body = kshoot_body,
};
