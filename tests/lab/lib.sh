# lib.sh — sourced by the lab tests (tests/lab/NN-*.sh): counted checks, skips
# with a reason, the machine as sysfs describes it, and watching a running
# stratbench from outside (/proc: its threads' CPUs, its NUMA mappings).
set -u
sb=$SB_BUILD/stratbench
lab_numa=$SB_BUILD/tests/lab/lab_numa
lab_shootdown=$SB_BUILD/tests/lab/lab_shootdown
lab_threads=$SB_BUILD/tests/lab/lab_threads
tmp=$(mktemp -d /tmp/sb_labt.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

ok() { pass=$((pass + 1)); echo "  ok: $*"; }
bad() { fail=$((fail + 1)); echo "  FAILED: $*"; }
# check WHAT CMD...: passes when CMD succeeds
check() { local what=$1; shift; if "$@"; then ok "$what"; else bad "$what"; fi; }
# check_not WHAT CMD...: passes when CMD fails (negative controls)
check_not() { local what=$1; shift; if "$@"; then bad "$what"; else ok "$what"; fi; }
# same WHAT GOT WANT
same() { if [ "$2" = "$3" ]; then ok "$1: $2"; else bad "$1: got '$2', want '$3'"; fi; }
skip() { echo "skipped: $*"; exit 77; }
finish() { echo "$(basename "$0" .sh): $pass passed, $fail failed"; [ "$fail" -eq 0 ]; }

sys_nodes() { ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | wc -l; }
need_nodes() {
	local n
	n=$(sys_nodes)
	[ "$n" -ge "$1" ] || skip "this machine has $n NUMA node(s), the test needs $1 (run it in the lab: scripts/lab.sh)"
}
need_root() { [ "$(id -u)" -eq 0 ] || skip "needs root"; }
online_cpus() {
	local c
	for c in /sys/devices/system/cpu/cpu[0-9]*; do
		[ -r "$c/topology/physical_package_id" ] && echo "${c##*cpu}"
	done | sort -n
}

# cpu_table: "cpu pkg node corekey smt" per online CPU, from sysfs alone
# (independent of hwloc): corekey is the core's first CPU, smt the CPU's
# rank among its core's siblings.  Read once per test (processes are slow
# under emulation).
cpu_table() {
	[ -s "$tmp/cpu_table" ] || cpu_table_read >"$tmp/cpu_table"
	cat "$tmp/cpu_table"
}
cpu_table_read() {
	local c pkg node sib first rank
	for c in $(online_cpus); do
		pkg=$(cat /sys/devices/system/cpu/cpu$c/topology/physical_package_id)
		node=$(basename /sys/devices/system/cpu/cpu$c/node[0-9]* 2>/dev/null | sed 's/node//')
		sib=$(tr ',' ' ' </sys/devices/system/cpu/cpu$c/topology/thread_siblings_list |
			awk '{ for (i = 1; i <= NF; i++) { n = split($i, r, "-"); if (n == 2) for (j = r[1]; j <= r[2]; j++) print j; else print $i } }')
		first=$(echo "$sib" | head -1)
		rank=$(echo "$sib" | grep -nx "$c" | cut -d: -f1)
		echo "$c $pkg ${node:-0} $first $((rank - 1))"
	done
}

# expected_plan PLACEMENT N: DESIGN.md §6, recomputed from cpu_table.
# Tree order: package (by first CPU), core (by first CPU), SMT rank.
expected_plan() {
	cpu_table | awk -v place="$1" -v n="$2" '
	{ cpu[NR] = $1; pkg[NR] = $2; node[NR] = $3; core[NR] = $4; smt[NR] = $5
	  if (!($2 in pfirst) || $1 < pfirst[$2]) pfirst[$2] = $1 }
	END {
		m = NR
		for (i = 1; i <= m; i++) key[i] = sprintf("%08d %08d %08d", pfirst[pkg[i]], core[i], smt[i])
		for (i = 1; i <= m; i++) ord[i] = i
		for (i = 2; i <= m; i++) for (j = i; j > 1 && key[ord[j]] < key[ord[j-1]]; j--) { t = ord[j]; ord[j] = ord[j-1]; ord[j-1] = t }
		k = 0
		if (place == "compact") for (i = 1; i <= m; i++) out[++k] = cpu[ord[i]]
		if (place == "cores") for (i = 1; i <= m; i++) if (smt[ord[i]] == 0) out[++k] = cpu[ord[i]]
		if (place == "scatter") {
			# per package (tree order): per node, PUs by (smt, core); nodes round-robin
			np = 0
			for (i = 1; i <= m; i++) { p = pkg[ord[i]]; if (!(p in pidx)) { pidx[p] = ++np; plist[np] = p } }
			for (q = 1; q <= np; q++) {
				nn = 0; delete nidx; delete glen
				for (i = 1; i <= m; i++) if (pkg[ord[i]] == plist[q]) { d = node[ord[i]]; if (!(d in nidx)) { nidx[d] = ++nn; nkey[nn] = d } }
				# nodes in OS-index order, as hwloc numbers them
				for (a = 2; a <= nn; a++) for (b = a; b > 1 && nkey[b] + 0 < nkey[b-1] + 0; b--) { t = nkey[b]; nkey[b] = nkey[b-1]; nkey[b-1] = t }
				for (a = 1; a <= nn; a++) {
					g = 0
					for (s = 0; s < 64; s++) for (i = 1; i <= m; i++) { x = ord[i]; if (pkg[x] == plist[q] && node[x] == nkey[a] && smt[x] == s) grp[a, ++g] = cpu[x] }
					glen[a] = g
				}
				L = 0
				for (r = 1; ; r++) { any = 0; for (a = 1; a <= nn; a++) if (r <= glen[a]) { seq[q, ++L] = grp[a, r]; any = 1 } if (!any) break }
				slen[q] = L
			}
			for (r = 1; ; r++) { any = 0; for (q = 1; q <= np; q++) if (r <= slen[q]) { out[++k] = seq[q, r]; any = 1 } if (!any) break }
		}
		s = ""
		for (i = 1; i <= n && i <= k; i++) s = s (i > 1 ? "," : "") out[i]
		print s
	}'
}

# planned PLACEMENT N: the plan stratbench (hwloc) makes
planned() { "$sb" topo --placement="$1" --threads="$2" | sed -n 's/^plan [^,]*, [0-9]* threads: //p'; }

# broken_stratbench NAME: a deliberately broken stratbench for the negative
# fixtures, made in $tmp and printed: ignore-home-node drops --home-node,
# compact-always plans every placement as compact
broken_stratbench() {
	local w=$tmp/broken-$1
	case $1 in
	ignore-home-node) edit='--home-node=*) continue ;;' ;;
	compact-always) edit='--placement=*) a=--placement=compact ;;' ;;
	*) echo "broken_stratbench: unknown fixture $1" >&2; return 2 ;;
	esac
	cat >"$w" <<-EOF
	#!/usr/bin/env bash
	args=()
	for a in "\$@"; do
		case \$a in $edit esac
		args+=("\$a")
	done
	exec "$sb" "\${args[@]}"
	EOF
	chmod +x "$w"
	echo "$w"
}

