#!/usr/bin/env bash
# package.sh [--arch=ARCH] — build the Debian package of stratbench: a
# Release build for /usr, `cpack -G DEB`.  Depends come from dpkg-shlibdeps
# (libbenchmark1debian, libhwloc15, libc6, libstdc++6, ...), Recommends
# gnuplot-nox (for `stratbench plot`) and bash-completion.  Prints the path
# of the .deb on stdout.  Environment: SB_PKG_BUILD=DIR.
#   --arch=ppc64el|arm64  cross-build with Debian multiarch (installs the
#       target's lib*-dev:ARCH and crossbuild-essential-ARCH when root) into
#       build-pkg-ARCH/; the man page is made under qemu-user
#   scripts/package.sh && scripts/check-deb.sh build-pkg/stratbench_*.deb
set -euo pipefail
. "$(dirname "$0")/lib.sh"

arch=
case ${1:-} in
-h|--help) sed -n '2,10p' "$0"; exit 0 ;;
--arch=*) arch=${1#*=} ;;
'') ;;
*) SB_DIE_RC=2 sb_die "unknown option '$1'" ;;
esac
native=$(dpkg --print-architecture)
[ "$arch" != "$native" ] || arch=
if [ -z "$arch" ]; then
	sb_need_pkgs $SB_BUILD_PKGS dpkg-dev file
	dir=${SB_PKG_BUILD:-$SB_ROOT/build-pkg}
	cross=()
else
	case $arch in
	ppc64el) toolchain=ppc64le ;;
	arm64) toolchain=aarch64 ;;
	*) SB_DIE_RC=2 sb_die "unknown --arch '$arch' (want ppc64el, arm64 or $native)" ;;
	esac
	sb_need_cross "$arch"
	dir=${SB_PKG_BUILD:-$SB_ROOT/build-pkg-$arch}
	cross=(-DCMAKE_TOOLCHAIN_FILE="$SB_ROOT/cmake/$toolchain.cmake" -DCPACK_DEBIAN_PACKAGE_ARCHITECTURE="$arch")
fi
sb_build "$dir" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr "${cross[@]}" >/dev/null
rm -f "$dir"/stratbench_*.deb
(cd "$dir" && cpack -G DEB >cpack.log 2>&1) || { cat "$dir/cpack.log" >&2; sb_die "cpack -G DEB failed"; }
deb=$(ls "$dir"/stratbench_*.deb)
dpkg-deb -f "$deb" Package Version Architecture Depends Recommends >&2
echo "$deb"
