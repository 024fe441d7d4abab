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

# --- issue 27: only meaningful rows ----------------------------------------
# simulated shootdowns with no remote CPU (0 flushes, 0 acks) are left out
# once, with the reason (broken fixture: at 1 thread with a responder,
# --initiator=shared, the points flush and are rows)
S=shootdown
none=', "flushes_per_page": 0, "acks_per_page": 0'
run "$tmp/sd" "$(reps $S/immediate/batch:32/threads:1/$P 1 1 1 ", \"ns_per_page\": 400$none")" \
	"$(reps $S/batched/batch:32/threads:1/$P 1 1 1 ", \"ns_per_page\": 300$none")" \
	"$(reps $S/targeted/batch:32/threads:1/$P 1 1 1 ", \"ns_per_page\": 350$none")"
"$sb" summary "$tmp/sd" >"$tmp/sdo" 2>&1
check "shootdown with no remote CPU: no row" bash -c "! grep -qE '^(batched|targeted|immediate) ' '$tmp/sdo'"
check "shootdown with no remote CPU: left out once, with the reason" \
	[ "$(grep -c '^simulated shootdown: 3 points left out: no remote CPU to flush' "$tmp/sdo")" -eq 1 ]
check "every line of it within 160 characters" bash -c "! awk 'length > 160' '$tmp/sdo' | grep -q ."
one=', "flushes_per_page": 1, "acks_per_page": 1'
run "$tmp/sd2" "$(reps $S/immediate/batch:32/threads:1/$P 1 1 1 ", \"ns_per_page\": 400$one")" \
	"$(reps $S/batched/batch:32/threads:1/$P 1 1 1 ", \"ns_per_page\": 300$one")"
"$sb" summary "$tmp/sd2" >"$tmp/sdo2" 2>&1
check "broken fixture: a responder at 1 thread: a row and nothing left out" \
	bash -c "grep -qE '^batched +1 +compact ' '$tmp/sdo2' && ! grep -q 'left out' '$tmp/sdo2'"

# kernel table: measured zeros print 0, n/a only where nothing was measured
# (broken fixture: the counter absent reads n/a)
kz() {	# kz DIR EXTRA: the kernel points at 1 thread, 3 repetitions, EXTRA each
	run "$1" "$(reps $K/mode:immediate/batch:512/threads:1/$P 1 1 1 "$2")" \
		"$(reps $K/mode:batched/batch:512/threads:1/$P 1 1 1 "$2")"
}
kz "$tmp/kz" ', "tlb_irqs_per_page": 0, "us_per_page": 2, "cal_irqs_per_page": 0'
"$sb" summary "$tmp/kz" >"$tmp/kzo" 2>&1
check "kernel zeros: 0, 0 %, both 0, no n/a ($(grep -E '^kernel-madvise +batched' "$tmp/kzo"))" \
	bash -c "grep -E '^kernel-madvise +batched +1 +compact +0 +0% +0 +0% +0 +both 0 ' '$tmp/kzo' >/dev/null && ! grep -E '^kernel-madvise' '$tmp/kzo' | grep -q n/a"
check "kernel zeros: the reference's CV is 0 %" grep -qE '^kernel-madvise +immediate +1 +compact +0 +0% +reference' "$tmp/kzo"
check "legend: n/a is not measured, a measured 0 prints 0" grep -q 'n/a: not measured here; a measured 0 prints 0' "$tmp/kzo"
kz "$tmp/kz2" ', "us_per_page": 2'
"$sb" summary "$tmp/kz2" >"$tmp/kzo2" 2>&1
check "broken fixture: not measured reads n/a, never 0" \
	bash -c "grep -E '^kernel-madvise +batched' '$tmp/kzo2' | grep -q n/a && ! grep -qE '^kernel-madvise.* both 0 ' '$tmp/kzo2'"
# every TLB count 0 at 2 threads: the kernel flushed without IPIs, said once
# (broken fixtures: at 1 thread zeros say nothing; a count of 1 is no such kernel)
run "$tmp/kz3" "$(reps $K/mode:immediate/batch:512/threads:2/$P 1 1 1 ', "tlb_irqs_per_page": 0')" \
	"$(reps $K/mode:batched/batch:512/threads:2/$P 1 1 1 ', "tlb_irqs_per_page": 0')"
