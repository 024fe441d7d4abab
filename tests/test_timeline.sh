#!/usr/bin/env bash
# test_timeline.sh STRATBENCH CHECK_TIMELINE — DIR/windows.jsonl, the window
# timelines of fidelity runs (docs/window.md "Fidelity mode"): one line per
# fidelity benchmark, each well formed (check_timeline.c) and the same
# merge as the figures (its maxima are results.csv's admit_ratio_max and
# stretch_max; on the calls clock, which the load cannot empty); the
# jiffies clock in ns; no file without a fidelity benchmark; --resume after
# SIGKILL keeps one line per finished benchmark; and the checker catches
# broken lines (windows swapped, overlapping, more pages than admitted, an
# unknown clock).
set -u
sb=$1
chk=$2
tmp=$(mktemp -d /tmp/sb_tl.XXXXXX)
pid=
trap '[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
. "$(dirname "$0")/testlib.sh"	# ok, bad, check, col, finish

# fidelity benchmarks of a results directory, from results.csv
fid_names() { awk -F, 'NR > 1 && $1 ~ /\/mode:fidelity\// { print $1 }' "$1/results.csv" | sort -u; }
tl_names() { grep -o '^{"name":"[^"]*' "$1/windows.jsonl" | sed 's/^{"name":"//' | sort; }
# cond 'SHELL CONDITION': for a check of several conditions together
cond() { eval "$1"; }

# --- a fidelity run: one line per benchmark, well formed --------------------
# Every check here is on the merge, so nothing in this run may hang on the
# machine's load.  Wall time did: with the cycle clock a member
# descheduled for an interval (2 ms) makes that window and the next idle,
# and under load every window of spinlock's was (no figure window to
# compare), while a run that GB made longer listed over 200 (nor then).
# So: the calls clock (member 0 advances it one tick a call: a 2-tick
# window per 2-3 of its calls, whoever is descheduled when), and
# --benchmark_min_time=0, which GB meets with its first run of 1
# iteration: each member makes one chunk of 32 calls, so member 0 ticks 31
# times and the line lists at most 16 windows, all of them.  locked and
# cmpxchg_aligned reset at the first tick past the expiry whatever the
# interleaving (member 0 waits for a lock member 1 holds, and stops the
# clock while it waits; a cmpxchg fails only to another reset), so no
# window is idle and 9 and 14 are figure windows; spinlock's and trylock's
# late resets could make one idle.
# (--placement=compact: the lab guest's two packages would add scatter)
d=$tmp/fid
"$sb" run --family=window --strategy=locked,cmpxchg_aligned --threads=2 --placement=compact \
	--mode=fidelity --clock=calls --tick-calls=1 --interval-ms=2 --limit=2 \
	--benchmark_min_time=0 --out="$d" >"$tmp/fid.out" 2>&1
rc=$?
check "fidelity run exits 0 (rc=$rc: $(tail -1 "$tmp/fid.out"))" [ "$rc" -eq 0 ]
check "windows.jsonl written, no .partial left" \
	cond '[ -s "$d/windows.jsonl" ] && [ ! -e "$d/windows.jsonl.partial" ]'
check "one line per fidelity benchmark" cond '[ "$(wc -l <"$d/windows.jsonl")" -eq 2 ] &&
	[ "$(tl_names "$d")" = "$(fid_names "$d")" ] && [ "$(fid_names "$d" | wc -l)" -eq 2 ]'
"$chk" --nonempty "$d/windows.jsonl" >"$tmp/fid.chk" 2>"$tmp/fid.chkerr"
rc=$?
check "lines well formed, windows in order ($(head -1 "$tmp/fid.chkerr"))" [ "$rc" -eq 0 ]
check "locked's line: fields in order" grep -q '^{"name":"window/locked/lock:queued/mode:fidelity/threads:2/place:[a-z]*/clock:calls/tick:1000/tick_calls:1","point":{"family":"window","strategy":"locked","lock":"queued","threads":2,.*},"interval_ns":2000000,"limit":2,"clock":"calls","admitted":[0-9]*,"windows_total":[0-9]*,"windows":\[\[0,[0-9]*,[0-9]*\],.*\],"members":\[\[[0-9]*,[0-9]*\],.*\],"idle":\[\]}$' "$d/windows.jsonl"
# the figures of the same (last) run: the listed windows after the set-up's
# that are not idle are the figures' windows, so their maxima agree.
# figures CHK CSV: one line per line of CHK (check_timeline's NAME ADMIT
# STRETCH) that has no figure window or other maxima than CSV's row
figures() {
	local am sm name a s
	am=$(col "$2" admit_ratio_max)
	sm=$(col "$2" stretch_max)
	while read -r name a s; do
		[ "$a" = - ] && { echo "$name: no figure window listed"; continue; }
		awk -F, -v n="$name" -v a="$a" -v s="$s" -v ka="$am" -v ks="$sm" '
		function off(x, y) { d = x - y; if (d < 0) d = -d; return d > 1e-6 * (y < 0 ? -y : y) + 1e-9 }
		$1 == n { f++; if (off(a, $ka) || off(s, $ks)) bad = 1 }
		END { exit !(f == 1 && !bad) }' "$2" ||
			echo "$name: admit max $a and stretch max $s are not results.csv's"
	done <"$1"
}
figs=$(figures "$tmp/fid.chk" "$d/results.csv")
check "both lines have figure windows and results.csv's maxima (${figs:-$(cat "$tmp/fid.chk")})" \
	cond '[ -z "$figs" ] && [ "$(wc -l <"$tmp/fid.chk")" -eq 2 ]'
