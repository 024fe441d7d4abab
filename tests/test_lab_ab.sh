#!/usr/bin/env bash
# test_lab_ab.sh STRATBENCH — scripts/lab-ab.sh's check of a kernel A/B (the
# lab's two guests are CI's, .ci/run), on recorded results: it passes a pair
# where batched move_pages at batch 512 falls to <= 0.1 of the TLB IPIs per
# page and per-page calls stay within 25 %, and fails each broken fixture
# (no fall, a per-page change, no batch:512 row); compare's header names
# both kernels; bad usage is exit 2.
set -u
sb=$1
here=$(cd "$(dirname "$0")" && pwd)
ab="$here/../scripts/lab-ab.sh"
tmp=$(mktemp -d /tmp/sb_labab.XXXXXX)
[ -n "${KEEP:-}" ] || trap "rm -rf $tmp" EXIT
. "$here/testlib.sh"
export SB_STRATBENCH=$sb

# fixture NAME KERNEL IMM BAT [BATCH]: a Google Benchmark JSON with the two
# move_pages rows at BATCH (default 512) and their tlb_irqs_per_page
fixture() {
	local b=${5:-512}
	cat >"$tmp/$1.json" <<JSON
{"context": {"date": "2026-12-02", "sb_kernel": "$2", "library_build_type": "release"},
 "benchmarks": [
  {"name": "shootdown/kernel-move_pages/immediate/batch:$b/threads:4/place:scatter/manual_time",
   "run_name": "shootdown/kernel-move_pages/immediate/batch:$b/threads:4/place:scatter/manual_time",
   "run_type": "iteration", "repetitions": 1, "repetition_index": 0, "threads": 1,
   "iterations": 1, "real_time": 1000, "cpu_time": 1000, "time_unit": "ns", "tlb_irqs_per_page": $3},
  {"name": "shootdown/kernel-move_pages/batched/batch:$b/threads:4/place:scatter/manual_time",
   "run_name": "shootdown/kernel-move_pages/batched/batch:$b/threads:4/place:scatter/manual_time",
   "run_type": "iteration", "repetitions": 1, "repetition_index": 0, "threads": 1,
   "iterations": 1, "real_time": 1000, "cpu_time": 1000, "time_unit": "ns", "tlb_irqs_per_page": $4}
 ]}
JSON
}
run_check() { bash "$ab" --check-only "$tmp/$1.json" "$tmp/$2.json" >"$tmp/out" 2>&1; rc=$?; }

fixture k61 6.1.0-57-amd64 3.0 3.0
fixture k612 6.12.95+deb12-amd64 3.1 0.006
run_check k61 k612
check "a 6.3-style fall passes (rc $rc)" [ "$rc" -eq 0 ]
check "it says both rows ok" [ "$(grep -c ': ok$' "$tmp/out")" -eq 2 ]
# broken fixtures
fixture same 6.1.0-57-amd64 3.0 2.9
run_check k61 same
check "no fall in batched IPIs fails (rc $rc)" [ "$rc" -eq 1 ]
check "  and names the batched row" grep -q "batched, batch 512: .*FAILED" "$tmp/out"
fixture perpage 6.12.95+deb12-amd64 6.0 0.006
run_check k61 perpage
check "a per-page change beyond 25 % fails (rc $rc)" [ "$rc" -eq 1 ]
check "  and names the immediate row" grep -q "immediate (per page), batch 512: .*FAILED" "$tmp/out"
fixture b32 6.12.95+deb12-amd64 3.1 0.006 32
fixture b32old 6.1.0-57-amd64 3.0 3.0 32
run_check b32old b32
check "no batch:512 rows fails (rc $rc)" [ "$rc" -eq 1 ]
check "  and says so" grep -q "no move_pages batched batch:512 result" "$tmp/out"
# compare's header names the kernels
"$sb" compare "$tmp/k61.json" "$tmp/k612.json" --metric=tlb_irqs_per_page >"$tmp/cmp" 2>&1
check "compare's header names both kernels" grep -qx "kernel: 6.1.0-57-amd64 vs 6.12.95+deb12-amd64" "$tmp/cmp"
# usage
bash "$ab" --bogus >"$tmp/o" 2>"$tmp/e"; rc=$?
check "unknown option: exit 2, one line" [ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/e")" -eq 1 ]
bash "$ab" --before=/nonexistent/bzImage >"$tmp/o" 2>"$tmp/e"; rc=$?
check "a missing kernel image: exit 2, one line naming it" [ "$rc" -eq 2 ] && grep -q "/nonexistent/bzImage" "$tmp/e"
finish test_lab_ab
