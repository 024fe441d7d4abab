#!/usr/bin/env bash
# plot.sh DIR — draw DIR/results.csv into DIR/plots/ with gnuplot:
# <family>-throughput.png/.svg (ops/s vs threads; medians when repeated;
# fidelity-mode rows left out: their logging costs time), and
# window-fidelity.png/.svg (stretch and admit_ratio per policy vs threads,
# mean with the max as an error bar) when the run has fidelity rows.
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
	$2 != fam || $cops == "" || (cerr && $cerr != "") || $7 ~ /mode=fidelity/ { next }
	{
		p = $7; sub(/(^|;)mode=throughput/, "", p); sub(/^;/, "", p)
		if (!(p in seen)) { seen[p] = 1; nparams++; params = p }
		k = $3 ($4 != "" ? "/" $4 : "") " " $6 "\t" p "\t" $5
		if ($cagg == "median") med[k] = $cops
		else if ($cagg == "") { sum[k] += $cops; n[k]++ }
	}
	END {	# medians where there are aggregates, else the mean of the repetitions;
		# parameters shared by every series go to the title, not the key
		for (k in med) out(k, med[k])
		for (k in n) if (!(k in med)) out(k, sum[k] / n[k])
		print (nparams == 1 ? params : "") >"/dev/stderr"
	}
	function out(k, v,   f) {
		split(k, f, "\t")
		printf "%s%s\t%s\t%.6g\n", f[1], ((nparams > 1 && f[2] != "") ? " " f[2] : ""), f[3], v
	}' "$csv" 2>"$dat.params" | LC_ALL=C sort -t "$(printf '\t')" -k1,1 -k2,2n |
	awk -F'\t' '	# one gnuplot index block per series, sorted by name
	$1 != last { if (NR > 1) printf "\n\n"; printf "\"%s\"\n", $1; last = $1 }
	{ print $2, $3 }' >"$dat"
	nseries=$(grep -c '^"' "$dat" || true)
	params=$(tr -d "'" <"$dat.params"); rm -f "$dat.params"
	[ "$nseries" -gt 0 ] || { echo "plot.sh: no successful $fam rows, no plot" >&2; continue; }
	gnuplot -e "datafile='$dat'; outbase='$dir/plots/$fam-throughput'; nseries=$nseries; \
plottitle='$fam: throughput vs threads ($(basename "$dir")${params:+; $params})'" "$tpl/throughput.gp" ||
		sb_die "gnuplot failed for $fam"
	drawn=$((drawn + 1))
	echo "plot: $dir/plots/$fam-throughput.png (template $tpl/throughput.gp)"
done
[ "$drawn" -gt 0 ] || sb_die "nothing plotted"

# window fidelity: one block per policy[/lock] (placement, other params),
# rows "threads stretch stretch_max admit_ratio admit_ratio_max"
c_st=$(col stretch) c_stm=$(col stretch_max) c_ad=$(col admit_ratio) c_adm=$(col admit_ratio_max)
if [ -n "$c_st" ] && [ -n "$c_ad" ] &&
	awk -F, -v c="$c_st" 'NR > 1 && $7 ~ /mode=fidelity/ && $c != "" { f = 1 } END { exit !f }' "$csv"; then
	dat="$dir/plots/window-fidelity.dat"
	awk -F, -v cagg="$c_agg" -v cerr="$c_err" -v a="$c_st" -v b="$c_stm" -v c="$c_ad" -v d="$c_adm" '
	NR == 1 { next }
	$2 != "window" || $7 !~ /mode=fidelity/ || $a == "" || (cerr && $cerr != "") { next }
	{
		# title: policy[/lock] placement; the window options are the
		# same for the whole run (they are in the plot title)
		s = $3 ($4 != "" ? "/" $4 : "") " " $6
		p = $7; sub(/(^|;)mode=fidelity/, "", p); sub(/^;/, "", p); params = p
		k = s "\t" $5
		if ($cagg == "median") med[k] = $a " " $b " " $c " " $d
		else if ($cagg == "") { sa[k] += $a; sb[k] += $b; sc[k] += $c; sd[k] += $d; n[k]++ }
	}
	END {
		print params >"/dev/stderr"
		for (k in med) printf "%s\t%s\n", k, med[k]
		for (k in n) if (!(k in med))
			printf "%s\t%.6g %.6g %.6g %.6g\n", k, sa[k] / n[k], sb[k] / n[k], sc[k] / n[k], sd[k] / n[k]
	}' "$csv" 2>"$dat.params" | LC_ALL=C sort -t "$(printf '\t')" -k1,1 -k2,2n |
	awk -F'\t' '
	$1 != last { if (NR > 1) printf "\n\n"; printf "\"%s\"\n", $1; last = $1 }
	{ print $2, $3 }' >"$dat"
	nseries=$(grep -c '^"' "$dat" || true)
	params=$(tr -d "'" <"$dat.params"); rm -f "$dat.params"
	if [ "$nseries" -gt 0 ]; then
		gnuplot -e "datafile='$dat'; outbase='$dir/plots/window-fidelity'; nseries=$nseries; \
plottitle='window fidelity per window, mean and max ($(basename "$dir"); ${params:-default options})'" \
			"$tpl/fidelity.gp" || sb_die "gnuplot failed for window fidelity"
		echo "plot: $dir/plots/window-fidelity.png (template $tpl/fidelity.gp)"
	fi
fi
