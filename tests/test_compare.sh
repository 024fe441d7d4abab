#!/usr/bin/env bash
# test_compare.sh STRATBENCH — `stratbench compare` and `merge` on JSON files
# this test writes: %Change and the table layout against the seed
# changelog's numbers (its three Specjbb rows), the significance column,
# each side's CV and noisy mark, the %Change's 95 % interval and its verdict
# (changed, ~, n too small: text, CSV, HTML),
# the counter tables (per op by default, the +444 % totals case that must
# read as a per-op fall, --totals, --per-second, separators, %Change and
# interval, measured zeros as 0, zero rows dropped, one per family), rows
# with no subject left out once with the reason (a shootdown at 1 thread), --fail-above (regression: 3 and a line; improvement, smaller
# or within the noise: 0; unknown direction: 2), disjoint sets (2, one
# line), benchmarks on one side only, plain Google Benchmark output; bad
# input (malformed, truncated, empty, wrong schema): exit 2, one line, no
# crash.  Each check has a broken fixture beside it that it must tell apart.
set -u
sb=$1
tmp=$(mktemp -d /tmp/sb_cmp.XXXXXX)
trap "" EXIT
. "$(dirname "$0")/testlib.sh"

# has_text FILE TEXTFILE: FILE holds TEXTFILE's text as one block (grep -F
# would take each of its lines as a pattern of its own)
has_text() { [[ "$(cat "$1")" == *"$(cat "$2")"* ]]; }
has_str() { [[ "$(cat "$1")" == *"$2"* ]]; }

T=window/trylock
mkdir -p "$tmp/old" "$tmp/new"
# the seed's Haswell and POWER8 rows (single runs: no CV or p(U) column);
# counters as a run writes them: cnt:NAME totals and cnt:NAME/op
doc prev "$(entry $T/threads:4/place:scatter 205332 "" 0 ', "cnt:migrations": 1180621, "cnt:migrations/op": 0.5')" \
	"$(entry $T/threads:1/place:scatter 319785)" \
	"$(entry $T/threads:8/place:compact 74912 "" 0 ', "cnt:cs": 14285708, "cnt:cs/op": 1.04872e-06, "cnt:vmstat:numa_hint_faults": 26907, "cnt:vmstat:numa_hint_faults/op": 0.25, "cnt:vmstat:numa_huge_pte_updates": 0, "cnt:irq:TLB@team": 3, "cnt:irq:TLB@team/op": 3, "cnt:zero": 0, "cnt:zero/op": 0, "jain": 1')" \
	"$(entry $T/threads:1/place:compact 206585)" \
	"$(entry locks/ticket/threads:2/place:compact 1000 "" 0 ', "cnt:cs": 1234, "cnt:cs/op": 0.1')" \
	"$(entry window/gone/threads:1/place:compact 5)" >"$tmp/old/gbench.json"
doc current "$(entry $T/threads:1/place:scatter 313559)" \
	"$(entry $T/threads:4/place:scatter 198512 "" 0 ', "cnt:migrations": 1149960, "cnt:migrations/op": 0.5')" \
	"$(entry $T/threads:8/place:compact 74761.9 "" 0 ', "cnt:cs": 13818546, "cnt:cs/op": 1.0e-06, "cnt:vmstat:numa_hint_faults": 72692, "cnt:vmstat:numa_hint_faults/op": 0.5, "cnt:vmstat:numa_huge_pte_updates": 48, "cnt:irq:TLB@team": 4, "cnt:irq:TLB@team/op": 4, "cnt:zero": 0, "cnt:zero/op": 0, "jain": 1')" \
	"$(entry $T/threads:1/place:compact 214874)" \
	"$(entry locks/ticket/threads:2/place:compact 1000 "" 0 ', "cnt:cs": 1000, "cnt:cs/op": 0.1')" \
	"$(entry window/new/threads:2/place:compact 7)" >"$tmp/new.json"

"$sb" compare "$tmp/old" "$tmp/new.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "compare exits 0 (rc=$rc: $(head -2 "$tmp/err"))" [ "$rc" -eq 0 ]
# the table exactly as in the changelog (the three Specjbb rows -3.32145,
# -1.94693, 4.01239 to the digits shown); groups by name, rows by threads
cat >"$tmp/want" <<'TABLE'
window/trylock place:compact
threads  Prev    Current  %Change    95 % interval
1        206585  214874   4.01239    n too small: need 3
8        74912   74761.9  -0.200368  n too small: need 3

