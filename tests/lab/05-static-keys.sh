#!/usr/bin/env bash
# 05-static-keys — the guest survives what every stratbench run does to its
# kernel: opening and closing the perf events the suite counts, over and
# over, while every CPU context-switches.  Under QEMU's multi-threaded TCG
# that wedges the guest unless lab_hold keeps the events' static keys set
# (lab_hold.c says why); scripts/lab.sh starts the holder before any test.
# A guest booted with --static-keys=flip hangs here (test_lab_runner.sh
# checks that it still does: once it does not, QEMU is mended and the holder
# can go).
. "$(dirname "$0")/lib.sh"
[ "${SB_LAB_STATIC_KEYS:-}" = hold ] || echo "note: no holder (SB_LAB_STATIC_KEYS=${SB_LAB_STATIC_KEYS:-unset})"
if [ "${SB_LAB_STATIC_KEYS:-}" = hold ]; then
	held=$(cat /lab/hold 2>/dev/null)
	pid=$(sed -n 's/.* by pid \([0-9]*\) .*/\1/p' <<<"$held")
	same "the holder is running (pid ${pid:-?})" "$(cat "/proc/${pid:-0}/comm" 2>/dev/null)" lab_hold
	for e in context-switches cpu-migrations page-faults; do
		check "the holder holds $e" grep -q " $e\b" <<<"$held"
	done
	# the tracepoints stratbench counts by default as root, where it can
	# (tlb:tlb_flush is in tracefs everywhere but counted on x86 only)
	"$sb" counters >"$tmp/counters" 2>&1
	for e in tlb:tlb_flush migrate:mm_migrate_pages; do
		if grep -q "^$e  *available" "$tmp/counters"; then
			check "the holder holds $e" grep -q " $e\b" <<<"$held"
		fi
	done
fi
# SB_LAB_FLIP_S: how long (default 10 s); the fixture flips longer: without
# the holder every open and close patches kernel text, and a round is slow
secs=${SB_LAB_FLIP_S:-10}
out=$("$SB_BUILD/tests/lab/lab_hold" flip "$secs") || bad "lab_hold flip failed"
echo "  $out"
rounds=$(sed -n 's/^lab_hold: flip: \([0-9]*\) rounds.*/\1/p' <<<"$out")
check "events opened and closed $secs times or more in $secs s (${rounds:-none})" [ "${rounds:-0}" -ge "$secs" ]
finish
