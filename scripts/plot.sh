#!/usr/bin/env bash
# plot.sh DIR — draw DIR/results.csv into DIR/plots/ with gnuplot:
# <family>-throughput.png/.svg (ops/s vs threads; medians when repeated;
# fidelity-mode rows left out: their logging costs time),
# <family>-of-limit.png/.svg (ops/s ÷ the machine's limit, when the run
# measured its limits), latency-matrix-<op>.png/.svg (the core-to-core
# latency heatmap, when the run has calibrate/c2c results), and
# window-fidelity.png/.svg (stretch and admit_ratio per policy vs threads,
# mean with the max as an error bar) when the run has fidelity rows.
# With shootdown rows also shootdown-{cost,flushes,acks,slowdown}.png/.svg
# (ns_per_page, flushes_per_page, acks_per_page and the kernel drivers' real
# TLB IPIs per page, responder_slowdown vs batch), and shootdown-kernel.png/
# .svg when the kernel shootdown drivers ran (µs and TLB IRQs per page).
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

# series FAMILY COLUMN DAT: one gnuplot index block per series (key:
# strategy[/lock] placement [params unless every series shares them]) of
# "threads value" rows, the median row where there are aggregates, else the
# mean of the repetitions; failed and fidelity-mode runs are left out.
# Prints the number of series; the shared params go to DAT.params.
series() {
	local fam=$1 c=$2 dat=$3
	awk -F, -v fam="$fam" -v cval="$c" -v cagg="$c_agg" -v cerr="$c_err" '
	NR == 1 { next }
	$2 != fam || $cval == "" || (cerr && $cerr != "") || $7 ~ /mode=fidelity/ { next }
	{
		p = $7; sub(/(^|;)mode=throughput/, "", p); sub(/^;/, "", p)
		if (!(p in seen)) { seen[p] = 1; nparams++; params = p }
		k = $3 ($4 != "" ? "/" $4 : "") " " $6 "\t" p "\t" $5
		if ($cagg == "median") med[k] = $cval
		else if ($cagg == "") { sum[k] += $cval; n[k]++ }
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
	grep -c '^"' "$dat" || true
}

# the parameters series() found shared by every series (for the title)
series_params() { tr -d "'" <"$1.params"; rm -f "$1.params"; }

families=$(awk -F, 'NR > 1 && $2 != "" && $2 != "calibrate" { print $2 }' "$csv" | sort -u)
c_lim=$(col of_limit)
drawn=0
for fam in $families; do
	dat="$dir/plots/$fam-throughput.dat"
	nseries=$(series "$fam" "$c_ops" "$dat")
	params=$(series_params "$dat")
	if [ "$nseries" -eq 0 ]; then	# kernel shootdown rows have no ops/s: drawn below
		awk -F, -v fam="$fam" 'NR > 1 && $2 == fam && $3 !~ /^kernel-/ { f = 1 } END { exit !f }' \
			"$csv" && echo "plot.sh: no successful $fam rows, no throughput plot" >&2
		rm -f "$dat"
		continue
	fi
	gnuplot -e "datafile='$dat'; outbase='$dir/plots/$fam-throughput'; nseries=$nseries; \
plottitle='$fam: throughput vs threads ($(basename "$dir")${params:+; $params})'" "$tpl/throughput.gp" ||
		sb_die "gnuplot failed for $fam"
	drawn=$((drawn + 1))
	echo "plot: $dir/plots/$fam-throughput.png (template $tpl/throughput.gp)"
	# the fraction of the machine's limit, where the run measured its limits
	[ -n "$c_lim" ] || continue
	dat="$dir/plots/$fam-of-limit.dat"
	nseries=$(series "$fam" "$c_lim" "$dat")
	series_params "$dat" >/dev/null
	[ "$nseries" -gt 0 ] || continue
	gnuplot -e "datafile='$dat'; outbase='$dir/plots/$fam-of-limit'; nseries=$nseries; \
plottitle='$fam: ops/s as a fraction of the machine limit ($(basename "$dir"))'" \
		"$tpl/of-limit.gp" || sb_die "gnuplot failed for $fam of_limit"
	echo "plot: $dir/plots/$fam-of-limit.png"
done

# The core-to-core latency matrix of each c2c variant, when calibrated.
c_ow=$(col one_way_ns) c_extra=$(col extra)
model=$(grep -o '"sb_cpu_model": "[^"]*"' "$dir/gbench.json" 2>/dev/null | head -1 | cut -d'"' -f4 || true)
for op in $( [ -n "$c_ow" ] && awk -F, '$2 == "calibrate" && $3 == "c2c" { print $7 }' "$csv" |
	     grep -o 'op=[a-z_]*' | sort -u | cut -d= -f2); do
	base="$dir/plots/latency-matrix-$op"
	# CPUs ordered by (package, node, number); one value per pair (median
	# row, else the mean of the repetitions), mirrored; NaN elsewhere
	awk -F, -v cow="$c_ow" -v cagg="$c_agg" -v cerr="$c_err" -v cex="$c_extra" \
	    -v op="$op" -v dat="$base.dat" -v setup="$base.setup" '
	NR == 1 || $2 != "calibrate" || $3 != "c2c" || index($7, "op=" op) == 0 { next }
	$cow == "" || (cerr && $cerr != "") { next }
	{
		split($6, pl, ":"); split(pl[2], ab, "+"); a = ab[1] + 0; b = ab[2] + 0
		ne = split($cex, kv, ";")
		for (i = 1; i <= ne; i++) { split(kv[i], e, "="); x[e[1]] = e[2] }
		pkg[a] = x["pkg_a"]; pkg[b] = x["pkg_b"]; node[a] = x["node_a"]; node[b] = x["node_b"]
		k = a " " b
		if ($cagg == "median") med[k] = $cow
		else if ($cagg == "") { sum[k] += $cow; cnt[k]++ }
	}
	END {
		for (k in cnt) if (!(k in med)) med[k] = sum[k] / cnt[k]
		n = 0
		for (c in pkg) { key[n] = sprintf("%09d %09d %09d", pkg[c] + 1, node[c] + 1, c); cpu_of[key[n]] = c; n++ }
		if (n == 0) exit 1
		# insertion sort of the keys: n is small (PUs)
		for (i = 1; i < n; i++) { t = key[i]; for (j = i - 1; j >= 0 && key[j] > t; j--) key[j + 1] = key[j]; key[j + 1] = t }
		for (i = 0; i < n; i++) { c = cpu_of[key[i]]; pos[c] = i; ord[i] = c }
		for (i = 0; i < n; i++) for (j = 0; j < n; j++) {
			a = ord[i]; b = ord[j]; k = (a < b ? a " " b : b " " a)
			printf "%d %d %s\n", i, j, (a != b && (k in med)) ? med[k] : "NaN" > dat
		}
		printf "set xtics (" > setup
		for (i = 0; i < n; i++) printf "%s\"%d\" %d", i ? ", " : "", ord[i], i > setup
		printf ")\nset ytics (" > setup
		for (i = 0; i < n; i++) printf "%s\"%d\" %d", i ? ", " : "", ord[i], i > setup
		printf ")\n" > setup
		if (n > 24) print "set xtics rotate by 90 font \",7\"; set ytics font \",7\"" > setup
		for (i = 1; i < n; i++) {	# outlines: package (solid), NUMA node (dashed)
			p0 = pkg[ord[i - 1]]; p1 = pkg[ord[i]]; n0 = node[ord[i - 1]]; n1 = node[ord[i]]
			if (p0 != p1 || n0 != n1) {
				st = (p0 != p1) ? "lw 3 dt 1" : "lw 2 dt 2"
				printf "set arrow from %g,-0.5 to %g,%g nohead front %s lc rgb \"black\"\n", i - 0.5, i - 0.5, n - 0.5, st > setup
				printf "set arrow from -0.5,%g to %g,%g nohead front %s lc rgb \"black\"\n", i - 0.5, n - 0.5, i - 0.5, st > setup
			}
		}
		if (n <= 16)		# small: every value in its cell
			for (k in med) { split(k, ab, " "); a = pos[ab[1]]; b = pos[ab[2]]
				printf "set label \"%.0f\" at %d,%d center front\n", med[k], a, b > setup
				printf "set label \"%.0f\" at %d,%d center front\n", med[k], b, a > setup }
		print n
	}' "$csv" >"$base.n" || { echo "plot.sh: no c2c $op values, no matrix" >&2; continue; }
	gnuplot -e "datafile='$base.dat'; setupfile='$base.setup'; outbase='$base'; n=$(cat "$base.n"); \
plottitle='core-to-core one-way latency, op:$op, ns — ${model:-unknown CPU} ($(basename "$dir"))'" \
		"$tpl/latency-matrix.gp" || sb_die "gnuplot failed for the $op latency matrix"
	drawn=$((drawn + 1))
	echo "plot: $base.png"
done

# the kernel shootdown drivers: cost and real IPIs per page vs batch size
c_us=$(col us_per_page) c_tlb=$(col tlb_irqs_per_page)
if [ -n "$c_us" ] && awk -F, -v c="$c_us" 'NR > 1 && $3 ~ /^kernel-/ && $c != "" { f = 1 } END { exit !f }' "$csv"; then
	dat="$dir/plots/shootdown-kernel.dat"
	# series: call mode threads placement; x: batch; medians, else means
	awk -F, -v cus="$c_us" -v ctlb="$c_tlb" -v cagg="$c_agg" -v cerr="$c_err" '
	NR == 1 { next }
	$3 !~ /^kernel-/ || $cus == "" || (cerr && $cerr != "") { next }
	{
		mode = ""; batch = ""
		n = split($7, kv, ";")
		for (i = 1; i <= n; i++) {
			split(kv[i], p, "=")
			if (p[1] == "mode") mode = p[2]
			else if (p[1] == "batch") batch = p[2]
		}
		if (batch == "") next
		k = $3 " " mode " threads:" $5 " " $6 "\t" batch
		tlb = $ctlb == "" ? "NaN" : $ctlb
		if ($cagg == "median") { mus[k] = $cus; mtlb[k] = tlb }
		else if ($cagg == "") { sus[k] += $cus; stlb[k] += tlb; cnt[k]++ }
	}
	END {
		for (k in mus) printf "%s\t%.6g\t%s\n", k, mus[k], mtlb[k]
		for (k in cnt) if (!(k in mus))
			printf "%s\t%.6g\t%.6g\n", k, sus[k] / cnt[k], stlb[k] / cnt[k]
	}' "$csv" | LC_ALL=C sort -t "$(printf '\t')" -k1,1 -k2,2n |
	awk -F'\t' '
	$1 != last { if (NR > 1) printf "\n\n"; printf "\"%s\"\n", $1; last = $1 }
	{ print $2, $3, $4 }' >"$dat"
	nseries=$(grep -c '^"' "$dat" || true)
	gnuplot -e "datafile='$dat'; outbase='$dir/plots/shootdown-kernel'; nseries=$nseries; \
plottitle='shootdown, real kernel: cost and TLB IPIs per page vs batch ($(basename "$dir"))'" \
		"$tpl/shootdown-kernel.gp" || sb_die "gnuplot failed for shootdown-kernel"
	drawn=$((drawn + 1))
	echo "plot: $dir/plots/shootdown-kernel.png"
fi

# shootdown: one figure per counter vs batch size, a line per series (the
# name less its batch:B part); drawn only when shootdown rows exist.
shootdown_plot() {	# figure columns(a,b: b's series get " (b)") ylabel logy
	local fig=$1 cols=$2 ylab=$3 logy=$4 dat="$dir/plots/shootdown-$1.dat" nseries name c
	for name in ${cols//,/ }; do
		c=$(col "$name" || true)	# a column this run lacks
		[ -n "$c" ] || continue
		awk -F, -v cv="$c" -v cagg="$c_agg" -v cerr="$c_err" \
			-v sfx="$([ "$name" = "${cols%%,*}" ] || echo " ($name)")" '
		NR == 1 { next }
		$2 != "shootdown" || $cv == "" || (cerr && $cerr != "") { next }
		{
			n = split($1, part, "/"); b = ""; s = ""
			for (i = 2; i <= n; i++)
				if (part[i] ~ /^batch:/) b = substr(part[i], 7)
				else s = s (s == "" ? "" : "/") part[i]
			if (b == "") next
			k = s sfx "\t" b
			if ($cagg == "median") med[k] = $cv
			else if ($cagg == "") { sum[k] += $cv; cnt[k]++ }
		}
		END {
			for (k in med) printf "%s\t%.6g\n", k, med[k]
			for (k in cnt) if (!(k in med)) printf "%s\t%.6g\n", k, sum[k] / cnt[k]
		}' "$csv"
	done | LC_ALL=C sort -t "$(printf '\t')" -k1,1 -k2,2n |
	awk -F'\t' '$1 != last { if (NR > 1) printf "\n\n"; printf "\"%s\"\n", $1; last = $1 }
	{ print $2, $3 }' >"$dat"
	nseries=$(grep -c '^"' "$dat" || true)
	[ "$nseries" -gt 0 ] || { rm -f "$dat"; return 0; }
	gnuplot -e "datafile='$dat'; outbase='$dir/plots/shootdown-$fig'; nseries=$nseries; \
logy=$logy; ylabel='$ylab'; plottitle='shootdown: $ylab vs batch size ($(basename "$dir"))'" \
		"$tpl/shootdown.gp" || sb_die "gnuplot failed for shootdown-$fig"
	echo "plot: $dir/plots/shootdown-$fig.png"
	drawn=$((drawn + 1))
}
if awk -F, 'NR > 1 && $2 == "shootdown" { f = 1; exit } END { exit !f }' "$csv"; then
	shootdown_plot cost ns_per_page "ns per migrated page" 1
	shootdown_plot flushes flushes_per_page "flushes per page" 1
	# simulated requests (acks) and the kernel drivers' real TLB IPIs
	shootdown_plot acks acks_per_page,tlb_irqs_per_page "flush requests and IPIs per page" 1
	shootdown_plot slowdown responder_slowdown "responder slowdown (x)" 1
fi
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
