#!/usr/bin/env bash
# counters-cost.sh — what counting costs: the same benchmarks with
# --counters=none and with the default set, as invocations alternated in
# pairs (the order flips every pair), median ops/s of each side per
# benchmark, and the ratio.  A global option cannot differ between two
# benchmarks of one process, so this is the same-run ratio we can have.
#   scripts/counters-cost.sh [-n PAIRS] [-b BUILD_DIR] [stratbench run options...]
#   e.g. scripts/counters-cost.sh -n 5 --strategy=null,spinlock --threads=2
set -euo pipefail
. "$(dirname "$0")/lib.sh"

pairs=5 build="$SB_ROOT/build"
while [ $# -gt 0 ]; do
	case $1 in
	-n) pairs=$2; shift 2 ;;
	-b) build=$2; shift 2 ;;
	-h|--help) sed -n '2,8p' "$0"; exit 0 ;;
	*) break ;;
	esac
done
sb=$build/stratbench
[ -x "$sb" ] || SB_DIE_RC=2 sb_die "no $sb: build first (scripts/test.sh)"
tmp=$(mktemp -d /tmp/sb_cost.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

for ((p = 0; p < pairs; p++)); do
	if ((p % 2)); then order="default none"; else order="none default"; fi
	for c in $order; do
		"$sb" run --counters="$c" --out="$tmp/$c.$p" "$@" >/dev/null 2>"$tmp/err" ||
			{ cat "$tmp/err" >&2; sb_die "stratbench run --counters=$c failed"; }
		# name,ops_per_s of the plain rows (no aggregates)
		awk -F, -v side="$c" 'NR > 1 && $8 == "" { print side, $1, $13 }' \
			"$tmp/$c.$p/results.csv" >>"$tmp/all"
	done
done
echo "pairs: $pairs; each side's median ops/s over its runs; ratio = default / none"
printf '%-56s %14s %14s %8s\n' benchmark "none ops/s" "default ops/s" ratio
sort -k2,2 -k1,1 -k3,3g "$tmp/all" | awk '
	function median(v, n) { return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }
	function flush() {
		if (name == "") return
		mn = median(none, nn); md = median(dflt, nd)
		printf "%-56s %14.6g %14.6g %8.4f\n", name, mn, md, md / mn
	}
	$2 != name { flush(); name = $2; nn = nd = 0 }
	$1 == "none" { none[++nn] = $3 }
	$1 == "default" { dflt[++nd] = $3 }
	END { flush() }'