"$sb" summary "$tmp/kz3" >"$tmp/kzo3" 2>&1
check "kernel: all TLB counts 0 at 2 threads are named" \
	[ "$(grep -c '^Every TLB IPI count at 2 threads or more is 0' "$tmp/kzo3")" = 1 ]
check "broken fixture: zeros at 1 thread say nothing of the kernel" \
	bash -c "! grep -q '^Every TLB IPI count' '$tmp/kzo'"
"$sb" summary "$tmp/k1" >"$tmp/k1o" 2>&1
check "broken fixture: a kernel that sent IPIs is not said to send none" \
	bash -c "! grep -q '^Every TLB IPI count' '$tmp/k1o'"

# window/null under the workload model is named for what it is (broken
# fixture: without the model, null is the harness's cost, named so)
M=mode:throughput/threads:1/$P
wn() {	# wn DIR MODEL: spinlock and null, resets seen
	run "$1" "$(reps $W/spinlock/lock:queued/$M$2 100 100 100 ', "resets": 50, "limited": 0.5')" \
		"$(reps $W/null/$M$2 50 50 50 ', "resets": 0, "limited": 0')"
}
wn "$tmp/wn" /migrate:1000/fault:200
"$sb" summary "$tmp/wn" >"$tmp/wno" 2>&1
check "null under the model: row named no limit" grep -qE '^null \(no limit\) +1 +compact' "$tmp/wno"
check "null under the model: said not the harness's cost" \
	bash -c "grep -q '^null (no limit): no rate limit under the workload model: it admits every page and pays its copy' '$tmp/wno' && grep -q 'it is not the harness.s own cost' '$tmp/wno'"
check "null has no window: not listed as a point without reset" bash -c "! grep -q 'No window reset' '$tmp/wno'"
wn "$tmp/wn2" ""
"$sb" summary "$tmp/wn2" >"$tmp/wno2" 2>&1
check "broken fixture: null outside the model is plain null, no note" \
	bash -c "grep -qE '^null +1 +compact' '$tmp/wno2' && ! grep -q 'no limit' '$tmp/wno2'"

# a window run that never reset, or limited above 99 %, says so and points
# to the workload model (broken fixture: resets and 50 % limited: no word)
wr() {	# wr DIR RESETS LIMITED: spinlock and trylock, both so
	run "$1" "$(reps $W/spinlock/lock:queued/$M 100 100 100 ", \"resets\": $2, \"limited\": $3")" \
		"$(reps $W/trylock/lock:queued/$M 110 110 110 ", \"resets\": $2, \"limited\": $3")"
}
wr "$tmp/wr" 0 0.998
"$sb" summary "$tmp/wr" >"$tmp/wro" 2>&1
check "no reset: said, with the workload model" \
	bash -c "grep -q '^No window reset, or over 99 % of calls limited' '$tmp/wro' && grep -q 'docs/window.md, the default suite.s window workload' '$tmp/wro'"
check "no reset: each point listed with its limited %" \
	bash -c "grep -q '^  spinlock/queued, 1 thread: 0 resets, limited 99.8 %' '$tmp/wro' && grep -q '^  trylock/queued, 1 thread: 0 resets, limited 99.8 %' '$tmp/wro'"
wr "$tmp/wr1" 40 0.995
"$sb" summary "$tmp/wr1" >"$tmp/wro1" 2>&1
check "limited above 99 % with resets: said too" grep -q '^  trylock/queued, 1 thread: 40 resets, limited 99.5 %' "$tmp/wro1"
wr "$tmp/wr2" 40 0.5
"$sb" summary "$tmp/wr2" >"$tmp/wro2" 2>&1
check "broken fixture: resets and 50 % limited: no word" bash -c "! grep -q 'No window reset' '$tmp/wro2'"

