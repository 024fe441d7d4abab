#!/usr/bin/env bash
# 10-topology — hwloc sees the machine sysfs describes (and the lab shape it
# was booted as); compact, cores and scatter plans put members where
# DESIGN.md §6 says, recomputed here from sysfs alone; a run binds every
# member to its planned CPU, seen from outside through /proc.
. "$(dirname "$0")/lib.sh"
need_nodes 2

npkg=$(cpu_table | awk '{ print $2 }' | sort -u | wc -l)
nnode=$(sys_nodes)
npu=$(online_cpus | wc -l)
ncore=$(cpu_table | awk '$5 == 0' | wc -l)
echo "sysfs: $npkg packages, $nnode NUMA nodes, $ncore cores, $npu PUs"
cpu_table | awk '{ printf "  cpu %s: package %s node %s core %s smt %s\n", $1, $2, $3, $4, $5 }'
if [ -n "${SB_LAB_SHAPE:-}" ]; then
	same "packages as booted ($SB_LAB_SHAPE)" "$npkg" "$SB_LAB_PACKAGES"
	same "NUMA nodes as booted" "$nnode" "$SB_LAB_NODES"
	same "cores as booted" "$ncore" "$SB_LAB_CORES"
	same "PUs as booted" "$npu" "$SB_LAB_PUS"
fi
summary=$("$sb" topo | head -1)
echo "stratbench topo: $summary"
same "hwloc: packages, nodes, cores, PUs" \
	"$(echo "$summary" | sed -n 's/^machine: \([0-9]*\) packages, \([0-9]*\) NUMA nodes, \([0-9]*\) cores, \([0-9]*\) PUs (this system).*/\1 \2 \3 \4/p')" \
	"$npkg $nnode $ncore $npu"
# hwloc puts each CPU on the node sysfs says
same "node of each CPU (hwloc vs sysfs)" \
	"$("$sb" topo --placement=compact --threads="$npu" | sed -n 's/^  thread [0-9]* -> CPU \([0-9]*\) .*node \([0-9]*\))$/\1:\2/p' | sort -n | tr '\n' ' ')" \
	"$(cpu_table | awk '{ print $1 ":" $3 }' | sort -n | tr '\n' ' ')"

# the plans: full machine and partial teams
for spec in compact:$npu cores:$ncore scatter:$npu compact:2 cores:2 scatter:2 scatter:$npkg; do
	p=${spec%:*} n=${spec#*:}
	same "plan $p, $n threads" "$(planned "$p" "$n")" "$(expected_plan "$p" "$n")"
done
# properties §6 states, whatever the reimplementation says
packages_of() { local c; for c in ${1//,/ }; do cat /sys/devices/system/cpu/cpu$c/topology/physical_package_id; done | sort -u | wc -l; }
same "scatter, $npkg threads: one per package" "$(packages_of "$(planned scatter "$npkg")")" "$npkg"
same "compact, 2 threads: one package" "$(packages_of "$(planned compact 2)")" 1
same "cores: no two threads on one core" \
	"$(for c in $(planned cores "$ncore" | tr ',' ' '); do cat /sys/devices/system/cpu/cpu$c/topology/thread_siblings_list; done | sort | uniq -d)" ""
# the checker itself must be able to fail: on this shape the placements differ
check "negative control: compact and scatter plans differ here" \
	[ "$(expected_plan compact "$npu")" != "$(expected_plan scatter "$npu")" ]

# bound_as_planned SB P N: a run of SB with N threads on placement P pins
# its members to the planned CPUs in plan order (members are created in
# order: thread ids ascend), each runs there, and the run exits 0.
bound_as_planned() {
	local sbin=$1 p=$2 n=$3 pid rc got want
	"$sbin" run --strategy=null --threads="$n" --placement="$p" --benchmark_min_time=0.1 \
		>"$tmp/run.out" 2>&1 &
	pid=$!
	watch_threads "$pid" "$tmp/threads"
	wait "$pid"
	rc=$?
	got=$(awk '$2 ~ /^[0-9]+$/ { print $2 }' "$tmp/threads" | paste -sd,)
	want=$(planned "$p" "$n")
	echo "  run $p $n threads: exit $rc, members on CPUs $got (plan $want)"
	[ "$rc" -eq 0 ] && [ "$got" = "$want" ] &&
		awk '$2 ~ /^[0-9]+$/ && $2 != $3 { exit 1 }' "$tmp/threads"
}
for spec in compact:$npu cores:$ncore scatter:$npu scatter:$npkg; do
	p=${spec%:*} n=${spec#*:}
	check "run $p $n threads: members pinned to the plan's CPUs in order, and run there" \
		bound_as_planned "$sb" "$p" "$n"
done
# broken fixture: a stratbench that plans everything compact must be caught
check_not "broken fixture (every placement run as compact): scatter is caught" \
	bound_as_planned "$(broken_stratbench compact-always)" scatter "$npu"
finish
