#!/usr/bin/env bash
# test_lab_bundle.sh STRATBENCH [SANITIZE] — scripts/lab-bundle.sh makes a
# bundle of STRATBENCH and a (stub) lockhammer build directory that runs
# from anywhere with nothing but its own libraries: it passes its own checks
# (every library but glibc's from lib/, --version and a short lock run under
# env -i, also through the bundled loader; under 40 MiB), holds what
# run-on-lab.sh needs, has no glibc object in lib/, and still runs moved to
# another directory, where run-on-lab.sh runs the comparison with PATH=/bin
# only.  A sanitizer build is not a lab binary: skipped (77).
set -u
sb=$1
[ -z "${2:-}" ] || { echo "test_lab_bundle: skipped under -fsanitize=$2"; exit 77; }
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d /tmp/sb_bundletest.XXXXXX)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT
. "$here/testlib.sh"

# stub lockhammer: prints its table for -o CPUS (50M locks/s, 20 ns)
mkdir -p "$tmp/lh"
for b in lh_ticket_spinlock lh_queued_spinlock lh_clh_spinlock lh_pthread_mutex_lock; do
	cat >"$tmp/lh/$b" <<'EOF'
#!/bin/bash
while [ $# -gt 0 ]; do [ "$1" = -o ] && cpus=$2; shift; done
for m in 1 2 3; do echo "cputime_ns_per_lock_acquire = 20.0 [cpu_ns/lock]"; done
echo "po  meas  test  iter  thrds | cpu_ns/lock - crit_ns - par_ns  = overhead_ns % | lasom | locks/wall_sec"
for m in 1 2 3; do echo "0   $m     1     1     1     | 20  0  0  20  100% | 1.000 | 50000000"; done
EOF
	chmod +x "$tmp/lh/$b"
done
touch "$tmp/lh/lh_not_executable.o"

SB_BIN=$sb bash "$here/../scripts/lab-bundle.sh" --out="$tmp/b" "$tmp/lh" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "lab-bundle.sh passes its own checks (rc $rc: $(tail -3 "$tmp/err"))" [ "$rc" -eq 0 ]
check "  and says where the bundle is" grep -q "^bundle: $tmp/b (" "$tmp/out"
for f in stratbench run-on-lab.sh MANIFEST scripts/lockhammer-compare.sh scripts/lib.sh \
	lockhammer/lh_queued_spinlock lockhammer/lh_pthread_mutex_lock loader/stratbench; do
	check "the bundle has $f" [ -s "$tmp/b/$f" ]
done
check "no lh_ non-executable" [ ! -e "$tmp/b/lockhammer/lh_not_executable.o" ]
for l in libbenchmark libhwloc libpfm libjansson libstdc++; do
	check "lib/ has $l" [ -n "$(ls "$tmp/b/lib/$l".so* 2>/dev/null)" ]
done
check "no glibc object in lib/ itself" [ -z "$(ls "$tmp/b/lib" | grep -E '^(libc|libm|ld-linux)')" ]
check "lib/glibc has the loader" [ -n "$(ls "$tmp/b/lib/glibc/" | grep '^ld-linux')" ]
check "MANIFEST names the glibc it needs" grep -q "^glibc needed without loader/: GLIBC_2\." "$tmp/b/MANIFEST"
check "MANIFEST has every file's sha256" [ "$(grep -c '  \./' "$tmp/b/MANIFEST")" -eq "$(find "$tmp/b" -type f ! -name MANIFEST | wc -l)" ]

# moved: nothing points back at where it was made
mv "$tmp/b" "$tmp/moved"
v=$(env -i LD_LIBRARY_PATH="$tmp/moved/lib" "$tmp/moved/stratbench" --version)
check "moved, --version with only its lib/ ($v)" [ "${v#stratbench }" != "$v" ]
check "moved, through the loader" [ "$(env -i "$tmp/moved/loader/stratbench" --version)" = "$v" ]
env -i PATH=/bin bash "$tmp/moved/run-on-lab.sh" "$tmp/lab" --threads=1 --locks=ticket --rounds=1 \
	>"$tmp/lab.out" 2>&1
rc=$?
check "run-on-lab.sh runs a comparison with PATH=/bin (rc $rc: $(tail -2 "$tmp/lab.out"))" [ "$rc" -eq 0 ]
check "  its table is in OUT/compare.txt" grep -qE '^ticket +1 +[0-9]+ +50000000 ' "$tmp/lab/compare.txt"
check "  with the bundle's stratbench" grep -q "^# stratbench: $tmp/moved/stratbench ($v)" "$tmp/lab/compare.txt"
check "  and OUT/topo.txt" grep -q "^machine: " "$tmp/lab/topo.txt"
SB_BIN=$sb bash "$here/../scripts/lab-bundle.sh" --out="$tmp/c" "$tmp" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "no lh_* there: exit 2 (rc $rc)" [ "$rc" -eq 2 ]
finish test_lab_bundle
