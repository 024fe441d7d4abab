#!/usr/bin/env bash
# run.sh [stratbench run options...] — install what is missing (as root),
# build in build/, then `stratbench run --suite=default`: the default
# suite's stages (calibration, every family, the window workload model in
# both modes, 3 interleaved repetitions; then a short real-kernel shootdown
# run in kernel/, then the seed's paired comparisons), each at the thread
# counts chosen from the machine, their plots and the end-of-run summary.
# The installed binary runs the same suite with the same benchmark names;
# `stratbench run --suite=default --dry-run` lists it with a time estimate
# (the suite prints it when it starts, too).
# Results: results/<host>-<YYYYmmdd-HHMMSS>/ (SB_OUT=DIR to choose).
# Extra options go to the suite's first stage (README "The two commands").
# Interrupted (Ctrl-C): the finished results are kept;
# `build/stratbench run --resume=DIR` runs the rest.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

sb_need_pkgs $SB_BUILD_PKGS gnuplot-nox
sb_build "$SB_ROOT/build" >/dev/null
out=${SB_OUT:-$SB_ROOT/results/$(hostname)-$(date +%Y%m%d-%H%M%S)}
exec "$SB_ROOT/build/stratbench" run --suite=default --out="$out" "$@"
