#!/usr/bin/env bash
# test_cli.sh STRATBENCH — the CLI end to end: list, topo, a short run that
# writes JSON and CSV, and bad input (one line, exit 2, nothing lost).
set -u
sb=$1
export SB_STRATBENCH=$sb	# scripts/plot.sh runs the binary under test
tmp=$(mktemp -d /tmp/sb_cli.XXXXXX)
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
. "$(dirname "$0")/testlib.sh"	# ok, bad, check, expect2, col
fast=(--benchmark_min_time=0.01)

# list: families and strategies, no test-only fixtures
"$sb" list >"$tmp/list" 2>&1
check "list exits 0" [ $? -eq 0 ]
for s in null spinlock trylock recheck locked cmpxchg cmpxchg_aligned percpu ttas queued mcs clh ticket tas ppc_simple pthread_mutex pthread_spin c2c uncontended flush \
	immediate batched targeted; do
	check "list names $s" grep -q "^  $s " "$tmp/list"
done
check "list hides test-only locks and policies" bash -c "! grep -qiE 'broken|probe' '$tmp/list'"
check "at least 8 window policies" [ "$(sed -n '/^window /,/^lock /p' "$tmp/list" | grep -c '^  ')" -ge 8 ]

# topo on a lab topology
"$sb" topo --topology="synthetic:pack:2 numa:2 core:9 pu:2" --placement=scatter --threads=4 >"$tmp/topo"
check "topo plan" grep -q "plan scatter, 4 threads: 0,36,18,54" "$tmp/topo"
check "topo summary" grep -q "2 packages, 4 NUMA nodes, 36 cores, 72 PUs" "$tmp/topo"
"$sb" topo --topology="synthetic:pack:2 numa:2 core:9 pu:2" --pairs=sample >"$tmp/topo2"
check "topo counts the sampled matrix" grep -q "latency matrix (sample): 106 pairs: smt 2 node 32 package 36 remote 36" "$tmp/topo2"

# a short run: JSON with the fingerprint, CSV with the counters
out=$tmp/r
"$sb" run --strategy=null,spinlock,pthread_spin --threads=1,2 --placement=compact \
	--out="$out" "${fast[@]}" >"$tmp/run.out" 2>"$tmp/run.err"
rc=$?
check "run exits 0 (rc=$rc: $(tail -2 "$tmp/run.err"))" [ "$rc" -eq 0 ]
check "gbench.json written" [ -s "$out/gbench.json" ]
for k in sb_cpu_model sb_packages sb_numa_nodes sb_cores sb_pus sb_cacheline_os sb_kernel \
	sb_compiler sb_git_revision sb_command_line; do
	check "context has $k" grep -q "\"$k\"" "$out/gbench.json"
done
for n in window/null/threads:1/place:compact window/spinlock/lock:queued/threads:2/place:compact lock/pthread_spin/threads:1/place:compact \
	baseline/pthread_spin/threads:2/place:compact; do
	check "json has $n" grep -q "\"$n/manual_time\"" "$out/gbench.json"
	check "csv has $n" grep -q "^$n," "$out/results.csv"
done
check "csv header" grep -q '^name,family,strategy,lock,threads,placement,params,aggregate,repetition,iterations,real_ns,cpu_ns,ops_per_s,ns_per_op,ops_min,ops_max,jain,resets,contended,limited' "$out/results.csv"
# every row has a positive ops_per_s (column 13) and no error
check "csv rows measured" awk -F, 'NR > 1 { n++; if (!($13 > 0) || $NF != "") { bad = 1; exit } } END { if (bad) exit 1; exit n == 8 ? 0 : 1 }' "$out/results.csv"
check "spinlock row has resets and lock column" \
	awk -F, '$3 == "spinlock" && $4 == "queued" && $18 != "" { f = 1 } END { exit !f }' "$out/results.csv"
for c in ops_per_s ns_per_op ops_min ops_max resets contended; do
	check "json counter $c" grep -q "\"$c\":" "$out/gbench.json"
done

# counters (default set): every benchmark carries them, in the JSON and the CSV's extra
check "context lists counters" grep -q '"sb_counters": "task-clock,' "$out/gbench.json"
check "context lists unavailable counters" grep -q '"sb_counters_unavailable": ' "$out/gbench.json"
check "every JSON benchmark has cnt:rusage:user_s" \
	[ "$(grep -c '"cnt:rusage:user_s":' "$out/gbench.json")" -eq "$(grep -c '"run_name":' "$out/gbench.json")" ]
check "every JSON benchmark has cnt:task-clock/op" \
	[ "$(grep -c '"cnt:task-clock/op":' "$out/gbench.json")" -eq "$(grep -c '"run_name":' "$out/gbench.json")" ]
ex=$(col "$out/results.csv" extra)
check "every CSV row has counters in extra" awk -F, -v ex="$ex" \
	'NR > 1 { n++; if ($ex !~ /cnt:rusage:user_s=/ || $ex !~ /cnt:irq:CAL@team=/) { bad = 1; exit } } END { if (bad) exit 1; exit n == 8 ? 0 : 1 }' \
	"$out/results.csv"
# an unavailable counter is named in the context and never appears as a value
unav=$(sed -n 's/.*"sb_counters_unavailable": "\(.*\)",\{0,1\}$/\1/p' "$out/gbench.json")
if [ "$unav" != "none" ]; then
	while IFS= read -r name; do
		check "unavailable $name has no value" bash -c "! grep -q '\"cnt:$name[\"@:/]' '$out/gbench.json'"
	done < <(printf '%s\n' "$unav" | sed 's/; /\n/g' | sed 's/: .*//')
fi
check "one note on stderr" [ "$(grep -c 'counters\{0,1\} unavailable here' "$tmp/run.err")" -le 1 ]

# --counters=none: no counters, nothing unavailable
"$sb" run --strategy=null --threads=1 --placement=compact --counters=none --out="$tmp/none" \
	"${fast[@]}" >/dev/null 2>"$tmp/none.err"
