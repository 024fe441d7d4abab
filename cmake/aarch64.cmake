# Cross toolchain for aarch64 (Debian's aarch64-linux-gnu cross compilers).
# Core-only (strategies + conformance tests): scripts/test.sh --cross=aarch64
# passes -DSTRATBENCH_CORE_ONLY=ON and needs only the -cross libc.  The full
# harness (scripts/package.sh --arch=arm64) finds the target's hwloc,
# jansson, libpfm4 and Google Benchmark in the multiarch paths
# (dpkg --add-architecture arm64; lib*-dev:arm64).  Tests and the man page
# run under qemu-user (binfmt may be absent).
set(SB_CROSS_TRIPLET aarch64-linux-gnu)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(SB_CROSS_QEMU qemu-aarch64)
include(${CMAKE_CURRENT_LIST_DIR}/cross-multiarch.cmake)
