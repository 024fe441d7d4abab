#!/usr/bin/env bash
# test_suite.sh STRATBENCH — `stratbench run --suite=NAME`: --dry-run lists
# every stage's benchmarks and a time estimate and writes nothing; a quick
# suite writes both stages' results, suite.json, the plots' index (linking
# summary.txt) and the summary (console, summary.txt, summary.md), under
# the names --dry-run listed; a directory holding results is refused; options narrow the run
# to its first stage; Ctrl-C stops it with the results kept (130) and
# --resume=DIR finishes it; usage errors: one line, exit 2, nothing written.
set -u
sb=$1
tmp=$(mktemp -d /tmp/sb_suite.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/testlib.sh"

# --- --dry-run: both stages, an estimate each and in all, nothing written
"$sb" run --suite=quick --dry-run --out="$tmp/dry" >"$tmp/dry.out" 2>"$tmp/dry.err"
rc=$?
check "dry-run exits 0 (rc=$rc: $(head -2 "$tmp/dry.err"))" [ "$rc" -eq 0 ]
check "dry-run lists the main stage" grep -q "^stage main ($tmp/dry)" "$tmp/dry.out"
check "dry-run lists the kernel stage" grep -q "^stage kernel ($tmp/dry/kernel)" "$tmp/dry.out"
check "dry-run: an estimate per run stage" [ "$(grep -c '^estimate: [0-9]* benchmarks, [0-9]* runs, about [0-9]* s' "$tmp/dry.out")" -eq 2 ]
check "dry-run lists the seed's paired stage and its bound" bash -c "grep -q '^stage seed ($tmp/dry)' '$tmp/dry.out' && grep -q '^estimate: at most 8 s' '$tmp/dry.out'"
check "dry-run: the total" grep -qE '^suite quick: about [0-9]+ s in all' "$tmp/dry.out"
check "dry-run writes nothing" [ ! -e "$tmp/dry" ]
grep -E '^  (window|lock|shootdown|baseline|calibrate)/' "$tmp/dry.out" | sed 's/^  //; s/  (.*//' |
	sort >"$tmp/dry.names"
check "dry-run lists window, lock and kernel points" bash -c "grep -q '^window/spinlock/' '$tmp/dry.names' && grep -q '^lock/ticket/' '$tmp/dry.names' && grep -q '^shootdown/kernel-madvise/' '$tmp/dry.names'"

fails() { ! "$@" 2>/dev/null; }

# --- the estimate's cost per call: measured here, once per thread count
check "dry-run measures each stage's calls here" [ "$(grep -c '^calls: measured here' "$tmp/dry.out")" -eq 2 ]
# the thread counts of the main stage's min_time points (a fixed count has
# no iteration search: its calls are not timed)
sed -n '/^stage main /,/^estimate/p' "$tmp/dry.out" | grep ' s)$' | grep -o 'threads:[0-9]*' |
	cut -d: -f2 | sort -nu | paste -sd, >"$tmp/dry.counts"
sed -n '/^stage main /,/^estimate/p' "$tmp/dry.out" | sed -n 's/^calls: measured here[^:]*: //p' |
	grep -oE '[0-9]+ threads? [0-9.]+ ms(,|$)' | awk '$3 > 0 { print $1 }' | paste -sd, >"$tmp/dry.measured"
check "one measured call cost (> 0 ms, none modelled) per thread count of the stage: $(cat "$tmp/dry.measured")" \
	bash -c "[ -s '$tmp/dry.counts' ] && cmp -s '$tmp/dry.counts' '$tmp/dry.measured'"
# est_uses_call PLAN MS: PLAN (one benchmark, 1000 x 0.1 ms) is the model
# with a call of MS: 0.5 s a process, (1.9 + 1.8 x 1000) x 0.1 ms timed,
# (3 + 1000) calls; the 1000 repetitions make the call's share the whole
# estimate, printed in whole seconds
est_uses_call() {
	awk -v ms="$2" '/^estimate:/ && match($0, /about [0-9]+ s/) {
		e = substr($0, RSTART + 6, RLENGTH - 8)
	} END {
		want = 0.5 + (1.9 + 1.8 * 1000) * 0.0001 + 1003 * ms / 1000
		if (e == "" || e - want > 0.6 || want - e > 0.6) {
			printf "  estimate %s s, the model with a %s ms call: %.2f s\n", e, ms, want > "/dev/stderr"
			exit 1
		}
	}' "$1"
}
one=(run --family=baseline --placement=compact --benchmark_repetitions=1000
	--benchmark_min_time=0.0001 --dry-run)
