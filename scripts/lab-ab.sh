#!/usr/bin/env bash
# lab-ab.sh — a kernel A/B in the lab: the same stratbench run in a lab guest
# booted with each of two kernels, both result directories brought back, and
# `stratbench compare`'s changelog table of the two (Prev = BEFORE) with the
# counter tables.  docs/lab-ab.md says what it can and cannot show.
#   scripts/lab-ab.sh --before=K1 --after=K2 [--out=DIR] [--check] [--timeout=SEC]
#                     [--qemu=Q] [--metric=NAME] [-- stratbench run options]
#   --before, --after  bookworm (6.1), backports (6.12) or a kernel image
#                   (scripts/lab.sh --kernel); default bookworm and backports
#   --out=DIR       the two result directories, DIR/before and DIR/after
#                   (default build-lab/ab)
#   --check         also assert Huang Ying's v6.3 result (docs/lab-ab.md):
#                   batched move_pages at batch 512 sends <= 0.1 of BEFORE's
#                   TLB IPIs per page, per-page calls within 25 %; exit 1 if not
#   --check-only BEFORE_DIR AFTER_DIR   the same check on two existing results
#   --metric=NAME   compare's metric (default tlb_irqs_per_page: under TCG
#                   counts mean something, time does not)
#   --timeout, --qemu  passed to lab.sh (per guest; default 1200 s, bookworm)
#   stratbench run options  default: the kernel drivers move_pages, madvise
#                   and mprotect, immediate and batched, batches 1, 32 and
#                   512, 3 responders (4 threads, scattered over both packages)
# Exit status: 0; 1 when a guest fails or --check finds the result wrong;
# 2 for bad usage.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

before=bookworm after=backports out=$SB_ROOT/build-lab/ab check=0 timeout=1200 qemu=bookworm
metric=tlb_irqs_per_page only=() run=()
while [ $# -gt 0 ]; do
	case $1 in
	--before=*) before=${1#*=} ;;
	--after=*) after=${1#*=} ;;
	--out=*) out=${1#*=} ;;
	--check) check=1 ;;
	--check-only) [ $# -ge 3 ] || SB_DIE_RC=2 sb_die "--check-only needs BEFORE_DIR AFTER_DIR"
		only=("$2" "$3"); shift 2 ;;
	--timeout=*) timeout=${1#*=} ;;
	--qemu=*) qemu=${1#*=} ;;
	--metric=*) metric=${1#*=} ;;
	--) shift; run=("$@"); break ;;
	-h|--help) sed -n '2,23p' "$0"; exit 0 ;;
	*) SB_DIE_RC=2 sb_die "unknown option '$1' (see --help)" ;;
	esac
	shift
