#!/usr/bin/env bash
# test_dirlock.sh STRATBENCH — one writer per results directory, and resumes
# that die: DIR/.lock is held by run --out and --resume for their life.
#   - a resume or a run --out of a directory being written is refused at
#     once in one line naming the writer's pid; compare reads it, saying so
#   - two resumes of one directory started together, 4 trials: one runs,
#     the other is refused; gbench.json then holds every benchmark
#   - a resume SIGKILLed at a random moment, 20 trials in a row, of a run
#     stopped by SIGINT (so a gbench.json of its first benchmarks exists):
#     after each, compare reads exactly the benchmarks runs.jsonl holds
#     (never that stale gbench.json); a last resume completes the sweep
set -u
sb=$1
tmp=$(mktemp -d /tmp/sb_dirlock.XXXXXX)
pids=()
trap 'for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done; rm -rf "$tmp"' EXIT
. "$(dirname "$0")/testlib.sh"
t0=$SECONDS

# wait_lines DIR K: until DIR's runs.jsonl[.partial] has K benchmark lines (30 s)
wait_lines() {
	local i n
	for i in $(seq 300); do
		n=$(cat "$1"/runs.jsonl* 2>/dev/null | grep -c '^{"name".*}$')
		[ "${n:-0}" -ge "$2" ] && return 0
		sleep 0.1
	done
	return 1
}
# logged DIR: how many whole benchmark lines its log holds
logged() {
	local f=$1/runs.jsonl.partial
	[ -e "$f" ] || f=$1/runs.jsonl
	[ -e "$f" ] || { echo 0; return; }
	grep -c '^{"name".*}$' "$f"
}
# compared DIR: how many benchmarks compare reads from DIR (0: none)
compared() {
	"$sb" compare "$1" "$1" --format=csv 2>/dev/null | tail -n +2 | wc -l
}

# --- a resume while the run is going ----------------------------------------
sweep=(--strategy=null,spinlock --threads=1,2 --placement=compact --benchmark_min_time=0.3
	--benchmark_repetitions=2 --quiet --counters=none)
d=$tmp/busy
"$sb" run "${sweep[@]}" --out="$d" >/dev/null 2>"$tmp/busy.err" &
pid=$!; pids+=("$pid")
check "the run finishes a benchmark" wait_lines "$d" 1
expect2 "resume during a run" "stratbench pid $pid is writing it" run --resume="$d"
expect2 "run --out during a run" "stratbench pid $pid is writing it" run "${sweep[@]}" --out="$d"
"$sb" compare "$d" "$d" >/dev/null 2>"$tmp/cmp.err"
check "compare during a run: exit 0" [ $? -eq 0 ]
check "compare during a run: says it is being written" \
	grep -q "note: $d is being written (stratbench pid $pid)" "$tmp/cmp.err"
wait "$pid"
check "the run, undisturbed: exit 0" [ $? -eq 0 ]
check "the run: 4 benchmarks" [ "$(compared "$d")" -eq 4 ]
"$sb" compare "$d" "$d" >/dev/null 2>"$tmp/cmp.err"
check "compare after the run: no note" [ ! -s "$tmp/cmp.err" ]

# --- two resumes at once -------------------------------------------------------
# interrupted DIR [SIG]: a sweep stopped by SIG (default KILL) after its
# first benchmark; SIGINT finishes the files: a gbench.json of what finished
interrupted() {
	"$sb" run "${sweep[@]}" --out="$1" >/dev/null 2>&1 &
	local p=$!
	wait_lines "$1" 1
	kill -"${2:-9}" "$p"; wait "$p" 2>/dev/null
}
for trial in 1 2 3 4; do
	d=$tmp/two$trial
	interrupted "$d"
	"$sb" run --resume="$d" >/dev/null 2>"$tmp/r1.err" & p1=$!
	"$sb" run --resume="$d" >/dev/null 2>"$tmp/r2.err" & p2=$!
	wait "$p1"; rc1=$?
	wait "$p2"; rc2=$?
	if [ "$rc1" -eq 0 ] && [ "$rc2" -eq 2 ]; then loser=$tmp/r2.err winner=$p1
	elif [ "$rc1" -eq 2 ] && [ "$rc2" -eq 0 ]; then loser=$tmp/r1.err winner=$p2
	else loser= winner=; fi
	check "two resumes ($trial): one runs, one is refused (exit $rc1, $rc2)" [ -n "$loser" ]
	if [ -n "$loser" ]; then
		check "two resumes ($trial): the refusal is one line" [ "$(wc -l <"$loser")" -eq 1 ]
		check "two resumes ($trial): it names the writer's pid" \
			grep -q "stratbench pid $winner is writing it" "$loser"
	fi
	check "two resumes ($trial): complete" grep -q '"complete": true' "$d/run.json"
	check "two resumes ($trial): gbench.json holds all 4" [ "$(compared "$d")" -eq 4 ]
done

# --- a resume killed at random moments, 20 times ------------------------------
d=$tmp/killed
sweep=(--strategy=null,spinlock,trylock,cmpxchg --threads=1,2 --placement=compact
	--benchmark_min_time=0.1 --benchmark_repetitions=2 --quiet --counters=none)
interrupted "$d" INT
check "killed resumes: SIGINT left a gbench.json to go stale" [ -e "$d/gbench.json" ]
RANDOM=20	# the same moments each time
stale=0 wrong=0
for trial in $(seq 20); do
	"$sb" run --resume="$d" >/dev/null 2>&1 &
	p=$!; pids+=("$p")
	sleep "0.$((RANDOM % 60 + 2))"
	kill -9 "$p" 2>/dev/null; wait "$p" 2>/dev/null
	n=$(logged "$d") c=$(compared "$d")
	[ "$n" -eq "$c" ] || { wrong=$((wrong + 1)); echo "trial $trial: log $n, compare $c" >&2; }
	# a gbench.json beside a longer log is stale unless the log is read
	if [ -e "$d/gbench.json" ] && [ -e "$d/runs.jsonl.partial" ]; then
		g=$(grep -c '"run_type": "iteration"' "$d/gbench.json")
		[ "$((g / 2))" -eq "$n" ] || stale=$((stale + 1))
	fi
done
check "killed resumes: compare read what the log holds each time ($wrong wrong)" [ "$wrong" -eq 0 ]
echo "test_dirlock: killed resumes left gbench.json beside a longer log $stale times (read from the log)"
"$sb" run --resume="$d" >/dev/null 2>"$tmp/last.err"
rc=$?
check "killed resumes: a last resume completes (exit $rc)" [ "$rc" -eq 0 ]
check "killed resumes: complete" grep -q '"complete": true' "$d/run.json"
check "killed resumes: compare reads all 8" [ "$(compared "$d")" -eq 8 ]
check "killed resumes: gbench.json holds all 8 (2 repetitions each)" \
	[ "$(grep -c '"run_type": "iteration"' "$d/gbench.json")" -eq 16 ]
check "killed resumes: runs.jsonl holds 8" [ "$(logged "$d")" -eq 8 ]
check "killed resumes: results.csv: 6 rows each" [ "$(tail -n +2 "$d/results.csv" | wc -l)" -eq 48 ]
check "killed resumes: each benchmark once in results.csv" \
	[ "$(tail -n +2 "$d/results.csv" | cut -d, -f1 | sort -u | wc -l)" -eq 8 ]

echo "test_dirlock: $((SECONDS - t0)) s"
finish test_dirlock