window/trylock place:scatter
threads  Prev    Current  %Change   95 % interval
1        319785  313559   -1.94693  n too small: need 3
4        205332  198512   -3.32145  n too small: need 3
TABLE
check "seed table layout and numbers ($(cat "$tmp/out"))" has_text "$tmp/out" "$tmp/want"
check "metric and labels named" grep -q "^ops_per_s: prev (.*) vs current (.*)" "$tmp/out"
check "no p(U) or CV without repetitions" bash -c "! grep -qE '^threads.*(CV|p\(U\))' '$tmp/out'"
check "single runs: no noise estimate said" grep -q "of single runs (\"n too small\") has no noise estimate" "$tmp/out"
# counter tables: one per family, per op by default (cnt:NAME/op: runs differ
# in length), a sub-header per benchmark, rows zero on both sides dropped;
# --totals: the cnt:NAME totals with separators; --per-second: per op x ops/s
check "one counter table per family" [ "$(grep -c 'counters per op' "$tmp/out")" -eq 2 ]
check "window counter table" grep -q '^window counters per op' "$tmp/out"
check "locks counter table" grep -q '^locks counters per op' "$tmp/out"
check "counter header names the unit" grep -qE '^Event \(per op\) +Before +After +%Change +95 % interval$' "$tmp/out"
check "per op, small values without e-notation" grep -qE '^  cs +0.00000104872 +0.000001 +-4.64566 +n too small: need 3$' "$tmp/out"
check "a second benchmark in the family table" grep -qE '^  migrations +0.5 +0.5 +0 +n too small: need 3$' "$tmp/out"
check "benchmark sub-headers" bash -c "grep -qx '$T/threads:8/place:compact' '$tmp/out' && grep -qx '$T/threads:4/place:scatter' '$tmp/out'"
check "vmstat row per op" grep -qE '^  vmstat:numa_hint_faults +0.25 +0.5 +100 +n too small: need 3$' "$tmp/out"
# an event with a run total but no per-op value is a row saying so, not dropped
# (the same event zero in both totals is dropped: the --totals run below)
check "a total-only event: a row of n/a pointing to --totals" \
	grep -qE '^  vmstat:numa_huge_pte_updates +n/a +n/a +n/a +n/a: a total only \(--totals\)$' "$tmp/out"
check "interrupts row per op" grep -qE '^  irq:TLB@team +3 +4 +33.3333 +n too small: need 3$' "$tmp/out"
check "per op: no totals by default" bash -c "! grep -qE '14,285,708|totals per run' '$tmp/out'"
"$sb" compare "$tmp/old" "$tmp/new.json" --totals >"$tmp/tot" 2>&1
check "--totals: the header and title" eval "grep -qE '^Event \(per run\) +Before +After +%Change +95 % interval$' '$tmp/tot' && grep -q '^window counters totals per run' '$tmp/tot'"
check "--totals: separators and %Change" grep -qE '^  cs +14,285,708 +13,818,546 +-3.27014 +n too small: need 3$' "$tmp/tot"
check "--totals: a second benchmark" grep -qE '^  migrations +1,180,621 +1,149,960 +-2.59702 +n too small: need 3$' "$tmp/tot"
check "--totals: vmstat row" grep -qE '^  vmstat:numa_hint_faults +26,907 +72,692 +170.16 +n too small: need 3$' "$tmp/tot"
check "--totals: a measured 0 is 0, 0 to 48 is 'from 0', never n/a" grep -qE '^  vmstat:numa_huge_pte_updates +0 +48 +from 0 +n too small: need 3$' "$tmp/tot"
check "zero on both sides dropped" bash -c "! grep -q 'zero' '$tmp/out' && ! grep -q 'zero' '$tmp/tot'"
check "--totals: per-op values and harness counters stay out" \
	bash -c "! grep -qE '1.04872e-06|0.00000104872|/op|^ *jain' '$tmp/tot'"
"$sb" compare "$tmp/old" "$tmp/new.json" --per-second >"$tmp/pers" 2>&1
check "--per-second: per op x ops/s ($(grep -m1 '^  irq' "$tmp/pers"))" \
	eval "grep -qE '^Event \(per s\) +Before' '$tmp/pers' && grep -qE '^  irq:TLB@team +224,736 +299,048 +33.0662 +n too small: need 3$' '$tmp/pers'"
