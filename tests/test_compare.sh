#!/usr/bin/env bash
# test_compare.sh STRATBENCH — `stratbench compare` and `merge` on JSON files
# this test writes: %Change and the table layout against the seed
# changelog's numbers, the significance column, counters, benchmarks on one
# side only, plain Google Benchmark output; bad input (malformed,
# truncated, empty, wrong schema): exit 2, one line, no crash.
set -u
sb=$1
tmp=$(mktemp -d /tmp/sb_cmp.XXXXXX)
trap "" EXIT
. "$(dirname "$0")/testlib.sh"

# entry NAME OPS [AGG]: one Google Benchmark JSON entry of ours
entry() {
	local name=$1 ops=$2 agg=${3:-} rep=${4:-0} extra=${5:-}
	if [ -n "$agg" ]; then
		printf '{"name": "%s/manual_time_%s", "run_name": "%s/manual_time", "run_type": "aggregate", "aggregate_name": "%s", "repetitions": 3, "threads": 1, "iterations": 3, "real_time": 1.0, "cpu_time": 1.0, "time_unit": "ns", "ops_per_s": %s%s}' \
			"$name" "$agg" "$name" "$agg" "$ops" "$extra"
	else
		printf '{"name": "%s/manual_time", "run_name": "%s/manual_time", "run_type": "iteration", "repetitions": 1, "repetition_index": %s, "threads": 1, "iterations": 1000, "real_time": 1.0, "cpu_time": 1.0, "time_unit": "ns", "ops_per_s": %s%s}' \
			"$name" "$name" "$rep" "$ops" "$extra"
	fi
}
# point NAME: the typed point this test means by NAME, as the escaped JSON
# text of one sb_points member (the fixture's own bookkeeping: stratbench
# reads the fields, never the name)
point() {
	local IFS=/ part fam strat lock=null thr=1 place="" params="" k
	set -- $1
	fam=$1 strat=$2; shift 2
	for part in "$@"; do
		k=${part%%:*}
		case $k in
		threads) thr=${part#*:} ;;
		place) place=${part#*:} ;;
		lock) lock="\\\"${part#*:}\\\"" ;;
		*) params+="${params:+,}\\\"$k\\\":\\\"${part#*:}\\\"" ;;
		esac
	done
	printf '\\"%s\\":{\\"family\\":\\"%s\\",\\"strategy\\":\\"%s\\",\\"lock\\":%s,\\"threads\\":%s,\\"placement\\":\\"%s\\",\\"params\\":{%s}}' \
		"$(IFS=/; echo "$fam/$strat/$*")" "$fam" "$strat" "$lock" "$thr" "$place" "$params"
}
# doc LABEL ENTRY...: a results file with our context, its points typed
doc() {
	local label=$1 names n pts=""; shift
	names=$(printf '%s\n' "$@" | grep -o '"run_name": "[^"]*/manual_time"' | sed 's/.*: "//; s,/manual_time",,' | sort -u)
	for n in $names; do pts+="${pts:+,}$(point "$n")"; done
	printf '{"context": {"date": "x", "host_name": "h", "sb_label": "%s", "sb_host": "h-%s", "sb_cpu_model": "Test CPU", "sb_schema": "1", "sb_points": "{%s}"}, "benchmarks": [' "$label" "$label" "$pts"
	local first=1 e
	for e in "$@"; do
		[ $first -eq 1 ] || printf ','
		first=0
		printf '%s' "$e"
	done
	printf ']}\n'
}

# has_text FILE TEXTFILE: FILE holds TEXTFILE's text as one block (grep -F
# would take each of its lines as a pattern of its own)
has_text() { [[ "$(cat "$1")" == *"$(cat "$2")"* ]]; }
has_str() { [[ "$(cat "$1")" == *"$2"* ]]; }

T=window/trylock
mkdir -p "$tmp/old" "$tmp/new"
# the seed's Haswell and POWER8 rows (single runs: no significance column)
doc prev "$(entry $T/threads:4/place:scatter 205332)" "$(entry $T/threads:1/place:scatter 319785)" \
	"$(entry $T/threads:8/place:compact 74912 "" 0 ', "cnt:cs": 5, "cnt:cs/op": 14285708, "cnt:vmstat:numa_hint_faults/op": 26907, "cnt:irq:TLB@team/op": 3, "jain": 1')" \
	"$(entry window/gone/threads:1/place:compact 5)" >"$tmp/old/gbench.json"
