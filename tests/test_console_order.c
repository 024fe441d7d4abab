/* test_console_order — the console's row order (console_order.c): within a
 * family by strategy in the plan's order, then threads; a point done before
 * (--resume: in the plan, not run now) takes no rank, or the rows after it
 * would wait for a row that never comes (the check that fails if it did). */
#include <string.h>

#include "console/console.h"
#include "results/point.h"

#include "check.h"

static struct sb_point_fields pt(const char *strategy, int threads)
{
	struct sb_point_fields f;

	memset(&f, 0, sizeof(f));
	strcpy(f.family, "lock");
	strcpy(f.strategy, strategy);
	f.threads = threads;
	return f;
}

int main(void)
{
	/* the plan's order: threads outer, as plan.c registers them */
	const char *names[] = { "tas/1", "ticket/1", "tas/2", "ticket/2" };
	struct sb_point_fields f[4] = { pt("tas", 1), pt("ticket", 1), pt("tas", 2),
					pt("ticket", 2) };
	const int want[4] = { 0, 2, 1, 3 };	/* tas 1, tas 2, ticket 1, ticket 2 */

	for (int i = 0; i < 4; i++)
		sb_points_add(names[i], &f[i]);
	for (int i = 0; i < 4; i++)
		CHECK(sb_console_rank(sb_points_find(names[i])) == want[i], "%s: rank %d, want %d",
		      names[i], sb_console_rank(sb_points_find(names[i])), want[i]);
	/* tas 2 done before: ticket 1 and ticket 2 move up, tas 1 stays first */
	sb_points_set_done("tas/2");
	CHECK(sb_console_rank(sb_points_find("tas/1")) == 0, "resume: tas/1 first, got %d",
	      sb_console_rank(sb_points_find("tas/1")));
	CHECK(sb_console_rank(sb_points_find("ticket/1")) == 1,
	      "resume: ticket/1 right after tas/1, got %d", sb_console_rank(sb_points_find("ticket/1")));
	CHECK(sb_console_rank(sb_points_find("ticket/2")) == 2,
	      "resume: ticket/2 third, got %d", sb_console_rank(sb_points_find("ticket/2")));
	sb_points_clear();
	return check_done("test_console_order");
}
