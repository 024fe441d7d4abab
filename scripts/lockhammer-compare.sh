#!/usr/bin/env bash
# lockhammer-compare.sh — our locks beside lockhammer's
# (ARM-software/synchronization-benchmarks, benchmarks/lockhammer, built
# outside this repository, e.g. `make NO_JSON=1` → build.relax_pause/) in one
# sitting, alternating the two programs, with zero critical and parallel
# work, at each thread count of a list.
#   scripts/lockhammer-compare.sh [--threads=auto|LIST] [--locks=LIST]
#       [--rounds=N] [--out=DIR] [--dry-run] LOCKHAMMER_BUILD_DIR [ROUNDS]
#   --threads  thread counts, e.g. 1,2,8 (at most the machine's CPUs); auto
#              (default): where the answer can change: 1, 2, the cores of
#              one package, all cores, all CPUs (SMT siblings too), as
#              `stratbench topo` reports them, deduplicated
#   --locks    of ticket, queued, clh, pthread_mutex (default all four)
#   --rounds   rounds (default 3; the positional ROUNDS is the same)
#   --out=DIR  keep every raw output under DIR (lh/, ours/) and the tables
#              in DIR/compare.txt (default: a temporary directory, removed)
#   --dry-run  print the thread counts and each one's CPUs, run nothing
# At N threads both programs get the same N CPUs, thread i on the i-th
# smallest: one per core first (stratbench's `cores` plan: package by
# package), then SMT siblings (its `compact` order).  `--placement=compact`
# alone would not do: it fills SMT siblings first (hwloc tree order), while
# lockhammer's `-t N` takes CPUs 0..N-1, which on x86 are N distinct cores.
#   lockhammer: lh_<lock> -o CPUS -c 0 -p 0 -D 0.5 -n 3 -Y -Z -v
#               (median of its 3 measurements' locks/wall_sec)
#   stratbench: run --family=lock --strategy=<lock> --threads=N
#               --placement=list:CPUS --benchmark_min_time=0.5
#               --benchmark_repetitions=3 (median ops_per_s)
# Prints, per lock and thread count, each round's ours ÷ lockhammer and the
# median over rounds; then, at 1 thread, CPU ns per lock on both sides
# (thread CPU time / locks: ours Google Benchmark's cpu_ns, lockhammer's
# cputime_ns_per_lock_acquire), which other load on the machine does not
# inflate.
# Environment: SB_BIN=path/to/stratbench (default build/stratbench, built
# if missing).  With SB_BIN set this needs no compiler, no Debian package
# and no git: bash, coreutils and awk (scripts/lab-bundle.sh).
# Exit status: 0; 1 when a run fails; 2 for bad usage.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

usage="usage: lockhammer-compare.sh [--threads=auto|LIST] [--locks=LIST] [--rounds=N] [--out=DIR] [--dry-run] LOCKHAMMER_BUILD_DIR [ROUNDS]"
threads=auto rounds=3 out= dry=0 pos=()
want_locks="ticket queued clh pthread_mutex"
while [ $# -gt 0 ]; do
	case $1 in
	--threads=*) threads=${1#*=} ;;
	--locks=*) want_locks=${1#*=}; want_locks=${want_locks//,/ } ;;
	--rounds=*) rounds=${1#*=} ;;
	--out=*) out=${1#*=} ;;
	--dry-run) dry=1 ;;
	-h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 0 ;;
	-*) SB_DIE_RC=2 sb_die "unknown option '$1'; $usage" ;;
	*) pos+=("$1") ;;
	esac
	shift
done
[ ${#pos[@]} -ge 1 ] && [ ${#pos[@]} -le 2 ] || SB_DIE_RC=2 sb_die "$usage"
lh=${pos[0]}
[ ${#pos[@]} -lt 2 ] || rounds=${pos[1]}
[[ $rounds =~ ^[1-9][0-9]*$ ]] || SB_DIE_RC=2 sb_die "bad ROUNDS '$rounds' (want a positive integer)"
locks=
for l in $want_locks; do
	case $l in
	ticket) locks+=" ticket:lh_ticket_spinlock" ;;
	queued) locks+=" queued:lh_queued_spinlock" ;;
	clh) locks+=" clh:lh_clh_spinlock" ;;
	pthread_mutex) locks+=" pthread_mutex:lh_pthread_mutex_lock" ;;
	*) SB_DIE_RC=2 sb_die "unknown lock '$l' in --locks (want ticket, queued, clh, pthread_mutex)" ;;
	esac
