#!/usr/bin/env bash
# 41-driver-madvise — the kernel-madvise driver (DESIGN.md §5) in the lab,
# responders scattered over both packages: it must run, not skip, and count
# real IPIs.  Driver-specific checks (immediate vs batched) belong here too.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/driver.sh"
check_driver madvise
finish
