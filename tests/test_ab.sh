#!/usr/bin/env bash
# test_ab.sh STRATBENCH — `stratbench run --ab` for real, tiny: lock tas ->
# ticket at 1 thread with 2 ms trials.  Checks: at least 20 pairs
# recorded, each with both sides, in an order that alternates (both
# orders drawn); DIR/ab.json holds the documented keys, and compare DIR
# reads it back; DIR/summary.txt (and .md) is what `summary DIR` prints,
# after a run --ab alone or beside a run's results, and not after an
# interrupted one; --precision stops on the half-width (a loose one) or at
# --max-time (one no run reaches), saying which in one line; usage errors
# (one side, unknown strategy, the same side twice, --precision or
# --max-time alone, bad values, a Google Benchmark flag, an unknown
# +key:value) are one line, exit 2, and write nothing.  The statistics
# themselves are test_paired's.  Each check meets a doctored ab.json or
# output it must refuse.
set -u
sb=$1
tmp=$(mktemp -d /tmp/sb_ab.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/testlib.sh"	# ok, bad, check, expect2, finish
start=$(date +%s)
tiny=(--family=lock --threads=1 --placement=compact --trial-time=0.002 --counters=none --quiet)

# pairs FILE: the comparison's "pairs" value
pairs() { grep -m1 -o '"pairs": [0-9]*' "$1" | grep -o '[0-9]*$'; }
# pairs_ok FILE: >= 20 pairs, as many trials, each with a and b, both orders
pairs_ok() {
	local n trials firsts_a firsts_b
	n=$(pairs "$1")
	trials=$(grep -c '"first": "[ab]"' "$1")
	firsts_a=$(grep -c '"first": "a"' "$1")
	firsts_b=$(grep -c '"first": "b"' "$1")
	[ "${n:-0}" -ge 20 ] && [ "$trials" -eq "$n" ] && [ "$firsts_a" -gt 0 ] &&
		[ "$firsts_b" -gt 0 ] &&
		[ "$(grep -c '"ops_per_s": [0-9]' "$1")" -eq $((2 * n)) ]
}
# keys_ok FILE: every key docs/results.md's ab.json table names at the top
keys_ok() {
	local k
	for k in schema label loadavg_start loadavg_end comparisons spec name point iterations \
		method trial_time_s pairs elapsed_s precision_pct max_time_s precision_reached \
		stop results metric ratio ratio_lo ratio_hi change_pct change_lo_pct \
		change_hi_pct half_width_pct confidence coverage interval k p_value trials first; do
		grep -q "\"$k\":" "$1" || { echo "ab.json lacks $k" >&2; return 1; }
	done
}

# summary_ok DIR: DIR/summary.txt exists and is what `summary DIR` prints
summary_ok() {
	[ -s "$1/summary.txt" ] && diff <("$sb" summary "$1" 2>/dev/null) "$1/summary.txt" >/dev/null
}

# --- a run: 20 pairs -----------------------------------------------------------
"$sb" run --ab=tas,ticket "${tiny[@]}" --out="$tmp/a" >"$tmp/a.out" 2>"$tmp/a.err"
rc=$?
check "run --ab exits 0 (rc=$rc: $(head -2 "$tmp/a.err"))" [ "$rc" -eq 0 ]
f=$tmp/a/ab.json
check "ab.json written" [ -s "$f" ]
check "nothing else written but the summary" \
	[ "$(ls "$tmp/a" | tr '\n' ' ')" = "ab.json summary.md summary.txt " ]
check "summary.txt is what summary DIR prints" summary_ok "$tmp/a"
check "summary.txt has the pairs" grep -q '^  tas -> ticket (lock, threads:1, place:compact), 20 pairs: ops_per_s' "$tmp/a/summary.txt"
check "summary.md written" grep -q '^## Summary$' "$tmp/a/summary.md"
check "stderr names the summary files" grep -q "^stratbench: summary in $tmp/a/summary.txt and $tmp/a/summary.md$" "$tmp/a.err"
if grep -q '^Summary$' "$tmp/a.out"; then bad "the summary went to stdout too"; else ok; fi
check "20 pairs, both sides each, both orders" pairs_ok "$f"
check "documented keys" keys_ok "$f"
check "exactly --min-pairs without --precision" [ "$(pairs "$f")" -eq 20 ]
check "stop: pairs" grep -q '"stop": "pairs"' "$f"
check "precision_reached null without --precision" grep -q '"precision_reached": null' "$f"
check "the points are typed" grep -q '"strategy": "ticket"' "$f"
check "console line" grep -q '^ab: tas -> ticket (lock, threads:1, place:compact), 20 pairs: ops_per_s [-+][0-9.]* % \[[-+][0-9.]*, [-+][0-9.]*\] 95 % CI, p=[0-9.e-]*$' "$tmp/a.out"
check "stop line" grep -q '^ab:   ±[0-9.]* % after 20 pairs in [0-9.]* s (no --precision asked)$' "$tmp/a.out"
# broken fixtures: 19 pairs, one order only, a missing key
sed 's/"pairs": 20/"pairs": 19/' "$f" >"$tmp/b19.json"
if pairs_ok "$tmp/b19.json"; then bad "pairs_ok passed 19 pairs"; else ok; fi
sed 's/"first": "b"/"first": "a"/' "$f" >"$tmp/order.json"
if pairs_ok "$tmp/order.json"; then bad "pairs_ok passed one order only"; else ok; fi
sed 's/"half_width_pct":/"half_width":/' "$f" >"$tmp/key.json"
if keys_ok "$tmp/key.json" 2>/dev/null; then bad "keys_ok passed a missing key"; else ok; fi
# broken fixtures: no summary.txt beside ab.json; a summary.txt that differs
mkdir "$tmp/nosum" "$tmp/othersum"
cp "$f" "$tmp/nosum/ab.json"
cp "$f" "$tmp/othersum/ab.json"
sed 's/20 pairs/21 pairs/' "$tmp/a/summary.txt" >"$tmp/othersum/summary.txt"
if summary_ok "$tmp/nosum"; then bad "summary_ok passed a DIR without summary.txt"; else ok; fi
if summary_ok "$tmp/othersum"; then bad "summary_ok passed another summary.txt"; else ok; fi

# --- compare DIR reads it back ----------------------------------------------
"$sb" compare "$tmp/a" >"$tmp/c.out" 2>&1
rc=$?
check "compare DIR exits 0 (rc=$rc)" [ "$rc" -eq 0 ]
check "compare shows the paired section" grep -q '^Paired A/B (within run)' "$tmp/c.out"
check "compare shows the run's line" bash -c "grep '^ab: ' '$tmp/a.out' | head -1 | sed 's/^ab: /  /' | grep -qxFf - '$tmp/c.out'"
mkdir "$tmp/bad"
head -c 300 "$f" >"$tmp/bad/ab.json"
expect2 "compare of a cut ab.json" "not an ab.json" compare "$tmp/bad"
mkdir "$tmp/none"
expect2 "compare of a directory without ab.json" "holds none" compare "$tmp/none"

# --- --precision: reached, or --max-time ------------------------------------
# (1000 %: reached at the minimum however loaded the machine is)
"$sb" run --ab=tas,ticket "${tiny[@]}" --precision=1000 --out="$tmp/p" >"$tmp/p.out" 2>&1
check "--precision=1000 reached at 20 pairs" \
	grep -q '^ab:   reached ±[0-9.]* % after 20 pairs in [0-9.]* s (--precision=1000)$' "$tmp/p.out"
check "precision_reached true" grep -q '"precision_reached": true' "$tmp/p/ab.json"
"$sb" run --ab=tas,ticket "${tiny[@]}" --precision=0.01 --max-time=1 --out="$tmp/m" \
	>"$tmp/m.out" 2>&1
check "--max-time stops, saying so" grep -q '^ab:   stopped at --max-time=1 s with ±[0-9.]* % after [0-9]* pairs in [0-9.]* s: the comparison cannot resolve effects below [0-9.e+]* % here$' "$tmp/m.out"
check "stop: max-time" grep -q '"stop": "max-time"' "$tmp/m/ab.json"
check "at least the minimum pairs within --max-time" [ "$(pairs "$tmp/m/ab.json")" -ge 20 ]
check "it ran --max-time" grep -q '"elapsed_s": [1-9]' "$tmp/m/ab.json"
# broken fixture: the max-time line is not the precision line
if grep -q '^ab:   reached' "$tmp/m.out"; then bad "max-time run said reached"; else ok; fi

# --- beside a run's results; compare OLD NEW adds the section ----------------
"$sb" run --family=lock --strategy=tas,ticket --threads=1 --placement=compact --counters=none \
	--benchmark_min_time=0.01 --quiet --out="$tmp/r" >/dev/null 2>&1
"$sb" run --ab=tas,ticket "${tiny[@]}" --out="$tmp/r" >/dev/null 2>&1
check "ab.json beside a run's gbench.json" [ -s "$tmp/r/ab.json" ] && [ -s "$tmp/r/gbench.json" ]
check "beside a run: summary.txt is what summary DIR prints" summary_ok "$tmp/r"
check "beside a run: summary.txt has the pairs and the run's files" \
	bash -c "grep -q '^  tas -> ticket' '$tmp/r/summary.txt' && grep -q '^  $tmp/r/: gbench.json results.csv .*ab.json' '$tmp/r/summary.txt'"
"$sb" compare "$tmp/r" "$tmp/r" >"$tmp/rr.out" 2>&1
check "compare OLD NEW shows NEW's paired section" grep -q "^Paired A/B (within run, NEW $tmp/r)" "$tmp/rr.out"
"$sb" compare "$tmp/r" "$tmp/r" --format=csv >"$tmp/rc.out" 2>&1
if grep -q "Paired A/B" "$tmp/rc.out"; then bad "the CSV carries the paired section"; else ok; fi

# --- SIGINT: the finished pairs are kept, stop "interrupted", exit 130 -------
"$sb" run --ab=tas,ticket "${tiny[@]}" --precision=0.01 --max-time=60 --out="$tmp/i" \
	>"$tmp/i.out" 2>&1 &
pid=$!
for _ in $(seq 50); do grep -q . "$tmp/i.out" 2>/dev/null && break; sleep 0.1; done
sleep 1.5
kill -INT "$pid"
wait "$pid"
rc=$?
check "SIGINT: exit 130 (rc=$rc)" [ "$rc" -eq 130 ]
check "SIGINT: ab.json says interrupted" grep -q '"stop": "interrupted"' "$tmp/i/ab.json"
check "SIGINT: the interrupted line" grep -q '^ab:   interrupted with ±' "$tmp/i.out"
check "SIGINT: no summary, as an interrupted run" [ ! -e "$tmp/i/summary.txt" ]

# --- usage errors: one line, exit 2, nothing written ------------------------
u=$tmp/u/out
expect2 "one side" "two sides" run --ab=tas "${tiny[@]}" --out="$u"
expect2 "unknown strategy" "unknown strategy 'nosuch'" run --ab=tas,nosuch "${tiny[@]}" --out="$u"
expect2 "the same side twice" "A and B are both" run --ab=tas,tas "${tiny[@]}" --out="$u"
expect2 "--precision without --ab" "add --ab" run --precision=2 "${tiny[@]}" --out="$u"
expect2 "--min-pairs without --ab" "add --ab" run --min-pairs=30 --family=lock --out="$u"
expect2 "--max-time without --precision" "add --precision" run --ab=tas,ticket --max-time=5 \
	"${tiny[@]}" --out="$u"
expect2 "bad --precision" "bad value in '--precision=0'" run --ab=tas,ticket --precision=0 \
	"${tiny[@]}" --out="$u"
expect2 "bad --min-pairs" "bad value in '--min-pairs=5'" run --ab=tas,ticket --min-pairs=5 \
	"${tiny[@]}" --out="$u"
expect2 "bad --trial-time" "bad value in '--trial-time=x'" run --ab=tas,ticket --trial-time=x \
	--family=lock --out="$u"
expect2 "a Google Benchmark flag" "drop --benchmark_min_time" run --ab=tas,ticket \
	"${tiny[@]}" --benchmark_min_time=1 --out="$u"
expect2 "an unknown +key:value" "has no point" run --ab=tas,ticket+batch:3 "${tiny[@]}" --out="$u"
expect2 "+lock: of a strategy that takes none" "has no point" run --ab=tas,tas+lock:ticket \
	"${tiny[@]}" --out="$u"
expect2 "a trailing ;" "trailing" run "--ab=tas,ticket;" "${tiny[@]}" --out="$u"
expect2 "--ab with --strategy" "drop --strategy" run --ab=tas,ticket --strategy=tas \
	"${tiny[@]}" --out="$u"
expect2 "--ab with --dry-run" "--dry-run and --ab do not combine" run --ab=tas,ticket \
	"${tiny[@]}" --dry-run --out="$u"
before=$(snap "$tmp/a")
expect2 "a DIR that holds ab.json" "already holds" run --ab=tas,ticket "${tiny[@]}" --out="$tmp/a"
check "nothing written by usage errors" [ ! -e "$tmp/u" ]
check "the refused DIR kept its ab.json" cmp -s "$f" "$tmp/a/ab.json"
check "the refused DIR kept its files, the summary too" [ "$(snap "$tmp/a")" = "$before" ]

echo "test_ab: $(($(date +%s) - start)) s"
finish test_ab