done
[ -n "$locks" ] || SB_DIE_RC=2 sb_die "--locks names no lock"
for pair in $locks; do
	[ -x "$lh/${pair#*:}" ] || SB_DIE_RC=2 sb_die "$lh/${pair#*:} is missing: not a lockhammer build directory"
done
if [ -n "${SB_BIN:-}" ]; then
	# a carried binary (the lab bundle): never build, never apt-get
	sb=$SB_BIN
	[ -x "$sb" ] || SB_DIE_RC=2 sb_die "SB_BIN=$sb is not an executable"
else
	sb=$SB_ROOT/build/stratbench
	if [ ! -x "$sb" ]; then
		sb_need_pkgs $SB_BUILD_PKGS
		sb_build "$SB_ROOT/build" >/dev/null
	fi
fi

# The machine as stratbench sees it: "machine: P packages, M NUMA nodes, C
# cores, U PUs ...", and the cores and compact plans (thread i -> CPU c
# (package p, ...)).
topo=$("$sb" topo) || sb_die "stratbench topo failed"
read -r ncores npus < <(awk 'NR == 1 {
	for (i = 1; i <= NF; i++) { if ($i ~ /^cores/) c = $(i - 1); if ($i ~ /^PUs/) u = $(i - 1) }
	print c, u }' <<<"$topo")
[[ ${ncores:-} =~ ^[1-9][0-9]*$ && ${npus:-} =~ ^[1-9][0-9]*$ ]] ||
	sb_die "cannot read cores and PUs from stratbench topo's first line: $(head -1 <<<"$topo")"
plan() {	# plan PLACEMENT N: "cpu package" per thread
	"$sb" topo --placement="$1" --threads="$2" |
		sed -n 's/^  thread [0-9]* -> CPU \([0-9]*\) (package \([0-9]*\),.*/\1 \2/p'
}
cores_plan=$(plan cores "$ncores") || sb_die "stratbench topo --placement=cores failed"
compact_plan=$(plan compact "$npus") || sb_die "stratbench topo --placement=compact failed"
# one per core, package by package, then the SMT siblings in compact order
order=$( { awk '{ print $1 }' <<<"$cores_plan"; awk '{ print $1 }' <<<"$compact_plan"; } |
	awk '!seen[$1]++')
[ "$(wc -l <<<"$order")" -eq "$npus" ] || sb_die "stratbench topo's plans do not cover its $npus PUs"
pkgcores=$(awk 'NR == 1 { p = $2 } $2 == p { n++ } END { print n }' <<<"$cores_plan")

if [ "$threads" = auto ]; then
	counts=$(printf '%s\n' 1 2 "$pkgcores" "$ncores" "$npus" | awk -v u="$npus" '$1 <= u && !seen[$1]++' | sort -n)