check "--counters=none runs" [ $? -eq 0 ]
check "--counters=none: no cnt: values" bash -c "! grep -q '\"cnt:' '$tmp/none/gbench.json'"
check "--counters=none: context says none" grep -q '"sb_counters": "none"' "$tmp/none/gbench.json"
check "--counters=none: no note" bash -c "! grep -q 'unavailable here' '$tmp/none.err'"
# made-up counters of valid form: unavailable with a reason, run exits 0, one note for the run
"$sb" run --strategy=null,pthread_spin --threads=1 --placement=compact \
	--counters=page-faults,vmstat:sb_no_such_field,sb_made_up:no_such_event,irq:NOSUCHROW \
	--out="$tmp/mu" "${fast[@]}" >/dev/null 2>"$tmp/mu.err"
check "made-up counters: run exits 0" [ $? -eq 0 ]
check "made-up counters: one note line" [ "$(grep -c 'unavailable here' "$tmp/mu.err")" -eq 1 ]
check "made-up counters: note names them" grep -q 'vmstat:sb_no_such_field, sb_made_up:no_such_event, irq:NOSUCHROW' "$tmp/mu.err"
check "made-up vmstat field: reason in context" grep -q 'vmstat:sb_no_such_field: no field sb_no_such_field in /proc/vmstat' "$tmp/mu/gbench.json"
check "made-up irq row: reason in context" grep -q 'irq:NOSUCHROW: no NOSUCHROW row in /proc/interrupts' "$tmp/mu/gbench.json"
check "made-up tracepoint: reason in context" grep -q 'sb_made_up:no_such_event: [a-z]' "$tmp/mu/gbench.json"
check "made-up counters: never values" bash -c "! grep -q '\"cnt:\(vmstat:sb_no\|sb_made_up\|irq:NOSUCH\)' '$tmp/mu/gbench.json'"
check "made-up counters: the others measured" [ "$(grep -c '"cnt:page-faults\(:u\)\{0,1\}":' "$tmp/mu/gbench.json")" -eq "$(grep -c '"run_name":' "$tmp/mu/gbench.json")" ]
# --counters-ab: every benchmark twice, without and with the counters
"$sb" run --strategy=null --threads=1 --placement=compact --counters-ab --out="$tmp/ab" "${fast[@]}" \
	>/dev/null 2>&1
check "--counters-ab runs both" [ "$(grep -c '^window/null/threads:1/place:compact/counters:\(none\|on\),' "$tmp/ab/results.csv")" -eq 2 ]
check "--counters-ab: none has no counters" \
	awk -F, -v ex="$ex" '$1 ~ /counters:none$/ && $ex ~ /cnt:/ { bad = 1; exit } $1 ~ /counters:none$/ { f = 1 } END { if (bad) exit 1; exit !f }' "$tmp/ab/results.csv"
check "--counters-ab: on has counters" \
	awk -F, -v ex="$ex" '$1 ~ /counters:on$/ && $ex ~ /cnt:rusage:user_s=/ { f = 1 } END { exit !f }' "$tmp/ab/results.csv"
expect2 "--counters-ab with none" "drop --counters=none" run --strategy=null --counters-ab --counters=none
# stratbench counters: one line per counter, available or why not
"$sb" counters >"$tmp/cnt" 2>&1
check "counters exits 0" [ $? -eq 0 ]
check "counters: page-faults line" grep -Eq '^page-faults +(available|unavailable: .+)$' "$tmp/cnt"
check "counters: cycles line" grep -Eq '^cycles +(available|unavailable: .+\(E[A-Z]+: .+)' "$tmp/cnt"
check "counters: tracepoint line" grep -Eq '^tlb:tlb_flush +(available|unavailable: .+)$' "$tmp/cnt"
check "counters: irq line" grep -Eq '^irq:TLB +(available|unavailable: .+)$' "$tmp/cnt"
check "counters: raw PMU line" grep -q '^raw PMU events' "$tmp/cnt"
expect2 "counters bad list" "unknown counter 'cyclez'" counters --counters=cyclez
# bad counter names: one line, exit 2, before anything runs
expect2 "malformed tracepoint 2" "malformed tracepoint ':tlb_flush'" run --strategy=null --counters=:tlb_flush
expect2 "malformed vmstat" "malformed counter 'vmstat:'" run --strategy=null --counters=vmstat:
if grep -q '^raw PMU events.*built without libpfm4' "$tmp/cnt"; then
	expect2 "raw event without libpfm4" "needs libpfm4 (apt-get install libpfm4-dev) and a rebuild" \
		run --strategy=null --counters=DTLB_LOAD_MISSES:WALK_COMPLETED
else	# with libpfm4: a name this PMU lacks is unavailable, and the run goes on
	"$sb" run --strategy=null --threads=1 --placement=compact --counters=PM_SB_NO_SUCH_EVENT,page-faults \
		--out="$tmp/pfm" "${fast[@]}" >/dev/null 2>"$tmp/pfm.err"
	check "unknown raw event with libpfm4: exits 0" [ $? -eq 0 ]
	check "unknown raw event: reason" grep -q 'PM_SB_NO_SUCH_EVENT: libpfm4 cannot encode' "$tmp/pfm/gbench.json"
fi
# unprivileged: hardware events, kernel-only events and tracepoints are named
# unavailable with the reason; the run still exits 0 and never reports them
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo 2)
unpriv=()
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null && id nobody >/dev/null 2>&1; then
	chmod 755 "$tmp"
	mkdir -m 777 "$tmp/nb"
	cp "$sb" "$tmp/nb/stratbench" && chmod 755 "$tmp/nb/stratbench"
	unpriv=(setpriv --reuid=nobody --regid="$(id -gn nobody)" --clear-groups "$tmp/nb/stratbench")
elif [ "$(id -u)" -ne 0 ]; then
	mkdir "$tmp/nb"
	unpriv=("$sb")
else
	echo "test_cli: skipped: unprivileged counters (no setpriv or no user nobody)"
