#!/usr/bin/env bash
# run.sh [stratbench run options...] — install what is missing (as root),
# build in build/, run the default suite and draw its plots:
#   first a brief calibration (--limits: the calibrate family, 0.05 s a
#   point, once) so every result carries limit_ops and of_limit; then every
#   registered window policy (with the default lock), every lock alone
#   (--crit=0 --par=0), every shootdown strategy at batches 1, 32, 512 on the
#   simulated machine, the pthread_spin baseline; threads 1, 2, 4, ... and
#   the topology's boundaries (--threads=auto); the placements that differ on
#   this machine; 3 repetitions, randomly interleaved (Google Benchmark), so
#   that drift spreads over all points; CV above 5 % flagged.  The window
#   family runs under the workload model, in throughput and fidelity mode
#   (SB_WINDOW_MODEL below; docs/window.md says why).  Then a
#   short real-kernel shootdown run (kernel-madvise, 1 and 2 threads, batch
#   1, 32, 512) in kernel/.
# Results: results/<host>-<YYYYmmdd-HHMMSS>/{gbench.json,results.csv,runs.jsonl,
# run.json,plots/} and .../kernel/{...}; every figure that applies is drawn
# (scripts/plot.sh).  Extra options go to `stratbench run` (e.g. --label=prev,
# --strategy=spinlock --threads=1,2).  Interrupted (Ctrl-C): the finished
# results are kept and plotted; `build/stratbench run --resume=DIR` runs the rest.
# Environment: SB_OUT=DIR to choose the results directory; SB_WINDOW_MODEL
# to replace the window workload options (empty: the bare update loop).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

sb_need_pkgs $SB_BUILD_PKGS gnuplot-nox
sb_build "$SB_ROOT/build" >/dev/null
out=${SB_OUT:-$SB_ROOT/results/$(hostname)-$(date +%Y%m%d-%H%M%S)}
start=$(date +%s)
rc=0
# A migration storm at a node: HZ=10000 jiffies, 1 ms windows (10 ticks: a
# reset that restarts at now stretches a window by a visible tick), 256 pages
# per window, 200 ns of hinting fault per call and 1 us of copy per admitted
# page: one thread alone could admit ~800 pages per window, so at every
# thread count the budget is spent, most calls take the limited path, and
# each ~0.1 s run sees ~100 windows and their resets.
model=${SB_WINDOW_MODEL-"--clock=jiffies --tick-us=100 --interval-ms=1 --limit=256 --fault-ns=200 --migrate-ns=1000 --mode=both"}
# The kernel shootdown drivers run apart, short (below): their time per
# page is a small part of their wall time (handshakes, re-faults).
main=()
[ $# -eq 0 ] && main=(--benchmark_filter=-^shootdown/kernel-)
# the defaults below give way to an option of the same name given here:
# stratbench refuses an option repeated with another value (the results
# directory is SB_OUT's: the plots below are drawn from it)
given() {
	local a
	for a in "${args[@]}"; do [ "${a%%=*}" = "${1%%=*}" ] && return 0; done
	return 1
}
args=("$@")
defaults=()
# shellcheck disable=SC2206
for d in --benchmark_min_time=0.1 --benchmark_repetitions=3 \
	--benchmark_enable_random_interleaving=true --limits $model; do
	given "$d" || defaults+=("$d")
done
"$SB_ROOT/build/stratbench" run --out="$out" "${defaults[@]}" "${main[@]}" "$@" || rc=$?
[ "$rc" -eq 2 ] && exit 2	# usage error: nothing was run
[ -s "$out/results.csv" ] && "$SB_ROOT/scripts/plot.sh" "$out"
if [ $# -eq 0 ]; then
	# real TLB shootdowns: madvise alone and with one responder, batch 1, 32, 512
	kthreads=1,2
	[ "$(nproc)" -ge 2 ] || kthreads=1
	krc=0
	"$SB_ROOT/build/stratbench" run --out="$out/kernel" --family=shootdown \
		--strategy=kernel-madvise --threads=$kthreads --placement=compact --batch=1,32,512 \
		--benchmark_min_time=0.005 --benchmark_repetitions=3 || krc=$?
	[ -s "$out/kernel/results.csv" ] && "$SB_ROOT/scripts/plot.sh" "$out/kernel"
	[ "$rc" -ne 0 ] || rc=$krc
fi
echo "run.sh: $(($(date +%s) - start)) s; results in $out" >&2
exit "$rc"
