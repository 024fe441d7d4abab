#!/usr/bin/env bash
# 20-home-node — shared state lives on the home node: sb_topo_alloc_on_node()
# on each node, and the window and lock benchmarks of a running stratbench
# with --home-node=N (or the default: the node of thread 0's CPU), checked
# from outside with /proc/PID/numa_maps and move_pages(2).  The broken
# fixture (memory first touched on node 0, no policy) must fail the check.
. "$(dirname "$0")/lib.sh"
need_nodes 2

cpu_on_node() { cpu_table | awk -v n="$1" '$3 == n { print $1; exit }'; }
c0=$(cpu_on_node 0) c1=$(cpu_on_node 1)

# pages_all_on NODE "bound=B policy=P pages: N ...": every page and the policy say NODE
pages_all_on() {
	local node=$1 line=$2
	[[ $line == *"pages: "* ]] || return 1
	echo "${line#*pages: }" | tr ' ' '\n' | awk -v n="$node" '$1 != n { bad = 1 } END { exit bad }' &&
		[[ $line == *"policy=$node "* ]]
}

# the allocator, from a thread on node 0: node 1 is remote, node 0 local
for node in 0 1; do
	out=$("$lab_numa" alloc "$node" "$c0")
	echo "  alloc on node $node from CPU $c0: $out"
	check "sb_topo_alloc_on_node($node): bound, every page on node $node" pages_all_on "$node" "$out"
	check "sb_topo_alloc_on_node($node): binding reported as taken" [ "${out%% *}" = "bound=1" ]
done
out=$("$lab_numa" unbound "$c0")
echo "  broken fixture (no policy, first touch on CPU $c0): $out"
check_not "negative control: the check rejects it for node 1" pages_all_on 1 "$out"
check "negative control: ... which is on node 0" pages_all_on 0 "$out"

# home_on SB NODE ARGS...: a run of SB has its shared state on NODE: the
# mapping numa_maps shows with a bind policy is bound to NODE with pages on
# NODE only, move_pages puts its first page on NODE, and the run exits 0
home_on() {
	local sbin=$1 node=$2 pid rc
	shift 2
	"$sbin" run --threads=1 --benchmark_min_time=0.5 "$@" >"$tmp/run.out" 2>&1 &
	pid=$!
	watch_numa "$pid" "$tmp/numa"
	wait "$pid"
	rc=$?
	echo "  exit $rc; numa_maps: $(cat "$tmp/numa" | tr '\n' ' ')"
	echo "  move_pages: $(tr '\n' ' ' <"$tmp/numa.pages")"
	[ "$rc" -eq 0 ] && grep -q " bind:$node " "$tmp/numa" &&
		awk -v n="$node" '{ for (i = 2; i <= NF; i++) if ($i ~ /^N[0-9]+=/ && $i !~ "^N" n "=") bad = 1; if ($0 !~ " N" n "=") bad = 1 } END { exit bad || NR == 0 }' "$tmp/numa" &&
		awk -v n="$node" '$2 != n { bad = 1 } END { exit bad || NR == 0 }' "$tmp/numa.pages"
}

for fam in "window --strategy=spinlock" "lock --strategy=ticket"; do
	f=${fam%% *}
	check "$f --home-node=1, thread on CPU $c0 (node 0): shared state on node 1" \
		home_on "$sb" 1 --family=$fam --placement=list:$c0 --home-node=1
	check "$f --home-node=0 (control), thread on CPU $c1 (node 1): shared state on node 0" \
		home_on "$sb" 0 --family=$fam --placement=list:$c1 --home-node=0
	check "$f default home, thread on CPU $c1 (node 1): shared state on node 1" \
		home_on "$sb" 1 --family=$fam --placement=list:$c1
done
# broken fixture: a stratbench that ignores --home-node must be caught
check_not "broken fixture (--home-node ignored): window --home-node=1 from node 0 is caught" \
	home_on "$(broken_stratbench ignore-home-node)" 1 --family=window --strategy=spinlock \
	--placement=list:$c0 --home-node=1
finish
