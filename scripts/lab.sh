#!/usr/bin/env bash
# lab.sh — a multi-socket NUMA lab machine in qemu (TCG, no KVM needed): boot
# a lab shape and run the lab test set, or a command, inside it.
#   scripts/lab.sh [--shape=2s|2s-smt|p9-2n] [--timeout=SEC] [--mem=MB] [--tcg=multi|single]
#                   [--static-keys=hold|flip] [--append=ARGS] [--kernel=K] [--qemu=Q]
#                   [--results=DIR] [-- COMMAND [ARG...]]
#   --shape=2s      2 packages x 2 cores, 2 NUMA nodes (default)
#   --shape=2s-smt  2 packages x 2 cores x 2 threads, 2 NUMA nodes
#   --shape=p9-2n   POWER9 (pseries, ppc64el cross build): 2 sockets x 2
#                   cores, 2 NUMA nodes, no SMT under TCG; default COMMAND:
#                   the lab tests that apply there (scripts/lab-ppc64.sh)
#   --timeout=SEC   power the guest off after SEC seconds (default 1800)
#   --mem=MB        memory per NUMA node (default 384)
#   --tcg=multi|single  one host thread per vCPU (default), or all vCPUs in
#                   one host thread, taking turns (slower; no true races)
#   --static-keys=hold  keep the guest's perf static keys set (default): with
#                   --tcg=multi, QEMU 7.2 runs stale code after the kernel
#                   patches one and the guest wedges (tests/lab/lab_hold.c)
#   --static-keys=flip  let them flip, as on a real machine (to check a QEMU)
#   --append=ARGS   more guest kernel parameters, e.g. 'ignore_loglevel' to
#                   see the backtraces of a soft lockup or an RCU stall
#   --kernel=bookworm   Debian bookworm's kernel, 6.1 (default)
#   --kernel=backports  bookworm-backports' linux-image-amd64 (6.12), fetched
#                   with apt-get download against a private sources list and
#                   state under build-lab/apt (the host's apt is untouched)
#   --kernel=PATH   a kernel image you built (bzImage); its .config (next to
#                   it as config-*, in its tree, or built in) must have what
#                   the init needs built in: it loads no modules
#   --qemu=bookworm|backports  the host's QEMU 7.2 (default), or
#                   bookworm-backports' qemu-system-x86 (10.0), fetched the
#                   same way and run from build-lab/apt (docs/lab-ab.md)
#   --results=DIR   what the guest command writes under $SB_LAB_OUT comes
#                   back into DIR (created; packed on a third serial port)
#   COMMAND         run in the guest in the source directory (bash -c when one
#                   word with spaces); default: the lab test set, tests/lab/run.sh
# Exit status: the guest command's; 1 when the guest hangs, panics or stops
# without reporting; 2 for bad usage.  Timing in the guest means nothing.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

shape=2s timeout=1800 mem=384 tcg=multi keys=hold append= kernel=bookworm qemu=bookworm results= cmd=()
while [ $# -gt 0 ]; do
	case $1 in
	--shape=*) shape=${1#*=} ;;
	--timeout=*) timeout=${1#*=} ;;
	--mem=*) mem=${1#*=} ;;
	--tcg=*) tcg=${1#*=} ;;
	--static-keys=*) keys=${1#*=} ;;
	--append=*) append=${1#*=} ;;
	--kernel=*) kernel=${1#*=} ;;
	--qemu=*) qemu=${1#*=} ;;
	--results=*) results=${1#*=} ;;
	--) shift; cmd=("$@"); break ;;
	-h|--help) sed -n '2,37p' "$0"; exit 0 ;;
	*) SB_DIE_RC=2 sb_die "unknown option '$1' (see --help)" ;;
	esac
	shift