expect2 "--totals and --per-second together" "choose one" compare "$tmp/old" "$tmp/new.json" --totals --per-second
# broken fixtures: a nonzero 'zero' shows; only /op counters make no totals
sed 's/"cnt:zero": 0,/"cnt:zero": 7,/' "$tmp/new.json" >"$tmp/nz.json"
"$sb" compare "$tmp/old" "$tmp/nz.json" --totals >"$tmp/nz" 2>&1
check "broken fixture: a nonzero row is kept" grep -qE '^  zero +0 +7 +from 0 +n too small: need 3$' "$tmp/nz"
sed -E 's/"cnt:([A-Za-z@:_]+)": [0-9]+,//g' "$tmp/new.json" >"$tmp/perop.json"
"$sb" compare "$tmp/old/gbench.json" "$tmp/perop.json" --totals >"$tmp/perop" 2>&1
check "broken fixture: without NEW's totals no After value ($(grep -m1 '^  cs' "$tmp/perop"))" \
	grep -qE '^  cs +14,285,708 +n/a +n/a +n too small: need 3$' "$tmp/perop"

# The issue's +444 %: two runs of lock/mcs/threads:2 as long as Google
# Benchmark chose (10,000 iterations, then 98,216): the totals rise 444 %,
# per op task-clock falls from 3,390 to 1,874 ns.  Per op must show the fall,
# with its interval; the totals (a broken fixture: what compare printed by
# default before) must fail the same checker.
M=lock/mcs/threads:2/place:compact
mcs() {	# mcs LABEL ITERS "TOTAL PEROP OPS" x3: three repetitions
	local label=$1 it=$2 i=0 t es=(); shift 2
	for t in "$@"; do
		set -- $t
		es+=("$(entry $M $3 "" $i ", \"cnt:task-clock\": $1, \"cnt:task-clock/op\": $2, \"cnt:cpu-migrations\": ${4:-0}, \"cnt:cpu-migrations/op\": ${5:-0}" | sed "s/\"iterations\": 1000/\"iterations\": $it/")")
		i=$((i + 1))
	done
	doc "$label" "${es[@]}"
}
mcs prev 10000 "67660188 3390 295000" "67000000 3380 296000" "68000000 3400 294000" >"$tmp/mcs1.json"
mcs current 98216 "368109440 1874 533600 9 0.00005" "367000000 1870 534700 9 0.00005" \
	"369000000 1880 531900 9 0.00005" >"$tmp/mcs2.json"
"$sb" compare "$tmp/mcs1.json" "$tmp/mcs2.json" >"$tmp/mcs" 2>&1
"$sb" compare "$tmp/mcs1.json" "$tmp/mcs2.json" --totals >"$tmp/mcstot" 2>&1
# per_op_fall OUT: task-clock per op, 3,390 to 1,874, -44.7 %, changed
per_op_fall() {
	grep -qE '^Event \(per op\) +Before +After +%Change +95 % interval$' "$1" &&
		grep -qE '^  task-clock +3,390 +1,874 +-44\.7[0-9]* +\[-4[0-9.]+, -4[0-9.]+\] changed$' "$1" &&
		! grep -qE '67,660,188|368,109,440|\+?44[34]\.' "$1"
}
check "the +444 % case reads per op as the fall it is ($(grep -m1 '^  task-clock' "$tmp/mcs"))" per_op_fall "$tmp/mcs"
if per_op_fall "$tmp/mcstot"; then bad "broken fixture: the totals (+444 %) pass the per-op check"; else ok; fi
check "--totals shows the run totals on request ($(grep -m1 '^  task-clock' "$tmp/mcstot"))" \
	grep -qE '^  task-clock +67,660,188 +368,109,440 +444\.[0-9]+ +\[\+4[0-9.]+, \+4[0-9.]+\] changed$' "$tmp/mcstot"
# measured zeros: 0 per op before, 0.00005 after: "0", "from 0", never n/a
zero_is_value() { grep -qE '^  cpu-migrations +0 +0.00005 +from 0 +none: from 0$' "$1"; }
check "a measured 0 prints 0 ($(grep -m1 '^  cpu-migrations' "$tmp/mcs"))" zero_is_value "$tmp/mcs"
sed -E 's/^(  cpu-migrations +)0 /\1n\/a /' "$tmp/mcs" >"$tmp/mcsna"
if zero_is_value "$tmp/mcsna"; then bad "broken fixture: a measured 0 printed n/a passes"; else ok; fi

