#!/usr/bin/env bash
# counters-cost.sh — what counting costs, as a same-run ratio: one
# `stratbench run --counters-ab` registers every benchmark twice
# (.../counters:none and .../counters:on), Google Benchmark interleaves their
# repetitions in random order, and this prints each pair's median and best
# ops/s and the ratios on / none (1 = free; 0.98 = 2 % slower).
#   scripts/counters-cost.sh [-r REPETITIONS] [-b BUILD_DIR] [stratbench run options...]
#   e.g. scripts/counters-cost.sh -r 10 --strategy=null,spinlock --threads=1,2
set -euo pipefail
. "$(dirname "$0")/lib.sh"

reps=10 build="$SB_ROOT/build"
while [ $# -gt 0 ]; do
	case $1 in
	-r) reps=$2; shift 2 ;;
	-b) build=$2; shift 2 ;;
	-h|--help) sed -n '2,9p' "$0"; exit 0 ;;
	*) break ;;
	esac
done
sb=$build/stratbench
[ -x "$sb" ] || SB_DIE_RC=2 sb_die "no $sb: build first (scripts/test.sh)"
tmp=$(mktemp -d /tmp/sb_cost.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

"$sb" run --counters-ab --benchmark_repetitions="$reps" --benchmark_enable_random_interleaving=true \
	--out="$tmp/r" "$@" >/dev/null 2>"$tmp/err" ||
	{ cat "$tmp/err" >&2; sb_die "stratbench run failed"; }
echo "$reps repetitions each, interleaved at random in one process; ops/s: median, and best"
echo "(best of the repetitions: on a loaded machine the least disturbed run of each side)"
printf '%-56s %12s %12s %8s %12s %12s %8s\n' benchmark "none median" "on median" ratio \
	"none best" "on best" ratio
# the two sides differ only in the point's counters parameter (params
# column: counters=none|on); the rest of the typed point is the pair's key
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["aggregate"] == "median" || $c["aggregate"] == "" {
		side = ""; rest = ""
		np = split($c["params"], kv, ";")
		for (i = 1; i <= np; i++)
			if (kv[i] ~ /^counters=/) side = substr(kv[i], 10)
			else rest = rest (rest == "" ? "" : " ") kv[i]
		if (side == "") next
		name = $c["family"] "/" $c["strategy"] ($c["lock"] != "" ? "/" $c["lock"] : "") \
			" threads:" $c["threads"] " " $c["placement"] (rest != "" ? " " rest : "")
		if (!(name in seen)) { seen[name] = 1; order[++n] = name }
		v = $c["ops_per_s"]
		if ($c["aggregate"] == "median") med[name, side] = v
		else if (v > best[name, side]) best[name, side] = v
	}
	END {
		for (i = 1; i <= n; i++) {
			k = order[i]
			printf "%-56s %12.5g %12.5g %8.4f %12.5g %12.5g %8.4f\n", k, med[k, "none"],
				med[k, "on"], med[k, "on"] / med[k, "none"], best[k, "none"],
				best[k, "on"], best[k, "on"] / best[k, "none"]
		}
	}' "$tmp/r/results.csv"