done
case $shape in
2s) smp=4,sockets=2,cores=2,threads=1 npus=4 ncores=4 ;;
2s-smt) smp=8,sockets=2,cores=2,threads=2 npus=8 ncores=4 ;;
p9-2n) ;;	# lab_ppc64, below
*) SB_DIE_RC=2 sb_die "unknown shape '$shape' (want 2s, 2s-smt or p9-2n)" ;;
esac
[[ $timeout =~ ^[1-9][0-9]*$ ]] || SB_DIE_RC=2 sb_die "bad --timeout '$timeout' (want seconds)"
case $tcg in multi|single) ;; *) SB_DIE_RC=2 sb_die "bad --tcg '$tcg' (want multi or single)" ;; esac
case $keys in hold|flip) ;; *) SB_DIE_RC=2 sb_die "bad --static-keys '$keys' (want hold or flip)" ;; esac
[[ $mem =~ ^[1-9][0-9]*$ ]] && [ "$mem" -ge 128 ] ||
	SB_DIE_RC=2 sb_die "bad --mem '$mem' (want MB per node, at least 128)"
case $qemu in bookworm|backports) ;; *) SB_DIE_RC=2 sb_die "bad --qemu '$qemu' (want bookworm or backports)" ;; esac
case $kernel in
bookworm|backports) ;;
'') SB_DIE_RC=2 sb_die "empty --kernel (want bookworm, backports or a kernel image)" ;;
*) [ -f "$kernel" ] || SB_DIE_RC=2 sb_die "--kernel '$kernel': no such file (want bookworm, backports or a kernel image)"
   kernel=$(readlink -f "$kernel") ;;
esac
[ -z "$results" ] || [ ! -e "$results" ] || [ -d "$results" ] ||
	SB_DIE_RC=2 sb_die "--results '$results' exists and is not a directory"
if [ "$shape" = p9-2n ]; then
	. "$SB_ROOT/scripts/lab-ppc64.sh"
	lab_ppc64	# exits with the guest command's status
fi

# gnuplot-nox: the regular test suite draws plots inside the guest too
sb_need_pkgs $SB_BUILD_PKGS qemu-system-x86 busybox-static cpio gnuplot-nox
build=$SB_ROOT/build-lab
mkdir -p "$build"
sb_build "$build" >"$build/lab-build.log" 2>&1 ||
	{ tail -30 "$build/lab-build.log" >&2; sb_die "build failed ($build/lab-build.log)"; }
lab=$build/lab
mkdir -p "$lab"

# --- the guest kernel: Debian's own, from the linux-image-*-amd64 package,
# unpacked into the build directory (never installed into /boot) -------------
. "$SB_ROOT/scripts/lab-kernel.sh"
vmlinuz=$(lab_kernel "$kernel")
lab_kernel_check "$vmlinuz"
qemu_bin=$(lab_qemu "$qemu")

# --- the initramfs: busybox, the host's bash/coreutils/ctest/gnuplot, the
# build's programs, their libraries (ldd), the sources the tests read --------
root=$lab/root-$shape
rm -rf "$root" && mkdir -p "$root"/{proc,sys,dev,run,root,lab,etc,usr/bin} && install -d -m 1777 "$root/tmp"

# libs_in FILE: the libraries an ELF file loads, into the image at their paths
libs_in() {
	local lib
	head -c4 "$1" | grep -q ELF || return 0
	for lib in $(ldd "$1" 2>/dev/null | awk '/=> \// { print $3 } /^\t\/[^ ]+ \(/ { print $1 }'); do
		[ -e "$root$lib" ] || { mkdir -p "$root$(dirname "$lib")"; cp -L "$lib" "$root$lib"; }
	done
}
# copy_in FILE: FILE into the image at the same path, with its libraries
copy_in() {
	local f=$1
	[ -e "$root$f" ] && return 0
	mkdir -p "$root$(dirname "$f")"
	cp -L "$f" "$root$f"
	libs_in "$f"
}

tools="bash env sh grep sed awk sort uniq cut tr head tail wc cat md5sum mktemp chmod rm
	mkdir rmdir ls touch id nproc date sleep timeout cp mv ln readlink dirname basename
	uname tee seq find xargs stat paste diff cmp taskset printf kill ps ctest cmake gnuplot
	script setpriv base64 gzip tar"
