#!/usr/bin/env bash
# test_interrupt.sh STRATBENCH — Ctrl-C and SIGTERM of an interleaved,
# repeated run (the default suite's shape) at several moments, and of a
# suite in each of its stages: exit 130 / 143, no Google Benchmark abort,
# every file final-named and complete, holding only finished benchmarks
# (each with all its repetitions and aggregates, once); --resume then
# finishes the rest.  The abort this guards against needs a benchmark
# part-done when the signal comes (tests/test_gbench_stop.c forces it);
# here the moments are counted in finished benchmarks, not seconds.
set -u
sb=$1
tmp=$(mktemp -d /tmp/sb_int.XXXXXX)
pid=
trap '[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
. "$(dirname "$0")/testlib.sh"

# 6 benchmarks × 3 repetitions, shuffled: 7 CSV rows each (3 + mean,
# median, stddev, cv)
run=(--strategy=null,spinlock,trylock --threads=1,2 --placement=compact
	--benchmark_repetitions=3 --benchmark_min_time=0.02
	--benchmark_enable_random_interleaving=true --quiet)
nbench=6

# lines FILE: its finished benchmarks (runs.jsonl lines)
lines() { local n; n=$(grep -c '^{"name"' "$1" 2>/dev/null); echo "${n:-0}"; }
# wait_for FILE K: until FILE holds K finished benchmarks, or the run ended
wait_for() {
	while kill -0 "$pid" 2>/dev/null; do
		[ -e "$1" ] && [ "$(lines "$1")" -ge "$2" ] && return 0
		sleep 0.05
	done
	return 1
}
# whole DIR WHAT REPS: DIR's files are final and hold whole benchmarks only
# (REPS repetitions and 4 aggregates each; a calibration, repeats:1, one row)
whole() {
	local d=$1 what=$2 reps=$3 n rows
	check "$what: no .partial file left ($(cd "$d" && find . -name '*.partial' | tr '\n' ' '))" \
		[ -z "$(find "$d" -name '*.partial')" ]
	n=$(lines "$d/runs.jsonl")
	if [ "$n" -gt 0 ]; then
		check "$what: gbench.json reads back" bash -c "'$sb' compare '$d' '$d' --format=csv >/dev/null"
	else	# nothing finished: the document is whole, with no run in it
		check "$what: gbench.json is a whole empty document" \
			grep -qzE '"benchmarks": \[[[:space:]]*\][[:space:]]*\}[[:space:]]*$' "$d/gbench.json"
	fi
	check "$what: no interrupted run in the files" \
		bash -c "! grep -q interrupted '$d/results.csv' '$d/gbench.json' '$d/runs.jsonl'"
	n=$(cut -d, -f1 "$d/results.csv" | sed 1d | sort -u | wc -l)
	check "$what: results.csv and runs.jsonl hold the same benchmarks ($n, $(lines "$d/runs.jsonl"))" \
		[ "$n" -eq "$(lines "$d/runs.jsonl")" ]
	for b in $(cut -d, -f1 "$d/results.csv" | sed 1d | sort -u); do
		rows=$(grep -c "^$b," "$d/results.csv")
		n=$((reps + 4))
		[[ $b != */repeats:1 ]] || n=1
		check "$what: $b whole in results.csv ($rows rows, want $n)" [ "$rows" -eq "$n" ]
	done
}

# --- a plain interleaved run: SIGINT and SIGTERM after 0, 1, 3 finished ------
for m in INT:0 TERM:0 INT:1 TERM:3; do
	sig=${m%:*} k=${m#*:}
	d=$tmp/run-$sig-$k
	want=$([ "$sig" = INT ] && echo 130 || echo 143)
	"$sb" run "${run[@]}" --out="$d" >"$tmp/out" 2>"$tmp/err" &
	pid=$!
	if ! wait_for "$d/runs.jsonl.partial" "$k"; then
		bad "SIG$sig after $k: the run ended before $k benchmarks finished"
		wait "$pid"; pid=
		continue
	fi
	kill -"$sig" "$pid"
	wait "$pid"
	rc=$?
	pid=
	what="SIG$sig after $k"
	check "$what: exit $want (got $rc: $(tail -1 "$tmp/err"))" [ "$rc" -eq "$want" ]
	check "$what: no Google Benchmark check fired" bash -c "! grep -q 'Check .* failed' '$tmp/err'"
	whole "$d" "$what" 3
	n=$(lines "$d/runs.jsonl")
	check "$what: stopped early ($n of $nbench)" [ "$n" -ge "$k" ] && [ "$n" -lt "$nbench" ]
	check "$what: says how to resume" grep -q "resume=$d" "$tmp/err"
	"$sb" run --resume="$d" --quiet >/dev/null 2>"$tmp/rerr"
	rc=$?
	check "$what: resume exits 0 (rc=$rc: $(tail -1 "$tmp/rerr"))" [ "$rc" -eq 0 ]
	whole "$d" "$what, resumed" 3
	check "$what, resumed: all $nbench benchmarks ($(lines "$d/runs.jsonl"))" \
		[ "$(lines "$d/runs.jsonl")" -eq "$nbench" ]
done

# --- a suite: SIGTERM in its main stage, SIGINT in the resume's kernel stage ---
# The quick suite's main stage is interleaved and repeated as the default's.
d=$tmp/suite
"$sb" run --suite=quick --out="$d" --quiet >"$tmp/sout" 2>"$tmp/serr" &
pid=$!
if wait_for "$d/runs.jsonl.partial" 2; then
	kill -TERM "$pid"
	wait "$pid"
	rc=$?
	pid=
	check "suite, SIGTERM in the main stage: exit 143 (got $rc: $(tail -1 "$tmp/serr"))" [ "$rc" -eq 143 ]
	check "suite, SIGTERM: no Google Benchmark check fired" \
		bash -c "! grep -q 'Check .* failed' '$tmp/serr'"
	whole "$d" "suite, SIGTERM in the main stage" 2
	check "suite, SIGTERM: no later stage started" [ ! -e "$d/kernel" ]
	"$sb" run --resume="$d" --quiet >"$tmp/sout" 2>"$tmp/serr" &
	pid=$!
	if wait_for "$d/kernel/runs.jsonl.partial" 1; then
		kill -INT "$pid"
		wait "$pid"
		rc=$?
		pid=
		check "suite resumed, SIGINT in the kernel stage: exit 130 (got $rc: $(tail -1 "$tmp/serr"))" \
			[ "$rc" -eq 130 ]
		whole "$d" "suite, main stage after the resume" 2
		check "suite, kernel stage interrupted: no .partial file" \
			[ -z "$(find "$d/kernel" -name '*.partial')" ]
		check "suite, kernel stage interrupted: no summary yet" [ ! -e "$d/summary.txt" ]
	else
		wait "$pid"
		bad "suite resumed: its kernel stage finished no benchmark (the resume exited $?)"
	fi
	pid=
	"$sb" run --resume="$d" --quiet >"$tmp/sout" 2>"$tmp/serr"
	rc=$?
	check "suite resumed again: exit 0 (rc=$rc: $(tail -1 "$tmp/serr"))" [ "$rc" -eq 0 ]
	whole "$d" "suite, finished" 2
	check "suite, finished: the summary written" [ -s "$d/summary.txt" ]
	check "suite, finished: the kernel stage complete" [ -s "$d/kernel/gbench.json" ]
else
	wait "$pid"
	bad "suite: the main stage finished fewer than 2 benchmarks (the run exited $?)"
fi
pid=

finish test_interrupt
