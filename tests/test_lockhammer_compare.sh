#!/usr/bin/env bash
# test_lockhammer_compare.sh STRATBENCH — scripts/lockhammer-compare.sh on a
# planned (synthetic) machine with stub programs: a fake lockhammer build
# directory whose lh_* print lockhammer's table, and an SB_BIN that answers
# `topo` with the real binary on a synthetic topology and `run` with a
# results.csv.  It checks the auto thread counts (1, 2, a package's cores,
# all cores, all PUs; deduplicated; capped at the PUs), that both programs
# get the same CPUs at each count (one per core first), the ratios and
# medians printed, --out, the usage errors, and that a carried SB_BIN
# never reaches dpkg, apt-get, cmake or git.
set -u
real=$1
here=$(cd "$(dirname "$0")" && pwd)
cmp="$here/../scripts/lockhammer-compare.sh"
tmp=$(mktemp -d /tmp/sb_lhcmptest.XXXXXX)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT
. "$here/testlib.sh"

# lockhammer stubs: -o CPUS; three measurements of 1900, 2000, 2100 locks/s
# per thread (median 2000 N) and cputime lines (median 20 ns)
mkdir -p "$tmp/lh" "$tmp/bin" "$tmp/trap"
for b in lh_ticket_spinlock lh_queued_spinlock lh_clh_spinlock lh_pthread_mutex_lock; do
	cat >"$tmp/lh/$b" <<'EOF'
#!/usr/bin/env bash
echo "$(basename "$0") $*" >>"$LH_LOG"
while [ $# -gt 0 ]; do [ "$1" = -o ] && cpus=$2; shift; done
n=$(tr ',' '\n' <<<"$cpus" | wc -l)
echo "po  name  cpus"
echo "0   $cpus   ${cpus//,/ }"
for m in 1 2 3; do echo "cputime_ns_per_lock_acquire = $((18 + m)).000000 [cpu_ns/lock]"; done
echo "po  meas  test  iter  thrds | cpu_ns/lock - crit_ns - par_ns  = overhead_ns % | lasom | locks/wall_sec"
for m in 1 2 3; do echo "0   $m     1     1     $n     | 20  0  0  20  100% | 1.000 | $(( (1800 + 100 * m) * n ))"; done
EOF
	chmod +x "$tmp/lh/$b"
done
# SB_BIN stub: topo from the real binary on $TOPO; run writes a median row
# of 1000 ops/s per thread (queued: 1500) and cpu_ns 10
cat >"$tmp/sb" <<'EOF'
#!/usr/bin/env bash
case $1 in
--version) echo "stratbench stub" ;;
topo) shift; exec "$REAL_SB" topo --topology="$TOPO" "$@" ;;
run)
	echo "run $*" >>"$SB_LOG"
	for a; do case $a in --threads=*) n=${a#*=} ;; --out=*) out=${a#*=} ;; --strategy=*) s=${a#*=} ;; esac; done
	mkdir -p "$out"
	ops=$((1000 * n)); [ "$s" = queued ] && ops=$((1500 * n))
	printf 'name,ops_per_s,aggregate,cpu_ns\nx,1,mean,99\nx,%s,median,10\n' "$ops" >"$out/results.csv" ;;
*) exit 2 ;;
esac
EOF
chmod +x "$tmp/sb"
# anything that would build or install leaves a mark
for p in dpkg-query apt-get cmake git; do
	printf '#!/bin/sh\ntouch "%s/%s"; exit 1\n' "$tmp/trap" "$p" >"$tmp/bin/$p"
	chmod +x "$tmp/bin/$p"
done
export REAL_SB=$real SB_BIN=$tmp/sb LH_LOG=$tmp/lh.log SB_LOG=$tmp/sb.log PATH="$tmp/bin:$PATH"

run_cmp() { : >"$LH_LOG"; : >"$SB_LOG"; bash "$cmp" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; }
line() { grep -E "$1" "$tmp/out" | tr -s ' '; }

# 2 packages of 4 cores, 2 PUs per core: auto = 1, 2, 4, 8, 16
export TOPO="synthetic:pack:2 core:4 pu:2"
run_cmp --dry-run "$tmp/lh"
check "dry run exits 0 (rc $rc: $(head -2 "$tmp/err"))" [ "$rc" -eq 0 ]
check "auto: 1 2 4 8 16" [ "$(sed -n 's/^threads \([0-9]*\):.*/\1/p' "$tmp/out" | paste -sd' ' -)" = "1 2 4 8 16" ]
check "2 threads: two cores, not SMT siblings" grep -qx "threads 2: CPUs 0,2" "$tmp/out"
check "a package's cores" grep -qx "threads 4: CPUs 0,2,4,6" "$tmp/out"
check "all cores, both packages" grep -qx "threads 8: CPUs 0,2,4,6,8,10,12,14" "$tmp/out"
check "all PUs" grep -qx "threads 16: CPUs 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15" "$tmp/out"
check "dry run runs nothing" [ ! -s "$LH_LOG" -a ! -s "$SB_LOG" ]

