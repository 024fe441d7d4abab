#!/usr/bin/env bash
# test_console.sh STRATBENCH SCHEMA_KEYS — `stratbench run`'s console for a
# person (docs/console.md), from short real runs of every family (a window
# fidelity point and a checked simulated shootdown among them):
#   - no line over 160 characters on stdout+stderr (table, counters);
#   - at most 5 context lines before the table;
#   - every planned point has a row;
#   - rows sorted by strategy (the plan's order) and threads within a table,
#     an interleaved run's (--benchmark_enable_random_interleaving) too;
#   - a noisy mark with --cv-threshold=0, none with 1000;
#   - "-", never 0, for a value the run did not report, and why under the
#     row when the run said (its label's part for a shown column only,
#     once per table);
#   - --benchmark_format=json: stdout parses as JSON (schema_keys, jansson),
#     the noisy marks on stderr;
#   - --console=gbench: Google Benchmark's rows; --console=counters: the
#     counters under the rows;
#   - a failed run: its row marked error, the message under it;
#   - no progress drawing when stderr is not a terminal.
# Each checker is also fed a broken fixture that must fail it.
set -u
sb=$1 keys=$2
tmp=$(mktemp -d /tmp/sb_console.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/testlib.sh"	# ok, bad, check, finish

brief=(--benchmark_repetitions=2 --benchmark_min_time=0.01)

# run NAME ARGS...: $tmp/NAME.out, $tmp/NAME.err; the exit status checked
run() {
	local name=$1; shift
	"$sb" run "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
	local rc=$?
	[ "$rc" -eq 0 ] && ok || bad "run $*: exit $rc: $(tail -2 "$tmp/$name.err")"
}

# --- the checkers -----------------------------------------------------------

# max_160 FILE...: no line longer than 160 characters
max_160() { awk 'length > 160 { bad = 1 } END { exit bad }' "$@"; }
# cv_pct OUT: every lock row's cv cell (the 5th column) is a percentage or
# "-": a CV of 0.0745 % cut to its 6 columns read as 0.0745, i.e. 7 %
cv_pct() { awk '/^(tas|ticket) +[0-9]+ / && $5 !~ /%$/ && $5 != "-" { bad = 1 } END { exit bad }' "$1"; }

# context_ok ERR: at most 5 lines besides stratbench's own one-line notes
# ("stratbench: ..."), and the machine line among them
context_ok() {
	[ "$(grep -vc '^stratbench: ' "$1")" -le 5 ] && grep -q '^machine: ' "$1"
}

# rows OUT: the table rows (after a "strategy" header, up to a blank line),
# less --console=counters' indented counter lines
rows() { awk '/^strategy / { t = 1; next } /^$/ { t = 0 } t && !/^    / { print }' "$1"; }

# column OUT TITLE: that column of every row (by the header's words)
column() {
	awk -v want="$2" '/^strategy / { c = 0; for (i = 1; i <= NF; i++) if ($i == want) c = i
					     next }
			  /^$/ { c = 0 } c && !/^    / { print $c }' "$1"
}

