# cross-multiarch.cmake — the part of the cross toolchains the targets share,
# included by cmake/ppc64le.cmake and cmake/aarch64.cmake after they set
# SB_CROSS_TRIPLET.  Two places hold the target's files: the -cross sysroot
# (/usr/TRIPLET: libc for the core-only build) and Debian multiarch
# (/usr/lib/TRIPLET, /usr/include/TRIPLET: the harness's libraries).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_C_COMPILER ${SB_CROSS_TRIPLET}-gcc)
set(CMAKE_CXX_COMPILER ${SB_CROSS_TRIPLET}-g++)
# find_package(benchmark) looks in /usr/lib/TRIPLET/cmake under the root "/"
set(CMAKE_LIBRARY_ARCHITECTURE ${SB_CROSS_TRIPLET})
set(CMAKE_FIND_ROOT_PATH /usr/${SB_CROSS_TRIPLET} /)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# pkg-config for the target only: never the build machine's .pc files
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/${SB_CROSS_TRIPLET}/pkgconfig:/usr/share/pkgconfig)
set(ENV{PKG_CONFIG_PATH} "")
# qemu-user runs the tests and the man page.  With the target's multiarch
# libc installed (the harness's libraries pull it in) its loader and libc are
# the ones to use: the -cross sysroot's libc (-L) beside multiarch libraries
# is a different build of glibc and aborts ("stack smashing detected").
if(EXISTS /lib/${SB_CROSS_TRIPLET}/libc.so.6 OR EXISTS /usr/lib/${SB_CROSS_TRIPLET}/libc.so.6)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${SB_CROSS_QEMU})
else()
  set(CMAKE_CROSSCOMPILING_EMULATOR ${SB_CROSS_QEMU} -L /usr/${SB_CROSS_TRIPLET})
endif()