run_cmp --locks=queued,ticket --rounds=3 --out="$tmp/res" "$tmp/lh"
check "a run exits 0 (rc $rc: $(head -2 "$tmp/err"))" [ "$rc" -eq 0 ]
check "ours got list:0,2 at 2 threads" grep -q -- "--strategy=queued --threads=2 --placement=list:0,2 " "$SB_LOG"
check "lockhammer got -o 0,2 at 2 threads" grep -q "lh_queued_spinlock -o 0,2 -c 0 -p 0" "$LH_LOG"
check "  and -o 0,2,4,6 at 4" grep -q "lh_ticket_spinlock -o 0,2,4,6 " "$LH_LOG"
check "3 rounds x 2 locks x 5 counts on each side" [ "$(wc -l <"$LH_LOG")" -eq 30 -a "$(wc -l <"$SB_LOG")" -eq 30 ]
check "queued at 2: medians, ratio, per round" [ "$(line '^queued +2 ')" = "queued 2 3000 4000 0.75 0.75 0.75 0.75" ]
check "ticket at 16" [ "$(line '^ticket +16 ')" = "ticket 16 16000 32000 0.50 0.50 0.50 0.50" ]
check "1-thread CPU ns: 10 vs 20" [ "$(line '^ticket +10\.00 ')" = "ticket 10.00 20.00 2.00" ]
check "no other lock" [ -z "$(grep -E '^(clh|pthread_mutex) ' "$tmp/out")" ]
check "--out keeps the table" cmp -s "$tmp/out" "$tmp/res/compare.txt"
check "  and the raw outputs" [ -s "$tmp/res/lh/queued.t2.r1.txt" -a -s "$tmp/res/ours/ticket.t16.r3/results.csv" ]
check "the header names the CPUs" grep -q "^# threads 8: CPUs 0,2,4,6,8,10,12,14 " "$tmp/out"
check "nothing built, installed or asked of git" [ -z "$(ls "$tmp/trap")" ]

# one package, no SMT: 2 = a package = all cores = all PUs
export TOPO="synthetic:pack:1 core:2 pu:1"
run_cmp --dry-run "$tmp/lh"
check "dedup: auto is 1 2" [ "$(sed -n 's/^threads \([0-9]*\):.*/\1/p' "$tmp/out" | paste -sd' ' -)" = "1 2" ]
# one CPU: 2 is capped away
export TOPO="synthetic:pack:1 core:1 pu:1"
run_cmp --dry-run "$tmp/lh"
check "cap: auto is 1 on one CPU" [ "$(sed -n 's/^threads \([0-9]*\):.*/\1/p' "$tmp/out" | paste -sd' ' -)" = "1" ]
run_cmp --threads=1 --locks=clh --rounds=1 "$tmp/lh"
check "an explicit list runs (rc $rc)" [ "$rc" -eq 0 ]
check "  and prints clh at 1 thread" grep -qE '^clh +1 +1000 +2000 +0\.50' "$tmp/out"

# usage: exit 2, one line
usage() {
	local what=$1; shift
	run_cmp "$@"
	check "$what: rc $rc, $(wc -l <"$tmp/err") line(s): $(head -1 "$tmp/err")" \
		[ "$rc" -eq 2 -a "$(wc -l <"$tmp/err")" -eq 1 ]
}
export TOPO="synthetic:pack:1 core:2 pu:2"
usage "more threads than PUs" --threads=1,5 "$tmp/lh"
usage "a bad list" --threads=1,,2 "$tmp/lh"
usage "zero threads" --threads=0 "$tmp/lh"
usage "an unknown lock" --locks=mcs "$tmp/lh"
usage "bad rounds" "$tmp/lh" 0
usage "not a lockhammer dir" "$tmp"
usage "an unknown option" --bogus "$tmp/lh"
SB_BIN=$tmp/nonexistent usage "SB_BIN not executable" "$tmp/lh"
check "  and it did not build" [ -z "$(ls "$tmp/trap")" ]
finish test_lockhammer_compare
