#!/usr/bin/env bash
# plot.sh DIR...            draw every figure whose data DIR holds into DIR/plots/
# plot.sh --compare OLD NEW %Change bars of `stratbench compare OLD NEW` into NEW/plots/
#
# One gnuplot template per figure (plots/*.gp); PNG and SVG each.  A figure
# is drawn only when its data exists (a family without results has none):
#   results.csv   <family>-throughput-<placement>   ops/s vs threads, medians,
#                                                   min-max bars, CV flags
#                 lock-latency-<placement>          sampled wait p50/p99 vs threads
#                 <family>-of-limit                 ops/s / the machine's limit (--limits)
#                 latency-matrix-<op>               core-to-core latency (calibrate)
#                 window-fidelity                   stretch, admit_ratio vs threads
#                                                   (window family's fidelity mode)
#                 shootdown-{cost,flushes,acks,slowdown}  ns, flushes, flush requests
#                                                   (and the kernel drivers' real TLB
#                                                   IPIs), responder slowdown per page
#                                                   vs batch size (shootdown family)
#                 shootdown-kernel                  µs and TLB IRQs per page vs batch
#                                                   (shootdown/kernel-* drivers)
#   machines.csv  machines-<group>                  one benchmark, a line per machine
#                 (from `stratbench merge DIR... --out=DIR`)
# Each figure's title names the machine and the parameters.  gnuplot
# warnings are errors.  Environment: SB_PLOTS (templates dir), SB_STRATBENCH
# (binary for --compare; `stratbench plot` sets it; default build/stratbench).
#
# Adding a figure: a template plots/NAME.gp (its variables come from
# gnuplot -e; it writes outbase.png and outbase.svg; titles name machine and
# parameters, axes units; series differ by dash and point, not only colour),
# then a plot_NAME function here that returns without drawing when its data
# is absent (a column, a family's rows) and renders with `gp NAME.gp OUTBASE
# var=value...`; call it from plot_results (data in results.csv) or from the
# loop at the end (other files).  tests/test_plots.sh renders it from a
# fixture.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/lib.sh"

# The templates: plots/ beside this script when installed
# (<prefix>/share/stratbench/{plot.sh,plots/}, run by `stratbench plot`), else
# ../plots in a source checkout; SB_PLOTS overrides.
tpl=${SB_PLOTS:-}
for d in "$here/plots" "$here/../plots"; do
	[ -z "$tpl" ] && [ -r "$d/throughput.gp" ] && tpl=$(cd "$d" && pwd)
