# driver.sh — sourced by the lab tests of the kernel-path drivers
# (tests/lab/4N-driver-*.sh): check_driver NAME runs every benchmark whose
# name contains NAME on all CPUs, scattered over the packages, and checks it
# ran (exit 0, rows, no error), was not skipped (the lab has two nodes), and
# counted real IPIs (a counter named *ipi*, *tlb* or *shootdown* above 0 in
# every row; where /proc/interrupts has no TLB row, as on POWER, that every
# row says its TLB IRQs are unavailable instead).  A driver that is not there
# yet is a skip that says so.

check_driver() {
	local name=$1 npu out
	npu=$(online_cpus | wc -l)
	"$sb" run --benchmark_list_tests=true --benchmark_filter="$name" >"$tmp/list" 2>&1 ||
		skip "stratbench has no $name benchmark yet (the kernel-$name driver is not in this build)"
	grep -q "$name" "$tmp/list" ||
		skip "stratbench has no $name benchmark yet (the kernel-$name driver is not in this build)"
	out=$tmp/drv
	"$sb" run --benchmark_filter="$name" --threads="$npu" --placement=scatter --out="$out" \
		--batch=1,32 --benchmark_min_time=0.05 >"$tmp/drv.out" 2>&1
	local rc=$?
	tail -5 "$tmp/drv.out"
	check "$name: run on $npu CPUs (scatter) exits 0 (got $rc)" [ "$rc" -eq 0 ]
	check "$name: rows in results.csv" grep -q "$name" "$out/results.csv"
	# columns by header name; label and error are the last two
	check "$name: no row failed or was skipped" awk -F, '
		NR == 1 { for (i = 1; i <= NF; i++) if ($i == "label") lab = i; next }
		$NF != "" || tolower($lab) ~ /skip/ { bad = 1 } END { exit bad }' "$out/results.csv"
	# POWER (tlbie) and arm64 (TLBI) broadcast remote invalidations: no TLB
	# row, no IPI to count; the row must say so, never count 0
	if ! grep -q '^ *TLB:' /proc/interrupts; then
		check "$name: no TLB row here: every row says tlb_irqs unavailable" awk -F, '
			NR == 1 { for (i = 1; i <= NF; i++) if ($i == "label") lab = i; next }
			{ rows++; if (index($lab, "tlb_irqs: unavailable (no TLB row in /proc/interrupts") == 0) bad = 1 }
			END { exit bad || rows == 0 }' "$out/results.csv"
		check "$name: and tlb_irqs_per_page empty, never 0" awk -F, '
			NR == 1 { for (i = 1; i <= NF; i++) if ($i == "tlb_irqs_per_page") c = i; next }
			!c || $c != "" { bad = 1 } END { exit bad }' "$out/results.csv"
		# what POWER radix does count: the kernel's tlbie/tlbiel trace event
		# (global and local together: the initiator's own flush is in it)
		"$sb" counters --counters=powerpc:tlbie 2>/dev/null | grep -q '^powerpc:tlbie  *available' || return 0
		"$sb" run --benchmark_filter="$name" --threads="$npu" --placement=scatter \
			--out="$tmp/tlbie" --batch=1,32 --benchmark_min_time=0.05 \
			--counters=powerpc:tlbie >"$tmp/tlbie.out" 2>&1
		awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "extra") ex = i; next }
			{ n = split($ex, kv, ";"); v = "-"
			  for (j = 1; j <= n; j++) if (kv[j] ~ /^cnt:powerpc:tlbie\/op=/) v = substr(kv[j], 22)
			  printf "  %s: powerpc:tlbie per page %s\n", $1, v }' "$tmp/tlbie/results.csv"
		check "$name: powerpc:tlbie counted (> 0 per page) in every row" awk -F, '
			NR == 1 { for (i = 1; i <= NF; i++) if ($i == "extra") ex = i; next }
			{ rows++; hit = 0; n = split($ex, kv, ";")
			  for (j = 1; j <= n; j++) if (kv[j] ~ /^cnt:powerpc:tlbie\/op=/ && substr(kv[j], 22) + 0 > 0) hit = 1
			  if (!hit) bad = 1 }
			END { exit bad || rows == 0 }' "$tmp/tlbie/results.csv"
		return
	fi
	check "$name: every row counted IPIs (a counter *ipi*/*tlb*/*shootdown* > 0)" awk -F, '
		NR == 1 { for (i = 1; i <= NF; i++) { if (tolower($i) ~ /ipi|tlb|shootdown/) c[i] = 1; if ($i == "extra") ex = i } next }
		{ hit = 0
		  for (i in c) if ($i + 0 > 0) hit = 1
		  n = split($ex, kv, ";")
		  for (j = 1; j <= n; j++) { split(kv[j], p, "="); if (tolower(p[1]) ~ /ipi|tlb|shootdown/ && p[2] + 0 > 0) hit = 1 }
		  if (!hit) bad = 1; rows++ }
		END { exit bad || rows == 0 }' "$out/results.csv"
}
