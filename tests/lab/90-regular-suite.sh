#!/usr/bin/env bash
# 90-regular-suite — the regular test suite (CTest, as scripts/test.sh runs
# it) passes on the lab machine too.
. "$(dirname "$0")/lib.sh"
[ -f "$SB_BUILD/CTestTestfile.cmake" ] || skip "no CTest files in $SB_BUILD"
command -v ctest >/dev/null || skip "no ctest here"
cd "$SB_BUILD" && ctest --output-on-failure -j"$(nproc)"