# has_rows OUT "STRATEGY THREADS"...: a row for each planned point, no other
has_rows() {
	local out=$1 p; shift
	[ "$(rows "$out" | wc -l)" -eq $# ] || return 1
	for p in "$@"; do
		column "$out" strategy | paste -d' ' - <(column "$out" threads) | grep -qxF "$p" ||
			return 1
	done
}

# sorted_rows OUT "STRATEGY THREADS"...: the rows exactly in this order, and
# by strategy then threads: a strategy's rows together, threads ascending
sorted_rows() {
	local out=$1; shift
	[ "$(column "$out" strategy | paste -d' ' - <(column "$out" threads))" = "$(printf '%s\n' "$@")" ] &&
		column "$out" strategy | paste -d' ' - <(column "$out" threads) |
		awk '$1 != s { if (seen[$1]++) exit 1; s = $1; t = -1 } $2 < t { exit 1 } { t = $2 }'
}

# noisy_rows OUT: how many rows are marked noisy
noisy_rows() { rows "$1" | grep -c ' noisy$'; }

# dash_not_zero OUT TITLE: in the window throughput rows (a mode that never
# reports TITLE), the cell is "-"
dash_not_zero() {
	local got
	got=$(paste -d' ' <(column "$1" mode) <(column "$1" "$2") | awk '$1 == "throughput" { print $2 }')
	[ -n "$got" ] && ! grep -qvx -- '-' <<<"$got"
}

# notes_ok OUT: the fidelity row (no reset in 0.01 s of 1 s windows) has
# its note under it; the throughput row, whose label only speaks of a
# column the table does not show (limit), has none
notes_ok() {
	grep -A1 '^trylock .* fidelity ' "$1" | grep -q '^    note: fidelity: no window reset in the run' &&
		! grep -A1 '^trylock .* throughput ' "$1" | grep '^    note: ' | grep -qv '^    note: limited: '
}

# limited_once OUT: a window run that made no reset says so once, under the
# throughput row, pointing to the workload model (the limited column's note)
limited_once() {
	[ "$(grep -c '^    note: limited: no window reset .*the workload model: docs/window.md' "$1")" -eq 1 ] &&
		grep -A1 '^trylock .* throughput ' "$1" | grep -q '^    note: limited: '
}

# note_once OUT: two shootdown rows without --check, "violations:
# unavailable" under the first only
note_once() {
	[ "$(rows "$1" | wc -l)" -eq 2 ] &&
		[ "$(grep -c '^    note: violations: unavailable' "$1")" -eq 1 ]
}

# is_json FILE: one JSON document (jansson, through schema_keys)
is_json() { "$keys" "$1" >/dev/null 2>&1; }

# gb_rows OUT: Google Benchmark's console header and a row with its counters
gb_rows() { grep -q '^Benchmark  *Time  *CPU  *Iterations' "$1" && grep -q 'ops_per_s=' "$1"; }

# counter_lines OUT: counters indented under the rows
counter_lines() { grep -qE '^    [a-z:_/@A-Z-]+ +[-0-9.]+[a-zA-Z]?( |$)' "$1"; }

# no_noisy_line OUT: no separate "^ noisy:" line (the mark is in the row)
no_noisy_line() { ! grep -q '^^ noisy' "$1"; }

# no_gb_warning ERR: Google Benchmark's ***WARNING*** lines kept out of the way
no_gb_warning() { ! grep -q '^\*\*\*WARNING\*\*\*' "$1"; }

# debug_explained ERR: GB's DEBUG warning followed by our one note, once
debug_explained() {
	[ "$(grep -c '^stratbench: note: .*built as DEBUG' "$1")" -eq 1 ] &&
		grep -A1 'Library was built as DEBUG' "$1" | grep -q '^stratbench: note: '
}

# error_row OUT: a row marked error, its values "-", the message under it
error_row() {
	rows "$1" | grep -qE '^batched .*(  -)+  error$' &&
		grep -A1 ' error$' "$1" | grep -q '^    error: out of memory'
}

# undrawn ERR: no carriage return nor erase-line escape (progress.c's)
undrawn() { ! grep -q $'\r\|\033\\[K' "$1"; }

# --- the runs ---------------------------------------------------------------
# --placement=compact where a row count is checked: on a machine of several
# packages (the lab guest) the default adds a scatter row per thread count

run lock --family=lock --strategy=ticket,tas --threads=1,2 --placement=compact "${brief[@]}" \
	--cv-threshold=0 --out="$tmp/lockdir"
# interleaved at random: the rows come in any order, the table sorts them
run ilv --family=lock --strategy=ticket,tas --threads=1,2 --placement=compact "${brief[@]}" \
	--benchmark_enable_random_interleaving=true
run window --family=window --strategy=trylock --mode=both --threads=1 "${brief[@]}" \
	--cv-threshold=1000 --console=counters
run shoot --family=shootdown --strategy=batched --batch=32 --pages=256 --check --threads=2 \
	--placement=compact "${brief[@]}"
run base --family=baseline --threads=1 "${brief[@]}"
run shoot2 --family=shootdown --strategy=batched --batch=32,64 --pages=256 --threads=2 \
	--placement=compact "${brief[@]}"
# 1 s windows in 0.01 s: no reset, the fidelity row's stretch "-"
run nowin --family=window --strategy=trylock --mode=both --threads=1 --interval-ms=1000 \
	--benchmark_min_time=0.01
run calib --family=calibrate --strategy=uncontended --benchmark_min_time=0.01
# with --out: the run's summary goes to DIR/summary.txt, not into the JSON
run json --family=baseline --threads=1 "${brief[@]}" --cv-threshold=0 --benchmark_format=json \
	--out="$tmp/json.d"
# a run that fails (its simulated machine does not fit the address space):
# its row says error, the message is under it, no value is printed.  A
# sanitizer's runtime reserves terabytes of address space: no ulimit -v.
sanitized=false
ldd "$sb" 2>/dev/null | grep -qE 'lib(a|t|ub)san' && sanitized=true
if ! $sanitized; then
	(ulimit -v 180000; "$sb" run --family=shootdown --strategy=batched --batch=1 \
		--pages=65536 --threads=2 --placement=compact --benchmark_min_time=0.01 >"$tmp/fail.out" 2>"$tmp/fail.err")
	[ $? -eq 1 ] && ok || bad "a failed run exits 1"
else
	echo "note: sanitizer build: the failed run's row not checked (ulimit -v stops its runtime)"
fi
run gbench --family=baseline --threads=1 "${brief[@]}" --console=gbench

check "lock: every cv cell a percentage" cv_pct "$tmp/lock.out"
printf 'tas                  1  compact     171M  0.0745     5.86  1.000\n' >"$tmp/cvcut"
check "broken fixture: a cv cut to 0.0745 is caught" eval "! cv_pct '$tmp/cvcut'"
for r in lock ilv window shoot shoot2 base calib nowin; do
	check "$r: no line over 160 characters" max_160 "$tmp/$r.out" "$tmp/$r.err"
	check "$r: at most 5 context lines" context_ok "$tmp/$r.err"
	check "$r: nothing drawn on a non-terminal" undrawn "$tmp/$r.err"
done
check "lock: a row per point" has_rows "$tmp/lock.out" "ticket 1" "tas 1" "ticket 2" "tas 2"
check "interleaved: rows by strategy, then threads ($(column "$tmp/ilv.out" strategy | paste -d' ' - <(column "$tmp/ilv.out" threads) | tr '\n' ,))" \
	sorted_rows "$tmp/ilv.out" "tas 1" "tas 2" "ticket 1" "ticket 2"
check "window: a row per point" has_rows "$tmp/window.out" "trylock 1" "trylock 1"
check "shootdown: a row per point" has_rows "$tmp/shoot.out" "batched 2"
check "baseline: a row per point" has_rows "$tmp/base.out" "pthread_spin 1"
[ "$(rows "$tmp/calib.out" | wc -l)" -ge 5 ] && ok || bad "calibrate: a row per op"
check "window: a mode column from the typed point" grep -q ' fidelity ' "$tmp/window.out"
check "window: fidelity columns" grep -qE '^strategy .* stretch +admit' "$tmp/window.out"
check "shootdown: its columns" grep -qE '^strategy .* ns/page +flush/pg +IPIs/pg +viol' \
	"$tmp/shoot.out"
check "shootdown --check: violations are reported (0 is a value)" \
	grep -qx 0 <(column "$tmp/shoot.out" viol)
[ "$(noisy_rows "$tmp/lock.out")" -eq 4 ] && ok || bad "--cv-threshold=0 marks every row noisy"
[ "$(noisy_rows "$tmp/window.out")" -eq 0 ] && ok || bad "--cv-threshold=1000 marks no row"
check "no '^ noisy' line in the table" no_noisy_line "$tmp/lock.out"
check "stretch unavailable prints -" dash_not_zero "$tmp/window.out" stretch
check "admit unavailable prints -" dash_not_zero "$tmp/window.out" admit
check "--console=counters: counters under the rows" counter_lines "$tmp/window.out"
check "a '-' explained under its row, no note for a column not shown" notes_ok "$tmp/nowin.out"
check "no window reset: one 'limited:' note pointing to the workload model" limited_once "$tmp/nowin.out"
check "a note repeated in a table printed once" note_once "$tmp/shoot2.out"
check "results line names --out" grep -q "^results: $tmp/lockdir/" "$tmp/lock.err"
check "files as before: gbench.json parses" is_json "$tmp/lockdir/gbench.json"
check "the JSON context keeps every sb_* key" grep -q '"sb_counters_unavailable"' \
	"$tmp/lockdir/gbench.json"
if ! $sanitized; then
	check "a failed run: its row and message" error_row "$tmp/fail.out"
	check "a failed run: no line over 160 characters" max_160 "$tmp/fail.out" "$tmp/fail.err"
fi
check "json: stdout is JSON" is_json "$tmp/json.out"
check "json: the summary written, not printed" \
	bash -c "[ -s '$tmp/json.d/summary.txt' ] && ! grep -q '^Summary' '$tmp/json.out'"
check "json: the noisy marks on stderr" grep -q '^stratbench: noisy: baseline/' "$tmp/json.err"
check "gbench: Google Benchmark's rows" gb_rows "$tmp/gbench.out"
check "gbench: its context" grep -q '^sb_cpu_model: ' "$tmp/gbench.err"
if grep -q 'Library was built as DEBUG' "$tmp/gbench.err"; then
	check "gbench: GB's DEBUG warning explained once" debug_explained "$tmp/gbench.err"
else
	echo "note: this libbenchmark is not a DEBUG build: its warning's note not checked"
fi
check "table: GB's warnings out of the way" no_gb_warning "$tmp/lock.err"

# --- the checkers fail on broken fixtures -----------------------------------

broken() {	# broken WHAT CHECKER ARGS...: CHECKER must fail
	local what=$1; shift
	if "$@" 2>/dev/null; then bad "checker passes a broken fixture: $what"; else ok; fi
}
broken "gbench's console, lines of 1,500 characters" max_160 "$tmp/gbench.out"
broken "gbench's context, 40 lines" context_ok "$tmp/gbench.err"
rows "$tmp/lock.out" | sed 1d >"$tmp/cut.rows"
{ echo "strategy  threads"; cat "$tmp/cut.rows"; } >"$tmp/cut.out"
broken "a row missing" has_rows "$tmp/cut.out" "ticket 1" "tas 1" "ticket 2" "tas 2"
rows "$tmp/ilv.out" | awk 'NR == 2 { l = $0; next } { print } NR == 3 { print l }' >"$tmp/shuf.rows"
{ grep '^strategy ' "$tmp/ilv.out"; cat "$tmp/shuf.rows"; } >"$tmp/shuf.out"
broken "rows in the interleaved order (tas 1, ticket 1, tas 2, ...)" sorted_rows "$tmp/shuf.out" \
	"tas 1" "tas 2" "ticket 1" "ticket 2"
sed -E 's/^tas( +)1 /tas\19 /' "$tmp/ilv.out" >"$tmp/desc.out"
broken "threads descending within a strategy" sorted_rows "$tmp/desc.out" \
	"tas 9" "tas 2" "ticket 1" "ticket 2"
broken "a noisy table read as quiet" test "$(noisy_rows "$tmp/lock.out")" -eq 0
broken "a quiet table read as noisy" test "$(noisy_rows "$tmp/window.out")" -eq 4
sed -E '/ throughput /s/ -( |$)/ 0\1/g' "$tmp/window.out" >"$tmp/zero.out"
broken "an unavailable value printed as 0" dash_not_zero "$tmp/zero.out" stretch
{ echo "^ noisy: x: CV 9 %"; cat "$tmp/json.out"; } >"$tmp/stray.json"
broken "JSON with a stray line" is_json "$tmp/stray.json"
broken "the table read as gbench's" gb_rows "$tmp/lock.out"
broken "the table read as --console=counters" counter_lines "$tmp/lock.out"
printf 'machine: x\n\r\033[K[1/4] lock/ticket …' >"$tmp/drawn.err"
{ cat "$tmp/lock.out"; echo "^ noisy: lock/tas/threads:1/place:compact: CV 9 %"; } >"$tmp/caret.out"
if ! $sanitized; then
	grep -v '^    error: ' "$tmp/fail.out" >"$tmp/nomsg.out"
	broken "an error row without its message" error_row "$tmp/nomsg.out"
fi
broken "a good row read as an error" error_row "$tmp/shoot.out"
sed '/^    note: violations/p' "$tmp/shoot2.out" >"$tmp/twice.out"
broken "a note printed twice" note_once "$tmp/twice.out"
grep -v '^    note: ' "$tmp/nowin.out" >"$tmp/nonote.out"
broken "a '-' without its note" notes_ok "$tmp/nonote.out"
broken "no reset, and not a word of it" limited_once "$tmp/nonote.out"
sed '/^trylock .* throughput /a\    note: limit: none at 1 thread (this run is the scaling reference)' \
	"$tmp/nowin.out" >"$tmp/limitnote.out"
broken "a note about a column not shown" notes_ok "$tmp/limitnote.out"
broken "a separate noisy line" no_noisy_line "$tmp/caret.out"
broken "GB's context in table mode" no_gb_warning <(printf '***WARNING*** Library was built as DEBUG. Timings may be affected.\n')
printf '***WARNING*** Library was built as DEBUG. Timings may be affected.\n' >"$tmp/nonote.err"
broken "the DEBUG warning without our note" debug_explained "$tmp/nonote.err"
broken "a progress line on stderr" undrawn "$tmp/drawn.err"

finish test_console
