#!/usr/bin/env bash
# 40-driver-move-pages — the kernel-move_pages driver (DESIGN.md §5) in the
# lab: with two nodes it must run, not skip, and count real IPIs.  The
# driver's own checks (immediate vs batched: flushes per page) belong here
# too, next to the kernel-path check of 30-kernel-move-pages.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/driver.sh"
need_nodes 2
check_driver move_pages
finish
