#!/usr/bin/env bash
# plot.sh DIR — draw DIR/results.csv into DIR/plots/ with gnuplot:
# <family>-throughput.png/.svg (ops/s vs threads; medians when repeated).
# The templates: plots/ beside this script when installed
# (<prefix>/share/stratbench/{plot.sh,plots/}, run by `stratbench plot DIR`),
# else ../plots in a source checkout.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/lib.sh"
tpl=
for d in "$here/plots" "$here/../plots"; do
	[ -r "$d/throughput.gp" ] && { tpl=$(cd "$d" && pwd); break; }
done
[ -n "$tpl" ] || sb_die "no gnuplot templates (plots/throughput.gp) beside $here"

[ $# -eq 1 ] || SB_DIE_RC=2 sb_die "usage: plot.sh RESULTS_DIR"
dir=$1 csv=$1/results.csv
[ -r "$csv" ] || SB_DIE_RC=2 sb_die "no readable $csv"
head -1 "$csv" | grep -q '^name,family,strategy,lock,threads,placement,' ||
	SB_DIE_RC=2 sb_die "$csv is not a stratbench results.csv (bad header)"
command -v gnuplot >/dev/null || sb_need_pkgs gnuplot-nox
mkdir -p "$dir/plots" || sb_die "cannot create $dir/plots"

col() { head -1 "$csv" | tr ',' '\n' | grep -nx "$1" | cut -d: -f1; }
c_ops=$(col ops_per_s) c_agg=$(col aggregate) c_err=$(col error)
[ -n "$c_ops" ] && [ -n "$c_agg" ] || SB_DIE_RC=2 sb_die "$csv lacks ops_per_s/aggregate columns"

families=$(awk -F, 'NR > 1 && $2 != "" { print $2 }' "$csv" | sort -u)
[ -n "$families" ] || SB_DIE_RC=2 sb_die "$csv has no result rows"
drawn=0
for fam in $families; do
	dat="$dir/plots/$fam-throughput.dat"
	# series key: strategy[/lock] placement [params]; value: median row if
	# present, else the mean of the repetitions; failed runs are left out.
	awk -F, -v fam="$fam" -v cops="$c_ops" -v cagg="$c_agg" -v cerr="$c_err" '
	NR == 1 { next }
	$2 != fam || $cops == "" || (cerr && $cerr != "") { next }
	{
		s = $3 ($4 != "" ? "/" $4 : "") " " $6 ($7 != "" ? " " $7 : "")
		k = s "\t" $5
		if ($cagg == "median") med[k] = $cops
		else if ($cagg == "") { sum[k] += $cops; n[k]++ }
	}
	END {	# medians where there are aggregates, else the mean of the repetitions
		for (k in med) printf "%s\t%.6g\n", k, med[k]
		for (k in n) if (!(k in med)) printf "%s\t%.6g\n", k, sum[k] / n[k]
	}' "$csv" | LC_ALL=C sort -t "$(printf '\t')" -k1,1 -k2,2n |
	awk -F'\t' '	# one gnuplot index block per series, sorted by name
	$1 != last { if (NR > 1) printf "\n\n"; printf "\"%s\"\n", $1; last = $1 }
	{ print $2, $3 }' >"$dat"
	nseries=$(grep -c '^"' "$dat" || true)
	[ "$nseries" -gt 0 ] || { echo "plot.sh: no successful $fam rows, no plot" >&2; continue; }
	gnuplot -e "datafile='$dat'; outbase='$dir/plots/$fam-throughput'; nseries=$nseries; \
plottitle='$fam: throughput vs threads ($(basename "$dir"))'" "$tpl/throughput.gp" ||
		sb_die "gnuplot failed for $fam"
	drawn=$((drawn + 1))
	echo "plot: $dir/plots/$fam-throughput.png (template $tpl/throughput.gp)"
done
[ "$drawn" -gt 0 ] || sb_die "nothing plotted"