"$sb" "${one[@]}" --threads=1 >"$tmp/one.out" 2>"$tmp/one.err"
rc=$?
ms=$(sed -n 's/^calls: measured here.*: 1 thread \([0-9.]*\) ms$/\1/p' "$tmp/one.out")
check "a one-benchmark dry run: exit 0, nothing on stderr (rc=$rc)" \
	bash -c "[ $rc -eq 0 ] && [ ! -s '$tmp/one.err' ]"
check "a benchmark's estimate takes the call measured here ($ms ms)" est_uses_call "$tmp/one.out" "$ms"
# another machine: 512 threads, the model's 18 + 512 ms a call
"$sb" "${one[@]}" --threads=512 --topology="synthetic:pack:2 core:256 pu:1" >"$tmp/one-model.out" 2>&1
modelled() { ! grep -q '^calls:' "$1" && est_uses_call "$1" 530; }
check "another machine's topology: the model's call (530 ms), nothing measured" \
	modelled "$tmp/one-model.out"
check "broken: that model's call in place of the one measured here fails the check" \
	fails est_uses_call "$tmp/one-model.out" "$ms"
# this machine, but a taskset that leaves out a CPU of the plan: no team can
# be made, so that count takes the model (18 + 2 ms) and the line says so
if [ "$(nproc --all)" -ge 2 ] && taskset -c 0 true 2>/dev/null; then
	taskset -c 0 "$sb" "${one[@]}" --threads=2 >"$tmp/one-ts.out" 2>&1
	check "a taskset narrower than the plan: that count modelled, and said" \
		grep -q '^calls: modelled, none measured here, .*: 2 threads 20.00 ms (modelled: no team could be made)$' "$tmp/one-ts.out"
	check "and the estimate takes the model's 20 ms call" est_uses_call "$tmp/one-ts.out" 20
	taskset -c 0 "$sb" "${one[@]}" --threads=1,2 >"$tmp/two-ts.out" 2>&1
	check "1 thread measured, 2 modelled: the line says where" \
		grep -qE '^calls: measured here where a team could be made, .*: 1 thread [0-9.]+ ms, 2 threads 20.00 ms \(modelled: no team could be made\)$' "$tmp/two-ts.out"
else
	echo "skipped: the taskset case needs 2 CPUs and taskset (nproc --all $(nproc --all))"
fi

# --- the default suite planned for the lab shapes (dry runs): at most 900 s
# by its own estimate, and every stage at the thread counts chosen from the
# machine, on the placements that differ there
# plan_ok OUT COUNTS: the dry run OUT is within 900 s and its main, kernel
# and seed stages run exactly at COUNTS (a comma list)
plan_ok() {
	local out=$1 want=$2 total got
	total=$(sed -n 's/^suite default: about \([0-9]*\) s in all.*/\1/p' "$out")
	[ -n "$total" ] && [ "$total" -le 900 ] || { echo "  $out: total '$total' s" >&2; return 1; }
	for st in main kernel; do
		got=$(sed -n "/^stage $st /,/^estimate/p" "$out" | grep -o 'threads:[0-9]*' |
			cut -d: -f2 | sort -nu | paste -sd,)
		[ "$got" = "$want" ] || { echo "  $out: $st at $got" >&2; return 1; }
	done
	sed -n '/^stage seed /,/^estimate/p' "$out" | grep -q -- "--threads=$want --placement=auto " ||
		{ echo "  $out: seed not at $want" >&2; return 1; }
}
lab() {	# lab NAME TOPOLOGY: its dry run in $tmp/NAME.plan
	"$sb" run --suite=default --dry-run --topology="$2" --out="$tmp/lab" >"$tmp/$1.plan" 2>/dev/null
}
lab haswell "synthetic:pack:2 numa:1 l3:1 core:12 pu:2"
check "Haswell 48: within 900 s, at 1,2,12,24,48" plan_ok "$tmp/haswell.plan" 1,2,12,24,48
lab power8 "synthetic:pack:2 numa:2 core:5 pu:8"
check "POWER8 160: within 900 s, at 1,2,10,20,160" plan_ok "$tmp/power8.plan" 1,2,10,20,160
lab power9 "synthetic:pack:2 numa:1 l3:11 core:2 pu:4"
check "POWER9 176: within 900 s, at 1,2,22,44,176" plan_ok "$tmp/power9.plan" 1,2,22,44,176
check "Haswell: 2 threads on SMT siblings, one package, two packages" \
	[ "$(sed -n '/^stage kernel /,/^estimate/p' "$tmp/haswell.plan" | grep -o 'batch:1/threads:2/place:[a-z]*' | sort -u | wc -l)" -eq 3 ]
check "Haswell: one placement at all CPUs (the same set)" \
	[ "$(grep -o 'kernel-madvise/immediate/batch:1/threads:48/place:[a-z]*' "$tmp/haswell.plan" | wc -l)" -eq 1 ]