# fixtures: the check fails on another maximum in results.csv, and on a
# line with no figure window
n=$(grep -m1 '^window/locked/' "$tmp/fid.chk" | cut -d' ' -f1)
awk -F, -v OFS=, -v n="$n" -v k="$(col "$d/results.csv" admit_ratio_max)" \
	'$1 == n { $k = $k + 0.5 } { print }' "$d/results.csv" >"$tmp/fid.csv"
check "fixture: another admit max in results.csv is caught" \
	cond '[ -n "$n" ] && figures "$tmp/fid.chk" "$tmp/fid.csv" | grep -q "^$n: admit max .* are not"'
sed "s#^$n .*#$n - -#" "$tmp/fid.chk" >"$tmp/fid.none"
check "fixture: no figure window is caught" \
	cond '[ -n "$n" ] && figures "$tmp/fid.none" "$d/results.csv" | grep -qx "$n: no figure window listed"'

# --- jiffies: ns of whole ticks; --mode=both: the fidelity variant only ------
d=$tmp/jif
"$sb" run --family=window --strategy=cmpxchg --threads=2 --placement=compact --mode=both \
	--clock=jiffies --tick-us=20 --interval-ms=0.1 --limit=32 --benchmark_min_time=0.05 --out="$d" >"$tmp/jif.out" 2>&1
rc=$?
check "jiffies run exits 0 (rc=$rc: $(tail -1 "$tmp/jif.out"))" [ "$rc" -eq 0 ]
check "jiffies: one line, the fidelity variant's" cond '[ "$(wc -l <"$d/windows.jsonl")" -eq 1 ] &&
	grep -q "^{\"name\":\"window/cmpxchg/mode:fidelity/threads:2/" "$d/windows.jsonl"'
check "jiffies: clock and interval in ns" grep -q '"interval_ns":100000,"limit":32,"clock":"jiffies"' "$d/windows.jsonl"
check "jiffies: well formed ($("$chk" "$d/windows.jsonl" 2>&1 >/dev/null | head -1))" \
	cond '"$chk" --nonempty "$d/windows.jsonl" >/dev/null'
check "jiffies: boundaries are whole 20 us ticks" bash -c "grep -o '\"windows\":\[[^\"]*' '$d/windows.jsonl' |
	grep -o '[0-9]*,[0-9]*,[0-9]*\]' | awk -F, '\$1 % 20000 || \$2 % 20000 { b = 1 } END { exit b || !NR }'"

# --- no fidelity benchmark: no file ---------------------------------------
d=$tmp/thr
"$sb" run --family=window --strategy=trylock --threads=1 --benchmark_min_time=0.01 --out="$d" \
	>"$tmp/thr.out" 2>&1
rc=$?
check "throughput run: no windows.jsonl (rc=$rc)" cond '[ "$rc" -eq 0 ] && [ -s "$d/results.csv" ] &&
	[ ! -e "$d/windows.jsonl" ] && [ ! -e "$d/windows.jsonl.partial" ]'

# --- SIGKILL after 2 of 4, then --resume: one line per benchmark -----------
d=$tmp/kill
"$sb" run --family=window --strategy=spinlock,trylock --threads=1,2 --placement=compact \
	--mode=fidelity --interval-ms=1 --limit=64 --benchmark_repetitions=2 --benchmark_min_time=0.1 --quiet \
	--out="$d" >"$tmp/kill.out" 2>&1 &
pid=$!
for i in $(seq 300); do
	n=$(grep -c '"benchmarks"' "$d/runs.jsonl.partial" 2>/dev/null)
	[ "${n:-0}" -ge 2 ] && break
	sleep 0.1
done
kill -9 "$pid"; wait "$pid" 2>/dev/null; pid=
k=$(grep -c '"benchmarks"' "$d/runs.jsonl.partial")
check "killed after 2 of 4 (k=$k)" cond '[ "$k" -ge 2 ] && [ "$k" -lt 4 ]'
check "killed: windows.jsonl.partial has at least the finished ones" \
	[ "$(wc -l <"$d/windows.jsonl.partial")" -ge "$k" ]