fi
if [ ${#unpriv[@]} -gt 0 ]; then
	"${unpriv[@]}" run --strategy=null --threads=1 --placement=compact \
		--counters=default,tlb:tlb_flush,cycles --out="$tmp/nb/out" "${fast[@]}" >/dev/null 2>"$tmp/nb.err"
	check "unprivileged run exits 0 ($(tail -1 "$tmp/nb.err"))" [ $? -eq 0 ]
	check "unprivileged: tracepoint unavailable with a reason" \
		grep -Eq 'tlb:tlb_flush: (tracefs|debugfs) [^;"]*(not|no |EACCES)' "$tmp/nb/out/gbench.json"
	check "unprivileged: no tracepoint value" bash -c "! grep -q '\"cnt:tlb:' '$tmp/nb/out/gbench.json'"
	check "unprivileged: rusage measured" grep -q '"cnt:rusage:user_s":' "$tmp/nb/out/gbench.json"
	check "unprivileged: default set without tracepoints, said so" \
		grep -q '"sb_counters_note": "tracepoints' "$tmp/nb/out/gbench.json"
	# 2: user space only (upstream's default); 3: nothing at all (Debian's
	# kernels, as on the lab guest), so not even page-faults:u
	if [ "$paranoid" -ge 3 ]; then
		check "unprivileged: page-faults not permitted at paranoid $paranoid" \
			grep -q "page-faults: not permitted at perf_event_paranoid $paranoid (EACCES" "$tmp/nb/out/gbench.json"
		check "unprivileged: no page-faults value" bash -c "! grep -q '\"cnt:page-faults' '$tmp/nb/out/gbench.json'"
	elif [ "$paranoid" -eq 2 ]; then
		check "unprivileged: context-switches not permitted (EACCES)" \
			grep -q 'context-switches: not permitted at perf_event_paranoid [0-9]* (EACCES' "$tmp/nb/out/gbench.json"
		check "unprivileged: no context-switches value" \
			bash -c "! grep -q '\"cnt:context-switches' '$tmp/nb/out/gbench.json'"
		check "unprivileged: page faults of user space, named :u" \
			grep -q '"cnt:page-faults:u":' "$tmp/nb/out/gbench.json"
		check "unprivileged: cycles unavailable" grep -q 'cycles: [a-z]' "$tmp/nb/out/gbench.json"
	fi
	"${unpriv[@]}" counters >"$tmp/nb.cnt" 2>&1
	check "unprivileged counters exits 0" [ $? -eq 0 ]
fi

# --lock=all: every listed lock under a lock-based policy
nlocks=$(awk '/^lock /{ f = 1; next } /^[^ ]/{ f = 0 } f && /^  /' "$tmp/list" | wc -l)
"$sb" run --strategy=spinlock --lock=all --threads=1 --placement=compact \
	--benchmark_list_tests=true >"$tmp/all" 2>&1
check "--lock=all expands to all $nlocks locks" \
	[ "$(grep -c '^window/spinlock/lock:.*/threads:1/place:compact' "$tmp/all")" -eq "$nlocks" ]
check "at least 9 locks" [ "$nlocks" -ge 9 ]
# ... and each of them really runs under it, on short windows (resets and contention)
"$sb" run --strategy=spinlock --lock=all --threads=2 --placement=compact --interval-ms=0.01 \
	--out="$tmp/alllocks" "${fast[@]}" >/dev/null 2>&1
check "spinlock with every lock: all rows measured" awk -F, -v n="$nlocks" \
	'NR > 1 { k++; if (!($13 > 0) || $NF != "") { bad = 1; exit } } END { if (bad) exit 1; exit k == n ? 0 : 1 }' \
	"$tmp/alllocks/results.csv"

# the window workload model, the jiffies clock and fidelity mode: names, counters, CSV
# (0.3 s of 10 ms windows: a window that closes an interval late is idle and
# left out, and members or the ticker stall for milliseconds under TSan on a
# loaded machine and in the TCG lab guest, where 0.1 ms windows were all
# idle in one run in three; at 10 ms the guest saw none idle)
"$sb" run --strategy=trylock,cmpxchg --threads=2 --placement=compact --clock=jiffies --tick-us=1000 \
	--interval-ms=10 --limit=32 --migrate-ns=200 --fault-ns=100 --mode=both \
	--out="$tmp/fid" --benchmark_min_time=0.3 >"$tmp/fid.out" 2>&1
check "fidelity run exits 0 ($(tail -1 "$tmp/fid.out"))" [ $? -eq 0 ]
check "fidelity name" grep -q '^window/trylock/lock:queued/mode:fidelity/threads:2/place:compact/clock:jiffies/tick:1000/migrate:200/fault:100,' "$tmp/fid/results.csv"
check "throughput variant name" grep -q '^window/cmpxchg/mode:throughput/threads:2/place:compact/clock:jiffies/tick:1000/migrate:200/fault:100,' "$tmp/fid/results.csv"
for c in admit_ratio admit_ratio_p99 admit_ratio_max stretch stretch_max double_resets lost_pages; do
	check "json fidelity counter $c" grep -q "\"$c\":" "$tmp/fid/gbench.json"
	# the column is filled on fidelity rows, empty on throughput rows
	check "csv column $c" awk -F, -v c="$c" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
		$7 ~ /mode=fidelity/ { f += ($k != "") } $7 ~ /mode=throughput/ { t += ($k != "") }
		END { exit !(k && f == 2 && t == 0) }' "$tmp/fid/results.csv"
done
check "fidelity: windows seen" awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "stretch") k = i; next }
	$7 ~ /mode=fidelity/ && $k > 0.5 { n++ } END { exit n != 2 }' "$tmp/fid/results.csv"
"$sb" run --strategy=spinlock --threads=1 --placement=compact --benchmark_list_tests=true --exact \
	--migrate-ns=100 >"$tmp/names" 2>&1
check "workload name parts" grep -q '^window/spinlock/lock:queued/threads:1/place:compact/acct:exact/migrate:100/fault:0/manual_time' "$tmp/names"
bash "$(dirname "$0")/../scripts/plot.sh" "$tmp/fid" >"$tmp/fidplot.out" 2>&1
check "fidelity plot ($(tail -1 "$tmp/fidplot.out"))" [ -s "$tmp/fid/plots/window-fidelity.png" ]
check "throughput plot leaves fidelity points out (a header, two lines)" [ "$(grep -c '^# ' "$tmp/fid/plots/window-throughput-compact.dat")" -eq 3 ]
check "throughput plot data holds no fidelity point" bash -c "! grep -q fidelity '$tmp/fid/plots/window-throughput-compact.dat'"
expect2 "tiny tick" "bad value in '--tick-us=1'" run --strategy=trylock --clock=jiffies --tick-us=1
# the kernel shootdown drivers: real madvise shootdowns, counters in the CSV
for s in kernel-madvise kernel-mprotect kernel-move_pages; do
	check "list names $s" grep -q "^  $s " "$tmp/list"
