#!/usr/bin/env bash
# 30-kernel-move-pages — the kernel path the kernel-move_pages driver will
# measure, checked directly: move_pages(2) migrates pages between the nodes
# one call per page and in one call, while responders on every other CPU
# read them; real TLB-shootdown IPIs are counted on each remote CPU
# (/proc/interrupts), and a control without responders sees almost none.
# What is true depends on the kernel, and the test asserts it per kernel:
# before 6.3 a batched call still flushes page by page (a quarter of the
# pages' IPIs or more on some responder); from 6.3 it flushes once per call
# (at most an eighth), and a responder asleep on a migration entry by then
# (its CPU lazy) gets none and is flushed at its next switch.  Either way
# every responder is flushed by IPI or was off the mm (context switches
# during the call): one with neither fails (docs/lab-ab.md).
# Automatic NUMA balancing (on by default with two nodes) would move the
# pages back towards their readers: it is off for the test's duration.
. "$(dirname "$0")/lib.sh"
need_nodes 2
nb=/proc/sys/kernel/numa_balancing
if [ -w "$nb" ]; then
	old=$(cat "$nb")
	echo 0 >"$nb"
	trap 'echo "$old" >"$nb"; rm -rf "$tmp"' EXIT
	echo "numa_balancing was $old, 0 for this test"
fi
"$lab_shootdown" move_pages 64
