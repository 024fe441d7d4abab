#!/usr/bin/env bash
# lab-bundle.sh — a directory to carry to a lab machine that has no Debian
# packages, no compiler and no git, to run scripts/lockhammer-compare.sh
# there: stratbench, the shared libraries it needs, lockhammer's binaries,
# the script and a run-on-lab.sh.
#   scripts/lab-bundle.sh [--out=DIR] LOCKHAMMER_BUILD_DIR
#   --out=DIR   the bundle (default build-lab-bundle/; replaced)
#   LOCKHAMMER_BUILD_DIR   lockhammer built outside this repository, e.g.
#               benchmarks/lockhammer/build.relax_pause (`make NO_JSON=1`)
# Environment: SB_BIN=path/to/stratbench to bundle (default build/stratbench,
# built if missing).
# The bundle:
#   stratbench              the binary
#   lib/                    what ldd says it needs beyond glibc (libbenchmark,
#                           libhwloc, libpfm, libjansson, libstdc++, libgcc_s,
#                           libudev, ...)
#   lib/glibc/              glibc's libc, libm and loader, for a machine whose
#                           glibc is older than the build's (MANIFEST says which)
#   lockhammer/lh_*         lockhammer's binaries (libc and libm only)
#   loader/                 the same programs started through lib/glibc's loader
#   scripts/                lockhammer-compare.sh and lib.sh
#   run-on-lab.sh OUT [lockhammer-compare options]
#                           runs the comparison at the auto thread counts,
#                           results and tables under OUT
#   MANIFEST                versions, the glibc needed, sha256 of every file
# It checks itself before it says done: the bundle's stratbench resolves
# every library but glibc's from lib/, runs `--version` and a short lock run
# under `env -i`, also through the loader, and the bundle is under 40 MiB.
# Exit status: 0; 1 when a check fails; 2 for bad usage.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out=$SB_ROOT/build-lab-bundle lh=
for a in "$@"; do
	case $a in
	--out=*) out=${a#*=} ;;
	-h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 0 ;;
	-*) SB_DIE_RC=2 sb_die "unknown option '$a'" ;;
	*) [ -z "$lh" ] || SB_DIE_RC=2 sb_die "one LOCKHAMMER_BUILD_DIR only"; lh=$a ;;
	esac
done
[ -n "$lh" ] || SB_DIE_RC=2 sb_die "usage: lab-bundle.sh [--out=DIR] LOCKHAMMER_BUILD_DIR"
lhbins=$(find "$lh" -maxdepth 1 -type f -name 'lh_*' -perm -u+x 2>/dev/null | sort)
[ -n "$lhbins" ] || SB_DIE_RC=2 sb_die "$lh has no lh_* executables: not a lockhammer build directory"
sb=${SB_BIN:-$SB_ROOT/build/stratbench}
if [ ! -x "$sb" ]; then
	[ -z "${SB_BIN:-}" ] || SB_DIE_RC=2 sb_die "SB_BIN=$sb is not an executable"
	sb_need_pkgs $SB_BUILD_PKGS
	sb_build "$SB_ROOT/build" >/dev/null
fi

case $out in /|"$SB_ROOT"|"$HOME") sb_die "refusing --out=$out" ;; esac
rm -rf "$out"
mkdir -p "$out/lib/glibc" "$out/lockhammer" "$out/loader/lockhammer" "$out/scripts"
cp "$sb" "$out/stratbench"
for b in $lhbins; do cp "$b" "$out/lockhammer/"; done
cp "$SB_ROOT/scripts/lockhammer-compare.sh" "$SB_ROOT/scripts/lib.sh" "$out/scripts/"

# glibc's own objects: the lab has a glibc (its bash runs); lib/glibc is the
# fallback when it is too old
is_glibc() {
	case $1 in
	libc.so.*|libm.so.*|libpthread.so.*|libdl.so.*|librt.so.*|ld-linux*|linux-vdso*|libresolv.so.*) return 0 ;;
	*) return 1 ;;
	esac
}
loader=
# ldd FILE lines: "name => /path (addr)", "/lib64/ld-linux-x86-64.so.2 (addr)"
ldd "$sb" >"$out/.ldd" || sb_die "ldd $sb failed"
for f in $lhbins; do ldd "$f" || true; done >>"$out/.ldd"	# a static one has nothing to add
awk '$2 == "=>" && $3 ~ /^\// { print $1, $3 } $1 ~ /^\// && $2 ~ /^\(/ { print "LOADER", $1 }' \
	"$out/.ldd" | sort -u >"$out/.libs"
while read -r name path; do
	if [ "$name" = LOADER ]; then
		loader=$(basename "$path")
		cp -L "$path" "$out/lib/glibc/$loader"
	elif is_glibc "$name"; then
		cp -L "$path" "$out/lib/glibc/$name"
	else
		cp -L "$path" "$out/lib/$name"
	fi
done <"$out/.libs"
rm "$out/.libs" "$out/.ldd"
[ -n "$loader" ] || sb_die "ldd names no dynamic loader for $sb"

# loader/: the programs through the bundled glibc (no host library at all)
wrap() {	# wrap WRAPPER TARGET (relative to the bundle)
	cat >"$1" <<EOF
#!/bin/sh
# through the bundle's glibc: for a lab machine whose glibc is older than $(basename "$2") needs
b=\$(cd "\$(dirname "\$0")/$3" && pwd)
exec "\$b/lib/glibc/$loader" --library-path "\$b/lib:\$b/lib/glibc" "\$b/$2" "\$@"
EOF
	chmod +x "$1"
}
wrap "$out/loader/stratbench" stratbench ..
for b in $lhbins; do wrap "$out/loader/lockhammer/$(basename "$b")" "lockhammer/$(basename "$b")" ../..; done

