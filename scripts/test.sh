#!/usr/bin/env bash
# test.sh — build and run every test.
#   scripts/test.sh                         native build in build/
#   scripts/test.sh --sanitize=thread       TSan build in build-san-thread/
#   scripts/test.sh --sanitize=address,undefined
#   scripts/test.sh --cross=ppc64le|aarch64 strategies + conformance tests,
#                                           cross-built, run under qemu-user
#   --werror                                warnings are errors (CI)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

sanitize= cross= werror=OFF
for a in "$@"; do
	case $a in
	--sanitize=*) sanitize=${a#*=} ;;
	--cross=*) cross=${a#*=} ;;
	--werror) werror=ON ;;
	-h|--help) sed -n '2,9p' "$0"; exit 0 ;;
	*) SB_DIE_RC=2 sb_die "unknown option '$a'" ;;
	esac
done

if [ -n "$cross" ]; then
	case $cross in
	ppc64le) tri=powerpc64le-linux-gnu deb=ppc64el ;;
	aarch64) tri=aarch64-linux-gnu deb=arm64 ;;
	*) SB_DIE_RC=2 sb_die "unknown --cross target '$cross' (want ppc64le or aarch64)" ;;
	esac
	[ -z "$sanitize" ] || SB_DIE_RC=2 sb_die "--cross and --sanitize do not combine"
	# gcc-$tri does not pull in the target's libc: crt files, headers
	sb_need_pkgs cmake make pkg-config "gcc-$tri" "libc6-dev-$deb-cross" qemu-user
	dir="$SB_ROOT/build-cross-$cross"
	sb_build "$dir" -DCMAKE_TOOLCHAIN_FILE="$SB_ROOT/cmake/$cross.cmake" -DSTRATBENCH_CORE_ONLY=ON \
		-DSTRATBENCH_WERROR=$werror
else
	sb_need_pkgs $SB_BUILD_PKGS $SB_TEST_PKGS
	if [ -n "$sanitize" ]; then
		dir="$SB_ROOT/build-san-${sanitize//,/-}"
		sb_build "$dir" -DSTRATBENCH_SANITIZE="$sanitize" -DSTRATBENCH_WERROR=$werror
	else
		dir="$SB_ROOT/build"
		sb_build "$dir" -DSTRATBENCH_WERROR=$werror
	fi
fi
cd "$dir"
ctest --output-on-failure -j"$(nproc)"
