#!/usr/bin/env bash
# 90-regular-suite — the regular test suite (CTest, as scripts/test.sh runs
# it) passes on the lab machine too.  It runs with automatic NUMA balancing
# off (restored after): with it on, as the kernel sets it on two nodes,
# stratbench prints its settings warning ahead of usage errors, which are
# then two lines on stderr and test_cli's one-line checks fail (found by
# this lab; the fix belongs in bench/: warn only once benchmarks run).
. "$(dirname "$0")/lib.sh"
[ -f "$SB_BUILD/CTestTestfile.cmake" ] || skip "no CTest files in $SB_BUILD"
command -v ctest >/dev/null || skip "no ctest here"
nb=/proc/sys/kernel/numa_balancing
if [ -w "$nb" ] && [ "$(cat "$nb")" != 0 ]; then
	old=$(cat "$nb")
	echo 0 >"$nb"
	trap 'echo "$old" >"$nb"; rm -rf "$tmp"' EXIT
	echo "note: numa_balancing was $old, 0 for the regular suite (see the comment in $(basename "$0"))"
fi
# test_counters_cs assumes two threads on one CPU switch at every
# sched_yield(); CFS does not promise that, and in the TCG guest it mostly
# did not (211 switches for 2 x 2000 yields): left out here, said out loud
excl='^test_counters_cs$'
echo "note: not run in the lab: test_counters_cs (sched_yield need not switch; see $(basename "$0"))"
# two at a time: four tests with perf events open at once once stalled the
# emulated machine for minutes
cd "$SB_BUILD" && ctest --output-on-failure -j2 -E "$excl"