# --- --reference: a new lock against tas, no pthread_spin in the run -------
run "$tmp/ref" "$(reps lock/tas/threads:1/$P 200 200 200)" "$(reps lock/ticket/threads:1/$P 300 300 300)"
"$sb" summary "$tmp/ref" >"$tmp/refo" 2>&1
check "broken fixture: no pthread_spin, default reference: nothing to compare, --reference named" \
	bash -c "grep -q 'lock: pthread_spin, shootdown: immediate): nothing to compare' '$tmp/refo' && grep -q 'summary --reference=FAMILY:STRATEGY' '$tmp/refo'"
for r in tas lock:tas window:trylock,lock:tas; do
	"$sb" summary "$tmp/ref" --reference=$r >"$tmp/refo" 2>&1
	check "--reference=$r: locks against tas, ticket +50 %" \
		bash -c "grep -q '^locks against tas: ops/s' '$tmp/refo' && grep -qE '^ticket +1 +compact +200 .* 300 .* 50 ' '$tmp/refo' && grep -qE '^tas +1 .*reference' '$tmp/refo'"
done
expect2 "--reference: unknown strategy" "--reference: unknown strategy 'nope'" summary "$tmp/ref" --reference=nope
expect2 "--reference: a window policy for lock" "unknown lock strategy 'trylock'" summary "$tmp/ref" --reference=lock:trylock
expect2 "--reference: unknown family" "unknown family 'disk'" summary "$tmp/ref" --reference=disk:tas
expect2 "--reference: a kernel call (its reference is a mode)" "unknown shootdown strategy 'kernel-madvise'" \
	summary "$tmp/ref" --reference=shootdown:kernel-madvise
expect2 "--reference: two for a family" "two references for lock" summary "$tmp/ref" --reference=lock:tas,ticket
expect2 "--reference: an empty item" "an empty item" summary "$tmp/ref" --reference=tas,
expect2 "--reference: empty" "reference" summary "$tmp/ref" --reference=
check "bad --reference: nothing on stdout" [ ! -s "$tmp/o" ]

# a strategy at 3 or more thread counts: a line by thread count under its
# table (ticket +50 % at 1 thread, ~ at 2, -50 % at 4: the sign changes).
# Broken fixture: the same at 1 and 2 threads only has no such line.
L=lock P=place:compact
tt() {	# tt DIR THREADS...: pthread_spin 198-202 at each, ticket as above
	local d=$1 e=(); shift
	for t in "$@"; do
		e+=("$(reps $L/pthread_spin/threads:$t/$P 198 200 202)")
		case $t in
		1) e+=("$(reps $L/ticket/threads:1/$P 300 300 300)") ;;
		2) e+=("$(reps $L/ticket/threads:2/$P 199 200 201)") ;;
		4) e+=("$(reps $L/ticket/threads:4/$P 100 100 100)") ;;
		esac
	done
	run "$d" "${e[@]}"
}
tt "$tmp/tt" 1 2 4
tt "$tmp/tt2" 1 2
"$sb" summary "$tmp/tt" >"$tmp/tto" 2>&1
"$sb" summary "$tmp/tt2" >"$tmp/tt2o" 2>&1
check "locks at 1, 2, 4 threads: ticket's line by thread count, the sign change" \
	grep -qxF '  ticket, ops/s: changed at 1 thread (+50.0 %); within the noise at 2 threads; changed at 4 threads (-50.0 %); changes sign between 1 and 4 threads' "$tmp/tto"
check "broken fixture: 2 thread counts, a table but no line by thread count" \
	bash -c "grep -qE '^ticket +2 ' '$tmp/tt2o' && ! grep -q 'By thread count' '$tmp/tt2o'"

# --- a run --ab directory (ab.json, no gbench.json): its paired section,
# and every run --out ends with its summary (console, summary.txt) -------
tiny=(--family=lock --threads=1 --placement=compact --counters=none --quiet)
"$sb" run "${tiny[@]}" --ab=tas,ticket --trial-time=0.002 --out="$tmp/ab" >/dev/null 2>&1
"$sb" summary "$tmp/ab" >"$tmp/abo" 2>"$tmp/abe"
rc=$?
check "summary of a run --ab directory: exit 0 (rc=$rc: $(head -1 "$tmp/abe"))" [ "$rc" -eq 0 ]
check "run --ab directory: the paired section, tas -> ticket with its interval" \
	grep -qE '^  tas -> ticket \(lock, threads:1, place:compact\), [0-9]+ pairs: ops_per_s [-+][0-9.]+ % \[' "$tmp/abo"
