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

# bench_home WHAT NODE ARGS...: run stratbench, watch its bound mappings; the
# shared state's mapping must have policy bind:NODE, its pages N<NODE>= only,
# and move_pages must put its first page on NODE
bench_home() {
	local what=$1 node=$2 rc maps
	shift 2
	"$sb" run --threads=1 --benchmark_min_time=1.5 "$@" >"$tmp/run.out" 2>&1 &
	local pid=$!
	watch_numa "$pid" "$tmp/numa"
	wait "$pid"
	rc=$?
	check "$what: run exits 0 (got $rc)" [ "$rc" -eq 0 ]
	maps=$(cat "$tmp/numa")
	echo "  $what: numa_maps: ${maps:-(no bound mapping seen)}"
	echo "  $what: move_pages: $(tr '\n' ' ' <"$tmp/numa.pages")"
	check "$what: a mapping bound to node $node" grep -q " bind:$node " "$tmp/numa"
	check "$what: its pages on node $node only" \
		awk -v n="$node" '{ for (i = 2; i <= NF; i++) if ($i ~ /^N[0-9]+=/ && $i !~ "^N" n "=") bad = 1; if ($0 !~ " N" n "=") bad = 1 } END { exit bad || NR == 0 }' "$tmp/numa"
	check "$what: move_pages puts the shared state on node $node" \
		awk -v n="$node" '$2 != n { bad = 1 } END { exit bad || NR == 0 }' "$tmp/numa.pages"
}

for fam in "window --strategy=spinlock" "lock --strategy=ticket"; do
	f=${fam%% *}
	bench_home "$f --home-node=1, thread on CPU $c0 (node 0)" 1 --family=$fam --placement=list:$c0 --home-node=1
	bench_home "$f --home-node=0 (control), thread on CPU $c1 (node 1)" 0 --family=$fam --placement=list:$c1 --home-node=0
	bench_home "$f default home, thread on CPU $c1 (node 1)" 1 --family=$fam --placement=list:$c1
done
finish