# a comparison with no subject: a simulated shootdown at 1 thread has no
# remote CPU (0 flushes, 0 acks a page on both sides): no row, no counter
# table, no regression; said once with the reason.  Its 2-thread row stays.
S=shootdown/targeted
sd() {	# sd LABEL OPS1 OPS2 FLUSHES1: threads 1 and 2, three repetitions each
	local label=$1 i es=()
	for i in 0 1 2; do
		es+=("$(entry $S/batch:1/threads:1/place:compact $(($2 + i)) "" $i ", \"flushes_per_page\": $4, \"acks_per_page\": 0, \"cnt:task-clock\": 9, \"cnt:task-clock/op\": 9")")
		es+=("$(entry $S/batch:32/threads:1/place:compact $(($2 + i)) "" $i ", \"flushes_per_page\": 0, \"acks_per_page\": 0")")
		es+=("$(entry $S/batch:1/threads:2/place:compact $(($3 + i)) "" $i ", \"flushes_per_page\": 1, \"acks_per_page\": 1")")
	done
	doc "$label" "${es[@]}"
}
sd prev 1000 500 0 >"$tmp/sd1.json"
sd current 763 400 0 >"$tmp/sd2.json"
sd current 763 400 0.5 >"$tmp/sd3.json"	# broken fixture: a remote CPU flushed
"$sb" compare "$tmp/sd1.json" "$tmp/sd2.json" --fail-above=5 >"$tmp/sd" 2>"$tmp/sd.err"
rc=$?
# left_out OUT: no 1-thread row, the reason once, the 2-thread row kept
left_out() {
	! grep -qE '^1 ' "$1" && grep -qE '^2 +501 +' "$1" &&
		[ "$(grep -c '^left out: ' "$1")" -eq 1 ] &&
		grep -qx 'left out: shootdown/\* at 1 thread (2 comparisons): no remote CPU to flush (0 flushes and 0 acks on both sides)' "$1" &&
		! grep -q 'task-clock' "$1"
}
check "no subject: left out, said once ($(grep '^left out' "$tmp/sd"))" left_out "$tmp/sd"
check "no subject: no regression from it, the 2-thread one only (rc=$rc)" \
	eval "[ $rc -eq 3 ] && [ \$(wc -l <'$tmp/sd.err') -eq 1 ] && grep -q 'threads:2' '$tmp/sd.err'"
"$sb" compare "$tmp/sd1.json" "$tmp/sd3.json" >"$tmp/sdb" 2>&1
if left_out "$tmp/sdb"; then bad "broken fixture: a shootdown that flushed was left out"; else ok; fi
check "broken fixture: its row and counters shown" eval "grep -qE '^1 +1001 ' '$tmp/sdb' && grep -q '^  task-clock' '$tmp/sdb'"
# the --html page leaves out the same rows, said once (broken fixture: the
# flushed 1-thread shootdown is a row there too)
"$sb" compare "$tmp/sd1.json" "$tmp/sd2.json" --html="$tmp/sd.html" >/dev/null 2>&1
"$sb" compare "$tmp/sd1.json" "$tmp/sd3.json" --html="$tmp/sdb.html" >/dev/null 2>&1
html_rows1() { grep -c '<tr><td class="n">1</td>' "$1"; }
check "html: no 1-thread row, left out once" eval "[ \$(html_rows1 '$tmp/sd.html') -eq 0 ] &&
	[ \$(grep -c 'Left out: 2 comparisons: no remote CPU' '$tmp/sd.html') -eq 1 ]"
check "broken fixture: html shows the flushed 1-thread row" \
	eval "[ \$(html_rows1 '$tmp/sdb.html') -ge 1 ] && ! grep -q 'Left out: 2' '$tmp/sdb.html'"
"$sb" compare "$tmp/sd1.json" "$tmp/sd2.json" --format=csv >"$tmp/sdc"
check "csv: a row left out says why, 21 fields ($(grep -m1 'left out' "$tmp/sdc"))" \
	eval "grep -q '^$S/batch:1/threads:1/place:compact,.*,1,,,,,,,3,3,,,,,,,,,left out,no remote CPU to flush' '$tmp/sdc' && ! awk -F, 'NF != 21' '$tmp/sdc' | grep -q ."

check "only in OLD listed" grep -q "^only in OLD .*: window/gone/threads:1/place:compact" "$tmp/out"
check "only in NEW listed" grep -q "^only in NEW .*: window/new/threads:2/place:compact" "$tmp/out"

# markdown and csv
"$sb" compare "$tmp/old" "$tmp/new.json" --format=markdown >"$tmp/md"
check "markdown table" grep -qF "| 4 | 205332 | 198512 | -3.32145 |" "$tmp/md"
check "markdown header" grep -qF "|:---|---:|---:|---:|" "$tmp/md"
"$sb" compare "$tmp/old" "$tmp/new.json" --format=csv >"$tmp/csv"
check "csv row" grep -q "^$T/threads:8/place:compact,$T place:compact,8,74912,74761.9,-0.200368," "$tmp/csv"
check "csv lists one-sided" grep -q "^window/gone/threads:1/place:compact,,,only," "$tmp/csv"
check "csv: every line has the header's 21 fields ($(awk -F, 'NF != 21' "$tmp/csv" | head -1))" \
	bash -c "! awk -F, 'NF != 21' '$tmp/csv' | grep -q ."

