#!/usr/bin/env bash
# 36-families-short — a short run of every family on every CPU count that
# draws lines (1 thread and all), as a lab machine would run the suite:
# each family must have rows, none failed.  The results go to /lab/out/short
# when the guest has /lab/out (p9-2n sends it back to the host, which has
# gnuplot), and are plotted here where gnuplot is (the x86 lab).  Timing in
# the guest means nothing: this shows the suite runs end to end on the ISA.
. "$(dirname "$0")/lib.sh"
# on x86 the regular suite (90-regular-suite) runs every family, and more
[ "$(uname -m)" != x86_64 ] || skip "x86: 90-regular-suite runs every family here"
npu=$(online_cpus | wc -l)
out=$tmp/short
[ -d /lab/out ] && out=/lab/out/short
rm -rf "$out"
start=$(date +%s)
"$sb" run --threads=1,"$npu" --benchmark_min_time=0.01 --out="$out" >"$tmp/run.out" 2>&1
rc=$?
tail -3 "$tmp/run.out" | cut -c1-160
echo "the suite, 1 and $npu threads: $(( $(date +%s) - start )) s"
check "the suite exits 0 (got $rc)" [ "$rc" -eq 0 ]
# calibrate runs only with --limits: its measurements are in the context
for f in window lock shootdown baseline; do
	check "family $f: rows" awk -F, -v f="$f" 'NR > 1 && $2 == f { n++ } END { exit !n }' "$out/results.csv"
done
check "no row failed" awk -F, 'NR > 1 && $NF != "" { print "  error: " $1 ": " $NF; bad = 1 } END { exit bad }' \
	"$out/results.csv"
if command -v gnuplot >/dev/null; then
	"$sb" plot "$out" >"$tmp/plot.out" 2>&1
	check "stratbench plot draws the figures (exit $?)" ls "$out"/plots/*.png
else
	echo "note: no gnuplot in this guest: plot $out on the host (stratbench plot)"
fi
finish