done
kthreads=1,2
[ "$(nproc)" -ge 2 ] || kthreads=1
"$sb" run --family=shootdown --strategy=kernel-madvise --threads=$kthreads --batch=1,32 \
	--placement=compact --out="$tmp/k" "${fast[@]}" >"$tmp/k.out" 2>"$tmp/k.err"
check "kernel-madvise runs ($(tail -1 "$tmp/k.err"))" [ $? -eq 0 ]
nk=$(( $(tr ',' '\n' <<<"$kthreads" | wc -l) * 4 ))
for c in us_per_page pages_per_s calls_per_page tlb_irqs_per_page tlb_irqs_per_page_all \
	cal_irqs_per_page user_s sys_s elapsed_s; do
	check "kernel-madvise: $c in every row" awk -F, -v c="$(col "$tmp/k/results.csv" $c)" -v n=$nk \
		'NR > 1 { k++; if ($c == "" || $NF != "") { bad = 1; exit } } END { if (bad) exit 1; exit k == n ? 0 : 1 }' \
		"$tmp/k/results.csv"
done
# the preemption counters (in extra), as every team family's: docs/results.md
check "kernel-madvise: on_cpu_pct and its switches in every row" awk -v n=$nk \
	'NR > 1 && /on_cpu_pct=[0-9]/ && /ctx_switches=[0-9]/ && /ctx_involuntary=[0-9]/ { k++ }
	END { exit k == n ? 0 : 1 }' "$tmp/k/results.csv"
check "kernel-madvise names" grep -q '^shootdown/kernel-madvise/immediate/batch:32/threads:1/place:compact,shootdown,kernel-madvise,,1,compact,mode=immediate;batch=32,' "$tmp/k/results.csv"
check "kernel-madvise batched calls 1/32 per page" awk -F, -v c="$(col "$tmp/k/results.csv" calls_per_page)" \
	'$1 ~ /batched\/batch:32\// { f = 1; if ($c != 0.03125) { bad = 1; exit } } END { if (bad) exit 1; exit !f }' "$tmp/k/results.csv"
check "kernel-madvise immediate: one call per page" awk -F, -v c="$(col "$tmp/k/results.csv" calls_per_page)" \
	'$1 ~ /immediate/ { f = 1; if ($c != 1) { bad = 1; exit } } END { if (bad) exit 1; exit !f }' "$tmp/k/results.csv"
bash "$(dirname "$0")/../scripts/plot.sh" "$tmp/k" >/dev/null 2>&1
check "kernel shootdown plot" [ -s "$tmp/k/plots/shootdown-kernel.png" ]
check "kernel shootdown plot data: immediate and batched series" \
	[ "$(grep -c '^# \(1 thread, \)\?mode=\(immediate\|batched\)\( (.*)\)\?$' "$tmp/k/plots/shootdown-kernel.dat")" -eq 2 ]
"$sb" run --family=shootdown --threads=1 --benchmark_list_tests=true >"$tmp/kl" 2>"$tmp/kl.err"
check "--family=shootdown lists kernel-mprotect" grep -q '^shootdown/kernel-mprotect/batched/batch:512/threads:1/' "$tmp/kl"
if [ "$(ls -d /sys/devices/system/node/node* | wc -l)" -lt 2 ]; then
	check "move_pages skipped on one node" grep -q "^stratbench: kernel-move_pages: skipped: this machine has 1 NUMA node, needs 2$" "$tmp/kl.err"
	check "move_pages not registered" bash -c "! grep -q kernel-move_pages '$tmp/kl'"
	"$sb" run --strategy=kernel-move_pages --threads=1 --out="$tmp/mp" >"$tmp/mp.out" 2>"$tmp/mp.err"
	check "move_pages alone: exit 0" [ $? -eq 0 ]
	check "move_pages alone: one line" [ "$(wc -l <"$tmp/mp.err")" -eq 1 ]
	check "move_pages alone: no results written" [ ! -e "$tmp/mp/results.csv" ]
fi
for b in 0 513 x "" 1,,2 1, -1 99999999999999999999999; do
	expect2 "bad --batch='$b'" "bad value in '--batch=$b'" run --family=shootdown --batch="$b"
done
expect2 "--batch without value" "bad value in '--batch'" run --family=shootdown --batch

# shootdown: the simulated machine with the checker; --batch makes variants
sd=$tmp/sd
"$sb" run --family=shootdown --strategy=immediate,batched,targeted --threads=2 \
	--placement=compact --batch=1,8 --pages=64 --check \
	--out="$sd" "${fast[@]}" >/dev/null 2>"$tmp/sd.err"
check "shootdown run exits 0 ($(tail -1 "$tmp/sd.err"))" [ $? -eq 0 ]
for st in immediate batched targeted; do
	for b in 1 8; do
		n=shootdown/$st/batch:$b/threads:2/place:compact/pages:64/check:on
		check "csv has $n" grep -q "^$n," "$sd/results.csv"
	done
done
cv=$(col "$sd/results.csv" violations) cf=$(col "$sd/results.csv" flushes_per_page)
cn=$(col "$sd/results.csv" ns_per_page)
check "shootdown: 6 rows, measured, no violation" awk -F, -v cv="$cv" -v cn="$cn" \
	'NR > 1 { k++; if ($cv != "0" || !($cn > 0) || $NF != "") { bad = 1; exit } } END { if (bad) exit 1; exit k == 6 ? 0 : 1 }' \
	"$sd/results.csv"
check "shootdown: immediate flushes at most once per page, batched once per batch" \
	awk -F, -v cf="$cf" '$3 == "immediate" && $cf > 1 { bad = 1; exit }
	$3 == "batched" && $7 ~ /batch=8/ && $cf > 0.125 { bad = 1; exit } NR > 1 { k++ } END { if (bad) exit 1; exit !k }' \
	"$sd/results.csv"