# repetitions: medians and the Mann-Whitney column (3 vs 3 all above: p = 0.1);
# the interval at 3 a side is [min new / max old, max new / min old] - 1 =
# [130/120, 150/100] - 1: changed, though p(U) cannot go below 0.1
doc a "$(entry $T/threads:2/place:scatter 100 "" 0)" "$(entry $T/threads:2/place:scatter 110 "" 1)" \
	"$(entry $T/threads:2/place:scatter 120 "" 2)" "$(entry $T/threads:2/place:scatter 110 median)" >"$tmp/ra.json"
doc b "$(entry $T/threads:2/place:scatter 130 "" 0)" "$(entry $T/threads:2/place:scatter 140 "" 1)" \
	"$(entry $T/threads:2/place:scatter 150 "" 2)" >"$tmp/rb.json"
"$sb" compare "$tmp/ra.json" "$tmp/rb.json" >"$tmp/rep" 2>&1
check "median of repetitions, CVs, %Change, its interval: changed, p(U) ($(cat "$tmp/rep"))" \
	grep -qE "^2 +110 +9.09% noisy +140 +7.14% noisy +27.2727 +\[\+8.33, \+50\] changed +0.1$" "$tmp/rep"
check "CV and interval columns" grep -qE "^threads +Prev +CV +Current +CV +%Change +95 % interval +p\(U\)$" "$tmp/rep"
check "p(U) column and its floor explained" grep -q "cannot go below 0.1; the verdict follows the interval" "$tmp/rep"
check "the verdicts explained" grep -q 'changed: it excludes 0 %, ~: it holds 0 % (within the noise),$' "$tmp/rep"

# reps FILE LABEL NAME V...: one benchmark's repetitions (ops_per_s; real_time
# = 1e9 / V, as a time would move)
reps() {
	local f=$1 label=$2 name=$3 i=0 v es=(); shift 3
	for v in "$@"; do
		es+=("$(entry "$name" "$v" "" $i ", \"stretch\": $v" | sed "s/\"real_time\": 1.0/\"real_time\": $(awk "BEGIN{print 1e9/$v}")/")")
		i=$((i + 1))
	done
	doc "$label" "${es[@]}" >"$f"
}
P=$T/threads:2/place:scatter
reps "$tmp/base.json" base $P 1000 1001 1002 1003 1004
reps "$tmp/slow.json" slow $P 800 801 802 803 804	# -20 %, p(U) 0.0079
reps "$tmp/fast.json" fast $P 1200 1201 1202 1203 1204	# +20 %
reps "$tmp/wide.json" wide $P 500 900 1000 1100 1300	# -10 % median, in the noise
reps "$tmp/one.json" one $P 800				# a single run
"$sb" compare "$tmp/base.json" "$tmp/slow.json" >"$tmp/slow" 2>&1
check "a quiet side: CV without the noisy mark ($(grep '^2 ' "$tmp/slow"))" \
	grep -qE '^2 +1002 +0.158% +802 +0.197% +-19.9601 +\[-20.2, -19.7\] changed +0.007937 \*$' "$tmp/slow"
"$sb" compare "$tmp/base.json" "$tmp/wide.json" >"$tmp/wide" 2>&1
check "a change within the noise is marked ~ ($(grep '^2 ' "$tmp/wide"))" \
	grep -qE '^2 +1002 +0.158% +1000 +30.9% noisy +-0.199601 +\[-50.1, \+29.7\] ~ +0.7533$' "$tmp/wide"
# broken fixture: the significant change must not be marked
check "broken fixture: a significant change is not marked ~" bash -c "! grep '^2 ' '$tmp/slow' | grep -q '~'"
# a single run has no interval: "n too small", never ~ (nor the CV's old guess)
"$sb" compare "$tmp/base.json" "$tmp/one.json" >"$tmp/one" 2>&1
check "a single run: n too small ($(grep '^2 ' "$tmp/one"))" \
	grep -qE '^2 +1002 +0.158% +800 +n/a +-20.1597 +n too small: need 3$' "$tmp/one"
"$sb" compare "$tmp/wide.json" "$tmp/one.json" >"$tmp/one2" 2>&1
check "a single run within the larger CV: n too small, not ~ ($(grep '^2 ' "$tmp/one2"))" \
	grep -qE '^2 +1000 +30.9% noisy +800 +n/a +-20 +n too small: need 3$' "$tmp/one2"

