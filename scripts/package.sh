#!/usr/bin/env bash
# package.sh — build the Debian package of stratbench in build-pkg/:
# a Release build for /usr, `cpack -G DEB`.  Depends come from
# dpkg-shlibdeps (libbenchmark1debian, libhwloc15, libc6, libstdc++6, ...),
# Recommends gnuplot-nox (for `stratbench plot`) and bash-completion.
# Prints the path of the .deb on stdout.  Environment: SB_PKG_BUILD=DIR.
#   scripts/package.sh && scripts/check-deb.sh build-pkg/stratbench_*.deb
set -euo pipefail
. "$(dirname "$0")/lib.sh"

case ${1:-} in
-h|--help) sed -n '2,7p' "$0"; exit 0 ;;
'') ;;
*) SB_DIE_RC=2 sb_die "unknown option '$1'" ;;
esac
sb_need_pkgs $SB_BUILD_PKGS dpkg-dev file
dir=${SB_PKG_BUILD:-$SB_ROOT/build-pkg}
sb_build "$dir" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr >/dev/null
rm -f "$dir"/stratbench_*.deb
(cd "$dir" && cpack -G DEB >cpack.log 2>&1) || { cat "$dir/cpack.log" >&2; sb_die "cpack -G DEB failed"; }
deb=$(ls "$dir"/stratbench_*.deb)
dpkg-deb -f "$deb" Package Version Architecture Depends Recommends >&2
echo "$deb"
