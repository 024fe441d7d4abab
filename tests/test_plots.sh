#!/usr/bin/env bash
# test_plots.sh STRATBENCH — every gnuplot template renders, through
# scripts/plot.sh, from small fixtures this test writes, without a gnuplot
# warning (plot.sh fails on any); a family without results gets no figure;
# a template that warns (a broken copy) makes plot.sh fail.
set -u
sb=$1
root=$(cd "$(dirname "$0")/.." && pwd)
plot=$root/scripts/plot.sh
tmp=$(mktemp -d /tmp/sb_plot.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/testlib.sh"
command -v gnuplot >/dev/null || { echo "test_plots: gnuplot missing (apt-get install gnuplot-nox)" >&2; exit 1; }

hdr="name,family,strategy,lock,threads,placement,params,aggregate,repetition,iterations,real_ns,cpu_ns,ops_per_s,ns_per_op,ops_min,ops_max,jain,resets,contended,limited,resets_per_interval,wait_p50_ns,wait_p99_ns,max_wait_ns,trylock_success,cv_pct,noisy,extra,label,error"
# row FAMILY STRATEGY LOCK THREADS PLACE AGG REP OPS P50 P99 CV NOISY
row() {
	local name="$1/$2${3:+/lock:$3}/threads:$4/place:$5"
	echo "$name,$1,$2,$3,$4,$5,,$6,$7,100,1,1,$8,1,1,1,1,,,,,$9,${10},,,${11},${12},,,"
}
# a run: window (2 policies, 2 placements, one noisy point) and lock (2 locks)
mkdir -p "$tmp/run"
{
	echo "$hdr"
	for place in compact scatter; do
		for t in 1 2 4; do
			for s in trylock spinlock; do
				noisy=$([ "$s$t$place" = trylock2compact ] && echo 1 || echo 0)
				for rep in 0 1 2; do
					row window $s queued $t $place "" $rep $((1000000 * t + rep * 50000)) "" "" 4 $noisy
				done
				row window $s queued $t $place median -1 $((1000000 * t + 50000)) "" "" 4 $noisy
			done
		done
	done
	for t in 1 2; do
		for l in ticket mcs; do
			for rep in 0 1 2; do
				row lock $l "" $t compact "" $rep $((500000 / t)) $((20 * t + rep)) $((90 * t + rep)) 2 0
			done
		done
	done
} >"$tmp/run/results.csv"
printf '{"context": {"sb_host": "labhost", "sb_cpu_model": "Test CPU", "sb_label": "current"}, "benchmarks": []}\n' \
	>"$tmp/run/gbench.json"

bash "$plot" "$tmp/run" >"$tmp/out" 2>&1
rc=$?
check "plot.sh exits 0 (rc=$rc: $(tail -2 "$tmp/out"))" [ "$rc" -eq 0 ]
for f in window-throughput-compact window-throughput-scatter lock-throughput-compact lock-latency-compact; do
	check "$f.png" [ -s "$tmp/run/plots/$f.png" ]
	check "$f.svg" [ -s "$tmp/run/plots/$f.svg" ]
done
check "no gnuplot warning" bash -c "! grep -qi warn '$tmp/out'"
check "title names the machine and the parameters" \
	grep -q "window throughput, placement compact — labhost (Test CPU), run current; median of 3" \
	"$tmp/run/plots/window-throughput-compact.svg"
check "the noisy point is flagged" grep -q "<title>CV > 5 %" "$tmp/run/plots/window-throughput-compact.svg"
check "a quiet figure has no CV flag" bash -c "! grep -q 'CV >' '$tmp/run/plots/window-throughput-scatter.svg'"
check "median and min-max in the data" grep -qx "2 2050000 2000000 2100000" "$tmp/run/plots/window-throughput-compact.dat"
check "latency: p50 and p99 per lock" [ "$(grep -c '^"' "$tmp/run/plots/lock-latency-compact.dat")" -eq 4 ]
check "latency: median p99 of mcs at 2 threads" grep -qx "2 181" "$tmp/run/plots/lock-latency-compact.dat"

# a family without results: no figure for it
mkdir "$tmp/wonly"
grep -v '^lock/' "$tmp/run/results.csv" >"$tmp/wonly/results.csv"
bash "$plot" "$tmp/wonly" >"$tmp/out2" 2>&1
check "window only: exits 0" [ $? -eq 0 ]
check "window only: no lock figures" [ -z "$(ls "$tmp/wonly/plots" | grep '^lock')" ]

# one thread count and equal values (lock waits all 10 ns): no empty-range warning
mkdir "$tmp/one"
{ echo "$hdr"; for rep in 0 1; do row lock ticket "" 1 compact "" $rep 500 10 10 0 0; done; } \
	>"$tmp/one/results.csv"
bash "$plot" "$tmp/one" >"$tmp/out7" 2>&1
rc=$?
check "one point per series renders (rc=$rc: $(tail -1 "$tmp/out7"))" [ "$rc" -eq 0 ] && \
	[ -s "$tmp/one/plots/lock-latency-compact.png" ]

# window fidelity: rows of the fidelity mode (their own columns) get the
# fidelity figure; throughput-mode rows stay in the throughput figure
mkdir "$tmp/fid"
fhdr="name,family,strategy,lock,threads,placement,params,aggregate,repetition,iterations,real_ns,cpu_ns,ops_per_s,ns_per_op,ops_min,ops_max,jain,resets,contended,limited,resets_per_interval,wait_p50_ns,wait_p99_ns,max_wait_ns,trylock_success,admit_ratio,admit_ratio_p99,admit_ratio_max,stretch,stretch_max,double_resets,lost_pages,cv_pct,noisy,extra,label,error"
{
	echo "$fhdr"
	for t in 1 2; do for s in spinlock trylock; do for m in throughput fidelity; do
		for rep in 0 1; do
			fid=",,,,,,"
			[ $m = fidelity ] && fid="1.00$rep,1.01,1.02,1.$t,1.$((t + 2)),0,0"
			echo "window/$s/lock:queued/threads:$t/place:compact/mode:$m,window,$s,queued,$t,compact,mode=$m,,$rep,100,1,1,$((t * 1000 + rep)),1,1,1,1,,,,,,,,,$fid,3,0,,,"
		done
	done; done; done
} >"$tmp/fid/results.csv"
bash "$plot" "$tmp/fid" >"$tmp/out8" 2>&1
rc=$?
check "fidelity figure (rc=$rc: $(tail -1 "$tmp/out8"))" [ "$rc" -eq 0 ] && \
	[ -s "$tmp/fid/plots/window-fidelity.png" ] && [ -s "$tmp/fid/plots/window-fidelity.svg" ]
check "fidelity: a series per policy" [ "$(grep -c '^"' "$tmp/fid/plots/window-fidelity.dat")" -eq 2 ]
check "fidelity: mean stretch and max" grep -qx "2 1.2 1.4 1.0005 1.02" "$tmp/fid/plots/window-fidelity.dat"
check "throughput leaves fidelity rows out" \
	[ "$(grep -c '^"' "$tmp/fid/plots/window-throughput-compact.dat")" -eq 2 ]
check "no fidelity figure without fidelity rows" [ ! -e "$tmp/run/plots/window-fidelity.png" ]

# shootdown: simulated and kernel rows give the per-batch figures
mkdir -p "$tmp/sd"
{
	echo "name,family,strategy,lock,threads,placement,params,aggregate,repetition,ops_per_s,ns_per_page,flushes_per_page,acks_per_page,responder_slowdown,us_per_page,tlb_irqs_per_page,error"
	for b in 1 32; do
		echo "shootdown/immediate/batch:$b/threads:2/place:compact,shootdown,immediate,,2,compact,batch=$b,,0,1000,900,1,1,2,,,"
		echo "shootdown/batched/batch:$b/threads:2/place:compact,shootdown,batched,,2,compact,batch=$b,,0,2000,500,$(awk "BEGIN{print 1/$b}"),$(awk "BEGIN{print 1/$b}"),1.5,,,"
		echo "shootdown/kernel-madvise/immediate/batch:$b/threads:2/place:compact,shootdown,kernel-madvise,,2,compact,mode=immediate;batch=$b,,0,100,,,,,10,1,"
		echo "shootdown/kernel-madvise/batched/batch:$b/threads:2/place:compact,shootdown,kernel-madvise,,2,compact,mode=batched;batch=$b,,0,300,,,,,3,$(awk "BEGIN{print 1/$b}"),"
	done
} >"$tmp/sd/results.csv"
bash "$plot" "$tmp/sd" >"$tmp/out9" 2>&1
rc=$?
check "shootdown figures (rc=$rc: $(tail -1 "$tmp/out9"))" [ "$rc" -eq 0 ]
for f in cost flushes acks slowdown kernel; do
	check "shootdown-$f.png" [ -s "$tmp/sd/plots/shootdown-$f.png" ]
done
check "shootdown acks: simulated requests and kernel IPIs" \
	[ "$(grep -c '^"' "$tmp/sd/plots/shootdown-acks.dat")" -eq 4 ]
check "shootdown acks: batched 1/32 at batch 32" grep -qx "32 0.03125" "$tmp/sd/plots/shootdown-acks.dat"
check "shootdown-kernel: µs and IRQs per page at batch 32" grep -qx "32 3 0.03125" "$tmp/sd/plots/shootdown-kernel.dat"
check "no shootdown figure without shootdown rows" [ ! -e "$tmp/run/plots/shootdown-cost.png" ]

# compare and multi-machine, from JSON written here
json() {	# LABEL HOST SCALE
	printf '{"context": {"sb_label": "%s", "sb_host": "%s", "sb_cpu_model": "CPU %s"}, "benchmarks": [' "$1" "$2" "$2"
	local first=1 t s rep
	for t in 1 2 4; do for s in trylock spinlock; do for rep in 0 1 2; do
		[ $first -eq 1 ] || printf ','
		first=0
		printf '{"name": "window/%s/threads:%s/place:compact/manual_time", "run_name": "window/%s/threads:%s/place:compact/manual_time", "run_type": "iteration", "repetition_index": %s, "iterations": 10, "real_time": 1, "cpu_time": 1, "time_unit": "ns", "ops_per_s": %s}' \
			$s $t $s $t $rep $(($3 * t * 1000 + rep * 7 + (t == 2 ? rep * 900 : 0)))
	done; done; done
	printf ']}\n'
}
mkdir -p "$tmp/prev" "$tmp/cur"
json prev hostA 100 >"$tmp/prev/gbench.json"
json current hostB 90 >"$tmp/cur/gbench.json"
SB_STRATBENCH=$sb bash "$plot" --compare "$tmp/prev" "$tmp/cur" >"$tmp/out3" 2>&1
check "compare figure ($(tail -1 "$tmp/out3"))" [ -s "$tmp/cur/plots/compare-vs-prev.png" ] && \
	[ -s "$tmp/cur/plots/compare-vs-prev.svg" ]
check "compare: bars from stratbench compare" [ "$(wc -l <"$tmp/cur/plots/compare-vs-prev.dat")" -eq 6 ]
"$sb" merge "$tmp/prev" "$tmp/cur" --out="$tmp/m" 2>/dev/null
bash "$plot" "$tmp/m" >"$tmp/out4" 2>&1
check "multi-machine figures ($(tail -1 "$tmp/out4"))" [ -s "$tmp/m/plots/machines-window_trylock-compact.png" ] && \
	[ -s "$tmp/m/plots/machines-window_spinlock-compact.svg" ]
check "multi-machine: a line per machine" [ "$(grep -c '^"' "$tmp/m/plots/machines-window_trylock-compact.dat")" -eq 2 ]
check "no gnuplot warning (compare, machines)" bash -c "! grep -qi warn '$tmp/out3' '$tmp/out4'"

# broken fixture: a template that makes gnuplot warn must fail plot.sh
cp -r "$root/plots" "$tmp/tpl"
# one point: gnuplot renders, with "Warning: empty x range"
printf '%s\n' "set terminal dumb; set output '/dev/null'; unset logscale; set autoscale" \
	"plot '-' using 1:2 with points" "1 2" "e" >>"$tmp/tpl/throughput.gp"
rm -rf "$tmp/run/plots"
SB_PLOTS=$tmp/tpl bash "$plot" "$tmp/run" >"$tmp/out5" 2>&1
check "a warning template fails plot.sh" [ $? -ne 0 ]
check "and names the warning" grep -q "gnuplot warned on throughput.gp" "$tmp/out5"
# no data at all: one line, exit 2
mkdir "$tmp/none"
bash "$plot" "$tmp/none" >/dev/null 2>"$tmp/err6"
check "no data: exit 2" [ $? -eq 2 ]
check "no data: one line" [ "$(wc -l <"$tmp/err6")" -eq 1 ]

finish test_plots