bash "$(dirname "$0")/../scripts/plot.sh" "$sd" >/dev/null 2>&1
for f in cost flushes slowdown; do
	check "shootdown-$f plot" [ -s "$sd/plots/shootdown-$f.png" ]
done
"$sb" run --family=shootdown --threads=2 --placement=compact --batch=4,1,4 --initiator=shared \
	--ipi=signal --benchmark_list_tests=true >"$tmp/sdl" 2>&1
check "batch list: 2 variants per strategy, options in the name" [ "$(grep -c \
	'^shootdown/[a-z]*/batch:[14]/threads:2/place:compact/ipi:signal/initiator:shared/manual_time' \
	"$tmp/sdl")" -eq 6 ]
expect2 "trailing comma" "bad value" run --family=shootdown --batch=1,
expect2 "check takes no value" "is a flag and takes no value" run --family=shootdown --check=1

# the wrapper's self-benchmark runs and names its loops
"$sb" selftest "${fast[@]}" >"$tmp/self" 2>&1
check "selftest exits 0" [ $? -eq 0 ]
check "selftest native and batched" grep -q "harness/loop/c_batch:64" "$tmp/self"

# help: every command answers help, --help and -h alike, with its usage
cmds=$("$sb" help | awk '/^Commands:/ { f = 1; next } f && /^  [a-z]/ { print $1 } f && /^$/ { exit }')
check "help lists run, plot, help" bash -c "echo '$cmds' | grep -qx run && echo '$cmds' | grep -qx plot && echo '$cmds' | grep -qx help"
for c in $cmds; do
	"$sb" "$c" --help >"$tmp/h1" 2>&1; r1=$?
	"$sb" "$c" -h >"$tmp/h2" 2>&1; r2=$?
	"$sb" help "$c" >"$tmp/h3" 2>&1; r3=$?
	check "$c --help/-h/help exit 0" [ "$r1$r2$r3" = 000 ]
	check "$c help starts with its usage" grep -q "^usage: stratbench $c" "$tmp/h1"
	check "$c --help = -h = help $c" bash -c "cmp -s '$tmp/h1' '$tmp/h2' && cmp -s '$tmp/h1' '$tmp/h3'"
	check "$c help has an example" grep -q "^Example:" "$tmp/h1"
done
"$sb" run --threads=4 --placement=compact --exact --help >"$tmp/hl" 2>&1
check "help shows the threads default, not the parsed value" grep -q 'to #PUs (default: auto)' "$tmp/hl"
check "help shows the --exact default, not the parsed value" grep -q 'racy += (default: off)' "$tmp/hl"
"$sb" --help >"$tmp/hg" 2>&1
check "--help exits 0" [ $? -eq 0 ]
check "--help lists commands" grep -q "^  run " "$tmp/hg"
check "--version" grep -Eq '^stratbench [0-9]+\.[0-9]+\.[0-9]+ \(git .+\)$' <("$sb" --version)
"$sb" >"$tmp/nocmd.out" 2>"$tmp/nocmd.err"
check "no command: exit 2" [ $? -eq 2 ]
# a usage error like any other: one line naming it, and where help is
check "no command: one line on stderr ($(wc -l <"$tmp/nocmd.err"))" [ "$(wc -l <"$tmp/nocmd.err")" -eq 1 ]
check "no command: says so and points to stratbench help" \
	grep -q "^stratbench: no command (want list, .*; see stratbench help)$" "$tmp/nocmd.err"
check "no command: nothing on stdout" [ ! -s "$tmp/nocmd.out" ]
# every option run --help documents is accepted by run's parser (a bad
# placeholder value may be refused, never the name)
"$sb" run --help | grep -oE '^ +--[A-Za-z0-9_-]+=?' | tr -d ' ' >"$tmp/opts"
check "run --help lists options" [ "$(wc -l <"$tmp/opts")" -ge 20 ]
while read -r o; do
	arg=$o
	[[ $o == *= ]] && arg=$o$tmp/optval	# a bad value for most: only the name counts
	(cd "$tmp" && "$sb" run "$arg" --strategy=null --threads=1 --placement=compact \
		--benchmark_list_tests=true >/dev/null 2>"$tmp/oerr")
	check "run accepts documented $o ($(cat "$tmp/oerr"))" bash -c "! grep -q 'unknown option' '$tmp/oerr'"
done <"$tmp/opts"

# bad input: one line, exit 2
expect2 "plot --compare takes two" "needs two results" plot --compare a
expect2 "plot --compare takes only two" "needs two results" plot --compare a b c
HWLOC_XMLFILE=/nonexistent expect2 "leaked HWLOC_XMLFILE" "HWLOC_XMLFILE is set" run --strategy=null
# existing results are never overwritten
sum=$(cat "$out/gbench.json" "$out/results.csv" | md5sum)
expect2 "existing results" "already holds results" run --strategy=null --out="$out" "${fast[@]}"
check "earlier results untouched" [ "$sum" = "$(cat "$out/gbench.json" "$out/results.csv" | md5sum)" ]
if [ "$(id -u)" -ne 0 ]; then
	mkdir "$tmp/ro" && chmod a-w "$tmp/ro"
	expect2 "unwritable out" "cannot write" run --strategy=null --out="$tmp/ro"
fi
# Google Benchmark's own flags are checked before it sees them
# numbers: finite and in range
# list:CPUS keeps its commas; repeats register once
"$sb" run --strategy=null --placement=list:0,compact,compact --threads=1,1 \
	--benchmark_list_tests=true >"$tmp/lt" 2>&1
check "list:0,compact parsed" grep -q "^window/null/threads:1/place:list:0/manual_time" "$tmp/lt"
check "repeats dropped" [ "$(grep -c '^window/null' "$tmp/lt")" -eq 2 ]
if [ "$(nproc)" -ge 2 ]; then
	"$sb" run --strategy=null --placement=list:0,1 --threads=2 --benchmark_list_tests=true >"$tmp/lt2" 2>&1
	check "list:0,1 is one placement" grep -q "place:list:0+1/manual_time" "$tmp/lt2"