# csv: the new columns
"$sb" compare "$tmp/base.json" "$tmp/slow.json" --format=csv >"$tmp/c1"
"$sb" compare "$tmp/base.json" "$tmp/wide.json" --format=csv >"$tmp/c2"
"$sb" compare "$tmp/base.json" "$tmp/fast.json" --format=csv >"$tmp/c3"
check "csv header with the interval, CV, noisy, verdict" grep -qx "name,group,threads,old,new,change_pct,change_lo_pct,change_hi_pct,p_value,old_n,new_n,old_min,old_max,new_min,new_max,old_cv_pct,new_cv_pct,old_noisy,new_noisy,verdict,interval" "$tmp/c1"
check "csv: a significant drop of ops/s is worse ($(tail -1 "$tmp/c1"))" grep -q "^$P,.*,-19.9601,-20.22,-19.7,0.007937,.*,0.1578,0.1971,0,0,worse,changed$" "$tmp/c1"
check "csv: within the noise, the noisy side ($(tail -1 "$tmp/c2"))" grep -q "^$P,.*,-50.1,29.74,.*,0.1578,30.9,0,1,noise,~$" "$tmp/c2"
check "csv: a significant rise of ops/s is better" grep -q ",better,changed$" "$tmp/c3"
"$sb" compare "$tmp/base.json" "$tmp/one.json" --format=csv >"$tmp/c6"
check "csv: a single run: no bounds, n too small ($(tail -1 "$tmp/c6"))" grep -q "^$P,.*,-20.1597,n/a,n/a,n/a,.*,worse,n too small: need 3$" "$tmp/c6"
"$sb" compare "$tmp/base.json" "$tmp/slow.json" --format=csv --metric=real_time >"$tmp/c4"
check "csv: real_time up is worse ($(tail -1 "$tmp/c4"))" grep -q ",worse,changed$" "$tmp/c4"
"$sb" compare "$tmp/base.json" "$tmp/slow.json" --format=csv --metric=stretch >"$tmp/c5" 2>&1
check "csv: a metric of unknown direction: up or down" grep -qE ",(noise|up|down),(~|changed)$" "$tmp/c5"

# --html shows the new columns
"$sb" compare "$tmp/base.json" "$tmp/wide.json" --html="$tmp/w.html" >/dev/null 2>&1
check "html: CV columns" grep -q '<th>Prev</th><th>CV</th><th>Current</th><th>CV</th>' "$tmp/w.html"
check "html: the interval column" grep -q '<th>%Change</th><th>95 % interval</th><th>p(U)</th>' "$tmp/w.html"
check "html: the interval and its verdict" grep -q '>-0.199601</td><td class="n">\[-50.1, +29.7\] ~</td>' "$tmp/w.html"
check "html: the noisy side" grep -q '⚠ noisy (CV 30.9 % &gt; 5 %)' "$tmp/w.html"

# --fail-above: exit 3 and one line per significant regression beyond PCT
"$sb" compare "$tmp/base.json" "$tmp/slow.json" --fail-above=5 >"$tmp/fa.out" 2>"$tmp/fa.err"
rc=$?
check "fail-above: a regression exits 3 (rc=$rc)" [ "$rc" -eq 3 ]
check "fail-above: one line naming it ($(cat "$tmp/fa.err"))" eval "[ \$(wc -l <'$tmp/fa.err') -eq 1 ] && grep -q 'regression beyond 5 %: $P: ops_per_s -19.9601 % (\[-20.2, -19.7\] changed)' '$tmp/fa.err'"
check "fail-above: the tables still printed" grep -q '^threads' "$tmp/fa.out"
"$sb" compare "$tmp/base.json" "$tmp/slow.json" --fail-above=25 >/dev/null 2>"$tmp/e"
rc=$?
check "fail-above: a smaller regression than PCT exits 0" eval "[ $rc -eq 0 ] && [ ! -s '$tmp/e' ]"
"$sb" compare "$tmp/base.json" "$tmp/fast.json" --fail-above=5 >/dev/null 2>&1
check "fail-above: an improvement exits 0" [ $? -eq 0 ]
# broken fixture: a regression within the noise must not fail
"$sb" compare "$tmp/base.json" "$tmp/wide.json" --fail-above=0 >/dev/null 2>&1
check "fail-above: a regression within the noise exits 0" [ $? -eq 0 ]
# no interval (a single run): the change is taken as is, never as noise
"$sb" compare "$tmp/wide.json" "$tmp/one.json" --fail-above=5 >/dev/null 2>"$tmp/e"
rc=$?
check "fail-above: a single run, no interval, exits 3 ($rc: $(cat "$tmp/e"))" \
	eval "[ $rc -eq 3 ] && grep -q 'n too small for an interval: need 3 repetitions a side' '$tmp/e'"