check "run --ab directory: no 'nothing to compare'" bash -c "! grep -q 'nothing to compare' '$tmp/abo'"
mkdir -p "$tmp/abcut" && head -c 300 "$tmp/ab/ab.json" >"$tmp/abcut/ab.json"
expect2 "broken fixture: a cut ab.json alone" "ab.json" summary "$tmp/abcut"
check "a cut ab.json: nothing on stdout" [ ! -s "$tmp/o" ]

# --- a comparison at several thread counts: where its verdict appears,
# shrinks or changes sign (tables/trend.c), the issue's 16-core numbers.
# Broken fixture: the same comparison at one thread count has no such line.
abside() {	# abside SPEC THREADS
	printf '{"spec": "%s", "name": "window/%s/threads:%s/place:compact", "point": {"family": "window", "strategy": "%s", "lock": null, "threads": %s, "placement": "compact", "params": {}}, "iterations": 1000}' "$1" "$1" "$2" "$1" "$2"
}
abmetric() {	# abmetric NAME RATIO LO HI
	printf '{"metric": "%s", "ratio": %s, "ratio_lo": %s, "ratio_hi": %s, "confidence": 0.95, "coverage": 0.95, "interval": "exact", "k": 53, "p_value": 0.01}' "$@"
}
abcmp() {	# abcmp THREADS OPS_RATIO LO HI PAGES_RATIO LO HI
	printf '{"a": %s, "b": %s, "trial_time_s": 0.01, "pairs": 20, "elapsed_s": 1, "stop": "pairs", "results": [%s, %s]}' \
		"$(abside spinlock "$1")" "$(abside trylock "$1")" "$(abmetric ops_per_s "$2" "$3" "$4")" \
		"$(abmetric admitted_pages_per_s "$5" "$6" "$7")"
}
abdoc() { local IFS=,; printf '{"schema": 1, "label": null, "comparisons": [%s]}\n' "$*"; }
mkdir -p "$tmp/abt" "$tmp/abt1"
abdoc "$(abcmp 1 0.976 0.970 0.985 1.01 0.99 1.02)" "$(abcmp 2 0.971 0.960 0.980 1.002 0.98 1.03)" \
	"$(abcmp 4 1.002 0.984 1.023 1.111 1.09 1.13)" "$(abcmp 8 0.994 0.975 1.012 1.097 1.08 1.11)" \
	"$(abcmp 16 1.001 0.981 1.021 1.047 1.02 1.07)" >"$tmp/abt/ab.json"
abdoc "$(abcmp 4 1.002 0.984 1.023 1.111 1.09 1.13)" >"$tmp/abt1/ab.json"
"$sb" summary "$tmp/abt" >"$tmp/abto" 2>&1
"$sb" summary "$tmp/abt1" >"$tmp/abt1o" 2>&1
check "ab.json at 1-16 threads: ops/s changed at 1-2, within the noise from 4" \
	grep -qxF '  spinlock -> trylock, ops/s: changed at 1-2 threads (-2.4 %, -2.9 %); within the noise from 4 threads (4, 8, 16)' "$tmp/abto"
check "ab.json at 1-16 threads: admitted pages/s appears at 4, shrinks by more than half" \
	grep -qxF '  spinlock -> trylock, admitted pages/s: within the noise at 1-2 threads (1, 2); changed from 4 threads (+11.1 %, +9.7 %, +4.7 %); shrinks from +11.1 % at 4 to +4.7 % at 16 threads' "$tmp/abto"
check "broken fixture: one thread count, no line by thread count" \
	bash -c "grep -q 'spinlock -> trylock (window, threads:4' '$tmp/abt1o' && ! grep -q 'By thread count' '$tmp/abt1o'"