fi
# a run that matches nothing leaves the directory reusable; list_tests writes nothing
expect2 "no match with --out" "matches none of the" run --strategy=null --out="$tmp/nm" --benchmark_filter=zzz
check "no directory left" [ ! -e "$tmp/nm" ]
"$sb" run --strategy=null --out="$tmp/nm" --benchmark_list_tests=true >/dev/null 2>&1
check "list_tests writes no results" [ -z "$(ls -A "$tmp/nm" 2>/dev/null)" ]
# every repetition reaches the CSV even when the display shows aggregates only
"$sb" run --strategy=null --threads=1 --placement=compact --out="$tmp/agg" "${fast[@]}" \
	--benchmark_repetitions=2 --benchmark_display_aggregates_only=true >/dev/null 2>&1
check "repetition rows in CSV" [ "$(awk -F, '$8 == "" && NR > 1' "$tmp/agg/results.csv" | wc -l)" -eq 2 ]
check "median row in CSV" grep -q ",median," "$tmp/agg/results.csv"
check "no .partial after a run" [ ! -e "$tmp/agg/results.csv.partial" ]
# aggregates only: plot.sh draws the medians
"$sb" run --strategy=null --threads=1 --placement=compact --out="$tmp/ao" "${fast[@]}" \
	--benchmark_repetitions=2 --benchmark_report_aggregates_only=true >/dev/null 2>&1
bash "$(dirname "$0")/../scripts/plot.sh" "$tmp/ao" >/dev/null 2>&1
check "plot from aggregate rows only" [ -s "$tmp/ao/plots/window-throughput-compact.png" ]
# a bool flag is true or false (GB would read any other word as true)
"$sb" run --strategy=null --threads=1 --placement=compact --out="$tmp/lt0" "${fast[@]}" \
	--benchmark_list_tests=false --benchmark_counters_tabular=true >/dev/null 2>&1
check "list_tests=false runs and writes" [ -s "$tmp/lt0/results.csv" ]
expect2 "list_tests=0 is refused" "want true or false" run --strategy=null --benchmark_list_tests=0
# a console-format file gets no colour codes; threads 1 and 2 are two
# stages (run/limits.h), one file: both points, one context / CSV header
"$sb" run --strategy=null --threads=1,2 --placement=compact "${fast[@]}" \
	--benchmark_out="$tmp/c.txt" --benchmark_out_format=console >/dev/null 2>&1
check "console file written" grep -q "window/null/threads:1" "$tmp/c.txt"
check "console file: the second stage too" grep -q "window/null/threads:2" "$tmp/c.txt"
check "console file has no escape codes" bash -c "! grep -q \$'\\e' '$tmp/c.txt'"
"$sb" run --strategy=null --threads=1,2 --placement=compact "${fast[@]}" \
	--benchmark_out="$tmp/c.json" >/dev/null 2>&1
"$sb" compare "$tmp/c.json" "$tmp/c.json" --format=csv >"$tmp/c.cmp" 2>&1
check "json file: one document (compare reads it), both stages" \
	[ "$(grep -c '^window/null/threads:[12]/' "$tmp/c.cmp")" -eq 2 ] && \
	[ "$(grep -c '"context":' "$tmp/c.json")" -eq 1 ]
# a filter that leaves the first stage empty: the context comes with the second
"$sb" run --strategy=null --threads=1,2 --placement=compact "${fast[@]}" \
	--benchmark_filter=threads:2 --benchmark_out="$tmp/c2.json" >/dev/null 2>&1
"$sb" compare "$tmp/c2.json" "$tmp/c2.json" --format=csv >"$tmp/c2.cmp" 2>&1
check "json file of the second stage alone: one document" \
	[ "$(grep -c '^window/null/threads:2/' "$tmp/c2.cmp")" -eq 1 ] && \
	[ "$(grep -c '"context":' "$tmp/c2.json")" -eq 1 ]
# GB stopping on a malformed context pair leaves one line and no files
"$sb" run --strategy=null --out="$tmp/ctx" --benchmark_context=foo >/dev/null 2>"$tmp/ctx.err"
check "bad context: no leftovers" [ -z "$(ls -A "$tmp/ctx" 2>/dev/null)" ]
check "bad context: no unlink noise" bash -c "! grep -q 'cannot remove' '$tmp/ctx.err'"

# calibrate --pairs=all: the latency matrix (every pair: positive, finite, no
# diagonal), uncontended costs, the flush round trip; then limits in a run
npus=$(nproc)
"$sb" calibrate --pairs=all --out="$tmp/cal" "${fast[@]}" >"$tmp/cal.out" 2>"$tmp/cal.err"
check "calibrate exits 0 ($(tail -1 "$tmp/cal.err"))" [ $? -eq 0 ]
cal=$tmp/cal/results.csv ow=$(col "$cal" one_way_ns) npo=$(col "$cal" ns_per_op) upc=$(col "$cal" us_per_call)
check "c2c rows: every pair, both ops, off the diagonal, positive and finite" awk -F, -v c="$ow" -v n="$npus" '
	$3 == "c2c" { k++; split($6, p, "[:+]"); if (p[2] == p[3] || !($c > 0) || $c ~ /nan|inf/) { bad = 1; exit } }
	END { if (bad) exit 1; exit k == n * (n - 1) ? 0 : 1 }' "$cal"
check "uncontended: 7 ops with a cost" awk -F, -v c="$npo" '$3 == "uncontended" { k++; if (!($c > 0)) { bad = 1; exit } }
	END { if (bad) exit 1; exit k == 7 ? 0 : 1 }' "$cal"
