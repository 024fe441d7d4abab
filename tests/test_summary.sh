#!/usr/bin/env bash
# test_summary.sh STRATBENCH — `stratbench summary` on results this test
# writes, values known: each family's rows against its reference (window
# against spinlock with the fidelity twin's stretch, lock against
# pthread_spin, simulated shootdown against immediate in ns/page, the
# kernel drivers' batched against immediate in TLB IPIs/page), the %Change,
# its 95 % interval and verdict (issue 27's -99.8 % reads changed at 3
# repetitions), the precision note, the noisy points, markdown; a
# point with no reference in the run gets no row; a run with no reference
# at all says so; an unreadable directory: exit 2, one line, nothing on
# stdout.  Each check has a broken fixture beside it that it must tell
# apart.
set -u
sb=$1
tmp=$(mktemp -d /tmp/sb_sum.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/testlib.sh"

W=window P=place:compact
# reps NAME V1 V2 V3 [EXTRA]: three repetitions of one point
reps() {
	local n=$1 e=${5:-}
	printf '%s,%s,%s' "$(entry "$n" "$2" "" 0 "$e")" "$(entry "$n" "$3" "" 1 "$e")" \
		"$(entry "$n" "$4" "" 2 "$e")"
}
# run DIR ENTRY...: a results directory
run() {
	local d=$1; shift
	mkdir -p "$d"
	doc x "$@" >"$d/gbench.json"
}
fixture() {	# fixture DIR [CMPXCHG_THREADS]
	local ct=${2:-2}
	run "$1" "$(reps $W/spinlock/lock:queued/mode:throughput/threads:1/$P 100 101 99)" \
		"$(reps $W/trylock/lock:queued/mode:throughput/threads:1/$P 110 111 109)" \
		"$(reps $W/trylock/lock:queued/mode:fidelity/threads:1/$P 50 50 50 ', "stretch": 1.25')" \
		"$(reps $W/cmpxchg/mode:throughput/threads:$ct/$P 90 90 90)" \
		"$(entry $W/cmpxchg/mode:throughput/threads:$ct/$P 0.2 cv)" \
		"$(reps lock/pthread_spin/threads:1/$P 200 200 200)" \
		"$(reps lock/ticket/threads:1/$P 300 300 300)" \
		"$(reps shootdown/immediate/batch:32/threads:2/$P 1 1 1 ', "ns_per_page": 400')" \
		"$(reps shootdown/batched/batch:32/threads:2/$P 1 1 1 ', "ns_per_page": 100')" \
		"$(reps shootdown/kernel-madvise/mode:immediate/batch:512/threads:2/$P 1 1 1 ', "tlb_irqs_per_page": 1')" \
		"$(reps shootdown/kernel-madvise/mode:batched/batch:512/threads:2/$P 1 1 1 ', "tlb_irqs_per_page": 0.002')"
}
fixture "$tmp/r"
"$sb" summary "$tmp/r" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "summary exits 0 (rc=$rc: $(head -2 "$tmp/err"))" [ "$rc" -eq 0 ]
row() { grep -E "^$1 " "$tmp/out"; }
# window: trylock's %Change against spinlock is 10; at 3 repetitions a side
# the interval is [min new / max old, max new / min old] - 1 = [109/101,
# 111/99] - 1: changed, whatever p(U) (0.1, its floor); the stretch is its
# fidelity twin's
check "window table titled with its reference" grep -q '^window policies against spinlock: ops/s' "$tmp/out"
check "trylock row: 100 -> 110, 10 [+7.92, +12.1] changed, p 0.1, stretch 1.25" \
	bash -c "grep -E '^trylock/queued +1 +compact +100 .* 110 .* 10 +\[\+7\.92, \+12\.1\] changed +0\.1 +1\.25 ' '$tmp/out' >/dev/null"
check "spinlock is the reference row" bash -c "grep -E '^spinlock/queued +1 .*reference' '$tmp/out' >/dev/null"
# no reference at cmpxchg's thread count: no row (broken fixture: with one, a row)
check "cmpxchg at threads 2 has no spinlock to compare with: no row" bash -c "! grep -q '^cmpxchg ' '$tmp/out'"
fixture "$tmp/r1" 1
"$sb" summary "$tmp/r1" >"$tmp/out1" 2>&1
check "broken fixture: cmpxchg at threads 1 has a row, -10.1" grep -qE '^cmpxchg +1 +compact +100 .* 90 .* -10 ' "$tmp/out1"
check "lock: ticket against pthread_spin, 50" bash -c "grep -E '^ticket +1 +compact +200 .* 300 .* 50 ' '$tmp/out' >/dev/null"
check "constant parameters go in the title" grep -q 'against immediate: ns/page, .*; batch=32$' "$tmp/out"
check "simulated shootdown: batched -75 % ns/page" \
	bash -c "grep -E '^batched +2 +compact +400 .* 100 .* -75 ' '$tmp/out' >/dev/null"
check "kernel: batched -99.8 % TLB IPIs/page" \
	bash -c "grep -E '^kernel-madvise +batched +2 +compact +1 .* 0\.002 .* -99\.8 ' '$tmp/out' >/dev/null"
check "precision note: at 3 repetitions changed means no overlap, 1 time in 10" \
	bash -c "grep -q 'with 3 repetitions a side the interval runs from the lowest to the highest ratio' '$tmp/out' && grep -q 'gives 1 time in 10; p(U) cannot go below 0.1' '$tmp/out'"
check "legend: the verdict follows the interval" grep -q 'changed: it excludes 0 %, ~: it holds 0 %' "$tmp/out"
check "noisy point listed with its CV (20 %)" grep -qE 'window/cmpxchg/.* CV 20 % > 5 %' "$tmp/out"
check "no other noisy point" [ "$(grep -c ' CV .* % > ' "$tmp/out")" -eq 1 ]
check "every line within 160 characters" bash -c "! awk 'length > 160' '$tmp/out' | grep -q ."
"$sb" summary "$tmp/r" --format=markdown >"$tmp/md" 2>&1
check "markdown: a pipe table row" grep -qF '| trylock/queued | 1 | compact | 100 |' "$tmp/md"
check "markdown: the header rule" grep -qF '|:---|---:|' "$tmp/md"

# issue 27: a -99.8 % change with sub-1 % CVs, 3 repetitions a side, must read
# changed (p(U) alone, 0.1 at best, called every such row ~).  Broken
# fixtures: the same change with overlapping repetitions reads ~, and one
# repetition a side reads "n too small", never ~.
K=shootdown/kernel-madvise
# kreps DIR IMM1 IMM2 IMM3 BAT1 BAT2 BAT3: TLB IPIs/page of immediate and batched
kreps() {
	local d=$1 e=() i; shift
	for i in 0 1 2; do
		e+=("$(entry $K/mode:immediate/batch:512/threads:2/$P 1 "" $i ", \"tlb_irqs_per_page\": $1")")
		e+=("$(entry $K/mode:batched/batch:512/threads:2/$P 1 "" $i ", \"tlb_irqs_per_page\": $4")")
		shift
	done
	run "$d" "${e[@]}"
}
kreps "$tmp/k" 1.000 1.006 0.995 0.002004 0.002 0.001996
"$sb" summary "$tmp/k" >"$tmp/ko" 2>&1
check "issue 27: -99.8 % with sub-1 % CVs, 3 a side: changed ($(grep -E '^kernel-madvise +batched' "$tmp/ko"))" \
	bash -c "grep -E '^kernel-madvise +batched +2 +compact +1 +0\.[0-9]+% +0\.002 +0\.[0-9]+% +-99\.8 +\[-99\.8, -99\.8\] changed ' '$tmp/ko' >/dev/null"
kreps "$tmp/k2" 1 0.5 0.002 0.002 0.001 1.5
"$sb" summary "$tmp/k2" >"$tmp/ko2" 2>&1
check "broken fixture: overlapping repetitions read ~ ($(grep -E '^kernel-madvise +batched' "$tmp/ko2"))" \
	bash -c "grep -E '^kernel-madvise +batched .* -99\.6 +\[[-+0-9.e]+, [-+0-9.e]+\] ~ ' '$tmp/ko2' >/dev/null"
run "$tmp/k1" "$(entry $K/mode:immediate/batch:512/threads:2/$P 1 "" 0 ', "tlb_irqs_per_page": 1')" \
	"$(entry $K/mode:batched/batch:512/threads:2/$P 1 "" 0 ', "tlb_irqs_per_page": 0.002')"
"$sb" summary "$tmp/k1" >"$tmp/ko1" 2>&1
check "broken fixture: one repetition a side: n too small: need 3, no ~ ($(grep -E '^kernel-madvise +batched' "$tmp/ko1"))" \
	bash -c "grep -E '^kernel-madvise +batched .* -99\.8 +n too small: need 3' '$tmp/ko1' >/dev/null && ! grep -q ' ~ ' '$tmp/ko1'"
check "one repetition a side: the precision note says why" grep -q 'Precision: 1 repetition a side: no interval (n too small: need 3)' "$tmp/ko1"

# no reference in the run: said, not invented (broken: the reference added back)
run "$tmp/noref" "$(reps $W/trylock/lock:queued/mode:throughput/threads:1/$P 110 111 109)"
"$sb" summary "$tmp/noref" >"$tmp/o2" 2>&1
check "no reference: nothing to compare, said" grep -q 'nothing to compare' "$tmp/o2"
check "no reference: no table" bash -c "! grep -q '^window policies' '$tmp/o2'"
check "broken fixture: with the reference there is a table" bash -c "! grep -q 'nothing to compare' '$tmp/out'"

expect2 "missing directory" "No such file" summary "$tmp/none"
check "missing directory: nothing on stdout ($(head -c 40 "$tmp/o"))" [ ! -s "$tmp/o" ]
# a good directory, then one that cannot be read: not half a summary either
expect2 "a good and a missing directory" "none: cannot read: No such file" summary "$tmp/r" "$tmp/none"
check "a good and a missing directory: nothing on stdout" [ ! -s "$tmp/o" ]
expect2 "no directory given" "needs a results directory" summary
finish test_summary
