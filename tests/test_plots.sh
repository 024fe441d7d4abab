#!/usr/bin/env bash
# test_plots.sh STRATBENCH — `stratbench plot` draws every figure from
# results directories this test writes (gbench.json with typed points in
# sb_schema/sb_points, windows.jsonl, a merge and a compare), without a
# gnuplot warning (any is a failure); checks what the figures say (the
# machine and the common parameters in the title and not in the keys, the
# noisy point marked, zeros on a log axis named, distinct styles, the
# references named, their labels off the data; the window policies' ratio
# to spinlock with its interval; no handoff bound; one x value as columns;
# acks = flushes said; an idle window's pages in its first interval; the
# compare bars filled by their interval's verdict); and the broken fixtures: a point that lacks a field a
# figure needs fails naming the file and the field, a renamed benchmark
# gives byte-identical data (no name is parsed), a template that makes
# gnuplot warn fails.
# KEEP=1 keeps the temporary directory (to look at the figures).
# One condition per check: `check NAME A && B` would check A alone.
set -u
sb=$1
tmp=$(mktemp -d /tmp/sb_plot.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
. "$(dirname "$0")/testlib.sh"
command -v gnuplot >/dev/null || { echo "test_plots: gnuplot missing (apt-get install gnuplot-nox)" >&2; exit 1; }

# --- fixture writer: points (the sb_points table) and repetitions
points="" benches=""
# pt FAMILY STRATEGY LOCK THREADS PLACEMENT [k:v...]: registers a point, sets $name
pt() {
	local fam=$1 strat=$2 lock=$3 t=$4 place=$5 js="" nm="" kv
	shift 5
	for kv in "$@"; do
		js+="${js:+,}\"${kv%%:*}\":\"${kv#*:}\""
		nm+="/$kv"
	done
	name="$fam/$strat${lock:+/lock:$lock}$nm/threads:$t/place:${place//,/+}"
	points+="${points:+,}\"$name\":{\"family\":\"$fam\",\"strategy\":\"$strat\",\"lock\":"
	points+="$([ -n "$lock" ] && echo "\"$lock\"" || echo null),\"threads\":$t,"
	points+="\"placement\":\"$place\",\"params\":{$js}}"
}
# rep REP COUNTERS: one repetition of the last point ("k": v, ...)
rep() {
	benches+="${benches:+,}{\"name\":\"$name/manual_time\",\"run_name\":\"$name/manual_time\","
	benches+="\"run_type\":\"iteration\",\"repetitions\":3,\"repetition_index\":$1,\"threads\":1,"
	benches+="\"iterations\":100,\"real_time\":1,\"cpu_time\":1,\"time_unit\":\"ns\",$2}"
}
# cv FRACTION: Google Benchmark's cv aggregate of the last point's ops_per_s
cv() {
	benches+=",{\"name\":\"$name/manual_time_cv\",\"run_name\":\"$name/manual_time\","
	benches+="\"run_type\":\"aggregate\",\"aggregate_name\":\"cv\",\"aggregate_unit\":"
	benches+="\"percentage\",\"repetitions\":3,\"threads\":1,\"iterations\":3,\"real_time\":0.01,"
	benches+="\"cpu_time\":0.01,\"time_unit\":\"ns\",\"ops_per_s\":$1}"
}
# write_run DIR HOST CPU LABEL: gbench.json of what pt and rep gathered
write_run() {
	mkdir -p "$1"
	printf '{"context": {"sb_schema": "1", "sb_host": "%s", "sb_cpu_model": "%s", "sb_label": "%s", "sb_cv_threshold": "5", "sb_points": "{%s}"}, "benchmarks": [%s]}\n' \
		"$2" "$3" "$4" "${points//\"/\\\"}" "$benches" >"$1/gbench.json"
	points="" benches=""
}
wparams=(clock:jiffies tick:100)
# window: three policies in throughput mode (one noisy point; recheck 3 %
# above spinlock, which absolute lines cannot show), three in fidelity mode
# (percpu's worst window 1.8: the bars must hold it)
for t in 1 2 4; do
	for s in trylock spinlock recheck; do
		pt window $s queued $t compact mode:throughput "${wparams[@]}"
		for r in 0 1 2; do
			ops=$((1000000 * t + r * 10000))
			[ "$s$t" = trylock2 ] && ops=$((1000000 * (r + 1)))
			[ $s = recheck ] && ops=$((1030000 * t + r * 10000))
			# of_limit (scaling reference) at 2 threads alone: one x value
			rep $r "\"ops_per_s\": $ops$([ $t = 2 ] && echo ", \"of_limit\": 0.9$r")"
		done
	done
