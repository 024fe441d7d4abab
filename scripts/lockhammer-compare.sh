#!/usr/bin/env bash
# lockhammer-compare.sh LOCKHAMMER_BUILD_DIR [ROUNDS] — our locks beside
# lockhammer's (ARM-software/synchronization-benchmarks, benchmarks/lockhammer,
# built outside this repository, e.g. `make NO_JSON=1` → build.relax_pause/)
# in one sitting, alternating the two programs, at 1 and 2 threads with zero
# critical and parallel work:
#   lockhammer: lh_<lock> -t N -c 0 -p 0 -D 0.5 -n 3 -Y -Z
#               (median of its 3 measurements' locks/wall_sec)
#   stratbench: run --family=lock --strategy=<lock> --threads=N --placement=compact
#               --benchmark_min_time=0.5 --benchmark_repetitions=3 (median ops_per_s)
# Both pin thread i on CPU i.  Prints, per lock and thread count, each round's
# ours ÷ lockhammer and the median over ROUNDS (default 3) rounds; then, at
# 1 thread, CPU ns per lock on both sides (thread CPU time / locks: ours
# Google Benchmark's cpu_ns, lockhammer's cputime_ns_per_lock_acquire from
# -v), which other load on the machine does not inflate.
# Environment: SB_BIN=path/to/stratbench (default build/stratbench, built if missing).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ $# -ge 1 ] && [ $# -le 2 ] || SB_DIE_RC=2 sb_die "usage: lockhammer-compare.sh LOCKHAMMER_BUILD_DIR [ROUNDS]"
lh=$1 rounds=${2:-3}
[[ $rounds =~ ^[1-9][0-9]*$ ]] || SB_DIE_RC=2 sb_die "bad ROUNDS '$rounds' (want a positive integer)"
locks="ticket:lh_ticket_spinlock queued:lh_queued_spinlock clh:lh_clh_spinlock pthread_mutex:lh_pthread_mutex_lock"
for pair in $locks; do
	[ -x "$lh/${pair#*:}" ] || SB_DIE_RC=2 sb_die "$lh/${pair#*:} is missing: not a lockhammer build directory"
done
sb=${SB_BIN:-$SB_ROOT/build/stratbench}
if [ ! -x "$sb" ]; then
	sb_need_pkgs $SB_BUILD_PKGS
	sb_build "$SB_ROOT/build" >/dev/null
fi
[ "$(nproc)" -ge 2 ] || SB_DIE_RC=2 sb_die "needs 2 CPUs for the 2-thread comparison"
tmp=$(mktemp -d /tmp/sb_lhcmp.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# lockhammer's table: data rows start with the pinorder number; last column
# locks/wall_sec; -v adds cputime_ns_per_lock_acquire per measurement.
# Prints "locks/s cpu_ns" (medians of its 3 measurements).
run_lh() {
	local out=$tmp/lh.$RANDOM$RANDOM
	"$lh/$1" -t "$2" -c 0 -p 0 -D 0.5 -n 3 -Y -Z -v >"$out" 2>/dev/null
	echo "$(awk '/^po +meas/ { t = 1; next } t && /^[0-9]/ { print $NF }' "$out" | median)" \
	     "$(awk '/^cputime_ns_per_lock_acquire/ { print $3 }' "$out" | median)"
}

run_ours() {
	local out=$tmp/o.$1.$2.$RANDOM$RANDOM
	"$sb" run --family=lock --strategy="$1" --threads="$2" --placement=compact \
		--benchmark_min_time=0.5 --benchmark_repetitions=3 --out="$out" >/dev/null 2>&1 ||
		sb_die "stratbench run of $1 at $2 threads failed"
	awk -F, 'NR > 1 && $8 == "median" { print $13, $12 }' "$out/results.csv"
}

echo "# $(date -u +%FT%TZ) $(uname -n) $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# lockhammer: $lh"
echo "# stratbench: $sb ($(git -C "$SB_ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown))"
for r in $(seq "$rounds"); do
	for pair in $locks; do
		lock=${pair%%:*} bin=${pair#*:}
		for t in 1 2; do
			# alternate which program goes first, round by round
			if [ $((r % 2)) -eq 1 ]; then
				a=$(run_lh "$bin" "$t"); b=$(run_ours "$lock" "$t")
			else
				b=$(run_ours "$lock" "$t"); a=$(run_lh "$bin" "$t")
			fi
			set -- $b $a	# ours ops/s, ours cpu ns, lh locks/s, lh cpu ns
			[ $# -eq 4 ] || sb_die "no result for $lock at $t threads (round $r)"
			echo "$lock $t $r $1 $3 $2 $4" >>"$tmp/rows"
			echo "round $r: $lock threads $t: ours $1/s lockhammer $3/s" >&2
		done
	done
done
printf '%-14s %7s %14s %14s %8s  %s\n' lock threads ours_ops/s lh_locks/s ratio "per round (ours ÷ lockhammer)"
for pair in $locks; do
	lock=${pair%%:*}
	for t in 1 2; do
		rows=$(awk -v l="$lock" -v t="$t" '$1 == l && $2 == t' "$tmp/rows")
		o=$(awk '{ print $4 }' <<<"$rows" | median)
		h=$(awk '{ print $5 }' <<<"$rows" | median)
		ratios=$(awk '{ printf "%.2f\n", $4 / $5 }' <<<"$rows")
		rm=$(median <<<"$ratios")
		printf '%-14s %7s %14.0f %14.0f %8.2f  %s\n' "$lock" "$t" "$o" "$h" "$rm" "$(echo $ratios)"
	done
done
echo
printf '%-14s %12s %12s %8s   %s\n' lock ours_cpu_ns lh_cpu_ns "lh÷ours" "1 thread, CPU ns per lock (medians over rounds)"
for pair in $locks; do
	lock=${pair%%:*}
	rows=$(awk -v l="$lock" '$1 == l && $2 == 1' "$tmp/rows")
	o=$(awk '{ print $6 }' <<<"$rows" | median)
	h=$(awk '{ print $7 }' <<<"$rows" | median)
	printf '%-14s %12.2f %12.2f %8.2f\n' "$lock" "$o" "$h" "$(awk -v o="$o" -v h="$h" 'BEGIN { print h / o }')"
done
