#!/usr/bin/env bash
# test_faults.sh STRATBENCH — resource faults at run time: each gives one
# clear line naming the problem, exit 1 (never a crash or a hang), and the
# results finished before it stay in the output directory, complete.
#   - thread creation fails (a 4 GiB default stack under a 2 GiB address
#     space: every new thread's stack mmap fails, the main thread's does not)
#   - a plan CPU outside the process's affinity (taskset on the process)
#   - memory allocation fails (the simulated shootdown machine's frames of
#     --pages=65536 under a 150 MB address space): the failed row is
#     recorded and the files are complete
# SANITIZE (2nd argument, the build's -fsanitize list): sanitizers reserve
# terabytes of address space, so the address-space fault is skipped there
# (said, not silent); the native build runs it.
set -u
sb=$1 sanitize=${2:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/testlib.sh"	# ok, bad, check

# expect_fault NAME PATTERN CMD...: exit 1, stderr has PATTERN on one
# line, the 1-thread result finished before the fault is in results.csv.
expect_fault() {
	local name=$1 pat=$2 out=$tmp/$1; shift 2
	timeout 120 "$@" --out="$out" >"$tmp/$name.out" 2>"$tmp/$name.err"
	local rc=$?
	[ "$rc" -eq 1 ] && ok || bad "$name: exit $rc, want 1"
	grep -q -- "$pat" "$tmp/$name.err" "$tmp/$name.out" && ok ||
		bad "$name: no '$pat' in the output"
	grep -q "threads:1/.*,,,0," "$out/results.csv" 2>/dev/null && ok ||
		bad "$name: the finished 1-thread result is not in $out/results.csv"
	[ ! -e "$out/results.csv.partial" ] && ok || bad "$name: a .partial file was left"
}

if [ "$(nproc)" -lt 2 ]; then
	echo "test_faults: thread and affinity faults skipped: need 2 CPUs, have $(nproc)"
elif [ -n "$sanitize" ]; then
	echo "test_faults: thread-creation fault skipped: a -fsanitize=$sanitize build cannot run under ulimit -v"
else
	expect_fault threads "cannot create thread 1" \
		bash -c 'ulimit -s 4194304 && ulimit -v 2097152 && exec "$@"' _ \
		"$sb" run --strategy=null --threads=1,2 --placement=compact \
		--benchmark_min_time=0.01
fi
if [ -z "$sanitize" ]; then
	out=$tmp/alloc
	timeout 120 bash -c 'ulimit -v 150000 && exec "$@"' _ "$sb" run --family=shootdown \
		--strategy=immediate --threads=1 --batch=1 --counters=none \
		--benchmark_min_time=0.01 --out="$out" --pages=65536 >"$tmp/alloc.out" 2>"$tmp/alloc.err"
	rc=$?
	[ "$rc" -eq 1 ] && ok || bad "alloc: exit $rc, want 1"
	grep -q "out of memory for a simulated machine of 65536 pages" "$tmp/alloc.out" \
		"$tmp/alloc.err" && ok || bad "alloc: no 'out of memory' line"
	[ -s "$out/results.csv" ] && [ ! -e "$out/results.csv.partial" ] && ok ||
		bad "alloc: results.csv not complete"
	grep -q "out of memory" "$out/results.csv" && ok || bad "alloc: the failed row is not recorded"
fi
if [ "$(nproc)" -ge 2 ]; then
	expect_fault affinity "outside this process's CPU affinity" \
		taskset -c 0 "$sb" run --strategy=null --threads=1,2 --placement=compact \
		--benchmark_min_time=0.01
fi
echo "test_faults: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