check "flush: us_per_call alone, with a remote toucher, simulated poll and signal" awk -F, -v c="$upc" '
	$3 == "flush" { k++; if (!($c > 0)) bad = 1; if ($1 ~ /transport:(poll|signal)\/threads:2\//) t++ }
	END { exit !bad && k == 4 && t == 2 ? 0 : 1 }' "$cal"
check "calibrate runs nothing else" awk -F, 'NR > 1 && $2 != "calibrate" { exit 1 }' "$cal"
bash "$(dirname "$0")/../scripts/plot.sh" "$tmp/cal" >/dev/null 2>&1
check "latency matrix drawn" [ -s "$tmp/cal/plots/latency-matrix-store.png" ] && [ -s "$tmp/cal/plots/latency-matrix-cas.svg" ]
"$sb" run --family=lock --strategy=ticket --threads=1,2 --placement=compact --limits \
	--out="$tmp/lim" "${fast[@]}" >/dev/null 2>&1
lim=$tmp/lim/results.csv lo=$(col "$lim" limit_ops) ol=$(col "$lim" of_limit)
check "--limits: calibration first, then the locks with limit_ops and of_limit" awk -F, -v lo="$lo" -v ol="$ol" '
	NR == 1 { next } $2 == "calibrate" { if (seen) exit 1; next }
	$2 == "lock" { seen++; if (!($lo > 0) || !($ol > 0)) { bad = 1; exit } } END { if (bad) exit 1; exit seen == 2 ? 0 : 1 }' "$lim"
"$sb" run --family=lock --strategy=ticket --threads=2 --placement=compact --out="$tmp/nolim" \
	"${fast[@]}" >/dev/null 2>&1
check "no calibration: no limit_ops, a label saying so" awk -F, -v lo="$lo" '
	$2 == "lock" { k++; if ($lo != "" || $0 !~ /limit: unavailable/) { bad = 1; exit } } END { if (bad) exit 1; exit k == 1 ? 0 : 1 }' "$tmp/nolim/results.csv"
"$sb" run --strategy=null --threads=1,2 --placement=compact --limits --out="$tmp/wlim" \
	"${fast[@]}" >/dev/null 2>&1
check "window/null: 2 threads against twice its 1-thread rate; 1 thread says why not" awk -F, -v ol="$ol" '
	$1 ~ /^window.null.threads:2/ && $ol > 0 { a = 1 }
	$1 ~ /^window.null.threads:1/ && $ol == "" && /limit: none at 1 thread/ { b = 1 } END { exit !(a && b) }' "$tmp/wlim/results.csv"
# shootdown flush cost against the calibrated round trips: the simulated
# point against transport:poll, the kernel's against toucher:remote
"$sb" run --limits --family=shootdown --strategy=immediate,kernel-madvise --batch=32 --pages=64 \
	--threads=2 --placement=compact --out="$tmp/sdlim" "${fast[@]}" >/dev/null 2>"$tmp/sdlim.err"
check "shootdown --limits exits 0 ($(tail -1 "$tmp/sdlim.err"))" [ $? -eq 0 ]
sl=$tmp/sdlim/results.csv
check "shootdown --limits: of_flush_rtt = ns per request / the transport's round trip" awk -F, \
	-v rt="$(col "$sl" flush_rtt_ns)" -v of="$(col "$sl" of_flush_rtt)" -v u="$(col "$sl" us_per_call)" \
	-v np="$(col "$sl" ns_per_page)" -v ap="$(col "$sl" acks_per_page)" \
	-v up="$(col "$sl" us_per_page)" -v cp="$(col "$sl" calls_per_page)" '
	function off(a, b) { return a - b > 1e-4 * b || b - a > 1e-4 * b }
	$1 ~ /^calibrate.flush.transport:poll/ { poll = $u * 1000 }
	$1 ~ /^calibrate.flush.toucher:remote/ { remote = $u * 1000 }
	$1 ~ /^shootdown.immediate.batch:32.threads:2/ { a = 1
		if (!(poll > 0) || off($rt, poll) || off($of, $np / $ap / poll)) bad = 1 }
	$1 ~ /^shootdown.kernel-madvise.immediate.batch:32.threads:2/ { b = 1
		if (!(remote > 0) || off($rt, remote) || off($of, $up * 1000 / $cp / remote)) bad = 1 }
	END { exit bad || !(a && b) }' "$sl"
for f in "$sd/results.csv" "$tmp/k/results.csv"; do
	check "no --limits: no of_flush_rtt, the label says why ($f)" awk -F, -v of="$(col "$f" of_flush_rtt)" '
		$2 == "shootdown" { k++; if ((of && $of != "") || $0 !~ /of_flush_rtt: unavailable \(no calibrate.flush.(transport:poll|toucher:remote) in this run/) bad = 1 }
		END { exit bad || !k }' "$f"
done
bash "$(dirname "$0")/../scripts/plot.sh" "$tmp/lim" >/dev/null 2>&1
check "of_limit plot" [ -s "$tmp/lim/plots/lock-of-limit.png" ]
# progress: on a terminal's stderr only (script(1) gives the run a pty)
if command -v script >/dev/null; then
	script -qfec "$sb run --strategy=null --threads=1,2 --placement=compact --benchmark_min_time=0.01" \
		/dev/null >"$tmp/tty" 2>&1
	check "progress on a terminal" grep -q "\[1/2\] window/null/threads:1/place:compact …" "$tmp/tty"
	check "progress counts on" grep -q "\[2/2\] window/null/threads:2/place:compact … ETA" "$tmp/tty"
	# the progress line is erased before a table row: no row shares its line
	tr '\r' '\n' <"$tmp/tty" >"$tmp/tty_lines"
	check "table rows on a terminal" grep -qaE $'^(\033\\[K)?null +2 +compact' "$tmp/tty_lines"
	check "no row garbled by the progress line" bash -c "! grep -a '…' '$tmp/tty_lines' | grep -q ' compact  '"
	script -qfec "$sb run --strategy=null --threads=1 --placement=compact --benchmark_min_time=0.01 --quiet" \
		/dev/null >"$tmp/ttyq" 2>&1
	check "--quiet: no progress" bash -c "! grep -q '\[1/1\]' '$tmp/ttyq'"
	check "--quiet still runs" grep -qa "^null  *1  *compact" "$tmp/ttyq"
else
	bad "script(1) (bsdutils) missing: progress on a terminal not tested"
fi
"$sb" run --strategy=null --threads=1 --placement=compact "${fast[@]}" >/dev/null 2>"$tmp/notty"
check "no progress when stderr is not a terminal" bash -c "! grep -q '\[1/1\]' '$tmp/notty'"
expect2 "empty label" "bad value" run --strategy=null --label=
# a calibration strategy alone: point to its family
expect2 "c2c without its family" "add --family=calibrate" run --strategy=c2c
expect2 "uncontended,null without its family" "strategy 'uncontended' is a calibration" \
	run --strategy=null,uncontended
"$sb" run --strategy=c2c --family=calibrate --benchmark_list_tests=true >"$tmp/c2c_list" 2>&1
check "c2c with --family=calibrate is listed" grep -q "^calibrate/c2c/" "$tmp/c2c_list"
# One family chosen: an option only other families' drivers take is a
# usage error naming it and the family, wherever it stands on the line;
# every family has one here.  The negatives: the same options without
# --family (every family) pass, and so do each family's own.
foreign() {	# FAMILY OWNER OPTION ARGS...
	local fam=$1 owner=$2 opt=$3; shift 3
	expect2 "$opt with --family=$fam" "^stratbench: $opt is a $owner option; --family=$fam does not take it\$" \
		run "$@" --family="$fam" --dry-run --threads=1
}
foreign lock window --lock --lock=ticket,mcs
foreign window lock --trylock --strategy=spinlock --trylock
foreign calibrate shootdown --batch --batch=32
foreign shootdown calibrate --pairs --pairs=all
foreign baseline window --mode --mode=both
expect2 "foreign option before --family" "--crit is a lock option; --family=shootdown does" \
	run --crit=5 --family=shootdown --dry-run --threads=1
dry() { "$sb" run "$@" --dry-run --threads=1 >/dev/null 2>&1; }
check "family options without --family pass" \
	dry --lock=ticket,mcs --trylock --crit=5 --batch=32 --pairs=all --mode=both
check "the window family's own options" dry --family=window --lock=ticket --mode=both --clock=jiffies
check "the lock family's own options" dry --family=lock --crit=5 --trylock --crit-lines=1
check "shootdown's two drivers' options (--batch shared)" \
	dry --family=shootdown --batch=1,32 --pages=64 --check
check "the calibrate family's own options" dry --family=calibrate --pairs=sample
check "the options every family shares" dry --family=baseline --limits --counters=none --cv-threshold=9
check "a suite narrowed to a family drops its window model" dry --suite=quick --family=lock
# Google Benchmark 1.8's suffixes: say what 1.7.1 wants
expect2 "min_time 0.05s" "wants a plain number of seconds, e.g. --benchmark_min_time=0.05 " \
	run --strategy=null --benchmark_min_time=0.05s
expect2 "min_time 10x" "iteration count ('x') is Google Benchmark 1.8's syntax" \
	run --strategy=null --benchmark_min_time=10x
expect2 "min_time abc" "bad value in '--benchmark_min_time=abc'\$" run --strategy=null --benchmark_min_time=abc
"$sb" run --strategy=null --threads=all --placement=compact --benchmark_list_tests=true >"$tmp/all_t" 2>&1
if [ "$(nproc)" -eq 2 ]; then
	"$sb" run --strategy=null --placement=compact --benchmark_list_tests=true >"$tmp/auto_t" 2>&1
	check "--threads=auto here: 1,2" [ "$(grep -c '^window/null/threads:[12]/' "$tmp/auto_t")" -eq 2 ]
fi
check "--threads=all: every count" [ "$(grep -c '^window/null/threads:' "$tmp/all_t")" -eq "$(nproc)" ]
"$sb" run --strategy=null --placement=compact "${fast[@]}" --out="$tmp/lab" --label=prev >/dev/null 2>&1
check "label in the JSON context" grep -q '"sb_label": "prev"' "$tmp/lab/gbench.json"
for k in sb_host sb_loadavg sb_busy_cpus sb_cv_threshold sb_label; do
	check "context has $k" grep -q "\"$k\"" "$tmp/lab/gbench.json"
done
check "run.json records the command line" grep -q '"--label=prev"' "$tmp/lab/run.json"
check "CSV has cv_pct and noisy" grep -q ',cv_pct,noisy,extra,label,error$' "$tmp/lab/results.csv"
"$sb" run --strategy=null --threads=1 --placement=compact "${fast[@]}" --benchmark_repetitions=3 \
	--cv-threshold=0 --out="$tmp/cv" >"$tmp/cv.out" 2>/dev/null
check "CV above the threshold flagged in the console's row" grep -q "^null .* noisy$" "$tmp/cv.out"
"$sb" run --strategy=null --threads=1 --placement=compact "${fast[@]}" --benchmark_repetitions=3 \
	--cv-threshold=0 --console=gbench >"$tmp/cvg.out" 2>/dev/null
check "... and after Google Benchmark's rows with --console=gbench" \
	grep -q "^^ noisy: window/null/threads:1/place:compact: CV .* > 0 %" "$tmp/cvg.out"
check "... and in the CSV, every row of it" \
	[ "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "noisy") x = i; next } x && $x == 1' "$tmp/cv/results.csv" | wc -l)" -eq 7 ]
"$sb" run --strategy=null --threads=1 --placement=compact "${fast[@]}" --benchmark_repetitions=3 \
	--cv-threshold=1000 --out="$tmp/cv2" >"$tmp/cv2.out" 2>/dev/null
check "CV below the threshold: not flagged" bash -c "! grep -q ' noisy$' '$tmp/cv2.out'"
check "... noisy=0 in the CSV" [ "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "noisy") x = i; next } x && $x == "0"' "$tmp/cv2/results.csv" | wc -l)" -eq 7 ]

# plot.sh draws the run; rejects a malformed results file
bash "$(dirname "$0")/../scripts/plot.sh" "$out" >"$tmp/plot.out" 2>&1
rc=$?
check "plot.sh exits 0 (rc=$rc: $(tail -1 "$tmp/plot.out"))" [ "$rc" -eq 0 ]
check "window PNG" [ -s "$out/plots/window-throughput-compact.png" ]
check "window SVG" [ -s "$out/plots/window-throughput-compact.svg" ]
check "no shootdown plot without shootdown rows" [ ! -e "$out/plots/shootdown-cost.png" ]
mkdir "$tmp/m" && echo "garbage,here" >"$tmp/m/gbench.json"
bash "$(dirname "$0")/../scripts/plot.sh" "$tmp/m" >/dev/null 2>"$tmp/plot.err"
check "plot.sh rejects a malformed gbench.json" [ $? -eq 2 ]
check "plot.sh names the problem" grep -q "m/gbench.json: not valid JSON" "$tmp/plot.err"

echo "test_cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