done
for t in 1 2; do
	for s in trylock spinlock percpu; do
		pt window $s queued $t compact mode:fidelity "${wparams[@]}"
		for r in 0 1 2; do
			worst=1.3
			[ "$s$t" = percpu2 ] && worst=1.8
			rep $r "\"ops_per_s\": 5, \"stretch\": 1.0$r, \"stretch_max\": $worst, \"admit_ratio\": 1.00$t, \"admit_ratio_max\": 1.0$t"
		done
	done
done
# lock: ten locks (ten series, ten styles), waits and limits
locks="clh mcs ppc_simple pthread_mutex pthread_spin queued tas ticket ttas qspin"
for t in 1 2; do
	for l in $locks; do
		pt lock $l "" $t compact
		for r in 0 1 2; do
			p50=10.6
			[ $t = 2 ] && [ $l != tas ] && p50=$((40 + ${#l} * 5))
			rep $r "\"ops_per_s\": $((2000000 + ${#l} * 100000 * t + r)), \"wait_p50_ns\": $p50, \"wait_p99_ns\": $((100 * t + ${#l})), \"limit_ops\": 4000000, \"of_limit\": 0.$((5 + t))$r"
		done
	done
done
# shootdown (simulated): nothing flushed at 1 thread (no responder): zeros
for t in 1 2; do
	for s in immediate batched; do
		for b in 1 32; do
			pt shootdown $s "" $t compact batch:$b
			fl=$([ $t = 1 ] && echo 0 || { [ $s = batched ] && echo "0.03125" || echo 1; })
			ack=$fl		# batched: twice the acks (immediate: equal, one line)
			[ $t$s = 2batched ] && ack=0.0625
			for r in 0 1 2; do
				rep $r "\"ops_per_s\": $((3000000 - b * 1000 + r)), \"ns_per_page\": $((300 + b + r)), \"flushes_per_page\": $fl, \"acks_per_page\": $ack, \"responder_slowdown\": 1.$((t + r))"
			done
		done
	done
done
# calibrate: a 3-CPU latency matrix, the cycle counter's cost
for pair in 0,1 0,2 1,2; do
	pt calibrate c2c "" 2 "list:$pair" op:store
	rep 0 "\"one_way_ns\": $((40 + ${pair#*,} * 30)), \"pkg_a\": 0, \"pkg_b\": ${pair#*,}, \"node_a\": 0, \"node_b\": ${pair#*,}"
done
pt calibrate uncontended "" 1 list:0 op:cycles
rep 0 '"ns_per_op": 11.5'
write_run "$tmp/run" labhost "Test CPU" current
# windows.jsonl: the timeline of each fidelity policy at 2 threads (and 1, not drawn)
win() {	# STRATEGY THREADS PAGES
	local w="" k s e
	for k in $(seq 0 39); do
		s=$((k * 1000000)) e=$(((k + 1) * 1000000))
		[ "$1" = spinlock ] && s=$((k * 1100000)) e=$(((k + 1) * 1100000))
		# trylock's idle window 3 lasts 4 intervals: no call after its first
		[ "$1" = trylock ] && [ $k -ge 3 ] && s=$((s + (k > 3) * 3000000)) e=$((e + 3000000))
		w+="${w:+,}[$s,$e,$(($3 + k % 3))]"
	done
	printf '{"name": "x", "point": {"family": "window", "strategy": "%s", "lock": "queued", "threads": %s, "placement": "compact", "params": {"mode": "fidelity", "clock": "jiffies", "tick": "100"}}, "interval_ns": 1000000, "limit": 256, "windows": [%s], "idle": [3]}\n' \
		"$1" "$2" "$w"
}
{ win trylock 2 256; win spinlock 2 250; win percpu 2 270; win trylock 1 200; } >"$tmp/run/windows.jsonl"
# the kernel drivers: µs and TLB IRQs per page (none at 1 thread)
for t in 1 2; do
	for m in immediate batched; do
		for b in 1 32; do
			pt shootdown kernel-madvise "" $t compact mode:$m batch:$b
			irq=$([ $t = 1 ] && echo 0 || { [ $m = batched ] && echo 0.03125 || echo 1; })
			for r in 0 1 2; do
				rep $r "\"pages_per_s\": 100000, \"us_per_page\": $((2 + t)).$r, \"tlb_irqs_per_page\": $irq"
			done
		done
	done
done
write_run "$tmp/run/kernel" labhost "Test CPU" current

# with no locale at all, as in the lab guest (no LANG, no gconv modules):
# gnuplot must not need iconv (a `set encoding utf8` made the SVG terminal
# warn "iconv failed to convert degree sign" there); a HOME where
# fontconfig can keep its cache, as any user has
env -i PATH="$PATH" HOME="$tmp" "$sb" plot "$tmp/run" "$tmp/run/kernel" >"$tmp/out" 2>&1
rc=$?
check "plot exits 0 without a locale (rc=$rc: $(tail -1 "$tmp/out"))" [ "$rc" -eq 0 ]
P=$tmp/run/plots
for f in window-throughput-compact lock-throughput-compact shootdown-throughput-compact \
	lock-latency-compact lock-of-limit window-fidelity window-timeline shootdown-cost \
	shootdown-flushes shootdown-slowdown latency-matrix-store; do
	check "$f.png, .svg, .dat, .gp (1/4)" [ -s "$P/$f.png" ]
	check "$f.png, .svg, .dat, .gp (2/4)" [ -s "$P/$f.svg" ]
	check "$f.png, .svg, .dat, .gp (3/4)" [ -s "$P/$f.dat" ]
	check "$f.png, .svg, .dat, .gp (4/4)" [ -s "$P/$f.gp" ]
done
check "kernel: shootdown-kernel" [ -s "$tmp/run/kernel/plots/shootdown-kernel.png" ]
check "no gnuplot warning" bash -c "! grep -qi warn '$tmp/out'"
check "each figure is named with its template" grep -q "^plot: $P/window-fidelity.png (template .*/fidelity.gp)$" "$tmp/out"
check "no fidelity point in the throughput figure" \
	[ "$(grep -c '^# ' "$P/window-throughput-compact.dat")" -eq 4 ]	# header + 3 lines
check "no calibrate throughput figure" [ ! -e "$P/calibrate-throughput-list_0_1.png" ]

# titles: the machine and the parameters every series shares; keys: what differs
gp=$P/window-throughput-compact.gp
check "title: machine and common parameters" grep -q '^plottitle = "window throughput against threads — labhost (Test CPU), run current\\nplacement compact, clock=jiffies, tick=100; left: ratio of medians to spinlock' "$gp"
check "keys: the policies alone" [ "$(grep -c '^KEY\[[123]\] = "\(spinlock\|trylock\|recheck\)/queued"$' "$gp")" -eq 3 ]
check "keys do not repeat the parameters" bash -c "! grep '^KEY' '$gp' | grep -q 'clock\|compact\|mode'"
check "y axis names its unit" grep -q '^YLABEL\[2\] = "window calls/s, all threads (median)"' "$gp"
# every reference line is named under the plot: no "reference line (black): "
# with nothing after it (broken fixture: the same file with its label emptied)
nolabel() { ! grep -q '^REFLABEL\[[0-9]*\] = ""$' "$@"; }
check "reference lines named: every REFLABEL has text" nolabel "$P"/*.gp
sed 's/^REFLABEL\[1\] = ".*"$/REFLABEL[1] = ""/' "$gp" >"$tmp/nolabel.gp"
nolabel_broken() { ! nolabel "$@"; }
check "broken fixture: an empty REFLABEL is caught" nolabel_broken "$tmp/nolabel.gp"
# the window comparison: each policy ÷ spinlock with its 95 % interval, on a
# y axis fitted to the ratios (absolute lines hid a 3 % difference)
wd=$P/window-throughput-compact.dat
ratio_at() {	# POLICY THREADS: "ratio lo hi" of the policy's left panel
	awk -v k="# $1/queued" -v t="$2" '/^# / { on = $0 == k; next } on && $1 == t { print $2, $3, $4 }' "$wd"
}
check "window ratio: the left panel is the ratio to spinlock (1/2)" grep -q '^YLABEL\[1\] = "ops/s ÷ spinlock' "$gp"
check "window ratio: the left panel is the ratio to spinlock (2/2)" grep -qx 'REFY\[1\] = 1' "$gp"
check "window ratio: spinlock is 1 ($(ratio_at spinlock 4))" awk '{ exit !($1 == 1) }' <<<"$(ratio_at spinlock 4)"
check "window ratio: recheck +3 %, its interval above 1 ($(ratio_at recheck 4))" \
	awk '{ exit !($1 > 1.025 && $1 < 1.035 && $2 > 1 && $2 < $1 && $3 > $1) }' <<<"$(ratio_at recheck 4)"
check "window ratio: the noisy trylock's interval holds 1 ($(ratio_at trylock 2))" \
	awk '{ exit !($2 < 1 && $3 > 1) }' <<<"$(ratio_at trylock 2)"
check "window ratio: y fitted, not from 0" awk -F' = ' '$1 == "YMIN[1]" { exit !($2 > 0.3) }' "$gp"
check "shootdown throughput is pages/s" grep -q '^YLABEL\[1\] = "pages migrated/s' "$P/shootdown-throughput-compact.gp"
# noise: the trylock point at 2 threads (CV 50 %), on the figure and in the key
check "noisy point flagged in the data" grep -q ' 2000000 1000000 3000000 1$' "$P/window-throughput-compact.dat"
check "noisy: counted (ratio and ops/s)" grep -qx 'nnoisy = 2' "$gp"
check "noisy: in the key" grep -q "CV &gt; 5 % (noisy)\|CV > 5 % (noisy)" "$P/window-throughput-compact.svg"
check "a quiet figure has no noisy mark" grep -qx 'nnoisy = 0' "$P/shootdown-cost.gp"
# styles: ten locks, ten linetypes and dash patterns; twelve distinct in common.gp
lg=$P/lock-throughput-compact.gp
check "ten series, ten styles (1/3)" [ "$(grep -c '^LT\[' "$lg")" -eq 10 ]
check "ten series, ten styles (2/3)" [ "$(grep '^LT\[' "$lg" | cut -d= -f2 | sort -u | wc -l)" -eq 10 ]
check "ten series, ten styles (3/3)" [ "$(grep '^DT\[' "$lg" | cut -d= -f2 | sort -u | wc -l)" -eq 10 ]
tpl=$(sed -n 's/^plot: .* (template \(.*\)\/lines.gp)$/\1/p' "$tmp/out" | head -1)
check "common.gp: 12 linetypes, each its own colour, dash and point" awk '
	$1 == "set" && $2 == "linetype" && $3 <= 12 { n++; c[$6]++; d[$8]++; p[$10]++ }
	END { exit !(n == 12 && length(c) == 12 && length(d) == 12 && length(p) == 12) }' "$tpl/common.gp"
# shootdown-flushes: acks equal to flushes (immediate) are not a dashed line
# hidden under the solid one but said in the key; batched's differ: dashed;
# the 1-thread series (no responder, all 0) left out, said once
sf=$P/shootdown-flushes.gp
check "flushes: acks = flushes said in the key" grep -qx 'KEY\[[0-9]*\] = "immediate (acks = flushes)"' "$sf"
check "flushes: no acks line under an equal flushes line (3 blocks) (1/2)" [ "$(grep -c '^# ' "$P/shootdown-flushes.dat")" -eq 4 ]
check "flushes: no acks line under an equal flushes line (3 blocks) (2/2)" grep -q '^# batched: flushes' "$P/shootdown-flushes.dat"
check "flushes: batched's own acks dashed" grep -q '^NOTE\[2\] = "dashed: flush requests acked per page"' "$sf"
check "flushes: the all-0 series left out, said once (1/2)" grep -qx 'NOTE\[3\] = "2 series all 0, not drawn (1 thread: no responder)"' "$sf"
check "flushes: the all-0 series left out, said once (2/2)" bash -c "! grep -q 'all 0: not drawn' '$sf'"
check "log axis: the zeros are not in the data" bash -c "! grep -q '^[0-9.]* 0 ' '$P/shootdown-flushes.dat'"
# zeros on a log axis elsewhere: named in the key, not silently dropped
check "log axis: the key explains" grep -q '^NOTE\[1\] = "not drawn: <= 0 on a log axis"' "$tmp/run/kernel/plots/shootdown-kernel.gp"
check "kernel: zero IRQs named per panel" grep -q '(TLB IRQs all 0: not drawn)' "$tmp/run/kernel/plots/shootdown-kernel.gp"
# references named for what they are
check "lock latency: the timing floor" grep -q '^REFKEY\[1\] = "timing floor 10.6 ns"' "$P/lock-latency-compact.gp"
# lock of-limit: one line transfer per handoff is no bound (locks ran 2.5-7.3x
# under it): the 1-thread rmw bound alone, the 2-thread points left out, said
lo=$P/lock-of-limit
check "lock of-limit: the rmw bound alone (1/2)" grep -qx 'REFKEY\[1\] = "1 = limit_ops: uncontended rmw"' "$lo.gp"
check "lock of-limit: the rmw bound alone (2/2)" [ "$(grep -c '^REFKEY\[' "$lo.gp")" -eq 1 ]
check "lock of-limit: no handoff bound" bash -c "! grep -q 'fair-handoff\|line transfer' '$lo.gp'"
check "lock of-limit: no 2-thread point under a bound (a row per lock)" \
	[ "$(grep -c '^[0-9]' "$lo.dat")" -eq 10 ]
check "lock of-limit: the left-out points said in the key" grep -qx 'NOTE\[1\] = ">= 2 threads: no bound, not drawn"' "$lo.gp"
# reference labels: under the plot (the key names the line), not at the line
# among the points
for f in lock-of-limit lock-latency-compact shootdown-slowdown; do
	check "$f: reference in the key, its label under the plot (1/5)" grep -qx 'nref = 1' "$P/$f.gp"
	check "$f: reference in the key, its label under the plot (2/5)" grep -q '^REFKEY\[1\] = "..*"' "$P/$f.gp"
	check "$f: reference in the key, its label under the plot (3/5)" grep -q 'REFLABEL\[k\]) *\\\?$' "$P/$f.gp"
	check "$f: reference in the key, its label under the plot (4/5)" grep -q 'at screen 0.01, screen (nref - k)' "$P/$f.gp"
	check "$f: reference in the key, its label under the plot (5/5)" bash -c "! grep -q 'REFLABEL\[k\] at graph' '$P/$f.gp'"
done
# one x value (window of_limit at 2 threads): a column per policy, named
# under it, on a linear axis (a log axis stacked them in one column); the
# file named for the reference its title names
ws=$P/window-of-scaling
check "window of-scaling: named as its title (1/3)" [ -s "$ws.png" ]
check "window of-scaling: named as its title (2/3)" [ ! -e "$P/window-of-limit.png" ]
check "window of-scaling: named as its title (3/3)" grep -q '^plottitle = "window: throughput as a fraction of its scaling reference' "$ws.gp"
check "window of-scaling: a column per policy, linear x (1/4)" grep -qx 'bycat = 1' "$ws.gp"
check "window of-scaling: a column per policy, linear x (2/4)" grep -qx 'logx = 0' "$ws.gp"
check "window of-scaling: a column per policy, linear x (3/4)" grep -qx 'XTL\[3\] = "trylock/queued"' "$ws.gp"
check "window of-scaling: a column per policy, linear x (4/4)" [ "$(awk '/^[0-9]/ { print $1 }' "$ws.dat" | tr '\n' ' ')" = "1 2 3 " ]
check "window of-scaling: the x label says the one value" grep -q '^xlabel = "threads 2 (the only value)' "$ws.gp"
check "several x values: no columns" grep -qx 'bycat = 0' "$gp"
# fidelity: a bar group per policy, nothing clipped
fd=$P/window-fidelity.gp
check "fidelity: three policies" [ "$(grep -c '^KEY\[' "$fd")" -eq 3 ]
check "fidelity: the worst window in range" awk -F' = ' '$1 == "YMAX[1]" { exit !($2 > 1.8) }' "$fd"
check "fidelity: a row per policy and thread count" [ "$(grep -c '^-\?[0-9.]* 1.01 ' "$P/window-fidelity.dat")" -eq 6 ]
# timeline: 2 threads, a panel per policy, the windows and the limit
td=$P/window-timeline
check "timeline: three panels at 2 threads (1/2)" grep -qx 'npanel = 3' "$td.gp"
check "timeline: three panels at 2 threads (2/2)" grep -q '^plottitle = "window timeline: pages admitted per window, 2 threads' "$td.gp"
check "timeline: the limit" grep -qx 'LIMIT\[1\] = 256' "$td.gp"
check "timeline: spinlock's stretched windows, from window 1" grep -qx '0.000000 1.100000 251 0' "$td.dat"
check "timeline: the idle window" grep -qx '2.000000 3.000000 256 1' "$td.dat"
# an idle window 4 intervals long: its pages in its first interval, the rest
# an idle span at 0 pages (not a box of 256 pages across 4 ms)
check "timeline: the long idle window's pages in its first interval (1/3)" grep -qx '2.000000 3.000000 256 1' "$td.dat"
check "timeline: the long idle window's pages in its first interval (2/3)" grep -qx '3.000000 6.000000 0 2' "$td.dat"
check "timeline: the long idle window's pages in its first interval (3/3)" bash -c "! grep -q '^2.000000 6.000000 ' '$td.dat'"
check "timeline: the idle span drawn as a band" grep -q 'using (\$4 == 2 ' "$td.gp"
check "latency matrix: 3 CPUs" grep -qx 'n = 3' "$P/latency-matrix-store.gp"

# broken fixture 2: a benchmark renamed (its gbench.json name and sb_points
# key), fields unchanged: byte-identical data
cp -r "$tmp/run" "$tmp/renamed"
rm -rf "$tmp/renamed/plots"
old="window/trylock/lock:queued/mode:fidelity/clock:jiffies/tick:100/threads:2/place:compact"
sed -i "s#$old#zz-renamed/point#g" "$tmp/renamed/gbench.json"
check "renamed: the name changed" bash -c "grep -q zz-renamed '$tmp/renamed/gbench.json' && ! grep -q '$old' '$tmp/renamed/gbench.json'"
"$sb" plot "$tmp/renamed" >"$tmp/out2" 2>&1
check "renamed: plots ($(tail -1 "$tmp/out2"))" [ $? -eq 0 ]
for d in "$P"/*.dat; do
	check "renamed: $(basename "$d") identical" cmp -s "$d" "$tmp/renamed/plots/$(basename "$d")"
done

# broken fixture 1: a point that lacks what a figure needs
mkdir "$tmp/nothreads"
sed 's#\\"threads\\":2,\\"placement\\":\\"compact\\",\\"params\\":{\\"mode\\":\\"fidelity#\\"placement\\":\\"compact\\",\\"params\\":{\\"mode\\":\\"fidelity#' \
	"$tmp/run/gbench.json" >"$tmp/nothreads/gbench.json"
"$sb" plot "$tmp/nothreads" >/dev/null 2>"$tmp/err1"
rc=$?
check "no threads: refused as bad input (rc=$rc)" [ "$rc" -eq 2 ]
check "no threads: one line naming file and field ($(head -1 "$tmp/err1"))" \
	[ "$(wc -l <"$tmp/err1")" -eq 1 ]
check "no threads: one line naming file and field: the message" grep -q "nothreads/gbench.json: .*\"threads\" is missing" "$tmp/err1"
mkdir "$tmp/nopoint"
sed "s#\\\\\"$old\\\\\":{[^}]*}}#\\\\\"gone\\\\\":{\\\\\"family\\\\\":\\\\\"x\\\\\",\\\\\"strategy\\\\\":\\\\\"x\\\\\",\\\\\"lock\\\\\":null,\\\\\"threads\\\\\":1,\\\\\"placement\\\\\":\\\\\"compact\\\\\",\\\\\"params\\\\\":{}}#" \
	"$tmp/run/gbench.json" >"$tmp/nopoint/gbench.json"
"$sb" plot "$tmp/nopoint" >/dev/null 2>"$tmp/err2"
check "no sb_points entry: fails, one line naming file and benchmark ($(head -1 "$tmp/err2"))" \
	[ "$(wc -l <"$tmp/err2")" -eq 1 ]
check "no sb_points entry: fails, one line naming file and benchmark: the message" grep -q "nopoint/gbench.json: benchmark $old has no entry in sb_points" "$tmp/err2"
mkdir "$tmp/nobatch"
sed 's#\\"batch\\":\\"32\\"##' "$tmp/run/gbench.json" >"$tmp/nobatch/gbench.json"
"$sb" plot "$tmp/nobatch" >/dev/null 2>"$tmp/err3"
check "no batch: fails naming file, field and figure ($(head -1 "$tmp/err3"))" \
	[ "$(wc -l <"$tmp/err3")" -eq 1 ]
check "no batch: fails naming file, field and figure: the message" grep -q "nobatch/gbench.json: .*: point has no parameter \"batch\" (figure shootdown-cost needs it)" "$tmp/err3"
mkdir "$tmp/badwin"
cp "$tmp/run/gbench.json" "$tmp/badwin/"
{ win trylock 2 256; win spinlock 2 250 | sed 's/"threads": 2, //'; } >"$tmp/badwin/windows.jsonl"
"$sb" plot "$tmp/badwin" >/dev/null 2>"$tmp/err4"
check "windows.jsonl without threads: names line and field ($(head -1 "$tmp/err4"))" \
	[ "$(wc -l <"$tmp/err4")" -eq 1 ]
check "windows.jsonl without threads: names line and field: the message" grep -q "badwin/windows.jsonl line 2: point field \"threads\" is missing" "$tmp/err4"
mkdir "$tmp/plain"
printf '{"context": {"host_name": "h"}, "benchmarks": [{"name": "a/manual_time", "run_type": "iteration", "real_time": 1, "cpu_time": 1, "time_unit": "ns", "ops_per_s": 1}]}\n' \
	>"$tmp/plain/gbench.json"
"$sb" plot "$tmp/plain" >/dev/null 2>"$tmp/err5"
check "plain Google Benchmark JSON: no typed points, said ($(head -1 "$tmp/err5"))" \
	grep -q "plain/gbench.json: no typed points" "$tmp/err5"

# broken fixture 3: a template that makes gnuplot warn
cp -r "$tpl" "$tmp/tpl"
printf '%s\n' "set terminal dumb; set output '/dev/null'; unset logscale; set autoscale" \
	"plot '-' using 1:2 with points" "1 2" "e" >>"$tmp/tpl/lines.gp"
SB_PLOTS=$tmp/tpl "$sb" plot "$tmp/run" >/dev/null 2>"$tmp/err6"
rc=$?
check "a warning template fails (rc=$rc)" [ "$rc" -eq 1 ]
check "and names the figure and the warning ($(head -1 "$tmp/err6"))" \
	grep -q "gnuplot warned on figure window-throughput-compact (template lines.gp.*warning" "$tmp/err6"
SB_PLOTS=$tmp/none "$sb" plot "$tmp/run" >/dev/null 2>"$tmp/err7"
check "no templates: one line, exit 1 (1/3)" [ $? -eq 1 ]
check "no templates: one line, exit 1 (2/3)" [ "$(wc -l <"$tmp/err7")" -eq 1 ]
check "no templates: one line, exit 1 (3/3)" grep -q "no gnuplot templates" "$tmp/err7"
# no data at all: one line, exit 2
mkdir "$tmp/empty"
"$sb" plot "$tmp/empty" >/dev/null 2>"$tmp/err8"
check "no results: exit 2, one line (1/2)" [ $? -eq 2 ]
check "no results: exit 2, one line (2/2)" [ "$(wc -l <"$tmp/err8")" -eq 1 ]

# compare and merge: two runs of the window family, one point noisy (CV 121 %)
two_runs() {	# DIR HOST LABEL SCALE NOISY
	local t s r ops
	for t in 1 2 4; do for s in trylock spinlock; do
		pt window $s queued $t compact "${wparams[@]}"
		for r in 0 1 2; do
			ops=$(($4 * t * 1000 + r * 7))
			[ "$5$s$t" = 1trylock2 ] && ops=$((r == 2 ? 9000 : 1000))
			[ "$5$s$t" = 1spinlock4 ] && ops=$((100 * t * 1000 + r * 7))	# unchanged
			rep $r "\"ops_per_s\": $ops"
		done
		cv "$([ "$5$s$t" = 1trylock2 ] && echo 1.21 || echo 0.0001)"
	done; done
	write_run "$1" "$2" "CPU $2" "$3"
}
two_runs "$tmp/prev" hostA prev 100 0
two_runs "$tmp/cur" hostB current 90 1
"$sb" plot --compare "$tmp/prev" "$tmp/cur" >"$tmp/out3" 2>&1
check "compare figure ($(tail -1 "$tmp/out3"))" [ -s "$tmp/cur/plots/compare-vs-prev.png" ]
check "compare figure: svg" [ -s "$tmp/cur/plots/compare-vs-prev.svg" ]
cd_=$tmp/cur/plots/compare-vs-prev.dat
check "compare: a bar per point, under the family's line (1/2)" [ "$(grep -c $'\t-$' "$cd_")" -eq 6 ]
check "compare: a bar per point, under the family's line (2/2)" grep -q $'^\tNaN\t-\t0\t2\tNaN\tNaN\twindow: placement compact, clock=jiffies, tick=100$' "$cd_"
check "compare: -10 % where nothing else changed" grep -q $'^spinlock/queued, 1 thread\t-9.99' "$cd_"
# the fill follows the interval's verdict, noisy or not (a noisy outline hid
# every fill): changed down (-1) with its interval, ~ (0) where unchanged
cg=$tmp/cur/plots/compare-vs-prev.gp
check "compare: -10 % is changed (down), its interval around it" \
	grep -q $'^spinlock/queued, 1 thread\t-9.99[0-9]*\t[-0-9.]*\t0\t-1\t-10.0[0-9]*\t-9.9[0-9]*\t-$' "$cd_"
check "compare: unchanged is ~" grep -q $'^spinlock/queued, 4 threads\t0\t[-0-9.]*\t0\t0\t-[0-9.]*\t[0-9.]*\t-$' "$cd_"
check "compare: the fills do not depend on the noise (1/2)" grep -q 'bar(v) = column(5) == v' "$cg"
check "compare: the fills do not depend on the noise (2/2)" bash -c "! grep -q '\$4 == 0' '$cg'"
check "compare: the family line starts in the left margin, boxed (1/2)" grep -q 'with labels left boxed' "$cg"
check "compare: the family line starts in the left margin, boxed (2/2)" grep -q 'offset char -(LM - 1), 0' "$cg"
check "compare: the noisy point keeps its verdict, outlined red (1/2)" grep -q $'^trylock/queued, 2 threads\t[-0-9.]*\t[-0-9.]*\t1\t-1\t' "$cd_"
check "compare: the noisy point keeps its verdict, outlined red (2/2)" grep -q "CV &gt; 5 % on either side (noisy)\|CV > 5 % on either side (noisy)" "$tmp/cur/plots/compare-vs-prev.svg"
check "compare: the machines in the title" grep -q '^plottitle = "%Change of ops_per_s (median) from prev to cur\\nnew: hostB (CPU hostB), run current\\nold: hostA (CPU hostA), run prev"' "$tmp/cur/plots/compare-vs-prev.gp"
"$sb" merge "$tmp/prev" "$tmp/cur" --out="$tmp/m" 2>/dev/null
"$sb" plot "$tmp/m" >"$tmp/out4" 2>&1
mf=$tmp/m/plots/machines-window_trylock_lock-queued-compact-clock-jiffies_tick-100
check "machines figure ($(tail -1 "$tmp/out4"))" [ -s "$mf.png" ]
check "machines figure: svg" [ -s "$mf.svg" ]
check "machines: a line per machine, keyed by its name (1/2)" grep -qx 'KEY\[1\] = "current"' "$mf.gp"
check "machines: a line per machine, keyed by its name (2/2)" grep -qx 'KEY\[2\] = "prev"' "$mf.gp"
check "machines: the CPUs in the title" grep -q 'current (CPU hostB), prev (CPU hostA)\|prev (CPU hostA), current (CPU hostB)' "$mf.gp"
check "machines: the noisy point" grep -qx 'nnoisy = 1' "$mf.gp"
check "no gnuplot warning (compare, machines)" bash -c "! grep -qi warn '$tmp/out3' '$tmp/out4'"

# a lock-free policy (cmpxchg: no lock) is compared with spinlock under the
# first lock by name (clh before ticket), whatever the file's order: an
# interleaved run writes its points in a random order
lockfree_run() {	# DIR LOCKS...: cmpxchg at 500k ops/s, spinlock 1M under clh, 2M under ticket
	local d=$1 l r
	shift
	for l in "$@"; do
		pt window spinlock $l 2 compact mode:throughput "${wparams[@]}"
		for r in 0 1 2; do rep $r "\"ops_per_s\": $([ $l = clh ] && echo 1000000 || echo 2000000)"; done
	done
	pt window cmpxchg "" 2 compact mode:throughput "${wparams[@]}"
	for r in 0 1 2; do rep $r '"ops_per_s": 500000'; done
	write_run "$d" labhost "Test CPU" current
	"$sb" plot "$d" >/dev/null 2>&1
}
lockfree_ratio() {	# DAT: cmpxchg's ratio (one x value: its column)
	awk '/^# / { on = $0 == "# cmpxchg"; next } on && NF { print $2; exit }' "$1"
}
lockfree_run "$tmp/lf1" ticket clh
lockfree_run "$tmp/lf2" clh ticket
lockfree_run "$tmp/lf3" ticket		# broken fixture: no spinlock under clh
lf=window-throughput-compact.dat
check "lock-free ratio: against spinlock under clh, ticket first in the file ($(lockfree_ratio "$tmp/lf1/plots/$lf"))" \
	[ "$(lockfree_ratio "$tmp/lf1/plots/$lf")" = 0.5 ]
check "lock-free ratio: the file's order does not change the data" cmp -s "$tmp/lf1/plots/$lf" "$tmp/lf2/plots/$lf"
check "broken fixture: against spinlock under ticket, the check fails ($(lockfree_ratio "$tmp/lf3/plots/$lf"))" \
	[ "$(lockfree_ratio "$tmp/lf3/plots/$lf")" != 0.5 ]

finish test_plots