check "dry run says what the verdicts resolve" \
	bash -c "grep -q '^resolves: the main stage.s 3 repetitions a side, changes of about 2.6 % at CV 1 %' '$tmp/haswell.plan' && grep -q '^resolves: the seed stage.s paired trials to +-2 %' '$tmp/haswell.plan'"
# broken fixtures: the old sweep (every auto count) breaks the bound and the
# counts; a machine too big for the budget breaks the bound
SB_SUITE_THREADS=auto lab haswell-auto "synthetic:pack:2 numa:1 l3:1 core:12 pu:2"
check "broken: every auto count on the Haswell fails the check" \
	fails plan_ok "$tmp/haswell-auto.plan" 1,2,12,24,48
check "broken: the old sweep's estimate is over 900 s" \
	bash -c "sed -n 's/^suite default: about \([0-9]*\) s in all.*/\1/p' '$tmp/haswell-auto.plan' | awk '{ exit !(\$1 > 900) }'"
SB_SUITE_THREADS=1,2 lab haswell-12 "synthetic:pack:2 numa:1 l3:1 core:12 pu:2"
check "broken: 1 and 2 threads only (the old seed and kernel stages) fail the counts" \
	fails plan_ok "$tmp/haswell-12.plan" 1,2,12,24,48
lab huge "synthetic:pack:8 core:64 pu:8"
check "broken: an 8-socket 4096-CPU shape cannot fit 900 s" \
	fails plan_ok "$tmp/huge.plan" 1,2,64,512,4096
check "the planned shapes wrote nothing" [ ! -e "$tmp/lab" ]

# --- usage errors: one line, exit 2, nothing written
expect2 "unknown suite" "bad value" run --suite=nope --out="$tmp/u1"
check "unknown suite: nothing written" [ ! -e "$tmp/u1" ]
expect2 "suite with --resume" "--suite and --resume" run --suite=quick --resume="$tmp/u2"

# --- a quick suite: both stages, plots, the summary
"$sb" run --suite=quick --out="$tmp/q" --quiet >"$tmp/q.out" 2>"$tmp/q.err"
rc=$?
check "quick suite exits 0 (rc=$rc: $(grep stratbench: "$tmp/q.err" | tail -3))" [ "$rc" -eq 0 ]
for f in suite.json run.json gbench.json results.csv summary.txt summary.md index.html ab.json \
	kernel/run.json kernel/gbench.json kernel/results.csv; do
	check "quick suite wrote $f" [ -s "$tmp/q/$f" ]
done
check "no .partial file left" bash -c "! find '$tmp/q' -name '*.partial' | grep -q ."
check "the summary is on the console" grep -q '^window policies against spinlock' "$tmp/q.out"
# docs/console.md's bound is the live table's; the summary's tables are as
# wide as their cells (a preempted mark in the interval column takes 22)
check "no console line over 160 characters before the summary" \
	bash -c "! sed '/^Summary\$/,\$d' '$tmp/q.out' | cat - '$tmp/q.err' | awk 'length > 160' | grep -q ."
check "one table per family, though interleaved" [ "$(grep -c '^window: medians of' "$tmp/q.out")" -eq 1 ]
check "summary.txt is the console's summary" bash -c "diff <(sed -n '/^Summary$/,\$p' '$tmp/q.out') '$tmp/q/summary.txt' >/dev/null"
check "summary.md: the window table" grep -q '^\*\*window policies against spinlock' "$tmp/q/summary.md"
check "summary.md: the lock table" grep -q '^\*\*locks against pthread_spin' "$tmp/q/summary.md"
check "summary: the seed's paired comparisons, each with its interval" \
	[ "$(grep -cE '^  (spinlock -> trylock|trylock -> cmpxchg) \(window, threads:[12], place:compact\), [0-9]+ pairs: ops_per_s [-+][0-9.]+ % \[' "$tmp/q/summary.txt")" -eq 4 ]
check "summary: the files of both stages" bash -c "grep -q '^  $tmp/q/: gbench.json results.csv runs.jsonl .*suite.json ab.json index.html plots/ ([0-9]* figures)' '$tmp/q/summary.txt' && grep -q '^  $tmp/q/kernel/: gbench.json' '$tmp/q/summary.txt'"
check "summary.md: the kernel table" grep -q '^\*\*kernel shootdown: batched calls against immediate' "$tmp/q/summary.md"
check "stderr names the summary files" grep -q "summary in $tmp/q/summary.txt" "$tmp/q.err"
# links_summary PAGE: the page links summary.txt, with no "No summary.txt" note
links_summary() { grep -qF '<a href="summary.txt">summary.txt</a>' "$1" && ! grep -q 'No summary.txt' "$1"; }
check "index.html of the first plot links summary.txt (written before the plots)" \
	links_summary "$tmp/q/index.html"
