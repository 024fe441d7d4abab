#!/usr/bin/env bash
# run.sh [NAME...] — the lab test set: every tests/lab/NN-*.sh in order (or
# those whose names contain one of NAME), each on its own, one result line
# per test and a summary.  Meant for the lab guest (scripts/lab.sh runs it
# there), where the machine has several packages and NUMA nodes; elsewhere
# the checks that need them say they were skipped.
#
# A lab test is one executable-or-not bash file tests/lab/NN-name.sh that
# exits 0 (pass), 1 (fail) or 77 (skipped) and, when it skips, prints
# "skipped: REASON" as its last line; a skip without a reason, any other
# status, or running past SB_LAB_TEST_TIMEOUT seconds (default 1200) is a
# failure.  Adding a check is adding a file.  Environment: SB_ROOT (sources),
# SB_BUILD (the build with stratbench and tests/lab/lab_*), SB_LAB_SHAPE,
# SB_LAB_PACKAGES, SB_LAB_NODES, SB_LAB_CORES, SB_LAB_PUS (what the lab was
# booted as).
set -u
here=$(cd "$(dirname "$0")" && pwd)
export SB_ROOT=${SB_ROOT:-$(cd "$here/../.." && pwd)}
export SB_BUILD=${SB_BUILD:-$SB_ROOT/build}
limit=${SB_LAB_TEST_TIMEOUT:-1200}
[ -x "$SB_BUILD/stratbench" ] || { echo "run.sh: no $SB_BUILD/stratbench (set SB_BUILD)" >&2; exit 2; }

pass=0 fail=0 skip=0 failed= skipped=
tmp=$(mktemp -d /tmp/sb_lab.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
for t in "$here"/[0-9][0-9]-*.sh; do
	name=$(basename "$t" .sh)
	if [ $# -gt 0 ]; then
		want=0
		for n in "$@"; do case $name in *"$n"*) want=1 ;; esac; done
		[ $want -eq 1 ] || continue
	fi
	echo "=== $name"
	start=$(date +%s.%N)
	timeout -k 10 "$limit" bash "$t" 2>&1 | tee "$tmp/out"
	rc=${PIPESTATUS[0]}
	secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
	reason=$(tail -1 "$tmp/out" | sed -n 's/^skipped: //p')
	case $rc in
	0) res=PASS; pass=$((pass + 1)) ;;
	77)
		if [ -n "$reason" ]; then
			res="SKIP ($reason)"; skip=$((skip + 1)); skipped="$skipped $name"
		else
			res="FAIL (skipped without printing 'skipped: REASON')"
			fail=$((fail + 1)); failed="$failed $name"
		fi ;;
	124|137) res="FAIL (timed out after ${limit}s)"; fail=$((fail + 1)); failed="$failed $name" ;;
	*) res="FAIL (exit $rc)"; fail=$((fail + 1)); failed="$failed $name" ;;
	esac
	echo "=== $name: $res [${secs}s]"
done
echo "lab ${SB_LAB_SHAPE:-(not a lab guest)}: $pass passed, $fail failed, $skip skipped${failed:+; failed:$failed}${skipped:+; skipped:$skipped}"
[ $((pass + fail + skip)) -gt 0 ] || { echo "run.sh: no lab test matched '$*'" >&2; exit 2; }
[ "$fail" -eq 0 ]
