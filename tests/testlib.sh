# testlib.sh — sourced by the shell tests: counters and checks.
#   check WHAT CMD...            passes when CMD succeeds
#   expect2 WHAT NEEDLE ARGS...  $sb ARGS exits 2 with one stderr line holding NEEDLE
#   finish NAME                  prints "NAME: N passed, M failed", returns non-zero on failure
#   col CSV NAME                 the number of a results.csv column, by its header
#   snap DIR                     DIR's files with sizes and times (nothing written?)
#   entry NAME OPS [AGG [REP [EXTRA]]]  one Google Benchmark JSON entry of ours
#   doc LABEL ENTRY...           a results file of those entries, points typed
# Needs $sb (the binary) and $tmp (a scratch directory).
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAILED: $*" >&2; }
check() { local what=$1; shift; if "$@"; then ok; else bad "$what"; fi; }
expect2() {
	local what=$1 needle=$2; shift 2
	"$sb" "$@" >"$tmp/o" 2>"$tmp/e"
	local rc=$? lines
	lines=$(wc -l <"$tmp/e")
	if [ "$rc" -eq 2 ] && [ "$lines" -eq 1 ] && grep -q -- "$needle" "$tmp/e"; then ok
	else bad "$what: rc=$rc lines=$lines stderr='$(head -3 "$tmp/e")' (want 2, 1, '$needle')"; fi
}
col() { head -1 "$1" | tr ',' '\n' | grep -nx "$2" | cut -d: -f1; }
# snap DIR: every file under DIR with its size and times, to compare
snap() { (cd "$1" && find . -printf '%p %s %T@ %C@\n' | sort); }
finish() {
	echo "$1: $pass passed, $fail failed"
	[ "$fail" -eq 0 ]
}

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
