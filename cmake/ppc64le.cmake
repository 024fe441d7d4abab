# Cross toolchain for ppc64le (Debian's powerpc64le-linux-gnu cross compilers).
# Core-only (strategies + conformance tests): scripts/test.sh --cross=ppc64le
# passes -DSTRATBENCH_CORE_ONLY=ON and needs only the -cross libc.  The full
# harness (scripts/package.sh --arch=ppc64el) finds the target's hwloc,
# jansson, libpfm4 and Google Benchmark in the multiarch paths
# (dpkg --add-architecture ppc64el; lib*-dev:ppc64el).  Tests and the man
# page run under qemu-user (binfmt may be absent).
set(SB_CROSS_TRIPLET powerpc64le-linux-gnu)
set(CMAKE_SYSTEM_PROCESSOR ppc64le)
set(SB_CROSS_QEMU qemu-ppc64le)
include(${CMAKE_CURRENT_LIST_DIR}/cross-multiarch.cmake)