for t in $tools; do
	p=$(command -v "$t" 2>/dev/null) || continue
	case $p in /*) copy_in "$p" ;; esac
done
copy_in "$(readlink -f "$(command -v gnuplot)")"
# ctest reads its CMake modules directory; gnuplot its start-up files, and
# its png terminal fontconfig's configuration and fonts (else it warns,
# and plot.sh treats a gnuplot warning as an error)
for d in /usr/share/cmake-*/Modules /usr/share/gnuplot /etc/fonts /usr/share/fonts; do
	[ -d "$d" ] && mkdir -p "$root$d" && cp -a "$d/." "$root$d/"
done
# busybox for everything else (mount, poweroff, ...), never over a host tool
cp /bin/busybox "$root/usr/bin/busybox"
for a in $("$root/usr/bin/busybox" --list); do
	[ -e "$root/usr/bin/$a" ] || ln -s busybox "$root/usr/bin/$a"
done
for d in bin sbin usr/sbin; do [ -e "$root/$d" ] || ln -s /usr/bin "$root/$d"; done
[ -e "$root/lib64" ] || mkdir -p "$root/lib64"

# the sources the tests read (scripts, plots, tests) and the built programs,
# at their paths on this machine, so CTest's files work unchanged
mkdir -p "$root$SB_ROOT"
tar -C "$SB_ROOT" --exclude='./build*' --exclude=./.git --exclude=./results -cf - . |
	tar -C "$root$SB_ROOT" -xf -
# the build tree without objects (CTest, cmake --install and the tests use it),
# nor the private apt (apt: the backports kernel's and QEMU's debs) and
# lab-ab.sh's results (ab*)
mkdir -p "$root$build"
tar -C "$build" --exclude=./lab --exclude=./apt --exclude='./ab*' --exclude='*.o' -cf - . | tar -C "$root$build" -xf -
(cd "$build" && find . \( -path ./lab -o -path ./apt -o -path './ab*' \) -prune -o -type f -perm -u+x -print) | while read -r f; do
	libs_in "$build/${f#./}"
done
# nobody: test_cli runs stratbench unprivileged (setpriv) to see its counters refused
printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n' >"$root/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' >"$root/etc/group"