sed 's|<a href="summary.txt">summary.txt</a>||' "$tmp/q/index.html" >"$tmp/nolink.html"
check "broken: a page without the link fails" fails links_summary "$tmp/nolink.html"
check "the suite says its estimate at the start" grep -qE '^stratbench: suite: about [0-9]+ s by its estimate' "$tmp/q.err"
check "each stage says its estimate" [ "$(grep -cE '^stratbench: suite stage [1-3]/3: [a-z]+ -> .* \(estimate: about [0-9]+ s\)$' "$tmp/q.err")" -eq 3 ]
check "the estimates are recorded" [ "$(grep -c '"estimate_s": [0-9.]*[1-9]' "$tmp/q/suite.json")" -eq 3 ]
check "the estimates' dry runs say nothing on stderr" [ "$(grep -c 'skipped:' "$tmp/q.err")" -le 1 ]
check "summary DIR prints exactly what the suite saved (kernel stage and pairs too)" \
	bash -c "diff <('$sb' summary '$tmp/q' 2>/dev/null) '$tmp/q/summary.txt' >/dev/null"
# the names run are the names --dry-run listed (the plan is the suite's)
for d in "$tmp/q" "$tmp/q/kernel"; do
	grep -o '"run_name": "[^"]*"' "$d/gbench.json" | sed 's/.*: "//; s/"$//; s,/manual_time$,,; s,/iterations:[0-9]*/repeats:[0-9]*,,'
done | sort -u >"$tmp/run.names"
check "the suite ran exactly the benchmarks --dry-run listed" diff "$tmp/dry.names" "$tmp/run.names"
check "the suite's record names both stages" bash -c "grep -q '\"name\": \"main\"' '$tmp/q/suite.json' && grep -q '\"name\": \"kernel\"' '$tmp/q/suite.json'"
"$sb" compare "$tmp/q" "$tmp/q" >"$tmp/cmp" 2>&1
check "compare of the suite's directory with itself" [ $? -eq 0 ]
expect2 "a directory holding a suite is refused" "already holds results" run --suite=quick --out="$tmp/q"
check "refused: the suite's files untouched" [ -s "$tmp/q/summary.md" ]

# --- options narrow the run to the first stage; Ctrl-C, then --resume
"$sb" run --suite=quick --out="$tmp/i" --family=lock --strategy=tas,ticket --threads=1 \
	--benchmark_min_time=0.4 --benchmark_repetitions=3 >"$tmp/i.out" 2>"$tmp/i.err" &
pid=$!
for _ in $(seq 100); do	# the first benchmark has finished: then interrupt
	[ -s "$tmp/i/runs.jsonl.partial" ] && grep -q '"benchmarks"' "$tmp/i/runs.jsonl.partial" && break
	sleep 0.1
done
kill -INT $pid
wait $pid
rc=$?
check "interrupted suite exits 130 (rc=$rc)" [ "$rc" -eq 130 ]
check "narrowed: said once" [ "$(grep -c 'the later stages are left out' "$tmp/i.err")" -eq 1 ]
check "narrowed: no kernel stage" [ ! -e "$tmp/i/kernel" ]
check "interrupted: the resume is named" grep -q "run --resume=$tmp/i" "$tmp/i.err"
"$sb" run --resume="$tmp/i" --quiet >"$tmp/r.out" 2>"$tmp/r.err"
rc=$?
check "resume of the suite exits 0 (rc=$rc: $(tail -2 "$tmp/r.err"))" [ "$rc" -eq 0 ]
check "resumed: both locks' 3 repetitions" [ "$(grep -cE '"name": "lock/(tas|ticket)/threads:1/place:[a-z]+/manual_time"' "$tmp/i/gbench.json")" -eq 6 ]
check "resumed: the summary written" grep -q '^\*\*locks against pthread_spin\|^## Summary' "$tmp/i/summary.md"
snap "$tmp/i" >"$tmp/snap.before"
sleep 0.05	# a write now has another mtime, whatever the file system's granularity
"$sb" run --resume="$tmp/i" >"$tmp/r2.out" 2>"$tmp/r2.err"
check "a finished suite resumed again: nothing to run, exit 0" [ $? -eq 0 ]
check "a finished suite resumed again: says so" grep -q "nothing to resume: '$tmp/i' is complete" "$tmp/r2.err"
snap "$tmp/i" >"$tmp/snap.after"
check "a finished suite resumed again: no file written, created or removed" \
	cmp -s "$tmp/snap.before" "$tmp/snap.after"
finish test_suite