"$sb" compare "$tmp/base.json" "$tmp/one.json" --fail-above=25 >/dev/null 2>&1
check "fail-above: a single run's change smaller than PCT exits 0" [ $? -eq 0 ]
"$sb" compare "$tmp/slow.json" "$tmp/base.json" --fail-above=5 --metric=real_time >/dev/null 2>"$tmp/e"
rc=$?
check "fail-above: real_time down is an improvement (rc=$rc: $(cat "$tmp/e"))" [ $rc -eq 0 ]
"$sb" compare "$tmp/base.json" "$tmp/slow.json" --fail-above=5 --metric=real_time >/dev/null 2>"$tmp/e"
rc=$?
check "fail-above: real_time up exits 3 (rc=$rc: $(cat "$tmp/e"))" eval "[ $rc -eq 3 ] && grep -q 'real_time 24.9374 %' '$tmp/e'"
expect2 "fail-above: a metric of unknown direction" "which way 'stretch' gets worse is not known" \
	compare "$tmp/base.json" "$tmp/slow.json" --fail-above=5 --metric=stretch
"$sb" compare "$tmp/base.json" "$tmp/slow.json" --fail-above=5 --metric=ops_per_s --worse=up >/dev/null 2>&1
check "fail-above: --worse=up makes a drop an improvement" [ $? -eq 0 ]
"$sb" compare "$tmp/base.json" "$tmp/slow.json" --fail-above=5 --metric=stretch --worse=down >/dev/null 2>&1
check "fail-above: --worse=down for a metric of unknown direction" [ $? -eq 3 ]
expect2 "fail-above: a negative PCT" "fail-above" compare "$tmp/base.json" "$tmp/slow.json" --fail-above=-1

# nothing in common: one line, exit 2, nothing on stdout
reps "$tmp/other.json" other $T/threads:3/place:scatter 1000 1001
"$sb" compare "$tmp/base.json" "$tmp/other.json" >"$tmp/dj.out" 2>"$tmp/dj.err"
rc=$?
check "disjoint: exit 2, one line, empty stdout (rc=$rc: $(cat "$tmp/dj.err"))" \
	eval "[ $rc -eq 2 ] && [ \$(wc -l <'$tmp/dj.err') -eq 1 ] && [ ! -s '$tmp/dj.out' ] && grep -q 'nothing in common' '$tmp/dj.err'"
# broken fixture: one benchmark in common is a comparison
reps "$tmp/other2.json" other $P 1000 1001
"$sb" compare "$tmp/base.json" "$tmp/other2.json" >/dev/null 2>&1
check "broken fixture: one in common exits 0" [ $? -eq 0 ]

# typed points, not names: a name that no longer matches its point changes
# no table (broken fixture: the same rename with the point changed must)
sed 's,window/trylock/threads:4/place:scatter,renamed-by-hand,g' "$tmp/new.json" >"$tmp/renamed.json"
"$sb" compare "$tmp/old" "$tmp/renamed.json" >"$tmp/ren" 2>&1
check "a renamed benchmark pairs by its typed point" has_text "$tmp/ren" "$tmp/want"
sed 's,\\"threads\\":4,\\"threads\\":5,' "$tmp/renamed.json" >"$tmp/moved.json"
"$sb" compare "$tmp/old" "$tmp/moved.json" >"$tmp/mov" 2>&1
if has_text "$tmp/mov" "$tmp/want"; then bad "broken fixture: a changed point still pairs"; else ok; fi
sed 's/"sb_schema": "1"/"sb_schema": "99"/' "$tmp/new.json" >"$tmp/future.json"
expect2 "a newer schema is refused" "written with results schema 99; this stratbench reads up to 1" \
	compare "$tmp/old" "$tmp/future.json"
sed 's/\\"threads\\":8,//' "$tmp/new.json" >"$tmp/nothreads.json"
expect2 "a point without a field is refused" 'point field \"threads\" is missing' \
	compare "$tmp/old" "$tmp/nothreads.json"

# plain Google Benchmark output (no ops_per_s): real time, threads-less names
cat >"$tmp/gb1.json" <<'J'
{"context": {"date": "x", "num_cpus": 2}, "benchmarks": [
 {"name": "BM_memcpy/64", "run_name": "BM_memcpy/64", "run_type": "iteration", "iterations": 10, "real_time": 2.0, "cpu_time": 2.0, "time_unit": "us"},
 {"name": "BM_x/threads:2", "run_name": "BM_x/threads:2", "run_type": "iteration", "iterations": 10, "real_time": 40.0, "cpu_time": 4.0, "time_unit": "ns", "c": NaN}]}