# what a kill can leave besides: a line of a benchmark whose runs.jsonl line
# was not written (killed between the two; it runs again), and a cut line
p=$d/windows.jsonl.partial
n0=$(head -1 "$p" | grep -o '^{"name":"[^"]*' | sed 's/^{"name":"//')
for c in spinlock/lock:queued/mode:fidelity/threads:1 spinlock/lock:queued/mode:fidelity/threads:2 \
	trylock/lock:queued/mode:fidelity/threads:1 trylock/lock:queued/mode:fidelity/threads:2; do
	u=$(echo "$n0" | sed -E "s#^window/[a-z]+/lock:queued/mode:fidelity/threads:[0-9]+/#window/$c/#")
	if ! grep -q "^{\"name\":\"$u\"" "$p"; then
		head -1 "$p" | sed "s#^{\"name\":\"[^\"]*#{\"name\":\"$u#" >>"$p"
		break
	fi
done
head -c 100 "$p" >>"$p"
"$sb" run --resume="$d" >"$tmp/res.out" 2>&1
rc=$?
check "resume exits 0 (rc=$rc: $(tail -1 "$tmp/res.out"))" [ "$rc" -eq 0 ]
check "resumed: 4 lines, one per benchmark, none twice" cond '[ "$(wc -l <"$d/windows.jsonl")" -eq 4 ] &&
	[ "$(tl_names "$d" | uniq | wc -l)" -eq 4 ] && [ "$(tl_names "$d")" = "$(fid_names "$d")" ]'
check "resumed: well formed" cond '"$chk" "$d/windows.jsonl" >/dev/null'

# --- the checker catches broken lines ---------------------------------------
pt='"point":{"family":"window","strategy":"trylock","lock":"queued","threads":2,"placement":"compact","params":{"mode":"fidelity"}}'
hd='"interval_ns":1000,"limit":10,"clock":"cycles"'
line() { echo "{\"name\":\"window/trylock/lock:queued/mode:fidelity/threads:2/place:compact\",$pt,$hd,$1}"; }
line '"admitted":30,"windows_total":3,"windows":[[0,1000,0],[1000,2000,12],[2000,3000,11]],"members":[[0,0],[5,7],[11,0]],"idle":[]' >"$tmp/good"
line '"admitted":30,"windows_total":3,"windows":[[0,1000,0],[2000,3000,11],[1000,2000,12]],"members":[[0,0],[11,0],[5,7]],"idle":[]' >"$tmp/swapped"
line '"admitted":30,"windows_total":3,"windows":[[0,1000,0],[1000,2100,12],[2000,3000,11]],"members":[[0,0],[5,7],[11,0]],"idle":[]' >"$tmp/overlap"
line '"admitted":20,"windows_total":3,"windows":[[0,1000,0],[1000,2000,12],[2000,3000,11]],"members":[[0,0],[5,7],[11,0]],"idle":[]' >"$tmp/over"
line '"admitted":30,"windows_total":3,"windows":[[0,1000,0],[1000,2000,12],[2000,3000,11]],"members":[[0,0],[5,6],[11,0]],"idle":[]' >"$tmp/members"
line '"admitted":30,"windows_total":4,"windows":[[0,1000,0],[1000,2000,12],[2000,3000,11]],"members":[[0,0],[5,7],[11,0]],"idle":[]' >"$tmp/short"
sed 's/"clock":"cycles"/"clock":"ticks"/' "$tmp/good" >"$tmp/clock"
"$chk" --nonempty "$tmp/good" >"$tmp/good.chk" 2>&1
rc=$?
check "checker: a good line passes (rc=$rc: $(cat "$tmp/good.chk"))" cond '[ "$rc" -eq 0 ] &&
	grep -qx "window/trylock/lock:queued/mode:fidelity/threads:2/place:compact 1.2 1" "$tmp/good.chk"'
for f in swapped:'out of order' overlap:'out of order' over:'more than the 20 admitted' \
	members:"members' pages sum to 11" short:'3 windows listed of 4' clock:'"clock" is not'; do
	"$chk" "$tmp/${f%%:*}" >/dev/null 2>"$tmp/e"
	rc=$?
	check "checker catches ${f%%:*} (rc=$rc: $(cat "$tmp/e"))" cond '[ "$rc" -eq 1 ] && grep -q "${f#*:}" "$tmp/e"'
done
# a real line with its first two windows swapped
sed -E 's/"windows":\[\[0,([0-9]+),([0-9]+)\],\[([0-9]+),([0-9]+),([0-9]+)\]/"windows":[[\3,\4,\5],[0,\1,\2]/' \
	"$tmp/fid/windows.jsonl" >"$tmp/realswap"
check "fixture: the real lines changed" bash -c "! cmp -s '$tmp/fid/windows.jsonl' '$tmp/realswap'"
"$chk" "$tmp/realswap" >/dev/null 2>"$tmp/e"
rc=$?
check "checker catches swapped windows in a real line (rc=$rc: $(cat "$tmp/e"))" \
	cond '[ "$rc" -eq 1 ] && grep -q "out of order" "$tmp/e"'
head -c 200 "$tmp/good" >"$tmp/cut"
"$chk" "$tmp/cut" >/dev/null 2>"$tmp/e"
rc=$?
check "checker catches a cut line (rc=$rc)" cond '[ "$rc" -eq 1 ] && grep -q "cut short" "$tmp/e"'

finish test_timeline