"$sb" run "${tiny[@]}" --strategy=pthread_spin,tas --benchmark_min_time=0.001 --out="$tmp/run" >"$tmp/runo" 2>"$tmp/rune"
check "run --out: summary.txt and summary.md written" [ -s "$tmp/run/summary.txt" ] && [ -s "$tmp/run/summary.md" ]
check "run --out: the summary on the console is summary.txt" \
	bash -c "diff <(sed -n '/^Summary\$/,\$p' '$tmp/runo') '$tmp/run/summary.txt' >/dev/null"
check "run --out: summary DIR prints it again, the same" bash -c "diff <('$sb' summary '$tmp/run') '$tmp/run/summary.txt' >/dev/null"
check "run --out: tas against pthread_spin" grep -qE '^tas +1 +compact' "$tmp/run/summary.txt"
check "run --out: stderr names the summary, no note of DIR being written" \
	bash -c "grep -q 'summary in $tmp/run/summary.txt' '$tmp/rune' && ! grep -q 'being written' '$tmp/rune'"

# --- summary DIR of a suite: what the suite saved (its finish() reads DIR
# and DIR/kernel, the stages holding results, and DIR/ab.json).  Broken
# fixture: the same directory without suite.json has no kernel table.
mksuite() {	# the main stage: window and lock; the kernel stage: DIR/kernel
	run "$1" "$(reps $W/spinlock/lock:queued/mode:throughput/threads:1/$P 100 101 99)" \
		"$(reps $W/trylock/lock:queued/mode:throughput/threads:1/$P 110 111 109)" \
		"$(reps lock/pthread_spin/threads:1/$P 200 200 200)" "$(reps lock/ticket/threads:1/$P 300 300 300)"
	mkdir -p "$1/kernel"
	run "$1/kernel" "$(reps $K/mode:immediate/batch:512/threads:2/$P 1 1 1 ', "tlb_irqs_per_page": 1')" \
		"$(reps $K/mode:batched/batch:512/threads:2/$P 1 1 1 ', "tlb_irqs_per_page": 0.002')"
	: >"$1/results.csv"
	: >"$1/kernel/results.csv"
	cp "$tmp/ab/ab.json" "$1/ab.json"
	printf '{"stratbench_suite": 1, "suite": "default", "stages": [%s, %s, %s]}\n' \
		'{"name": "main", "dir": "", "argv": []}' '{"name": "kernel", "dir": "kernel", "argv": []}' \
		'{"name": "seed", "dir": "", "argv": []}' >"$1/suite.json"
}
mksuite "$tmp/s"
"$sb" summary "$tmp/s" "$tmp/s/kernel" >"$tmp/saved" 2>&1	# as the suite's finish() does
"$sb" summary "$tmp/s" >"$tmp/so" 2>&1
check "summary DIR of a suite: exactly what the suite saves" cmp -s "$tmp/so" "$tmp/saved"
check "summary DIR of a suite: the kernel table, from DIR/kernel" grep -q "^kernel shootdown: batched calls against immediate: .*($tmp/s/kernel/gbench.json)" "$tmp/so"
check "summary DIR of a suite: the seed's paired section" grep -q '^  tas -> ticket (lock' "$tmp/so"
check "summary DIR of a suite: both stages' files" bash -c "grep -q '^  $tmp/s/: ' '$tmp/so' && grep -q '^  $tmp/s/kernel/: ' '$tmp/so'"
rm "$tmp/s/suite.json"
"$sb" summary "$tmp/s" >"$tmp/so2" 2>&1
check "broken fixture: no suite.json, no kernel table" bash -c "! grep -q '$tmp/s/kernel' '$tmp/so2'"

expect2 "missing directory" "No such file" summary "$tmp/none"
check "missing directory: nothing on stdout ($(head -c 40 "$tmp/o"))" [ ! -s "$tmp/o" ]
# a good directory, then one that cannot be read: not half a summary either
expect2 "a good and a missing directory" "none: cannot read: No such file" summary "$tmp/r" "$tmp/none"
check "a good and a missing directory: nothing on stdout" [ ! -s "$tmp/o" ]
expect2 "no directory given" "needs a results directory" summary
finish test_summary