J
sed -e 's/"real_time": 2.0/"real_time": 3.0/' -e 's/"real_time": 40.0/"real_time": 30.0/' "$tmp/gb1.json" >"$tmp/gb2.json"
"$sb" compare "$tmp/gb1.json" "$tmp/gb2.json" >"$tmp/gb" 2>&1
check "plain GB: real_time in ns ($(cat "$tmp/gb"))" grep -qE "^- +2000 +3000 +50 +n too small: need 3$" "$tmp/gb"
check "plain GB: a name without typed point is its own row" grep -qE "^- +40 +30 +-25 +n too small: need 3$" "$tmp/gb"
check "plain GB: metric named" grep -q "^real_time:" "$tmp/gb"
"$sb" compare "$tmp/gb1.json" "$tmp/gb2.json" --metric=cpu_time >"$tmp/gbc" 2>&1
check "--metric=cpu_time" grep -qE "^- +4 +4 +0 +n too small: need 3$" "$tmp/gbc"

# bad input: exit 2, one line naming the problem
good="$tmp/new.json"
printf '{"benchmarks": [{"name": "x", ' >"$tmp/malformed.json"
head -c 300 "$good" >"$tmp/truncated.json"
: >"$tmp/empty.json"
echo '{"results": []}' >"$tmp/schema1.json"
echo '[1, 2]' >"$tmp/schema2.json"
echo '{"benchmarks": [{"real_time": 1}]}' >"$tmp/schema3.json"
echo '{"benchmarks": []}' >"$tmp/nobench.json"
echo '{"benchmarks": [{"name": "a", "real_time": "fast"}]}' >"$tmp/schema4.json"
mkdir "$tmp/emptydir"
for v in "malformed:not valid JSON" "truncated:truncated" "empty:empty file" \
	"schema1:no \"benchmarks\" array" "schema2:no \"benchmarks\" array" \
	"schema3:entry 1 is not Google Benchmark" "schema4:entry 1 is not" "nobench:no benchmarks"; do
	f=${v%%:*} needle=${v#*:}
	expect2 "compare $f as OLD" "$needle" compare "$tmp/$f.json" "$good"
	expect2 "compare $f as NEW" "$needle" compare "$good" "$tmp/$f.json"
	expect2 "merge $f" "$needle" merge "$tmp/old" "$tmp/$f.json" --out="$tmp/m_$f"
	check "merge $f wrote nothing" [ ! -e "$tmp/m_$f/machines.csv" ]
done
expect2 "compare missing file" "cannot read" compare "$tmp/nosuch" "$good"
expect2 "compare dir without results" "emptydir/gbench.json: cannot read" compare "$tmp/emptydir" "$good"
expect2 "compare one argument" "compare needs two results" compare "$good"
expect2 "compare three arguments" "takes at most 2" compare "$good" "$good" "$good"
expect2 "compare bad format" "bad value" compare "$good" "$good" --format=xml
expect2 "compare unknown option" "unknown option" compare "$good" "$good" --nosuch
expect2 "compare unknown metric" "no benchmark reports 'nosuch'" compare "$good" "$good" --metric=nosuch

# merge: one row per machine and benchmark, named by label
"$sb" merge "$tmp/old" "$tmp/new.json" --out="$tmp/m" 2>"$tmp/merr"
rc=$?
check "merge exits 0 (rc=$rc: $(cat "$tmp/merr"))" [ "$rc" -eq 0 ]
check "merge header" grep -q "^machine,name,family,strategy,lock,threads,placement,params,metric,median,min,max,cv_pct,repetitions$" "$tmp/m/machines.csv"
check "merge rows by label" grep -q "^prev,$T/threads:4/place:scatter,window,trylock,,4,scatter,,ops_per_s,205332," "$tmp/m/machines.csv"
check "merge rows of NEW" grep -q "^current,$T/threads:8/place:compact,window,trylock,,8,compact,,ops_per_s,74761.9," "$tmp/m/machines.csv"
check "merge.json names the sources" grep -q '"machine": "current"' "$tmp/m/merge.json"
expect2 "merge into existing" "already holds merged results" merge "$tmp/old" --out="$tmp/m"
expect2 "merge same label twice" "both machine 'prev'" merge "$tmp/old" "$tmp/old/gbench.json" --out="$tmp/m2"
expect2 "merge without --out" "merge needs results directories and --out" merge "$tmp/old"

finish test_compare