else
	[[ $threads =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] ||
		SB_DIE_RC=2 sb_die "bad --threads '$threads' (want auto or a list of positive integers, e.g. 1,2,8)"
	counts=$(tr ',' '\n' <<<"$threads" | awk '!seen[$1]++')
	for t in $counts; do
		[ "$t" -le "$npus" ] || SB_DIE_RC=2 sb_die "--threads $t: this machine has $npus CPUs"
	done
fi
cpus_of() { head -n "$1" <<<"$order" | sort -n | paste -sd, -; }

if [ "$dry" -eq 1 ]; then
	echo "# $ncores cores ($pkgcores in a package), $npus PUs"
	for t in $counts; do echo "threads $t: CPUs $(cpus_of "$t")"; done
	exit 0
fi

if [ -n "$out" ]; then
	mkdir -p "$out/lh" "$out/ours" || sb_die "cannot create $out"
	raw=$out
else
	raw=$(mktemp -d /tmp/sb_lhcmp.XXXXXX)
	trap 'rm -rf "$raw"' EXIT
	mkdir -p "$raw/lh" "$raw/ours"
fi
rows=$raw/rows
: >"$rows"

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# run_lh BIN CPUS FILE: lockhammer's table: data rows start with the pinorder
# number; last column locks/wall_sec; -v adds cputime_ns_per_lock_acquire per
# measurement.  Prints "locks/s cpu_ns" (medians of its 3 measurements).
run_lh() {
	"$lh/$1" -o "$2" -c 0 -p 0 -D 0.5 -n 3 -Y -Z -v >"$3" 2>&1 ||
		sb_die "$1 -o $2 failed (exit $?; $3)"
	echo "$(awk '/^po +meas/ { t = 1; next } t && /^[0-9]/ { print $NF }' "$3" | median)" \
	     "$(awk '/^cputime_ns_per_lock_acquire/ { print $3 }' "$3" | median)"
}

# run_ours LOCK N CPUS DIR: prints "ops/s cpu_ns" of the median row
run_ours() {
	"$sb" run --family=lock --strategy="$1" --threads="$2" --placement="list:$3" \
		--benchmark_min_time=0.5 --benchmark_repetitions=3 --out="$4" >"$4.log" 2>&1 ||
		sb_die "stratbench run of $1 at $2 threads failed ($4.log)"
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["aggregate"] == "median" { print $c["ops_per_s"], $c["cpu_ns"] }' "$4/results.csv"
}

{
echo "# $(date -u +%FT%TZ) $(uname -n) $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# topology: $ncores cores ($pkgcores in a package), $npus PUs; thread counts: $(echo $counts)"
echo "# lockhammer: $lh"
echo "# stratbench: $sb ($("$sb" --version 2>/dev/null || echo unknown version))"
for t in $counts; do echo "# threads $t: CPUs $(cpus_of "$t") (both programs, thread i on the i-th)"; done
} | tee "$raw/header" >&2
for r in $(seq "$rounds"); do
	for pair in $locks; do
		lock=${pair%%:*} bin=${pair#*:}
		for t in $counts; do
			cpus=$(cpus_of "$t")
			f=$raw/lh/$lock.t$t.r$r.txt d=$raw/ours/$lock.t$t.r$r
			# alternate which program goes first, round by round
			if [ $((r % 2)) -eq 1 ]; then
				a=$(run_lh "$bin" "$cpus" "$f"); b=$(run_ours "$lock" "$t" "$cpus" "$d")
			else
				b=$(run_ours "$lock" "$t" "$cpus" "$d"); a=$(run_lh "$bin" "$cpus" "$f")
			fi
			set -- $b $a	# ours ops/s, ours cpu ns, lh locks/s, lh cpu ns
			[ $# -eq 4 ] || sb_die "no result for $lock at $t threads (round $r): ours '$b', lockhammer '$a'"
			echo "$lock $t $r $1 $3 $2 $4" >>"$rows"
			echo "round $r: $lock threads $t: ours $1/s lockhammer $3/s" >&2
		done
	done
done
{
cat "$raw/header"
printf '%-14s %7s %14s %14s %8s  %s\n' lock threads ours_ops/s lh_locks/s ratio "per round (ours ÷ lockhammer)"
for pair in $locks; do
	lock=${pair%%:*}
	for t in $counts; do
		sel=$(awk -v l="$lock" -v t="$t" '$1 == l && $2 == t' "$rows")
		o=$(awk '{ print $4 }' <<<"$sel" | median)
		h=$(awk '{ print $5 }' <<<"$sel" | median)
		ratios=$(awk '{ printf "%.2f\n", $4 / $5 }' <<<"$sel")
		rm=$(median <<<"$ratios")
		printf '%-14s %7s %14.0f %14.0f %8.2f  %s\n' "$lock" "$t" "$o" "$h" "$rm" "$(echo $ratios)"
	done
done
echo
printf '%-14s %12s %12s %8s   %s\n' lock ours_cpu_ns lh_cpu_ns "lh÷ours" "1 thread, CPU ns per lock (medians over rounds)"
for pair in $locks; do
	lock=${pair%%:*}
	sel=$(awk -v l="$lock" '$1 == l && $2 == 1' "$rows")
	[ -n "$sel" ] || continue
	o=$(awk '{ print $6 }' <<<"$sel" | median)
	h=$(awk '{ print $7 }' <<<"$sel" | median)
	printf '%-14s %12.2f %12.2f %8.2f\n' "$lock" "$o" "$h" "$(awk -v o="$o" -v h="$h" 'BEGIN { print h / o }')"
done
} >"$raw/compare.txt"
cat "$raw/compare.txt"
