#!/usr/bin/env bash
# precision.sh [OUTDIR] — a benchmark of the benchmark (not a test): the CV
# of ops_per_s over 10 repetitions of
#   window/null, 1 thread (the harness's own cost per call);
#   lock/ticket, 1 thread;
#   window/trylock, 1 thread, under the default suite's model
#     (--clock=jiffies --tick-us=100 --interval-ms=1 --limit=256
#      --fault-ns=200 --migrate-ns=1000), and, where this build has
#     --clock=calls, the same model on that clock (--tick-calls=372: the
#     calls a 100 us tick holds when the calibrated work is exact, so
#     both clocks admit 256 of ~3720 calls per window);
#   shootdown/batched at batch 32, 2 threads;
# then, where `stratbench run --ab` exists, the 95 % interval's half-width
# a paired spinlock→trylock A/B reaches in 60 s under the model
# (--precision=0.01 --max-time=60: it runs the whole minute and prints
# the half-width it reached).  Each
# repetition lasts --benchmark_min_time=0.1 s.  Two CVs per benchmark, of
# ops_per_s and of cpu_time (CPU time per iteration), both
# `stratbench compare`'s (a results directory against itself:
# --format=csv's new_cv_pct); this script only runs the binary.  Prints
# the load average before and after: other work on the machine shows here.
# Environment: SB_BIN=path/to/stratbench (default build/stratbench, built
# if missing); SB_REPS (default 10).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ $# -le 1 ] || SB_DIE_RC=2 sb_die "usage: precision.sh [OUTDIR]"
sb=${SB_BIN:-$SB_ROOT/build/stratbench}
reps=${SB_REPS:-10}
[[ $reps =~ ^[1-9][0-9]*$ ]] && [ "$reps" -ge 2 ] ||
	SB_DIE_RC=2 sb_die "bad SB_REPS '$reps' (want an integer of 2 or more)"
if [ ! -x "$sb" ]; then
	sb_need_pkgs $SB_BUILD_PKGS
	sb_build "$SB_ROOT/build" >/dev/null
fi
if [ $# -eq 1 ]; then
	out=$1
	mkdir -p "$out" || sb_die "cannot create $out"
else
	out=$(mktemp -d /tmp/sb_precision.XXXXXX)
	trap 'rm -rf "$out"' EXIT
fi
model="--tick-us=100 --interval-ms=1 --limit=256 --fault-ns=200 --migrate-ns=1000"

# cvof DIR METRIC: compare's CV of METRIC (its csv column new_cv_pct)
cvof() {
	"$sb" compare "$1" "$1" --format=csv --metric="$2" |
		awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "new_cv_pct") c = i; next }
			 c { print $c; exit }'
}

# cv NAME ARGS...: run ARGS with the repetitions; print NAME, the CV of
# ops_per_s and the CV of cpu_time (CPU time per iteration: preemption by
# other processes is not in it; the core's own speed is)
cv() {
	local name=$1 dir=$out/$1 ops cpu; shift
	rm -rf "$dir"
	"$sb" run "$@" --placement=compact --benchmark_repetitions="$reps" \
		--benchmark_min_time=0.1 --quiet --out="$dir" >"$dir.log" 2>&1 ||
		sb_die "$name: stratbench run failed (see $dir.log)"
	ops=$(cvof "$dir" ops_per_s) cpu=$(cvof "$dir" cpu_time)
	[ -n "$ops" ] && [ -n "$cpu" ] || sb_die "$name: no CV in compare's output"
	printf '%-28s %9s%% %12s%%\n' "$name" "$ops" "$cpu"
}

echo "# $(date -u +%FT%TZ) $(uname -n) $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# $("$sb" --version 2>&1 | head -1) ($sb), $reps repetitions of 0.1 s"
printf '%-28s %10s %13s\n' benchmark "CV ops/s" "CV cpu_time"
cv window-null --family=window --strategy=null --threads=1
cv lock-ticket --family=lock --strategy=ticket --threads=1
cv trylock-model-jiffies --family=window --strategy=trylock --threads=1 --clock=jiffies $model
# the help read whole first: under pipefail grep -q's early exit would be
# the binary's SIGPIPE, a failed test
help=$("$sb" run --help 2>&1)
if grep -q -- '--tick-calls' <<<"$help"; then
	cv trylock-model-calls --family=window --strategy=trylock --threads=1 --clock=calls \
		--tick-calls=372 $model
else
	echo "trylock-model-calls: --clock=calls not available in this build"
fi
cv shootdown-batched-32 --family=shootdown --strategy=batched --batch=32 --threads=2
if grep -qE -- '--ab(=| |$)' <<<"$help"; then
	# the paired comparison prints its own interval (its "ab:" lines);
	# --precision below anything reachable makes it run the whole 60 s
	echo "paired A/B spinlock,trylock under the model (jiffies), 1 thread, 60 s:"
	"$sb" run --family=window --ab=spinlock,trylock --threads=1 --clock=jiffies $model \
		--precision=0.01 --max-time=60 --placement=compact --out="$out/ab" \
		>"$out/ab.log" 2>&1 || sb_die "paired A/B: stratbench run failed (see $out/ab.log)"
	grep '^ab:' "$out/ab.log" || echo "paired A/B: ran, but printed no ab: line (see $out/ab.log)"
else
	echo "paired A/B: not available in this build"
fi
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
