#!/usr/bin/env bash
# 31-kernel-madvise — MADV_DONTNEED page by page vs the whole range at once,
# with responders on every other CPU of both packages: each responder CPU
# receives about one IPI per page when zapped page by page, far fewer when
# batched (one flush for the range: a responder switched out at that moment
# gets none and is flushed at its next switch, but none is missed), and none
# to speak of without responders.  The broken fixture (a TLB count that
# misses flushes) must fail the none-missed check.
. "$(dirname "$0")/lib.sh"
"$lab_shootdown" madvise 64
rc=$?
[ "$rc" -eq 0 ] || [ "$rc" -eq 1 ] || [ "$rc" -eq 77 ] || exit "$rc"
out=$(LAB_SHOOTDOWN_BREAK=uncounted "$lab_shootdown" madvise 64)
frc=$?
same "broken fixture (TLB IPIs not counted): exit status" "$frc" 1
check "broken fixture: a batched responder on the mm with no IPI is reported missed" \
	grep -q "FAILED: batched: responder CPU [0-9]* received no TLB IPI yet never left the mm" \
	<<<"$out"
finish || exit 1
exit "$rc"