doc current "$(entry $T/threads:1/place:scatter 313559)" "$(entry $T/threads:4/place:scatter 198512)" \
	"$(entry $T/threads:8/place:compact 74761.9 "" 0 ', "cnt:cs": 6, "cnt:cs/op": 13818546, "cnt:vmstat:numa_hint_faults/op": 72692, "cnt:irq:TLB@team/op": 4, "jain": 1')" \
	"$(entry window/new/threads:2/place:compact 7)" >"$tmp/new.json"

"$sb" compare "$tmp/old" "$tmp/new.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "compare exits 0 (rc=$rc: $(head -2 "$tmp/err"))" [ "$rc" -eq 0 ]
# the table exactly as in the changelog; groups by name, rows by threads
cat >"$tmp/want" <<'TABLE'
window/trylock place:compact
threads  Prev   Current  %Change
8        74912  74761.9  -0.200368

window/trylock place:scatter
threads  Prev    Current  %Change
1        319785  313559   -1.94693
4        205332  198512   -3.32145
TABLE
check "seed table layout and numbers ($(cat "$tmp/out"))" has_text "$tmp/out" "$tmp/want"
check "metric and labels named" grep -q "^ops_per_s: prev (.*) vs current (.*)" "$tmp/out"
check "no p(U) without repetitions" bash -c "! grep -q 'p(U)' '$tmp/out'"
check "perf event table, per op" \
	has_str "$tmp/out" $'perf stats per op, window/trylock/threads:8/place:compact\nEvent  Before    After\ncs     14285708  13818546\n'
check "vmstat event table" \
	has_str "$tmp/out" $'vmstat per op, window/trylock/threads:8/place:compact\nEvent             Before  After\nnuma_hint_faults  26907   72692\n'
check "interrupts event table" grep -qE '^TLB@team +3 +4$' "$tmp/out"
check "harness counters and totals stay out of the event tables" \
	bash -c "! grep -qE '^(jain|cnt:cs|cs +5)' '$tmp/out'"
check "only in OLD listed" grep -q "^only in OLD .*: window/gone/threads:1/place:compact" "$tmp/out"
check "only in NEW listed" grep -q "^only in NEW .*: window/new/threads:2/place:compact" "$tmp/out"

# markdown and csv
"$sb" compare "$tmp/old" "$tmp/new.json" --format=markdown >"$tmp/md"
check "markdown table" grep -qF "| 4 | 205332 | 198512 | -3.32145 |" "$tmp/md"
check "markdown header" grep -qF "|:---|---:|---:|---:|" "$tmp/md"
"$sb" compare "$tmp/old" "$tmp/new.json" --format=csv >"$tmp/csv"
check "csv row" grep -q "^$T/threads:8/place:compact,$T place:compact,8,74912,74761.9,-0.200368," "$tmp/csv"
check "csv lists one-sided" grep -q "^window/gone/threads:1/place:compact,,,only," "$tmp/csv"

# repetitions: medians and the Mann-Whitney column (3 vs 3 all above: p = 0.1)
doc a "$(entry $T/threads:2/place:scatter 100 "" 0)" "$(entry $T/threads:2/place:scatter 110 "" 1)" \
	"$(entry $T/threads:2/place:scatter 120 "" 2)" "$(entry $T/threads:2/place:scatter 110 median)" >"$tmp/ra.json"
doc b "$(entry $T/threads:2/place:scatter 130 "" 0)" "$(entry $T/threads:2/place:scatter 140 "" 1)" \
	"$(entry $T/threads:2/place:scatter 150 "" 2)" >"$tmp/rb.json"
"$sb" compare "$tmp/ra.json" "$tmp/rb.json" >"$tmp/rep" 2>&1
check "median of repetitions, %Change, p(U) ($(cat "$tmp/rep"))" \
	grep -qE "^2 +110 +140 +27.2727 +0.1$" "$tmp/rep"
check "p(U) column and its floor explained" grep -q "cannot go below 0.1" "$tmp/rep"

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
check "plain GB: real_time in ns ($(cat "$tmp/gb"))" grep -qE "^- +2000 +3000 +50$" "$tmp/gb"
check "plain GB: a name without typed point is its own row" grep -qE "^- +40 +30 +-25$" "$tmp/gb"
check "plain GB: metric named" grep -q "^real_time:" "$tmp/gb"
"$sb" compare "$tmp/gb1.json" "$tmp/gb2.json" --metric=cpu_time >"$tmp/gbc" 2>&1
check "--metric=cpu_time" grep -qE "^- +4 +4 +0$" "$tmp/gbc"

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
