/* null — does nothing and is never limited: what the harness itself costs per
 * op (clock read and stop check amortised over a chunk, one call per op). */
#include <stratbench/window.h>

static bool null_update(struct sb_window *w, sb_ticks now, unsigned long nr_pages,
			struct sb_window_stats *st)
{
	(void)w, (void)now, (void)nr_pages, (void)st;
	return false;
}

SB_WINDOW_POLICY(null,
	.summary   = "does nothing: the harness's own cost per op",
	.update    = null_update,
	.uses_lock = false,
	.stretches = false,
	.exact     = true);
