#!/usr/bin/env bash
# 11-topology-smt-synthetic — the SMT plans of shapes the lab cannot boot:
# under TCG, QEMU's pseries has one thread per core (p9-2n), so POWER8's
# and POWER9's SMT8 placements are checked on hwloc's synthetic topologies
# (test_topo: compact, cores and scatter on power9-like 2 x 20 x SMT4 and
# POWER8 SMT8 shapes), here on the guest's ISA and hwloc build.
. "$(dirname "$0")/lib.sh"
t=$SB_BUILD/tests/test_topo
[ -x "$t" ] || skip "no $t in this build"
threads=$(awk -F- '{ print ($2 == "" ? 1 : $2 - $1 + 1) }' \
	/sys/devices/system/cpu/cpu0/topology/thread_siblings_list 2>/dev/null)
echo "this machine: ${threads:-?} thread(s) per core; the SMT plans below are synthetic"
"$t" >"$tmp/topo.out" 2>&1
rc=$?
tail -3 "$tmp/topo.out" | sed 's/^/  | /'
check "test_topo (synthetic SMT shapes) passes on $(uname -m) (exit $rc)" [ "$rc" -eq 0 ]
out=$("$sb" topo --topology="synthetic:pack:2 numa:2 core:5 pu:8" --placement=cores --threads=4 2>&1)
echo "$out" | sed -n '1p;/^plan/p'
check "a POWER8-like SMT8 shape plans cores on SMT rank 0 (PUs 0,8,16,24)" \
	grep -q '^plan [^,]*, 4 threads: 0,8,16,24$' <<<"$out"
finish