done
[ -n "$tpl" ] || sb_die "no gnuplot templates (plots/throughput.gp) beside $here"
usage() { SB_DIE_RC=2 sb_die "usage: plot.sh RESULTS_DIR... | plot.sh --compare OLD NEW"; }
[ $# -ge 1 ] || usage
command -v gnuplot >/dev/null || sb_need_pkgs gnuplot-nox
drawn=0

# gp TEMPLATE OUTBASE VAR=VALUE...: render; any gnuplot output is a failure
gp() {
	local t=$1 out=$2 args="" kv
	shift 2
	for kv in "$@"; do	# double-quoted gnuplot strings: \n is a line break
		args+="${kv%%=*}=\"$(printf '%s' "${kv#*=}" | sed 's/"/\\"/g')\"; "
	done
	args+="outbase='$out'"
	local msg
	msg=$(gnuplot -e "$args" "$tpl/$t" 2>&1) || sb_die "gnuplot failed on $t: $msg"
	[ -z "$msg" ] || sb_die "gnuplot warned on $t ($out): $msg"
	[ -s "$out.png" ] && [ -s "$out.svg" ] || sb_die "gnuplot wrote no $out.png/.svg"
	echo "plot: $out.png (template $tpl/$t)"
	drawn=$((drawn + 1))
}

# ctx DIR KEY: a string from DIR/gbench.json's context ("" when absent)
ctx() {
	[ -r "$1/gbench.json" ] || return 0
	{ grep -o "\"$2\": *\"[^\"]*\"" "$1/gbench.json" || true; } | head -1 | sed 's/.*: *"//; s/"$//'
}

# machine DIR: "host (CPU model), label L" for titles
machine() {
	local host model label
	host=$(ctx "$1" sb_host) model=$(ctx "$1" sb_cpu_model) label=$(ctx "$1" sb_label)
	[ -n "$host" ] || host=$(basename "$1")
	printf '%s%s%s' "$host" "${model:+ ($model)}" "${label:+, run $label}"
}

# col CSV NAME: the column's number, empty when absent
col() { head -1 "$1" | tr ',' '\n' | grep -nx "$2" | cut -d: -f1 || true; }

# series blocks for gnuplot: stdin "series<TAB>x<TAB>values..." sorted by
# series then x; one index block per series, its title first
blocks() {
	LC_ALL=C sort -t "$(printf '\t')" -k1,1 -k2,2n |
	awk -F'\t' '$1 != last { if (NR > 1) printf "\n\n"; printf "\"%s\"\n", $1; last = $1 }
	{ line = $2; for (i = 3; i <= NF; i++) line = line " " $i; print line }'
}

# per (family, placement): series, threads, median, min, max, noisy.
# Medians of the repetitions (GB's median row when the CSV has only
# aggregates); min-max of the repetitions; failed runs are left out.
summarise() {	# CSV FAMILY PLACEMENT VALUECOL
	local csv=$1 fam=$2 place=$3 vcol=$4
	awk -F, -v fam="$fam" -v place="$place" -v v="$vcol" -v cagg="$(col "$csv" aggregate)" \
		-v cerr="$(col "$csv" error)" -v cnoisy="$(col "$csv" noisy)" '
	NR == 1 || $2 != fam || $6 != place || $v == "" || (cerr && $cerr != "") { next }
	$7 ~ /(^|;)mode=fidelity/ { next }	# fidelity runs log per window: not throughput
	{
		p = $7; sub(/(^|;)mode=throughput/, "", p); sub(/^;/, "", p)
		k = $3 ($4 != "" ? "/" $4 : "") (p != "" ? " " p : "") "\t" $5
		if (cnoisy && $cnoisy == "1") noisy[k] = 1
		if ($cagg == "median") med[k] = $v
		else if ($cagg == "") { n[k]++; x[k, n[k]] = $v + 0 }
		seen[k] = 1
	}
	END {
		for (k in seen) {
			m = n[k] + 0
			for (i = 2; i <= m; i++)	# insertion sort (mawk has no asort)
				for (j = i; j > 1 && x[k, j - 1] > x[k, j]; j--) {
					t = x[k, j]; x[k, j] = x[k, j - 1]; x[k, j - 1] = t
				}
			if (m) md = m % 2 ? x[k, (m + 1) / 2] : (x[k, m / 2] + x[k, m / 2 + 1]) / 2
			if (k in med) md = med[k]
			lo = m ? x[k, 1] : md; hi = m ? x[k, m] : md
			printf "%s\t%.9g\t%.9g\t%.9g\t%d\n", k, md, lo, hi, (k in noisy)
		}
	}' "$csv"
}

plot_results() {	# DIR
	local dir=$1 csv=$1/results.csv fam place ops what reps thr
	head -1 "$csv" | grep -q '^name,family,strategy,lock,threads,placement,' ||
		SB_DIE_RC=2 sb_die "$csv is not a stratbench results.csv (bad header)"
	ops=$(col "$csv" ops_per_s)
	[ -n "$ops" ] && [ -n "$(col "$csv" aggregate)" ] ||
		SB_DIE_RC=2 sb_die "$csv lacks ops_per_s/aggregate columns"
	[ "$(wc -l <"$csv")" -gt 1 ] || SB_DIE_RC=2 sb_die "$csv has no result rows"
	mkdir -p "$dir/plots" || sb_die "cannot create $dir/plots"
	what=$(machine "$dir")
	reps=$(awk -F, -v c="$(col "$csv" aggregate)" 'NR > 1 && $c == "" { n[$1]++ }
		END { for (k in n) if (n[k] > m) m = n[k]; print m + 0 }' "$csv")
	thr=$(ctx "$dir" sb_cv_threshold); thr=${thr:-5}
	# throughput: one figure per family x placement
	while IFS=, read -r fam place; do
		local base=$dir/plots/$fam-throughput-$place dat noisy n
		dat=$base.dat noisy=$base.noisy.dat
		summarise "$csv" "$fam" "$place" "$ops" | tee "$base.tsv" |
			cut -f1-5 | blocks >"$dat"
		awk -F'\t' '$6 == 1 { print $2, $3 }' "$base.tsv" >"$noisy"
		rm -f "$base.tsv"
		n=$(grep -c '^"' "$dat" || true)
		[ "$n" -gt 0 ] || { rm -f "$dat" "$noisy"; continue; }
		gp throughput.gp "$base" datafile="$dat" noisyfile="$noisy" nseries="$n" \
			hasnoisy="$([ -s "$noisy" ] && echo 1 || echo 0)" cvthreshold="$thr" \
			plottitle="$fam throughput, placement $place — $what; median of $reps repetition(s), bars min–max"
	done < <(awk -F, 'NR > 1 && $2 != "" && $2 != "calibrate" { print $2 "," $6 }' "$csv" | sort -u)
	# lock family: sampled wait percentiles
	local p50 p99
	p50=$(col "$csv" wait_p50_ns) p99=$(col "$csv" wait_p99_ns)
	if [ -n "$p50" ] && [ -n "$p99" ]; then
		while read -r place; do
			local base=$dir/plots/lock-latency-$place n
			{ summarise "$csv" lock "$place" "$p50" | awk -F'\t' -v OFS='\t' '{ $1 = $1 " p50"; print }'
			  summarise "$csv" lock "$place" "$p99" | awk -F'\t' -v OFS='\t' '{ $1 = $1 " p99"; print }'
			} | cut -f1-3 | blocks >"$base.dat"
			n=$(grep -c '^"' "$base.dat" || true)
			[ "$n" -gt 0 ] || { rm -f "$base.dat"; continue; }
			gp latency.gp "$base" datafile="$base.dat" nseries="$n" \
				plottitle="lock: sampled acquisition wait, placement $place — $what; medians of $reps repetition(s)"
		done < <(awk -F, -v c="$p50" 'NR > 1 && $2 == "lock" && $c != "" { print $6 }' "$csv" | sort -u)
	fi
	plot_fidelity "$dir"
	plot_of_limit "$dir"
	plot_latency_matrix "$dir"
	plot_shootdown "$dir"
	plot_shootdown_kernel "$dir"
}

# shootdown: one figure per counter vs batch size, a line per series (the
# name less its batch:B part); COLS a,b: b's series get " (b)" in the key
shootdown_fig() {	# DIR FIGURE COLS YLABEL LOGY
	local dir=$1 fig=$2 cols=$3 ylab=$4 logy=$5 csv=$1/results.csv name c n
	local dat=$dir/plots/shootdown-$fig.dat
	for name in ${cols//,/ }; do
		c=$(col "$csv" "$name")	# a column this run lacks
		[ -n "$c" ] || continue
		awk -F, -v cv="$c" -v cagg="$(col "$csv" aggregate)" -v cerr="$(col "$csv" error)" \
			-v sfx="$([ "$name" = "${cols%%,*}" ] || echo " ($name)")" '
		NR == 1 || $2 != "shootdown" || $cv == "" || (cerr && $cerr != "") { next }
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
	done | blocks >"$dat"
	n=$(grep -c '^"' "$dat" || true)
	[ "$n" -gt 0 ] || { rm -f "$dat"; return 0; }
	gp shootdown.gp "$dir/plots/shootdown-$fig" datafile="$dat" nseries="$n" logy="$logy" \
		ylabel="$ylab" plottitle="shootdown: $ylab vs batch size — $(machine "$dir")"
}

plot_shootdown() {	# DIR
	awk -F, 'NR > 1 && $2 == "shootdown" { f = 1; exit } END { exit !f }' "$1/results.csv" ||
		return 0
	shootdown_fig "$1" cost ns_per_page "ns per migrated page" 1
	shootdown_fig "$1" flushes flushes_per_page "flushes per page" 1
	# simulated flush requests (acks) and the kernel drivers' real TLB IPIs
	shootdown_fig "$1" acks acks_per_page,tlb_irqs_per_page "flush requests and IPIs per page" 1
	shootdown_fig "$1" slowdown responder_slowdown "responder slowdown (x)" 1
}

# the kernel shootdown drivers: µs and real TLB IRQs per page vs batch size,
# a line per call, mode (immediate|batched), threads and placement
plot_shootdown_kernel() {	# DIR
	local dir=$1 csv=$1/results.csv c_us c_tlb dat n
	c_us=$(col "$csv" us_per_page) c_tlb=$(col "$csv" tlb_irqs_per_page)
	[ -n "$c_us" ] && [ -n "$c_tlb" ] || return 0
	awk -F, -v c="$c_us" 'NR > 1 && $3 ~ /^kernel-/ && $c != "" { f = 1 } END { exit !f }' \
		"$csv" || return 0
	dat=$dir/plots/shootdown-kernel.dat
	awk -F, -v cus="$c_us" -v ctlb="$c_tlb" -v cagg="$(col "$csv" aggregate)" \
		-v cerr="$(col "$csv" error)" '
	NR == 1 || $3 !~ /^kernel-/ || $cus == "" || (cerr && $cerr != "") { next }
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
	}' "$csv" | blocks >"$dat"
	n=$(grep -c '^"' "$dat" || true)
	[ "$n" -gt 0 ] || { rm -f "$dat"; return 0; }
	gp shootdown-kernel.gp "$dir/plots/shootdown-kernel" datafile="$dat" nseries="$n" \
		plottitle="shootdown, real kernel: cost and TLB IPIs per page vs batch — $(machine "$dir")"
}

# window fidelity (the window family's fidelity mode): stretch and
# admit_ratio per policy[/lock] and placement vs threads, mean with the max
# as an error bar; the window options, the same for the run, in the title
plot_fidelity() {	# DIR
	local dir=$1 csv=$1/results.csv c_st c_stm c_ad c_adm dat n params
	c_st=$(col "$csv" stretch) c_stm=$(col "$csv" stretch_max)
	c_ad=$(col "$csv" admit_ratio) c_adm=$(col "$csv" admit_ratio_max)
	[ -n "$c_st" ] && [ -n "$c_ad" ] && [ -n "$c_stm" ] && [ -n "$c_adm" ] || return 0
	awk -F, -v c="$c_st" 'NR > 1 && $7 ~ /mode=fidelity/ && $c != "" { f = 1 } END { exit !f }' \
		"$csv" || return 0
	dat=$dir/plots/window-fidelity.dat
	awk -F, -v cagg="$(col "$csv" aggregate)" -v cerr="$(col "$csv" error)" -v a="$c_st" \
		-v b="$c_stm" -v c="$c_ad" -v d="$c_adm" '
	NR == 1 { next }
	$2 != "window" || $7 !~ /mode=fidelity/ || $a == "" || (cerr && $cerr != "") { next }
	{
		s = $3 ($4 != "" ? "/" $4 : "") " " $6
		p = $7; sub(/(^|;)mode=fidelity/, "", p); sub(/^;/, "", p); params = p
		k = s "\t" $5
		if ($cagg == "median") med[k] = $a "\t" $b "\t" $c "\t" $d
		else if ($cagg == "") { sa[k] += $a; sb[k] += $b; sc[k] += $c; sd[k] += $d; n[k]++ }
	}
	END {
		print params >"/dev/stderr"
		for (k in med) printf "%s\t%s\n", k, med[k]
		for (k in n) if (!(k in med))
			printf "%s\t%.6g\t%.6g\t%.6g\t%.6g\n", k, sa[k] / n[k], sb[k] / n[k], sc[k] / n[k], sd[k] / n[k]
	}' "$csv" 2>"$dat.params" | blocks >"$dat"
	params=$(tr -d "'\"" <"$dat.params"); rm -f "$dat.params"
	n=$(grep -c '^"' "$dat" || true)
	[ "$n" -gt 0 ] || { rm -f "$dat"; return 0; }
	gp fidelity.gp "$dir/plots/window-fidelity" datafile="$dat" nseries="$n" \
		plottitle="window fidelity per window, mean and max — $(machine "$dir"); ${params:-default options}"
}

# calibrate family: of_limit (throughput / the machine's limit) per family,
# one line per series and placement, where the run measured its limits
plot_of_limit() {	# DIR
	local dir=$1 csv=$1/results.csv c_lim fam place base n
	c_lim=$(col "$csv" of_limit)
	[ -n "$c_lim" ] || return 0
	while read -r fam; do
		base=$dir/plots/$fam-of-limit
		while read -r place; do
			summarise "$csv" "$fam" "$place" "$c_lim" |
				awk -F'\t' -v OFS='\t' -v pl="$place" '{ $1 = $1 " " pl; print }'
		done < <(awk -F, -v f="$fam" -v c="$c_lim" 'NR > 1 && $2 == f && $c != "" { print $6 }' \
			"$csv" | sort -u) | cut -f1-3 | blocks >"$base.dat"
		n=$(grep -c '^"' "$base.dat" || true)
		[ "$n" -gt 0 ] || { rm -f "$base.dat"; continue; }
		gp of-limit.gp "$base" datafile="$base.dat" nseries="$n" \
			plottitle="$fam: ops/s as a fraction of the machine limit — $(machine "$dir")"
	done < <(awk -F, -v c="$c_lim" 'NR > 1 && $2 != "" && $2 != "calibrate" && $c != "" { print $2 }' \
		"$csv" | sort -u)
}

# calibrate family: the core-to-core one-way latency heatmap of each c2c op
plot_latency_matrix() {	# DIR
	local dir=$1 csv=$1/results.csv c_ow c_extra c_agg c_err model op base
	c_ow=$(col "$csv" one_way_ns) c_extra=$(col "$csv" extra)
	c_agg=$(col "$csv" aggregate) c_err=$(col "$csv" error)
	[ -n "$c_ow" ] || return 0
	model=$(machine "$dir")
	for op in $(awk -F, '$2 == "calibrate" && $3 == "c2c" { print $7 }' "$csv" |
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
		gp latency-matrix.gp "$base" datafile="$base.dat" setupfile="$base.setup" n="$(cat "$base.n")" \
			plottitle="core-to-core one-way latency, op:$op, ns — $model"
	done
}

plot_machines() {	# DIR with machines.csv (stratbench merge)
	local dir=$1 csv=$1/machines.csv metric
	head -1 "$csv" | grep -q '^machine,name,family,strategy,lock,threads,placement,params,metric,median,min,max' ||
		SB_DIE_RC=2 sb_die "$csv is not stratbench merge output (bad header)"
	mkdir -p "$dir/plots" || sb_die "cannot create $dir/plots"
	metric=$(awk -F, 'NR == 2 { print $9 }' "$csv")
	# groups measured on at least two machines
	while IFS=, read -r grp place params; do
		local slug base n
		slug=$(printf '%s-%s%s' "$grp" "$place" "${params:+-$params}" | tr '/:;=' '_-_-')
		base=$dir/plots/machines-$slug
		awk -F, -v g="$grp" -v pl="$place" -v pa="$params" -v OFS='\t' '
			NR > 1 && $3 "/" $4 ($5 != "" ? "/lock:" $5 : "") == g && $7 == pl && $8 == pa {
				print $1, $6, $10, ($11 == "" ? $10 : $11), ($12 == "" ? $10 : $12) }' \
			"$csv" | blocks >"$base.dat"
		n=$(grep -c '^"' "$base.dat" || true)
		local names
		names=$(grep '^"' "$base.dat" | tr -d '"' | paste -sd, - | sed 's/,/, /g')
		gp throughput.gp "$base" datafile="$base.dat" noisyfile="" nseries="$n" hasnoisy=0 \
			cvthreshold=5 ylabelmetric="$metric" \
			plottitle="$grp, placement $place${params:+, $params} on $n machines ($names); median, bars min–max"
	done < <(awk -F, 'NR > 1 { g = $3 "/" $4 ($5 != "" ? "/lock:" $5 : "") "," $7 "," $8; m[g, $1] = 1; gs[g] = 1 }
	END { for (g in gs) { n = 0; for (k in m) { split(k, p, SUBSEP); if (p[1] == g) n++ } if (n > 1) print g } }' \
		"$csv" | sort)
}

plot_compare() {	# OLD NEW
	local old=$1 new=$2 sbin=${SB_STRATBENCH:-$SB_ROOT/build/stratbench} outdir base csv n
	[ -x "$sbin" ] || sb_die "no stratbench binary at $sbin (build it: scripts/test.sh or scripts/run.sh)"
	if [ -d "$new" ]; then outdir=$new/plots; else outdir=$(dirname "$new")/plots; fi
	mkdir -p "$outdir" || sb_die "cannot create $outdir"
	base=$outdir/compare-vs-$(basename "${old%/}" .json)
	csv=$base.csv
	"$sbin" compare "$old" "$new" --format=csv >"$csv" || exit $?
	# bars: benchmarks on both sides, in order; label, %change, p
	awk -F, 'NR > 1 && $6 != "" && $6 != "n/a" { print $1 "\t" $6 "\t" ($7 == "n/a" ? 1 : $7) }' \
		"$csv" >"$base.dat"
	n=$(wc -l <"$base.dat")
	[ "$n" -gt 0 ] || sb_die "compare: no benchmark in both $old and $new"
	local ot nt
	ot=$(machine "$old"); nt=$(machine "$new")
	gp compare.gp "$base" datafile="$base.dat" nbars="$n" \
		metric="$("$sbin" compare "$old" "$new" | head -1 | cut -d: -f1)" \
		plottitle="%Change from $(basename "${old%/}") to $(basename "${new%/}")\nnew: $nt\nold: $ot"
}

if [ "$1" = --compare ]; then
	[ $# -eq 3 ] || usage
	plot_compare "$2" "$3"
	exit 0
fi
for dir in "$@"; do
	any=0
	if [ -e "$dir/results.csv" ]; then
		[ -r "$dir/results.csv" ] || SB_DIE_RC=2 sb_die "cannot read $dir/results.csv"
		plot_results "$dir"; any=1
	fi
	if [ -e "$dir/machines.csv" ]; then
		plot_machines "$dir"; any=1
	fi
	[ "$any" -eq 1 ] || SB_DIE_RC=2 sb_die "no readable $dir/results.csv or $dir/machines.csv"
done
[ "$drawn" -gt 0 ] || sb_die "nothing plotted"
