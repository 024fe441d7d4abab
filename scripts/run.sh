#!/usr/bin/env bash
# run.sh [stratbench run options...] — install what is missing (as root),
# build in build/, run the default suite and draw its plots:
#   first a brief calibration (--limits: the calibrate family, 0.05 s a
#   point, once) so every result carries limit_ops and of_limit; then every
#   registered window policy (with the default lock), every lock alone
#   (--crit=0 --par=0), the pthread_spin baseline; threads 1, 2, 4, ... and
#   #PUs; the placements that differ on this machine; 3 repetitions.
# Results: results/<host>-<YYYYmmdd-HHMMSS>/{gbench.json,results.csv,plots/}.
# Extra options go to `stratbench run` (e.g. --strategy=spinlock --threads=1,2).
# Environment: SB_OUT=DIR to choose the results directory.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

sb_need_pkgs $SB_BUILD_PKGS gnuplot-nox
sb_build "$SB_ROOT/build" >/dev/null
out=${SB_OUT:-$SB_ROOT/results/$(hostname)-$(date +%Y%m%d-%H%M%S)}
start=$(date +%s)
rc=0
"$SB_ROOT/build/stratbench" run --out="$out" --benchmark_min_time=0.1 \
	--benchmark_repetitions=3 --limits "$@" || rc=$?
[ "$rc" -eq 2 ] && exit 2	# usage error: nothing was run
[ -s "$out/results.csv" ] && "$SB_ROOT/scripts/plot.sh" "$out"
echo "run.sh: $(($(date +%s) - start)) s; results in $out" >&2
exit "$rc"
