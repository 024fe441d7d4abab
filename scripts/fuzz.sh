#!/usr/bin/env bash
# fuzz.sh TARGET|all SECONDS — build the libFuzzer targets with clang (in
# build-fuzz/) and run TARGET (placement, synthetic, options, procfs, results, or all
# of them one after another) for SECONDS each, starting from the seed corpus
# in tests/fuzz/corpus/TARGET/.  New inputs go to build-fuzz/corpus-TARGET/
# (the seeds in the repository are never written); a crash, leak, timeout or
# UB report stops the run, leaves the input in build-fuzz/artifacts/ and
# exits non-zero.  Targets are listed in tests/CMakeLists.txt.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

targets="placement synthetic options procfs results"
[ $# -eq 2 ] || SB_DIE_RC=2 sb_die "usage: fuzz.sh TARGET|all SECONDS (targets: $targets)"
target=$1 secs=$2
case $secs in ''|*[!0-9]*) SB_DIE_RC=2 sb_die "SECONDS must be a whole number, got '$secs'" ;; esac
[ "$secs" -ge 1 ] || SB_DIE_RC=2 sb_die "SECONDS must be at least 1"
if [ "$target" = all ]; then
	list=$targets
else
	case " $targets " in *" $target "*) list=$target ;;
	*) SB_DIE_RC=2 sb_die "unknown target '$target' (want one of: $targets, all)" ;;
	esac
fi

sb_need_pkgs $SB_BUILD_PKGS clang libclang-rt-14-dev
dir=$SB_ROOT/build-fuzz
CC=clang CXX=clang++ sb_build "$dir" -DSTRATBENCH_FUZZ=ON -DCMAKE_C_COMPILER=clang \
	-DCMAKE_CXX_COMPILER=clang++ >/dev/null
mkdir -p "$dir/artifacts"
for t in $list; do
	mkdir -p "$dir/corpus-$t"
	echo "fuzz.sh: $t for $secs s" >&2
	# -timeout: one input over 10 s is a hang; -rss_limit_mb: a leak or blow-up
	"$dir/tests/fuzz_$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$dir/artifacts/$t-" \
		"$dir/corpus-$t" "$SB_ROOT/tests/fuzz/corpus/$t" 2>"$dir/fuzz-$t.log" ||
		{ tail -40 "$dir/fuzz-$t.log" >&2; sb_die "fuzz_$t failed: see $dir/fuzz-$t.log"; }
	grep -E "stat::number_of_executed_units|stat::new_units_added" "$dir/fuzz-$t.log" |
		sed "s/^/fuzz.sh: $t: /" >&2
done