cat >"$out/run-on-lab.sh" <<'EOF'
#!/usr/bin/env bash
# run-on-lab.sh OUT [lockhammer-compare.sh options] — stratbench's locks
# beside lockhammer's at the auto thread counts (1, 2, a package, all cores,
# all CPUs), everything under OUT: compare.txt (the tables), topo.txt,
# lh/ and ours/ (raw outputs), run.log.  Needs bash, coreutils and awk;
# nothing installed.  Uses the machine's glibc when it is new enough, else
# the bundle's (loader/).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 1 ] || { echo "usage: run-on-lab.sh OUT [lockhammer-compare.sh options]" >&2; exit 2; }
out=$1; shift
mkdir -p "$out"
export LD_LIBRARY_PATH=$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
if "$here/stratbench" --version >"$out/version.txt" 2>"$out/version.err"; then
	export SB_BIN=$here/stratbench lhdir=$here/lockhammer
else
	echo "run-on-lab.sh: the machine's glibc cannot run it ($(head -1 "$out/version.err")); using the bundle's" >&2
	unset LD_LIBRARY_PATH
	export SB_BIN=$here/loader/stratbench lhdir=$here/loader/lockhammer
	"$SB_BIN" --version >"$out/version.txt"
fi
{ uname -a; cat /proc/loadavg; "$SB_BIN" topo; } >"$out/topo.txt" 2>&1
cat "$out/topo.txt"
bash "$here/scripts/lockhammer-compare.sh" --threads=auto --out="$out" "$@" "$lhdir" 2>&1 |
	tee "$out/run.log"
EOF
chmod +x "$out/run-on-lab.sh"

{
	echo "stratbench bundle for scripts/lockhammer-compare.sh (scripts/lab-bundle.sh)"
	echo "made: $(date -u +%FT%TZ) on $(uname -n) ($(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME"), $(uname -m))"
	echo "stratbench: $("$sb" --version)"
	echo "lockhammer: $(cd "$lh" && pwd)"
	echo "glibc needed without loader/: $(cd "$out" && find stratbench lib lockhammer -maxdepth 1 -type f \
		-exec objdump -T {} \; 2>/dev/null | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -1)"
	echo "sha256:"
	(cd "$out" && find . -type f ! -name MANIFEST | sort | xargs sha256sum)
} >"$out/MANIFEST"

# the checks: only the bundle's libraries, glibc's aside
fail=0
bad() { echo "lab-bundle.sh: FAILED: $*" >&2; fail=1; }
outside=$(env -i LD_LIBRARY_PATH="$out/lib" LD_TRACE_LOADED_OBJECTS=1 "$out/stratbench" |
	awk '$2 == "=>" { print $1, $3 }' | while read -r n p; do
		is_glibc "$n" || case $p in "$out/lib/"*) ;; *) echo "$n=$p" ;; esac
	done)
[ -z "$outside" ] || bad "libraries from outside the bundle: $outside"
outside=$("$out/lib/glibc/$loader" --library-path "$out/lib:$out/lib/glibc" --list "$out/stratbench" |
	awk '$2 == "=>" { print $1, $3 }' | while read -r n p; do
		case $p in "$out/lib/"*) ;; *) echo "$n=$p" ;; esac
	done)
[ -z "$outside" ] || bad "through the loader, libraries from outside the bundle: $outside"
v=$(env -i LD_LIBRARY_PATH="$out/lib" "$out/stratbench" --version) || bad "stratbench --version"
[ "$(env -i "$out/loader/stratbench" --version)" = "$v" ] || bad "loader/stratbench --version"
smoke=$(mktemp -d /tmp/sb_bundle.XXXXXX)
trap 'rm -rf "$smoke"' EXIT
env -i LD_LIBRARY_PATH="$out/lib" "$out/stratbench" run --family=lock --strategy=ticket --threads=1 \
	--benchmark_min_time=0.01 --out="$smoke/a" >"$smoke/a.log" 2>&1 &&
	grep -q '^lock/ticket/threads:1' "$smoke/a/results.csv" ||
	{ cat "$smoke/a.log" >&2; bad "a lock run with the bundle's libraries"; }
env -i "$out/loader/stratbench" run --family=lock --strategy=ticket --threads=1 \
	--benchmark_min_time=0.01 --out="$smoke/b" >"$smoke/b.log" 2>&1 &&
	grep -q '^lock/ticket/threads:1' "$smoke/b/results.csv" ||
	{ cat "$smoke/b.log" >&2; bad "a lock run through the loader"; }
env -i PATH=/usr/bin:/bin bash "$out/run-on-lab.sh" "$smoke/dry" --dry-run >"$smoke/dry.log" 2>&1 &&
	grep -q '^threads 1: CPUs ' "$smoke/dry.log" ||
	{ cat "$smoke/dry.log" >&2; bad "run-on-lab.sh --dry-run"; }
kib=$(du -sk "$out" | cut -f1)
[ "$kib" -lt $((40 * 1024)) ] || bad "the bundle is $kib KiB (want < 40 MiB)"
[ "$fail" -eq 0 ] || exit 1
echo "bundle: $out ($((kib / 1024)) MiB, $(find "$out" -type f | wc -l) files); $v"
echo "on the lab machine: bash $(basename "$out")/run-on-lab.sh OUT_DIR"