done
[ ${#run[@]} -gt 0 ] || run=(--family=shootdown --strategy=kernel-move_pages,kernel-madvise,kernel-mprotect
	--batch=1,32,512 --threads=4 --placement=scatter --benchmark_min_time=0.01)

# the built stratbench on this side (compare): lab.sh builds build-lab;
# SB_STRATBENCH overrides (tests/test_lab_ab.sh)
sb() { "${SB_STRATBENCH:-$SB_ROOT/build-lab/stratbench}" "$@"; }

# check_ab BEFORE_DIR AFTER_DIR: the v6.3 result, from compare's CSV rows
check_ab() {
	local csv rc=0
	csv=$(sb compare "$1" "$2" --metric=tlb_irqs_per_page --format=csv) ||
		{ echo "lab-ab: check: compare failed" >&2; return 1; }
	# name,group,threads,old,new,change_pct,...: batch 512, move_pages
	awk -F, '
		$1 ~ /^shootdown\/kernel-move_pages\/(immediate|batched)\/batch:512\// && $4 != "" && $5 != "" {
			mode = $1; sub(/^shootdown\/kernel-move_pages\//, "", mode); sub(/\/.*/, "", mode)
			seen[mode] = 1
			if (mode == "batched") {
				ok = $4 > 0 && $5 <= 0.1 * $4
				printf "lab-ab: check: move_pages batched, batch 512: %s -> %s TLB IPIs per page (%s of before, want <= 0.1): %s\n", $4, $5, ($4 > 0 ? sprintf("%.3f", $5 / $4) : "n/a"), ok ? "ok" : "FAILED"
			} else {
				ok = $4 > 0 && $5 >= 0.75 * $4 && $5 <= 1.25 * $4
				printf "lab-ab: check: move_pages immediate (per page), batch 512: %s -> %s TLB IPIs per page (%s of before, want 0.75..1.25): %s\n", $4, $5, ($4 > 0 ? sprintf("%.3f", $5 / $4) : "n/a"), ok ? "ok" : "FAILED"
			}
			if (!ok) bad = 1
		}
		END {
			for (m in want) if (!(m in seen)) { printf "lab-ab: check: FAILED: no move_pages %s batch:512 result on both sides\n", m; bad = 1 }
			exit bad
		}
		BEGIN { want["batched"] = 1; want["immediate"] = 1 }' <<<"$csv" || rc=1
	return $rc
}

if [ ${#only[@]} -eq 2 ]; then
	[ -n "${SB_STRATBENCH:-}" ] || [ -x "$SB_ROOT/build-lab/stratbench" ] ||
		sb_build "$SB_ROOT/build-lab" >/dev/null
	check_ab "${only[@]}"
	exit
fi

for k in "$before" "$after"; do
	case $k in bookworm|backports) ;; *) [ -f "$k" ] ||
		SB_DIE_RC=2 sb_die "kernel '$k': want bookworm, backports or a kernel image" ;; esac
done
[ ! -e "$out/before" ] && [ ! -e "$out/after" ] ||
	SB_DIE_RC=2 sb_die "$out already holds before/ or after/: remove them or pass --out"
mkdir -p "$out"

# one guest per kernel: the run's results in the guest's $SB_LAB_OUT/ab,
# back as DIR/SIDE/ab; the run labelled by its side's kernel
for side in before after; do
	k=$before
	[ $side = before ] || k=$after
	label=$(basename "$k" | tr -c 'A-Za-z0-9._\n-' _)
	echo "lab-ab: $side: kernel $k" >&2
	# a guest that dies before its init runs is booted once more: under
	# QEMU 7.2's MTTCG a boot-time text patch can run stale code (an int3
	# Oops in the 6.12 guest, docs/lab-ab.md); the run itself is never retried
	for try in 1 2; do
		rm -rf "$out/$side"
		rc=0
		bash "$SB_ROOT/scripts/lab.sh" --kernel="$k" --qemu="$qemu" --timeout="$timeout" \
			--results="$out/$side" -- bash -c 'echo 0 >/proc/sys/kernel/numa_balancing 2>/dev/null;
				exec "$SB_BUILD/stratbench" run --quiet --out="$SB_LAB_OUT/ab" "$@"' \
			lab-ab --label="$label" "${run[@]}" >"$out/$side.log" 2>&1 || rc=$?
		[ $rc -ne 0 ] && [ $try -eq 1 ] && ! grep -q '^lab: guest up after' "$out/$side.log" || break
		echo "lab-ab: $side: the guest died while booting ($(grep -a -m1 -o 'Kernel panic.*' "$out/$side.log" || echo 'no status')): booting it once more" >&2
		mv "$out/$side.log" "$out/$side.boot-failure.log"
	done
	[ $rc -eq 0 ] ||
		{ tail -20 "$out/$side.log" >&2; sb_die "$side ($k): the lab run failed ($out/$side.log)"; }
	grep '^lab: 2s' "$out/$side.log" >&2 || true
done
sb compare "$out/before/ab" "$out/after/ab" --metric="$metric"
[ $check -eq 0 ] || check_ab "$out/before/ab" "$out/after/ab"
