#!/usr/bin/env bash
# 90-regular-suite — the regular test suite (CTest, as scripts/test.sh runs
# it) passes on the lab machine too, as the kernel set it up: automatic NUMA
# balancing on (the kernel's default with two nodes), so every benchmark
# prints its settings warning, and the tests' one-line error checks hold
# because that warning waits for the first benchmark.
. "$(dirname "$0")/lib.sh"
[ -f "$SB_BUILD/CTestTestfile.cmake" ] || skip "no CTest files in $SB_BUILD"
command -v ctest >/dev/null || skip "no ctest here"
echo "note: kernel.numa_balancing=$(cat /proc/sys/kernel/numa_balancing 2>/dev/null || echo '?')"
# one test at a time: the tests pin spinning members to every CPU, and two
# at once on 4 vCPUs over 2 host cores crawl (test_counters_tracepoint beside
# test_shootdown had not finished after 6 minutes; alone, 1 s and 100 s)
# test_suite runs a whole quick suite (a minute natively, the calibration's
# fixed counts included): under TCG it would take most of this test's time,
# and it exercises no path the lab changes; scripts/test.sh runs it natively
echo "note: test_suite is left out here (a whole quick suite: about ten minutes under TCG); scripts/test.sh runs it natively"
cd "$SB_BUILD" && ctest --output-on-failure -E '^test_suite$'
