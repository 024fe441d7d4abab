#!/usr/bin/env bash
# test_resume.sh STRATBENCH — interrupted sweeps: SIGKILL after k results
# leaves k complete, readable results and --resume completes the sweep
# without redoing them; SIGINT and SIGTERM finish the files (exit 130, 143);
# --resume refuses another machine, another revision, extra options.
set -u
sb=$1
tmp=$(mktemp -d /tmp/sb_res.XXXXXX)
pid=
trap '[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
. "$(dirname "$0")/testlib.sh"

# 4 benchmarks of 2 repetitions: 6 CSV rows each (2 + mean, median, stddev, cv)
sweep=(--strategy=null,spinlock --threads=1,2 --placement=compact --benchmark_repetitions=2
	--benchmark_min_time=0.15 --quiet)
names="window/null/threads:1/place:compact window/null/threads:2/place:compact
window/spinlock/lock:queued/threads:1/place:compact window/spinlock/lock:queued/threads:2/place:compact"

# wait_results DIR FILE K [S]: until FILE has K benchmark lines (S seconds
# at most, default 30)
wait_results() {
	local i
	for i in $(seq $((${4:-30} * 10))); do
		local n
		n=$(grep -c '^{"name"' "$1/$2" 2>/dev/null)
		[ "${n:-0}" -ge "$3" ] && return 0
		sleep 0.1
	done
	return 1
}
# rows_of CSV NAME: how many rows NAME has
rows_of() { awk -F, -v n="$2" '$1 == n' "$1" | wc -l; }

# --- SIGKILL after k = 2 results -------------------------------------------
d=$tmp/kill
"$sb" run "${sweep[@]}" --out="$d" >"$tmp/kill.out" 2>&1 &
pid=$!
check "2 results before the kill" wait_results "$d" runs.jsonl.partial 2
kill -9 "$pid"; wait "$pid" 2>/dev/null; pid=
k=$(grep -c '^{"name"' "$d/runs.jsonl.partial")
check "killed before the end (k=$k)" [ "$k" -ge 2 ] && [ "$k" -lt 4 ]
check "no file looks complete after SIGKILL" [ ! -e "$d/gbench.json" ] && [ ! -e "$d/results.csv" ]
done_names=$(grep -o '"run_name":"[^"]*' "$d/runs.jsonl.partial" | sed 's/.*"run_name":"//; s#/manual_time##' | sort -u)
check "k distinct benchmarks in the log" [ "$(echo "$done_names" | wc -l)" -eq "$k" ]
for n in $done_names; do
	check "$n: its 6 CSV rows kept" [ "$(rows_of "$d/results.csv.partial" "$n")" -eq 6 ]
done
grep -F -f <(echo "$done_names" | sed 's/$/,/') "$d/results.csv.partial" >"$tmp/kept_rows"
"$sb" compare "$d" "$d" --format=csv >"$tmp/kcmp" 2>&1
check "compare reads the k results of a killed run" [ "$(grep -c '/place:compact,' "$tmp/kcmp")" -eq "$k" ]
grep -q '"complete": false' "$d/run.json"
check "run.json says incomplete" [ $? -eq 0 ]

# --resume completes it: every benchmark once, the k earlier ones untouched
"$sb" run --resume="$d" --quiet >"$tmp/res.out" 2>"$tmp/res.err"
rc=$?
check "resume exits 0 (rc=$rc: $(tail -1 "$tmp/res.err"))" [ "$rc" -eq 0 ]
check "resumed: gbench.json and results.csv" [ -s "$d/gbench.json" ] && [ -s "$d/results.csv" ]
check "resumed: no .partial left" [ -z "$(ls "$d" | grep partial)" ]
for n in $names; do
	check "$n once in results.csv" [ "$(rows_of "$d/results.csv" "$n")" -eq 6 ]
	check "$n once in gbench.json" [ "$(grep -c "\"run_name\": \"$n/manual_time\"" "$d/gbench.json")" -eq 6 ]
