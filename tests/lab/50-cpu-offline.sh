#!/usr/bin/env bash
# 50-cpu-offline — a CPU taken offline between plan and run: the sweep is
# planned on every CPU, the last CPU goes offline while an earlier benchmark
# (on CPU 0 only) runs, and the benchmark that needs it must fail with one
# clear error naming the CPU, while the finished results are kept and the
# run exits 1.  A new run then plans without the CPU (usage error, exit 2).
# Takes CPUs offline: only in the lab guest (or with SB_LAB_ALLOW_OFFLINE=1).
. "$(dirname "$0")/lib.sh"
need_root
[ -n "${SB_LAB_SHAPE:-}" ] || [ "${SB_LAB_ALLOW_OFFLINE:-}" = 1 ] ||
	skip "takes a CPU offline: runs only in the lab guest (scripts/lab.sh) or with SB_LAB_ALLOW_OFFLINE=1"
npu=$(online_cpus | wc -l)
victim=$(online_cpus | tail -1)
ctl=/sys/devices/system/cpu/cpu$victim/online
[ "$npu" -ge 3 ] && [ -w "$ctl" ] || skip "needs 3 CPUs and a CPU that can go offline (cpu$victim)"
trap 'echo 1 >"$ctl" 2>/dev/null; rm -rf "$tmp"' EXIT

out=$tmp/r
"$sb" run --strategy=null --threads=1,2,"$npu" --placement=compact --out="$out" \
	--benchmark_min_time=3 >"$tmp/run.out" 2>"$tmp/run.err" &
pid=$!
# wait for the first benchmark (1 thread on CPU 0) to bind: the main thread
# becomes pinned to one CPU
for i in $(seq 200); do
	grep -q '^Cpus_allowed_list:[[:space:]]*[0-9]*$' /proc/$pid/status 2>/dev/null && break
	sleep 0.05
done
echo 0 >"$ctl"
rows_when_offline=$(($(wc -l <"$out/results.csv.partial") - 1))
echo "  cpu$victim offline, $rows_when_offline benchmark(s) finished by then"
wait "$pid"
rc=$?
echo 1 >"$ctl"
grep -i -e error -e stratbench: "$tmp/run.out" "$tmp/run.err" | sed 's/^/  /'
check "offlined before the benchmark that needs cpu$victim started" [ "$rows_when_offline" -eq 0 ]
same "exit status" "$rc" 1
err_rows=$(awk -F, 'NR > 1 && $NF != ""' "$out/results.csv" 2>/dev/null)
same "failed rows (the $npu-thread benchmark)" "$(echo "$err_rows" | grep -c .)" 1
check "its error names cpu$victim" grep -q "CPU $victim" <<<"$err_rows"
check "the failed row is the $npu-thread benchmark" [ "$(echo "$err_rows" | cut -d, -f1)" = "window/null/threads:$npu/place:compact" ]
# (a preempted point's mark, "on CPU 74 %", names no CPU: not counted)
check "the output has one line naming CPU $victim" \
	[ "$(cat "$tmp/run.out" "$tmp/run.err" | grep -E "CPU $victim([^0-9]|\$)" |
		grep -cvE "on CPU [0-9]+ %")" -eq 1 ]
check "finished results kept: 1- and 2-thread rows measured" awk -F, '
	NR > 1 && $NF == "" && $13 > 0 { n++ } END { exit n == 2 ? 0 : 1 }' "$out/results.csv"
check "results.csv and gbench.json complete (renamed from .partial)" \
	[ -s "$out/results.csv" ] && [ -s "$out/gbench.json" ] && [ ! -e "$out/results.csv.partial" ]
check "gbench.json holds the error" grep -q "CPU $victim" "$out/gbench.json"

# with the CPU offline at start, the plan itself refuses
echo 0 >"$ctl"
"$sb" run --strategy=null --threads="$npu" --placement=compact >"$tmp/o2" 2>"$tmp/e2"
rc=$?
echo 1 >"$ctl"
sed 's/^/  stderr: /' "$tmp/e2"
same "offline before the run: exit status" "$rc" 2
same "offline before the run: one line on stderr" "$(wc -l <"$tmp/e2")" 1
check "... naming the CPU count" grep -q "has $((npu - 1)) CPUs" "$tmp/e2"
finish
