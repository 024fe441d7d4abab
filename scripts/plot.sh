#!/usr/bin/env bash
# plot.sh DIR...            every figure whose data DIR holds, into DIR/plots/
# plot.sh --compare OLD NEW %Change bars of OLD against NEW, into NEW/plots/
#
# The checkout's wrapper for `stratbench plot` (build/stratbench, built by
# scripts/test.sh or scripts/run.sh; SB_STRATBENCH names another binary):
# the figures are shaped in C (bench/figures/fig_*.c) and drawn with the
# gnuplot templates in plots/.  This installs gnuplot when it is missing
# (as root; else it prints the apt-get line).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/lib.sh"

sbin=${SB_STRATBENCH:-$SB_ROOT/build/stratbench}
[ -x "$sbin" ] || sb_die "no stratbench binary at $sbin (build it: scripts/test.sh or scripts/run.sh)"
command -v gnuplot >/dev/null || sb_need_pkgs gnuplot-nox
exec "$sbin" plot "$@"