done
check "the k earlier results kept as they were" grep -qxF -f "$tmp/kept_rows" "$d/results.csv"
# the console's table: one row per benchmark run (docs/console.md)
check "only the missing ones ran again" [ "$(awk '/^Summary$/ { exit } /^    note: / { next } /^strategy / { t = 1; next } /^$/ { t = 0 } t' \
	"$tmp/res.out" | wc -l)" -eq $((4 - k)) ]
check "resumed gbench.json reads back" "$sb" compare "$d" "$d" --format=csv >/dev/null
check "context says resumed" grep -q "\"sb_resumed\": \"$k benchmarks finished" "$d/gbench.json"
grep -q '"complete": true' "$d/run.json"
check "run.json complete" [ $? -eq 0 ]
# every file of DIR, its size and times: nothing written, created or removed
snap "$d" >"$tmp/snap.before"
sleep 0.05	# a write now has another mtime, whatever the file system's granularity
"$sb" run --resume="$d" >/dev/null 2>"$tmp/again"
rc=$?
snap "$d" >"$tmp/snap.after"
check "resume of a complete run: nothing to do" grep -q "nothing to resume" "$tmp/again"
check "resume of a complete run: exit 0, one line (rc=$rc)" \
	[ "$rc" -eq 0 ] && [ "$(wc -l <"$tmp/again")" -eq 1 ]
check "resume of a complete run: nothing in DIR written ($(diff "$tmp/snap.before" "$tmp/snap.after" | grep '^>' | head -2 | tr '\n' ' '))" \
	cmp -s "$tmp/snap.before" "$tmp/snap.after"
"$sb" run "${sweep[@]}" --out="$d" >/dev/null 2>"$tmp/again2"
check "re-running into it without --resume refused" [ $? -eq 2 ] && grep -q "already holds results" "$tmp/again2"

# --- SIGINT, SIGTERM: valid files, 130 / 143 ---------------------------------
for sig in INT TERM; do
	d=$tmp/sig$sig
	"$sb" run "${sweep[@]}" --out="$d" >"$tmp/$sig.out" 2>"$tmp/$sig.err" &
	pid=$!
	wait_results "$d" runs.jsonl.partial 1
	kill -$sig "$pid"
	wait "$pid"
	rc=$?
	pid=
	want=$([ $sig = INT ] && echo 130 || echo 143)
	check "SIG$sig: exit $want (got $rc)" [ "$rc" -eq "$want" ]
	check "SIG$sig: files finished" [ -s "$d/gbench.json" ] && [ -s "$d/results.csv" ] && \
		[ -z "$(ls "$d" | grep partial)" ]
	check "SIG$sig: gbench.json is complete JSON" "$sb" compare "$d" "$d" --format=csv >/dev/null
	n=$(grep -c '^{"name"' "$d/runs.jsonl")
	check "SIG$sig: stopped early ($n of 4)" [ "$n" -ge 1 ] && [ "$n" -lt 4 ]
	check "SIG$sig: no interrupted rows" bash -c "! grep -q interrupted '$d/results.csv' '$d/gbench.json'"
	for n in $(cut -d, -f1 "$d/results.csv" | sed 1d | sort -u); do
		check "SIG$sig: $n complete in CSV" [ "$(rows_of "$d/results.csv" "$n")" -eq 6 ]
	done
	check "SIG$sig: says how to resume" grep -q "resume=$d" "$tmp/$sig.err"
done
"$sb" run --resume="$tmp/sigINT" --quiet >/dev/null 2>&1
check "resume after SIGINT completes" [ "$(grep -c '"run_name": ".*/manual_time"' "$tmp/sigINT/gbench.json")" -eq 24 ]

# --- --limits: killed after the calibration, resumed ---------------------------
# The calibration is not run again (each benchmark once in the files) and
# the lock points of the resumed session still get limit_ops and of_limit
# from it: the finished runs feed the limits table.
lim=(--family=lock --strategy=ticket --threads=1,2 --placement=compact --limits
	--benchmark_repetitions=2 --benchmark_min_time=0.05 --quiet)