# watch_threads PID OUT: "tid allowed last_cpu" per thread of PID, in
# creation order, from the snapshot with the most distinct pinned CPUs and,
# of those, the fewest pinned threads (lab_threads)
watch_threads() { "$lab_threads" "$1" >"$2"; }

# watch_numa PID OUT: until PID exits, keep the last /proc/PID/numa_maps lines
# with a bind policy (the shared state stratbench put on its home node) in
# OUT, and in OUT.pages "ADDR NODE": the node move_pages(2) reports for the
# first page of each.  PID is stopped while it is looked at, so a mapping
# seen in numa_maps is still there when move_pages asks.
watch_numa() {
	local pid=$1 out=$2 addr
	: >"$out"
	: >"$out.pages"
	while kill -STOP "$pid" 2>/dev/null; do
		grep ' bind:' "/proc/$pid/numa_maps" >"$out.now" 2>/dev/null
		if [ -s "$out.now" ]; then
			cp "$out.now" "$out"
			for addr in $(awk '{ print $1 }' "$out.now"); do
				grep -q "^$addr " "$out.pages" ||
					"$lab_numa" pages "$pid" "$addr" >>"$out.pages" 2>/dev/null
			done
		fi
		kill -CONT "$pid" 2>/dev/null
		sleep 0.05
	done
	rm -f "$out.now"
}
