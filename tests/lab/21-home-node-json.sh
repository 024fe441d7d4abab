#!/usr/bin/env bash
# 21-home-node-json — a benchmark's JSON records the node its shared state
# lives on: a per-benchmark "home_node" counter (CSV: extra home_node=N),
# 1 with --home-node=1 and 0 with --home-node=0 (the control).
. "$(dirname "$0")/lib.sh"
need_nodes 2

for node in 1 0; do
	out=$tmp/r$node
	"$sb" run --strategy=spinlock,ticket --threads=1 --placement=compact --home-node=$node \
		--out="$out" --benchmark_min_time=0.05 >"$tmp/run.out" 2>&1
	check "run --home-node=$node exits 0" [ $? -eq 0 ]
	if ! grep -q '"home_node"' "$out/gbench.json"; then
		skip "gbench.json records no home node: stratbench's benchmarks report no \"home_node\" counter yet (bench/ change needed)"
	fi
	same "--home-node=$node: home_node of every benchmark" \
		"$(grep -o '"home_node": *[0-9.e+-]*' "$out/gbench.json" | sed 's/.*: *//' | awk '{ print $1 + 0 }' | sort -u | tr '\n' ' ')" "$node "
	check "--home-node=$node: CSV extra has home_node=$node" grep -q "home_node=$node" "$out/results.csv"
done
finish