install -m 755 "$SB_ROOT/tests/lab/init" "$root/init"
{
	printf 'SB_ROOT=%q\nSB_BUILD=%q\n' "$SB_ROOT" "$build"
	printf 'SB_LAB_SHAPE=%q\nSB_LAB_PACKAGES=2\nSB_LAB_NODES=2\nSB_LAB_CORES=%d\nSB_LAB_PUS=%d\n' \
		"$shape" "$ncores" "$npus"
	printf 'SB_LAB_STATIC_KEYS=%s\nSB_LAB_KERNEL=%q\nSB_LAB_OUT=/lab/out\n' "$keys" "$kernel"
	echo "export SB_ROOT SB_BUILD SB_LAB_SHAPE SB_LAB_PACKAGES SB_LAB_NODES SB_LAB_CORES SB_LAB_PUS SB_LAB_STATIC_KEYS SB_LAB_KERNEL SB_LAB_OUT"
} >"$root/lab/env"
if [ ${#cmd[@]} -eq 0 ]; then
	echo 'exec bash tests/lab/run.sh' >"$root/lab/cmd"
elif [ ${#cmd[@]} -eq 1 ]; then
	printf '%s\n' "${cmd[0]}" >"$root/lab/cmd"
else
	printf 'exec' >"$root/lab/cmd"; printf ' %q' "${cmd[@]}" >>"$root/lab/cmd"; echo >>"$root/lab/cmd"
fi
cpio=$lab/initramfs-$shape.cpio
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) >"$cpio" || sb_die "cannot pack $cpio"

# --- boot: console on ttyS0 (streamed here), status lines on ttyS1 --------
log=$lab/console-$shape.log status=$lab/status-$shape outs=$lab/out-$shape.b64
rm -f "$log" "$status" "$outs"
# the backports QEMU's own firmware first, then the host's (seabios)
qemu_data=()
case $qemu_bin in "$lab_apt_dir"/*) qemu_data=(-L "$lab_apt_dir/qemu/usr/share/qemu" -L /usr/share/qemu -L /usr/share/seabios) ;; esac
numa=()
for n in 0 1; do
	numa+=(-object "memory-backend-ram,id=m$n,size=${mem}M" -numa "node,nodeid=$n,memdev=m$n"
		-numa "cpu,node-id=$n,socket-id=$n")
done
echo "lab: $shape: $npus CPUs ($smp), 2 NUMA nodes x ${mem} MB, $(basename "$vmlinuz") ($kernel), QEMU $("$qemu_bin" --version | sed -n '1s/.*version \([^ ]*\).*/\1/p') ($qemu), initramfs $(( $(stat -c %s "$cpio") >> 20 )) MB, timeout ${timeout}s" >&2
t0=$(date +%s.%N)
set +e
# tsc=reliable: TCG's guest TSC is the host's, the same on every vCPU, but the
# guest's clocksource watchdog, its reads split by the host descheduling a
# vCPU thread, marked it unstable (a 27 ms "skew" in 0.5 s) and moved the
# guest to the emulated HPET: every clock read an MMIO exit, and a static
# key (sched_clock_stable) patched.
# the Intel vendor: the guest kernel reads SMT siblings from CPUID leaf 0xb;
# with an AMD vendor (TCG's "max" copies the host's) it would want the
# topoext leaves TCG lacks, and every thread would look like a core
timeout -k 10 "$timeout" "$qemu_bin" "${qemu_data[@]}" -accel tcg,thread="$tcg" -cpu max,vendor=GenuineIntel -smp "$smp" \
	-m $((2 * mem))M "${numa[@]}" -kernel "$vmlinuz" -initrd "$cpio" \
	-append "console=ttyS0 quiet panic=-1 oops=panic tsc=reliable${append:+ $append}" \
	-display none -monitor none -nodefaults -no-reboot \
	-chardev stdio,id=con,signal=off -serial chardev:con -serial "file:$status" -serial "file:$outs" \
	</dev/null 2>"$lab/qemu-$shape.err" | sed -u 's/\r$//' | tee "$log"
qrc=${PIPESTATUS[0]}
set -e
t1=$(date +%s.%N)
wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
boot=$(awk '$1 == "SB-LAB-BOOT" { print $2 }' "$status" 2>/dev/null | tr -d '\r')
exitl=$(awk '$1 == "SB-LAB-EXIT" { print $2, $3 }' "$status" 2>/dev/null | tr -d '\r')

if [ "$qrc" -eq 124 ] || [ "$qrc" -eq 137 ]; then
	echo "lab: $shape: FAILED: the guest did not finish within ${timeout}s (hung?); console log $log" >&2
	exit 1
fi
if [ -z "$exitl" ]; then
	why="init failed or the guest powered off"
	panic=$(grep -a -m1 'Kernel panic' "$log" | sed 's/^\[[ 0-9.]*\] //')
	[ -z "$panic" ] || why=$panic
	echo "lab: $shape: FAILED: the guest stopped without reporting an exit status ($why); qemu exit $qrc; last console lines:" >&2
	tail -15 "$log" | sed 's/^/  | /' >&2
	[ -s "$lab/qemu-$shape.err" ] && sed 's/^/  qemu: /' "$lab/qemu-$shape.err" >&2
	exit 1
fi
read -r rc end <<<"$exitl"
if [ -n "$results" ]; then
	# the guest's $SB_LAB_OUT, a base64 gzip'd tar on ttyS2 (tests/lab/init)
	mkdir -p "$results" || sb_die "cannot create $results"
	if [ -s "$outs" ] && base64 -di <"$outs" | tar -xz -C "$results"; then
		echo "lab: $shape: the guest's results are in $results" >&2
	else
		echo "lab: $shape: FAILED: the guest's results did not come back ($outs)" >&2
		[ "$rc" -ne 0 ] || rc=1
	fi
fi
echo "lab: $shape: exit $rc; boot ${boot:-?}s to init, command $(awk -v a="${boot:-0}" -v b="$end" 'BEGIN { printf "%.1f", b - a }')s, wall ${wall}s (host); console log $log" >&2
exit "$rc"