ncal=$("$sb" run "${lim[@]}" --benchmark_list_tests 2>/dev/null | grep -c '^calibrate/')
d=$tmp/limits
"$sb" run "${lim[@]}" --out="$d" >"$tmp/lim.out" 2>&1 &
pid=$!
# (23 of them in the 4-CPU lab guest, where they take a minute)
check "the $ncal calibration results before the kill" wait_results "$d" runs.jsonl.partial "$ncal" 300
kill -9 "$pid"; wait "$pid" 2>/dev/null; pid=
"$sb" run --resume="$d" --quiet >/dev/null 2>"$tmp/lim.err"
check "limits: resume exits 0 ($(tail -1 "$tmp/lim.err"))" [ $? -eq 0 ]
check "limits: each benchmark once in the log" \
	[ "$(grep -c '^{"name"' "$d/runs.jsonl")" -eq $((ncal + 2)) ]
check "limits: each calibration row once in results.csv" \
	[ "$(grep -c '^calibrate/' "$d/results.csv")" -eq "$ncal" ]
c_rep=$(col "$d/results.csv" repetition)
c_of=$(col "$d/results.csv" of_limit)
nlim=$(awk -F, -v r="$c_rep" -v o="$c_of" '$1 ~ /^lock\// && $r >= 0 && $o != "" && $o > 0' "$d/results.csv" | wc -l)
check "limits: all 4 lock repetitions carry of_limit ($nlim)" [ "$nlim" -eq 4 ]
# random interleaving shuffles within a stage only: the calibration, then
# the 1-thread points, then the rest, so no repetition misses its limit
d=$tmp/interleaved
"$sb" run "${lim[@]/--benchmark_repetitions=2/--benchmark_repetitions=3}" \
	--benchmark_enable_random_interleaving=true --out="$d" >/dev/null 2>&1
check "interleaved: exit 0" [ $? -eq 0 ]
nlim=$(awk -F, -v r="$c_rep" -v o="$c_of" '$1 ~ /^lock\// && $r >= 0 && $o != "" && $o > 0' "$d/results.csv" | wc -l)
check "interleaved: all 6 lock repetitions carry of_limit ($nlim)" [ "$nlim" -eq 6 ]
# the stage of each line, from its typed point: calibrate 0, 1 thread 1, else 2
stages=$(grep -o '"point":{"family":"[^"]*","strategy":"[^"]*","lock":[^,]*,"threads":[0-9]*' \
	"$d/runs.jsonl" | sed 's/"point":{"family":"\([^"]*\)".*"threads":\([0-9]*\)/\1 \2/' |
	awk '{ print $1 == "calibrate" ? 0 : $2 == 1 ? 1 : 2 }' | tr -d '\n')
check "interleaved: stages in order ($stages)" grep -Eqx '0+1+2+' <(echo "$stages")

# --- refusals: one line, exit 2 ----------------------------------------------
d=$tmp/sigTERM
cp "$d/run.json" "$tmp/run.json.good"
sed -i 's/"host": "[^"]*"/"host": "elsewhere"/' "$d/run.json"
expect2 "another machine" "recorded on another machine" run --resume="$d"
cp "$tmp/run.json.good" "$d/run.json"
sed -i 's/"git_revision": "[^"]*"/"git_revision": "0123456789ab"/' "$d/run.json"
expect2 "another revision" "recorded by revision 0123456789ab" run --resume="$d"
echo '{"argv": [' >"$d/run.json"
expect2 "malformed run.json" "run.json is malformed" run --resume="$d"
cp "$tmp/run.json.good" "$d/run.json"
expect2 "extra options" "drop '--threads=1'" run --resume="$d" --threads=1
expect2 "not a results dir" "no run.json" run --resume="$tmp"
check "refusals left the results alone" "$sb" compare "$d" "$d" --format=csv >/dev/null

finish test_resume
